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
/* realpath (the compiler's identity in the cache key) is X/Open, not base POSIX */
#define _XOPEN_SOURCE 700
#include "run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena.h"
#include "cache.h"
#include "config.h"
#include "diag.h"
#include "file.h"

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

/* ---- child processes ------------------------------------------------------------- */

/* The child side of spawn: it gets deathsig when ptoas dies (PR_SET_PDEATHSIG; if ptoas
 * died before that was set, at once), the default action of the signals ptoas handles,
 * and writes errno to exfd when it cannot start. */
static _Noreturn void child_exec(const char *const *argv, bool search, int deathsig, int outfd, int errfd,
                                 int exfd, pid_t parent, const sigset_t *mask)
{
    static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM};
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) {
        struct sigaction cur;
        if (sigaction(handled[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
            signal(handled[i], SIG_DFL);
    }
    if ((outfd >= 0 && dup2(outfd, 1) < 0) || (errfd >= 0 && dup2(errfd, 2) < 0))
        _exit(127);
    if (prctl(PR_SET_PDEATHSIG, deathsig) != 0 || getppid() != parent)
        _exit(127);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (search)
        execvp(argv[0], (char *const *)argv);
    else
        execv(argv[0], (char *const *)argv);
    int e = errno;
    ssize_t w = write(exfd, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* Starts argv (searched in PATH when search) with stdout on outfd and stderr on errfd
 * (-1: ptoas's own), as run_child_pid; it gets deathsig when ptoas dies. The pipes'
 * other ends must be close-on-exec. Returns its pid once it has exec'd, else -1 with
 * *err set. */
static pid_t spawn(const char *const *argv, bool search, int deathsig, int outfd, int errfd, int *err)
{
    int ex[2];
    if (pipe(ex) != 0 || fcntl(ex[1], F_SETFD, FD_CLOEXEC) != 0) {
        *err = errno;
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old); /* no handler of ptoas runs in the child */
    pid_t parent = getpid(), pid = fork();
    if (pid == 0)
        child_exec(argv, search, deathsig, outfd, errfd, ex[1], parent, &old);
    *err = errno;
    if (pid > 0)
        run_child_pid = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(ex[1]);
    ssize_t got = 0;
    if (pid > 0)
        while ((got = read(ex[0], err, sizeof *err)) < 0 && errno == EINTR)
            ;
    close(ex[0]);
    if (pid > 0 && got > 0) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        run_child_pid = 0;
        return -1;
    }
    return pid;
}

/* ---- compiling ---------------------------------------------------------------- */

/* The compiler's command line: $CC split at blanks (every word of it), then our flags;
 * argv[out] is the output file, filled in once it exists. */
typedef struct CcArgs {
    char *cc;          /* the words of $CC, NUL-separated */
    char *iflag;
    const char **argv;
    int argc, ncc, out;
} CcArgs;

static void cc_args(CcArgs *a, const char *incdir, const char *lib, const char *c_path)
{
    const char *cc_env = getenv("CC");
    a->cc = xstrdup(cc_env && *cc_env ? cc_env : "cc");
    a->iflag = xmalloc(strlen(incdir) + 3);
    sprintf(a->iflag, "-I%s", incdir);
    size_t nwords = 1;
    for (const char *p = a->cc; *p; p++)
        nwords += *p == ' ' || *p == '\t';
    a->argv = xmalloc((nwords + 16) * sizeof *a->argv);
    int argc = 0;
    for (char *p = strtok(a->cc, " \t"); p; p = strtok(NULL, " \t"))
        a->argv[argc++] = p;
    if (argc == 0)
        a->argv[argc++] = "cc";
    a->ncc = argc;
    a->argv[argc++] = "-std=c11";
    a->argv[argc++] = "-O2";
    for (int i = 0; flavour_flags[i]; i++)
        a->argv[argc++] = flavour_flags[i];
    a->argv[argc++] = a->iflag;
    a->argv[argc++] = "-o";
    a->out = argc;
    a->argv[argc++] = "";
    a->argv[argc++] = c_path;
    a->argv[argc++] = lib;
    a->argv[argc++] = "-lm";
    a->argv[argc++] = "-pthread"; /* a launch runs its cores as threads (docs/launch.md) */
    a->argv[argc] = NULL;
    a->argc = argc;
}

/* What identifies a file without reading it: where it is, its size and its times (a
 * rebuilt or upgraded file has a new ctime, which no one can set back). */
static void hash_file_id(KHash *k, const char *path)
{
    struct stat st;
    khash_str(k, path);
    if (stat(path, &st) != 0)
        return;
    long long id[7] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size,
                       (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec,
                       (long long)st.st_ctim.tv_sec, (long long)st.st_ctim.tv_nsec};
    khash_update(k, id, sizeof id);
}

/* The program a word of $CC names, searched in PATH as execvp would (malloc'ed), or NULL. */
static char *which(const char *word)
{
    if (strchr(word, '/'))
        return realpath(word, NULL);
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *dir = xmalloc(n + 2), *cand;
        memcpy(dir, n ? p : ".", n ? n : 1);
        dir[n ? n : 1] = '\0';
        cand = join(dir, word);
        free(dir);
        if (access(cand, X_OK) == 0 && is_file(cand)) {
            char *real = realpath(cand, NULL);
            free(cand);
            return real;
        }
        free(cand);
        if (!e)
            return NULL;
        p = e;
    }
}

/* The cache key (docs/cli.md, "The kernel cache"): the generated C, the command line
 * (less the output file), each program $CC names and the environment variables GCC and
 * Clang read, the runtime's header, its library and this ptoas's version. The compiler
 * is identified by its file, not by running it, so that a warm run starts nothing. */
static bool cache_key(const CcArgs *a, const char *c_path, const char *incdir, const char *lib,
                      unsigned char key[32])
{
    char *text;
    size_t len;
    char err[512];
    if (file_read_all(c_path, &text, &len, err, sizeof err) != 0)
        return false;
    KHash k;
    khash_init(&k);
    khash_str(&k, "ptoas kernel " PTOAS_VERSION);
    khash_update(&k, &len, sizeof len);
    khash_update(&k, text, len);
    free(text);
    for (int i = 0; i < a->argc; i++)
        khash_str(&k, i == a->out || a->argv[i] == c_path ? "<file>" : a->argv[i]);
    for (int i = 0; i < a->ncc; i++) {
        char *prog = a->argv[i][0] == '-' ? NULL : which(a->argv[i]);
        if (prog)
            hash_file_id(&k, prog);
        free(prog);
    }
    static const char *const env[] = {"COMPILER_PATH", "GCC_EXEC_PREFIX", "LIBRARY_PATH", "CPATH",
                                      "C_INCLUDE_PATH", "GCC_COMPARE_DEBUG", "SOURCE_DATE_EPOCH"};
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
        const char *v = getenv(env[i]);
        khash_str(&k, env[i]);
        khash_str(&k, v ? v : "");
    }
    hash_file_id(&k, lib);
    static const char *const headers[] = {"ptort.h", "ptort_vops.def"};
    for (int i = 0; i < 2; i++) {
        char *h = join(incdir, headers[i]);
        if (file_read_all(h, &text, &len, err, sizeof err) == 0) {
            khash_update(&k, text, len);
            free(text);
        }
        free(h);
    }
    khash_final(&k, key);
    return true;
}

/* Reads the compiler's output from fd to its end (malloc'ed, *len bytes). */
static char *read_output(int fd, size_t *len)
{
    char *text = NULL;
    size_t tlen = 0, tcap = 0;
    for (;;) {
        if (tlen + 4096 > tcap) {
            tcap = 2 * (tlen + 4096);
            text = realloc(text, tcap);
            DIAG_ASSERT(text != NULL);
        }
        ssize_t r = read(fd, text + tlen, tcap - tlen);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        tlen += (size_t)r;
    }
    *len = tlen;
    return text;
}

/* Runs the compiler with its output to a temporary name next to exe_path, renamed to
 * exe_path on success. Returns run_compile's status. */
static int cc_run(CcArgs *a, const char *exe_path)
{
    char *tmp = file_temp_template(exe_path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_tool_error("cannot create '%s': %s", exe_path, strerror(errno));
        free(tmp);
        return 2;
    }
    file_temp_track(tmp, false);
    close(fd);
    a->argv[a->out] = tmp;
    char *cmd = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < a->argc; i++)
        put_word(&cmd, &len, &cap, a->argv[i]);

    /* run it with stdout and stderr into a pipe */
    int status = 2;
    int pfd[2] = {-1, -1};
    if (pipe(pfd) != 0 || fcntl(pfd[0], F_SETFD, FD_CLOEXEC) != 0) {
        diag_tool_error("cannot run the C compiler: %s", strerror(errno));
        goto out;
    }
    int err;
    /* SIGTERM: the compiler driver removes its own temporary files and stops its
     * children before it dies */
    pid_t pid = spawn(a->argv, true, SIGTERM, pfd[1], pfd[1], &err);
    close(pfd[1]);
    pfd[1] = -1;
    if (pid < 0) {
        diag_tool_error("cannot run the C compiler '%s': %s (set CC to a C compiler)", a->argv[0], strerror(err));
        goto out;
    }
    size_t tlen;
    char *text = read_output(pfd[0], &tlen);
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
    if (pfd[0] >= 0)
        close(pfd[0]);
    if (pfd[1] >= 0)
        close(pfd[1]);
    if (status != 0)
        unlink(tmp);
    file_temp_untrack(tmp);
    free(cmd), free(tmp);
    a->argv[a->out] = "";
    return status;
}

int run_compile(const char *c_path, const char *exe_path, bool use_cache)
{
    struct stat st;
    if (stat(exe_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        diag_tool_error("cannot write the executable to '%s': not a regular file", exe_path);
        return 2;
    }
    char *incdir, *lib;
    if (!find_runtime(&incdir, &lib))
        return 2;
    CcArgs a;
    cc_args(&a, incdir, lib, c_path);
    KCache kc;
    unsigned char key[32];
    bool cached = use_cache && kcache_open(&kc);
    if (cached && !cache_key(&a, c_path, incdir, lib, key)) {
        kcache_close(&kc);
        cached = false;
    }
    int status;
    if (cached && kcache_fetch(&kc, key, exe_path)) {
        status = 0;
    } else {
        status = cc_run(&a, exe_path);
        if (status == 0 && cached)
            kcache_store(&kc, key, exe_path);
    }
    if (cached)
        kcache_close(&kc);
    free(a.cc), free(a.iflag), free(a.argv), free(incdir), free(lib);
    return status;
}

/* ---- temporary directories ---------------------------------------------------------- */

/* SIGKILL (timeout -s KILL, the OOM killer) runs no handler, so nothing of ptoas's own
 * could remove the directory. A small child of ptoas, the reaper, waits for the end of a
 * pipe whose one writer is ptoas (close-on-exec: neither the compiler nor the kernel
 * holds it), which ptoas ending in any way closes; it then removes the directory (gone
 * already when ptoas removed it itself) and exits. It retries while the directory is not
 * empty, since the linker of a compiler ptoas started may still be writing into it. */
static int reaper_fd = -1;   /* the write end; -1 when there is no reaper */
static pid_t reaper_pid;

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            /* no malloc: the reaper may run this after a fork */
            size_t nd = strlen(dir), nn = strlen(de->d_name);
            char p[4096];
            if (nd + nn + 2 <= sizeof p) {
                memcpy(p, dir, nd);
                p[nd] = '/';
                memcpy(p + nd + 1, de->d_name, nn + 1);
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

static _Noreturn void reaper_main(const char *dir, int rfd)
{
    /* ptoas passes these signals on and removes the directory itself; the reaper only
     * needs to outlive it */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    /* hold no pipe of whoever started ptoas (a shell waits for its pipe's last writer) */
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 1024; fd++)
        if (fd != rfd && fd != null)
            close(fd);
    for (int fd = 0; fd < 3 && null >= 0; fd++)
        dup2(null, fd);
    char b;
    while (read(rfd, &b, 1) < 0 && errno == EINTR)
        ;
    struct stat st;
    for (int tries = 0; tries < 600 && lstat(dir, &st) == 0; tries++) {
        remove_dir(dir);
        nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    _exit(0);
}

static void reaper_start(const char *dir)
{
    int p[2];
    if (pipe(p) != 0)
        return; /* no reaper: only a SIGKILL would leave the directory */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        reaper_main(dir, p[0]);
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        return;
    }
    fcntl(p[1], F_SETFD, FD_CLOEXEC);
    reaper_fd = p[1];
    reaper_pid = pid;
}

static void reaper_stop(void)
{
    if (reaper_fd < 0)
        return;
    close(reaper_fd);
    reaper_fd = -1;
    while (waitpid(reaper_pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

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
    reaper_start(dir);
    return dir;
}

void run_tmpdir_remove(const char *dir)
{
    if (!dir)
        return;
    file_temp_untrack(dir);
    remove_dir(dir);
    reaper_stop();
}

/* ---- running ---------------------------------------------------------------------- */

static volatile sig_atomic_t kernel_timed_out;

/* --timeout: the kernel is stopped from the handler itself, so no read or wait of ptoas
 * can miss the moment */
static void on_alarm(int sig)
{
    (void)sig;
    kernel_timed_out = 1;
    if (run_child_pid > 0)
        kill(run_child_pid, SIGKILL);
}

int run_exec(const char *exe, const char *const *args, int nargs, const char *tmpdir, unsigned timeout,
             RunLineFn on_stderr, void *ctx)
{
    const char **argv = xmalloc(((size_t)nargs + 2) * sizeof *argv);
    argv[0] = exe;
    for (int i = 0; i < nargs; i++)
        argv[i + 1] = args[i];
    argv[nargs + 1] = NULL;
    /* on_stderr: the kernel's stderr comes through a pipe, line by line */
    int fds[2] = {-1, -1};
    bool piped = on_stderr && pipe(fds) == 0;
    if (piped && fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0) {
        close(fds[0]);
        close(fds[1]);
        piped = false;
    }
    int err;
    pid_t pid = spawn(argv, false, SIGKILL, -1, piped ? fds[1] : -1, &err);
    free(argv);
    if (piped)
        close(fds[1]);
    if (pid < 0) {
        if (piped)
            close(fds[0]);
        diag_tool_error("cannot run the kernel executable: %s", strerror(err));
        return 3;
    }
    /* the kernel runs: its executable stays mapped, so the directory can go now and a
     * SIGKILL of ptoas leaves nothing behind */
    run_tmpdir_remove(tmpdir);
    struct sigaction sa, old_alarm;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigfillset(&sa.sa_mask);
    kernel_timed_out = 0;
    if (timeout) {
        sigaction(SIGALRM, &sa, &old_alarm);
        alarm(timeout);
    }
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
    if (timeout) {
        alarm(0);
        sigaction(SIGALRM, &old_alarm, NULL);
    }
    run_child_pid = 0;
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    if (kernel_timed_out && WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL) {
        diag_tool_error("the kernel did not finish within %u second%s (--timeout=%u) and was stopped", timeout,
                        timeout == 1 ? "" : "s", timeout);
        return 1;
    }
    diag_tool_error("the kernel executable was killed by signal %d (this is a bug)",
                    WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    return 3;
}
