/* .npy arrays: the header's dtype, order and shape, then the data as one layer. */
#include "source/formats.h"

#include <stdlib.h>
#include <string.h>

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

kvc_status source_open_npy(scan_inputs *in, const kvc_layout *l, const char *path, const uint8_t *data, uint64_t size,
                           kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    const int fd = in->maps[in->nmaps - 1].fd;
    RETURN_ERROR_IF(size < 10, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .npy header: the file has %llu bytes, the fixed part of the header alone 10", path,
                    (unsigned long long)size);
    uint8_t fixed[12] = {0};
    RETURN_IF_ERROR(map_copy(fixed, data, size < 12 ? 10 : 12, path, fd, diag));
    unsigned major = fixed[6];
    uint64_t hlen, start;
    if (major == 1) {
        hlen = fixed[8] | (uint64_t)fixed[9] << 8;
        start = 10;
    } else if (major == 2 || major == 3) {
        RETURN_ERROR_IF(size < 12, diag, KVC_ERR_CONFIG, &o, "%s: truncated .npy header (version %u)", path, major);
        hlen = fixed[8] | (uint64_t)fixed[9] << 8 | (uint64_t)fixed[10] << 16 | (uint64_t)fixed[11] << 24;
        start = 12;
    } else {
        return diag_set(diag, KVC_ERR_CONFIG, &o, "%s: .npy format version %u.%u is not one kvcheck reads (1, 2 or 3)",
                        path, major, fixed[7]);
    }
    RETURN_ERROR_IF(hlen > size - start, diag, KVC_ERR_CONFIG, &o,
                    "%s: truncated .npy header: it says %llu header bytes, but only %llu follow", path,
                    (unsigned long long)hlen, (unsigned long long)(size - start));
    const uint64_t after = size - start - hlen; /* the data bytes the file holds */
    char *h = malloc(hlen + 1);
    RETURN_ERROR_IF(!h, diag, KVC_ERR_NOMEM, &o, "out of memory");
    kvc_status st = map_copy(h, data + start, hlen, path, fd, diag);
    if (st) {
        free(h);
        return st;
    }
    h[hlen] = '\0';
    const char *descr = npy_value(h, "descr"), *fortran = npy_value(h, "fortran_order"), *shape = npy_value(h, "shape");
    char type[16] = "";
    uint64_t itemsize = 0, elems = 1, last = 0;
    unsigned ndim = 0;
    int too_big = 0; /* the shape's size is past 2^64 bytes */
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
        if (!str_parse_u64(&p, &d)) {
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s: malformed .npy shape %.60s", path, shape);
            goto done;
        }
        too_big |= __builtin_mul_overflow(elems, d, &elems);
        last = d;
        ndim++;
    }
    uint64_t bytes = 0;
    too_big = too_big || __builtin_mul_overflow(elems, itemsize, &bytes);
    int shape_len = (int)strcspn(shape, ")") + 1;
    if (too_big || bytes > after) {
        char needs[32];
        if (too_big) str_copy(needs, sizeof needs, "more than 2^64");
        else str_printf(needs, sizeof needs, "%llu", (unsigned long long)bytes);
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: the .npy header is inconsistent with the file size: its shape %.*s of '%s' needs %s bytes "
                      "after the header, the file has %llu; the file is truncated or its header is wrong",
                      path, shape_len > 60 ? 60 : shape_len, shape, type, needs, (unsigned long long)after);
        goto done;
    }
    /* with bytes > 0 every dimension is at least 1, so a row is at most `bytes`: no overflow */
    uint64_t row = (ndim ? last : 1) * itemsize;
    if (l && row && bytes && row % l->page_bytes && l->page_bytes % row) {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: the last dimension is %llu bytes (%llu x '%s'), which does not multiply out to whole %s "
                      "pages of %llu bytes; a row must be a token (%u B), a page or several pages",
                      path, (unsigned long long)row, (unsigned long long)last, type, l->name,
                      (unsigned long long)l->page_bytes, l->bytes_per_token);
        goto done;
    }
    st = source_check_pages(l, path, "", bytes, diag);
    if (!st) {
        const char *base = strrchr(path, '/');
        st = source_add_layer(in, base ? base + 1 : path, path, data + start + hlen, start + hlen, bytes, diag);
    }
done:
    free(h);
    return st;
}
