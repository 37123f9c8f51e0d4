/* target.h - the facts of the target machines in one place: the architecture a
 * module is for, each memory space's capacity and alignment, a tile layout's inner
 * box and the bytes a tile takes. The verifier, tassign and codegen read them here;
 * the runtime keeps its own copy (it must not depend on ir/), which
 * test/unit/test_target.c checks against this one. */
#ifndef PTOAS_TARGET_H
#define PTOAS_TARGET_H
#include "ir.h"
#include "config.h"

/* The effective architecture of a module (docs/verify.md "arch"): pto.target_arch,
 * else "pto.device-spec", else --pto-arch. mod may be NULL (bare functions). */
Arch module_arch(const ModuleOp *mod, const PassConfig *cfg);

/* Capacity in bytes of memory space loc on arch (docs/memory.md section 1). */
int64_t target_capacity(Arch arch, Loc loc);

/* Alignment in bytes of tile addresses in memory space loc. */
int64_t target_alignment(Loc loc);

/* Inner box of a tile layout in elements (docs/verify.md section 1); 1x1 for none_box. */
void tile_inner_box(const TileBody *b, int64_t *rows, int64_t *cols);

/* The bytes a tile takes in its memory space: rows and cols rounded up to whole
 * inner boxes (docs/memory.md section 1). */
int64_t target_tile_bytes(const TileBody *b);

/* Whether a move from tile s into tile d of another element type is one the hardware makes
 * on the way (docs/numerics.md 8.4): an acc f32 tile into f16 or bf16 (the fixpipe's cast), a
 * mat f16 or bf16 tile into an f32 bias tile (the bias table's widening). The runtime
 * (runtime/moves.c) converts exactly these pairs. */
bool target_move_converts(const TileBody *s, const TileBody *d);

/* The blayout the verifier's rules read for a tile of type t on arch (docs/departures.md 20):
 * PTOAS's parser gives every left !pto.tile_buf the arch's left buffer's blayout (row_major
 * on A2/A3, col_major on A5) whatever the text says; every other tile keeps the written one.
 * Only rules use it: the printed type and the runtime keep the written blayout. */
BLayout target_rule_blayout(const Type *t, Arch arch);

#endif
