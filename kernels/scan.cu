// GPU scan kernels. The predicates come from kvc_predicates.h, the header the
// CPU scanner includes, so both count exactly the same elements.
//
// kvc_scan walks the selected pages as one flat grid-stride loop of 16-byte
// chunks, like a plain read kernel: each chunk's kind comes from a small
// per-page map, a word-wide filter passes clean chunks, and only flagged
// chunks are classified element by element (block-local counters, then one
// atomic per check per block and one per damaged chunk for its page).
#include "kvc_kernel_abi.h"

#define KVC_UNROLL 4

__device__ static void count_element(int check, unsigned *counts, unsigned *n)
{
    if (check != KVC_CHECK_OK) {
        atomicAdd(&counts[check], 1u);
        (*n)++;
    }
}

// Element by element: a chunk of one kind whose filter fired, or a chunk that
// holds several fields (then each element is found from the field table and
// read from global memory, also where it runs past the chunk).
__device__ static unsigned classify_chunk(unsigned kind, const uint8_t *bytes, const uint8_t *page, uint64_t first,
                                          const kvc_gpu_plan &plan, unsigned *counts)
{
    unsigned n = 0;
    if (kind != KVC_KIND_MIXED) {
        unsigned size = kvc_kind_size(kind);
        for (unsigned i = 0; i < KVC_GPU_CHUNK; i += size) count_element(kvc_classify(kind, bytes + i, &plan.rules), counts, &n);
        return n;
    }
    uint64_t end = first + KVC_GPU_CHUNK < plan.page_bytes ? first + KVC_GPU_CHUNK : plan.page_bytes;
    for (uint64_t o = first; o < end; o++) {
        for (unsigned r = 0; r < plan.nruns; r++) {
            const kvc_gpu_run &run = plan.runs[r];
            if (o < run.base) continue;
            uint64_t rel = o - run.base, t = rel / run.stride, within = rel - t * run.stride;
            unsigned size = kvc_kind_size(run.kind);
            if (t < plan.page_size && within < run.bytes && within % size == 0)
                count_element(kvc_classify(run.kind, page + o, &plan.rules), counts, &n);
        }
    }
    return n;
}

__device__ static uint64_t damaged_lanes(unsigned kind, uint64_t lo, uint64_t hi, const kvc_scale_rules *rules)
{
    switch (kind) {
    case KVC_KIND_PAD: return 0;
    case KVC_KIND_MIXED: return 1;
    case KVC_KIND_F32_SCALE: return kvc_bad_scale_lanes(lo, rules) | kvc_bad_scale_lanes(hi, rules);
    default: return kvc_bad_lanes(kind, lo) | kvc_bad_lanes(kind, hi);
    }
}

extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)
    kvc_scan(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,
             unsigned long long *counts, kvc_gpu_plan plan)
{
    __shared__ unsigned block_counts[KVC_CHECK_COUNT];
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x) block_counts[i] = 0;
    __syncthreads();

    const uint64_t cpp = plan.chunks_per_page, total = plan.npages * cpp;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x, step_pages = step / cpp, step_chunks = step % cpp;
    uint64_t idx = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t pi = idx / cpp, k = idx % cpp; // the only divisions: later chunks are stepped to
    while (idx < total) {
        uint4 v[KVC_UNROLL];
        uint64_t at_page[KVC_UNROLL], at_chunk[KVC_UNROLL];
        bool live[KVC_UNROLL];
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) {
            live[u] = idx < total;
            at_page[u] = pi;
            at_chunk[u] = k;
            v[u] = make_uint4(0, 0, 0, 0);
            if (live[u] && plan.vector) {
                const uint8_t *page = data + (pages ? pages[pi] : pi) * plan.page_bytes;
                v[u] = __ldg(reinterpret_cast<const uint4 *>(page + k * KVC_GPU_CHUNK));
            }
            idx += step;
            pi += step_pages;
            k += step_chunks;
            if (k >= cpp) {
                k -= cpp;
                pi++;
            }
        }
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) {
            if (!live[u]) continue;
            unsigned kind = plan.vector ? __ldg(map + at_chunk[u]) : KVC_KIND_MIXED;
            uint64_t lo = v[u].x | (uint64_t)v[u].y << 32, hi = v[u].z | (uint64_t)v[u].w << 32;
            if (!damaged_lanes(kind, lo, hi, &plan.rules)) continue;
            const uint8_t *page = data + (pages ? pages[at_page[u]] : at_page[u]) * plan.page_bytes;
            uint8_t bytes[KVC_GPU_CHUNK];
            memcpy(bytes, &v[u], sizeof bytes);
            unsigned n = classify_chunk(kind, bytes, page, at_chunk[u] * KVC_GPU_CHUNK, plan, block_counts);
            if (n) atomicAdd(&page_bad[plan.out_base + at_page[u]], n);
        }
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x)
        if (block_counts[i]) atomicAdd(&counts[i], (unsigned long long)block_counts[i]);
}

// The benchmark's reference: the same grid-stride loop of 16-byte loads over
// the same bytes, doing nothing but folding them together.
extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)
    kvc_read(const uint4 *data, unsigned long long n, uint4 *sink)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step * KVC_UNROLL) {
        uint4 v[KVC_UNROLL];
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) v[u] = i + u * step < n ? __ldg(data + i + u * step) : make_uint4(0, 0, 0, 0);
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) {
            acc.x ^= v[u].x;
            acc.y ^= v[u].y;
            acc.z ^= v[u].z;
            acc.w ^= v[u].w;
        }
    }
    if ((acc.x & acc.y & acc.z & acc.w) == 0xFFFFFFFFu) sink[threadIdx.x] = acc; // keeps the loads alive
}
