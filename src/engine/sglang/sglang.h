/* SGLang behind the engine interface: its launch flags (flags.c), --config
 * YAML (config.c), /server_info dumps (server_info.c), the rules that turn
 * settings into a KV layout (rules.c, quant.c: rules.h), and what it does with a PD pair:
 * fix candidates, the bootstrap check, the transfer (pd.c). sglang.c fills
 * the engine row. Private to src/engine/sglang/. */
#ifndef KVC_ENGINE_SGLANG_H
#define KVC_ENGINE_SGLANG_H

#include "engine/engine.h"

/* ---------------------------------------------------------------- releases */

/* The SGLang releases kvcheck has read, newest first (releases.c). A
 * release is an index into this list; masks of releases are uint64_t with
 * bit i for SGLANG_VERSIONS[i]. */
#define SGLANG_NRELEASES 38
extern const char *const SGLANG_VERSIONS[SGLANG_NRELEASES];
#define SGLANG_RELEASE_BIT(r) ((uint64_t)1 << (r))
/* The index of a version in SGLANG_VERSIONS, or -1. */
int sglang_release_index(const char *version);
/* 1 when release `rel` is from `since` to `until`, both included (NULL:
 * open on that end; a version that is none is past every release). */
int sglang_release_in(unsigned rel, const char *since, const char *until);
/* The engine's find_release (engine.h). */
kvc_status sglang_find_release(const char *asked, unsigned *index, char *note, size_t size, kvc_diag *diag);

/* Releases from `since` to `until`, both included; NULL: open on that end
 * ("never": past every release). Rule rows name the releases they hold
 * for by one. */
typedef struct span {
    const char *since, *until;
} span;
#define EVER {NULL, NULL}
#define SINCE(v) {v, NULL}
#define UNTIL(v) {NULL, v}
#define FROM_TO(a, b) {a, b}
#define NEVER {NULL, "never"} /* past every release */
/* In a span collector (`span *out`, `size_t max`, `size_t n`): the span
 * `expr` of each row i of `table`. */
#define SPAN_EACH(table, expr)                                                                                         \
    for (size_t i = 0; i < COUNT_OF(table); i++, n++)                                                                  \
        if (n < max) out[n] = (expr)

/* ------------------------------------------------------ the parsers' tables */

/* Every release's own launch-flag parser, generated from dumps of the
 * parser each release's prepare_server_args hands to argparse
 * (flag_table.c, by tools/sglang-oracle/gen_flags.py). */

/* What an option does when given (argparse's action classes, SGLang's own). */
typedef enum sglang_action {
    SGA_STORE,
    SGA_STORE_TRUE,
    SGA_STORE_FALSE,
    SGA_STORE_CONST,
    SGA_APPEND,
    SGA_APPEND_CONST,
    SGA_COUNT,
    SGA_HELP,                   /* prints the help and exits: no server */
    SGA_VERSION,
    SGA_BOOLEAN_OPTIONAL,       /* --x stores True, --no-x False */
    SGA_CUSTOM,                 /* LoRAPathAction: stores its values */
    SGA_DEPRECATED,             /* warns (`message`), stores nothing */
    SGA_DEPRECATED_ERROR,       /* parser.error(`message`): exit 2 */
    SGA_DEPRECATED_RAISE,       /* raise ValueError(help) (<= 0.5.4): a traceback */
    SGA_DEPRECATED_STORE_TRUE,  /* warns, stores True */
    SGA_DEPRECATED_STORE_CONST, /* warns, stores its const */
    SGA_DEPRECATED_ALIAS,       /* warns, stores its value(s) in the new flag's dest */
} sglang_action;

/* argparse's nargs: None, '?', '*', '+', or a count (0: a switch). */
enum { SGN_ONE = -1, SGN_OPTIONAL = -2, SGN_ANY = -3, SGN_SOME = -4 };
/* The `type=` a value goes through: int and float are checked as Python's
 * int() and float() check them, json.loads and SGLang's json_list_type as
 * JSON, SGLang's human_readable_int ("1k", "2Mi") as it parses; other
 * callables (nullable_str, the CUDA-graph parsers) are not run. */
typedef enum sglang_type { SGT_STR, SGT_INT, SGT_FLOAT, SGT_JSON, SGT_HUMAN_INT, SGT_OTHER } sglang_type;

typedef struct sglang_flag_def {
    const char *names; /* the action's option strings joined by '/', as argparse names it in errors */
    const char *dest;
    const char *action_class; /* "_StoreAction", "DeprecatedAliasStoreAction" */
    uint8_t action;           /* sglang_action */
    int8_t nargs;
    uint8_t type;             /* sglang_type */
    uint16_t choices;         /* index into SGLANG_CHOICES; 0: any value */
    const char *stores;       /* what a switch stores ("True", "False", a const); NULL: nothing */
    const char *message;      /* a deprecated action's warning or error; "{opt}": the option as given */
    const char *type_name;    /* the type's __name__, for argparse's "invalid loads value: 'x'" */
    const char *type_message; /* its ArgumentTypeError's text, "{value}" the value; NULL: argparse's */
} sglang_flag_def;

/* One option string with one definition, and the releases it holds for. */
typedef struct sglang_flag_row {
    const char *option; /* "--kv-cache-dtype" */
    uint16_t def;       /* index into SGLANG_FLAG_DEFS */
    uint64_t releases;  /* SGLANG_RELEASE_BIT mask */
} sglang_flag_row;

/* One release's parser: its prog and its option rows in argparse's
 * registration order (the order "ambiguous option" lists matches in). */
typedef struct sglang_parser_def {
    const char *prog;
    const uint16_t *order;
    uint16_t n;
} sglang_parser_def;

extern const char *const SGLANG_FLAG_RELEASES[SGLANG_NRELEASES];
extern const char *const *const SGLANG_CHOICES[];
extern const sglang_flag_def SGLANG_FLAG_DEFS[];
extern const sglang_flag_row SGLANG_FLAG_ROWS[];
extern const unsigned SGLANG_NFLAG_ROWS;
extern const uint16_t SGLANG_FLAG_SORTED[]; /* row indices in strcmp order of their options */
extern const sglang_parser_def SGLANG_PARSERS[SGLANG_NRELEASES];

/* A ServerArgs field that start-up checks (raise, assert) in one file read,
 * and the releases they do (check_table.c, generated by
 * tools/sglang-oracle/gen_checks.py from each release's code). */
typedef struct sglang_check_row {
    const char *dest;
    uint64_t releases; /* SGLANG_RELEASE_BIT mask */
    const char *cite;  /* the first such check of the newest of those releases */
} sglang_check_row;
extern const sglang_check_row SGLANG_CHECK_ROWS[];
extern const unsigned SGLANG_NCHECK_ROWS;

/* A check-table row read through, in every release it holds for, and found
 * unable to refuse a worker kvcheck judges (check_review.c): what it checks
 * needs something kvcheck declines or refuses first, or giving the flag only
 * skips it. dest, releases and cite are the row's own, so a regenerated row
 * (a new release, a moved line) no longer matches and warns again. */
typedef struct sglang_check_review {
    const char *dest;
    uint64_t releases;
    const char *cite;
    const char *why; /* with the citations of the guards read */
} sglang_check_review;
extern const sglang_check_review SGLANG_CHECK_REVIEWS[];
extern const unsigned SGLANG_NCHECK_REVIEWS;

/* --------------------------------------------------------------- argparse */

/* Room for element `n` of a growable array (`array` points to the
 * pointer, *cap elements of `size` bytes): 0, or -1 when out of memory
 * (the array is left as it was). */
int array_reserve(void *array, size_t *cap, size_t n, size_t size);

/* One release's options (release -1: every row of every release), sorted
 * by option string for exact and prefix look-ups in O(log n). */
typedef struct option_index {
    const sglang_flag_row **rows;
    size_t n;
    uint16_t *rank; /* per SGLANG_FLAG_ROWS index: its place in the release's registration order */
} option_index;
kvc_status option_index_build(option_index *idx, int release, kvc_diag *diag);
void option_index_free(option_index *idx);
/* The row whose option is exactly name[0..n), or NULL. */
const sglang_flag_row *option_find(const option_index *idx, const char *name, size_t n);
/* The releases whose rows in `idx` spell the option name[0..n) exactly. */
uint64_t option_releases(const option_index *idx, const char *name, size_t n);

/* One option argparse took: its definition, the option string it resolved
 * the word to, and its values (the explicit "=value", or words
 * [first, first + nvalues)). */
typedef struct flag_use {
    const sglang_flag_def *def;
    const char *option;
    size_t word;
    const char *explicit_arg;
    size_t first, nvalues;
} flag_use;

typedef struct argparse_result {
    flag_use *uses;
    size_t nuses, cap;
    size_t *extras; /* the words nothing took, in order ("unrecognized arguments") */
    size_t nextras, extras_cap;
    size_t at;      /* on error: the word it is about */
    strbuf msg;     /* on error: argparse's message, without "prog: error: " */
    int exits;      /* the error is --help or --version: SGLang prints and exits 0 */
    int raises;     /* the error is a ValueError traceback, not argparse's exit 2 */
} argparse_result;

/* parser.parse_args(words) under `idx`'s release: KVC_OK with the uses in
 * order, KVC_ERR_CONFIG with argparse's message and word, KVC_ERR_NOMEM. */
kvc_status argparse_run(const option_index *idx, const char *const *words, size_t n, argparse_result *r);
void argparse_result_free(argparse_result *r);
/* argparse's checks of one value: type= (int, float), then choices; 0 with
 * argparse's message appended to `msg` when it refuses it. */
int argparse_check_value(const sglang_flag_def *def, const char *value, strbuf *msg);
/* Python's repr() of a str, appended. */
void py_repr(strbuf *sb, const char *s);
/* 1 when Python's int() takes `s`; `out` (may be NULL) gets its value in decimal. */
int py_int(const char *s, char *out, size_t size);
/* 1 when Python's float() takes `s`; `out` (may be NULL) gets it without
 * whitespace and underscores, a form strtod() reads the same way. */
int py_float(const char *s, char *out, size_t size);
/* Up to `max` (at most 8) long options of `idx` closest to `word`'s name
 * (edit distance, '_' as '-', case ignored; within a third of its length),
 * closest first, those at most one edit further than the closest; how many. */
unsigned nearest_options(const option_index *idx, const char *word, const char **out, unsigned max);

/* ------------------------------------------------------------------- flags */

/* Settings that can change the KV layout, plus those worth explaining. A
 * setting is matched by its dest, whatever the release calls the flag. */
typedef enum setting_key {
    SET_KV_CACHE_DTYPE,
    SET_PREFILL_BACKEND, /* dest nsa_prefill (0.5.3), nsa_prefill_backend, dsa_prefill_backend (0.5.13+) */
    SET_DECODE_BACKEND,
    SET_PAGE_SIZE,
    SET_DISAGG_MODE,
    SET_HISPARSE,
    SET_DISABLE_RADIX,
    SET_SPEC_ALGO,
    SET_TP,
    SET_DP,
    SET_DP_ATTENTION,
    SET_MODEL_PATH,
    SET_CONFIG,
    SET_SPEC_DRAFT_KV_DTYPE, /* --speculative-draft-kv-cache-dtype, 0.5.18+ */
    SET_TRANSFER_BACKEND,    /* --disaggregation-transfer-backend */
    SET_ATTENTION_BACKEND,
    SET_PREFILL_ATTENTION_BACKEND,
    SET_DECODE_ATTENTION_BACKEND,
    SET_MIXED_CHUNK,
    SET_SPEC_EAGLE_TOPK,
    SET_DCP,                 /* --dcp-size, 0.5.15+ */
    SET_LOAD_BALANCE,        /* --load-balance-method */
    SET_PREFILL_RR,          /* --prefill-round-robin-balance (stores nothing in 0.5.8-0.5.19) */
    SET_ATTN_DP_SIZE,        /* --attn-dp-size, 0.5.22+ (what --enable-dp-attention's warning points to) */
    SET_DECODE_RADIX,        /* --disaggregation-decode-enable-radix-cache, 0.5.11+ */
    SET_MAMBA_SSM,           /* --mamba-ssm-dtype */
    SET_MAMBA_SSM_ENV,       /* SGLANG_MAMBA_SSM_DTYPE in the launch's environment */
    SET_MAMBA_CONV_ENV,      /* SGLANG_MAMBA_CONV_DTYPE in the launch's environment */
    /* what SGLang 0.5.21+'s FP4 KV checks read (arg_groups/kv_cache_hook.py) */
    SET_PREFILL_DEQUANT,     /* --prefill-kv-cache-dequant-dtype, 0.5.21+ */
    SET_UNIFIED_MEMORY,      /* --enable-unified-memory */
    SET_HICACHE,             /* --enable-hierarchical-cache */
    SET_LMCACHE,             /* --enable-lmcache */
    SET_SPEC_DRAFT_ATTN,     /* --speculative-draft-attention-backend */
    SET_NGRAM_BREADTH,       /* --speculative-ngram-max-bfs-breadth */
    SET_ATTN_CP,             /* --attn-cp-size (what the TRTLLM MHA prefill check reads) */
    /* what DeepSeek-V4's hook and pool read */
    SET_PP,                  /* --pp-size (0.5.12 refuses PD with pp_size > 1) */
    SET_DSV4_STATE_ENV,      /* SGLANG_DSV4_COMPRESS_STATE_DTYPE in the launch's environment, 0.5.14+ */
    SET_DSV4_ONLINE_ENV,     /* SGLANG_OPT_USE_ONLINE_COMPRESS in the launch's environment */
    SET_DSV4_ATTN_BACKEND,   /* --dsv4-attn-backend, 0.5.20+ */
    SET_DSV4_LAYOUT_ENV,     /* SGLANG_DSV4_KV_LAYOUT in the launch's environment, 0.5.21+ */
    SET_DSV4_FP4_INDEXER,    /* --enable-deepseek-v4-fp4-indexer, 0.5.13+ */
    /* what a separate draft model's pool (EAGLE3, STANDALONE) follows */
    SET_SPEC_DRAFT_MODEL,    /* --speculative-draft-model-path */
    SET_MODEL_DTYPE,         /* --dtype: the model dtype, a draft pool's under "auto" */
    SET_KV_CHECKSUM,         /* --disaggregation-enable-kv-checksum, 0.5.21+ */
    SET_REVISION,            /* --revision: the model's Hugging Face cache snapshot */
    SET_SPEC_DRAFT_REVISION, /* --speculative-draft-model-revision: the draft's */
    /* --disaggregation-decode-allocation-policy (0.5.22+) and what its prefill_complete refuses */
    SET_ALLOC_POLICY,
    SET_PDMUX,               /* --enable-pdmux */
    SET_DECOUPLED_SPEC,      /* --decoupled-spec-role */
    SET_PD_ROLE_SWITCH,      /* --enable-pd-role-switch */
    SET_ENCODER_ONLY,        /* --encoder-only */
    SET_LANGUAGE_ONLY,       /* --language-only */
    SET_HOST_RECV,           /* --disaggregation-decode-host-receive-threshold */
    SET_HICACHE_STORAGE,     /* --hicache-storage-backend */
    SET_HICACHE_WRITE,       /* --hicache-write-policy */
    SET_OPTIMISTIC,          /* --optimistic-prefill-attempts */
    SET_STAGING_ENV,         /* SGLANG_DISAGG_STAGING_BUFFER in the launch's environment */
    SET_RUST_SERVER_ENV,     /* SGLANG_RUST_SERVER in the launch's environment */
    /* what SGLang's cache checks read: the decode retraction backup's host_pool and host receive (0.5.18+),
     * HiCache's io backend, decode KV offload, spec v2 */
    SET_RETRACTION_BACKUP,   /* --disaggregation-decode-retraction-backup */
    SET_PRIORITY_SCHED,      /* --enable-priority-scheduling */
    SET_NO_PREEMPTION,       /* --disable-priority-preemption */
    SET_HICACHE_IO,          /* --hicache-io-backend */
    SET_DECODE_OFFLOAD,      /* --disaggregation-decode-enable-offload-kvcache */
    SET_SPEC_V2_ENV,         /* SGLANG_ENABLE_SPEC_V2 in the launch's environment (0.5.5.post3-0.5.9's offload check) */
    SET_AITER_LAYOUT_ENV,    /* SGLANG_AITER_KV_CACHE_LAYOUT in the launch's environment (ROCm's default page, 0.5.13+) */
    /* what SGLang's checks of EAGLE's parameters read, beside --speculative-eagle-topk */
    SET_SPEC_NUM_STEPS,      /* --speculative-num-steps */
    SET_SPEC_DRAFT_TOKENS,   /* --speculative-num-draft-tokens */
    SET_SPEC_ADAPTIVE,       /* --speculative-adaptive */
    SET_DETERMINISTIC,       /* --enable-deterministic-inference */
    SET_RL_ON_POLICY,        /* --rl-on-policy-target (turns deterministic inference on) */
    /* what SGLang's LMCache checks read beside the caches and parallelism (0.5.21+) */
    SET_STREAMING_SESSION,   /* --enable-streaming-session */
    SET_EXTERNAL_LINKER,     /* --enable-unified-cache-external-linker */
    SET_HICACHE_HOST_MODE,   /* --hicache-host-memory-mode */
    SET_HICACHE_LAYOUT,      /* --hicache-mem-layout (up to 0.5.13.post1 it decides HiCache's io backend) */
    SET_SPEC_ATTN_MODE,      /* --speculative-attention-mode: the side the draft-extend backend follows */
    SET_MULTI_LAYER_EAGLE,   /* --enable-multi-layer-eagle: the multi-layer EAGLE worker */
    SET_QUANTIZATION,        /* --quantization: the method the model loader checks the GPU and --dtype against */
    SET_MOE_RUNNER,          /* --moe-runner-backend: SM100's DeepSeek V3 defaults follow it (auto) */
    SET_MOE_A2A,             /* --moe-a2a-backend: the same (none) */
    SET_EP,                  /* --ep-size: the expert parallel size the MoE runners' checks read */
    /* prefill context parallelism (cp.c): the flags that turn it on, its modes, what its checks read */
    SET_PREFILL_CP,          /* --enable-prefill-cp, 0.5.14+ */
    SET_DSA_CP,              /* --enable-nsa-prefill-context-parallel, --enable-dsa-prefill-context-parallel (to 0.5.19) */
    SET_MLA_CP,              /* --enable-prefill-context-parallel, 0.5.10-0.5.19 */
    SET_DSA_CP_MODE,         /* --nsa-prefill-cp-mode, --dsa-prefill-cp-mode, 0.5.8-0.5.19 */
    SET_MLA_CP_MODE,         /* --prefill-cp-mode, 0.5.10-0.5.19 */
    SET_CP_STRATEGY,         /* --cp-strategy, 0.5.14+ */
    SET_AITER_AR_FUSION,     /* --enable-aiter-allreduce-fusion (refused with an attention CP size above 1) */
    SET_NNODES,              /* --nnodes: 0.5.21+ turns aiter all-reduce fusion on for GLM-5 on one ROCm node */
    SET_KV_SPLIT,            /* --enable-dsa-cache-layer-split, --enable-kv-cache-sharding: split KV pools */
    SET_MOE_DP,              /* --moe-dp-size: checked with --ep-size before the MoE runner's checks */
    SET_DWDP,                /* --dwdp-size (0.5.17+): sets --ep-size and the all-to-all backend first */
    /* what SGLang's chunked prefill size follows (chunk.c) */
    SET_CHUNKED_PREFILL,     /* --chunked-prefill-size */
    SET_ENABLE_MIS,          /* --enable-mis (0.5.11+): turns chunked prefill off */
    SET_CG_PREFILL_BACKEND,  /* --cuda-graph-backend-prefill (0.5.20+) */
    SET_CUDA_GRAPH_CONFIG,   /* --cuda-graph-config (0.5.20+) */
    /* what SGLang's MoE all-to-all handler and the checks of its result read (a2a.c) */
    SET_DEEPEP_MODE,         /* --deepep-mode */
    SET_FI_DISPATCH,         /* --flashinfer-a2a-dispatch-type (0.5.20+) */
    SET_TBO,                 /* --enable-two-batch-overlap */
    SET_SBO,                 /* --enable-single-batch-overlap */
    SET_ENFORCE_FUSION,      /* --enforce-shared-experts-fusion */
    SET_WATERFILL,           /* --enable-deepep-waterfill (0.5.12-0.5.15.post1), --enable-waterfill (0.5.16+) */
    SET_EPLB,                /* --enable-eplb */
    SET_EP_DISPATCH,         /* --ep-dispatch-algorithm */
    SET_CG_MAX_BS_DECODE,    /* --cuda-graph-max-bs-decode (0.5.17+; --cuda-graph-max-bs is its alias) */
    SET_MORI_TOKENS_ENV,     /* SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK in the launch's environment */
    SET_PPLX_TOKENS_ENV,     /* SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK in the launch's environment */
    SET_FI_TOKENS_ENV,       /* SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK in the launch's environment */
    SET_NVFP4_DISPATCH_ENV,  /* SGLANG_MOE_NVFP4_DISPATCH in the launch's environment */
    SET_MEGA_MOE_ENV,        /* SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE in the launch's environment (0.5.12-0.5.17: megamoe) */
    SET_CG_SIZES,            /* --cuda-graph-max-bs-prefill, --cuda-graph-bs-decode, --cuda-graph-bs-prefill */
    SET_SPEC_A2A,            /* --speculative-moe-a2a-backend */
    SET_ELASTIC_BACKEND,     /* --elastic-ep-backend */
    SET_EP_JOIN_MODE,        /* --elastic-ep-join-mode (0.5.16+) */
    SET_ELASTIC_REJOIN,      /* --elastic-ep-rejoin (0.5.11-0.5.20) */
    SET_EP_JOIN_OFFSET,      /* --elastic-ep-join-rank-offset (0.5.16+) */
    SET_MAX_EP_SIZE,         /* --max-ep-size (0.5.16+) */
    SET_ELASTIC_INITIAL,     /* --elastic-ep-initial-size (0.5.16+) */
    SET_DP_LOCAL_BROADCAST,  /* --enable-dp-attention-local-control-broadcast */
    /* what check_server_args reads beside the KV layout (server.c) */
    SET_PP_MICRO_BATCH,      /* --pp-max-micro-batch-size */
    SET_NO_CG_PADDING,       /* --disable-cuda-graph-padding */
    SET_TORCH_COMPILE,       /* --enable-torch-compile */
    SET_BASE_GPU_ID,         /* --base-gpu-id */
    SET_GPU_ID_STEP,         /* --gpu-id-step */
    SET_MOE_DENSE_TP,        /* --moe-dense-tp-size */
    SET_TOKENIZER_WORKERS,   /* --tokenizer-worker-num */
    SET_DETOKENIZER_WORKERS, /* --detokenizer-worker-num (0.5.12+) */
    SET_SCHEDULE_POLICY,     /* --schedule-policy */
    SET_RETRACTION_POLICY,   /* --retraction-policy (0.5.16+) */
    SET_MULTI_ITEM,          /* --multi-item-scoring-delimiter (0.5.3.post1-0.5.10.post1) */
    SET_CONSERVATIVENESS,    /* --schedule-conservativeness */
    SET_MODEL_IMPL,          /* --model-impl */
    SET_QUANT_COMM,          /* --enable-quant-communications (0.5.11+) */
    SET_CANARY_INTERVAL,     /* --kv-canary-sweep-interval (0.5.13+) */
    SET_KV_CANARY,           /* --kv-canary (0.5.13+) */
    SET_SKIP_TOKENIZER,      /* --skip-tokenizer-init */
    SET_MM_PROC_WORKERS,     /* --mm-processor-worker-num (0.5.17+) */
    SET_MM_IO_WORKERS,       /* --mm-io-worker-num (0.5.17+) */
    SET_SAMPLING_BACKEND,    /* --sampling-backend */
    SET_MIN_FREE_SLOTS,      /* --min-free-slots-delay */
    SET_AUX_HIDDEN,          /* --enable-return-aux-hidden-states */
    SET_PP_SPEC_ENV,         /* SGLANG_ENABLE_PP_SPEC in the launch's environment (0.5.21+) */
    /* ROCm's DSA page: aiter's preshuffle paged-MQA path (rules.c rocm_preshuffle) */
    SET_USE_AITER_ENV,       /* SGLANG_USE_AITER */
    SET_DSA_NO_SHUFFLE_ENV,  /* SGLANG_DSA_HIP_DISABLE_PRESHUFFLE (0.5.13+) */
    SET_NSA_NO_SHUFFLE_ENV,  /* SGLANG_NSA_HIP_DISABLE_PRESHUFFLE (0.5.12-0.5.20) */
    /* the PD bootstrap port SGLANG_RUST_SERVER moves (0.5.17+) */
    SET_BOOTSTRAP_PORT,      /* --disaggregation-bootstrap-port */
    SET_PORT,                /* --port */
    /* --prefill-only-disable-kv-cache's checks (prefill_only.c) */
    SET_PREFILL_ONLY_NO_KV,  /* --prefill-only-disable-kv-cache (0.5.12+) */
    SET_IS_EMBEDDING,        /* --is-embedding */
    SET_SERVED_NAME,         /* --served-model-name */
    SET_GC_THRESHOLD,        /* --gc-threshold (0.5.10+) */
    SET_PAGE_MAJOR,          /* --enable-page-major-kv-layout (0.5.15+) */
    /* the gRPC server's settings (grpc.c) */
    SET_GRPC_PORT,           /* --grpc-port (0.5.16+) */
    SET_SMG_GRPC,            /* --smg-grpc-mode (0.5.16+) */
    SET_GRPC_MODE,           /* --grpc-mode */
    SET_GRPC_TIMEOUT,        /* --grpc-response-timeout-secs */
    SET_SIDECAR,             /* --sidecar (0.5.16+) */
    SET_SIDECAR_ARGS,        /* --sidecar-args (0.5.16+) */
    SET_USE_RAY,             /* --use-ray */
    SET_API_KEY,             /* --api-key */
    SET_ADMIN_API_KEY,       /* --admin-api-key */
    SET_GRPC_PORT_ENV,       /* SGLANG_GRPC_PORT in the launch's environment (0.5.11+) */
    SET_ENABLE_GRPC_ENV,     /* SGLANG_ENABLE_GRPC (0.5.11-0.5.15.post1) */
    SET_GRPC_THREADS_ENV,    /* SGLANG_GRPC_WORKER_THREADS (0.5.16+) */
    /* check_server_args' lists and metrics options (server.c) */
    SET_PROMPT_BUCKETS,      /* --prompt-tokens-buckets */
    SET_GENERATION_BUCKETS,  /* --generation-tokens-buckets */
    SET_LABELS_HEADER,       /* --tokenizer-metrics-custom-labels-header */
    SET_ALLOWED_LABELS,      /* --tokenizer-metrics-allowed-custom-labels */
    SET_EXPORT_METRICS,      /* --export-metrics-to-file (0.5.5.post3+) */
    SET_EXPORT_METRICS_DIR,  /* --export-metrics-to-file-dir (0.5.5.post3+) */
    /* check_lora_server_args' (lora.c) */
    SET_ENABLE_LORA,         /* --enable-lora */
    SET_LORA_PATHS,          /* --lora-paths (nargs *: nvalues counts them) */
    SET_LORAS_PER_BATCH,     /* --max-loras-per-batch */
    SET_LOADED_LORAS,        /* --max-loaded-loras */
    SET_LORA_RANK,           /* --max-lora-rank */
    SET_LORA_TARGETS,        /* --lora-target-modules */
    SET_LORA_BACKEND,        /* --lora-backend */
    SET_LORA_CHUNK,          /* --max-lora-chunk-size (its range is argparse's choices) */
    SET_LORA_OVERLAP,        /* --enable-lora-overlap-loading (0.5.8+) */
    SET_LORA_VIRTUAL,        /* --lora-use-virtual-experts */
    SET_LORA_DRAIN,          /* --lora-drain-wait-threshold (0.5.12+) */
    SET_SPEC_MOE_RUNNER,     /* --speculative-moe-runner-backend */
    SET_INIT_EXPERT,         /* --init-expert-location */
    SET_EP_REDUNDANT,        /* --ep-num-redundant-experts */
    SET_LORA_OPTI_ENV,       /* SGLANG_EXPERIMENTAL_LORA_OPTI (0.5.13+) */
    SET_OVERLAP_PLAN_ENV,    /* SGLANG_ENABLE_OVERLAP_PLAN_STREAM (0.5.4+) */
    /* check_watermark_server_args' (watermark.c, 0.5.22+) */
    SET_WATERMARK,           /* --enable-watermark */
    SET_WATERMARK_CONFIG,    /* --watermark-config (a secret: it may hold the key) */
    SET_CUSTOM_LOGIT,        /* --enable-custom-logit-processor */
    SET_SPEC_REJECTION,      /* --speculative-use-rejection-sampling (0.5.14+) */
    /* check_load_publish_args' (publish.c, 0.5.19+) */
    SET_LOAD_PUBLISH,        /* --load-publish-endpoint */
    SET_KV_EVENTS,           /* --kv-events-config */
    SET_DEVICE,              /* --device: kvcheck judges "cuda" (CUDA and ROCm GPUs), SGLang's default there */
    /* the media URL policy's (media.c, 0.5.18+) */
    SET_MEDIA_DOMAINS,       /* --allowed-media-domains (nargs +: nvalues counts them) */
    SET_MEDIA_MAX_MB,        /* --media-url-max-file-size-mb */
    /* rejection sampling's checks and ROCm's default of it (spec_hook.c) */
    SET_SPEC_TOKEN_MAP,      /* --speculative-token-map */
    SET_SPEC_ACCEPT_SINGLE,  /* --speculative-accept-threshold-single */
    SET_SPEC_ACCEPT_ACC,     /* --speculative-accept-threshold-acc */
    SET_SIMULATE_ACC_ENV,    /* SGLANG_SIMULATE_ACC_LEN in the launch's environment */
    SET_SPEC_BLOCK_VERIFY,   /* --speculative-use-block-verification (0.5.22+, spec_hook.c) */
    SET_DLLM,                /* --dllm-algorithm (0.5.6+): declined */
    SET_SPEC_WINDOW,         /* --speculative-draft-window-size (spec_hook.c) */
    SET_SPEC_SINK,           /* --speculative-draft-sink-size (0.5.21+) */
    /* the pipeline's early checks (early.c) */
    SET_HICACHE_FRACTION,    /* --hicache-host-memory-fraction */
    SET_PD_INTERVAL,         /* --prefill-decode-interval */
    SET_PD_INTERVAL_MIN_BS,  /* --prefill-decode-interval-min-bs */
    SET_RESPONSE_STORE,      /* --enable-response-store */
    SET_SAMPLING_MASK,       /* --sampling-mask-max-tokens */
    SET_SAMPLING_MASK_ENV,   /* SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS in the launch's environment */
    /* the LM head's data-parallel flags (lm_head.c) */
    SET_DP_LM_HEAD,          /* --enable-dp-lm-head */
    SET_TP_LM_HEAD_A2A,      /* --enable-tp-lm-head-all-to-all (0.5.18+; --no-... leaves it unset) */
    /* the radix eviction policy (eviction.c) */
    SET_EVICTION,            /* --radix-eviction-policy */
    SET_EVICTION_CONFIG,     /* --radix-eviction-policy-config (json.loads) */
    /* the decode side's sizes a prefill worker checks (0.5.3rc2-0.5.9) */
    SET_DECODE_TP,           /* --disaggregation-decode-tp */
    SET_DECODE_DP,           /* --disaggregation-decode-dp */
    /* what kvcheck declines: SGLang's CPU engine, expert packs */
    SET_LOAD_FORMAT,         /* --load-format */
    SET_CPU_ENGINE_ENV,      /* SGLANG_USE_CPU_ENGINE in the launch's environment */
    /* checks of flags for other models */
    SET_LAYERNORM_SP,        /* --enable-layernorm-sp (0.5.19+) */
    SET_LAYERNORM_SP_MEGAMOE, /* --enable-megamoe-for-layernorm-sp (0.5.23) */
    SET_ENCODER_REPLAY,      /* --enable-encoder-swa-bounded-replay (0.5.21+) */
    /* the engine's addresses (address.c) */
    SET_DIST_INIT_ADDR,      /* --dist-init-addr */
    SET_NCCL_PORT,           /* --nccl-port */
    SET_DIST_INIT_OVERRIDE_ENV, /* SGLANG_DISTRIBUTED_INIT_METHOD_OVERRIDE in the launch's environment (0.5.9+) */
    SET_WAIT_PORT_TIMEOUT_ENV, /* SGLANG_WAIT_PORT_TIMEOUT in the launch's environment (0.5.16+) */
    SET_SHARED_EXPERTS_TP,   /* --shared-experts-tp-size (0.5.21+, Kimi-K3's) */
    SET_IS_IN_CI_ENV,        /* SGLANG_IS_IN_CI in the launch's environment (the round robin reads it up to 0.5.7) */
    /* what SGLang's PrefillDelayer (0.5.8+) reads (delayer.c) */
    SET_PREFILL_DELAYER,     /* --enable-prefill-delayer */
    SET_DISABLE_OVERLAP,     /* --disable-overlap-schedule */
    SET_DECREASE_IDLE_ENV,   /* SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE in the launch's environment: the delayer's old switch */
    SET_SPARSE_HEAD_ENV,     /* SGLANG_EMBEDDINGS_SPARSE_HEAD in the launch's environment: the overlap schedule off when set */
    /* what handle_offload_compatibility (0.5.20+) reads (early.c) */
    SET_CPU_OFFLOAD_GB,      /* --cpu-offload-gb */
    SET_OFFLOAD_GROUP_SIZE,  /* --offload-group-size */
    SET_PLE_OFFLOAD,         /* --ple-offload-embedding / --no-ple-offload-embedding (the flag tells which) */
    SET_PLE_OFFLOAD_BACKEND, /* --ple-offload-backend */
    SET_DCP_COMM,            /* --dcp-comm-backend (0.5.17+) */
    SET_DCP_REPLICATE_Q,     /* --dcp-replicate-q-proj (0.5.17+; --no- kept unset, with its flag) */
    SET_TOKENIZER_BATCH,     /* --enable-tokenizer-batch-encode */
    SET_DYNAMIC_TOKENIZER,   /* --enable-dynamic-batch-tokenizer */
    SET_LANGUAGE_MODEL_ONLY, /* --language-model-only (0.5.18+) */
    SET_INT8_MAMBA,          /* --enable-int8-mamba-checkpoint (0.5.14+) */
    SET_RADIX_BACKEND,       /* --radix-cache-backend (0.5.13+): a registered radix cache factory's name */
    SET_SESSION_RADIX,       /* --enable-session-radix-cache (0.5.15+) */
    SET_TORCHAO,             /* --torchao-config (up to 0.5.17) */
    SET_STARTUP_LOAD,        /* --startup-weight-load-mode (0.5.18+) */
    SET_FP8_GEMM,            /* --fp8-gemm-backend (quant.c KERNEL_FLAGS) */
    SET_BF16_GEMM,           /* --bf16-gemm-backend (0.5.15+) */
    SET_PAGED_MQA,           /* --dsa-paged-mqa-logits-backend (0.5.15+) */
    SET_COUNT
} setting_key;

/* The longest setting value kvcheck takes, NUL included: a path (--model-path,
 * --config) of PATH_MAX. A longer value is refused, never cut. */
#define SETTING_VALUE_LEN 4096

/* Input warnings a worker keeps, so that the rules' own warnings keep room
 * in the resolved worker's list; the last says how many more there were. */
#define SETTINGS_MAX_WARNINGS 8

typedef struct setting {
    int set;                       /* given, and a switch stored True */
    char value[SETTING_VALUE_LEN]; /* as argparse stores it: "" for a switch, a choice, an int in decimal,
                                      several values joined by spaces */
    char flag[KVC_NAME_LEN];       /* the option SGLang read it as: "--nsa-decode-backend" */
    unsigned nvalues;              /* how many values argparse stored: a list's words (a word may hold a space), 1
                                      for one value, 0 for a switch or none */
    kvc_origin origin;
    int reported;                  /* a running server's /server_info reported it: SGLang's resolved value */
} setting;

typedef struct settings {
    setting s[SET_COUNT];
    unsigned nignored;
    char ignored[KVC_MAX_NOTES][KVC_NOTE_LEN];
    unsigned nwarnings; /* what kvcheck read differently from how it was written, SGLang's deprecations */
    char warnings[SETTINGS_MAX_WARNINGS][KVC_NOTE_LEN];
} settings;

/* What an input entry is. Words are parsed only once the release is known;
 * YAML and server_info entries keep what the file said, release-free. */
typedef enum arg_kind {
    ARG_WORD,        /* a launch-command word, dashes repaired */
    ARG_YAML_SCALAR, /* a --config key; value: str() of the YAML value as Python loads it */
    ARG_YAML_TRUE,   /* a --config key with a YAML boolean */
    ARG_YAML_FALSE,
    ARG_YAML_LIST,   /* a --config key with a list: its items follow as ARG_YAML_ITEM */
    ARG_YAML_ITEM,
    ARG_YAML_MAPPING, /* a --config key with a mapping (passed on as JSON text SGLang-side) */
    ARG_DUMP,        /* a /server_info key (a ServerArgs field); value: its JSON value as text */
    ARG_SERVE_MODEL, /* "sglang serve MODEL ...": the model word (0.5.16+ read it as --model-path) */
    ARG_PROGRAM,     /* the program that starts SGLang ("sglang serve"); value: the first release with it, or NULL */
    ARG_WRAPPER,     /* a flag of Dynamo's wrapper with its value: never SGLang's parser's */
    ARG_ENV,         /* NAME=value from the launch's environment */
} arg_kind;

/* One entry, in order. Small: a list may hold 10^5 of them. */
typedef struct kv_arg {
    uint8_t kind;     /* arg_kind */
    uint8_t dump_bool; /* ARG_DUMP: 1 true, 2 false or null, 0 another value */
    char *text;       /* the word; the key as written */
    char *value;      /* YAML and server_info values; NULL for words */
    const char *file; /* where it was written: one of its list's files */
    unsigned line, column;
    char *where;      /* "args[3]", a YAML key; NULL: the word */
} kv_arg;

typedef struct arglist {
    kv_arg *v;
    size_t n, cap;
    /* Words kvcheck read otherwise than written (mangled dashes, a flag and
     * its value in one word): said on the resolved worker, never skipped. */
    char **warnings;
    size_t nwarnings, warnings_cap;
    char **files; /* the names kv_arg.file points to, each once in a row */
    size_t nfiles, files_cap;
} arglist;


/* A worker's inputs: flags from its config file, then from its command
 * line (which win). */
struct engine_inputs {
    arglist config;
    arglist cli;
};

/* The inputs read into settings, with the GPU and model found. */
/* A separate draft model (--speculative-draft-model-path) as found. */
typedef struct draft_model {
    int found;             /* 0: not given, or not found (`why`) */
    model_info model;
    char why[1024];        /* why it could not be read (a kvc_diag message) */
} draft_model;

struct engine_worker {
    gpu_info gpu;
    model_info model;
    draft_model draft;
    settings set;
};

void arglist_free(arglist *list);
/* Where an entry was given. */
void arg_origin(const kv_arg *a, kvc_origin *out);
/* Adds an entry (text and value copied); `origin` says where. */
kvc_status args_push(arglist *list, arg_kind kind, const char *text, const char *value, const kvc_origin *origin,
                     kvc_diag *diag);
/* Adds launch-command words; `origins` per word. Words before the first
 * "--flag" are the program's and are skipped. A flag whose leading dashes
 * copy-paste mangled ("\u2014enable-hisparse", "-kv-cache-dtype") is read
 * as the flag meant, and a word holding a flag and more words
 * ("--kv-cache-dtype bf16") is split as a shell would; both with a warning.
 * The words are parsed later, by the release's parser (settings_build). */
kvc_status args_parse_words(arglist *list, const word_list *words, kvc_diag *diag);
/* How many of words[0..n) are a program that starts SGLang
 * (python3 -m sglang.launch_server, sglang serve, python3 -m dynamo.sglang);
 * 0 when they start none. */
size_t args_launch_words(const char *const *words, size_t n);
/* An environment assignment of the launch: SGLANG_MAMBA_SSM_DTYPE and
 * SGLANG_MAMBA_CONV_DTYPE become settings, any other is listed with -v. */
kvc_status args_add_env(arglist *list, const char *assignment, const kvc_origin *origin, kvc_diag *diag);
/* Loads an SGLang --config YAML file as entries, one per top-level key. */
kvc_status args_load_yaml(arglist *list, const char *path, kvc_diag *diag);
/* The argv words release `release`'s ConfigArgumentMerger makes of a
 * loaded YAML file's entries, appended to `out` (entries of kind ARG_WORD,
 * pointing at the YAML lines); fails where that release raises. */
kvc_status config_to_words(const arglist *yaml, unsigned release, arglist *out, kvc_diag *diag);
/* Parses the inputs as release `release`'s SGLang does (release: an index
 * into SGLANG_VERSIONS): `config` (a worker file's config YAML), then the
 * command line `cli` with any --config FILE merged in front as SGLang merges
 * it, then server_info keys (kept in `cli`). Fills `out`, or fails with
 * SGLang's own parser error (KVC_ERR_CONFIG) at the word that caused it. */
kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir, unsigned release,
                          settings *out, kvc_diag *diag);
/* The setting a parser dest stands for ("dsa_prefill_backend"), or -1. */
int setting_key_of_dest(const char *dest);
/* The spelling release `release`'s parser prefers for a setting
 * ("--dsa-prefill-backend" from 0.5.13, "--nsa-prefill" in 0.5.3), or NULL
 * when the release has no such flag. */
const char *setting_flag(setting_key key, unsigned release);

/* ------------------------------------------------------------ server_info */

int server_info_is_dump(const struct cJSON *root);
/* The "version" a /server_info dump reports, or "". */
void server_info_version(const struct cJSON *root, char *out, size_t size, const char **key);
kvc_status server_info_add(engine_inputs *in, const struct cJSON *root, const char *text, const char *file,
                           kvc_diag *diag);
/* The record of a start-up log line (what follows "server_args="), whose
 * first byte is at `where`. */
kvc_status server_log_add(engine_inputs *in, const char *record, size_t len, const kvc_origin *where, kvc_diag *diag);

/* ------------------------------------------------------------------ rules */

/* Resolves from settings under one release. */
kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const draft_model *draft, const settings *set,
                         unsigned release, kvc_resolved *out, kvc_diag *diag);

/* The oldest release of `rel`'s era: the run of neighbouring releases for
 * which the same rule rows hold. */
const char *rules_release_era(unsigned rel);
/* 1 when every version the rule tables name is a known release. */
int rules_tables_valid(void);
/* Backend table access for the fix search. */
unsigned rules_backend_count(void);
const char *rules_backend_name(unsigned i);
/* 1 when kvcheck would suggest this backend on this GPU in a fix: release
 * `rel` has it, it is known to run there and its layout is confirmed. */
int rules_backend_suggestable(unsigned i, const gpu_info *gpu, unsigned rel);

/* --------------------------------------------------------------------- pd */

unsigned pd_fix_candidates(const kvc_resolved *self, const kvc_resolved *other, engine_fix *out, unsigned max);
/* Expands SGLang's f-string fields ("{name}") in `tmpl` into `out`. */
void sglang_expand(const char *tmpl, const char *const fields[][2], size_t nfields, char *out, size_t size);
int pd_bootstrap(const kvc_resolved *prefill, const kvc_resolved *decode, char *stage, size_t stage_size, char *text,
                 size_t size);
const engine_transfer *pd_transfer(const kvc_resolved *prefill, const kvc_resolved *decode);
/* Puts up to `max` of pd.c's release spans in `out`; returns how many it has (rules_release_era). */
size_t pd_spans(span *out, size_t max);

#endif /* KVC_ENGINE_SGLANG_H */
