/*
 * kvcheck — catch KV-cache layout mismatches between the prefill and decode
 * workers of a disaggregated LLM deployment before serving starts.
 *
 * This is the only public header of libkvcheck. The library never prints,
 * never exits and keeps no global error state: every call returns a
 * kvc_status and, on failure, fills a caller-owned kvc_diag, which may be
 * NULL in every call. Results are opaque handles: a call hands one over
 * through its `out` argument (set to NULL when it fails), its kvc_X_free
 * releases it (and accepts NULL); pointers its accessors return belong to
 * it and live as long as it does.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KVCHECK_H
#define KVCHECK_H

#include <stddef.h>
#include <stdint.h>

/* KVC_VERSION_MAJOR, _MINOR, _PATCH and _STRING: generated from the
 * project's version, installed beside this header. */
#include "kvcheck_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks what libkvcheck exports. The library is built with hidden
 * visibility, so the shared library's symbol table holds these functions and
 * nothing else; a static link needs no special definition. */
#ifndef KVC_API
#  if defined(__GNUC__) || defined(__clang__)
#    define KVC_API __attribute__((visibility("default")))
#  else
#    define KVC_API
#  endif
#endif

/* Run-time version of the library, "MAJOR.MINOR.PATCH". Static storage. */
KVC_API const char *kvc_version(void);

/* ------------------------------------------------------------------ status */

/* Values are pinned: they appear in JSON output and never change meaning. */
typedef enum kvc_status {
    KVC_OK = 0,
    KVC_ERR_USAGE = 1,   /* a caller passed something the API does not take */
    KVC_ERR_CONFIG = 2,  /* invalid worker configuration or layout */
    KVC_ERR_IO = 3,      /* a file could not be opened or read */
    KVC_ERR_NOMEM = 4,   /* allocation failed */
    KVC_ERR_GPU = 5,     /* GPU required but unusable, or a driver failure */
    KVC_ERR_INTERNAL = 6 /* a bug in kvcheck: please report it */
} kvc_status;

/* "KVC_ERR_CONFIG" and so on. Static storage; never NULL. */
KVC_API const char *kvc_status_name(kvc_status status);

/* Where a failure happened and why. Every field is optional: empty strings
 * and zero line/column mean "not known". */
typedef struct kvc_diag {
    kvc_status status;
    char message[4096]; /* what is wrong and what to do (SGLang's own words, which can run long) */
    char file[512];     /* the file it came from, if any */
    unsigned line;      /* 1-based; 0 when not known */
    unsigned column;    /* 1-based; 0 when not known */
    char where[160];    /* JSON path, YAML key or flag name ("--page-size") */
} kvc_diag;

/* Clears a diagnostic to "no error". */
KVC_API void kvc_diag_clear(kvc_diag *diag);

/* ----------------------------------------------------------------- workers */

/* A worker as configured: its GPU, its model and its engine launch flags.
 * Opaque; create with kvc_worker_create, free with kvc_worker_free. */
typedef struct kvc_worker kvc_worker;

/* `label` names the worker in messages ("prefill", a file name). Copied.
 * Returns NULL when out of memory. */
KVC_API kvc_worker *kvc_worker_create(const char *label);
/* Accepts NULL. */
KVC_API void kvc_worker_free(kvc_worker *worker);

/* Loads a kvcheck worker file or an SGLang /server_info JSON dump. Relative
 * `model` and `config` paths are taken from the file's directory. The file
 * is opened read-only. */
KVC_API kvc_status kvc_worker_load_file(kvc_worker *worker, const char *path, kvc_diag *diag);

/* Flags of kvc_worker_load_json. */
#define KVC_LOAD_SERVER_REPLY 1u /* the text is a server's reply: only a server-info dump is taken */

/* Loads a worker from JSON text held in memory: a kvcheck worker file or an
 * SGLang /server_info document (its "version" selects the release), as
 * kvc_worker_load_file does for a file. `name` names the text in messages
 * ("http://10.0.0.1:30000/server_info"); relative paths inside it are taken
 * from the current directory. With KVC_LOAD_SERVER_REPLY only a server-info
 * document is taken, and a reply that is not JSON, or JSON of another kind,
 * returns KVC_ERR_IO (the server answered wrongly) instead of
 * KVC_ERR_CONFIG. The text is not kept. */
KVC_API kvc_status kvc_worker_load_json(kvc_worker *worker, const char *text, size_t len, const char *name,
                                        unsigned flags, kvc_diag *diag);

/* "B300", "GB300", "H200", "sm_103", "sm103", "10.3", "MI300X", ... */
KVC_API kvc_status kvc_worker_set_gpu(kvc_worker *worker, const char *gpu, kvc_diag *diag);

/* A path to a Hugging Face config.json, or a bundled preset name
 * ("glm-5.2", "deepseek-v3.2", "deepseek-v3"). */
KVC_API kvc_status kvc_worker_set_model(kvc_worker *worker, const char *model, kvc_diag *diag);

/* Appends engine launch flags written as one command line, e.g. copied from
 * "python3 -m sglang.launch_server --model-path X --page-size 64". Words
 * before the first "--flag" are skipped. Shell quoting and backslash line
 * continuations are understood. Later flags win over earlier ones, as in
 * SGLang. `origin` names where the line came from in messages. */
KVC_API kvc_status kvc_worker_add_args(kvc_worker *worker, const char *command_line,
                               const char *origin, kvc_diag *diag);

/* The engine version the worker runs, as the engine reports it ("0.5.18",
 * "0.5.4.post3", "main"): its rules apply to this worker. A version kvcheck
 * has not read uses the newest older release it has, with a warning on the
 * resolved worker; the default (no version) is the newest. Returns
 * KVC_ERR_USAGE for a string that is no version or a version older than
 * the engine's first with DSA support. */
KVC_API kvc_status kvc_worker_set_release(kvc_worker *worker, const char *release, kvc_diag *diag);

/* The label given at creation. */
KVC_API const char *kvc_worker_label(const kvc_worker *worker);

/* ----------------------------------------------------------------- recipes */

/* A file that describes one or more workers, read as users keep them: a
 * kvcheck worker file or /server_info dump (JSON); a shell script or
 * pasted command text holding launch commands (python3 -m
 * sglang.launch_server, sglang serve, python3 -m dynamo.sglang, also
 * behind an environment, nohup or docker run, with pipes, redirections and
 * comments around them); an SGLang log with its start-up server_args
 * line; a deployment recipe (Dynamo graph, srt-slurm recipe, Kubernetes
 * manifests: Deployment, LeaderWorkerSet, RoleBasedGroup, ...). Every
 * value keeps its file, line and column. Opaque; free with
 * kvc_recipe_free. */
typedef struct kvc_recipe kvc_recipe;

/* Reads `path` (read-only). Fails with the position of what cannot be
 * read, and when the file describes no worker. */
KVC_API kvc_status kvc_recipe_load(const char *path, kvc_recipe **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_recipe_free(kvc_recipe *recipe);
/* What kind of file it is: "worker file", "shell script", "SGLang log",
 * "Dynamo graph", "srt-slurm recipe", "Kubernetes manifests". */
KVC_API const char *kvc_recipe_kind(const kvc_recipe *recipe);
KVC_API size_t kvc_recipe_worker_count(const kvc_recipe *recipe);
/* The i-th worker's name in the file ("line 12", "decode",
 * "LeaderWorkerSet/dsr1-prefill"), or NULL past the end. */
KVC_API const char *kvc_recipe_worker_name(const kvc_recipe *recipe, size_t i);
/* Its PD role as its launch flags set it: "prefill", "decode" or "null"
 * (neither); read when the file describes several workers, else "". */
KVC_API const char *kvc_recipe_worker_role(const kvc_recipe *recipe, size_t i);
/* Adds the i-th worker's inputs (launch flags, environment, GPU and
 * release where the file names them) to `worker`. */
KVC_API kvc_status kvc_recipe_worker_load(const kvc_recipe *recipe, size_t i, kvc_worker *worker, kvc_diag *diag);

/* The releases kvcheck has read for `engine` ("sglang"; NULL: the default
 * engine), newest first: the i-th, or NULL past the end. Static storage. */
KVC_API const char *kvc_engine_release(const char *engine, unsigned i);
/* The era of the i-th release: the oldest release whose layout rules are
 * the same as its own. Static storage; NULL past the end. */
KVC_API const char *kvc_engine_release_era(const char *engine, unsigned i);

/* ------------------------------------------------------------- resolution */

#define KVC_MAX_FIELDS 8
#define KVC_MAX_NOTES 24
#define KVC_NOTE_LEN 320
#define KVC_REASON_LEN 512
#define KVC_NAME_LEN 64

typedef enum kvc_elem {
    KVC_ELEM_E4M3 = 0, /* FP8 E4M3FN */
    KVC_ELEM_E5M2 = 1, /* FP8 E5M2 */
    KVC_ELEM_BF16 = 2,
    KVC_ELEM_F16 = 3,
    KVC_ELEM_F32 = 4,
    KVC_ELEM_UE8M0 = 5,
    KVC_ELEM_PAD = 6,   /* bytes that carry no value and are never judged */
    KVC_ELEM_E2M1X2 = 7 /* two FP4 E2M1 values per byte, the even element in the low nibble; all 16 codes are
                           finite, so no check judges them */
} kvc_elem;

/* "e4m3", "bf16", "fp32", ... Static storage. */
KVC_API const char *kvc_elem_name(kvc_elem elem);
/* Bytes per element. */
KVC_API unsigned kvc_elem_size(kvc_elem elem);

/* One field of a layout. Within a page of `page_size` tokens, element e of
 * token t of this field starts at byte base + t * stride + e * elem_size. */
typedef struct kvc_field {
    char name[KVC_NAME_LEN]; /* "nope", "scale", "rope", "k", ... */
    kvc_elem elem;
    uint64_t base;   /* offset of token 0's first element within the page */
    uint64_t stride; /* bytes from token t to token t + 1 */
    uint32_t count;  /* elements per token */
    int scale;       /* 1 when the values are dequantisation scales */
} kvc_field;

/* Element type and dimensions from which a layout is built. */
typedef struct kvc_layout_params {
    uint32_t kv_lora_rank;     /* R: NoPE values per token */
    uint32_t qk_rope_head_dim; /* r: RoPE values per token */
    uint32_t index_head_dim;   /* DSA indexer K width (128) */
    uint32_t page_size;
} kvc_layout_params;

/* A byte layout: a named table of fields over pages of page_size tokens.
 * Opaque; free with kvc_layout_free. */
typedef struct kvc_layout kvc_layout;

/* Builds a catalogue layout by name ("bf16", "fp16", "fp32", "fp8_raw",
 * "fp8_e5m2_raw", "fp8_flashmla", "dsa_indexer", "model1_fp8", "fp4_mx16",
 * "fp4_mx16_scales") from model dimensions.
 * Returns KVC_ERR_CONFIG with a reason when the dimensions do not fit the
 * layout (e.g. R not a multiple of 128 for fp8_flashmla). */
KVC_API kvc_status kvc_layout_build(const char *name, const kvc_layout_params *params,
                            kvc_layout **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_layout_free(kvc_layout *layout);

KVC_API const char *kvc_layout_name(const kvc_layout *layout); /* "bf16", "fp8_raw", "fp8_flashmla", ... */
KVC_API uint32_t kvc_layout_bytes_per_token(const kvc_layout *layout); /* bytes one token takes in one layer */
KVC_API uint32_t kvc_layout_page_size(const kvc_layout *layout);       /* tokens per page */
KVC_API uint64_t kvc_layout_page_bytes(const kvc_layout *layout);      /* bytes per page per layer (item_len) */
/* 1 when fields are stored one after another per page (the DSA indexer). */
KVC_API int kvc_layout_page_split(const kvc_layout *layout);
KVC_API unsigned kvc_layout_field_count(const kvc_layout *layout);
/* The i-th field in byte order, or NULL past the end. */
KVC_API const kvc_field *kvc_layout_field_at(const kvc_layout *layout, unsigned i);
/* The dimensions it was built from. */
KVC_API const kvc_layout_params *kvc_layout_params_of(const kvc_layout *layout);
/* The layout as `kvcheck layout --json` prints one; free with kvc_free. */
KVC_API char *kvc_layout_json(const kvc_layout *layout);
/* The DeepSeek-V3.2 / GLM-5 MLA dimensions (kv_lora_rank 512,
 * qk_rope_head_dim 64, index_head_dim 128) at page size 64. */
KVC_API void kvc_layout_default_params(kvc_layout_params *out);

/* The layout's field called `name` ("nope", "scale", ...), or NULL. */
KVC_API const kvc_field *kvc_layout_field(const kvc_layout *layout, const char *name);

/* Name of the i-th catalogue layout, or NULL past the end. */
KVC_API const char *kvc_layout_catalogue(unsigned i);

/* The dimensions of a model (a preset name or a path to config.json), for
 * building layouts without a worker; page_size is set to 64. */
KVC_API kvc_status kvc_model_layout_params(const char *model, kvc_layout_params *out, kvc_diag *diag);

typedef enum kvc_value_type {
    KVC_VALUE_TEXT = 0,
    KVC_VALUE_UINT = 1, /* `number` holds the value */
    KVC_VALUE_BOOL = 2  /* `number` is 0 or 1 */
} kvc_value_type;

/* Where reports show a setting (bit flags). */
#define KVC_SETTING_COMPARED 1u /* prefill and decode must agree on it */
#define KVC_SETTING_PAIR 2u     /* shown side by side when a pair is checked */
#define KVC_SETTING_DECIDES 4u  /* it decides the layout: listed under "why" */
#define KVC_SETTING_IF_SET 8u   /* text reports show it only when it has a value */
#define KVC_SETTING_DTYPE 16u   /* the KV cache's dtype, as the engine names it; where several settings have it,
                                 * the last with a value is what the engine resolved (SGLang's auto: the string
                                 * its model runner resolves it to) */

/* One resolved engine setting: its value, typed, and how it was decided. */
typedef struct kvc_setting {
    char name[KVC_NAME_LEN]; /* the engine's name for it: "kv_cache_dtype", "page_size" */
    kvc_value_type type;
    char value[KVC_NAME_LEN];    /* as text; "" when it does not apply */
    uint64_t number;             /* KVC_VALUE_UINT and KVC_VALUE_BOOL: the value */
    char reason[KVC_REASON_LEN]; /* a sentence a person can read */
    unsigned flags;              /* KVC_SETTING_* */
    /* Where the value was given when a flag or key the user wrote decided
     * it: the file (or "--args" for flags given on kvcheck's command line)
     * and the 1-based line and column of the flag; "" and 0 when a default
     * or one of the engine's rules decided it. */
    char file[512];
    unsigned line, column;
} kvc_setting;

/* Everything kvcheck derived for one worker. Opaque; free with
 * kvc_resolved_free. Pointers from its accessors live as long as it does. */
typedef struct kvc_resolved kvc_resolved;

/* Resolves a worker as its engine release would: dtype, backends, page size,
 * row width, item lengths and entry counts. Returns KVC_ERR_CONFIG with the
 * engine's reason when the engine would refuse to start the worker. */
KVC_API kvc_status kvc_resolve(const kvc_worker *worker, kvc_resolved **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_resolved_free(kvc_resolved *resolved);

KVC_API const char *kvc_resolved_label(const kvc_resolved *resolved);
KVC_API const char *kvc_resolved_engine(const kvc_resolved *resolved);  /* "sglang" */
KVC_API const char *kvc_resolved_release(const kvc_resolved *resolved); /* the rules it was resolved under */
/* Where that release's rules come from (the engine's code, or the summary
 * they were taken from where its code was not read). */
KVC_API const char *kvc_resolved_release_source(const kvc_resolved *resolved);
/* The GPU's name; its compute capability into *major, *minor (either may be NULL). */
KVC_API const char *kvc_resolved_gpu(const kvc_resolved *resolved, unsigned *major, unsigned *minor);
KVC_API const char *kvc_resolved_model(const kvc_resolved *resolved);
/* The engine's settings in its display order; the i-th or NULL past the end. */
KVC_API unsigned kvc_resolved_setting_count(const kvc_resolved *resolved);
KVC_API const kvc_setting *kvc_resolved_setting(const kvc_resolved *resolved, unsigned i);
/* The setting called `name`, or NULL. */
KVC_API const kvc_setting *kvc_resolved_find(const kvc_resolved *resolved, const char *name);
/* The layout decision ("fp8_raw") and why. */
KVC_API const kvc_setting *kvc_resolved_decision(const kvc_resolved *resolved);
/* The MLA KV cache layout; the DSA indexer state's, or NULL without one. */
KVC_API const kvc_layout *kvc_resolved_layout(const kvc_resolved *resolved);
KVC_API const kvc_layout *kvc_resolved_indexer(const kvc_resolved *resolved);
/* The layout of a scale buffer the pool keeps apart from its KV buffer (one
 * more buffer per layer: SGLang's FP4 MLA pool keeps its UE8M0 scales so),
 * or NULL when the scales, if any, are inside the KV rows. */
KVC_API const kvc_layout *kvc_resolved_scales(const kvc_resolved *resolved);
/* The draft (MTP) entries' layout, which the draft pool's own KV dtype may
 * make differ from the target's; NULL without draft entries. */
KVC_API const kvc_layout *kvc_resolved_draft_layout(const kvc_resolved *resolved);
/* KV entries (target layers + draft (MTP) layers + a separate draft
 * model's K and V entries). */
KVC_API uint32_t kvc_resolved_entries(const kvc_resolved *resolved);
/* A separate draft model's pool (EAGLE3, STANDALONE), when derived: its
 * layers (0: none), each with a K and a V entry after all the others, whose
 * item lengths (bytes per page) go to `item_len` (may be NULL). */
KVC_API uint32_t kvc_resolved_draft_model(const kvc_resolved *resolved, uint64_t item_len[2]);
/* The target layers with KV entries: all of them, or a hybrid model's
 * attention (DSA) layers. */
KVC_API uint32_t kvc_resolved_attn_layers(const kvc_resolved *resolved);
/* A hybrid model's linear-attention layers, which keep one recurrent state
 * per request instead of KV (0: none). */
KVC_API uint32_t kvc_resolved_state_layers(const kvc_resolved *resolved);
/* Their state tensor i ("conv", "temporal"), with its bytes per request
 * per layer in *item_len (may be NULL); NULL past the last. */
KVC_API const char *kvc_resolved_state(const kvc_resolved *resolved, unsigned i, uint64_t *item_len);
KVC_API unsigned kvc_resolved_warning_count(const kvc_resolved *resolved);
KVC_API const char *kvc_resolved_warning(const kvc_resolved *resolved, unsigned i);
/* Flags that cannot change the layout, with where they were given. */
KVC_API unsigned kvc_resolved_ignored_count(const kvc_resolved *resolved);
KVC_API const char *kvc_resolved_ignored(const kvc_resolved *resolved, unsigned i);
/* The JSON document `kvcheck layout --json` prints; free with kvc_free. */
KVC_API char *kvc_resolved_json(const kvc_resolved *resolved);

/* -------------------------------------------------------------- comparison */

#define KVC_MAX_MISMATCHES 16
#define KVC_MAX_FIXES 8
#define KVC_MAX_FIX_ARGS 8

typedef struct kvc_mismatch {
    char field[KVC_NAME_LEN];
    char prefill[KVC_NAME_LEN];
    char decode[KVC_NAME_LEN];
} kvc_mismatch;

typedef enum kvc_side { KVC_SIDE_PREFILL = 0, KVC_SIDE_DECODE = 1 } kvc_side;

/* "prefill" / "decode". Static storage. */
KVC_API const char *kvc_side_name(kvc_side side);

/* Flags to add to one worker's launch command. */
typedef struct kvc_fix {
    kvc_side side;
    unsigned nargs;
    char args[KVC_MAX_FIX_ARGS][2][KVC_NAME_LEN]; /* {"--flag", "value"} */
    int changes_dtype; /* it changes the KV dtype (memory, accuracy) */
} kvc_fix;

/* The result of comparing prefill with decode. Opaque; free with
 * kvc_verdict_free. */
typedef struct kvc_verdict kvc_verdict;

/* Resolves both workers, compares them field by field, explains each
 * difference and searches the smallest flag sets that make them agree.
 * Each side is resolved under its own release (a warning says when they
 * differ; the verdict then includes whether the decode's release can read
 * the prefill server's info). Returns KVC_ERR_CONFIG when a worker does not
 * resolve (the diag then says which), KVC_ERR_IO when a file a worker names
 * cannot be read, and KVC_ERR_USAGE when the workers run different engines. */
KVC_API kvc_status kvc_compare(const kvc_worker *prefill, const kvc_worker *decode, kvc_verdict **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_verdict_free(kvc_verdict *verdict);

/* 1 when decode reads exactly the KV bytes prefill writes. */
KVC_API int kvc_verdict_compatible(const kvc_verdict *verdict);
/* One side as resolved; owned by the verdict (do not free it). */
KVC_API const kvc_resolved *kvc_verdict_side(const kvc_verdict *verdict, kvc_side side);
KVC_API unsigned kvc_verdict_mismatch_count(const kvc_verdict *verdict);
KVC_API const kvc_mismatch *kvc_verdict_mismatch(const kvc_verdict *verdict, unsigned i);
/* What decode will actually read, sentence by sentence. */
KVC_API unsigned kvc_verdict_consequence_count(const kvc_verdict *verdict);
KVC_API const char *kvc_verdict_consequence(const kvc_verdict *verdict, unsigned i);
/* 1 when the engine's own start-up check refuses the pair; what it compares. */
KVC_API int kvc_verdict_bootstrap_catches(const kvc_verdict *verdict);
/* Which of the engine's checks refuses the pair ("bootstrap", "NIXL
 * handshake", "NIXL registration", "first request": SGLang's decode fails
 * each request when the sides' decode allocation policies differ, "first
 * transfer", "KV checksum", or "first state transfer": SGLang's Mooncake
 * fails each request there when a hybrid model's linear-layer state slots
 * differ), or "" when none does. */
KVC_API const char *kvc_verdict_caught_at(const kvc_verdict *verdict);
KVC_API const char *kvc_verdict_bootstrap(const kvc_verdict *verdict);
/* Fixes, best first. */
KVC_API unsigned kvc_verdict_fix_count(const kvc_verdict *verdict);
KVC_API const kvc_fix *kvc_verdict_fix(const kvc_verdict *verdict, unsigned i);
KVC_API unsigned kvc_verdict_warning_count(const kvc_verdict *verdict);
KVC_API const char *kvc_verdict_warning(const kvc_verdict *verdict, unsigned i);
/* The JSON document `kvcheck check --json` prints; free with kvc_free. */
KVC_API char *kvc_verdict_json(const kvc_verdict *verdict);

/* -------------------------------------------------------------------- scan */

/* What the scanners check (DESIGN.md §5, FORMATS.md). Values are pinned. */
typedef enum kvc_check {
    KVC_CHECK_E4M3_NAN = 0,
    KVC_CHECK_E5M2_NAN,
    KVC_CHECK_E5M2_INF,
    KVC_CHECK_BF16_NAN,
    KVC_CHECK_BF16_POS_INF,
    KVC_CHECK_BF16_NEG_INF,
    KVC_CHECK_FP16_NAN,
    KVC_CHECK_FP16_POS_INF,
    KVC_CHECK_FP16_NEG_INF,
    KVC_CHECK_FP32_NAN,
    KVC_CHECK_FP32_POS_INF,
    KVC_CHECK_FP32_NEG_INF,
    KVC_CHECK_SCALE_NAN,
    KVC_CHECK_SCALE_POS_INF,
    KVC_CHECK_SCALE_NEG_INF,
    KVC_CHECK_SCALE_NEGATIVE, /* the sign bit is set, -0.0 included */
    KVC_CHECK_SCALE_ZERO,
    KVC_CHECK_SCALE_DENORMAL,
    KVC_CHECK_SCALE_NOT_POW2,     /* only with KVC_SCALE_POW2 */
    KVC_CHECK_SCALE_OUT_OF_RANGE, /* only with a scale range */
    KVC_CHECK_UE8M0_NAN,
    KVC_CHECK_COUNT,
    KVC_CHECK_OK = KVC_CHECK_COUNT /* what a classifier returns for a good element */
} kvc_check;

/* "e4m3_nan", "scale_negative", ... Static storage; "?" past the end. */
KVC_API const char *kvc_check_name(kvc_check check);

typedef enum kvc_device {
    KVC_DEVICE_AUTO = 0, /* the GPU when one is usable, else the CPU (with a note) */
    KVC_DEVICE_CPU = 1,
    KVC_DEVICE_GPU = 2 /* fails with KVC_ERR_GPU when no GPU is usable */
} kvc_device;

/* Called now and then during a scan from the calling thread. */
typedef void (*kvc_progress_fn)(void *ctx, uint64_t bytes_done, uint64_t bytes_total);

typedef struct kvc_scan_options {
    kvc_device device;
    int scale_pow2;            /* flag FP32 scales that are not powers of two */
    int scale_ranged;          /* flag FP32 scales outside [scale_min, scale_max] */
    double scale_min, scale_max;
    const char *pages;         /* "3,7,10-20": scan only these pages of each layer; NULL: all */
    const char *skip_pages;    /* pages not to scan; NULL: none */
    size_t max_findings;       /* findings listed in full (counts are always complete) */
    const char *const *tensors; /* .safetensors tensor names or globs; none: every tensor */
    size_t ntensors;
    unsigned threads;          /* CPU threads; 0: one per online CPU, at most 16 */
    kvc_progress_fn progress;  /* may be NULL */
    void *progress_ctx;
    const char *layout_source; /* how the caller chose the layout, for the report; may be NULL */
    int gpu;                   /* the CUDA device ordinal a GPU scanner runs on (default 0) */
} kvc_scan_options;

/* Defaults: auto device, no policies, all pages, 20 findings, all threads. */
KVC_API void kvc_scan_options_init(kvc_scan_options *options);

typedef struct kvc_bad_page {
    uint64_t page;   /* page index within its layer */
    uint64_t count;  /* damaged elements in it */
} kvc_bad_page;

/* One layer: a raw dump, a .npy array or one .safetensors tensor. */
typedef struct kvc_scan_layer {
    char name[256];       /* the tensor name, or the file name */
    char file[512];
    uint64_t file_offset; /* where page 0 starts in the file */
    uint64_t bytes;
    uint64_t pages, pages_scanned;
    uint64_t counts[KVC_CHECK_COUNT];
    uint64_t damaged;     /* damaged elements, all checks */
    size_t nbad_pages;
    kvc_bad_page *bad_pages; /* in the order the pages were scanned */
    uint64_t *scanned;    /* the pages scanned (pages_scanned of them), in order; NULL: 0 .. pages - 1 */
    uint64_t *digests;    /* each scanned page's digest (kvc_page_digest), in the same order */
} kvc_scan_layer;

typedef struct kvc_finding {
    unsigned layer;          /* index into the report's layers */
    uint64_t page;           /* within the layer */
    uint64_t slot;           /* token slot within the page */
    char field[KVC_NAME_LEN];
    uint32_t element;        /* element index within the token's field */
    uint64_t offset;         /* byte offset in the file (or the buffer) */
    kvc_check check;
    kvc_elem elem;
    uint8_t raw[4];          /* the element's bytes as stored, `elem`'s size of them */
    double value;            /* decoded value (NaN and Inf included) */
} kvc_finding;

/* The result of a scan. Opaque; free with kvc_scan_report_free. */
typedef struct kvc_scan_report kvc_scan_report;

/* Scans files: raw dumps of one layer's buffer (pages x page bytes), .npy
 * arrays and .safetensors files (each tensor one layer), opened read-only
 * and memory-mapped. Returns KVC_OK with *out set whether or not damage was
 * found (see kvc_scan_report_clean); KVC_ERR_CONFIG for inputs that do not fit the
 * layout, KVC_ERR_IO for unreadable ones, KVC_ERR_GPU when the GPU was
 * required and is unusable or the driver failed. Free with
 * kvc_scan_report_free. */
KVC_API kvc_status kvc_scan_files(const char *const *paths, size_t npaths, const kvc_layout *layout,
                          const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag);

/* Scans `bytes` of host memory holding whole pages of `layout` (one layer). */
KVC_API kvc_status kvc_scan_host(const void *data, size_t bytes, const kvc_layout *layout,
                         const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag);

/* Scans device memory the caller owns: `device_ptr` is a CUdeviceptr of the
 * primary context of the device it lives on (as PyTorch allocates), holding
 * `bytes` of whole pages of `layout`. Runs on that GPU whatever
 * options->device says; the findings' pages are copied back for detail. */
KVC_API kvc_status kvc_scan_device(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, kvc_scan_report **out, kvc_diag *diag);

/* Accepts NULL. */
KVC_API void kvc_scan_report_free(kvc_scan_report *report);

/* 1 when nothing was found. */
KVC_API int kvc_scan_report_clean(const kvc_scan_report *report);
/* "cuda" or "cpu", and the device's name ("NVIDIA H200", "4 CPU threads"). */
KVC_API const char *kvc_scan_report_device(const kvc_scan_report *report);
KVC_API const char *kvc_scan_report_device_name(const kvc_scan_report *report);
/* The layout the pages were judged by. */
KVC_API const kvc_layout *kvc_scan_report_layout(const kvc_scan_report *report);
KVC_API uint64_t kvc_scan_report_bytes_scanned(const kvc_scan_report *report);
KVC_API uint64_t kvc_scan_report_pages_scanned(const kvc_scan_report *report);
KVC_API double kvc_scan_report_seconds(const kvc_scan_report *report); /* wall time of the scan */
/* Damaged elements that failed `check`, over all layers (0 past the end). */
KVC_API uint64_t kvc_scan_report_count(const kvc_scan_report *report, kvc_check check);
KVC_API uint64_t kvc_scan_report_damaged(const kvc_scan_report *report);   /* damaged elements */
KVC_API uint64_t kvc_scan_report_bad_pages(const kvc_scan_report *report); /* damaged pages */
KVC_API size_t kvc_scan_report_layer_count(const kvc_scan_report *report);
KVC_API const kvc_scan_layer *kvc_scan_report_layer(const kvc_scan_report *report, size_t i);
/* Every scanned page's digest in scan order (layer by layer, each layer's
 * pages in the order scanned) copied into `out`, which has room for `cap`
 * of them; returns how many the report holds, and copies nothing when that
 * is more than cap (out may be NULL with cap 0: a call to ask the count).
 * What a prefill side records and sends, and what kvc_digests_compare
 * takes. */
KVC_API size_t kvc_scan_report_digests(const kvc_scan_report *report, uint64_t *out, size_t cap);
/* The first max_findings findings, in input order. */
KVC_API size_t kvc_scan_report_finding_count(const kvc_scan_report *report);
KVC_API const kvc_finding *kvc_scan_report_finding(const kvc_scan_report *report, size_t i);
/* Notes such as "no usable GPU: scanned on the CPU". */
KVC_API unsigned kvc_scan_report_note_count(const kvc_scan_report *report);
KVC_API const char *kvc_scan_report_note(const kvc_scan_report *report, unsigned i);
/* When damage was found in files: the catalogue layout the bytes look like
 * instead, with its bytes per token and confidence (either may be NULL);
 * NULL when it is the layout asked for or none is recognised. */
KVC_API const char *kvc_scan_report_looks_like(const kvc_scan_report *report, uint32_t *bytes_per_token,
                                               double *confidence);
/* The JSON document `kvcheck scan --json` prints; free with kvc_free. */
KVC_API char *kvc_scan_report_json(const kvc_scan_report *report);

/* ----------------------------------------------------------------- scanner */

/* A scanner: a layout, a device and the options, set up once (the GPU's
 * context, the kernels, the chunk map, pinned staging and result buffers),
 * then used for many scans of many layer buffers: the in-process gate a
 * serving engine calls after each KV transfer. Opaque; free with
 * kvc_scanner_free.
 *
 * Thread safety: one scanner runs one scan at a time. Calls on the same
 * scanner from several threads must be serialised by the caller (a
 * submitted scan belongs to the scanner until kvc_scanner_wait); different
 * scanners may be used from different threads at once. Any thread may use
 * a scanner: each call makes the GPU's primary context current for its
 * duration and restores the caller's. */
typedef struct kvc_scanner kvc_scanner;

/* Sets up a scanner for `layout` on options->device (auto: the GPU when
 * one is usable, else the CPU with a note in each report) and, for a GPU,
 * device options->gpu. Copies what it needs: the layout and options may be
 * freed after. Options used: device, gpu, scale policies, max_findings,
 * threads, layout_source (the page lists and tensors are per call).
 * KVC_ERR_GPU when the GPU was asked for and is unusable. */
KVC_API kvc_status kvc_scanner_create(const kvc_layout *layout, const kvc_scan_options *options, kvc_scanner **out,
                                      kvc_diag *diag);
/* Accepts NULL. Waits for a scan still in flight. */
KVC_API void kvc_scanner_free(kvc_scanner *scanner);
/* "cuda" or "cpu", and the device's name ("NVIDIA H200", "4 CPU threads"). */
KVC_API const char *kvc_scanner_device(const kvc_scanner *scanner);
KVC_API const char *kvc_scanner_device_name(const kvc_scanner *scanner);

/* Starts a scan of `nlayers` layer buffers of `layer_bytes` bytes each (a
 * whole, non-zero number of pages): on a GPU scanner `layers` holds device
 * addresses (CUdeviceptr) of memory in the primary context of the
 * scanner's device, as PyTorch allocates it; on a CPU scanner host
 * addresses. `pages` lists the pages to scan in every layer (npages of
 * them, each below layer_bytes / page bytes, in any order), or is NULL to
 * scan every page. On a GPU scanner the scan is enqueued on `stream` (a
 * CUstream; NULL: CUDA's default stream) behind the caller's work there, and
 * the call returns without waiting; a CPU scanner scans at once and takes
 * no stream. All layers are scanned in one kernel launch; only per-layer
 * counts, per-page damage and digests come back to the host.
 * KVC_ERR_USAGE, saying which layer or page, for a NULL or misaligned
 * address (each must be aligned to the layout's widest element), sizes
 * that are not whole pages, a page out of range, memory that is not
 * device memory of this scanner's device and context or is shorter than
 * layer_bytes, a stream on a CPU scanner, or a scan already in flight. */
KVC_API kvc_status kvc_scanner_submit(kvc_scanner *scanner, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                                      const uint64_t *pages, size_t npages, void *stream, kvc_diag *diag);
/* Waits for the submitted scan and hands over its report: layers named
 * "layer 0", "layer 1", ... with their counts, damaged pages and digests;
 * findings are read from the damaged pages (copied back from the GPU).
 * KVC_ERR_USAGE when nothing was submitted. Free with kvc_scan_report_free. */
KVC_API kvc_status kvc_scanner_wait(kvc_scanner *scanner, kvc_scan_report **out, kvc_diag *diag);
/* kvc_scanner_submit, then kvc_scanner_wait. */
KVC_API kvc_status kvc_scanner_scan(kvc_scanner *scanner, const uint64_t *layers, size_t nlayers, uint64_t layer_bytes,
                                    const uint64_t *pages, size_t npages, void *stream, kvc_scan_report **out,
                                    kvc_diag *diag);
/* The gate's verdict, for when a clean scan's digests are not wanted:
 * kvc_scanner_wait and kvc_scanner_scan, except that a scan in which every
 * page passed builds no report: *damaged is then NULL (nothing allocated,
 * nothing to free). A scan that found damage hands over its full report, as
 * kvc_scanner_wait does. */
KVC_API kvc_status kvc_scanner_wait_check(kvc_scanner *scanner, kvc_scan_report **damaged, kvc_diag *diag);
KVC_API kvc_status kvc_scanner_check(kvc_scanner *scanner, const uint64_t *layers, size_t nlayers,
                                     uint64_t layer_bytes, const uint64_t *pages, size_t npages, void *stream,
                                     kvc_scan_report **damaged, kvc_diag *diag);

/* ----------------------------------------------------------------- digests */

/* The digest of one page of `layout` in host memory, as every scan computes
 * it for each page it reads (kernels/kvc_digest.h gives the algorithm; the
 * CPU and GPU give the same value). It depends on the page's bytes and
 * size only, so prefill's digest of the page it sent equals decode's digest
 * of the page that arrived, wherever each lies. */
KVC_API uint64_t kvc_page_digest(const void *page, const kvc_layout *layout);
/* The digest of a page of `layout` whose bytes are all zero: what a page
 * that was never written reads as in zeroed memory. */
KVC_API uint64_t kvc_zero_page_digest(const kvc_layout *layout);

/* What happened to one page between two sides (values are pinned). */
typedef enum kvc_page_state {
    KVC_PAGE_SAME = 0,     /* the bytes arrived as they were sent */
    KVC_PAGE_CHANGED = 1,  /* the bytes differ */
    KVC_PAGE_ZERO = 2,     /* the page is all zero though it was sent with data: never written */
    KVC_PAGE_MISSING = 3,  /* the page was sent but the scanned buffers end before it: never arrived */
    KVC_PAGE_STATES
} kvc_page_state;

/* "same", "changed", "zero", "missing". Static storage; "?" past the end. */
KVC_API const char *kvc_page_state_name(kvc_page_state state);

/* Compares the digests of `n` pages of `layout` as sent (`expected`) with
 * the same pages as they arrived (`actual`); writes each page's state into
 * states[i] when `states` is not NULL and returns how many are not SAME. */
KVC_API size_t kvc_digests_compare(const uint64_t *expected, const uint64_t *actual, size_t n, const kvc_layout *layout,
                                   unsigned char *states);

/* A page whose bytes are not what the other side recorded. */
typedef struct kvc_digest_issue {
    unsigned layer;       /* the layer's index (in the report, and in the digest file) */
    uint64_t page;
    kvc_page_state state; /* CHANGED, ZERO or MISSING */
    uint64_t expected;    /* the recorded digest */
    uint64_t actual;      /* the scanned page's digest (0 when missing) */
} kvc_digest_issue;

/* Writes every scanned page's digest to `path` as text, one page a line:
 * "LAYER<TAB>PAGE<TAB>DIGEST<TAB>NAME" (layer index, page, 16 hex digits,
 * the layer's name), after two "#" comment lines naming the layout.
 * KVC_ERR_IO when it cannot be written. */
KVC_API kvc_status kvc_scan_report_write_digests(const kvc_scan_report *report, const char *path, kvc_diag *diag);
/* Compares the scanned pages with the digests in `path` (as written by
 * kvc_scan_report_write_digests on the other side, matched by layer index
 * and page; pages the scan skipped are not judged). Pages that differ, are
 * all zero or are missing become the report's digest issues and make it
 * not clean. KVC_ERR_CONFIG (with the line) for a malformed file, KVC_ERR_IO
 * for an unreadable one. */
KVC_API kvc_status kvc_scan_report_expect_digests(kvc_scan_report *report, const char *path, kvc_diag *diag);
/* Pages compared with a digest file (0 without one), and the issues, in the file's order. */
KVC_API uint64_t kvc_scan_report_digests_compared(const kvc_scan_report *report);
KVC_API size_t kvc_scan_report_digest_issue_count(const kvc_scan_report *report);
KVC_API const kvc_digest_issue *kvc_scan_report_digest_issue(const kvc_scan_report *report, size_t i);

/* ------------------------------------------------------------------ detect */

#define KVC_MAX_CANDIDATES 16
#define KVC_MAX_EVIDENCE 6

/* How plausible some bytes are under one catalogue layout. */
typedef struct kvc_candidate {
    char layout[KVC_NAME_LEN];
    uint32_t bytes_per_token, page_size;
    uint64_t page_bytes;
    int fits;     /* every layer is a whole number of its pages */
    double score; /* 0 to 1 */
    uint64_t pages_sampled;
    unsigned nfor, nagainst;
    char evidence_for[KVC_MAX_EVIDENCE][KVC_NOTE_LEN];
    char evidence_against[KVC_MAX_EVIDENCE][KVC_NOTE_LEN];
} kvc_candidate;

/* The result of detect. Opaque; free with kvc_detection_free. */
typedef struct kvc_detection kvc_detection;

/* Ranks every catalogue layout by how plausible `bytes` of host memory are
 * under it (dimensions and page size from `params`; page_size 0 tries 64,
 * then 1). Reads at most a sample of pages. */
KVC_API kvc_status kvc_detect_host(const void *data, size_t bytes, const kvc_layout_params *params,
                                   kvc_detection **out, kvc_diag *diag);

/* The same over files, as kvc_scan_files reads them (options: tensors only). */
KVC_API kvc_status kvc_detect_files(const char *const *paths, size_t npaths, const kvc_layout_params *params,
                                    const kvc_scan_options *options, kvc_detection **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_detection_free(kvc_detection *detection);
/* A layout name, or "unknown". */
KVC_API const char *kvc_detection_best(const kvc_detection *detection);
/* 0 to 1: how far the best stands above the rest. */
KVC_API double kvc_detection_confidence(const kvc_detection *detection);
KVC_API uint64_t kvc_detection_bytes(const kvc_detection *detection);
KVC_API uint64_t kvc_detection_pages_sampled(const kvc_detection *detection);
/* The catalogue's layouts, best first. */
KVC_API unsigned kvc_detection_candidate_count(const kvc_detection *detection);
KVC_API const kvc_candidate *kvc_detection_candidate(const kvc_detection *detection, unsigned i);
/* The JSON document `kvcheck detect --json` prints; free with kvc_free. */
KVC_API char *kvc_detection_json(const kvc_detection *detection);

/* What GPU support this build has: the kernels' architectures, or why there
 * is none. Static storage. */
KVC_API const char *kvc_gpu_support(void);

/* The first GPU of this machine, as the NVIDIA driver names it ("NVIDIA
 * B300 SXM6 AC", what nvidia-smi prints), copied into `name` (`size`
 * bytes), and its compute capability into *major, *minor (either may be
 * NULL). Returns KVC_ERR_GPU when there is no driver or no GPU, saying so. */
KVC_API kvc_status kvc_gpu_detect(char *name, size_t size, unsigned *major, unsigned *minor, kvc_diag *diag);

/* ---------------------------------------------------------------- simulate */

typedef struct kvc_simulate_options {
    uint64_t tokens; /* latent vectors to write (default 4096) */
    uint64_t seed;   /* the same seed gives the same bytes everywhere (default 1) */
    kvc_device device; /* auto: the GPU when usable (the same results as the CPU) */
} kvc_simulate_options;

KVC_API void kvc_simulate_options_init(kvc_simulate_options *options);

/* Read-back error of one part of the latent (NoPE or RoPE) against the values
 * prefill was given. Errors are over finite read-backs. */
typedef struct kvc_readback {
    uint64_t values;
    uint64_t nonfinite; /* read back as NaN or Inf */
    double max_abs_error, mean_abs_error;
} kvc_readback;

/* The result of a simulation. Opaque; free with kvc_simulation_free. */
typedef struct kvc_simulation kvc_simulation;

/* Writes realistic latent KV for options->tokens tokens into prefill's pages
 * as prefill's backend writes them, moves the pages the way the Mooncake
 * transfer does (both offsets from prefill's item length), scans decode's
 * buffer in decode's layout and reads it back as decode's backend would.
 * KVC_ERR_USAGE when the workers run different engines or releases. Free
 * *out with kvc_simulation_free. */
KVC_API kvc_status kvc_simulate(const kvc_worker *prefill, const kvc_worker *decode, const kvc_simulate_options *options,
                        kvc_simulation **out, kvc_diag *diag);
/* Accepts NULL. */
KVC_API void kvc_simulation_free(kvc_simulation *simulation);

/* 1 when decode reads back exactly what prefill wrote and nothing overruns. */
KVC_API int kvc_simulation_compatible(const kvc_simulation *simulation);
/* One side as resolved; owned by the simulation (do not free it). */
KVC_API const kvc_resolved *kvc_simulation_side(const kvc_simulation *simulation, kvc_side side);
/* Decode's pages scanned in decode's layout; owned by the simulation. */
KVC_API const kvc_scan_report *kvc_simulation_scan(const kvc_simulation *simulation);
/* What decode reads back (index 0: NoPE, 1: RoPE), and prefill's own read-back. */
KVC_API const kvc_readback *kvc_simulation_decoded(const kvc_simulation *simulation, unsigned part);
KVC_API const kvc_readback *kvc_simulation_written(const kvc_simulation *simulation, unsigned part);
/* The JSON document `kvcheck simulate --json` prints; free with kvc_free. */
KVC_API char *kvc_simulation_json(const kvc_simulation *simulation);

/* ----------------------------------------------------------------- reports */

typedef enum kvc_format { KVC_FORMAT_TEXT = 0, KVC_FORMAT_JSON = 1 } kvc_format;

/* Report options (bit flags). */
#define KVC_REPORT_COLOR 1u   /* ANSI colour in text reports */
#define KVC_REPORT_VERBOSE 2u /* also list ignored flags */
#define KVC_REPORT_QUIET 4u   /* text: the verdict line only */

/* Each returns a NUL-terminated string the caller frees with kvc_free, or
 * NULL when out of memory. JSON reports are one complete document. */
KVC_API char *kvc_report_layout(const kvc_resolved *resolved, kvc_format format, unsigned options);
KVC_API char *kvc_report_check(const kvc_verdict *verdict, kvc_format format, unsigned options);
KVC_API char *kvc_report_scan(const kvc_scan_report *report, kvc_format format, unsigned options);
KVC_API char *kvc_report_detect(const kvc_detection *detection, kvc_format format, unsigned options);
KVC_API char *kvc_report_simulate(const kvc_simulation *simulation, kvc_format format, unsigned options);
/* `code` is the process exit code the caller will use; it is recorded in the
 * JSON document's error.code. */
KVC_API char *kvc_report_error(const kvc_diag *diag, int code, kvc_format format);

/* Frees memory returned by the library. Accepts NULL. */
KVC_API void kvc_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* KVCHECK_H */
