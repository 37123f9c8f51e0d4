/* file.c - whole-file input and atomic output (see file.h).
 *
 * Input is read into one buffer: a regular file's size is checked and
 * allocated before reading (inputs of 4 GiB or more are refused because spans
 * are 32-bit offsets); a pipe, terminal or device grows the buffer up to
 * FILE_MAX_STREAM_INPUT. Output to a path goes to a temporary file in the
 * same directory, renamed over the target only once everything was written.
 * Temporaries are tracked so that a signal or a fatal error removes them. */
#include "file.h"
#include "arena.h"
#include "diag.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest input: every offset, including the one just past the last byte,
 * must fit a uint32_t. */
#define MAX_INPUT ((size_t)UINT32_MAX)

static const char *display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int file_read_all(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    size_t cap = 64 * 1024;
    size_t limit = FILE_MAX_STREAM_INPUT; /* MAX_INPUT for a regular file */
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "cannot read '%s': %s", display_name(path), strerror(EISDIR));
            if (!is_stdin)
                close(fd);
            return -1;
        }
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            if ((uint64_t)st.st_size > MAX_INPUT) {
                snprintf(err, errlen, "'%s' is too large: %llu bytes, the limit is 4 GiB",
                         display_name(path), (unsigned long long)st.st_size);
                if (!is_stdin)
                    close(fd);
                return -1;
            }
            cap = (size_t)st.st_size + 1; /* +1 so that end of file is seen without growing */
        }
        if (S_ISREG(st.st_mode))
            limit = MAX_INPUT; /* a file that grows while it is read stops at 4 GiB */
    }
    char *b = malloc(cap + 1);
    size_t n = 0;
    for (;;) {
        if (!b) {
            snprintf(err, errlen, "out of memory reading '%s'", display_name(path));
            if (!is_stdin)
                close(fd);
            return -1;
        }
        if (n == cap) {
            if (cap > limit) {
                if (limit == MAX_INPUT)
                    snprintf(err, errlen, "'%s' is too large: the limit is 4 GiB", display_name(path));
                else
                    snprintf(err, errlen,
                             "'%s' is too large: input that is not a regular file is limited to %zu "
                             "MiB",
                             display_name(path), limit >> 20);
                free(b);
                if (!is_stdin)
                    close(fd);
                return -1;
            }
            cap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
            char *nb = realloc(b, cap + 1);
            if (!nb)
                free(b);
            b = nb;
            continue;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "cannot read '%s': %s", display_name(path), strerror(errno));
            free(b);
            if (!is_stdin)
                close(fd);
            return -1;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (!is_stdin)
        close(fd);
    if (n > MAX_INPUT) {
        snprintf(err, errlen, "'%s' is too large: the limit is 4 GiB", display_name(path));
        free(b);
        return -1;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

/* ---- temporaries ---------------------------------------------------------- */

#define TEMP_SUFFIX ".tmp.XXXXXX"
#define TEMP_NAME_MAX 255 /* NAME_MAX of Linux file systems; pathconf would need the directory */

char *file_temp_template(const char *path)
{
    size_t n = strlen(path);
    const char *slash = strrchr(path, '/');
    size_t base = slash ? n - (size_t)(slash + 1 - path) : n;
    size_t keep = n;
    if (base + sizeof TEMP_SUFFIX - 1 > TEMP_NAME_MAX)
        keep = n - (base - (TEMP_NAME_MAX - (sizeof TEMP_SUFFIX - 1)));
    char *t = xmalloc(keep + sizeof TEMP_SUFFIX);
    memcpy(t, path, keep);
    memcpy(t + keep, TEMP_SUFFIX, sizeof TEMP_SUFFIX);
    return t;
}

#define MAX_TRACKED 16

/* Written by the program, read by a signal handler: each slot is set only
 * after its string is complete, and cleared before the string is freed. */
static const char *volatile tracked_path[MAX_TRACKED];
static volatile sig_atomic_t tracked_dir[MAX_TRACKED];

void file_temp_track(const char *path, bool is_dir)
{
    for (int i = 0; i < MAX_TRACKED; i++)
        if (!tracked_path[i]) {
            tracked_dir[i] = is_dir;
            tracked_path[i] = path;
            return;
        }
    DIAG_INTERNAL("more than %d temporary files", MAX_TRACKED);
}

void file_temp_untrack(const char *path)
{
    for (int i = 0; i < MAX_TRACKED; i++)
        if (tracked_path[i] == path)
            tracked_path[i] = NULL;
}

void file_temp_remove_all(void)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = MAX_TRACKED - 1; i >= 0; i--) {
            const char *p = tracked_path[i];
            if (!p || tracked_dir[i] != pass)
                continue;
            if (pass)
                rmdir(p);
            else
                unlink(p);
            tracked_path[i] = NULL;
        }
}

/* ---- output ------------------------------------------------------------------ */

static int is_stdout_path(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

int outfile_open(OutFile *o, const char *path, char *err, size_t errlen)
{
    o->fp = NULL;
    o->tmp_path = NULL;
    o->final_path = NULL;
    if (is_stdout_path(path)) {
        o->fp = stdout;
        return 0;
    }
    o->final_path = strcpy(xmalloc(strlen(path) + 1), path);

    /* An existing non-regular target (/dev/null, a FIFO, a terminal) cannot be
     * replaced by a rename: write to it directly. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "cannot write '%s': %s", path, strerror(EISDIR));
            free(o->final_path);
            o->final_path = NULL;
            return -1;
        }
        o->fp = fopen(path, "w");
        if (!o->fp) {
            snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
            free(o->final_path);
            o->final_path = NULL;
            return -1;
        }
        return 0;
    }

    o->tmp_path = file_temp_template(path);
    int fd = mkstemp(o->tmp_path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        free(o->tmp_path);
        free(o->final_path);
        o->tmp_path = o->final_path = NULL;
        return -1;
    }
    file_temp_track(o->tmp_path, false);
    /* mkstemp makes the file 0600; give it the mode a plain creat would. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        /* Not fatal: the output is still correct, only more private. */
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp_path);
        file_temp_untrack(o->tmp_path);
        free(o->tmp_path);
        free(o->final_path);
        o->tmp_path = o->final_path = NULL;
        return -1;
    }
    return 0;
}

static void outfile_release(OutFile *o)
{
    if (o->tmp_path)
        file_temp_untrack(o->tmp_path);
    free(o->tmp_path);
    free(o->final_path);
    o->tmp_path = o->final_path = NULL;
    o->fp = NULL;
}

int outfile_commit(OutFile *o, char *err, size_t errlen)
{
    if (!o->fp)
        return 0;
    if (o->fp == stdout) {
        int bad = fflush(stdout) != 0 || ferror(stdout);
        o->fp = NULL;
        if (bad) {
            snprintf(err, errlen, "cannot write to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    const char *name = o->final_path;
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int saved = errno;
    if (fclose(o->fp) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    o->fp = NULL;
    if (bad) {
        snprintf(err, errlen, "cannot write '%s': %s", name, strerror(saved));
        if (o->tmp_path)
            unlink(o->tmp_path);
        outfile_release(o);
        return -1;
    }
    if (o->tmp_path && rename(o->tmp_path, o->final_path) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", name, strerror(errno));
        unlink(o->tmp_path);
        outfile_release(o);
        return -1;
    }
    outfile_release(o);
    return 0;
}

void outfile_abort(OutFile *o)
{
    if (!o->fp && !o->tmp_path)
        return;
    if (o->fp == stdout) {
        o->fp = NULL;
        return;
    }
    if (o->fp)
        fclose(o->fp);
    if (o->tmp_path)
        unlink(o->tmp_path);
    outfile_release(o);
}
