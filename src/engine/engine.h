/* The engine interface: what kvcheck needs from a serving engine's own
 * rules, and the resolved worker every engine fills.
 *
 * An engine is a folder under src/engine/ that fills one `engine` (its
 * launch flags, config files, server dumps, the rules that turn them into a
 * KV layout, its fix candidates, its bootstrap check and its transfer) and
 * one row in engine/engines.c. Nothing above this stage knows an engine's
 * flag or setting names: they travel as rows of `kvc_setting`. */
#ifndef KVC_ENGINE_H
#define KVC_ENGINE_H

#include "format/format.h"
#include "target/target.h"

struct cJSON;

#define ENGINE_MAX_SETTINGS 24

/* Everything kvcheck derived for one worker (opaque in the public API). */
struct kvc_resolved {
    char engine[KVC_NAME_LEN];  /* "sglang" */
    char release[KVC_NAME_LEN]; /* the engine release whose rules it was resolved under: "0.5.23" */
    char release_source[KVC_NOTE_LEN]; /* where that release's rules come from */
    char release_asked[KVC_NAME_LEN];  /* the version the user gave ("" when none), e.g. "0.5.24" */
    char release_from[KVC_PATH_LEN];   /* where it was given: "--sglang-version", "prefill.json:3:22" */
    char label[KVC_PATH_LEN]; /* the worker's label: a file path or a word */
    gpu_info gpu;
    model_info model;

    unsigned nsettings;
    kvc_setting settings[ENGINE_MAX_SETTINGS]; /* in the engine's display order */
    kvc_setting row;                           /* the layout decision and why */

    kvc_layout kv;          /* the MLA KV cache layout of the target layers */
    int has_scales;
    kvc_layout scales;      /* the scale buffer the pool keeps apart from kv (SGLang's FP4 pool) */
    const char *scales_left; /* why the PD transfer leaves that buffer behind (static storage); NULL: it is sent */
    kvc_setting draft_row;  /* the draft (MTP) entries' layout decision, when there are any */
    kvc_layout draft;       /* their layout (the draft pool may have its own KV dtype) */
    int has_indexer;
    kvc_layout indexer;     /* the DSA indexer K state (page-split) */
    uint32_t attn_layers;   /* target layers with KV entries: all, or a hybrid model's attention layers */
    uint32_t kv_entries;    /* those + draft (MTP) layers + a separate draft model's K and V entries */
    uint32_t draft_entries; /* of which draft (MTP) layers */
    /* A separate draft model's pool (EAGLE3, STANDALONE), when derived: its
     * layers' K entries, then their V entries, after all the others. */
    uint32_t draft_model_layers;   /* 0: none derived */
    uint32_t draft_model_bytes[2]; /* bytes per token of a K and of a V entry (per page: kvc_resolved_draft_model) */
    uint64_t kv_bytes_per_token_all;
    uint64_t indexer_bytes_per_token_all;
    uint32_t indexer_entries; /* the entries with indexer K rows: all but a separate draft model's, less those the
                                 engine elides (SGLang's shared top-k layers) */
    /* which target layers run their own DSA indexer (write and read their index K): 'F' runs it, 'S' reuses the
     * previous layer's top-k; "" every layer, "?" the engine cannot tell */
    char indexer_layers[1025];
    /* A hybrid model's linear-attention layers keep no KV: one recurrent
     * state per request travels instead, in `nstate` tensors per layer. */
    uint32_t state_layers; /* 0: none */
    uint32_t state_tp;     /* the ranks their heads are split over: item sizes compare only at equal splits */
    unsigned nstate;
    struct engine_state {
        char name[KVC_NAME_LEN];  /* "conv" */
        char dtype[KVC_NAME_LEN]; /* "bfloat16" */
        char shape[KVC_NAME_LEN]; /* "3x3072" */
        uint64_t item_len;        /* bytes per request per layer */
    } state[2];

    unsigned nwarnings;
    char warnings[KVC_MAX_NOTES][KVC_NOTE_LEN];
    unsigned nignored; /* flags that cannot change the layout */
    char ignored[KVC_MAX_NOTES][KVC_NOTE_LEN];
};

/* Adds a setting to `r`; NULL when the table is full (an engine adds a
 * fixed set, well under ENGINE_MAX_SETTINGS: test_rules checks SGLang's). */
kvc_setting *resolved_add(kvc_resolved *r, const char *name, kvc_value_type type, unsigned flags);
/* Sets a setting's value (and its number, for UINT and BOOL) and reason;
 * accepts NULL. */
void setting_set(kvc_setting *s, const char *value, const char *fmt, ...) KVC_PRINTF(3, 4);
/* Records where a setting's value was given (accepts NULLs): a setting
 * "set by" a flag carries the flag's file, line and column. */
void setting_origin(kvc_setting *s, const kvc_origin *origin);
/* The setting called `name`, or NULL. */
const kvc_setting *resolved_find(const kvc_resolved *r, const char *name);
/* Its value, or "" when the worker has no such setting. */
const char *resolved_value(const kvc_resolved *r, const char *name);
/* The KV dtype as the engine resolved it: the value of the last setting
 * flagged KVC_SETTING_DTYPE that has one, or "". */
const char *resolved_dtype(const kvc_resolved *r);
/* 1 when both sides keep the same per-request state tensors split over the
 * same ranks, so their item sizes must agree (the engines reslice state
 * between different splits by head). */
int state_sizes_compare(const kvc_resolved *prefill, const kvc_resolved *decode);

/* An engine's parsed inputs for one worker, and the same read into its
 * settings with the GPU and model found: opaque to the stages above. */
typedef struct engine_inputs engine_inputs;
typedef struct engine_worker engine_worker;

/* What the worker knows besides the engine's own inputs. */
typedef struct engine_target {
    const char *label;
    const char *base_dir;    /* for relative paths inside the worker's files */
    const gpu_info *gpu;     /* NULL: not given */
    const model_info *model; /* NULL: not given; the engine may find it (--model-path) */
} engine_target;

/* A setting forced to a value: the fix search's trial flags. */
typedef struct engine_override {
    int key; /* the engine's own setting key */
    const char *value;
} engine_override;

/* One flag of a fix candidate. */
typedef struct engine_flag {
    int key;                  /* the engine's own setting key */
    char flag[KVC_NAME_LEN];  /* "--dsa-decode-backend" */
    char value[KVC_NAME_LEN]; /* "trtllm" */
} engine_flag;

/* A flag the engine would accept on one side to change its layout, with the flags that must come with it (the
 * engine refuses it alone: a speculative top-k without its step and draft-token counts). */
typedef struct engine_fix {
    engine_flag flags[KVC_MAX_FIX_ARGS]; /* the first decides `setting` */
    unsigned nflags;
    char setting[KVC_NAME_LEN]; /* the resolved setting it decides ("dsa_decode_backend") */
    int changes_dtype;          /* it changes the KV dtype (memory, accuracy) */
} engine_fix;

/* How the engine's PD transfer moves KV pages (DESIGN.md §1). */
typedef struct engine_transfer {
    const char *name;          /* "Mooncake" */
    int offsets_from_sender;   /* destination offsets use the sender's item length (else the receiver's) */
    const char *overrun_error; /* what the transfer says when it writes past decode's buffer */
} engine_transfer;

/* How the stages above name the engine and its releases in sentences, so
 * that none of them writes an engine's name or terms itself. */
typedef struct engine_words {
    const char *name;              /* "SGLang" */
    const char *release_option;    /* the CLI option that picks a release: "--sglang-version" */
    const char *release_key;       /* the worker-file key that does: "sglang_version" */
    const char *layout_flags;      /* what to align by hand: "dtype and both DSA backends" */
    const char *first_error;       /* what the first request reports when decode reads garbage */
    const char *dump_description;  /* "an SGLang /server_info dump (an object with kv_cache_dtype, ...)" */
    const char *config_description; /* "an SGLang --config YAML file" */
    const char *image;             /* the container image whose tag is the release: "sglang" (lmsysorg/sglang:v0.5.8) */
    const char *log_marker;        /* what starts the settings record in its log: "server_args=" */
    const char *log_version;       /* what precedes the version in a log: "sglang version: " */
} engine_words;

typedef struct engine_def {
    const char *name;
    engine_words words;
    /* The releases kvcheck has read, newest first; the first is the
     * default. Rows of the engine's tables name the ones they hold for. */
    const char *const *releases;
    unsigned nreleases;
    /* The release a user's version string stands for: exactly one of
     * `releases`, or the engine's choice for another version with `note`
     * saying which and why; fails for a version it cannot judge. */
    kvc_status (*find_release)(const char *version, unsigned *index, char *note, size_t size, kvc_diag *diag);
    /* The era of a release: the oldest release whose layout rules are the same. */
    const char *(*release_era)(unsigned index);

    engine_inputs *(*inputs_create)(void);
    void (*inputs_free)(engine_inputs *in);
    /* Launch-command words, in order (words before the first flag are the
     * program's, as in "python3 -m sglang.launch_server"). */
    kvc_status (*add_words)(engine_inputs *in, const word_list *words, kvc_diag *diag);
    /* How many of words[0..n) are a program that starts the engine (0: none). */
    size_t (*launch_words)(const char *const *words, size_t n);
    /* A NAME=value of the launch's environment. */
    kvc_status (*add_env)(engine_inputs *in, const char *assignment, const kvc_origin *origin, kvc_diag *diag);
    /* The worker's PD role as release `release` reads its inputs ("prefill",
     * "decode", or the engine's word for neither); fails as prepare does. */
    kvc_status (*role)(const engine_inputs *in, const char *base_dir, unsigned release, char *out, size_t size,
                       kvc_diag *diag);
    /* The engine's config file (a worker file's "config"); command-line flags win over it. */
    kvc_status (*add_config)(engine_inputs *in, const char *path, kvc_diag *diag);
    /* 1 when a JSON object is one of the engine's server dumps. */
    int (*is_dump)(const struct cJSON *root);
    kvc_status (*add_dump)(engine_inputs *in, const struct cJSON *root, const char *text, const char *file,
                           kvc_diag *diag);
    /* The settings record of a start-up log line (server_args=...), its
     * first byte at `where`. */
    kvc_status (*add_log)(engine_inputs *in, const char *record, size_t len, const kvc_origin *where, kvc_diag *diag);
    /* The engine version a server dump reports ("0.5.18"), or "" with none;
     * `key` gets the key it came from. */
    void (*dump_version)(const struct cJSON *root, char *out, size_t size, const char **key);
    /* Reads the inputs into the engine's settings as release `release`
     * parses them and finds the GPU and model (the target's, or the one the
     * flags name): done once per worker, then resolved under overrides. */
    kvc_status (*prepare)(const engine_inputs *in, const engine_target *t, unsigned release, engine_worker **out,
                          kvc_diag *diag);
    void (*prepared_free)(engine_worker *w);
    /* Resolves a prepared worker as release `release` would, with
     * `overrides` on top of its flags. Fails with the engine's own reason
     * when it would refuse to start. */
    kvc_status (*resolve)(const engine_worker *w, unsigned release, const engine_override *overrides,
                          size_t noverrides, kvc_resolved *out, kvc_diag *diag);
    /* Flags that could change `self`'s layout towards `other`'s. */
    unsigned (*fix_candidates)(const kvc_resolved *self, const kvc_resolved *other, engine_fix *out, unsigned max);
    /* The engine's own checks of a pair before it serves: returns 1 when
     * one refuses the pair, naming it in `stage` ("bootstrap", "NIXL
     * handshake"); `text` says what they compare and what they say. */
    int (*bootstrap)(const kvc_resolved *prefill, const kvc_resolved *decode, char *stage, size_t stage_size,
                     char *text, size_t size);
    /* How the pair's transfer moves pages. */
    const engine_transfer *(*transfer)(const kvc_resolved *prefill, const kvc_resolved *decode);
} engine_def;

/* The engines, one per folder under src/engine/. */
extern const engine_def ENGINE_SGLANG;

/* The engine called `name`, or NULL. */
const engine_def *engine_find(const char *name);
/* The engine a worker has when none is named. */
const engine_def *engine_default(void);
/* Engines in order, NULL past the end. */
const engine_def *engine_at(unsigned i);
/* The release called `name` of engine `e`: its index, or -1. */
int engine_release_index(const engine_def *e, const char *name);

#endif /* KVC_ENGINE_H */
