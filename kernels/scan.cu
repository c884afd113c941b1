// GPU scan kernels. The predicates come from kvc_predicates.h and the
// digest from kvc_digest.h, the headers the CPU scanner includes, so both
// count exactly the same elements and give the same digests.
//
// kvc_scan walks pages of any number of layer buffers: each group of
// plan.group warps (1, 2, 4 or 8: the host picks it, many pages take one
// warp each, a few pages take several) takes whole pages in turn, its lanes
// load the page's 16-byte chunks as a plain read kernel does, and one pass
// gives the page's damage and its digest. A chunk's kind comes from a
// per-page map (in shared memory when it fits) and one branch-free formula
// with per-kind constants filters it, so a warp whose chunks hold different
// fields does not diverge. Only flagged chunks go to the slow path, which
// classifies them element by element into the warp's own counters. A page
// ends with a warp reduction (and, for groups of several warps, one block
// barrier per round of pages): its digest and damaged-element count are
// written once, and a damaged page's counters are added to its layer's in
// global memory. The last block to finish hands the per-layer counts to
// the results and zeroes them for the next launch, so a scan needs no
// memset before it, and then writes the launch's number to the word the
// host waits on. kvc_scan_gmap reads a map too large for shared memory
// from global memory.
#include "kvc_kernel_abi.h"

__device__ static unsigned count_element(int check, unsigned *counts)
{
    if (check == KVC_CHECK_OK) return 0;
    atomicAdd(&counts[check], 1u);
    return 1;
}

// The slow path, out of line so the hot loop keeps its registers: the
// damaged elements of a flagged chunk, counted. A chunk of one kind is
// classified from its bytes; an exact chunk (several fields, or one field
// and padding) element by element from the field table, read from global
// memory, also where an element runs past the chunk.
__device__ __noinline__ static unsigned damaged_chunk(unsigned entry, uint4 v, const uint8_t *page, uint32_t chunk,
                                                      unsigned *counts, const kvc_gpu_plan *plan)
{
    unsigned n = 0, kind = entry & KVC_GPU_KIND_MASK;
    if (!(entry & KVC_GPU_EXACT)) {
        uint8_t bytes[KVC_GPU_CHUNK];
        memcpy(bytes, &v, sizeof bytes);
        unsigned size = kvc_kind_size(kind);
        for (unsigned i = 0; i < KVC_GPU_CHUNK; i += size) n += count_element(kvc_classify(kind, bytes + i, &plan->rules), counts);
        return n;
    }
    uint64_t first = (uint64_t)chunk * KVC_GPU_CHUNK;
    uint64_t end = first + KVC_GPU_CHUNK < plan->page_bytes ? first + KVC_GPU_CHUNK : plan->page_bytes;
    for (uint64_t o = first; o < end; o++) {
        for (unsigned r = 0; r < plan->nruns; r++) {
            const kvc_gpu_run &run = plan->runs[r];
            if (o < run.base) continue;
            uint64_t rel = o - run.base, t = rel / run.stride, within = rel - t * run.stride;
            unsigned size = kvc_kind_size(run.kind);
            if (t < plan->page_size && within < run.bytes && within % size == 0)
                n += count_element(kvc_classify(run.kind, page + o, &plan->rules), counts);
        }
    }
    return n;
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

// Chunk k of a page that is not 16-byte aligned (or ends inside the
// chunk), byte by byte, zero-padded past the page's end.
__device__ static uint4 load_bytes(const uint8_t *page, uint32_t k, uint64_t page_bytes)
{
    uint32_t w[4] = {0, 0, 0, 0};
    for (unsigned b = 0; b < KVC_GPU_CHUNK; b++) {
        uint64_t at = (uint64_t)k * KVC_GPU_CHUNK + b;
        if (at < page_bytes) w[b / 4] |= (uint32_t)page[at] << (8 * (b % 4));
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// Adds a damaged page's counters to its layer's and clears them (the warp's
// lanes, one counter each; the warp is converged here).
__device__ static void flush_counts(unsigned *wc, unsigned long long *layer_counts, unsigned lane)
{
    __syncwarp();
    for (unsigned c = lane; c < KVC_CHECK_COUNT; c += 32)
        if (wc[c]) {
            atomicAdd(&layer_counts[c], (unsigned long long)wc[c]);
            wc[c] = 0;
        }
    __syncwarp();
}

// The last block to finish moves the per-layer counts to the results,
// leaves the accumulators and the ticket at zero for the next launch, and
// then writes the launch's sequence number to `done`: the host waits for
// that word (in its pinned memory), not for the kernel's end. Every block's
// results reach the host before its ticket (a system-wide fence), and the
// counts before `done`, so the word says all results are there. A launch of
// one block (a call's fixed cost) needs no ticket: its barrier orders its
// own warps' results.
__device__ static void hand_over_counts(unsigned long long *acc, unsigned *ticket, unsigned long long *counts_out,
                                        uint64_t ncounts, unsigned long long *done, uint64_t seq)
{
    __shared__ bool last;
    __syncthreads();
    if (gridDim.x > 1) {
        if (threadIdx.x == 0) {
            __threadfence_system(); // this block's results are on the host before its ticket
            last = atomicAdd(ticket, 1u) == gridDim.x - 1;
        }
        __syncthreads();
        if (!last) return;
        __threadfence();
        if (threadIdx.x == 0) *ticket = 0;
    }
    for (uint64_t i = threadIdx.x; i < ncounts; i += blockDim.x) counts_out[i] = atomicExch(&acc[i], 0ull);
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_system(); // the counts (and this block's pages) first
        *reinterpret_cast<volatile unsigned long long *>(done) = seq;
    }
}

template <bool SHARED_MAP>
__device__ static void scan(const unsigned long long *layers, const unsigned long long *pages, const uint8_t *map,
                            unsigned *page_bad, unsigned long long *digests, unsigned long long *counts_out,
                            unsigned long long *done, unsigned long long *acc, unsigned *ticket,
                            const kvc_gpu_plan &plan)
{
    extern __shared__ __align__(16) uint8_t shared_map[];
    __shared__ unsigned warp_counts[KVC_GPU_WARPS][KVC_CHECK_COUNT];
    __shared__ unsigned long long warp_sum[2][KVC_GPU_WARPS]; // by round parity: one barrier per round
    __shared__ unsigned warp_bad[2][KVC_GPU_WARPS];
    __shared__ kvc_filter filters[KVC_KIND_MIXED + 1];
    __shared__ kvc_gpu_plan shared_plan; // for the slow path, which takes it by pointer
    const uint32_t cpp = (uint32_t)plan.chunks_per_page;
    for (unsigned i = threadIdx.x; i < KVC_GPU_WARPS * KVC_CHECK_COUNT; i += blockDim.x)
        warp_counts[i / KVC_CHECK_COUNT][i % KVC_CHECK_COUNT] = 0;
    for (unsigned i = threadIdx.x; i <= KVC_KIND_MIXED; i += blockDim.x) filters[i] = kvc_filter_for(i);
    if (threadIdx.x == 0) shared_plan = plan;
    if (SHARED_MAP) { // 16 bytes a load (both start 16-byte aligned), then the tail
        const uint32_t whole = cpp / 16;
        for (uint32_t i = threadIdx.x; i < whole; i += blockDim.x)
            reinterpret_cast<uint4 *>(shared_map)[i] = __ldg(reinterpret_cast<const uint4 *>(map) + i);
        for (uint32_t i = whole * 16 + threadIdx.x; i < cpp; i += blockDim.x) shared_map[i] = map[i];
    }
    __syncthreads();
    const bool policies = plan.rules.pow2 || plan.rules.ranged;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned group = plan.group, groups = KVC_GPU_WARPS / group, g = warp / group, gw = warp % group;
    const uint32_t stride = 32 * group; // chunks between a lane's loads
    unsigned *wc = warp_counts[warp];
#define KVC_ENTRY(c) (SHARED_MAP ? shared_map[c] : __ldg(map + (c)))

    unsigned q = 0;
    for (uint64_t round = (uint64_t)blockIdx.x * groups; round < plan.items; round += (uint64_t)gridDim.x * groups, q ^= 1) {
        const uint64_t item = round + g;
        const bool have = item < plan.items; // the block's last round may leave groups without a page
        const uint64_t layer = have ? item / plan.per_layer : 0, j = item - layer * plan.per_layer;
        const uint8_t *page =
            have ? reinterpret_cast<const uint8_t *>(layers[layer]) + (pages ? pages[j] : j) * plan.page_bytes : nullptr;
        uint64_t sum = 0;
        unsigned bad = 0;
        if (have && plan.vector) {
            for (uint32_t k0 = gw * 32 + lane; k0 < cpp; k0 += KVC_GPU_UNROLL * stride) {
                uint4 v[KVC_GPU_UNROLL];
#pragma unroll
                for (int u = 0; u < KVC_GPU_UNROLL; u++) {
                    uint32_t k = k0 + u * stride;
                    v[u] = k < cpp ? __ldg(reinterpret_cast<const uint4 *>(page) + k) : make_uint4(0, 0, 0, 0);
                }
                unsigned flagged = 0; // checked first, handled after: no call inside the hot loop
#pragma unroll
                for (int u = 0; u < KVC_GPU_UNROLL; u++) {
                    uint32_t k = k0 + u * stride;
                    if (k >= cpp) continue;
                    unsigned entry = KVC_ENTRY(k);
                    sum += kvc_digest_chunk(v[u].x, v[u].y, v[u].z, v[u].w, k);
                    flagged |= (unsigned)chunk_flagged(entry, v[u], filters[entry & KVC_GPU_KIND_MASK], policies) << u;
                }
                if (flagged) {
#pragma unroll
                    for (int u = 0; u < KVC_GPU_UNROLL; u++)
                        if (flagged >> u & 1) {
                            uint32_t k = k0 + u * stride;
                            bad += damaged_chunk(KVC_ENTRY(k), v[u], page, k, wc, &shared_plan);
                        }
                }
            }
        } else if (have) { // pages not 16-byte aligned: every chunk element by element
            for (uint32_t k = gw * 32 + lane; k < cpp; k += stride) {
                uint4 v = load_bytes(page, k, plan.page_bytes);
                sum += kvc_digest_chunk(v.x, v.y, v.z, v.w, k);
                bad += damaged_chunk(KVC_KIND_MIXED | KVC_GPU_EXACT, v, page, k, wc, &shared_plan);
            }
        }
        for (int o = 16; o > 0; o /= 2) { // every lane ends with the warp's totals
            sum += __shfl_xor_sync(0xFFFFFFFFu, sum, o);
            bad += __shfl_xor_sync(0xFFFFFFFFu, bad, o);
        }
        if (bad) flush_counts(wc, acc + layer * KVC_CHECK_COUNT, lane);
        if (group > 1) { // the group's warps add up in shared memory
            if (lane == 0) warp_sum[q][warp] = sum, warp_bad[q][warp] = bad;
            __syncthreads(); // the other parity's slots are not in use until the next round
            if (gw == 0)
                for (unsigned w = 1; w < group; w++) sum += warp_sum[q][warp + w], bad += warp_bad[q][warp + w];
        }
        if (have && gw == 0 && lane == 0) {
            digests[item] = kvc_digest_final(sum, plan.page_bytes);
            page_bad[item] = bad;
        }
    }
#undef KVC_ENTRY
    hand_over_counts(acc, ticket, counts_out, plan.ncounts, done, plan.seq);
}

#define KVC_SCAN_KERNEL(name, shared)                                                                          \
    extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)                                                \
        name(const unsigned long long *layers, const unsigned long long *pages, const uint8_t *map,            \
             unsigned *page_bad, unsigned long long *digests, unsigned long long *counts,                        \
             unsigned long long *done, unsigned long long *acc, unsigned *ticket,                                \
             const __grid_constant__ kvc_gpu_plan plan)                                                         \
    {                                                                                                          \
        scan<shared>(layers, pages, map, page_bad, digests, counts, done, acc, ticket, plan);                    \
    }
KVC_SCAN_KERNEL(kvc_scan, true)
KVC_SCAN_KERNEL(kvc_scan_gmap, false)

// The benchmark's reference: a grid-stride loop of 16-byte loads over each
// of `nlayers` buffers of `n` chunks, doing nothing but folding them together.
extern "C" __global__ void __launch_bounds__(KVC_GPU_BLOCK)
    kvc_read(const unsigned long long *layers, unsigned nlayers, unsigned long long n, uint4 *sink)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (unsigned l = 0; l < nlayers; l++) {
        const uint4 *data = reinterpret_cast<const uint4 *>(layers[l]);
        for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step * KVC_GPU_UNROLL) {
            uint4 v[KVC_GPU_UNROLL];
#pragma unroll
            for (int u = 0; u < KVC_GPU_UNROLL; u++) v[u] = i + u * step < n ? __ldg(data + i + u * step) : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < KVC_GPU_UNROLL; u++) {
                acc.x ^= v[u].x;
                acc.y ^= v[u].y;
                acc.z ^= v[u].z;
                acc.w ^= v[u].w;
            }
        }
    }
    if ((acc.x & acc.y & acc.z & acc.w) == 0xFFFFFFFFu) sink[threadIdx.x] = acc; // keeps the loads alive
}
