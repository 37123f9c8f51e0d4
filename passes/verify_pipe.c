/* verify_pipe.c - PTOAS's rules for the pipe, FIFO, multi-buffer and synchronization ops
 * (issue 23; docs/verify.md "Pipes and FIFOs"): which kernel kind may hold each op, how a
 * FIFO op finds its initialize_pipe by id, reserve/import pairs across functions, and the
 * op-local checks of the flags and block ids. Messages are PTOAS's (lib/PTO/IR/PTO.cpp). */
#include <stdlib.h>
#include <string.h>
#include "pipe.h"
#include "verify_int.h"

static bool fail(V *v, const char *fmt, const char *a, long long x)
{
    /* one or two arguments, as the messages need */
    if (a)
        verify_error(v, fmt, a, x);
    else
        verify_error(v, fmt, x);
    v->errors = true;
    return false;
}
#define FAIL(v, msg) fail((v), "%s", (msg), 0)

static bool need_attrs(V *v, const char *const *keys);

/* An integer attribute (AV_INT) or dflt when absent; *ok false when of another kind. */
static long long int_attr(const Op *op, const char *key, long long dflt, bool *present)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (present)
        *present = a && a->val && a->val->kind == AV_INT;
    return a && a->val && a->val->kind == AV_INT ? a->val->u.i : dflt;
}

static bool bool_attr(const Op *op, const char *key, bool *present)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    *present = a && a->val && a->val->kind == AV_BOOL;
    return *present && a->val->u.b;
}

static const AttrValue *str_attr(const Op *op, const char *key, AttrValueKind k)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    return a && a->val && a->val->kind == k ? a->val : NULL;
}

static bool same_str(const AttrValue *a, const AttrValue *b) { return a && b && a->u.s.len == b->u.s.len &&
                                                                       memcmp(a->u.s.p, b->u.s.p, a->u.s.len) == 0; }

/* ---- kernel kinds ---------------------------------------------------------------------- */
enum { KK_NONE = -1, KK_CUBE = 0, KK_VECTOR = 1 };

/* The core kind an op runs under: an enclosing section's, else its function's
 * pto.kernel_kind, else KK_NONE. */
static int op_core_kind(const Func *f, const Op *op)
{
    for (const Op *o = ir_block_owner(op->parent); o; o = ir_block_owner(o->parent)) {
        if (o->kind == OP_SECTION_CUBE)
            return KK_CUBE;
        if (o->kind == OP_SECTION_VECTOR)
            return KK_VECTOR;
    }
    const Attr *k = ir_attr_find(f->attrs, f->nattrs, "pto.kernel_kind");
    if (k && k->val->kind == AV_ENUM && k->val->u.e.kind == EK_KERNEL_KIND)
        return k->val->u.e.value;
    return KK_NONE;
}

static bool need_kind(V *v, int kind)
{
    if (op_core_kind(v->f, v->op) == kind)
        return true;
    return FAIL(v, kind == KK_CUBE ? "must be inside a cube kernel function or section"
                                   : "must be inside a vector kernel function or section");
}

/* ---- reserve_buffer / import_reserved_buffer -------------------------------------------- */
static const Op *find_reserve(const Func *f, const AttrValue *name)
{
    for (const Op *o = ir_first_op(f); o; o = ir_next_op(o))
        if (o->kind == OP_RESERVE_BUFFER && same_str(str_attr(o, "name", AV_STRING), name))
            return o;
    return NULL;
}

static bool verify_reserve(V *v)
{
    const Op *op = v->op;
    const Type *t = op->nres ? v->f->values[op->res[0]].type : NULL;
    if (t && (t->kind != TY_SCALAR || t->dtype != DT_I32)) {
        char b[128];
        verify_error(v, "result #0 must be 32-bit signless integer, but got '%s'", type_str(t, b, sizeof b));
        v->errors = true;
        return false;
    }
    if (int_attr(op, "size", 0, NULL) <= 0)
        return FAIL(v, "expects 'size' to be greater than 0");
    const Attr *loc = ir_attr_find(op->attrs, op->nattrs, "location");
    if (!loc || loc->val->kind != AV_ENUM || loc->val->u.e.kind != EK_ADDRESS_SPACE ||
        (strcmp(enum_info[EK_ADDRESS_SPACE].names[loc->val->u.e.value], "vec") != 0 &&
         strcmp(enum_info[EK_ADDRESS_SPACE].names[loc->val->u.e.value], "mat") != 0))
        return FAIL(v, "expects 'location' to be #pto.address_space<vec> or #pto.address_space<mat>");
    bool has_auto, has_base;
    bool autoalloc = bool_attr(op, "autoAlloc", &has_auto);
    long long base = int_attr(op, "base", 0, &has_base);
    if (!autoalloc && !has_base)
        return FAIL(v, "expects 'base' when 'auto' is false");
    if (has_base && base < 0)
        return FAIL(v, "expects 'base' to be non-negative when present");
    const AttrValue *name = str_attr(op, "name", AV_STRING);
    int same = 0, before = 0;
    bool seen = false; /* op passed in the walk */
    for (const Op *o = ir_first_op(v->f); o; o = ir_next_op(o)) {
        bool hit = o->kind == OP_RESERVE_BUFFER && same_str(str_attr(o, "name", AV_STRING), name);
        seen |= o == op;
        same += hit;
        before += hit && !seen;
    }
    if (same > 1 && !before) /* MLIR stops at the first op that fails */
        return FAIL(v, "requires 'name' to be unique within the function");
    return true;
}

/* The function peer_func names: in the op's module, else the one public definition of
 * that name in the file (a sibling module of a partitioned file). */
static const Func *peer_func(V *v, Str sym)
{
    const FuncSlot *s = ir_func_index_find(v->funcs, v->mod, sym);
    if (s && s->f)
        return s->f;
    Func probe = {0};
    probe.name = sym;
    probe.decl = true;
    s = ir_func_index_definition(v->funcs, &probe);
    return s && s->f ? s->f : NULL;
}

static bool verify_import(V *v)
{
    const Op *op = v->op;
    const AttrValue *sym = str_attr(op, "peer_func", AV_SYMBOL);
    const Func *peer = sym ? peer_func(v, sym->u.s) : NULL;
    if (!peer || peer->decl)
        return FAIL(v, "expects 'peer_func' to reference an existing func.func");
    const AttrValue *name = str_attr(op, "name", AV_STRING);
    int same = 0, before = 0;
    bool seen = false; /* op passed in the walk */
    for (const Op *o = ir_first_op(v->f); o; o = ir_next_op(o)) {
        bool hit = o->kind == OP_IMPORT_RESERVED_BUFFER && same_str(str_attr(o, "name", AV_STRING), name) &&
                   same_str(str_attr(o, "peer_func", AV_SYMBOL), sym);
        seen |= o == op;
        same += hit;
        before += hit && !seen;
    }
    if (same > 1 && !before)
        return FAIL(v, "requires (name, peer_func) to be unique within the function");
    if (!find_reserve(peer, name))
        return FAIL(v, "expects matching peer reserve_buffer to exist");
    return true;
}

/* ---- initialize_pipe ---------------------------------------------------------------------- */
static bool is_init(OpKind k) { return k == OP_AIC_INITIALIZE_PIPE || k == OP_AIV_INITIALIZE_PIPE; }

static bool has_role(const V *v, RoleId r)
{
    int i = op_role(v->op->kind, r);
    return i >= 0 && v->val[i] != NO_VALUE;
}

/* The init ops of f with pipe id (the first in *init), their count. */
static int inits_with_id(const Func *f, long long id, const Op **init)
{
    int n = 0;
    for (const Op *o = ir_first_op(f); o; o = ir_next_op(o))
        if (is_init(o->kind) && int_attr(o, "id", 0, NULL) == id) {
            if (!n && init)
                *init = o;
            n++;
        }
    return n;
}

/* Is op the first of the init ops with its id? (MLIR stops at the first op that fails.) */
static bool first_with_id(const Func *f, const Op *op, long long id)
{
    const Op *first = NULL;
    inits_with_id(f, id, &first);
    return first == op;
}

/* The consumer-buffer rules of an initialize_pipe (verifyFrontendInitCommon's second half). */
static bool verify_init_buffers(V *v, int dir, long long slot_num)
{
    const Op *op = v->op;
    bool gm_tensor = has_role(v, ROLE_GM_SLOT_TENSOR), gm_buf = has_role(v, ROLE_GM_SLOT_BUFFER);
    bool c2v = has_role(v, ROLE_C2V_CONSUMER_BUF), v2c = has_role(v, ROLE_V2C_CONSUMER_BUF);
    bool has_local;
    long long local = int_attr(op, "local_slot_num", 0, &has_local);
    if (gm_tensor) {
        if (gm_buf)
            return FAIL(v, "'gm_slot_tensor' cannot be combined with 'gm_slot_buffer'");
        if ((c2v || v2c) && (dir != 1 || !c2v || v2c))
            return FAIL(v, "GM-backed tile pipe init currently supports only dir_mask = 1 with 'gm_slot_tensor' and "
                           "'c2v_consumer_buf'");
        if (!c2v && !v2c)
            return has_local ? FAIL(v, "globaltensor pipe init does not use 'local_slot_num'") : true;
    }
    if (!c2v && !v2c)
        return FAIL(v, "expects local pipe init to provide at least one consumer buffer operand; use "
                       "'gm_slot_tensor' for globaltensor pipe entries");
    if (dir == 1 && !c2v)
        return FAIL(v, "expects 'c2v_consumer_buf' when dir_mask is 1");
    if (dir == 2 && !v2c)
        return FAIL(v, "expects 'v2c_consumer_buf' when dir_mask is 2");
    if (dir == 3 && (!c2v || !v2c))
        return FAIL(v, "expects both 'c2v_consumer_buf' and 'v2c_consumer_buf' when dir_mask is 3");
    if (has_local) {
        if (v->arch == ARCH_A5)
            return FAIL(v, "'local_slot_num' is only supported for a2/a3 frontend pipe lowering");
        if (local <= 0)
            return FAIL(v, "expects 'local_slot_num' to be greater than 0");
        if (local > slot_num) {
            verify_error(v, "expects 'local_slot_num' to be less than or equal to slot_num (%lld) for dir_mask = %d",
                         slot_num, dir);
            v->errors = true;
            return false;
        }
    }
    return true;
}

/* ---- fixpipe pipes (an init with acc_push_epilogue) ------------------------------------- */
/* The value of `key = v` in op's #pto.acc_push_epilogue<...> into buf; false when none. */
static bool epilogue(const Op *op, const char *key, char *buf, size_t n)
{
    const Attr *a = op ? ir_attr_find(op->attrs, op->nattrs, "acc_push_epilogue") : NULL;
    if (!a || a->val->kind != AV_OPAQUE)
        return false;
    Str t = a->val->u.s;
    size_t kl = strlen(key);
    for (uint32_t i = 0; i + kl < t.len; i++) {
        if (memcmp(t.p + i, key, kl) != 0 || (i && t.p[i - 1] > ' ' && t.p[i - 1] != '<' && t.p[i - 1] != ','))
            continue;
        uint32_t j = i + (uint32_t)kl;
        while (j < t.len && (t.p[j] <= ' ' || t.p[j] == '='))
            j++;
        size_t m = 0;
        while (j < t.len && t.p[j] != ',' && t.p[j] != '>' && t.p[j] > ' ' && m + 1 < n)
            buf[m++] = t.p[j++];
        buf[m] = 0;
        return true;
    }
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The rules of a fixpipe init (verifyFrontendInitCommon's last part). */
static bool verify_init_fixpipe(V *v, int dir)
{
    const Op *op = v->op;
    char quant[64];
    if (!ir_attr_find(op->attrs, op->nattrs, "acc_push_epilogue"))
        return true;
    bool has;
    if (dir != 1)
        return FAIL(v, "expects fixpipe pipe (with 'acc_push_epilogue') to have dir_mask = 1 (C2V only)");
    if (!bool_attr(op, "nosplit", &has))
        return FAIL(v, "expects fixpipe pipe (with 'acc_push_epilogue') to have nosplit = true");
    int c2v = op_role(op->kind, ROLE_C2V_CONSUMER_BUF);
    if (v->val[c2v] != NO_VALUE) {
        const Op *d = v->f->values[v->val[c2v]].def_op;
        if (!d || (d->kind != OP_RESERVE_BUFFER && d->kind != OP_IMPORT_RESERVED_BUFFER))
            return FAIL(v, "expects fixpipe pipe 'c2v_consumer_buf' to trace to reserve_buffer or "
                           "import_reserved_buffer for peer contract verification");
    }
    if (epilogue(op, "quant", quant, sizeof quant) && v->arch != ARCH_A5) {
        if (strncmp(quant, "qs322bf16_pre_", 14) == 0)
            return FAIL(v, "expects 'qs322bf16_pre_*' quantization modes to be used only on A5 target");
        if (!strcmp(quant, "qf322hif8_pre_scalar") || !strcmp(quant, "qf322fp8_pre_scalar"))
            return FAIL(v, "expects 'qf322hif8_pre_scalar'/'qf322fp8_pre_scalar' to be used only on A5 target");
    }
    return true;
}

/* The element type a fixpipe push's acc tile must have for its quant mode (PTOAS's rule
 * 10): f32, i32, or either (no_convert). */
static bool fixpipe_src_ok(const char *quant, DType d)
{
    bool f32 = d == DT_F32, i32 = dtype_int_width(d) == 32 && dtype_is_int(d);
    if (!strcmp(quant, "no_convert"))
        return f32 || i32;
    if (!strncmp(quant, "req8_", 5) || !strncmp(quant, "deqf16_", 7) || !strncmp(quant, "qs322bf16_", 10))
        return i32;
    return f32;
}

/* A fixpipe pipe's data ops: split 0; a push's acc source, its element type, and the
 * set_quant_* before it in its block. */
static bool verify_data_fixpipe(V *v, const Op *init, long long id, long long split)
{
    const Op *op = v->op;
    char quant[64];
    if (!ir_attr_find(init->attrs, init->nattrs, "acc_push_epilogue"))
        return true;
    bool aic = init->kind == OP_AIC_INITIALIZE_PIPE;
    if (op->kind == OP_TALLOC_TO_AIV && aic && split)
        return FAIL(v, "expects fixpipe TALLOC to have split = 0");
    if ((op->kind == OP_TPOP_FROM_AIC || op->kind == OP_TFREE_FROM_AIC) && !aic && split)
        return FAIL(v, op->kind == OP_TPOP_FROM_AIC ? "expects fixpipe TPOP to have split = 0"
                                                    : "expects fixpipe TFREE to have split = 0");
    if (op->kind != OP_TPUSH_TO_AIV || !aic)
        return true;
    const Type *t = v->ty[0];
    if (!type_is_tile(t))
        return FAIL(v, "expects fixpipe TPUSH source tile to be a tile type");
    if (t->tile.loc != LOC_ACC)
        return FAIL(v, "expects fixpipe TPUSH source tile to use loc=acc");
    if (split)
        return FAIL(v, "expects fixpipe TPUSH to have split = 0");
    if (!epilogue(init, "quant", quant, sizeof quant))
        return true;
    if (!fixpipe_src_ok(quant, t->tile.dtype))
        return FAIL(v, "expects fixpipe TPUSH source element type to match acc_push_epilogue.quant mode requirements");
    bool scalar = ends_with(quant, "_scalar"), vector = ends_with(quant, "_vec");
    if (!scalar && !vector)
        return true;
    OpKind want = scalar ? OP_SET_QUANT_SCALAR : OP_SET_QUANT_VECTOR;
    for (const Op *o = op->parent->first; o && o != op; o = o->next)
        if (o->kind == want && int_attr(o, "id", 0, NULL) == id)
            return true;
    verify_error(v, "expects a preceding pto.set_quant_%s with id = %lld in the same block", scalar ? "scalar" : "vector",
                 id);
    v->errors = true;
    return false;
}

/* pto.set_quant_scalar / set_quant_vector: a fixpipe producer pipe of the matching mode. */
static bool verify_set_quant(V *v)
{
    const Op *op = v->op;
    bool scalar = op->kind == OP_SET_QUANT_SCALAR;
    const Type *t = v->ty[0];
    char b[128], quant[64];
    if (scalar && t && (t->kind != TY_SCALAR || t->dtype != DT_F32)) {
        verify_error(v, "operand #0 must be 32-bit float, but got '%s'", type_str(t, b, sizeof b));
        v->errors = true;
        return false;
    }
    long long id = int_attr(op, "id", 0, NULL);
    const Op *init = NULL;
    if (inits_with_id(v->f, id, &init) != 1) {
        verify_error(v, "expects 'id' = %lld to match a frontend or lowered initialize_pipe op in the same function", id);
        v->errors = true;
        return false;
    }
    const char *why = init->kind != OP_AIC_INITIALIZE_PIPE ? "an aic_initialize_pipe or lowered producer pipe"
                       : !epilogue(init, "quant", quant, sizeof quant) ? "a fixpipe pipe (with acc_push_epilogue)"
                       : scalar && !ends_with(quant, "_scalar") ? "a pipe with scalar quantization mode, but found non-scalar mode"
                       : !scalar && !ends_with(quant, "_vec") ? "a pipe with vector quantization mode, but found non-vector mode"
                                                              : NULL;
    if (why) {
        verify_error(v, "expects 'id' = %lld to reference %s", id, why);
        v->errors = true;
        return false;
    }
    if (scalar)
        return true;
    if (!type_is_tile(t))
        return FAIL(v, "expects 'scaling_tile' to be a tile type");
    if (t->tile.loc != LOC_SCALING)
        return FAIL(v, "expects 'scaling_tile' to use loc=scaling");
    DType d = t->tile.dtype;
    if (v->arch == ARCH_A5 ? d != DT_F16 && d != DT_BF16 && d != DT_F32
                           : !(dtype_int_width(d) == 64 && (d == DT_I64 || d == DT_UI64)))
        return FAIL(v, v->arch == ARCH_A5 ? "expects 'scaling_tile' element type to be f16, bf16, or f32 on A5"
                                          : "expects 'scaling_tile' element type to be packed i64/ui64 on A3");
    return true;
}

/* ---- the fixpipe contract between the cube's and the vector's init (PTOAS's
 * AicInitializePipeOp / AivInitializePipeOp verifiers) ------------------------------------- */
/* The definition of an init's c2v_consumer_buf, or NULL. */
static const Op *c2v_def(const Func *f, const Op *init)
{
    int i = op_role(init->kind, ROLE_C2V_CONSUMER_BUF);
    if (i < 0 || !init->seg[i])
        return NULL;
    uint32_t at = 0;
    for (int r = 0; r < i; r++)
        at += init->seg[r];
    return f->values[init->opnds[at]].def_op;
}

/* A quant mode's consumer and producer element types: 'f' f32, 'i' signless i32, 'h' f16,
 * 'b' bf16, '8' si8 or ui8, 's' si8, 'H' hif8, 'e' an E4M3-like f8; no_convert: f32 or i32, both the same. */
typedef struct QuantTypes { const char *quant; char dst, src; } QuantTypes;
static const QuantTypes quant_types[] = {
    {"f32_f16", 'h', 'f'}, {"deqf16_scalar", 'h', 'i'}, {"deqf16_vec", 'h', 'i'}, {"qf322f16_pre_scalar", 'h', 'f'},
    {"f32_bf16", 'b', 'f'}, {"qf322bf16_pre_scalar", 'b', 'f'}, {"qs322bf16_pre_scalar", 'b', 'i'},
    {"qs322bf16_pre_vec", 'b', 'i'}, {"req8_scalar", '8', 'i'}, {"qf322b8_pre_scalar", '8', 'f'},
    {"req8_vec", 's', 'i'}, {"qf322b8_pre_vec", 's', 'f'}, {"qf322hif8_pre_scalar", 'H', 'f'},
    {"qf322fp8_pre_scalar", 'e', 'f'},
};

static bool dtype_class(DType d, char c)
{
    switch (c) {
    case 'f': return d == DT_F32;
    case 'i': return d == DT_I32;
    case 'h': return d == DT_F16;
    case 'b': return d == DT_BF16;
    case '8': return d == DT_SI8 || d == DT_UI8;
    case 's': return d == DT_SI8;
    case 'H': return d == DT_HIF8;
    default: return dtype_is_f8e4m3_like(d);
    }
}

/* src NONE: the consumer's element type alone (matchesFixpipeConsumerElementType). */
static bool quant_types_ok(const char *quant, DType src, DType dst)
{
    if (!strcmp(quant, "no_convert"))
        return (dst == DT_F32 || dst == DT_I32) && (src == DT_NONE || src == dst);
    for (size_t i = 0; i < sizeof quant_types / sizeof quant_types[0]; i++)
        if (!strcmp(quant, quant_types[i].quant))
            return dtype_class(dst, quant_types[i].dst) && (src == DT_NONE || dtype_class(src, quant_types[i].src));
    return true;
}

/* The vec tile layout each fixpipe layout writes. */
static bool layout_ok(const char *layout, const TileBody *t)
{
    if (t->loc != LOC_VEC)
        return false;
    if (!strcmp(layout, "nz2nd"))
        return t->blayout == BL_ROW_MAJOR && t->slayout == SL_NONE_BOX;
    if (!strcmp(layout, "nz2dn"))
        return t->blayout == BL_COL_MAJOR && t->slayout == SL_NONE_BOX;
    if (!strcmp(layout, "nz2nz"))
        return t->blayout == BL_COL_MAJOR && t->slayout == SL_ROW_MAJOR;
    return true;
}

/* layout, quant and relu of mine against the peer's; self/peer name the sides in the text. */
static bool epilogue_match(V *v, const Op *mine, const Op *peer, const char *self, const char *other)
{
    static const char *const keys[] = {"layout", "quant", "relu"};
    for (int k = 0; k < 3; k++) {
        char a[64] = "", b[64] = "";
        epilogue(mine, keys[k], a, sizeof a);
        epilogue(peer, keys[k], b, sizeof b);
        if (strcmp(a, b)) {
            verify_error(v, "expects acc_push_epilogue.%s to match peer %s (%s has %s, %s has %s)", keys[k], other,
                         self, a, other, b);
            v->errors = true;
            return false;
        }
    }
    return true;
}

/* The cube side: exactly one vector init of the peer whose c2v buffer is the reserve_buffer
 * our import names, with the same epilogue. */
static bool verify_fixpipe_producer(V *v, const Op *imp)
{
    const AttrValue *sym = imp ? str_attr(imp, "peer_func", AV_SYMBOL) : NULL;
    const Func *peer = sym ? peer_func(v, sym->u.s) : NULL;
    const AttrValue *name = imp ? str_attr(imp, "name", AV_STRING) : NULL;
    const Op *match = NULL;
    int n = 0;
    for (const Op *o = peer ? ir_first_op(peer) : NULL; o; o = ir_next_op(o)) {
        const Op *d = o->kind == OP_AIV_INITIALIZE_PIPE ? c2v_def(peer, o) : NULL;
        if (d && d->kind == OP_RESERVE_BUFFER && same_str(str_attr(d, "name", AV_STRING), name))
            match = o, n++;
    }
    if (n != 1)
        return FAIL(v, "expects peer consumer function to contain a matching aiv_initialize_pipe with the same "
                       "consumer buffer contract");
    if (!ir_attr_find(match->attrs, match->nattrs, "acc_push_epilogue"))
        return FAIL(v, "expects peer consumer pipe init to also have 'acc_push_epilogue' for fixpipe contract "
                       "consistency");
    return epilogue_match(v, v->op, match, "producer", "consumer");
}

/* The vector side's peer: the one import of our reserve_buffer that names this function
 * (NULL after an error), and in its function the one cube init over it (*init). */
static const Func *fixpipe_peer(V *v, const Op *res, const Op **init)
{
    const AttrValue *name = str_attr(res, "name", AV_STRING);
    const Func *pf = NULL;
    int n = 0;
    for (uint32_t i = 0; i < v->mod->nfuncs; i++)
        for (const Op *o = ir_first_op(v->mod->funcs[i]); o; o = ir_next_op(o)) {
            const AttrValue *sym = str_attr(o, "peer_func", AV_SYMBOL);
            if (o->kind == OP_IMPORT_RESERVED_BUFFER && same_str(str_attr(o, "name", AV_STRING), name) && sym &&
                peer_func(v, sym->u.s) == v->f)
                pf = v->mod->funcs[i], n++;
        }
    if (n != 1) {
        verify_error(v, n ? "finds multiple peer import_reserved_buffer ops for consumer buffer '%.*s'"
                          : "cannot find peer import_reserved_buffer for consumer buffer '%.*s'",
                     name ? (int)name->u.s.len : 0, name ? name->u.s.p : "");
        v->errors = true;
        return NULL;
    }
    n = 0;
    for (const Op *o = ir_first_op(pf); o; o = ir_next_op(o)) {
        const Op *d = o->kind == OP_AIC_INITIALIZE_PIPE ? c2v_def(pf, o) : NULL;
        const AttrValue *sym = d && d->kind == OP_IMPORT_RESERVED_BUFFER ? str_attr(d, "peer_func", AV_SYMBOL) : NULL;
        if (sym && same_str(str_attr(d, "name", AV_STRING), name) && peer_func(v, sym->u.s) == v->f)
            *init = o, n++;
    }
    if (n != 1) {
        FAIL(v, "expects peer producer function to contain a matching aic_initialize_pipe with the same consumer "
                "buffer contract");
        return NULL;
    }
    return pf;
}

/* The vector side: the producer's epilogue, the tpop result type the pipe resolves to, its
 * element type and layout for the mode, both slot sizes, the producer's acc element types. */
static bool verify_fixpipe_consumer(V *v, const Op *res)
{
    const Op *op = v->op, *pinit = NULL;
    if (res->kind == OP_IMPORT_RESERVED_BUFFER)
        return FAIL(v, "expects consumer-side fixpipe pipe to use reserve_buffer, not import_reserved_buffer");
    const Func *pf = fixpipe_peer(v, res, &pinit);
    if (!pf)
        return false;
    if (!ir_attr_find(pinit->attrs, pinit->nattrs, "acc_push_epilogue"))
        return FAIL(v, "expects peer producer pipe init to also have 'acc_push_epilogue' for fixpipe contract "
                       "consistency");
    if (!epilogue_match(v, op, pinit, "consumer", "producer"))
        return false;
    long long id = int_attr(op, "id", 0, NULL);
    const Type *t = NULL;
    for (const Op *o = ir_first_op(v->f); o; o = ir_next_op(o)) {
        if (o->kind != OP_TPOP_FROM_AIC || int_attr(o, "id", 0, NULL) != id || !o->nres)
            continue;
        const Type *ot = v->f->values[o->res[0]].type;
        if (t && ot != t) {
            verify_error(v, "expects all tpop_from_aic results for fixpipe pipe id = %lld to use the same tile type", id);
            v->errors = true;
            return false;
        }
        t = ot;
    }
    if (!t) {
        verify_error(v, "expects at least one tpop_from_aic for fixpipe pipe id = %lld to resolve the consumer entry type",
                     id);
        v->errors = true;
        return false;
    }
    if (t->kind != TY_TILE_BUF)
        return FAIL(v, "expects fixpipe consumer tpop result to be !pto.tile_buf");
    char quant[64] = "", layout[64] = "";
    epilogue(op, "quant", quant, sizeof quant);
    epilogue(op, "layout", layout, sizeof layout);
    if (!quant_types_ok(quant, DT_NONE, t->tile.dtype))
        return fail(v, "expects consumer element type to match acc_push_epilogue.quant %s", quant, 0);
    if (!layout_ok(layout, &t->tile))
        return fail(v, "expects consumer tile layout to match acc_push_epilogue.layout %s", layout, 0);
    long long need = (long long)t->tile.rows * t->tile.cols * dtype_size(t->tile.dtype);
    if (need > 0 && int_attr(op, "slot_size", 0, NULL) < need)
        return fail(v, "expects consumer-side fixpipe slot_size to be at least %lld bytes for the resolved "
                       "post-fixpipe consumer entry", NULL, need);
    if (need > 0 && int_attr(pinit, "slot_size", 0, NULL) < need)
        return fail(v, "expects peer producer fixpipe slot_size to be at least %lld bytes for the resolved "
                       "post-fixpipe consumer entry", NULL, need);
    long long pid = int_attr(pinit, "id", 0, NULL);
    for (const Op *o = ir_first_op(pf); o; o = ir_next_op(o)) {
        if (o->kind != OP_TPUSH_TO_AIV || int_attr(o, "id", 0, NULL) != pid || !o->nopnds)
            continue;
        const Type *s = pf->values[o->opnds[0]].type;
        if (s && s->kind == TY_TILE_BUF && !quant_types_ok(quant, s->tile.dtype, t->tile.dtype))
            return fail(v, "expects producer source element type and consumer tpop result element type to satisfy "
                           "acc_push_epilogue.quant %s", quant, 0);
    }
    return true;
}

static bool verify_fixpipe_peer(V *v)
{
    const Op *op = v->op;
    if (!ir_attr_find(op->attrs, op->nattrs, "acc_push_epilogue"))
        return true;
    const Op *d = c2v_def(v->f, op);
    if (op->kind == OP_AIC_INITIALIZE_PIPE)
        return verify_fixpipe_producer(v, d && d->kind == OP_IMPORT_RESERVED_BUFFER ? d : NULL);
    if (!d)
        return FAIL(v, "expects fixpipe consumer pipe to have 'c2v_consumer_buf'");
    return verify_fixpipe_consumer(v, d);
}

static bool verify_init(V *v)
{
    const Op *op = v->op;
    if (!need_kind(v, op->kind == OP_AIC_INITIALIZE_PIPE ? KK_CUBE : KK_VECTOR))
        return false;
    long long id = int_attr(op, "id", 0, NULL);
    if (id < 0)
        return FAIL(v, "expects 'id' to be non-negative");
    if (inits_with_id(v->f, id, NULL) > 1 && first_with_id(v->f, op, id))
        return FAIL(v, "requires 'id' to be unique across frontend initialize_pipe ops in the function");
    long long dir = int_attr(op, "dir_mask", 0, NULL);
    if (dir != 1 && dir != 2 && dir != 3)
        return FAIL(v, "expects 'dir_mask' to be 1, 2, or 3");
    if (int_attr(op, "slot_size", 0, NULL) <= 0)
        return FAIL(v, "expects 'slot_size' to be greater than 0");
    bool has_num;
    long long slot_num = int_attr(op, "slot_num", dir == 3 ? 4 : 8, &has_num);
    if (has_num && slot_num <= 0)
        return FAIL(v, "expects 'slot_num' to be greater than 0");
    return verify_init_buffers(v, (int)dir, slot_num) && verify_init_fixpipe(v, (int)dir) && verify_fixpipe_peer(v);
}

/* ---- talloc / tpush / tpop / tfree ----------------------------------------------------- */
typedef struct DataRule {
    OpKind op;
    int kind;      /* the kernel kind that runs it */
    bool c2v;      /* the direction it uses */
} DataRule;

static const DataRule data_rules[] = {
    {OP_TALLOC_TO_AIV, KK_CUBE, true},    {OP_TALLOC_TO_AIC, KK_VECTOR, false},
    {OP_TPUSH_TO_AIV, KK_CUBE, true},     {OP_TPUSH_TO_AIC, KK_VECTOR, false},
    {OP_TPOP_FROM_AIC, KK_VECTOR, true},  {OP_TPOP_FROM_AIV, KK_CUBE, false},
    {OP_TFREE_FROM_AIC, KK_VECTOR, true}, {OP_TFREE_FROM_AIV, KK_CUBE, false},
};

/* Does op have an operand in role r? */
static bool op_has(const Op *op, RoleId r)
{
    int i = op_role(op->kind, r);
    return i >= 0 && op->seg[i] > 0;
}

/* The pipe entry's type: talloc's and tpop's result, tpush's tile, tfree's entry (NULL: none). */
static const Type *entry_type(const V *v)
{
    OpKind k = v->op->kind;
    if (k == OP_TALLOC_TO_AIV || k == OP_TALLOC_TO_AIC || k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV)
        return v->op->nres ? v->f->values[v->op->res[0]].type : NULL;
    int i = op_role(k, k == OP_TPUSH_TO_AIV || k == OP_TPUSH_TO_AIC ? ROLE_TILE : ROLE_ENTRY);
    return i >= 0 && v->val[i] != NO_VALUE ? v->ty[i] : NULL;
}

/* Odd splits (3, 4) need a unidirectional C2V pipe with GM slots (a gm_slot_tensor; before
 * A5 a gm_slot_buffer too) and a C2V consumer buffer (PTOAS's verifyFrontendSplitOp). */
static bool verify_odd_split(V *v, const Op *init, long long split)
{
    if (split != 3 && split != 4)
        return true;
    bool gm = op_has(init, ROLE_GM_SLOT_TENSOR) || (v->arch != ARCH_A5 && op_has(init, ROLE_GM_SLOT_BUFFER));
    if (int_attr(init, "dir_mask", 0, NULL) != 1 || !gm || !op_has(init, ROLE_C2V_CONSUMER_BUF))
        return FAIL(v, "supports odd split modes (split = 3 or 4) only for a unidirectional C2V GM-backed tile pipe "
                       "with both GM slot and C2V consumer buffers");
    return true;
}

/* The entry rules after the direction check: odd splits take tiles only; a C2V push's
 * split axis has the parity of its split; tpop's valid_row/valid_col; aiv_subblockid. */
static bool verify_entry(V *v, long long split)
{
    OpKind k = v->op->kind;
    const Type *t = entry_type(v);
    bool odd = split == 3 || split == 4;
    if (odd && t && t->kind == TY_TENSOR_VIEW)
        return FAIL(v, "supports odd split modes (split = 3 or 4) only for tile entries; the pinned pto-isa does not "
                       "implement odd GlobalTensor offsets");
    if (k == OP_TPUSH_TO_AIV && split && t && type_is_tile(t)) {
        bool rows = split == 1 || split == 3;
        int64_t n = rows ? t->tile.vrow : t->tile.vcol;
        if (n != DIM_DYNAMIC && (n % 2 != 0) != odd) {
            verify_error(v, "expects a statically %s valid-%s count for split = %lld", odd ? "odd" : "even",
                         rows ? "row" : "column", split);
            v->errors = true;
            return false;
        }
    }
    if (k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV) {
        bool row = has_role(v, ROLE_VALID_ROW), col = has_role(v, ROLE_VALID_COL);
        if (row != col)
            return FAIL(v, "expects valid_row and valid_col operands to be provided together");
        if (odd && !row && t && t->kind != TY_TENSOR_VIEW)
            return FAIL(v, "expects odd C2V split tpop to provide per-sub-core valid_row and valid_col operands");
        if (row && t && t->kind == TY_TENSOR_VIEW)
            return FAIL(v, "does not accept valid_row/valid_col when result is !pto.tensor_view");
        if (row && t && !type_is_tile(t))
            return FAIL(v, "expects tile result to be !pto.tile_buf when valid_row/valid_col operands are provided");
        if (row && t && (t->tile.vrow != DIM_DYNAMIC || t->tile.vcol != DIM_DYNAMIC))
            return FAIL(v, "expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col operands "
                           "are provided");
    }
    if ((k == OP_TPUSH_TO_AIC || k == OP_TPOP_FROM_AIC) && has_role(v, ROLE_AIV_SUBBLOCKID)) {
        if (!split)
            return FAIL(v, "expects 'aiv_subblockid' only when 'split' is 1, 2, 3, or 4");
        if (t && t->kind == TY_TENSOR_VIEW)
            return FAIL(v, "does not support 'aiv_subblockid' for !pto.tensor_view pipe entries");
        if (t && (!type_is_tile(t) || t->tile.loc != LOC_VEC))
            return FAIL(v, "expects 'aiv_subblockid' only on AIV-side vector tile pipe entries");
    }
    return true;
}

static bool verify_data(V *v)
{
    const Op *op = v->op;
    const DataRule *r = NULL;
    for (size_t i = 0; i < sizeof data_rules / sizeof data_rules[0]; i++)
        if (data_rules[i].op == op->kind)
            r = &data_rules[i];
    if (!r)
        return verify_set_quant(v);
    if (!need_kind(v, r->kind))
        return false;
    long long id = int_attr(op, "id", 0, NULL), split = int_attr(op, "split", 0, NULL);
    if (id < 0)
        return FAIL(v, "expects 'id' to be non-negative");
    if (split < 0 || split > 4)
        return FAIL(v, "expects 'split' to be 0, 1, 2, 3, or 4");
    if ((split == 3 || split == 4) && !r->c2v)
        return FAIL(v, "supports odd split modes (split = 3 or 4) only for C2V GM-backed tile pipes");
    const Op *init = NULL;
    int n = inits_with_id(v->f, id, &init);
    if (n != 1) {
        verify_error(v, n ? "expects 'id' = %lld to match exactly one frontend initialize_pipe op in the same function"
                          : "expects 'id' = %lld to match a frontend initialize_pipe op in the same function",
                     id);
        v->errors = true;
        return false;
    }
    if (!verify_odd_split(v, init, split))
        return false;
    long long dir = int_attr(init, "dir_mask", 0, NULL);
    if (r->c2v ? dir != 1 && dir != 3 : dir != 2 && dir != 3) {
        verify_error(v, "expects 'id' = %lld to reference initialize_pipe with dir_mask = %s", id,
                     r->c2v ? "1 or 3" : "2 or 3");
        v->errors = true;
        return false;
    }
    bool alloc_free = op->kind == OP_TALLOC_TO_AIV || op->kind == OP_TFREE_FROM_AIC || op->kind == OP_TFREE_FROM_AIV;
    if (alloc_free) /* PTOAS checks these two's fixpipe split first */
        return verify_data_fixpipe(v, init, id, split) && verify_entry(v, split);
    return verify_entry(v, split) && verify_data_fixpipe(v, init, id, split);
}

/* ---- split usage across the peer inits of one logical pipe (PTOAS's lowering to
 * initialize_l2l_pipe / initialize_l2g2l_pipe and its PTOInferValidatePipeInit pass) ----- */
typedef struct PeerKey {
    Str owner, name;  /* the reserving function and buffer; owner.len 0: a global-only pipe */
    long long id;     /* a global-only pipe's id */
    int dir;
} PeerKey;

/* Lowered to initialize_l2g2l_pipe (GM slots) rather than initialize_l2l_pipe? */
static bool lowers_global(const Op *init) { return op_has(init, ROLE_GM_SLOT_BUFFER) || op_has(init, ROLE_GM_SLOT_TENSOR); }

/* The key of the buffer in role r of init (in f), for direction dir; false when it has none. */
static bool addr_key(const Func *f, const Op *init, RoleId r, int dir, PeerKey *k)
{
    int i = op_role(init->kind, r);
    if (i < 0 || !init->seg[i])
        return false;
    uint32_t at = 0;
    for (int j = 0; j < i; j++)
        at += init->seg[j];
    const Op *d = f->values[init->opnds[at]].def_op;
    const AttrValue *name = d ? str_attr(d, "name", AV_STRING) : NULL;
    const AttrValue *sym = d ? str_attr(d, "peer_func", AV_SYMBOL) : NULL;
    if (!name || (d->kind != OP_RESERVE_BUFFER && !(d->kind == OP_IMPORT_RESERVED_BUFFER && sym)))
        return false;
    k->owner = d->kind == OP_RESERVE_BUFFER ? f->name : sym->u.s;
    k->name = name->u.s;
    k->id = 0;
    k->dir = dir;
    return true;
}

/* An init's keys (at most two); their count. */
static int peer_keys(const Func *f, const Op *init, PeerKey k[2])
{
    int dir = (int)int_attr(init, "dir_mask", 0, NULL);
    bool local = op_has(init, ROLE_C2V_CONSUMER_BUF) || op_has(init, ROLE_V2C_CONSUMER_BUF);
    if (lowers_global(init) && !local) {
        k[0] = (PeerKey){.id = int_attr(init, "id", 0, NULL), .dir = dir};
        return 1;
    }
    if (dir == 3)
        return addr_key(f, init, ROLE_C2V_CONSUMER_BUF, 1, &k[0]) +
               addr_key(f, init, ROLE_V2C_CONSUMER_BUF, 2, &k[addr_key(f, init, ROLE_C2V_CONSUMER_BUF, 1, &k[0])]);
    return addr_key(f, init, dir == 2 ? ROLE_V2C_CONSUMER_BUF : ROLE_C2V_CONSUMER_BUF, dir, &k[0]);
}

static bool same_key(const PeerKey *a, const PeerKey *b)
{
    return a->dir == b->dir && a->id == b->id && a->owner.len == b->owner.len && a->name.len == b->name.len &&
           (!a->owner.len || !memcmp(a->owner.p, b->owner.p, a->owner.len)) &&
           (!a->name.len || !memcmp(a->name.p, b->name.p, a->name.len));
}

static bool are_peers(const Func *fa, const Op *a, const Func *fb, const Op *b)
{
    PeerKey ka[2], kb[2];
    int na = peer_keys(fa, a, ka), nb = peer_keys(fb, b, kb);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (same_key(&ka[i], &kb[j]))
                return true;
    return false;
}

static bool is_data(OpKind k)
{
    for (size_t i = 0; i < sizeof data_rules / sizeof data_rules[0]; i++)
        if (data_rules[i].op == k)
            return true;
    return false;
}

/* The split usage of init's pipe: 0 none, 1 split 0 only, 2 split 1-4 only, 3 both. */
static int split_usage(const Func *f, const Op *init)
{
    long long id = int_attr(init, "id", 0, NULL);
    int u = 0;
    for (const Op *o = ir_first_op(f); o; o = ir_next_op(o))
        if (is_data(o->kind) && int_attr(o, "id", 0, NULL) == id &&
            ir_attr_find(o->attrs, o->nattrs, "split"))
            u |= int_attr(o, "split", 0, NULL) ? 2 : 1;
    return u;
}

typedef struct InitRef { const Func *f; const Op *op; bool in; } InitRef;

/* The module's inits in the pass's order (those lowered to initialize_l2l_pipe, then the
 * initialize_l2g2l_pipe ones); *n their count. The caller frees. */
static InitRef *module_inits(const V *v, size_t *n)
{
    size_t cap = 8;
    InitRef *r = malloc(cap * sizeof *r);
    *n = 0;
    for (int pass = 0; r && pass < 2; pass++)
        for (uint32_t i = 0; i < v->mod->nfuncs; i++)
            for (const Op *o = ir_first_op(v->mod->funcs[i]); o; o = ir_next_op(o)) {
                if (!is_init(o->kind) || lowers_global(o) != (pass == 1))
                    continue;
                if (*n == cap) {
                    InitRef *g = realloc(r, 2 * cap * sizeof *r);
                    if (!g) {
                        free(r);
                        return NULL;
                    }
                    r = g, cap *= 2;
                }
                r[(*n)++] = (InitRef){v->mod->funcs[i], o, false};
            }
    return r;
}

/* The op of the component that PTOAS's resolveNoSplitComponent reports, and its text. */
static const Op *split_conflict(const InitRef *c, size_t n, const char **msg)
{
    int expl = -1, inferred = -1;
    for (size_t i = 0; i < n; i++) {
        bool has;
        bool ns = bool_attr(c[i].op, "nosplit", &has);
        *msg = "cannot mix 'split = 0' with 'split = 1', 'split = 2', 'split = 3', or 'split = 4' on the same logical pipe";
        if (split_usage(c[i].f, c[i].op) == 3)
            return c[i].op;
        *msg = "conflicting explicit 'nosplit' across peer pipe init ops";
        if (has && expl >= 0 && expl != ns)
            return c[i].op;
        if (has)
            expl = ns;
    }
    for (size_t i = 0; i < n; i++) {
        int u = split_usage(c[i].f, c[i].op);
        *msg = "conflicting pipe split usage across peer pipe init ops";
        if ((u == 1 || u == 2) && inferred >= 0 && inferred != (u == 1))
            return c[i].op;
        if (u == 1 || u == 2)
            inferred = u == 1;
    }
    if (expl < 0 || inferred < 0 || expl == inferred)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        bool has;
        bool ns = bool_attr(c[i].op, "nosplit", &has);
        if (has && ns != inferred) {
            *msg = ns ? "explicit 'nosplit = true' conflicts with downstream users that require split = 1, 2, 3, or 4"
                      : "explicit 'nosplit = false' conflicts with downstream users that require split = 0";
            return c[i].op;
        }
    }
    return NULL;
}

/* The init's component of peers (the inits sharing a reserved buffer and direction, or a
 * global-only pipe's id) must agree on split 0 or not; reported under the lowered op's name. */
static bool verify_split_peers(V *v)
{
    size_t n = 0, m = 0;
    InitRef *all = module_inits(v, &n);
    if (!all)
        return true;
    for (size_t i = 0; i < n; i++)
        all[i].in = all[i].op == v->op;
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n && !all[i].in; j++)
                if (all[j].in && are_peers(all[i].f, all[i].op, all[j].f, all[j].op))
                    all[i].in = grew = true;
    }
    for (size_t i = 0; i < n; i++)
        if (all[i].in)
            all[m++] = all[i];
    const char *msg = "";
    const Op *bad = m > 1 ? split_conflict(all, m, &msg) : NULL;
    free(all);
    if (bad != v->op)
        return true;
    const char *saved = v->name;
    v->name = lowers_global(v->op) ? "pto.initialize_l2g2l_pipe" : "pto.initialize_l2l_pipe";
    FAIL(v, msg);
    v->name = saved;
    return false;
}

static bool verify_fifo(V *v)
{
    static const char *const reserve[] = {"name", "size", "location", "autoAlloc", NULL};
    static const char *const import[] = {"name", "peer_func", NULL};
    static const char *const init[] = {"dir_mask", "slot_size", NULL};
    static const char *const split[] = {"split", NULL};
    static const char *const none[] = {NULL};
    OpKind k = v->op->kind;
    if (!need_attrs(v, k == OP_RESERVE_BUFFER ? reserve : k == OP_IMPORT_RESERVED_BUFFER ? import
                       : is_init(k) ? init : k == OP_SET_QUANT_SCALAR || k == OP_SET_QUANT_VECTOR ? none : split))
        return false;
    switch (v->op->kind) {
    case OP_RESERVE_BUFFER: return verify_reserve(v);
    case OP_IMPORT_RESERVED_BUFFER: return verify_import(v);
    case OP_AIC_INITIALIZE_PIPE:
    case OP_AIV_INITIALIZE_PIPE: return verify_init(v) && verify_split_peers(v);
    default: return verify_data(v);
    }
}

/* ---- sync, multi-buffer ------------------------------------------------------------------ */
/* MLIR's check of a required attribute, for the generic form (the custom forms need them). */
static bool need_attrs(V *v, const char *const *keys)
{
    for (int i = 0; keys[i]; i++)
        if (!ir_attr_find(v->op->attrs, v->op->nattrs, keys[i])) {
            verify_error(v, "requires attribute '%s'", keys[i]);
            v->errors = true;
            return false;
        }
    return true;
}

/* A soft syncall's operands (PTOAS's verifySyncAllGmWorkspace, after the ODS type check of
 * used_cores): a GM pointer or a view of i32 with at least 16 elements when static. */
static bool verify_workspace(V *v)
{
    const Op *op = v->op;
    char b[128];
    const Type *u = op->seg[1] ? v->f->values[op->opnds[op->seg[0]]].type : NULL;
    if (u && (u->kind != TY_SCALAR || u->dtype != DT_I32)) {
        verify_error(v, "operand #%u must be 32-bit signless integer, but got '%s'", op->seg[0], type_str(u, b, sizeof b));
        v->errors = true;
        return false;
    }
    const Type *t = v->f->values[op->opnds[0]].type;
    if (!t)
        return true;
    if (t->kind == TY_PTR && t->ptr_space != PS_DEFAULT && t->ptr_space != PS_GM)
        return FAIL(v, "expects gm_workspace to be in GM address space");
    if (t->kind != TY_PTR && t->kind != TY_TENSOR_VIEW && t->kind != TY_PART_VIEW)
        return FAIL(v, "expects gm_workspace to be a GM ptr/tensor_view/partition_view");
    if (dtype_int_width(t->dtype) != 32 || !dtype_is_int(t->dtype))
        return FAIL(v, "expects gm_workspace element type to be i32");
    if (t->kind == TY_PTR)
        return true;
    int64_t cap = 1;
    for (uint32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] == DIM_DYNAMIC)
            return true;
        if (t->dims[i] <= 0)
            return FAIL(v, "expects gm_workspace shape to be positive");
        cap = cap > INT64_MAX / t->dims[i] ? INT64_MAX : cap * t->dims[i];
    }
    if (cap < 16) {
        verify_error(v, "expects gm_workspace to contain at least 16 i32 elements (64 bytes), but static capacity is %lld",
                     (long long)cap);
        v->errors = true;
        return false;
    }
    return true;
}

/* == MLIR27 == PTOAS's SetFFTsOp: one !pto.ptr of i64 (or i8) */
static bool verify_set_ffts(V *v)
{
    const Op *op = v->op;
    const Type *t = op->nopnds == 1 ? v->f->values[op->opnds[0]].type : NULL;
    if (op->nopnds != 1)
        return fail(v, "expects one operand, but got %lld", NULL, op->nopnds);
    if (!t || t->kind != TY_PTR)
        return FAIL(v, "expects a !pto.ptr operand");
    if (t->dtype != DT_I64 && t->dtype != DT_I8)
        return FAIL(v, "expects element type i64 (or i8)");
    return true;
}

static bool verify_sync(V *v)
{
    const Op *op = v->op;
    if (op->kind == OP_SET_FFTS)
        return verify_set_ffts(v);
    const SyncForm *f = sync_form(op->kind);
    const char *keys[4] = {NULL};
    for (int i = 0, n = 0; f && i < f->n; i++)
        if (!f->items[i].optional && f->items[i].kind != SI_OPERAND && f->items[i].kind != SI_INT_OR_OPERAND)
            keys[n++] = f->items[i].key;
    static const char *const syncall[] = {"mode", "core_type", NULL};
    if (!need_attrs(v, op->kind == OP_SYNCALL ? syncall : keys))
        return false;
    if (op->kind == OP_GET_BUF || op->kind == OP_RLS_BUF) {
        long long id = int_attr(op, "buf_id", 0, NULL);
        if (id < 0 || id > 31)
            return FAIL(v, "expects 'buf_id' in range [0, 31]");
        if (int_attr(op, "mode", 0, NULL) < 0)
            return FAIL(v, "expects 'mode' to be non-negative");
    }
    if (op->kind == OP_SYNCALL) {
        bool has;
        bool hard = opaque_attr(op, "mode", "<hard>", &has);
        if (hard && op->nopnds)
            return FAIL(v, "expects hard syncall to have no gm_workspace or used_cores");
        if (!hard && !op->seg[0])
            return FAIL(v, "expects soft syncall to provide gm_workspace");
        if (!hard && !verify_workspace(v))
            return false;
    }
    if (op->kind == OP_SYNC_SET || op->kind == OP_SYNC_WAIT) {
        bool stat = ir_attr_find(op->attrs, op->nattrs, "event_id") != NULL;
        if (stat == (op->nopnds > 0))
            return FAIL(v, "expects exactly one event-id form: static attr or dynamic index operand");
    }
    return true;
}

static bool verify_multi_tile(V *v)
{
    const Op *op = v->op;
    if (op->kind == OP_ALLOC_MULTI_TILE) {
        if (ir_attr_find(op->attrs, op->nattrs, "pto.multi_buffer_addrs")) {
            /* the planner's slot addresses: not the input's to give (PTOAS's driver, no 'op' prefix) */
            diag_error(v->d, op->name_span, "attribute 'pto.multi_buffer_addrs' is reserved for pto-plan-memory");
            v->errors = true;
            return false;
        }
        const Type *t = op->nres ? v->f->values[op->res[0]].type : NULL;
        if (!t || t->kind != TY_MULTI_TILE)
            return true; /* the parser's */
        if (t->tile.compact == 2) /* row_plus_one */
            return FAIL(v, "multi_tile_buf slot uses row_plus_one compaction, whose padded storage footprint "
                           "exceeds product(shape) and would overlap adjacent multi-buffer slots; use a compact "
                           "(non-row_plus_one) slot layout or a single pto.alloc_tile");
        bool need_vr = t->tile.vrow == DIM_DYNAMIC, need_vc = t->tile.vcol == DIM_DYNAMIC;
        if (has_role(v, ROLE_VALID_ROW) != need_vr) {
            verify_error(v, need_vr ? "valid_row operand is required because slot v_row is ?"
                                    : "valid_row operand must be absent because slot v_row is %lld",
                         (long long)t->tile.vrow);
            v->errors = true;
            return false;
        }
        if (has_role(v, ROLE_VALID_COL) != need_vc) {
            verify_error(v, need_vc ? "valid_col operand is required because slot v_col is ?"
                                    : "valid_col operand must be absent because slot v_col is %lld",
                         (long long)t->tile.vcol);
            v->errors = true;
            return false;
        }
        return true;
    }
    const Type *src = v->ty[0], *res = op->nres ? v->f->values[op->res[0]].type : NULL;
    if (!src || !res || src->kind != TY_MULTI_TILE)
        return true;
    if (res->kind != TY_TILE_BUF || memcmp(&res->tile, &src->tile, sizeof res->tile) != 0) {
        char a[256], b[256];
        StrBuf sb = {0};
        type_print(&sb, src);
        /* the slot's spelling: the multi-buffer's without its count */
        snprintf(a, sizeof a, "!pto.tile_buf<%.*s>", (int)(strrchr(sb.p, ',') - sb.p - 20), sb.p + 20);
        sb_free(&sb);
        verify_error(v, "result tile_buf must match the multi_tile_buf slot type: expected %s, got %s", a,
                     type_str(res, b, sizeof b));
        v->errors = true;
        return false;
    }
    int64_t k;
    if (ir_const_int(v->f, v->val[1], &k) && (k < 0 || k >= (int64_t)src->count)) {
        verify_error(v, "constant slot %lld is out of range for multi_tile_buf count=%u", (long long)k, src->count);
        v->errors = true;
        return false;
    }
    return true;
}

/* == MLIR27 == PTOAS's first rule of the FIFO ops after the buffers: the fixpipe
 * attributes PTOIR does not publish, which its formats' trailing attr-dict would take */
static bool unpublished_fixpipe_attr(V *v)
{
    static const char *const names[] = {"stPhase", "st_phase", "atomicType", "atomic_type", "subBlockId",
                                        "subBlockid", "sub_blockid", "clipReluMode", "clip_relu_mode",
                                        "isChannelSplit", "is_channel_split", "channelSplit", "channel_split"};
    const Op *op = v->op;
    if (op->kind == OP_RESERVE_BUFFER || op->kind == OP_IMPORT_RESERVED_BUFFER)
        return false;
    for (uint32_t i = 0; i < op->nattrs; i++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (str_eq(op->attrs[i].key, names[k], strlen(names[k]))) {
                verify_error(v, "does not allow unpublished fixpipe attr '%s'; STPhase / AtomicType / SubBlockId / "
                                "ClipReluMode / IsChannelSplit are not part of the PTOIR frontend surface",
                             names[k]);
                v->errors = true;
                return true;
            }
    return false;
}

bool verify_pipe_op(V *v)
{
    switch (op_info(v->op->kind)->cls) {
    case OC_FIFO: return !unpublished_fixpipe_attr(v) && verify_fifo(v);
    case OC_SYNC: return verify_sync(v);
    case OC_MULTI_TILE: return verify_multi_tile(v);
    default: return true; /* block ids, sections: nothing more than the form */
    }
}
