// GPU scan kernels. The predicates come from kvc_predicates.h, the header the
// CPU scanner includes, so both count exactly the same elements.
//
// kvc_scan walks the pages as one flat grid-stride loop of 16-byte chunks,
// like a plain read kernel. A chunk's kind comes from a per-page map (in
// shared memory when it fits), and one branch-free formula with per-kind
// constants filters it, so a warp whose chunks hold different fields does
// not diverge. Only flagged chunks go to the slow path, which classifies
// them element by element into block-local counters (one atomic per check
// per block at the end) and adds one atomic per damaged chunk for its page.
// The _listed variants walk a list of pages; the _gmap variants read a map
// too large for shared memory from global memory.
#include "kvc_kernel_abi.h"

#define KVC_UNROLL 4

__device__ static void count_element(int check, unsigned *counts, unsigned *n)
{
    if (check != KVC_CHECK_OK) {
        atomicAdd(&counts[check], 1u);
        (*n)++;
    }
}

// The slow path, out of line so the hot loop keeps its registers. A chunk
// of one kind is classified from its bytes; an exact chunk (several fields,
// or one field and padding) element by element from the field table, read
// from global memory, also where an element runs past the chunk.
__device__ __noinline__ static void damaged_chunk(unsigned entry, uint4 v, const uint8_t *page, uint64_t page_index,
                                                  uint32_t chunk, unsigned *page_bad, unsigned *counts,
                                                  const kvc_gpu_plan *plan)
{
    unsigned n = 0, kind = entry & KVC_GPU_KIND_MASK;
    if (!(entry & KVC_GPU_EXACT)) {
        uint8_t bytes[KVC_GPU_CHUNK];
        memcpy(bytes, &v, sizeof bytes);
        unsigned size = kvc_kind_size(kind);
        for (unsigned i = 0; i < KVC_GPU_CHUNK; i += size) count_element(kvc_classify(kind, bytes + i, &plan->rules), counts, &n);
    } else {
        uint64_t first = (uint64_t)chunk * KVC_GPU_CHUNK;
        uint64_t end = first + KVC_GPU_CHUNK < plan->page_bytes ? first + KVC_GPU_CHUNK : plan->page_bytes;
        for (uint64_t o = first; o < end; o++) {
            for (unsigned r = 0; r < plan->nruns; r++) {
                const kvc_gpu_run &run = plan->runs[r];
                if (o < run.base) continue;
                uint64_t rel = o - run.base, t = rel / run.stride, within = rel - t * run.stride;
                unsigned size = kvc_kind_size(run.kind);
                if (t < plan->page_size && within < run.bytes && within % size == 0)
                    count_element(kvc_classify(run.kind, page + o, &plan->rules), counts, &n);
            }
        }
    }
    if (n) atomicAdd(&page_bad[plan->out_base + page_index], n);
}

// 1 when a chunk may hold a damaged element (the slow path decides). With a
// scale policy every scale chunk goes to the slow path, which applies it.
__device__ static bool chunk_flagged(unsigned entry, const uint4 &v, const kvc_filter &f, bool policies)
{
    uint32_t acc = kvc_filter_partial(&f, v.x) | kvc_filter_partial(&f, v.y) | kvc_filter_partial(&f, v.z) |
                   kvc_filter_partial(&f, v.w);
    bool bad = (acc & f.top) != 0;
    unsigned kind = entry & KVC_GPU_KIND_MASK;
    if (kind == KVC_KIND_F32_SCALE)
        bad = kvc_scale_not_normal(v.x) | kvc_scale_not_normal(v.y) | kvc_scale_not_normal(v.z) |
              kvc_scale_not_normal(v.w) | policies | (entry & KVC_GPU_EXACT);
    return bad || kind == KVC_KIND_MIXED;
}

template <bool LISTED, bool SHARED_MAP>
__device__ static void scan(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,
                            unsigned long long *counts, const kvc_gpu_plan &plan)
{
    extern __shared__ uint8_t shared_map[];
    __shared__ unsigned block_counts[KVC_CHECK_COUNT];
    __shared__ kvc_filter filters[KVC_KIND_MIXED + 1];
    __shared__ kvc_gpu_plan shared_plan; // for the slow path, which takes it by pointer
    const uint32_t cpp = (uint32_t)plan.chunks_per_page;
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x) block_counts[i] = 0;
    for (unsigned i = threadIdx.x; i <= KVC_KIND_MIXED; i += blockDim.x) filters[i] = kvc_filter_for(i);
    if (threadIdx.x == 0) shared_plan = plan;
    if (SHARED_MAP)
        for (uint32_t i = threadIdx.x; i < cpp; i += blockDim.x) shared_map[i] = map[i];
    __syncthreads();

    const uint64_t total = plan.npages * cpp, step = (uint64_t)gridDim.x * blockDim.x;
    const uint32_t step_chunks = (uint32_t)(step % cpp);
    const uint64_t step_pages = step / cpp;
    uint64_t idx = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t k = (uint32_t)(idx % cpp);
    uint64_t pi = idx / cpp; // the only divisions: later chunks are stepped to
    const bool policies = plan.rules.pow2 || plan.rules.ranged;

    auto advance = [&]() { // contiguous pages need no page index until a chunk is flagged
        idx += step;
        k += step_chunks;
        if (LISTED) pi += step_pages;
        if (k >= cpp) {
            k -= cpp;
            if (LISTED) pi++;
        }
    };
#define KVC_PAGE(p) (data + (LISTED ? pages[p] : (p)) * plan.page_bytes)
#define KVC_ENTRY(c) (SHARED_MAP ? shared_map[c] : __ldg(map + (c)))

    if (!plan.vector) { // pages not 16-byte aligned: every chunk element by element
        for (; idx < total; advance())
        {
            uint64_t page = LISTED ? pi : idx / cpp;
            damaged_chunk(KVC_KIND_MIXED | KVC_GPU_EXACT, make_uint4(0, 0, 0, 0), KVC_PAGE(page), page, k, page_bad,
                          block_counts, &shared_plan);
        }
    } else {
        while (idx + (KVC_UNROLL - 1) * step < total) { // every chunk of this round exists: no bounds checks
            uint4 v[KVC_UNROLL];
            uint32_t at_chunk[KVC_UNROLL];
            uint64_t at_page[KVC_UNROLL];
            const uint64_t first = idx;
#pragma unroll
            for (int u = 0; u < KVC_UNROLL; u++) {
                at_chunk[u] = k;
                at_page[u] = pi;
                // contiguous whole-chunk pages: chunk idx lies 16 * idx bytes in
                const uint8_t *p = LISTED ? KVC_PAGE(pi) + (uint64_t)k * KVC_GPU_CHUNK : data + idx * KVC_GPU_CHUNK;
                v[u] = __ldg(reinterpret_cast<const uint4 *>(p));
                advance();
            }
            unsigned flagged = 0; // checked first, handled after: no call inside the hot loop
#pragma unroll
            for (int u = 0; u < KVC_UNROLL; u++) {
                unsigned entry = KVC_ENTRY(at_chunk[u]);
                flagged |= (unsigned)chunk_flagged(entry, v[u], filters[entry & KVC_GPU_KIND_MASK], policies) << u;
            }
            if (flagged) {
#pragma unroll
                for (int u = 0; u < KVC_UNROLL; u++) {
                    if (!(flagged >> u & 1)) continue;
                    uint64_t page = LISTED ? at_page[u] : (first + u * step) / cpp;
                    damaged_chunk(KVC_ENTRY(at_chunk[u]), v[u], KVC_PAGE(page), page, at_chunk[u], page_bad,
                                  block_counts, &shared_plan);
                }
            }
        }
        for (; idx < total; advance()) {
            uint64_t page = LISTED ? pi : idx / cpp;
            uint4 v = __ldg(reinterpret_cast<const uint4 *>(KVC_PAGE(page) + (uint64_t)k * KVC_GPU_CHUNK));
            unsigned entry = KVC_ENTRY(k);
            if (chunk_flagged(entry, v, filters[entry & KVC_GPU_KIND_MASK], policies))
                damaged_chunk(entry, v, KVC_PAGE(page), page, k, page_bad, block_counts, &shared_plan);
        }
    }
#undef KVC_PAGE
#undef KVC_ENTRY
    __syncthreads();
    for (unsigned i = threadIdx.x; i < KVC_CHECK_COUNT; i += blockDim.x)
        if (block_counts[i]) atomicAdd(&counts[i], (unsigned long long)block_counts[i]);
}

#define KVC_SCAN_KERNEL(name, listed, shared)                                                                  \
    extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)                            \
        name(const uint8_t *data, const unsigned long long *pages, const uint8_t *map, unsigned *page_bad,     \
             unsigned long long *counts, kvc_gpu_plan plan)                                                    \
    {                                                                                                          \
        scan<listed, shared>(data, pages, map, page_bad, counts, plan);                                        \
    }
KVC_SCAN_KERNEL(kvc_scan, false, true)
KVC_SCAN_KERNEL(kvc_scan_listed, true, true)
KVC_SCAN_KERNEL(kvc_scan_gmap, false, false)
KVC_SCAN_KERNEL(kvc_scan_listed_gmap, true, false)

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
