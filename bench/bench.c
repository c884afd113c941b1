/* kvcheck's benchmark: each scan figure beside its reference over the same
 * bytes in the same process, and their ratio (DESIGN.md §6).
 *
 *   GPU  scan of pages already in device memory  vs  a plain 16-byte-load read kernel
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

/* The plain read loop: every 8-byte word folded in, nothing else. */
__attribute__((noinline, target_clones("avx2", "default"))) static uint64_t read_loop(const uint8_t *p, uint64_t bytes)
{
    uint64_t acc = 0, w;
    for (uint64_t i = 0; i + 8 <= bytes; i += 8) {
        memcpy(&w, p + i, 8);
        acc ^= w;
    }
    return acc;
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
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_plan plan;
    scan_plan_make(&l, &o, &plan, &d);
    const uint64_t chunk_pages = (256ull << 20) / l.page_bytes;
    uint8_t *chunk = clean_pages(&l, chunk_pages);
    char list[256];
    snprintf(list, sizeof list, "%s", sizes);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        double gib = atof(tok);
        uint64_t pages = (uint64_t)(gib * (1ull << 30)) / l.page_bytes, bytes = pages * l.page_bytes;
        uint64_t dev;
        if (gpu_alloc(g, bytes, &dev, &d)) {
            printf("GPU %.2f GiB: %s\n", gib, d.message);
            continue;
        }
        for (uint64_t p = 0; p < pages; p += chunk_pages) {
            uint64_t n = pages - p < chunk_pages ? pages - p : chunk_pages;
            if (gpu_upload(g, dev + p * l.page_bytes, chunk, n * l.page_bytes, &d)) break;
        }
        double scan_s = 0, read_s = 0;
        int iters = gib < 1 ? 50 : 10;
        if (gpu_time_read(g, dev, bytes, iters, &read_s, &d) || gpu_time_scan(g, &plan, dev, bytes, iters, &scan_s, &d)) {
            printf("GPU %.2f GiB: %s\n", gib, d.message);
        } else {
            char what[96];
            snprintf(what, sizeof what, "GPU scan, %.2f GiB fp8_flashmla in device memory", gib);
            row(what, bytes / scan_s / 1e12, bytes / read_s / 1e12, "TB/s", 0.90);
        }
        gpu_free(g, dev);
    }
    free(chunk);
    gpu_close(g);
    return 0;
}

static void bench_cpu(uint64_t mib)
{
    kvc_layout l = layout("fp8_flashmla");
    uint64_t pages = (mib << 20) / l.page_bytes, bytes = pages * l.page_bytes;
    uint8_t *buf = clean_pages(&l, pages);
    if (!buf) return;
    volatile uint64_t sink = read_loop(buf, bytes); /* warm: pages mapped, caches as they will be */
    double best_read = 1e9, best_scan = 1e9, best_all = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t = clock_seconds();
        sink ^= read_loop(buf, bytes);
        double r = clock_seconds() - t;
        if (r < best_read) best_read = r;
        for (unsigned threads = 1; threads <= 2; threads++) {
            kvc_scan_options o;
            kvc_scan_options_init(&o);
            o.device = KVC_DEVICE_CPU;
            o.threads = threads == 1 ? 1 : 0;
            kvc_scan_report *rep_r = NULL;
            kvc_diag d;
            t = clock_seconds();
            if (kvc_scan_host(buf, bytes, &l, &o, &rep_r, &d)) {
                printf("CPU: %s\n", d.message);
                free(buf);
                return;
            }
            double s = clock_seconds() - t;
            if (threads == 1 && s < best_scan) best_scan = s;
            if (threads == 2 && s < best_all) best_all = s;
            kvc_scan_report_free(rep_r);
        }
    }
    (void)sink;
    char what[96];
    snprintf(what, sizeof what, "CPU scan, one thread, %llu MiB in memory", (unsigned long long)mib);
    row(what, bytes / best_scan / 1e9, bytes / best_read / 1e9, "GB/s", 0.80);
    printf("%-44s %9.2f GB/s on %u threads\n", "CPU scan, all threads", bytes / best_all / 1e9, cpu_threads(0));
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
        double best_cat = 1e9, best_scan = 1e9;
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
        }
    next:;
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
    bench_cpu(cpu_mib);
    bench_file(file, file_mib, 0);
    if (cold) bench_file(file, file_mib, 1);
    if (sim_tokens) bench_simulate(sim_tokens);
    return 0;
}
