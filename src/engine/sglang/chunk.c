/* SGLang's chunked prefill size, release by release: the default it takes
 * from the GPU's memory when --chunked-prefill-size is not given, what
 * turns chunking off, the division by the attention data parallel size,
 * and the last check of the server arguments, that a prefill-capable
 * worker's size is a multiple of the page size. The size never changes the
 * KV layout; it decides whether SGLang starts the worker. Where the GPU's
 * name leaves its memory open (an A100 has 40 or 80 GB, sm_90 says
 * nothing), every size SGLang could take is judged, and the worker is
 * judged only when they agree. rules.c calls chunk_check in
 * check_server_args' place, with the page size settled (rules.h); the
 * all-to-all handler's budgets read the same sizes (chunk_fit). */
#include "engine/sglang/rules.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SGLang's default by GPU memory (MiB, as get_device_memory_capacity reports it: the least of the host's GPUs'
 * nvidia-smi memory.total or rocminfo pool size), the first row below which the memory lies; the tiers are the
 * same on CUDA and ROCm. 0.5.20 raised 20-35 GiB (the RTX 5090's 32 GB) from 2048 to 4096. */
static const struct chunk_tier {
    span when;
    unsigned below_mib; /* UINT_MAX: any memory */
    unsigned size;
} CHUNK_TIERS[] = {
    {SINCE("0.5.3rc2"), 20 * 1024, 2048},  {UNTIL("0.5.19"), 35 * 1024, 2048}, {SINCE("0.5.20"), 35 * 1024, 4096},
    {SINCE("0.5.3rc2"), 60 * 1024, 4096},  {SINCE("0.5.3rc2"), 160 * 1024, 8192},
    {SINCE("0.5.3rc2"), UINT_MAX, 16384},
};
static const char TIER_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:566-627; 0.5.23: "
                                "python/sglang/srt/arg_groups/memory_hook.py:90-177";
/* Glm5NextForConditionalGeneration with a prefill CUDA graph explicitly breakable takes 4096 before the memory
 * tiers, on CUDA (sglang 0.5.20: python/sglang/srt/arg_groups/cuda_graph_hook.py:404-419; 0.5.21: :412-427). */
static const span GLM5NEXT_BREAKABLE = FROM_TO("0.5.20", "0.5.21");
static const unsigned GLM5NEXT_SIZE = 4096;
static const span PDMUX_CHUNK = SINCE("0.5.3.post2");
static const char PDMUX_CITE[] = "sglang 0.5.3.post2: python/sglang/srt/server_args.py:3165-3178; 0.5.23: "
                                 "python/sglang/srt/arg_groups/validation_hook.py:248-261";
static const char DIVIDE_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:956-960; 0.5.23: "
                                  "python/sglang/srt/arg_groups/parallel_hook.py:314-335";
static const char CHECK_MESSAGE[] = "AssertionError: chunked_prefill_size must be divisible by page_size";
static const char CHECK_CITE[] = "sglang 0.5.3rc2: python/sglang/srt/server_args.py:2939-2942; 0.5.23: "
                                 "python/sglang/srt/arg_groups/validation_hook.py:243-246";

/* ------------------------------------------------ decimal arithmetic */

/* SGLang reads the flag as a Python int, of any length; the setting keeps it in decimal. */
enum { DEC_LEN = SETTING_VALUE_LEN };

/* `dec` (decimal digits, no sign) // d into `q` (no leading zeros; "0"). Pure. */
static void dec_div(const char *dec, unsigned long d, char *q)
{
    unsigned long long rem = 0;
    size_t n = 0;
    for (const char *p = dec; *p; p++) {
        rem = rem * 10 + (unsigned)(*p - '0');
        if (n || rem / d) q[n++] = (char)('0' + rem / d);
        rem %= d;
    }
    if (!n) q[n++] = '0';
    q[n] = '\0';
}

/* `dec` * m into `out` (room for strlen(dec) + 21). Pure. */
static void dec_mul(const char *dec, unsigned long m, char *out)
{
    size_t n = strlen(dec), k = n + 20;
    unsigned long long carry = 0;
    out[k + 1] = '\0';
    for (size_t i = n; i-- > 0; k--) {
        carry += (unsigned long long)(dec[i] - '0') * m;
        out[k] = (char)('0' + carry % 10);
        carry /= 10;
    }
    for (; carry; carry /= 10) out[k--] = (char)('0' + carry % 10);
    size_t start = k + 1;
    while (out[start] == '0' && out[start + 1]) start++;
    memmove(out, out + start, strlen(out + start) + 1);
}

/* `dec` % m. Pure. */
static unsigned long dec_mod(const char *dec, unsigned long m)
{
    unsigned long long rem = 0;
    for (const char *p = dec; *p; p++) rem = (rem * 10 + (unsigned)(*p - '0')) % m;
    return (unsigned long)rem;
}

/* ------------------------------------------------------- the sizes */

/* One size SGLang could take: before the division (`given`, decimal with a sign) and after it (`seen`, digits;
 * "" when chunking is off), and where it comes from. */
typedef struct chunk_size {
    char given[DEC_LEN];
    char seen[DEC_LEN];
    const struct chunk_tier *tier; /* the memory tier that gave it; NULL: not a default */
    int refused;                   /* the page check refuses it */
} chunk_size;

/* The tiers of release `rel` a GPU of `lo`-`hi` MiB may fall in, their sizes distinct, into `out`; how many. */
static size_t tier_sizes(unsigned rel, unsigned lo, unsigned hi, chunk_size *out, size_t max)
{
    size_t n = 0;
    unsigned floor = 0;
    for (size_t i = 0; i < COUNT_OF(CHUNK_TIERS) && n < max; i++) {
        const struct chunk_tier *t = &CHUNK_TIERS[i];
        if (!in_span(rel, t->when)) continue;
        int overlaps = hi >= floor && lo < t->below_mib;
        floor = t->below_mib;
        if (!overlaps || (n && out[n - 1].tier->size == t->size)) continue;
        snprintf(out[n].given, sizeof out[n].given, "%u", t->size);
        out[n++].tier = t;
    }
    return n;
}

/* 1 when SGLang's Glm5Next default may apply: the prefill CUDA graph given as breakable, or a --cuda-graph-config
 * whose JSON kvcheck does not read (*open). Pure. */
static int glm5next_breakable(const ctx *c, int *open)
{
    const settings *set = c->set;
    *open = 0;
    if (!in_span(c->rel, GLM5NEXT_BREAKABLE) || c->gpu->hip ||
        strcmp(c->model->architecture, "Glm5NextForConditionalGeneration") != 0)
        return 0;
    *open = set->s[SET_CUDA_GRAPH_CONFIG].set;
    return *open || set_to(c, SET_CG_PREFILL_BACKEND, "breakable");
}

/* Every size SGLang could take for this worker, into `out` (at most COUNT_OF(CHUNK_TIERS) + 1); how many. */
static size_t chunk_sizes(const ctx *c, chunk_size *out, unsigned long adp, unsigned long page)
{
    const setting *given = &c->set->s[SET_CHUNKED_PREFILL];
    size_t n = 0, max = COUNT_OF(CHUNK_TIERS) + 1;
    memset(out, 0, max * sizeof *out);
    int open = 0;
    if (given->set) {
        snprintf(out[n++].given, DEC_LEN, "%s", given->value);
    } else if (glm5next_breakable(c, &open) && !open) {
        snprintf(out[n++].given, DEC_LEN, "%u", GLM5NEXT_SIZE);
    } else {
        n = tier_sizes(c->rel, c->gpu->mem_lo_mib, c->gpu->mem_hi_mib, out, max - 1);
        if (open) snprintf(out[n++].given, DEC_LEN, "%u", GLM5NEXT_SIZE);
    }
    int decode = set_to(c, SET_DISAGG_MODE, "decode");
    for (size_t i = 0; i < n; i++) {
        chunk_size *s = &out[i];
        /* a size of 0 or below turns chunking off, and stays so divided (Python's -1 // d is -1) */
        if (s->given[0] == '-' || strcmp(s->given, "0") == 0) continue;
        dec_div(s->given, adp, s->seen);
        if (strcmp(s->seen, "0") == 0) s->seen[0] = '\0';
        s->refused = s->seen[0] && !decode && page > 1 && dec_mod(s->seen, page) != 0;
    }
    return n;
}

/* 1 when the size after the division is exactly -1, which PD multiplexing asks for: a given size from -1 down to
 * -adp (Python's floor division). Pure. */
static int minus_one(const ctx *c, unsigned long adp)
{
    const setting *given = &c->set->s[SET_CHUNKED_PREFILL];
    if (!given->set || given->value[0] != '-' || strlen(given->value) > 12) return 0;
    unsigned long long v = strtoull(given->value + 1, NULL, 10);
    return v >= 1 && v <= adp;
}

/* "8192", "8192 or 16384": each size's `seen` (or "off"), or its `given` when `before`. */
static void list_sizes(const chunk_size *s, size_t n, int before, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *v = before ? s[i].given : s[i].seen[0] ? s[i].seen : "off";
        size_t k = strlen(out);
        snprintf(out + k, size - k, "%s%.40s", i ? (i + 1 == n ? " or " : ", ") : "", v);
    }
}

/* How the GPU's memory is known: "H200: 143771 MiB", "A100: 40960 to 81920 MiB", "sm_90: not known". */
static void memory_text(const gpu_info *g, char *out, size_t size)
{
    if (g->mem_hi_mib == UINT_MAX) snprintf(out, size, "%s names no product, so its memory is not known", g->name);
    else if (g->mem_lo_mib == g->mem_hi_mib) snprintf(out, size, "%s: %u MiB", g->name, g->mem_lo_mib);
    else snprintf(out, size, "%s: %u to %u MiB", g->name, g->mem_lo_mib, g->mem_hi_mib);
}

/* Where the sizes come from, for the row and the messages: "8192, SGLang's default for the GPU's memory (...),
 * divided by the attention data parallel size 3 (...)". */
static void describe(const ctx *c, const chunk_size *s, size_t n, unsigned long adp, char *out, size_t size)
{
    char list[200], mem[120];
    list_sizes(s, n, 1, list, sizeof list);
    size_t k;
    if (c->set->s[SET_CHUNKED_PREFILL].set) {
        k = (size_t)snprintf(out, size, "%s, set by %s", list, c->set->s[SET_CHUNKED_PREFILL].flag);
    } else if (!s[0].tier) {
        k = (size_t)snprintf(out, size, "%s, SGLang's default for Glm5NextForConditionalGeneration with a breakable "
                                        "prefill CUDA graph (sglang 0.5.20: python/sglang/srt/arg_groups/"
                                        "cuda_graph_hook.py:404-419)", list);
    } else {
        memory_text(c->gpu, mem, sizeof mem);
        k = (size_t)snprintf(out, size, "%s, SGLang's default for the GPU's memory (%s; %s)%s", list, mem, TIER_CITE,
                             s[n - 1].tier ? "" : " or for Glm5NextForConditionalGeneration with a breakable prefill "
                                                  "CUDA graph, which --cuda-graph-config may ask for");
    }
    if (adp > 1 && k < size) snprintf(out + k, size - k, ", divided by the attention data parallel size %lu (%s)", adp,
                                      DIVIDE_CITE);
}

/* The flag to blame: the size's, else the attention DP size's, else the page size's. */
static const setting *blame(const ctx *c, unsigned long adp)
{
    const settings *set = c->set;
    if (set->s[SET_CHUNKED_PREFILL].set) return &set->s[SET_CHUNKED_PREFILL];
    if (adp > 1) return settings_attn_dp_flag(set);
    return set->s[SET_PAGE_SIZE].set ? &set->s[SET_PAGE_SIZE] : NULL;
}

kvc_status chunk_check(const ctx *c, kvc_setting *row, unsigned long page, int page_known, int page_one_too)
{
    const setting *given = &c->set->s[SET_CHUNKED_PREFILL];
    if (given->reported || c->set->s[SET_PAGE_SIZE].reported) {
        if (given->reported)
            setting_set(row, given->value, "reported by the server: SGLang's resolved value, after the attention DP "
                        "division; its checks passed");
        return KVC_OK;
    }
    unsigned long adp = rules_attention_dp(c);
    if (adp == 0) adp = 1;
    chunk_size s[COUNT_OF(CHUNK_TIERS) + 1];
    size_t n = chunk_sizes(c, s, adp, page_known ? page : 1), refused = 0;
    for (size_t i = 0; i < n; i++) refused += (size_t)s[i].refused;
    char why[KVC_REASON_LEN], list[200];
    describe(c, s, n, adp, why, sizeof why);
    list_sizes(s, n, 0, list, sizeof list);
    const char *rel = SGLANG_VERSIONS[c->rel];
    const setting *b = blame(c, adp);
    int decode = set_to(c, SET_DISAGG_MODE, "decode");
    /* a page kvcheck does not derive: judged where neither a given --page-size nor a backend's (a power of two up
     * to 256) refuses */
    if (!page_known) {
        unsigned long flag_page = settings_size(c->set, SET_PAGE_SIZE), lcm = 256;
        if (flag_page == 0 || flag_page > 65536) flag_page = 1; /* refused before (resolve_page_size) */
        while (lcm % flag_page) lcm += 256;
        int open = 0;
        for (size_t i = 0; i < n; i++) open |= s[i].seen[0] && !decode && dec_mod(s[i].seen, lcm) != 0;
        if (open)
            return diag_set(c->diag, KVC_ERR_CONFIG, b ? &b->origin : NULL, "chunked prefill size %s (%s): SGLang %s "
                            "refuses a size that is not a multiple of the page size on a prefill-capable worker (%s), "
                            "and kvcheck does not model this architecture's page size (SGLang serves it with its MHA "
                            "defaults), so it cannot judge this worker", list, why, rel, CHECK_CITE);
    }
    if (refused && page_one_too)
        return diag_set(c->diag, KVC_ERR_CONFIG, b ? &b->origin : NULL, "chunked prefill size %s (%s): SGLang %s "
                        "refuses it with pages of %lu tokens (%s), which ROCm takes with aiter's preshuffle "
                        "paged-MQA path, and passes it with the page of 1 token it takes without; kvcheck does not "
                        "model which this host takes, so it cannot judge this worker", list, why, rel, page,
                        CHECK_MESSAGE);
    if (refused && refused < n)
        return diag_set(c->diag, KVC_ERR_CONFIG, b ? &b->origin : NULL, "chunked prefill size %s (%s): SGLang %s "
                        "refuses some of them, a size that is not a multiple of the page size %lu (%s: %s), and "
                        "kvcheck does not model which of them SGLang takes (the GPU's memory, or a --cuda-graph-config "
                        "it does not read), so it cannot judge this worker: give --chunked-prefill-size, or the GPU's "
                        "name with its memory (\"A100 80GB\")",
                        list, why, rel, page, CHECK_MESSAGE, CHECK_CITE);
    if (refused) {
        unsigned long unit = page * adp;
        /* the multiple of the unit at or below the size given, else (none, or too long to read) the unit itself */
        char times[DEC_LEN], fix[DEC_LEN + 24];
        dec_div(s[0].given, unit, times);
        dec_mul(strcmp(times, "0") == 0 || strlen(times) > 40 ? "1" : times, unit, fix);
        return rules_refuse(c, b, "%s (%s): the chunked prefill size is %s (%s), and the page size %lu; give "
                            "--chunked-prefill-size a multiple of %lu (%lu x %lu), such as %s", CHECK_MESSAGE,
                            CHECK_CITE, list, why, page, unit, page, adp, fix);
    }
    /* then PD multiplexing's asserts: no pipeline parallelism, chunking off (-1 after the division), then PD mode
     * and the overlap schedule, which SGLang's handlers may turn off and kvcheck does not follow (sglang 0.5.3.post2:
     * python/sglang/srt/server_args.py:3165-3178; 0.5.23: python/sglang/srt/arg_groups/validation_hook.py:248-261) */
    const setting *pdmux = &c->set->s[SET_PDMUX];
    if (pdmux->set && in_span(c->rel, PDMUX_CHUNK)) {
        if (settings_size(c->set, SET_PP) != 1)
            return rules_refuse(c, pdmux, "AssertionError: PD-Multiplexing is only supported with pipeline "
                                "parallelism disabled (pp_size=1). (%s)", PDMUX_CITE);
        if (!minus_one(c, adp))
            return rules_refuse(c, pdmux, "AssertionError: PD-Multiplexing is not compatible with chunked prefill. "
                                "(%s): give --chunked-prefill-size -1", PDMUX_CITE);
        return diag_set(c->diag, KVC_ERR_CONFIG, &pdmux->origin, "%s: SGLang %s then checks the PD mode and the "
                        "overlap schedule, which its handlers may turn off (%s); kvcheck does not model it, so it "
                        "cannot judge this worker", pdmux->flag, rel, PDMUX_CITE);
    }
    if (given->set || adp > 1) {
        setting_origin(row, given->set ? &given->origin : NULL);
        setting_set(row, list, "%s%s", why,
                    decode ? "; a decode worker: SGLang checks it against the page size only on prefill-capable "
                             "workers"
                           : "");
    }
    return KVC_OK;
}

enum chunk_fit chunk_fit(const ctx *c, const char *limit, char *sizes, size_t size)
{
    unsigned long adp = rules_attention_dp(c);
    if (adp == 0) adp = 1;
    chunk_size s[COUNT_OF(CHUNK_TIERS) + 1];
    size_t n = chunk_sizes(c, s, adp, 1), over = 0;
    for (size_t i = 0; i < n; i++) over += (size_t)(s[i].seen[0] && dec_cmp(s[i].seen, limit) > 0);
    if (sizes && size) {
        char list[200], why[KVC_REASON_LEN];
        list_sizes(s, n, 0, list, sizeof list);
        describe(c, s, n, adp, why, sizeof why);
        snprintf(sizes, size, "%s (%s)", list, why);
    }
    return over == 0 ? CHUNK_WITHIN : over == n ? CHUNK_OVER : CHUNK_EITHER;
}

int chunk_minus_one(const ctx *c)
{
    unsigned long adp = rules_attention_dp(c);
    return minus_one(c, adp ? adp : 1);
}

int chunk_on(const ctx *c)
{
    enum chunk_fit fit = chunk_fit(c, "0", NULL, 0);
    return fit == CHUNK_WITHIN ? 0 : fit == CHUNK_OVER ? 1 : -1;
}

size_t chunk_spans(span *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < COUNT_OF(CHUNK_TIERS); i++, n++)
        if (n < max) out[n] = CHUNK_TIERS[i].when;
    const span own[] = {GLM5NEXT_BREAKABLE, PDMUX_CHUNK};
    for (size_t i = 0; i < COUNT_OF(own); i++, n++)
        if (n < max) out[n] = own[i];
    return n;
}
