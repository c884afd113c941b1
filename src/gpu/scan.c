/* The GPU scanner: a plan uploaded once, then scans of pages of any number
 * of layer buffers in device memory, enqueued on any stream, the kernel
 * writing their results (per-layer counts, per-page damage and digests)
 * straight into pinned host memory; and pages streamed from the host
 * through pinned double buffers, one such scanner per buffer. */
#include "gpu/gpu_ctx.h"
#include "kvc_kernel_abi.h"

#include <sched.h>
#include <stdatomic.h>
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

static void plan_fill(const scan_plan *p, kvc_gpu_plan *k)
{
    memset(k, 0, sizeof *k);
    k->page_bytes = p->layout.page_bytes;
    k->chunks_per_page = (p->layout.page_bytes + KVC_GPU_CHUNK - 1) / KVC_GPU_CHUNK;
    k->page_size = p->layout.page_size;
    k->nruns = p->nruns;
    k->map_shared = k->chunks_per_page <= KVC_GPU_MAP_SHARED_MAX;
    k->rules = p->rules;
    for (unsigned r = 0; r < p->nruns && r < KVC_GPU_MAX_RUNS; r++)
        k->runs[r] = (kvc_gpu_run){p->runs[r].base, p->runs[r].stride, p->runs[r].bytes, p->runs[r].kind};
}

/* ---------------------------------------------------------- the scanner */

struct gpu_scanner {
    gpu_ctx *g;
    kvc_gpu_plan plan;
    cu_deviceptr map;
    /* the layer table and page list: pinned, copied to the device when they change */
    cu_deviceptr inputs;
    uint64_t *inputs_host;
    size_t inputs_cap, inputs_used; /* in words */
    /* the kernel's own: its ticket (8 bytes) then per-layer count accumulators, zero between launches */
    cu_deviceptr state;
    size_t state_cap; /* bytes */
    /* the submitted launch: its number, the word it writes it to last, its stream */
    uint64_t seq;
    const volatile uint64_t *done;
    cu_stream stream;
};

void gpu_scanner_free(gpu_scanner *s)
{
    if (!s) return;
    const cuda_api *a = s->g->api;
    if (s->map) a->cuMemFree(s->map);
    if (s->inputs) a->cuMemFree(s->inputs);
    if (s->state) a->cuMemFree(s->state);
    if (s->inputs_host) a->cuMemFreeHost(s->inputs_host);
    free(s);
}

kvc_status gpu_scanner_create(gpu_ctx *g, const scan_plan *p, gpu_scanner **out, kvc_diag *diag)
{
    *out = NULL;
    gpu_scanner *s = calloc(1, sizeof *s);
    if (!s) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    s->g = g;
    plan_fill(p, &s->plan);
    uint8_t *map = NULL;
    kvc_status st = chunk_map(p, s->plan.chunks_per_page, &map, diag);
    if (!st) st = gpu_dev_alloc(g, &s->map, s->plan.chunks_per_page, diag);
    cu_result r = 0;
    if (!st && (r = g->api->cuMemcpyHtoD(s->map, map, s->plan.chunks_per_page)) != 0)
        st = cuda_fail(g->api, r, "cuMemcpyHtoD (the chunk map)", NULL, diag);
    free(map);
    if (st) {
        gpu_scanner_free(s);
        return st;
    }
    *out = s;
    return KVC_OK;
}

/* Grows a device buffer to at least `bytes`; with a pinned twin when `host`. */
static kvc_status grow(const gpu_ctx *g, cu_deviceptr *dev, void **host, size_t *cap, size_t bytes, kvc_diag *diag)
{
    if (bytes <= *cap) return KVC_OK;
    const cuda_api *a = g->api;
    if (*dev) a->cuMemFree(*dev);
    if (host && *host) a->cuMemFreeHost(*host);
    *dev = 0, *cap = 0;
    if (host) *host = NULL;
    size_t want = bytes < 4096 ? 4096 : bytes + bytes / 2;
    RETURN_IF_ERROR(gpu_dev_alloc(g, dev, want, diag));
    if (host) CU_TRY(g, a->cuMemAllocHost(host, want), "cuMemAllocHost (pinned inputs)", NULL);
    *cap = want;
    return KVC_OK;
}

/* The layer table and page list on the device; copied only when they
 * differ from the last scan's (a pool is scanned again and again). */
static kvc_status upload_inputs(gpu_scanner *s, const uint64_t *layers, size_t nlayers, const uint64_t *pages,
                                uint64_t npages, cu_stream stream, kvc_diag *diag)
{
    size_t words = nlayers + (pages ? npages : 0), cap = s->inputs_cap * 8;
    int same = s->inputs_host && words == s->inputs_used && !memcmp(s->inputs_host, layers, nlayers * 8) &&
               (!pages || !memcmp(s->inputs_host + nlayers, pages, npages * 8));
    if (same) return KVC_OK;
    void *host = s->inputs_host;
    RETURN_IF_ERROR(grow(s->g, &s->inputs, &host, &cap, words * 8, diag));
    s->inputs_host = host, s->inputs_cap = cap / 8;
    memcpy(s->inputs_host, layers, nlayers * 8);
    if (pages) memcpy(s->inputs_host + nlayers, pages, npages * 8);
    s->inputs_used = words;
    CU_TRY(s->g, s->g->api->cuMemcpyHtoDAsync(s->inputs, s->inputs_host, words * 8, stream),
           "cuMemcpyHtoDAsync (the layer table)", NULL);
    return KVC_OK;
}

/* The kernel's ticket and accumulators for `nlayers` layers, zeroed on the
 * launch's stream when they are (re)allocated; launches leave them zero. */
static kvc_status reserve_state(gpu_scanner *s, size_t nlayers, cu_stream stream, kvc_diag *diag)
{
    size_t bytes = 8 + nlayers * KVC_CHECK_COUNT * sizeof(uint64_t);
    if (bytes <= s->state_cap) return KVC_OK;
    RETURN_IF_ERROR(grow(s->g, &s->state, NULL, &s->state_cap, bytes, diag));
    cu_result r = s->g->api->cuMemsetD8Async(s->state, 0, s->state_cap, stream);
    if (r) s->state_cap = 0; /* not zeroed: set up again on the next scan */
    return r ? cuda_fail(s->g->api, r, "cuMemsetD8Async (the scan's accumulators)", NULL, diag) : KVC_OK;
}

/* Warps per page: the fewest rounds of pages over the warps the GPU holds
 * at once, times the loads one after another each warp makes per page (a
 * pool of many pages takes a warp a page; a few pages are split over up to
 * a block's warps, so they are not read by one warp's loads in a row). The
 * smaller group on a tie. */
static uint32_t warps_per_page(uint64_t items, uint64_t chunks_per_page, uint64_t resident_warps)
{
    uint32_t best = 1;
    uint64_t best_cost = UINT64_MAX;
    for (uint32_t g = 1; g <= KVC_GPU_WARPS; g *= 2) {
        uint64_t per_round = 32ull * KVC_GPU_UNROLL * g;
        uint64_t cost = (items * g + resident_warps - 1) / resident_warps * ((chunks_per_page + per_round - 1) / per_round);
        if (cost < best_cost) best = g, best_cost = cost;
    }
    return best;
}

kvc_status gpu_scanner_submit(gpu_scanner *s, const uint64_t *layers, size_t nlayers, const uint64_t *pages,
                              uint64_t per_layer, cu_stream stream, void *host, kvc_diag *diag)
{
    const gpu_ctx *g = s->g;
    const cuda_api *a = g->api;
    kvc_gpu_plan plan = s->plan;
    plan.items = nlayers * per_layer;
    plan.per_layer = per_layer ? per_layer : 1;
    plan.ncounts = nlayers * KVC_CHECK_COUNT;
    plan.vector = plan.page_bytes % KVC_GPU_CHUNK == 0;
    for (size_t l = 0; l < nlayers; l++) plan.vector &= layers[l] % KVC_GPU_CHUNK == 0;
    RETURN_IF_ERROR(upload_inputs(s, layers, nlayers, pages, per_layer, stream, diag));
    RETURN_IF_ERROR(reserve_state(s, nlayers, stream, diag));
    cu_deviceptr table = s->inputs, list = pages ? s->inputs + nlayers * 8 : 0, map = s->map;
    /* the kernel writes the results straight into the caller's pinned memory
     * (mapped into the device's address space): no copy back to wait for,
     * and measured faster on the H200 than gathering them on the device and
     * copying them back, for a request's few thousand pages and a pool's
     * 80,000 alike */
    page_results at = page_results_at(host, nlayers, plan.items);
    cu_deviceptr counts = (uintptr_t)at.counts, digests = (uintptr_t)at.digests, bad = (uintptr_t)at.bad;
    cu_deviceptr done = (uintptr_t)at.done;
    plan.seq = s->seq + 1; /* a word left from an earlier launch never holds it */
    cu_deviceptr ticket = s->state, acc = s->state + 8;
    plan.group = warps_per_page(plan.items, plan.chunks_per_page, (uint64_t)g->grid * KVC_GPU_WARPS);
    /* one block at least, whose end hands the (zero) counts over */
    uint64_t per_block = KVC_GPU_WARPS / plan.group, blocks = (plan.items + per_block - 1) / per_block;
    unsigned grid = blocks < 1 ? 1 : blocks < g->grid ? (unsigned)blocks : g->grid;
    void *args[] = {&table, &list, &map, &bad, &digests, &counts, &done, &acc, &ticket, &plan};
    unsigned shared = plan.map_shared ? (unsigned)plan.chunks_per_page : 0;
    CU_TRY(g, a->cuLaunchKernel(g->scan[!plan.map_shared], grid, 1, 1, KVC_GPU_BLOCK, 1, 1, shared, stream, args, NULL),
           "cuLaunchKernel(kvc_scan)", NULL);
    s->seq = plan.seq, s->done = at.done, s->stream = stream;
    return KVC_OK;
}

#define QUERY_EVERY 256     /* looks at the word between two questions to the stream (about 10 us) */
#define YIELD_AFTER 100000  /* looks, then long waits (work queued ahead on the stream) give the CPU up */

kvc_status gpu_scanner_wait(gpu_scanner *s, kvc_diag *diag)
{
    for (unsigned long looks = 1; *s->done != s->seq; looks++) {
        if (looks % QUERY_EVERY) {
            cpu_relax();
            continue;
        }
        cu_result r = s->g->api->cuStreamQuery(s->stream);
        if (r == CU_ERROR_NOT_READY) {
            if (looks > YIELD_AFTER) sched_yield();
            continue;
        }
        CU_TRY(s->g, r, "cuStreamQuery (the scan kernel)", NULL);
        RETURN_ERROR_IF(*s->done != s->seq, diag, KVC_ERR_GPU, NULL,
                        "the scan kernel finished without handing its results over (launch %llu): the GPU "
                        "scanner's results are not trustworthy; scan on the CPU (--device cpu) and report this",
                        (unsigned long long)s->seq);
    }
    atomic_thread_fence(memory_order_acquire); /* the results are read after the word */
    return KVC_OK;
}

/* ------------------------------------------------------- host → device */

#define BATCH_BYTES (16ull << 20) /* pinning costs by the byte, each run: small batches, started sooner */

/* Two of everything: one batch is read while the other is scanned. */
typedef struct stream_bufs {
    gpu_scanner *scanner[2];
    cu_deviceptr data[2];
    void *pinned[2], *results[2]; /* pages in, page_results out */
} stream_bufs;

static void stream_bufs_free(const gpu_ctx *g, stream_bufs *b)
{
    for (int i = 0; i < 2; i++) {
        gpu_scanner_free(b->scanner[i]);
        if (b->data[i]) g->api->cuMemFree(b->data[i]);
        if (b->pinned[i]) g->api->cuMemFreeHost(b->pinned[i]);
        if (b->results[i]) g->api->cuMemFreeHost(b->results[i]);
    }
}

/* Takes the results of a batch (pages first .. first + n) into the job. */
static kvc_status take_batch(gpu_scanner *s, const void *results, layer_job *job, uint64_t first, uint64_t n,
                             uint64_t pb, kvc_diag *diag)
{
    RETURN_IF_ERROR(gpu_scanner_wait(s, diag));
    page_results r = page_results_at((void *)(uintptr_t)results, 1, n);
    memcpy(job->page_bad + first, r.bad, n * sizeof *r.bad);
    if (job->digests) memcpy(job->digests + first, r.digests, n * sizeof *r.digests);
    for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) job->counts[i] += r.counts[i];
    if (job->progress) job->progress(job->progress_ctx, (first + n) * pb);
    return KVC_OK;
}

kvc_status gpu_scan_layer(gpu_ctx *g, const scan_plan *p, layer_job *job, unsigned threads, kvc_diag *diag)
{
    if (!job->npages) return KVC_OK;
    const cuda_api *a = g->api;
    uint64_t pb = p->layout.page_bytes;
    uint64_t per = BATCH_BYTES / pb ? BATCH_BYTES / pb : 1;
    if (per > job->npages) per = job->npages;
    stream_bufs b;
    memset(&b, 0, sizeof b);
    kvc_status st = KVC_OK;
    for (int i = 0; !st && i < 2; i++) {
        cu_result r = a->cuMemAllocHost(&b.pinned[i], per * pb);
        if (r) st = cuda_fail(a, r, "cuMemAllocHost (pinned staging buffer)", NULL, diag);
        if (!st && (r = a->cuMemAllocHost(&b.results[i], page_results_bytes(1, per))) != 0)
            st = cuda_fail(a, r, "cuMemAllocHost (pinned results)", NULL, diag);
        if (!st) st = gpu_dev_alloc(g, &b.data[i], per * pb, diag);
        if (!st) st = gpu_scanner_create(g, p, &b.scanner[i], diag);
    }
    uint64_t nbatches = (job->npages + per - 1) / per;
    for (uint64_t k = 0; !st && k < nbatches + 2; k++) {
        int s = (int)(k % 2);
        if (k >= 2) { /* batch k-2 used this buffer: wait for it, take its results */
            uint64_t first = (k - 2) * per;
            st = take_batch(b.scanner[s], b.results[s], job, first, job->npages - first < per ? job->npages - first : per,
                            pb, diag);
        }
        if (st || k >= nbatches) continue;
        uint64_t first = k * per, n = job->npages - first < per ? job->npages - first : per;
        st = layer_read(job->src, job->pages, first, n, pb, b.pinned[s], job->resident, threads, diag);
        cu_result r = 0;
        if (!st && (r = a->cuMemcpyHtoDAsync(b.data[s], b.pinned[s], n * pb, g->stream[s])) != 0)
            st = cuda_fail(a, r, "cuMemcpyHtoDAsync", NULL, diag);
        uint64_t base = b.data[s];
        if (!st) st = gpu_scanner_submit(b.scanner[s], &base, 1, NULL, n, g->stream[s], b.results[s], diag);
    }
    if (st) /* nothing may still be copying into buffers about to be freed */
        for (int i = 0; i < 2; i++) a->cuStreamSynchronize(g->stream[i]);
    stream_bufs_free(g, &b);
    return st;
}

/* ------------------------------------------------------------ benchmark */

kvc_status gpu_reader_init(gpu_ctx *g, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes, gpu_reader *r,
                           kvc_diag *diag)
{
    r->g = g;
    r->nlayers = (unsigned)nlayers;
    r->chunks = layer_bytes / 16;
    kvc_status st = gpu_alloc(g, KVC_GPU_BLOCK * 16, &r->sink, diag);
    if (!st && (st = gpu_alloc_upload(g, layers, nlayers * 8, &r->table, diag)) != KVC_OK) gpu_free(g, r->sink);
    return st;
}

kvc_status gpu_reader_launch(gpu_reader *r, void *stream, kvc_diag *diag)
{
    gpu_ctx *g = r->g;
    cu_deviceptr table = r->table, sink = r->sink;
    void *args[] = {&table, &r->nlayers, &r->chunks, &sink};
    CU_TRY(g, g->api->cuLaunchKernel(g->read, g->grid, 1, 1, KVC_GPU_BLOCK, 1, 1, 0, (cu_stream)stream, args, NULL),
           "the read kernel", NULL);
    return KVC_OK;
}

void gpu_reader_free(gpu_reader *r)
{
    gpu_free(r->g, r->sink);
    gpu_free(r->g, r->table);
}

kvc_status gpu_stream_wait(gpu_ctx *g, void *stream, kvc_diag *diag)
{
    CU_TRY(g, g->api->cuStreamSynchronize((cu_stream)stream), "cuStreamSynchronize", NULL);
    return KVC_OK;
}

void *gpu_bench_stream(gpu_ctx *g) { return g->stream[0]; }

kvc_status gpu_mark(gpu_ctx *g, int which, kvc_diag *diag)
{
    CU_TRY(g, g->api->cuEventRecord(g->done[which], g->stream[0]), "cuEventRecord", NULL);
    return KVC_OK;
}

kvc_status gpu_marked_seconds(gpu_ctx *g, double *seconds, kvc_diag *diag)
{
    float ms = 0;
    CU_TRY(g, g->api->cuEventSynchronize(g->done[1]), "cuEventSynchronize", NULL);
    CU_TRY(g, g->api->cuEventElapsedTime(&ms, g->done[0], g->done[1]), "cuEventElapsedTime", NULL);
    *seconds = ms / 1e3;
    return KVC_OK;
}
