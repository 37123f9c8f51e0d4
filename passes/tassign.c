/* tassign.c - on-chip placement of every tile (docs/memory.md).
 *
 * A placement entry is a buffer between two (re)bindings: an alloc_tile
 * result, a tile argument, or the new binding a pto.tassign starts. Liveness
 * numbers the ops that have tile operands; an entry is live from its first
 * write (or from entry when read first, or when it is an argument) to its
 * last access (to exit for arguments). Pinned entries keep their explicit
 * address and are checked; in auto mode the others are placed first-fit into
 * the lowest free interval over their live range, trying a few orders and
 * keeping the lowest peak, and addresses are materialized as arith.constant
 * + `pto.alloc_tile addr = %c` / `pto.tassign %arg, @tile(A)`. */
#include <stdlib.h>
#include <string.h>
#include "pass.h"
#include "regions.h"

#define NO_ENTRY UINT32_MAX

typedef struct Entry {
    Str name;
    ValueId value;
    const Op *def_op;     /* alloc_tile / tassign op, NULL for an argument */
    Span def;             /* where it is defined, for messages */
    Loc loc;
    int64_t size, asize;  /* bytes, and rounded up to the space's alignment */
    int64_t addr;
    bool pinned, placed, dropped;
    bool dynamic;         /* a pto.tassign or alloc_tile whose address is computed: checked at run time */
    bool is_arg;          /* an argument's first binding: filled by the caller, live from entry */
    bool to_exit;         /* an argument's last binding: read by the caller, live to exit */
    bool implicit;        /* level3: made by bufferize for a Level 1 value, reported at its use */
    int64_t first, last_read, last_write; /* op numbers, -1 = none */
    bool first_is_write;
    int64_t start, end;   /* live range, start -1 = never used */
    bool reported;        /* level3 error already given */
} Entry;

/* One access of an entry, for the loop rule (docs/memory.md section 3). */
typedef struct Access {
    uint32_t entry;
    int64_t k;
    bool write;
    const Block *blk;     /* the block of the op that accesses it */
} Access;

/* An scf.for and the numbers of the first and last numbered op inside it. */
typedef struct Loop {
    const Op *op;
    int64_t lo, hi;
} Loop;

typedef struct T {
    Module *m;
    SourceFile *src;
    Func *f;
    DiagEngine *d;
    const PassConfig *cfg;
    Arch arch;
    Entry *e;
    uint32_t ne, cap;
    uint32_t *cur;        /* value -> current entry */
    uint32_t *op_entry;   /* alloc_tile op (by Op.index) -> its entry */
    int64_t *num;         /* op (by Op.index) -> number, -1 if none */
    int64_t n;            /* numbered ops */
    Access *acc;          /* every access, in order */
    uint32_t nacc, acc_cap;
    Loop *loops;          /* the scf.for ops with numbered ops inside, in pre-order */
    uint32_t nloops, loops_cap;
    struct Rng *rng;      /* value -> its bytes within its entry (views: a part of them) */
    struct NoAlias *noalias; /* ops whose tiles must not share bytes (PTOAS's PlanMemory rule) */
    uint32_t nnoalias, noalias_cap;
    bool errors;
    bool hinted;           /* the overflow hint was given for this function */
} T;

/* The bytes a tile value names within its entry's storage, in PTOAS's terms: the full
 * rows x cols x element size for a tile, the envelope of a subview's window; row and col
 * strides in bytes (0 for boxed layouts, whose views keep the whole parent range). */
typedef struct Rng {
    int64_t off, bytes, rs, cs, es;
} Rng;

/* An op under the no-alias rule: its tile operands and their entries at that op. */
typedef struct NoAlias {
    const Op *op;
    int n;
    ValueId v[MAX_ROLES];
    uint32_t e[MAX_ROLES];
} NoAlias;

/* ---- sizes ---------------------------------------------------------------------- */
static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

static int64_t cap_of(const T *t, Loc loc)
{
    if (t->cfg && t->cfg->mem_size[loc])
        return (int64_t)t->cfg->mem_size[loc];
    return target_capacity(t->arch, loc);
}

/* ---- entries ---------------------------------------------------------------------- */
static uint32_t new_entry(T *t, ValueId v, Str name, const Op *def_op, Span def)
{
    xgrow32((void **)&t->e, &t->cap, t->ne + 1, sizeof *t->e);
    Entry *e = &t->e[t->ne];
    memset(e, 0, sizeof *e);
    const TileBody *b = &t->f->values[v].type->tile;
    e->name = name;
    e->value = v;
    e->def_op = def_op;
    e->def = def;
    e->loc = (Loc)b->loc;
    e->size = target_tile_bytes(b);
    e->asize = round_up(e->size, target_alignment(e->loc));
    e->first = e->last_read = e->last_write = -1;
    return t->ne++;
}

static int64_t const_value(const T *t, ValueId v)
{
    const Value *val = &t->f->values[v];
    return val->def_op->constant->u.i;
}

/* A tile's own range: offset 0, PTOAS's unrounded byte size and its affine strides. */
static Rng tile_rng(const TileBody *b)
{
    int64_t es = dtype_size(b->dtype), plus = b->compact == 2;
    bool rowm = b->blayout == BL_ROW_MAJOR;
    Rng r = {0, b->rows * b->cols * es, 0, 0, es};
    if (plus) {
        int64_t major = rowm ? b->rows : b->cols, minor = rowm ? b->cols : b->rows;
        r.bytes = ((major - 1) * (minor + 1) + minor) * es;
    }
    if (b->slayout == SL_NONE_BOX) {
        r.rs = rowm ? (b->cols + plus) * es : es;
        r.cs = rowm ? es : (b->rows + plus) * es;
    }
    return r;
}

/* A constant operand's value, or -1 when it is not a constant. */
static int64_t const_or_none(const T *t, ValueId v)
{
    int64_t c;
    return ir_const_int(t->f, v, &c) ? c : -1;
}

/* The range a view result names: a subview with constant offsets over an unboxed source is
 * its window's envelope, anything else the source's whole range (a treshape takes the
 * strides of its result type). */
static Rng view_rng(const T *t, const Op *op)
{
    Rng r = t->rng[op->opnds[0]];
    const Type *rt = t->f->values[op->res[0]].type;
    if (!type_is_tile(rt))
        return r;
    if (op->kind == OP_TRESHAPE) {
        Rng own = tile_rng(&rt->tile);
        r.rs = own.rs;
        r.cs = own.cs;
        r.es = own.es;
        return r;
    }
    if (op->kind != OP_SUBVIEW || op->nopnds < 3 || !r.rs || !r.cs)
        return r;
    int64_t row = const_or_none(t, op->opnds[1]), col = const_or_none(t, op->opnds[2]);
    int64_t rows = rt->tile.rows, cols = rt->tile.cols;
    if (row < 0 || col < 0)
        return r;
    int64_t off = row * r.rs + col * r.cs, span = (rows - 1) * r.rs + (cols - 1) * r.cs + r.es;
    if (off > r.bytes || span > r.bytes - off)
        return r;
    r.off += off;
    r.bytes = span;
    return r;
}

static Str dotted_name(T *t, Str base, unsigned k)
{
    char *buf = arena_alloc(&t->m->arena, base.len + 16);
    memcpy(buf, base.p, base.len);
    Str s = {buf, (uint32_t)(base.len + (size_t)snprintf(buf + base.len, 16, ".%u", k))};
    return s;
}

static void level3_error(T *t, Entry *e, const Op *at)
{
    if (e->reported)
        return;
    e->reported = true;
    t->errors = true;
    diag_error(t->d, at->name_span, "'%s' op requires 'addr' operand when --pto-level=level3",
               op_info(at->kind)->name);
}

static void access(T *t, ValueId v, bool write, int64_t k, const Op *op)
{
    if (v == NO_VALUE || !type_is_tile(t->f->values[v].type) || t->cur[v] == NO_ENTRY)
        return;
    Entry *e = &t->e[t->cur[v]];
    /* level3: tiles the function makes need addresses; its tile arguments do
     * not (PTOAS: the caller placed them; they take part in no check here) */
    if (t->cfg->level == LEVEL3 && !e->pinned && !e->is_arg)
        level3_error(t, e, !e->def_op || e->implicit ? op : e->def_op);
    if (e->first < 0) {
        e->first = k;
        e->first_is_write = write;
    }
    xgrow32((void **)&t->acc, &t->acc_cap, (size_t)t->nacc + 1, sizeof *t->acc);
    t->acc[t->nacc++] = (Access){t->cur[v], k, write, op->parent};
    if (write)
        e->last_write = k;
    else
        e->last_read = k;
}

/* A role whose contents before the op do not matter: outs, and temporaries
 * (ROLE_TEMP: tmov's `tmp` is listed among the ins but is scratch, never read for
 * its data, like tquant's). */
static bool role_is_write(const OpInfo *in, int r)
{
    return in->flags[r] & (ROLE_OUT | ROLE_TEMP);
}

/* An operand the op never touches, so it keeps no tile live (PTOAS's planner does not count
 * it as an access, its A5 unused-tmp overflow tests and issue 558): on A5, the tmp of txor,
 * txors, tprelu, tsel and tsels (kept in the operand list, never touched by the instruction)
 * and of the row reductions, arg reductions and row / column broadcasts (a placeholder):
 * PTOPlanMemory.cpp's isIgnoredA5TmpOperandUse. */
static bool untouched(const T *t, const OpInfo *in, int r)
{
    return t->arch == ARCH_A5 && in->rid[r] == ROLE_TMP &&
           (in->variant == VB_XOR || in->variant == VS_XORS || in->variant == VB_PRELU ||
            in->cls == OC_ROW_ARG || in->cls == OC_COL_ARG || in->cls == OC_SEL || in->cls == OC_ROW_REDUCE ||
            in->cls == OC_ROW_EXPAND || in->cls == OC_COL_EXPAND);
}

/* docs/memory.md section 3, loops: an entry used inside a loop is live over the whole
 * loop when it is live before it, live after it, or read in an iteration before that
 * iteration writes it (its first access in the loop is a read, or a write that may not
 * happen: one inside an scf.if or an inner loop; scf.while's two regions both count as
 * the loop's body, an scf.execute_region as the block it stands in). Otherwise, and always for a tile
 * allocated inside the loop, it lives over its uses in one iteration, at the same
 * address in every iteration. Inner loops go first, so an
 * outer loop sees the ranges they extended. */
static bool op_inside(const Op *op, const Op *loop)
{
    for (const Op *up = op ? ir_block_owner(op->parent) : NULL; up; up = ir_block_owner(up->parent))
        if (up == loop)
            return true;
    return false;
}

static void loop_ranges(T *t)
{
    /* the numbered ops each loop contains */
    for (const Op *op = ir_first_op(t->f); op; op = ir_next_op(op)) {
        int64_t k = t->num[op->index];
        if (op->kind == OP_SCF_FOR || op->kind == OP_SCF_WHILE) {
            xgrow32((void **)&t->loops, &t->loops_cap, (size_t)t->nloops + 1, sizeof *t->loops);
            t->loops[t->nloops++] = (Loop){op, -1, -1};
        }
        if (k < 0)
            continue;
        for (const Op *up = ir_block_owner(op->parent); up; up = ir_block_owner(up->parent))
            for (uint32_t l = 0; l < t->nloops; l++)
                if (t->loops[l].op == up) {
                    if (t->loops[l].lo < 0)
                        t->loops[l].lo = k;
                    t->loops[l].hi = k;
                }
    }
    uint32_t *first = xmalloc((t->ne ? t->ne : 1) * sizeof *first);
    for (uint32_t l = t->nloops; l-- > 0;) {
        const Loop *L = &t->loops[l];
        if (L->lo < 0)
            continue;
        /* the blocks every iteration runs from their start: scf.for's body, scf.while's two */
        const Block *body = L->op->regions[0].first;
        const Block *body2 = L->op->kind == OP_SCF_WHILE ? L->op->regions[1].first : NULL;
        for (uint32_t i = 0; i < t->ne; i++)
            first[i] = UINT32_MAX;
        for (uint32_t a = 0; a < t->nacc; a++)
            if (t->acc[a].k >= L->lo && t->acc[a].k <= L->hi && first[t->acc[a].entry] == UINT32_MAX)
                first[t->acc[a].entry] = a;
        for (uint32_t i = 0; i < t->ne; i++) {
            Entry *e = &t->e[i];
            /* an alloc_tile inside the loop is a fresh tile each iteration: nothing to carry */
            if (first[i] == UINT32_MAX || e->start < 0 || op_inside(e->def_op, L->op))
                continue;
            const Access *a = &t->acc[first[i]];
            /* an scf.execute_region runs its ops once where it stands */
            const Block *at = a->blk;
            while (ir_block_owner(at) && ir_block_owner(at)->kind == OP_SCF_EXECUTE_REGION)
                at = ir_block_owner(at)->parent;
            bool carried = !a->write || (at != body && at != body2);
            if (e->start < L->lo || e->end > L->hi || carried) {
                if (e->start > L->lo)
                    e->start = L->lo;
                if (e->end < L->hi)
                    e->end = L->hi;
            }
        }
    }
    free(first);
}

/* tmov with a non-scaling third tile: the X-to-ZZ exponent move. */
static bool is_x2zz(const Func *f, const Op *op)
{
    ValueId val[MAX_ROLES];
    ir_op_roles(op, val);
    ValueId tmp = val[op_role(op->kind, ROLE_TMP)];
    return tmp != NO_VALUE && type_is_tile(f->values[tmp].type) && f->values[tmp].type->tile.loc != LOC_SCALING;
}

/* Walks the ops once: entries, rebindings and accesses. */
/* A pto.alloc_tile: a new entry for its result, pinned when it has an address. */
static void collect_alloc(T *t, const Op *op)
{
    Func *f = t->f;
    uint32_t i = op->index;
    ValueId v = op->res[0];
    uint32_t e = new_entry(t, v, f->values[v].name, op, f->values[v].def);
    t->op_entry[i] = e;
    const Op *ad = op->seg[0] ? f->values[op->opnds[0]].def_op : NULL;
    if (op->seg[0] && ad && ad->kind == OP_CONSTANT) {
        t->e[e].pinned = true;
        t->e[e].addr = const_value(t, op->opnds[0]);
    } else if (op->seg[0] && t->cfg->level == LEVEL3) {
        t->e[e].pinned = true;
        t->e[e].dynamic = true; /* a computed address, as a pto.tassign's (docs/memory.md 5) */
    } else if (op->seg[0]) {
        diag_error(t->d, op->name_span, "'pto.alloc_tile' op with a computed address requires "
                                        "--pto-level=level3");
        t->errors = true;
        t->e[e].dropped = true;
    } else if (t->cfg->level != LEVEL3 && dtype_size(f->values[v].type->tile.dtype) == 0) {
        /* PTOAS's planner sizes a buffer by its element's storage bytes (i1, index
         * and the sub-byte floats have none; alloc_tile's verifier catches the rest) */
        diag_error(t->d, op->name_span, "requires a static local buffer shape and known element byte "
                                        "size for memory planning");
        t->errors = true;
        t->e[e].dropped = true;
    } else if (t->cfg->level == LEVEL3) {
        if (op->synthetic) /* made by bufferize for a Level 1 value or a scratch tile */
            t->e[e].implicit = true; /* the error goes to its first use */
        else
            level3_error(t, &t->e[e], op);
    }
    t->cur[v] = e;
}

/* A pto.tassign: (re)binds a value to an address, a new entry (docs/memory.md 3.1);
 * rebinds counts each value's bindings for the dotted names. */
static void collect_tassign(T *t, const Op *op, unsigned *rebinds)
{
    Func *f = t->f;
    ValueId v = op->opnds[0];
    const Op *vd = f->values[v].def_op;
    if (vd && op_info(vd->kind)->cls == OC_TILE_VIEW) {
        /* a view's bytes are its source's: binding it would split the two */
        diag_error(t->d, op->name_span,
                   "'pto.tassign' op cannot bind the tile view '%%%.*s' to an address; bind the tile it views",
                   (int)f->values[v].name.len, f->values[v].name.p);
        t->errors = true;
        return;
    }
    if (t->cur[v] == NO_ENTRY)
        return;
    Entry *old = &t->e[t->cur[v]];
    bool unused = old->first < 0;
    bool was_arg = old->is_arg;
    Str name;
    if (op->nres)
        name = f->values[op->res[0]].name;
    else if (unused && !rebinds[v])
        name = f->values[v].name;
    else
        name = dotted_name(t, f->values[v].name, ++rebinds[v]);
    uint32_t e = new_entry(t, op->nres ? op->res[0] : v, name, op, op->name_span);
    old = &t->e[t->cur[v]];
    if (unused) {
        old->dropped = true; /* held no data: the new binding replaces it */
        t->e[e].is_arg = was_arg;
    }
    t->e[e].pinned = true;
    const Op *ad = op->has_tile_addr ? NULL : f->values[op->opnds[1]].def_op;
    if (op->has_tile_addr || (ad && ad->kind == OP_CONSTANT)) {
        t->e[e].addr = op->has_tile_addr ? op->tile_addr : const_value(t, op->opnds[1]);
    } else if (t->cfg->level == LEVEL3) {
        t->e[e].dynamic = true; /* docs/memory.md 5: its checks run at run time */
    } else {
        diag_error(t->d, op->name_span, "'pto.tassign' op with a computed address requires "
                                        "--pto-level=level3");
        t->errors = true;
        t->e[e].dropped = true;
    }
    t->cur[v] = e;
    if (op->nres)
        t->cur[op->res[0]] = e;
}

/* A region op's tile results and iter_args name buffers bufferize made one. */
static void collect_region(T *t, const Op *op)
{
    Func *f = t->f;
    /* bufferize made a tile iter_arg, its init and the loop's result one buffer,
     * an scf.if's (scf.execute_region's) tile result the buffer its regions
     * yield, and an scf.while's tile result its init's buffer: names of it */
    RegionEdge in, out;
    bool loop = op->kind == OP_SCF_FOR || op->kind == OP_SCF_WHILE;
    bool has_in = region_edge(op, REGION_PARENT, 0, &in);
    bool has_out = !loop && region_edge(op, 0, REGION_PARENT, &out);
    for (uint32_t r = 0; r < op->nres && op->regions[0].first; r++) {
        ValueId from = NO_VALUE;
        if (loop && has_in && r < in.nsrc) {
            from = in.src[r];
            if (op->kind == OP_SCF_FOR && r < in.ndst)
                t->cur[in.dst[r]] = t->cur[from];
        } else if (has_out && r < out.nsrc) {
            from = out.src[r];
        }
        if (from != NO_VALUE && type_is_tile(f->values[from].type))
            t->cur[op->res[r]] = t->cur[from];
    }
}

/* An op that reads or writes tiles (or a return of tiles): numbered, its accesses. */
static void collect_access(T *t, const Op *op)
{
    Func *f = t->f;
    uint32_t i = op->index;
    const OpInfo *in = op_info(op->kind);
    bool tiles = false;
    for (uint32_t k = 0; k < op->nopnds; k++)
        tiles |= type_is_tile(f->values[op->opnds[k]].type);
    bool is_return = in->cls == OC_RETURN;
    if (!(in->opflags & (OF_READS | OF_WRITES)) && !(is_return && tiles))
        return;
    int64_t k = t->num[i] = t->n++;
    if (op->kind == OP_TQUANT_MX || (op->kind == OP_TMOV && is_x2zz(f, op))) {
        xgrow32((void **)&t->noalias, &t->noalias_cap, t->nnoalias + 1, sizeof *t->noalias);
        NoAlias *na = &t->noalias[t->nnoalias++];
        ValueId rv[MAX_ROLES];
        ir_op_roles(op, rv);
        na->op = op;
        na->n = 0;
        for (int r = 0; r < in->nroles; r++)
            if (rv[r] != NO_VALUE && type_is_tile(f->values[rv[r]].type)) {
                na->v[na->n] = rv[r];
                na->e[na->n++] = t->cur[rv[r]];
            }
    }
    if (is_return) {
        for (uint32_t j = 0; j < op->nopnds; j++)
            access(t, op->opnds[j], false, k, op);
        return;
    }
    ValueId val[MAX_ROLES];
    ir_op_roles(op, val);
    for (int r = 0; r < in->nroles; r++)
        if (!role_is_write(in, r) && !untouched(t, in, r))
            access(t, val[r], false, k, op);
    /* tsetval: one element written, the others read through; taxpy: dst = scalar * src + dst */
    if (in->cls == OC_SETVAL || in->cls == OC_AXPY)
        access(t, val[op_role(op->kind, ROLE_DST)], false, k, op);
    for (int r = 0; r < in->nroles; r++)
        if (role_is_write(in, r) && !untouched(t, in, r))
            access(t, val[r], true, k, op);
}

/* Each entry's live range from its accesses (docs/memory.md 3.2, before the loop rule). */
static void live_ranges(T *t)
{
    for (uint32_t i = 0; i < t->ne; i++) {
        Entry *e = &t->e[i];
        if (e->is_arg && !e->pinned && e->first < 0 && t->cfg->level == LEVEL3)
            e->dropped = true; /* level3: an argument no op touches needs no address */
        if (e->dropped || (e->first < 0 && !e->is_arg)) {
            e->start = -1; /* never used: live nowhere */
        } else {
            e->start = e->is_arg || !e->first_is_write ? 0 : e->first;
            e->end = e->last_read > e->last_write ? e->last_read : e->last_write;
            if (e->to_exit)
                e->end = t->n ? t->n - 1 : 0;
        }
    }
    /* A pinned tile read before any write whose exact bytes another pinned tile wrote
     * (one buffer under two types, docs/memory.md 5) holds that tile's data: it is
     * live from the latest such write before its first read, not from entry. */
    for (uint32_t i = 0; i < t->ne; i++) {
        Entry *e = &t->e[i];
        if (!e->pinned || e->is_arg || e->start != 0 || e->first_is_write || e->first <= 0)
            continue;
        int64_t from = -1;
        for (uint32_t j = 0; j < t->ne; j++) {
            const Entry *a = &t->e[j];
            if (j != i && a->pinned && !a->dropped && a->loc == e->loc && a->addr == e->addr && a->size == e->size &&
                a->start >= 0 && a->last_write >= 0 && a->first <= e->first && (a->first_is_write || a->is_arg))
                from = a->first > from ? a->first : from;
        }
        if (from >= 0)
            e->start = from;
    }
}

static void collect(T *t)
{
    Func *f = t->f;
    t->cur = xmalloc(f->nvalues * sizeof *t->cur);
    for (uint32_t i = 0; i < f->nvalues; i++)
        t->cur[i] = NO_ENTRY;
    uint32_t nops = ir_number_ops(f);
    t->num = xmalloc((nops ? nops : 1) * sizeof *t->num);
    t->op_entry = xmalloc((nops ? nops : 1) * sizeof *t->op_entry);
    unsigned *rebinds = xcalloc(f->nvalues ? f->nvalues : 1, sizeof *rebinds);
    t->rng = xcalloc(f->nvalues ? f->nvalues : 1, sizeof *t->rng);
    for (uint32_t i = 0; i < f->nvalues; i++)
        if (type_is_tile(f->values[i].type))
            t->rng[i] = tile_rng(&f->values[i].type->tile);
    const Block *entry = ir_entry(f);
    for (uint32_t i = 0; i < entry->nargs; i++) {
        ValueId v = entry->args[i];
        if (!type_is_tile(f->values[v].type))
            continue;
        uint32_t e = new_entry(t, v, f->values[v].name, NULL, f->values[v].def);
        t->e[e].is_arg = true;
        t->cur[v] = e;
    }
    t->n = 0;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
        uint32_t i = op->index;
        const OpInfo *in = op_info(op->kind);
        t->num[i] = -1;
        if (in->cls == OC_ALLOC) /* alloc_tile, declare_tile */
            collect_alloc(t, op);
        else if (op->kind == OP_TASSIGN)
            collect_tassign(t, op, rebinds);
        else if (region_op(op->kind))
            collect_region(t, op);
        else if (in->cls == OC_TILE_VIEW && op->nres) {
            /* treshape / subview name their source's bytes: no entry of their own, and
             * every access through them (or a view of them) is an access of the source */
            if (op->nopnds) {
                t->cur[op->res[0]] = t->cur[op->opnds[0]];
                t->rng[op->res[0]] = view_rng(t, op);
            }
        } else if (op->kind == OP_SET_VALIDSHAPE) { /* rewrites the tile's descriptor: a use of it */
            int64_t k = t->num[i] = t->n++;
            access(t, op->opnds[0], false, k, op);
        } else {
            collect_access(t, op);
        }
    }
    free(rebinds);
    /* the caller reads each argument from its last binding */
    for (uint32_t i = 0; i < entry->nargs; i++)
        if (t->cur[entry->args[i]] != NO_ENTRY)
            t->e[t->cur[entry->args[i]]].to_exit = true;
    live_ranges(t);
    loop_ranges(t);
}

/* x's last access is a read at the op whose write starts y, at x's address: the op
 * writes its result over an input it reads for the last time (in place, docs/memory.md 5). */
static bool in_place(const Entry *x, const Entry *y)
{
    return x->addr == y->addr && x->end == y->start && x->last_read == x->end && x->last_write < x->end && !x->to_exit &&
           y->first_is_write && y->first == y->start && !y->is_arg;
}

/* ---- checks on explicit addresses ------------------------------------------------------ */
static bool live_overlap(const Entry *a, const Entry *b)
{
    return a->start >= 0 && b->start >= 0 && a->start <= b->end && b->start <= a->end;
}

static const char *op_name_of(const Entry *e)
{
    return !e->def_op ? "pto.tassign" : op_info(e->def_op->kind)->name;
}

/* Sorts entry indices by start of life (then index), for the time sweeps. */
typedef struct StartKey {
    int64_t start;
    uint32_t idx;
} StartKey;

static int cmp_start_key(const void *x, const void *y)
{
    const StartKey *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void sort_by_start(const T *t, uint32_t *idx, uint32_t n)
{
    StartKey *k = xmalloc((n ? n : 1) * sizeof *k);
    for (uint32_t i = 0; i < n; i++)
        k[i] = (StartKey){t->e[idx[i]].start, idx[i]};
    qsort(k, n, sizeof *k, cmp_start_key);
    for (uint32_t i = 0; i < n; i++)
        idx[i] = k[i].idx;
    free(k);
}

static void check_pinned(T *t)
{
    for (uint32_t i = 0; i < t->ne; i++) {
        Entry *e = &t->e[i];
        if (!e->pinned || e->dropped || e->dynamic)
            continue;
        const char *on = op_name_of(e);
        Span at = !e->def_op ? e->def : e->def_op->name_span;
        int64_t cap = cap_of(t, e->loc), al = target_alignment(e->loc);
        if (e->addr < 0)
            diag_error(t->d, at, "'%s' op addr must be non-negative, got %lld", on, (long long)e->addr);
        else if (e->addr % al)
            diag_error(t->d, at, "'%s' op addr must be aligned to %lld bytes for local tile memory space, got %lld",
                       on, (long long)al, (long long)e->addr);
        else if (e->addr > cap - e->size) /* not addr + size: that overflows near INT64_MAX */
            diag_error(t->d, at, "'%s' op tile at address %lld with size %lld exceeds %s capacity %lld", on,
                       (long long)e->addr, (long long)e->size, enum_info[EK_LOC].names[e->loc], (long long)cap);
        else
            continue;
        t->errors = true;
        e->dropped = true; /* keep it out of the overlap checks and placement */
    }
    /* Overlaps: a sweep over start times keeps only the tiles still live, so
     * the work is (tiles x tiles live at once), not quadratic. For each tile
     * the earliest-defined tile it overlaps is reported, in definition order. */
    uint32_t *order = xmalloc((t->ne ? t->ne : 1) * sizeof *order);
    uint32_t *active = xmalloc((t->ne ? t->ne : 1) * sizeof *active);
    uint32_t *first = xmalloc((t->ne ? t->ne : 1) * sizeof *first);
    uint32_t n = 0, na = 0;
    for (uint32_t i = 0; i < t->ne; i++) {
        first[i] = NO_ENTRY;
        if (t->e[i].pinned && !t->e[i].dropped && !t->e[i].dynamic && t->e[i].start >= 0)
            order[n++] = i;
    }
    sort_by_start(t, order, n);
    for (uint32_t k = 0; k < n; k++) {
        const Entry *b = &t->e[order[k]];
        uint32_t keep = 0;
        for (uint32_t j = 0; j < na; j++) {
            const Entry *a = &t->e[active[j]];
            if (a->end < b->start)
                continue; /* dead before b: never meets a later tile either */
            active[keep++] = active[j];
            if (a->loc != b->loc || a->addr >= b->addr + b->size || b->addr >= a->addr + a->size)
                continue;
            /* the same bytes exactly: one buffer under two types (PyPTO's kernels read an
             * [R, 1] result as [1, R], or write an op's result over its input) */
            if ((a->addr == b->addr && a->size == b->size) || in_place(a, b) || in_place(b, a))
                continue;
            uint32_t later = active[j] > order[k] ? active[j] : order[k];
            uint32_t earlier = active[j] > order[k] ? order[k] : active[j];
            if (first[later] == NO_ENTRY || earlier < first[later])
                first[later] = earlier;
        }
        na = keep;
        active[na++] = order[k];
    }
    for (uint32_t i = 0; i < t->ne; i++) {
        if (first[i] == NO_ENTRY)
            continue;
        const Entry *b = &t->e[i], *a = &t->e[first[i]];
        Span at = !b->def_op ? b->def : b->def_op->name_span;
        /* level3 places every tile by hand and PTOAS lets live tiles share bytes there (an
         * in-place tmov, say): ptoas warns, and the runtime executes the aliasing exactly */
        bool l3 = t->cfg->level == LEVEL3;
        (l3 ? diag_warning : diag_error)(
                   t->d, at, "tile '%%%.*s' at [%lld, %lld) overlaps live tile '%%%.*s' at [%lld, %lld) in %s",
                   (int)b->name.len, b->name.p, (long long)b->addr, (long long)(b->addr + b->size),
                   (int)a->name.len, a->name.p, (long long)a->addr, (long long)(a->addr + a->size),
                   enum_info[EK_LOC].names[b->loc]);
        diag_note(t->d, !a->def_op ? a->def : a->def_op->name_span, "'%%%.*s' defined here",
                  (int)a->name.len, a->name.p);
        t->errors |= !l3;
    }
    free(order);
    free(active);
    free(first);
}

/* PTOAS's PlanMemory no-alias rule, checked once addresses are known: the tiles of an MX
 * tquant (src, dst, exp, max, scaling, exp_zz) and of an X-to-ZZ tmov (src, tmp, dst) share
 * no byte. Two views of one tile compare their ranges within it; two tiles compare
 * addresses when both are alloc_tiles (placed or pinned) in one space. Arguments, whose
 * addresses the caller chooses, are not compared. */
static void check_no_alias(T *t)
{
    for (uint32_t i = 0; i < t->nnoalias; i++) {
        const NoAlias *na = &t->noalias[i];
        const Op *op = na->op;
        const ValueId *tiles = na->v;
        int n = na->n;
        bool found = false;
        for (int a = 0; a < n && !found; a++)
            for (int b = a + 1; b < n && !found; b++) {
                uint32_t ea = na->e[a], eb = na->e[b];
                if (ea == NO_ENTRY || eb == NO_ENTRY)
                    continue;
                const Entry *x = &t->e[ea], *y = &t->e[eb];
                const Rng *p = &t->rng[tiles[a]], *q = &t->rng[tiles[b]];
                int64_t lo1 = p->off, lo2 = q->off;
                /* only alloc_tiles have ranges (PTOAS); an argument's the caller decides */
                if (!x->def_op || op_info(x->def_op->kind)->cls != OC_ALLOC || !y->def_op ||
                    op_info(y->def_op->kind)->cls != OC_ALLOC)
                    continue;
                if (ea != eb) {
                    if (!(x->pinned || x->placed) || !(y->pinned || y->placed) || x->loc != y->loc || x->dropped ||
                        y->dropped)
                        continue;
                    lo1 += x->addr;
                    lo2 += y->addr;
                }
                if (!p->bytes || !q->bytes || lo1 >= lo2 + q->bytes || lo2 >= lo1 + p->bytes)
                    continue;
                found = true;
                const Value *va = &t->f->values[tiles[a]], *vb = &t->f->values[tiles[b]];
                diag_error(t->d, op->name_span, "PlanMemory semantic no-alias violation: operand byte ranges overlap");
                diag_note(t->d, op->name_span, "'%%%.*s' at [%lld, %lld) and '%%%.*s' at [%lld, %lld) in %s",
                          (int)va->name.len, va->name.p, (long long)lo1, (long long)(lo1 + p->bytes),
                          (int)vb->name.len, vb->name.p, (long long)lo2, (long long)(lo2 + q->bytes),
                          enum_info[EK_LOC].names[x->loc]);
                t->errors = true;
            }
    }
}

/* ---- placement -------------------------------------------------------------------------- */
typedef struct Iv {
    int64_t lo, hi;
} Iv;

static int cmp_iv(const void *x, const void *y)
{
    const Iv *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static bool in_space(const Entry *e, Loc loc) { return e->loc == loc && !e->dropped && e->start >= 0; }

/* The lowest address aligned to al where size bytes fit between the n
 * occupied intervals (sorted here). */
static int64_t lowest_fit(Iv *ivs, size_t n, int64_t size, int64_t al)
{
    if (n > 1)
        qsort(ivs, n, sizeof *ivs, cmp_iv);
    int64_t addr = 0;
    for (size_t i = 0; i < n; i++) {
        if (ivs[i].lo >= addr + size)
            break;
        if (ivs[i].hi > addr)
            addr = round_up(ivs[i].hi, al);
    }
    return addr;
}

static void push_iv(Iv **ivs, size_t *cap, size_t *n, const Entry *o)
{
    xgrow((void **)ivs, cap, *n + 1, sizeof **ivs);
    (*ivs)[*n].lo = o->addr;
    (*ivs)[(*n)++].hi = o->addr + o->asize;
}

/* First fit of e among the placed entries whose live ranges meet its own. */
static int64_t first_fit(T *t, const Entry *e, Iv **ivs, size_t *cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *o = &t->e[i];
        if (o != e && (o->placed || o->pinned) && in_space(o, e->loc) && live_overlap(o, e))
            push_iv(ivs, cap, &n, o);
    }
    return lowest_fit(*ivs, n, e->asize, target_alignment(e->loc));
}

/* Placement orders: by decreasing size, or by start of life. */
typedef struct Key {
    int64_t asize, start, end;
    uint32_t idx;
} Key;

static int cmp_tail(const Key *a, const Key *b)
{
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_by_size(const void *x, const void *y)
{
    const Key *a = x, *b = y;
    if (a->asize != b->asize)
        return a->asize > b->asize ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return cmp_tail(a, b);
}

static int cmp_by_start(const void *x, const void *y)
{
    const Key *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->asize != b->asize)
        return a->asize > b->asize ? -1 : 1;
    return cmp_tail(a, b);
}

/* ---- the sweep without pinned tiles: a segment tree over alignment units ----------
 * Thousands of tiles live at once made the sweep below quadratic (each placement sorted
 * and scanned every live tile). Without pinned tiles the occupied addresses are the live
 * placed tiles', aligned, so memory in units of the alignment is a segment tree of
 * occupancy counts, and first fit is its leftmost run of enough free units, found in
 * O(log) (the same address lowest_fit gives: the lowest aligned one with room). */
#define SWEEP_MAX_UNITS ((int64_t)1 << 18)

typedef struct Seg {
    int32_t mn, add;          /* the least count in the node, and a pending addition */
    int32_t pre, suf, best;   /* runs of units at mn: leading, trailing, longest */
} Seg;

static void seg_build(Seg *t, uint32_t x, uint32_t len)
{
    t[x] = (Seg){0, 0, (int32_t)len, (int32_t)len, (int32_t)len};
    if (len > 1) {
        seg_build(t, 2 * x, len - len / 2);
        seg_build(t, 2 * x + 1, len / 2);
    }
}

static void seg_pull(Seg *t, uint32_t x, uint32_t llen, uint32_t rlen)
{
    const Seg *l = &t[2 * x], *r = &t[2 * x + 1];
    int32_t mn = l->mn < r->mn ? l->mn : r->mn;
    int32_t lp = l->mn == mn ? l->pre : 0, ls = l->mn == mn ? l->suf : 0, lb = l->mn == mn ? l->best : 0;
    int32_t rp = r->mn == mn ? r->pre : 0, rs = r->mn == mn ? r->suf : 0, rb = r->mn == mn ? r->best : 0;
    Seg *n = &t[x];
    n->mn = mn + n->add;
    n->pre = lp == (int32_t)llen ? lp + rp : lp;
    n->suf = rs == (int32_t)rlen ? rs + ls : rs;
    n->best = lb > rb ? lb : rb;
    if (ls + rp > n->best)
        n->best = ls + rp;
}

/* Adds d to the counts of units [lo, hi) of node x (covering [from, from + len)). */
static void seg_add(Seg *t, uint32_t x, uint32_t from, uint32_t len, uint32_t lo, uint32_t hi, int32_t d)
{
    if (hi <= from || from + len <= lo)
        return;
    if (lo <= from && from + len <= hi) {
        t[x].mn += d;
        t[x].add += d;
        return;
    }
    uint32_t ll = len - len / 2;
    seg_add(t, 2 * x, from, ll, lo, hi, d);
    seg_add(t, 2 * x + 1, from + ll, len / 2, lo, hi, d);
    seg_pull(t, x, ll, len / 2);
}

/* The first unit of the leftmost run of k free units in node x, whose counts are all
 * raised by base; UINT32_MAX when there is none. */
static uint32_t seg_find(const Seg *t, uint32_t x, uint32_t from, uint32_t len, int32_t base, uint32_t k)
{
    if (t[x].mn + base != 0 || t[x].best < (int32_t)k)
        return UINT32_MAX;
    if (len == 1)
        return from;
    uint32_t ll = len - len / 2;
    int32_t b = base + t[x].add;
    const Seg *l = &t[2 * x], *r = &t[2 * x + 1];
    uint32_t at = seg_find(t, 2 * x, from, ll, b, k);
    if (at != UINT32_MAX)
        return at;
    if (l->mn + b == 0 && r->mn + b == 0 && l->suf + r->pre >= (int32_t)k)
        return from + ll - (uint32_t)l->suf;
    return seg_find(t, 2 * x + 1, from + ll, len / 2, b, k);
}

#define SWEEP_FAST_MIN 64 /* tiles in one space: below, the sweep is cheaper than the tree */
/* place_by_start when loc holds no pinned tile and the addresses fit the tree; false
 * (nothing placed) otherwise. Building the tree costs the tiles' total size in alignment
 * units, so a function with few tiles keeps the sweep (SWEEP_FAST_MIN). */
static bool place_by_start_fast(T *t, Loc loc, const Key *keys, uint32_t n)
{
    int64_t al = target_alignment(loc), total = 0;
    for (uint32_t i = 0; i < t->ne; i++)
        if (t->e[i].pinned && in_space(&t->e[i], loc))
            return false;
    for (uint32_t k = 0; k < n; k++)
        total += keys[k].asize / al + 1;
    if (al <= 0 || total + 2 > SWEEP_MAX_UNITS)
        return false;
    uint32_t units = (uint32_t)total + 2;
    Seg *tree = xmalloc(4 * (size_t)units * sizeof *tree);
    seg_build(tree, 1, units);
    /* the live placed tiles, a min-heap by end of life */
    uint32_t *heap = xmalloc((n ? n : 1) * sizeof *heap), nh = 0;
    for (uint32_t k = 0; k < n; k++) {
        Entry *e = &t->e[keys[k].idx];
        while (nh && t->e[heap[0]].end < e->start) {
            const Entry *o = &t->e[heap[0]];
            seg_add(tree, 1, 0, units, (uint32_t)(o->addr / al), (uint32_t)((o->addr + o->asize) / al), -1);
            heap[0] = heap[--nh];
            for (uint32_t i = 0;;) { /* sift down */
                uint32_t c = 2 * i + 1;
                if (c >= nh)
                    break;
                if (c + 1 < nh && t->e[heap[c + 1]].end < t->e[heap[c]].end)
                    c++;
                if (t->e[heap[i]].end <= t->e[heap[c]].end)
                    break;
                uint32_t tmp = heap[i];
                heap[i] = heap[c], heap[c] = tmp, i = c;
            }
        }
        uint32_t need = (uint32_t)(e->asize / al), at = need ? seg_find(tree, 1, 0, units, 0, need) : 0;
        DIAG_ASSERT(at != UINT32_MAX);
        e->addr = (int64_t)at * al;
        e->placed = true;
        seg_add(tree, 1, 0, units, at, at + need, 1);
        uint32_t i = nh++;
        heap[i] = keys[k].idx;
        while (i > 0 && t->e[heap[(i - 1) / 2]].end > t->e[heap[i]].end) { /* sift up */
            uint32_t p = (i - 1) / 2, tmp = heap[i];
            heap[i] = heap[p], heap[p] = tmp, i = p;
        }
    }
    free(heap);
    free(tree);
    return true;
}

/* First fit in order of start of life (keys sorted so) as a sweep: only the
 * tiles still live are looked at, so large functions stay fast. */
static void place_by_start(T *t, Loc loc, const Key *keys, uint32_t n, Iv **ivs, size_t *cap)
{
    if (n >= SWEEP_FAST_MIN && place_by_start_fast(t, loc, keys, n))
        return;
    uint32_t *pinned = xmalloc((t->ne ? t->ne : 1) * sizeof *pinned);
    uint32_t *active = xmalloc((n ? n : 1) * sizeof *active);
    uint32_t np = 0, na = 0;
    for (uint32_t i = 0; i < t->ne; i++)
        if (t->e[i].pinned && in_space(&t->e[i], loc))
            pinned[np++] = i;
    for (uint32_t k = 0; k < n; k++) {
        Entry *e = &t->e[keys[k].idx];
        size_t ni = 0;
        uint32_t keep = 0;
        for (uint32_t j = 0; j < na; j++)
            if (t->e[active[j]].end >= e->start) {
                active[keep++] = active[j];
                push_iv(ivs, cap, &ni, &t->e[active[j]]);
            }
        na = keep;
        for (uint32_t j = 0; j < np; j++)
            if (live_overlap(&t->e[pinned[j]], e))
                push_iv(ivs, cap, &ni, &t->e[pinned[j]]);
        e->addr = lowest_fit(*ivs, ni, e->asize, target_alignment(loc));
        e->placed = true;
        active[na++] = keys[k].idx;
    }
    free(pinned);
    free(active);
}

static int64_t space_peak(const T *t, Loc loc)
{
    int64_t peak = 0;
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        if (in_space(e, loc) && e->addr + e->asize > peak)
            peak = e->addr + e->asize;
    }
    return peak;
}

/* ---- search for a placement that reaches the lower bound ---------------------------------
 * Any placement can be settled (each tile moved down until it sits at 0 or on
 * the top of a tile live at the same time) without raising its peak, and a
 * settled placement can be built tile by tile in increasing address order,
 * each tile at 0 or on the top of one already placed. The search enumerates
 * exactly these sequences (ties in address broken by the order of keys[], so
 * each placement is built once), below a target peak, pruning a branch when
 * at some op the tiles still to place no longer fit between the current
 * address and the target. A work budget (and a limit on the number of tiles)
 * keeps it bounded and deterministic; it runs only when first fit missed the
 * lower bound. */
#define SEARCH_BUDGET 20000000 /* work units: about one per entry visited */
#define SEARCH_MAX_TILES 256
#define SIZE_ORDER_MAX_TILES 4096 /* above this, only the linear-time sweep order */

typedef struct Search {
    T *t;
    Loc loc;
    const Key *keys;      /* the unpinned entries, in a fixed order */
    uint32_t n;
    bool *done;
    int64_t target;
    int64_t budget;       /* work left */
    int64_t *rem;         /* per op: aligned bytes of the unplaced tiles live there */
    int64_t *occ;         /* scratch, per op */
    Iv *ivs;
    size_t ivcap;
} Search;

/* True when every op still has room for its unplaced tiles in [floor, target). */
static bool search_room(Search *s, int64_t floor)
{
    T *t = s->t;
    int64_t n = t->n ? t->n : 1;
    memset(s->occ, 0, ((size_t)n + 1) * sizeof *s->occ);
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *o = &t->e[i];
        if (!in_space(o, s->loc) || !(o->pinned || o->placed))
            continue;
        int64_t lo = o->addr > floor ? o->addr : floor;
        int64_t hi = o->addr + o->asize < s->target ? o->addr + o->asize : s->target;
        if (hi > lo) {
            s->occ[o->start] += hi - lo;
            s->occ[o->end + 1] -= hi - lo;
        }
    }
    int64_t run = 0;
    for (int64_t k = 0; k < n; k++) {
        run += s->occ[k];
        if (s->rem[k] > s->target - floor - run)
            return false;
    }
    return true;
}

static bool search_fits(Search *s, const Entry *e, int64_t addr)
{
    T *t = s->t;
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *o = &t->e[i];
        if (o != e && (o->placed || o->pinned) && in_space(o, s->loc) && live_overlap(o, e) &&
            o->addr < addr + e->asize && addr < o->addr + o->asize)
            return false;
    }
    return true;
}

static bool search(Search *s, uint32_t left, int64_t floor, uint32_t last)
{
    if (left == 0)
        return true;
    T *t = s->t;
    s->budget -= t->ne + t->n;
    if (s->budget < 0 || !search_room(s, floor))
        return false;
    for (uint32_t k = 0; k < s->n; k++) {
        if (s->done[k])
            continue;
        Entry *e = &t->e[s->keys[k].idx];
        s->budget -= t->ne;
        /* candidate addresses: 0 and the tops of the placed tiles live with e */
        size_t nc = 0;
        xgrow((void **)&s->ivs, &s->ivcap, 1, sizeof *s->ivs);
        s->ivs[nc++].lo = 0;
        for (uint32_t i = 0; i < t->ne; i++) {
            const Entry *o = &t->e[i];
            if (o == e || !(o->placed || o->pinned) || !in_space(o, s->loc) || !live_overlap(o, e))
                continue;
            xgrow((void **)&s->ivs, &s->ivcap, nc + 1, sizeof *s->ivs);
            s->ivs[nc++].lo = o->addr + o->asize;
        }
        qsort(s->ivs, nc, sizeof *s->ivs, cmp_iv);
        int64_t *cand = xmalloc(nc * sizeof *cand);
        for (size_t i = 0; i < nc; i++)
            cand[i] = s->ivs[i].lo;
        for (size_t i = 0; i < nc; i++) {
            int64_t a = cand[i];
            if ((i && a == cand[i - 1]) || a < floor || (a == floor && last != UINT32_MAX && k < last))
                continue;
            if (a + e->asize > s->target)
                break;
            s->budget -= t->ne;
            if (!search_fits(s, e, a))
                continue;
            e->addr = a;
            e->placed = true;
            s->done[k] = true;
            for (int64_t j = e->start; j <= e->end; j++)
                s->rem[j] -= e->asize;
            bool ok = search(s, left - 1, a, k);
            if (ok) {
                free(cand);
                return true;
            }
            for (int64_t j = e->start; j <= e->end; j++)
                s->rem[j] += e->asize;
            s->done[k] = false;
            e->placed = false;
            if (s->budget < 0)
                break;
        }
        free(cand);
        if (s->budget < 0)
            return false;
    }
    return false;
}

/* Tries to place keys[0, n) with a peak of at most target; on success the
 * entries hold their new addresses. */
static bool search_space(T *t, Loc loc, const Key *keys, uint32_t n, int64_t target)
{
    int64_t nops = t->n ? t->n : 1;
    Search s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.loc = loc;
    s.keys = keys;
    s.n = n;
    s.target = target;
    s.budget = SEARCH_BUDGET;
    s.done = xcalloc(n, sizeof *s.done);
    s.rem = xcalloc((size_t)nops + 1, sizeof *s.rem);
    s.occ = xcalloc((size_t)nops + 1, sizeof *s.occ);
    int64_t *saved = xmalloc(n * sizeof *saved);
    for (uint32_t k = 0; k < n; k++) {
        Entry *e = &t->e[keys[k].idx];
        saved[k] = e->addr;
        e->placed = false;
        for (int64_t j = e->start; j <= e->end; j++)
            s.rem[j] += e->asize;
    }
    bool ok = search(&s, n, 0, UINT32_MAX);
    for (uint32_t k = 0; k < n; k++) {
        Entry *e = &t->e[keys[k].idx];
        e->placed = true;
        if (!ok)
            e->addr = saved[k];
    }
    free(saved);
    free(s.done);
    free(s.rem);
    free(s.occ);
    free(s.ivs);
    return ok;
}

static int64_t lower_bound(const T *t, Loc loc, int64_t *at);

/* Places the unpinned live entries of one space: first fit in a few orders,
 * keeping the lowest peak, then, if that misses the lower bound, a bounded
 * search for a placement that reaches it. */
/* --no-reuse: each unpinned tile first-fit as if every tile were live throughout, so no
 * two share a byte (pinned tiles keep theirs); a baseline for placement's results. */
static void place_no_reuse(T *t, Loc loc)
{
    Iv *ivs = NULL;
    size_t ivcap = 0;
    int64_t *saved = xmalloc((t->ne ? t->ne : 1) * 2 * sizeof *saved);
    int64_t last = t->n ? t->n - 1 : 0;
    for (uint32_t i = 0; i < t->ne; i++) {
        saved[2 * i] = t->e[i].start;
        saved[2 * i + 1] = t->e[i].end;
        if (in_space(&t->e[i], loc)) {
            t->e[i].start = 0;
            t->e[i].end = last;
        }
    }
    for (uint32_t i = 0; i < t->ne; i++)
        if (in_space(&t->e[i], loc) && !t->e[i].pinned) {
            t->e[i].addr = first_fit(t, &t->e[i], &ivs, &ivcap);
            t->e[i].placed = true;
        }
    for (uint32_t i = 0; i < t->ne; i++) {
        t->e[i].start = saved[2 * i];
        t->e[i].end = saved[2 * i + 1];
    }
    free(saved);
    free(ivs);
}

static void place_space(T *t, Loc loc)
{
    if (t->cfg->no_reuse) {
        place_no_reuse(t, loc);
        return;
    }
    Key *keys = xmalloc((t->ne ? t->ne : 1) * sizeof *keys);
    int64_t *best = xmalloc((t->ne ? t->ne : 1) * sizeof *best);
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->ne; i++)
        if (in_space(&t->e[i], loc) && !t->e[i].pinned)
            keys[n++] = (Key){t->e[i].asize, t->e[i].start, t->e[i].end, i};
    int (*const orders[])(const void *, const void *) = {cmp_by_size, cmp_by_start};
    Iv *ivs = NULL;
    size_t ivcap = 0;
    int64_t best_peak = -1;
    for (size_t o = 0; o < sizeof orders / sizeof orders[0] && n; o++) {
        bool by_start = orders[o] == cmp_by_start;
        if (!by_start && n > SIZE_ORDER_MAX_TILES)
            continue; /* quadratic: large spaces take the sweep only */
        qsort(keys, n, sizeof *keys, orders[o]);
        for (uint32_t k = 0; k < n; k++)
            t->e[keys[k].idx].placed = false;
        if (by_start) {
            place_by_start(t, loc, keys, n, &ivs, &ivcap);
        } else {
            for (uint32_t k = 0; k < n; k++) {
                Entry *e = &t->e[keys[k].idx];
                e->addr = first_fit(t, e, &ivs, &ivcap);
                e->placed = true;
            }
        }
        int64_t peak = space_peak(t, loc);
        if (best_peak < 0 || peak < best_peak) {
            best_peak = peak;
            for (uint32_t k = 0; k < n; k++)
                best[keys[k].idx] = t->e[keys[k].idx].addr;
        }
    }
    for (uint32_t k = 0; k < n; k++)
        t->e[keys[k].idx].addr = best[keys[k].idx];
    /* no placement goes below the lower bound or the top of a pinned tile */
    int64_t at, goal = lower_bound(t, loc, &at);
    for (uint32_t i = 0; i < t->ne; i++)
        if (in_space(&t->e[i], loc) && t->e[i].pinned && t->e[i].addr + t->e[i].asize > goal)
            goal = t->e[i].addr + t->e[i].asize;
    if (n && n <= SEARCH_MAX_TILES && best_peak > goal) {
        qsort(keys, n, sizeof *keys, cmp_by_size);
        search_space(t, loc, keys, n, goal);
    }
    free(ivs);
    free(keys);
    free(best);
}

/* Largest total of aligned sizes live at one op, and that op's number. */
static int64_t lower_bound(const T *t, Loc loc, int64_t *at)
{
    int64_t n = t->n ? t->n : 1;
    int64_t *delta = xcalloc((size_t)n + 1, sizeof *delta);
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        if (!in_space(e, loc))
            continue;
        delta[e->start] += e->asize;
        delta[e->end + 1] -= e->asize;
    }
    int64_t run = 0, best = 0;
    *at = 0;
    for (int64_t k = 0; k < n; k++) {
        run += delta[k];
        if (run > best) {
            best = run;
            *at = k;
        }
    }
    free(delta);
    return best;
}

static const Op *op_numbered(const T *t, int64_t k)
{
    for (const Op *op = ir_first_op(t->f); op; op = ir_next_op(op))
        if (t->num[op->index] == k)
            return op;
    return NULL;
}

/* An overflow of loc: PTOAS's text (its planner's, in bits), then the bytes,
 * which the capacities, --mem-size and the reports count in. */
static void overflow_error(T *t, Span at, Loc loc, int64_t need, int64_t cap)
{
    const char *space = enum_info[EK_LOC].names[loc];
    t->errors = true;
    diag_error(t->d, at, "%s overflow, requires %lld bits while %lld bits available (%lld bytes needed, %lld in %s)",
               space, (long long)need * 8, (long long)cap * 8, (long long)need, (long long)cap, space);
}

/* What to do about an overflow, once per function (after its first error). */
static void overflow_hint(T *t, Loc loc, int64_t need)
{
    if (t->hinted)
        return;
    t->hinted = true;
    diag_note(t->d, t->f->span,
              "to fit, use smaller tiles, process the data in a loop over smaller tiles, or raise the capacity "
              "with --mem-size %s=%lld",
              enum_info[EK_LOC].names[loc], (long long)need);
}

/* Live tiles for the note, largest first (ties in definition order). */
static int cmp_entry_size(const void *x, const void *y)
{
    const Entry *a = *(const Entry *const *)x, *b = *(const Entry *const *)y;
    if (a->asize != b->asize)
        return a->asize > b->asize ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Overflow when a tile ends past the capacity (its unaligned end: the padding
 * up to the alignment need not fit). The note shows what is live at the op
 * that needs the most bytes, or, when the bound fits but the placement does
 * not, where the tile that ends highest is live. */
#define OVERFLOW_NOTE_TILES 16

static void check_overflow(T *t, Loc loc)
{
    int64_t at, lb = lower_bound(t, loc, &at), peak = space_peak(t, loc), cap = cap_of(t, loc);
    const Entry *top = NULL;
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        if (in_space(e, loc) && (!top || e->addr + e->size > top->addr + top->size))
            top = e;
    }
    if (!top || top->addr + top->size <= cap)
        return;
    if (lb <= cap)
        at = top->start;
    /* the figure is ours: the bound or the peak */
    int64_t need = lb > cap ? lb : peak;
    overflow_error(t, t->f->span, loc, need, cap);
    /* the OVERFLOW_NOTE_TILES largest live tiles and a count of the rest (all of them with
     * --error-limit=0): 20,000 live tiles made a note of 389 KB on one line */
    StrBuf b = {0};
    unsigned limit = diag_error_limit(t->d) ? OVERFLOW_NOTE_TILES : UINT32_MAX, shown = 0, more = 0;
    int64_t more_bytes = 0;
    const Entry **live = xmalloc((t->ne ? t->ne : 1) * sizeof *live);
    uint32_t nlive = 0;
    for (uint32_t i = 0; i < t->ne; i++)
        if (in_space(&t->e[i], loc) && t->e[i].start <= at && at <= t->e[i].end)
            live[nlive++] = &t->e[i];
    qsort(live, nlive, sizeof *live, cmp_entry_size);
    for (uint32_t i = 0; i < nlive; i++) {
        const Entry *e = live[i];
        if (shown++ < limit) {
            sb_printf(&b, "%s%%%.*s (%lld bytes)", b.len ? ", " : "", (int)e->name.len, e->name.p,
                      (long long)e->asize);
        } else {
            more++;
            more_bytes += e->asize;
        }
    }
    if (more)
        sb_printf(&b, ", and %u more (%lld bytes)", more, (long long)more_bytes);
    free(live);
    const Op *op = op_numbered(t, at);
    diag_note(t->d, op ? op->name_span : t->f->span, "at this op, live: %s", b.p ? b.p : "");
    sb_free(&b);
    overflow_hint(t, loc, need);
}

/* ---- materialization --------------------------------------------------------------------- */
static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

static void materialize(T *t)
{
    Func *f = t->f;
    Module *m = t->m;
    /* the addresses to name: every unpinned alloc_tile, those that never hold
     * data (unused, or rebound by a tassign before any access) at 0; arguments
     * are placed with `pto.tassign %arg, @tile(A)` instead */
    int64_t *addrs = xmalloc((t->ne ? t->ne : 1) * sizeof *addrs);
    uint32_t na = 0;
    for (uint32_t i = 0; i < t->ne; i++) {
        Entry *e = &t->e[i];
        if (e->pinned || e->is_arg)
            continue;
        if (e->dropped || e->start < 0)
            e->addr = 0;
        addrs[na++] = e->addr;
    }
    qsort(addrs, na, sizeof *addrs, cmp_i64);
    uint32_t nd = 0;
    for (uint32_t i = 0; i < na; i++)
        if (nd == 0 || addrs[nd - 1] != addrs[i])
            addrs[nd++] = addrs[i];
    NameSet names;
    nameset_init(&names, f);
    ValueId *consts = xmalloc((nd ? nd : 1) * sizeof *consts);
    const Type *i64 = type_scalar(&m->types, DT_I64);
    /* the constants and the arguments' tassigns go first in the entry block */
    Block *entry = ir_entry(f);
    Op *first = entry->first;
    Span at = f->span;
    for (uint32_t i = 0; i < nd; i++) {
        char base[32];
        snprintf(base, sizeof base, "c%lld", (long long)addrs[i]);
        Str name = ir_fresh_name(m, &names, (Str){base, (uint32_t)strlen(base)}, "_i64");
        Op *c = ir_op_new(m);
        consts[i] = ir_value_add(f, name, i64, at, c, entry);
        AttrValue *v = arena_zalloc(&m->arena, sizeof *v);
        v->kind = AV_INT;
        v->type = DT_I64;
        v->u.i = addrs[i];
        v->span = at;
        c->kind = OP_CONSTANT;
        c->name_span = at;
        c->nres = 1;
        c->res = arena_dup(&m->arena, &consts[i], sizeof consts[i]);
        c->constant = v;
        if (first)
            ir_insert_before(first, c);
        else
            ir_block_append(entry, c);
    }
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        if (!e->is_arg || e->pinned || e->dropped)
            continue;
        Op *a = ir_op_new(m);
        a->kind = OP_TASSIGN;
        a->synthetic = true; /* codegen of a called function keeps the caller's binding instead */
        a->form = FORM_L2;
        a->name_span = at;
        a->nopnds = 1;
        a->opnds = arena_dup(&m->arena, &e->value, sizeof e->value);
        a->opnd_spans = arena_dup(&m->arena, &at, sizeof at);
        a->seg[0] = 1;
        a->has_tile_addr = true;
        a->tile_addr = e->addr;
        if (first)
            ir_insert_before(first, a);
        else
            ir_block_append(entry, a);
    }
    for (Op *op = first; op; op = ir_next_op(op)) {
        if (op_info(op->kind)->cls != OC_ALLOC || op->seg[0])
            continue;
        op->kind = OP_ALLOC_TILE; /* a placed pto.declare_tile is an alloc_tile at its address */
        const Entry *e = &t->e[t->op_entry[op->index]];
        int64_t *hit = bsearch(&e->addr, addrs, nd, sizeof *addrs, cmp_i64);
        ValueId c = consts[hit - addrs];
        uint32_t k = op->nopnds;
        ValueId *opnds = arena_alloc(&m->arena, (k + 1) * sizeof *opnds);
        Span *spans = arena_alloc(&m->arena, (k + 1) * sizeof *spans);
        opnds[0] = c;
        spans[0] = op->name_span;
        if (k) { /* valid_row / valid_col follow addr */
            memcpy(opnds + 1, op->opnds, k * sizeof *opnds);
            memcpy(spans + 1, op->opnd_spans, k * sizeof *spans);
        }
        op->opnds = opnds;
        op->opnd_spans = spans;
        op->nopnds = k + 1;
        op->seg[0] = 1;
    }
    nameset_free(&names);
    free(consts);
    free(addrs);
}

/* ---- reports (docs/memory.md section 6) -------------------------------------------------------- */
typedef struct RKey {
    int64_t addr;
    Str name;
    uint32_t idx;
} RKey;

/* Report order: by address, then name. */
static int cmp_report(const void *x, const void *y)
{
    const RKey *a = x, *b = y;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    uint32_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
    int c = memcmp(a->name.p, b->name.p, n);
    if (c)
        return c;
    return a->name.len < b->name.len ? -1 : a->name.len > b->name.len;
}

static void report(T *t, StrBuf *out, bool map)
{
    sb_printf(out, "func @%.*s\n", (int)t->f->name.len, t->f->name.p);
    /* the loops, as the op numbers they span: `loop L:C [lo, hi]`, or in the map a row
     * with '-' over the ops inside */
    for (uint32_t l = 0; l < t->nloops; l++) {
        const Loop *L = &t->loops[l];
        if (L->lo < 0)
            continue;
        uint32_t line, col;
        source_line_col(t->src, L->op->name_span.begin, &line, &col);
        if (!map) {
            sb_printf(out, "loop %s at %u:%u ops [%lld, %lld]\n", op_info(L->op->kind)->name, line + 1, col + 1,
                      (long long)L->lo, (long long)L->hi);
            continue;
        }
        sb_printf(out, "loop %s at %u:%u ", op_info(L->op->kind)->name, line + 1, col + 1);
        for (int64_t j = 0; j < t->n; j++)
            sb_putc(out, j >= L->lo && j <= L->hi ? '-' : ' ');
        sb_putc(out, '\n');
    }
    RKey *keys = xmalloc((t->ne ? t->ne : 1) * sizeof *keys);
    for (int loc = 0; loc < LOC_COUNT; loc++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t->ne; i++)
            if (t->e[i].loc == (Loc)loc && !t->e[i].dropped)
                keys[n++] = (RKey){t->e[i].addr, t->e[i].name, i};
        if (!n)
            continue;
        qsort(keys, n, sizeof *keys, cmp_report);
        const char *space = enum_info[EK_LOC].names[loc];
        if (!map) {
            int64_t at;
            sb_printf(out, "%s: capacity %lld, peak %lld, lower-bound %lld\n", space,
                      (long long)cap_of(t, (Loc)loc), (long long)space_peak(t, (Loc)loc),
                      (long long)lower_bound(t, (Loc)loc, &at));
            for (uint32_t k = 0; k < n; k++) {
                const Entry *e = &t->e[keys[k].idx];
                if (e->dynamic) /* a computed tassign address: known at run time */
                    sb_printf(out, "  %%%.*s addr ? size %lld live ", (int)e->name.len, e->name.p,
                              (long long)e->size);
                else
                    sb_printf(out, "  %%%.*s addr %lld size %lld live ", (int)e->name.len, e->name.p,
                              (long long)e->addr, (long long)e->size);
                if (e->start < 0)
                    sb_puts(out, "[]\n");
                else
                    sb_printf(out, "[%lld, %lld]\n", (long long)e->start, (long long)e->end);
            }
            continue;
        }
        sb_printf(out, "%s:\n", space);
        int width = 0;
        char label[128];
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t k = 0; k < n; k++) {
                const Entry *e = &t->e[keys[k].idx];
                int w = snprintf(label, sizeof label, "[%lld, %lld) %%%.*s", (long long)e->addr,
                                 (long long)(e->addr + e->size), (int)(e->name.len < 80 ? e->name.len : 80),
                                 e->name.p);
                if (pass == 0) {
                    width = w > width ? w : width;
                    continue;
                }
                sb_printf(out, "%-*s ", width, label);
                for (int64_t j = 0; j < t->n; j++)
                    sb_putc(out, e->start >= 0 && e->start <= j && j <= e->end ? '#' : '.');
                sb_putc(out, '\n');
            }
    }
    free(keys);
}

/* Keeps the placement in the module for tools that show it (the language server). */
static void record(T *t)
{
    Module *m = t->m;
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        if (e->dropped)
            continue;
        xgrow32((void **)&m->places, &m->places_cap, (size_t)m->nplaces + 1, sizeof *m->places);
        m->places[m->nplaces++] = (Placement){t->f, e->value, e->def, (uint8_t)e->loc, e->addr,
                                              e->size, e->start, e->end};
    }
    xgrow32((void **)&m->fmem, &m->fmem_cap, (size_t)m->nfmem + 1, sizeof *m->fmem);
    FuncMemory *fm = &m->fmem[m->nfmem++];
    fm->f = t->f;
    for (int loc = 0; loc < LOC_COUNT; loc++) {
        bool any = false;
        for (uint32_t i = 0; i < t->ne && !any; i++)
            any = t->e[i].loc == (Loc)loc && !t->e[i].dropped;
        fm->peak[loc] = any ? space_peak(t, (Loc)loc) : -1;
        fm->capacity[loc] = cap_of(t, (Loc)loc);
    }
}

/* ---- == PIPE == pto.reserve_buffer (docs/memory.md "Reserved FIFO buffers") ---------------
 * A reserved FIFO buffer lives for the whole function. As PTOAS's PlanMemory does, an
 * `auto = true` one is placed after the tiles, first-fit into the lowest aligned hole of
 * the bytes any tile of its space occupies (whatever their live ranges) and the reserves
 * placed before it; an explicit base is checked (PTOAS's driver rules) and kept. */
typedef struct Range {
    int64_t lo, hi;
} Range;

static int cmp_range(const void *x, const void *y)
{
    const Range *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The lowest address aligned to al where size bytes fit beside the n ranges, or -1. */
static int64_t reserve_fit(Range *r, size_t n, int64_t size, int64_t al, int64_t cap)
{
    if (n)
        qsort(r, n, sizeof *r, cmp_range);
    int64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        at = round_up(at, al);
        if (at + size <= r[i].lo)
            break;
        at = at > r[i].hi ? at : r[i].hi;
    }
    at = round_up(at, al);
    return at + size <= cap ? at : -1;
}

static void reserve_error(T *t, const Op *op, const char *msg)
{
    diag_error(t->d, op->name_span, "%s", msg);
    t->errors = true;
}

/* An explicit base: PTOAS's alignment (256 bytes) and capacity of a reserved range. */
static void reserve_check_base(T *t, const Op *op, Loc loc, int64_t base, int64_t size)
{
    int64_t cap = loc == LOC_MAT ? 524288 : t->arch == ARCH_A5 ? 253952 : 196608;
    const char *space = loc == LOC_MAT ? "mat" : "vec";
    char msg[160];
    if (base % 256) {
        snprintf(msg, sizeof msg, "expects 'base' to be aligned to 256 bytes for %s", space);
        reserve_error(t, op, msg);
    } else if (base > cap || size > cap - base) {
        snprintf(msg, sizeof msg, "reserved range exceeds %s capacity: base %lld + size %lld > %lld bytes", space,
                 (long long)base, (long long)size, (long long)cap);
        reserve_error(t, op, msg);
    }
}

/* Records the placed base on the op as PTOAS's resolved form: `auto = false, base = B`. */
static void reserve_set_base(T *t, Op *op, int64_t base)
{
    Attr *a = arena_alloc(&t->m->arena, (op->nattrs + 1) * sizeof *a);
    uint32_t n = 0;
    for (uint32_t i = 0; i < op->nattrs; i++)
        if (!STR_EQ_LIT(op->attrs[i].key, "base"))
            a[n++] = op->attrs[i];
    AttrValue *b = arena_zalloc(&t->m->arena, sizeof *b);
    b->kind = AV_INT;
    b->type = DT_I32;
    b->u.i = base;
    a[n++] = (Attr){.key = {"base", 4}, .span = op->name_span, .val = b};
    for (uint32_t i = 0; i < n; i++)
        if (STR_EQ_LIT(a[i].key, "autoAlloc") && a[i].val->kind == AV_BOOL && a[i].val->u.b) {
            AttrValue *f = arena_zalloc(&t->m->arena, sizeof *f);
            *f = *a[i].val;
            f->u.b = false;
            a[i].val = f;
        }
    op->attrs = a;
    op->nattrs = n;
}

/* pto.alloc_multi_tile's address rules (PTOAS's driver and verifier): level3 needs a base
 * `addr`, aligned as a tile's; the slots are not placed yet (docs/memory.md 6a). */
static void check_multi_tiles(T *t)
{
    for (const Op *op = ir_first_op(t->f); op; op = ir_next_op(op)) {
        if (op->kind != OP_ALLOC_MULTI_TILE || op->bad || !op->nres)
            continue;
        const Type *ty = t->f->values[op->res[0]].type;
        if (!ty || ty->kind != TY_MULTI_TILE)
            continue;
        int64_t al = target_alignment(ty->tile.loc);
        const Op *ad = op->seg[0] ? t->f->values[op->opnds[0]].def_op : NULL;
        if (t->cfg->level == LEVEL3 && !op->seg[0]) {
            diag_error(t->d, op->name_span, "pto.alloc_multi_tile requires a base 'addr' operand when --pto-level=level3");
            t->errors = true;
        } else if (ad && ad->kind == OP_CONSTANT && const_value(t, op->opnds[0]) % al) {
            diag_error(t->d, op->name_span,
                       "'pto.alloc_multi_tile' op addr must be aligned to %lld bytes for local tile memory space, got %lld",
                       (long long)al, (long long)const_value(t, op->opnds[0]));
            t->errors = true;
        }
    }
}

/* The rules of every reserve; with place, the auto ones placed beside the placed tiles. */
static void place_reserves(T *t, bool place)
{
    Range *occ = NULL;
    size_t nocc = 0, cap = 0;
    for (Op *op = ir_first_op(t->f); op; op = ir_next_op(op)) {
        if (op->kind != OP_RESERVE_BUFFER || op->bad)
            continue;
        const Attr *la = ir_attr_find(op->attrs, op->nattrs, "location"), *aa = ir_attr_find(op->attrs, op->nattrs, "autoAlloc"),
                   *sa = ir_attr_find(op->attrs, op->nattrs, "size"), *ba = ir_attr_find(op->attrs, op->nattrs, "base");
        if (!la || la->val->kind != AV_ENUM || !aa || aa->val->kind != AV_BOOL || !sa || sa->val->kind != AV_INT)
            continue; /* the verifier's */
        Loc loc = strcmp(enum_info[EK_ADDRESS_SPACE].names[la->val->u.e.value], "mat") == 0 ? LOC_MAT : LOC_VEC;
        bool autoalloc = aa->val->u.b;
        int64_t size = sa->val->u.i, base = ba && ba->val->kind == AV_INT ? ba->val->u.i : -1;
        if (t->cfg->level == LEVEL3 && (autoalloc || !ba)) {
            reserve_error(t, op, "pto.reserve_buffer requires 'auto = false' and explicit 'base' when --pto-level=level3");
            continue;
        }
        if (autoalloc && ba) {
            reserve_error(t, op, "unexpected 'base' on auto reserve_buffer: level1/level2 assign it in pto-plan-memory");
            continue;
        }
        if (!autoalloc) { /* kept (in level1/level2 too: docs/departures.md 1) */
            reserve_check_base(t, op, loc, base, size);
            continue;
        }
        if (!place)
            continue;
        nocc = 0;
        for (uint32_t i = 0; i < t->ne; i++) {
            const Entry *e = &t->e[i];
            if (e->loc != loc || e->dropped || e->dynamic || (e->start < 0 && !e->pinned))
                continue;
            xgrow((void **)&occ, &cap, nocc + 1, sizeof *occ);
            occ[nocc++] = (Range){e->addr, e->addr + e->asize};
        }
        for (Op *o = ir_first_op(t->f); o != op; o = ir_next_op(o)) { /* the reserves placed before it */
            const Attr *ob = ir_attr_find(o->attrs, o->nattrs, "base"), *ol = ir_attr_find(o->attrs, o->nattrs, "location"),
                       *os = ir_attr_find(o->attrs, o->nattrs, "size");
            if (o->kind == OP_RESERVE_BUFFER && ob && ob->val->kind == AV_INT && ol && ol->val->kind == AV_ENUM &&
                ol->val->u.e.value == la->val->u.e.value && os && os->val->kind == AV_INT && ob->span.begin == o->name_span.begin) {
                xgrow((void **)&occ, &cap, nocc + 1, sizeof *occ);
                occ[nocc++] = (Range){ob->val->u.i, ob->val->u.i + os->val->u.i};
            }
        }
        int64_t at = reserve_fit(occ, nocc, size, target_alignment(loc), cap_of(t, loc));
        if (at < 0) {
            diag_error(t->d, op->name_span, "'pto.reserve_buffer' op failed to allocate local memory hole for reserve_buffer");
            t->errors = true;
            continue;
        }
        reserve_set_base(t, op, at);
    }
    free(occ);
}

/* ---- the pass ---------------------------------------------------------------------------- */
static void tassign_func(T *t)
{
    collect(t);
    check_pinned(t);
    /* PTOAS: a tile larger than its whole memory space is an error, live or dead, at the
     * function (its planner's emitError on the function, once per space), noted at the tile */
    bool reported[LOC_COUNT] = {false};
    for (uint32_t i = 0; i < t->ne; i++) {
        const Entry *e = &t->e[i];
        int64_t cap = cap_of(t, e->loc);
        if (!e->dropped && e->size > cap && !reported[e->loc]) {
            reported[e->loc] = true;
            overflow_error(t, t->f->span, e->loc, e->size, cap);
            diag_note(t->d, e->def, "this tile alone takes %lld bytes", (long long)e->size);
            overflow_hint(t, e->loc, e->size);
        }
    }
    bool ok = !t->errors;
    if (ok) {
        for (int loc = 0; loc < LOC_COUNT; loc++)
            if (t->cfg->level != LEVEL3)
                place_space(t, (Loc)loc);
        for (int loc = 0; loc < LOC_COUNT; loc++)
            check_overflow(t, (Loc)loc);
    }
    place_reserves(t, !t->errors); /* == PIPE == its rules always; the placement on placed tiles */
    check_multi_tiles(t);
    if (!t->errors)
        check_no_alias(t);
    if (!t->errors) {
        record(t);
        if (t->cfg->memory_report)
            report(t, &t->m->report, false);
        if (t->cfg->memory_map)
            report(t, &t->m->report, true);
        if (t->cfg->level != LEVEL3)
            materialize(t);
    }
    free(t->cur);
    free(t->acc);
    t->acc = NULL;
    t->nacc = t->acc_cap = 0;
    free(t->loops);
    t->loops = NULL;
    t->nloops = t->loops_cap = 0;
    free(t->rng);
    free(t->noalias);
    t->noalias = NULL;
    t->nnoalias = t->noalias_cap = 0;
    free(t->num);
    free(t->op_entry);
    free(t->e);
    t->e = NULL;
    t->ne = t->cap = 0;
}

bool tassign_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg)
{
    if (!pass_reject_unregistered(m, d, "tassign", true))
        return false;
    T t;
    memset(&t, 0, sizeof t);
    t.m = m;
    t.d = d;
    t.cfg = cfg;
    t.src = src;
    bool errors = false;
    unsigned before = diag_error_count(d); /* --Werror counts the warnings too */
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        t.arch = module_arch(mod->implicit ? NULL : mod, cfg);
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            t.f = mod->funcs[j];
            t.errors = t.hinted = false;
            tassign_func(&t);
            errors |= t.errors;
        }
    }
    return !errors && diag_error_count(d) == before;
}
