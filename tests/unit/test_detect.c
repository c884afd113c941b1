/* kvcheck detect on generated pages: every catalogue layout is recognised
 * from 64 pages whatever the seed, a 576-byte dump read as 656 is fp8_raw,
 * random and zero bytes are "unknown", and large inputs are sampled. */
#include "support.h"

#include "kvgen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static kvc_detection *detect(const uint8_t *buf, size_t bytes, uint32_t page_size)
{
    static kvc_detection *last; /* the previous call's, freed by the next */
    kvc_detection_free(last);
    last = NULL;
    kvc_diag diag;
    kvc_layout_params p = *layout_default_params();
    p.page_size = page_size;
    if (kvc_detect_host(buf, bytes, &p, &last, &diag) != KVC_OK) fail_msg("%s", diag.message);
    return last;
}

static void test_detect__every_layout_from_64_generated_pages(void **state)
{
    (void)state;
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout l = layout_of(kvc_layout_catalogue(i), 64);
        if (!layout_values_judged(&l)) continue; /* test_detect__never_names_a_layout_it_cannot_judge */
        uint8_t *buf = malloc(64 * l.page_bytes);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            kvgen_pages(&l, 64, 1000 * seed + i, buf);
            kvc_detection *d = detect(buf, 64 * l.page_bytes, 0);
            if (strcmp(d->best, l.name) != 0)
                fail_msg("%s (seed %llu) detected as %s (%.2f); %s scored %.2f", l.name, (unsigned long long)seed,
                         d->best, d->confidence, d->candidates[1].layout, d->candidates[1].score);
            assert_true(d->confidence >= 0.25);
            assert_true(d->candidates[0].fits);
            assert_true(d->candidates[0].nfor >= 1);
        }
        free(buf);
    }
}

/* FP4 pairs take any byte, and a scale buffer alone has no values: detect
 * leaves such layouts out rather than name them for any bytes at all. */
static void test_detect__never_names_a_layout_it_cannot_judge(void **state)
{
    (void)state;
    kvc_layout fp4 = layout_of("fp4_mx16", 64);
    uint8_t *buf = malloc(64 * fp4.page_bytes);
    kvgen_pages(&fp4, 64, 5, buf);
    kvc_detection *d = detect(buf, 64 * fp4.page_bytes, 0);
    for (unsigned i = 0; i < d->ncandidates; i++) {
        assert_string_not_equal(d->candidates[i].layout, "fp4_mx16");
        assert_string_not_equal(d->candidates[i].layout, "fp4_mx16_scales");
    }
    free(buf);
}

static void test_detect__a_576_byte_dump_read_as_656_is_fp8_raw(void **state)
{
    (void)state;
    kvc_layout raw = layout_of("fp8_raw", 64), scaled = layout_of("fp8_flashmla", 64);
    /* 41 pages of 576-byte rows are exactly 36 pages of 656: both fit */
    uint8_t *buf = malloc(41 * raw.page_bytes);
    kvgen_pages(&raw, 41, 77, buf);
    kvc_detection *d = detect(buf, 41 * raw.page_bytes, 0);
    assert_string_equal(d->best, "fp8_raw");
    const kvc_candidate *flashmla = NULL;
    for (unsigned i = 0; i < d->ncandidates; i++)
        if (strcmp(d->candidates[i].layout, "fp8_flashmla") == 0) flashmla = &d->candidates[i];
    assert_non_null(flashmla);
    assert_true(flashmla->fits);
    assert_true(flashmla->score < 0.05);
    assert_true(flashmla->nagainst >= 1);
    assert_contains(flashmla->evidence_against[0], "scales are negative, zero, denormal or not finite");
    free(buf);
    /* and in decode's buffer after the transfer: prefill's rows from the start, the rest unwritten */
    buf = malloc(8 * scaled.page_bytes);
    kvgen_transfer(&raw, &scaled, 8, 78, buf);
    d = detect(buf, 8 * scaled.page_bytes, 0);
    assert_string_equal(d->best, "fp8_raw");
    free(buf);
}

static void test_detect__random_and_zero_bytes_are_unknown(void **state)
{
    (void)state;
    const size_t bytes = 64 * 41984;
    uint8_t *buf = calloc(1, bytes);
    kvc_detection *d = detect(buf, bytes, 0);
    assert_string_equal(d->best, "unknown");
    assert_contains(d->candidates[0].evidence_against[d->candidates[0].nagainst - 1], "zero");
    uint64_t s = 12345;
    for (size_t i = 0; i < bytes; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = (uint8_t)(s >> 56);
    }
    d = detect(buf, bytes, 0);
    assert_string_equal(d->best, "unknown");
    assert_true(d->candidates[0].score < 0.5);
    free(buf);
}

static void test_detect__large_inputs_are_sampled(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 300;
    uint8_t *buf = malloc(pages * l.page_bytes);
    kvgen_pages_repeated(&l, pages, 4, 5, buf);
    kvc_detection *d = detect(buf, pages * l.page_bytes, 64);
    assert_string_equal(d->best, "fp8_flashmla");
    assert_int_equal(d->pages_sampled, 64);
    assert_int_equal(d->bytes, pages * l.page_bytes);
    free(buf);
}

static void test_detect__page_size_one_when_64_does_not_fit(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 1);
    uint8_t *buf = malloc(1000 * l.page_bytes); /* 1000 tokens: not whole pages of 64 of anything */
    kvgen_pages(&l, 1000, 9, buf);
    kvc_detection *d = detect(buf, 1000 * l.page_bytes, 0);
    assert_string_equal(d->best, "fp8_flashmla");
    assert_int_equal(d->candidates[0].page_size, 1);
    free(buf);
}

static void test_detect__scan_says_what_damaged_bytes_look_like(void **state)
{
    (void)state;
    kvc_layout raw = layout_of("fp8_raw", 64), scaled = layout_of("fp8_flashmla", 64);
    uint8_t *buf = malloc(8 * scaled.page_bytes);
    kvgen_transfer(&raw, &scaled, 8, 79, buf);
    const char *path = temp_data_file(".bin", buf, 8 * scaled.page_bytes);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    kvc_scan_report *r;
    kvc_diag d;
    assert_int_equal(kvc_scan_files(&path, 1, &scaled, &o, &r, &d), KVC_OK);
    assert_false(r->clean);
    assert_string_equal(r->looks_like, "fp8_raw");
    assert_int_equal(r->looks_like_bytes_per_token, 576);
    char *text = kvc_report_scan(r, KVC_FORMAT_TEXT, 0);
    assert_contains(text, "these pages look like fp8_raw, 576 B/token");
    assert_contains(text, "you asked for fp8_flashmla, 656 B/token");
    kvc_free(text);
    kvc_scan_report_free(r);
    unlink(path);
    /* damage in the right layout: no other layout to suggest */
    kvgen_pages(&scaled, 8, 80, buf);
    kvgen_plant plants[64];
    kvgen_plant_damage(&scaled, buf, 8, plants, 64);
    path = temp_data_file(".bin", buf, 8 * scaled.page_bytes);
    assert_int_equal(kvc_scan_files(&path, 1, &scaled, &o, &r, &d), KVC_OK);
    assert_false(r->clean);
    assert_string_equal(r->looks_like, "");
    kvc_scan_report_free(r);
    unlink(path);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect__every_layout_from_64_generated_pages),
        cmocka_unit_test(test_detect__never_names_a_layout_it_cannot_judge),
        cmocka_unit_test(test_detect__a_576_byte_dump_read_as_656_is_fp8_raw),
        cmocka_unit_test(test_detect__random_and_zero_bytes_are_unknown),
        cmocka_unit_test(test_detect__large_inputs_are_sampled),
        cmocka_unit_test(test_detect__page_size_one_when_64_does_not_fit),
        cmocka_unit_test(test_detect__scan_says_what_damaged_bytes_look_like),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
