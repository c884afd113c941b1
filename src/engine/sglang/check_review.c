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

/* 0.5.19-0.5.22: see the rows */
#define HICACHE_POOL                                                                                                   \
    "run only where no host pool size is set on a worker that is not decode, whose --hicache-ratio SGLang sets first " \
    "(sglang 0.5.23: python/sglang/srt/arg_groups/hicache_hook.py:119-122, :258-267; pipeline.py:77, :272)"

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
    /* helper-88's reviews. The CPU graph path's assert, in the else of `if device != "cpu"`: 0.5.22: :201-231; 0.5.21,
     * 0.5.20: :192-222; 0.5.19: :153-183 */
    {"torch_compile_max_bs", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/memory_hook.py:228",
     "run only with --device cpu, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "memory_hook.py:201-231)"},
    /* 0.5.17: :4697-4722; 0.5.16: :3990-4015; 0.5.15: :3559-3584; 0.5.14: :3212-3237; 0.5.13: :1534-1555; 0.5.12:
     * :1491-1512; 0.5.11: :1384-1405; 0.5.10: :1231-1252 */
    {"torch_compile_max_bs", 0x000000000003ffe0u, "sglang 0.5.18: python/sglang/srt/server_args.py:4914",
     "run only with --device cpu, which kvcheck declines (sglang 0.5.18: python/sglang/srt/server_args.py:4892-4917)"},
    /* 0.5.22: :44-52, :170 */
    {"disable_chunked_prefix_cache", 0x0000000000000003u,
     "sglang 0.5.23: python/sglang/srt/arg_groups/kv_shard_hook.py:84",
     "run only with --enable-kv-cache-sharding, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "kv_shard_hook.py:83-91, :235)"},
    /* the check needs no host pool size on a non-decode worker, whose ratio handle_hicache_ratio_default has set
     * first: 0.5.22: :217-226, :100-103, pipeline.py:77 then :262; 0.5.21: the same lines, pipeline.py:69, :260;
     * 0.5.20: :191-200, :74-81, pipeline.py:96, :291; 0.5.19: :178-187, :61-68, pipeline.py:93, :281 */
    {"hicache_ratio", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/hicache_hook.py:263",
     HICACHE_POOL},
    {"hicache_size", 0x000000000000001fu, "sglang 0.5.23: python/sglang/srt/arg_groups/hicache_hook.py:263",
     HICACHE_POOL},
    /* DeepSeek-V4's MegaMoE budget, whose skip with PP is all the flag does (0.5.19: :21-103, model_hook.py:333;
     * 0.5.18: :14-97, server_args.py:5504; 0.5.17: :14-100, server_args.py:5296) */
    {"enable_dynamic_chunking", 0x0000000000000078u,
     "sglang 0.5.20: python/sglang/srt/arg_groups/deepseek_v4_hook.py:35",
     "run only with MegaMoE on DeepSeek-V4 on a worker that is not decode, which kvcheck declines (sglang 0.5.20: "
     "python/sglang/srt/arg_groups/deepseek_v4_hook.py:21-103)"},
    /* 0.5.22: :51-52, :141-147 */
    {"enable_dynamic_chunking", 0x0000000000000003u, "sglang 0.5.23: python/sglang/srt/arg_groups/kv_shard_hook.py:207",
     "run only with --enable-kv-cache-sharding, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "kv_shard_hook.py:90-91, :206-212)"},
    /* 0.5.22, 0.5.21: :101-129 */
    {"enable_dynamic_chunking", 0x0000000000000007u, "sglang 0.5.23: python/sglang/srt/arg_groups/mega_moe_hook.py:192",
     "run only with --moe-a2a-backend megamoe, which kvcheck declines (sglang 0.5.23: python/sglang/srt/arg_groups/"
     "mega_moe_hook.py:161-189)"},
};
const unsigned SGLANG_NCHECK_REVIEWS = COUNT_OF(SGLANG_CHECK_REVIEWS);
