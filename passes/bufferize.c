/* bufferize.c - Level 1 to Level 2 (docs/memory.md section 2).
 *
 * Every !pto.tile value becomes a !pto.tile_buf buffer: a Level 1 op gets a
 * `pto.alloc_tile` right before it (in its block) for each result and is
 * rewritten in place to its ins/outs form; function signatures follow. Compiler-owned scratch tiles (MX
 * `max` and `scaling`, the A2/A3 INT8 `tmp`) are created for Level 1 ops and
 * for Level 2 ops that omit an optional scratch operand, named
 * `%<dst>.max`, `%<dst>.scaling`, `%<dst>.tmp` (`_1`, ... on a clash).
 *
 * Tiles through control flow (docs/memory.md 2.2): an scf.for's tile init, its
 * iter_arg, the value its scf.yield carries and its result are one buffer, and an
 * scf.if's tile result is one buffer both regions yield; a `pto.tmov` copies into
 * that buffer only where a value cannot be it (an init used elsewhere, a yielded
 * value the iteration still needs the iter_arg beside). A terminator's copies are
 * one parallel copy (terminator_into). */
#include <stdlib.h>
#include <string.h>
#include "pass.h"
#include "regions.h"
#include "uses.h"

typedef struct B {
    Module *m;
    Func *f;
    DiagEngine *d;
    const PassConfig *cfg;
    Arch arch;
    NameSet names;
    UseIndex uses;   /* built for the region ops' phase, kept valid by every rewrite there */
    bool numbered;   /* Op.index is the pre-order number (no op added or taken out since) */
    bool errors;
    bool quiet;      /* vec_tmp computes only (the tmp hint of a level3 error): it reports nothing */
} B;

/* Op.index numbers f's ops in pre-order (renumbered only after a change). */
static void number_ops(B *b)
{
    if (!b->numbered)
        ir_number_ops(b->f);
    b->numbered = true;
}

/* op (new, in its block now) and its operands join the use index. */
static void op_added(B *b, Op *op)
{
    b->numbered = false;
    if (b->uses.built)
        uses_add_op(&b->uses, op);
}

static const Type *as_buffer(B *b, const Type *t)
{
    return t && t->kind == TY_TILE ? type_tile(&b->m->types, TY_TILE_BUF, &t->tile) : t;
}

/* `%v = pto.alloc_tile : T` for an existing value, placed before op `at`,
 * which now defines v. */
static void emit_alloc(B *b, ValueId v, Op *at)
{
    Op *a = ir_op_new(b->m);
    a->kind = OP_ALLOC_TILE;
    a->form = FORM_L2;
    a->synthetic = true;
    a->name_span = at->name_span;
    a->nres = 1;
    a->res = arena_dup(&b->m->arena, &v, sizeof v);
    ir_insert_before(at, a);
    op_added(b, a);
    b->f->values[v].def_op = a;
    b->f->values[v].block = at->parent;
}

static TileBody plain_body(DType dt, int64_t rows, int64_t cols, int64_t vrow, int64_t vcol)
{
    TileBody t;
    memset(&t, 0, sizeof t);
    t.loc = LOC_VEC;
    t.dtype = dt;
    t.rows = rows;
    t.cols = cols;
    t.vrow = vrow;
    t.vcol = vcol;
    t.fractal = 512;
    return t;
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }
/* An element's byte size as a divisor: the ops that size a tmp by it take only types that
 * have one (their verifiers), so the 1 only keeps a division defined */
static int64_t esize(DType d) { return dtype_size(d) ? dtype_size(d) : 1; }

/* The body of a scratch tile for role `role` of op (docs/memory.md section 2 and
 * docs/language.md 5.1). */
static TileBody scratch_body(const Func *f, const Op *op, const ValueId *val, RoleId role)
{
    const TileBody *src = &f->values[val[op_role(op->kind, ROLE_SRC)]].type->tile;
    /* tmp: src's shape and, when static, its valid shape (PTOAS); a dynamic one
     * is all valid (docs/departures.md 2) */
    if (role == ROLE_TMP) {
        bool dyn = src->vrow == DIM_DYNAMIC || src->vcol == DIM_DYNAMIC;
        return plain_body(DT_F32, src->rows, src->cols, dyn ? src->rows : src->vrow, dyn ? src->cols : src->vcol);
    }
    /* max / scaling: the exponent's grouping, laid out as PTOAS's MX rules
     * want (docs/verify.md 3): axis0 rows as wide as src's; axis1 in the
     * legacy flat form [1, M*G] (compact, with its row padded to 32 bytes, as
     * an alloc_tile must be; a padded canonical [M, G] would not be compact),
     * with room for the scaling kernel's unrolled pass when exp is flat too */
    const TileBody *e = &f->values[val[op_role(op->kind, ROLE_EXP)]].type->tile;
    int64_t vr = e->vrow == DIM_DYNAMIC ? e->rows : e->vrow;
    int64_t vc = e->vcol == DIM_DYNAMIC ? e->cols : e->vcol;
    /* interleaved axis0 exponents pair two row groups per row: max and scaling do not */
    const Attr *il = ir_attr_find(op->attrs, op->nattrs, "interleave");
    if (il && il->val->kind == AV_BOOL && il->val->u.b) {
        vr *= 2;
        vc /= 2;
    }
    const Attr *ax = ir_attr_find(op->attrs, op->nattrs, "grpAxis");
    bool axis0 = ax && ax->val->kind == AV_ENUM && ax->val->u.e.kind == EK_MX_GROUP_AXIS && ax->val->u.e.value == GA_AXIS0;
    if (axis0)
        return plain_body(src->dtype, vr, src->cols > vc ? src->cols : vc, vr, vc);
    if (vr != 1)
        return plain_body(src->dtype, 1, round_up(vr * vc, 32 / esize(src->dtype)), 1, vr * vc);
    int64_t cols = src->dtype == DT_F32 ? round_up(2 * vc, 64) : round_up(vc, 128);
    return plain_body(src->dtype, 1, cols, 1, vc);
}

/* A5's tmp for the ops whose A5 instruction does not use it: a 32-byte placeholder of DT
 * (none at level3, where nothing is materialized). */
static int a5_placeholder(DType dt, bool level3, TileBody *t)
{
    if (level3)
        return 0;
    int64_t n = 32 / esize(dt);
    *t = plain_body(dt, 1, n, 1, n);
    return 1;
}

static const TileBody *role_body(const B *b, const Op *op, const ValueId *val, RoleId r)
{
    int i = op_role(op->kind, r);
    return i >= 0 && val[i] != NO_VALUE ? &b->f->values[val[i]].type->tile : NULL;
}

static bool known_dims(int64_t a, int64_t b) { return a != DIM_DYNAMIC && b != DIM_DYNAMIC; }

/* tpow / tpows without a tmp: a float dst gets one of its shape (every arch), an integer
 * one none (PTOAS's replaceTPowWithTmp); 1, 0 or -1 as vec_tmp */
static int pow_tmp(B *b, const Op *op, const TileBody *dst, TileBody *t)
{
    const char *name = op_info(op->kind)->name;
    if (!dtype_is_float(dst->dtype))
        return 0;
    if (b->quiet && (b->cfg->level == LEVEL3 || !known_dims(dst->vrow, dst->vcol)))
        return -1;
    if (b->cfg->level == LEVEL3) {
        diag_error(b->d, op->name_span, "'%s' op requires explicit tmp when PlanMemory is skipped", name);
    } else if (!known_dims(dst->vrow, dst->vcol)) {
        diag_error(b->d, op->name_span, "'%s' op requires static tile_buf dst to materialize implicit %s tmp", name,
                   name + 4);
    } else {
        *t = plain_body(dst->dtype, dst->rows, dst->cols, dst->vrow, dst->vcol);
        return 1;
    }
    b->errors = true;
    return -1;
}

/* The tmp PTOAS materializes for a vector op that omits it (its
 * PTOMaterializeImplicitTmp pass, docs/memory.md 2): 1 with *t set, 0 when none is
 * needed, -1 when it is reported (level3 wants it written, or a shape is dynamic). */
/* tsel, tsels (PTOAS's implicit tmp): A5 a 32-byte placeholder (i32 for tsel, src's type for
 * tsels) the instruction never touches; A2/A3 tsel a 1 x 16 i32 compare-mask buffer, tsels
 * one row of src's. 1: made into *t, 0: none, -1: not possible (*why). */
static int sel_tmp(B *b, const Op *op, const ValueId *val, TileBody *t, const char **why)
{
    const TileBody *src = role_body(b, op, val, op->kind == OP_TSELS ? ROLE_SRC : ROLE_DST);
    bool level3 = b->cfg->level == LEVEL3;
    if (b->arch == ARCH_A5)
        return a5_placeholder(op->kind == OP_TSELS ? src->dtype : DT_I32, level3, t);
    if (level3) {
        *why = "requires explicit tmp when PlanMemory is skipped";
        return -1;
    }
    if (op->kind != OP_TSELS) {
        *t = plain_body(DT_I32, 1, 16, 1, 16);
        return 1;
    }
    if (!known_dims(src->vrow, src->vcol)) {
        *why = "requires static tile_buf src to materialize implicit tsels tmp";
        return -1;
    }
    *t = plain_body(src->dtype, 1, src->cols, 1, src->vcol);
    return 1;
}

static int vec_tmp(B *b, const Op *op, const ValueId *val, TileBody *t)
{
    const OpInfo *in = op_info(op->kind);
    const TileBody *src = role_body(b, op, val, ROLE_SRC), *dst = role_body(b, op, val, ROLE_DST);
    bool a5 = b->arch == ARCH_A5, level3 = b->cfg->level == LEVEL3;
    const char *why = NULL;
    if (!dst)
        return 0;
    switch (in->cls) {
    case OC_SORT32: /* a width that is dynamic or not a multiple of 32: a padded copy of src */
        if (known_dims(0, src->vcol) && src->vcol % 32 == 0)
            return 0;
        if (level3) {
            why = "requires explicit tmp for tsort32 with dynamic or non-32-aligned width when PlanMemory is skipped";
            break;
        }
        if (src->vcol == DIM_DYNAMIC) {
            *t = plain_body(src->dtype, src->rows, src->cols, src->rows, src->cols);
            return 1;
        }
        if (!known_dims(src->vrow, src->vcol)) {
            why = "requires static tile_buf src to materialize implicit tsort32 tmp";
            break;
        }
        *t = plain_body(src->dtype, src->rows, src->cols, src->vrow, src->vcol);
        return 1;
    case OC_ROW_ARG: /* the arg reductions: as the row reductions */
    case OC_COL_ARG:
    case OC_ROW_REDUCE: /* A5: a 32-byte placeholder; A2/A3: src's shape */
        if (a5)
            return a5_placeholder(src->dtype, level3, t);
        if (level3) {
            why = "requires explicit tmp when PlanMemory is skipped";
            break;
        }
        if (!known_dims(src->vrow, src->vcol)) {
            why = "requires static tile_buf src to materialize implicit row-reduction tmp";
            break;
        }
        *t = plain_body(src->dtype, src->rows, src->cols, src->vrow, src->vcol);
        return 1;
    case OC_COL_REDUCE: { /* binary tcolsum: ceil(rows / 2) rows of src's valid cols */
        const Attr *a = ir_attr_find(op->attrs, op->nattrs, "isBinary");
        if (op->kind != OP_TCOLSUM || !a || a->val->kind != AV_BOOL || !a->val->u.b)
            return 0;
        if (level3) {
            why = "requires explicit tmp for binary tcolsum when PlanMemory is skipped";
            break;
        }
        if (!known_dims(src->vrow, src->vcol)) {
            why = "requires static src valid_shape to materialize binary tcolsum tmp";
            break;
        }
        *t = plain_body(src->dtype, (src->vrow + 1) / 2, src->vcol, (src->vrow + 1) / 2, src->vcol);
        return 1;
    }
    case OC_ROW_EXPAND: { /* A2/A3, a col-major [R, 1] operand: 8 KB (level3 keeps pto-isa's own) */
        const TileBody *s0 = role_body(b, op, val, ROLE_SRC0), *s1 = role_body(b, op, val, ROLE_SRC1);
        if (a5 || level3 || !s0 || !s1)
            return 0;
        bool m0 = !(known_dims(s0->vrow, dst->vrow) && s0->vrow != dst->vrow) &&
                  !(known_dims(s0->vcol, dst->vcol) && s0->vcol != dst->vcol);
        bool m1 = !(known_dims(s1->vrow, dst->vrow) && s1->vrow != dst->vrow) &&
                  !(known_dims(s1->vcol, dst->vcol) && s1->vcol != dst->vcol);
        const TileBody *x = m0 ? s1 : m1 ? s0 : NULL;
        if (!x || x->blayout != BL_COL_MAJOR || (x->vcol != DIM_DYNAMIC && x->vcol != 1))
            return 0;
        int64_t n = 8192 / esize(dst->dtype);
        *t = plain_body(dst->dtype, 1, n, 1, n);
        return 1;
    }
    case OC_CONVERT: { /* A2/A3 non-saturating f32 -> 16-bit int, f16 -> 8/16-bit int */
        const Attr *sm = ir_attr_find(op->attrs, op->nattrs, "sat_mode");
        if (!sm)
            sm = ir_attr_find(op->attrs, op->nattrs, "satmode");
        bool sat_on = sm && sm->val->kind == AV_ENUM && sm->val->u.e.kind == EK_SAT_MODE && sm->val->u.e.value == SAT_ON;
        unsigned ds = dtype_size(dst->dtype);
        bool dint = !dtype_is_float(dst->dtype);
        bool needs = !a5 && !sat_on && dint &&
                     ((src->dtype == DT_F32 && ds == 2) || (src->dtype == DT_F16 && (ds == 1 || ds == 2)));
        if (!needs)
            return 0;
        if (level3) {
            why = "requires explicit tmp for non-saturating narrowing tcvt when PlanMemory is skipped";
            break;
        }
        if (!known_dims(dst->vrow, dst->vcol)) {
            why = "requires static tile_buf shapes to materialize implicit tcvt tmp";
            break;
        }
        int64_t rows = dst->vrow, cols = dst->vcol, need = 0;
        if (rows > 0 && cols > 0 && src->dtype == DT_F32) {
            int64_t head = 4 * 64 * (cols / 64 < 255 ? cols / 64 : 255), rem = cols % 64;
            int64_t tail = rem ? 32 * (((rows < 255 ? rows : 255) - 1) * (src->cols / 8) + (rem + 7) / 8) : 0;
            need = head > tail ? head : tail;
        } else if (cols > 0) {
            int64_t w = cols < 64 ? cols : 64, h16 = 32 * ((w + 7) / 8), h8 = 128 + 32 * ((w + 15) / 16);
            need = ds == 1 ? (h16 > h8 ? h16 : h8) : h16;
        }
        int64_t bytes = (need + 31) / 32 * 32;
        bytes = bytes < 32 ? 32 : bytes;
        *t = plain_body(DT_I8, 1, bytes, 1, bytes);
        return 1;
    }
    case OC_BINARY:
    case OC_TILE_SCALAR: /* txor, txors: A2/A3 dst's shape; A5 a 32-byte placeholder */
        if (in->variant == VB_POW || in->variant == VS_POWS) /* a float tpow, tpows: dst's shape */
            return pow_tmp(b, op, dst, t);
        if (in->variant == VB_PRELU) { /* A2/A3 an 8-bit mask of (rows + 1) x 32-byte rows */
            if (a5) {
                if (level3)
                    return 0;
                *t = plain_body(DT_I8, 1, 32, 1, 32);
                return 1;
            }
            if (level3) {
                why = "requires explicit tmp when PlanMemory is skipped";
                break;
            }
            if (!known_dims(dst->vrow, dst->vcol)) {
                why = "requires static tile_buf dst to materialize implicit tprelu tmp";
                break;
            }
            int64_t vc = (dst->vcol + 7) / 8, cols = (vc + 31) / 32 * 32;
            *t = plain_body(DT_I8, dst->vrow + 1, cols > 32 ? cols : 32, dst->vrow, vc);
            return 1;
        }
        if (in->variant == VB_REM || in->variant == VS_REMS) { /* A2/A3 2 (1) rows of dst's */
            int64_t rows = in->variant == VB_REM ? 2 : 1;
            if (a5)
                return a5_placeholder(dst->dtype, level3, t);
            if (level3) {
                why = "requires explicit tmp when PlanMemory is skipped";
                break;
            }
            if (!known_dims(dst->vrow, dst->vcol)) {
                why = rows == 2 ? "requires static tile_buf dst to materialize implicit trem tmp"
                                : "requires static tile_buf dst to materialize implicit trems tmp";
                break;
            }
            *t = plain_body(dst->dtype, rows, dst->cols, rows, dst->vcol);
            return 1;
        }
        if (in->variant != VB_XOR && in->variant != VS_XORS)
            return 0;
        if (a5)
            return a5_placeholder(dst->dtype, level3, t);
        if (level3) {
            why = "requires explicit tmp when PlanMemory is skipped";
            break;
        }
        if (!known_dims(dst->vrow, dst->vcol)) {
            why = in->variant == VB_XOR ? "requires static tile_buf dst to materialize implicit txor tmp"
                                        : "requires static tile_buf dst to materialize implicit txors tmp";
            break;
        }
        *t = plain_body(dst->dtype, dst->rows, dst->cols, dst->vrow, dst->vcol);
        return 1;
    case OC_SEL: {
        int k = sel_tmp(b, op, val, t, &why);
        if (k >= 0)
            return k;
        break;
    }
    case OC_CI: /* A2/A3: 768 bytes for an i32 dst, 1792 for i16 */
        if (a5)
            return 0;
        if (level3) {
            why = "requires explicit tmp when PlanMemory is skipped";
            break;
        }
        *t = plain_body(DT_F32, 1, dtype_size(dst->dtype) == 2 ? 448 : 192, 1, dtype_size(dst->dtype) == 2 ? 448 : 192);
        return 1;
    default:
        return 0;
    }
    if (b->quiet)
        return -1;
    diag_error(b->d, op->name_span, "'%s' op %s", in->name, why);
    b->errors = true;
    return -1;
}

/* == MLIR27 == An address for a new tile of body at level3, where every tile has one: after
 * the end of every tile of its space the function places at a constant address (an
 * alloc_tile's or declare_tile's addr, a tassign's), aligned; -1 when it does not fit. */
static int64_t free_addr(const B *b, const TileBody *body)
{
    const Func *f = b->f;
    int64_t end = 0;
    for (const Op *o = ir_first_op(f); o; o = ir_next_op(o)) {
        ValueId val[MAX_ROLES];
        if (o->kind != OP_ALLOC_TILE && o->kind != OP_DECLARE_TILE && o->kind != OP_TASSIGN)
            continue;
        ir_op_roles(o, val);
        int ai = op_role(o->kind, ROLE_ADDR);
        int64_t a;
        bool known = o->has_tile_addr ? (a = o->tile_addr, true) : ai >= 0 && ir_const_int(f, val[ai], &a);
        ValueId t = o->kind == OP_TASSIGN ? (o->nopnds ? o->opnds[0] : NO_VALUE) : (o->nres ? o->res[0] : NO_VALUE);
        const Type *ty = t != NO_VALUE ? f->values[t].type : NULL;
        if (known && type_is_tile(ty) && ty->tile.loc == body->loc && a + target_tile_bytes(&ty->tile) > end)
            end = a + target_tile_bytes(&ty->tile);
    }
    int64_t align = target_alignment((Loc)body->loc);
    end = (end + align - 1) / align * align;
    return end + target_tile_bytes(body) <= target_capacity(b->arch, (Loc)body->loc) ? end : -1;
}

/* == MLIR27 == A level3 error for a missing tmp: the tmp bufferize would make at Level 2,
 * kept in m->tmp_hints for the language server's "add a tmp" fix (docs/lsp.md). */
static void hint_tmp(B *b, Op *op, const ValueId *val, int role)
{
    const OpInfo *in = op_info(op->kind);
    TileBody body;
    if (in->opflags & OF_VEC) {
        PassConfig l2 = *b->cfg;
        l2.level = LEVEL2;
        const PassConfig *saved = b->cfg;
        b->cfg = &l2;
        b->quiet = true;
        int k = vec_tmp(b, op, val, &body);
        b->quiet = false;
        b->cfg = saved;
        if (k != 1)
            return;
    } else {
        body = scratch_body(b->f, op, val, in->rid[role]);
    }
    Module *m = b->m;
    xgrow32((void **)&m->tmp_hints, &m->tmp_hints_cap, (size_t)m->ntmp_hints + 1, sizeof *m->tmp_hints);
    m->tmp_hints[m->ntmp_hints++] =
        (TmpHint){op->name_span, b->f, op, role, type_tile(&m->types, TY_TILE_BUF, &body), free_addr(b, &body)};
}

/* Adds the scratch tiles an op needs but lacks to val[] (counted in *added);
 * false (reported) when level3 forbids creating them. */
static bool add_scratch(B *b, Op *op, ValueId *val, uint32_t *added)
{
    const OpInfo *in = op_info(op->kind);
    bool int8 = in->cls == OC_QUANT;
    for (int r = 0; r < in->nroles; r++) {
        if (!(in->flags[r] & ROLE_SCRATCH) || val[r] != NO_VALUE)
            continue;
        if (int8 && b->arch == ARCH_A5)
            continue; /* A5 needs no INT8 tmp */
        TileBody body;
        if (in->opflags & OF_VEC) { /* the vector ops: PTOAS's rules */
            int k = vec_tmp(b, op, val, &body);
            if (k < 0 && b->cfg->level == LEVEL3)
                hint_tmp(b, op, val, r);
            if (k < 0)
                return false;
            if (k == 0)
                continue;
        } else if (b->cfg->level == LEVEL3) {
            diag_error(b->d, op->name_span, "'%s' op requires an explicit %s operand when --pto-level=level3",
                       in->name, in->role[r]);
            hint_tmp(b, op, val, r);
            b->errors = true;
            return false;
        } else {
            body = scratch_body(b->f, op, val, in->rid[r]);
        }
        char suffix[32];
        snprintf(suffix, sizeof suffix, ".%s", in->role[r]);
        ValueId dst = val[op_role(op->kind, ROLE_DST)];
        const Type *t = type_tile(&b->m->types, TY_TILE_BUF, &body);
        Str name = ir_fresh_name(b->m, &b->names, b->f->values[dst].name, suffix);
        ValueId v = ir_value_add(b->f, name, t, op->name_span, NULL, op->parent);
        b->f->values[v].type_span = op->name_span;
        emit_alloc(b, v, op);
        val[r] = v;
        (*added)++;
    }
    return true;
}

/* Rewrites a compute op (either level) into its Level 2 form with every
 * scratch operand present, preceded by the allocs it needs. */
static void lower_compute(B *b, Op *o)
{
    const Op op = *o;
    const OpInfo *in = op_info(op.kind);
    ValueId val[MAX_ROLES];
    ir_op_roles(&op, val);
    if (op.form == FORM_L1) /* its results (a store has none) */
        for (uint32_t i = 0; i < op.nres; i++)
            emit_alloc(b, op.res[i], o);
    uint32_t nadded = 0;
    bool scratch = in->opflags & OF_SCRATCH;
    if (scratch && !add_scratch(b, o, val, &nadded))
        return;
    if (op.form == FORM_L2 && nadded == 0)
        return;
    /* rebuild the operand list in role order */
    uint32_t n = 0;
    uint32_t seg[MAX_ROLES] = {0};
    ValueId *opnds = arena_alloc(&b->m->arena, (op.nopnds + MAX_ROLES) * sizeof *opnds);
    Span *spans = arena_alloc(&b->m->arena, (op.nopnds + MAX_ROLES) * sizeof *spans);
    uint32_t at = 0;
    for (int r = 0; r < in->nroles; r++) {
        bool from_results = op.form == FORM_L1 && (in->flags[r] & ROLE_OUT) && !(in->flags[r] & ROLE_GM);
        if (!from_results && op.seg[r] && !(in->flags[r] & ROLE_VAR) && val[r] == op.opnds[at]) {
            /* an operand as written */
            opnds[n] = op.opnds[at];
            spans[n++] = op.opnd_spans[at];
            seg[r] = 1;
        } else if (val[r] != NO_VALUE) {
            /* a Level 1 result or a created scratch tile */
            opnds[n] = val[r];
            spans[n++] = b->f->values[val[r]].def;
            seg[r] = 1;
        }
        if (!from_results)
            at += op.seg[r];
    }
    o->form = FORM_L2;
    o->nres = 0;
    o->res = NULL;
    o->nopnds = n;
    o->opnds = opnds;
    o->opnd_spans = spans;
    memcpy(o->seg, seg, sizeof seg);
}

/* ---- tiles through scf.for / scf.if ------------------------------------------------ */

/* `pto.tmov ins(src) outs(dst)` before op at; false (reported at at) when src's
 * space is not vec: a copy within one space is a tmov PTOAS allows only there. */
static bool emit_tmov(B *b, ValueId src, ValueId dst, Op *at)
{
    const Value *x = &b->f->values[src];
    Loc loc = x->type->tile.loc;
    if (loc != LOC_VEC) {
        diag_error(b->d, at->name_span,
                   "'%s' op needs a copy of the %s tile %%%.*s here, but pto.tmov copies tiles "
                   "within vec only",
                   op_info(at->kind)->name, enum_info[EK_LOC].names[loc], (int)x->name.len, x->name.p);
        b->errors = true;
        return false;
    }
    Op *m = ir_op_new(b->m);
    m->kind = OP_TMOV;
    m->form = FORM_L2;
    m->synthetic = true;
    m->name_span = at->name_span;
    m->nopnds = 2;
    m->opnds = arena_alloc(&b->m->arena, 2 * sizeof *m->opnds);
    m->opnds[0] = src;
    m->opnds[1] = dst;
    m->opnd_spans = arena_alloc(&b->m->arena, 2 * sizeof *m->opnd_spans);
    m->opnd_spans[0] = m->opnd_spans[1] = at->name_span;
    m->seg[op_role(OP_TMOV, ROLE_SRC)] = 1;
    m->seg[op_role(OP_TMOV, ROLE_DST)] = 1;
    ir_insert_before(at, m);
    op_added(b, m);
    return true;
}

/* A new buffer like v's, allocated before op at: `%<v>.copy`. */
static ValueId new_buffer(B *b, ValueId v, Op *at, const char *suffix)
{
    Value *x = &b->f->values[v];
    Str name = ir_fresh_name(b->m, &b->names, x->name, suffix);
    ValueId n = ir_value_add(b->f, name, x->type, at->name_span, NULL, at->parent);
    b->f->values[n].type_span = at->name_span;
    emit_alloc(b, n, at);
    return n;
}

/* Uses of v other than operand i of op `except`, and the pre-order number of the last. */
static uint32_t other_uses(B *b, ValueId v, const Op *except, uint32_t i, uint32_t *last)
{
    number_ops(b);
    uint32_t n = 0, nu;
    const UseSite *u = uses_of(&b->uses, v, &nu);
    *last = 0;
    for (uint32_t j = 0; j < nu; j++)
        if (!(u[j].op == except && u[j].k == i)) {
            n++;
            if (u[j].op->index > *last)
                *last = u[j].op->index;
        }
    return n;
}

/* Is v used by op `from` (but as its operand i), inside it, or by any op after it
 * (at or after `from` in pre-order)? */
static bool used_from(B *b, ValueId v, const Op *from, uint32_t i)
{
    number_ops(b);
    uint32_t nu;
    const UseSite *u = uses_of(&b->uses, v, &nu);
    for (uint32_t j = 0; j < nu; j++)
        if (u[j].op->index >= from->index && !(u[j].op == from && u[j].k == i))
            return true;
    return false;
}

static void replace_uses(B *b, ValueId from, ValueId to) { uses_replace_all(&b->uses, from, to); }

/* Renames yielded value y->opnds[i] to buffer dst when it is a buffer allocated in y's block
 * whose first write comes after the last use of dst there (dst's old contents are not needed
 * any more, by the terminator either): that value then is dst from its alloc on, and no copy is
 * needed. */
static bool rename_into(B *b, Op *y, uint32_t i, ValueId dst)
{
    Func *f = b->f;
    ValueId v = y->opnds[i];
    Value *x = &f->values[v];
    number_ops(b);
    uint32_t last_dst = 0, last_v;
    bool dst_used = other_uses(b, dst, y, i, &last_dst) > 0;
    other_uses(b, v, y, i, &last_v);
    if (!(x->def_op && x->def_op->kind == OP_ALLOC_TILE && x->block == y->parent && !x->def_op->nopnds &&
          (!dst_used || last_dst < x->def_op->index) && x->type == f->values[dst].type))
        return false;
    Op *a = x->def_op;
    replace_uses(b, v, dst);
    uses_remove_op(&b->uses, a);
    b->numbered = false;
    Block *blk = a->parent;
    if (a->prev)
        a->prev->next = a->next;
    else
        blk->first = a->next;
    if (a->next)
        a->next->prev = a->prev;
    else
        blk->last = a->prev;
    return true;
}

/* Makes terminator t carry buffer dst[k] in operand first + k, for every k < n with a dst,
 * as one parallel copy (docs/memory.md 2.2): every destination receives the value the
 * terminator passed at its position before any of them is written. Renames (rename_into)
 * come first; the remaining moves are ordered so that no buffer is overwritten while another
 * move still reads it, and a cycle of moves (iter_args that trade places) goes through a
 * temporary `%<dst>.swap`. */
static void terminator_into(B *b, Op *t, uint32_t first, uint32_t n, const ValueId *dst)
{
    for (uint32_t k = 0; k < n; k++)
        if (dst[k] != NO_VALUE && t->opnds[first + k] != dst[k])
            rename_into(b, t, first + k, dst[k]);
    uint32_t *pend = arena_alloc(&b->m->arena, (n ? n : 1) * sizeof *pend);
    ValueId *src = arena_alloc(&b->m->arena, (n ? n : 1) * sizeof *src);
    uint32_t np = 0;
    for (uint32_t k = 0; k < n; k++)
        if (dst[k] != NO_VALUE && t->opnds[first + k] != dst[k]) {
            src[np] = t->opnds[first + k];
            pend[np++] = k;
        }
    while (np) {
        /* a move whose destination no other pending move reads */
        uint32_t p = 0;
        for (; p < np; p++) {
            bool read = false;
            for (uint32_t q = 0; q < np && !read; q++)
                read = q != p && src[q] == dst[pend[p]];
            if (!read)
                break;
        }
        if (p == np) {
            /* every destination is still read: a cycle; save one destination's value */
            ValueId d = dst[pend[0]];
            if (b->f->values[d].type->tile.loc != LOC_VEC) {
                emit_tmov(b, d, NO_VALUE, t); /* reports */
                return;
            }
            ValueId tmp = new_buffer(b, d, t, ".swap");
            emit_tmov(b, d, tmp, t);
            for (uint32_t q = 0; q < np; q++)
                if (src[q] == d)
                    src[q] = tmp;
            continue;
        }
        uint32_t k = pend[p];
        if (emit_tmov(b, src[p], dst[k], t))
            uses_set(&b->uses, t, first + k, dst[k]);
        pend[p] = pend[np - 1];
        src[p] = src[np - 1];
        np--;
    }
}

static void bufferize_for(B *b, Op *op)
{
    Func *f = b->f;
    Block *body = op->regions[0].first;
    Op *y = body ? body->last : NULL;
    if (!y || y->kind != OP_SCF_YIELD)
        return;
    RegionEdge in; /* the inits into the iter_args */
    if (!region_edge(op, REGION_PARENT, 0, &in))
        return;
    uint32_t n = in.nsrc < op->nres ? in.nsrc : op->nres;
    n = n < y->nopnds ? n : y->nopnds;
    n = n < in.ndst ? n : in.ndst;
    ValueId *dst = arena_alloc(&b->m->arena, (n ? n : 1) * sizeof *dst);
    for (uint32_t i = 0; i < n; i++) {
        ValueId init = in.src[i], arg = in.dst[i];
        dst[i] = NO_VALUE;
        if (!type_is_tile(f->values[arg].type))
            continue;
        /* the loop writes the buffer: an init used at or after the loop other than
         * as this init (or an argument, the caller's) gets a copy of its own */
        if (used_from(b, init, op, in.src_first + i) || !f->values[init].def_op) {
            if (f->values[init].type->tile.loc != LOC_VEC) {
                emit_tmov(b, init, NO_VALUE, op); /* reports */
                continue;
            }
            ValueId c = new_buffer(b, init, op, ".iter");
            emit_tmov(b, init, c, op);
            uses_set(&b->uses, op, in.src_first + i, c);
        }
        dst[i] = arg;
    }
    terminator_into(b, y, 0, n, dst);
}

/* scf.if and scf.execute_region: a tile result is one buffer that every region yields. */
static void bufferize_if(B *b, Op *op)
{
    Func *f = b->f;
    ValueId *dst = arena_alloc(&b->m->arena, (op->nres ? op->nres : 1) * sizeof *dst);
    for (uint32_t i = 0; i < op->nres; i++) {
        dst[i] = NO_VALUE;
        if (!type_is_tile(f->values[op->res[i]].type))
            continue;
        /* done already (Level 2 input): every region yields one buffer from before the op */
        ValueId same = NO_VALUE;
        bool done = true;
        for (uint32_t r = 0; r < op->nregions; r++) {
            const Block *blk = op->regions[r].first;
            if (!blk)
                continue;
            ValueId v = blk->last && blk->last->kind == OP_SCF_YIELD && i < blk->last->nopnds ? blk->last->opnds[i]
                                                                                              : NO_VALUE;
            const Value *x = v == NO_VALUE ? NULL : &f->values[v];
            done &= x && (same == NO_VALUE || same == v) && x->def_op && x->block == op->parent;
            same = v;
        }
        if (!done)
            dst[i] = new_buffer(b, op->res[i], op, op->kind == OP_SCF_IF ? ".if" : ".region");
    }
    for (uint32_t r = 0; r < op->nregions; r++) {
        Block *blk = op->regions[r].first;
        if (blk && blk->last && blk->last->kind == OP_SCF_YIELD)
            terminator_into(b, blk->last, 0, op->nres < blk->last->nopnds ? op->nres : blk->last->nopnds, dst);
    }
}

/* scf.while: a tile carried at position i (init, 'before' argument, condition value,
 * 'after' argument, yielded value, result) becomes one buffer, the init's (or a copy of it
 * when something else uses the init): the regions' arguments are replaced by that buffer,
 * which both regions see, the condition and the yield are made to pass it (terminator_into,
 * each one parallel copy), and the result names it (as an scf.for's). Positions must line
 * up: the condition passes as many values as there are 'before' arguments, each of its
 * argument's type; anything else is reported. */
static void bufferize_while(B *b, Op *op)
{
    Func *f = b->f;
    Block *before = op->regions[0].first, *after = op->regions[1].first;
    Op *c = before ? before->last : NULL, *y = after ? after->last : NULL;
    if (!c || c->kind != OP_SCF_CONDITION || !y || y->kind != OP_SCF_YIELD)
        return;
    bool tile = false;
    for (uint32_t i = 0; i < op->nopnds; i++)
        tile |= type_is_tile(f->values[op->opnds[i]].type);
    for (uint32_t i = 0; i < op->nres; i++)
        tile |= type_is_tile(f->values[op->res[i]].type);
    if (!tile)
        return;
    bool aligned = c->nopnds == op->nopnds + 1 && after->nargs == op->nopnds && op->nres == op->nopnds &&
                   y->nopnds == op->nopnds;
    for (uint32_t i = 0; aligned && i < op->nopnds; i++)
        aligned = f->values[before->args[i]].type == f->values[c->opnds[1 + i]].type;
    if (!aligned) {
        diag_error(b->d, op->name_span, "tile values carried through 'scf.while' must keep their positions: the "
                                        "condition passes its values in the order of the 'before' arguments");
        b->errors = true;
        return;
    }
    uint32_t n = op->nopnds;
    ValueId *dst = arena_alloc(&b->m->arena, (n ? n : 1) * sizeof *dst);
    for (uint32_t i = 0; i < n; i++) {
        ValueId init = op->opnds[i];
        dst[i] = NO_VALUE;
        if (!type_is_tile(f->values[init].type))
            continue;
        /* the loop writes the buffer: an init used elsewhere (or an argument) gets a copy;
         * done already (Level 2 input, or this pass's own output): both terminators pass it */
        bool done = c->opnds[1 + i] == init && y->opnds[i] == init;
        if (!done && (used_from(b, init, op, i) || !f->values[init].def_op)) {
            if (f->values[init].type->tile.loc != LOC_VEC) {
                emit_tmov(b, init, NO_VALUE, op); /* reports */
                continue;
            }
            ValueId cp = new_buffer(b, init, op, ".iter");
            emit_tmov(b, init, cp, op);
            uses_set(&b->uses, op, i, cp);
            init = cp;
        }
        replace_uses(b, before->args[i], init);
        replace_uses(b, after->args[i], init);
        dst[i] = init;
    }
    terminator_into(b, c, 1, n, dst);
    terminator_into(b, y, 0, n, dst);
}

static void bufferize_func(B *b)
{
    Func *f = b->f;
    nameset_init(&b->names, f);
    for (uint32_t i = 0; i < f->nvalues; i++)
        f->values[i].type = as_buffer(b, f->values[i].type);
    for (uint32_t i = 0; i < f->nresults; i++)
        f->results[i] = as_buffer(b, f->results[i]);
    for (Op *op = ir_first_op(f); op; op = ir_next_op(op))
        if (op_info(op->kind)->syntax == SYN_COMPUTE)
            lower_compute(b, op);
    uses_build(&b->uses, f);
    b->numbered = false;
    for (Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
        if (op->kind == OP_SCF_FOR)
            bufferize_for(b, op);
        else if (op->kind == OP_SCF_IF || op->kind == OP_SCF_EXECUTE_REGION)
            bufferize_if(b, op);
        else if (op->kind == OP_SCF_WHILE)
            bufferize_while(b, op);
    }
    uses_free(&b->uses);
    nameset_free(&b->names);
}

bool bufferize_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg)
{
    (void)src;
    if (!pass_reject_unregistered(m, d, "bufferize", true))
        return false;
    B b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.d = d;
    b.cfg = cfg;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        b.arch = module_arch(mod->implicit ? NULL : mod, cfg);
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            b.f = mod->funcs[j];
            bufferize_func(&b);
        }
    }
    return !b.errors;
}
