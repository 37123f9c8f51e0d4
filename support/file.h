/* file.h - whole-file input and atomic output. */
#ifndef PTOAS_FILE_H
#define PTOAS_FILE_H
#include <stddef.h>
#include <stdio.h>

/* Reads the whole file at path ("-" = standard input) into a malloc'ed buffer
 * with a NUL after the last byte. Returns 0, or -1 with a message in err
 * ("cannot open 'x.pto': No such file or directory"). */
int file_read_all(const char *path, char **buf, size_t *len, char *err, size_t errlen);

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
