// GPU scan kernels. The predicates come from kvc_predicates.h, the header the
// CPU scanner includes, so both count exactly the same elements.
//
// kvc_scan walks the pages as one flat grid-stride loop of 16-byte chunks,
// like a plain read kernel. A chunk's kind comes from a per-page map kept in
// shared memory, and one branch-free formula with per-kind constants filters
// it (no switch, so a warp whose chunks hold different fields does not
// diverge). Only flagged chunks are classified element by element, into
// block-local counters (one atomic per check per block at the end) and one
// atomic per damaged chunk for its page. kvc_scan_listed does the same over
// a list of pages.
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

template <bool LISTED>
__device__ static void scan(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,
                            unsigned long long *counts, const kvc_gpu_plan &plan)
{
    extern __shared__ uint8_t shared_map[];
    __shared__ unsigned block_counts[KVC_CHECK_COUNT];
    __shared__ kvc_filter filters[KVC_KIND_MIXED + 1];
    const uint32_t cpp = (uint32_t)plan.chunks_per_page;
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x) block_counts[i] = 0;
    for (unsigned i = threadIdx.x; i <= KVC_KIND_MIXED; i += blockDim.x) filters[i] = kvc_filter_for(i);
    if (plan.map_shared)
        for (uint32_t i = threadIdx.x; i < cpp; i += blockDim.x) shared_map[i] = map[i];
    const uint8_t *kinds = plan.map_shared ? shared_map : map;
    __syncthreads();

    const uint64_t total = plan.npages * cpp, step = (uint64_t)gridDim.x * blockDim.x;
    const uint32_t step_chunks = (uint32_t)(step % cpp);
    const uint64_t step_pages = step / cpp;
    uint64_t idx = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t k = (uint32_t)(idx % cpp);
    uint64_t pi = idx / cpp; // the only divisions: later chunks are stepped to
    while (idx < total) {
        uint4 v[KVC_UNROLL];
        uint64_t at[KVC_UNROLL], at_page[KVC_UNROLL];
        uint32_t at_chunk[KVC_UNROLL];
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) {
            at[u] = idx;
            at_chunk[u] = k;
            at_page[u] = pi;
            v[u] = make_uint4(0, 0, 0, 0);
            if (idx < total && plan.vector) {
                // contiguous pages of whole chunks: chunk idx is simply 16 * idx bytes in
                const uint8_t *p = LISTED ? data + pages[pi] * plan.page_bytes + (uint64_t)k * KVC_GPU_CHUNK
                                          : data + idx * KVC_GPU_CHUNK;
                v[u] = __ldg(reinterpret_cast<const uint4 *>(p));
            }
            idx += step;
            k += step_chunks;
            if (LISTED) pi += step_pages;
            if (k >= cpp) {
                k -= cpp;
                if (LISTED) pi++;
            }
        }
#pragma unroll
        for (int u = 0; u < KVC_UNROLL; u++) {
            if (at[u] >= total) continue;
            unsigned kind = plan.vector ? kinds[at_chunk[u]] : KVC_KIND_MIXED;
            const kvc_filter &f = filters[kind];
            uint64_t lo = v[u].x | (uint64_t)v[u].y << 32, hi = v[u].z | (uint64_t)v[u].w << 32;
            uint64_t bad = (kvc_filter_partial(&f, lo) | kvc_filter_partial(&f, hi)) & f.top;
            if (kind == KVC_KIND_F32_SCALE) bad |= kvc_bad_scale_lanes(lo, &plan.rules) | kvc_bad_scale_lanes(hi, &plan.rules);
            if (kind == KVC_KIND_MIXED) bad = 1;
            if (!bad) continue;
            uint64_t page = LISTED ? at_page[u] : at[u] / cpp;
            const uint8_t *base = data + (LISTED ? pages[page] : page) * plan.page_bytes;
            uint8_t bytes[KVC_GPU_CHUNK];
            memcpy(bytes, &v[u], sizeof bytes);
            unsigned n = classify_chunk(kind, bytes, base, (uint64_t)at_chunk[u] * KVC_GPU_CHUNK, plan, block_counts);
            if (n) atomicAdd(&page_bad[plan.out_base + page], n);
        }
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x)
        if (block_counts[i]) atomicAdd(&counts[i], (unsigned long long)block_counts[i]);
}

extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)
    kvc_scan(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,
             unsigned long long *counts, kvc_gpu_plan plan)
{
    scan<false>(data, pages, map, page_bad, counts, plan);
}

extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)
    kvc_scan_listed(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,
                    unsigned long long *counts, kvc_gpu_plan plan)
{
    scan<true>(data, pages, map, page_bad, counts, plan);
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
