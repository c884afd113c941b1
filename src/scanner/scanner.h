/* The scanner: a handle that holds a layout's plan on the chosen device (CPU
 * or GPU) for many scans, the run loop over any page source, and the scan
 * report both build. */
#ifndef KVC_SCANNER_H
#define KVC_SCANNER_H

#include "detect/detect.h"
#include "gpu/gpu.h"
#include "source/source.h"

struct kvc_scan_report {
    char device[8];              /* "cuda" or "cpu" */
    char device_name[KVC_NAME_LEN]; /* "NVIDIA H200", "4 CPU threads" */
    kvc_layout layout;
    char layout_source[KVC_NOTE_LEN];
    int scale_pow2, scale_ranged;   /* the policies applied */
    double scale_min, scale_max;
    uint64_t bytes_scanned, pages_scanned;
    double seconds;                 /* wall time of the scan */
    uint64_t counts[KVC_CHECK_COUNT]; /* over all layers */
    uint64_t damaged;               /* damaged elements over all layers */
    uint64_t bad_pages;             /* damaged pages over all layers */
    int clean;                      /* 1 when nothing was found */
    size_t nlayers;
    kvc_scan_layer *layers;
    size_t nfindings;               /* the first max_findings, in input order */
    kvc_finding *findings;
    unsigned nnotes;                /* e.g. "no usable GPU: scanned on the CPU" */
    char notes[KVC_MAX_NOTES][KVC_NOTE_LEN];
    /* when damage was found in files: the layout the bytes look like
     * instead (kvc_detect_files), or "" when it is the one asked for or
     * none is recognised */
    char looks_like[KVC_NAME_LEN];
    uint32_t looks_like_bytes_per_token;
    double looks_like_confidence;
    /* compared with the other side's digests (kvc_scan_report_expect_digests) */
    char digest_file[KVC_PATH_LEN]; /* "" when not compared */
    uint64_t digest_states[KVC_PAGE_STATES];
    size_t nissues;
    kvc_digest_issue *issues;
    /* the scanner handle's results the layers' digests and page lists point
     * into (held until the report is freed); NULL: each layer owns its own */
    struct scan_results *results;
};

/* The per-page results of a scanner handle's scan (src/scanner/results.c). */
typedef struct scan_results scan_results;
scan_results *scan_results_hold(scan_results *r);
void scan_results_drop(scan_results *r); /* accepts NULL; frees with the last reference */
void *scan_results_mem(const scan_results *r);

/* The scan a scanner has submitted and not yet waited for. */
typedef struct scan_batch {
    int pending;
    double t0;
    uint64_t *layers; /* a copy */
    size_t nlayers, cap_layers;
    uint64_t layer_bytes, per_layer;
    scan_results *results; /* where it goes: page_results, then the page list (per_layer entries) */
    page_results at;
    uint64_t *pages;       /* the page list in `results`; NULL: all pages */
} scan_batch;

#define SCANNER_RESULTS 4 /* results a scanner rotates: reports may hold some */

struct kvc_scanner {
    kvc_layout layout;
    scan_plan plan;
    size_t max_findings;
    unsigned threads;
    gpu_ctx *gpu;       /* NULL: the CPU */
    gpu_scanner *gscan; /* the plan on the GPU */
    char device[8], device_name[KVC_NAME_LEN];
    char note[KVC_NOTE_LEN]; /* why the GPU was not used under auto, or "" */
    char layout_source[KVC_NOTE_LEN];
    int scale_pow2, scale_ranged;
    double scale_min, scale_max;
    unsigned align;     /* layer addresses are multiples of it: the layout's widest element */
    /* the GPU layer table last checked, so a pool is checked once */
    uint64_t *checked;
    size_t nchecked, cap_checked;
    uint64_t checked_bytes;
    scan_batch batch;
    scan_results *results[SCANNER_RESULTS];
    unsigned next_results;
};

/* Results of at least `bytes` that no report holds (the scanner keeps them). */
kvc_status scanner_results(kvc_scanner *s, size_t bytes, scan_results **out, kvc_diag *diag);

/* kvc_scanner_create with an injectable driver (NULL: the real one);
 * need_gpu: fail rather than fall back to the CPU. */
kvc_status scanner_open(const kvc_layout *l, const kvc_scan_options *opt, const cuda_api *driver, int need_gpu,
                        kvc_scanner **out, kvc_diag *diag);

/* The scan entry points with an injectable driver (NULL: the real one). */
kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag);
kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag);

/* ------------------------------------------------- building a report */

/* A report with room for `nlayers` layers as `s` scans them, nothing found
 * yet; each layer is set up whole by whoever adds it (r->nlayers counts
 * them), so a pool's hundred layers are not cleared twice. */
kvc_status report_start(const kvc_scanner *s, size_t nlayers, kvc_scan_report **out, kvc_diag *diag);
/* Fills one layer's counts and damaged pages from the per-page damage of
 * the `npages` pages scanned (`list`, or 0 .. npages - 1 when NULL); the
 * caller sets its digests and page list. */
kvc_status layer_results(kvc_scan_layer *out, const uint64_t *list, uint64_t npages, const uint32_t *bad,
                         const uint64_t counts[KVC_CHECK_COUNT], kvc_diag *diag);
/* Totals over the layers, the verdict and the time since t0. */
void report_finish(kvc_scan_report *r, double t0);
/* The first findings of layer `l`'s damaged pages from a GPU's memory at
 * `base` (one page copied back at a time). */
kvc_status device_findings(kvc_scanner *s, kvc_scan_report *r, unsigned l, uint64_t base, kvc_diag *diag);

#endif /* KVC_SCANNER_H */
