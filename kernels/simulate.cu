// kvcheck simulate on the GPU: the per-token writer and the read-back
// comparison of kernels/kvc_simulate.h, one thread per token. Built without
// fused multiply-add (cmake/Kernels.cmake) so every float operation rounds
// as it does on the CPU: the same seed gives the same bytes and results.
#include "kvc_simulate.h"

#define KVC_SIM_BLOCK 128

extern "C" __global__ void __launch_bounds__(KVC_SIM_BLOCK)
    kvc_sim_write(kvc_sim_layout pl, uint8_t *pbuf, unsigned long long seed, unsigned long long tokens)
{
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < tokens; t += (uint64_t)gridDim.x * blockDim.x)
        kvc_sim_write_token(&pl, pbuf + t / pl.page_size * pl.page_bytes, (uint32_t)(t % pl.page_size), seed, t);
}

extern "C" __global__ void __launch_bounds__(KVC_SIM_BLOCK)
    kvc_sim_compare(kvc_sim_layout pl, const uint8_t *pbuf, kvc_sim_layout dl, const uint8_t *dbuf,
                    unsigned long long seed, unsigned long long tokens, kvc_sim_token *out)
{
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < tokens; t += (uint64_t)gridDim.x * blockDim.x) {
        kvc_sim_token x; // in registers, stored once
        kvc_sim_compare_token(&pl, pbuf, &dl, dbuf, seed, t, &x);
        out[t] = x;
    }
}
