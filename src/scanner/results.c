/* The per-page results of the scanner handle's scans, in memory the device
 * writes into directly (pinned for a GPU scanner): a scan's report points
 * into them instead of copying them out, so a pool's 80,000 digests cost
 * nothing to hand over. The scanner rotates a few and fills one that no
 * report holds; whichever of the scanner and the reports lets go of one
 * last frees it, on any thread. */
#include "scanner/scanner.h"

#include <stdatomic.h>
#include <stdlib.h>

struct scan_results {
    atomic_uint refs;
    void *mem;
    size_t cap;
    gpu_pinned *pinned; /* NULL: malloc'd */
};

void *scan_results_mem(const scan_results *r) { return r->mem; }

scan_results *scan_results_hold(scan_results *r)
{
    atomic_fetch_add(&r->refs, 1);
    return r;
}

void scan_results_drop(scan_results *r)
{
    if (!r || atomic_fetch_sub(&r->refs, 1) != 1) return;
    if (r->pinned) gpu_pinned_free(r->pinned);
    else free(r->mem);
    free(r);
}

static kvc_status results_new(const kvc_scanner *s, size_t bytes, scan_results **out, kvc_diag *diag)
{
    scan_results *r = calloc(1, sizeof *r);
    RETURN_ERROR_IF(!r, diag, KVC_ERR_NOMEM, NULL, "out of memory for the scan's results");
    atomic_init(&r->refs, 1);
    r->cap = bytes < 4096 ? 4096 : bytes;
    kvc_status st = KVC_OK;
    if (s->gpu) st = gpu_pinned_alloc(s->gpu, r->cap, &r->pinned, &r->mem, diag);
    else if (!(r->mem = malloc(r->cap))) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the scan's results");
    if (st) {
        free(r);
        return st;
    }
    *out = r;
    return KVC_OK;
}

kvc_status scanner_results(kvc_scanner *s, size_t bytes, scan_results **out, kvc_diag *diag)
{
    /* one no report holds (the scanner's is then the only reference), big enough */
    for (unsigned i = 0; i < SCANNER_RESULTS; i++) {
        scan_results *r = s->results[i];
        if (r && r->cap >= bytes && atomic_load(&r->refs) == 1) return *out = r, KVC_OK;
    }
    /* else a new one: in an empty slot, one no report holds, or the next in turn */
    unsigned slot = s->next_results++ % SCANNER_RESULTS;
    for (unsigned i = SCANNER_RESULTS; i-- > 0;)
        if (!s->results[i] || atomic_load(&s->results[i]->refs) == 1) slot = i;
    scan_results_drop(s->results[slot]);
    s->results[slot] = NULL;
    RETURN_IF_ERROR(results_new(s, bytes + bytes / 4, &s->results[slot], diag));
    *out = s->results[slot];
    return KVC_OK;
}
