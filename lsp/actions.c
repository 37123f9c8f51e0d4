/* actions.c - code actions (actions.h, docs/lsp.md section 8). Everything
 * here comes from what one analysis already knows: its diagnostics, the op
 * table (op_info), the element types (dtype_name) and the SSA names of the
 * function a diagnostic is in. The expected-* comments are the ones
 * `ptoas --verify-diagnostics` reads (docs/cli.md section 4), placed as
 * mlir-lsp-server places them: one line above the diagnostic's line, with
 * that line's indent, using @below. */
#include "actions.h"
#include <stdlib.h>
#include <string.h>
#include "str.h"
#include "suggest.h"

static char *dup_cstr(const char *s)
{
    size_t n = strlen(s);
    return memcpy(xmalloc(n + 1), s, n + 1);
}

static char *dup_buf(const StrBuf *b)
{
    char *s = xmalloc(b->len + 1);
    memcpy(s, b->p ? b->p : "", b->len);
    s[b->len] = '\0';
    return s;
}

/* ---- building actions ------------------------------------------------------------ */

static FeatAction *new_action(FeatActions *out, FeatActionKind kind, uint32_t diag, char *title)
{
    xgrow32((void **)&out->v, &out->cap, (size_t)out->n + 1, sizeof *out->v);
    FeatAction *fa = &out->v[out->n++];
    memset(fa, 0, sizeof *fa);
    fa->title = title;
    fa->kind = kind;
    fa->diag = diag;
    return fa;
}

/* Adds an edit, keeping the edits sorted by offset (stable: insertions at one
 * offset stay in the order they were added). */
static void add_edit(FeatAction *fa, Span span, char *text)
{
    xgrow32((void **)&fa->edits, &fa->edits_cap, (size_t)fa->nedits + 1, sizeof *fa->edits);
    uint32_t i = fa->nedits++;
    while (i > 0 && fa->edits[i - 1].span.begin > span.begin) {
        fa->edits[i] = fa->edits[i - 1];
        i--;
    }
    fa->edits[i] = (FeatEdit){span, text};
}

/* ---- expected-* comments ------------------------------------------------------- */

static uint32_t line_begin(const Analysis *a, uint32_t off)
{
    if (off > a->len)
        off = (uint32_t)a->len;
    while (off > 0 && a->text[off - 1] != '\n')
        off--;
    return off;
}

static uint32_t line_end(const Analysis *a, uint32_t off)
{
    while (off < a->len && a->text[off] != '\n')
        off++;
    return off;
}

/* The comment line for one diagnostic at off: inserted at its line's start,
 * indented as that line, its message cut before anything that would end or
 * split the comment's {{...}}, and before the parser's "did you mean" (the
 * check matches a substring, so a prefix still matches). */
static void add_expect(const Analysis *a, FeatAction *fa, DiagSeverity sev, uint32_t off, const char *msg)
{
    static const char *const kinds[] = {"", "error", "warning", "note"};
    uint32_t ls = line_begin(a, off), p = ls, le = line_end(a, ls);
    while (p < le && (a->text[p] == ' ' || a->text[p] == '\t'))
        p++;
    StrBuf b = {0};
    sb_putn(&b, a->text + ls, p - ls);
    /* at the end of a file that ends with a line break the diagnostic is on
     * no line of text, and @below would find none: it is the next line */
    sb_printf(&b, "// expected-%s %s {{", kinds[sev >= SEV_ERROR && sev <= SEV_NOTE ? sev : SEV_NOTE],
              ls == a->len ? "@+1" : "@below");
    size_t n = strcspn(msg, "\n\r");
    const char *cut = strstr(msg, "}}");
    if (cut && (size_t)(cut - msg) < n)
        n = (size_t)(cut - msg);
    cut = strstr(msg, "expected-");
    if (cut && (size_t)(cut - msg) < n)
        n = (size_t)(cut - msg);
    /* nor the suggestions, which change as ops and names are added */
    cut = strstr(msg, "; did you mean '");
    if (cut && (size_t)(cut - msg) < n)
        n = (size_t)(cut - msg);
    cut = strstr(msg, "; element types:");
    if (cut && (size_t)(cut - msg) < n)
        n = (size_t)(cut - msg);
    sb_putn(&b, msg, n);
    sb_puts(&b, le > ls && a->text[le - 1] == '\r' ? "}}\r\n" : "}}\n");
    add_edit(fa, (Span){ls, ls}, dup_buf(&b));
    sb_free(&b);
}

/* The comments for diagnostic i and its notes, added to fa. */
static void add_expects(const Analysis *a, FeatAction *fa, uint32_t i)
{
    const ADiag *g = &a->diags[i];
    add_expect(a, fa, g->sev, g->span.begin, g->msg);
    for (uint32_t k = 0; k < g->nnotes; k++) {
        const ANote *n = &a->notes[g->first_note + k];
        add_expect(a, fa, SEV_NOTE, n->span.begin, n->msg);
    }
}

/* ---- misspelled names ----------------------------------------------------------- */

/* One action per suggestion, replacing span by quote + sigil + the
 * suggestion + quote (quote: a generic op name's '"'); the only one is
 * preferred. */
static void add_replacements(FeatActions *out, uint32_t diag, const Suggest *sg, Span span,
                             const char *sigil, const char *quote)
{
    for (uint32_t i = 0; i < sg->n; i++) {
        StrBuf t = {0}, rep = {0};
        sb_printf(&t, "Replace '%s%.*s' with '%s%.*s'", sigil, (int)sg->ntyped, sg->typed, sigil, (int)sg->len[i],
                  sg->name[i]);
        FeatAction *fa = new_action(out, FA_QUICKFIX, diag, dup_buf(&t));
        fa->preferred = sg->n == 1;
        sb_puts(&rep, quote);
        sb_puts(&rep, sigil);
        sb_putn(&rep, sg->name[i], sg->len[i]);
        sb_puts(&rep, quote);
        add_edit(fa, span, dup_buf(&rep));
        sb_free(&t);
        sb_free(&rep);
    }
}

/* The name quoted in msg after prefix, up to the closing quote of suffix
 * (msg must end with suffix); false if msg is not of that form. */
static bool quoted(const char *msg, const char *prefix, const char *suffix, const char **name, size_t *n)
{
    /* the parser's suggestions follow the message (parser/build_suggest.c) */
    size_t lm = strlen(msg), lp = strlen(prefix), ls = strlen(suffix);
    const char *tail = strstr(msg, "; did you mean '");
    if (!tail)
        tail = strstr(msg, "; element types:");
    if (tail)
        lm = (size_t)(tail - msg);
    if (lm < lp + ls || strncmp(msg, prefix, lp) != 0 || strncmp(msg + lm - ls, suffix, ls) != 0)
        return false;
    *name = msg + lp;
    *n = lm - lp - ls;
    return *n > 0;
}

/* "custom op 'X' is unknown" where X (with a dot: an op name, not a clause
 * word) is the text at the diagnostic, bare or as a generic op's "X". */
static void fix_op_name(const Analysis *a, uint32_t i, FeatActions *out)
{
    const ADiag *g = &a->diags[i];
    const char *x;
    size_t n;
    static const char unreg[] = "unregistered operation '"; /* a generic op of a known dialect */
    if (!quoted(g->msg, "custom op '", "' is unknown", &x, &n)) {
        const char *q = strncmp(g->msg, unreg, sizeof unreg - 1) == 0 ? strchr(g->msg + sizeof unreg - 1, '\'') : NULL;
        if (!q)
            return;
        x = g->msg + sizeof unreg - 1;
        n = (size_t)(q - x);
    }
    if (!memchr(x, '.', n))
        return;
    Span sp = g->span;
    const char *t = a->text;
    bool generic = sp.end - sp.begin == n + 2 && t[sp.begin] == '"' && t[sp.end - 1] == '"' &&
                   memcmp(t + sp.begin + 1, x, n) == 0;
    if (!generic && (sp.end - sp.begin != n || memcmp(t + sp.begin, x, n) != 0))
        return;
    Suggest sg;
    suggest_init(&sg, x, n);
    for (int k = 0; k < OP_COUNT; k++) {
        const OpInfo *in = op_info((OpKind)k);
        if (in && in->name && k != OP_UNREGISTERED)
            suggest_offer(&sg, in->name, strlen(in->name));
    }
    add_replacements(out, i, &sg, sp, "", generic ? "\"" : "");
}

/* "use of undeclared SSA value name '%y'": the names defined in the same
 * function. */
static void fix_value_name(const Analysis *a, uint32_t i, FeatActions *out)
{
    const ADiag *g = &a->diags[i];
    const char *x;
    size_t n;
    if (!quoted(g->msg, "use of undeclared SSA value name '%", "'", &x, &n))
        return;
    Span sp = g->span;
    if (sp.end - sp.begin != n + 1 || a->text[sp.begin] != '%' || memcmp(a->text + sp.begin + 1, x, n) != 0)
        return;
    const AFunc *f = analysis_func_at(a, sp.begin);
    if (!f)
        return;
    Suggest sg;
    suggest_init(&sg, x, n);
    for (uint32_t v = f->first_value; v < f->first_value + f->nvalues && v < a->nvals; v++)
        if (!a->vals[v].undefined)
            suggest_offer(&sg, a->vals[v].name.p, a->vals[v].name.len);
    add_replacements(out, i, &sg, sp, "%", "");
}

/* "expected non-function type, but got 'X'" (in a tile type) or "unknown
 * type 'X'": the closest element type names (f23 -> f32, idnex -> index). */
static void fix_dtype_name(const Analysis *a, uint32_t i, FeatActions *out)
{
    const ADiag *g = &a->diags[i];
    const char *x;
    size_t n;
    if (!quoted(g->msg, "expected non-function type, but got '", "'", &x, &n) &&
        !quoted(g->msg, "unknown type '", "'", &x, &n))
        return;
    Span sp = g->span;
    if (sp.end - sp.begin != n || memcmp(a->text + sp.begin, x, n) != 0)
        return;
    Suggest sg;
    suggest_init(&sg, x, n);
    for (int d = DT_NONE + 1; d < DT_COUNT; d++)
        suggest_offer(&sg, dtype_name((DType)d), strlen(dtype_name((DType)d)));
    add_replacements(out, i, &sg, sp, "", "");
}

/* ---- a missing quant_type --------------------------------------------------------- */

/* The quant_type the rule gives an op that lacks one, from its text t[0, n)
 * (the op name to its line's end): pto.tquant is INT8_ASYM with an offset
 * operand (a third `ins` operand, or a non-zero third operand segment) and
 * INT8_SYM without; pto.tquant.mx is MXFP4_E2M1 when its data is
 * !pto.f4E2M1x2, else MXFP8 (the parser's rule for Level 1, parser/build.c). */
static const char *quant_type_for(const char *t, size_t n, bool mx)
{
    if (mx) {
        for (size_t i = 0; i + 8 <= n; i++)
            if (memcmp(t + i, "f4E2M1x2", 8) == 0)
                return "MXFP4_E2M1";
        return "MXFP8";
    }
    unsigned ins = 0, segs[4] = {0}, nseg = 0;
    for (size_t i = 0; i + 4 <= n; i++) {
        if (memcmp(t + i, "ins(", 4) == 0 && ins == 0) { /* the operands before " : " */
            ins = 1;
            for (size_t j = i + 4; j < n && t[j] != ':' && t[j] != ')'; j++)
                ins += t[j] == ',';
        }
        if (i + 11 <= n && memcmp(t + i, "array<i32:", 10) == 0)
            for (size_t j = i + 10; j < n && t[j] != '>' && nseg < 4; j++)
                if (t[j] >= '0' && t[j] <= '9') {
                    unsigned v = 0;
                    while (j < n && t[j] >= '0' && t[j] <= '9')
                        v = v * 10 + (unsigned)(t[j++] - '0');
                    segs[nseg++] = v;
                    j--;
                }
    }
    return ins >= 3 || (nseg >= 3 && segs[2]) ? "INT8_ASYM" : "INT8_SYM";
}

/* "'pto.tquant' op requires attribute 'quant_type'" (also tquant.mx): the
 * attribute added to the op's dictionary, or a dictionary added (before the
 * generic form's " : (", at the end of the custom form's line). */
static void fix_quant_type(const Analysis *a, uint32_t i, FeatActions *out)
{
    const ADiag *g = &a->diags[i];
    bool mx = strcmp(g->msg, "'pto.tquant.mx' op requires attribute 'quant_type'") == 0;
    if (!mx && strcmp(g->msg, "'pto.tquant' op requires attribute 'quant_type'") != 0)
        return;
    const char *t = a->text;
    uint32_t b = g->span.begin, e = line_end(a, b);
    if (e > b && t[e - 1] == '\r')
        e--;
    const char *qt = quant_type_for(t + b, e - b, mx);
    bool generic = t[b] == '"';
    uint32_t end = e; /* where the dictionary ends (its '}'), or where one goes */
    if (generic) {
        const char *colon = NULL;
        for (uint32_t k = b; k + 3 < e && !colon; k++)
            if (memcmp(t + k, " : (", 4) == 0)
                colon = t + k;
        if (!colon)
            return;
        end = (uint32_t)(colon - t);
    }
    while (end > b && (t[end - 1] == ' ' || t[end - 1] == '\t'))
        end--;
    uint32_t open = end; /* the '{' of a dictionary that ends there */
    if (end > b && t[end - 1] == '}') {
        int depth = 0;
        for (uint32_t k = end; k-- > b;) {
            depth += t[k] == '}' ? 1 : t[k] == '{' ? -1 : 0;
            if (depth == 0) {
                open = k;
                break;
            }
        }
        if (open > b && t[open - 1] == '<')
            open = end; /* a property dictionary <{...}>: not the attributes */
    }
    StrBuf title = {0}, text = {0};
    sb_printf(&title, "Add quant_type = #pto<quant_type %s>", qt);
    FeatAction *fa = new_action(out, FA_QUICKFIX, i, dup_buf(&title));
    fa->preferred = true;
    if (open < end) {
        bool empty = open + 2 == end;
        sb_printf(&text, "quant_type = #pto<quant_type %s>%s", qt, empty ? "" : ", ");
        add_edit(fa, (Span){open + 1, open + 1}, dup_buf(&text));
    } else {
        sb_printf(&text, " {quant_type = #pto<quant_type %s>}", qt);
        add_edit(fa, (Span){end, end}, dup_buf(&text));
    }
    sb_free(&title);
    sb_free(&text);
}

/* == MLIR27 == "... requires explicit tmp ..." (a level3 rule, bufferize): the tmp bufferize
 * would make at Level 2 (Module.tmp_hints), allocated at a free address on new lines above
 * the op and added last to its ins(...) or outs(...) group (where the tmp role is last). */
static bool tmp_name_used(const Func *f, const char *s, size_t n)
{
    for (uint32_t v = 0; v < f->nvalues; v++)
        if (f->values[v].name.len == n && memcmp(f->values[v].name.p, s, n) == 0)
            return true;
    return false;
}

/* The offsets of the top-level " : " and of the closing ')' of the group that opens at
 * open (just after its '('); false when the group is not `(uses : types)`. */
static bool group_bounds(const char *t, size_t len, uint32_t open, uint32_t *colon, uint32_t *close)
{
    int depth = 0;
    *colon = 0;
    for (uint32_t k = open; k < len && t[k] != '\n'; k++) {
        char c = t[k];
        if (c == '<' || c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == '>' && (k == 0 || t[k - 1] != '-')) || c == ']' || c == '}' || (c == ')' && depth > 0))
            depth--;
        else if (c == ')') {
            *close = k;
            return *colon != 0;
        } else if (c == ':' && depth == 0 && !*colon)
            *colon = k;
        else if (c == ':' && depth == 0)
            return false; /* `%a : T, %b : T`: per-operand types */
    }
    return false;
}

static void fix_tmp(const Analysis *a, uint32_t i, FeatActions *out)
{
    const ADiag *g = &a->diags[i];
    const TmpHint *h = NULL;
    for (uint32_t k = 0; a->m && k < a->m->ntmp_hints && !h; k++)
        if (a->m->tmp_hints[k].at.begin == g->span.begin && a->m->tmp_hints[k].at.end == g->span.end)
            h = &a->m->tmp_hints[k];
    if (!h || h->addr < 0 || !strstr(g->msg, " requires "))
        return;
    const OpInfo *in = op_info(h->op->kind);
    bool outs = (in->flags[h->role] & ROLE_OUT) != 0;
    ValueId val[MAX_ROLES];
    ir_op_roles(h->op, val);
    for (int r = h->role + 1; r < in->nroles; r++) /* a later role of the group is written: not last */
        if (((in->flags[r] & ROLE_OUT) != 0) == outs && val[r] != NO_VALUE)
            return;
    const char *t = a->text;
    uint32_t k = g->span.end, le = line_end(a, k);
    const char *kw = outs ? "outs(" : "ins(";
    size_t kn = strlen(kw);
    while (k + kn <= le && (memcmp(t + k, kw, kn) != 0 || (k > 0 && t[k - 1] != ' ' && t[k - 1] != ')')))
        k++;
    uint32_t colon, close;
    if (k + kn > le || !group_bounds(t, le, k + (uint32_t)kn, &colon, &close))
        return;
    while (colon > k && t[colon - 1] == ' ')
        colon--;
    char name[32] = "tmp", addr[40] = "tmp_addr";
    for (unsigned s = 1; (tmp_name_used(h->f, name, strlen(name)) || tmp_name_used(h->f, addr, strlen(addr))) && s < 1000;
         s++) {
        snprintf(name, sizeof name, "tmp_%u", s);
        snprintf(addr, sizeof addr, "tmp_%u_addr", s);
    }
    char ty[512];
    type_str(h->type, ty, sizeof ty);
    uint32_t lb = line_begin(a, g->span.begin), ind = lb;
    while (ind < le && (t[ind] == ' ' || t[ind] == '\t'))
        ind++;
    StrBuf title = {0}, alloc = {0}, use = {0}, typ = {0};
    sb_printf(&title, "Add a %s operand: %%%s = pto.alloc_tile addr = %lld : %s", in->role[h->role], name,
              (long long)h->addr, ty);
    sb_printf(&alloc, "%.*s%%%s = arith.constant %lld : i64\n%.*s%%%s = pto.alloc_tile addr = %%%s : %s\n",
              (int)(ind - lb), t + lb, addr, (long long)h->addr, (int)(ind - lb), t + lb, name, addr, ty);
    sb_printf(&use, ", %%%s", name);
    sb_printf(&typ, ", %s", ty);
    FeatAction *fa = new_action(out, FA_QUICKFIX, i, dup_buf(&title));
    fa->preferred = true;
    add_edit(fa, (Span){lb, lb}, dup_buf(&alloc));
    add_edit(fa, (Span){colon, colon}, dup_buf(&use));
    add_edit(fa, (Span){close, close}, dup_buf(&typ));
    sb_free(&title);
    sb_free(&alloc);
    sb_free(&use);
    sb_free(&typ);
}

/* ---- entry points ------------------------------------------------------------- */

void feat_code_actions(const Analysis *a, uint32_t begin, uint32_t end, FeatActions *out)
{
    uint32_t ls = line_begin(a, begin), le = line_end(a, end < begin ? begin : end);
    for (uint32_t i = 0; i < a->ndiags; i++) {
        const ADiag *g = &a->diags[i];
        if (g->span.begin > le || (g->span.end > g->span.begin ? g->span.end : g->span.begin) < ls)
            continue;
        fix_op_name(a, i, out);
        fix_value_name(a, i, out);
        fix_dtype_name(a, i, out);
        fix_quant_type(a, i, out);
        fix_tmp(a, i, out);
        FeatAction *fa = new_action(out, FA_QUICKFIX, i, dup_cstr("Add expected-* diagnostic checks"));
        add_expects(a, fa, i);
    }
    if (a->ndiags) {
        FeatAction *fa = new_action(out, FA_SOURCE, UINT32_MAX,
                                    dup_cstr("Add expected-* diagnostic checks for the whole file"));
        for (uint32_t i = 0; i < a->ndiags; i++)
            add_expects(a, fa, i);
    }
}

void feat_actions_free(FeatActions *acts)
{
    for (uint32_t i = 0; i < acts->n; i++) {
        for (uint32_t k = 0; k < acts->v[i].nedits; k++)
            free(acts->v[i].edits[k].text);
        free(acts->v[i].edits);
        free(acts->v[i].title);
    }
    free(acts->v);
    acts->v = NULL;
    acts->n = acts->cap = 0;
}
