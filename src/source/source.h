/* Page sources: the bytes of KV layers, from files (raw dumps, .npy,
 * .safetensors; read-only, memory-mapped) or memory, and page lists. */
#ifndef KVC_SOURCE_H
#define KVC_SOURCE_H

#include "format/format.h"

#include <setjmp.h>

/* Inclusive page ranges from a list such as "3,7,10-20". */
typedef struct page_range {
    uint64_t first, last;
} page_range;
kvc_status page_list_parse(const char *text, const char *flag, page_range **out, size_t *n, kvc_diag *diag);
/* The pages of a layer of `npages` to scan, ascending; *out is NULL (all
 * pages) when neither list is given. A page in `only` past the end is an error. */
kvc_status page_select(const page_range *only, size_t nonly, const page_range *skip, size_t nskip, uint64_t npages,
                       const char *layer, uint64_t **out, uint64_t *n, kvc_diag *diag);

/* One layer of input bytes, memory-mapped. */
typedef struct layer_src {
    char name[256], file[512];
    const uint8_t *data; /* page 0, mapped */
    int fd;              /* the file, open read-only; -1 for memory */
    uint64_t file_offset, bytes;
} layer_src;

typedef struct scan_inputs {
    struct {
        void *base;
        uint64_t size;
        int fd;
    } maps[256];
    size_t nmaps;
    layer_src *layers;
    size_t nlayers, cap;
    char tensor_names[512]; /* for messages */
    int guarded;            /* holds a map_guard_install */
} scan_inputs;

/* Opens raw dumps, .npy and .safetensors files read-only as layers of
 * whole pages of `l` (of any size when `l` is NULL), in input order. */
kvc_status inputs_open(const char *const *paths, size_t npaths, const kvc_layout *l, const kvc_scan_options *opt,
                       scan_inputs *in, kvc_diag *diag);
void inputs_close(scan_inputs *in);
/* 1 when (nearly) all of a layer is in the page cache, or in memory. */
int layer_resident(const layer_src *src);
/* Copies pages [first, first + n) of the selection `pages` (NULL: all) into
 * `dst`, on up to `threads` threads: from the mapping when the layer is
 * resident, else with pread in runs of consecutive pages, so the kernel's
 * read-ahead works as it does for cat. */
kvc_status layer_read(const layer_src *src, const uint64_t *pages, uint64_t first, uint64_t n, uint64_t page_bytes,
                      uint8_t *dst, int resident, unsigned threads, kvc_diag *diag);

/* Mapped files that shrink under a scan (guard.c says why and how). While
 * a scan_inputs holds mappings a SIGBUS handler is installed; code that
 * touches mapped bytes arms a guard of its thread for their range:
 *
 *     map_guard g;
 *     if (sigsetjmp(g.jump, 1)) return source_changed(file, fd, diag);
 *     map_guard_arm(&g, data, bytes);
 *     ... read data[0 .. bytes) ...
 *     map_guard_disarm(&g);
 *
 * A fault in that range returns to sigsetjmp with 1, the guard disarmed;
 * locals changed after sigsetjmp are then indeterminate, so the work goes
 * in a function of its own. */
typedef struct map_guard {
    sigjmp_buf jump;
    uintptr_t lo, len;
    struct map_guard *outer; /* guards nest */
} map_guard;
/* Counted; KVC_ERR_INTERNAL when sigaction fails. */
kvc_status map_guard_install(kvc_diag *diag);
void map_guard_uninstall(void);
void map_guard_arm(map_guard *g, const void *lo, uint64_t len);
void map_guard_disarm(map_guard *g);
/* KVC_ERR_IO: "FILE changed while it was read (now N bytes)", N from fstat(fd). */
kvc_status source_changed(const char *file, int fd, kvc_diag *diag);
/* Copies n mapped bytes of `file` (open as fd) under a guard; KVC_ERR_IO
 * when the file shrank under them. */
kvc_status map_copy(void *dst, const uint8_t *src, size_t n, const char *file, int fd, kvc_diag *diag);

#endif /* KVC_SOURCE_H */
