/* target.c - the target machines' facts (target.h). */
#include <string.h>
#include "target.h"

/* Bytes per memory space, in Loc order: vec mat left right acc bias scaling. */
static const int64_t capacity[2][LOC_COUNT] = {
    /* a2/a3 */ {196608, 524288, 65536, 65536, 131072, 65536, 196608},
    /* a5    */ {253952, 524288, 65536, 65536, 262144, 65536, 253952},
};
static const int64_t alignment[LOC_COUNT] = {32, 32, 512, 512, 512, 32, 32};

int64_t target_capacity(Arch arch, Loc loc)
{
    return (unsigned)loc < LOC_COUNT ? capacity[arch == ARCH_A5][loc] : -1;
}

int64_t target_alignment(Loc loc) { return (unsigned)loc < LOC_COUNT ? alignment[loc] : -1; }

static bool has_prefix(Str s, const char *pre)
{
    size_t n = strlen(pre);
    return s.len >= n && memcmp(s.p, pre, n) == 0;
}

static bool str_ieq(Str s, const char *b)
{
    size_t n = strlen(b);
    if (s.len != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((s.p[i] | 0x20) != b[i])
            return false;
    return true;
}

/* PTOAS's verifier's rule (getVerifierTargetArch, which sees the module as written: its
 * driver copies --pto-arch into the module only after parsing, which verifies): A5 when the
 * module says so (pto.target_arch "a5", or a pto.device-spec of an Ascend950 / Ascend910_95);
 * otherwise the module's pto.target_arch a2, a3 or a2a3 (a nested module inherits), whatever
 * --pto-arch says; otherwise --pto-arch when given, else a3. An unknown pto.target_arch names
 * no target (the parser warns). */
Arch module_arch(const ModuleOp *mod, const PassConfig *cfg)
{
    for (const ModuleOp *m = mod; m; m = m->parent) {
        const Attr *a = ir_attr_find(m->attrs, m->nattrs, "pto.target_arch");
        if (a && a->val->kind == AV_STRING && str_ieq(a->val->u.s, "a5"))
            return ARCH_A5;
        const Attr *d = ir_attr_find(m->attrs, m->nattrs, "pto.device-spec");
        if (d && d->val->kind == AV_STRING &&
            (has_prefix(d->val->u.s, "Ascend950") || has_prefix(d->val->u.s, "Ascend910_95")))
            return ARCH_A5;
        if (a && a->val->kind == AV_STRING && (str_ieq(a->val->u.s, "a2") || str_ieq(a->val->u.s, "a3") ||
                                               str_ieq(a->val->u.s, "a2a3")))
            return str_ieq(a->val->u.s, "a2") ? ARCH_A2 : ARCH_A3;
        if (a || d)
            break; /* the nearest module that names a target decides */
    }
    if (cfg && cfg->arch_given)
        return cfg->arch;
    return cfg ? cfg->arch : ARCH_A3;
}

void tile_inner_box(const TileBody *b, int64_t *rows, int64_t *cols)
{
    unsigned size = dtype_size(b->dtype);
    if (b->slayout == SL_NONE_BOX) {
        *rows = *cols = 1;
    } else if (b->fractal == 1024) {
        *rows = *cols = 16;
    } else if (b->fractal == 32) {
        *rows = b->slayout == SL_ROW_MAJOR ? 16 : 2;
        *cols = b->slayout == SL_ROW_MAJOR ? 2 : 16;
    } else {
        int64_t n = 32 / (size ? size : 1);
        *rows = b->slayout == SL_ROW_MAJOR ? 16 : n;
        *cols = b->slayout == SL_ROW_MAJOR ? n : 16;
    }
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

int64_t target_tile_bytes(const TileBody *b)
{
    int64_t size = dtype_size(b->dtype);
    if (b->compact == 2 && b->slayout == SL_NONE_BOX) {
        int64_t major = b->blayout == BL_ROW_MAJOR ? b->rows : b->cols;
        int64_t minor = b->blayout == BL_ROW_MAJOR ? b->cols : b->rows;
        return ((major - 1) * (minor + 1) + minor) * size;
    }
    int64_t ir, ic;
    tile_inner_box(b, &ir, &ic);
    int64_t pr = round_up(b->rows, ir), pc = round_up(b->cols, ic), bytes = pr * pc * size;
    if (b->compact == 2) {
        /* docs/memory.md 1: a boxed row_plus_one tile takes the larger of PTOAS's footprint
         * and pto-isa's NZ+1 one (a box row more per column of boxes) */
        int64_t major = b->blayout == BL_ROW_MAJOR ? b->rows : b->cols;
        int64_t minor = b->blayout == BL_ROW_MAJOR ? b->cols : b->rows;
        int64_t ptoas = ((major - 1) * (minor + 1) + minor) * size;
        int64_t nz = b->rows > 1 && b->blayout == BL_COL_MAJOR && b->slayout == SL_ROW_MAJOR
                     ? ((pc / ic - 1) * (pr + 1) + pr) * ic * size : 0;
        bytes = bytes > nz ? bytes : nz;
        bytes = bytes > ptoas ? bytes : ptoas;
    }
    return bytes;
}

bool target_move_converts(const TileBody *s, const TileBody *d)
{
    if (s->loc == LOC_ACC && s->dtype == DT_F32)
        return d->dtype == DT_F16 || d->dtype == DT_BF16;
    return s->loc == LOC_MAT && d->loc == LOC_BIAS && d->dtype == DT_F32 && (s->dtype == DT_F16 || s->dtype == DT_BF16);
}

BLayout target_rule_blayout(const Type *t, Arch arch)
{
    if (t->kind != TY_TILE_BUF || t->tile.loc != LOC_LEFT)
        return (BLayout)t->tile.blayout;
    return arch == ARCH_A5 ? BL_COL_MAJOR : BL_ROW_MAJOR;
}
