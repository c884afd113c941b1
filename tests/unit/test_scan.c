/* The CPU scanner end to end on generated pages: clean pages of every
 * catalogue layout are clean, planted damage is found exactly (every plant,
 * nothing else, in input order), and page lists, finding limits, policies
 * and thread counts do what they say. */
#include "support.h"

#include "kvgen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGES 6

static kvc_scan_report *scan(const kvc_layout *l, const uint8_t *buf, uint64_t pages, const kvc_scan_options *o)
{
    kvc_scan_options cpu;
    if (!o) kvc_scan_options_init(&cpu), o = &cpu;
    kvc_scan_options copy = *o;
    copy.device = KVC_DEVICE_CPU;
    kvc_scan_report *r = NULL;
    kvc_diag d;
    if (kvc_scan_host(buf, pages * l->page_bytes, l, &copy, &r, &d) != KVC_OK) fail_msg("scan: %s", d.message);
    return r;
}

/* FORMATS.md's byte maps at kv_lora_rank 512, qk_rope_head_dim 64,
 * index_head_dim 128 and 64 tokens a page, written out from its table and
 * not from the layout code under test (nor from the generator, which
 * places its damage by that code): element e of token t of a field lies at
 * base + t x stride + e x size within its page. */
static const struct formats_md {
    const char *layout;
    uint64_t page_bytes;
    struct {
        const char *field;
        uint64_t base, stride;
        unsigned size;
    } f[3];
} FORMATS_MD[] = {
    {"bf16", 64 * 1152, {{"nope", 0, 1152, 2}, {"rope", 1024, 1152, 2}}},
    {"fp8_raw", 64 * 576, {{"nope", 0, 576, 1}, {"rope", 512, 576, 1}}},
    {"fp8_flashmla", 64 * 656, {{"nope", 0, 656, 1}, {"scale", 512, 656, 4}, {"rope", 528, 656, 2}}},
    {"dsa_indexer", 8448, {{"k", 0, 128, 1}, {"scale", 128 * 64, 4, 4}}},
    /* rows of 448 e4m3 NoPE + 64 bf16 RoPE, then 7 UE8M0 scales + 1 pad byte a
     * token, the page padded to whole 576-byte rows: 65 x 576 */
    {"model1_fp8", 65 * 576, {{"nope", 0, 576, 1}, {"rope", 448, 576, 2}, {"scale", 64 * 576, 8, 1}}},
};

/* Where FORMATS.md puts a finding's bytes in a buffer of pages; 0 with *known
 * unset when it does not map that layout. */
static uint64_t formats_md_offset(const kvc_layout *l, const char *field, uint64_t page, uint64_t slot,
                                  uint32_t element, int *known)
{
    *known = 0;
    for (size_t i = 0; i < sizeof FORMATS_MD / sizeof FORMATS_MD[0]; i++) {
        const struct formats_md *m = &FORMATS_MD[i];
        if (strcmp(m->layout, l->name) != 0) continue;
        assert_int_equal(l->page_bytes, m->page_bytes);
        for (size_t k = 0; k < 3 && m->f[k].field; k++)
            if (strcmp(m->f[k].field, field) == 0) {
                *known = 1;
                return page * m->page_bytes + m->f[k].base + slot * m->f[k].stride + element * m->f[k].size;
            }
        fail_msg("%s: FORMATS.md has no field %s", l->name, field);
    }
    return 0;
}

/* PAGES generated pages of `l` with damage of every kind planted (at most
 * 64 elements, listed in `plants`); free with free(). */
static uint8_t *planted_pages(const kvc_layout *l, uint64_t seed, kvgen_plant plants[64], size_t *n)
{
    uint8_t *buf = malloc(PAGES * l->page_bytes);
    assert_non_null(buf);
    kvgen_pages(l, PAGES, seed, buf);
    *n = kvgen_plant_damage(l, buf, PAGES, plants, 64);
    return buf;
}

static void test_scan__clean_pages_of_every_layout_are_clean(void **state)
{
    (void)state;
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout l = layout_of(kvc_layout_catalogue(i), 64);
        uint8_t *buf = malloc(PAGES * l.page_bytes);
        kvgen_pages(&l, PAGES, 100 + i, buf);
        kvc_scan_report *r = scan(&l, buf, PAGES, NULL);
        if (!r->clean) fail_msg("%s: clean pages reported %llu damaged", l.name, (unsigned long long)r->damaged);
        assert_int_equal(r->pages_scanned, PAGES);
        assert_int_equal(r->bytes_scanned, PAGES * l.page_bytes);
        assert_string_equal(r->device, "cpu");
        kvc_scan_report_free(r);
        free(buf);
    }
}

static void test_scan__planted_damage_is_found_exactly_in_every_layout(void **state)
{
    (void)state;
    unsigned mapped = 0; /* plants whose place FORMATS.md gives */
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout l = layout_of(kvc_layout_catalogue(i), 64);
        kvgen_plant plants[64];
        size_t n;
        uint8_t *buf = planted_pages(&l, 200 + i, plants, &n);
        assert_true(n >= 1 || strcmp(l.name, "fp4_mx16") == 0); /* FP4 values alone: no code is damage */
        kvc_scan_options o;
        kvc_scan_options_init(&o);
        o.max_findings = 64;
        kvc_scan_report *r = scan(&l, buf, PAGES, &o);
        if (r->damaged != n) fail_msg("%s: %zu planted, %llu found", l.name, n, (unsigned long long)r->damaged);
        assert_int_equal(r->nfindings, n);
        uint64_t per_check[KVC_CHECK_COUNT] = {0};
        for (size_t k = 0; k < n; k++) {
            int known;
            uint64_t at = formats_md_offset(&l, plants[k].field, plants[k].page, plants[k].slot, plants[k].element, &known);
            if (known && plants[k].offset != at)
                fail_msg("%s: page %llu token %llu %s[%u] is at byte %llu by FORMATS.md, planted at %llu", l.name,
                         (unsigned long long)plants[k].page, (unsigned long long)plants[k].slot, plants[k].field,
                         plants[k].element, (unsigned long long)at, (unsigned long long)plants[k].offset);
            mapped += known;
            const kvc_finding *f = &r->findings[k];
            if (f->offset != plants[k].offset || f->check != plants[k].check)
                fail_msg("%s finding %zu: offset %llu %s, planted %llu %s", l.name, k, (unsigned long long)f->offset,
                         kvc_check_name(f->check), (unsigned long long)plants[k].offset,
                         kvc_check_name(plants[k].check));
            assert_int_equal(f->page, plants[k].page);
            assert_int_equal(f->slot, plants[k].slot);
            assert_int_equal(f->element, plants[k].element);
            assert_string_equal(f->field, plants[k].field);
            per_check[plants[k].check]++;
        }
        assert_memory_equal(r->counts, per_check, sizeof per_check);
        kvc_scan_report_free(r);
        free(buf);
    }
    assert_true(mapped >= 5 * 2); /* every layout FORMATS.md maps, more than one plant each */
}

/* model1_fp8's padding, where FORMATS.md puts it (byte 7 of each token's 8
 * scale bytes, and the page's tail up to whole 576-byte rows), is never
 * judged, and the bytes beside it are. */
static void test_scan__model1_padding_is_where_formats_md_puts_it(void **state)
{
    (void)state;
    kvc_layout l = layout_of("model1_fp8", 64);
    const uint64_t scales = 64 * 576, tail = scales + 64 * 8, page = 65 * 576;
    assert_int_equal(l.page_bytes, page);
    uint8_t *buf = malloc(2 * page);
    kvgen_pages(&l, 2, 21, buf);
    for (uint64_t p = 0; p < 2; p++) {
        for (uint64_t t = 0; t < 64; t++) buf[p * page + scales + 8 * t + 7] = 0xFF; /* NaN as e4m3 or UE8M0 */
        memset(buf + p * page + tail, 0xFF, page - tail);
    }
    kvc_scan_report *r = scan(&l, buf, 2, NULL);
    if (!r->clean) fail_msg("padding judged: %llu damaged, first at byte %llu", (unsigned long long)r->damaged,
                            (unsigned long long)(r->nfindings ? r->findings[0].offset : 0));
    kvc_scan_report_free(r);
    buf[page + scales + 8 * 5 + 6] = 0xFF; /* page 1, token 5: its last scale, just before its pad byte */
    buf[page + scales - 2] = 0xC0, buf[page + scales - 1] = 0x7F; /* token 63's last RoPE value, before the scales: a bf16 NaN */
    r = scan(&l, buf, 2, NULL);
    assert_int_equal(r->damaged, 2);
    assert_int_equal(r->nfindings, 2);
    assert_int_equal(r->findings[0].offset, page + scales - 2);
    assert_string_equal(r->findings[0].field, "rope");
    assert_int_equal(r->findings[0].slot, 63);
    assert_int_equal(r->findings[0].element, 63);
    assert_int_equal(r->findings[0].check, KVC_CHECK_BF16_NAN);
    assert_int_equal(r->findings[1].offset, page + scales + 8 * 5 + 6);
    assert_string_equal(r->findings[1].field, "scale");
    assert_int_equal(r->findings[1].slot, 5);
    assert_int_equal(r->findings[1].element, 6);
    assert_int_equal(r->findings[1].check, KVC_CHECK_UE8M0_NAN);
    kvc_scan_report_free(r);
    free(buf);
}

static void test_scan__576_byte_rows_read_as_656_show_bad_scales(void **state)
{
    (void)state;
    kvc_layout raw = layout_of("fp8_raw", 64), scaled = layout_of("fp8_flashmla", 64);
    uint8_t *buf = malloc(PAGES * scaled.page_bytes);
    kvgen_transfer(&raw, &scaled, PAGES, 9, buf);
    kvc_scan_report *r = scan(&scaled, buf, PAGES, NULL);
    assert_false(r->clean);
    assert_int_equal(r->bad_pages, PAGES);
    /* what decode takes for scales are prefill's e4m3 bytes: every finding is a scale */
    for (size_t k = 0; k < r->nfindings; k++) {
        assert_string_equal(r->findings[k].field, "scale");
        assert_true(r->findings[k].offset % 656 >= 512 && r->findings[k].offset % 656 < 528);
    }
    assert_true(r->counts[KVC_CHECK_SCALE_NEGATIVE] > 0);
    /* the tail of decode's buffer was never written: zero scales */
    assert_true(r->counts[KVC_CHECK_SCALE_ZERO] >= 64 * 4 / 2);
    assert_int_equal(r->counts[KVC_CHECK_E4M3_NAN], 0); /* prefill never writes an e4m3 NaN */
    kvc_scan_report_free(r);
    free(buf);
}

static void test_scan__page_lists_limit_the_scan_and_name_real_pages(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvgen_plant plants[64];
    size_t n;
    uint8_t *buf = planted_pages(&l, 3, plants, &n);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.pages = "1,3-4";
    o.skip_pages = "4";
    o.max_findings = 64;
    kvc_scan_report *r = scan(&l, buf, PAGES, &o);
    assert_int_equal(r->pages_scanned, 2);
    uint64_t want = 0;
    for (size_t k = 0; k < n; k++) want += plants[k].page == 1 || plants[k].page == 3;
    assert_int_equal(r->damaged, want);
    for (size_t k = 0; k < r->nfindings; k++) assert_true(r->findings[k].page == 1 || r->findings[k].page == 3);
    for (size_t k = 0; k < r->layers[0].nbad_pages; k++) assert_true(r->layers[0].bad_pages[k].page % 2 == 1);
    kvc_scan_report_free(r);

    kvc_diag d;
    o.pages = "2,6";
    o.skip_pages = NULL;
    assert_int_equal(kvc_scan_host(buf, PAGES * l.page_bytes, &l, &o, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "page 6, but memory has 6 pages (0-5)");
    o.pages = "1,,2";
    assert_int_equal(kvc_scan_host(buf, PAGES * l.page_bytes, &l, &o, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "at character 3");
    assert_string_equal(d.where, "--pages");
    free(buf);
}

static void test_scan__max_findings_keeps_the_first_and_counts_all(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvgen_plant plants[64];
    size_t n;
    uint8_t *buf = planted_pages(&l, 4, plants, &n);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.max_findings = 3;
    kvc_scan_report *r = scan(&l, buf, PAGES, &o);
    assert_int_equal(r->nfindings, 3);
    assert_int_equal(r->damaged, n);
    for (int k = 0; k < 3; k++) assert_int_equal(r->findings[k].offset, plants[k].offset);
    kvc_scan_report_free(r);
    o.max_findings = 0;
    r = scan(&l, buf, PAGES, &o);
    assert_int_equal(r->nfindings, 0);
    assert_int_equal(r->damaged, n);
    kvc_scan_report_free(r);
    free(buf);
}

static void test_scan__threads_give_the_same_report(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 1500; /* several blocks of pages per thread */
    uint8_t *buf = malloc(pages * l.page_bytes);
    kvgen_pages_repeated(&l, pages, 2, 5, buf);
    kvgen_plant plants[64];
    size_t n = kvgen_plant_damage(&l, buf, pages, plants, 64);
    uint64_t nan_scales = 4;
    for (size_t k = 0; k < n; k++) nan_scales += plants[k].check == KVC_CHECK_SCALE_NAN;
    memset(buf + 1234 * l.page_bytes + 512, 0xFF, 16); /* four NaN scales late in the buffer */
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.threads = 1;
    kvc_scan_report *one = scan(&l, buf, pages, &o);
    o.threads = 7;
    kvc_scan_report *many = scan(&l, buf, pages, &o);
    assert_memory_equal(one->counts, many->counts, sizeof one->counts);
    assert_int_equal(one->layers[0].nbad_pages, many->layers[0].nbad_pages);
    assert_memory_equal(one->layers[0].bad_pages, many->layers[0].bad_pages,
                        one->layers[0].nbad_pages * sizeof(kvc_bad_page));
    assert_int_equal(one->nfindings, many->nfindings);
    assert_memory_equal(one->findings, many->findings, one->nfindings * sizeof(kvc_finding));
    assert_int_equal(one->counts[KVC_CHECK_SCALE_NAN], nan_scales);
    kvc_scan_report_free(one);
    kvc_scan_report_free(many);
    free(buf);
}

static void test_scan__policies_flag_scales_only_when_asked(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *buf = malloc(l.page_bytes);
    kvgen_pages(&l, 1, 6, buf); /* SGLang's amax/448 scales: not powers of two */
    kvc_scan_report *r = scan(&l, buf, 1, NULL);
    assert_true(r->clean);
    kvc_scan_report_free(r);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.scale_pow2 = 1;
    r = scan(&l, buf, 1, &o);
    assert_int_equal(r->counts[KVC_CHECK_SCALE_NOT_POW2], 64 * 4);
    kvc_scan_report_free(r);
    o.scale_pow2 = 0;
    o.scale_ranged = 1;
    o.scale_min = 1e-30;
    o.scale_max = 1e30;
    r = scan(&l, buf, 1, &o);
    assert_true(r->clean);
    kvc_scan_report_free(r);
    o.scale_min = 0;
    kvc_diag d;
    assert_int_equal(kvc_scan_host(buf, l.page_bytes, &l, &o, &r, &d), KVC_ERR_USAGE);
    assert_string_equal(d.where, "--scale-range");
    free(buf);
}

static void test_scan__host_memory_must_be_whole_pages(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t buf[1024] = {0};
    kvc_scan_report *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scan_host(buf, sizeof buf, &l, NULL, &r, &d), KVC_ERR_USAGE);
    assert_null(r);
    assert_contains(d.message, "whole, non-zero number of pages");
}

static void test_scan__findings_decode_the_raw_bytes(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *buf = malloc(l.page_bytes);
    kvgen_pages(&l, 1, 7, buf);
    const uint8_t neg[4] = {0x00, 0x00, 0x80, 0xBF}; /* -1.0f, little-endian */
    memcpy(buf + 3 * 656 + 512 + 8, neg, 4);         /* token 3, scale 2 */
    kvc_scan_report *r = scan(&l, buf, 1, NULL);
    assert_int_equal(r->nfindings, 1);
    const kvc_finding *f = &r->findings[0];
    assert_int_equal(f->offset, 3 * 656 + 520);
    assert_int_equal(f->slot, 3);
    assert_int_equal(f->element, 2);
    assert_memory_equal(f->raw, neg, 4);
    assert_true(f->value == -1.0);
    assert_int_equal(f->check, KVC_CHECK_SCALE_NEGATIVE);
    kvc_scan_report_free(r);
    free(buf);
}

typedef struct progress_log {
    unsigned calls;
    uint64_t last, total;
    int backwards;
} progress_log;

static void log_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_log *p = ctx;
    p->backwards |= done < p->last;
    p->calls++;
    p->last = done;
    p->total = total;
}

static void test_scan__progress_runs_forward_to_the_total(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_raw", 64);
    const uint64_t pages = 2000; /* eight blocks of 256 pages */
    uint8_t *buf = calloc(pages, l.page_bytes);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.progress = log_progress;
    /* on one thread, once a block; on three, the other threads may scan the last blocks (or all of them, on a busy
     * machine), and the calling thread still ends the layer at its total */
    const unsigned threads[] = {1, 3}, min_calls[] = {8, 1};
    for (size_t t = 0; t < 2; t++) {
        progress_log log = {0};
        o.progress_ctx = &log;
        o.threads = threads[t];
        kvc_scan_report *r = scan(&l, buf, pages, &o);
        assert_true(log.calls >= min_calls[t]);
        assert_false(log.backwards);
        assert_int_equal(log.total, pages * l.page_bytes);
        assert_int_equal(log.last, log.total);
        kvc_scan_report_free(r);
    }
    free(buf);
}

static void test_scan__files_read_with_pread_give_the_same_counts(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 1000; /* three 16 MiB read batches */
    uint8_t *buf = malloc(pages * l.page_bytes);
    kvgen_pages_repeated(&l, pages, 2, 8, buf);
    kvgen_plant plants[64];
    size_t n = kvgen_plant_damage(&l, buf, pages, plants, 64);
    memset(buf + 777 * l.page_bytes + 512, 0x80, 4); /* -0.0 in the third batch */
    const char *path = temp_data_file(".bin", buf, pages * l.page_bytes);
    uint64_t mapped[KVC_CHECK_COUNT], read[KVC_CHECK_COUNT];
    uint32_t *bad_mapped = calloc(pages, 4), *bad_read = calloc(pages, 4);
    scan_file_layer(path, &l, NULL, 1, 3, mapped, bad_mapped, pages);
    scan_file_layer(path, &l, NULL, 0, 3, read, bad_read, pages);
    assert_memory_equal(mapped, read, sizeof mapped);
    assert_memory_equal(bad_mapped, bad_read, pages * 4);
    uint64_t total = 0;
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++) total += read[c];
    assert_int_equal(total, n + 1);
    assert_int_equal(bad_read[777], 1);
    unlink(path);
    free(bad_mapped);
    free(bad_read);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan__clean_pages_of_every_layout_are_clean),
        cmocka_unit_test(test_scan__planted_damage_is_found_exactly_in_every_layout),
        cmocka_unit_test(test_scan__model1_padding_is_where_formats_md_puts_it),
        cmocka_unit_test(test_scan__576_byte_rows_read_as_656_show_bad_scales),
        cmocka_unit_test(test_scan__page_lists_limit_the_scan_and_name_real_pages),
        cmocka_unit_test(test_scan__max_findings_keeps_the_first_and_counts_all),
        cmocka_unit_test(test_scan__threads_give_the_same_report),
        cmocka_unit_test(test_scan__policies_flag_scales_only_when_asked),
        cmocka_unit_test(test_scan__host_memory_must_be_whole_pages),
        cmocka_unit_test(test_scan__findings_decode_the_raw_bytes),
        cmocka_unit_test(test_scan__progress_runs_forward_to_the_total),
        cmocka_unit_test(test_scan__files_read_with_pread_give_the_same_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
