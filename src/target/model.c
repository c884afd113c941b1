/* Model dimensions from a Hugging Face config.json or a bundled preset. */
#include "target/target.h"
#include "format/format.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
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

kvc_status model_parse(const char *text, size_t len, const char *file, const char *name,
                       model_info *out, kvc_diag *diag)
{
    return model_parse_inline(text, len, text, file, name, out, diag);
}

kvc_status model_parse_inline(const char *parse_text, size_t len, const char *text, const char *file,
                              const char *name, model_info *out, kvc_diag *diag)
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
    if (st) {
        cJSON_Delete(root);
        return st;
    }

    const cJSON *rank = cJSON_GetObjectItemCaseSensitive(root, "kv_lora_rank");
    if (!rank || cJSON_IsNull(rank)) {
        origin_set(&o, file, 0, 0, "kv_lora_rank");
        cJSON_Delete(root);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "%s: no \"kv_lora_rank\": %s is not an MLA model, and kvcheck derives MLA "
                        "KV-cache layouts only",
                        file, out->architecture);
    }
    st = json_get_uint(rank, text, file, "kv_lora_rank", 1, 65536, &out->kv_lora_rank, diag);
    if (!st) {
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
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(root, "torch_dtype");
    if (!dtype) dtype = cJSON_GetObjectItemCaseSensitive(root, "dtype");
    if (!st && dtype && !cJSON_IsNull(dtype)) {
        origin_set(&o, file, 0, 0, dtype->string);
        json_locate_key(text, dtype->string, 0, &o.line, &o.column);
        if (!cJSON_IsString(dtype))
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "\"%s\" must be a string such as \"bfloat16\"",
                          dtype->string);
        else
            st = copy_name(out->torch_dtype, sizeof out->torch_dtype, dtype->valuestring, &o, file, dtype->string,
                           diag);
    }
    if (!out->torch_dtype[0]) str_copy(out->torch_dtype, sizeof out->torch_dtype, "bfloat16");
    /* Whether the architecture is DSA depends on the engine release: its rules decide. */
    out->index_topk = has_topk ? (topk ? topk : 1) : 0;
    if (!st) st = get_opt(root, text, file, "index_kpool", 1, 1024, &out->index_kpool, diag);
    const cJSON *sink = cJSON_GetObjectItemCaseSensitive(root, "learnable_sink");
    if (!st && sink && !cJSON_IsNull(sink)) {
        origin_set(&o, file, 0, 0, "learnable_sink");
        json_locate_key(text, "learnable_sink", 0, &o.line, &o.column);
        if (!cJSON_IsBool(sink)) st = diag_set(diag, KVC_ERR_CONFIG, &o, "\"learnable_sink\" must be true or false");
        else out->learnable_sink = cJSON_IsTrue(sink);
    }
    if (!st && out->index_topk && !out->index_head_dim) {
        origin_set(&o, file, 0, 0, "index_head_dim");
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: a DSA model (index_topk is set) needs \"index_head_dim\"", file);
    }
    cJSON_Delete(root);
    return st;
}

kvc_status model_load(const char *ref, const char *base_dir, model_info *out, kvc_diag *diag)
{
    const struct kvc_preset *preset = find_preset(ref);
    if (preset) {
        char file[128];
        str_printf(file, sizeof file, "preset %s", preset->name);
        return model_parse(preset->json, preset->len, file, preset->name, out, diag);
    }
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    char path[KVC_PATH_LEN];
    kvc_status rc = path_join_checked(base_dir, ref, path, sizeof path, &o, diag);
    if (rc) return rc;
    struct stat st;
    char cfg[KVC_PATH_LEN];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* A model directory: its config.json. */
        rc = path_join_checked(path, "config.json", cfg, sizeof cfg, &o, diag);
        if (rc) return rc;
    } else {
        str_copy(cfg, sizeof cfg, path);
    }
    if (stat(cfg, &st) != 0 && !strchr(ref, '/') && !strstr(ref, ".json")) {
        char presets[256];
        model_preset_list(presets, sizeof presets);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "model '%s' is neither a file nor a bundled preset (%s): give the path "
                        "to the model's config.json",
                        ref, presets);
    }
    char *text = NULL;
    size_t len = 0;
    rc = file_read_all(cfg, &text, &len, diag);
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
    rc = model_parse(text, len, cfg, name, out, diag);
    free(text);
    return rc;
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

kvc_status model_from_path(const char *path, const kvc_origin *origin, const char *base_dir, const char *label,
                           model_info *out, kvc_diag *diag)
{
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    if (model_is_preset(base)) return model_load(base, ".", out, diag);
    char dir[KVC_PATH_LEN], cfg[KVC_PATH_LEN];
    kvc_status rc = path_join_checked(base_dir, path, dir, sizeof dir, origin, diag);
    if (!rc) rc = path_join_checked(dir, "config.json", cfg, sizeof cfg, origin, diag);
    if (rc) return rc;
    struct stat st;
    if (stat(cfg, &st) == 0) return model_load(cfg, ".", out, diag);
    char presets[256];
    model_preset_list(presets, sizeof presets);
    return diag_set(diag, KVC_ERR_CONFIG, origin,
                    "%s: --model-path %s is not a bundled preset (%s) and has no config.json here: give the model "
                    "with \"model\" or --model",
                    label, path, presets);
}
