/* SGLang's --config YAML: a mapping of flag names to values, each top-level
 * key one --flag (lists become repeated values). */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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
    if (ev.type == YAML_SCALAR_EVENT) {
        const char *v = (const char *)ev.data.scalar.value;
        int b = 0;
        if (yaml_null(&ev)) {
            st = KVC_OK;
        } else if (args_key_is_switch(key)) {
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
        RETURN_ERROR_IF(args_key_is_setting(key), r->diag, KVC_ERR_CONFIG, ko,
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

