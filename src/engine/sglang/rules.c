/* SGLang's rules for the MLA KV layout of a worker (SGLANG_RULES.md §1-5).
 * Data tables plus small pure functions; a new backend or release is rows.
 * The result is a row of settings in display order (the engine interface's
 * kvc_resolved), the row decision and the layouts. */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

/* Rows of the tables below name the releases they hold for: a release
 * differs from another by rows that hold for one and not the other. */
#define REL_BIT(r) (1u << (r))
#define ALL ((1u << REL_COUNT) - 1u)
static int holds(unsigned mask, sglang_release r) { return (mask & REL_BIT(r)) != 0; }

/* §4: how each release decides a DSA worker's row width. */
typedef enum row_rule {
    ROW_ACTIVE_BACKEND, /* the backend of the worker's own mode decides; either one on a unified worker */
    ROW_EITHER_BACKEND  /* raw FP8 when either backend writes raw FP8 */
} row_rule;

static const struct release_row {
    row_rule row;
    const char *source; /* where the rule comes from */
} RELEASES[REL_COUNT] = {
    [REL_ACTIVE_BACKEND] = {ROW_ACTIVE_BACKEND, "the GLM-5.2 fix (SGLang main at 4560da58): calculate_mla_kv_cache_dim "
                                                "takes the pool layout from the active backend"},
    [REL_EITHER_BACKEND] = {ROW_EITHER_BACKEND, "SGLANG_RULES.md §4 (May 2026)"},
};

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
    unsigned holds; /* the releases the row holds for (REL_BIT) */
} BACKENDS[] = {
    {"flashmla_sparse", 0, 0, 0, 0, 1, SM90 | SM100, ALL},
    {"flashmla_kv", 0, 0, 0, 1, 0, SM90 | SM100, ALL},
    {"flashmla_auto", 0, 0, 0, 0, 0, SM90 | SM100, ALL},
    {"fa3", 0, 0, 0, 0, 0, SM90, ALL},
    {"tilelang", 0, 0, 1, 0, 0, HIP, ALL},
    {"aiter", 0, 0, 1, 0, 0, HIP, ALL}, /* raw on HIP: late 2026 */
    {"trtllm", 0, 1, 1, 0, 0, SM100, ALL},
    {"flashmla_sparse_q8", 1, 0, 0, 0, 0, SM90 | SM100, ALL},
    {"flashinfer_sparse_mla", 1, 0, 0, 1, 0, SM100, ALL},
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
    unsigned holds;
} DEFAULTS[] = {
    {1, 0, "fp8_e4m3", 0, 0, "flashmla_kv", "flashmla_kv", "with --enable-hisparse and fp8_e4m3", ALL},
    {1, 0, NULL, 0, 0, "flashmla_sparse", "flashmla_sparse", "with --enable-hisparse and bfloat16", ALL},
    {0, 1, NULL, 0, 0, "tilelang", "tilelang", "on ROCm/HIP with both DSA backends unset", ALL},
    {0, 0, "fp8_e4m3", 10, 1, "trtllm", "trtllm", "with fp8_e4m3", ALL},
    {0, 0, "fp8_e4m3", 0, 1, "flashmla_kv", "flashmla_kv", "with fp8_e4m3", ALL},
    {0, 0, "bfloat16", 10, 1, "flashmla_sparse", "trtllm", "with bfloat16", ALL},
    {0, 0, "bfloat16", 0, 1, "flashmla_sparse", "fa3", "with bfloat16", ALL},
};

/* §2: --kv-cache-dtype choices SGLang's parser accepts, with their layout
 * when rows are plain (one element type for NoPE and RoPE). */
static const struct dtype_row {
    const char *name;
    const char *canonical; /* SGLang's rename */
    const char *plain_layout;
    unsigned holds;
} DTYPES[] = {
    {"auto", "auto", NULL, ALL},
    {"bfloat16", "bfloat16", "bf16", ALL},
    {"bf16", "bfloat16", "bf16", ALL},
    {"float16", "float16", "fp16", ALL},
    {"float32", "float32", "fp32", ALL},
    {"fp8_e4m3", "fp8_e4m3", "fp8_raw", ALL},
    {"fp8_e5m2", "fp8_e5m2", "fp8_e5m2_raw", ALL},
    {"fp4_e2m1", "fp4_e2m1", NULL, ALL},
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

int rules_backend_suggestable(unsigned i, const gpu_info *gpu, sglang_release rel)
{
    /* Late-2026 backends have unconfirmed layouts: never suggest them. */
    return holds(BACKENDS[i].holds, rel) && !BACKENDS[i].late && (BACKENDS[i].suits & platform_of(gpu)) != 0;
}

/* The backend called `name` in release `rel`, or NULL. */
static const struct backend *find_backend(const char *name, sglang_release rel)
{
    for (size_t i = 0; i < COUNT_OF(BACKENDS); i++)
        if (holds(BACKENDS[i].holds, rel) && strcmp(BACKENDS[i].name, name) == 0) return &BACKENDS[i];
    return NULL;
}

/* "flashmla_sparse, flashmla_kv, ...": the choices release `rel` accepts. */
static void backend_choices(sglang_release rel, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < COUNT_OF(BACKENDS); i++)
        if (holds(BACKENDS[i].holds, rel))
            str_join_add(out, size, ", ", BACKENDS[i].name);
}

/* The setting called `name` of `r`, to fill in (resolve adds every setting first, in display order). */
static kvc_setting *get(kvc_resolved *r, const char *name)
{
    for (unsigned i = 0; i < r->nsettings; i++)
        if (strcmp(r->settings[i].name, name) == 0) return &r->settings[i];
    return NULL;
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
static kvc_status resolve_dtype(const gpu_info *gpu, const model_info *model, const setting *s, sglang_release rel,
                                kvc_resolved *out, kvc_diag *diag)
{
    const struct dtype_row *row = &DTYPES[0];
    if (s->set) {
        row = NULL;
        for (size_t i = 0; i < COUNT_OF(DTYPES); i++)
            if (holds(DTYPES[i].holds, rel) && strcmp(DTYPES[i].name, s->value) == 0 && strcmp(s->value, "float16") != 0 &&
                strcmp(s->value, "float32") != 0)
                row = &DTYPES[i];
        if (!row) return invalid_choice(s, "auto, fp8_e5m2, fp8_e4m3, bf16, bfloat16, fp4_e2m1", diag);
    }
    char from[900] = "default";
    if (s->set) from_text(s, from, sizeof from);
    kvc_setting *v = get(out, "kv_cache_dtype");
    if (strcmp(row->name, "auto") == 0) {
        if (model->dsa) {
            const char *d = gpu->major >= 10 ? "fp8_e4m3" : "bfloat16";
            setting_set(v, d, "auto: SGLang picks %s for DSA models on compute capability %u.%u (%s 10)",
                      d, gpu->major, gpu->minor, gpu->major >= 10 ? ">=" : "<");
            return KVC_OK;
        }
        const char *d = model->torch_dtype;
        RETURN_ERROR_IF(strcmp(d, "bfloat16") && strcmp(d, "float16") && strcmp(d, "float32"), diag,
                        KVC_ERR_CONFIG, &s->origin,
                        "the model's torch_dtype '%s' is not one kvcheck models for an auto KV "
                        "cache: pass --kv-cache-dtype",
                        d);
        setting_set(v, d, "auto: the model's dtype (torch_dtype %s)", d);
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
        setting_set(v, row->canonical, "%s is SGLang's alias of %s (%s)", row->name, row->canonical, from);
    else
        setting_set(v, row->canonical, "set by %s", from);
    return KVC_OK;
}

/* §3: a set backend is kept; an unset one gets the first matching default. */
static kvc_status resolve_backends(const gpu_info *gpu, const settings *set, sglang_release rel, kvc_resolved *out,
                                   kvc_diag *diag)
{
    const setting *side[2] = {&set->s[SET_PREFILL_BACKEND], &set->s[SET_DECODE_BACKEND]};
    kvc_setting *val[2] = {get(out, "dsa_prefill_backend"), get(out, "dsa_decode_backend")};
    static const char *const SIDE[2] = {"prefill", "decode"};
    const char *dtype = resolved_value(out, "kv_cache_dtype");
    int both_unset = !side[0]->set && !side[1]->set;
    for (int i = 0; i < 2; i++) {
        if (side[i]->set) {
            const struct backend *b = find_backend(side[i]->value, rel);
            if (!b) {
                char choices[400];
                backend_choices(rel, choices, sizeof choices);
                return invalid_choice(side[i], choices, diag);
            }
            char from[900];
            from_text(side[i], from, sizeof from);
            setting_set(val[i], b->name, "set by %s", from);
            continue;
        }
        for (size_t r = 0; r < COUNT_OF(DEFAULTS); r++) {
            const struct default_rule *d = &DEFAULTS[r];
            if (!holds(d->holds, rel)) continue;
            if (d->hisparse && !get(out, "enable_hisparse")->number) continue;
            if (d->hip_both_unset && !(gpu->hip && both_unset)) continue;
            if (d->dtype && strcmp(d->dtype, dtype) != 0) continue;
            if (gpu->major < d->min_major) continue;
            const char *name = i == 0 ? d->prefill : d->decode;
            if (d->names_cc)
                setting_set(val[i], name, "default for an unset %s backend %s on compute capability %u.%u",
                          SIDE[i], d->why, gpu->major, gpu->minor);
            else
                setting_set(val[i], name, "default for an unset %s backend %s", SIDE[i], d->why);
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
static kvc_status check_hisparse(const settings *set, sglang_release rel, kvc_resolved *out, kvc_diag *diag)
{
    if (!get(out, "enable_hisparse")->number) return KVC_OK;
    int fp8 = strcmp(resolved_value(out, "kv_cache_dtype"), "fp8_e4m3") == 0;
    const kvc_setting *val[2] = {get(out, "dsa_prefill_backend"), get(out, "dsa_decode_backend")};
    const setting *side[2] = {&set->s[SET_PREFILL_BACKEND], &set->s[SET_DECODE_BACKEND]};
    static const char *const SIDE[2] = {"prefill", "decode"};
    for (int i = 0; i < 2; i++) {
        const struct backend *b = find_backend(val[i]->value, rel);
        if (hisparse_allows(b, fp8)) continue;
        /* SGLang prints the allowed set as Python's sorted() list. */
        const char *names[COUNT_OF(BACKENDS)];
        size_t n = 0;
        for (size_t k = 0; k < COUNT_OF(BACKENDS); k++)
            if (holds(BACKENDS[k].holds, rel) && hisparse_allows(&BACKENDS[k], fp8)) names[n++] = BACKENDS[k].name;
        qsort(names, n, sizeof names[0], cmp_names);
        char allowed[200] = "", quoted[KVC_NAME_LEN + 2];
        for (size_t k = 0; k < n; k++) {
            str_printf(quoted, sizeof quoted, "'%s'", names[k]);
            str_join_add(allowed, sizeof allowed, ", ", quoted);
        }
        return diag_set(diag, KVC_ERR_CONFIG, side[i]->set ? &side[i]->origin : &set->s[SET_HISPARSE].origin,
                        "HiSparse with --kv-cache-dtype=%s requires --dsa-%s-backend in [%s], but "
                        "got %s.",
                        resolved_value(out, "kv_cache_dtype"), SIDE[i], allowed, b->name);
    }
    RETURN_ERROR_IF(!set->s[SET_DISABLE_RADIX].set, diag, KVC_ERR_CONFIG, &set->s[SET_HISPARSE].origin,
                    "Hierarchical sparse attention currently requires --disable-radix-cache. "
                    "(SGLang's check): add that flag");
    return KVC_OK;
}

/* §4: the row layout's name for a DSA worker, and why. Pure. */
static const char *row_layout(const char *dtype, const char *prefill, const char *decode,
                              const char *mode, int hip, sglang_release release, char *why, size_t size)
{
    if (strcmp(dtype, "bfloat16") == 0) {
        snprintf(why, size, "bfloat16 rows are always R + r bf16 values, whatever the backends");
        return "bf16";
    }
    int active = RELEASES[release].row == ROW_ACTIVE_BACKEND && strcmp(mode, "null") != 0;
    int decides_prefill = !active || strcmp(mode, "prefill") == 0;
    int decides_decode = !active || strcmp(mode, "decode") == 0;
    const char *rule_text = active ? (decides_prefill ? "active-backend rule: on a prefill worker the prefill backend decides"
                                                      : "active-backend rule: on a decode worker the decode backend decides")
                                   : RELEASES[release].row == ROW_ACTIVE_BACKEND
                                         ? "active-backend rule: on a unified worker either backend decides"
                                         : "either-backend rule: raw when either backend writes raw FP8";
    const struct backend *p = find_backend(prefill, release), *d = find_backend(decode, release);
    if (!p || !d) return NULL; /* the release has no such backend */
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
        setting_set(get(out, "page_size"), "64",
                  "forced to 64 for DSA on %s%s: \"Setting page size to 64 for DeepSeek DSA.\"",
                  gpu->hip ? "ROCm with aiter's paged-MQA path" : "CUDA", passed);
        if (gpu->hip)
            notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                      "on ROCm without aiter's preshuffle paged-MQA path (SGLANG_USE_AITER=0 or "
                      "Triton < 3.5) SGLang forces page size 1, not 64");
        return KVC_OK;
    }
    if (s->set) setting_set(get(out, "page_size"), s->value, "set by %s", from);
    else setting_set(get(out, "page_size"), "1", "SGLang's default page size");
    return KVC_OK;
}

static kvc_status resolve_mode(const setting *s, kvc_resolved *out, kvc_diag *diag)
{
    if (!s->set) {
        setting_set(get(out, "disaggregation_mode"), "null", "not set: a unified (non-PD) worker");
        return KVC_OK;
    }
    for (size_t i = 0; i < COUNT_OF(MODES); i++)
        if (strcmp(MODES[i], s->value) == 0) {
            char from[900];
            from_text(s, from, sizeof from);
            setting_set(get(out, "disaggregation_mode"), s->value, "set by %s", from);
            return KVC_OK;
        }
    return invalid_choice(s, "null, prefill, decode", diag);
}

static kvc_status resolve_speculative(const model_info *model, const setting *s, kvc_resolved *out,
                                      kvc_diag *diag)
{
    out->draft_entries = 0;
    if (!s->set) {
        setting_set(get(out, "speculative_algorithm"), "", "no speculative decoding: no draft entries");
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
        setting_set(get(out, "speculative_algorithm"), row->name,
                  "%s (MTP): the draft pool adds num_nextn_predict_layers = %u entries after the %u "
                  "target layers",
                  row->name, model->num_nextn_predict_layers, model->num_hidden_layers);
    } else if (strcmp(row->name, "NGRAM") == 0) {
        setting_set(get(out, "speculative_algorithm"), row->name, "NGRAM keeps no draft KV cache");
    } else {
        setting_set(get(out, "speculative_algorithm"), row->name, "%s drafts with a separate model", row->name);
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
    setting_set(get(out, "parallelism"), text,
              "does not change MLA bytes: the MLA cache is replicated across attention-TP ranks, "
              "and any prefill TP can feed any decode TP");
}

static void warn_backends(const gpu_info *gpu, sglang_release rel, kvc_resolved *out)
{
    const kvc_setting *val[2] = {get(out, "dsa_prefill_backend"), get(out, "dsa_decode_backend")};
    for (int i = 0; i < 2; i++) {
        const struct backend *b = find_backend(val[i]->value, rel);
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
                           (uint32_t)get(out, "page_size")->number};
    /* The layout's own diagnostic is read back to add the model, so it goes
     * to a local: the caller's may be NULL (the fix search passes NULL). */
    kvc_diag why;
    kvc_status st = layout_build(out->row.value, &p, &out->kv, &why);
    if (st) {
        kvc_origin o;
        origin_set(&o, why.file, why.line, why.column, why.where);
        return diag_set(diag, st, &o, "model %s with %s: %s (%s)", model->name, resolved_value(out, "kv_cache_dtype"),
                        why.message, out->row.reason);
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
    st = layout_build("dsa_indexer", &p, &out->indexer, diag);
    out->indexer_bytes_per_token_all = (uint64_t)out->indexer.bytes_per_token * out->kv_entries;
    return st;
}

/* The settings a worker shows, in display order, added before any is decided. */
static void add_settings(const model_info *model, kvc_resolved *out)
{
    const unsigned pair = KVC_SETTING_PAIR, decides = KVC_SETTING_DECIDES;
    resolved_add(out, "kv_cache_dtype", KVC_VALUE_TEXT, KVC_SETTING_COMPARED | KVC_SETTING_DTYPE | pair | decides);
    if (model->dsa) {
        resolved_add(out, "dsa_prefill_backend", KVC_VALUE_TEXT, pair | decides);
        resolved_add(out, "dsa_decode_backend", KVC_VALUE_TEXT, pair | decides);
    }
    resolved_add(out, "disaggregation_mode", KVC_VALUE_TEXT, pair);
    resolved_add(out, "page_size", KVC_VALUE_UINT, decides);
    resolved_add(out, "speculative_algorithm", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
    resolved_add(out, "enable_hisparse", KVC_VALUE_BOOL, KVC_SETTING_IF_SET);
    resolved_add(out, "parallelism", KVC_VALUE_TEXT, KVC_SETTING_IF_SET);
}

static void resolve_hisparse(const setting *s, kvc_resolved *out)
{
    char from[900] = "";
    if (s->set) from_text(s, from, sizeof from);
    if (s->set) setting_set(get(out, "enable_hisparse"), "true", "set by %s", from);
    else setting_set(get(out, "enable_hisparse"), "false", "%s", "");
}

/* When another release gives this worker another row, say so and how to
 * pin the backends so every release agrees. */
static void note_other_releases(const gpu_info *gpu, const char *name, sglang_release release, kvc_resolved *out)
{
    const char *dtype = resolved_value(out, "kv_cache_dtype"), *mode = resolved_value(out, "disaggregation_mode");
    const char *pb = resolved_value(out, "dsa_prefill_backend"), *db = resolved_value(out, "dsa_decode_backend");
    for (unsigned r = 0; r < REL_COUNT; r++) {
        if (r == release) continue;
        char why[KVC_REASON_LEN];
        const char *other = row_layout(dtype, pb, db, mode, gpu->hip, (sglang_release)r, why, sizeof why);
        if (!other || strcmp(name, other) == 0) continue;
        /* Both backends alike make the rules agree on the selected layout. */
        const struct backend *p = find_backend(pb, release), *d = find_backend(db, release);
        const struct backend *active = strcmp(mode, "prefill") == 0 ? p : d;
        const struct backend *raw = (gpu->hip ? p->fp8_raw_hip : p->fp8_raw_cuda) ? p : d;
        const char *safe = strcmp(name, "fp8_raw") == 0 ? raw->name : active->name;
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "the %s rule gives this worker %s, not %s: set --dsa-prefill-backend %s "
                  "--dsa-decode-backend %s to get %s under both rules",
                  SGLANG_RELEASES[r], other, name, safe, safe, name);
    }
}

kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const settings *set, sglang_release release,
                         kvc_resolved *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    str_copy(out->engine, sizeof out->engine, "sglang");
    str_copy(out->release, sizeof out->release, SGLANG_RELEASES[release]);
    str_copy(out->release_source, sizeof out->release_source, RELEASES[release].source);
    out->gpu = *gpu;
    out->model = *model;
    out->nignored = set->nignored;
    memcpy(out->ignored, set->ignored, sizeof out->ignored);
    /* what kvcheck read otherwise than written comes first */
    for (unsigned i = 0; i < set->nwarnings; i++)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s", set->warnings[i]);
    add_settings(model, out);
    str_copy(out->row.name, sizeof out->row.name, "row");
    resolve_hisparse(&set->s[SET_HISPARSE], out);
    int hisparse = set->s[SET_HISPARSE].set;

    kvc_status st = resolve_dtype(gpu, model, &set->s[SET_KV_CACHE_DTYPE], release, out, diag);
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
    const char *dtype = resolved_value(out, "kv_cache_dtype");

    if (!model->dsa) {
        for (int k = SET_PREFILL_BACKEND; k <= SET_DECODE_BACKEND; k++)
            if (set->s[k].set)
                notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                          "%s has no effect: %s is not a DSA model", set->s[k].flag, model->architecture);
        RETURN_ERROR_IF(hisparse, diag, KVC_ERR_CONFIG, &set->s[SET_HISPARSE].origin,
                        "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) "
                        "models (e.g., DeepSeek V3.2, GLM-5) (SGLang's check); %s is not one",
                        model->architecture);
        const char *name = NULL;
        for (size_t i = 0; i < COUNT_OF(DTYPES); i++)
            if (holds(DTYPES[i].holds, release) && strcmp(DTYPES[i].canonical, dtype) == 0 && DTYPES[i].plain_layout)
                name = DTYPES[i].plain_layout;
        setting_set(&out->row, name, "not a DSA model: rows are R + r = %u values of %s, with no "
                    "scales and no indexer", model->kv_lora_rank + model->qk_rope_head_dim, dtype);
        return derive_layouts(model, out, diag);
    }

    if ((st = resolve_backends(gpu, set, release, out, diag))) return st;
    if ((st = check_hisparse(set, release, out, diag))) return st;
    warn_backends(gpu, release, out);
    char why[KVC_REASON_LEN];
    const char *name = row_layout(dtype, resolved_value(out, "dsa_prefill_backend"),
                                  resolved_value(out, "dsa_decode_backend"), resolved_value(out, "disaggregation_mode"),
                                  gpu->hip, release, why, sizeof why);
    setting_set(&out->row, name, "%s", why);
    note_other_releases(gpu, name, release, out);
    return derive_layouts(model, out, diag);
}
