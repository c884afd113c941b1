/* The scanner handle: a layout's plan set up once on the chosen device, then
 * scans of any number of layer buffers (device or host memory) with an
 * optional page list, submitted on the caller's stream and waited for when
 * the verdict is needed. Pointers are checked before anything reads them. */
#include "scanner/scanner.h"

#include <stdlib.h>
#include <string.h>

kvc_status scanner_open(const kvc_layout *l, const kvc_scan_options *opt, const cuda_api *driver, int need_gpu,
                        kvc_scanner **out, kvc_diag *diag)
{
    *out = NULL;
    RETURN_ERROR_IF(!l, diag, KVC_ERR_USAGE, NULL, "a scanner needs a layout (kvc_layout_build)");
    kvc_scanner *s = calloc(1, sizeof *s);
    RETURN_ERROR_IF(!s, diag, KVC_ERR_NOMEM, NULL, "out of memory for the scanner");
    s->layout = *l;
    s->max_findings = opt->max_findings;
    s->threads = cpu_threads(opt->threads);
    s->scale_pow2 = opt->scale_pow2 != 0;
    s->scale_ranged = opt->scale_ranged != 0;
    s->scale_min = opt->scale_min;
    s->scale_max = opt->scale_max;
    str_copy(s->layout_source, sizeof s->layout_source, opt->layout_source);
    s->align = 1;
    for (unsigned i = 0; i < l->nfields; i++)
        if (l->fields[i].elem != KVC_ELEM_PAD && kvc_elem_size(l->fields[i].elem) > s->align)
            s->align = kvc_elem_size(l->fields[i].elem);
    char why_not[KVC_NOTE_LEN - 64];
    kvc_status st = scan_plan_make(l, opt, &s->plan, diag);
    if (!st) st = gpu_choose(opt->device, need_gpu, driver, opt->gpu, &s->gpu, why_not, sizeof why_not, diag);
    if (!st && s->gpu) {
        st = gpu_scanner_create(s->gpu, &s->plan, &s->gscan, diag);
        str_copy(s->device, sizeof s->device, "cuda");
        str_copy(s->device_name, sizeof s->device_name, gpu_name(s->gpu));
        gpu_leave(s->gpu); /* each call makes it current again, on whichever thread makes it */
    } else if (!st) {
        if (why_not[0]) str_printf(s->note, sizeof s->note, "no usable GPU (%s): scanned on the CPU", why_not);
        str_copy(s->device, sizeof s->device, "cpu");
        str_printf(s->device_name, sizeof s->device_name, "%u CPU thread%s", s->threads, s->threads == 1 ? "" : "s");
    }
    if (st) {
        kvc_scanner_free(s);
        return st;
    }
    *out = s;
    return KVC_OK;
}

kvc_status kvc_scanner_create(const kvc_layout *layout, const kvc_scan_options *options, kvc_scanner **out,
                              kvc_diag *diag)
{
    RETURN_ERROR_IF(!out, diag, KVC_ERR_USAGE, NULL, "kvc_scanner_create needs somewhere to put the scanner");
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    return scanner_open(layout, options, NULL, 0, out, diag);
}

void kvc_scanner_free(kvc_scanner *s)
{
    if (!s) return;
    if (s->gpu) {
        gpu_enter(s->gpu);
        if (s->batch.pending) gpu_scanner_wait(s->gscan, NULL); /* nothing may write into freed buffers */
        gpu_scanner_free(s->gscan);
        gpu_close(s->gpu);
    }
    free(s->batch.layers);
    for (unsigned i = 0; i < SCANNER_RESULTS; i++) scan_results_drop(s->results[i]);
    free(s->checked);
    free(s);
}

const char *kvc_scanner_device(const kvc_scanner *s) { return s->device; }
const char *kvc_scanner_device_name(const kvc_scanner *s) { return s->device_name; }

/* ------------------------------------------------------------ the checks */

/* Grows *p to hold n elements of `size` bytes. */
static int reserve(void *p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap) return 1;
    void *q = realloc(*(void **)p, n * size);
    if (!q) return 0;
    *(void **)p = q;
    *cap = n;
    return 1;
}

/* What the caller passed, checked before anything is read. */
static kvc_status check_request(const kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                                const uint64_t *pages, size_t npages, const void *stream, kvc_diag *diag)
{
    const uint64_t pb = s->layout.page_bytes;
    RETURN_ERROR_IF(s->batch.pending, diag, KVC_ERR_USAGE, NULL,
                    "a scan is already in flight on this scanner: kvc_scanner_wait for it first (one scan at a time per "
                    "scanner)");
    RETURN_ERROR_IF(!layers || !nlayers, diag, KVC_ERR_USAGE, NULL, "no layer buffers to scan: give at least one");
    RETURN_ERROR_IF(!layer_bytes || layer_bytes % pb, diag, KVC_ERR_USAGE, NULL,
                    "each layer buffer must hold a whole, non-zero number of %s pages of %llu bytes: %llu bytes is %llu "
                    "pages and %llu bytes",
                    s->layout.name, (unsigned long long)pb, (unsigned long long)layer_bytes,
                    (unsigned long long)(layer_bytes / pb), (unsigned long long)(layer_bytes % pb));
    for (size_t l = 0; l < nlayers; l++) {
        RETURN_ERROR_IF(!layers[l], diag, KVC_ERR_USAGE, NULL, "layer %zu's buffer address is NULL", l);
        RETURN_ERROR_IF(layers[l] % s->align, diag, KVC_ERR_USAGE, NULL,
                        "layer %zu's buffer address 0x%llx is misaligned: %s pages hold %u-byte elements, so it must "
                        "be a multiple of %u",
                        l, (unsigned long long)layers[l], s->layout.name, s->align, s->align);
        RETURN_ERROR_IF(layers[l] + layer_bytes < layers[l], diag, KVC_ERR_USAGE, NULL,
                        "layer %zu: %llu bytes from 0x%llx run past the end of the address space", l,
                        (unsigned long long)layer_bytes, (unsigned long long)layers[l]);
    }
    RETURN_ERROR_IF(pages && !npages, diag, KVC_ERR_USAGE, NULL,
                    "the page list is empty: a scan of nothing cannot pass (pass no list to scan every page)");
    const uint64_t per = layer_bytes / pb;
    for (size_t i = 0; pages && i < npages; i++) {
        RETURN_ERROR_IF(pages[i] > INT64_MAX, diag, KVC_ERR_USAGE, NULL,
                        "page list entry %zu is %lld: a page number is never negative (pages are numbered from 0)", i,
                        (long long)pages[i]);
        RETURN_ERROR_IF(pages[i] >= per, diag, KVC_ERR_USAGE, NULL,
                        "page list entry %zu is page %llu, but each layer buffer holds %llu page%s (0-%llu)", i,
                        (unsigned long long)pages[i], (unsigned long long)per, per == 1 ? "" : "s",
                        (unsigned long long)(per - 1));
    }
    size_t items;
    RETURN_ERROR_IF(__builtin_mul_overflow(nlayers, pages ? npages : per, &items) || items > SIZE_MAX / 16, diag,
                    KVC_ERR_USAGE, NULL, "%zu layers of %llu pages are more pages than one scan can take", nlayers,
                    (unsigned long long)(pages ? npages : per));
    RETURN_ERROR_IF(stream && !s->gpu, diag, KVC_ERR_USAGE, NULL,
                    "a CUDA stream was given to a CPU scanner, which scans host memory at once: pass none");
    return KVC_OK;
}

/* Device memory of this scanner's GPU and context, long enough: checked
 * once for a layer table, which a pool passes again and again. */
static kvc_status check_device_layers(kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                                      kvc_diag *diag)
{
    if (s->nchecked == nlayers && s->checked_bytes >= layer_bytes && !memcmp(s->checked, layers, nlayers * 8))
        return KVC_OK;
    for (size_t l = 0; l < nlayers; l++) {
        char what[32];
        str_printf(what, sizeof what, "layer %zu", l);
        RETURN_IF_ERROR(gpu_check_pointer(s->gpu, layers[l], layer_bytes, what, diag));
    }
    s->nchecked = 0;
    RETURN_ERROR_IF(!reserve(&s->checked, &s->cap_checked, nlayers, 8), diag, KVC_ERR_NOMEM, NULL, "out of memory");
    memcpy(s->checked, layers, nlayers * 8);
    s->nchecked = nlayers, s->checked_bytes = layer_bytes;
    return KVC_OK;
}

/* ---------------------------------------------------------------- a scan */

/* The scan on the CPU, at once, into the batch's results. */
static kvc_status cpu_batch(kvc_scanner *s, kvc_diag *diag)
{
    scan_batch *b = &s->batch;
    for (size_t l = 0; l < b->nlayers; l++) {
        layer_job job;
        memset(&job, 0, sizeof job);
        job.resident = 1;
        job.host = (const uint8_t *)(uintptr_t)b->layers[l];
        job.pages = b->pages;
        job.npages = b->per_layer;
        job.page_bad = b->at.bad + l * b->per_layer;
        job.digests = b->at.digests + l * b->per_layer;
        RETURN_IF_ERROR(cpu_scan_layer(&s->plan, &job, s->threads, diag));
        memcpy(b->at.counts + l * KVC_CHECK_COUNT, job.counts, sizeof job.counts);
    }
    return KVC_OK;
}

static kvc_status submit(kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                         const uint64_t *pages, size_t npages, void *stream, kvc_diag *diag)
{
    RETURN_IF_ERROR(check_request(s, layers, nlayers, layer_bytes, pages, npages, stream, diag));
    scan_batch *b = &s->batch;
    b->t0 = clock_seconds();
    const uint64_t per_layer = pages ? npages : layer_bytes / s->layout.page_bytes;
    const size_t bytes = (page_results_bytes(nlayers, nlayers * per_layer) + 7) & ~(size_t)7; /* the list after it */
    RETURN_ERROR_IF(!reserve(&b->layers, &b->cap_layers, nlayers, 8), diag, KVC_ERR_NOMEM, NULL,
                    "out of memory for the layer table");
    RETURN_IF_ERROR(scanner_results(s, bytes + (pages ? npages * 8 : 0), &b->results, diag));
    memcpy(b->layers, layers, nlayers * 8);
    b->at = page_results_at(scan_results_mem(b->results), nlayers, nlayers * per_layer);
    b->pages = pages ? memcpy((uint8_t *)scan_results_mem(b->results) + bytes, pages, npages * 8) : NULL;
    b->nlayers = nlayers;
    b->layer_bytes = layer_bytes;
    b->per_layer = per_layer;
    kvc_status st;
    if (s->gpu) {
        gpu_enter(s->gpu);
        st = check_device_layers(s, layers, nlayers, layer_bytes, diag);
        if (!st)
            st = gpu_scanner_submit(s->gscan, b->layers, nlayers, b->pages, per_layer, (cu_stream)stream,
                                    scan_results_mem(b->results), diag);
        gpu_leave(s->gpu);
    } else {
        st = cpu_batch(s, diag);
    }
    b->pending = st == KVC_OK;
    return st;
}

kvc_status kvc_scanner_submit(kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                              const uint64_t *pages, size_t npages, void *stream, kvc_diag *diag)
{
    RETURN_ERROR_IF(!s, diag, KVC_ERR_USAGE, NULL, "kvc_scanner_submit needs a scanner (kvc_scanner_create)");
    return submit(s, layers, nlayers, layer_bytes, pages, npages, stream, diag);
}

/* "layer N", written without printf: a report names every layer of a pool
 * on each scan. */
static void layer_name(char name[static 32], size_t l)
{
    char digits[24];
    size_t n = 0;
    do digits[n++] = (char)('0' + l % 10);
    while ((l /= 10) != 0);
    memcpy(name, "layer ", 6);
    for (size_t i = 0; i < n; i++) name[6 + i] = digits[n - 1 - i];
    name[6 + n] = '\0';
}

/* The report of the batch: its layers point into the batch's results. */
static kvc_status batch_report(kvc_scanner *s, kvc_scan_report **out, kvc_diag *diag)
{
    const scan_batch *b = &s->batch;
    kvc_scan_report *r;
    RETURN_IF_ERROR(report_start(s, b->nlayers, &r, diag));
    r->results = scan_results_hold(b->results);
    kvc_status st = KVC_OK;
    for (size_t l = 0; !st && l < b->nlayers; l++) {
        kvc_scan_layer *x = &r->layers[l];
        layer_name(x->name, l);
        x->file[0] = '\0';
        x->file_offset = 0;
        x->bytes = b->layer_bytes;
        x->pages = b->layer_bytes / s->layout.page_bytes;
        x->damaged = 0;
        x->nbad_pages = 0;
        x->bad_pages = NULL;
        x->digests = b->at.digests + l * b->per_layer;
        x->scanned = b->pages;
        st = layer_results(x, b->pages, b->per_layer, b->at.bad + l * b->per_layer, b->at.counts + l * KVC_CHECK_COUNT,
                           diag);
        r->nlayers++;
    }
    for (size_t l = 0; !st && l < b->nlayers && r->nfindings < s->max_findings; l++) {
        if (s->gpu) {
            st = device_findings(s, r, (unsigned)l, b->layers[l], diag);
            continue;
        }
        const kvc_scan_layer *x = &r->layers[l];
        const uint8_t *base = (const uint8_t *)(uintptr_t)b->layers[l];
        for (size_t i = 0; i < x->nbad_pages; i++) {
            uint64_t page = x->bad_pages[i].page, off = page * s->layout.page_bytes;
            scan_page_findings(&s->plan, base + off, (unsigned)l, page, off, r->findings, &r->nfindings, s->max_findings);
        }
    }
    if (!st) report_finish(r, b->t0);
    if (st) kvc_scan_report_free(r);
    else *out = r;
    return st;
}

/* 1 when no check counted a damaged element in any layer of the batch. */
static int batch_clean(const scan_batch *b)
{
    uint64_t any = 0;
    for (size_t i = 0; i < b->nlayers * KVC_CHECK_COUNT; i++) any |= b->at.counts[i];
    return any == 0;
}

/* The submitted scan's report; with `damaged_only`, none for a clean scan. */
static kvc_status wait_batch(kvc_scanner *s, int damaged_only, kvc_scan_report **out, kvc_diag *diag)
{
    RETURN_ERROR_IF(!s->batch.pending, diag, KVC_ERR_USAGE, NULL,
                    "nothing to wait for: no scan was submitted on this scanner (kvc_scanner_submit)");
    s->batch.pending = 0;
    if (s->gpu) gpu_enter(s->gpu);
    kvc_status st = s->gpu ? gpu_scanner_wait(s->gscan, diag) : KVC_OK;
    if (!st && !(damaged_only && batch_clean(&s->batch))) st = batch_report(s, out, diag);
    if (s->gpu) gpu_leave(s->gpu);
    return st;
}

/* The checks every entry point that hands a report over makes first. */
static kvc_status report_call(const kvc_scanner *s, kvc_scan_report **out, const char *fn, kvc_diag *diag)
{
    RETURN_ERROR_IF(!out, diag, KVC_ERR_USAGE, NULL, "%s needs somewhere to put the report", fn);
    *out = NULL;
    RETURN_ERROR_IF(!s, diag, KVC_ERR_USAGE, NULL, "%s needs a scanner (kvc_scanner_create)", fn);
    return KVC_OK;
}

kvc_status kvc_scanner_wait(kvc_scanner *s, kvc_scan_report **out, kvc_diag *diag)
{
    RETURN_IF_ERROR(report_call(s, out, "kvc_scanner_wait", diag));
    return wait_batch(s, 0, out, diag);
}

kvc_status kvc_scanner_wait_check(kvc_scanner *s, kvc_scan_report **damaged, kvc_diag *diag)
{
    RETURN_IF_ERROR(report_call(s, damaged, "kvc_scanner_wait_check", diag));
    return wait_batch(s, 1, damaged, diag);
}

kvc_status kvc_scanner_scan(kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                            const uint64_t *pages, size_t npages, void *stream, kvc_scan_report **out, kvc_diag *diag)
{
    RETURN_IF_ERROR(report_call(s, out, "kvc_scanner_scan", diag));
    RETURN_IF_ERROR(submit(s, layers, nlayers, layer_bytes, pages, npages, stream, diag));
    return wait_batch(s, 0, out, diag);
}

kvc_status kvc_scanner_check(kvc_scanner *s, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                             const uint64_t *pages, size_t npages, void *stream, kvc_scan_report **damaged,
                             kvc_diag *diag)
{
    RETURN_IF_ERROR(report_call(s, damaged, "kvc_scanner_check", diag));
    RETURN_IF_ERROR(submit(s, layers, nlayers, layer_bytes, pages, npages, stream, diag));
    return wait_batch(s, 1, damaged, diag);
}

/* ------------------------------------------------------- device memory */

/* One layer of device memory, with the options' page lists, on the GPU
 * that holds it. */
static kvc_status device_scan(kvc_scanner *s, uint64_t ptr, size_t bytes, const kvc_scan_options *o,
                              kvc_scan_report **out, kvc_diag *diag)
{
    page_range *only = NULL, *skip = NULL;
    size_t nonly = 0, nskip = 0;
    uint64_t *list = NULL, n = 0;
    kvc_status st = KVC_OK;
    if (o->pages) st = page_list_parse(o->pages, "--pages", &only, &nonly, diag);
    if (!st && o->skip_pages) st = page_list_parse(o->skip_pages, "--skip-pages", &skip, &nskip, diag);
    if (!st) st = page_select(only, nonly, skip, nskip, bytes / s->layout.page_bytes, "device memory", &list, &n, diag);
    if (!st && list && !n)
        st = diag_set(diag, KVC_ERR_USAGE, NULL,
                      "no page left to scan: the page lists leave none of device memory's %llu pages; a scan of "
                      "nothing cannot pass",
                      (unsigned long long)(bytes / s->layout.page_bytes));
    if (!st) st = kvc_scanner_scan(s, &ptr, 1, bytes, list, (size_t)n, NULL, out, diag);
    if (!st) str_copy((*out)->layers[0].name, sizeof (*out)->layers[0].name, "device memory");
    free(only);
    free(skip);
    free(list);
    return st;
}

kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag)
{
    kvc_scan_options o;
    if (options) o = *options;
    else kvc_scan_options_init(&o);
    RETURN_ERROR_IF(!layout || !layout->page_bytes || bytes % layout->page_bytes || !bytes || !device_ptr, diag,
                    KVC_ERR_USAGE, NULL,
                    "kvc_scan_device needs a device pointer and a whole, non-zero number of pages (%zu bytes at "
                    "%llu bytes per page)",
                    bytes, (unsigned long long)(layout ? layout->page_bytes : 0));
    o.gpu = 0;
    kvc_scanner *s = NULL;
    kvc_status st = scanner_open(layout, &o, driver, 1, &s, diag);
    int ordinal = 0;
    if (!st) {
        gpu_enter(s->gpu);
        st = gpu_device_of(s->gpu, device_ptr, &ordinal, diag);
        gpu_leave(s->gpu);
    }
    if (!st && ordinal != 0) { /* memory on another GPU is scanned on that GPU */
        kvc_scanner_free(s);
        s = NULL;
        o.gpu = ordinal;
        st = scanner_open(layout, &o, driver, 1, &s, diag);
    }
    if (!st) st = device_scan(s, device_ptr, bytes, &o, out, diag);
    kvc_scanner_free(s);
    return st;
}

kvc_status kvc_scan_device(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag)
{
    *out = NULL;
    return scan_device_run(device_ptr, bytes, layout, options, NULL, out, diag);
}
