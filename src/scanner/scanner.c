/* kvcheck scan: runs a scanner over each layer of files or host memory,
 * then collects the findings on the host from the damaged pages, so the CPU
 * and GPU paths report exactly the same findings; and the report both this
 * loop and the scanner handle's batches build. */
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
    for (size_t i = 0; i < r->nlayers; i++) {
        free(r->layers[i].bad_pages);
        if (r->results) continue; /* digests and page lists are the scanner's results' */
        free(r->layers[i].scanned);
        free(r->layers[i].digests);
    }
    scan_results_drop(r->results);
    free(r->layers);
    free(r->findings);
    free(r->issues);
    free(r);
}

/* ------------------------------------------------------------ the report */

kvc_status report_start(const kvc_scanner *s, size_t nlayers, kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_scan_report *r = calloc(1, sizeof *r);
    if (r) r->layers = malloc((nlayers ? nlayers : 1) * sizeof *r->layers);
    if (r && r->layers) r->findings = calloc(s->max_findings ? s->max_findings : 1, sizeof *r->findings);
    if (!r || !r->layers || !r->findings) {
        kvc_scan_report_free(r);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the scan report");
    }
    r->layout = s->layout;
    str_copy(r->layout_source, sizeof r->layout_source, s->layout_source);
    r->scale_pow2 = s->scale_pow2;
    r->scale_ranged = s->scale_ranged;
    r->scale_min = s->scale_min;
    r->scale_max = s->scale_max;
    str_copy(r->device, sizeof r->device, s->device);
    str_copy(r->device_name, sizeof r->device_name, s->device_name);
    if (s->note[0]) notes_add(r->notes, &r->nnotes, KVC_MAX_NOTES, "%s", s->note);
    *out = r;
    return KVC_OK;
}

kvc_status layer_results(kvc_scan_layer *out, const uint64_t *list, uint64_t npages, const uint32_t *bad,
                         const uint64_t counts[KVC_CHECK_COUNT], kvc_diag *diag)
{
    memcpy(out->counts, counts, sizeof out->counts);
    for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) out->damaged += out->counts[i];
    out->pages_scanned = npages;
    if (!out->damaged) return KVC_OK; /* the damaged elements are the pages' sum: a clean layer has no damaged page */
    size_t n = 0;
    for (uint64_t i = 0; i < npages; i++) n += bad[i] != 0;
    out->bad_pages = malloc((n ? n : 1) * sizeof *out->bad_pages);
    if (!out->bad_pages) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for the layer's results");
    for (uint64_t i = 0; i < npages; i++)
        if (bad[i]) out->bad_pages[out->nbad_pages++] = (kvc_bad_page){list ? list[i] : i, bad[i]};
    return KVC_OK;
}

void report_finish(kvc_scan_report *r, double t0)
{
    for (size_t l = 0; l < r->nlayers; l++) {
        const kvc_scan_layer *x = &r->layers[l];
        for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) r->counts[i] += x->counts[i];
        r->damaged += x->damaged;
        r->bad_pages += x->nbad_pages;
        r->pages_scanned += x->pages_scanned;
        r->bytes_scanned += x->pages_scanned * r->layout.page_bytes;
    }
    r->clean = r->damaged == 0;
    r->seconds = clock_seconds() - t0;
}

kvc_status device_findings(kvc_scanner *s, kvc_scan_report *r, unsigned l, uint64_t base, kvc_diag *diag)
{
    const kvc_scan_layer *layer = &r->layers[l];
    const uint64_t pb = s->layout.page_bytes;
    if (!layer->nbad_pages || r->nfindings >= s->max_findings) return KVC_OK;
    uint8_t *copy = malloc(pb);
    RETURN_ERROR_IF(!copy, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = KVC_OK;
    for (size_t i = 0; !st && i < layer->nbad_pages && r->nfindings < s->max_findings; i++) {
        uint64_t page = layer->bad_pages[i].page;
        st = gpu_copy_to_host(s->gpu, copy, base + page * pb, pb, diag);
        if (!st)
            scan_page_findings(&s->plan, copy, l, page, layer->file_offset + page * pb, r->findings, &r->nfindings,
                               s->max_findings);
    }
    free(copy);
    return st;
}

/* ------------------------------------------------ files and host memory */

/* Everything one run over a source holds. */
typedef struct scan_run_ctx {
    const kvc_scan_options *opt;
    kvc_scanner *scanner;
    page_range *only, *skip;
    size_t nonly, nskip;
    kvc_scan_report *report;
    uint64_t bytes_total, bytes_before; /* for progress over all layers */
} scan_run_ctx;

static void layer_progress(void *ctx, uint64_t bytes_done)
{
    scan_run_ctx *c = ctx;
    c->opt->progress(c->opt->progress_ctx, c->bytes_before + bytes_done, c->bytes_total);
}

/* Scans one layer in host memory or a file and records its results. */
static kvc_status scan_layer(scan_run_ctx *c, const layer_src *src, kvc_diag *diag)
{
    kvc_scanner *s = c->scanner;
    kvc_scan_report *r = c->report;
    kvc_scan_layer *out = &r->layers[r->nlayers];
    memset(out, 0, sizeof *out);
    str_copy(out->name, sizeof out->name, src->name);
    str_copy(out->file, sizeof out->file, src->file);
    out->file_offset = src->file_offset;
    out->bytes = src->bytes;
    out->pages = src->bytes / s->layout.page_bytes;
    layer_job job;
    memset(&job, 0, sizeof job);
    job.src = src;
    job.resident = layer_resident(src);
    job.host = src->data;
    uint64_t *list = NULL;
    kvc_status st = page_select(c->only, c->nonly, c->skip, c->nskip, out->pages, src->name, &list, &job.npages, diag);
    if (st) return st;
    job.pages = list;
    job.page_bad = calloc(job.npages ? job.npages : 1, sizeof *job.page_bad);
    job.digests = calloc(job.npages ? job.npages : 1, sizeof *job.digests);
    if (!job.page_bad || !job.digests) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for per-page results");
    if (c->opt->progress) {
        job.progress = layer_progress;
        job.progress_ctx = c;
    }
    if (!st && s->gpu) {
        gpu_enter(s->gpu);
        st = gpu_scan_layer(s->gpu, &s->plan, &job, s->threads, diag);
        gpu_leave(s->gpu);
    } else if (!st) {
        st = cpu_scan_layer(&s->plan, &job, s->threads, diag);
    }
    if (!st) st = layer_results(out, list, job.npages, job.page_bad, job.counts, diag);
    out->digests = job.digests; /* the report owns them and frees them, whatever happened */
    out->scanned = list;
    r->nlayers++;
    c->bytes_before += src->bytes; /* progress counts whole layers, so it ends at the total */
    free(job.page_bad);
    return st;
}

/* Appends the findings of one damaged page at `bytes`; from a file's
 * mapping under a guard. 0, or -1 when the file shrank under it. */
static int page_findings(scan_run_ctx *c, const layer_src *src, const uint8_t *bytes, unsigned layer, uint64_t page,
                         uint64_t offset)
{
    kvc_scan_report *r = c->report;
    const kvc_scanner *s = c->scanner;
    if (src->fd < 0) {
        scan_page_findings(&s->plan, bytes, layer, page, offset, r->findings, &r->nfindings, s->max_findings);
        return 0;
    }
    map_guard g;
    if (sigsetjmp(g.jump, 1)) return -1;
    map_guard_arm(&g, src->data, src->bytes);
    scan_page_findings(&s->plan, bytes, layer, page, offset, r->findings, &r->nfindings, s->max_findings);
    map_guard_disarm(&g);
    return 0;
}

/* The first max_findings findings, walking the damaged pages in input
 * order on the host, where they lie. */
static kvc_status collect_findings(scan_run_ctx *c, const scan_inputs *in, kvc_diag *diag)
{
    kvc_scan_report *r = c->report;
    const uint64_t pb = c->scanner->layout.page_bytes;
    for (size_t l = 0; l < r->nlayers && r->nfindings < c->scanner->max_findings; l++) {
        const kvc_scan_layer *layer = &r->layers[l];
        for (size_t i = 0; i < layer->nbad_pages && r->nfindings < c->scanner->max_findings; i++) {
            uint64_t page = layer->bad_pages[i].page;
            if (page_findings(c, &in->layers[l], in->layers[l].data + page * pb, (unsigned)l, page,
                              layer->file_offset + page * pb))
                return source_changed(in->layers[l].file, in->layers[l].fd, diag);
        }
    }
    return KVC_OK;
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

/* The run loop over the layers of `in` (host memory or files) with a scanner. */
static kvc_status run(kvc_scanner *s, const scan_inputs *in, const kvc_scan_options *opt, kvc_scan_report **out,
                      kvc_diag *diag)
{
    double t0 = clock_seconds();
    scan_run_ctx c;
    memset(&c, 0, sizeof c);
    c.opt = opt;
    c.scanner = s;
    kvc_status st = KVC_OK;
    if (opt->pages) st = page_list_parse(opt->pages, "--pages", &c.only, &c.nonly, diag);
    if (!st && opt->skip_pages) st = page_list_parse(opt->skip_pages, "--skip-pages", &c.skip, &c.nskip, diag);
    if (!st) st = report_start(s, in->nlayers, &c.report, diag);
    for (size_t i = 0; i < in->nlayers; i++) c.bytes_total += in->layers[i].bytes;
    for (size_t i = 0; !st && i < in->nlayers; i++) st = scan_layer(&c, &in->layers[i], diag);
    if (!st) st = check_scanned(&c, diag);
    if (!st) st = collect_findings(&c, in, diag);
    if (!st) report_finish(c.report, t0);
    if (!st && !c.report->clean) look_again(&c, in, &s->layout);
    free(c.only);
    free(c.skip);
    if (st) kvc_scan_report_free(c.report);
    else *out = c.report;
    return st;
}

static kvc_status run_inputs(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                             const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag)
{
    kvc_scanner *s = NULL;
    kvc_status st = scanner_open(l, opt, driver, 0, &s, diag);
    if (!st) st = run(s, in, opt, out, diag);
    kvc_scanner_free(s);
    return st;
}

kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag)
{
    return run_inputs(in, l, opt, driver, out, diag);
}

/* ---------------------------------------------------------- entry points */

kvc_status kvc_scan_files(const char *const *paths, size_t npaths, const kvc_layout *layout,
                          const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    scan_inputs in;
    kvc_status st = inputs_open(paths, npaths, layout, options, &in, diag);
    if (st) return st;
    st = run_inputs(&in, layout, options, NULL, out, diag);
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
    memset(&src, 0, sizeof src);
    str_copy(src.name, sizeof src.name, "memory");
    src.fd = -1;
    src.data = data;
    src.bytes = bytes;
    memset(&in, 0, sizeof in);
    in.layers = &src;
    in.nlayers = 1;
    return run_inputs(&in, layout, options, NULL, out, diag);
}
