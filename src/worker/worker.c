/* Worker specifications: kvcheck worker files, SGLang /server_info dumps and
 * the pieces given directly (GPU, model, launch flags). */
#include "worker/worker.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct kvc_worker {
    char *label;         /* as given: any length; refused at resolve when longer than a path */
    char base_dir[1024]; /* for relative paths named inside a worker file */
    int has_gpu;
    gpu_info gpu;
    int has_model;
    model_info model;
    const engine_def *engine;
    unsigned release;
    char release_asked[KVC_NAME_LEN]; /* "" when not given */
    char release_from[KVC_PATH_LEN];
    char release_note[KVC_NOTE_LEN];  /* the engine's note on the version, and on a version overridden */
    engine_inputs *inputs; /* the engine's: launch flags, config files, server dumps */
    unsigned nwarnings;    /* about where the inputs came from */
    char warnings[4][KVC_NOTE_LEN];
};

kvc_worker *kvc_worker_create(const char *label)
{
    kvc_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    const char *l = label ? label : "worker";
    w->label = malloc(strlen(l) + 1);
    if (!w->label) {
        free(w);
        return NULL;
    }
    memcpy(w->label, l, strlen(l) + 1);
    str_copy(w->base_dir, sizeof w->base_dir, ".");
    w->engine = engine_default();
    w->inputs = w->engine->inputs_create();
    if (!w->inputs) {
        free(w->label);
        free(w);
        return NULL;
    }
    return w;
}

void kvc_worker_free(kvc_worker *worker)
{
    if (!worker) return;
    worker->engine->inputs_free(worker->inputs);
    free(worker->label);
    free(worker);
}

const char *kvc_worker_label(const kvc_worker *worker) { return worker->label; }
const engine_def *worker_engine(const kvc_worker *worker) { return worker->engine; }
unsigned worker_release(const kvc_worker *worker) { return worker->release; }

int worker_release_given(const kvc_worker *worker) { return worker->release_asked[0] != '\0'; }

/* Takes the engine release `version` names, given at `from`. */
static kvc_status set_release(kvc_worker *w, const char *version, const char *from, kvc_diag *diag)
{
    unsigned index = 0;
    char note[KVC_NOTE_LEN];
    kvc_status st = w->engine->find_release(version, &index, note, sizeof note, diag);
    if (st) {
        if (diag && from[0]) {
            char msg[sizeof diag->message];
            str_copy(msg, sizeof msg, diag->message);
            str_printf(diag->message, sizeof diag->message, "%s: %s (from %s)", w->label, msg, from);
        }
        return st;
    }
    if (w->release_asked[0] && strcmp(w->release_asked, version) != 0) {
        char engine_note[KVC_NOTE_LEN];
        str_copy(engine_note, sizeof engine_note, note);
        str_printf(note, sizeof note, "%s%s%s says %s %s; %s %s wins", engine_note, engine_note[0] ? "; " : "",
                   w->release_from, w->engine->words.name, w->release_asked, from, version);
    }
    w->release = index;
    str_copy(w->release_asked, sizeof w->release_asked, version);
    str_copy(w->release_from, sizeof w->release_from, from);
    str_copy(w->release_note, sizeof w->release_note, note);
    return KVC_OK;
}

kvc_status kvc_worker_set_release(kvc_worker *worker, const char *release, kvc_diag *diag)
{
    return set_release(worker, release, worker->engine->words.release_option, diag);
}

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

/* Makes `e` the worker's engine. A file names its engine before its flags;
 * with one engine modelled, no inputs are ever set aside here. */
static kvc_status use_engine(kvc_worker *w, const engine_def *e, kvc_diag *diag)
{
    if (e == w->engine) return KVC_OK;
    engine_inputs *in = e->inputs_create();
    RETURN_ERROR_IF(!in, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    w->engine->inputs_free(w->inputs);
    w->engine = e;
    w->inputs = in;
    w->release = 0;
    w->release_asked[0] = w->release_from[0] = w->release_note[0] = '\0';
    return KVC_OK;
}

/* The engine's words of a launch. */
static kvc_status worker_add_words(kvc_worker *w, const word_list *words, kvc_diag *diag)
{
    return w->engine->add_words(w->inputs, words, diag);
}

kvc_status worker_add_env(kvc_worker *w, const char *assignment, const kvc_origin *origin, kvc_diag *diag)
{
    return w->engine->add_env(w->inputs, assignment, origin, diag);
}

void worker_add_warning(kvc_worker *w, const char *fmt, ...)
{
    char text[KVC_NOTE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    notes_add(w->warnings, &w->nwarnings, COUNT_OF(w->warnings), "%s", text);
}

kvc_status worker_add_log(kvc_worker *w, const char *record, size_t len, const kvc_origin *where, kvc_diag *diag)
{
    return w->engine->add_log(w->inputs, record, len, where, diag);
}

kvc_status worker_set_gpu_at(kvc_worker *w, const char *gpu, const kvc_origin *origin, kvc_diag *diag)
{
    kvc_status st = gpu_parse(gpu, &w->gpu, origin, diag);
    w->has_gpu = st == KVC_OK;
    return st;
}

kvc_status worker_set_release_from(kvc_worker *w, const char *version, const char *from, kvc_diag *diag)
{
    return set_release(w, version, from, diag);
}

void worker_set_base_dir(kvc_worker *w, const char *dir) { str_copy(w->base_dir, sizeof w->base_dir, dir); }

kvc_status worker_role(const kvc_worker *w, char *out, size_t size, kvc_diag *diag)
{
    return w->engine->role(w->inputs, w->base_dir, w->release, out, size, diag);
}

int worker_image_release(const kvc_worker *w, const char *image, char *out, size_t size)
{
    return engine_image_release(w->engine, image, out, size);
}

int engine_image_release(const engine_def *e, const char *image, char *out, size_t size)
{
    const char *name = strrchr(image, '/') ? strrchr(image, '/') + 1 : image;
    const char *colon = strchr(name, ':');
    size_t repo = strlen(e->words.image);
    if (!colon || (size_t)(colon - name) != repo || strncmp(name, e->words.image, repo) != 0) return 0;
    /* the tag: [v]X.Y.Z, then .postN or rcN, then the end or "-variant" */
    const char *t = colon + 1 + (colon[1] == 'v'), *p = t;
    for (int part = 0; part < 3; part++) {
        if (*p < '0' || *p > '9') return 0;
        while (*p >= '0' && *p <= '9') p++;
        if (part < 2 && *p++ != '.') return 0;
    }
    const char *suffix = strncmp(p, ".post", 5) == 0 ? p + 5 : strncmp(p, "rc", 2) == 0 ? p + 2 : NULL;
    if (suffix && *suffix >= '0' && *suffix <= '9')
        for (p = suffix; *p >= '0' && *p <= '9';) p++;
    if (*p && *p != '-') return 0;
    if ((size_t)(p - t) >= size) return 0;
    memcpy(out, t, (size_t)(p - t));
    out[p - t] = '\0';
    return 1;
}

kvc_status worker_add_launch(kvc_worker *w, const shell_script *s, const launch *l, const char *file, kvc_diag *diag)
{
    kvc_origin o;
    for (size_t i = 0; i < l->nenv; i++) {
        origin_set(&o, file, l->env[i].line, l->env[i].column, "");
        RETURN_IF_ERROR(worker_add_env(w, l->env[i].text, &o, diag));
    }
    char version[KVC_NAME_LEN];
    const char *image = l->image != SIZE_MAX ? s->words.words[l->image] + l->image_skip : NULL;
    if (image && worker_image_release(w, image, version, sizeof version)) {
        origin_set(&o, file, s->words.lines[l->image], s->words.columns[l->image], "");
        char at[KVC_PATH_LEN], from[KVC_PATH_LEN];
        origin_format(&o, at, sizeof at);
        str_printf(from, sizeof from, "%s (image %s)", at, image);
        RETURN_IF_ERROR(set_release(w, version, from, diag));
    }
    word_list list = {.words = s->words.words + l->program,
                      .n = l->end - l->program,
                      .file = file,
                      .lines = s->words.lines + l->program,
                      .columns = s->words.columns + l->program};
    return worker_add_words(w, &list, diag);
}

/* A command line to the engine: its one launch when the text holds a
 * launch command (with pipes, redirections, an environment or docker run
 * around it), else every word, as flags given alone are written (and as
 * text that is no shell script, such as "--model-path <MODEL_PATH>", is). */
static kvc_status add_line(kvc_worker *w, const char *line, const char *origin, kvc_diag *diag)
{
    shell_script script;
    launch *found = NULL;
    size_t n = 0;
    kvc_status st = KVC_OK;
    if (shell_script_split(line, origin, &script, NULL) == KVC_OK)
        st = launch_find(&script, w->engine, origin, &found, &n, diag);
    else
        memset(&script, 0, sizeof script);
    if (!st && n > 1) {
        kvc_origin o;
        const shell_words *sw = &script.words;
        origin_set(&o, origin, sw->lines[found[1].program], sw->columns[found[1].program], "");
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "the launch flags hold %zu launch commands (at lines %u and %u): a worker is one; give each "
                      "its own worker, or put both in a script file and check it (kvcheck check FILE)",
                      n, sw->lines[found[0].program], sw->lines[found[1].program]);
    }
    if (!st && n == 1) st = worker_add_launch(w, &script, &found[0], origin, diag);
    launches_free(found, n);
    shell_script_free(&script);
    if (st || n) return st;
    shell_words words;
    RETURN_IF_ERROR(shell_split(line, origin, &words, diag));
    word_list list = {.words = words.words,
                      .n = words.n,
                      .file = origin,
                      .lines = words.lines,
                      .columns = words.columns,
                      .assign = words.assign};
    st = worker_add_words(w, &list, diag);
    shell_words_free(&words);
    return st;
}

kvc_status kvc_worker_add_args(kvc_worker *worker, const char *command_line, const char *origin, kvc_diag *diag)
{
    return add_line(worker, command_line, origin, diag);
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
        return add_line(w, args->valuestring, name, diag);
    }
    RETURN_ERROR_IF(!cJSON_IsArray(args), diag, KVC_ERR_CONFIG, &o,
                    "\"args\" must be a list of strings or one command-line string");
    size_t n = (size_t)cJSON_GetArraySize(args);
    char **words = calloc(n + 1, sizeof *words);
    unsigned *lines = calloc(n + 1, sizeof *lines), *cols = calloc(n + 1, sizeof *cols);
    kvc_status st = KVC_OK;
    if (!words || !lines || !cols) st = diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
    else json_locate_elements(text, "args", n, lines, cols);
    word_list list = {.words = words, .n = n, .file = file, .lines = lines, .columns = cols, .elements = 1};
    size_t i = 0;
    for (const cJSON *a = args->child; a && !st; a = a->next, i++) {
        if (!lines[i]) lines[i] = o.line, cols[i] = o.column;
        if (cJSON_IsString(a)) {
            words[i] = a->valuestring;
            continue;
        }
        kvc_origin ao;
        word_origin(&list, i, &ao);
        st = diag_set(diag, KVC_ERR_CONFIG, &ao, "args[%zu] must be a string; write numbers as \"64\"", i);
    }
    if (!st) st = worker_add_words(w, &list, diag);
    free(words);
    free(lines);
    free(cols);
    return st;
}

/* Keys that make a JSON object a worker file, and free-text keys it may hold. */
static const char *const WORKER_KEYS[] = {"engine", "gpu", "model", "args", "config", "sglang_version"};
static const char *const NOTE_KEYS[] = {"comment", "description"};

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
                        "config, sglang_version (or comment)",
                        k->string);
    }
    const cJSON *engine = cJSON_GetObjectItemCaseSensitive(root, "engine");
    locate(&o, text, file, "engine");
    if (engine && !(cJSON_IsString(engine) && engine_find(engine->valuestring))) {
        char names[160] = "";
        for (unsigned i = 0; engine_at(i); i++) str_join_add(names, sizeof names, ", ", engine_at(i)->name);
        return diag_set(diag, KVC_ERR_CONFIG, &o, "\"engine\" must name an engine kvcheck models: %s", names);
    }
    if (engine) {
        kvc_status st = use_engine(w, engine_find(engine->valuestring), diag);
        if (st) return st;
    }

    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, w->engine->words.release_key);
    if (version) {
        locate(&o, text, file, w->engine->words.release_key);
        RETURN_ERROR_IF(!cJSON_IsString(version), diag, KVC_ERR_CONFIG, &o,
                        "\"%s\" must be a string such as \"0.5.18\"", w->engine->words.release_key);
        char from[KVC_PATH_LEN];
        origin_format(&o, from, sizeof from);
        kvc_status st = set_release(w, version->valuestring, from, diag);
        if (st) return st;
    }

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
        RETURN_ERROR_IF(!cJSON_IsString(config), diag, KVC_ERR_CONFIG, &o, "\"config\" must be %s",
                        w->engine->words.config_description);
        char path[KVC_PATH_LEN];
        kvc_status st = path_join_checked(w->base_dir, config->valuestring, path, sizeof path, &o, diag);
        if (!st) st = w->engine->add_config(w->inputs, path, diag);
        if (st) return st;
    }

    const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
    return args ? load_args(w, args, text, file, diag) : KVC_OK;
}

/* Loads a worker file or a server dump from `text`, which `name` names in
 * messages. A `reply` (what a server answered) must be a server dump: a
 * reply that is not JSON, or JSON of another kind, is KVC_ERR_IO, since the
 * server, not a file the user wrote, is wrong. */
static kvc_status load_text(kvc_worker *worker, const char *text, size_t len, const char *name, int reply,
                            kvc_diag *diag)
{
    cJSON *root = NULL;
    kvc_status st = json_parse(text, len, name, &root, diag);
    if (st == KVC_ERR_CONFIG && reply) {
        if (diag) {
            char why[sizeof diag->message];
            str_copy(why, sizeof why, diag->message);
            str_printf(diag->message, sizeof diag->message, "%s did not answer with JSON: is this an SGLang server? (%s)",
                       name, why);
            diag->status = KVC_ERR_IO;
            diag->line = diag->column = 0;
        }
        return KVC_ERR_IO;
    }
    if (st) return st;
    int object = cJSON_IsObject(root);
    int worker_file = !reply && object && has_any_key(root, WORKER_KEYS, COUNT_OF(WORKER_KEYS));
    const engine_def *dump = NULL;
    for (unsigned i = 0; object && !dump && engine_at(i); i++)
        if (engine_at(i)->is_dump(root)) dump = engine_at(i);
    if (worker_file) {
        st = load_worker_file(worker, root, text, name, diag);
    } else if (dump) {
        st = use_engine(worker, dump, diag);
        if (!st) st = dump->add_dump(worker->inputs, root, text, name, diag);
        char version[KVC_NAME_LEN];
        const char *key = "";
        dump->dump_version(root, version, sizeof version, &key);
        if (!st && version[0]) {
            kvc_origin o;
            locate(&o, text, name, key);
            char from[KVC_PATH_LEN];
            origin_format(&o, from, sizeof from);
            st = set_release(worker, version, from, diag);
        }
    } else {
        kvc_origin o;
        origin_set(&o, name, 1, 1, "");
        if (reply)
            st = diag_set(diag, KVC_ERR_IO, &o, "%s answered with JSON that is not %s: is this an SGLang server?",
                          name, engine_default()->words.dump_description);
        else
            st = diag_set(diag, KVC_ERR_CONFIG, &o,
                          "%s is neither a kvcheck worker file (a JSON object with gpu, model, args) nor %s", name,
                          engine_default()->words.dump_description);
    }
    cJSON_Delete(root);
    return st;
}

kvc_status kvc_worker_load_file(kvc_worker *worker, const char *path, kvc_diag *diag)
{
    char checked[KVC_PATH_LEN];
    kvc_status st = path_join_checked(NULL, path, checked, sizeof checked, NULL, diag);
    if (st) return st;
    char *text = NULL;
    size_t len = 0;
    st = file_read_all(path, &text, &len, diag);
    if (st) return st;
    path_dirname(path, worker->base_dir, sizeof worker->base_dir);
    st = load_text(worker, text, len, path, 0, diag);
    free(text);
    return st;
}

kvc_status kvc_worker_load_json(kvc_worker *worker, const char *text, size_t len, const char *name, unsigned flags,
                                kvc_diag *diag)
{
    RETURN_ERROR_IF(!worker || !text || !name, diag, KVC_ERR_USAGE, NULL,
                    "kvc_worker_load_json needs a worker, the JSON text and a name for it");
    RETURN_ERROR_IF(flags & ~KVC_LOAD_SERVER_REPLY, diag, KVC_ERR_USAGE, NULL,
                    "kvc_worker_load_json: unknown flags 0x%x", flags & ~KVC_LOAD_SERVER_REPLY);
    /* the caller's bytes need not end in a NUL (a server's reply): positions
     * in messages are found in a terminated copy, as a file's text is */
    char *copy = malloc(len + 1);
    RETURN_ERROR_IF(!copy, diag, KVC_ERR_NOMEM, NULL, "out of memory for %zu bytes of JSON", len);
    memcpy(copy, text, len);
    copy[len] = '\0';
    kvc_status st = load_text(worker, copy, len, name, (flags & KVC_LOAD_SERVER_REPLY) != 0, diag);
    free(copy);
    return st;
}

kvc_status worker_prepare_as(const kvc_worker *worker, unsigned release, engine_worker **out, kvc_diag *diag)
{
    *out = NULL;
    size_t n = strlen(worker->label), limit = sizeof ((kvc_resolved *)0)->label;
    RETURN_ERROR_IF(n >= limit, diag, KVC_ERR_USAGE, NULL,
                    "the worker label %.60s... is %zu bytes long: kvcheck takes labels of up to %zu bytes",
                    worker->label, n, limit - 1);
    engine_target t = {.label = worker->label,
                       .base_dir = worker->base_dir,
                       .gpu = worker->has_gpu ? &worker->gpu : NULL,
                       .model = worker->has_model ? &worker->model : NULL};
    return worker->engine->prepare(worker->inputs, &t, release, out, diag);
}

kvc_status worker_prepare(const kvc_worker *worker, engine_worker **out, kvc_diag *diag)
{
    return worker_prepare_as(worker, worker->release, out, diag);
}

kvc_status worker_resolve(const kvc_worker *worker, const engine_worker *prepared, unsigned release,
                          const engine_override *overrides, size_t noverrides, kvc_resolved *out, kvc_diag *diag)
{
    kvc_status st = worker->engine->resolve(prepared, release, overrides, noverrides, out, diag);
    if (st) return st;
    memcpy(out->label, worker->label, strlen(worker->label) + 1); /* fits: worker_prepare checked */
    str_copy(out->release_asked, sizeof out->release_asked, worker->release_asked);
    str_copy(out->release_from, sizeof out->release_from, worker->release_from);
    if (worker->release_note[0]) notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s", worker->release_note);
    for (unsigned i = 0; i < worker->nwarnings; i++)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s", worker->warnings[i]);
    return KVC_OK;
}

kvc_status worker_pair_check(const kvc_worker *prefill, const kvc_worker *decode, kvc_diag *diag)
{
    const engine_def *e = prefill->engine;
    RETURN_ERROR_IF(e != decode->engine, diag, KVC_ERR_USAGE, NULL,
                    "prefill runs %s and decode %s: kvcheck pairs workers of one engine", e->name, decode->engine->name);
    return KVC_OK;
}

kvc_status worker_resolve_selected(const kvc_worker *worker, kvc_resolved *out, kvc_diag *diag)
{
    engine_worker *prepared = NULL;
    kvc_status st = worker_prepare(worker, &prepared, diag);
    if (!st) st = worker_resolve(worker, prepared, worker->release, NULL, 0, out, diag);
    if (prepared) worker->engine->prepared_free(prepared);
    return st;
}

kvc_status kvc_resolve(const kvc_worker *worker, kvc_resolved **out, kvc_diag *diag)
{
    *out = NULL;
    kvc_resolved *r = malloc(sizeof *r);
    RETURN_ERROR_IF(!r, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = worker_resolve_selected(worker, r, diag);
    if (st) {
        free(r);
        return st;
    }
    *out = r;
    return KVC_OK;
}
