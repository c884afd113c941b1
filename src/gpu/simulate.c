/* simulate on the GPU: the same per-token arithmetic as the CPU (kernels/kvc_simulate.h). */
#include "gpu/gpu_ctx.h"
#include "kvc_simulate.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- simulate */

#define SIM_BLOCK 128

kvc_status gpu_simulate(gpu_ctx *g, const kvc_sim_layout *pl, const kvc_sim_layout *dl, uint64_t seed,
                        uint64_t tokens, uint64_t pbytes, uint64_t dbytes, kvc_sim_token *stats, uint64_t *dbuf,
                        kvc_diag *diag)
{
    const cuda_api *a = g->api;
    cu_deviceptr p = 0, d = 0, out = 0;
    kvc_status st = gpu_dev_alloc(g, &p, pbytes, diag);
    if (!st) st = gpu_dev_alloc(g, &d, dbytes, diag);
    if (!st) st = gpu_dev_alloc(g, &out, tokens * sizeof *stats, diag);
    unsigned long long s = seed, n = tokens;
    kvc_sim_layout pk = *pl, dk = *dl;
    unsigned grid = (unsigned)((tokens + SIM_BLOCK - 1) / SIM_BLOCK < 65535 * 16 ? (tokens + SIM_BLOCK - 1) / SIM_BLOCK
                                                                                 : 65535 * 16);
    void *write_args[] = {&pk, &p, &s, &n};
    void *compare_args[] = {&pk, &p, &dk, &d, &s, &n, &out};
    cu_result r = 0;
    const char *call = "";
    /* everything on the one stream, in order (the synchronous memset and copy
     * run on the legacy stream, which a non-blocking stream does not wait for) */
    if (!st && (r = a->cuMemsetD8Async(p, 0, pbytes, g->stream[0])) != 0) call = "cuMemsetD8Async";
    if (!st && !r && (r = a->cuMemsetD8Async(d, 0, dbytes, g->stream[0])) != 0)
        call = "cuMemsetD8Async"; /* decode's pool starts zeroed */
    if (!st && !r && (r = a->cuLaunchKernel(g->sim_write, grid, 1, 1, SIM_BLOCK, 1, 1, 0, g->stream[0], write_args, NULL)))
        call = "cuLaunchKernel(kvc_sim_write)";
    if (!st && !r && (r = a->cuStreamSynchronize(g->stream[0]))) call = "kvc_sim_write";
    /* the transfer: prefill's pages back to back at prefill's item length */
    if (!st && !r && (r = a->cuMemcpyDtoDAsync(d, p, pbytes < dbytes ? pbytes : dbytes, g->stream[0])))
        call = "cuMemcpyDtoDAsync (the transfer)";
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
