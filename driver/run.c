/* run.c - executables for --emit=exe and `ptoas run` (docs/cli.md): finding
 * the runtime, running $CC, temporary directories, running the kernel.
 *
 * The runtime is looked up relative to this executable (/proc/self/exe):
 * installed, <bindir>/../include/ptort.h and <bindir>/../lib/libptort.a; in
 * the build tree (build/ptoas, build/asan/ptoas), <root>/runtime/ptort.h and
 * the libptort.a next to the binary. A sanitized ptoas (the test build) links
 * the sanitized library, which needs the same -fsanitize flags: GCC and Clang
 * define __SANITIZE_ADDRESS__ (or __has_feature) when this file is built with
 * them, so the flavour is fixed when ptoas is built. */
#include "run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena.h"
#include "diag.h"
#include "file.h"

extern char **environ;

volatile pid_t run_child_pid;

#if defined(__SANITIZE_ADDRESS__)
#define PTOAS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTOAS_SANITIZED 1
#endif
#endif

/* Flags the runtime library of this ptoas needs in the programs linked with it. */
static const char *const flavour_flags[] = {
#ifdef PTOAS_SANITIZED
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
#endif
    NULL,
};

/* ---- small helpers ------------------------------------------------------------ */

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = xmalloc(na + nb + 2);
    memcpy(p, a, na);
    p[na] = '/';
    memcpy(p + na + 1, b, nb + 1);
    return p;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of this executable, malloc'ed; NULL if unknown. */
static char *bindir(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return xstrdup(buf[0] ? buf : "/");
}

/* Finds ptort.h's directory and libptort.a (malloc'ed); false after printing
 * where it looked. */
static bool find_runtime(char **incdir, char **lib)
{
    char *bin = bindir();
    if (!bin) {
        diag_tool_error("cannot find the runtime: /proc/self/exe is not readable");
        return false;
    }
    /* installed: PREFIX/bin/ptoas, PREFIX/include/ptort.h, PREFIX/lib/libptort.a */
    char *inc = join(bin, "../include"), *h = join(inc, "ptort.h"), *a = join(bin, "../lib/libptort.a");
    if (is_file(h) && is_file(a)) {
        free(h);
        free(bin);
        *incdir = inc;
        *lib = a;
        return true;
    }
    /* build tree: build/ptoas or build/asan/ptoas, the library next to it */
    char *blib = join(bin, "libptort.a");
    const char *const ups[] = {"../runtime", "../../runtime"};
    for (int i = 0; i < 2; i++) {
        char *rinc = join(bin, ups[i]), *rh = join(rinc, "ptort.h");
        if (is_file(rh) && is_file(blib)) {
            free(rh);
            free(inc), free(h), free(a), free(bin);
            *incdir = rinc;
            *lib = blib;
            return true;
        }
        free(rinc);
        free(rh);
    }
    diag_tool_error("cannot find the ptoas runtime: looked for %s and %s (installed), and for "
                    "%s/../runtime/ptort.h and %s (build tree)",
                    h, a, bin, blib);
    free(inc), free(h), free(a), free(blib), free(bin);
    return false;
}

/* Appends s to the command text, quoted for a POSIX shell when needed. */
static void put_word(char **cmd, size_t *len, size_t *cap, const char *s)
{
    bool plain = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,+:@%", *p))
            plain = false;
    size_t need = *len + 4 * strlen(s) + 4;
    if (need > *cap) {
        *cap = 2 * need;
        *cmd = xrealloc(*cmd, *cap);
    }
    char *o = *cmd + *len;
    if (*len)
        *o++ = ' ';
    if (plain) {
        o += sprintf(o, "%s", s);
    } else {
        *o++ = '\'';
        for (const char *p = s; *p; p++) {
            if (*p == '\'') {
                memcpy(o, "'\\''", 4);
                o += 4;
            } else {
                *o++ = *p;
            }
        }
        *o++ = '\'';
    }
    *o = '\0';
    *len = (size_t)(o - *cmd);
}

/* ---- compiling ---------------------------------------------------------------- */

int run_compile(const char *c_path, const char *exe_path)
{
    struct stat st;
    if (stat(exe_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        diag_tool_error("cannot write the executable to '%s': not a regular file", exe_path);
        return 2;
    }
    char *incdir, *lib;
    if (!find_runtime(&incdir, &lib))
        return 2;

    /* the output is linked to a temporary name next to exe_path, renamed on success */
    char *tmp = file_temp_template(exe_path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_tool_error("cannot create '%s': %s", exe_path, strerror(errno));
        free(tmp), free(incdir), free(lib);
        return 2;
    }
    file_temp_track(tmp, false);
    close(fd);

    /* argv: $CC split at blanks (every word of it), then our flags */
    const char *cc_env = getenv("CC");
    char *cc = xstrdup(cc_env && *cc_env ? cc_env : "cc");
    char *iflag = xmalloc(strlen(incdir) + 3);
    sprintf(iflag, "-I%s", incdir);
    size_t nwords = 1;
    for (const char *p = cc; *p; p++)
        nwords += *p == ' ' || *p == '\t';
    const char **argv = xmalloc((nwords + 16) * sizeof *argv);
    int argc = 0;
    for (char *p = strtok(cc, " \t"); p; p = strtok(NULL, " \t"))
        argv[argc++] = p;
    if (argc == 0)
        argv[argc++] = "cc";
    argv[argc++] = "-std=c11";
    argv[argc++] = "-O2";
    for (int i = 0; flavour_flags[i]; i++)
        argv[argc++] = flavour_flags[i];
    argv[argc++] = iflag;
    argv[argc++] = "-o";
    argv[argc++] = tmp;
    argv[argc++] = c_path;
    argv[argc++] = lib;
    argv[argc++] = "-lm";
    argv[argc] = NULL;

    char *cmd = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < argc; i++)
        put_word(&cmd, &len, &cap, argv[i]);

    /* run it with stdout and stderr into a pipe */
    int status = 2;
    int pfd[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    bool have_fa = false;
    if (pipe(pfd) != 0 || posix_spawn_file_actions_init(&fa) != 0) {
        diag_tool_error("cannot run the C compiler: %s", strerror(errno));
        goto out;
    }
    have_fa = true;
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
    posix_spawn_file_actions_addclose(&fa, pfd[0]);
    posix_spawn_file_actions_addclose(&fa, pfd[1]);
    fflush(stdout);
    fflush(stderr);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    if (err == 0)
        run_child_pid = pid;
    close(pfd[1]);
    pfd[1] = -1;
    if (err != 0) {
        diag_tool_error("cannot run the C compiler '%s': %s (set CC to a C compiler)", argv[0], strerror(err));
        goto out;
    }
    char *text = NULL;
    size_t tlen = 0, tcap = 0;
    for (;;) {
        if (tlen + 4096 > tcap) {
            tcap = 2 * (tlen + 4096);
            text = realloc(text, tcap);
            DIAG_ASSERT(text != NULL);
        }
        ssize_t r = read(pfd[0], text + tlen, tcap - tlen);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        tlen += (size_t)r;
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    run_child_pid = 0;
    struct stat made;
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
        (stat(tmp, &made) != 0 || !S_ISREG(made.st_mode) || made.st_size == 0)) {
        /* CC=true "succeeds" without writing anything */
        diag_tool_error("the C compiler exited 0 but wrote no executable: %s", cmd);
        if (tlen)
            fwrite(text, 1, tlen, stderr);
        status = 1;
    } else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
        if (rename(tmp, exe_path) != 0) {
            diag_tool_error("cannot write '%s': %s", exe_path, strerror(errno));
        } else {
            /* the linker made it executable; a 0600 mkstemp file it reused is not */
            mode_t mask = umask(0);
            umask(mask);
            chmod(exe_path, 0777 & ~mask);
            status = 0;
        }
    } else {
        if (WIFEXITED(ws))
            diag_tool_error("the C compiler failed (exit status %d): %s", WEXITSTATUS(ws), cmd);
        else
            diag_tool_error("the C compiler was killed by signal %d: %s", WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, cmd);
        if (tlen)
            fwrite(text, 1, tlen, stderr);
        status = 1;
    }
    free(text);
out:
    if (have_fa)
        posix_spawn_file_actions_destroy(&fa);
    if (pfd[0] >= 0)
        close(pfd[0]);
    if (pfd[1] >= 0)
        close(pfd[1]);
    if (status != 0)
        unlink(tmp);
    file_temp_untrack(tmp);
    free(cmd), free(cc), free(iflag), free(tmp), free(incdir), free(lib), free(argv);
    return status;
}

/* ---- temporary directories ---------------------------------------------------------- */

char *run_tmpdir_create(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *dir = join(base, "ptoas.XXXXXX");
    if (!mkdtemp(dir)) {
        diag_tool_error("cannot create a temporary directory in '%s': %s", base, strerror(errno));
        free(dir);
        return NULL;
    }
    file_temp_track(dir, true);
    return dir;
}

void run_tmpdir_remove(const char *dir)
{
    if (!dir)
        return;
    file_temp_untrack(dir);
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            char *p = join(dir, de->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ---- running ---------------------------------------------------------------------- */

int run_exec(const char *exe, const char *const *args, int nargs, RunLineFn on_stderr, void *ctx)
{
    const char **argv = xmalloc(((size_t)nargs + 2) * sizeof *argv);
    argv[0] = exe;
    for (int i = 0; i < nargs; i++)
        argv[i + 1] = args[i];
    argv[nargs + 1] = NULL;
    fflush(stdout);
    fflush(stderr);
    /* on_stderr: the kernel's stderr comes through a pipe, line by line */
    int fds[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    bool piped = on_stderr && pipe(fds) == 0;
    if (piped) {
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
        posix_spawn_file_actions_addclose(&fa, fds[0]);
        posix_spawn_file_actions_addclose(&fa, fds[1]);
    }
    pid_t pid;
    int err = posix_spawn(&pid, exe, piped ? &fa : NULL, NULL, (char *const *)argv, environ);
    free(argv);
    if (piped) {
        posix_spawn_file_actions_destroy(&fa);
        close(fds[1]);
    }
    if (err != 0) {
        if (piped)
            close(fds[0]);
        diag_tool_error("cannot run the kernel executable: %s", strerror(err));
        return 3;
    }
    run_child_pid = pid;
    if (piped) {
        FILE *in = fdopen(fds[0], "r");
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while (in && (n = getline(&line, &cap, in)) > 0) {
            if (line[n - 1] == '\n')
                line[n - 1] = '\0';
            on_stderr(ctx, line);
        }
        free(line);
        if (in)
            fclose(in);
        else
            close(fds[0]);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    run_child_pid = 0;
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    diag_tool_error("the kernel executable was killed by signal %d (this is a bug)",
                    WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    return 3;
}
