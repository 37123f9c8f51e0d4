/* verify_backend.c - PTOAS's rules for backend-partitioned files (docs/language.md
 * 2.1): the values of `pto.backend`, and the checks PTOAS makes when it assembles the
 * child modules of an outer module into one object. ptoas compiles the children as
 * nested modules of one program, so none of these limits its output; they are kept so
 * that a file assembles with ptoas exactly when it does with PTOAS (e32488c), with
 * PTOAS's texts at the places PTOAS reports them (the module keyword, no op prefix). */
#include <stdlib.h>
#include <string.h>
#include "pass.h"

/* The value of a string attribute or symbol as MLIR reads it: \" \\ \n \t \XX decoded. */
static void decode(StrBuf *b, Str s)
{
    b->len = 0;
    sb_putn(b, "", 0);
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.p[i];
        if (c == '\\' && i + 1 < s.len) {
            char e = s.p[++i];
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == '"' || e == '\\')
                c = e;
            else if (i + 1 < s.len) {
                char h = s.p[++i];
                unsigned hi = e <= '9' ? (unsigned)(e - '0') : (unsigned)((e | 0x20) - 'a' + 10);
                unsigned lo = h <= '9' ? (unsigned)(h - '0') : (unsigned)((h | 0x20) - 'a' + 10);
                c = (char)(hi << 4 | lo);
            }
        }
        sb_putc(b, c);
    }
}

static bool same_value(Str a, Str b)
{
    StrBuf x = {0}, y = {0};
    decode(&x, a);
    decode(&y, b);
    bool eq = x.len == y.len && memcmp(x.p, y.p, x.len) == 0;
    sb_free(&x);
    sb_free(&y);
    return eq;
}

/* PTOAS's `pto.backend` values, compared without regard to case. A module without the
 * attribute is fine; *has says whether it had one. */
static bool check_backend(DiagEngine *d, const ModuleOp *mod, bool *has)
{
    const Attr *a = ir_attr_find(mod->attrs, mod->nattrs, "pto.backend");
    *has = a != NULL;
    if (!a)
        return true;
    if (a->val->kind != AV_STRING) {
        diag_error(d, mod->span, "invalid pto.backend attribute. Expected string value 'emitc' or 'vpto'.");
        return false;
    }
    StrBuf v = {0};
    decode(&v, a->val->u.s);
    for (size_t i = 0; i < v.len; i++)
        if (v.p[i] >= 'A' && v.p[i] <= 'Z')
            v.p[i] = (char)(v.p[i] | 0x20);
    bool ok = (v.len == 5 && memcmp(v.p, "emitc", 5) == 0) || (v.len == 4 && memcmp(v.p, "vpto", 4) == 0);
    sb_free(&v);
    if (!ok)
        diag_error(d, mod->span, "invalid pto.backend '%.*s'. Expected 'emitc' or 'vpto'.", (int)a->val->u.s.len,
                   a->val->u.s.p);
    return ok;
}

static bool inside(const ModuleOp *mod, const ModuleOp *anc)
{
    for (; mod; mod = mod->parent)
        if (mod == anc)
            return true;
    return false;
}

static const Func *find_func(const ModuleOp *mod, Str name)
{
    for (uint32_t i = 0; i < mod->nfuncs; i++)
        if (same_value(mod->funcs[i]->name, name))
            return mod->funcs[i];
    return NULL;
}

static int cmp_str(const void *x, const void *y)
{
    const Str *a = x, *b = y;
    int c = memcmp(a->p, b->p, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The children of an outer module, and the rest of its body. */
typedef struct Outer {
    const ModuleOp *mod;       /* the file's one module, or NULL when the file's ops are wrapped */
    const ModuleOp **kids;     /* in text order */
    uint32_t nkids;
    const Func *stray;         /* the first function beside the children (text order), or NULL */
} Outer;

/* The names every func.call in child (and the modules nested in it) calls, sorted and
 * unique, as PTOAS collects them. */
static Str *callees(const Module *m, const ModuleOp *child, uint32_t *n)
{
    Str *v = NULL;
    uint32_t cnt = 0, cap = 0;
    for (uint32_t i = 0; i < m->nmods; i++) {
        if (!inside(m->mods[i], child))
            continue;
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                const Attr *ca = op->kind == OP_CALL ? ir_attr_find(op->attrs, op->nattrs, "callee") : NULL;
                if (!ca || ca->val->kind != AV_SYMBOL)
                    continue;
                if (cnt == cap) {
                    cap = cap ? cap * 2 : 8;
                    v = xrealloc(v, cap * sizeof *v);
                }
                v[cnt++] = ca->val->u.s;
            }
    }
    if (cnt)
        qsort(v, cnt, sizeof *v, cmp_str);
    uint32_t k = 0;
    for (uint32_t i = 0; i < cnt; i++)
        if (!k || cmp_str(&v[k - 1], &v[i]))
            v[k++] = v[i];
    *n = k;
    return v;
}

/* The name a function is exported under: its pto.ptodsl.logical_name, else its own. */
static Str logical_name(const Func *f)
{
    const Attr *a = ir_attr_find(f->attrs, f->nattrs, "pto.ptodsl.logical_name");
    return a && a->val->kind == AV_STRING ? a->val->u.s : f->name;
}

/* A public function with a body and no pto.kernel_kind: PTOAS replaces it with a wrapper
 * that calls the function of its logical name. */
static bool wrapped_export(const Func *f)
{
    const Attr *k = ir_attr_find(f->attrs, f->nattrs, "pto.kernel_kind");
    return f->visibility != 1 && !f->decl && !(k && k->val->kind == AV_ENUM && k->val->u.e.kind == EK_KERNEL_KIND);
}

/* What PTOAS checks when it makes child's compile unit: every function a call names
 * resolves in child or to exactly one public function of one sibling, and no two
 * wrapped exports share a logical name. */
static bool check_child(const Module *m, DiagEngine *d, const Outer *o, const ModuleOp *child)
{
    bool ok = true;
    uint32_t n;
    Str *names = callees(m, child, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (find_func(child, names[i]))
            continue;
        uint32_t found = 0;
        for (uint32_t k = 0; k < o->nkids; k++) {
            const ModuleOp *sib = o->kids[k];
            for (uint32_t j = 0; sib != child && j < sib->nfuncs; j++)
                found += sib->funcs[j]->visibility != 1 && same_value(sib->funcs[j]->name, names[i]);
        }
        if (found > 1)
            diag_error(d, child->span,
                       "mixed-backend child assembly does not yet support ambiguous cross-child function reference "
                       "'@%.*s'; found multiple sibling public func.func definitions",
                       (int)names[i].len, names[i].p);
        else if (!found)
            diag_error(d, child->span,
                       "mixed-backend child assembly does not yet support unresolved cross-child function reference "
                       "'@%.*s'; each cross-child func.call must resolve to one sibling public func.func",
                       (int)names[i].len, names[i].p);
        ok &= found == 1;
    }
    free(names);
    /* one error per logical name, in the order of its first function */
    for (uint32_t i = 0; i < child->nfuncs; i++) {
        const Func *f = child->funcs[i];
        if (!wrapped_export(f))
            continue;
        Str name = logical_name(f);
        bool first = true, twice = false;
        for (uint32_t j = 0; j < child->nfuncs; j++) {
            const Func *g = child->funcs[j];
            if (j == i || !wrapped_export(g) || !same_value(logical_name(g), name))
                continue;
            first &= j > i;
            twice = true;
        }
        if (first && twice) {
            diag_error(d, child->span,
                       "mixed-backend child assembly does not yet support ambiguous in-child logical reference "
                       "'@%.*s'; found multiple ABI-specialized public func.func definitions",
                       (int)name.len, name.p);
            ok = false;
        }
    }
    return ok;
}

/* The outer module: the file's module when the file is one module and nothing else,
 * otherwise the module MLIR wraps the file's top-level ops in. */
static void find_outer(const Module *m, Outer *o)
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
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        if (!mod->implicit && mod->parent == o->mod && mod != o->mod)
            o->kids[o->nkids++] = mod;
        if (mod == o->mod || (!o->mod && mod->implicit && !mod->parent))
            for (uint32_t j = 0; j < mod->nfuncs; j++)
                if (!o->stray || mod->funcs[j]->span.begin < o->stray->span.begin)
                    o->stray = mod->funcs[j];
    }
}

bool verify_backends(const Module *m, DiagEngine *d)
{
    Outer o;
    find_outer(m, &o);
    bool ok = true, has = false;
    if (o.mod)
        ok = check_backend(d, o.mod, &has);
    if (has) {
        /* one backend for the whole file: only a lone child becomes a compile unit */
        if (o.nkids == 1 && !o.stray)
            ok &= check_child(m, d, &o, o.kids[0]);
    } else if (o.nkids > 1 && o.stray) {
        diag_error(d, o.stray->span,
                   "mixed pto.backend fatobj mode expects either a single module or an outer module containing "
                   "only child modules; found non-module top-level ops alongside child modules.");
        ok = false;
    } else {
        for (uint32_t i = 0; i < o.nkids; i++) {
            bool child_has;
            ok &= check_backend(d, o.kids[i], &child_has);
            if (!o.stray)
                ok &= check_child(m, d, &o, o.kids[i]);
        }
    }
    free(o.kids);
    return ok;
}
