/* libcuda loaded at run time: the leaf of the GPU stage. It knows nothing
 * of kernels or scans. */
#ifndef KVC_GPU_DRIVER_H
#define KVC_GPU_DRIVER_H

#include "common/common.h"
#include "gpu/driver_api.h"

/* 1 for the driver results that mean "no usable GPU" (STYLE.md's list). */
int cuda_result_means_absent(cu_result r);
/* "[CUDA_ERROR_OUT_OF_MEMORY] out of memory in cuMemAlloc(...)" as KVC_ERR_GPU;
 * sets *absent (may be NULL) for results that mean no usable GPU. */
kvc_status cuda_fail(const cuda_api *api, cu_result r, const char *call, int *absent, kvc_diag *diag);
/* Loads a driver library by name into `api` (the real one is "libcuda.so.1"). */
kvc_status cuda_load(const char *soname, cuda_api *api, int *absent, kvc_diag *diag);
/* The process's driver, loaded once. *absent is 1 when there is none to use. */
kvc_status cuda_driver(const cuda_api **out, int *absent, kvc_diag *diag);
/* The first GPU the driver sees (`inject`, or the real driver when NULL):
 * its name as the driver prints it and its compute capability. */
kvc_status gpu_local(const cuda_api *inject, char *name, size_t size, unsigned *major, unsigned *minor,
                     kvc_diag *diag);


#endif /* KVC_GPU_DRIVER_H */
