/* Deployment recipes in YAML, every document of the file: Dynamo graphs,
 * Kubernetes workloads and srt-slurm (InferenceX) recipes. A container
 * whose command and args start the engine is a worker, named by the
 * workload's kind, name and the keys that lead to it; srt-slurm's
 * backend.sglang_config.MODE mappings are workers as srtctl turns them
 * into flags. Every word keeps the line and column of its YAML node. */
#include "recipe/recipe.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Where workloads keep their containers: a path of keys from the
 * document's root, '*' for each value of a mapping (named by its key) or
 * item of a list (named by its "name"). A `fallback` row is read only
 * when the rows before it found no worker in the document. */
static const struct place {
    const char *kind;
    const char *path;
    int fallback;
    const char *recipe;
} PLACES[] = {
    /* Dynamo's DynamoGraphDeployment: v1alpha1 services, v1beta1 components */
    {"DynamoGraphDeployment", "spec.services.*.extraPodSpec.mainContainer", 0, "Dynamo graph"},
    {"DynamoGraphDeployment", "spec.components.*.podTemplate.spec.containers.*", 0, "Dynamo graph"},
    {"Deployment", "spec.template.spec.containers.*", 0, "Kubernetes manifests"},
    {"StatefulSet", "spec.template.spec.containers.*", 0, "Kubernetes manifests"},
    {"Job", "spec.template.spec.containers.*", 0, "Kubernetes manifests"},
    {"Pod", "spec.containers.*", 0, "Kubernetes manifests"},
    /* the leader runs the server; its workers run the same one on more nodes */
    {"LeaderWorkerSet", "spec.leaderWorkerTemplate.leaderTemplate.spec.containers.*", 0, "Kubernetes manifests"},
    {"LeaderWorkerSet", "spec.leaderWorkerTemplate.workerTemplate.spec.containers.*", 1, "Kubernetes manifests"},
    {"RoleBasedGroup", "spec.roles.*.template.spec.containers.*", 0, "Kubernetes manifests"},
};

typedef struct manifest {
    kvc_recipe *r;
    yaml_document_t *doc;
    kvc_diag *diag;
    const char *recipe; /* the kind found */
} manifest;

static yaml_node_t *node(const manifest *m, int i) { return yaml_document_get_node(m->doc, i); }

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int plain(const yaml_node_t *n) { return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE; }

static yaml_node_t *get(const manifest *m, const yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(m, p->key));
        if (k && strcmp(k, key) == 0) return node(m, p->value);
    }
    return NULL;
}

static void at_node(const manifest *m, const yaml_node_t *n, kvc_origin *o)
{
    origin_set(o, m->r->path, (unsigned)n->start_mark.line + 1, (unsigned)n->start_mark.column + 1, "");
}

/* ------------------------------------------------------------ the words */

/* A growing list of words, each with its position. */
typedef struct words {
    char **text;
    unsigned *lines, *columns;
    size_t n, cap;
    int oom;
} words;

static void words_free(words *w)
{
    for (size_t i = 0; i < w->n; i++) free(w->text[i]);
    free(w->text);
    free(w->lines);
    free(w->columns);
}

/* Adds `text` (taken over; NULL: out of memory) at `o`. */
static void words_add(words *w, char *text, const kvc_origin *o)
{
    if (!text || w->oom) {
        free(text);
        w->oom = 1;
        return;
    }
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        char **t = realloc(w->text, cap * sizeof *t);
        if (t) w->text = t;
        unsigned *l = realloc(w->lines, cap * sizeof *l);
        if (l) w->lines = l;
        unsigned *c = realloc(w->columns, cap * sizeof *c);
        if (c) w->columns = c;
        if (!t || !l || !c) {
            free(text);
            w->oom = 1;
            return;
        }
        w->cap = cap;
    }
    w->text[w->n] = text;
    w->lines[w->n] = o->line;
    w->columns[w->n++] = o->column;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* A YAML node as JSON, scalars typed as PyYAML types them: a mapping
 * given where a flag's value goes (--kv-events-config) is its JSON text. */
static cJSON *to_json(const manifest *m, const yaml_node_t *n, unsigned depth)
{
    if (!n || depth > 64) return NULL;
    if (n->type == YAML_SCALAR_NODE) {
        const char *s = scalar(n);
        int b;
        if (plain(n) && pyyaml_null(s, 1)) return cJSON_CreateNull();
        if (plain(n) && pyyaml_bool(s, &b)) return cJSON_CreateBool(b);
        if (plain(n) && pyyaml_is_number(s)) {
            char *text = pyyaml_str(s, 1);
            cJSON *num = text && strcmp(text, "inf") && strcmp(text, "-inf") && strcmp(text, "nan")
                             ? cJSON_CreateRaw(text)
                             : cJSON_CreateString(s);
            free(text);
            return num;
        }
        return cJSON_CreateString(s);
    }
    cJSON *out = n->type == YAML_SEQUENCE_NODE ? cJSON_CreateArray() : cJSON_CreateObject();
    if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = n->data.sequence.items.start; out && i < n->data.sequence.items.top; i++) {
            cJSON *item = to_json(m, node(m, *i), depth + 1);
            if (!item) return cJSON_Delete(out), NULL;
            cJSON_AddItemToArray(out, item);
        }
        return out;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; out && p < n->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(m, p->key));
        cJSON *v = to_json(m, node(m, p->value), depth + 1);
        if (!k || !v) return cJSON_Delete(v), cJSON_Delete(out), NULL;
        cJSON_AddItemToObject(out, k, v);
    }
    return out;
}

/* A word from a list item: a scalar as written, a mapping or list as JSON. */
static kvc_status item_word(manifest *m, const yaml_node_t *n, words *w)
{
    kvc_origin o;
    at_node(m, n, &o);
    if (n->type == YAML_SCALAR_NODE) {
        words_add(w, dup_text(scalar(n)), &o);
        return KVC_OK;
    }
    cJSON *json = to_json(m, n, 0);
    RETURN_ERROR_IF(!json, m->diag, KVC_ERR_CONFIG, &o,
                    "this value nests more than 64 deep (or has a key that is no string): kvcheck cannot pass it on as "
                    "one JSON word");
    char *text = cJSON_PrintUnformatted(json);
    cJSON_Delete(json);
    words_add(w, text, &o);
    return KVC_OK;
}

static kvc_status list_words(manifest *m, const yaml_node_t *list, const char *what, words *w)
{
    if (!list) return KVC_OK;
    kvc_origin o;
    at_node(m, list, &o);
    RETURN_ERROR_IF(list->type != YAML_SEQUENCE_NODE, m->diag, KVC_ERR_CONFIG, &o,
                    "a container's %s must be a list of strings", what);
    for (yaml_node_item_t *i = list->data.sequence.items.start; i < list->data.sequence.items.top; i++)
        RETURN_IF_ERROR(item_word(m, node(m, *i), w));
    return KVC_OK;
}

/* Line `line` (1-based) of the file: its indentation. */
static unsigned indent_of(const kvc_recipe *r, unsigned line)
{
    const char *p = r->text;
    for (unsigned l = 1; l < line && (p = strchr(p, '\n')); l++) p++;
    return p ? (unsigned)strspn(p, " ") : 0;
}

/* Puts a position inside a script held in scalar `n` at its place in the
 * file: exactly for a literal block (|) and a scalar on one line; at the
 * scalar's start for a folded or multi-line one (its line breaks are not
 * the file's). */
static void place(const manifest *m, const yaml_node_t *n, unsigned *line, unsigned *column)
{
    unsigned l0 = (unsigned)n->start_mark.line + 1, c0 = (unsigned)n->start_mark.column + 1;
    yaml_scalar_style_t style = n->data.scalar.style;
    unsigned quote = style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (style == YAML_LITERAL_SCALAR_STYLE) {
        *column += indent_of(m->r, l0 + 1);
        *line += l0;
    } else if (n->end_mark.line == n->start_mark.line) {
        *column = c0 + quote + *column - 1;
        *line = l0;
    } else {
        *line = l0;
        *column = c0;
    }
}

/* The words a container runs: its command and args, or the commands of
 * the script of `sh -c SCRIPT`. */
static kvc_status container_script(manifest *m, const yaml_node_t *c, shell_script *script)
{
    words w = {0};
    memset(script, 0, sizeof *script);
    const yaml_node_t *cmd = get(m, c, "command"), *args = get(m, c, "args");
    kvc_status st = list_words(m, cmd, "command", &w);
    if (!st) st = list_words(m, args, "args", &w);
    if (!st && w.oom) st = diag_set(m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
    const char *shell = w.n > 2 ? strrchr(w.text[0], '/') ? strrchr(w.text[0], '/') + 1 : w.text[0] : "";
    const yaml_node_t *text = NULL;
    if (!st && (strcmp(shell, "sh") == 0 || strcmp(shell, "bash") == 0) && w.text[1][0] == '-' &&
        strchr(w.text[1], 'c')) {
        size_t ncmd = (size_t)(cmd->data.sequence.items.top - cmd->data.sequence.items.start);
        text = ncmd > 2 ? node(m, cmd->data.sequence.items.start[2])
                        : node(m, args->data.sequence.items.start[2 - ncmd]);
        if (text->type != YAML_SCALAR_NODE) text = NULL;
    }
    if (!st && text) {
        st = shell_script_split(scalar(text), m->r->path, script, m->diag);
        for (size_t i = 0; !st && i < script->words.n; i++)
            place(m, text, &script->words.lines[i], &script->words.columns[i]);
        if (st && m->diag) place(m, text, &m->diag->line, &m->diag->column);
    } else if (!st) {
        st = shell_script_from_words((const char *const *)w.text, w.lines, w.columns, w.n, script, m->diag);
    }
    words_free(&w);
    return st;
}

/* A container: a worker for each launch of the engine its command runs,
 * each with its own copy of the words. */
static kvc_status container(manifest *m, const yaml_node_t *c, const char *name, size_t *found)
{
    if (!c || c->type != YAML_MAPPING_NODE) return KVC_OK;
    shell_script script;
    launch *l = NULL;
    size_t n = 0;
    kvc_status st = container_script(m, c, &script);
    if (!st) st = launch_find(&script, engine_default(), m->r->path, &l, &n, m->diag);
    /* the container's image and environment, for each of its workers */
    const yaml_node_t *image = get(m, c, "image"), *env = get(m, c, "env");
    char version[KVC_NAME_LEN];
    for (size_t i = 0; i < n && !st; i++) {
        recipe_entry *e = n > 1 ? recipe_add(m->r, "%s#%zu", name, i + 1) : recipe_add(m->r, "%s", name);
        if (!e) {
            st = diag_set(m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        e->launch = l[i];
        l[i].env = NULL;
        if (i == 0) e->own = script, memset(&script, 0, sizeof script);
        else st = container_script(m, c, &e->own);
        kvc_origin o;
        if (!st && scalar(image) && engine_image_release(engine_default(), scalar(image), version, sizeof version)) {
            at_node(m, image, &o);
            str_printf(o.where, sizeof o.where, "image %s", scalar(image));
            st = recipe_value_set(&e->release, version, &o, m->diag);
        }
        for (yaml_node_item_t *it = env && env->type == YAML_SEQUENCE_NODE ? env->data.sequence.items.start : NULL;
             !st && it && it < env->data.sequence.items.top; it++) {
            const yaml_node_t *var = node(m, *it);
            const char *key = scalar(get(m, var, "name")), *value = scalar(get(m, var, "value"));
            if (!key) continue;
            char text[KVC_NOTE_LEN];
            str_printf(text, sizeof text, "%s=%s", key, value ? value : "(valueFrom)");
            at_node(m, var, &o);
            st = recipe_value_add(&e->env, &e->nenv, text, &o, m->diag);
        }
        (*found)++;
    }
    launches_free(l, n);
    shell_script_free(&script);
    return st;
}

/* Follows `path` from `n`, the names of '*' steps appended to `name`. */
static kvc_status walk(manifest *m, const yaml_node_t *n, const char *path, char *name, size_t *found)
{
    if (!n) return KVC_OK;
    if (!*path) return container(m, n, name, found);
    const char *dot = strchr(path, '.');
    size_t seg = dot ? (size_t)(dot - path) : strlen(path);
    const char *rest = dot ? dot + 1 : "";
    size_t len = strlen(name);
    if (!(seg == 1 && path[0] == '*')) {
        char key[64];
        str_printf(key, sizeof key, "%.*s", (int)seg, path);
        return walk(m, get(m, n, key), rest, name, found);
    }
    if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            str_printf(name + len, KVC_NAME_LEN * 3 - len, "/%s", scalar(node(m, p->key)) ? scalar(node(m, p->key)) : "?");
            RETURN_IF_ERROR(walk(m, node(m, p->value), rest, name, found));
        }
    } else if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
            const char *item = scalar(get(m, node(m, *i), "name"));
            if (item) str_printf(name + len, KVC_NAME_LEN * 3 - len, "/%s", item);
            else str_printf(name + len, KVC_NAME_LEN * 3 - len, "/%zu", (size_t)(i - n->data.sequence.items.start));
            RETURN_IF_ERROR(walk(m, node(m, *i), rest, name, found));
        }
    }
    name[len] = '\0';
    return KVC_OK;
}

/* ------------------------------------------------------------ srt-slurm */

static int cmp_pair(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    return strcmp(x[0], y[0]);
}

/* One mode of backend.sglang_config, as srtctl's _config_to_cli_args makes
 * it flags: keys sorted, '_' as '-', true a switch, false and null
 * nothing, a list the flag then str() of each item, other values str()
 * (a mapping: its JSON); prefill and decode get --disaggregation-mode first. */
static kvc_status srt_mode(manifest *m, const yaml_node_t *key, const yaml_node_t *cfg, words *w)
{
    const char *mode = scalar(key);
    kvc_origin o;
    at_node(m, key, &o);
    RETURN_ERROR_IF(!cfg || cfg->type != YAML_MAPPING_NODE, m->diag, KVC_ERR_CONFIG, &o,
                    "backend.sglang_config.%s must be a mapping of SGLang flags to values", mode ? mode : "?");
    if (strcmp(mode, "prefill") == 0 || strcmp(mode, "decode") == 0) {
        words_add(w, dup_text("--disaggregation-mode"), &o);
        words_add(w, dup_text(mode), &o);
    }
    size_t n = (size_t)(cfg->data.mapping.pairs.top - cfg->data.mapping.pairs.start);
    const void **sorted = calloc(2 * n + 1, sizeof *sorted);
    RETURN_ERROR_IF(!sorted, m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const yaml_node_t *k = node(m, cfg->data.mapping.pairs.start[i].key);
        sorted[2 * i] = scalar(k) ? scalar(k) : "";
        sorted[2 * i + 1] = &cfg->data.mapping.pairs.start[i];
    }
    qsort(sorted, n, 2 * sizeof *sorted, cmp_pair);
    kvc_status st = KVC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const yaml_node_pair_t *p = sorted[2 * i + 1];
        const yaml_node_t *k = node(m, p->key), *v = node(m, p->value);
        at_node(m, k, &o);
        char *flag = malloc(strlen(sorted[2 * i]) + 3);
        if (!flag) {
            st = diag_set(m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        str_printf(flag, strlen(sorted[2 * i]) + 3, "--%s", (const char *)sorted[2 * i]);
        for (char *c = flag + 2; *c; c++)
            if (*c == '_') *c = '-';
        int b = 0;
        if (v->type == YAML_SCALAR_NODE && plain(v) && (pyyaml_null(scalar(v), 1) || (pyyaml_bool(scalar(v), &b) && !b))) {
            free(flag);
            continue;
        }
        words_add(w, flag, &o);
        if (v->type == YAML_SCALAR_NODE && plain(v) && pyyaml_bool(scalar(v), &b)) continue;
        if (v->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top && !st; it++) {
                const yaml_node_t *item = node(m, *it);
                kvc_origin io;
                at_node(m, item, &io);
                if (item->type == YAML_SCALAR_NODE) words_add(w, pyyaml_str(scalar(item), plain(item)), &io);
                else st = item_word(m, item, w);
            }
        } else if (v->type == YAML_SCALAR_NODE) {
            kvc_origin vo;
            at_node(m, v, &vo);
            words_add(w, pyyaml_str(scalar(v), plain(v)), &vo);
        } else {
            st = item_word(m, v, w);
        }
    }
    free(sorted);
    if (!st && w->oom) st = diag_set(m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
    return st;
}

/* backend.sglang_config: a worker per mode, with the mode's environment,
 * the container image's release and resources.gpu_type. */
static kvc_status srt_slurm(manifest *m, const yaml_node_t *root, size_t *found)
{
    const yaml_node_t *backend = get(m, root, "backend"), *cfg = get(m, backend, "sglang_config");
    if (!cfg || cfg->type != YAML_MAPPING_NODE) return KVC_OK;
    m->recipe = "srt-slurm recipe";
    const yaml_node_t *image = get(m, get(m, root, "model"), "container");
    const yaml_node_t *gpu = get(m, get(m, root, "resources"), "gpu_type");
    char version[KVC_NAME_LEN];
    kvc_status st = KVC_OK;
    for (yaml_node_pair_t *p = cfg->data.mapping.pairs.start; p < cfg->data.mapping.pairs.top && !st; p++) {
        const yaml_node_t *key = node(m, p->key);
        const char *mode = scalar(key);
        if (!mode) continue;
        words w = {0};
        recipe_entry *e = NULL;
        st = srt_mode(m, key, node(m, p->value), &w);
        if (!st && !(e = recipe_add(m->r, "%s", mode))) st = diag_set(m->diag, KVC_ERR_NOMEM, NULL, "out of memory");
        if (!st)
            st = shell_script_from_words((const char *const *)w.text, w.lines, w.columns, w.n, &e->own, m->diag);
        words_free(&w);
        if (st) break;
        e->launch = (launch){.command = 0, .program = 0, .end = e->own.words.n, .image = SIZE_MAX};
        kvc_origin o;
        if (scalar(image) && engine_image_release(engine_default(), scalar(image), version, sizeof version)) {
            at_node(m, image, &o);
            str_printf(o.where, sizeof o.where, "container %s", scalar(image));
            st = recipe_value_set(&e->release, version, &o, m->diag);
        }
        if (!st && scalar(gpu)) {
            at_node(m, gpu, &o);
            st = recipe_value_set(&e->gpu, scalar(gpu), &o, m->diag);
        }
        char env_key[KVC_NAME_LEN];
        str_printf(env_key, sizeof env_key, "%s_environment", mode);
        const yaml_node_t *env = get(m, backend, env_key);
        for (yaml_node_pair_t *v = env && env->type == YAML_MAPPING_NODE ? env->data.mapping.pairs.start : NULL;
             !st && v && v < env->data.mapping.pairs.top; v++) {
            char text[KVC_NOTE_LEN];
            str_printf(text, sizeof text, "%s=%s", scalar(node(m, v->key)) ? scalar(node(m, v->key)) : "?",
                       scalar(node(m, v->value)) ? scalar(node(m, v->value)) : "");
            at_node(m, node(m, v->key), &o);
            st = recipe_value_add(&e->env, &e->nenv, text, &o, m->diag);
        }
        (*found)++;
    }
    return st;
}

/* ------------------------------------------------------------ documents */

static kvc_status document(manifest *m, size_t *found)
{
    const yaml_node_t *root = yaml_document_get_root_node(m->doc);
    if (!root || root->type != YAML_MAPPING_NODE) return KVC_OK;
    if (get(m, root, "backend")) return srt_slurm(m, root, found);
    const char *kind = scalar(get(m, root, "kind"));
    const char *meta = scalar(get(m, get(m, root, "metadata"), "name"));
    size_t before = *found;
    for (size_t i = 0; kind && i < COUNT_OF(PLACES); i++) {
        if (strcmp(PLACES[i].kind, kind) != 0 || (PLACES[i].fallback && *found > before)) continue;
        char name[KVC_NAME_LEN * 3];
        str_printf(name, sizeof name, "%s/%s", kind, meta ? meta : "?");
        if (!m->recipe || strcmp(PLACES[i].recipe, "Dynamo graph") == 0) m->recipe = PLACES[i].recipe;
        RETURN_IF_ERROR(walk(m, root, PLACES[i].path, name, found));
    }
    return KVC_OK;
}

static kvc_status parse_error(const kvc_recipe *r, const yaml_parser_t *p, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, r->path, (unsigned)p->problem_mark.line + 1, (unsigned)p->problem_mark.column + 1, "");
    return diag_set(diag, KVC_ERR_CONFIG, &o, "malformed YAML in %s at line %u, column %u: %s", r->path, o.line,
                    o.column, p->problem ? p->problem : "cannot parse");
}

kvc_status manifest_read(kvc_recipe *r, int yaml, int *found, kvc_diag *diag)
{
    *found = 0;
    yaml_parser_t parser;
    RETURN_ERROR_IF(!yaml_parser_initialize(&parser), diag, KVC_ERR_NOMEM, NULL, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)r->text, r->len);
    manifest m = {.r = r, .diag = diag};
    size_t workers = 0, docs = 0;
    kvc_status st = KVC_OK;
    for (;;) {
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc)) {
            /* text that is no YAML is some other kind of file, unless it must be YAML */
            st = yaml ? parse_error(r, &parser, diag) : KVC_OK;
            docs = 0;
            break;
        }
        int end = !yaml_document_get_root_node(&doc);
        m.doc = &doc;
        if (!end) {
            docs++;
            st = document(&m, &workers);
        }
        yaml_document_delete(&doc);
        if (end || st) break;
    }
    yaml_parser_delete(&parser);
    if (st || (!workers && !yaml)) return st;
    kvc_origin o;
    origin_set(&o, r->path, 0, 0, "");
    RETURN_ERROR_IF(!workers && m.recipe, diag, KVC_ERR_CONFIG, &o,
                    "%s (%s): none of its containers starts %s (python3 -m sglang.launch_server, sglang serve, "
                    "python3 -m dynamo.sglang)",
                    r->path, m.recipe, engine_default()->words.name);
    RETURN_ERROR_IF(!workers, diag, KVC_ERR_CONFIG, &o,
                    "%s holds %zu YAML document%s, none of them a recipe kvcheck reads: a Dynamo graph "
                    "(DynamoGraphDeployment), a Kubernetes Deployment, StatefulSet, Job, Pod, LeaderWorkerSet or "
                    "RoleBasedGroup, or an srt-slurm recipe (backend.sglang_config)",
                    r->path, docs, docs == 1 ? "" : "s");
    r->kind = m.recipe;
    *found = 1;
    return KVC_OK;
}
