/* emit_scal.c - codegen of issue 24's scalar line of work: pto.tgetval and pto.tsetval
 * (one runtime call each that moves one element between a tile and a C scalar: an int64_t
 * holding an integer sign-extended from its width, or a float holding an f16, bf16 or f32
 * value, docs/scalars.md 4), pto.addptr (a checked sub-buffer of a pointer argument) and
 * the view and tile queries, and the local arrays (a C array of the held scalar type with
 * checked indices). */
#include <stdlib.h>
#include <string.h>
#include "emit_int.h"
#include "pass.h"
#include "printfmt.h"
#include "str.h"

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


/* pto.addptr: a new base and byte size `offset` elements into the pointer's buffer. */
static void emit_addptr(Emit *e, const Op *op)
{
    ValueId p = op->opnds[0], r = op->res[0];
    const char *off = emit_scalar(e, op->opnds[1], op);
    if (!off)
        return;
    if (!e->csize[p]) {
        emit_fail(e, op->name_span, "codegen expects the pointer of 'pto.addptr' to be a function argument or "
                  "an addptr of one");
        return;
    }
    const Type *t = val(e, r)->type;
    unsigned esize = dtype_size(t->dtype);
    if (!esize || !emit_runtime_dtype(e, op->name_span, t->dtype, HOLD_PTR))
        return;
    const Value *x = val(e, r);
    const char *n = emit_unique_name(&e->local, "p_", x->name.p, x->name.len);
    const char *sz = emit_unique_name(&e->local, n, "_size", 5);
    sb_printf(&e->body, "    void *%s;\n    size_t %s;\n", n, sz);
    emit_begin_call(e, op);
    sb_printf(&e->body, "ptort_addptr(ctx, %s, %s, %s, %u, &%s, &%s)", e->cexpr[p], e->csize[p], off, esize, n, sz);
    emit_end_call(e, op);
    e->cexpr[r] = n;
    e->csize[r] = sz;
    e->ptr_arg[r] = e->ptr_arg[p];
}

/* get_tensor_view_dim/stride (a checked runtime query), tile_valid_rows/cols (the
 * descriptor's field). */
static void emit_query(Emit *e, const Op *op)
{
    ValueId r = op->res[0];
    if (op_role(op->kind, ROLE_TENSOR_VIEW) >= 0) {
        const char *view = e->cexpr[op->opnds[0]];
        const char *k = emit_scalar(e, op->opnds[1], op);
        if (!k)
            return;
        if (!view) {
            emit_fail(e, op->name_span, "codegen expects the view of '%s' to be made in the function",
                      op_info(op->kind)->name);
            return;
        }
        const char *s = emit_scalar_local(e, r, "int64_t");
        emit_begin_call(e, op);
        sb_printf(&e->body, "ptort_view_query(ctx, &%s, %s, %d, &%s)", view, k,
                  op->kind == OP_GET_TENSOR_VIEW_STRIDE, s);
        emit_end_call(e, op);
        return;
    }
    const char *t = emit_use_tile(e, op->opnds[0], op);
    if (!t)
        return;
    const char *s = emit_scalar_local(e, r, "int64_t");
    sb_printf(&e->body, "    %s = (%s)->%s;\n", s, t, op->kind == OP_TILE_VALID_ROWS ? "valid_rows" : "valid_cols");
}

/* pto.tprint of a tile: the runtime prints it to the kernel's stdout. */
static void emit_tprint(Emit *e, const Op *op)
{
    ValueId src = role(op, ROLE_SRC);
    if (!type_is_tile(val(e, src)->type)) {
        emit_fail(e, op->name_span, "codegen supports 'pto.tprint' of tiles only");
        return;
    }
    const char *t = emit_use_tile(e, src, op);
    int fmt = tprint_format(op);
    if (!t || fmt < 0)
        return;
    emit_begin_call(e, op);
    sb_printf(&e->body, "ptort_tprint(ctx, stdout, %s, %d)", t, fmt);
    emit_end_call(e, op);
}

/* pto.print: the format string from the input reaches the C file only as an escaped string
 * literal, and only when it is literal text with one conversion of the value's kind
 * (printfmt.h, which the runtime checks again before it prints). */
static void emit_print(Emit *e, const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "format");
    ValueId v = op->opnds[0];
    const Type *t = val(e, v)->type;
    const char *x = emit_scalar(e, v, op);
    if (!x || !a || a->val->kind != AV_STRING)
        return;
    Str raw = a->val->u.s;
    char *fmt = xmalloc(raw.len + 1);
    size_t n = 0;
    for (size_t i = 0; i < raw.len;)
        fmt[n++] = (char)str_unescape_next(raw.p, raw.len, &i);
    fmt[n] = 0;
    bool fl = emit_float_rt(t) != NULL;
    size_t cs, ce, la, ln;
    int kind = memchr(fmt, 0, n) ? 0 : ptort_parse_format(fmt, n, &cs, &ce, &la, &ln);
    if (kind != 'n' && kind != (fl ? 'f' : 'i')) {
        emit_fail(e, op->name_span, "codegen requires the format of 'pto.print' to be printable ASCII text (newlines and tabs too) with "
                  "at most one conversion, %s one (docs/language.md 5.9)", fl ? "a floating-point" : "an integer");
        free(fmt);
        return;
    }
    StrBuf lit = {0};
    emit_c_string(&lit, fmt, n);
    free(fmt);
    emit_begin_call(e, op);
    if (fl)
        sb_printf(&e->body, "ptort_print_float(ctx, stdout, %.*s, %s)", (int)lit.len, lit.p, x);
    else
        sb_printf(&e->body, "ptort_print_int(ctx, stdout, %.*s, %s, %u)", (int)lit.len, lit.p, x, emit_int_bits(t));
    sb_free(&lit);
    emit_end_call(e, op);
}

/* pto.declare_local_array: a zero-filled C array of the scalar type generated C holds the
 * element type in (int64_t or float), so that get and set move values unchanged. */
static void emit_declare_local(Emit *e, const Op *op)
{
    ValueId r = op->res[0];
    const Type *t = val(e, r)->type;
    const Type *et = type_scalar(&e->m->types, t->dtype);
    if (!emit_c_scalar_ok(et)) {
        emit_fail(e, op->name_span, "codegen does not support local arrays of '%s'", dtype_name(t->dtype));
        return;
    }
    if (t->kind == TY_EVENTID_ARRAY && (t->dims[0] <= 0 || t->dims[0] > 65536)) {
        emit_fail(e, op->name_span, "codegen supports event-id arrays of 1 to 65536 elements, not %lld",
                  (long long)t->dims[0]);
        return;
    }
    const Value *x = val(e, r);
    const char *n = emit_unique_name(&e->local, "a_", x->name.p, x->name.len);
    sb_printf(&e->body, "    %s %s", emit_c_scalar_type(et), n);
    for (uint32_t i = 0; i < t->rank; i++)
        sb_printf(&e->body, "[%lld]", (long long)t->dims[i]);
    sb_puts(&e->body, " = {0};\n");
    e->cexpr[r] = n;
}

/* pto.local_array_get / set: a runtime check of the indices (a located error when one is
 * outside its dimension), then the element access. */
static void emit_local_access(Emit *e, const Op *op)
{
    ValueId a = op->opnds[0];
    const Type *t = val(e, a)->type;
    bool set = op->kind == OP_LOCAL_ARRAY_SET || op->kind == OP_EVENTID_ARRAY_SET;
    uint32_t nidx = op->nopnds - 1 - set;
    if (!e->cexpr[a]) {
        emit_fail(e, op->name_span, "codegen expects the array of '%s' to be declared in the function",
                  op_info(op->kind)->name);
        return;
    }
    const char **ix = xmalloc((nidx + 1) * sizeof *ix);
    bool ok = true;
    for (uint32_t i = 0; i < nidx; i++)
        ok = (ix[i] = emit_scalar(e, op->opnds[1 + i], op)) != NULL && ok;
    const char *x = set ? emit_scalar(e, op->opnds[1 + nidx], op) : "";
    if (!ok || !x) {
        free(ix);
        return;
    }
    StrBuf acc = {0};
    sb_puts(&acc, e->cexpr[a]);
    for (uint32_t i = 0; i < nidx; i++)
        sb_printf(&acc, "[%s]", ix[i]);
    emit_begin_call(e, op);
    sb_printf(&e->body, "ptort_local_index(ctx, \"%s\", %u, (const int64_t[]){", op_info(op->kind)->name, nidx);
    for (uint32_t i = 0; i < nidx; i++)
        sb_printf(&e->body, "%s%s", i ? ", " : "", ix[i]);
    sb_puts(&e->body, "}, (const int64_t[]){");
    for (uint32_t i = 0; i < nidx; i++)
        sb_printf(&e->body, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
    sb_puts(&e->body, "})");
    emit_end_call(e, op);
    if (set) {
        sb_printf(&e->body, "    %.*s = %s;\n", (int)acc.len, acc.p, x);
    } else {
        const char *r = emit_scalar_local(e, op->res[0], emit_c_scalar_type(val(e, op->res[0])->type));
        sb_printf(&e->body, "    %s = %.*s;\n", r, (int)acc.len, acc.p);
    }
    sb_free(&acc);
    free(ix);
}

void emit_scalar_line(Emit *e, const Op *op)
{
    switch (op->kind) {
    case OP_TGETVAL: emit_tgetval(e, op); break;
    case OP_TSETVAL: emit_tsetval(e, op); break;
    case OP_ADDPTR: emit_addptr(e, op); break;
    case OP_TPRINT: emit_tprint(e, op); break;
    case OP_DECLARE_LOCAL_ARRAY:
    case OP_DECLARE_EVENTID_ARRAY: emit_declare_local(e, op); break;
    case OP_LOCAL_ARRAY_GET:
    case OP_LOCAL_ARRAY_SET:
    case OP_EVENTID_ARRAY_GET:
    case OP_EVENTID_ARRAY_SET: emit_local_access(e, op); break;
    case OP_PRINT: emit_print(e, op); break;
    case OP_TRAP:
        emit_begin_call(e, op);
        sb_puts(&e->body, "ptort_trap(ctx)");
        emit_end_call(e, op);
        break;
    default:
        if (op_info(op->kind)->cls == OC_QUERY)
            emit_query(e, op);
        else /* ptrtoint, inttoptr, castptr, tile_buf_addr: addresses the simulation does not have */
            emit_fail(e, op->name_span, "codegen does not support '%s' (ptoas run has no byte addresses)",
                      op_info(op->kind)->name);
    }
}
