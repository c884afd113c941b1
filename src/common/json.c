/* cJSON with positions: parse errors and bad values get file:line:column. */
#include "common/common.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void position_of(const char *text, const char *at, unsigned *line, unsigned *column)
{
    unsigned l = 1, c = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

void json_locate_key(const char *text, const char *key, unsigned nth, unsigned *line,
                     unsigned *column)
{
    *line = 0;
    *column = 0;
    size_t klen = strlen(key);
    for (const char *p = text; *p; p++) {
        if (*p != '"') continue;
        const char *start = p++;
        while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
        if (!*p) return;
        size_t n = (size_t)(p - start - 1);
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
        if (*q == ':' && n == klen && memcmp(start + 1, key, klen) == 0) {
            if (nth == 0) {
                position_of(text, start, line, column);
                return;
            }
            nth--;
        }
    }
}

/* A forward walk over JSON text that keeps line and column as it goes, so
 * positions of many keys or elements cost one pass, not one pass each. The
 * text has been parsed already: it is well formed. */
typedef struct cursor {
    const char *p;
    unsigned line, column;
} cursor;

static void step(cursor *c)
{
    if (*c->p == '\n') {
        c->line++;
        c->column = 1;
    } else {
        c->column++;
    }
    c->p++;
}

static void skip_space(cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r') step(c);
}

/* At an opening quote: moves past the closing one. */
static void skip_string(cursor *c)
{
    step(c);
    while (*c->p && *c->p != '"') {
        if (*c->p == '\\' && c->p[1]) step(c);
        step(c);
    }
    if (*c->p) step(c);
}

/* Moves past one value: a string, a number or literal, or a whole object or list. */
static void skip_value(cursor *c)
{
    if (*c->p == '"') {
        skip_string(c);
        return;
    }
    if (*c->p != '{' && *c->p != '[') {
        while (*c->p && *c->p != ',' && *c->p != ']' && *c->p != '}' && *c->p != ' ' && *c->p != '\t' &&
               *c->p != '\n' && *c->p != '\r')
            step(c);
        return;
    }
    size_t depth = 0;
    do {
        if (*c->p == '"') {
            skip_string(c);
            continue;
        }
        if (*c->p == '{' || *c->p == '[') depth++;
        else if (*c->p == '}' || *c->p == ']') depth--;
        step(c);
    } while (*c->p && depth);
}

/* Inside an object, at its start or after a member's value: moves to the
 * next member's value and sets `key` at its key. 0 at the object's end. */
static int next_member(cursor *c, cursor *key)
{
    skip_space(c);
    if (*c->p == ',') step(c);
    skip_space(c);
    if (*c->p != '"') return 0;
    *key = *c;
    skip_string(c);
    skip_space(c);
    if (*c->p != ':') return 0;
    step(c);
    skip_space(c);
    return 1;
}

/* Inside the top-level object, or 0 when the text is not one. */
static int enter_root(const char *text, cursor *c)
{
    *c = (cursor){text, 1, 1};
    skip_space(c);
    if (*c->p != '{') return 0;
    step(c);
    return 1;
}

void json_locate_members(const char *text, size_t n, unsigned *lines, unsigned *columns)
{
    memset(lines, 0, n * sizeof *lines);
    memset(columns, 0, n * sizeof *columns);
    cursor c, k;
    if (!enter_root(text, &c)) return;
    for (size_t i = 0; i < n && next_member(&c, &k); i++) {
        lines[i] = k.line;
        columns[i] = k.column;
        skip_value(&c);
    }
}

void json_locate_elements(const char *text, const char *key, size_t n, unsigned *lines,
                          unsigned *columns)
{
    memset(lines, 0, n * sizeof *lines);
    memset(columns, 0, n * sizeof *columns);
    size_t klen = strlen(key);
    cursor c, k;
    if (!enter_root(text, &c)) return;
    while (next_member(&c, &k)) {
        if (strncmp(k.p + 1, key, klen) != 0 || k.p[1 + klen] != '"') {
            skip_value(&c);
            continue;
        }
        if (*c.p != '[') return;
        step(&c);
        for (size_t i = 0; i < n; i++) {
            skip_space(&c);
            if (*c.p == ',') step(&c);
            skip_space(&c);
            if (!*c.p || *c.p == ']') return;
            lines[i] = c.line;
            columns[i] = c.column;
            skip_value(&c);
        }
        return;
    }
}

/* Objects with more members than this are checked through a hash set. */
#define SMALL_OBJECT 8

static kvc_status duplicate_at(const cJSON *node, const cJSON *a, const char *text, const char *file,
                               kvc_diag *diag)
{
    unsigned seen = 0;
    for (const cJSON *b = node->child; b != a; b = b->next)
        if (strcmp(a->string, b->string) == 0) seen++;
    kvc_origin o;
    origin_set(&o, file, 0, 0, a->string);
    json_locate_key(text, a->string, seen, &o.line, &o.column);
    return diag_set(diag, KVC_ERR_CONFIG, &o, "duplicate key \"%s\": each key may appear once; remove one",
                    a->string);
}

static kvc_status check_duplicates(const cJSON *node, const char *text, const char *file,
                                   kvc_diag *diag)
{
    int object = cJSON_IsObject(node), small = 1;
    size_t members = 0;
    for (const cJSON *a = object ? node->child : NULL; a && small; a = a->next) small = ++members <= SMALL_OBJECT;
    strset keys = {0};
    kvc_status st = KVC_OK;
    for (const cJSON *a = node ? node->child : NULL; a && !st; a = a->next) {
        if (object && small) {
            for (const cJSON *b = node->child; b != a && !st; b = b->next)
                if (strcmp(a->string, b->string) == 0) st = duplicate_at(node, a, text, file, diag);
        } else if (object) {
            int added = strset_add(&keys, a->string);
            if (added < 0) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
            else if (!added) st = duplicate_at(node, a, text, file, diag);
        }
        if (!st) st = check_duplicates(a, text, file, diag);
    }
    strset_free(&keys);
    return st;
}

/* The first "\u0000" escape inside a string of `text`, or NULL. */
static const char *find_nul_escape(const char *text, size_t len)
{
    const char *end = text + len;
    int in_string = 0;
    for (const char *p = text; p < end; p++) {
        if (*p == '"') {
            in_string = !in_string;
        } else if (in_string && *p == '\\' && p + 1 < end) {
            if (p[1] == 'u' && end - p >= 6 && memcmp(p + 2, "0000", 4) == 0) return p;
            p++; /* the escaped character */
        }
    }
    return NULL;
}

/* The deepest nesting of objects and lists before `at`. */
static size_t depth_before(const char *text, const char *at)
{
    size_t depth = 0, most = 0;
    int in_string = 0;
    for (const char *p = text; p < at; p++) {
        if (in_string) {
            if (*p == '\\' && p + 1 < at) p++;
            else if (*p == '"') in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '{' || *p == '[') {
            if (++depth > most) most = depth;
        } else if ((*p == '}' || *p == ']') && depth) {
            depth--;
        }
    }
    return most;
}

kvc_status json_parse(const char *text, size_t len, const char *file, cJSON **out,
                      kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, file, 0, 0, "");
    /* cJSON reads a NUL byte as white space, and "\u0000" ends the string
     * it is in: either would pass text kvcheck never read. */
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        position_of(text, nul, &o.line, &o.column);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "malformed JSON in %s at line %u, column %u: a NUL byte; JSON text holds none "
                        "(is this a binary file?)",
                        file, o.line, o.column);
    }
    const char *esc = find_nul_escape(text, len);
    if (esc) {
        position_of(text, esc, &o.line, &o.column);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "%s at line %u, column %u: \"\\u0000\" (a NUL character) in a string; kvcheck "
                        "does not take strings that hold one",
                        file, o.line, o.column);
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        if (end) position_of(text, end, &o.line, &o.column);
        if (len == 0) return diag_set(diag, KVC_ERR_CONFIG, &o, "%s is empty: expected a JSON object", file);
        if (end && depth_before(text, end + (end < text + len)) > CJSON_NESTING_LIMIT)
            return diag_set(diag, KVC_ERR_CONFIG, &o,
                            "JSON in %s is nested too deeply at line %u, column %u: kvcheck reads objects "
                            "and lists nested at most %d deep",
                            file, o.line, o.column, CJSON_NESTING_LIMIT);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "malformed JSON in %s at line %u, column %u: check for a missing comma, "
                        "quote or bracket there",
                        file, o.line, o.column);
    }
    /* Anything but white space after the document is an error too. */
    for (const char *p = end; p && p < text + len; p++) {
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
            position_of(text, p, &o.line, &o.column);
            cJSON_Delete(root);
            return diag_set(diag, KVC_ERR_CONFIG, &o,
                            "malformed JSON in %s at line %u, column %u: text after the end of "
                            "the document",
                            file, o.line, o.column);
        }
    }
    kvc_status st = check_duplicates(root, text, file, diag);
    if (st) {
        cJSON_Delete(root);
        return st;
    }
    *out = root;
    return KVC_OK;
}

static const char *json_type_name(const cJSON *item)
{
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNull(item)) return "null";
    if (cJSON_IsArray(item)) return "a list";
    if (cJSON_IsObject(item)) return "an object";
    return "an unknown value";
}

kvc_status json_get_uint(const cJSON *item, const char *text, const char *file, const char *key,
                         uint32_t lo, uint32_t hi, uint32_t *out, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, file, 0, 0, key);
    if (text) json_locate_key(text, key, 0, &o.line, &o.column);
    RETURN_ERROR_IF(!cJSON_IsNumber(item), diag, KVC_ERR_CONFIG, &o,
                    "\"%s\" must be a whole number, but it is %s", key, json_type_name(item));
    double v = item->valuedouble;
    RETURN_ERROR_IF(!isfinite(v) || v != floor(v), diag, KVC_ERR_CONFIG, &o,
                    "\"%s\" must be a whole number, but it is %g", key, v);
    RETURN_ERROR_IF(v < (double)lo || v > (double)hi, diag, KVC_ERR_CONFIG, &o,
                    "\"%s\" is %.0f, out of range: it must be from %u to %u", key, v, lo, hi);
    *out = (uint32_t)v;
    return KVC_OK;
}
