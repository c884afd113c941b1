/* kvcheck detect: which catalogue layout do some bytes look like?
 *
 * Every layout is tried at the given page size. A layout the input is not a
 * whole number of pages of is out. For the rest a sample of pages is read
 * field by field and each field gets a quality from 0 to 1:
 *  - values (e4m3 payloads, bf16 RoPE, ...): no NaN or Inf; magnitudes that
 *    cluster within a few binades, as model values do (random bytes spread
 *    over every exponent) but not all within one or two (another format's
 *    bytes often collapse like that);
 *  - scales: finite, positive and normal, of a plausible size, and
 *    consistent with the payload they scale: the largest value of each
 *    block reaches at least half of e4m3's 448, as amax/448 scaling writes.
 * A layout's score is the product of its fields' qualities. The scales
 * belong to the layout's first field, in equal groups (FORMATS.md: scale i
 * covers NoPE values [128i, 128i + 128), the indexer's one scale its 128 K
 * values, MODEL1's UE8M0 scale i values [64i, 64i + 64)). */
#include "detect/detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BEST_AT_LEAST 0.5 /* a lower best score is "unknown" */
#define NOT_WHOLE_PAGES 0.8 /* a size that is not whole pages counts against a layout, without ruling it out */

typedef struct field_stats {
    uint64_t n, bad, zero;
    uint64_t hist[256];                    /* exponent field of the nonzero, finite values */
    uint64_t normal, top_clear;            /* normal values, and those whose top mantissa bit is 0 */
    uint64_t low_hist[256];                /* wide values: the low half read as the next narrower type */
    uint64_t groups, consistent, plausible; /* scales: blocks judged, consistent with payload, plausible size */
} field_stats;

/* The exponent field of an element, the number of its values, how many
 * neighbouring exponents model values fill (a window of binades), the top
 * mantissa bit, and for wide values the narrower type their low half would
 * be if the bytes were really pairs of narrower values. */
static const struct kind_exp {
    unsigned shift, mask, bins, window;
    unsigned mantissa_bits;
    unsigned low_kind, low_bits;
} KIND_EXP[] = {
    [KVC_KIND_E4M3] = {3, 0x0F, 16, 7, 3, KVC_KIND_PAD, 0},
    [KVC_KIND_E5M2] = {2, 0x1F, 32, 10, 2, KVC_KIND_PAD, 0},
    [KVC_KIND_BF16] = {7, 0xFF, 256, 12, 7, KVC_KIND_E4M3, 8},
    [KVC_KIND_F16] = {10, 0x1F, 32, 10, 10, KVC_KIND_E4M3, 8},
    [KVC_KIND_F32] = {23, 0xFF, 256, 12, 23, KVC_KIND_BF16, 16},
    [KVC_KIND_F32_SCALE] = {23, 0xFF, 256, 12, 0, KVC_KIND_PAD, 0},
    [KVC_KIND_UE8M0] = {0, 0xFF, 256, 12, 0, KVC_KIND_PAD, 0},
};

/* Benford's law for log-spread values: the top mantissa bit is 0 with
 * probability log2(1.5) = 0.585, a little less after rounding to m bits:
 * log2((1.5 - 2^-(m+1)) / (1 - 2^-(m+2))), 0.569 for e4m3, 0.553 for e5m2.
 * Bytes read with the exponent boundary elsewhere give about 0.5 (an
 * exponent bit read as mantissa) or 0.544 (the second mantissa bit). */
#define TOP_CLEAR_WRONG 0.52

static double top_clear_model(unsigned m) { return log2((1.5 - ldexp(1, -(int)m - 1)) / (1 - ldexp(1, -(int)m - 2))); }

static uint32_t element_bits(unsigned size, const uint8_t *p)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < size; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* 1 when the element is ±0 (for UE8M0 there is no zero). */
static int element_zero(unsigned kind, uint32_t v)
{
    switch (kind) {
    case KVC_KIND_E4M3:
    case KVC_KIND_E5M2: return (v & 0x7F) == 0;
    case KVC_KIND_BF16:
    case KVC_KIND_F16: return (v & 0x7FFF) == 0;
    case KVC_KIND_F32:
    case KVC_KIND_F32_SCALE: return (v & 0x7FFFFFFF) == 0;
    default: return 0;
    }
}

/* A scale of plausible size: 2^-40 to 2^20 (amax/448 of real values). */
static int scale_plausible(unsigned kind, uint32_t v)
{
    unsigned e = kind == KVC_KIND_UE8M0 ? v & 0xFF : (v >> 23) & 0xFF;
    return e >= 127 - 40 && e <= 127 + 20;
}

/* 1 when the largest |value| of `count` e4m3 bytes is at least 224, half of
 * the largest finite 448. Magnitude codes (b & 0x7F) order like the
 * magnitudes, and 224 = 1.75 x 2^7 is code 0x76; 0x7F is NaN. */
static int e4m3_reaches_224(const uint8_t *p, uint32_t count)
{
    unsigned top = 0;
    for (uint32_t i = 0; i < count; i++) {
        unsigned m = p[i] & 0x7F;
        if (m != 0x7F && m > top) top = m;
    }
    return top >= 0x76;
}

static void sample_page(const kvc_layout *l, const uint8_t *page, field_stats *st)
{
    int scale = -1;
    for (unsigned f = 0; f < l->nfields; f++)
        if (l->fields[f].scale) scale = (int)f;
    const kvc_field *payload = scale > 0 && l->fields[0].elem == KVC_ELEM_E4M3 ? &l->fields[0] : NULL;
    const kvc_scale_rules any = {0, 0, 0, 0};
    for (uint32_t t = 0; t < l->page_size; t++) {
        for (unsigned f = 0; f < l->nfields; f++) {
            const kvc_field *fl = &l->fields[f];
            unsigned kind = field_kind(fl), size = kvc_elem_size(fl->elem);
            if (kind == KVC_KIND_PAD) continue;
            const uint8_t *at = page + fl->base + (uint64_t)t * fl->stride;
            field_stats *s = &st[f];
            for (uint32_t e = 0; e < fl->count; e++) {
                uint32_t v = element_bits(size, at + (uint64_t)e * size);
                s->n++;
                int bad = kvc_classify(kind, at + (uint64_t)e * size, &any) != KVC_CHECK_OK;
                const struct kind_exp *k = &KIND_EXP[kind];
                if (bad) s->bad++;
                else if (element_zero(kind, v)) s->zero++;
                else {
                    unsigned ex = (v >> k->shift) & k->mask;
                    s->hist[ex]++;
                    if (ex && k->mantissa_bits) s->normal++, s->top_clear += !(v >> (k->mantissa_bits - 1) & 1);
                    if (k->low_bits) {
                        uint32_t low = v & ((1u << k->low_bits) - 1);
                        const struct kind_exp *lk = &KIND_EXP[k->low_kind];
                        if (!element_zero(k->low_kind, low)) s->low_hist[(low >> lk->shift) & lk->mask]++;
                    }
                }
                if (!fl->scale) continue;
                if (!bad && scale_plausible(kind, v)) s->plausible++;
                if (!payload || bad) continue;
                uint32_t group = payload->count / fl->count;
                const uint8_t *values = page + payload->base + (uint64_t)t * payload->stride + (uint64_t)e * group;
                s->groups++;
                s->consistent += e4m3_reaches_224(values, group);
            }
        }
    }
}

#define FOR(c, ...) notes_add((c)->evidence_for, &(c)->nfor, KVC_MAX_EVIDENCE, __VA_ARGS__)
#define AGAINST(c, ...) notes_add((c)->evidence_against, &(c)->nagainst, KVC_MAX_EVIDENCE, __VA_ARGS__)

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* The largest share of `total` values whose exponents lie within `window`
 * neighbouring bins, and how many bins hold 2% or more. */
static double clustered_share(const uint64_t *hist, unsigned bins, unsigned window, uint64_t total, unsigned *spread)
{
    uint64_t best = 0, win = 0;
    *spread = 0;
    for (unsigned b = 0; b < bins; b++) {
        win += hist[b] - (b >= window ? hist[b - window] : 0);
        if (win > best) best = win;
        *spread += hist[b] * 50 >= total;
    }
    return total ? (double)best / (double)total : 0;
}

/* How well a value field's magnitudes look like model values. */
static double value_quality(const kvc_field *f, unsigned kind, const field_stats *s, kvc_candidate *c)
{
    const char *type = kvc_elem_name(f->elem);
    uint64_t nonzero = s->n - s->zero - s->bad;
    if (nonzero * 50 < s->n) {
        AGAINST(c, "%s %s: %llu of %llu values are zero: nothing to judge", type, f->name,
                (unsigned long long)(s->zero), (unsigned long long)s->n);
        return 0;
    }
    double bad = (double)s->bad / (double)s->n, valid = clamp01(1 - 20 * bad);
    if (s->bad)
        AGAINST(c, "%s %s: %llu of %llu values are NaN or Inf", type, f->name, (unsigned long long)s->bad,
                (unsigned long long)s->n);
    const struct kind_exp *k = &KIND_EXP[kind];
    unsigned spread;
    double conc = clustered_share(s->hist, k->bins, k->window, nonzero, &spread), base = (double)k->window / k->bins;
    double clustered = clamp01((conc - base) / (1 - base)), width = spread >= 3 ? 1 : 0.3;
    if (clustered >= 0.8 && spread >= 3)
        FOR(c, "%s %s: %.0f%% of magnitudes within %u neighbouring binades, spread over %u, as model values are",
            type, f->name, 100 * conc, k->window, spread);
    else if (clustered < 0.8)
        AGAINST(c, "%s %s: magnitudes spread over the exponents like random bytes (%.0f%% within %u binades)", type,
                f->name, 100 * conc, k->window);
    else
        AGAINST(c, "%s %s: nearly all magnitudes within %u binade%s: too narrow for model values", type, f->name,
                spread, spread == 1 ? "" : "s");
    double benford = 1;
    if (s->normal * 20 >= nonzero && s->normal >= 1000) {
        double clear = (double)s->top_clear / (double)s->normal;
        double model = top_clear_model(k->mantissa_bits);
        benford = clamp01((clear - TOP_CLEAR_WRONG) / (model - 0.01 - TOP_CLEAR_WRONG));
        if (benford < 0.5)
            AGAINST(c, "%s %s: the top mantissa bit is 0 in %.1f%% of values; model values give %.1f%% (the "
                       "exponent boundary is elsewhere?)",
                    type, f->name, 100 * clear, 100 * model);
    }
    double pairs = 1;
    if (k->low_bits) {
        const struct kind_exp *lk = &KIND_EXP[k->low_kind];
        uint64_t low_total = 0;
        for (unsigned b = 0; b < lk->bins; b++) low_total += s->low_hist[b];
        unsigned low_spread;
        double low = clustered_share(s->low_hist, lk->bins, lk->window, low_total, &low_spread);
        double low_base = (double)lk->window / lk->bins;
        if (low_total * 2 >= nonzero && clamp01((low - low_base) / (1 - low_base)) >= 0.8 && low_spread >= 3) {
            pairs = 0.5;
            AGAINST(c, "%s %s: the low %u bits of the values look like %s values too: pairs of narrower values?",
                    type, f->name, k->low_bits, kvc_elem_name(lk == &KIND_EXP[KVC_KIND_BF16] ? KVC_ELEM_BF16 : KVC_ELEM_E4M3));
        }
    }
    return valid * clustered * width * benford * pairs;
}

static double scale_quality(const kvc_field *f, const field_stats *s, kvc_candidate *c)
{
    const char *type = kvc_elem_name(f->elem);
    uint64_t good = s->n - s->bad - (f->elem == KVC_ELEM_F32 ? s->zero : 0);
    double valid = clamp01(1 - 10 * (1 - (double)good / (double)s->n));
    if (good == s->n)
        FOR(c, "%s %s: all %llu sampled scales are finite, positive and normal", type, f->name,
            (unsigned long long)s->n);
    else
        AGAINST(c, "%s %s: %llu of %llu sampled scales are negative, zero, denormal or not finite", type, f->name,
                (unsigned long long)(s->n - good), (unsigned long long)s->n);
    double plausible = good ? (double)s->plausible / (double)good : 0;
    if (good && plausible < 0.9)
        AGAINST(c, "%s %s: %.0f%% of the good scales are of an implausible size (outside 2^-40..2^20)", type, f->name,
                100 * (1 - plausible));
    double consistent = 1;
    if (s->groups) {
        consistent = (double)s->consistent / (double)s->groups;
        if (consistent >= 0.9)
            FOR(c, "%s %s: %.0f%% of the blocks they scale reach at least 224 of e4m3's 448, as amax/448 writes", type,
                f->name, 100 * consistent);
        else
            AGAINST(c, "%s %s: only %.0f%% of the blocks they scale reach 224 of e4m3's 448", type, f->name,
                    100 * consistent);
    }
    return valid * plausible * consistent;
}

/* Layers as detect reads them. */
typedef struct view {
    const uint8_t *data;
    uint64_t bytes;
    const layer_src *src; /* the file mapped, or NULL for memory */
} view;

/* Samples page `page` of a view; from a file's mapping under a guard. 0,
 * or -1 when the file shrank under it. */
static int sample(const kvc_layout *l, const view *v, uint64_t page, field_stats *st)
{
    if (!v->src || v->src->fd < 0) {
        sample_page(l, v->data + page * l->page_bytes, st);
        return 0;
    }
    map_guard g;
    if (sigsetjmp(g.jump, 1)) return -1;
    map_guard_arm(&g, v->data, v->bytes);
    sample_page(l, v->data + page * l->page_bytes, st);
    map_guard_disarm(&g);
    return 0;
}

/* Judges layout `l` into `c`; NULL, or the view whose file shrank. */
static const view *judge(const kvc_layout *l, const view *layers, size_t n, kvc_candidate *c)
{
    memset(c, 0, sizeof *c);
    str_copy(c->layout, sizeof c->layout, l->name);
    c->bytes_per_token = l->bytes_per_token;
    c->page_size = l->page_size;
    c->page_bytes = l->page_bytes;
    c->fits = 1;
    uint64_t whole = 0;
    for (size_t i = 0; i < n; i++) {
        whole += layers[i].bytes / l->page_bytes;
        if (layers[i].bytes % l->page_bytes && c->fits) {
            c->fits = 0; /* judged on the whole pages it holds: a decode buffer holds prefill's pages from its start */
            AGAINST(c, "%llu bytes are not a whole number of %llu-byte pages (%llu bytes left over)",
                    (unsigned long long)layers[i].bytes, (unsigned long long)l->page_bytes,
                    (unsigned long long)(layers[i].bytes % l->page_bytes));
        }
    }
    if (!whole) {
        AGAINST(c, "the input is smaller than one %llu-byte page", (unsigned long long)l->page_bytes);
        return NULL;
    }
    if (c->fits) FOR(c, "the input is a whole number of %llu-byte pages", (unsigned long long)l->page_bytes);
    field_stats *st = calloc(KVC_MAX_FIELDS, sizeof *st);
    if (!st) return NULL;
    /* at most DETECT_SAMPLE_PAGES of a layer and DETECT_SAMPLE_TOTAL in all:
     * with many layers (a .safetensors file of one tensor per layer), pages
     * of evenly spaced layers */
    uint64_t m = 0, r = 0;
    for (size_t i = 0; i < n; i++) m += layers[i].bytes >= l->page_bytes;
    const uint64_t picked = m < DETECT_SAMPLE_TOTAL ? m : DETECT_SAMPLE_TOTAL;
    const uint64_t per = DETECT_SAMPLE_TOTAL / picked < DETECT_SAMPLE_PAGES ? DETECT_SAMPLE_TOTAL / picked
                                                                             : DETECT_SAMPLE_PAGES;
    for (size_t i = 0; i < n; i++) {
        uint64_t pages = layers[i].bytes / l->page_bytes, k = pages < per ? pages : per;
        if (!pages) continue;
        uint64_t at = r++;
        if (at * picked / m == (at + 1) * picked / m) continue; /* not one of the layers picked */
        for (uint64_t j = 0; j < k; j++)
            if (sample(l, &layers[i], j * pages / k, st)) {
                free(st);
                return &layers[i];
            }
        c->pages_sampled += k;
    }
    double score = c->fits ? 1 : NOT_WHOLE_PAGES;
    for (unsigned f = 0; f < l->nfields; f++) {
        unsigned kind = field_kind(&l->fields[f]);
        if (kind == KVC_KIND_PAD || !st[f].n) continue;
        score *= l->fields[f].scale ? scale_quality(&l->fields[f], &st[f], c) : value_quality(&l->fields[f], kind, &st[f], c);
    }
    c->score = score;
    free(st);
    return NULL;
}

static int by_score(const void *a, const void *b)
{
    const kvc_candidate *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    return x->fits != y->fits ? (x->fits < y->fits ? 1 : -1) : 0;
}

static kvc_status detect(const view *layers, size_t n, const kvc_layout_params *params, kvc_detection *out,
                         kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) out->bytes += layers[i].bytes;
    const uint32_t sizes[] = {layout_default_params()->page_size, 1};
    for (size_t s = 0; s < 2; s++) { /* the page size given, else 64 (DSA), else 1 */
        kvc_layout_params p = *params;
        if (!params->page_size) p.page_size = sizes[s];
        out->ncandidates = 0;
        int any_fit = 0;
        for (unsigned i = 0; kvc_layout_catalogue(i) && out->ncandidates < KVC_MAX_CANDIDATES; i++) {
            kvc_layout l;
            /* a layout whose values cannot be judged would fit any bytes */
            if (layout_build(kvc_layout_catalogue(i), &p, &l, NULL) != KVC_OK || !layout_values_judged(&l)) continue;
            const view *shrank = judge(&l, layers, n, &out->candidates[out->ncandidates]);
            if (shrank) return source_changed(shrank->src->file, shrank->src->fd, diag);
            any_fit |= out->candidates[out->ncandidates++].fits;
        }
        if (any_fit || params->page_size) break;
    }
    qsort(out->candidates, out->ncandidates, sizeof *out->candidates, by_score);
    const kvc_candidate *best = &out->candidates[0];
    double second = out->ncandidates > 1 ? out->candidates[1].score : 0;
    out->pages_sampled = out->ncandidates ? best->pages_sampled : 0;
    if (out->ncandidates && best->score >= BEST_AT_LEAST) {
        str_copy(out->best, sizeof out->best, best->layout);
        out->confidence = clamp01(best->score - second);
    } else {
        str_copy(out->best, sizeof out->best, "unknown");
        out->confidence = out->ncandidates ? clamp01(1 - best->score) : 0;
    }
    return KVC_OK;
}

kvc_status detect_host(const void *data, size_t bytes, const kvc_layout_params *params, kvc_detection *out,
                       kvc_diag *diag)
{
    RETURN_ERROR_IF(!data || !bytes, diag, KVC_ERR_USAGE, NULL, "kvc_detect_host needs some bytes");
    view v = {data, bytes, NULL};
    return detect(&v, 1, params, out, diag);
}

kvc_status detect_inputs(const scan_inputs *in, const kvc_layout_params *params, kvc_detection *out, kvc_diag *diag)
{
    view *v = calloc(in->nlayers ? in->nlayers : 1, sizeof *v);
    RETURN_ERROR_IF(!v, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < in->nlayers; i++) v[i] = (view){in->layers[i].data, in->layers[i].bytes, &in->layers[i]};
    kvc_status st = detect(v, in->nlayers, params, out, diag);
    free(v);
    return st;
}

/* A detection to fill, handed over on success. */
static kvc_status handed_over(kvc_status st, kvc_detection *d, kvc_detection **out)
{
    if (st) {
        free(d);
        return st;
    }
    *out = d;
    return KVC_OK;
}

kvc_status kvc_detect_host(const void *data, size_t bytes, const kvc_layout_params *params, kvc_detection **out,
                           kvc_diag *diag)
{
    *out = NULL;
    kvc_detection *d = malloc(sizeof *d);
    RETURN_ERROR_IF(!d, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    return handed_over(detect_host(data, bytes, params, d, diag), d, out);
}

kvc_status kvc_detect_files(const char *const *paths, size_t npaths, const kvc_layout_params *params,
                            const kvc_scan_options *options, kvc_detection **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_scan_options defaults;
    if (!options) kvc_scan_options_init(&defaults), options = &defaults;
    kvc_detection *d = malloc(sizeof *d);
    RETURN_ERROR_IF(!d, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    scan_inputs in;
    kvc_status st = inputs_open(paths, npaths, NULL, options, &in, diag);
    if (st) return handed_over(st, d, out);
    st = detect_inputs(&in, params, d, diag);
    inputs_close(&in);
    return handed_over(st, d, out);
}

void kvc_detection_free(kvc_detection *d) { free(d); }
const char *kvc_detection_best(const kvc_detection *d) { return d->best; }
double kvc_detection_confidence(const kvc_detection *d) { return d->confidence; }
uint64_t kvc_detection_bytes(const kvc_detection *d) { return d->bytes; }
uint64_t kvc_detection_pages_sampled(const kvc_detection *d) { return d->pages_sampled; }
unsigned kvc_detection_candidate_count(const kvc_detection *d) { return d->ncandidates; }
const kvc_candidate *kvc_detection_candidate(const kvc_detection *d, unsigned i)
{
    return i < d->ncandidates ? &d->candidates[i] : NULL;
}
