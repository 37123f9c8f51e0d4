/* emit_c.c - codegen: Level 2 IR in which every tile buffer has an address ->
 * C source calling the runtime (runtime/ptort.h), for --emit=c, --emit=exe
 * and `ptoas run`. docs/codegen.md shows the generated code.
 *
 * One pass over each function in op order: tile
 * buffers (arguments, pto.alloc_tile results) are tracked with the address
 * they are bound to at that point (addr =, pto.tassign rebinding), and each
 * (buffer, address) binding that is used becomes one `static const ptort_tile`
 * constant. Index values are C expressions: literals for arith.constant,
 * parameters for scalar arguments. Each runtime call is followed by a status
 * check that reports the op's source location. Problems are reported at the
 * op and nothing is written.
 *
 * This file owns the driver and the harness metadata: the C identifiers and string
 * literals, emit_c and emit_pick_func, one C function per func.func (its parameters,
 * its results, the ptort_kernel tables the harness reads) and main(). The ops are
 * emit_ops.c's, control flow and calls emit_flow.c's (emit_int.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "emit_int.h"
#include "target.h"
#include "ptort.h"

/* ---- identifiers ------------------------------------------------------------ */

static bool cnames_has(const CNames *ns, const char *s) { return strset_has(ns, s, strlen(s)); }

/* Takes s (malloc'ed); a name already there is freed. */
static void cnames_add(CNames *ns, char *s)
{
    if (!strset_add(ns, s, strlen(s)))
        free(s);
}

static void cnames_free(CNames *ns)
{
    for (size_t i = 0; i < ns->cap; i++)
        free((char *)ns->slots[i].p);
    strset_free(ns);
}

/* prefix + name with every byte outside [A-Za-z0-9_] replaced by '_', made
 * unique in ns. The result is owned by ns. */
const char *emit_unique_name(CNames *ns, const char *prefix, const char *name, size_t len)
{
    StrBuf b = {0};
    sb_puts(&b, prefix);
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        sb_putc(&b, ok ? c : '_');
    }
    sb_putc(&b, '\0');
    size_t base = b.len - 1;
    for (unsigned k = 2; cnames_has(ns, b.p); k++) {
        b.len = base;
        sb_printf(&b, "_%u", k);
        sb_putc(&b, '\0');
    }
    cnames_add(ns, b.p);
    return b.p;
}

/* The tag that makes a function's C names: "_NAME" when NAME is a plain C
 * identifier body, else "x_" + NAME with '_' written "__" and every other
 * byte outside [A-Za-z0-9] as "_XX" (hex). Distinct names give distinct tags. */
void emit_func_tag(StrBuf *b, Str name)
{
    bool plain = true;
    for (uint32_t i = 0; i < name.len; i++) {
        char c = name.p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            plain = false;
    }
    if (plain) {
        sb_putc(b, '_');
        sb_putn(b, name.p, name.len);
        return;
    }
    sb_puts(b, "x_");
    for (uint32_t i = 0; i < name.len; i++) {
        unsigned char c = (unsigned char)name.p[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            sb_putc(b, (char)c);
        else if (c == '_')
            sb_puts(b, "__");
        else
            sb_printf(b, "_%02X", c);
    }
}

/* Bytes of s at i that a C comment cannot hold as they are: control bytes,
 * bytes that are not well-formed UTF-8, and the two-byte sequences that would
 * end or open a comment ("*" "/", "/" "*") or start a trigraph ("??"); the
 * rest (a path's '/', '.', spaces, UTF-8 names) stays readable. Returns the
 * length of the plain run at i (0: the byte at i must be escaped). */
static size_t comment_plain(const char *s, size_t n, size_t i)
{
    unsigned char c = (unsigned char)s[i];
    char next = i + 1 < n ? s[i + 1] : '\0';
    if (c < 0x20 || c == 0x7F || (c == '*' && next == '/') || (c == '/' && next == '*') ||
        (c == '?' && next == '?'))
        return 0;
    return c < 0x80 ? 1 : str_utf8_len((const unsigned char *)s + i, n - i);
}

/* A C string literal of n bytes. In a comment (in_comment), only what a
 * comment cannot hold is escaped beyond '"' and '\\' (comment_plain), so that
 * no byte sequence of s can end the comment and a path reads as written. */
static void put_c_string_in(StrBuf *b, const char *s, size_t n, bool in_comment)
{
    sb_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t plain = in_comment ? comment_plain(s, n, i) : c >= 0x20 && c < 0x7F && c != '?';
        if (c == '"' || c == '\\') {
            sb_printf(b, "\\%c", c);
            i++;
        } else if (plain) {
            sb_putn(b, s + i, plain); /* '?' outside comments: no trigraphs */
            i += plain;
        } else {
            sb_printf(b, "\\%03o", c);
            i++;
        }
    }
    sb_putc(b, '"');
}

static void put_c_string(StrBuf *b, const char *s, size_t n)
{
    put_c_string_in(b, s, n, false);
}

void emit_c_string(StrBuf *b, const char *s, size_t n) { put_c_string(b, s, n); }

/* Text from the input inside a C comment: as written when a comment can hold
 * it and it has no '"' or '\\', else as an escaped string (a generic sym_name
 * may hold any text, the end of a comment included). */
static void put_comment_text(StrBuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t plain = comment_plain(s, n, i);
        if (!plain || s[i] == '"' || s[i] == '\\') {
            put_c_string_in(b, s, n, true);
            return;
        }
        i += plain;
    }
    sb_putn(b, s, n);
}

/* ---- helpers the three files share (emit_int.h) ------------------------------------ */

const char *emit_arena_str(Emit *e, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    DIAG_ASSERT(n >= 0);
    char *p = arena_alloc(&e->m->arena, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void emit_where(Emit *e, StrBuf *b, Span s)
{
    uint32_t line, col;
    source_line_col(e->src, s.begin, &line, &col);
    char buf[64];
    snprintf(buf, sizeof buf, ":%u:%u", line + 1, col + 1);
    StrBuf t = {0};
    sb_puts(&t, e->src->name);
    sb_puts(&t, buf);
    put_c_string(b, t.p, t.len);
    sb_free(&t);
}

bool emit_fail(Emit *e, Span at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(e->d, at, "%s", msg);
    e->errors = true;
    return false;
}

/* ---- functions ---------------------------------------------------------------------- */

/* The prototype of called function g, in e->protos. */
static void put_proto(Emit *e, const Func *g)
{
    StrBuf tag = {0};
    emit_func_tag(&tag, g->name);
    sb_putc(&tag, '\0');
    sb_printf(&e->protos, "int ptoas_k%s(ptort_ctx *ctx, const int64_t *base", tag.p);
    const Block *en = ir_entry(g);
    for (uint32_t i = 0; i < en->nargs; i++) {
        const Type *t = g->values[en->args[i]].type;
        sb_puts(&e->protos, type_is_tile(t)            ? ", const ptort_tile *"
                            : t && t->kind == TY_PTR ? ", void *, size_t"
                                                     : emit_float_rt(t) ? ", float" : ", int64_t");
    }
    for (uint32_t i = 0; i < g->nresults; i++)
        if (!type_is_tile(g->results[i]))
            sb_printf(&e->protos, ", %s *", emit_c_scalar_type(g->results[i]));
    sb_puts(&e->protos, ");\n");
    sb_free(&tag);
}

/* The op emitters write every line at one level (4 spaces); control flow nests them. This
 * copies the body re-indented by 4 spaces per open brace of emit_for / emit_if (a line
 * ending in '{' opens, one starting with '}' closes). */
static void put_indented(StrBuf *c, const char *p, size_t n)
{
    int depth = 0;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(p + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (p + at)) : n - at;
        const char *l = p + at;
        size_t k = 0;
        while (k < len && k < 4 && l[k] == ' ')
            k++;
        if (len > k && l[k] == '}')
            depth--;
        for (int d = 0; d < depth && len > k; d++)
            sb_puts(c, "    ");
        sb_putn(c, l, len);
        sb_putc(c, '\n');
        if (len && l[len - 1] == '{')
            depth++;
        at += len + 1;
    }
}

/* The index of the function argument v is, or -1 (also for NO_VALUE). */
static int scalar_arg_index(const Emit *e, ValueId v)
{
    if (v == NO_VALUE)
        return -1;
    const Block *entry = ir_entry(e->f);
    for (uint32_t i = 0; i < entry->nargs; i++)
        if (entry->args[i] == v)
            return (int)i;
    return -1;
}

static Entry *add_entry(Emit *e, ValueId v, int kind, int arg)
{
    Entry *en = &e->entries[e->nentries++];
    memset(en, 0, sizeof *en);
    en->val = v;
    en->kind = kind;
    en->arg = arg;
    en->dtype = val(e, v)->type->kind == TY_SCALAR ? DT_NONE : val(e, v)->type->dtype;
    if (type_is_tile(val(e, v)->type))
        en->dtype = val(e, v)->type->tile.dtype;
    en->in = en->out = -1;
    en->approximates = -1;
    en->where = val(e, v)->def;
    return en;
}

/* The entry of buffer bi (an argument, or a value added as a result). */
static Entry *buffer_entry(Emit *e, int bi, ValueId name)
{
    Buf *b = &e->bufs[bi];
    if (b->arg >= 0)
        return &e->entries[b->arg];
    for (uint32_t i = ir_entry(e->f)->nargs; i < e->nentries; i++)
        if (e->buf_of[e->entries[i].val] == bi)
            return &e->entries[i];
    Entry *en = add_entry(e, name, 0, -1);
    en->flags |= PTORT_KARG_WRITTEN;
    return en;
}

static void put_desc_ref(Emit *e, StrBuf *b, int di)
{
    if (di < 0)
        sb_puts(b, "NULL");
    else
        sb_printf(b, "&%s", e->descs[di].name);
}

/* What emit_func's steps hand on: the kernel's parameters and the wrapper (ptoas_run...)
 * that calls it with the harness's values. */
typedef struct FuncText {
    StrBuf tag;            /* emit_func_tag of the function, '\0'-terminated */
    StrBuf params;         /* the kernel's parameter list */
    StrBuf call;           /* the wrapper's arguments of the kernel, '\0'-terminated */
    StrBuf wrap;           /* the wrapper's locals (one per scalar result) */
    const char **piece;    /* the wrapper's argument for each parameter (NULL: none) */
    uint32_t npieces, first_arg_piece;
} FuncText;

/* The per-function state of e for f: values, uses, rebindings, the descriptor names' tag. */
static void func_begin(Emit *e, const Func *f, FuncText *ft)
{
    e->f = f;
    memset(&e->local, 0, sizeof e->local);
    e->body.len = 0;
    e->hoist.len = 0;
    e->calls = false;
    e->nbufs = 0;
    e->ndescs = 0;
    e->nentries = 0;
    size_t nv = f->nvalues ? f->nvalues : 1;
    e->buf_of = xmalloc(nv * sizeof *e->buf_of);
    e->bufs = xmalloc(nv * sizeof *e->bufs);
    e->cexpr = xcalloc(nv, sizeof *e->cexpr);
    e->csize = xcalloc(nv, sizeof *e->csize);
    e->ptr_arg = xmalloc(nv * sizeof *e->ptr_arg);
    e->uses = xcalloc(nv, sizeof *e->uses);
    e->returned = xcalloc(nv, sizeof *e->returned);
    e->rebound = xcalloc(nv, sizeof *e->rebound);
    const Block *entry = ir_entry(f);
    uint32_t nops = ir_number_ops(f);
    e->quant_origin = xmalloc((nops ? nops : 1) * sizeof *e->quant_origin);
    e->entries = xmalloc((entry->nargs + nops + 1) * sizeof *e->entries);
    for (uint32_t i = 0; i < nv; i++)
        e->buf_of[i] = e->ptr_arg[i] = -1;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
        /* a binding that differs by iteration, branch or run: the buffer's descriptor is a local */
        if (op->kind == OP_TASSIGN && op->nopnds &&
            (ir_block_owner(op->parent) || (!op->has_tile_addr && !const_int(e, role(op, ROLE_ADDR), &(int64_t){0}))))
            e->rebound[op->opnds[0]] = true;
        e->quant_origin[op->index] = -1;
        for (uint32_t j = 0; j < op->nopnds; j++) {
            e->uses[op->opnds[j]]++;
            if (op->kind == OP_RETURN)
                e->returned[op->opnds[j]] = true;
        }
    }
    e->race = !e->cfg->no_race_check && !pipe_func_auto_synced(f);
    e->race_op = NULL;
    emit_func_tag(&ft->tag, f->name);
    sb_putc(&ft->tag, '\0');
    /* descriptor names: ptoas_<func>_<value> */
    e->tag = emit_arena_str(e, "ptoas%s%s_", ft->tag.p[0] == '_' ? "" : "_", ft->tag.p);
}

/* Function argument i: its buffer or C expression, its harness entry, its kernel parameters
 * and the wrapper's argument. */
static void arg_param(Emit *e, FuncText *ft, uint32_t i)
{
    const Block *entry = ir_entry(e->f);
    ValueId v = entry->args[i];
    const Value *x = val(e, v);
    const Type *t = x->type;
    ft->piece[ft->first_arg_piece + i] = NULL;
    ft->npieces++;
    if (type_is_tile(t)) {
        Buf *b = &e->bufs[e->nbufs];
        memset(b, 0, sizeof *b);
        b->val = v;
        b->arg = (int)i;
        b->tb = &t->tile;
        b->desc = b->first_desc = -1;
        b->last_writer = NULL;
        b->origin = (int)i;
        b->parent = -1;
        b->approx = -1;
        add_entry(e, v, 0, (int)i);
        emit_runtime_dtype(e, x->type_span, t->tile.dtype, HOLD_TILE); /* reported; uses go on */
        emit_runtime_boxes(e, x->type_span, &t->tile);
        e->buf_of[v] = (int)e->nbufs++;
        if (e->f_called) {
            /* the caller's tile, in place: its descriptor is a parameter (the wrapper passes
             * the one the harness fills, made at the argument's first binding below) */
            if (t->tile.vrow == DIM_DYNAMIC || t->tile.vcol == DIM_DYNAMIC)
                emit_fail(e, x->type_span, "codegen does not support tile arguments with a dynamic valid shape in a "
                     "called function");
            const char *pn = emit_unique_name(&e->local, "p_", x->name.p, x->name.len);
            b->mut = emit_unique_name(&e->local, "m_", x->name.p, x->name.len);
            sb_printf(&ft->params, ", const ptort_tile *%s", pn);
            sb_printf(&e->body, "    ptort_tile %s = *%s;\n", b->mut, pn);
            return;
        }
        if (e->rebound[v])
            emit_make_mutable(e, e->buf_of[v]);
        if (t->tile.vrow == DIM_DYNAMIC || t->tile.vcol == DIM_DYNAMIC) {
            const char *n = emit_unique_name(&e->local, "a_", x->name.p, x->name.len);
            const char *vr = emit_unique_name(&e->local, n, "_valid_rows", 11);
            const char *vc = emit_unique_name(&e->local, n, "_valid_cols", 11);
            sb_printf(&ft->params, ", int64_t %s, int64_t %s", vr, vc);
            ft->piece[ft->first_arg_piece + i] = emit_arena_str(e, "a[%u].valid_rows, a[%u].valid_cols", i, i);
            b->vr = t->tile.vrow == DIM_DYNAMIC ? vr : NULL;
            b->vc = t->tile.vcol == DIM_DYNAMIC ? vc : NULL;
            e->entries[i].flags |= PTORT_KARG_DYNAMIC;
            sb_printf(&e->body, "    (void)%s;\n    (void)%s;\n", vr, vc);
        }
    } else if (t && t->kind == TY_PTR) {
        if (t->ptr_space > PS_GM) {
            char tb[256];
            emit_fail(e, x->type_span, "codegen supports pointers to global memory only, but got '%s'",
                      type_str(t, tb, sizeof tb));
        }
        const char *n = emit_unique_name(&e->local, "a_", x->name.p, x->name.len);
        const char *sz = emit_unique_name(&e->local, n, "_size", 5);
        sb_printf(&ft->params, ", void *%s, size_t %s", n, sz);
        ft->piece[ft->first_arg_piece + i] = emit_arena_str(e, "a[%u].ptr, a[%u].size", i, i);
        sb_printf(&e->body, "    (void)%s;\n    (void)%s;\n", n, sz);
        e->cexpr[v] = n;
        e->csize[v] = sz;
        e->ptr_arg[v] = (int)i;
        add_entry(e, v, 1, (int)i);
        emit_runtime_dtype(e, x->type_span, t->dtype, HOLD_PTR);
    } else if (emit_int_bits(t) || emit_float_rt(t)) {
        const char *n = emit_unique_name(&e->local, "a_", x->name.p, x->name.len);
        bool fl = emit_float_rt(t) != NULL;
        sb_printf(&ft->params, fl ? ", float %s" : ", int64_t %s", n);
        ft->piece[ft->first_arg_piece + i] = emit_arena_str(e, fl ? "(float)a[%u].fscalar" : "a[%u].scalar", i);
        sb_printf(&e->body, "    (void)%s;\n", n);
        e->cexpr[v] = n;
        add_entry(e, v, 2, (int)i)->stype = dtype_name(t->dtype);
    } else {
        char tb[256];
        emit_fail(e, x->type_span, "codegen does not support arguments of type '%s'", type_str(t, tb, sizeof tb));
        add_entry(e, v, 2, (int)i);
    }
}

/* The kernel's parameters: its frame's base when it is called, the arguments' (arg_param), an
 * out-parameter per scalar result. */
static void func_params(Emit *e, const Func *f, FuncText *ft)
{
    const Block *entry = ir_entry(f);
    /* parameters; ft->piece[]: the wrapper's argument for each (NULL: none) */
    sb_puts(&ft->params, "ptort_ctx *ctx");
    e->f_called = emit_called_index(e, e->mod, f) >= 0;
    e->frame_fn = e->frame = NULL;
    e->first_call = e->computed_at = NULL;
    e->nrebind = 0;
    ft->piece = arena_alloc(&e->m->arena, (entry->nargs + f->nresults + 1) * sizeof *ft->piece);
    ft->npieces = 0;
    if (e->f_called) { /* its frame's base: zero from the harness */
        e->base = emit_unique_name(&e->local, "", "base", 4);
        sb_printf(&ft->params, ", const int64_t *%s", e->base);
        sb_printf(&e->body, "    (void)%s;\n", e->base);
        ft->piece[ft->npieces++] = "ptoas_base0";
    }
    ft->first_arg_piece = ft->npieces;
    for (uint32_t i = 0; i < entry->nargs; i++)
        arg_param(e, ft, i);
    /* scalar results: an out-parameter each (the wrapper passes locals it does not read) */
    e->ret_out = arena_alloc(&e->m->arena, (f->nresults ? f->nresults : 1) * sizeof *e->ret_out);
    for (uint32_t i = 0; i < f->nresults; i++) {
        const Type *t = f->results[i];
        e->ret_out[i] = NULL;
        if (type_is_tile(t))
            continue;
        if (!emit_int_bits(t) && !emit_float_rt(t)) {
            char tb[256];
            emit_fail(e, f->name_span, "codegen does not support results of type '%s'", type_str(t, tb, sizeof tb));
            continue;
        }
        if (f == e->main_f && e->need_main)
            emit_fail(e, f->name_span, "codegen cannot return scalars from the function ptoas run runs ('@%.*s'); "
                 "call it from another function", (int)f->name.len, f->name.p);
        char num[16];
        int nl = snprintf(num, sizeof num, "%u", i);
        e->ret_out[i] = emit_unique_name(&e->local, "r_", num, (size_t)nl);
        sb_printf(&ft->params, ", %s *%s", emit_c_scalar_type(t), e->ret_out[i]);
        sb_printf(&ft->wrap, "    %s r%u;\n", emit_c_scalar_type(t), i);
        ft->piece[ft->npieces++] = emit_arena_str(e, "&r%u", i);
    }
}

/* After the body: what the harness reads back (written arguments, returned values, round
 * trips, the local buffers the kernel wrote) and the wrapper's call. */
static void func_results(Emit *e, const Func *f, FuncText *ft)
{
    const Block *entry = ir_entry(f);
    const Op *ret = entry->last && entry->last->kind == OP_RETURN ? entry->last : NULL;
    /* where results are read when there is no return: after the last op */
    const Op *end = ret ? ret : entry->last;

    /* results: written arguments, returned values, round trips */
    for (uint32_t i = 0; i < entry->nargs && !e->errors; i++) {
        Entry *en = &e->entries[i];
        int bi = e->buf_of[en->val];
        if (en->kind == 0 && bi >= 0) {
            /* an argument no op uses still has a declared shape to check --in against */
            if (e->bufs[bi].first_desc < 0 && e->bufs[bi].has_addr)
                emit_cur_desc(e, bi, end, &e->bufs[bi].first_desc);
            en->in = e->bufs[bi].first_desc;
            if (e->bufs[bi].written) {
                en->flags |= PTORT_KARG_WRITTEN | PTORT_KARG_RESULT;
                emit_cur_desc(e, bi, end, &en->out);
            }
        } else if (en->kind == 1 && (en->flags & PTORT_KARG_WRITTEN)) {
            en->flags |= PTORT_KARG_RESULT;
        }
        if (en->kind == 0 && e->f_called) /* the descriptor the harness fills */
            ft->piece[ft->first_arg_piece + i] =
                en->in >= 0 ? emit_arena_str(e, "&%s", e->descs[en->in].name)
                            : emit_arena_str(e, "&%s", emit_type_desc(e, e->bufs[bi].tb, val(e, en->val)));
    }
    for (uint32_t i = 0; i < ft->npieces; i++)
        if (ft->piece[i])
            sb_printf(&ft->call, "%s%s", ft->call.len ? ", " : "", ft->piece[i]);
    sb_putc(&ft->call, '\0');
    if (ret && !e->errors) {
        for (uint32_t i = 0; i < ret->nopnds; i++) {
            int bi = e->buf_of[ret->opnds[i]];
            if (i < f->nresults && e->ret_out[i])
                continue; /* a scalar: its out-parameter */
            if (bi < 0) {
                emit_fail(e, ret->name_span, "codegen can only return tile buffers");
                break;
            }
            Entry *en = buffer_entry(e, bi, ret->opnds[i]);
            en->flags |= PTORT_KARG_RESULT;
            if (!emit_cur_desc(e, bi, ret, &en->out))
                break;
        }
    }
    for (uint32_t bi = 0; bi < e->nbufs && !e->errors; bi++) {
        Buf *b = &e->bufs[bi];
        if (b->approx < 0)
            continue;
        Entry *en = buffer_entry(e, (int)bi, b->approx_val);
        en->flags |= PTORT_KARG_RESULT;
        en->approximates = b->approx;
        if (en->out < 0 && end)
            emit_cur_desc(e, (int)bi, end, &en->out);
    }

    /* Local buffers the kernel wrote can be read with --out (their bytes after
     * the run); when nothing else is a result, the last op's outputs are. */
    bool any_result = false;
    for (uint32_t i = 0; i < e->nentries; i++)
        any_result |= (e->entries[i].flags & PTORT_KARG_RESULT) != 0;
    const Op *last = NULL;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op))
        if (op_info(op->kind)->opflags & OF_WRITES)
            last = op;
    for (uint32_t bi = 0; bi < e->nbufs && !e->errors; bi++) {
        Buf *b = &e->bufs[bi];
        if (b->arg >= 0 || !b->written)
            continue;
        Entry *en = buffer_entry(e, (int)bi, b->val);
        if (en->out < 0)
            emit_cur_desc(e, (int)bi, end, &en->out);
        if (!any_result && last && b->last_writer == last) {
            const OpInfo *in = op_info(last->kind);
            ValueId vals[MAX_ROLES];
            ir_op_roles(last, vals);
            for (int r = in->nins; r < in->nroles; r++)
                if (vals[r] != NO_VALUE && e->buf_of[vals[r]] == (int)bi &&
                    !(in->flags[r] & (ROLE_SCRATCH | ROLE_TEMP)))
                    en->flags |= PTORT_KARG_RESULT;
        }
    }
}

/* The table of f's harness entries (ptort_kernel_arg), ptoas_kargs<tag>. */
static void put_kargs(Emit *e, const char *tag)
{
    StrBuf *c = &e->code;
    sb_printf(c, "\nstatic const ptort_kernel_arg ptoas_kargs%s[] = {\n", tag);
    static const char *const kinds[] = {"PTORT_KARG_TILE", "PTORT_KARG_PTR", "PTORT_KARG_SCALAR"};
    for (uint32_t i = 0; i < e->nentries; i++) {
        const Entry *en = &e->entries[i];
        const Value *x = val(e, en->val);
        sb_puts(c, "    {.name = ");
        put_c_string(c, x->name.p, x->name.len);
        sb_printf(c, ", .kind = %s, .arg = %d", kinds[en->kind], en->arg);
        if (en->kind != 2)
            sb_printf(c, ", .dtype = %s", rt_dtype(en->dtype) ? rt_dtype(en->dtype) : "PTORT_NUM_DTYPES");
        else if (en->stype) /* a name from the dtype table */
            sb_printf(c, ", .scalar_type = \"%s\"", en->stype);
        if (en->kind == 0) {
            sb_puts(c, ", .in = ");
            put_desc_ref(e, c, en->in);
            sb_puts(c, ", .out = ");
            put_desc_ref(e, c, en->out);
        }
        sb_puts(c, ", .flags = ");
        if (!en->flags)
            sb_puts(c, "0");
        static const char *const fl[] = {"PTORT_KARG_WRITTEN", "PTORT_KARG_RESULT", "PTORT_KARG_DYNAMIC",
                                         "PTORT_KARG_READ"};
        for (int j = 0, n = 0; j < 4; j++)
            if (en->flags & (1u << j))
                sb_printf(c, "%s%s", n++ ? " | " : "", fl[j]);
        sb_printf(c, ", .approximates = %d, .where = ", en->approximates);
        emit_where(e, c, en->where);
        /* a result whose valid shape a scalar argument sets: the harness's
         * statistics cover that region */
        int bi = en->kind == 0 ? e->buf_of[en->val] : -1;
        if (bi >= 0 && e->bufs[bi].arg < 0) {
            int ra = scalar_arg_index(e, e->bufs[bi].vr_val), ca = scalar_arg_index(e, e->bufs[bi].vc_val);
            if (ra >= 0)
                sb_printf(c, ", .valid_rows_arg = %d", ra + 1);
            if (ca >= 0)
                sb_printf(c, ", .valid_cols_arg = %d", ca + 1);
        }
        sb_puts(c, "},\n");
    }
    sb_puts(c, "};\n");
}

/* The first fields of a ptort_kernel for function f: its name, file, arch, numerics, sizes. */
static void put_kernel_head(Emit *e, const Func *f, Arch arch)
{
    StrBuf *c = &e->code;
    static const char *const archs[] = {"PTORT_A2", "PTORT_A3", "PTORT_A5"};
    sb_puts(c, "    .func = ");
    put_c_string(c, f->name.p, f->name.len);
    sb_puts(c, ",\n    .source = ");
    put_c_string(c, e->src->name, strlen(e->src->name));
    sb_printf(c, ",\n    .arch = %s,\n", archs[arch]);
    if (e->cfg->numerics_sim)
        sb_puts(c, "    .numerics = PTORT_NUMERICS_SIM,\n");
    bool sizes = false;
    for (int i = 0; i < LOC_COUNT; i++)
        sizes |= e->cfg->mem_size[i] != 0;
    if (sizes) {
        sb_puts(c, "    .mem_size = {");
        for (int i = 0; i < LOC_COUNT; i++)
            sb_printf(c, "%s%llu", i ? ", " : "", (unsigned long long)e->cfg->mem_size[i]);
        sb_puts(c, "},\n");
    }
}

/* f's C: the kernel function, the function computing its frame, the wrapper the harness
 * calls, its entries and its ptort_kernel. */
static void func_write(Emit *e, const Func *f, Arch arch, FuncText *ft)
{
    StrBuf *c = &e->code;
    const char *kname = emit_arena_str(e, "ptoas_k%s", ft->tag.p);
    sb_puts(c, "\n/* @");
    put_comment_text(c, f->name.p, f->name.len);
    sb_puts(c, " */\n");
    sb_putn(c, e->decls.p, e->decls.len);
    sb_printf(c, "\nint %s(%s)\n{\n", kname, ft->params.p);
    if (e->calls)
        sb_puts(c, "    ptort_status st;\n");
    else
        sb_puts(c, "    (void)ctx;\n");
    sb_putn(c, e->hoist.p, e->hoist.len);
    put_indented(c, e->body.p, e->body.len);
    sb_puts(c, "    return PTORT_OK;\n}\n");
    if (e->frame_fn) {
        /* the end of its frame per loc: every placement of its own tiles, from BASE */
        sb_printf(c, "\nstatic void %s(const int64_t *base, int64_t *fr)\n{\n"
                     "    for (int l = 0; l < PTORT_NUM_LOCS; l++)\n        fr[l] = ptoas_frame_align(base[l]);\n",
                  e->frame_fn);
        for (uint32_t i = 0; i < e->ndescs; i++)
            if (e->descs[i].in_frame)
                sb_printf(c, "    ptoas_frame_grow(fr, base, &%s, %s.addr);\n", e->descs[i].name, e->descs[i].name);
        for (uint32_t i = 0; i < e->nrebind; i++)
            sb_printf(c, "    ptoas_frame_grow(fr, base, &%s, %lld);\n", e->descs[e->rebind_desc[i]].name,
                      (long long)e->rebind_addr[i]);
        sb_puts(c, "}\n");
    }

    /* the harness's view of it */
    sb_printf(c, "\nint ptoas_run%s(ptort_ctx *ctx, const ptort_kernel_value *a)\n{\n", ft->tag.p);
    if (ft->wrap.len)
        sb_putn(c, ft->wrap.p, ft->wrap.len);
    if (!strstr(ft->call.p, "a["))
        sb_puts(c, "    (void)a;\n");
    sb_printf(c, "    return %s(ctx%s%s);\n}\n", kname, ft->call.p[0] ? ", " : "", ft->call.p);
    if (e->nentries)
        put_kargs(e, ft->tag.p);
    sb_printf(c, "\nconst ptort_kernel ptoas_kernel%s = {\n", ft->tag.p);
    put_kernel_head(e, f, arch);
    sb_printf(c, "    .nargs = %u,\n    .nentries = %u,\n", ir_entry(f)->nargs, e->nentries);
    if (e->nentries)
        sb_printf(c, "    .entries = ptoas_kargs%s,\n", ft->tag.p);
    sb_printf(c, "    .run = ptoas_run%s,\n};\n", ft->tag.p);
    e->any_calls |= e->calls;
}

/* ---- == PIPE == launches (docs/launch.md) ----------------------------------------------- */

/* The kernel kind of f: 0 cube, 1 vector, -1 none. */
static int kernel_kind(const Func *f)
{
    const Attr *k = ir_attr_find(f->attrs, f->nattrs, "pto.kernel_kind");
    return k && k->val->kind == AV_ENUM && k->val->u.e.kind == EK_KERNEL_KIND ? (int)k->val->u.e.value : -1;
}

/* Without --func, a file with one cube function and one vector function is a launch of the
 * two (e->launch_f). */
static void launch_pick(Emit *e)
{
    const Func *found[2] = {NULL, NULL};
    int count[2] = {0, 0};
    if (e->cfg->func)
        return;
    for (uint32_t i = 0; i < e->m->nmods; i++)
        for (uint32_t j = 0; j < e->m->mods[i]->nfuncs; j++) {
            const Func *f = e->m->mods[i]->funcs[j];
            int k = f->decl ? -1 : kernel_kind(f);
            if (k == 0 || k == 1) {
                found[k] = f;
                count[k]++;
            }
        }
    if (count[0] == 1 && count[1] == 1) {
        e->launch_f[0] = found[0];
        e->launch_f[1] = found[1];
    }
}

/* The SPMD argument NAME stands for (PTORT_SPMD_*), 0 when it is none, 1 when it is an
 * unknown one. */
static int spmd_arg(Str name)
{
    static const struct { const char *n; int v; } spmd[] = {
        {"__pypto_spmd_block_idx", PTORT_SPMD_BLOCK_IDX}, {"__pypto_spmd_block_num", PTORT_SPMD_BLOCK_NUM},
        {"__pypto_spmd_subblock_idx", PTORT_SPMD_SUBBLOCK_IDX}, {"__pypto_spmd_subblock_num", PTORT_SPMD_SUBBLOCK_NUM}};
    for (size_t i = 0; i < sizeof spmd / sizeof spmd[0]; i++)
        if (str_eq(name, spmd[i].n, strlen(spmd[i].n)))
            return spmd[i].v;
    return name.len > 13 && memcmp(name.p, "__pypto_spmd_", 13) == 0 ? 1 : 0;
}

/* Function K of the launch, just emitted: its arguments join the launch's by name. */
static void launch_collect(Emit *e, int k)
{
    const Block *entry = ir_entry(e->f);
    e->lmap[k] = xcalloc(entry->nargs + 1, sizeof *e->lmap[k]);
    for (uint32_t i = 0; i < entry->nargs; i++) {
        const Entry *en = &e->entries[i];
        const Value *x = val(e, en->val);
        int sp = spmd_arg(x->name);
        if (sp == 1) {
            emit_fail(e, x->def, "a launch does not know the SPMD argument '%%%.*s'", (int)x->name.len, x->name.p);
            continue;
        }
        if (sp < 0) {
            e->lmap[k][i] = sp;
            continue;
        }
        if (en->kind == 0) {
            emit_fail(e, x->def, "a launch takes pointers and scalars, but '%%%.*s' is a tile", (int)x->name.len,
                      x->name.p);
            continue;
        }
        uint32_t j = 0;
        while (j < e->nlargs && !str_eq(e->largs[j].name, x->name.p, x->name.len))
            j++;
        if (j == e->nlargs) {
            e->largs = xrealloc(e->largs, (e->nlargs + 1) * sizeof *e->largs);
            e->largs[e->nlargs++] = (LaunchArg){x->name, en->kind, en->dtype, en->stype, x->type, 0, en->where};
        } else if (e->largs[j].type != x->type) {
            emit_fail(e, x->def, "the launch's functions give argument '%%%.*s' different types", (int)x->name.len,
                      x->name.p);
        }
        e->largs[j].flags |= en->flags;
        e->lmap[k][i] = (int)j;
    }
    for (const Op *op = ir_first_op(e->f); op; op = ir_next_op(op))
        e->launch_syncall |= op->kind == OP_SYNCALL;
}

/* The launch: each function's argument map, the ptort_launch_desc, its wrapper, entries and
 * ptort_kernel; returns the ptort_kernel's name. */
static const char *put_launch(Emit *e, Arch arch)
{
    StrBuf *c = &e->code;
    const char *map[2], *fn = emit_unique_name(&e->global, "ptoasL_funcs", "", 0),
               *desc = emit_unique_name(&e->global, "ptoasL_desc", "", 0),
               *run = emit_unique_name(&e->global, "ptoasL_run", "", 0),
               *kargs = emit_unique_name(&e->global, "ptoasL_kargs", "", 0),
               *kern = emit_unique_name(&e->global, "ptoasL_kernel", "", 0);
    static const char *const spmd[] = {"", "PTORT_SPMD_BLOCK_IDX", "PTORT_SPMD_BLOCK_NUM", "PTORT_SPMD_SUBBLOCK_IDX",
                                       "PTORT_SPMD_SUBBLOCK_NUM"};
    sb_puts(c, "\n/* the launch (docs/launch.md): per block the cube function and two vector cores */\n");
    for (int k = 0; k < 2; k++) {
        uint32_t n = ir_entry(e->launch_f[k])->nargs;
        map[k] = emit_unique_name(&e->global, "ptoasL_map", "", 0);
        sb_printf(c, "static const int %s[] = {", map[k]);
        for (uint32_t i = 0; i < n; i++)
            if (e->lmap[k][i] < 0)
                sb_printf(c, "%s%s", i ? ", " : "", spmd[-e->lmap[k][i]]);
            else
                sb_printf(c, "%s%d", i ? ", " : "", e->lmap[k][i]);
        sb_puts(c, n ? "};\n" : "0};\n");
    }
    sb_printf(c, "\nstatic const ptort_launch_func %s[] = {\n", fn);
    for (int k = 0; k < 2; k++) {
        const Func *f = e->launch_f[k];
        StrBuf tag = {0};
        emit_func_tag(&tag, f->name);
        sb_printf(c, "    {.kind = %s, .name = ", k ? "PTORT_CORE_VECTOR" : "PTORT_CORE_CUBE");
        put_c_string(c, f->name.p, f->name.len);
        sb_printf(c, ", .run = ptoas_run%.*s, .nargs = %u, .map = %s},\n", (int)tag.len, tag.p, ir_entry(f)->nargs,
                  map[k]);
        sb_free(&tag);
    }
    sb_printf(c, "};\n\nstatic const ptort_launch_desc %s = {.nfuncs = 2, .funcs = %s, .syncall = %d};\n", desc, fn,
              e->launch_syncall);
    sb_printf(c, "\nstatic int %s(ptort_ctx *ctx, const ptort_kernel_value *a)\n{\n"
                 "    return (int)ptort_launch_run(ctx, &%s, a);\n}\n", run, desc);
    if (e->nlargs) {
        sb_printf(c, "\nstatic const ptort_kernel_arg %s[] = {\n", kargs);
        for (uint32_t i = 0; i < e->nlargs; i++) {
            const LaunchArg *a = &e->largs[i];
            sb_puts(c, "    {.name = ");
            put_c_string(c, a->name.p, a->name.len);
            sb_printf(c, ", .kind = %s, .arg = %u", a->kind == 1 ? "PTORT_KARG_PTR" : "PTORT_KARG_SCALAR", i);
            if (a->kind == 1)
                sb_printf(c, ", .dtype = %s", rt_dtype(a->dtype) ? rt_dtype(a->dtype) : "PTORT_NUM_DTYPES");
            else if (a->stype)
                sb_printf(c, ", .scalar_type = \"%s\"", a->stype);
            sb_printf(c, ", .flags = %s%s%s, .approximates = -1, .where = ",
                      a->flags & PTORT_KARG_WRITTEN ? "PTORT_KARG_WRITTEN" : "0",
                      a->flags & PTORT_KARG_RESULT ? " | PTORT_KARG_RESULT" : "", "");
            emit_where(e, c, a->where);
            sb_puts(c, "},\n");
        }
        sb_puts(c, "};\n");
    }
    sb_printf(c, "\nconst ptort_kernel %s = {\n", kern);
    put_kernel_head(e, e->launch_f[0], arch);
    sb_printf(c, "    .nargs = %u,\n    .nentries = %u,\n", e->nlargs, e->nlargs);
    if (e->nlargs)
        sb_printf(c, "    .entries = %s,\n", kargs);
    sb_printf(c, "    .run = %s,\n    .launch = 1,\n};\n", run);
    return kern;
}

/* One func.func: its kernel function, frame function, wrapper and tables into e->code
 * (nothing when an error was reported). */
static void emit_func(Emit *e, const Func *f, Arch arch)
{
    if (f->decl) {
        /* a declaration another module defines is that function (emit_callee_slot); others have
         * nothing to run */
        const Func *def = ir_func_index_definition(&e->funcs, f)->f;
        if (def && !ir_same_signature(f, def))
            emit_fail(e, f->name_span, "codegen expects the declaration of '@%.*s' to have the signature of its definition",
                      (int)f->name.len, f->name.p);
        else if (!def)
            emit_fail(e, f->name_span, "codegen does not support function declarations ('@%.*s' has no body)",
                      (int)f->name.len, f->name.p);
        return;
    }
    FuncText ft = {0};
    func_begin(e, f, &ft);
    func_params(e, f, &ft);
    emit_block(e, ir_entry(f));
    if (e->first_call && e->computed_at)
        emit_fail(e, e->first_call->name_span, "codegen does not support 'func.call' in a function that places a tile at "
             "a computed address (the callee's tiles go above the caller's, whose end must be known)");
    func_results(e, f, &ft);
    if (!e->errors)
        func_write(e, f, arch, &ft);
    for (int k = 0; k < 2 && !e->errors; k++)
        if (f == e->launch_f[k])
            launch_collect(e, k);

    e->decls.len = 0;
    sb_free(&ft.tag);
    sb_free(&ft.params);
    sb_free(&ft.call);
    sb_free(&ft.wrap);
    cnames_free(&e->local);
    free(e->buf_of);
    free(e->bufs);
    free(e->cexpr);
    free(e->csize);
    free(e->ptr_arg);
    free(e->uses);
    free(e->returned);
    free(e->rebound);
    free(e->quant_origin);
    free(e->entries);
    free(e->descs);
    e->descs = NULL;
    e->descs_cap = 0;
}

/* ---- modules ------------------------------------------------------------------------ */

static bool has_entry_attr(const Func *f) { return ir_attr_find(f->attrs, f->nattrs, "pto.entry") != NULL; }

const Func *emit_pick_func(const Module *m, const char *name, char *why, size_t size)
{
    const Func *only = NULL, *entry = NULL, *decl = NULL;
    unsigned count = 0, entries = 0;
    StrBuf names = {0};
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *f = m->mods[i]->funcs[j];
            if (name && str_eq(f->name, name, strlen(name)) && !f->decl) {
                sb_free(&names);
                return f;
            }
            if (name && str_eq(f->name, name, strlen(name)) && !decl)
                decl = f; /* a definition of the name wins, wherever it is */
            sb_printf(&names, "%s@%.*s", count ? ", " : "", (int)f->name.len, f->name.p);
            only = f;
            count++;
            if (has_entry_attr(f)) {
                entry = f;
                entries++;
            }
        }
    const Func *r = NULL;
    if (decl)
        r = decl;
    else if (name)
        snprintf(why, size, "no function '@%s' in the input (functions: %s)", name, count ? names.p : "none");
    else if (count == 0)
        snprintf(why, size, "the input has no function to run");
    else if (count == 1)
        r = only;
    else if (entries == 1)
        r = entry;
    else
        snprintf(why, size, "the input has several functions (%s) and %s; choose one with --func NAME", names.p,
                 entries ? "several are marked pto.entry" : "none is marked pto.entry");
    sb_free(&names);
    return r;
}

/* The C names every function of the file takes (its kernel, wrapper, entries and
 * ptort_kernel) and the helpers' names, in e->global. */
static void reserve_names(Emit *e)
{
    const Module *m = e->m;
    /* the kernels' own names first, so that descriptor names avoid them; sibling modules
     * may define the same symbol (each module is its own symbol table), one C program not */
    CNames defined = {0};
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *f = m->mods[i]->funcs[j];
            if (!f->decl) {
                StrBuf b = {0};
                emit_func_tag(&b, f->name);
                sb_putc(&b, '\0');
                if (cnames_has(&defined, b.p)) {
                    emit_fail(e, f->name_span, "codegen does not support two functions named '@%.*s' (in different modules)",
                              (int)f->name.len, f->name.p);
                    free(b.p);
                } else
                    cnames_add(&defined, b.p);
            }
            static const char *const kinds[] = {"ptoas_k", "ptoas_run", "ptoas_kargs", "ptoas_kernel"};
            for (int k = 0; k < 4; k++) {
                StrBuf b = {0};
                sb_puts(&b, kinds[k]);
                emit_func_tag(&b, f->name);
                sb_putc(&b, '\0');
                if (cnames_has(&e->global, b.p))
                    free(b.p);
                else
                    cnames_add(&e->global, b.p);
            }
        }
    cnames_free(&defined);
    for (const char *const *n = (const char *const[]){"ptoas_fail", "ptoas_bad_step", "ptoas_f32_bits",
                                                       "ptoas_base0", "ptoas_frame_align",
                                                       "ptoas_frame_grow", "main", NULL};
         *n; n++)
        cnames_add(&e->global, strcpy(xmalloc(strlen(*n) + 1), *n));
}

/* e->called, e->called_at and e->protos: the functions some func.call names. */
static void find_called(Emit *e)
{
    const Module *m = e->m;
    /* the functions some func.call names, and their prototypes */
    ir_func_index_init(&e->funcs, m);
    uint32_t nfuncs = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        nfuncs += m->mods[i]->nfuncs;
    e->called_at = xmalloc((nfuncs + 1) * sizeof *e->called_at);
    memset(e->called_at, 0xff, (nfuncs + 1) * sizeof *e->called_at);
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                const FuncSlot *g = op->kind == OP_CALL ? emit_callee_slot(e, m->mods[i], emit_callee_name(op)) : NULL;
                if (!g || !g->f || emit_called_at(e, g) >= 0)
                    continue;
                e->called = xrealloc(e->called, (e->ncalled + 1) * sizeof *e->called);
                e->called_at[g->all] = (int32_t)e->ncalled;
                e->called[e->ncalled++] = g->f;
                put_proto(e, g->f);
            }
}

/* The start of the C file: the comment, the includes and the helpers the functions use. */
static void put_prelude(const Emit *e, StrBuf *h)
{
    sb_printf(h, "/* Generated by ptoas %s from ", PTOAS_VERSION);
    put_c_string_in(h, e->src->name, strlen(e->src->name), true);
    sb_puts(h, " (--emit=c); do not edit.\n"
               " * Build: cc -std=c11 -O2 -I<prefix>/include FILE.c <prefix>/lib/libptort.a -lm\n"
               " * Define PTOAS_NO_MAIN to link the kernels into another program. */\n"
               "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include \"ptort.h\"\n");
    if (e->any_calls)
        sb_puts(h, "\n/* Reports a failed runtime call at its op and passes the status on. */\n"
                   "static int ptoas_fail(ptort_ctx *ctx, ptort_status st, const char *where)\n{\n");
    if (e->any_calls && e->launch_f[0]) /* the launch stopped the core: reported already */
        sb_puts(h, "    if (st == PTORT_E_STOPPED)\n        return (int)st;\n");
    if (e->any_calls)
        sb_puts(h, "    fprintf(stderr, \"%s: runtime error: %s\\n\", where, ptort_error(ctx));\n"
                   "    return (int)st;\n}\n");
    if (e->any_fbits)
        sb_puts(h, "\n/* The bits of an f32 scalar, for a tile op's scalar operand. */\n"
                   "static uint32_t ptoas_f32_bits(float f)\n{\n"
                   "    union {\n        float f;\n        uint32_t u;\n    } x = {.f = f};\n"
                   "    return x.u;\n}\n");
    if (e->protos.len) {
        sb_printf(h, "\n/* The called functions (a call may come before the definition). */\n%.*s",
                  (int)e->protos.len, e->protos.p);
        sb_puts(h, "\n/* Frames: a called function's tiles lie above its caller's, from the base it is given\n"
                   " * per loc (zeros for the function ptoas run runs), in 512-byte steps (every loc's\n"
                   " * alignment). */\n"
                   "static const int64_t ptoas_base0[PTORT_NUM_LOCS];\n\n"
                   "static inline int64_t ptoas_frame_align(int64_t a)\n{\n    return (a + 511) / 512 * 512;\n}\n\n"
                   "/* Raises FR[T's loc] to the end of T's bytes placed at ADDR above BASE. */\n"
                   "static inline void ptoas_frame_grow(int64_t *fr, const int64_t *base, const ptort_tile *t, int64_t addr)\n{\n"
                   "    int64_t end = ptoas_frame_align(base[t->loc] + addr + ptort_tile_bytes(t));\n"
                   "    if (end > fr[t->loc])\n        fr[t->loc] = end;\n}\n");
    }
    if (e->any_step)
        sb_puts(h, "\n/* An scf.for whose step is not positive: a runtime error at the op. */\n"
                   "static int ptoas_bad_step(const char *where, int64_t step)\n{\n"
                   "    fprintf(stderr, \"%s: runtime error: 'scf.for' step must be positive, but got %lld\\n\", where,\n"
                   "            (long long)step);\n"
                   "    return (int)PTORT_E_ARG;\n}\n");
}

/* main() running MAIN_F (or the launch's kernel LAUNCH), or the comment saying why there is
 * none. */
static void put_main(FILE *out, const Func *main_f, const char *launch, const char *why)
{
    if (launch) {
        fprintf(out, "\n#ifndef PTOAS_NO_MAIN\nint main(int argc, char **argv)\n{\n"
                     "    return ptort_run_main(argc, argv, &%s);\n}\n#endif\n", launch);
    } else if (main_f) {
        StrBuf t = {0};
        emit_func_tag(&t, main_f->name);
        fprintf(out,
                "\n#ifndef PTOAS_NO_MAIN\nint main(int argc, char **argv)\n{\n"
                "    return ptort_run_main(argc, argv, &ptoas_kernel%.*s);\n}\n#endif\n",
                (int)t.len, t.p);
        sb_free(&t);
    } else {
        StrBuf w = {0}; /* the reason names functions */
        put_comment_text(&w, why, strlen(why));
        fprintf(out, "\n/* no main(): %.*s */\n", (int)w.len, w.p);
        sb_free(&w);
    }
}

bool emit_c(FILE *out, Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg, bool need_main)
{
    Emit e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.src = src;
    e.d = d;
    e.cfg = cfg;
    char why[1024] = "";
    launch_pick(&e);
    const Func *main_f = e.launch_f[0] ? NULL : emit_pick_func(m, cfg->func, why, sizeof why);
    if (!main_f && !e.launch_f[0] && (need_main || cfg->func)) {
        diag_flush(d); /* the message goes after the diagnostics already reported */
        diag_tool_error("%s", why);
        return false;
    }
    reserve_names(&e);
    e.main_f = main_f;
    e.need_main = need_main;
    find_called(&e);
    emit_call_effects(&e);

    Arch launch_arch = ARCH_A3;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        Arch arch = module_arch(mod->implicit ? NULL : mod, cfg);
        e.mod = mod;
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            emit_func(&e, mod->funcs[j], arch);
            if (mod->funcs[j] == e.launch_f[0])
                launch_arch = arch;
        }
    }
    const char *launch = e.launch_f[0] && !e.errors ? put_launch(&e, launch_arch) : NULL;

    bool ok = !e.errors;
    if (ok) {
        StrBuf h = {0};
        put_prelude(&e, &h);
        fwrite(h.p, 1, h.len, out);
        if (e.code.len)
            fwrite(e.code.p, 1, e.code.len, out);
        sb_free(&h);
        put_main(out, main_f, launch, why);
    }
    sb_free(&e.decls);
    sb_free(&e.code);
    sb_free(&e.body);
    sb_free(&e.hoist);
    sb_free(&e.protos);
    for (uint32_t i = 0; i < e.ncalled; i++)
        free(e.eff[i]);
    free(e.eff);
    free(e.called);
    free(e.called_at);
    ir_func_index_free(&e.funcs);
    free(e.rebind_desc);
    free(e.rebind_addr);
    cnames_free(&e.global);
    free(e.largs);
    free(e.lmap[0]);
    free(e.lmap[1]);
    return ok;
}
