/* Flags SGLang serves only for other models, which it refuses for every
 * model kvcheck judges: LayerNorm sequence parallelism (Qwen3 and, from
 * 0.5.23, Muse Spark; 0.5.19+) and the encoder's bounded SWA replay
 * (DeepSeek-V4.1, which kvcheck declines; 0.5.21+), the PLE embedding's
 * offload (Qwen4-Exp; 0.5.20+), and the language model alone (0.5.18+;
 * DeepSeek-V4 from 0.5.22, without PD). Each is refused at its place in
 * SGLang's resolution: DeepSeek-V4's model hook, right after the
 * speculative hook, the encoder disaggregation handler, 0.5.23's model
 * capability adjustments, and the target model's load. */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <string.h>

static int given(const ctx *c, setting_key k) { return c->set->s[k].set; }
static int o_replay(const ctx *c) { return given(c, SET_ENCODER_REPLAY); }
/* the capability adjustments return first for an instance connector's model path (sglang 0.5.23: python/sglang/srt/
 * arg_groups/model_hook.py:759-761) */
static int o_replay_loaded(const ctx *c) { return o_replay(c) && !instance_model_path(c); }
static int o_megamoe_alone(const ctx *c) { return given(c, SET_LAYERNORM_SP_MEGAMOE) && !given(c, SET_LAYERNORM_SP); }
static int o_megamoe(const ctx *c) { return given(c, SET_LAYERNORM_SP_MEGAMOE); }
static int o_layernorm(const ctx *c) { return given(c, SET_LAYERNORM_SP); }
static int o_ple(const ctx *c) { return given(c, SET_PLE_OFFLOAD); }
/* --language-model-only: its handler's checks after the five multimodal flags it cannot be combined with (which
 * kvcheck does not read: those flags warn as unmodelled), for the target's "architectures" list, which kvcheck has
 * whole only where it holds one name */
static int o_lm_only(const ctx *c) { return given(c, SET_LANGUAGE_MODEL_ONLY); }
static int o_lm_pd(const ctx *c) { return o_lm_only(c) && pd_worker(c); }
/* V4.1 text-only workers use PD's usual transfer (sglang 0.5.22: python/sglang/srt/arg_groups/model_hook.py:
 * 1072-1073) */
static int o_lm_pd_v41(const ctx *c) { return o_lm_pd(c) && strcmp(c->model->model_type, "deepseek_v41") != 0; }
static int o_lm_archs(const ctx *c) { return o_lm_only(c) && c->model->narchitectures > 1; }
static int o_lm_arch(const ctx *c)
{
    return o_lm_only(c) && strcmp(c->model->architecture, "DeepseekV4ForCausalLM") != 0;
}

#define REPLAY_MESSAGE "ValueError: --enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"
#define LAYERNORM_CITE(a) "sglang " a ": python/sglang/srt/arg_groups/layernorm_sp_hook.py:"
#define LM_PD "ValueError: --language-model-only is incompatible with --disaggregation-mode prefill/decode"
#define LM_ARCH "ValueError: --language-model-only does not support ['{arch}']. Supported: "
#define LM_ARCHS_CITE                                                                                                  \
    "sglang 0.5.18: python/sglang/srt/server_args.py:7681-7686, :7657; 0.5.19: python/sglang/srt/arg_groups/"        \
    "model_hook.py:854-861, python/sglang/srt/server_args.py:3775; 0.5.20: python/sglang/srt/arg_groups/"            \
    "model_hook.py:922-929, python/sglang/srt/server_args.py:333-337; 0.5.23: python/sglang/srt/arg_groups/"          \
    "model_hook.py:1102-1109, python/sglang/srt/server_args.py:335-340"
static const flag_rule RULES[] = {
    {SINCE("0.5.21"), MODEL_ONLY_DSV4, o_replay, SET_ENCODER_REPLAY, REPLAY_MESSAGE,
     "sglang 0.5.21: python/sglang/srt/arg_groups/deepseek_v4_hook.py:169-180, python/sglang/srt/arg_groups/"
     "model_hook.py:432-441; 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py:270-281"},
    /* the hook's first checks (the flag exists only in 0.5.23), then validate_layernorm_sp's first */
    {SINCE("0.5.23"), MODEL_ONLY_SPEC, o_megamoe_alone, SET_LAYERNORM_SP_MEGAMOE,
     "ValueError: --enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp.", LAYERNORM_CITE("0.5.23") "21-27"},
    {SINCE("0.5.23"), MODEL_ONLY_SPEC, o_megamoe, SET_LAYERNORM_SP_MEGAMOE,
     "ValueError: --enable-megamoe-for-layernorm-sp supports only Muse Spark.", LAYERNORM_CITE("0.5.23") "128-129"},
    {FROM_TO("0.5.19", "0.5.22"), MODEL_ONLY_SPEC, o_layernorm, SET_LAYERNORM_SP,
     "ValueError: --enable-layernorm-sp is only supported for ['Qwen3ForCausalLM']; got {arch}.",
     LAYERNORM_CITE("0.5.19") "21-46, python/sglang/srt/layers/layernorm_sp.py:50; 0.5.22: python/sglang/srt/"
     "layers/layernorm_sp.py:53"},
    {SINCE("0.5.23"), MODEL_ONLY_SPEC, o_layernorm, SET_LAYERNORM_SP,
     "ValueError: --enable-layernorm-sp is only supported for ['MuseSparkForConditionalGeneration', "
     "'Qwen3ForCausalLM']; got {arch}.",
     LAYERNORM_CITE("0.5.23") "23-41, :130-134, python/sglang/srt/layers/layernorm_sp.py:54"},
    /* the encoder disaggregation handler's first call, after the load format's handler */
    {FROM_TO("0.5.18", "0.5.21"), MODEL_ONLY_ENCODER, o_lm_pd, SET_LANGUAGE_MODEL_ONLY, LM_PD,
     "sglang 0.5.18: python/sglang/srt/server_args.py:7676-7680, :7689; 0.5.19: python/sglang/srt/arg_groups/"
     "model_hook.py:849-853; 0.5.21: :983-987"},
    {SINCE("0.5.22"), MODEL_ONLY_ENCODER, o_lm_pd_v41, SET_LANGUAGE_MODEL_ONLY, LM_PD,
     "sglang 0.5.22: python/sglang/srt/arg_groups/model_hook.py:1071-1077; 0.5.23: :1095-1101"},
    {SINCE("0.5.18"), MODEL_ONLY_ENCODER, o_lm_archs, SET_LANGUAGE_MODEL_ONLY, NULL, LM_ARCHS_CITE},
    {FROM_TO("0.5.18", "0.5.19"), MODEL_ONLY_ENCODER, o_lm_only, SET_LANGUAGE_MODEL_ONLY,
     LM_ARCH "['MuseGlimmerForConditionalGeneration'].", LM_ARCHS_CITE},
    {FROM_TO("0.5.20", "0.5.21"), MODEL_ONLY_ENCODER, o_lm_only, SET_LANGUAGE_MODEL_ONLY,
     LM_ARCH "['MuseGlimmerForConditionalGeneration', 'Cosmos3ForConditionalGeneration', "
     "'Cosmos3EdgeForConditionalGeneration'].", LM_ARCHS_CITE},
    {SINCE("0.5.22"), MODEL_ONLY_ENCODER, o_lm_arch, SET_LANGUAGE_MODEL_ONLY,
     LM_ARCH "['DeepseekV4ForCausalLM', 'MuseGlimmerForConditionalGeneration', 'Cosmos3ForConditionalGeneration', "
     "'Cosmos3EdgeForConditionalGeneration'].", LM_ARCHS_CITE},
    {SINCE("0.5.23"), MODEL_ONLY_CAPABILITY, o_replay_loaded, SET_ENCODER_REPLAY, REPLAY_MESSAGE,
     "sglang 0.5.23: python/sglang/srt/arg_groups/model_hook.py:1038-1045"},
    /* the target's load, before its architecture and quantization are read (not the draft's) */
    {SINCE("0.5.20"), MODEL_ONLY_LOAD, o_ple, SET_PLE_OFFLOAD,
     "ValueError: --ple-offload-embedding only supports Qwen4ExpForConditionalGeneration",
     "sglang 0.5.20: python/sglang/srt/model_executor/model_runner_components/load_model_utils.py:272-275; 0.5.22: "
     ":279-282; 0.5.23: the same"},
};
#undef LAYERNORM_CITE
#undef LM_PD
#undef LM_ARCH
#undef LM_ARCHS_CITE

static void fields(const ctx *c, const flag_rule *row, rule_fields *out)
{
    (void)row;
    rule_field(out, "arch", "%s", c->model->architecture);
}

kvc_status model_only_check(const ctx *c, enum model_only_stage stage)
{
    /* the table's one row with no message: a config with several architectures */
    static const rule_hooks hooks = {"--language-model-only's architecture check, of every name in the model's "
                                     "\"architectures\" list (kvcheck reads only the first)", fields, NULL};
    return rules_table(c, RULES, COUNT_OF(RULES), (int)stage, &hooks);
}

size_t model_only_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
