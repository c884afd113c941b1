/* Opening inputs: each file opened read-only and memory-mapped, then split
 * into layers of whole pages by its format. */
#define _DEFAULT_SOURCE /* madvise */
#include "source/formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

kvc_status source_add_layer(scan_inputs *in, const char *name, const char *file, const uint8_t *data,
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
        if (layout_build(kvc_layout_catalogue(i), &l->params, &other, NULL) != KVC_OK) continue;
        if (bytes % other.page_bytes) continue;
        char item[KVC_NAME_LEN + 32];
        str_printf(item, sizeof item, "%s (%llu B/page)", other.name, (unsigned long long)other.page_bytes);
        str_join_add(out, size, ", ", item);
    }
}

kvc_status source_check_pages(const kvc_layout *l, const char *file, const char *what, uint64_t bytes,
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


static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static kvc_status map_file(scan_inputs *in, const char *path, const uint8_t **data, uint64_t *size, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "");
    /* checked before open(): nothing to close when the table is full */
    RETURN_ERROR_IF(in->nmaps == COUNT_OF(in->maps), diag, KVC_ERR_USAGE, &o, "at most %zu input files at once",
                    COUNT_OF(in->maps));
    const size_t keep = sizeof in->layers->file - 1; /* what a report's layer holds */
    RETURN_ERROR_IF(strlen(path) > keep, diag, KVC_ERR_USAGE, &o,
                    "an input path of %zu bytes (%.60s...): kvcheck takes paths of up to %zu bytes; shorten it (a "
                    "symbolic link, or cd)",
                    strlen(path), path, keep);
    int fd;
    RETURN_IF_ERROR(file_open_regular(path, "it is a directory; give the dump files in it", &fd, size, diag));
    *data = NULL;
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a larger read-ahead window, for the mapping too */
    if (*size > 0) {
        void *p = mmap(NULL, (size_t)*size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return diag_set(diag, KVC_ERR_IO, &o, "cannot map %s: %s", path, strerror(e));
        }
        madvise(p, (size_t)*size, MADV_SEQUENTIAL);
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
    kvc_status st = map_guard_install(diag); /* until inputs_close: the mappings may shrink */
    in->guarded = !st;
    int any_safetensors = 0;
    for (size_t i = 0; !st && i < npaths; i++) {
        const uint8_t *data = NULL;
        uint64_t size = 0;
        st = map_file(in, paths[i], &data, &size, diag);
        if (st) break;
        uint8_t magic[6] = {0};
        if (size >= sizeof magic) st = map_copy(magic, data, sizeof magic, paths[i], in->maps[in->nmaps - 1].fd, diag);
        if (st) break;
        if (ends_with(paths[i], ".safetensors")) {
            any_safetensors = 1;
            st = source_open_safetensors(in, l, opt, paths[i], data, size, matched, diag);
        } else if (size >= 6 && memcmp(magic, "\x93NUMPY", 6) == 0) {
            st = source_open_npy(in, l, paths[i], data, size, diag);
        } else if (ends_with(paths[i], ".npy")) {
            origin_set(&o, paths[i], 0, 0, "");
            st = diag_set(diag, KVC_ERR_CONFIG, &o, "%s: not a .npy file: it does not start with \\x93NUMPY%s",
                          paths[i], size ? "" : " (it is empty)");
        } else {
            st = source_check_pages(l, paths[i], "", size, diag);
            const char *base = strrchr(paths[i], '/');
            if (!st) st = source_add_layer(in, base ? base + 1 : paths[i], paths[i], data, 0, size, diag);
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
    if (in->guarded) map_guard_uninstall();
    memset(in, 0, sizeof *in);
}
