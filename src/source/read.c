/* Reading a layer's pages: from the mapping when the file is in the page
 * cache, else with pread in runs on a few threads, as cat would. */
#define _DEFAULT_SOURCE /* mincore */
#include "source/source.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
    int error; /* errno of a failed read, or SHRANK */
} read_part;

#define SHRANK (-1) /* the file is shorter than the layer now */

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
        if (n <= 0) return n < 0 ? errno : SHRANK;
        dst += n, at += (uint64_t)n, bytes -= (uint64_t)n;
    }
    return 0;
}

static void read_runs(read_part *p)
{
    for (uint64_t a = p->from; a < p->to && !p->error;) {
        uint64_t b = a + 1; /* runs of pages that follow one another in the file */
        while (b < p->to && (!p->pages || p->pages[p->first + b] == p->pages[p->first + b - 1] + 1)) b++;
        p->error = read_run(p, a, b);
        a = b;
    }
}

static void *read_slice(void *arg)
{
    read_part *p = arg;
    if (!p->resident || p->src->fd < 0) {
        read_runs(p);
        return NULL;
    }
    map_guard g; /* copied from the mapping: the file may shrink under it */
    if (sigsetjmp(g.jump, 1)) {
        p->error = SHRANK;
        return NULL;
    }
    map_guard_arm(&g, p->src->data, p->src->bytes);
    read_runs(p);
    map_guard_disarm(&g);
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
    if (error == SHRANK) return source_changed(src->file, src->fd, diag);
    RETURN_ERROR_IF(error, diag, KVC_ERR_IO, &o, "cannot read %s: %s", src->file, strerror(error));
    return KVC_OK;
}
