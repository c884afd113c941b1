/* simulate: prefill's pages written, moved as the transfer moves them, read
 * back and scanned as decode reads them, on the CPU or the GPU. */
#ifndef KVC_SIMULATE_STAGE_H
#define KVC_SIMULATE_STAGE_H

#include "compare/compare.h"
#include "scanner/scanner.h"

struct kvc_simulation {
    kvc_resolved prefill, decode;
    uint64_t tokens, seed;
    uint64_t prefill_pages, decode_pages;
    uint64_t zero_blocks;     /* all-zero NoPE blocks among the values (prefill's scaled writer makes them NaN) */
    uint64_t bytes_copied;    /* by the transfer into decode's buffer */
    uint64_t overrun_bytes;   /* the transfer would write past the end of decode's buffer */
    uint64_t unwritten_bytes; /* bytes of decode's buffer the transfer never writes */
    kvc_readback written[2];  /* prefill's own read-back: [0] NoPE, [1] RoPE (its quantisation error) */
    kvc_readback decoded[2];  /* what decode reads back */
    uint64_t values_differ;   /* values decode reads back differently from prefill's read-back */
    uint64_t garbled_pages;   /* decode pages holding such values */
    kvc_scan_report *scan;    /* decode's pages scanned in decode's layout; owned */
    int compatible;           /* decode reads back exactly what prefill wrote, and nothing overruns */
    char device[8];           /* where the pages were written, moved and read: "cuda" or "cpu" */
    double seconds;
    unsigned nnotes;
    char notes[KVC_MAX_NOTES][KVC_NOTE_LEN];
};

#endif /* KVC_SIMULATE_STAGE_H */
