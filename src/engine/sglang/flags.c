/* Engine launch flags: command lines, JSON word lists, server_info keys and
 * SGLang --config YAML files all become one ordered list of flags, then one
 * set of settings (later wins, config files first). */
#include "engine/sglang/sglang.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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

/* Splits like a POSIX shell: quotes, backslash escapes, "\\\n" continuations. */
kvc_status args_parse_line(arglist *list, const char *line, const char *origin_name,
                           kvc_diag *diag)
{
    size_t len = strlen(line);
    char *buf = malloc(len + 1);
    char **words = malloc((len / 2 + 2) * sizeof *words);
    kvc_origin *origins = malloc((len / 2 + 2) * sizeof *origins);
    kvc_status st = KVC_OK;
    if (!buf || !words || !origins) {
        st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        goto done;
    }
    size_t nw = 0, out = 0;
    const char *p = line;
    unsigned lineno = 1;
    const char *line_start = line;
    while (*p) {
        if (*p == '\\' && p[1] == '\n') {
            p += 2;
            lineno++;
            line_start = p;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            if (*p == '\n') {
                lineno++;
                line_start = p + 1;
            }
            p++;
            continue;
        }
        words[nw] = buf + out;
        origin_set(&origins[nw], origin_name, lineno, (unsigned)(p - line_start) + 1, "");
        char quote = 0;
        while (*p && (quote || !isspace((unsigned char)*p))) {
            if (quote) {
                if (*p == quote) {
                    quote = 0;
                    p++;
                } else if (quote == '"' && *p == '\\' && p[1]) {
                    buf[out++] = p[1];
                    p += 2;
                } else {
                    buf[out++] = *p++;
                }
            } else if (*p == '"' || *p == '\'') {
                quote = *p++;
            } else if (*p == '\\' && p[1] == '\n') {
                p += 2;
            } else if (*p == '\\' && p[1]) {
                buf[out++] = p[1];
                p += 2;
            } else {
                buf[out++] = *p++;
            }
        }
        if (quote) {
            st = diag_set(diag, KVC_ERR_CONFIG, &origins[nw],
                          "unterminated %s quote in the launch command", quote == '"' ? "double" : "single");
            goto done;
        }
        buf[out++] = '\0';
        nw++;
    }
    st = args_parse_words(list, words, origins, nw, diag);
done:
    free(buf);
    free(words);
    free(origins);
    return st;
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

/* ------------------------------------------------------------------ YAML */

static int yaml_bool(const char *s, int *out)
{
    static const char *const T[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char *const F[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    for (size_t i = 0; i < COUNT_OF(T); i++) {
        if (strcmp(s, T[i]) == 0) return *out = 1, 1;
        if (strcmp(s, F[i]) == 0) return *out = 0, 1;
    }
    return 0;
}

static int yaml_null(const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

typedef struct yaml_reader {
    yaml_parser_t parser;
    const char *path;
    kvc_diag *diag;
} yaml_reader;

static kvc_status yaml_next(yaml_reader *r, yaml_event_t *ev)
{
    if (yaml_parser_parse(&r->parser, ev)) return KVC_OK;
    kvc_origin o;
    origin_set(&o, r->path, (unsigned)r->parser.problem_mark.line + 1,
               (unsigned)r->parser.problem_mark.column + 1, "");
    return diag_set(r->diag, KVC_ERR_CONFIG, &o, "malformed YAML in %s at line %u, column %u: %s",
                    r->path, o.line, o.column,
                    r->parser.problem ? r->parser.problem : "cannot parse");
}

static void mark_origin(kvc_origin *o, const char *path, const yaml_event_t *ev, const char *key)
{
    origin_set(o, path, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1, key);
}

/* One `key: value` pair of the top-level mapping. */
static kvc_status yaml_pair(yaml_reader *r, arglist *list, const char *key, const kvc_origin *ko)
{
    yaml_event_t ev;
    kvc_status st = yaml_next(r, &ev);
    if (st) return st;
    kvc_origin vo;
    mark_origin(&vo, r->path, &ev, key);
    char flag[160];
    char name[128];
    normalize(key, name, sizeof name);
    str_printf(flag, sizeof flag, "--%s", name);
    const struct flag_def *def = find_flag(flag);
    if (ev.type == YAML_SCALAR_EVENT) {
        const char *v = (const char *)ev.data.scalar.value;
        int b = 0;
        if (yaml_null(&ev)) {
            st = KVC_OK;
        } else if (def && !def->takes_value) {
            if (!yaml_bool(v, &b))
                st = diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                              "%s: '%s' is an on/off flag; write true or false, not '%s'", r->path,
                              key, v);
            else
                st = args_add_key(list, key, NULL, b, ko, r->diag);
        } else {
            st = args_add_key(list, key, v, 1, ko, r->diag);
        }
        yaml_event_delete(&ev);
        return st;
    }
    if (ev.type == YAML_SEQUENCE_START_EVENT) {
        yaml_event_delete(&ev);
        /* Lists become repeated values: only flags kvcheck ignores take them. */
        char joined[512] = "";
        for (;;) {
            st = yaml_next(r, &ev);
            if (st) return st;
            if (ev.type == YAML_SEQUENCE_END_EVENT) break;
            if (ev.type != YAML_SCALAR_EVENT) {
                mark_origin(&vo, r->path, &ev, key);
                yaml_event_delete(&ev);
                return diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                                "%s: the list under '%s' may hold plain values only", r->path, key);
            }
            if (joined[0]) strncat(joined, " ", sizeof joined - strlen(joined) - 1);
            strncat(joined, (const char *)ev.data.scalar.value, sizeof joined - strlen(joined) - 1);
            yaml_event_delete(&ev);
        }
        yaml_event_delete(&ev);
        RETURN_ERROR_IF(def && def->key >= 0, r->diag, KVC_ERR_CONFIG, ko,
                        "%s: '%s' takes one value, not a list", r->path, key);
        return args_add_key(list, key, joined, 1, ko, r->diag);
    }
    yaml_event_delete(&ev);
    return diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                    "%s: the value of '%s' must be a plain value or a list, not a mapping (SGLang "
                    "turns each top-level key into one --flag)",
                    r->path, key);
}

kvc_status args_load_yaml(arglist *list, const char *path, kvc_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    kvc_status st = file_read_all(path, &text, &len, diag);
    if (st) return st;
    yaml_reader r = {.path = path, .diag = diag};
    if (!yaml_parser_initialize(&r.parser)) {
        free(text);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    yaml_event_t ev;
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    int depth_ok = 0;
    /* stream start, document start, mapping start */
    while (!(st = yaml_next(&r, &ev))) {
        yaml_event_type_t t = ev.type;
        mark_origin(&o, path, &ev, "");
        yaml_event_delete(&ev);
        if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) continue;
        if (t == YAML_MAPPING_START_EVENT) depth_ok = 1;
        break;
    }
    if (!st && !depth_ok)
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: an SGLang config file must be a mapping of flag names to values", path);
    char seen[64][KVC_NAME_LEN];
    unsigned nseen = 0;
    while (!st) {
        if ((st = yaml_next(&r, &ev))) break;
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        kvc_origin ko;
        mark_origin(&ko, path, &ev, "");
        if (ev.type != YAML_SCALAR_EVENT) {
            yaml_event_delete(&ev);
            st = diag_set(diag, KVC_ERR_CONFIG, &ko, "%s: keys must be flag names", path);
            break;
        }
        char key[KVC_NAME_LEN];
        str_copy(key, sizeof key, (const char *)ev.data.scalar.value);
        str_copy(ko.where, sizeof ko.where, key);
        yaml_event_delete(&ev);
        for (unsigned i = 0; i < nseen && !st; i++)
            if (strcmp(seen[i], key) == 0)
                st = diag_set(diag, KVC_ERR_CONFIG, &ko,
                              "duplicate key '%s': each flag may appear once", key);
        if (st) break;
        if (nseen < COUNT_OF(seen)) str_copy(seen[nseen++], KVC_NAME_LEN, key);
        st = yaml_pair(&r, list, key, &ko);
    }
    yaml_parser_delete(&r.parser);
    free(text);
    return st;
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
