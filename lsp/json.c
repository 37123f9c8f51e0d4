/* json.c - the strict JSON reader and the writer helpers (json.h). */
#include "json.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
    Arena *a;
    const char *p, *end;
    const char *err;
    int depth;
} Reader;

static void skip_ws(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static Json *fail(Reader *r, const char *why)
{
    if (!r->err)
        r->err = why;
    return NULL;
}

static Json *new_value(Reader *r, JsonKind k)
{
    Json *v = arena_zalloc(r->a, sizeof *v);
    v->kind = k;
    return v;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}


/* A string at r->p (just after the opening quote); decoded into the arena.
 * Lone surrogates become U+FFFD; raw bytes must be valid UTF-8. */
static bool read_string(Reader *r, const char **out, size_t *out_len)
{
    const char *start = r->p;
    /* the decoded form is never longer than the escaped one */
    const char *q = start;
    while (q < r->end && *q != '"') {
        if (*q == '\\')
            q++;
        q++;
    }
    if (q >= r->end) {
        fail(r, "unterminated string");
        return false;
    }
    char *buf = arena_alloc(r->a, (size_t)(q - start) + 1);
    size_t n = 0;
    const char *p = start;
    while (p < r->end && *p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20) {
            fail(r, "control character in string");
            return false;
        }
        if (c != '\\') {
            size_t k = str_utf8_len((const unsigned char *)p, (size_t)(r->end - p));
            if (!k) {
                fail(r, "invalid UTF-8 in string");
                return false;
            }
            memcpy(buf + n, p, k);
            n += k;
            p += k;
            continue;
        }
        p++;
        if (p >= r->end) {
            fail(r, "unterminated string");
            return false;
        }
        char e = *p++;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            if (r->end - p < 4 || hex4(p) < 0) {
                fail(r, "invalid \\u escape");
                return false;
            }
            uint32_t cp = (uint32_t)hex4(p);
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && r->end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
                hex4(p + 2) >= 0xDC00 && hex4(p + 2) <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)hex4(p + 2) - 0xDC00);
                p += 6;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            /* 6 escaped bytes ("\uXXXX") give at most 3; a pair (12) gives 4 */
            n += put_utf8(buf + n, cp);
            break;
        }
        default:
            fail(r, "invalid escape in string");
            return false;
        }
    }
    buf[n] = '\0';
    r->p = p + 1;
    *out = buf;
    *out_len = n;
    return true;
}

static Json *read_value(Reader *r);

static Json *read_number(Reader *r)
{
    const char *s = r->p;
    const char *p = s;
    if (p < r->end && *p == '-')
        p++;
    if (p >= r->end || *p < '0' || *p > '9')
        return fail(r, "invalid value");
    if (*p == '0')
        p++;
    else
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    bool integral = true;
    if (p < r->end && *p == '.') {
        integral = false;
        p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return fail(r, "invalid number");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        integral = false;
        p++;
        if (p < r->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return fail(r, "invalid number");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    char tmp[64];
    size_t n = (size_t)(p - s);
    Json *v = new_value(r, JSON_NUMBER);
    if (n < sizeof tmp) {
        memcpy(tmp, s, n);
        tmp[n] = '\0';
        v->num = strtod(tmp, NULL);
        if (integral) {
            /* exact int64 range check, digit by digit */
            bool neg = tmp[0] == '-';
            uint64_t acc = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
            bool ok = true;
            for (const char *d = tmp + neg; *d && ok; d++) {
                uint64_t dv = (uint64_t)(*d - '0');
                if (acc > (lim - dv) / 10)
                    ok = false;
                else
                    acc = acc * 10 + dv;
            }
            if (ok) {
                v->is_int = true;
                v->i = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
            }
        }
    } else {
        v->num = integral ? (s[0] == '-' ? -HUGE_VAL : HUGE_VAL) : 0; /* absurdly long: no int */
    }
    r->p = p;
    return v;
}

static bool literal(Reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return false;
    r->p += n;
    return true;
}

/* Appends item to a growing arena vector (doubling; the old block is left). */
static void push(Reader *r, Json ***items, uint32_t *n, uint32_t *cap, Json *item,
                 const char ***keys, size_t **lens, const char *key, size_t klen)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 4;
        Json **ni = arena_alloc(r->a, nc * sizeof *ni);
        if (*n)
            memcpy(ni, *items, *n * sizeof *ni);
        *items = ni;
        if (keys) {
            const char **nk = arena_alloc(r->a, nc * sizeof *nk);
            size_t *nl = arena_alloc(r->a, nc * sizeof *nl);
            if (*n) {
                memcpy(nk, *keys, *n * sizeof *nk);
                memcpy(nl, *lens, *n * sizeof *nl);
            }
            *keys = nk;
            *lens = nl;
        }
        *cap = nc;
    }
    (*items)[*n] = item;
    if (keys) {
        (*keys)[*n] = key;
        (*lens)[*n] = klen;
    }
    (*n)++;
}

static Json *read_container(Reader *r, bool object)
{
    if (++r->depth > JSON_MAX_DEPTH)
        return fail(r, "nested too deeply");
    r->p++; /* '[' or '{' */
    Json *v = new_value(r, object ? JSON_OBJECT : JSON_ARRAY);
    uint32_t cap = 0;
    skip_ws(r);
    if (r->p < r->end && *r->p == (object ? '}' : ']')) {
        r->p++;
        r->depth--;
        return v;
    }
    for (;;) {
        skip_ws(r);
        const char *key = NULL;
        size_t klen = 0;
        if (object) {
            if (r->p >= r->end || *r->p != '"')
                return fail(r, "expected a member name");
            r->p++;
            if (!read_string(r, &key, &klen))
                return NULL;
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':')
                return fail(r, "expected ':'");
            r->p++;
        }
        Json *item = read_value(r);
        if (!item)
            return NULL;
        push(r, &v->items, &v->n, &cap, item, object ? &v->keys : NULL, object ? &v->key_lens : NULL,
             key, klen);
        skip_ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == (object ? '}' : ']')) {
            r->p++;
            r->depth--;
            return v;
        }
        return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static Json *read_value(Reader *r)
{
    skip_ws(r);
    if (r->p >= r->end)
        return fail(r, "unexpected end of input");
    switch (*r->p) {
    case '{':
        return read_container(r, true);
    case '[':
        return read_container(r, false);
    case '"': {
        r->p++;
        Json *v = new_value(r, JSON_STRING);
        if (!read_string(r, &v->s, &v->len))
            return NULL;
        return v;
    }
    case 't':
        return literal(r, "true") ? new_value(r, JSON_TRUE) : fail(r, "invalid value");
    case 'f':
        return literal(r, "false") ? new_value(r, JSON_FALSE) : fail(r, "invalid value");
    case 'n':
        return literal(r, "null") ? new_value(r, JSON_NULL) : fail(r, "invalid value");
    default:
        return read_number(r);
    }
}

Json *json_parse(Arena *a, const char *text, size_t len, const char **err)
{
    Reader r = {a, text, text + len, NULL, 0};
    Json *v = read_value(&r);
    if (v) {
        skip_ws(&r);
        if (r.p != r.end) {
            v = NULL;
            fail(&r, "trailing characters after the value");
        }
    }
    if (!v && err)
        *err = r.err ? r.err : "invalid JSON";
    return v;
}

const Json *json_get(const Json *v, const char *key)
{
    if (!v || v->kind != JSON_OBJECT)
        return NULL;
    size_t n = strlen(key);
    for (uint32_t i = 0; i < v->n; i++)
        if (v->key_lens[i] == n && memcmp(v->keys[i], key, n) == 0)
            return v->items[i];
    return NULL;
}

bool json_int(const Json *v, int64_t *out)
{
    if (!v || v->kind != JSON_NUMBER || !v->is_int)
        return false;
    *out = v->i;
    return true;
}

const char *json_str(const Json *v)
{
    return v && v->kind == JSON_STRING ? v->s : NULL;
}

/* ---- writer ------------------------------------------------------------------- */

void jw_string(StrBuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    sb_putc(b, '"');
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)c);
            i++;
        } else if (c == '\n') {
            sb_puts(b, "\\n");
            i++;
        } else if (c == '\t') {
            sb_puts(b, "\\t");
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            char e[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
            sb_puts(b, e);
            i++;
        } else if (c < 0x80) {
            sb_putc(b, (char)c);
            i++;
        } else {
            size_t k = str_utf8_len(p + i, n - i);
            if (k) {
                sb_putn(b, s + i, k);
                i += k;
            } else {
                sb_puts(b, "\xEF\xBF\xBD"); /* U+FFFD */
                i++;
            }
        }
    }
    sb_putc(b, '"');
}

void jw_cstr(StrBuf *b, const char *s)
{
    jw_string(b, s, strlen(s));
}

void jw_value(StrBuf *b, const Json *v)
{
    if (!v) {
        sb_puts(b, "null");
        return;
    }
    switch (v->kind) {
    case JSON_NULL: sb_puts(b, "null"); break;
    case JSON_FALSE: sb_puts(b, "false"); break;
    case JSON_TRUE: sb_puts(b, "true"); break;
    case JSON_NUMBER:
        if (v->is_int)
            sb_put_int(b, v->i);
        else if (isfinite(v->num))
            sb_printf(b, "%.17g", v->num);
        else
            sb_puts(b, "null");
        break;
    case JSON_STRING: jw_string(b, v->s, v->len); break;
    case JSON_ARRAY:
    case JSON_OBJECT:
        sb_putc(b, v->kind == JSON_ARRAY ? '[' : '{');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                sb_putc(b, ',');
            if (v->kind == JSON_OBJECT) {
                jw_string(b, v->keys[i], v->key_lens[i]);
                sb_putc(b, ':');
            }
            jw_value(b, v->items[i]);
        }
        sb_putc(b, v->kind == JSON_ARRAY ? ']' : '}');
        break;
    }
}
