/* build.c - turns what the grammar recognized into IR: the parser's per-op
 * stacks, name resolution with MLIR's messages, modules and functions, and
 * ops (role assignment from ops.def). Types and attribute values are built
 * in build_types.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "parser.h"
#include "build.h"
#include "pipe.h"


Str pb_text(const Parser *p, Span s)
{
    Str r = {p->src->text + s.begin, s.end - s.begin};
    return r;
}

Span pb_sub_span(Span s, uint32_t off, uint32_t len)
{
    Span r = {s.begin + off, s.begin + off + len};
    return r;
}

/* ---- stacks ------------------------------------------------------------------ */
void pb_push_use(Parser *p, Span s) { PUSH(p->uses, p->nuses, p->uses_cap, s); }

void pb_push_type(Parser *p, const Type *t, Span s)
{
    if (p->ntys == p->tys_cap) {
        size_t cap = p->tys_cap;
        xgrow((void **)&p->tys, &cap, p->ntys + 1, sizeof *p->tys);
        p->ty_spans = xrealloc(p->ty_spans, cap * sizeof *p->ty_spans);
        p->tys_cap = cap;
    }
    p->tys[p->ntys] = t;
    p->ty_spans[p->ntys++] = s;
}

void pb_push_attr(Parser *p, Span key, AttrValue *v, Span span)
{
    Attr a;
    Str k = pb_text(p, key);
    a.quoted = k.len >= 2 && k.p[0] == '"';
    if (a.quoted) {
        k.p++;
        k.len -= 2;
    }
    a.key = k;
    a.span = span;
    if (!v) {
        v = arena_zalloc(&p->m->arena, sizeof *v);
        v->kind = AV_UNIT;
        v->span = key;
    }
    a.val = v;
    PUSH(p->attrs, p->nattrs, p->attrs_cap, a);
}

void pb_push_aval(Parser *p, AttrValue *v) { PUSH(p->avals, p->navals, p->avals_cap, v); }
void pb_push_result(Parser *p, Span s)
{
    xgrow((void **)&p->rnames, &p->rnames_cap, p->nresults + 1, sizeof *p->rnames);
    p->rnames[p->nresults] = (Str){NULL, 0};
    PUSH(p->results, p->nresults, p->results_cap, s);
}

void pb_push_kw(Parser *p, Span key, uint32_t first, uint32_t n, bool bracket)
{
    KwOperand k = {key, first, n, bracket};
    PUSH(p->kws, p->nkws, p->kws_cap, k);
}

void pb_push_titem(Parser *p, Span key, Span val, int tok)
{
    TypeItem t = {key, val, tok};
    PUSH(p->titems, p->ntitems, p->titems_cap, t);
}

void pb_push_clause(Parser *p, Span word, int kind, AttrValue *v, Span value, Span inner)
{
    ClauseItem c = {word, value, inner, v, kind};
    PUSH(p->clauses, p->nclauses, p->clauses_cap, c);
}


void pb_op_reset(Parser *p)
{
    /* regions whose '}' error recovery skipped are closed here */
    while (p->nframes && p->depth < p->frames[p->nframes - 1].depth)
        pb_region_pop(p);
    p->nbargs = 0;
    p->nuses = p->ntys = p->nattrs = p->navals = p->nints = p->nresults = p->nkws = p->ntitems = p->nwords = 0;
    p->nclauses = 0;
    p->open_type.end = p->open_type.begin;
    p->multi_result = false;
}

/* ---- names ------------------------------------------------------------------------- */
static uint32_t hash_str(Str s) { return str_hash(s.p, s.len); }

static NameSlot *slot_find(NameSlot *tab, size_t cap, Str name)
{
    size_t i = hash_str(name) & (cap - 1);
    for (;; i = (i + 1) & (cap - 1))
        if (!tab[i].name.p || (tab[i].name.len == name.len && memcmp(tab[i].name.p, name.p, name.len) == 0))
            return &tab[i];
}

/* A function symbol in the symbol table of one module: each module has its
 * own (as in MLIR), so siblings may define the same name. */
static NameSlot *sym_slot_find(NameSlot *tab, size_t cap, Str name, const void *scope)
{
    size_t i = (hash_str(name) ^ (size_t)((uintptr_t)scope >> 4) * 0x9e3779b9u) & (cap - 1);
    for (;; i = (i + 1) & (cap - 1))
        if (!tab[i].name.p || (tab[i].scope == scope && tab[i].name.len == name.len &&
                               memcmp(tab[i].name.p, name.p, name.len) == 0))
            return &tab[i];
}

static void names_clear(Parser *p)
{
    for (size_t i = 0; i < p->names_used; i++)
        p->names[p->names_touched[i]].name.p = NULL;
    p->names_used = 0;
}

static void names_grow(Parser *p)
{
    size_t cap = p->names_cap ? p->names_cap * 2 : 64;
    NameSlot *old = p->names;
    size_t oldcap = p->names_cap;
    p->names = xcalloc(cap, sizeof *p->names);
    p->names_cap = cap;
    xgrow((void **)&p->names_touched, &p->touched_cap, cap, sizeof *p->names_touched);
    p->names_used = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].name.p) {
            NameSlot *s = slot_find(p->names, cap, old[i].name);
            *s = old[i];
            p->names_touched[p->names_used++] = (uint32_t)(s - p->names);
        }
    free(old);
}

NameSlot *pb_name_slot(Parser *p, Str name)
{
    if ((p->names_used + 1) * 2 > p->names_cap)
        names_grow(p);
    return slot_find(p->names, p->names_cap, name);
}

/* name without '%' */
Str pb_ssa_name(Parser *p, Span s)
{
    Str t = pb_text(p, s);
    t.p++;
    t.len--;
    return t;
}

/* named: the name of a %r:N member ("r#1"); len 0 = the name at s. A result
 * of def_op, or (def_op NULL) an argument of block blk. A name slot whose id
 * is NO_VALUE went out of scope with its region. */
ValueId pb_define_value(Parser *p, Span s, Str named, const Type *t, Op *def_op, Block *blk)
{
    Func *f = p->fn;
    Str name = named.len ? named : pb_ssa_name(p, s);
    NameSlot *slot = pb_name_slot(p, name);
    ValueId id = def_op ? ir_value_add(f, name, t, s, def_op, blk) : ir_block_arg_add(p->m, f, blk, name, t, s);
    if (slot->name.p && slot->id != NO_VALUE && !f->values[slot->id].undefined) {
        ERR(s, "redefinition of SSA value '%%%.*s'", (int)name.len, name.p);
        diag_note(p->diag, f->values[slot->id].def, "previously defined here");
        f->values[id].poisoned = true;
        return id;
    }
    if (!t)
        f->values[id].poisoned = true;
    if (!slot->name.p)
        p->names_touched[p->names_used++] = (uint32_t)(slot - p->names);
    slot->name = name;
    slot->id = id;
    return id;
}

/* Resolves a use; ty is the type written at the use (NULL if none). Marks
 * *bad when the use is in error (reported here). */
ValueId pb_resolve_use(Parser *p, Span s, const Type *ty, bool *bad)
{
    Func *f = p->fn;
    Str name = pb_ssa_name(p, s);
    NameSlot *slot = pb_name_slot(p, name);
    /* %r#0 names the only result of a single-result op %r */
    if (!slot->name.p && name.len > 2 && name.p[name.len - 2] == '#' && name.p[name.len - 1] == '0') {
        NameSlot *base = pb_name_slot(p, (Str){name.p, name.len - 2});
        if (base->name.p && base->id != NO_VALUE && f->values[base->id].def_op &&
            f->values[base->id].def_op->nres == 1)
            slot = base;
    }
    if (!slot->name.p || slot->id == NO_VALUE) {
        StrBuf sb = {0};
        ERR(s, "use of undeclared SSA value name '%%%.*s'%s", (int)name.len, name.p, pb_suggest_value(p, name, &sb));
        sb_free(&sb);
        ValueId id = ir_value_add(f, name, ty, s, NULL, p->blk);
        f->values[id].undefined = f->values[id].poisoned = true;
        if (!slot->name.p)
            p->names_touched[p->names_used++] = (uint32_t)(slot - p->names);
        slot->name = name;
        slot->id = id;
        *bad = true;
        return id;
    }
    Value *v = &f->values[slot->id];
    if (v->poisoned)
        *bad = true;
    if (ty && v->type && ty != v->type) {
        char a[256], b[256];
        ERR(s, "use of value '%%%.*s' expects different type than prior uses: '%s' vs '%s'", (int)name.len,
            name.p, type_str(ty, a, sizeof a), type_str(v->type, b, sizeof b));
        diag_note(p->diag, v->def, "prior use here");
        *bad = true;
    } else if (ty == NULL && v->type == NULL) {
        *bad = true;
    }
    return slot->id;
}

/* ---- modules and functions -------------------------------------------------------------- */
Attr *pb_take_attrs(Parser *p, uint32_t n)
{
    if (n > p->nattrs)
        n = (uint32_t)p->nattrs;
    Attr *a = arena_dup(&p->m->arena, p->attrs + p->nattrs - n, n * sizeof *a);
    p->nattrs -= n;
    return a;
}

/* docs/language.md 2: pto.target_arch is a string, any case. As in PTOAS, a
 * value other than a2, a3 or a5 leaves the choice to --pto-arch: "a2a3"
 * (PTOAS's name for both) silently, anything else with a warning. */
static void check_module_attrs(Parser *p, const ModuleOp *mod)
{
    static const char *const known[] = {"a2", "a3", "a5", "a2a3"};
    for (uint32_t i = 0; i < mod->nattrs; i++) {
        const Attr *a = &mod->attrs[i];
        if (!STR_EQ_LIT(a->key, "pto.target_arch") || !a->val)
            continue;
        Str v = a->val->kind == AV_STRING ? a->val->u.s : pb_text(p, a->val->span);
        if (a->val->kind != AV_STRING) {
            ERR(a->val->span, "expected a string for pto.target_arch, but got '%.*s'", (int)v.len, v.p);
            continue;
        }
        bool ok = false;
        for (size_t k = 0; k < 4 && !ok; k++) {
            size_t n = strlen(known[k]);
            ok = v.len == n;
            for (size_t j = 0; j < n && ok; j++)
                ok = (v.p[j] | 0x20) == known[k][j];
        }
        if (!ok)
            diag_warning(p->diag, a->val->span,
                         "unknown pto.target_arch \"%.*s\", expected a2, a3, a5 or a2a3; --pto-arch decides",
                         (int)v.len, v.p);
    }
}

static ModuleOp *module_begin(Parser *p, Span kw, Str name)
{
    ModuleOp *mod = ir_module_add(p->m, false);
    mod->parent = p->mod;
    mod->span = kw;
    mod->name = name;
    p->mod = mod;
    p->implicit = NULL;
    p->top_depth = p->depth;
    pb_op_reset(p);
    return mod;
}

void pb_module_begin(Parser *p, Span kw, Span name, uint32_t nattrs)
{
    Str n = pb_symbol_name(p, name);
    Attr *attrs = pb_take_attrs(p, nattrs);
    ModuleOp *mod = module_begin(p, kw, n);
    mod->nattrs = nattrs;
    mod->attrs = attrs;
    check_module_attrs(p, mod);
}

void pb_module_end(Parser *p, ModuleOp *mod)
{
    p->mod = mod ? mod->parent : NULL;
    p->top_depth = p->depth;
    pb_op_reset(p);
}

/* name is the symbol without '@' or quotes; name_span where it is written. */
static void func_begin(Parser *p, Span kw, Str fname, Span name, int visibility)
{
    ModuleOp *mod = p->mod;
    if (!mod) {
        if (!p->implicit)
            p->implicit = ir_module_add(p->m, true);
        mod = p->implicit;
    }
    Func *f = ir_func_add(p->m, mod);
    f->span = kw;
    f->name_span = name;
    f->name = fname;
    f->visibility = (uint8_t)visibility;
    while (p->nframes)
        pb_region_pop(p);
    p->npend = 0;
    p->fn = f;
    p->blk = ir_entry(f);
    names_clear(p);
    pb_op_reset(p);
    p->anon_args = -1; /* no argument form yet (also for the generic spelling) */

    if ((p->syms_used + 1) * 2 > p->syms_cap) {
        size_t cap = p->syms_cap ? p->syms_cap * 2 : 64;
        NameSlot *old = p->syms;
        size_t oldcap = p->syms_cap;
        p->syms = xcalloc(cap, sizeof *p->syms);
        p->syms_cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].name.p)
                *sym_slot_find(p->syms, cap, old[i].name, old[i].scope) = old[i];
        free(old);
    }
    NameSlot *s = sym_slot_find(p->syms, p->syms_cap, f->name, p->mod);
    if (s->name.p) {
        ERR(name, "redefinition of symbol named '%.*s'", (int)f->name.len, f->name.p);
        diag_note(p->diag, (Span){s->id, s->id + 1}, "previously defined here");
    } else {
        s->name = f->name;
        s->id = name.begin;
        s->scope = p->mod;
        p->syms_used++;
    }
}

void pb_func_begin(Parser *p, Span kw, Span name, int visibility)
{
    func_begin(p, kw, pb_symbol_name(p, name), name, visibility);
}

/* An argument; a function's arguments are all named (%a: T) or, in a
 * declaration, all bare types, as MLIR's func.func parser requires. */
static void func_arg(Parser *p, Span at, Str named, const Type *t, Span tspan, int anon)
{
    Func *f = p->fn;
    if (p->anon_args >= 0 && p->anon_args != anon)
        ERR(at, anon ? "custom op 'func.func' expected SSA identifier"
                     : "custom op 'func.func' expected type instead of SSA identifier");
    p->anon_args = anon;
    ValueId id = pb_define_value(p, at, named, t, NULL, ir_entry(f));
    f->values[id].type_span = tspan;
}

/* The name of unnamed argument i: %arg<i>, as MLIR prints them. */
static Str arg_name(Parser *p, uint32_t i)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "arg%u", i);
    return (Str){arena_strndup(&p->m->arena, buf, (size_t)n), (uint32_t)n};
}

void pb_func_arg(Parser *p, Span name, const Type *t, Span tspan)
{
    func_arg(p, name, (Str){NULL, 0}, t, tspan, 0);
}

void pb_func_arg_anon(Parser *p, const Type *t, Span tspan)
{
    func_arg(p, tspan, arg_name(p, ir_entry(p->fn)->nargs), t, tspan, 1);
}

static void body_begin(Parser *p)
{
    p->in_body = true;
    p->body_depth = p->depth;
    p->errors_at_op = diag_error_count(p->diag);
    pb_op_reset(p);
}

/* The attributes and result types of a custom func.func head. */
static void func_head(Parser *p, uint32_t nresult_types, uint32_t nattrs)
{
    Func *f = p->fn;
    f->nattrs = nattrs;
    f->attrs = pb_take_attrs(p, nattrs);
    if (nresult_types > p->ntys)
        nresult_types = (uint32_t)p->ntys;
    f->nresults = nresult_types;
    f->results = arena_dup(&p->m->arena, p->tys + p->ntys - nresult_types, nresult_types * sizeof *f->results);
}

void pb_func_body(Parser *p, uint32_t nresult_types, uint32_t nattrs)
{
    Func *f = p->fn;
    if (p->anon_args == 1) /* bare types give the entry block no arguments */
        ERR(f->span, "'func.func' op entry block must have %u arguments to match function signature",
            ir_entry(f)->nargs);
    func_head(p, nresult_types, nattrs);
    body_begin(p);
}

void pb_func_decl(Parser *p, uint32_t nresult_types, uint32_t nattrs)
{
    Func *f = p->fn;
    func_head(p, nresult_types, nattrs);
    f->decl = true;
    pb_op_reset(p);
}

void pb_func_end(Parser *p, Span close)
{
    Func *f = p->fn;
    while (p->nframes) /* regions a syntax error left open */
        pb_region_pop(p);
    f->end_span = close;
    /* A syntax error after the last op may have swallowed the return. */
    const Op *last = ir_entry(f)->last;
    /* (an scf.yield there is the verifier's: it stands outside scf) */
    if ((!last || (last->kind != OP_RETURN && last->kind != OP_SCF_YIELD)) &&
        diag_error_count(p->diag) == p->errors_at_op)
        ERR(close, "function must end with 'return'");
    p->in_body = false;
    pb_op_reset(p);
}

/* ---- ops ------------------------------------------------------------------------------------ */

static const char *op_name(OpKind k) { return op_info(k)->name; }

static OpKind kind_of(Parser *p, Span name)
{
    Str t = pb_text(p, name);
    if (t.len && t.p[0] == '"') {
        t.p++;
        t.len -= 2;
    }
    return op_lookup(t.p, t.len);
}

static const Attr *find_attr(const Draft *d, const char *key)
{
    return ir_attr_find(d->attrs, d->nattrs, key);
}

/* Removes attribute key from d (generic form: segment sizes, addr, value). */
static AttrValue *take_attr(Draft *d, const char *key)
{
    for (uint32_t i = 0; i < d->nattrs; i++)
        if (str_eq(d->attrs[i].key, key, strlen(key))) {
            AttrValue *v = d->attrs[i].val;
            memmove(&d->attrs[i], &d->attrs[i + 1], (d->nattrs - i - 1) * sizeof *d->attrs);
            d->nattrs--;
            return v;
        }
    return NULL;
}

static void count_phrase(char *buf, size_t size, uint32_t req, uint32_t opt, bool var)
{
    if (var)
        snprintf(buf, size, "at least %u", req);
    else if (opt == 0)
        snprintf(buf, size, "%u", req);
    else if (opt == 1)
        snprintf(buf, size, "%u or %u", req, req + 1);
    else
        snprintf(buf, size, "%u to %u", req, req + opt);
}

/* Spreads k operands over roles [lo, hi): required roles get one, optional
 * roles one each in order while operands remain, variadic roles share the
 * rest evenly. what is "ins ", "outs " or "". */
static bool assign_group(Parser *p, Draft *d, int lo, int hi, uint32_t k, const char *what)
{
    const OpInfo *in = op_info(d->kind);
    uint32_t req = 0, opt = 0, nvar = 0;
    for (int r = lo; r < hi; r++) {
        if (in->flags[r] & ROLE_KW) /* written after outs (clauses), never in a group */
            continue;
        if (in->flags[r] & ROLE_VAR)
            nvar++;
        else if (in->flags[r] & ROLE_OPT)
            opt++;
        else
            req++;
    }
    if (k < req || (!nvar && k > req + opt) || (nvar && (k - req) % nvar)) {
        char c[48];
        count_phrase(c, sizeof c, req, opt, nvar > 0);
        if (nvar > 1 && k >= req)
            ERR(d->name, "'%s' op expects its %u variadic operand lists to have the same length, but got %u "
                         "operands in all", op_name(d->kind), nvar, k);
        else
            ERR(d->name, "'%s' op expects %s %soperand%s, but got %u", op_name(d->kind), c, what,
                strcmp(c, "1") == 0 ? "" : "s", k);
        return false;
    }
    uint32_t extra = k - req;
    uint32_t per_var = nvar ? extra / nvar : 0;
    for (int r = lo; r < hi; r++) {
        if (in->flags[r] & ROLE_KW) {
            d->seg[r] = 0;
        } else if (in->flags[r] & ROLE_VAR) {
            d->seg[r] = per_var;
        } else if (in->flags[r] & ROLE_OPT) {
            d->seg[r] = extra > 0 && !nvar;
            if (d->seg[r])
                extra--;
        } else {
            d->seg[r] = 1;
        }
    }
    return true;
}

/* The roles a Level 1 op's operands fill: its ins, and a store's global view. */
static int l1_operand_roles(const OpInfo *in) { return in->opflags & OF_STORES ? in->nroles : in->nins; }

/* Level 1: the non-scratch outs tile roles become results (a global view stays an
 * operand: tstore has none). */
static bool check_l1_results(Parser *p, Draft *d, uint32_t nres)
{
    const OpInfo *in = op_info(d->kind);
    uint32_t req = 0, opt = 0;
    for (int r = in->nins; r < in->nroles; r++) {
        if (in->flags[r] & (ROLE_SCRATCH | ROLE_GM))
            continue;
        if (in->flags[r] & ROLE_OPT)
            opt++;
        else
            req++;
    }
    if (nres < req || nres > req + opt) {
        char c[48];
        count_phrase(c, sizeof c, req, opt, false);
        ERR(d->name, "'%s' op expects %s result%s, but got %u", op_name(d->kind), c,
            strcmp(c, "1") == 0 ? "" : "s", nres);
        return false;
    }
    return true;
}

/* pto.tdivs takes its scalar on either side (PTOAS): written first, it is the
 * dividend (dst = scalar / src), a row of its own (TDIVS_SF) with that role order. */
static OpKind classify_tdivs(const Draft *d)
{
    if (d->kind == OP_TDIVS && d->n >= 2 && d->utys && d->utys[0] && d->utys[0]->kind == TY_SCALAR)
        return OP_TDIVS_SF;
    return d->kind;
}

/* pto.tgather has three forms (PTOAS's custom parser tells them apart): a maskPattern
 * attribute is the mask-pattern form; two outs (or results), or a scalar after src, the
 * compare form; else the index form. Each its own row. */
/* pto.mgather's GM -> L1 form (its own row): the index (second ins) a view */
static OpKind classify_mgather(const Draft *d)
{
    const Type *ix = d->n >= 2 && d->utys ? d->utys[1] : NULL;
    if (ix && (ix->kind == TY_PART_VIEW || ix->kind == TY_TENSOR_VIEW))
        return OP_MGATHER_L1;
    return d->kind;
}

static OpKind classify_tgather(const Draft *d, uint32_t nouts)
{
    if (d->kind == OP_MGATHER) /* the other ops with forms of their own */
        return classify_mgather(d);
    if (d->kind == OP_TSCATTER && find_attr(d, "maskPattern"))
        return OP_TSCATTER_MASK;
    if (d->kind != OP_TGATHER)
        return d->kind;
    if (find_attr(d, "maskPattern"))
        return OP_TGATHER_MASK;
    if (nouts == 2 || (d->n >= 2 && d->utys && d->utys[1] && d->utys[1]->kind == TY_SCALAR))
        return OP_TGATHER_CMP;
    return d->kind;
}

/* Level 1 and generic pto.tquant cover INT8 and MX: the operand shape decides when it can,
 * else the quant_type attribute. The verifier checks that they agree. (A Level 2 pto.tquant
 * has INT8's operands, or is an error, as in PTOAS.) */
static OpKind classify_tquant(const Draft *d, uint32_t nins, uint32_t nouts_or_res, int nseg)
{
    if (d->kind != OP_TQUANT)
        return d->kind;
    if (nseg == 6)
        return OP_TQUANT_MX;
    if (nseg == 4 || nseg == 5)
        return OP_TQUANT;
    if (d->form == FORM_L1 ? nouts_or_res >= 2 : nouts_or_res >= 4)
        return OP_TQUANT_MX;
    if (nins >= 2)
        return OP_TQUANT;
    const Attr *a = find_attr(d, "quant_type");
    if (a && a->val && a->val->kind == AV_ENUM && a->val->u.e.kind == EK_QUANT_TYPE &&
        a->val->u.e.value >= QT_MXFP8)
        return OP_TQUANT_MX;
    return OP_TQUANT;
}

/* docs/language.md 5.1: in the Level 1 form an omitted quant_type follows from the operands. */
static void infer_quant_type(Parser *p, Draft *d, const Type *data)
{
    if (d->kind != OP_TQUANT && d->kind != OP_TQUANT_MX)
        return;
    if (find_attr(d, "quant_type"))
        return;
    int qt;
    if (d->kind == OP_TQUANT_MX)
        qt = data && data->dtype == DT_F4E2M1X2 ? QT_MXFP4_E2M1 : QT_MXFP8;
    else
        qt = d->seg[op_role(OP_TQUANT, ROLE_OFFSET)] ? QT_INT8_ASYM : QT_INT8_SYM;
    AttrValue *v = pb_new_aval(p, AV_ENUM, d->name);
    v->u.e.kind = EK_QUANT_TYPE;
    v->u.e.value = qt;
    Attr *na = arena_alloc(&p->m->arena, (d->nattrs + 1) * sizeof *na);
    na[0] = (Attr){{"quant_type", 10}, false, d->name, v};
    memcpy(na + 1, d->attrs, d->nattrs * sizeof *na);
    d->attrs = na;
    d->nattrs++;
}

static Op *emit(Parser *p, Draft *d)
{
    Func *f = p->fn;
    bool bad = d->bad;
    ValueId *ids = arena_alloc(&p->m->arena, d->n * sizeof *ids);
    for (uint32_t i = 0; i < d->n; i++)
        ids[i] = pb_resolve_use(p, d->uses[i], d->utys ? d->utys[i] : NULL, &bad);
    Op *op = ir_op_new(p->m);
    ir_block_append(p->blk, op);
    if (p->gen_nregions) { /* a generic op's regions, parsed before it */
        uint32_t n = p->gen_nregions;
        Region *r = ir_regions_new(p->m, op, n);
        for (uint32_t i = 0; i < n; i++) {
            r[i] = *p->pend[p->npend - n + i];
            r[i].parent = op;
            for (Block *b = r[i].first; b; b = b->next)
                b->parent = &r[i];
        }
        p->npend -= n;
        p->gen_nregions = 0;
    }
    op->kind = d->kind;
    op->form = d->form;
    op->bad = bad;
    op->name_span = d->name;
    op->nopnds = d->n;
    op->opnds = ids;
    op->opnd_spans = arena_dup(&p->m->arena, d->uses, d->n * sizeof *d->uses);
    memcpy(op->seg, d->seg, sizeof op->seg);
    op->nattrs = d->nattrs;
    op->attrs = d->attrs;
    op->nres = d->nres;
    op->res = arena_alloc(&p->m->arena, d->nres * sizeof *op->res);
    for (uint32_t i = 0; i < d->nres; i++) {
        const Type *t = d->rtys ? d->rtys[i] : NULL;
        ValueId v = pb_define_value(p, d->res[i], p->rnames[i], t, op, p->blk);
        f->values[v].type_span = d->rspans ? d->rspans[i] : d->res[i];
        f->values[v].poisoned |= bad;
        op->res[i] = v;
    }
    p->errors_at_op = diag_error_count(p->diag);
    return op;
}

/* Results of an op that could not be built: every name written is defined,
 * poisoned, so later uses of them report nothing more (typed only when the
 * op's result count matched the names). */
static void emit_broken(Parser *p, Draft *d)
{
    d->bad = true;
    memset(d->seg, 0, sizeof d->seg);
    if (d->rtys == NULL || d->nres != p->nresults) {
        d->nres = (uint32_t)p->nresults;
        d->rtys = NULL;
        d->rspans = NULL;
    }
    d->res = p->results;
    emit(p, d);
}

static bool bind_results(Parser *p, Draft *d, uint32_t ntypes)
{
    if (p->multi_result) /* already reported */
        return false;
    if (p->nresults != ntypes) {
        ERR(d->name, "operation defines %u result%s but was provided %zu to bind", ntypes,
            ntypes == 1 ? "" : "s", p->nresults);
        return false;
    }
    return true;
}

static void draft_init(Parser *p, Draft *d, Span name, uint8_t form, uint32_t nuses, uint32_t nattrs)
{
    memset(d, 0, sizeof *d);
    d->kind = kind_of(p, name);
    d->form = form;
    d->name = name;
    if (nuses > p->nuses) { /* operands lost to error recovery (already reported) */
        nuses = (uint32_t)p->nuses;
        d->bad = true;
    }
    d->n = nuses;
    d->uses = p->uses + p->nuses - nuses;
    d->nattrs = nattrs;
    d->attrs = pb_take_attrs(p, nattrs);
    d->res = p->results;
}

static Span next_token(const Parser *p, uint32_t at);
Span pb_next_token(const Parser *p, uint32_t at) { return next_token(p, at); }

void pb_op_compute_l1(Parser *p, Span name, uint32_t nopnds, uint32_t nattrs, SigInfo sig)
{
    Draft d;
    draft_init(p, &d, name, FORM_L1, nopnds, nattrs);
    OpClass cls = op_info(d.kind)->cls;
    if (cls == OC_GETVAL || cls == OC_SETVAL) { /* PTOAS's format starts with the ins keyword */
        ERR(next_token(p, name.end), "expected 'ins'");
        emit_broken(p, &d);
        return;
    }
    const Type *const *params = p->tys + p->ntys - sig.nresults - sig.nparams;
    const Type *const *rtys = p->tys + p->ntys - sig.nresults;
    d.rspans = p->ty_spans + p->ntys - sig.nresults;
    if (!sig.arrow && !(op_info(d.kind)->opflags & OF_STORES)) { /* a store has no results */
        ERR(name, "'%s' op expects '(operand types) -> result types' after ':'", op_name(d.kind));
        emit_broken(p, &d);
        return;
    }
    if (sig.nparams != nopnds) {
        ERR(name, "'%s' op expects %u operand type%s, but got %u", op_name(d.kind), nopnds,
            nopnds == 1 ? "" : "s", sig.nparams);
        emit_broken(p, &d);
        return;
    }
    d.utys = params;
    if (!bind_results(p, &d, sig.nresults)) {
        emit_broken(p, &d);
        return;
    }
    d.nres = sig.nresults;
    d.rtys = rtys;
    d.kind = classify_tquant(&d, nopnds, sig.nresults, -1);
    d.kind = classify_tdivs(&d);
    d.kind = classify_tgather(&d, sig.nresults);
    const OpInfo *in = op_info(d.kind);
    bool ok = assign_group(p, &d, 0, l1_operand_roles(in), nopnds, "");
    if (!ok || !check_l1_results(p, &d, d.nres)) {
        emit_broken(p, &d);
        return;
    }
    infer_quant_type(p, &d, d.nres ? rtys[0] : NULL);
    emit(p, &d);
}

void pb_tu_item(Parser *p, TypedUses *acc, const TypedUses *item, Span at)
{
    int k = item->state;
    acc->uses += k != TU_TYPE;
    acc->types += k != TU_BARE;
    acc->attrs += item->attrs;
    int s = acc->state;
    if (s < 0)
        return;
    /* bare uses then one typed use then types (`%a, %b : T1, T2`), or typed uses only */
    bool ok = s == 0 ? k != TU_TYPE
              : s == TU_BARE ? k != TU_TYPE
              : s == TU_TYPE ? k == TU_TYPE
              : k != TU_BARE; /* TU_TYPED */
    if (!ok) {
        ERR(at, "expected '%%operand : type' for each operand, or the operands followed by ':' and their types");
        acc->state = -1;
        return;
    }
    acc->state = s == TU_BARE && k == TU_TYPED ? TU_TYPE : s == TU_TYPED && k == TU_TYPE ? TU_TYPE : k;
}

void pb_tu_fp(Parser *p, TypedUses *acc, Span word)
{
    Str t = pb_text(p, word);
    if (acc->state < 0)
        return;
    bool fp = STR_EQ_LIT(t, "fp"), pq = STR_EQ_LIT(t, "pre_quant");
    /* after `%a : T` (tstore) or after the types of `%a, %b : T, index` (textract, tinsert);
     * the keyword's operand is typed, and another keyword may follow it */
    if ((!fp && !pq) || (fp && (acc->fp || acc->pq)) || (pq && acc->pq) ||
        (acc->state != TU_TYPED && acc->state != TU_TYPE)) {
        ERR(word, "expected ')' or ',', but got '%.*s'", (int)t.len, t.p);
        acc->state = -1;
        return;
    }
    if (fp) {
        acc->fp = acc->uses + 1;
        acc->fp_at = word;
    } else {
        acc->pq = acc->uses + 1;
        acc->pq_at = word;
    }
    acc->state = TU_TYPED;
}

/* The first token at or after byte at (after blanks and // comments): where MLIR's parser
 * stands when a custom parser reports at its current location past the op's last token. */
static Span next_token(const Parser *p, uint32_t at)
{
    const char *t = p->src->text;
    size_t n = p->src->len;
    while (at < n) {
        if (t[at] == ' ' || t[at] == '\t' || t[at] == '\n' || t[at] == '\r')
            at++;
        else if (t[at] == '/' && at + 1 < n && t[at + 1] == '/')
            while (at < n && t[at] != '\n')
                at++;
        else
            break;
    }
    return (Span){at, at < n ? at + 1 : at};
}

/* Where an attribute dict starts: the '{' before its first entry. */
static Span dict_open(const Parser *p, const Attr *a)
{
    const char *t = p->src->text;
    uint32_t at = a->span.begin;
    while (at > 0 && t[at - 1] != '{')
        at--;
    return at > 0 ? (Span){at - 1, at} : a->span;
}

/* PTOAS's vector ops take `ins(%a, %b : T1, T2) outs(%d : T) {attrs}` only (no per-operand
 * types, no attributes inside ins or outs), except that tcvt writes its attributes inside
 * ins before the ':' and never after outs, and tcolsum with a tmp writes them after the tmp.
 * Each other form stops PTOAS's parser with MLIR's message at the token it stands on
 * (false, reported). */
static bool vec_syntax(Parser *p, const Draft *d, TypedUses ins, TypedUses outs, uint32_t ntrailing, Span whole)
{
    const OpInfo *in = op_info(d->kind);
    if (!(in->opflags & OF_VEC))
        return true;
    /* the custom parsers that read an optional `, %tmp` after the first operand */
    bool opt_comma = in->opflags & OF_TMP_COMMA;
    const Span *tspans = p->ty_spans + p->ntys - ins.types - outs.types;
    if (ins.state == TU_TYPED && ins.uses > 1) {
        if (opt_comma)
            ERR(next_token(p, tspans[0].end), "expected ')'");
        else
            ERR(next_token(p, d->uses[0].end), "expected ','");
        return false;
    }
    bool attrs_in_ins = (in->opflags & OF_ATTRS_IN_INS) || ((in->opflags & OF_ATTRS_AFTER_TMP) && ins.uses == 2);
    if ((ins.attrs && !attrs_in_ins) || outs.attrs) {
        ERR(dict_open(p, &d->attrs[0]), "expected ':'"); /* the first dict: ins's, else outs's */
        return false;
    }
    if (ntrailing && attrs_in_ins) {
        ERR(dict_open(p, &d->attrs[ins.attrs + outs.attrs]), "expected operation name in quotes");
        return false;
    }
    /* PTOAS's tdivs parser, once it has read the op, wants one tile_buf and one other ins
     * operand, and a tile_buf dst */
    if ((d->kind == OP_TDIVS || d->kind == OP_TDIVS_SF) && ins.types == 2 && outs.types == 1 && d->utys) {
        bool t0 = d->utys[0] && d->utys[0]->kind == TY_TILE_BUF, t1 = d->utys[1] && d->utys[1]->kind == TY_TILE_BUF;
        if (t0 == t1) {
            ERR(next_token(p, whole.end), "expected exactly one tile_buf operand and one scalar operand");
            return false;
        }
        if (!d->utys[2] || d->utys[2]->kind != TY_TILE_BUF) {
            ERR(next_token(p, whole.end), "expected outs type to be !pto.tile_buf<...>");
            return false;
        }
    }
    /* PTOAS's tcvt parser takes satmode as sat_mode, once, after reading ins's types */
    if (d->kind == OP_TCVT && find_attr(d, "satmode") && find_attr(d, "sat_mode")) {
        ERR(next_token(p, tspans[ins.types - 1].end), "cannot specify both satmode and sat_mode");
        return false;
    }
    return true;
}

/* The clauses written after outs (ir.h TailClause) and their operands. */
typedef struct Clauses {
    const ClauseItem *items;
    uint32_t n, nuses;
    const Span *uses;           /* the operand clauses' uses and types, in order */
    const Type *const *tys;
    /* by role: the operand a clause gives it */
    Span use[MAX_ROLES];
    const Type *ty[MAX_ROLES];
    bool has[MAX_ROLES];
} Clauses;

/* Pops the last n clauses, and their operands off the use and type stacks (the buffers
 * keep them: nothing is pushed until the op is built). */
static void pop_clauses(Parser *p, uint32_t n, Clauses *c)
{
    memset(c, 0, sizeof *c);
    if (n > p->nclauses) /* lost to error recovery (reported) */
        n = (uint32_t)p->nclauses;
    c->items = p->clauses + p->nclauses - n;
    c->n = n;
    for (uint32_t i = 0; i < n; i++)
        c->nuses += c->items[i].kind == CL_OPERAND;
    if (c->nuses > p->nuses || c->nuses > p->ntys)
        c->nuses = 0;
    c->uses = p->uses + p->nuses - c->nuses;
    c->tys = p->tys + p->ntys - c->nuses;
    p->nuses -= c->nuses;
    p->ntys -= c->nuses;
    p->nclauses -= n;
}

static bool attr_text_is_hash(const Parser *p, Span s) { return s.end > s.begin && p->src->text[s.begin] == '#'; }

/* The clauses written after outs (ir.h TailClause), checked as PTOAS's generated parser
 * reads them: each clause of the op's list at most once, in the list's order. A word
 * out of place ends that parser's op: MLIR then reads it as the next op's name, an
 * unknown one (its message adds " (tried 'func.WORD' as well)", which ptoas's
 * unknown-op message leaves out everywhere). Attribute clauses become attributes of d;
 * operand clauses fill ops->use/ty/has by role. False:
 * reported. */
static bool apply_clauses(Parser *p, Draft *d, Clauses *ops)
{
    const ClauseItem *cl = ops->items;
    uint32_t nclauses = ops->n, nuses = ops->nuses;
    const Span *uses = ops->uses;
    const Type *const *tys = ops->tys;
    int nlist;
    const TailClause *list = op_tail_clauses(d->kind, &nlist);
    int next = 0;
    bool ok = true;
    for (uint32_t i = 0, u = 0; i < nclauses; i++) {
        const ClauseItem *c = &cl[i];
        uint32_t at = c->kind == CL_OPERAND ? u++ : 0;
        Str w = pb_text(p, c->word);
        int k = next;
        while (k < nlist && !str_eq(w, list[k].word, strlen(list[k].word)))
            k++;
        if (k == nlist) {
            ERR(c->word, "custom op '%.*s' is unknown", (int)w.len, w.p);
            return false;
        }
        next = k + 1;
        RoleId role = list[k].role;
        if (role != ROLE_COUNT) { /* an operand: parseOperand */
            if (c->kind != CL_OPERAND) {
                ERR(c->value, "expected SSA operand");
                ok = false;
                continue;
            }
            int r = op_role(d->kind, role);
            if (r < 0 || at >= nuses)
                continue;
            ops->use[r] = uses[at];
            ops->ty[r] = tys[at];
            ops->has[r] = true;
            continue;
        }
        AttrValue *v = c->val;
        bool pad_mode = STR_EQ_LIT(w, "pad_mode");
        if (pad_mode) { /* PadModeAttr: `<PadValue>`, or `#pto.padmode<PadValue>` */
            if (c->kind == CL_STRIPPED) {
                Str x = pb_text(p, c->inner);
                int e = enum_lookup(EK_PAD_MODE, x.p, x.len);
                if (e < 0) {
                    pb_pad_mode_error(p, c->inner);
                    ok = false;
                    continue;
                }
                v = pb_new_aval(p, AV_ENUM, (Span){c->value.begin, c->inner.end + 1});
                v->u.e.kind = EK_PAD_MODE;
                v->u.e.value = e;
            } else if (c->kind != CL_ATTR || (v && !(v->kind == AV_ENUM && v->u.e.kind == EK_PAD_MODE))) {
                if (c->kind == CL_ATTR && attr_text_is_hash(p, c->value))
                    ERR(c->value, "invalid kind of attribute specified");
                else
                    ERR(c->value, "expected '<'");
                ok = false;
                continue;
            }
        } else { /* init_out_buffer: a BoolAttr, which MLIR reads with type i1 (0 and 1 are bools) */
            if (c->kind != CL_ATTR) {
                ERR(c->value, "expected attribute value");
                ok = false;
                continue;
            }
            if (v && v->kind == AV_INT && v->type == DT_NONE) {
                if (v->u.i != 0 && v->u.i != 1) {
                    ERR(c->value, "integer constant out of range for attribute");
                    ok = false;
                    continue;
                }
                AttrValue *bv = pb_new_aval(p, AV_BOOL, v->span);
                bv->u.b = v->u.i == 1;
                v = bv;
            } else if (v && v->kind != AV_BOOL) {
                ERR(c->value, "invalid kind of attribute specified");
                ok = false;
                continue;
            }
        }
        if (!v) { /* reported */
            ok = false;
            continue;
        }
        /* an entry of the same name in the attribute dict gives way to the clause */
        for (uint32_t j = 0; j < d->nattrs; j++)
            if (str_eq(d->attrs[j].key, w.p, w.len)) {
                memmove(&d->attrs[j], &d->attrs[j + 1], (d->nattrs - j - 1) * sizeof *d->attrs);
                d->nattrs--;
                break;
            }
        Attr *na = arena_alloc(&p->m->arena, (d->nattrs + 1) * sizeof *na);
        memcpy(na, d->attrs, d->nattrs * sizeof *na);
        na[d->nattrs++] = (Attr){w, false, (Span){c->word.begin, c->value.end}, v};
        d->attrs = na;
    }
    return ok;
}

/* Puts the clause operands into d, in role order among the others. */
static void place_clause_operands(Parser *p, Draft *d, const Clauses *ops)
{
    const OpInfo *in = op_info(d->kind);
    uint32_t n = d->n;
    for (int r = 0; r < in->nroles; r++)
        n += ops->has[r];
    if (n == d->n)
        return;
    Span *u = arena_alloc(&p->m->arena, n * sizeof *u);
    const Type **t = arena_alloc(&p->m->arena, n * sizeof *t);
    uint32_t from = 0, to = 0;
    for (int r = 0; r < in->nroles; r++) {
        if (ops->has[r]) {
            u[to] = ops->use[r];
            t[to++] = ops->ty[r];
            d->seg[r] = 1;
            continue;
        }
        for (uint32_t k = 0; k < d->seg[r]; k++, from++) {
            u[to] = d->uses[from];
            t[to++] = d->utys ? d->utys[from] : NULL;
        }
    }
    d->uses = u;
    d->utys = t;
    d->n = n;
}

/* pto.textract writes `ins(%src, %r, %c[, %pq] : T, index, index[, i64] [fp %fp : Tf])`,
 * pto.tinsert `ins(%src, %r, %c : T, index, index [fp %fp : Tf] [pre_quant %pq : i64])`
 * (PTOAS's formats): the keywords where each format has them (false: reported). */
static bool window_keywords(Parser *p, const Draft *d, TypedUses ins, TypedUses outs)
{
    bool extract = op_info(d->kind)->cls == OC_EXTRACT;
    uint32_t n = ins.uses;
    bool ok = !outs.fp && !outs.pq;
    if (extract)
        ok &= !ins.pq && (!ins.fp || (ins.fp == n && (n == 4 || n == 5)));
    else
        ok &= (!ins.fp || ins.fp == 4) && (!ins.pq || ins.pq == (ins.fp ? 5u : 4u)) &&
              n == 3u + !!ins.fp + !!ins.pq;
    if (ok)
        return true;
    Span at = outs.fp ? outs.fp_at : outs.pq ? outs.pq_at : ins.pq && (extract || !ins.fp || ins.fp == 4) ? ins.pq_at
              : ins.fp ? ins.fp_at : d->name;
    if (extract)
        ERR(at, "'%s' op expects `fp %%fp : type` only last in ins, after the index types", op_name(d->kind));
    else
        ERR(at, "'%s' op expects `fp %%fp : type` and then `pre_quant %%pq : i64` only after the index types",
            op_name(d->kind));
    return false;
}

/* The optional ins of textract/tinsert into their roles (fp, preQuantScalar): a 4th
 * operand without `fp` is textract's scalar, and textract writes the scalar before fp. */
static void window_operands(Parser *p, Draft *d, TypedUses ins)
{
    if (d->seg[3] && !d->seg[4] && !ins.fp) {
        d->seg[3] = 0;
        d->seg[4] = 1;
    } else if (d->seg[3] && d->seg[4] && ins.fp == 5 && !ins.pq && d->n >= 5) { /* textract: %pq, then fp %fp */
        Span *u = arena_alloc(&p->m->arena, d->n * sizeof *u);
        const Type **t = arena_alloc(&p->m->arena, d->n * sizeof *t);
        memcpy(u, d->uses, d->n * sizeof *u);
        memcpy(t, d->utys, d->n * sizeof *t);
        u[3] = d->uses[4], u[4] = d->uses[3];
        t[3] = d->utys[4], t[4] = d->utys[3];
        d->uses = u;
        d->utys = t;
    }
}

void pb_op_compute_l2(Parser *p, Span name, TypedUses ins, TypedUses outs, uint32_t ntrailing, uint32_t nclauses,
                      Span whole)
{
    Draft d;
    Clauses cl;
    pop_clauses(p, nclauses, &cl);
    uint32_t nin_uses = ins.uses, nin_types = ins.types, nout_uses = outs.uses, nout_types = outs.types;
    uint32_t nattrs = ins.attrs + outs.attrs + ntrailing;
    draft_init(p, &d, name, FORM_L2, nin_uses + nout_uses, nattrs);
    if (ins.state < 0 || outs.state < 0) {
        emit_broken(p, &d);
        return;
    }
    if (nin_uses != nin_types || nout_uses != nout_types) {
        bool ins = nin_uses != nin_types;
        ERR(name, "'%s' op has %u '%s' operand%s, but %u type%s", op_name(d.kind), ins ? nin_uses : nout_uses,
            ins ? "ins" : "outs", (ins ? nin_uses : nout_uses) == 1 ? "" : "s", ins ? nin_types : nout_types,
            (ins ? nin_types : nout_types) == 1 ? "" : "s");
        emit_broken(p, &d);
        return;
    }
    d.utys = p->tys + p->ntys - nin_types - nout_types;
    if (p->nresults) {
        ERR(name, "'%s' op in ins/outs form has no results", op_name(d.kind));
        emit_broken(p, &d);
        return;
    }
    /* PTOAS's pto.tquant reads ins(src, fp[, offset] : ...) outs(dst[, tmp] : ...) (MX is
     * pto.tquant.mx); other counts stop its parser at the token after the operands it took */
    if (d.kind == OP_TQUANT && nin_uses && (nin_uses == 1 || nin_uses > 3 || nout_uses > 2)) {
        uint32_t last = nin_uses == 1 ? 0 : nin_uses > 3 ? 2 : nin_uses + 1;
        ERR(last < d.n ? next_token(p, d.uses[last].end) : name, nin_uses == 1 ? "expected ','" : "expected ':'");
        emit_broken(p, &d);
        return;
    }
    d.kind = classify_tquant(&d, nin_uses, nout_uses, -1);
    d.kind = classify_tdivs(&d);
    d.kind = classify_tgather(&d, nout_uses);
    const OpInfo *in = op_info(d.kind);
    if (!vec_syntax(p, &d, ins, outs, ntrailing, whole)) {
        emit_broken(p, &d);
        return;
    }
    bool window = in->cls == OC_EXTRACT || in->cls == OC_INSERT;
    if (window && !window_keywords(p, &d, ins, outs)) {
        emit_broken(p, &d);
        return;
    }
    if (!window && (outs.fp || outs.pq || ins.pq || (ins.fp && (in->cls != OC_STORE || ins.fp != 2)))) {
        bool pq = outs.pq || ins.pq;
        ERR(pq ? (outs.pq ? outs.pq_at : ins.pq_at) : outs.fp ? outs.fp_at : ins.fp_at,
            "'%s' op expects '%s' only %s", op_name(d.kind), pq ? "pre_quant" : "fp",
            pq ? "in the ins of 'pto.tinsert'" : "before the second ins operand of 'pto.tstore'");
        emit_broken(p, &d);
        return;
    }
    if (!assign_group(p, &d, 0, in->nins, nin_uses, "ins ") ||
        !assign_group(p, &d, in->nins, in->nroles, nout_uses, "outs ")) {
        emit_broken(p, &d);
        return;
    }
    if (window)
        window_operands(p, &d, ins);
    /* tmov/tstore: src, then a tile (tmov's tmp or fp; tstore's after `fp`) and/or an i64 */
    bool store = in->cls == OC_STORE;
    if ((in->opflags & OF_DST_SECOND) && d.seg[1] && !d.seg[2]) {
        bool scalar = d.utys[1] && d.utys[1]->kind == TY_SCALAR;
        if (store ? ins.fp != 2 : scalar)
            d.seg[1] = 0, d.seg[2] = 1;
    } else if (store && d.seg[1] && ins.fp != 2) {
        ERR(d.uses[1], "'pto.tstore' op expects 'fp' before its fp tile");
        emit_broken(p, &d);
        return;
    }
    /* PTOAS's custom parser of tquant.mx asks for quant_type once the attributes are read;
     * a plain tquant without one fails MLIR's check of required attributes (the verifier) */
    if (d.kind == OP_TQUANT_MX && !find_attr(&d, "quant_type")) {
        ERR(next_token(p, whole.end), "expects quant_type attribute");
        emit_broken(p, &d);
        return;
    }
    /* the clauses come last in PTOAS's format: reported after the rest of the op; the op
     * keeps the clauses read before a failing one */
    if (!apply_clauses(p, &d, &cl))
        d.bad = true;
    place_clause_operands(p, &d, &cl);
    emit(p, &d);
}

/* Keyword operands (`addr = %a`, `shape = [...]`) must name the op's roles
 * from first_role on, in order; fills d->seg. */
static bool assign_keywords(Parser *p, Draft *d, int first_role)
{
    const OpInfo *in = op_info(d->kind);
    int next = first_role;
    for (size_t i = 0; i < p->nkws; i++) {
        const KwOperand *k = &p->kws[i];
        Str key = pb_text(p, k->key);
        int r = -1;
        for (int j = first_role; j < in->nroles; j++)
            if (str_eq(key, in->role[j], strlen(in->role[j])))
                r = j;
        if (r < 0) {
            char list[128];
            size_t used = 0;
            list[0] = 0;
            for (int j = first_role; j < in->nroles; j++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                         j == first_role ? "" : j == in->nroles - 1 ? " or " : ", ", in->role[j]);
            ERR(k->key, "'%s' op expects %s, but got '%.*s'", op_name(d->kind), list, (int)key.len, key.p);
            return false;
        }
        if (r < next) {
            ERR(k->key, "'%s' op expects '%.*s' %s", op_name(d->kind), (int)key.len, key.p,
                r == next - 1 ? "only once" : "earlier");
            return false;
        }
        if (!(in->flags[r] & ROLE_VAR) && k->bracket) {
            ERR(k->key, "'%s' op expects one SSA value for '%s'", op_name(d->kind), in->role[r]);
            return false;
        }
        d->seg[r] = k->n;
        next = r + 1;
    }
    for (int j = first_role; j < in->nroles; j++)
        if (!d->seg[j] && !(in->flags[j] & (ROLE_OPT | ROLE_VAR))) {
            ERR(d->name, "'%s' op expects '%s = ...'", op_name(d->kind), in->role[j]);
            return false;
        }
    return true;
}

void pb_op_alloc(Parser *p, Span name, uint32_t nattrs, const Type *t, Span tspan)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, (uint32_t)p->nuses, nattrs);
    d.nres = 1;
    d.rtys = &t;
    d.rspans = &tspan;
    if (d.kind == OP_DECLARE_TILE) { /* PTOAS's format: attr-dict `->` type */
        ERR(p->nkws ? p->kws[0].key : next_token(p, name.end), "expected '->'");
        emit_broken(p, &d);
        return;
    }
    if (!bind_results(p, &d, 1) || !assign_keywords(p, &d, 0)) {
        emit_broken(p, &d);
        return;
    }
    /* PTOAS's operand types: addr is i64, the valid sizes index; another type is a use of
     * the value at a type it does not have */
    const OpInfo *in = op_info(d.kind);
    const Type **utys = arena_zalloc(&p->m->arena, (d.n ? d.n : 1) * sizeof *utys);
    for (uint32_t r = 0, u = 0; r < (uint32_t)in->nroles && u < d.n; r++)
        for (uint32_t k = 0; k < d.seg[r] && u < d.n; k++, u++)
            utys[u] = type_scalar(&p->m->types, in->rid[r] == ROLE_ADDR ? DT_I64 : DT_INDEX);
    d.utys = utys;
    bool multi = d.kind == OP_ALLOC_MULTI_TILE; /* == PIPE == */
    if (t && (multi ? t->kind != TY_MULTI_TILE : !type_is_tile(t))) {
        char b[256];
        ERR(tspan, "'%s' op result must be a %s type, but got '%s'", op_name(d.kind), multi ? "multi_tile_buf" : "tile",
            type_str(t, b, sizeof b));
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

/* An op whose nuses operands are one use each, the first typed `from`, and
 * whose one result is typed `to` (`pto.tassign %x, %a : T1 -> T2`,
 * `pto.treshape %t : T1 -> T2`). */
static void op_typed_result(Parser *p, Span name, uint32_t nuses, uint32_t nattrs, const Type *from,
                            const Type *to, Span tspan, const Type *second)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    const Type **utys = arena_zalloc(&p->m->arena, nuses * sizeof *utys);
    utys[0] = from;
    if (nuses > 1)
        utys[1] = second; /* tassign's addr: i64 (PTOAS's operand type) */
    d.utys = utys;
    for (uint32_t i = 0; i < nuses; i++)
        d.seg[i] = 1;
    d.nres = 1;
    d.rtys = &to;
    d.rspans = &tspan;
    if (!bind_results(p, &d, 1)) {
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

void pb_op_tassign(Parser *p, Span name, const Type *from, const Type *to, Span tspan)
{
    op_typed_result(p, name, 2, 0, from, to, tspan, type_scalar(&p->m->types, DT_I64));
}

void pb_op_tassign_isa(Parser *p, Span name, Span sym, Span addr, int addr_tok)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, 1, 0);
    d.seg[0] = 1;
    Str s = pb_text(p, sym);
    int64_t a = 0;
    bool ok = bind_results(p, &d, 0);
    if (ok && !STR_EQ_LIT(s, "@tile")) {
        ERR(sym, "expected '@tile(ADDRESS)', but got '%.*s'", (int)s.len, s.p);
        ok = false;
    }
    if (ok && !pb_parse_int(pb_text(p, addr), &a)) {
        ERR(addr, "integer value out of range");
        ok = false;
    }
    if (!ok) {
        emit_broken(p, &d);
        return;
    }
    Op *op = emit(p, &d);
    op->has_tile_addr = true;
    op->tile_addr = a;
    op->hex_addr = addr_tok == T_HEX;
}

/* The value of a use that names an integer arith.constant defined earlier. */
static bool use_constant(Parser *p, Span use, int64_t *out)
{
    NameSlot *slot = pb_name_slot(p, pb_ssa_name(p, use));
    if (!slot->name.p || slot->id == NO_VALUE)
        return false;
    return ir_const_int(p->fn, slot->id, out);
}

/* PTOAS infers partition_view's result from its sizes: constant sizes give
 * static dimensions, others '?'. */
static const Type *infer_partition_type(Parser *p, const Type *src)
{
    const KwOperand *sizes = NULL;
    for (size_t i = 0; i < p->nkws; i++)
        if (STR_EQ_LIT(pb_text(p, p->kws[i].key), "sizes"))
            sizes = &p->kws[i];
    if (!src || !sizes || sizes->n == 0 || sizes->n > 8 ||
        (src->kind != TY_TENSOR_VIEW && src->kind != TY_PART_VIEW))
        return NULL;
    int64_t dims[8];
    for (uint32_t i = 0; i < sizes->n; i++)
        if (!use_constant(p, p->uses[sizes->first + i], &dims[i]) || dims[i] < 0)
            dims[i] = DIM_DYNAMIC;
    return type_view(&p->m->types, TY_PART_VIEW, src->dtype, sizes->n, dims);
}

void pb_op_view(Parser *p, Span name, uint32_t nattrs, const Type *t1, Span s1, const Type *t2, Span s2)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, (uint32_t)p->nuses, nattrs);
    bool make = d.kind == OP_MAKE_TENSOR_VIEW;
    const Type **utys = arena_zalloc(&p->m->arena, (d.n ? d.n : 1) * sizeof *utys);
    if (!make && d.n)
        utys[0] = t1;
    d.utys = utys;
    d.seg[0] = 1;
    const Type *rt = make ? t1 : t2;
    Span rs = make ? s1 : s2;
    d.nres = 1;
    d.rtys = &rt;
    d.rspans = &rs;
    if (!make && !t2 && t1) {
        rt = infer_partition_type(p, t1);
        rs = s1;
        t2 = rt;
    }
    bool ok = bind_results(p, &d, 1) && assign_keywords(p, &d, 1);
    if (ok && make && t2) {
        ERR(name, "'%s' op expects a single result type after ':'", op_name(d.kind));
        ok = false;
    }
    if (ok && !make && !t2) {
        ERR(name, "'%s' op expects 'source type -> result type' after ':'", op_name(d.kind));
        ok = false;
    }
    if (!ok) {
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

/* ---- tile views (pto.treshape, pto.subview, pto.set_validshape) ----------------------
 * Their custom forms follow PTOAS: `%r = pto.treshape %t : T1 -> T2`,
 * `%r = pto.subview %t[%i, %j] sizes [R, C] (valid [%vr, %vc])? : T1 (-> T2)?`,
 * `pto.set_validshape %t, %vr, %vc : T`. The rules are the verifier's. */

void pb_op_treshape(Parser *p, Span name, uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts)
{
    (void)fs;
    op_typed_result(p, name, 1, nattrs, from, to, ts, NULL);
}

/* `valid` before pto.subview's valid operands is a keyword. */
void pb_subview_valid_kw(Parser *p, Span kw)
{
    Str t = pb_text(p, kw);
    if (!STR_EQ_LIT(t, "valid"))
        ERR(kw, "expected 'valid', but got '%.*s'", (int)t.len, t.p);
}

/* PTOAS infers pto.subview's result: shape = sizes, valid = sizes or the
 * constant valid operand clipped to sizes ('?' when not constant), the rest
 * from the source. NULL when the sizes or the source do not allow it. */
static const Type *infer_subview_type(Parser *p, const Type *src, const AttrValue *sizes, const Span *valid)
{
    if (!src || !type_is_tile(src) || !sizes || sizes->kind != AV_ARRAY || sizes->u.arr.n != 2)
        return NULL;
    int64_t dim[2];
    for (int i = 0; i < 2; i++) {
        const AttrValue *x = sizes->u.arr.items[i];
        if (!x || x->kind != AV_INT)
            return NULL;
        dim[i] = x->u.i;
    }
    TileBody b = src->tile;
    b.rows = dim[0];
    b.cols = dim[1];
    int64_t v[2] = {dim[0], dim[1]};
    for (int i = 0; valid && i < 2; i++) {
        int64_t c;
        v[i] = use_constant(p, valid[i], &c) ? (c < dim[i] ? c : dim[i]) : DIM_DYNAMIC;
    }
    b.vrow = v[0];
    b.vcol = v[1];
    return type_tile(&p->m->types, src->kind, &b);
}

void pb_op_subview(Parser *p, Span name, uint32_t noffsets, Span sizes_kw, AttrValue *sizes, uint32_t nvalid,
                   uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, 1 + noffsets + nvalid, nattrs);
    const Type **utys = arena_zalloc(&p->m->arena, d.n * sizeof *utys);
    utys[0] = from;
    d.utys = utys;
    d.seg[0] = 1;
    d.seg[1] = noffsets;
    d.seg[2] = d.seg[3] = nvalid ? 1 : 0;
    Str kw = pb_text(p, sizes_kw);
    bool ok = bind_results(p, &d, 1);
    if (ok && !STR_EQ_LIT(kw, "sizes")) {
        ERR(sizes_kw, "expected 'sizes', but got '%.*s'", (int)kw.len, kw.p);
        ok = false;
    }
    if (ok && !sizes)
        ok = false; /* reported where it failed */
    if (ok) {
        Attr *na = arena_alloc(&p->m->arena, (d.nattrs + 1) * sizeof *na);
        na[0] = (Attr){{"sizes", 5}, false, sizes->span, sizes};
        memcpy(na + 1, d.attrs, d.nattrs * sizeof *na);
        d.attrs = na;
        d.nattrs++;
    }
    if (ok && !to) {
        to = infer_subview_type(p, from, sizes, nvalid ? d.uses + 1 + noffsets : NULL);
        ts = fs;
        if (!to) {
            ERR(name, "failed to infer pto.subview result type");
            ok = false;
        }
    }
    d.nres = 1;
    d.rtys = to ? &to : NULL;
    d.rspans = &ts;
    if (!ok) {
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

void pb_op_set_validshape(Parser *p, Span name, uint32_t nattrs, const Type *t, Span ts)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, 3, nattrs);
    const Type **utys = arena_zalloc(&p->m->arena, 3 * sizeof *utys);
    utys[0] = t;
    (void)ts;
    d.utys = utys;
    d.seg[0] = d.seg[1] = d.seg[2] = 1;
    if (!bind_results(p, &d, 0)) {
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

/* The result type of arith.constant is the type of its value. */
static const Type *constant_type(Parser *p, const Draft *d, const AttrValue *v)
{
    if (!v)
        return NULL;
    if (v->kind == AV_BOOL)
        return type_scalar(&p->m->types, DT_I1);
    if ((v->kind == AV_INT || v->kind == AV_FLOAT) && v->type != DT_NONE)
        return type_scalar(&p->m->types, v->type);
    if (v->kind == AV_INT || v->kind == AV_FLOAT)
        ERR(v->span, "'%s' op expects a typed value such as '4096 : i64'", op_name(d->kind));
    else
        ERR(v->span, "'%s' op expects an integer, float or boolean value", op_name(d->kind));
    return NULL;
}

void pb_op_constant(Parser *p, Span name, AttrValue *v)
{
    Draft d;
    draft_init(p, &d, name, FORM_L1, 0, 0);
    const Type *t = constant_type(p, &d, v);
    d.nres = 1;
    d.rtys = &t;
    if (!bind_results(p, &d, 1) || !t) {
        emit_broken(p, &d);
        return;
    }
    Op *op = emit(p, &d);
    op->constant = v;
}

void pb_op_return(Parser *p, Span name, uint32_t nuses, uint32_t ntypes)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, nuses, 0);
    d.seg[0] = nuses;
    if (nuses != ntypes) {
        ERR(name, "'%s' op has %u operand%s, but %u type%s", op_name(d.kind), nuses, nuses == 1 ? "" : "s",
            ntypes, ntypes == 1 ? "" : "s");
        emit_broken(p, &d);
        return;
    }
    d.utys = p->tys + p->ntys - ntypes;
    if (d.kind == OP_SET_FFTS && ntypes == 1 && d.utys[0] && d.utys[0]->kind != TY_PTR) {
        ERR(p->ty_spans[p->ntys - 1], "invalid kind of type specified"); /* MLIR's parseType<PtrType> */
        emit_broken(p, &d);
        return;
    }
    if (!bind_results(p, &d, 0)) {
        emit_broken(p, &d);
        return;
    }
    emit(p, &d);
}

/* `%r:N` defines N results, used as %r#0 .. %r#N-1 (MLIR's result groups). */
/* An op ptoas lacks, at name: reported with the closest op names, and the
 * names of its results (bind: the grammar read them for this op) defined as
 * poisoned values, so that their uses report nothing more (one error per
 * mistake). */
void pb_unknown_op(Parser *p, Span name, bool bind)
{
    Str t = pb_text(p, name);
    StrBuf sb = {0};
    ERR(name, "custom op '%.*s' is unknown%s", (int)t.len, t.p, memchr(t.p, '.', t.len) ? pb_suggest_op(t, &sb) : "");
    sb_free(&sb);
    if (bind && p->nresults && p->fn && p->blk) {
        Draft d;
        draft_init(p, &d, name, FORM_L1, 0, 0);
        d.kind = OP_RETURN; /* any kind: the op is only kept to bind its results */
        emit_broken(p, &d);
    }
}

void pb_multi_result(Parser *p, Span name, Span count)
{
    int64_t n = 0;
    if (!pb_parse_int(pb_text(p, count), &n) || n < 1 || n > 65536) {
        Str c = pb_text(p, count);
        ERR(count, "expected a result count from 1 to 65536, but got '%.*s'", (int)c.len, c.p);
        pb_push_result(p, name);
        p->multi_result = true;
        return;
    }
    Str base = pb_ssa_name(p, name);
    for (int64_t i = 0; i < n; i++) {
        char *s = arena_alloc(&p->m->arena, base.len + 24);
        int len = snprintf(s, base.len + 24, "%.*s#%lld", (int)base.len, base.p, (long long)i);
        pb_push_result(p, name);
        p->rnames[p->nresults - 1] = (Str){s, (uint32_t)len};
    }
}

/* OF_DST_SECOND ops: the generic-form position of role r of n (src and the other k
 * required ins, dst, then the optional ins in role order); the printer writes the same
 * order. */
static uint32_t dst_second_at(uint32_t r, uint32_t n, uint32_t k) { return r < k ? r : r == n - 1 ? k : r + 1; }

/* Operands written src, dst, then the optional ins: put them in role order. */
static void dst_second_reorder(Parser *p, Draft *d)
{
    if (d->n <= 2)
        return;
    Span *u = arena_alloc(&p->m->arena, d->n * sizeof *u);
    const Type **t = d->utys ? arena_alloc(&p->m->arena, d->n * sizeof *t) : NULL;
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t from = dst_second_at(i, d->n, op_dst_at(op_info(d->kind)));
        u[i] = d->uses[from];
        if (t)
            t[i] = d->utys[from];
    }
    d->uses = u;
    d->utys = t;
}

/* Segment sizes of a generic op: operandSegmentSizes, or by position. */
static bool generic_segments(Parser *p, Draft *d, AttrValue *segs, uint32_t nres)
{
    const OpInfo *in = op_info(d->kind);
    if (segs) {
        if (segs->kind != AV_DENSE) {
            ERR(segs->span, "expected 'operandSegmentSizes = array<i32: ...>'");
            return false;
        }
        uint32_t n = segs->u.dense.n;
        const int64_t *v = segs->u.dense.items;
        int64_t tq4[5];
        if (d->kind == OP_TQUANT && n == 4) { /* PTOAS: [src, scale, offset, dst] */
            memcpy(tq4, v, 4 * sizeof *v);
            tq4[4] = 0;
            v = tq4;
            n = 5;
        }
        int64_t dst2[MAX_ROLES];
        bool ptoas_order = (in->opflags & OF_DST_SECOND) && n == in->nroles;
        if (ptoas_order) { /* PTOAS: [src, dst, the optional ins...]; roles: src, the optional ins..., dst */
            for (uint32_t r = 0; r < n; r++)
                dst2[r] = v[dst_second_at(r, n, op_dst_at(in))];
            v = dst2;
        }
        if (n != in->nroles) {
            ERR(segs->span, "'%s' op expects operandSegmentSizes with %u entries, but got %u", op_name(d->kind),
                in->nroles, segs->u.dense.n);
            return false;
        }
        uint64_t sum = 0;
        for (uint32_t r = 0; r < n; r++) {
            bool okv = (in->flags[r] & ROLE_VAR) ? v[r] >= 0 && v[r] <= UINT32_MAX
                       : (in->flags[r] & ROLE_OPT) ? (v[r] == 0 || v[r] == 1)
                                                   : v[r] == 1;
            if (!okv) {
                ERR(segs->span, "'%s' op: operandSegmentSizes entry for '%s' must be %s, but got %lld",
                    op_name(d->kind), in->role[r],
                    (in->flags[r] & ROLE_VAR) ? "non-negative" : (in->flags[r] & ROLE_OPT) ? "0 or 1" : "1",
                    (long long)v[r]);
                return false;
            }
            d->seg[r] = (uint32_t)v[r];
            sum += (uint64_t)v[r];
        }
        if (sum != d->n) {
            ERR(segs->span, "operandSegmentSizes adds up to %llu operands, but the op has %u",
                (unsigned long long)sum, d->n);
            return false;
        }
        if (ptoas_order)
            dst_second_reorder(p, d);
        return true;
    }
    if ((in->opflags & OF_DST_SECOND) && !nres)
        dst_second_reorder(p, d);
    if (in->syntax == SYN_COMPUTE && nres)
        return assign_group(p, d, 0, l1_operand_roles(in), d->n, "") &&
               check_l1_results(p, d, nres);
    return assign_group(p, d, 0, in->nroles, d->n, "");
}

static void op_generic(Parser *p, Span name, uint32_t nuses, uint32_t nparams, uint32_t nresults, uint32_t nattrs,
                       uint32_t nregions);

/* The generic form; the op's nregions regions are parsed already (pend):
 * the op built takes them, and an op not built drops them. */
void pb_op_generic(Parser *p, Span name, uint32_t nuses, uint32_t nparams, uint32_t nresults, uint32_t nattrs,
                   uint32_t nregions)
{
    if (nregions > p->npend) /* a region lost to error recovery */
        nregions = (uint32_t)p->npend;
    p->gen_nregions = nregions;
    op_generic(p, name, nuses, nparams, nresults, nattrs, nregions);
    p->npend -= p->gen_nregions;
    p->gen_nregions = 0;
}

/* What op_generic's per-syntax operand rules find beside the segments. */
typedef struct GenericExtras {
    bool isa;           /* pto.tassign's ISA form: the address is an attribute */
    int64_t tile_addr;
    AttrValue *value;   /* arith.constant's value */
} GenericExtras;

/* The generic form's operand and result rules of each custom syntax: the segments, and
 * the counts each syntax requires (reported at the op's name). */
static bool generic_operands(Parser *p, Draft *d, Span name, uint32_t nuses, uint32_t nresults,
                             const Type *const *rtys, AttrValue *segs, GenericExtras *o)
{
    const OpInfo *in = op_info(d->kind);
    bool ok = true;
    switch (in->syntax) {
    case SYN_TASSIGN: {
        AttrValue *a = take_attr(d, "addr");
        if (a && nuses == 1 && nresults == 0) {
            if (a->kind != AV_INT) {
                ERR(a->span, "'pto.tassign' op expects an integer 'addr'");
                ok = false;
            }
            o->isa = true;
            o->tile_addr = a->u.i;
            d->seg[0] = 1;
        } else if (nuses != 2 || nresults != 1) {
            ERR(name, "'pto.tassign' op expects (tile, addr) -> tile, or (tile) -> () with an 'addr' attribute");
            ok = false;
        } else {
            d->seg[0] = d->seg[1] = 1;
        }
        break;
    }
    case SYN_FOR: /* lowerBound upperBound step initArgs...; the rest is the verifier's */
        if (nuses < 3) {
            ERR(name, "'scf.for' op expected 3 or more operands, but found %u", nuses);
            ok = false;
        }
        d->seg[0] = d->seg[1] = d->seg[2] = 1;
        d->seg[3] = nuses - 3;
        break;
    case SYN_WHILE: /* inits...; the regions are the verifier's */
        d->seg[0] = nuses;
        break;
    case SYN_EXECUTE_REGION:
        if (nuses) {
            ERR(name, "'scf.execute_region' op requires zero operands");
            ok = false;
        }
        break;
    case SYN_CONDITION:
        if (nuses < 1) {
            ERR(name, "'scf.condition' op expected 1 or more operands, but found 0");
            ok = false;
        } else if (nresults) {
            ERR(name, "'scf.condition' op requires zero results");
            ok = false;
        }
        d->seg[0] = 1;
        d->seg[1] = nuses ? nuses - 1 : 0;
        break;
    case SYN_IF:
        if (nuses != 1) {
            ERR(name, "'scf.if' op expected 1 operands, but found %u", nuses);
            ok = false;
        }
        d->seg[0] = 1;
        break;
    case SYN_CONSTANT:
        o->value = take_attr(d, "value");
        if (nuses || nresults != 1 || !o->value) {
            ERR(name, "'arith.constant' op expects no operands, one result and a 'value' attribute");
            ok = false;
        } else if (constant_type(p, d, o->value) != rtys[0]) {
            ERR(name, "'arith.constant' op result type must match the type of its value");
            ok = false;
        }
        break;
    case SYN_ARITH:
    case SYN_CALL:
    case SYN_LOAD_SCALAR:
    case SYN_STORE_SCALAR:
        ok = pb_scalar_generic(p, d, nresults);
        break;
    default:
        ok = generic_segments(p, d, segs, in->syntax == SYN_COMPUTE ? nresults : 0);
        if (ok && in->syntax != SYN_COMPUTE) {
            uint32_t want = in->syntax == SYN_RETURN || d->kind == OP_SET_VALIDSHAPE || d->kind == OP_LOCAL_ARRAY_SET ||
                            d->kind == OP_EVENTID_ARRAY_SET || d->kind == OP_CMO_CACHEINVALID ||
                            d->kind == OP_COMM_TNOTIFY || d->kind == OP_COMM_TWAIT ? 0 : 1;
            if (pipe_op_results(d->kind) >= 0) /* == PIPE == */
                want = (uint32_t)pipe_op_results(d->kind);
            if (nresults && in->syntax == SYN_RETURN) {
                ERR(name, "'%s' op requires zero results", op_name(d->kind));
                ok = false;
            } else if (nresults != want) {
                ERR(name, "'%s' op expects %u result%s, but got %u", op_name(d->kind), want, want == 1 ? "" : "s",
                    nresults);
                ok = false;
            } else if (in->cls == OC_ALLOC && !type_is_tile(rtys[0])) {
                char b[256]; /* as the custom form reports it (its printed form could not be read back) */
                ERR(d->rspans[0], "'%s' op result must be a tile type, but got '%s'", op_name(d->kind),
                    type_str(rtys[0], b, sizeof b));
                ok = false;
            }
        }
        break;
    }
    return ok;
}

/* Whether ptoas implements the dialect of the op name n (MLIR's registered dialects of
 * PTOAS's tool): an unknown op of one of these is an error even under
 * --allow-unregistered-dialect, as in MLIR. */
static bool dialect_registered(Str n)
{
    static const char *const known[] = {"builtin", "func", "arith", "scf", "pto"};
    const char *dot = memchr(n.p, '.', n.len);
    size_t len = dot ? (size_t)(dot - n.p) : n.len;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i]) == len && memcmp(known[i], n.p, len) == 0)
            return true;
    return false;
}

/* MLIR's DictionaryAttr order (by key) for an unregistered op's attributes, printed as
 * mlir-opt prints them; untyped integers are i64 there (insertion sort: a few keys). */
static void sort_attrs(Attr *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0; j--) {
            Str x = a[j - 1].key, y = a[j].key;
            size_t m = x.len < y.len ? x.len : y.len;
            int c = memcmp(x.p, y.p, m);
            if (c < 0 || (c == 0 && x.len <= y.len))
                break;
            Attr t = a[j - 1];
            a[j - 1] = a[j];
            a[j] = t;
        }
    for (uint32_t i = 0; i < n; i++)
        if (a[i].val && a[i].val->kind == AV_INT && a[i].val->type == DT_NONE)
            a[i].val->type = DT_I64;
}

/* A generic op whose name no row has (d->kind OP_COUNT): under --allow-unregistered-dialect
 * and of a dialect ptoas does not implement, it is kept as OP_UNREGISTERED (true);
 * otherwise MLIR's error is reported and the caller binds its results (false). */
static bool unregistered_op(Parser *p, Draft *d, Span name, uint32_t nuses, uint32_t nparams, uint32_t nresults,
                            const Type *const *params, const Type *const *rtys)
{
    Str t = pb_text(p, name);
    Str n = {t.p + 1, t.len - 2};
    if (dialect_registered(n)) {
        const char *dot = memchr(n.p, '.', n.len);
        StrBuf sb = {0};
        ERR(name, "unregistered operation '%.*s' found in dialect ('%.*s') that does not allow unknown operations%s",
            (int)n.len, n.p, (int)(dot ? dot - n.p : (ptrdiff_t)n.len), n.p, pb_suggest_op(n, &sb));
        sb_free(&sb);
        return false;
    }
    if (!p->allow_unregistered) { /* MLIR points after the name */
        ERR(((Span){name.end, name.end + 1}), "operation being parsed with an unregistered dialect. If this is "
                                               "intended, please use -allow-unregistered-dialect with the MLIR tool used");
        return false;
    }
    if (nparams != nuses) {
        ERR(name, "'%.*s' op has %u operand%s, but %u operand type%s", (int)n.len, n.p, nuses, nuses == 1 ? "" : "s",
            nparams, nparams == 1 ? "" : "s");
        return false;
    }
    d->kind = OP_UNREGISTERED;
    d->utys = params;
    d->nres = nresults;
    d->rtys = rtys;
    d->rspans = p->ty_spans + p->ntys - nresults;
    d->seg[0] = nuses;
    if (!bind_results(p, d, nresults)) {
        d->rtys = NULL;
        emit_broken(p, d);
        return true;
    }
    uint32_t nprops = p->gen_nprops < d->nattrs ? p->gen_nprops : d->nattrs;
    sort_attrs(d->attrs, nprops);
    sort_attrs(d->attrs + nprops, d->nattrs - nprops);
    Op *op = emit(p, d);
    op->uname = n;
    op->nprops = nprops;
    return true;
}

static void op_generic(Parser *p, Span name, uint32_t nuses, uint32_t nparams, uint32_t nresults, uint32_t nattrs,
                       uint32_t nregions)
{
    Draft d;
    draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    if (d.bad || (size_t)nparams + nresults > p->ntys) { /* stacks cut by error recovery */
        d.rtys = NULL;
        emit_broken(p, &d);
        return;
    }
    const Type *const *params = p->tys + p->ntys - nresults - nparams;
    const Type *const *rtys = p->tys + p->ntys - nresults;
    if (d.kind == OP_COUNT && unregistered_op(p, &d, name, nuses, nparams, nresults, params, rtys))
        return;
    if (d.kind == OP_COUNT) {
        d.kind = OP_RETURN; /* any kind: the op is only kept to bind its results */
        d.nres = nresults;
        d.rtys = rtys;
        if (bind_results(p, &d, nresults))
            emit_broken(p, &d);
        return;
    }
    if (nparams != nuses) {
        ERR(name, "'%s' op expects %u operand type%s, but got %u", op_name(d.kind), nuses, nuses == 1 ? "" : "s",
            nparams);
        emit_broken(p, &d);
        return;
    }
    d.utys = params;
    d.nres = nresults;
    d.rtys = rtys;
    d.rspans = p->ty_spans + p->ntys - nresults;
    if (!bind_results(p, &d, nresults)) {
        d.rtys = NULL;
        emit_broken(p, &d);
        return;
    }
    const OpInfo *in = op_info(d.kind);
    if (in->syntax == SYN_COMPUTE && nresults)
        d.form = FORM_L1;
    if (nregions && in->syntax != SYN_FOR && in->syntax != SYN_IF && in->syntax != SYN_WHILE &&
        in->syntax != SYN_EXECUTE_REGION && in->syntax != SYN_SECTION) {
        ERR(name, "'%s' op requires zero regions", op_name(d.kind));
        emit_broken(p, &d);
        return;
    }
    AttrValue *segs = take_attr(&d, "operandSegmentSizes");
    /* Level 2 without segment sizes: quant_type decides (operand counts overlap) */
    if (d.kind == OP_TQUANT)
        d.kind = classify_tquant(&d, nresults ? nuses : 0, nresults,
                                 segs && segs->kind == AV_DENSE ? (int)segs->u.dense.n : -1);
    d.kind = classify_tdivs(&d);
    d.kind = classify_tgather(&d, nresults);
    GenericExtras x = {false, 0, NULL};
    bool ok = generic_operands(p, &d, name, nuses, nresults, rtys, segs, &x);
    /* Level 1 (results) infers an omitted quant_type. Otherwise it is PTOAS's op, whose
     * required attribute MLIR checks when it verifies; ptoas does it here, so that the op is
     * never printed in the custom form without one (which could not be read back). */
    if (ok && (d.kind == OP_TQUANT || d.kind == OP_TQUANT_MX) && nresults)
        infer_quant_type(p, &d, rtys[0]);
    else if (ok && (d.kind == OP_TQUANT || d.kind == OP_TQUANT_MX) && !find_attr(&d, "quant_type")) {
        ERR(name, "'%s' op requires attribute 'quant_type'", op_name(d.kind));
        ok = false;
    }
    if (!ok) {
        emit_broken(p, &d);
        return;
    }
    Op *op = emit(p, &d);
    if (x.isa) {
        op->has_tile_addr = true;
        op->tile_addr = x.tile_addr;
    }
    op->constant = x.value;
}

/* For the other builders (build_arith.c). */
Op *pb_emit(Parser *p, Draft *d) { return emit(p, d); }
void pb_emit_broken(Parser *p, Draft *d) { emit_broken(p, d); }
bool pb_bind_results(Parser *p, Draft *d, uint32_t ntypes) { return bind_results(p, d, ntypes); }
void pb_draft_init(Parser *p, Draft *d, Span name, uint8_t form, uint32_t nuses, uint32_t nattrs)
{
    draft_init(p, d, name, form, nuses, nattrs);
}

/* ---- generic func.func and builtin.module ------------------------------------------ */
/* Takes the properties of a generic func.func or builtin.module: the ones the
 * op defines come out in *known (NULL if absent), the rest stay attributes. */
static Attr *take_props(Parser *p, uint32_t n, const char *const *names, AttrValue **known, size_t nknown,
                        uint32_t *nrest)
{
    Attr *a = pb_take_attrs(p, n);
    uint32_t k = 0;
    for (size_t j = 0; j < nknown; j++)
        known[j] = NULL;
    for (uint32_t i = 0; i < n; i++) {
        bool taken = false;
        for (size_t j = 0; j < nknown && !taken; j++)
            if (str_eq(a[i].key, names[j], strlen(names[j]))) {
                known[j] = a[i].val;
                taken = true;
            }
        if (!taken)
            a[k++] = a[i];
    }
    *nrest = k;
    return a;
}

/* Appends the attributes after a generic op's region to *attrs. */
static void append_attrs(Parser *p, Attr **attrs, uint32_t *n, uint32_t nmore)
{
    Attr *more = pb_take_attrs(p, nmore);
    Attr *all = arena_alloc(&p->m->arena, (*n + nmore) * sizeof *all);
    if (*n)
        memcpy(all, *attrs, *n * sizeof *all);
    if (nmore)
        memcpy(all + *n, more, nmore * sizeof *all);
    *attrs = all;
    *n += nmore;
}

void pb_gfunc_begin(Parser *p, Span kw, uint32_t nprops)
{
    static const char *const names[] = {"sym_name", "function_type", "sym_visibility"};
    AttrValue *v[3];
    uint32_t nrest;
    Attr *rest = take_props(p, nprops, names, v, 3, &nrest);
    Str name = {"", 0};
    Span name_span = kw;
    if (!v[0] || v[0]->kind != AV_STRING)
        ERR(kw, "'func.func' op requires attribute 'sym_name'");
    else {
        name = v[0]->u.s;
        name_span = v[0]->span;
    }
    int vis = 0;
    if (v[2] && v[2]->kind == AV_STRING)
        vis = STR_EQ_LIT(v[2]->u.s, "private") ? 1 : STR_EQ_LIT(v[2]->u.s, "public") ? 2 : 0;
    func_begin(p, kw, name, name_span, vis);
    Func *f = p->fn;
    f->attrs = rest;
    f->nattrs = nrest;
    p->gfunc_type = NULL;
    if (!v[1] || v[1]->kind != AV_FUNCTYPE) {
        ERR(kw, "'func.func' op requires attribute 'function_type'");
        return;
    }
    p->gfunc_type = v[1];
    f->nresults = v[1]->u.fn.nresults;
    f->results = v[1]->u.fn.results;
}

/* The entry block's arguments against the function type; a region with no
 * block at all is a declaration, decided at its end (pb_gfunc_end). */
static void gfunc_check_args(Parser *p)
{
    Func *f = p->fn;
    const AttrValue *ft = p->gfunc_type;
    const Block *entry = ir_entry(f);
    if (ft && entry->nargs != ft->u.fn.nparams) {
        /* mlir-opt's text, "1 arguments" included */
        ERR(f->span, "'func.func' op entry block must have %u arguments to match function signature",
            ft->u.fn.nparams);
    } else if (ft) {
        for (uint32_t i = 0; i < entry->nargs; i++) {
            const Value *a = &f->values[entry->args[i]];
            if (a->type && ft->u.fn.params[i] && a->type != ft->u.fn.params[i]) {
                char x[256], y[256];
                ERR(a->def, "type of entry block argument #%u('%s') must match the type of the corresponding "
                            "argument in function signature('%s')", i, type_str(a->type, x, sizeof x),
                    type_str(ft->u.fn.params[i], y, sizeof y));
                break;
            }
        }
    }
}

void pb_gfunc_body(Parser *p)
{
    if (p->gfunc_label || !p->gfunc_type || p->gfunc_type->u.fn.nparams == 0)
        gfunc_check_args(p);
    body_begin(p);
}

void pb_gfunc_end(Parser *p, Span close, uint32_t nattrs)
{
    Func *f = p->fn;
    append_attrs(p, &f->attrs, &f->nattrs, nattrs);
    if (!p->gfunc_label && !ir_entry(f)->first) {
        /* "({})": an empty region, MLIR's generic form of a declaration. Its
         * arguments have no names in the text: they are %arg0, %arg1, ... */
        const AttrValue *ft = p->gfunc_type;
        p->anon_args = -1;
        for (uint32_t i = 0; ft && i < ft->u.fn.nparams; i++)
            func_arg(p, f->span, arg_name(p, i), ft->u.fn.params[i], f->span, 1);
        f->decl = true;
        f->end_span = close;
        p->in_body = false;
        pb_op_reset(p);
        return;
    }
    if (!p->gfunc_label && p->gfunc_type && p->gfunc_type->u.fn.nparams > 0)
        gfunc_check_args(p); /* ops but no entry block label: the count is wrong */
    pb_func_end(p, close);
}

void pb_gmodule_begin(Parser *p, Span kw, uint32_t nprops)
{
    static const char *const names[] = {"sym_name", "sym_visibility"};
    AttrValue *v[2];
    uint32_t nrest;
    Attr *rest = take_props(p, nprops, names, v, 2, &nrest);
    Str name = {"", 0};
    if (v[0] && v[0]->kind == AV_STRING)
        name = v[0]->u.s;
    ModuleOp *mod = module_begin(p, kw, name);
    mod->attrs = rest;
    mod->nattrs = nrest;
}

void pb_gmodule_end(Parser *p, ModuleOp *mod, uint32_t nattrs)
{
    append_attrs(p, &mod->attrs, &mod->nattrs, nattrs);
    check_module_attrs(p, mod);
    pb_module_end(p, mod);
}

/* The mask-pattern form's axis, `ins(%src, {maskPattern = P} : T, "row")`: the string
 * becomes the op's `axis` attribute (PTOAS checks its value while parsing). */
void pb_push_gather_axis(Parser *p, Span s)
{
    Str t = pb_text(p, s);
    if (!(t.len == 5 && (memcmp(t.p, "\"row\"", 5) == 0 || memcmp(t.p, "\"col\"", 5) == 0)))
        ERR(next_token(p, s.end), "axis must be \"row\" or \"col\"");
    pb_push_attr(p, s, pb_attr_simple(p, AV_STRING, s), s);
    static const char axis[] = "axis";
    p->attrs[p->nattrs - 1].key = (Str){axis, 4};
    p->attrs[p->nattrs - 1].quoted = false;
}

/* The mask-pattern form: src alone in ins, its type after the pattern's dict. */
void pb_op_tgather_mask(Parser *p, Span name, TypedUses ins, uint32_t nattrs_in, TypedUses outs, uint32_t ntrailing,
                        uint32_t nclauses, Span whole)
{
    if (ins.state >= 0 && (ins.uses != 1 || ins.types != 0)) {
        Str op = pb_text(p, name);
        ERR(name, "'%.*s' op mask-pattern %.*s does not take extra ins operands", (int)op.len, op.p, (int)op.len - 4,
            op.p + 4);
        ins.state = -1;
    }
    ins.types = 1;
    ins.state = ins.state < 0 ? -1 : TU_TYPED;
    pb_op_compute_l2(p, name, ins, outs, nattrs_in + ntrailing, nclauses, whole);
}
