/* diag.c - the diagnostics engine (see diag.h): renders errors, warnings and
 * notes as text or JSON, and in verify mode checks them against the source's
 * `expected-*` comments the way mlir-opt's SourceMgrDiagnosticVerifierHandler
 * does. Nothing else in ptoas prints a diagnostic.
 *
 * Memory stays bounded outside verify mode: text records are rendered at once,
 * JSON keeps only the current error and its notes (they go into the error's
 * relatedInformation, so the error waits until the next error or diag_flush).
 * Rendering goes to a memory stream that is written to the real one in blocks
 * of DIAG_BUFFER bytes and at diag_flush: stderr is unbuffered, and a file of
 * random bytes used to cost one write(2) per output byte. With an error limit
 * (--error-limit, the driver's default is 100), errors past it are counted,
 * not rendered. */
#include "diag.h"
#include "arena.h"
#include "str.h"
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIAG_CODE_MAX 96 /* longest rule id + 1 */

/* ---- source files ------------------------------------------------------- */

/* RFC 3986 unreserved characters and '/' stay as they are in a file URI. */
static bool uri_plain(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

/* The absolute form of path: the current directory joined with a relative
 * path, leading "./" dropped (no symlink resolution: the file may be gone). */
static char *absolute_path(const char *path)
{
    if (path[0] == '/')
        return strcpy(xmalloc(strlen(path) + 1), path);
    size_t cap = 256;
    char *cwd = xmalloc(cap);
    while (!getcwd(cwd, cap)) {
        if (errno != ERANGE) {
            free(cwd);
            cwd = NULL;
            break;
        }
        cap *= 2;
        cwd = xrealloc(cwd, cap);
    }
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/')
            path++;
    }
    const char *dir = cwd ? cwd : "";
    size_t dl = strlen(dir), pl = strlen(path);
    if (dl > 0 && dir[dl - 1] == '/')
        dl--;
    char *abs = xmalloc(dl + 1 + pl + 1);
    memcpy(abs, dir, dl);
    abs[dl] = '/';
    memcpy(abs + dl + 1, path, pl + 1);
    free(cwd);
    return abs;
}

static char *file_uri(const char *path)
{
    char *abs = absolute_path(path);
    size_t n = strlen(abs);
    char *uri = xmalloc(7 + 3 * n + 1);
    char *o = uri;
    memcpy(o, "file://", 7);
    o += 7;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)abs[i];
        if (uri_plain(c)) {
            *o++ = (char)c;
        } else {
            static const char hex[] = "0123456789ABCDEF";
            *o++ = '%';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
    }
    *o = '\0';
    free(abs);
    return uri;
}

void source_init(SourceFile *src, const char *name, const char *text, size_t len)
{
    bool is_stdin = strcmp(name, "-") == 0;
    src->name = is_stdin ? "<stdin>" : name;
    src->uri = is_stdin ? strcpy(xmalloc(sizeof "file:///dev/stdin"), "file:///dev/stdin")
                        : file_uri(name);
    src->text = text;
    src->len = len;
    src->line_starts = NULL;
    src->nlines = 0;
    src->pos_line = SIZE_MAX;
    src->cr_lines = false;
}

void source_rename(SourceFile *src, const char *name)
{
    free(src->uri);
    src->name = name;
    src->uri = file_uri(name);
}

void source_free(SourceFile *src)
{
    free(src->uri);
    free(src->line_starts);
    src->uri = NULL;
    src->line_starts = NULL;
    src->nlines = 0;
}

/* The line table: one entry per line, including the (possibly empty) line
 * after a final newline, so that offset == len has a line. Lines end at '\n'
 * ("\r\n" included), and with cr_lines at a lone '\r' too. */
static const char *next_break(const SourceFile *src, const char *p, const char *end)
{
    if (!src->cr_lines)
        return memchr(p, '\n', (size_t)(end - p));
    for (; p < end; p++)
        if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n')))
            return p;
    return NULL;
}

static void source_lines(SourceFile *src)
{
    if (src->line_starts)
        return;
    size_t n = 1;
    const char *p = src->text, *end = src->text + src->len;
    while (p < end && (p = next_break(src, p, end)) != NULL) {
        n++;
        p++;
    }
    uint32_t *ls = xmalloc(n * sizeof *ls);
    size_t k = 0;
    ls[k++] = 0;
    p = src->text;
    while (p < end && (p = next_break(src, p, end)) != NULL) {
        p++;
        ls[k++] = (uint32_t)(p - src->text);
    }
    src->line_starts = ls;
    src->nlines = n;
}

/* 0-based index of the line holding offset. */
static size_t source_line_of(SourceFile *src, uint32_t offset)
{
    source_lines(src);
    size_t lo = 0, hi = src->nlines; /* line_starts[lo] <= offset < line_starts[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void source_line_col(SourceFile *src, uint32_t offset, uint32_t *line, uint32_t *col)
{
    if (offset > src->len)
        offset = (uint32_t)src->len;
    size_t l = source_line_of(src, offset);
    *line = (uint32_t)l;
    *col = offset - src->line_starts[l];
}

/* Bounds of line l without its newline (and without a '\r' before it). */
static void source_line_bounds(SourceFile *src, size_t l, size_t *start, size_t *end)
{
    source_lines(src);
    *start = src->line_starts[l];
    size_t e = l + 1 < src->nlines ? src->line_starts[l + 1] - 1 : src->len;
    if (e > *start && src->text[e - 1] == '\r')
        e--;
    *end = e;
}

/* Characters of text[from, to) in enc: a 4-byte sequence is two UTF-16 units,
 * any other well-formed sequence one, a stray byte one (so is each byte of a
 * sequence that `to` cuts). *safe, *safe_n: the last offset up to which the count
 * does not depend on where `to` is (before a cut sequence), and the count there. */
static uint32_t count_units(const char *text, size_t len, size_t from, size_t to, PosEncoding enc, size_t *safe,
                            uint32_t *safe_n)
{
    *safe = to;
    if (enc == POS_UTF8)
        return *safe_n = (uint32_t)(to - from);
    const unsigned char *t = (const unsigned char *)text;
    uint32_t n = 0;
    size_t i = from;
    bool cut = false;
    while (i < to) {
        if (t[i] < 0x80) {
            i++;
            n++;
            continue;
        }
        size_t k = str_utf8_len(t + i, to - i);
        if (!k && !cut && str_utf8_len(t + i, len - i)) {
            cut = true;
            *safe = i;
            *safe_n = n;
        }
        n += k == 4 ? 2 : 1;
        i += k ? k : 1;
    }
    if (!cut)
        *safe_n = n;
    return n;
}

void source_position(SourceFile *src, uint32_t offset, PosEncoding enc, uint32_t *line,
                     uint32_t *character)
{
    uint32_t col;
    source_line_col(src, offset, line, &col);
    uint32_t off = offset > src->len ? (uint32_t)src->len : offset;
    /* count on from the last position when it is on this line, before off */
    size_t from = off - col, safe;
    uint32_t base = 0, safe_n;
    if (src->pos_line == *line && src->pos_enc == (int)enc && src->pos_off <= off) {
        from = src->pos_off;
        base = src->pos_units;
    }
    *character = base + count_units(src->text, src->len, from, off, enc, &safe, &safe_n);
    src->pos_line = *line;
    src->pos_off = (uint32_t)safe;
    src->pos_units = base + safe_n;
    src->pos_enc = (int)enc;
}

uint32_t source_offset(SourceFile *src, uint32_t line, uint32_t character, PosEncoding enc)
{
    source_lines(src);
    if (line >= src->nlines)
        return (uint32_t)src->len;
    size_t ls = src->line_starts[line];
    size_t le = line + 1 < src->nlines ? src->line_starts[line + 1] - 1 : src->len;
    /* a position past the end of a "\r\n" line is before the '\r' */
    if (le > ls && le < src->len && src->text[le] == '\n' && src->text[le - 1] == '\r')
        le--;
    return (uint32_t)(ls + source_advance(src->text + ls, le - ls, character, enc));
}

size_t source_advance(const char *text, size_t n, uint32_t units, PosEncoding enc)
{
    const unsigned char *t = (const unsigned char *)text;
    size_t i = 0;
    uint32_t got = 0;
    while (i < n && got < units) {
        size_t k = t[i] < 0x80 ? 1 : str_utf8_len(t + i, n - i);
        uint32_t u = enc == POS_UTF8 ? (uint32_t)(k ? k : 1) : k == 4 ? 2 : 1;
        if (got + u > units)
            break; /* inside this character: its start */
        got += u;
        i += k ? k : 1;
    }
    return i;
}

/* ---- the engine ---------------------------------------------------------- */

typedef struct DiagRec {
    DiagSeverity sev;
    const char *label; /* "error", "warning", "note", or a custom label (static) */
    Span span;
    char *msg;         /* owned */
    char *code;        /* owned; the rule id (diag_code) */
} DiagRec;

#define DIAG_BUFFER (64 * 1024)

struct DiagEngine {
    SourceFile *src;
    DiagFormat fmt;
    FILE *out;         /* the memory stream renderers write to */
    FILE *sink;        /* where the text finally goes (stderr in the driver) */
    char *buf;         /* out's buffer, valid after fflush(out) */
    size_t bufsize;
    bool verify;
    bool werror;       /* --Werror: warnings are reported as errors */
    PosEncoding enc;   /* JSON positions */
    DiagHandler handler; /* diag_set_handler: diagnostics go there, not to out */
    void *handler_ctx;
    unsigned errors;
    unsigned limit;    /* --error-limit; 0 = none */
    unsigned shown;    /* errors rendered */
    unsigned hidden;   /* errors past the limit */
    bool hiding;       /* the last error was hidden: so are its notes */
    Span first_hidden;
    /* JSON: the error/warning being built, then its notes. */
    DiagRec *pending;
    size_t npending, cap_pending;
    /* Verify mode: everything reported since the last diag_verify. */
    DiagRec *coll;
    size_t ncoll, cap_coll;
};

DiagEngine *diag_new(SourceFile *src, DiagFormat fmt, FILE *out)
{
    DiagEngine *d = xcalloc(1, sizeof *d);
    d->src = src;
    d->fmt = fmt;
    d->sink = out;
    d->out = open_memstream(&d->buf, &d->bufsize);
    if (!d->out)
        diag_out_of_memory(0);
    return d;
}

/* Writes what was rendered so far to the sink and empties the memory stream. */
static void drain(DiagEngine *d)
{
    if (fflush(d->out) != 0)
        diag_out_of_memory(0);
    off_t n = ftello(d->out);
    if (n > 0) {
        fwrite(d->buf, 1, (size_t)n, d->sink);
        fseeko(d->out, 0, SEEK_SET);
    }
    fflush(d->sink);
}

void diag_set_error_limit(DiagEngine *d, unsigned limit)
{
    d->limit = limit;
}

unsigned diag_error_limit(const DiagEngine *d) { return d->limit; }

static void recs_free(DiagRec *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].msg);
        free(r[i].code);
    }
}

static void render_text(DiagEngine *d, const DiagRec *r);
static void render_json(DiagEngine *d, const DiagRec *head, const DiagRec *notes, size_t nnotes);

void diag_free(DiagEngine *d)
{
    if (!d)
        return;
    diag_flush(d);
    if (d->hidden > 0) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "%u more error%s not shown (--error-limit=%u; --error-limit=0 shows all)",
                 d->hidden, d->hidden == 1 ? "" : "s", d->limit);
        DiagRec r = {SEV_NOTE, "note", d->first_hidden, msg, "error-limit"};
        if (d->fmt == DIAG_TEXT)
            render_text(d, &r);
        else
            render_json(d, &r, NULL, 0);
        drain(d);
    }
    recs_free(d->coll, d->ncoll);
    free(d->coll);
    free(d->pending);
    fclose(d->out);
    free(d->buf);
    free(d);
}

void diag_set_verify_mode(DiagEngine *d, bool on)
{
    diag_flush(d);
    d->verify = on;
}

void diag_set_position_encoding(DiagEngine *d, PosEncoding enc)
{
    d->enc = enc;
}

void diag_set_handler(DiagEngine *d, DiagHandler fn, void *ctx)
{
    diag_flush(d);
    d->handler = fn;
    d->handler_ctx = ctx;
}

unsigned diag_error_count(const DiagEngine *d)
{
    return d->errors;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    s[n] = '\0';
    return s;
}


/* ---- text ---------------------------------------------------------------- */

#define LONG_LINE 256     /* longer source lines are shown as a window ... */
#define LINE_WINDOW 100   /* ... of about this many bytes either side of the caret */

static bool utf8_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

static void render_text(DiagEngine *d, const DiagRec *r)
{
    SourceFile *s = d->src;
    FILE *out = d->out;
    uint32_t line, col;
    source_line_col(s, r->span.begin, &line, &col);
    fprintf(out, "%s:%u:%u: %s: %s\n", s->name, line + 1, col + 1, r->label, r->msg);

    size_t ls, le;
    source_line_bounds(s, line, &ls, &le);
    size_t caret = ls + col; /* may lie past le when it points at the line end */
    size_t ws = ls, we = le;
    if (le - ls > LONG_LINE) {
        if (caret > ls + LINE_WINDOW)
            ws = caret - LINE_WINDOW;
        for (int i = 0; i < 3 && ws > ls && ws < caret && utf8_cont((unsigned char)s->text[ws]); i++)
            ws++; /* do not start inside a character */
        if (caret + LINE_WINDOW < le)
            we = caret + LINE_WINDOW;
        if (we < ws)
            we = ws;
        for (int i = 0; i < 3 && we < le && utf8_cont((unsigned char)s->text[we]); i++)
            we++;
    }
    if (ws > ls)
        fputs("...", out);
    /* Control bytes (a terminal would act on them) show as '?', one column each. */
    for (size_t k = ws; k < we; k++) {
        unsigned char c = (unsigned char)s->text[k];
        fputc((c < 0x20 && c != '\t') || c == 0x7f ? '?' : c, out);
    }
    if (we < le)
        fputs("...", out);
    fputc('\n', out);

    /* The caret line: a tab for a tab, one space per character otherwise. */
    if (ws > ls)
        fputs("   ", out);
    const unsigned char *t = (const unsigned char *)s->text;
    size_t i = ws;
    while (i < caret) {
        if (i >= le) {
            fputc(' ', out);
            i++;
            continue;
        }
        if (t[i] == '\t') {
            fputc('\t', out);
            i++;
            continue;
        }
        size_t n = str_utf8_len(t + i, caret - i);
        fputc(' ', out);
        i += n ? n : 1;
    }
    fputs("^\n", out);
}

/* ---- JSON ---------------------------------------------------------------- */

/* A JSON string: quotes and backslashes escaped, control bytes as \u00XX, valid
 * UTF-8 kept, any other byte read as Latin-1 (\u00XX) so the output stays valid. */
static void json_string(FILE *out, const char *str, size_t n)
{
    const unsigned char *p = (const unsigned char *)str;
    fputc('"', out);
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(out, "\\u%04X", c);
            i++;
        } else if (c < 0x80) {
            fputc(c, out);
            i++;
        } else {
            size_t k = str_utf8_len(p + i, n - i);
            if (k) {
                fwrite(p + i, 1, k, out);
                i += k;
            } else {
                fprintf(out, "\\u%04X", c);
                i++;
            }
        }
    }
    fputc('"', out);
}

static void json_range(DiagEngine *d, Span sp)
{
    uint32_t bl, bc, el, ec;
    if (sp.end < sp.begin)
        sp.end = sp.begin;
    source_position(d->src, sp.begin, d->enc, &bl, &bc);
    source_position(d->src, sp.end, d->enc, &el, &ec);
    fprintf(d->out,
            "{\"start\":{\"line\":%u,\"character\":%u},\"end\":{\"line\":%u,\"character\":%u}}",
            bl, bc, el, ec);
}

static void json_uri(DiagEngine *d)
{
    json_string(d->out, d->src->uri, strlen(d->src->uri));
}

/* One Diagnostic object: head is an error or warning, notes its notes. */
static void render_json(DiagEngine *d, const DiagRec *head, const DiagRec *notes, size_t nnotes)
{
    FILE *out = d->out;
    fputs("{\"uri\":", out);
    json_uri(d);
    fputs(",\"range\":", out);
    json_range(d, head->span);
    fprintf(out, ",\"severity\":%d,\"code\":",
            head->sev == SEV_WARNING ? 2 : head->sev == SEV_NOTE ? 3 : 1);
    json_string(out, head->code, strlen(head->code));
    fputs(",\"source\":\"ptoas\",\"message\":", out);
    json_string(out, head->msg, strlen(head->msg));
    if (nnotes > 0) {
        fputs(",\"relatedInformation\":[", out);
        for (size_t i = 0; i < nnotes; i++) {
            fputs(i ? ",{\"location\":{\"uri\":" : "{\"location\":{\"uri\":", out);
            json_uri(d);
            fputs(",\"range\":", out);
            json_range(d, notes[i].span);
            fputs("},\"message\":", out);
            json_string(out, notes[i].msg, strlen(notes[i].msg));
            fputc('}', out);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* ---- rule ids ----------------------------------------------------------------- */

static bool alnum(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Appends the fixed words of text to buf (see diag_code). In a format string
 * (is_fmt) conversions are skipped; quoted entities and numbers always are.
 * Returns the number of words taken. */
static unsigned code_words(const char *text, bool is_fmt, char *buf, size_t size, size_t *len)
{
    unsigned words = 0;
    const char *p = text;
    while (*p) {
        if (!is_fmt && (strncmp(p, ", but got", 9) == 0 || strncmp(p, " but got", 8) == 0))
            break; /* what was found varies: the rule is what was expected */
        if (is_fmt && *p == '%') {
            p++;
            if (*p == '%') {
                p++;
                continue;
            }
            while (*p && !strchr("csdiuxXfgeEpzn", *p))
                p++; /* flags, width, precision, length */
            if (*p == 'z' || *p == 'l' || *p == 'h')
                while (*p == 'z' || *p == 'l' || *p == 'h')
                    p++;
            if (*p)
                p++;
            continue;
        }
        if (*p == '\'' || *p == '"') { /* a quoted entity: skipped whole */
            const char *close = strchr(p + 1, *p);
            p = close ? close + 1 : p + strlen(p);
            continue;
        }
        if (!alnum((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *w = p;
        bool digits = true;
        while (alnum((unsigned char)*p) || *p == '_') {
            if (*p < '0' || *p > '9')
                digits = false;
            p++;
        }
        if (digits)
            continue;
        size_t n = (size_t)(p - w);
        if (*len + (*len > 0) + n >= size)
            break; /* full: stop at a word boundary */
        if (*len > 0)
            buf[(*len)++] = '-';
        for (size_t i = 0; i < n; i++) {
            char c = w[i];
            buf[(*len)++] = c == '_' ? '-' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        }
        buf[*len] = '\0';
        words++;
    }
    return words;
}

const char *diag_code(const char *fmt, const char *msg, char *buf, size_t size)
{
    size_t len = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    if (code_words(fmt, true, buf, size, &len) >= 2)
        return buf;
    len = 0;
    buf[0] = '\0';
    const char *m = msg ? msg : "";
    if (*m == '\'') { /* "'pto.tquant' op ...": the op is the entity, not the rule */
        const char *close = strchr(m + 1, '\'');
        if (close && strncmp(close, "' op ", 5) == 0)
            m = close + 5;
    }
    code_words(m, false, buf, size, &len);
    if (len == 0)
        snprintf(buf, size, "%s", "error");
    return buf;
}

/* The rule id of a message as an owned string. */
static char *code_of(const char *fmt, const char *msg)
{
    char code[DIAG_CODE_MAX];
    diag_code(fmt, msg, code, sizeof code);
    return strcpy(xmalloc(strlen(code) + 1), code);
}

/* ---- reporting ----------------------------------------------------------- */

static DiagItem item_of(const DiagRec *r)
{
    return (DiagItem){r->sev, r->label, r->span, r->msg, r->code};
}

/* Hands the pending diagnostic and its notes to the handler. */
static void to_handler(DiagEngine *d)
{
    DiagItem *items = xmalloc(d->npending * sizeof *items);
    for (size_t i = 0; i < d->npending; i++)
        items[i] = item_of(&d->pending[i]);
    d->handler(d->handler_ctx, &items[0], items + 1, d->npending - 1);
    free(items);
}

/* JSON (or a handler): renders the error waiting for its notes. */
static void render_pending(DiagEngine *d)
{
    if (d->npending > 0) {
        if (d->handler)
            to_handler(d);
        else
            render_json(d, &d->pending[0], d->pending + 1, d->npending - 1);
        recs_free(d->pending, d->npending);
        d->npending = 0;
    }
}

void diag_flush(DiagEngine *d)
{
    render_pending(d);
    drain(d);
}

/* Prints r now in the engine's format (also in verify mode); takes r->msg. */
static void emit(DiagEngine *d, DiagRec *r)
{
    if (r->span.begin > d->src->len)
        r->span.begin = (uint32_t)d->src->len;
    if (r->span.end > d->src->len)
        r->span.end = (uint32_t)d->src->len;
    if (r->sev == SEV_ERROR) {
        if (d->limit && d->shown >= d->limit) {
            if (d->hidden++ == 0)
                d->first_hidden = r->span;
            d->hiding = true;
            free(r->msg);
            free(r->code);
            return;
        }
        d->shown++;
        d->hiding = false;
    } else if (r->sev == SEV_WARNING) {
        d->hiding = false;
    } else if (d->hiding) { /* a note of a hidden error */
        free(r->msg);
        free(r->code);
        return;
    }
    if (d->fmt == DIAG_TEXT && !d->handler) {
        render_text(d, r);
        free(r->msg);
        free(r->code);
        if (ftello(d->out) >= DIAG_BUFFER)
            drain(d);
        return;
    }
    if (r->sev == SEV_NOTE && d->npending == 0 && !d->handler) {
        /* a note without its error: JSON has no place for it */
        free(r->msg);
        free(r->code);
        return;
    }
    if (r->sev != SEV_NOTE || d->npending == 0) {
        render_pending(d); /* a new head (a handler also takes a lone note as one) */
        if (ftello(d->out) >= DIAG_BUFFER)
            drain(d);
    }
    xgrow((void **)&d->pending, &d->cap_pending, d->npending + 1, sizeof *d->pending);
    d->pending[d->npending++] = *r;
}

static void report(DiagEngine *d, DiagSeverity sev, const char *label, Span span,
                   const char *fmt, va_list ap)
{
    DiagRec r = {sev, label, span, vformat(fmt, ap), NULL};
    r.code = code_of(fmt, r.msg);
    if (sev == SEV_ERROR)
        d->errors++;
    if (d->verify) {
        xgrow((void **)&d->coll, &d->cap_coll, d->ncoll + 1, sizeof *d->coll);
        d->coll[d->ncoll++] = r;
        return;
    }
    emit(d, &r);
}

void diag_error(DiagEngine *d, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, SEV_ERROR, "error", span, fmt, ap);
    va_end(ap);
}

void diag_set_werror(DiagEngine *d, bool on) { d->werror = on; }

void diag_warning(DiagEngine *d, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (d->werror)
        report(d, SEV_ERROR, "error", span, fmt, ap);
    else
        report(d, SEV_WARNING, "warning", span, fmt, ap);
    va_end(ap);
}

void diag_note(DiagEngine *d, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, SEV_NOTE, "note", span, fmt, ap);
    va_end(ap);
}

void diag_error_labeled(DiagEngine *d, Span span, const char *label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, SEV_ERROR, label, span, fmt, ap);
    va_end(ap);
}

/* ---- verify mode ----------------------------------------------------------- */

enum { K_ERROR, K_WARNING, K_NOTE, K_REMARK };
static const char *const kind_names[] = {"error", "warning", "note", "remark"};

typedef struct Expect {
    int kind;
    uint32_t line;     /* 1-based; UINT32_MAX for a dangling @below */
    bool unknown;      /* @unknown: a diagnostic without location (ptoas has none) */
    Span at;           /* the "expected-..." text, where mismatches are reported */
    const char *text;  /* the message as written between the outer braces */
    size_t textlen;
    bool is_re, matched;
    regex_t re;
} Expect;

typedef struct Verifier {
    DiagEngine *d;
    Expect *ex;
    size_t nex, cap;
    bool ok;
} Verifier;

/* A mismatch: an error at span, printed at once in the engine's format. */
static void verify_fail(Verifier *v, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void verify_fail(Verifier *v, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    DiagRec r = {SEV_ERROR, "error", span, vformat(fmt, ap), NULL};
    va_end(ap);
    r.code = code_of(fmt, r.msg);
    emit(v->d, &r);
    v->ok = false;
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

static bool starts_with(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

static const char *find_in(const char *p, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (; (size_t)(end - p) >= n; p++)
        if (memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Appends s[0, n) to the regex buffer, escaping ERE metacharacters. */
static void re_literal(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        xgrow((void **)buf, cap, *len + 3, 1);
        if (strchr(".[]{}()\\*+?^$|", s[i]) && s[i] != '\0')
            (*buf)[(*len)++] = '\\';
        (*buf)[(*len)++] = s[i];
    }
}

/* Compiles an -re message: text outside {{ }} is literal, text inside is a
 * POSIX extended regex; returns false after reporting a malformed pattern. */
static bool compile_re(Verifier *v, Expect *e)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    const char *p = e->text, *end = e->text + e->textlen;
    while (p < end) {
        const char *open = find_in(p, end, "{{");
        if (!open) {
            re_literal(&buf, &len, &cap, p, (size_t)(end - p));
            break;
        }
        re_literal(&buf, &len, &cap, p, (size_t)(open - p));
        const char *close = find_in(open + 2, end, "}}");
        if (!close) {
            free(buf);
            verify_fail(v, e->at, "found start of regex with no end '}}'");
            return false;
        }
        xgrow((void **)&buf, &cap, len + (size_t)(close - open) + 4, 1);
        buf[len++] = '(';
        memcpy(buf + len, open + 2, (size_t)(close - open - 2));
        len += (size_t)(close - open - 2);
        buf[len++] = ')';
        p = close + 2;
    }
    xgrow((void **)&buf, &cap, len + 1, 1);
    buf[len] = '\0';
    int rc = regcomp(&e->re, buf, REG_EXTENDED | REG_NOSUB);
    free(buf);
    if (rc != 0) {
        char msg[256];
        regerror(rc, &e->re, msg, sizeof msg);
        verify_fail(v, e->at, "invalid regex: %s", msg);
        return false;
    }
    return true;
}

/* The end of the message that starts at p (just after the opening "{{"): the
 * outer "}}". With -re, "{{...}}" pairs inside are regexes. Without -re the
 * message runs to the first "}}" that ends the line or is followed by another
 * expectation, else to the last "}}" of the line (mlir-opt's greedy match). */
static const char *message_end(const char *p, const char *end, bool is_re)
{
    if (is_re) {
        while (p < end) {
            const char *open = find_in(p, end, "{{");
            const char *close = find_in(p, end, "}}");
            if (!close)
                return NULL;
            if (open && open < close) {
                const char *inner = find_in(open + 2, end, "}}");
                if (!inner)
                    return NULL;
                p = inner + 2;
                continue;
            }
            return close;
        }
        return NULL;
    }
    const char *last = NULL;
    for (const char *q = find_in(p, end, "}}"); q; q = find_in(q + 1, end, "}}")) {
        while (q + 2 < end && q[2] == '}')
            q++; /* "}}}" closes with its last two braces */
        const char *rest = skip_blanks(q + 2, end);
        if (rest == end || starts_with(rest, end, "expected-"))
            return q;
        last = q;
    }
    return last;
}

/* Parses the expectations on one line [ls, le) (line number lineno, 1-based)
 * and appends them. Returns the number of well-formed ones. */
static size_t parse_line(Verifier *v, const char *base, const char *ls, const char *le,
                         uint32_t lineno, uint32_t last_plain, size_t **below, size_t *nbelow,
                         size_t *cap_below)
{
    size_t found = 0;
    const char *p = ls;
    while ((p = find_in(p, le, "expected-")) != NULL) {
        const char *at = p;
        const char *q = p + 9;
        int kind = -1;
        for (int k = 0; k < 4; k++)
            if (starts_with(q, le, kind_names[k])) {
                kind = k;
                q += strlen(kind_names[k]);
                break;
            }
        bool is_re = false;
        if (kind >= 0 && starts_with(q, le, "-re") && !(q + 3 < le && ident_char(q[3]))) {
            is_re = true;
            q += 3;
        }
        if (kind < 0 || (q < le && ident_char(*q))) {
            p += 9; /* "expected-foo" is just text */
            continue;
        }
        Span sp = {(uint32_t)(at - base), (uint32_t)(q - base)};
        const char *kname = kind_names[kind];
        const char *suffix = is_re ? "-re" : "";
        Expect e = {kind, lineno, false, sp, NULL, 0, is_re, false, {0}};
        bool is_below = false;
        q = skip_blanks(q, le);
        if (q < le && *q == '@') {
            q++;
            if (q < le && (*q == '+' || *q == '-')) {
                bool neg = *q == '-';
                const char *digits = ++q;
                uint64_t n = 0;
                while (q < le && *q >= '0' && *q <= '9' && n <= UINT32_MAX)
                    n = n * 10 + (uint64_t)(*q++ - '0');
                if (q == digits || n > UINT32_MAX || (q < le && ident_char(*q))) {
                    verify_fail(v, sp, "invalid line offset after '@' in expected-%s%s", kname,
                                suffix);
                    p = q;
                    continue;
                }
                int64_t l = (int64_t)lineno + (neg ? -(int64_t)n : (int64_t)n);
                e.line = l < 0 || l > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)l;
            } else if (starts_with(q, le, "above") && !(q + 5 < le && ident_char(q[5]))) {
                q += 5;
                e.line = last_plain;
            } else if (starts_with(q, le, "below") && !(q + 5 < le && ident_char(q[5]))) {
                q += 5;
                e.line = UINT32_MAX; /* until a line without expectations follows */
                is_below = true;
            } else if (starts_with(q, le, "unknown") && !(q + 7 < le && ident_char(q[7]))) {
                q += 7;
                e.unknown = true;
            } else {
                verify_fail(v, sp,
                            "expected '+N', '-N', 'above', 'below' or 'unknown' after '@' in "
                            "expected-%s%s",
                            kname, suffix);
                p = q;
                continue;
            }
            q = skip_blanks(q, le);
        }
        if (!starts_with(q, le, "{{")) {
            verify_fail(v, sp, "expected '{{' after expected-%s%s", kname, suffix);
            p = q;
            continue;
        }
        q += 2;
        const char *mend = message_end(q, le, is_re);
        if (!mend) {
            verify_fail(v, sp, "expected '}}' to end the message of expected-%s%s", kname,
                        suffix);
            p = le;
            continue;
        }
        e.text = q;
        e.textlen = (size_t)(mend - q);
        p = mend + 2;
        if (is_re && !compile_re(v, &e))
            continue;
        if (is_below) {
            xgrow((void **)below, cap_below, *nbelow + 1, sizeof **below);
            (*below)[(*nbelow)++] = v->nex;
        }
        xgrow((void **)&v->ex, &v->cap, v->nex + 1, sizeof *v->ex);
        v->ex[v->nex++] = e;
        found++;
    }
    return found;
}

static bool expect_matches(const Expect *e, const char *msg)
{
    if (e->is_re)
        return regexec(&e->re, msg, 0, NULL, 0) == 0;
    size_t hn = strlen(msg);
    if (e->textlen > hn)
        return false;
    for (size_t i = 0; i + e->textlen <= hn; i++)
        if (memcmp(msg + i, e->text, e->textlen) == 0)
            return true;
    return false;
}

static int rec_kind(const DiagRec *r)
{
    return r->sev == SEV_WARNING ? K_WARNING : r->sev == SEV_NOTE ? K_NOTE : K_ERROR;
}

bool diag_verify(DiagEngine *d, uint32_t begin, uint32_t end)
{
    SourceFile *s = d->src;
    Verifier v = {d, NULL, 0, 0, true};
    if (end > s->len)
        end = (uint32_t)s->len;
    if (begin > end)
        begin = end;

    /* 1. The expectations of [begin, end), line by line as mlir-opt reads them. */
    size_t *below = NULL, nbelow = 0, cap_below = 0;
    uint32_t line0, col0;
    source_line_col(s, begin, &line0, &col0);
    uint32_t lineno = line0 + 1, last_plain = lineno;
    const char *p = s->text + begin, *stop = s->text + end;
    while (p < stop) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        const char *le = nl ? nl : stop;
        if (parse_line(&v, s->text, p, le, lineno, last_plain, &below, &nbelow, &cap_below) == 0) {
            for (size_t i = 0; i < nbelow; i++)
                v.ex[below[i]].line = lineno;
            nbelow = 0;
            last_plain = lineno;
        }
        if (!nl)
            break;
        p = nl + 1;
        lineno++;
    }
    free(below);

    /* 2. Every diagnostic must be expected (mlir-opt's process()). */
    for (size_t i = 0; i < d->ncoll; i++) {
        DiagRec *r = &d->coll[i];
        int kind = rec_kind(r);
        uint32_t l, c;
        source_line_col(s, r->span.begin, &l, &c);
        l++;
        Expect *near = NULL;
        bool matched = false;
        for (size_t k = 0; k < v.nex && !matched; k++) {
            Expect *e = &v.ex[k];
            if (e->unknown || e->line != l || !expect_matches(e, r->msg))
                continue;
            if (e->kind == kind && e->matched)
                continue; /* each expectation stands for one diagnostic, as in MLIR */
            if (e->kind == kind) {
                e->matched = true;
                matched = true;
            } else {
                near = e;
            }
        }
        if (matched)
            continue;
        if (near)
            verify_fail(&v, near->at, "'%s' diagnostic emitted when expecting a '%s'",
                        kind_names[kind], kind_names[near->kind]);
        else
            verify_fail(&v, r->span, "unexpected %s: %s", kind_names[kind], r->msg);
    }

    /* 3. Every expectation must have been produced. */
    for (size_t k = 0; k < v.nex; k++) {
        Expect *e = &v.ex[k];
        if (!e->matched)
            verify_fail(&v, e->at, "expected %s \"%.*s\" was not produced", kind_names[e->kind],
                        (int)(e->textlen > INT_MAX ? INT_MAX : e->textlen), e->text);
        if (e->is_re)
            regfree(&e->re);
    }
    free(v.ex);
    recs_free(d->coll, d->ncoll);
    d->ncoll = 0;
    diag_flush(d);
    return v.ok;
}

/* ---- tool-level messages ------------------------------------------------- */

static void (*internal_hook)(void);

_Noreturn void diag_out_of_memory(size_t n)
{
    void (*hook)(void) = internal_hook;
    internal_hook = NULL;
    if (hook)
        hook();
    char msg[96];
    int len = n ? snprintf(msg, sizeof msg, "ptoas: error: out of memory (%zu bytes)\n", n)
                : snprintf(msg, sizeof msg, "ptoas: error: out of memory\n");
    fflush(stdout);
    if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0) {
        /* nothing more can be done */
    }
    exit(2);
}

static DiagFormat tool_format = DIAG_TEXT;
static char *tool_uri;

void diag_set_tool_format(DiagFormat fmt, const char *uri)
{
    tool_format = fmt;
    free(tool_uri);
    tool_uri = uri ? strcpy(xmalloc(strlen(uri) + 1), uri) : NULL;
}

/* diag_tool_error and diag_tool_warning: severity 1 (error) or 2 (warning). */
static void tool_message(int severity, const char *fmt, va_list ap)
{
    if (tool_format == DIAG_TEXT) {
        fputs(severity == 1 ? "ptoas: error: " : "ptoas: warning: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        return;
    }
    char *msg = vformat(fmt, ap);
    char code[DIAG_CODE_MAX];
    memcpy(code, "tool-", 5);
    diag_code(fmt, msg, code + 5, sizeof code - 5);
    fputc('{', stderr);
    if (tool_uri) {
        fputs("\"uri\":", stderr);
        json_string(stderr, tool_uri, strlen(tool_uri));
        fputc(',', stderr);
    }
    fprintf(stderr, "\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,\"character\":0}},"
            "\"severity\":%d,\"code\":", severity);
    json_string(stderr, code, strlen(code));
    fputs(",\"source\":\"ptoas\",\"message\":", stderr);
    json_string(stderr, msg, strlen(msg));
    fputs("}\n", stderr);
    free(msg);
}

void diag_tool_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_message(1, fmt, ap);
    va_end(ap);
}

void diag_tool_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_message(2, fmt, ap);
    va_end(ap);
}

void diag_set_internal_hook(void (*cleanup)(void))
{
    internal_hook = cleanup;
}

_Noreturn void diag_internal(const char *file, int line, const char *fmt, ...)
{
    void (*hook)(void) = internal_hook;
    internal_hook = NULL; /* a failure inside the hook must not loop */
    if (hook)
        hook(); /* first, so pending diagnostics come before this message */
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("ptoas: internal error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " at %s:%d (this is a bug)\n", file, line);
    va_end(ap);
    exit(3);
}
