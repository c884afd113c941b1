/* The scanners' bit predicates, exhaustively: every e4m3, e5m2 and UE8M0
 * byte, every bf16 and fp16 code, the FP32 special values, and the
 * word-wide filters against the per-element classifiers in every lane. */
#include "support.h"

#include <math.h>
#include <string.h>

static const kvc_scale_rules ANY = {0, 0, 0, 0};

/* An IEEE-style binary format by its definition: a sign bit, then `exp_bits`
 * exponent bits with `bias`, then `mant_bits` mantissa bits. Exponent all
 * ones is Inf when the mantissa is 0 and NaN otherwise; exponent 0 is
 * subnormal (no implicit 1, the exponent of 1). Written out here, apart
 * from the library's decoder and predicates, which the tests check against it. */
typedef struct binary_format {
    unsigned exp_bits, mant_bits;
    int bias;
} binary_format;
static const binary_format E5M2 = {5, 2, 15}, FP16 = {5, 10, 15};

static int check_by_definition(binary_format f, unsigned code, int nan, int pos_inf, int neg_inf)
{
    unsigned ones = (1u << f.exp_bits) - 1, e = (code >> f.mant_bits) & ones, m = code & ((1u << f.mant_bits) - 1);
    if (e != ones) return KVC_CHECK_OK;
    if (m) return nan;
    return (code >> (f.exp_bits + f.mant_bits)) & 1 ? neg_inf : pos_inf;
}

static double value_by_definition(binary_format f, unsigned code)
{
    unsigned ones = (1u << f.exp_bits) - 1, e = (code >> f.mant_bits) & ones, m = code & ((1u << f.mant_bits) - 1);
    double v = e == ones ? (m ? NAN : INFINITY)
               : e == 0  ? ldexp((double)m, 1 - f.bias - (int)f.mant_bits)
                         : ldexp((double)((1u << f.mant_bits) + m), (int)e - f.bias - (int)f.mant_bits);
    return (code >> (f.exp_bits + f.mant_bits)) & 1 ? -v : v;
}

/* The decoder gives the definition's value: NaN for NaN, the same number
 * (sign of zero included) otherwise. */
static void expect_decoded(kvc_elem elem, const uint8_t *p, double want, unsigned code)
{
    double got = elem_decode(elem, p);
    if (isnan(want) ? !isnan(got) : got != want || !!signbit(got) != !!signbit(want))
        fail_msg("%s code 0x%x decodes to %g, by definition %g", kvc_elem_name(elem), code, got, want);
}

/* E4M3FN by the OCP FP8 definition: NaN is exponent 1111 with mantissa
 * 111, and there is no Inf; every other code is a finite number. */
static int e4m3_nan_by_definition(unsigned c) { return ((c >> 3) & 15) == 15 && (c & 7) == 7; }

static void test_predicates__every_e4m3_code(void **state)
{
    (void)state;
    unsigned nans = 0;
    for (unsigned c = 0; c < 256; c++) {
        uint8_t b = (uint8_t)c;
        int want = e4m3_nan_by_definition(c) ? KVC_CHECK_E4M3_NAN : KVC_CHECK_OK;
        assert_int_equal(!!isnan(elem_decode(KVC_ELEM_E4M3, &b)), want == KVC_CHECK_E4M3_NAN);
        assert_int_equal(kvc_classify_e4m3(b), want);
        nans += want == KVC_CHECK_E4M3_NAN;
    }
    assert_int_equal(nans, 2); /* 0x7F and 0xFF only: E4M3FN has no Inf */
    uint8_t max = 0x7E, neg_zero = 0x80;
    assert_true(elem_decode(KVC_ELEM_E4M3, &max) == 448.0);
    assert_true(elem_decode(KVC_ELEM_E4M3, &neg_zero) == 0.0 && signbit(elem_decode(KVC_ELEM_E4M3, &neg_zero)));
}

static void test_predicates__every_e5m2_and_ue8m0_code(void **state)
{
    (void)state;
    unsigned inf = 0, nan = 0;
    for (unsigned c = 0; c < 256; c++) {
        uint8_t b = (uint8_t)c;
        int want = check_by_definition(E5M2, c, KVC_CHECK_E5M2_NAN, KVC_CHECK_E5M2_INF, KVC_CHECK_E5M2_INF);
        assert_int_equal(kvc_classify_e5m2(b), want);
        expect_decoded(KVC_ELEM_E5M2, &b, value_by_definition(E5M2, c), c);
        inf += want == KVC_CHECK_E5M2_INF;
        nan += want == KVC_CHECK_E5M2_NAN;
        assert_int_equal(kvc_classify_ue8m0(b), c == 0xFF ? KVC_CHECK_UE8M0_NAN : KVC_CHECK_OK);
        if (c < 0xFF) assert_true(elem_decode(KVC_ELEM_UE8M0, &b) == ldexp(1.0, (int)c - 127));
    }
    assert_int_equal(inf, 2);
    assert_int_equal(nan, 6);
    /* the definition itself, at values the format is known by */
    assert_true(value_by_definition(E5M2, 0x7B) == 57344.0);     /* largest finite */
    assert_true(value_by_definition(E5M2, 0x04) == ldexp(1, -14)); /* smallest normal */
    assert_true(value_by_definition(E5M2, 0x01) == ldexp(1, -16)); /* smallest subnormal */
    assert_true(value_by_definition(E5M2, 0xBC) == -1.0);
}

/* FP4 E2M1 (two to a byte): every one of the 256 bytes is two finite values,
 * so nothing in it is damage; a byte decodes to its low nibble's value
 * (sign, 2 exponent bits with bias 1, 1 mantissa bit). */
static void test_predicates__every_e2m1x2_byte_is_two_finite_values(void **state)
{
    (void)state;
    kvc_field f = {.elem = KVC_ELEM_E2M1X2};
    unsigned kind = field_kind(&f);
    assert_int_equal(kind, KVC_KIND_PAD);
    for (int c = 0; c < KVC_CHECK_COUNT; c++) assert_false(kind_judged_by(kind, (kvc_check)c));
    f.scale = 1; /* were it called a scale, still nothing to judge */
    assert_int_equal(field_kind(&f), KVC_KIND_PAD);
    for (unsigned c = 0; c < 256; c++) {
        uint8_t b[4] = {(uint8_t)c}; /* kvc_classify may read as wide as an FP32 */
        assert_int_equal(kvc_classify(kind, b, &ANY), KVC_CHECK_OK);
        unsigned e = (c >> 1) & 3, m = c & 1;
        double v = e ? ldexp(1.0 + m / 2.0, (int)e - 1) : m / 2.0;
        if (elem_decode(KVC_ELEM_E2M1X2, b) != (c & 8 ? -v : v))
            fail_msg("0x%02x decodes to %g, by definition %g", c, elem_decode(KVC_ELEM_E2M1X2, b), c & 8 ? -v : v);
    }
    uint64_t any = 0xFFFFFFFFFFFFFFFFull;
    assert_int_equal(kvc_bad_lanes(kind, any), 0);
    uint8_t six = 0x07, minus_half = 0x09;
    assert_true(elem_decode(KVC_ELEM_E2M1X2, &six) == 6.0);
    assert_true(elem_decode(KVC_ELEM_E2M1X2, &minus_half) == -0.5);
}

static void test_predicates__every_bf16_and_fp16_code(void **state)
{
    (void)state;
    unsigned bad_bf16 = 0, bad_f16 = 0;
    for (unsigned h = 0; h < 65536; h++) {
        uint8_t p[2] = {(uint8_t)h, (uint8_t)(h >> 8)};
        /* bf16 is the top half of an FP32: decode by widening, independent of the predicate */
        uint32_t u = h << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        int want = isnan(f) ? KVC_CHECK_BF16_NAN : isinf(f) ? (f > 0 ? KVC_CHECK_BF16_POS_INF : KVC_CHECK_BF16_NEG_INF)
                                                           : KVC_CHECK_OK;
        assert_int_equal(kvc_classify_bf16((uint16_t)h), want);
        assert_int_equal(kvc_classify(KVC_KIND_BF16, p, &ANY), want);
        bad_bf16 += want != KVC_CHECK_OK;
        want = check_by_definition(FP16, h, KVC_CHECK_FP16_NAN, KVC_CHECK_FP16_POS_INF, KVC_CHECK_FP16_NEG_INF);
        assert_int_equal(kvc_classify_f16((uint16_t)h), want);
        assert_int_equal(kvc_classify(KVC_KIND_F16, p, &ANY), want);
        expect_decoded(KVC_ELEM_F16, p, value_by_definition(FP16, h), h);
        bad_f16 += want != KVC_CHECK_OK;
    }
    assert_int_equal(bad_bf16, 2 * 128); /* exponent all ones: 2 signs x 128 mantissas */
    assert_int_equal(bad_f16, 2 * 1024);
    assert_true(value_by_definition(FP16, 0x7BFF) == 65504.0); /* largest finite */
    assert_true(value_by_definition(FP16, 0x3C00) == 1.0);
    assert_true(value_by_definition(FP16, 0x0001) == ldexp(1, -24)); /* smallest subnormal */
    assert_true(isinf(value_by_definition(FP16, 0xFC00)) && value_by_definition(FP16, 0xFC00) < 0);
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void test_predicates__fp32_scales_and_values(void **state)
{
    (void)state;
    static const struct {
        uint32_t u;
        int scale, value;
    } CASES[] = {
        {0x7FC00000, KVC_CHECK_SCALE_NAN, KVC_CHECK_FP32_NAN},
        {0xFFC00000, KVC_CHECK_SCALE_NAN, KVC_CHECK_FP32_NAN},
        {0x7F800001, KVC_CHECK_SCALE_NAN, KVC_CHECK_FP32_NAN}, /* signalling */
        {0x7F800000, KVC_CHECK_SCALE_POS_INF, KVC_CHECK_FP32_POS_INF},
        {0xFF800000, KVC_CHECK_SCALE_NEG_INF, KVC_CHECK_FP32_NEG_INF},
        {0x80000000, KVC_CHECK_SCALE_NEGATIVE, KVC_CHECK_OK}, /* -0.0 */
        {0xBF800000, KVC_CHECK_SCALE_NEGATIVE, KVC_CHECK_OK}, /* -1.0 */
        {0x80000001, KVC_CHECK_SCALE_NEGATIVE, KVC_CHECK_OK}, /* negative denormal */
        {0xFF7FFFFF, KVC_CHECK_SCALE_NEGATIVE, KVC_CHECK_OK}, /* -FLT_MAX */
        {0x00000000, KVC_CHECK_SCALE_ZERO, KVC_CHECK_OK},
        {0x00000001, KVC_CHECK_SCALE_DENORMAL, KVC_CHECK_OK},
        {0x007FFFFF, KVC_CHECK_SCALE_DENORMAL, KVC_CHECK_OK},
        {0x00800000, KVC_CHECK_OK, KVC_CHECK_OK}, /* FLT_MIN */
        {0x7F7FFFFF, KVC_CHECK_OK, KVC_CHECK_OK}, /* FLT_MAX */
        {0x3F800000, KVC_CHECK_OK, KVC_CHECK_OK},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        assert_int_equal(kvc_classify_scale(CASES[i].u, &ANY), CASES[i].scale);
        assert_int_equal(kvc_classify_f32(CASES[i].u), CASES[i].value);
    }
}

static void test_predicates__scale_policies(void **state)
{
    (void)state;
    kvc_scale_rules pow2 = {1, 0, 0, 0};
    assert_int_equal(kvc_classify_scale(bits(0.0078125f), &pow2), KVC_CHECK_OK);     /* 2^-7 */
    assert_int_equal(kvc_classify_scale(bits(0.0125322f), &pow2), KVC_CHECK_SCALE_NOT_POW2);
    assert_int_equal(kvc_classify_scale(bits(-0.5f), &pow2), KVC_CHECK_SCALE_NEGATIVE); /* sign first */
    kvc_scale_rules range = {0, 1, bits(1e-3f), bits(1e-2f)};
    assert_int_equal(kvc_classify_scale(bits(1e-3f), &range), KVC_CHECK_OK); /* inclusive */
    assert_int_equal(kvc_classify_scale(bits(1e-2f), &range), KVC_CHECK_OK);
    assert_int_equal(kvc_classify_scale(bits(0.5f), &range), KVC_CHECK_SCALE_OUT_OF_RANGE);
    assert_int_equal(kvc_classify_scale(bits(1e-4f), &range), KVC_CHECK_SCALE_OUT_OF_RANGE);
    assert_int_equal(kvc_classify_scale(0, &range), KVC_CHECK_SCALE_ZERO);
}

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

/* A random element of `kind` that passes, for the other lanes. */
static uint32_t good(unsigned kind, uint64_t *s)
{
    for (;;) {
        uint32_t v = (uint32_t)rng(s);
        uint8_t p[4];
        memcpy(p, &v, 4);
        if (kvc_classify(kind, p, &ANY) == KVC_CHECK_OK) return v;
    }
}

static void test_predicates__word_filters_flag_exactly_the_bad_lanes(void **state)
{
    (void)state;
    static const unsigned KINDS[] = {KVC_KIND_E4M3, KVC_KIND_E5M2, KVC_KIND_BF16, KVC_KIND_F16,
                                     KVC_KIND_F32,  KVC_KIND_UE8M0, KVC_KIND_F32_SCALE};
    uint64_t s = 42;
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++) {
        unsigned kind = KINDS[k], size = kvc_kind_size(kind), lanes = 8 / size;
        uint64_t codes = size == 4 ? 1u << 20 : 1ull << (8 * size); /* fp32: a sample of 2^20 codes */
        for (uint64_t c = 0; c < codes; c++) {
            uint32_t code = size == 4 ? (c < 64 ? (uint32_t)(0x7F7FFFE0u + c * 0x00200000u) : (uint32_t)rng(&s)) : (uint32_t)c;
            for (unsigned lane = 0; lane < lanes; lane++) {
                uint8_t w[8];
                for (unsigned l = 0; l < lanes; l++) {
                    uint32_t v = l == lane ? code : good(kind, &s);
                    memcpy(w + l * size, &v, size);
                }
                unsigned bad = 0;
                for (unsigned l = 0; l < lanes; l++) bad += kvc_classify(kind, w + l * size, &ANY) != KVC_CHECK_OK;
                uint64_t word;
                memcpy(&word, w, 8);
                uint64_t m = kind == KVC_KIND_F32_SCALE ? kvc_bad_scale_lanes(word, &ANY) : kvc_bad_lanes(kind, word);
                if ((unsigned)__builtin_popcountll(m) != bad)
                    fail_msg("kind %u code 0x%x lane %u: filter flags %d lanes, classifier %u", kind, code, lane,
                             __builtin_popcountll(m), bad);
            }
        }
    }
}

static void test_predicates__check_names_are_pinned(void **state)
{
    (void)state;
    assert_string_equal(kvc_check_name(KVC_CHECK_E4M3_NAN), "e4m3_nan");
    assert_string_equal(kvc_check_name(KVC_CHECK_SCALE_NEGATIVE), "scale_negative");
    assert_string_equal(kvc_check_name(KVC_CHECK_UE8M0_NAN), "ue8m0_nan");
    assert_int_equal(KVC_CHECK_SCALE_NEGATIVE, 15);
    assert_int_equal(KVC_CHECK_COUNT, 21);
    assert_string_equal(kvc_check_name(KVC_CHECK_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predicates__every_e4m3_code),
        cmocka_unit_test(test_predicates__every_e5m2_and_ue8m0_code),
        cmocka_unit_test(test_predicates__every_e2m1x2_byte_is_two_finite_values),
        cmocka_unit_test(test_predicates__every_bf16_and_fp16_code),
        cmocka_unit_test(test_predicates__fp32_scales_and_values),
        cmocka_unit_test(test_predicates__scale_policies),
        cmocka_unit_test(test_predicates__word_filters_flag_exactly_the_bad_lanes),
        cmocka_unit_test(test_predicates__check_names_are_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
