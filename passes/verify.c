/* verify.c - the verifier: every rule of docs/verify.md, for the Level 1 and the
 * Level 2 form of every op, per architecture, with the messages listed there.
 *
 * Each op reports the first rule it breaks, in the order of its table, at the
 * op name, with a note at the definition of the first operand the message
 * names. Tile types are checked once, where they are declared. A value whose
 * declaration failed, or that an op which failed wrote, is poisoned: ops that
 * use it are skipped silently, so one run reports every independent error. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"
#include "target.h"

/* ---- layout facts ------------------------------------------------------------ */
static bool row_major(const TileBody *b) { return b->blayout == BL_ROW_MAJOR && b->slayout == SL_NONE_BOX; }
static bool col_vector(const TileBody *b) { return b->blayout == BL_COL_MAJOR && b->slayout == SL_NONE_BOX; }
static bool known(int64_t x) { return x != DIM_DYNAMIC; }
static bool differ(int64_t a, int64_t b) { return known(a) && known(b) && a != b; }

/* Same tile type, ignoring the level (a !pto.tile may stand for a buffer). */
static bool same_body(const TileBody *a, const TileBody *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->vrow == b->vrow && a->vcol == b->vcol &&
           a->fractal == b->fractal && a->dtype == b->dtype && a->loc == b->loc && a->blayout == b->blayout &&
           a->slayout == b->slayout && a->pad == b->pad && a->compact == b->compact;
}

static bool is_i8(DType d) { return d == DT_I8 || d == DT_SI8; }
/* MLIR's isInteger(N): any signedness */
static bool int_bits(DType d, unsigned bytes)
{
    switch (d) {
    case DT_I8: case DT_SI8: case DT_UI8: return bytes == 1;
    case DT_I16: case DT_SI16: case DT_UI16: return bytes == 2;
    case DT_I32: case DT_SI32: case DT_UI32: return bytes == 4;
    case DT_I64: case DT_SI64: case DT_UI64: return bytes == 8;
    default: return false;
    }
}
static bool is_any_int(DType d) { return int_bits(d, 1) || int_bits(d, 2) || int_bits(d, 4) || int_bits(d, 8); }


/* ---- the context of one op ---------------------------------------------------- */
static void put_dim(char *buf, size_t n, int64_t x)
{
    if (known(x))
        snprintf(buf, n, "%lld", (long long)x);
    else
        snprintf(buf, n, "?");
}

#define fail verify_op_error
static int R(const V *v, RoleId role) { return op_role(v->op->kind, role); }

/* ---- section 1: tile types ------------------------------------------------------- */
/* Where a tile type is declared decides how its layout rules report (PTOAS
 * checks them on alloc_tile results only, with its op prefix). */
typedef enum {
    DECL_ALLOC,  /* an alloc_tile result: PTOAS's errors and texts */
    DECL_RESULT, /* a Level 1 result or an alloc bufferize made */
    DECL_ARG     /* a function argument */
    /* the row-alignment rule only warns outside alloc_tile (PTOAS lacks it there, the runtime copes) */
} DeclKind;

static bool check_tile_type(DiagEngine *d, const Type *t, Span at, DeclKind kind)
{
    const TileBody *b = &t->tile;
    unsigned size = dtype_size(b->dtype);
    const char *pre = kind == DECL_ALLOC ? "'pto.alloc_tile' op expects result " : "expects ";
    /* packed fp4 rows align to 16 bytes (one byte holds two elements) */
    int64_t align = b->dtype == DT_F4E2M1X2 || b->dtype == DT_F4E1M2X2 ? 16 : 32;
    if (b->rows <= 0 || b->cols <= 0) {
        diag_error(d, at, "tile_buf rows/cols must be positive");
        return false;
    }
    if (known(b->vrow) && b->vrow > b->rows) {
        diag_error(d, at, "tile_buf valid_row (%lld) exceeds row (%lld)", (long long)b->vrow, (long long)b->rows);
        return false;
    }
    if (known(b->vcol) && b->vcol > b->cols) {
        diag_error(d, at, "tile_buf valid_col (%lld) exceeds col (%lld)", (long long)b->vcol, (long long)b->cols);
        return false;
    }
    /* PTOAS sizes a tile by its element's storage bytes: i1, index and the sub-byte floats
     * have none, and a box of fractal 512 holds 32 bytes of whole elements */
    if (kind == DECL_ALLOC && size == 0) {
        diag_error(d, at, "%selement type to have a byte size", pre);
        return false;
    }
    if (kind == DECL_ALLOC && b->slayout != SL_NONE_BOX && b->fractal == 512 && 32 % size) {
        diag_error(d, at, "%selement byte size to divide 32 for boxed fractal-512 tile layout", pre);
        return false;
    }
    if (b->slayout == SL_NONE_BOX) {
        bool rowm = b->blayout == BL_ROW_MAJOR;
        int64_t bytes = (rowm ? b->cols : b->rows) * (int64_t)size;
        if (bytes % align) {
            void (*report)(DiagEngine *, Span, const char *, ...) = kind == DECL_ALLOC ? diag_error : diag_warning;
            report(d, at, "%s%s none_box tile %s to be %lld-byte aligned, but got %lld bytes", pre,
                   rowm ? "row-major" : "col-major",
                   rowm ? "row byte size (cols * sizeof(dtype))" : "column byte size (rows * sizeof(dtype))",
                   (long long)align, (long long)bytes);
            if (kind == DECL_ALLOC)
                return false;
        }
    } else if (kind != DECL_ARG) {
        /* PTOAS checks whole boxes on alloc_tile only; a vec argument the runtime addresses
         * byte-wise, and codegen reports the other spaces' arguments (docs/verify.md 1) */
        int64_t ir, ic;
        tile_inner_box(b, &ir, &ic);
        if (b->rows % ir && !(b->rows == 1 || b->fractal == 32 || b->loc == LOC_VEC)) {
            diag_error(d, at, "%sboxed tile rows to be a multiple of innerRows (%lld), but got %lld", pre,
                       (long long)ir, (long long)b->rows);
            return false;
        }
        if (b->cols % ic) {
            diag_error(d, at, "%sboxed tile cols to be a multiple of innerCols (%lld), but got %lld", pre,
                       (long long)ic, (long long)b->cols);
            return false;
        }
    }
    return true;
}

/* Checks a declared value's type; poisons it when it fails. */
static void check_decl(V *v, ValueId id, DeclKind kind)
{
    Value *val = &v->f->values[id];
    if (val->poisoned || !type_is_tile(val->type))
        return;
    if (!check_tile_type(v->d, val->type, val->type_span, kind)) {
        val->poisoned = true;
        v->errors = true;
    }
}

/* ---- operand views ----------------------------------------------------------------- */
/* Fills v->val/ty/tb by role. */
static void bind_roles(V *v)
{
    const OpInfo *in = op_info(v->op->kind);
    ir_op_roles(v->op, v->val);
    for (int r = 0; r < MAX_ROLES; r++) {
        v->ty[r] = NULL;
        v->tb[r] = NULL;
    }
    for (int r = 0; r < in->nroles; r++)
        if (v->val[r] != NO_VALUE) {
            v->ty[r] = v->f->values[v->val[r]].type;
            if (type_is_tile(v->ty[r]))
                v->tb[r] = &v->ty[r]->tile;
        }
}

static bool any_poisoned(const V *v)
{
    const Op *op = v->op;
    for (uint32_t i = 0; i < op->nopnds; i++)
        if (v->f->values[op->opnds[i]].poisoned)
            return true;
    return false;
}

/* A Level 2 op that failed poisons its outs buffers, a Level 1 op its results. */
static void poison_outputs(V *v)
{
    const Op *op = v->op;
    const OpInfo *in = op_info(op->kind);
    for (uint32_t i = 0; i < op->nres; i++)
        v->f->values[op->res[i]].poisoned = true;
    if (op->form == FORM_L2) {
        uint32_t at = 0;
        for (int r = 0; r < in->nroles; r++) {
            if (in->flags[r] & ROLE_OUT)
                for (uint32_t k = 0; k < op->seg[r]; k++)
                    v->f->values[op->opnds[at + k]].poisoned = true;
            at += op->seg[r];
        }
    }
}


/* Scalar roles with one fixed type (PTOAS: preQuantScalar is an Optional<I64>,
 * tload's left_padding_num an Optional<Index>). */
static const DType num_dtype[ROLE_COUNT] = {[ROLE_PRE_QUANT_SCALAR] = DT_I64, [ROLE_LEFT_PADDING_NUM] = DT_INDEX,
                                             [ROLE_INDEX_ROW] = DT_INDEX, [ROLE_INDEX_COL] = DT_INDEX};

/* The clause operands (ROLE_KW: tload's padding operands, PTOAS's AnyType but for
 * left_padding_num) get MLIR's ODS operand check and text: "operand #N must be T", N
 * counting the operands present in the generic order (src, dst, then the clauses'). */
/* The clause attributes of PTOAS's op, which its attribute dict may hold too: MLIR checks
 * their kinds before the operands (pad_mode's summary is ptoas's words: PTOAS's
 * PadModeAttr names none). */
static bool check_clause_attrs(V *v)
{
    int n;
    const TailClause *c = op_tail_clauses(v->op->kind, &n);
    for (int k = 0; k < n; k++) {
        const Attr *a = c[k].role == ROLE_COUNT ? ir_attr_find(v->op->attrs, v->op->nattrs, c[k].word) : NULL;
        if (!a)
            continue;
        bool pad_mode = strcmp(c[k].word, "pad_mode") == 0;
        if (pad_mode ? a->val->kind == AV_ENUM && a->val->u.e.kind == EK_PAD_MODE : a->val->kind == AV_BOOL)
            continue;
        return fail(v, -1, "attribute '%s' failed to satisfy constraint: %s", c[k].word,
                    pad_mode ? "a #pto.padmode attribute" : "bool attribute");
    }
    return true;
}

static bool check_clause_operands(V *v)
{
    const Op *op = v->op;
    const OpInfo *in = op_info(op->kind);
    for (int r = 0; r < in->nroles; r++) {
        DType want = num_dtype[in->rid[r]];
        if (!(in->flags[r] & ROLE_KW) || v->val[r] == NO_VALUE || !v->ty[r] || want == DT_NONE)
            continue;
        if (v->ty[r]->kind == TY_SCALAR && v->ty[r]->dtype == want)
            continue;
        uint32_t n = 0; /* operands before r in the generic order: the non-clause roles', then the clauses' */
        for (int j = 0; j < in->nroles; j++)
            if (!(in->flags[j] & ROLE_KW) || j < r)
                n += op->seg[j];
        char b[256];
        return fail(v, -1, "operand #%u must be %s, but got '%s'", n, dtype_name(want), type_str(v->ty[r], b, sizeof b));
    }
    return true;
}

/* Every role that holds an operand must be a tile, a global tensor view (ROLE_GM) or a
 * scalar (ROLE_NUM), as the op's row says. */
static bool check_kinds(V *v)
{
    const OpInfo *in = op_info(v->op->kind);
    if (!check_clause_attrs(v))
        return false;
    for (int r = 0; r < in->nroles; r++) {
        if (v->val[r] == NO_VALUE || !v->ty[r] || (in->flags[r] & ROLE_KW))
            continue;
        bool view = in->flags[r] & ROLE_GM;
        /* the vector ops' scalars, and partition views in their tile roles: verify_vec.c checks
         * them with PTOAS's operand constraints and texts */
        if ((in->opflags & OF_VEC) &&
            ((in->flags[r] & ROLE_NUM) || v->ty[r]->kind == TY_PART_VIEW))
            continue;
        if (in->flags[r] & ROLE_NUM) {
            DType want = num_dtype[in->rid[r]];
            if (v->ty[r]->kind != TY_SCALAR || (want != DT_NONE && v->ty[r]->dtype != want)) {
                char b[256];
                const char *w = want != DT_NONE ? dtype_name(want) : "scalar";
                fail(v, r, "expects %s to be a%s %s, but got '%s'", in->role[r], w[0] == 'i' || w[0] == 'f' ? "n" : "",
                     w, type_str(v->ty[r], b, sizeof b));
                return false;
            }
            continue;
        }
        bool ok = view ? v->ty[r]->kind == TY_PART_VIEW || v->ty[r]->kind == TY_TENSOR_VIEW : v->tb[r] != NULL;
        if (!ok) {
            char b[256];
            fail(v, r, "expects %s to be a %s, but got '%s'", in->role[r], view ? "tensor view" : "tile",
                 type_str(v->ty[r], b, sizeof b));
            return false;
        }
    }
    if (!check_clause_operands(v))
        return false;
    /* docs/language.md 5.5: a Level 1 value is never an outs operand */
    if (v->op->form == FORM_L2)
        for (int r = in->nins; r < in->nroles; r++)
            if (v->ty[r] && v->ty[r]->kind == TY_TILE) {
                char b[256];
                fail(v, r, "expects a !pto.tile_buf operand in outs, but got '%s'", type_str(v->ty[r], b, sizeof b));
                return false;
            }
    return true;
}

static bool all_vec(V *v)
{
    const OpInfo *in = op_info(v->op->kind);
    for (int r = 0; r < in->nroles; r++)
        if (v->tb[r] && v->tb[r]->loc != LOC_VEC) {
            fail(v, r, "expects %s to be in the vec address space", in->role[r]);
            return false;
        }
    return true;
}

static int quant_type_of(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "quant_type");
    if (a && a->val->kind == AV_ENUM && a->val->u.e.kind == EK_QUANT_TYPE)
        return a->val->u.e.value;
    return -1;
}

static int enum_attr(const Op *op, const char *key, EnumKind k, int dflt)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (a && a->val->kind == AV_ENUM && a->val->u.e.kind == k)
        return a->val->u.e.value;
    return dflt;
}


/* ---- section 2: tquant INT8 ------------------------------------------------------------ */
/* The operand in role was made by bufferize (scratch the user did not write). */
static bool is_scratch(const V *v, int role)
{
    const Value *x = &v->f->values[v->val[role]];
    return x->def_op && x->def_op->synthetic;
}

/* PTOAS's TQuant rules in its order and words (the scale is PTOAS's "fp");
 * A5 adds what ptoas's runtime needs (vec, row-major, per-row or single
 * parameters). INT8 dst signedness is not checked (PTOAS). */
static bool verify_tquant_int8(V *v)
{
    int src = R(v, ROLE_SRC), scale = R(v, ROLE_SCALE), offset = R(v, ROLE_OFFSET), dst = R(v, ROLE_DST), tmp = R(v, ROLE_TMP);
    const TileBody *s = v->tb[src], *sc = v->tb[scale], *o = v->tb[offset], *d = v->tb[dst], *t = v->tb[tmp];
    int qt = quant_type_of(v->op);
    if (!ir_attr_find(v->op->attrs, v->op->nattrs, "quant_type"))
        return fail(v, -1, "requires attribute 'quant_type'");
    if (qt == QT_MXFP8 || qt == QT_MXFP4_E2M1)
        return fail(v, -1, "expects plain tquant quant_type to be INT8_SYM or INT8_ASYM; use tquant.mx for MX "
                           "quantization");
    const char *qn = enum_info[EK_QUANT_TYPE].names[qt == QT_INT8_ASYM];
    if (qt == QT_INT8_SYM && o)
        return fail(v, offset, "INT8_SYM quantization must not have an offset operand");
    if (qt == QT_INT8_ASYM && !o)
        return fail(v, -1, "INT8_ASYM quantization requires an offset operand");
    if (d && !is_i8(d->dtype) && d->dtype != DT_UI8)
        return fail(v, dst, "expects dst element type i8/ui8 for %s quantization", qn);
    char sa[48], sb[48];
    if (d && (differ(s->vrow, d->vrow) || differ(s->vcol, d->vcol)))
        return fail(v, src, "expects src and dst to have the same valid_shape, but got %s and %s",
                    verify_shape_str(s->vrow, s->vcol, sa), verify_shape_str(d->vrow, d->vcol, sb));
    if (s->dtype != DT_F32)
        return fail(v, src, "expects src to have element type f32");
    if (o && o->dtype != DT_F32)
        return fail(v, offset, "expects offset to have element type f32");
    if (t && t->dtype != DT_F32)
        return fail(v, tmp, "expects tmp to have element type f32");
    /* PTOAS leaves the fp dtype to the kernel (it accepts f16, f64, i1, ...); the runtime
     * quantizes with an f32 scale and reports another at the op, so ptoas warns */
    if (sc->dtype != DT_F32)
        verify_op_warning(v, "expects fp to have element type f32 (the runtime quantizes with an f32 scale)");
    const TileBody *params[2] = {sc, o};
    int prole[2] = {scale, offset};
    static const char *const pname[2] = {"fp", "offset"};
    int64_t rows = d ? d->vrow : s->vrow;
    if (v->arch != ARCH_A5) {
        if (!row_major(s) || (d && !row_major(d)))
            return fail(v, row_major(s) ? dst : src, "expects A2/A3 src and dst to use row-major layout");
        if (t) {
            if (!row_major(t))
                return fail(v, tmp, "expects A2/A3 tmp to use row-major layout");
            if (t->rows != s->rows || t->cols != s->cols)
                return fail(v, tmp, "expects A2/A3 tmp to have the same shape as src, but got %s and %s",
                            verify_shape_str(t->rows, t->cols, sa), verify_shape_str(s->rows, s->cols, sb));
            /* a tmp bufferize made is all valid (docs/departures.md 2) */
            if ((differ(s->vrow, t->vrow) || differ(s->vcol, t->vcol)) && !is_scratch(v, tmp))
                return fail(v, tmp, "expects src and tmp to have the same valid_shape, but got %s and %s",
                            verify_shape_str(s->vrow, s->vcol, sa), verify_shape_str(t->vrow, t->vcol, sb));
        }
        for (int i = 0; i < 2; i++) {
            const TileBody *pb = params[i];
            if (!pb)
                continue;
            if (!col_vector(pb))
                return fail(v, prole[i], "expects A2/A3 %s to use non-row-major layout", pname[i]);
            if (differ(pb->vrow, rows))
                return fail(v, prole[i], "expects A2/A3 %s valid_shape[0] to equal dst valid_shape[0]", pname[i]);
            if (known(pb->vcol) && pb->vcol != 1)
                return fail(v, prole[i], "expects A2/A3 %s valid_shape[1] to be 1", pname[i]);
        }
        return all_vec(v);
    }
    if (!all_vec(v))
        return false;
    if (!row_major(s) || (d && !row_major(d)))
        return fail(v, row_major(s) ? dst : src, "expects src and dst to use row-major layout");
    if (t && !row_major(t))
        return fail(v, tmp, "expects tmp to use row-major layout");
    for (int i = 0; i < 2; i++) {
        const TileBody *pb = params[i];
        if (!pb)
            continue;
        bool per_row = !differ(pb->vrow, rows) && !differ(pb->vcol, 1);
        bool single = !differ(pb->vrow, 1) && !differ(pb->vcol, 1);
        if (!per_row && !single) {
            char r[24], a[24], b[24];
            put_dim(r, sizeof r, rows);
            put_dim(a, sizeof a, pb->vrow);
            put_dim(b, sizeof b, pb->vcol);
            return fail(v, prole[i], "expects %s valid_shape to be [%s, 1] or [1, 1], but got [%s, %s]", pname[i], r,
                        a, b);
        }
    }
    return true;
}

/* ---- section 3: tquant MX --------------------------------------------------------------- */

/* An MX operand: vec, row_major, none_box (PTOAS's ND-style vec tile). */
static bool mx_nd_tile(V *v, int role)
{
    const TileBody *t = v->tb[role];
    const char *n = op_info(v->op->kind)->role[role];
    if (!t)
        return true;
    if (t->loc != LOC_VEC)
        return fail(v, role, "expects %s to be in the vec address space", n);
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, role, "expects %s to use the row_major blayout", n);
    if (t->slayout != SL_NONE_BOX)
        return fail(v, role, "expects %s to use the none_box slayout", n);
    return true;
}

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }


/* PTOAS's TQuantMx rules, in its order and with its texts (docs/verify.md 3):
 * element types, static shapes, the grouped shapes of max/scaling/exp
 * (canonical, legacy flat, interleaved axis0), then the physical strides and
 * capacities the pto-isa kernels address. MXFP8 data and the exponents are
 * i8/ui8 tiles of the raw codes, as PTOAS asks (its isInteger(8)). */
/* The shapes of a pto.tquant.mx that its layout rules read (verify_tquant_mx). */
typedef struct MxShape {
    int src, dst, exp, max, scl;
    const TileBody *s, *d, *e, *m, *sc;
    int64_t M, N, PR, PC, pack, dvc, groups;
    bool fp4, b16, il;
} MxShape;

/* Role r's tile t (if given) holds at least n elements. */
static bool mx_need_cap(V *v, int r, const TileBody *t, int64_t n)
{
    if (t && t->rows * t->cols < n)
        return fail(v, r, "expects %s physical capacity to cover %lld elements", op_info(v->op->kind)->role[r],
                    (long long)n);
    return true;
}

/* tquant.mx's physical layout rules for grpAxis=axis0. */
static bool mx_axis0_layout(V *v, const MxShape *x)
{
    int src = x->src, dst = x->dst, exp = x->exp, max = x->max, scl = x->scl;
    const TileBody *s = x->s, *d = x->d, *e = x->e, *m = x->m, *sc = x->sc;
    int64_t M = x->M, PR = x->PR, PC = x->PC, pack = x->pack;
    bool fp4 = x->fp4, il = x->il;
    DType se = s->dtype;
    int64_t dvc = x->dvc;
    if (d && fp4 && d->cols != PC / pack)
        return fail(v, dst, "expects MXFP4 axis0 dst physical cols to equal src physical cols / 2");
    if (!mx_need_cap(v, dst, d, (M - 1) * (fp4 ? PC / pack : d ? d->cols : 0) + dvc))
        return false;
    if (fp4 && (PC / pack) % 32 && se == DT_F16)
        return fail(v, src, "does not support FP16 MXFP4 axis0 when packed source stride is not a multiple of 32 "
                            "bytes");
    if (m && m->cols != PC)
        return fail(v, max, "expects max physical cols to equal src physical cols for grpAxis=axis0");
    if (sc && sc->cols != PC)
        return fail(v, scl, "expects scaling physical cols to equal src physical cols for grpAxis=axis0");
    if (!mx_need_cap(v, max, m, M / 32 * PC))
        return false;
    if (!mx_need_cap(v, scl, sc, M / 32 * PC))
        return false;
    if (e && !il) {
        if (e->cols != PC)
            return fail(v, exp, "expects exp physical cols to equal src physical cols for grpAxis=axis0");
        if (!mx_need_cap(v, exp, e, M / 32 * PC))
            return false;
    } else if (e) {
        if (e->rows != PR / 64)
            return fail(v, exp, "expects interleaved exp physical rows to be src physical rows / 64");
        if (e->cols != align_up(2 * PC, 32))
            return fail(v, exp, "expects interleaved exp physical cols to be align32(2 * src physical cols)");
    }
    if (se == DT_F32 && il) /* the runtime has no FP32 interleave either */
        return fail(v, src, "does not support FP32 interleave with the pinned pto-isa revision");
    return true;
}

/* tquant.mx's physical layout rules for grpAxis=axis1. */
static bool mx_axis1_layout(V *v, const MxShape *x)
{
    int src = x->src, dst = x->dst, exp = x->exp, max = x->max, scl = x->scl;
    const TileBody *s = x->s, *d = x->d, *e = x->e, *m = x->m, *sc = x->sc;
    int64_t M = x->M, N = x->N, PR = x->PR, PC = x->PC, pack = x->pack, groups = x->groups;
    bool fp4 = x->fp4, b16 = x->b16;
    DType se = s->dtype;
    int64_t dvc = x->dvc;
    if (d && d->cols != PC / pack)
        return fail(v, dst, fp4 ? "expects MXFP4 axis1 dst physical cols to equal src physical cols / 2"
                                : "expects MXFP8 axis1 dst physical cols to equal src physical cols");
    if (!mx_need_cap(v, dst, d, (M - 1) * (PC / pack) + dvc))
        return false;
    const TileBody *compact[2] = {m, sc};
    int croles[2] = {max, scl};
    for (int i = 0; i < 2; i++)
        if (compact[i] && compact[i]->vrow != 1 && compact[i]->cols != compact[i]->vcol &&
            !is_scratch(v, croles[i]))
            return fail(v, croles[i], "expects %s valid elements to form a compact physical prefix",
                        op_info(v->op->kind)->role[croles[i]]);
    if (!mx_need_cap(v, max, m, groups))
        return false;
    if (e && e->rows == 1) {
        if (PC != N)
            return fail(v, src, "expects axis1 flat exp to use a tight source with physical cols equal to valid "
                                "cols");
        if (e->vrow != 1 || e->vcol != groups)
            return fail(v, exp, "expects axis1 flat exp valid_shape to match legacy flat [1, M*N/32]");
        if (!mx_need_cap(v, exp, e, groups))
            return false;
        bool unroll = PR * PC > 1024 && (PR * PC) % 256 == 0 && (M * PC) % 256 == 0;
        int64_t need = 0;
        const char *what = NULL;
        if (se == DT_F32) {
            need = align_up(unroll ? groups * 2 : groups, 64) * 4;
            what = unroll ? "axis1 flat unrolled f32 scaling" : "axis1 flat f32 scaling";
        } else if (enum_attr(v->op, "quantScaleAlg", EK_QUANT_SCALE_ALG, QSA_OCP) == QSA_OCP) {
            need = align_up(groups, 128) * 2;
            what = "axis1 flat B16 OCP scaling";
        } else {
            return fail(v, -1, "does not support axis1 flat B16 NV quantization with the pinned pto-isa revisions");
        }
        if (what && sc && sc->rows * sc->cols * (int64_t)dtype_size(sc->dtype) < need)
            return fail(v, scl, "expects %s physical capacity to cover %lld bytes", what, (long long)need);
    } else if (e) {
        if (e->vrow == 1)
            return fail(v, exp, "expects legacy flat exp to use physical rows == 1");
        if (b16)
            return fail(v, src, "does not support axis1 canonical 2D B16 quantization with the pinned pto-isa "
                                "revision");
        if (e->vrow != M || e->vcol != N / 32)
            return fail(v, exp, "expects exp valid_shape to match canonical [M, N/32] for grpAxis=axis1");
        if (e->rows < M || e->cols < N / 32)
            return fail(v, exp, "expects axis1 canonical exp physical shape to cover [M, N/32]");
        if (!mx_need_cap(v, exp, e, (M - 1) * e->cols + N / 32))
            return false;
        if (!mx_need_cap(v, scl, sc, groups))
            return false;
    }
    return true;
}

static bool verify_tquant_mx(V *v)
{
    int src = R(v, ROLE_SRC), dst = R(v, ROLE_DST), exp = R(v, ROLE_EXP), max = R(v, ROLE_MAX), scl = R(v, ROLE_SCALING),
        zz = R(v, ROLE_EXP_ZZ);
    const TileBody *s = v->tb[src], *d = v->tb[dst], *e = v->tb[exp], *m = v->tb[max], *sc = v->tb[scl],
                   *z = v->tb[zz];
    int qt = quant_type_of(v->op);
    if (!ir_attr_find(v->op->attrs, v->op->nattrs, "quant_type"))
        return fail(v, -1, "requires attribute 'quant_type'");
    if (v->arch != ARCH_A5)
        return fail(v, -1, "tquant.mx is only supported on A5");
    int roles[6] = {src, dst, exp, max, scl, zz};
    for (int i = 0; i < 6; i++)
        if (!mx_nd_tile(v, roles[i]))
            return false;
    bool axis0 = enum_attr(v->op, "grpAxis", EK_MX_GROUP_AXIS, GA_AXIS1) == GA_AXIS0;
    const Attr *ila = ir_attr_find(v->op->attrs, v->op->nattrs, "interleave");
    bool il = ila && ila->val->kind == AV_BOOL && ila->val->u.b;
    const Attr *sma = ir_attr_find(v->op->attrs, v->op->nattrs, "storeMode");
    if (il && !axis0)
        return fail(v, -1, "expects interleave to be used only with grpAxis=axis0");
    if (z && axis0)
        return fail(v, zz, "expects the deprecated exp_zz form to use grpAxis=axis1; use pto.tmov with a non-scaling "
                           "tmp for axis0 exponents");
    if (qt != QT_MXFP8 && qt != QT_MXFP4_E2M1)
        return fail(v, -1, "expects quant_type to be MXFP8 or MXFP4_E2M1");
    if (z && !sma)
        return fail(v, zz, "expects storeMode when exp_zz is present");
    if (sma && !z)
        return fail(v, -1, "expects exp_zz when storeMode is present");
    if (sma && enum_attr(v->op, "quantScaleAlg", EK_QUANT_SCALE_ALG, QSA_OCP) != QSA_OCP)
        return fail(v, -1, "storeMode form must not override quantScaleAlg");
    bool fp4 = qt == QT_MXFP4_E2M1;
    DType se = s->dtype;
    bool b16 = se == DT_F16 || se == DT_BF16;
    if (se != DT_F32 && !b16)
        return fail(v, src, "expects src element type to be f32/f16/bf16");
    if (e && !is_i8(e->dtype) && e->dtype != DT_UI8)
        return fail(v, exp, "expects exp element type to be i8/ui8");
    if (z && !is_i8(z->dtype) && z->dtype != DT_UI8)
        return fail(v, zz, "expects exp_zz element type to be i8/ui8");
    if (m && m->dtype != se)
        return fail(v, max, "expects max element type to match src element type");
    if (sc && sc->dtype != se)
        return fail(v, scl, "expects scaling element type to match src element type");
    if (d && !fp4 && !is_i8(d->dtype) && d->dtype != DT_UI8)
        return fail(v, dst, "expects MXFP8 dst element type to be i8/ui8");
    if (d && fp4 && d->dtype != DT_F4E2M1X2)
        return fail(v, dst, "expects MXFP4_E2M1 dst element type to be !pto.f4E2M1x2");
    if (fp4 && !b16)
        return fail(v, src, "expects MXFP4_E2M1 src element type to be f16/bf16");
    const TileBody *all[6] = {s, d, e, m, sc, z};
    for (int i = 0; i < 6; i++)
        if (all[i] && (!known(all[i]->vrow) || !known(all[i]->vcol))) {
            if (i == 5)
                return fail(v, zz, "expects static valid and physical shapes for exp_zz in the deprecated fused MX "
                                   "quantization form");
            return fail(v, roles[i], "expects static valid and physical shapes for %s in MX quantization",
                        op_info(v->op->kind)->role[roles[i]]);
        }
    int64_t M = s->vrow, N = s->vcol, PR = s->rows, PC = s->cols;
    if (M <= 0 || N <= 0 || PR < M || PC < N)
        return fail(v, src, "expects positive source valid shape within physical shape");
    if ((axis0 ? M : N) % 32)
        return fail(v, src, "expects src valid_shape[%d] to be a multiple of 32 when grpAxis is %s", axis0 ? 0 : 1,
                    axis0 ? "axis0" : "axis1");
    int64_t groups = M * (N / 32);
    if (z && z->vrow * z->vcol != groups)
        return fail(v, zz, "expects exp_zz valid element count to equal MX group count");
    int64_t cr = axis0 ? M / 32 : M, cc = axis0 ? N : N / 32;
    const TileBody *grouped[3] = {m, sc, il ? NULL : e};
    int groles[3] = {max, scl, exp};
    for (int i = 0; i < 3; i++) {
        const TileBody *g = grouped[i];
        if (!g || (g->vrow == cr && g->vcol == cc) || (!axis0 && g->vrow == 1 && g->vcol == groups))
            continue;
        return fail(v, groles[i], "expects %s valid_shape to match %s", op_info(v->op->kind)->role[groles[i]],
                    axis0 ? "canonical [M/32, N] for grpAxis=axis0"
                          : "canonical [M, N/32] or legacy flat [1, M*N/32] for grpAxis=axis1");
    }
    if (il) {
        if (M % 64)
            return fail(v, src, "expects src valid rows to be a multiple of 64 when interleave is true");
        if (PR % 64)
            return fail(v, src, "expects src physical rows to be a multiple of 64 when interleave is true");
        if (e && (e->vrow != M / 64 || e->vcol != 2 * N))
            return fail(v, exp, "expects exp valid_shape to match [M/64, 2N] for grpAxis=axis0 with interleave=true");
    }
    int64_t pack = fp4 ? 2 : 1;
    if (fp4 && PC % 2)
        return fail(v, src, "expects MXFP4 src physical cols to be even for packed destination addressing");
    int64_t dvc = N / pack;
    if (d && (d->vrow != M || d->vcol != dvc))
        return fail(v, dst, "expects dst valid_shape to be [%lld, %lld] for MX quantization", (long long)M,
                    (long long)dvc);
    if (d && d->rows < M)
        return fail(v, dst, "expects dst physical rows to cover src valid rows");
    MxShape x = {src, dst, exp, max, scl, s, d, e, m, sc, M, N, PR, PC, pack, dvc, groups, fp4, b16, il};
    if (!(axis0 ? mx_axis0_layout(v, &x) : mx_axis1_layout(v, &x)))
        return false;
    if (b16 && N < PC && 128 % PC == 0 && (M * PC) % 128)
        return fail(v, src, "does not support padded B16 source whose VL-aligned padding store has an incomplete "
                            "final VL");
    /* pto-isa's TQUANT limit (the UB budget of its MX pipeline), which PTOAS's verifier lacks:
     * a warning, and the runtime's error at the op. (The ZZ order of exp_zz needs whole 16-row,
     * 2-group blocks; PTOAS does not check that, the runtime reports it at the op.) */
    if (s->rows * s->cols > 59461)
        verify_op_warning(v, "expects src rows * cols <= 59461 for MX quantization, but got %lld",
                  (long long)(s->rows * s->cols));
    return true;
}

/* ---- section 4: tdequant ------------------------------------------------------------------ */
/* PTOAS's low-precision element types (isPTOLowPrecisionType): fp8, hif8, !pto.f8E8M0,
 * packed fp4, hif8x2, bf16x2 -- not the builtin f8E8M0FNU */
static bool low_precision_dtype(DType d) { return dtype_is_low_precision(d); }

/* i8/i16/i32/i64 (any signedness), f16, bf16, f32: the plain transfer types */
static bool plain_transfer(DType d) { return is_any_int(d) || d == DT_F16 || d == DT_BF16 || d == DT_F32; }

/* PTOAS's storage byte size: a low-precision type counts its storage (1, hif8x2 2, bf16x2 4) */
static unsigned storage_bytes(DType d) { return dtype_size(d); }

static bool nd_dn_nz(const TileBody *t)
{
    return t->slayout == SL_NONE_BOX || (t->blayout == BL_COL_MAJOR && t->slayout == SL_ROW_MAJOR);
}

/* verifyTileBufCommon for a transfer's tile: the low-precision types only where allowed */
static bool transfer_tile(V *v, int role, const char *name, bool allow_low)
{
    const TileBody *t = v->tb[role];
    if (t && !allow_low && low_precision_dtype(t->dtype))
        return fail(v, role, "%s: dtype %s is not supported by this op yet", name, dtype_name(t->dtype));
    return true;
}

/* verify_int.h. Most of these rules are the runtime's: `ptoas run` reports the same rule
 * at the op when it executes it. */
bool verify_op_warning(V *v, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_warning(v->d, v->op->name_span, "'%s' op %s", op_info(v->op->kind)->name, msg);
    return true;
}

/* pto.tdequant: PTOAS's rules (element types, then on A2/A3 row-major src and dst), then the
 * runtime's own (docs/verify.md 4) as warnings. */
static bool verify_tdequant(V *v)
{
    int src = R(v, ROLE_SRC), scale = R(v, ROLE_SCALE), offset = R(v, ROLE_OFFSET), dst = R(v, ROLE_DST);
    const TileBody *s = v->tb[src], *sc = v->tb[scale], *o = v->tb[offset], *d = v->tb[dst];
    if (!int_bits(s->dtype, 1) && !int_bits(s->dtype, 2))
        return fail(v, src, "expects src element type i8 or i16");
    if (d && d->dtype != DT_F32)
        return fail(v, dst, "expects dst element type f32");
    if (sc->dtype != DT_F32)
        return fail(v, scale, "expects scale element type f32");
    if (o->dtype != DT_F32)
        return fail(v, offset, "expects offset element type f32");
    if (v->arch != ARCH_A5 && (!row_major(s) || (d && !row_major(d))))
        return fail(v, row_major(s) ? dst : src, "expects A2/A3 src and dst to use row-major layout");
    if (s->dtype == DT_UI8 || s->dtype == DT_UI16)
        return verify_op_warning(v, "expects src element type i8 or i16 (the runtime dequantizes signed integers)");
    if (!same_body(sc, o))
        return verify_op_warning(v, "expects scale and offset to have the same type");
    char sa[48], sb[48];
    if (d && (differ(s->vrow, d->vrow) || differ(s->vcol, d->vcol)))
        return verify_op_warning(v, "expects src and dst to have the same valid_shape, but got %s and %s",
                         verify_shape_str(s->vrow, s->vcol, sa), verify_shape_str(d->vrow, d->vcol, sb));
    int64_t rows = d ? d->vrow : s->vrow;
    const TileBody *params[2] = {sc, o};
    int prole[2] = {scale, offset};
    for (int i = 0; i < 2; i++)
        if (differ(params[i]->vrow, rows)) {
            char a[24], b[24];
            put_dim(a, sizeof a, params[i]->vrow);
            put_dim(b, sizeof b, rows);
            return verify_op_warning(v, "expects %s valid_shape[0] to equal dst valid_shape[0], but got %s vs %s",
                             op_info(v->op->kind)->role[prole[i]], a, b);
        }
    if (!row_major(s) || (d && !row_major(d)))
        return verify_op_warning(v, "expects src and dst to use row-major layout");
    const OpInfo *in = op_info(v->op->kind);
    for (int r = 0; r < in->nroles; r++)
        if (v->tb[r] && v->tb[r]->loc != LOC_VEC)
            return verify_op_warning(v, "expects %s to be in the vec address space", in->role[r]);
    return true;
}

/* ---- section 5: tgemv.bias ------------------------------------------------------------------ */
static bool verify_tgemv(V *v)
{
    int lhs = R(v, ROLE_LHS), rhs = R(v, ROLE_RHS), bias = R(v, ROLE_BIAS), dst = R(v, ROLE_DST);
    const TileBody *a = v->tb[lhs], *b = v->tb[rhs], *c = v->tb[bias], *d = v->tb[dst];
    bool a5 = v->arch == ARCH_A5;
    char x[24], y[24];
    /* PTOAS's TGemvBiasOp: the gemv operands, the bias, the type triple, in its order. Its
     * verifyTileBufCommon admits no low-precision type for lhs, rhs, dst or bias, on A5 as on
     * A2/A3, so the fp8 and hif8 rows of the type-triple message are never the reason here. */
    if (!transfer_tile(v, lhs, "lhs", false) || !transfer_tile(v, rhs, "rhs", false) ||
        (d && !transfer_tile(v, dst, "dst", false)))
        return false;
    if (d && d->loc != LOC_ACC)
        return fail(v, dst, "expects dst to be in the acc address space");
    if (a->loc != LOC_LEFT || b->loc != LOC_RIGHT)
        return fail(v, a->loc != LOC_LEFT ? lhs : rhs, "expects lhs and rhs to use the left and right address spaces");
    if (differ(a->vrow, 1))
        return fail(v, lhs, "expects lhs valid_shape[0] to be 1 for tgemv");
    if (d && differ(d->vrow, 1))
        return fail(v, dst, "expects dst valid_shape[0] to be 1 for tgemv");
    if (differ(a->vcol, b->vrow)) {
        put_dim(x, sizeof x, a->vcol);
        put_dim(y, sizeof y, b->vrow);
        return fail(v, lhs, "expects lhs valid_shape[1] to equal rhs valid_shape[0], but got %s vs %s", x, y);
    }
    if (d && differ(b->vcol, d->vcol)) {
        put_dim(x, sizeof x, b->vcol);
        put_dim(y, sizeof y, d->vcol);
        return fail(v, rhs, "expects rhs valid_shape[1] to equal dst valid_shape[1], but got %s vs %s", x, y);
    }
    if (a5 && d) {
        /* verifyMatTileOperandsA5: the logical (valid, else physical) shapes and sizes */
        int64_t am = known(a->vrow) ? a->vrow : a->rows, ak = known(a->vcol) ? a->vcol : a->cols;
        int64_t bk = known(b->vrow) ? b->vrow : b->rows, bn = known(b->vcol) ? b->vcol : b->cols;
        int64_t dm = known(d->vrow) ? d->vrow : d->rows, dn = known(d->vcol) ? d->vcol : d->cols;
        if (am != dm || bn != dn || ak != bk)
            return fail(v, -1, "expects static matmul tile shapes lhs[M,K], rhs[K,N], and dst[M,N]");
        if ((known(a->vrow) && a->vrow > 4095) || (known(a->vcol) && a->vcol > 4095) ||
            (known(b->vcol) && b->vcol > 4095))
            return fail(v, -1, "expects m, k, and n valid sizes to be in [0, 4095]");
        /* a left tile_buf's blayout as PTOAS's parser gives it (target_rule_blayout) */
        if (target_rule_blayout(v->ty[lhs], v->arch) != BL_COL_MAJOR)
            return fail(v, lhs, "expects lhs to use the col_major blayout on A5");
        if (target_rule_blayout(v->ty[rhs], v->arch) != BL_ROW_MAJOR)
            return fail(v, rhs, "expects rhs to use the row_major blayout on A5");
        if (target_rule_blayout(v->ty[dst], v->arch) != BL_COL_MAJOR)
            return fail(v, dst, "expects dst to use the col_major blayout on A5");
        if (a->slayout != SL_ROW_MAJOR)
            return fail(v, lhs, "expects lhs to use the row_major slayout on A5");
        if (b->slayout != SL_COL_MAJOR)
            return fail(v, rhs, "expects rhs to use the col_major slayout on A5");
        if (d->slayout != SL_ROW_MAJOR)
            return fail(v, dst, "expects dst to use the row_major slayout on A5");
    }
    if (!transfer_tile(v, bias, "bias", false))
        return false;
    if (c->loc != LOC_BIAS)
        return fail(v, bias, "expects bias to be in the bias address space");
    if (c->rows != 1)
        return fail(v, bias, "expects bias to have 1 row");
    if (d && c->dtype != d->dtype)
        return fail(v, bias, "expects bias and dst to have the same element type");
    if (a5 && target_rule_blayout(v->ty[bias], v->arch) != BL_ROW_MAJOR)
        return fail(v, bias, "expects bias to use the row_major blayout on A5");
    DType dd = d ? d->dtype : DT_NONE;
    bool fp_in = a->dtype == b->dtype && (a->dtype == DT_F16 || a->dtype == DT_BF16 || a->dtype == DT_F32);
    bool ok = (!d || int_bits(dd, 4)) && int_bits(a->dtype, 1) && int_bits(b->dtype, 1);
    ok |= (!d || dd == DT_F32) && fp_in;
    if (!ok)
        return fail(v, dst, "expects (dst, lhs, rhs) element types to match one of (i32, i8, i8), (f32, f16, f16), "
                            "(f32, bf16, bf16), (f32, f32, f32)%s",
                    a5 ? ", (f32, fp8, fp8), or (f32, hif8, hif8)" : "");
    /* the runtime's own rules (PTOAS has none of these): warnings */
    if (a->cols != b->rows)
        return verify_op_warning(v, "expects lhs cols to equal rhs rows, but got %lld vs %lld", (long long)a->cols,
                         (long long)b->rows);
    if (d && b->cols != d->cols)
        return verify_op_warning(v, "expects rhs cols to equal dst cols, but got %lld vs %lld", (long long)b->cols,
                         (long long)d->cols);
    int64_t k = a->vcol, n = b->vcol;
    if ((known(k) && (k < 1 || k > 4095)) || (known(n) && (n < 1 || n > 4095))) {
        put_dim(x, sizeof x, k);
        put_dim(y, sizeof y, n);
        return verify_op_warning(v, "expects k and n valid sizes to be in [1, 4095], but got k=%s, n=%s", x, y);
    }
    if (d && differ(c->vcol, d->vcol)) {
        put_dim(x, sizeof x, c->vcol);
        put_dim(y, sizeof y, d->vcol);
        return verify_op_warning(v, "expects bias valid_shape[1] to equal dst valid_shape[1], but got %s vs %s", x, y);
    }
    return true;
}

/* ---- section 6: other ops ----------------------------------------------------------------------- */
static int64_t plain_bytes(const TileBody *t) { return t->rows * t->cols * (int64_t)dtype_size(t->dtype); }

/* tmov with a non-scaling third tile: pto-isa's X-to-ZZ exponent move (numerics.md 6), with
 * PTOAS's rules and messages. */
static bool verify_tmov_zz(V *v, int src, int dst, int tmp, bool fp_attrs)
{
    const TileBody *s = v->tb[src], *d = v->tb[dst], *t = v->tb[tmp];
    if (v->arch != ARCH_A5)
        return fail(v, -1, "X-to-ZZ tmov is only supported on A5");
    if (fp_attrs)
        return fail(v, -1, "expects the X-to-ZZ tmov form not to use preQuantScalar, accToVecMode, or reluPreMode");
    if (s->loc != LOC_VEC || d->loc != LOC_VEC || t->loc != LOC_VEC)
        return fail(v, -1, "expects X-to-ZZ src/dst/tmp to be vec tiles");
    if (v->val[src] == v->val[dst] || v->val[src] == v->val[tmp] || v->val[dst] == v->val[tmp])
        return fail(v, -1, "expects X-to-ZZ src, dst, and tmp to be distinct tile values");
    if (!known(s->vrow) || !known(s->vcol) || !known(d->vrow) || !known(d->vcol))
        return fail(v, -1, "expects static valid and physical shapes for src/dst and a static tmp physical shape "
                           "for X-to-ZZ");
    if (s->dtype != d->dtype || s->dtype != t->dtype)
        return fail(v, -1, "expects src, dst, and tmp to share one element type");
    if (s->dtype != DT_UI8 && s->dtype != DT_F8E8M0 && s->dtype != DT_HIF8)
        return fail(v, src, "expects element type to be one of ui8, !pto.hif8, !pto.f8E8M0 (i8 lowers to int8_t, "
                            "which PTO-ISA CommonCheckZZ rejects)");
    if (s->blayout != BL_ROW_MAJOR || s->slayout != SL_NONE_BOX)
        return fail(v, src, "expects src to use blayout=row_major, slayout=none_box");
    if (d->blayout != BL_ROW_MAJOR || d->slayout != SL_ROW_MAJOR)
        return fail(v, dst, "expects dst to use blayout=row_major, slayout=row_major (ZZ box)");
    if (s->vrow * s->vcol != d->vrow * d->vcol)
        return fail(v, -1, "expects src and dst to hold the same exponent count");
    if (enum_attr(v->op, "grpAxis", EK_MX_GROUP_AXIS, GA_AXIS1) == GA_AXIS1) {
        int64_t rb = (d->vrow + 15) / 16, need = rb * 16 * d->vcol;
        if (d->vcol % 2)
            return fail(v, dst, "expects ND-to-ZZ dst valid_shape[1] (the grouped exponent column count) to be even");
        if (s->vrow != 1 && s->cols != s->vcol)
            return fail(v, src, "expects ND-to-ZZ src valid elements to form a compact prefix (single-row legacy "
                                "flat or physical row stride equal to valid cols)");
        if (plain_bytes(s) < need)
            return fail(v, src, "expects ND-to-ZZ src physical capacity to cover align16(dst rows) * dst cols because "
                                "source padding is zeroed in place");
        if (plain_bytes(d) < need)
            return fail(v, dst, "expects ND-to-ZZ dst physical capacity to cover align16(dst rows) * dst cols");
        if (plain_bytes(t) < 64 + rb * d->vcol)
            return fail(v, tmp, "expects tmp to provide at least %lld bytes for ND-to-ZZ (64 + ceil(dst rows / 16) * "
                                "dst cols)", (long long)(64 + rb * d->vcol));
        return true;
    }
    if (s->vrow < 2 || s->vrow % 2)
        return fail(v, src, "expects DN-to-ZZ src valid_shape[0] to be an even count >= 2; a single row-group "
                            "produces no output in PTO-ISA");
    if (s->vcol % 16)
        return fail(v, src, "expects DN-to-ZZ src valid_shape[1] to be a multiple of 16");
    if (s->cols != s->vcol)
        return fail(v, src, "expects DN-to-ZZ src physical row stride to equal src valid_shape[1]");
    if (plain_bytes(s) < s->vrow * s->vcol || plain_bytes(d) < s->vrow * s->vcol)
        return fail(v, -1, "expects DN-to-ZZ src/dst physical capacity to cover src valid rows * src valid cols");
    return true;
}

static bool verify_tmov(V *v)
{
    int src = R(v, ROLE_SRC), dst = R(v, ROLE_DST), tmp = R(v, ROLE_TMP);
    const TileBody *s = v->tb[src], *d = v->tb[dst];
    if (!d)
        return true;
    bool pre = v->val[R(v, ROLE_PRE_QUANT_SCALAR)] != NO_VALUE, a5 = v->arch == ARCH_A5;
    bool relu_set, no_relu = opaque_attr(v->op, "reluPreMode", "no_relu", &relu_set), relu = relu_set && !no_relu;
    if (v->tb[tmp] && v->tb[tmp]->loc != LOC_SCALING) {
        bool fp_attrs = pre || ir_attr_find(v->op->attrs, v->op->nattrs, "accToVecMode") || relu;
        return verify_tmov_zz(v, src, dst, tmp, fp_attrs);
    }
    /* PTOAS's TMovOp rules for the plain, fp and preQuantScalar forms, in its order */
    if (ir_attr_find(v->op->attrs, v->op->nattrs, "grpAxis"))
        return fail(v, -1, "expects grpAxis only on the X-to-ZZ form with a non-scaling third tile");
    if (!transfer_tile(v, src, "src", a5) || !transfer_tile(v, dst, "dst", a5) ||
        (v->tb[tmp] && !transfer_tile(v, tmp, "fp", a5)))
        return false;
    if (v->tb[tmp] && pre)
        return fail(v, -1, "expects fp and preQuantScalar forms to be mutually exclusive");
    bool same_shape = s->rows == d->rows && s->cols == d->cols;
    char sa[48], sb[48];
    if (s->loc == LOC_MAT && !same_shape)
        return fail(v, src, "expects mat-source tmov to use matching src/dst shapes, but got %s and %s",
                    verify_shape_str(s->rows, s->cols, sa), verify_shape_str(d->rows, d->cols, sb));
    if (!a5 && s->loc != LOC_MAT && !same_shape)
        return fail(v, src, "expects A2/A3 non-mat tmov to use matching src/dst shapes, but got %s and %s",
                    verify_shape_str(s->rows, s->cols, sa), verify_shape_str(d->rows, d->cols, sb));
    bool acc_out = s->loc == LOC_ACC && (d->loc == LOC_MAT || d->loc == LOC_VEC);
    bool mat_out = s->loc == LOC_MAT && (d->loc == LOC_LEFT || d->loc == LOC_RIGHT || d->loc == LOC_BIAS ||
                                         d->loc == LOC_SCALING);
    bool vec_out = s->loc == LOC_VEC && (d->loc == LOC_VEC || (a5 && d->loc == LOC_MAT));
    if (!acc_out && !mat_out && !vec_out)
        return fail(v, -1, "expects a supported tmov address-space pair for this target");
    bool mode;
    bool dual = opaque_attr(v->op, "accToVecMode", "dual_mode", &mode);
    if (mode && !(s->loc == LOC_ACC && d->loc == LOC_VEC))
        return fail(v, -1, "expects accToVecMode to be used only for acc-to-vec tmov");
    if (relu && !acc_out)
        return fail(v, -1, "expects reluPreMode form to use loc=acc src");
    if (pre && !acc_out)
        return fail(v, -1, "expects preQuantScalar form to use loc=acc src");
    if (v->tb[tmp]) {
        if (s->dtype != DT_F32 && !int_bits(s->dtype, 4))
            return fail(v, -1, "expects fp form src to have element type f32, i32");
        if (!acc_out)
            return fail(v, -1, "expects fp form to use loc=acc src");
    }
    if (dual && (pre || v->tb[tmp]))
        return fail(v, -1, "expects fp/preQuantScalar acc-to-vec forms to use single-mode accToVecMode");
    if (s->loc == LOC_ACC && (v->tb[tmp] || relu) && (s->blayout != BL_COL_MAJOR || s->slayout != SL_ROW_MAJOR))
        return fail(v, -1, "expects acc-source fp/relu tmov src to use blayout=col_major and slayout=row_major");
    bool acc_mat = s->loc == LOC_ACC && d->loc == LOC_MAT;
    if (v->tb[tmp] && !a5 && acc_mat && (d->blayout != BL_COL_MAJOR || d->slayout != SL_ROW_MAJOR))
        return fail(v, -1, "expects fp tmov dst to use blayout=col_major and slayout=row_major");
    if (!a5 && acc_mat && d->fractal != 512)
        return fail(v, -1, "expects A2/A3 acc-to-mat tmov destination fractal to be 512");
    if (v->tb[tmp] || pre) /* quantizes: src and dst element types differ by design */
        return true;
    /* the runtime's own rules (PTOAS has none here): it moves elements between equal valid
     * shapes, unconverted but for the hardware's casts (target_move_converts); warnings, and
     * codegen rejects any other change of element type */
    if (s->dtype != d->dtype && !target_move_converts(s, d))
        return verify_op_warning(v, "expects src and dst to have the same element type");
    if (differ(s->vrow, d->vrow) || differ(s->vcol, d->vcol))
        return verify_op_warning(v, "expects src and dst to have the same valid_shape, but got %s and %s",
                         verify_shape_str(s->vrow, s->vcol, sa), verify_shape_str(d->vrow, d->vcol, sb));
    return true;
}

/* A view's static element count, or -1 when a dimension is dynamic or not positive, or the
 * product does not fit in int64 (PTOAS takes any static size). */
static int64_t static_count(const Type *view)
{
    int64_t count = 1;
    for (uint32_t i = 0; i < view->rank; i++)
        if (!known(view->dims[i]) || view->dims[i] <= 0 || __builtin_mul_overflow(count, view->dims[i], &count))
            return -1;
    return count;
}

/* The view/tile shape rule ptoas adds (a warning: PTOAS has none, the runtime needs it). */
static void transfer_shape_warning(V *v, bool load, const Type *view, const TileBody *t)
{
    bool valid_static = known(t->vrow) && known(t->vcol);
    if (valid_static && (t->vrow == 0 || t->vcol == 0))
        return; /* nothing to transfer (PTOAS counts no elements then) */
    int64_t count = static_count(view);
    /* the rows all dimensions but the last make (pto-isa's ND transfer of a 5-D tensor) */
    int64_t vr0 = 1, vc0 = view->dims[view->rank - 1];
    for (uint32_t i = 0; i + 1 < view->rank && known(vr0); i++)
        if (!known(view->dims[i]) || __builtin_mul_overflow(vr0, view->dims[i], &vr0))
            vr0 = DIM_DYNAMIC;
    /* a static view of another shape holding as many elements is transferred row by row,
     * tile row r to view row r: the runtime needs as many view rows as valid rows */
    bool same_count = count > 0 && valid_static && count == t->vrow * t->vcol && (!load || row_major(t)) &&
                      (!known(vr0) || t->vrow <= vr0);
    if ((differ(vr0, t->vrow) || differ(vc0, t->vcol)) && !same_count) {
        char a[160] = "[1", c[24], e[24]; /* a 1-D view is one row */
        size_t n = view->rank == 1 ? 2 : 0;
        for (uint32_t i = 0; i < view->rank && n < sizeof a - 24; i++) {
            n += (size_t)snprintf(a + n, sizeof a - n, "%s", n ? ", " : "[");
            put_dim(a + n, sizeof a - n, view->dims[i]);
            n += strlen(a + n);
        }
        put_dim(c, sizeof c, t->vrow);
        put_dim(e, sizeof e, t->vcol);
        diag_warning(v->d, v->op->name_span,
                     "'%s' op expects the view shape to equal the tile valid_shape, but got %s] vs [%s, %s]",
                     op_info(v->op->kind)->name, a, c, e);
    }
}

/* pto.tload: PTOAS's TLoadOp rules, in its order, per arch. */
static bool verify_tload(V *v)
{
    int dst = R(v, ROLE_DST);
    const Type *view = v->ty[0];
    const TileBody *t = v->tb[dst];
    if (!view || !t)
        return true;
    bool a5 = v->arch == ARCH_A5;
    if (!transfer_tile(v, dst, "dst", a5))
        return false;
    DType s = view->dtype, d = t->dtype;
    if (!a5) {
        if (low_precision_dtype(s) || low_precision_dtype(d))
            return fail(v, -1, "expects A2/A3 tload low-precision element types to be unsupported");
        if (!plain_transfer(d))
            return fail(v, dst, "expects A2/A3 tload dst element type to be i8/i16/i32/i64/u64/f16/bf16/f32");
        if (t->loc != LOC_VEC && t->loc != LOC_MAT)
            return fail(v, dst, "expects A2/A3 tload dst to use loc=vec or loc=mat");
        if (storage_bytes(s) != storage_bytes(d))
            return fail(v, 0, "expects src and dst element types to have the same bitwidth");
    } else {
        if (storage_bytes(s) != storage_bytes(d))
            return fail(v, 0, "expects src and dst element types to have the same element size");
        unsigned db = storage_bytes(d); /* i1, index, i3, ui24, f80 ... fail here */
        if (db != 1 && db != 2 && db != 4 && db != 8)
            return fail(v, dst, "expects A5 tload dst element size to be 1, 2, 4, or 8 bytes");
        if (!plain_transfer(s) && !low_precision_dtype(s))
            return fail(v, 0, "expects A5 tload src element type to be i8/i16/i32/i64/f16/bf16/f32/f8/hif8/fp4");
        if (!plain_transfer(d) && !low_precision_dtype(d))
            return fail(v, dst, "expects A5 tload dst element type to be i8/i16/i32/i64/f16/bf16/f32/f8/hif8/fp4");
        if (int_bits(d, 8) && t->pad != 0 && t->pad != 1)
            return fail(v, dst, "expects A5 i64/u64 tload dst pad to be null or zero");
        if (t->loc == LOC_VEC && !nd_dn_nz(t))
            return fail(v, dst, "expects A5 tload vec dst layout to be ND, DN, or NZ");
    }
    transfer_shape_warning(v, true, view, t);
    return true;
}

/* A5 acc stores with a preQuantScalar (isA5AccStorePreQuantDstType) */
static bool a5_prequant_dst(DType s, DType d)
{
    if (int_bits(s, 4))
        return int_bits(d, 1) || d == DT_F16 || d == DT_BF16;
    return int_bits(d, 1) || d == DT_F16 || d == DT_BF16 || d == DT_F32 || d == DT_HIF8 || dtype_is_f8e4m3_like(d);
}

/* pto.tstore: PTOAS's TStoreOp rules, in its order, per arch (the fp and preQuantScalar
 * forms are PTOAS's quantizing stores from an acc tile). */
static bool verify_tstore(V *v)
{
    int src = R(v, ROLE_SRC), dst = R(v, ROLE_DST), fp = R(v, ROLE_FP);
    const Type *view = v->ty[dst];
    const TileBody *t = v->tb[src];
    if (!view || !t)
        return true;
    bool has_fp = v->val[fp] != NO_VALUE, pre = v->val[R(v, ROLE_PRE_QUANT_SCALAR)] != NO_VALUE;
    bool a5 = v->arch == ARCH_A5;
    if (has_fp && pre)
        return fail(v, -1, "expects fp and preQuantScalar to be mutually exclusive");
    bool phase;
    if (has_fp && !opaque_attr(v->op, "stPhase", "unspecified", &phase) && phase)
        return fail(v, -1, "expects fp form to use the default stPhase");
    if (!transfer_tile(v, src, "src", a5))
        return false;
    if (has_fp && !transfer_tile(v, fp, "fp", a5))
        return false;
    if (has_fp && v->tb[fp] && v->tb[fp]->loc != LOC_SCALING)
        return fail(v, -1, "expects fp to use loc=scaling");
    int64_t count = static_count(view);
    if (!has_fp && count > 0 && known(t->vrow) && known(t->vcol) && t->vrow > 0 && t->vcol > 0 &&
        count != t->vrow * t->vcol)
        return fail(v, dst, "expects dst static element count (%lld) to match src valid_shape static element count "
                            "(%lld)", (long long)count, (long long)(t->vrow * t->vcol));
    bool relu_set;
    bool no_relu = opaque_attr(v->op, "reluPreMode", "no_relu", &relu_set);
    bool relu = relu_set && !no_relu;
    if (a5 ? t->loc != LOC_VEC && t->loc != LOC_ACC : t->loc != LOC_VEC && t->loc != LOC_MAT && t->loc != LOC_ACC)
        return fail(v, src, a5 ? "expects A5 tstore src to use loc=vec or loc=acc"
                               : "expects A2/A3 tstore src to use loc=vec, loc=mat, or loc=acc");
    if ((has_fp || pre) && t->loc != LOC_ACC)
        return fail(v, -1, "expects fp/preQuantScalar form to use loc=acc src");
    if (relu && t->loc != LOC_ACC)
        return fail(v, src, "expects reluPreMode form to use loc=acc src");
    DType s = t->dtype, d = view->dtype;
    if (t->loc != LOC_ACC) {
        if (!a5) {
            if (low_precision_dtype(d))
                return fail(v, dst, "expects A2/A3 vec/mat tstore low-precision dst element types to be unsupported");
            if (!plain_transfer(s))
                return fail(v, src, "expects A2/A3 vec/mat tstore src element type to be "
                                    "i8/i16/i32/i64/u64/f16/bf16/f32");
            if (storage_bytes(s) != storage_bytes(d))
                return fail(v, dst, "expects A2/A3 vec/mat tstore src and dst element types to have the same bitwidth");
        } else {
            if (!plain_transfer(s) && !low_precision_dtype(s))
                return fail(v, src, "expects A5 vec tstore src element type to be "
                                    "i8/i16/i32/i64/f16/bf16/f32/f8/hif8/fp4");
            if (storage_bytes(s) != storage_bytes(d))
                return fail(v, dst, "expects A5 vec tstore src and dst element types to have the same bitwidth");
            if (!(t->rows == 1 || t->cols == 1) && !nd_dn_nz(t))
                return fail(v, src, "expects A5 vec tstore src layout to be ND, DN, or NZ (or special case with 1 "
                                    "row/col)");
        }
        transfer_shape_warning(v, false, view, t);
        return true;
    }
    if (!int_bits(s, 4) && s != DT_F32)
        return fail(v, -1, a5 ? "expects A5 acc tstore src element type to be i32 or f32"
                               : "expects A2/A3 acc tstore src element type to be i32 or f32");
    bool plain_dst = int_bits(d, 4) || d == DT_F32 || d == DT_F16 || d == DT_BF16;
    if (pre && a5 && !a5_prequant_dst(s, d))
        return fail(v, -1, "expects A5 acc preQuantScalar tstore dst type to be i8/ui8/f16/bf16/f32/hif8/f8E4M3");
    if (pre && !a5 && int_bits(s, 4) && !int_bits(d, 1) && d != DT_F16)
        return fail(v, -1, "expects A2/A3 acc preQuantScalar tstore dst type to be i8/ui8/f16");
    if (pre && !a5 && !int_bits(s, 4) && !int_bits(d, 1))
        return fail(v, -1, "expects A2/A3 acc preQuantScalar tstore dst type to be i8/ui8");
    if (!pre && !has_fp && !plain_dst)
        return fail(v, -1, a5 ? "expects A5 acc tstore dst element type to be i32/f32/f16/bf16"
                               : "expects A2/A3 acc tstore dst element type to be i32/f32/f16/bf16");
    if (!a5 && (t->cols < 1 || t->cols > 4095))
        return fail(v, src, "expects A2/A3 acc tstore src cols to be in [1, 4095]");
    if (!a5 && known(t->vcol) && t->vcol > 4095)
        return fail(v, src, "expects A2/A3 acc tstore src valid_shape[1] to be in [0, 4095]");
    if (!has_fp && d == s)
        transfer_shape_warning(v, false, view, t);
    return true;
}

/* `addr` operands: an arith.constant of type i64 or index. */
static bool verify_addr(V *v, int role)
{
    if (role < 0 || v->val[role] == NO_VALUE)
        return true;
    const Value *a = &v->f->values[v->val[role]];
    bool ok = a->def_op && a->def_op->kind == OP_CONSTANT && a->type &&
              a->type->kind == TY_SCALAR && (a->type->dtype == DT_I64 || a->type->dtype == DT_INDEX);
    return ok || fail(v, role, "expects addr to be a constant i64");
}

/* A computed i64/index address (not an arith.constant): allowed in pto.tassign and
 * alloc_tile, as PTOAS allows it; tassign checks it at run time (docs/memory.md 5). */
static bool computed_addr(const V *v, int role)
{
    const Value *a = role < 0 || v->val[role] == NO_VALUE ? NULL : &v->f->values[v->val[role]];
    return a && a->type && a->type->kind == TY_SCALAR && (a->type->dtype == DT_I64 || a->type->dtype == DT_INDEX) &&
           !(a->def_op && a->def_op->kind == OP_CONSTANT);
}

static bool verify_alloc(V *v)
{
    /* PTOAS's ODS operand types (Optional<I64> addr, Optional<Index> valid_row/valid_col),
     * which only the generic form can break */
    static const RoleId operands[3] = {ROLE_ADDR, ROLE_VALID_ROW, ROLE_VALID_COL};
    uint32_t n = 0;
    for (int i = 0; i < 3; i++) {
        int r = R(v, operands[i]);
        if (v->val[r] == NO_VALUE)
            continue;
        DType want = i ? DT_INDEX : DT_I64;
        if (!v->ty[r] || v->ty[r]->kind != TY_SCALAR || v->ty[r]->dtype != want) {
            char b[256];
            return fail(v, -1, "operand #%u must be %s, but got '%s'", n, i ? "index" : "64-bit signless integer",
                        v->ty[r] ? type_str(v->ty[r], b, sizeof b) : "?");
        }
        n++;
    }
    const Type *t = v->f->values[v->op->res[0]].type;
    if (!type_is_tile(t))
        return true;
    static const RoleId roles[2] = {ROLE_VALID_ROW, ROLE_VALID_COL};
    int64_t dims[2] = {t->tile.vrow, t->tile.vcol};
    const char *tnames[2] = {"v_row", "v_col"};
    for (int i = 0; i < 2; i++) {
        const char *name = role_name(roles[i]);
        int r = R(v, roles[i]);
        bool has = v->val[r] != NO_VALUE;
        if (!known(dims[i]) && !has)
            return fail(v, -1, "%s operand is required because result type %s is ?", name, tnames[i]);
        if (known(dims[i]) && has)
            return fail(v, r, "%s operand must be absent because result type %s is %lld", name, tnames[i],
                        (long long)dims[i]);
    }
    return computed_addr(v, R(v, ROLE_ADDR)) || verify_addr(v, R(v, ROLE_ADDR));
}

static bool verify_tassign(V *v)
{
    if (v->op->nres && v->f->values[v->op->res[0]].type != v->ty[0])
        return fail(v, 0, "result type must match tile operand type");
    int r = R(v, ROLE_ADDR);
    return computed_addr(v, r) || verify_addr(v, r);
}

static bool verify_return(V *v)
{
    const Op *op = v->op;
    const Func *f = v->f;
    if (op->nopnds != f->nresults) {
        diag_error(v->d, op->name_span, "'func.return' op has %u operands, but enclosing function (@%.*s) returns %u",
                   op->nopnds, (int)f->name.len, f->name.p, f->nresults);
        v->errors = true;
        return false;
    }
    for (uint32_t i = 0; i < op->nopnds; i++) {
        const Type *t = f->values[op->opnds[i]].type;
        if (t != f->results[i]) {
            char a[256], b[256];
            diag_error(v->d, op->name_span,
                       "'func.return' op type of return operand %u ('%s') doesn't match function result type ('%s')",
                       i, type_str(t, a, sizeof a), type_str(f->results[i], b, sizeof b));
            v->errors = true;
            return false;
        }
    }
    return true;
}

static bool verify_tile_views(V *v)
{
    if (!verify_tile_view(v))
        v->errors = true;
    return !v->errors;
}

/* The value of an integer arith.constant operand (PTOAS's getConstIndexValue). */
static bool const_int(const V *v, ValueId id, int64_t *out)
{
    return ir_const_int(v->f, id, out);
}

/* The operands of role r of the op: their first index in op->opnds and their count. */
static uint32_t role_first(const Op *op, int r)
{
    uint32_t k = 0;
    for (int i = 0; i < r; i++)
        k += op->seg[i];
    return k;
}

/* pto.make_tensor_view and pto.partition_view: PTOAS's rules, in its order. */
static bool verify_view_op(V *v)
{
    const Op *op = v->op;
    const Type *res = v->f->values[op->res[0]].type;
    char a[64], b[64];
    if (op->kind == OP_MAKE_TENSOR_VIEW) {
        const Type *ptr = v->ty[0];
        if (!res || res->kind != TY_TENSOR_VIEW)
            return fail(v, -1, "result must be pto.tensor_view<...>");
        if (!ptr || ptr->kind != TY_PTR)
            return fail(v, 0, "ptr operand must be !pto.ptr<...>");
        if (ptr->dtype != res->dtype) {
            snprintf(a, sizeof a, "%s", dtype_name(ptr->dtype));
            snprintf(b, sizeof b, "%s", dtype_name(res->dtype));
            return fail(v, 0, "ptr element type must match tensor_view element type, but got ptr=%s view=%s", a, b);
        }
        int rs = R(v, ROLE_SHAPE), rt = R(v, ROLE_STRIDES);
        if (op->seg[rs] != res->rank || op->seg[rt] != res->rank)
            return fail(v, -1, "shape/strides operand counts must match tensor_view rank=%u", res->rank);
        return true;
    }
    const Type *src = v->ty[0];
    if (!src || src->kind != TY_TENSOR_VIEW || !res || res->kind != TY_PART_VIEW)
        return fail(v, 0, "expects tensor_view source and partition_tensor_view result");
    if (src->dtype != res->dtype) {
        snprintf(a, sizeof a, "%s", dtype_name(src->dtype));
        snprintf(b, sizeof b, "%s", dtype_name(res->dtype));
        return fail(v, 0, "element type mismatch between source and result: src=%s result=%s", a, b);
    }
    int ro = R(v, ROLE_OFFSETS), rz = R(v, ROLE_SIZES);
    if (op->seg[ro] != src->rank)
        return fail(v, 0, "offset count (%u) must match source rank (%u)", op->seg[ro], src->rank);
    if (op->seg[rz] != src->rank)
        return fail(v, 0, "size count (%u) must match source rank (%u)", op->seg[rz], src->rank);
    uint32_t fo = role_first(op, ro), fz = role_first(op, rz);
    for (uint32_t i = 0; i < src->rank; i++) {
        int64_t off = 0, size = 0;
        bool ko = const_int(v, op->opnds[fo + i], &off), kz = const_int(v, op->opnds[fz + i], &size);
        if (ko && off < 0)
            return fail(v, -1, "offset at dim %u must be non-negative, got %lld", i, (long long)off);
        if (kz && size <= 0)
            return fail(v, -1, "size at dim %u must be positive, got %lld", i, (long long)size);
        if (res->rank == src->rank && kz && known(res->dims[i]) && size != res->dims[i])
            return fail(v, -1, "size/result mismatch at dim %u: size operand=%lld result type dim=%lld", i,
                        (long long)size, (long long)res->dims[i]);
        int64_t sd = src->dims[i];
        if (!known(sd))
            continue;
        if (kz && size > sd)
            return fail(v, 0, "size at dim %u (%lld) exceeds static source dim (%lld)", i, (long long)size,
                        (long long)sd);
        if (ko && kz && off + size > sd)
            return fail(v, 0, "offset+size at dim %u (%lld) exceeds static source dim (%lld)", i,
                        (long long)(off + size), (long long)sd);
    }
    return true;
}

/* The function of mod that a func.call names: its slot in ix (f NULL when none). */
static const FuncSlot *call_slot(const FuncIndex *ix, const ModuleOp *mod, const Op *call)
{
    static const FuncSlot none;
    const Attr *ca = ir_attr_find(call->attrs, call->nattrs, "callee");
    if (!ca || ca->val->kind != AV_SYMBOL)
        return &none;
    return ir_func_index_find(ix, mod, ca->val->u.s);
}

/* One verifier per op class; the op's row and its kind give the per-op data. */
/* the scalar ops and arith.constant (verify_arith.c) */
static bool verify_scalar(V *v)
{
    const Func *callee = v->op->kind == OP_CALL ? call_slot(v->funcs, v->mod, v->op)->f : NULL;
    if (verify_scalar_op(v, callee))
        return true;
    v->errors = true;
    return false;
}

/* scf.for, scf.if, scf.while, scf.execute_region, scf.yield, scf.condition (verify_scf.c) */
static bool verify_region_op(V *v)
{
    if (verify_scf(v))
        return true;
    v->errors = true;
    return false;
}

/* func.return: where it stands (verify_scf.c), then what it returns */
static bool verify_return_at(V *v)
{
    return verify_region_op(v) && verify_return(v);
}

/* The last op of op's regions in pre-order (op itself when they hold none). */
static const Op *subtree_last(const Op *op)
{
    for (;;) {
        const Op *last = NULL;
        for (uint32_t i = 0; i < op->nregions; i++)
            for (const Block *b = op->regions[i].first; b; b = b->next)
                if (b->last)
                    last = b->last;
        if (!last)
            return op;
        op = last;
    }
}

static bool (*const verify_class[OC_COUNT])(V *) = {
    [OC_QUANT] = verify_tquant_int8,
    [OC_MX_QUANT] = verify_tquant_mx,
    [OC_DEQUANT] = verify_tdequant,
    [OC_GEMV] = verify_tgemv,
    [OC_MOVE] = verify_tmov,
    [OC_LOAD] = verify_tload,
    [OC_STORE] = verify_tstore,
    [OC_ALLOC] = verify_alloc,
    [OC_TASSIGN] = verify_tassign,
    [OC_TILE_VIEW] = verify_tile_views,
    [OC_RETURN] = verify_return_at,
    [OC_FOR] = verify_region_op,
    [OC_IF] = verify_region_op,
    [OC_YIELD] = verify_region_op,
    [OC_WHILE] = verify_region_op,
    [OC_CONDITION] = verify_region_op,
    [OC_EXECUTE_REGION] = verify_region_op,
    /* arith.constant and the scalar ops: verify_arith.c */
    [OC_CONSTANT] = verify_scalar,
    [OC_INT_BIN] = verify_scalar,
    [OC_FLOAT_BIN] = verify_scalar,
    [OC_FLOAT_UN] = verify_scalar,
    [OC_CMPI] = verify_scalar,
    [OC_SELECT] = verify_scalar,
    [OC_CAST] = verify_scalar,
    [OC_CALL] = verify_scalar,
    [OC_LOAD_SCALAR] = verify_scalar,
    [OC_STORE_SCALAR] = verify_scalar,
    [OC_VIEW] = verify_view_op,
    [OC_MATMUL] = verify_matmul,
    /* == PIPE == */
    [OC_FIFO] = verify_pipe_op,
    [OC_SYNC] = verify_pipe_op,
    [OC_MULTI_TILE] = verify_pipe_op,
    /* the on-chip moves: verify_moves.c */
    [OC_EXTRACT] = verify_move_op,
    [OC_INSERT] = verify_move_op,
    [OC_TRANS] = verify_move_op,
    [OC_SCALE_ADDR] = verify_move_op,
    /* == SCALAR == */
    [OC_GETVAL] = verify_scal_op,
    [OC_SETVAL] = verify_scal_op,
    [OC_PTR] = verify_scal_op,
    [OC_QUERY] = verify_scal_op,
    [OC_DEBUG] = verify_scal_op,
    /* == REARR: the DMA ones (the others are vector ops) == */
    [OC_MGATHER] = verify_rearr_op,
    [OC_MSCATTER] = verify_rearr_op,
    [OC_PREFETCH] = verify_rearr_op,
    [OC_LOCAL] = verify_scal_op,
    [OC_CMO] = verify_scal_op,
    [OC_COMM_SIGNAL] = verify_scal_op,
};


/* ---- driver ------------------------------------------------------------------------------------ */
static void verify_op(V *v)
{
    const Op *op = v->op;
    if (op->bad || any_poisoned(v)) {
        poison_outputs(v);
        return;
    }
    bind_roles(v);
    const OpInfo *in = op_info(op->kind);
    bool before = v->errors;
    /* Level 1 result types are declarations (section 1) */
    if (in->syntax == SYN_COMPUTE || in->cls == OC_ALLOC)
        for (uint32_t i = 0; i < op->nres; i++)
            check_decl(v, op->res[i], op->kind == OP_ALLOC_TILE && !op->synthetic ? DECL_ALLOC : DECL_RESULT);
    if (v->errors != before)
        return;
    if (in->syntax == SYN_COMPUTE && !check_kinds(v)) {
        poison_outputs(v);
        return;
    }
    if (in->opflags & OF_VEC) /* the vector ops: verify_vec.c */
        verify_vec_op(v);
    else if (verify_class[in->cls])
        verify_class[in->cls](v);
    if (v->errors != before)
        poison_outputs(v);
}

/* What a tileop helper may not hold, in PTOAS's order for one op (sections, pipe
 * synchronization, tile ops); NULL when op is none of them. */
static const char *helper_forbids(const Op *op)
{
    static const OpKind pipe_sync[] = {OP_RECORD_EVENT, OP_WAIT_EVENT, OP_BARRIER_SYNC, OP_AIC_INITIALIZE_PIPE,
                                       OP_AIV_INITIALIZE_PIPE, OP_SET_FLAG, OP_WAIT_FLAG, OP_SET_FLAG_DYN,
                                       OP_WAIT_FLAG_DYN, OP_GET_BUF, OP_RLS_BUF, OP_SYNC_SET, OP_SYNC_WAIT,
                                       OP_BARRIER, OP_FENCE_BARRIER_ALL, OP_SYNCALL};
    if (op_info(op->kind)->cls == OC_SECTION)
        return "pre-existing sections";
    for (size_t i = 0; i < sizeof pipe_sync / sizeof pipe_sync[0]; i++)
        if (op->kind == pipe_sync[i])
            return "pipe synchronization";
    if (op_info(op->kind)->opflags & OF_TILE_OP)
        return "Tile allocation or high-level TileOps";
    return NULL;
}

/* PTOAS's tileop helper contract (a function with the unit attribute
 * pto.tileop.helper): tile or scalar arguments, no results, and a body of raw
 * Vector or Cube compute ops -- which ptoas has none of, so a helper is always
 * rejected, with the first of PTOAS's messages that applies. */
static void verify_tileop_helper(V *v)
{
    const Func *f = v->f;
    if (!ir_attr_find(f->attrs, f->nattrs, "pto.tileop.helper"))
        return;
    const Block *entry = ir_entry(f);
    char buf[256];
    for (uint32_t a = 0; a < entry->nargs; a++) {
        const Type *t = f->values[entry->args[a]].type;
        if (!t || (t->kind != TY_TILE_BUF && t->kind != TY_SCALAR)) {
            diag_error(v->d, f->span, "'func.func' op tileop argument #%u must be !pto.tile_buf or a PTO scalar, got %s",
                       a, t ? type_str(t, buf, sizeof buf) : "?");
            v->errors = true;
            return;
        }
    }
    if (f->nresults) {
        diag_error(v->d, f->span,
                   "'func.func' op tileop helpers must not return values; write results through mutable Tile parameters");
        v->errors = true;
        return;
    }
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) { /* the first op of a kind it may not hold */
        const char *why = helper_forbids(op);
        if (why) {
            diag_error(v->d, op->name_span, "tileop helpers must not contain %s", why);
            v->errors = true;
            return;
        }
    }
    diag_error(v->d, f->span,
               "'func.func' op contains no Vector or Cube compute operation from which to infer tileop kind");
    v->errors = true;
}

/* The index in mod->funcs of the function a func.call names, or -1. */
static int call_target(const FuncIndex *ix, const ModuleOp *mod, const Op *call)
{
    const FuncSlot *s = call_slot(ix, mod, call);
    return s->f ? (int)s->idx : -1;
}

/* PTOAS emits C++ with every function defined before its callers, so it rejects a recursive
 * call graph: a function that calls itself (at the function) and a cycle through several
 * (at the module; when the module is implicit, at the first function in text order that
 * lies on or between cycles). ptoas rejects the same with the same texts (docs/verify.md).
 * Declarations have no body, so they are not part of the graph. Both peelings below are
 * Kahn's algorithm, linear in the calls. */
static bool verify_call_graph(const FuncIndex *ix, const ModuleOp *mod, DiagEngine *d)
{
    uint32_t n = mod->nfuncs;
    if (n == 0)
        return false;
    /* callees[off[i] .. off[i+1]): the distinct defined functions i calls, itself excluded;
     * callers[roff[g] .. roff[g+1]): the functions that call g */
    uint32_t *off = xcalloc(n + 1, sizeof *off), cap = 16, len = 0;
    uint32_t *callees = xmalloc(cap * sizeof *callees);
    uint32_t *roff = xcalloc(n + 1, sizeof *roff), *pending = xcalloc(n, sizeof *pending);
    uint32_t *queue = xmalloc(n * sizeof *queue);
    uint8_t *seen = xcalloc(n, 1), *state = xcalloc(n, 1); /* 1 ordered, 2 peeled */
    bool errors = false;
    for (uint32_t i = 0; i < n; i++) {
        const Func *f = mod->funcs[i];
        off[i] = len;
        bool self = false;
        for (const Op *op = f->decl ? NULL : ir_first_op(f); op; op = ir_next_op(op)) {
            int g = op->kind == OP_CALL ? call_target(ix, mod, op) : -1;
            if (g < 0 || mod->funcs[g]->decl || seen[g])
                continue;
            seen[g] = 1;
            if ((uint32_t)g == i) {
                self = true;
                continue;
            }
            if (len == cap)
                callees = xrealloc(callees, (cap *= 2) * sizeof *callees);
            callees[len++] = (uint32_t)g;
            roff[g + 1]++;
        }
        for (uint32_t k = off[i]; k < len; k++)
            seen[callees[k]] = 0;
        seen[i] = 0;
        if (self)
            diag_error(d, f->span, "'func.func' op recursive function calls are not supported for EmitC C++ emission");
        errors |= self;
    }
    off[n] = len;
    for (uint32_t g = 0; g < n; g++)
        roff[g + 1] += roff[g];
    uint32_t *callers = xmalloc((len ? len : 1) * sizeof *callers), *fill = xmalloc(n * sizeof *fill);
    memcpy(fill, roff, n * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = off[i]; k < off[i + 1]; k++)
            callers[fill[callees[k]]++] = i;
    /* order: a function is ordered once every function it calls is */
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < n; i++)
        if ((pending[i] = off[i + 1] - off[i]) == 0)
            state[i] = 1, queue[tail++] = i;
    while (head < tail) {
        uint32_t g = queue[head++];
        for (uint32_t k = roff[g]; k < roff[g + 1]; k++)
            if (--pending[callers[k]] == 0)
                state[callers[k]] = 1, queue[tail++] = callers[k];
    }
    if (tail < n) {
        /* what is left calls a cycle; peel the callers that no unordered function calls */
        head = tail = 0;
        for (uint32_t i = 0; i < n; i++) {
            pending[i] = 0;
            for (uint32_t k = roff[i]; k < roff[i + 1]; k++)
                pending[i] += state[callers[k]] == 0;
        }
        for (uint32_t i = 0; i < n; i++)
            if (state[i] == 0 && pending[i] == 0)
                state[i] = 2, queue[tail++] = i;
        while (head < tail) {
            uint32_t i = queue[head++];
            for (uint32_t k = off[i]; k < off[i + 1]; k++)
                if (state[callees[k]] == 0 && --pending[callees[k]] == 0)
                    state[callees[k]] = 2, queue[tail++] = callees[k];
        }
        uint32_t first = 0;
        while (state[first] != 0)
            first++;
        diag_error(d, mod->implicit ? mod->funcs[first]->span : mod->span,
                   "cyclic function call graph is not supported for EmitC C++ emission");
        errors = true;
    }
    free(off);
    free(callees);
    free(roff);
    free(callers);
    free(fill);
    free(pending);
    free(queue);
    free(seen);
    free(state);
    return errors;
}

/* The calls as codegen links them (emit_callee_slot in emit_flow.c): a call names a function of
 * its module, and a declaration there stands for the definition another module gives it
 * when the two have the same signature. A cycle that passes through such a declaration is
 * no cycle of any one module (verify_call_graph) but recurses all the same, without end
 * on the C stack; it is reported at the first declaration on or between cycles. Kahn's
 * algorithm both ways, linear in the calls. */
typedef struct Edges {
    uint32_t *from, *to, len, cap;
} Edges;

static void edge_add(Edges *e, uint32_t from, uint32_t to)
{
    if (e->len == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->from = xrealloc(e->from, e->cap * sizeof *e->from);
        e->to = xrealloc(e->to, e->cap * sizeof *e->to);
    }
    e->from[e->len] = from;
    e->to[e->len++] = to;
}

/* Peels the functions that reach no cycle (no edge left out of them), then those no cycle
 * reaches (no edge left into them); what stays lies on or between cycles. Reports at the
 * first declaration that stays. */
static bool linked_cycle(const Func **all, uint32_t n, const Edges *e, DiagEngine *d)
{
    uint32_t *out = xcalloc(n, sizeof *out), *in = xcalloc(n, sizeof *in);
    uint32_t *off = xcalloc(n + 1, sizeof *off), *roff = xcalloc(n + 1, sizeof *roff);
    uint32_t *fwd = xmalloc((e->len + 1) * sizeof *fwd), *back = xmalloc((e->len + 1) * sizeof *back);
    uint32_t *queue = xmalloc(n * sizeof *queue), head = 0, tail = 0;
    uint8_t *gone = xcalloc(n, 1);
    for (uint32_t k = 0; k < e->len; k++)
        off[e->from[k] + 1]++, roff[e->to[k] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        off[i + 1] += off[i], roff[i + 1] += roff[i];
    for (uint32_t k = 0; k < e->len; k++) {
        fwd[off[e->from[k]] + out[e->from[k]]++] = e->to[k];
        back[roff[e->to[k]] + in[e->to[k]]++] = e->from[k];
    }
    for (uint32_t i = 0; i < n; i++)
        if (out[i] == 0)
            gone[i] = 1, queue[tail++] = i;
    while (head < tail) {
        uint32_t g = queue[head++];
        for (uint32_t k = roff[g]; k < roff[g + 1]; k++)
            if (--out[back[k]] == 0)
                gone[back[k]] = 1, queue[tail++] = back[k];
    }
    head = tail = 0;
    for (uint32_t i = 0; i < n; i++) {
        in[i] = 0;
        for (uint32_t k = roff[i]; k < roff[i + 1]; k++)
            in[i] += !gone[back[k]];
        if (!gone[i] && in[i] == 0)
            gone[i] = 1, queue[tail++] = i;
    }
    while (head < tail) {
        uint32_t i = queue[head++];
        for (uint32_t k = off[i]; k < off[i + 1]; k++)
            if (!gone[fwd[k]] && --in[fwd[k]] == 0)
                gone[fwd[k]] = 1, queue[tail++] = fwd[k];
    }
    uint32_t first = 0;
    while (first < n && (gone[first] || !all[first]->decl))
        first++;
    if (first < n)
        diag_error(d, all[first]->span,
                   "cyclic function call graph through the declaration of '@%.*s', which another module defines, "
                   "is not supported",
                   (int)all[first]->name.len, all[first]->name.p);
    free(out);
    free(in);
    free(off);
    free(roff);
    free(fwd);
    free(back);
    free(queue);
    free(gone);
    return first < n;
}

static bool verify_linked_calls(const Module *m, const FuncIndex *ix, DiagEngine *d)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        n += m->mods[i]->nfuncs;
    const Func **all = xmalloc((n + 1) * sizeof *all);
    Edges e = {0};
    bool linked = false;
    for (uint32_t i = 0, k = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++, k++) {
            const Func *f = all[k] = m->mods[i]->funcs[j];
            if (f->decl) {
                const FuncSlot *s = ir_func_index_definition(ix, f);
                if (s->f && ir_same_signature(f, s->f)) {
                    edge_add(&e, k, s->all);
                    linked = true;
                }
                continue;
            }
            for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
                const FuncSlot *s = op->kind == OP_CALL ? call_slot(ix, m->mods[i], op) : NULL;
                if (s && s->f)
                    edge_add(&e, k, s->all);
            }
        }
    bool errors = linked && linked_cycle(all, n, &e, d);
    free(all);
    free(e.from);
    free(e.to);
    return errors;
}

bool verify_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg)
{
    (void)src;
    bool errors = false;
    unsigned before = diag_error_count(d); /* --Werror counts the warnings too */
    bool calls_bad = false;
    FuncIndex funcs;
    ir_func_index_init(&funcs, m);
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        Arch arch = module_arch(mod->implicit ? NULL : mod, cfg);
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            V v;
            memset(&v, 0, sizeof v);
            v.d = d;
            v.f = mod->funcs[j];
            v.arch = arch;
            v.mod = mod;
            v.funcs = &funcs;
            /* MLIR's symbol rule: only a private function may lack a body */
            if (v.f->decl && v.f->visibility != 1) {
                diag_error(d, v.f->span, "'func.func' op symbol declaration cannot have public visibility");
                errors = true;
            }
            const Block *entry = ir_entry(v.f);
            for (uint32_t a = 0; a < entry->nargs; a++)
                check_decl(&v, entry->args[a], DECL_ARG);
            for (v.op = ir_first_op(v.f); v.op;) {
                unsigned errs = diag_error_count(d);
                verify_op(&v);
                /* MLIR verifies no nested op of an op that failed */
                v.op = ir_next_op(v.op->nregions && diag_error_count(d) != errs ? subtree_last(v.op) : v.op);
            }
            verify_tileop_helper(&v);
            errors |= v.errors;
        }
        calls_bad |= verify_call_graph(&funcs, mod, d);
    }
    /* a cycle in one module is reported there; one through modules only here */
    calls_bad = calls_bad || verify_linked_calls(m, &funcs, d);
    errors |= calls_bad;
    ir_func_index_free(&funcs);
    /* PTOAS checks these after its verifier, before it compiles the children */
    errors |= !verify_backends(m, d);
    return !errors && diag_error_count(d) == before;
}
