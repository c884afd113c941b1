/* Page sources: raw dumps, .npy arrays and .safetensors files, opened
 * read-only and memory-mapped, split into layers of whole pages; and the
 * page lists that say which pages of a layer to scan. */
#define _DEFAULT_SOURCE /* madvise */
#include "internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ page lists */

static int parse_u64(const char **s, uint64_t *out)
{
    const char *p = *s;
    if (*p < '0' || *p > '9') return 0;
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v)) return 0;
    *s = p;
    *out = v;
    return 1;
}

kvc_status page_list_parse(const char *text, const char *flag, page_range **out, size_t *n, kvc_diag *diag)
{
    *out = NULL;
    *n = 0;
    kvc_origin o;
    origin_set(&o, "", 0, 0, flag);
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    page_range *r = calloc(cap, sizeof *r);
    RETURN_ERROR_IF(!r, diag, KVC_ERR_NOMEM, &o, "out of memory");
    const char *p = text;
    for (;;) {
        const char *item = p;
        uint64_t a, b;
        if (!parse_u64(&p, &a)) goto bad;
        b = a;
        if (*p == '-') {
            p++;
            if (!parse_u64(&p, &b) || b < a) goto bad;
        }
        r[(*n)++] = (page_range){a, b};
        if (*p == '\0') break;
        if (*p != ',') goto bad;
        p++;
        continue;
    bad:
        free(r);
        *n = 0;
        size_t at = (size_t)(item - text);
        return diag_set(diag, KVC_ERR_USAGE, &o,
                        "%s '%s': cannot read a page or range at character %zu; write pages as 3,7,10-20 "
                        "(0-based, ranges inclusive, low-high)",
                        flag, text, at + 1);
    }
    *out = r;
    return KVC_OK;
}

static int in_ranges(const page_range *r, size_t n, uint64_t page)
{
    for (size_t i = 0; i < n; i++)
        if (page >= r[i].first && page <= r[i].last) return 1;
    return 0;
}

kvc_status page_select(const page_range *only, size_t nonly, const page_range *skip, size_t nskip, uint64_t npages,
                       const char *layer, uint64_t **out, uint64_t *n, kvc_diag *diag)
{
    *out = NULL;
    *n = npages;
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--pages");
    for (size_t i = 0; i < nonly; i++)
        RETURN_ERROR_IF(only[i].last >= npages, diag, KVC_ERR_CONFIG, &o,
                        "--pages asks for page %llu, but %s has %llu page%s (0-%llu): give pages that exist",
                        (unsigned long long)only[i].last, layer, (unsigned long long)npages, npages == 1 ? "" : "s",
                        (unsigned long long)(npages - 1));
    if (!nonly && !nskip) return KVC_OK;
    uint64_t count = 0;
    for (uint64_t p = 0; p < npages; p++)
        count += (!nonly || in_ranges(only, nonly, p)) && !in_ranges(skip, nskip, p);
    uint64_t *list = malloc((count ? count : 1) * sizeof *list);
    RETURN_ERROR_IF(!list, diag, KVC_ERR_NOMEM, &o, "out of memory for the page list");
    uint64_t k = 0;
    for (uint64_t p = 0; p < npages; p++)
        if ((!nonly || in_ranges(only, nonly, p)) && !in_ranges(skip, nskip, p)) list[k++] = p;
    *out = list;
    *n = count;
    return KVC_OK;
}

/* ------------------------------------------------------------------ files */

static kvc_status add_layer(scan_inputs *in, const char *name, const char *file, const uint8_t *data,
                            uint64_t offset, uint64_t bytes, kvc_diag *diag)
{
    int fd = in->nmaps ? in->maps[in->nmaps - 1].fd : -1; /* layers come from the file opened last */
    if (in->nlayers == in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 8;
        layer_src *l = realloc(in->layers, cap * sizeof *l);
        RETURN_ERROR_IF(!l, diag, KVC_ERR_NOMEM, NULL, "out of memory");
        in->layers = l;
        in->cap = cap;
    }
    layer_src *l = &in->layers[in->nlayers++];
    memset(l, 0, sizeof *l);
    str_copy(l->name, sizeof l->name, name);
    str_copy(l->file, sizeof l->file, file);
    l->data = data;
    l->fd = fd;
    l->file_offset = offset;
    l->bytes = bytes;
    return KVC_OK;
}

/* "layouts whose pages fit: fp8_raw (36864 B/page)" for a size that does not fit `l`. */
static void fitting_layouts(const kvc_layout *l, uint64_t bytes, char *out, size_t size)
{
    out[0] = '\0';
    for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
        kvc_layout other;
        if (kvc_layout_build(kvc_layout_catalogue(i), &l->params, &other, NULL) != KVC_OK) continue;
        if (bytes % other.page_bytes) continue;
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s%s (%llu B/page)", n ? ", " : "", other.name,
                 (unsigned long long)other.page_bytes);
    }
}

static kvc_status check_whole_pages(const kvc_layout *l, const char *file, const char *what, uint64_t bytes,
                                    kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, file, 0, 0, "");
    RETURN_ERROR_IF(bytes == 0, diag, KVC_ERR_CONFIG, &o, "%s%s is empty: there are no pages to read", file, what);
    if (!l || bytes % l->page_bytes == 0) return KVC_OK; /* no layout yet: detect judges the sizes */
    char fits[512];
    fitting_layouts(l, bytes, fits, sizeof fits);
    return diag_set(diag, KVC_ERR_CONFIG, &o,
                    "%s%s: %llu bytes are not a whole number of %s pages of %llu bytes (%llu pages and %llu bytes "
                    "left over); %s%s",
                    file, what, (unsigned long long)bytes, l->name, (unsigned long long)l->page_bytes,
                    (unsigned long long)(bytes / l->page_bytes), (unsigned long long)(bytes % l->page_bytes),
                    fits[0] ? "layouts whose pages fit at this page size: " : "no catalogue layout fits at this page size"
                                                                             ": is it one layer's whole buffer?",
                    fits);
}

/* ----------------------------------------------------------------- .npy */

/* Reads a Python literal value after `key` in the .npy header dict. */
static const char *npy_value(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *p = strstr(header, quoted);
    if (!p) return NULL;
    p += strlen(quoted);
    while (*p == ' ') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

static kvc_status open_npy(scan_inputs *in, const kvc_layout *l, const char *path, const uint8_t *data, uint64_t size,
                           kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    RETURN_ERROR_IF(size < 10, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .npy header: the file has %llu bytes, the fixed part of the header alone 10", path,
                    (unsigned long long)size);
    unsigned major = data[6];
    uint64_t hlen, start;
    if (major == 1) {
        hlen = data[8] | (uint64_t)data[9] << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        RETURN_ERROR_IF(size < 12, diag, KVC_ERR_CONFIG, &o, "%s: truncated .npy header (version %u)", path, major);
        hlen = data[8] | (uint64_t)data[9] << 8 | (uint64_t)data[10] << 16 | (uint64_t)data[11] << 24;
        start = 12;
    } else {
        return diag_set(diag, KVC_ERR_CONFIG, &o, "%s: .npy format version %u.%u is not one kvcheck reads (1, 2 or 3)",
                        path, major, data[7]);
    }
    RETURN_ERROR_IF(start + hlen > size, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .npy header: it says %llu header bytes, but only %llu follow", path,
                    (unsigned long long)hlen, (unsigned long long)(size - start));
    char *h = malloc(hlen + 1);
    RETURN_ERROR_IF(!h, diag, KVC_ERR_NOMEM, &o, "out of memory");
    memcpy(h, data + start, hlen);
    h[hlen] = '\0';
    kvc_status st = KVC_OK;
    const char *descr = npy_value(h, "descr"), *fortran = npy_value(h, "fortran_order"), *shape = npy_value(h, "shape");
    char type[16] = "";
    uint64_t itemsize = 0, elems = 1, last = 0;
    unsigned ndim = 0;
    if (!descr || !fortran || !shape || *descr != '\'' || *shape != '(') {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: malformed .npy header (byte %llu on): expected a dict with 'descr', 'fortran_order' and "
                      "'shape', got %.120s",
                      path, (unsigned long long)start, h);
        goto done;
    }
    size_t tl = strcspn(descr + 1, "'");
    str_copy(type, tl + 1 < sizeof type ? tl + 1 : sizeof type, descr + 1);
    const char *digits = type + strcspn(type, "0123456789");
    itemsize = strtoull(digits, NULL, 10);
    if (strlen(type) < 3 || !strchr("<|=", type[0]) || !itemsize) {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: .npy dtype '%s' is not a little-endian plain type: kvcheck reads the bytes as stored, so "
                      "save the pages as '<u1' (or any little-endian type)",
                      path, type);
        goto done;
    }
    if (strncmp(fortran, "False", 5) != 0) {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: the array is stored in Fortran order; save it in C order (numpy.ascontiguousarray)", path);
        goto done;
    }
    for (const char *p = shape + 1; *p && *p != ')';) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        uint64_t d;
        if (!parse_u64(&p, &d) || __builtin_mul_overflow(elems, d, &elems)) {
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s: malformed .npy shape %.60s", path, shape);
            goto done;
        }
        last = d;
        ndim++;
    }
    uint64_t bytes;
    int shape_len = (int)strcspn(shape, ")") + 1;
    if (__builtin_mul_overflow(elems, itemsize, &bytes) || start + hlen + bytes > size) {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: truncated .npy data: the header's shape %.*s of '%s' needs %llu bytes after the header, the "
                      "file has %llu",
                      path, shape_len > 60 ? 60 : shape_len, shape, type, (unsigned long long)bytes,
                      (unsigned long long)(size - start - hlen));
        goto done;
    }
    uint64_t row = (ndim ? last : 1) * itemsize;
    if (l && row && bytes && row % l->page_bytes && l->page_bytes % row) {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: the last dimension is %llu bytes (%llu x '%s'), which does not multiply out to whole %s "
                      "pages of %llu bytes; a row must be a token (%u B), a page or several pages",
                      path, (unsigned long long)row, (unsigned long long)last, type, l->name,
                      (unsigned long long)l->page_bytes, l->bytes_per_token);
        goto done;
    }
    st = check_whole_pages(l, path, "", bytes, diag);
    if (!st) {
        const char *base = strrchr(path, '/');
        st = add_layer(in, base ? base + 1 : path, path, data + start + hlen, start + hlen, bytes, diag);
    }
done:
    free(h);
    return st;
}

/* ---------------------------------------------------------- .safetensors */

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
} st_tensor;

static int by_offset(const void *a, const void *b)
{
    const st_tensor *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
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
    RETURN_ERROR_IF(v[1] < v[0] || v[1] > data_bytes, diag, KVC_ERR_CONFIG, &o,
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

static kvc_status open_safetensors(scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt, const char *path,
                                   const uint8_t *data, uint64_t size, unsigned char *matched, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    RETURN_ERROR_IF(size < 8, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .safetensors header: %llu bytes, not even the 8-byte header length", path,
                    (unsigned long long)size);
    uint64_t hlen = 0;
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | data[i];
    RETURN_ERROR_IF(hlen > size - 8, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .safetensors header: it says %llu header bytes, but only %llu follow", path,
                    (unsigned long long)hlen, (unsigned long long)(size - 8));
    char *text = malloc(hlen + 1);
    RETURN_ERROR_IF(!text, diag, KVC_ERR_NOMEM, &o, "out of memory");
    memcpy(text, data + 8, hlen);
    text[hlen] = '\0';
    cJSON *root = NULL;
    char label[600];
    snprintf(label, sizeof label, "%s (.safetensors header)", path);
    kvc_status st = json_parse(text, hlen, label, &root, diag);
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
        st_tensor x;
        st = st_tensor_read(t, path, size - 8 - hlen, &x, diag);
        if (!st && wanted(opt, x.name, matched)) ts[n++] = x;
        size_t used = strlen(in->tensor_names);
        if (!st && used + strlen(x.name) + 8 < sizeof in->tensor_names)
            snprintf(in->tensor_names + used, sizeof in->tensor_names - used, "%s%s", used ? ", " : "", x.name);
        else if (!st && !strstr(in->tensor_names, ", ..."))
            str_copy(in->tensor_names + (used < sizeof in->tensor_names - 6 ? used : sizeof in->tensor_names - 6), 6,
                     ", ...");
    }
    if (!st) qsort(ts, n, sizeof *ts, by_offset); /* input order: as the bytes lie in the file */
    for (size_t i = 0; !st && i < n; i++) {
        char what[300];
        snprintf(what, sizeof what, " tensor \"%s\"", ts[i].name);
        st = check_whole_pages(l, path, what, ts[i].end - ts[i].begin, diag);
        if (!st)
            st = add_layer(in, ts[i].name, path, data + 8 + hlen + ts[i].begin, 8 + hlen + ts[i].begin,
                           ts[i].end - ts[i].begin, diag);
    }
    free(ts);
    cJSON_Delete(root);
    free(text);
    return st;
}

/* ------------------------------------------------------------------ open */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static kvc_status map_file(scan_inputs *in, const char *path, const uint8_t **data, uint64_t *size, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    RETURN_ERROR_IF(fd < 0, diag, KVC_ERR_IO, &o, "cannot open %s: %s", path, strerror(errno));
    RETURN_ERROR_IF(in->nmaps == COUNT_OF(in->maps), diag, KVC_ERR_USAGE, &o, "at most %zu input files at once",
                    COUNT_OF(in->maps));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int dir = S_ISDIR(st.st_mode), e = errno;
        close(fd);
        return diag_set(diag, KVC_ERR_IO, &o, "cannot read %s: %s", path,
                        dir ? "it is a directory; give the dump files in it" : e ? strerror(e) : "not a regular file");
    }
    *size = (uint64_t)st.st_size;
    *data = NULL;
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a larger read-ahead window, for the mapping too */
    if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return diag_set(diag, KVC_ERR_IO, &o, "cannot map %s: %s", path, strerror(e));
        }
        madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
        *data = p;
    }
    /* the descriptor stays open: files not in the page cache are read with pread */
    in->maps[in->nmaps].base = (void *)(uintptr_t)*data;
    in->maps[in->nmaps].size = *size;
    in->maps[in->nmaps++].fd = fd;
    return KVC_OK;
}

kvc_status inputs_open(const char *const *paths, size_t npaths, const kvc_layout *l, const kvc_scan_options *opt,
                       scan_inputs *in, kvc_diag *diag)
{
    memset(in, 0, sizeof *in);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--tensor");
    unsigned char *matched = calloc(opt->ntensors + 1, 1);
    RETURN_ERROR_IF(!matched, diag, KVC_ERR_NOMEM, &o, "out of memory");
    kvc_status st = KVC_OK;
    int any_safetensors = 0;
    for (size_t i = 0; !st && i < npaths; i++) {
        const uint8_t *data = NULL;
        uint64_t size = 0;
        st = map_file(in, paths[i], &data, &size, diag);
        if (st) break;
        if (ends_with(paths[i], ".safetensors")) {
            any_safetensors = 1;
            st = open_safetensors(in, l, opt, paths[i], data, size, matched, diag);
        } else if (size >= 6 && memcmp(data, "\x93NUMPY", 6) == 0) {
            st = open_npy(in, l, paths[i], data, size, diag);
        } else if (ends_with(paths[i], ".npy")) {
            origin_set(&o, paths[i], 0, 0, "");
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s: not a .npy file: it does not start with \\x93NUMPY%s",
                          paths[i], size ? "" : " (it is empty)");
        } else {
            st = check_whole_pages(l, paths[i], "", size, diag);
            const char *base = strrchr(paths[i], '/');
            if (!st) st = add_layer(in, base ? base + 1 : paths[i], paths[i], data, 0, size, diag);
        }
    }
    for (size_t i = 0; !st && i < opt->ntensors; i++) {
        if (matched[i]) continue;
        origin_set(&o, "", 0, 0, "--tensor");
        if (any_safetensors)
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "--tensor %s matches no tensor; the inputs hold %s",
                          opt->tensors[i], in->tensor_names[0] ? in->tensor_names : "no tensors");
        else
            st = diag_set(diag, KVC_ERR_USAGE, &o,
                          "--tensor %s: no .safetensors input to take tensors from (a raw or .npy dump is one layer)",
                          opt->tensors[i]);
    }
    free(matched);
    if (st) inputs_close(in);
    return st;
}

void inputs_close(scan_inputs *in)
{
    for (size_t i = 0; i < in->nmaps; i++) {
        if (in->maps[i].base) munmap(in->maps[i].base, (size_t)in->maps[i].size);
        close(in->maps[i].fd);
    }
    free(in->layers);
    memset(in, 0, sizeof *in);
}

/* ------------------------------------------------------------- reading */

int layer_resident(const layer_src *src)
{
    if (src->fd < 0 || !src->bytes) return 1;
    /* a sample of 256 memory pages spread over the layer: asking for every
     * page costs as much as scanning a cached file */
    const uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t start = (uintptr_t)src->data & ~(ps - 1), end = (uintptr_t)src->data + src->bytes;
    const uintptr_t pages = (end - start + ps - 1) / ps, samples = pages < 256 ? pages : 256;
    unsigned in = 0;
    for (uintptr_t i = 0; i < samples; i++) {
        unsigned char v = 0;
        uintptr_t at = start + (pages * i / samples) * ps;
        if (mincore((void *)at, ps, &v) != 0) return 1; /* cannot tell: read it from memory */
        in += v & 1;
    }
    return in * 10 >= samples * 9; /* nine tenths cached: scan it in place */
}

/* A slice of a copy: pages [from, to) of the selection. */
typedef struct read_part {
    const layer_src *src;
    const uint64_t *pages; /* NULL: consecutive from `first` */
    uint64_t first, from, to, page_bytes;
    uint8_t *dst;
    int resident;
    int error; /* errno of a failed read */
} read_part;

/* Reads pages [first + a, first + b) of the selection, which are consecutive in the file. */
static int read_run(read_part *p, uint64_t a, uint64_t b)
{
    uint64_t page = p->pages ? p->pages[p->first + a] : p->first + a;
    uint8_t *dst = p->dst + a * p->page_bytes;
    uint64_t bytes = (b - a) * p->page_bytes;
    if (p->resident) {
        memcpy(dst, p->src->data + page * p->page_bytes, bytes);
        return 0;
    }
    uint64_t at = p->src->file_offset + page * p->page_bytes;
    while (bytes) {
        ssize_t n = pread(p->src->fd, dst, bytes, (off_t)at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO; /* the file shrank under us */
        dst += n, at += (uint64_t)n, bytes -= (uint64_t)n;
    }
    return 0;
}

static void *read_slice(void *arg)
{
    read_part *p = arg;
    for (uint64_t a = p->from; a < p->to && !p->error;) {
        uint64_t b = a + 1; /* runs of pages that follow one another in the file */
        while (b < p->to && (!p->pages || p->pages[p->first + b] == p->pages[p->first + b - 1] + 1)) b++;
        p->error = read_run(p, a, b);
        a = b;
    }
    return NULL;
}

kvc_status layer_read(const layer_src *src, const uint64_t *pages, uint64_t first, uint64_t n, uint64_t page_bytes,
                      uint8_t *dst, int resident, unsigned threads, kvc_diag *diag)
{
    read_part part[16];
    pthread_t tid[16];
    int started[16] = {0};
    if (src->fd < 0) resident = 1;
    if (!resident) threads = 1; /* one sequential stream: the file's read-ahead state is shared by its readers */
    if (threads > 16) threads = 16;
    if (threads > n) threads = (unsigned)(n ? n : 1);
    for (unsigned i = 0; i < threads; i++) {
        part[i] = (read_part){src, pages, first, n * i / threads, n * (i + 1) / threads, page_bytes, dst, resident, 0};
        if (i + 1 < threads && pthread_create(&tid[i], NULL, read_slice, &part[i]) == 0) started[i] = 1;
        else read_slice(&part[i]); /* the last slice, or no thread to be had: here */
    }
    int error = 0;
    for (unsigned i = 0; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        if (part[i].error) error = part[i].error;
    }
    kvc_origin o;
    origin_set(&o, src->file, 0, 0, "");
    RETURN_ERROR_IF(error, diag, KVC_ERR_IO, &o, "cannot read %s: %s", src->file, strerror(error));
    return KVC_OK;
}
