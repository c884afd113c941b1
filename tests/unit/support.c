#define _DEFAULT_SOURCE /* mkstemps */
#include "support.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
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

kvc_status resolve_line(const char *gpu, const char *model, const char *args, const char *release,
                        kvc_resolved *out, kvc_diag *diag)
{
    kvc_worker *w = kvc_worker_create("test");
    assert_non_null(w);
    kvc_status st = kvc_worker_set_gpu(w, gpu, diag);
    if (!st) st = kvc_worker_set_model(w, model, diag);
    if (!st && args) st = kvc_worker_add_args(w, args, "--args", diag);
    if (!st && release) st = kvc_worker_set_release(w, release, diag);
    if (!st) st = worker_resolve_selected(w, out, diag);
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

kvc_simulation *simulate_pair(const char *name, kvc_device device, uint64_t tokens, uint64_t seed)
{
    kvc_worker *p, *d;
    kvc_diag diag;
    pair_load(name, &p, &d);
    kvc_simulate_options o;
    kvc_simulate_options_init(&o);
    o.device = device;
    o.tokens = tokens;
    o.seed = seed;
    kvc_simulation *s = NULL;
    if (kvc_simulate(p, d, &o, &s, &diag) != KVC_OK) fail_msg("%s: %s", name, diag.message);
    kvc_worker_free(p);
    kvc_worker_free(d);
    return s;
}

void scan_file_layer(const char *path, const kvc_layout *l, gpu_ctx *g, int resident, unsigned threads,
                     uint64_t counts[KVC_CHECK_COUNT], uint32_t *page_bad, uint64_t npages)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_plan plan;
    scan_inputs in;
    kvc_diag d;
    const char *paths[] = {path};
    assert_int_equal(scan_plan_make(l, &o, &plan, &d), KVC_OK);
    assert_int_equal(inputs_open(paths, 1, l, &o, &in, &d), KVC_OK);
    layer_job job;
    memset(&job, 0, sizeof job);
    job.src = &in.layers[0];
    job.resident = resident;
    job.host = in.layers[0].data;
    job.npages = npages;
    job.page_bad = page_bad;
    kvc_status st = g ? gpu_scan_layer(g, &plan, &job, threads, &d) : cpu_scan_layer(&plan, &job, threads, &d);
    if (st) fail_msg("%s: %s", path, d.message);
    memcpy(counts, job.counts, sizeof job.counts);
    inputs_close(&in);
}

void _assert_contains(const char *haystack, const char *needle, const char *file, int line)
{
    if (haystack && strstr(haystack, needle)) return;
    print_error("expected \"%s\" in \"%s\"\n", needle, haystack ? haystack : "(null)");
    _fail(file, line);
}

/* The test program's own temporary directory, made at the first temporary file and removed with its files when the
 * program exits (by the process that made it, not a child). */
static char temp_root[] = "/tmp/kvc_test_XXXXXX";
static pid_t temp_owner;

static void temp_root_remove(void)
{
    if (getpid() != temp_owner) return;
    DIR *d = opendir(temp_root);
    if (!d) return;
    char path[sizeof temp_root + 256];
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", temp_root, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(temp_root);
}

const char *temp_data_file(const char *suffix, const void *data, size_t bytes)
{
    static char path[256];
    if (!temp_owner) {
        assert_non_null(mkdtemp(temp_root));
        temp_owner = getpid();
        atexit(temp_root_remove);
    }
    snprintf(path, sizeof path, "%s/XXXXXX%s", temp_root, suffix);
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

void write_text(const char *dir, const char *name, const char *text, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

kvc_layout layout_of(const char *name, uint32_t page_size)
{
    kvc_layout l;
    kvc_diag d;
    kvc_layout_params p = *layout_default_params();
    p.page_size = page_size;
    if (layout_build(name, &p, &l, &d) != KVC_OK) fail_msg("%s: %s", name, d.message);
    return l;
}

kvc_worker *worker_file(const char *path)
{
    kvc_worker *w = kvc_worker_create(path);
    kvc_diag d;
    assert_non_null(w);
    if (kvc_worker_load_file(w, path, &d) != KVC_OK) fail_msg("%s: %s", path, d.message);
    return w;
}

void fix_line(const kvc_fix *fix, char *out, size_t size)
{
    out[0] = '\0';
    for (unsigned k = 0; k < fix->nargs; k++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s %s", k ? " " : "", fix->args[k][0], fix->args[k][1]);
}
