/* Hostile byte inputs: files that shrink while they are read, files that
 * are not regular files (a FIFO without a writer, /dev/zero, a socket),
 * configuration files past the size limit, and large but legitimate
 * .safetensors headers. Calls that could block run under alarm(): a call
 * that hangs kills the test instead of hanging it. Messages of malformed
 * fixtures are pinned by the golden CLI tests. */
#define _DEFAULT_SOURCE /* truncate, mkdtemp */
#include "support.h"

#include "kvgen.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define PAGES 8

/* PAGES clean pages of `l` in a new temporary file; free the path. */
static char *pages_file(const kvc_layout *l)
{
    uint8_t *buf = malloc(PAGES * l->page_bytes);
    assert_non_null(buf);
    kvgen_pages(l, PAGES, 3, buf);
    char *path = strdup(temp_data_file(".bin", buf, PAGES * l->page_bytes));
    assert_non_null(path);
    free(buf);
    return path;
}

static void assert_changed(const kvc_diag *d, const char *path, uint64_t now)
{
    char want[600];
    snprintf(want, sizeof want, "%s changed while it was read (now %llu bytes)", path, (unsigned long long)now);
    assert_int_equal(d->status, KVC_ERR_IO);
    assert_string_equal(d->message, want);
}

/* -------------------------------------------------------- files that shrink */

static void test_inputs__a_file_truncated_after_open_fails_the_scan_with_its_new_size(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    char *path = pages_file(&l);
    const char *paths[] = {path};
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    for (unsigned threads = 1; threads <= 4; threads *= 4) {
        o.threads = threads;
        scan_inputs in;
        kvc_diag d;
        kvc_scan_report *r = NULL;
        assert_int_equal(inputs_open(paths, 1, &l, &o, &in, &d), KVC_OK);
        assert_int_equal(truncate(path, (off_t)l.page_bytes), 0); /* another process truncates it */
        assert_int_equal(scan_inputs_run(&in, &l, &o, NULL, &r, &d), KVC_ERR_IO);
        assert_changed(&d, path, l.page_bytes);
        assert_null(r);
        inputs_close(&in);
        assert_int_equal(truncate(path, (off_t)(PAGES * l.page_bytes)), 0); /* zeros again, for the next round */
    }
    unlink(path);
    free(path);
}

/* The same, where the pages are read in place from the mapping (a file in
 * the page cache): the fault there is caught, not fatal, on every path that
 * touches mapped bytes. */
static void test_inputs__a_file_truncated_under_its_mapping_does_not_kill_the_process(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    char *path = pages_file(&l);
    const char *paths[] = {path};
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_plan plan;
    assert_int_equal(scan_plan_make(&l, &o, &plan, NULL), KVC_OK);
    scan_inputs in;
    kvc_diag d;
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, &d), KVC_OK);
    assert_int_equal(truncate(path, 100), 0);
    uint32_t page_bad[PAGES] = {0};
    for (unsigned threads = 1; threads <= 4; threads *= 2) {
        layer_job job;
        memset(&job, 0, sizeof job);
        job.src = &in.layers[0];
        job.resident = 1; /* scanned in place */
        job.host = in.layers[0].data;
        job.npages = PAGES;
        job.page_bad = page_bad;
        memset(&d, 0, sizeof d);
        assert_int_equal(cpu_scan_layer(&plan, &job, threads, &d), KVC_ERR_IO);
        assert_changed(&d, path, 100);
        /* copied from the mapping into a buffer (the GPU's path for cached files) */
        uint8_t *buf = malloc(PAGES * l.page_bytes);
        assert_non_null(buf);
        memset(&d, 0, sizeof d);
        assert_int_equal(layer_read(&in.layers[0], NULL, 0, PAGES, l.page_bytes, buf, 1, threads, &d), KVC_ERR_IO);
        assert_changed(&d, path, 100);
        /* and with pread */
        memset(&d, 0, sizeof d);
        assert_int_equal(layer_read(&in.layers[0], NULL, 0, PAGES, l.page_bytes, buf, 0, threads, &d), KVC_ERR_IO);
        assert_changed(&d, path, 100);
        free(buf);
    }
    kvc_detection *det = malloc(sizeof *det);
    assert_non_null(det);
    memset(&d, 0, sizeof d);
    assert_int_equal(detect_inputs(&in, &l.params, det, &d), KVC_ERR_IO);
    assert_changed(&d, path, 100);
    free(det);
    /* with a NULL diag too */
    layer_job job;
    memset(&job, 0, sizeof job);
    job.src = &in.layers[0];
    job.resident = 1;
    job.host = in.layers[0].data;
    job.npages = PAGES;
    job.page_bad = page_bad;
    assert_int_equal(cpu_scan_layer(&plan, &job, 2, NULL), KVC_ERR_IO);
    inputs_close(&in);
    unlink(path);
    free(path);
}

static volatile sig_atomic_t others_sigbus;
static void others_handler(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)info, (void)context;
    others_sigbus++;
}

/* The library is linked into serving engines: its SIGBUS handler is there
 * only while inputs are open, passes on what is not its own, and leaves
 * the handler it found in place after. */
static void test_inputs__the_sigbus_handler_is_scoped_to_the_scan_and_passes_on_others(void **state)
{
    (void)state;
    struct sigaction mine, before, during, after;
    memset(&mine, 0, sizeof mine);
    mine.sa_sigaction = others_handler;
    mine.sa_flags = SA_SIGINFO;
    sigemptyset(&mine.sa_mask);
    assert_int_equal(sigaction(SIGBUS, &mine, &before), 0);
    kvc_layout l = layout_of("fp8_flashmla", 64);
    char *path = pages_file(&l);
    const char *paths[] = {path};
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_inputs in, again;
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, NULL), KVC_OK);
    assert_int_equal(inputs_open(paths, 1, &l, &o, &again, NULL), KVC_OK); /* two scans at once share it */
    assert_int_equal(sigaction(SIGBUS, NULL, &during), 0);
    assert_true(during.sa_sigaction != others_handler);
    others_sigbus = 0;
    raise(SIGBUS); /* sent, not a fault in a mapping: the handler found gets it */
    assert_int_equal(others_sigbus, 1);
    inputs_close(&again);
    assert_int_equal(sigaction(SIGBUS, NULL, &after), 0);
    assert_true(after.sa_sigaction != others_handler); /* the first scan still runs */
    inputs_close(&in);
    assert_int_equal(sigaction(SIGBUS, NULL, &after), 0);
    assert_true(after.sa_sigaction == others_handler);
    assert_int_equal(sigaction(SIGBUS, &before, NULL), 0);
    unlink(path);
    free(path);
}

/* ------------------------------------------------- not regular, too large */

/* A temporary directory for a FIFO and a socket; free it. */
static char *temp_dir(void)
{
    char *dir = strdup("/tmp/kvc_test_XXXXXX");
    assert_non_null(dir);
    assert_non_null(mkdtemp(dir));
    return dir;
}

/* Loads `path` as a worker file and scans and detects it as a dump; each
 * must fail at once with KVC_ERR_IO, "not a regular file (KIND)". */
static void assert_refused(const char *path, const char *kind)
{
    char want[600];
    snprintf(want, sizeof want, "cannot read %s: not a regular file (%s)", path, kind);
    kvc_layout l = layout_of("fp8_flashmla", 64);
    kvc_worker *w = kvc_worker_create("w");
    assert_non_null(w);
    kvc_diag d;
    kvc_scan_report *r = NULL;
    kvc_detection *det = NULL;
    const char *paths[] = {path};
    alarm(20); /* a call that blocks fails the test instead of hanging it */
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_ERR_IO);
    assert_string_equal(d.message, want);
    assert_int_equal(kvc_scan_files(paths, 1, &l, NULL, &r, &d), KVC_ERR_IO);
    assert_string_equal(d.message, want);
    assert_null(r);
    assert_int_equal(kvc_detect_files(paths, 1, &l.params, NULL, &det, &d), KVC_ERR_IO);
    assert_string_equal(d.message, want);
    assert_null(det);
    alarm(0);
    kvc_worker_free(w);
}

static void test_inputs__a_fifo_without_a_writer_is_refused_without_blocking(void **state)
{
    (void)state;
    char *dir = temp_dir(), path[600];
    snprintf(path, sizeof path, "%s/dump.bin", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_refused(path, "a FIFO");
    unlink(path);
    rmdir(dir);
    free(dir);
}

static void test_inputs__dev_zero_and_sockets_are_refused(void **state)
{
    (void)state;
    assert_refused("/dev/zero", "a character device");
    char *dir = temp_dir();
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof a.sun_path, "%s/s", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    assert_int_equal(bind(s, (const struct sockaddr *)&a, sizeof a), 0);
    assert_refused(a.sun_path, "a socket");
    close(s);
    unlink(a.sun_path);
    rmdir(dir);
    free(dir);
}

static void test_inputs__a_configuration_file_past_64_mib_is_refused_unread(void **state)
{
    (void)state;
    char *path = strdup(temp_file(".json", "{}"));
    assert_non_null(path);
    assert_int_equal(truncate(path, (off_t)(64 << 20) + 1), 0); /* sparse: no disk used */
    kvc_worker *w = kvc_worker_create("w");
    assert_non_null(w);
    kvc_diag d;
    char want[600];
    snprintf(want, sizeof want, "%s holds 67108865 bytes; a configuration file may hold at most 64 MiB", path);
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.message, want);
    assert_string_equal(d.file, path);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(file_read_all(path, &text, &len, NULL), KVC_ERR_CONFIG);
    assert_null(text);
    kvc_worker_free(w);
    unlink(path);
    free(path);
}

/* --------------------------------------------------- large .safetensors */

#define MANY 60000

/* A header of MANY one-byte tensors "t.<i>" in reverse file order; with
 * `repeat`, the last key repeats the first. Free it. */
static char *many_tensors(int repeat)
{
    size_t size = (size_t)MANY * 80 + 64, n = 0;
    char *h = malloc(size);
    assert_non_null(h);
    n += (size_t)snprintf(h + n, size - n, "{");
    for (unsigned i = 0; i < MANY; i++)
        n += (size_t)snprintf(h + n, size - n, "%s\n\"t.%u\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[%u,%u]}",
                              i ? "," : "", repeat && i == MANY - 1 ? 0 : i, MANY - 1 - i, MANY - i);
    snprintf(h + n, size - n, "}");
    return h;
}

static void test_inputs__a_header_of_60000_tensors_opens_as_60000_layers_in_file_order(void **state)
{
    (void)state;
    char *header = many_tensors(0);
    uint8_t *data = calloc(MANY, 1);
    assert_non_null(data);
    char *path = strdup(temp_data_file(".safetensors", "", 0));
    assert_non_null(path);
    assert_int_equal(kvgen_write_safetensors_header(path, header, data, MANY), 0);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_inputs in;
    kvc_diag d;
    const char *paths[] = {path};
    if (inputs_open(paths, 1, NULL, &o, &in, &d) != KVC_OK) fail_msg("%s", d.message);
    assert_int_equal(in.nlayers, MANY);
    assert_string_equal(in.layers[0].name, "t.59999"); /* the bytes' order, not the header's */
    assert_string_equal(in.layers[MANY - 1].name, "t.0");
    for (size_t i = 1; i < MANY; i++) assert_int_equal(in.layers[i].file_offset, in.layers[i - 1].file_offset + 1);
    inputs_close(&in);
    free(header);
    /* a repeated name among them is found, at its second occurrence: line MANY + 1 */
    header = many_tensors(1);
    assert_int_equal(kvgen_write_safetensors_header(path, header, data, MANY), 0);
    assert_int_equal(inputs_open(paths, 1, NULL, &o, &in, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "duplicate key \"t.0\"");
    assert_int_equal(d.line, MANY + 1);
    assert_int_equal(d.column, 1);
    free(header);
    free(data);
    unlink(path);
    free(path);
}

/* detect reads at most DETECT_SAMPLE_TOTAL pages however many layers there
 * are, spread over them, and still recognises the layout. */
static void test_inputs__detect_samples_a_bounded_number_of_pages_of_many_layers(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 1);
    enum { LAYERS = 3000 };
    uint8_t *data = malloc(LAYERS * l.page_bytes);
    assert_non_null(data);
    kvgen_pages(&l, LAYERS, 5, data);
    size_t size = (size_t)LAYERS * 96 + 64, n = 0;
    char *h = malloc(size);
    assert_non_null(h);
    n += (size_t)snprintf(h + n, size - n, "{");
    for (unsigned i = 0; i < LAYERS; i++)
        n += (size_t)snprintf(h + n, size - n, "%s\"l.%u\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[%llu,%llu]}",
                              i ? "," : "", i, (unsigned long long)l.page_bytes,
                              (unsigned long long)(i * l.page_bytes), (unsigned long long)((i + 1) * l.page_bytes));
    snprintf(h + n, size - n, "}");
    char *path = strdup(temp_data_file(".safetensors", "", 0));
    assert_non_null(path);
    assert_int_equal(kvgen_write_safetensors_header(path, h, data, LAYERS * l.page_bytes), 0);
    const char *paths[] = {path};
    kvc_detection *det = NULL;
    kvc_diag d;
    if (kvc_detect_files(paths, 1, &l.params, NULL, &det, &d) != KVC_OK) fail_msg("%s", d.message);
    assert_string_equal(kvc_detection_best(det), "fp8_flashmla");
    assert_int_equal(kvc_detection_pages_sampled(det), DETECT_SAMPLE_TOTAL);
    kvc_detection_free(det);
    free(h);
    free(data);
    unlink(path);
    free(path);
}

/* A tensor of no bytes overlaps nothing, even at another's offsets. */
static void test_inputs__tensors_of_no_bytes_may_share_offsets(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *data = calloc(1, l.page_bytes);
    assert_non_null(data);
    char header[512];
    snprintf(header, sizeof header,
             "{\"empty\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]},"
             "\"also.empty\":{\"dtype\":\"F16\",\"shape\":[0, 7],\"data_offsets\":[0,0]},"
             "\"kv\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[0,%llu]}}",
             (unsigned long long)l.page_bytes, (unsigned long long)l.page_bytes);
    char *path = strdup(temp_data_file(".safetensors", "", 0));
    assert_non_null(path);
    assert_int_equal(kvgen_write_safetensors_header(path, header, data, l.page_bytes), 0);
    const char *paths[] = {path}, *kv[] = {"kv"};
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.tensors = kv;
    o.ntensors = 1;
    scan_inputs in;
    kvc_diag d;
    if (inputs_open(paths, 1, &l, &o, &in, &d) != KVC_OK) fail_msg("%s", d.message);
    assert_int_equal(in.nlayers, 1);
    assert_string_equal(in.layers[0].name, "kv");
    inputs_close(&in);
    free(data);
    unlink(path);
    free(path);
}

/* ------------------------------------------------------ limits, page lists */

static void test_inputs__paths_and_tensor_names_past_the_report_s_limits_are_refused(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    char path[700];
    memset(path, 0, sizeof path);
    memcpy(path, "/tmp/", 5);
    for (size_t i = 5; i < 600; i++) path[i] = i % 100 == 99 ? '/' : 'd'; /* never created: refused first */
    const char *paths[] = {path};
    kvc_scan_report *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_scan_files(paths, 1, &l, NULL, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "an input path of 600 bytes");
    assert_contains(d.message, "kvcheck takes paths of up to 511 bytes");
    char name[300], header[700];
    memset(name, 'n', 256);
    name[256] = '\0';
    uint8_t *data = calloc(1, l.page_bytes);
    assert_non_null(data);
    snprintf(header, sizeof header, "{\"%s\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[0,%llu]}}", name,
             (unsigned long long)l.page_bytes, (unsigned long long)l.page_bytes);
    char *st = strdup(temp_data_file(".safetensors", "", 0));
    assert_non_null(st);
    assert_int_equal(kvgen_write_safetensors_header(st, header, data, l.page_bytes), 0);
    paths[0] = st;
    assert_int_equal(kvc_scan_files(paths, 1, &l, NULL, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "a tensor name of 256 bytes");
    assert_contains(d.message, "kvcheck takes names of up to 255 bytes");
    name[255] = '\0'; /* the longest that is taken whole */
    snprintf(header, sizeof header, "{\"%s\":{\"dtype\":\"U8\",\"shape\":[%llu],\"data_offsets\":[0,%llu]}}", name,
             (unsigned long long)l.page_bytes, (unsigned long long)l.page_bytes);
    assert_int_equal(kvgen_write_safetensors_header(st, header, data, l.page_bytes), 0);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = KVC_DEVICE_CPU;
    if (kvc_scan_files(paths, 1, &l, &o, &r, &d) != KVC_OK) fail_msg("%s", d.message);
    assert_string_equal(r->layers[0].name, name);
    kvc_scan_report_free(r);
    unlink(st);
    free(st);
    free(data);
}

/* page_select against the definition, page by page, on random lists. */
static void test_inputs__page_lists_select_what_they_say_however_long(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    page_range only[8], skip[8];
    for (int round = 0; round < 2000; round++) {
        const uint64_t npages = 1 + (seed = seed * 6364136223846793005ull + 1442695040888963407ull) % 64;
        const size_t no = (size_t)((seed >> 20) % 4), nsk = (size_t)((seed >> 30) % 5);
        for (size_t i = 0; i < no + nsk; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t lim = i < no ? npages : npages + 8, a = (seed >> 33) % lim, b = a + (seed >> 45) % 6;
            if (b >= lim) b = lim - 1;
            if (i < no) only[i] = (page_range){a, b};
            else skip[i - no] = (page_range){a, b};
        }
        if (nsk && round % 7 == 0) skip[0].last = UINT64_MAX; /* skips to the end of everything */
        uint64_t *list = NULL, count = 0, want = 0;
        assert_int_equal(page_select(only, no, skip, nsk, npages, "x", &list, &count, NULL), KVC_OK);
        for (uint64_t p = 0; p < npages; p++) {
            int in = !no, out = 0;
            for (size_t i = 0; i < no; i++) in |= p >= only[i].first && p <= only[i].last;
            for (size_t i = 0; i < nsk; i++) out |= p >= skip[i].first && p <= skip[i].last;
            if (!in || out) continue;
            assert_true(want < count);
            assert_int_equal(list ? list[want] : want, p); /* NULL: all pages, when there are no lists */
            assert_true(list || (!no && !nsk));
            want++;
        }
        assert_int_equal(count, want);
        free(list);
    }
    /* a skip list of 200,000 pages over 400,000: every other page left */
    enum { SKIPS = 200000 };
    page_range *many = malloc(SKIPS * sizeof *many);
    assert_non_null(many);
    for (uint64_t i = 0; i < SKIPS; i++) many[i] = (page_range){2 * (SKIPS - 1 - i), 2 * (SKIPS - 1 - i)};
    uint64_t *list = NULL, count = 0;
    assert_int_equal(page_select(NULL, 0, many, SKIPS, 2 * SKIPS, "x", &list, &count, NULL), KVC_OK);
    assert_int_equal(count, SKIPS);
    for (uint64_t i = 0; i < SKIPS; i++) assert_int_equal(list[i], 2 * i + 1);
    free(list);
    free(many);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs__a_file_truncated_after_open_fails_the_scan_with_its_new_size),
        cmocka_unit_test(test_inputs__a_file_truncated_under_its_mapping_does_not_kill_the_process),
        cmocka_unit_test(test_inputs__the_sigbus_handler_is_scoped_to_the_scan_and_passes_on_others),
        cmocka_unit_test(test_inputs__a_fifo_without_a_writer_is_refused_without_blocking),
        cmocka_unit_test(test_inputs__dev_zero_and_sockets_are_refused),
        cmocka_unit_test(test_inputs__a_configuration_file_past_64_mib_is_refused_unread),
        cmocka_unit_test(test_inputs__a_header_of_60000_tensors_opens_as_60000_layers_in_file_order),
        cmocka_unit_test(test_inputs__detect_samples_a_bounded_number_of_pages_of_many_layers),
        cmocka_unit_test(test_inputs__tensors_of_no_bytes_may_share_offsets),
        cmocka_unit_test(test_inputs__paths_and_tensor_names_past_the_report_s_limits_are_refused),
        cmocka_unit_test(test_inputs__page_lists_select_what_they_say_however_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
