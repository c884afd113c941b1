/* kvcheck simulate: what decode reads after the transfer, before any model
 * weights are loaded. Prefill's pages are written from deterministic latent
 * values the way prefill's backend writes them, moved the way Mooncake moves
 * them (SGLANG_RULES.md §6: source and destination offsets both from
 * prefill's item length), scanned in decode's layout, and read back value by
 * value the way decode's backend dequantises them. The per-token arithmetic
 * lives in kernels/kvc_simulate.h. */
#include "simulate/simulate.h"
#include "kvc_simulate.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS (1ull << 22)

void kvc_simulate_options_init(kvc_simulate_options *o)
{
    memset(o, 0, sizeof *o);
    o->tokens = 4096;
    o->seed = 1;
    o->device = KVC_DEVICE_AUTO;
}

void kvc_simulation_free(kvc_simulation *s)
{
    if (!s) return;
    kvc_scan_report_free(s->scan);
    free(s);
}

/* The writer/reader description of a resolved layout; SGLang writes bf16,
 * raw FP8 and FlashMLA's scaled FP8, and those are what simulate models. */
static kvc_status sim_layout(const kvc_resolved *r, const char *side, kvc_sim_layout *out, kvc_diag *diag)
{
    const kvc_layout *l = &r->kv;
    const kvc_field *nope = kvc_layout_field(l, "nope"), *rope = kvc_layout_field(l, "rope"), *scale = kvc_layout_field(l, "scale");
    int known = strcmp(l->name, "bf16") == 0 || strcmp(l->name, "fp8_raw") == 0 || strcmp(l->name, "fp8_flashmla") == 0;
    kvc_origin o;
    origin_set(&o, "", 0, 0, side);
    RETURN_ERROR_IF(!known || !nope, diag, KVC_ERR_CONFIG, &o,
                    "simulate writes and reads SGLang's MLA layouts bf16, fp8_raw and fp8_flashmla; the %s worker "
                    "resolves to %s",
                    side, l->name);
    memset(out, 0, sizeof *out);
    out->page_bytes = l->page_bytes;
    out->page_size = l->page_size;
    out->nope = nope->count;
    out->nope_elem = nope->elem;
    out->nope_base = nope->base;
    out->nope_stride = nope->stride;
    if (rope) {
        out->rope = rope->count;
        out->rope_elem = rope->elem;
        out->rope_base = rope->base;
        out->rope_stride = rope->stride;
    }
    if (scale) {
        out->scaled = 1;
        out->scale_base = scale->base;
        out->scale_stride = scale->stride;
    }
    return KVC_OK;
}

/* Moves prefill's pages into decode's buffer as Mooncake does: page p goes
 * from p x prefill_item_len to p x prefill_item_len, so the pages land back
 * to back, as far as decode's buffer reaches. Returns the bytes to copy. */
static uint64_t transfer_plan(kvc_simulation *s, uint64_t src_item, uint64_t dst_bytes)
{
    uint64_t want = s->prefill_pages * src_item, copied = want < dst_bytes ? want : dst_bytes;
    s->bytes_copied = copied;
    s->overrun_bytes = want - copied;
    s->unwritten_bytes = dst_bytes - copied;
    return copied;
}

/* ------------------------------------------------------------ on the CPU */

typedef struct cpu_sim {
    const kvc_sim_layout *pl, *dl;
    uint8_t *pbuf;
    const uint8_t *dbuf;
    uint64_t seed, tokens, next;
    kvc_sim_token *stats;
    int compare; /* 0: write prefill's pages; 1: compare the read-backs */
    pthread_mutex_t lock;
} cpu_sim;

#define SIM_CHUNK 1024 /* tokens a thread takes at a time */

static void *cpu_sim_run(void *arg)
{
    cpu_sim *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        uint64_t first = c->next;
        c->next += SIM_CHUNK;
        pthread_mutex_unlock(&c->lock);
        if (first >= c->tokens) return NULL;
        uint64_t last = first + SIM_CHUNK < c->tokens ? first + SIM_CHUNK : c->tokens;
        for (uint64_t t = first; t < last; t++) {
            if (c->compare) kvc_sim_compare_token(c->pl, c->pbuf, c->dl, c->dbuf, c->seed, t, &c->stats[t]);
            else kvc_sim_write_token(c->pl, c->pbuf + t / c->pl->page_size * c->pl->page_bytes,
                                     (uint32_t)(t % c->pl->page_size), c->seed, t);
        }
    }
}

static void cpu_sim_pass(cpu_sim *c, int compare, unsigned threads)
{
    pthread_t tid[16];
    unsigned started = 0;
    c->compare = compare;
    c->next = 0;
    for (unsigned i = 1; i < threads && i < 16; i++)
        if (pthread_create(&tid[started], NULL, cpu_sim_run, c) == 0) started++;
    cpu_sim_run(c);
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
}

/* Writes, moves and reads back on the CPU; decode's buffer stays for the scan. */
static kvc_status simulate_cpu(kvc_simulation *s, const kvc_sim_layout *pl, const kvc_sim_layout *dl,
                               kvc_sim_token *stats, uint8_t **dbuf_out, kvc_diag *diag)
{
    uint64_t pbytes = s->prefill_pages * pl->page_bytes, dbytes = s->decode_pages * dl->page_bytes;
    uint8_t *pbuf = calloc(1, pbytes), *dbuf = calloc(1, dbytes); /* decode's pool starts zeroed */
    if (!pbuf || !dbuf) {
        free(pbuf);
        free(dbuf);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for %llu + %llu bytes of pages",
                        (unsigned long long)pbytes, (unsigned long long)dbytes);
    }
    cpu_sim c = {pl, dl, pbuf, dbuf, s->seed, s->tokens, 0, stats, 0, PTHREAD_MUTEX_INITIALIZER};
    unsigned threads = cpu_threads(0);
    cpu_sim_pass(&c, 0, threads);
    memcpy(dbuf, pbuf, transfer_plan(s, pl->page_bytes, dbytes));
    cpu_sim_pass(&c, 1, threads);
    free(pbuf);
    *dbuf_out = dbuf;
    return KVC_OK;
}

/* --------------------------------------------------------------- results */

/* Sums the per-token results in token order: the same on every device. */
static void reduce(kvc_simulation *s, const kvc_sim_token *stats, const kvc_sim_layout *pl, const kvc_sim_layout *dl)
{
    uint32_t nope = pl->nope < dl->nope ? pl->nope : dl->nope, rope = pl->rope < dl->rope ? pl->rope : dl->rope;
    double sum[2] = {0, 0}, w_sum[2] = {0, 0};
    uint64_t last_page = UINT64_MAX;
    for (uint64_t t = 0; t < s->tokens; t++) {
        const kvc_sim_token *x = &stats[t];
        for (int p = 0; p < 2; p++) {
            sum[p] += x->sum[p], w_sum[p] += x->w_sum[p];
            if (x->max[p] > s->decoded[p].max_abs_error) s->decoded[p].max_abs_error = x->max[p];
            if (x->w_max[p] > s->written[p].max_abs_error) s->written[p].max_abs_error = x->w_max[p];
            s->decoded[p].nonfinite += x->nonfinite[p];
            s->written[p].nonfinite += x->w_nonfinite[p];
        }
        s->zero_blocks += x->zero_blocks;
        s->values_differ += x->differ;
        if (x->differ && t / dl->page_size != last_page) s->garbled_pages++, last_page = t / dl->page_size;
    }
    for (int p = 0; p < 2; p++) {
        s->decoded[p].values = s->written[p].values = s->tokens * (p ? rope : nope);
        uint64_t df = s->decoded[p].values - s->decoded[p].nonfinite, wf = s->written[p].values - s->written[p].nonfinite;
        s->decoded[p].mean_abs_error = df ? sum[p] / (double)df : 0;
        s->written[p].mean_abs_error = wf ? w_sum[p] / (double)wf : 0;
    }
}

kvc_status kvc_simulate(const kvc_worker *prefill, const kvc_worker *decode, const kvc_simulate_options *options,
                        kvc_simulation **out, kvc_diag *diag)
{
    *out = NULL;
    double t0 = clock_seconds();
    kvc_simulate_options defaults;
    if (!options) kvc_simulate_options_init(&defaults), options = &defaults;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--tokens");
    RETURN_ERROR_IF(options->tokens < 1 || options->tokens > MAX_TOKENS, diag, KVC_ERR_USAGE, &o,
                    "--tokens takes 1 to %llu tokens, not %llu", MAX_TOKENS, (unsigned long long)options->tokens);
    kvc_simulation *s = calloc(1, sizeof *s);
    RETURN_ERROR_IF(!s, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = worker_pair_check(prefill, decode, diag);
    if (!st) st = worker_resolve_selected(prefill, &s->prefill, diag);
    if (!st) st = worker_resolve_selected(decode, &s->decode, diag);
    kvc_sim_layout pl, dl;
    if (!st) st = sim_layout(&s->prefill, "prefill", &pl, diag);
    if (!st) st = sim_layout(&s->decode, "decode", &dl, diag);
    if (st) {
        kvc_simulation_free(s);
        return st;
    }
    s->tokens = options->tokens;
    s->seed = options->seed;
    s->prefill_pages = (s->tokens + pl.page_size - 1) / pl.page_size;
    s->decode_pages = (s->tokens + dl.page_size - 1) / dl.page_size;
    uint64_t dbytes = s->decode_pages * dl.page_bytes;
    kvc_sim_token *stats = malloc(s->tokens * sizeof *stats);
    if (!stats) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for %llu tokens", (unsigned long long)s->tokens);

    /* the GPU when asked for or usable, else the CPU */
    gpu_ctx *g = NULL;
    char why_not[KVC_NOTE_LEN - 64];
    if (!st) st = gpu_choose(options->device, 0, NULL, 0, &g, why_not, sizeof why_not, diag);
    if (!st && why_not[0])
        notes_add(s->notes, &s->nnotes, KVC_MAX_NOTES, "no usable GPU (%s): simulated on the CPU", why_not);
    uint8_t *dbuf = NULL;
    uint64_t ddev = 0;
    kvc_scan_options so;
    kvc_scan_options_init(&so);
    so.layout_source = "decode's layout";
    so.device = g ? KVC_DEVICE_GPU : KVC_DEVICE_CPU;
    if (!st && g) {
        st = gpu_simulate(g, &pl, &dl, s->seed, s->tokens, s->prefill_pages * pl.page_bytes, dbytes, stats, &ddev, diag);
        if (!st) transfer_plan(s, pl.page_bytes, dbytes);
        if (!st) st = kvc_scan_device(ddev, dbytes, &s->decode.kv, &so, &s->scan, diag);
        if (ddev) gpu_free(g, ddev);
        str_copy(s->device, sizeof s->device, "cuda");
    } else if (!st) {
        st = simulate_cpu(s, &pl, &dl, stats, &dbuf, diag);
        if (!st) st = kvc_scan_host(dbuf, dbytes, &s->decode.kv, &so, &s->scan, diag);
        str_copy(s->device, sizeof s->device, "cpu");
    }
    gpu_close(g);
    if (!st) reduce(s, stats, &pl, &dl);
    free(stats);
    free(dbuf);
    if (!st) {
        uint32_t nope = pl.nope < dl.nope ? pl.nope : dl.nope, rope = pl.rope < dl.rope ? pl.rope : dl.rope;
        s->compatible = s->values_differ == 0 && s->overrun_bytes == 0;
        if (s->zero_blocks && pl.scaled)
            notes_add(s->notes, &s->nnotes, KVC_MAX_NOTES,
                      "%llu all-zero 128-value NoPE block%s: prefill's amax/448 writer gives them scale 0 and payload "
                      "0/0 = NaN (no epsilon), whatever decode's layout; that is SGLang's writer, not the transfer",
                      (unsigned long long)s->zero_blocks, s->zero_blocks == 1 ? "" : "s");
        if (pl.nope != dl.nope || pl.rope != dl.rope)
            notes_add(s->notes, &s->nnotes, KVC_MAX_NOTES,
                      "the two layouts hold different numbers of values; compared the %u NoPE and %u RoPE values both "
                      "hold",
                      nope, rope);
        s->seconds = clock_seconds() - t0;
    }
    if (st) {
        kvc_simulation_free(s);
        return st;
    }
    *out = s;
    return KVC_OK;
}

int kvc_simulation_compatible(const kvc_simulation *s) { return s->compatible; }
const kvc_resolved *kvc_simulation_side(const kvc_simulation *s, kvc_side side)
{
    return side == KVC_SIDE_DECODE ? &s->decode : &s->prefill;
}
const kvc_scan_report *kvc_simulation_scan(const kvc_simulation *s) { return s->scan; }
const kvc_readback *kvc_simulation_decoded(const kvc_simulation *s, unsigned part)
{
    return part < 2 ? &s->decoded[part] : NULL;
}
const kvc_readback *kvc_simulation_written(const kvc_simulation *s, unsigned part)
{
    return part < 2 ? &s->written[part] : NULL;
}
