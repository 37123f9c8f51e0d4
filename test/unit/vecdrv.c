/* vecdrv.c - runs the runtime's vector ops (ptort_v*, ptort_texpands, ptort_tcvt, ptort_tci)
 * on tiles read from .npy files, for test/run/vecdiff.py, which compares every result byte for
 * byte with the independent Python model (test/run/ref.py). One process runs a whole manifest:
 *
 *     vecdrv MANIFEST
 *
 * One case per line, fields separated by blanks:
 *
 *     CLASS OP ARCH RMODE SAT SCALAR OUT DST [SRC0 [SRC1]]
 *
 * CLASS is binary unary scalar expands rowreduce colreduce rowexpand colexpand tcvt tci rowarg colarg sort32 histogram concat gather
 * gathermask gatherb fillpad (gathermask: OP row or col, SCALAR the ptort_mask_pattern;
 * fillpad: SCALAR dst's pad); OP a
 * ptort_vop name (ptort_vops.def's lowercase names: add sub ... exp sum copy; '-' where
 * unused); ARCH a2 a3 a5; RMODE a ptort_rmode name (NONE RINT ...); SAT 0 or 1; SCALAR the
 * scalar's bits (texpands, tile-scalar ops, tci's start; tci's descending is OP 'desc').
 * A tile is FILE:DTYPE:ROWS:COLS:VALID_ROWS:VALID_COLS:BLAYOUT (r or c, none_box): FILE holds
 * its whole physical shape in logical order, so padding and the positions of dst outside its
 * valid region start with known bytes. The dst tile after the op goes to OUT (.npy, the
 * physical shape). Prints one line per case, "ok" or "error STATUS: MESSAGE"; exits 1 on a
 * malformed manifest or file. VECDRV_NUMERICS=sim runs every case with the CPU simulator's
 * numerics (ptort_ctx_set_numerics).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptort.h"

static const char *const vop_names[] = {
#define PTORT_VOP(id, name) #name,
#include "ptort_vops.def"
};
static const char *const rm_names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD"};

typedef struct {
    ptort_tile t;
    ptort_npy data;
} Operand;

static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int dtype_of(const char *s)
{
    for (int d = 0; d < PTORT_NUM_DTYPES; d++)
        if (strcmp(s, ptort_dtype_name((ptort_dtype)d)) == 0)
            return d;
    return -1;
}

/* Parses a tile spec, reads its file and places it at *ADDR (then advances *ADDR). */
static int operand(ptort_ctx *ctx, char *spec, int64_t *addr, Operand *o)
{
    char *f[7];
    int n = 0;
    for (char *p = strtok(spec, ":"); p && n < 7; p = strtok(NULL, ":"))
        f[n++] = p;
    int dt = n == 7 ? dtype_of(f[1]) : -1;
    if (dt < 0) {
        fprintf(stderr, "vecdrv: bad tile spec\n");
        return 1;
    }
    ptort_tile t = ptort_tile_make(PTORT_VEC, (ptort_dtype)dt, atoll(f[2]), atoll(f[3]), *addr);
    t.valid_rows = atoll(f[4]);
    t.valid_cols = atoll(f[5]);
    t.blayout = f[6][0] == 'c' ? PTORT_BL_COL_MAJOR : PTORT_BL_ROW_MAJOR;
    if (ptort_npy_read(ctx, f[0], &o->data) != PTORT_OK) {
        fprintf(stderr, "vecdrv: %s: %s\n", f[0], ptort_error(ctx));
        return 1;
    }
    if (o->data.ndim != 2 || o->data.shape[0] != t.rows || o->data.shape[1] != t.cols ||
        o->data.itemsize != (size_t)ptort_dtype_size(t.dtype)) {
        fprintf(stderr, "vecdrv: %s does not hold a %lldx%lld %s tile\n", f[0],
                (long long)t.rows, (long long)t.cols, f[1]);
        return 1;
    }
    if (ptort_tile_fill(ctx, &t, o->data.data, t.rows, t.cols) != PTORT_OK) {
        fprintf(stderr, "vecdrv: %s: %s\n", f[0], ptort_error(ctx));
        return 1;
    }
    int64_t al = ptort_loc_alignment(PTORT_VEC);
    *addr += (ptort_tile_bytes(&t) + al - 1) / al * al;
    o->t = t;
    return 0;
}

/* Runs one manifest line; returns 1 on a malformed line or file. */
static int run_case(ptort_ctx *const ctxs[3], char *line)
{
    char *f[10];
    int n = 0;
    for (char *p = strtok(line, " \t\n"); p && n < 10; p = strtok(NULL, " \t\n"))
        f[n++] = p;
    if (n == 0)
        return 0;
    static const char *const arch_names[] = {"a2", "a3", "a5"};
    int arch = n >= 8 ? lookup(f[2], arch_names, 3) : -1;
    int rm = n >= 8 ? lookup(f[3], rm_names, 7) : -1;
    if (arch < 0 || rm < 0) {
        fprintf(stderr, "vecdrv: malformed case\n");
        return 1;
    }
    ptort_ctx *ctx = ctxs[arch];
    int op = lookup(f[1], vop_names, PTORT_NUM_VOPS);
    int sat = atoi(f[4]);
    uint32_t scalar = (uint32_t)strtoul(f[5], NULL, 0);
    const char *out = f[6];
    Operand ops[3];
    memset(ops, 0, sizeof ops);
    int nops = n - 7;
    int64_t addr = 0;
    int bad = 0;
    for (int i = 0; i < nops && !bad; i++)
        bad = operand(ctx, f[7 + i], &addr, &ops[i]);
    if (bad || nops < 1) {
        for (int i = 0; i < 3; i++)
            ptort_npy_free(&ops[i].data);
        return 1;
    }
    const ptort_tile *d = &ops[0].t, *s0 = nops > 1 ? &ops[1].t : NULL,
                     *s1 = nops > 2 ? &ops[2].t : NULL;
    const char *cls = f[0];
    ptort_status st = PTORT_E_ARG;
    if (strcmp(cls, "binary") == 0)
        st = ptort_vbinary(ctx, (ptort_vop)op, s0, s1, d);
    else if (strcmp(cls, "unary") == 0)
        st = ptort_vunary(ctx, (ptort_vop)op, s0, d);
    else if (strcmp(cls, "scalar") == 0)
        st = ptort_vscalar(ctx, (ptort_vop)op, s0, scalar, d);
    else if (strcmp(cls, "expands") == 0)
        st = ptort_texpands(ctx, scalar, d);
    else if (strcmp(cls, "rowreduce") == 0)
        st = ptort_vrowreduce(ctx, (ptort_vop)op, s0, NULL, d);
    else if (strcmp(cls, "colreduce") == 0)
        st = ptort_vcolreduce(ctx, (ptort_vop)op, s0, NULL, d);
    else if (strcmp(cls, "rowexpand") == 0)
        st = ptort_vrowexpand(ctx, (ptort_vop)op, s0, s1, d);
    else if (strcmp(cls, "colexpand") == 0)
        st = ptort_vcolexpand(ctx, (ptort_vop)op, s0, s1, d);
    else if (strcmp(cls, "tcvt") == 0)
        st = ptort_tcvt(ctx, s0, d, (ptort_rmode)rm, sat, NULL);
    else if (strcmp(cls, "tci") == 0)
        st = ptort_tci(ctx, d, (int32_t)scalar, strcmp(f[1], "desc") == 0);
    else if (strcmp(cls, "rowarg") == 0)
        st = ptort_vrowarg(ctx, (ptort_vop)op, s0, NULL, d);
    else if (strcmp(cls, "colarg") == 0)
        st = ptort_vcolarg(ctx, (ptort_vop)op, s0, NULL, d);
    else if (strcmp(cls, "sort32") == 0)
        st = ptort_tsort32(ctx, s0, s1, NULL, d);
    else if (strcmp(cls, "histogram") == 0)
        st = ptort_thistogram(ctx, (int)scalar, s0, s1, d);
    else if (strcmp(cls, "concat") == 0)
        st = ptort_tconcat(ctx, s0, s1, d);
    else if (strcmp(cls, "gather") == 0)
        st = ptort_tgather(ctx, s0, s1, NULL, d);
    else if (strcmp(cls, "gathermask") == 0)
        st = ptort_tgather_mask(ctx, (ptort_mask_pattern)scalar, strcmp(f[1], "col") == 0, s0, d);
    else if (strcmp(cls, "gatherb") == 0)
        st = ptort_tgatherb(ctx, s0, s1, d);
    else if (strcmp(cls, "fillpad") == 0) {
        ops[0].t.pad = (int32_t)scalar; /* dst's pad: 1 zero, 2 max, 3 min */
        st = ptort_tfillpad(ctx, s0, d);
    }
    else
        printf("error unknown class '%s'\n", cls);
    if (st == PTORT_OK) {
        /* the physical shape back, in the dst file's own descr */
        if (ptort_tile_read(ctx, d, ops[0].data.data, d->rows, d->cols) != PTORT_OK ||
            ptort_npy_write(ctx, out, &ops[0].data) != PTORT_OK) {
            fprintf(stderr, "vecdrv: %s: %s\n", out, ptort_error(ctx));
            bad = 1;
        } else {
            printf("ok\n");
        }
    } else {
        printf("error %s: %s\n", ptort_status_name(st), ptort_error(ctx));
    }
    for (int i = 0; i < 3; i++)
        ptort_npy_free(&ops[i].data);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: vecdrv MANIFEST\n");
        return 2;
    }
    FILE *fp = fopen(argv[1], "r");
    if (!fp) {
        perror(argv[1]);
        return 1;
    }
    ptort_ctx *ctxs[3] = {ptort_ctx_new(PTORT_A2, NULL), ptort_ctx_new(PTORT_A3, NULL),
                          ptort_ctx_new(PTORT_A5, NULL)};
    int rc = !ctxs[0] || !ctxs[1] || !ctxs[2];
    /* VECDRV_NUMERICS=sim: the CPU simulator's numerics (vecdiff.py --numerics sim) */
    const char *num = getenv("VECDRV_NUMERICS");
    for (int i = 0; i < 3 && !rc && num && strcmp(num, "sim") == 0; i++)
        ptort_ctx_set_numerics(ctxs[i], PTORT_NUMERICS_SIM);
    char line[4096];
    while (!rc && fgets(line, sizeof line, fp))
        rc = run_case(ctxs, line);
    fclose(fp);
    for (int i = 0; i < 3; i++)
        ptort_ctx_free(ctxs[i]);
    return rc;
}
