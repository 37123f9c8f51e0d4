/* json.h - the language server's JSON: a strict RFC 8259 reader that builds a
 * small tree in an arena (bounded depth, no recursion on untrusted nesting
 * beyond JSON_MAX_DEPTH), and writer helpers that append to a StrBuf. */
#ifndef PTOAS_JSON_H
#define PTOAS_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "str.h"

#define JSON_MAX_DEPTH 64

typedef enum { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct Json Json;
struct Json {
    JsonKind kind;
    double num;           /* JSON_NUMBER */
    bool is_int;          /* a number written without fraction or exponent that fits int64 */
    int64_t i;
    const char *s;        /* JSON_STRING: decoded UTF-8 (may hold NUL bytes), NUL-terminated */
    size_t len;
    uint32_t n;           /* JSON_ARRAY / JSON_OBJECT: item count */
    Json **items;         /* values */
    const char **keys;    /* JSON_OBJECT: decoded keys (NUL-terminated) */
    size_t *key_lens;
};

/* Parses text[0, len) into a tree allocated in a. Returns NULL on any syntax
 * error (and sets *err to a short reason, static). Trailing whitespace only. */
Json *json_parse(Arena *a, const char *text, size_t len, const char **err);

/* Member key of an object (NULL if v is not an object or has no such key). */
const Json *json_get(const Json *v, const char *key);
/* Typed accessors: false when v is missing or of another kind. */
bool json_int(const Json *v, int64_t *out);
const char *json_str(const Json *v); /* NULL unless a string */

/* Writer: a JSON string (valid UTF-8 kept, anything else as U+FFFD). */
void jw_string(StrBuf *b, const char *s, size_t n);
void jw_cstr(StrBuf *b, const char *s);
/* Writes v back as JSON (for echoing request ids). */
void jw_value(StrBuf *b, const Json *v);

#endif
