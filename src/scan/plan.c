/* The scan plan both scanners start from (a layout's judged fields in byte
 * order and the scale policies), one page judged on the CPU (a word-wide
 * filter over clean data, then an element count of what it flags, from the
 * predicate header the GPU scanner includes too), and the findings pass
 * (always on the host). */
#include "scan/scan.h"
#include "kvc_digest.h"
#include "kvc_simulate.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


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
        out->rules.lo_bits = kvc_bits_of((float)o->scale_min);
        out->rules.hi_bits = kvc_bits_of((float)o->scale_max);
    }
    out->rules.pow2 = o->scale_pow2 != 0;
    const uint64_t share = l->page_size ? l->page_bytes / l->page_size : 0;
    if (share && l->page_bytes % l->page_size == 0 && share % 8 == 0 && l->page_bytes % 16 == 0)
        out->digest_share = (uint32_t)share;
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
 * filter results into its own accumulator, masked once per page. With
 * `sum`, each token's share of the page is added to the digest's sum right
 * after the filter read it (plan->digest_share; complete when this returns
 * 0). Built for AVX2 too, chosen at run time. */
__attribute__((target_clones("avx2", "default"))) static int page_damaged(const scan_plan *plan, const uint8_t *page,
                                                                          uint64_t *sum)
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
        if (sum) *sum += digest_sum(page + t * share, share / 8, t * share / 8);
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

uint32_t scan_page(const scan_plan *plan, const uint8_t *page, uint64_t counts[KVC_CHECK_COUNT], uint64_t *digest)
{
    uint64_t sum = 0;
    const int fused = digest && plan->digest_share;
    if (!page_damaged(plan, page, fused ? &sum : NULL)) {
        if (digest) *digest = fused ? kvc_digest_final(sum, plan->layout.page_bytes) : page_digest(page, plan->layout.page_bytes);
        return 0;
    }
    if (digest) *digest = page_digest(page, plan->layout.page_bytes); /* the filter stopped early, or not */
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
