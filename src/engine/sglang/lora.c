/* SGLang's LoRA checks (check_lora_server_args), which check_server_args
 * makes right after the served model name's: sglang 0.5.3rc2:
 * python/sglang/srt/server_args.py:2928 (called), :2960-3048; 0.5.18:
 * :9190, :9338-9477; 0.5.19: python/sglang/srt/arg_groups/lora_hook.py;
 * 0.5.23: arg_groups/validation_hook.py:222, lora_hook.py:34-176, 180-242
 * (check_lora_moe_runner_args), 245-303 (the speculative compatibility).
 *
 * LoRA is on with --enable-lora, or with --lora-paths given at least one
 * path (SGLang turns it on then). Its checks read flags only, and the
 * speculative algorithm once NEXTN is EAGLE; 0.5.23's LoRA MoE runners
 * (--moe-runner-backend lora_*) are checked whether LoRA is on or not.
 * Checks kvcheck does not reach: --max-lora-chunk-size's range (argparse's
 * choices refuse first), --lora-paths items of other types (LoRAPathAction
 * stores only str and dict), and the DSpark and --speculative-adaptive
 * reasons of the speculative check (kvcheck declines those workers before).
 * --dllm-algorithm, which turns LoRA off (0.5.9+), kvcheck declines first
 * (rules.c).
 * The experimental_sgl_marlin MoE runner's own LoRA and EP policy (0.5.16+)
 * kvcheck declines.
 *
 * Then the target's model runner builds the LoRA manager, after it loads the
 * model and before it configures the KV dtype (ModelRunner.initialize;
 * sglang 0.5.23: python/sglang/srt/model_executor/model_runner.py:715, 733,
 * 735). LoRAManager.__init__ refuses DP attention three ways (0.5.21+),
 * tests of flags kvcheck models (lora_manager_check); its init_state then
 * loads the adapters and resolves the target modules against the model's
 * own modules, checks them (the LoRA backend's, the DSA indexer's, the
 * replicated Q projection's) and builds the LoRA pool: kvcheck declines a
 * worker with LoRA on there. */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

/* a setting's value as given, or SGLang's default */
static const char *value_or(const ctx *c, setting_key k, const char *dflt)
{
    return c->set->s[k].set ? c->set->s[k].value : dflt;
}
static const char *per_batch(const ctx *c) { return value_or(c, SET_LORAS_PER_BATCH, "8"); }
/* --lora-backend's default from 0.5.4.post2 (and 0.5.3.post3), the releases whose rows read it */
static const char *backend(const ctx *c) { return value_or(c, SET_LORA_BACKEND, "csgmv"); }
static const char *runner(const ctx *c) { return value_or(c, SET_MOE_RUNNER, "auto"); }
static int lora_runner(const ctx *c) { return strncmp(runner(c), "lora", 4) == 0; }
static int paths(const ctx *c) { return (int)c->set->s[SET_LORA_PATHS].nvalues; }
static int lora_on(const ctx *c) { return c->set->s[SET_ENABLE_LORA].set || paths(c) > 0; }

/* LoRA with a speculative algorithm other than NGRAM: 0 none or NGRAM, 1 one LoRA takes (0.5.19+), 2 another */
static int lora_spec(const ctx *c)
{
    char a[64];
    rules_spec_resolved(c, a, sizeof a);
    if (!lora_on(c) || !a[0] || strcmp(a, "NGRAM") == 0) return 0;
    return word_in(a, "EAGLE EAGLE3 DFLASH DSPARK") ? 1 : 2;
}

/* _check_v2_lora_modes' first mode the worker has, or NULL (0.5.23) */
static const char *v2_mode(const ctx *c)
{
    unsigned long adp, dp;
    settings_attn_dp(c->set, &adp, &dp);
    if (adp > 1) return "DP-attention with --attn-dp-size > 1";
    if (c->set->s[SET_PDMUX].set) return "PD-multiplexing";
    if (c->set->s[SET_TBO].set) return "two-batch overlap";
    if (rules_env_bool(&c->set->s[SET_LORA_OPTI_ENV]) == 1) return "SGLANG_EXPERIMENTAL_LORA_OPTI";
    if (c->gpu->hip) return "ROCm";
    return NULL;
}

/* ------------------------------------------------------------ the rows */

static int l_per_batch(const ctx *c) { return int_cmp(per_batch(c), "0") <= 0; }
static int l_v2_backend(const ctx *c)
{
    return lora_on(c) && strcmp(backend(c), "triton_v2") == 0 && !lora_runner(c) && v2_mode(c);
}
static int l_overlap(const ctx *c)
{
    char limit[SETTING_VALUE_LEN] = "?";
    int_mul(per_batch(c), "2", limit, sizeof limit);
    const setting *loaded = &c->set->s[SET_LOADED_LORAS];
    return lora_on(c) && c->set->s[SET_LORA_OVERLAP].set && !(loaded->set && int_cmp(loaded->value, limit) <= 0);
}
static int l_spec_ngram(const ctx *c) { return lora_spec(c) != 0; }
static int l_spec_algorithm(const ctx *c) { return lora_spec(c) == 2; }
static int l_spec_trtllm(const ctx *c)
{
    return lora_spec(c) == 1 && (set_to(c, SET_MOE_RUNNER, "experimental_sgl_trtllm") ||
                                 set_to(c, SET_SPEC_MOE_RUNNER, "experimental_sgl_trtllm"));
}
static int l_spec_plan(const ctx *c)
{
    return lora_spec(c) == 1 && rules_env_bool(&c->set->s[SET_OVERLAP_PLAN_ENV]) == 1;
}
/* 'all' beside another module (a set: 'all all' is one) */
static int l_targets_all(const ctx *c)
{
    const setting *t = &c->set->s[SET_LORA_TARGETS];
    if (!lora_on(c) || !t->nvalues || !word_in("all", t->value)) return 0;
    for (const char *p = t->value;; p++) {
        size_t n = strcspn(p, " ");
        if (n != 3 || strncmp(p, "all", 3) != 0) return 1;
        if (!p[n]) return 0;
        p += n;
    }
}
static int l_no_paths(const ctx *c)
{
    const setting *rank = &c->set->s[SET_LORA_RANK];
    int rank_given = rank->set && strcmp(rank->value, "0") != 0; /* Python's truth */
    return lora_on(c) && !paths(c) && !(rank_given && c->set->s[SET_LORA_TARGETS].nvalues);
}
static int l_loaded_min(const ctx *c)
{
    const setting *loaded = &c->set->s[SET_LOADED_LORAS];
    return lora_on(c) && loaded->set && int_cmp(loaded->value, per_batch(c)) < 0;
}
static int l_loaded_paths(const ctx *c)
{
    const setting *loaded = &c->set->s[SET_LOADED_LORAS];
    char n[16];
    snprintf(n, sizeof n, "%d", paths(c));
    return lora_on(c) && loaded->set && int_cmp(n, loaded->value) > 0;
}
static int l_virtual(const ctx *c)
{
    return lora_on(c) && c->set->s[SET_LORA_VIRTUAL].set && strcmp(backend(c), "triton") != 0;
}
static int l_drain(const ctx *c)
{
    const setting *s = &c->set->s[SET_LORA_DRAIN];
    char v[SETTING_VALUE_LEN];
    return lora_on(c) && s->set && py_float(s->value, v, sizeof v) && !(strtod(v, NULL) >= 0.0); /* NaN too */
}
static int l_spec_runner(const ctx *c)
{
    const setting *s = &c->set->s[SET_SPEC_MOE_RUNNER];
    return c->set->s[SET_SPEC_ALGO].set && s->set && strncmp(s->value, "lora", 4) == 0;
}
static int l_runner_off(const ctx *c) { return lora_runner(c) && !lora_on(c); }
static int l_runner_backend(const ctx *c) { return lora_runner(c) && strcmp(backend(c), "triton_v2") != 0; }
static int l_runner_v2(const ctx *c) { return lora_runner(c) && v2_mode(c); }
static int l_runner_quant(const ctx *c)
{
    const setting *q = &c->set->s[SET_QUANTIZATION]; /* the flag: SGLang has not read the checkpoint's yet */
    return lora_runner(c) && q->set && !word_in(q->value, "fp8 modelopt_fp4");
}
static int l_runner_fp4(const ctx *c)
{
    return lora_runner(c) && set_to(c, SET_QUANTIZATION, "modelopt_fp4") && strcmp(runner(c), "lora_marlin") != 0;
}
static int l_runner_a2a(const ctx *c) { return lora_runner(c) && strcmp(quant_a2a_backend(c), "none") != 0; }
static int l_runner_elastic(const ctx *c) { return lora_runner(c) && c->set->s[SET_EP_JOIN_MODE].set; }
static int l_runner_placement(const ctx *c)
{
    const setting *init = &c->set->s[SET_INIT_EXPERT], *extra = &c->set->s[SET_EP_REDUNDANT];
    return lora_runner(c) && (c->set->s[SET_EPLB].set || (init->set && strcmp(init->value, "trivial") != 0) ||
                              (extra->set && int_cmp(extra->value, "0") > 0));
}

static int l_marlin(const ctx *c) { return set_to(c, SET_MOE_RUNNER, "experimental_sgl_marlin"); }

/* The LoRA manager's view of attention DP: *tp the attention TP size (tp // attn_dp_size // attn_cp_size), *cp the
 * attention CP size; 1 when DP attention is on: attention DP above one (0.5.21 reads --enable-dp-attention, which a
 * post-process turns off at --dp-size 1), or from 0.5.22 an elastic EP scale joiner (sglang 0.5.22:
 * python/sglang/srt/runtime_context.py:191-199, :73-76; 0.5.21: python/sglang/srt/layers/dp_attention.py:407-428,
 * python/sglang/srt/arg_groups/overrides.py:1305-1309, which keeps it on for a scale joiner too: a worker kvcheck
 * declines before, as it declines every elastic EP backend and SGLang refuses a join mode without one, a2a.c) */
static int manager_dp(const ctx *c, unsigned long *tp, unsigned long *cp)
{
    unsigned long adp, dp;
    settings_attn_dp(c->set, &adp, &dp);
    *cp = settings_size(c->set, SET_ATTN_CP);
    *tp = settings_size(c->set, SET_TP) / (adp ? adp : 1) / (*cp ? *cp : 1);
    return adp > 1 || (rel_since(c->rel, "0.5.22") && set_to(c, SET_EP_JOIN_MODE, "scale"));
}
static int m_dp(const ctx *c)
{
    unsigned long tp, cp;
    return lora_on(c) && manager_dp(c, &tp, &cp);
}
/* LoRAMemoryPool.supports_dp_attention_overlap_loading is False (sglang 0.5.21-0.5.23:
 * python/sglang/srt/lora/mem_pool.py:134) */
static int m_overlap(const ctx *c) { return m_dp(c) && c->set->s[SET_LORA_OVERLAP].set; }
static int m_widths(const ctx *c)
{
    unsigned long tp, cp;
    return lora_on(c) && manager_dp(c, &tp, &cp) && (tp != 1 || cp != 1);
}
/* only TritonLoRABackend sets supports_dp_attention (sglang 0.5.21-0.5.23:
 * python/sglang/srt/lora/backend/triton_backend.py:209; base_backend.py:35, 0.5.23: :37) */
static int m_backend(const ctx *c) { return m_dp(c) && strcmp(backend(c), "triton") != 0; }

#define TRTLLM_GIVER SET_COUNT           /* the row blames the runner flag that asks for experimental_sgl_trtllm */
#define PLACEMENT_GIVER (SET_COUNT + 1)  /* the row blames the first placement flag that is not trivial */
#define ADP_GIVER (SET_COUNT + 2)        /* the row blames the flag that gives the attention DP size */
#define LORA_GIVER (SET_COUNT + 3)       /* the row blames the flag that turns LoRA on */
static const setting *lora_blamed(const ctx *c, const flag_rule *r)
{
    const setting *s = c->set->s;
    if (r->blame == TRTLLM_GIVER)
        return set_to(c, SET_MOE_RUNNER, "experimental_sgl_trtllm") ? &s[SET_MOE_RUNNER] : &s[SET_SPEC_MOE_RUNNER];
    if (r->blame == ADP_GIVER) return settings_attn_dp_flag(c->set);
    if (r->blame == LORA_GIVER) return s[SET_ENABLE_LORA].set ? &s[SET_ENABLE_LORA] : &s[SET_LORA_PATHS];
    if (r->blame != PLACEMENT_GIVER) return &s[r->blame];
    if (s[SET_EPLB].set) return &s[SET_EPLB];
    return s[SET_INIT_EXPERT].set && strcmp(s[SET_INIT_EXPERT].value, "trivial") != 0 ? &s[SET_INIT_EXPERT]
                                                                                       : &s[SET_EP_REDUNDANT];
}

/* {limit}: 2 x --max-loras-per-batch; {loaded}, {per_batch}, {paths}, {backend}, {algorithm}, {runner}, {quant},
 * {a2a}, {spec_runner}, {mode}, {attn_tp}, {attn_cp}, {backend_repr}: the values SGLang's messages name */
static void lora_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    char v[SETTING_VALUE_LEN] = "?";
    int_mul(per_batch(c), "2", v, sizeof v);
    rule_field(f, "limit", "%s", v);
    rule_field(f, "loaded", "%s", value_or(c, SET_LOADED_LORAS, "None"));
    rule_field(f, "per_batch", "%s", per_batch(c));
    rule_field(f, "paths", "%d", paths(c));
    rule_field(f, "backend", "%s", backend(c));
    rules_spec_resolved(c, v, sizeof v);
    rule_field(f, "algorithm", "%s", v);
    rule_field(f, "runner", "%s", runner(c));
    rule_field(f, "quant", "%s", value_or(c, SET_QUANTIZATION, "None"));
    rule_field(f, "a2a", "%s", quant_a2a_backend(c));
    rule_field(f, "spec_runner", "%s", value_or(c, SET_SPEC_MOE_RUNNER, "None"));
    const char *mode = v2_mode(c);
    rule_field(f, "mode", "%s", mode ? mode : "");
    unsigned long tp, cp;
    manager_dp(c, &tp, &cp);
    rule_field(f, "attn_tp", "%lu", tp);
    rule_field(f, "attn_cp", "%lu", cp);
    rule_field(f, "backend_repr", "'%s'", backend(c)); /* repr of an argparse choice: ASCII, no quote */
}

#define SA_OLD "sglang 0.5.3rc2: python/sglang/srt/server_args.py:"
#define HOOK19 "0.5.19: python/sglang/srt/arg_groups/lora_hook.py:"
#define HOOK23 "sglang 0.5.23: python/sglang/srt/arg_groups/lora_hook.py:"
#define LORA_SPEC "ValueError: LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support "
#define SPEC_CITE "sglang " HOOK19 "204-225; 0.5.23: :278-299"
#define MANAGER "sglang 0.5.21: python/sglang/srt/lora/lora_manager.py:"

/* In SGLang's order; {value}: the blamed flag's */
static const flag_rule RULES[] = {
    /* before them, in the resolution: experimental_sgl_marlin's own policy, which kvcheck declines */
    {SINCE("0.5.16"), 0, l_marlin, SET_MOE_RUNNER, NULL, "sglang 0.5.16: python/sglang/srt/server_args.py:6097-6103, "
     "python/sglang/srt/lora/marlin_lora_temp/policy.py:13-51; 0.5.23: python/sglang/srt/arg_groups/"
     "validation_hook.py:565-575, lora/marlin_lora_temp/policy.py:15-54"},
    {EVER, 0, l_per_batch, SET_LORAS_PER_BATCH, "AssertionError: max_loras_per_batch must be positive",
     SA_OLD "2961; 0.5.18: :9339; " HOOK19 "22; 0.5.23: :36"},
    {SINCE("0.5.23"), 0, l_v2_backend, SET_LORA_BACKEND,
     "ValueError: --lora-backend triton_v2 does not yet support {mode}", HOOK23 "51-54, :20-30"},
    {SINCE("0.5.8"), 0, l_overlap, SET_LORA_OVERLAP,
     "AssertionError: Enabling LoRA overlap loading requires pinning LoRA adapter weights in CPU memory, so "
     "--max-loaded-loras must be less than or equal to double --max-loras-per-batch: {limit}",
     "sglang 0.5.8: python/sglang/srt/server_args.py:5005; 0.5.18: :9362; " HOOK19 "47; 0.5.23: :64"},
    {FROM_TO("0.5.5.post3", "0.5.18"), 0, l_spec_ngram, SET_SPEC_ALGO,
     "ValueError: Currently LoRA is only compatible with NGRAM speculative decoding.",
     "sglang 0.5.5.post3: python/sglang/srt/server_args.py:3879; 0.5.18: :9371-9374"},
    {SINCE("0.5.19"), 0, l_spec_algorithm, SET_SPEC_ALGO,
     "ValueError: LoRA is only compatible with NGRAM, EAGLE, NEXTN, EAGLE3, DFLASH, or DSPARK speculative decoding, "
     "not {algorithm}.",
     "sglang " HOOK19 "177-190; 0.5.23: :251-264"},
    /* then DSpark's SGLANG_RAGGED_VERIFY_MODE and --speculative-adaptive, workers kvcheck declines before */
    {SINCE("0.5.19"), 0, l_spec_trtllm, TRTLLM_GIVER,
     LORA_SPEC "the experimental_sgl_trtllm MoE runner: its TopK reads the LoRA config per forward, which the draft "
     "resolves against the target's after its own publish ended.", SPEC_CITE},
    {SINCE("0.5.19"), 0, l_spec_plan, SET_OVERLAP_PLAN_ENV,
     LORA_SPEC "SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1: LoRA batch preparation would run on the plan stream, unordered "
     "against in-flight forwards.", SPEC_CITE},
    {EVER, 0, l_targets_all, SET_LORA_TARGETS,
     "AssertionError: If 'all' is specified in --lora-target-modules, it should be the only module specified.",
     SA_OLD "3022; 0.5.18: :9446; " HOOK19 "132; 0.5.23: :147"},
    {EVER, 0, l_no_paths, SET_ENABLE_LORA,
     "AssertionError: When no initial --lora-paths is provided, you need to specify both --max-lora-rank and "
     "--lora-target-modules for LoRA initialization.",
     SA_OLD "3028; 0.5.18: :9451; " HOOK19 "137; 0.5.23: :152"},
    {EVER, 0, l_loaded_min, SET_LOADED_LORAS,
     "AssertionError: max_loaded_loras should be greater than or equal to max_loras_per_batch. "
     "max_loaded_loras={loaded}, max_loras_per_batch={per_batch}",
     SA_OLD "3034; 0.5.18: :9457; " HOOK19 "143; 0.5.23: :158"},
    {EVER, 0, l_loaded_paths, SET_LOADED_LORAS,
     "AssertionError: The number of LoRA paths should not exceed max_loaded_loras. max_loaded_loras={loaded}, "
     "lora_paths={paths}",
     SA_OLD "3038; 0.5.18: :9461; " HOOK19 "147; 0.5.23: :162"},
    {FROM_TO("0.5.11", "0.5.11"), 0, l_virtual, SET_LORA_VIRTUAL,
     "AssertionError: --lora-use-virtual-experts requires --lora-backend triton. Got: {backend}",
     "sglang 0.5.11: python/sglang/srt/server_args.py:7083"},
    {SINCE("0.5.12"), 0, l_drain, SET_LORA_DRAIN, "AssertionError: --lora-drain-wait-threshold must be non-negative.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:7543; 0.5.18: :9475; " HOOK19 "161; 0.5.23: :176"},
    /* check_lora_moe_runner_args, LoRA or not */
    {SINCE("0.5.23"), 0, l_spec_runner, SET_SPEC_MOE_RUNNER,
     "ValueError: --speculative-moe-runner-backend {spec_runner} is not supported: the LoRA MoE runner serves "
     "adapter traffic on the target model", HOOK23 "186-196"},
    {SINCE("0.5.23"), 0, l_runner_off, SET_MOE_RUNNER,
     "ValueError: --moe-runner-backend {runner} requires --enable-lora (or --lora-paths)", HOOK23 "200-203"},
    {SINCE("0.5.23"), 0, l_runner_backend, SET_MOE_RUNNER,
     "ValueError: --moe-runner-backend {runner} requires --lora-backend triton_v2", HOOK23 "204-207"},
    {SINCE("0.5.23"), 0, l_runner_v2, SET_MOE_RUNNER, "ValueError: --moe-runner-backend {runner} does not yet "
     "support {mode}", HOOK23 "208, :20-30"},
    {SINCE("0.5.23"), 0, l_runner_quant, SET_QUANTIZATION,
     "ValueError: --moe-runner-backend {runner} supports unquantized BF16, 128-block FP8 and ModelOpt NVFP4 MoE, "
     "got --quantization {quant}", HOOK23 "210-214"},
    {SINCE("0.5.23"), 0, l_runner_fp4, SET_MOE_RUNNER,
     "ValueError: --moe-runner-backend {runner} cannot run ModelOpt NVFP4 MoE; use --moe-runner-backend lora_marlin",
     HOOK23 "215-219"},
    {SINCE("0.5.23"), 0, l_runner_a2a, SET_MOE_RUNNER,
     "ValueError: --moe-runner-backend {runner} requires Standard dispatch, got --moe-a2a-backend {a2a}",
     HOOK23 "220-224"},
    {SINCE("0.5.23"), 0, l_runner_elastic, SET_EP_JOIN_MODE,
     "ValueError: --moe-runner-backend {runner} does not yet support elastic EP", HOOK23 "225-228"},
    {SINCE("0.5.23"), 0, l_runner_placement, PLACEMENT_GIVER,
     "ValueError: --moe-runner-backend {runner} currently requires trivial expert placement without EPLB or "
     "redundant experts", HOOK23 "229-238"},
    /* stage 1: LoRAManager.__init__, ahead of init_state */
    {SINCE("0.5.21"), 1, m_overlap, SET_LORA_OVERLAP,
     "ValueError: The configured LoRA memory pool does not support DP-attention overlap loading; use a pool that "
     "coordinates adapter slots across DP ranks or disable overlap loading", MANAGER "103-112; 0.5.23: :99-108"},
    {FROM_TO("0.5.21", "0.5.21"), 1, m_widths, ADP_GIVER, "ValueError: LoRA with DP attention requires --dp-size "
     "equal to --tp-size (got attention TP size {attn_tp} and attention CP size {attn_cp})", MANAGER "115-122"},
    {SINCE("0.5.22"), 1, m_widths, ADP_GIVER, "ValueError: LoRA with DP attention requires --attn-dp-size equal to "
     "--tp-size (got attention TP size {attn_tp} and attention CP size {attn_cp})",
     "sglang 0.5.22: python/sglang/srt/lora/lora_manager.py:111-118; 0.5.23: :111-118"},
    {SINCE("0.5.21"), 1, m_backend, SET_LORA_BACKEND,
     "ValueError: LoRA backend {backend_repr} does not support DP attention",
     MANAGER "141-144; 0.5.22: :137-140; 0.5.23: :140-143"},
    /* then init_state: the adapters, the target modules and their checks, the LoRA pool */
    {EVER, 1, lora_on, LORA_GIVER, NULL, "sglang 0.5.3rc2: python/sglang/srt/lora/lora_manager.py:81, :295, "
     "python/sglang/srt/model_executor/model_runner.py:345, :415, :432; 0.5.23: "
     "python/sglang/srt/lora/lora_manager.py:146, :699-741"},
};

kvc_status lora_check(const ctx *c)
{
    /* the environment SGLang reads on the way, with its warning for a value it does not take */
    if (lora_spec(c) == 1 && rel_since(c->rel, "0.5.19")) rules_env_warn(c, SET_OVERLAP_PLAN_ENV);
    if (rel_since(c->rel, "0.5.23") && (lora_runner(c) || (lora_on(c) && strcmp(backend(c), "triton_v2") == 0)))
        rules_env_warn(c, SET_LORA_OPTI_ENV);
    static const rule_hooks hooks = {"experimental_sgl_marlin's LoRA and expert-parallel policy "
                                     "(validate_experimental_sgl_marlin_server_args)", lora_fields, lora_blamed};
    return rules_table(c, RULES, COUNT_OF(RULES), 0, &hooks);
}

kvc_status lora_manager_check(const ctx *c)
{
    static const rule_hooks hooks = {"the LoRA manager's start-up (LoRAManager.init_state: the adapters it loads, the "
                                     "target modules it resolves against the model's modules and checks, the LoRA "
                                     "memory pool)", lora_fields, lora_blamed};
    return rules_table(c, RULES, COUNT_OF(RULES), 1, &hooks);
}

size_t lora_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
