/* Flags SGLang serves only for other models, which it refuses for every
 * model kvcheck judges: LayerNorm sequence parallelism (Qwen3 and, from
 * 0.5.23, Muse Spark; 0.5.19+) and the encoder's bounded SWA replay
 * (DeepSeek-V4.1, which kvcheck declines; 0.5.21+), and the PLE
 * embedding's offload (Qwen4-Exp; 0.5.20+). Each is refused at its place in
 * SGLang's resolution: DeepSeek-V4's model hook, right after the
 * speculative hook, 0.5.23's model capability adjustments, and the target
 * model's load. */
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

#define REPLAY_MESSAGE "ValueError: --enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"
#define LAYERNORM_CITE(a) "sglang " a ": python/sglang/srt/arg_groups/layernorm_sp_hook.py:"
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
    {SINCE("0.5.23"), MODEL_ONLY_CAPABILITY, o_replay_loaded, SET_ENCODER_REPLAY, REPLAY_MESSAGE,
     "sglang 0.5.23: python/sglang/srt/arg_groups/model_hook.py:1038-1045"},
    /* the target's load, before its architecture and quantization are read (not the draft's) */
    {SINCE("0.5.20"), MODEL_ONLY_LOAD, o_ple, SET_PLE_OFFLOAD,
     "ValueError: --ple-offload-embedding only supports Qwen4ExpForConditionalGeneration",
     "sglang 0.5.20: python/sglang/srt/model_executor/model_runner_components/load_model_utils.py:272-275; 0.5.22: "
     ":279-282; 0.5.23: the same"},
};
#undef LAYERNORM_CITE

static void fields(const ctx *c, const flag_rule *row, rule_fields *out)
{
    (void)row;
    rule_field(out, "arch", "%s", c->model->architecture);
}

kvc_status model_only_check(const ctx *c, enum model_only_stage stage)
{
    static const rule_hooks hooks = {NULL, fields, NULL};
    return rules_table(c, RULES, COUNT_OF(RULES), (int)stage, &hooks);
}

size_t model_only_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
