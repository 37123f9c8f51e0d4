/* lexer.re - the PTO assembly lexer (docs/language.md section 1), compiled by re2c
 * into a DFA over the whole input held in memory. Tokens carry only their byte
 * span: their text is the source itself, so lexing allocates nothing. Bad
 * input is reported here, once, and returned as T_ERROR, which no grammar rule
 * accepts; the parser then recovers without a second message. */
#include <string.h>
#include "lexer.h"
#include "parser.h"

/*!re2c
    re2c:api:style = free-form;
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "lx->cur";
    re2c:define:YYMARKER = "lx->marker";
    re2c:define:YYCTXMARKER = "lx->ctxmarker";
    re2c:define:YYLIMIT = "lx->lim";
    re2c:yyfill:enable = 0;
    re2c:eof = 0;

    ident    = [A-Za-z_][A-Za-z0-9_$.]*;
    dim      = [0-9]+ | "?";
    digit    = [0-9];
    hexdigit = [0-9a-fA-F];
    strchar  = [^"\\\n\x00] | "\\" ([\\"nt] | hexdigit hexdigit);
*/

void lex_init(Lexer *lx, const char *text, size_t len, uint32_t base, DiagEngine *diag)
{
    lx->start = (const unsigned char *)text;
    lx->cur = lx->start;
    lx->lim = lx->start + len;
    lx->marker = lx->cur;
    lx->ctxmarker = lx->cur;
    lx->base = base;
    lx->nl = true;
    lx->bol = false;
    lx->diag = diag;
}

/* Every token leaves through here: records whether it starts a line. */
static int ret(Lexer *lx, int tok)
{
    lx->bol = lx->nl;
    lx->nl = false;
    return tok;
}

static Span span_of(const Lexer *lx, const unsigned char *b, const unsigned char *e)
{
    Span s = {lx->base + (uint32_t)(b - lx->start), lx->base + (uint32_t)(e - lx->start)};
    return s;
}

/* A NUL inside a comment or string: one error per NUL byte, at it; the
 * comment or string is otherwise kept, so parsing goes on undisturbed. */
static void nul_errors(Lexer *lx, const unsigned char *b, const unsigned char *e)
{
    for (const unsigned char *q = b; (q = memchr(q, 0, (size_t)(e - q))) != NULL; q++)
        diag_error(lx->diag, span_of(lx, q, q + 1), "unexpected NUL byte");
}

int lex_next(Lexer *lx, Span *loc)
{
    const unsigned char *tok;
    for (;;) {
        tok = lx->cur;
        *loc = span_of(lx, tok, tok);
#define TOK(t) do { *loc = span_of(lx, tok, lx->cur); return ret(lx, t); } while (0)
        /*!re2c
            $                      { *loc = span_of(lx, lx->lim, lx->lim); return ret(lx, T_END); }
            [\r\n]                 { lx->nl = true; continue; }
            [ \t]+                 { continue; }
            "//" [^\r\n\x00]*      { continue; }
            "#" ([ \t] [^\r\n\x00]*)? / [\r\n\x00] { continue; }
            "#" [ \t] [^\r\n\x00]*  { continue; }
            ("//" | "#" [ \t]) [^\r\n\x00]* [\x00] [^\r\n]* { nul_errors(lx, tok, lx->cur); continue; }

            "->"                   { TOK(T_ARROW); }
            "("                    { TOK('('); }
            ")"                    { TOK(')'); }
            "{"                    { TOK('{'); }
            "}"                    { TOK('}'); }
            "["                    { TOK('['); }
            "]"                    { TOK(']'); }
            "<"                    { TOK('<'); }
            ">"                    { TOK('>'); }
            ","                    { TOK(','); }
            ":"                    { TOK(':'); }
            "="                    { TOK('='); }
            "?"                    { TOK('?'); }

            "module"               { TOK(T_MODULE); }
            "func.func"            { TOK(T_FUNC); }
            "attributes"           { TOK(T_ATTRIBUTES); }
            "ins"                  { TOK(T_INS); }
            "outs"                 { TOK(T_OUTS); }
            "private"              { TOK(T_PRIVATE); }
            "public"               { TOK(T_PUBLIC); }
            "true"                 { TOK(T_TRUE); }
            "false"                { TOK(T_FALSE); }
            "array"                { TOK(T_ARRAY); }
            /* a trailing location `loc(...)`; elsewhere `loc` is an identifier (`loc=vec`) */
            "loc" / [ \t]* "("     { TOK(T_LOC); }
            ident                  { TOK(T_IDENT); }

            "%" ([A-Za-z_$.\-][A-Za-z0-9_$.\-]* | digit+) { TOK(T_SSA); }
            "%" ([A-Za-z_$.\-][A-Za-z0-9_$.\-]* | digit+) "#" digit+ { TOK(T_SSA); }
            "@" ident              { TOK(T_SYMBOL); }
            "@" ["] strchar* ["]   { TOK(T_SYMBOL); } /* MLIR's quoted symbol: @"a-b" */
            "@" ["] strchar*       {
                *loc = span_of(lx, tok + 1, tok + 2);
                diag_error(lx->diag, *loc, "expected '\"' in string literal");
                return ret(lx, T_ERROR);
            }
            "^" [A-Za-z0-9_$.\-]+  { TOK(T_CARET); }
            "!" ident              { TOK(T_BANG); }
            "#" ident              { TOK(T_HASH); }

            "-"? "0x" hexdigit+    { TOK(T_HEX); }
            dim ("x" dim)+         { TOK(T_DIMS); }
            (dim "x")+ (ident | "!" ident) { TOK(T_SHAPED); }
            /* MLIR also reads a shape spaced out, `8 x 128 x f32` (PTOAS's tests write one) */
            (dim [ ]* "x" [ ]*)+ (ident | "!" ident) { TOK(T_SHAPED); }
            "-"? digit+            { TOK(T_INT); }
            "-"? digit+ "." digit* ([eE] [-+]? digit+)? { TOK(T_FLOAT); }

            ["] strchar* ["]       { TOK(T_STRING); }
            ["] (strchar | [\x00])* [\x00] (strchar | [\x00])* ["] { nul_errors(lx, tok, lx->cur); TOK(T_STRING); }
            ["] strchar* "\\"      {
                *loc = span_of(lx, lx->cur - 1, lx->cur);
                diag_error(lx->diag, *loc, "unknown escape in string literal");
                return ret(lx, T_ERROR);
            }
            ["] strchar*           {
                *loc = span_of(lx, tok, tok + 1);
                diag_error(lx->diag, *loc, "expected '\"' in string literal");
                return ret(lx, T_ERROR);
            }

            [\x00]                 {
                *loc = span_of(lx, tok, lx->cur);
                diag_error(lx->diag, *loc, "unexpected NUL byte");
                return ret(lx, T_ERROR);
            }
            *                      {
                /* a '#' that ends the file is an empty comment (the rules above
                 * need a byte after it, and the end of input is not one) */
                if (tok[0] == '#' && lx->cur == lx->lim)
                    continue;
                /* one message per UTF-8 character, not per byte */
                if (tok[0] >= 0xC0)
                    while (lx->cur < lx->lim && (lx->cur[0] & 0xC0) == 0x80)
                        lx->cur++;
                *loc = span_of(lx, tok, lx->cur);
                diag_error(lx->diag, *loc, "unexpected character");
                return ret(lx, T_ERROR);
            }
        */
#undef TOK
    }
}
