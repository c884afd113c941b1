/* The GPU path's error handling, on machines without a GPU: a fake driver
 * table stands in for libcuda, one failure at a time. Each failure must
 * give KVC_ERR_GPU with the driver's error name and the call, and only the
 * "no usable GPU" results may send --device auto to the CPU. */
#include "support.h"

#include "kvc_kernel_abi.h"
#include "kvgen.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- a fake driver */

static struct {
    int version;     /* cuDriverGetVersion */
    cu_result init;  /* cuInit */
    int devices;     /* cuDeviceGetCount */
    cu_result load;  /* cuModuleLoadData */
    cu_result alloc; /* cuMemAlloc */
    cu_result launch;
    unsigned launches;
    int silent;        /* a scan launch does not write its number to `done` (a kernel that never finishes its work) */
    cu_result query;   /* cuStreamQuery, once a launch is silent: 0 (finished), CU_ERROR_NOT_READY or a failure */
    unsigned queries;
    int ordinal; /* the device cuPointerGetAttribute says a pointer lives on */
    unsigned bad_page; /* 1 + the page a scan kernel reports as holding one e4m3 NaN; 0: none */
    int foreign;       /* pointers belong to another context */
    int host_memory;   /* pointers are host memory */
    size_t range;      /* the size of a pointer's allocation (0: large) */
    unsigned pointer_calls;
    cu_stream stream;  /* the last scan launch's */
    int current;       /* contexts pushed and not popped: allocations need one, as the real driver's do */
} fake;

static const char *const NAMES[][2] = {
    {"2", "CUDA_ERROR_OUT_OF_MEMORY"},    {"100", "CUDA_ERROR_NO_DEVICE"},     {"209", "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {"218", "CUDA_ERROR_INVALID_PTX"},    {"719", "CUDA_ERROR_LAUNCH_FAILED"}, {"803", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
};

static cu_result f_error_name(cu_result e, const char **name)
{
    char code[16];
    snprintf(code, sizeof code, "%d", e);
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcmp(NAMES[i][0], code) == 0) *name = NAMES[i][1];
    return 0;
}
static cu_result f_error_string(cu_result e, const char **text)
{
    *text = e == 2 ? "out of memory" : "a fake driver error";
    return 0;
}
static cu_result f_version(int *v) { return *v = fake.version, 0; }
static cu_result f_init(unsigned flags) { return (void)flags, fake.init; }
static cu_result f_count(int *n) { return *n = fake.devices, 0; }
static cu_result f_get(cu_device *d, int i) { return *d = i, 0; }
static cu_result f_name(char *name, int len, cu_device d)
{
    (void)d;
    snprintf(name, (size_t)len, "Fake GPU");
    return 0;
}
static cu_result f_attr(int *v, int attr, cu_device d) { return (void)attr, (void)d, *v = 4, 0; }
static cu_result f_retain(cu_context *c, cu_device d) { return (void)d, *c = (cu_context)&fake, 0; }
static cu_result f_release(cu_device d) { return (void)d, 0; }
static cu_result f_push(cu_context c) { return (void)c, fake.current++, 0; }
static cu_result f_pop(cu_context *c) { return *c = NULL, fake.current--, 0; }
static cu_result f_current(cu_context *c) { return *c = fake.current > 0 ? (cu_context)&fake : NULL, 0; }
static cu_result f_load(cu_module *m, const void *image) { return (void)image, *m = (cu_module)&fake, fake.load; }
static cu_result f_unload(cu_module m) { return (void)m, 0; }
static cu_result f_function(cu_function *f, cu_module m, const char *name)
{
    return (void)m, (void)name, *f = (cu_function)&fake, 0;
}
static cu_result f_occupancy(int *b, cu_function f, int block, size_t shared)
{
    return (void)f, (void)block, (void)shared, *b = 2, 0;
}
/* Device memory is host memory here, so copies really copy. */
static cu_result f_alloc(cu_deviceptr *p, size_t n)
{
    if (fake.current <= 0) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
    if (fake.alloc) return fake.alloc;
    *p = (cu_deviceptr)(uintptr_t)calloc(1, n);
    return 0;
}
static cu_result f_free(cu_deviceptr p) { return free((void *)(uintptr_t)p), 0; }
static cu_result f_alloc_host(void **p, size_t n) { return fake.current <= 0 ? 201 : (*p = malloc(n), 0); }
static cu_result f_free_host(void *p) { return free(p), 0; }
static cu_result f_htod(cu_deviceptr d, const void *s, size_t n) { return memcpy((void *)(uintptr_t)d, s, n), 0; }
static cu_result f_htod_async(cu_deviceptr d, const void *s, size_t n, cu_stream st) { return (void)st, f_htod(d, s, n); }
static cu_result f_dtoh(void *d, cu_deviceptr s, size_t n) { return memcpy(d, (void *)(uintptr_t)s, n), 0; }
static cu_result f_dtoh_async(void *d, cu_deviceptr s, size_t n, cu_stream st) { return (void)st, f_dtoh(d, s, n); }
static cu_result f_memset(cu_deviceptr d, unsigned char v, size_t n, cu_stream st)
{
    return (void)st, memset((void *)(uintptr_t)d, v, n), 0;
}
static cu_result f_stream(cu_stream *s, unsigned flags) { return (void)flags, *s = (cu_stream)&fake, 0; }
static cu_result f_stream_destroy(cu_stream s) { return (void)s, 0; }
static cu_result f_stream_sync(cu_stream s) { return (void)s, 0; }
static cu_result f_event(cu_event *e, unsigned flags) { return (void)flags, *e = (cu_event)&fake, 0; }
static cu_result f_event_destroy(cu_event e) { return (void)e, 0; }
static cu_result f_event_record(cu_event e, cu_stream s) { return (void)e, (void)s, 0; }
static cu_result f_event_sync(cu_event e) { return (void)e, 0; }
/* Not ready `queries` times over, then fake.query. */
static cu_result f_stream_query(cu_stream s)
{
    (void)s;
    return fake.queries && fake.queries-- ? CU_ERROR_NOT_READY : fake.query;
}
static cu_result f_elapsed(float *ms, cu_event a, cu_event b) { return (void)a, (void)b, *ms = 1, 0; }
/* The kernel cannot run here: a scan launch finds nothing, or what bad_page says
 * (its parameters: layers, pages, map, bad, digests, counts, done, acc, ticket,
 * plan), and writes its number to `done` last unless `silent`. */
static cu_result f_launch(cu_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, cu_stream s, void **params, void **extra)
{
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)extra;
    fake.launches++;
    fake.stream = s;
    const kvc_gpu_plan *plan = params[9];
    uint32_t *bad = (uint32_t *)(uintptr_t)*(cu_deviceptr *)params[3];
    uint64_t *counts = (uint64_t *)(uintptr_t)*(cu_deviceptr *)params[5]; /* the kernel writes every count */
    if (!fake.launch) memset(bad, 0, plan->items * sizeof *bad), memset(counts, 0, plan->ncounts * sizeof *counts);
    if (fake.bad_page && !fake.launch) {
        bad[fake.bad_page - 1] = 1;
        counts[(fake.bad_page - 1) / plan->per_layer * KVC_CHECK_COUNT + KVC_CHECK_E4M3_NAN] = 1;
    }
    if (!fake.launch && !fake.silent) *(uint64_t *)(uintptr_t)*(cu_deviceptr *)params[6] = plan->seq;
    return fake.launch;
}
/* Device memory here is host memory, as big as the caller says, in the
 * fake's one context unless `foreign`; `host_memory` makes it host memory. */
static cu_result f_pointer(void *data, int attr, cu_deviceptr p)
{
    fake.pointer_calls++;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *(cu_context *)data = fake.foreign ? (cu_context)&fake.foreign : (cu_context)&fake; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = fake.host_memory ? 1 : CU_MEMORYTYPE_DEVICE; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = fake.ordinal; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(cu_deviceptr *)data = p; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = fake.range ? fake.range : SIZE_MAX / 2; break;
    default: return 1;
    }
    return 0;
}

static cu_result f_dtod(cu_deviceptr d, cu_deviceptr s, size_t n, cu_stream st)
{
    return (void)st, memcpy((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n), 0;
}

static const cuda_api FAKE = {
    .cuDriverGetVersion = f_version,
    .cuInit = f_init,
    .cuGetErrorName = f_error_name,
    .cuGetErrorString = f_error_string,
    .cuDeviceGetCount = f_count,
    .cuDeviceGet = f_get,
    .cuDeviceGetName = f_name,
    .cuDeviceGetAttribute = f_attr,
    .cuDevicePrimaryCtxRetain = f_retain,
    .cuDevicePrimaryCtxRelease = f_release,
    .cuCtxPushCurrent = f_push,
    .cuCtxPopCurrent = f_pop,
    .cuCtxGetCurrent = f_current,
    .cuModuleLoadData = f_load,
    .cuModuleUnload = f_unload,
    .cuModuleGetFunction = f_function,
    .cuOccupancyMaxActiveBlocksPerMultiprocessor = f_occupancy,
    .cuMemAlloc = f_alloc,
    .cuMemFree = f_free,
    .cuMemAllocHost = f_alloc_host,
    .cuMemFreeHost = f_free_host,
    .cuMemcpyHtoD = f_htod,
    .cuMemcpyHtoDAsync = f_htod_async,
    .cuMemcpyDtoH = f_dtoh,
    .cuMemcpyDtoDAsync = f_dtod,
    .cuMemcpyDtoHAsync = f_dtoh_async,
    .cuMemsetD8Async = f_memset,
    .cuStreamCreate = f_stream,
    .cuStreamDestroy = f_stream_destroy,
    .cuStreamSynchronize = f_stream_sync,
    .cuStreamQuery = f_stream_query,
    .cuEventCreate = f_event,
    .cuEventDestroy = f_event_destroy,
    .cuEventRecord = f_event_record,
    .cuEventSynchronize = f_event_sync,
    .cuEventElapsedTime = f_elapsed,
    .cuLaunchKernel = f_launch,
    .cuPointerGetAttribute = f_pointer,
    .module_image = "a fatbin",
};

static int reset(void **state)
{
    (void)state;
    memset(&fake, 0, sizeof fake);
    fake.version = 13000;
    fake.devices = 1;
    return 0;
}

/* ---------------------------------------------------------------- helpers */

/* Opens the fake GPU; returns the status, fills diag and absent. */
static kvc_status open_fake(const cuda_api *api, int *absent, kvc_diag *d)
{
    gpu_ctx *g = NULL;
    kvc_status st = gpu_open(api, 0, &g, absent, d);
    gpu_close(g);
    return st;
}

/* Scans two clean pages through scan_inputs_run with the fake driver. */
static kvc_status scan_fake(kvc_device device, kvc_scan_report **r, kvc_diag *d)
{
    static uint8_t *buf;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    if (!buf) {
        buf = malloc(2 * l.page_bytes);
        kvgen_pages(&l, 2, 1, buf);
    }
    layer_src src;
    memset(&src, 0, sizeof src);
    strcpy(src.name, "memory");
    src.fd = -1;
    src.data = buf;
    src.bytes = 2 * l.page_bytes;
    scan_inputs in;
    memset(&in, 0, sizeof in);
    in.layers = &src;
    in.nlayers = 1;
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = device;
    *r = NULL;
    return scan_inputs_run(&in, &l, &o, &FAKE, r, d);
}

/* A GPU scanner of `l` on the fake driver. */
static kvc_scanner *fake_gpu_scanner(const kvc_layout *l)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_GPU;
    kvc_scanner *s = NULL;
    kvc_diag d;
    assert_int_equal(scanner_open(l, &o, &FAKE, 0, &s, &d), KVC_OK);
    return s;
}

/* ------------------------------------------------------------------ tests */

static void test_cuda__no_driver_library(void **state)
{
    (void)state;
    cuda_api api;
    int absent = 0;
    kvc_diag d;
    assert_int_equal(cuda_load("libcuda-kvcheck-test-absent.so.1", &api, &absent, &d), KVC_ERR_GPU);
    assert_true(absent);
    assert_contains(d.message, "cannot load the NVIDIA driver library libcuda-kvcheck-test-absent.so.1");
}

static void test_cuda__driver_without_get_proc_address_is_too_old(void **state)
{
    (void)state;
    cuda_api api;
    int absent = 0;
    kvc_diag d;
    assert_int_equal(cuda_load("libm.so.6", &api, &absent, &d), KVC_ERR_GPU); /* a library without it */
    assert_true(absent);
    assert_contains(d.message, "too old: it has no cuGetProcAddress_v2; kvcheck needs a driver for CUDA 12.0");
}

static void test_cuda__driver_version_too_old(void **state)
{
    (void)state;
    fake.version = 11080;
    int absent = 0;
    kvc_diag d;
    assert_int_equal(open_fake(&FAKE, &absent, &d), KVC_ERR_GPU);
    assert_true(absent);
    assert_contains(d.message, "supports CUDA 11.8, kvcheck needs 12.0 or newer");
}

static void test_cuda__gpu_auto_names_the_local_gpu_or_says_why_not(void **state)
{
    (void)state;
    char name[64];
    unsigned major = 0, minor = 0;
    kvc_diag d;
    assert_int_equal(gpu_local(&FAKE, name, sizeof name, &major, &minor, &d), KVC_OK);
    assert_string_equal(name, "Fake GPU");
    assert_int_equal(major, 4);
    assert_int_equal(minor, 4);
    char tiny[4];
    assert_int_equal(gpu_local(&FAKE, tiny, sizeof tiny, NULL, NULL, &d), KVC_ERR_USAGE);
    fake.devices = 0;
    assert_int_equal(gpu_local(&FAKE, name, sizeof name, NULL, NULL, &d), KVC_ERR_GPU);
    assert_contains(d.message, "the NVIDIA driver sees no GPU on this machine; name the GPU instead");
    fake.init = CU_ERROR_NO_DEVICE;
    assert_int_equal(gpu_local(&FAKE, name, sizeof name, NULL, NULL, NULL), KVC_ERR_GPU);
    assert_int_equal(gpu_local(&FAKE, name, sizeof name, NULL, NULL, &d), KVC_ERR_GPU);
    assert_contains(d.message, "[CUDA_ERROR_NO_DEVICE]");
    assert_contains(d.message, "in cuInit");
}

static void test_cuda__no_device(void **state)
{
    (void)state;
    fake.init = CU_ERROR_NO_DEVICE;
    int absent = 0;
    kvc_diag d;
    assert_int_equal(open_fake(&FAKE, &absent, &d), KVC_ERR_GPU);
    assert_true(absent);
    assert_string_equal(d.message, "[CUDA_ERROR_NO_DEVICE] a fake driver error in cuInit");
    reset(state);
    fake.devices = 0;
    assert_int_equal(open_fake(&FAKE, &absent, &d), KVC_ERR_GPU);
    assert_true(absent);
    assert_contains(d.message, "no CUDA device (the driver sees 0)");
}

static void test_cuda__jit_failure_is_reported_not_hidden(void **state)
{
    (void)state;
    fake.load = CU_ERROR_INVALID_PTX;
    int absent = 1;
    kvc_diag d;
    assert_int_equal(open_fake(&FAKE, &absent, &d), KVC_ERR_GPU);
    assert_false(absent); /* a broken kernel image is a bug to report, not "no GPU" */
    assert_string_equal(d.message, "[CUDA_ERROR_INVALID_PTX] a fake driver error in cuModuleLoadData (loading the scan kernels)");
    kvc_scan_report *r;
    assert_int_equal(scan_fake(KVC_DEVICE_AUTO, &r, &d), KVC_ERR_GPU);
    assert_null(r);
}

static void test_cuda__no_binary_for_this_gpu_falls_back_under_auto(void **state)
{
    (void)state;
    fake.load = CU_ERROR_NO_BINARY_FOR_GPU;
    kvc_scan_report *r;
    kvc_diag d;
    assert_int_equal(scan_fake(KVC_DEVICE_AUTO, &r, &d), KVC_OK);
    assert_string_equal(r->device, "cpu");
    assert_int_equal(r->nnotes, 1);
    assert_contains(r->notes[0], "no usable GPU ([CUDA_ERROR_NO_BINARY_FOR_GPU]");
    assert_contains(r->notes[0], "scanned on the CPU");
    assert_true(r->clean);
    kvc_scan_report_free(r);
    assert_int_equal(scan_fake(KVC_DEVICE_GPU, &r, &d), KVC_ERR_GPU);
    assert_contains(d.message, "CUDA_ERROR_NO_BINARY_FOR_GPU");
    assert_contains(d.message, "--device gpu needs a usable NVIDIA GPU: use --device auto or cpu");
}

static void test_cuda__out_of_memory(void **state)
{
    (void)state;
    fake.alloc = CU_ERROR_OUT_OF_MEMORY;
    kvc_scan_report *r;
    kvc_diag d;
    assert_int_equal(scan_fake(KVC_DEVICE_AUTO, &r, &d), KVC_ERR_GPU);
    assert_contains(d.message, "[CUDA_ERROR_OUT_OF_MEMORY] out of memory in cuMemAlloc(");
}

static void test_cuda__launch_failure(void **state)
{
    (void)state;
    fake.launch = CU_ERROR_LAUNCH_FAILED;
    kvc_scan_report *r;
    kvc_diag d;
    assert_int_equal(scan_fake(KVC_DEVICE_GPU, &r, &d), KVC_ERR_GPU);
    assert_string_equal(d.message, "[CUDA_ERROR_LAUNCH_FAILED] a fake driver error in cuLaunchKernel(kvc_scan)");
    assert_string_equal(d.where, "cuLaunchKernel(kvc_scan)");
}

static void test_cuda__a_working_driver_runs_the_gpu_pipeline(void **state)
{
    (void)state;
    kvc_scan_report *r;
    kvc_diag d;
    assert_int_equal(scan_fake(KVC_DEVICE_AUTO, &r, &d), KVC_OK);
    assert_string_equal(r->device, "cuda");
    assert_string_equal(r->device_name, "Fake GPU");
    assert_int_equal(r->pages_scanned, 2);
    assert_int_equal(fake.launches, 1);
    kvc_scan_report_free(r);
}

/* kvc_scan_device's way through the one run loop: the GPU that holds the
 * memory, whatever options->device says, and no CPU fallback. */
static void test_cuda__device_memory_is_scanned_on_the_gpu_that_holds_it(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *pages = malloc(3 * l.page_bytes); /* the fake's device memory is host memory */
    assert_non_null(pages);
    kvgen_pages(&l, 3, 2, pages);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    kvc_scan_report *r = NULL;
    kvc_diag d;
    uint64_t ptr = (uint64_t)(uintptr_t)pages;
    assert_int_equal(scan_device_run(ptr, 3 * l.page_bytes, &l, &o, &FAKE, &r, &d), KVC_OK);
    assert_string_equal(r->device, "cuda");
    assert_string_equal(r->device_name, "Fake GPU");
    assert_int_equal(r->nlayers, 1);
    assert_string_equal(r->layers[0].name, "device memory");
    assert_int_equal(r->pages_scanned, 3);
    assert_int_equal(fake.launches, 1);
    kvc_scan_report_free(r);
    /* a damaged page is copied back from device memory for its findings */
    pages[2 * l.page_bytes + 100] = 0xFF; /* page 2, token 0, NoPE value 100: an e4m3 NaN */
    fake.bad_page = 3;
    assert_int_equal(scan_device_run(ptr, 3 * l.page_bytes, &l, &o, &FAKE, &r, &d), KVC_OK);
    assert_int_equal(r->damaged, 1);
    assert_int_equal(r->nfindings, 1);
    assert_int_equal(r->findings[0].page, 2);
    assert_int_equal(r->findings[0].offset, 2 * l.page_bytes + 100);
    assert_int_equal(r->findings[0].check, KVC_CHECK_E4M3_NAN);
    assert_string_equal(r->looks_like, ""); /* detect reads host bytes only */
    kvc_scan_report_free(r);
    fake.bad_page = 0;
    fake.ordinal = 1; /* on a second GPU, which this machine does not have */
    r = NULL;
    assert_int_equal(scan_device_run(ptr, 3 * l.page_bytes, &l, &o, &FAKE, &r, &d), KVC_ERR_GPU);
    assert_null(r);
    assert_contains(d.message, "no CUDA device of that ordinal (the driver sees 1)");
    fake.devices = 2;
    assert_int_equal(scan_device_run(ptr, 3 * l.page_bytes, &l, &o, &FAKE, &r, &d), KVC_OK);
    assert_string_equal(r->device, "cuda");
    kvc_scan_report_free(r);
    fake.init = CU_ERROR_NO_DEVICE; /* no usable GPU: device memory cannot fall back to the CPU */
    assert_int_equal(scan_device_run(ptr, 3 * l.page_bytes, &l, &o, &FAKE, &r, &d), KVC_ERR_GPU);
    free(pages);
}

/* A GPU scanner checks each layer's pointer with the driver before a
 * kernel reads it, once per layer table, and refuses what it cannot read. */
static void test_cuda__scanner_checks_device_pointers_once(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvc_scanner *s = fake_gpu_scanner(&l);
    kvc_diag d;
    assert_string_equal(kvc_scanner_device(s), "cuda");
    assert_string_equal(kvc_scanner_device_name(s), "Fake GPU");
    uint8_t *mem[2] = {malloc(2 * l.page_bytes), malloc(2 * l.page_bytes)};
    kvgen_pages(&l, 2, 3, mem[0]);
    kvgen_pages(&l, 2, 4, mem[1]);
    uint64_t layers[2] = {(uint64_t)(uintptr_t)mem[0], (uint64_t)(uintptr_t)mem[1]};
    const uint64_t bytes = 2 * l.page_bytes;
    kvc_scan_report *r = NULL;
    struct {
        int *knob, value;
        const char *message;
    } cases[] = {
        {&fake.host_memory, 1, "is not device memory: a GPU scanner takes device pointers"},
        {&fake.foreign, 1, "belongs to another CUDA context than device 0's primary context"},
        {&fake.ordinal, 1, "is memory of CUDA device 1, but this scanner runs on device 0: create a scanner for device 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        *cases[i].knob = cases[i].value;
        assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
        assert_contains(d.message, "layer 0 (0x");
        assert_contains(d.message, cases[i].message);
        assert_null(r);
        *cases[i].knob = 0;
    }
    fake.range = l.page_bytes;
    assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "layer 0: 83968 bytes from 0x");
    assert_contains(d.message, "run past the end of its allocation (41984 bytes from 0x");
    fake.range = 0;
    assert_int_equal(fake.launches, 0); /* nothing was launched over memory that was refused */
    /* a good table is checked once; the scan runs on the caller's stream */
    fake.pointer_calls = 0;
    cu_stream mine = (cu_stream)&mem;
    assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, NULL, 0, mine, &r, &d), KVC_OK);
    unsigned checked = fake.pointer_calls;
    assert_true(checked >= 2 * 4);
    assert_ptr_equal(fake.stream, mine);
    assert_true(kvc_scan_report_clean(r));
    assert_int_equal(kvc_scan_report_pages_scanned(r), 4);
    kvc_scan_report_free(r);
    const uint64_t pages[] = {1};
    fake.bad_page = 2; /* item 1: layer 1's page 1 under the list {1} */
    mem[1][l.page_bytes + 100] = 0xFF;
    assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, pages, 1, NULL, &r, &d), KVC_OK);
    assert_int_equal(fake.pointer_calls, checked);
    assert_int_equal(kvc_scan_report_bad_pages(r), 1);
    assert_int_equal(r->layers[1].bad_pages[0].page, 1);
    assert_int_equal(r->nfindings, 1); /* read from the page copied back */
    assert_int_equal(r->findings[0].layer, 1);
    assert_int_equal(r->findings[0].check, KVC_CHECK_E4M3_NAN);
    assert_int_equal(r->findings[0].offset, l.page_bytes + 100);
    kvc_scan_report_free(r);
    fake.bad_page = 0;
    fake.launch = CU_ERROR_LAUNCH_FAILED; /* a driver failure is reported, and the scanner is still usable */
    assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, NULL, 0, NULL, &r, &d), KVC_ERR_GPU);
    assert_contains(d.message, "[CUDA_ERROR_LAUNCH_FAILED] a fake driver error in cuLaunchKernel(kvc_scan)");
    fake.launch = 0;
    assert_int_equal(kvc_scanner_scan(s, layers, 2, bytes, NULL, 0, NULL, &r, &d), KVC_OK);
    kvc_scan_report_free(r);
    kvc_scanner_free(s);
    free(mem[0]);
    free(mem[1]);
}

/* The wait watches the word the kernel writes last and asks the stream now
 * and then: a launch that never writes it is reported (the stream finished,
 * or failed), not waited for forever; the scanner still works after. */
static void test_cuda__wait_reports_a_kernel_that_never_hands_over(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvc_scanner *s = fake_gpu_scanner(&l);
    kvc_diag d;
    uint8_t *mem = malloc(l.page_bytes);
    kvgen_pages(&l, 1, 5, mem);
    uint64_t layer = (uint64_t)(uintptr_t)mem;
    kvc_scan_report *r = NULL;
    fake.silent = 1;
    fake.queries = 3; /* still running three times over, then finished */
    assert_int_equal(kvc_scanner_scan(s, &layer, 1, l.page_bytes, NULL, 0, NULL, &r, &d), KVC_ERR_GPU);
    assert_int_equal(fake.queries, 0);
    assert_contains(d.message, "the scan kernel finished without handing its results over (launch 1)");
    assert_null(r);
    fake.query = CU_ERROR_LAUNCH_FAILED;
    assert_int_equal(kvc_scanner_check(s, &layer, 1, l.page_bytes, NULL, 0, NULL, &r, &d), KVC_ERR_GPU);
    assert_string_equal(d.message, "[CUDA_ERROR_LAUNCH_FAILED] a fake driver error in cuStreamQuery (the scan kernel)");
    fake.silent = 0, fake.query = 0;
    assert_int_equal(kvc_scanner_check(s, &layer, 1, l.page_bytes, NULL, 0, NULL, &r, &d), KVC_OK);
    assert_null(r);
    assert_int_equal(fake.launches, 3);
    kvc_scanner_free(s);
    free(mem);
}

static void test_cuda__only_no_gpu_results_mean_absent(void **state)
{
    (void)state;
    static const cu_result absent[] = {100, 34, 36, 209, 222, 803};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) assert_true(cuda_result_means_absent(absent[i]));
    static const cu_result present[] = {1, 2, 3, 200, 218, 221, 700, 719, 999};
    for (size_t i = 0; i < sizeof present / sizeof present[0]; i++) assert_false(cuda_result_means_absent(present[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_cuda__no_driver_library, reset),
        cmocka_unit_test_setup(test_cuda__gpu_auto_names_the_local_gpu_or_says_why_not, reset),
        cmocka_unit_test_setup(test_cuda__driver_without_get_proc_address_is_too_old, reset),
        cmocka_unit_test_setup(test_cuda__driver_version_too_old, reset),
        cmocka_unit_test_setup(test_cuda__no_device, reset),
        cmocka_unit_test_setup(test_cuda__jit_failure_is_reported_not_hidden, reset),
        cmocka_unit_test_setup(test_cuda__no_binary_for_this_gpu_falls_back_under_auto, reset),
        cmocka_unit_test_setup(test_cuda__out_of_memory, reset),
        cmocka_unit_test_setup(test_cuda__launch_failure, reset),
        cmocka_unit_test_setup(test_cuda__a_working_driver_runs_the_gpu_pipeline, reset),
        cmocka_unit_test_setup(test_cuda__device_memory_is_scanned_on_the_gpu_that_holds_it, reset),
        cmocka_unit_test_setup(test_cuda__scanner_checks_device_pointers_once, reset),
        cmocka_unit_test_setup(test_cuda__wait_reports_a_kernel_that_never_hands_over, reset),
        cmocka_unit_test_setup(test_cuda__only_no_gpu_results_mean_absent, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
