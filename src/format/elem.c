/* Element types: one table of what every stage needs to know about an
 * element (its name, size, how the scanners judge it, what its bytes
 * stand for). A new element type is a row here and a kind in
 * kernels/kvc_predicates.h. */
#include "format/format.h"
#include "kvc_simulate.h"

#include <math.h>
#include <string.h>

static double decode_e4m3(const uint8_t *p) { return kvc_float_of_e4m3(p[0]); }
static double decode_bf16(const uint8_t *p) { return kvc_float_of_bf16((uint16_t)(p[0] | p[1] << 8)); }
static double decode_ue8m0(const uint8_t *p) { return p[0] == 0xFF ? NAN : ldexp(1.0, (int)p[0] - 127); }
static double decode_pad(const uint8_t *p) { return (void)p, 0; }
/* E2M1: sign, 2 exponent bits (bias 1), 1 mantissa bit: 0, 0.5, 1, 1.5, 2, 3, 4, 6. A byte holds two; this is
 * the low nibble's (the even element's). */
static double decode_e2m1x2(const uint8_t *p)
{
    static const double MAGNITUDE[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    return (p[0] & 0x8 ? -1 : 1) * MAGNITUDE[p[0] & 0x7];
}

/* An IEEE-style binary format of `mant` mantissa bits and a 5-bit exponent
 * (bias 15, all ones for Inf/NaN): e5m2 and fp16. */
static double decode_half_like(unsigned v, unsigned bits, unsigned mant)
{
    unsigned s = v >> (bits - 1), e = (v >> mant) & 31, m = v & ((1u << mant) - 1);
    double frac = (double)m / (double)(1u << mant);
    double x = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1.0 + frac, (int)e - 15) : ldexp(frac, -14);
    return s ? -x : x;
}
static double decode_e5m2(const uint8_t *p) { return decode_half_like(p[0], 8, 2); }
static double decode_f16(const uint8_t *p) { return decode_half_like((unsigned)(p[0] | p[1] << 8), 16, 10); }
static double decode_f32(const uint8_t *p)
{
    float f;
    memcpy(&f, p, sizeof f);
    return f;
}

static const struct elem_row {
    const char *name;
    unsigned size;
    unsigned kind, scale_kind; /* the predicate kind for values and for scales */
    double (*decode)(const uint8_t *p);
} ELEMS[] = {
    [KVC_ELEM_E4M3] = {"e4m3", 1, KVC_KIND_E4M3, KVC_KIND_E4M3, decode_e4m3},
    [KVC_ELEM_E5M2] = {"e5m2", 1, KVC_KIND_E5M2, KVC_KIND_E5M2, decode_e5m2},
    [KVC_ELEM_BF16] = {"bf16", 2, KVC_KIND_BF16, KVC_KIND_BF16, decode_bf16},
    [KVC_ELEM_F16] = {"fp16", 2, KVC_KIND_F16, KVC_KIND_F16, decode_f16},
    [KVC_ELEM_F32] = {"fp32", 4, KVC_KIND_F32, KVC_KIND_F32_SCALE, decode_f32},
    [KVC_ELEM_UE8M0] = {"ue8m0", 1, KVC_KIND_UE8M0, KVC_KIND_UE8M0, decode_ue8m0},
    [KVC_ELEM_PAD] = {"pad", 1, KVC_KIND_PAD, KVC_KIND_PAD, decode_pad},
    /* every E2M1 code is a finite value: nothing to judge (kvc_predicates.h) */
    [KVC_ELEM_E2M1X2] = {"e2m1x2", 1, KVC_KIND_PAD, KVC_KIND_PAD, decode_e2m1x2},
};

static const struct elem_row *row(kvc_elem elem)
{
    return (unsigned)elem < COUNT_OF(ELEMS) ? &ELEMS[elem] : NULL;
}

const char *kvc_elem_name(kvc_elem elem) { return row(elem) ? row(elem)->name : "?"; }

unsigned kvc_elem_size(kvc_elem elem) { return row(elem) ? row(elem)->size : 0; }

unsigned field_kind(const kvc_field *f)
{
    const struct elem_row *e = row(f->elem);
    if (!e) return KVC_KIND_PAD;
    return f->scale ? e->scale_kind : e->kind;
}

double elem_decode(kvc_elem elem, const uint8_t *p) { return row(elem) ? row(elem)->decode(p) : 0; }

/* Which checks a kind of field is judged by: a range of kvc_check values. */
static const struct kind_checks {
    kvc_check first, last;
} KIND_CHECKS[] = {
    [KVC_KIND_E4M3] = {KVC_CHECK_E4M3_NAN, KVC_CHECK_E4M3_NAN},
    [KVC_KIND_E5M2] = {KVC_CHECK_E5M2_NAN, KVC_CHECK_E5M2_INF},
    [KVC_KIND_BF16] = {KVC_CHECK_BF16_NAN, KVC_CHECK_BF16_NEG_INF},
    [KVC_KIND_F16] = {KVC_CHECK_FP16_NAN, KVC_CHECK_FP16_NEG_INF},
    [KVC_KIND_F32] = {KVC_CHECK_FP32_NAN, KVC_CHECK_FP32_NEG_INF},
    [KVC_KIND_F32_SCALE] = {KVC_CHECK_SCALE_NAN, KVC_CHECK_SCALE_OUT_OF_RANGE},
    [KVC_KIND_UE8M0] = {KVC_CHECK_UE8M0_NAN, KVC_CHECK_UE8M0_NAN},
};

int kind_judged_by(unsigned kind, kvc_check c)
{
    /* kinds past the table (padding, mixed chunks) are judged by nothing */
    return kind < COUNT_OF(KIND_CHECKS) && c >= KIND_CHECKS[kind].first && c <= KIND_CHECKS[kind].last;
}
