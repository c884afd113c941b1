/* The scanner handle on the CPU, through the public API: a pool of layer
 * buffers with and without a page list gives what per-layer scans give,
 * digests are kvc_page_digest's, the two sides' digests compare, and every
 * bad input is a usage error that says what is wrong. */
#include "support.h"

#include "kvgen.h"

#include <stdlib.h>
#include <string.h>

enum { NL = 3, PAGES = 6 };

typedef struct pool {
    kvc_layout l;
    uint8_t *buf[NL];
    uint64_t addr[NL];
    uint64_t bytes;
} pool;

/* Three layers of six fp8_flashmla pages; layer 1 has a negative scale on page 4. */
static void pool_make(pool *p)
{
    p->l = layout_of("fp8_flashmla", 64);
    p->bytes = PAGES * p->l.page_bytes;
    for (int i = 0; i < NL; i++) {
        p->buf[i] = malloc(p->bytes);
        kvgen_pages(&p->l, PAGES, 40 + i, p->buf[i]);
        p->addr[i] = (uint64_t)(uintptr_t)p->buf[i];
    }
    memset(p->buf[1] + 4 * p->l.page_bytes + 9 * 656 + 516, 0x80, 4);
}

static void pool_free(pool *p)
{
    for (int i = 0; i < NL; i++) free(p->buf[i]);
}

static kvc_scanner *cpu_scanner(const kvc_layout *l)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    o.threads = 2;
    kvc_scanner *s = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scanner_create(l, &o, &s, &d), KVC_OK);
    assert_string_equal(kvc_scanner_device(s), "cpu");
    assert_string_equal(kvc_scanner_device_name(s), "2 CPU threads");
    return s;
}

static void test_scanner__pool_gives_what_each_layer_gives(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    kvc_scanner *s = cpu_scanner(&p.l);
    kvc_scan_report *r = NULL;
    kvc_diag d;
    for (int round = 0; round < 2; round++) { /* the scanner is used again */
        assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, NULL, 0, NULL, &r, &d), KVC_OK);
        assert_false(kvc_scan_report_clean(r));
        assert_int_equal(kvc_scan_report_layer_count(r), NL);
        assert_int_equal(kvc_scan_report_pages_scanned(r), NL * PAGES);
        assert_int_equal(kvc_scan_report_bad_pages(r), 1);
        assert_int_equal(kvc_scan_report_count(r, KVC_CHECK_SCALE_NEGATIVE), 1);
        const kvc_scan_layer *x = kvc_scan_report_layer(r, 1);
        assert_string_equal(x->name, "layer 1");
        assert_int_equal(x->nbad_pages, 1);
        assert_int_equal(x->bad_pages[0].page, 4);
        assert_null(x->scanned);
        const kvc_finding *f = kvc_scan_report_finding(r, 0);
        assert_int_equal(f->layer, 1);
        assert_int_equal(f->page, 4);
        assert_int_equal(f->slot, 9);
        assert_int_equal(f->offset, 4 * p.l.page_bytes + 9 * 656 + 516);
        for (int i = 0; i < NL; i++) {
            kvc_scan_report *one = NULL;
            assert_int_equal(kvc_scan_host(p.buf[i], p.bytes, &p.l, NULL, &one, &d), KVC_OK);
            const kvc_scan_layer *a = kvc_scan_report_layer(one, 0), *b = kvc_scan_report_layer(r, i);
            assert_memory_equal(a->counts, b->counts, sizeof a->counts);
            assert_memory_equal(a->digests, b->digests, PAGES * sizeof *a->digests);
            for (int k = 0; k < PAGES; k++) assert_int_equal(b->digests[k], kvc_page_digest(p.buf[i] + k * p.l.page_bytes, &p.l));
            kvc_scan_report_free(one);
        }
        kvc_scan_report_free(r);
    }
    kvc_scanner_free(s);
    pool_free(&p);
}

static void test_scanner__page_list_in_any_order(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    kvc_scanner *s = cpu_scanner(&p.l);
    kvc_scan_report *r = NULL;
    kvc_diag d;
    const uint64_t pages[] = {5, 4, 0};
    assert_int_equal(kvc_scanner_submit(s, p.addr, NL, p.bytes, pages, 3, NULL, &d), KVC_OK);
    assert_int_equal(kvc_scanner_wait(s, &r, &d), KVC_OK);
    assert_int_equal(kvc_scan_report_pages_scanned(r), NL * 3);
    const kvc_scan_layer *x = kvc_scan_report_layer(r, 1);
    assert_int_equal(x->pages, PAGES);
    assert_int_equal(x->pages_scanned, 3);
    assert_memory_equal(x->scanned, pages, sizeof pages);
    assert_int_equal(x->bad_pages[0].page, 4);
    assert_int_equal(x->digests[1], kvc_page_digest(p.buf[1] + 4 * p.l.page_bytes, &p.l));
    kvc_scan_report_free(r);
    const uint64_t clean[] = {1, 2};
    assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, clean, 2, NULL, &r, &d), KVC_OK);
    assert_true(kvc_scan_report_clean(r));
    /* all digests in one array, layer by layer in scan order; nothing copied without room */
    uint64_t all[NL * 2 + 1] = {0};
    assert_int_equal(kvc_scan_report_digests(r, NULL, 0), NL * 2);
    assert_int_equal(kvc_scan_report_digests(r, all, NL * 2 - 1), NL * 2);
    assert_int_equal(all[0], 0);
    assert_int_equal(kvc_scan_report_digests(r, all, NL * 2 + 1), NL * 2);
    for (int l = 0; l < NL; l++)
        for (int k = 0; k < 2; k++)
            assert_int_equal(all[2 * l + k], kvc_page_digest(p.buf[l] + clean[k] * p.l.page_bytes, &p.l));
    assert_int_equal(all[NL * 2], 0);
    kvc_scan_report_free(r);
    kvc_scanner_free(s);
    pool_free(&p);
}

/* A scan with a page list, then one of every page on the same scanner: the
 * second reads no stale list (it read past the earlier list's end). */
static void test_scanner__all_pages_after_a_page_list(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    kvc_scanner *s = cpu_scanner(&p.l);
    kvc_scan_report *r = NULL;
    kvc_diag d;
    const uint64_t list[] = {4, 0};
    assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, list, 2, NULL, &r, &d), KVC_OK);
    assert_int_equal(kvc_scan_report_pages_scanned(r), NL * 2);
    kvc_scan_report_free(r);
    assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, NULL, 0, NULL, &r, &d), KVC_OK);
    assert_int_equal(kvc_scan_report_pages_scanned(r), NL * PAGES);
    for (int l = 0; l < NL; l++) {
        const kvc_scan_layer *x = kvc_scan_report_layer(r, (size_t)l);
        assert_null(x->scanned);
        for (uint64_t i = 0; i < PAGES; i++)
            assert_int_equal(x->digests[i], kvc_page_digest(p.buf[l] + i * p.l.page_bytes, &p.l));
    }
    assert_int_equal(kvc_scan_report_bad_pages(r), 1);
    kvc_scan_report_free(r);
    kvc_scanner_free(s);
    pool_free(&p);
}

static void test_scanner__digests_compare_page_by_page(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    uint8_t *zero = calloc(1, p.l.page_bytes);
    const uint64_t pb = p.l.page_bytes;
    uint64_t sent[4], got[4];
    for (int i = 0; i < 4; i++) sent[i] = kvc_page_digest(p.buf[0] + i * pb, &p.l);
    got[0] = sent[0];
    p.buf[0][pb + 77] ^= 0x01; /* one bit */
    got[1] = kvc_page_digest(p.buf[0] + pb, &p.l);
    got[2] = kvc_page_digest(zero, &p.l);
    memcpy(p.buf[0] + 3 * pb + 656, p.buf[0] + 3 * pb, 656); /* token 0 over token 1: only the order differs */
    got[3] = kvc_page_digest(p.buf[0] + 3 * pb, &p.l);
    assert_int_equal(got[2], kvc_zero_page_digest(&p.l));
    unsigned char st[4];
    assert_int_equal(kvc_digests_compare(sent, got, 4, &p.l, st), 3);
    assert_int_equal(st[0], KVC_PAGE_SAME);
    assert_int_equal(st[1], KVC_PAGE_CHANGED);
    assert_int_equal(st[2], KVC_PAGE_ZERO);
    assert_int_equal(st[3], KVC_PAGE_CHANGED);
    assert_string_equal(kvc_page_state_name(KVC_PAGE_ZERO), "zero");
    assert_string_equal(kvc_page_state_name(KVC_PAGE_MISSING), "missing");
    assert_string_equal(kvc_page_state_name(KVC_PAGE_STATES), "?");
    assert_int_equal(kvc_digests_compare(sent, sent, 4, &p.l, NULL), 0);
    free(zero);
    pool_free(&p);
}

/* The digest is the documented formula (kernels/kvc_digest.h), word pair
 * by word pair, for pages that end inside a chunk too. */
static void test_scanner__digest_is_the_documented_formula(void **state)
{
    (void)state;
    const uint64_t sizes[] = {41984, 132, 8448, 584, 36, 8};
    uint8_t *page = malloc(41984);
    for (size_t i = 0; i < 41984; i++) page[i] = (uint8_t)(i * 2654435761u >> 13);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        kvc_layout l = layout_of("fp8_flashmla", 64);
        l.page_bytes = sizes[k];
        uint64_t sum = 0;
        for (uint64_t i = 0; i < (sizes[k] + 15) / 16 * 4; i += 2) { /* 32-bit words, zero past the page */
            uint32_t w[2] = {0, 0};
            for (int j = 0; j < 8; j++)
                if ((i * 4 + (uint64_t)j) < sizes[k]) w[j / 4] |= (uint32_t)page[i * 4 + (uint64_t)j] << (8 * (j % 4));
            sum += (uint64_t)(uint32_t)(w[0] + 0x9E3779B9u + (uint32_t)(i / 2) * 0x85EBCA6Bu) *
                   (uint32_t)(w[1] + 0x7F4A7C15u + (uint32_t)(i / 2) * 0xC2B2AE35u);
        }
        uint64_t x = sum ^ (sizes[k] * 0x9E3779B97F4A7C15ull);
        x ^= x >> 33, x *= 0xFF51AFD7ED558CCDull, x ^= x >> 33, x *= 0xC4CEB9FE1A85EC53ull, x ^= x >> 33;
        if (kvc_page_digest(page, &l) != x) fail_msg("%llu-byte page: %016llx, the formula gives %016llx",
                                                     (unsigned long long)sizes[k],
                                                     (unsigned long long)kvc_page_digest(page, &l), (unsigned long long)x);
    }
    free(page);
}

/* Each bad input: its status, its message, no report, and the scanner still works. */
static void refused(kvc_scanner *s, const uint64_t *layers, size_t n, uint64_t bytes, const uint64_t *pages,
                    size_t np, void *stream, const char *message)
{
    kvc_scan_report *r = (kvc_scan_report *)&r;
    kvc_diag d;
    assert_int_equal(kvc_scanner_scan(s, layers, n, bytes, pages, np, stream, &r, &d), KVC_ERR_USAGE);
    assert_null(r);
    assert_contains(d.message, message);
}

static void test_scanner__bad_inputs_are_refused_with_their_reason(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    kvc_scanner *s = cpu_scanner(&p.l);
    const uint64_t pb = p.l.page_bytes;
    uint64_t table[2] = {p.addr[0], 0};
    refused(s, NULL, 1, p.bytes, NULL, 0, NULL, "no layer buffers to scan");
    refused(s, p.addr, 0, p.bytes, NULL, 0, NULL, "no layer buffers to scan");
    refused(s, table, 2, p.bytes, NULL, 0, NULL, "layer 1's buffer address is NULL");
    table[1] = p.addr[1] + 2;
    refused(s, table, 2, p.bytes - pb, NULL, 0, NULL,
            "layer 1's buffer address 0x");
    refused(s, table, 2, p.bytes - pb, NULL, 0, NULL,
            "is misaligned: fp8_flashmla pages hold 4-byte elements, so it must be a multiple of 4");
    refused(s, p.addr, NL, p.bytes - 100, NULL, 0, NULL,
            "each layer buffer must hold a whole, non-zero number of fp8_flashmla pages of 41984 bytes: 251804 bytes "
            "is 5 pages and 41884 bytes");
    refused(s, p.addr, NL, 0, NULL, 0, NULL, "whole, non-zero number");
    const uint64_t pages[] = {1, 6};
    refused(s, p.addr, NL, p.bytes, pages, 2, NULL, "page list entry 1 is page 6, but each layer buffer holds 6 pages (0-5)");
    refused(s, p.addr, NL, p.bytes, pages, 0, NULL, "the page list is empty: a scan of nothing cannot pass");
    uint64_t wrap = UINT64_MAX - 15;
    refused(s, &wrap, 1, p.bytes, NULL, 0, NULL, "run past the end of the address space");
    refused(s, p.addr, NL, p.bytes, NULL, 0, (void *)p.addr, "a CUDA stream was given to a CPU scanner");
    kvc_scan_report *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scanner_wait(s, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "nothing to wait for");
    assert_int_equal(kvc_scanner_submit(s, p.addr, NL, p.bytes, NULL, 0, NULL, &d), KVC_OK);
    refused(s, p.addr, NL, p.bytes, NULL, 0, NULL, "a scan is already in flight on this scanner");
    assert_int_equal(kvc_scanner_wait(s, &r, &d), KVC_OK);
    assert_int_equal(kvc_scan_report_bad_pages(r), 1);
    kvc_scan_report_free(r);
    /* no scanner, nowhere to put things, no layout: errors, also with a NULL diag */
    assert_int_equal(kvc_scanner_scan(NULL, p.addr, NL, p.bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "needs a scanner");
    assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, NULL, 0, NULL, NULL, NULL), KVC_ERR_USAGE);
    assert_int_equal(kvc_scanner_wait(NULL, &r, NULL), KVC_ERR_USAGE);
    kvc_scanner *none = NULL;
    assert_int_equal(kvc_scanner_create(NULL, NULL, &none, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "a scanner needs a layout");
    assert_null(none);
    assert_int_equal(kvc_scanner_create(&p.l, NULL, NULL, NULL), KVC_ERR_USAGE);
    kvc_scanner_free(NULL);
    kvc_scanner_free(s);
    pool_free(&p);
}

/* The gate's verdict: no report for a clean scan, the full report for a
 * damaged one, through both the one call and submit + wait. */
static void test_scanner__check_reports_only_damage(void **state)
{
    (void)state;
    pool p;
    pool_make(&p);
    kvc_scanner *s = cpu_scanner(&p.l);
    kvc_scan_report *r = (kvc_scan_report *)&p, *full = NULL;
    kvc_diag d;
    const uint64_t clean[] = {1, 2}, damaged[] = {2, 4};
    assert_int_equal(kvc_scanner_check(s, p.addr, NL, p.bytes, clean, 2, NULL, &r, &d), KVC_OK);
    assert_null(r);
    assert_int_equal(kvc_scanner_check(s, p.addr, NL, p.bytes, damaged, 2, NULL, &r, &d), KVC_OK);
    assert_non_null(r);
    assert_int_equal(kvc_scanner_scan(s, p.addr, NL, p.bytes, damaged, 2, NULL, &full, &d), KVC_OK);
    char *a = kvc_scan_report_json(r), *b = kvc_scan_report_json(full);
    assert_int_equal(kvc_scan_report_bad_pages(r), 1);
    assert_non_null(strstr(a, "\"layers\""));
    assert_string_equal(strstr(a, "\"layers\""), strstr(b, "\"layers\"")); /* all but the times */
    kvc_free(a);
    kvc_free(b);
    kvc_scan_report_free(r);
    kvc_scan_report_free(full);
    assert_int_equal(kvc_scanner_submit(s, p.addr, NL, p.bytes, clean, 2, NULL, &d), KVC_OK);
    assert_int_equal(kvc_scanner_wait_check(s, &r, &d), KVC_OK);
    assert_null(r);
    assert_int_equal(kvc_scanner_submit(s, p.addr, NL, p.bytes, NULL, 0, NULL, &d), KVC_OK);
    assert_int_equal(kvc_scanner_wait_check(s, &r, &d), KVC_OK);
    assert_int_equal(kvc_scan_report_bad_pages(r), 1);
    assert_int_equal(kvc_scan_report_layer(r, 1)->bad_pages[0].page, 4);
    kvc_scan_report_free(r);
    /* its bad inputs are the scan's, named after the call */
    assert_int_equal(kvc_scanner_wait_check(s, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "nothing to wait for: no scan was submitted on this scanner");
    assert_int_equal(kvc_scanner_check(s, p.addr, NL, p.bytes, damaged, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "the page list is empty: a scan of nothing cannot pass");
    assert_int_equal(kvc_scanner_check(NULL, p.addr, NL, p.bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_string_equal(d.message, "kvc_scanner_check needs a scanner (kvc_scanner_create)");
    assert_int_equal(kvc_scanner_check(s, p.addr, NL, p.bytes, NULL, 0, NULL, NULL, &d), KVC_ERR_USAGE);
    assert_string_equal(d.message, "kvc_scanner_check needs somewhere to put the report");
    assert_int_equal(kvc_scanner_wait_check(NULL, &r, NULL), KVC_ERR_USAGE);
    kvc_scanner_free(s);
    pool_free(&p);
}

static void test_scanner__auto_without_a_gpu_notes_the_cpu(void **state)
{
    (void)state;
    kvc_layout l = layout_of("bf16", 64);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_AUTO;
    kvc_scanner *s = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scanner_create(&l, &o, &s, &d), KVC_OK);
    if (strcmp(kvc_scanner_device(s), "cpu") == 0) { /* this machine has no usable GPU */
        uint8_t *buf = calloc(1, l.page_bytes);
        uint64_t a = (uint64_t)(uintptr_t)buf;
        kvc_scan_report *r = NULL;
        assert_int_equal(kvc_scanner_scan(s, &a, 1, l.page_bytes, NULL, 0, NULL, &r, &d), KVC_OK);
        assert_int_equal(kvc_scan_report_note_count(r), 1);
        assert_contains(kvc_scan_report_note(r, 0), "no usable GPU");
        kvc_scan_report_free(r);
        free(buf);
    }
    kvc_scanner_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scanner__pool_gives_what_each_layer_gives),
        cmocka_unit_test(test_scanner__page_list_in_any_order),
        cmocka_unit_test(test_scanner__all_pages_after_a_page_list),
        cmocka_unit_test(test_scanner__digests_compare_page_by_page),
        cmocka_unit_test(test_scanner__digest_is_the_documented_formula),
        cmocka_unit_test(test_scanner__bad_inputs_are_refused_with_their_reason),
        cmocka_unit_test(test_scanner__check_reports_only_damage),
        cmocka_unit_test(test_scanner__auto_without_a_gpu_notes_the_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
