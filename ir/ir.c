/* ir.c - the op record (ops.def) expanded into OpInfo, and the IR builders. */
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "ptort.h" /* the runtime entry points and enums ops.def names */

/* One role of a row: its id and ROLE_* flags (the IN/OUT/... macros of ops.def). */
typedef struct RoleSpec {
    RoleId id;
    uint8_t flags;
} RoleSpec;

/* One runtime call argument of a row (the A_* macros), its role not yet an index. */
typedef struct ArgSpec {
    int kind;                     /* ARG_*; -1 ends the list */
    RoleId role;
    RtAttr attr;
    const char *text;
    int code;
} ArgSpec;

#define IN(r) {ROLE_##r, 0},
#define IN_OPT(r) {ROLE_##r, ROLE_OPT},
#define IN_VAR(r) {ROLE_##r, ROLE_VAR},
#define IN_GM(r) {ROLE_##r, ROLE_GM},
#define IN_GM_OPT(r) {ROLE_##r, ROLE_GM | ROLE_OPT},
#define IN_NUM(r) {ROLE_##r, ROLE_NUM},
#define IN_NUM_OPT(r) {ROLE_##r, ROLE_NUM | ROLE_OPT},
#define NUM(r) {ROLE_##r, ROLE_NUM},
#define NUM_VAR(r) {ROLE_##r, ROLE_NUM | ROLE_VAR},
#define OUT(r) {ROLE_##r, ROLE_OUT},
#define OUT_OPT(r) {ROLE_##r, ROLE_OUT | ROLE_OPT},
#define OUT_GM(r) {ROLE_##r, ROLE_OUT | ROLE_GM},
#define SCR(r) {ROLE_##r, ROLE_OUT | ROLE_SCRATCH},
#define SCR_OPT(r) {ROLE_##r, ROLE_OUT | ROLE_SCRATCH | ROLE_OPT},
#define IN_SCR_OPT(r) {ROLE_##r, ROLE_SCRATCH | ROLE_OPT},
#define IN_KW(r) {ROLE_##r, ROLE_NUM | ROLE_OPT | ROLE_KW},
/* the args: each names an identifier that must exist (a role, an RtAttr, a runtime enum) */
#define RT(f) #f
#define NORT NULL
#define A_ROLE(r) {ARG_ROLE, ROLE_##r, RA_COUNT, NULL, 0},
#define A_ATTR(a) {ARG_ATTR, ROLE_COUNT, RA_##a, NULL, 0},
#define A_VOP(x) {ARG_LIT, ROLE_COUNT, RA_COUNT, "PTORT_VOP_" #x, PTORT_VOP_##x},
#define A_SOP(x) {ARG_LIT, ROLE_COUNT, RA_COUNT, "PTORT_SOP_" #x, PTORT_SOP_##x},
#define A_NULL {ARG_LIT, ROLE_COUNT, RA_COUNT, "NULL", 0},
#define DT(a3, a5, m3, m5, var) {a3, a5, m3, m5, var}
#define NODT {0, 0, NULL, NULL, V_NONE}
#define AT_ENUM(key, ek, sum) {#key, OA_ENUM, ek, NULL, sum},
#define AT_OPAQUE(key, kind, sum) {#key, OA_OPAQUE, -1, #kind, sum},
#define AT_BOOL(key) {#key, OA_BOOL, -1, NULL, "bool attribute"},

static const struct {
    const char *name, *alias;
    OpSyntax syntax;
    OpClass cls;
    unsigned flags;
    const char *rt;
    ArgSpec args[MAX_ARGS + 1];     /* then {-1} */
    RoleSpec roles[MAX_ROLES + 1];  /* then {ROLE_COUNT, 0} */
    struct {
        unsigned a3, a5;
        const char *msg_a3, *msg_a5;
        OpVariant variant;
    } dt;
    OpAttr attrs[MAX_OP_ATTRS + 1]; /* then {NULL} */
    const char *summary;
} op_rows[OP_COUNT] = {
#define OP(id, name, alias, syn, cls, flags, rt, args, roles, dt, attrs, summary) \
    [OP_##id] = {name, alias, syn, cls, flags, rt, {args {-1, ROLE_COUNT, RA_COUNT, NULL, 0}},     \
                 {roles {ROLE_COUNT, 0}}, dt, {attrs {NULL, OA_BOOL, -1, NULL, NULL}}, summary},
#include "ops.def"
#undef OP
};

/* the number of roles, args and attributes per row (a list may be empty, so count here) */
static const struct {
    uint8_t nroles, nargs, nattrs;
} op_counts[OP_COUNT] = {
#define OP(id, name, alias, syn, cls, flags, rt, args, roles, dt, attrs, summary)                 \
    [OP_##id] = {(uint8_t)(sizeof((RoleSpec[]){roles {ROLE_COUNT, 0}}) / sizeof(RoleSpec) - 1),  \
                 (uint8_t)(sizeof((ArgSpec[]){args {-1, ROLE_COUNT, RA_COUNT, NULL, 0}}) / sizeof(ArgSpec) - 1), \
                 (uint8_t)(sizeof((OpAttr[]){attrs {NULL, OA_BOOL, -1, NULL, NULL}}) / sizeof(OpAttr) - 1)},
#include "ops.def"
#undef OP
};

/* every RT(f) names a function of the runtime's API */
#undef RT
#undef NORT
#define RT(f) _Static_assert(sizeof(&f) != 0, #f);
#define NORT
#define OP(id, name, alias, syn, cls, flags, rt, ...) rt
#include "ops.def"
#undef OP
#undef RT
#undef NORT
#undef IN
#undef IN_OPT
#undef IN_VAR
#undef IN_GM
#undef IN_GM_OPT
#undef IN_NUM
#undef IN_NUM_OPT
#undef NUM
#undef NUM_VAR
#undef OUT
#undef OUT_OPT
#undef OUT_GM
#undef SCR
#undef SCR_OPT
#undef IN_SCR_OPT
#undef IN_KW
#undef A_ROLE
#undef A_ATTR
#undef A_VOP
#undef A_SOP
#undef A_NULL
#undef DT
#undef NODT
#undef AT_ENUM
#undef AT_OPAQUE
#undef AT_BOOL

static const char *const role_names[ROLE_COUNT] = {
#define X(id, s) [ROLE_##id] = s,
    ROLE_LIST(X)
#undef X
};

const char *role_name(RoleId r) { return (unsigned)r < ROLE_COUNT ? role_names[r] : "?"; }

RoleId role_lookup(const char *s, size_t n)
{
    for (int r = 0; r < ROLE_COUNT; r++)
        if (name_eq(s, n, role_names[r]))
            return (RoleId)r;
    return ROLE_COUNT;
}

/* pto.tload's clauses after outs (PTOAS's TLoadOp assembly format, in its order) */
static const TailClause tload_tail[] = {
    {"pad_mode", ROLE_COUNT},
    {"pad_value", ROLE_PAD_VALUE},
    {"left_padding_num", ROLE_LEFT_PADDING_NUM},
    {"init_out_buffer", ROLE_COUNT},
    {"right_padding_num", ROLE_RIGHT_PADDING_NUM},
    {"init_condition", ROLE_INIT_CONDITION},
};

const TailClause *op_tail_clauses(OpKind k, int *n)
{
    if (k == OP_TLOAD) {
        *n = (int)(sizeof tload_tail / sizeof tload_tail[0]);
        return tload_tail;
    }
    *n = 0;
    return NULL;
}

bool tail_clause_word(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof tload_tail / sizeof tload_tail[0]; i++)
        if (name_eq(s, n, tload_tail[i].word))
            return true;
    return false;
}

static OpInfo infos[OP_COUNT];
static int8_t role_pos[OP_COUNT][ROLE_COUNT];
static bool infos_ready;

/* Expands the rows into OpInfo once: role names and flags, the index of each
 * global role, and the runtime call's arguments with their roles as indices. */
static void build_infos(void)
{
    for (int k = 0; k < OP_COUNT; k++) {
        OpInfo *in = &infos[k];
        in->name = op_rows[k].name;
        in->alias = op_rows[k].alias;
        in->syntax = op_rows[k].syntax;
        in->cls = op_rows[k].cls;
        in->opflags = op_rows[k].flags;
        in->rt = op_rows[k].rt;
        in->nroles = op_counts[k].nroles;
        for (int r = 0; r < ROLE_COUNT; r++)
            role_pos[k][r] = -1;
        for (int r = 0; r < in->nroles; r++) {
            RoleSpec rs = op_rows[k].roles[r];
            in->rid[r] = rs.id;
            in->role[r] = role_names[rs.id];
            in->flags[r] = rs.flags | (rs.id == ROLE_TMP ? ROLE_TEMP : 0);
            role_pos[k][rs.id] = (int8_t)r;
            if (!(rs.flags & ROLE_OUT))
                in->nins = (uint8_t)(r + 1);
        }
        in->nargs = op_counts[k].nargs;
        for (int i = 0; i < in->nargs; i++) {
            const ArgSpec *a = &op_rows[k].args[i];
            in->args[i] = (OpArg){a->kind, -1, a->attr, a->text, a->code};
            if (a->kind == ARG_ROLE && (in->args[i].role = role_pos[k][a->role]) < 0)
                DIAG_INTERNAL("ops.def: '%s' has no role '%s' for its runtime call", in->name, role_names[a->role]);
        }
        in->dt_a3 = op_rows[k].dt.a3;
        in->dt_a5 = op_rows[k].dt.a5;
        in->dt_msg_a3 = op_rows[k].dt.msg_a3;
        in->dt_msg_a5 = op_rows[k].dt.msg_a5;
        in->variant = op_rows[k].dt.variant;
        in->nattrs = op_counts[k].nattrs;
        memcpy(in->attrs, op_rows[k].attrs, sizeof in->attrs);
        in->summary = op_rows[k].summary;
    }
    infos_ready = true;
}

const OpInfo *op_info(OpKind k)
{
    if (!infos_ready)
        build_infos();
    return &infos[k];
}

/* op_lookup's table: every name and alias, open addressing on an FNV-1a hash, each string
 * mapped to the first row that has it (as a scan of the rows in order finds it). */
enum { OPL_SIZE = 2048 };
static struct {
    const char *s;
    uint16_t n, k;
} opl[OPL_SIZE];
static bool opl_ready;

static uint32_t opl_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void opl_add(const char *s, int k)
{
    size_t n = strlen(s);
    for (uint32_t i = opl_hash(s, n) & (OPL_SIZE - 1);; i = (i + 1) & (OPL_SIZE - 1)) {
        if (!opl[i].s) {
            opl[i].s = s;
            opl[i].n = (uint16_t)n;
            opl[i].k = (uint16_t)k;
            return;
        }
        if (opl[i].n == n && memcmp(opl[i].s, s, n) == 0)
            return; /* an earlier row has it */
    }
}

OpKind op_lookup(const char *s, size_t n)
{
    _Static_assert(2 * OP_COUNT < OPL_SIZE / 2, "op_lookup's table is too small");
    if (!opl_ready) {
        for (int k = 0; k < OP_COUNT; k++) {
            if (k == OP_UNREGISTERED) /* a placeholder row: an unregistered op has its own name */
                continue;
            opl_add(op_rows[k].name, k);
            if (op_rows[k].alias)
                opl_add(op_rows[k].alias, k);
        }
        opl_ready = true;
    }
    for (uint32_t i = opl_hash(s, n) & (OPL_SIZE - 1); opl[i].s; i = (i + 1) & (OPL_SIZE - 1))
        if (opl[i].n == n && memcmp(opl[i].s, s, n) == 0)
            return (OpKind)opl[i].k;
    return OP_COUNT;
}

int op_role(OpKind k, RoleId r)
{
    if (!infos_ready)
        build_infos();
    return (unsigned)k < OP_COUNT && (unsigned)r < ROLE_COUNT ? role_pos[k][r] : -1;
}

uint32_t ir_role_operands(const Op *op, int role, uint32_t *first)
{
    uint32_t at = 0;
    for (int r = 0; r < role; r++)
        at += op->seg[r];
    *first = at;
    return op->seg[role];
}

ModuleOp *ir_module_add(Module *m, bool implicit)
{
    xgrow32((void **)&m->mods, &m->mods_cap, m->nmods + 1, sizeof *m->mods);
    ModuleOp *mod = arena_zalloc(&m->arena, sizeof *mod);
    mod->implicit = implicit;
    m->mods[m->nmods++] = mod;
    return mod;
}

Func *ir_func_add(Module *m, ModuleOp *mod)
{
    xgrow32((void **)&mod->funcs, &mod->funcs_cap, mod->nfuncs + 1, sizeof *mod->funcs);
    Func *f = arena_zalloc(&m->arena, sizeof *f);
    mod->funcs[mod->nfuncs++] = f;
    ir_block_add(m, &f->body);
    return f;
}

ValueId ir_value_add(Func *f, Str name, const Type *type, Span def, Op *def_op, Block *block)
{
    xgrow32((void **)&f->values, &f->values_cap, f->nvalues + 1, sizeof *f->values);
    Value *v = &f->values[f->nvalues];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->type = type;
    v->def = def;
    v->def_op = def_op;
    v->block = block;
    return f->nvalues++;
}

ValueId ir_block_arg_add(Module *m, Func *f, Block *b, Str name, const Type *type, Span def)
{
    if (b->nargs == b->args_cap) { /* in the arena: doubling keeps the waste under half */
        uint32_t cap = b->args_cap ? b->args_cap * 2 : 4;
        ValueId *args = arena_alloc(&m->arena, cap * sizeof *args);
        if (b->nargs)
            memcpy(args, b->args, b->nargs * sizeof *args);
        b->args = args;
        b->args_cap = cap;
    }
    ValueId v = ir_value_add(f, name, type, def, NULL, b);
    b->args[b->nargs++] = v;
    return v;
}

Op *ir_op_new(Module *m) { return arena_zalloc(&m->arena, sizeof(Op)); }

Block *ir_block_add(Module *m, Region *r)
{
    Block *b = arena_zalloc(&m->arena, sizeof *b);
    b->parent = r;
    if (r->last)
        r->last->next = b;
    else
        r->first = b;
    r->last = b;
    return b;
}

Region *ir_regions_new(Module *m, Op *owner, uint32_t n)
{
    Region *r = arena_zalloc(&m->arena, (n ? n : 1) * sizeof *r);
    for (uint32_t i = 0; i < n; i++)
        r[i].parent = owner;
    owner->regions = r;
    owner->nregions = n;
    return r;
}

void ir_block_append(Block *b, Op *op)
{
    op->parent = b;
    op->next = NULL;
    op->prev = b->last;
    if (b->last)
        b->last->next = op;
    else
        b->first = op;
    b->last = op;
}

void ir_block_prepend(Block *b, Op *op)
{
    if (b->first)
        ir_insert_before(b->first, op);
    else
        ir_block_append(b, op);
}

void ir_insert_before(Op *at, Op *op)
{
    Block *b = at->parent;
    op->parent = b;
    op->next = at;
    op->prev = at->prev;
    if (at->prev)
        at->prev->next = op;
    else
        b->first = op;
    at->prev = op;
}

/* The first op at or after block b (and its following blocks) in the region. */
static Op *first_in_blocks(const Block *b)
{
    for (; b; b = b->next)
        if (b->first)
            return b->first;
    return NULL;
}

Op *ir_first_op(const Func *f) { return first_in_blocks(f->body.first); }

Op *ir_next_op(const Op *op)
{
    for (uint32_t i = 0; i < op->nregions; i++) {
        Op *in = first_in_blocks(op->regions[i].first);
        if (in)
            return in;
    }
    /* no region to enter: the next op after op, climbing out of finished regions */
    for (;;) {
        if (op->next)
            return op->next;
        Op *in = first_in_blocks(op->parent->next);
        if (in)
            return in;
        const Region *r = op->parent->parent;
        const Op *owner = r->parent;
        if (!owner)
            return NULL;
        for (uint32_t i = (uint32_t)(r - owner->regions) + 1; i < owner->nregions; i++)
            if ((in = first_in_blocks(owner->regions[i].first)) != NULL)
                return in;
        op = owner;
    }
}

uint32_t ir_number_ops(const Func *f)
{
    uint32_t n = 0;
    for (Op *op = ir_first_op(f); op; op = ir_next_op(op))
        op->index = n++;
    return n;
}

void ir_funcs_free(Module *m)
{
    for (uint32_t i = 0; i < m->nmods; i++) {
        ModuleOp *mod = m->mods[i];
        for (uint32_t j = 0; j < mod->nfuncs; j++)
            free(mod->funcs[j]->values);
        free(mod->funcs);
    }
    free(m->mods);
}

const Attr *ir_attr_find(const Attr *attrs, uint32_t n, const char *key)
{
    size_t kl = strlen(key);
    for (uint32_t i = 0; i < n; i++)
        if (str_eq(attrs[i].key, key, kl))
            return &attrs[i];
    return NULL;
}

const Func *ir_func_definition(const Module *m, const Func *decl)
{
    const Func *def = NULL;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *g = m->mods[i]->funcs[j];
            if (g->decl || g->visibility == 1 || g->name.len != decl->name.len ||
                memcmp(g->name.p, decl->name.p, g->name.len) != 0)
                continue;
            if (def)
                return NULL;
            def = g;
        }
    return def;
}

void frontend_free(Module *m)
{
    if (!m)
        return;
    ir_funcs_free(m);
    sb_free(&m->report);
    free(m->places);
    free(m->fmem);
    free(m->locs);
    free(m->loc_aliases);
    free(m->tmp_hints);
    types_free(&m->types);
    arena_free(&m->arena);
    free(m);
}

/* ---- fresh names for values the passes create -------------------------------- */
void nameset_init(NameSet *ns, const Func *f)
{
    *ns = (NameSet){0};
    for (uint32_t i = 0; i < f->nvalues; i++)
        strset_add(ns, f->values[i].name.p, f->values[i].name.len);
}

/* ---- functions by name ------------------------------------------------------------ */

static size_t func_slot_at(const FuncSlot *t, size_t cap, const ModuleOp *mod, bool defs, Str name)
{
    size_t i = (str_hash(name.p, name.len) ^ (defs ? 0 : (size_t)(uintptr_t)mod * 31u)) & (cap - 1);
    for (;; i = (i + 1) & (cap - 1))
        if (!t[i].f || ((defs || t[i].mod == mod) && t[i].f->name.len == name.len &&
                        memcmp(t[i].f->name.p, name.p, name.len) == 0))
            return i;
}

void ir_func_index_init(FuncIndex *ix, const Module *m)
{
    size_t n = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        n += m->mods[i]->nfuncs;
    ix->cap = ix->dcap = 16;
    while (ix->cap < 2 * n + 2)
        ix->cap *= 2;
    ix->dcap = ix->cap;
    ix->slots = xcalloc(ix->cap, sizeof *ix->slots);
    ix->defs = xcalloc(ix->dcap, sizeof *ix->defs);
    uint32_t all = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++, all++) {
            const ModuleOp *mod = m->mods[i];
            const Func *f = mod->funcs[j];
            FuncSlot *s = &ix->slots[func_slot_at(ix->slots, ix->cap, mod, false, f->name)];
            if (!s->f) /* the first of a name, as a call resolves it */
                *s = (FuncSlot){mod, f, j, all};
            if (f->decl || f->visibility == 1)
                continue;
            s = &ix->defs[func_slot_at(ix->defs, ix->dcap, NULL, true, f->name)];
            *s = (FuncSlot){s->f ? NULL : mod, f, j, all};
        }
}

const FuncSlot *ir_func_index_find(const FuncIndex *ix, const ModuleOp *mod, Str name)
{
    return &ix->slots[func_slot_at(ix->slots, ix->cap, mod, false, name)];
}

/* an empty slot: what a lookup of a name with several definitions returns */
static const FuncSlot no_func_slot;

const FuncSlot *ir_func_index_definition(const FuncIndex *ix, const Func *decl)
{
    const FuncSlot *s = &ix->defs[func_slot_at(ix->defs, ix->dcap, NULL, true, decl->name)];
    return s->mod ? s : &no_func_slot;
}

bool ir_same_signature(const Func *a, const Func *b)
{
    const Block *x = ir_entry(a), *y = ir_entry(b);
    if (x->nargs != y->nargs || a->nresults != b->nresults)
        return false;
    for (uint32_t i = 0; i < x->nargs; i++)
        if (a->values[x->args[i]].type != b->values[y->args[i]].type)
            return false;
    for (uint32_t i = 0; i < a->nresults; i++)
        if (a->results[i] != b->results[i])
            return false;
    return true;
}

void ir_func_index_free(FuncIndex *ix)
{
    free(ix->slots);
    free(ix->defs);
    ix->slots = ix->defs = NULL;
}

Str ir_fresh_name(Module *m, NameSet *ns, Str base, const char *suffix)
{
    size_t sl = strlen(suffix);
    char *buf = arena_alloc(&m->arena, base.len + sl + 24);
    memcpy(buf, base.p, base.len);
    memcpy(buf + base.len, suffix, sl);
    Str s = {buf, (uint32_t)(base.len + sl)};
    for (unsigned k = 1; strset_has(ns, s.p, s.len); k++)
        s.len = (uint32_t)(base.len + sl + (size_t)snprintf(buf + base.len + sl, 24, "_%u", k));
    strset_add(ns, s.p, s.len);
    return s;
}

bool ir_const_int(const Func *f, ValueId v, int64_t *out)
{
    if (v == NO_VALUE || v >= f->nvalues)
        return false;
    const Op *d = f->values[v].def_op;
    if (!d || d->kind != OP_CONSTANT || !d->constant || d->constant->kind != AV_INT)
        return false;
    *out = d->constant->u.i;
    return true;
}

void ir_op_roles(const Op *op, ValueId val[MAX_ROLES])
{
    const OpInfo *in = op_info(op->kind);
    uint32_t at = 0, res = 0;
    for (int r = 0; r < MAX_ROLES; r++)
        val[r] = NO_VALUE;
    for (int r = 0; r < in->nroles; r++) {
        bool out = in->flags[r] & ROLE_OUT;
        /* Level 1: outs tiles are results; a global view stays an operand */
        if (op->form == FORM_L1 && out && in->syntax == SYN_COMPUTE && !(in->flags[r] & ROLE_GM)) {
            if (!(in->flags[r] & ROLE_SCRATCH) && res < op->nres)
                val[r] = op->res[res++];
            continue;
        }
        if (op->seg[r] && !(in->flags[r] & ROLE_VAR))
            val[r] = op->opnds[at];
        at += op->seg[r];
    }
}
