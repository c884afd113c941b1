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

void json_locate_elements(const char *text, const char *key, size_t n, unsigned *lines,
                          unsigned *columns)
{
    unsigned line, column;
    memset(lines, 0, n * sizeof *lines);
    memset(columns, 0, n * sizeof *columns);
    json_locate_key(text, key, 0, &line, &column);
    if (!line) return;
    const char *p = text;
    for (unsigned l = 1; l < line; l++) p = strchr(p, '\n') + 1;
    p += column - 1;
    p = strchr(p, ':');
    while (p && *p && *p != '[' && *p != '"') p++;
    if (!p || *p != '[') return;
    size_t i = 0;
    int depth = 0;
    for (p++; *p && i < n; p++) {
        if (*p == ']' && depth == 0) return;
        if (*p == '[' || *p == '{') depth++;
        if (*p == ']' || *p == '}') depth--;
        if (depth || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') continue;
        position_of(text, p, &lines[i], &columns[i]);
        i++;
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
        } else {
            while (p[1] && p[1] != ',' && p[1] != ']') p++;
        }
    }
}

/* A key and where it lies among its object's members. */
typedef struct member_key {
    const char *key;
    size_t at;
} member_key;

static int by_key(const void *a, const void *b)
{
    const member_key *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The index of the first member of `node` whose key an earlier member has
 * already, or SIZE_MAX. Sorted, equal keys are neighbours: n log n, not
 * n^2 (a .safetensors header holds one key per tensor, tens of thousands). */
static kvc_status first_repeat(const cJSON *node, size_t *repeat, kvc_diag *diag)
{
    *repeat = SIZE_MAX;
    size_t n = 0;
    for (const cJSON *a = node->child; a; a = a->next) n++;
    if (n < 2) return KVC_OK;
    member_key *k = malloc(n * sizeof *k);
    RETURN_ERROR_IF(!k, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    n = 0;
    for (const cJSON *a = node->child; a; a = a->next, n++) k[n] = (member_key){a->string ? a->string : "", n};
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 1; i < n; i++)
        if (k[i].at < *repeat && strcmp(k[i].key, k[i - 1].key) == 0) *repeat = k[i].at;
    free(k);
    return KVC_OK;
}

static kvc_status check_duplicates(const cJSON *node, const char *text, const char *file,
                                   kvc_diag *diag)
{
    size_t repeat = SIZE_MAX, i = 0;
    if (cJSON_IsObject(node)) RETURN_IF_ERROR(first_repeat(node, &repeat, diag));
    for (const cJSON *a = node ? node->child : NULL; a; a = a->next, i++) {
        if (i == repeat) {
            kvc_origin o;
            origin_set(&o, file, 0, 0, a->string);
            json_locate_key(text, a->string, 1, &o.line, &o.column); /* its second occurrence */
            return diag_set(diag, KVC_ERR_CONFIG, &o,
                            "duplicate key \"%s\": each key may appear once; remove one",
                            a->string);
        }
        kvc_status st = check_duplicates(a, text, file, diag);
        if (st) return st;
    }
    return KVC_OK;
}

kvc_status json_parse(const char *text, size_t len, const char *file, cJSON **out,
                      kvc_diag *diag)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        kvc_origin o;
        origin_set(&o, file, 0, 0, "");
        if (end) position_of(text, end, &o.line, &o.column);
        if (len == 0) return diag_set(diag, KVC_ERR_CONFIG, &o, "%s is empty: expected a JSON object", file);
        return diag_set(diag, KVC_ERR_CONFIG, &o,
                        "malformed JSON in %s at line %u, column %u: check for a missing comma, "
                        "quote or bracket there",
                        file, o.line, o.column);
    }
    /* Anything but white space after the document is an error too. */
    for (const char *p = end; p && p < text + len && *p; p++) {
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
            kvc_origin o;
            origin_set(&o, file, 0, 0, "");
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
