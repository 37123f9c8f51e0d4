/* arith.c - the classes, properties and spellings of the scalar ops (arith.h). */
#include "arith.h"

ArithClass arith_class(OpKind k)
{
    if (k >= OP_COUNT)
        return AC_NONE;
    switch (op_info(k)->cls) {
    case OC_INT_BIN: return AC_INT_BIN;
    case OC_FLOAT_BIN: return AC_FLOAT_BIN;
    case OC_FLOAT_UN: return AC_FLOAT_UN;
    case OC_CMPI: return AC_CMPI;
    case OC_SELECT: return AC_SELECT;
    case OC_CAST: return AC_CAST;
    default: return AC_NONE;
    }
}

unsigned arith_props(OpKind k)
{
    switch (k) {
    case OP_ADDI: case OP_SUBI: case OP_MULI: case OP_SHLI:
        return AP_OVERFLOW;
    case OP_CMPI:
        return AP_PREDICATE;
    default:
        return arith_class(k) == AC_FLOAT_BIN || arith_class(k) == AC_FLOAT_UN ? AP_FASTMATH : 0;
    }
}

const char *const cmpi_names[CMPI_COUNT] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};

int cmpi_lookup(const char *s, size_t n)
{
    for (int i = 0; i < CMPI_COUNT; i++)
        if (name_eq(s, n, cmpi_names[i]))
            return i;
    return -1;
}

static const char *const overflow_words[] = {"nsw", "nuw"};
static const char *const fastmath_words[] = {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"};

int arith_flag_lookup(int family, const char *s, size_t n)
{
    if (name_eq(s, n, "none"))
        return -1;
    if (family == 1 && name_eq(s, n, "fast"))
        return FM_FAST;
    const char *const *w = family ? fastmath_words : overflow_words;
    int count = family ? 7 : 2;
    for (int i = 0; i < count; i++)
        if (name_eq(s, n, w[i]))
            return 1 << i;
    return 0;
}

const char *arith_flag_list(int family)
{
    return family ? "none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast" : "none, nsw, nuw";
}

void arith_flags_print(StrBuf *b, int family, unsigned bits)
{
    if (bits == 0) {
        sb_puts(b, "none");
        return;
    }
    if (family == 1 && bits == FM_FAST) {
        sb_puts(b, "fast");
        return;
    }
    const char *const *w = family ? fastmath_words : overflow_words;
    int count = family ? 7 : 2;
    bool first = true;
    for (int i = 0; i < count; i++)
        if (bits >> i & 1) {
            if (!first)
                sb_puts(b, family ? "," : ", ");
            sb_puts(b, w[i]);
            first = false;
        }
}

int arith_int_width(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return 0;
    if (t->dtype == DT_INDEX)
        return 64;
    /* a signless integer of any width up to 64 (wider ones and i0 are not taken) */
    unsigned w = dtype_kind(t->dtype) == DK_INT ? dtype_bits(t->dtype) : 0;
    return w <= 64 ? (int)w : 0;
}

int arith_float_width(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return 0;
    /* MLIR's FloatType: the builtin floats (tf32 19 bits, f80, f128, the fp8s, ...) */
    return dtype_kind(t->dtype) == DK_FLOAT ? (int)dtype_bits(t->dtype) : 0;
}
