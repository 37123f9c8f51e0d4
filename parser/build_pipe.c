/* build_pipe.c - the builders of the pipe, FIFO and synchronization ops (issue 23;
 * docs/language.md "Pipes, FIFOs and synchronization"): PTOAS's custom forms read by the
 * OP_FIFO, OP_SYNC, OP_SYNCALL and OP_MTGET rules of parser.y. Only the form is checked
 * here; the rules are verify_pipe.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "parser.h"
#include "build.h"
#include "pipe.h"

static const char *op_name(OpKind k) { return op_info(k)->name; }

/* Does s contain w? */
static bool has_word(Str s, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= s.len; i++)
        if (memcmp(s.p + i, w, n) == 0)
            return true;
    return false;
}

/* Operands in role order: the uses (spans) and the types written at them (NULL: none). */
typedef struct Slots {
    Span use[MAX_ROLES];
    const Type *ty[MAX_ROLES];
    bool set[MAX_ROLES];
} Slots;

/* Fills d's operands from the slots, in role order. */
static void slots_to_draft(Parser *p, Draft *d, const Slots *s)
{
    const OpInfo *in = op_info(d->kind);
    Span *uses = arena_alloc(&p->m->arena, MAX_ROLES * sizeof *uses);
    const Type **tys = arena_zalloc(&p->m->arena, MAX_ROLES * sizeof *tys);
    uint32_t n = 0;
    memset(d->seg, 0, sizeof d->seg);
    for (int r = 0; r < in->nroles; r++)
        if (s->set[r]) {
            uses[n] = s->use[r];
            tys[n++] = s->ty[r];
            d->seg[r] = 1;
        }
    d->n = n;
    d->uses = uses;
    d->utys = tys;
}

/* Puts use u (typed t) in role r of op k; false (reported) when the op has no such role or
 * it is taken. */
static bool slot_put(Parser *p, Slots *s, OpKind k, RoleId r, Span key, Span u, const Type *t)
{
    int i = op_role(k, r);
    if (i < 0) {
        Str w = pb_text(p, key);
        ERR(key, "unexpected initialize_pipe operand '%.*s'", (int)w.len, w.p);
        return false;
    }
    if (s->set[i]) {
        ERR(key, "duplicate '%s' operand", role_name(r));
        return false;
    }
    s->set[i] = true;
    s->use[i] = u;
    s->ty[i] = t;
    return true;
}

static bool is_init(OpKind k) { return k == OP_AIC_INITIALIZE_PIPE || k == OP_AIV_INITIALIZE_PIPE; }

/* The operands in `( ... )` after the op name. */
static bool fifo_parens(Parser *p, Draft *d, Slots *s, TypedUses o, const Span *uses, const Type *const *tys)
{
    OpKind k = d->kind;
    if (!o.uses)
        return true;
    const Type *index = type_scalar(&p->m->types, DT_INDEX);
    if ((k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV) && o.uses == 2 && o.state == TU_BARE) {
        slot_put(p, s, k, ROLE_VALID_ROW, uses[0], uses[0], index);
        slot_put(p, s, k, ROLE_VALID_COL, uses[1], uses[1], index);
        return true;
    }
    RoleId r = k == OP_TFREE_FROM_AIC || k == OP_TFREE_FROM_AIV ? ROLE_ENTRY
               : k == OP_SET_QUANT_SCALAR                         ? ROLE_SCALE
               : k == OP_SET_QUANT_VECTOR                         ? ROLE_SCALING_TILE
                                                                  : ROLE_TILE;
    if (o.uses == 1 && o.types == 1 && op_role(k, r) >= 0) {
        slot_put(p, s, k, r, uses[0], uses[0], tys[0]);
        return true;
    }
    ERR(uses[0], "'%s' op expects %s here", op_name(k),
        k == OP_TPOP_FROM_AIC || k == OP_TPOP_FROM_AIV ? "'(%valid_row, %valid_col)'"
        : op_role(k, r) >= 0                         ? "one typed operand '(%v : T)'"
                                                     : "no operands");
    return false;
}

/* The keyword operands after the attributes: initialize_pipe's `(kw = %v : T, ...)` or
 * `aiv_subblockid(%v)`. */
static bool fifo_kws(Parser *p, Draft *d, Slots *s, uint32_t nkw, const Type *const *tys)
{
    const KwOperand *kw = p->kws + p->nkws - nkw;
    for (uint32_t i = 0; i < nkw; i++) {
        Str w = pb_text(p, kw[i].key);
        Span u = p->uses[kw[i].first];
        RoleId r = role_lookup(w.p, w.len);
        if (is_init(d->kind)) {
            if (r != ROLE_GM_SLOT_BUFFER && r != ROLE_GM_SLOT_TENSOR && r != ROLE_C2V_CONSUMER_BUF &&
                r != ROLE_V2C_CONSUMER_BUF) {
                ERR(kw[i].key, "unexpected initialize_pipe operand '%.*s'", (int)w.len, w.p);
                return false;
            }
            if (!slot_put(p, s, d->kind, r, kw[i].key, u, tys[i]))
                return false;
            continue;
        }
        if (r != ROLE_AIV_SUBBLOCKID || op_role(d->kind, r) < 0) {
            ERR(kw[i].key, "'%s' op does not take '%.*s' here", op_name(d->kind), (int)w.len, w.p);
            return false;
        }
        if (!slot_put(p, s, d->kind, r, kw[i].key, u, type_scalar(&p->m->types, DT_I64)))
            return false;
    }
    return true;
}

/* PTOAS's integer attribute types: written untyped in the custom form. */
static void type_int_attrs(Attr *a, uint32_t n)
{
    static const char *const i32_keys[] = {"id", "slot_size", "slot_num", "local_slot_num", "size", "base"};
    for (uint32_t i = 0; i < n; i++) {
        AttrValue *v = a[i].val;
        if (!v || v->kind != AV_INT || v->type != DT_NONE)
            continue;
        if (STR_EQ_LIT(a[i].key, "dir_mask") || STR_EQ_LIT(a[i].key, "split"))
            v->type = DT_I8;
        for (size_t j = 0; j < sizeof i32_keys / sizeof i32_keys[0]; j++)
            if (str_eq(a[i].key, i32_keys[j], strlen(i32_keys[j])))
                v->type = DT_I32;
    }
}

/* The attributes a custom form must carry (MLIR's "expected 'KEY'" of the format). */
static bool fifo_attrs(Parser *p, Draft *d)
{
    static const char *const need_reserve[] = {"name", "size", "location", "auto", NULL};
    static const char *const need_import[] = {"name", "peer_func", NULL};
    static const char *const need_init[] = {"dir_mask", "slot_size", NULL};
    static const char *const need_split[] = {"split", NULL};
    static const char *const need_id[] = {"id", NULL};
    OpKind k = d->kind;
    const char *const *need = k == OP_RESERVE_BUFFER           ? need_reserve
                              : k == OP_IMPORT_RESERVED_BUFFER ? need_import
                              : is_init(k)                     ? need_init
                              : k == OP_SET_QUANT_SCALAR || k == OP_SET_QUANT_VECTOR ? need_id
                                                               : need_split;
    for (int i = 0; need[i]; i++)
        if (!ir_attr_find(d->attrs, d->nattrs, need[i])) {
            ERR(d->name, is_init(k) ? "expected '%s' clause" : "'%s' op expects '%s = ...'",
                is_init(k) ? need[i] : op_name(k), need[i]);
            return false;
        }
    for (uint32_t i = 0; i < d->nattrs && k == OP_RESERVE_BUFFER; i++)
        if (STR_EQ_LIT(d->attrs[i].key, "auto")) /* the format's `auto` is attribute autoAlloc */
            d->attrs[i].key = (Str){"autoAlloc", 9};
    type_int_attrs(d->attrs, d->nattrs);
    return true;
}

static bool has_result(OpKind k) { return pipe_op_results(k) > 0; }

void pb_op_fifo(Parser *p, Span name, TypedUses opnds, uint32_t nattrs, uint32_t nkw, const Type *rty, Span rspan)
{
    Draft d;
    uint32_t nuses = opnds.uses + nkw;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    if (d.bad || p->ntys < opnds.types + nkw || opnds.state < 0) {
        pb_emit_broken(p, &d);
        return;
    }
    const Span *uses = p->uses + p->nuses - nuses;
    const Type *const *tys = p->tys + p->ntys - opnds.types - nkw;
    Slots s;
    memset(&s, 0, sizeof s);
    bool ok = fifo_parens(p, &d, &s, opnds, uses, tys) && fifo_kws(p, &d, &s, nkw, tys + opnds.types) &&
              fifo_attrs(p, &d);
    slots_to_draft(p, &d, &s);
    d.nres = rty ? 1 : 0;
    d.rtys = &rty;
    d.rspans = &rspan;
    if (ok && has_result(d.kind) && !rty) {
        ERR(name, "'%s' op expects '-> T' after its attributes", op_name(d.kind));
        ok = false;
    } else if (ok && !has_result(d.kind) && rty) {
        ERR(rspan, "'%s' op has no result", op_name(d.kind));
        ok = false;
    }
    if (!ok || !pb_bind_results(p, &d, d.nres)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* ---- the sync ops --------------------------------------------------------------------- */

/* `<V>` at a position whose attribute kind is `kind`: the attribute #pto.KIND<V>. */
static AttrValue *stripped_attr(Parser *p, const char *kind, Span whole, Span inner)
{
    Str v = pb_text(p, inner);
    char buf[160];
    int n = snprintf(buf, sizeof buf, "#pto.%s<%.*s>", kind, (int)v.len, v.p);
    AttrValue *a = pb_new_aval(p, AV_OPAQUE, whole);
    a->u.s = (Str){arena_strndup(&p->m->arena, buf, (size_t)n), (uint32_t)n};
    return a;
}

static Attr *attr_append(Parser *p, Draft *d, const char *key, AttrValue *v, Span at)
{
    Attr *na = arena_alloc(&p->m->arena, (d->nattrs + 1) * sizeof *na);
    if (d->nattrs)
        memcpy(na, d->attrs, d->nattrs * sizeof *na);
    na[d->nattrs] = (Attr){.key = {key, (uint32_t)strlen(key)}, .span = at, .val = v};
    d->attrs = na;
    return &na[d->nattrs++];
}

/* One positional item of a sync op into an attribute or an operand. */
static bool sync_item(Parser *p, Draft *d, Slots *s, const SyncItem *it, const ClauseItem *c)
{
    AttrValue *v = c->val;
    if (c->kind == CL_OPERAND) {
        if (it->kind != SI_OPERAND && it->kind != SI_INT_OR_OPERAND) {
            ERR(c->value, "'%s' op expects an attribute for '%s'", op_name(d->kind), it->key);
            return false;
        }
        s->set[0] = true; /* a sync op's one operand role */
        s->use[0] = c->value;
        s->ty[0] = type_scalar(&p->m->types, DT_INDEX);
        return true;
    }
    if (c->kind == CL_STRIPPED) {
        if (it->kind != SI_ATTR && it->kind != SI_ANY) {
            ERR(c->value, "'%s' op expects %s for '%s'", op_name(d->kind),
                it->kind == SI_OPERAND ? "an index operand" : "an integer", it->key);
            return false;
        }
        v = stripped_attr(p, it->attr, c->value, c->inner);
    } else if (!v) {
        return false; /* reported */
    } else if (it->kind == SI_INT || it->kind == SI_INT_OR_OPERAND) {
        if (v->kind != AV_INT) {
            ERR(c->value, "'%s' op expects an integer for '%s'", op_name(d->kind), it->key);
            return false;
        }
        if (v->type == DT_NONE)
            v->type = DT_I32;
    } else if (it->kind == SI_OPERAND) {
        ERR(c->value, "'%s' op expects an index operand for '%s'", op_name(d->kind), it->key);
        return false;
    } else if (v->kind != AV_OPAQUE && v->kind != AV_ENUM) {
        ERR(c->value, "'%s' op expects a #pto.%s attribute for '%s'", op_name(d->kind), it->attr, it->key);
        return false;
    }
    attr_append(p, d, it->key, v, c->value);
    return true;
}

void pb_op_sync(Parser *p, Span name, uint32_t nitems, uint32_t nattrs, const Type *rty, Span rspan)
{
    Draft d;
    uint32_t nuses = 0;
    const ClauseItem *items = p->clauses + p->nclauses - nitems;
    for (uint32_t i = 0; i < nitems; i++)
        nuses += items[i].kind == CL_OPERAND;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    const SyncForm *f = sync_form(d.kind);
    int min = 0, max = f ? f->n : 0;
    for (int i = 0; f && i < f->n; i++)
        min += !f->items[i].optional;
    bool ok = !d.bad;
    if (ok && ((int)nitems < min || (int)nitems > max)) {
        if (max == 0)
            ERR(items[0].value, "'%s' op takes no operands", op_name(d.kind));
        else
            ERR(name, "'%s' op expects %d item%s", op_name(d.kind), max, max == 1 ? "" : "s");
        ok = false;
    }
    Slots s;
    memset(&s, 0, sizeof s);
    for (uint32_t i = 0; ok && i < nitems; i++)
        ok = sync_item(p, &d, &s, &f->items[i], &items[i]);
    slots_to_draft(p, &d, &s);
    if (ok && (d.kind == OP_GET_BUF || d.kind == OP_RLS_BUF) && !ir_attr_find(d.attrs, d.nattrs, "mode")) {
        AttrValue *zero = pb_new_aval(p, AV_INT, name); /* PTOAS's parser sets the default mode */
        zero->type = DT_I32;
        attr_append(p, &d, "mode", zero, name);
    }
    bool id = op_info(d.kind)->cls == OC_BLOCK_ID;
    for (uint32_t i = 0; i < d.nattrs; i++) /* PTOAS's I32Attrs, written untyped */
        if (d.attrs[i].val && d.attrs[i].val->kind == AV_INT && d.attrs[i].val->type == DT_NONE &&
            (STR_EQ_LIT(d.attrs[i].key, "mode") || STR_EQ_LIT(d.attrs[i].key, "ffts_mode")))
            d.attrs[i].val->type = DT_I32;
    if (ok && rty) {
        ERR(rspan, "'%s' op has no result type to write", op_name(d.kind));
        ok = false;
    }
    const Type *i64 = type_scalar(&p->m->types, DT_I64);
    d.nres = id ? 1 : 0;
    d.rtys = &i64;
    if (!ok || !pb_bind_results(p, &d, d.nres)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* MLIR prefixes the errors of an op's custom parser (PTOAS's SyncAllOp::parse) */
#define SYNCALL_PARSE "custom op 'pto.syncall' "

/* pto.syncall(%ws, %n : T1, T2) mode = M, core_type = C {attrs} */
void pb_op_syncall(Parser *p, Span name, uint32_t nuses, uint32_t ntypes, Span kw1, AttrValue *mode, Span kw2,
                   AttrValue *core, uint32_t nattrs)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    bool ok = !d.bad;
    if (ok && !STR_EQ_LIT(pb_text(p, kw1), "mode")) {
        ERR(kw1, "expected 'mode'");
        ok = false;
    } else if (ok && !STR_EQ_LIT(pb_text(p, kw2), "core_type")) {
        ERR(kw2, "expected 'core_type'");
        ok = false;
    } else if (ok && (!mode || mode->kind != AV_OPAQUE || !has_word(mode->u.s, "sync_all_mode"))) {
        if (mode)
            ERR(mode->span, SYNCALL_PARSE "expects mode to be #pto.sync_all_mode<...>");
        ok = false;
    } else if (ok && (!core || core->kind != AV_OPAQUE || !has_word(core->u.s, "sync_core_type"))) {
        if (core)
            ERR(core->span, SYNCALL_PARSE "expects core_type to be #pto.sync_core_type<...>");
        ok = false;
    } else if (ok && ntypes != nuses) {
        ERR(name, SYNCALL_PARSE "expects the same number of operands and operand types");
        ok = false;
    }
    Slots s;
    memset(&s, 0, sizeof s);
    if (ok) {
        bool hard = has_word(mode->u.s, "<hard>");
        if (hard && nuses) {
            ERR(mode->span, SYNCALL_PARSE "expects hard syncall to have no operands");
            ok = false;
        } else if (!hard && (nuses < 1 || nuses > 2)) {
            ERR(mode->span, SYNCALL_PARSE "expects soft syncall to have gm_workspace and optional used_cores");
            ok = false;
        }
        const Span *uses = p->uses + p->nuses - nuses;
        const Type *const *tys = p->tys + p->ntys - ntypes;
        for (uint32_t i = 0; ok && i < nuses; i++) {
            s.set[i] = true;
            s.use[i] = uses[i];
            s.ty[i] = tys[i];
        }
        attr_append(p, &d, "mode", mode, kw1);
        attr_append(p, &d, "core_type", core, kw2);
    }
    slots_to_draft(p, &d, &s);
    if (!ok || !pb_bind_results(p, &d, 0)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* pto.multi_tile_get %mb[%k] {attrs} : M -> T */
void pb_op_multi_tile_get(Parser *p, Span name, uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts)
{
    Draft d;
    (void)fs;
    pb_draft_init(p, &d, name, FORM_L2, 2, nattrs);
    const Type **utys = arena_zalloc(&p->m->arena, 2 * sizeof *utys);
    utys[0] = from;
    utys[1] = type_scalar(&p->m->types, DT_INDEX);
    d.utys = utys;
    d.seg[0] = d.seg[1] = 1;
    d.nres = 1;
    d.rtys = &to;
    d.rspans = &ts;
    if (d.bad || !pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* ---- types and attributes inside types ---------------------------------------------- */
void pb_nested_type(Parser *p, Span name, Span whole, uint32_t start)
{
    Str open = pb_text(p, p->open_type);
    if (!STR_EQ_LIT(open, "!pto.multi_tile_buf")) { /* only a multi-buffer nests a type */
        ERR(((Span){name.end, name.end + 1}), "expected '>' to close '%.*s<', but got '<'", (int)open.len, open.p);
        p->ntitems = start;
        p->nested = NULL;
        pb_push_titem(p, (Span){0, 0}, whole, T_TYPE_MEMO);
        return;
    }
    size_t n = p->ntitems;
    TypeItem *outer = start ? xmalloc(start * sizeof *outer) : NULL;
    if (start)
        memcpy(outer, p->titems, start * sizeof *outer);
    memmove(p->titems, p->titems + start, (n - start) * sizeof *p->titems);
    p->ntitems = n - start;
    p->nested = pb_param_type(p, name, whole);
    if (start)
        memcpy(p->titems, outer, start * sizeof *outer);
    free(outer);
    p->ntitems = start;
    pb_push_titem(p, (Span){0, 0}, whole, T_TYPE_MEMO);
}

AttrValue *pb_attr_keyed(Parser *p, Span hash, Span whole)
{
    Str h = pb_text(p, hash);
    if (h.len <= 5 || memcmp(h.p, "#pto.", 5) != 0) {
        ERR(hash, "unknown attribute '%.*s'", (int)h.len, h.p);
        return NULL;
    }
    /* #pto.acc_push_epilogue's enum parameters: PTOAS's FixpipeLayout/Quant/Relu values */
    static const char *const layouts[] = {"nz2nd", "nz2dn", "nz2nz", NULL};
    static const char *const quants[] = {"no_convert", "f32_f16", "f32_bf16", "req8_scalar", "req8_vec",
                                         "deqf16_scalar", "deqf16_vec", "qf322b8_pre_scalar", "qf322b8_pre_vec",
                                         "qf322f16_pre_scalar", "qf322bf16_pre_scalar", "qs322bf16_pre_scalar",
                                         "qs322bf16_pre_vec", "qf322hif8_pre_scalar", "qf322fp8_pre_scalar", NULL};
    static const char *const relus[] = {"no_relu", "normal_relu", NULL};
    Str t = pb_text(p, whole);
    for (uint32_t i = 0; STR_EQ_LIT(h, "#pto.acc_push_epilogue") && i < t.len; i++) {
        if (t.p[i] != '=')
            continue;
        uint32_t k = i, ke, vb = i + 1, ve;
        while (k > 0 && (t.p[k - 1] == ' ' || t.p[k - 1] == '\t' || t.p[k - 1] == '\n' || t.p[k - 1] == '\r'))
            k--;
        ke = k;
        while (k > 0 && (t.p[k - 1] == '_' || (t.p[k - 1] >= 'a' && t.p[k - 1] <= 'z')))
            k--;
        while (vb < t.len && (t.p[vb] == ' ' || t.p[vb] == '\t' || t.p[vb] == '\n' || t.p[vb] == '\r'))
            vb++;
        for (ve = vb; ve < t.len && t.p[ve] != ',' && t.p[ve] != '>' && t.p[ve] > ' '; ve++)
            ;
        Str key = {t.p + k, ke - k}, val = {t.p + vb, ve - vb};
        const char *const *names = STR_EQ_LIT(key, "layout") ? layouts : STR_EQ_LIT(key, "quant") ? quants
                                   : STR_EQ_LIT(key, "relu")                                   ? relus
                                                                                               : NULL;
        const char *cpp = names == layouts ? "FixpipeLayout" : names == quants ? "FixpipeQuant" : "FixpipeRelu";
        bool found = false;
        for (int j = 0; names && names[j]; j++)
            found |= name_eq(val.p, val.len, names[j]);
        if (names && !found) {
            char list[512] = "";
            for (int j = 0; names[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", names[j]);
            ERR(pb_sub_span(whole, vb, ve - vb), "expected ::mlir::pto::%s to be one of: %s", cpp, list);
            uint32_t next = ve; /* MLIR's second error: at the token after the value */
            while (next < t.len && (t.p[next] == ' ' || t.p[next] == '\t' || t.p[next] == '\n' || t.p[next] == '\r'))
                next++;
            ERR(pb_sub_span(whole, next, next < t.len ? 1 : 0),
                "failed to parse PTO_AccPushEpilogueAttr parameter '%.*s' which is to be a `::mlir::pto::%s`",
                (int)key.len, key.p, cpp);
            return NULL;
        }
    }
    AttrValue *v = pb_new_aval(p, AV_OPAQUE, whole);
    v->u.s = t;
    return v;
}
