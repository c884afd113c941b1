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
/* The device a command runs on: *out is the GPU, or NULL for the CPU with
 * `why_not` saying why when the GPU was wanted (auto) but is not usable.
 * Fails when the GPU is needed or asked for and not usable, or the driver
 * fails otherwise (STYLE.md: only "no usable GPU" falls back). */
kvc_status gpu_choose(kvc_device want, int need_gpu, const cuda_api *driver, gpu_ctx **out, char *why_not,
                      size_t size, kvc_diag *diag);
const char *gpu_name(const gpu_ctx *g);
/* Scans job->device in place, or job->host streamed through pinned buffers
 * (gathered on `threads` threads). */
kvc_status gpu_scan_layer(gpu_ctx *g, const scan_plan *p, layer_job *job, unsigned threads, kvc_diag *diag);
kvc_status gpu_copy_to_host(gpu_ctx *g, void *dst, uint64_t src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_device_of(gpu_ctx *g, uint64_t ptr, int *ordinal, kvc_diag *diag);
/* For tests and the benchmark. */
kvc_status gpu_alloc(gpu_ctx *g, uint64_t bytes, uint64_t *out, kvc_diag *diag);
kvc_status gpu_upload(gpu_ctx *g, uint64_t dst, const void *src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_alloc_upload(gpu_ctx *g, const void *src, uint64_t bytes, uint64_t *out, kvc_diag *diag);
void gpu_free(gpu_ctx *g, uint64_t ptr);
kvc_status gpu_time_read(gpu_ctx *g, uint64_t ptr, uint64_t bytes, int iters, double *seconds, kvc_diag *diag);
kvc_status gpu_time_scan(gpu_ctx *g, const scan_plan *p, uint64_t ptr, uint64_t bytes, int iters, double *seconds,
                         kvc_diag *diag);
/* simulate on the GPU: writes prefill's pages, moves them, reads both back;
 * per-token results into `stats`; decode's buffer stays on the device for the
 * scan (*dbuf, freed with gpu_free). */
struct kvc_sim_layout;
struct kvc_sim_token;
kvc_status gpu_simulate(gpu_ctx *g, const struct kvc_sim_layout *pl, const struct kvc_sim_layout *dl, uint64_t seed,
                        uint64_t tokens, uint64_t pbytes, uint64_t dbytes, struct kvc_sim_token *stats, uint64_t *dbuf,
                        kvc_diag *diag);

#endif /* KVC_GPU_H */
