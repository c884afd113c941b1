/* kvcheck scan: picks the device, runs the scanner over each layer, then
 * collects the findings on the host from the damaged pages, so the CPU and
 * GPU paths report exactly the same findings. */
#include "scanner/scanner.h"

#include <stdlib.h>
#include <string.h>

void kvc_scan_options_init(kvc_scan_options *o)
{
    memset(o, 0, sizeof *o);
    o->device = KVC_DEVICE_AUTO;
    o->max_findings = 20;
}

void kvc_scan_report_free(kvc_scan_report *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nlayers; i++) free(r->layers[i].bad_pages);
    free(r->layers);
    free(r->findings);
    free(r);
}

/* Everything one scan call holds. */
typedef struct scan_run_ctx {
    const kvc_scan_options *opt;
    scan_plan plan;
    page_range *only, *skip;
    size_t nonly, nskip;
    gpu_ctx *gpu; /* NULL: the CPU */
    unsigned threads;
    kvc_scan_report *report;
    uint64_t bytes_total, bytes_before; /* for progress over all layers */
} scan_run_ctx;

static void layer_progress(void *ctx, uint64_t bytes_done)
{
    scan_run_ctx *c = ctx;
    c->opt->progress(c->opt->progress_ctx, c->bytes_before + bytes_done, c->bytes_total);
}

static kvc_status start(scan_run_ctx *c, const kvc_layout *l, const kvc_scan_options *opt, size_t nlayers,
                        kvc_diag *diag)
{
    memset(c, 0, sizeof *c);
    c->opt = opt;
    kvc_status st = scan_plan_make(l, opt, &c->plan, diag);
    if (!st && opt->pages) st = page_list_parse(opt->pages, "--pages", &c->only, &c->nonly, diag);
    if (!st && opt->skip_pages) st = page_list_parse(opt->skip_pages, "--skip-pages", &c->skip, &c->nskip, diag);
    kvc_scan_report *r = st ? NULL : calloc(1, sizeof *r);
    if (r) r->layers = calloc(nlayers ? nlayers : 1, sizeof *r->layers);
    if (r && r->layers) r->findings = calloc(opt->max_findings ? opt->max_findings : 1, sizeof *r->findings);
    if (!st && (!r || !r->layers || !r->findings)) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the scan report");
    if (st) { /* nothing of the run is handed over */
        kvc_scan_report_free(r);
        free(c->only);
        free(c->skip);
        c->only = c->skip = NULL;
        return st;
    }
    r->layout = *l;
    str_copy(r->layout_source, sizeof r->layout_source, opt->layout_source);
    r->scale_pow2 = opt->scale_pow2 != 0;
    r->scale_ranged = opt->scale_ranged != 0;
    r->scale_min = opt->scale_min;
    r->scale_max = opt->scale_max;
    c->report = r;
    return KVC_OK;
}

/* Opens the GPU when the options want one; under auto an absent GPU is a note. */
static kvc_status pick_device(scan_run_ctx *c, const cuda_api *driver, int need_gpu, kvc_diag *diag)
{
    kvc_scan_report *r = c->report;
    c->threads = cpu_threads(c->opt->threads);
    char why_not[KVC_NOTE_LEN - 64];
    kvc_status st = gpu_choose(c->opt->device, need_gpu, driver, &c->gpu, why_not, sizeof why_not, diag);
    if (st) return st;
    if (c->gpu) {
        str_copy(r->device, sizeof r->device, "cuda");
        str_copy(r->device_name, sizeof r->device_name, gpu_name(c->gpu));
        return KVC_OK;
    }
    if (why_not[0]) notes_add(r->notes, &r->nnotes, KVC_MAX_NOTES, "no usable GPU (%s): scanned on the CPU", why_not);
    str_copy(r->device, sizeof r->device, "cpu");
    str_printf(r->device_name, sizeof r->device_name, "%u CPU thread%s", c->threads, c->threads == 1 ? "" : "s");
    return KVC_OK;
}

/* Memory on another GPU than the one opened is scanned on that GPU. */
static kvc_status move_to_owner(scan_run_ctx *c, const cuda_api *driver, uint64_t device, kvc_diag *diag)
{
    int ordinal = 0, absent;
    kvc_status st = gpu_device_of(c->gpu, device, &ordinal, diag);
    if (st || ordinal == 0) return st;
    gpu_close(c->gpu);
    st = gpu_open(driver, ordinal, &c->gpu, &absent, diag);
    if (!st) str_copy(c->report->device_name, sizeof c->report->device_name, gpu_name(c->gpu));
    return st;
}

/* Scans one layer, in host memory or a file (device 0) or in device memory
 * at `device`, and records its counts and damaged pages. */
static kvc_status scan_layer(scan_run_ctx *c, const layer_src *src, uint64_t device, kvc_diag *diag)
{
    kvc_scan_report *r = c->report;
    kvc_scan_layer *out = &r->layers[r->nlayers];
    memset(out, 0, sizeof *out);
    str_copy(out->name, sizeof out->name, src->name);
    str_copy(out->file, sizeof out->file, src->file);
    out->file_offset = src->file_offset;
    out->bytes = src->bytes;
    out->pages = src->bytes / c->plan.layout.page_bytes;
    layer_job job;
    memset(&job, 0, sizeof job);
    job.src = src;
    job.resident = device || layer_resident(src);
    job.host = device ? NULL : src->data;
    job.device = device;
    uint64_t *list = NULL;
    kvc_status st = page_select(c->only, c->nonly, c->skip, c->nskip, out->pages, src->name, &list, &job.npages, diag);
    if (st) return st;
    job.pages = list;
    job.page_bad = calloc(job.npages ? job.npages : 1, sizeof *job.page_bad);
    if (!job.page_bad) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for per-page counts");
    if (c->opt->progress) {
        job.progress = layer_progress;
        job.progress_ctx = c;
    }
    if (!st) st = c->gpu ? gpu_scan_layer(c->gpu, &c->plan, &job, c->threads, diag) : cpu_scan_layer(&c->plan, &job, c->threads, diag);
    for (uint64_t i = 0; !st && i < job.npages; i++) out->nbad_pages += job.page_bad[i] != 0;
    if (!st && out->nbad_pages) {
        out->bad_pages = malloc(out->nbad_pages * sizeof *out->bad_pages);
        if (!out->bad_pages) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the damaged-page list");
    }
    size_t k = 0;
    for (uint64_t i = 0; !st && i < job.npages; i++)
        if (job.page_bad[i]) out->bad_pages[k++] = (kvc_bad_page){list ? list[i] : i, job.page_bad[i]};
    if (!st) {
        out->pages_scanned = job.npages;
        memcpy(out->counts, job.counts, sizeof out->counts);
        for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) out->damaged += out->counts[i];
        r->nlayers++;
    }
    c->bytes_before += src->bytes; /* progress counts whole layers, so it ends at the total */
    free(list);
    free(job.page_bad);
    return st;
}

/* Appends the findings of one damaged page at `bytes`; from a file's
 * mapping under a guard. 0, or -1 when the file shrank under it. */
static int page_findings(scan_run_ctx *c, const layer_src *src, const uint8_t *bytes, unsigned layer, uint64_t page,
                         uint64_t offset)
{
    kvc_scan_report *r = c->report;
    if (src->fd < 0 || bytes != src->data + page * c->plan.layout.page_bytes) {
        scan_page_findings(&c->plan, bytes, layer, page, offset, r->findings, &r->nfindings, c->opt->max_findings);
        return 0;
    }
    map_guard g;
    if (sigsetjmp(g.jump, 1)) return -1;
    map_guard_arm(&g, src->data, src->bytes);
    scan_page_findings(&c->plan, bytes, layer, page, offset, r->findings, &r->nfindings, c->opt->max_findings);
    map_guard_disarm(&g);
    return 0;
}

/* The first max_findings findings, walking the damaged pages in input
 * order on the host: read where they lie, or copied back from `device`. */
static kvc_status collect_findings(scan_run_ctx *c, const scan_inputs *in, uint64_t device, kvc_diag *diag)
{
    kvc_scan_report *r = c->report;
    const uint64_t pb = c->plan.layout.page_bytes;
    uint8_t *copy = device ? malloc(pb) : NULL;
    RETURN_ERROR_IF(device && !copy, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = KVC_OK;
    for (size_t l = 0; !st && l < r->nlayers && r->nfindings < c->opt->max_findings; l++) {
        const kvc_scan_layer *layer = &r->layers[l];
        for (size_t i = 0; !st && i < layer->nbad_pages && r->nfindings < c->opt->max_findings; i++) {
            uint64_t page = layer->bad_pages[i].page;
            const uint8_t *bytes = copy;
            if (device) st = gpu_copy_to_host(c->gpu, copy, device + page * pb, pb, diag);
            else bytes = in->layers[l].data + page * pb;
            if (!st && page_findings(c, &in->layers[l], bytes, (unsigned)l, page, layer->file_offset + page * pb))
                st = source_changed(in->layers[l].file, in->layers[l].fd, diag);
        }
    }
    free(copy);
    return st;
}

/* A scan that judged no page would pass without having read a byte. */
static kvc_status check_scanned(const scan_run_ctx *c, kvc_diag *diag)
{
    const kvc_scan_report *r = c->report;
    uint64_t pages = 0, scanned = 0;
    for (size_t l = 0; l < r->nlayers; l++) pages += r->layers[l].pages, scanned += r->layers[l].pages_scanned;
    if (scanned) return KVC_OK;
    kvc_origin o;
    origin_set(&o, "", 0, 0, c->opt->skip_pages ? "--skip-pages" : "");
    if (c->opt->skip_pages && c->opt->pages)
        return diag_set(diag, KVC_ERR_USAGE, &o,
                        "no page left to scan: --skip-pages %s skips every page that --pages %s selects; a scan of "
                        "nothing cannot pass",
                        c->opt->skip_pages, c->opt->pages);
    char of[300];
    if (r->nlayers == 1) str_copy(of, sizeof of, r->layers[0].name);
    else str_printf(of, sizeof of, "the %zu layers", r->nlayers);
    if (c->opt->skip_pages)
        return diag_set(diag, KVC_ERR_USAGE, &o,
                        "no page left to scan: --skip-pages %s skips all %llu page%s of %s; a scan of nothing cannot "
                        "pass",
                        c->opt->skip_pages, (unsigned long long)pages, pages == 1 ? "" : "s", of);
    return diag_set(diag, KVC_ERR_USAGE, &o, "no page to scan: the inputs hold no pages; a scan of nothing cannot pass");
}

static void finish(scan_run_ctx *c, double t0)
{
    kvc_scan_report *r = c->report;
    for (size_t l = 0; l < r->nlayers; l++) {
        const kvc_scan_layer *x = &r->layers[l];
        for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) r->counts[i] += x->counts[i];
        r->damaged += x->damaged;
        r->bad_pages += x->nbad_pages;
        r->pages_scanned += x->pages_scanned;
        r->bytes_scanned += x->pages_scanned * c->plan.layout.page_bytes;
    }
    r->clean = r->damaged == 0;
    r->seconds = clock_seconds() - t0;
}

static kvc_status end(scan_run_ctx *c, kvc_status st, kvc_scan_report **out)
{
    gpu_close(c->gpu);
    free(c->only);
    free(c->skip);
    if (st) kvc_scan_report_free(c->report);
    else *out = c->report;
    return st;
}

/* Damage under the layout asked for: which layout do the bytes look like? */
static void look_again(scan_run_ctx *c, const scan_inputs *in, const kvc_layout *asked)
{
    kvc_detection *d = malloc(sizeof *d);
    kvc_diag diag;
    if (d && detect_inputs(in, &asked->params, d, &diag) == KVC_OK && strcmp(d->best, "unknown") != 0 &&
        strcmp(d->best, asked->name) != 0) {
        kvc_scan_report *r = c->report;
        str_copy(r->looks_like, sizeof r->looks_like, d->best);
        r->looks_like_bytes_per_token = d->candidates[0].bytes_per_token;
        r->looks_like_confidence = d->confidence;
    }
    free(d);
}

/* The one run loop, over any source: the layers of `in` in host memory or
 * files (device 0), or in's one layer in device memory at `device`, which
 * needs the GPU it lives on. */
static kvc_status run(const scan_inputs *in, uint64_t device, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag)
{
    double t0 = clock_seconds();
    scan_run_ctx c;
    kvc_status st = start(&c, l, opt, in->nlayers, diag);
    if (st) return st;
    st = pick_device(&c, driver, device != 0, diag);
    if (!st && device) st = move_to_owner(&c, driver, device, diag);
    for (size_t i = 0; i < in->nlayers; i++) c.bytes_total += in->layers[i].bytes;
    for (size_t i = 0; !st && i < in->nlayers; i++) st = scan_layer(&c, &in->layers[i], device, diag);
    if (!st) st = check_scanned(&c, diag);
    if (!st) st = collect_findings(&c, in, device, diag);
    if (!st) finish(&c, t0);
    if (!st && !c.report->clean && !device) look_again(&c, in, l); /* detect reads host bytes only */
    return end(&c, st, out);
}

kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag)
{
    return run(in, 0, l, opt, driver, out, diag);
}

/* ---------------------------------------------------------- entry points */

/* One layer that is not in a file: host memory, or device memory (data NULL). */
static void memory_inputs(scan_inputs *in, layer_src *src, const char *name, const void *data, uint64_t bytes)
{
    memset(src, 0, sizeof *src);
    str_copy(src->name, sizeof src->name, name);
    src->fd = -1;
    src->data = data;
    src->bytes = bytes;
    memset(in, 0, sizeof *in);
    in->layers = src;
    in->nlayers = 1;
}

kvc_status kvc_scan_files(const char *const *paths, size_t npaths, const kvc_layout *layout,
                          const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    scan_inputs in;
    kvc_status st = inputs_open(paths, npaths, layout, options, &in, diag);
    if (st) return st;
    st = run(&in, 0, layout, options, NULL, out, diag);
    inputs_close(&in);
    return st;
}

kvc_status kvc_scan_host(const void *data, size_t bytes, const kvc_layout *layout, const kvc_scan_options *options,
                         kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    RETURN_ERROR_IF(!layout || !layout->page_bytes || bytes % layout->page_bytes || !bytes, diag, KVC_ERR_USAGE, NULL,
                    "kvc_scan_host needs a whole, non-zero number of pages (%zu bytes at %llu bytes per page)", bytes,
                    (unsigned long long)(layout ? layout->page_bytes : 0));
    scan_inputs in;
    layer_src src;
    memory_inputs(&in, &src, "memory", data, bytes);
    return run(&in, 0, layout, options, NULL, out, diag);
}

kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag)
{
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    RETURN_ERROR_IF(!layout || !layout->page_bytes || bytes % layout->page_bytes || !bytes || !device_ptr, diag,
                    KVC_ERR_USAGE, NULL,
                    "kvc_scan_device needs a device pointer and a whole, non-zero number of pages (%zu bytes at "
                    "%llu bytes per page)",
                    bytes, (unsigned long long)(layout ? layout->page_bytes : 0));
    scan_inputs in;
    layer_src src;
    memory_inputs(&in, &src, "device memory", NULL, bytes);
    return run(&in, device_ptr, layout, options, driver, out, diag);
}

kvc_status kvc_scan_device(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    return scan_device_run(device_ptr, bytes, layout, options, NULL, out, diag);
}
