/* Helpers shared by the unit tests. cmocka needs these headers first. */
#ifndef KVC_TEST_SUPPORT_H
#define KVC_TEST_SUPPORT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "detect/detect.h"
#include "report/report.h"
#include "simulate/simulate.h"

/* A worker from a GPU, a model preset or path, and one launch command line. */
kvc_worker *worker_make(const char *gpu, const char *model, const char *args);
/* Resolves such a worker under `release` (NULL: the default); returns the
 * status and fills `out` and `diag`. */
kvc_status resolve_line(const char *gpu, const char *model, const char *args, const char *release,
                        kvc_resolved *out, kvc_diag *diag);
/* The value of setting `name` of `r` ("" when it has none). */
#define VAL(r, name) resolved_value((r), (name))
/* A worker loaded from a worker file; fails the test if it does not load. */
kvc_worker *worker_file(const char *path);
/* A fix's flags as one command line ("--flag value --flag value"). */
void fix_line(const kvc_fix *fix, char *out, size_t size);
/* Loads fixtures/pairs/NAME/{prefill,decode}.json; free both with kvc_worker_free. */
void pair_load(const char *name, kvc_worker **prefill, kvc_worker **decode);
/* Simulates that pair (newest release); fails the test on an error. */
kvc_simulation *simulate_pair(const char *name, kvc_device device, uint64_t tokens, uint64_t seed);
/* Fails the test unless `haystack` contains `needle`. */
#define assert_contains(haystack, needle) _assert_contains((haystack), (needle), __FILE__, __LINE__)
void _assert_contains(const char *haystack, const char *needle, const char *file, int line);
/* Writes `text` to a new temporary file and returns its path (static buffer). */
const char *temp_file(const char *suffix, const char *text);
/* Writes `text` to DIR/NAME, whose path goes to `path`. */
void write_text(const char *dir, const char *name, const char *text, char *path, size_t size);
/* The same with `bytes` bytes of binary data. */
const char *temp_data_file(const char *suffix, const void *data, size_t bytes);
/* Opens `path` as one layer of `l` and scans all `npages` of it through the
 * internal layer scanner, on `threads` threads: from its mapping (resident)
 * or with pread, on the GPU `g` or (NULL) the CPU. Fills `counts` and
 * `page_bad` (npages entries). */
void scan_file_layer(const char *path, const kvc_layout *l, gpu_ctx *g, int resident, unsigned threads,
                     uint64_t counts[KVC_CHECK_COUNT], uint32_t *page_bad, uint64_t npages);
/* A catalogue layout at the default dimensions (layout_default_params) and
 * `page_size`; fails the test if it does not build. */
kvc_layout layout_of(const char *name, uint32_t page_size);
#endif
