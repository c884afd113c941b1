/* Judging pages: the scan plan both scanners start from, one page judged and
 * its findings on the host, and the CPU scanner of a layer. */
#ifndef KVC_SCAN_H
#define KVC_SCAN_H

#include "format/format.h"
#include "source/source.h"

#include <string.h>

/* ------------------------------------------------------------------- scan */

/* Eight bytes at any alignment, little-endian as stored. */
static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* One field's bytes within a token record, as the scanners walk it. */
typedef struct scan_run {
    uint64_t base, stride; /* as in kvc_field */
    uint32_t bytes;        /* per token */
    unsigned kind;         /* enum kvc_kind */
    unsigned field;        /* index into the layout's fields */
} scan_run;

/* What both scanners start from: the layout's judged fields in byte order
 * and the scale policies. */
typedef struct scan_plan {
    kvc_layout layout;
    kvc_scale_rules rules;
    unsigned nruns;
    scan_run runs[KVC_MAX_FIELDS];
    /* bytes of a page the filter reads per token when they are whole word
     * pairs and the page whole 16-byte chunks: the digest is then taken in
     * the filter's pass, token by token (else 0: in a pass of its own) */
    uint32_t digest_share;
} scan_plan;

kvc_status scan_plan_make(const kvc_layout *l, const kvc_scan_options *o, scan_plan *out, kvc_diag *diag);

/* Counts the damaged elements of one page into counts[check]; returns how
 * many. Its digest into *digest when `digest` is not NULL. */
uint32_t scan_page(const scan_plan *plan, const uint8_t *page, uint64_t counts[KVC_CHECK_COUNT], uint64_t *digest);
/* The digest of one page (kernels/kvc_digest.h), as the GPU computes it. */
uint64_t page_digest(const uint8_t *page, uint64_t page_bytes);
/* The digest's sum over `pairs` word pairs at `p`, the first of them pair
 * `first` of its page (kvc_digest_final of a page's whole sum is its digest). */
uint64_t digest_sum(const uint8_t *p, uint64_t pairs, uint64_t first);
/* Appends one page's findings in byte order while fewer than `max` are held. */
void scan_page_findings(const scan_plan *plan, const uint8_t *page, unsigned layer, uint64_t page_index,
                        uint64_t page_offset, kvc_finding *out, size_t *n, size_t max);

/* One layer for a scanner: where its pages are, which to scan, and where
 * the results go. */
typedef struct layer_job {
    const struct layer_src *src; /* where the pages come from, for streaming */
    int resident;             /* the pages are in memory: scan them where they are */
    const uint8_t *host;      /* the layer's pages in host memory (mapped), or NULL */
    const uint64_t *pages;    /* selected pages, ascending; NULL: all */
    uint64_t npages;          /* how many are scanned */
    uint32_t *page_bad;       /* out: damaged elements per scanned page */
    uint64_t *digests;        /* out: each scanned page's digest (kvc_digest.h) */
    uint64_t counts[KVC_CHECK_COUNT]; /* out: added to */
    void (*progress)(void *ctx, uint64_t bytes_done); /* within this layer; may be NULL */
    void *progress_ctx;
} layer_job;

/* CPU threads to use for `asked` (0: one per online CPU, at most 16). */
unsigned cpu_threads(unsigned asked);
kvc_status cpu_scan_layer(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag);

#endif /* KVC_SCAN_H */
