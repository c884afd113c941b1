/* The GPU scanner of a layer: pages in device memory scanned where they
 * are, or streamed from the host through pinned double buffers. */
#include "gpu/gpu_ctx.h"
#include "kvc_kernel_abi.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the plan */

/* The map entry of each 16-byte chunk of a page: the kind of the one field
 * it holds (padding aside), flagged exact when it also holds padding or
 * other fields (then KVC_KIND_MIXED), so flagged chunks are classified from
 * the field table. */
static kvc_status chunk_map(const scan_plan *p, uint64_t cpp, uint8_t **out, kvc_diag *diag)
{
    uint64_t page = p->layout.page_bytes;
    int8_t *owner = malloc(page);
    uint8_t *map = malloc(cpp);
    if (!owner || !map) {
        free(owner);
        free(map);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the chunk map");
    }
    memset(owner, -1, page);
    for (unsigned r = 0; r < p->nruns; r++)
        for (uint32_t t = 0; t < p->layout.page_size; t++)
            memset(owner + p->runs[r].base + (uint64_t)t * p->runs[r].stride, (int)r, p->runs[r].bytes);
    for (uint64_t k = 0; k < cpp; k++) {
        uint64_t first = k * KVC_GPU_CHUNK, end = first + KVC_GPU_CHUNK < page ? first + KVC_GPU_CHUNK : page;
        int run = -1, several = 0, pad = end - first < KVC_GPU_CHUNK;
        for (uint64_t b = first; b < end; b++) {
            if (owner[b] < 0) pad = 1;
            else if (run < 0) run = owner[b];
            else several |= owner[b] != run;
        }
        if (run < 0) {
            map[k] = KVC_KIND_PAD;
            continue;
        }
        const scan_run *r = &p->runs[run];
        unsigned size = kvc_kind_size(r->kind);
        int aligned = r->stride % size == 0 && (first - r->base) % r->stride % size == 0;
        if (several || !aligned) map[k] = KVC_KIND_MIXED | KVC_GPU_EXACT;
        else map[k] = (uint8_t)(r->kind | (pad ? KVC_GPU_EXACT : 0));
    }
    free(owner);
    *out = map;
    return KVC_OK;
}

static void plan_fill(const scan_plan *p, kvc_gpu_plan *k, int vector)
{
    memset(k, 0, sizeof *k);
    k->page_bytes = p->layout.page_bytes;
    k->chunks_per_page = (p->layout.page_bytes + KVC_GPU_CHUNK - 1) / KVC_GPU_CHUNK;
    k->page_size = p->layout.page_size;
    k->nruns = p->nruns;
    k->vector = (unsigned)vector;
    k->map_shared = k->chunks_per_page <= KVC_GPU_MAP_SHARED_MAX;
    k->rules = p->rules;
    for (unsigned r = 0; r < p->nruns && r < KVC_GPU_MAX_RUNS; r++)
        k->runs[r] = (kvc_gpu_run){p->runs[r].base, p->runs[r].stride, p->runs[r].bytes, p->runs[r].kind};
}

/* Device memory a layer scan needs, freed in one place. */
typedef struct gpu_buffers {
    cu_deviceptr map, counts, pages, data[2], bad[2];
    void *pinned[2];
    uint32_t *bad_host[2];
} gpu_buffers;

static void buffers_free(const gpu_ctx *g, gpu_buffers *b)
{
    const cuda_api *a = g->api;
    cu_deviceptr *d[] = {&b->map, &b->counts, &b->pages, &b->data[0], &b->data[1], &b->bad[0], &b->bad[1]};
    for (size_t i = 0; i < COUNT_OF(d); i++)
        if (*d[i]) a->cuMemFree(*d[i]);
    for (int i = 0; i < 2; i++) {
        if (b->pinned[i]) a->cuMemFreeHost(b->pinned[i]);
        if (b->bad_host[i]) a->cuMemFreeHost(b->bad_host[i]);
    }
    memset(b, 0, sizeof *b);
}

static kvc_status launch(const gpu_ctx *g, cu_stream s, cu_deviceptr data, cu_deviceptr pages, cu_deviceptr map,
                         cu_deviceptr bad, cu_deviceptr counts, kvc_gpu_plan *plan, kvc_diag *diag)
{
    uint64_t chunks = plan->npages * plan->chunks_per_page;
    uint64_t want = (chunks + KVC_GPU_BLOCK - 1) / KVC_GPU_BLOCK;
    unsigned grid = want < g->grid ? (unsigned)(want ? want : 1) : g->grid;
    void *args[] = {&data, &pages, &map, &bad, &counts, plan};
    unsigned shared = plan->map_shared ? (unsigned)plan->chunks_per_page : 0;
    CU_TRY(g, g->api->cuLaunchKernel(g->scan[pages != 0][!plan->map_shared], grid, 1, 1, KVC_GPU_BLOCK, 1, 1, shared, s,
                                     args, NULL),
           "cuLaunchKernel(kvc_scan)", NULL);
    return KVC_OK;
}

/* ------------------------------------------------------- host → device */

#define BATCH_BYTES (64ull << 20)

static kvc_status stream_host(gpu_ctx *g, const scan_plan *p, layer_job *job, gpu_buffers *b, kvc_gpu_plan *kp,
                              unsigned threads, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    uint64_t pb = p->layout.page_bytes;
    uint64_t per = BATCH_BYTES / pb ? BATCH_BYTES / pb : 1;
    if (per > job->npages) per = job->npages ? job->npages : 1;
    for (int i = 0; i < 2; i++) {
        CU_TRY(g, a->cuMemAllocHost(&b->pinned[i], per * pb), "cuMemAllocHost (pinned staging buffer)", NULL);
        void *bh;
        CU_TRY(g, a->cuMemAllocHost(&bh, per * sizeof(uint32_t)), "cuMemAllocHost", NULL);
        b->bad_host[i] = bh;
        kvc_status st = gpu_dev_alloc(g, &b->data[i], per * pb, diag);
        if (!st) st = gpu_dev_alloc(g, &b->bad[i], per * sizeof(uint32_t), diag);
        if (st) return st;
    }
    uint64_t nbatches = (job->npages + per - 1) / per;
    for (uint64_t k = 0; k < nbatches + 2; k++) {
        int s = (int)(k % 2);
        if (k >= 2) { /* batch k-2 used this buffer: wait for it, take its page counts */
            CU_TRY(g, a->cuEventSynchronize(g->done[s]), "cuEventSynchronize (scan kernel)", NULL);
            uint64_t first = (k - 2) * per, n = job->npages - first < per ? job->npages - first : per;
            memcpy(job->page_bad + first, b->bad_host[s], n * sizeof(uint32_t));
            if (job->progress) job->progress(job->progress_ctx, (first + n) * pb);
        }
        if (k >= nbatches) continue;
        uint64_t first = k * per, n = job->npages - first < per ? job->npages - first : per;
        kvc_status rs = layer_read(job->src, job->pages, first, n, pb, b->pinned[s], job->resident, threads, diag);
        if (rs) return rs;
        kp->npages = n;
        kp->out_base = 0;
        CU_TRY(g, a->cuMemcpyHtoDAsync(b->data[s], b->pinned[s], n * pb, g->stream[s]), "cuMemcpyHtoDAsync", NULL);
        CU_TRY(g, a->cuMemsetD8Async(b->bad[s], 0, n * sizeof(uint32_t), g->stream[s]), "cuMemsetD8Async", NULL);
        kvc_status st = launch(g, g->stream[s], b->data[s], 0, b->map, b->bad[s], b->counts, kp, diag);
        if (st) return st;
        CU_TRY(g, a->cuMemcpyDtoHAsync(b->bad_host[s], b->bad[s], n * sizeof(uint32_t), g->stream[s]),
               "cuMemcpyDtoHAsync", NULL);
        CU_TRY(g, a->cuEventRecord(g->done[s], g->stream[s]), "cuEventRecord", NULL);
    }
    return KVC_OK;
}

static kvc_status scan_in_place(gpu_ctx *g, layer_job *job, gpu_buffers *b, kvc_gpu_plan *kp, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    kvc_status st = gpu_dev_alloc(g, &b->bad[0], job->npages * sizeof(uint32_t), diag);
    if (!st && job->pages) st = gpu_dev_alloc(g, &b->pages, job->npages * sizeof(uint64_t), diag);
    if (st) return st;
    if (job->pages)
        CU_TRY(g, a->cuMemcpyHtoD(b->pages, job->pages, job->npages * sizeof(uint64_t)), "cuMemcpyHtoD", NULL);
    CU_TRY(g, a->cuMemsetD8Async(b->bad[0], 0, job->npages * sizeof(uint32_t), g->stream[0]), "cuMemsetD8Async", NULL);
    kp->npages = job->npages;
    st = launch(g, g->stream[0], job->device, b->pages, b->map, b->bad[0], b->counts, kp, diag);
    if (st) return st;
    CU_TRY(g, a->cuStreamSynchronize(g->stream[0]), "cuStreamSynchronize (scan kernel)", NULL);
    CU_TRY(g, a->cuMemcpyDtoH(job->page_bad, b->bad[0], job->npages * sizeof(uint32_t)), "cuMemcpyDtoH", NULL);
    if (job->progress) job->progress(job->progress_ctx, job->npages * kp->page_bytes);
    return KVC_OK;
}

/* The kernel's plan for `p`, its chunk map uploaded and its counters zeroed. */
static kvc_status plan_upload(gpu_ctx *g, const scan_plan *p, int vector, kvc_gpu_plan *kp, gpu_buffers *b,
                              kvc_diag *diag)
{
    const cuda_api *a = g->api;
    plan_fill(p, kp, vector);
    uint8_t *map = NULL;
    kvc_status st = chunk_map(p, kp->chunks_per_page, &map, diag);
    if (!st) st = gpu_dev_alloc(g, &b->map, kp->chunks_per_page, diag);
    if (!st) st = gpu_dev_alloc(g, &b->counts, KVC_CHECK_COUNT * sizeof(uint64_t), diag);
    cu_result r = 0;
    if (!st && (r = a->cuMemcpyHtoD(b->map, map, kp->chunks_per_page)) != 0)
        st = cuda_fail(a, r, "cuMemcpyHtoD", NULL, diag);
    if (!st && (r = a->cuMemsetD8Async(b->counts, 0, KVC_CHECK_COUNT * sizeof(uint64_t), g->stream[0])) != 0)
        st = cuda_fail(a, r, "cuMemsetD8Async", NULL, diag);
    if (!st && (r = a->cuStreamSynchronize(g->stream[0])) != 0) st = cuda_fail(a, r, "cuStreamSynchronize", NULL, diag);
    free(map);
    return st;
}

kvc_status gpu_scan_layer(gpu_ctx *g, const scan_plan *p, layer_job *job, unsigned threads, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    if (!job->npages) return KVC_OK;
    /* staging buffers are aligned; the caller's device memory may not be */
    int vector = p->layout.page_bytes % KVC_GPU_CHUNK == 0 && job->device % KVC_GPU_CHUNK == 0;
    kvc_gpu_plan kp;
    gpu_buffers b;
    memset(&b, 0, sizeof b);
    kvc_status st = plan_upload(g, p, vector, &kp, &b, diag);
    if (!st) st = job->device ? scan_in_place(g, job, &b, &kp, diag) : stream_host(g, p, job, &b, &kp, threads, diag);
    uint64_t counts[KVC_CHECK_COUNT];
    cu_result r = 0;
    if (!st && (r = a->cuMemcpyDtoH(counts, b.counts, sizeof counts)) != 0) st = cuda_fail(a, r, "cuMemcpyDtoH", NULL, diag);
    for (unsigned i = 0; !st && i < KVC_CHECK_COUNT; i++) job->counts[i] += counts[i];
    buffers_free(g, &b);
    return st;
}

kvc_status gpu_time_read(gpu_ctx *g, uint64_t ptr, uint64_t bytes, int iters, double *seconds, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    cu_deviceptr sink;
    kvc_status st = gpu_dev_alloc(g, &sink, KVC_GPU_BLOCK * 16, diag);
    if (st) return st;
    unsigned long long n = bytes / 16;
    void *args[] = {&ptr, &n, &sink};
    float ms = 0;
    cu_result r = 0;
    for (int i = 0; i <= iters && !r; i++) { /* the first run warms up */
        if (i == 1) r = a->cuEventRecord(g->done[0], g->stream[0]);
        if (!r) r = a->cuLaunchKernel(g->read, g->grid, 1, 1, KVC_GPU_BLOCK, 1, 1, 0, g->stream[0], args, NULL);
    }
    if (!r) r = a->cuEventRecord(g->done[1], g->stream[0]);
    if (!r) r = a->cuEventSynchronize(g->done[1]);
    if (!r) r = a->cuEventElapsedTime(&ms, g->done[0], g->done[1]);
    a->cuMemFree(sink);
    if (r) return cuda_fail(a, r, "the read kernel", NULL, diag);
    *seconds = ms / 1e3 / iters;
    return KVC_OK;
}

kvc_status gpu_time_scan(gpu_ctx *g, const scan_plan *p, uint64_t ptr, uint64_t bytes, int iters, double *seconds,
                         kvc_diag *diag)
{
    const cuda_api *a = g->api;
    kvc_gpu_plan kp;
    gpu_buffers b;
    memset(&b, 0, sizeof b);
    kvc_status st = plan_upload(g, p, p->layout.page_bytes % KVC_GPU_CHUNK == 0, &kp, &b, diag);
    kp.npages = bytes / p->layout.page_bytes;
    if (!st) st = gpu_dev_alloc(g, &b.bad[0], kp.npages * sizeof(uint32_t), diag);
    cu_result r = 0;
    float ms = 0;
    for (int i = 0; i <= iters && !st && !r; i++) { /* the first run warms up */
        if (i == 1) r = a->cuEventRecord(g->done[0], g->stream[0]);
        if (!r) st = launch(g, g->stream[0], ptr, 0, b.map, b.bad[0], b.counts, &kp, diag);
    }
    if (!st && !r) r = a->cuEventRecord(g->done[1], g->stream[0]);
    if (!st && !r) r = a->cuEventSynchronize(g->done[1]);
    if (!st && !r) r = a->cuEventElapsedTime(&ms, g->done[0], g->done[1]);
    if (!st && r) st = cuda_fail(a, r, "the scan kernel", NULL, diag);
    buffers_free(g, &b);
    if (!st) *seconds = ms / 1e3 / iters;
    return st;
}
