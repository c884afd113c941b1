/* SGLang's launch flags: command-line words, server_info keys and --config
 * YAML keys all become one ordered list of flags, then one set of settings
 * (later wins, config files first). */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

/* Flags kvcheck understands. `key` -1: known, cannot change the layout;
 * listed so the parser knows it takes no value. */
static const struct flag_def {
    const char *name;  /* canonical spelling, kebab-case */
    const char *alias; /* an older spelling SGLang still accepts */
    int key;
    int takes_value;
} FLAGS[] = {
    {"--kv-cache-dtype", NULL, SET_KV_CACHE_DTYPE, 1},
    {"--dsa-prefill-backend", "--nsa-prefill-backend", SET_PREFILL_BACKEND, 1},
    {"--dsa-decode-backend", "--nsa-decode-backend", SET_DECODE_BACKEND, 1},
    {"--page-size", NULL, SET_PAGE_SIZE, 1},
    {"--disaggregation-mode", NULL, SET_DISAGG_MODE, 1},
    {"--enable-hisparse", NULL, SET_HISPARSE, 0},
    {"--disable-radix-cache", NULL, SET_DISABLE_RADIX, 0},
    {"--speculative-algorithm", NULL, SET_SPEC_ALGO, 1},
    {"--tp-size", "--tp", SET_TP, 1},
    {"--dp-size", "--dp", SET_DP, 1},
    {"--enable-dp-attention", NULL, SET_DP_ATTENTION, 0},
    {"--model-path", "--model", SET_MODEL_PATH, 1},
    {"--config", NULL, SET_CONFIG, 1},
    {"--trust-remote-code", NULL, -1, 0},
    {"--disable-cuda-graph", NULL, -1, 0},
    {"--enable-metrics", NULL, -1, 0},
    {"--skip-server-warmup", NULL, -1, 0},
    {"--enable-cache-report", NULL, -1, 0},
    {"--enable-nan-detection", NULL, -1, 0},
    {"--disable-overlap-schedule", NULL, -1, 0},
};

const char *setting_flag(setting_key key)
{
    for (size_t i = 0; i < COUNT_OF(FLAGS); i++)
        if (FLAGS[i].key == (int)key) return FLAGS[i].name;
    return "--?";
}

/* "--NSA_Decode_Backend" -> "nsa-decode-backend" */
static void normalize(const char *flag, char *out, size_t size)
{
    while (*flag == '-') flag++;
    size_t n = 0;
    for (; *flag && n + 1 < size; flag++) out[n++] = *flag == '_' ? '-' : *flag;
    out[n] = '\0';
}

static const struct flag_def *find_flag(const char *flag)
{
    char name[128];
    normalize(flag, name, sizeof name);
    for (size_t i = 0; i < COUNT_OF(FLAGS); i++)
        if (strcmp(name, FLAGS[i].name + 2) == 0 || (FLAGS[i].alias && strcmp(name, FLAGS[i].alias + 2) == 0))
            return &FLAGS[i];
    return NULL;
}

static const struct flag_def *find_key(const char *key)
{
    char flag[160], name[128];
    normalize(key, name, sizeof name);
    str_printf(flag, sizeof flag, "--%s", name);
    return find_flag(flag);
}

int args_key_is_switch(const char *key)
{
    const struct flag_def *def = find_key(key);
    return def && !def->takes_value;
}

int args_key_is_setting(const char *key)
{
    const struct flag_def *def = find_key(key);
    return def && def->key >= 0;
}

void arglist_free(arglist *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free(list->v[i].flag);
        free(list->v[i].value);
    }
    free(list->v);
    memset(list, 0, sizeof *list);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static kvc_status push(arglist *list, int key, const char *flag, size_t flag_len,
                       const char *value, const kvc_origin *origin, kvc_diag *diag)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        kv_arg *v = realloc(list->v, cap * sizeof *v);
        if (!v) return diag_set(diag, KVC_ERR_NOMEM, origin, "out of memory");
        list->v = v;
        list->cap = cap;
    }
    kv_arg *a = &list->v[list->n];
    memset(a, 0, sizeof *a);
    a->key = key;
    a->flag = dup_n(flag, flag_len);
    a->value = value ? dup_n(value, strlen(value)) : NULL;
    a->origin = *origin;
    if (!a->flag || (value && !a->value)) {
        free(a->flag);
        free(a->value);
        return diag_set(diag, KVC_ERR_NOMEM, origin, "out of memory");
    }
    list->n++;
    return KVC_OK;
}

static int is_flag_word(const char *w) { return w[0] == '-' && w[1] == '-' && w[2]; }

kvc_status args_parse_words(arglist *list, char **words, const kvc_origin *origins, size_t n,
                            kvc_diag *diag)
{
    size_t i = 0;
    while (i < n && !is_flag_word(words[i])) i++; /* "python3 -m sglang.launch_server" */
    while (i < n) {
        const char *w = words[i];
        const kvc_origin *o = &origins[i];
        RETURN_ERROR_IF(!is_flag_word(w), diag, KVC_ERR_CONFIG, o,
                        "unexpected word '%s': SGLang takes no positional arguments here; is a "
                        "flag name missing before it?",
                        w);
        const char *eq = strchr(w, '=');
        size_t flag_len = eq ? (size_t)(eq - w) : strlen(w);
        char name[128];
        str_copy(name, sizeof name, w);
        if (eq && flag_len < sizeof name) name[flag_len] = '\0';
        const struct flag_def *def = find_flag(name);
        kvc_origin fo = *o;
        if (!fo.where[0]) str_copy(fo.where, sizeof fo.where, name);
        i++;
        if (def && !def->takes_value) {
            RETURN_ERROR_IF(eq != NULL, diag, KVC_ERR_CONFIG, &fo,
                            "%s takes no value (SGLang: ignored explicit argument '%s'); write it "
                            "alone to enable it",
                            name, eq + 1);
            kvc_status st = push(list, def->key, name, strlen(name), NULL, &fo, diag);
            if (st) return st;
            continue;
        }
        if (def) {
            const char *value = eq ? eq + 1 : NULL;
            if (!value) {
                RETURN_ERROR_IF(i >= n || is_flag_word(words[i]), diag, KVC_ERR_CONFIG, &fo,
                                "%s needs a value (SGLang: expected one argument)", name);
                value = words[i++];
            }
            kvc_status st = push(list, def->key, name, strlen(name), value, &fo, diag);
            if (st) return st;
            continue;
        }
        /* Unknown flag: it takes the words up to the next flag, if any. */
        char value[512] = "";
        if (eq) str_copy(value, sizeof value, eq + 1);
        while (i < n && !is_flag_word(words[i])) {
            if (value[0]) strncat(value, " ", sizeof value - strlen(value) - 1);
            strncat(value, words[i++], sizeof value - strlen(value) - 1);
        }
        kvc_status st = push(list, -1, name, strlen(name), value[0] || eq ? value : NULL, &fo, diag);
        if (st) return st;
    }
    return KVC_OK;
}

kvc_status args_add_key(arglist *list, const char *key, const char *value, int present,
                        const kvc_origin *origin, kvc_diag *diag)
{
    char flag[160];
    char name[128];
    normalize(key, name, sizeof name);
    str_printf(flag, sizeof flag, "--%s", name);
    const struct flag_def *def = find_flag(flag);
    kvc_origin fo = *origin;
    if (!fo.where[0]) str_copy(fo.where, sizeof fo.where, key);
    if (def && !def->takes_value) {
        if (!present) return KVC_OK; /* store_true flags appear only when true */
        return push(list, def->key, flag, strlen(flag), NULL, &fo, diag);
    }
    if (!present) return KVC_OK; /* null: not set */
    return push(list, def ? def->key : -1, flag, strlen(flag), value, &fo, diag);
}

/* ------------------------------------------------------------- settings */

static kvc_status fold(const arglist *list, settings *out, unsigned *ignored_total)
{
    for (size_t i = 0; i < list->n; i++) {
        const kv_arg *a = &list->v[i];
        char where[600];
        origin_format(&a->origin, where, sizeof where);
        if (a->key < 0) {
            (*ignored_total)++;
            notes_add(out->ignored, &out->nignored, KVC_MAX_NOTES - 1, "%s%s%s (%s)", a->flag,
                      a->value ? " " : "", a->value ? a->value : "", where);
            continue;
        }
        setting *s = &out->s[a->key];
        s->set = 1;
        str_copy(s->value, sizeof s->value, a->value ? a->value : "");
        str_copy(s->flag, sizeof s->flag, a->flag);
        s->origin = a->origin;
    }
    return KVC_OK;
}

kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir,
                          settings *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    unsigned ignored = 0;
    /* A --config on the command line is read like a worker file's "config". */
    arglist from_flag = {0};
    for (size_t i = 0; i < cli->n; i++) {
        if (cli->v[i].key != SET_CONFIG) continue;
        char path[1024];
        path_join(base_dir, cli->v[i].value, path, sizeof path);
        kvc_status st = args_load_yaml(&from_flag, path, diag);
        if (st) {
            arglist_free(&from_flag);
            return st;
        }
    }
    fold(config, out, &ignored);
    fold(&from_flag, out, &ignored);
    fold(cli, out, &ignored);
    arglist_free(&from_flag);
    if (ignored > out->nignored)
        notes_add(out->ignored, &out->nignored, KVC_MAX_NOTES, "... and %u more",
                  ignored - out->nignored);
    return KVC_OK;
}
