/* kvcheck's benchmark: each scan figure beside its reference over the same
 * bytes in the same process, and their ratio (DESIGN.md §6).
 *
 *   GPU  scan of pages already in device memory  vs  a plain 16-byte-load read kernel
 *        (one buffer, both timed call by call, the read kernel also back to back;
 *        an engine's pool of 79 layer buffers x 1024 pages whole, one request's
 *        66 pages x 79 layers, and one page: the fixed cost of a call)
 *   CPU  scan on one thread                      vs  a plain read loop on one thread
 *   file scan                                    vs  reading the file to nowhere (as cat > /dev/null)
 *
 *   simulate of 1M tokens x 1 layer on the GPU (and the CPU)
 *
 * usage: kvcheck-bench [--gpu-gib LIST] [--cpu-mib N] [--file PATH] [--file-mib N] [--cold 1] [--sim-tokens N]
 * --cold 1 empties the page cache before every file run (needs root); else the file is cached. */
#define _GNU_SOURCE
#include "scanner/scanner.h"
#include "simulate/simulate.h"
#include "kvgen.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void row(const char *what, double figure, double reference, const char *unit, double target)
{
    double ratio = figure / reference;
    printf("%-44s %9.2f %-5s  reference %9.2f %-5s  ratio %.3f  (target >= %.2f%s)\n", what, figure, unit, reference,
           unit, ratio, target, ratio >= target ? "" : ", MISSED");
}

static kvc_layout layout(const char *name)
{
    kvc_layout l;
    kvc_diag d;
    if (layout_build(name, layout_default_params(), &l, &d)) {
        fprintf(stderr, "%s\n", d.message);
        exit(1);
    }
    return l;
}

/* A host buffer of whole clean pages: a few generated, then repeated. */
static uint8_t *clean_pages(const kvc_layout *l, uint64_t pages)
{
    uint8_t *buf = malloc(pages * l->page_bytes);
    if (buf) kvgen_pages_repeated(l, pages, 8, 1, buf);
    return buf;
}

/* The plain read loop: every 8-byte word folded in, nothing else. Its clones are called through their resolver, so
 * never inlined (clang refuses noinline beside target_clones). */
__attribute__((target_clones("avx2", "default"))) static uint64_t read_loop(const uint8_t *p, uint64_t bytes)
{
    uint64_t acc = 0, w;
    for (uint64_t i = 0; i + 8 <= bytes; i += 8) {
        memcpy(&w, p + i, 8);
        acc ^= w;
    }
    return acc;
}

/* A scanner of `l` on `dev`, or NULL after saying why. */
static kvc_scanner *scanner_on(const kvc_layout *l, kvc_device dev, unsigned threads)
{
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.device = dev;
    o.threads = threads;
    kvc_scanner *s = NULL;
    kvc_diag d;
    if (kvc_scanner_create(l, &o, &s, &d)) printf("scanner: %s\n", d.message);
    return s;
}

/* A call the benchmark times: a scan through `s` of `n` layers of `bytes`
 * (with the report, or the gate's verdict alone: `verdict`), call i taking
 * page list i % nlists of the lists of `npages` at `lists` (NULL: every
 * page); or, without a scanner, the read kernel `read` over the same bytes. */
typedef struct bench_call {
    kvc_scanner *s;
    gpu_reader *read;
    const uint64_t *layers;
    size_t n;
    uint64_t bytes;
    const uint64_t *lists;
    size_t npages, nlists;
    int verdict;
} bench_call;

/* Enqueues call i's work on `stream` (NULL: CUDA's default stream; a CPU
 * scanner scans at once); exits on failure. */
static void submit(const bench_call *c, int i, void *stream)
{
    const uint64_t *pages = c->lists ? c->lists + (size_t)i % c->nlists * c->npages : NULL;
    kvc_diag d;
    if (c->s ? kvc_scanner_submit(c->s, c->layers, c->n, c->bytes, pages, c->npages, stream, &d)
             : gpu_reader_launch(c->read, stream, &d)) {
        printf("submit: %s\n", d.message);
        exit(1);
    }
}

/* Waits until the submitted call's results are on the host: a scan's report
 * (or verdict), which must be clean as the benchmark's pages are, or the
 * end of the read kernel on `stream`; exits on failure. */
static void finish(const bench_call *c, void *stream)
{
    kvc_scan_report *r = NULL;
    kvc_diag d;
    if (c->s ? (c->verdict ? kvc_scanner_wait_check : kvc_scanner_wait)(c->s, &r, &d)
             : gpu_stream_wait(c->read->g, stream, &d)) {
        printf("wait: %s\n", d.message);
        exit(1);
    }
    if (c->s && (c->verdict ? r != NULL : !kvc_scan_report_clean(r))) {
        printf("scan: the benchmark's clean pages read as damaged\n");
        exit(1);
    }
    kvc_scan_report_free(r);
}

/* Call i as a user makes it (on a GPU, on CUDA's default stream). */
static void call_once(const bench_call *c, int i)
{
    submit(c, i, NULL);
    finish(c, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A call's medians: wall time of the whole call, device time from submit to
 * the results on the host (events on the benchmark's stream), and the two
 * host parts: submitting, and waiting plus building the report (none for a
 * clean `verdict` call or the read kernel). */
typedef struct call_times {
    double wall, device, submit, report;
} call_times;

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* Each call is timed twice: whole, and on the benchmark's stream between
 * two events; the page lists of a scan change from call to call, as an
 * engine's requests bring new lists. */
static call_times time_calls(gpu_ctx *g, const bench_call *c, int iters)
{
    double *v = malloc(4 * iters * sizeof *v), *w = v, *k = v + iters, *sub = v + 2 * iters, *rep = v + 3 * iters;
    void *stream = gpu_bench_stream(g);
    kvc_diag d;
    submit(c, 0, stream);
    finish(c, stream);
    for (int i = 0; i < iters; i++) {
        double t = clock_seconds();
        call_once(c, i);
        w[i] = clock_seconds() - t;
        gpu_mark(g, 0, &d);
        t = clock_seconds();
        submit(c, i, stream);
        sub[i] = clock_seconds() - t;
        gpu_mark(g, 1, &d);
        gpu_marked_seconds(g, &k[i], &d); /* waits for the device */
        t = clock_seconds();
        finish(c, stream);
        rep[i] = clock_seconds() - t;
    }
    call_times times = {median(w, iters), median(k, iters), median(sub, iters), median(rep, iters)};
    free(v);
    return times;
}

/* `n` buffers of `pages` clean pages each, in device memory; 0 on success. */
static int device_pool(gpu_ctx *g, const kvc_layout *l, size_t n, uint64_t pages, uint64_t *layers)
{
    const uint64_t chunk_pages = 1024;
    uint8_t *chunk = clean_pages(l, chunk_pages);
    kvc_diag d;
    memset(layers, 0, n * sizeof *layers);
    for (size_t i = 0; i < n; i++) {
        if (gpu_alloc(g, pages * l->page_bytes, &layers[i], &d)) {
            printf("GPU pool: %s\n", d.message);
            free(chunk);
            return -1;
        }
        for (uint64_t p = 0; p < pages; p += chunk_pages) {
            uint64_t k = pages - p < chunk_pages ? pages - p : chunk_pages;
            gpu_upload(g, layers[i] + p * l->page_bytes, chunk, k * l->page_bytes, &d);
        }
    }
    free(chunk);
    return 0;
}

static void pool_free(gpu_ctx *g, uint64_t *layers, size_t n)
{
    for (size_t i = 0; i < n; i++) gpu_free(g, layers[i]);
}

/* The read kernel launched `iters` times back to back on the benchmark's
 * stream between two events, after one launch to warm up: seconds a launch. */
static double back_to_back(gpu_ctx *g, const bench_call *read, int iters)
{
    double s = 0;
    kvc_diag d;
    submit(read, 0, gpu_bench_stream(g));
    gpu_mark(g, 0, &d);
    for (int i = 0; i < iters; i++) submit(read, i, gpu_bench_stream(g));
    gpu_mark(g, 1, &d);
    gpu_marked_seconds(g, &s, &d);
    return s / iters;
}

/* One large buffer at each size, and an engine's pool (NLAYERS buffers of
 * POOL_PAGES pages): whole, one request's pages, and one page (the fixed
 * cost of a call). Digests are always on. */
#define NLAYERS 79
#define POOL_PAGES 1024
#define REQUEST_PAGES 66
#define REQUEST_LISTS 4

static void bench_gpu_sizes(gpu_ctx *g, kvc_scanner *s, const kvc_layout *l, const char *sizes)
{
    char list[256];
    snprintf(list, sizeof list, "%s", sizes);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        double gib = atof(tok);
        uint64_t pages = (uint64_t)(gib * (1ull << 30)) / l->page_bytes, bytes = pages * l->page_bytes;
        uint64_t dev;
        if (device_pool(g, l, 1, pages, &dev)) continue;
        gpu_reader reader;
        kvc_diag d;
        if (gpu_reader_init(g, &dev, 1, bytes, &reader, &d)) {
            printf("GPU %.2f GiB: %s\n", gib, d.message);
        } else {
            /* the scan and the read kernel each timed call by call, alike */
            bench_call scan = {.s = s, .layers = &dev, .n = 1, .bytes = bytes}, read = {.read = &reader};
            int iters = gib < 1 ? 50 : 10;
            call_times c = time_calls(g, &scan, iters), r = time_calls(g, &read, iters);
            double read_s = back_to_back(g, &read, iters);
            char what[96];
            snprintf(what, sizeof what, "GPU scan, %.2f GiB, device time per call", gib);
            row(what, bytes / c.device / 1e12, bytes / r.device / 1e12, "TB/s", 0.90);
            snprintf(what, sizeof what, "GPU scan, %.2f GiB, whole call", gib);
            row(what, bytes / c.wall / 1e12, bytes / r.wall / 1e12, "TB/s", 0.90);
            row("  device time vs read kernel back to back", bytes / c.device / 1e12, bytes / read_s / 1e12, "TB/s",
                0.90);
            gpu_reader_free(&reader);
        }
        pool_free(g, &dev, 1);
    }
}

static void bench_gpu_pool(gpu_ctx *g, kvc_scanner *s, const kvc_layout *l)
{
    uint64_t layers[NLAYERS];
    if (device_pool(g, l, NLAYERS, POOL_PAGES, layers)) return;
    const uint64_t layer_bytes = POOL_PAGES * l->page_bytes, bytes = NLAYERS * layer_bytes;
    gpu_reader reader;
    kvc_diag d;
    if (gpu_reader_init(g, layers, NLAYERS, layer_bytes, &reader, &d)) {
        printf("GPU pool: %s\n", d.message);
        pool_free(g, layers, NLAYERS);
        return;
    }
    bench_call read = {.read = &reader};
    double read_s = back_to_back(g, &read, 20);
    gpu_reader_free(&reader);
    printf("pool: %d layer buffers x %d pages = %.2f GB; the read kernel over all of them: %.3f ms (%.2f TB/s)\n",
           NLAYERS, POOL_PAGES, bytes / 1e9, read_s * 1e3, bytes / read_s / 1e12);
    bench_call pool = {.s = s, .layers = layers, .n = NLAYERS, .bytes = layer_bytes};
    call_times c = time_calls(g, &pool, 20);
    row("whole pool, one call, digests on (device)", bytes / c.device / 1e12, bytes / read_s / 1e12, "TB/s", 0.90);
    row("whole pool, one call, digests on (call)", bytes / c.wall / 1e12, bytes / read_s / 1e12, "TB/s", 0.90);
    printf("%-44s submit %.1f us, report %.1f us\n", "  host parts of the call", c.submit * 1e6, c.report * 1e6);
    /* requests' pages, spread over the pool as a radix cache leaves them; each call a different request's */
    uint64_t pages[REQUEST_LISTS][REQUEST_PAGES];
    for (int k = 0; k < REQUEST_LISTS; k++)
        for (int i = 0; i < REQUEST_PAGES; i++) pages[k][i] = (uint64_t)i * 15 + 7 + (uint64_t)k;
    const uint64_t req_bytes = (uint64_t)NLAYERS * REQUEST_PAGES * l->page_bytes;
    static const char *const HOW[] = {"scan", "check"}; /* kvc_scanner_scan (report and digests), kvc_scanner_check */
    for (int verdict = 0; verdict < 2; verdict++) {
        bench_call request = {.s = s, .layers = layers, .n = NLAYERS, .bytes = layer_bytes, .lists = pages[0],
                              .npages = REQUEST_PAGES, .nlists = REQUEST_LISTS, .verdict = verdict};
        c = time_calls(g, &request, 200);
        char what[64];
        snprintf(what, sizeof what, "one request, 66 pages x 79 layers (%s)", HOW[verdict]);
        printf("%-44s %9.1f us  device %.1f us  (%.1f MB; at the read kernel's speed %.1f us; target <= 100 us)%s\n",
               what, c.wall * 1e6, c.device * 1e6, req_bytes / 1e6, req_bytes / (bytes / read_s) * 1e6,
               c.wall <= 100e-6 ? "" : ", MISSED");
        printf("%-44s submit %.1f us, wait and report %.1f us\n", "  host parts of the call", c.submit * 1e6,
               c.report * 1e6);
    }
    for (int verdict = 0; verdict < 2; verdict++) {
        bench_call page = {.s = s, .layers = layers, .n = 1, .bytes = l->page_bytes, .verdict = verdict};
        c = time_calls(g, &page, 500);
        char what[64];
        snprintf(what, sizeof what, "fixed cost: one page of one layer (%s)", HOW[verdict]);
        printf("%-44s %9.1f us  device %.1f us  (target <= 20 us)%s\n", what, c.wall * 1e6, c.device * 1e6,
               c.wall <= 20e-6 ? "" : ", MISSED");
        printf("%-44s submit %.1f us, wait and report %.1f us\n", "  host parts of the call", c.submit * 1e6,
               c.report * 1e6);
    }
    pool_free(g, layers, NLAYERS);
}

static int bench_gpu(const char *sizes)
{
    gpu_ctx *g;
    int absent;
    kvc_diag d;
    if (gpu_open(NULL, 0, &g, &absent, &d)) {
        printf("GPU: not measured (%s)\n", d.message);
        return 0;
    }
    printf("GPU: %s\n", gpu_name(g));
    kvc_layout l = layout("fp8_flashmla");
    kvc_scanner *s = scanner_on(&l, KVC_DEVICE_GPU, 0);
    if (s) {
        bench_gpu_sizes(g, s, &l, sizes);
        bench_gpu_pool(g, s, &l);
    }
    kvc_scanner_free(s);
    gpu_close(g);
    return 0;
}

/* One thread: the scanner (digests included) against the plain read loop. */
static void bench_cpu(uint64_t mib)
{
    kvc_layout l = layout("fp8_flashmla");
    uint64_t pages = (mib << 20) / l.page_bytes, bytes = pages * l.page_bytes;
    uint8_t *buf = clean_pages(&l, pages);
    kvc_scanner *one = scanner_on(&l, KVC_DEVICE_CPU, 1), *all = scanner_on(&l, KVC_DEVICE_CPU, 0);
    if (!buf || !one || !all) return;
    volatile uint64_t sink = read_loop(buf, bytes); /* warm: pages mapped, caches as they will be */
    double best_read = 1e9, best_scan = 1e9, best_all = 1e9;
    const uint64_t layer = (uint64_t)(uintptr_t)buf;
    bench_call scan_one = {.s = one, .layers = &layer, .n = 1, .bytes = bytes};
    bench_call scan_all = {.s = all, .layers = &layer, .n = 1, .bytes = bytes};
    for (int rep = 0; rep < 5; rep++) {
        double t = clock_seconds();
        sink ^= read_loop(buf, bytes);
        double r = clock_seconds() - t;
        if (r < best_read) best_read = r;
        t = clock_seconds();
        call_once(&scan_one, 0);
        if ((r = clock_seconds() - t) < best_scan) best_scan = r;
        t = clock_seconds();
        call_once(&scan_all, 0);
        if ((r = clock_seconds() - t) < best_all) best_all = r;
    }
    (void)sink;
    char what[96];
    snprintf(what, sizeof what, "CPU scan + digests, one thread, %llu MiB", (unsigned long long)mib);
    row(what, bytes / best_scan / 1e9, bytes / best_read / 1e9, "GB/s", 0.80);
    printf("%-44s %9.2f GB/s on %u threads\n", "CPU scan + digests, all threads", bytes / best_all / 1e9, cpu_threads(0));
    kvc_scanner_free(one);
    kvc_scanner_free(all);
    free(buf);
}

/* Reads a file to nowhere through a 128 KiB buffer, as cat > /dev/null does. */
static double cat_file(const char *path, uint64_t *bytes)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    static char buf[128 << 10];
    double t = clock_seconds();
    ssize_t n;
    *bytes = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) *bytes += (uint64_t)n;
    close(fd);
    return clock_seconds() - t;
}

/* Empties the page cache, so a file run reads from the disk; 0 on success. */
static int drop_caches(void)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
    if (fd < 0) return -1;
    int ok = write(fd, "3\n", 2) == 2;
    close(fd);
    return ok ? 0 : -1;
}

static void bench_file(const char *path, uint64_t mib, int cold)
{
    kvc_layout l = layout("fp8_flashmla");
    uint64_t pages = (mib << 20) / l.page_bytes, chunk = 1024;
    uint8_t *buf = clean_pages(&l, chunk);
    FILE *f = fopen(path, "wb");
    if (!f || !buf) return;
    for (uint64_t p = 0; p < pages; p += chunk) fwrite(buf, l.page_bytes, pages - p < chunk ? pages - p : chunk, f);
    fclose(f);
    free(buf);
    uint64_t bytes = 0;
    cat_file(path, &bytes); /* the page cache holds the file for every run below, alike */
    if (cold && drop_caches()) {
        printf("file scan: cannot empty the page cache (not root?): measuring with the file cached\n");
        cold = 0;
    }
    for (int dev = KVC_DEVICE_CPU; dev <= KVC_DEVICE_GPU; dev++) {
        double best_cat = 1e9, best_scan = 1e9, startup = 0;
        /* a process that scans on the GPU pays its start-up (the primary
         * context, the kernels) once: timed apart, and held through the runs */
        gpu_ctx *held = NULL;
        int absent;
        kvc_diag hd;
        double t0 = clock_seconds();
        if (dev == KVC_DEVICE_GPU && gpu_open(NULL, 0, &held, &absent, &hd)) {
            printf("file scan (GPU): %s\n", hd.message);
            continue;
        }
        startup = clock_seconds() - t0;
        for (int rep = 0; rep < 3; rep++) {
            if (cold) drop_caches();
            double c = cat_file(path, &bytes);
            if (c < best_cat) best_cat = c;
            kvc_scan_options o;
            kvc_scan_options_init(&o);
            o.device = (kvc_device)dev;
            kvc_scan_report *r = NULL;
            kvc_diag d;
            const char *paths[] = {path};
            if (cold) drop_caches();
            double t = clock_seconds();
            if (kvc_scan_files(paths, 1, &l, &o, &r, &d)) {
                printf("file scan (%s): %s\n", dev == KVC_DEVICE_CPU ? "CPU" : "GPU", d.message);
                goto next;
            }
            double s = clock_seconds() - t;
            if (s < best_scan) best_scan = s;
            kvc_scan_report_free(r);
        }
        {
            char what[96];
            snprintf(what, sizeof what, "file scan on the %s, %llu MiB (%s)", dev == KVC_DEVICE_CPU ? "CPU" : "GPU",
                     (unsigned long long)mib, cold ? "from disk" : "page cache");
            row(what, bytes / best_scan / 1e9, bytes / best_cat / 1e9, "GB/s", 0.80);
            if (held)
                printf("%-44s %.1f ms, once per process (with it: %.2f GB/s, ratio %.3f)\n",
                       "  GPU start-up: primary context, kernels", startup * 1e3, bytes / (best_scan + startup) / 1e9,
                       best_cat / (best_scan + startup));
        }
    next:
        gpu_close(held);
    }
    unlink(path);
}

/* simulate for a GLM-5.2 pair, on the GPU and on the CPU. */
static void bench_simulate(uint64_t tokens)
{
    for (int dev = KVC_DEVICE_GPU; dev >= KVC_DEVICE_CPU; dev--) {
        kvc_worker *p = kvc_worker_create("prefill"), *d = kvc_worker_create("decode");
        kvc_diag diag;
        kvc_simulate_options o;
        kvc_simulate_options_init(&o);
        o.tokens = tokens;
        o.device = (kvc_device)dev;
        kvc_simulation *s = NULL;
        kvc_status st = kvc_worker_set_gpu(p, "B300", &diag);
        if (!st) st = kvc_worker_set_gpu(d, "B300", &diag);
        if (!st) st = kvc_worker_set_model(p, "glm-5.2", &diag);
        if (!st) st = kvc_worker_set_model(d, "glm-5.2", &diag);
        if (!st) st = kvc_worker_add_args(p, "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3", "bench", &diag);
        if (!st)
            st = kvc_worker_add_args(d, "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --enable-hisparse "
                                        "--disable-radix-cache",
                                     "bench", &diag);
        double t = clock_seconds();
        if (!st) st = kvc_simulate(p, d, &o, &s, &diag);
        t = clock_seconds() - t;
        if (st) printf("simulate on the %s: %s\n", dev == KVC_DEVICE_GPU ? "GPU" : "CPU", diag.message);
        else
            printf("simulate, GLM-5.2 B300 pair, %llu tokens x 1 layer, on the %-4s %.3f s (target on the GPU: well "
                   "under 1 s)\n",
                   (unsigned long long)tokens, s->device, t);
        kvc_simulation_free(s);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

int main(int argc, char **argv)
{
    const char *gpu_sizes = "0.25,1,2,4,8", *file = "/tmp/kvcheck-bench.bin";
    uint64_t cpu_mib = 1024, file_mib = 2048, sim_tokens = 1ull << 20;
    int cold = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--gpu-gib") == 0) gpu_sizes = argv[i + 1];
        else if (strcmp(argv[i], "--cpu-mib") == 0) cpu_mib = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--file") == 0) file = argv[i + 1];
        else if (strcmp(argv[i], "--file-mib") == 0) file_mib = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--cold") == 0) cold = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--sim-tokens") == 0) sim_tokens = strtoull(argv[i + 1], NULL, 10);
    }
    printf("kvcheck %s benchmark: fp8_flashmla pages (656 B/token, 41984 B/page), clean\n", kvc_version());
    bench_gpu(gpu_sizes);
    if (cpu_mib) bench_cpu(cpu_mib);
    if (file_mib) bench_file(file, file_mib, 0);
    if (file_mib && cold) bench_file(file, file_mib, 1);
    if (sim_tokens) bench_simulate(sim_tokens);
    return 0;
}
