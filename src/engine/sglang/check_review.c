/* The check-table rows (check_table.c) read through in every release they
 * hold for and found unable to refuse a worker kvcheck judges: each needs
 * something kvcheck declines or refuses first, or runs only when the flag
 * is not given. A given flag whose every row of the release is here gets no
 * "does not model" warning; its -v note gives the first row's reason. A
 * row regenerated with another mask or citation no longer matches, and its
 * flag warns until it is read again (test_flags checks that every review
 * names a row). Read with tools/sglang-oracle/gen_checks.py --lines, which
 * lists every check of a row in every release. */
#include "common/common.h"
#include "engine/sglang/sglang.h"


/* Each `why` completes "SGLang's start-up checks of it ..." in a -v note of 320 characters, so it cites the
 * newest release; the comments above cite the others. */

/* 0.5.19: python/sglang/srt/arg_groups/moe_hook.py:379-423 */
#define DEEPEP_V2                                                                                                      \
    "run only with --moe-a2a-backend deepep_v2, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/" \
    "moe_hook.py:679-706)"
/* 0.5.13: python/sglang/srt/server_args.py:3439-3493 */
#define CUTEDSL                                                                                                        \
    "run only with --moe-runner-backend flashinfer_cutedsl on a non-decode worker, which kvcheck declines (sglang "   \
    "0.5.18: python/sglang/srt/server_args.py:6810-6880)"
#define ELASTIC                                                                                                        \
    "run only with --elastic-ep-backend, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"       \
    "parallel_hook.py:519-560)"
/* 0.5.4: python/sglang/srt/server_args.py:1233-1240 */
#define ELASTIC_OLD                                                                                                    \
    "run only with --elastic-ep-backend, which kvcheck declines (sglang 0.5.18: python/sglang/srt/server_args.py:"   \
    "7069-7095)"

/* 0.5.19: python/sglang/srt/arg_groups/expert_pack_hook.py:32-36 */
#define EXPERT_PACK                                                                                                    \
    "run only with --load-format expert_pack, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"  \
    "expert_pack_hook.py:32-36)"

const sglang_check_review SGLANG_CHECK_REVIEWS[] = {
    /* 0.5.22: :51, :237-252 */
    {"mem_fraction_static", 0x0000000000000003u, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_shard_hook.py:303",
     "run only where it is not given (sglang 0.5.23: python/sglang/srt/arg_groups/kv_shard_hook.py:297-312)"},
    /* 0.5.21: python/sglang/srt/arg_groups/deepseek_v4_hook.py:169-215 */
    {"max_running_requests", 0x0000000000000007u,
     "sglang 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py:263",
     "run only for a deepseek_v41 model, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "model_hook.py:1038-1043)"},
    {"max_running_requests", 0x0000000000000001u, "sglang 0.5.23: python/sglang/srt/arg_groups/mega_moe_hook.py:147",
     "run only with --moe-a2a-backend megamoe, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "mega_moe_hook.py:78-83)"},
    /* also FlashInfer's token budget (0.5.22: :691; 0.5.23: :767), where the flag only caps the decode graph's batch
     * size, min(max_bs, max(1, requests // attn_dp)) (0.5.23: :656-676): giving it never raises what the budget
     * needs */
    {"max_running_requests", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:700",
     DEEPEP_V2 ", or only lower FlashInfer's token budget"},
    /* 0.5.23: python/sglang/srt/arg_groups/layernorm_sp_hook.py:194-205 */
    {"max_prefill_tokens", 0x0000000000000001u, "sglang 0.5.23: python/sglang/srt/arg_groups/layernorm_sp_hook.py:200",
     "run only for MuseSparkForConditionalGeneration, which kvcheck does not run as an MLA model (sglang 0.5.23: "
     "python/sglang/srt/arg_groups/layernorm_sp_hook.py:42-62)"},
    /* also the cutedsl budget (0.5.19: :481; 0.5.20: :651; 0.5.21: :649), which kvcheck declines, and FlashInfer's
     * (0.5.22: :691; 0.5.23: :734-774), where the prefill buffer P (--max-prefill-tokens counts under dynamic
     * chunking with PP: python/sglang/srt/arg_groups/overrides.py:1865-1883) is on both sides: the budget needs
     * max(P, 4096) to hold P and the CUDA graphs' sizes, which SGLang's defaults keep within 4096 and kvcheck declines
     * when given (a2a.c t_fi_budget) */
    {"max_prefill_tokens", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:689",
     DEEPEP_V2 " or flashinfer_cutedsl, or only raise FlashInfer's workspace"},
    {"max_prefill_tokens", 0x0000000000001fe0u, "sglang 0.5.18: python/sglang/srt/server_args.py:6865", CUTEDSL},
    {"cuda_graph_max_bs", 0x0000000000001800u, "sglang 0.5.13.post1: python/sglang/srt/server_args.py:3478", CUTEDSL},
    {"piecewise_cuda_graph_max_tokens", 0x0000000000001800u,
     "sglang 0.5.13.post1: python/sglang/srt/server_args.py:3478", CUTEDSL},
    {"node_rank", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/parallel_hook.py:551", ELASTIC},
    {"node_rank", 0x00000000000000e0u, "sglang 0.5.18: python/sglang/srt/server_args.py:7089", ELASTIC_OLD},
    {"eplb_algorithm", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/parallel_hook.py:531",
     ELASTIC},
    {"eplb_algorithm", 0x00000001ffffffe0u, "sglang 0.5.18: python/sglang/srt/server_args.py:7073", ELASTIC_OLD},
    {"cuda_graph_backend_decode", 0x000000000000001fu,
     "sglang 0.5.23: python/sglang/srt/arg_groups/expert_pack_hook.py:192", EXPERT_PACK},
    {"model_loader_extra_config", 0x000000000000001fu,
     "sglang 0.5.23: python/sglang/srt/arg_groups/expert_pack_hook.py:192", EXPERT_PACK},
    /* resolve_kimi_tokenizer, which the expert pack's handler calls for a Kimi GGUF file */
    {"tokenizer_path", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/model_loader/expert_pack_runtime.py:56",
     EXPERT_PACK},
    {"disable_custom_all_reduce", 0x0000000000000001u, "sglang 0.5.23: python/sglang/srt/arg_groups/overrides.py:1084",
     "run only with deterministic inference, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "overrides.py:1074-1088)"},
    {"download_dir", 0x0000000000000001u, "sglang 0.5.23: python/sglang/srt/arg_groups/speculative_hook.py:752",
     "run only with --speculative-algorithm DSPARK, which kvcheck declines (sglang 0.5.23: python/sglang/srt/"
     "arg_groups/speculative_hook.py:666-755)"},
};
const unsigned SGLANG_NCHECK_REVIEWS = COUNT_OF(SGLANG_CHECK_REVIEWS);
