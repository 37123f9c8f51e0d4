/* ir.h - all IR types: interned types, attributes, values, ops, functions,
 * modules. Small structs in arrays with integer handles; everything a module
 * owns lives in its arena (or in vectors freed with it) and goes at once. */
#ifndef PTOAS_IR_H
#define PTOAS_IR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "arena.h"
#include "diag.h"
#include "frontend.h"
#include "str.h"
#include "strset.h"

/* A slice of the source text (names are never copied). */
typedef struct Str {
    const char *p;
    uint32_t len;
} Str;

static inline bool str_eq(Str a, const char *b, size_t blen)
{
    return a.len == blen && (blen == 0 || memcmp(a.p, b, blen) == 0);
}
#define STR_EQ_LIT(s, lit) str_eq((s), (lit), sizeof(lit) - 1)

/* s[0, n) equals the NUL-terminated name (no strlen: the table lookups are hot). */
static inline bool name_eq(const char *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (name[i] == 0 || name[i] != s[i])
            return false;
    return name[n] == 0;
}

/* ---- element types --------------------------------------------------------- */
/* PTOAS parses an element type as any MLIR type; ptoas takes the scalar ones: the builtin
 * integers (any width, signless, si or ui), the builtin floats, index, and PTOAS's own
 * !pto.* element types. BITS is PTOAS's storage width (getPTOStorageElemBitWidth): the
 * builtin type's width, 8 for every low-precision type (a packed fp4 pair counts as its
 * byte), 16 for hif8x2, 32 for bf16x2, 0 for index. The storage byte size is BITS / 8,
 * so i1, index and the sub-byte floats have none (docs/language.md 3.1).
 * RT is the runtime's ptort_dtype (ptort.h) a tile of it is, NULL when the runtime has
 * none (f8E8M0 and f8E8M0FNU are the same bytes). VEC is its element class in the vector
 * ops' dtype lists (integers by width, floats by kind; 0: none). LP: PTOAS's low-precision
 * types (isPTOLowPrecisionType: fp8, hif8, !pto.f8E8M0, packed fp4, hif8x2, bf16x2; not the
 * builtin f8E8M0FNU).
 *  id, spelling                    bits kind      rt                 vec      lp */
#define DTYPE_LIST(X) \
    X(I1, "i1",                        1,   DK_INT,   NULL,              0,       0) \
    X(I8, "i8",                        8,   DK_INT,   "PTORT_I8",        EL_I8,   0) \
    X(I16, "i16",                      16,  DK_INT,   "PTORT_I16",       EL_I16,  0) \
    X(I32, "i32",                      32,  DK_INT,   "PTORT_I32",       EL_I32,  0) \
    X(I64, "i64",                      64,  DK_INT,   "PTORT_I64",       0,       0) \
    X(UI8, "ui8",                      8,   DK_UINT,  "PTORT_U8",        EL_I8,   0) \
    X(UI16, "ui16",                    16,  DK_UINT,  "PTORT_U16",       EL_I16,  0) \
    X(UI32, "ui32",                    32,  DK_UINT,  "PTORT_U32",       EL_I32,  0) \
    X(UI64, "ui64",                    64,  DK_UINT,  "PTORT_U64",       0,       0) \
    X(SI8, "si8",                      8,   DK_SINT,  "PTORT_I8",        EL_I8,   0) \
    X(SI16, "si16",                    16,  DK_SINT,  "PTORT_I16",       EL_I16,  0) \
    X(SI32, "si32",                    32,  DK_SINT,  "PTORT_I32",       EL_I32,  0) \
    X(SI64, "si64",                    64,  DK_SINT,  "PTORT_I64",       0,       0) \
    X(F16, "f16",                      16,  DK_FLOAT, "PTORT_F16",       EL_F16,  0) \
    X(BF16, "bf16",                    16,  DK_FLOAT, "PTORT_BF16",      EL_BF16, 0) \
    X(F32, "f32",                      32,  DK_FLOAT, "PTORT_F32",       EL_F32,  0) \
    X(F64, "f64",                      64,  DK_FLOAT, NULL,              0,       0) \
    X(F8E4M3FN, "f8E4M3FN",            8,   DK_FLOAT, "PTORT_F8E4M3FN",  0,       1) \
    X(F8E5M2, "f8E5M2",                8,   DK_FLOAT, "PTORT_F8E5M2",    0,       1) \
    X(F8E8M0FNU, "f8E8M0FNU",          8,   DK_FLOAT, "PTORT_F8E8M0FNU", 0,       0) \
    X(F4E2M1X2, "!pto.f4E2M1x2",       8,   DK_PTO,   "PTORT_F4E2M1X2",  0,       1) \
    X(F8E4M3, "f8E4M3",                8,   DK_FLOAT, NULL,              0,       1) \
    X(F8E8M0, "!pto.f8E8M0",           8,   DK_PTO,   "PTORT_F8E8M0FNU", 0,       1) \
    X(HIF8, "!pto.hif8",               8,   DK_PTO,   NULL,              0,       1) \
    X(HIF8X2, "!pto.hif8x2",           16,  DK_PTO,   NULL,              0,       1) \
    X(F4E1M2X2, "!pto.f4E1M2x2",       8,   DK_PTO,   NULL,              0,       1) \
    X(BF16X2, "!pto.bf16x2",           32,  DK_PTO,   NULL,              0,       1) \
    X(INDEX, "index",                  0,   DK_INDEX, NULL,              0,       0) \
    X(TF32, "tf32",                    19,  DK_FLOAT, NULL,              0,       0) \
    X(F80, "f80",                      80,  DK_FLOAT, NULL,              0,       0) \
    X(F128, "f128",                    128, DK_FLOAT, NULL,              0,       0) \
    X(F8E5M2FNUZ, "f8E5M2FNUZ",        8,   DK_FLOAT, NULL,              0,       1) \
    X(F8E4M3FNUZ, "f8E4M3FNUZ",        8,   DK_FLOAT, NULL,              0,       1) \
    X(F8E4M3B11FNUZ, "f8E4M3B11FNUZ",  8,   DK_FLOAT, NULL,              0,       1) \
    X(F8E3M4, "f8E3M4",                8,   DK_FLOAT, NULL,              0,       0) \
    X(F6E2M3FN, "f6E2M3FN",            6,   DK_FLOAT, NULL,              0,       0) \
    X(F6E3M2FN, "f6E3M2FN",            6,   DK_FLOAT, NULL,              0,       0) \
    X(F4E2M1FN, "f4E2M1FN",            4,   DK_FLOAT, NULL,              0,       0)

/* The vector ops' element classes (the VEC column): PTOAS tests integers by width (i8,
 * si8 and ui8 are all EL_I8) and floats by kind. */
enum { EL_I8 = 1, EL_I16 = 2, EL_I32 = 4, EL_F16 = 8, EL_BF16 = 16, EL_F32 = 32 };
#define EL_I_F (EL_I16 | EL_I32 | EL_F16 | EL_F32)

/* DK_INT is signless; DK_PTO the !pto.* types (not MLIR FloatTypes) */
typedef enum { DK_NONE, DK_INT, DK_SINT, DK_UINT, DK_FLOAT, DK_PTO, DK_INDEX } DTypeKind;

/* The named types, then (from DT_COUNT on) the other integer widths, numbered as a run
 * first meets them (dtype_lookup). */
typedef enum DType {
    DT_NONE,
#define X(id, s, b, k, rt, vec, lp) DT_##id,
    DTYPE_LIST(X)
#undef X
    DT_COUNT
} DType;

#define DTYPE_INT_MAX_WIDTH 16777215u /* MLIR's IntegerType::kMaxWidth */

const char *dtype_name(DType d);
unsigned dtype_size(DType d);    /* PTOAS's storage byte size: bits / 8 (0: none) */
unsigned dtype_bits(DType d);    /* PTOAS's storage bit width (index 0) */
DTypeKind dtype_kind(DType d);
bool dtype_is_float(DType d);    /* a builtin float or a !pto.* element type */
unsigned dtype_int_width(DType d); /* integer width (any signedness; index 64), 0 if not an integer */
bool dtype_is_int(DType d);      /* an MLIR IntegerType: any width and signedness, not index */
bool dtype_is_f8e4m3_like(DType d); /* PTOAS's isPTOFloat8E4M3LikeType: f8E4M3, f8E4M3FN, ...FNUZ, ...B11FNUZ */
bool dtype_is_fp8(DType d);      /* PTOAS's isPTOFloat8Type: the E4M3-like ones, f8E5M2, f8E5M2FNUZ */
DType dtype_lookup(const char *s, size_t n); /* DT_NONE if unknown */
const char *dtype_rt_name(DType d); /* the RT column: "PTORT_F16", NULL if none */
unsigned dtype_elem_bit(DType d);   /* the VEC column: EL_* or 0 */
bool dtype_is_low_precision(DType d); /* the LP column */
/* Why S, an integer type's spelling, names no type ("invalid integer width", ...), or NULL. */
const char *dtype_lookup_problem(const char *s, size_t n);

/* ---- enums of tile types and attributes ------------------------------------- */
typedef enum { LOC_VEC, LOC_MAT, LOC_LEFT, LOC_RIGHT, LOC_ACC, LOC_BIAS, LOC_SCALING, LOC_COUNT } Loc;
typedef enum { BL_ROW_MAJOR, BL_COL_MAJOR } BLayout;
typedef enum { SL_NONE_BOX, SL_ROW_MAJOR, SL_COL_MAJOR } SLayout;

/* Enum kinds: the tile-type keys and the #pto<...> attributes. One table of
 * names per kind gives parsing, printing and the "expected one of" lists; for
 * an attribute kind the names are PTOAS's, in its declaration order (the order
 * of MLIR's "to be one of" list). */
typedef enum {
    EK_LOC, EK_BLAYOUT, EK_SLAYOUT,
    EK_QUANT_TYPE, EK_QUANT_SCALE_ALG, EK_MX_GROUP_AXIS, EK_VEC_STORE_MODE, EK_ACC_PHASE,
    EK_KERNEL_KIND, EK_ADDRESS_SPACE, EK_LAYOUT, EK_ROUND_MODE, EK_SAT_MODE, EK_PAD_MODE,
    /* the vector ops' precisionType kinds: checked, then kept as written */
    EK_DIV_PRECISION, EK_EXP_PRECISION, EK_LOG_PRECISION, EK_RECIP_PRECISION, EK_REM_PRECISION,
    EK_RSQRT_PRECISION, EK_SQRT_PRECISION, EK_FMOD_PRECISION, EK_POW_PRECISION,
    EK_CMP_MODE,    /* #pto<cmp eq|ne|lt|le|gt|ge>: tcmp, tcmps, tgather's compare form */
    EK_COUNT
} EnumKind;

typedef enum { QT_INT8_SYM, QT_INT8_ASYM, QT_MXFP8, QT_MXFP4_E2M1 } QuantType;
typedef enum { QSA_OCP, QSA_NV } QuantScaleAlg;
typedef enum { GA_AXIS0, GA_AXIS1 } GroupAxis;
typedef enum { SM_ND, SM_NZ } StoreMode;
/* tcvt's rmode (PTOAS's RoundMode, in its order) and sat_mode */
typedef enum { RM_NONE, RM_RINT, RM_ROUND, RM_FLOOR, RM_CEIL, RM_TRUNC, RM_ODD, RM_CAST_RINT } RoundMode;
typedef enum { SAT_ON, SAT_OFF } SatMode;
/* tload's pad_mode (PTOAS's PadMode, #pto.padmode<...>) */
typedef enum { PM_NULL, PM_FIRST_ELEM, PM_VALUE } PadMode;

/* An attribute kind's PTOAS names, for MLIR's messages about a bad value:
 * "expected ::mlir::pto::CPP to be one of: ..." and "failed to parse DEF
 * parameter 'PARAM' which is to be a `::mlir::pto::CPP`". NULL cpp: a tile-type
 * key, whose messages are the tile_buf parser's own. */
typedef struct EnumInfo {
    const char *kind;            /* "loc", "quant_type", "kernel_kind", ... */
    bool dotted;                 /* spelled #pto.KIND<v> rather than #pto<KIND v> */
    bool kept;                   /* checked, then kept as written (AV_OPAQUE) */
    const char *const *names;
    int count;
    const char *cpp;             /* the C++ enum in ::mlir::pto: "QuantType" */
    const char *def;             /* the TableGen attribute: "PTO_QuantTypeAttr" */
    const char *param;           /* its enum parameter: "value" */
} EnumInfo;
extern const EnumInfo enum_info[EK_COUNT];
int enum_lookup(EnumKind k, const char *s, size_t n); /* -1 if unknown */
/* "vec, mat, left, ..." for messages */
void enum_expected_list(EnumKind k, char *buf, size_t size);

/* ---- types (interned: equal types are the same pointer) ---------------------- */
/* TY_MULTI_TILE: !pto.multi_tile_buf<slot, count=N>; its tile body is the slot's, its rank the count */
/* TY_LOCAL_ARRAY: !pto.local_array<D1x...xT>, a stack-local array of scalars (rank, dims, dtype);
 * TY_EVENTID_ARRAY: !pto.eventid_array<N>, one of N index values (rank 1, dtype index) */
typedef enum { TY_SCALAR, TY_TILE, TY_TILE_BUF, TY_PTR, TY_TENSOR_VIEW, TY_PART_VIEW, TY_MULTI_TILE, TY_LOCAL_ARRAY,
               TY_EVENTID_ARRAY } TypeKind;

#define DIM_DYNAMIC (-1)

/* A pointer's address space (PTOAS's keywords; the first of each pair is printed):
 * global memory, unwritten (GM) or written `gm`, or a local memory. */
typedef enum { PS_DEFAULT, PS_GM, PS_L1, PS_L0A, PS_L0B, PS_L0C, PS_UB, PS_BT, PS_FB, PS_COUNT } PtrSpace;
/* The space a keyword names (gm, l1/mat, l0a/left, l0b/right, l0c/acc, ub/vec, bt/bias,
 * fb/scaling), or PS_COUNT. */
PtrSpace ptr_space_lookup(const char *s, size_t n);

typedef struct TileBody {
    int64_t rows, cols, vrow, vcol; /* vrow/vcol DIM_DYNAMIC when '?' */
    int32_t fractal;
    DType dtype;
    uint8_t loc, blayout, slayout, pad, compact;
} TileBody;

typedef struct Type {
    TypeKind kind;
    DType dtype;          /* scalar, pointer element, view element */
    uint8_t ptr_space;    /* !pto.ptr<T, SPACE>: PtrSpace */
    uint32_t rank;        /* views */
    const int64_t *dims;  /* views: DIM_DYNAMIC for '?' */
    TileBody tile;        /* tile kinds; TY_MULTI_TILE: its slot's */
    uint32_t count;       /* TY_MULTI_TILE: the number of slots */
    uint32_t hash;
    struct Type *next;    /* intern-table chain */
    const char *spelling; /* canonical spelling, made once when interned */
    uint32_t spelling_len;
} Type;

typedef struct TypeTable {
    Type **buckets;
    size_t nbuckets, count;
    Arena *arena;
} TypeTable;

void types_init(TypeTable *t, Arena *a);
void types_free(TypeTable *t);
const Type *type_scalar(TypeTable *t, DType d);
const Type *type_tile(TypeTable *t, TypeKind kind, const TileBody *b);
const Type *type_ptr(TypeTable *t, DType d, PtrSpace space);
const Type *type_view(TypeTable *t, TypeKind kind, DType d, uint32_t rank, const int64_t *dims);
/* !pto.multi_tile_buf<slot, count=N> of a tile_buf body */
const Type *type_multi_tile(TypeTable *t, const TileBody *slot, uint32_t count);
static inline bool type_is_tile(const Type *t) { return t && (t->kind == TY_TILE || t->kind == TY_TILE_BUF); }

/* Canonical spelling (docs/language.md 3.2), appended to b. */
void type_print(StrBuf *b, const Type *t);
/* Same into a caller buffer, for messages (truncated with "..."). */
const char *type_str(const Type *t, char *buf, size_t size);

/* ---- attributes ------------------------------------------------------------ */
typedef enum {
    AV_UNIT, AV_BOOL, AV_INT, AV_FLOAT, AV_STRING, AV_ARRAY, AV_DENSE, AV_ENUM, AV_TYPE, AV_FUNCTYPE,
    AV_OPAQUE,               /* a PTOAS attribute ptoas does not interpret: kept as written (u.s) */
    AV_FLAGS,                /* #arith.overflow<...> (u.e.kind 0) or #arith.fastmath<...> (1): u.e.value bits */
    AV_SYMBOL                /* @name (func.call's callee): u.s without the '@' */
} AttrValueKind;

typedef struct AttrValue AttrValue;
struct AttrValue {
    AttrValueKind kind;
    Span span;
    DType type;              /* AV_INT / AV_FLOAT / AV_DENSE element type; DT_NONE if not written */
    union {
        bool b;
        int64_t i;
        struct { double d; bool bits; uint64_t raw; } f; /* bits: written as 0x... bit pattern */
        Str s;                                            /* AV_STRING: raw text between quotes; AV_OPAQUE: the text */
        struct { AttrValue **items; uint32_t n; } arr;    /* AV_ARRAY */
        struct { int64_t *items; uint32_t n; } dense;     /* AV_DENSE array<T: ...> */
        struct { EnumKind kind; int value; } e;           /* AV_ENUM */
        const Type *ty;                                   /* AV_TYPE */
        struct {
            const Type **params, **results;
            uint32_t nparams, nresults;
        } fn;                                             /* AV_FUNCTYPE (T1, T2) -> R */
    } u;
};

typedef struct Attr {
    Str key;                 /* without quotes */
    bool quoted;             /* key written as a string */
    Span span;
    AttrValue *val;          /* kind AV_UNIT for a key without value */
} Attr;

/* ---- the op table ----------------------------------------------------------- */
typedef enum {
#define OP(id, ...) OP_##id,
#include "ops.def"
#undef OP
    OP_COUNT
} OpKind;

typedef enum {
    SYN_COMPUTE, SYN_ALLOC, SYN_TASSIGN, SYN_VIEW, SYN_TILEVIEW, SYN_CONSTANT, SYN_RETURN, SYN_FOR, SYN_IF,
    SYN_WHILE, SYN_CONDITION, SYN_EXECUTE_REGION,
    /* == PIPE: build_pipe.c == */
    SYN_FIFO,      /* `(operands)? {attrs} (kw operands)? -> T`: FIFO and pipe-init ops */
    SYN_SYNC,      /* `[items]`, `<X>, 0` or nothing, {attrs}?, -> T?: flags, barriers, block ids */
    SYN_SECTION,   /* `{ region }`: section.cube / section.vector */
    SYN_MTGET,     /* `%mb[%k] : M -> T`: multi_tile_get */
    SYN_SYNCALL,   /* `(uses : types) mode = #.., core_type = #..` */
    SYN_CAST,       /* == SCALAR: `%r = pto.X %a[, %b] {attrs} : T -> R` (pointers, queries) */
    SYN_DEBUG,      /* == SCALAR: pto.trap, pto.tprint ins(...), pto.print ins("fmt", %v : T) */
    SYN_LOCAL,      /* == SCALAR: `-> T`, `%a[%i, ...] : T -> R`, `%a[%i, ...], %v : T, R` (local arrays) */
    SYN_CMO,        /* == SCALAR: `all SPACE {attrs}` or `%addr single_cache_line : T {attrs}` */
    SYN_COMM,       /* == SCALAR: `(%a, %b : T1, T2) {attrs} (-> R)?` (the comm signal ops) */
    SYN_ARITH, SYN_CALL, SYN_LOAD_SCALAR, SYN_STORE_SCALAR /* the scalar ops last: printer.c tests >= SYN_ARITH */
} OpSyntax;

/* What an op does: the verifier and the C emitter have one function per class. */
typedef enum {
    OC_QUANT,       /* tquant INT8: src scaled (and offset) into i8/ui8 */
    OC_MX_QUANT,    /* tquant.mx: MX groups with shared exponents */
    OC_DEQUANT,     /* tdequant */
    OC_GEMV,        /* tgemv.bias */
    OC_MOVE,        /* tmov: a tile into another space or layout */
    OC_LOAD,        /* tload: global view -> tile */
    OC_STORE,       /* tstore: tile -> global view */
    OC_ALLOC,       /* alloc_tile */
    OC_TASSIGN,     /* tassign: binds a tile to an address */
    OC_VIEW,        /* tensor views of global memory */
    OC_TILE_VIEW,   /* treshape, subview, set_validshape: views of a tile's bytes */
    OC_CONSTANT,    /* arith.constant */
    OC_RETURN,      /* func.return */
    OC_FOR,         /* scf.for: a loop over its region */
    OC_IF,          /* scf.if: one of its two regions */
    OC_YIELD,       /* scf.yield: ends a region of scf.for / scf.if / scf.while / scf.execute_region */
    OC_WHILE,       /* scf.while: its 'before' region, then while the condition holds its 'after' one */
    OC_CONDITION,   /* scf.condition: ends scf.while's 'before' region */
    OC_EXECUTE_REGION, /* scf.execute_region: its region once */
    /* the vector ops (docs/vector-ops.md): vec tiles, one runtime entry point per class */
    OC_BINARY,      /* tadd tsub ...: dst = src0 op src1 */
    OC_UNARY,       /* tabs tneg ...: dst = op(src) */
    OC_TILE_SCALAR, /* tadds tsubs ...: dst = src op scalar */
    OC_EXPANDS,     /* texpands: dst = scalar */
    OC_ROW_REDUCE,  /* trowsum trowmax trowmin: dst[r][0] = reduce(src[r][*]) */
    OC_COL_REDUCE,  /* tcolsum tcolmax tcolmin: dst[0][c] = reduce(src[*][c]) */
    OC_ROW_EXPAND,  /* trowexpand[add|sub|mul|div|max|min]: per-row scalars broadcast */
    OC_COL_EXPAND,  /* tcolexpand[add|sub|mul|div|max|min]: per-column scalars broadcast */
    OC_CONVERT,     /* tcvt: element type conversion with a rounding mode */
    OC_CI,          /* tci: dst[0][j] = S + j (or S - j) */
    OC_INT_BIN,     /* arith.addi ... shrui: (T, T) -> T on signless integers and index */
    OC_FLOAT_BIN,   /* arith.addf ... minimumf: (F, F) -> F */
    OC_FLOAT_UN,    /* arith.negf */
    OC_CMPI,        /* arith.cmpi: (T, T) -> i1 by a predicate */
    OC_SELECT,      /* arith.select: (i1, T, T) -> T */
    OC_CAST,        /* arith.index_cast, index_castui, extsi, extui, trunci */
    OC_CALL,        /* func.call */
    OC_LOAD_SCALAR, /* pto.load_scalar: one element behind a pointer */
    OC_STORE_SCALAR,/* pto.store_scalar */
    /* == CUBE == */
    OC_MATMUL,      /* tmatmul*, tgemv, tgemv.acc, tgemv.mx*: dst = lhs x rhs (+ acc_in, bias, MX scales) */

    /* == MOVES == */
    OC_EXTRACT,     /* textract: a window of src at (indexRow, indexCol) into dst */
    OC_INSERT,      /* tinsert: src into dst's window at (indexRow, indexCol) */
    OC_TRANS,       /* ttrans: dst[i][j] = src[j][i] */
    OC_SCALE_ADDR,  /* tget_scale_addr: dst is the scaling view of a left/right tile */

    /* == PIPE == */
    OC_FIFO,        /* reserve_buffer ... tfree_from_aiv: pipes and FIFOs (verify_pipe.c) */
    OC_SYNC,        /* set_flag ... fence: intra- and cross-core ordering; no data */
    OC_BLOCK_ID,    /* get_block_idx, get_block_num, get_subblock_idx, get_subblock_num */
    OC_SECTION,     /* section.cube / section.vector: a region for one core kind */
    OC_MULTI_TILE,  /* alloc_multi_tile / multi_tile_get */


    /* == ELEM == */
    OC_CMP,         /* tcmp tcmps: a packed bit mask of src0 CMP src1 (or a scalar) */
    OC_SEL,         /* tsel tsels: dst = mask bit ? src0 : src1 (or a scalar) */
    OC_TERNARY,     /* taddc tsubc taddsc tsubsc: dst = (src0 +/- src1 or a scalar) + src2 */
    OC_AXPY,        /* taxpy: dst = scalar * src + dst (dst read, then written) */

    /* == REARR == */
    OC_GATHER,      /* tgather (index form): dst[i][j] = src's element indices[i][j] */
    OC_GATHER_CMP,  /* tgather (compare form): indices of elements that compare true (verified only) */
    OC_GATHER_MASK, /* tgather (mask-pattern form): every 1st/2nd/4th element of rows or columns */
    OC_GATHERB,     /* tgatherb: 32-byte blocks of src at byte offsets */
    OC_FILLPAD,     /* tfillpad: dst = src, with the pad value outside src's valid region */
    OC_ROW_ARG,     /* trowargmax trowargmin: dst[r][0] = the column index of row r's max / min */
    OC_COL_ARG,     /* tcolargmax tcolargmin: dst[0][c] = the row index of column c's max / min */
    OC_SORT32,      /* tsort32: each 32-element block sorted descending, as (value, index) pairs */
    OC_HISTOGRAM,   /* thistogram: a cumulative 256-bin histogram of one byte per row (A5) */
    OC_CONCAT,      /* tconcat: dst's rows = src0's valid columns, then src1's */
    OC_MGATHER,     /* mgather: a vec (or mat) tile gathered from a global table by index */
    OC_MSCATTER,    /* mscatter: a vec tile scattered into a global table by index */
    OC_SCATTER,     /* tscatter: index form dst[indexes[i][j]] = src[i][j], or a mask pattern's */
    OC_PREFETCH,    /* tprefetch: a partition view's elements into a tile (as pto-isa's simulator) */

    /* == SCALAR == */
    OC_GETVAL,      /* tgetval: one element of a vec tile -> a scalar */
    OC_SETVAL,      /* tsetval: a scalar -> one element of a tile */
    OC_PTR,         /* addptr, ptrtoint, inttoptr, castptr, tile_buf_addr: pointers */
    OC_QUERY,       /* get_tensor_view_dim/stride, tile_valid_rows/cols: an index from a view or tile */
    OC_LOCAL,       /* declare_local_array, local_array_get/set, the eventid_array triad: stack-local arrays */
    OC_CMO,         /* cmo.cacheinvalid: cache maintenance (no cache in ptoas run) */
    OC_COMM_SIGNAL, /* comm.tnotify, comm.twait, comm.ttest: i32 signals in global memory */
    OC_DEBUG,       /* tprint, print, trap */

    /* == MLIR27 == */
    OC_UNREGISTERED, /* an op of a dialect ptoas does not know (--allow-unregistered-dialect) */
    OC_FFTS,        /* set_ffts: the FFTS flags pointer of a cross-core kernel */

    OC_COUNT
} OpClass;

/* Op flags: what an op's execution touches (liveness, codegen's results). */
enum {
    OF_READS = 1,       /* reads its ins tiles' data */
    OF_WRITES = 2,      /* writes its outs tiles */
    OF_LOADS = 4,       /* reads global memory through a view operand */
    OF_STORES = 8,      /* writes global memory through a view operand (no tile result) */
    OF_SCRATCH = 16,    /* bufferize creates its missing scratch tiles (SCR roles) */
    OF_VIEW = 32,       /* makes no storage: names bytes of global memory or of a tile */
    OF_DST_SECOND = 64, /* PTOAS's generic form orders its operands src (and the other
                           required ins: op_dst_at), dst, then the
                           optional ins (tmov, tstore, trsqrt) */
    OF_ATTRS_IN_INS = 128, /* PTOAS's custom form writes the attributes inside ins(...),
                             after the operands (tcvt) */
    OF_TILE_OP = 256,   /* a tile op (PTOAS's TileOpInterface: its pto.t* ops) or a tile
                           allocation: what a pto.tileop.helper function may not hold */
    OF_VEC = 512,       /* a vector op (docs/vector-ops.md): PTOAS's vector rules
                           (verify_vec.c), its scalars and tmp tiles as PTOAS checks them */
    OF_TMP_COMMA = 1024, /* PTOAS's custom parser reads an optional `, %tmp` right after the
                            first ins operand, so a typed first operand must be followed by ')' */
    OF_ATTRS_AFTER_TMP = 2048 /* like OF_ATTRS_IN_INS, but only when the optional tmp is
                                 written (tcolsum) */
};

/* Variants inside a vector op class, where PTOAS's rules differ by op (verify_vec.c). */
typedef enum {
    V_NONE,
    VU_ABS, VU_RELU, VU_NEG, VU_RECIP, VU_PLAIN, VU_RSQRT, /* OC_UNARY */
    VR_PLAIN, VR_ADD, VR_SUB_MUL, VR_DIV, VR_MAXMIN,      /* OC_ROW_EXPAND */
    VC_PLAIN, VC_OP,                                      /* OC_COL_EXPAND */
    VCR_MAXMIN, VCR_SUM,                                  /* OC_COL_REDUCE */
    VS_DIVS,                                              /* OC_TILE_SCALAR: tdivs */
    /* == ELEM == */
    VB_XOR, VB_SHIFT, VB_POW, VB_PRELU, VB_REM,           /* OC_BINARY: txor, tshl/tshr, tpow, tprelu, trem */
    VU_NOT,                                               /* OC_UNARY: tnot */
    VS_BITWISE, VS_XORS, VS_SHLS, VS_SHRS, VS_POWS,       /* OC_TILE_SCALAR: tands/tors, txors, tshls, tshrs, tpows */
    VS_REMS, VS_FMODS, VS_LRELU,                          /* OC_TILE_SCALAR: trems, tfmods, tlrelu */
    /* == REARR == */
    VCR_PROD, VR_EXPDIF                                   /* tcolprod (src may be empty on A5), trowexpandexpdif */
} OpVariant;

/* The attributes whose value is a runtime call argument (A_ATTR in ops.def): codegen's
 * attr_args spells each value as the runtime's enum. */
typedef enum {
    RA_QUANT_TYPE, RA_QUANT_TYPE_MX, RA_QUANT_SCALE_ALG, RA_GRP_AXIS, RA_ACC_PHASE, RA_INTERLEAVE,
    RA_RMODE, RA_SAT_MODE, RA_DESCENDING, RA_CMP_MODE, RA_COUNT
} RtAttr;

/* Operand roles, one global list: a role's index in an op's row is found with
 * op_role(kind, ROLE_x). The name is the spelling in keyword syntax and messages. */
#define ROLE_LIST(X)                                                                               \
    X(SRC, "src") X(SCALE, "scale") X(OFFSET, "offset") X(DST, "dst") X(TMP, "tmp")               \
    X(EXP, "exp") X(MAX, "max") X(SCALING, "scaling") X(EXP_ZZ, "exp_zz")                         \
    X(LHS, "lhs") X(RHS, "rhs") X(BIAS, "bias") X(FP, "fp") X(PRE_QUANT_SCALAR, "preQuantScalar") \
    X(ADDR, "addr") X(VALID_ROW, "valid_row") X(VALID_COL, "valid_col") X(TILE, "tile")          \
    X(PTR, "ptr") X(SHAPE, "shape") X(STRIDES, "strides") X(OFFSETS, "offsets") X(SIZES, "sizes") \
    X(SOURCE, "source") X(OPERANDS, "operands")                                                   \
    X(LOWER_BOUND, "lowerBound") X(UPPER_BOUND, "upperBound") X(STEP, "step")                     \
    X(INIT_ARGS, "initArgs") X(CONDITION, "condition") X(RESULTS, "results")                      \
    X(INITS, "inits") X(ARGS, "args")                                                             \
    X(SRC0, "src0") X(SRC1, "src1") X(SCALAR, "scalar") X(S, "S") \
    X(OPERAND, "operand") X(TRUE_VALUE, "true_value") X(FALSE_VALUE, "false_value") X(IN, "in")     \
    X(VALUE, "value") X(PAD_VALUE, "pad_value") X(LEFT_PADDING_NUM, "left_padding_num")                \
    X(RIGHT_PADDING_NUM, "right_padding_num") X(INIT_CONDITION, "init_condition") \
    /* == CUBE == */ \
    X(ACC_IN, "acc_in") X(C_IN, "c_in") X(A_SCALE, "a_scale") X(B_SCALE, "b_scale") \
    \
    /* == MOVES == */ \
    X(INDEX_ROW, "indexRow") X(INDEX_COL, "indexCol") \
    \
    /* == PIPE == */ \
    X(GM_SLOT_BUFFER, "gm_slot_buffer") X(GM_SLOT_TENSOR, "gm_slot_tensor")                       \
    X(C2V_CONSUMER_BUF, "c2v_consumer_buf") X(V2C_CONSUMER_BUF, "v2c_consumer_buf")                \
    X(AIV_SUBBLOCKID, "aiv_subblockid") X(ENTRY, "entry") X(EVENT_ID, "event_id")                  \
    X(EVENT_ID_DYN, "event_id_dyn") X(GM_WORKSPACE, "gm_workspace") X(USED_CORES, "used_cores")    \
    X(SLOT, "slot") X(LOCAL_ADDR, "local_addr") X(PEER_LOCAL_ADDR, "peer_local_addr")              \
    X(SCALING_TILE, "scaling_tile") \
    \
    /* == ELEM == */ \
    X(BASE, "base") X(SLOPE, "slope") X(MASK, "mask") X(SRC2, "src2") \
    \
    /* == REARR == */ \
    X(INDICES, "indices") X(KVALUE, "kValue") X(CDST, "cdst") X(IDX, "idx") \
    X(MEM, "mem") X(GM_SCRATCH, "scratch") X(INDEXES, "indexes") \
    \
    /* == SCALAR == */ \
    X(VAL, "val") X(INPUT, "input") X(TENSOR_VIEW, "tensor_view") X(DIM_INDEX, "dim_index") \
    X(ARRAY, "array") X(INDEX, "index") X(SIGNAL, "signal") X(CMP_VALUE, "cmpValue") \
    \
    /* == MLIR27 == */ \
    X(FFTS, "ffts") \
    \
    /* end of roles */

typedef enum {
#define X(id, s) ROLE_##id,
    ROLE_LIST(X)
#undef X
    ROLE_COUNT
} RoleId;

const char *role_name(RoleId r);
/* The role spelled s[0, n); ROLE_COUNT if none. */
RoleId role_lookup(const char *s, size_t n);

#define MAX_ROLES 8
#define MAX_ARGS 12
/* Role flags (per op and role). TEMP: the role's contents before and after the op
 * do not matter (tmp: scratch space, never a result, never read for its data).
 * KW: an optional operand written `role = %v : T` after outs(...) in the custom form,
 * never inside ins (pto.tload's padding operands); it has no Level 1 spelling. */
enum { ROLE_OPT = 1, ROLE_VAR = 2, ROLE_SCRATCH = 4, ROLE_OUT = 8, ROLE_GM = 16, ROLE_NUM = 32, ROLE_TEMP = 64,
       ROLE_KW = 128 };

/* A runtime call argument (the args column): an operand, an attribute, a literal. */
typedef struct OpArg {
    enum { ARG_ROLE, ARG_ATTR, ARG_LIT } kind;
    int8_t role;                  /* ARG_ROLE: index in the op's roles */
    RtAttr attr;                  /* ARG_ATTR */
    const char *text;             /* ARG_LIT: its C spelling (PTORT_VOP_ADD, NULL) */
    int code;                     /* ARG_LIT: its value (a ptort_vop or ptort_sop; 0 for NULL) */
} OpArg;

/* An attribute an op declares (the attrs column): checked before the op's verifier. */
typedef struct OpAttr {
    const char *key;
    enum { OA_ENUM, OA_OPAQUE, OA_BOOL } kind;
    int enum_kind;                /* OA_ENUM: its EnumKind */
    const char *opaque;           /* OA_OPAQUE: the #pto attribute kind */
    const char *summary;          /* MLIR's constraint summary, for the message */
} OpAttr;

#define MAX_OP_ATTRS 4

typedef struct OpInfo {
    const char *name, *alias;
    OpSyntax syntax;
    OpClass cls;
    unsigned opflags;             /* OF_* */
    const char *rt;               /* runtime entry point, NULL if none */
    uint8_t nroles, nins;         /* roles [0, nins) are ins, [nins, nroles) outs */
    uint8_t nargs;
    RoleId rid[MAX_ROLES];
    const char *role[MAX_ROLES];  /* role_name(rid[r]) */
    uint8_t flags[MAX_ROLES];     /* ROLE_* flags */
    OpArg args[MAX_ARGS];
    unsigned dt_a3, dt_a5;        /* a vector op's element types (EL_*) on A2/A3 and A5 */
    const char *dt_msg_a3, *dt_msg_a5; /* PTOAS's message when the element type is not one */
    OpVariant variant;
    uint8_t nattrs;
    OpAttr attrs[MAX_OP_ATTRS];
    const char *summary;          /* the language server's one line */
} OpInfo;

const OpInfo *op_info(OpKind k);

/* The clauses an op's custom form takes after outs(...) and its attribute dict, in the
 * one order they may come (PTOAS's pto.tload): `word = %v : T` for an operand role,
 * `word = value` for an attribute (role ROLE_COUNT). */
typedef struct TailClause {
    const char *word;
    RoleId role;
} TailClause;
/* Op k's clauses, *n of them (NULL and 0 if it has none). */
const TailClause *op_tail_clauses(OpKind k, int *n);
/* Is s[0, n) the word of some op's clause (the lexer's keyword token)? */
bool tail_clause_word(const char *s, size_t n);
/* Looks up an op spelling (name or alias); OP_COUNT if unknown. */
OpKind op_lookup(const char *s, size_t n);
/* The index of role r in op k's roles; -1 if the op has none. */
int op_role(OpKind k, RoleId r);
/* An OF_DST_SECOND op's dst position in PTOAS's generic operand order: after its leading
 * required ins (1: tmov, tstore, trsqrt; 3: textract and tinsert after src, indexRow,
 * indexCol), before the optional ins. */
static inline uint32_t op_dst_at(const OpInfo *in)
{
    uint32_t k = 0;
    while (k < in->nins && !(in->flags[k] & (ROLE_OPT | ROLE_VAR | ROLE_KW)))
        k++;
    return k;
}

/* ---- values, ops, blocks, regions, functions (docs/architecture.md) -------
 * An op may own regions; a region holds blocks; a block has arguments and a
 * list of ops. A value is an op result or a block argument, a handle into
 * its function's value table. Ops, blocks and regions live in the module's
 * arena, so pointers to them stay valid while passes insert and rewrite. */
typedef uint32_t ValueId;
#define NO_VALUE UINT32_MAX

typedef struct Op Op;
typedef struct Block Block;
typedef struct Region Region;

typedef struct Value {
    Str name;            /* without '%' */
    const Type *type;
    Span def;            /* the name at its definition */
    Span type_span;      /* where its type is written (arguments, results) */
    Op *def_op;          /* the op whose result it is; NULL for a block argument */
    Block *block;        /* the block it is defined in (its op's, or the one it is an argument of) */
    bool poisoned;       /* verification failed upstream: report nothing more */
    bool undefined;      /* placeholder for a use of an undeclared name */
} Value;

struct Block {
    Region *parent;
    Block *next;             /* the region's next block */
    ValueId *args;           /* block arguments (a function's entry block: its arguments) */
    uint32_t nargs, args_cap;
    Op *first, *last;        /* the ops, in order, linked through Op.next / Op.prev */
    Span label;              /* `^bb0` where written, len 0 if not */
};

struct Region {
    Op *parent;              /* the op that owns it; NULL for a function's body */
    Block *first, *last;
};

typedef enum { FORM_L1, FORM_L2 } OpForm;

struct Op {
    OpKind kind;
    uint8_t form;            /* FORM_L1 (SSA) or FORM_L2 (ins/outs) */
    bool bad;                /* the parser already reported an error on it */
    bool hex_addr;           /* tassign @tile(0x...) written in hex */
    bool has_tile_addr;      /* tassign ISA spelling: address in tile_addr */
    bool synthetic;          /* made by a pass (bufferize's allocs), not written in the input */
    Span name_span;          /* the op name: where its diagnostics point */
    int64_t tile_addr;       /* tassign @tile(A) */
    Str uname;               /* OP_UNREGISTERED: the op's name as written (without quotes) */
    uint32_t nprops;         /* OP_UNREGISTERED: attrs[0, nprops) were written as <{properties}> */
    uint32_t nopnds, nres, nattrs, nregions;
    ValueId *opnds;          /* in role order (ins, then outs for Level 2) */
    Span *opnd_spans;        /* where each operand is used */
    uint32_t seg[MAX_ROLES]; /* operand count per role */
    ValueId *res;
    Attr *attrs;
    AttrValue *constant;     /* arith.constant value */
    Region *regions;         /* nregions regions, in order */
    Block *parent;           /* the block it is in */
    Op *next, *prev;         /* its neighbours in that block */
    uint32_t index;          /* pre-order number (ir_number_ops): passes' side tables */
};

typedef struct Func {
    Str name;
    Span name_span, span, end_span;
    uint8_t visibility;      /* 0 none, 1 private, 2 public */
    bool decl;               /* a declaration: its body has an entry block for the arguments and no ops */
    uint32_t nresults, nattrs;
    const Type **results;
    Attr *attrs;
    Region body;             /* one block, whose arguments are the function's */
    Value *values;           /* vector */
    uint32_t nvalues, values_cap;
} Func;

/* The function's entry block: its arguments and top-level ops. */
static inline Block *ir_entry(const Func *f) { return f->body.first; }

typedef struct ModuleOp {
    bool implicit;           /* bare top-level funcs: printed without a wrapper */
    struct ModuleOp *parent; /* the module this one is nested in, or NULL */
    Str name;                /* module @name, len 0 if none */
    Span span;
    uint32_t end;            /* the offset after its '}' when written so (else 0) */
    uint32_t nattrs, nfuncs, funcs_cap;
    Attr *attrs;
    Func **funcs;
} ModuleOp;

/* Where tassign put a tile (one per placement entry, docs/memory.md): kept for the
 * language server's hovers and inlay hints. value is a handle of f. */
typedef struct Placement {
    const Func *f;
    ValueId value;
    Span def;                /* the binding: the value's definition, or its pto.tassign */
    uint8_t loc;
    int64_t addr, size;
    int64_t start, end;      /* live range in op numbers; start -1 = never used */
} Placement;

/* A function's peak use (-1 when no tile is in the space) and the capacity, per space. */
typedef struct FuncMemory {
    const Func *f;
    int64_t peak[LOC_COUNT], capacity[LOC_COUNT];
} FuncMemory;

/* A location written in the input (--mlir-print-debuginfo): loc is the text
 * inside loc(...) that follows what starts at offset at (an op's name, a
 * block argument, a func.func, a module); for a `#name = loc(...)` alias, key
 * is the #name. */
typedef struct LocRecord {
    uint32_t at;
    Span key, loc;
} LocRecord;

/* == MLIR27 == A tmp a rule requires and the input lacks (bufferize at level3): the
 * tile_buf type bufferize would create at Level 2, for the language server's fix. */
typedef struct TmpHint {
    Span at;                 /* the op's name, where the error is */
    const Func *f;
    const Op *op;
    int role;                /* the op's scratch role */
    const Type *type;
    int64_t addr;            /* a free address for it (level3 wants one), -1 if none */
} TmpHint;

/* The result of parsing one input (a file or a split chunk). */
struct Module {
    Arena arena;
    TypeTable types;
    SourceFile *src;
    ModuleOp **mods;
    uint32_t nmods, mods_cap;
    StrBuf report;           /* --memory-report / --memory-map text, printed after the IR */
    Placement *places;       /* tassign's result, when it succeeded (vector) */
    uint32_t nplaces, places_cap;
    FuncMemory *fmem;        /* one per function tassign placed (vector) */
    uint32_t nfmem, fmem_cap;
    LocRecord *locs;         /* the input's locations, by at (sorted when parsed) */
    uint32_t nlocs, locs_cap;
    LocRecord *loc_aliases;  /* the input's #name = loc(...) */
    uint32_t nloc_aliases, loc_aliases_cap;
    TmpHint *tmp_hints;      /* == MLIR27 == (vector) */
    uint32_t ntmp_hints, tmp_hints_cap;
};

/* The location written in the input after what starts at offset at (an op
 * name: ops a pass made from an op share its name span, so its location);
 * NULL when none was written. */
const LocRecord *ir_written_loc(const Module *m, uint32_t at);

/* Builders used by the parser and the passes. */
ModuleOp *ir_module_add(Module *m, bool implicit);
Func *ir_func_add(Module *m, ModuleOp *mod); /* with an empty entry block */
ValueId ir_value_add(Func *f, Str name, const Type *type, Span def, Op *def_op, Block *block);
/* Appends an argument to b (a function's entry block: a function argument). */
ValueId ir_block_arg_add(Module *m, Func *f, Block *b, Str name, const Type *type, Span def);
Op *ir_op_new(Module *m);    /* zeroed, in no block */
Block *ir_block_add(Module *m, Region *r); /* appends an empty block */
Region *ir_regions_new(Module *m, Op *owner, uint32_t n); /* the op's n empty regions */
void ir_block_append(Block *b, Op *op);
void ir_insert_before(Op *at, Op *op);
void ir_block_prepend(Block *b, Op *op);
/* Pre-order walk (text order): the op after op, descending into its regions
 * first; NULL after the last. ir_first_op(f) starts it. */
Op *ir_first_op(const Func *f);
Op *ir_next_op(const Op *op);
/* Numbers every op of f in pre-order (Op.index) and returns the count. */
uint32_t ir_number_ops(const Func *f);
/* The op owning the region that holds block b; NULL at the function's body. */
static inline Op *ir_block_owner(const Block *b) { return b->parent->parent; }
void ir_funcs_free(Module *m);
const Attr *ir_attr_find(const Attr *attrs, uint32_t n, const char *key);
/* The function a declaration stands for when another module of the file defines it, as
 * a linker resolves a symbol (the children of a partitioned file call each other so,
 * docs/language.md 2.1): the one function of that name that has a body and is not
 * private; NULL when there is none or more than one. */
const Func *ir_func_definition(const Module *m, const Func *decl);
/* Every function of a file by (module, name) and the definitions ir_func_definition
 * finds by name, so that a call's callee and a declaration's definition are found in
 * constant time (a file may hold many thousands of functions and calls). */
typedef struct FuncSlot {
    const ModuleOp *mod;     /* NULL in defs: the name has several definitions */
    const Func *f;           /* NULL: an empty slot */
    uint32_t idx, all;       /* f's index in mod->funcs, and in the file (modules in order) */
} FuncSlot;
typedef struct FuncIndex {
    FuncSlot *slots, *defs;  /* open addressing, sizes cap and dcap (powers of two) */
    size_t cap, dcap;
} FuncIndex;
void ir_func_index_init(FuncIndex *ix, const Module *m);
/* mod's first function named name (f NULL when none). */
const FuncSlot *ir_func_index_find(const FuncIndex *ix, const ModuleOp *mod, Str name);
/* ir_func_definition(m, decl) through the index (f NULL when none). */
const FuncSlot *ir_func_index_definition(const FuncIndex *ix, const Func *decl);
void ir_func_index_free(FuncIndex *ix);
/* Whether a declaration and a definition take and return the same types (how a private
 * declaration links to another module's definition). */
bool ir_same_signature(const Func *a, const Func *b);
/* The value in each non-variadic role (NO_VALUE when empty). Level 1
 * results stand for the non-scratch outs roles in order; tstore's view stays
 * an operand. */
void ir_op_roles(const Op *op, ValueId val[MAX_ROLES]);
/* Operands of one role: *first index into op->opnds, returns the count. */
uint32_t ir_role_operands(const Op *op, int role, uint32_t *first);

/* The value of v when an integer arith.constant defines it (PTOAS's
 * getConstIndexValue); false for NO_VALUE and anything else. */
bool ir_const_int(const Func *f, ValueId v, int64_t *out);

/* Names the passes give to values they create: "<base><suffix>", then
 * "<base><suffix>_1", ... until unused in the function. */
typedef StrSet NameSet;
/* The names of f's values. */
void nameset_init(NameSet *ns, const Func *f);
static inline void nameset_free(NameSet *ns) { strset_free(ns); }
Str ir_fresh_name(Module *m, NameSet *ns, Str base, const char *suffix);

/* Printing (printer.c). */
void print_type_to(FILE *out, const Type *t);
void print_attr_value(StrBuf *b, const AttrValue *v);

#endif
