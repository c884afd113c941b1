/* Page digests (kernels/kvc_digest.h): one page's on the CPU, eight pairs
 * at a time with AVX2 (the header's pair by pair elsewhere), and the
 * comparison of the two sides' digests. */
#include "scan/scan.h"
#include "kvc_digest.h"

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

/* The pairs' sum, eight pairs (64 bytes) a round in two accumulators: per
 * 32 bytes one add of the keys (vpaddd), a shift that brings each pair's
 * second word down (vpsrlq), one 32x32->64 multiply per pair (vpmuludq,
 * which reads the low 32 bits of each 64-bit lane) and one add. */
__attribute__((target("avx2"))) static uint64_t sum_avx2(const uint8_t *p, uint64_t pairs, uint64_t first,
                                                         uint64_t *done)
{
    const uint32_t P = KVC_DIGEST_P, Q = KVC_DIGEST_Q;
    const uint32_t a = KVC_DIGEST_A + (uint32_t)first * P, b = KVC_DIGEST_B + (uint32_t)first * Q;
    __m256i key = _mm256_setr_epi32((int)a, (int)b, (int)(a + P), (int)(b + Q), (int)(a + 2 * P), (int)(b + 2 * Q),
                                    (int)(a + 3 * P), (int)(b + 3 * Q));
    const __m256i step = _mm256_setr_epi32((int)(4 * P), (int)(4 * Q), (int)(4 * P), (int)(4 * Q), (int)(4 * P),
                                           (int)(4 * Q), (int)(4 * P), (int)(4 * Q));
    __m256i acc[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    uint64_t i = 0;
    for (; i + 8 <= pairs; i += 8)
        for (int h = 0; h < 2; h++) {
            __m256i x = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * i + 32 * h)), key);
            acc[h] = _mm256_add_epi64(acc[h], _mm256_mul_epu32(x, _mm256_srli_epi64(x, 32)));
            key = _mm256_add_epi32(key, step);
        }
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)(void *)lanes, _mm256_add_epi64(acc[0], acc[1]));
    *done = i;
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

uint64_t digest_sum(const uint8_t *p, uint64_t pairs, uint64_t first)
{
    uint64_t sum = 0, i = 0;
    if (__builtin_cpu_supports("avx2")) sum = sum_avx2(p, pairs, first, &i);
    for (; i < pairs; i++) {
        uint64_t w = load64(p + 8 * i);
        sum += kvc_digest_pair((uint32_t)w, (uint32_t)(w >> 32), (uint32_t)(first + i));
    }
    return sum;
}

uint64_t page_digest(const uint8_t *page, uint64_t page_bytes)
{
    uint64_t pairs = page_bytes / 8, sum = digest_sum(page, pairs, 0);
    /* the page's last bytes and zeros up to a whole 16-byte chunk */
    for (uint64_t i = pairs; i < (page_bytes + 15) / 16 * 2; i++) {
        uint8_t tail[8] = {0};
        if (8 * i < page_bytes) memcpy(tail, page + 8 * i, page_bytes - 8 * i);
        uint64_t w = load64(tail);
        sum += kvc_digest_pair((uint32_t)w, (uint32_t)(w >> 32), (uint32_t)i);
    }
    return kvc_digest_final(sum, page_bytes);
}

uint64_t kvc_page_digest(const void *page, const kvc_layout *layout) { return page_digest(page, layout->page_bytes); }

uint64_t kvc_zero_page_digest(const kvc_layout *layout)
{
    uint8_t *zero = calloc(1, layout->page_bytes);
    uint64_t d = zero ? page_digest(zero, layout->page_bytes) : 0;
    free(zero);
    return d;
}

static const char *const PAGE_STATES[KVC_PAGE_STATES] = {"same", "changed", "zero", "missing"};

const char *kvc_page_state_name(kvc_page_state state)
{
    return (unsigned)state < KVC_PAGE_STATES ? PAGE_STATES[state] : "?";
}

size_t kvc_digests_compare(const uint64_t *expected, const uint64_t *actual, size_t n, const kvc_layout *layout,
                           unsigned char *states)
{
    const uint64_t zero = kvc_zero_page_digest(layout);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        kvc_page_state st = expected[i] == actual[i] ? KVC_PAGE_SAME : actual[i] == zero ? KVC_PAGE_ZERO : KVC_PAGE_CHANGED;
        differ += st != KVC_PAGE_SAME;
        if (states) states[i] = (unsigned char)st;
    }
    return differ;
}
