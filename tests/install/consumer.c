/* A program outside the project, built against an installed libkvcheck
 * (tests/install/run.sh builds it with pkg-config and with find_package,
 * against the shared and the static library). It includes only the
 * installed header and uses only exported functions: the version, a
 * catalogue layout, a diagnostic, a scan of clean and of damaged pages and
 * a report. Exits 1 on any mismatch, saying which. */
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
    const kvc_layout_params glm = {512, 64, 128, 64};
    kvc_layout l;
    kvc_diag d;
    kvc_status st = kvc_layout_build("fp8_flashmla", &glm, &l, &d);
    CHECK(st == KVC_OK, "fp8_flashmla: %s: %s", kvc_status_name(st), d.message);
    if (st == KVC_OK) {
        CHECK(l.bytes_per_token == 656, "fp8_flashmla: %u bytes per token, not 656", l.bytes_per_token);
        CHECK(l.page_bytes == 41984, "fp8_flashmla: %llu bytes per page, not 41984",
              (unsigned long long)l.page_bytes);
        CHECK(kvc_layout_field(&l, "scale") != NULL, "fp8_flashmla has no scale field");
    }
    /* FlashMLA's FP8 rows need R to be a multiple of 128: refused, with a reason */
    const kvc_layout_params odd = {500, 64, 128, 64};
    st = kvc_layout_build("fp8_flashmla", &odd, &l, &d);
    CHECK(st == KVC_ERR_CONFIG, "fp8_flashmla with R=500: %s, not KVC_ERR_CONFIG", kvc_status_name(st));
    CHECK(d.message[0] != '\0', "fp8_flashmla with R=500: no message");
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
    const kvc_layout_params glm = {512, 64, 128, 64};
    kvc_layout l;
    kvc_diag d;
    if (kvc_layout_build("bf16", &glm, &l, &d) != KVC_OK) {
        CHECK(0, "bf16: %s", d.message);
        return;
    }
    const size_t npages = 2, bytes = npages * l.page_bytes;
    unsigned char *pages = calloc(1, bytes); /* bf16 zeros: valid values */
    if (!pages) {
        CHECK(0, "out of memory");
        return;
    }
    kvc_scan_report *r = scan(pages, bytes, &l);
    if (r) {
        CHECK(r->clean, "zeroed bf16 pages reported damaged (%llu)", (unsigned long long)r->damaged);
        CHECK(r->pages_scanned == npages, "%llu pages scanned, not %zu", (unsigned long long)r->pages_scanned,
              npages);
        CHECK(r->bytes_scanned == bytes, "%llu bytes scanned, not %zu", (unsigned long long)r->bytes_scanned,
              bytes);
    }
    kvc_scan_report_free(r);

    /* one bf16 NaN (0x7fc0) in page 1, token 3, element 5 of the first field */
    const kvc_field *f = &l.fields[0];
    unsigned char *at = pages + l.page_bytes + f->base + 3 * f->stride + 5 * kvc_elem_size(f->elem);
    at[0] = 0xc0;
    at[1] = 0x7f;
    r = scan(pages, bytes, &l);
    if (r) {
        CHECK(!r->clean && r->damaged == 1, "a planted NaN: clean %d, %llu damaged", r->clean,
              (unsigned long long)r->damaged);
        CHECK(r->counts[KVC_CHECK_BF16_NAN] == 1, "bf16_nan counted %llu times",
              (unsigned long long)r->counts[KVC_CHECK_BF16_NAN]);
        if (r->nfindings == 1) {
            const kvc_finding *x = &r->findings[0];
            CHECK(x->page == 1 && x->slot == 3 && x->element == 5 && strcmp(x->field, f->name) == 0,
                  "finding at page %llu slot %llu %s[%u], not page 1 slot 3 %s[5]", (unsigned long long)x->page,
                  (unsigned long long)x->slot, x->field, x->element, f->name);
            CHECK(strcmp(kvc_check_name(x->check), "bf16_nan") == 0, "finding is %s, not bf16_nan",
                  kvc_check_name(x->check));
        } else {
            CHECK(0, "%zu findings, not 1", r->nfindings);
        }
        char *json = kvc_report_scan(r, KVC_FORMAT_JSON, 0);
        CHECK(json && strstr(json, "\"bf16_nan\""), "the JSON report does not name bf16_nan");
        kvc_free(json);
    }
    kvc_scan_report_free(r);
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
    check_scan();
    if (failures) {
        fprintf(stderr, "consumer: %d check(s) failed\n", failures);
        return 1;
    }
    printf("consumer: libkvcheck %s: ok\n", kvc_version());
    return 0;
}
