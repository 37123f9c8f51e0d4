/* pass.c - the pipeline table (pass.h): the one list of passes and their names. */
#include <string.h>
#include "pass.h"

const PassDef pass_pipeline[] = {
    {PASS_VERIFY, verify_module},
    {PASS_BUFFERIZE, bufferize_module},
    {PASS_TASSIGN, tassign_module},
    {PASS_INSERT_SYNC, insert_sync_module},
};
const unsigned pass_pipeline_len = sizeof pass_pipeline / sizeof pass_pipeline[0];

static const char *const pass_names[PASS_COUNT] = {"parse", "verify", "bufferize", "tassign", "insert-sync"};

const char *pass_name(PassId p) { return (unsigned)p < PASS_COUNT ? pass_names[p] : "?"; }

PassId pass_lookup(const char *s)
{
    for (int i = 0; i < PASS_COUNT; i++)
        if (strcmp(s, pass_names[i]) == 0)
            return (PassId)i;
    return PASS_COUNT;
}

/* Whether a value of f has a tile type. */
static bool is_tile_value(const Func *f, ValueId v) { return v != NO_VALUE && type_is_tile(f->values[v].type); }

/* Whether op or an op nested in its regions reads, writes or defines a tile. */
static bool touches_tiles(const Func *f, const Op *op)
{
    for (uint32_t i = 0; i < op->nopnds; i++)
        if (is_tile_value(f, op->opnds[i]))
            return true;
    for (uint32_t i = 0; i < op->nres; i++)
        if (is_tile_value(f, op->res[i]))
            return true;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (const Block *b = op->regions[r].first; b; b = b->next) {
            for (uint32_t i = 0; i < b->nargs; i++)
                if (is_tile_value(f, b->args[i]))
                    return true;
            for (const Op *o = b->first; o; o = o->next)
                if (touches_tiles(f, o))
                    return true;
        }
    return false;
}

bool pass_reject_unregistered(const Module *m, DiagEngine *d, const char *pass, bool tiles_only)
{
    bool ok = true;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *f = m->mods[i]->funcs[j];
            for (const Op *op = ir_first_op(f); op; op = ir_next_op(op))
                if (op->kind == OP_UNREGISTERED && (!tiles_only || touches_tiles(f, op))) {
                    diag_error(d, op->name_span, "%s cannot handle the unregistered op '%.*s'%s", pass,
                               (int)op->uname.len, op->uname.p, tiles_only ? ", which uses tiles" : "");
                    ok = false;
                }
        }
    return ok;
}
