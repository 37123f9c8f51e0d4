/* test_oprecord.c - the op record (ir/ops.def) against the runtime's op list
 * (runtime/ptort_vops.def) and the literal files that list the ops.
 *
 * 1. Every vector op's (entry point, PTORT_VOP_x) names a row of ptort_vops.def computing
 *    the op of the same name, and every row of ptort_vops.def is some op's.
 * 2. Dtype coverage, per arch: every element type the verifier accepts for a vector op
 *    (its row's DT column) runs in the runtime (the entry point is called on small tiles of
 *    that type); and the runtime takes no element type on A2/A3 that PTOAS allows on A5
 *    only (there it fails with PTORT_E_ARCH, as the verifier rejects it). Types the verifier
 *    rejects on every arch are the C API's own (docs/vector-ops.md) and not checked here.
 * 3. test/fuzz/pto.dict holds every op name.
 * Runs from the repository root (make check). */
#include <stdlib.h>
#include "ir.h"
#include "ptort.h"
#include "unit.h"

typedef struct {
    const char *entry;
    ptort_vop op;
    const char *name;
} RtRow;

static const RtRow rt_rows[] = {
#define PTORT_VK(entry, id, name, dtypes, a5) {"ptort_" #entry, PTORT_VOP_##id, name},
#include "ptort_vops.def"
};
#define NRT (sizeof rt_rows / sizeof rt_rows[0])

/* the op code argument of a row (A_VOP); -1 if none */
static int vop_arg(const OpInfo *in)
{
    for (int i = 0; i < in->nargs; i++)
        if (in->args[i].kind == ARG_LIT && !strncmp(in->args[i].text, "PTORT_VOP_", 10))
            return in->args[i].code;
    return -1;
}

/* ENTRY, or ENTRY's _tmp form (ptort_vunary_tmp: trsqrt with its tmp tile) */
static bool same_entry(const char *entry, const char *rt)
{
    size_t n = strlen(entry);
    return !strncmp(entry, rt, n) && (!rt[n] || !strcmp(rt + n, "_tmp"));
}

static void join_lists(void)
{
    int used[NRT] = {0};
    for (int k = 0; k < OP_COUNT; k++) {
        const OpInfo *in = op_info((OpKind)k);
        int vop = vop_arg(in);
        if (vop < 0)
            continue;
        int found = -1;
        for (size_t i = 0; i < NRT; i++)
            if (in->rt && same_entry(rt_rows[i].entry, in->rt) && (int)rt_rows[i].op == vop)
                found = (int)i;
        if (!CHECK(found >= 0)) {
            fprintf(stderr, "    %s: no ptort_vops.def row for %s, %d\n", in->name, in->rt, vop);
            continue;
        }
        used[found]++;
        if (!CHECK(!strcmp(rt_rows[found].name, in->name + 4)))
            fprintf(stderr, "    %s: the runtime's row computes %s\n", in->name, rt_rows[found].name);
    }
    for (size_t i = 0; i < NRT; i++)
        if (!CHECK(used[i] > 0))
            fprintf(stderr, "    ptort_vops.def: %s is no op's\n", rt_rows[i].name);
}

/* ---- dtype coverage ------------------------------------------------------------------- */

static const struct {
    DType d;
    ptort_dtype rt;
} dtypes[] = {
    {DT_I8, PTORT_I8},   {DT_SI8, PTORT_I8},   {DT_UI8, PTORT_U8},   {DT_I16, PTORT_I16},
    {DT_SI16, PTORT_I16}, {DT_UI16, PTORT_U16}, {DT_I32, PTORT_I32},  {DT_SI32, PTORT_I32},
    {DT_UI32, PTORT_U32}, {DT_F16, PTORT_F16},  {DT_BF16, PTORT_BF16}, {DT_F32, PTORT_F32},
};

/* A vec tile of DT at ADDR filled with 0x01 bytes (nonzero: integer divisions pass). */
static ptort_tile tile(ptort_ctx *ctx, ptort_dtype dt, int64_t rows, int64_t cols, int col_major,
                       int64_t vrows, int64_t vcols, int64_t addr)
{
    static uint8_t ones[32 * 32 * 4];
    memset(ones, 1, sizeof ones);
    ptort_tile t = ptort_tile_make(PTORT_VEC, dt, rows, cols, addr);
    if (col_major)
        t.blayout = PTORT_BL_COL_MAJOR;
    ptort_tile_fill(ctx, &t, ones, rows, cols);
    t.valid_rows = vrows;
    t.valid_cols = vcols;
    return t;
}

/* Runs op IN's runtime entry point on 8 x 32 tiles of DT: its status. */
static ptort_status run_op(ptort_ctx *ctx, const OpInfo *in, ptort_dtype dt)
{
    ptort_vop op = (ptort_vop)vop_arg(in);
    ptort_tile full = tile(ctx, dt, 8, 32, 0, 8, 32, 0), full2 = tile(ctx, dt, 8, 32, 0, 8, 32, 4096);
    ptort_tile dst = tile(ctx, dt, 8, 32, 0, 8, 32, 8192);
    ptort_tile rowv = tile(ctx, dt, 32, 1, 1, 8, 1, 12288), colv = tile(ctx, dt, 1, 32, 0, 1, 32, 16384);
    const char *rt = in->rt;
    if (op == PTORT_VOP_SHL || op == PTORT_VOP_SHR) { /* 0x01 bytes are no amount in [0, 31] */
        static const uint8_t zeros[32 * 32 * 4];
        ptort_tile_fill(ctx, &full2, zeros, 8, 32);
    }
    if (!strcmp(rt, "ptort_vbinary"))
        return ptort_vbinary(ctx, op, &full, &full2, &dst);
    if (!strcmp(rt, "ptort_vunary"))
        return ptort_vunary(ctx, op, &full, &dst);
    if (!strcmp(rt, "ptort_vunary_tmp"))
        return ptort_vunary_tmp(ctx, op, &full, NULL, &dst);
    if (!strcmp(rt, "ptort_vscalar"))
        return ptort_vscalar(ctx, op, &full, 1, &dst);
    if (!strcmp(rt, "ptort_vrdivs"))
        return ptort_vrdivs(ctx, 1, &full, &dst);
    if (!strcmp(rt, "ptort_texpands"))
        return ptort_texpands(ctx, 1, &dst);
    if (!strcmp(rt, "ptort_vrowreduce"))
        return ptort_vrowreduce(ctx, op, &full, NULL, &rowv);
    if (!strcmp(rt, "ptort_vcolreduce"))
        return ptort_vcolreduce(ctx, op, &full, NULL, &colv);
    if (!strcmp(rt, "ptort_vrowexpand"))
        return op == PTORT_VOP_COPY ? ptort_vrowexpand(ctx, op, &rowv, NULL, &dst)
                                    : ptort_vrowexpand(ctx, op, &full, &rowv, &dst);
    if (!strcmp(rt, "ptort_vcolexpand"))
        return op == PTORT_VOP_COPY ? ptort_vcolexpand(ctx, op, &colv, NULL, &dst)
                                    : ptort_vcolexpand(ctx, op, &full, &colv, &dst);
    ptort_tile idx = tile(ctx, PTORT_I32, 8, 32, 0, 8, 32, 20480);
    ptort_tile rowi = tile(ctx, PTORT_I32, 32, 1, 1, 8, 1, 24576), coli = tile(ctx, PTORT_U32, 1, 32, 0, 1, 32, 28672);
    if (!strcmp(rt, "ptort_tscatter")) { /* every index 0: 32-bit for 4-byte elements, else 16-bit */
        static const uint8_t zeros[32 * 32 * 4];
        ptort_tile ix = tile(ctx, ptort_dtype_size(dt) == 4 ? PTORT_I32 : PTORT_I16, 8, 32, 0, 8, 32, 20480);
        ptort_tile_fill(ctx, &ix, zeros, 8, 32);
        return ptort_tscatter(ctx, &full, &ix, &dst);
    }
    if (!strcmp(rt, "ptort_tscatter_mask")) {
        ptort_tile wide = tile(ctx, dt, 8, 64, 0, 8, 64, 49152);
        return ptort_tscatter_mask(ctx, PTORT_MASK_P0101, 0, &full, &wide);
    }
    if (!strcmp(rt, "ptort_tsort32")) {
        ptort_tile wide = tile(ctx, dt, 8, 32 * 8 / ptort_dtype_size(dt), 0, 8, 32 * 8 / ptort_dtype_size(dt), 32768);
        ptort_tile ui = tile(ctx, PTORT_U32, 8, 32, 0, 8, 32, 20480);
        return ptort_tsort32(ctx, &full, &ui, NULL, &wide);
    }
    if (!strcmp(rt, "ptort_thistogram")) {
        ptort_tile bins = ptort_tile_make(PTORT_VEC, PTORT_U32, 8, 256, 40960); /* written, not filled */
        ptort_tile sel = tile(ctx, PTORT_U8, 32, 1, 1, 8, 1, 24576);
        return ptort_thistogram(ctx, 0, &full, &sel, &bins);
    }
    if (!strcmp(rt, "ptort_tconcat")) {
        ptort_tile half0 = full, half1 = full2;
        half0.valid_cols = half1.valid_cols = 16;
        return ptort_tconcat(ctx, &half0, &half1, &dst);
    }
    if (!strcmp(rt, "ptort_vrowarg"))
        return ptort_vrowarg(ctx, op, &full, NULL, &rowi);
    if (!strcmp(rt, "ptort_vcolarg"))
        return ptort_vcolarg(ctx, op, &full, NULL, &coli);
    if (!strcmp(rt, "ptort_tgather"))
        return ptort_tgather(ctx, &full, &idx, NULL, &dst);
    if (!strcmp(rt, "ptort_tgather_mask"))
        return ptort_tgather_mask(ctx, PTORT_MASK_P1111, 0, &full, &dst);
    if (!strcmp(rt, "ptort_tgatherb"))
        return ptort_tgatherb(ctx, &full, &idx, &dst);
    /* compare and select: an 8-bit mask of 4 valid bytes per row */
    ptort_tile mask = tile(ctx, PTORT_I8, 8, 32, 0, 8, 4, 53248);
    if (!strcmp(rt, "ptort_vcmp"))
        return ptort_vcmp(ctx, PTORT_CMP_LT, &full, &full2, &mask);
    if (!strcmp(rt, "ptort_vcmps"))
        return ptort_vcmps(ctx, PTORT_CMP_EQ, &full, 1, &mask);
    if (!strcmp(rt, "ptort_vsel"))
        return ptort_vsel(ctx, &mask, &full, &full2, &dst);
    if (!strcmp(rt, "ptort_vsels"))
        return ptort_vsels(ctx, &mask, &full, 1, &dst);
    if (!strcmp(rt, "ptort_vternary"))
        return ptort_vternary(ctx, op, &full, &full2, &dst, &dst);
    if (!strcmp(rt, "ptort_vternarys"))
        return ptort_vternarys(ctx, op, &full, 1, &full2, &dst);
    if (!strcmp(rt, "ptort_vaxpy"))
        return ptort_vaxpy(ctx, op, &full, 1, &dst);
    if (!strcmp(rt, "ptort_tfillpad")) {
        dst.pad = PTORT_PAD_ZERO;
        return ptort_tfillpad(ctx, &full, &dst);
    }
    return PTORT_E_ARG;
}

static bool verifier_accepts(const OpInfo *in, bool a5, DType d)
{
    return (dtype_elem_bit(d) & (a5 ? in->dt_a5 : in->dt_a3)) != 0;
}

static void coverage(void)
{
    static const ptort_arch archs[] = {PTORT_A2, PTORT_A3, PTORT_A5};
    int ops = 0;
    for (size_t a = 0; a < 3; a++) {
        ptort_ctx *ctx = ptort_ctx_new(archs[a], NULL);
        bool a5 = archs[a] == PTORT_A5;
        for (int k = 0; k < OP_COUNT; k++) {
            const OpInfo *in = op_info((OpKind)k);
            if (!(in->opflags & OF_VEC) || in->cls == OC_CONVERT || in->cls == OC_CI || !in->rt)
                continue; /* tcvt and tci: pairs and index types, test_vec and the run tests; tgather's
                          * compare form: verified only */
            ops += a == 0;
            for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
                bool ver = verifier_accepts(in, a5, dtypes[i].d);
                ptort_status st = run_op(ctx, in, dtypes[i].rt);
                bool ran = st == PTORT_OK;
                /* a rejection is a dtype or arch one, never a malformed call */
                if (!CHECK(ran || st == PTORT_E_DTYPE || st == PTORT_E_ARCH))
                    fprintf(stderr, "    %s %s: %s\n", in->name, dtype_name(dtypes[i].d), ptort_error(ctx));
                if (ver && !CHECK(ran))
                    fprintf(stderr, "    %s on %s: the verifier accepts %s, the runtime fails: %s\n", in->name,
                            a5 ? "a5" : "a2/a3", dtype_name(dtypes[i].d), ptort_error(ctx));
                bool a5_only = !a5 && !ver && verifier_accepts(in, true, dtypes[i].d);
                if (a5_only && !CHECK(st == PTORT_E_ARCH))
                    fprintf(stderr, "    %s on a2/a3: PTOAS takes %s on A5 only, the runtime gives %s\n", in->name,
                            dtype_name(dtypes[i].d), ptort_status_name(st));
            }
        }
        ptort_ctx_free(ctx);
    }
    CHECK(ops >= 40);
}

/* ---- the literal lists ---------------------------------------------------------------- */

static void fuzz_dict(void)
{
    FILE *f = fopen("test/fuzz/pto.dict", "rb");
    if (!CHECK(f != NULL))
        return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    for (int k = 0; k < OP_COUNT; k++) {
        char q[64];
        snprintf(q, sizeof q, "\"%s\"\n", op_info((OpKind)k)->name);
        if (!CHECK(strstr(text, q) != NULL))
            fprintf(stderr, "    test/fuzz/pto.dict lacks %s", q);
    }
}

int main(void)
{
    join_lists();
    coverage();
    fuzz_dict();
    return unit_done();
}
