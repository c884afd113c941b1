/* The resolution pipeline's early checks of single flags (0.5.19+), which
 * run right after the media URL policy (and from 0.5.22 the watermark's
 * loader, which follows it) and before the model path is read:
 * handle_hicache_ratio_default's host memory fraction (0.5.21+), then
 * validate_prefill_decode_interval, validate_response_store and
 * validate_sampling_mask_max_tokens (sglang 0.5.19: python/sglang/srt/
 * arg_groups/pipeline.py:93-99; 0.5.23: :77-92), with CPU offloading's
 * flags between the first and the others (handle_offload_compatibility,
 * 0.5.20+; SGLang runs it again after the model overrides, which set the
 * PLE flag only for models kvcheck does not serve: sglang 0.5.23:
 * python/sglang/srt/arg_groups/pipeline.py:79-80, :228). */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

/* not 0 < fraction <= 1: NaN included */
static int e_fraction(const ctx *c)
{
    const setting *s = &c->set->s[SET_HICACHE_FRACTION];
    double f = s->set ? strtod(s->value, NULL) : 0.8;
    return !(0 < f && f <= 1);
}
static int e_interval(const ctx *c) { return int_below(c, SET_PD_INTERVAL, 0); }
static int e_interval_bs(const ctx *c) { return int_below(c, SET_PD_INTERVAL_MIN_BS, 0); }
static int e_response_store(const ctx *c) { return c->set->s[SET_RESPONSE_STORE].set && pd_worker(c); }
/* EnvInt.is_set(): in the environment, whatever its value */
static int e_mask_env(const ctx *c) { return c->set->s[SET_SAMPLING_MASK_ENV].set; }
/* an int flag above 0 (argparse's int, kept as Python's int text) */
static int positive(const ctx *c, setting_key k) { return c->set->s[k].set && !int_below(c, k, 1); }
/* --ple-offload-embedding last given as on (True) or off (False: BooleanOptionalAction's --no- form, which kvcheck
 * keeps as unset with its flag); never given is None */
static int ple(const ctx *c, int on)
{
    const setting *s = &c->set->s[SET_PLE_OFFLOAD];
    return on ? s->set : !s->set && strncmp(s->flag, "--no-", 5) == 0;
}
static int e_ple_offload(const ctx *c)
{
    return ple(c, 1) && (positive(c, SET_CPU_OFFLOAD_GB) || positive(c, SET_OFFLOAD_GROUP_SIZE));
}
static int e_ple_file(const ctx *c) { return set_to(c, SET_PLE_OFFLOAD_BACKEND, "file") && ple(c, 0); }
static int e_mask_tokens(const ctx *c) { return int_below(c, SET_SAMPLING_MASK, 1); }

#define VH(a) "sglang " a ": python/sglang/srt/arg_groups/validation_hook.py:"
static const flag_rule RULES[] = {
    {SINCE("0.5.21"), 0, e_fraction, SET_HICACHE_FRACTION,
     "ValueError: --hicache-host-memory-fraction must be in (0, 1].",
     "sglang 0.5.21: python/sglang/srt/arg_groups/hicache_hook.py:97-98; 0.5.23: :116-117"},
    {SINCE("0.5.20"), 0, e_ple_offload, SET_PLE_OFFLOAD,
     "ValueError: --ple-offload-embedding cannot be combined with --cpu-offload-gb or --offload-group-size: generic "
     "layer offload would stage the pinned PLE embedding back to the device.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/memory_hook.py:28-38; 0.5.23: the same"},
    {SINCE("0.5.20"), 0, e_ple_file, SET_PLE_OFFLOAD_BACKEND,
     "ValueError: --ple-offload-backend file requires --ple-offload-embedding: the file-backed table is the "
     "offloaded table.", "sglang 0.5.20: python/sglang/srt/arg_groups/memory_hook.py:40-44; 0.5.23: the same"},
    {SINCE("0.5.19"), 0, e_interval, SET_PD_INTERVAL,
     "ValueError: --prefill-decode-interval must be non-negative.", VH("0.5.19") "414-415; 0.5.23: :659-660"},
    {SINCE("0.5.23"), 0, e_interval_bs, SET_PD_INTERVAL_MIN_BS,
     "ValueError: --prefill-decode-interval-min-bs must be non-negative.", VH("0.5.23") "661-662"},
    {SINCE("0.5.20"), 0, e_response_store, SET_RESPONSE_STORE,
     "ValueError: --enable-response-store is not supported with --disaggregation-mode=prefill or decode; response "
     "storage must remain disabled in PD mode.", VH("0.5.20") "30-35; 0.5.23: :111-116"},
    {SINCE("0.5.20"), 0, e_mask_env, SET_SAMPLING_MASK_ENV,
     "ValueError: SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported. Unset it. To enable sampling "
     "masks for disaggregated serving, set SGLANG_ENABLE_DISAGG_SAMPLING_MASK=1 and use the same positive "
     "--sampling-mask-max-tokens value on both prefill and decode servers.", VH("0.5.20") "466-472; 0.5.23: :679-685"},
    {SINCE("0.5.20"), 0, e_mask_tokens, SET_SAMPLING_MASK,
     "ValueError: --sampling-mask-max-tokens must be positive (got {value}).", VH("0.5.20") "474-478; 0.5.23: "
     ":687-691"},
};
#undef VH

kvc_status early_check(const ctx *c) { return rules_table(c, RULES, COUNT_OF(RULES), 0, NULL); }

size_t early_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
