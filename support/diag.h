/* diag.h - the diagnostics engine: the only place that prints diagnostics.
 *
 * Everything that reports a problem in the input calls diag_error/diag_warning
 * with a Span (byte offsets into the SourceFile) and then, optionally, one or
 * more diag_note calls that attach to that error. Line and column are computed
 * only when a diagnostic is rendered. Renders text (file:line:col, source line,
 * caret) or JSON (one LSP 3.17 Diagnostic per line, notes inside the error's
 * relatedInformation), see docs/cli.md. In verify mode (--verify-diagnostics)
 * nothing is printed: diagnostics are collected and diag_verify compares them
 * with the `expected-*` comments of the source, as mlir-opt does. */
#ifndef PTOAS_DIAG_H
#define PTOAS_DIAG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A half-open byte range [begin, end) of the source text. */
typedef struct Span {
    uint32_t begin, end;
} Span;

/* One input file held in memory for the whole run. */
typedef struct SourceFile {
    const char *name;      /* as shown in text diagnostics: the path, or "<stdin>" */
    char *uri;             /* file:///abs/path, or file:///dev/stdin (owned) */
    const char *text;      /* the bytes, NUL-terminated at text[len] */
    size_t len;
    uint32_t *line_starts; /* offsets of line starts, computed on first need (owned) */
    size_t nlines;
    /* the last position source_position found, so that the next one on the same line
     * counts on from there (a long line of many diagnostics): line, a byte offset on it
     * and its character count in encoding pos_enc; pos_line SIZE_MAX when none */
    size_t pos_line;
    uint32_t pos_off, pos_units;
    int pos_enc;
    bool cr_lines;         /* a lone '\r' ends a line too (LSP 3.17; the language server) */
} SourceFile;

/* Sets up src over text; name "-" means standard input. Computes the URI
 * (absolute path, percent-encoded). Does not copy text. */
void source_init(SourceFile *src, const char *name, const char *text, size_t len);
void source_free(SourceFile *src);
/* 0-based line and 0-based byte column of a byte offset (offset may equal len). */
void source_line_col(SourceFile *src, uint32_t offset, uint32_t *line, uint32_t *col);
/* Names the source after the fact (--stdin-file-name): text diagnostics show
 * name, JSON ones its file URI. name must outlive src. */
void source_rename(SourceFile *src, const char *name);

/* How JSON and LSP positions count characters within a line (LSP 3.17
 * PositionEncodingKind): UTF-16 code units (the LSP default) or bytes. A byte
 * that is not part of well-formed UTF-8 counts as one unit in both. */
typedef enum { POS_UTF16, POS_UTF8 } PosEncoding;
/* 0-based line and character of a byte offset in the given encoding. */
void source_position(SourceFile *src, uint32_t offset, PosEncoding enc, uint32_t *line,
                     uint32_t *character);
/* The byte offset of (line, character), clamped to the line's end (before its
 * newline) and to the file's end; a character inside a multi-byte sequence
 * goes to the sequence's start. */
uint32_t source_offset(SourceFile *src, uint32_t line, uint32_t character, PosEncoding enc);
/* The bytes of text[0, n) that `units` characters (UTF-16 code units or bytes, per enc) take;
 * a count that ends inside a character stops at its start. */
size_t source_advance(const char *text, size_t n, uint32_t units, PosEncoding enc);

typedef enum { DIAG_TEXT, DIAG_JSON } DiagFormat;
typedef enum { SEV_ERROR = 1, SEV_WARNING = 2, SEV_NOTE = 3 } DiagSeverity;

typedef struct DiagEngine DiagEngine;

/* out is where diagnostics go (stderr in the driver). */
DiagEngine *diag_new(SourceFile *src, DiagFormat fmt, FILE *out);
void diag_free(DiagEngine *d);
/* Verify mode: collect diagnostics instead of printing them (see diag_verify). */
void diag_set_verify_mode(DiagEngine *d, bool on);
/* --error-limit: after LIMIT errors have been printed, further errors and
 * their notes are counted but not printed, and diag_free ends the output with
 * a note at the first hidden error saying how many were not shown. 0 (the
 * default of a new engine) means no limit. */
void diag_set_error_limit(DiagEngine *d, unsigned limit);
unsigned diag_error_limit(const DiagEngine *d);
/* --Werror: every later warning is reported (and counted) as an error. */
void diag_set_werror(DiagEngine *d, bool on);
/* JSON positions: UTF-16 code units (default) or bytes. */
void diag_set_position_encoding(DiagEngine *d, PosEncoding enc);

/* A diagnostic as handed to a handler: an error or warning (or a note that has
 * no error to attach to) and, separately, the notes attached to it. code is
 * the message kind's rule id (see diag_code). Strings live until the handler
 * returns. */
typedef struct DiagItem {
    DiagSeverity sev;
    const char *label; /* "error", "warning", "note", or a custom label */
    Span span;
    const char *msg;
    const char *code;
} DiagItem;
typedef void (*DiagHandler)(void *ctx, const DiagItem *head, const DiagItem *notes, size_t nnotes);
/* Sends every diagnostic to fn instead of printing it (the language server's
 * sink); an error reaches fn with its notes, at the next error or diag_flush.
 * NULL restores printing. */
void diag_set_handler(DiagEngine *d, DiagHandler fn, void *ctx);

/* The rule id of a message kind (the `code` of JSON and LSP diagnostics): the
 * fixed words of the message's format string, lowercase, joined by '-', with
 * the variable parts (conversions, quoted entities, numbers) left out, e.g.
 * "use of undeclared SSA value name '%s'" -> "use-of-undeclared-ssa-value-name".
 * When the format is only a frame around a pre-formatted message ("%s",
 * "'%s' op %s"), the words of the message up to ", but got" are used instead,
 * numbers and quoted entities still left out. So call sites need no ids of
 * their own, and an id changes only when its message's wording does. Writes
 * at most size-1 bytes to buf (cut at a word boundary) and returns buf. */
const char *diag_code(const char *fmt, const char *msg, char *buf, size_t size);

#if defined(__GNUC__)
#define DIAG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DIAG_PRINTF(a, b)
#endif

/* Report an error / warning at span. The message follows the style rules of
 * ARCHITECTURE.md (lowercase, no trailing period, entities quoted '...'). */
void diag_error(DiagEngine *d, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
void diag_warning(DiagEngine *d, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* Attach a note to the most recent error or warning. */
void diag_note(DiagEngine *d, Span span, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* An error with a custom label in place of "error", e.g. "runtime error". */
void diag_error_labeled(DiagEngine *d, Span span, const char *label, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
/* Render anything still pending (the last error waits for its notes) and
 * write it out: diagnostics are buffered, so anyone else writing to the same
 * stream calls this first. */
void diag_flush(DiagEngine *d);

/* Number of errors reported so far (warnings and notes not counted). */
unsigned diag_error_count(const DiagEngine *d);

/* Verify mode: compares the diagnostics collected since the last call whose
 * spans lie in [begin, end) with the `expected-error|warning|note[-re]@...
 * {{...}}` comments found in that byte range of the source, prints MLIR's
 * messages for every mismatch (`expected error "X" was not produced`,
 * `unexpected error: X`) as errors in the engine's format, forgets the
 * collected diagnostics and returns true when everything matched. */
bool diag_verify(DiagEngine *d, uint32_t begin, uint32_t end);

/* Problems that have no source location (usage, I/O): "ptoas: error: msg",
 * or in JSON form (diag_set_tool_format) one Diagnostic line at the start of
 * the input, code "tool-" plus the message's rule id. */
void diag_tool_error(const char *fmt, ...) DIAG_PRINTF(1, 2);
/* The same as a warning ("ptoas: warning: msg", JSON severity 2). */
void diag_tool_warning(const char *fmt, ...) DIAG_PRINTF(1, 2);
/* How diag_tool_error prints: text (the default) or JSON naming uri (may be
 * NULL before the input is known: the line then has no "uri"). uri is copied. */
void diag_set_tool_format(DiagFormat fmt, const char *uri);

/* An internal invariant failed, i.e. a bug in ptoas: prints
 * "ptoas: internal error: msg at file.c:line (this is a bug)" on stderr, runs the
 * cleanup hook (the driver removes its temporary output file) and exits 3.
 * Use DIAG_INTERNAL(fmt, ...) and DIAG_ASSERT(cond), which fill in the place. */
_Noreturn void diag_internal(const char *file, int line, const char *fmt, ...) DIAG_PRINTF(3, 4);
#define DIAG_INTERNAL(...) diag_internal(__FILE__, __LINE__, __VA_ARGS__)
#define DIAG_ASSERT(cond) \
    ((cond) ? (void)0 : diag_internal(__FILE__, __LINE__, "assertion '%s' failed", #cond))
/* Memory ran out (malloc failed for n bytes; 0 = unknown): runs the cleanup
 * hook, prints "ptoas: error: out of memory" and exits 2, a resource failure
 * as an I/O error is, not a bug. Allocates nothing. */
_Noreturn void diag_out_of_memory(size_t n);
/* Registers the function diag_internal and diag_out_of_memory call before
 * exiting (NULL for none). */
void diag_set_internal_hook(void (*cleanup)(void));

#endif
