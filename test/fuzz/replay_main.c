/* replay_main.c - runs the fuzz target over saved inputs (files, or every
 * file in the directories given) without libFuzzer, for `make check` under
 * ASan/UBSan. A finding aborts; otherwise prints "N passed, 0 failed". */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 0;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    unsigned ran = 0, missing = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            missing++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            ran += (unsigned)run_file(argv[i]);
            continue;
        }
        DIR *dir = opendir(argv[i]);
        struct dirent *e;
        while (dir && (e = readdir(dir)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            ran += (unsigned)run_file(path);
        }
        if (dir)
            closedir(dir);
    }
    printf("%u passed, %u failed\n", ran, missing);
    return missing != 0;
}
