/* scalaccess.c - single-element access to a tile (pto.tgetval, pto.tsetval: pto-isa's
 * GetValue / SetValue, `ptr[offset]` over the tile's storage from its first byte), pointer
 * offsets (pto.addptr) and tensor-view queries. */
#include <string.h>

#include "internal.h"

/* Checks the tile and the offset; *bytes gets the element's size. */
static ptort_status element(ptort_ctx *ctx, const char *op, const char *role, const ptort_tile *t, int64_t offset,
                            int fl, int *bytes)
{
    ptort_status st = ptort_check_operand(ctx, op, role, t);
    if (st != PTORT_OK)
        return st;
    if (t->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "'%s': %s must be a vec tile, but is in %s", op, role,
                          ptort_loc_name(t->loc));
    ptort_dtype d = t->dtype;
    int is_float = d == PTORT_F16 || d == PTORT_BF16 || d == PTORT_F32;
    int is_int = d == PTORT_I8 || d == PTORT_I16 || d == PTORT_I32 || d == PTORT_U8 || d == PTORT_U16 || d == PTORT_U32;
    if (!(fl ? is_float : is_int))
        return ptort_fail(ctx, PTORT_E_DTYPE, "'%s': %s has element type %s, which has no %s scalar form", op, role,
                          ptort_dtype_name(d), fl ? "float" : "integer");
    *bytes = ptort_dtype_size(d);
    int64_t n = ptort_tile_bytes(t) / *bytes;
    if (offset < 0 || offset >= n)
        return ptort_fail(ctx, PTORT_E_VIEW, "'%s': offset %lld is outside the %lld elements of %s", op,
                          (long long)offset, (long long)n, role);
    return PTORT_OK;
}

static uint64_t get_bits(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put_bits(uint8_t *p, int bytes, uint64_t v)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

ptort_status ptort_tgetval_int(ptort_ctx *ctx, const ptort_tile *src, int64_t offset, int64_t *r)
{
    int bytes;
    ptort_status st = element(ctx, "pto.tgetval", "src", src, offset, 0, &bytes);
    if (st != PTORT_OK)
        return st;
    *r = ptort_sext(get_bits(tile_base(ctx, src) + offset * bytes, bytes), 8u * (unsigned)bytes);
    return PTORT_OK;
}

ptort_status ptort_tgetval_float(ptort_ctx *ctx, const ptort_tile *src, int64_t offset, float *r)
{
    int bytes;
    ptort_status st = element(ctx, "pto.tgetval", "src", src, offset, 1, &bytes);
    if (st != PTORT_OK)
        return st;
    *r = ptort_scalar_from_bits(get_bits(tile_base(ctx, src) + offset * bytes, bytes), src->dtype);
    return PTORT_OK;
}

ptort_status ptort_tsetval_int(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, int64_t v)
{
    int bytes;
    ptort_status st = element(ctx, "pto.tsetval", "dst", dst, offset, 0, &bytes);
    if (st != PTORT_OK)
        return st;
    put_bits(tile_base(ctx, dst) + offset * bytes, bytes, (uint64_t)v);
    return PTORT_OK;
}

ptort_status ptort_tsetval_float(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, float v)
{
    int bytes;
    ptort_status st = element(ctx, "pto.tsetval", "dst", dst, offset, 1, &bytes);
    if (st != PTORT_OK)
        return st;
    uint64_t bits;
    if (dst->dtype == PTORT_F16) {
        bits = ptort_f32_to_f16(v);
    } else if (dst->dtype == PTORT_BF16) {
        bits = ptort_f32_to_bf16(v);
    } else {
        uint32_t u;
        memcpy(&u, &v, sizeof u);
        bits = u;
    }
    put_bits(tile_base(ctx, dst) + offset * bytes, bytes, bits);
    return PTORT_OK;
}

ptort_status ptort_addptr(ptort_ctx *ctx, void *base, size_t size, int64_t offset, unsigned esize, void **nbase,
                          size_t *nsize)
{
    if (!esize || offset < 0 || (uint64_t)offset > size / esize)
        return ptort_fail(ctx, PTORT_E_VIEW, "'pto.addptr': offset %lld is outside the %zu elements of the buffer",
                          (long long)offset, esize ? size / esize : 0);
    *nbase = (uint8_t *)base + (size_t)offset * esize;
    *nsize = size - (size_t)offset * esize;
    return PTORT_OK;
}

ptort_status ptort_view_query(ptort_ctx *ctx, const ptort_view *v, int64_t k, int stride, int64_t *r)
{
    const char *op = stride ? "pto.get_tensor_view_stride" : "pto.get_tensor_view_dim";
    if (!v || k < 0 || k >= v->rank)
        return ptort_fail(ctx, PTORT_E_ARG, "'%s': dimension %lld is outside the view's rank %d", op, (long long)k,
                          v ? v->rank : 0);
    *r = stride ? v->stride[k] : v->shape[k];
    return PTORT_OK;
}

ptort_status ptort_local_index(ptort_ctx *ctx, const char *op, unsigned n, const int64_t *idx, const int64_t *dims)
{
    for (unsigned i = 0; i < n; i++)
        if (idx[i] < 0 || idx[i] >= dims[i])
            return ptort_fail(ctx, PTORT_E_VIEW, "'%s': index %u is %lld, outside the dimension's %lld elements", op, i,
                              (long long)idx[i], (long long)dims[i]);
    return PTORT_OK;
}
