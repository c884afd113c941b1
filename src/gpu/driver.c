/* libcuda, loaded at run time: dlopen("libcuda.so.1") once, then every
 * entry point through cuGetProcAddress_v2 at a fixed floor version (a plain
 * dlsym("cuMemAlloc") would return the legacy 32-bit entry point). No link
 * dependency on libcuda or cudart: the same binary runs without a driver. */
#define _GNU_SOURCE /* dlopen flags */
#include "gpu/driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* The driver and "no usable GPU": these results send --device auto to the CPU. */
static const cu_result ABSENT[] = {
    CU_ERROR_NO_DEVICE,          CU_ERROR_STUB_LIBRARY,           CU_ERROR_CALL_REQUIRES_NEWER_DRIVER,
    CU_ERROR_NO_BINARY_FOR_GPU, CU_ERROR_UNSUPPORTED_PTX_VERSION, CU_ERROR_SYSTEM_DRIVER_MISMATCH,
};

int cuda_result_means_absent(cu_result r)
{
    for (size_t i = 0; i < COUNT_OF(ABSENT); i++)
        if (ABSENT[i] == r) return 1;
    return 0;
}

kvc_status cuda_fail(const cuda_api *api, cu_result r, const char *call, int *absent, kvc_diag *diag)
{
    const char *name = NULL, *text = NULL;
    if (api && api->cuGetErrorName) api->cuGetErrorName(r, &name);
    if (api && api->cuGetErrorString) api->cuGetErrorString(r, &text);
    if (absent) *absent = cuda_result_means_absent(r);
    kvc_origin o;
    origin_set(&o, "", 0, 0, call);
    char code[32];
    str_printf(code, sizeof code, "CUDA error %d", r);
    return diag_set(diag, KVC_ERR_GPU, &o, "[%s] %s in %s", name ? name : code, text ? text : "unknown error", call);
}

/* --------------------------------------------------------- the real driver */

typedef cu_result (*get_proc_fn)(const char *symbol, void **fn, int version, uint64_t flags, int *status);

static struct {
    pthread_once_t once;
    cuda_api api;
    kvc_status status;
    int absent;
    kvc_diag diag;
} loaded = {PTHREAD_ONCE_INIT};

kvc_status cuda_load(const char *soname, cuda_api *api, int *absent, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, "", 0, 0, soname);
    *absent = 1;
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        return diag_set(diag, KVC_ERR_GPU, &o, "cannot load the NVIDIA driver library %s (%s)", soname,
                        e ? e : "not found");
    }
    dlerror();
    void *sym = dlsym(lib, "cuGetProcAddress_v2");
    if (!sym) {
        dlclose(lib);
        return diag_set(diag, KVC_ERR_GPU, &o,
                        "the NVIDIA driver is too old: it has no cuGetProcAddress_v2; kvcheck needs a driver for CUDA "
                        "%d.%d or newer",
                        KVC_CUDA_FLOOR / 1000, KVC_CUDA_FLOOR % 1000 / 10);
    }
    get_proc_fn get_proc;
    memcpy(&get_proc, &sym, sizeof get_proc); /* a cast would warn under -Wpedantic */
#define KVC_CUDA_LOAD(name, params)                                                                             \
    {                                                                                                           \
        void *fn = NULL;                                                                                        \
        int found = 0;                                                                                          \
        cu_result r = get_proc(#name, &fn, KVC_CUDA_FLOOR, 0, &found);                                          \
        if (r != 0 || !fn) {                                                                                    \
            dlclose(lib); /* nothing loaded from it is used after a failure */                                  \
            return diag_set(diag, KVC_ERR_GPU, &o,                                                              \
                            "the NVIDIA driver does not provide %s (cuGetProcAddress returned %d): update the "   \
                            "driver",                                                                           \
                            #name, r);                                                                          \
        }                                                                                                       \
        memcpy(&api->name, &fn, sizeof fn);                                                                     \
    }
    KVC_CUDA_FUNCS(KVC_CUDA_LOAD)
#undef KVC_CUDA_LOAD
    *absent = 0;
    return KVC_OK;
}

/* The library stays loaded for the life of the process, as the driver expects. */
static void load_once(void) { loaded.status = cuda_load("libcuda.so.1", &loaded.api, &loaded.absent, &loaded.diag); }

kvc_status cuda_driver(const cuda_api **out, int *absent, kvc_diag *diag)
{
    pthread_once(&loaded.once, load_once);
    *absent = loaded.absent;
    if (loaded.status) {
        if (diag) *diag = loaded.diag;
        return loaded.status;
    }
    *out = &loaded.api;
    return KVC_OK;
}
