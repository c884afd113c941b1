/* Model dimensions from a Hugging Face config.json or a bundled preset. */
#include "target/target.h"
#include "format/format.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

/* Generated at build time from fixtures/models/ (cmake/EmbedPresets.cmake). */
struct kvc_preset {
    const char *name;
    const char *json;
    size_t len;
};
extern const struct kvc_preset kvc_presets[];
extern const size_t kvc_npresets;

static const struct kvc_preset *find_preset(const char *name)
{
    for (size_t i = 0; i < kvc_npresets; i++)
        if (str_ieq(kvc_presets[i].name, name)) return &kvc_presets[i];
    return NULL;
}

int model_is_preset(const char *name) { return find_preset(name) != NULL; }

void model_preset_list(char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < kvc_npresets; i++) str_join_add(out, size, ", ", kvc_presets[i].name);
}

/* Copies a name from a config file, refused with the limit when it does not fit. */
static kvc_status copy_name(char *dst, size_t size, const char *src, const kvc_origin *origin, const char *file,
                            const char *what, kvc_diag *diag)
{
    size_t n = strlen(src);
    RETURN_ERROR_IF(n >= size, diag, KVC_ERR_CONFIG, origin,
                    "%s: %s '%.40s...' is %zu bytes long: kvcheck takes names of up to %zu bytes", file, what, src, n,
                    size - 1);
    memcpy(dst, src, n + 1);
    return KVC_OK;
}

/* Optional integer: absent or null keeps the default. */
static kvc_status get_opt(const cJSON *root, const char *text, const char *file, const char *key,
                          uint32_t lo, uint32_t hi, uint32_t *out, kvc_diag *diag)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!item || cJSON_IsNull(item)) return KVC_OK;
    return json_get_uint(item, text, file, key, lo, hi, out, diag);
}

/* A plain string for a Python repr: letters and digits only, and short enough. Pure. */
static int plain_word(const char *v)
{
    size_t n = 0;
    for (; v[n]; n++)
        if (!((v[n] >= 'a' && v[n] <= 'z') || (v[n] >= 'A' && v[n] <= 'Z') || (v[n] >= '0' && v[n] <= '9'))) return 0;
    return n <= KVC_TOPK_LAYERS;
}

/* The DSA top-k sharing fields (model_info): the integers as SGLang's asserts bound them are checked by its rules. */
static kvc_status parse_topk_sharing(const cJSON *root, const char *text, const char *file, model_info *out,
                                     kvc_diag *diag)
{
    const cJSON *freq = cJSON_GetObjectItemCaseSensitive(root, "index_topk_freq");
    out->topk_freq_null = freq && cJSON_IsNull(freq);
    /* SGLang asserts each is positive where it reads it (sglang 0.5.23: python/sglang/srt/configs/
     * model_config.py:488-522) */
    kvc_status st = get_opt(root, text, file, "index_topk_freq", 1, 1u << 20, &out->topk_freq, diag);
    if (!st) st = get_opt(root, text, file, "index_skip_topk_offset", 1, 1u << 20, &out->topk_offset, diag);
    if (!st) st = get_opt(root, text, file, "cli_factor", 1, 1u << 20, &out->cli_factor, diag);
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(root, "index_topk_pattern");
    if (pattern && !cJSON_IsNull(pattern)) {
        int plain = cJSON_IsString(pattern) && plain_word(pattern->valuestring);
        out->topk_pattern_kind = plain ? TOPK_PLAIN : TOPK_OTHER;
        if (plain) str_copy(out->topk_pattern, sizeof out->topk_pattern, pattern->valuestring);
    }
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "indexer_types");
    if (types && !cJSON_IsNull(types)) {
        out->topk_types_kind = cJSON_IsArray(types) && cJSON_GetArraySize(types) <= KVC_TOPK_LAYERS ? TOPK_PLAIN
                                                                                                     : TOPK_OTHER;
        size_t n = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, types) {
            if (out->topk_types_kind != TOPK_PLAIN) break;
            if (!cJSON_IsString(t) || !plain_word(t->valuestring)) out->topk_types_kind = TOPK_OTHER;
            else out->topk_types[n++] = !strcmp(t->valuestring, "shared") ? 'S' : !strcmp(t->valuestring, "full") ? 'F'
                                                                                                            : 'X';
        }
        out->topk_types[n] = '\0';
    }
    return st;
}

/* Optional boolean: absent or null keeps the default (false). */
static kvc_status get_opt_bool(const cJSON *root, const char *text, const char *file, const char *key, int *out,
                               kvc_diag *diag)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!item || cJSON_IsNull(item)) return KVC_OK;
    kvc_origin o;
    origin_set(&o, file, 0, 0, key);
    json_locate_key(text, key, 0, &o.line, &o.column);
    if (!cJSON_IsBool(item)) return diag_set(diag, KVC_ERR_CONFIG, &o, "\"%s\" must be true or false", key);
    *out = cJSON_IsTrue(item);
    return KVC_OK;
}

/* Optional name (`item` absent or null keeps `dst`), such as "torch_dtype": a string that fits. */
static kvc_status get_opt_name(const cJSON *item, const char *text, const char *file, char *dst, size_t size,
                               const char *example, kvc_diag *diag)
{
    if (!item || cJSON_IsNull(item)) return KVC_OK;
    kvc_origin o;
    origin_set(&o, file, 0, 0, item->string);
    json_locate_key(text, item->string, 0, &o.line, &o.column);
    if (!cJSON_IsString(item))
        return diag_set(diag, KVC_ERR_CONFIG, &o, "\"%s\" must be a string such as \"%s\"", item->string, example);
    return copy_name(dst, size, item->valuestring, &o, file, item->string, diag);
}

/* The key of a quantization config (or of its "quantization" section, as
 * ModelOpt writes it) that asks for a KV dtype, with its value where a
 * string ("kv_cache_quant_algo FP8"); null ones ask for none. */
static void kv_quant_of(const cJSON *quant, char *out, size_t size)
{
    static const char *const KEYS[] = {"kv_cache_quant_algo", "kv_cache_scheme"};
    const cJSON *sections[] = {quant, cJSON_GetObjectItemCaseSensitive(quant, "quantization")};
    out[0] = '\0';
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; cJSON_IsObject(sections[s]) && k < 2; k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(sections[s], KEYS[k]);
            if (!v || cJSON_IsNull(v)) continue;
            snprintf(out, size, "%s%s%.40s", KEYS[k], cJSON_IsString(v) ? " " : "",
                     cJSON_IsString(v) ? v->valuestring : "");
            return;
        }
}

/* The name of the Python type json.loads gives `v` ("NoneType", "bool",
 * "int", "float", "str", "list", "dict"); "" for no value. A number is
 * "int" where integral: cJSON keeps no spelling, so 16.0 reads as "int". */
static const char *py_type(const cJSON *v)
{
    if (!v) return "";
    if (cJSON_IsNull(v)) return "NoneType";
    if (cJSON_IsBool(v)) return "bool";
    if (cJSON_IsString(v)) return "str";
    if (cJSON_IsArray(v)) return "list";
    if (cJSON_IsObject(v)) return "dict";
    return fabs(v->valuedouble) < 9e15 && v->valuedouble == floor(v->valuedouble) ? "int" : "float";
}

/* Python's truth value of `v`, where present. Pure. */
static int py_truthy(const cJSON *v)
{
    if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v)) return 0;
    if (cJSON_IsString(v)) return v->valuestring[0] != '\0';
    if (cJSON_IsNumber(v)) return v->valuedouble != 0;
    return v->child != NULL || cJSON_IsTrue(v);
}

/* Adds `v`, where a JSON integer, to the distinct sizes `sizes` (up to 8
 * kept); a boolean, which Python also counts, makes them `odd`. Pure. */
static void group_size_add(const cJSON *v, long sizes[8], int *n, int *odd)
{
    if (cJSON_IsBool(v)) *odd = 1;
    if (strcmp(py_type(v), "int") != 0) return;
    for (int i = 0; i < *n; i++)
        if (sizes[i] == (long)v->valuedouble) return;
    if (*n < 8) sizes[(*n)++] = (long)v->valuedouble;
}

static int long_cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* 1 when `text` writes a "group_size" as a JSON number with a fraction or
 * an exponent (16.0), which Python loads as a float and cJSON as the
 * integer it equals. Pure. */
static int float_group_size(const char *text)
{
    static const char KEY[] = "\"group_size\"";
    for (const char *p = text ? strstr(text, KEY) : NULL; p; p = strstr(p + 1, KEY)) {
        const char *v = p + sizeof KEY - 1;
        while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' || *v == ':') v++;
        size_t n = strspn(v, "+-0123456789.eE");
        if (n && (memchr(v, '.', n) || memchr(v, 'e', n) || memchr(v, 'E', n))) return 1;
    }
    return 0;
}

/* The group sizes of `quant` as ModelOptFp4Config.common_group_size
 * collects them (sglang 0.5.3rc2: python/sglang/srt/layers/quantization/
 * modelopt_quant.py:547-577): the integers under "group_size" of the
 * config and of its "quantization" dict, of each "config_groups" entry
 * and of the entry's dict values. They are odd where kvcheck cannot count
 * as Python does: a boolean (an integer to Python), a float-written size
 * anywhere in `text`, "config_groups" that Python takes as true but is no
 * object (its .values() fails). */
static void group_sizes_of(const cJSON *quant, const char *text, model_info *out)
{
    long sizes[8];
    int n = 0, odd = float_group_size(text);
    group_size_add(cJSON_GetObjectItemCaseSensitive(quant, "group_size"), sizes, &n, &odd);
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(quant, "quantization");
    if (cJSON_IsObject(q)) group_size_add(cJSON_GetObjectItemCaseSensitive(q, "group_size"), sizes, &n, &odd);
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(quant, "config_groups");
    if (!cJSON_IsObject(groups) && py_truthy(groups)) odd = 1;
    for (const cJSON *g = cJSON_IsObject(groups) ? groups->child : NULL; g; g = g->next) {
        if (!cJSON_IsObject(g)) continue;
        group_size_add(cJSON_GetObjectItemCaseSensitive(g, "group_size"), sizes, &n, &odd);
        for (const cJSON *sub = g->child; sub; sub = sub->next)
            if (cJSON_IsObject(sub))
                group_size_add(cJSON_GetObjectItemCaseSensitive(sub, "group_size"), sizes, &n, &odd);
    }
    qsort(sizes, (size_t)n, sizeof sizes[0], long_cmp);
    out->quant_group_sizes = n < 2 ? n : 2;
    out->quant_group_odd = odd;
    size_t len = 0;
    out->quant_group_list[len++] = '[';
    for (int i = 0; i < n && len < sizeof out->quant_group_list - 24; i++)
        len += (size_t)snprintf(out->quant_group_list + len, sizeof out->quant_group_list - len, "%s%ld",
                                i ? ", " : "", sizes[i]);
    snprintf(out->quant_group_list + len, sizeof out->quant_group_list - len, "]");
}

/* A quantization config's "quant_algo" `algo`: its text ("" where absent,
 * null or empty, "?" where no string) and its Python type. */
static void quant_algo_of(const cJSON *algo, model_info *out)
{
    str_copy(out->quant_algo, sizeof out->quant_algo,
             !algo || cJSON_IsNull(algo) ? "" : cJSON_IsString(algo) ? algo->valuestring : "?");
    str_copy(out->quant_algo_type, sizeof out->quant_algo_type, py_type(algo));
}


/* What the engine reads of a quantization config beyond its KV dtype: the
 * method it names ("quant_method" as written; "" where it names none, when
 * SGLang takes --quantization, or from 0.5.9 parses it as a ModelOpt
 * config: sglang 0.5.23: python/sglang/srt/configs/model_config.py:
 * 1733-1742), and the fields an FP8 config class checks. */
static void quant_fields_of(const cJSON *quant, const char *text, model_info *out)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(quant, "quant_method");
    str_copy(out->quant_method, sizeof out->quant_method, cJSON_IsString(m) ? m->valuestring : "");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(quant, "activation_scheme");
    str_copy(out->quant_activation, sizeof out->quant_activation,
             !a ? "" : cJSON_IsNull(a) ? "None" : cJSON_IsString(a) ? a->valuestring : "?");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(quant, "weight_block_size");
    out->quant_block_dims = !b || cJSON_IsNull(b) ? -1 : cJSON_IsArray(b) ? cJSON_GetArraySize(b) : 0;
    quant_algo_of(cJSON_GetObjectItemCaseSensitive(quant, "quant_algo"), out);
    out->quant_section = cJSON_HasObjectItem(quant, "quantization");
    const cJSON *scheme = cJSON_GetObjectItemCaseSensitive(quant, "kv_cache_scheme");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(scheme, "type");
    const cJSON *bits = cJSON_GetObjectItemCaseSensitive(scheme, "num_bits");
    out->kv_scheme = !scheme || cJSON_IsNull(scheme) ? MODEL_KV_SCHEME_NONE
                     : cJSON_IsString(scheme)        ? MODEL_KV_SCHEME_STRING
                     : !cJSON_IsObject(scheme)       ? MODEL_KV_SCHEME_OTHER
                     : cJSON_IsString(type) && strcmp(type->valuestring, "float") == 0 && cJSON_IsNumber(bits) &&
                               bits->valuedouble == 8
                         ? MODEL_KV_SCHEME_FLOAT8
                         : MODEL_KV_SCHEME_DICT;
    if (cJSON_IsString(scheme)) str_copy(out->kv_scheme_name, sizeof out->kv_scheme_name, scheme->valuestring);
    if (scheme && !cJSON_IsNull(scheme) && !cJSON_IsObject(scheme)) {
        str_copy(out->kv_scheme_type, sizeof out->kv_scheme_type, py_type(scheme));
        out->kv_scheme_truthy = py_truthy(scheme);
    }
    out->kv_quant_algo_truthy = py_truthy(cJSON_GetObjectItemCaseSensitive(quant, "kv_cache_quant_algo"));
    /* ModelOptFp4Config.from_config: "group_size", else the first config group's weights'; "ignore" (sglang 0.5.4:
     * python/sglang/srt/layers/quantization/modelopt_quant.py:646-656) */
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(quant, "group_size");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(quant, "config_groups");
    if ((!g || cJSON_IsNull(g)) && cJSON_IsObject(groups) && groups->child)
        g = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(groups->child, "weights"), "group_size");
    out->quant_no_group_size = !g || cJSON_IsNull(g);
    out->quant_no_exclude = cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(quant, "ignore"));
    /* 0.5.23 falls back from "ignore" to "modules_to_not_convert", then "exclude_modules" (sglang 0.5.23:
     * python/sglang/srt/layers/quantization/modelopt_quant.py:1653-1656) */
    const char *const chain[] = {"ignore", "modules_to_not_convert", "exclude_modules"};
    const cJSON *first = NULL;
    for (size_t i = 0; !first && i < COUNT_OF(chain); i++) first = cJSON_GetObjectItemCaseSensitive(quant, chain[i]);
    out->quant_no_exclude_chain = cJSON_IsNull(first);
    group_sizes_of(quant, text, out);
}

/* The key of a multimodal config's text config that holds MLA fields
 * ("text_config", "llm_config", "language_config", "thinker_config": the
 * sub-configs SGLang's get_hf_text_config reads; sglang 0.5.9: python/
 * sglang/srt/utils/hf_transformers_utils.py:132-170; 0.5.23: python/
 * sglang/srt/utils/hf_transformers/common.py:547-613), or NULL. */
static const char *nested_text_config(const cJSON *root)
{
    static const char *const KEYS[] = {"text_config", "llm_config", "language_config", "thinker_config"};
    for (size_t i = 0; i < COUNT_OF(KEYS); i++) {
        const cJSON *sub = cJSON_GetObjectItemCaseSensitive(root, KEYS[i]);
        const cJSON *rank = cJSON_GetObjectItemCaseSensitive(sub, "kv_lora_rank");
        if (cJSON_IsObject(sub) && rank && !cJSON_IsNull(rank)) return KEYS[i];
    }
    return NULL;
}

/* A config error at top-level key `key`. */
static kvc_status key_error(const char *text, const char *file, const char *key, kvc_diag *diag, const char *what)
{
    kvc_origin o;
    origin_set(&o, file, 0, 0, key);
    json_locate_key(text, key, 0, &o.line, &o.column);
    return diag_set(diag, KVC_ERR_CONFIG, &o, "%s: \"%s\" %s", file, key, what);
}

/* The linear-attention layers a hybrid config lists: "linear_attn_config"
 * (its "kda_layers" and sizes), else "layer_types" (entries
 * "linear_attention"), each counted once among layers 0..N-1, as Python's
 * `i in list` over range(N) counts them. */
static kvc_status parse_linear(const cJSON *root, const char *text, const char *file, model_info *out, kvc_diag *diag)
{
    uint8_t seen[4096] = {0}; /* num_hidden_layers <= 4096 */
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "linear_attn_config");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "layer_types");
    const cJSON *list = NULL;
    if (cfg && !cJSON_IsNull(cfg)) {
        if (!cJSON_IsObject(cfg))
            return key_error(text, file, "linear_attn_config", diag, "must be an object with \"kda_layers\"");
        list = cJSON_GetObjectItemCaseSensitive(cfg, "kda_layers");
        if (!cJSON_IsArray(list))
            return key_error(text, file, "linear_attn_config", diag,
                             "has no \"kda_layers\" list of layer ids: SGLang reads the linear layers from it");
        const char *const key[] = {"num_heads", "head_dim", "short_conv_kernel_size"};
        uint32_t *const dst[] = {&out->linear_heads, &out->linear_head_dim, &out->linear_conv_kernel};
        for (size_t i = 0; i < COUNT_OF(key); i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(cfg, key[i]);
            if (!v) {
                char what[160];
                str_printf(what, sizeof what, "has no \"%s\": SGLang sizes the linear layers' state from it",
                           key[i]);
                return key_error(text, file, "linear_attn_config", diag, what);
            }
            RETURN_IF_ERROR(json_get_uint(v, text, file, key[i], 1, 65536, dst[i], diag));
        }
        out->linear_split = MODEL_LINEAR_CONFIG;
    } else if (types && !cJSON_IsNull(types)) {
        if (!cJSON_IsArray(types)) return key_error(text, file, "layer_types", diag, "must be a list of strings");
        list = types;
        out->linear_split = MODEL_LINEAR_LAYER_TYPES;
    }
    uint32_t i = 0;
    for (const cJSON *e = list ? list->child : NULL; e; e = e->next, i++) {
        double id = i;
        if (out->linear_split == MODEL_LINEAR_LAYER_TYPES && !cJSON_IsString(e))
            return key_error(text, file, "layer_types", diag, "must be a list of strings");
        if (out->linear_split == MODEL_LINEAR_LAYER_TYPES && strcmp(e->valuestring, "linear_attention") != 0) continue;
        if (out->linear_split == MODEL_LINEAR_CONFIG) /* anything but a layer id matches no layer, in Python too */
            id = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(id >= 0 && id < out->num_hidden_layers) || id != (double)(uint32_t)id || seen[(size_t)id]) continue;
        seen[(size_t)id] = 1;
        out->linear_layers++;
    }
    if (out->linear_split == MODEL_LINEAR_CONFIG) return KVC_OK;
    RETURN_IF_ERROR(get_opt(root, text, file, "linear_num_heads", 1, 65536, &out->linear_heads, diag));
    RETURN_IF_ERROR(get_opt(root, text, file, "linear_head_dim", 1, 65536, &out->linear_head_dim, diag));
    return get_opt(root, text, file, "linear_conv_kernel_dim", 1, 65536, &out->linear_conv_kernel, diag);
}

/* DeepSeek-V4's "compress_ratios": a list of layer ratios, counted by value;
 * which ratios an engine builds pools for is the engine's. */
static kvc_status parse_compress_ratios(const cJSON *root, const char *text, const char *file, model_info *out,
                                        kvc_diag *diag)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "compress_ratios");
    if (!list || cJSON_IsNull(list)) return KVC_OK;
    if (!cJSON_IsArray(list)) return key_error(text, file, "compress_ratios", diag, "must be a list of integers");
    out->has_compress_ratios = 1;
    for (const cJSON *e = list->child; e; e = e->next) {
        uint32_t v = 0;
        RETURN_IF_ERROR(json_get_uint(e, text, file, "compress_ratios", 0, 1u << 20, &v, diag));
        out->compress_ratios_len++;
        if (v == 0) out->compress_none++;
        else if (v == 4) out->compress_4++;
        else if (v == 128) out->compress_128++;
        else out->compress_other++;
    }
    return KVC_OK;
}

kvc_status model_parse(const char *text, size_t len, const char *file, const char *name,
                       model_info *out, kvc_diag *diag)
{
    return model_parse_inline(text, len, text, file, name, out, diag);
}

/* SGLang's KV-head keys, first found wins (sglang 0.5.3rc2: python/sglang/srt/configs/model_config.py:396-457;
 * none: num_attention_heads). */
static const char *const KV_HEAD_KEYS[] = {"n_head_kv", "num_kv_heads", "num_key_value_heads", "multi_query_group_num",
                                           "num_attention_groups"};

static kvc_status parse_config(const char *parse_text, size_t len, const char *text, const char *file,
                               const char *name, int mha_ok, model_info *out, kvc_diag *diag);

kvc_status model_parse_inline(const char *parse_text, size_t len, const char *text, const char *file,
                              const char *name, model_info *out, kvc_diag *diag)
{
    return parse_config(parse_text, len, text, file, name, 0, out, diag);
}

static kvc_status parse_config(const char *parse_text, size_t len, const char *text, const char *file,
                               const char *name, int mha_ok, model_info *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    kvc_origin o;
    origin_set(&o, file, 0, 0, "");
    kvc_status st = copy_name(out->name, sizeof out->name, name, &o, file, "the model name", diag);
    if (st) return st;
    cJSON *root = NULL;
    st = json_parse(parse_text, len, file, &root, diag);
    if (st) return st;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return diag_set(diag, KVC_ERR_CONFIG, &o, "%s: a model config must be a JSON object", file);
    }

    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "architectures");
    origin_set(&o, file, 0, 0, "architectures");
    json_locate_key(text, "architectures", 0, &o.line, &o.column);
    if (!cJSON_IsArray(arch) || !cJSON_IsString(cJSON_GetArrayItem(arch, 0))) {
        cJSON_Delete(root);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "%s: \"architectures\" must be a list of strings, e.g. "
                        "[\"GlmMoeDsaForCausalLM\"]",
                        file);
    }
    st = copy_name(out->architecture, sizeof out->architecture, cJSON_GetArrayItem(arch, 0)->valuestring, &o, file,
                   "\"architectures\"[0]", diag);
    out->narchitectures = (unsigned)cJSON_GetArraySize(arch);
    if (st) {
        cJSON_Delete(root);
        return st;
    }

    const cJSON *rank = cJSON_GetObjectItemCaseSensitive(root, "kv_lora_rank");
    int mha = mha_ok && (!rank || cJSON_IsNull(rank));
    const char *nested = !mha && (!rank || cJSON_IsNull(rank)) ? nested_text_config(root) : NULL;
    if (nested) {
        origin_set(&o, file, 0, 0, nested);
        json_locate_key(text, nested, 0, &o.line, &o.column);
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s keeps its MLA fields (\"kv_lora_rank\", ...) under \"%s\", a multimodal model's text "
                      "config, which SGLang reads as the model's (get_hf_text_config); kvcheck does not read nested "
                      "configs yet, so it cannot judge this worker",
                      out->architecture, nested);
        cJSON_Delete(root);
        return st;
    }
    if (!mha && (!rank || cJSON_IsNull(rank))) {
        origin_set(&o, file, 0, 0, "kv_lora_rank");
        cJSON_Delete(root);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "%s: no \"kv_lora_rank\": %s is not an MLA model, and kvcheck derives MLA "
                        "KV-cache layouts only",
                        file, out->architecture);
    }
    if (!mha) st = json_get_uint(rank, text, file, "kv_lora_rank", 1, 65536, &out->kv_lora_rank, diag);
    if (!st && !mha) {
        const cJSON *rope = cJSON_GetObjectItemCaseSensitive(root, "qk_rope_head_dim");
        /* qk_rope_head_dim may be 0 (FORMATS.md: GLM-5.3-Flash). */
        st = rope ? json_get_uint(rope, text, file, "qk_rope_head_dim", 0, 65536,
                                  &out->qk_rope_head_dim, diag)
                  : diag_set(diag, KVC_ERR_CONFIG, &o, "%s: \"qk_rope_head_dim\" is missing", file);
    }
    if (!st) {
        const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "num_hidden_layers");
        st = layers ? json_get_uint(layers, text, file, "num_hidden_layers", 1, 4096,
                                    &out->num_hidden_layers, diag)
                    : diag_set(diag, KVC_ERR_CONFIG, &o, "%s: \"num_hidden_layers\" is missing", file);
    }
    if (!st)
        st = get_opt(root, text, file, "num_nextn_predict_layers", 0, 64,
                     &out->num_nextn_predict_layers, diag);
    if (!st) st = get_opt(root, text, file, "index_head_dim", 1, 65536, &out->index_head_dim, diag);
    uint32_t topk = 0;
    const cJSON *topk_item = cJSON_GetObjectItemCaseSensitive(root, "index_topk");
    int has_topk = topk_item && !cJSON_IsNull(topk_item);
    if (!st) st = get_opt(root, text, file, "index_topk", 1, 1u << 24, &topk, diag);
    /* transformers keeps "dtype" where both are given (4.57.1: configuration_utils.py:264-268) */
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(root, "dtype");
    if (!dtype || cJSON_IsNull(dtype)) dtype = cJSON_GetObjectItemCaseSensitive(root, "torch_dtype");
    if (!st) st = get_opt_name(dtype, text, file, out->torch_dtype, sizeof out->torch_dtype, "bfloat16", diag);
    if (!st)
        st = get_opt_name(cJSON_GetObjectItemCaseSensitive(root, "model_type"), text, file, out->model_type,
                          sizeof out->model_type, "deepseek_v4", diag);
    /* Whether the architecture is DSA depends on the engine release: its rules decide. */
    out->index_topk = has_topk ? (topk ? topk : 1) : 0;
    if (!st) st = get_opt(root, text, file, "index_kpool", 1, 1024, &out->index_kpool, diag);
    if (!st) st = get_opt(root, text, file, "hidden_size", 1, 1u << 20, &out->hidden_size, diag);
    if (!st) st = get_opt(root, text, file, "num_attention_heads", 1, 65536, &out->num_attention_heads, diag);
    if (!st) st = get_opt(root, text, file, "head_dim", 1, 65536, &out->head_dim, diag);
    if (!st) st = get_opt(root, text, file, "v_head_dim", 1, 65536, &out->v_head_dim, diag);
    for (size_t i = 0; !st && !out->num_kv_heads && i < sizeof KV_HEAD_KEYS / sizeof KV_HEAD_KEYS[0]; i++)
        st = get_opt(root, text, file, KV_HEAD_KEYS[i], 1, 65536, &out->num_kv_heads, diag);
    /* SGLang reads "compression_config" (compressed-tensors) where there is no "quantization_config" (sglang
     * 0.5.3rc2: python/sglang/srt/configs/model_config.py:472-516; 0.5.23: :1727-1745) */
    const cJSON *quant = cJSON_GetObjectItemCaseSensitive(root, "quantization_config");
    if (!quant || cJSON_IsNull(quant)) quant = cJSON_GetObjectItemCaseSensitive(root, "compression_config");
    out->has_quantization = quant && !cJSON_IsNull(quant);
    kv_quant_of(quant, out->kv_quant, sizeof out->kv_quant);
    out->quant_block_dims = -1;
    if (out->has_quantization) quant_fields_of(quant, text, out);
    const cJSON *algo = cJSON_GetObjectItemCaseSensitive(quant, "kv_cache_quant_algo");
    if (cJSON_IsString(algo)) str_copy(out->kv_quant_algo, sizeof out->kv_quant_algo, algo->valuestring);
    if (!st) st = get_opt_bool(root, text, file, "learnable_sink", &out->learnable_sink, diag);
    static const char *const MOE_KEYS[] = {"num_experts_per_tok", "num_experts_per_token", "top_k_experts",
                                           "moe_top_k", "moe_topk"}; /* model_info.moe_topk_keys' bits */
    for (unsigned i = 0; i < sizeof MOE_KEYS / sizeof MOE_KEYS[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(root, MOE_KEYS[i])) out->moe_topk_keys |= 1u << i;
    if (!st) st = get_opt_bool(root, text, file, "index_kpool_compress", &out->index_kpool_compress, diag);
    if (!st) st = parse_topk_sharing(root, text, file, out, diag);
    if (!st && out->index_topk && !out->index_head_dim) {
        origin_set(&o, file, 0, 0, "index_head_dim");
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: a DSA model (index_topk is set) needs \"index_head_dim\"", file);
    }
    if (!st) st = parse_linear(root, text, file, out, diag);
    if (!st) st = parse_compress_ratios(root, text, file, out, diag);
    cJSON_Delete(root);
    return st;
}

/* A ModelOpt checkpoint's hf_quant_config.json beside a config.json with no
 * quantization config, which SGLang reads for it then (sglang 0.5.23:
 * python/sglang/srt/configs/model_config.py:1746-1820;
 * python/sglang/srt/model_loader/weight_utils.py:281-311): the KV dtype it
 * asks for into out->kv_quant, "hf_quant_config.json" alone where it cannot
 * be read. */
static void hf_quant_file(const char *dir, model_info *out)
{
    char path[KVC_PATH_LEN + 32], *text = NULL, found[KVC_NAME_LEN];
    size_t len = 0;
    kvc_diag ignored;
    str_printf(path, sizeof path, "%s/hf_quant_config.json", dir);
    struct stat info;
    if (stat(path, &info) != 0) return;
    cJSON *root = file_read_all(path, &text, &len, &ignored) ? NULL : cJSON_ParseWithLength(text, len);
    free(text);
    kv_quant_of(root, found, sizeof found);
    if (!root || found[0])
        str_printf(out->kv_quant, sizeof out->kv_quant, "hf_quant_config.json%s%s", found[0] ? ": " : " (unreadable)",
                   found);
    str_copy(out->quant_method, sizeof out->quant_method, "modelopt"); /* SGLang parses it as ModelOpt's */
    /* what the config classes read of its "quantization" section (sglang 0.5.23: python/sglang/srt/layers/
     * quantization/modelopt_quant.py:494-500, :1562-1580, :1660-1666) */
    out->quant_file = 1;
    const cJSON *section = cJSON_GetObjectItemCaseSensitive(root, "quantization");
    quant_algo_of(cJSON_GetObjectItemCaseSensitive(section, "quant_algo"), out);
    out->quant_no_group_size = !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(section, "group_size"));
    out->quant_no_exclude = cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(section, "exclude_modules"));
    out->quant_producer =
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "producer"), "name"));
    cJSON_Delete(root);
}

/* Reads a config.json (or any JSON file holding a model config). */
static kvc_status model_load_file(const char *cfg, int mha_ok, model_info *out, kvc_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    kvc_status rc = file_read_all(cfg, &text, &len, diag);
    if (rc) return rc;
    /* Name the model after its directory, as Hugging Face does. */
    char name[KVC_PATH_LEN];
    char dir[KVC_PATH_LEN];
    path_dirname(cfg, dir, sizeof dir);
    const char *base = strrchr(dir, '/');
    str_copy(name, sizeof name, strcmp(dir, ".") == 0 ? cfg : base ? base + 1 : dir);
    const char *slash = strrchr(cfg, '/');
    if (slash && strcmp(slash + 1, "config.json") != 0) str_copy(name, sizeof name, slash + 1);
    char *dot = strrchr(name, '.');
    if (dot && strcmp(dot, ".json") == 0) *dot = '\0';
    rc = parse_config(text, len, text, cfg, name, mha_ok, out, diag);
    free(text);
    /* read where config.json has neither quantization config (the same lines) */
    if (!rc && !out->has_quantization && strcmp(slash ? slash + 1 : cfg, "config.json") == 0) hf_quant_file(dir, out);
    return rc;
}

static kvc_status model_find(const char *ref, const char *revision, const kvc_origin *origin, const char *base_dir,
                             const char *label, const char *what, int mha_ok, model_info *out, kvc_diag *diag);

/* A bundled config: it stands for checkpoints quantized in different ways (its kvcheck_checkpoints), so how the
 * checkpoint is quantized is not known. */
static kvc_status preset_parse(const struct kvc_preset *preset, model_info *out, kvc_diag *diag)
{
    char file[160];
    str_printf(file, sizeof file, "preset %s", preset->name);
    kvc_status rc = model_parse(preset->json, preset->len, file, preset->name, out, diag);
    out->quant_unknown = 1;
    return rc;
}

kvc_status model_load(const char *ref, const char *base_dir, model_info *out, kvc_diag *diag)
{
    const struct kvc_preset *preset = find_preset(ref);
    if (preset) return preset_parse(preset, out, diag);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    return model_find(ref, NULL, &o, base_dir, "", "model", 0, out, diag);
}

kvc_status kvc_model_layout_params(const char *model, kvc_layout_params *out, kvc_diag *diag)
{
    model_info m;
    kvc_status st = model_load(model, ".", &m, diag);
    if (st) return st;
    out->kv_lora_rank = m.kv_lora_rank;
    out->qk_rope_head_dim = m.qk_rope_head_dim;
    out->index_head_dim = m.index_head_dim ? m.index_head_dim : layout_default_params()->index_head_dim;
    out->page_size = layout_default_params()->page_size;
    return KVC_OK;
}

/* ------------------------------------------------- finding a model by name */

/* "/path/to/model", "${model_path}", "$MODEL", "<MODEL_PATH>", "{model}":
 * text copied from a recipe that was never filled in. */
static int is_placeholder(const char *ref)
{
    if (strchr(ref, '$') || strchr(ref, '<') || strchr(ref, '>') || strchr(ref, '{') || strchr(ref, '}')) return 1;
    const char *p = ref;
    while (*p == '/' || *p == '.') p++;
    return strncmp(p, "path/to/", 8) == 0 || strcmp(p, "path/to") == 0;
}

/* Drops trailing slashes as users type them ("zai-org/GLM-5.2/"), keeping a lone "/". */
static void strip_slashes(char *s)
{
    for (size_t n = strlen(s); n > 1 && s[n - 1] == '/'; n--) s[n - 1] = '\0';
}

/* The preset whose "kvcheck_checkpoints" list holds `id` (case and
 * trailing slashes as users type them: "ZAI-ORG/glm-5.2-fp8/"). */
static const struct kvc_preset *find_checkpoint(const char *id, char *canonical, size_t size)
{
    char want[KVC_PATH_LEN];
    str_copy(want, sizeof want, id);
    strip_slashes(want);
    for (size_t i = 0; i < kvc_npresets; i++) {
        cJSON *root = cJSON_ParseWithLength(kvc_presets[i].json, kvc_presets[i].len);
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(root, "kvcheck_checkpoints");
        int hit = 0;
        for (const cJSON *e = ids ? ids->child : NULL; e && !hit; e = e->next) {
            hit = cJSON_IsString(e) && str_ieq(e->valuestring, want);
            if (hit) str_copy(canonical, size, e->valuestring);
        }
        cJSON_Delete(root);
        if (hit) return &kvc_presets[i];
    }
    return NULL;
}

/* "ORG/NAME" (one slash, no dots or slashes leading): a Hugging Face checkpoint id. */
static int is_checkpoint_id(const char *ref)
{
    const char *slash = strchr(ref, '/');
    if (!slash || slash == ref || ref[0] == '.' || ref[0] == '~') return 0;
    const char *rest = slash + 1;
    size_t n = strlen(rest);
    while (n && rest[n - 1] == '/') n--;
    return n && !memchr(rest, '/', n);
}

/* The Hugging Face hub cache as huggingface_hub finds it: $HF_HUB_CACHE,
 * $HF_HOME/hub, $XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub. */
static void hub_cache_dir(char *out, size_t size)
{
    const char *v;
    if ((v = getenv("HF_HUB_CACHE")) && *v) str_copy(out, size, v);
    else if ((v = getenv("HF_HOME")) && *v) str_printf(out, size, "%s/hub", v);
    else if ((v = getenv("XDG_CACHE_HOME")) && *v) str_printf(out, size, "%s/huggingface/hub", v);
    else str_printf(out, size, "%s/.cache/huggingface/hub", (v = getenv("HOME")) && *v ? v : "");
}

/* Reads the snapshot refs/main names, else the only snapshot there is.
 * Returns 1 with `cfg` set, 0 when the cache has no such model, or an
 * error (2) with `diag` filled. */
static int hub_snapshot(const char *repo_dir, const char *revision, char *cfg, size_t size, char *rev, size_t rsize,
                        const kvc_origin *origin, kvc_diag *diag)
{
    char path[KVC_PATH_LEN];
    struct stat st;
    if (stat(repo_dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
    if (revision) { /* a commit hash names its snapshot; a branch or tag, refs/NAME names it */
        str_printf(cfg, size, "%s/snapshots/%s/config.json", repo_dir, revision);
        if (!strchr(revision, '/') && strcmp(revision, ".") && strcmp(revision, "..") && stat(cfg, &st) == 0) {
            str_copy(rev, rsize, revision);
            return 1;
        }
    }
    str_printf(path, sizeof path, "%s/refs/%s", repo_dir, revision ? revision : "main");
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, &text, &len, NULL) == KVC_OK) {
        while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ')) text[--len] = '\0';
        int ok = len > 0 && len < 128 && !strchr(text, '/');
        if (ok) {
            str_copy(rev, rsize, text);
            str_printf(cfg, size, "%s/snapshots/%s/config.json", repo_dir, text);
        }
        free(text);
        if (ok && stat(cfg, &st) == 0) return 1;
        diag_set(diag, KVC_ERR_CONFIG, origin,
                 "the Hugging Face cache %s: refs/%s names snapshot %s, which has no config.json: download the "
                 "model again or give its directory",
                 repo_dir, revision ? revision : "main", ok ? rev : "(not a snapshot name)");
        return 2;
    }
    if (revision) {
        diag_set(diag, KVC_ERR_CONFIG, origin,
                 "the Hugging Face cache %s holds no revision %s (neither refs/%s nor snapshots/%s): download that "
                 "revision, or give its snapshot's directory",
                 repo_dir, revision, revision, revision);
        return 2;
    }
    str_printf(path, sizeof path, "%s/snapshots", repo_dir);
    DIR *d = opendir(path);
    if (!d) return 0;
    unsigned found = 0;
    char names[512] = "";
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char c[KVC_PATH_LEN];
        str_printf(c, sizeof c, "%s/%s/config.json", path, e->d_name);
        if (stat(c, &st) != 0) continue;
        if (!found++) {
            str_copy(cfg, size, c);
            str_copy(rev, rsize, e->d_name);
        }
        str_join_add(names, sizeof names, ", ", e->d_name);
    }
    closedir(d);
    if (found == 1) return 1;
    if (!found) return 0;
    diag_set(diag, KVC_ERR_CONFIG, origin,
             "the Hugging Face cache %s has %u snapshots with a config.json (%s) and no refs/main to choose: give "
             "the snapshot's directory as the model",
             repo_dir, found, names);
    return 2;
}

/* Loads the model a launch command or --model names, as SGLang finds it:
 * a local directory (its config.json) or file; else a checkpoint id in the
 * local Hugging Face cache; else a bundled config (a preset name, or a
 * checkpoint id a preset lists). */
static kvc_status model_find(const char *ref, const char *revision, const kvc_origin *origin, const char *base_dir,
                             const char *label, const char *what, int mha_ok, model_info *out, kvc_diag *diag)
{
    if (is_placeholder(ref))
        return diag_set(diag, KVC_ERR_CONFIG, origin,
                        "%s%sthe model could not be found: %s '%s' is a placeholder, not a model; name the model with "
                        "--model or \"model\" in the worker file (a checkpoint id such as zai-org/GLM-5.2-FP8, a "
                        "preset, or a path to config.json)",
                        label, *label ? ": " : "", what, ref);
    char path[KVC_PATH_LEN], cfg[KVC_PATH_LEN];
    kvc_status rc = path_join_checked(base_dir, ref, path, sizeof path, origin, diag);
    if (rc) return rc;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) return model_load_file(path, mha_ok, out, diag);
        rc = path_join_checked(path, "config.json", cfg, sizeof cfg, origin, diag);
        if (rc) return rc;
        if (stat(cfg, &st) == 0) return model_load_file(cfg, mha_ok, out, diag);
        return diag_set(diag, KVC_ERR_CONFIG, origin, "%s%s%s %s is a directory without config.json: give the model's "
                        "directory (the one holding config.json)", label, *label ? ": " : "", what, path);
    }
    size_t n = strlen(ref);
    if (n > 5 && strcmp(ref + n - 5, ".json") == 0) return model_load_file(path, mha_ok, out, diag); /* says it is missing */
    char hub[KVC_PATH_LEN] = "";
    char canonical[KVC_PATH_LEN];
    const struct kvc_preset *preset = NULL;
    if (is_checkpoint_id(ref)) {
        char id[KVC_PATH_LEN], repo_dir[KVC_PATH_LEN], rev[128];
        str_copy(id, sizeof id, ref);
        strip_slashes(id);
        hub_cache_dir(hub, sizeof hub);
        char *slash = strchr(id, '/');
        *slash = '\0';
        str_printf(repo_dir, sizeof repo_dir, "%s/models--%s--%s", hub, id, slash + 1);
        *slash = '/';
        int got = hub_snapshot(repo_dir, revision, cfg, sizeof cfg, rev, sizeof rev, origin, diag);
        if (got == 2) return KVC_ERR_CONFIG;
        if (got == 1) {
            rc = model_load_file(cfg, mha_ok, out, diag);
            if (!rc) str_printf(out->name, sizeof out->name, "%s@%.12s", id, rev);
            return rc;
        }
        preset = find_checkpoint(id, canonical, sizeof canonical);
    }
    /* the last path part: "/models/GLM-5.2" names the glm-5.2 preset */
    char base[KVC_PATH_LEN];
    str_copy(base, sizeof base, ref);
    strip_slashes(base);
    const char *b = strrchr(base, '/');
    b = b ? b + 1 : base;
    const char *named = preset ? NULL : find_preset(ref) ? ref : find_preset(b) ? b : NULL;
    if (!preset && !named) preset = find_checkpoint(b, canonical, sizeof canonical);
    /* a bundled config is its checkpoint's main revision */
    if ((preset || named) && revision && strcmp(revision, "main") != 0)
        return diag_set(diag, KVC_ERR_CONFIG, origin,
                        "%s%s%s '%s' at revision %s: kvcheck bundles its config at the main revision only, and %s has "
                        "no snapshot of revision %s; put that revision in the Hugging Face cache or give its "
                        "snapshot's directory",
                        label, *label ? ": " : "", what, ref, revision, hub[0] ? hub : "the Hugging Face cache",
                        revision);
    if (named) return model_load(named, ".", out, diag);
    if (preset) {
        rc = preset_parse(preset, out, diag);
        /* the id alone; a config from the cache carries its revision ("ID@REV") */
        if (!rc) str_copy(out->name, sizeof out->name, canonical);
        return rc;
    }
    char presets[256];
    model_preset_list(presets, sizeof presets);
    return diag_set(diag, KVC_ERR_CONFIG, origin,
                    "%s%sthe model could not be found: %s '%s' is not a local directory or file, %s%s%s, and not a "
                    "model kvcheck bundles (%s, or their checkpoint ids such as zai-org/GLM-5.2-FP8); name it with "
                    "--model or \"model\" in the worker file (a path to config.json)",
                    label, *label ? ": " : "", what, ref,
                    hub[0] ? "not in the Hugging Face cache (" : "not a checkpoint id (ORG/NAME)", hub, hub[0] ? ")" : "",
                    presets);
}

kvc_status model_from_path(const char *path, const char *revision, const kvc_origin *origin, const char *base_dir,
                           const char *label, model_info *out, kvc_diag *diag)
{
    return model_find(path, revision, origin, base_dir, label, "--model-path", 0, out, diag);
}

kvc_status model_draft_from_path(const char *path, const char *revision, const kvc_origin *origin,
                                 const char *base_dir, const char *label, model_info *out, kvc_diag *diag)
{
    return model_find(path, revision, origin, base_dir, label, "--speculative-draft-model-path", 1, out, diag);
}
