/* SGLang's launch flags: command-line words (kept until the release is
 * known), --config YAML merged in front of them as the release's
 * ConfigArgumentMerger does, parsed by the release's own parser
 * (argparse.c over flag_table.c), then folded into settings; /server_info
 * keys are read by dest. */
#include "engine/sglang/sglang.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>


/* Settings by dest: each release's parser names them so (dests differ
 * between releases for the same setting). */
static const struct dest_key {
    const char *dest;
    setting_key key;
} DESTS[] = {
    {"kv_cache_dtype", SET_KV_CACHE_DTYPE},
    {"nsa_prefill", SET_PREFILL_BACKEND}, /* 0.5.3 */
    {"nsa_prefill_backend", SET_PREFILL_BACKEND}, /* 0.5.4-0.5.12 */
    {"dsa_prefill_backend", SET_PREFILL_BACKEND}, /* 0.5.13+ */
    {"nsa_decode", SET_DECODE_BACKEND},
    {"nsa_decode_backend", SET_DECODE_BACKEND},
    {"dsa_decode_backend", SET_DECODE_BACKEND},
    {"page_size", SET_PAGE_SIZE},
    {"disaggregation_mode", SET_DISAGG_MODE},
    {"enable_hisparse", SET_HISPARSE},
    {"disable_radix_cache", SET_DISABLE_RADIX},
    {"speculative_algorithm", SET_SPEC_ALGO},
    {"tensor_parallel_size", SET_TP}, /* <= 0.5.13 */
    {"tp_size", SET_TP},
    {"data_parallel_size", SET_DP},
    {"dp_size", SET_DP},
    {"enable_dp_attention", SET_DP_ATTENTION},
    {"model_path", SET_MODEL_PATH},
    {"config", SET_CONFIG},
    {"speculative_draft_kv_cache_dtype", SET_SPEC_DRAFT_KV_DTYPE},
    {"disaggregation_transfer_backend", SET_TRANSFER_BACKEND},
    {"attention_backend", SET_ATTENTION_BACKEND},
    {"prefill_attention_backend", SET_PREFILL_ATTENTION_BACKEND},
    {"decode_attention_backend", SET_DECODE_ATTENTION_BACKEND},
    {"enable_mixed_chunk", SET_MIXED_CHUNK},
    {"speculative_eagle_topk", SET_SPEC_EAGLE_TOPK},
    {"speculative_num_steps", SET_SPEC_NUM_STEPS},
    {"speculative_num_draft_tokens", SET_SPEC_DRAFT_TOKENS},
    {"speculative_adaptive", SET_SPEC_ADAPTIVE},
    {"enable_deterministic_inference", SET_DETERMINISTIC},
    {"rl_on_policy_target", SET_RL_ON_POLICY},
    {"dcp_size", SET_DCP},
    {"load_balance_method", SET_LOAD_BALANCE},
    {"prefill_round_robin_balance", SET_PREFILL_RR},
    {"attn_dp_size", SET_ATTN_DP_SIZE},
    {"disaggregation_decode_enable_radix_cache", SET_DECODE_RADIX},
    {"mamba_ssm_dtype", SET_MAMBA_SSM},
    {"prefill_kv_cache_dequant_dtype", SET_PREFILL_DEQUANT},
    {"enable_unified_memory", SET_UNIFIED_MEMORY},
    {"enable_hierarchical_cache", SET_HICACHE},
    {"enable_lmcache", SET_LMCACHE},
    {"speculative_draft_attention_backend", SET_SPEC_DRAFT_ATTN},
    {"speculative_attention_mode", SET_SPEC_ATTN_MODE},
    {"enable_multi_layer_eagle", SET_MULTI_LAYER_EAGLE},
    {"prefill_only_disable_kv_cache", SET_PREFILL_ONLY_NO_KV},
    {"is_embedding", SET_IS_EMBEDDING},
    {"disaggregation_bootstrap_port", SET_BOOTSTRAP_PORT},
    {"port", SET_PORT},
    {"speculative_ngram_max_bfs_breadth", SET_NGRAM_BREADTH},
    {"attn_cp_size", SET_ATTN_CP},
    {"pipeline_parallel_size", SET_PP}, /* <= 0.5.13 */
    {"pp_size", SET_PP},
    {"dsv4_attn_backend", SET_DSV4_ATTN_BACKEND}, /* 0.5.20+ */
    {"enable_deepseek_v4_fp4_indexer", SET_DSV4_FP4_INDEXER}, /* 0.5.13+ */
    {"speculative_draft_model_path", SET_SPEC_DRAFT_MODEL},
    {"dtype", SET_MODEL_DTYPE},
    {"quantization", SET_QUANTIZATION},
    {"moe_runner_backend", SET_MOE_RUNNER},
    {"moe_a2a_backend", SET_MOE_A2A},
    {"ep_size", SET_EP},
    {"expert_parallel_size", SET_EP}, /* the dest where --expert-parallel-size is the first of its names */
    {"enable_nsa_prefill_context_parallel", SET_DSA_CP},     /* 0.5.6-0.5.12 */
    {"enable_dsa_prefill_context_parallel", SET_DSA_CP},     /* 0.5.13-0.5.19 */
    {"enable_prefill_context_parallel", SET_MLA_CP},         /* 0.5.10-0.5.19 */
    {"enable_prefill_cp", SET_PREFILL_CP},                   /* 0.5.14+ */
    {"nsa_prefill_cp_mode", SET_DSA_CP_MODE},                /* 0.5.8-0.5.12 */
    {"dsa_prefill_cp_mode", SET_DSA_CP_MODE},                /* 0.5.13-0.5.19 */
    {"prefill_cp_mode", SET_MLA_CP_MODE},                    /* 0.5.10-0.5.19 */
    {"cp_strategy", SET_CP_STRATEGY},                        /* 0.5.14+ */
    {"enable_aiter_allreduce_fusion", SET_AITER_AR_FUSION},
    {"nnodes", SET_NNODES},
    {"attention_context_parallel_size", SET_ATTN_CP},        /* 0.5.9-0.5.13.post1's dest of --attn-cp-size */
    {"enable_dsa_cache_layer_split", SET_KV_SPLIT},          /* 0.5.16+ */
    {"enable_kv_cache_sharding", SET_KV_SPLIT},              /* 0.5.22+ */
    {"moe_dp_size", SET_MOE_DP},
    {"moe_data_parallel_size", SET_MOE_DP}, /* the dest where --moe-data-parallel-size is the first of its names */
    {"dwdp_size", SET_DWDP},
    {"chunked_prefill_size", SET_CHUNKED_PREFILL},
    {"enable_mis", SET_ENABLE_MIS},
    {"cuda_graph_backend_prefill", SET_CG_PREFILL_BACKEND},
    {"cuda_graph_config", SET_CUDA_GRAPH_CONFIG},
    {"deepep_mode", SET_DEEPEP_MODE},
    {"flashinfer_a2a_dispatch_type", SET_FI_DISPATCH},
    {"enable_two_batch_overlap", SET_TBO},
    {"enable_single_batch_overlap", SET_SBO},
    {"enforce_shared_experts_fusion", SET_ENFORCE_FUSION},
    {"enable_deepep_waterfill", SET_WATERFILL}, /* 0.5.12-0.5.15.post1 */
    {"enable_waterfill", SET_WATERFILL},        /* 0.5.16+ */
    {"enable_eplb", SET_EPLB},
    {"ep_dispatch_algorithm", SET_EP_DISPATCH},
    {"cuda_graph_max_bs_decode", SET_CG_MAX_BS_DECODE},
    {"cuda_graph_max_bs_prefill", SET_CG_SIZES},
    {"cuda_graph_bs_decode", SET_CG_SIZES},
    {"cuda_graph_bs_prefill", SET_CG_SIZES},
    {"speculative_moe_a2a_backend", SET_SPEC_A2A},
    {"elastic_ep_backend", SET_ELASTIC_BACKEND},
    {"ep_join_mode", SET_EP_JOIN_MODE},
    {"elastic_ep_rejoin", SET_ELASTIC_REJOIN},
    {"ep_join_rank_offset", SET_EP_JOIN_OFFSET},
    {"max_ep_size", SET_MAX_EP_SIZE},
    {"elastic_ep_initial_size", SET_ELASTIC_INITIAL},
    {"enable_dp_attention_local_control_broadcast", SET_DP_LOCAL_BROADCAST},
    {"pp_max_micro_batch_size", SET_PP_MICRO_BATCH},
    {"disable_cuda_graph_padding", SET_NO_CG_PADDING},
    {"enable_torch_compile", SET_TORCH_COMPILE},
    {"base_gpu_id", SET_BASE_GPU_ID},
    {"gpu_id_step", SET_GPU_ID_STEP},
    {"moe_dense_tp_size", SET_MOE_DENSE_TP},
    {"tokenizer_worker_num", SET_TOKENIZER_WORKERS},
    {"detokenizer_worker_num", SET_DETOKENIZER_WORKERS},
    {"schedule_policy", SET_SCHEDULE_POLICY},
    {"retraction_policy", SET_RETRACTION_POLICY},
    {"multi_item_scoring_delimiter", SET_MULTI_ITEM},
    {"schedule_conservativeness", SET_CONSERVATIVENESS},
    {"model_impl", SET_MODEL_IMPL},
    {"enable_quant_communications", SET_QUANT_COMM},
    {"kv_canary_sweep_interval", SET_CANARY_INTERVAL},
    {"kv_canary", SET_KV_CANARY},
    {"skip_tokenizer_init", SET_SKIP_TOKENIZER},
    {"mm_processor_worker_num", SET_MM_PROC_WORKERS},
    {"mm_io_worker_num", SET_MM_IO_WORKERS},
    {"sampling_backend", SET_SAMPLING_BACKEND},
    {"min_free_slots_delay", SET_MIN_FREE_SLOTS},
    {"enable_return_aux_hidden_states", SET_AUX_HIDDEN},
    {"disaggregation_enable_kv_checksum", SET_KV_CHECKSUM}, /* 0.5.21+ */
    {"revision", SET_REVISION},
    {"speculative_draft_model_revision", SET_SPEC_DRAFT_REVISION},
    {"disaggregation_decode_allocation_policy", SET_ALLOC_POLICY}, /* 0.5.22+ */
    {"enable_pdmux", SET_PDMUX},
    {"decoupled_spec_role", SET_DECOUPLED_SPEC},
    {"enable_pd_role_switch", SET_PD_ROLE_SWITCH},
    {"encoder_only", SET_ENCODER_ONLY},
    {"language_only", SET_LANGUAGE_ONLY},
    {"disaggregation_decode_host_receive_threshold", SET_HOST_RECV},
    {"hicache_storage_backend", SET_HICACHE_STORAGE},
    {"enable_streaming_session", SET_STREAMING_SESSION},
    {"enable_unified_cache_external_linker", SET_EXTERNAL_LINKER},
    {"hicache_host_memory_mode", SET_HICACHE_HOST_MODE},
    {"hicache_write_policy", SET_HICACHE_WRITE},
    {"optimistic_prefill_attempts", SET_OPTIMISTIC},
    {"disaggregation_decode_retraction_backup", SET_RETRACTION_BACKUP}, /* 0.5.18+ */
    {"enable_priority_scheduling", SET_PRIORITY_SCHED},
    {"disable_priority_preemption", SET_NO_PREEMPTION},
    {"hicache_io_backend", SET_HICACHE_IO},
    {"hicache_mem_layout", SET_HICACHE_LAYOUT},
    {"disaggregation_decode_enable_offload_kvcache", SET_DECODE_OFFLOAD},
    {"served_model_name", SET_SERVED_NAME},
    {"gc_threshold", SET_GC_THRESHOLD},
    {"enable_page_major_kv_layout", SET_PAGE_MAJOR},
    {"grpc_port", SET_GRPC_PORT},
    {"smg_grpc_mode", SET_SMG_GRPC},
    {"grpc_mode", SET_GRPC_MODE},
    {"grpc_response_timeout_secs", SET_GRPC_TIMEOUT},
    {"sidecar", SET_SIDECAR},
    {"sidecar_args", SET_SIDECAR_ARGS},
    {"use_ray", SET_USE_RAY},
    {"api_key", SET_API_KEY},
    {"admin_api_key", SET_ADMIN_API_KEY},
    {"prompt_tokens_buckets", SET_PROMPT_BUCKETS},
    {"generation_tokens_buckets", SET_GENERATION_BUCKETS},
    {"tokenizer_metrics_custom_labels_header", SET_LABELS_HEADER},
    {"tokenizer_metrics_allowed_custom_labels", SET_ALLOWED_LABELS},
    {"export_metrics_to_file", SET_EXPORT_METRICS},
    {"export_metrics_to_file_dir", SET_EXPORT_METRICS_DIR},
    {"enable_lora", SET_ENABLE_LORA},
    {"lora_paths", SET_LORA_PATHS},
    {"max_loras_per_batch", SET_LORAS_PER_BATCH},
    {"max_loaded_loras", SET_LOADED_LORAS},
    {"max_lora_rank", SET_LORA_RANK},
    {"lora_target_modules", SET_LORA_TARGETS},
    {"lora_backend", SET_LORA_BACKEND},
    {"max_lora_chunk_size", SET_LORA_CHUNK},
    {"enable_lora_overlap_loading", SET_LORA_OVERLAP},
    {"lora_use_virtual_experts", SET_LORA_VIRTUAL},
    {"lora_drain_wait_threshold", SET_LORA_DRAIN},
    {"speculative_moe_runner_backend", SET_SPEC_MOE_RUNNER},
    {"init_expert_location", SET_INIT_EXPERT},
    {"ep_num_redundant_experts", SET_EP_REDUNDANT},
    {"enable_watermark", SET_WATERMARK},
    {"watermark_config", SET_WATERMARK_CONFIG},
    {"enable_custom_logit_processor", SET_CUSTOM_LOGIT},
    {"speculative_use_rejection_sampling", SET_SPEC_REJECTION},
    {"load_publish_endpoint", SET_LOAD_PUBLISH},
    {"kv_events_config", SET_KV_EVENTS},
    {"device", SET_DEVICE},
    {"allowed_media_domains", SET_MEDIA_DOMAINS},
    {"media_url_max_file_size_mb", SET_MEDIA_MAX_MB},
    {"speculative_token_map", SET_SPEC_TOKEN_MAP},
    {"speculative_accept_threshold_single", SET_SPEC_ACCEPT_SINGLE},
    {"speculative_accept_threshold_acc", SET_SPEC_ACCEPT_ACC},
    {"speculative_use_block_verification", SET_SPEC_BLOCK_VERIFY},
    {"dllm_algorithm", SET_DLLM},
    {"speculative_draft_window_size", SET_SPEC_WINDOW},
    {"speculative_draft_sink_size", SET_SPEC_SINK},
    {"hicache_host_memory_fraction", SET_HICACHE_FRACTION},
    {"prefill_decode_interval", SET_PD_INTERVAL},
    {"prefill_decode_interval_min_bs", SET_PD_INTERVAL_MIN_BS},
    {"enable_response_store", SET_RESPONSE_STORE},
    {"sampling_mask_max_tokens", SET_SAMPLING_MASK},
    {"enable_dp_lm_head", SET_DP_LM_HEAD},
    {"enable_tp_lm_head_all_to_all", SET_TP_LM_HEAD_A2A},
    {"radix_eviction_policy", SET_EVICTION},
    {"radix_eviction_policy_config", SET_EVICTION_CONFIG},
    {"disaggregation_decode_tp", SET_DECODE_TP},
    {"disaggregation_decode_dp", SET_DECODE_DP},
    {"load_format", SET_LOAD_FORMAT},
    {"enable_layernorm_sp", SET_LAYERNORM_SP},
    {"enable_megamoe_for_layernorm_sp", SET_LAYERNORM_SP_MEGAMOE},
    {"enable_encoder_swa_bounded_replay", SET_ENCODER_REPLAY},
    {"enable_prefill_delayer", SET_PREFILL_DELAYER},
    {"disable_overlap_schedule", SET_DISABLE_OVERLAP},
    {"cpu_offload_gb", SET_CPU_OFFLOAD_GB},
    {"offload_group_size", SET_OFFLOAD_GROUP_SIZE},
    {"ple_offload_embedding", SET_PLE_OFFLOAD},
    {"ple_offload_backend", SET_PLE_OFFLOAD_BACKEND},
    {"dcp_comm_backend", SET_DCP_COMM},
    {"dcp_replicate_q_proj", SET_DCP_REPLICATE_Q},
    {"enable_tokenizer_batch_encode", SET_TOKENIZER_BATCH},
    {"enable_dynamic_batch_tokenizer", SET_DYNAMIC_TOKENIZER},
    {"language_model_only", SET_LANGUAGE_MODEL_ONLY},
    {"enable_int8_mamba_checkpoint", SET_INT8_MAMBA},
    {"radix_cache_backend", SET_RADIX_BACKEND},
    {"enable_session_radix_cache", SET_SESSION_RADIX},
    {"torchao_config", SET_TORCHAO},
    {"startup_weight_load_mode", SET_STARTUP_LOAD},
    {"fp8_gemm_runner_backend", SET_FP8_GEMM},
    {"bf16_gemm_backend", SET_BF16_GEMM},
    {"dsa_paged_mqa_logits_backend", SET_PAGED_MQA},
    {"dist_init_addr", SET_DIST_INIT_ADDR},
    {"nccl_port", SET_NCCL_PORT},
    {"shared_experts_tp_size", SET_SHARED_EXPERTS_TP},
};

/* The environment variables that are settings: SGLang's envs that decide a
 * layout kvcheck derives (the linear-attention state's dtypes, sglang
 * 0.5.23: python/sglang/srt/configs/mamba_utils.py:47-107; DeepSeek-V4's
 * compression state, sglang 0.5.14: python/sglang/srt/environ.py:790-792;
 * its KV layout, sglang 0.5.21: python/sglang/srt/environ.py:1539), and
 * those the decode allocation policy prefill_complete refuses (sglang
 * 0.5.23: python/sglang/srt/environ.py:859, :2160), and the one that
 * refuses decode KV offload in 0.5.5.post3-0.5.9 (sglang 0.5.9:
 * python/sglang/srt/environ.py:414, server_args.py:2696-2702), and the gRPC
 * server's and LoRA's, which their start-up checks read (grpc.c, lora.c;
 * sglang 0.5.23: python/sglang/srt/environ.py:1257, :1553). */
static const struct env_key {
    const char *name;
    setting_key key;
    span read; /* the releases that read it (EVER where not given) */
} ENVS[] = {
    {"SGLANG_MAMBA_SSM_DTYPE", SET_MAMBA_SSM_ENV, EVER},
    {"SGLANG_MAMBA_CONV_DTYPE", SET_MAMBA_CONV_ENV, EVER},
    {"SGLANG_DSV4_COMPRESS_STATE_DTYPE", SET_DSV4_STATE_ENV, EVER},
    {"SGLANG_OPT_USE_ONLINE_COMPRESS", SET_DSV4_ONLINE_ENV, EVER},
    {"SGLANG_DSV4_KV_LAYOUT", SET_DSV4_LAYOUT_ENV, EVER},
    {"SGLANG_DISAGG_STAGING_BUFFER", SET_STAGING_ENV, EVER},
    {"SGLANG_RUST_SERVER", SET_RUST_SERVER_ENV, EVER},
    {"SGLANG_ENABLE_SPEC_V2", SET_SPEC_V2_ENV, EVER},
    {"SGLANG_AITER_KV_CACHE_LAYOUT", SET_AITER_LAYOUT_ENV, EVER},
    {"SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK", SET_MORI_TOKENS_ENV, EVER},
    {"SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK", SET_PPLX_TOKENS_ENV, EVER},
    {"SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK", SET_FI_TOKENS_ENV, EVER},
    {"SGLANG_MOE_NVFP4_DISPATCH", SET_NVFP4_DISPATCH_ENV, EVER},
    {"SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE", SET_MEGA_MOE_ENV, EVER},
    {"SGLANG_ENABLE_PP_SPEC", SET_PP_SPEC_ENV, EVER},
    {"SGLANG_USE_AITER", SET_USE_AITER_ENV, EVER},
    {"SGLANG_DSA_HIP_DISABLE_PRESHUFFLE", SET_DSA_NO_SHUFFLE_ENV, EVER},
    {"SGLANG_NSA_HIP_DISABLE_PRESHUFFLE", SET_NSA_NO_SHUFFLE_ENV, EVER},
    {"SGLANG_GRPC_PORT", SET_GRPC_PORT_ENV, SINCE("0.5.11")},
    {"SGLANG_ENABLE_GRPC", SET_ENABLE_GRPC_ENV, FROM_TO("0.5.11", "0.5.15.post1")}, /* deprecated from 0.5.16 */
    {"SGLANG_GRPC_WORKER_THREADS", SET_GRPC_THREADS_ENV, SINCE("0.5.16")},
    {"SGLANG_EXPERIMENTAL_LORA_OPTI", SET_LORA_OPTI_ENV, SINCE("0.5.13")},
    {"SGLANG_ENABLE_OVERLAP_PLAN_STREAM", SET_OVERLAP_PLAN_ENV, SINCE("0.5.4")},
    {"SGLANG_SIMULATE_ACC_LEN", SET_SIMULATE_ACC_ENV, SINCE("0.5.21")},
    {"SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS", SET_SAMPLING_MASK_ENV, SINCE("0.5.20")},
    {"SGLANG_USE_CPU_ENGINE", SET_CPU_ENGINE_ENV, EVER},
    {"SGLANG_DISTRIBUTED_INIT_METHOD_OVERRIDE", SET_DIST_INIT_OVERRIDE_ENV, SINCE("0.5.9")},
    {"SGLANG_WAIT_PORT_TIMEOUT", SET_WAIT_PORT_TIMEOUT_ENV, SINCE("0.5.16")},
    {"SGLANG_IS_IN_CI", SET_IS_IN_CI_ENV, EVER},
    {"SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE", SET_DECREASE_IDLE_ENV, SINCE("0.5.7")},
    {"SGLANG_EMBEDDINGS_SPARSE_HEAD", SET_SPARSE_HEAD_ENV, EVER},
};

/* Environment variables a release warns about as deprecated when they are set, and does not read. */
static const struct env_deprecated {
    const char *name;
    span when;
    const char *warning;
    const char *cite;
} ENVS_DEPRECATED[] = {
    {"SGLANG_ENABLE_GRPC", FROM_TO("0.5.16", "0.5.20"),
     "Environment variable SGLANG_ENABLE_GRPC is deprecated. Please use '--grpc-port' to enable the native gRPC "
     "server.",
     "sglang 0.5.16: python/sglang/srt/environ.py:1182-1183, :1227-1230; 0.5.18: :1596-1598; 0.5.20: :1876-1878"},
};

int setting_key_of_dest(const char *dest)
{
    for (size_t i = 0; i < COUNT_OF(DESTS); i++)
        if (strcmp(DESTS[i].dest, dest) == 0) return (int)DESTS[i].key;
    return -1;
}

static int deprecated(const sglang_flag_def *def) { return def->action >= SGA_DEPRECATED; }

/* Per release and setting, 1 + the first row (in the parser's order) of a
 * flag that is not deprecated and sets it; 0: none. Built once: the fix
 * search asks for flags many times per pair. */
static uint16_t flag_of[SGLANG_NRELEASES][SET_COUNT];
static pthread_once_t flag_of_once = PTHREAD_ONCE_INIT;

static void flag_of_build(void)
{
    for (unsigned r = 0; r < SGLANG_NRELEASES; r++)
        for (unsigned i = SGLANG_PARSERS[r].n; i-- > 0;) { /* backwards: the first row wins */
            uint16_t at = SGLANG_PARSERS[r].order[i];
            const sglang_flag_def *def = &SGLANG_FLAG_DEFS[SGLANG_FLAG_ROWS[at].def];
            int key = setting_key_of_dest(def->dest);
            if (key >= 0 && !deprecated(def)) flag_of[r][key] = (uint16_t)(at + 1);
        }
}

const char *setting_flag(setting_key key, unsigned release)
{
    if (release >= SGLANG_NRELEASES || (unsigned)key >= SET_COUNT) return NULL;
    pthread_once(&flag_of_once, flag_of_build);
    unsigned at = flag_of[release][key];
    return at ? SGLANG_FLAG_ROWS[at - 1].option : NULL;
}

/* ------------------------------------------------------------- the list */

void arglist_free(arglist *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free(list->v[i].text);
        free(list->v[i].value);
        free(list->v[i].where);
    }
    free(list->v);
    for (size_t i = 0; i < list->nwarnings; i++) free(list->warnings[i]);
    free(list->warnings);
    for (size_t i = 0; i < list->nfiles; i++) free(list->files[i]);
    free(list->files);
    memset(list, 0, sizeof *list);
}

void arg_origin(const kv_arg *a, kvc_origin *out)
{
    origin_set(out, a->file, a->line, a->column, a->where ? a->where : a->text);
}

static char *dup_str(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* A number as the rules read it: an int in decimal, a float without
 * whitespace and underscores (Python takes 1_000 and " 0.5 "; strtol and
 * strtod would stop early); any other value as given. */
static const char *py_number(const sglang_flag_def *def, const char *v, char *num, size_t size)
{
    if (def->type == SGT_INT && py_int(v, num, size)) return num;
    if (def->type == SGT_FLOAT && py_float(v, num, size)) return num;
    return v;
}

/* `file` kept once in the list, for its entries to point to. */
static const char *intern_file(arglist *list, const char *file)
{
    if (list->nfiles && strcmp(list->files[list->nfiles - 1], file) == 0) return list->files[list->nfiles - 1];
    if (array_reserve(&list->files, &list->files_cap, list->nfiles, sizeof *list->files)) return NULL;
    char *copy = dup_str(file);
    if (copy) list->files[list->nfiles++] = copy;
    return copy;
}

kvc_status args_push(arglist *list, arg_kind kind, const char *text, const char *value, const kvc_origin *origin,
                     kvc_diag *diag)
{
    char *t = dup_str(text), *v = dup_str(value), *where = NULL;
    if (!t || (value && !v)) goto nomem;
    if (origin->where[0] && strcmp(origin->where, text) != 0 && !(where = dup_str(origin->where))) goto nomem;
    const char *file = intern_file(list, origin->file);
    if (!file) goto nomem;
    if (array_reserve(&list->v, &list->cap, list->n, sizeof *list->v)) goto nomem;
    list->v[list->n++] = (kv_arg){.kind = (uint8_t)kind, .text = t, .value = v, .file = file,
                                  .line = origin->line, .column = origin->column, .where = where};
    return KVC_OK;
nomem:
    free(t);
    free(v);
    free(where);
    return diag_set(diag, KVC_ERR_NOMEM, origin, "out of memory");
}

static kvc_status warn(arglist *list, kvc_diag *diag, const char *fmt, ...) KVC_PRINTF(3, 4);
static kvc_status warn(arglist *list, kvc_diag *diag, const char *fmt, ...)
{
    if (array_reserve(&list->warnings, &list->warnings_cap, list->nwarnings, sizeof *list->warnings))
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    list->warnings[list->nwarnings++] = text;
    return KVC_OK;
}

/* ------------------------------------------------------------ words */

/* What copy-paste makes of a "-" (UTF-8), and how a warning names it. */
static const struct dash {
    const char *bytes;
    const char *name;
} DASHES[] = {
    {"\xe2\x80\x94", "an em dash (U+2014)"},
    {"\xe2\x80\x93", "an en dash (U+2013)"},
    {"\xe2\x80\x90", "a Unicode hyphen (U+2010)"},
    {"\xe2\x80\x91", "a non-breaking hyphen (U+2011)"},
    {"\xe2\x80\x92", "a figure dash (U+2012)"},
    {"\xe2\x80\x95", "a horizontal bar (U+2015)"},
    {"\xe2\x88\x92", "a minus sign (U+2212)"},
    {"\xef\xb9\xa3", "a small hyphen-minus (U+FE63)"},
    {"\xef\xbc\x8d", "a fullwidth hyphen-minus (U+FF0D)"},
};

/* How a word reads before any release is chosen: not a flag, a flag as
 * SGLang takes it ("--name"), or a flag whose leading dashes were mangled. */
typedef struct flag_word {
    int is_flag;
    const char *name; /* after the dashes */
    size_t name_len;  /* up to '=' or the end */
    const char *eq;   /* the '=', or NULL */
    char mangled[96]; /* "" or what is wrong with the dashes */
} flag_word;

/* `any`: the options of every release, for telling "-page-size" (a long
 * flag with one dash lost) from "-m" (a program's option) or "-1". */
static void read_word(const option_index *any, const char *w, flag_word *out)
{
    memset(out, 0, sizeof *out);
    unsigned hyphens = 0;
    const struct dash *other = NULL;
    const char *p = w;
    for (;;) {
        if (*p == '-') {
            hyphens++;
            p++;
            continue;
        }
        const struct dash *d = NULL;
        for (size_t i = 0; i < COUNT_OF(DASHES) && !d; i++)
            if (strncmp(p, DASHES[i].bytes, strlen(DASHES[i].bytes)) == 0) d = &DASHES[i];
        if (!d) break;
        if (!other) other = d;
        p += strlen(d->bytes);
    }
    if (p == w || !*p || *p == '=') return; /* "-", "--", "—", "-=x": not flags */
    out->name = p;
    out->eq = strchr(p, '=');
    out->name_len = out->eq ? (size_t)(out->eq - p) : strlen(p);
    if (hyphens == 2 && !other) {
        out->is_flag = 1;
        return;
    }
    if (other) {
        str_printf(out->mangled, sizeof out->mangled, "%s", other->name);
    } else if (hyphens == 1) {
        char name[KVC_NAME_LEN + 2];
        if (out->name_len + 3 > sizeof name) return;
        str_printf(name, sizeof name, "--%.*s", (int)out->name_len, p);
        if (!option_find(any, name, strlen(name))) return;
        str_copy(out->mangled, sizeof out->mangled, "a single '-'");
    } else {
        str_printf(out->mangled, sizeof out->mangled, "%u hyphens", hyphens);
    }
    out->is_flag = 1;
}

static int is_flag_word(const option_index *any, const char *w)
{
    flag_word f;
    read_word(any, w, &f);
    return f.is_flag;
}

static int has_space(const char *w)
{
    for (; *w; w++)
        if (*w == ' ' || *w == '\t' || *w == '\n' || *w == '\r') return 1;
    return 0;
}

/* The words as they come, with a word that holds several (a list element
 * "--kv-cache-dtype bf16") split in place as a shell would split it. */
typedef struct word_stream {
    const word_list *list;
    const option_index *any;
    size_t i;
    shell_words split; /* the words of the element being split, if any */
    size_t j;
    kvc_origin split_origin;
} word_stream;

static int stream_more(const word_stream *s) { return s->j < s->split.n || s->i < s->list->n; }

static const char *stream_peek(const word_stream *s)
{
    return s->j < s->split.n ? s->split.words[s->j] : s->list->words[s->i];
}

/* Where the next word was written (a split word: where its element was). */
static void stream_origin(const word_stream *s, kvc_origin *out)
{
    if (s->j < s->split.n) *out = s->split_origin;
    else word_origin(s->list, s->i, out);
}

/* 1 when the shell that split the next word read it as NAME=value. */
static int stream_assign(const word_stream *s)
{
    if (s->j < s->split.n) return s->split.assign[s->j];
    return s->list->assign && s->list->assign[s->i];
}

static void stream_next(word_stream *s)
{
    if (s->j < s->split.n) s->j++; /* the split's words live until the next split or the end */
    else s->i++;
}

/* When the next word (not one of a split) holds several and the first of
 * them (`program`: any of them) is a flag, splits it and warns. */
static kvc_status stream_split(word_stream *s, arglist *list, int program, kvc_diag *diag)
{
    if (s->j < s->split.n || s->i >= s->list->n || !has_space(s->list->words[s->i])) return KVC_OK;
    const char *w = s->list->words[s->i];
    /* "--served-model-name=my model": one argument, as SGLang takes it */
    const char *eq = strchr(w, '='), *space = strpbrk(w, " \t\n\r");
    if (!program && eq && eq < space) return KVC_OK;
    shell_words split;
    if (shell_split(w, "", &split, NULL) != KVC_OK) return KVC_OK; /* an open quote: left as one word */
    int flag = split.n > 1 && is_flag_word(s->any, split.words[0]);
    for (size_t k = 1; program && !flag && k < split.n; k++) flag = is_flag_word(s->any, split.words[k]);
    if (!flag) {
        shell_words_free(&split);
        return KVC_OK;
    }
    kvc_origin o;
    word_origin(s->list, s->i, &o);
    char where[600];
    origin_format(&o, where, sizeof where);
    const char *label = o.where;
    strbuf as = {0};
    for (size_t k = 0; k < split.n; k++) sb_printf(&as, "%s'%s'", k ? " " : "", split.words[k]);
    kvc_status st = as.oom ? diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory")
                           : warn(list, diag,
                                  "%s%s'%s'%s%s%s holds %zu words in one: read as %s, as a shell splits them; SGLang "
                                  "would take it as one argument and refuse it: give each word separately",
                                  label, label[0] ? " " : "", w, where[0] ? " (" : "", where, where[0] ? ")" : "",
                                  split.n, as.p);
    free(as.p);
    if (st) {
        shell_words_free(&split);
        return st;
    }
    shell_words_free(&s->split);
    s->split = split;
    s->j = 0;
    s->split_origin = o;
    s->i++;
    return KVC_OK;
}

/* One word after the program's: a flag with mangled dashes is repaired
 * (with a warning), any other word kept as written. */
static kvc_status add_word(arglist *list, const option_index *any, const char *w, kvc_origin *o, kvc_diag *diag)
{
    flag_word f;
    read_word(any, w, &f);
    if (!f.is_flag || !f.mangled[0]) return args_push(list, ARG_WORD, w, NULL, o, diag);
    strbuf fixed = {0};
    sb_printf(&fixed, "--%s", f.name);
    char where[600];
    origin_format(o, where, sizeof where);
    size_t wlen = f.eq ? (size_t)(f.eq - w) : strlen(w);
    kvc_status st = fixed.oom ? diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory")
                              : warn(list, diag,
                                     "'%.*s'%s%s%s is read as --%.*s: its leading dashes are %s, not \"--\" "
                                     "(copy-paste does this); SGLang would refuse the word (unrecognized "
                                     "arguments): write --%.*s",
                                     (int)wlen, w, where[0] ? " (" : "", where, where[0] ? ")" : "",
                                     (int)f.name_len, f.name, f.mangled, (int)f.name_len, f.name);
    if (!st) st = args_push(list, ARG_WORD, fixed.p, NULL, o, diag);
    free(fixed.p);
    return st;
}

/* ------------------------------------------------------------ launchers */

/* The programs that start SGLang, by the words before its flags ("python"
 * stands for python, python3, python3.11, a path to one, and its own
 * options before -m). */
static const struct launcher {
    const char *const words[4]; /* NULL ends */
    const char *name;
    const char *since; /* the first release that has it; NULL: every release kvcheck has read */
    int dynamo;        /* Dynamo's wrapper: its own flags go before SGLang's parser */
} LAUNCHERS[] = {
    {{"python", "-m", "sglang.launch_server"}, "python3 -m sglang.launch_server", NULL, 0},
    /* the console script sglang = sglang.cli.main:main comes with 0.5.5's
     * wheel (entry_points.txt; sglang 0.5.5: python/sglang/cli/main.py) */
    {{"sglang", "serve"}, "sglang serve", "0.5.5", 0},
    {{"python", "-m", "dynamo.sglang"}, "python3 -m dynamo.sglang (Dynamo)", NULL, 1},
};

static const char *base_name(const char *w) { return strrchr(w, '/') ? strrchr(w, '/') + 1 : w; }

static int is_python(const char *w)
{
    const char *b = base_name(w);
    if (strncmp(b, "python", 6) != 0) return 0;
    for (b += 6; *b; b++)
        if (!((*b >= '0' && *b <= '9') || *b == '.')) return 0;
    return 1;
}

/* How many of words[0..n) name launcher `l` (0: they do not). */
static size_t launcher_words(const struct launcher *l, const char *const *w, size_t n)
{
    size_t i = 0;
    for (size_t k = 0; k < COUNT_OF(l->words) && l->words[k]; k++) {
        if (i >= n) return 0;
        if (strcmp(l->words[k], "python") == 0) {
            if (!is_python(w[i++])) return 0;
            /* python's own options before -m: -u, -O, -X opt, -W arg */
            while (i < n && w[i][0] == '-' && strcmp(w[i], "-m") != 0 && strcmp(w[i], "-c") != 0)
                i += strcmp(w[i], "-X") == 0 || strcmp(w[i], "-W") == 0 ? 2 : 1;
            continue;
        }
        if (strcmp(l->words[k], k == 0 ? base_name(w[i]) : w[i]) != 0) return 0;
        i++;
    }
    return i <= n ? i : 0;
}

static const struct launcher *launcher_of(const char *const *w, size_t n)
{
    for (size_t i = 0; i < COUNT_OF(LAUNCHERS); i++)
        if (launcher_words(&LAUNCHERS[i], w, n)) return &LAUNCHERS[i];
    return NULL;
}

size_t args_launch_words(const char *const *words, size_t n)
{
    const struct launcher *l = launcher_of(words, n);
    return l ? launcher_words(l, words, n) : 0;
}

/* Dynamo's own flags (dynamo.sglang's argument groups: --dyn-*, the
 * worker kinds, --disagg-config, --endpoint, ...): 1 when they take a
 * value, 0 when they are switches, -1 (--dyn-*) when the next word is
 * their value unless it is a flag. */
static int dynamo_flag(const char *w)
{
    static const struct {
        const char *name;
        int value;
    } FLAGS[] = {
        {"--use-sglang-tokenizer", 0}, {"--no-use-sglang-tokenizer", 0}, {"--multimodal-processor", 0},
        {"--multimodal-encode-worker", 0}, {"--multimodal-worker", 0}, {"--embedding-worker", 0},
        {"--image-diffusion-worker", 0}, {"--video-generation-worker", 0}, {"--disagg-config", 1},
        {"--disagg-config-key", 1}, {"--endpoint", 1}, {"--migration-limit", 1}, {"--dump-config-to", 1},
        {"--afd-attention-ratio", 1}, {"--afd-ffn-endpoint", 1}, {"--afd-microbatch-size", 1},
        {"--afd-sync-timeout-ms", 1},
    };
    size_t n = strcspn(w, "=");
    if (strncmp(w, "--dyn-", 6) == 0) return w[n] ? 0 : -1;
    for (size_t i = 0; i < COUNT_OF(FLAGS); i++)
        if (strlen(FLAGS[i].name) == n && strncmp(w, FLAGS[i].name, n) == 0) return w[n] ? 0 : FLAGS[i].value;
    return -2;
}

/* At a Dynamo flag: takes it and its value as one entry that SGLang's
 * parser never sees; 0 when the next word is no Dynamo flag. */
static int take_dynamo_flag(word_stream *s, arglist *list, kvc_status *st, kvc_diag *diag)
{
    const char *w = stream_peek(s);
    int value = dynamo_flag(w);
    if (value == -2) return 0;
    kvc_origin o;
    stream_origin(s, &o);
    strbuf text = {0};
    sb_puts(&text, w);
    stream_next(s);
    if (value != 0 && stream_more(s) && (value == 1 || strncmp(stream_peek(s), "--", 2) != 0)) {
        sb_printf(&text, " %s", stream_peek(s));
        stream_next(s);
    }
    *st = text.oom ? diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory")
                   : args_push(list, ARG_WRAPPER, text.p, NULL, &o, diag);
    free(text.p);
    return 1;
}

/* Words before the first flag that name no launcher: the flags after them
 * are read, and the words named in a warning. */
static kvc_status warn_program(arglist *list, const char *const *program, size_t n, const kvc_origin *at,
                               kvc_diag *diag)
{
    char text[400] = "", where[KVC_PATH_LEN];
    for (size_t i = 0; i < n; i++) str_join_add(text, sizeof text, " ", program[i]);
    origin_format(at, where, sizeof where);
    return warn(list, diag, "%s: '%s' before the first flag is no launcher kvcheck knows (python3 -m "
                "sglang.launch_server, sglang serve, python3 -m dynamo.sglang): the flags after it are read as "
                "SGLang's", where, text);
}

kvc_status args_parse_words(arglist *list, const word_list *words, kvc_diag *diag)
{
    option_index any;
    RETURN_IF_ERROR(option_index_build(&any, -1, diag));
    word_stream s = {.list = words, .any = &any};
    kvc_status st = KVC_OK;
    /* "python3 -m sglang.launch_server", "sglang serve MODEL" */
    const char *before = NULL, *last = NULL, *program[8];
    size_t nprogram = 0;
    kvc_origin last_origin, first_origin;
    while (!st && stream_more(&s)) {
        if ((st = stream_split(&s, list, 1, diag))) break;
        if (is_flag_word(&any, stream_peek(&s))) break;
        if (!nprogram && stream_assign(&s)) { /* "NAME=value --flags": the shell's environment */
            kvc_origin o;
            stream_origin(&s, &o);
            st = args_push(list, ARG_ENV, stream_peek(&s), NULL, &o, diag);
            stream_next(&s);
            continue;
        }
        before = last;
        last = stream_peek(&s);
        stream_origin(&s, &last_origin);
        if (!nprogram) first_origin = last_origin;
        if (nprogram < COUNT_OF(program)) program[nprogram++] = last;
        stream_next(&s);
    }
    const struct launcher *l = st ? NULL : launcher_of(program, nprogram);
    if (l) st = args_push(list, ARG_PROGRAM, l->name, l->since, &first_origin, diag);
    else if (!st && nprogram) st = warn_program(list, program, nprogram, &first_origin, diag);
    if (!st && before && last[0] != '-' && strcmp(before, "serve") == 0)
        st = args_push(list, ARG_SERVE_MODEL, last, NULL, &last_origin, diag);
    while (!st && stream_more(&s)) {
        if ((st = stream_split(&s, list, 0, diag))) break;
        if (l && l->dynamo && take_dynamo_flag(&s, list, &st, diag)) continue;
        kvc_origin o;
        stream_origin(&s, &o);
        st = add_word(list, &any, stream_peek(&s), &o, diag);
        stream_next(&s);
    }
    shell_words_free(&s.split);
    option_index_free(&any);
    return st;
}

kvc_status args_add_env(arglist *list, const char *assignment, const kvc_origin *origin, kvc_diag *diag)
{
    return args_push(list, ARG_ENV, assignment, NULL, origin, diag);
}

/* ------------------------------------------------------------- settings */

/* What folding needs beside the settings: the totals of what was dropped
 * from the fixed note lists. */
typedef struct fold_state {
    settings *out;
    unsigned release;
    unsigned ignored, warnings;
    strbuf unchecked;         /* the first four given flags SGLang's start-up checks read and kvcheck does not model */
    const char *checked[64];  /* their fields (one per flag, its aliases and repeats included), as far as they fit */
    unsigned nunchecked;      /* how many fields */
} fold_state;

static void fold_warn(fold_state *f, const char *fmt, ...) KVC_PRINTF(2, 3);
static void fold_warn(fold_state *f, const char *fmt, ...)
{
    char text[KVC_NOTE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    f->warnings++;
    notes_add(f->out->warnings, &f->out->nwarnings, SETTINGS_MAX_WARNINGS - 1, "%s", text);
}

/* Sets setting `key` to `value` (NULL: a switch that stored False, which
 * clears it), as given by `option` at `o`. */
static kvc_status set_value(fold_state *f, int key, const char *option, const char *value, const kvc_origin *o,
                            kvc_diag *diag)
{
    setting *s = &f->out->s[key];
    size_t len = value ? strlen(value) : 0;
    RETURN_ERROR_IF(len >= sizeof s->value, diag, KVC_ERR_CONFIG, o,
                    "the value of %s is %zu bytes long: kvcheck takes values of up to %zu bytes (a path of "
                    "PATH_MAX)",
                    option, len, sizeof s->value - 1);
    s->set = value != NULL;
    s->nvalues = value != NULL;
    s->reported = 0;
    memcpy(s->value, value ? value : "", len + 1);
    str_copy(s->flag, sizeof s->flag, option);
    s->origin = *o;
    return KVC_OK;
}

/* The text argparse would store for one use: its values joined by spaces,
 * ints in decimal; NULL with `*stores_nothing` for a switch storing False or
 * a deprecated action storing nothing. */
static char *use_value(const flag_use *u, const char *const *words, int *store)
{
    const sglang_flag_def *def = u->def;
    *store = 1;
    if (def->nargs == 0) {
        if (!def->stores || (def->action == SGA_BOOLEAN_OPTIONAL && strncmp(u->option, "--no-", 5) == 0) ||
            strcmp(def->stores, "False") == 0) {
            *store = def->stores != NULL;
            return NULL;
        }
        return dup_str(strcmp(def->stores, "True") == 0 ? "" : def->stores);
    }
    strbuf sb = {0};
    for (size_t k = 0; k < u->nvalues; k++) {
        const char *v = u->explicit_arg ? u->explicit_arg : words[u->first + k];
        char num[SETTING_VALUE_LEN];
        v = py_number(def, v, num, sizeof num);
        if (k) sb_putc(&sb, ' ');
        sb_puts(&sb, v);
    }
    if (!sb.p) sb_puts(&sb, "");
    return sb_take(&sb);
}

/* A deprecated action's text with "{opt}" as the option given. */
static void fill_opt(char *out, size_t size, const char *message, const char *option)
{
    const char *at = strstr(message, "{opt}");
    if (!at) str_copy(out, size, message);
    else str_printf(out, size, "%.*s%s%s", (int)(at - message), message, option, at + 5);
}

/* The review of check-table row `row` (check_review.c), or NULL. */
static const sglang_check_review *review_of(const sglang_check_row *row)
{
    for (unsigned i = 0; i < SGLANG_NCHECK_REVIEWS; i++) {
        const sglang_check_review *r = &SGLANG_CHECK_REVIEWS[i];
        if (r->releases == row->releases && strcmp(r->dest, row->dest) == 0 && strcmp(r->cite, row->cite) == 0)
            return r;
    }
    return NULL;
}

/* A start-up check of release `rel` that reads ServerArgs field `dest` and that no review accounts for (the first
 * such row of check_table.c, in file order), or NULL; then *reviewed is the review of the field's first row of the
 * release, or NULL where no check reads the field, and *nreviewed counts the release's reviewed rows. */
static const char *check_reading(const char *dest, unsigned rel, const sglang_check_review **reviewed,
                                 unsigned *nreviewed)
{
    *reviewed = NULL;
    *nreviewed = 0;
    for (unsigned i = 0; i < SGLANG_NCHECK_ROWS; i++) {
        const sglang_check_row *row = &SGLANG_CHECK_ROWS[i];
        if (!(row->releases & SGLANG_RELEASE_BIT(rel)) || strcmp(row->dest, dest) != 0) continue;
        const sglang_check_review *r = review_of(row);
        if (!r) return row->cite;
        if (!(*nreviewed)++) *reviewed = r;
    }
    return NULL;
}

/* Adds the flag `option` of field `dest` to those whose checks kvcheck does not model, once per field (a repeat
 * or an alias is the same flag); the first four are named. */
static void unchecked_add(fold_state *f, const char *option, const char *dest)
{
    unsigned kept = f->nunchecked < COUNT_OF(f->checked) ? f->nunchecked : COUNT_OF(f->checked);
    for (unsigned i = 0; i < kept; i++)
        if (strcmp(f->checked[i], dest) == 0) return;
    if (f->nunchecked < COUNT_OF(f->checked)) f->checked[f->nunchecked] = dest;
    if (f->nunchecked++ >= 4) return;
    if (f->unchecked.p) sb_puts(&f->unchecked, ", ");
    sb_puts(&f->unchecked, option);
}

/* Secrets a launch may carry: kvcheck never repeats their values (its reports go to CI logs and issues). A flag or
 * /server_info field by its dest; an environment variable by its name: a word of it (between underscores) that holds
 * TOKEN as a whole, or holds KEY, SECRET, PASSWORD, PASSWD or CREDENTIAL (HF_TOKEN, AWS_SECRET_ACCESS_KEY,
 * PGPASSWORD, OPENAI_APIKEY; not ..._TOKENS_PER_RANK). */
static int secret_dest(const char *dest)
{
    static const char *const SECRET_DESTS[] = {"api_key",          "admin_api_key",   "ssl_keyfile_password",
                                               "watermark_config", "watermark_key", "watermark_key_b"};
    for (size_t i = 0; i < COUNT_OF(SECRET_DESTS); i++)
        if (strcmp(dest, SECRET_DESTS[i]) == 0) return 1;
    return 0;
}
static int secret_env(const char *name, size_t n)
{
    static const char *const PARTS[] = {"KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"};
    for (size_t at = 0; at < n;) {
        size_t len = strcspn(name + at, "_");
        if (len > n - at) len = n - at;
        char word[64] = "";
        if (len < sizeof word) {
            for (size_t i = 0; i < len; i++) word[i] = (char)toupper((unsigned char)name[at + i]);
            word[len] = '\0';
        }
        if (strcmp(word, "TOKEN") == 0) return 1;
        for (size_t i = 0; i < COUNT_OF(PARTS); i++)
            if (strstr(word, PARTS[i])) return 1;
        at += len + 1;
    }
    return 0;
}

/* One option SGLang took (an unambiguous prefix is read as its option,
 * silently, as argparse does: "--tp 8" is how SGLang's docs write --tp-size). */
static kvc_status fold_use(fold_state *f, const flag_use *u, const char *const *words, const kv_arg *const *at,
                           kvc_diag *diag)
{
    const kv_arg *a = at[u->word];
    kvc_origin o;
    arg_origin(a, &o);
    int secret = secret_dest(u->def->dest);
    if (secret && !a->where) str_copy(o.where, sizeof o.where, u->option); /* not "--api-key=value" */
    char where[600];
    origin_format(&o, where, sizeof where);
    if (u->def->message) {
        char said[KVC_NOTE_LEN];
        fill_opt(said, sizeof said, u->def->message, u->option);
        fold_warn(f, "%s (%s): SGLang warns: %s", u->option, where, said);
    }
    int store;
    char *value = use_value(u, words, &store);
    if (!value && store && u->def->nargs != 0) return diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
    int key = setting_key_of_dest(u->def->dest);
    kvc_status st = KVC_OK;
    if (key >= 0 && store) {
        st = set_value(f, key, u->option, value, &o, diag);
        f->out->s[key].nvalues = (unsigned)u->nvalues;
    } else if (key < 0) {
        const sglang_check_review *reviewed;
        unsigned nreviewed;
        const char *cite = check_reading(u->def->dest, f->release, &reviewed, &nreviewed);
        if (cite) unchecked_add(f, u->option, u->def->dest);
        f->ignored++;
        if (f->out->nignored < KVC_MAX_NOTES - 1) {
            char why[KVC_NOTE_LEN] = "";
            if (cite) str_printf(why, sizeof why, ": SGLang's start-up checks read it (%s), which kvcheck does not "
                                 "model", cite);
            else if (reviewed && nreviewed > 1)
                str_printf(why, sizeof why, ": SGLang's start-up checks of it in %u files cannot refuse this worker "
                           "(src/engine/sglang/check_review.c); those of the first %s", nreviewed, reviewed->why);
            else if (reviewed) str_printf(why, sizeof why, ": SGLang's start-up checks of it %s", reviewed->why);
            notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1, "%s%s%s (%s)%s", u->option,
                      value && value[0] ? " " : "", value ? (secret ? "***" : value) : "", where, why);
        }
    }
    free(value);
    return st;
}

/* ------------------------------------------------------------ the parse */

/* The words argparse is given, each with the entry it came from. */
typedef struct argv_list {
    const char **words;
    const kv_arg **at;
    size_t n, cap;
} argv_list;

static kvc_status argv_add(argv_list *v, const kv_arg *a, kvc_diag *diag)
{
    size_t cap = v->cap, at_cap = v->cap;
    if (array_reserve(&v->words, &cap, v->n, sizeof *v->words) || array_reserve(&v->at, &at_cap, v->n, sizeof *v->at))
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    v->cap = cap;
    v->words[v->n] = a->text;
    v->at[v->n++] = a;
    return KVC_OK;
}

static kvc_status argv_add_all(argv_list *v, const arglist *list, size_t from, size_t to, kvc_diag *diag)
{
    for (size_t i = from; i < to; i++)
        if (list->v[i].kind == ARG_WORD) RETURN_IF_ERROR(argv_add(v, &list->v[i], diag));
    return KVC_OK;
}

/* SGLang's prepare_server_args: `if "--config" in argv`, the merger puts
 * the file's flags first and drops "--config FILE" (only that exact word:
 * "--config=F" or a prefix is parsed as a plain flag and the file is never
 * read; sglang 0.5.23: python/sglang/srt/server_args.py:683-689,
 * srt/utils/server_args_config_parser.py:75-122; an empty FILE merges
 * nothing, :92). `*at` is the index of
 * "--config" in `cli`, or cli->n. */
static kvc_status merge_config(const arglist *cli, const char *base_dir, unsigned release, arglist *words,
                               size_t *at, kvc_diag *diag)
{
    *at = cli->n;
    for (size_t i = 0; i < cli->n; i++) {
        const kv_arg *a = &cli->v[i];
        if (a->kind != ARG_WORD || strcmp(a->text, "--config") != 0) continue;
        kvc_origin o;
        arg_origin(a, &o);
        RETURN_ERROR_IF(*at < cli->n, diag, KVC_ERR_CONFIG, &o,
                        "SGLang %s stops: ValueError: Multiple config files specified! Only one allowed.",
                        SGLANG_VERSIONS[release]);
        RETURN_ERROR_IF(i + 1 == cli->n || cli->v[i + 1].kind != ARG_WORD, diag, KVC_ERR_CONFIG, &o,
                        "SGLang %s stops: ValueError: No config file specified after --config flag!",
                        SGLANG_VERSIONS[release]);
        *at = i;
    }
    /* an empty path merges nothing (the merger tests `if not config_file_path`) */
    if (*at == cli->n || !cli->v[*at + 1].text[0]) {
        *at = cli->n;
        return KVC_OK;
    }
    const kv_arg *file = &cli->v[*at + 1];
    kvc_origin o;
    arg_origin(file, &o);
    /* pathlib's Path(file).suffix.lower() in (".yaml", ".yml") */
    const char *name = strrchr(file->text, '/') ? strrchr(file->text, '/') + 1 : file->text;
    const char *dot = strrchr(name, '.');
    const char *suffix = dot && dot != name && dot[1] ? dot : "";
    RETURN_ERROR_IF(!str_ieq(suffix, ".yaml") && !str_ieq(suffix, ".yml"), diag, KVC_ERR_CONFIG, &o,
                    "SGLang %s stops: ValueError: Config file must be YAML format, got: %s",
                    SGLANG_VERSIONS[release], suffix);
    char path[KVC_PATH_LEN];
    RETURN_IF_ERROR(path_join_checked(base_dir, file->text, path, sizeof path, &o, diag));
    arglist yaml = {0};
    kvc_status st = args_load_yaml(&yaml, path, diag);
    if (!st) st = config_to_words(&yaml, release, words, diag);
    arglist_free(&yaml);
    return st;
}

/* "; --kv_cache_dtype: did you mean --kv-cache-dtype?" for the first few
 * unrecognized flags, and which releases know a flag this one does not. */
static void suggest(const argparse_result *r, const option_index *idx, const option_index *any,
                    const char *const *words, unsigned release, strbuf *out)
{
    unsigned shown = 0;
    for (size_t k = 0; k < r->nextras && shown < 8; k++) {
        const char *w = words[r->extras[k]];
        if (w[0] != '-' || strcmp(w, "--") == 0 || (w[1] != '-' && !w[1])) continue;
        shown++;
        size_t n = strcspn(w, "=");
        sb_printf(out, "; %.*s: ", (int)n, w);
        if (option_find(idx, w, n)) { /* only after "--" is a flag of the release an argument */
            sb_printf(out, "a flag of SGLang %s, but after \"--\" every word is an argument: drop the \"--\"",
                      SGLANG_VERSIONS[release]);
            continue;
        }
        uint64_t known = option_releases(any, w, n);
        if (known) { /* the oldest and the newest that know it */
            unsigned newest = 0, oldest = 0;
            for (unsigned b = 0; b < SGLANG_NRELEASES; b++)
                if (known >> b & 1) oldest = b;
            while (!(known >> newest & 1)) newest++;
            sb_printf(out, "SGLang %s%s%s knows it, %s does not; ", SGLANG_VERSIONS[oldest],
                      newest != oldest ? " to " : "", newest != oldest ? SGLANG_VERSIONS[newest] : "",
                      SGLANG_VERSIONS[release]);
        }
        const char *near[3];
        unsigned nn = nearest_options(idx, w, near, 3);
        if (!nn) sb_printf(out, "no flag of SGLang %s is close", SGLANG_VERSIONS[release]);
        for (unsigned i = 0; i < nn; i++)
            sb_printf(out, "%s%s", i == 0 ? "did you mean " : i + 1 == nn ? " or " : ", ", near[i]);
        if (nn) sb_puts(out, "?");
    }
}

/* `sglang serve MODEL`: from 0.5.16 the entrypoint makes the model word
 * "--model-path MODEL" before the flags (sglang 0.5.16:
 * python/sglang/cli/serve.py:49-53); older
 * releases' `serve` and `python -m sglang.launch_server` take no such word. */
static kvc_status serve_model_words(const arglist *cli, unsigned release, arglist *out, kvc_diag *diag)
{
    int since = sglang_release_index("0.5.16");
    for (size_t i = 0; i < cli->n; i++) {
        const kv_arg *a = &cli->v[i];
        if (a->kind != ARG_SERVE_MODEL || since < 0 || release > (unsigned)since) continue;
        kvc_origin o;
        arg_origin(a, &o);
        RETURN_IF_ERROR(args_push(out, ARG_WORD, "--model-path", NULL, &o, diag));
        RETURN_IF_ERROR(args_push(out, ARG_WORD, a->text, NULL, &o, diag));
    }
    return KVC_OK;
}

static kvc_status parse_error(const argparse_result *r, const option_index *idx, const argv_list *argv,
                              unsigned release, kvc_diag *diag)
{
    kvc_origin o;
    arg_origin(argv->at[r->at], &o);
    const char *ver = SGLANG_VERSIONS[release];
    if (r->exits)
        return diag_set(diag, KVC_ERR_CONFIG, &o, "SGLang %s: %s: no server starts; leave it out of the command",
                        ver, r->msg.p);
    if (r->raises) return diag_set(diag, KVC_ERR_CONFIG, &o, "SGLang %s stops: %s", ver, r->msg.p); /* "ValueError: ..." */
    strbuf hint = {0};
    if (r->nextras) {
        option_index any;
        if (option_index_build(&any, -1, diag)) return KVC_ERR_NOMEM;
        suggest(r, idx, &any, argv->words, release, &hint);
        option_index_free(&any);
    } else if (strstr(r->msg.p, ": expected ")) {
        sb_puts(&hint, "; give the flag its value");
    } else if (strstr(r->msg.p, ": ignored explicit argument ")) {
        sb_puts(&hint, "; the flag takes no value: write it alone to enable it");
    } else if (strncmp(r->msg.p, "ambiguous option", 16) == 0) {
        sb_puts(&hint, "; write the flag out in full");
    }
    kvc_status st = diag_set(diag, KVC_ERR_CONFIG, &o, "SGLang %s stops: \"%s: error: %s\"%s", ver,
                             SGLANG_PARSERS[release].prog, r->msg.p, hint.p ? hint.p : "");
    free(hint.p);
    return st;
}

/* A /server_info key: a ServerArgs field, read by its dest. */
static kvc_status fold_dump(fold_state *f, const kv_arg *a, unsigned release, kvc_diag *diag)
{
    kvc_origin o;
    arg_origin(a, &o);
    int key = setting_key_of_dest(a->text);
    const sglang_flag_def *def = NULL, *old = NULL;
    const sglang_parser_def *p = &SGLANG_PARSERS[release];
    for (unsigned i = 0; key >= 0 && i < p->n && !def; i++) {
        const sglang_flag_def *d = &SGLANG_FLAG_DEFS[SGLANG_FLAG_ROWS[p->order[i]].def];
        if (strcmp(d->dest, a->text) != 0) continue;
        if (deprecated(d)) old = d;
        else def = d;
    }
    if (!def || def->type == SGT_JSON) { /* listed, not read */
        f->ignored++;
        char where[600];
        origin_format(&o, where, sizeof where);
        const char *shown = secret_dest(a->text) ? "***" : a->value;
        if (def) /* a list or a mapping, which the dump gives as "[...]": the checks that read it passed on the
                    running server */
            notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1,
                      "%s %s (%s): a running server's JSON value", a->text, shown, where);
        else if (old) /* e.g. 0.5.23's enable_dp_attention, reported from attn_dp_size (server_args.py:319-332) */
            notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1,
                      "%s %s (%s): the field of %.*s, deprecated in SGLang %s, which reports it from the setting that "
                      "replaces it; not read",
                      a->text, shown, where, (int)strcspn(old->names, "/"), old->names, SGLANG_VERSIONS[release]);
        else
            notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1, "%s %s (%s)%s", a->text, shown, where,
                      key >= 0 ? ": not a flag of this SGLang release" : "");
        return KVC_OK;
    }
    char option[KVC_NAME_LEN];
    str_printf(option, sizeof option, "%.*s", (int)strcspn(def->names, "/"), def->names);
    if (def->nargs == 0) return set_value(f, key, option, a->dump_bool == 1 ? "" : NULL, &o, diag);
    if (a->dump_bool == 2) return KVC_OK; /* null: not set */
    strbuf msg = {0};
    char num[SETTING_VALUE_LEN];
    const char *value = py_number(def, a->value, num, sizeof num);
    if (!argparse_check_value(def, a->value, &msg)) {
        kvc_status st = diag_set(diag, KVC_ERR_CONFIG, &o, "SGLang %s's parser would refuse this value: %s",
                                 SGLANG_VERSIONS[release], msg.p ? msg.p : "out of memory");
        free(msg.p);
        return st;
    }
    free(msg.p);
    RETURN_IF_ERROR(set_value(f, key, option, value, &o, diag));
    f->out->s[key].reported = 1;
    return KVC_OK;
}

/* An entry SGLang never reads, listed with what it is. */
static void fold_ignored(fold_state *f, const kv_arg *a, const char *what)
{
    kvc_origin o;
    arg_origin(a, &o);
    char where[600];
    origin_format(&o, where, sizeof where);
    f->ignored++;
    size_t n = strcspn(a->text, "=");
    if (a->text[n] && secret_env(a->text, n)) /* NAME=value */
        notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1, "%.*s=*** (%s): %s", (int)n, a->text, where,
                  what);
    else
        notes_add(f->out->ignored, &f->out->nignored, KVC_MAX_NOTES - 1, "%s (%s): %s", a->text, where, what);
}

/* 1 for SGL_<X>=value, which SGLang copies over SGLANG_<X> when it starts, with a warning (every release: sglang
 * 0.5.3rc2: python/sglang/srt/environ.py:216-226; 0.5.23: :2294-2306). */
static int sgl_alias(const kv_arg *a) { return strncmp(a->text, "SGL_", 4) == 0; }

/* NAME=value: a setting when NAME is one of ENVS (SGL_<X> taken as SGLANG_<X>), else listed as ignored. */
static kvc_status fold_env(fold_state *f, const kv_arg *a, kvc_diag *diag)
{
    const char *eq = strchr(a->text, '=');
    size_t n = eq ? (size_t)(eq - a->text) : strlen(a->text);
    char name[256];
    if (sgl_alias(a)) str_printf(name, sizeof name, "SGLANG_%.*s", (int)(n - 4), a->text + 4);
    else str_printf(name, sizeof name, "%.*s", (int)n, a->text);
    kvc_origin o;
    arg_origin(a, &o);
    if (sgl_alias(a)) {
        char where[600];
        origin_format(&o, where, sizeof where);
        fold_warn(f, "%.*s (%s): SGLang warns \"Environment variable %.*s is deprecated, please use %s\" and copies "
                  "it over %s when it starts (sglang 0.5.3rc2: python/sglang/srt/environ.py:216-226; 0.5.23: "
                  ":2294-2306)", (int)n, a->text, where, (int)n, a->text, name, name);
    }
    for (size_t i = 0; i < COUNT_OF(ENVS); i++) {
        if (strcmp(ENVS[i].name, name) != 0) continue;
        if (sglang_release_in(f->release, ENVS[i].read.since, ENVS[i].read.until))
            return set_value(f, (int)ENVS[i].key, ENVS[i].name, eq ? eq + 1 : "", &o, diag);
        char what[80];
        str_printf(what, sizeof what, "an environment variable SGLang %s does not read", SGLANG_VERSIONS[f->release]);
        fold_ignored(f, a, what);
        for (size_t k = 0; k < COUNT_OF(ENVS_DEPRECATED); k++) {
            const struct env_deprecated *e = &ENVS_DEPRECATED[k];
            if (!strcmp(e->name, name) && sglang_release_in(f->release, e->when.since, e->when.until)) {
                char where[600];
                origin_format(&o, where, sizeof where);
                fold_warn(f, "%s (%s): SGLang warns \"%s\" (%s)", name, where, e->warning, e->cite);
            }
        }
        return KVC_OK;
    }
    fold_ignored(f, a, "an environment variable: kvcheck models none that changes the KV layout");
    return KVC_OK;
}

/* The program that starts the worker exists in release `release`. */
static kvc_status check_program(const kv_arg *a, unsigned release, kvc_diag *diag)
{
    int since = a->value ? sglang_release_index(a->value) : -1;
    kvc_origin o;
    arg_origin(a, &o);
    RETURN_ERROR_IF(since >= 0 && release > (unsigned)since, diag, KVC_ERR_CONFIG, &o,
                    "%s: SGLang %s has no such command (it comes with %s): start it with python3 -m "
                    "sglang.launch_server",
                    a->text, SGLANG_VERSIONS[release], a->value);
    return KVC_OK;
}

static kvc_status fold_all(fold_state *f, const arglist *cli, const argv_list *argv, const argparse_result *r,
                           unsigned release, kvc_diag *diag)
{
    for (size_t i = 0; i < cli->n; i++) {
        const kv_arg *a = &cli->v[i];
        if (a->kind == ARG_DUMP) RETURN_IF_ERROR(fold_dump(f, a, release, diag));
        if (a->kind == ARG_ENV && !sgl_alias(a)) RETURN_IF_ERROR(fold_env(f, a, diag));
        if (a->kind == ARG_WRAPPER) fold_ignored(f, a, "Dynamo's own flag (python3 -m dynamo.sglang), not SGLang's");
    }
    for (size_t i = 0; i < cli->n; i++) /* the SGL_ copies, which win */
        if (cli->v[i].kind == ARG_ENV && sgl_alias(&cli->v[i])) RETURN_IF_ERROR(fold_env(f, &cli->v[i], diag));
    for (size_t i = 0; i < r->nuses; i++) {
        RETURN_IF_ERROR(fold_use(f, &r->uses[i], argv->words, argv->at, diag));
        if (setting_key_of_dest(r->uses[i].def->dest) != SET_CONFIG) continue;
        kvc_origin o;
        char where[600];
        arg_origin(argv->at[r->uses[i].word], &o);
        origin_format(&o, where, sizeof where);
        fold_warn(f, "'%s' (%s): SGLang %s loads a config file only from the two words '--config FILE'; written "
                     "so, it stores the path and never reads the file",
                  argv->words[r->uses[i].word], where, SGLANG_VERSIONS[release]);
    }
    return KVC_OK;
}

static void copy_list_warnings(fold_state *f, const arglist *list)
{
    for (size_t i = 0; i < list->nwarnings; i++) fold_warn(f, "%s", list->warnings[i]);
}

kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir, unsigned release,
                          settings *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    RETURN_ERROR_IF(release >= SGLANG_NRELEASES, diag, KVC_ERR_INTERNAL, NULL, "no SGLang release %u", release);
    fold_state f = {.out = out, .release = release};
    arglist merged = {0}; /* words made of YAML files */
    argv_list argv = {0};
    argparse_result r = {0};
    option_index idx = {0};
    size_t at = cli->n;
    kvc_status st = config_to_words(config, release, &merged, diag);
    for (size_t i = 0; i < cli->n && !st; i++)
        if (cli->v[i].kind == ARG_PROGRAM) st = check_program(&cli->v[i], release, diag);
    if (!st) st = serve_model_words(cli, release, &merged, diag);
    if (!st) st = merge_config(cli, base_dir, release, &merged, &at, diag);
    if (!st) st = argv_add_all(&argv, &merged, 0, merged.n, diag);
    if (!st) st = argv_add_all(&argv, cli, 0, at, diag);
    if (!st && at < cli->n) st = argv_add_all(&argv, cli, at + 2, cli->n, diag);
    if (!st) st = option_index_build(&idx, (int)release, diag);
    if (!st) {
        st = argparse_run(&idx, argv.words, argv.n, &r);
        if (st == KVC_ERR_NOMEM) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        else if (st) st = parse_error(&r, &idx, &argv, release, diag);
    }
    copy_list_warnings(&f, config);
    copy_list_warnings(&f, &merged);
    copy_list_warnings(&f, cli);
    if (!st) st = fold_all(&f, cli, &argv, &r, release, diag);
    if (f.nunchecked) {
        char more[40] = "";
        if (f.nunchecked > 4) str_printf(more, sizeof more, " and %u more flags", f.nunchecked - 4);
        fold_warn(&f, "some of SGLang %s's start-up checks read %s%s, which kvcheck does not model (they may not apply "
                  "to this worker): it judges the KV layout as if the worker starts (-v shows where SGLang checks "
                  "each)", SGLANG_VERSIONS[release], f.unchecked.p ? f.unchecked.p : "out of memory", more);
    }
    free(f.unchecked.p);
    if (f.ignored > out->nignored)
        notes_add(out->ignored, &out->nignored, KVC_MAX_NOTES, "... and %u more", f.ignored - out->nignored);
    if (f.warnings > out->nwarnings)
        notes_add(out->warnings, &out->nwarnings, SETTINGS_MAX_WARNINGS, "... and %u more warnings",
                  f.warnings - out->nwarnings);
    argparse_result_free(&r);
    option_index_free(&idx);
    free(argv.words);
    free(argv.at);
    arglist_free(&merged);
    return st;
}
