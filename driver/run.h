/* run.h - executables: compiling generated C with $CC against the runtime
 * (--emit=exe, `ptoas run`), temporary directories, and running the result.
 * Messages go to stderr as "ptoas: error: ..."; docs/codegen.md. */
#ifndef PTOAS_RUN_H
#define PTOAS_RUN_H
#include <stdbool.h>
#include <sys/types.h>

/* The compiler or kernel process running right now (0 = none): a signal that
 * ends ptoas is passed on to it, and waited for, before the temporaries go. */
extern volatile pid_t run_child_pid;

/* Compiles the C file c_path into the executable exe_path (written
 * atomically) with $CC (default cc), the runtime header and library found
 * next to this ptoas (<bindir>/../include, <bindir>/../lib) or in its build
 * tree, and -lm. Returns 0; 1 when the compiler failed (the command and its
 * output are printed; also when it exits 0 without writing a non-empty
 * file); 2 when there is no compiler, no runtime, or exe_path cannot be
 * written. With use_cache, the kernel cache (cache.h) is looked up first and
 * a hit is copied to exe_path without starting the compiler; a build is
 * stored there. */
int run_compile(const char *c_path, const char *exe_path, bool use_cache);

/* Creates a private temporary directory (under $TMPDIR or /tmp), tracked
 * for removal on a signal (file_temp_track); returns its malloc'ed path, or
 * NULL after printing why. */
char *run_tmpdir_create(void);

/* Removes the directory and the files directly in it (NULL is accepted; so is
 * a directory removed already). A SIGKILL of ptoas leaves none either: a
 * child process removes the directory when ptoas ends. */
void run_tmpdir_remove(const char *dir);

/* A line the kernel wrote to stderr, without its newline. */
typedef void (*RunLineFn)(void *ctx, const char *line);

/* Runs exe with args[0, nargs) (argv[0] = exe), sharing stdin and stdout,
 * and stderr too unless on_stderr is given: then each line of the kernel's
 * stderr goes to on_stderr (the JSON mode turns them into JSON lines).
 * The kernel dies with ptoas (PR_SET_PDEATHSIG), and tmpdir (the directory of
 * run_tmpdir_create holding exe, or NULL) is removed as soon as it runs.
 * timeout: seconds after which the kernel is killed (0 = none). Returns its
 * exit status; 1 when it ran out of time; 3 when it was killed by a signal or
 * could not start (after printing why). */
int run_exec(const char *exe, const char *const *args, int nargs, const char *tmpdir, unsigned timeout,
             RunLineFn on_stderr, void *ctx);

#endif
