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
