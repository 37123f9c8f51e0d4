/* pipe.h - the hardware pipes (units) ops run on, and the positional forms of the
 * synchronization ops (issue 23). An op's pipe is derived from its class and the memory
 * spaces of its operands (op_pipe), not written in ops.def: one tmov row runs on MTE1,
 * FIX or V depending on where its tiles live (docs/architecture.md, "Pipes"). */
#ifndef PTOAS_PIPE_H
#define PTOAS_PIPE_H
#include "ir.h"

/* PTOAS's PIPE enum, in its order, with PIPE_NONE for ops that run on no pipe (metadata:
 * allocations, views, sections). */
typedef enum {
    PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX,
    PIPE_NONE, PIPE_COUNT
} Pipe;

/* "PIPE_V", ...; "none" for PIPE_NONE */
const char *pipe_name(Pipe p);
/* The pipe spelled s[0, n) ("PIPE_MTE2"), or PIPE_COUNT. */
Pipe pipe_lookup(const char *s, size_t n);
/* The pipe named by op's attribute KEY, #pto.pipe<P> (or the `<P>` inside it); PIPE_NONE if
 * none. */
Pipe pipe_attr(const Op *op, const char *key);
/* The pipe op runs on in function f (its operand types decide for moves, loads, stores);
 * for a flag or barrier, the pipe it orders. */
Pipe op_pipe(const Func *f, const Op *op);

/* The result count of a pipe, FIFO, sync or multi-buffer op; -1 for other ops. */
int pipe_op_results(OpKind k);

/* One positional item of a sync op's custom form. */
typedef enum {
    SI_ATTR,      /* a #pto.KIND<V> attribute; printed stripped `<V>` when `kind` is fixed */
    SI_ANY,       /* #pto.pipe_event_type<..> or #pto.sync_op_type<..>, printed in full */
    SI_INT,       /* an i32 literal */
    SI_OPERAND,   /* an SSA operand (its role is the op's first) */
    SI_INT_OR_OPERAND /* sync.set's event id: a literal, or an index operand */
} SyncItemKind;

typedef struct SyncItem {
    const char *key;      /* the attribute's name */
    SyncItemKind kind;
    const char *attr;     /* SI_ATTR / SI_ANY: the #pto kind a stripped `<V>` stands for */
    bool optional;
} SyncItem;

typedef struct SyncForm {
    OpKind op;
    bool bracket;         /* `[a, b, c]` rather than `a, b` */
    int n;
    SyncItem items[3];
} SyncForm;

/* The positional form of a SYN_SYNC op (NULL: none, as pto.get_block_idx). */
const SyncForm *sync_form(OpKind k);

/* What a synchronization op orders among one core's pipes, as the race checker follows it
 * (docs/launch.md 5); the kinds are in ptort_race_sync_kind's order. */
typedef enum { SO_SET_FLAG, SO_WAIT_FLAG, SO_BARRIER, SO_GET_BUF, SO_RLS_BUF } SyncOrderKind;
typedef struct SyncOrder {
    SyncOrderKind kind;
    Pipe pipe, dst;       /* a flag's src and dst pipe; a barrier's or a buffer token's pipe */
    int64_t id;           /* the event (EVENT_IDn: n) or buffer id */
    ValueId id_val;       /* the operand holding a dynamic event id, else NO_VALUE */
} SyncOrder;
/* The order sync op OP makes into *o; false for the ops whose order is across cores
 * (sync.set/wait, syncall: the launch's), fences, and ops whose pipes are not spelled out. */
bool sync_order(const Op *op, SyncOrder *o);

/* Whether f is automatically synchronized: it has no op that orders its own pipes (flag,
 * barrier, event, buffer token; cross-core signals and fences do not count), so its author
 * left them to the compiler. The one place that decides both which functions `ptoas run`
 * synchronizes by default (insert_sync_wanted) and which ones the race checker skips
 * (docs/launch.md 4, 5): a function the insert-sync pass ran on has flags and is checked. */
bool pipe_func_auto_synced(const Func *f);

#endif
