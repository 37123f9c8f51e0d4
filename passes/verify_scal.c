/* verify_scal.c - the rules of issue 24's scalar line of work (docs/verify.md): single
 * element access (pto.tgetval, pto.tsetval). PTOAS's rules and texts are errors; the rules
 * the runtime needs and PTOAS lacks are warnings at the op, so that what PTOAS accepts
 * verifies. */
#include <stdarg.h>
#include <stdio.h>
#include "verify_int.h"

#define fail verify_op_error

/* A rule ptoas has and PTOAS lacks: a warning (an error with --Werror) at the op. */
static void warn(V *v, const char *fmt, ...) DIAG_PRINTF(2, 3);
static void warn(V *v, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_warning(v->d, v->op->name_span, "'%s' op %s", op_info(v->op->kind)->name, msg);
}

/* PTOAS's ScalarType (AnySignlessInteger or AnyFloat): the value of tsetval, the result
 * of tgetval. */
static bool numeric(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return false;
    DTypeKind k = dtype_kind(t->dtype);
    return k == DK_INT || (k == DK_FLOAT || k == DK_PTO);
}

/* MLIR's operand constraint text for operand n of the generic order. */
static bool operand_is(V *v, int role, uint32_t n, bool ok, const char *what)
{
    if (ok)
        return true;
    char b[256];
    return fail(v, -1, "operand #%u must be %s, but got '%s'", n, what, type_str(v->ty[role], b, sizeof b));
}

static bool is_index(const Type *t) { return t && t->kind == TY_SCALAR && t->dtype == DT_INDEX; }

/* pto.tgetval ins(%src, %offset : tile_buf, index) outs : T */
static bool verify_tgetval(V *v)
{
    int src = op_role(v->op->kind, ROLE_SRC), off = op_role(v->op->kind, ROLE_OFFSET);
    if (!operand_is(v, off, 1, is_index(v->ty[off]), "index"))
        return false;
    const Type *rt = v->f->values[v->op->res[0]].type;
    if (!numeric(rt)) {
        char b[256];
        return fail(v, -1, "result #0 must be numeric (integer/float), but got '%s'", type_str(rt, b, sizeof b));
    }
    if (!v->ty[src] || v->ty[src]->kind != TY_TILE_BUF)
        return fail(v, src, "expects src to be tile_buf type");
    const TileBody *t = v->tb[src];
    if (t->loc == LOC_MAT)
        return fail(v, src, "Ascend hardware does not support reading from Mat tile_buf to Scalar unit");
    if (t->loc != LOC_VEC)
        return fail(v, src, "expects src memory space to be vec");
    if (rt->dtype != t->dtype)
        return fail(v, src, "expects dst type to match src element type");
    return true;
}

/* pto.tsetval ins(%offset, %val : index, T) outs(%dst : tile_buf). PTOAS compares val's
 * type with dst's element type for shaped types only, which a tile_buf is not; pto-isa's
 * SetValue takes a vec tile's element type: both warnings. */
static bool verify_tsetval(V *v)
{
    int off = op_role(v->op->kind, ROLE_OFFSET), val = op_role(v->op->kind, ROLE_VAL);
    int dst = op_role(v->op->kind, ROLE_DST);
    if (!operand_is(v, off, 1, is_index(v->ty[off]), "index") ||
        !operand_is(v, val, 2, numeric(v->ty[val]), "numeric (integer/float)"))
        return false;
    const TileBody *t = v->tb[dst];
    if (t->loc != LOC_VEC)
        warn(v, "expects dst to be in the vec address space (pto-isa's SetValue)");
    if (v->ty[val]->dtype != t->dtype) {
        char b[256];
        warn(v, "expects val type to match dst element type, but got '%s' for '%s'",
             type_str(v->ty[val], b, sizeof b), dtype_name(t->dtype));
    }
    return true;
}

bool verify_tile_element(V *v)
{
    bool ok = v->op->kind == OP_TGETVAL ? verify_tgetval(v) : verify_tsetval(v);
    if (!ok)
        v->errors = true;
    return ok;
}
