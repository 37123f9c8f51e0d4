/* pipe.c - which hardware pipe an op runs on (op_pipe), and the positional forms of the
 * synchronization ops that the parser and the printer share (sync_form). */
#include "pipe.h"

static const char *const pipe_names[PIPE_COUNT] = {
    "PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5",
    "PIPE_V2", "PIPE_FIX", "none",
};

const char *pipe_name(Pipe p) { return p < PIPE_COUNT ? pipe_names[p] : "?"; }

Pipe pipe_lookup(const char *s, size_t n)
{
    for (int i = 0; i < PIPE_NONE; i++)
        if (name_eq(s, n, pipe_names[i]))
            return (Pipe)i;
    return PIPE_COUNT;
}

Pipe pipe_attr(const Op *op, const char *key)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (!a || a->val->kind != AV_OPAQUE)
        return PIPE_NONE;
    Str s = a->val->u.s;
    const char *lt = memchr(s.p, '<', s.len);
    if (!lt || s.len < 2 || s.p[s.len - 1] != '>')
        return PIPE_NONE;
    Pipe p = pipe_lookup(lt + 1, (size_t)(s.p + s.len - 1 - (lt + 1)));
    return p == PIPE_COUNT ? PIPE_NONE : p;
}

/* The memory space of the tile in role r, or -1. */
static int role_loc(const Func *f, const Op *op, RoleId r)
{
    int i = op_role(op->kind, r);
    if (i < 0)
        return -1;
    ValueId v[MAX_ROLES];
    ir_op_roles(op, v);
    if (v[i] == NO_VALUE)
        return -1;
    const Type *t = f->values[v[i]].type;
    return type_is_tile(t) ? t->tile.loc : -1;
}

/* tmov: by where the bytes come from and go (pto-isa's TMOV paths). */
static Pipe move_pipe(int src, int dst)
{
    if (src == LOC_ACC)
        return PIPE_FIX;
    if (src == LOC_MAT)
        return PIPE_MTE1;
    if (src == LOC_VEC && dst == LOC_MAT)
        return PIPE_MTE3;
    return PIPE_V;
}

/* The FIFO ops by the data they move: a push leaves from where its tile is (FIX from acc,
 * MTE3 from vec), a pop fills its entry by DMA (MTE2, as PTOAS's A2/A3 lowering does); the
 * other FIFO ops (initialization, talloc, tfree) are scalar handshakes. */
static Pipe fifo_pipe(const Func *f, const Op *op)
{
    if (op->kind == OP_TPUSH_TO_AIV || op->kind == OP_TPUSH_TO_AIC) {
        const Type *t = op->nopnds ? f->values[op->opnds[0]].type : NULL;
        if (!type_is_tile(t) && !(t && t->kind == TY_MULTI_TILE))
            return PIPE_S;
        return t->tile.loc == LOC_ACC ? PIPE_FIX : PIPE_MTE3;
    }
    if (op->kind == OP_TPOP_FROM_AIC || op->kind == OP_TPOP_FROM_AIV)
        return PIPE_MTE2;
    return PIPE_S;
}

Pipe op_pipe(const Func *f, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    if (in->opflags & OF_VEC)
        return PIPE_V;
    switch (in->cls) {
    case OC_QUANT: case OC_MX_QUANT: case OC_DEQUANT:
        return PIPE_V;
    case OC_GEMV:
        return PIPE_M;
    case OC_LOAD:
    case OC_MGATHER:
    case OC_PREFETCH:
        return PIPE_MTE2;
    case OC_MSCATTER:
        return PIPE_MTE3;
    case OC_STORE:
        return role_loc(f, op, ROLE_SRC) == LOC_ACC ? PIPE_FIX : PIPE_MTE3;
    case OC_MOVE:
        return move_pipe(role_loc(f, op, ROLE_SRC), role_loc(f, op, ROLE_DST));
    case OC_MATMUL:
        return PIPE_M;
    case OC_EXTRACT: case OC_INSERT: /* textract/tinsert: as the tmov of the same spaces */
        return move_pipe(role_loc(f, op, ROLE_SRC), role_loc(f, op, ROLE_DST));
    case OC_TRANS:
        return PIPE_V;
    case OC_GETVAL: case OC_SETVAL: /* the scalar unit reads and writes the tile's bytes */
        return PIPE_S;
    case OC_SYNC:
        if (op->kind == OP_SET_FLAG || op->kind == OP_SET_FLAG_DYN)
            return pipe_attr(op, "src_pipe");
        if (op->kind == OP_WAIT_FLAG || op->kind == OP_WAIT_FLAG_DYN)
            return pipe_attr(op, "dst_pipe");
        if (op->kind == OP_BARRIER || op->kind == OP_SYNC_SET || op->kind == OP_SYNC_WAIT)
            return pipe_attr(op, "pipe");
        return PIPE_S;
    case OC_FIFO:
        return fifo_pipe(f, op);
    case OC_BLOCK_ID:
    case OC_CONSTANT: case OC_INT_BIN: case OC_FLOAT_BIN: case OC_FLOAT_UN: case OC_CMPI: case OC_SELECT:
    case OC_CAST: case OC_CALL: case OC_LOAD_SCALAR: case OC_STORE_SCALAR:
    case OC_FOR: case OC_IF: case OC_WHILE: case OC_CONDITION: case OC_YIELD: case OC_RETURN:
        return PIPE_S;
    default:                 /* allocations, views, tassign, sections: no pipe; the other
                                tile ops compute on the vector unit */
        return in->opflags & (OF_READS | OF_WRITES) ? PIPE_V : PIPE_NONE;
    }
}

/* ---- the sync ops' positional forms ----------------------------------------------------- */
#define PIPE_ITEM(k) {k, SI_ATTR, "pipe", false}
#define EVENT_ITEM {"event_id", SI_ATTR, "event", false}
static const SyncForm sync_forms[] = {
    {OP_SET_FLAG, true, 3, {PIPE_ITEM("src_pipe"), PIPE_ITEM("dst_pipe"), EVENT_ITEM}},
    {OP_WAIT_FLAG, true, 3, {PIPE_ITEM("src_pipe"), PIPE_ITEM("dst_pipe"), EVENT_ITEM}},
    {OP_SET_FLAG_DYN, true, 3, {PIPE_ITEM("src_pipe"), PIPE_ITEM("dst_pipe"), {"event_id", SI_OPERAND, NULL, false}}},
    {OP_WAIT_FLAG_DYN, true, 3, {PIPE_ITEM("src_pipe"), PIPE_ITEM("dst_pipe"), {"event_id", SI_OPERAND, NULL, false}}},
    {OP_RECORD_EVENT, true, 3,
     {{"src_op", SI_ANY, "pipe_event_type", false}, {"dst_op", SI_ANY, "pipe_event_type", false}, EVENT_ITEM}},
    {OP_WAIT_EVENT, true, 3,
     {{"src_op", SI_ANY, "pipe_event_type", false}, {"dst_op", SI_ANY, "pipe_event_type", false}, EVENT_ITEM}},
    {OP_BARRIER, false, 1, {PIPE_ITEM("pipe")}},
    {OP_BARRIER_SYNC, true, 1, {{"op_type", SI_ATTR, "sync_op_type", false}}},
    {OP_GET_BUF, true, 3,
     {{"op_type", SI_ANY, "pipe_event_type", false}, {"buf_id", SI_INT, NULL, false}, {"mode", SI_INT, NULL, true}}},
    {OP_RLS_BUF, true, 3,
     {{"op_type", SI_ANY, "pipe_event_type", false}, {"buf_id", SI_INT, NULL, false}, {"mode", SI_INT, NULL, true}}},
    {OP_SYNC_SET, false, 2, {PIPE_ITEM("pipe"), {"event_id", SI_INT_OR_OPERAND, NULL, false}}},
    {OP_SYNC_WAIT, false, 2, {PIPE_ITEM("pipe"), {"event_id", SI_INT_OR_OPERAND, NULL, false}}},
    {OP_FENCE_BARRIER_ALL, false, 1, {{"scope", SI_ATTR, "fence_scope", false}}},
};

const SyncForm *sync_form(OpKind k)
{
    for (size_t i = 0; i < sizeof sync_forms / sizeof sync_forms[0]; i++)
        if (sync_forms[i].op == k)
            return &sync_forms[i];
    return NULL;
}

int pipe_op_results(OpKind k)
{
    switch (op_info(k)->cls) {
    case OC_BLOCK_ID:
    case OC_MULTI_TILE:
        return 1;
    case OC_SYNC:
    case OC_SECTION:
        return 0;
    case OC_FIFO:
        return k == OP_RESERVE_BUFFER || k == OP_IMPORT_RESERVED_BUFFER || k == OP_TALLOC_TO_AIV ||
               k == OP_TALLOC_TO_AIC || k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV;
    default:
        return -1;
    }
}

/* ---- what sync ops order (the race checker) --------------------------------------------- */

/* The word inside an attribute's angle brackets (#pto.pipe<PIPE_V>, <EVENT_ID0>); an empty
 * Str when there is none. */
static Str attr_word(const Op *op, const char *key)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    Str none = {NULL, 0};
    if (!a || a->val->kind != AV_OPAQUE)
        return none;
    Str s = a->val->u.s;
    const char *lt = memchr(s.p, '<', s.len);
    if (!lt || s.len < 2 || s.p[s.len - 1] != '>')
        return none;
    return (Str){lt + 1, (uint32_t)(s.p + s.len - 1 - (lt + 1))};
}

/* The pipe of a #pto.pipe_event_type / #pto.sync_op_type word (PTOAS's mapSyncOpTypeToPipe), or
 * of a pipe's name; PIPE_NONE if neither. */
static Pipe op_type_pipe(Str w)
{
    static const struct {
        const char *name;
        Pipe pipe;
    } types[] = {
        {"TLOAD", PIPE_MTE2}, {"TSTORE_VEC", PIPE_MTE3}, {"TSTORE_ACC", PIPE_FIX}, {"TMOV_M2L", PIPE_MTE1},
        {"TMOV_M2B", PIPE_MTE1}, {"TMOV_M2S", PIPE_FIX}, {"TMOV_M2V", PIPE_V}, {"TMOV_V2M", PIPE_FIX},
        {"TMATMUL", PIPE_M}, {"TVEC", PIPE_V}, {"TVECWAIT_EVENT", PIPE_V},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (name_eq(w.p, w.len, types[i].name))
            return types[i].pipe;
    Pipe p = w.p ? pipe_lookup(w.p, w.len) : PIPE_COUNT;
    return p == PIPE_COUNT ? PIPE_NONE : p;
}

/* EVENT_IDn: n; -1 if the word is not one. */
static int64_t event_number(Str w)
{
    if (!w.p || w.len <= 8 || memcmp(w.p, "EVENT_ID", 8) != 0)
        return -1;
    int64_t n = 0;
    for (uint32_t i = 8; i < w.len; i++) {
        if (w.p[i] < '0' || w.p[i] > '9' || n > 1000000)
            return -1;
        n = n * 10 + (w.p[i] - '0');
    }
    return n;
}

bool sync_order(const Op *op, SyncOrder *o)
{
    memset(o, 0, sizeof *o);
    o->id_val = NO_VALUE;
    o->dst = PIPE_NONE;
    switch (op->kind) {
    case OP_SET_FLAG: case OP_WAIT_FLAG: case OP_SET_FLAG_DYN: case OP_WAIT_FLAG_DYN:
    case OP_RECORD_EVENT: case OP_WAIT_EVENT: {
        bool ev = op->kind == OP_RECORD_EVENT || op->kind == OP_WAIT_EVENT;
        o->kind = op->kind == OP_SET_FLAG || op->kind == OP_SET_FLAG_DYN || op->kind == OP_RECORD_EVENT ? SO_SET_FLAG
                                                                                                      : SO_WAIT_FLAG;
        o->pipe = ev ? op_type_pipe(attr_word(op, "src_op")) : pipe_attr(op, "src_pipe");
        o->dst = ev ? op_type_pipe(attr_word(op, "dst_op")) : pipe_attr(op, "dst_pipe");
        if (op->kind == OP_SET_FLAG_DYN || op->kind == OP_WAIT_FLAG_DYN)
            o->id_val = op->nopnds ? op->opnds[0] : NO_VALUE;
        else
            o->id = event_number(attr_word(op, "event_id"));
        return o->pipe != PIPE_NONE && o->dst != PIPE_NONE && (o->id_val != NO_VALUE || o->id >= 0);
    }
    case OP_BARRIER: case OP_BARRIER_SYNC:
        o->kind = SO_BARRIER;
        o->pipe = op->kind == OP_BARRIER ? pipe_attr(op, "pipe") : op_type_pipe(attr_word(op, "op_type"));
        return o->pipe != PIPE_NONE;
    case OP_GET_BUF: case OP_RLS_BUF: {
        const Attr *id = ir_attr_find(op->attrs, op->nattrs, "buf_id");
        o->kind = op->kind == OP_GET_BUF ? SO_GET_BUF : SO_RLS_BUF;
        o->pipe = op_type_pipe(attr_word(op, "op_type"));
        o->id = id && id->val->kind == AV_INT ? id->val->u.i : -1;
        return o->pipe != PIPE_NONE && o->id >= 0;
    }
    default:
        return false;
    }
}

/* The ops by which a kernel orders its own pipes (not the cross-core signals, not fences). */
static bool orders_pipes(OpKind k)
{
    return k == OP_SET_FLAG || k == OP_WAIT_FLAG || k == OP_SET_FLAG_DYN || k == OP_WAIT_FLAG_DYN ||
           k == OP_BARRIER || k == OP_BARRIER_SYNC || k == OP_RECORD_EVENT || k == OP_WAIT_EVENT ||
           k == OP_GET_BUF || k == OP_RLS_BUF;
}

bool pipe_func_auto_synced(const Func *f)
{
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op))
        if (orders_pipes(op->kind))
            return false;
    return true;
}
