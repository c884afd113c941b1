/* What the fuzz harnesses share: the libFuzzer entry point, a per-process
 * temporary directory for the APIs that take paths, and the oracles that
 * go beyond the sanitizers. A harness calls the library the way a client
 * does (kvcheck.h) and aborts on any broken promise, so libFuzzer keeps the
 * input as a crash. The same sources build as plain programs (replay.c) that
 * run every corpus file and reproducer as a ctest test. */
#ifndef KVC_FUZZ_H
#define KVC_FUZZ_H

#include "kvcheck.h"

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point, defined once by each harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints "fuzz oracle: ..." and aborts when `cond` is false. */
#define FZ_REQUIRE(cond, ...)                                          \
    do {                                                               \
        if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
    } while (0)
_Noreturn void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Writes `size` bytes to NAME in this process's temporary directory (made on
 * first use, removed at exit) and returns its path (static storage, valid
 * until the next call with the same name slot). fz_cleanup() removes every
 * file written since the last cleanup: call it at the end of each input. */
const char *fz_write(const char *name, const void *data, size_t size);
/* The temporary directory itself. */
const char *fz_dir(void);
void fz_cleanup(void);

/* The error contract (kvcheck.h): `st` is a status kvcheck defines; a
 * failure is never KVC_ERR_INTERNAL, is recorded in `diag` with the same
 * status and a message, and renders as an error report whose JSON parses.
 * Returns st. */
kvc_status fz_check(kvc_status st, const kvc_diag *diag, const char *call);

/* `doc` is one complete JSON object (cJSON_ParseWithLengthOpts, nothing but
 * white space after it); frees it with kvc_free. `what` names it. */
void fz_json(char *doc, const char *what);
/* `text` is a non-empty report; frees it with kvc_free. */
void fz_text(char *text, const char *what);

/* A resolved worker's exports (its layouts' too) and text reports. */
void fz_render_resolved(const kvc_resolved *r);
/* A verdict's export and text reports, and what it promises (compatible
 * means no mismatches; fixes hold one to KVC_MAX_FIX_ARGS flags). */
void fz_render_verdict(const kvc_verdict *v);

/* The fixed worker a fuzzed one is compared with: `side` of the GLM-5.2 PD
 * pair on B300 (fixtures/pairs/glm52-b300-hisparse-mtp) under the i-th
 * release (kvc_engine_release; a pair is compared under one release). Made
 * once, kept. */
const kvc_worker *fz_fixed(kvc_side side, unsigned release);

/* Loads `path` with kvc_recipe_load and checks what it promises (workers,
 * names, roles when there are several); each of the first 8 workers is
 * loaded, given B300 and GLM-5.2, resolved and rendered, and the first
 * prefill and decode that resolve are compared. */
void fz_recipe(const char *path);

/* Scan and detect inputs start with FZ_SCAN_PREFIX bytes that choose the
 * layout, its dimensions and the options; the rest is the file. See
 * tests/fuzz/README.md for the byte map. */
#define FZ_SCAN_PREFIX 8
typedef struct fz_scan_setup {
    const char *layout;       /* a catalogue name */
    kvc_layout_params params; /* page_size may be 0 (refused by scan; detect tries 64, then 1) */
    kvc_scan_options options; /* the CPU, one thread */
    const char *tensors[2];
    int twice;                /* give the file twice (two inputs) */
    unsigned kind;            /* detect: 0 raw, 1 .npy, 2 .safetensors, 3 host memory */
} fz_scan_setup;
/* Reads the prefix (`size` >= FZ_SCAN_PREFIX). */
void fz_scan_setup_read(const uint8_t *prefix, fz_scan_setup *out);
/* Scans `path` (twice when setup->twice) in setup's layout, with the oracles;
 * renders the report. */
void fz_scan_file(const fz_scan_setup *setup, const char *path);

#endif
