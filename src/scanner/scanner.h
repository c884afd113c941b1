/* The scanner: one run loop over any page source on the chosen device (CPU
 * or GPU), building the scan report. */
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
};

/* The scan entry points with an injectable driver (NULL: the real one). */
kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag);
kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag);

#endif /* KVC_SCANNER_H */
