/* SGLang's rules for the MLA KV layout of a worker (SGLANG_RULES.md §1-5).
 * Data tables plus small pure functions; a new backend or release is rows. */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

/* Platforms, for suggesting backends in fixes only (never for validation). */
enum { SM90 = 1u, SM100 = 2u, SM120 = 4u, HIP = 8u };

static const struct backend {
    const char *name;
    int late;          /* added in late-2026 releases; its layout is unconfirmed */
    int fp8_raw_cuda;  /* writes raw FP8 rows (576 B) on CUDA */
    int fp8_raw_hip;   /* writes raw FP8 rows on ROCm/HIP */
    int hisparse_fp8;  /* allowed with HiSparse and fp8_e4m3 */
    int hisparse_bf16; /* allowed with HiSparse and bfloat16 */
    unsigned suits;
} BACKENDS[] = {
    {"flashmla_sparse", 0, 0, 0, 0, 1, SM90 | SM100},
    {"flashmla_kv", 0, 0, 0, 1, 0, SM90 | SM100},
    {"flashmla_auto", 0, 0, 0, 0, 0, SM90 | SM100},
    {"fa3", 0, 0, 0, 0, 0, SM90},
    {"tilelang", 0, 0, 1, 0, 0, HIP},
    {"aiter", 0, 0, 1, 0, 0, HIP}, /* raw on HIP: late 2026 */
    {"trtllm", 0, 1, 1, 0, 0, SM100},
    {"flashmla_sparse_q8", 1, 0, 0, 0, 0, SM90 | SM100},
    {"flashinfer_sparse_mla", 1, 0, 0, 1, 0, SM100},
};

/* §3: defaults for an unset backend, first match wins. */
static const struct default_rule {
    int hisparse;           /* only with --enable-hisparse */
    int hip_both_unset;     /* only on ROCm with both sides unset */
    const char *dtype;      /* NULL: any dtype */
    unsigned min_major;     /* 0: any GPU */
    int names_cc;           /* the reason names the compute capability */
    const char *prefill, *decode;
    const char *why;
} DEFAULTS[] = {
    {1, 0, "fp8_e4m3", 0, 0, "flashmla_kv", "flashmla_kv", "with --enable-hisparse and fp8_e4m3"},
    {1, 0, NULL, 0, 0, "flashmla_sparse", "flashmla_sparse", "with --enable-hisparse and bfloat16"},
    {0, 1, NULL, 0, 0, "tilelang", "tilelang", "on ROCm/HIP with both DSA backends unset"},
    {0, 0, "fp8_e4m3", 10, 1, "trtllm", "trtllm", "with fp8_e4m3"},
    {0, 0, "fp8_e4m3", 0, 1, "flashmla_kv", "flashmla_kv", "with fp8_e4m3"},
    {0, 0, "bfloat16", 10, 1, "flashmla_sparse", "trtllm", "with bfloat16"},
    {0, 0, "bfloat16", 0, 1, "flashmla_sparse", "fa3", "with bfloat16"},
};

/* §2: --kv-cache-dtype choices SGLang's parser accepts, with their layout
 * when rows are plain (one element type for NoPE and RoPE). */
static const struct dtype_row {
    const char *name;
    const char *canonical; /* SGLang's rename */
    const char *plain_layout;
} DTYPES[] = {
    {"auto", "auto", NULL},
    {"bfloat16", "bfloat16", "bf16"},
    {"bf16", "bfloat16", "bf16"},
    {"float16", "float16", "fp16"},
    {"float32", "float32", "fp32"},
    {"fp8_e4m3", "fp8_e4m3", "fp8_raw"},
    {"fp8_e5m2", "fp8_e5m2", "fp8_e5m2_raw"},
    {"fp4_e2m1", "fp4_e2m1", NULL},
};

static const char *const MODES[] = {"null", "prefill", "decode"};

static const struct spec_row {
    const char *name;
    int mtp; /* the draft pool holds the model's own MTP layers */
} SPEC_ALGOS[] = {{"EAGLE", 1}, {"NEXTN", 1}, {"EAGLE3", 0}, {"STANDALONE", 0}, {"NGRAM", 0}};

unsigned rules_backend_count(void) { return COUNT_OF(BACKENDS); }
const char *rules_backend_name(unsigned i) { return BACKENDS[i].name; }

static unsigned platform_of(const gpu_info *gpu)
{
    if (gpu->hip) return HIP;
    if (gpu->major >= 12) return SM120;
    if (gpu->major >= 10) return SM100;
    return SM90;
}

int rules_backend_suggestable(unsigned i, const gpu_info *gpu)
{
    /* Late-2026 backends have unconfirmed layouts: never suggest them. */
    return !BACKENDS[i].late && (BACKENDS[i].suits & platform_of(gpu)) != 0;
}

const char *kvc_rules_name(kvc_rules rules)
{
    return rules == KVC_RULES_EITHER_BACKEND ? "either-backend" : "active-backend";
}

kvc_status kvc_rules_parse(const char *name, kvc_rules *out)
{
    if (strcmp(name, "active-backend") == 0) *out = KVC_RULES_ACTIVE_BACKEND;
    else if (strcmp(name, "either-backend") == 0) *out = KVC_RULES_EITHER_BACKEND;
    else return KVC_ERR_USAGE;
    return KVC_OK;
}

static const struct backend *find_backend(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(BACKENDS); i++)
        if (strcmp(BACKENDS[i].name, name) == 0) return &BACKENDS[i];
    return NULL;
}

static void set_value(kvc_value *v, const char *value, const char *fmt, ...) KVC_PRINTF(3, 4);
static void set_value(kvc_value *v, const char *value, const char *fmt, ...)
{
    str_copy(v->value, sizeof v->value, value);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->reason, sizeof v->reason, fmt, ap);
    va_end(ap);
}

/* " (from --kv-cache-dtype at prefill.json:4:5)" */
static void from_text(const setting *s, char *out, size_t size)
{
    char where[600];
    origin_format(&s->origin, where, sizeof where);
    int path = s->origin.where[0] && strcmp(s->origin.where, s->flag) != 0;
    if (where[0] && path) snprintf(out, size, "%s (%s) at %s", s->flag, s->origin.where, where);
    else if (where[0]) snprintf(out, size, "%s at %s", s->flag, where);
    else snprintf(out, size, "%s", s->flag);
}

static void choices_of(const char *const *names, size_t n, size_t stride, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        str_join_add(out, size, ", ", *(const char *const *)((const char *)names + i * stride));
}

#define CHOICES(table, out) choices_of(&(table)[0].name, COUNT_OF(table), sizeof (table)[0], out, sizeof out)

static kvc_status invalid_choice(const setting *s, const char *choices, kvc_diag *diag)
{
    return diag_set(diag, KVC_ERR_CONFIG, &s->origin,
                    "%s: invalid choice '%s' (SGLang accepts: %s)", s->flag, s->value, choices);
}

/* §2 */
static kvc_status resolve_dtype(const gpu_info *gpu, const model_info *model, const setting *s,
                                kvc_resolved *out, kvc_diag *diag)
{
    const struct dtype_row *row = &DTYPES[0];
    if (s->set) {
        row = NULL;
        for (size_t i = 0; i < COUNT_OF(DTYPES); i++)
            if (strcmp(DTYPES[i].name, s->value) == 0 && strcmp(s->value, "float16") != 0 &&
                strcmp(s->value, "float32") != 0)
                row = &DTYPES[i];
        if (!row) return invalid_choice(s, "auto, fp8_e5m2, fp8_e4m3, bf16, bfloat16, fp4_e2m1", diag);
    }
    char from[900] = "default";
    if (s->set) from_text(s, from, sizeof from);
    kvc_value *v = &out->kv_cache_dtype;
    if (strcmp(row->name, "auto") == 0) {
        if (model->dsa) {
            const char *d = gpu->major >= 10 ? "fp8_e4m3" : "bfloat16";
            set_value(v, d, "auto: SGLang picks %s for DSA models on compute capability %u.%u (%s 10)",
                      d, gpu->major, gpu->minor, gpu->major >= 10 ? ">=" : "<");
            return KVC_OK;
        }
        const char *d = model->torch_dtype;
        RETURN_ERROR_IF(strcmp(d, "bfloat16") && strcmp(d, "float16") && strcmp(d, "float32"), diag,
                        KVC_ERR_CONFIG, &s->origin,
                        "the model's torch_dtype '%s' is not one kvcheck models for an auto KV "
                        "cache: pass --kv-cache-dtype",
                        d);
        set_value(v, d, "auto: the model's dtype (torch_dtype %s)", d);
        return KVC_OK;
    }
    if (model->dsa && strcmp(row->canonical, "bfloat16") && strcmp(row->canonical, "fp8_e4m3"))
        return diag_set(diag, KVC_ERR_CONFIG, &s->origin,
                        "%s %s: DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 "
                        "kv_cache_dtype (SGLang's check)",
                        s->flag, s->value);
    RETURN_ERROR_IF(!row->plain_layout, diag, KVC_ERR_CONFIG, &s->origin,
                    "%s %s: kvcheck does not model this KV dtype's MLA layout yet", s->flag, s->value);
    if (strcmp(row->name, row->canonical) != 0)
        set_value(v, row->canonical, "%s is SGLang's alias of %s (%s)", row->name, row->canonical, from);
    else
        set_value(v, row->canonical, "set by %s", from);
    return KVC_OK;
}

/* §3: a set backend is kept; an unset one gets the first matching default. */
static kvc_status resolve_backends(const gpu_info *gpu, const settings *set, kvc_resolved *out,
                                   kvc_diag *diag)
{
    const setting *side[2] = {&set->s[SET_PREFILL_BACKEND], &set->s[SET_DECODE_BACKEND]};
    kvc_value *val[2] = {&out->dsa_prefill_backend, &out->dsa_decode_backend};
    static const char *const SIDE[2] = {"prefill", "decode"};
    const char *dtype = out->kv_cache_dtype.value;
    int both_unset = !side[0]->set && !side[1]->set;
    for (int i = 0; i < 2; i++) {
        if (side[i]->set) {
            const struct backend *b = find_backend(side[i]->value);
            if (!b) {
                char choices[400];
                CHOICES(BACKENDS, choices);
                return invalid_choice(side[i], choices, diag);
            }
            char from[900];
            from_text(side[i], from, sizeof from);
            set_value(val[i], b->name, "set by %s", from);
            continue;
        }
        for (size_t r = 0; r < COUNT_OF(DEFAULTS); r++) {
            const struct default_rule *d = &DEFAULTS[r];
            if (d->hisparse && !out->hisparse) continue;
            if (d->hip_both_unset && !(gpu->hip && both_unset)) continue;
            if (d->dtype && strcmp(d->dtype, dtype) != 0) continue;
            if (gpu->major < d->min_major) continue;
            const char *name = i == 0 ? d->prefill : d->decode;
            if (d->names_cc)
                set_value(val[i], name, "default for an unset %s backend %s on compute capability %u.%u",
                          SIDE[i], d->why, gpu->major, gpu->minor);
            else
                set_value(val[i], name, "default for an unset %s backend %s", SIDE[i], d->why);
            break;
        }
    }
    return KVC_OK;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int hisparse_allows(const struct backend *b, int fp8)
{
    return fp8 ? b->hisparse_fp8 : b->hisparse_bf16;
}

/* §3: HiSparse constraints, checked on the resolved backends. */
static kvc_status check_hisparse(const settings *set, kvc_resolved *out, kvc_diag *diag)
{
    if (!out->hisparse) return KVC_OK;
    int fp8 = strcmp(out->kv_cache_dtype.value, "fp8_e4m3") == 0;
    const kvc_value *val[2] = {&out->dsa_prefill_backend, &out->dsa_decode_backend};
    const setting *side[2] = {&set->s[SET_PREFILL_BACKEND], &set->s[SET_DECODE_BACKEND]};
    static const char *const SIDE[2] = {"prefill", "decode"};
    for (int i = 0; i < 2; i++) {
        const struct backend *b = find_backend(val[i]->value);
        if (hisparse_allows(b, fp8)) continue;
        /* SGLang prints the allowed set as Python's sorted() list. */
        const char *names[COUNT_OF(BACKENDS)];
        size_t n = 0;
        for (size_t k = 0; k < COUNT_OF(BACKENDS); k++)
            if (hisparse_allows(&BACKENDS[k], fp8)) names[n++] = BACKENDS[k].name;
        qsort(names, n, sizeof names[0], cmp_names);
        char allowed[200] = "", quoted[KVC_NAME_LEN + 2];
        for (size_t k = 0; k < n; k++) {
            str_printf(quoted, sizeof quoted, "'%s'", names[k]);
            str_join_add(allowed, sizeof allowed, ", ", quoted);
        }
        return diag_set(diag, KVC_ERR_CONFIG, side[i]->set ? &side[i]->origin : &set->s[SET_HISPARSE].origin,
                        "HiSparse with --kv-cache-dtype=%s requires --dsa-%s-backend in [%s], but "
                        "got %s.",
                        out->kv_cache_dtype.value, SIDE[i], allowed, b->name);
    }
    RETURN_ERROR_IF(!set->s[SET_DISABLE_RADIX].set, diag, KVC_ERR_CONFIG, &set->s[SET_HISPARSE].origin,
                    "Hierarchical sparse attention currently requires --disable-radix-cache. "
                    "(SGLang's check): add that flag");
    return KVC_OK;
}

/* §4: the row layout's name for a DSA worker, and why. Pure. */
static const char *row_layout(const char *dtype, const char *prefill, const char *decode,
                              const char *mode, int hip, kvc_rules rules, char *why, size_t size)
{
    if (strcmp(dtype, "bfloat16") == 0) {
        snprintf(why, size, "bfloat16 rows are always R + r bf16 values, whatever the backends");
        return "bf16";
    }
    int active = rules == KVC_RULES_ACTIVE_BACKEND && strcmp(mode, "null") != 0;
    int decides_prefill = !active || strcmp(mode, "prefill") == 0;
    int decides_decode = !active || strcmp(mode, "decode") == 0;
    const char *rule_text = active ? (decides_prefill ? "active-backend rule: on a prefill worker the prefill backend decides"
                                                      : "active-backend rule: on a decode worker the decode backend decides")
                                   : rules == KVC_RULES_ACTIVE_BACKEND
                                         ? "active-backend rule: on a unified worker either backend decides"
                                         : "either-backend rule: raw when either backend writes raw FP8";
    const struct backend *p = find_backend(prefill), *d = find_backend(decode);
    const struct backend *raw = NULL;
    if (decides_prefill && (hip ? p->fp8_raw_hip : p->fp8_raw_cuda)) raw = p;
    else if (decides_decode && (hip ? d->fp8_raw_hip : d->fp8_raw_cuda)) raw = d;
    if (raw) {
        snprintf(why, size, "the %s backend %s writes raw FP8 rows%s (%s)",
                 raw == p && decides_prefill ? "prefill" : "decode", raw->name, hip ? " on ROCm" : "",
                 rule_text);
        return "fp8_raw";
    }
    snprintf(why, size, "no deciding backend writes raw FP8, so rows carry FP32 scales (%s)", rule_text);
    return "fp8_flashmla";
}

static kvc_status resolve_page_size(const gpu_info *gpu, const model_info *model, const setting *s,
                                    kvc_resolved *out, kvc_diag *diag)
{
    unsigned long given = 0;
    char from[900] = "";
    if (s->set) {
        char *end = NULL;
        given = strtoul(s->value, &end, 10);
        RETURN_ERROR_IF(!s->value[0] || *end || s->value[0] == '-' || given < 1 || given > 65536, diag,
                        KVC_ERR_CONFIG, &s->origin,
                        "%s '%s': the page size must be a whole number of tokens from 1 to 65536",
                        s->flag, s->value);
        from_text(s, from, sizeof from);
    }
    if (model->dsa) {
        char passed[64] = "";
        if (s->set && given != 64) str_printf(passed, sizeof passed, " (you passed %lu)", given);
        set_value(&out->page_size, "64",
                  "forced to 64 for DSA on %s%s: \"Setting page size to 64 for DeepSeek DSA.\"",
                  gpu->hip ? "ROCm with aiter's paged-MQA path" : "CUDA", passed);
        if (gpu->hip)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "on ROCm without aiter's preshuffle paged-MQA path (SGLANG_USE_AITER=0 or "
                      "Triton < 3.5) SGLang forces page size 1, not 64");
        return KVC_OK;
    }
    if (s->set) set_value(&out->page_size, s->value, "set by %s", from);
    else set_value(&out->page_size, "1", "SGLang's default page size");
    return KVC_OK;
}

static kvc_status resolve_mode(const setting *s, kvc_resolved *out, kvc_diag *diag)
{
    if (!s->set) {
        set_value(&out->disaggregation_mode, "null", "not set: a unified (non-PD) worker");
        return KVC_OK;
    }
    for (size_t i = 0; i < COUNT_OF(MODES); i++)
        if (strcmp(MODES[i], s->value) == 0) {
            char from[900];
            from_text(s, from, sizeof from);
            set_value(&out->disaggregation_mode, s->value, "set by %s", from);
            return KVC_OK;
        }
    return invalid_choice(s, "null, prefill, decode", diag);
}

static kvc_status resolve_speculative(const model_info *model, const setting *s, kvc_resolved *out,
                                      kvc_diag *diag)
{
    out->draft_entries = 0;
    if (!s->set) {
        set_value(&out->speculative, "", "no speculative decoding: no draft entries");
        return KVC_OK;
    }
    const struct spec_row *row = NULL;
    for (size_t i = 0; i < COUNT_OF(SPEC_ALGOS); i++)
        if (str_ieq(SPEC_ALGOS[i].name, s->value)) row = &SPEC_ALGOS[i];
    if (!row) {
        char choices[200];
        CHOICES(SPEC_ALGOS, choices);
        return invalid_choice(s, choices, diag);
    }
    if (row->mtp && model->num_nextn_predict_layers) {
        out->draft_entries = model->num_nextn_predict_layers;
        set_value(&out->speculative, row->name,
                  "%s (MTP): the draft pool adds num_nextn_predict_layers = %u entries after the %u "
                  "target layers",
                  row->name, model->num_nextn_predict_layers, model->num_hidden_layers);
    } else if (strcmp(row->name, "NGRAM") == 0) {
        set_value(&out->speculative, row->name, "NGRAM keeps no draft KV cache");
    } else {
        set_value(&out->speculative, row->name, "%s drafts with a separate model", row->name);
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "--speculative-algorithm %s: the draft model's own KV pool is not derived; only "
                  "the target layers are counted",
                  row->name);
    }
    return KVC_OK;
}

static void describe_parallelism(const settings *set, kvc_resolved *out)
{
    char text[KVC_NAME_LEN] = "", item[KVC_NAME_LEN];
    const setting *tp = &set->s[SET_TP], *dp = &set->s[SET_DP];
    if (tp->set) str_printf(item, sizeof item, "tp %s", tp->value), str_join_add(text, sizeof text, ", ", item);
    if (dp->set) str_printf(item, sizeof item, "dp %s", dp->value), str_join_add(text, sizeof text, ", ", item);
    if (set->s[SET_DP_ATTENTION].set) str_join_add(text, sizeof text, ", ", "dp-attention");
    set_value(&out->parallelism, text,
              "does not change MLA bytes: the MLA cache is replicated across attention-TP ranks, "
              "and any prefill TP can feed any decode TP");
}

static void warn_backends(const gpu_info *gpu, kvc_resolved *out)
{
    const kvc_value *val[2] = {&out->dsa_prefill_backend, &out->dsa_decode_backend};
    for (int i = 0; i < 2; i++) {
        const struct backend *b = find_backend(val[i]->value);
        if (b->late)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "%s was added in late-2026 SGLang and its KV layout is unconfirmed: kvcheck "
                      "assumes FlashMLA's scaled FP8 rows",
                      b->name);
        if (!(b->suits & platform_of(gpu)))
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "%s is not known to run on %s (compute capability %u.%u); check that SGLang "
                      "starts with it",
                      b->name, gpu->name, gpu->major, gpu->minor);
    }
}

static kvc_status derive_layouts(const model_info *model, kvc_resolved *out, kvc_diag *diag)
{
    kvc_layout_params p = {model->kv_lora_rank, model->qk_rope_head_dim, model->index_head_dim,
                           (uint32_t)strtoul(out->page_size.value, NULL, 10)};
    kvc_status st = kvc_layout_build(out->row.value, &p, &out->kv, diag);
    if (st) {
        char msg[sizeof diag->message];
        str_copy(msg, sizeof msg, diag->message);
        str_printf(diag->message, sizeof diag->message, "model %s with %s: %s (%s)", model->name,
                   out->kv_cache_dtype.value, msg, out->row.reason);
        return st;
    }
    out->kv_entries = model->num_hidden_layers + out->draft_entries;
    out->kv_bytes_per_token_all = (uint64_t)out->kv.bytes_per_token * out->kv_entries;
    out->has_indexer = model->dsa;
    if (!model->dsa) return KVC_OK;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "index_head_dim");
    RETURN_ERROR_IF(model->index_head_dim != 128, diag, KVC_ERR_CONFIG, &o,
                    "index_head_dim is %u: SGLang's DSA indexer K cache needs 128",
                    model->index_head_dim);
    st = kvc_layout_build("dsa_indexer", &p, &out->indexer, diag);
    out->indexer_bytes_per_token_all = (uint64_t)out->indexer.bytes_per_token * out->kv_entries;
    return st;
}

kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const settings *set,
                         kvc_rules rules, kvc_resolved *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->rules = rules;
    str_copy(out->gpu_name, sizeof out->gpu_name, gpu->name);
    out->cc_major = gpu->major;
    out->cc_minor = gpu->minor;
    out->hip = gpu->hip;
    str_copy(out->model_name, sizeof out->model_name, model->name);
    str_copy(out->architecture, sizeof out->architecture, model->architecture);
    out->dsa = model->dsa;
    out->kv_lora_rank = model->kv_lora_rank;
    out->qk_rope_head_dim = model->qk_rope_head_dim;
    out->num_hidden_layers = model->num_hidden_layers;
    out->num_nextn_predict_layers = model->num_nextn_predict_layers;
    out->index_head_dim = model->index_head_dim;
    out->nignored = set->nignored;
    memcpy(out->ignored, set->ignored, sizeof out->ignored);
    out->hisparse = set->s[SET_HISPARSE].set;

    kvc_status st = resolve_dtype(gpu, model, &set->s[SET_KV_CACHE_DTYPE], out, diag);
    if (!st) st = resolve_mode(&set->s[SET_DISAGG_MODE], out, diag);
    if (!st) st = resolve_page_size(gpu, model, &set->s[SET_PAGE_SIZE], out, diag);
    if (!st) st = resolve_speculative(model, &set->s[SET_SPEC_ALGO], out, diag);
    if (st) return st;
    describe_parallelism(set, out);
    if (gpu->major < 9 && !gpu->hip)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "%s (compute capability %u.%u) is older than Hopper: SGLang's MLA backends may "
                  "not run on it",
                  gpu->name, gpu->major, gpu->minor);

    if (!model->dsa) {
        for (int k = SET_PREFILL_BACKEND; k <= SET_DECODE_BACKEND; k++)
            if (set->s[k].set)
                notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                          "%s has no effect: %s is not a DSA model", set->s[k].flag, model->architecture);
        RETURN_ERROR_IF(out->hisparse, diag, KVC_ERR_CONFIG, &set->s[SET_HISPARSE].origin,
                        "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) "
                        "models (e.g., DeepSeek V3.2, GLM-5) (SGLang's check); %s is not one",
                        model->architecture);
        const char *name = NULL;
        for (size_t i = 0; i < COUNT_OF(DTYPES); i++)
            if (strcmp(DTYPES[i].canonical, out->kv_cache_dtype.value) == 0 && DTYPES[i].plain_layout)
                name = DTYPES[i].plain_layout;
        set_value(&out->row, name, "not a DSA model: rows are R + r = %u values of %s, with no "
                  "scales and no indexer", model->kv_lora_rank + model->qk_rope_head_dim,
                  out->kv_cache_dtype.value);
        return derive_layouts(model, out, diag);
    }

    if ((st = resolve_backends(gpu, set, out, diag))) return st;
    if ((st = check_hisparse(set, out, diag))) return st;
    warn_backends(gpu, out);
    char why[KVC_REASON_LEN];
    const char *mode = out->disaggregation_mode.value;
    const char *name = row_layout(out->kv_cache_dtype.value, out->dsa_prefill_backend.value,
                                  out->dsa_decode_backend.value, mode, gpu->hip, rules, why, sizeof why);
    set_value(&out->row, name, "%s", why);

    kvc_rules other = rules == KVC_RULES_ACTIVE_BACKEND ? KVC_RULES_EITHER_BACKEND : KVC_RULES_ACTIVE_BACKEND;
    char other_why[KVC_REASON_LEN];
    const char *other_name = row_layout(out->kv_cache_dtype.value, out->dsa_prefill_backend.value,
                                        out->dsa_decode_backend.value, mode, gpu->hip, other,
                                        other_why, sizeof other_why);
    if (strcmp(name, other_name) != 0) {
        out->rules_disagree = 1;
        str_copy(out->other_rule_layout, sizeof out->other_rule_layout, other_name);
        /* Both backends alike make the two rules agree on the selected layout. */
        const struct backend *p = find_backend(out->dsa_prefill_backend.value);
        const struct backend *d = find_backend(out->dsa_decode_backend.value);
        const struct backend *active = strcmp(mode, "prefill") == 0 ? p : d;
        const struct backend *raw = (gpu->hip ? p->fp8_raw_hip : p->fp8_raw_cuda) ? p : d;
        const char *safe = strcmp(name, "fp8_raw") == 0 ? raw->name : active->name;
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "the %s rule gives this worker %s, not %s: set --dsa-prefill-backend %s "
                  "--dsa-decode-backend %s to get %s under both rules",
                  kvc_rules_name(other), other_name, name, safe, safe, name);
    }
    return derive_layouts(model, out, diag);
}
