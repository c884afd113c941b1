/* The GPU scanner's host side: opens a device through the loaded driver,
 * loads the embedded kernels, and runs them over pages in device memory
 * or streamed from the host through pinned double buffers. */
#include "internal.h"
#include "kvc_kernel_abi.h"
#include "kvc_simulate.h"

#include <stdlib.h>
#include <string.h>

struct gpu_ctx {
    const cuda_api *api;
    cu_device device;
    cu_context ctx;
    int pushed;
    cu_module module;
    cu_function scan[2][2], read; /* [listed][map in global memory] */
    cu_function sim_write, sim_compare;
    cu_stream stream[2];
    cu_event done[2];
    unsigned grid; /* blocks that fill the GPU */
    char name[KVC_NAME_LEN];
};

#ifdef KVC_HAVE_KERNELS
extern const unsigned char kvc_fatbin[];
const void *gpu_kernels_image(void) { return kvc_fatbin; }
const char *kvc_gpu_support(void) { return "CUDA kernels for " KVC_KERNEL_ARCHS; }
#else
const void *gpu_kernels_image(void) { return NULL; }
const char *kvc_gpu_support(void) { return "none: built without nvcc, so scans run on the CPU"; }
#endif

#define CU_TRY(g, call, what, absent)                                                                           \
    do {                                                                                                        \
        cu_result r_ = (call);                                                                                  \
        if (r_ != 0) return cuda_fail((g)->api, r_, (what), (absent), diag);                                    \
    } while (0)

const char *gpu_name(const gpu_ctx *g) { return g->name; }

void gpu_close(gpu_ctx *g)
{
    if (!g) return;
    const cuda_api *a = g->api;
    for (int i = 0; i < 2; i++) {
        if (g->done[i]) a->cuEventDestroy(g->done[i]);
        if (g->stream[i]) a->cuStreamDestroy(g->stream[i]);
    }
    if (g->module) a->cuModuleUnload(g->module);
    if (g->pushed) {
        cu_context c;
        a->cuCtxPopCurrent(&c);
    }
    if (g->ctx) a->cuDevicePrimaryCtxRelease(g->device);
    free(g);
}

static kvc_status open_device(gpu_ctx *g, int ordinal, int *absent, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--device");
    int version = 0;
    CU_TRY(g, a->cuDriverGetVersion(&version), "cuDriverGetVersion", absent);
    if (version < KVC_CUDA_FLOOR) {
        *absent = 1;
        return diag_set(diag, KVC_ERR_GPU, &o,
                        "the NVIDIA driver is too old: it supports CUDA %d.%d, kvcheck needs %d.%d or newer",
                        version / 1000, version % 1000 / 10, KVC_CUDA_FLOOR / 1000, KVC_CUDA_FLOOR % 1000 / 10);
    }
    CU_TRY(g, a->cuInit(0), "cuInit", absent);
    int count = 0;
    CU_TRY(g, a->cuDeviceGetCount(&count), "cuDeviceGetCount", absent);
    if (count <= ordinal) {
        *absent = 1;
        return diag_set(diag, KVC_ERR_GPU, &o, "no CUDA device%s (the driver sees %d)", ordinal ? " of that ordinal" : "",
                        count);
    }
    CU_TRY(g, a->cuDeviceGet(&g->device, ordinal), "cuDeviceGet", absent);
    CU_TRY(g, a->cuDeviceGetName(g->name, (int)sizeof g->name, g->device), "cuDeviceGetName", absent);
    CU_TRY(g, a->cuDevicePrimaryCtxRetain(&g->ctx, g->device), "cuDevicePrimaryCtxRetain", absent);
    CU_TRY(g, a->cuCtxPushCurrent(g->ctx), "cuCtxPushCurrent", absent);
    g->pushed = 1;
    if (!a->module_image) {
        *absent = 1;
        return diag_set(diag, KVC_ERR_GPU, &o, "this kvcheck was built without GPU kernels (nvcc was not found at build "
                                               "time)");
    }
    CU_TRY(g, a->cuModuleLoadData(&g->module, a->module_image), "cuModuleLoadData (loading the scan kernels)", absent);
    static const char *const KERNELS[2][2] = {{"kvc_scan", "kvc_scan_gmap"}, {"kvc_scan_listed", "kvc_scan_listed_gmap"}};
    for (int l = 0; l < 2; l++)
        for (int m = 0; m < 2; m++)
            CU_TRY(g, a->cuModuleGetFunction(&g->scan[l][m], g->module, KERNELS[l][m]), "cuModuleGetFunction (a scan kernel)",
                   absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->read, g->module, "kvc_read"), "cuModuleGetFunction(kvc_read)", absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->sim_write, g->module, "kvc_sim_write"), "cuModuleGetFunction(kvc_sim_write)",
           absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->sim_compare, g->module, "kvc_sim_compare"),
           "cuModuleGetFunction(kvc_sim_compare)", absent);
    for (int i = 0; i < 2; i++) {
        CU_TRY(g, a->cuStreamCreate(&g->stream[i], CU_STREAM_NON_BLOCKING), "cuStreamCreate", absent);
        CU_TRY(g, a->cuEventCreate(&g->done[i], 0), "cuEventCreate", absent);
    }
    int sms = 0, per_sm = 0;
    CU_TRY(g, a->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->device),
           "cuDeviceGetAttribute", absent);
    CU_TRY(g, a->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, g->scan[0][0], KVC_GPU_BLOCK, 0),
           "cuOccupancyMaxActiveBlocksPerMultiprocessor", absent);
    g->grid = (unsigned)(sms > 0 ? sms : 1) * (unsigned)(per_sm > 0 ? per_sm : 1);
    *absent = 0;
    return KVC_OK;
}

kvc_status gpu_open(const cuda_api *inject, int ordinal, gpu_ctx **out, int *absent, kvc_diag *diag)
{
    *out = NULL;
    *absent = 0;
    const cuda_api *api = inject;
    if (!api) {
        kvc_status st = cuda_driver(&api, absent, diag);
        if (st) return st;
    }
    gpu_ctx *g = calloc(1, sizeof *g);
    if (!g) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    g->api = api;
    kvc_status st = open_device(g, ordinal, absent, diag);
    if (st) {
        gpu_close(g);
        return st;
    }
    *out = g;
    return KVC_OK;
}

kvc_status gpu_choose(kvc_device want, int need_gpu, const cuda_api *driver, gpu_ctx **out, char *why_not,
                      size_t size, kvc_diag *diag)
{
    *out = NULL;
    why_not[0] = '\0';
    if (want == KVC_DEVICE_CPU && !need_gpu) return KVC_OK;
    int absent = 0;
    kvc_diag why;
    kvc_status st = gpu_open(driver, 0, out, &absent, &why);
    if (!st) return KVC_OK;
    if (need_gpu || want == KVC_DEVICE_GPU || !absent) { /* only "no usable GPU" falls back, and only under auto */
        *diag = why;
        if (absent && !need_gpu) {
            size_t n = strlen(diag->message);
            snprintf(diag->message + n, sizeof diag->message - n,
                     "; --device gpu needs a usable NVIDIA GPU: use --device auto or cpu to run on the CPU");
        }
        return st;
    }
    str_copy(why_not, size, why.message);
    return KVC_OK;
}

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

static kvc_status alloc(const gpu_ctx *g, cu_deviceptr *p, size_t bytes, kvc_diag *diag)
{
    cu_result r = g->api->cuMemAlloc(p, bytes ? bytes : 1);
    if (r == 0) return KVC_OK;
    *p = 0;
    char what[96];
    str_printf(what, sizeof what, "cuMemAlloc(%zu bytes)", bytes);
    return cuda_fail(g->api, r, what, NULL, diag);
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
        kvc_status st = alloc(g, &b->data[i], per * pb, diag);
        if (!st) st = alloc(g, &b->bad[i], per * sizeof(uint32_t), diag);
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
    kvc_status st = alloc(g, &b->bad[0], job->npages * sizeof(uint32_t), diag);
    if (!st && job->pages) st = alloc(g, &b->pages, job->npages * sizeof(uint64_t), diag);
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
    if (!st) st = alloc(g, &b->map, kp->chunks_per_page, diag);
    if (!st) st = alloc(g, &b->counts, KVC_CHECK_COUNT * sizeof(uint64_t), diag);
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

kvc_status gpu_copy_to_host(gpu_ctx *g, void *dst, uint64_t src, uint64_t bytes, kvc_diag *diag)
{
    CU_TRY(g, g->api->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH (a damaged page, for its findings)", NULL);
    return KVC_OK;
}

kvc_status gpu_device_of(gpu_ctx *g, uint64_t ptr, int *ordinal, kvc_diag *diag)
{
    CU_TRY(g, g->api->cuPointerGetAttribute(ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr),
           "cuPointerGetAttribute (is this a device pointer?)", NULL);
    return KVC_OK;
}

/* ------------------------------------------------------------ benchmark */

kvc_status gpu_alloc(gpu_ctx *g, uint64_t bytes, uint64_t *out, kvc_diag *diag)
{
    cu_deviceptr p;
    kvc_status st = alloc(g, &p, bytes, diag);
    if (!st) *out = p;
    return st;
}

kvc_status gpu_upload(gpu_ctx *g, uint64_t dst, const void *src, uint64_t bytes, kvc_diag *diag)
{
    CU_TRY(g, g->api->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", NULL);
    return KVC_OK;
}

kvc_status gpu_alloc_upload(gpu_ctx *g, const void *src, uint64_t bytes, uint64_t *out, kvc_diag *diag)
{
    kvc_status st = gpu_alloc(g, bytes, out, diag);
    if (!st && (st = gpu_upload(g, *out, src, bytes, diag)) != KVC_OK) gpu_free(g, *out);
    return st;
}

void gpu_free(gpu_ctx *g, uint64_t ptr)
{
    if (ptr) g->api->cuMemFree(ptr);
}

kvc_status gpu_time_read(gpu_ctx *g, uint64_t ptr, uint64_t bytes, int iters, double *seconds, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    cu_deviceptr sink;
    kvc_status st = alloc(g, &sink, KVC_GPU_BLOCK * 16, diag);
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
    if (!st) st = alloc(g, &b.bad[0], kp.npages * sizeof(uint32_t), diag);
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

/* ------------------------------------------------------------- simulate */

#define SIM_BLOCK 128

kvc_status gpu_simulate(gpu_ctx *g, const kvc_sim_layout *pl, const kvc_sim_layout *dl, uint64_t seed,
                        uint64_t tokens, uint64_t pbytes, uint64_t dbytes, kvc_sim_token *stats, uint64_t *dbuf,
                        kvc_diag *diag)
{
    const cuda_api *a = g->api;
    cu_deviceptr p = 0, d = 0, out = 0;
    kvc_status st = alloc(g, &p, pbytes, diag);
    if (!st) st = alloc(g, &d, dbytes, diag);
    if (!st) st = alloc(g, &out, tokens * sizeof *stats, diag);
    unsigned long long s = seed, n = tokens;
    kvc_sim_layout pk = *pl, dk = *dl;
    unsigned grid = (unsigned)((tokens + SIM_BLOCK - 1) / SIM_BLOCK < 65535 * 16 ? (tokens + SIM_BLOCK - 1) / SIM_BLOCK
                                                                                 : 65535 * 16);
    void *write_args[] = {&pk, &p, &s, &n};
    void *compare_args[] = {&pk, &p, &dk, &d, &s, &n, &out};
    cu_result r = 0;
    const char *call = "";
    if (!st && (r = a->cuMemsetD8(p, 0, pbytes)) != 0) call = "cuMemsetD8";
    if (!st && !r && (r = a->cuMemsetD8(d, 0, dbytes)) != 0) call = "cuMemsetD8"; /* decode's pool starts zeroed */
    if (!st && !r && (r = a->cuLaunchKernel(g->sim_write, grid, 1, 1, SIM_BLOCK, 1, 1, 0, g->stream[0], write_args, NULL)))
        call = "cuLaunchKernel(kvc_sim_write)";
    if (!st && !r && (r = a->cuStreamSynchronize(g->stream[0]))) call = "kvc_sim_write";
    /* the transfer: prefill's pages back to back at prefill's item length */
    if (!st && !r && (r = a->cuMemcpyDtoD(d, p, pbytes < dbytes ? pbytes : dbytes))) call = "cuMemcpyDtoD (the transfer)";
    if (!st && !r &&
        (r = a->cuLaunchKernel(g->sim_compare, grid, 1, 1, SIM_BLOCK, 1, 1, 0, g->stream[0], compare_args, NULL)))
        call = "cuLaunchKernel(kvc_sim_compare)";
    if (!st && !r && (r = a->cuStreamSynchronize(g->stream[0]))) call = "kvc_sim_compare";
    if (!st && !r && (r = a->cuMemcpyDtoH(stats, out, tokens * sizeof *stats))) call = "cuMemcpyDtoH";
    if (!st && r) st = cuda_fail(a, r, call, NULL, diag);
    if (p) a->cuMemFree(p);
    if (out) a->cuMemFree(out);
    if (st && d) a->cuMemFree(d);
    if (!st) *dbuf = d;
    return st;
}
