#define _DEFAULT_SOURCE /* madvise */
/* The CPU scanner of a layer: threads over blocks of pages, in memory or
 * streamed from a file one batch ahead. */
#include "scan/scan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------ one layer */

/* Pages are handed out in blocks so threads share the work evenly. */
#define BLOCK_PAGES 256
#define AHEAD_BLOCKS 8 /* how far ahead of a block read-ahead is asked for */

typedef struct cpu_job {
    const scan_plan *plan;
    layer_job *job;
    atomic_uint_fast64_t next_block;
    atomic_uint_fast64_t pages_done;
    pthread_mutex_t lock; /* guards job->counts when threads merge */
    int mapped;           /* job->host is the mapping of job->src's file */
    atomic_int shrank;    /* and that file shrank under a thread */
    uint64_t reported;    /* the pages the calling thread last reported as done */
} cpu_job;

/* Asks the kernel to read a mapped file's pages ahead of the scan: from
 * the disk, faulting in page by page is much slower than read-ahead. */
static void read_ahead(const uint8_t *from, uint64_t bytes)
{
    uintptr_t start = (uintptr_t)from & ~(uintptr_t)4095;
    madvise((void *)start, (size_t)((uintptr_t)from + bytes - start), MADV_WILLNEED);
}

static void scan_blocks(cpu_job *c, int report)
{
    layer_job *j = c->job;
    uint64_t counts[KVC_CHECK_COUNT] = {0};
    const uint64_t page_bytes = c->plan->layout.page_bytes;
    while (!atomic_load(&c->shrank)) {
        uint64_t b = atomic_fetch_add(&c->next_block, 1);
        uint64_t first = b * BLOCK_PAGES;
        if (first >= j->npages) break;
        uint64_t last = first + BLOCK_PAGES < j->npages ? first + BLOCK_PAGES : j->npages;
        uint64_t ahead = first + AHEAD_BLOCKS * BLOCK_PAGES;
        if (!j->pages && ahead < j->npages)
            read_ahead(j->host + ahead * page_bytes,
                       (j->npages - ahead < BLOCK_PAGES ? j->npages - ahead : BLOCK_PAGES) * page_bytes);
        for (uint64_t i = first; i < last; i++) {
            uint64_t page = j->pages ? j->pages[i] : i;
            const uint8_t *at = j->host + page * page_bytes;
            j->page_bad[i] = scan_page(c->plan, at, counts, j->digests ? &j->digests[i] : NULL);
        }
        uint64_t done = atomic_fetch_add(&c->pages_done, last - first) + (last - first);
        if (report && j->progress) j->progress(j->progress_ctx, (c->reported = done) * page_bytes);
    }
    pthread_mutex_lock(&c->lock);
    for (unsigned k = 0; k < KVC_CHECK_COUNT; k++) j->counts[k] += counts[k];
    pthread_mutex_unlock(&c->lock);
}

/* scan_blocks, with the file's mapping guarded: a file that shrinks stops
 * every thread, and the layer's counts are void. */
static void scan_blocks_guarded(cpu_job *c, int report)
{
    if (!c->mapped) {
        scan_blocks(c, report);
        return;
    }
    map_guard g;
    if (sigsetjmp(g.jump, 1)) {
        atomic_store(&c->shrank, 1);
        return;
    }
    map_guard_arm(&g, c->job->host, c->job->src->bytes);
    scan_blocks(c, report);
    map_guard_disarm(&g);
}

static void *scan_thread(void *arg)
{
    scan_blocks_guarded(arg, 0);
    return NULL;
}

unsigned cpu_threads(unsigned asked)
{
    if (asked) return asked;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (unsigned)n;
}

/* Scans pages that are in memory (or mapped and cached), on `threads`
 * threads; 0, or -1 when the file mapped shrank under the scan. */
static int scan_in_memory(const scan_plan *plan, layer_job *job, unsigned threads)
{
    cpu_job c = {.plan = plan, .job = job};
    c.mapped = job->src && job->src->fd >= 0 && job->host == job->src->data;
    atomic_init(&c.shrank, 0);
    atomic_init(&c.next_block, 0);
    atomic_init(&c.pages_done, 0);
    pthread_mutex_init(&c.lock, NULL);
    uint64_t blocks = (job->npages + BLOCK_PAGES - 1) / BLOCK_PAGES;
    if (!job->pages) /* the first blocks; each block then asks for one further on */
        read_ahead(job->host, (blocks < AHEAD_BLOCKS ? job->npages : AHEAD_BLOCKS * BLOCK_PAGES) * plan->layout.page_bytes);
    unsigned want = threads > blocks ? (unsigned)(blocks ? blocks : 1) : threads;
    pthread_t tid[16];
    unsigned started = 0;
    for (unsigned i = 1; i < want && i < 16; i++) {
        if (pthread_create(&tid[started], NULL, scan_thread, &c) != 0) break; /* fewer threads still finish */
        started++;
    }
    scan_blocks_guarded(&c, 1); /* the calling thread works too, and reports progress */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    /* the other threads may have scanned the last blocks: the layer's progress still ends at its total */
    if (job->progress && !atomic_load(&c.shrank) && c.reported < job->npages)
        job->progress(job->progress_ctx, job->npages * plan->layout.page_bytes);
    pthread_mutex_destroy(&c.lock);
    return atomic_load(&c.shrank) ? -1 : 0;
}

/* A file that is not in the page cache is read as cat reads it, one batch
 * ahead of the scan: a reader thread fills one buffer while the scanners
 * work on the other. */
#define STREAM_BATCH_BYTES (16ull << 20) /* small enough that filling fresh buffers costs little */

typedef struct batch_read {
    layer_job *job;
    uint64_t first, n, page_bytes;
    uint8_t *dst;
    unsigned threads;
    kvc_status st;
    kvc_diag diag;
} batch_read;

static void *read_batch(void *arg)
{
    batch_read *r = arg;
    r->st = layer_read(r->job->src, r->job->pages, r->first, r->n, r->page_bytes, r->dst, 0, r->threads, &r->diag);
    return NULL;
}

static kvc_status scan_streamed(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag)
{
    const uint64_t pb = plan->layout.page_bytes;
    uint64_t per = STREAM_BATCH_BYTES / pb ? STREAM_BATCH_BYTES / pb : 1;
    if (per > job->npages) per = job->npages;
    uint8_t *buf[2] = {malloc(per * pb), malloc(per * pb)};
    kvc_status st = buf[0] && buf[1] ? KVC_OK : diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory for read buffers");
    batch_read next = {job, 0, per, pb, buf[0], threads, KVC_OK, {0}};
    if (!st) {
        read_batch(&next);
        st = next.st;
        if (st && diag) *diag = next.diag; /* the reader's own diagnostic; the caller's may be NULL */
    }
    for (uint64_t first = 0, k = 0; !st && first < job->npages; first += per, k++) {
        uint64_t n = job->npages - first < per ? job->npages - first : per;
        pthread_t reader;
        int reading = 0;
        if (first + n < job->npages) {
            next = (batch_read){job, first + n, job->npages - first - n < per ? job->npages - first - n : per, pb,
                                buf[(k + 1) % 2], threads, KVC_OK, {0}};
            reading = pthread_create(&reader, NULL, read_batch, &next) == 0;
            if (!reading) read_batch(&next); /* no thread: read it now */
        }
        layer_job part = *job; /* this batch, with its page counts in place */
        part.host = buf[k % 2];
        part.pages = NULL;
        part.npages = n;
        part.page_bad = job->page_bad + first;
        part.digests = job->digests ? job->digests + first : NULL;
        part.progress = NULL;
        memset(part.counts, 0, sizeof part.counts);
        (void)scan_in_memory(plan, &part, threads); /* a buffer of ours: it cannot shrink */
        for (unsigned i = 0; i < KVC_CHECK_COUNT; i++) job->counts[i] += part.counts[i];
        if (reading) pthread_join(reader, NULL);
        if (first + n < job->npages && next.st) {
            st = next.st;
            if (diag) *diag = next.diag;
        }
        if (job->progress) job->progress(job->progress_ctx, (first + n) * pb);
    }
    free(buf[0]);
    free(buf[1]);
    return st;
}

kvc_status cpu_scan_layer(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag)
{
    if (job->resident || !job->src) {
        if (scan_in_memory(plan, job, threads) == 0) return KVC_OK;
        return source_changed(job->src->file, job->src->fd, diag);
    }
    return job->npages ? scan_streamed(plan, job, threads, diag) : KVC_OK;
}
