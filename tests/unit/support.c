#define _DEFAULT_SOURCE /* mkstemps */
#include "support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

kvc_worker *worker_make(const char *gpu, const char *model, const char *args)
{
    kvc_worker *w = kvc_worker_create("test");
    kvc_diag d;
    assert_non_null(w);
    if (gpu) assert_int_equal(kvc_worker_set_gpu(w, gpu, &d), KVC_OK);
    if (model) assert_int_equal(kvc_worker_set_model(w, model, &d), KVC_OK);
    if (args && kvc_worker_add_args(w, args, "--args", &d) != KVC_OK) fail_msg("args rejected: %s", d.message);
    return w;
}

kvc_status resolve_line(const char *gpu, const char *model, const char *args, kvc_rules rules,
                        kvc_resolved *out, kvc_diag *diag)
{
    kvc_worker *w = kvc_worker_create("test");
    assert_non_null(w);
    kvc_status st = kvc_worker_set_gpu(w, gpu, diag);
    if (!st) st = kvc_worker_set_model(w, model, diag);
    if (!st && args) st = kvc_worker_add_args(w, args, "--args", diag);
    if (!st) st = kvc_resolve(w, rules, out, diag);
    kvc_worker_free(w);
    return st;
}

void pair_load(const char *name, kvc_worker **prefill, kvc_worker **decode)
{
    char path[256];
    kvc_diag d;
    *prefill = kvc_worker_create("prefill");
    *decode = kvc_worker_create("decode");
    assert_true(*prefill && *decode);
    snprintf(path, sizeof path, "fixtures/pairs/%s/prefill.json", name);
    if (kvc_worker_load_file(*prefill, path, &d) != KVC_OK) fail_msg("%s: %s", path, d.message);
    snprintf(path, sizeof path, "fixtures/pairs/%s/decode.json", name);
    if (kvc_worker_load_file(*decode, path, &d) != KVC_OK) fail_msg("%s: %s", path, d.message);
}

void _assert_contains(const char *haystack, const char *needle, const char *file, int line)
{
    if (haystack && strstr(haystack, needle)) return;
    print_error("expected \"%s\" in \"%s\"\n", needle, haystack ? haystack : "(null)");
    _fail(file, line);
}

const char *temp_data_file(const char *suffix, const void *data, size_t bytes)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/kvc_test_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    assert_true(fd >= 0);
    for (size_t done = 0; done < bytes;) {
        ssize_t n = write(fd, (const char *)data + done, bytes - done);
        assert_true(n > 0);
        done += (size_t)n;
    }
    close(fd);
    return path;
}

const char *temp_file(const char *suffix, const char *text) { return temp_data_file(suffix, text, strlen(text)); }

kvc_layout layout_of(const char *name, uint32_t page_size)
{
    kvc_layout l;
    kvc_diag d;
    kvc_layout_params p = *layout_default_params();
    p.page_size = page_size;
    if (kvc_layout_build(name, &p, &l, &d) != KVC_OK) fail_msg("%s: %s", name, d.message);
    return l;
}
