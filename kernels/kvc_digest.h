/* Page digests: a 64-bit digest of every scanned page, computed in the scan's
 * own pass, with the same value on the CPU and the GPU (both include this
 * header). The algorithm, to be reproduced elsewhere:
 *
 *   Read the page as 32-bit little-endian words w[0..n), zero-padded to a
 *   whole number of 16-byte chunks (n a multiple of 4). For each pair
 *   i = 0 .. n/2 - 1, all arithmetic modulo 2^32 inside the parentheses:
 *
 *       a_i = (w[2i]     + 0x9E3779B9 + i * 0x85EBCA6B)
 *       b_i = (w[2i + 1] + 0x7F4A7C15 + i * 0xC2B2AE35)
 *       S   = sum of (uint64) a_i * b_i                     modulo 2^64
 *
 *   digest = fmix64(S ^ (page_bytes * 0x9E3779B97F4A7C15))  (MurmurHash3's
 *   64-bit finaliser: x ^= x >> 33; x *= 0xFF51AFD7ED558CCD; x ^= x >> 33;
 *   x *= 0xC4CEB9FE1A85EC53; x ^= x >> 33)
 *
 * It is the NH hash of UMAC and VHASH with keys that step with the pair's
 * position: each pair's product goes into one sum, so any thread may
 * digest any chunk, the sum does not depend on the order, and the CPU
 * computes it four pairs at a time with one 32x32->64 multiply per pair
 * (vpmuludq). Moving a word changes its key, so reordered bytes change the
 * digest. It detects accidents (bytes lost, shifted, zeroed, never
 * written), not adversaries: it is not a cryptographic hash. The digest
 * depends on the page's bytes and size only, not on where the page is, so
 * a page moved from prefill's page p to decode's page q keeps it. */
#ifndef KVC_DIGEST_H
#define KVC_DIGEST_H

#include <stdint.h>

#ifdef __CUDACC__
#define KVC_DIGEST_FN __host__ __device__ static inline
#else
#define KVC_DIGEST_FN static inline
#endif

#define KVC_DIGEST_A 0x9E3779B9u
#define KVC_DIGEST_B 0x7F4A7C15u
#define KVC_DIGEST_P 0x85EBCA6Bu
#define KVC_DIGEST_Q 0xC2B2AE35u

/* Pair i's term: (w[2i] + A + i P) * (w[2i+1] + B + i Q). */
KVC_DIGEST_FN uint64_t kvc_digest_pair(uint32_t lo, uint32_t hi, uint32_t i)
{
    return (uint64_t)(uint32_t)(lo + KVC_DIGEST_A + i * KVC_DIGEST_P) *
           (uint32_t)(hi + KVC_DIGEST_B + i * KVC_DIGEST_Q);
}

/* The terms of 16-byte chunk k (pairs 2k and 2k + 1), words x, y, z, w. */
KVC_DIGEST_FN uint64_t kvc_digest_chunk(uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t k)
{
    return kvc_digest_pair(x, y, 2 * k) + kvc_digest_pair(z, w, 2 * k + 1);
}

KVC_DIGEST_FN uint64_t kvc_digest_final(uint64_t sum, uint64_t page_bytes)
{
    uint64_t x = sum ^ (page_bytes * 0x9E3779B97F4A7C15ull);
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

#endif /* KVC_DIGEST_H */
