/* verify_views.c - the rules of the tile views: pto.treshape, pto.subview and
 * pto.set_validshape (docs/verify.md "tile views"). The rules and their message
 * texts are PTOAS's (e32488c). Kept apart from verify.c so that the rules of the
 * compute ops and these evolve without touching each other. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "verify_int.h"

static const Type *vtype(const V *v, ValueId x) { return x == NO_VALUE ? NULL : v->f->values[x].type; }

/* The value of an integer arith.constant operand (PTOAS reads constants through casts
 * too; ptoas has no casts). */
static bool const_operand(const V *v, ValueId x, int64_t *out)
{
    return ir_const_int(v->f, x, out);
}

/* Offsets and valid sizes are index values, as PTOAS's operand types say. */
static bool check_index_operands(V *v, uint32_t first, uint32_t n)
{
    for (uint32_t i = first; i < first + n && i < v->op->nopnds; i++) {
        const Type *t = vtype(v, v->op->opnds[i]);
        if (!t || t->kind != TY_SCALAR || t->dtype != DT_INDEX) {
            char b[128];
            diag_error(v->d, v->op->opnd_spans[i], "'%s' op expects operand %u to be of type 'index', but got '%s'",
                       op_info(v->op->kind)->name, i, t ? type_str(t, b, sizeof b) : "?");
            return false;
        }
    }
    return true;
}

static bool boxed(const TileBody *b) { return b->slayout != SL_NONE_BOX; }

/* The element bytes PTOAS's treshape counts (its own helper, not the storage size): f16,
 * bf16, f32 and f64 among the floats, an integer at least one byte (i1 and i3 count 1); 0
 * for the other floats (f8E8M0FNU, tf32, f80, ...), i0 and index, which it cannot size. */
static int64_t reshape_bytes(DType d)
{
    switch (d) {
    case DT_F16: case DT_BF16: return 2;
    case DT_F32: return 4;
    case DT_F64: return 8;
    default: break;
    }
    unsigned bits = dtype_is_int(d) ? dtype_bits(d) : 0;
    return bits == 0 ? 0 : bits < 8 ? 1 : (int64_t)(bits / 8);
}

static bool verify_treshape(V *v, const Type *src, const Type *res)
{
    if (!type_is_tile(src) || !type_is_tile(res))
        return verify_error(v, "expects src/result to be !pto.tile_buf types");
    const TileBody *s = &src->tile, *r = &res->tile;
    /* verifyTileBufCommon without the low-precision types, on both archs */
    if (dtype_is_low_precision(s->dtype))
        return verify_error(v, "src: dtype %s is not supported by this op yet", dtype_name(s->dtype));
    if (dtype_is_low_precision(r->dtype))
        return verify_error(v, "dst: dtype %s is not supported by this op yet", dtype_name(r->dtype));
    if (s->loc != r->loc)
        return verify_error(v, "expects src and dst to use the same loc");
    int64_t sb = reshape_bytes(s->dtype), rb = reshape_bytes(r->dtype);
    if (!sb || !rb)
        return verify_error(v, "failed to get element byte width for src/dst");
    if (s->rows < 0 || s->cols < 0 || r->rows < 0 || r->cols < 0)
        return verify_error(v, "expects static shapes for treshape");
    if (sb * s->rows * s->cols != rb * r->rows * r->cols)
        return verify_error(v, "expects src and dst to have the same total byte size");
    if (boxed(s) != boxed(r))
        return verify_error(v, "cannot reshape between boxed and non-boxed tile layouts");
    return true;
}

static const AttrValue *subview_sizes(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "sizes");
    return a ? a->val : NULL;
}

/* One valid dimension of a subview: explicit constant operand (range-checked), else
 * '?' for a non-constant operand, else the size. *ok false after a reported error. */
static int64_t subview_valid_dim(V *v, ValueId x, int64_t size, const char *name, const char *dim, bool *ok)
{
    if (x == NO_VALUE)
        return size;
    int64_t c;
    if (!const_operand(v, x, &c))
        return DIM_DYNAMIC;
    if (c < 0)
        *ok = verify_error(v, "%s must be non-negative when constant", name);
    else if (c > size)
        *ok = verify_error(v, "%s must be <= subview %s size", name, dim);
    return c < size ? c : size;
}

static bool verify_subview(V *v, const Type *src, const Type *res)
{
    const Op *op = v->op;
    if (!type_is_tile(src) || !type_is_tile(res))
        return verify_error(v, "expects tile_buf src and tile_buf result");
    const AttrValue *sz = subview_sizes(op);
    if (!sz || sz->kind != AV_ARRAY || sz->u.arr.n != 2 || !sz->u.arr.items[0] || !sz->u.arr.items[1] ||
        sz->u.arr.items[0]->kind != AV_INT || sz->u.arr.items[1]->kind != AV_INT)
        return verify_error(v, "subview expects 2D sizes");
    int64_t size[2] = {sz->u.arr.items[0]->u.i, sz->u.arr.items[1]->u.i};
    if (size[0] <= 0 || size[1] <= 0)
        return verify_error(v, "subview sizes must be positive");
    if (op->seg[1] != 2)
        return verify_error(v, "subview expects 2D offsets");
    if (!check_index_operands(v, 1, op->nopnds - 1))
        return false;
    int64_t off[2];
    bool off_const[2];
    for (int i = 0; i < 2; i++) {
        off_const[i] = const_operand(v, op->opnds[1 + i], &off[i]);
        if (off_const[i] && off[i] < 0)
            return verify_error(v, "subview offsets must be non-negative");
    }
    if (op->seg[2] != op->seg[3])
        return verify_error(v, "subview expects valid_row and valid_col to be both present or both absent");
    ValueId vr = op->seg[2] ? op->opnds[3] : NO_VALUE, vc = op->seg[3] ? op->opnds[3 + op->seg[2]] : NO_VALUE;
    bool ok = true;
    int64_t want_r = subview_valid_dim(v, vr, size[0], "valid_row", "row", &ok);
    if (!ok)
        return false;
    int64_t want_c = subview_valid_dim(v, vc, size[1], "valid_col", "col", &ok);
    if (!ok)
        return false;
    const TileBody *s = &src->tile, *r = &res->tile;
    if (r->rows != size[0] || r->cols != size[1])
        return verify_error(v, "expects result shape to match subview sizes");
    if (r->dtype != s->dtype)
        return verify_error(v, "expects result element type to match source");
    if (r->loc != s->loc)
        return verify_error(v, "expects result address space to match source");
    if (r->blayout != s->blayout || r->slayout != s->slayout || r->fractal != s->fractal || r->pad != s->pad ||
        r->compact != s->compact)
        return verify_error(v, "expects result tile config to match source");
    /* without operands the result type says the valid extent: any static value in [0, size] */
    bool row_typed = vr == NO_VALUE && r->vrow != DIM_DYNAMIC && r->vrow >= 0 && r->vrow <= size[0];
    bool col_typed = vc == NO_VALUE && r->vcol != DIM_DYNAMIC && r->vcol >= 0 && r->vcol <= size[1];
    if (r->vrow != want_r && !row_typed)
        return verify_error(v, "expects result valid_shape[0] to match inferred/explicit valid_row");
    if (r->vcol != want_c && !col_typed)
        return verify_error(v, "expects result valid_shape[1] to match inferred/explicit valid_col");
    if (!boxed(s))
        return true;
    int64_t in_r, in_c;
    tile_inner_box(s, &in_r, &in_c);
    if (size[0] % in_r || size[1] % in_c)
        return verify_error(v, "boxed layout subview sizes must be multiples of inner shape");
    if ((off_const[0] && off[0] % in_r) || (off_const[1] && off[1] % in_c))
        return verify_error(v, "boxed layout subview offsets must be multiples of inner shape");
    return true;
}

/* A tile the function binds itself: an alloc_tile, or a treshape of one (PTOAS). */
static bool locally_bound(const V *v, ValueId x)
{
    for (int depth = 0; x != NO_VALUE && depth < 1 << 16; depth++) {
        const Value *val = &v->f->values[x];
        const Op *def = val->def_op;
        if (!def)
            return false;
        if (op_info(def->kind)->cls == OC_ALLOC) /* alloc_tile, declare_tile */
            return true;
        if (def->kind != OP_TRESHAPE || !def->nopnds)
            return false;
        x = def->opnds[0];
    }
    return false;
}

static bool verify_set_validshape(V *v, const Type *src)
{
    const Op *op = v->op;
    if (!type_is_tile(src))
        return verify_error(v, "expects rank-2 tile_buf source");
    const TileBody *s = &src->tile;
    if (s->vrow != DIM_DYNAMIC || s->vcol != DIM_DYNAMIC)
        return verify_error(v, "expects source tile_buf to have dynamic validShape (?, ?)");
    if (!locally_bound(v, op->opnds[0]))
        return verify_error(v, "requires a locally bound tile source; function arguments/results are unsupported");
    if (!check_index_operands(v, 1, 2))
        return false;
    int64_t bound[2] = {s->rows, s->cols};
    const char *dim[2] = {"row", "col"};
    for (int i = 0; i < 2; i++) {
        int64_t c;
        if (!const_operand(v, op->opnds[1 + i], &c))
            continue;
        if (c < 0)
            return verify_error(v, "expects %s operand to be non-negative", dim[i]);
        if (c > bound[i])
            return verify_error(v, "expects %s operand <= shape dim (%lld)", dim[i], (long long)bound[i]);
    }
    return true;
}

bool verify_tile_view(V *v)
{
    const Op *op = v->op;
    if (!op->nopnds)
        return verify_error(v, "expects a tile operand");
    const Type *src = vtype(v, op->opnds[0]);
    const Type *res = op->nres ? vtype(v, op->res[0]) : NULL;
    switch (op->kind) {
    case OP_TRESHAPE: return verify_treshape(v, src, res);
    case OP_SUBVIEW: return verify_subview(v, src, res);
    case OP_SET_VALIDSHAPE: return verify_set_validshape(v, src);
    default: return true;
    }
}
