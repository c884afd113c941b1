/* .safetensors files: the JSON header's tensors, each one layer, in file order. */
#include "source/formats.h"

#include <cjson/cJSON.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static const struct st_dtype {
    const char *name;
    unsigned size;
} ST_DTYPES[] = {
    {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"F8_E8M0", 1}, {"I16", 2}, {"U16", 2},
    {"F16", 2},  {"BF16", 2}, {"I32", 4}, {"U32", 4},    {"F32", 4},     {"F64", 8},     {"I64", 8}, {"U64", 8},
};

typedef struct st_tensor {
    char name[256];
    uint64_t begin, end;
    int wanted; /* picked by --tensor (or no --tensor given) */
} st_tensor;

static int by_offset(const void *a, const void *b)
{
    const st_tensor *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return strcmp(x->name, y->name); /* unique: the same order whatever qsort's algorithm */
}

/* Tensors sorted by offset whose bytes overlap: each byte of the data
 * belongs to one tensor at most, or it would be scanned and counted twice.
 * Tensors of no bytes overlap nothing. */
static kvc_status check_overlaps(const st_tensor *ts, size_t n, const char *path, kvc_diag *diag)
{
    const st_tensor *reach = NULL; /* of the tensors so far, the one that ends last */
    for (size_t i = 0; i < n; i++) {
        const st_tensor *t = &ts[i];
        if (t->begin == t->end) continue;
        if (reach && t->begin < reach->end) {
            kvc_origin o;
            origin_set(&o, path, 0, 0, t->name);
            if (t->begin == reach->begin && t->end == reach->end)
                return diag_set(diag, KVC_ERR_CONFIG, &o,
                                "%s: tensors \"%s\" and \"%s\" have the same data_offsets [%llu, %llu]: each "
                                "tensor needs bytes of its own; the header is wrong",
                                path, reach->name, t->name, (unsigned long long)t->begin,
                                (unsigned long long)t->end);
            return diag_set(diag, KVC_ERR_CONFIG, &o,
                            "%s: tensors \"%s\" (data_offsets [%llu, %llu]) and \"%s\" ([%llu, %llu]) overlap in "
                            "bytes [%llu, %llu]: each tensor needs bytes of its own; the header is wrong",
                            path, reach->name, (unsigned long long)reach->begin, (unsigned long long)reach->end,
                            t->name, (unsigned long long)t->begin, (unsigned long long)t->end,
                            (unsigned long long)t->begin,
                            (unsigned long long)(t->end < reach->end ? t->end : reach->end));
        }
        if (!reach || t->end > reach->end) reach = t;
    }
    return KVC_OK;
}

static int wanted(const kvc_scan_options *o, const char *name, unsigned char *matched)
{
    if (!o->ntensors) return 1;
    int any = 0;
    for (size_t i = 0; i < o->ntensors; i++)
        if (fnmatch(o->tensors[i], name, 0) == 0) any = matched[i] = 1;
    return any;
}

static kvc_status st_tensor_read(const cJSON *t, const char *path, uint64_t data_bytes, st_tensor *out,
                                 kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, t->string);
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(t, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(t, "shape");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(t, "data_offsets");
    RETURN_ERROR_IF(!cJSON_IsObject(t) || !cJSON_IsString(dtype) || !cJSON_IsArray(shape) || !cJSON_IsArray(offs) ||
                        cJSON_GetArraySize(offs) != 2,
                    diag, KVC_ERR_CONFIG, &o,
                    "%s: malformed .safetensors header: tensor \"%s\" needs \"dtype\", \"shape\" and \"data_offsets\" "
                    "[begin, end]",
                    path, t->string);
    RETURN_ERROR_IF(strlen(t->string) >= sizeof out->name, diag, KVC_ERR_CONFIG, &o,
                    "%s: a tensor name of %zu bytes (\"%.60s...\"): kvcheck takes names of up to %zu bytes", path,
                    strlen(t->string), t->string, sizeof out->name - 1);
    unsigned size = 0;
    for (size_t i = 0; i < COUNT_OF(ST_DTYPES); i++)
        if (strcmp(ST_DTYPES[i].name, dtype->valuestring) == 0) size = ST_DTYPES[i].size;
    RETURN_ERROR_IF(!size, diag, KVC_ERR_CONFIG, &o, "%s: tensor \"%s\" has dtype \"%s\", which kvcheck does not know",
                    path, t->string, dtype->valuestring);
    uint64_t elems = 1, v[2];
    const cJSON *d;
    cJSON_ArrayForEach(d, shape)
    {
        RETURN_ERROR_IF(!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble > 9.0e15 ||
                            d->valuedouble != (double)(uint64_t)d->valuedouble ||
                            __builtin_mul_overflow(elems, (uint64_t)d->valuedouble, &elems),
                        diag, KVC_ERR_CONFIG, &o, "%s: tensor \"%s\" has a malformed shape", path, t->string);
    }
    for (int i = 0; i < 2; i++) {
        d = cJSON_GetArrayItem(offs, i);
        RETURN_ERROR_IF(!cJSON_IsNumber(d) || d->valuedouble < 0 || d->valuedouble > 9.0e15 ||
                            d->valuedouble != (double)(uint64_t)d->valuedouble,
                        diag, KVC_ERR_CONFIG, &o, "%s: tensor \"%s\" has malformed data_offsets", path, t->string);
        v[i] = (uint64_t)d->valuedouble;
    }
    RETURN_ERROR_IF(v[1] < v[0], diag, KVC_ERR_CONFIG, &o,
                    "%s: tensor \"%s\" has data_offsets [%llu, %llu], which end before they begin: the header is "
                    "wrong",
                    path, t->string, (unsigned long long)v[0], (unsigned long long)v[1]);
    RETURN_ERROR_IF(v[1] > data_bytes, diag, KVC_ERR_CONFIG, &o,
                    "%s: tensor \"%s\" has data_offsets [%llu, %llu] beyond the %llu data bytes: the file is "
                    "truncated or its header is wrong",
                    path, t->string, (unsigned long long)v[0], (unsigned long long)v[1],
                    (unsigned long long)data_bytes);
    uint64_t bytes;
    RETURN_ERROR_IF(__builtin_mul_overflow(elems, size, &bytes) || bytes != v[1] - v[0], diag, KVC_ERR_CONFIG, &o,
                    "%s: tensor \"%s\": its shape and dtype make %llu bytes, its data_offsets %llu", path, t->string,
                    (unsigned long long)bytes, (unsigned long long)(v[1] - v[0]));
    str_copy(out->name, sizeof out->name, t->string);
    out->begin = v[0];
    out->end = v[1];
    return KVC_OK;
}

kvc_status source_open_safetensors(scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt, const char *path,
                                   const uint8_t *data, uint64_t size, unsigned char *matched, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    RETURN_ERROR_IF(size < 8, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .safetensors header: %llu bytes, not even the 8-byte header length", path,
                    (unsigned long long)size);
    const int fd = in->maps[in->nmaps - 1].fd;
    uint8_t len[8];
    RETURN_IF_ERROR(map_copy(len, data, sizeof len, path, fd, diag));
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | len[i];
    RETURN_ERROR_IF(hlen > size - 8, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .safetensors header: it says %llu header bytes, but only %llu follow", path,
                    (unsigned long long)hlen, (unsigned long long)(size - 8));
    char *text = malloc(hlen + 1);
    RETURN_ERROR_IF(!text, diag, KVC_ERR_NOMEM, &o, "out of memory");
    kvc_status st = map_copy(text, data + 8, hlen, path, fd, diag);
    if (st) {
        free(text);
        return st;
    }
    text[hlen] = '\0';
    cJSON *root = NULL;
    char label[600];
    snprintf(label, sizeof label, "%s (.safetensors header)", path);
    st = json_parse(text, hlen, label, &root, diag);
    st_tensor *ts = NULL;
    size_t n = 0;
    if (!st && !cJSON_IsObject(root))
        st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s: malformed .safetensors header: expected a JSON object", path);
    if (!st) {
        ts = calloc((size_t)cJSON_GetArraySize(root) + 1, sizeof *ts);
        if (!ts) st = diag_set(diag, KVC_ERR_NOMEM, &o, "out of memory");
    }
    const cJSON *t;
    for (t = root ? root->child : NULL; !st && t; t = t->next) {
        if (strcmp(t->string, "__metadata__") == 0) continue;
        st = st_tensor_read(t, path, size - 8 - hlen, &ts[n], diag);
        if (st) break;
        ts[n].wanted = wanted(opt, ts[n].name, matched);
        str_join_add(in->tensor_names, sizeof in->tensor_names, ", ", ts[n++].name);
    }
    if (!st && !n)
        st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s holds no tensors: there are no pages to read", path);
    if (!st) qsort(ts, n, sizeof *ts, by_offset); /* input order: as the bytes lie in the file */
    if (!st) st = check_overlaps(ts, n, path, diag);
    for (size_t i = 0; !st && i < n; i++) {
        if (!ts[i].wanted) continue;
        char what[300];
        snprintf(what, sizeof what, " tensor \"%s\"", ts[i].name);
        st = source_check_pages(l, path, what, ts[i].end - ts[i].begin, diag);
        if (!st)
            st = source_add_layer(in, ts[i].name, path, data + 8 + hlen + ts[i].begin, 8 + hlen + ts[i].begin,
                           ts[i].end - ts[i].begin, diag);
    }
    free(ts);
    cJSON_Delete(root);
    free(text);
    return st;
}
