/* file.c - whole-file input and atomic output (see file.h).
 *
 * Input is read into one growing buffer, whatever its size or kind (file,
 * pipe, terminal); inputs of 4 GiB or more are refused because spans are
 * 32-bit offsets. Output to a path goes to a temporary file in the same
 * directory, renamed over the target only once everything was written. */
#include "file.h"
#include "arena.h"
#include <errno.h>
#include <fcntl.h>
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
            if (cap > MAX_INPUT) {
                snprintf(err, errlen, "'%s' is too large: the limit is 4 GiB", display_name(path));
                free(b);
                if (!is_stdin)
                    close(fd);
                return -1;
            }
            cap = cap * 2 > MAX_INPUT + 1 ? MAX_INPUT + 1 : cap * 2;
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

    size_t n = strlen(path);
    o->tmp_path = xmalloc(n + sizeof ".tmp.XXXXXX");
    memcpy(o->tmp_path, path, n);
    memcpy(o->tmp_path + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(o->tmp_path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        free(o->tmp_path);
        free(o->final_path);
        o->tmp_path = o->final_path = NULL;
        return -1;
    }
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
        free(o->tmp_path);
        free(o->final_path);
        o->tmp_path = o->final_path = NULL;
        return -1;
    }
    return 0;
}

static void outfile_release(OutFile *o)
{
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
