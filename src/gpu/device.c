/* A GPU for a command: the device opened through the loaded driver, its
 * primary context and the embedded kernels; device memory helpers. */
#include "gpu/gpu_ctx.h"
#include "kvc_kernel_abi.h"

#include <stdlib.h>
#include <string.h>

#ifdef KVC_HAVE_KERNELS
extern const unsigned char kvc_fatbin[];
const void *gpu_kernels_image(void) { return kvc_fatbin; }
const char *kvc_gpu_support(void) { return "CUDA kernels for " KVC_KERNEL_ARCHS; }
#else
const void *gpu_kernels_image(void) { return NULL; }
const char *kvc_gpu_support(void) { return "none: built without nvcc, so scans run on the CPU"; }
#endif

const char *gpu_name(const gpu_ctx *g) { return g->name; }

/* A context already current (an engine's thread has it current for its own
 * work) is not pushed again: entering and leaving then cost a read of the
 * thread's current context. */
void gpu_enter(gpu_ctx *g)
{
    cu_context now = NULL;
    int pushed = !(g->api->cuCtxGetCurrent(&now) == 0 && now == g->ctx) && g->api->cuCtxPushCurrent(g->ctx) == 0;
    g->pushed = g->pushed << 1 | (unsigned)pushed;
    g->depth++;
}

void gpu_leave(gpu_ctx *g)
{
    if (!g->depth) return;
    cu_context c;
    if (g->pushed & 1) g->api->cuCtxPopCurrent(&c);
    g->pushed >>= 1;
    g->depth--;
}

void gpu_close(gpu_ctx *g)
{
    if (!g) return;
    const cuda_api *a = g->api;
    for (int i = 0; i < 2; i++) {
        if (g->done[i]) a->cuEventDestroy(g->done[i]);
        if (g->stream[i]) a->cuStreamDestroy(g->stream[i]);
    }
    if (g->module) a->cuModuleUnload(g->module);
    while (g->depth) gpu_leave(g);
    if (g->ctx) a->cuDevicePrimaryCtxRelease(g->device);
    free(g);
}

/* ------------------------------------------------ pinned host memory */

struct gpu_pinned {
    const cuda_api *api;
    cu_device device;
    cu_context ctx;
    void *mem;
};

kvc_status gpu_pinned_alloc(const gpu_ctx *g, size_t bytes, gpu_pinned **out, void **mem, kvc_diag *diag)
{
    *out = NULL, *mem = NULL;
    gpu_pinned *p = calloc(1, sizeof *p);
    RETURN_ERROR_IF(!p, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    p->api = g->api, p->device = g->device;
    cu_result r = g->api->cuDevicePrimaryCtxRetain(&p->ctx, g->device);
    if (r) {
        free(p);
        return cuda_fail(g->api, r, "cuDevicePrimaryCtxRetain", NULL, diag);
    }
    /* in this device's context, whichever the calling thread has current (none, or another GPU's) */
    r = g->api->cuCtxPushCurrent(p->ctx);
    if (!r) {
        r = g->api->cuMemAllocHost(&p->mem, bytes ? bytes : 1);
        cu_context c;
        g->api->cuCtxPopCurrent(&c);
    }
    if (r) {
        p->mem = NULL;
        gpu_pinned_free(p);
        return cuda_fail(g->api, r, "cuMemAllocHost (pinned results)", NULL, diag);
    }
    *out = p, *mem = p->mem;
    return KVC_OK;
}

void gpu_pinned_free(gpu_pinned *p)
{
    if (!p) return;
    const cuda_api *a = p->api;
    if (p->mem && a->cuCtxPushCurrent(p->ctx) == 0) {
        a->cuMemFreeHost(p->mem);
        cu_context c;
        a->cuCtxPopCurrent(&c);
    }
    a->cuDevicePrimaryCtxRelease(p->device);
    free(p);
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
    g->ordinal = ordinal;
    CU_TRY(g, a->cuDeviceGet(&g->device, ordinal), "cuDeviceGet", absent);
    CU_TRY(g, a->cuDeviceGetName(g->name, (int)sizeof g->name, g->device), "cuDeviceGetName", absent);
    CU_TRY(g, a->cuDevicePrimaryCtxRetain(&g->ctx, g->device), "cuDevicePrimaryCtxRetain", absent);
    CU_TRY(g, a->cuCtxPushCurrent(g->ctx), "cuCtxPushCurrent", absent);
    g->pushed = 1, g->depth = 1;
    if (!g->image) {
        *absent = 1;
        return diag_set(diag, KVC_ERR_GPU, &o, "this kvcheck was built without GPU kernels (nvcc was not found at build "
                                               "time)");
    }
    CU_TRY(g, a->cuModuleLoadData(&g->module, g->image), "cuModuleLoadData (loading the scan kernels)", absent);
    static const char *const KERNELS[2] = {"kvc_scan", "kvc_scan_gmap"};
    for (int m = 0; m < 2; m++)
        CU_TRY(g, a->cuModuleGetFunction(&g->scan[m], g->module, KERNELS[m]), "cuModuleGetFunction (a scan kernel)", absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->read, g->module, "kvc_read"), "cuModuleGetFunction(kvc_read)", absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->sim_write, g->module, "kvc_sim_write"), "cuModuleGetFunction(kvc_sim_write)",
           absent);
    CU_TRY(g, a->cuModuleGetFunction(&g->sim_compare, g->module, "kvc_sim_compare"),
           "cuModuleGetFunction(kvc_sim_compare)", absent);
    for (int i = 0; i < 2; i++) {
        CU_TRY(g, a->cuStreamCreate(&g->stream[i], CU_STREAM_NON_BLOCKING), "cuStreamCreate", absent);
        CU_TRY(g, a->cuEventCreate(&g->done[i], 0), "cuEventCreate", absent);
    }
    int unified = 0, sms = 0, per_sm = 0;
    /* the scan kernel writes its results into pinned host memory through the
     * host's own pointers, which unified addressing makes device addresses */
    CU_TRY(g, a->cuDeviceGetAttribute(&unified, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, g->device),
           "cuDeviceGetAttribute", absent);
    if (!unified) {
        *absent = 1;
        return diag_set(diag, KVC_ERR_GPU, &o, "%s has no unified addressing, which kvcheck's GPU scanner needs", g->name);
    }
    CU_TRY(g, a->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->device),
           "cuDeviceGetAttribute", absent);
    CU_TRY(g, a->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, g->scan[0], KVC_GPU_BLOCK, 0),
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
    /* an injected driver (tests) brings its own image */
    g->image = inject ? inject->module_image : gpu_kernels_image();
    kvc_status st = open_device(g, ordinal, absent, diag);
    if (st) {
        gpu_close(g);
        return st;
    }
    *out = g;
    return KVC_OK;
}

kvc_status gpu_choose(kvc_device want, int need_gpu, const cuda_api *driver, int ordinal, gpu_ctx **out,
                      char *why_not, size_t size, kvc_diag *diag)
{
    *out = NULL;
    why_not[0] = '\0';
    if (want == KVC_DEVICE_CPU && !need_gpu) return KVC_OK;
    int absent = 0;
    kvc_diag why;
    kvc_status st = gpu_open(driver, ordinal, out, &absent, &why);
    if (!st) return KVC_OK;
    if (need_gpu || want == KVC_DEVICE_GPU || !absent) { /* only "no usable GPU" falls back, and only under auto */
        /* the caller's diag may be NULL: extend the local one, then hand it on */
        if (absent && !need_gpu) {
            size_t n = strlen(why.message);
            snprintf(why.message + n, sizeof why.message - n,
                     "; --device gpu needs a usable NVIDIA GPU: use --device auto or cpu to run on the CPU");
        }
        if (diag) *diag = why;
        return st;
    }
    str_copy(why_not, size, why.message);
    return KVC_OK;
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

kvc_status gpu_check_pointer(gpu_ctx *g, uint64_t ptr, uint64_t bytes, const char *what, kvc_diag *diag)
{
    const cuda_api *a = g->api;
    kvc_origin o;
    origin_set(&o, "", 0, 0, what);
    cu_context ctx = NULL;
    unsigned type = 0;
    int ordinal = -1;
    cu_deviceptr start = 0;
    size_t size = 0;
    cu_result r = a->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr);
    RETURN_ERROR_IF(r != 0 || type != CU_MEMORYTYPE_DEVICE, diag, KVC_ERR_USAGE, &o,
                    "%s (0x%llx) is not device memory%s: a GPU scanner takes device pointers of the GPU it was created "
                    "for (host memory needs a CPU scanner)",
                    what, (unsigned long long)ptr, r ? " the driver knows" : "");
    if ((r = a->cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr)) == 0 && ordinal != g->ordinal)
        return diag_set(diag, KVC_ERR_USAGE, &o,
                        "%s (0x%llx) is memory of CUDA device %d, but this scanner runs on device %d: create a scanner "
                        "for device %d",
                        what, (unsigned long long)ptr, ordinal, g->ordinal, ordinal);
    if (!r) r = a->cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, ptr);
    RETURN_ERROR_IF(!r && ctx && ctx != g->ctx, diag, KVC_ERR_USAGE, &o,
                    "%s (0x%llx) belongs to another CUDA context than device %d's primary context, which the scanner "
                    "uses: allocate it in the primary context (as PyTorch does)",
                    what, (unsigned long long)ptr, g->ordinal);
    if (!r) r = a->cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr);
    if (!r) r = a->cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr);
    if (r) return cuda_fail(a, r, "cuPointerGetAttribute", NULL, diag);
    RETURN_ERROR_IF(ptr + bytes > start + size, diag, KVC_ERR_USAGE, &o,
                    "%s: %llu bytes from 0x%llx run past the end of its allocation (%zu bytes from 0x%llx)", what,
                    (unsigned long long)bytes, (unsigned long long)ptr, size, (unsigned long long)start);
    return KVC_OK;
}

kvc_status gpu_dev_alloc(const gpu_ctx *g, cu_deviceptr *p, size_t bytes, kvc_diag *diag)
{
    cu_result r = g->api->cuMemAlloc(p, bytes ? bytes : 1);
    if (r == 0) return KVC_OK;
    *p = 0;
    char what[96];
    str_printf(what, sizeof what, "cuMemAlloc(%zu bytes)", bytes);
    return cuda_fail(g->api, r, what, NULL, diag);
}

/* ------------------------------------------------------------ benchmark */

kvc_status gpu_alloc(gpu_ctx *g, uint64_t bytes, uint64_t *out, kvc_diag *diag)
{
    cu_deviceptr p;
    kvc_status st = gpu_dev_alloc(g, &p, bytes, diag);
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
