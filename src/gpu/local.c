/* The local GPU, named the way --gpu takes it (`--gpu auto`): the first
 * device the driver sees, through the run-time loaded driver. */
#include "gpu/driver.h"

#include <string.h>

/* What to do when there is no usable GPU to name. */
static void append_hint(kvc_diag *diag)
{
    size_t n = strlen(diag->message);
    str_printf(diag->message + n, sizeof diag->message - n,
               ": --gpu auto needs the NVIDIA driver and a GPU; name the GPU instead (--gpu B300, --gpu 10.3)");
}

/* `inject` stands in for the driver in tests; NULL loads the real one. */
kvc_status gpu_local(const cuda_api *inject, char *name, size_t size, unsigned *major, unsigned *minor,
                     kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--gpu auto");
    const cuda_api *a = inject;
    int absent = 0;
    if (!a) {
        kvc_status st = cuda_driver(&a, &absent, diag);
        if (st && diag) append_hint(diag);
        if (st) return st;
    }
    int version = 0, count = 0, mj = 0, mn = 0;
    cu_device dev = 0;
    char buf[256] = "";
    cu_result r = a->cuDriverGetVersion(&version);
    const char *call = "cuDriverGetVersion";
    if (!r) r = a->cuInit(0), call = "cuInit";
    if (!r) r = a->cuDeviceGetCount(&count), call = "cuDeviceGetCount";
    if (!r && count == 0)
        return diag_set(diag, KVC_ERR_GPU, &o,
                        "--gpu auto: the NVIDIA driver sees no GPU on this machine; name the GPU instead (--gpu B300)");
    if (!r) r = a->cuDeviceGet(&dev, 0), call = "cuDeviceGet";
    if (!r) r = a->cuDeviceGetName(buf, (int)sizeof buf, dev), call = "cuDeviceGetName";
    if (!r) r = a->cuDeviceGetAttribute(&mj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), call = "cuDeviceGetAttribute";
    if (!r) r = a->cuDeviceGetAttribute(&mn, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), call = "cuDeviceGetAttribute";
    if (r) {
        kvc_status st = cuda_fail(a, r, call, NULL, diag);
        if (diag && cuda_result_means_absent(r)) append_hint(diag);
        return st;
    }
    buf[sizeof buf - 1] = '\0';
    RETURN_ERROR_IF(strlen(buf) >= size, diag, KVC_ERR_USAGE, &o, "--gpu auto: the GPU's name (%.60s) does not fit in %zu bytes",
                    buf, size);
    str_copy(name, size, buf);
    if (major) *major = (unsigned)mj;
    if (minor) *minor = (unsigned)mn;
    return KVC_OK;
}

kvc_status kvc_gpu_detect(char *name, size_t size, unsigned *major, unsigned *minor, kvc_diag *diag)
{
    return gpu_local(NULL, name, size, major, minor, diag);
}
