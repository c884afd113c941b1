/* Page lists ("3,7,10-20"): which pages of a layer to scan. */
#include "source/source.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

kvc_status page_list_parse(const char *text, const char *flag, page_range **out, size_t *n, kvc_diag *diag)
{
    *out = NULL;
    *n = 0;
    kvc_origin o;
    origin_set(&o, "", 0, 0, flag);
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    page_range *r = calloc(cap, sizeof *r);
    RETURN_ERROR_IF(!r, diag, KVC_ERR_NOMEM, &o, "out of memory");
    const char *p = text;
    for (;;) {
        const char *item = p;
        uint64_t a, b;
        if (!str_parse_u64(&p, &a)) goto bad;
        b = a;
        if (*p == '-') {
            p++;
            if (!str_parse_u64(&p, &b) || b < a) goto bad;
        }
        r[(*n)++] = (page_range){a, b};
        if (*p == '\0') break;
        if (*p != ',') goto bad;
        p++;
        continue;
    bad:
        free(r);
        *n = 0;
        size_t at = (size_t)(item - text);
        return diag_set(diag, KVC_ERR_USAGE, &o,
                        "%s '%s': cannot read a page or range at character %zu; write pages as 3,7,10-20 "
                        "(0-based, ranges inclusive, low-high)",
                        flag, text, at + 1);
    }
    *out = r;
    return KVC_OK;
}

static int by_first(const void *a, const void *b)
{
    const page_range *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Sorts `r` and merges ranges that overlap or touch; returns how many are left. */
static size_t merge(page_range *r, size_t n)
{
    if (!n) return 0;
    qsort(r, n, sizeof *r, by_first);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (r[k].last == UINT64_MAX || r[i].first <= r[k].last + 1) {
            if (r[i].last > r[k].last) r[k].last = r[i].last;
        } else {
            r[++k] = r[i];
        }
    }
    return k + 1;
}

/* The pages of the ranges `o` not in the ranges `s` (both merged), into
 * `list` when not NULL; returns how many. One walk over both lists: no
 * work per page beyond the pages selected, however long the lists. */
static uint64_t walk(const page_range *o, size_t no, const page_range *s, size_t ns, uint64_t *list)
{
    uint64_t k = 0;
    size_t j = 0;
    for (size_t i = 0; i < no; i++) {
        uint64_t p = o[i].first;
        for (;;) {
            while (j < ns && s[j].last < p) j++;
            if (j < ns && s[j].first <= p) { /* p is skipped, up to the skip range's end */
                if (s[j].last >= o[i].last) break;
                p = s[j].last + 1;
                continue;
            }
            uint64_t end = j < ns && s[j].first - 1 < o[i].last ? s[j].first - 1 : o[i].last;
            if (list)
                for (uint64_t q = p; q <= end; q++) list[k + (q - p)] = q;
            k += end - p + 1;
            if (end == o[i].last) break;
            p = end + 1;
        }
    }
    return k;
}

kvc_status page_select(const page_range *only, size_t nonly, const page_range *skip, size_t nskip, uint64_t npages,
                       const char *layer, uint64_t **out, uint64_t *n, kvc_diag *diag)
{
    *out = NULL;
    *n = npages;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--pages");
    for (size_t i = 0; i < nonly; i++)
        RETURN_ERROR_IF(only[i].last >= npages, diag, KVC_ERR_CONFIG, &o,
                        "--pages asks for page %llu, but %s has %llu page%s (0-%llu): give pages that exist",
                        (unsigned long long)only[i].last, layer, (unsigned long long)npages, npages == 1 ? "" : "s",
                        (unsigned long long)(npages - 1));
    if (!nonly && !nskip) return KVC_OK;
    if (!npages) { /* nothing to select from */
        *n = 0;
        *out = malloc(sizeof **out);
        RETURN_ERROR_IF(!*out, diag, KVC_ERR_NOMEM, &o, "out of memory for the page list");
        return KVC_OK;
    }
    page_range all = {0, npages - 1};
    page_range *sel = malloc((nonly ? nonly : 1) * sizeof *sel), *sk = malloc((nskip ? nskip : 1) * sizeof *sk);
    if (!sel || !sk) {
        free(sel);
        free(sk);
        return diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory for the page list");
    }
    if (nonly) memcpy(sel, only, nonly * sizeof *sel);
    else sel[0] = all;
    if (nskip) memcpy(sk, skip, nskip * sizeof *sk);
    const size_t ns = merge(sel, nonly ? nonly : 1), nk = merge(sk, nskip);
    const uint64_t count = walk(sel, ns, sk, nk, NULL);
    uint64_t *list = malloc((count ? count : 1) * sizeof *list);
    if (list) walk(sel, ns, sk, nk, list);
    free(sel);
    free(sk);
    RETURN_ERROR_IF(!list, diag, KVC_ERR_NOMEM, &o, "out of memory for the page list");
    *out = list;
    *n = count;
    return KVC_OK;
}
