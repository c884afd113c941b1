/* Bounded strings, note lists and growable string buffers. */
#include "common/common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void str_copy(char *dst, size_t size, const char *src)
{
    if (!size) return;
    if (!src) src = "";
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void str_printf(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, size, fmt, ap);
    va_end(ap);
}

int str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

void str_join_add(char *out, size_t size, const char *sep, const char *item)
{
    static const char more[] = "...";
    if (size < sizeof more) return; /* no room to say anything, not even that it was cut */
    size_t len = strlen(out), seplen = len ? strlen(sep) : 0, n = strlen(item);
    if (len + seplen + n < size) {
        memcpy(out + len, sep, seplen);
        memcpy(out + len + seplen, item, n + 1);
        return;
    }
    char *p = out + len, *end = out + size - 1;
    for (const char *s = sep; seplen && *s && p < end; s++) *p++ = *s;
    for (const char *s = item; *s && p < end; s++) *p++ = *s;
    memcpy(end - (sizeof more - 1), more, sizeof more);
}

void notes_add(char (*notes)[KVC_NOTE_LEN], unsigned *n, unsigned max, const char *fmt, ...)
{
    if (*n >= max) return;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(notes[*n], KVC_NOTE_LEN, fmt, ap);
    va_end(ap);
    if (len >= KVC_NOTE_LEN) memcpy(notes[*n] + KVC_NOTE_LEN - 4, "...", 4);
    for (unsigned i = 0; i < *n; i++)
        if (strcmp(notes[i], notes[*n]) == 0) return; /* said already */
    (*n)++;
}

static uint64_t hash_of(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int strset_add(strset *set, const char *s)
{
    if (2 * (set->n + 1) > set->cap) { /* at most half full: probes stay short */
        size_t cap = set->cap ? set->cap * 2 : 64;
        const char **slots = calloc(cap, sizeof *slots);
        if (!slots) return -1;
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->slots[i]) continue;
            size_t j = (size_t)hash_of(set->slots[i]) & (cap - 1);
            while (slots[j]) j = (j + 1) & (cap - 1);
            slots[j] = set->slots[i];
        }
        free(set->slots);
        set->slots = slots;
        set->cap = cap;
    }
    size_t j = (size_t)hash_of(s) & (set->cap - 1);
    for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
        if (strcmp(set->slots[j], s) == 0) return 0;
    set->slots[j] = s;
    set->n++;
    return 1;
}

void strset_free(strset *set)
{
    free(set->slots);
    memset(set, 0, sizeof *set);
}

static void sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->oom) return;
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *p = realloc(sb->p, cap);
    if (!p) {
        sb->oom = 1;
        return;
    }
    sb->p = p;
    sb->cap = cap;
}

void sb_puts(strbuf *sb, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(sb, n);
    if (sb->oom) return;
    memcpy(sb->p + sb->len, s, n + 1);
    sb->len += n;
}

void sb_putc(strbuf *sb, char c)
{
    sb_reserve(sb, 1);
    if (sb->oom) return;
    sb->p[sb->len++] = c;
    sb->p[sb->len] = '\0';
}

size_t utf8_len(const unsigned char *p, size_t avail)
{
    if (!avail) return 0;
    if (p[0] < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (p[0] >= 0xc2 && p[0] <= 0xdf) n = 2;
    else if (p[0] == 0xe0) n = 3, lo = 0xa0;
    else if (p[0] == 0xed) n = 3, hi = 0x9f; /* no UTF-16 surrogates */
    else if (p[0] >= 0xe1 && p[0] <= 0xef) n = 3;
    else if (p[0] == 0xf0) n = 4, lo = 0x90;
    else if (p[0] == 0xf4) n = 4, hi = 0x8f; /* nothing past U+10FFFF */
    else if (p[0] >= 0xf1 && p[0] <= 0xf3) n = 4;
    else return 0; /* a continuation byte, an overlong lead, or past the range */
    if (avail < n || p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    return n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    sb_reserve(sb, (size_t)n);
    if (sb->oom) return;
    va_start(ap, fmt);
    vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_pad(strbuf *sb, size_t width, const char *s)
{
    sb_puts(sb, s);
    for (size_t n = strlen(s); n < width; n++) sb_puts(sb, " ");
}

char *sb_take(strbuf *sb)
{
    char *p = sb->oom ? NULL : sb->p;
    if (sb->oom) free(sb->p);
    if (p == NULL && !sb->oom) p = calloc(1, 1);
    memset(sb, 0, sizeof *sb);
    return p;
}

int str_parse_u64(const char **s, uint64_t *out)
{
    const char *p = *s;
    if (*p < '0' || *p > '9') return 0;
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v)) return 0;
    *s = p;
    *out = v;
    return 1;
}
