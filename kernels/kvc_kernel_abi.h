/* The parameter block of the scan kernel: one definition for the host code
 * that fills it (src/gpu/scan.c) and the kernel that reads it. */
#ifndef KVC_KERNEL_ABI_H
#define KVC_KERNEL_ABI_H

#include "kvc_digest.h"
#include "kvc_predicates.h"

#define KVC_GPU_MAX_RUNS 8
#define KVC_GPU_BLOCK 256
#define KVC_GPU_WARPS (KVC_GPU_BLOCK / 32)
#define KVC_GPU_CHUNK 16 /* bytes each thread loads at a time */
#define KVC_GPU_UNROLL 4 /* loads each thread has in flight (8: 80 registers, 3 blocks an SM, measured slower on the H200) */
#define KVC_GPU_MAP_SHARED_MAX 32768 /* chunk maps up to this size go to shared memory */

/* A chunk map entry: the kind whose filter screens the chunk, and whether a
 * flagged chunk must be classified element by element from the field table
 * (it holds several fields, or one field and padding). */
#define KVC_GPU_KIND_MASK 0x0Fu
#define KVC_GPU_EXACT 0x80u

typedef struct kvc_gpu_run {
    uint64_t base, stride; /* as in kvc_field */
    uint32_t bytes, kind;  /* per token; enum kvc_kind */
} kvc_gpu_run;

/* One launch scans `items` pages: item i is page pages[i % per_layer] (or
 * i % per_layer without a list) of layer i / per_layer, whose buffer starts
 * at layers[i / per_layer]. Results go to index i of the digest and page
 * arrays, and to counts[KVC_CHECK_COUNT * layer + check]. The kernel adds
 * the counts up in `acc` (as many) and counts finished blocks in `ticket`;
 * both are zero before a launch and the kernel leaves them zero. Its last
 * write is `seq` to the host's `done` word, once every result is there. */
typedef struct kvc_gpu_plan {
    uint64_t seq;             /* this launch's number, written to `done` last */
    uint64_t page_bytes;
    uint64_t chunks_per_page; /* page_bytes / 16, rounded up */
    uint64_t items;           /* pages in this launch, over all layers */
    uint64_t per_layer;       /* pages scanned in each layer */
    uint64_t ncounts;         /* layers x KVC_CHECK_COUNT: the counts handed over */
    uint32_t page_size;       /* tokens per page */
    uint32_t nruns;
    uint32_t vector;          /* 1: every page is 16-byte aligned, chunks are loaded whole */
    uint32_t group;           /* warps that scan one page together: 1, 2, 4 or 8 (KVC_GPU_WARPS) */
    uint32_t map_shared;      /* 1: the chunk map is copied into shared memory (cpp bytes) */
    kvc_scale_rules rules;
    kvc_gpu_run runs[KVC_GPU_MAX_RUNS];
} kvc_gpu_plan;

#endif /* KVC_KERNEL_ABI_H */
