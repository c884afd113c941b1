/* What a worker runs on and runs, whatever the engine: GPU names and
 * compute capabilities, model configs (config.json and bundled presets). */
#ifndef KVC_TARGET_H
#define KVC_TARGET_H

#include "common/common.h"

/* -------------------------------------------------------------------- GPU */

typedef struct gpu_info {
    char name[KVC_NAME_LEN];
    unsigned major, minor;
    int hip;
    /* the memory of one GPU in MiB as its driver reports it (nvidia-smi's memory.total, rocminfo's pool), the
     * least and the most a product of this name has; 0 and UINT_MAX where the text names no product */
    unsigned mem_lo_mib, mem_hi_mib;
} gpu_info;

/* Parses a product name, sm_NN, smNN or N.M; a product name's memory comes
 * from the name ("H100 80GB": 80 GB) where it says, else from the product. */
kvc_status gpu_parse(const char *text, gpu_info *out, const kvc_origin *origin, kvc_diag *diag);

/* ------------------------------------------------------------------ model */

/* "index_topk_pattern" and "indexer_types": absent or null; a string (of letters and digits, at most KVC_TOPK_LAYERS),
 * a list of such strings; anything else (kvcheck does not read it as SGLang would). */
enum { TOPK_NONE, TOPK_PLAIN, TOPK_OTHER };
#define KVC_TOPK_LAYERS 1024

typedef struct model_info {
    char name[KVC_PATH_LEN];         /* a preset, or the model's directory or file name, whole */
    char architecture[KVC_NAME_LEN]; /* "architectures"[0]; longer names are refused with the limit */
    unsigned narchitectures;         /* how many "architectures" names (0 where a preset) */
    char torch_dtype[KVC_NAME_LEN];  /* "dtype", else "torch_dtype"; "": neither (SGLang: float32) */
    char model_type[KVC_NAME_LEN];   /* "model_type"; "": absent */
    int dsa;                /* the engine's judgement under a release (set by its rules, 0 here) */
    uint32_t index_topk;    /* 0: the config has none */
    int learnable_sink;     /* "learnable_sink": true */
    /* which of the keys SGLang's scheduler reads as an MoE model's per-token expert count the config has, as bits
     * in this order (model.c): "num_experts_per_tok", "num_experts_per_token", "top_k_experts", "moe_top_k",
     * "moe_topk" (any value, null too: SGLang tests hasattr) */
    unsigned moe_topk_keys;
    /* the widths an engine derives K and V rows from when it takes the model for an MHA model; 0: absent */
    uint32_t hidden_size, num_attention_heads, head_dim, v_head_dim;
    uint32_t num_kv_heads;  /* the first of SGLang's KV-head keys the config has (model_config.py); 0: none */
    int has_quantization;   /* "quantization_config" (or "compression_config", which SGLang reads as one) is present */
    /* the key of "quantization_config" (or of its "quantization") that asks for a KV dtype, and its value where a
     * string: "kv_cache_quant_algo FP8", "kv_cache_scheme"; "": none */
    char kv_quant[KVC_NAME_LEN];
    /* the quantization config's "quant_method" as written ("" where it names none or there is no quantization
     * config); "modelopt" for an hf_quant_config.json, which SGLang reads as ModelOpt's */
    char quant_method[KVC_NAME_LEN];
    /* what an FP8 config class reads of it: "activation_scheme" as Python shows it ("": absent, "None": null),
     * the dimensions of "weight_block_size" (-1: absent or null) */
    char quant_activation[KVC_NAME_LEN];
    int quant_block_dims;
    int quant_unknown;      /* a bundled preset: it stands for checkpoints quantized in different ways */
    char kv_quant_algo[KVC_NAME_LEN]; /* the quantization config's own "kv_cache_quant_algo" where a string; "": not */
    /* the quantization config's "kv_cache_scheme" (MODEL_KV_SCHEME_*); its text where a string; where neither an
     * object nor null, its Python type's name ("str", "int", "float", "list", "bool") and whether Python takes it
     * as true */
    int kv_scheme;
    char kv_scheme_name[KVC_NAME_LEN];
    char kv_scheme_type[8];
    int kv_scheme_truthy;
    /* what a ModelOpt config class reads of it: "quant_algo" as written ("": absent, null or empty, "?": not a
     * string; quant_algo_type tells them apart),
     * and whether it gives no group size ("group_size", or its first "config_groups" entry's weights') */
    char quant_algo[KVC_NAME_LEN];
    char quant_algo_type[10]; /* the Python type of "quant_algo" ("NoneType" where null, "str"); "": absent */
    int quant_section;      /* it has a "quantization" key (ModelOpt's nested form, which the config classes read) */
    int quant_no_group_size;
    /* the group sizes ModelOptFp4Config.common_group_size collects (the integers under "group_size" in the config,
     * its "quantization", its "config_groups" and their dicts): how many differ (2: two or more), and as Python
     * prints their sorted list */
    int quant_group_sizes;
    char quant_group_list[64];
    int quant_group_odd; /* sizes kvcheck cannot count as Python does (a boolean, 16.0, a non-object config_groups) */
    int quant_no_exclude_chain; /* 0.5.23's list of unquantized layers is null ("ignore", else the next keys) */
    int kv_quant_algo_truthy;   /* "kv_cache_quant_algo" is a value Python takes as true (of any type) */
    int quant_no_exclude;   /* its list of layers left unquantized is null ("ignore", or the section's "exclude_modules") */
    int quant_file;         /* the quantization config is an hf_quant_config.json's "quantization" section */
    int quant_producer;     /* that file names its "producer" (a "name" string) */
    uint32_t index_kpool;   /* "index_kpool", 0: absent */
    int index_kpool_compress; /* "index_kpool_compress": true (the DSA pool keeps a compressed tail) */
    /* DSA top-k sharing, as SGLang's dsa_layer_skips_topk and its two-batch overlap check read it: "index_topk_freq"
     * (topk_freq_null where null), "index_skip_topk_offset" and "cli_factor" (0: absent or null); "index_topk_pattern"
     * and "indexer_types" by kind (TOPK_*), the pattern as written and the types as 'S' ("shared"), 'F' ("full") or
     * 'X' (another word) per layer */
    uint32_t topk_freq, topk_offset, cli_factor;
    int topk_freq_null;
    int topk_pattern_kind, topk_types_kind;
    char topk_pattern[KVC_TOPK_LAYERS + 1];
    char topk_types[KVC_TOPK_LAYERS + 1];
    uint32_t kv_lora_rank, qk_rope_head_dim, num_hidden_layers;
    uint32_t num_nextn_predict_layers, index_head_dim;
    /* Linear-attention (KDA) layers of a hybrid config, as the config
     * writes them; which architectures and releases honour them, and the
     * defaults of absent fields, are the engine's. */
    int linear_split;            /* where the config lists its linear layers (MODEL_LINEAR_*) */
    uint32_t linear_layers;      /* how many of layers 0..num_hidden_layers-1 it lists */
    uint32_t linear_heads, linear_head_dim, linear_conv_kernel; /* 0: absent */
    /* DeepSeek-V4's "compress_ratios" (one per layer): how many entries are
     * 0, 4, 128, and anything else; has_compress_ratios 0: absent. */
    int has_compress_ratios;
    uint32_t compress_ratios_len, compress_none, compress_4, compress_128, compress_other;
} model_info;

enum {
    MODEL_LINEAR_NONE,          /* neither field below */
    MODEL_LINEAR_CONFIG,        /* "linear_attn_config": {"kda_layers": [...], ...} */
    MODEL_LINEAR_LAYER_TYPES,   /* "layer_types": [..., "linear_attention", ...] */
};

/* What a quantization config's "kv_cache_scheme" is, as the config classes
 * test it. */
enum {
    MODEL_KV_SCHEME_NONE,   /* absent or null */
    MODEL_KV_SCHEME_FLOAT8, /* an object with "type" "float" and "num_bits" 8 */
    MODEL_KV_SCHEME_DICT,   /* another object */
    MODEL_KV_SCHEME_STRING, /* a string (kv_scheme_name) */
    MODEL_KV_SCHEME_OTHER,  /* a number, list or boolean (kv_scheme_type) */
};

/* `ref` is a preset name or a path (relative to base_dir). */
kvc_status model_load(const char *ref, const char *base_dir, model_info *out, kvc_diag *diag);
/* Parses a config.json text; `file` names it in messages. */
kvc_status model_parse(const char *text, size_t len, const char *file, const char *name,
                       model_info *out, kvc_diag *diag);
/* The same for a model written inline in a bigger document: positions are
 * looked up in `locate_in`, the document the user wrote. */
kvc_status model_parse_inline(const char *text, size_t len, const char *locate_in, const char *file,
                              const char *name, model_info *out, kvc_diag *diag);
/* The model a launch command names (--model-path): a bundled preset named
 * by its last path part ("zai-org/GLM-5.2"), or a local model directory
 * holding config.json. `origin` and `label` name it in messages. A
 * `revision` (--revision; NULL: none) picks a Hugging Face cache snapshot:
 * snapshots/REV, else the one refs/REV names; a bundled config is the main
 * revision only. */
kvc_status model_from_path(const char *path, const char *revision, const kvc_origin *origin, const char *base_dir,
                           const char *label, model_info *out, kvc_diag *diag);
/* The same for a draft model (--speculative-draft-model-path): an MHA
 * config without "kv_lora_rank" is taken too (kv_lora_rank 0). */
kvc_status model_draft_from_path(const char *path, const char *revision, const kvc_origin *origin,
                                 const char *base_dir, const char *label, model_info *out, kvc_diag *diag);
/* 1 when `name` is a bundled preset. */
int model_is_preset(const char *name);
/* Comma-separated preset names, for messages. */
void model_preset_list(char *out, size_t size);

#endif /* KVC_TARGET_H */
