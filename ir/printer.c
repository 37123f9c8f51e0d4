/* printer.c - prints a Module in canonical PTO form (docs/language.md section 6:
 * compact tile types, names kept, quant_type first, MLIR's attribute
 * spellings) or in MLIR's generic form (`"pto.x"(...) {...} : (...) -> ...`),
 * which mlir-opt --allow-unregistered-dialect accepts. Output is built in a
 * buffer and written in large pieces. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arith.h"
#include "ir.h"
#include "pipe.h"

/* --mlir-print-debuginfo: the distinct locations, numbered as mlir-opt numbers
 * its #loc aliases (in the order the printer meets the ops, an op before its
 * regions). top: first met at a block argument, whose location is printed
 * inline and whose alias mlir-opt defines above the module. */
typedef struct LocAliasRec {
    size_t text;             /* offset of its text in LocTab.texts */
    uint32_t len;
    bool top;
} LocAliasRec;

typedef struct LocTab {
    StrBuf texts;
    LocAliasRec *v;
    uint32_t n, cap;
    uint32_t *slots;         /* open addressing: alias index + 1, 0 empty */
    uint32_t nslots;
} LocTab;

typedef struct Printer {
    StrBuf b;
    FILE *out;               /* NULL: the numbering pass, which writes nothing */
    const Func *f;
    bool generic;
    const Module *m;
    LocTab *locs;            /* --mlir-print-debuginfo, else NULL */
    StrBuf tmp;              /* one location's text */
} Printer;

static void flush_if_big(Printer *pr)
{
    if (pr->b.len >= (1u << 16)) {
        if (pr->out)
            fwrite(pr->b.p, 1, pr->b.len, pr->out);
        pr->b.len = 0;
    }
}

static void put_str(StrBuf *b, Str s) { sb_putn(b, s.p, s.len); }

static void put_value(Printer *pr, ValueId v)
{
    sb_putc(&pr->b, '%');
    put_str(&pr->b, pr->f->values[v].name);
}

static void put_type(Printer *pr, const Type *t) { type_print(&pr->b, t); }

/* @name, or @"name" when the name is no bare identifier (MLIR's [A-Za-z_][A-Za-z0-9_$.]*). */
static void put_symbol(StrBuf *b, Str s)
{
    bool bare = s.len > 0 && (((s.p[0] | 0x20) >= 'a' && (s.p[0] | 0x20) <= 'z') || s.p[0] == '_');
    for (size_t i = 1; bare && i < s.len; i++) {
        char c = s.p[i];
        bare = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
    }
    sb_puts(b, bare ? "@" : "@\"");
    put_str(b, s);
    if (!bare)
        sb_putc(b, '"');
}

/* ---- attributes ---------------------------------------------------------------- */
static bool float_roundtrips(const char *s, double d, DType t)
{
    if (t == DT_F32) {
        float x = strtof(s, NULL), y = (float)d;
        return memcmp(&x, &y, sizeof x) == 0;
    }
    double x = strtod(s, NULL);
    return memcmp(&x, &d, sizeof x) == 0;
}

/* MLIR prints a float as %.6e when that reads back exactly, else with enough
 * digits to be exact; NaN and infinities as their bit pattern in hex. */
static void put_float(StrBuf *b, const AttrValue *v)
{
    double d = v->u.f.d;
    if (v->u.f.bits && (v->type != DT_F32 && v->type != DT_F64)) {
        sb_printf(b, "0x%llX", (unsigned long long)v->u.f.raw);
        return;
    }
    if (isnan(d) || isinf(d)) {
        if (v->u.f.bits)
            sb_printf(b, "0x%llX", (unsigned long long)v->u.f.raw);
        else if (v->type == DT_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            sb_printf(b, "0x%X", u);
        } else {
            uint64_t u;
            memcpy(&u, &d, 8);
            sb_printf(b, "0x%llX", (unsigned long long)u);
        }
        return;
    }
    char s[64];
    snprintf(s, sizeof s, "%.6e", d);
    if (!float_roundtrips(s, d, v->type))
        snprintf(s, sizeof s, v->type == DT_F32 ? "%.8e" : "%.16e", d);
    sb_puts(b, s);
}

/* MLIR prints a signless integer as signed in its width (255 : i8 is -1 : i8). */
static long long signless_value(int64_t x, DType t)
{
    unsigned w = dtype_kind(t) == DK_INT ? dtype_int_width(t) : 64;
    if (w == 0 || w >= 64)
        return (long long)x;
    uint64_t m = (uint64_t)1 << (w - 1);
    uint64_t u = (uint64_t)x & ((m << 1) - 1);
    return (long long)(int64_t)(u ^ m) - (long long)m;
}

/* A string as llvm::printEscapedString writes it: the source text between the
 * quotes is decoded (\" \\ \n \t \XX) and every byte that is not printable,
 * or is '"', written as \XX. */
static void put_escaped(StrBuf *b, Str s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < s.len;) {
        unsigned char c = str_unescape_next(s.p, s.len, &i);
        if (c == '\\') {
            sb_puts(b, "\\\\");
        } else if (c >= 0x20 && c < 0x7F && c != '"') {
            sb_putc(b, (char)c);
        } else {
            sb_putc(b, '\\');
            sb_putc(b, hex[c >> 4]);
            sb_putc(b, hex[c & 15]);
        }
    }
}

/* ---- locations (--mlir-print-debuginfo) ------------------------------------------------ */

/* bytes as an MLIR string literal's contents: '"', '\\' and unprintable bytes as \XX */
static void put_raw_escaped(StrBuf *b, const char *p, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            sb_putc(b, (char)c);
        } else {
            sb_putc(b, '\\');
            sb_putc(b, hex[c >> 4]);
            sb_putc(b, hex[c & 15]);
        }
    }
}

const LocRecord *ir_written_loc(const Module *m, uint32_t at)
{
    uint32_t lo = 0, hi = m->nlocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->locs[mid].at < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nlocs && m->locs[lo].at == at ? &m->locs[lo] : NULL;
}

/* A written location's text with each #alias replaced by what it stands for
 * (strings copied as they are), so that the output defines only its own
 * #loc aliases. depth bounds alias chains (a cycle is the parser's error). */
static void put_loc_text(const Module *m, StrBuf *b, const char *p, size_t n, int depth)
{
    for (size_t i = 0; i < n;) {
        if (p[i] == '"') { /* a string: to its closing quote */
            size_t j = i + 1;
            while (j < n && p[j] != '"')
                j += p[j] == '\\' ? 2 : 1;
            j = j < n ? j + 1 : n;
            sb_putn(b, p + i, j - i);
            i = j;
            continue;
        }
        if (p[i] != '#') {
            sb_putc(b, p[i++]);
            continue;
        }
        size_t j = i + 1;
        while (j < n && (((p[j] | 0x20) >= 'a' && (p[j] | 0x20) <= 'z') || (p[j] >= '0' && p[j] <= '9') ||
                         p[j] == '_' || p[j] == '$' || p[j] == '.' || p[j] == '-'))
            j++;
        const LocRecord *def = NULL;
        for (uint32_t k = 0; k < m->nloc_aliases && !def; k++) {
            Span key = m->loc_aliases[k].key;
            if (key.end - key.begin == j - i && memcmp(m->src->text + key.begin, p + i, j - i) == 0)
                def = &m->loc_aliases[k];
        }
        if (def && depth < 16)
            put_loc_text(m, b, m->src->text + def->loc.begin, def->loc.end - def->loc.begin, depth + 1);
        else
            sb_putn(b, p + i, j - i);
        i = j;
    }
}

/* The location of what starts at offset at: the one written after it, else
 * "FILE":LINE:COL of at (UINT32_MAX: "FILE":0:0, a module the input left
 * implicit, as mlir-opt says). */
static void loc_text(Printer *pr, uint32_t at, StrBuf *b)
{
    const Module *m = pr->m;
    const LocRecord *r = at == UINT32_MAX ? NULL : ir_written_loc(m, at);
    if (r) {
        put_loc_text(m, b, m->src->text + r->loc.begin, r->loc.end - r->loc.begin, 0);
        return;
    }
    uint32_t line = 0, col = 0;
    if (at != UINT32_MAX) {
        source_line_col(m->src, at, &line, &col);
        line++;
        col++;
    }
    sb_putc(b, '"');
    put_raw_escaped(b, m->src->name, strlen(m->src->name));
    sb_printf(b, "\":%u:%u", line, col);
}

/* The alias number of text (added, in the numbering pass, when new). */
static uint32_t loc_number(Printer *pr, const char *text, size_t len, bool top)
{
    LocTab *t = pr->locs;
    if (2 * (t->n + 1) > t->nslots) {
        uint32_t ns = t->nslots ? 2 * t->nslots : 64;
        uint32_t *slots = xcalloc(ns, sizeof *slots);
        for (uint32_t i = 0; i < t->n; i++) {
            uint32_t h = str_hash(t->texts.p + t->v[i].text, t->v[i].len) & (ns - 1);
            while (slots[h])
                h = (h + 1) & (ns - 1);
            slots[h] = i + 1;
        }
        free(t->slots);
        t->slots = slots;
        t->nslots = ns;
    }
    uint32_t h = str_hash(text, len) & (t->nslots - 1);
    for (; t->slots[h]; h = (h + 1) & (t->nslots - 1)) {
        const LocAliasRec *a = &t->v[t->slots[h] - 1];
        if (a->len == len && memcmp(t->texts.p + a->text, text, len) == 0)
            return t->slots[h] - 1;
    }
    xgrow32((void **)&t->v, &t->cap, (size_t)t->n + 1, sizeof *t->v);
    t->v[t->n] = (LocAliasRec){t->texts.len, (uint32_t)len, top};
    sb_putn(&t->texts, text, len);
    t->slots[h] = t->n + 1;
    return t->n++;
}

/* Numbers the location of what starts at at (an op, a func.func, a module),
 * where the printer meets it; UINT32_MAX without --mlir-print-debuginfo. */
static uint32_t loc_ref(Printer *pr, uint32_t at)
{
    if (!pr->locs)
        return UINT32_MAX;
    pr->tmp.len = 0;
    loc_text(pr, at, &pr->tmp);
    return loc_number(pr, pr->tmp.p, pr->tmp.len, false);
}

/* " loc(#locN)" after what loc_ref numbered. */
static void loc_put(Printer *pr, uint32_t n)
{
    if (n == UINT32_MAX)
        return;
    if (n)
        sb_printf(&pr->b, " loc(#loc%u)", n);
    else
        sb_puts(&pr->b, " loc(#loc)");
}

/* A block argument's " loc(...)", inline as mlir-opt prints it (numbered all the same). */
static void loc_put_inline(Printer *pr, uint32_t at)
{
    if (!pr->locs)
        return;
    pr->tmp.len = 0;
    loc_text(pr, at, &pr->tmp);
    loc_number(pr, pr->tmp.p, pr->tmp.len, true);
    sb_puts(&pr->b, " loc(");
    sb_putn(&pr->b, pr->tmp.p, pr->tmp.len);
    sb_putc(&pr->b, ')');
}

/* The alias definitions, `#locN = loc(...)`, of the top ones or the others. */
static void put_loc_aliases(const LocTab *t, StrBuf *b, bool top)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].top == top) {
            if (i)
                sb_printf(b, "#loc%u = loc(", i);
            else
                sb_puts(b, "#loc = loc(");
            sb_putn(b, t->texts.p + t->v[i].text, t->v[i].len);
            sb_puts(b, ")\n");
        }
}

static void put_attr_value(StrBuf *b, const AttrValue *v, bool in_array);

/* An array attribute, without recursion: arrays nest as deep as the parser allows
 * (about 10,000), which a recursive printer turned into more than 1 MB of stack. */
static void put_attr_array(StrBuf *b, const AttrValue *v)
{
    struct Level {
        const AttrValue *a;
        uint32_t next;
    } *st = NULL;
    size_t n = 0, cap = 0;
    xgrow((void **)&st, &cap, n + 1, sizeof *st);
    st[n++] = (struct Level){v, 0};
    sb_putc(b, '[');
    while (n) {
        struct Level *top = &st[n - 1];
        if (top->next == top->a->u.arr.n) {
            sb_putc(b, ']');
            n--;
            continue;
        }
        const AttrValue *x = top->a->u.arr.items[top->next];
        if (top->next++)
            sb_puts(b, ", ");
        if (x->kind != AV_ARRAY) {
            put_attr_value(b, x, true);
            continue;
        }
        sb_putc(b, '[');
        xgrow((void **)&st, &cap, n + 1, sizeof *st);
        st[n++] = (struct Level){x, 0};
    }
    free(st);
}

/* in_array: MLIR elides the default types i64 and f64 of array elements;
 * elsewhere an untyped integer prints as i64 and an untyped float as f64. */
static void put_attr_value(StrBuf *b, const AttrValue *v, bool in_array)
{
    DType t = v->type;
    switch (v->kind) {
    case AV_UNIT:
        sb_puts(b, "unit");
        return;
    case AV_BOOL:
        sb_puts(b, v->u.b ? "true" : "false");
        return;
    case AV_INT:
        sb_put_int(b, signless_value(v->u.i, t));
        if (t == DT_NONE)
            t = DT_I64;
        break;
    case AV_FLOAT:
        put_float(b, v);
        if (t == DT_NONE)
            t = DT_F64;
        break;
    case AV_STRING:
        sb_putc(b, '"');
        put_escaped(b, v->u.s);
        sb_putc(b, '"');
        return;
    case AV_ARRAY:
        put_attr_array(b, v);
        return;
    case AV_DENSE:
        sb_printf(b, "array<%s", dtype_name(v->type));
        for (uint32_t i = 0; i < v->u.dense.n; i++)
            sb_printf(b, "%s%lld", i ? ", " : ": ",
                      v->type == DT_I1 ? (long long)(v->u.dense.items[i] & 1) /* as written: 1, 0 */
                                       : signless_value(v->u.dense.items[i], v->type));
        sb_putc(b, '>');
        return;
    case AV_ENUM: {
        const EnumInfo *e = &enum_info[v->u.e.kind]; /* #pto.KIND<v> or #pto<KIND v> */
        sb_puts(b, e->dotted ? "#pto." : "#pto<");
        sb_puts(b, e->kind);
        sb_putc(b, e->dotted ? '<' : ' ');
        sb_puts(b, e->names[v->u.e.value]);
        sb_putc(b, '>');
        return;
    }
    case AV_TYPE:
        type_print(b, v->u.ty);
        return;
    case AV_OPAQUE:
        put_str(b, v->u.s);
        return;
    case AV_FLAGS:
        sb_puts(b, v->u.e.kind ? "#arith.fastmath<" : "#arith.overflow<");
        arith_flags_print(b, v->u.e.kind, (unsigned)v->u.e.value);
        sb_putc(b, '>');
        return;
    case AV_SYMBOL:
        put_symbol(b, v->u.s);
        return;
    case AV_FUNCTYPE:
        sb_putc(b, '(');
        for (uint32_t i = 0; i < v->u.fn.nparams; i++) {
            if (i)
                sb_puts(b, ", ");
            type_print(b, v->u.fn.params[i]);
        }
        sb_puts(b, ") -> ");
        if (v->u.fn.nresults != 1)
            sb_putc(b, '(');
        for (uint32_t i = 0; i < v->u.fn.nresults; i++) {
            if (i)
                sb_puts(b, ", ");
            type_print(b, v->u.fn.results[i]);
        }
        if (v->u.fn.nresults != 1)
            sb_putc(b, ')');
        return;
    }
    if (!(in_array && (t == DT_I64 || t == DT_F64))) {
        sb_puts(b, " : ");
        sb_puts(b, dtype_name(t));
    }
}

void print_attr_value(StrBuf *b, const AttrValue *v) { put_attr_value(b, v, false); }

/* A bare identifier key prints bare, any other key as an escaped string (MLIR). */
static bool is_bare_key(Str k)
{
    for (uint32_t i = 0; i < k.len; i++) {
        char c = k.p[i];
        bool letter = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
        bool other = (c >= '0' && c <= '9') || c == '$' || c == '.';
        if (!letter && (i == 0 || !other))
            return false;
    }
    return k.len > 0;
}

static void put_attr(StrBuf *b, const Attr *a)
{
    if (a->quoted && !is_bare_key(a->key)) {
        sb_putc(b, '"');
        put_escaped(b, a->key);
        sb_putc(b, '"');
    } else {
        put_str(b, a->key);
    }
    if (a->val->kind != AV_UNIT) {
        sb_puts(b, " = ");
        print_attr_value(b, a->val);
    }
}

/* ` {quant_type = ..., rest in input order}`; prefix is printed first when
 * non-NULL (generic form: segment sizes, addr, value). */
static void put_attr_dict(Printer *pr, const Attr *attrs, uint32_t n, const char *prefix, bool leading_space)
{
    if (!n && !prefix)
        return;
    if (leading_space)
        sb_putc(&pr->b, ' ');
    sb_putc(&pr->b, '{');
    bool first = true;
    if (prefix) {
        sb_puts(&pr->b, prefix);
        first = false;
    }
    const Attr *qt = ir_attr_find(attrs, n, "quant_type");
    if (qt) {
        if (!first)
            sb_puts(&pr->b, ", ");
        put_attr(&pr->b, qt);
        first = false;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (&attrs[i] == qt)
            continue;
        if (!first)
            sb_puts(&pr->b, ", ");
        put_attr(&pr->b, &attrs[i]);
        first = false;
    }
    sb_putc(&pr->b, '}');
}

/* ---- ops: canonical form ------------------------------------------------------------ */
static void put_values(Printer *pr, const ValueId *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            sb_puts(&pr->b, ", ");
        put_value(pr, v[i]);
    }
}

static void put_value_types(Printer *pr, const ValueId *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            sb_puts(&pr->b, ", ");
        put_type(pr, pr->f->values[v[i]].type);
    }
}

static void put_result_types(Printer *pr, const Op *op)
{
    if (op->nres == 1) {
        put_value_types(pr, op->res, 1);
        return;
    }
    sb_putc(&pr->b, '(');
    put_value_types(pr, op->res, op->nres);
    sb_putc(&pr->b, ')');
}

static const char *printed_name(const Op *op)
{
    return op_info(op->kind)->name;
}

/* False for an op read in generic form that its custom syntax cannot spell: a
 * pto.subview without a `sizes` array, or with one valid operand of two. It
 * prints in generic form, so that what is printed reads back the same. */
static bool scalar_form_fits(const Printer *pr, const Op *op);

static const Type *vtype(const Printer *pr, ValueId v);

static bool custom_form_fits(const Printer *pr, const Op *op)
{
    if (op->kind == OP_UNREGISTERED)
        return false;
    if (op_info(op->kind)->syntax >= SYN_ARITH)
        return scalar_form_fits(pr, op);
    if (op->kind == OP_SCF_WHILE) { /* the custom form names the 'before' arguments in its list */
        const Block *before = op->nregions == 2 ? op->regions[0].first : NULL;
        if (!before || before->nargs != op->nopnds)
            return false;
        for (uint32_t i = 0; i < op->nopnds; i++)
            if (pr->f->values[before->args[i]].type != pr->f->values[op->opnds[i]].type)
                return false;
        return true;
    }
    if (op->kind == OP_PRINT) { /* the custom form needs the format string and one operand */
        const Attr *fmt = ir_attr_find(op->attrs, op->nattrs, "format");
        return op->nopnds == 1 && fmt && fmt->val->kind == AV_STRING;
    }
    if (op->kind == OP_TPRINT)
        return op->nopnds >= 1;
    if (op_info(op->kind)->syntax == SYN_COMM)
        return op->nopnds == 2 && op->nres == (op->kind == OP_COMM_TTEST);
    if (op->kind == OP_CMO_CACHEINVALID) { /* the custom form needs the space attribute, of its kind */
        const Attr *sp = ir_attr_find(op->attrs, op->nattrs, "space");
        return op->nres == 0 && op->nopnds <= 1 && sp && sp->val->kind == AV_ENUM &&
               sp->val->u.e.kind == EK_ADDRESS_SPACE;
    }
    if (op_info(op->kind)->syntax == SYN_LOCAL) { /* the custom form: a local array, then index operands */
        bool ev = op->kind == OP_DECLARE_EVENTID_ARRAY || op->kind == OP_EVENTID_ARRAY_GET ||
                  op->kind == OP_EVENTID_ARRAY_SET;
        TypeKind ak = ev ? TY_EVENTID_ARRAY : TY_LOCAL_ARRAY;
        if (op->kind == OP_DECLARE_LOCAL_ARRAY || op->kind == OP_DECLARE_EVENTID_ARRAY)
            return op->nres == 1 && op->nopnds == 0 && vtype(pr, op->res[0]) && vtype(pr, op->res[0])->kind == ak;
        bool set = op->kind == OP_LOCAL_ARRAY_SET || op->kind == OP_EVENTID_ARRAY_SET;
        uint32_t nidx = op_role(op->kind, ROLE_INDICES) >= 0 ? op->seg[1] : 1;
        if (op->nopnds < 1 || !vtype(pr, op->opnds[0]) || vtype(pr, op->opnds[0])->kind != ak ||
            op->nres != !set || op->nopnds != 1 + nidx + set)
            return false;
        if (ev) { /* the custom form types the result and the value as index */
            const Type *t = vtype(pr, set ? op->opnds[2] : op->res[0]);
            if (!t || t->kind != TY_SCALAR || t->dtype != DT_INDEX)
                return false;
        }
        for (uint32_t i = 0; i < nidx; i++) {
            const Type *t = vtype(pr, op->opnds[1 + i]);
            if (!t || t->kind != TY_SCALAR || t->dtype != DT_INDEX)
                return false;
        }
        return true;
    }
    if (op_info(op->kind)->syntax == SYN_CAST) /* the custom form types a second operand as index */
        return op->nres == 1 && op->nopnds >= 1 &&
               (op->nopnds == 1 || (vtype(pr, op->opnds[1]) && vtype(pr, op->opnds[1])->kind == TY_SCALAR &&
                                    vtype(pr, op->opnds[1])->dtype == DT_INDEX));
    if (op->kind == OP_SCF_EXECUTE_REGION)
        return op->nregions == 1 && op->regions[0].first && !op->regions[0].first->nargs;
    if (op->kind == OP_ALLOC_TILE) { /* the custom form types addr as i64, the valid sizes as index */
        ValueId v[MAX_ROLES];
        ir_op_roles(op, v);
        for (int r = 0; r < 3; r++) {
            const Type *t = v[r] == NO_VALUE ? NULL : vtype(pr, v[r]);
            if (t && (t->kind != TY_SCALAR || t->dtype != (r == 0 ? DT_I64 : DT_INDEX)))
                return false;
        }
        return true;
    }
    if (op->kind != OP_SUBVIEW)
        return true;
    const Attr *sizes = ir_attr_find(op->attrs, op->nattrs, "sizes");
    return sizes && sizes->val->kind == AV_ARRAY && sizes->val->u.arr.n > 0 && op->seg[2] == op->seg[3];
}

/* ---- the scalar ops (arith.h) ----------------------------------------------------------- */
static const Type *vtype(const Printer *pr, ValueId v) { return pr->f->values[v].type; }

/* An arith op's custom form gives one type to its operands and result (cmpi:
 * to its operands; select: to its values) and spells its properties only when
 * they are of their kinds: else the op prints in generic form. */
static bool scalar_form_fits(const Printer *pr, const Op *op)
{
    ArithClass c = arith_class(op->kind);
    if (op->nres != (op->kind == OP_STORE_SCALAR || op->kind == OP_CALL ? op->nres : 1u))
        return false;
    for (uint32_t i = 0; i < op->nattrs; i++) {
        const Attr *a = &op->attrs[i];
        const AttrValue *v = a->val;
        unsigned props = arith_props(op->kind);
        if ((props & AP_OVERFLOW) && STR_EQ_LIT(a->key, ARITH_OVERFLOW_KEY) && (v->kind != AV_FLAGS || v->u.e.kind != 0))
            return false;
        if ((props & AP_FASTMATH) && STR_EQ_LIT(a->key, ARITH_FASTMATH_KEY) && (v->kind != AV_FLAGS || v->u.e.kind != 1))
            return false;
    }
    switch (c) {
    case AC_INT_BIN:
    case AC_FLOAT_BIN:
    case AC_FLOAT_UN:
    case AC_CMPI:
        for (uint32_t i = 1; i < op->nopnds; i++)
            if (vtype(pr, op->opnds[i]) != vtype(pr, op->opnds[0]))
                return false;
        if (c == AC_CMPI) {
            const Attr *pa = ir_attr_find(op->attrs, op->nattrs, ARITH_PREDICATE_KEY);
            const Type *rt = vtype(pr, op->res[0]);
            return pa && pa->val->kind == AV_INT && pa->val->u.i >= 0 && pa->val->u.i < CMPI_COUNT &&
                   pa->val->type == DT_I64 && rt && rt->kind == TY_SCALAR && rt->dtype == DT_I1;
        }
        return vtype(pr, op->res[0]) == vtype(pr, op->opnds[0]);
    case AC_SELECT:
        return vtype(pr, op->opnds[1]) == vtype(pr, op->opnds[2]) && vtype(pr, op->res[0]) == vtype(pr, op->opnds[1]);
    case AC_CAST:
        return true;
    case AC_NONE:
        break;
    }
    if (op->kind == OP_CALL) {
        const Attr *ca = ir_attr_find(op->attrs, op->nattrs, "callee");
        return ca && ca->val->kind == AV_SYMBOL;
    }
    return true;
}

/* The attributes but the properties the custom form spells (caller frees). */
static Attr *scalar_rest_attrs(const Op *op, uint32_t *n)
{
    Attr *rest = xmalloc((op->nattrs ? op->nattrs : 1) * sizeof *rest);
    *n = 0;
    unsigned props = arith_props(op->kind);
    for (uint32_t i = 0; i < op->nattrs; i++) {
        Str k = op->attrs[i].key;
        if (((props & AP_OVERFLOW) && STR_EQ_LIT(k, ARITH_OVERFLOW_KEY)) ||
            ((props & AP_FASTMATH) && STR_EQ_LIT(k, ARITH_FASTMATH_KEY)) ||
            ((props & AP_PREDICATE) && STR_EQ_LIT(k, ARITH_PREDICATE_KEY)) ||
            (op->kind == OP_CALL && STR_EQ_LIT(k, "callee")))
            continue;
        rest[(*n)++] = op->attrs[i];
    }
    return rest;
}

static void put_attr_dict(Printer *pr, const Attr *attrs, uint32_t n, const char *prefix, bool leading_space);

/* MLIR's custom forms: `arith.addi %a, %b overflow<nsw> : T`, `arith.cmpi slt, %a, %b : T`,
 * `arith.select %c, %a, %b : T`, `arith.index_cast %a : T1 to T2`, `call @g(%a) : (T) -> R`,
 * `pto.load_scalar %p[%i] : P -> T`, `pto.store_scalar %v, %p[%i] : P, T`. */
static void print_scalar(Printer *pr, const Op *op)
{
    StrBuf *b = &pr->b;
    ArithClass c = arith_class(op->kind);
    uint32_t nrest;
    Attr *rest = scalar_rest_attrs(op, &nrest);
    sb_putc(b, ' ');
    if (op->kind == OP_CALL) {
        print_attr_value(b, ir_attr_find(op->attrs, op->nattrs, "callee")->val);
        sb_putc(b, '(');
        put_values(pr, op->opnds, op->nopnds);
        sb_putc(b, ')');
        put_attr_dict(pr, rest, nrest, NULL, true);
        sb_puts(b, " : (");
        put_value_types(pr, op->opnds, op->nopnds);
        sb_puts(b, ") -> ");
        if (op->nres == 1)
            put_result_types(pr, op);
        else {
            sb_putc(b, '(');
            put_value_types(pr, op->res, op->nres);
            sb_putc(b, ')');
        }
    } else if (op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR) {
        if (op->kind == OP_STORE_SCALAR) {
            put_value(pr, op->opnds[2]);
            sb_puts(b, ", ");
        }
        put_value(pr, op->opnds[0]);
        sb_putc(b, '[');
        put_value(pr, op->opnds[1]);
        sb_putc(b, ']');
        put_attr_dict(pr, rest, nrest, NULL, true);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, 1);
        sb_puts(b, op->kind == OP_LOAD_SCALAR ? " -> " : ", ");
        if (op->kind == OP_LOAD_SCALAR)
            put_result_types(pr, op);
        else
            put_value_types(pr, op->opnds + 2, 1);
    } else {
        if (c == AC_CMPI) {
            sb_puts(b, cmpi_names[ir_attr_find(op->attrs, op->nattrs, ARITH_PREDICATE_KEY)->val->u.i]);
            sb_puts(b, ", ");
        }
        put_values(pr, op->opnds, op->nopnds);
        for (uint32_t i = 0; i < op->nattrs; i++)
            if (op->attrs[i].val->kind == AV_FLAGS && op->attrs[i].val->u.e.value != 0 &&
                (STR_EQ_LIT(op->attrs[i].key, ARITH_OVERFLOW_KEY) || STR_EQ_LIT(op->attrs[i].key, ARITH_FASTMATH_KEY))) {
                sb_puts(b, op->attrs[i].val->u.e.kind ? " fastmath<" : " overflow<");
                arith_flags_print(b, op->attrs[i].val->u.e.kind, (unsigned)op->attrs[i].val->u.e.value);
                sb_putc(b, '>');
            }
        put_attr_dict(pr, rest, nrest, NULL, true);
        sb_puts(b, " : ");
        const Type *ct = vtype(pr, op->opnds[0]);
        if (c == AC_SELECT && !(ct && ct->kind == TY_SCALAR && ct->dtype == DT_I1)) {
            put_value_types(pr, op->opnds, 1);
            sb_puts(b, ", ");
        }
        put_value_types(pr, op->opnds + (c == AC_SELECT ? 1 : 0), 1);
        if (c == AC_CAST) {
            sb_puts(b, " to ");
            put_result_types(pr, op);
        }
    }
    free(rest);
}

/* The custom forms of the tile views (PTOAS's): treshape `%t : T1 -> T2`, subview
 * `%t[%i, %j] sizes [R, C] (valid [%vr, %vc])? {attrs} : T1 -> T2`, set_validshape
 * `%t, %vr, %vc : T`. */
static void print_tile_view(Printer *pr, const Op *op)
{
    StrBuf *b = &pr->b;
    sb_putc(b, ' ');
    put_value(pr, op->opnds[0]);
    if (op->kind == OP_SET_VALIDSHAPE) {
        for (uint32_t i = 1; i < op->nopnds; i++) {
            sb_puts(b, ", ");
            put_value(pr, op->opnds[i]);
        }
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, 1);
        return;
    }
    Attr *rest = NULL; /* the attributes but sizes, which the syntax spells */
    uint32_t nrest = 0;
    if (op->kind == OP_SUBVIEW) {
        sb_putc(b, '[');
        put_values(pr, op->opnds + 1, op->seg[1]);
        sb_puts(b, "] sizes ");
        const Attr *sizes = ir_attr_find(op->attrs, op->nattrs, "sizes");
        print_attr_value(b, sizes->val);
        if (op->seg[2]) {
            uint32_t at = 1 + op->seg[1];
            sb_puts(b, " valid [");
            put_values(pr, op->opnds + at, 2);
            sb_putc(b, ']');
        }
        rest = xmalloc((op->nattrs ? op->nattrs : 1) * sizeof *rest);
        for (uint32_t i = 0; i < op->nattrs; i++)
            if (&op->attrs[i] != sizes)
                rest[nrest++] = op->attrs[i];
    }
    put_attr_dict(pr, rest ? rest : op->attrs, rest ? nrest : op->nattrs, NULL, true);
    free(rest);
    sb_puts(b, " : ");
    put_value_types(pr, op->opnds, 1);
    sb_puts(b, " -> ");
    put_result_types(pr, op);
}

static void print_blocks(Printer *pr, const Region *r, int indent, bool labels, bool terminators);

/* ` {` the region `}` of a custom form: ops two columns right of the op. */
static void put_custom_region(Printer *pr, const Region *r, int indent, bool terminators)
{
    sb_puts(&pr->b, " {\n");
    print_blocks(pr, r, indent + 2, false, terminators);
    sb_printf(&pr->b, "%*s}", indent, "");
}

/* scf.for, scf.if, scf.while and scf.execute_region in MLIR's custom form; the
 * terminator of scf.for and scf.if is shown only when it carries values (MLIR's
 * printer does the same), the others' always (theirs is not implicit). */
static void print_region_op(Printer *pr, const Op *op, int indent)
{
    StrBuf *b = &pr->b;
    if (op->kind == OP_SCF_FOR) {
        const Block *body = op->regions[0].first;
        sb_putc(b, ' ');
        put_value(pr, body->args[0]);
        sb_puts(b, " = ");
        put_value(pr, op->opnds[0]);
        sb_puts(b, " to ");
        put_value(pr, op->opnds[1]);
        sb_puts(b, " step ");
        put_value(pr, op->opnds[2]);
        if (op->seg[3]) {
            sb_puts(b, " iter_args(");
            for (uint32_t i = 0; i < op->seg[3]; i++) {
                sb_puts(b, i ? ", " : "");
                put_value(pr, body->args[1 + i]);
                sb_puts(b, " = ");
                put_value(pr, op->opnds[3 + i]);
            }
            sb_puts(b, ") -> (");
            put_value_types(pr, op->opnds + 3, op->seg[3]);
            sb_putc(b, ')');
        }
        const Type *ivty = pr->f->values[body->args[0]].type;
        if (ivty && !(ivty->kind == TY_SCALAR && ivty->dtype == DT_INDEX)) {
            sb_puts(b, " : ");
            put_type(pr, ivty);
        }
        put_custom_region(pr, &op->regions[0], indent, op->seg[3] > 0);
    } else if (op->kind == OP_SCF_WHILE) {
        /* (%a = %init, ...) : (T, ...) -> R { before } do { ^bb0(...): after } */
        const Block *before = op->regions[0].first;
        if (op->nopnds) {
            sb_puts(b, " (");
            for (uint32_t i = 0; i < op->nopnds; i++) {
                sb_puts(b, i ? ", " : "");
                put_value(pr, before->args[i]);
                sb_puts(b, " = ");
                put_value(pr, op->opnds[i]);
            }
            sb_putc(b, ')');
        }
        sb_puts(b, " : (");
        put_value_types(pr, op->opnds, op->nopnds);
        sb_puts(b, ") -> ");
        if (op->nres == 1) {
            put_value_types(pr, op->res, 1);
        } else {
            sb_putc(b, '(');
            put_value_types(pr, op->res, op->nres);
            sb_putc(b, ')');
        }
        put_custom_region(pr, &op->regions[0], indent, true);
        sb_puts(b, " do {\n");
        print_blocks(pr, &op->regions[1], indent + 2, true, true);
        sb_printf(b, "%*s}", indent, "");
        if (op->nattrs) {
            sb_puts(b, " attributes");
            put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        }
        return;
    } else if (op->kind == OP_SCF_EXECUTE_REGION) {
        /* (-> T | -> (T, ...))? { ... } {attrs}? */
        if (op->nres == 1) {
            sb_puts(b, " -> ");
            put_value_types(pr, op->res, 1);
        } else if (op->nres) {
            sb_puts(b, " -> (");
            put_value_types(pr, op->res, op->nres);
            sb_putc(b, ')');
        }
        put_custom_region(pr, &op->regions[0], indent, true);
    } else {
        sb_putc(b, ' ');
        put_value(pr, op->opnds[0]);
        if (op->nres) {
            sb_puts(b, " -> (");
            put_value_types(pr, op->res, op->nres);
            sb_putc(b, ')');
        }
        put_custom_region(pr, &op->regions[0], indent, op->nres > 0);
        if (op->regions[1].first) {
            sb_puts(b, " else");
            put_custom_region(pr, &op->regions[1], indent, op->nres > 0);
        }
    }
    put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
}

/* An attribute that the op's clause `word = ...` spells: pad_mode as a #pto.padmode
 * (printed stripped, `<PadValue>`, as MLIR prints a dialect attribute in an op's format),
 * init_out_buffer as a bool. Other kinds stay in the attribute dict. */
static bool clause_attr(const TailClause *c, const Attr *a)
{
    if (c->role != ROLE_COUNT || !str_eq(a->key, c->word, strlen(c->word)))
        return false;
    if (strcmp(c->word, "pad_mode") == 0)
        return a->val->kind == AV_ENUM && a->val->u.e.kind == EK_PAD_MODE;
    return a->val->kind == AV_BOOL;
}

/* The attribute dict, then the op's clauses in their order (pto.tload's
 * `pad_mode = <PadValue> pad_value = %v : f32 ...`). */
static void put_clauses(Printer *pr, const Op *op)
{
    int nlist;
    const TailClause *list = op_tail_clauses(op->kind, &nlist);
    if (!nlist) {
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        return;
    }
    Attr *rest = xmalloc((op->nattrs + 1) * sizeof *rest);
    uint32_t nrest = 0;
    for (uint32_t i = 0; i < op->nattrs; i++) {
        bool lifted = false;
        for (int k = 0; k < nlist; k++)
            lifted |= clause_attr(&list[k], &op->attrs[i]);
        if (!lifted)
            rest[nrest++] = op->attrs[i];
    }
    put_attr_dict(pr, rest, nrest, NULL, true);
    free(rest);
    const OpInfo *in = op_info(op->kind);
    StrBuf *b = &pr->b;
    for (int k = 0; k < nlist; k++) {
        const TailClause *c = &list[k];
        if (c->role == ROLE_COUNT) {
            for (uint32_t i = 0; i < op->nattrs; i++)
                if (clause_attr(c, &op->attrs[i])) {
                    const AttrValue *v = op->attrs[i].val;
                    sb_printf(b, " %s = ", c->word);
                    if (v->kind == AV_ENUM)
                        sb_printf(b, "<%s>", enum_info[v->u.e.kind].names[v->u.e.value]);
                    else
                        print_attr_value(b, v);
                }
            continue;
        }
        uint32_t at = 0;
        int r = op_role(op->kind, c->role);
        for (int j = 0; j < r; j++)
            at += op->seg[j];
        if (r < 0 || !op->seg[r] || at >= op->nopnds || (in->flags[r] & ROLE_VAR))
            continue;
        sb_printf(b, " %s = ", c->word);
        put_value(pr, op->opnds[at]);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds + at, 1);
    }
}

/* A tile op's custom form after its name: Level 1 `%a, %b : (T, T) -> R` or Level 2
 * `ins(...) outs(...)` with its clauses. */
static void print_compute(Printer *pr, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    StrBuf *b = &pr->b;
    if (op->form == FORM_L1) {
        if (op->nopnds)
            sb_putc(b, ' ');
        put_values(pr, op->opnds, op->nopnds);
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, " : ");
        if ((in->opflags & OF_STORES) && op->nres == 0) { /* no results: no arrow */
            put_value_types(pr, op->opnds, op->nopnds);
        } else {
            sb_putc(b, '(');
            put_value_types(pr, op->opnds, op->nopnds);
            sb_puts(b, ") -> ");
            put_result_types(pr, op);
        }
    } else {
        uint32_t nin = 0, nkw = 0; /* the ins operands; the clause operands after them */
        for (int r = 0; r < in->nins; r++) {
            if (in->flags[r] & ROLE_KW)
                nkw += op->seg[r];
            else
                nin += op->seg[r];
        }
        /* PTOAS's tcvt: `ins(%src {rmode = ...} : T)`; tcolsum only after its tmp */
        bool in_ins = (in->opflags & OF_ATTRS_IN_INS) || ((in->opflags & OF_ATTRS_AFTER_TMP) && nin > 1);
        sb_puts(b, " ins(");
        if (in->cls == OC_STORE && nin > 1) {
            /* PTOAS's spelling: `%src : T fp %fp : Tf, %s : i64`, each operand typed */
            for (uint32_t i = 0; i < nin; i++) {
                sb_puts(b, i == 0 ? "" : i == 1 && op->seg[1] ? " fp " : ", ");
                put_values(pr, op->opnds + i, 1);
                sb_puts(b, " : ");
                put_value_types(pr, op->opnds + i, 1);
            }
        } else if ((in->cls == OC_EXTRACT || in->cls == OC_INSERT) && nin > 3) {
            /* PTOAS's textract `%src, %r, %c[, %pq] : T, index, index[, i64] [fp %fp : Tf]`,
             * tinsert `%src, %r, %c : T, index, index [fp %fp : Tf] [pre_quant %pq : i64]`
             * (operands in role order: src, indexRow, indexCol, fp, preQuantScalar) */
            bool fp = op->seg[3], pq = op->seg[4], ext = in->cls == OC_EXTRACT;
            uint32_t fpi = 3, pqi = 3 + fp, lead = ext && pq ? 4 : 3;
            ValueId lv[4] = {op->opnds[0], op->opnds[1], op->opnds[2], pq ? op->opnds[pqi] : NO_VALUE};
            put_values(pr, lv, lead);
            sb_puts(b, " : ");
            put_value_types(pr, lv, lead);
            if (fp) {
                sb_puts(b, " fp ");
                put_values(pr, op->opnds + fpi, 1);
                sb_puts(b, " : ");
                put_value_types(pr, op->opnds + fpi, 1);
            }
            if (!ext && pq) {
                sb_puts(b, " pre_quant ");
                put_values(pr, op->opnds + pqi, 1);
                sb_puts(b, " : ");
                put_value_types(pr, op->opnds + pqi, 1);
            }
        } else {
            put_values(pr, op->opnds, nin);
            if (in_ins)
                put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
            if (nin) {
                sb_puts(b, " : ");
                put_value_types(pr, op->opnds, nin);
            }
        }
        if (in->cls == OC_GETVAL) { /* PTOAS's tgetval: `outs : R`, its scalar result's type */
            sb_puts(b, ") outs : ");
            put_result_types(pr, op);
            put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
            return;
        }
        sb_puts(b, ") outs(");
        uint32_t nout = op->nopnds - nin - nkw;
        put_values(pr, op->opnds + nin + nkw, nout);
        if (nout) {
            sb_puts(b, " : ");
            put_value_types(pr, op->opnds + nin + nkw, nout);
        }
        sb_putc(b, ')');
        if (!in_ins)
            put_clauses(pr, op);
    }
}

/* ---- == PIPE == the pipe, FIFO and sync ops' custom forms (PTOAS's printers) ----------- */

/* `key = value`, an integer without its type (the custom forms type them by position) */
static void put_bare_attr(StrBuf *b, const Attr *a)
{
    put_str(b, STR_EQ_LIT(a->key, "autoAlloc") ? (Str){"auto", 4} : a->key);
    sb_puts(b, " = ");
    if (a->val->kind == AV_INT)
        sb_put_int(b, a->val->u.i);
    else
        print_attr_value(b, a->val);
}

/* `(%t : T)` / `(%r, %c)` {attrs}(kw = %v : T, ...) aiv_subblockid(%s) -> T */
static void print_fifo(Printer *pr, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    StrBuf *b = &pr->b;
    ValueId v[MAX_ROLES];
    ir_op_roles(op, v);
    bool init = op->kind == OP_AIC_INITIALIZE_PIPE || op->kind == OP_AIV_INITIALIZE_PIPE;
    static const RoleId typed[] = {ROLE_TILE, ROLE_ENTRY, ROLE_SCALING_TILE, ROLE_SCALE}; /* its one `(%v : T)` */
    int tile = -1;
    for (size_t i = 0; i < sizeof typed / sizeof typed[0] && tile < 0; i++)
        tile = op_role(op->kind, typed[i]);
    int vr = op_role(op->kind, ROLE_VALID_ROW), vc = op_role(op->kind, ROLE_VALID_COL);
    if (tile >= 0 && v[tile] != NO_VALUE) {
        sb_putc(b, '(');
        put_value(pr, v[tile]);
        sb_puts(b, " : ");
        put_type(pr, vtype(pr, v[tile]));
        sb_putc(b, ')');
    } else if (vr >= 0 && v[vr] != NO_VALUE && v[vc] != NO_VALUE) {
        sb_putc(b, '(');
        put_value(pr, v[vr]);
        sb_puts(b, ", ");
        put_value(pr, v[vc]);
        sb_putc(b, ')');
    }
    sb_puts(b, " {");
    for (uint32_t i = 0; i < op->nattrs; i++) {
        sb_puts(b, i ? ", " : "");
        put_bare_attr(b, &op->attrs[i]);
    }
    sb_putc(b, '}');
    if (init) {
        sb_putc(b, '(');
        bool first = true;
        for (int r = 0; r < in->nroles; r++)
            if (v[r] != NO_VALUE) {
                sb_printf(b, "%s%s = ", first ? "" : ", ", in->role[r]);
                put_value(pr, v[r]);
                sb_puts(b, " : ");
                put_type(pr, vtype(pr, v[r]));
                first = false;
            }
        sb_putc(b, ')');
    }
    int sub = op_role(op->kind, ROLE_AIV_SUBBLOCKID);
    if (sub >= 0 && v[sub] != NO_VALUE) {
        sb_puts(b, " aiv_subblockid(");
        put_value(pr, v[sub]);
        sb_putc(b, ')');
    }
    if (op->nres) {
        sb_puts(b, " -> ");
        put_result_types(pr, op);
    }
}

/* Is key one of the form's positional items? */
static bool sync_form_key(const SyncForm *f, Str key)
{
    for (int i = 0; f && i < f->n; i++)
        if (str_eq(key, f->items[i].key, strlen(f->items[i].key)))
            return true;
    return false;
}

/* `[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]`, ` <PIPE_ALL>`, ` <PIPE_M>, 0` then {attrs} */
static void print_sync(Printer *pr, const Op *op)
{
    const SyncForm *f = sync_form(op->kind);
    StrBuf *b = &pr->b;
    if (f) {
        sb_puts(b, f->bracket ? "[" : " ");
        bool first = true;
        for (int i = 0; i < f->n; i++) {
            const SyncItem *it = &f->items[i];
            const Attr *a = ir_attr_find(op->attrs, op->nattrs, it->key);
            if (!a && (it->kind == SI_OPERAND || it->kind == SI_INT_OR_OPERAND) && op->nopnds) {
                sb_puts(b, first ? "" : ", ");
                put_value(pr, op->opnds[0]);
                first = false;
                continue;
            }
            if (!a)
                continue;
            sb_puts(b, first ? "" : ", ");
            first = false;
            const AttrValue *x = a->val;
            const char *lt = x->kind == AV_OPAQUE ? memchr(x->u.s.p, '<', x->u.s.len) : NULL;
            if (it->kind == SI_ATTR && lt) /* a fixed attribute kind prints stripped */
                sb_putn(b, lt, (size_t)(x->u.s.p + x->u.s.len - lt));
            else if (x->kind == AV_INT)
                sb_put_int(b, x->u.i);
            else
                print_attr_value(b, x);
        }
        if (f->bracket)
            sb_putc(b, ']');
    }
    bool any = false;
    for (uint32_t i = 0; i < op->nattrs; i++)
        any |= !sync_form_key(f, op->attrs[i].key);
    if (!any)
        return;
    sb_puts(b, " {");
    bool first = true;
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (!sync_form_key(f, op->attrs[i].key)) {
            sb_puts(b, first ? "" : ", ");
            put_attr(b, &op->attrs[i]);
            first = false;
        }
    sb_putc(b, '}');
}

/* (%ws, %n : T1, T2) mode = #.., core_type = #.. {attrs} */
static void print_syncall(Printer *pr, const Op *op)
{
    StrBuf *b = &pr->b;
    sb_putc(b, '(');
    put_values(pr, op->opnds, op->nopnds);
    if (op->nopnds) {
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, op->nopnds);
    }
    sb_putc(b, ')');
    const Attr *m = ir_attr_find(op->attrs, op->nattrs, "mode"), *c = ir_attr_find(op->attrs, op->nattrs, "core_type");
    sb_puts(b, " mode = ");
    if (m)
        print_attr_value(b, m->val);
    sb_puts(b, ", core_type = ");
    if (c)
        print_attr_value(b, c->val);
    bool first = true;
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (&op->attrs[i] != m && &op->attrs[i] != c) {
            sb_puts(b, first ? " {" : ", ");
            put_attr(b, &op->attrs[i]);
            first = false;
        }
    if (!first)
        sb_putc(b, '}');
}

/* the PIPE syntaxes; false for the others */
static bool print_pipe_custom(Printer *pr, const Op *op, int indent)
{
    StrBuf *b = &pr->b;
    switch (op_info(op->kind)->syntax) {
    case SYN_FIFO:
        print_fifo(pr, op);
        return true;
    case SYN_SYNC:
        print_sync(pr, op);
        return true;
    case SYN_SYNCALL:
        print_syncall(pr, op);
        return true;
    case SYN_SECTION:
        put_custom_region(pr, &op->regions[0], indent, true);
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        return true;
    case SYN_MTGET:
        sb_putc(b, ' ');
        put_value(pr, op->opnds[0]);
        sb_putc(b, '[');
        put_value(pr, op->opnds[1]);
        sb_putc(b, ']');
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, 1);
        sb_puts(b, " -> ");
        put_result_types(pr, op);
        return true;
    default:
        return false;
    }
}

static void print_custom(Printer *pr, const Op *op, int indent)
{
    const OpInfo *in = op_info(op->kind);
    StrBuf *b = &pr->b;
    sb_puts(b, op->kind == OP_RETURN ? "return" : op->kind == OP_CALL ? "call" : printed_name(op));
    if (print_pipe_custom(pr, op, indent))
        return;
    switch (in->syntax) {
    case SYN_COMPUTE:
        print_compute(pr, op);
        return;
    case SYN_ALLOC: {
        uint32_t at = 0;
        for (int r = 0; r < in->nroles; r++)
            if (op->seg[r]) {
                sb_putc(b, ' ');
                sb_puts(b, in->role[r]);
                sb_puts(b, " = ");
                put_value(pr, op->opnds[at++]);
            }
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, op->kind == OP_DECLARE_TILE ? " -> " : " : ");
        put_result_types(pr, op);
        return;
    }
    case SYN_TASSIGN:
        sb_putc(b, ' ');
        put_value(pr, op->opnds[0]);
        if (op->has_tile_addr) {
            if (op->hex_addr && op->tile_addr >= 0)
                sb_printf(b, ", @tile(0x%llx)", (unsigned long long)op->tile_addr);
            else
                sb_printf(b, ", @tile(%lld)", (long long)op->tile_addr);
            return;
        }
        sb_puts(b, ", ");
        put_value(pr, op->opnds[1]);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, 1);
        sb_puts(b, " -> ");
        put_result_types(pr, op);
        return;
    case SYN_VIEW: {
        sb_putc(b, ' ');
        put_value(pr, op->opnds[0]);
        uint32_t at = 1;
        for (int r = 1; r < in->nroles; r++) {
            sb_puts(b, ", ");
            sb_puts(b, in->role[r]);
            sb_puts(b, " = [");
            put_values(pr, op->opnds + at, op->seg[r]);
            at += op->seg[r];
            sb_putc(b, ']');
        }
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, " : ");
        if (op->kind == OP_PARTITION_VIEW) {
            put_value_types(pr, op->opnds, 1);
            sb_puts(b, " -> ");
        }
        put_result_types(pr, op);
        return;
    }
    case SYN_TILEVIEW:
        print_tile_view(pr, op);
        return;
    case SYN_CONSTANT:
        sb_putc(b, ' ');
        print_attr_value(b, op->constant);
        return;
    case SYN_CAST: { /* PTOAS's view queries write their attributes after the types */
        bool after = in->cls == OC_QUERY && op_role(op->kind, ROLE_TENSOR_VIEW) >= 0;
        sb_putc(b, ' ');
        put_values(pr, op->opnds, op->nopnds);
        if (!after)
            put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, 1);
        sb_puts(b, " -> ");
        put_result_types(pr, op);
        if (after)
            put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        return;
    }
    case SYN_COMM: /* (%sig, %v : V, T) {attrs} (-> R) */
        sb_puts(b, "(");
        put_values(pr, op->opnds, op->nopnds);
        sb_puts(b, " : ");
        put_value_types(pr, op->opnds, op->nopnds);
        sb_putc(b, ')');
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        if (op->nres) {
            sb_puts(b, " -> ");
            put_result_types(pr, op);
        }
        return;
    case SYN_CMO: { /* all SPACE {attrs}; %addr single_cache_line : T {attrs} (space kept when not gm) */
        const Attr *sp = ir_attr_find(op->attrs, op->nattrs, "space");
        bool elide = !op->nopnds || sp->val->u.e.value == enum_lookup(EK_ADDRESS_SPACE, "gm", 2);
        Attr *rest = xmalloc((op->nattrs + 1) * sizeof *rest);
        uint32_t nrest = 0;
        for (uint32_t i = 0; i < op->nattrs; i++)
            if (&op->attrs[i] != sp || !elide)
                rest[nrest++] = op->attrs[i];
        if (op->nopnds) {
            sb_putc(b, ' ');
            put_value(pr, op->opnds[0]);
            sb_puts(b, " single_cache_line : ");
            put_value_types(pr, op->opnds, 1);
        } else {
            sb_puts(b, " all ");
            print_attr_value(b, sp->val);
        }
        put_attr_dict(pr, rest, nrest, NULL, true);
        free(rest);
        return;
    }
    case SYN_LOCAL: { /* -> T; %a[%i, ...] : T -> R; %a[%i, ...], %v : T, R (event ids: no R) */
        bool ev = op->kind == OP_EVENTID_ARRAY_GET || op->kind == OP_EVENTID_ARRAY_SET;
        bool set = op->kind == OP_LOCAL_ARRAY_SET || op->kind == OP_EVENTID_ARRAY_SET;
        if (op->nopnds) {
            sb_putc(b, ' ');
            put_value(pr, op->opnds[0]);
            sb_putc(b, '[');
            put_values(pr, op->opnds + 1, op->nopnds - 1 - set);
            sb_putc(b, ']');
            if (set) {
                sb_puts(b, ", ");
                put_value(pr, op->opnds[op->nopnds - 1]);
            }
        }
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        if (op->nopnds) {
            sb_puts(b, " : ");
            put_value_types(pr, op->opnds, 1);
        }
        if (ev)
            return;
        if (set) {
            sb_puts(b, ", ");
            put_value_types(pr, op->opnds + op->nopnds - 1, 1);
        } else {
            sb_puts(b, " -> ");
            put_result_types(pr, op);
        }
        return;
    }
    case SYN_DEBUG: { /* trap: attrs; tprint: ins(%s[, %t] : T[, T2]); print: ins("fmt", %v : T) */
        const Attr *fmt = op->kind == OP_PRINT ? ir_attr_find(op->attrs, op->nattrs, "format") : NULL;
        Attr *rest = xmalloc((op->nattrs + 1) * sizeof *rest);
        uint32_t nrest = 0;
        for (uint32_t i = 0; i < op->nattrs; i++)
            if (&op->attrs[i] != fmt)
                rest[nrest++] = op->attrs[i];
        if (op->nopnds) {
            sb_puts(b, " ins(");
            if (fmt) {
                print_attr_value(b, fmt->val);
                sb_puts(b, ", ");
            }
            put_values(pr, op->opnds, op->nopnds);
            sb_puts(b, " : ");
            put_value_types(pr, op->opnds, op->nopnds);
            sb_putc(b, ')');
        }
        put_attr_dict(pr, rest, nrest, NULL, true);
        free(rest);
        return;
    }
    case SYN_ARITH:
    case SYN_CALL:
    case SYN_LOAD_SCALAR:
    case SYN_STORE_SCALAR:
        print_scalar(pr, op);
        return;
    case SYN_RETURN:
        if (op->nopnds) {
            sb_putc(b, ' ');
            put_values(pr, op->opnds, op->nopnds);
            sb_puts(b, " : ");
            put_value_types(pr, op->opnds, op->nopnds);
        }
        return;
    case SYN_FOR:
    case SYN_IF:
    case SYN_WHILE:
    case SYN_EXECUTE_REGION:
        print_region_op(pr, op, indent);
        return;
    case SYN_CONDITION: /* (%c) {attrs} %a, ... : T, ... */
        sb_putc(b, '(');
        put_value(pr, op->opnds[0]);
        sb_putc(b, ')');
        put_attr_dict(pr, op->attrs, op->nattrs, NULL, true);
        if (op->nopnds > 1) {
            sb_putc(b, ' ');
            put_values(pr, op->opnds + 1, op->nopnds - 1);
            sb_puts(b, " : ");
            put_value_types(pr, op->opnds + 1, op->nopnds - 1);
        }
        return;
    case SYN_FIFO: case SYN_SYNC: case SYN_SECTION: case SYN_MTGET: case SYN_SYNCALL:
        return; /* print_pipe_custom's */
    }
}

/* ---- ops: generic form ------------------------------------------------------------------ */
static bool needs_segments(const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    /* == PIPE == PTOAS's ops with one optional operand and no segment sizes */
    if (op->kind == OP_TPUSH_TO_AIC || op->kind == OP_TFREE_FROM_AIC || op->kind == OP_TFREE_FROM_AIV ||
        op->kind == OP_SYNC_SET || op->kind == OP_SYNC_WAIT)
        return false;
    if (in->syntax == SYN_RETURN || in->syntax == SYN_CONSTANT || in->syntax == SYN_TASSIGN ||
        in->syntax == SYN_FOR || in->syntax == SYN_IF || in->syntax == SYN_WHILE || in->syntax == SYN_CONDITION ||
        in->syntax == SYN_EXECUTE_REGION || in->syntax >= SYN_ARITH || in->syntax == SYN_LOCAL ||
        in->syntax == SYN_CMO)
        return false; /* (PTOAS's local-array ops have one variadic list, cmo one optional operand: no segment sizes) */
    if (in->syntax == SYN_COMPUTE && op->form == FORM_L1)
        return false;
    for (int r = 0; r < in->nroles; r++)
        if (in->flags[r] & (ROLE_OPT | ROLE_VAR))
            return true;
    return in->syntax == SYN_COMPUTE;
}

/* An unregistered op (--allow-unregistered-dialect), in both forms as mlir-opt prints it:
 * its name, operands, <{properties}>, regions, attributes, signature. */
static void print_unregistered(Printer *pr, const Op *op, int indent)
{
    StrBuf *b = &pr->b;
    sb_putc(b, '"');
    put_escaped(b, op->uname);
    sb_puts(b, "\"(");
    put_values(pr, op->opnds, op->nopnds);
    sb_putc(b, ')');
    if (op->nprops) {
        sb_puts(b, " <");
        put_attr_dict(pr, op->attrs, op->nprops, NULL, false);
        sb_putc(b, '>');
    }
    for (uint32_t i = 0; i < op->nregions; i++) {
        sb_puts(b, i ? ", {\n" : " ({\n");
        print_blocks(pr, &op->regions[i], indent + 2, true, true);
        sb_printf(b, "%*s}", indent, "");
        if (i + 1 == op->nregions)
            sb_putc(b, ')');
    }
    put_attr_dict(pr, op->attrs + op->nprops, op->nattrs - op->nprops, NULL, true);
    sb_puts(b, " : (");
    put_value_types(pr, op->opnds, op->nopnds);
    sb_puts(b, ") -> ");
    put_result_types(pr, op); /* one bare, none or several in parentheses */
}

static void print_generic(Printer *pr, const Op *op, int indent)
{
    const OpInfo *in = op_info(op->kind);
    StrBuf *b = &pr->b;
    if (op->kind == OP_UNREGISTERED) {
        print_unregistered(pr, op, indent);
        return;
    }
    sb_printf(b, "\"%s\"(", op->kind == OP_RETURN ? "func.return" : printed_name(op));
    /* tmov/tstore/trsqrt: PTOAS's operand order src, dst, then the optional ins (roles:
     * src, the optional ins, dst) */
    uint32_t k = op_dst_at(in);
    bool ptoas_order = (in->opflags & OF_DST_SECOND) && needs_segments(op) && op->nopnds > k + 1 &&
                       op->nopnds <= MAX_ROLES;
    const ValueId *opnds = op->opnds;
    ValueId perm[MAX_ROLES];
    if (ptoas_order) {
        for (uint32_t i = 0; i < op->nopnds; i++)
            perm[i] = op->opnds[i < k ? i : i == k ? op->nopnds - 1 : i - 1];
        opnds = perm;
    }
    put_values(pr, opnds, op->nopnds);
    sb_putc(b, ')');
    StrBuf pre = {0};
    if (needs_segments(op)) {
        sb_puts(&pre, "operandSegmentSizes = array<i32");
        for (int i = 0; i < in->nroles; i++) { /* role r at generic position i */
            int r = !(in->opflags & OF_DST_SECOND) ? i : i < (int)k ? i : i == (int)k ? in->nroles - 1 : i - 1;
            sb_printf(&pre, "%s%u", i ? ", " : ": ", op->seg[r]);
        }
        sb_putc(&pre, '>');
    } else if (op->has_tile_addr) {
        sb_printf(&pre, "addr = %lld : i64", (long long)op->tile_addr);
    }
    if (op->constant) {
        sb_puts(b, " <{value = ");
        print_attr_value(b, op->constant);
        sb_puts(b, "}>");
    }
    for (uint32_t i = 0; i < op->nregions; i++) { /* ({ ^bb0(...): ... }, { ... }) */
        sb_puts(b, i ? ", {\n" : " ({\n");
        print_blocks(pr, &op->regions[i], indent + 2, true, true);
        sb_printf(b, "%*s}", indent, "");
        if (i + 1 == op->nregions)
            sb_putc(b, ')');
    }
    put_attr_dict(pr, op->attrs, op->nattrs, pre.p, true);
    sb_free(&pre);
    sb_puts(b, " : (");
    put_value_types(pr, opnds, op->nopnds);
    sb_puts(b, ") -> ");
    if (op->nres == 0)
        sb_puts(b, "()");
    else
        put_result_types(pr, op);
}

/* Results named r#0 .. r#N-1 (N > 1) were written `%r:N`: their length
 * without the "#0" suffix, else 0. */
static uint32_t result_group(const Printer *pr, const Op *op)
{
    if (op->nres < 2)
        return 0;
    Str n0 = pr->f->values[op->res[0]].name;
    if (n0.len < 3 || n0.p[n0.len - 2] != '#' || n0.p[n0.len - 1] != '0')
        return 0;
    uint32_t base = n0.len - 2;
    for (uint32_t i = 0; i < op->nres; i++) {
        Str n = pr->f->values[op->res[i]].name;
        char suffix[16];
        int k = snprintf(suffix, sizeof suffix, "#%u", i);
        if (n.len != base + (uint32_t)k || memcmp(n.p, n0.p, base) != 0 || memcmp(n.p + base, suffix, (size_t)k) != 0)
            return 0;
    }
    return base;
}

static void print_op(Printer *pr, const Op *op, int indent);

/* `%a: T1, %b: T2` */
static void put_block_args(Printer *pr, const Block *b)
{
    for (uint32_t i = 0; i < b->nargs; i++) {
        if (i)
            sb_puts(&pr->b, ", ");
        put_value(pr, b->args[i]);
        sb_puts(&pr->b, ": ");
        put_type(pr, pr->f->values[b->args[i]].type);
        loc_put_inline(pr, pr->f->values[b->args[i]].def.begin);
    }
}

/* The blocks of a region, their ops at indent. labels: each block that has
 * arguments, or is not the first, gets its `^bbN(...):` line two columns
 * left of its ops (MLIR's generic form; a custom form shows its entry
 * block's arguments in the op's own syntax). terminators false: a block's
 * last op, its terminator, is left out. */
static void print_blocks(Printer *pr, const Region *r, int indent, bool labels, bool terminators)
{
    unsigned k = 0;
    for (const Block *b = r->first; b; b = b->next, k++) {
        if (labels && (b->nargs || k)) {
            sb_printf(&pr->b, "%*s^bb%u", indent > 2 ? indent - 2 : 0, "", k);
            if (b->nargs) {
                sb_putc(&pr->b, '(');
                put_block_args(pr, b);
                sb_putc(&pr->b, ')');
            }
            sb_puts(&pr->b, ":\n");
        }
        for (const Op *op = b->first; op; op = op->next)
            if (terminators || op != b->last || op->kind != OP_SCF_YIELD)
                print_op(pr, op, indent);
    }
}

static void print_op(Printer *pr, const Op *op, int indent)
{
    uint32_t loc = loc_ref(pr, op->name_span.begin);
    sb_printf(&pr->b, "%*s", indent, "");
    uint32_t group = result_group(pr, op);
    if (group) {
        sb_putc(&pr->b, '%');
        put_str(&pr->b, (Str){pr->f->values[op->res[0]].name.p, group});
        sb_printf(&pr->b, ":%u = ", op->nres);
    } else if (op->nres) {
        put_values(pr, op->res, op->nres);
        sb_puts(&pr->b, " = ");
    }
    if (pr->generic || !custom_form_fits(pr, op))
        print_generic(pr, op, indent);
    else
        print_custom(pr, op, indent);
    loc_put(pr, loc);
    sb_putc(&pr->b, '\n');
    flush_if_big(pr);
}

/* ---- functions and modules ------------------------------------------------------------ */
static void put_func_results(Printer *pr, const Func *f, bool generic)
{
    if (f->nresults == 1 && !(generic && f->results[0] == NULL)) {
        put_type(pr, f->results[0]);
        return;
    }
    sb_putc(&pr->b, '(');
    for (uint32_t i = 0; i < f->nresults; i++) {
        if (i)
            sb_puts(&pr->b, ", ");
        put_type(pr, f->results[i]);
    }
    sb_putc(&pr->b, ')');
}

static void print_func(Printer *pr, const Func *f, int depth)
{
    char indent[64];
    snprintf(indent, sizeof indent, "%*s", depth, "");
    const Block *entry = ir_entry(f);
    StrBuf *b = &pr->b;
    pr->f = f;
    uint32_t loc = loc_ref(pr, f->span.begin);
    static const char *const vis[] = {"", "private", "public"};
    if (pr->generic) {
        sb_printf(b, "%s\"func.func\"() <{function_type = (", indent);
        for (uint32_t i = 0; i < entry->nargs; i++) {
            if (i)
                sb_puts(b, ", ");
            put_type(pr, f->values[entry->args[i]].type);
        }
        sb_puts(b, ") -> ");
        put_func_results(pr, f, true);
        sb_puts(b, ", sym_name = \"");
        put_str(b, f->name);
        sb_putc(b, '"');
        if (f->visibility)
            sb_printf(b, ", sym_visibility = \"%s\"", vis[f->visibility]);
        sb_puts(b, "}> ({\n");
        if (!f->decl) /* a declaration's region is empty: no block */
            print_blocks(pr, &f->body, depth + 2, true, true);
        sb_printf(b, "%s})", indent);
        put_attr_dict(pr, f->attrs, f->nattrs, NULL, true);
        sb_puts(b, " : () -> ()");
        loc_put(pr, loc);
        sb_putc(b, '\n');
        return;
    }
    sb_printf(b, "%sfunc.func %s%s", indent, vis[f->visibility], f->visibility ? " " : "");
    put_symbol(b, f->name);
    sb_putc(b, '(');
    put_block_args(pr, entry);
    sb_putc(b, ')');
    if (f->nresults) {
        sb_puts(b, " -> ");
        put_func_results(pr, f, false);
    }
    if (f->nattrs) {
        sb_puts(b, " attributes");
        put_attr_dict(pr, f->attrs, f->nattrs, NULL, true);
    }
    if (f->decl) {
        loc_put(pr, loc);
        sb_putc(b, '\n');
        return;
    }
    sb_puts(b, " {\n");
    print_blocks(pr, &f->body, depth + 2, false, true);
    sb_printf(b, "%s}", indent);
    loc_put(pr, loc);
    sb_putc(b, '\n');
}

/* A module and, inside it, its functions and the modules nested in it. An
 * implicit one (the input's top level) prints as `module {`, as mlir-opt
 * wraps a file's top-level ops, with the other top-level modules inside. */
static void print_module(Printer *pr, const Module *m, const ModuleOp *mod, int depth)
{
    char ind[64];
    int d = depth < 20 ? depth : 20;
    snprintf(ind, sizeof ind, "%*s", 2 * d, "");
    uint32_t loc = loc_ref(pr, mod->implicit ? UINT32_MAX : mod->span.begin);
    if (pr->generic) {
        sb_printf(&pr->b, "%s\"builtin.module\"()", ind);
        if (mod->name.len) {
            sb_puts(&pr->b, " <{sym_name = \"");
            put_str(&pr->b, mod->name);
            sb_puts(&pr->b, "\"}>");
        }
        sb_puts(&pr->b, " ({\n");
    } else {
        sb_printf(&pr->b, "%smodule", ind);
        if (mod->name.len) {
            sb_putc(&pr->b, ' ');
            put_symbol(&pr->b, mod->name);
        }
        if (mod->nattrs) {
            sb_puts(&pr->b, " attributes");
            put_attr_dict(pr, mod->attrs, mod->nattrs, NULL, true);
        }
        sb_puts(&pr->b, " {\n");
    }
    /* its functions and modules in source order (mlir-opt keeps the order of
     * a region's ops); an implicit module holds the file's top level */
    uint32_t j = 0, i = 0;
    for (;;) {
        while (i < m->nmods && !(mod->implicit ? !m->mods[i]->parent && !m->mods[i]->implicit
                                               : m->mods[i]->parent == mod))
            i++;
        if (j == mod->nfuncs && i == m->nmods)
            break;
        if (j < mod->nfuncs && (i == m->nmods || mod->funcs[j]->span.begin < m->mods[i]->span.begin))
            print_func(pr, mod->funcs[j++], 2 * d + 2);
        else
            print_module(pr, m, m->mods[i++], depth + 1);
    }
    if (pr->generic) {
        sb_printf(&pr->b, "%s})", ind);
        put_attr_dict(pr, mod->attrs, mod->nattrs, NULL, true);
        sb_puts(&pr->b, " : () -> ()");
    } else {
        sb_printf(&pr->b, "%s}", ind);
    }
    loc_put(pr, loc);
    sb_putc(&pr->b, '\n');
}

/* As mlir-opt: a file whose top level is one module prints as that module;
 * otherwise (bare functions, several modules, nothing) inside an implicit
 * `module {`, in source order. */
static void print_all(Printer *pr, const Module *m)
{
    const ModuleOp *implicit = NULL, *only = NULL;
    uint32_t ntop = 0;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        if (mod->parent)
            continue;
        if (mod->implicit) {
            implicit = mod;
            ntop += mod->nfuncs ? 2 : 0;
        } else {
            only = mod;
            ntop++;
        }
    }
    if (ntop == 1 && only) {
        print_module(pr, m, only, 0);
        return;
    }
    ModuleOp empty = {0};
    empty.implicit = true;
    print_module(pr, m, implicit ? implicit : &empty, 0);
}

void frontend_print_opts(FILE *out, const Module *m, int generic, int debuginfo)
{
    Printer pr = {{0}, out, NULL, generic != 0, m, NULL, {0}};
    LocTab locs = {0};
    if (debuginfo) {
        /* the numbering pass prints nothing; then the top aliases, the IR, the others */
        Printer num = pr;
        num.out = NULL;
        num.locs = &locs;
        print_all(&num, m);
        sb_free(&num.b);
        sb_free(&num.tmp);
        pr.locs = &locs;
        put_loc_aliases(&locs, &pr.b, true);
    }
    print_all(&pr, m);
    if (debuginfo)
        put_loc_aliases(&locs, &pr.b, false);
    if (pr.b.len)
        fwrite(pr.b.p, 1, pr.b.len, out);
    sb_free(&pr.b);
    sb_free(&pr.tmp);
    sb_free(&locs.texts);
    free(locs.v);
    free(locs.slots);
}

void frontend_print(FILE *out, const Module *m, int generic) { frontend_print_opts(out, m, generic, 0); }

void print_type_to(FILE *out, const Type *t)
{
    StrBuf b = {0};
    type_print(&b, t);
    fwrite(b.p, 1, b.len, out);
    sb_free(&b);
}
