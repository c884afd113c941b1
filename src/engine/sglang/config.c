/* SGLang's --config YAML: a mapping of flag names to values, each top-level
 * key one --flag (lists become repeated values). One document only, as
 * SGLang's yaml.safe_load takes; aliases of plain values anchored earlier
 * are resolved, aliases of lists or mappings refused. */
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

static int yaml_null(const char *s, int plain)
{
    if (!plain) return 0;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

static char *dup_str(const char *s)
{
    char *p = malloc(strlen(s) + 1);
    if (p) memcpy(p, s, strlen(s) + 1);
    return p;
}

/* An anchor seen so far: the plain value it names, or NULL for a list or a mapping. */
typedef struct anchor {
    char *name;
    char *value;
    int plain;
    const char *kind; /* "a list", "a mapping" */
} anchor;

/* A top-level key seen so far, normalised as SGLang's flag ("page-size"). */
typedef struct seen_key {
    char *norm;
    unsigned line;
} seen_key;

typedef struct yaml_reader {
    yaml_parser_t parser;
    const char *path;
    const char *text;
    size_t len;
    kvc_diag *diag;
    anchor *anchors;
    size_t nanchors, anchors_cap;
} yaml_reader;

static kvc_status nomem(yaml_reader *r) { return diag_set(r->diag, KVC_ERR_NOMEM, NULL, "out of memory"); }

/* Line and column of byte `offset` of the text, counted as libyaml's marks are. */
static void offset_position(const yaml_reader *r, size_t offset, unsigned *line, unsigned *column)
{
    unsigned l = 1, c = 1;
    for (size_t i = 0; i < offset && i < r->len; i++) {
        if (r->text[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)r->text[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *column = c;
}

static kvc_status yaml_next(yaml_reader *r, yaml_event_t *ev)
{
    if (yaml_parser_parse(&r->parser, ev)) return KVC_OK;
    kvc_origin o;
    unsigned line = (unsigned)r->parser.problem_mark.line + 1, column = (unsigned)r->parser.problem_mark.column + 1;
    char what[64] = "";
    if (r->parser.error == YAML_READER_ERROR) {
        /* The reader's errors (a NUL, invalid UTF-8) carry a byte offset, not a mark. */
        offset_position(r, r->parser.problem_offset, &line, &column);
        if (r->parser.problem_value >= 0) str_printf(what, sizeof what, " (byte 0x%02x)", r->parser.problem_value);
    }
    origin_set(&o, r->path, line, column, "");
    return diag_set(r->diag, KVC_ERR_CONFIG, &o, "malformed YAML in %s at line %u, column %u: %s%s", r->path, o.line,
                    o.column, r->parser.problem ? r->parser.problem : "cannot parse", what);
}

static void mark_origin(kvc_origin *o, const char *path, const yaml_event_t *ev, const char *key)
{
    origin_set(o, path, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1, key);
}

static kvc_status add_anchor(yaml_reader *r, const yaml_char_t *name, const char *value, int plain, const char *kind)
{
    if (!name) return KVC_OK;
    if (r->nanchors == r->anchors_cap) {
        size_t cap = r->anchors_cap ? r->anchors_cap * 2 : 8;
        anchor *a = realloc(r->anchors, cap * sizeof *a);
        if (!a) return nomem(r);
        r->anchors = a;
        r->anchors_cap = cap;
    }
    anchor *a = &r->anchors[r->nanchors];
    a->name = dup_str((const char *)name);
    a->value = value ? dup_str(value) : NULL;
    if (!a->name || (value && !a->value)) {
        free(a->name);
        free(a->value);
        return nomem(r);
    }
    a->plain = plain;
    a->kind = kind;
    r->nanchors++;
    return KVC_OK;
}

/* Records the anchor an event defines, if any. */
static kvc_status note_anchor(yaml_reader *r, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        return add_anchor(r, ev->data.scalar.anchor, (const char *)ev->data.scalar.value,
                          ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE, NULL);
    case YAML_SEQUENCE_START_EVENT: return add_anchor(r, ev->data.sequence_start.anchor, NULL, 0, "a list");
    case YAML_MAPPING_START_EVENT: return add_anchor(r, ev->data.mapping_start.anchor, NULL, 0, "a mapping");
    default: return KVC_OK;
    }
}

/* A plain value: a scalar, or an alias of a scalar anchored earlier. */
typedef struct plain_value {
    const char *text; /* NULL: not a plain value */
    int plain;        /* written without quotes (null, booleans) */
} plain_value;

static kvc_status value_of(yaml_reader *r, const yaml_event_t *ev, const kvc_origin *o, plain_value *out)
{
    out->text = NULL;
    out->plain = 0;
    if (ev->type == YAML_SCALAR_EVENT) {
        out->text = (const char *)ev->data.scalar.value;
        out->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        return KVC_OK;
    }
    if (ev->type != YAML_ALIAS_EVENT) return KVC_OK;
    const char *name = (const char *)ev->data.alias.anchor;
    for (size_t i = r->nanchors; i-- > 0;) { /* a later anchor of the same name wins */
        const anchor *a = &r->anchors[i];
        if (strcmp(a->name, name) != 0) continue;
        RETURN_ERROR_IF(!a->value, r->diag, KVC_ERR_CONFIG, o,
                        "%s: the alias *%s names %s; kvcheck resolves aliases of plain values only: write the "
                        "value out",
                        r->path, name, a->kind);
        out->text = a->value;
        out->plain = a->plain;
        return KVC_OK;
    }
    return diag_set(r->diag, KVC_ERR_CONFIG, o, "%s: the alias *%s names no anchor &%s before it", r->path, name,
                    name);
}

/* One `key: value` pair of the top-level mapping. */
static kvc_status yaml_pair(yaml_reader *r, arglist *list, const char *key, const kvc_origin *ko)
{
    yaml_event_t ev;
    kvc_status st = yaml_next(r, &ev);
    if (st) return st;
    kvc_origin vo;
    mark_origin(&vo, r->path, &ev, key);
    st = note_anchor(r, &ev);
    plain_value v;
    if (!st) st = value_of(r, &ev, &vo, &v);
    if (st || v.text) {
        int b = 0;
        if (st || yaml_null(v.text, v.plain)) {
        } else if (args_key_is_switch(key)) {
            if (!yaml_bool(v.text, &b))
                st = diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                              "%s: '%s' is an on/off flag; write true or false, not '%s'", r->path, key, v.text);
            else
                st = args_add_key(list, key, NULL, b, ko, r->diag);
        } else {
            st = args_add_key(list, key, v.text, 1, ko, r->diag);
        }
        yaml_event_delete(&ev);
        return st;
    }
    if (ev.type == YAML_SEQUENCE_START_EVENT) {
        yaml_event_delete(&ev);
        /* Lists become repeated values: only flags kvcheck ignores take them. */
        strbuf joined = {0};
        for (;;) {
            st = yaml_next(r, &ev);
            if (st) break;
            if (ev.type == YAML_SEQUENCE_END_EVENT) {
                yaml_event_delete(&ev);
                break;
            }
            mark_origin(&vo, r->path, &ev, key);
            plain_value e = {0};
            st = note_anchor(r, &ev);
            if (!st) st = value_of(r, &ev, &vo, &e);
            if (!st && !e.text)
                st = diag_set(r->diag, KVC_ERR_CONFIG, &vo, "%s: the list under '%s' may hold plain values only",
                              r->path, key);
            if (!st) {
                if (joined.len) sb_puts(&joined, " ");
                sb_puts(&joined, e.text);
            }
            yaml_event_delete(&ev);
            if (st) break;
        }
        if (!st && joined.oom) st = nomem(r);
        if (!st && args_key_is_setting(key))
            st = diag_set(r->diag, KVC_ERR_CONFIG, ko, "%s: '%s' takes one value, not a list", r->path, key);
        if (!st) st = args_add_key(list, key, joined.p ? joined.p : "", 1, ko, r->diag);
        free(joined.p);
        return st;
    }
    yaml_event_delete(&ev);
    return diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                    "%s: the value of '%s' must be a plain value or a list, not a mapping (SGLang "
                    "turns each top-level key into one --flag)",
                    r->path, key);
}

/* SGLang's flag for a key: leading dashes dropped, underscores as dashes. */
static char *normalised(const char *key)
{
    while (*key == '-') key++;
    char *n = dup_str(key);
    for (char *p = n; p && *p; p++)
        if (*p == '_') *p = '-';
    return n;
}

/* The top-level mapping, after its start event: each key once (as SGLang's
 * flag: page-size and page_size are one), each pair read. */
static kvc_status yaml_mapping(yaml_reader *r, arglist *list)
{
    strset set = {0};
    seen_key *seen = NULL;
    size_t nseen = 0, cap = 0;
    kvc_status st = KVC_OK;
    while (!st) {
        yaml_event_t ev;
        if ((st = yaml_next(r, &ev))) break;
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        kvc_origin ko;
        mark_origin(&ko, r->path, &ev, "");
        plain_value k = {0};
        st = note_anchor(r, &ev);
        if (!st) st = value_of(r, &ev, &ko, &k);
        if (!st && !k.text) st = diag_set(r->diag, KVC_ERR_CONFIG, &ko, "%s: keys must be flag names", r->path);
        char *key = st ? NULL : dup_str(k.text);
        yaml_event_delete(&ev);
        if (st) break;
        char *norm = key ? normalised(key) : NULL;
        if (nseen == cap) {
            cap = cap ? cap * 2 : 16;
            seen_key *s = realloc(seen, cap * sizeof *s);
            if (s) seen = s;
            else cap = nseen;
        }
        if (!key || !norm || nseen == cap) {
            free(key);
            free(norm);
            st = nomem(r);
            break;
        }
        seen[nseen] = (seen_key){norm, ko.line};
        int added = strset_add(&set, norm);
        if (added < 0) {
            st = nomem(r);
        } else if (!added) {
            unsigned first = 0;
            for (size_t i = 0; i < nseen && !first; i++)
                if (strcmp(seen[i].norm, norm) == 0) first = seen[i].line;
            str_copy(ko.where, sizeof ko.where, key);
            st = diag_set(r->diag, KVC_ERR_CONFIG, &ko,
                          "duplicate key '%s': the flag --%s is given at line %u already; each flag may appear once",
                          key, norm, first);
            free(norm);
        } else {
            nseen++;
            str_copy(ko.where, sizeof ko.where, key);
            st = yaml_pair(r, list, key, &ko);
        }
        free(key);
    }
    for (size_t i = 0; i < nseen; i++) free(seen[i].norm);
    free(seen);
    strset_free(&set);
    return st;
}

/* After the mapping: the document's end, then the stream's; a second
 * document is refused (SGLang's yaml.safe_load refuses it too). */
static kvc_status yaml_end(yaml_reader *r)
{
    for (;;) {
        yaml_event_t ev;
        kvc_status st = yaml_next(r, &ev);
        if (st) return st;
        yaml_event_type_t t = ev.type;
        kvc_origin o;
        mark_origin(&o, r->path, &ev, "");
        yaml_event_delete(&ev);
        if (t == YAML_STREAM_END_EVENT) return KVC_OK;
        RETURN_ERROR_IF(t == YAML_DOCUMENT_START_EVENT, r->diag, KVC_ERR_CONFIG, &o,
                        "%s holds a second YAML document at line %u: an SGLang config file is one document "
                        "(yaml.safe_load refuses more)",
                        r->path, o.line);
    }
}

kvc_status args_load_yaml(arglist *list, const char *path, kvc_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    kvc_status st = file_read_all(path, &text, &len, diag);
    if (st) return st;
    yaml_reader r = {.path = path, .text = text, .len = len, .diag = diag};
    if (!yaml_parser_initialize(&r.parser)) {
        free(text);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    yaml_event_t ev;
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    int mapping = 0;
    /* stream start, document start, mapping start */
    while (!(st = yaml_next(&r, &ev))) {
        yaml_event_type_t t = ev.type;
        mark_origin(&o, path, &ev, "");
        if (t == YAML_MAPPING_START_EVENT) st = note_anchor(&r, &ev);
        yaml_event_delete(&ev);
        if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) continue;
        mapping = t == YAML_MAPPING_START_EVENT;
        break;
    }
    if (!st && !mapping)
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: an SGLang config file must be a mapping of flag names to values", path);
    if (!st) st = yaml_mapping(&r, list);
    if (!st) st = yaml_end(&r);
    for (size_t i = 0; i < r.nanchors; i++) {
        free(r.anchors[i].name);
        free(r.anchors[i].value);
    }
    free(r.anchors);
    yaml_parser_delete(&r.parser);
    free(text);
    return st;
}
