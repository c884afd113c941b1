/* check_server_args' refusals beside the KV layout, release by release:
 * the function SGLang's Engine calls once the whole resolution has run
 * (ServerArgs.check_server_args up to 0.5.18, arg_groups/validation_hook.py
 * from 0.5.19), whose checks read the resolved values and refuse in their
 * order. rules.c makes the ones that read the layout (the page size's, PD
 * multiplexing's, HiSparse's, two-batch overlap's); the table below holds
 * the others a single worker can reach from its flags, each at its stage
 * around those (rules.h), and up to 0.5.6.post2 the metrics checks
 * __post_init__ made; LoRA's (lora.c), the gRPC port's (grpc.c), the
 * watermark's (watermark.c) and load publishing's (publish.c) are their own
 * tables. */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tp x pp not a multiple of --nnodes (Python's modulo: a negative count divides as its magnitude; 0 is refused by
 * s_nnodes_zero); from 0.5.16 not for an elastic EP scale joiner. */
static int s_nnodes(const ctx *c)
{
    const setting *n = &c->set->s[SET_NNODES];
    unsigned long nodes = !n->set ? 1 : strtoul(n->value + (n->value[0] == '-'), NULL, 10);
    int joiner = rel_since(c->rel, "0.5.16") && set_to(c, SET_EP_JOIN_MODE, "scale");
    return nodes && !joiner && (size_of(c, SET_TP) * size_of(c, SET_PP)) % nodes != 0;
}
static int s_nnodes_zero(const ctx *c)
{
    int joiner = rel_since(c->rel, "0.5.16") && set_to(c, SET_EP_JOIN_MODE, "scale");
    return set_to(c, SET_NNODES, "0") && !joiner;
}
static int s_micro_batch(const ctx *c) { return int_below(c, SET_PP_MICRO_BATCH, 1); }
static int s_padding_compile(const ctx *c)
{
    return c->set->s[SET_NO_CG_PADDING].set && c->set->s[SET_TORCH_COMPILE].set;
}
/* multi-node data parallelism without DP attention, which DSA models take up to 0.5.7 whatever was given */
static int s_multi_node_dp(const ctx *c)
{
    int forced = c->dsa && rel_until(c->rel, "0.5.7");
    return size_of(c, SET_DP) > 1 && size_of(c, SET_NNODES) != 1 && !c->set->s[SET_DP_ATTENTION].set && !forced;
}
/* multi-node replicas (0.5.22's dp_size: --dp-size beside an attention DP) */
static int s_multi_node_replicas(const ctx *c)
{
    unsigned long adp, dp;
    settings_attn_dp(c->set, &adp, &dp);
    return dp > 1 && size_of(c, SET_NNODES) != 1;
}
static int s_base_gpu(const ctx *c) { return int_below(c, SET_BASE_GPU_ID, 0); }
static int s_gpu_step(const ctx *c) { return int_below(c, SET_GPU_ID_STEP, 1); }
/* --moe-dense-tp-size other than 1 (up to 0.5.12.post1), or than 1 and --tp-size (0.5.13+) */
static int s_dense_tp_one(const ctx *c)
{
    /* the DeepSeek family's prefill CP sets it to 1 (sglang 0.5.9: python/sglang/srt/server_args.py:1223-1232; 0.5.16:
     * python/sglang/srt/arg_groups/overrides.py:353, :424; 0.5.23: arg_groups/model_overrides/deepseek_v2.py:116,
     * :201) */
    if (cp_rewrites(&c->cp) && rel_since(c->rel, "0.5.7")) return 0;
    return c->set->s[SET_MOE_DENSE_TP].set && size_of(c, SET_MOE_DENSE_TP) != 1;
}
static int s_dense_tp(const ctx *c) { return s_dense_tp_one(c) && size_of(c, SET_MOE_DENSE_TP) != size_of(c, SET_TP); }
/* the worker counts, which --skip-tokenizer-init sets to 1 (the tokenizers' in 0.5.4-0.5.15.post1, the
 * detokenizers' from 0.5.12; sglang 0.5.12: python/sglang/srt/server_args.py:4210-4220; 0.5.23: python/sglang/srt/
 * arg_groups/serving_hook.py, handle_tokenizer_batching) */
static int skip_resets(const ctx *c, const char *since, const char *until)
{
    return c->set->s[SET_SKIP_TOKENIZER].set && sglang_release_in(c->rel, since, until);
}
static int s_tokenizers(const ctx *c)
{
    return int_below(c, SET_TOKENIZER_WORKERS, 1) && !skip_resets(c, "0.5.4", "0.5.15.post1");
}
static int s_detokenizers(const ctx *c)
{
    return int_below(c, SET_DETOKENIZER_WORKERS, 1) && !skip_resets(c, "0.5.12", NULL);
}
static int s_mm_processors(const ctx *c) { return int_below(c, SET_MM_PROC_WORKERS, 0); }
static int s_mm_io(const ctx *c) { return int_below(c, SET_MM_IO_WORKERS, 0); }
static int s_min_free_slots(const ctx *c) { return size_of(c, SET_PP) > 1 && c->set->s[SET_MIN_FREE_SLOTS].set; }
/* pipeline parallelism with speculative decoding (NEXTN is EAGLE by then; the overlap schedule the same assert reads
 * SGLang turns off for pipeline parallelism itself), up to 0.5.10.post1 with mixed chunked prefill too */
static int pp_spec(const ctx *c) { return size_of(c, SET_PP) > 1 && c->set->s[SET_SPEC_ALGO].set; }
static int s_pp_mixed(const ctx *c)
{
    int mixed = c->set->s[SET_MIXED_CHUNK].set && !rules_dual_chunk(c); /* which turns it off */
    return pp_spec(c) || (size_of(c, SET_PP) > 1 && mixed);
}
/* 0.5.21+'s check_pipeline_parallel_compat, which SGLANG_ENABLE_PP_SPEC (an EnvBool) steers */
static int pp_env(const ctx *c) { return rules_env_bool(&c->set->s[SET_PP_SPEC_ENV]) == 1; }
static int pp_eagle(const ctx *c) { return pp_spec(c) && !set_to(c, SET_SPEC_ALGO, "DSPARK"); }
static int s_pp_not_eagle(const ctx *c)
{
    const char *a = c->set->s[SET_SPEC_ALGO].value;
    return pp_eagle(c) && (!word_in(a, "EAGLE NEXTN") || c->set->s[SET_MULTI_LAYER_EAGLE].set);
}
static int s_pp_env_mode(const ctx *c) { return pp_eagle(c) && pp_env(c) && pd_worker(c); }
static int s_pp_env_dp_flag(const ctx *c) { return pp_eagle(c) && pp_env(c) && c->set->s[SET_DP_ATTENTION].set; }
static int s_pp_env_attn_dp(const ctx *c)
{
    unsigned long adp, dp;
    settings_attn_dp(c->set, &adp, &dp);
    return pp_eagle(c) && pp_env(c) && adp > 1;
}
static int s_pp_prefill(const ctx *c) { return pp_eagle(c) && !pp_env(c) && !set_to(c, SET_DISAGG_MODE, "prefill"); }
static int s_xpu_sampling(const ctx *c) { return set_to(c, SET_SAMPLING_BACKEND, "intel_xpu"); }
static int s_priority_policy(const ctx *c)
{
    const setting *p = &c->set->s[SET_SCHEDULE_POLICY];
    return c->set->s[SET_PRIORITY_SCHED].set && p->set && strcmp(p->value, "fcfs") != 0 && strcmp(p->value, "lof") != 0;
}
static int s_priority_retraction(const ctx *c)
{
    return set_to(c, SET_RETRACTION_POLICY, "priority") && !c->set->s[SET_PRIORITY_SCHED].set;
}
static int s_multi_item_radix(const ctx *c) { return c->set->s[SET_MULTI_ITEM].set && !rules_worker_radix_off(c); }
static int s_multi_item_chunk(const ctx *c) { return c->set->s[SET_MULTI_ITEM].set && !chunk_minus_one(c); }
static int s_conservativeness(const ctx *c)
{
    const setting *s = &c->set->s[SET_CONSERVATIVENESS];
    char v[64];
    return s->set && py_float(s->value, v, sizeof v) && !(strtod(v, NULL) >= 0); /* NaN fails SGLang's >= 0 */
}
static int s_mindspore(const ctx *c) { return set_to(c, SET_MODEL_IMPL, "mindspore"); }
static int s_quant_comm_tp(const ctx *c) { return c->set->s[SET_QUANT_COMM].set && size_of(c, SET_TP) == 1; }
static int s_quant_comm(const ctx *c) { return c->set->s[SET_QUANT_COMM].set; }
static int s_tokenizer_batching(const ctx *c)
{
    return c->set->s[SET_TOKENIZER_BATCH].set && c->set->s[SET_DYNAMIC_TOKENIZER].set;
}
static int s_canary(const ctx *c)
{
    const setting *k = &c->set->s[SET_KV_CANARY];
    int sweeps = c->set->s[SET_CANARY_INTERVAL].set && !int_below(c, SET_CANARY_INTERVAL, 1);
    return sweeps && (!k->set || strcmp(k->value, "none") == 0);
}

/* A colon in the served model name: --served-model-name's, or --model-path's, which stands in for it when it is not
 * given (sglang 0.5.5.post1: python/sglang/srt/server_args.py:661; 0.5.23: python/sglang/srt/arg_groups/
 * serving_hook.py:642); from 0.5.10 not in a Run:ai object URI (is_runai_obj_uri: s3://, gs://, az:// in any case).
 * From 0.5.19 a model path of the form owner/repo:QUANT is a Hugging Face GGUF reference that SGLang looks up on the
 * Hub first, which kvcheck leaves to the Hub. */
static int colon_in(const setting *s, int runai_exempt)
{
    char scheme[6];
    str_copy(scheme, sizeof scheme, s->value);
    ascii_lower(scheme);
    if (runai_exempt && word_in(scheme, "s3:// gs:// az://")) return 0;
    return s->set && strchr(s->value, ':') != NULL;
}
/* resolve_hf_gguf_reference's test: repo_id:quant_type split at the last colon, quant_type not empty, exactly one '/'
 * in repo_id (sglang 0.5.23: python/sglang/srt/utils/hf_transformers/common.py:424-427) */
static int gguf_reference(const ctx *c)
{
    const char *p = c->set->s[SET_MODEL_PATH].value, *colon = strrchr(p, ':');
    unsigned slashes = 0;
    for (const char *q = p; colon && q < colon; q++) slashes += *q == '/';
    return rel_since(c->rel, "0.5.19") && colon && colon[1] && slashes == 1;
}
static int s_name_colon(const ctx *c) { return colon_in(&c->set->s[SET_SERVED_NAME], 0); }
static int s_path_colon(const ctx *c)
{
    return !c->set->s[SET_SERVED_NAME].set && colon_in(&c->set->s[SET_MODEL_PATH], 0);
}
static int s_name_colon_runai(const ctx *c) { return colon_in(&c->set->s[SET_SERVED_NAME], 1); }
static int s_path_colon_runai(const ctx *c)
{
    return !c->set->s[SET_SERVED_NAME].set && colon_in(&c->set->s[SET_MODEL_PATH], 1) && !gguf_reference(c);
}
/* --gc-threshold's values (int, nargs +): 1 to 3 */
static int s_gc_threshold(const ctx *c)
{
    const setting *g = &c->set->s[SET_GC_THRESHOLD];
    return g->set && list_words(g) > 3;
}

/* validate_buckets_rule's verdict on a --prompt-tokens-buckets or --generation-tokens-buckets list (sglang 0.5.3rc2:
 * python/sglang/srt/server_args.py:3059-3101; 0.5.18: :9479-9525; 0.5.23: python/sglang/srt/arg_groups/
 * validation_hook.py:384-430, the same in every release): its first assert that fails (BUCKETS_OK: none), with the
 * values its message names. The list is rule, then parameters; `words` is it joined by spaces. Pure. */
enum bucket_verdict {
    BUCKETS_OK, BUCKETS_RULE, BUCKETS_TSE_COUNT_OF, BUCKETS_TSE_TYPES, BUCKETS_TSE_BASE, BUCKETS_TSE_COUNT,
    BUCKETS_TSE_MIDDLE, BUCKETS_DEFAULT, BUCKETS_CUSTOM_EMPTY, BUCKETS_CUSTOM_NUMERIC, BUCKETS_CUSTOM_REPEATS,
    BUCKETS_CUSTOM_NEGATIVE
};
static const char *const BUCKET_MESSAGES[] = {
    [BUCKETS_RULE] = "Unsupported {flag} rule type: '{rule}'. Must be one of: 'tse', 'default', 'custom'",
    [BUCKETS_TSE_COUNT_OF] = "{flag} TSE rule requires exactly 4 parameters: ['tse', middle, base, count], got {n}",
    [BUCKETS_TSE_TYPES] = "{flag} TSE rule parameters must be: ['tse', <float:middle>, <float:base>, <int:count>]",
    [BUCKETS_TSE_BASE] = "{flag} TSE base must be larger than 1, got: {got}",
    [BUCKETS_TSE_COUNT] = "{flag} TSE count must be positive, got: {got}",
    [BUCKETS_TSE_MIDDLE] = "{flag} TSE middle must be positive, got: {got}",
    [BUCKETS_DEFAULT] = "{flag} default rule should only have one parameter: ['default'], got {n}",
    [BUCKETS_CUSTOM_EMPTY] = "{flag} custom rule requires at least one bucket value: ['custom', value1, ...]",
    [BUCKETS_CUSTOM_NUMERIC] = "{flag} custom rule bucket values must be numeric",
    [BUCKETS_CUSTOM_REPEATS] = "{flag} custom rule bucket values should not contain duplicates",
    [BUCKETS_CUSTOM_NEGATIVE] = "{flag} custom rule bucket values should be non-negative",
};
#define MAX_BUCKETS 512

/* The list's words, split at spaces: how many (more than `max` are not kept). */
static unsigned split_words(const char *words, const char **at, size_t *len, unsigned max)
{
    unsigned n = 0;
    for (const char *p = words;; n++) {
        size_t k = strcspn(p, " ");
        if (n < max) at[n] = p, len[n] = k;
        if (!p[k]) return n + 1;
        p += k + 1;
    }
}
static double word_float(const char *w, size_t len, int *ok)
{
    char word[SETTING_VALUE_LEN], clean[SETTING_VALUE_LEN];
    str_printf(word, sizeof word, "%.*s", (int)len, w);
    *ok = py_float(word, clean, sizeof clean);
    return *ok ? strtod(clean, NULL) : 0;
}
static enum bucket_verdict buckets_verdict(const char *words, char *got, size_t size)
{
    const char *at[MAX_BUCKETS];
    size_t len[MAX_BUCKETS];
    unsigned n = split_words(words, at, len, MAX_BUCKETS);
    str_printf(got, size, "%.*s", (int)len[0], at[0]);
    if (strcmp(got, "tse") == 0) {
        int ok[3];
        char count[SETTING_VALUE_LEN] = "0", word[SETTING_VALUE_LEN];
        if (n != 4) return str_printf(got, size, "%u", n), BUCKETS_TSE_COUNT_OF;
        double middle = word_float(at[1], len[1], &ok[0]), base = word_float(at[2], len[2], &ok[1]);
        str_printf(word, sizeof word, "%.*s", (int)len[3], at[3]);
        ok[2] = py_int(word, count, sizeof count);
        if (!ok[0] || !ok[1] || !ok[2]) return BUCKETS_TSE_TYPES;
        strbuf sb = {0};
        enum bucket_verdict v = !(base > 1)       ? (py_float_repr(base, &sb), BUCKETS_TSE_BASE)
                                : count[0] == '-' || strcmp(count, "0") == 0 ? (sb_puts(&sb, count), BUCKETS_TSE_COUNT)
                                : !(middle > 0) ? (py_float_repr(middle, &sb), BUCKETS_TSE_MIDDLE)
                                                : BUCKETS_OK;
        str_copy(got, size, sb.p ? sb.p : "");
        free(sb.p);
        return v;
    }
    if (strcmp(got, "default") == 0) return n == 1 ? BUCKETS_OK : (str_printf(got, size, "%u", n), BUCKETS_DEFAULT);
    if (strcmp(got, "custom") != 0) return BUCKETS_RULE;
    if (n < 2) return BUCKETS_CUSTOM_EMPTY;
    double values[MAX_BUCKETS];
    for (unsigned i = 1; i < n; i++) {
        int ok;
        values[i] = word_float(at[i], len[i], &ok);
        if (!ok) return BUCKETS_CUSTOM_NUMERIC;
    }
    for (unsigned i = 1; i < n; i++)
        for (unsigned k = 1; k < i; k++)
            if (values[i] == values[k]) return BUCKETS_CUSTOM_REPEATS; /* set(): 0.0 is -0.0, a NaN no other */
    for (unsigned i = 1; i < n; i++)
        if (!(values[i] >= 0)) return BUCKETS_CUSTOM_NEGATIVE;
    return BUCKETS_OK;
}
/* A list's words as SGLang has them: kvcheck keeps them joined by spaces, so a word that holds a space, or a list
 * longer than MAX_BUCKETS, it cannot read back (rows with no message decline it). */
static int buckets_unreadable(const setting *s)
{
    return s->set && (s->nvalues > MAX_BUCKETS || list_words(s) != s->nvalues);
}
static int buckets_refused(const setting *s)
{
    char got[SETTING_VALUE_LEN];
    return s->set && !buckets_unreadable(s) && buckets_verdict(s->value, got, sizeof got) != BUCKETS_OK;
}
static int s_prompt_unreadable(const ctx *c) { return buckets_unreadable(&c->set->s[SET_PROMPT_BUCKETS]); }
static int s_prompt_buckets(const ctx *c) { return buckets_refused(&c->set->s[SET_PROMPT_BUCKETS]); }
static int s_generation_unreadable(const ctx *c) { return buckets_unreadable(&c->set->s[SET_GENERATION_BUCKETS]); }
static int s_generation_buckets(const ctx *c) { return buckets_refused(&c->set->s[SET_GENERATION_BUCKETS]); }

/* The metrics options: an empty custom-labels header with allowed labels (nargs +, so given means not empty), and a
 * file export without a directory (given as "" is one) */
static int s_labels(const ctx *c)
{
    return c->set->s[SET_LABELS_HEADER].set && !c->set->s[SET_LABELS_HEADER].value[0] &&
           c->set->s[SET_ALLOWED_LABELS].set;
}
static int s_export(const ctx *c) { return c->set->s[SET_EXPORT_METRICS].set && !c->set->s[SET_EXPORT_METRICS_DIR].set; }

/* {flag}: SGLang's name for a buckets list (not the spelling given); {refusal}: validate_buckets_rule's message */
static void server_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    if (r->blame != SET_PROMPT_BUCKETS && r->blame != SET_GENERATION_BUCKETS) return;
    char got[SETTING_VALUE_LEN];
    enum bucket_verdict v = buckets_verdict(c->set->s[r->blame].value, got, sizeof got);
    const char *const fields[][2] = {
        {"flag", r->blame == SET_PROMPT_BUCKETS ? "--prompt-tokens-buckets" : "--generation-tokens-buckets"},
        {"rule", got}, {"n", got}, {"got", got}};
    char msg[sizeof f->text[0]];
    sglang_expand(BUCKET_MESSAGES[v] ? BUCKET_MESSAGES[v] : "", fields, COUNT_OF(fields), msg, sizeof msg);
    rule_field(f, "refusal", "%s", msg);
}

#define SA_OLD "sglang 0.5.3rc2: python/sglang/srt/server_args.py:"
#define SA_NEW "0.5.23: python/sglang/srt/arg_groups/validation_hook.py:"
#define PP_COMPAT "sglang 0.5.21: python/sglang/srt/arg_groups/validation_hook.py:"
#define SERVED_COLON                                                                                                   \
    "AssertionError: served_model_name cannot contain a colon (':') character. The colon is reserved for the "         \
    "'model:adapter' syntax used in LoRA adapter specification. Invalid value: '{value}'"
#define SERVED_OLD "sglang 0.5.5.post1: python/sglang/srt/server_args.py:3689; 0.5.9: :5156"
#define SERVED_NEW "sglang 0.5.10: python/sglang/srt/server_args.py:6090; 0.5.18: :9183; " SA_NEW "215"

#define BUCKETS_CITE SA_OLD "3057-3101; 0.5.18: :9479-9525; " SA_NEW "384-430"
#define LABELS                                                                                                         \
    "ValueError: Please set --tokenizer-metrics-custom-labels-header when setting "                                   \
    "--tokenizer-metrics-allowed-custom-labels."
#define EXPORT "ValueError: --export-metrics-to-file-dir is required when --export-metrics-to-file is enabled"

/* {value}: the blamed flag's; {refusal}: server_fields' */
static const flag_rule RULES[] = {
    {EVER, SERVER_BEFORE_PAGE, s_nnodes_zero, SET_NNODES, "ZeroDivisionError: integer modulo by zero",
     SA_OLD "2904; 0.5.16: :7577; " SA_NEW "179"},
    {EVER, SERVER_BEFORE_PAGE, s_nnodes, SET_NNODES, "AssertionError: tp_size must be divisible by number of nodes",
     SA_OLD "2904; 0.5.16: :7577; " SA_NEW "179"},
    {SINCE("0.5.11"), SERVER_BEFORE_PAGE, s_micro_batch, SET_PP_MICRO_BATCH,
     "AssertionError: pp_max_micro_batch_size must be a positive integer or None (for auto-compute). Got: {value}",
     "sglang 0.5.11: python/sglang/srt/server_args.py:6779; " SA_NEW "183"},
    {SINCE("0.5.12"), SERVER_BEFORE_PAGE, s_padding_compile, SET_NO_CG_PADDING,
     "AssertionError: --disable-cuda-graph-padding is incompatible with --enable-torch-compile. With padding "
     "disabled, every distinct batch size gets its own torch.compile + Triton autotune cycle (O(max_batch_size) "
     "compilations) instead of the small fixed set of padded bucket sizes, causing engine initialisation to stall "
     "for many minutes. Remove --disable-cuda-graph-padding or --enable-torch-compile.",
     "sglang 0.5.12: python/sglang/srt/server_args.py:7242; " SA_NEW "188"},
    {UNTIL("0.5.10.post1"), SERVER_BEFORE_PAGE, s_pp_mixed, SET_PP, "AssertionError: Pipeline parallelism is not "
     "compatible with overlap schedule, speculative decoding, mixed chunked prefill.",
     SA_OLD "2908-2909; 0.5.10.post1: :6069-6070"},
    {FROM_TO("0.5.11", "0.5.20"), SERVER_BEFORE_PAGE, pp_spec, SET_PP, "AssertionError: Pipeline parallelism is not "
     "compatible with overlap schedule, speculative decoding", "sglang 0.5.11: python/sglang/srt/server_args.py:6786-"
     "6787; 0.5.20: python/sglang/srt/arg_groups/validation_hook.py:62-82"},
    /* first DSpark's two asserts, on workers kvcheck declines before (it does not model DSpark's draft pool) */
    {SINCE("0.5.21"), SERVER_BEFORE_PAGE, s_pp_not_eagle, SET_SPEC_ALGO, "AssertionError: Pipeline parallelism "
     "currently only supports EAGLE (non-multi-layer) speculative decoding", PP_COMPAT "49-51; 0.5.23: :132"},
    {SINCE("0.5.21"), SERVER_BEFORE_PAGE, s_pp_env_mode, SET_PP_SPEC_ENV, "AssertionError: SGLANG_ENABLE_PP_SPEC is "
     "not compatible with --disaggregation-mode", PP_COMPAT "63-64; 0.5.23: :145"},
    /* then --speculative-adaptive, which kvcheck declines before (rules.c check_spec_params) */
    {FROM_TO("0.5.21", "0.5.21"), SERVER_BEFORE_PAGE, s_pp_env_dp_flag, SET_PP_SPEC_ENV, "AssertionError: "
     "SGLANG_ENABLE_PP_SPEC is not compatible with --enable-dp-attention", PP_COMPAT "74-75"},
    {SINCE("0.5.22"), SERVER_BEFORE_PAGE, s_pp_env_attn_dp, SET_PP_SPEC_ENV, "AssertionError: SGLANG_ENABLE_PP_SPEC "
     "is not compatible with attention DP (--attn-dp-size)", "sglang 0.5.22: python/sglang/srt/arg_groups/"
     "validation_hook.py:154-155; 0.5.23: :156"},
    {SINCE("0.5.21"), SERVER_BEFORE_PAGE, s_pp_prefill, SET_PP, "AssertionError: PP + speculative decoding (MTP) is "
     "only supported on prefill nodes (disaggregation-mode=prefill)", PP_COMPAT "78-79; 0.5.23: :161"},
    {SINCE("0.5.18"), SERVER_BEFORE_PAGE, s_min_free_slots, SET_MIN_FREE_SLOTS,
     "AssertionError: --min-free-slots-delay is not supported with pipeline parallelism: allocatable slots per "
     "microbatch are bounded by pp-max-micro-batch-size, so the threshold may never be reached",
     "sglang 0.5.18: python/sglang/srt/server_args.py:9162; " SA_NEW "165"},
    {UNTIL("0.5.21"), SERVER_BEFORE_PAGE, s_multi_node_dp, SET_DP,
     "AssertionError: multi-node data parallel is not supported unless dp attention!",
     SA_OLD "2915; 0.5.21: python/sglang/srt/arg_groups/validation_hook.py:117"},
    {SINCE("0.5.22"), SERVER_BEFORE_PAGE, s_multi_node_replicas, SET_DP,
     "AssertionError: multi-node data-parallel replicas are not supported; use attention DP (--attn-dp-size) across "
     "nodes", "sglang 0.5.22: python/sglang/srt/arg_groups/validation_hook.py:198; " SA_NEW "199"},
    {EVER, SERVER_BEFORE_PAGE, s_base_gpu, SET_BASE_GPU_ID, "AssertionError: base_gpu_id must be non-negative",
     SA_OLD "2919; " SA_NEW "204"},
    {EVER, SERVER_BEFORE_PAGE, s_gpu_step, SET_GPU_ID_STEP, "AssertionError: gpu_id_step must be positive",
     SA_OLD "2920; " SA_NEW "205"},
    {UNTIL("0.5.12.post1"), SERVER_BEFORE_PAGE, s_dense_tp_one, SET_MOE_DENSE_TP,
     "AssertionError: moe_dense_tp_size only support 1 and None currently",
     SA_OLD "2922; 0.5.12.post1: :7262"},
    {SINCE("0.5.13"), SERVER_BEFORE_PAGE, s_dense_tp, SET_MOE_DENSE_TP,
     "AssertionError: moe_dense_tp_size only supports None, 1, or tp_size currently",
     "sglang 0.5.13: python/sglang/srt/server_args.py:7435; " SA_NEW "207"},
    {FROM_TO("0.5.5.post1", "0.5.9"), SERVER_BEFORE_PAGE, s_name_colon, SET_SERVED_NAME, SERVED_COLON, SERVED_OLD},
    {FROM_TO("0.5.5.post1", "0.5.9"), SERVER_BEFORE_PAGE, s_path_colon, SET_MODEL_PATH, SERVED_COLON, SERVED_OLD},
    {SINCE("0.5.10"), SERVER_BEFORE_PAGE, s_name_colon_runai, SET_SERVED_NAME, SERVED_COLON, SERVED_NEW},
    {SINCE("0.5.10"), SERVER_BEFORE_PAGE, s_path_colon_runai, SET_MODEL_PATH, SERVED_COLON, SERVED_NEW},
    {EVER, SERVER_AFTER_PAGE, s_tokenizers, SET_TOKENIZER_WORKERS, "AssertionError: Tokenizer worker num must >= 1",
     SA_OLD "2945; " SA_NEW "273"},
    {SINCE("0.5.12"), SERVER_AFTER_PAGE, s_detokenizers, SET_DETOKENIZER_WORKERS,
     "AssertionError: Detokenizer worker num must >= 1",
     "sglang 0.5.12: python/sglang/srt/server_args.py:7318; " SA_NEW "274"},
    {SINCE("0.5.17"), SERVER_AFTER_PAGE, s_mm_processors, SET_MM_PROC_WORKERS,
     "AssertionError: Multimodal processor worker num must >= 0",
     "sglang 0.5.17: python/sglang/srt/server_args.py:8791; " SA_NEW "275"},
    {SINCE("0.5.17"), SERVER_AFTER_PAGE, s_mm_io, SET_MM_IO_WORKERS,
     "AssertionError: Multimodal I/O worker num must >= 0",
     "sglang 0.5.17: python/sglang/srt/server_args.py:8794; " SA_NEW "276"},
    /* validate_buckets_rule, for the prompt's list, then the generation's */
    {EVER, SERVER_AFTER_PAGE, s_prompt_unreadable, SET_PROMPT_BUCKETS, NULL, BUCKETS_CITE},
    {EVER, SERVER_AFTER_PAGE, s_prompt_buckets, SET_PROMPT_BUCKETS, "AssertionError: {refusal}",
     SA_OLD "2946, :3057-3101; 0.5.18: :9237, :9479-9525; " SA_NEW "277, :384-430"},
    {EVER, SERVER_AFTER_PAGE, s_generation_unreadable, SET_GENERATION_BUCKETS, NULL, BUCKETS_CITE},
    {EVER, SERVER_AFTER_PAGE, s_generation_buckets, SET_GENERATION_BUCKETS, "AssertionError: {refusal}",
     SA_OLD "2949, :3057-3101; 0.5.18: :9240, :9479-9525; " SA_NEW "278, :384-430"},
    {EVER, SERVER_AFTER_PAGE, s_priority_policy, SET_SCHEDULE_POLICY,
     "AssertionError: To use priority scheduling, schedule_policy must be 'fcfs' or 'lof'. '{value}' is not "
     "supported.", SA_OLD "2955; " SA_NEW "282"},
    {SINCE("0.5.16"), SERVER_AFTER_PAGE, s_priority_retraction, SET_RETRACTION_POLICY,
     "ValueError: --retraction-policy priority requires --enable-priority-scheduling",
     "sglang 0.5.16: python/sglang/srt/server_args.py:7695; " SA_NEW "304"},
    {FROM_TO("0.5.3.post1", "0.5.10.post1"), SERVER_AFTER_PAGE, s_multi_item_radix, SET_MULTI_ITEM,
     "AssertionError: Multi-item scoring requires radix cache to be disabled. Please set --disable-radix-cache when "
     "using --multi-item-scoring-delimiter.",
     "sglang 0.5.3.post1: python/sglang/srt/server_args.py:3018; 0.5.10.post1: :6170"},
    {FROM_TO("0.5.3.post1", "0.5.10.post1"), SERVER_AFTER_PAGE, s_multi_item_chunk, SET_MULTI_ITEM,
     "AssertionError: Multi-item scoring requires chunked prefill to be disabled. Please set --chunked-prefill-size "
     "-1 when using --multi-item-scoring-delimiter.",
     "sglang 0.5.3.post1: python/sglang/srt/server_args.py:3022; 0.5.10.post1: :6174"},
    {SINCE("0.5.5"), SERVER_AFTER_HISPARSE, s_conservativeness, SET_CONSERVATIVENESS,
     "AssertionError: schedule_conservativeness must be non-negative",
     "sglang 0.5.5: python/sglang/srt/server_args.py:3780; " SA_NEW "314"},
    {SINCE("0.5.6"), SERVER_AFTER_HISPARSE, s_mindspore, SET_MODEL_IMPL,
     "AssertionError: MindSpore model impl is only supported on Ascend npu.",
     "sglang 0.5.6: python/sglang/srt/server_args.py:4084; " SA_NEW "319"},
    /* then 0.5.22's InstantTensor check, which refuses a --device other than cuda: kvcheck declines such a worker
       before (rules.c check_unmodelled) */
    {SINCE("0.5.7"), SERVER_AFTER_HISPARSE, s_labels, SET_ALLOWED_LABELS, LABELS,
     "sglang 0.5.7: python/sglang/srt/server_args.py:4654; 0.5.18: :9292; " SA_NEW "335"},
    {SINCE("0.5.7"), SERVER_AFTER_HISPARSE, s_export, SET_EXPORT_METRICS, EXPORT,
     "sglang 0.5.7: python/sglang/srt/server_args.py:4660; 0.5.18: :9298; " SA_NEW "341"},
    /* the resolution's tokenizer batching handler, after the speculative, load format and disaggregation handlers */
    {EVER, SERVER_TOKENIZERS, s_tokenizer_batching, SET_DYNAMIC_TOKENIZER,
     "ValueError: Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch-tokenizer. Please "
     "choose one tokenizer batching approach.", SA_OLD "1213-1217; 0.5.18: :7828-7832; 0.5.19: python/sglang/srt/"
     "arg_groups/serving_hook.py:700-704; 0.5.23: :756-760"},
    /* up to 0.5.6.post2, __post_init__'s _handle_metrics_labels and (after the deterministic inference handler,
       which kvcheck declines before) _handle_request_metrics_exporters */
    {UNTIL("0.5.6.post2"), SERVER_AFTER_CACHE, s_labels, SET_ALLOWED_LABELS, LABELS,
     SA_OLD "1251; 0.5.6.post2: :1992"},
    {FROM_TO("0.5.5.post3", "0.5.6.post2"), SERVER_AFTER_CACHE, s_export, SET_EXPORT_METRICS, EXPORT,
     "sglang 0.5.5.post3: python/sglang/srt/server_args.py:1876; 0.5.6.post2: :2078"},
    {SINCE("0.5.11"), SERVER_AFTER_TBO, s_quant_comm_tp, SET_QUANT_COMM,
     "ValueError: Communications quantization is only used with tp_size != 1",
     "sglang 0.5.11: python/sglang/srt/server_args.py:6944; " SA_NEW "350"},
    {SINCE("0.5.11"), SERVER_AFTER_TBO, s_quant_comm, SET_QUANT_COMM,
     "ValueError: Communications quantization is only supported for NPU device",
     "sglang 0.5.11: python/sglang/srt/server_args.py:6949; " SA_NEW "353"},
    {SINCE("0.5.21"), SERVER_AFTER_TBO, s_xpu_sampling, SET_SAMPLING_BACKEND,
     "ValueError: --sampling-backend intel_xpu requires --device xpu, got --device cuda",
     "sglang 0.5.21: python/sglang/srt/arg_groups/validation_hook.py:265, :392; " SA_NEW "355, :484"},
    {SINCE("0.5.10"), SERVER_AFTER_GRPC, s_gc_threshold, SET_GC_THRESHOLD,
     "ValueError: When setting gc_threshold, it must contain 1 to 3 integers.",
     "sglang 0.5.10: python/sglang/srt/server_args.py:6234; 0.5.18: :9329; " SA_NEW "370"},
    {SINCE("0.5.13"), SERVER_AFTER_GRPC, s_canary, SET_CANARY_INTERVAL,
     "ValueError: --kv-canary-sweep-interval requires --kv-canary in {log, raise}",
     "sglang 0.5.13: python/sglang/srt/server_args.py:7591; " SA_NEW "375"},
};

kvc_status server_check(const ctx *c, enum server_stage stage)
{
    static const rule_hooks hooks = {"validate_buckets_rule on a list with a word that holds a space (kvcheck keeps a "
                                     "list's words joined by spaces)", server_fields, NULL};
    return rules_table(c, RULES, COUNT_OF(RULES), (int)stage, &hooks);
}

size_t server_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
