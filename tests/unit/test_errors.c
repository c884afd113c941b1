/* Errors that never crash: every library call, public or internal, takes a
 * NULL diag on failing inputs and still returns the right status; error
 * paths close what they opened; a failed fstat is reported as such.
 * Linked with --wrap=fstat (tests/CMakeLists.txt) to make fstat fail. */
#define _DEFAULT_SOURCE /* truncate, strdup */
#include "support.h"
#include "engine/sglang/sglang.h"

#include "kvgen.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fstat, failing on demand: as a real one may (EIO), but leaving in the
 * buffer what a directory's would hold, so code that reads the buffer after
 * the failure says "directory" instead of the error. */
int __real_fstat(int fd, struct stat *st);
int __wrap_fstat(int fd, struct stat *st);
static int fstat_fails;
int __wrap_fstat(int fd, struct stat *st)
{
    if (!fstat_fails) return __real_fstat(fd, st);
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFDIR | 0755;
    errno = EIO;
    return -1;
}

/* How many descriptors this process has open. */
static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

/* One clean page of `l` in a new temporary file; free the path. */
static char *one_page_file(const kvc_layout *l)
{
    uint8_t *buf = malloc(l->page_bytes);
    assert_non_null(buf);
    kvgen_pages(l, 1, 1, buf);
    char *path = strdup(temp_data_file(".bin", buf, l->page_bytes));
    assert_non_null(path);
    free(buf);
    return path;
}

static void test_errors__worker_calls_accept_a_null_diag(void **state)
{
    (void)state;
    kvc_worker *w = kvc_worker_create("w");
    assert_non_null(w);
    assert_int_equal(kvc_worker_load_file(w, "fixtures/does-not-exist.json", NULL), KVC_ERR_IO);
    assert_int_equal(kvc_worker_load_file(w, "fixtures", NULL), KVC_ERR_IO); /* a directory */
    assert_int_equal(kvc_worker_load_file(w, "fixtures/bad/malformed.json", NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_worker_set_gpu(w, "nope", NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_worker_set_model(w, "nope", NULL), KVC_ERR_CONFIG);
    kvc_resolved *r = NULL;
    assert_int_equal(kvc_resolve(w, &r, NULL), KVC_ERR_CONFIG); /* no GPU */
    assert_null(r);
    assert_int_equal(kvc_worker_set_release(w, "newest", NULL), KVC_ERR_USAGE);
    kvc_worker_free(w);
    /* a --config that is not there is read when the worker is resolved */
    w = worker_make("B300", "glm-5.2", "--config fixtures/does-not-exist.yaml");
    assert_int_equal(kvc_resolve(w, &r, NULL), KVC_ERR_IO);
    kvc_worker_free(w);
    /* layouts that cannot be built for the model: the error is rewritten
     * with the model's name, which used to read the (NULL) diag back */
    const char *bad[] = {"fixtures/bad/rank-not-128.json", "fixtures/bad/rank-448-hisparse-decode.json"};
    for (size_t i = 0; i < 2; i++) {
        w = worker_file(bad[i]);
        assert_int_equal(kvc_resolve(w, &r, NULL), KVC_ERR_CONFIG);
        kvc_diag d;
        assert_int_equal(kvc_resolve(w, &r, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, "fp8_flashmla needs kv_lora_rank to be a multiple of 128");
        kvc_worker_free(w);
    }
    assert_null(r);
}

static void test_errors__layout_and_model_calls_accept_a_null_diag(void **state)
{
    (void)state;
    kvc_layout l;
    kvc_layout_params p = {448, 64, 128, 64};
    assert_int_equal(layout_build("fp8_flashmla", &p, &l, NULL), KVC_ERR_CONFIG);
    assert_int_equal(layout_build("no-such-layout", &p, &l, NULL), KVC_ERR_CONFIG);
    p.kv_lora_rank = 512;
    p.page_size = 0;
    assert_int_equal(layout_build("fp8_raw", &p, &l, NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_model_layout_params("nope", &p, NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_model_layout_params("fixtures/does-not-exist.json", &p, NULL), KVC_ERR_IO);
}

static void test_errors__compare_and_simulate_accept_a_null_diag(void **state)
{
    (void)state;
    kvc_worker *p = worker_file("fixtures/pairs/dsa-rank-448/prefill.json");
    kvc_worker *d = worker_file("fixtures/pairs/dsa-rank-448/decode.json");
    kvc_worker *bad = worker_file("fixtures/bad/rank-448-hisparse-decode.json");
    kvc_verdict *v = NULL;
    /* the fix search resolves candidates that cannot be built (it crashed) */
    assert_int_equal(kvc_compare(p, d, &v, NULL), KVC_OK);
    assert_false(v->compatible);
    assert_true(v->nfixes > 0);
    kvc_verdict_free(v);
    v = NULL;
    assert_int_equal(kvc_compare(p, bad, &v, NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_worker_set_release(bad, "0.5.19", NULL), KVC_OK);
    assert_int_equal(kvc_worker_set_release(d, "0.5.19", NULL), KVC_OK);
    assert_int_equal(kvc_compare(bad, d, &v, NULL), KVC_ERR_CONFIG);
    assert_null(v);
    kvc_simulate_options o;
    kvc_simulate_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    o.tokens = 64;
    kvc_simulation *s = (kvc_simulation *)&o; /* a handle the failing call must clear */
    assert_int_equal(kvc_simulate(p, bad, &o, &s, NULL), KVC_ERR_CONFIG);
    assert_null(s);
    kvc_worker_free(p);
    kvc_worker_free(d);
    kvc_worker_free(bad);
}

static void test_errors__scan_and_detect_accept_a_null_diag(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_raw", 1);
    kvc_scan_report *r = NULL;
    const char *missing[] = {"fixtures/does-not-exist.bin"};
    const char *dir[] = {"fixtures"};
    assert_int_equal(kvc_scan_files(missing, 1, &l, NULL, &r, NULL), KVC_ERR_IO);
    assert_int_equal(kvc_scan_files(dir, 1, &l, NULL, &r, NULL), KVC_ERR_IO);
    assert_null(r);
    uint8_t bytes[100] = {0};
    assert_int_equal(kvc_scan_host(bytes, sizeof bytes, &l, NULL, &r, NULL), KVC_ERR_USAGE); /* not a whole page */
    assert_null(r);
    assert_int_equal(kvc_scan_device(0, 0, &l, NULL, &r, NULL), KVC_ERR_USAGE);
    kvc_detection *det = NULL;
    assert_int_equal(kvc_detect_files(missing, 1, &l.params, NULL, &det, NULL), KVC_ERR_IO);
    assert_int_equal(kvc_detect_host(NULL, 0, &l.params, &det, NULL), KVC_ERR_USAGE);
    assert_null(det);
    kvc_layout *lp = (kvc_layout *)&l; /* a handle the failing call must clear */
    assert_int_equal(kvc_layout_build("fp8_flashmla", &(kvc_layout_params){448, 64, 128, 64}, &lp, NULL), KVC_ERR_CONFIG);
    assert_null(lp);
    /* dimensions that leave a token no bytes (detect used to divide by the page's zero bytes) */
    assert_int_equal(kvc_layout_build("bf16", &(kvc_layout_params){0, 0, 0, 64}, &lp, NULL), KVC_ERR_CONFIG);
    det = (kvc_detection *)&l;
    assert_int_equal(kvc_detect_host(bytes, sizeof bytes, &(kvc_layout_params){0, 0, 0, 64}, &det, NULL), KVC_OK);
    assert_string_equal(kvc_detection_best(det), "unknown");
    kvc_detection_free(det);
    r = (kvc_scan_report *)&l;
    assert_int_equal(kvc_scan_host(bytes, sizeof bytes, &l, NULL, &r, NULL), KVC_ERR_USAGE);
    assert_null(r);
}

static void test_errors__report_error_accepts_a_null_diag(void **state)
{
    (void)state;
    char *text = kvc_report_error(NULL, 3, KVC_FORMAT_TEXT);
    assert_non_null(text);
    assert_string_equal(text, "kvcheck: error: no diagnostic was given\n");
    kvc_free(text);
    char *json = kvc_report_error(NULL, 3, KVC_FORMAT_JSON);
    assert_non_null(json);
    assert_contains(json, "\"code\":");
    assert_contains(json, "KVC_ERR_INTERNAL");
    kvc_free(json);
}

/* ---------------------------------------------------------------- internal */

static void test_errors__internal_calls_accept_a_null_diag(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(file_read_all("fixtures/does-not-exist.json", &text, &len, NULL), KVC_ERR_IO);
    assert_int_equal(file_read_all("fixtures", &text, &len, NULL), KVC_ERR_IO);
    assert_null(text);
    struct cJSON *root = NULL;
    assert_int_equal(json_parse("{\"a\": ", 6, "x.json", &root, NULL), KVC_ERR_CONFIG);
    assert_null(root);
    arglist list = {0};
    assert_int_equal(args_load_yaml(&list, "fixtures/bad/malformed.yaml", NULL), KVC_ERR_CONFIG);
    arglist_free(&list);
    model_info m;
    assert_int_equal(model_load("nope", ".", &m, NULL), KVC_ERR_CONFIG);
    page_range *ranges = NULL;
    size_t n = 0;
    assert_int_equal(page_list_parse("3-x", "--pages", &ranges, &n, NULL), KVC_ERR_USAGE);
    free(ranges);
    scan_inputs in;
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    const char *missing[] = {"fixtures/does-not-exist.bin"};
    assert_int_equal(inputs_open(missing, 1, NULL, &o, &in, NULL), KVC_ERR_IO);
}

/* A driver too old for kvcheck: the only entry point gpu_open reaches. */
static cu_result old_driver_version(int *v) { return *v = 11080, 0; }
static const cuda_api OLD_DRIVER = {.cuDriverGetVersion = old_driver_version};

static void test_errors__gpu_choose_accepts_a_null_diag(void **state)
{
    (void)state;
    gpu_ctx *g = NULL;
    char why_not[256];
    /* --device gpu without a usable GPU: an error, told to a NULL diag (it crashed) */
    assert_int_equal(gpu_choose(KVC_DEVICE_GPU, 0, &OLD_DRIVER, 0, &g, why_not, sizeof why_not, NULL), KVC_ERR_GPU);
    assert_null(g);
    kvc_diag d;
    assert_int_equal(gpu_choose(KVC_DEVICE_GPU, 0, &OLD_DRIVER, 0, &g, why_not, sizeof why_not, &d), KVC_ERR_GPU);
    assert_contains(d.message, "supports CUDA 11.8, kvcheck needs 12.0 or newer; --device gpu needs a usable NVIDIA GPU");
    /* --device auto falls back to the CPU and says why */
    assert_int_equal(gpu_choose(KVC_DEVICE_AUTO, 0, &OLD_DRIVER, 0, &g, why_not, sizeof why_not, NULL), KVC_OK);
    assert_null(g);
    assert_contains(why_not, "supports CUDA 11.8");
}

/* Streams a file's pages through the CPU scanner with pread (as for a file
 * not in the page cache), with a NULL diag; `shrink` truncates the file
 * after it is opened, so the reads fail. */
static kvc_status scan_streamed_null_diag(int shrink)
{
    kvc_layout l = layout_of("fp8_flashmla", 64);
    const uint64_t pages = 8;
    uint8_t *buf = malloc(pages * l.page_bytes);
    assert_non_null(buf);
    kvgen_pages(&l, pages, 1, buf);
    const char *path = temp_data_file(".bin", buf, pages * l.page_bytes);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_plan plan;
    scan_inputs in;
    const char *paths[] = {path};
    assert_int_equal(scan_plan_make(&l, &o, &plan, NULL), KVC_OK);
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, NULL), KVC_OK);
    if (shrink) assert_int_equal(truncate(path, 0), 0);
    uint32_t page_bad[8] = {0};
    layer_job job;
    memset(&job, 0, sizeof job);
    job.src = &in.layers[0];
    job.resident = 0;
    job.host = NULL; /* never touch the mapping of a file that shrank */
    job.npages = pages;
    job.page_bad = page_bad;
    kvc_status st = cpu_scan_layer(&plan, &job, 2, NULL);
    inputs_close(&in);
    unlink(path);
    free(buf);
    return st;
}

static void test_errors__streamed_cpu_scan_accepts_a_null_diag(void **state)
{
    (void)state;
    assert_int_equal(scan_streamed_null_diag(0), KVC_OK);
    assert_int_equal(scan_streamed_null_diag(1), KVC_ERR_IO);
}

/* ----------------------------------------------------- descriptors, fstat */

static void test_errors__failed_opens_leave_no_descriptor_open(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_raw", 1);
    char *path = one_page_file(&l);
    enum { MAX_FILES = 256 };
    const char *paths[MAX_FILES + 1];
    for (size_t i = 0; i <= MAX_FILES; i++) paths[i] = path;
    kvc_diag d;
    kvc_scan_report *r = NULL;
    kvc_detection *det = NULL;
    /* on the CPU: a GPU's driver keeps descriptors of its own open once loaded */
    kvc_scan_options cpu;
    kvc_scan_options_init(&cpu);
    cpu.device = KVC_DEVICE_CPU;
    const int before = count_fds();
    /* as many files as the map table holds: scanned, and all closed after */
    assert_int_equal(kvc_scan_files(paths, MAX_FILES, &l, &cpu, &r, &d), KVC_OK);
    assert_int_equal(r->nlayers, MAX_FILES);
    kvc_scan_report_free(r);
    r = NULL;
    assert_int_equal(count_fds(), before);
    /* one more: refused, and the file opened for it used to stay open */
    for (int round = 0; round < 3; round++) {
        assert_int_equal(kvc_scan_files(paths, MAX_FILES + 1, &l, &cpu, &r, &d), KVC_ERR_USAGE);
        assert_contains(d.message, "at most 256 input files at once");
        assert_null(r);
        assert_int_equal(kvc_detect_files(paths, MAX_FILES + 1, &l.params, NULL, &det, NULL), KVC_ERR_USAGE);
        assert_int_equal(count_fds(), before);
    }
    /* the other ways an input fails */
    const char *dir[] = {path, "fixtures"}, *missing[] = {path, "fixtures/does-not-exist.bin"};
    assert_int_equal(kvc_scan_files(dir, 2, &l, &cpu, &r, &d), KVC_ERR_IO);
    assert_contains(d.message, "it is a directory");
    assert_int_equal(kvc_scan_files(missing, 2, &l, &cpu, &r, NULL), KVC_ERR_IO);
    kvc_worker *w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_load_file(w, "fixtures", &d), KVC_ERR_IO);
    assert_contains(d.message, "it is a directory");
    assert_int_equal(kvc_worker_load_file(w, "fixtures/bad/malformed.json", NULL), KVC_ERR_CONFIG);
    assert_int_equal(kvc_worker_load_file(w, "fixtures/bad/malformed-yaml-worker.json", NULL), KVC_ERR_CONFIG);
    kvc_worker_free(w);
    assert_int_equal(count_fds(), before);
    assert_null(det);
    unlink(path);
    free(path);
}

static void test_errors__a_failed_fstat_is_reported_with_its_errno(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_raw", 1);
    char *path = one_page_file(&l);
    const char *paths[] = {path};
    const char *worker = "fixtures/pairs/hopper-fp8/prefill.json";
    kvc_worker *w = kvc_worker_create("w");
    assert_non_null(w);
    kvc_diag dw, ds;
    kvc_scan_report *r = NULL;
    kvc_scan_options cpu; /* a GPU's driver keeps descriptors of its own open once loaded */
    kvc_scan_options_init(&cpu);
    cpu.device = KVC_DEVICE_CPU;
    const int before = count_fds();
    fstat_fails = 1;
    kvc_status st_worker = kvc_worker_load_file(w, worker, &dw); /* file_read_all */
    kvc_status st_scan = kvc_scan_files(paths, 1, &l, &cpu, &r, &ds); /* map_file */
    fstat_fails = 0;
    char want[600];
    assert_int_equal(st_worker, KVC_ERR_IO);
    snprintf(want, sizeof want, "cannot read %s: %s", worker, strerror(EIO));
    assert_contains(dw.message, want);
    assert_int_equal(st_scan, KVC_ERR_IO);
    snprintf(want, sizeof want, "cannot read %s: %s", path, strerror(EIO));
    assert_contains(ds.message, want);
    assert_null(r);
    assert_int_equal(count_fds(), before);
    /* and with fstat working again, both read */
    assert_int_equal(kvc_worker_load_file(w, worker, &dw), KVC_OK);
    assert_int_equal(kvc_scan_files(paths, 1, &l, NULL, &r, &ds), KVC_OK);
    kvc_scan_report_free(r);
    kvc_worker_free(w);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors__worker_calls_accept_a_null_diag),
        cmocka_unit_test(test_errors__layout_and_model_calls_accept_a_null_diag),
        cmocka_unit_test(test_errors__compare_and_simulate_accept_a_null_diag),
        cmocka_unit_test(test_errors__scan_and_detect_accept_a_null_diag),
        cmocka_unit_test(test_errors__report_error_accepts_a_null_diag),
        cmocka_unit_test(test_errors__internal_calls_accept_a_null_diag),
        cmocka_unit_test(test_errors__gpu_choose_accepts_a_null_diag),
        cmocka_unit_test(test_errors__streamed_cpu_scan_accepts_a_null_diag),
        cmocka_unit_test(test_errors__failed_opens_leave_no_descriptor_open),
        cmocka_unit_test(test_errors__a_failed_fstat_is_reported_with_its_errno),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
