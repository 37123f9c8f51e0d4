/* launch.c - the launch coordinates of the core a context runs (issue 23, docs/launch.md):
 * what pto.get_block_idx, get_block_num, get_subblock_idx and get_subblock_num return. */
#include "internal.h"

int64_t ptort_block_id(const ptort_ctx *ctx, ptort_block_query q)
{
    return ctx && (unsigned)q <= PTORT_SUBBLOCK_NUM ? ctx->launch[q] : 0;
}

ptort_status ptort_set_launch(ptort_ctx *ctx, int64_t block_idx, int64_t block_num, int64_t sub_idx, int64_t sub_num)
{
    if (!ctx)
        return PTORT_E_ARG;
    if (block_num < 1 || block_idx < 0 || block_idx >= block_num || sub_num < 1 || sub_idx < 0 || sub_idx >= sub_num)
        return ptort_fail(ctx, PTORT_E_ARG, "launch: block %lld of %lld, subblock %lld of %lld is no core of a launch",
                          (long long)block_idx, (long long)block_num, (long long)sub_idx, (long long)sub_num);
    ctx->launch[PTORT_BLOCK_IDX] = block_idx;
    ctx->launch[PTORT_BLOCK_NUM] = block_num;
    ctx->launch[PTORT_SUBBLOCK_IDX] = sub_idx;
    ctx->launch[PTORT_SUBBLOCK_NUM] = sub_num;
    return PTORT_OK;
}
