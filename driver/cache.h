/* cache.h - the kernel cache of `ptoas run` and --emit=exe (docs/cli.md, "The kernel
 * cache"): compiled kernels kept under a SHA-256 key of everything that went into them,
 * so that running an unchanged kernel again starts no compiler. run.c computes the key;
 * this file owns the directory, the entry format and eviction. */
#ifndef PTOAS_CACHE_H
#define PTOAS_CACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* SHA-256 (FIPS 180-4), incremental. */
typedef struct KHash {
    uint32_t h[8];
    uint64_t total;          /* bytes hashed so far */
    unsigned char buf[64];
    size_t n;                /* bytes waiting in buf */
} KHash;

void khash_init(KHash *k);
void khash_update(KHash *k, const void *data, size_t len);
/* A string and its terminating NUL, so that ("ab","c") and ("a","bc") differ. */
void khash_str(KHash *k, const char *s);
void khash_final(KHash *k, unsigned char out[32]);

/* The open cache directory: a descriptor, so that every later access is relative to
 * the directory that was checked. */
typedef struct KCache {
    int dfd;
    char *path;              /* for messages */
    uint64_t max_bytes;      /* PTOAS_CACHE_SIZE */
} KCache;

/* Opens $XDG_CACHE_HOME/ptoas (or $HOME/.cache/ptoas), creating it 0700. Returns false,
 * and the caller compiles without the cache, when neither variable names an absolute
 * directory, PTOAS_CACHE_SIZE is 0, or the directory is unusable or unsafe (then after a
 * warning on stderr). */
bool kcache_open(KCache *c);
void kcache_close(KCache *c);

/* Writes the entry of key to dest atomically, with the mode an executable gets under the
 * umask, and marks it used. False when there is none or it cannot be used: missing,
 * truncated or corrupt (removed, so that it is rebuilt), not a regular file, not owned by
 * this user or writable by others. */
bool kcache_fetch(KCache *c, const unsigned char key[32], const char *dest);

/* Stores the executable at exe as the entry of key (temporary file + rename, so that a
 * concurrent reader sees the old entry or the new one), then evicts the least recently
 * used entries beyond the size bound. Failures only lose the entry. */
void kcache_store(KCache *c, const unsigned char key[32], const char *exe);

#endif
