/* Page lists ("3,7,10-20"): which pages of a layer to scan. */
#include "source/source.h"

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

static int in_ranges(const page_range *r, size_t n, uint64_t page)
{
    for (size_t i = 0; i < n; i++)
        if (page >= r[i].first && page <= r[i].last) return 1;
    return 0;
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
    uint64_t count = 0;
    for (uint64_t p = 0; p < npages; p++)
        count += (!nonly || in_ranges(only, nonly, p)) && !in_ranges(skip, nskip, p);
    uint64_t *list = malloc((count ? count : 1) * sizeof *list);
    RETURN_ERROR_IF(!list, diag, KVC_ERR_NOMEM, &o, "out of memory for the page list");
    uint64_t k = 0;
    for (uint64_t p = 0; p < npages; p++)
        if ((!nonly || in_ranges(only, nonly, p)) && !in_ranges(skip, nskip, p)) list[k++] = p;
    *out = list;
    *n = count;
    return KVC_OK;
}
