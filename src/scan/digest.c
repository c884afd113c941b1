/* Page digests (kernels/kvc_digest.h): one page's on the CPU, four pairs
 * at a time, and the comparison of the two sides' digests. */
#include "scan/scan.h"
#include "kvc_digest.h"

#include <stdlib.h>
#include <string.h>

/* Four pairs at a time where AVX2 is there: the loop below becomes
 * vpaddd, vpsrlq, vpmuludq and vpaddq over 32 bytes. */
__attribute__((target_clones("avx2", "default"))) static uint64_t digest(const uint8_t *page, uint64_t page_bytes)
{
    uint64_t sum = 0, pairs = page_bytes / 8;
    uint32_t a = KVC_DIGEST_A, b = KVC_DIGEST_B;
    for (uint64_t i = 0; i < pairs; i++) {
        uint64_t w = load64(page + 8 * i);
        sum += (uint64_t)(uint32_t)((uint32_t)w + a) * (uint32_t)((uint32_t)(w >> 32) + b);
        a += KVC_DIGEST_P, b += KVC_DIGEST_Q;
    }
    /* the page's last bytes and zeros up to a whole 16-byte chunk */
    uint64_t padded = (page_bytes + 15) / 16 * 2;
    for (uint64_t i = pairs; i < padded; i++) {
        uint8_t tail[8] = {0};
        if (8 * i < page_bytes) memcpy(tail, page + 8 * i, page_bytes - 8 * i);
        uint64_t w = load64(tail);
        sum += kvc_digest_pair((uint32_t)w, (uint32_t)(w >> 32), (uint32_t)i);
    }
    return kvc_digest_final(sum, page_bytes);
}

/* Static above: the resolver of an exported function's clones would be
 * exported too. */
uint64_t page_digest(const uint8_t *page, uint64_t page_bytes) { return digest(page, page_bytes); }

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
