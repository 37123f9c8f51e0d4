/* types.c - element types, enum tables, interned types and their canonical
 * spelling (docs/language.md 3.2: compact form, defaults omitted). */
#include <stdlib.h>
#include <string.h>
#include "ir.h"

static const struct {
    const char *name;
    uint8_t bits, kind;
    const char *rt;
    uint8_t vec;
    bool lp;
} dtypes[DT_COUNT] = {
    [DT_NONE] = {"<none>", 0, DK_NONE, NULL, 0, false},
#define X(id, s, b, k, rt, vec, lp) [DT_##id] = {s, b, k, rt, vec, lp},
    DTYPE_LIST(X)
#undef X
};

/* The integer types outside the table (i3, si1, ui24, ...), as a run meets them: a
 * process-wide, append-only list (ptoas is single-threaded), so that a DType stays a small
 * number that every module and the printer agree on. */
#define DYN_MAX 256
static struct {
    char name[12]; /* "ui16777215" */
    uint32_t bits;
    uint8_t kind;
} dyn[DYN_MAX];
static int ndyn;

static bool dyn_ok(DType d) { return d >= DT_COUNT && (int)d < DT_COUNT + ndyn; }

const char *dtype_name(DType d)
{
    if (dyn_ok(d))
        return dyn[d - DT_COUNT].name;
    return (unsigned)d < DT_COUNT ? dtypes[d].name : "<none>";
}

unsigned dtype_bits(DType d)
{
    if (dyn_ok(d))
        return dyn[d - DT_COUNT].bits;
    return (unsigned)d < DT_COUNT ? dtypes[d].bits : 0;
}

unsigned dtype_size(DType d) { return dtype_bits(d) / 8; }

/* The other integer widths (dyn) have no runtime type, no vector class and are not
 * low-precision. */
const char *dtype_rt_name(DType d) { return (unsigned)d < DT_COUNT ? dtypes[d].rt : NULL; }

unsigned dtype_elem_bit(DType d) { return (unsigned)d < DT_COUNT ? dtypes[d].vec : 0; }

bool dtype_is_low_precision(DType d) { return (unsigned)d < DT_COUNT && dtypes[d].lp; }

DTypeKind dtype_kind(DType d)
{
    if (dyn_ok(d))
        return (DTypeKind)dyn[d - DT_COUNT].kind;
    return (unsigned)d < DT_COUNT ? (DTypeKind)dtypes[d].kind : DK_NONE;
}

bool dtype_is_float(DType d)
{
    DTypeKind k = dtype_kind(d);
    return k == DK_FLOAT || k == DK_PTO;
}

unsigned dtype_int_width(DType d)
{
    DTypeKind k = dtype_kind(d);
    if (k == DK_INDEX)
        return 64; /* MLIR's internal storage width of index */
    return dtype_is_int(d) ? dtype_bits(d) : 0;
}

bool dtype_is_int(DType d)
{
    DTypeKind k = dtype_kind(d);
    return k == DK_INT || k == DK_SINT || k == DK_UINT;
}

bool dtype_is_f8e4m3_like(DType d)
{
    return d == DT_F8E4M3 || d == DT_F8E4M3FN || d == DT_F8E4M3FNUZ || d == DT_F8E4M3B11FNUZ;
}

bool dtype_is_fp8(DType d) { return dtype_is_f8e4m3_like(d) || d == DT_F8E5M2 || d == DT_F8E5M2FNUZ; }


/* MLIR's integer-type token: [su]?i[0-9]+. Sets the kind and the width (false in *ok when
 * it does not fit 32 bits, as MLIR's getAsInteger fails there). */
static bool int_spelling(const char *s, size_t n, DTypeKind *kind, uint64_t *width, bool *ok)
{
    size_t i = 0;
    *kind = DK_INT;
    if (n >= 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') {
        *kind = s[0] == 's' ? DK_SINT : DK_UINT;
        i = 2;
    } else if (n >= 1 && s[0] == 'i') {
        i = 1;
    } else {
        return false;
    }
    if (i == n)
        return false;
    uint64_t w = 0;
    *ok = true;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        w = w * 10 + (uint64_t)(s[i] - '0');
        if (w > UINT32_MAX)
            *ok = false, w = UINT32_MAX + (uint64_t)1;
    }
    *width = w;
    return true;
}

const char *dtype_lookup_problem(const char *s, size_t n)
{
    DTypeKind k;
    uint64_t w;
    bool ok;
    if (!int_spelling(s, n, &k, &w, &ok))
        return NULL;
    if (!ok)
        return "invalid integer width";
    if (w > DTYPE_INT_MAX_WIDTH)
        return "integer bitwidth is limited to 16777215 bits";
    if (ndyn == DYN_MAX && dtype_lookup(s, n) == DT_NONE)
        return "too many distinct integer widths in one run (ptoas takes 256 besides the named ones)";
    return NULL;
}

DType dtype_lookup(const char *s, size_t n)
{
    for (int d = 1; d < DT_COUNT; d++)
        if (name_eq(s, n, dtypes[d].name))
            return (DType)d;
    DTypeKind k;
    uint64_t w;
    bool ok;
    if (!int_spelling(s, n, &k, &w, &ok) || !ok || w > DTYPE_INT_MAX_WIDTH)
        return DT_NONE;
    /* the canonical spelling: "i08" is i8 */
    char name[sizeof dyn[0].name];
    snprintf(name, sizeof name, "%s%u", k == DK_SINT ? "si" : k == DK_UINT ? "ui" : "i", (unsigned)w);
    for (int d = 1; d < DT_COUNT; d++)
        if (strcmp(name, dtypes[d].name) == 0)
            return (DType)d;
    for (int i = 0; i < ndyn; i++)
        if (strcmp(name, dyn[i].name) == 0)
            return (DType)(DT_COUNT + i);
    if (ndyn == DYN_MAX)
        return DT_NONE;
    memcpy(dyn[ndyn].name, name, sizeof name);
    dyn[ndyn].bits = (uint32_t)w;
    dyn[ndyn].kind = (uint8_t)k;
    return (DType)(DT_COUNT + ndyn++);
}

/* ---- enums ------------------------------------------------------------------ */
static const char *const loc_names[] = {"vec", "mat", "left", "right", "acc", "bias", "scaling"};
static const char *const blayout_names[] = {"row_major", "col_major"};
static const char *const slayout_names[] = {"none_box", "row_major", "col_major"};
/* the attribute kinds: PTOAS's values in its declaration order (PTOAttrs.td) */
static const char *const qt_names[] = {"INT8_SYM", "INT8_ASYM", "MXFP8", "MXFP4_E2M1"};
static const char *const qsa_names[] = {"ocp", "nv"};
static const char *const axis_names[] = {"axis0", "axis1"};
static const char *const store_names[] = {"nd", "nz"};
static const char *const phase_names[] = {"unspecified", "partial", "final"};
static const char *const kk_names[] = {"cube", "vector"};
static const char *const space_names[] = {"zero", "gm", "mat", "left", "right", "acc", "vec", "bias", "scaling"};
static const char *const layout_names[] = {"nd", "dn", "nz", "mx_a_zz", "mx_b_nn"};
static const char *const rmode_names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT"};
static const char *const sat_names[] = {"ON", "OFF"};
static const char *const pad_mode_names[] = {"PadNull", "PadFirstElem", "PadValue"};
static const char *const precision_names[] = {"default", "high_precision"};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};

#define N(arr) arr, (int)(sizeof arr / sizeof arr[0])
#define KEY(kind, arr) {kind, false, false, N(arr), NULL, NULL, NULL}
/* an EnumAttr: #pto<KIND v>, its parameter named value */
#define ENUM_ATTR(kind, arr, cpp) {kind, false, false, N(arr), cpp, "PTO_" cpp "Attr", "value"}
#define KEPT_ATTR(kind, arr, cpp) {kind, false, true, N(arr), cpp, "PTO_" cpp "Attr", "value"}
/* a PTO_Attr with assemblyFormat "`<` params `>`": #pto.KIND<v> */
#define DOTTED_ATTR(kind, arr, cpp, def, param) {kind, true, false, N(arr), cpp, def, param}
const EnumInfo enum_info[EK_COUNT] = {
    [EK_LOC] = KEY("loc", loc_names),
    [EK_BLAYOUT] = KEY("blayout", blayout_names),
    [EK_SLAYOUT] = KEY("slayout", slayout_names),
    [EK_QUANT_TYPE] = ENUM_ATTR("quant_type", qt_names, "QuantType"),
    [EK_QUANT_SCALE_ALG] = ENUM_ATTR("quant_scale_alg", qsa_names, "QuantScaleAlg"),
    [EK_MX_GROUP_AXIS] = ENUM_ATTR("mx_group_axis", axis_names, "MxGroupAxis"),
    [EK_VEC_STORE_MODE] = ENUM_ATTR("vec_store_mode", store_names, "VecStoreMode"),
    [EK_ACC_PHASE] = ENUM_ATTR("acc_phase", phase_names, "AccPhase"),
    [EK_KERNEL_KIND] = DOTTED_ATTR("kernel_kind", kk_names, "FunctionKernelKind", "PTO_FunctionKernelKindAttr",
                                   "kernelKind"),
    [EK_ADDRESS_SPACE] = DOTTED_ATTR("address_space", space_names, "AddressSpace", "PTO_AddressSpaceAttr",
                                     "address_space"),
    [EK_LAYOUT] = DOTTED_ATTR("layout", layout_names, "Layout", "PTO_LayoutAttr", "layout"),
    [EK_ROUND_MODE] = ENUM_ATTR("round_mode", rmode_names, "RoundMode"),
    [EK_SAT_MODE] = ENUM_ATTR("saturation_mode", sat_names, "SaturationMode"),
    [EK_PAD_MODE] = DOTTED_ATTR("padmode", pad_mode_names, "PadMode", "PTO_PadModeAttr", "padmode"),
    [EK_DIV_PRECISION] = KEPT_ATTR("div_precision", precision_names, "DivPrecision"),
    [EK_EXP_PRECISION] = KEPT_ATTR("exp_precision", precision_names, "ExpPrecision"),
    [EK_LOG_PRECISION] = KEPT_ATTR("log_precision", precision_names, "LogPrecision"),
    [EK_RECIP_PRECISION] = KEPT_ATTR("recip_precision", precision_names, "RecipPrecision"),
    [EK_REM_PRECISION] = KEPT_ATTR("rem_precision", precision_names, "RemPrecision"),
    [EK_RSQRT_PRECISION] = KEPT_ATTR("rsqrt_precision", precision_names, "RsqrtPrecision"),
    [EK_SQRT_PRECISION] = KEPT_ATTR("sqrt_precision", precision_names, "SqrtPrecision"),
    [EK_FMOD_PRECISION] = KEPT_ATTR("fmod_precision", precision_names, "FmodPrecision"),
    [EK_POW_PRECISION] = KEPT_ATTR("pow_precision", precision_names, "PowPrecision"),
    [EK_CMP_MODE] = KEPT_ATTR("cmp", cmp_names, "CmpMode"),
};

int enum_lookup(EnumKind k, const char *s, size_t n)
{
    const EnumInfo *e = &enum_info[k];
    for (int i = 0; i < e->count; i++)
        if (name_eq(s, n, e->names[i]))
            return i;
    return -1;
}

void enum_expected_list(EnumKind k, char *buf, size_t size)
{
    const EnumInfo *e = &enum_info[k];
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < e->count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", e->names[i]);
}

/* ---- interning --------------------------------------------------------------- */
static uint32_t mix(uint32_t h, uint64_t v)
{
    h ^= (uint32_t)v + 0x9e3779b9u + (h << 6) + (h >> 2);
    h ^= (uint32_t)(v >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

static uint32_t type_hash(const Type *t)
{
    uint32_t h = mix(0, (uint64_t)t->kind * 131 + t->dtype);
    h = mix(h, t->ptr_space);
    h = mix(h, t->rank);
    for (uint32_t i = 0; i < t->rank; i++)
        h = mix(h, (uint64_t)t->dims[i]);
    h = mix(h, t->count);
    if (t->kind == TY_TILE || t->kind == TY_TILE_BUF || t->kind == TY_MULTI_TILE) {
        const TileBody *b = &t->tile;
        h = mix(h, (uint64_t)b->rows);
        h = mix(h, (uint64_t)b->cols);
        h = mix(h, (uint64_t)b->vrow);
        h = mix(h, (uint64_t)b->vcol);
        h = mix(h, (uint64_t)b->fractal << 32 | (uint64_t)b->dtype << 24 | (uint64_t)b->loc << 16 |
                       (uint64_t)b->blayout << 12 | (uint64_t)b->slayout << 8 | (uint64_t)b->pad << 4 |
                       b->compact);
    }
    return h;
}

static bool type_same(const Type *a, const Type *b)
{
    if (a->kind != b->kind || a->dtype != b->dtype || a->ptr_space != b->ptr_space || a->rank != b->rank ||
        a->count != b->count)
        return false;
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    if (a->kind == TY_TILE || a->kind == TY_TILE_BUF || a->kind == TY_MULTI_TILE) {
        const TileBody *x = &a->tile, *y = &b->tile;
        return x->rows == y->rows && x->cols == y->cols && x->vrow == y->vrow && x->vcol == y->vcol &&
               x->fractal == y->fractal && x->dtype == y->dtype && x->loc == y->loc &&
               x->blayout == y->blayout && x->slayout == y->slayout && x->pad == y->pad &&
               x->compact == y->compact;
    }
    return true;
}

void types_init(TypeTable *t, Arena *a)
{
    t->nbuckets = 256;
    t->buckets = xcalloc(t->nbuckets, sizeof *t->buckets);
    t->count = 0;
    t->arena = a;
}

void types_free(TypeTable *t)
{
    free(t->buckets);
    t->buckets = NULL;
}

static void rehash(TypeTable *t)
{
    size_t n = t->nbuckets * 2;
    Type **nb = xcalloc(n, sizeof *nb);
    for (size_t i = 0; i < t->nbuckets; i++) {
        Type *e = t->buckets[i];
        while (e) {
            Type *next = e->next;
            e->next = nb[e->hash & (n - 1)];
            nb[e->hash & (n - 1)] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
}

static void spell(StrBuf *b, const Type *t);

/* Returns the unique copy of *key (dims are copied into the arena). */
static const Type *intern(TypeTable *t, Type *key)
{
    key->hash = type_hash(key);
    for (Type *e = t->buckets[key->hash & (t->nbuckets - 1)]; e; e = e->next)
        if (e->hash == key->hash && type_same(e, key))
            return e;
    Type *n = arena_alloc(t->arena, sizeof *n);
    *n = *key;
    if (key->rank)
        n->dims = arena_dup(t->arena, key->dims, key->rank * sizeof *key->dims);
    StrBuf b = {0};
    spell(&b, n);
    n->spelling = arena_strndup(t->arena, b.p, b.len);
    n->spelling_len = (uint32_t)b.len;
    sb_free(&b);
    if (++t->count > t->nbuckets)
        rehash(t);
    n->next = t->buckets[n->hash & (t->nbuckets - 1)];
    t->buckets[n->hash & (t->nbuckets - 1)] = n;
    return n;
}

const Type *type_scalar(TypeTable *t, DType d)
{
    Type k = {0};
    k.kind = TY_SCALAR;
    k.dtype = d;
    return intern(t, &k);
}

const Type *type_tile(TypeTable *t, TypeKind kind, const TileBody *b)
{
    Type k = {0};
    k.kind = kind;
    k.dtype = b->dtype;
    k.tile = *b;
    return intern(t, &k);
}

const Type *type_multi_tile(TypeTable *t, const TileBody *slot, uint32_t count)
{
    Type k = {0};
    k.kind = TY_MULTI_TILE;
    k.dtype = slot->dtype;
    k.tile = *slot;
    k.count = count;
    return intern(t, &k);
}

static const char *const ptr_space_names[PS_COUNT][2] = {
    [PS_DEFAULT] = {"", ""},  [PS_GM] = {"gm", "gm"},     [PS_L1] = {"l1", "mat"},
    [PS_L0A] = {"l0a", "left"}, [PS_L0B] = {"l0b", "right"}, [PS_L0C] = {"l0c", "acc"},
    [PS_UB] = {"ub", "vec"},  [PS_BT] = {"bt", "bias"},   [PS_FB] = {"fb", "scaling"},
};

PtrSpace ptr_space_lookup(const char *s, size_t n)
{
    for (int i = PS_GM; i < PS_COUNT; i++)
        for (int j = 0; j < 2; j++)
            if (strlen(ptr_space_names[i][j]) == n && memcmp(ptr_space_names[i][j], s, n) == 0)
                return (PtrSpace)i;
    return PS_COUNT;
}

const Type *type_ptr(TypeTable *t, DType d, PtrSpace space)
{
    Type k = {0};
    k.kind = TY_PTR;
    k.dtype = d;
    k.ptr_space = (uint8_t)space;
    return intern(t, &k);
}

const Type *type_view(TypeTable *t, TypeKind kind, DType d, uint32_t rank, const int64_t *dims)
{
    Type k = {0};
    k.kind = kind;
    k.dtype = d;
    k.rank = rank;
    k.dims = dims;
    return intern(t, &k);
}

/* ---- spelling ------------------------------------------------------------------ */
static void put_dim(StrBuf *b, int64_t d)
{
    if (d == DIM_DYNAMIC)
        sb_putc(b, '?');
    else
        sb_printf(b, "%lld", (long long)d);
}

void type_print(StrBuf *b, const Type *t)
{
    if (!t)
        sb_puts(b, "<<null type>>");
    else
        sb_putn(b, t->spelling, t->spelling_len);
}

static void spell(StrBuf *b, const Type *t)
{
    switch (t->kind) {
    case TY_SCALAR:
        sb_puts(b, dtype_name(t->dtype));
        return;
    case TY_PTR:
        sb_printf(b, "!pto.ptr<%s%s%s>", dtype_name(t->dtype), t->ptr_space ? ", " : "",
                  ptr_space_names[t->ptr_space][0]);
        return;
    case TY_EVENTID_ARRAY:
        sb_printf(b, "!pto.eventid_array<%lld>", (long long)t->dims[0]);
        return;
    case TY_TENSOR_VIEW:
    case TY_PART_VIEW:
    case TY_LOCAL_ARRAY:
        sb_puts(b, t->kind == TY_TENSOR_VIEW ? "!pto.tensor_view<"
                   : t->kind == TY_PART_VIEW ? "!pto.partition_tensor_view<"
                                             : "!pto.local_array<");
        for (uint32_t i = 0; i < t->rank; i++) {
            put_dim(b, t->dims[i]);
            sb_putc(b, 'x');
        }
        sb_puts(b, dtype_name(t->dtype));
        sb_putc(b, '>');
        return;
    case TY_TILE:
    case TY_TILE_BUF:
    case TY_MULTI_TILE: {
        const TileBody *x = &t->tile;
        sb_puts(b, t->kind == TY_TILE ? "!pto.tile<" : t->kind == TY_TILE_BUF ? "!pto.tile_buf<" : "!pto.multi_tile_buf<");
        sb_printf(b, "%s, %lldx%lldx%s", enum_info[EK_LOC].names[x->loc], (long long)x->rows,
                  (long long)x->cols, dtype_name(x->dtype));
        if (x->vrow != x->rows || x->vcol != x->cols) {
            sb_puts(b, ", valid=");
            put_dim(b, x->vrow);
            sb_putc(b, 'x');
            put_dim(b, x->vcol);
        }
        if (x->blayout != BL_ROW_MAJOR)
            sb_printf(b, ", blayout=%s", enum_info[EK_BLAYOUT].names[x->blayout]);
        if (x->slayout != SL_NONE_BOX)
            sb_printf(b, ", slayout=%s", enum_info[EK_SLAYOUT].names[x->slayout]);
        if (x->fractal != 512)
            sb_printf(b, ", fractal=%d", (int)x->fractal);
        if (x->pad)
            sb_printf(b, ", pad=%d", x->pad);
        if (x->compact)
            sb_printf(b, ", compact=%d", x->compact);
        if (t->kind == TY_MULTI_TILE) /* PTOAS's compact spelling (ptoas reads no nested type) */
            sb_printf(b, ", count=%u", t->count);
        sb_putc(b, '>');
        return;
    }
    }
}

const char *type_str(const Type *t, char *buf, size_t size)
{
    StrBuf b = {0};
    type_print(&b, t);
    if (b.len < size) {
        memcpy(buf, b.p, b.len + 1);
    } else if (size > 4) {
        memcpy(buf, b.p, size - 4);
        memcpy(buf + size - 4, "...", 4);
    }
    sb_free(&b);
    return buf;
}
