/* detect: ranking the catalogue's layouts by how plausible bytes are under each. */
#ifndef KVC_DETECT_H
#define KVC_DETECT_H

#include "scan/scan.h"

struct kvc_detection {
    char best[KVC_NAME_LEN]; /* a layout name, or "unknown" */
    double confidence;       /* 0 to 1: how far the best stands above the rest */
    uint64_t bytes;          /* input bytes */
    uint64_t pages_sampled;  /* pages read, under the best candidate (all of them for small inputs) */
    unsigned ncandidates;
    kvc_candidate candidates[KVC_MAX_CANDIDATES]; /* best first */
};

/* kvc_detect_host into `out`. */
kvc_status detect_host(const void *data, size_t bytes, const kvc_layout_params *params, kvc_detection *out,
                       kvc_diag *diag);

/* Pages detect reads of each layer, and of all layers, at most. */
#define DETECT_SAMPLE_PAGES 64
#define DETECT_SAMPLE_TOTAL 1024
_Static_assert(DETECT_SAMPLE_TOTAL >= DETECT_SAMPLE_PAGES, "a layer's sample fits the total");

/* Ranks the catalogue's layouts for opened inputs (kvc_detect_files's core). */
kvc_status detect_inputs(const scan_inputs *in, const kvc_layout_params *params, kvc_detection *out, kvc_diag *diag);

#endif /* KVC_DETECT_H */
