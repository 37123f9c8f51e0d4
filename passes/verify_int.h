/* verify_int.h - what the verifier's files share: the one context of the op being
 * checked and the one way to report (verify_ctx.c). verify.c checks tile types and
 * dispatches; verify_vec.c the vector ops, verify_views.c the tile views, verify_scf.c
 * the region ops, verify_arith.c the scalar ops (docs/verify.md). */
#ifndef PTOAS_VERIFY_INT_H
#define PTOAS_VERIFY_INT_H
#include "pass.h"

typedef struct V {
    DiagEngine *d;
    Func *f;
    const Op *op;
    const char *name;        /* the op's spelling in messages; NULL: its table name */
    Arch arch;
    const ModuleOp *mod;     /* the op's module: func.call's callees */
    const FuncIndex *funcs;  /* the file's functions by name */
    bool errors;
    /* operand by role: value and type; NO_VALUE when the role is empty */
    ValueId val[MAX_ROLES];
    const Type *ty[MAX_ROLES];
    const TileBody *tb[MAX_ROLES];
} V;

/* Reports "'NAME' op MSG" at the op name; returns false (v->errors is the caller's). */
bool verify_error(V *v, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* "16x?": a shape as a tile type writes it ('?' dynamic), in buf; for the
 * messages that compare two shapes, which print both (", but got 16x16 and
 * 16x32") so that the user sees which one to change. */
const char *verify_shape_str(int64_t rows, int64_t cols, char buf[48]);

/* Reports "'op' op MSG" at the op name and a note at role's definition (role -1:
 * no note); returns false. */
bool verify_op_error(V *v, int role, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* A rule ptoas has and PTOAS lacks: a warning at the op (an error with --Werror), so that
 * the files PTOAS accepts verify; returns true. */
bool verify_op_warning(V *v, const char *fmt, ...) DIAG_PRINTF(2, 3);

/* An attribute ptoas keeps as written (AV_OPAQUE): present (*has), and whether
 * its text contains word. */
bool opaque_attr(const Op *op, const char *key, const char *word, bool *has);

/* The rules of pto.treshape, pto.subview and pto.set_validshape (verify_views.c);
 * false when it reported an error. */
bool verify_tile_view(V *v);

/* The rules of scf.for, scf.if, scf.yield and where func.return may stand
 * (verify_scf.c); false when it reported an error. */
bool verify_scf(V *v);

/* The rules of the scalar ops (verify_arith.c); callee: the function a func.call names as
 * codegen links it (NULL when none). False when it reported an error. */
bool verify_scalar_op(V *v, const Func *callee);

/* == PIPE == the pipe, FIFO, sync and multi-buffer ops (verify_pipe.c). */
bool verify_pipe_op(V *v);
/* Issue 24's scalar line of work (verify_scal.c): element access, pointers, queries. */
bool verify_scal_op(V *v);

/* One verifier per vector op class (ir.h OC_BINARY ... OC_CI). */
bool verify_vec_op(V *v);
/* The rearrangement ops' classes (OC_GATHER, OC_FILLPAD: verify_rearr.c), from verify_vec_op. */
bool verify_rearr_op(V *v);

/* The cube's compute ops, OC_MATMUL (verify_cube.c). */
bool verify_matmul(V *v);

/* The attributes an op's row declares (ops.def AT_*), with MLIR's message (verify_vec.c). */
bool verify_declared_attrs(V *v);
/* The on-chip moves (verify_moves.c): textract, tinsert, ttrans, tget_scale_addr. */
bool verify_move_op(V *v);

#endif
