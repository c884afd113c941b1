/* SGLang's prefill context parallelism (CP), release by release: which
 * flags turn it on for which models, what it sets in the server arguments
 * before the other handlers read them (the KV dtype in 0.5.6-0.5.9, the
 * all-to-all backend, the expert parallel size, attention data and context
 * parallelism), and what SGLang refuses for it, with the checks of the
 * attention context parallel size any worker meets. CP alone does not
 * change the KV pool: every CP rank all-gathers the latent KV and writes
 * it whole (sglang 0.5.10: python/sglang/srt/models/deepseek_v2.py:
 * 1520-1531), so the row, the page and the layers stay the model's; the
 * pools that split the cache across the CP ranks are other flags, which
 * rules.c declines (check_unmodelled_parallelism). rules.c calls these
 * steps in SGLang's order (rules.h). */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>

/* What each release's CP does to the server arguments. A DSA model in the
 * DeepSeek family list takes DSA CP from its CP flag; another MLA model of
 * the list takes MLA CP from 0.5.13 (its own flag) and from 0.5.14 (any CP
 * flag). In-seq-split (zigzag from 0.5.14) sets the deepep all-to-all
 * backend and --ep-size to --tp-size; round-robin-split (interleave) does
 * not. */
enum cp_bf16 {
    BF16_NEVER,
    BF16_ALWAYS, /* kv_cache_dtype = "bf16" under any mode */
    BF16_IN_SEQ, /* under in-seq-split only */
};
enum cp_mla {
    MLA_NONE,     /* the flags do nothing to an MLA model that is not DSA */
    MLA_OWN_FLAG, /* --enable-prefill-context-parallel turns MLA CP on */
    MLA_ANY,      /* --enable-prefill-cp (which the older flags set) turns it on */
};
enum cp_attn {
    ATTN_CP_KEPT,      /* CP leaves --attn-cp-size as given */
    ATTN_CP_TP_DP,     /* attn_cp_size = tp_size // dp_size */
    ATTN_CP_ATTN_DP,   /* attn_cp_size = tp_size // attn_dp_size, or the given one under interleave; dp_size
                          becomes attention data parallelism (attn_dp_size * dp_size, dp_size 1) */
};
static const struct cp_era {
    span when;
    const char *mode_default; /* the DSA mode SGLang takes unset; NULL: no mode flag (0.5.6-0.5.7: in-seq-split) */
    enum cp_bf16 bf16;
    enum cp_mla mla;
    int legacy; /* the older flags set --enable-prefill-cp and a strategy from their mode (0.5.14-0.5.19) */
    enum cp_attn attn_cp;
    const char *cite;
} CP_ERAS[] = {
    {FROM_TO("0.5.6", "0.5.7"), NULL, BF16_ALWAYS, MLA_NONE, 0, ATTN_CP_KEPT,
     "sglang 0.5.6: python/sglang/srt/server_args.py:949-960; 0.5.7: :1034-1045"},
    {FROM_TO("0.5.8", "0.5.8.post1"), "in-seq-split", BF16_IN_SEQ, MLA_NONE, 0, ATTN_CP_KEPT,
     "sglang 0.5.8: python/sglang/srt/server_args.py:1115-1138"},
    {FROM_TO("0.5.9", "0.5.9"), "round-robin-split", BF16_IN_SEQ, MLA_NONE, 0, ATTN_CP_KEPT,
     "sglang 0.5.9: python/sglang/srt/server_args.py:1215-1238"},
    {FROM_TO("0.5.10", "0.5.12.post1"), "round-robin-split", BF16_NEVER, MLA_NONE, 0, ATTN_CP_TP_DP,
     "sglang 0.5.10: python/sglang/srt/server_args.py:1540-1563; 0.5.12: :1820-1843"},
    {FROM_TO("0.5.13", "0.5.13.post1"), "round-robin-split", BF16_NEVER, MLA_OWN_FLAG, 0, ATTN_CP_TP_DP,
     "sglang 0.5.13: python/sglang/srt/server_args.py:1881-1908, :1976-1992"},
    {FROM_TO("0.5.14", "0.5.19"), "round-robin-split", BF16_NEVER, MLA_ANY, 1, ATTN_CP_TP_DP,
     "sglang 0.5.14: python/sglang/srt/server_args.py:3562-3586, :3654-3670, :4932-4972; 0.5.19: python/sglang/srt/"
     "arg_groups/model_overrides/deepseek_v2.py:48-85, :117-134"},
    {FROM_TO("0.5.20", "0.5.21"), NULL, BF16_NEVER, MLA_ANY, 0, ATTN_CP_TP_DP,
     "sglang 0.5.20: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:91-115, :163-180"},
    {SINCE("0.5.22"), NULL, BF16_NEVER, MLA_ANY, 0, ATTN_CP_ATTN_DP,
     "sglang 0.5.22: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:106-140, :192-210; "
     "model_override_base.py:229-247"},
};

/* The CP_ERAS row of release `rel`, or NULL (no CP before 0.5.6). Pure. */
static const struct cp_era *cp_era(unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(CP_ERAS); i++)
        if (in_span(rel, CP_ERAS[i].when)) return &CP_ERAS[i];
    return NULL;
}

static int on(const settings *set, setting_key k) { return set->s[k].set; }
static const char *value_or(const settings *set, setting_key k, const char *dflt)
{
    return set->s[k].set ? set->s[k].value : dflt;
}

/* The strategy 0.5.14-0.5.19's _handle_legacy_cp_arguments gives --enable-prefill-cp from the older flags' modes
 * where --cp-strategy is not given (sglang 0.5.14: python/sglang/srt/server_args.py:4932-4972; 0.5.19:
 * python/sglang/srt/arg_groups/parallel_hook.py:562). Pure. */
static const char *legacy_strategy(const settings *set)
{
    const char *mode = on(set, SET_MLA_CP)   ? value_or(set, SET_MLA_CP_MODE, "in-seq-split")
                       : on(set, SET_DSA_CP) ? value_or(set, SET_DSA_CP_MODE, "round-robin-split")
                                             : NULL;
    return !mode ? NULL : strcmp(mode, "in-seq-split") == 0 ? "zigzag" : "interleave";
}

void cp_settle(const settings *set, const model_info *m, unsigned rel, int dsa, int family, cp_state *out)
{
    memset(out, 0, sizeof *out);
    const struct cp_era *e = cp_era(rel);
    if (!e) return;
    const setting *flags[] = {&set->s[SET_PREFILL_CP], &set->s[SET_DSA_CP], &set->s[SET_MLA_CP]};
    for (size_t i = 0; i < COUNT_OF(flags) && !out->on; i++)
        if (flags[i]->set) out->on = flags[i];
    out->mla_named = out->on == &set->s[SET_MLA_CP];
    if (!out->on) return;
    out->both_legacy = on(set, SET_DSA_CP) && on(set, SET_MLA_CP);
    int dsa_family = dsa && family, mla_family = !dsa && family && !rules_dsv4(m->architecture, rel);
    int dsa_on, mla_on; /* the flags that turn DSA CP and MLA CP on, as the release reads them */
    if (rel_since(rel, "0.5.14")) { /* one switch for both, a strategy */
        dsa_on = mla_on = on(set, SET_PREFILL_CP) || (e->legacy && (on(set, SET_DSA_CP) || on(set, SET_MLA_CP)));
        out->strategy = set->s[SET_CP_STRATEGY].set ? set->s[SET_CP_STRATEGY].value
                        : e->legacy                 ? legacy_strategy(set)
                                                    : NULL;
        out->in_seq = out->strategy && strcmp(out->strategy, "zigzag") == 0;
    } else {
        dsa_on = on(set, SET_DSA_CP);
        mla_on = e->mla == MLA_OWN_FLAG && on(set, SET_MLA_CP);
        out->strategy = e->mode_default ? value_or(set, SET_DSA_CP_MODE, e->mode_default) : NULL;
        out->in_seq = !out->strategy || strcmp(out->strategy, "in-seq-split") == 0;
    }
    out->enabled = dsa_on;
    out->kind = dsa_family && dsa_on ? CP_DSA : mla_family && mla_on && e->mla != MLA_NONE ? CP_MLA : CP_INERT;
    if (out->kind == CP_MLA && !rel_since(rel, "0.5.14")) out->strategy = NULL, out->in_seq = 1; /* 0.5.13: no mode */
    out->bf16 = out->kind == CP_DSA && (e->bf16 == BF16_ALWAYS || (e->bf16 == BF16_IN_SEQ && out->in_seq));
    out->cite = e->cite;
}

int cp_rewrites(const cp_state *cp) { return cp->kind == CP_DSA || cp->kind == CP_MLA; }

/* Sets `key` in `set` to `value` as CP does, from the flag that turned it on. */
static void cp_set(settings *set, setting_key key, const char *value, const cp_state *cp, unsigned rel)
{
    setting *s = &set->s[key];
    const char *flag = setting_flag(key, rel);
    s->set = 1;
    str_copy(s->value, sizeof s->value, value);
    str_copy(s->flag, sizeof s->flag, flag ? flag : "");
    s->origin = cp->on->origin;
    str_printf(s->origin.where, sizeof s->origin.where, "%s%swhich %s sets for prefill context parallelism", value,
               value[0] ? ", " : "", cp->on->flag);
}

/* The attention data parallel size 0.5.22's CP runs: attn_dp_size * dp_size (context_parallel_attn_dp_size); 0 where
 * SGLang refuses both above 1 (T_ATTN_DP_BOTH). Pure. */
static unsigned long cp_attn_dp(const settings *set)
{
    unsigned long adp, dp;
    settings_attn_dp(set, &adp, &dp);
    return adp > 1 && dp > 1 ? 0 : adp * dp;
}

void cp_apply(settings *set, const cp_state *cp, unsigned rel)
{
    const struct cp_era *e = cp_era(rel);
    if (!e || !cp->on) return; /* no CP in this release, or none given (cp_rewrites says so too) */
    unsigned long tp = settings_size(set, SET_TP), dp = settings_size(set, SET_DP);
    char v[32], what[400] = "";
    size_t n = 0;
    if (cp->bf16 && !(set->s[SET_KV_CACHE_DTYPE].set && strcmp(set->s[SET_KV_CACHE_DTYPE].value, "bf16") == 0)) {
        n += (size_t)snprintf(what + n, sizeof what - n, "%s--kv-cache-dtype bf16%s", n ? ", " : "",
                              set->s[SET_KV_CACHE_DTYPE].set ? " (replacing the one given)" : "");
        cp_set(set, SET_KV_CACHE_DTYPE, "bf16", cp, rel);
    }
    if (cp->kind == CP_MLA || cp->in_seq) {
        snprintf(v, sizeof v, "%lu", tp);
        n += (size_t)snprintf(what + n, sizeof what - n, "%s--moe-a2a-backend deepep, --ep-size %lu", n ? ", " : "",
                              tp);
        cp_set(set, SET_MOE_A2A, "deepep", cp, rel);
        cp_set(set, SET_EP, v, cp, rel);
    }
    unsigned long attn_cp = 0; /* 0: left as given (also where dp > tp: SGLang's data parallelism check refuses it) */
    if (e->attn_cp == ATTN_CP_ATTN_DP) {
        unsigned long adp = cp_attn_dp(set);
        if (adp) { /* 0: both sizes above 1, left as given for T_ATTN_DP_BOTH to refuse */
            snprintf(v, sizeof v, "%lu", adp);
            cp_set(set, SET_ATTN_DP_SIZE, v, cp, rel);
            cp_set(set, SET_DP, "1", cp, rel);
            n += (size_t)snprintf(what + n, sizeof what - n, "%s--attn-dp-size %lu, --dp-size 1", n ? ", " : "", adp);
            int kept = cp->kind == CP_DSA && cp->strategy && strcmp(cp->strategy, "interleave") == 0 &&
                       settings_size(set, SET_ATTN_CP) > 1;
            attn_cp = kept ? settings_size(set, SET_ATTN_CP) : tp / adp;
        }
    } else {
        if (!set->s[SET_DP_ATTENTION].set && dp > 1) { /* the data parallelism handler turns it off at dp 1 */
            cp_set(set, SET_DP_ATTENTION, "", cp, rel);
            n += (size_t)snprintf(what + n, sizeof what - n, "%sattention data parallelism (--dp-size %lu)",
                                  n ? ", " : "", dp);
        }
        if (e->attn_cp == ATTN_CP_TP_DP && dp) attn_cp = tp / dp;
    }
    if (attn_cp) {
        snprintf(v, sizeof v, "%lu", attn_cp);
        cp_set(set, SET_ATTN_CP, v, cp, rel);
        n += (size_t)snprintf(what + n, sizeof what - n, "%s--attn-cp-size %lu", n ? ", " : "", attn_cp);
    }
    notes_add(set->warnings, &set->nwarnings, SETTINGS_MAX_WARNINGS, "%s: SGLang %s runs %s prefill context "
              "parallelism%s%s%s and sets %s (%s)", cp->on->flag, SGLANG_VERSIONS[rel],
              cp->kind == CP_DSA ? "DSA" : "MLA", cp->strategy ? " (" : "", cp->strategy ? cp->strategy : "",
              cp->strategy ? ")" : "", n ? what : "nothing more", cp->cite);
}

/* ------------------------------------------------------------- checks */

/* What SGLang refuses for CP and for an attention CP size above 1, in its order within each stage. */
enum cp_test {
    T_HIP,           /* CP on ROCm */
    T_HIP_NOT_V4,    /* CP on ROCm for another model than DeepSeek-V4 */
    T_LONGCAT,       /* CP on LongCat-Flash with an attention CP size above 1 */
    T_ATTN_DP_BOTH,  /* DSA or MLA CP with --dp-size and --attn-dp-size both above 1 */
    T_DP_ONE,        /* DSA CP other than in-seq-split (zigzag) with --dp-size other than 1 */
    T_TP_EIGHT,      /* DSA CP with --tp-size other than 8 */
    T_TP_LE8,        /* DSA CP with --tp-size above 8 */
    T_DECODE,        /* DSA CP on a PD decode worker */
    T_V32_ZIGZAG,    /* zigzag for a DeepseekV32ForCausalLM config */
    T_NO_STRATEGY,   /* --enable-prefill-cp without a strategy */
    T_BOTH_LEGACY,   /* --enable-prefill-context-parallel with the DSA flag */
    T_CP_TP,         /* attention CP size above 1 that does not divide --tp-size */
    T_CP_DP,         /* ... whose product with the (attention) data parallel size does not */
    T_CP_PP,         /* ... with pipeline parallelism */
    T_CP_AITER,      /* ... with --enable-aiter-allreduce-fusion */
};
static const struct cp_check {
    span when;
    enum cp_stage stage;
    enum cp_test test;
    const char *message; /* SGLang's, with its exception type; {field}s as cp_refuse fills them */
    const char *cite;
} CP_CHECKS[] = {
    {FROM_TO("0.5.20", "0.5.20"), CP_EARLY, T_HIP,
     "ValueError: Prefill CP on HIP/NPU/MUSA is deprecated; CP support will be refactored soon.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/parallel_hook.py:620-629, pipeline.py:119"},
    {FROM_TO("0.5.21", "0.5.21"), CP_EARLY, T_HIP,
     "ValueError: Prefill CP on HIP/MUSA is deprecated; CP support will be refactored soon.",
     "sglang 0.5.21: python/sglang/srt/arg_groups/parallel_hook.py:687-694"},
    {SINCE("0.5.22"), CP_MODEL, T_ATTN_DP_BOTH,
     "AssertionError: --dp-size {dp} with --attn-dp-size {attn_dp}: data-parallel replicas combined with attention "
     "data parallelism are not supported.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/model_override_base.py:229-239"},
    {FROM_TO("0.5.8", "0.5.13.post1"), CP_MODEL, T_DP_ONE,
     "AssertionError: For round-robin split mode, dp attention is not supported.",
     "sglang 0.5.8: python/sglang/srt/server_args.py:1130-1135; 0.5.13: :1890-1900"},
    {FROM_TO("0.5.14", "0.5.21"), CP_MODEL, T_DP_ONE, "AssertionError: interleave DSA CP does not support DP attention.",
     "sglang 0.5.14: python/sglang/srt/server_args.py:3575-3578; 0.5.19: python/sglang/srt/arg_groups/model_overrides/"
     "deepseek_v2.py:62-64"},
    {FROM_TO("0.5.6", "0.5.11"), CP_MODEL, T_TP_EIGHT,
     "AssertionError: Current multi-machine CP support suffers from precision issues. So context parallel only "
     "support Single machine(tp_size == 8)",
     "sglang 0.5.6: python/sglang/srt/server_args.py:958-960; 0.5.11: :1727"},
    {SINCE("0.5.12"), CP_MODEL, T_TP_LE8,
     "AssertionError: Context parallel only supports single machine (tp_size <= 8). Cross-machine CP has precision "
     "issues.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:1840-1842; 0.5.22: python/sglang/srt/arg_groups/"
     "model_overrides/deepseek_v2.py:123"},
    {SINCE("0.5.8"), CP_MODEL_DECODE, T_DECODE,
     "AssertionError: CP is only supported for prefill when PD disaggregation, please remove {flag}.",
     "sglang 0.5.8: python/sglang/srt/server_args.py:1191-1194; 0.5.14: :3631-3634; 0.5.19: python/sglang/srt/"
     "arg_groups/model_hook.py:220-223"},
    {SINCE("0.5.21"), CP_HANDLER, T_LONGCAT,
     "ValueError: LongCat-Flash does not support --enable-prefill-cp with --attn-cp-size > 1",
     "sglang 0.5.21: python/sglang/srt/arg_groups/parallel_hook.py:38-41 (_boundary_parallelism_overrides); 0.5.23: "
     ":78-81"},
    {SINCE("0.5.22"), CP_HANDLER, T_HIP_NOT_V4,
     "ValueError: Prefill CP on HIP is only supported for DeepseekV4ForCausalLM, got '{arch}'.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/parallel_hook.py:108-116; 0.5.23: :114-122"},
    {SINCE("0.5.20"), CP_HANDLER, T_V32_ZIGZAG,
     "ValueError: DeepSeek V3.2 prefill CP does not support --cp-strategy zigzag; use interleave.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/parallel_hook.py:44-53; 0.5.23: :124-131"},
    {SINCE("0.5.14"), CP_HANDLER, T_NO_STRATEGY,
     "ValueError: --cp-strategy must be set when --enable-prefill-cp is enabled.",
     "sglang 0.5.14: python/sglang/srt/server_args.py:4986-4989; 0.5.20: python/sglang/srt/arg_groups/"
     "parallel_hook.py:72-75"},
    {FROM_TO("0.5.13", "0.5.19"), CP_HANDLER, T_BOTH_LEGACY,
     "ValueError: --enable-prefill-context-parallel and --enable-nsa-prefill-context-parallel are mutually "
     "exclusive. Use --enable-nsa-prefill-context-parallel for DeepSeek V3.2 (NSA) models and "
     "--enable-prefill-context-parallel for MLA-based models (DeepSeek V3/R1, Kimi K2.5) or MHA/GQA-based models.",
     "sglang 0.5.13: python/sglang/srt/server_args.py:3266-3278; 0.5.14: :4991-5002"},
    {SINCE("0.5.9"), CP_HANDLER, T_CP_TP, "AssertionError: tp_size must be divisible by attn_cp_size",
     "sglang 0.5.9: python/sglang/srt/server_args.py:2084-2088; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:158-160"},
    {FROM_TO("0.5.9", "0.5.21"), CP_HANDLER, T_CP_DP, "AssertionError: tp_size must be divisible by dp_size * "
     "attn_cp_size", "sglang 0.5.9: python/sglang/srt/server_args.py:2089-2091; 0.5.20: python/sglang/srt/"
     "arg_groups/parallel_hook.py:82-84"},
    {SINCE("0.5.22"), CP_HANDLER, T_CP_DP, "AssertionError: tp_size must be divisible by attn_dp_size * attn_cp_size",
     "sglang 0.5.22: python/sglang/srt/arg_groups/parallel_hook.py:155-157; 0.5.23: :161-163"},
    {FROM_TO("0.5.9", "0.5.9"), CP_HANDLER, T_CP_PP, "AssertionError: PP is not supported with context parallelism",
     "sglang 0.5.9: python/sglang/srt/server_args.py:2092"},
    {SINCE("0.5.10"), CP_HANDLER, T_CP_AITER, /* given, or set for GLM-5 on ROCm from 0.5.21 (aiter_fusion) */
     "AssertionError: Aiter allreduce fusion is not supported with context parallelism",
     "sglang 0.5.10: python/sglang/srt/server_args.py:2610-2612; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:165-167"},
};

/* 1 when aiter's all-reduce fusion is on: given, or from 0.5.21 set by the model adjustments for GlmMoeDsaForCausalLM
 * on ROCm without attention DP on one node (sglang 0.5.21: python/sglang/srt/arg_groups/model_hook.py:402-414; 0.5.23:
 * :440-452). Pure. */
static int aiter_fusion(const ctx *c)
{
    const settings *set = c->set;
    int dp_attention = set->s[SET_DP_ATTENTION].set || settings_size(set, SET_ATTN_DP_SIZE) > 1;
    return set->s[SET_AITER_AR_FUSION].set ||
           (rel_since(c->rel, "0.5.21") && c->gpu->hip && strcmp(c->model->architecture, "GlmMoeDsaForCausalLM") == 0 &&
            !dp_attention && settings_size(set, SET_NNODES) == 1);
}

/* 1 when worker `c` meets the condition check `t` refuses. Pure. */
static int cp_fails(const ctx *c, enum cp_test t)
{
    const cp_state *cp = &c->cp;
    const settings *set = c->set;
    int dsa = cp->kind == CP_DSA, any = dsa || cp->kind == CP_MLA;
    unsigned long attn_cp = size_of(c, SET_ATTN_CP), tp = size_of(c, SET_TP);
    switch (t) {
    case T_HIP: return cp->enabled && c->gpu->hip;
    case T_HIP_NOT_V4: return cp->enabled && c->gpu->hip && strcmp(c->model->architecture, "DeepseekV4ForCausalLM");
    case T_LONGCAT: return cp->enabled && attn_cp > 1 && strcmp(c->model->model_type, "longcat_flash") == 0;
    case T_ATTN_DP_BOTH: { /* cp_apply left both sizes as given (an --attn-dp-size of 0 is the handler's to refuse) */
        unsigned long adp, dp;
        settings_attn_dp(set, &adp, &dp);
        return any && adp > 1 && dp > 1;
    }
    case T_DP_ONE: return dsa && !cp->in_seq && size_of(c, SET_DP) != 1;
    case T_TP_EIGHT: return dsa && tp != 8;
    case T_TP_LE8: return dsa && tp > 8;
    case T_DECODE: return dsa && set_to(c, SET_DISAGG_MODE, "decode");
    case T_V32_ZIGZAG:
        return cp->enabled && cp->in_seq && strcmp(c->model->architecture, "DeepseekV32ForCausalLM") == 0;
    case T_NO_STRATEGY: return cp->enabled && !cp->strategy;
    case T_BOTH_LEGACY: return cp->both_legacy;
    case T_CP_TP: return attn_cp > 1 && tp % attn_cp != 0;
    case T_CP_DP: {
        unsigned long adp, dp;
        settings_attn_dp(set, &adp, &dp);
        return attn_cp > 1 && tp % ((rel_since(c->rel, "0.5.22") ? adp : size_of(c, SET_DP)) * attn_cp) != 0;
    }
    case T_CP_PP: return attn_cp > 1 && size_of(c, SET_PP) != 1;
    case T_CP_AITER: return attn_cp > 1 && aiter_fusion(c);
    }
    return 0;
}

/* The flag SGLang's message blames for check `t`. */
static const setting *cp_blame(const ctx *c, enum cp_test t)
{
    const settings *set = c->set;
    switch (t) {
    case T_ATTN_DP_BOTH: case T_DP_ONE: return &set->s[SET_DP];
    case T_TP_EIGHT: case T_TP_LE8: return &set->s[SET_TP];
    case T_DECODE: return &set->s[SET_DISAGG_MODE];
    case T_CP_TP: case T_CP_DP: return &set->s[SET_ATTN_CP];
    case T_CP_PP: return &set->s[SET_PP];
    case T_CP_AITER: return &set->s[SET_AITER_AR_FUSION];
    default: return c->cp.on;
    }
}

kvc_status cp_check(const ctx *c, enum cp_stage stage)
{
    for (size_t i = 0; i < COUNT_OF(CP_CHECKS); i++) {
        const struct cp_check *k = &CP_CHECKS[i];
        if (k->stage != stage || !in_span(c->rel, k->when) || !cp_fails(c, k->test)) continue;
        char dp[24], attn_dp[24], msg[700];
        unsigned long adp_n, dp_n;
        settings_attn_dp(c->set, &adp_n, &dp_n);
        snprintf(dp, sizeof dp, "%lu", dp_n);
        snprintf(attn_dp, sizeof attn_dp, "%lu", adp_n);
        /* the decode refusal names the release's spelling of the DSA flag */
        const char *flag = rel_since(c->rel, "0.5.14")   ? "--enable-prefill-cp"
                           : rel_since(c->rel, "0.5.13") ? "--enable-dsa-prefill-context-parallel"
                                                         : "--enable-nsa-prefill-context-parallel";
        const char *const fields[][2] = {{"dp", dp}, {"attn_dp", attn_dp}, {"arch", c->model->architecture}, {"flag", flag}};
        sglang_expand(k->message, fields, COUNT_OF(fields), msg, sizeof msg);
        const setting *s = cp_blame(c, k->test);
        return rules_refuse(c, s && s->set ? s : NULL, "%s (%s)", msg, k->cite);
    }
    return KVC_OK;
}

void cp_note_inert(const ctx *c)
{
    const cp_state *cp = &c->cp;
    if (cp->kind != CP_INERT) return;
    const char *whom = rel_since(c->rel, "0.5.14") ? "the models of its DeepSeek family list"
                       : !cp->mla_named             ? "the DSA models of its DeepSeek family list"
                       : rel_since(c->rel, "0.5.13") ? "the models of its DeepSeek family list that are not DSA"
                                                     : NULL;
    char what[300];
    if (whom)
        str_printf(what, sizeof what, "applies prefill context parallelism only to %s, and %s is not one", whom,
                   c->model->architecture);
    else
        str_printf(what, sizeof what, "sets nothing from it");
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s has no effect on the server arguments: SGLang "
              "%s %s (%s); its scheduler and model code read the flag at run time, which kvcheck does not model",
              cp->on->flag, SGLANG_VERSIONS[c->rel], what, cp->cite);
}

/* The decode side's KV manager refuses an attention CP size above 1 when it maps the prefill's ranks, on the
 * first transfer (sglang 0.5.10: python/sglang/srt/disaggregation/common/conn.py:293-296; 0.5.23: :1493-1495). */
void cp_note_decode(const ctx *c)
{
    unsigned long attn_cp = size_of(c, SET_ATTN_CP);
    if (!rel_since(c->rel, "0.5.10") || attn_cp <= 1 || !set_to(c, SET_DISAGG_MODE, "decode")) return;
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "this decode worker starts with an attention "
              "context parallel size of %lu, but SGLang %s's KV receiver asserts \"Decode cp size (%lu) should be equal "
              "to 1\" when it maps the prefill's ranks, so every transfer to it fails on the first request (sglang "
              "0.5.10: python/sglang/srt/disaggregation/common/conn.py:293-296; 0.5.23: :1493-1495)",
              attn_cp, SGLANG_VERSIONS[c->rel], attn_cp);
}

/* The releases this file's code tests by version, as spans. */
static const span CP_VERSION_TESTS[] = {SINCE("0.5.10"), SINCE("0.5.13"), SINCE("0.5.14"), SINCE("0.5.21"),
                                        SINCE("0.5.22")};

size_t cp_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(CP_ERAS, CP_ERAS[i].when);
    SPAN_EACH(CP_CHECKS, CP_CHECKS[i].when);
    SPAN_EACH(CP_VERSION_TESTS, CP_VERSION_TESTS[i]);
    return n;
}
