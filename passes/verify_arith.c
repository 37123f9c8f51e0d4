/* verify_arith.c - the rules of the scalar ops (docs/scalars.md): arith's
 * integer, float, compare, select and cast ops, arith.constant's signless
 * type, func.call against its callee, pto.load_scalar and pto.store_scalar.
 * The rules and message texts are MLIR's (mlir-opt-19) for arith and func,
 * PTOAS's for the pto ops; checks run in MLIR's order (properties, operand
 * types in order, result types, then the traits). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "arith.h"
#include "verify_int.h"

static const Type *ty(const V *a, ValueId v) { return a->f->values[v].type; }

static bool is_i1(const Type *t) { return t && t->kind == TY_SCALAR && t->dtype == DT_I1; }

typedef enum { K_INT, K_FIXED_INT, K_FLOAT, K_BOOL, K_INT_OR_MEMREF } Kind;

static const char *const kind_text[] = {
    [K_INT] = "signless-integer-like",
    [K_FIXED_INT] = "signless-fixed-width-integer-like",
    [K_FLOAT] = "floating-point-like",
    [K_BOOL] = "bool-like",
    [K_INT_OR_MEMREF] = "signless-integer-like or memref of signless-integer",
};

static bool has_kind(const Type *t, Kind k)
{
    switch (k) {
    case K_INT:
    case K_INT_OR_MEMREF: return arith_int_width(t) > 0;
    case K_FIXED_INT: return arith_int_width(t) > 0 && t->dtype != DT_INDEX;
    case K_FLOAT: return arith_float_width(t) > 0;
    case K_BOOL: return is_i1(t);
    }
    return false;
}

/* "operand #i must be KIND, but got 'T'" (result: "result #i") */
static bool check_kind(V *a, bool result, uint32_t i, Kind k)
{
    const Type *t = ty(a, result ? a->op->res[i] : a->op->opnds[i]);
    if (!t || has_kind(t, k))
        return true;
    char b[256];
    return verify_error(a, "%s #%u must be %s, but got '%s'", result ? "result" : "operand", i, kind_text[k],
                 type_str(t, b, sizeof b));
}

static bool verify_cmpi(V *a)
{
    const Attr *pa = ir_attr_find(a->op->attrs, a->op->nattrs, ARITH_PREDICATE_KEY);
    if (!pa)
        return verify_error(a, "requires attribute 'predicate'");
    if (pa->val->kind != AV_INT || pa->val->u.i < 0 || pa->val->u.i >= CMPI_COUNT)
        return verify_error(a, "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: "
                        "0, 1, 2, 3, 4, 5, 6, 7, 8, 9");
    if (!check_kind(a, false, 0, K_INT) || !check_kind(a, false, 1, K_INT) || !check_kind(a, true, 0, K_BOOL))
        return false;
    if (ty(a, a->op->opnds[0]) != ty(a, a->op->opnds[1]))
        return verify_error(a, "requires all operands to have the same type");
    return true;
}

static bool verify_cast(V *a)
{
    OpKind k = a->op->kind;
    bool index = k == OP_INDEX_CAST || k == OP_INDEX_CASTUI;
    Kind kind = index ? K_INT_OR_MEMREF : K_FIXED_INT;
    if (!check_kind(a, false, 0, kind) || !check_kind(a, true, 0, kind))
        return false;
    const Type *in = ty(a, a->op->opnds[0]), *out = ty(a, a->op->res[0]);
    if (!in || !out)
        return true;
    int wi = arith_int_width(in), wo = arith_int_width(out);
    bool ok = index ? (in->dtype == DT_INDEX) != (out->dtype == DT_INDEX)
              : k == OP_TRUNCI ? wo < wi
                               : wo > wi;
    if (!ok) {
        char b1[64], b2[64];
        return verify_error(a, "operand type '%s' and result type '%s' are cast incompatible", type_str(in, b1, sizeof b1),
                     type_str(out, b2, sizeof b2));
    }
    return true;
}

static bool verify_call(V *a, const Func *g)
{
    const Op *op = a->op;
    const Attr *ca = ir_attr_find(op->attrs, op->nattrs, "callee");
    if (!ca)
        return verify_error(a, "requires attribute 'callee'");
    Str name = ca->val->u.s;
    if (!g)
        return verify_error(a, "'%.*s' does not reference a valid function", (int)name.len, name.p);
    if (ir_entry(g)->nargs != op->nopnds)
        return verify_error(a, "incorrect number of operands for callee");
    char b1[256], b2[256];
    for (uint32_t i = 0; i < op->nopnds; i++) {
        const Type *want = g->values[ir_entry(g)->args[i]].type, *got = ty(a, op->opnds[i]);
        if (want && got && want != got)
            return verify_error(a, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %u",
                         type_str(want, b1, sizeof b1), type_str(got, b2, sizeof b2), i);
    }
    if (g->nresults != op->nres)
        return verify_error(a, "incorrect number of results for callee");
    for (uint32_t i = 0; i < op->nres; i++) {
        const Type *got = ty(a, op->res[i]);
        if (got && got != g->results[i]) {
            verify_error(a, "result type mismatch at index %u", i);
            diag_note(a->d, op->name_span, "      op result types: '%s'", type_str(got, b1, sizeof b1));
            diag_note(a->d, op->name_span, "function result types: '%s'", type_str(g->results[i], b2, sizeof b2));
            return false;
        }
    }
    return true;
}

/* PTOAS: the pointer's element type is the loaded or stored value's type. */
static bool verify_scalar_access(V *a)
{
    const Op *op = a->op;
    const Type *pt = ty(a, op->opnds[0]), *it = ty(a, op->opnds[1]);
    if (pt && pt->kind != TY_PTR)
        return verify_error(a, "expects ptr to be !pto.ptr type");
    if (it && !(it->kind == TY_SCALAR && it->dtype == DT_INDEX)) {
        char b[256];
        return verify_error(a, "operand #1 must be index, but got '%s'", type_str(it, b, sizeof b));
    }
    bool load = op->kind == OP_LOAD_SCALAR;
    const Type *vt = load ? ty(a, op->res[0]) : ty(a, op->opnds[2]);
    if (pt && vt && (vt->kind != TY_SCALAR || vt->dtype != pt->dtype))
        return verify_error(a, load ? "expects result type to match ptr element type"
                             : "expects value type to match ptr element type");
    return true;
}

bool verify_scalar_op(V *a, const Func *callee)
{
    const Op *op = a->op;
    switch (arith_class(op->kind)) {
    case AC_INT_BIN:
        if (!check_kind(a, false, 0, K_INT) || !check_kind(a, false, 1, K_INT) ||
            !check_kind(a, true, 0, K_INT))
            return false;
        break;
    case AC_FLOAT_BIN:
        if (!check_kind(a, false, 0, K_FLOAT) || !check_kind(a, false, 1, K_FLOAT) ||
            !check_kind(a, true, 0, K_FLOAT))
            return false;
        break;
    case AC_FLOAT_UN:
        if (!check_kind(a, false, 0, K_FLOAT) || !check_kind(a, true, 0, K_FLOAT))
            return false;
        break;
    case AC_CMPI:
        return verify_cmpi(a);
    case AC_SELECT:
        if (!check_kind(a, false, 0, K_BOOL))
            return false;
        if (ty(a, op->opnds[1]) != ty(a, op->opnds[2]) || ty(a, op->opnds[1]) != ty(a, op->res[0]))
            return verify_error(a, "failed to verify that all of {true_value, false_value, result} have same type");
        return true;
    case AC_CAST:
        return verify_cast(a);
    case AC_NONE:
        if (op->kind == OP_CALL)
            return verify_call(a, callee);
        if (op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR)
            return verify_scalar_access(a);
        if (op->kind == OP_CONSTANT && op->nres == 1) {
            const Type *t = ty(a, op->res[0]);
            if (t && t->kind == TY_SCALAR && !arith_int_width(t) && !arith_float_width(t) && !dtype_is_float(t->dtype))
                return verify_error(a, "integer return type must be signless");
        }
        return true;
    }
    /* SameOperandsAndResultType */
    for (uint32_t i = 0; i < op->nopnds; i++)
        if (ty(a, op->opnds[i]) != ty(a, op->res[0]))
            return verify_error(a, "requires the same type for all operands and results");
    return true;
}
