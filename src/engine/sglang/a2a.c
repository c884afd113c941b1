/* SGLang's MoE all-to-all handler (--moe-a2a-backend), release by release:
 * the backends kvcheck judges and those it does not, what the handler
 * rewrites before later checks read it (waterfill's deepep, ascend_tp's
 * none, --ep-size to --tp-size), what it refuses (the MoE runner, attention
 * DP, DeepEP's mode, FlashInfer's dispatch type, the MoRI and pplx dispatch
 * token budgets against the chunked prefill size), and the later checks
 * that read its result: EPLB's expert parallel size, FlashInfer's token
 * budget after speculative decoding, two-batch overlap in
 * check_server_args. No backend changes the KV pool: the dtype, page and
 * row are resolved without reading anything the handler writes (oracle:
 * the same layout as --moe-a2a-backend none). rules.c calls a2a_check at
 * each stage in SGLang's order (rules.h). */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The backends whose handler branch kvcheck does not model, and why; every other backend of a release's choices is
 * judged (none, deepep, mooncake and nixl, which only set --ep-size, ascend_tp, flashinfer, mori, pplx). */
static const struct {
    span when;
    const char *backend;
    const char *what;
    int dsv4_prefill; /* only DeepSeek-V4 on a worker that is not decode */
} UNJUDGED[] = {
    {EVER, "ascend_fuseep", "Ascend's fused expert parallelism, which runs on NPUs (0.5.10 refuses it unless "
                      "SGLANG_NPU_FUSED_MOE_MODE is 1 or 2: sglang 0.5.10: python/sglang/srt/server_args.py:"
                      "2764-2769)", 0},
    {EVER, "deepep_v2", "DeepEP v2, whose handler checks the architecture, the MoE runner, overlap, fused shared "
                        "experts and its dispatch token budget at the end of the resolution (sglang 0.5.23: python/"
                        "sglang/srt/arg_groups/moe_hook.py:400-459, :679-706)", 0},
    /* before 0.5.21 it only sets --ep-size to --tp-size (sglang 0.5.12: python/sglang/srt/
     * server_args.py:3206-3213; 0.5.17: python/sglang/srt/arg_groups/overrides.py:2477-2486) */
    {SINCE("0.5.21"), "megamoe", "MegaMoE, whose checks read the GPU, overlap and its token budget (sglang 0.5.21: "
                                 "python/sglang/srt/arg_groups/mega_moe_hook.py:27-48, :101-190; 0.5.23: :78-256)", 0},
    /* up to 0.5.20 DeepSeek-V4's own (0.5.17: python/sglang/srt/arg_groups/deepseek_v4_hook.py:14-100, called at
     * server_args.py:5296; 0.5.18: :14-97, :5504; 0.5.19: :21-103, model_hook.py:333) */
    {FROM_TO("0.5.17", "0.5.20"), "megamoe", "MegaMoE on DeepSeek-V4, whose hook checks each rank's prefill token "
                                             "budget against SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK "
                                             "(sglang 0.5.20: python/sglang/srt/arg_groups/deepseek_v4_hook.py:21-103, "
                                             "model_hook.py:382)", 1},
    {EVER, "flashinfer_megamoe", "FlashInfer MegaMoE, whose handler checks the architecture, the quantization, its "
                           "environment and the GPU (sglang 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:315-360)", 0},
};

/* What the handler branches on and what later checks see. */
typedef struct a2a_view {
    const char *backend; /* the flag (the megamoe runner alias's megamoe, CP's deepep), deepep under waterfill */
    const char *after;   /* what later checks read: none for ascend_tp (0.5.16+) */
    const char *runner;  /* the MoE runner the handler reads; NULL: SGLang picks it for the quantization */
    const char *quant;   /* the server's quantization, as Python prints it */
    int flashinfer_too;  /* waterfill made flashinfer deepep, and the flashinfer branch still runs (FLASHINFER_RAW) */
    unsigned long tp, adp;
    int decode;
} a2a_view;

/* Waterfill turns any other backend into deepep (0.5.12-0.5.15.post1 --enable-deepep-waterfill, 0.5.16+
 * --enable-waterfill, which keeps megamoe: sglang 0.5.12: python/sglang/srt/server_args.py:3189-3194; 0.5.16:
 * python/sglang/srt/arg_groups/overrides.py:2078-2095; 0.5.23: :1596-1607); ascend_tp becomes none (0.5.16+:
 * sglang 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:462-469). */
static const span DEEPEP_WATERFILL = FROM_TO("0.5.12", "0.5.15.post1");
static const span WATERFILL = SINCE("0.5.16");
static const span ASCEND_TP_NONE = SINCE("0.5.16");
/* 0.5.16-0.5.18's flashinfer branch tests the flag, not the backend waterfill resolved: both branches run (sglang
 * 0.5.16: python/sglang/srt/server_args.py:5865; 0.5.18: :6935). */
static const span FLASHINFER_RAW = FROM_TO("0.5.16", "0.5.18");
/* EPLB's assert skips an elastic EP scale joiner (--elastic-ep-join-mode, 0.5.16+). */
static const span EPLB_SCALE = SINCE("0.5.16");
/* Two-batch overlap without a backend is exempt on ROCm with DSA prefill CP split round-robin (cp_tbo). */
static const span CP_TBO = FROM_TO("0.5.18", "0.5.19");

/* SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE on makes any backend megamoe, after waterfill's rewrite (sglang 0.5.12:
 * python/sglang/srt/server_args.py:3195-3205; 0.5.15: python/sglang/srt/arg_groups/overrides.py:1915-1933; 0.5.17:
 * :2456-2474); a value EnvBool does not take is off, with SGLang's warning. */
static const span MEGA_MOE_ENV = FROM_TO("0.5.12", "0.5.17");
static int mega_moe_env(const ctx *c)
{
    const setting *s = &c->set->s[SET_MEGA_MOE_ENV];
    int on = rules_env_bool(s);
    if (on < 0)
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s=%s is not a boolean: SGLang %s warns and "
                  "takes it as false", s->flag, s->value, SGLANG_VERSIONS[c->rel]);
    return on == 1;
}

static a2a_view view_of(const ctx *c)
{
    a2a_view v = {.tp = size_of(c, SET_TP), .adp = rules_attention_dp(c),
                  .decode = set_to(c, SET_DISAGG_MODE, "decode")};
    v.runner = quant_moe_runner(c, &v.quant);
    const char *flag = v.backend = quant_a2a_backend(c);
    const setting *fill = &c->set->s[SET_WATERFILL];
    int fills = in_span(c->rel, DEEPEP_WATERFILL) || (in_span(c->rel, WATERFILL) && strcmp(v.backend, "megamoe"));
    if (fill->set && fills) v.backend = "deepep";
    if (in_span(c->rel, MEGA_MOE_ENV) && mega_moe_env(c)) v.backend = "megamoe";
    v.flashinfer_too = in_span(c->rel, FLASHINFER_RAW) && !strcmp(flag, "flashinfer") && strcmp(v.backend, flag);
    v.after = strcmp(v.backend, "ascend_tp") == 0 && in_span(c->rel, ASCEND_TP_NONE) ? "none" : v.backend;
    return v;
}

/* ---------------------------------------------------------- the rules */

/* A test: 1 refuses, 0 passes, -1 kvcheck cannot tell (it says why in `why`). */
typedef int (*a2a_test)(const ctx *c, const a2a_view *v, char *why, size_t size);

/* The chunked prefill size SGLang's budget checks read (chunk.c) against `cap` tokens (a Python int, signed), as a
 * test: chunking off passes where SGLang skips the check (`guarded`); 0.5.9's unguarded MoRI check compares an off
 * size (0 or below) too, which kvcheck judges only against a budget of 0 or more. */
static int over_budget(const ctx *c, const char *cap, int guarded, char *why, size_t size)
{
    if (cap[0] != '-') {
        enum chunk_fit fit = chunk_fit(c, cap, why, size);
        return fit == CHUNK_WITHIN ? 0 : fit == CHUNK_OVER ? 1 : -1;
    }
    int on = chunk_on(c);
    if (on == 0 && !guarded) return snprintf(why, size, "chunking is off and the budget is %s", cap), -1;
    if (on < 0) chunk_fit(c, "0", why, size);
    return on;
}

static const char *dispatch_type(const ctx *c)
{
    const setting *s = &c->set->s[SET_FI_DISPATCH];
    return s->set ? s->value : "";
}

static int t_dispatch_needs_flashinfer(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    const char *d = dispatch_type(c);
    return strcmp(v->backend, "flashinfer") != 0 && d[0] && strcmp(d, "auto") != 0;
}

static int t_cutedsl_normal(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    return v->runner && strcmp(v->runner, "flashinfer_cutedsl") == 0 && set_to(c, SET_DEEPEP_MODE, "normal");
}

static int t_attn_dp_not_tp(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)c, (void)why, (void)size;
    return !(v->adp > 1 && v->adp == v->tp);
}

static int t_attn_dp_below_two(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)c, (void)why, (void)size;
    return v->adp < 2;
}

/* The runner a given dispatch type leaves: flashinfer_trtllm becomes flashinfer_trtllm_routed (0.5.20+). */
static const char *dispatch_runner(const ctx *c, const a2a_view *v)
{
    return v->runner && dispatch_type(c)[0] && strcmp(v->runner, "flashinfer_trtllm") == 0 ? "flashinfer_trtllm_routed"
                                                                                           : v->runner;
}

/* A given dispatch type refuses SGLANG_MOE_NVFP4_DISPATCH set at all in the launch's environment. */
static int t_dispatch_env(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return dispatch_type(c)[0] && c->set->s[SET_NVFP4_DISPATCH_ENV].set;
}

static int t_mxfp8_quant(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    return strcmp(dispatch_type(c), "mxfp8") == 0 && strcmp(v->quant, "mxfp8") != 0;
}

/* The runner check of a backend: the runner not among `allowed` (words). */
static int runner_not_in(const ctx *c, const a2a_view *v, const char *allowed, char *why, size_t size)
{
    const char *r = dispatch_runner(c, v);
    if (!r) return snprintf(why, size, "SGLang picks the MoE runner for --quantization %s", v->quant), -1;
    return !word_in(r, allowed);
}

static int t_mxfp8_runner(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return strcmp(dispatch_type(c), "mxfp8") != 0 ? 0 : runner_not_in(c, v, "flashinfer_trtllm_routed", why, size);
}

static int t_nvfp4_quant(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    if (strcmp(dispatch_type(c), "nvfp4") != 0 || strcmp(v->quant, "modelopt_fp4") == 0) return 0;
    if (str_ieq(c->model->quant_algo, "MIXED_PRECISION"))
        return snprintf(why, size, "a MIXED_PRECISION checkpoint passes only with NVFP4 MoE layers "
                        "(ModelConfig.nvfp4_moe_meta), which kvcheck does not read"), -1;
    return 1;
}

static int t_fi_runner_cutlass(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return runner_not_in(c, v, "flashinfer_cutlass", why, size);
}
static int t_fi_runner_cutedsl(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return runner_not_in(c, v, "flashinfer_cutlass flashinfer_cutedsl", why, size);
}
static int t_fi_runner_routed(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return runner_not_in(c, v, "flashinfer_cutlass flashinfer_cutedsl flashinfer_trtllm_routed", why, size);
}
static int t_fi_runner_any(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return runner_not_in(c, v, "flashinfer_cutlass flashinfer_cutedsl flashinfer_trtllm flashinfer_trtllm_routed "
                         "deep_gemm", why, size);
}
static int t_pplx_runner(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return runner_not_in(c, v, "deep_gemm auto", why, size);
}

static int t_pplx_normal(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return set_to(c, SET_DEEPEP_MODE, "normal");
}

/* MoRI's dispatch tokens (the chunked prefill size) against SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (4096);
 * 0.5.9 checks every worker and any size, later releases a prefill-capable worker's positive one. */
static int mori_budget(const ctx *c, const a2a_view *v, int guarded, char *why, size_t size)
{
    char cap[SETTING_VALUE_LEN];
    if (guarded && v->decode) return 0;
    rules_env_int(c, SET_MORI_TOKENS_ENV, "4096", cap, sizeof cap);
    return over_budget(c, cap, guarded, why, size);
}
static int t_mori_any(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return mori_budget(c, v, 0, why, size);
}
static int t_mori(const ctx *c, const a2a_view *v, char *why, size_t size) { return mori_budget(c, v, 1, why, size); }

/* pplx's: the chunked prefill size, or a larger --cuda-graph-max-bs-decode, against
 * SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (128), on a prefill-capable worker with chunking on. */
static int t_pplx_budget(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    char cap[SETTING_VALUE_LEN];
    if (v->decode) return 0;
    rules_env_int(c, SET_PPLX_TOKENS_ENV, "128", cap, sizeof cap);
    int r = over_budget(c, cap, 1, why, size);
    /* chunking off skips the check; on, the decode graph's batch size counts too */
    if (r != 0 || chunk_on(c) == 0) return r;
    const setting *bs = &c->set->s[SET_CG_MAX_BS_DECODE];
    char n[SETTING_VALUE_LEN];
    if (!bs->set || !py_int(bs->value, n, sizeof n) || n[0] == '-') return 0;
    return dec_cmp(n, cap) > 0; /* chunking is on and the budget is not negative here */
}

/* A dispatch algorithm that picks a replica per rank, which needs an all-to-all backend (0.5.17+; the backend that
 * is none after the handler: sglang 0.5.17: python/sglang/srt/server_args.py:6811-6830; 0.5.23: python/sglang/srt/
 * arg_groups/parallel_hook.py:764-788). */
static int t_dispatch_algorithm(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    return strcmp(v->after, "none") == 0 &&
           (set_to(c, SET_EP_DISPATCH, "static") || set_to(c, SET_EP_DISPATCH, "lp"));
}

/* Single batch overlap on an SM90 GPU, refused when the scheduler sets up an MoE model's config, before its model
 * worker: a CUDA GPU of major 9 (0.5.13-0.5.13.post1 test torch.cuda.is_available(), which ROCm's MI300X, MI325X and
 * MI355X pass too); the model is MoE to the scheduler where its config has one of the per-token expert count keys
 * (moe_topk from 0.5.16) (sglang 0.5.13: python/sglang/srt/managers/scheduler.py:727-741, python/sglang/srt/layers/
 * moe/utils.py:290-297; 0.5.23: python/sglang/srt/managers/scheduler.py:558, :991-1005, python/sglang/srt/layers/moe/
 * utils.py:505-511). A config without any of them, whose transformers class might still give one, is taken as
 * dense, as the oracle takes it; but a bundled preset stands for DeepSeek and GLM MoE checkpoints, whose configs
 * have num_experts_per_tok, and is taken as MoE. */
static int t_sbo_sm90(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    unsigned keys = rel_since(c->rel, "0.5.16") ? 0x1fu : 0x0fu;
    return c->set->s[SET_SBO].set && c->gpu->major == 9 && (!c->gpu->hip || rel_until(c->rel, "0.5.13.post1")) &&
           ((c->model->moe_topk_keys & keys) || c->model->quant_unknown);
}

/* The LP dispatch algorithm on a model outside the LPLB solvers' list (every kvcheck model but the DeepSeek-V2/V3/
 * V3.2, GLM-5 and Mistral Large 3 classes), refused when the target's model runner builds the solvers in its
 * initialize, before it loads the model (sglang 0.5.14: python/sglang/srt/model_executor/model_runner.py:674-675,
 * :693, :1611-1620; 0.5.17: python/sglang/srt/model_executor/model_runner.py:591, :597, :668-670, python/sglang/srt/
 * model_executor/model_runner_components/moe_ep_setup.py:80-86, python/sglang/srt/eplb/lplb_solver.py:35-58). */
static int t_lp_model(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    static const char LPLB[] = "DeepseekV2ForCausalLM DeepseekV3ForCausalLM DeepseekV32ForCausalLM "
                               "MistralLarge3ForCausalLM MistralLarge3ForCausalLMEagle Glm4MoeLiteForCausalLM "
                               "GlmMoeDsaForCausalLM";
    return set_to(c, SET_EP_DISPATCH, "lp") && !word_in(c->model->architecture, LPLB);
}

/* DeepEP v2 as the draft's backend, given (0.5.19+: sglang 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:362-376;
 * 0.5.23: :624-638), the resolution's last check (sglang 0.5.19: python/sglang/srt/arg_groups/pipeline.py:367; 0.5.23:
 * :374); the target's own deepep_v2 is declined first. */
static int t_spec_deepep_v2(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return set_to(c, SET_SPEC_A2A, "deepep_v2");
}

/* MegaMoE's compatibility check at the start of the resolution (0.5.21+: sglang 0.5.21: python/sglang/srt/
 * arg_groups/mega_moe_hook.py:27-48; 0.5.23: the same): no two-batch or single-batch overlap, and a CUDA SM90 or
 * SM100-class GPU, or ROCm. */
static int t_megamoe_overlap(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return c->set->s[SET_TBO].set || c->set->s[SET_SBO].set;
}
static int t_megamoe_gpu(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return !c->gpu->hip && c->gpu->major != 9 && c->gpu->major != 10;
}

/* EPLB's bare assert that the expert parallel size is above 1, which --tp-size gives every backend but none and
 * ascend_tp; from 0.5.16 not for an elastic EP scale joiner (sglang 0.5.3rc2: python/sglang/srt/server_args.py:
 * 1008-1009; 0.5.15: :5200; 0.5.16: :5924-5925; 0.5.23: python/sglang/srt/arg_groups/parallel_hook.py:790-791). */
static int t_eplb(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    unsigned long ep = strcmp(v->backend, "none") == 0 || strcmp(v->backend, "ascend_tp") == 0 ? size_of(c, SET_EP)
                                                                                                : v->tp;
    int joiner = in_span(c->rel, EPLB_SCALE) && set_to(c, SET_EP_JOIN_MODE, "scale");
    return c->set->s[SET_EPLB].set && ep <= 1 && !joiner;
}

/* FlashInfer's token budget after speculative decoding: 0.5.13-0.5.21 for flashinfer_cutedsl, from the prefill
 * tokens and CUDA graph sizes kvcheck does not model; from 0.5.22 chunked prefill must be on, and the per-rank
 * tokens (the chunk, the CUDA graphs' batch sizes times the draft tokens) within the workspace, which SGLang's
 * defaults keep (sglang 0.5.13: python/sglang/srt/server_args.py:3439-3493; 0.5.22: python/sglang/srt/arg_groups/
 * moe_hook.py:673-698; 0.5.23: :734-774). */
static int t_cutedsl_budget(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)c;
    if (v->decode || !v->runner || strcmp(v->runner, "flashinfer_cutedsl") != 0) return 0;
    snprintf(why, size, "its token budget reads --max-prefill-tokens and the CUDA graph sizes");
    return -1;
}

static int t_fi_chunk_off(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    if (v->decode) return 0;
    int on = chunk_on(c);
    if (on < 0) chunk_fit(c, "0", why, size);
    return on < 0 ? -1 : !on;
}

static int t_fi_budget(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v;
    static const setting_key READ[] = {SET_SPEC_ALGO, SET_FI_TOKENS_ENV, SET_CG_MAX_BS_DECODE, SET_CG_SIZES,
                                       SET_CUDA_GRAPH_CONFIG};
    for (size_t i = 0; i < COUNT_OF(READ); i++)
        if (c->set->s[READ[i]].set)
            return snprintf(why, size, "its token budget reads %s", c->set->s[READ[i]].flag), -1;
    return 0;
}

/* Two-batch overlap in check_server_args: not with backend none (0.5.7-0.5.14), then not with none and without
 * attention DP (0.5.15+); not with fused shared experts, which waterfill enforces (0.5.12-0.5.13.post1). */
static int t_tbo_none(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)why, (void)size;
    return c->set->s[SET_TBO].set && strcmp(v->after, "none") == 0;
}
/* 0.5.18-0.5.19's exemption: ROCm, with enable_dsa_prefill_context_parallel and dsa_prefill_cp_mode
 * round-robin-split as _handle_legacy_cp_arguments leaves them: a strategy given with the switch sets the mode, and
 * the DSA flag for a DSA model (attention backend dsa) or where given; else both stay as given (sglang 0.5.18:
 * python/sglang/srt/server_args.py:6461-6501, :9114-9134; 0.5.19: python/sglang/srt/arg_groups/parallel_hook.py:
 * 562-625, validation_hook.py:418-440). */
static int cp_tbo(const ctx *c)
{
    const settings *set = c->set;
    if (!c->gpu->hip || !in_span(c->rel, CP_TBO)) return 0;
    if (c->cp.enabled && c->cp.strategy && !c->cp.both_legacy)
        return (set->s[SET_DSA_CP].set || c->dsa) && strcmp(c->cp.strategy, "interleave") == 0;
    const setting *mode = &set->s[SET_DSA_CP_MODE];
    return set->s[SET_DSA_CP].set && (!mode->set || strcmp(mode->value, "round-robin-split") == 0);
}

static int t_tbo_none_no_dp(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    return t_tbo_none(c, v, why, size) && v->adp <= 1 && !cp_tbo(c);
}
static int t_tbo_fusion(const ctx *c, const a2a_view *v, char *why, size_t size)
{
    (void)v, (void)why, (void)size;
    return c->set->s[SET_TBO].set && (c->set->s[SET_ENFORCE_FUSION].set || c->set->s[SET_WATERFILL].set);
}

/* The handler's refusals and the later checks of its result, in SGLang's order at each stage; `backends`: the
 * branch (words), "" any backend. */
static const struct a2a_rule {
    span when;
    enum a2a_stage stage;
    const char *backends;
    a2a_test refused;
    const char *message;
    const char *cite;
} RULES[] = {
    {SINCE("0.5.21"), A2A_EARLY, "megamoe", t_megamoe_overlap,
     "ValueError: --moe-a2a-backend megamoe has no two-batch / single-batch overlap decomposition; disable "
     "--enable-two-batch-overlap and --enable-single-batch-overlap.", "sglang 0.5.21: python/sglang/srt/arg_groups/"
     "mega_moe_hook.py:27-37; 0.5.23: the same"},
    {SINCE("0.5.21"), A2A_EARLY, "megamoe", t_megamoe_gpu,
     "ValueError: --moe-a2a-backend megamoe needs a CUDA SM90 GPU (block-FP8 experts) or an SM100-class GPU (MXFP4 / "
     "NVFP4 experts); it runs DeepGEMM kernels over CUDA symmetric memory. On ROCm, set "
     "SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 to select aiter MegaMoEv2 instead.", "sglang 0.5.21: python/sglang/srt/"
     "arg_groups/mega_moe_hook.py:38-48; 0.5.23: the same"},
    {SINCE("0.5.20"), A2A_HANDLER, "", t_dispatch_needs_flashinfer,
     "ValueError: --flashinfer-a2a-dispatch-type requires --moe-a2a-backend flashinfer.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/moe_hook.py:256-262; 0.5.23: :307-313"},
    {SINCE("0.5.17"), A2A_HANDLER, "deepep", t_cutedsl_normal,
     "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch (masked layout). DeepEP normal "
     "(prefill) dispatch has no CuteDSL FP4 handler. Pass --deepep-mode low_latency or auto.",
     "sglang 0.5.17: python/sglang/srt/server_args.py:6696-6702; 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:"
     "158-164; 0.5.23: :376-382"},
    {FROM_TO("0.5.13", "0.5.21"), A2A_HANDLER, "flashinfer", t_attn_dp_not_tp,
     "AssertionError: Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention",
     "sglang 0.5.13: python/sglang/srt/server_args.py:3568-3570; 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:"
     "256-259; 0.5.21: :398-403"},
    {FROM_TO("0.5.22", "0.5.22"), A2A_HANDLER, "flashinfer", t_attn_dp_not_tp,
     "AssertionError: Flashinfer MoE A2A is only supported with --attn-dp-size equal to --tp-size",
     "sglang 0.5.22: python/sglang/srt/arg_groups/moe_hook.py:408-410"},
    {SINCE("0.5.23"), A2A_HANDLER, "flashinfer", t_attn_dp_not_tp,
     "AssertionError: Flashinfer MoE A2A requires --attn-dp-size equal to --tp-size, except for Muse Spark TP4/EP4 "
     "or TP8/EP8 prefill sequence parallelism.", "sglang 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:43-67, "
     ":471-490"},
    {SINCE("0.5.20"), A2A_HANDLER, "flashinfer", t_dispatch_env,
     "ValueError: SGLANG_MOE_NVFP4_DISPATCH cannot be set together with --flashinfer-a2a-dispatch-type.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/moe_hook.py:129-174; 0.5.23: :166-175"},
    {SINCE("0.5.20"), A2A_HANDLER, "flashinfer", t_mxfp8_quant,
     "ValueError: --flashinfer-a2a-dispatch-type mxfp8 requires --quantization mxfp8.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/moe_hook.py:129-174; 0.5.23: :166-211"},
    {SINCE("0.5.20"), A2A_HANDLER, "flashinfer", t_mxfp8_runner,
     "ValueError: --flashinfer-a2a-dispatch-type mxfp8 requires --moe-runner-backend flashinfer_trtllm_routed.",
     "sglang 0.5.20: python/sglang/srt/arg_groups/moe_hook.py:129-174; 0.5.23: :166-211"},
    {SINCE("0.5.20"), A2A_HANDLER, "flashinfer", t_nvfp4_quant,
     "ValueError: --flashinfer-a2a-dispatch-type nvfp4 requires NVFP4/modelopt-FP4 quantization or hybrid NVFP4 MoE "
     "metadata.", "sglang 0.5.20: python/sglang/srt/arg_groups/moe_hook.py:129-174; 0.5.23: :166-211"},
    {FROM_TO("0.5.9", "0.5.12.post1"), A2A_HANDLER, "flashinfer", t_fi_runner_cutlass,
     "AssertionError: Flashinfer MoE A2A is only supported with flashinfer_cutlass moe runner backend",
     "sglang 0.5.9: python/sglang/srt/server_args.py:2214-2216; 0.5.12: :3276-3278"},
    {FROM_TO("0.5.13", "0.5.14"), A2A_HANDLER, "flashinfer", t_fi_runner_cutedsl,
     "AssertionError: Flashinfer MoE A2A is only supported with flashinfer_cutlass or flashinfer_cutedsl moe runner "
     "backend", "sglang 0.5.13: python/sglang/srt/server_args.py:3586-3589; 0.5.14: :5348-5351"},
    {FROM_TO("0.5.15", "0.5.18"), A2A_HANDLER, "flashinfer", t_fi_runner_routed,
     "AssertionError: Flashinfer MoE A2A is only supported with flashinfer_cutlass, flashinfer_cutedsl or "
     "flashinfer_trtllm_routed moe runner backend", "sglang 0.5.15: python/sglang/srt/server_args.py:5157-5161; "
     "0.5.18: :6949-6953"},
    {SINCE("0.5.19"), A2A_HANDLER, "flashinfer", t_fi_runner_any,
     "AssertionError: FlashInfer MoE A2A is supported with flashinfer_cutlass, flashinfer_cutedsl, flashinfer_trtllm, "
     "flashinfer_trtllm_routed, or deep_gemm.", "sglang 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:280-290; "
     "0.5.23: :531-541"},
    {FROM_TO("0.5.9", "0.5.9"), A2A_HANDLER, "mori", t_mori_any,
     "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be larger or equal to "
     "chunked_prefill_size", "sglang 0.5.9: python/sglang/srt/server_args.py:2226-2228"},
    {FROM_TO("0.5.10", "0.5.14"), A2A_HANDLER, "mori", t_mori,
     "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be larger or equal to "
     "chunked_prefill_size", "sglang 0.5.10: python/sglang/srt/server_args.py:2806-2809; 0.5.14: :5365-5368"},
    {SINCE("0.5.15"), A2A_HANDLER, "mori", t_mori,
     "AssertionError: SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 4096) must be >= the per-rank MoRI "
     "dispatch tokens (chunked_prefill_size by default)", "sglang 0.5.15: python/sglang/srt/server_args.py:5174-5185; "
     "0.5.23: python/sglang/srt/arg_groups/moe_hook.py:566-573, :834-837"},
    {SINCE("0.5.17"), A2A_HANDLER, "pplx", t_pplx_normal,
     "ValueError: moe_a2a_backend='pplx' only supports low-latency mode; set --deepep-mode to 'low_latency' or "
     "'auto'.", "sglang 0.5.17: python/sglang/srt/server_args.py:6752-6756; 0.5.23: python/sglang/srt/arg_groups/"
     "moe_hook.py:576-580"},
    {FROM_TO("0.5.17", "0.5.21"), A2A_HANDLER, "pplx", t_attn_dp_below_two,
     "AssertionError: moe_a2a_backend='pplx' requires --enable-dp-attention with at least 2 DP groups (--dp-size >= "
     "2).", "sglang 0.5.17: python/sglang/srt/server_args.py:6763-6766; 0.5.19: python/sglang/srt/arg_groups/"
     "moe_hook.py:329-332"},
    {SINCE("0.5.22"), A2A_HANDLER, "pplx", t_attn_dp_below_two,
     "AssertionError: moe_a2a_backend='pplx' requires attention DP with at least 2 groups (--attn-dp-size >= 2).",
     "sglang 0.5.22: python/sglang/srt/arg_groups/moe_hook.py:514-517; 0.5.23: :590-593"},
    {SINCE("0.5.17"), A2A_HANDLER, "pplx", t_pplx_runner,
     "AssertionError: moe_a2a_backend='pplx' is only supported with --moe-runner-backend deep_gemm (or auto).",
     "sglang 0.5.17: python/sglang/srt/server_args.py:6771-6774; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:"
     "598-601"},
    {SINCE("0.5.17"), A2A_HANDLER, "pplx", t_pplx_budget,
     "AssertionError: SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128) must be >= the per-rank pplx dispatch "
     "tokens (chunked_prefill_size, or the decode cuda-graph batch size)", "sglang 0.5.17: python/sglang/srt/"
     "server_args.py:6782-6800; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:614-621, :840-846"},
    {SINCE("0.5.13"), A2A_SCHEDULER, "", t_sbo_sm90,
     "ValueError: SBO (single batch overlap) is not supported on SM90 GPUs with latest sgl-deep-gemm wheel. Please try "
     "removing --enable-single-batch-overlap argument.", "sglang 0.5.13: python/sglang/srt/layers/moe/utils.py:294; "
     "0.5.17: :319; 0.5.20: :452; 0.5.23: :507-511, python/sglang/srt/managers/scheduler.py:991-1005"},
    {SINCE("0.5.14"), A2A_RUNNER, "", t_lp_model,
     "NotImplementedError: {architecture} does not support --ep-dispatch-algorithm lp. Validated targets: "
     "DeepseekV2ForCausalLM, DeepseekV32ForCausalLM, DeepseekV3ForCausalLM, Glm4MoeLiteForCausalLM, "
     "GlmMoeDsaForCausalLM, MistralLarge3ForCausalLM, MistralLarge3ForCausalLMEagle. Other MoE families have "
     "empty-token early returns that don't participate in the EP all-reduce inside LPLBSolver.solve(), which would "
     "deadlock under DP-attention.", "sglang 0.5.14: python/sglang/srt/eplb/lplb_solver.py:49-59, python/sglang/srt/"
     "model_executor/model_runner.py:674-675, :1611-1620; 0.5.17: python/sglang/srt/eplb/lplb_solver.py:48-58, "
     "python/sglang/srt/model_executor/model_runner.py:591, :668-670; 0.5.23: python/sglang/srt/eplb/lplb_solver.py:"
     "50-60, python/sglang/srt/model_executor/model_runner.py:709, :782-784"},
    {SINCE("0.5.17"), A2A_EPLB, "", t_dispatch_algorithm,
     "ValueError: --ep-dispatch-algorithm {ep_dispatch_algorithm} picks a different physical replica per rank, which "
     "only holds up when an a2a backend routes each token to a single rank. Use --ep-dispatch-algorithm dynamic with "
     "--moe-a2a-backend none.", "sglang 0.5.17: python/sglang/srt/server_args.py:6811-6830; 0.5.23: python/sglang/srt/"
     "arg_groups/parallel_hook.py:764-788"},
    {SINCE("0.5.3rc2"), A2A_EPLB, "", t_eplb,
     "AssertionError: (a bare assert ep_size > 1 with --enable-eplb: the expert parallel size is --tp-size with an "
     "all-to-all backend other than none and ascend_tp, else --ep-size)",
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:1008-1009; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:790-791"},
    {FROM_TO("0.5.13", "0.5.21"), A2A_BUDGET, "flashinfer", t_cutedsl_budget, NULL,
     "sglang 0.5.13: python/sglang/srt/server_args.py:3439-3493; 0.5.21: python/sglang/srt/arg_groups/moe_hook.py:"
     "628-664"},
    {SINCE("0.5.22"), A2A_BUDGET, "flashinfer", t_fi_chunk_off,
     "ValueError: FlashInfer MoE A2A requires chunked prefill: eager prefill dispatches the whole per-rank extend "
     "batch through a fixed-size workspace, so --chunked-prefill-size must be > 0.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/moe_hook.py:679-691; 0.5.23: :749-760"},
    {SINCE("0.5.22"), A2A_BUDGET, "flashinfer", t_fi_budget, NULL,
     "sglang 0.5.22: python/sglang/srt/arg_groups/moe_hook.py:673-698; 0.5.23: :734-774"},
    {SINCE("0.5.19"), A2A_LAST, "", t_spec_deepep_v2,
     "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend. Select another "
     "--speculative-moe-a2a-backend.", "sglang 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:362-376; 0.5.23: "
     ":624-638"},
    {FROM_TO("0.5.7", "0.5.14"), A2A_SERVER_ARGS, "", t_tbo_none,
     "ValueError: When enabling two batch overlap, moe_a2a_backend cannot be 'none'.",
     "sglang 0.5.7: python/sglang/srt/server_args.py:4665-4668; 0.5.14: :6778-6781"},
    {FROM_TO("0.5.12", "0.5.13.post1"), A2A_SERVER_ARGS, "", t_tbo_fusion,
     "ValueError: --enable-two-batch-overlap and --enforce-shared-experts-fusion cannot be used together.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:7381-7384; 0.5.13: :7555-7558"},
    {FROM_TO("0.5.15", "0.5.21"), A2A_SERVER_ARGS, "", t_tbo_none_no_dp,
     "ValueError: When enabling two batch overlap without an EP a2a backend (moe_a2a_backend='none'), "
     "--enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path).",
     "sglang 0.5.15: python/sglang/srt/server_args.py:6535-6549; 0.5.19: python/sglang/srt/arg_groups/"
     "validation_hook.py:431-440"},
    {SINCE("0.5.22"), A2A_SERVER_ARGS, "", t_tbo_none_no_dp,
     "ValueError: When enabling two batch overlap without an EP a2a backend (moe_a2a_backend='none'), attention DP "
     "(--attn-dp-size) is required (DeepSeek-V4 non-EP DP TBO path).",
     "sglang 0.5.23: python/sglang/srt/arg_groups/validation_hook.py:756-772"},
};

/* ---------------------------------------------------------- elastic EP */

/* Elastic EP's handler, after EPLB's (0.5.4-0.5.6.post2 later in the resolution, where kvcheck's decline comes
 * early). Without a backend, the flags that need one are refused in this order; with one (any value, "none"
 * included), its checks read what ELASTIC_UNMODELLED names, so kvcheck declines. --elastic-ep-rejoin is
 * --elastic-ep-join-mode recover in 0.5.16-0.5.20. */
static int e_rejoin_conflict(const ctx *c)
{
    return c->set->s[SET_ELASTIC_REJOIN].set && c->set->s[SET_EP_JOIN_MODE].set &&
           !set_to(c, SET_EP_JOIN_MODE, "recover");
}
static int e_backend(const ctx *c) { return c->set->s[SET_ELASTIC_BACKEND].set; }
static int e_rejoin(const ctx *c) { return c->set->s[SET_ELASTIC_REJOIN].set; }
static int e_join_mode(const ctx *c) { return c->set->s[SET_EP_JOIN_MODE].set; }
static int e_rejoin_alone(const ctx *c) { return e_rejoin(c) && !e_join_mode(c); }
static int e_join_offset(const ctx *c)
{
    const setting *o = &c->set->s[SET_EP_JOIN_OFFSET];
    return o->set && strcmp(o->value, "0") != 0;
}
static int e_max_ep_size(const ctx *c) { return c->set->s[SET_MAX_EP_SIZE].set; }
static int e_initial_size(const ctx *c) { return c->set->s[SET_ELASTIC_INITIAL].set; }

#define JOIN_MODE_MESSAGE "AssertionError: --elastic-ep-join-mode requires --elastic-ep-backend to be set."
#define JOIN_MODE_CITE                                                                                                 \
    "sglang 0.5.16: python/sglang/srt/server_args.py:5954-5957; 0.5.23: python/sglang/srt/arg_groups/"                 \
    "parallel_hook.py:546-549"
static const char ELASTIC_UNMODELLED[] = "elastic EP's EPLB algorithm, pipeline size, InfiniBand devices and runtime "
                                         "scale-up";
static const flag_rule ELASTIC[] = {
    {FROM_TO("0.5.16", "0.5.20"), 0, e_rejoin_conflict, SET_EP_JOIN_MODE,
     "AssertionError: --elastic-ep-rejoin (deprecated) conflicts with --elastic-ep-join-mode {value}.",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5927-5938; 0.5.20: python/sglang/srt/arg_groups/"
     "parallel_hook.py:356-374"},
    {EVER, 0, e_backend, SET_ELASTIC_BACKEND, NULL,
     "sglang 0.5.4: python/sglang/srt/server_args.py:1233-1240; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:519-545"},
    {FROM_TO("0.5.11", "0.5.15.post1"), 0, e_rejoin, SET_ELASTIC_REJOIN,
     "AssertionError: Elastic EP rejoin requires elastic_ep_backend to be set.",
     "sglang 0.5.11: python/sglang/srt/server_args.py:3158-3161; 0.5.15.post1: :5218-5221"},
    {SINCE("0.5.16"), 0, e_join_mode, SET_EP_JOIN_MODE, JOIN_MODE_MESSAGE, JOIN_MODE_CITE},
    /* the join mode recover that --elastic-ep-rejoin sets */
    {FROM_TO("0.5.16", "0.5.20"), 0, e_rejoin_alone, SET_ELASTIC_REJOIN, JOIN_MODE_MESSAGE, JOIN_MODE_CITE},
    {SINCE("0.5.16"), 0, e_join_offset, SET_EP_JOIN_OFFSET,
     "AssertionError: --elastic-ep-join-rank-offset is only valid with --elastic-ep-join-mode scale.",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5968-5975; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:560-565"},
    {SINCE("0.5.16"), 0, e_max_ep_size, SET_MAX_EP_SIZE,
     "AssertionError: --max-ep-size requires --elastic-ep-backend to be set.",
     "sglang 0.5.16: python/sglang/srt/server_args.py:5976-5980; 0.5.23: python/sglang/srt/arg_groups/"
     "parallel_hook.py:566-570"},
    {SINCE("0.5.16"), 0, e_initial_size, SET_ELASTIC_INITIAL,
     "AssertionError: --elastic-ep-initial-size is only valid for an Elastic EP deployment with --max-ep-size larger "
     "than its local TP size.", "sglang 0.5.16: python/sglang/srt/server_args.py:5982-5991; 0.5.23: python/sglang/"
     "srt/arg_groups/parallel_hook.py:572-581"},
};

/* The flag a rule's refusal points at. */
static const setting *blame(const ctx *c, const struct a2a_rule *r)
{
    const settings *set = c->set;
    static const setting_key ORDER[] = {SET_MOE_A2A, SET_MOE_RUNNER, SET_TBO, SET_EPLB, SET_WATERFILL};
    if (r->stage == A2A_SERVER_ARGS && set->s[SET_TBO].set) return &set->s[SET_TBO];
    if (r->refused == t_eplb) return &set->s[SET_EPLB];
    if (r->refused == t_dispatch_algorithm || r->refused == t_lp_model) return &set->s[SET_EP_DISPATCH];
    if (r->refused == t_sbo_sm90) return &set->s[SET_SBO];
    if (r->refused == t_spec_deepep_v2) return &set->s[SET_SPEC_A2A];
    for (size_t i = 0; i < COUNT_OF(ORDER); i++)
        if (set->s[ORDER[i]].set) return &set->s[ORDER[i]];
    return NULL;
}

/* --shared-experts-tp-size (0.5.21+), Kimi-K3's, in its own handler between the all-to-all handler and EPLB's: a
 * positive divisor of the attention TP size (tp // attn_dp // attn_cp), then no instance connector's model path, then
 * Kimi-K3 only, which refuses every model kvcheck judges (sglang 0.5.21: python/sglang/srt/arg_groups/
 * parallel_hook.py:159-195; 0.5.23: :201-237). */
static kvc_status shared_experts(const ctx *c, const a2a_view *v)
{
    static const char CITE[] = "sglang 0.5.21: python/sglang/srt/arg_groups/parallel_hook.py:159-195; 0.5.23: "
                               ":201-237";
    const setting *s = &c->set->s[SET_SHARED_EXPERTS_TP];
    if (!s->set || !rel_since(c->rel, "0.5.21")) return KVC_OK;
    const char *tp = settings_size_text(c->set, SET_TP), *cp = settings_size_text(c->set, SET_ATTN_CP);
    if (c->cp.enabled || strlen(tp) > 18 || tp[0] == '-' || strlen(cp) > 18 || strtol(cp, NULL, 10) < 1 ||
        strlen(s->value) > 18 || v->adp < 1)
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s %s: SGLang %s checks it against the attention TP "
                        "size (%s), which kvcheck does not derive with prefill context parallelism or sizes past 18 "
                        "digits, so it cannot judge this worker (SGLang refuses it for every model but Kimi-K3)",
                        s->flag, s->value, SGLANG_VERSIONS[c->rel], CITE);
    long size = strtol(s->value, NULL, 10);
    unsigned long attn_tp = strtoul(tp, NULL, 10) / v->adp / strtoul(cp, NULL, 10);
    if (size < 1 || attn_tp % (unsigned long)size != 0)
        return rules_refuse(c, s, "ValueError: --shared-experts-tp-size (%ld) must be a positive divisor of attention "
                            "TP size (%lu). (%s)", size, attn_tp, CITE);
    if (instance_model_path(c))
        return rules_refuse(c, s, "ValueError: --shared-experts-tp-size requires a Kimi-K3 model configuration. (%s)",
                            CITE);
    return rules_refuse(c, s, "ValueError: --shared-experts-tp-size is only supported for Kimi-K3. (%s): drop it",
                        CITE);
}

/* The first of RULES' rows at `stage` that refuses the worker, or kvcheck's decline. */
static kvc_status run_rules(const ctx *c, const a2a_view *v, enum a2a_stage stage)
{
    const char *rel = SGLANG_VERSIONS[c->rel];
    for (size_t i = 0; i < COUNT_OF(RULES); i++) {
        const struct a2a_rule *r = &RULES[i];
        int branch = !r->backends[0] || word_in(v->backend, r->backends) ||
                     (v->flashinfer_too && stage == A2A_HANDLER && word_in("flashinfer", r->backends));
        if (r->stage != stage || !in_span(c->rel, r->when) || !branch) continue;
        char why[KVC_NOTE_LEN] = "";
        int refused = r->refused(c, v, why, sizeof why);
        const setting *s = blame(c, r);
        if (refused < 0 || (refused && !r->message))
            return diag_set(c->diag, KVC_ERR_CONFIG, s ? &s->origin : NULL, "all-to-all backend %s: SGLang %s checks "
                            "it (%s), and %s, which kvcheck does not model, so it cannot judge this worker", v->backend,
                            rel, r->cite, why);
        if (!refused) continue;
        kvc_status st = quant_rocm_first(c, s);
        if (st) return st;
        const char *const fields[][2] = {{"ep_dispatch_algorithm", c->set->s[SET_EP_DISPATCH].value},
                                         {"architecture", c->model->architecture}};
        char msg[800];
        sglang_expand(r->message, fields, COUNT_OF(fields), msg, sizeof msg);
        return rules_refuse(c, s, "%s (%s%s%s)%s", msg, r->cite, why[0] ? "; the chunked prefill size: " : "",
                                why, why[0] ? "; to start it, raise the variable in the launch's environment or lower "
                                              "--chunked-prefill-size" : "");
    }
    return KVC_OK;
}

kvc_status a2a_check(const ctx *c, enum a2a_stage stage)
{
    if (c->set->s[SET_PAGE_SIZE].reported) return KVC_OK; /* a running server's: its checks passed */
    a2a_view v = view_of(c);
    const setting *flag = &c->set->s[SET_MOE_A2A];
    if (stage == A2A_HANDLER)
        for (size_t i = 0; i < COUNT_OF(UNJUDGED); i++)
            if (strcmp(v.backend, UNJUDGED[i].backend) == 0 && in_span(c->rel, UNJUDGED[i].when) &&
                (!UNJUDGED[i].dsv4_prefill || (rules_dsv4(c->model->architecture, c->rel) && !v.decode)))
                return diag_set(c->diag, KVC_ERR_CONFIG, flag->set ? &flag->origin : NULL, "all-to-all backend %s: "
                                "%s; kvcheck does not model it, so it cannot judge this worker under SGLang %s",
                                v.backend, UNJUDGED[i].what, SGLANG_VERSIONS[c->rel]);
    kvc_status st = run_rules(c, &v, stage);
    if (st || stage != A2A_HANDLER) return st;
    if ((st = shared_experts(c, &v)) || (st = run_rules(c, &v, A2A_EPLB))) return st;
    static const rule_hooks hooks = {ELASTIC_UNMODELLED, NULL, NULL};
    return rules_table(c, ELASTIC, COUNT_OF(ELASTIC), 0, &hooks);
}

size_t a2a_spans(span *out, size_t max)
{
    const span own[] = {DEEPEP_WATERFILL, WATERFILL, ASCEND_TP_NONE, FLASHINFER_RAW, CP_TBO, EPLB_SCALE, MEGA_MOE_ENV};
    size_t n = 0;
    for (size_t i = 0; i < COUNT_OF(RULES); i++, n++)
        if (n < max) out[n] = RULES[i].when;
    for (size_t i = 0; i < COUNT_OF(ELASTIC); i++, n++)
        if (n < max) out[n] = ELASTIC[i].when;
    for (size_t i = 0; i < COUNT_OF(UNJUDGED); i++, n++)
        if (n < max) out[n] = UNJUDGED[i].when;
    for (size_t i = 0; i < COUNT_OF(own); i++, n++)
        if (n < max) out[n] = own[i];
    return n;
}
