/* kvc_recipe: a file that describes workers, read by its kind, each
 * worker an entry that adds its inputs to a kvc_worker. */
#include "recipe/recipe.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

recipe_entry *recipe_add(kvc_recipe *r, const char *fmt, ...)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4;
        recipe_entry *e = realloc(r->entries, cap * sizeof *e);
        if (!e) return NULL;
        r->entries = e;
        r->cap = cap;
    }
    recipe_entry *e = &r->entries[r->n++];
    memset(e, 0, sizeof *e);
    e->launch.image = SIZE_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->name, sizeof e->name, fmt, ap);
    va_end(ap);
    return e;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

kvc_status recipe_value_set(recipe_value *v, const char *text, const kvc_origin *at, kvc_diag *diag)
{
    char *copy = dup_text(text);
    if (!copy) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    free(v->text);
    v->text = copy;
    v->at = *at;
    return KVC_OK;
}

kvc_status recipe_value_add(recipe_value **list, size_t *n, const char *text, const kvc_origin *at, kvc_diag *diag)
{
    recipe_value *grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    *list = grown;
    grown[*n] = (recipe_value){0};
    RETURN_IF_ERROR(recipe_value_set(&grown[*n], text, at, diag));
    (*n)++;
    return KVC_OK;
}

static void entry_free(recipe_entry *e)
{
    shell_script_free(&e->own);
    free(e->launch.env);
    for (size_t i = 0; i < e->nenv; i++) free(e->env[i].text);
    free(e->env);
    free(e->gpu.text);
    free(e->release.text);
}

void kvc_recipe_free(kvc_recipe *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) entry_free(&r->entries[i]);
    free(r->entries);
    launches_free(r->launches, r->nlaunches);
    shell_script_free(&r->script);
    free(r->text);
    free(r);
}

const char *kvc_recipe_kind(const kvc_recipe *r) { return r->kind; }
size_t kvc_recipe_worker_count(const kvc_recipe *r) { return r->n; }
const char *kvc_recipe_worker_name(const kvc_recipe *r, size_t i) { return i < r->n ? r->entries[i].name : NULL; }
const char *kvc_recipe_worker_role(const kvc_recipe *r, size_t i) { return i < r->n ? r->entries[i].role : NULL; }

/* ------------------------------------------------------------------ kinds */

/* File names end in `suffix` (ASCII case ignored). */
static int has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && str_ieq(path + n - k, suffix);
}

/* A .json file, or text that starts with an object (after white space
 * and a BOM): a worker file or a server dump. */
static int looks_json(const char *path, const char *text)
{
    if (has_suffix(path, ".json")) return 1;
    const char *p = text;
    if (strncmp(p, "\xef\xbb\xbf", 3) == 0) p += 3;
    p += strspn(p, " \t\r\n");
    return *p == '{';
}

/* Text kvcheck reads as a shell script holds no NUL byte. */
static kvc_status check_text(const kvc_recipe *r, kvc_diag *diag)
{
    const char *nul = memchr(r->text, '\0', r->len);
    if (!nul) return KVC_OK;
    unsigned line = 1, column = 1;
    for (const char *p = r->text; p < nul; p++) {
        if (*p == '\n') line++, column = 1;
        else column++;
    }
    kvc_origin o;
    origin_set(&o, r->path, line, column, "");
    return diag_set(diag, KVC_ERR_CONFIG, &o, "%s holds a NUL byte at line %u, column %u: it is no text kvcheck reads",
                    r->path, line, column);
}

/* A shell script (or pasted command text): one entry per launch command. */
static kvc_status read_script(kvc_recipe *r, kvc_diag *diag)
{
    const engine_def *e = engine_default();
    RETURN_IF_ERROR(check_text(r, diag));
    RETURN_IF_ERROR(shell_script_split(r->text, r->path, &r->script, diag));
    RETURN_IF_ERROR(launch_find(&r->script, e, r->path, &r->launches, &r->nlaunches, diag));
    kvc_origin o;
    origin_set(&o, r->path, 0, 0, "");
    RETURN_ERROR_IF(!r->nlaunches, diag, KVC_ERR_CONFIG, &o,
                    "%s holds no %s launch command (python3 -m sglang.launch_server, sglang serve, python3 -m "
                    "dynamo.sglang) and is no kvcheck worker file, server_args log or deployment recipe kvcheck reads",
                    r->path, e->words.name);
    r->kind = "shell script";
    for (size_t i = 0; i < r->nlaunches; i++) {
        recipe_entry *entry = recipe_add(r, "line %u", r->script.words.lines[r->launches[i].program]);
        RETURN_ERROR_IF(!entry, diag, KVC_ERR_NOMEM, NULL, "out of memory");
        entry->script = &r->script;
        entry->launch = r->launches[i];
        r->launches[i].env = NULL; /* the entry owns it now */
    }
    return KVC_OK;
}

/* Each worker's role, for finding prefill and decode among several. */
static kvc_status read_roles(kvc_recipe *r, kvc_diag *diag)
{
    for (size_t i = 0; i < r->n; i++) {
        kvc_worker *w = kvc_worker_create(r->path);
        RETURN_ERROR_IF(!w, diag, KVC_ERR_NOMEM, NULL, "out of memory");
        kvc_status st = kvc_recipe_worker_load(r, i, w, diag);
        if (!st) st = worker_role(w, r->entries[i].role, sizeof r->entries[i].role, diag);
        kvc_worker_free(w);
        RETURN_IF_ERROR(st);
    }
    return KVC_OK;
}

kvc_status kvc_recipe_load(const char *path, kvc_recipe **out, kvc_diag *diag)
{
    RETURN_ERROR_IF(!path || !out, diag, KVC_ERR_USAGE, NULL, "kvc_recipe_load needs a path and a place for the recipe");
    *out = NULL;
    kvc_recipe *r = calloc(1, sizeof *r);
    RETURN_ERROR_IF(!r, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = path_join_checked(NULL, path, r->path, sizeof r->path, NULL, diag);
    int log = 0;
    if (!st) {
        path_dirname(path, r->dir, sizeof r->dir);
        if (!has_suffix(r->path, ".json")) st = log_read(r, &log, diag);
    }
    if (!st && !log) st = file_read_all(path, &r->text, &r->len, diag);
    if (!st && !log && looks_json(r->path, r->text)) {
        r->kind = "worker file";
        st = recipe_add(r, "%s", "worker") ? KVC_OK : diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    } else if (!st && !log) {
        int yaml = has_suffix(r->path, ".yaml") || has_suffix(r->path, ".yml"), recipe = 0;
        st = manifest_read(r, yaml, &recipe, diag);
        if (!st && !recipe) st = read_script(r, diag);
    }
    if (!st && r->n > 1) st = read_roles(r, diag);
    if (st) {
        kvc_recipe_free(r);
        return st;
    }
    *out = r;
    return KVC_OK;
}

kvc_status kvc_recipe_worker_load(const kvc_recipe *r, size_t i, kvc_worker *w, kvc_diag *diag)
{
    RETURN_ERROR_IF(!r || !w || i >= r->n, diag, KVC_ERR_USAGE, NULL,
                    "kvc_recipe_worker_load needs a recipe, one of its %zu workers and a worker", r ? r->n : 0);
    if (strcmp(r->kind, "worker file") == 0) return kvc_worker_load_file(w, r->path, diag);
    const recipe_entry *e = &r->entries[i];
    worker_set_base_dir(w, r->dir);
    if (e->release.text) {
        char at[KVC_PATH_LEN], from[KVC_PATH_LEN];
        origin_format(&e->release.at, at, sizeof at);
        str_printf(from, sizeof from, "%s (%s)", at, e->release.at.where);
        RETURN_IF_ERROR(worker_set_release_from(w, e->release.text, from, diag));
    }
    if (e->gpu.text) RETURN_IF_ERROR(worker_set_gpu_at(w, e->gpu.text, &e->gpu.at, diag));
    for (size_t k = 0; k < e->nenv; k++) RETURN_IF_ERROR(worker_add_env(w, e->env[k].text, &e->env[k].at, diag));
    if (e->log_line) {
        kvc_origin where;
        origin_set(&where, r->path, (unsigned)e->log_line, e->log_column, "");
        if (e->log_records > 1)
            worker_add_warning(w, "%s holds %zu %s lines (the server started %zu times): settings read from the last, "
                                  "line %zu",
                               r->path, e->log_records, engine_default()->words.log_marker, e->log_records,
                               e->log_line);
        RETURN_IF_ERROR(worker_add_log(w, r->text, r->len, &where, diag));
    }
    return e->launch.end ? worker_add_launch(w, e->script ? e->script : &e->own, &e->launch, r->path, diag) : KVC_OK;
}
