/* kvcheck simulate on the CPU: the GLM-5.2 pair garbles decode's read-back
 * before the fix and reads back exactly after it; a larger prefill page runs
 * past decode's buffer; the same seed gives the same results. */
#include "support.h"

#include "kvc_simulate.h"

#include <math.h>
#include <string.h>

static void test_simulate__glm52_before_the_fix_reads_garbage(void **state)
{
    (void)state;
    kvc_simulation *s = simulate_pair("glm52-b300-hisparse-mtp", KVC_DEVICE_CPU, 2048, 1);
    assert_false(s->compatible);
    assert_string_equal(s->prefill.kv.name, "fp8_raw");
    assert_string_equal(s->decode.kv.name, "fp8_flashmla");
    assert_true(s->scan->counts[KVC_CHECK_SCALE_NEGATIVE] > 0); /* e4m3 bytes read as FP32 scales */
    assert_true(s->values_differ > s->tokens * 500);
    assert_int_equal(s->garbled_pages, s->decode_pages);
    assert_int_equal(s->overrun_bytes, 0); /* prefill's pages are smaller: the tail is never written */
    assert_int_equal(s->unwritten_bytes, s->decode_pages * (41984 - 36864));
    assert_true(s->decoded[0].max_abs_error > 1e6 || s->decoded[0].nonfinite > 0);
    char *text = kvc_report_simulate(s, KVC_FORMAT_TEXT, 0);
    assert_contains(text, "INCOMPATIBLE: decode reads back");
    assert_contains(text, "scale_negative");
    kvc_free(text);
    kvc_simulation_free(s);
}

static void test_simulate__glm52_after_the_fix_reads_back_what_prefill_wrote(void **state)
{
    (void)state;
    kvc_simulation *s = simulate_pair("glm52-b300-hisparse-mtp-fixed", KVC_DEVICE_CPU, 2048, 1);
    assert_true(s->compatible);
    assert_int_equal(s->values_differ, 0);
    assert_int_equal(s->garbled_pages, 0);
    for (int p = 0; p < 2; p++) {
        assert_true(s->decoded[p].max_abs_error == s->written[p].max_abs_error);
        assert_true(s->decoded[p].mean_abs_error == s->written[p].mean_abs_error);
        assert_int_equal(s->decoded[p].nonfinite, s->written[p].nonfinite);
    }
    /* FP8 with amax/448 scales: the error of a value is at most half a step of its block's largest */
    assert_true(s->written[0].mean_abs_error < 0.05);
    assert_true(s->written[1].max_abs_error == 0); /* RoPE is bf16 both ways */
    /* all-zero blocks are NaN in what prefill itself wrote (SGLang's writer, no epsilon): reported, not blamed */
    assert_int_equal(s->written[0].nonfinite, s->zero_blocks * 128);
    if (s->zero_blocks) assert_contains(s->notes[0], "all-zero 128-value NoPE block");
    kvc_simulation_free(s);
}

static void test_simulate__a_larger_prefill_page_runs_past_decodes_buffer(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("H200", "glm-5.2", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
    kvc_worker *d = worker_make("B300", "glm-5.2", "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3");
    kvc_simulate_options o;
    kvc_simulate_options_init(&o);
    o.tokens = 640;
    o.device = KVC_DEVICE_CPU;
    kvc_simulation *s = NULL;
    kvc_diag diag;
    assert_int_equal(kvc_simulate(p, d, &o, &s, &diag), KVC_OK);
    assert_string_equal(s->prefill.kv.name, "fp8_flashmla");
    assert_string_equal(s->decode.kv.name, "fp8_raw");
    assert_int_equal(s->overrun_bytes, 10 * (41984 - 36864));
    assert_false(s->compatible);
    char *text = kvc_report_simulate(s, KVC_FORMAT_TEXT, 0);
    assert_contains(text, "bytes would land past its end");
    kvc_free(text);
    kvc_simulation_free(s);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

static void test_simulate__the_same_seed_gives_the_same_results(void **state)
{
    (void)state;
    kvc_simulation *a = simulate_pair("glm52-b300-hisparse-mtp", KVC_DEVICE_CPU, 1500, 7);
    kvc_simulation *b = simulate_pair("glm52-b300-hisparse-mtp", KVC_DEVICE_CPU, 1500, 7);
    kvc_simulation *c = simulate_pair("glm52-b300-hisparse-mtp", KVC_DEVICE_CPU, 1500, 8);
    assert_memory_equal(a->decoded, b->decoded, sizeof a->decoded);
    assert_memory_equal(a->scan->counts, b->scan->counts, sizeof a->scan->counts);
    assert_int_equal(a->values_differ, b->values_differ);
    assert_memory_not_equal(a->scan->counts, c->scan->counts, sizeof a->scan->counts);
    kvc_simulation_free(a);
    kvc_simulation_free(b);
    kvc_simulation_free(c);
}

static void test_simulate__bf16_with_other_backends_is_compatible(void **state)
{
    (void)state;
    kvc_simulation *s = simulate_pair("bf16-different-backends", KVC_DEVICE_CPU, 700, 3);
    assert_true(s->compatible);
    assert_int_equal(s->written[0].max_abs_error, 0); /* the values are bf16 to begin with */
    assert_int_equal(s->scan->damaged, 0);
    kvc_simulation_free(s);
}

/* e4m3 by its definition (sign, 4-bit exponent with bias 7, 3-bit mantissa). */
static double e4m3_by_definition(unsigned c)
{
    unsigned e = (c >> 3) & 15, m = c & 7;
    double v = e ? ldexp(1.0 + m / 8.0, (int)e - 7) : ldexp(m / 8.0, -6);
    return (c & 0x80) ? -v : v;
}

static void test_simulate__e4m3_encoder_rounds_to_nearest_even_and_saturates(void **state)
{
    (void)state;
    for (unsigned c = 0; c < 256; c++) { /* every finite code decodes and round-trips */
        if ((c & 0x7F) == 0x7F) continue;
        float v = kvc_float_of_e4m3((uint8_t)c);
        assert_true(v == e4m3_by_definition(c));
        if (c != 0x80) assert_int_equal(kvc_e4m3_of(v), c);
    }
    assert_int_equal(kvc_e4m3_of(1000.0f), 0x7E);   /* saturates at 448 */
    assert_int_equal(kvc_e4m3_of(-1000.0f), 0xFE);
    assert_int_equal(kvc_e4m3_of(NAN), 0x7F);       /* 0/0 of an all-zero block */
    assert_int_equal(kvc_e4m3_of(1.0625f), 0x38);   /* halfway between 1 and 1.125: to even */
    assert_int_equal(kvc_e4m3_of(1.1875f), 0x3A);   /* halfway between 1.125 and 1.25: to even */
    assert_int_equal(kvc_bf16_of(1.00390625f), 0x3F80); /* halfway: to even */
}

static void test_simulate__bad_token_counts_are_usage_errors(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("B300", "glm-5.2", NULL), *d = worker_make("B300", "glm-5.2", NULL);
    kvc_simulate_options o;
    kvc_simulate_options_init(&o);
    o.tokens = 0;
    kvc_simulation *s = NULL;
    kvc_diag diag;
    assert_int_equal(kvc_simulate(p, d, &o, &s, &diag), KVC_ERR_USAGE);
    assert_null(s);
    assert_string_equal(diag.where, "--tokens");
    kvc_worker_free(p);
    kvc_worker_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulate__glm52_before_the_fix_reads_garbage),
        cmocka_unit_test(test_simulate__glm52_after_the_fix_reads_back_what_prefill_wrote),
        cmocka_unit_test(test_simulate__a_larger_prefill_page_runs_past_decodes_buffer),
        cmocka_unit_test(test_simulate__the_same_seed_gives_the_same_results),
        cmocka_unit_test(test_simulate__bf16_with_other_backends_is_compatible),
        cmocka_unit_test(test_simulate__e4m3_encoder_rounds_to_nearest_even_and_saturates),
        cmocka_unit_test(test_simulate__bad_token_counts_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
