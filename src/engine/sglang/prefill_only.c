/* --prefill-only-disable-kv-cache (0.5.12+): a prefill-only worker whose
 * KV pool is a no-op. SGLang checks it twice while it resolves the server
 * arguments: its flags right after the PD hook, before the model's own
 * adjustments (so the KV dtype, chunked prefill size and CP flags as given,
 * the radix cache as the PD hook leaves it), and its prefill attention
 * backend once the attention backends are settled, which must be fa3 or
 * fa4. A worker that passes both runs no KV cache at all, which kvcheck
 * does not model. */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

static int on(const ctx *c) { return c->set->s[SET_PREFILL_ONLY_NO_KV].set; }
static int p_embedding(const ctx *c) { return on(c) && !c->set->s[SET_IS_EMBEDDING].set; }
/* the KV dtype as given (prefill CP sets bfloat16 later) */
static int given_dtype(const ctx *c, const char *dtypes)
{
    const setting *s = &c->raw->s[SET_KV_CACHE_DTYPE];
    return on(c) && s->set && word_in(s->value, dtypes);
}
static int p_fp4(const ctx *c) { return given_dtype(c, "fp4_e2m1"); }
static int p_nvfp4(const ctx *c) { return given_dtype(c, "nvfp4 fp4_mx_block16"); }
static int p_mxfp8(const ctx *c) { return given_dtype(c, "mxfp8"); }
/* the chunked prefill size as given (-1 turns chunking off; unset is SGLang's None, which fails too) */
static int p_chunk_given(const ctx *c)
{
    const setting *s = &c->set->s[SET_CHUNKED_PREFILL];
    return on(c) && s->set && strtol(s->value, NULL, 10) != -1;
}
static int p_chunk_unset(const ctx *c) { return on(c) && !c->set->s[SET_CHUNKED_PREFILL].set; }
/* the radix cache as the PD hook leaves it: a decode worker's off unless its own flag keeps it, over
 * --disable-radix-cache too (the attention backend's turns it off later) */
static int p_radix(const ctx *c)
{
    const settings *set = c->set;
    int off = set_to(c, SET_DISAGG_MODE, "decode") ? !set->s[SET_DECODE_RADIX].set : set->s[SET_DISABLE_RADIX].set;
    return on(c) && !off;
}
static int p_attn_cp(const ctx *c) { return on(c) && settings_size(c->raw, SET_ATTN_CP) > 1; }
static int p_mla_cp(const ctx *c) { return on(c) && c->raw->s[SET_MLA_CP].set; }
/* enable_prefill_cp: its flag, or the older CP flags that set it first up to 0.5.19 (cp.c) */
static int p_prefill_cp(const ctx *c) { return on(c) && c->raw->s[SET_PREFILL_CP].set; }
static int p_older_cp(const ctx *c) { return on(c) && c->cp.enabled && !c->raw->s[SET_PREFILL_CP].set; }
static int p_dsa_cp(const ctx *c) { return p_older_cp(c) && c->raw->s[SET_DSA_CP].set; }
static int p_mla_cp_set(const ctx *c) { return p_older_cp(c) && !c->raw->s[SET_DSA_CP].set; }
static int p_hisparse(const ctx *c) { return on(c) && c->set->s[SET_HISPARSE].set; }

#define PO "--prefill-only-disable-kv-cache "
#define HOOK_OLD "sglang 0.5.12: python/sglang/srt/server_args.py:"
#define HOOK_NEW "0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:"
#define CHUNK_MESSAGE                                                                                                  \
    "ValueError: " PO "requires --chunked-prefill-size=-1 so the FA backend takes the fa_skip_kv_cache path; "         \
    "otherwise the pool would be touched between prefill chunks."
#define CHUNK_CITE HOOK_OLD "3385-3390; " HOOK_NEW "904-909"
#define PREFILL_CP_MESSAGE                                                                                             \
    "ValueError: " PO "is incompatible with --enable-prefill-cp: the prefill-CP path stages K/V through the paged "    \
    "cache, which the no-op pool does not support."
#define PREFILL_CP_CITE "sglang 0.5.14: python/sglang/srt/server_args.py:5479-5484; " HOOK_NEW "925-930"

static const flag_rule CHECKS[] = {
    {SINCE("0.5.12"), 0, p_embedding, SET_PREFILL_ONLY_NO_KV,
     "ValueError: " PO "currently requires --is-embedding. Other prefill-only workloads may be supported in a future "
     "change once their attention paths stop reading or writing the paged KV cache.", HOOK_OLD "3366-3371; " HOOK_NEW
     "879-884"},
    {FROM_TO("0.5.12", "0.5.15.post1"), 0, p_fp4, SET_KV_CACHE_DTYPE,
     "ValueError: " PO "does not currently support --kv-cache-dtype=fp4_e2m1 because the FP4 pool uses a separate "
     "allocation path.", HOOK_OLD "3372-3377; 0.5.15.post1: :5264-5269"},
    {SINCE("0.5.16"), 0, p_nvfp4, SET_KV_CACHE_DTYPE,
     "ValueError: " PO "does not currently support --kv-cache-dtype=nvfp4 or --kv-cache-dtype=fp4_mx_block16 because "
     "the FP4 pool uses a separate allocation path.", "sglang 0.5.16: python/sglang/srt/server_args.py:6147-6152; "
     HOOK_NEW "885-890"},
    {SINCE("0.5.16"), 0, p_mxfp8, SET_KV_CACHE_DTYPE,
     "ValueError: " PO "does not currently support --kv-cache-dtype=mxfp8 because the MXFP8 pool stores separate "
     "scale-factor buffers.", "sglang 0.5.16: python/sglang/srt/server_args.py:6153-6158; " HOOK_NEW "891-896"},
    {SINCE("0.5.12"), 0, p_chunk_given, SET_CHUNKED_PREFILL, CHUNK_MESSAGE, CHUNK_CITE},
    {SINCE("0.5.12"), 0, p_chunk_unset, SET_PREFILL_ONLY_NO_KV, CHUNK_MESSAGE, CHUNK_CITE}, /* the flag to blame */
    {SINCE("0.5.12"), 0, p_radix, SET_PREFILL_ONLY_NO_KV,
     "ValueError: " PO "requires --disable-radix-cache because the radix cache indexes KV pool slots that no longer "
     "hold real data.", HOOK_OLD "3391-3396; " HOOK_NEW "910-915"},
    {SINCE("0.5.12"), 0, p_attn_cp, SET_ATTN_CP,
     "ValueError: " PO "is incompatible with --attn-cp-size > 1: the context-parallel attention path writes K/V to the "
     "pool via set_kv_buffer, which the no-op pool intentionally rejects.", HOOK_OLD "3400-3405; " HOOK_NEW "919-924"},
    {FROM_TO("0.5.12", "0.5.13.post1"), 0, p_mla_cp, SET_MLA_CP,
     "ValueError: " PO "is incompatible with --enable-prefill-context-parallel: the prefill-CP path stages K/V "
     "through the paged cache, which the no-op pool does not support.", HOOK_OLD "3406-3411; 0.5.13: :3717-3722"},
    {SINCE("0.5.14"), 0, p_prefill_cp, SET_PREFILL_CP, PREFILL_CP_MESSAGE, PREFILL_CP_CITE},
    {SINCE("0.5.14"), 0, p_dsa_cp, SET_DSA_CP, PREFILL_CP_MESSAGE, PREFILL_CP_CITE}, /* the flag to blame */
    {SINCE("0.5.14"), 0, p_mla_cp_set, SET_MLA_CP, PREFILL_CP_MESSAGE, PREFILL_CP_CITE},
    {SINCE("0.5.12"), 0, p_hisparse, SET_HISPARSE,
     "ValueError: " PO "is incompatible with --enable-hisparse: HiSparse uses a dedicated pool family that is not the "
     "no-op MHA pool.", HOOK_OLD "3415-3420; " HOOK_NEW "934-939"},
};

static const char BACKEND_CITE[] = "sglang 0.5.12: python/sglang/srt/server_args.py:3421-3445; 0.5.15: :5313-5339; "
                                   "0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:321-348";

kvc_status prefill_only_flags(const ctx *c) { return rules_table(c, CHECKS, COUNT_OF(CHECKS), 0, NULL); }

kvc_status prefill_only_backend(const ctx *c, const char *attention_backend)
{
    const setting *flag = &c->set->s[SET_PREFILL_ONLY_NO_KV], *p = &c->set->s[SET_PREFILL_ATTENTION_BACKEND];
    if (!on(c) || c->set->s[SET_PAGE_SIZE].reported) return KVC_OK;
    const char *backend = p->set ? p->value : attention_backend;
    if (!backend[0])
        return diag_set(c->diag, KVC_ERR_CONFIG, &flag->origin, "%s: SGLang %s requires the prefill attention "
                        "backend fa3 or fa4 (%s), and kvcheck does not know which backend SGLang picks for %s on %s; "
                        "give --prefill-attention-backend", flag->flag, SGLANG_VERSIONS[c->rel], BACKEND_CITE,
                        c->model->architecture, c->gpu->name);
    if (!strcmp(backend, "fa3") || !strcmp(backend, "fa4"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &flag->origin, "%s with the prefill backend %s: SGLang %s starts "
                        "this worker with a no-op KV pool (it keeps no KV cache to send or receive); kvcheck does not "
                        "model it, so it cannot judge this worker", flag->flag, backend, SGLANG_VERSIONS[c->rel]);
    return rules_refuse(c, p->set ? p : flag, "ValueError: --prefill-only-disable-kv-cache currently requires the FA "
                        "prefill backend (fa3/fa4), but got prefill backend '%s'. Other prefill-only workloads and "
                        "backends may be supported in a future change. (%s)", backend, BACKEND_CITE);
}

size_t prefill_only_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(CHECKS, CHECKS[i].when);
    return n;
}
