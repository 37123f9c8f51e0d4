/* arith.h - what the scalar ops of the arith dialect (and func.call, the
 * scalar loads and stores) are: their class, the properties they carry,
 * their predicate and flag names. The parser, verifier, printer and codegen
 * all ask here; docs/scalars.md gives the semantics. */
#ifndef PTOAS_ARITH_H
#define PTOAS_ARITH_H
#include "ir.h"

/* The op classes (ops.def) of arith's scalar ops, as one enum for switches. */
typedef enum {
    AC_NONE,      /* not a scalar arith op */
    AC_INT_BIN,   /* addi ... shrui: (T, T) -> T, T signless integer or index */
    AC_FLOAT_BIN, /* addf ... minimumf: (F, F) -> F */
    AC_FLOAT_UN,  /* negf: (F) -> F */
    AC_CMPI,      /* (T, T) -> i1, with a predicate */
    AC_SELECT,    /* (i1, T, T) -> T */
    AC_CAST,      /* index_cast, index_castui, extsi, extui, trunci: (T1) -> T2 */
} ArithClass;

/* Properties an op may carry (MLIR's inherent attributes). */
enum { AP_OVERFLOW = 1, AP_FASTMATH = 2, AP_PREDICATE = 4 };

ArithClass arith_class(OpKind k);
unsigned arith_props(OpKind k);

/* The attribute names of the properties as MLIR spells them. */
#define ARITH_OVERFLOW_KEY "overflowFlags"
#define ARITH_FASTMATH_KEY "fastmath"
#define ARITH_PREDICATE_KEY "predicate"

/* cmpi predicates in MLIR's numbering (eq = 0 ... uge = 9). */
enum { CMPI_EQ, CMPI_NE, CMPI_SLT, CMPI_SLE, CMPI_SGT, CMPI_SGE, CMPI_ULT, CMPI_ULE, CMPI_UGT, CMPI_UGE, CMPI_COUNT };
extern const char *const cmpi_names[CMPI_COUNT];
int cmpi_lookup(const char *s, size_t n); /* -1 if unknown */

/* Flag words: overflow (nsw = 1, nuw = 2) and fastmath (reassoc = 1 ... afn = 64,
 * fast = all of them). MLIR's order, which is also the printing order. */
enum { OVF_NSW = 1, OVF_NUW = 2 };
enum { FM_REASSOC = 1, FM_NNAN = 2, FM_NINF = 4, FM_NSZ = 8, FM_ARCP = 16, FM_CONTRACT = 32, FM_AFN = 64,
       FM_FAST = 127 };
/* Bit of a flag word in the family (AV_FLAGS u.e.kind: 0 overflow, 1 fastmath); 0 if
 * unknown, -1 for "none". */
int arith_flag_lookup(int family, const char *s, size_t n);
/* "none, nsw, nuw" / "none, reassoc, ..., fast" for messages */
const char *arith_flag_list(int family);
/* Appends the flag words of bits (family's spelling: "nsw, nuw"; "nnan,ninf"; "fast"). */
void arith_flags_print(StrBuf *b, int family, unsigned bits);

/* Signless integer width of a scalar type (index is 64), 0 if it is none. */
int arith_int_width(const Type *t);
/* Float width of a scalar type (f16, bf16, f32, f64, the 8-bit floats), 0 if none. */
int arith_float_width(const Type *t);

#endif
