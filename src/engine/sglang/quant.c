/* SGLang's rules for a worker's quantization, release by release: the
 * method SGLang resolves from the checkpoint and --quantization
 * (_verify_quantization, ModelOpt's parse and override, SM100's server
 * defaults), what the MoE runner and the model loader refuse for it, and
 * the KV dtype a --kv-cache-dtype of auto then gives the pool. rules.c
 * calls these steps in SGLang's order (rules.h). */
#include "engine/sglang/rules.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

/* The quantization methods whose model-loader check kvcheck models: next
 * after the model class, _get_quantization_config builds the method's
 * config from the checkpoint's quantization config (its own checks,
 * `config_check`), then refuses a GPU below the method's minimum
 * capability, then a model dtype outside its activation dtypes (sglang
 * 0.5.3rc2: python/sglang/srt/model_loader/loader.py:162-193; 0.5.23:
 * :173-272). */
/* What a method's config class makes of the checkpoint's quantization config (config_check). */
enum config_verdict { CONFIG_OK, CONFIG_REFUSED, CONFIG_UNJUDGED };
typedef enum config_verdict config_check_fn(unsigned rel, const model_info *m, char *msg, size_t size);
static config_check_fn fp8_config_check, modelopt_fp8_check, modelopt_fp4_check;
static const char MODELOPT_FP8_CITE[] = "ModelOptFp8Config, sglang 0.5.3rc2: python/sglang/srt/layers/quantization/"
                                        "modelopt_quant.py:93-178; 0.5.23: :427-525";
static const char MODELOPT_FP4_CITE[] = "ModelOptFp4Config, sglang 0.5.3rc2: python/sglang/srt/layers/quantization/"
                                        "modelopt_quant.py:510-650; 0.5.23: :1476-1700";
static const struct quant_row {
    span when;
    const char *method;  /* ModelConfig.quantization */
    const char *dtypes;  /* the model dtypes it runs (MODEL_DTYPES values), space-separated */
    const char *shown;   /* its activation dtypes as SGLang prints them */
    unsigned capability; /* the minimum, major * 10 + minor */
    int online;          /* --quantization builds it on a checkpoint without a quantization config (no config files) */
    /* the config class's checks of a config.json quantization config (into msg); NULL: none modelled */
    config_check_fn *config_check;
    const char *cite;
} QUANT_LOADER[] = {
    {SINCE("0.5.3rc2"), "fp8", "bfloat16 float16", "[torch.bfloat16, torch.float16]", 80, 1, fp8_config_check,
     "Fp8Config, sglang 0.5.3rc2: python/sglang/srt/layers/quantization/fp8.py:112-177; 0.5.23: :188-387"},
    /* "modelopt" is ModelOptFp8Config, but in 0.5.3.post1-0.5.3.post3, which register it under modelopt_fp8 only
     * (sglang 0.5.3rc2: python/sglang/srt/layers/quantization/__init__.py:75; 0.5.3.post1: :75; 0.5.4: :71) */
    {UNTIL("0.5.3"), "modelopt", "bfloat16 float16", "[torch.bfloat16, torch.float16]", 89, 0, modelopt_fp8_check,
     MODELOPT_FP8_CITE},
    {SINCE("0.5.4"), "modelopt", "bfloat16 float16", "[torch.bfloat16, torch.float16]", 89, 0, modelopt_fp8_check,
     MODELOPT_FP8_CITE},
    {SINCE("0.5.3.post1"), "modelopt_fp8", "bfloat16 float16", "[torch.bfloat16, torch.float16]", 89, 0,
     modelopt_fp8_check, MODELOPT_FP8_CITE},
    /* the minimum capability is 100 to 0.5.12.post1 (sglang 0.5.12.post1: modelopt_quant.py:1135), 80 from 0.5.13
     * (sglang 0.5.13: :1205) */
    {UNTIL("0.5.12.post1"), "modelopt_fp4", "bfloat16 float16",
     "[torch.bfloat16, torch.float16, torch.float8_e4m3fn]", 100, 0, modelopt_fp4_check, MODELOPT_FP4_CITE},
    {SINCE("0.5.13"), "modelopt_fp4", "bfloat16 float16", "[torch.bfloat16, torch.float16, torch.float8_e4m3fn]",
     80, 0, modelopt_fp4_check, MODELOPT_FP4_CITE},
};
static const char QUANT_LOADER_CITE[] =
    "sglang 0.5.3rc2: python/sglang/srt/model_loader/loader.py:162-193; 0.5.23: :173-272";
static const char PETIT_CITE[] = "PetitNvFp4Config: sglang 0.5.3rc2: python/sglang/srt/layers/quantization/"
                                 "petit.py:72, :109-110; 0.5.9: :73, :109-111";
static const char QUANT_VERIFY_CITE[] =
    "_verify_quantization, sglang 0.5.3rc2: python/sglang/srt/configs/model_config.py:529-621; 0.5.23: :2000-2171";
/* On SM100 SGLang's server arguments set --quantization for the DeepSeek family's architectures (the guard of
 * their defaults: rules_arch_defaults) where none is given: the config's quant_method (fp8 whatever it is in
 * 0.5.4.post1-0.5.4.post3), and without a quantization config for DeepSeek V3 (`archs`) fp8 (when the MoE runner is
 * auto; from 0.5.11 when the checkpoint's weights are FP8, which kvcheck does not follow), for the others none; for
 * DSA models from 0.5.6 (sglang 0.5.5: python/sglang/srt/server_args.py:898-941 skips them). */
static const struct {
    span when;
    const char *archs; /* fp8 without a quantization config, as SGLang names the model */
    span v32;          /* a DeepSeek-V3.2 config is DeepseekV3ForCausalLM to 0.5.11, so it is one of `archs` */
    const char *not_guarded; /* DSA defaults (rules_arch_defaults) the server arguments' guard does not list */
    const char *dsa_since;
    const char *cite;
} SM100_FP8 = {SINCE("0.5.4.post1"), "DeepseekV3ForCausalLM", UNTIL("0.5.11"), "DeepseekV3ForCausalLMNextN", "0.5.6",
               "sglang 0.5.4.post1: python/sglang/srt/server_args.py:877-889; 0.5.9: :1288-1301; 0.5.23: "
               "python/sglang/srt/arg_groups/overrides.py:745-760, :787-809"};

/* 1 when `key` is unset or set to `value`. Pure. */
static int unset_or(const settings *set, setting_key key, const char *value)
{
    return !set->s[key].set || strcmp(set->s[key].value, value) == 0;
}

/* 1 when the MoE runner is SGLang's default and, from 0.5.4.post2, there is no all-to-all backend: SM100's DeepSeek
 * V3 defaults of 0.5.4.post1-0.5.4.post3 ask for it (sglang 0.5.4.post1: python/sglang/srt/server_args.py:877-890;
 * 0.5.4.post2: :901-913). Pure. */
static int sm100_moe_default(const ctx *c)
{
    return unset_or(c->set, SET_MOE_RUNNER, "auto") &&
           (rel_until(c->rel, "0.5.4.post1") || unset_or(c->set, SET_MOE_A2A, "none"));
}

/* 1 on SM100 in the releases whose server arguments have SM100_FP8's defaults. Pure. */
static int sm100_defaults(const ctx *c)
{
    return !c->gpu->hip && c->gpu->major == 10 && in_span(c->rel, SM100_FP8.when);
}

/* 1 when SGLang's server arguments set this worker's --quantization (SM100_FP8): in 0.5.4.post1-0.5.4.post3 only
 * with the MoE runner's default. Pure. */
static int sm100_sets_quant(const ctx *c)
{
    const char *arch = c->model->architecture;
    return sm100_defaults(c) && (word_in(arch, SM100_FP8.archs) || rules_arch_defaults(arch, c->rel)) &&
           !word_in(arch, SM100_FP8.not_guarded) && (!c->dsa || rel_since(c->rel, SM100_FP8.dsa_since)) &&
           (rel_since(c->rel, "0.5.5") || sm100_moe_default(c));
}

/* 1 when SM100_FP8 sets fp8 for this worker where the model has no quantization config (DeepSeek V3's). Pure. */
static int sm100_fp8_default(const ctx *c)
{
    const char *arch = c->model->architecture;
    return sm100_sets_quant(c) &&
           (word_in(arch, SM100_FP8.archs) ||
            (strcmp(arch, "DeepseekV32ForCausalLM") == 0 && in_span(c->rel, SM100_FP8.v32)));
}

/* The MoE runner checks of SGLang's server arguments (_handle_moe_kernel_config; handle_moe_kernel_config in
 * arg_groups/moe_hook.py from 0.5.19), in their order: for each runner, the --quantization it takes ("None": none
 * given), the expert parallel size (1 or the tensor parallel size; 1 for cutlass on fp8) and flashinfer_cutedsl's
 * all-to-all backends. A message's fields are SGLang's, as Python prints them; its "\n" is a space. */
enum moe_test {
    MOE_QUANT,      /* the quantization is in `values` */
    MOE_HYBRID,     /* the same, or the checkpoint is a hybrid NVFP4 one (nvfp4_moe_meta: MIXED_PRECISION) */
    MOE_EP_TP,      /* --ep-size is 1 or --tp-size */
    MOE_EP_ONE,     /* --ep-size is 1 where the quantization is in `values` */
    MOE_A2A,        /* --moe-a2a-backend is in `values` */
};
static const struct moe_check {
    span when;
    const char *runners; /* space-separated */
    enum moe_test test;
    const char *values;
    const char *message;
    const char *cite;
} MOE_CHECKS[] = {
#define MOE_EP_MESSAGE "The expert parallel size must be 1 or the same as the tensor parallel size"
    {FROM_TO("0.5.3rc2", "0.5.5"), "flashinfer_cutlass", MOE_QUANT, "modelopt_fp4",
     "modelopt_fp4 quantization is required for Flashinfer MOE", "sglang 0.5.3rc2: python/sglang/srt/server_args.py:"
     "968-971; 0.5.5: :1394-1397"},
    {FROM_TO("0.5.5.post1", "0.5.5.post3"), "flashinfer_cutlass", MOE_QUANT, "modelopt_fp4",
     "modelopt_fp4 quantization is required for Flashinfer Cutlass MOE", "sglang 0.5.5.post1: python/sglang/srt/"
     "server_args.py:1373-1376"},
    {FROM_TO("0.5.6", "0.5.9"), "flashinfer_cutlass", MOE_QUANT, "modelopt_fp4 modelopt_fp8 None",
     "Invalid quantization '{quantization}'.  FlashInfer Cutlass MOE supports only: 'modelopt_fp4', 'modelopt_fp8', "
     "or bfloat16 (None).", "sglang 0.5.6: python/sglang/srt/server_args.py:1510-1515; 0.5.9: :2136-2141"},
    {SINCE("0.5.10"), "flashinfer_cutlass", MOE_QUANT, "modelopt_fp4 modelopt_fp8 modelopt_mixed None",
     "Invalid quantization '{quantization}'.  FlashInfer Cutlass MOE supports only: 'modelopt_fp4', 'modelopt_fp8', "
     "'modelopt_mixed', or bfloat16 (None).", "sglang 0.5.10: python/sglang/srt/server_args.py:2667-2673; 0.5.23: "
     "python/sglang/srt/arg_groups/moe_hook.py:80-88"},
    {SINCE("0.5.3rc2"), "flashinfer_cutlass", MOE_EP_TP, NULL, MOE_EP_MESSAGE, "sglang 0.5.3rc2: python/sglang/srt/"
     "server_args.py:972-975; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:89-92"},
    {FROM_TO("0.5.11", "0.5.14"), "flashinfer_cutedsl", MOE_QUANT, "modelopt_fp4",
     "Invalid quantization '{quantization}'.  FlashInfer CuteDSL MOE currently supports only: 'modelopt_fp4'.",
     "sglang 0.5.11: python/sglang/srt/server_args.py:2974-2977; 0.5.14: :5119-5122"},
    {FROM_TO("0.5.15", "0.5.15.post1"), "flashinfer_cutedsl", MOE_HYBRID, "modelopt_fp4",
     "Invalid quantization '{quantization}'.  FlashInfer CuteDSL MOE currently supports only: 'modelopt_fp4' or "
     "hybrid NVFP4 models.", "sglang 0.5.15: python/sglang/srt/server_args.py:4941-4945"},
    {FROM_TO("0.5.16", "0.5.17"), "flashinfer_cutedsl", MOE_HYBRID, "modelopt_fp4 modelopt_mixed",
     "Invalid quantization '{quantization}'.  FlashInfer CuteDSL MOE currently supports only: 'modelopt_fp4', "
     "'modelopt_mixed' (with NVFP4 MoE layers), or hybrid NVFP4 models.", "sglang 0.5.16: python/sglang/srt/"
     "server_args.py:5669-5673"},
    {SINCE("0.5.18"), "flashinfer_cutedsl", MOE_HYBRID, "modelopt_fp4 modelopt_mixed nvfp4_online",
     "Invalid quantization '{quantization}'.  FlashInfer CuteDSL MOE currently supports only: 'modelopt_fp4', "
     "'modelopt_mixed' (with NVFP4 MoE layers), 'nvfp4_online', or hybrid NVFP4 models.", "sglang 0.5.18: "
     "python/sglang/srt/server_args.py:6747-6751; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:96-101"},
    {SINCE("0.5.11"), "flashinfer_cutedsl", MOE_EP_TP, NULL, MOE_EP_MESSAGE, "sglang 0.5.11: python/sglang/srt/"
     "server_args.py:2978-2981; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:102-105"},
    {FROM_TO("0.5.11", "0.5.12.post1"), "flashinfer_cutedsl", MOE_A2A, "none deepep",
     "flashinfer_cutedsl supports moe_a2a_backend='none' (standard path) or 'deepep' (DeepEP low-latency path), got "
     "'{moe_a2a_backend}'.", "sglang 0.5.11: python/sglang/srt/server_args.py:2982-2987"},
    {SINCE("0.5.13"), "flashinfer_cutedsl", MOE_A2A, "none deepep flashinfer",
     "flashinfer_cutedsl supports moe_a2a_backend='none', 'deepep', or 'flashinfer', got '{moe_a2a_backend}'.",
     "sglang 0.5.13: python/sglang/srt/server_args.py:3382-3389; 0.5.23: "
     "python/sglang/srt/arg_groups/moe_hook.py:106-113"},
    {FROM_TO("0.5.3rc2", "0.5.4.post1"), "flashinfer_trtllm", MOE_QUANT, "modelopt_fp4 fp8",
     "modelopt_fp4 or fp8 quantization is required for Flashinfer TRTLLM MoE", "sglang 0.5.3rc2: python/sglang/srt/"
     "server_args.py:977-980; 0.5.4.post1: :1311-1315"},
    {FROM_TO("0.5.4.post2", "0.5.6.post2"), "flashinfer_trtllm", MOE_QUANT, "modelopt_fp4 modelopt_fp8 fp8",
     "modelopt_fp4, modelopt_fp8 or fp8 quantization is required for Flashinfer TRTLLM MoE", "sglang 0.5.4.post2: "
     "python/sglang/srt/server_args.py:1361-1366; 0.5.6: :1521-1526"},
    {FROM_TO("0.5.7", "0.5.9"), "flashinfer_trtllm", MOE_QUANT, "modelopt_fp4 fp8 modelopt_fp8 compressed-tensors None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', 'fp8', "
     "'modelopt_fp8', 'compressed-tensors', or bfloat16 (None).", "sglang 0.5.7: python/sglang/srt/"
     "server_args.py:1831-1838; 0.5.9: :2147-2154"},
    /* mxfp8 is taken but not named */
    {FROM_TO("0.5.10", "0.5.12.post1"), "flashinfer_trtllm", MOE_QUANT,
     "modelopt_fp4 fp8 mxfp8 modelopt_fp8 modelopt_mixed compressed-tensors None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', 'fp8', "
     "'modelopt_fp8', 'modelopt_mixed', "
     "'compressed-tensors', or bfloat16 (None).", "sglang 0.5.10: python/sglang/srt/server_args.py:"
     "2679-2688; 0.5.12: :3113-3122"},
    {FROM_TO("0.5.13", "0.5.13.post1"), "flashinfer_trtllm experimental_sgl_trtllm", MOE_QUANT,
     "modelopt_fp4 fp8 mxfp8 modelopt_fp8 modelopt_mixed compressed-tensors None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', 'fp8', "
     "'modelopt_fp8', 'modelopt_mixed', "
     "'compressed-tensors', or bfloat16 (None).", "sglang 0.5.13: python/sglang/srt/server_args.py:"
     "3395-3404"},
    {SINCE("0.5.14"), "flashinfer_trtllm experimental_sgl_trtllm", MOE_QUANT,
     "modelopt_fp4 nvfp4_online fp8 mxfp8 modelopt_fp8 modelopt_mixed compressed-tensors None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM MOE supports only: 'modelopt_fp4', 'nvfp4_online', "
     "'fp8', 'modelopt_fp8', 'modelopt_mixed', 'compressed-tensors', or bfloat16 (None).", "sglang 0.5.14: "
     "python/sglang/srt/server_args.py:5140-5150; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:123-135"},
    {FROM_TO("0.5.10", "0.5.10.post1"), "flashinfer_trtllm_routed", MOE_QUANT, "fp8 mxfp8 None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', 'mxfp8', or "
     "bfloat16 (None).", "sglang 0.5.10: python/sglang/srt/server_args.py:2694-2699"},
    {FROM_TO("0.5.11", "0.5.13.post1"), "flashinfer_trtllm_routed", MOE_QUANT, "fp8 mxfp8 modelopt_fp4 None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', 'mxfp8', "
     "'modelopt_fp4', or bfloat16 "
     "(None).", "sglang 0.5.11: python/sglang/srt/server_args.py:3009-3015; 0.5.13: :3410-3416"},
    {FROM_TO("0.5.14", "0.5.15.post1"), "flashinfer_trtllm_routed", MOE_QUANT,
     "fp8 mxfp8 modelopt_fp4 nvfp4_online None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', 'mxfp8', "
     "'modelopt_fp4', 'nvfp4_online', "
     "or bfloat16 (None).", "sglang 0.5.14: python/sglang/srt/server_args.py:5156-5163; 0.5.15: "
     ":4971-4978"},
    {FROM_TO("0.5.16", "0.5.22"), "flashinfer_trtllm_routed", MOE_QUANT,
     "fp8 mxfp8 modelopt_fp4 modelopt_mixed nvfp4_online None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', 'mxfp8', "
     "'modelopt_fp4', 'modelopt_mixed', "
     "'nvfp4_online', or bfloat16 (None).", "sglang 0.5.16: python/sglang/srt/server_args.py:"
     "5699-5706; 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:95-104"},
    {SINCE("0.5.23"), "flashinfer_trtllm_routed", MOE_QUANT,
     "fp8 mxfp8 modelopt_fp4 modelopt_mixed nvfp4_online minimax_m3_nvfp4 None",
     "Invalid quantization '{quantization}'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', 'mxfp8', "
     "'modelopt_fp4', 'modelopt_mixed', "
     "'nvfp4_online', 'minimax_m3_nvfp4', or bfloat16 (None).", "sglang 0.5.23: python/sglang/srt/"
     "arg_groups/moe_hook.py:137-148"},
    {FROM_TO("0.5.4.post3", "0.5.8.post1"), "cutlass", MOE_EP_ONE, "fp8",
     "FP8 Cutlass MoE is only supported with ep_size == 1", "sglang 0.5.4.post3: python/sglang/srt/server_args.py:"
     "1392-1395; 0.5.8.post1: :1981-1984"},
    {SINCE("0.5.9"), "cutlass", MOE_EP_ONE, "fp8 mxfp8", "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1",
     "sglang 0.5.9: python/sglang/srt/server_args.py:2169-2175; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:"
     "155-163"},
#undef MOE_EP_MESSAGE
};

/* The runners SGLang's server arguments pick where --moe-runner-backend is auto, before their checks: DeepSeek V3's
 * (not DSA's) on SM100 in 0.5.4.post1-0.5.4.post3 is flashinfer_trtllm whatever the quantization (sm100_sets_quant;
 * sglang 0.5.4.post1: python/sglang/srt/server_args.py:877-890; 0.5.4.post2: :901-913); modelopt_fp4's on SM120
 * (from 0.5.22 also SM110) is flashinfer_cutlass (sglang 0.5.13: python/sglang/srt/server_args.py:3351-3360; 0.5.23:
 * python/sglang/srt/arg_groups/overrides.py:1449-1500). The others they pick pass the checks. */
static const span SM100_TRTLLM_RUNNER = FROM_TO("0.5.4.post1", "0.5.4.post3");
static const struct {
    span when;
    unsigned majors; /* the compute capability majors, a bit each */
} SM120_FP4_RUNNER[] = {{FROM_TO("0.5.13", "0.5.21"), 1u << 12}, {SINCE("0.5.22"), 1u << 11 | 1u << 12}};

/* The quantizations for which SGLang's server arguments pick the runner themselves, overriding some that are given
 * (mxfp8 from 0.5.9; nvfp4_online from 0.5.14, which also refuses GPUs other than SM100: sglang 0.5.9: python/sglang/
 * srt/server_args.py:2128-2134; 0.5.14: :5064-5080; 0.5.23: python/sglang/srt/arg_groups/overrides.py:1449-1530);
 * from 0.5.18 flashinfer_cutedsl also refuses the deepep all-to-all backend for nvfp4_online or where the
 * SGLANG_FLASHINFER_NVFP4_PER_TOKEN_ACTIVATION environment variable, which kvcheck does not read, is set. */
static const struct {
    span when;
    const char *method;
} RUNNER_FORCED[] = {{SINCE("0.5.9"), "mxfp8"}, {SINCE("0.5.14"), "nvfp4_online"}};
static const span CUTEDSL_PER_TOKEN = SINCE("0.5.18");
/* From 0.5.18 --moe-runner-backend megamoe is, first of all, the auto runner with the megamoe all-to-all backend
 * (sglang 0.5.18: python/sglang/srt/server_args.py:3790-3802; 0.5.23: python/sglang/srt/arg_groups/
 * mega_moe_hook.py:259-276). */
static const span MEGAMOE_ALIAS = SINCE("0.5.18");

/* 1 when the runner flag is MEGAMOE_ALIAS's megamoe. Pure. */
static int megamoe_alias(const ctx *c)
{
    const setting *runner = &c->set->s[SET_MOE_RUNNER];
    return runner->set && strcmp(runner->value, "megamoe") == 0 && in_span(c->rel, MEGAMOE_ALIAS);
}

/* 1 when the runner flag is given and not SGLang's auto (nor the megamoe alias of it). Pure. */
static int runner_given(const ctx *c)
{
    const setting *runner = &c->set->s[SET_MOE_RUNNER];
    return runner->set && strcmp(runner->value, "auto") != 0 && !megamoe_alias(c);
}

const char *quant_a2a_backend(const ctx *c)
{
    const setting *a2a = &c->set->s[SET_MOE_A2A];
    if (megamoe_alias(c)) return "megamoe";
    return a2a->set ? a2a->value : "none";
}

/* The MoE runner SGLang's checks see: the flag's, else the one it picks (SM100_TRTLLM_RUNNER, SM120_FP4_RUNNER; not
 * for DeepSeek-V4, whose own adjustments pick marlin, flashinfer_mxfp4 or flashinfer_trtllm_routed first) for the
 * quantization `quant` ("None": none); "auto" where no check applies. Pure. */
static const char *moe_runner(const ctx *c, const char *quant)
{
    if (runner_given(c)) return c->set->s[SET_MOE_RUNNER].value;
    if (in_span(c->rel, SM100_TRTLLM_RUNNER) && sm100_sets_quant(c) && !c->dsa) return "flashinfer_trtllm";
    for (size_t i = 0; i < COUNT_OF(SM120_FP4_RUNNER); i++)
        if (in_span(c->rel, SM120_FP4_RUNNER[i].when) && !c->gpu->hip && c->gpu->major < 32 &&
            (SM120_FP4_RUNNER[i].majors >> c->gpu->major & 1u) && strcmp(quant, "modelopt_fp4") == 0 &&
            !rules_dsv4(c->model->architecture, c->rel))
            return "flashinfer_cutlass";
    return "auto";
}

/* The first of MOE_CHECKS that refuses this worker with the server's quantization `quant` ("None": none), or NULL;
 * *hybrid is set where only a hybrid NVFP4 checkpoint, which kvcheck does not tell, would pass it. Pure. */
static const struct moe_check *moe_refusal(const ctx *c, const char *quant, int *hybrid)
{
    const char *runner = moe_runner(c, quant), *a2a = quant_a2a_backend(c);
    unsigned long ep = size_of(c, SET_EP), tp = size_of(c, SET_TP);
    *hybrid = 0;
    for (size_t i = 0; i < COUNT_OF(MOE_CHECKS); i++) {
        const struct moe_check *k = &MOE_CHECKS[i];
        if (!in_span(c->rel, k->when) || !word_in(runner, k->runners)) continue;
        int ok = k->test == MOE_QUANT || k->test == MOE_HYBRID ? word_in(quant, k->values)
                 : k->test == MOE_EP_TP                       ? ep == 1 || ep == tp
                 : k->test == MOE_EP_ONE                      ? !word_in(quant, k->values) || ep == 1
                                                              : word_in(a2a, k->values);
        if (ok) continue;
        *hybrid = k->test == MOE_HYBRID && str_ieq(c->model->quant_algo, "MIXED_PRECISION");
        return k;
    }
    return NULL;
}

/* The --quantization SGLang's server arguments hold when they check the MoE runner, as Python prints it ("None":
 * none): the flag ("unquant" is none from 0.5.11), else SM100_FP8's default: fp8 without a quantization config (from
 * 0.5.11 only where the checkpoint's weights are FP8: `alt` is then "None"; for DeepSeek V3 alone), else the config's
 * quant_method as written, which for a ModelOpt checkpoint is its method as parsed (c->quant.server: from 0.5.10
 * the parse rewrites "modelopt"; ModelOpt's override comes later, in the model config). */
static const char *server_quant(const ctx *c, const char **alt)
{
    const setting *q = &c->set->s[SET_QUANTIZATION];
    const model_info *m = c->model;
    *alt = NULL;
    if (q->set) return strcmp(q->value, "unquant") == 0 && rel_since(c->rel, "0.5.11") ? "None" : q->value;
    if (!sm100_sets_quant(c)) return "None";
    if (rel_until(c->rel, "0.5.4.post3")) return "fp8";
    if (c->quant.server[0]) return c->quant.server;
    if (m->has_quantization && m->quant_method[0]) return m->quant_method;
    if (!sm100_fp8_default(c)) return "None";
    if (!m->has_quantization && rel_since(c->rel, "0.5.11")) *alt = "None";
    return "fp8";
}

kvc_status quant_rocm_first(const ctx *c, const setting *blame)
{
    if (!c->gpu->hip || c->quant.how != QUANT_UNJUDGED) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, blame ? &blame->origin : NULL, "the model config of SGLang %s checks the "
                    "quantization method on ROCm before the MoE runner's and the all-to-all handler's checks: %s, "
                    "which kvcheck does not model; it cannot judge this worker", SGLANG_VERSIONS[c->rel],
                    c->quant.why);
}

const char *quant_moe_runner(const ctx *c, const char **quant)
{
    const char *alt;
    *quant = server_quant(c, &alt);
    for (size_t i = 0; i < COUNT_OF(RUNNER_FORCED); i++)
        if (in_span(c->rel, RUNNER_FORCED[i].when) && strcmp(*quant, RUNNER_FORCED[i].method) == 0) return NULL;
    return moe_runner(c, *quant);
}

/* The MoE runner checks of SGLang's server arguments (MOE_CHECKS), for the runner SGLang picks (moe_runner); declined
 * where the quantization that decides them is not known (server_quant), where SGLang picks the runner itself for it
 * (RUNNER_FORCED) and one is given, or where only a hybrid NVFP4 checkpoint would pass. */
kvc_status quant_check_moe_runner(const ctx *c)
{
    const setting *q = &c->set->s[SET_QUANTIZATION], *runner = &c->set->s[SET_MOE_RUNNER];
    const setting *ep = &c->set->s[SET_EP], *a2a = &c->set->s[SET_MOE_A2A];
    if (q->reported || runner->reported) return KVC_OK; /* a running server's: its checks passed */
    const char *alt, *quant = server_quant(c, &alt);
    const char *rel = SGLANG_VERSIONS[c->rel];
    const setting *blame = runner->set ? runner : q->set ? q : NULL;
    for (size_t i = 0; i < COUNT_OF(RUNNER_FORCED); i++)
        if (in_span(c->rel, RUNNER_FORCED[i].when) && strcmp(quant, RUNNER_FORCED[i].method) == 0 &&
            (runner_given(c) || ep->set))
            return diag_set(c->diag, KVC_ERR_CONFIG, runner->set ? &runner->origin : &ep->origin, "--quantization %s: "
                            "SGLang %s picks the MoE runner for it, overriding some that are given, which kvcheck does "
                            "not model; it cannot judge this worker", quant, rel);
    int hybrid, alt_hybrid = 0;
    const struct moe_check *k = moe_refusal(c, quant, &hybrid), *ka = alt ? moe_refusal(c, alt, &alt_hybrid) : k;
    if (k != ka || (alt && k && strstr(k->message, "{quantization}")))
        return diag_set(c->diag, KVC_ERR_CONFIG, blame ? &blame->origin : NULL, "the MoE runner's checks of SGLang "
                        "%s read --quantization, which its SM100 defaults set to fp8 for %s without a quantization "
                        "config only where the checkpoint's weights are FP8, which kvcheck does not model (it does "
                        "not read the weights: %s); it cannot judge this worker", rel, c->model->architecture,
                        SM100_FP8.cite);
    kvc_status st;
    if (k && (st = quant_rocm_first(c, blame))) return st;
    if (hybrid || alt_hybrid)
        return diag_set(c->diag, KVC_ERR_CONFIG, blame ? &blame->origin : NULL, "--moe-runner-backend "
                        "flashinfer_cutedsl with quantization %s: SGLang %s takes it for a hybrid NVFP4 checkpoint "
                        "(MIXED_PRECISION with NVFP4 MoE layers: ModelConfig.nvfp4_moe_meta), which kvcheck does not "
                        "model (%s); it cannot judge this worker", quant, rel, k->cite);
    const char *seen_runner = moe_runner(c, quant), *seen_a2a = quant_a2a_backend(c);
    if (!k) {
        if (in_span(c->rel, CUTEDSL_PER_TOKEN) && strcmp(seen_runner, "flashinfer_cutedsl") == 0 &&
            strcmp(seen_a2a, "deepep") == 0)
            notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "not checked: SGLang %s refuses "
                      "flashinfer_cutedsl with the deepep all-to-all backend where SGLANG_FLASHINFER_NVFP4_PER_TOKEN_"
                      "ACTIVATION is set, an environment variable kvcheck does not read (sglang 0.5.23: python/sglang/"
                      "srt/arg_groups/moe_hook.py:114-121)", rel);
        return KVC_OK;
    }
    const setting *s = k->test == MOE_A2A ? a2a : k->test == MOE_EP_TP || k->test == MOE_EP_ONE ? ep : blame;
    const char *const fields[][2] = {{"quantization", quant}, {"moe_a2a_backend", seen_a2a}};
    char msg[400];
    sglang_expand(k->message, fields, COUNT_OF(fields), msg, sizeof msg);
    int picked = !runner_given(c);
    return rules_refuse(c, s && s->set ? s : NULL, "%s (%s%s%s)", msg, k->cite, picked ? "; SGLang picks the MoE "
                        "runner " : "", picked ? seen_runner : "");
}

/* Fp8Config.from_config's refusals of a checkpoint's quantization config:
 * no activation_scheme, one it does not know, and block-wise weights on a
 * checkpoint whose quant_method does not say fp8 (a case-sensitive test),
 * with other than 2 dimensions, or without a dynamic activation scheme
 * (fp8.py, QUANT_LOADER's lines); an activation_scheme that is not a
 * string is unjudged. Pure. */
static enum config_verdict fp8_config_check(unsigned rel, const model_info *m, char *msg, size_t size)
{
    (void)rel;
    const char *a = m->quant_activation;
    if (strcmp(a, "?") == 0)
        return str_printf(msg, size, "the model's quantization config gives activation_scheme a value that is not a "
                          "string"), CONFIG_UNJUDGED;
    if (!a[0])
        return str_printf(msg, size, "Cannot find any of ['activation_scheme'] in the model's quantization config."),
               CONFIG_REFUSED;
    if (!word_in(a, "static dynamic")) return str_printf(msg, size, "Unsupported activation scheme %s", a), CONFIG_REFUSED;
    if (m->quant_block_dims < 0) return CONFIG_OK;
    if (!strstr(m->quant_method, "fp8"))
        return str_printf(msg, size, "The block-wise quantization only supports fp8-serialized checkpoint for now."),
               CONFIG_REFUSED;
    if (m->quant_block_dims != 2)
        return str_printf(msg, size, "The quantization block size of weight must have 2 dimensions, but got %d "
                          "dimensions.", m->quant_block_dims), CONFIG_REFUSED;
    if (strcmp(a, "dynamic") != 0)
        return str_printf(msg, size, "The block-wise quantization only supports dynamic activation scheme for now, "
                          "but got %s activation scheme.", a), CONFIG_REFUSED;
    return CONFIG_OK;
}

/* 1 when the quantization config's quant_algo is absent, null or not a
 * string: modelopt_no_algo then decides. An empty string is a quant_algo
 * to the config classes (config.get("quant_algo") is not None). Pure. */
static int no_algo_string(const model_info *m) { return strcmp(m->quant_algo_type, "str") != 0; }

/* From 0.5.23 ModelOptFp4Config takes the unquantized layers from "ignore",
 * else "modules_to_not_convert", else "exclude_modules" (model_info's
 * quant_no_exclude_chain). */
static const struct {
    span when;
    const char *cite;
} EXCLUDE_CHAIN = {SINCE("0.5.23"), "sglang 0.5.23: python/sglang/srt/layers/quantization/modelopt_quant.py:1653-1656, "
                                    ":1682-1691"};

/* A ModelOpt config without a quant_algo string: both config classes
 * fall back to the nested (hf_quant_config.json) form, and a config.json
 * config with no "quantization" section to read refuses in the same words
 * in every release (sglang 0.5.3rc2: python/sglang/srt/layers/
 * quantization/modelopt_quant.py:159-168, :615-627; 0.5.23: :496-505,
 * :1659-1671); kvcheck does not model the rest (a non-string quant_algo, a
 * "quantization" section, an hf_quant_config.json). Pure. */
static enum config_verdict modelopt_no_algo(const model_info *m, char *msg, size_t size)
{
    int none = !m->quant_algo_type[0] || strcmp(m->quant_algo_type, "NoneType") == 0;
    if (none && !m->quant_section && !m->quant_file)
        return str_printf(msg, size, "Cannot find 'quant_algo' in the model's quantization config. Expected either "
                          "flat format (config.json) or nested format (hf_quant_config.json)."), CONFIG_REFUSED;
    str_printf(msg, size, "the model's quantization config gives %s", !none ? "a non-string quant_algo" :
               m->quant_file ? "no quant_algo" : "no quant_algo but a \"quantization\" section");
    return CONFIG_UNJUDGED;
}

/* Until they test its type, the config classes call .get on a
 * kv_cache_scheme they find (ModelOptFp8Config always, ModelOptFp4Config
 * where no kv_cache_quant_algo comes first), which anything but an object
 * crashes that Python takes as true. */
static const struct {
    span fp8, fp4;
    const char *cite;
} SCHEME_GET = {UNTIL("0.5.8.post1"), UNTIL("0.5.6.post2"),
                "sglang 0.5.3rc2: python/sglang/srt/layers/quantization/modelopt_quant.py:147-153, :598-609; 0.5.6.post2: "
                ":260-266, :945-956; 0.5.8.post1: :263-269"};

/* 1 with SGLang's crash in `msg` where the config's kv_cache_scheme is
 * true to Python and not an object (SCHEME_GET). Pure. */
static int scheme_get_crashes(const model_info *m, char *msg, size_t size)
{
    if (!m->kv_scheme_type[0] || !m->kv_scheme_truthy) return 0;
    str_printf(msg, size, "AttributeError: '%s' object has no attribute 'get' (the config class reads the "
               "quantization config's kv_cache_scheme as an object: %s)", m->kv_scheme_type, SCHEME_GET.cite);
    return 1;
}

/* ModelOptFp8Config.from_config on a config.json quantization config: it
 * refuses a quant_algo without "FP8" in it (to 0.5.17), or other than
 * exactly "FP8" (from 0.5.18; case-sensitive) (sglang 0.5.17: python/sglang/
 * srt/layers/quantization/modelopt_quant.py:468-473; 0.5.18: :465-470;
 * 0.5.23: :510-515). Pure. */
static enum config_verdict modelopt_fp8_check(unsigned rel, const model_info *m, char *msg, size_t size)
{
    const char *a = m->quant_algo;
    if (no_algo_string(m)) return modelopt_no_algo(m, msg, size);
    if (in_span(rel, SCHEME_GET.fp8) && scheme_get_crashes(m, msg, size)) return CONFIG_REFUSED;
    int old = rel_until(rel, "0.5.17");
    if (old ? strstr(a, "FP8") != NULL : strcmp(a, "FP8") == 0) return CONFIG_OK;
    if (old)
        str_printf(msg, size, "ModelOptFp8Config only supports static FP8 quantization in SGLang. For FP4 "
                   "quantization, use ModelOptFp4Config. Check the quantization config for your model's configuration.");
    else
        str_printf(msg, size, "ModelOptFp8Config only supports regular FP8 quantization, but found '%s'. Use the native "
                   "'mxfp8' quantization method for MXFP8 or ModelOptFp4Config for FP4.", a);
    return CONFIG_REFUSED;
}

/* The quant_algo values ModelOptFp4Config takes, as it lists them (sglang
 * 0.5.4: modelopt_quant.py:673-678; 0.5.17: :1356-1361; 0.5.19:
 * :1580-1586; 0.5.23: :1673-1679). */
static const struct {
    span when;
    const char *algos, *shown;
} FP4_ALGOS[] = {
    {UNTIL("0.5.16"), "FP8 NVFP4", "FP8, NVFP4"},
    {FROM_TO("0.5.17", "0.5.18"), "FP8 NVFP4 NVFP4_AWQ", "FP8, NVFP4, NVFP4_AWQ"},
    {SINCE("0.5.19"), "FP8 NVFP4 NVFP4_AWQ W4A16_NVFP4", "FP8, NVFP4, NVFP4_AWQ, W4A16_NVFP4"},
};

/* 1 with ModelOptFp4Config's refusal in `msg` when FP4_ALGOS does not list `algo`. Pure. */
static int fp4_algo_refused(unsigned rel, const char *algo, char *msg, size_t size)
{
    for (size_t i = 0; i < COUNT_OF(FP4_ALGOS); i++)
        if (in_span(rel, FP4_ALGOS[i].when) && !word_in(algo, FP4_ALGOS[i].algos))
            return str_printf(msg, size, "ModelOpt currently only supports: %s quantizations in sglang. Please check "
                              "the quantization config for your model's configuration.", FP4_ALGOS[i].shown), 1;
    return 0;
}

/* Up to 0.5.3.post3 ModelOptFp4Config.from_config takes a config.json
 * quantization config's group size as common_group_size collects it
 * (model_info's quant_group_sizes), before it checks the quant_algo, and
 * then refuses a null list of layers left unquantized. */
static const struct {
    span when;
    const char *cite;
} FP4_COMMON_GROUP = {UNTIL("0.5.3.post3"), "sglang 0.5.3rc2: python/sglang/srt/layers/quantization/"
                                            "modelopt_quant.py:547-577, :592-648; 0.5.3.post3: the same lines"};

/* FP4_COMMON_GROUP's checks, in that order (FP4_ALGOS for the quant_algo). Pure. */
static enum config_verdict fp4_common_group_check(unsigned rel, const model_info *m, char *msg, size_t size)
{
    if (m->quant_group_odd)
        return str_printf(msg, size, "the model's quantization config gives a group_size kvcheck cannot read as "
                          "Python does (a boolean, a float such as 16.0, or config_groups that are no object)"),
               CONFIG_UNJUDGED;
    if (!m->quant_group_sizes) return str_printf(msg, size, "No group_size found in config."), CONFIG_REFUSED;
    if (m->quant_group_sizes > 1)
        return str_printf(msg, size, "Inconsistent group_size values: %s", m->quant_group_list), CONFIG_REFUSED;
    if (fp4_algo_refused(rel, m->quant_algo, msg, size)) return CONFIG_REFUSED;
    if (m->quant_no_exclude || strcmp(m->quant_group_list, "[0]") == 0)
        return str_printf(msg, size, "NVFP4 quantization requires group size and kv_cache_quant_algo specified in "
                          "the quantization config"), CONFIG_REFUSED;
    return CONFIG_OK;
}

/* ModelOptFp4Config.from_config on a config.json quantization config: a
 * quant_algo it does not list is refused; no group size is unjudged, but
 * for an NVFP4 quant_algo from 0.5.17, which defaults it to 16 in a
 * config.json (sglang 0.5.17: modelopt_quant.py:1336-1337; an
 * hf_quant_config.json's common_group_size refuses), as is a null list of
 * layers left unquantized. Pure. */
static enum config_verdict modelopt_fp4_check(unsigned rel, const model_info *m, char *msg, size_t size)
{
    const char *a = m->quant_algo;
    if (no_algo_string(m)) return modelopt_no_algo(m, msg, size);
    if (in_span(rel, SCHEME_GET.fp4) && !m->kv_quant_algo_truthy && scheme_get_crashes(m, msg, size))
        return CONFIG_REFUSED;
    if (!m->quant_file && in_span(rel, FP4_COMMON_GROUP.when)) return fp4_common_group_check(rel, m, msg, size);
    if (fp4_algo_refused(rel, a, msg, size)) return CONFIG_REFUSED;
    int no_exclude = !m->quant_file && in_span(rel, EXCLUDE_CHAIN.when) ? m->quant_no_exclude_chain : m->quant_no_exclude;
    if ((m->quant_no_group_size && !(rel_since(rel, "0.5.17") && strstr(a, "NVFP4") && !m->quant_file)) || no_exclude)
        return str_printf(msg, size, "the model's quantization config gives %s",
                          no_exclude ? "a null list of layers left unquantized" : "no group_size"),
               CONFIG_UNJUDGED;
    return CONFIG_OK;
}

static const struct quant_row *quant_row(unsigned rel, const char *method)
{
    for (size_t i = 0; i < COUNT_OF(QUANT_LOADER); i++)
        if (in_span(rel, QUANT_LOADER[i].when) && strcmp(QUANT_LOADER[i].method, method) == 0) return &QUANT_LOADER[i];
    return NULL;
}

/* How a ModelOpt quant_algo names the quantization method, in order:
 * user 0, _parse_modelopt_quant_config (case-sensitive), which parses an
 * hf_quant_config.json from 0.5.3.post1 and rewrites a config.json's
 * quant_method "modelopt" from 0.5.10; user 1, ModelOpt's override for a
 * --quantization of modelopt (upper-cased; from 0.5.4). `exact`: quant_algo
 * is `algo`, else contains it ("" matches any). A NULL method is one kvcheck
 * does not model (w4afp8, modelopt_mixed, mxfp8). */
static const struct modelopt_algo {
    span when;
    int user, exact;
    const char *algo, *method;
} MODELOPT_ALGOS[] = {
    /* sglang 0.5.3.post1: python/sglang/srt/configs/model_config.py:517-530; 0.5.4: :538-551; 0.5.10: :805-822;
     * 0.5.18: :1290-1337; 0.5.23: :1838-1897 */
    {SINCE("0.5.3.post1"), 0, 1, "MIXED_PRECISION", NULL},
    {SINCE("0.5.3.post1"), 0, 0, "FP4", "modelopt_fp4"},
    {FROM_TO("0.5.3.post1", "0.5.17"), 0, 0, "FP8", "modelopt_fp8"},
    {FROM_TO("0.5.3.post1", "0.5.4"), 0, 0, "", "modelopt_fp8"}, /* "Default to FP8 for backward compatibility" */
    {SINCE("0.5.18"), 0, 1, "FP8", "modelopt_fp8"},
    {SINCE("0.5.18"), 0, 1, "MXFP8", NULL},
    /* sglang 0.5.4: python/sglang/srt/layers/quantization/base_config.py:165-182; 0.5.17: :189-196; 0.5.18:
     * :181-215; 0.5.19: :197-228 and python/sglang/srt/layers/modelopt_utils.py:23-45; 0.5.23: base_config.py:
     * 223-254 */
    {FROM_TO("0.5.4", "0.5.17"), 1, 0, "FP8", "modelopt_fp8"},
    {FROM_TO("0.5.4", "0.5.17"), 1, 0, "FP4", "modelopt_fp4"},
    {FROM_TO("0.5.18", "0.5.18"), 1, 1, "MXFP8", NULL},
    {FROM_TO("0.5.18", "0.5.18"), 1, 1, "FP8", "modelopt_fp8"},
    {FROM_TO("0.5.18", "0.5.18"), 1, 0, "FP4", "modelopt_fp4"},
    {SINCE("0.5.19"), 1, 1, "FP8", "modelopt_fp8"},
    {SINCE("0.5.19"), 1, 1, "MXFP8", NULL},
    {SINCE("0.5.19"), 1, 1, "FP4", "modelopt_fp4"},
    {SINCE("0.5.19"), 1, 1, "NVFP4", "modelopt_fp4"},
    {SINCE("0.5.19"), 1, 1, "NVFP4_AWQ", "modelopt_fp4"},
    {SINCE("0.5.19"), 1, 1, "W4A16_NVFP4", "modelopt_fp4"},
};

/* The MODELOPT_ALGOS row naming `algo`'s method on `user`'s path, or NULL. Pure. */
static const struct modelopt_algo *modelopt_algo(unsigned rel, int user, const char *algo)
{
    char up[KVC_NAME_LEN];
    str_copy(up, sizeof up, algo);
    if (user) ascii_upper(up);
    for (size_t i = 0; i < COUNT_OF(MODELOPT_ALGOS); i++) {
        const struct modelopt_algo *r = &MODELOPT_ALGOS[i];
        if (r->user == user && in_span(rel, r->when) && (r->exact ? strcmp(up, r->algo) == 0 : strstr(up, r->algo) != NULL))
            return r;
    }
    return NULL;
}

/* The releases that register no "modelopt" method, and the methods their
 * refusal lists (QUANTIZATION_METHODS' keys, as _verify_quantization prints
 * them). */
static const struct {
    span when;
    const char *methods, *cite;
} UNREGISTERED_MODELOPT = {
    FROM_TO("0.5.3.post1", "0.5.3.post3"),
    "['fp8', 'blockwise_int8', 'modelopt_fp8', 'modelopt_fp4', 'w8a8_int8', 'w8a8_fp8', 'awq', 'awq_marlin', 'gptq', "
    "'gptq_marlin', 'moe_wna16', 'compressed-tensors', 'qoq', 'w4afp8', 'petit_nvfp4', 'fbgemm_fp8', 'quark', "
    "'mxfp4', 'aqlm', 'deepspeedfp', 'tpu_int8', 'marlin', 'gguf', 'gptq_marlin_24', 'bitsandbytes', 'qqq', "
    "'experts_int8']",
    "sglang 0.5.3.post1: python/sglang/srt/configs/model_config.py:609-614, "
    "python/sglang/srt/layers/quantization/__init__.py:72-121; 0.5.3.post3: model_config.py:623-628"};

/* --quantization values SGLang takes on a checkpoint whose method differs
 * (compatible_quantization_methods; sglang 0.5.3rc2: python/sglang/srt/
 * configs/model_config.py:561-566; 0.5.4.post2: :658-664; 0.5.9: :874-884). */
static const struct {
    span when;
    const char *flag, *ckpt;
} QUANT_COMPATIBLE[] = {
    {EVER, "modelopt_fp4", "modelopt"},
    {SINCE("0.5.4.post2"), "modelopt_fp8", "modelopt"},
    {EVER, "petit_nvfp4", "modelopt"},
};

/* A ModelOpt checkpoint's method as _verify_quantization resolves it (its
 * config.json quant_method "modelopt", or an hf_quant_config.json), step
 * by step (MODELOPT_STEPS). A step returns QUANT_ROW to go on, or ends
 * the resolution: QUANT_REFUSED with SGLang's message in `why`, or
 * QUANT_UNJUDGED with what kvcheck does not model in `why`. */
struct modelopt_res {
    char ckpt[KVC_NAME_LEN]; /* the checkpoint's method (modelopt_parse) */
    char user[KVC_NAME_LEN]; /* the server arguments' --quantization, lower-cased; "": none (modelopt_server) */
    const struct modelopt_algo *override; /* ModelOpt's override of --quantization modelopt, or NULL */
    struct quant_verdict *out; /* the method, `why`, `early` and the server's --quantization */
};
typedef enum loader_quant modelopt_step(const ctx *c, struct modelopt_res *r);

/* Ends the resolution `r` with `how`, the reason (printf `fmt`) in its `why`. */
static enum loader_quant verdict(struct modelopt_res *r, enum loader_quant how, const char *fmt, ...) KVC_PRINTF(3, 4);
static enum loader_quant verdict(struct modelopt_res *r, enum loader_quant how, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->out->why, sizeof r->out->why, fmt, ap);
    va_end(ap);
    return how;
}

/* An hf_quant_config.json that SGLang reads in ways kvcheck does not
 * model: without a producer name, which 0.5.4-0.5.4.post1 read (sglang
 * 0.5.4: python/sglang/srt/model_loader/weight_utils.py:241); up to
 * 0.5.3.post3; or with --quantization. */
static enum loader_quant modelopt_file(const ctx *c, struct modelopt_res *r)
{
    const setting *q = &c->set->s[SET_QUANTIZATION];
    const char *rel = SGLANG_VERSIONS[c->rel];
    if (!c->model->quant_file) return QUANT_ROW;
    if (!c->model->quant_producer && rel_until(c->rel, "0.5.4.post1"))
        return verdict(r, QUANT_UNJUDGED, "an hf_quant_config.json without a producer name, which SGLang %s's "
                       "weight loader reads (sglang 0.5.4: python/sglang/srt/model_loader/weight_utils.py:241)",
                       rel);
    if (rel_until(c->rel, "0.5.3.post3") || q->set)
        return verdict(r, QUANT_UNJUDGED, "an hf_quant_config.json checkpoint%s, whose method and config class "
                       "SGLang %s decides in ways kvcheck does not model (%s)", q->set ? " with --quantization" : "",
                       rel, QUANT_VERIFY_CITE);
    return QUANT_ROW;
}

/* The checkpoint's method as _parse_modelopt_quant_config gives it
 * (MODELOPT_ALGOS, user 0): it parses an hf_quant_config.json from
 * 0.5.3.post1 and rewrites a config.json's "modelopt" from 0.5.10; a
 * config.json's quant_algo it names no method for stays "modelopt". */
static enum loader_quant modelopt_parse(const ctx *c, struct modelopt_res *r)
{
    const model_info *m = c->model;
    str_copy(r->ckpt, sizeof r->ckpt, m->quant_method);
    if (!(m->quant_file ? rel_since(c->rel, "0.5.3.post1") : rel_since(c->rel, "0.5.10") && !strcmp(r->ckpt, "modelopt")))
        return QUANT_ROW;
    const struct modelopt_algo *a = modelopt_algo(c->rel, 0, m->quant_algo);
    if ((a && !a->method) || (!a && m->quant_file))
        return verdict(r, QUANT_UNJUDGED, "quant_algo '%s', which SGLang %s %s (%s)", m->quant_algo,
                       SGLANG_VERSIONS[c->rel], a ? "runs by a method kvcheck does not model" :
                       "parses as no ModelOpt method", QUANT_VERIFY_CITE);
    if (a) str_copy(r->ckpt, sizeof r->ckpt, a->method);
    return QUANT_ROW;
}

/* The --quantization the server arguments hold: the flag, else on SM100
 * SM100_FP8's default for DeepSeek V3 (fp8 in 0.5.4.post1-0.5.4.post3 and
 * for an hf_quant_config.json, whose config.json has no quantization
 * config; then the checkpoint's); for the other DeepSeek-family
 * architectures the checkpoint's, none for an hf_quant_config.json. */
static enum loader_quant modelopt_server(const ctx *c, struct modelopt_res *r)
{
    const setting *q = &c->set->s[SET_QUANTIZATION];
    if (q->set)
        str_copy(r->user, sizeof r->user, q->value);
    else if (sm100_fp8_default(c) && c->model->quant_file && rel_since(c->rel, "0.5.11"))
        return verdict(r, QUANT_UNJUDGED, "on SM100 SGLang %s sets --quantization fp8 for %s, whose config.json has no "
                       "quantization config, only where the checkpoint's weights are FP8, which kvcheck does not read "
                       "(%s)", SGLANG_VERSIONS[c->rel], c->model->architecture, SM100_FP8.cite);
    else if (sm100_sets_quant(c))
        str_copy(r->out->server, sizeof r->out->server,
                 rel_until(c->rel, "0.5.4.post3") ? "fp8" : !c->model->quant_file ? r->ckpt
                                                  : sm100_fp8_default(c)  ? "fp8" : "");
    if (!q->set) str_copy(r->user, sizeof r->user, r->out->server);
    ascii_lower(r->user);
    ascii_lower(r->ckpt);
    return QUANT_ROW;
}

/* The --quantization values that ask for an online requantization of the
 * checkpoint (nvfp4_online; REQUANTIZATION_METHODS: sglang 0.5.23: python/
 * sglang/srt/configs/model_config.py:545), which kvcheck does not model. */
static int requantizes(const char *method) { return word_in(method, "nvfp4_online quark_mxfp4"); }

/* ModelOpt's override of --quantization modelopt (MODELOPT_ALGOS, user 1);
 * online requantization flags and a quant_algo the override runs by a
 * method kvcheck does not model are unjudged. */
static enum loader_quant modelopt_override(const ctx *c, struct modelopt_res *r)
{
    if (requantizes(r->user))
        return verdict(r, QUANT_UNJUDGED, "--quantization %s, an online requantization of the checkpoint (%s)",
                       r->user, QUANT_VERIFY_CITE);
    r->override = !strcmp(r->user, "modelopt") ? modelopt_algo(c->rel, 1, c->model->quant_algo) : NULL;
    if (r->override && !r->override->method)
        return verdict(r, QUANT_UNJUDGED, "--quantization modelopt on quant_algo '%s', which SGLang %s runs by a "
                       "method kvcheck does not model (%s)", c->model->quant_algo, SGLANG_VERSIONS[c->rel],
                       QUANT_VERIFY_CITE);
    return QUANT_ROW;
}

/* On ROCm, PetitNvFp4Config's override runs an unparsed ModelOpt checkpoint
 * as petit_nvfp4, whose config class refuses a flat config at model load
 * (PETIT_CITE); an hf_quant_config.json is unjudged. */
static enum loader_quant modelopt_petit(const ctx *c, struct modelopt_res *r)
{
    if (!c->gpu->hip || r->override || strcmp(r->ckpt, "modelopt") != 0) return QUANT_ROW;
    const char *rel = SGLANG_VERSIONS[c->rel];
    str_copy(r->out->method, sizeof r->out->method, "petit_nvfp4");
    r->out->early = 0;
    if (c->model->quant_file)
        return verdict(r, QUANT_UNJUDGED, "on ROCm SGLang %s runs a ModelOpt checkpoint as petit_nvfp4 (%s)", rel,
                       PETIT_CITE);
    return verdict(r, QUANT_REFUSED, "Cannot find any of ['quantization'] in the model's quantization config. (at "
                   "model load, building the petit_nvfp4 quantization config, which SGLang %s runs a ModelOpt "
                   "checkpoint by on ROCm: %s)", rel, PETIT_CITE);
}

/* The method, the override's or the checkpoint's, against a --quantization
 * that names another: the override and a method the parse named (from
 * 0.5.4.post1) take the flag; a compatible flag (QUANT_COMPATIBLE) is the
 * method; else SGLang refuses the mismatch, which from 0.5.10 (whose
 * reconciliation grew) is unjudged. A --quantization the server arguments
 * set is verified by the worker's own ModelConfig, not theirs. */
static enum loader_quant modelopt_match(const ctx *c, struct modelopt_res *r)
{
    const char *user = r->user, *rel = SGLANG_VERSIONS[c->rel];
    const setting *q = &c->set->s[SET_QUANTIZATION];
    int parsed = word_in(r->ckpt, "modelopt_fp8 modelopt_fp4") && rel_since(c->rel, "0.5.4.post1");
    str_copy(r->out->method, sizeof r->out->method, r->override ? r->override->method : r->ckpt);
    if (!user[0] || r->override || parsed || !strcmp(user, r->out->method)) return QUANT_ROW;
    for (size_t i = 0; i < COUNT_OF(QUANT_COMPATIBLE); i++)
        if (in_span(c->rel, QUANT_COMPATIBLE[i].when) && !strcmp(QUANT_COMPATIBLE[i].flag, user) &&
            !strcmp(QUANT_COMPATIBLE[i].ckpt, r->out->method))
            str_copy(r->out->method, sizeof r->out->method, user);
    if (!strcmp(user, r->out->method)) {
        r->out->early = q->set;
        return QUANT_ROW;
    }
    if (rel_since(c->rel, "0.5.10"))
        return verdict(r, QUANT_UNJUDGED, "--quantization %s on a checkpoint SGLang %s takes as %s: it reconciles "
                       "the two (a compatible pair, online requantization) or refuses (%s)", user, rel, r->out->method,
                       QUANT_VERIFY_CITE);
    r->out->early = q->set;
    return verdict(r, QUANT_REFUSED, "Quantization method specified in the model config (%s) does not match the "
                   "quantization method specified in the `quantization` argument (%s). (%s%s)", r->out->method, user,
                   QUANT_VERIFY_CITE, q->set ? "" : "; SGLang sets it on SM100 for DeepSeek V3");
}

/* The method must be registered (0.5.3.post1-0.5.3.post3 refuse "modelopt"
 * in their own words; kvcheck models the config classes of QUANT_LOADER's
 * rows only) and, on ROCm, is refused: no ModelOpt method runs there. */
static enum loader_quant modelopt_registered(const ctx *c, struct modelopt_res *r)
{
    const char *method = r->out->method;
    int modelopt = !strcmp(method, "modelopt");
    if (!quant_row(c->rel, method) && modelopt && in_span(c->rel, UNREGISTERED_MODELOPT.when))
        return verdict(r, QUANT_REFUSED, "Unknown quantization method: modelopt. Must be one of %s. (%s)",
                       UNREGISTERED_MODELOPT.methods, UNREGISTERED_MODELOPT.cite);
    if (!quant_row(c->rel, method) && modelopt)
        return verdict(r, QUANT_UNJUDGED, "SGLang %s registers no quantization method %s (%s)",
                       SGLANG_VERSIONS[c->rel], method, QUANT_VERIFY_CITE);
    if (!quant_row(c->rel, method))
        return verdict(r, QUANT_UNJUDGED, "quantization method %s, whose config class kvcheck does not model for a "
                       "ModelOpt checkpoint (%s)", method, QUANT_VERIFY_CITE);
    if (c->gpu->hip)
        return verdict(r, QUANT_REFUSED, "%s quantization is currently not supported in ROCm. (%s)", method,
                       QUANT_VERIFY_CITE);
    return QUANT_ROW;
}

/* _verify_quantization's steps on a ModelOpt checkpoint, in SGLang's order. */
static modelopt_step *const MODELOPT_STEPS[] = {modelopt_file,  modelopt_parse, modelopt_server, modelopt_override,
                                                modelopt_petit, modelopt_match, modelopt_registered};

/* The method _verify_quantization resolves a ModelOpt checkpoint to, into
 * v, and how kvcheck takes it (loader_quant), by MODELOPT_STEPS. */
static enum loader_quant modelopt_quant(const ctx *c, struct quant_verdict *v)
{
    struct modelopt_res r = {.out = v};
    v->early = 1;
    enum loader_quant how = QUANT_ROW;
    for (size_t i = 0; how == QUANT_ROW && i < COUNT_OF(MODELOPT_STEPS); i++) how = MODELOPT_STEPS[i](c, &r);
    return how;
}

/* ModelOpt's quantization override, which _verify_quantization runs on
 * every config.json quantization config (its loop over the methods'
 * overrides reaches ModelOpt's first), reads quant_algo with
 * .get("quant_algo", "").upper(): a quant_algo that is null or no string
 * crashes it. An online requantization skips the overrides from 0.5.14
 * (kvcheck declines those flags). */
static const struct {
    span when;
    const char *cite;
} NULL_ALGO = {SINCE("0.5.4"), "sglang 0.5.4: python/sglang/srt/configs/model_config.py:655-662, "
                               "python/sglang/srt/layers/quantization/base_config.py:173; 0.5.23: :239"};

/* 1 when SGLang crashes on the worker's quant_algo (NULL_ALGO): a null
 * one, or one of another type on a checkpoint ModelOpt's parse does not
 * read (a quant_method other than modelopt), which kvcheck otherwise
 * declines; `method` is the lower-cased --quantization or the
 * checkpoint's. Pure. */
static int algo_upper_crashes(const ctx *c, const char *method)
{
    const char *type = c->model->quant_algo_type;
    /* ModelOpt's parse, which comes first, reads a quant_algo that is neither null nor a string otherwise */
    int parsed = !c->model->quant_method[0] || str_ieq(c->model->quant_method, "modelopt");
    return type[0] && strcmp(type, "str") != 0 && (strcmp(type, "NoneType") == 0 || !parsed) &&
           c->model->has_quantization && !c->model->quant_file &&
           in_span(c->rel, NULL_ALGO.when) && !requantizes(method);
}

/* The quantization method SGLang's model loader checks for this worker
 * (`method`, lower-cased as _verify_quantization takes it) and how kvcheck
 * takes it: QUANT_NONE, none; QUANT_ROW, its QUANT_LOADER row in `*row`;
 * QUANT_UNROWED, a method without a row; QUANT_UNJUDGED, where SGLang's
 * _verify_quantization, its config-file lookup or its SM100 default decide
 * what kvcheck does not model (`why` says which). The method is
 * --quantization where a running server reported it (what SGLang resolved)
 * or the model is a bundled preset (which does not say how the checkpoint
 * is quantized: without --quantization, unjudged for a float32 model, which
 * FP8 checkpoints refuse, else taken as none); else the checkpoint's, which
 * a --quantization must name. */
static enum loader_quant loader_quant(const ctx *c, struct quant_verdict *v)
{
    char *method = v->method, *why = v->why;
    const size_t size = sizeof v->method, wsize = sizeof v->why;
    const struct quant_row **row = &v->row;
    const setting *q = &c->set->s[SET_QUANTIZATION];
    const char *ckpt = c->model->quant_method;
    int has = c->model->has_quantization || ckpt[0];
    int fp32 = model_fp32(c);
    str_copy(method, size, q->set ? q->value : ckpt);
    ascii_lower(method);
    *row = quant_row(c->rel, method);
    why[0] = '\0';
    if (c->model->quant_unknown && !q->set) {
        str_printf(why, wsize, "%s is a bundled config, which does not say how the checkpoint is quantized (FP8, "
                   "NVFP4 or none); give the checkpoint's config.json", c->model->name);
        return fp32 ? QUANT_UNJUDGED : QUANT_NONE;
    }
    if (q->set && (q->reported || c->model->quant_unknown)) return *row ? QUANT_ROW : QUANT_UNROWED;
    if (algo_upper_crashes(c, method)) {
        v->early = 1;
        return str_printf(why, wsize, "AttributeError: '%s' object has no attribute 'upper' (the model's "
                          "quantization config gives a quant_algo that is no string, which ModelOpt's quantization "
                          "override reads as one; _verify_quantization runs it on every quantization config: %s)",
                          c->model->quant_algo_type, NULL_ALGO.cite), QUANT_REFUSED;
    }
    if (!q->set && !has) {
        if (sm100_fp8_default(c))
            str_printf(why, wsize, "SGLang %s sets --quantization fp8 for %s without a quantization config on SM100 "
                       "(where the MoE runner is auto; from 0.5.11 where the checkpoint's weights are FP8, which "
                       "kvcheck does not read: %s)", SGLANG_VERSIONS[c->rel], c->model->architecture, SM100_FP8.cite);
        return why[0] && fp32 ? QUANT_UNJUDGED : QUANT_NONE;
    }
    if (str_ieq(ckpt, "modelopt") && (c->model->has_quantization || c->model->quant_file)) {
        enum loader_quant how = modelopt_quant(c, v);
        *row = how == QUANT_ROW ? quant_row(c->rel, method) : NULL;
        return how;
    }
    v->early = 1; /* what _verify_quantization decides: in the server arguments' own ModelConfig */
    if (!method[0]) {
        str_printf(why, wsize, "the model's quantization config names no quant_method, which SGLang %s takes as "
                   "unknown (to 0.5.8) or parses as ModelOpt's (%s)", SGLANG_VERSIONS[c->rel], QUANT_VERIFY_CITE);
        return QUANT_UNJUDGED;
    }
    if (q->set && has && !str_ieq(q->value, ckpt)) {
        str_printf(why, wsize, "%s %s on a checkpoint quantized by %s: SGLang reconciles the two (an override, a "
                   "compatible pair, online requantization) or refuses (%s)", q->flag, q->value,
                   ckpt[0] ? ckpt : "a method its config does not name", QUANT_VERIFY_CITE);
        return QUANT_UNJUDGED;
    }
    v->early = 0;
    if (q->set && !has && !(*row && (*row)->online)) {
        str_printf(why, wsize, "%s %s on a checkpoint without a quantization config: SGLang looks for the method's "
                   "config files (%s)", q->flag, q->value, QUANT_LOADER_CITE);
        return QUANT_UNJUDGED;
    }
    return *row ? QUANT_ROW : QUANT_UNROWED;
}

/* Settles the worker's loader_quant into c->quant, once, for the KV dtype
 * auto takes (quant_auto_kv_dtype) and the loader's check (quant_check_loader). */
void quant_settle(ctx *c)
{
    struct quant_verdict v = {0};
    v.how = loader_quant(c, &v);
    c->quant = v;
}

/* A non-empty --torchao-config (the flag's releases, up to 0.5.17): the model runner quantizes the loaded model with
 * torchao, a pinned dependency of those releases, right after it loads it and before the LoRA manager
 * (apply_torchao_config_to_model; or the loader does, layer by layer). It imports torchao's quantization functions,
 * quantizes the projection layers, and refuses a value naming no scheme ("ValueError: Unexpected config: ...") or
 * an int4wo group size or fp8dq granularity it does not list. kvcheck models none of it and declines the worker. */
kvc_status quant_check_torchao(const ctx *c)
{
    const setting *s = &c->set->s[SET_TORCHAO];
    if (!s->set || !s->value[0]) return KVC_OK; /* "": apply_torchao_config_to_model returns the model as it is */
    return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s %s: SGLang %s then quantizes the loaded model with "
                    "torchao (apply_torchao_config_to_model: sglang 0.5.3rc2: python/sglang/srt/model_executor/"
                    "model_runner.py:401-406, python/sglang/srt/layers/torchao_utils.py:39-124; 0.5.15: "
                    "model_runner.py:779-784, torchao_utils.py:32-95), which kvcheck does not model, so it cannot "
                    "judge this worker", s->flag, s->value, SGLANG_VERSIONS[c->rel]);
}

/* --startup-weight-load-mode overlap (0.5.18+): the model runner's load builds a StartupWeightLoadManager before the
 * loader reads the model, which refuses the worker unless it passes a list of rules, the last an allowlist of
 * architectures (Llama, Qwen2, Qwen3) that holds no model kvcheck judges; the reason SGLang gives is the first rule
 * that fails (CUDA only, CUDA graphs, TP 1 or 2, the quantization, speculative decoding, ...), which kvcheck does not
 * derive, so it declines the worker and says SGLang refuses it. */
kvc_status quant_check_startup_load(const ctx *c)
{
    const setting *s = &c->set->s[SET_STARTUP_LOAD];
    if (!s->set || strcmp(s->value, "overlap") != 0) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s %s: SGLang %s refuses it for every model kvcheck judges "
                    "(\"ValueError: --startup-weight-load-mode=overlap is not supported: <reason>\", its allowlist "
                    "holds LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM only), with the first of its "
                    "reasons that applies, which kvcheck does not derive, so it cannot judge this worker; drop the "
                    "flag (sglang 0.5.18: python/sglang/srt/model_executor/model_runner_components/"
                    "startup_weight_load.py:33-37, :307-310; 0.5.23: :38-44, :315-318, load_model_utils.py:332-343)",
                    s->flag, s->value, SGLANG_VERSIONS[c->rel]);
}

/* Kernel flags SGLang checks against the GPU, and for some values the kernels installed, when it starts: values
 * other than the ones that never refuse (the default among them) are declined, with what SGLang checks. */
static const struct kernel_flag {
    setting_key k;
    enum kernel_stage stage;
    int dsa_only;                      /* read only where SGLang builds the DSA indexer */
    const char *fine_cuda, *fine_rocm; /* the values that never refuse there */
    const char *what, *cite;
} KERNEL_FLAGS[] = {
    {SET_FP8_GEMM, KERNEL_MODEL, 0, "auto triton", "auto triton",
     "when it builds each FP8 linear layer (Fp8LinearMethod), the GPU's SM family and whether FlashInfer, DeepGEMM or "
     "AITER is there (SGLANG_ENABLE_JIT_DEEPGEMM, SGLANG_USE_AITER)",
     "sglang 0.5.6.post2: python/sglang/srt/layers/quantization/fp8_utils.py:199-231; 0.5.17: :553-612; 0.5.23: "
     ":1108-1167, python/sglang/srt/layers/quantization/fp8.py:548"},
    {SET_BF16_GEMM, KERNEL_SCHEDULER, 0, "auto torch", "auto torch",
     "when the scheduler sets up its GEMM config, the GPU's SM family (cutedsl: SM100/SM103; gemv: SM90, from 0.5.23 "
     "SM12x too) and --enable-deterministic-inference",
     "sglang 0.5.15: python/sglang/srt/layers/quantization/unquant.py:92; 0.5.20: :226-243; 0.5.23: :321-338, "
     "python/sglang/srt/managers/scheduler.py:1013"},
    {SET_PAGED_MQA, KERNEL_MODEL, 1, "auto deepgemm", "auto aiter",
     "when it builds the DSA indexer, the platform and the GPU (aiter: ROCm only; cutedsl: SM100 with CUDA 12.8+; "
     "on ROCm only aiter)",
     "sglang 0.5.15: python/sglang/srt/layers/attention/dsa/paged_mqa_logits_backend.py:24-38; 0.5.23: :24-42, "
     "python/sglang/srt/layers/attention/dsa/dsa_indexer.py:420"},
};

kvc_status quant_check_kernels(const ctx *c, enum kernel_stage stage)
{
    for (size_t i = 0; i < COUNT_OF(KERNEL_FLAGS); i++) {
        const struct kernel_flag *f = &KERNEL_FLAGS[i];
        const setting *s = &c->set->s[f->k];
        if (f->stage != stage || (f->dsa_only && !c->dsa) || !s->set ||
            word_in(s->value, c->gpu->hip ? f->fine_rocm : f->fine_cuda))
            continue;
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s %s: SGLang %s checks it %s, which kvcheck does not "
                        "model, so it cannot judge this worker; leave it unset for SGLang's own pick (%s)", s->flag,
                        s->value, SGLANG_VERSIONS[c->rel], f->what, f->cite);
    }
    return KVC_OK;
}

/* The model loader's quantization check (QUANT_LOADER), after the model
 * class. A method kvcheck has no row for is passed with a warning, but for
 * a float32 model (the act dtypes of most methods leave it out); what
 * loader_quant cannot judge is declined. */
kvc_status quant_check_loader(const ctx *c)
{
    const char *method = c->quant.method, *why = c->quant.why;
    const struct quant_row *r = c->quant.row;
    enum loader_quant how = c->quant.how;
    if (how == QUANT_NONE) return KVC_OK;
    const setting *given = &c->set->s[SET_QUANTIZATION];
    if (how == QUANT_REFUSED) return rules_refuse(c, given->set ? given : NULL, "%s", why);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    const setting *dtype = &c->set->s[SET_MODEL_DTYPE], *q = &c->set->s[SET_QUANTIZATION];
    if (how == QUANT_UNROWED && !model_fp32(c) && c->mdtype) {
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "not checked: whether SGLang's model loader "
                  "takes this GPU and %s for quantization method %s (%s)", c->mdtype, method, QUANT_LOADER_CITE);
        return KVC_OK;
    }
    char unrowed[300], msg[300];
    if (how == QUANT_UNROWED) {
        str_printf(unrowed, sizeof unrowed, "quantization method %s (the minimum GPU capability and model dtypes of "
                   "SGLang's model loader)", method);
        why = unrowed;
    }
    if (how != QUANT_ROW || !c->mdtype)
        return diag_set(c->diag, KVC_ERR_CONFIG, q->set ? &q->origin : dtype->set ? &dtype->origin : &o,
                        "SGLang's model loader checks the GPU and the model's dtype (%s: %s) against the quantization "
                        "method: %s, which kvcheck does not model; it cannot judge this worker",
                        c->mdtype ? c->mdtype : "unknown", c->mdtype_why, why[0] ? why : "the model's dtype");
    /* a running server reported the method: it built the method's config */
    int from_config = (c->model->has_quantization || c->model->quant_file) && !c->model->quant_unknown && !q->reported;
    enum config_verdict cv =
        from_config && r->config_check ? r->config_check(c->rel, c->model, msg, sizeof msg) : CONFIG_OK;
    if (cv == CONFIG_UNJUDGED)
        return diag_set(c->diag, KVC_ERR_CONFIG, &o, "%s, which SGLang's %s config class takes in a way kvcheck does "
                        "not model (%s); it cannot judge this worker", msg, method, r->cite);
    if (cv == CONFIG_REFUSED)
        return rules_refuse(c, NULL, "%s (at model load, building the %s quantization config: %s)", msg, method, r->cite);
    unsigned cap = c->gpu->major * 10 + c->gpu->minor;
    if (cap < r->capability)
        return rules_refuse(c, q->set ? q : NULL, "The quantization method %s is not supported for the current GPU. "
                      "Minimum capability: %u. Current capability: %u. (at model load, %s; %s)", method,
                      r->capability, cap, QUANT_LOADER_CITE, r->cite);
    if (!word_in(c->mdtype, r->dtypes))
        return rules_refuse(c, dtype->set ? dtype : NULL, "torch.%s is not supported for quantization method %s. Supported "
                      "dtypes: %s (at model load, %s; %s; the model's dtype: %s)", c->mdtype, method, r->shown,
                      QUANT_LOADER_CITE, r->cite, c->mdtype_why);
    return KVC_OK;
}

/* The quantization methods whose config class kvcheck follows for a KV
 * dtype of auto: which of the config.json quantization config's keys it
 * keeps as its kv_cache_quant_algo, which the model runner reads from the
 * model's quant_config ("FP8", in any case, makes the pool FP8:
 * KV_QUANT_CITE), and how it reads a kv_cache_scheme: an object of type
 * "float" with 8 bits is FP8, another object none; a string as `str`
 * says. */
enum kv_keys {
    KV_KEEPS_NONE,        /* none */
    KV_KEEPS_ALGO,        /* kv_cache_quant_algo */
    KV_KEEPS_SCHEME,      /* kv_cache_scheme alone */
    KV_KEEPS_ALGO_SCHEME, /* kv_cache_quant_algo, else kv_cache_scheme */
    KV_KEEPS_SCHEME_ALGO, /* kv_cache_scheme where an object (or a string it maps), else kv_cache_quant_algo */
};
enum scheme_str {
    STR_NONE,    /* none */
    STR_CRASHES, /* it calls .get on it (so on a number, list or boolean): the class crashes first (SCHEME_GET) */
    STR_MAPPED,  /* stripped and upper-cased, FP8 or FLOAT8 is FP8 (FP4, FLOAT4, NVFP4 NVFP4), else none */
};
static const struct kv_quant_read {
    span when;
    const char *methods; /* space-separated */
    enum kv_keys keeps;
    enum scheme_str str;
    const char *cite;
} KV_QUANT_READS[] = {
    {UNTIL("0.5.17"), "fp8", KV_KEEPS_NONE, STR_NONE, "Fp8Config.from_config keeps no kv_cache_quant_algo: sglang "
     "0.5.3rc2: python/sglang/srt/layers/quantization/fp8.py:166-177; 0.5.17: :305-340"},
    {SINCE("0.5.18"), "fp8", KV_KEEPS_ALGO, STR_NONE, "Fp8Config.from_config: sglang 0.5.18: python/sglang/srt/"
     "layers/quantization/fp8.py:326-327; 0.5.23: :366-367"},
    /* ModelOptFp8Config keeps it as kv_cache_quant_method, which the model runner does not read, to 0.5.3.post3 */
    {UNTIL("0.5.3.post3"), "modelopt modelopt_fp8", KV_KEEPS_NONE, STR_NONE, "ModelOptFp8Config.from_config: "
     "sglang 0.5.3rc2: python/sglang/srt/layers/quantization/modelopt_quant.py:107, :145-162"},
    {FROM_TO("0.5.4", "0.5.8.post1"), "modelopt modelopt_fp8", KV_KEEPS_SCHEME, STR_CRASHES, "ModelOptFp8Config."
     "from_config: sglang 0.5.4: python/sglang/srt/layers/quantization/modelopt_quant.py:191-197; 0.5.8.post1: "
     ":263-269"},
    {FROM_TO("0.5.9", "0.5.14"), "modelopt modelopt_fp8", KV_KEEPS_SCHEME, STR_NONE, "ModelOptFp8Config."
     "from_config: sglang 0.5.9: python/sglang/srt/layers/quantization/modelopt_quant.py:434-440; 0.5.14: :451-457"},
    {SINCE("0.5.15"), "modelopt modelopt_fp8", KV_KEEPS_SCHEME_ALGO, STR_NONE, "ModelOptFp8Config.from_config: "
     "sglang 0.5.15: python/sglang/srt/layers/quantization/modelopt_quant.py:450-458; 0.5.23: :482-490"},
    {UNTIL("0.5.6.post2"), "modelopt_fp4", KV_KEEPS_ALGO_SCHEME, STR_CRASHES, "ModelOptFp4Config.from_config: "
     "sglang 0.5.3rc2: python/sglang/srt/layers/quantization/modelopt_quant.py:598-609; 0.5.6.post2: :945-956"},
    {FROM_TO("0.5.7", "0.5.8.post1"), "modelopt_fp4", KV_KEEPS_ALGO_SCHEME, STR_MAPPED, "ModelOptFp4Config."
     "from_config: sglang 0.5.7: python/sglang/srt/layers/quantization/modelopt_quant.py:949-970; 0.5.8.post1: "
     ":948-969"},
    {FROM_TO("0.5.9", "0.5.14"), "modelopt_fp4", KV_KEEPS_SCHEME, STR_MAPPED, "ModelOptFp4Config.from_config: "
     "sglang 0.5.9: python/sglang/srt/layers/quantization/modelopt_quant.py:1006-1024; 0.5.14: :1276-1294"},
    {SINCE("0.5.15"), "modelopt_fp4", KV_KEEPS_SCHEME_ALGO, STR_MAPPED, "ModelOptFp4Config.from_config: sglang "
     "0.5.15: python/sglang/srt/layers/quantization/modelopt_quant.py:1278-1296; 0.5.23: :1620-1638"},
};

/* The kv_cache_quant_algo the config class of row `k` keeps of `m`'s
 * quantization config, into `out` ("": none, also where a scheme crashes
 * the class, which the model loader's check then refuses), and in
 * `*scheme` whether it took it from the kv_cache_scheme. A scheme that is
 * neither an object nor a string is one the classes pass over once they
 * test its type. Pure. */
static void kept_kv_algo(const struct kv_quant_read *k, const model_info *m, char *out, size_t size, int *scheme)
{
    int s = m->kv_scheme;
    const char *algo = m->kv_quant_algo;
    out[0] = '\0';
    *scheme = k->keeps == KV_KEEPS_SCHEME || (k->keeps == KV_KEEPS_ALGO_SCHEME && !m->kv_quant_algo_truthy) ||
              (k->keeps == KV_KEEPS_SCHEME_ALGO && (s == MODEL_KV_SCHEME_FLOAT8 || s == MODEL_KV_SCHEME_DICT ||
                                                    (s == MODEL_KV_SCHEME_STRING && k->str == STR_MAPPED)));
    if (k->keeps == KV_KEEPS_NONE) return;
    if (!*scheme) {
        str_copy(out, size, algo);
        return;
    }
    if (s == MODEL_KV_SCHEME_FLOAT8) str_copy(out, size, "FP8");
    if (s != MODEL_KV_SCHEME_STRING || k->str != STR_MAPPED) return;
    char name[KVC_NAME_LEN];
    str_copy(name, sizeof name, m->kv_scheme_name);
    ascii_upper(name);
    const char *b = name, *e = name + strlen(name);
    while (*b && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    int n = (int)(e - b);
    if ((n == 3 && !strncmp(b, "FP8", 3)) || (n == 6 && !strncmp(b, "FLOAT8", 6))) str_copy(out, size, "FP8");
    else if ((n == 3 && !strncmp(b, "FP4", 3)) || (n == 6 && !strncmp(b, "FLOAT4", 6)) ||
             (n == 5 && !strncmp(b, "NVFP4", 5)))
        str_copy(out, size, "NVFP4");
}
/* Model classes that keep no quant_config: the model runner finds none on them, so auto is the model's dtype. */
static const char KV_QUANT_UNKEPT[] = "DotsVLMForCausalLM PixtralForConditionalGeneration";
static const char KV_QUANT_UNKEPT_CITE[] = "sglang 0.5.23: python/sglang/srt/models/dots_vlm.py:46, "
                                           "python/sglang/srt/models/pixtral.py:79";

/* What a KV dtype of auto gives the pool (into c->auto_dtype, with
 * c->auto_why): the model's dtype, or where the quantization config names a
 * KV dtype (kv_quant), what the loader's method (loader_quant) makes of it
 * by KV_QUANT_READS: fp8_e4m3 where its config class keeps a
 * kv_cache_quant_algo of FP8; NULL where kvcheck has no row for it. A model
 * class that keeps no quant_config (KV_QUANT_UNKEPT) reads none. */
void quant_auto_kv_dtype(ctx *c)
{
    c->auto_dtype = c->mdtype;
    if (!c->model->kv_quant[0] || !c->mdtype) return;
    if (word_in(c->model->architecture, KV_QUANT_UNKEPT)) {
        str_printf(c->auto_why, sizeof c->auto_why, "the model's dtype, %s (%s): %s keeps no quant_config, so the "
                   "quantization config's %s is not read (%s)", c->mdtype, c->mdtype_why, c->model->architecture,
                   c->model->kv_quant, KV_QUANT_UNKEPT_CITE);
        return;
    }
    /* SGLang refuses the worker at model load (quant_check_loader), before the model runner reads a KV dtype */
    if (c->quant.how == QUANT_REFUSED || c->quant.how == QUANT_UNJUDGED) return;
    c->auto_dtype = NULL;
    const char *method = c->quant.method;
    const struct kv_quant_read *k = NULL;
    for (size_t i = 0; (c->quant.how == QUANT_ROW || c->quant.how == QUANT_UNROWED) && i < COUNT_OF(KV_QUANT_READS); i++)
        if (in_span(c->rel, KV_QUANT_READS[i].when) && word_in(method, KV_QUANT_READS[i].methods))
            k = &KV_QUANT_READS[i];
    /* an hf_quant_config.json is read as its nested form, which kvcheck does not follow */
    char kept[KVC_NAME_LEN], scheme[KVC_NAME_LEN + 40] = "";
    int from_scheme = 0;
    if (!k || c->model->quant_file) return;
    kept_kv_algo(k, c->model, kept, sizeof kept, &from_scheme);
    if (from_scheme && kept[0]) str_printf(scheme, sizeof scheme, " as kv_cache_quant_algo %s", kept);
    c->auto_dtype = str_ieq(kept, "FP8") ? "fp8_e4m3" : c->mdtype;
    if (c->auto_dtype != c->mdtype)
        str_printf(c->auto_why, sizeof c->auto_why, "fp8_e4m3, as the checkpoint's quantization config asks (%s, which "
                   "%s keeps%s: %s; %s)", c->model->kv_quant, method, scheme, k->cite, KV_QUANT_CITE);
    else if (!kept[0] && from_scheme)
        str_printf(c->auto_why, sizeof c->auto_why, "the model's dtype, %s (%s): %s's config class keeps no "
                   "kv_cache_quant_algo: it reads the quantization config's kv_cache_scheme, which names "
                   "no FP8 (%s)", c->mdtype, c->mdtype_why, method, k->cite);
    else if (!kept[0])
        str_printf(c->auto_why, sizeof c->auto_why, "the model's dtype, %s (%s): %s's config class keeps no "
                   "kv_cache_quant_algo of the quantization config's %s (%s)", c->mdtype, c->mdtype_why, method,
                   c->model->kv_quant, k->cite);
    else
        str_printf(c->auto_why, sizeof c->auto_why, "the model's dtype, %s (%s): %s's config class keeps "
                   "kv_cache_quant_algo %s of the quantization config's %s, which is not FP8 (%s)", c->mdtype,
                   c->mdtype_why, method, kept, c->model->kv_quant, k->cite);
}

/* The releases this file's code tests by version (rel_since, rel_until,
 * SM100_FP8's dsa_since), as spans: a release where one starts or stops
 * begins an era (test_rules checks none is missing). */
static const span VERSION_TESTS[] = {
    SINCE("0.5.3.post1"), SINCE("0.5.4.post1"), SINCE("0.5.5"), SINCE("0.5.6"), SINCE("0.5.10"), SINCE("0.5.17"),
    UNTIL("0.5.3.post3"), UNTIL("0.5.4.post1"), UNTIL("0.5.4.post3"), UNTIL("0.5.17"),
};

size_t quant_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(QUANT_LOADER, QUANT_LOADER[i].when);
    SPAN_EACH(MOE_CHECKS, MOE_CHECKS[i].when);
    SPAN_EACH(SM120_FP4_RUNNER, SM120_FP4_RUNNER[i].when);
    SPAN_EACH(RUNNER_FORCED, RUNNER_FORCED[i].when);
    SPAN_EACH(FP4_ALGOS, FP4_ALGOS[i].when);
    SPAN_EACH(MODELOPT_ALGOS, MODELOPT_ALGOS[i].when);
    SPAN_EACH(QUANT_COMPATIBLE, QUANT_COMPATIBLE[i].when);
    SPAN_EACH(KV_QUANT_READS, KV_QUANT_READS[i].when);
    SPAN_EACH(VERSION_TESTS, VERSION_TESTS[i]);
    if (n < max) out[n] = SM100_FP8.when;
    if (++n < max) out[n] = SM100_TRTLLM_RUNNER;
    if (++n < max) out[n] = CUTEDSL_PER_TOKEN;
    if (++n < max) out[n] = MEGAMOE_ALIAS;
    if (++n < max) out[n] = SM100_FP8.v32;
    if (++n < max) out[n] = UNREGISTERED_MODELOPT.when;
    if (++n < max) out[n] = NULL_ALGO.when;
    if (++n < max) out[n] = EXCLUDE_CHAIN.when;
    if (++n < max) out[n] = FP4_COMMON_GROUP.when;
    if (++n < max) out[n] = SCHEME_GET.fp8;
    if (++n < max) out[n] = SCHEME_GET.fp4;
    return ++n;
}
