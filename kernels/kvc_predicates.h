/* The bit predicates of kvcheck's scanners, shared by the C (CPU) and CUDA
 * (GPU) scanners so both give identical counts (FORMATS.md, DESIGN.md §5).
 * Every test is on raw bits: no float conversion, rounding mode or
 * flush-to-zero setting can change a verdict.
 *
 * Two levels:
 *  - kvc_bad_lanes(): a 64-bit word of one element type in, a mask with one
 *    bit set per damaged element out (exact: no false alarms, no misses);
 *    the fast filter over clean data.
 *  - kvc_classify*(): one element in, the check it fails (or KVC_CHECK_OK);
 *    used to count and explain what the filter flagged. */
#ifndef KVC_PREDICATES_H
#define KVC_PREDICATES_H

#include "kvcheck.h"

#include <stdint.h>

#ifdef __CUDACC__
#define KVC_PRED __host__ __device__ static inline
#else
#define KVC_PRED static inline
#endif

/* What a run of bytes holds, as far as the checks care. */
enum kvc_kind {
    KVC_KIND_E4M3 = 0,
    KVC_KIND_E5M2 = 1,
    KVC_KIND_BF16 = 2,
    KVC_KIND_F16 = 3,
    KVC_KIND_F32 = 4,       /* FP32 values: NaN and Inf are damage, the sign is not */
    KVC_KIND_F32_SCALE = 5, /* FP32 scales: must be finite, positive and normal */
    KVC_KIND_UE8M0 = 6,     /* UE8M0 scales */
    KVC_KIND_PAD = 7,       /* never judged: padding, and FP4 E2M1 values, whose 16 codes are all finite
                               (0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6), so no bit pattern is damage */
    KVC_KIND_MIXED = 8      /* a GPU chunk that holds more than one field */
};

/* Optional scale policies (FORMATS.md: writers differ, so both are opt-in). */
typedef struct kvc_scale_rules {
    int pow2;                  /* flag FP32 scales that are not powers of two */
    int ranged;                /* flag FP32 scales outside [lo, hi] */
    uint32_t lo_bits, hi_bits; /* positive floats as bits: they order like the values */
} kvc_scale_rules;

#define KVC_REP8(b) (0x0101010101010101ull * (uint64_t)(b))
#define KVC_REP16(h) (0x0001000100010001ull * (uint64_t)(h))
#define KVC_REP32(w) (0x0000000100000001ull * (uint64_t)(w))

/* The word filter. For each kind of value the damaged codes are the ones
 * whose exponent (or NaN) field is all ones, so one formula serves all of
 * them, with four constants per kind, given for one 32-bit word (lanes are
 * at most 32 bits wide, so a wider word repeats them):
 *
 *     partial = ((w & field) + low) & (w | keep)      top bits: damaged lanes
 *
 * Adding the field's lowest bit to the masked lane carries into the lane's
 * top bit exactly when the field is all ones; lanes never carry into each
 * other. `keep` is all ones except for UE8M0, whose NaN 0xFF also needs the
 * top bit itself. A loop may OR many words' partials and mask with `top`
 * once: a top bit is set in the OR exactly when it is set in some word.
 * Padding, FP32 scales and mixed chunks have no word filter (all zero). */
typedef struct __attribute__((aligned(16))) kvc_filter { /* aligned: one 16-byte load on the GPU */
    uint32_t field, low, top, keep;
} kvc_filter;

KVC_PRED kvc_filter kvc_filter_for(unsigned kind)
{
    kvc_filter f = {0, 0, 0, ~0u};
    switch (kind) {
    case KVC_KIND_E4M3: /* NaN: 0x7F, 0xFF */
        f.field = 0x7F7F7F7Fu, f.low = 0x01010101u, f.top = 0x80808080u;
        break;
    case KVC_KIND_E5M2: /* Inf and NaN: exponent 0x7C */
        f.field = 0x7C7C7C7Cu, f.low = 0x04040404u, f.top = 0x80808080u;
        break;
    case KVC_KIND_BF16: /* Inf and NaN: exponent 0x7F80 */
        f.field = 0x7F807F80u, f.low = 0x00800080u, f.top = 0x80008000u;
        break;
    case KVC_KIND_F16: /* Inf and NaN: exponent 0x7C00 */
        f.field = 0x7C007C00u, f.low = 0x04000400u, f.top = 0x80008000u;
        break;
    case KVC_KIND_F32: /* Inf and NaN: exponent 0x7F800000 */
        f.field = 0x7F800000u, f.low = 0x00800000u, f.top = 0x80000000u;
        break;
    case KVC_KIND_UE8M0: /* NaN: 0xFF, the low seven bits all ones and the top bit */
        f.field = 0x7F7F7F7Fu, f.low = 0x01010101u, f.top = 0x80808080u, f.keep = 0;
        break;
    default: break;
    }
    return f;
}

KVC_PRED uint32_t kvc_filter_partial(const kvc_filter *f, uint32_t w) { return ((w & f->field) + f->low) & (w | f->keep); }

/* The same filter over 64-bit words (the CPU's), its constants repeated. */
typedef struct kvc_filter64 {
    uint64_t field, low, top, keep;
} kvc_filter64;

KVC_PRED kvc_filter64 kvc_filter64_for(unsigned kind)
{
    kvc_filter f = kvc_filter_for(kind);
    kvc_filter64 w = {KVC_REP32(f.field), KVC_REP32(f.low), KVC_REP32(f.top), KVC_REP32(f.keep)};
    return w;
}

KVC_PRED uint64_t kvc_filter64_partial(const kvc_filter64 *f, uint64_t w)
{
    return ((w & f->field) + f->low) & (w | f->keep);
}

/* One bit per damaged element of a 64-bit word of `kind` (little-endian
 * lanes), at the lane's top bit. FP32 scales go through kvc_bad_scale_lanes. */
KVC_PRED uint64_t kvc_bad_lanes(unsigned kind, uint64_t w)
{
    kvc_filter64 f = kvc_filter64_for(kind);
    return kvc_filter64_partial(&f, w) & f.top;
}

/* ------------------------------------------------------------ per element */

KVC_PRED int kvc_classify_e4m3(uint8_t b) { return (b & 0x7F) == 0x7F ? KVC_CHECK_E4M3_NAN : KVC_CHECK_OK; }

KVC_PRED int kvc_classify_e5m2(uint8_t b)
{
    if ((b & 0x7C) != 0x7C) return KVC_CHECK_OK;
    return (b & 0x03) ? KVC_CHECK_E5M2_NAN : KVC_CHECK_E5M2_INF;
}

/* bf16, fp16 and fp32 values have one shape: sign, exponent, mantissa. */
KVC_PRED int kvc_classify_ieee(uint32_t v, uint32_t exp_mask, uint32_t mant_mask, uint32_t sign, int nan,
                               int pos_inf, int neg_inf)
{
    if ((v & exp_mask) != exp_mask) return KVC_CHECK_OK;
    if (v & mant_mask) return nan;
    return (v & sign) ? neg_inf : pos_inf;
}

KVC_PRED int kvc_classify_bf16(uint16_t h)
{
    return kvc_classify_ieee(h, 0x7F80u, 0x007Fu, 0x8000u, KVC_CHECK_BF16_NAN, KVC_CHECK_BF16_POS_INF,
                             KVC_CHECK_BF16_NEG_INF);
}

KVC_PRED int kvc_classify_f16(uint16_t h)
{
    return kvc_classify_ieee(h, 0x7C00u, 0x03FFu, 0x8000u, KVC_CHECK_FP16_NAN, KVC_CHECK_FP16_POS_INF,
                             KVC_CHECK_FP16_NEG_INF);
}

KVC_PRED int kvc_classify_f32(uint32_t u)
{
    return kvc_classify_ieee(u, 0x7F800000u, 0x007FFFFFu, 0x80000000u, KVC_CHECK_FP32_NAN,
                             KVC_CHECK_FP32_POS_INF, KVC_CHECK_FP32_NEG_INF);
}

/* An FP32 scale: NaN, ±Inf, negative (the sign bit, so -0.0 too), zero and
 * denormal are always damage; the policies add "not a power of two" and the
 * range. */
KVC_PRED int kvc_classify_scale(uint32_t u, const kvc_scale_rules *r)
{
    if ((u & 0x7F800000u) == 0x7F800000u) {
        if (u & 0x007FFFFFu) return KVC_CHECK_SCALE_NAN;
        return (u & 0x80000000u) ? KVC_CHECK_SCALE_NEG_INF : KVC_CHECK_SCALE_POS_INF;
    }
    if (u & 0x80000000u) return KVC_CHECK_SCALE_NEGATIVE;
    if (u == 0) return KVC_CHECK_SCALE_ZERO;
    if (u < 0x00800000u) return KVC_CHECK_SCALE_DENORMAL;
    if (r->pow2 && (u & 0x007FFFFFu)) return KVC_CHECK_SCALE_NOT_POW2;
    if (r->ranged && (u < r->lo_bits || u > r->hi_bits)) return KVC_CHECK_SCALE_OUT_OF_RANGE;
    return KVC_CHECK_OK;
}

KVC_PRED int kvc_classify_ue8m0(uint8_t b) { return b == 0xFF ? KVC_CHECK_UE8M0_NAN : KVC_CHECK_OK; }

/* 1 when an FP32 scale is not a positive normal float (0x00800000 to
 * 0x7F7FFFFF): one unsigned compare covers NaN, Inf, sign, zero, denormal. */
KVC_PRED uint32_t kvc_scale_not_normal(uint32_t u) { return (uint32_t)(u - 0x00800000u) >= 0x7F000000u; }

/* 1 when an FP32 scale fails any check, the policies included. */
KVC_PRED uint64_t kvc_bad_scale(uint32_t u, const kvc_scale_rules *r)
{
    uint64_t bad = kvc_scale_not_normal(u);
    if (r->pow2) bad |= (u & 0x007FFFFFu) != 0;
    if (r->ranged) bad |= (u < r->lo_bits) | (u > r->hi_bits);
    return bad;
}

/* One bit per damaged FP32 scale of a 64-bit word (bit 0: low lane, bit 32: high). */
KVC_PRED uint64_t kvc_bad_scale_lanes(uint64_t w, const kvc_scale_rules *r)
{
    return kvc_bad_scale((uint32_t)w, r) | kvc_bad_scale((uint32_t)(w >> 32), r) << 32;
}

/* The check that the element at `p` (little-endian, of `kind`) fails. */
KVC_PRED int kvc_classify(unsigned kind, const uint8_t *p, const kvc_scale_rules *r)
{
    switch (kind) {
    case KVC_KIND_E4M3: return kvc_classify_e4m3(p[0]);
    case KVC_KIND_E5M2: return kvc_classify_e5m2(p[0]);
    case KVC_KIND_BF16: return kvc_classify_bf16((uint16_t)(p[0] | p[1] << 8));
    case KVC_KIND_F16: return kvc_classify_f16((uint16_t)(p[0] | p[1] << 8));
    case KVC_KIND_F32:
    case KVC_KIND_F32_SCALE: {
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        return kind == KVC_KIND_F32 ? kvc_classify_f32(u) : kvc_classify_scale(u, r);
    }
    case KVC_KIND_UE8M0: return kvc_classify_ue8m0(p[0]);
    default: return KVC_CHECK_OK;
    }
}

/* Bytes per element of a kind (0 for padding and mixed chunks). */
KVC_PRED unsigned kvc_kind_size(unsigned kind)
{
    switch (kind) {
    case KVC_KIND_E4M3:
    case KVC_KIND_E5M2:
    case KVC_KIND_UE8M0: return 1;
    case KVC_KIND_BF16:
    case KVC_KIND_F16: return 2;
    case KVC_KIND_F32:
    case KVC_KIND_F32_SCALE: return 4;
    default: return 0;
    }
}

#endif /* KVC_PREDICATES_H */
