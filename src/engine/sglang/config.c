/* SGLang's --config YAML: a mapping of flag names to values, each top-level
 * key one --flag (lists become repeated values). One document only, as
 * SGLang's yaml.safe_load takes; aliases of plain values anchored earlier
 * are resolved, aliases of lists or mappings refused. */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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

/* Skips a list or mapping whose start event was read. */
static kvc_status skip_node(yaml_reader *r)
{
    for (int depth = 1; depth > 0;) {
        yaml_event_t ev;
        RETURN_IF_ERROR(yaml_next(r, &ev));
        kvc_status st = note_anchor(r, &ev);
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) depth++;
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
        yaml_event_delete(&ev);
        RETURN_IF_ERROR(st);
    }
    return KVC_OK;
}

/* A scalar entry: a YAML boolean, or str() of the value. */
static kvc_status push_scalar(yaml_reader *r, arglist *list, arg_kind kind, const char *key,
                              const plain_value *v, const kvc_origin *o)
{
    int b = 0;
    if (v->plain && pyyaml_bool(v->text, &b)) {
        if (kind == ARG_YAML_ITEM) return args_push(list, kind, b ? "True" : "False", NULL, o, r->diag);
        return args_push(list, b ? ARG_YAML_TRUE : ARG_YAML_FALSE, key, NULL, o, r->diag);
    }
    char *text = pyyaml_str(v->text, v->plain);
    if (!text) return nomem(r);
    kvc_status st = kind == ARG_YAML_ITEM ? args_push(list, kind, text, NULL, o, r->diag)
                                          : args_push(list, kind, key, text, o, r->diag);
    free(text);
    return st;
}

/* One `key: value` pair of the top-level mapping, as an entry (a list's
 * items follow it). */
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
    yaml_event_type_t type = ev.type;
    if (!st && v.text) st = push_scalar(r, list, ARG_YAML_SCALAR, key, &v, ko);
    yaml_event_delete(&ev);
    if (st || v.text) return st;
    if (type == YAML_MAPPING_START_EVENT) {
        /* SGLang passes json.dumps(value) (str(value) before 0.5.8): text no
         * layout flag takes, so kvcheck keeps a stand-in */
        st = args_push(list, ARG_YAML_MAPPING, key, "{...}", ko, r->diag);
        return st ? st : skip_node(r);
    }
    RETURN_IF_ERROR(args_push(list, ARG_YAML_LIST, key, NULL, ko, r->diag));
    for (;;) {
        if ((st = yaml_next(r, &ev))) return st;
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            return KVC_OK;
        }
        mark_origin(&vo, r->path, &ev, key);
        plain_value e = {0};
        st = note_anchor(r, &ev);
        if (!st) st = value_of(r, &ev, &vo, &e);
        if (!st && !e.text)
            st = diag_set(r->diag, KVC_ERR_CONFIG, &vo,
                          "%s: the list under '%s' holds a list or a mapping; kvcheck reads lists of plain values "
                          "only (SGLang passes str() of each item)",
                          r->path, key);
        if (!st) st = push_scalar(r, list, ARG_YAML_ITEM, key, &e, &vo);
        yaml_event_delete(&ev);
        if (st) return st;
    }
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

/* ----------------------------------------------- the release's merger */

/* How a release's ConfigArgumentMerger turns the YAML into argv words. */
typedef enum merger_era {
    /* 0.5.3-0.5.7: true → "--key", false → nothing, whatever the flag; no
     * action check. prepare_server_args means to pass the store_true dests
     * (read from `action.action`, which argparse actions do not have): the
     * list is always empty (sglang 0.5.7: python/sglang/srt/server_args.py:4979-4990;
     * sglang 0.5.3: srt/server_args_config_parser.py:128-136) */
    MERGER_0_5_3,
    /* 0.5.8-0.5.22: store_true and unsupported actions by dest, so a dest
     * shared with a deprecated alias is refused: 0.5.13-0.5.19 refuse
     * "dsa-prefill-backend:" (sglang 0.5.8: srt/server_args_config_parser.py:19-49,
     * :140-175; 0.5.19: srt/utils/server_args_config_parser.py:141-175) */
    MERGER_0_5_8,
    /* 0.5.23: by dest and every long spelling; one-value actions supported,
     * and a key a supported action reads stays usable
     * (sglang 0.5.23: srt/utils/server_args_config_parser.py:17-67, :164-199) */
    MERGER_0_5_23,
} merger_era;

static merger_era merger_of(unsigned release)
{
    static const struct {
        const char *since;
        merger_era era;
    } ERAS[] = {{"0.5.23", MERGER_0_5_23}, {"0.5.8", MERGER_0_5_8}};
    for (size_t i = 0; i < COUNT_OF(ERAS); i++) {
        int since = sglang_release_index(ERAS[i].since);
        if (since >= 0 && release <= (unsigned)since) return ERAS[i].era;
    }
    return MERGER_0_5_3;
}

/* A key the merger reads for an action: its dest, and from 0.5.23 each
 * long option with '-' as '_' (srt/utils/server_args_config_parser.py
 * _config_keys). Sorted by key, then by registration order. */
typedef struct config_key {
    char key[KVC_NAME_LEN];
    const sglang_flag_def *def;
    unsigned order;
} config_key;

typedef struct config_keys {
    config_key *v;
    size_t n, cap;
} config_keys;

static int cmp_key(const void *a, const void *b)
{
    const config_key *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int add_key(config_keys *keys, const char *key, size_t n, const sglang_flag_def *def, unsigned order)
{
    if (n >= KVC_NAME_LEN) return 0; /* longer than any flag: never a key */
    if (array_reserve(&keys->v, &keys->cap, keys->n, sizeof *keys->v)) return -1;
    config_key *k = &keys->v[keys->n++];
    for (size_t i = 0; i < n; i++) k->key[i] = key[i] == '-' ? '_' : key[i];
    k->key[n] = '\0';
    k->def = def;
    k->order = order;
    return 0;
}

static int config_keys_build(config_keys *keys, unsigned release, merger_era era)
{
    const sglang_parser_def *p = &SGLANG_PARSERS[release];
    for (unsigned i = 0; i < p->n; i++) {
        const sglang_flag_row *row = &SGLANG_FLAG_ROWS[p->order[i]];
        const sglang_flag_def *def = &SGLANG_FLAG_DEFS[row->def];
        if (add_key(keys, def->dest, strlen(def->dest), def, i)) return -1;
        if (era >= MERGER_0_5_23 && row->option[1] == '-' &&
            add_key(keys, row->option + 2, strlen(row->option + 2), def, i))
            return -1;
    }
    qsort(keys->v, keys->n, sizeof *keys->v, cmp_key);
    return 0;
}

static int is_class(const sglang_flag_def *def, const char *cls) { return strcmp(def->action_class, cls) == 0; }

static int merger_supports(const sglang_flag_def *def, merger_era era)
{
    if (is_class(def, "_StoreTrueAction") || is_class(def, "_StoreAction")) return 1;
    return era >= MERGER_0_5_23 && def->nargs == SGN_ONE;
}

static int merger_exempt(const sglang_flag_def *def)
{
    return strstr(def->names, "--config") || strstr(def->names, "--help");
}

/* What the merger knows of `key`: whether it is a store_true key, and the
 * action it refuses the key for (the last one, as its dict keeps), or NULL. */
static void merger_lookup(const config_keys *keys, merger_era era, const char *key, int *store_true,
                          const sglang_flag_def **unsupported)
{
    size_t lo = 0, hi = keys->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(keys->v[mid].key, key) < 0) lo = mid + 1;
        else hi = mid;
    }
    int supported_key = 0;
    *store_true = 0;
    *unsupported = NULL;
    for (size_t i = lo; i < keys->n && strcmp(keys->v[i].key, key) == 0; i++) {
        const sglang_flag_def *def = keys->v[i].def;
        if (is_class(def, "_StoreTrueAction")) *store_true = 1;
        if (merger_supports(def, era)) supported_key = 1;
        else if (!merger_exempt(def)) *unsupported = def;
    }
    /* 0.5.23: "a key a supported flag also reads, e.g. a shared dest, stays usable" */
    if (era >= MERGER_0_5_23 && supported_key) *unsupported = NULL;
}

static kvc_status push_word(arglist *out, const char *text, const kv_arg *from, kvc_diag *diag)
{
    kvc_origin o;
    arg_origin(from, &o);
    return args_push(out, ARG_WORD, text, NULL, &o, diag);
}

static kvc_status convert(const arglist *yaml, unsigned release, merger_era era, const config_keys *keys,
                          arglist *out, kvc_diag *diag)
{
    for (size_t i = 0; i < yaml->n; i++) {
        const kv_arg *a = &yaml->v[i];
        if (a->kind == ARG_YAML_ITEM || a->kind == ARG_WORD || a->kind == ARG_DUMP) continue;
        char *key = normalised(a->text);
        if (!key) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        for (char *p = key; *p; p++)
            if (*p == '-') *p = '_';
        int store_true = 0;
        const sglang_flag_def *bad = NULL;
        if (era >= MERGER_0_5_8) merger_lookup(keys, era, key, &store_true, &bad);
        kvc_origin o;
        arg_origin(a, &o);
        kvc_status st = KVC_OK;
        if (bad)
            st = diag_set(diag, KVC_ERR_CONFIG, &o,
                          "SGLang %s stops: ValueError: Unsupported config option '%s' with action '%s'",
                          SGLANG_VERSIONS[release], key, bad->action_class);
        free(key);
        RETURN_IF_ERROR(st);
        strbuf flag = {0};
        sb_printf(&flag, "--%s", a->text); /* the key as written: "page_size" makes --page_size */
        if (flag.oom) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        int on = a->kind == ARG_YAML_TRUE;
        int is_bool = on || a->kind == ARG_YAML_FALSE;
        int alone = is_bool && (era == MERGER_0_5_3 || (era >= MERGER_0_5_8 && store_true));
        if (is_bool && alone) {
            if (on) st = push_word(out, flag.p, a, diag);
        } else if (is_bool) {
            st = push_word(out, flag.p, a, diag);
            if (!st) st = push_word(out, on ? "true" : "false", a, diag);
        } else if (a->kind == ARG_YAML_LIST) {
            size_t end = i + 1;
            while (end < yaml->n && yaml->v[end].kind == ARG_YAML_ITEM) end++;
            if (end > i + 1) st = push_word(out, flag.p, a, diag); /* an empty list adds nothing */
            for (size_t k = i + 1; k < end && !st; k++) st = push_word(out, yaml->v[k].text, &yaml->v[k], diag);
        } else {
            st = push_word(out, flag.p, a, diag);
            if (!st) st = push_word(out, a->value, a, diag);
        }
        free(flag.p);
        RETURN_IF_ERROR(st);
    }
    return KVC_OK;
}

kvc_status config_to_words(const arglist *yaml, unsigned release, arglist *out, kvc_diag *diag)
{
    if (!yaml->n) return KVC_OK;
    merger_era era = merger_of(release);
    config_keys keys = {0};
    kvc_status st = era >= MERGER_0_5_8 && config_keys_build(&keys, release, era)
                        ? diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory")
                        : convert(yaml, release, era, &keys, out, diag);
    free(keys.v);
    return st;
}
