/* build_types.c - the values the grammar hands to the op builders: numbers
 * (with MLIR's range rules), attribute values, and types — scalar names,
 * tile types in both spellings (docs/language.md 3.2, with the parser's key/value
 * checks), pointers and tensor views. */
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "parser.h"
#include "build.h"

/* ---- numbers ------------------------------------------------------------------- */
/* Parses a decimal or 0x integer with optional '-' into its sign and magnitude;
 * false when the magnitude does not fit 64 bits. */
static bool parse_magnitude(Str s, bool *neg, uint64_t *mag)
{
    *neg = s.len && s.p[0] == '-';
    uint32_t i = *neg;
    uint64_t v = 0;
    bool hex = s.len >= i + 2 && s.p[i] == '0' && (s.p[i + 1] == 'x' || s.p[i + 1] == 'X');
    if (hex) {
        for (i += 2; i < s.len; i++) {
            char c = s.p[i];
            unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
            if (v >> 60)
                return false;
            v = v << 4 | d;
        }
    } else {
        for (; i < s.len; i++) {
            unsigned d = (unsigned)(s.p[i] - '0');
            if (v > (UINT64_MAX - d) / 10)
                return false;
            v = v * 10 + d;
        }
    }
    *mag = v;
    return true;
}

/* Parses a decimal or 0x integer with optional '-'; false when out of int64 range
 * (hex may use all 64 bits). */
bool pb_parse_int(Str s, int64_t *out)
{
    bool neg;
    uint64_t v;
    if (!parse_magnitude(s, &neg, &v))
        return false;
    bool hex = s.len >= 2u + neg && s.p[neg] == '0' && (s.p[neg + 1] == 'x' || s.p[neg + 1] == 'X');
    if (neg ? v > (uint64_t)INT64_MAX + 1 : !hex && v > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

/* An integer type's width (index: 64), 0 for the others and i0 (no value to check) */
static int int_width(DType d)
{
    unsigned w = dtype_int_width(d);
    return w > 64 ? 64 : (int)w;
}

static int float_bits(DType d)
{
    switch (d) {
    case DT_F16: case DT_BF16: return 16;
    case DT_F32: return 32;
    case DT_F64: return 64;
    case DT_F8E4M3FN: case DT_F8E5M2: case DT_F8E8M0FNU: case DT_F8E4M3: case DT_F8E8M0: case DT_HIF8: return 8;
    default: return dtype_kind(d) == DK_FLOAT ? (int)dtype_bits(d) : 0; /* tf32 19, f80 80, ... */
    }
}

/* ---- attributes ------------------------------------------------------------------ */
AttrValue *pb_new_aval(Parser *p, AttrValueKind k, Span s)
{
    AttrValue *v = arena_zalloc(&p->m->arena, sizeof *v);
    v->kind = k;
    v->span = s;
    return v;
}

AttrValue *pb_attr_number(Parser *p, int tok, Span s, const Type *ty, Span tyspan)
{
    Str t = pb_text(p, s);
    DType d = DT_NONE;
    if (ty) {
        if (ty->kind != TY_SCALAR || (!int_width(ty->dtype) && !float_bits(ty->dtype))) {
            ERR(tyspan, "expected an integer or float type");
            return NULL;
        }
        d = ty->dtype;
    }
    if (tok == T_FLOAT) {
        if (d != DT_NONE && !float_bits(d)) {
            ERR(s, "floating point value not valid for specified type");
            return NULL;
        }
        char buf[64];
        char *tmp = t.len < sizeof buf ? buf : xmalloc(t.len + 1);
        memcpy(tmp, t.p, t.len);
        tmp[t.len] = 0;
        AttrValue *v = pb_new_aval(p, AV_FLOAT, s);
        v->u.f.d = strtod(tmp, NULL);
        if (tmp != buf)
            free(tmp);
        v->type = d;
        return v;
    }
    /* MLIR's rules for an integer literal of width w (untyped: i64), reported at
     * its digits: a signless value fits w bits as unsigned or (negative) as
     * signed, si only as signed, ui only as unsigned */
    bool neg;
    uint64_t mag;
    Span digits = s;
    if (t.len && t.p[0] == '-')
        digits.begin++;
    if (!parse_magnitude(t, &neg, &mag)) {
        ERR(digits, "integer constant out of range for attribute");
        return NULL;
    }
    int64_t x = (int64_t)(neg ? 0 - mag : mag);
    if (d != DT_NONE && float_bits(d)) {
        if (tok != T_HEX) {
            ERR(s, "unexpected decimal integer literal for a floating point value");
            diag_note(p->diag, s, "add a trailing dot to make the literal a float");
            return NULL;
        }
        int w = float_bits(d);
        if (x < 0 || (w < 64 && (uint64_t)x >> w)) {
            ERR(s, "hexadecimal float constant out of range for type");
            return NULL;
        }
        AttrValue *v = pb_new_aval(p, AV_FLOAT, s);
        v->type = d;
        v->u.f.bits = true;
        v->u.f.raw = (uint64_t)x;
        if (d == DT_F32) {
            float f;
            uint32_t b = (uint32_t)x;
            memcpy(&f, &b, 4);
            v->u.f.d = f;
        } else if (d == DT_F64) {
            memcpy(&v->u.f.d, &x, 8);
        }
        return v;
    }
    DTypeKind k = d == DT_NONE ? DK_INT : dtype_kind(d);
    if (neg && k == DK_UINT) {
        ERR(digits, "negative integer literal not valid for unsigned integer type");
        return NULL;
    }
    int w = d == DT_NONE ? 64 : int_width(d);
    uint64_t half = (uint64_t)1 << (w - 1); /* 2^(w-1): the magnitude of the most negative value */
    bool fits = neg ? mag <= half : k == DK_SINT ? mag < half : w == 64 || mag < half * 2;
    if (!fits) {
        ERR(digits, "integer constant out of range for attribute");
        return NULL;
    }
    if (d == DT_I1) { /* MLIR's i1 integer attribute is its bool attribute */
        AttrValue *v = pb_new_aval(p, AV_BOOL, s);
        v->u.b = mag & 1;
        return v;
    }
    AttrValue *v = pb_new_aval(p, AV_INT, s);
    v->type = d;
    v->u.i = x;
    return v;
}

/* A symbol's name: @name, or the contents of @"..." as written. */
Str pb_symbol_name(const Parser *p, Span s)
{
    const char *t = p->src->text + s.begin;
    uint32_t n = s.end > s.begin ? s.end - s.begin : 0;
    if (n >= 3 && t[1] == '"')
        return (Str){t + 2, n - 3};
    return (Str){t + (n ? 1 : 0), n ? n - 1 : 0};
}

AttrValue *pb_attr_simple(Parser *p, AttrValueKind k, Span s)
{
    AttrValue *v = pb_new_aval(p, k, s);
    if (k == AV_BOOL)
        v->u.b = p->src->text[s.begin] == 't';
    else if (k == AV_STRING)
        v->u.s = (Str){p->src->text + s.begin + 1, s.end - s.begin - 2};
    else if (k == AV_SYMBOL)
        v->u.s = pb_symbol_name(p, s);
    return v;
}

AttrValue *pb_attr_array(Parser *p, uint32_t n, Span s)
{
    AttrValue *v = pb_new_aval(p, AV_ARRAY, s);
    v->u.arr.n = n;
    v->u.arr.items = arena_dup(&p->m->arena, p->avals + p->navals - n, n * sizeof *p->avals);
    p->navals -= n;
    for (uint32_t i = 0; i < n; i++)
        if (!v->u.arr.items[i])
            return NULL; /* an element already failed */
    return v;
}

void pb_push_int(Parser *p, Span s)
{
    int64_t x = 0;
    if (!pb_parse_int(pb_text(p, s), &x))
        ERR(s, "integer value out of range");
    PUSH(p->ints, p->nints, p->ints_cap, x);
}

AttrValue *pb_attr_dense(Parser *p, Span elt, uint32_t n, Span s)
{
    Str e = pb_text(p, elt);
    DType d = dtype_lookup(e.p, e.len);
    p->nints -= n;
    if (!int_width(d)) {
        ERR(elt, "expected an integer element type for 'array', but got '%.*s'", (int)e.len, e.p);
        return NULL;
    }
    AttrValue *v = pb_new_aval(p, AV_DENSE, s);
    v->type = d;
    v->u.dense.n = n;
    v->u.dense.items = arena_dup(&p->m->arena, p->ints + p->nints, n * sizeof *p->ints);
    return v;
}

/* The other attribute kinds of the PTO dialect (PTOAS e32488c): accepted in
 * either spelling and kept as written, for ops and passes ptoas does not
 * interpret (the value is not checked). The kinds with a checked value are the
 * attribute kinds of enum_info. */
static const char *const opaque_kinds[] = {
    "acc_push_epilogue", "acc_store_atomic_op", "acc_store_atomic_type", "acc_store_mode",
    "acc_store_sat_mode", "acc_store_ub_dst_mode", "acc_to_vec_mode", "atomic_type", "coalesce",
    "compact_mode", "cube_load_frac_mode", "dcci_cache_line", "dcci_dst", "dsb_mem", "event",
    "fence_scope", "func_core_type", "gather_oob", "l1cache", "ld_l2cache",
    "mad_sat_mode", "mad_unit_flag_mode", "mask_pattern", "membar", "module_core_type",
    "notify_op", "pad_value", "pipe", "pipe_event_type", "print_format",
    "quant_pre_mode", "reduce_op", "relu_pre_mode",
    "rounding", "saturation", "scatter_atomic_op", "scatter_conflict",
    "scatter_oob", "signedness", "st_l2cache", "st_phase", "sync_all_mode",
    "sync_core_type", "sync_op_type", "tinsert_mode", "unit_flag_ctrl", "vector_function", "wait_cmp",
};

/* MLIR's pair of errors for an enum parameter it cannot parse: the first at the
 * value (`at`), the second where the parser stands after it (`after`). A value
 * that is no keyword (or none at all) is "expected valid keyword" there. */
static void enum_param_error(Parser *p, EnumKind k, bool keyword, Span at, Span after)
{
    const EnumInfo *e = &enum_info[k];
    if (keyword) {
        char list[256];
        enum_expected_list(k, list, sizeof list);
        ERR(at, "expected ::mlir::pto::%s to be one of: %s", e->cpp, list);
    } else {
        ERR(at, "expected valid keyword");
    }
    ERR(after, "failed to parse %s parameter '%s' which is to be a `::mlir::pto::%s`", e->def, e->param, e->cpp);
}

/* tload's `pad_mode = <V>` (PadModeAttr's own parser, as #pto.padmode<V>): the
 * second error at the '>' after the value. */
void pb_pad_mode_error(Parser *p, Span value)
{
    uint32_t e = value.end;
    while (e < p->src->len && (p->src->text[e] == ' ' || p->src->text[e] == '\t'))
        e++;
    enum_param_error(p, EK_PAD_MODE, true, value, (Span){e, e + 1});
}

/* The attribute kind of enum_info named k, or EK_COUNT. */
static EnumKind attr_kind(Str k)
{
    for (int i = 0; i < EK_COUNT; i++)
        if (enum_info[i].cpp && name_eq(k.p, k.len, enum_info[i].kind))
            return (EnumKind)i;
    return EK_COUNT;
}

/* The KIND of #pto.KIND<...> (kind empty) or #pto<KIND ...>; false, reported, when
 * the attribute is not the PTO dialect's. */
static bool pto_kind(Parser *p, Span hash, Span *kind)
{
    Str h = pb_text(p, hash);
    if (kind->end == kind->begin && h.len > 5 && memcmp(h.p, "#pto.", 5) == 0) {
        *kind = pb_sub_span(hash, 5, h.len - 5);
        return true;
    }
    if (kind->end != kind->begin && STR_EQ_LIT(h, "#pto"))
        return true;
    ERR(hash, "unknown attribute '%.*s'", (int)h.len, h.p);
    return false;
}

/* Is KIND one of opaque_kinds? Reports it when not. */
static bool opaque_kind(Parser *p, Span kind)
{
    Str k = pb_text(p, kind);
    for (size_t i = 0; i < sizeof opaque_kinds / sizeof opaque_kinds[0]; i++)
        if (name_eq(k.p, k.len, opaque_kinds[i]))
            return true;
    /* the PTO dialect's generated attribute parser, at the mnemonic in either spelling */
    ERR(kind, "unknown attribute `%.*s` in dialect `pto`", (int)k.len, k.p);
    return false;
}

/* Each kind has one spelling in PTOAS (#pto.KIND<v> or #pto<KIND v>); MLIR's
 * parser reports the other one, whatever the value: false, reported. */
static bool spelled_right(Parser *p, EnumKind ek, bool dotted, Span hash, Span kind)
{
    if (dotted && !enum_info[ek].dotted) {
        Span lt = {hash.end, hash.end + 1};
        enum_param_error(p, ek, false, lt, lt);
        return false;
    }
    if (!dotted && enum_info[ek].dotted) {
        ERR(((Span){kind.end, kind.end + 1}), "expected '<'");
        return false;
    }
    return true;
}

/* The enum kind of #pto.KIND<...> or #pto<KIND ...> into *EK (EK_COUNT for the kinds kept
 * as written); false (reported) when the attribute is not PTO's or the kind is spelled the
 * other way. */
static bool enum_kind_of(Parser *p, Span hash, Span *kind, EnumKind *ek)
{
    bool dotted = kind->end == kind->begin;
    if (!pto_kind(p, hash, kind))
        return false;
    *ek = attr_kind(pb_text(p, *kind));
    return *ek == EK_COUNT || spelled_right(p, *ek, dotted, hash, *kind);
}

AttrValue *pb_attr_enum(Parser *p, Span hash, Span kind, Span value, Span s)
{
    Str h = pb_text(p, hash), val = pb_text(p, value);
    Span close = {s.end - 1, s.end}; /* the '>' */
    if (kind.end == kind.begin) {
        if (STR_EQ_LIT(h, "#arith.overflow") || STR_EQ_LIT(h, "#arith.fastmath")) {
            p->nwords = 0;
            pb_push_word(p, value);
            return pb_attr_flags(p, hash, 1, s);
        }
        EnumKind ek = attr_kind(val);
        if (STR_EQ_LIT(h, "#pto") && ek != EK_COUNT) { /* #pto<KIND>: no value at the '>' */
            if (spelled_right(p, ek, false, hash, value))
                enum_param_error(p, ek, false, close, close);
            return NULL;
        }
    }
    EnumKind ek;
    if (!enum_kind_of(p, hash, &kind, &ek))
        return NULL;
    if (ek != EK_COUNT) {
        int x = enum_lookup(ek, val.p, val.len);
        if (x < 0) {
            enum_param_error(p, ek, true, value, close);
            return NULL;
        }
        if (enum_info[ek].kept) {
            AttrValue *v = pb_new_aval(p, AV_OPAQUE, s);
            v->u.s = pb_text(p, s);
            return v;
        }
        AttrValue *v = pb_new_aval(p, AV_ENUM, s);
        v->u.e.kind = ek;
        v->u.e.value = x;
        return v;
    }
    if (!opaque_kind(p, kind))
        return NULL;
    AttrValue *v = pb_new_aval(p, AV_OPAQUE, s);
    v->u.s = pb_text(p, s);
    return v;
}

AttrValue *pb_attr_enum_nokeyword(Parser *p, Span hash, Span kind, Span value)
{
    EnumKind ek;
    if (!enum_kind_of(p, hash, &kind, &ek))
        return NULL;
    if (ek != EK_COUNT) {
        enum_param_error(p, ek, false, value, value);
        return NULL;
    }
    if (opaque_kind(p, kind))
        ERR(value, "expected valid keyword");
    return NULL;
}

AttrValue *pb_attr_type(Parser *p, const Type *t, Span s)
{
    if (!t)
        return NULL;
    AttrValue *v = pb_new_aval(p, AV_TYPE, s);
    v->u.ty = t;
    return v;
}

/* ---- types ------------------------------------------------------------------------ */
const Type *pb_scalar_type(Parser *p, Span s)
{
    Str t = pb_text(p, s);
    DType d = dtype_lookup(t.p, t.len);
    if (d == DT_NONE) {
        const char *why = dtype_lookup_problem(t.p, t.len);
        if (why)
            ERR(s, "%s", why);
        else
            ERR(s, "unknown type '%.*s'", (int)t.len, t.p);
        return NULL;
    }
    return type_scalar(&p->m->types, d);
}

/* Reports the element type at S, which names none ptoas takes: MLIR's message for a bad
 * integer width, "unknown type" for the builtin types ptoas does not take (complex, vector,
 * ...) and the dialects' types, and MLIR's "expected non-function type" for other words. */
void pb_elem_type_error(Parser *p, Span s)
{
    Str t = pb_text(p, s);
    const char *why = dtype_lookup_problem(t.p, t.len);
    static const char *const builtin[] = {"complex", "vector", "tuple", "none", "memref", "tensor"};
    bool known = t.len && t.p[0] == '!';
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        known |= name_eq(t.p, t.len, builtin[i]);
    if (why)
        ERR(s, "%s", why);
    else if (known)
        ERR(s, "unknown type '%.*s'", (int)t.len, t.p);
    else
    {
        StrBuf sb = {0};
        ERR(s, "expected non-function type, but got '%.*s'%s", (int)t.len, t.p, pb_suggest_dtype(t, &sb));
        sb_free(&sb);
    }
}

/* A tile's byte size must fit 64 bits: the divisor for that bound (at least 8, so that
 * the checks need not depend on the element type when it failed to parse). */
static uint64_t size_bound(DType d) { return dtype_size(d) > 8 ? dtype_size(d) : 8; }

/* Splits "32x64xf32" / "?x?xf32" / "32x32x!pto.f4E2M1x2" into dims and the
 * element type; dims get their own spans for messages. */
typedef struct Shaped {
    uint32_t rank;
    int64_t dims[8];
    Span dim_spans[8];
    DType dtype;
    Span dtype_span;
} Shaped;

static bool split_shaped(Parser *p, Span s, Shaped *out, bool allow_dynamic)
{
    Str t = pb_text(p, s);
    uint32_t i = 0;
    out->rank = 0;
    for (;;) {
        uint32_t b = i;
        if (i < t.len && t.p[i] == '?') {
            i++;
        } else {
            while (i < t.len && t.p[i] >= '0' && t.p[i] <= '9')
                i++;
        }
        uint32_t e = i; /* the dimension's end; spaces may stand around the 'x' */
        while (i < t.len && t.p[i] == ' ')
            i++;
        if (e == b || i >= t.len || t.p[i] != 'x') {
            i = b;
            break;
        }
        Span ds = pb_sub_span(s, b, e - b);
        if (out->rank == 8) {
            ERR(ds, "too many dimensions");
            return false;
        }
        int64_t v = DIM_DYNAMIC;
        if (t.p[b] == '?') {
            if (!allow_dynamic) {
                ERR(ds, "dynamic dimension not allowed here");
                return false;
            }
        } else if (!pb_parse_int((Str){t.p + b, e - b}, &v)) {
            ERR(ds, "integer value out of range");
            return false;
        }
        out->dim_spans[out->rank] = ds;
        out->dims[out->rank++] = v;
        i++; /* 'x' */
        while (i < t.len && t.p[i] == ' ')
            i++;
    }
    out->dtype_span = pb_sub_span(s, i, t.len - i);
    out->dtype = dtype_lookup(t.p + i, t.len - i);
    if (out->dtype == DT_NONE) {
        pb_elem_type_error(p, out->dtype_span);
        return false;
    }
    return true;
}

enum {
    K_LOC, K_DTYPE, K_ROWS, K_COLS, K_VROW, K_VCOL, K_BLAYOUT, K_SLAYOUT, K_FRACTAL, K_PAD, K_COMPACT,
    K_VALID, K_COUNT
};
static const char *const tile_keys[K_COUNT] = {"loc", "dtype", "rows", "cols", "v_row", "v_col", "blayout",
                                              "slayout", "fractal", "pad", "compact", "valid"};

static bool tile_int(Parser *p, const TypeItem *it, int64_t *out, int64_t lo, int64_t hi)
{
    if (it->tok != T_INT && it->tok != T_HEX) {
        Str v = pb_text(p, it->val);
        ERR(it->val, "expected an integer, but got '%.*s'", (int)v.len, v.p);
        return false;
    }
    if (!pb_parse_int(pb_text(p, it->val), out) || *out < lo || *out > hi) {
        ERR(it->val, "integer value out of range");
        return false;
    }
    return true;
}

static bool tile_enum(Parser *p, const TypeItem *it, EnumKind k, uint8_t *out)
{
    Str v = pb_text(p, it->val);
    /* PTOAS reads loc, blayout and slayout as a keyword or a string ("col_major") */
    bool quoted = it->tok == T_STRING && (k == EK_LOC || k == EK_BLAYOUT || k == EK_SLAYOUT) && v.len >= 2;
    int x = it->tok == T_IDENT ? enum_lookup(k, v.p, v.len) : quoted ? enum_lookup(k, v.p + 1, v.len - 2) : -1;
    if (x < 0) {
        char list[160];
        enum_expected_list(k, list, sizeof list);
        if (quoted) /* PTOAS names the string's contents */
            v = (Str){v.p + 1, v.len - 2};
        ERR(it->val, "unknown %s: %.*s, expected one of %s", enum_info[k].kind, (int)v.len, v.p, list);
        return false;
    }
    *out = (uint8_t)x;
    return true;
}

/* A valid size: '?', -1 (dynamic) or 0..limit. */
static bool tile_valid_dim(Parser *p, const TypeItem *it, int64_t *out)
{
    if (it->tok == '?') {
        *out = DIM_DYNAMIC;
        return true;
    }
    return tile_int(p, it, out, -1, INT64_MAX);
}

/* "32x48", "?x?" or "0x64" (lexed as hex) as the value of valid=. */
static bool tile_valid_pair(Parser *p, const TypeItem *it, int64_t *r, int64_t *c)
{
    Str v = pb_text(p, it->val);
    if (it->tok == T_DIMS || it->tok == T_HEX) {
        const char *x = memchr(v.p + 1, 'x', v.len - 1);
        if (x && !memchr(x + 1, 'x', (size_t)(v.p + v.len - x - 1))) {
            uint32_t n1 = (uint32_t)(x - v.p);
            Str a = {v.p, n1}, b = {x + 1, v.len - n1 - 1};
            Span sa = pb_sub_span(it->val, 0, n1), sb = pb_sub_span(it->val, n1 + 1, b.len);
            int64_t *outs[2] = {r, c};
            Str parts[2] = {a, b};
            Span spans[2] = {sa, sb};
            for (int i = 0; i < 2; i++) {
                if (STR_EQ_LIT(parts[i], "?")) {
                    *outs[i] = DIM_DYNAMIC;
                    continue;
                }
                bool digits = parts[i].len > 0;
                for (uint32_t j = 0; j < parts[i].len; j++)
                    digits &= parts[i].p[j] >= '0' && parts[i].p[j] <= '9';
                if (!digits) {
                    ERR(it->val, "expected 'ROWSxCOLS' for valid, but got '%.*s'", (int)v.len, v.p);
                    return false;
                }
                if (!pb_parse_int(parts[i], outs[i])) {
                    ERR(spans[i], "integer value out of range");
                    return false;
                }
            }
            return true;
        }
    }
    ERR(it->val, "expected 'ROWSxCOLS' for valid, but got '%.*s'", (int)v.len, v.p);
    return false;
}

static bool tile_dtype(Parser *p, const TypeItem *it, DType *out)
{
    Str v = pb_text(p, it->val);
    DType d = (it->tok == T_IDENT || it->tok == T_BANG) ? dtype_lookup(v.p, v.len) : DT_NONE;
    if (d == DT_NONE) {
        pb_elem_type_error(p, it->val);
        return false;
    }
    *out = d;
    return true;
}

static const Type *build_tile(Parser *p, TypeKind kind, Span name, Span whole)
{
    TileBody b;
    memset(&b, 0, sizeof b);
    b.fractal = 512;
    bool seen[K_COUNT] = {0};
    bool ok = true;
    const TypeItem *items = p->titems;
    size_t n = p->ntitems;
    bool keyword = n && items[0].key.end > items[0].key.begin;
    size_t first = 0;
    Str tn = pb_text(p, name);
    if (!keyword) {
        /* compact: "vec, 32x64xf32, key=value..." */
        bool loc_word = n && (items[0].tok == T_IDENT || items[0].tok == T_STRING);
        if (n < 2 || !loc_word || items[1].tok != T_SHAPED || items[1].key.end > items[1].key.begin) {
            Span at = n >= 2 ? items[1].val : whole;
            if (n >= 1 && !loc_word)
                at = items[0].val;
            ERR(at, "expected 'LOC, ROWSxCOLSxDTYPE' or 'loc=...' in '%.*s'", (int)tn.len, tn.p);
            return NULL;
        }
        ok &= tile_enum(p, &items[0], EK_LOC, &b.loc);
        Shaped sh;
        if (!split_shaped(p, items[1].val, &sh, false))
            return NULL;
        if (sh.rank != 2) {
            ERR(items[1].val, "expected 'ROWSxCOLSxDTYPE' in tile type");
            return NULL;
        }
        b.rows = sh.dims[0];
        b.cols = sh.dims[1];
        b.dtype = sh.dtype;
        b.vrow = b.rows;
        b.vcol = b.cols;
        seen[K_LOC] = seen[K_DTYPE] = seen[K_ROWS] = seen[K_COLS] = true;
        /* the shape's byte size must fit 64 bits */
        if (b.rows && (uint64_t)b.cols > UINT64_MAX / (uint64_t)b.rows / size_bound(b.dtype)) {
            ERR(sh.dim_spans[1], "integer value out of range");
            return NULL;
        }
        first = 2;
    }
    for (size_t i = first; i < n; i++) {
        const TypeItem *it = &items[i];
        Str k = pb_text(p, it->key);
        if (it->key.end == it->key.begin) {
            Str v = pb_text(p, it->val);
            ERR(it->val, "expected 'key=value' in tile type, but got '%.*s'", (int)v.len, v.p);
            ok = false;
            continue;
        }
        int key = -1;
        for (int j = 0; j < K_COUNT && key < 0; j++)
            if (name_eq(k.p, k.len, tile_keys[j]))
                key = j;
        bool allowed = key >= 0 && (keyword ? key != K_VALID
                                            : key == K_VALID || key >= K_BLAYOUT);
        if (!allowed) {
            ERR(it->key, "unknown key '%.*s' in tile type", (int)k.len, k.p);
            ok = false;
            continue;
        }
        if (seen[key]) {
            ERR(it->key, "duplicate key '%.*s' in tile type", (int)k.len, k.p);
            ok = false;
            continue;
        }
        seen[key] = true;
        int64_t x;
        switch (key) {
        case K_LOC: ok &= tile_enum(p, it, EK_LOC, &b.loc); break;
        case K_DTYPE: ok &= tile_dtype(p, it, &b.dtype); break;
        case K_ROWS:
            if ((ok &= tile_int(p, it, &x, INT64_MIN, INT64_MAX)))
                b.rows = x;
            break;
        case K_COLS:
            if ((ok &= tile_int(p, it, &x, INT64_MIN, INT64_MAX)))
                b.cols = x;
            break;
        case K_VROW: ok &= tile_valid_dim(p, it, &b.vrow); break;
        case K_VCOL: ok &= tile_valid_dim(p, it, &b.vcol); break;
        case K_VALID: ok &= tile_valid_pair(p, it, &b.vrow, &b.vcol); break;
        case K_BLAYOUT: ok &= tile_enum(p, it, EK_BLAYOUT, &b.blayout); break;
        case K_SLAYOUT: ok &= tile_enum(p, it, EK_SLAYOUT, &b.slayout); break;
        case K_FRACTAL:
            if (!(ok &= tile_int(p, it, &x, INT64_MIN, INT64_MAX)))
                break;
            if (x != 32 && x != 512 && x != 1024) {
                ERR(it->val, "unsupported s_fractal_size: %lld, must be one of {32, 512, 1024}", (long long)x);
                ok = false;
            }
            b.fractal = (int32_t)x;
            break;
        case K_PAD:
        case K_COMPACT: {
            int64_t hi = key == K_PAD ? 3 : 2;
            if (it->tok != T_INT || !pb_parse_int(pb_text(p, it->val), &x) || x < 0 || x > hi) {
                Str v = pb_text(p, it->val);
                ERR(it->val, "unknown %s: %.*s, expected one of %s", tile_keys[key], (int)v.len, v.p,
                    key == K_PAD ? "0, 1, 2, 3" : "0, 1, 2");
                ok = false;
                break;
            }
            if (key == K_PAD)
                b.pad = (uint8_t)x;
            else
                b.compact = (uint8_t)x;
            break;
        }
        }
    }
    if (keyword) {
        for (int j = 0; j <= K_PAD; j++)
            if (!seen[j]) {
                ERR(whole, "missing key '%s' in tile type", tile_keys[j]);
                ok = false;
            }
        if (ok && b.rows && (uint64_t)(b.cols < 0 ? -b.cols : b.cols) >
                                UINT64_MAX / (uint64_t)(b.rows < 0 ? -b.rows : b.rows) / size_bound(b.dtype)) {
            ERR(whole, "integer value out of range");
            ok = false;
        }
    } else if (!seen[K_VALID]) {
        b.vrow = b.rows;
        b.vcol = b.cols;
    }
    if (!ok)
        return NULL;
    return type_tile(&p->m->types, kind, &b);
}

/* == PIPE == */
/* !pto.multi_tile_buf<LOC, RxCxT, ..., count=N>: the slot's items, then the count (PTOAS's
 * compact spelling; the verbose one nests a type, which the type grammar does not read) */
static const Type *build_multi_tile(Parser *p, Span name, Span whole)
{
    size_t n = p->ntitems;
    const TypeItem *last = n ? &p->titems[n - 1] : NULL;
    if (n == 2 && p->titems[0].tok == T_TYPE_MEMO) { /* the verbose form: a tile_buf type, count */
        const Type *slot = p->nested;
        int64_t c;
        if (!slot)
            return NULL; /* reported */
        if (slot->kind != TY_TILE_BUF) {
            ERR(p->titems[0].val, "multi_tile_buf slot type must be `!pto.tile_buf<...>`");
            return NULL;
        }
        if (!STR_EQ_LIT(pb_text(p, last->key), "count") || last->tok != T_INT ||
            !pb_parse_int(pb_text(p, last->val), &c) || c < 0 || c > UINT32_MAX) {
            ERR(last->val, "expected 'count=N' after the slot type");
            return NULL;
        }
        if (c < 2 || c > 16) {
            ERR(name, "multi_tile_buf count must be %s %d (got %lld)", c < 2 ? ">=" : "<=", c < 2 ? 2 : 16, (long long)c);
            return NULL;
        }
        return type_multi_tile(&p->m->types, &slot->tile, (uint32_t)c);
    }
    if (!last || !STR_EQ_LIT(pb_text(p, last->key), "count")) {
        ERR(whole, "expected ', count=N' at the end of '!pto.multi_tile_buf'");
        return NULL;
    }
    int64_t count;
    if (last->tok != T_INT || !pb_parse_int(pb_text(p, last->val), &count) || count < 0 || count > UINT32_MAX) {
        ERR(last->val, "expected an unsigned integer for 'count'");
        return NULL;
    }
    p->ntitems--;
    const Type *slot = build_tile(p, TY_TILE_BUF, name, whole);
    if (!slot)
        return NULL;
    if (count < 2 || count > 16) { /* PTOAS's MultiTileBufType::verify, at the type */
        ERR(name, "multi_tile_buf count must be %s %d (got %lld)", count < 2 ? ">=" : "<=", count < 2 ? 2 : 16,
            (long long)count);
        return NULL;
    }
    return type_multi_tile(&p->m->types, &slot->tile, (uint32_t)count);
}

AttrValue *pb_attr_elided(Parser *p, Span key, Span open, Span word, Span whole)
{
    Str w = pb_text(p, word);
    if (!STR_EQ_LIT(pb_text(p, key), "location")) {
        ERR(open, "expected attribute value");
        return NULL;
    }
    int x = enum_lookup(EK_ADDRESS_SPACE, w.p, w.len);
    if (x < 0) {
        enum_param_error(p, EK_ADDRESS_SPACE, true, word, (Span){whole.end - 1, whole.end});
        return NULL;
    }
    AttrValue *v = pb_new_aval(p, AV_ENUM, whole);
    v->u.e.kind = EK_ADDRESS_SPACE;
    v->u.e.value = x;
    return v;
}

/* !pto.local_array<D1x...xDkxT>: static positive dimensions, a scalar integer or float
 * element (PTOAS's type verifier and its messages). */
static const Type *build_local_array(Parser *p, Span whole)
{
    Shaped sh;
    if (p->ntitems != 1 || p->titems[0].tok != T_SHAPED || p->titems[0].key.end > p->titems[0].key.begin) {
        ERR(whole, "expected '!pto.local_array<DIMSxDTYPE>'");
        return NULL;
    }
    if (!split_shaped(p, p->titems[0].val, &sh, false))
        return NULL;
    if (sh.rank == 0) {
        ERR(whole, "'!pto.local_array' requires at least one dimension");
        return NULL;
    }
    for (uint32_t i = 0; i < sh.rank; i++)
        if (sh.dims[i] <= 0) {
            ERR(whole, "'!pto.local_array' dimension %u must be a positive static size, got %lld", i,
                (long long)sh.dims[i]);
            return NULL;
        }
    DTypeKind k = dtype_kind(sh.dtype);
    if (k != DK_INT && k != DK_SINT && k != DK_UINT && k != DK_FLOAT) {
        ERR(whole, "'!pto.local_array' element type must be a scalar integer or float, got '%s'", dtype_name(sh.dtype));
        return NULL;
    }
    return type_view(&p->m->types, TY_LOCAL_ARRAY, sh.dtype, sh.rank, sh.dims);
}

const Type *pb_param_type(Parser *p, Span name, Span whole)
{
    return pb_param_type_as(p, pb_text(p, name), name, whole);
}

const Type *pb_param_type_as(Parser *p, Str t, Span name, Span whole)
{
    for (size_t i = 0; i < p->ntitems; i++) /* == PIPE == a nested type that failed: reported */
        if (p->titems[i].tok == T_TYPE_MEMO && !p->nested) {
            p->ntitems = 0;
            return NULL;
        }
    const Type *r = NULL;
    if (STR_EQ_LIT(t, "!pto.tile") || STR_EQ_LIT(t, "!pto.tile_buf")) {
        r = build_tile(p, t.len == 9 ? TY_TILE : TY_TILE_BUF, name, whole);
    } else if (STR_EQ_LIT(t, "!pto.multi_tile_buf")) {
        r = build_multi_tile(p, name, whole);
    } else if (STR_EQ_LIT(t, "!pto.ptr")) {
        const TypeItem *it = p->titems;
        size_t n = p->ntitems;
        DType d = DT_NONE;
        if (n >= 1 && n <= 2 && it[0].key.end == it[0].key.begin &&
            (it[0].tok == T_IDENT || it[0].tok == T_BANG)) {
            Str v = pb_text(p, it[0].val);
            d = dtype_lookup(v.p, v.len);
        }
        PtrSpace space = PS_DEFAULT;
        if (n == 2 && d != DT_NONE) {
            Str v = pb_text(p, it[1].val);
            space = it[1].key.end == it[1].key.begin && it[1].tok == T_IDENT ? ptr_space_lookup(v.p, v.len)
                                                                              : PS_COUNT;
            if (space == PS_COUNT) {
                ERR(it[1].val, "!pto.ptr address space must be one of "
                               "`gm|ub|mat|l1|left|l0a|right|l0b|acc|l0c|vec|bias|bt|scaling|fb`");
                return NULL;
            }
        }
        if (d == DT_NONE && n >= 1 && n <= 2 && it[0].key.end == it[0].key.begin &&
            (it[0].tok == T_IDENT || it[0].tok == T_BANG))
            pb_elem_type_error(p, it[0].val);
        else if (d == DT_NONE)
            ERR(whole, "expected '!pto.ptr<DTYPE>' or '!pto.ptr<DTYPE, SPACE>'");
        else
            r = type_ptr(&p->m->types, d, space);
    } else if (STR_EQ_LIT(t, "!pto.tensor_view") || STR_EQ_LIT(t, "!pto.partition_tensor_view")) {
        Shaped sh;
        if (p->ntitems != 1 || p->titems[0].tok != T_SHAPED || p->titems[0].key.end > p->titems[0].key.begin) {
            ERR(whole, "expected '%.*s<DIMSxDTYPE>'", (int)t.len, t.p);
        } else if (split_shaped(p, p->titems[0].val, &sh, true)) {
            if (sh.rank == 0)
                ERR(p->titems[0].val, "expected at least one dimension");
            else
                r = type_view(&p->m->types, t.len == 16 ? TY_TENSOR_VIEW : TY_PART_VIEW, sh.dtype, sh.rank,
                              sh.dims);
        }
    } else if (STR_EQ_LIT(t, "!pto.local_array")) {
        r = build_local_array(p, whole);
    } else if (STR_EQ_LIT(t, "!pto.eventid_array")) {
        int64_t n;
        if (p->ntitems != 1 || p->titems[0].tok != T_INT || p->titems[0].key.end > p->titems[0].key.begin ||
            !pb_parse_int(pb_text(p, p->titems[0].val), &n))
            ERR(whole, "expected '!pto.eventid_array<N>'");
        else
            r = type_view(&p->m->types, TY_EVENTID_ARRAY, DT_INDEX, 1, &n);
    } else {
        ERR(name, "unknown type '%.*s'", (int)t.len, t.p);
    }
    p->ntitems = 0;
    return r;
}

AttrValue *pb_attr_functype(Parser *p, uint32_t nparams, uint32_t nresults, Span s)
{
    AttrValue *v = pb_new_aval(p, AV_FUNCTYPE, s);
    const Type **tys = arena_dup(&p->m->arena, p->tys + p->ntys - nresults - nparams,
                                 (nparams + nresults) * sizeof *tys);
    p->ntys -= nparams + nresults;
    for (uint32_t i = 0; i < nparams + nresults; i++)
        if (!tys[i])
            return NULL; /* reported */
    v->u.fn.params = tys;
    v->u.fn.nparams = nparams;
    v->u.fn.results = tys + nparams;
    v->u.fn.nresults = nresults;
    return v;
}
