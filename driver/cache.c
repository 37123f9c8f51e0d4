/* cache.c - the kernel cache (cache.h, docs/cli.md "The kernel cache").
 *
 * An entry is a file named by the hex SHA-256 key plus ".k": a 48-byte header (the magic
 * "PTOASKC1", the executable's length as 8 little-endian bytes, the SHA-256 of the
 * executable) and the executable. A truncated or damaged entry fails the length or hash
 * check and is rebuilt; an entry is only ever copied out after the check, never run in
 * place, so nothing can change it between the check and the run. Entries are written
 * under a temporary name and renamed, so two runs at once each see a whole entry or none.
 * Every access goes through the descriptor of the directory that was checked to be this
 * user's and private, so renaming a path component away afterwards changes nothing.
 * Least-recently-used eviction: a hit sets the entry's mtime (atime is often not kept,
 * relatime/noatime), and a store removes the oldest entries beyond the size bound. */
#include "cache.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena.h"
#include "diag.h"
#include "file.h"

#define KC_DEFAULT_MAX ((uint64_t)256 << 20) /* PTOAS_CACHE_SIZE when unset */
#define KC_HEADER 48
#define KC_MAX_ENTRY ((uint64_t)1 << 30)     /* larger files are not entries of ours */
#define KC_STALE_TEMP 3600                   /* seconds after which a temporary is debris */
static const char kc_magic[8] = {'P', 'T', 'O', 'A', 'S', 'K', 'C', '1'};

/* ---- SHA-256 (FIPS 180-4) ---------------------------------------------------------- */

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void sha_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void khash_init(KHash *k)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(k->h, iv, sizeof iv);
    k->total = 0;
    k->n = 0;
}

void khash_update(KHash *k, const void *data, size_t len)
{
    const unsigned char *p = data;
    k->total += len;
    if (k->n) {
        size_t take = 64 - k->n < len ? 64 - k->n : len;
        memcpy(k->buf + k->n, p, take);
        k->n += take, p += take, len -= take;
        if (k->n < 64)
            return;
        sha_block(k->h, k->buf);
        k->n = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        sha_block(k->h, p);
    memcpy(k->buf, p, len);
    k->n = len;
}

void khash_str(KHash *k, const char *s)
{
    khash_update(k, s, strlen(s) + 1);
}

void khash_final(KHash *k, unsigned char out[32])
{
    uint64_t bits = k->total * 8;
    unsigned char pad[72] = {0x80};
    size_t npad = (k->n < 56 ? 56 : 120) - k->n;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    khash_update(k, pad, npad + 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(k->h[i] >> (24 - 8 * j));
}

/* ---- the directory ---------------------------------------------------------------- */

/* PTOAS_CACHE_SIZE: bytes, optionally with K, M or G (powers of 1024). */
static bool parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == s)
        return false;
    int shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
    if (shift)
        p++;
    if (*p || v > (UINT64_MAX >> shift))
        return false;
    *out = v << shift;
    return true;
}

/* mkdir -p with mode 0700 for the components it creates. */
static void make_dirs(char *path)
{
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        mkdir(path, 0700);
        *p = c;
        if (!c)
            return;
    }
}

bool kcache_open(KCache *c)
{
    memset(c, 0, sizeof *c);
    c->dfd = -1;
    c->max_bytes = KC_DEFAULT_MAX;
    const char *size = getenv("PTOAS_CACHE_SIZE");
    if (size && *size && !parse_size(size, &c->max_bytes)) {
        diag_tool_warning("ignoring PTOAS_CACHE_SIZE='%s': expected a number of bytes, optionally "
                          "followed by K, M or G", size);
        c->max_bytes = KC_DEFAULT_MAX;
    }
    if (c->max_bytes == 0)
        return false;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *base = xdg && xdg[0] == '/' ? xdg : home && home[0] == '/' ? home : NULL;
    if (!base)
        return false;
    const char *tail = base == xdg ? "/ptoas" : "/.cache/ptoas";
    c->path = xmalloc(strlen(base) + strlen(tail) + 1);
    strcat(strcpy(c->path, base), tail);
    make_dirs(c->path);
    struct stat st;
    c->dfd = open(c->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const char *why = NULL;
    if (c->dfd < 0 || fstat(c->dfd, &st) != 0)
        why = strerror(errno);
    else if (st.st_uid != geteuid())
        why = "it belongs to another user";
    else if ((st.st_mode & 077) && fchmod(c->dfd, 0700) != 0)
        why = "it is open to other users and cannot be made private";
    if (why) {
        diag_tool_warning("not using the kernel cache '%s': %s", c->path, why);
        kcache_close(c);
        return false;
    }
    return true;
}

void kcache_close(KCache *c)
{
    if (c->dfd >= 0)
        close(c->dfd);
    c->dfd = -1;
    free(c->path);
    c->path = NULL;
}

static void entry_name(const unsigned char key[32], char name[70])
{
    for (int i = 0; i < 32; i++)
        sprintf(name + 2 * i, "%02x", key[i]);
    strcpy(name + 64, ".k");
}

static bool is_entry_name(const char *s)
{
    size_t i = 0;
    for (; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return strcmp(s + 64, ".k") == 0;
}

/* ---- reading and writing ------------------------------------------------------------ */

static bool read_all(int fd, unsigned char *buf, size_t len)
{
    while (len) {
        ssize_t r = read(fd, buf, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        buf += r, len -= (size_t)r;
    }
    return true;
}

static bool write_all(int fd, const unsigned char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        buf += w, len -= (size_t)w;
    }
    return true;
}

/* The whole regular file behind fd (malloc'ed), if its size is at most max. */
static unsigned char *slurp(int fd, size_t *len, uint64_t max)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max)
        return NULL;
    *len = (size_t)st.st_size;
    unsigned char *b = xmalloc(*len + 1);
    if (!read_all(fd, b, *len)) {
        free(b);
        return NULL;
    }
    return b;
}

/* Whether data[0, len) is a whole, undamaged entry. */
static bool entry_valid(const unsigned char *data, size_t len)
{
    if (len < KC_HEADER || memcmp(data, kc_magic, 8) != 0)
        return false;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)data[8 + i] << (8 * i);
    if (n != len - KC_HEADER)
        return false;
    KHash k;
    unsigned char sum[32];
    khash_init(&k);
    khash_update(&k, data + KC_HEADER, len - KC_HEADER);
    khash_final(&k, sum);
    return memcmp(sum, data + 16, 32) == 0;
}

/* dest := data, atomically, as an executable. */
static bool write_exe(const char *dest, const unsigned char *data, size_t len)
{
    char *tmp = file_temp_template(dest);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return false;
    }
    file_temp_track(tmp, false);
    mode_t mask = umask(0);
    umask(mask);
    bool ok = write_all(fd, data, len) && fchmod(fd, 0777 & ~mask) == 0;
    ok = close(fd) == 0 && ok && rename(tmp, dest) == 0;
    if (!ok)
        unlink(tmp);
    file_temp_untrack(tmp);
    free(tmp);
    return ok;
}

bool kcache_fetch(KCache *c, const unsigned char key[32], const char *dest)
{
    char name[70];
    entry_name(key, name);
    int fd = openat(c->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            unlinkat(c->dfd, name, 0); /* a symbolic link, say: never followed, replaced */
        return false;
    }
    struct stat st;
    size_t len = 0;
    unsigned char *data = NULL;
    /* another user could have written it: not run, replaced */
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022);
    if (ok)
        data = slurp(fd, &len, KC_MAX_ENTRY);
    ok = ok && data && entry_valid(data, len);
    if (ok)
        futimens(fd, NULL); /* used now: last in line for eviction */
    close(fd);
    if (!ok)
        unlinkat(c->dfd, name, 0);
    ok = ok && write_exe(dest, data + KC_HEADER, len - KC_HEADER);
    free(data);
    return ok;
}

/* ---- storing and eviction ------------------------------------------------------------ */

typedef struct KEntry {
    char name[70];
    uint64_t size;
    struct timespec used;
} KEntry;

static int by_use(const void *a, const void *b)
{
    const KEntry *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    return x->used.tv_nsec < y->used.tv_nsec ? -1 : x->used.tv_nsec > y->used.tv_nsec;
}

/* Removes the least recently used entries until the rest fit max_bytes (keep, the entry
 * just stored, stays even when it alone does not fit), and temporaries left by runs that
 * were killed while storing. */
static void evict(KCache *c, const char *keep)
{
    int dfd = openat(c->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return;
    }
    KEntry *e = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        bool temp = strncmp(de->d_name, ".tmp-", 5) == 0;
        if ((!temp && !is_entry_name(de->d_name)) ||
            fstatat(c->dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (temp) {
            if (now - st.st_mtim.tv_sec > KC_STALE_TEMP)
                unlinkat(c->dfd, de->d_name, 0);
            continue;
        }
        if (n == cap)
            e = xrealloc(e, (cap = 2 * cap + 16) * sizeof *e);
        strcpy(e[n].name, de->d_name);
        e[n].size = (uint64_t)st.st_size;
        e[n].used = st.st_mtim;
        total += e[n++].size;
    }
    closedir(d);
    if (total > c->max_bytes) {
        qsort(e, n, sizeof *e, by_use);
        for (size_t i = 0; i < n && total > c->max_bytes; i++)
            if (strcmp(e[i].name, keep) != 0 && (unlinkat(c->dfd, e[i].name, 0) == 0 || errno == ENOENT))
                total -= e[i].size;
    }
    free(e);
}

void kcache_store(KCache *c, const unsigned char key[32], const char *exe)
{
    int in = open(exe, O_RDONLY | O_CLOEXEC);
    size_t len = 0;
    unsigned char *data = in >= 0 ? slurp(in, &len, KC_MAX_ENTRY - KC_HEADER) : NULL;
    if (in >= 0)
        close(in);
    if (!data)
        return;
    unsigned char head[KC_HEADER];
    memcpy(head, kc_magic, 8);
    for (int i = 0; i < 8; i++)
        head[8 + i] = (unsigned char)((uint64_t)len >> (8 * i));
    KHash k;
    khash_init(&k);
    khash_update(&k, data, len);
    khash_final(&k, head + 16);

    char name[70], tmp[96];
    entry_name(key, name);
    static unsigned serial;
    snprintf(tmp, sizeof tmp, ".tmp-%.16s-%ld-%u", name, (long)getpid(), serial++);
    char *full = xmalloc(strlen(c->path) + sizeof tmp + 2);
    sprintf(full, "%s/%s", c->path, tmp);
    int fd = openat(c->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        file_temp_track(full, false);
        bool ok = write_all(fd, head, sizeof head) && write_all(fd, data, len);
        ok = close(fd) == 0 && ok && renameat(c->dfd, tmp, c->dfd, name) == 0;
        if (!ok)
            unlinkat(c->dfd, tmp, 0);
        file_temp_untrack(full);
        if (ok)
            evict(c, name);
    }
    free(full);
    free(data);
}
