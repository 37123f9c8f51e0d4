/* config.h - what the passes and codegen are told from outside the IR: the target
 * architecture, the address level, memory sizes and the memory report. The driver
 * builds one PassConfig from its command-line Options (driver/options.h) and the
 * language server one from its settings; nothing below the driver sees Options. */
#ifndef PTOAS_CONFIG_H
#define PTOAS_CONFIG_H
#include <stdbool.h>
#include <stdint.h>
#include "ir.h"

/* The release, printed by --version, the language server's serverInfo and stamped
 * into generated C. */
#define PTOAS_VERSION "0.1.0"

/* The target when the module has no pto.target_arch attribute (--pto-arch). */
typedef enum { ARCH_A2, ARCH_A3, ARCH_A5 } Arch;

/* The address level (docs/memory.md section 2): level1 and level2 = automatic
 * addresses, level3 = manual addresses (the tassign pass only checks). */
typedef enum { LEVEL1 = 1, LEVEL2 = 2, LEVEL3 = 3 } Level;

/* Automatic synchronization (passes/insert_sync.c): off (the default of the compiler, as in
 * PTOAS), one of PTOAS's modes by its flag, or AUTO, `ptoas run`'s default: on for a
 * function that has no flag, barrier or event of its own (insert_sync_wanted). PTOAS's
 * graph solver and buffer-id modes run the same set/wait insertion (docs/departures.md). */
typedef enum { SYNC_OFF, SYNC_AUTO, SYNC_INSERT, SYNC_BARRIER_ALL, SYNC_GRAPH, SYNC_BUFID } SyncMode;

typedef struct PassConfig {
    Arch arch;                   /* default a3; a module attribute wins unless arch_given */
    bool arch_given;             /* the user named the arch (--pto-arch, a server setting) */
    Level level;                 /* default level2 */
    uint64_t mem_size[LOC_COUNT]; /* capacity overrides in bytes; 0 = the target's */
    bool no_reuse;               /* every tile at its own bytes (docs/memory.md 4) */
    bool memory_report;          /* docs/memory.md section 6 text into Module.report */
    bool memory_map;             /* the same as a picture */
    const char *func;            /* the function a generated main() runs; NULL = the default */
    bool numerics_sim;           /* --numerics=sim: the kernel table asks the runtime for the
                                    pto-isa CPU simulator's numerics (docs/numerics.md 9) */
    SyncMode sync;               /* automatic synchronization (default SYNC_OFF) */
    bool no_race_check;          /* --no-race-check: codegen tells the race checker nothing
                                    (docs/launch.md 5) */
} PassConfig;

/* The defaults: a3, level2, nothing else. */
static inline PassConfig pass_config_default(void)
{
    PassConfig c = {0};
    c.arch = ARCH_A3;
    c.level = LEVEL2;
    return c;
}

#endif
