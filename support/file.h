/* file.h - whole-file input, atomic output, and the temporary files that a
 * signal or a fatal error must remove. */
#ifndef PTOAS_FILE_H
#define PTOAS_FILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Input read from a pipe, a terminal or a device (anything but a regular
 * file, whose size is known before reading) is refused beyond this size:
 * `ptoas /dev/zero` fails after 256 MiB instead of exhausting memory. */
#define FILE_MAX_STREAM_INPUT ((size_t)256 * 1024 * 1024)

/* Reads the whole file at path ("-" = standard input) into a malloc'ed buffer
 * with a NUL after the last byte. A regular file's size is checked before it
 * is read (the limit is 4 GiB - 1, spans are 32-bit offsets); other inputs
 * stop at FILE_MAX_STREAM_INPUT. Returns 0, or -1 with a message in err
 * ("cannot open 'x.pto': No such file or directory"). */
int file_read_all(const char *path, char **buf, size_t *len, char *err, size_t errlen);

/* The mkstemp template of a temporary file next to path: path + ".tmp.XXXXXX",
 * with the last component shortened so that it stays within NAME_MAX (255)
 * bytes, so a legal 250-byte name still gets a legal temporary name. */
char *file_temp_template(const char *path);

/* Temporaries that exist right now: a fatal signal, an out-of-memory or an
 * internal error removes them (file_temp_remove_all). path must stay valid
 * until it is untracked. At most 16 at a time. */
void file_temp_track(const char *path, bool is_dir);
void file_temp_untrack(const char *path);
/* Unlinks the tracked files, then removes the tracked directories (newest
 * first). Async-signal-safe: only unlink and rmdir. */
void file_temp_remove_all(void);

/* Output written atomically: to a temporary file next to the target, renamed
 * over it by outfile_commit; outfile_abort removes it, leaving nothing behind.
 * A NULL path or "-" writes to stdout directly. */
typedef struct OutFile {
    FILE *fp;
    char *tmp_path;   /* NULL for stdout */
    char *final_path;
} OutFile;

int outfile_open(OutFile *o, const char *path, char *err, size_t errlen);
int outfile_commit(OutFile *o, char *err, size_t errlen);
void outfile_abort(OutFile *o);

#endif
