/* verify_int.h - what the verifier's files share: the context of the op being
 * checked and the one way to report. verify.c checks tile types and the ops of
 * the mission; verify_vec.c the vector ops (docs/verify.md). */
#ifndef PTOAS_VERIFY_INT_H
#define PTOAS_VERIFY_INT_H
#include "pass.h"

typedef struct V {
    DiagEngine *d;
    Func *f;
    const Op *op;
    OptArch arch;
    const ModuleOp *mod;     /* the op's module: func.call's callees */
    const FuncIndex *funcs;  /* the file's functions by name */
    bool errors;
    /* operand by role: value and type; NO_VALUE when the role is empty */
    ValueId val[MAX_ROLES];
    const Type *ty[MAX_ROLES];
    const TileBody *tb[MAX_ROLES];
} V;

/* Reports "'op' op MSG" at the op name and a note at role's definition (role -1:
 * no note); returns false. */
bool verify_op_error(V *v, int role, const char *fmt, ...) DIAG_PRINTF(3, 4);

/* An attribute ptoas keeps as written (AV_OPAQUE): present (*has), and whether
 * its text contains word. */
bool opaque_attr(const Op *op, const char *key, const char *word, bool *has);

/* PTOAS's low-precision element types (isPTOLowPrecisionType): fp8, hif8, !pto.f8E8M0,
 * packed fp4, hif8x2, bf16x2 -- not the builtin f8E8M0FNU. */
bool low_precision_dtype(DType d);

/* One verifier per vector op class (ir.h OC_BINARY ... OC_CI). */
bool verify_vec_op(V *v);

#endif
