/* The GPU: a device opened through the run-time loaded driver (gpu/driver.h,
 * the leaf), its kernels, the GPU scanner of a layer and simulate's kernels. */
#ifndef KVC_GPU_H
#define KVC_GPU_H

#include "gpu/driver.h"
#include "scan/scan.h"

/* The embedded kernels, or NULL in a build without nvcc. */
const void *gpu_kernels_image(void);

typedef struct gpu_ctx gpu_ctx;
/* Opens GPU `ordinal` through `inject` (tests) or the real driver and loads
 * the kernels; the primary context stays current on this thread until
 * gpu_close. On failure *absent says whether it means "no usable GPU". */
kvc_status gpu_open(const cuda_api *inject, int ordinal, gpu_ctx **out, int *absent, kvc_diag *diag);
void gpu_close(gpu_ctx *g); /* accepts NULL */
/* The device a command runs on: *out is GPU `ordinal`, or NULL for the CPU with
 * `why_not` saying why when the GPU was wanted (auto) but is not usable.
 * Fails when the GPU is needed or asked for and not usable, or the driver
 * fails otherwise (STYLE.md: only "no usable GPU" falls back). */
kvc_status gpu_choose(kvc_device want, int need_gpu, const cuda_api *driver, int ordinal, gpu_ctx **out,
                      char *why_not, size_t size, kvc_diag *diag);
const char *gpu_name(const gpu_ctx *g);
/* Makes the GPU's context current on the calling thread (a scanner handle
 * may be used from any thread), and undoes it; they nest. */
void gpu_enter(gpu_ctx *g);
void gpu_leave(gpu_ctx *g);

/* Pinned host memory that outlives the gpu_ctx it was allocated with (a
 * report keeps its scan's results after the scanner is freed): it holds
 * its own reference on the device's primary context. Freed from any thread. */
typedef struct gpu_pinned gpu_pinned;
kvc_status gpu_pinned_alloc(const gpu_ctx *g, size_t bytes, gpu_pinned **out, void **mem, kvc_diag *diag);
void gpu_pinned_free(gpu_pinned *p); /* accepts NULL */

/* Where a scan of `nlayers` layers, `items` pages in all, puts its results,
 * in the pinned host memory the kernel writes: the word `done` (the
 * launch's number, written last), counts[KVC_CHECK_COUNT * layer + check],
 * then per page in scan order (layer by layer) its digest, then its
 * damaged elements. */
typedef struct page_results {
    uint64_t *done, *counts, *digests;
    uint32_t *bad;
} page_results;
static inline size_t page_results_bytes(size_t nlayers, uint64_t items)
{
    return sizeof(uint64_t) + nlayers * KVC_CHECK_COUNT * sizeof(uint64_t) +
           items * (sizeof(uint64_t) + sizeof(uint32_t));
}
static inline page_results page_results_at(void *base, size_t nlayers, uint64_t items)
{
    page_results r;
    r.done = (uint64_t *)base;
    r.counts = r.done + 1;
    r.digests = r.counts + nlayers * KVC_CHECK_COUNT;
    r.bad = (uint32_t *)(r.digests + items);
    return r;
}

/* A plan on the GPU and its buffers, for many scans. */
typedef struct gpu_scanner gpu_scanner;
kvc_status gpu_scanner_create(gpu_ctx *g, const scan_plan *p, gpu_scanner **out, kvc_diag *diag);
void gpu_scanner_free(gpu_scanner *s); /* accepts NULL */
/* Enqueues on `stream` (NULL: CUDA's default stream) a scan of `per_layer` pages of
 * each of `nlayers` buffers at device addresses `layers`: pages[0 ..
 * per_layer) in any order, or pages 0 .. per_layer - 1 when `pages` is NULL;
 * its results land in `host` (pinned, page_results_bytes of them).
 * One scan at a time: gpu_scanner_wait before the next submit. */
kvc_status gpu_scanner_submit(gpu_scanner *s, const uint64_t *layers, size_t nlayers, const uint64_t *pages,
                              uint64_t per_layer, cu_stream stream, void *host, kvc_diag *diag);
/* Waits until the submitted scan's results are on the host: it watches the
 * word the kernel writes last (no event to record, and the results count
 * from the moment they land, not from the kernel's end), and asks the
 * stream now and then, so a failed launch is reported, not waited for. */
kvc_status gpu_scanner_wait(gpu_scanner *s, kvc_diag *diag);
/* Fails unless [ptr, ptr + bytes) is device memory of this GPU's context,
 * in one allocation; `what` names it in the message ("layer 3"). */
kvc_status gpu_check_pointer(gpu_ctx *g, uint64_t ptr, uint64_t bytes, const char *what, kvc_diag *diag);
/* Scans job->host streamed through pinned buffers (gathered on `threads`
 * threads). */
kvc_status gpu_scan_layer(gpu_ctx *g, const scan_plan *p, layer_job *job, unsigned threads, kvc_diag *diag);
kvc_status gpu_copy_to_host(gpu_ctx *g, void *dst, uint64_t src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_device_of(gpu_ctx *g, uint64_t ptr, int *ordinal, kvc_diag *diag);
/* For tests and the benchmark. */
kvc_status gpu_alloc(gpu_ctx *g, uint64_t bytes, uint64_t *out, kvc_diag *diag);
kvc_status gpu_upload(gpu_ctx *g, uint64_t dst, const void *src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_alloc_upload(gpu_ctx *g, const void *src, uint64_t bytes, uint64_t *out, kvc_diag *diag);
void gpu_free(gpu_ctx *g, uint64_t ptr);
/* The benchmark's clock on the device: the GPU's first stream, an event
 * recorded on it (0: start, 1: end), and the seconds between them. */
void *gpu_bench_stream(gpu_ctx *g);
kvc_status gpu_mark(gpu_ctx *g, int which, kvc_diag *diag);
kvc_status gpu_marked_seconds(gpu_ctx *g, double *seconds, kvc_diag *diag);
/* The benchmark's reference, the plain read kernel over `nlayers` buffers of
 * `layer_bytes`: its layer table on the device, set up once; each launch is
 * enqueued on `stream` (a CUstream; NULL: CUDA's default stream) and returns
 * without waiting. gpu_stream_wait waits until a stream's work is done. */
typedef struct gpu_reader {
    gpu_ctx *g;
    uint64_t table, sink;
    unsigned nlayers;
    unsigned long long chunks;
} gpu_reader;
kvc_status gpu_reader_init(gpu_ctx *g, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes, gpu_reader *r,
                           kvc_diag *diag);
kvc_status gpu_reader_launch(gpu_reader *r, void *stream, kvc_diag *diag);
void gpu_reader_free(gpu_reader *r);
kvc_status gpu_stream_wait(gpu_ctx *g, void *stream, kvc_diag *diag);
/* simulate on the GPU: writes prefill's pages, moves them, reads both back;
 * per-token results into `stats`; decode's buffer stays on the device for the
 * scan (*dbuf, freed with gpu_free). */
struct kvc_sim_layout;
struct kvc_sim_token;
kvc_status gpu_simulate(gpu_ctx *g, const struct kvc_sim_layout *pl, const struct kvc_sim_layout *dl, uint64_t seed,
                        uint64_t tokens, uint64_t pbytes, uint64_t dbytes, struct kvc_sim_token *stats, uint64_t *dbuf,
                        kvc_diag *diag);

#endif /* KVC_GPU_H */
