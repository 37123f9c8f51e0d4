/* server.c - `ptoas lsp`: the protocol side of the language server (lsp.h,
 * docs/lsp.md). One thread: messages are read with Content-Length framing,
 * parsed with json.c, answered in order. Document changes only mark the
 * document; it is analyzed (analysis.c) and its diagnostics published when
 * the input has been quiet for the debounce time, or at once when a request
 * needs it. Nothing a client sends may crash or stall the server: every
 * malformed message gets the JSON-RPC error it deserves, or is dropped when it
 * has no id to answer. */
#include "lsp.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "actions.h"
#include "analysis.h"
#include "query.h"
#include "json.h"

enum {
    RPC_PARSE_ERROR = -32700,
    RPC_INVALID_REQUEST = -32600,
    RPC_METHOD_NOT_FOUND = -32601,
    RPC_INVALID_PARAMS = -32602,
    RPC_SERVER_NOT_INITIALIZED = -32002,
};

#define MAX_HEADER 8192            /* bytes of one message's header block */
#define MAX_BODY (64u << 20)       /* a larger message is skipped unread */
#define DEFAULT_DEBOUNCE_MS 5

typedef struct Doc {
    char *uri;
    char *text;
    size_t len, cap;
    int64_t version;
    bool dirty;           /* changed since the last analysis */
    Analysis *an;
} Doc;

struct LspServer {
    FILE *out;
    enum { ST_NEW, ST_RUNNING, ST_SHUT_DOWN, ST_EXITED } state;
    PosEncoding enc;
    PassConfig cfg;       /* arch and level from the settings */
    int debounce_ms;
    Doc *docs;
    size_t ndocs, docs_cap;
    Arena arena;          /* the current message's JSON tree */
    StrBuf buf;           /* the message being written */
    int exit_status;
};

/* ---- output ------------------------------------------------------------------ */

static void send_buf(LspServer *s)
{
    fprintf(s->out, "Content-Length: %zu\r\n\r\n", s->buf.len);
    fwrite(s->buf.p, 1, s->buf.len, s->out);
    fflush(s->out);
    s->buf.len = 0;
    if (s->buf.p)
        s->buf.p[0] = '\0';
}

/* Starts {"jsonrpc":"2.0","id":ID,"result": ; the caller writes the result. */
static void begin_result(LspServer *s, const Json *id)
{
    sb_puts(&s->buf, "{\"jsonrpc\":\"2.0\",\"id\":");
    jw_value(&s->buf, id);
    sb_puts(&s->buf, ",\"result\":");
}

static void end_result(LspServer *s)
{
    sb_putc(&s->buf, '}');
    send_buf(s);
}

static void send_error(LspServer *s, const Json *id, int code, const char *msg)
{
    s->buf.len = 0;
    sb_puts(&s->buf, "{\"jsonrpc\":\"2.0\",\"id\":");
    jw_value(&s->buf, id);
    sb_printf(&s->buf, ",\"error\":{\"code\":%d,\"message\":", code);
    jw_cstr(&s->buf, msg);
    sb_puts(&s->buf, "}}");
    send_buf(s);
}

static void put_position(LspServer *s, SourceFile *src, uint32_t off)
{
    uint32_t line, ch;
    source_position(src, off, s->enc, &line, &ch);
    sb_printf(&s->buf, "{\"line\":%u,\"character\":%u}", line, ch);
}

static void put_range(LspServer *s, SourceFile *src, Span sp)
{
    if (sp.end < sp.begin)
        sp.end = sp.begin;
    sb_puts(&s->buf, "{\"start\":");
    put_position(s, src, sp.begin);
    sb_puts(&s->buf, ",\"end\":");
    put_position(s, src, sp.end);
    sb_putc(&s->buf, '}');
}

static void put_location(LspServer *s, const Doc *d, Span sp)
{
    sb_puts(&s->buf, "{\"uri\":");
    jw_cstr(&s->buf, d->uri);
    sb_puts(&s->buf, ",\"range\":");
    put_range(s, &d->an->src, sp);
    sb_putc(&s->buf, '}');
}

/* ---- documents ------------------------------------------------------------------ */

static Doc *find_doc(LspServer *s, const char *uri)
{
    if (!uri)
        return NULL;
    for (size_t i = 0; i < s->ndocs; i++)
        if (strcmp(s->docs[i].uri, uri) == 0)
            return &s->docs[i];
    return NULL;
}

static void doc_set_text(Doc *d, const char *text, size_t len)
{
    if (len + 1 > d->cap) {
        d->cap = len + 1 + len / 2;
        d->text = xrealloc(d->text, d->cap);
    }
    memcpy(d->text, text, len);
    d->len = len;
    d->text[len] = '\0';
    d->dirty = true;
}

/* The diagnostics one publishDiagnostics carries at most (docs/lsp.md): a file of junk
 * gives one per token, and an editor gains nothing from a message of megabytes. The rest
 * are counted in one more diagnostic after them. */
#define LSP_MAX_DIAGS 1000

static void publish(LspServer *s, Doc *d)
{
    Analysis *a = d->an;
    sb_puts(&s->buf, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
    jw_cstr(&s->buf, d->uri);
    sb_printf(&s->buf, ",\"version\":%lld,\"diagnostics\":[", (long long)d->version);
    uint32_t shown = a && a->ndiags > LSP_MAX_DIAGS ? LSP_MAX_DIAGS : a ? a->ndiags : 0;
    for (uint32_t i = 0; i < shown; i++) {
        const ADiag *g = &a->diags[i];
        if (i)
            sb_putc(&s->buf, ',');
        sb_puts(&s->buf, "{\"range\":");
        put_range(s, &a->src, g->span);
        sb_printf(&s->buf, ",\"severity\":%d,\"code\":",
                  g->sev == SEV_ERROR ? 1 : g->sev == SEV_WARNING ? 2 : 3);
        jw_cstr(&s->buf, g->code);
        sb_puts(&s->buf, ",\"source\":\"ptoas\",\"message\":");
        jw_cstr(&s->buf, g->msg);
        if (g->nnotes) {
            sb_puts(&s->buf, ",\"relatedInformation\":[");
            for (uint32_t k = 0; k < g->nnotes; k++) {
                const ANote *n = &a->notes[g->first_note + k];
                if (k)
                    sb_putc(&s->buf, ',');
                sb_puts(&s->buf, "{\"location\":");
                put_location(s, d, n->span);
                sb_puts(&s->buf, ",\"message\":");
                jw_cstr(&s->buf, n->msg);
                sb_putc(&s->buf, '}');
            }
            sb_putc(&s->buf, ']');
        }
        sb_putc(&s->buf, '}');
    }
    if (a && shown < a->ndiags) {
        sb_puts(&s->buf, ",{\"range\":");
        put_range(s, &a->src, a->diags[shown].span);
        sb_printf(&s->buf, ",\"severity\":3,\"code\":\"diagnostic-limit\",\"source\":\"ptoas\",\"message\":\"%u more "
                           "diagnostics not shown "
                           "(at most %d are sent)\"}",
                  a->ndiags - shown, LSP_MAX_DIAGS);
    }
    sb_puts(&s->buf, "]}}");
    send_buf(s);
}

static void analyze(LspServer *s, Doc *d)
{
    if (!d->dirty && d->an)
        return;
    analysis_free(d->an);
    d->an = analysis_run(d->text, d->len, &s->cfg);
    d->dirty = false;
    publish(s, d);
}

void lsp_flush(LspServer *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i].dirty)
            analyze(s, &s->docs[i]);
}

static bool any_dirty(const LspServer *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i].dirty)
            return true;
    return false;
}

/* ---- settings -------------------------------------------------------------------- */

/* arch / level / debounceMs from initializationOptions or a settings object
 * (also nested as {"ptoas": {...}}). The object is the whole configuration:
 * a setting it leaves out goes back to its default (arch from the file, else
 * a3; level2), as when --pto-arch is not given. Unknown values are ignored. */
static void apply_settings(LspServer *s, const Json *v)
{
    if (!v || v->kind != JSON_OBJECT)
        return;
    const Json *nested = json_get(v, "ptoas");
    if (nested && nested->kind == JSON_OBJECT)
        v = nested;
    s->cfg = pass_config_default();
    const char *arch = json_str(json_get(v, "arch"));
    if (arch) {
        static const char *const names[] = {"a2", "a3", "a5"};
        for (int i = 0; i < 3; i++)
            if (strcmp(arch, names[i]) == 0) {
                s->cfg.arch = (Arch)i;
                s->cfg.arch_given = true;
            }
    }
    const char *level = json_str(json_get(v, "level"));
    if (level) {
        static const char *const names[] = {"level1", "level2", "level3"};
        for (int i = 0; i < 3; i++)
            if (strcmp(level, names[i]) == 0)
                s->cfg.level = (Level)(i + 1);
    }
    int64_t ms;
    if (json_int(json_get(v, "debounceMs"), &ms) && ms >= 0 && ms <= 10000)
        s->debounce_ms = (int)ms;
}

/* ---- requests -------------------------------------------------------------------- */

static void on_initialize(LspServer *s, const Json *id, const Json *params)
{
    if (s->state != ST_NEW) {
        send_error(s, id, RPC_INVALID_REQUEST, "the server is already initialized");
        return;
    }
    s->enc = POS_UTF16;
    const Json *encs = json_get(json_get(json_get(params, "capabilities"), "general"), "positionEncodings");
    if (encs && encs->kind == JSON_ARRAY)
        for (uint32_t i = 0; i < encs->n; i++) {
            const char *e = json_str(encs->items[i]);
            if (e && strcmp(e, "utf-8") == 0)
                s->enc = POS_UTF8;
        }
    apply_settings(s, json_get(params, "initializationOptions"));
    s->state = ST_RUNNING;
    begin_result(s, id);
    sb_puts(&s->buf, "{\"capabilities\":{\"positionEncoding\":");
    sb_puts(&s->buf, s->enc == POS_UTF8 ? "\"utf-8\"" : "\"utf-16\"");
    sb_puts(&s->buf, ",\"textDocumentSync\":{\"openClose\":true,\"change\":2},"
                     "\"hoverProvider\":true,\"definitionProvider\":true,\"referencesProvider\":true,"
                     "\"documentSymbolProvider\":true,"
                     "\"completionProvider\":{\"triggerCharacters\":[\"%\",\"#\",\"<\",\"=\",\".\",\" \"]},"
                     "\"inlayHintProvider\":true,"
                     "\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\",\"source\"]}},"
                     "\"serverInfo\":{\"name\":\"ptoas\",\"version\":\"" PTOAS_VERSION "\"}}");
    end_result(s);
}

/* The document and byte offset of a TextDocumentPositionParams, analyzed. */
static Doc *doc_at(LspServer *s, const Json *params, uint32_t *offset)
{
    Doc *d = find_doc(s, json_str(json_get(json_get(params, "textDocument"), "uri")));
    const Json *pos = json_get(params, "position");
    int64_t line, ch;
    if (!d || !json_int(json_get(pos, "line"), &line) || !json_int(json_get(pos, "character"), &ch) ||
        line < 0 || ch < 0)
        return NULL;
    analyze(s, d);
    *offset = source_offset(&d->an->src, line > UINT32_MAX ? UINT32_MAX : (uint32_t)line,
                            ch > UINT32_MAX ? UINT32_MAX : (uint32_t)ch, s->enc);
    return d;
}

static void on_hover(LspServer *s, const Json *id, const Json *params)
{
    uint32_t off;
    Doc *d = doc_at(s, params, &off);
    if (!d) {
        send_error(s, id, RPC_INVALID_PARAMS, "expected a known textDocument and a position");
        return;
    }
    StrBuf md = {0};
    Span at = {0, 0};
    bool found = feat_hover(d->an, off, &md, &at);
    begin_result(s, id);
    if (!found) {
        sb_puts(&s->buf, "null");
    } else {
        sb_puts(&s->buf, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
        jw_string(&s->buf, md.p, md.len);
        sb_puts(&s->buf, "},\"range\":");
        put_range(s, &d->an->src, at);
        sb_putc(&s->buf, '}');
    }
    sb_free(&md);
    end_result(s);
}

/* The function named by the @symbol at offset (its name span in *at). */
static const AFunc *symbol_at(const Analysis *a, uint32_t off, Span *at)
{
    const char *t = a->text;
    uint32_t b = off, e = off;
    while (b > 0 && (feat_ident_char(t[b - 1]) || t[b - 1] == '@'))
        b--;
    while (b < off && t[b] != '@')
        b++;
    if (b >= a->len || t[b] != '@')
        return NULL;
    e = b + 1;
    while (e < a->len && feat_ident_char(t[e]))
        e++;
    if (off < b || off > e)
        return NULL;
    for (uint32_t i = 0; i < a->nfuncs; i++) {
        const AFunc *f = &a->funcs[i];
        if (f->name.len == e - b - 1 && memcmp(f->name.p, t + b + 1, f->name.len) == 0) {
            *at = (Span){b, e};
            return f;
        }
    }
    return NULL;
}

/* Every "@name" of the text outside comments and strings. */
static void symbol_refs(LspServer *s, const Doc *d, const AFunc *f, bool *first)
{
    const Analysis *a = d->an;
    const char *t = a->text;
    size_t n = a->len;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n' && t[i] != '\r')
                i++;
            continue;
        }
        if (t[i] == '"') {
            for (i++; i < n && t[i] != '"' && t[i] != '\n' && t[i] != '\r'; i++)
                if (t[i] == '\\')
                    i++;
            continue;
        }
        if (t[i] != '@')
            continue;
        size_t e = i + 1;
        while (e < n && feat_ident_char(t[e]))
            e++;
        if (e - i - 1 == f->name.len && memcmp(t + i + 1, f->name.p, f->name.len) == 0 &&
            (i == 0 || !feat_ident_char(t[i - 1])) && i != f->name_span.begin) {
            if (!*first)
                sb_putc(&s->buf, ',');
            *first = false;
            put_location(s, d, (Span){(uint32_t)i, (uint32_t)e});
        }
        i = e - 1;
    }
}

static void on_definition(LspServer *s, const Json *id, const Json *params, bool refs)
{
    uint32_t off;
    Doc *d = doc_at(s, params, &off);
    if (!d) {
        send_error(s, id, RPC_INVALID_PARAMS, "expected a known textDocument and a position");
        return;
    }
    const Analysis *a = d->an;
    const AValue *v = analysis_value_at(a, off);
    Span at;
    const AFunc *sym = v ? NULL : symbol_at(a, off, &at);
    begin_result(s, id);
    if (!v && !sym) {
        sb_puts(&s->buf, refs ? "[]" : "null");
        end_result(s);
        return;
    }
    if (!refs) {
        put_location(s, d, v ? v->def : sym->name_span);
        end_result(s);
        return;
    }
    const Json *ctx = json_get(params, "context");
    bool decl = !ctx || json_get(ctx, "includeDeclaration") == NULL ||
                json_get(ctx, "includeDeclaration")->kind == JSON_TRUE;
    sb_putc(&s->buf, '[');
    bool first = true;
    if (v) {
        if (decl && !v->undefined) {
            put_location(s, d, v->def);
            first = false;
        }
        uint32_t vi = (uint32_t)(v - a->vals);
        for (uint32_t i = 0; i < a->nuses; i++)
            if (a->uses[i].value == vi) {
                if (!first)
                    sb_putc(&s->buf, ',');
                first = false;
                put_location(s, d, a->uses[i].span);
            }
    } else {
        if (decl) {
            put_location(s, d, sym->name_span);
            first = false;
        }
        /* the uses: every @name of the text but the definition */
        symbol_refs(s, d, sym, &first);
    }
    sb_putc(&s->buf, ']');
    end_result(s);
}

static void put_symbol(LspServer *s, const Doc *d, const char *name, size_t nlen, int kind, Span range,
                       Span sel)
{
    sb_puts(&s->buf, "{\"name\":");
    jw_string(&s->buf, name, nlen);
    sb_printf(&s->buf, ",\"kind\":%d,\"range\":", kind);
    put_range(s, &d->an->src, range);
    sb_puts(&s->buf, ",\"selectionRange\":");
    put_range(s, &d->an->src, sel);
}

/* Children of each module (by index, nmods + 1 for the top level): its functions and the
 * modules nested in it, merged in text order. */
typedef struct SymTree {
    uint32_t *foff, *fidx; /* functions of module k: fidx[foff[k] .. foff[k+1]) */
    uint32_t *moff, *midx; /* modules nested in module k */
} SymTree;

static void put_symbols(LspServer *s, Doc *d, const SymTree *t, uint32_t k, bool *first);

static void put_module_symbol(LspServer *s, Doc *d, const SymTree *t, uint32_t mi, bool *first)
{
    const AMod *m = &d->an->mods[mi];
    if (m->implicit) { /* its functions stand at the top level */
        put_symbols(s, d, t, mi, first);
        return;
    }
    if (!*first)
        sb_putc(&s->buf, ',');
    *first = false;
    char label[256];
    int n = m->name.len ? snprintf(label, sizeof label, "module @%.*s", (int)(m->name.len > 200 ? 200 : m->name.len), m->name.p)
                        : snprintf(label, sizeof label, "module");
    put_symbol(s, d, label, (size_t)n, 2, m->range, m->kw);
    sb_puts(&s->buf, ",\"children\":[");
    bool cfirst = true;
    put_symbols(s, d, t, mi, &cfirst);
    sb_puts(&s->buf, "]}");
}

static void put_symbols(LspServer *s, Doc *d, const SymTree *t, uint32_t k, bool *first)
{
    const Analysis *a = d->an;
    uint32_t fi = t->foff[k], mi = t->moff[k];
    while (fi < t->foff[k + 1] || mi < t->moff[k + 1]) {
        bool func = mi == t->moff[k + 1] ||
                    (fi < t->foff[k + 1] && a->funcs[t->fidx[fi]].range.begin < a->mods[t->midx[mi]].range.begin);
        if (!func) {
            put_module_symbol(s, d, t, t->midx[mi++], first);
            continue;
        }
        const AFunc *f = &a->funcs[t->fidx[fi++]];
        if (!*first)
            sb_putc(&s->buf, ',');
        *first = false;
        StrBuf nm = {0};
        sb_putc(&nm, '@');
        sb_putn(&nm, f->name.p, f->name.len);
        put_symbol(s, d, nm.p, nm.len, 12, f->range, f->name_span);
        sb_free(&nm);
        sb_putc(&s->buf, '}');
    }
}

/* Modules nest as in the text: a nested module is a child of the module around it, whose
 * range covers it. */
static void on_document_symbol(LspServer *s, const Json *id, const Json *params)
{
    Doc *d = find_doc(s, json_str(json_get(json_get(params, "textDocument"), "uri")));
    if (!d) {
        send_error(s, id, RPC_INVALID_PARAMS, "expected a known textDocument");
        return;
    }
    analyze(s, d);
    const Analysis *a = d->an;
    uint32_t nm = a->nmods, top = nm; /* index top: the top level */
    SymTree t = {xcalloc(nm + 2, sizeof(uint32_t)), xmalloc((a->nfuncs + 1) * sizeof(uint32_t)),
                 xcalloc(nm + 2, sizeof(uint32_t)), xmalloc((nm + 1) * sizeof(uint32_t))};
    for (uint32_t i = 0; i < a->nfuncs; i++)
        t.foff[a->funcs[i].mod + 1]++;
    for (uint32_t i = 0; i < nm; i++)
        t.moff[(a->mods[i].parent >= 0 ? (uint32_t)a->mods[i].parent : top) + 1]++;
    for (uint32_t k = 0; k <= nm; k++) {
        t.foff[k + 1] += t.foff[k];
        t.moff[k + 1] += t.moff[k];
    }
    uint32_t *ff = xmalloc((nm + 1) * sizeof *ff), *mf = xmalloc((nm + 1) * sizeof *mf);
    memcpy(ff, t.foff, (nm + 1) * sizeof *ff);
    memcpy(mf, t.moff, (nm + 1) * sizeof *mf);
    for (uint32_t i = 0; i < a->nfuncs; i++) /* in text order within a module */
        t.fidx[ff[a->funcs[i].mod]++] = i;
    for (uint32_t i = 0; i < nm; i++)
        t.midx[mf[a->mods[i].parent >= 0 ? (uint32_t)a->mods[i].parent : top]++] = i;
    begin_result(s, id);
    sb_putc(&s->buf, '[');
    bool first = true;
    put_symbols(s, d, &t, top, &first);
    sb_putc(&s->buf, ']');
    end_result(s);
    free(t.foff), free(t.fidx), free(t.moff), free(t.midx), free(ff), free(mf);
}

static void on_completion(LspServer *s, const Json *id, const Json *params)
{
    uint32_t off;
    Doc *d = doc_at(s, params, &off);
    if (!d) {
        send_error(s, id, RPC_INVALID_PARAMS, "expected a known textDocument and a position");
        return;
    }
    FeatItems items = {0};
    Span repl;
    feat_complete(d->an, off, &items, &repl);
    begin_result(s, id);
    sb_puts(&s->buf, "{\"isIncomplete\":false,\"items\":[");
    for (uint32_t i = 0; i < items.n; i++) {
        if (i)
            sb_putc(&s->buf, ',');
        sb_puts(&s->buf, "{\"label\":");
        jw_cstr(&s->buf, items.v[i].label);
        sb_printf(&s->buf, ",\"kind\":%d", items.v[i].kind);
        if (items.v[i].detail) {
            sb_puts(&s->buf, ",\"detail\":");
            jw_cstr(&s->buf, items.v[i].detail);
        }
        sb_puts(&s->buf, ",\"textEdit\":{\"range\":");
        put_range(s, &d->an->src, repl);
        sb_puts(&s->buf, ",\"newText\":");
        jw_cstr(&s->buf, items.v[i].label);
        sb_puts(&s->buf, "}}");
    }
    sb_puts(&s->buf, "]}");
    feat_items_free(&items);
    end_result(s);
}

/* The document and the byte range [*b, *e) a request's textDocument and range name, the
 * document analyzed; NULL (an error sent) when either is missing or malformed. */
static Doc *doc_range(LspServer *s, const Json *id, const Json *params, uint32_t *b, uint32_t *e)
{
    Doc *d = find_doc(s, json_str(json_get(json_get(params, "textDocument"), "uri")));
    const Json *range = json_get(params, "range");
    int64_t l0, c0, l1, c1;
    if (!d || !json_int(json_get(json_get(range, "start"), "line"), &l0) ||
        !json_int(json_get(json_get(range, "start"), "character"), &c0) ||
        !json_int(json_get(json_get(range, "end"), "line"), &l1) ||
        !json_int(json_get(json_get(range, "end"), "character"), &c1) || l0 < 0 || c0 < 0 || l1 < 0 ||
        c1 < 0) {
        send_error(s, id, RPC_INVALID_PARAMS, "expected a known textDocument and a range");
        return NULL;
    }
    analyze(s, d);
    SourceFile *src = &d->an->src;
    *b = source_offset(src, l0 > UINT32_MAX ? UINT32_MAX : (uint32_t)l0, c0 > UINT32_MAX ? UINT32_MAX : (uint32_t)c0, s->enc);
    *e = source_offset(src, l1 > UINT32_MAX ? UINT32_MAX : (uint32_t)l1, c1 > UINT32_MAX ? UINT32_MAX : (uint32_t)c1, s->enc);
    return d;
}

static void on_feat_inlay_hints(LspServer *s, const Json *id, const Json *params)
{
    uint32_t b, e;
    Doc *d = doc_range(s, id, params, &b, &e);
    if (!d)
        return;
    SourceFile *src = &d->an->src;
    FeatHints hints = {0};
    feat_inlay_hints(d->an, b, e, &hints);
    begin_result(s, id);
    sb_putc(&s->buf, '[');
    for (uint32_t i = 0; i < hints.n; i++) {
        if (i)
            sb_putc(&s->buf, ',');
        sb_puts(&s->buf, "{\"position\":");
        put_position(s, src, hints.v[i].at);
        sb_puts(&s->buf, ",\"label\":");
        jw_cstr(&s->buf, hints.v[i].label);
        sb_puts(&s->buf, ",\"paddingLeft\":true}");
    }
    sb_putc(&s->buf, ']');
    feat_hints_free(&hints);
    end_result(s);
}

/* Is kind allowed by the request's context.only (absent: every kind)? A
 * listed kind allows itself and its sub-kinds ("source" allows "source.x"). */
static bool action_kind_allowed(const Json *only, const char *kind)
{
    if (!only || only->kind != JSON_ARRAY)
        return true;
    for (uint32_t i = 0; i < only->n; i++) {
        const char *base = json_str(only->items[i]);
        size_t n = base ? strlen(base) : 0;
        if (base && strncmp(kind, base, n) == 0 && (kind[n] == '\0' || kind[n] == '.'))
            return true;
    }
    return false;
}

/* One CodeAction: title, kind, the diagnostic it fixes (as published, without
 * its notes), isPreferred, and a WorkspaceEdit on this document. */
static void put_action(LspServer *s, const Doc *d, const FeatAction *fa, const char *kind)
{
    const Analysis *a = d->an;
    sb_puts(&s->buf, "{\"title\":");
    jw_cstr(&s->buf, fa->title);
    sb_puts(&s->buf, ",\"kind\":");
    jw_cstr(&s->buf, kind);
    if (fa->diag < a->ndiags) {
        const ADiag *g = &a->diags[fa->diag];
        sb_puts(&s->buf, ",\"diagnostics\":[{\"range\":");
        put_range(s, &d->an->src, g->span);
        sb_printf(&s->buf, ",\"severity\":%d,\"code\":", g->sev == SEV_ERROR ? 1 : g->sev == SEV_WARNING ? 2 : 3);
        jw_cstr(&s->buf, g->code);
        sb_puts(&s->buf, ",\"source\":\"ptoas\",\"message\":");
        jw_cstr(&s->buf, g->msg);
        sb_puts(&s->buf, "}]");
    }
    if (fa->preferred)
        sb_puts(&s->buf, ",\"isPreferred\":true");
    sb_puts(&s->buf, ",\"edit\":{\"changes\":{");
    jw_cstr(&s->buf, d->uri);
    sb_puts(&s->buf, ":[");
    for (uint32_t k = 0; k < fa->nedits; k++) {
        sb_puts(&s->buf, k ? ",{\"range\":" : "{\"range\":");
        put_range(s, &d->an->src, fa->edits[k].span);
        sb_puts(&s->buf, ",\"newText\":");
        jw_cstr(&s->buf, fa->edits[k].text);
        sb_putc(&s->buf, '}');
    }
    sb_puts(&s->buf, "]}}}");
}

static void on_code_action(LspServer *s, const Json *id, const Json *params)
{
    uint32_t b, e;
    Doc *d = doc_range(s, id, params, &b, &e);
    if (!d)
        return;
    const Json *only = json_get(json_get(params, "context"), "only");
    FeatActions acts = {0};
    feat_code_actions(d->an, b, e, &acts);
    begin_result(s, id);
    sb_putc(&s->buf, '[');
    bool first = true;
    for (uint32_t i = 0; i < acts.n; i++) {
        const char *kind = acts.v[i].kind == FA_SOURCE ? "source" : "quickfix";
        if (!action_kind_allowed(only, kind))
            continue;
        if (!first)
            sb_putc(&s->buf, ',');
        first = false;
        put_action(s, d, &acts.v[i], kind);
    }
    sb_putc(&s->buf, ']');
    feat_actions_free(&acts);
    end_result(s);
}

/* ---- notifications ------------------------------------------------------------- */

static void on_did_open(LspServer *s, const Json *params)
{
    const Json *td = json_get(params, "textDocument");
    const char *uri = json_str(json_get(td, "uri"));
    const Json *text = json_get(td, "text");
    if (!uri || !text || text->kind != JSON_STRING)
        return;
    Doc *d = find_doc(s, uri);
    if (!d) {
        xgrow((void **)&s->docs, &s->docs_cap, s->ndocs + 1, sizeof *s->docs);
        d = &s->docs[s->ndocs++];
        memset(d, 0, sizeof *d);
        d->uri = strcpy(xmalloc(strlen(uri) + 1), uri);
    }
    int64_t version = 0;
    json_int(json_get(td, "version"), &version);
    d->version = version;
    doc_set_text(d, text->s, text->len);
}

/* ---- didChange: a batch of edits --------------------------------------------------
 * One didChange may carry 20,000 edits ("replace all") to a 10 MB document. The text is a
 * gap buffer while they are applied, so that an edit moves only the text between it and
 * the previous one, and a line cursor (a known line start) makes finding a line scan only
 * from the previous edit's line: edits in either order cost one pass over the text, not
 * one each. Lines end at "\n", "\r\n" and a lone "\r" (LSP 3.17). */
typedef struct GapText {
    char *p;
    size_t len, cap;          /* logical length; the size of p */
    size_t gs, ge;            /* the gap p[gs, ge) */
    size_t cur_line, cur_off; /* line cur_line starts at logical offset cur_off */
} GapText;

static char gap_at(const GapText *g, size_t i) { return i < g->gs ? g->p[i] : g->p[i + (g->ge - g->gs)]; }

/* Moves the gap to logical offset at. */
static void gap_move(GapText *g, size_t at)
{
    if (at < g->gs)
        memmove(g->p + g->ge - (g->gs - at), g->p + at, g->gs - at);
    else if (at > g->gs)
        memmove(g->p + g->gs, g->p + g->ge, at - g->gs);
    g->ge = g->ge - g->gs + at;
    g->gs = at;
}

/* Room for n more bytes in the gap. */
static void gap_reserve(GapText *g, size_t n)
{
    if (g->ge - g->gs >= n)
        return;
    size_t tail = g->cap - g->ge, cap = g->cap + n + g->cap / 2 + 64;
    g->p = xrealloc(g->p, cap);
    memmove(g->p + cap - tail, g->p + g->ge, tail);
    g->ge = cap - tail;
    g->cap = cap;
}

/* The logical offset of the start of line l, or len when there is no such line; moves
 * the cursor there. */
static size_t gap_line_start(GapText *g, size_t l)
{
    while (g->cur_line > l) {
        /* back over the break before the cursor, then to the previous break */
        size_t i = g->cur_off - 1;
        if (gap_at(g, i) == '\n' && i > 0 && gap_at(g, i - 1) == '\r')
            i--;
        while (i > 0 && gap_at(g, i - 1) != '\n' && gap_at(g, i - 1) != '\r')
            i--;
        g->cur_off = i;
        g->cur_line--;
    }
    while (g->cur_line < l) {
        size_t i = g->cur_off;
        while (i < g->len && gap_at(g, i) != '\n' && gap_at(g, i) != '\r')
            i++;
        if (i == g->len)
            return g->len;
        i += gap_at(g, i) == '\r' && i + 1 < g->len && gap_at(g, i + 1) == '\n' ? 2 : 1;
        g->cur_off = i;
        g->cur_line++;
    }
    return g->cur_off;
}

/* The offset of character c on the line starting at t[0] (the text after the gap, n
 * bytes), clamped to the line's end before its break; as source_offset does. */
static size_t line_char(const char *t, size_t n, uint32_t c, PosEncoding enc)
{
    size_t le = 0;
    while (le < n && t[le] != '\n' && t[le] != '\r')
        le++;
    return source_advance(t, le, c, enc);
}

/* The offset of (line, character) in the text after the gap, which starts at line l. */
static size_t tail_offset(const GapText *g, size_t l, uint32_t line, uint32_t c, PosEncoding enc)
{
    const char *t = g->p + g->ge;
    size_t n = g->len - g->gs, i = 0;
    for (; l < line; l++) {
        while (i < n && t[i] != '\n' && t[i] != '\r')
            i++;
        if (i == n)
            return n;
        i += t[i] == '\r' && i + 1 < n && t[i + 1] == '\n' ? 2 : 1;
    }
    return i + line_char(t + i, n - i, c, enc);
}

/* Replaces (l0, c0) .. (l1, c1) by rep[0, n). */
static void gap_edit(GapText *g, uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1, const char *rep, size_t n,
                     PosEncoding enc)
{
    /* the cursor goes to line l0's start, or to the line before when a lone '\r' ends
     * that one: an edit that puts a '\n' right after it would move line l0's start */
    gap_line_start(g, l0);
    if (g->cur_line > 0 && gap_at(g, g->cur_off - 1) == '\r')
        gap_line_start(g, g->cur_line - 1);
    size_t ls = g->cur_off, line = g->cur_line;
    gap_move(g, ls);
    size_t b = tail_offset(g, line, l0, c0, enc), e = l1 < l0 ? b : tail_offset(g, line, l1, c1, enc);
    if (e < b)
        e = b;
    gap_move(g, ls + b);
    g->ge += e - b;
    g->len -= e - b;
    gap_reserve(g, n);
    memcpy(g->p + g->gs, rep, n);
    g->gs += n;
    g->len += n;
}

static uint32_t clamp_u32(int64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static void on_did_change(LspServer *s, const Json *params)
{
    const Json *td = json_get(params, "textDocument");
    Doc *d = find_doc(s, json_str(json_get(td, "uri")));
    const Json *changes = json_get(params, "contentChanges");
    if (!d || !changes || changes->kind != JSON_ARRAY)
        return;
    int64_t version;
    if (json_int(json_get(td, "version"), &version))
        d->version = version;
    if (!d->text) {
        d->text = xmalloc(1);
        d->cap = 1;
    }
    GapText g = {d->text, d->len, d->cap, d->len, d->cap, 0, 0};
    for (uint32_t i = 0; i < changes->n; i++) {
        const Json *c = changes->items[i];
        const Json *text = json_get(c, "text");
        if (!text || text->kind != JSON_STRING)
            continue;
        const Json *range = json_get(c, "range");
        if (!range) {
            g.gs = g.len = 0;
            g.ge = g.cap;
            g.cur_line = g.cur_off = 0;
            gap_reserve(&g, text->len);
            memcpy(g.p, text->s, text->len);
            g.gs = g.len = text->len;
            d->dirty = true;
            continue;
        }
        int64_t l0, c0, l1, c1;
        if (!json_int(json_get(json_get(range, "start"), "line"), &l0) ||
            !json_int(json_get(json_get(range, "start"), "character"), &c0) ||
            !json_int(json_get(json_get(range, "end"), "line"), &l1) ||
            !json_int(json_get(json_get(range, "end"), "character"), &c1) || l0 < 0 || c0 < 0 ||
            l1 < 0 || c1 < 0)
            continue;
        gap_edit(&g, clamp_u32(l0), clamp_u32(c0), clamp_u32(l1), clamp_u32(c1), text->s, text->len, s->enc);
        d->dirty = true;
    }
    gap_move(&g, g.len);
    gap_reserve(&g, 1);
    g.p[g.len] = '\0';
    d->text = g.p;
    d->len = g.len;
    d->cap = g.cap;
}

static void on_did_close(LspServer *s, const Json *params)
{
    Doc *d = find_doc(s, json_str(json_get(json_get(params, "textDocument"), "uri")));
    if (!d)
        return;
    /* clear the client's diagnostics for it */
    analysis_free(d->an);
    d->an = NULL;
    publish(s, d);
    free(d->uri);
    free(d->text);
    *d = s->docs[--s->ndocs];
}

/* ---- dispatch ----------------------------------------------------------------- */

void lsp_handle(LspServer *s, const char *body, size_t len)
{
    if (s->state == ST_EXITED)
        return;
    arena_free(&s->arena);
    arena_init(&s->arena);
    s->buf.len = 0;
    const char *err = NULL;
    Json *msg = json_parse(&s->arena, body, len, &err);
    if (!msg) {
        char m[128];
        snprintf(m, sizeof m, "parse error: %s", err ? err : "invalid JSON");
        send_error(s, NULL, RPC_PARSE_ERROR, m);
        return;
    }
    if (msg->kind != JSON_OBJECT) {
        send_error(s, NULL, RPC_INVALID_REQUEST, "a message must be a JSON object (batches are not supported)");
        return;
    }
    const Json *id = json_get(msg, "id");
    const char *method = json_str(json_get(msg, "method"));
    const Json *params = json_get(msg, "params");
    const char *version = json_str(json_get(msg, "jsonrpc"));
    bool id_ok = id && (id->kind == JSON_STRING || (id->kind == JSON_NUMBER && id->is_int));
    if (id && !id_ok) {
        send_error(s, NULL, RPC_INVALID_REQUEST, "'id' must be an integer or a string");
        return;
    }
    if (!method) {
        if (json_get(msg, "result") || json_get(msg, "error"))
            return; /* a response to a request we never sent */
        if (id)
            send_error(s, id, RPC_INVALID_REQUEST, "a request needs a 'method' string");
        return;
    }
    if (!version || strcmp(version, "2.0") != 0) {
        if (id)
            send_error(s, id, RPC_INVALID_REQUEST, "'jsonrpc' must be \"2.0\"");
        return;
    }
    if (params && params->kind == JSON_NULL)
        params = NULL; /* "params": null, as some clients send for shutdown */
    if (params && params->kind != JSON_OBJECT && params->kind != JSON_ARRAY) {
        if (id)
            send_error(s, id, RPC_INVALID_PARAMS, "'params' must be an object or an array");
        return;
    }

    if (strcmp(method, "exit") == 0) {
        s->exit_status = s->state == ST_SHUT_DOWN ? 0 : 1;
        s->state = ST_EXITED;
        return;
    }
    if (!id) { /* notifications */
        if (s->state != ST_RUNNING)
            return;
        if (strcmp(method, "textDocument/didOpen") == 0)
            on_did_open(s, params);
        else if (strcmp(method, "textDocument/didChange") == 0)
            on_did_change(s, params);
        else if (strcmp(method, "textDocument/didClose") == 0)
            on_did_close(s, params);
        else if (strcmp(method, "workspace/didChangeConfiguration") == 0) {
            apply_settings(s, json_get(params, "settings"));
            for (size_t i = 0; i < s->ndocs; i++)
                s->docs[i].dirty = true;
        }
        return; /* initialized, $/cancelRequest, didSave, ...: nothing to do */
    }
    if (strcmp(method, "initialize") == 0) {
        on_initialize(s, id, params);
        return;
    }
    if (s->state == ST_NEW) {
        send_error(s, id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized");
        return;
    }
    if (s->state == ST_SHUT_DOWN) {
        send_error(s, id, RPC_INVALID_REQUEST, "the server is shut down");
        return;
    }
    if (strcmp(method, "shutdown") == 0) {
        s->state = ST_SHUT_DOWN;
        begin_result(s, id);
        sb_puts(&s->buf, "null");
        end_result(s);
    } else if (strcmp(method, "textDocument/hover") == 0) {
        on_hover(s, id, params);
    } else if (strcmp(method, "textDocument/definition") == 0) {
        on_definition(s, id, params, false);
    } else if (strcmp(method, "textDocument/references") == 0) {
        on_definition(s, id, params, true);
    } else if (strcmp(method, "textDocument/documentSymbol") == 0) {
        on_document_symbol(s, id, params);
    } else if (strcmp(method, "textDocument/completion") == 0) {
        on_completion(s, id, params);
    } else if (strcmp(method, "textDocument/inlayHint") == 0) {
        on_feat_inlay_hints(s, id, params);
    } else if (strcmp(method, "textDocument/codeAction") == 0) {
        on_code_action(s, id, params);
    } else {
        char m[160];
        snprintf(m, sizeof m, "unknown method '%.100s'", method);
        send_error(s, id, RPC_METHOD_NOT_FOUND, m);
    }
}

LspServer *lsp_new(FILE *out)
{
    LspServer *s = xcalloc(1, sizeof *s);
    s->out = out;
    s->enc = POS_UTF16;
    s->cfg = pass_config_default();
    s->debounce_ms = DEFAULT_DEBOUNCE_MS;
    arena_init(&s->arena);
    return s;
}

void lsp_free(LspServer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ndocs; i++) {
        analysis_free(s->docs[i].an);
        free(s->docs[i].uri);
        free(s->docs[i].text);
    }
    free(s->docs);
    arena_free(&s->arena);
    sb_free(&s->buf);
    free(s);
}

bool lsp_exited(const LspServer *s, int *status)
{
    if (s->state != ST_EXITED)
        return false;
    *status = s->exit_status;
    return true;
}

/* ---- the stdio loop --------------------------------------------------------------- */

typedef struct Input {
    int fd;
    char *buf;
    size_t len, cap;  /* bytes buffered in buf[0, len) */
    bool eof;
} Input;

/* Reads more bytes; waits at most timeout_ms (-1 = forever). Returns false
 * when nothing came in time (or at end of input). */
static bool fill(Input *in, int timeout_ms)
{
    if (in->eof)
        return false;
    struct pollfd p = {in->fd, POLLIN, 0};
    int r;
    while ((r = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
        ;
    if (r <= 0)
        return false;
    if (in->cap - in->len < 65536) {
        in->cap = in->cap * 2 + 65536;
        in->buf = xrealloc(in->buf, in->cap);
    }
    ssize_t n;
    while ((n = read(in->fd, in->buf + in->len, in->cap - in->len)) < 0 && errno == EINTR)
        ;
    if (n <= 0) {
        in->eof = true;
        return false;
    }
    in->len += (size_t)n;
    return true;
}

static void consume(Input *in, size_t n)
{
    memmove(in->buf, in->buf + n, in->len - n);
    in->len -= n;
}

/* Finds "\r\n\r\n" (or "\n\n", tolerated) in the buffer: the header's length
 * including the blank line, 0 if not there yet. */
static size_t header_end(const Input *in)
{
    for (size_t i = 0; i + 1 < in->len; i++) {
        if (in->buf[i] == '\n' && in->buf[i + 1] == '\n')
            return i + 2;
        if (i + 3 < in->len && memcmp(in->buf + i, "\r\n\r\n", 4) == 0)
            return i + 4;
    }
    return 0;
}

/* Content-Length of a header block, -1 when missing or malformed. */
static long long content_length(const char *h, size_t n)
{
    static const char key[] = "content-length:";
    size_t kl = sizeof key - 1;
    for (size_t i = 0; i + kl <= n; i++) {
        if (i > 0 && h[i - 1] != '\n')
            continue;
        size_t k = 0;
        while (k < kl) {
            char c = h[i + k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != key[k])
                break;
            k++;
        }
        if (k < kl)
            continue;
        size_t p = i + kl;
        while (p < n && (h[p] == ' ' || h[p] == '\t'))
            p++;
        long long v = 0;
        size_t digits = 0;
        while (p < n && h[p] >= '0' && h[p] <= '9' && v <= (long long)MAX_BODY * 4) {
            v = v * 10 + (h[p++] - '0');
            digits++;
        }
        while (p < n && (h[p] == ' ' || h[p] == '\t' || h[p] == '\r'))
            p++;
        if (!digits || (p < n && h[p] != '\n'))
            return -1;
        return v;
    }
    return -1;
}

int lsp_main(int in_fd, FILE *out)
{
    /* a client that stops reading must not kill the server mid-write: the
     * write fails and the server goes on until its input ends */
    signal(SIGPIPE, SIG_IGN);
    LspServer *s = lsp_new(out);
    Input in = {in_fd, NULL, 0, 0, false};
    int status = 1;
    for (;;) {
        size_t h = header_end(&in);
        if (!h) {
            if (in.len > MAX_HEADER) { /* garbage without a header end: drop it */
                consume(&in, in.len - 3);
                continue;
            }
            /* quiet input: run the debounced analyses */
            if (any_dirty(s) && !fill(&in, s->debounce_ms)) {
                if (in.eof)
                    break;
                lsp_flush(s);
                continue;
            }
            if (!any_dirty(s) && !fill(&in, -1))
                break;
            continue;
        }
        long long n = content_length(in.buf, h);
        if (n < 0) { /* a header without a usable Content-Length: skip it */
            send_error(s, NULL, RPC_PARSE_ERROR, "missing or invalid Content-Length header");
            consume(&in, h);
            continue;
        }
        if (n > (long long)MAX_BODY) {
            /* too large to hold: skip its bytes as they come */
            consume(&in, h);
            unsigned long long left = (unsigned long long)n;
            while (left > 0) {
                if (in.len == 0 && !fill(&in, -1))
                    break;
                size_t k = in.len < left ? in.len : (size_t)left;
                consume(&in, k);
                left -= k;
            }
            send_error(s, NULL, RPC_INVALID_REQUEST, "message too large");
            continue;
        }
        while (in.len < h + (size_t)n)
            if (!fill(&in, -1))
                break;
        if (in.len < h + (size_t)n)
            break; /* end of input inside a message */
        lsp_handle(s, in.buf + h, (size_t)n);
        consume(&in, h + (size_t)n);
        if (lsp_exited(s, &status))
            break;
    }
    if (s->state != ST_EXITED)
        status = 1; /* end of input without exit */
    lsp_free(s);
    free(in.buf);
    return status;
}
