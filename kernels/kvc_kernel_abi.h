/* The parameter block of the scan kernel: one definition for the host code
 * that fills it (src/scan_gpu.c) and the kernel that reads it. */
#ifndef KVC_KERNEL_ABI_H
#define KVC_KERNEL_ABI_H

#include "kvc_predicates.h"

#define KVC_GPU_MAX_RUNS 8
#define KVC_GPU_BLOCK 256
#define KVC_GPU_CHUNK 16 /* bytes each thread loads at a time */
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

typedef struct kvc_gpu_plan {
    uint64_t page_bytes;
    uint64_t chunks_per_page; /* page_bytes / 16, rounded up */
    uint64_t npages;          /* pages in this launch */
    uint64_t out_base;        /* index in page_bad of this launch's first page */
    uint32_t page_size;       /* tokens per page */
    uint32_t nruns;
    uint32_t vector;          /* 1: pages are 16-byte aligned, chunks are loaded whole */
    uint32_t map_shared;      /* 1: the chunk map is copied into shared memory (cpp bytes) */
    kvc_scale_rules rules;
    kvc_gpu_run runs[KVC_GPU_MAX_RUNS];
} kvc_gpu_plan;

#endif /* KVC_KERNEL_ABI_H */
