/* The GPU stage's own state: a device opened through the loaded driver, with
 * its kernels. Shared by the files of src/gpu/ only. */
#ifndef KVC_GPU_CTX_H
#define KVC_GPU_CTX_H

#include "gpu/gpu.h"

struct gpu_ctx {
    const cuda_api *api;
    cu_device device;
    cu_context ctx;
    int ordinal;
    uint32_t pushed; /* gpu_enter's nesting, innermost in bit 0: 1 where it pushed the context */
    unsigned depth;  /* gpu_enter calls not yet left (a few: calls nest two or three deep) */
    const void *image; /* the kernels (fatbin); NULL when built without nvcc */
    cu_module module;
    cu_function scan[2], read; /* [map in global memory] */
    cu_function sim_write, sim_compare;
    cu_stream stream[2];
    cu_event done[2];
    unsigned grid; /* blocks that fill the GPU */
    char name[KVC_NAME_LEN];
};

/* cuMemAlloc of at least one byte; on failure *p is 0 and the error names the size. */
kvc_status gpu_dev_alloc(const gpu_ctx *g, cu_deviceptr *p, size_t bytes, kvc_diag *diag);

#define CU_TRY(g, call, what, absent)                                                                           \
    do {                                                                                                        \
        cu_result r_ = (call);                                                                                  \
        if (r_ != 0) return cuda_fail((g)->api, r_, (what), (absent), diag);                                    \
    } while (0)

#endif /* KVC_GPU_CTX_H */
