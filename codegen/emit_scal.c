/* emit_scal.c - codegen of issue 24's scalar line of work: pto.tgetval and pto.tsetval,
 * one runtime call each that moves one element between a tile and a C scalar (an
 * int64_t holding an integer sign-extended from its width, or a float holding an f16,
 * bf16 or f32 value, docs/scalars.md 4). */
#include "emit_int.h"

/* pto.tgetval: the result's local gets element `offset` of src. */
static void emit_tgetval(Emit *e, const Op *op)
{
    const char *src = emit_use_tile(e, role(op, ROLE_SRC), op);
    const char *off = emit_scalar(e, role(op, ROLE_OFFSET), op);
    const Type *rt = val(e, op->res[0])->type;
    if (!src || !off)
        return;
    if (!emit_c_scalar_ok(rt)) {
        char b[128];
        emit_fail(e, op->name_span, "codegen does not support 'pto.tgetval' on scalars of type '%s'",
                  type_str(rt, b, sizeof b));
        return;
    }
    bool fl = emit_float_rt(rt) != NULL;
    const char *r = emit_scalar_local(e, op->res[0], emit_c_scalar_type(rt));
    emit_begin_call(e, op);
    sb_printf(&e->body, "ptort_tgetval_%s(ctx, %s, %s, &%s)", fl ? "float" : "int", src, off, r);
    emit_end_call(e, op);
}

/* pto.tsetval: element `offset` of dst gets val, which must be of dst's element type
 * (the verifier warns otherwise; C++'s implicit conversion is not modelled). */
static void emit_tsetval(Emit *e, const Op *op)
{
    ValueId dv = role(op, ROLE_DST), vv = role(op, ROLE_VAL);
    const char *dst = emit_use_tile(e, dv, op);
    const char *off = emit_scalar(e, role(op, ROLE_OFFSET), op);
    const char *x = emit_scalar(e, vv, op);
    if (!dst || !off || !x)
        return;
    const Type *vt = val(e, vv)->type, *dt = val(e, dv)->type;
    if (!emit_c_scalar_ok(vt) || !type_is_tile(dt) || vt->dtype != dt->tile.dtype) {
        char b[128];
        emit_fail(e, op->name_span, "codegen requires the value of 'pto.tsetval' to be of the tile's element type, "
                  "but got '%s'", type_str(vt, b, sizeof b));
        return;
    }
    bool fl = emit_float_rt(vt) != NULL;
    emit_begin_call(e, op);
    sb_printf(&e->body, "ptort_tsetval_%s(ctx, %s, %s, %s)", fl ? "float" : "int", dst, off, x);
    emit_end_call(e, op);
    emit_mark_written(e, op);
}

void emit_scalar_access(Emit *e, const Op *op)
{
    if (op->kind == OP_TGETVAL)
        emit_tgetval(e, op);
    else
        emit_tsetval(e, op);
}
