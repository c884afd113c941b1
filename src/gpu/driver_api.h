/* The CUDA Driver API as kvcheck uses it, without CUDA's headers: the few
 * types it needs, and one X-macro list of entry points that expands into
 * the function table and its load loop (src/cuda.c). */
#ifndef KVC_CUDA_API_H
#define KVC_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

typedef int cu_result; /* CUresult: 0 is CUDA_SUCCESS */
typedef int cu_device;
typedef unsigned long long cu_deviceptr;
typedef struct cu_opaque_ctx *cu_context;
typedef struct cu_opaque_mod *cu_module;
typedef struct cu_opaque_fn *cu_function;
typedef struct cu_opaque_stream *cu_stream;
typedef struct cu_opaque_event *cu_event;

enum {
    CU_ERROR_OUT_OF_MEMORY = 2,
    CU_ERROR_STUB_LIBRARY = 34,
    CU_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
    CU_ERROR_NO_DEVICE = 100,
    CU_ERROR_NOT_READY = 600,
    CU_ERROR_NO_BINARY_FOR_GPU = 209,
    CU_ERROR_INVALID_PTX = 218,
    CU_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CU_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CU_ERROR_LAUNCH_FAILED = 719,
    CU_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_MEMORYTYPE_DEVICE = 2,
    CU_STREAM_NON_BLOCKING = 1,
};

/* The oldest driver API kvcheck asks for: cuGetProcAddress_v2 and every entry
 * point below exist from CUDA 12.0 on. */
#define KVC_CUDA_FLOOR 12000

#define KVC_CUDA_FUNCS(X)                                                                                       \
    X(cuDriverGetVersion, (int *version))                                                                       \
    X(cuInit, (unsigned flags))                                                                                 \
    X(cuGetErrorName, (cu_result error, const char **name))                                                     \
    X(cuGetErrorString, (cu_result error, const char **text))                                                   \
    X(cuDeviceGetCount, (int *count))                                                                           \
    X(cuDeviceGet, (cu_device * device, int ordinal))                                                           \
    X(cuDeviceGetName, (char *name, int len, cu_device device))                                                 \
    X(cuDeviceGetAttribute, (int *value, int attribute, cu_device device))                                      \
    X(cuDevicePrimaryCtxRetain, (cu_context * ctx, cu_device device))                                           \
    X(cuDevicePrimaryCtxRelease, (cu_device device))                                                            \
    X(cuCtxPushCurrent, (cu_context ctx))                                                                       \
    X(cuCtxPopCurrent, (cu_context * ctx))                                                                      \
    X(cuCtxGetCurrent, (cu_context * ctx))                                                                      \
    X(cuModuleLoadData, (cu_module * module, const void *image))                                                \
    X(cuModuleUnload, (cu_module module))                                                                       \
    X(cuModuleGetFunction, (cu_function * fn, cu_module module, const char *name))                             \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, (int *blocks, cu_function fn, int block, size_t shared))     \
    X(cuMemAlloc, (cu_deviceptr * ptr, size_t bytes))                                                           \
    X(cuMemFree, (cu_deviceptr ptr))                                                                            \
    X(cuMemAllocHost, (void **ptr, size_t bytes))                                                               \
    X(cuMemFreeHost, (void *ptr))                                                                               \
    X(cuMemcpyHtoD, (cu_deviceptr dst, const void *src, size_t bytes))                                         \
    X(cuMemcpyHtoDAsync, (cu_deviceptr dst, const void *src, size_t bytes, cu_stream stream))                   \
    X(cuMemcpyDtoH, (void *dst, cu_deviceptr src, size_t bytes))                                               \
    X(cuMemcpyDtoDAsync, (cu_deviceptr dst, cu_deviceptr src, size_t bytes, cu_stream stream))                  \
    X(cuMemcpyDtoHAsync, (void *dst, cu_deviceptr src, size_t bytes, cu_stream stream))                         \
    X(cuMemsetD8Async, (cu_deviceptr dst, unsigned char value, size_t bytes, cu_stream stream))                 \
    X(cuStreamCreate, (cu_stream * stream, unsigned flags))                                                     \
    X(cuStreamDestroy, (cu_stream stream))                                                                      \
    X(cuStreamSynchronize, (cu_stream stream))                                                                  \
    X(cuStreamQuery, (cu_stream stream))                                                                        \
    X(cuEventCreate, (cu_event * event, unsigned flags))                                                        \
    X(cuEventDestroy, (cu_event event))                                                                         \
    X(cuEventRecord, (cu_event event, cu_stream stream))                                                        \
    X(cuEventSynchronize, (cu_event event))                                                                     \
    X(cuEventElapsedTime, (float *ms, cu_event start, cu_event end))                                            \
    X(cuLaunchKernel, (cu_function fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,         \
                       unsigned bz, unsigned shared, cu_stream stream, void **params, void **extra))            \
    X(cuPointerGetAttribute, (void *data, int attribute, cu_deviceptr ptr))

/* A loaded driver: its entry points and the kernels' module image. Tests
 * fill one with fakes to reach every error path without a GPU. */
typedef struct cuda_api {
#define KVC_CUDA_FIELD(name, params) cu_result(*name) params;
    KVC_CUDA_FUNCS(KVC_CUDA_FIELD)
#undef KVC_CUDA_FIELD
    const void *module_image; /* an injected (test) driver's kernels; the real one leaves it NULL */
} cuda_api;

#endif /* KVC_CUDA_API_H */
