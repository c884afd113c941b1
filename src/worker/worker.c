/* Worker specifications: kvcheck worker files, SGLang /server_info dumps and
 * the pieces given directly (GPU, model, launch flags). */
#include "worker/worker.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct kvc_worker {
    char label[256];
    char base_dir[1024]; /* for relative paths named inside a worker file */
    int has_gpu;
    gpu_info gpu;
    int has_model;
    model_info model;
    arglist config; /* from a worker file's "config" YAML */
    arglist cli;    /* launch flags; win over config */
};

kvc_worker *kvc_worker_create(const char *label)
{
    kvc_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    str_copy(w->label, sizeof w->label, label ? label : "worker");
    str_copy(w->base_dir, sizeof w->base_dir, ".");
    return w;
}

void kvc_worker_free(kvc_worker *worker)
{
    if (!worker) return;
    arglist_free(&worker->config);
    arglist_free(&worker->cli);
    free(worker);
}

const char *kvc_worker_label(const kvc_worker *worker) { return worker->label; }

kvc_status kvc_worker_set_gpu(kvc_worker *worker, const char *gpu, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--gpu");
    kvc_status st = gpu_parse(gpu, &worker->gpu, &o, diag);
    worker->has_gpu = st == KVC_OK;
    return st;
}

kvc_status kvc_worker_set_model(kvc_worker *worker, const char *model, kvc_diag *diag)
{
    kvc_status st = model_load(model, ".", &worker->model, diag);
    worker->has_model = st == KVC_OK;
    return st;
}

kvc_status kvc_worker_add_args(kvc_worker *worker, const char *command_line, const char *origin,
                               kvc_diag *diag)
{
    return args_parse_line(&worker->cli, command_line, origin, diag);
}

static void locate(kvc_origin *o, const char *text, const char *file, const char *key)
{
    origin_set(o, file, 0, 0, key);
    json_locate_key(text, key, 0, &o->line, &o->column);
}

/* "args": a list of words or one command line. */
static kvc_status load_args(kvc_worker *w, const cJSON *args, const char *text, const char *file,
                            kvc_diag *diag)
{
    kvc_origin o;
    locate(&o, text, file, "args");
    if (cJSON_IsString(args)) {
        /* Positions inside the string are relative to the string. */
        char name[700];
        str_printf(name, sizeof name, "%s: args", file);
        return args_parse_line(&w->cli, args->valuestring, name, diag);
    }
    RETURN_ERROR_IF(!cJSON_IsArray(args), diag, KVC_ERR_CONFIG, &o,
                    "\"args\" must be a list of strings or one command-line string");
    size_t n = (size_t)cJSON_GetArraySize(args);
    char **words = calloc(n + 1, sizeof *words);
    kvc_origin *origins = calloc(n + 1, sizeof *origins);
    kvc_status st = KVC_OK;
    if (!words || !origins) st = diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
    unsigned *lines = calloc(n + 1, sizeof *lines), *cols = calloc(n + 1, sizeof *cols);
    if (!lines || !cols) st = diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
    else json_locate_elements(text, "args", n, lines, cols);
    size_t i = 0;
    for (const cJSON *a = args->child; a && !st; a = a->next, i++) {
        origins[i] = o;
        if (lines[i]) origins[i].line = lines[i], origins[i].column = cols[i];
        str_printf(origins[i].where, sizeof origins[i].where, "args[%zu]", i);
        if (!cJSON_IsString(a))
            st = diag_set(diag, KVC_ERR_CONFIG, &origins[i],
                          "args[%zu] must be a string; write numbers as \"64\"", i);
        else
            words[i] = a->valuestring;
    }
    if (!st) st = args_parse_words(&w->cli, words, origins, n, diag);
    free(words);
    free(origins);
    free(lines);
    free(cols);
    return st;
}

/* Keys that make a JSON object a worker file, and free-text keys it may hold. */
static const char *const WORKER_KEYS[] = {"engine", "gpu", "model", "args", "config"};
static const char *const NOTE_KEYS[] = {"comment", "description"};
/* Keys that make a JSON object a /server_info dump. */
static const char *const SERVER_INFO_KEYS[] = {"kv_cache_dtype", "model_path"};

static int has_any_key(const cJSON *root, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cJSON_HasObjectItem(root, keys[i])) return 1;
    return 0;
}

static kvc_status load_worker_file(kvc_worker *w, const cJSON *root, const char *text,
                                   const char *file, kvc_diag *diag)
{
    kvc_origin o;
    for (const cJSON *k = root->child; k; k = k->next) {
        int known = 0;
        for (size_t i = 0; i < COUNT_OF(WORKER_KEYS); i++) known |= strcmp(k->string, WORKER_KEYS[i]) == 0;
        for (size_t i = 0; i < COUNT_OF(NOTE_KEYS); i++) known |= strcmp(k->string, NOTE_KEYS[i]) == 0;
        locate(&o, text, file, k->string);
        RETURN_ERROR_IF(!known, diag, KVC_ERR_CONFIG, &o,
                        "unknown key \"%s\" in worker file: expected engine, gpu, model, args, "
                        "config (or comment)",
                        k->string);
    }
    const cJSON *engine = cJSON_GetObjectItemCaseSensitive(root, "engine");
    locate(&o, text, file, "engine");
    RETURN_ERROR_IF(engine && !(cJSON_IsString(engine) && strcmp(engine->valuestring, "sglang") == 0),
                    diag, KVC_ERR_CONFIG, &o,
                    "\"engine\" must be \"sglang\": the only engine kvcheck models so far");

    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, "gpu");
    if (gpu) {
        locate(&o, text, file, "gpu");
        RETURN_ERROR_IF(!cJSON_IsString(gpu), diag, KVC_ERR_CONFIG, &o,
                        "\"gpu\" must be a string such as \"B300\" or \"sm_90\"");
        kvc_status st = gpu_parse(gpu->valuestring, &w->gpu, &o, diag);
        if (st) return st;
        w->has_gpu = 1;
    }

    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (model) {
        locate(&o, text, file, "model");
        kvc_status st;
        if (cJSON_IsString(model)) {
            st = model_load(model->valuestring, w->base_dir, &w->model, diag);
        } else if (cJSON_IsObject(model)) {
            char *inline_text = cJSON_PrintUnformatted(model);
            if (!inline_text) return diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
            st = model_parse_inline(inline_text, strlen(inline_text), text, file, "inline", &w->model, diag);
            cJSON_free(inline_text);
        } else {
            st = diag_set(diag, KVC_ERR_CONFIG, &o,
                          "\"model\" must be a preset name, a path to config.json or an object");
        }
        if (st) return st;
        w->has_model = 1;
    }

    const cJSON *config = cJSON_GetObjectItemCaseSensitive(root, "config");
    if (config) {
        locate(&o, text, file, "config");
        RETURN_ERROR_IF(!cJSON_IsString(config), diag, KVC_ERR_CONFIG, &o,
                        "\"config\" must be the path of an SGLang --config YAML file");
        char path[1024];
        path_join(w->base_dir, config->valuestring, path, sizeof path);
        kvc_status st = args_load_yaml(&w->config, path, diag);
        if (st) return st;
    }

    const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
    return args ? load_args(w, args, text, file, diag) : KVC_OK;
}

/* A /server_info dump: ServerArgs fields as snake_case keys. */
static kvc_status load_server_info(kvc_worker *w, const cJSON *root, const char *text,
                                   const char *file, kvc_diag *diag)
{
    for (const cJSON *k = root->child; k; k = k->next) {
        kvc_origin o;
        locate(&o, text, file, k->string);
        char value[KVC_NAME_LEN] = "";
        int present = 1;
        if (cJSON_IsNull(k) || cJSON_IsFalse(k)) present = 0;
        else if (cJSON_IsTrue(k)) str_copy(value, sizeof value, "true");
        else if (cJSON_IsString(k)) str_copy(value, sizeof value, k->valuestring);
        else if (cJSON_IsNumber(k)) str_printf(value, sizeof value, "%.17g", k->valuedouble);
        else str_copy(value, sizeof value, cJSON_IsArray(k) ? "[...]" : "{...}");
        kvc_status st = args_add_key(&w->cli, k->string, value, present, &o, diag);
        if (st) return st;
    }
    return KVC_OK;
}

kvc_status kvc_worker_load_file(kvc_worker *worker, const char *path, kvc_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    kvc_status st = file_read_all(path, &text, &len, diag);
    if (st) return st;
    cJSON *root = NULL;
    st = json_parse(text, len, path, &root, diag);
    if (!st) {
        path_dirname(path, worker->base_dir, sizeof worker->base_dir);
        int object = cJSON_IsObject(root);
        int worker_file = object && has_any_key(root, WORKER_KEYS, COUNT_OF(WORKER_KEYS));
        int server_info = object && has_any_key(root, SERVER_INFO_KEYS, COUNT_OF(SERVER_INFO_KEYS));
        if (worker_file) {
            st = load_worker_file(worker, root, text, path, diag);
        } else if (server_info) {
            st = load_server_info(worker, root, text, path, diag);
        } else {
            kvc_origin o;
            origin_set(&o, path, 1, 1, "");
            st = diag_set(diag, KVC_ERR_CONFIG, &o,
                          "%s is neither a kvcheck worker file (a JSON object with gpu, model, "
                          "args) nor an SGLang /server_info dump (an object with kv_cache_dtype, "
                          "model_path, ...)",
                          path);
        }
    }
    cJSON_Delete(root);
    free(text);
    return st;
}

/* With no model given, --model-path may name a preset ("zai-org/GLM-5.2")
 * or a local model directory holding config.json. */
static kvc_status infer_model(const kvc_worker *w, const settings *set, model_info *model,
                              kvc_diag *diag)
{
    const setting *mp = &set->s[SET_MODEL_PATH];
    kvc_origin o;
    origin_set(&o, "", 0, 0, "model");
    if (mp->set && mp->value[0]) {
        const char *base = strrchr(mp->value, '/');
        base = base && base[1] ? base + 1 : mp->value;
        if (model_is_preset(base)) return model_load(base, ".", model, diag);
        char cfg[1200];
        path_join(w->base_dir, mp->value, cfg, sizeof cfg);
        strncat(cfg, "/config.json", sizeof cfg - strlen(cfg) - 1);
        struct stat st;
        if (stat(cfg, &st) == 0) return model_load(cfg, ".", model, diag);
        char presets[256];
        model_preset_list(presets, sizeof presets);
        return diag_set(diag, KVC_ERR_CONFIG, &mp->origin,
                        "%s: --model-path %s is not a bundled preset (%s) and has no config.json "
                        "here: give the model with \"model\" or --model",
                        w->label, mp->value, presets);
    }
    return diag_set(diag, KVC_ERR_CONFIG, &o,
                    "%s: no model given: add \"model\" to the worker file or pass --model (a "
                    "preset name or a path to config.json)",
                    w->label);
}

kvc_status worker_inputs(const kvc_worker *worker, gpu_info *gpu, model_info *model,
                         settings *set, kvc_diag *diag)
{
    kvc_status st = settings_build(&worker->config, &worker->cli, worker->base_dir, set, diag);
    if (st) return st;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "gpu");
    RETURN_ERROR_IF(!worker->has_gpu, diag, KVC_ERR_CONFIG, &o,
                    "%s: no GPU given: add \"gpu\" to the worker file or pass --gpu (e.g. B300, "
                    "H200, sm_100)",
                    worker->label);
    *gpu = worker->gpu;
    if (worker->has_model) {
        *model = worker->model;
        return KVC_OK;
    }
    return infer_model(worker, set, model, diag);
}

kvc_status kvc_resolve(const kvc_worker *worker, kvc_rules rules, kvc_resolved *out,
                       kvc_diag *diag)
{
    gpu_info gpu;
    model_info model;
    settings *set = malloc(sizeof *set);
    if (!set) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = worker_inputs(worker, &gpu, &model, set, diag);
    if (!st) st = rules_resolve(&gpu, &model, set, rules, out, diag);
    if (!st) str_copy(out->label, sizeof out->label, worker->label);
    free(set);
    return st;
}
