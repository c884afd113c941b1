/* The GPU scanner against the CPU scanner on the same bytes: every layout,
 * clean and damaged, streamed from the host in several batches, in place
 * in device memory (aligned and not), with and without page lists, one
 * layer or a pool of many through the scanner handle. The two must agree
 * exactly: counts, damaged pages, findings and digests. Bad pointers are
 * refused by the real driver as by the fake one. Exits with CTest's skip
 * code 77 when no GPU is usable. */
#include "../unit/support.h"

#include "kvgen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void same_report(const kvc_scan_report *cpu, const kvc_scan_report *gpu, const char *what)
{
    assert_string_equal(cpu->device, "cpu");
    assert_string_equal(gpu->device, "cuda");
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++)
        if (cpu->counts[c] != gpu->counts[c])
            fail_msg("%s: %s: CPU %llu, GPU %llu", what, kvc_check_name((kvc_check)c), (unsigned long long)cpu->counts[c],
                     (unsigned long long)gpu->counts[c]);
    assert_int_equal(cpu->pages_scanned, gpu->pages_scanned);
    assert_int_equal(cpu->nlayers, gpu->nlayers);
    for (size_t i = 0; i < cpu->nlayers; i++) {
        const kvc_scan_layer *a = &cpu->layers[i], *b = &gpu->layers[i];
        if (a->nbad_pages != b->nbad_pages) fail_msg("%s: %zu vs %zu damaged pages", what, a->nbad_pages, b->nbad_pages);
        if (a->nbad_pages) assert_memory_equal(a->bad_pages, b->bad_pages, a->nbad_pages * sizeof *a->bad_pages);
        assert_int_equal(a->pages_scanned, b->pages_scanned);
        assert_memory_equal(a->counts, b->counts, sizeof a->counts);
        for (uint64_t p = 0; p < a->pages_scanned; p++)
            if (a->digests[p] != b->digests[p])
                fail_msg("%s: layer %zu, scanned page %llu: CPU digest %016llx, GPU %016llx", what, i, (unsigned long long)p,
                         (unsigned long long)a->digests[p], (unsigned long long)b->digests[p]);
    }
    assert_int_equal(cpu->nfindings, gpu->nfindings);
    if (cpu->nfindings) assert_memory_equal(cpu->findings, gpu->findings, cpu->nfindings * sizeof *cpu->findings);
}

static kvc_scan_report *scan_host(const kvc_layout *l, const uint8_t *buf, uint64_t pages, kvc_device dev,
                                  const char *list)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = dev;
    o.max_findings = 200;
    o.pages = list;
    kvc_scan_report *r = NULL;
    kvc_diag d;
    if (kvc_scan_host(buf, pages * l->page_bytes, l, &o, &r, &d) != KVC_OK) fail_msg("scan: %s", d.message);
    return r;
}

/* Scans on both devices and fails unless they agree and find `damaged`
 * elements on `bad_pages` pages. */
static void compare_host(const kvc_layout *l, const uint8_t *buf, uint64_t pages, const char *list, const char *what,
                         uint64_t damaged, uint64_t bad_pages)
{
    kvc_scan_report *cpu = scan_host(l, buf, pages, KVC_DEVICE_CPU, list);
    kvc_scan_report *gpu = scan_host(l, buf, pages, KVC_DEVICE_GPU, list);
    same_report(cpu, gpu, what);
    if (gpu->damaged != damaged || gpu->bad_pages != bad_pages)
        fail_msg("%s: %llu damaged elements on %llu pages, expected %llu on %llu", what, (unsigned long long)gpu->damaged,
                 (unsigned long long)gpu->bad_pages, (unsigned long long)damaged, (unsigned long long)bad_pages);
    printf("  %-40s %8llu pages %8llu damaged  CPU %.4f s  GPU %.4f s\n", what, (unsigned long long)cpu->pages_scanned,
           (unsigned long long)cpu->damaged, cpu->seconds, gpu->seconds);
    kvc_scan_report_free(cpu);
    kvc_scan_report_free(gpu);
}

/* The damaged elements and pages of planted damage, on the pages of `list`
 * ("1,3-5") or all. */
static void planted_on(const kvgen_plant *plants, size_t n, const char *list, uint64_t *damaged, uint64_t *bad_pages)
{
    page_range *r = NULL;
    size_t nr = 0;
    kvc_diag d;
    if (list) assert_int_equal(page_list_parse(list, "--pages", &r, &nr, &d), KVC_OK);
    *damaged = *bad_pages = 0;
    for (size_t k = 0; k < n; k++) {
        int in = !list;
        for (size_t i = 0; i < nr; i++) in |= plants[k].page >= r[i].first && plants[k].page <= r[i].last;
        if (!in) continue;
        (*damaged)++;
        int first_on_page = 1;
        for (size_t j = 0; j < k; j++) first_on_page &= plants[j].page != plants[k].page;
        *bad_pages += first_on_page;
    }
    free(r);
}

static void test_gpu__every_layout_clean_and_planted_matches_the_cpu(void **state)
{
    (void)state;
    const uint32_t sizes[] = {64, 1, 3};
    for (size_t s = 0; s < 3; s++)
        for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
            kvc_layout l = layout_of(kvc_layout_catalogue(i), sizes[s]);
            uint64_t pages = 8 * 64 / sizes[s];
            uint8_t *buf = malloc(pages * l.page_bytes);
            kvgen_pages(&l, pages, i + 1, buf);
            char what[96];
            snprintf(what, sizeof what, "clean %s page %u (%llu B/page)", l.name, sizes[s], (unsigned long long)l.page_bytes);
            compare_host(&l, buf, pages, NULL, what, 0, 0);
            kvgen_plant plants[64];
            size_t n = kvgen_plant_damage(&l, buf, pages, plants, 64);
            uint64_t damaged, bad_pages;
            planted_on(plants, n, NULL, &damaged, &bad_pages);
            assert_int_equal(damaged, n);
            snprintf(what, sizeof what, "planted %s page %u", l.name, sizes[s]);
            compare_host(&l, buf, pages, NULL, what, damaged, bad_pages);
            free(buf);
        }
}

static void test_gpu__pages_too_large_for_a_shared_map_match_the_cpu(void **state)
{
    (void)state;
    kvc_layout l = layout_of("bf16", 512); /* 589824-byte pages: the chunk map stays in global memory */
    uint8_t *buf = malloc(6 * l.page_bytes);
    kvgen_pages(&l, 6, 4, buf);
    kvgen_plant plants[64];
    size_t n = kvgen_plant_damage(&l, buf, 6, plants, 64);
    uint64_t damaged, bad_pages;
    planted_on(plants, n, NULL, &damaged, &bad_pages);
    compare_host(&l, buf, 6, NULL, "planted bf16 page 512", damaged, bad_pages);
    planted_on(plants, n, "1,3-5", &damaged, &bad_pages);
    compare_host(&l, buf, 6, "1,3-5", "planted bf16 page 512, page list", damaged, bad_pages);
    free(buf);
}

/* Every page of 576-byte rows read as 656 has bad scales (test_scan says why). */
static void compare_transfer(const kvc_layout *l, const uint8_t *buf, uint64_t pages, const char *list, uint64_t npages,
                             const char *what)
{
    kvc_scan_report *cpu = scan_host(l, buf, pages, KVC_DEVICE_CPU, list);
    kvc_scan_report *gpu = scan_host(l, buf, pages, KVC_DEVICE_GPU, list);
    same_report(cpu, gpu, what);
    assert_int_equal(gpu->pages_scanned, npages);
    assert_int_equal(gpu->bad_pages, npages);
    assert_true(gpu->counts[KVC_CHECK_SCALE_NEGATIVE] > 0);
    printf("  %-40s %8llu pages %8llu damaged  CPU %.4f s  GPU %.4f s\n", what, (unsigned long long)cpu->pages_scanned,
           (unsigned long long)cpu->damaged, cpu->seconds, gpu->seconds);
    kvc_scan_report_free(cpu);
    kvc_scan_report_free(gpu);
}

static void test_gpu__576_rows_read_as_656_match_the_cpu(void **state)
{
    (void)state;
    kvc_layout raw = layout_of("fp8_raw", 64), scaled = layout_of("fp8_flashmla", 64);
    uint8_t *buf = malloc(64 * scaled.page_bytes);
    kvgen_transfer(&raw, &scaled, 64, 3, buf);
    compare_transfer(&scaled, buf, 64, NULL, 64, "576-byte rows read as 656");
    compare_transfer(&scaled, buf, 64, "0,5-9,63", 7, "576 as 656, page list");
    free(buf);
}

static void test_gpu__streaming_over_several_batches_matches_the_cpu(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 4000; /* 168 MB: three 64 MiB batches */
    uint8_t *buf = malloc(pages * l.page_bytes);
    kvgen_pages_repeated(&l, pages, 4, 11, buf);
    const uint64_t bad[] = {0, 1597, 1598, 3196, 3999};
    /* token 7's first scale made negative: one damaged element on each of these pages */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) memset(buf + bad[i] * l.page_bytes + 7 * 656 + 512, 0x80, 4);
    compare_host(&l, buf, pages, NULL, "4000 pages, three batches", 5, 5);
    compare_host(&l, buf, pages, "1-1600,3000-3999", "4000 pages, page list", 4, 4); /* all but page 0 */
    free(buf);
}

static void test_gpu__device_memory_in_place_matches_the_cpu(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64), raw = layout_of("fp8_raw", 64);
    const uint64_t pages = 300, bytes = pages * l.page_bytes;
    uint8_t *buf = malloc(bytes), *stage = malloc(bytes + 16);
    kvgen_transfer(&raw, &l, pages, 5, buf);
    gpu_ctx *g;
    int absent;
    kvc_diag d;
    assert_int_equal(gpu_open(NULL, 0, &g, &absent, &d), KVC_OK);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.max_findings = 200;
    for (unsigned shift = 0; shift <= 4; shift += 4) { /* 16-byte aligned, then not: the byte-wise path */
        memset(stage, 0x7F, bytes + 16);
        memcpy(stage + shift, buf, bytes);
        uint64_t dev;
        assert_int_equal(gpu_alloc_upload(g, stage, bytes + 16, &dev, &d), KVC_OK);
        for (int listed = 0; listed < 2; listed++) {
            o.pages = listed ? "3,100-120,299" : NULL;
            kvc_scan_report *cpu = NULL, *gpu = NULL;
            o.device = KVC_DEVICE_CPU;
            assert_int_equal(kvc_scan_host(buf, bytes, &l, &o, &cpu, &d), KVC_OK);
            if (kvc_scan_device(dev + shift, bytes, &l, &o, &gpu, &d) != KVC_OK) fail_msg("%s", d.message);
            same_report(cpu, gpu, shift ? "device memory, unaligned" : "device memory");
            uint64_t npages = listed ? 1 + 21 + 1 : pages; /* every page of 576-byte rows read as 656 is damaged */
            assert_int_equal(gpu->pages_scanned, npages);
            assert_int_equal(gpu->bad_pages, npages);
            printf("  device memory, offset %u, %s: %llu damaged, GPU %.4f s\n", shift, listed ? "page list" : "all pages",
                   (unsigned long long)gpu->damaged, gpu->seconds);
            kvc_scan_report_free(cpu);
            kvc_scan_report_free(gpu);
        }
        gpu_free(g, dev);
    }
    gpu_close(g);
    free(buf);
    free(stage);
}

/* A file streamed to the GPU with pread (as when it is not in the page
 * cache) and from its mapping, against the CPU. */
static void test_gpu__files_streamed_with_pread_match_the_cpu(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 3500; /* three 64 MiB staging batches */
    uint8_t *buf = malloc(pages * l.page_bytes);
    kvgen_pages_repeated(&l, pages, 2, 12, buf);
    kvgen_plant plants[64];
    size_t n = kvgen_plant_damage(&l, buf, pages, plants, 64);
    buf[3333 * l.page_bytes + 100] = 0xFF; /* an e4m3 NaN in the last batch: token 0, NoPE value 100 */
    const char *path = temp_data_file(".bin", buf, pages * l.page_bytes);
    gpu_ctx *g;
    int absent;
    kvc_diag d;
    assert_int_equal(gpu_open(NULL, 0, &g, &absent, &d), KVC_OK);
    size_t nan = 1; /* the one above, and the planted e4m3 NaNs */
    for (size_t k = 0; k < n; k++) nan += plants[k].check == KVC_CHECK_E4M3_NAN;
    uint32_t *bad[3] = {calloc(pages, 4), calloc(pages, 4), calloc(pages, 4)};
    uint64_t counts[3][KVC_CHECK_COUNT];
    for (int i = 0; i < 3; i++) /* CPU from the mapping, GPU from the mapping, GPU with pread */
        scan_file_layer(path, &l, i ? g : NULL, i < 2, 4, counts[i], bad[i], pages);
    for (int i = 1; i < 3; i++) {
        assert_memory_equal(counts[0], counts[i], sizeof counts[0]);
        assert_memory_equal(bad[0], bad[i], pages * 4);
    }
    assert_int_equal(counts[0][KVC_CHECK_E4M3_NAN], nan);
    assert_int_equal(bad[0][3333], 1);
    uint64_t total = 0;
    for (uint64_t p = 0; p < pages; p++) total += bad[0][p];
    assert_int_equal(total, n + 1);
    gpu_close(g);
    unlink(path);
    for (int i = 0; i < 3; i++) free(bad[i]);
    free(buf);
}


/* A pool of layer buffers in device memory through the scanner handle, one
 * launch for all layers, against the CPU scanner over host copies: every
 * layout at page sizes 64, 1 and 3, damage planted in some layers, all
 * pages and a page list out of order, 16-byte aligned and not (the
 * byte-wise path), on the caller's stream and the scanner's own. */
static void test_gpu__scanner_pool_matches_the_cpu(void **state)
{
    (void)state;
    const uint32_t sizes[] = {64, 1, 3};
    enum { NL = 5 };
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.max_findings = 300;
    gpu_ctx *g;
    int absent;
    kvc_diag d;
    assert_int_equal(gpu_open(NULL, 0, &g, &absent, &d), KVC_OK);
    for (size_t sz = 0; sz < 3; sz++)
        for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
            kvc_layout l = layout_of(kvc_layout_catalogue(i), sizes[sz]);
            const uint64_t pages = 4 * 64 / sizes[sz] + 3, bytes = pages * l.page_bytes;
            o.device = KVC_DEVICE_CPU;
            kvc_scanner *cpu = NULL, *gpu = NULL;
            assert_int_equal(kvc_scanner_create(&l, &o, &cpu, &d), KVC_OK);
            o.device = KVC_DEVICE_GPU;
            assert_int_equal(kvc_scanner_create(&l, &o, &gpu, &d), KVC_OK);
            assert_string_equal(kvc_scanner_device(gpu), "cuda");
            uint8_t *host[NL];
            uint64_t hl[NL], dl[NL], dev[NL];
            size_t planted = 0; /* in layer 1; none in a layout with no value to judge (FP4 pairs) */
            for (int k = 0; k < NL; k++) {
                host[k] = malloc(bytes + 16);
                kvgen_pages(&l, pages, 100 * i + k, host[k]);
                if (k % 2) { /* damage in layers 1 and 3 */
                    kvgen_plant plants[32];
                    size_t n = kvgen_plant_damage(&l, host[k], pages, plants, 32);
                    if (k == 1) planted = n;
                }
            }
            for (unsigned shift = 0; shift <= 4; shift += 4) {
                for (int k = 0; k < NL; k++) {
                    uint8_t *staged = calloc(1, bytes + 16);
                    memcpy(staged + shift, host[k], bytes);
                    assert_int_equal(gpu_alloc_upload(g, staged, bytes + 16, &dev[k], &d), KVC_OK);
                    dl[k] = dev[k] + shift;
                    hl[k] = (uint64_t)(uintptr_t)host[k];
                    free(staged);
                }
                /* a short page list, and a long one with pages again and again */
                uint64_t list[600] = {pages - 1, 0, 2, 1, pages / 2};
                for (size_t k = 5; k < sizeof list / sizeof list[0]; k++) list[k] = (k * 7 + 3) % pages;
                for (int listed = 0; listed < 3; listed++) {
                    kvc_scan_report *rc = NULL, *rg = NULL;
                    const uint64_t *pl = listed ? list : NULL;
                    size_t np = listed == 2 ? sizeof list / sizeof list[0] : listed ? 5 : 0;
                    assert_int_equal(kvc_scanner_scan(cpu, hl, NL, bytes, pl, np, NULL, &rc, &d), KVC_OK);
                    void *stream = listed ? gpu_bench_stream(g) : NULL;
                    if (kvc_scanner_scan(gpu, dl, NL, bytes, pl, np, stream, &rg, &d) != KVC_OK) fail_msg("%s", d.message);
                    char what[128];
                    snprintf(what, sizeof what, "pool of %s page %u, %s, offset %u", l.name, sizes[sz],
                             listed == 2 ? "long page list" : listed ? "page list" : "all pages", shift);
                    same_report(rc, rg, what);
                    kvc_scan_report *rk = NULL; /* the gate's verdict: a report only for damage */
                    if (kvc_scanner_check(gpu, dl, NL, bytes, pl, np, stream, &rk, &d) != KVC_OK) fail_msg("%s", d.message);
                    assert_int_equal(rk == NULL, kvc_scan_report_clean(rc));
                    if (rk) same_report(rc, rk, what);
                    kvc_scan_report_free(rk);
                    assert_int_equal(rg->nlayers, NL);
                    assert_true(rg->layers[1].nbad_pages > 0 || listed || !planted);
                    assert_int_equal(rg->layers[0].nbad_pages, 0);
                    for (int k = 0; k < NL; k++) /* the library's own digest of the page */
                        assert_int_equal(rg->layers[k].digests[0],
                                         kvc_page_digest(host[k] + (listed ? list[0] : 0) * l.page_bytes, &l));
                    kvc_scan_report_free(rc);
                    kvc_scan_report_free(rg);
                }
                for (int k = 0; k < NL; k++) gpu_free(g, dev[k]);
            }
            for (int k = 0; k < NL; k++) free(host[k]);
            kvc_scanner_free(cpu);
            kvc_scanner_free(gpu);
        }
    gpu_close(g);
}

/* Pointers the real driver knows are not this scanner's to read: each a
 * usage error with its message, and the scanner still works after. */
static void test_gpu__scanner_refuses_memory_it_cannot_read(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_GPU;
    kvc_scanner *s = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scanner_create(&l, &o, &s, &d), KVC_OK);
    gpu_ctx *g;
    int absent;
    assert_int_equal(gpu_open(NULL, 0, &g, &absent, &d), KVC_OK);
    uint64_t dev;
    uint8_t *clean = malloc(2 * l.page_bytes);
    kvgen_pages(&l, 2, 9, clean);
    assert_int_equal(gpu_alloc_upload(g, clean, 2 * l.page_bytes, &dev, &d), KVC_OK);
    kvc_scan_report *r = NULL;
    uint64_t host = (uint64_t)(uintptr_t)clean;
    assert_int_equal(kvc_scanner_scan(s, &host, 1, l.page_bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "layer 0 (0x");
    assert_contains(d.message, "is not device memory");
    assert_null(r);
    assert_int_equal(kvc_scanner_scan(s, &dev, 1, 3 * l.page_bytes, NULL, 0, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "run past the end of its allocation");
    uint64_t two[2] = {dev, dev + l.page_bytes};
    assert_int_equal(kvc_scanner_submit(s, two, 2, l.page_bytes, NULL, 0, NULL, &d), KVC_OK);
    assert_int_equal(kvc_scanner_submit(s, two, 2, l.page_bytes, NULL, 0, NULL, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "already in flight");
    assert_int_equal(kvc_scanner_wait(s, &r, &d), KVC_OK);
    assert_true(kvc_scan_report_clean(r));
    assert_int_equal(kvc_scan_report_pages_scanned(r), 2);
    assert_int_equal(r->layers[1].digests[0], kvc_page_digest(clean + l.page_bytes, &l));
    kvc_scan_report_free(r);
    gpu_free(g, dev);
    gpu_close(g);
    kvc_scanner_free(s);
    free(clean);
}

/* A scan from a thread that has no CUDA context current (a serving engine's
 * worker thread; the scanner's results are allocated then), and its report
 * kept after the scanner is freed. */
typedef struct thread_scan {
    kvc_scanner *s;
    uint64_t dev;
    uint64_t bytes;
    kvc_scan_report *r;
    kvc_status st;
    char message[sizeof ((kvc_diag *)0)->message];
} thread_scan;

static void *scan_on_a_new_thread(void *arg)
{
    thread_scan *t = arg;
    kvc_diag d;
    t->st = kvc_scanner_scan(t->s, &t->dev, 1, t->bytes, NULL, 0, NULL, &t->r, &d);
    if (t->st) snprintf(t->message, sizeof t->message, "%s", d.message);
    return NULL;
}

static void test_gpu__scan_from_a_thread_without_a_context(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    gpu_ctx *g;
    int absent;
    kvc_diag d;
    assert_int_equal(gpu_open(NULL, 0, &g, &absent, &d), KVC_OK);
    uint8_t *pages = malloc(3 * l.page_bytes);
    kvgen_pages(&l, 3, 21, pages);
    thread_scan t = {.bytes = 3 * l.page_bytes};
    assert_int_equal(gpu_alloc_upload(g, pages, t.bytes, &t.dev, &d), KVC_OK);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_GPU;
    assert_int_equal(kvc_scanner_create(&l, &o, &t.s, &d), KVC_OK);
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, scan_on_a_new_thread, &t), 0);
    assert_int_equal(pthread_join(tid, NULL), 0);
    if (t.st) fail_msg("%s", t.message);
    kvc_scanner_free(t.s); /* the report keeps its results */
    assert_true(kvc_scan_report_clean(t.r));
    for (uint64_t p = 0; p < 3; p++)
        assert_int_equal(t.r->layers[0].digests[p], kvc_page_digest(pages + p * l.page_bytes, &l));
    kvc_scan_report_free(t.r);
    gpu_free(g, t.dev);
    gpu_close(g);
    free(pages);
}

/* simulate writes, moves and reads back on the GPU exactly as on the CPU. */
static void test_gpu__simulate_matches_the_cpu(void **state)
{
    (void)state;
    const char *pairs[] = {"glm52-b300-hisparse-mtp", "glm52-b300-hisparse-mtp-fixed", "hopper-prefill-blackwell-decode-fp8",
                           "bf16-different-backends"};
    const int compatible[] = {0, 1, 0, 1}; /* the GLM-5.2 failure and its fix; 656-byte pages into 576; bf16 both ways */
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        kvc_simulation *cpu = simulate_pair(pairs[i], KVC_DEVICE_CPU, 20000, 5);
        kvc_simulation *gpu = simulate_pair(pairs[i], KVC_DEVICE_GPU, 20000, 5);
        assert_string_equal(gpu->device, "cuda");
        assert_int_equal(gpu->compatible, compatible[i]);
        assert_int_equal(gpu->values_differ == 0, compatible[i]);
        assert_int_equal(cpu->compatible, gpu->compatible);
        assert_memory_equal(cpu->written, gpu->written, sizeof cpu->written);
        assert_memory_equal(cpu->decoded, gpu->decoded, sizeof cpu->decoded);
        assert_int_equal(cpu->values_differ, gpu->values_differ);
        assert_int_equal(cpu->garbled_pages, gpu->garbled_pages);
        assert_int_equal(cpu->zero_blocks, gpu->zero_blocks);
        assert_int_equal(cpu->overrun_bytes, gpu->overrun_bytes);
        same_report(cpu->scan, gpu->scan, pairs[i]);
        printf("  simulate %-36s %s, %llu values differ; CPU %.3f s, GPU %.3f s\n", pairs[i],
               gpu->compatible ? "compatible" : "incompatible", (unsigned long long)gpu->values_differ, cpu->seconds,
               gpu->seconds);
        kvc_simulation_free(cpu);
        kvc_simulation_free(gpu);
    }
}

int main(void)
{
    gpu_ctx *g = NULL;
    int absent = 0;
    kvc_diag d;
    if (gpu_open(NULL, 0, &g, &absent, &d) != KVC_OK) {
        printf("no usable GPU (%s): skipped\n", d.message);
        return absent ? 77 : 1;
    }
    printf("GPU: %s\n", gpu_name(g));
    gpu_close(g);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu__scanner_pool_matches_the_cpu),
        cmocka_unit_test(test_gpu__scanner_refuses_memory_it_cannot_read),
        cmocka_unit_test(test_gpu__scan_from_a_thread_without_a_context),
        cmocka_unit_test(test_gpu__every_layout_clean_and_planted_matches_the_cpu),
        cmocka_unit_test(test_gpu__pages_too_large_for_a_shared_map_match_the_cpu),
        cmocka_unit_test(test_gpu__576_rows_read_as_656_match_the_cpu),
        cmocka_unit_test(test_gpu__streaming_over_several_batches_matches_the_cpu),
        cmocka_unit_test(test_gpu__device_memory_in_place_matches_the_cpu),
        cmocka_unit_test(test_gpu__files_streamed_with_pread_match_the_cpu),
        cmocka_unit_test(test_gpu__simulate_matches_the_cpu),

    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
