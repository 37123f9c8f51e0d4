/* query.c - hover, completion and inlay hints from an Analysis
 * (query.h). Op names, operand roles and the ops' one-line summaries come from
 * the op record (ir/ops.def through op_info), enum values from enum_info, dtypes
 * from DTYPE_LIST; the other one-line texts are here. */
#include "query.h"
#include <stdlib.h>
#include <string.h>
#include "pass.h"

bool feat_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '$' || c == '-';
}

/* ---- texts ------------------------------------------------------------------- */

typedef struct EnumDoc {
    EnumKind kind;
    const char *value, *meaning;
} EnumDoc;

/* docs/language.md (tile types, attributes), docs/memory.md. */
static const EnumDoc enum_docs[] = {
    {EK_LOC, "vec", "vector unit buffer (UB): the memory of the vector ops"},
    {EK_LOC, "mat", "matrix buffer (L1): cube-unit input staging"},
    {EK_LOC, "left", "left-matrix buffer (L0A) of the cube unit"},
    {EK_LOC, "right", "right-matrix buffer (L0B) of the cube unit"},
    {EK_LOC, "acc", "accumulator buffer (L0C) of the cube unit"},
    {EK_LOC, "bias", "bias table of the cube unit"},
    {EK_LOC, "scaling", "scaling (fixpipe) buffer"},
    {EK_BLAYOUT, "row_major", "outer (block) layout: rows are contiguous"},
    {EK_BLAYOUT, "col_major", "outer (block) layout: columns are contiguous"},
    {EK_SLAYOUT, "none_box", "no inner boxes: a plain row- or column-major tile"},
    {EK_SLAYOUT, "row_major", "inner boxes (fractals) stored row-major"},
    {EK_SLAYOUT, "col_major", "inner boxes (fractals) stored column-major"},
    {EK_QUANT_TYPE, "INT8_SYM", "symmetric int8: `clamp(rint(x * scale), -128, 127)`, no offset"},
    {EK_QUANT_TYPE, "INT8_ASYM", "asymmetric uint8: `clamp(rint(x * scale + offset), 0, 255)`"},
    {EK_QUANT_TYPE, "MXFP8", "OCP microscaling FP8 (E4M3): one shared E8M0 exponent per 32 elements"},
    {EK_QUANT_TYPE, "MXFP4_E2M1", "OCP microscaling FP4 (E2M1, two per byte): one shared E8M0 exponent per 32 elements"},
    {EK_QUANT_SCALE_ALG, "ocp", "shared exponent by the OCP MX rule (the default)"},
    {EK_QUANT_SCALE_ALG, "nv", "shared exponent by NVIDIA's rule: the group maximum scaled to the format's maximum"},
    {EK_MX_GROUP_AXIS, "axis1", "ND: groups of 32 along a row (the default)"},
    {EK_MX_GROUP_AXIS, "axis0", "DN: groups of 32 down a column"},
    {EK_VEC_STORE_MODE, "nd", "exponents stored in ND order (the default)"},
    {EK_VEC_STORE_MODE, "nz", "also write the ZZ-ordered exponent tile (exp_zz)"},
    {EK_ACC_PHASE, "unspecified", "accumulation phase not given"},
    {EK_ACC_PHASE, "partial", "a partial accumulation step"},
    {EK_ACC_PHASE, "final", "the final accumulation step"},
    {EK_KERNEL_KIND, "vector", "a kernel for the vector unit"},
    {EK_KERNEL_KIND, "cube", "a kernel for the cube (matrix) unit"},
    {EK_LAYOUT, "nd", "ND: row-major in global memory"},
    {EK_LAYOUT, "dn", "DN: column-major in global memory"},
    {EK_LAYOUT, "nz", "NZ: column-major blocks of row-major boxes (the fractal layout)"},
    {EK_LAYOUT, "mx_a_zz", "MX scales in the ZZ layout of the cube's left (A) operand"},
    {EK_LAYOUT, "mx_b_nn", "MX scales in the NN layout of the cube's right (B) operand"},
};

/* Tile-type keys (docs/language.md), in the keyword form's order. */
static const char *const tile_keys[] = {"loc", "dtype", "rows", "cols", "v_row", "v_col", "blayout",
                                        "slayout", "fractal", "pad", "compact", "valid"};
static const char *const tile_key_docs[] = {
    "memory space", "element type", "rows", "columns", "valid rows (`?` = dynamic)",
    "valid columns (`?` = dynamic)", "outer (block) layout", "inner box (fractal) layout",
    "inner box selector: 32, 512 or 1024", "value outside the valid region: 0=null 1=zero 2=max 3=min",
    "0=null 1=normal 2=row_plus_one", "valid shape ROWSxCOLS"};

/* ---- types in full --------------------------------------------------------------- */

static void put_dim(StrBuf *b, int64_t d)
{
    if (d == DIM_DYNAMIC)
        sb_putc(b, '?');
    else
        sb_put_int(b, d);
}

/* A type with every default spelled out (tile types in keyword form). */
static void full_type(StrBuf *b, const Type *t)
{
    if (!type_is_tile(t)) {
        type_print(b, t);
        return;
    }
    const TileBody *x = &t->tile;
    sb_puts(b, t->kind == TY_TILE ? "!pto.tile<" : "!pto.tile_buf<");
    sb_printf(b, "loc=%s, dtype=%s, rows=%lld, cols=%lld, v_row=", enum_info[EK_LOC].names[x->loc],
              dtype_name(x->dtype), (long long)x->rows, (long long)x->cols);
    put_dim(b, x->vrow);
    sb_puts(b, ", v_col=");
    put_dim(b, x->vcol);
    sb_printf(b, ", blayout=%s, slayout=%s, fractal=%d, pad=%d, compact=%d>",
              enum_info[EK_BLAYOUT].names[x->blayout], enum_info[EK_SLAYOUT].names[x->slayout],
              (int)x->fractal, x->pad, x->compact);
}

/* ---- hover -------------------------------------------------------------------- */

static bool covers(Span s, uint32_t off)
{
    return s.end > s.begin && s.begin <= off && off <= s.end;
}

static void hover_value(const Analysis *a, const AValue *v, StrBuf *md)
{
    sb_puts(md, "```pto\n%");
    sb_putn(md, v->name.p, v->name.len);
    sb_puts(md, " : ");
    if (v->type)
        full_type(md, v->type);
    else
        sb_puts(md, "?");
    sb_puts(md, "\n```\n");
    if (!type_is_tile(v->type))
        return;
    const TileBody *x = &v->type->tile;
    sb_printf(md, "\nmemory space `%s`, %lld bytes\n", enum_info[EK_LOC].names[x->loc],
              (long long)target_tile_bytes(x));
    if (!a->assembled) {
        sb_puts(md, "\naddress: known when the file assembles\n");
        return;
    }
    bool any = false;
    for (uint32_t i = 0; i < a->m->nplaces; i++) {
        const Placement *p = &a->m->places[i];
        if (p->f != v->f || p->value != v->id)
            continue;
        any = true;
        sb_printf(md, "\ntassign: address %lld (0x%llx), ", (long long)p->addr, (unsigned long long)p->addr);
        if (p->start < 0)
            sb_puts(md, "never used\n");
        else
            sb_printf(md, "live over ops [%lld, %lld]\n", (long long)p->start, (long long)p->end);
    }
    if (!any)
        sb_puts(md, "\ntassign: no placement (not a tile buffer of its own)\n");
}

static void hover_op(OpKind k, StrBuf *md)
{
    const OpInfo *in = op_info(k);
    sb_printf(md, "**%s**", in->name);
    if (in->alias)
        sb_printf(md, " (also `%s`)", in->alias);
    sb_printf(md, " — %s\n", op_info(k)->summary ? op_info(k)->summary : "");
    if (in->nroles == 0)
        return;
    for (int pass = 0; pass < 2; pass++) {
        int from = pass == 0 ? 0 : in->nins, to = pass == 0 ? in->nins : in->nroles;
        if (from == to)
            continue;
        sb_puts(md, pass == 0 ? "\nins: " : "\nouts: ");
        bool first = true;
        for (int r = from; r < to; r++) {
            if (in->flags[r] & ROLE_KW) /* listed with the clauses */
                continue;
            sb_printf(md, "%s`%s`", first ? "" : ", ", in->role[r]);
            first = false;
            uint8_t f = in->flags[r];
            if (f & (ROLE_OPT | ROLE_VAR | ROLE_SCRATCH)) {
                sb_puts(md, " (");
                const char *sep = "";
                if (f & ROLE_OPT) {
                    sb_puts(md, "optional");
                    sep = ", ";
                }
                if (f & ROLE_VAR) {
                    sb_printf(md, "%sany number", sep);
                    sep = ", ";
                }
                if (f & ROLE_SCRATCH)
                    sb_printf(md, "%sscratch, made by bufferize when missing", sep);
                sb_putc(md, ')');
            }
        }
    }
    int n;
    const TailClause *c = op_tail_clauses(k, &n);
    for (int i = 0; i < n; i++)
        sb_printf(md, "%s`%s`", i ? ", " : "\nafter outs (optional, in this order): ", c[i].word);
    sb_putc(md, '\n');
}

/* The word of identifier characters around offset (without '.', so that
 * "#pto.kernel_kind<" splits). */
static Span word_at(const Analysis *a, uint32_t off)
{
    const char *t = a->text;
    uint32_t b = off, e = off;
    while (b > 0 && feat_ident_char(t[b - 1]) && t[b - 1] != '.')
        b--;
    while (e < a->len && feat_ident_char(t[e]) && t[e] != '.')
        e++;
    return (Span){b, e};
}

/* The enum kind a word at span w belongs to: "KIND=" or "KIND = " before it
 * (tile-type keys and attributes such as quant_type), "#pto<KIND " or
 * "#pto.KIND<" before it; the first match of a key name. */
static int enum_kind_before(const Analysis *a, Span w)
{
    const char *t = a->text;
    uint32_t p = w.begin;
    while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t'))
        p--;
    if (p == 0)
        return -1;
    char sep = t[p - 1];
    if (sep != '=' && sep != '<' && !(sep >= 'a' && sep <= 'z'))
        return -1;
    uint32_t ke;
    if (sep == '=' || sep == '<') {
        ke = p - 1;
        while (ke > 0 && (t[ke - 1] == ' ' || t[ke - 1] == '\t'))
            ke--;
    } else {
        ke = p; /* "#pto<KIND VALUE": the kind ends where the blanks began */
        if (ke == w.begin)
            return -1;
    }
    uint32_t kb = ke;
    while (kb > 0 && (feat_ident_char(t[kb - 1]) && t[kb - 1] != '.'))
        kb--;
    if (kb == ke)
        return -1;
    size_t n = ke - kb;
    const char *key = t + kb;
    /* the tile-type keys are named as their enum kinds */
    for (int k = 0; k < EK_COUNT; k++)
        if (name_eq(key, n, enum_info[k].kind))
            return k;
    return -1;
}

static const char *enum_meaning(EnumKind k, const char *v, size_t n)
{
    EnumKind lk = k == EK_ADDRESS_SPACE ? EK_LOC : k;
    for (size_t i = 0; i < sizeof enum_docs / sizeof enum_docs[0]; i++)
        if (enum_docs[i].kind == lk && strlen(enum_docs[i].value) == n && memcmp(enum_docs[i].value, v, n) == 0)
            return enum_docs[i].meaning;
    return NULL;
}

/* The first tile-layout location a bare enum value name can have when the
 * key is not written (the compact form's leading "vec, 32x64xf32"). */
static bool tile_body_loc(const Analysis *a, Span w)
{
    const char *t = a->text;
    uint32_t p = w.begin;
    while (p > 0 && t[p - 1] == ' ')
        p--;
    return p >= 5 && (memcmp(t + p - 5, "tile<", 5) == 0 || (p >= 9 && memcmp(t + p - 9, "tile_buf<", 9) == 0));
}

bool feat_hover(const Analysis *a, uint32_t off, StrBuf *md, Span *at)
{
    const AValue *v = analysis_value_at(a, off);
    if (v) {
        *at = v->def;
        if (!covers(v->def, off))
            for (uint32_t i = 0; i < a->nuses; i++)
                if (&a->vals[a->uses[i].value] == v && covers(a->uses[i].span, off)) {
                    *at = a->uses[i].span;
                    break;
                }
        hover_value(a, v, md);
        return true;
    }
    for (uint32_t i = 0; i < a->nops; i++)
        if (covers(a->ops[i].name, off) && a->ops[i].kind < OP_COUNT) {
            *at = a->ops[i].name;
            hover_op(a->ops[i].kind, md);
            return true;
        }
    Span w = word_at(a, off);
    if (w.end == w.begin)
        return false;
    int k = enum_kind_before(a, w);
    if (k < 0 && tile_body_loc(a, w))
        k = EK_LOC;
    if (k < 0)
        return false;
    if (enum_lookup((EnumKind)k, a->text + w.begin, w.end - w.begin) < 0)
        return false;
    const char *meaning = enum_meaning((EnumKind)k, a->text + w.begin, w.end - w.begin);
    *at = w;
    sb_printf(md, "`%.*s` (%s): ", (int)(w.end - w.begin), a->text + w.begin, enum_info[k].kind);
    if (meaning) {
        sb_printf(md, "%s\n", meaning);
    } else {
        char list[256];
        enum_expected_list((EnumKind)k, list, sizeof list);
        sb_printf(md, "one of %s\n", list);
    }
    return true;
}

/* ---- completion --------------------------------------------------------------- */

static void push_item(FeatItems *it, const char *label, size_t n, const char *detail, int kind)
{
    xgrow32((void **)&it->v, &it->cap, (size_t)it->n + 1, sizeof *it->v);
    char *l = xmalloc(n + 1);
    memcpy(l, label, n);
    l[n] = '\0';
    it->v[it->n++] = (FeatItem){l, detail, kind};
}

/* An item unless one of that label is in the list already (short lists: a scan). */
static void add_item(FeatItems *it, const char *label, size_t n, const char *detail, int kind)
{
    for (uint32_t i = 0; i < it->n; i++)
        if (strlen(it->v[i].label) == n && memcmp(it->v[i].label, label, n) == 0)
            return;
    push_item(it, label, n, detail, kind);
}

void feat_items_free(FeatItems *it)
{
    for (uint32_t i = 0; i < it->n; i++)
        free(it->v[i].label);
    free(it->v);
    it->v = NULL;
    it->n = it->cap = 0;
}

static void add_enum_values(FeatItems *out, EnumKind k)
{
    const EnumInfo *e = &enum_info[k];
    for (int i = 0; i < e->count; i++)
        add_item(out, e->names[i], strlen(e->names[i]), enum_meaning(k, e->names[i], strlen(e->names[i])),
                 CK_ENUM_MEMBER);
}

/* Is offset inside the <...> of a tile type? Scans back on the line. */
static bool in_tile_type(const Analysis *a, uint32_t off)
{
    const char *t = a->text;
    int depth = 0;
    for (uint32_t p = off; p > 0; p--) {
        char c = t[p - 1];
        if (c == '\n' || c == '\r')
            return false;
        if (c == '>')
            depth++;
        if (c == '<') {
            if (depth > 0) {
                depth--;
                continue;
            }
            /* t[p - 1] is the '<' */
            return (p >= 10 && memcmp(t + p - 10, "!pto.tile", 9) == 0) ||
                   (p >= 14 && memcmp(t + p - 14, "!pto.tile_buf", 13) == 0);
        }
    }
    return false;
}

/* The op whose outs(...) closes before offset at on the same line, if it takes clauses
 * after outs (op_tail_clauses); OP_COUNT otherwise. */
static OpKind clause_op_before(const Analysis *a, uint32_t at)
{
    const char *t = a->text;
    uint32_t ls = at;
    while (ls > 0 && t[ls - 1] != '\n' && t[ls - 1] != '\r')
        ls--;
    OpKind k = OP_COUNT;
    for (uint32_t p = ls; p < at && k == OP_COUNT;) { /* the line's first dotted word */
        uint32_t e = p;
        while (e < at && (feat_ident_char(t[e]) || t[e] == '.'))
            e++;
        if (e > p && memchr(t + p, '.', e - p))
            k = op_lookup(t + p, e - p);
        if (e > p && k == OP_COUNT && !memchr(t + p, '.', e - p) && t[p] != '%')
            break;
        p = e > p ? e : p + 1;
    }
    int n;
    if (k == OP_COUNT || !op_tail_clauses(k, &n))
        return OP_COUNT;
    const char *o = NULL;
    for (uint32_t p = ls; p + 5 <= at; p++)
        if (memcmp(t + p, "outs(", 5) == 0)
            o = t + p;
    if (!o)
        return OP_COUNT;
    int depth = 0;
    bool closed = false;
    for (const char *q = o + 4; q < t + at; q++) {
        depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
        closed |= depth == 0;
    }
    return closed && depth == 0 ? k : OP_COUNT;
}

void feat_complete(const Analysis *a, uint32_t off, FeatItems *out, Span *repl)
{
    const char *t = a->text;
    if (off > a->len)
        off = (uint32_t)a->len;
    uint32_t b = off;
    while (b > 0 && (feat_ident_char(t[b - 1]) || t[b - 1] == '%'))
        b--;
    /* an SSA name being typed: the values of the enclosing function defined before */
    const char *pct = memchr(t + b, '%', off - b);
    if (pct) {
        b = (uint32_t)(pct - t);
        *repl = (Span){b, off};
        const AFunc *f = analysis_func_at(a, off);
        if (!f)
            return;
        /* each name once (a function may hold 100,000 values): a hash set, not a scan */
        StrSet seen = {0};
        for (uint32_t i = 0; i < f->nvalues; i++) {
            const AValue *v = &a->vals[f->first_value + i];
            if (v->undefined || v->def.begin >= b || v->name.len == 0 || !strset_add(&seen, v->name.p, v->name.len))
                continue;
            StrBuf nm = {0};
            sb_putc(&nm, '%');
            sb_putn(&nm, v->name.p, v->name.len);
            push_item(out, nm.p, nm.len, NULL, CK_VARIABLE);
            sb_free(&nm);
        }
        strset_free(&seen);
        return;
    }
    /* the word typed so far, without '.' splitting: op names contain dots */
    *repl = (Span){b, off};
    Span w = {b, off};
    /* #pto<KIND VALUE / #pto.KIND<VALUE / KEY=VALUE */
    Span wv = word_at(a, off);
    wv.end = off;
    int k = enum_kind_before(a, wv);
    if (k >= 0) {
        *repl = wv;
        add_enum_values(out, (EnumKind)k);
        return;
    }
    if (wv.begin >= 5 && memcmp(t + wv.begin - 5, "#pto<", 5) == 0) {
        *repl = wv;
        for (int i = 0; i < EK_COUNT; i++)
            if (!enum_info[i].dotted && i != EK_LOC && i != EK_BLAYOUT && i != EK_SLAYOUT)
                add_item(out, enum_info[i].kind, strlen(enum_info[i].kind), NULL, CK_ENUM_MEMBER);
        return;
    }
    if (in_tile_type(a, off)) {
        *repl = wv;
        /* KEY=partial: the values of the key */
        uint32_t p = wv.begin;
        if (p > 0 && t[p - 1] == '=') {
            uint32_t kb = p - 1;
            while (kb > 0 && feat_ident_char(t[kb - 1]))
                kb--;
            size_t n = p - 1 - kb;
            if (n == 5 && memcmp(t + kb, "dtype", 5) == 0) {
#define X(id, s, bits, kind, rt, vec, lp) add_item(out, s, sizeof s - 1, NULL, CK_ENUM_MEMBER);
                DTYPE_LIST(X)
#undef X
            } else if (n == 7 && memcmp(t + kb, "fractal", 7) == 0) {
                add_item(out, "512", 3, "the default", CK_ENUM_MEMBER);
                add_item(out, "1024", 4, "16x16 elements", CK_ENUM_MEMBER);
                add_item(out, "32", 2, "16x2 or 2x16 elements (MX scales)", CK_ENUM_MEMBER);
            } else if (n == 3 && memcmp(t + kb, "pad", 3) == 0) {
                add_item(out, "0", 1, "null", CK_ENUM_MEMBER);
                add_item(out, "1", 1, "zero", CK_ENUM_MEMBER);
                add_item(out, "2", 1, "max", CK_ENUM_MEMBER);
                add_item(out, "3", 1, "min", CK_ENUM_MEMBER);
            } else if (n == 7 && memcmp(t + kb, "compact", 7) == 0) {
                add_item(out, "0", 1, "null", CK_ENUM_MEMBER);
                add_item(out, "1", 1, "normal", CK_ENUM_MEMBER);
                add_item(out, "2", 1, "row_plus_one", CK_ENUM_MEMBER);
            }
            return;
        }
        for (size_t i = 0; i < sizeof tile_keys / sizeof tile_keys[0]; i++) {
            StrBuf kv = {0};
            sb_puts(&kv, tile_keys[i]);
            sb_putc(&kv, '=');
            add_item(out, kv.p, kv.len, tile_key_docs[i], CK_FIELD);
            sb_free(&kv);
        }
        add_enum_values(out, EK_LOC); /* the compact form starts with the space */
        return;
    }
    /* after an op's closed outs(...) on its line: the op's clauses (pto.tload's padding) */
    OpKind ck = clause_op_before(a, b);
    if (ck != OP_COUNT) {
        int n;
        const TailClause *c = op_tail_clauses(ck, &n);
        for (int i = 0; i < n; i++)
            add_item(out, c[i].word, strlen(c[i].word), NULL, CK_KEYWORD);
        return;
    }
    /* op names (and their aliases), and the structural keywords */
    (void)w;
    for (int i = 0; i < OP_COUNT; i++) {
        const OpInfo *in = op_info((OpKind)i);
        if (op_lookup(in->name, strlen(in->name)) != (OpKind)i)
            continue; /* a second row of one spelling (tdivs with the scalar first) */
        add_item(out, in->name, strlen(in->name), in->summary, CK_FUNCTION);
    }
    static const char *const kws[] = {"func.func", "module", "attributes"};
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        add_item(out, kws[i], strlen(kws[i]), NULL, CK_KEYWORD);
}

/* ---- inlay hints ----------------------------------------------------------------- */

static void add_hint(FeatHints *h, uint32_t at, const char *label)
{
    xgrow32((void **)&h->v, &h->cap, (size_t)h->n + 1, sizeof *h->v);
    h->v[h->n++] = (FeatHint){at, strcpy(xmalloc(strlen(label) + 1), label)};
}

void feat_hints_free(FeatHints *h)
{
    for (uint32_t i = 0; i < h->n; i++)
        free(h->v[i].label);
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}

static int cmp_hint(const void *x, const void *y)
{
    const FeatHint *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

void feat_inlay_hints(const Analysis *a, uint32_t begin, uint32_t end, FeatHints *out)
{
    if (!a->assembled)
        return;
    const Module *m = a->m;
    char label[256];
    for (uint32_t i = 0; i < m->nplaces; i++) {
        const Placement *p = &m->places[i];
        if (p->value >= p->f->nvalues)
            continue;
        /* only bindings at a value's definition in the source: alloc_tile results,
         * tile arguments, Level 1 results (not pto.tassign rebindings, not scratch) */
        const AFunc *af = NULL;
        for (uint32_t k = 0; k < a->nfuncs && !af; k++)
            if (a->funcs[k].f == p->f)
                af = &a->funcs[k];
        if (!af || p->value >= af->nvalues)
            continue;
        const AValue *v = &a->vals[af->first_value + p->value];
        if (v->def.begin != p->def.begin || v->def.end != p->def.end)
            continue;
        if (v->def.end < begin || v->def.end > end)
            continue;
        snprintf(label, sizeof label, "@%lld", (long long)p->addr);
        add_hint(out, v->def.end, label);
    }
    for (uint32_t i = 0; i < m->nfmem; i++) {
        const FuncMemory *fm = &m->fmem[i];
        Span at = fm->f->name_span;
        if (at.end < begin || at.end > end)
            continue;
        StrBuf b = {0};
        sb_puts(&b, "peak");
        const char *sep = " ";
        for (int loc = 0; loc < LOC_COUNT; loc++) {
            if (fm->peak[loc] < 0)
                continue;
            sb_printf(&b, "%s%s %lld/%lld", sep, enum_info[EK_LOC].names[loc], (long long)fm->peak[loc],
                      (long long)fm->capacity[loc]);
            sep = ", ";
        }
        if (b.len > 4)
            add_hint(out, at.end, b.p);
        sb_free(&b);
    }
    if (out->n > 1) /* qsort of no hints would pass it a null array */
        qsort(out->v, out->n, sizeof *out->v, cmp_hint);
}
