/* lsp.h - `ptoas lsp`: a Language Server Protocol 3.17 server (docs/lsp.md).
 *
 * lsp_main speaks JSON-RPC with Content-Length framing on a pair of file
 * descriptors. The rest is for tests and the fuzz target: a server fed one
 * message body at a time, writing framed messages to out. */
#ifndef PTOAS_LSP_H
#define PTOAS_LSP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct LspServer LspServer;

/* Runs the server until `exit` or end of input; returns the exit status
 * (0 after shutdown + exit, 1 otherwise). */
int lsp_main(int in_fd, FILE *out);

LspServer *lsp_new(FILE *out);
void lsp_free(LspServer *s);
/* Handles one message body (the bytes after the header). */
void lsp_handle(LspServer *s, const char *body, size_t len);
/* Analyzes and publishes every document changed since the last call. */
void lsp_flush(LspServer *s);
/* True once `exit` was received; *status is the exit status. */
bool lsp_exited(const LspServer *s, int *status);

#endif
