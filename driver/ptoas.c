/* ptoas.c - the `ptoas` command: options (docs/cli.md), input, the pass
 * pipeline, output and exit status.
 *
 * Exit status: 0 success; 1 the input has errors (or --verify-diagnostics found
 * a mismatch) - then nothing is written to stdout and no -o file is created;
 * 2 bad usage or an input/output file that cannot be used; 3 an internal error.
 *
 * Each input (the whole file, or each `// -----` chunk with --split-input-file)
 * is parsed, then run through the pipeline (passes/pass.c) up to --stop-after.
 * A pass is one row of that table; a pass that reports an error ends the pipeline for its chunk.
 * Output goes to a staging file first (the -o temporary file, or an anonymous
 * temporary file for stdout when there are several chunks), so that a later
 * chunk's error still leaves nothing behind. */
#include "arena.h"
#include "diag.h"
#include "emit_c.h"
#include "file.h"
#include "frontend.h"
#include "lsp.h"
#include "options.h"
#include "pass.h"
#include "run.h"
#include "suggest.h"
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* ---- usage ---------------------------------------------------------------- */

static const char help_text[] =
    "usage: ptoas [options] [FILE.pto | -]\n"
    "       ptoas run [options] FILE.pto [--func NAME] --in NAME=FILE.npy ... [--out NAME=FILE.npy ...]\n"
    "       ptoas lsp\n"
    "\n"
    "options:\n"
    "  -o FILE                         write the output to FILE atomically (default: stdout)\n"
    "  --emit=ir|generic|c|exe         output kind: canonical IR (default), MLIR generic form, C, executable\n"
    "  --pto-arch=a2|a3|a5             target architecture (default a3; a module attribute wins)\n"
    "  --pto-level=level1|level2|level3  level3 = manual addresses (default level2; 1, 2, 3 also)\n"
    "  --stop-after=PASS               run the pipeline up to PASS (parse, verify, bufferize, tassign, insert-sync) and print\n"
    "  --verify-only                   run verify, bufferize and tassign (and insert-sync); print nothing on success\n"
    "  --enable-insert-sync            insert the set_flag/wait_flag pairs and barriers the pipes need (docs/launch.md 4)\n"
    "  --enable-inject-barrier-all-sync  a barrier on every pipe before each op that touches memory\n"
    "  --enable-graph-sync-solver      accepted (PTOAS's); the same insertion as --enable-insert-sync\n"
    "  --enable-bufid_sync             accepted (PTOAS's; a5 only); the same insertion as --enable-insert-sync\n"
    "  --verify-diagnostics            check expected-* comments against the diagnostics; print the IR of chunks that pass\n"
    "  --Werror                        report warnings as errors\n"
    "  --split-input-file              treat '// -----' lines as separators of independent inputs\n"
    "  --diagnostics-format=text|json  diagnostics as text (default) or one LSP Diagnostic per line\n"
    "  --error-limit=N                 show at most N errors (default 100, 0 = no limit); says how many more\n"
    "  --diagnostics-position-encoding=utf-16|utf-8  JSON characters: UTF-16 code units (default) or bytes\n"
    "  --stdin-file-name=PATH          the name standard input has in diagnostics\n"
    "  --print-ir-after=PASS           dump the IR to stderr after PASS (repeatable)\n"
    "  --print-ir-after-all            dump the IR to stderr after every pass\n"
    "  --memory-report                 print each function's memory use after the IR\n"
    "  --memory-map                    draw each function's memory use as a text picture\n"
    "  --no-reuse                      place every tile at bytes of its own (no reuse after its last use)\n"
    "  --mem-size LOC=BYTES            override the capacity of memory space LOC (repeatable)\n"
    "  --func NAME                     the function to run (--emit=c|exe, run; default: the only one or pto.entry)\n"
    "  --timeout=SECONDS               run: stop the kernel after SECONDS (default 0 = no limit)\n"
    "  --no-cache                      run, --emit=exe: compile the kernel again, bypassing the kernel cache\n"
    "  --numerics=hw|sim               run, --emit=c|exe: the hardware's numerics (default) or the pto-isa CPU simulator's\n"
    "  --no-race-check                 run, --emit=c|exe: no race checker (default: on for functions with flags)\n"
    "\n"
    "MLIR spellings (mlir-opt's options):\n"
    "  --mlir-print-op-generic         the same as --emit=generic\n"
    "  --mlir-print-ir-after-all       the same as --print-ir-after-all\n"
    "  --mlir-print-debuginfo          print each op's location, loc(...), with #loc aliases at the end\n"
    "  --allow-unregistered-dialect    keep generic-form ops of dialects ptoas does not implement (SSA and types checked)\n"
    "\n"
    "ptoas run options (passed to the kernel executable):\n"
    "  --in NAME=FILE                  fill argument %NAME from a .npy (or raw .bin) file\n"
    "  --out NAME=FILE                 write result %NAME as .npy after the run\n"
    "  --out-float NAME=FILE           the same decoded to float32 (bf16, fp8, e8m0, packed fp4); --out keeps raw bits\n"
    "  --arg NAME=VALUE                set the scalar argument %NAME (integer or float)\n"
    "\n"
    "ptoas lsp: a Language Server Protocol server on stdin/stdout (docs/lsp.md)\n"
    "\n"
    "  --version                       print the version and exit\n"
    "  --help                          print this help and exit (ptoas run --help, ptoas lsp --help: theirs)\n";

static const char run_help_text[] =
    "usage: ptoas run [options] FILE.pto [--func NAME] --in NAME=FILE.npy ... [--out NAME=FILE.npy ...]\n"
    "\n"
    "Compiles the kernel FILE.pto to an executable in a temporary directory and runs it on the\n"
    "CPU: every tile argument the kernel reads needs --in, every scalar argument --arg; all\n"
    "missing ones are named at once. Prints a summary line per result (docs/cli.md section 6).\n"
    "\n"
    "options:\n"
    "  --in NAME=FILE                  fill argument %NAME from a .npy (or raw .bin) file\n"
    "  --out NAME=FILE                 write result %NAME as .npy after the run\n"
    "  --out-float NAME=FILE           the same decoded to float32 (bf16, fp8, e8m0, packed fp4); --out keeps raw bits\n"
    "  --arg NAME=VALUE                set the scalar argument %NAME (integer, decimal or 0x, or float)\n"
    "  --func NAME                     the function to run (default: the only one or pto.entry)\n"
    "  --timeout=SECONDS               stop the kernel after SECONDS (default 0 = no limit)\n"
    "  --blocks N                      a launch (a cube and a vector function): run N blocks (default 1)\n"
    "  --block B                       a launch: run only block B\n"
    "  --threads T                     a launch: run T blocks at a time (default: the machine's cores)\n"
    "  --pto-arch=a2|a3|a5             target architecture (default a3; a module attribute wins)\n"
    "  --pto-level=level1|level2|level3  level3 = manual addresses (default level2)\n"
    "  --mem-size LOC=BYTES            override the capacity of memory space LOC (repeatable)\n"
    "  --no-reuse                      place every tile at bytes of its own\n"
    "  --enable-insert-sync            synchronize every function (default: those without flags of their own)\n"
    "  --no-race-check                 do not check the kernel for data races between pipes (docs/launch.md 5)\n"
    "  --Werror                        report warnings as errors\n"
    "  --diagnostics-format=text|json  diagnostics as text (default) or one LSP Diagnostic per line\n"
    "  --help                          print this help and exit\n"
    "\n"
    "exit status: the kernel's (0 success, 1 bad input or a runtime error, 2 an I/O error); 1 when\n"
    "FILE.pto has errors, 2 on bad usage\n";

static const char lsp_help_text[] =
    "usage: ptoas lsp [--stdio]\n"
    "\n"
    "A Language Server Protocol server for .pto files on standard input and output (--stdio is\n"
    "the default and the only transport): diagnostics as you type, hover, completion, go to\n"
    "definition, references, document symbols, inlay hints with tile placement, and code\n"
    "actions. Editor setups for VS Code and neovim: docs/lsp.md.\n"
    "\n"
    "options:\n"
    "  --stdio                         speak LSP on stdin and stdout (the default)\n"
    "  --help                          print this help and exit\n";

static bool json_tool_errors; /* --diagnostics-format=json: tool errors are JSON lines */

/* A usage error: the message, the --help hint, exit 2. */
static _Noreturn void usage_error(const char *fmt, ...) DIAG_PRINTF(1, 2);
static _Noreturn void usage_error(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_tool_error("%s", msg);
    if (!json_tool_errors)
        fputs("ptoas: see 'ptoas --help'\n", stderr);
    exit(2);
}

/* ---- option parsing --------------------------------------------------------- */

typedef enum { ARG_NONE, ARG_REQUIRED } ArgKind;

typedef enum {
    O_EMIT,
    O_ARCH,
    O_LEVEL,
    O_STOP_AFTER,
    O_VERIFY_ONLY,
    O_WERROR,
    O_VERIFY_DIAGNOSTICS,
    O_SPLIT,
    O_DIAG_FORMAT,
    O_ERROR_LIMIT,
    O_POS_ENCODING,
    O_STDIN_NAME,
    O_PRINT_AFTER,
    O_PRINT_AFTER_ALL,
    O_MEMORY_REPORT,
    O_MEMORY_MAP,
    O_NO_REUSE,
    O_MEM_SIZE,
    O_FUNC,
    O_RUN_ARG,
    O_RUN_LAUNCH,
    O_TIMEOUT,
    O_GENERIC,
    O_DEBUGINFO,
    O_UNREGISTERED,
    O_NO_CACHE,
    O_NO_RACE_CHECK,
    O_NUMERICS,
    O_SYNC_INSERT,
    O_SYNC_BARRIER_ALL,
    O_SYNC_GRAPH,
    O_SYNC_BUFID,
    O_VERSION,
    O_HELP
} OptionId;

static const struct LongOption {
    const char *name;
    OptionId id;
    ArgKind arg;
} long_options[] = {
    {"emit", O_EMIT, ARG_REQUIRED},
    {"pto-arch", O_ARCH, ARG_REQUIRED},
    {"pto-level", O_LEVEL, ARG_REQUIRED},
    {"stop-after", O_STOP_AFTER, ARG_REQUIRED},
    {"verify-only", O_VERIFY_ONLY, ARG_NONE},
    {"Werror", O_WERROR, ARG_NONE},
    {"verify-diagnostics", O_VERIFY_DIAGNOSTICS, ARG_NONE},
    {"split-input-file", O_SPLIT, ARG_NONE},
    {"diagnostics-format", O_DIAG_FORMAT, ARG_REQUIRED},
    {"error-limit", O_ERROR_LIMIT, ARG_REQUIRED},
    {"diagnostics-position-encoding", O_POS_ENCODING, ARG_REQUIRED},
    {"stdin-file-name", O_STDIN_NAME, ARG_REQUIRED},
    {"print-ir-after", O_PRINT_AFTER, ARG_REQUIRED},
    {"print-ir-after-all", O_PRINT_AFTER_ALL, ARG_NONE},
    {"memory-report", O_MEMORY_REPORT, ARG_NONE},
    {"memory-map", O_MEMORY_MAP, ARG_NONE},
    {"no-reuse", O_NO_REUSE, ARG_NONE},
    {"mem-size", O_MEM_SIZE, ARG_REQUIRED},
    {"func", O_FUNC, ARG_REQUIRED},
    {"in", O_RUN_ARG, ARG_REQUIRED},
    {"out", O_RUN_ARG, ARG_REQUIRED},
    {"out-float", O_RUN_ARG, ARG_REQUIRED},
    {"arg", O_RUN_ARG, ARG_REQUIRED},
    {"timeout", O_TIMEOUT, ARG_REQUIRED},
    {"blocks", O_RUN_LAUNCH, ARG_REQUIRED},
    {"block", O_RUN_LAUNCH, ARG_REQUIRED},
    {"threads", O_RUN_LAUNCH, ARG_REQUIRED},
    {"mlir-print-op-generic", O_GENERIC, ARG_NONE},
    {"mlir-print-ir-after-all", O_PRINT_AFTER_ALL, ARG_NONE},
    {"mlir-print-debuginfo", O_DEBUGINFO, ARG_NONE},
    {"allow-unregistered-dialect", O_UNREGISTERED, ARG_NONE},
    {"no-cache", O_NO_CACHE, ARG_NONE},
    {"numerics", O_NUMERICS, ARG_REQUIRED},
    {"enable-insert-sync", O_SYNC_INSERT, ARG_NONE},
    {"enable-inject-barrier-all-sync", O_SYNC_BARRIER_ALL, ARG_NONE},
    {"enable-graph-sync-solver", O_SYNC_GRAPH, ARG_NONE},
    {"enable-bufid_sync", O_SYNC_BUFID, ARG_NONE},
    {"no-race-check", O_NO_RACE_CHECK, ARG_NONE},
    {"version", O_VERSION, ARG_NONE},
    {"help", O_HELP, ARG_NONE},
};
#define NLONG (sizeof long_options / sizeof long_options[0])

/* Index of value in the NULL-terminated list names, or -1. */
static int pick(const char *value, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(value, names[i]) == 0)
            return i;
    return -1;
}

static PassId parse_pass_name(const char *opt, const char *value)
{
    PassId p = pass_lookup(value);
    if (p == PASS_COUNT)
        usage_error("invalid value '%s' for --%s, expected parse, verify, bufferize, tassign or insert-sync",
                    value, opt);
    return p;
}

/* BYTES of --mem-size: decimal or 0x hexadecimal, optionally K/KiB (1024) or
 * M/MiB (1024*1024); between 1 and 4294967295. */
static uint64_t parse_bytes(const char *s, bool *ok)
{
    const char *p = s;
    uint64_t v = 0;
    int base = 10;
    *ok = false;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    const char *digits = p;
    for (;; p++) {
        int dv;
        if (*p >= '0' && *p <= '9')
            dv = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            dv = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            dv = *p - 'A' + 10;
        else
            break;
        v = v * (uint64_t)base + (uint64_t)dv;
        if (v > UINT32_MAX)
            return 0;
    }
    if (p == digits)
        return 0;
    if (strcmp(p, "K") == 0 || strcmp(p, "KiB") == 0)
        v *= 1024;
    else if (strcmp(p, "M") == 0 || strcmp(p, "MiB") == 0)
        v *= 1024 * 1024;
    else if (*p)
        return 0;
    if (v == 0 || v > UINT32_MAX)
        return 0;
    *ok = true;
    return v;
}

static void parse_mem_size(Options *o, const char *value)
{
    const char *eq = strchr(value, '=');
    if (!eq)
        usage_error("invalid value '%s' for --mem-size, expected LOC=BYTES", value);
    int loc = -1;
    for (int i = 0; i < LOC_COUNT; i++) {
        const char *n = enum_info[EK_LOC].names[i];
        if (strlen(n) == (size_t)(eq - value) && memcmp(n, value, (size_t)(eq - value)) == 0)
            loc = i;
    }
    if (loc < 0)
        usage_error("unknown memory space '%.*s' in --mem-size, expected one of vec, mat, left, "
                    "right, acc, bias, scaling",
                    (int)(eq - value), value);
    bool ok;
    uint64_t bytes = parse_bytes(eq + 1, &ok);
    if (!ok)
        usage_error("invalid size '%s' in --mem-size, expected a number of bytes between 1 and "
                    "4294967295 (suffix K or M allowed)",
                    eq + 1);
    o->mem_size[loc] = bytes;
}

/* The options that pick one of a few names (--emit, --pto-arch, --pto-level); false for
 * the others. */
static bool apply_choice(Options *o, int id, const char *value)
{
    switch (id) {
    case O_EMIT: {
        static const char *const names[] = {"ir", "generic", "c", "exe", NULL};
        int i = pick(value, names);
        if (i < 0)
            usage_error("invalid value '%s' for --emit, expected ir, generic, c or exe", value);
        o->emit = (OptEmit)i;
        return true;
    }
    case O_ARCH: {
        static const char *const names[] = {"a2", "a3", "a5", NULL};
        int i = pick(value, names);
        if (i < 0)
            usage_error("invalid value '%s' for --pto-arch, expected a2, a3 or a5", value);
        o->arch = (Arch)i;
        o->arch_given = true;
        return true;
    }
    case O_LEVEL: {
        static const char *const names[] = {"level1", "level2", "level3", NULL};
        static const char *const digits[] = {"1", "2", "3", NULL};
        int i = pick(value, names);
        if (i < 0)
            i = pick(value, digits);
        if (i < 0)
            usage_error("invalid value '%s' for --pto-level, expected level1, level2, level3, 1, 2 or 3",
                        value);
        o->level = (Level)(i + 1);
        return true;
    }
    default:
        return false;
    }
}

static void apply_option(Options *o, const struct LongOption *lo, const char *value)
{
    if (apply_choice(o, lo->id, value))
        return;
    switch (lo->id) {
    case O_EMIT:
    case O_ARCH:
    case O_LEVEL:
        break; /* apply_choice */
    case O_STOP_AFTER:
        o->stop_after = parse_pass_name(lo->name, value);
        break;
    case O_VERIFY_ONLY:
        o->verify_only = true;
        break;
    case O_WERROR:
        o->werror = true;
        break;
    case O_VERIFY_DIAGNOSTICS:
        o->verify_diagnostics = true;
        break;
    case O_SPLIT:
        o->split_input_file = true;
        break;
    case O_DIAG_FORMAT:
        if (strcmp(value, "text") == 0)
            o->diag_format = DIAG_TEXT;
        else if (strcmp(value, "json") == 0)
            o->diag_format = DIAG_JSON;
        else
            usage_error("invalid value '%s' for --diagnostics-format, expected text or json",
                        value);
        break;
    case O_ERROR_LIMIT: {
        char *end;
        errno = 0;
        unsigned long v = value[0] >= '0' && value[0] <= '9' ? strtoul(value, &end, 10) : 0;
        if (value[0] < '0' || value[0] > '9' || *end || errno || v > UINT32_MAX)
            usage_error("invalid value '%s' for --error-limit, expected a number (0 = no limit)",
                        value);
        o->error_limit = (unsigned)v;
        break;
    }
    case O_TIMEOUT: {
        if (!o->run)
            usage_error("option '--timeout' is only valid with 'ptoas run'");
        char *end;
        errno = 0;
        unsigned long v = value[0] >= '0' && value[0] <= '9' ? strtoul(value, &end, 10) : 0;
        if (value[0] < '0' || value[0] > '9' || *end || errno || v > INT32_MAX)
            usage_error("invalid value '%s' for --timeout, expected whole seconds (0 = no limit)", value);
        o->run_timeout = (unsigned)v;
        break;
    }
    case O_POS_ENCODING:
        if (strcmp(value, "utf-16") == 0)
            o->pos_encoding = POS_UTF16;
        else if (strcmp(value, "utf-8") == 0)
            o->pos_encoding = POS_UTF8;
        else
            usage_error("invalid value '%s' for --diagnostics-position-encoding, expected utf-16 "
                        "or utf-8",
                        value);
        break;
    case O_STDIN_NAME:
        if (!*value)
            usage_error("option '--stdin-file-name' needs a file name");
        o->stdin_name = value;
        break;
    case O_PRINT_AFTER: {
        /* A comma-separated list is accepted too: --print-ir-after=parse,verify. */
        const char *p = value;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t n = comma ? (size_t)(comma - p) : strlen(p);
            char name[32];
            if (n >= sizeof name)
                n = sizeof name - 1;
            memcpy(name, p, n);
            name[n] = '\0';
            o->print_ir_after[parse_pass_name(lo->name, name)] = true;
            if (!comma)
                break;
            p = comma + 1;
        }
        break;
    }
    case O_PRINT_AFTER_ALL:
        for (int i = 0; i < PASS_COUNT; i++)
            o->print_ir_after[i] = true;
        break;
    case O_MEMORY_REPORT:
        o->memory_report = true;
        break;
    case O_MEMORY_MAP:
        o->memory_map = true;
        break;
    case O_NO_REUSE:
        o->no_reuse = true;
        break;
    case O_NO_CACHE:
        o->no_cache = true;
        break;
    case O_NO_RACE_CHECK:
        o->no_race_check = true;
        break;
    case O_NUMERICS:
        if (strcmp(value, "hw") != 0 && strcmp(value, "sim") != 0)
            usage_error("invalid value '%s' for --numerics, expected hw or sim", value);
        o->numerics_sim = value[0] == 's';
        o->numerics_given = true;
        break;
    case O_MEM_SIZE:
        parse_mem_size(o, value);
        break;
    case O_SYNC_INSERT:
    case O_SYNC_BARRIER_ALL:
    case O_SYNC_GRAPH:
    case O_SYNC_BUFID:
        o->sync = lo->id == O_SYNC_INSERT        ? SYNC_INSERT
                  : lo->id == O_SYNC_BARRIER_ALL ? SYNC_BARRIER_ALL
                  : lo->id == O_SYNC_GRAPH       ? SYNC_GRAPH
                                                 : SYNC_BUFID;
        o->sync_flags |= 1u << o->sync;
        break;
    case O_FUNC:
        o->func = value[0] == '@' ? value + 1 : value;
        break;
    case O_RUN_ARG: {
        /* --in/--out/--arg NAME=VALUE go to the kernel executable as they are */
        if (!o->run)
            usage_error("option '--%s' is only valid with 'ptoas run'", lo->name);
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || !eq[1])
            usage_error("invalid value '%s' for --%s, expected NAME=%s", value, lo->name,
                        lo->name[0] == 'a' ? "INT" : "FILE");
        o->run_args = xrealloc(o->run_args, (size_t)(o->nrun_args + 2) * sizeof *o->run_args);
        static const char *const flags[] = {"--in", "--out", "--out-float", "--arg"};
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            if (strcmp(flags[k] + 2, lo->name) == 0)
                o->run_args[o->nrun_args] = flags[k];
        o->nrun_args++;
        o->run_args[o->nrun_args++] = value;
        break;
    }
    case O_RUN_LAUNCH: {
        /* --blocks/--block/--threads N go to the kernel executable, which checks them */
        if (!o->run)
            usage_error("option '--%s' is only valid with 'ptoas run'", lo->name);
        static const char *const flags[] = {"--blocks", "--block", "--threads"};
        o->run_args = xrealloc(o->run_args, (size_t)(o->nrun_args + 2) * sizeof *o->run_args);
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            if (strcmp(flags[k] + 2, lo->name) == 0)
                o->run_args[o->nrun_args] = flags[k];
        o->nrun_args++;
        o->run_args[o->nrun_args++] = value;
        break;
    }
    case O_GENERIC:
        o->emit = OPT_EMIT_GENERIC;
        break;
    case O_DEBUGINFO:
        o->debuginfo = true;
        break;
    case O_UNREGISTERED:
        o->allow_unregistered = true;
        break;
    case O_VERSION:
        printf("ptoas %s\n", PTOAS_VERSION);
        exit(fflush(stdout) == 0 ? 0 : 2);
    case O_HELP:
        fputs(o->run ? run_help_text : help_text, stdout);
        exit(fflush(stdout) == 0 ? 0 : 2);
    }
}

/* The long option named by arg (after its dashes), or NULL. */
static const struct LongOption *find_long(const char *name, size_t n)
{
    for (size_t i = 0; i < NLONG; i++)
        if (strlen(long_options[i].name) == n && memcmp(long_options[i].name, name, n) == 0)
            return &long_options[i];
    return NULL;
}

/* An unknown option: the error, and the closest option names as mlir-opt
 * gives them ("did you mean '--memory-report'?"), then the --help hint. */
static _Noreturn void unknown_option(const char *arg, const char *name, size_t n)
{
    diag_tool_error("unknown option '%s'", arg);
    Suggest sg;
    suggest_init(&sg, name, n);
    for (size_t i = 0; i < NLONG; i++)
        suggest_offer(&sg, long_options[i].name, strlen(long_options[i].name));
    if (!json_tool_errors)
        for (uint32_t i = 0; i < sg.n; i++)
            fprintf(stderr, "ptoas: did you mean '--%.*s'?\n", (int)sg.len[i], sg.name[i]);
    if (!json_tool_errors)
        fputs("ptoas: see 'ptoas --help'\n", stderr);
    exit(2);
}

/* Long options take one or two dashes (mlir-opt style `-split-input-file`
 * works); a value follows '=' or is the next argument. --help and --version
 * act at once, so that later arguments do not matter. */
static void parse_args(Options *o, int argc, char **argv)
{
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            if (o->input)
                usage_error("more than one input file: '%s' and '%s'", o->input, a);
            o->input = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = true;
            continue;
        }
        if (strcmp(a, "-h") == 0) {
            fputs(o->run ? run_help_text : help_text, stdout);
            exit(fflush(stdout) == 0 ? 0 : 2);
        }
        const char *name = a[1] == '-' ? a + 2 : a + 1;
        const char *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        const struct LongOption *lo = find_long(name, n);
        if (!lo && a[1] == 'o') { /* -o FILE, -oFILE */
            const char *file = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!file || !*file)
                usage_error("option '-o' needs a file name");
            o->output = file;
            continue;
        }
        if (!lo)
            unknown_option(a, name, n);
        const char *value = NULL;
        if (lo->arg == ARG_NONE) {
            if (eq)
                usage_error("option '--%s' takes no value", lo->name);
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            usage_error("option '--%s' needs a value", lo->name);
        }
        apply_option(o, lo, value);
    }
    if (!o->input)
        o->input = "-";
    if (o->sync_flags & (o->sync_flags - 1)) /* PTOAS's messages */
        usage_error("--enable-insert-sync, --enable-bufid_sync, --enable-inject-barrier-all-sync, and "
                    "--enable-graph-sync-solver are mutually exclusive");
    if (o->sync == SYNC_BUFID && o->arch != ARCH_A5)
        usage_error("--enable-bufid_sync requires --pto-arch=a5");
    if (o->run) {
        if (o->output)
            usage_error("'ptoas run' writes no output file; use --out NAME=FILE for results");
        o->emit = OPT_EMIT_EXE;
    } else if (o->emit == OPT_EMIT_EXE && !o->output) {
        usage_error("--emit=exe needs an output file: -o FILE");
    }
    if (o->no_cache && o->emit != OPT_EMIT_EXE)
        usage_error("option '--no-cache' is only valid with 'ptoas run' or --emit=exe");
    if (o->numerics_given && o->emit != OPT_EMIT_EXE && o->emit != OPT_EMIT_C)
        usage_error("option '--numerics' is only valid with 'ptoas run' or --emit=c|exe");
    if (o->no_race_check && o->emit != OPT_EMIT_EXE && o->emit != OPT_EMIT_C)
        usage_error("option '--no-race-check' is only valid with 'ptoas run' or --emit=c|exe");
    if ((o->emit == OPT_EMIT_EXE || o->emit == OPT_EMIT_C) && o->output &&
        strcmp(o->input, "-") != 0) {
        /* `--emit=exe k.pto -o k.pto` would replace the source by the program */
        struct stat si, so;
        if (stat(o->input, &si) == 0 && stat(o->output, &so) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino)
            usage_error("the output file '%s' is the input file: refusing to overwrite it",
                        o->output);
    }
    if (o->emit == OPT_EMIT_EXE || o->emit == OPT_EMIT_C) {
        const char *bad = o->split_input_file     ? "--split-input-file"
                          : o->verify_only        ? "--verify-only"
                          : o->verify_diagnostics ? "--verify-diagnostics"
                                                  : NULL;
        if (bad)
            usage_error("%s cannot be combined with %s", bad,
                        o->run ? "'ptoas run'" : o->emit == OPT_EMIT_C ? "--emit=c" : "--emit=exe");
    }
}

/* ---- the pipeline ------------------------------------------------------------ */

typedef struct Driver {
    Options opt;
    PassConfig cfg;     /* what the passes and codegen are told: made of opt */
    SourceFile src;
    DiagEngine *diag;
    OutFile out;        /* -o, or stdout */
    FILE *stage;        /* where the IR of each chunk goes; NULL when nothing is printed */
    bool stage_is_tmp;  /* stage is an anonymous file copied to stdout at the end */
    unsigned chunks_printed;
    char *tmpdir;       /* --emit=exe and run: the generated C (and run's executable) */
} Driver;

static Driver *the_driver; /* for the internal-error hook */

/* On an internal error or out of memory: show the diagnostics reported so
 * far, then remove every temporary (the -o file's, the directory of
 * --emit=exe and run). */
static void remove_output(void)
{
    if (the_driver && the_driver->diag)
        diag_flush(the_driver->diag);
    file_temp_remove_all();
}

/* SIGINT, SIGTERM, SIGHUP: the compiler or kernel gets the signal too and is
 * waited for (it may be writing into our temporary directory), the
 * temporaries are removed, and ptoas dies of the signal as it would have. */
static void on_fatal_signal(int sig)
{
    pid_t child = run_child_pid;
    if (child > 0) {
        kill(child, sig);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    file_temp_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigfillset(&sa.sa_mask);
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup) stays ignored */
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(fatal[i], &sa, NULL);
    }
    /* A file size limit (ulimit -f): write(2) fails with EFBIG and is
     * reported as any write error, instead of SIGXFSZ killing us silently
     * with the temporary file left. The compiler and kernel inherit this. */
    signal(SIGXFSZ, SIG_IGN);
}

static void dump_after(Driver *dr, PassId pass, const Module *m)
{
    if (!dr->opt.print_ir_after[pass] || (pass == PASS_INSERT_SYNC && dr->cfg.sync == SYNC_OFF))
        return;
    diag_flush(dr->diag); /* diagnostics so far come before the dump */
    fflush(stdout);
    fprintf(stderr, "// -----// IR Dump After %s //----- //\n", pass_name(pass));
    frontend_print_opts(stderr, m, dr->opt.emit == OPT_EMIT_GENERIC, dr->opt.debuginfo);
    fflush(stderr);
}

/* Debug builds (the sanitized one the tests use) run the verifier again after
 * every transforming pass: a pass that makes invalid IR is a bug in ptoas. */
static void reverify(Driver *dr, PassId after, Module *m)
{
#ifdef PTOAS_DEBUG
    FILE *sink = tmpfile();
    if (!sink)
        return;
    DiagEngine *d = diag_new(&dr->src, DIAG_TEXT, sink);
    bool ok = verify_module(m, &dr->src, d, &dr->cfg);
    diag_flush(d);
    if (!ok) {
        char first[512] = "";
        rewind(sink);
        if (!fgets(first, sizeof first, sink))
            first[0] = 0;
        first[strcspn(first, "\n")] = 0;
        diag_free(d);
        fclose(sink);
        DIAG_INTERNAL("the IR after '%s' fails verification: %s", pass_name(after), first);
    }
    diag_free(d);
    fclose(sink);
#else
    (void)dr;
    (void)after;
    (void)m;
#endif
}

/* Whether function f of mod is NAME (len n). */
static bool func_named(const Func *f, const char *name, size_t n)
{
    return f->name.len == n && memcmp(f->name.p, name, n) == 0;
}

/* A function and where it is: m->mods[mod]->funcs[idx]. */
typedef struct FuncAt {
    const Func *f;
    uint32_t mod, idx;
} FuncAt;

static int cmp_func_at(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)((const FuncAt *)x)->f, b = (uintptr_t)((const FuncAt *)y)->f;
    return (a > b) - (a < b);
}

/* Marks f kept and queues it, once. */
static void keep_func(const FuncAt *at, uint32_t n, bool *keep, const Func *f, const FuncAt **work, uint32_t *nwork)
{
    FuncAt key = {f, 0, 0};
    const FuncAt *p = bsearch(&key, at, n, sizeof *at, cmp_func_at);
    if (p && !keep[p - at]) {
        keep[p - at] = true;
        work[(*nwork)++] = p;
    }
}

/* --func NAME with --emit=c|exe and run: only that function and the functions its calls
 * reach are compiled. The others are dropped right after parsing, so a file of thousands of
 * kernels costs one kernel's passes. An unknown NAME keeps everything: codegen reports it
 * with the list of names. */
static void keep_only_func(Module *m, const char *name)
{
    size_t nl = strlen(name);
    const Func *first = NULL;
    uint32_t total = 0;
    for (uint32_t i = 0; i < m->nmods; i++) {
        total += m->mods[i]->nfuncs;
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            if (func_named(m->mods[i]->funcs[j], name, nl) && (!first || (first->decl && !m->mods[i]->funcs[j]->decl)))
                first = m->mods[i]->funcs[j]; /* the first definition of that name, else the first declaration */
    }
    if (!first)
        return;
    FuncAt *at = xmalloc(total * sizeof *at);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            at[n++] = (FuncAt){m->mods[i]->funcs[j], i, j};
    qsort(at, n, sizeof *at, cmp_func_at);
    bool *keep = xcalloc(n, sizeof *keep);
    const FuncAt **work = xmalloc(n * sizeof *work); /* each function is queued once */
    uint32_t nwork = 0;
    keep_func(at, n, keep, first, work, &nwork); /* that function, and what it calls */
    while (nwork > 0) {
        /* a call names a function of the caller's module; a declaration there also keeps the
         * definition another module gives it (ir_func_definition) */
        const FuncAt *w = work[--nwork];
        const ModuleOp *mod = m->mods[w->mod];
        for (const Op *op = ir_first_op(w->f); op; op = ir_next_op(op)) {
            const Attr *a = op->kind == OP_CALL ? ir_attr_find(op->attrs, op->nattrs, "callee") : NULL;
            if (!a || a->val->kind != AV_SYMBOL)
                continue;
            for (uint32_t j = 0; j < mod->nfuncs; j++)
                if (func_named(mod->funcs[j], a->val->u.s.p, a->val->u.s.len)) {
                    const Func *g = mod->funcs[j], *def = g->decl ? ir_func_definition(m, g) : NULL;
                    keep_func(at, n, keep, g, work, &nwork);
                    if (def)
                        keep_func(at, n, keep, def, work, &nwork);
                    break;
                }
        }
    }
    bool **kept_at = xcalloc(m->nmods, sizeof *kept_at);
    for (uint32_t i = 0; i < m->nmods; i++)
        kept_at[i] = xcalloc(m->mods[i]->nfuncs ? m->mods[i]->nfuncs : 1, sizeof **kept_at);
    for (uint32_t k = 0; k < n; k++)
        kept_at[at[k].mod][at[k].idx] = keep[k];
    for (uint32_t i = 0; i < m->nmods; i++) {
        ModuleOp *mod = m->mods[i];
        uint32_t kept = 0;
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            if (kept_at[i][j]) {
                mod->funcs[kept++] = mod->funcs[j];
                continue;
            }
            free(mod->funcs[j]->values); /* the Func and its ops live in the module's arena */
        }
        mod->nfuncs = kept;
        free(kept_at[i]);
    }
    free(kept_at);
    free(keep);
    free(work);
    free(at);
}

/* Parses src[begin, end) and runs the pipeline on it; prints the result to
 * the staging file when everything succeeded. Returns false on any error. */
static bool run_chunk(Driver *dr, uint32_t begin, uint32_t end)
{
    unsigned errors = diag_error_count(dr->diag);
    Module *m = frontend_parse_opts(&dr->src, begin, end, dr->diag,
                                    dr->opt.allow_unregistered ? FRONTEND_ALLOW_UNREGISTERED : 0);
    DIAG_ASSERT(m != NULL);
    bool ok = diag_error_count(dr->diag) == errors;
    if (ok && dr->opt.func && (dr->opt.emit == OPT_EMIT_C || dr->opt.emit == OPT_EMIT_EXE))
        keep_only_func(m, dr->opt.func);
    if (ok)
        dump_after(dr, PASS_PARSE, m);
    for (unsigned i = 0; ok && i < pass_pipeline_len; i++) {
        const PassDef *p = &pass_pipeline[i];
        if (!p->run)
            continue;
        if (p->id > dr->opt.stop_after)
            break;
        bool passed = p->run(m, &dr->src, dr->diag, &dr->cfg);
        bool clean = diag_error_count(dr->diag) == errors;
        if (passed != clean)
            DIAG_INTERNAL("pass '%s' returned %s but reported %u error(s)", pass_name(p->id),
                          passed ? "success" : "failure", diag_error_count(dr->diag) - errors);
        ok = passed;
        if (ok && p->id != PASS_VERIFY)
            reverify(dr, p->id, m);
        if (ok)
            dump_after(dr, p->id, m);
    }
    if (ok && dr->stage) {
        if (dr->chunks_printed++ > 0 && !dr->opt.verify_diagnostics)
            fputs("// -----\n", dr->stage);
        if (dr->opt.emit == OPT_EMIT_C || dr->opt.emit == OPT_EMIT_EXE) {
            /* the memory report cannot go into C source: it goes to stderr */
            diag_flush(dr->diag);
            fwrite(m->report.p ? m->report.p : "", 1, m->report.len, stderr);
            ok = emit_c(dr->stage, m, &dr->src, dr->diag, &dr->cfg, dr->opt.emit == OPT_EMIT_EXE);
        } else {
            if (!dr->opt.verify_only)
                frontend_print_opts(dr->stage, m, dr->opt.emit == OPT_EMIT_GENERIC, dr->opt.debuginfo);
            fwrite(m->report.p ? m->report.p : "", 1, m->report.len, dr->stage);
        }
    }
    frontend_free(m);
    return ok;
}

/* True when the line [p, le) is a chunk separator: "// -----" then only blanks. */
static bool is_separator(const char *p, const char *le)
{
    static const char marker[] = "// -----";
    size_t n = sizeof marker - 1;
    if ((size_t)(le - p) < n || memcmp(p, marker, n) != 0)
        return false;
    for (p += n; p < le; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r')
            return false;
    return true;
}

/* Runs every chunk; returns the exit status (0 or 1). */
static int run_all(Driver *dr)
{
    const char *text = dr->src.text;
    uint32_t len = (uint32_t)dr->src.len;
    bool all_ok = true;
    uint32_t begin = 0;
    const char *p = text, *end = text + len;
    for (;;) {
        /* Find the end of this chunk: the next separator line, or the end of file. */
        uint32_t chunk_end = len, next = len;
        bool more = false;
        if (dr->opt.split_input_file) {
            while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                const char *le = nl ? nl : end;
                if (is_separator(p, le)) {
                    chunk_end = (uint32_t)(p - text);
                    next = nl ? (uint32_t)(nl + 1 - text) : len;
                    more = true;
                    p = nl ? nl + 1 : end;
                    break;
                }
                p = nl ? nl + 1 : end;
            }
        }
        /* --verify-diagnostics prints as mlir-opt does: a separator between all
         * chunks, also around the ones that failed and print nothing */
        if (dr->opt.verify_diagnostics && dr->stage && begin > 0)
            fputs("// -----\n", dr->stage);
        bool ok = run_chunk(dr, begin, chunk_end);
        if (dr->opt.verify_diagnostics)
            ok = diag_verify(dr->diag, begin, chunk_end);
        all_ok = all_ok && ok;
        if (!more)
            break;
        begin = next;
    }
    diag_flush(dr->diag);
    return all_ok ? 0 : 1;
}

/* Copies the anonymous staging file to stdout. */
static bool copy_stage(FILE *stage)
{
    char buf[65536];
    size_t n;
    if (fflush(stage) != 0 || fseek(stage, 0, SEEK_SET) != 0)
        return false;
    while ((n = fread(buf, 1, sizeof buf, stage)) > 0)
        if (fwrite(buf, 1, n, stdout) != n)
            return false;
    return !ferror(stage);
}

/* The source and its diagnostics engine, as the options say: the name of
 * standard input, the JSON position encoding, tool errors naming the file. */
static void open_source(Driver *dr, const char *text, size_t len)
{
    Options *o = &dr->opt;
    source_init(&dr->src, o->input, text, len);
    if (o->stdin_name && strcmp(o->input, "-") == 0)
        source_rename(&dr->src, o->stdin_name);
    dr->diag = diag_new(&dr->src, o->diag_format, stderr);
    diag_set_error_limit(dr->diag, o->error_limit);
    diag_set_position_encoding(dr->diag, o->pos_encoding);
    if (o->diag_format == DIAG_JSON)
        diag_set_tool_format(DIAG_JSON, dr->src.uri);
}

/* Usage errors come as JSON lines when --diagnostics-format=json appears
 * anywhere on the command line, even after the bad option. */
static void scan_json_format(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        const char *name = a[0] == '-' ? a + 1 + (a[1] == '-') : NULL;
        if (!name)
            continue;
        if (strcmp(name, "diagnostics-format=json") == 0 ||
            (strcmp(name, "diagnostics-format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
            json_tool_errors = true;
    }
    if (json_tool_errors)
        diag_set_tool_format(DIAG_JSON, NULL);
}

/* ptoas run in JSON mode: a line of the kernel's stderr as a JSON line.
 * "FILE:L:C: runtime error: MSG" (the harness names the failing op by its
 * place, L and C 1-based, C in bytes) becomes a diagnostic at that op with
 * the label "runtime error"; any other line ("error: argument ...") a tool
 * error. */
static void kernel_error_json(void *ctx, const char *line)
{
    Driver *dr = ctx;
    static const char tag[] = ": runtime error: ";
    const char *m = strstr(line, tag);
    if (m) {
        /* ":L:C" right before the tag, read from the right: the file name may hold ':' */
        const char *p = m;
        unsigned long v[2] = {0, 0};
        bool ok = true;
        for (int k = 1; k >= 0 && ok; k--) {
            const char *e = p;
            unsigned long mul = 1;
            while (p > line && p[-1] >= '0' && p[-1] <= '9' && mul <= 100000000) {
                v[k] += (unsigned long)(p[-1] - '0') * mul;
                mul *= 10;
                p--;
            }
            ok = p < e && p > line && p[-1] == ':' && v[k] > 0;
            p--;
        }
        if (ok) {
            uint32_t off = source_offset(&dr->src, (uint32_t)(v[0] - 1), (uint32_t)(v[1] - 1), POS_UTF8);
            uint32_t end = off;
            while (end < dr->src.len && (dr->src.text[end] == '.' || dr->src.text[end] == '_' ||
                                         (dr->src.text[end] >= 'a' && dr->src.text[end] <= 'z')))
                end++;
            diag_error_labeled(dr->diag, (Span){off, end}, "runtime error", "%s", m + sizeof tag - 1);
            diag_flush(dr->diag);
            return;
        }
    }
    diag_tool_error("%s", strncmp(line, "error: ", 7) == 0 ? line + 7 : line);
}

/* --emit=exe and ptoas run: the C goes to a file in a temporary directory,
 * is compiled to -o (or, for run, next to it and executed). */
static int build_exe(Driver *dr)
{
    Options *o = &dr->opt;
    char *text;
    size_t len;
    char err[512];
    if (file_read_all(o->input, &text, &len, err, sizeof err) != 0)
        usage_error("%s", err);
    int status = 2;
    dr->tmpdir = run_tmpdir_create();
    char *c_path = NULL, *exe = NULL;
    if (dr->tmpdir) {
        size_t n = strlen(dr->tmpdir) + 16;
        c_path = xmalloc(n);
        exe = xmalloc(n);
        snprintf(c_path, n, "%s/kernel.c", dr->tmpdir);
        snprintf(exe, n, "%s/kernel", dr->tmpdir);
        file_temp_track(c_path, false);
        file_temp_track(exe, false);
        dr->stage = fopen(c_path, "w");
        if (!dr->stage)
            diag_tool_error("cannot create '%s': %s", c_path, strerror(errno));
    }
    if (dr->stage) {
        open_source(dr, text, len);
        diag_set_werror(dr->diag, o->werror);
        status = run_all(dr);
        if (diag_error_count(dr->diag) > 0)
            status = 1;
        if (fclose(dr->stage) != 0 && status == 0) {
            diag_tool_error("cannot write '%s': %s", c_path, strerror(errno));
            status = 2;
        }
        dr->stage = NULL;
        if (status == 0)
            status = run_compile(c_path, o->run ? exe : o->output, !o->no_cache);
        if (status == 0 && o->run)
            status = run_exec(exe, o->run_args, o->nrun_args, dr->tmpdir, o->run_timeout,
                              o->diag_format == DIAG_JSON ? kernel_error_json : NULL, dr);
        diag_free(dr->diag);
        dr->diag = NULL;
        source_free(&dr->src);
    }
    if (c_path) {
        file_temp_untrack(c_path);
        file_temp_untrack(exe);
    }
    run_tmpdir_remove(dr->tmpdir);
    free(dr->tmpdir);
    dr->tmpdir = NULL;
    free(c_path);
    free(exe);
    free(o->run_args);
    free(text);
    return status;
}

int main(int argc, char **argv)
{
    static Driver dr; /* static: zeroed, and reachable from the internal-error hook */
    Options *o = &dr.opt;
    o->emit = OPT_EMIT_IR;
    o->arch = ARCH_A3;
    o->level = LEVEL2;
    o->stop_after = PASS_INSERT_SYNC;
    o->diag_format = DIAG_TEXT;
    if (argc > 1 && strcmp(argv[1], "lsp") == 0) {
        /* ptoas lsp [--stdio]: the language server on stdin/stdout */
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                fputs(lsp_help_text, stdout);
                return fflush(stdout) == 0 ? 0 : 2;
            }
            if (strcmp(argv[i], "--stdio") != 0)
                usage_error("unknown argument '%s' for 'ptoas lsp' (it speaks LSP on stdin and stdout)",
                            argv[i]);
        }
        return lsp_main(0, stdout);
    }
    o->error_limit = 100;
    install_signal_handlers();
    the_driver = &dr;
    diag_set_internal_hook(remove_output);
    if (argc > 1 && strcmp(argv[1], "run") == 0) {
        /* ptoas run [options] FILE.pto ...: the same options after "run" */
        o->run = true;
        argv[1] = argv[0];
        argc--;
        argv++;
    }
    scan_json_format(argc, argv);
    parse_args(o, argc, argv);
    dr.cfg = options_pass_config(o);
    if (o->emit == OPT_EMIT_EXE)
        return build_exe(&dr);

    char *text;
    size_t len;
    char err[512];
    if (file_read_all(o->input, &text, &len, err, sizeof err) != 0)
        usage_error("%s", err);

    /* Where the IR goes: nowhere in the checking modes; else -o (its temporary
     * file is the staging file) or stdout (staged when several chunks). */
    bool prints = !o->verify_only || o->memory_report || o->memory_map;
    if (prints) {
        if (outfile_open(&dr.out, o->output, err, sizeof err) != 0) {
            diag_tool_error("%s", err);
            free(text);
            return 2;
        }
        dr.stage = dr.out.fp;
        if (dr.stage == stdout && o->split_input_file) {
            dr.stage = tmpfile();
            if (!dr.stage)
                DIAG_INTERNAL("cannot create a temporary file: %s", strerror(errno));
            dr.stage_is_tmp = true;
        }
    }

    open_source(&dr, text, len);
    diag_set_verify_mode(dr.diag, o->verify_diagnostics);
    diag_set_werror(dr.diag, o->werror);

    int status = run_all(&dr);
    if (!o->verify_diagnostics && diag_error_count(dr.diag) > 0)
        status = 1;

    if (prints) {
        /* --verify-diagnostics keeps the IR of the chunks that passed on stdout
         * whatever the verdict (mlir-opt does; FileCheck reads it), and an -o
         * file only when everything matched */
        bool to_stdout = dr.out.fp == stdout;
        bool keep = status == 0 || (o->verify_diagnostics && to_stdout);
        if (keep && dr.stage_is_tmp && !copy_stage(dr.stage)) {
            diag_tool_error("cannot write to standard output: %s", strerror(errno));
            status = 2;
            keep = false;
        }
        if (dr.stage_is_tmp)
            fclose(dr.stage);
        if (keep) {
            if (outfile_commit(&dr.out, err, sizeof err) != 0) {
                diag_tool_error("%s", err);
                status = 2;
            }
        } else {
            outfile_abort(&dr.out);
        }
    }
    diag_set_internal_hook(NULL);
    diag_free(dr.diag);
    source_free(&dr.src);
    diag_set_tool_format(DIAG_TEXT, NULL);
    free(text);
    return status;
}
