/* What the files of SGLang's rules share: release spans, the resolution
 * context, and the steps one file hands another. rules.c walks the steps
 * in SGLang's order; quant.c holds the model loader's quantization rules.
 * Private to src/engine/sglang/. */
#ifndef KVC_ENGINE_SGLANG_RULES_H
#define KVC_ENGINE_SGLANG_RULES_H

#include "engine/sglang/sglang.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ spans */

static inline int in_span(unsigned rel, span s) { return sglang_release_in(rel, s.since, s.until); }
static inline int rel_since(unsigned rel, const char *v) { return sglang_release_in(rel, v, NULL); }
static inline int rel_until(unsigned rel, const char *v) { return sglang_release_in(rel, NULL, v); }

/* `s` in place, as Python's str.lower() and str.upper() give ASCII names. */
static inline void ascii_lower(char *s)
{
    for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}
static inline void ascii_upper(char *s)
{
    for (; *s; s++) *s = (char)toupper((unsigned char)*s);
}

/* 1 when `word` is one of the space-separated words of `list` ("" never is). Pure. */
static inline int word_in(const char *word, const char *list)
{
    size_t n = strlen(word);
    if (n == 0) return 0;
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

/* ------------------------------------------------------------- contexts */

enum { PREFILL, DECODE };

/* One resolution in progress. */
#define MAX_ATTN 4 /* attention backends whose rules one worker meets */

/* How kvcheck takes the model loader's quantization check for a worker. */
enum loader_quant { QUANT_NONE, QUANT_ROW, QUANT_UNROWED, QUANT_UNJUDGED, QUANT_REFUSED };

/* The quantization method SGLang's model loader checks for a worker, and
 * how kvcheck takes it (quant.c). */
struct quant_verdict {
    enum loader_quant how;
    char method[KVC_NAME_LEN];   /* lower-cased, as _verify_quantization takes it */
    const struct quant_row *row; /* its QUANT_LOADER row, or NULL */
    char why[700];               /* what decides it, where kvcheck does not model that */
    int early; /* a refusal or an unjudged verdict of SGLang's server arguments, which come before their checks */
    /* the --quantization SGLang's server arguments set on SM100 for a ModelOpt checkpoint (its method as parsed,
     * as written); "": none, or not a ModelOpt checkpoint */
    char server[KVC_NAME_LEN];
};

/* Prefill context parallelism as a release takes a worker's flags (cp.c). */
enum cp_kind {
    CP_OFF,   /* no CP flag given */
    CP_DSA,   /* DSA CP: a DSA model of the DeepSeek family list */
    CP_MLA,   /* MLA CP: another MLA model of the list (0.5.13+) */
    CP_INERT, /* a CP flag the release applies to no server argument of this model */
};
typedef struct cp_state {
    enum cp_kind kind;
    const setting *on;    /* the flag that turned it on */
    const char *strategy; /* the mode or --cp-strategy SGLang reads; NULL: none (0.5.6-0.5.7; unset from 0.5.14) */
    int in_seq;           /* in-seq-split (zigzag from 0.5.14): deepep and --ep-size --tp-size */
    int bf16;             /* the release sets --kv-cache-dtype bf16 */
    int enabled;          /* enable_prefill_cp as SGLang's later checks read it: from 0.5.14 the switch (which the older
                             flags set up to 0.5.19); before, the DSA flag */
    int both_legacy;      /* the DSA flag and --enable-prefill-context-parallel are both given */
    int mla_named;        /* `on` is --enable-prefill-context-parallel */
    const char *cite;     /* where the release applies it */
} cp_state;

typedef struct ctx {
    unsigned rel;
    const gpu_info *gpu;
    const model_info *model;
    const draft_model *draft; /* a separate draft model (EAGLE3, STANDALONE) as found; NULL: none given */
    const settings *set;
    const settings *raw; /* the settings as the launch gives them, before the deprecated names and prefill CP rewrite
                            them (rules_resolve): what handlers that run before those rewrites read */
    kvc_resolved *out;
    kvc_diag *diag;
    int dsa, defaults; /* the release takes the model as DSA; and applies the DSA defaults */
    int fp8;           /* the resolved dtype is fp8_e4m3 */
    const char *dtype; /* SGLang's kv_cache_dtype string once resolved */
    const char *backend[2];
    int user_set[2];
    char backend_why[2][KVC_REASON_LEN];
    const kvc_origin *backend_from[2]; /* the flag that set the backend; NULL when a default or rule did */
    const struct hybrid_row *hybrid;   /* the model's DSA + linear-attention split, or NULL */
    const struct attn_rule *attn[MAX_ATTN]; /* the attention backends' rules that apply, in SGLang's order */
    char attn_why[MAX_ATTN][KVC_REASON_LEN]; /* how each backend was chosen */
    unsigned nattn;
    setting decode; /* the decode side the server args' attention checks read (settle_decode) */
    const char *mdtype; /* the dtype SGLang runs the model in (model_dtype); NULL: kvcheck cannot tell */
    char mdtype_why[KVC_REASON_LEN];
    struct quant_verdict quant; /* the quantization method SGLang's model loader checks (quant_settle) */
    cp_state cp;                /* prefill context parallelism (cp_settle) */
    /* the dtype a KV dtype of auto gives the pool (auto_kv_dtype); NULL: kvcheck cannot tell */
    const char *auto_dtype;
    char auto_why[KVC_REASON_LEN];
    /* what a rule table's stage has read once for its rows: set on a copy of the ctx the stage hands rules_table
       (watermark.c, publish.c, lm_head.c); NULL elsewhere */
    union {
        const struct wm_config *watermark;
        const struct publish_view *publish;
        const struct dp_view *lm_head;
    } view;
} ctx;

/* A size flag's value in `set` (--tp-size, --dp-size, --ep-size, ...), 1 unless given. Pure. */
static inline unsigned long settings_size(const settings *set, setting_key k)
{
    const setting *s = &set->s[k];
    return s->set ? strtoul(s->value, NULL, 10) : 1;
}

/* The same for the worker being resolved. Pure. */
static inline unsigned long size_of(const ctx *c, setting_key k) { return settings_size(c->set, k); }
/* An int flag given with a value below `lo` (argparse's int, kept as Python's int text: a sign is below 0). Pure. */
static inline int int_below(const ctx *c, setting_key k, long lo)
{
    const setting *s = &c->set->s[k];
    return s->set && (s->value[0] == '-' ? 1 : strlen(s->value) < 19 && strtol(s->value, NULL, 10) < lo);
}
/* The words of a list setting's value, which kvcheck keeps joined by spaces: fewer than its nvalues when a value
 * holds a space (such a list it cannot read back). Pure. */
static inline unsigned list_words(const setting *s)
{
    unsigned n = 1;
    for (const char *p = s->value; *p; p++) n += *p == ' ';
    return n;
}

/* A size flag's value as Python's int text (argparse's int, kept so by flags.c), "1" unless given. Pure. */
static inline const char *settings_size_text(const settings *set, setting_key k)
{
    return set->s[k].set ? set->s[k].value : "1";
}
/* The attention data parallel size as given, *adp (--attn-dp-size, else --dp-size under --enable-dp-attention, else
 * 1), and the data-parallel replicas beside it, *dp (--dp-size, 1 where it is the attention DP size): 0.5.22's reading
 * (sglang 0.5.22: python/sglang/srt/arg_groups/parallel_hook.py:39-60), and the attention DP size of every release
 * whose model defaults do not force it (rules.c attention_dp); as exact int texts. Pure. */
static inline void settings_attn_dp_text(const settings *set, const char **adp, const char **dp)
{
    *dp = settings_size_text(set, SET_DP);
    *adp = settings_size_text(set, SET_ATTN_DP_SIZE);
    if (strcmp(*adp, "1") == 0 && set->s[SET_DP_ATTENTION].set) *adp = *dp, *dp = "1"; /* attn_dp_size == 1 */
}
/* The same as unsigned longs (settings_size's reading). Pure. */
static inline void settings_attn_dp(const settings *set, unsigned long *adp, unsigned long *dp)
{
    const char *a, *d;
    settings_attn_dp_text(set, &a, &d);
    *adp = strtoul(a, NULL, 10), *dp = strtoul(d, NULL, 10);
}

/* The flag that gives the attention DP size (settings_attn_dp): --attn-dp-size above 1, else --dp-size. Pure. */
static inline const setting *settings_attn_dp_flag(const settings *set)
{
    return settings_size(set, SET_ATTN_DP_SIZE) != 1 ? &set->s[SET_ATTN_DP_SIZE] : &set->s[SET_DP];
}

/* 1 when setting `k` was given as `v`. Pure. */
static inline int set_to(const ctx *c, setting_key k, const char *v)
{
    return c->set->s[k].set && strcmp(c->set->s[k].value, v) == 0;
}

/* 1 when --model-path names an instance connector: parse_connector_type's "(.+)://(.*)" (greedy: the last "://",
 * no newline before it) gives "instance" (sglang 0.5.23: python/sglang/srt/utils/common.py:3742-3752,
 * python/sglang/srt/connector/__init__.py:22). Pure. */
static inline int instance_model_path(const ctx *c)
{
    const setting *p = &c->set->s[SET_MODEL_PATH];
    const char *last = NULL;
    for (const char *at = p->set ? strstr(p->value, "://") : NULL; at; at = strstr(at + 1, "://")) last = at;
    return last && last - p->value == 8 && strncmp(p->value, "instance", 8) == 0;
}

/* 1 for a PD worker: --disaggregation-mode given and not null. Pure. */
static inline int pd_worker(const ctx *c)
{
    return c->set->s[SET_DISAGG_MODE].set && !set_to(c, SET_DISAGG_MODE, "null");
}

/* 1 when SGLang runs the model in float32. Pure. */
static inline int model_fp32(const ctx *c) { return c->mdtype && strcmp(c->mdtype, "float32") == 0; }

/* SGLang refuses to start: its own message, then where the input came from (rules.c). */
kvc_status rules_refuse(const ctx *c, const setting *s, const char *fmt, ...) KVC_PRINTF(3, 4);

/* One of SGLang's refusals that a single test of the worker's settings decides. Tables of them (server.c, a2a.c's
 * elastic EP) list the refusals in SGLang's order; rules_table runs one. */
typedef struct flag_rule {
    span when;
    int stage; /* the table's own stages (server.c); 0 where a table has one */
    int (*refused)(const ctx *c);
    setting_key blame;   /* the flag the refusal points at */
    const char *message; /* SGLang's, {value} the blamed flag's; NULL: SGLang goes on to checks kvcheck does not model
                            (rule_hooks' `unmodelled`), and kvcheck declines the worker */
    const char *cite;
} flag_rule;
/* The values a table's messages name beside {value} (the blamed flag's), which its fields function computes once a
 * row refuses: {name} -> text. */
typedef struct rule_fields {
    size_t n;
    const char *name[16];
    char text[16][1024];
} rule_fields;
/* Adds {name} -> the formatted text to `f`. */
void rule_field(rule_fields *f, const char *name, const char *fmt, ...) KVC_PRINTF(3, 4);
/* What a table adds to its rows. */
typedef struct rule_hooks {
    const char *unmodelled; /* what SGLang checks next, which a row with no message names */
    void (*fields)(const ctx *c, const flag_rule *row, rule_fields *out); /* its messages' values; NULL: none */
    const setting *(*blamed)(const ctx *c, const flag_rule *row); /* where the blame depends on the worker; NULL */
} rule_hooks;
/* The first of `n` rows in force at `stage` whose test refuses the worker: SGLang's refusal, its message expanded
 * with {value} (the blamed flag's) and the hooks' fields, or kvcheck's decline naming the hooks' `unmodelled`.
 * KVC_OK for a running server's settings, whose checks passed. `hooks` may be NULL. */
kvc_status rules_table(const ctx *c, const flag_rule *rows, size_t n, int stage, const rule_hooks *hooks);
/* 1 when release `rel` applies the DeepSeek family's defaults to `arch` (rules.c). */
int rules_arch_defaults(const char *arch, unsigned rel);
/* The worker's speculative algorithm as SGLang's checks compare it once resolved, into `out` ("" none): upper-cased,
 * NEXTN made EAGLE (a Gemma 4 draft's promotion to FROZEN_KV_MTP does not apply to the models kvcheck serves).
 * Returns `out`. Pure. */
const char *rules_spec_resolved(const ctx *c, char *out, size_t size);
/* The setting called `name` of `r`, to fill in (resolve adds every setting first, in display order). */
kvc_setting *rules_get(kvc_resolved *r, const char *name);
/* Where a setting was given, for a reason's text: "--kv-cache-dtype at prefill.json:4:5". */
void rules_from_text(const setting *s, char *out, size_t size);
/* Where the model runner reads a KV dtype from the quantization config (rules.c). */
extern const char KV_QUANT_CITE[];

/* ----------------------------------------------- quantization (quant.c) */

/* Settles the worker's quantization method into c->quant, once. */
void quant_settle(ctx *c);
/* The MoE runner's check of the quantization method (server arguments). */
kvc_status quant_check_moe_runner(const ctx *c);
/* On ROCm the model config checks the quantization method before the MoE runner's and the all-to-all handler's
 * checks: where kvcheck does not judge that method (c->quant), a refusal of theirs is unjudged too, blaming `blame`. */
kvc_status quant_rocm_first(const ctx *c, const setting *blame);
/* The MoE runner SGLang's all-to-all handler reads (the flag's, or the one SGLang picks for the model); NULL where
 * SGLang picks it for the quantization (RUNNER_FORCED); *quant: the server's quantization, as Python prints it. */
const char *quant_moe_runner(const ctx *c, const char **quant);
/* The all-to-all backend SGLang's MoE checks see: the flag's, megamoe for the megamoe runner alias, else none. */
const char *quant_a2a_backend(const ctx *c);
/* The model loader's quantization check, after the model class. */
kvc_status quant_check_loader(const ctx *c);
/* --torchao-config's quantization of the loaded model (up to 0.5.17), after the loader's check: declined. */
kvc_status quant_check_torchao(const ctx *c);
/* --startup-weight-load-mode overlap (0.5.18+), first in the model's load: declined (SGLang refuses it for every
 * model kvcheck judges, with a reason kvcheck does not derive). */
kvc_status quant_check_startup_load(const ctx *c);
/* The GEMM and indexer kernel flags SGLang checks against the GPU and its kernels (quant.c KERNEL_FLAGS), where it
 * checks them: when the scheduler sets up its GEMM config (KERNEL_SCHEDULER), or builds the model (KERNEL_MODEL); a
 * value other than the ones that never refuse is declined. */
enum kernel_stage { KERNEL_SCHEDULER, KERNEL_MODEL };
kvc_status quant_check_kernels(const ctx *c, enum kernel_stage stage);
/* What a KV dtype of auto gives the pool: c->auto_dtype, c->auto_why. */
void quant_auto_kv_dtype(ctx *c);

/* -------------------------------------- prefill context parallelism (cp.c) */

/* Where SGLang checks CP and the attention CP size: its platform check before the PD handler (0.5.20-0.5.21), the
 * model-specific adjustments before the DSA KV dtype and after its backends, and _handle_context_parallelism after
 * the data parallelism handler. */
enum cp_stage { CP_EARLY, CP_MODEL, CP_MODEL_DECODE, CP_HANDLER };
/* How release `rel` takes the CP flags of `set` for model `m` (`dsa`: SGLang takes it as DSA; `family`: it is in
 * the DeepSeek family list, rules_arch_defaults). Pure. */
void cp_settle(const settings *set, const model_info *m, unsigned rel, int dsa, int family, cp_state *out);
/* 1 when CP sets server arguments (cp_apply). Pure. */
int cp_rewrites(const cp_state *cp);
/* Sets in `set` what CP sets before SGLang's other handlers read it, and says so among its warnings. */
void cp_apply(settings *set, const cp_state *cp, unsigned rel);
/* SGLang's refusals of CP and of the attention CP size at `stage`, in its order. */
kvc_status cp_check(const ctx *c, enum cp_stage stage);
/* Warnings: a CP flag with no effect on this model; a decode worker whose KV receiver refuses its CP size. */
void cp_note_inert(const ctx *c);
void cp_note_decode(const ctx *c);
/* Puts up to `max` of cp.c's release spans in `out`; returns how many it has. */
size_t cp_spans(span *out, size_t max);

/* --disable-radix-cache, or up to 0.5.19 the attention backend dual_chunk_flash_attn, which turns the radix cache off
 * (sglang 0.5.3rc2: python/sglang/srt/server_args.py:930-935; 0.5.14: :4720-4725; 0.5.19: python/sglang/srt/arg_groups/
 * attention_hook.py:215-229). Pure. */
int rules_radix_off(const ctx *c);
/* The attention backend dual_chunk_flash_attn up to 0.5.19, which turns the radix cache and mixed chunked prefill
 * off (sglang 0.5.10: python/sglang/srt/server_args.py:2460-2465). */
int rules_dual_chunk(const ctx *c);
/* The radix cache off as the cache checks see it: also on a PD decode worker without the decode radix cache. */
int rules_worker_radix_off(const ctx *c);

/* SGLang's EnvBool of a setting from the launch's environment: 1 on (true, 1, yes, y in any case), 0 off or unset,
 * -1 a value it warns about and reads as off (sglang 0.5.12: python/sglang/srt/environ.py:119-126; 0.5.23:
 * :79-86). Pure. */
int rules_env_bool(const setting *s);
/* The same as SGLang's EnvBool.get() returns it: `dflt` where unset or not a boolean. Pure. */
int rules_env_bool_or(const setting *s, int dflt);
/* An environment variable's integer as SGLang reads it (EnvInt; 0.5.9's get_int_env_var), into `out` (signed
 * decimal): the launch's value (1), or `dflt` where unset or where Python's int() refuses it, as SGLang warns and
 * does (0) (sglang 0.5.9: python/sglang/srt/utils/common.py:355-363; 0.5.11: python/sglang/srt/environ.py:66-72;
 * 0.5.23: :79-86). */
int rules_env_int(const ctx *c, setting_key k, const char *dflt, char *out, size_t size);
/* SGLang's warning for an EnvBool value it does not take (rules_env_bool -1), which it reads as off. */
void rules_env_warn(const ctx *c, setting_key k);

/* ------------------------------------------ check_server_args (server.c) */

/* check_server_args' refusals beside the KV layout, at their places around the checks rules.c makes there: before
 * the page size's check, after it (PD multiplexing's first), after HiSparse's, and after two-batch overlap's. */
enum server_stage {
    SERVER_TOKENIZERS,  /* the resolution's tokenizer batching handler, before the cache compatibility's */
    SERVER_AFTER_CACHE, /* up to 0.5.6.post2, __post_init__'s handlers after the cache compatibility's */
    SERVER_BEFORE_PAGE, SERVER_AFTER_PAGE, SERVER_AFTER_HISPARSE, SERVER_AFTER_TBO, SERVER_AFTER_GRPC
};
kvc_status server_check(const ctx *c, enum server_stage stage);
size_t server_spans(span *out, size_t max);

/* ------------------------------------------------------------- LoRA (lora.c) */

/* check_lora_server_args, in check_server_args after the served model name's check (and 0.5.23's LoRA MoE runner
 * checks, which it ends with, LoRA or not). */
kvc_status lora_check(const ctx *c);
/* The target's LoRA manager (ModelRunner.initialize, after the model's load, before the KV dtype): its refusals, then
 * a decline for a worker with LoRA on. */
kvc_status lora_manager_check(const ctx *c);
size_t lora_spans(span *out, size_t max);

/* ------------------------------ the speculative hook's options (spec_hook.c) */

/* Where the speculative hook checks them: early in handle_speculative_decoding (block verification's algorithms, the
 * draft window and sink), and in the EAGLE family handler after trtllm_mha's top-k check (rejection sampling). */
enum spec_hook_stage { SPEC_HOOK_EARLY, SPEC_HOOK_EAGLE };
kvc_status spec_hook_check(const ctx *c, enum spec_hook_stage stage);
size_t spec_hook_spans(span *out, size_t max);
/* 1 when rejection sampling is on once the speculative hook has run: given, turned on by block verification for
 * EAGLE and EAGLE3 (0.5.22+), or ROCm's default for EAGLE (0.5.21+). Pure. */
int rejection_on(const ctx *c);
/* What turned it on: --speculative-use-rejection-sampling, else --speculative-use-block-verification, else
 * --speculative-algorithm (ROCm's default). Pure. */
const setting *rejection_blame(const ctx *c);

/* ------------------------------------------- the radix eviction policy (eviction.c) */

/* --radix-eviction-policy tlru's config check (0.5.21+), in the cache compatibility handler after the decode
 * retraction backup's checks. */
kvc_status eviction_check(const ctx *c);

/* -------------------------------------------------- the LM head (lm_head.c) */

/* The data parallelism handler's checks of the LM head's DP flags, at its end. */
kvc_status lm_head_check(const ctx *c);
size_t lm_head_spans(span *out, size_t max);

/* ---------------------------------------------- the early checks (early.c) */

/* The pipeline's early single-flag checks (0.5.19+), right after the watermark's loader. */
kvc_status early_check(const ctx *c);
size_t early_spans(span *out, size_t max);

/* ------------------------------------------ the engine's addresses (address.c) */

/* --dist-init-addr and --nccl-port as the engine reads them when it starts, after check_server_args: PortArgs and,
 * from 0.5.10, the schedulers' parse of the address. */
kvc_status address_check(const ctx *c);

/* ------------------------------------------------- PrefillDelayer (delayer.c) */

/* The scheduler's PrefillDelayer (0.5.8+), built when it sets up its schedule policy: after the tree cache, before
 * the KV manager. */
kvc_status delayer_check(const ctx *c);
size_t delayer_spans(span *out, size_t max);

/* ---------------------------------- flags for other models (model_only.c) */

/* Where SGLang refuses a flag it serves only for other models: DeepSeek-V4's model hook (0.5.21+), right after the
 * speculative hook (LayerNorm SP, 0.5.19+), 0.5.23's model capability adjustments, after the other validations, and
 * when the target model starts loading (the PLE table's offload, 0.5.20+). */
enum model_only_stage { MODEL_ONLY_DSV4, MODEL_ONLY_SPEC, MODEL_ONLY_ENCODER, MODEL_ONLY_CAPABILITY, MODEL_ONLY_LOAD };
kvc_status model_only_check(const ctx *c, enum model_only_stage stage);
size_t model_only_spans(span *out, size_t max);

/* ------------------------------------------------ media URLs (media.c) */

/* configure_media_url_security (0.5.18+), early in the resolution: right before the watermark's loader. */
kvc_status media_check(const ctx *c);
size_t media_spans(span *out, size_t max);

/* ----------------------------------------------- watermarking (watermark.c) */

/* Where SGLang checks --watermark-config and --enable-watermark (0.5.22+): its loader, early in the resolution
 * (right after MegaMoE's checks), and check_watermark_server_args, in check_server_args after the kv canary's. */
enum watermark_stage { WATERMARK_LOAD, WATERMARK_SERVER };
kvc_status watermark_check(const ctx *c, enum watermark_stage stage);
size_t watermark_spans(span *out, size_t max);

/* ------------------------------------------ load publishing (publish.c) */

/* check_load_publish_args (0.5.19+), the last of check_server_args' checks. */
kvc_status publish_check(const ctx *c);
size_t publish_spans(span *out, size_t max);

/* ------------------------------------------------- the gRPC server (grpc.c) */

/* Where SGLang checks its gRPC settings: while it derives the port, before the PD hook (0.5.15+) or after it and
 * --prefill-only-disable-kv-cache's flag checks (0.5.11-0.5.14), and in check_server_args, after the communication
 * quantization's checks. */
enum grpc_stage { GRPC_BEFORE_PD, GRPC_AFTER_PD, GRPC_SERVER };
kvc_status grpc_check(const ctx *c, enum grpc_stage stage);
size_t grpc_spans(span *out, size_t max);

/* ------------------------- --prefill-only-disable-kv-cache (prefill_only.c) */

/* Its flag checks, right after the PD hook. */
kvc_status prefill_only_flags(const ctx *c);
/* Its prefill attention backend's check, once the attention backend SGLang runs is settled (`attention_backend`;
 * "" where kvcheck does not know it). */
kvc_status prefill_only_backend(const ctx *c, const char *attention_backend);
size_t prefill_only_spans(span *out, size_t max);

/* --------------------------------------------------- DeepSeek-V4 (dsv4.c) */

/* 1 for a DeepSeek-V4 architecture (its own pools and model adjustments). */
int rules_dsv4(const char *arch, unsigned rel);
/* Its hook's checks, its page size and its pools' rows, after the KV-independent steps rules.c runs first. */
kvc_status dsv4_resolve(ctx *c);
/* Its pool's creation, after the model loads: SGLANG_DSV4_KV_LAYOUT and the storage dtype. */
kvc_status dsv4_pool_check(const ctx *c);
size_t dsv4_spans(span *out, size_t max);

/* ------------------------------------------- DSA top-k sharing (topk.c) */

/* Two-batch overlap with DSA index-topk sharing, refused in the DeepSeek family's model adjustments (0.5.13+):
 * before its prefill CP section up to 0.5.14, after it from 0.5.15 (`after_cp` says which call this is). */
kvc_status topk_check_tbo(const ctx *c, int after_cp);
/* Which of the model's target layers run their own indexer under release `rel`, into `out`: 'F' runs it (writes and
 * reads its index K), 'S' reuses the previous layer's top-k; "" and 0 where every layer runs it, 1 where some share,
 * -1 where kvcheck cannot tell (a config SGLang fails on or that kvcheck does not read). Pure. */
int topk_layers(const model_info *m, unsigned rel, char *out, size_t size);
/* How many of `layers` indexer entries keep rows: SGLang's DSA pool gives none to the layers that reuse the previous
 * layer's top-k where its gate elides them (0.5.18+). 1 with *kept and `why` where it elides some, -1 where kvcheck
 * cannot tell (`why` says so; *kept is `layers`), 0 where it keeps every one. */
int topk_index_layers(const ctx *c, unsigned layers, unsigned *kept, char *why, size_t size);

/* ------------------------------------------- chunked prefill (chunk.c) */

/* The attention data parallel size SGLang divides by (rules.c), as Python's int text and as strtoul reads it. */
const char *rules_attention_dp_text(const ctx *c);
unsigned long rules_attention_dp(const ctx *c);
/* 1 where the DeepSeek family's defaults force DP attention on (up to 0.5.7, without --attn-dp-size). Pure. */
int rules_dp_attention_forced(const ctx *c);
/* check_server_args' check that a prefill-capable worker's chunked prefill size (given, or its default for the GPU's
 * memory), divided by the attention DP size, is a multiple of the page size `page` (`page_known`: kvcheck derived it;
 * `page_one_too`: SGLang may take a page of 1 instead, which kvcheck does not tell), then PD multiplexing's; `row`
 * gets the size where it matters. Declined where what kvcheck does not know leaves the verdict open. */
kvc_status chunk_check(const ctx *c, kvc_setting *row, unsigned long page, int page_known, int page_one_too);
/* How SGLang's chunked prefill size after the attention DP division compares with `limit` tokens (decimal digits,
 * as Python's int of any length) over every size the worker may take (chunking off counts as within); `sizes` (may
 * be NULL) gets where they come from. */
enum chunk_fit { CHUNK_WITHIN, CHUNK_OVER, CHUNK_EITHER };
enum chunk_fit chunk_fit(const ctx *c, const char *limit, char *sizes, size_t size);
/* 1 when chunking is on after the division for every size the worker may take, 0 when off for all, -1 else. */
int chunk_on(const ctx *c);
/* 1 when the size after the division is exactly -1, which PD multiplexing and multi-item scoring ask for. Pure. */
int chunk_minus_one(const ctx *c);
/* Puts up to `max` of chunk.c's release spans in `out`; returns how many it has. */
size_t chunk_spans(span *out, size_t max);

/* ------------------------------------------- the all-to-all handler (a2a.c) */

/* Where SGLang checks the all-to-all backend and its result: MegaMoE's compatibility at the start of the resolution
 * (0.5.21+); the handler itself (after the MoE runner's checks), with EPLB's checks after it; the token budgets after
 * speculative decoding; two-batch overlap in check_server_args, after the chunked prefill size's check. */
/* A2A_LAST: the resolution's last check (the draft's DeepEP v2); A2A_EPLB: a2a.c's own, after A2A_HANDLER's;
 * A2A_SCHEDULER: the scheduler's start, before its model worker (the MoE config); A2A_RUNNER: the model runner's
 * initialize, before it loads the model (the LP dispatch's solvers) */
enum a2a_stage { A2A_EARLY, A2A_HANDLER, A2A_BUDGET, A2A_LAST, A2A_SERVER_ARGS, A2A_EPLB, A2A_SCHEDULER, A2A_RUNNER };
kvc_status a2a_check(const ctx *c, enum a2a_stage stage);
/* Puts up to `max` of a2a.c's release spans in `out`; returns how many it has. */
size_t a2a_spans(span *out, size_t max);

/* ---------------------------------------------------------------- eras */

/* Puts up to `max` of quant.c's release spans (its tables' and its code's
 * version tests) in `out`; returns how many it has. */
size_t quant_spans(span *out, size_t max);

#endif
