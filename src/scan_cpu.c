#define _DEFAULT_SOURCE /* madvise */
/* The CPU scanner: one page at a time, a word-wide filter over clean data
 * and an element-by-element count of what it flags, both from the predicate
 * header the GPU scanner includes too. Also the scan plan both scanners
 * start from, and the findings pass (always on the host). */
#include "internal.h"
#include "kvc_simulate.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *const CHECK_NAMES[KVC_CHECK_COUNT] = {
    [KVC_CHECK_E4M3_NAN] = "e4m3_nan",
    [KVC_CHECK_E5M2_NAN] = "e5m2_nan",
    [KVC_CHECK_E5M2_INF] = "e5m2_inf",
    [KVC_CHECK_BF16_NAN] = "bf16_nan",
    [KVC_CHECK_BF16_POS_INF] = "bf16_pos_inf",
    [KVC_CHECK_BF16_NEG_INF] = "bf16_neg_inf",
    [KVC_CHECK_FP16_NAN] = "fp16_nan",
    [KVC_CHECK_FP16_POS_INF] = "fp16_pos_inf",
    [KVC_CHECK_FP16_NEG_INF] = "fp16_neg_inf",
    [KVC_CHECK_FP32_NAN] = "fp32_nan",
    [KVC_CHECK_FP32_POS_INF] = "fp32_pos_inf",
    [KVC_CHECK_FP32_NEG_INF] = "fp32_neg_inf",
    [KVC_CHECK_SCALE_NAN] = "scale_nan",
    [KVC_CHECK_SCALE_POS_INF] = "scale_pos_inf",
    [KVC_CHECK_SCALE_NEG_INF] = "scale_neg_inf",
    [KVC_CHECK_SCALE_NEGATIVE] = "scale_negative",
    [KVC_CHECK_SCALE_ZERO] = "scale_zero",
    [KVC_CHECK_SCALE_DENORMAL] = "scale_denormal",
    [KVC_CHECK_SCALE_NOT_POW2] = "scale_not_pow2",
    [KVC_CHECK_SCALE_OUT_OF_RANGE] = "scale_out_of_range",
    [KVC_CHECK_UE8M0_NAN] = "ue8m0_nan",
};

const char *kvc_check_name(kvc_check check)
{
    return (unsigned)check < KVC_CHECK_COUNT ? CHECK_NAMES[check] : "?";
}

/* ------------------------------------------------------------------- plan */

unsigned field_kind(const kvc_field *f)
{
    switch (f->elem) {
    case KVC_ELEM_E4M3: return KVC_KIND_E4M3;
    case KVC_ELEM_E5M2: return KVC_KIND_E5M2;
    case KVC_ELEM_BF16: return KVC_KIND_BF16;
    case KVC_ELEM_F16: return KVC_KIND_F16;
    case KVC_ELEM_F32: return f->scale ? KVC_KIND_F32_SCALE : KVC_KIND_F32;
    case KVC_ELEM_UE8M0: return KVC_KIND_UE8M0;
    case KVC_ELEM_PAD: return KVC_KIND_PAD;
    }
    return KVC_KIND_PAD;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

kvc_status scan_plan_make(const kvc_layout *l, const kvc_scan_options *o, scan_plan *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->layout = *l;
    kvc_origin origin;
    origin_set(&origin, "", 0, 0, "--scale-range");
    if (o->scale_ranged) {
        RETURN_ERROR_IF(!(o->scale_min > 0) || !(o->scale_max >= o->scale_min) || !isfinite(o->scale_max) ||
                            (float)o->scale_min < FLT_MIN,
                        diag, KVC_ERR_USAGE, &origin,
                        "the scale range must be MIN:MAX with 0 < MIN <= MAX, both finite normal floats, not %g:%g",
                        o->scale_min, o->scale_max);
        out->rules.ranged = 1;
        out->rules.lo_bits = float_bits((float)o->scale_min);
        out->rules.hi_bits = float_bits((float)o->scale_max);
    }
    out->rules.pow2 = o->scale_pow2 != 0;
    origin_set(&origin, "", 0, 0, "layout");
    RETURN_ERROR_IF(!l->page_bytes || !l->page_size || !l->nfields, diag, KVC_ERR_USAGE, &origin,
                    "layout '%s' has no pages or fields", l->name);
    /* runs in order of their first byte, so a page's elements come in byte order */
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        unsigned kind = field_kind(f);
        if (kind == KVC_KIND_PAD) continue;
        uint64_t bytes = (uint64_t)f->count * kvc_elem_size(f->elem);
        RETURN_ERROR_IF(f->stride < bytes || f->base + (l->page_size - 1) * f->stride + bytes > l->page_bytes, diag,
                        KVC_ERR_USAGE, &origin, "layout '%s': field %s does not fit in its page", l->name, f->name);
        unsigned j = out->nruns++;
        while (j > 0 && out->runs[j - 1].base > f->base) {
            out->runs[j] = out->runs[j - 1];
            j--;
        }
        out->runs[j] = (scan_run){f->base, f->stride, (uint32_t)bytes, kind, i};
    }
    return KVC_OK;
}

/* ------------------------------------------------------------ one page */

static uint64_t load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* 1 when a run of `bytes` bytes of `kind` holds any damaged element. */
static int run_damaged(unsigned kind, const uint8_t *p, uint32_t bytes, const kvc_scale_rules *r)
{
    uint64_t acc = 0;
    uint32_t i = 0;
    if (kind == KVC_KIND_F32_SCALE) {
        for (; i + 8 <= bytes; i += 8) acc |= kvc_bad_scale_lanes(load64(p + i), r);
        for (; i + 4 <= bytes; i += 4) acc |= kvc_classify(kind, p + i, r) != KVC_CHECK_OK;
        return acc != 0;
    }
    for (; i + 8 <= bytes; i += 8) acc |= kvc_bad_lanes(kind, load64(p + i));
    if (i < bytes) { /* the tail, zero-filled: a zero element is never damaged here */
        uint8_t tail[8] = {0};
        memcpy(tail, p + i, bytes - i);
        acc |= kvc_bad_lanes(kind, load64(tail));
    }
    return acc != 0;
}

/* 1 when a page holds any damaged element: the filter over clean pages.
 * Token records are read in memory order; each kind ORs its words' partial
 * filter results into its own accumulator, masked once per page. Built for
 * AVX2 too, chosen at run time. */
__attribute__((target_clones("avx2", "default"))) static int page_damaged(const scan_plan *plan, const uint8_t *page)
{
    uint64_t acc[KVC_KIND_MIXED] = {0}, bad = 0; /* bad: FP32 scales, then everything */
    kvc_filter64 filter[KVC_KIND_MIXED];
    for (unsigned k = 0; k < KVC_KIND_MIXED; k++) filter[k] = kvc_filter64_for(k);
    const uint32_t tokens = plan->layout.page_size;
    const uint64_t share = plan->layout.page_bytes / tokens; /* of the next page, fetched ahead per token */
    for (uint32_t t = 0; t < tokens; t++) {
        const uint8_t *ahead = page + plan->layout.page_bytes + t * share;
        for (uint64_t o = 0; o < share; o += 64) __builtin_prefetch(ahead + o);
        for (unsigned r = 0; r < plan->nruns; r++) {
            const scan_run *run = &plan->runs[r];
            const uint8_t *p = page + run->base + (uint64_t)t * run->stride;
            const uint32_t words = run->bytes / 8;
            switch (run->kind) {
#define KVC_WORDS(K)                                                                                           \
    case K:                                                                                                    \
        for (uint32_t i = 0; i < words; i++) acc[K] |= kvc_filter64_partial(&filter[K], load64(p + 8 * i));    \
        break;
                KVC_WORDS(KVC_KIND_E4M3)
                KVC_WORDS(KVC_KIND_E5M2)
                KVC_WORDS(KVC_KIND_BF16)
                KVC_WORDS(KVC_KIND_F16)
                KVC_WORDS(KVC_KIND_F32)
                KVC_WORDS(KVC_KIND_UE8M0)
#undef KVC_WORDS
            case KVC_KIND_F32_SCALE:
                for (uint32_t i = 0; i < words; i++) bad |= kvc_bad_scale_lanes(load64(p + 8 * i), &plan->rules);
                break;
            default: break;
            }
            if (run->bytes % 8 && run_damaged(run->kind, p + 8 * words, run->bytes % 8, &plan->rules)) return 1;
        }
    }
    for (unsigned k = 0; k < KVC_KIND_MIXED; k++) bad |= acc[k] & filter[k].top;
    return bad != 0;
}

/* Visits a page's elements in byte order: runs are merged token record by
 * token record (records never overlap, and within one they ascend). */
typedef int (*element_fn)(void *ctx, const scan_run *run, uint64_t token, uint32_t element, uint64_t at, int check);

static void page_walk(const scan_plan *plan, const uint8_t *page, element_fn fn, void *ctx)
{
    uint64_t next[KVC_MAX_FIELDS] = {0};
    const uint32_t tokens = plan->layout.page_size;
    for (;;) {
        unsigned best = plan->nruns;
        uint64_t best_at = UINT64_MAX;
        for (unsigned r = 0; r < plan->nruns; r++) {
            if (next[r] >= tokens) continue;
            uint64_t at = plan->runs[r].base + next[r] * plan->runs[r].stride;
            if (at < best_at) best_at = at, best = r;
        }
        if (best == plan->nruns) return;
        const scan_run *run = &plan->runs[best];
        uint64_t t = next[best]++;
        if (!run_damaged(run->kind, page + best_at, run->bytes, &plan->rules)) continue;
        unsigned size = kvc_kind_size(run->kind);
        for (uint32_t e = 0; e * size < run->bytes; e++) {
            int check = kvc_classify(run->kind, page + best_at + (uint64_t)e * size, &plan->rules);
            if (check != KVC_CHECK_OK && !fn(ctx, run, t, e, best_at + (uint64_t)e * size, check)) return;
        }
    }
}

uint32_t scan_page(const scan_plan *plan, const uint8_t *page, uint64_t counts[KVC_CHECK_COUNT])
{
    if (!page_damaged(plan, page)) return 0;
    const uint32_t tokens = plan->layout.page_size;
    uint32_t n = 0;
    const uint8_t *p = page;
    for (unsigned r = 0; r < plan->nruns; r++) {
        const scan_run *run = &plan->runs[r];
        unsigned size = kvc_kind_size(run->kind);
        for (uint32_t t = 0; t < tokens; t++) {
            const uint8_t *at = p + run->base + (uint64_t)t * run->stride;
            if (!run_damaged(run->kind, at, run->bytes, &plan->rules)) continue;
            for (uint32_t i = 0; i < run->bytes; i += size) {
                int check = kvc_classify(run->kind, at + i, &plan->rules);
                if (check != KVC_CHECK_OK) counts[check]++, n++;
            }
        }
    }
    return n;
}

/* --------------------------------------------------------------- findings */

double elem_decode(kvc_elem elem, const uint8_t *p)
{
    switch (elem) {
    case KVC_ELEM_E4M3: return kvc_float_of_e4m3(p[0]);
    case KVC_ELEM_E5M2: {
        unsigned s = p[0] >> 7, e = (p[0] >> 2) & 31, m = p[0] & 3;
        double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1.0 + m / 4.0, (int)e - 15) : ldexp(m / 4.0, -14);
        return s ? -v : v;
    }
    case KVC_ELEM_BF16: return kvc_float_of_bf16((uint16_t)(p[0] | p[1] << 8));
    case KVC_ELEM_F16: {
        unsigned h = (unsigned)(p[0] | p[1] << 8), s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
        double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1.0 + m / 1024.0, (int)e - 15) : ldexp(m / 1024.0, -14);
        return s ? -v : v;
    }
    case KVC_ELEM_F32: {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    case KVC_ELEM_UE8M0: return p[0] == 0xFF ? NAN : ldexp(1.0, (int)p[0] - 127);
    case KVC_ELEM_PAD: return 0;
    }
    return 0;
}

typedef struct finding_ctx {
    const scan_plan *plan;
    const uint8_t *page;
    unsigned layer;
    uint64_t page_index, page_offset;
    kvc_finding *out;
    size_t *n, max;
} finding_ctx;

static int add_finding(void *ctx, const scan_run *run, uint64_t token, uint32_t element, uint64_t at, int check)
{
    finding_ctx *c = ctx;
    if (*c->n >= c->max) return 0;
    const kvc_field *f = &c->plan->layout.fields[run->field];
    kvc_finding *x = &c->out[(*c->n)++];
    memset(x, 0, sizeof *x);
    x->layer = c->layer;
    x->page = c->page_index;
    x->slot = token;
    str_copy(x->field, sizeof x->field, f->name);
    x->element = element;
    x->offset = c->page_offset + at;
    x->check = (kvc_check)check;
    x->elem = f->elem;
    memcpy(x->raw, c->page + at, kvc_elem_size(f->elem));
    x->value = elem_decode(f->elem, c->page + at);
    return *c->n < c->max;
}

void scan_page_findings(const scan_plan *plan, const uint8_t *page, unsigned layer, uint64_t page_index,
                        uint64_t page_offset, kvc_finding *out, size_t *n, size_t max)
{
    if (*n >= max) return;
    finding_ctx c = {plan, page, layer, page_index, page_offset, out, n, max};
    page_walk(plan, page, add_finding, &c);
}

/* ------------------------------------------------------------ one layer */

/* Pages are handed out in blocks so threads share the work evenly. */
#define BLOCK_PAGES 256
#define AHEAD_BLOCKS 8 /* how far ahead of a block read-ahead is asked for */

typedef struct cpu_job {
    const scan_plan *plan;
    layer_job *job;
    atomic_uint_fast64_t next_block;
    atomic_uint_fast64_t pages_done;
    pthread_mutex_t lock; /* guards job->counts when threads merge */
} cpu_job;

/* Asks the kernel to read a mapped file's pages ahead of the scan: from
 * the disk, faulting in page by page is much slower than read-ahead. */
static void read_ahead(const uint8_t *from, uint64_t bytes)
{
    uintptr_t start = (uintptr_t)from & ~(uintptr_t)4095;
    madvise((void *)start, (size_t)((uintptr_t)from + bytes - start), MADV_WILLNEED);
}

static void scan_blocks(cpu_job *c, int report)
{
    layer_job *j = c->job;
    uint64_t counts[KVC_CHECK_COUNT] = {0};
    const uint64_t page_bytes = c->plan->layout.page_bytes;
    for (;;) {
        uint64_t b = atomic_fetch_add(&c->next_block, 1);
        uint64_t first = b * BLOCK_PAGES;
        if (first >= j->npages) break;
        uint64_t last = first + BLOCK_PAGES < j->npages ? first + BLOCK_PAGES : j->npages;
        uint64_t ahead = first + AHEAD_BLOCKS * BLOCK_PAGES;
        if (!j->pages && ahead < j->npages)
            read_ahead(j->host + ahead * page_bytes,
                       (j->npages - ahead < BLOCK_PAGES ? j->npages - ahead : BLOCK_PAGES) * page_bytes);
        for (uint64_t i = first; i < last; i++) {
            uint64_t page = j->pages ? j->pages[i] : i;
            j->page_bad[i] = scan_page(c->plan, j->host + page * page_bytes, counts);
        }
        uint64_t done = atomic_fetch_add(&c->pages_done, last - first) + (last - first);
        if (report && j->progress) j->progress(j->progress_ctx, done * page_bytes);
    }
    pthread_mutex_lock(&c->lock);
    for (unsigned k = 0; k < KVC_CHECK_COUNT; k++) j->counts[k] += counts[k];
    pthread_mutex_unlock(&c->lock);
}

static void *scan_thread(void *arg)
{
    scan_blocks(arg, 0);
    return NULL;
}

unsigned cpu_threads(unsigned asked)
{
    if (asked) return asked;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (unsigned)n;
}

/* Scans pages that are in memory (or mapped and cached), on `threads` threads. */
static void scan_in_memory(const scan_plan *plan, layer_job *job, unsigned threads)
{
    cpu_job c = {.plan = plan, .job = job};
    atomic_init(&c.next_block, 0);
    atomic_init(&c.pages_done, 0);
    pthread_mutex_init(&c.lock, NULL);
    uint64_t blocks = (job->npages + BLOCK_PAGES - 1) / BLOCK_PAGES;
    if (!job->pages) /* the first blocks; each block then asks for one further on */
        read_ahead(job->host, (blocks < AHEAD_BLOCKS ? job->npages : AHEAD_BLOCKS * BLOCK_PAGES) * plan->layout.page_bytes);
    unsigned want = threads > blocks ? (unsigned)(blocks ? blocks : 1) : threads;
    pthread_t tid[16];
    unsigned started = 0;
    for (unsigned i = 1; i < want && i < 16; i++) {
        if (pthread_create(&tid[started], NULL, scan_thread, &c) != 0) break; /* fewer threads still finish */
        started++;
    }
    scan_blocks(&c, 1); /* the calling thread works too, and reports progress */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&c.lock);
}

/* A file that is not in the page cache is read as cat reads it, one batch
 * ahead of the scan: a reader thread fills one buffer while the scanners
 * work on the other. */
#define STREAM_BATCH_BYTES (16ull << 20) /* small enough that filling fresh buffers costs little */

typedef struct batch_read {
    layer_job *job;
    uint64_t first, n, page_bytes;
    uint8_t *dst;
    unsigned threads;
    kvc_status st;
    kvc_diag diag;
} batch_read;

static void *read_batch(void *arg)
{
    batch_read *r = arg;
    r->st = layer_read(r->job->src, r->job->pages, r->first, r->n, r->page_bytes, r->dst, 0, r->threads, &r->diag);
    return NULL;
}

static kvc_status scan_streamed(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag)
{
    const uint64_t pb = plan->layout.page_bytes;
    uint64_t per = STREAM_BATCH_BYTES / pb ? STREAM_BATCH_BYTES / pb : 1;
    if (per > job->npages) per = job->npages;
    uint8_t *buf[2] = {malloc(per * pb), malloc(per * pb)};
    kvc_status st = buf[0] && buf[1] ? KVC_OK : diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for read buffers");
    batch_read next = {job, 0, per, pb, buf[0], threads, KVC_OK, {0}};
    if (!st) read_batch(&next), st = next.st, *diag = next.diag;
    for (uint64_t first = 0, k = 0; !st && first < job->npages; first += per, k++) {
        uint64_t n = job->npages - first < per ? job->npages - first : per;
        pthread_t reader;
        int reading = 0;
        if (first + n < job->npages) {
            next = (batch_read){job, first + n, job->npages - first - n < per ? job->npages - first - n : per, pb,
                                buf[(k + 1) % 2], threads, KVC_OK, {0}};
            reading = pthread_create(&reader, NULL, read_batch, &next) == 0;
            if (!reading) read_batch(&next); /* no thread: read it now */
        }
        layer_job part = *job; /* this batch, with its page counts in place */
        part.host = buf[k % 2];
        part.pages = NULL;
        part.npages = n;
        part.page_bad = job->page_bad + first;
        part.progress = NULL;
        memset(part.counts, 0, sizeof part.counts);
        scan_in_memory(plan, &part, threads);
        for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) job->counts[i] += part.counts[i];
        if (reading) pthread_join(reader, NULL);
        if (first + n < job->npages && next.st) st = next.st, *diag = next.diag;
        if (job->progress) job->progress(job->progress_ctx, (first + n) * pb);
    }
    free(buf[0]);
    free(buf[1]);
    return st;
}

kvc_status cpu_scan_layer(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag)
{
    if (job->resident || !job->src) {
        scan_in_memory(plan, job, threads);
        return KVC_OK;
    }
    return job->npages ? scan_streamed(plan, job, threads, diag) : KVC_OK;
}
