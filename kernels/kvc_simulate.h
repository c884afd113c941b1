/* What `kvcheck simulate` computes per token, shared by the CPU and the GPU
 * so both give bit-identical pages and read-backs for the same seed: the
 * latent values (counter-based random numbers, integer and IEEE-exact float
 * arithmetic only: no libm), how prefill's backend writes them
 * (SGLANG_RULES.md §8) and how decode's backend reads them back. */
#ifndef KVC_SIMULATE_H
#define KVC_SIMULATE_H

#include "kvc_predicates.h"

#include <string.h>

/* ---------------------------------------------------------------- numbers */

KVC_PRED uint64_t kvc_mix(uint64_t x) /* splitmix64's finaliser */
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* A random 64-bit word for (seed, a, b), the same wherever it is computed. */
KVC_PRED uint64_t kvc_random(uint64_t seed, uint64_t a, uint64_t b)
{
    return kvc_mix(seed ^ kvc_mix(a * 0x9E3779B97F4A7C15ull + kvc_mix(b + 0x632BE59BD9B4E019ull)));
}

KVC_PRED float kvc_float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

KVC_PRED uint32_t kvc_bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* bf16 bits of a float, rounding to nearest even (NaN stays NaN). */
KVC_PRED uint16_t kvc_bf16_of(float x)
{
    uint32_t u = kvc_bits_of(x);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) return (uint16_t)((u >> 16) | 0x40);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1)) >> 16);
}

KVC_PRED float kvc_float_of_bf16(uint16_t h) { return kvc_float_of((uint32_t)h << 16); }

/* Sim parameters: which of a token's values are NoPE and RoPE, the seed,
 * and how often a value is an outlier or a 128-value block is all zero. */
#define KVC_SIM_OUTLIER_IN 1000  /* one value in this many is 20 times larger */
#define KVC_SIM_ZERO_BLOCK_IN 512 /* one NoPE block of 128 in this many is all zero */

/* A channel's spread, 0.05 to 2: model latents differ per channel. */
KVC_PRED float kvc_sim_spread(uint64_t seed, uint32_t channel)
{
    uint32_t r = (uint32_t)(kvc_random(seed, ~0ull, channel) >> 40); /* 24 bits: exact as a float */
    return 0.05f + (float)r * (1.95f / 16777216.0f);
}

/* 1 when NoPE block `block` (of 128 values) of token `token` is all zero. */
KVC_PRED int kvc_sim_zero_block(uint64_t seed, uint64_t token, uint32_t block)
{
    return kvc_random(seed, token, 0x20000000u + block) % KVC_SIM_ZERO_BLOCK_IN == 0;
}

/* Value `channel` of token `token`: about normal (the sum of four uniform
 * 16-bit numbers), times its channel's spread, sometimes an outlier, as a
 * bf16 number (model activations are bf16). NoPE channels are 0..R-1, RoPE
 * channels R..R+r-1; an all-zero NoPE block gives zeros. */
KVC_PRED float kvc_sim_value(uint64_t seed, uint64_t token, uint32_t channel, uint32_t nope)
{
    if (channel < nope && kvc_sim_zero_block(seed, token, channel / 128)) return 0.0f;
    uint64_t h = kvc_random(seed, token, channel);
    int32_t s = (int32_t)(h & 0xFFFF) + (int32_t)(h >> 16 & 0xFFFF) + (int32_t)(h >> 32 & 0xFFFF) +
                (int32_t)(h >> 48 & 0xFFFF) - 131070;
    float g = (float)s * (1.7320508f / 65536.0f); /* unit variance */
    if (kvc_random(seed, token, 0x10000000u + channel) % KVC_SIM_OUTLIER_IN == 0) g *= 20.0f;
    float spread = channel < nope ? kvc_sim_spread(seed, channel) : 1.0f;
    return kvc_float_of_bf16(kvc_bf16_of(g * spread));
}

/* ------------------------------------------------------------------- e4m3 */

/* e4m3 (FN) bits of a float: nearest, ties to even, saturating at ±448;
 * NaN gives NaN (0x7F), as the cast of 0/0 does. Exact arithmetic only. */
KVC_PRED uint8_t kvc_e4m3_of(float x)
{
    uint32_t u = kvc_bits_of(x);
    uint8_t sign = (uint8_t)((u >> 24) & 0x80);
    if ((u & 0x7F800000u) == 0x7F800000u) return (u & 0x007FFFFFu) ? (uint8_t)0x7F : (uint8_t)(sign | 0x7E);
    float a = kvc_float_of(u & 0x7FFFFFFFu);
    if (a >= 464.0f) return (uint8_t)(sign | 0x7E); /* 448 and the half step above it */
    int e = (int)((u >> 23) & 0xFF) - 127;
    if (e < -6) { /* subnormal: steps of 2^-9 */
        float q = a * 512.0f;
        uint32_t n = (uint32_t)q;
        float rest = q - (float)n;
        if (rest > 0.5f || (rest == 0.5f && (n & 1))) n++;
        return (uint8_t)(sign | n); /* n = 8 is the smallest normal, 0x08 */
    }
    float m8 = (kvc_float_of((u & 0x007FFFFFu) | 0x3F800000u) - 1.0f) * 8.0f; /* exact */
    uint32_t q = (uint32_t)m8;
    float rest = m8 - (float)q;
    if (rest > 0.5f || (rest == 0.5f && (q & 1))) q++;
    if (q == 8) q = 0, e++;
    uint32_t code = (uint32_t)(e + 7) << 3 | q;
    return (uint8_t)(sign | (code > 0x7E ? 0x7E : code));
}

KVC_PRED float kvc_float_of_e4m3(uint8_t b)
{
    uint32_t e = (b >> 3) & 15, m = b & 7;
    if ((b & 0x7F) == 0x7F) return kvc_float_of(0x7FC00000u);
    /* exact: a subnormal is m x 2^-9, a normal (8 + m) x 2^(e - 10) */
    float v = e ? kvc_float_of((e + 120u) << 23 | m << 20) : (float)m * (1.0f / 512.0f);
    return (b & 0x80) ? -v : v;
}

/* ------------------------------------------------------ writers, readers */

/* A layout as simulate writes and reads it: NoPE values, an optional FP32
 * scale per 128 of them, RoPE values. */
typedef struct kvc_sim_layout {
    uint64_t page_bytes;
    uint32_t page_size;
    uint32_t nope, rope;      /* values per token */
    uint32_t nope_elem, rope_elem; /* KVC_ELEM_E4M3 or KVC_ELEM_BF16 */
    uint32_t scaled;          /* FP32 scale per KVC_SIM_GROUP NoPE values */
    uint64_t nope_base, nope_stride, rope_base, rope_stride, scale_base, scale_stride;
} kvc_sim_layout;

#define KVC_SIM_GROUP 128

KVC_PRED void kvc_sim_put(uint8_t *at, uint32_t elem, float x)
{
    if (elem == KVC_ELEM_E4M3) {
        at[0] = kvc_e4m3_of(x);
    } else {
        uint16_t h = kvc_bf16_of(x);
        at[0] = (uint8_t)h, at[1] = (uint8_t)(h >> 8);
    }
}

KVC_PRED float kvc_sim_get(const uint8_t *at, uint32_t elem)
{
    return elem == KVC_ELEM_E4M3 ? kvc_float_of_e4m3(at[0]) : kvc_float_of_bf16((uint16_t)(at[0] | at[1] << 8));
}

/* Writes token `token` into slot `slot` of `page` the way prefill's backend
 * writes it (SGLANG_RULES.md §8): scaled FP8 with scale = amax / 448 per
 * 128 NoPE values (0 for an all-zero block, whose payload 0/0 is NaN), RoPE
 * as bf16; raw FP8 with write scale 1.0; bf16 as it is. */
KVC_PRED void kvc_sim_write_token(const kvc_sim_layout *l, uint8_t *page, uint32_t slot, uint64_t seed, uint64_t token)
{
    uint8_t *nope = page + l->nope_base + (uint64_t)slot * l->nope_stride;
    uint8_t *rope = page + l->rope_base + (uint64_t)slot * l->rope_stride;
    unsigned nsize = l->nope_elem == KVC_ELEM_E4M3 ? 1 : 2, rsize = l->rope_elem == KVC_ELEM_E4M3 ? 1 : 2;
    for (uint32_t g = 0; g < l->nope; g += KVC_SIM_GROUP) {
        uint32_t end = g + KVC_SIM_GROUP < l->nope ? g + KVC_SIM_GROUP : l->nope;
        float scale = 1.0f;
        if (l->scaled) {
            float amax = 0.0f;
            for (uint32_t c = g; c < end; c++) {
                float a = kvc_float_of(kvc_bits_of(kvc_sim_value(seed, token, c, l->nope)) & 0x7FFFFFFFu);
                amax = a > amax ? a : amax;
            }
            scale = amax / 448.0f;
            uint32_t bits = kvc_bits_of(scale);
            memcpy(page + l->scale_base + (uint64_t)slot * l->scale_stride + 4 * (g / KVC_SIM_GROUP), &bits, 4);
        }
        for (uint32_t c = g; c < end; c++) {
            float x = kvc_sim_value(seed, token, c, l->nope);
            kvc_sim_put(nope + (uint64_t)c * nsize, l->nope_elem, l->scaled ? x / scale : x);
        }
    }
    for (uint32_t c = 0; c < l->rope; c++)
        kvc_sim_put(rope + (uint64_t)c * rsize, l->rope_elem, kvc_sim_value(seed, token, l->nope + c, l->nope));
}

/* Reads value `c` (NoPE first, then RoPE) of slot `slot` the way decode's
 * backend dequantises it: FP8 x its FP32 scale, raw FP8 x 1.0, bf16 as is. */
KVC_PRED float kvc_sim_read_value(const kvc_sim_layout *l, const uint8_t *page, uint32_t slot, uint32_t c)
{
    if (c >= l->nope) {
        unsigned rsize = l->rope_elem == KVC_ELEM_E4M3 ? 1 : 2;
        return kvc_sim_get(page + l->rope_base + (uint64_t)slot * l->rope_stride + (uint64_t)(c - l->nope) * rsize,
                           l->rope_elem);
    }
    unsigned nsize = l->nope_elem == KVC_ELEM_E4M3 ? 1 : 2;
    float v = kvc_sim_get(page + l->nope_base + (uint64_t)slot * l->nope_stride + (uint64_t)c * nsize, l->nope_elem);
    if (!l->scaled) return v;
    uint32_t bits;
    memcpy(&bits, page + l->scale_base + (uint64_t)slot * l->scale_stride + 4 * (c / KVC_SIM_GROUP), 4);
    return v * kvc_float_of(bits);
}

/* What one token's read-backs give, against the values prefill was given:
 * [0] NoPE, [1] RoPE; w_ for prefill's own read-back, the rest for
 * decode's. Reduced on the host in token order, so every device and thread
 * count gives the same sums. */
typedef struct kvc_sim_token {
    double sum[2], max[2], w_sum[2], w_max[2]; /* absolute errors of finite read-backs */
    uint32_t nonfinite[2], w_nonfinite[2];
    uint32_t differ;      /* values decode reads back otherwise than prefill's read-back */
    uint32_t zero_blocks; /* all-zero NoPE blocks of this token */
} kvc_sim_token;

KVC_PRED int kvc_sim_finite(float x) { return (kvc_bits_of(x) & 0x7F800000u) != 0x7F800000u; }

KVC_PRED void kvc_sim_error(double *sum, double *max, uint32_t *nonfinite, float got, float want)
{
    if (!kvc_sim_finite(got)) {
        (*nonfinite)++;
        return;
    }
    double d = (double)got - (double)want;
    d = d < 0 ? -d : d;
    *sum += d;
    if (d > *max) *max = d;
}

/* Compares token `t` as prefill reads it back from its own pages and as
 * decode reads it back from its buffer, value by value in channel order. */
KVC_PRED void kvc_sim_compare_token(const kvc_sim_layout *pl, const uint8_t *pbuf, const kvc_sim_layout *dl,
                                    const uint8_t *dbuf, uint64_t seed, uint64_t t, kvc_sim_token *out)
{
    memset(out, 0, sizeof *out);
    const uint8_t *pp = pbuf + t / pl->page_size * pl->page_bytes, *dp = dbuf + t / dl->page_size * dl->page_bytes;
    uint32_t ps = (uint32_t)(t % pl->page_size), ds = (uint32_t)(t % dl->page_size);
    uint32_t nope = pl->nope < dl->nope ? pl->nope : dl->nope, rope = pl->rope < dl->rope ? pl->rope : dl->rope;
    for (uint32_t g = 0; g < pl->nope; g += KVC_SIM_GROUP) out->zero_blocks += kvc_sim_zero_block(seed, t, g / KVC_SIM_GROUP);
    for (uint32_t i = 0; i < nope + rope; i++) {
        uint32_t pc = i < nope ? i : pl->nope + (i - nope), dc = i < nope ? i : dl->nope + (i - nope);
        int part = i >= nope;
        float want = kvc_sim_value(seed, t, pc, pl->nope);
        float wrote = kvc_sim_read_value(pl, pp, ps, pc), read = kvc_sim_read_value(dl, dp, ds, dc);
        kvc_sim_error(&out->w_sum[part], &out->w_max[part], &out->w_nonfinite[part], wrote, want);
        kvc_sim_error(&out->sum[part], &out->max[part], &out->nonfinite[part], read, want);
        int both_nan = !kvc_sim_finite(read) && !kvc_sim_finite(wrote) && (kvc_bits_of(read) & 0x007FFFFFu) &&
                       (kvc_bits_of(wrote) & 0x007FFFFFu);
        out->differ += !both_nan && kvc_bits_of(read) != kvc_bits_of(wrote);
    }
}

#endif /* KVC_SIMULATE_H */
