/* A program outside the project, built against an installed libkvcheck
 * (tests/install/run.sh builds it with pkg-config and with find_package,
 * against the shared and the static library). It includes only the
 * installed header and uses only exported functions, through opaque handles
 * and accessors: the version, a catalogue layout, a diagnostic, the GLM-5.2
 * pair resolved and compared, a scan of clean and of damaged pages, the
 * JSON exports. Exits 1 on any mismatch, saying which. */
#include <kvcheck.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "consumer: %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void check_version(const char *expected)
{
    char parts[64];
    snprintf(parts, sizeof parts, "%d.%d.%d", KVC_VERSION_MAJOR, KVC_VERSION_MINOR, KVC_VERSION_PATCH);
    CHECK(strcmp(kvc_version(), KVC_VERSION_STRING) == 0, "kvc_version() %s, header %s", kvc_version(),
          KVC_VERSION_STRING);
    CHECK(strcmp(parts, KVC_VERSION_STRING) == 0, "version macros %s, string %s", parts, KVC_VERSION_STRING);
    CHECK(strcmp(expected, KVC_VERSION_STRING) == 0, "project version %s, header %s", expected,
          KVC_VERSION_STRING);
}

static void check_layouts(void)
{
    kvc_layout_params glm;
    kvc_layout_default_params(&glm);
    kvc_layout *l = NULL;
    kvc_diag d;
    kvc_status st = kvc_layout_build("fp8_flashmla", &glm, &l, &d);
    CHECK(st == KVC_OK, "fp8_flashmla: %s: %s", kvc_status_name(st), d.message);
    if (st == KVC_OK) {
        CHECK(kvc_layout_bytes_per_token(l) == 656, "fp8_flashmla: %u bytes per token, not 656",
              kvc_layout_bytes_per_token(l));
        CHECK(kvc_layout_page_bytes(l) == 41984, "fp8_flashmla: %llu bytes per page, not 41984",
              (unsigned long long)kvc_layout_page_bytes(l));
        CHECK(kvc_layout_field(l, "scale") != NULL, "fp8_flashmla has no scale field");
        CHECK(kvc_layout_field_count(l) == 3 && kvc_layout_field_at(l, 3) == NULL, "fp8_flashmla: %u fields",
              kvc_layout_field_count(l));
        char *json = kvc_layout_json(l);
        CHECK(json && strstr(json, "\"fp8_flashmla\""), "the layout's JSON does not name it");
        kvc_free(json);
    }
    kvc_layout_free(l);
    /* FlashMLA's FP8 rows need R to be a multiple of 128: refused, with a reason */
    const kvc_layout_params odd = {500, 64, 128, 64};
    l = NULL;
    st = kvc_layout_build("fp8_flashmla", &odd, &l, &d);
    CHECK(st == KVC_ERR_CONFIG && !l, "fp8_flashmla with R=500: %s, not KVC_ERR_CONFIG", kvc_status_name(st));
    CHECK(d.message[0] != '\0', "fp8_flashmla with R=500: no message");
    kvc_layout_free(NULL);
}

static kvc_worker *worker(const char *label, const char *args)
{
    kvc_worker *w = kvc_worker_create(label);
    kvc_diag d;
    kvc_diag_clear(&d);
    kvc_status st = w ? kvc_worker_set_gpu(w, "B300", &d) : KVC_ERR_NOMEM;
    if (!st) st = kvc_worker_set_model(w, "glm-5.2", &d);
    if (!st) st = kvc_worker_add_args(w, args, label, &d);
    CHECK(st == KVC_OK, "%s: %s", label, d.message);
    return w;
}

/* The pair that started kvcheck: trtllm's raw rows sent to a HiSparse decode. */
static void check_pair(void)
{
    kvc_worker *p = worker("prefill", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
    kvc_worker *dw = worker("decode", "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --enable-hisparse "
                                      "--disable-radix-cache");
    kvc_resolved *r = NULL;
    kvc_diag d;
    kvc_status st = kvc_resolve(p, &r, &d);
    CHECK(st == KVC_OK, "resolve: %s", d.message);
    if (r) {
        CHECK(strcmp(kvc_layout_name(kvc_resolved_layout(r)), "fp8_raw") == 0, "prefill is %s, not fp8_raw",
              kvc_layout_name(kvc_resolved_layout(r)));
        const kvc_setting *page = kvc_resolved_find(r, "page_size");
        CHECK(page && page->type == KVC_VALUE_UINT && page->number == 64, "page_size is not the number 64");
        CHECK(strcmp(kvc_resolved_engine(r), "sglang") == 0 && kvc_resolved_release(r)[0], "no engine or release");
    }
    kvc_resolved_free(r);
    kvc_verdict *v = NULL;
    st = kvc_compare(p, dw, &v, &d);
    CHECK(st == KVC_OK, "compare: %s", d.message);
    if (v) {
        CHECK(!kvc_verdict_compatible(v), "the GLM-5.2 pair is reported compatible");
        CHECK(!kvc_verdict_bootstrap_catches(v), "SGLang's bootstrap is said to catch it");
        CHECK(kvc_verdict_fix_count(v) > 0 && kvc_verdict_fix(v, 0)->side == KVC_SIDE_PREFILL, "no prefill fix");
        char *json = kvc_verdict_json(v);
        CHECK(json && strstr(json, "\"compatible\":\tfalse"), "the verdict's JSON does not say incompatible");
        kvc_free(json);
    }
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(dw);
}

static kvc_scan_report *scan(const void *pages, size_t bytes, const kvc_layout *l)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    o.threads = 1;
    kvc_scan_report *r = NULL;
    kvc_diag d;
    kvc_status st = kvc_scan_host(pages, bytes, l, &o, &r, &d);
    CHECK(st == KVC_OK && r, "kvc_scan_host: %s: %s", kvc_status_name(st), d.message);
    return st == KVC_OK ? r : NULL;
}

static void check_scan(void)
{
    kvc_layout_params glm;
    kvc_layout_default_params(&glm);
    kvc_layout *l = NULL;
    kvc_diag d;
    if (kvc_layout_build("bf16", &glm, &l, &d) != KVC_OK) {
        CHECK(0, "bf16: %s", d.message);
        return;
    }
    const size_t npages = 2, bytes = npages * kvc_layout_page_bytes(l);
    unsigned char *pages = calloc(1, bytes); /* bf16 zeros: valid values */
    if (!pages) {
        CHECK(0, "out of memory");
        kvc_layout_free(l);
        return;
    }
    kvc_scan_report *r = scan(pages, bytes, l);
    if (r) {
        CHECK(kvc_scan_report_clean(r), "zeroed bf16 pages reported damaged (%llu)",
              (unsigned long long)kvc_scan_report_damaged(r));
        CHECK(kvc_scan_report_pages_scanned(r) == npages, "%llu pages scanned, not %zu",
              (unsigned long long)kvc_scan_report_pages_scanned(r), npages);
        CHECK(kvc_scan_report_bytes_scanned(r) == bytes, "%llu bytes scanned, not %zu",
              (unsigned long long)kvc_scan_report_bytes_scanned(r), bytes);
    }
    kvc_scan_report_free(r);

    /* one bf16 NaN (0x7fc0) in page 1, token 3, element 5 of the first field */
    const kvc_field *f = kvc_layout_field_at(l, 0);
    unsigned char *at = pages + kvc_layout_page_bytes(l) + f->base + 3 * f->stride + 5 * kvc_elem_size(f->elem);
    at[0] = 0xc0;
    at[1] = 0x7f;
    r = scan(pages, bytes, l);
    if (r) {
        CHECK(!kvc_scan_report_clean(r) && kvc_scan_report_damaged(r) == 1, "a planted NaN: clean %d, %llu damaged",
              kvc_scan_report_clean(r), (unsigned long long)kvc_scan_report_damaged(r));
        CHECK(kvc_scan_report_count(r, KVC_CHECK_BF16_NAN) == 1, "bf16_nan counted %llu times",
              (unsigned long long)kvc_scan_report_count(r, KVC_CHECK_BF16_NAN));
        if (kvc_scan_report_finding_count(r) == 1) {
            const kvc_finding *x = kvc_scan_report_finding(r, 0);
            CHECK(x->page == 1 && x->slot == 3 && x->element == 5 && strcmp(x->field, f->name) == 0,
                  "finding at page %llu slot %llu %s[%u], not page 1 slot 3 %s[5]", (unsigned long long)x->page,
                  (unsigned long long)x->slot, x->field, x->element, f->name);
            CHECK(strcmp(kvc_check_name(x->check), "bf16_nan") == 0, "finding is %s, not bf16_nan",
                  kvc_check_name(x->check));
        } else {
            CHECK(0, "%zu findings, not 1", kvc_scan_report_finding_count(r));
        }
        char *json = kvc_scan_report_json(r);
        CHECK(json && strstr(json, "\"bf16_nan\""), "the JSON report does not name bf16_nan");
        kvc_free(json);
    }
    kvc_scan_report_free(r);
    kvc_layout_free(l);
    free(pages);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer EXPECTED_VERSION\n");
        return 2;
    }
    check_version(argv[1]);
    check_layouts();
    check_pair();
    check_scan();
    if (failures) {
        fprintf(stderr, "consumer: %d check(s) failed\n", failures);
        return 1;
    }
    printf("consumer: libkvcheck %s: ok\n", kvc_version());
    return 0;
}
