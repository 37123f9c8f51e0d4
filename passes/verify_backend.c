/* verify_backend.c - PTOAS's rules for backend-partitioned files (docs/language.md
 * 2.1): the values of `pto.backend`, and the checks PTOAS makes when it assembles the
 * child modules of an outer module into one object. ptoas compiles the children as
 * nested modules of one program, so none of these limits its output; they are kept so
 * that a file assembles with ptoas exactly when it does with PTOAS (e32488c), with
 * PTOAS's texts at the places PTOAS reports them (the module keyword, no op prefix). */
#include <stdlib.h>
#include <string.h>
#include "pass.h"

/* A name as MLIR compares it (key: \" \\ \n \t \XX decoded) and as written (raw, for
 * messages); i orders equal keys (text order). */
typedef struct Named {
    Str key, raw;
    uint32_t i;
} Named;

/* The value of a string attribute or symbol: the text itself unless it has escapes. */
static Str value_of(Arena *a, Str s)
{
    if (!s.len || !memchr(s.p, '\\', s.len))
        return s;
    char *out = arena_alloc(a, s.len + 1);
    uint32_t n = 0;
    for (size_t i = 0; i < s.len;)
        out[n++] = (char)str_unescape_next(s.p, s.len, &i);
    return (Str){out, n};
}

static int cmp_key(Str a, Str b)
{
    int c = a.len && b.len ? memcmp(a.p, b.p, a.len < b.len ? a.len : b.len) : 0;
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int cmp_named(const void *x, const void *y)
{
    const Named *a = x, *b = y;
    int c = cmp_key(a->key, b->key);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The first entry of v[0, n) (sorted) whose key is key; n if none. */
static uint32_t lower_bound(const Named *v, uint32_t n, Str key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_key(v[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void push(Named **v, uint32_t *n, size_t *cap, Named x)
{
    xgrow((void **)v, cap, (size_t)*n + 1, sizeof **v);
    (*v)[(*n)++] = x;
}

/* PTOAS's `pto.backend` values, compared without regard to case. A module without the
 * attribute is fine; *has says whether it had one. */
static bool check_backend(DiagEngine *d, Arena *a, const ModuleOp *mod, bool *has)
{
    const Attr *at = ir_attr_find(mod->attrs, mod->nattrs, "pto.backend");
    *has = at != NULL;
    if (!at)
        return true;
    if (at->val->kind != AV_STRING) {
        diag_error(d, mod->span, "invalid pto.backend attribute. Expected string value 'emitc' or 'vpto'.");
        return false;
    }
    Str v = value_of(a, at->val->u.s);
    char low[6] = {0};
    for (uint32_t i = 0; i < v.len && i < 5; i++)
        low[i] = (char)(v.p[i] >= 'A' && v.p[i] <= 'Z' ? v.p[i] | 0x20 : v.p[i]);
    bool ok = (v.len == 5 && memcmp(low, "emitc", 5) == 0) || (v.len == 4 && memcmp(low, "vpto", 4) == 0);
    if (!ok)
        diag_error(d, mod->span, "invalid pto.backend '%.*s'. Expected 'emitc' or 'vpto'.", (int)at->val->u.s.len,
                   at->val->u.s.p);
    return ok;
}

static bool inside(const ModuleOp *mod, const ModuleOp *anc)
{
    for (; mod; mod = mod->parent)
        if (mod == anc)
            return true;
    return false;
}

/* The children of an outer module, the rest of its body, and the public functions of
 * the children (sorted by name; i = the child's index), which cross-child calls name. */
typedef struct Outer {
    const ModuleOp *mod;       /* the file's one module, or NULL when the file's ops are wrapped */
    const ModuleOp **kids;     /* in text order */
    uint32_t nkids;
    const Func *stray;         /* the first function beside the children (text order), or NULL */
    Named *pub;
    uint32_t npub;
} Outer;

/* The names every func.call in child (and the modules nested in it) calls, sorted and
 * unique, as PTOAS collects them. */
static Named *callees(const Module *m, Arena *a, const ModuleOp *child, uint32_t *n)
{
    Named *v = NULL;
    uint32_t cnt = 0, k = 0;
    size_t cap = 0;
    for (uint32_t i = 0; i < m->nmods; i++) {
        if (!inside(m->mods[i], child))
            continue;
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                const Attr *ca = op->kind == OP_CALL ? ir_attr_find(op->attrs, op->nattrs, "callee") : NULL;
                if (ca && ca->val->kind == AV_SYMBOL)
                    push(&v, &cnt, &cap, (Named){value_of(a, ca->val->u.s), ca->val->u.s, cnt});
            }
    }
    if (cnt)
        qsort(v, cnt, sizeof *v, cmp_named);
    for (uint32_t i = 0; i < cnt; i++)
        if (!k || cmp_key(v[k - 1].key, v[i].key))
            v[k++] = v[i];
    *n = k;
    return v;
}

/* A public function with a body and no pto.kernel_kind: PTOAS replaces it with a wrapper
 * that calls the function of its logical name. */
static bool wrapped_export(const Func *f)
{
    const Attr *k = ir_attr_find(f->attrs, f->nattrs, "pto.kernel_kind");
    return f->visibility != 1 && !f->decl && !(k && k->val->kind == AV_ENUM && k->val->u.e.kind == EK_KERNEL_KIND);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* What PTOAS checks when it makes child's (the kid-th) compile unit: every function a
 * call names resolves in child or to exactly one public function of one sibling, and no
 * two wrapped exports share a logical name. */
static bool check_child(const Module *m, DiagEngine *d, Arena *a, const Outer *o, uint32_t kid)
{
    const ModuleOp *child = o->kids[kid];
    bool ok = true;
    Named *own = NULL, *exp = NULL;
    uint32_t nown = 0, nexp = 0, n;
    size_t cown = 0, cexp = 0;
    for (uint32_t i = 0; i < child->nfuncs; i++) {
        const Func *f = child->funcs[i];
        push(&own, &nown, &cown, (Named){value_of(a, f->name), f->name, i});
        if (wrapped_export(f)) {
            /* exported under its pto.ptodsl.logical_name, else its own name */
            const Attr *ln = ir_attr_find(f->attrs, f->nattrs, "pto.ptodsl.logical_name");
            Str raw = ln && ln->val->kind == AV_STRING ? ln->val->u.s : f->name;
            push(&exp, &nexp, &cexp, (Named){value_of(a, raw), raw, i});
        }
    }
    if (nown)
        qsort(own, nown, sizeof *own, cmp_named);
    Named *names = callees(m, a, child, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = lower_bound(own, nown, names[i].key);
        if (at < nown && !cmp_key(own[at].key, names[i].key))
            continue;
        uint32_t found = 0;
        for (at = lower_bound(o->pub, o->npub, names[i].key); at < o->npub && !cmp_key(o->pub[at].key, names[i].key);
             at++)
            found += o->pub[at].i != kid;
        if (found > 1)
            diag_error(d, child->span,
                       "mixed-backend child assembly does not yet support ambiguous cross-child function reference "
                       "'@%.*s'; found multiple sibling public func.func definitions",
                       (int)names[i].raw.len, names[i].raw.p);
        else if (!found)
            diag_error(d, child->span,
                       "mixed-backend child assembly does not yet support unresolved cross-child function reference "
                       "'@%.*s'; each cross-child func.call must resolve to one sibling public func.func",
                       (int)names[i].raw.len, names[i].raw.p);
        ok &= found == 1;
    }
    /* one error per shared logical name, in the order of its first function */
    if (nexp)
        qsort(exp, nexp, sizeof *exp, cmp_named);
    uint32_t *firsts = xmalloc((nexp + 1) * sizeof *firsts), nf = 0;
    for (uint32_t i = 0; i + 1 < nexp; i++)
        if (!cmp_key(exp[i].key, exp[i + 1].key) && (!i || cmp_key(exp[i - 1].key, exp[i].key)))
            firsts[nf++] = exp[i].i;
    qsort(firsts, nf, sizeof *firsts, cmp_u32);
    for (uint32_t i = 0; i < nf; i++) {
        const Func *f = child->funcs[firsts[i]];
        const Attr *ln = ir_attr_find(f->attrs, f->nattrs, "pto.ptodsl.logical_name");
        Str raw = ln && ln->val->kind == AV_STRING ? ln->val->u.s : f->name;
        diag_error(d, child->span,
                   "mixed-backend child assembly does not yet support ambiguous in-child logical reference "
                   "'@%.*s'; found multiple ABI-specialized public func.func definitions",
                   (int)raw.len, raw.p);
        ok = false;
    }
    free(firsts);
    free(names);
    free(own);
    free(exp);
    return ok;
}

/* The outer module: the file's module when the file is one module and nothing else,
 * otherwise the module MLIR wraps the file's top-level ops in. */
static void find_outer(const Module *m, Arena *a, Outer *o)
{
    memset(o, 0, sizeof *o);
    const ModuleOp *only = NULL;
    uint32_t roots = 0;
    bool funcs = false;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        if (mod->parent)
            continue;
        if (mod->implicit)
            funcs |= mod->nfuncs > 0;
        else {
            only = mod;
            roots++;
        }
    }
    o->mod = roots == 1 && !funcs ? only : NULL;
    o->kids = xmalloc((m->nmods + 1) * sizeof *o->kids);
    size_t cap = 0;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        if (!mod->implicit && mod->parent == o->mod && mod != o->mod) {
            for (uint32_t j = 0; j < mod->nfuncs; j++)
                if (mod->funcs[j]->visibility != 1)
                    push(&o->pub, &o->npub, &cap,
                         (Named){value_of(a, mod->funcs[j]->name), mod->funcs[j]->name, o->nkids});
            o->kids[o->nkids++] = mod;
        }
        if (mod == o->mod || (!o->mod && mod->implicit && !mod->parent))
            for (uint32_t j = 0; j < mod->nfuncs; j++)
                if (!o->stray || mod->funcs[j]->span.begin < o->stray->span.begin)
                    o->stray = mod->funcs[j];
    }
    if (o->npub)
        qsort(o->pub, o->npub, sizeof *o->pub, cmp_named);
}

bool verify_backends(const Module *m, DiagEngine *d)
{
    Arena a;
    arena_init(&a);
    Outer o;
    find_outer(m, &a, &o);
    bool ok = true, has = false;
    if (o.mod)
        ok = check_backend(d, &a, o.mod, &has);
    if (has) {
        /* one backend for the whole file: only a lone child becomes a compile unit */
        if (o.nkids == 1 && !o.stray)
            ok &= check_child(m, d, &a, &o, 0);
    } else if (o.nkids > 1 && o.stray) {
        diag_error(d, o.stray->span,
                   "mixed pto.backend fatobj mode expects either a single module or an outer module containing "
                   "only child modules; found non-module top-level ops alongside child modules.");
        ok = false;
    } else {
        for (uint32_t i = 0; i < o.nkids; i++) {
            bool child_has;
            ok &= check_backend(d, &a, o.kids[i], &child_has);
            if (!o.stray)
                ok &= check_child(m, d, &a, &o, i);
        }
    }
    free(o.kids);
    free(o.pub);
    arena_free(&a);
    return ok;
}
