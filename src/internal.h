/* Internal declarations shared by the library's stages. Not installed. */
#ifndef KVC_INTERNAL_H
#define KVC_INTERNAL_H

#include "kvcheck.h"

#include <stdarg.h>
#include <stdio.h>

#define KVC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- diagnostics */

/* Where a value came from: a file position, a JSON path or a flag name. */
typedef struct kvc_origin {
    char file[512];
    unsigned line, column;
    char where[160];
} kvc_origin;

/* Fills `diag` (which may be NULL) and returns `status`. */
kvc_status diag_set(kvc_diag *diag, kvc_status status, const kvc_origin *origin,
                    const char *fmt, ...) KVC_PRINTF(4, 5);

/* Check and explain in one line. */
#define RETURN_ERROR_IF(cond, diag, status, origin, ...)                                \
    do {                                                                                \
        if (cond) return diag_set((diag), (status), (origin), __VA_ARGS__);             \
    } while (0)

/* "file:line:column" or the parts that are known; "" when none. */
void origin_format(const kvc_origin *origin, char *out, size_t size);
void origin_set(kvc_origin *origin, const char *file, unsigned line, unsigned column,
                const char *where);

/* --------------------------------------------------------------- strings */

/* Copies with truncation; always NUL-terminates. */
void str_copy(char *dst, size_t size, const char *src);
void str_printf(char *dst, size_t size, const char *fmt, ...) KVC_PRINTF(3, 4);
/* ASCII case-insensitive equality. */
int str_ieq(const char *a, const char *b);

/* Appends a formatted note to a fixed note list; drops it when full. */
void notes_add(char (*notes)[KVC_NOTE_LEN], unsigned *n, unsigned max, const char *fmt, ...)
    KVC_PRINTF(4, 5);

/* Growable string; on allocation failure `oom` is set and appends stop. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;
} strbuf;
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...) KVC_PRINTF(2, 3);
void sb_pad(strbuf *sb, size_t width, const char *s); /* s padded to width */
/* Hands over the string (NULL after OOM) and resets the buffer. */
char *sb_take(strbuf *sb);

/* ------------------------------------------------------------------ files */

/* Reads a whole file, opened read-only, into a NUL-terminated buffer. */
kvc_status file_read_all(const char *path, char **out, size_t *len, kvc_diag *diag);
/* The directory part of `path` ("." when none). */
void path_dirname(const char *path, char *out, size_t size);
/* `rel` taken relative to `base_dir` unless absolute. */
void path_join(const char *base_dir, const char *rel, char *out, size_t size);

/* -------------------------------------------------------------------- GPU */

typedef struct gpu_info {
    char name[KVC_NAME_LEN];
    unsigned major, minor;
    int hip;
} gpu_info;

/* Parses a product name, sm_NN, smNN or N.M. */
kvc_status gpu_parse(const char *text, gpu_info *out, const kvc_origin *origin, kvc_diag *diag);

/* ------------------------------------------------------------------ model */

typedef struct model_info {
    char name[KVC_NAME_LEN];
    char architecture[KVC_NAME_LEN];
    char torch_dtype[KVC_NAME_LEN];
    int dsa;
    uint32_t kv_lora_rank, qk_rope_head_dim, num_hidden_layers;
    uint32_t num_nextn_predict_layers, index_head_dim;
} model_info;

/* `ref` is a preset name or a path (relative to base_dir). */
kvc_status model_load(const char *ref, const char *base_dir, model_info *out, kvc_diag *diag);
/* Parses a config.json text; `file` names it in messages. */
kvc_status model_parse(const char *text, size_t len, const char *file, const char *name,
                       model_info *out, kvc_diag *diag);
/* The same for a model written inline in a bigger document: positions are
 * looked up in `locate_in`, the document the user wrote. */
kvc_status model_parse_inline(const char *text, size_t len, const char *locate_in, const char *file,
                              const char *name, model_info *out, kvc_diag *diag);
/* 1 when `name` is a bundled preset. */
int model_is_preset(const char *name);
/* Comma-separated preset names, for messages. */
void model_preset_list(char *out, size_t size);

/* ---------------------------------------------------------------- JSON aid */

struct cJSON;
/* Parses `text`; on failure reports file:line:column of the error. Rejects
 * duplicate keys at any depth. */
kvc_status json_parse(const char *text, size_t len, const char *file, struct cJSON **out,
                      kvc_diag *diag);
/* Line and column of the `nth` (0-based) occurrence of "key": in `text`. */
void json_locate_key(const char *text, const char *key, unsigned nth, unsigned *line,
                     unsigned *column);
/* Positions of the first n elements of the list under "key". */
void json_locate_elements(const char *text, const char *key, size_t n, unsigned *lines,
                          unsigned *columns);
/* Reads an integral number in [lo, hi] from `item`. */
kvc_status json_get_uint(const struct cJSON *item, const char *text, const char *file,
                         const char *key, uint32_t lo, uint32_t hi, uint32_t *out,
                         kvc_diag *diag);

/* ------------------------------------------------------------------- flags */

/* Settings that can change the KV layout, plus those worth explaining. */
typedef enum setting_key {
    SET_KV_CACHE_DTYPE,
    SET_PREFILL_BACKEND,
    SET_DECODE_BACKEND,
    SET_PAGE_SIZE,
    SET_DISAGG_MODE,
    SET_HISPARSE,
    SET_DISABLE_RADIX,
    SET_SPEC_ALGO,
    SET_TP,
    SET_DP,
    SET_DP_ATTENTION,
    SET_MODEL_PATH,
    SET_CONFIG,
    SET_COUNT
} setting_key;

typedef struct setting {
    int set;
    char value[KVC_NAME_LEN]; /* "" for a flag without value */
    char flag[KVC_NAME_LEN];  /* the flag as written, "--nsa-decode-backend" */
    kvc_origin origin;
} setting;

typedef struct settings {
    setting s[SET_COUNT];
    unsigned nignored;
    char ignored[KVC_MAX_NOTES][KVC_NOTE_LEN];
} settings;

/* One flag occurrence, in order. */
typedef struct kv_arg {
    int key;        /* setting_key, or -1 for a flag that cannot change the layout */
    char *flag;     /* as written, with leading dashes */
    char *value;    /* NULL when the flag has none */
    kvc_origin origin;
} kv_arg;

typedef struct arglist {
    kv_arg *v;
    size_t n, cap;
} arglist;

void arglist_free(arglist *list);
kvc_status arglist_copy(arglist *dst, const arglist *src, kvc_diag *diag);
/* Splits a command line into flags (quoting, continuations, skipping the
 * program words before the first "--flag"). */
kvc_status args_parse_line(arglist *list, const char *line, const char *origin_name,
                           kvc_diag *diag);
/* Adds flags given as separate words (a JSON list); `origins` per word. */
kvc_status args_parse_words(arglist *list, char **words, const kvc_origin *origins, size_t n,
                            kvc_diag *diag);
/* Adds one flag with an optional value, as from a server_info or YAML key
 * written in snake_case or kebab-case. Unknown keys become ignored flags. */
kvc_status args_add_key(arglist *list, const char *key, const char *value, int present,
                        const kvc_origin *origin, kvc_diag *diag);
/* Loads an SGLang --config YAML file as flags. */
kvc_status args_load_yaml(arglist *list, const char *path, kvc_diag *diag);
/* Folds config-file flags, then command-line flags, into settings
 * (later wins). Loads any --config file found on the command line. */
kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir,
                          settings *out, kvc_diag *diag);
/* The canonical flag for a setting ("--kv-cache-dtype"). */
const char *setting_flag(setting_key key);

/* ----------------------------------------------------------------- layout */

/* The field that holds byte `at` of a buffer of pages in layout `l`, with the
 * token (counted from the buffer's start) and element index; NULL for
 * padding between fields or at a page's end. */
const kvc_field *layout_field_at(const kvc_layout *l, uint64_t at, uint64_t *token, uint32_t *elem);

/* ------------------------------------------------------------------- scan */

#include "kvc_predicates.h"

/* One field's bytes within a token record, as the scanners walk it. */
typedef struct scan_run {
    uint64_t base, stride; /* as in kvc_field */
    uint32_t bytes;        /* per token */
    unsigned kind;         /* enum kvc_kind */
    unsigned field;        /* index into the layout's fields */
} scan_run;

/* What both scanners start from: the layout's judged fields in byte order
 * and the scale policies. */
typedef struct scan_plan {
    kvc_layout layout;
    kvc_scale_rules rules;
    unsigned nruns;
    scan_run runs[KVC_MAX_FIELDS];
} scan_plan;

unsigned field_kind(const kvc_field *f);
kvc_status scan_plan_make(const kvc_layout *l, const kvc_scan_options *o, scan_plan *out, kvc_diag *diag);

/* Counts the damaged elements of one page into counts[check]; returns how many. */
uint32_t scan_page(const scan_plan *plan, const uint8_t *page, uint64_t counts[KVC_CHECK_COUNT]);
/* Appends one page's findings in byte order while fewer than `max` are held. */
void scan_page_findings(const scan_plan *plan, const uint8_t *page, unsigned layer, uint64_t page_index,
                        uint64_t page_offset, kvc_finding *out, size_t *n, size_t max);
/* The value an element's bytes stand for. */
double elem_decode(kvc_elem elem, const uint8_t *p);

/* One layer for a scanner: where its pages are, which to scan, and where
 * the results go. */
typedef struct layer_job {
    const struct layer_src *src; /* where the pages come from, for streaming */
    int resident;             /* the pages are in memory: scan them where they are */
    const uint8_t *host;      /* the layer's pages in host memory (mapped), or NULL */
    uint64_t device;          /* or in device memory (a CUdeviceptr), else 0 */
    uint64_t npages_total;
    const uint64_t *pages;    /* selected pages, ascending; NULL: all */
    uint64_t npages;          /* how many are scanned */
    uint32_t *page_bad;       /* out: damaged elements per scanned page */
    uint64_t counts[KVC_CHECK_COUNT]; /* out: added to */
    void (*progress)(void *ctx, uint64_t bytes_done); /* within this layer; may be NULL */
    void *progress_ctx;
} layer_job;

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
    uint64_t page_bytes;
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

/* CPU threads to use for `asked` (0: one per online CPU, at most 16). */
unsigned cpu_threads(unsigned asked);
kvc_status cpu_scan_layer(const scan_plan *plan, layer_job *job, unsigned threads, kvc_diag *diag);

/* -------------------------------------------------------------------- GPU */

#include "cuda_api.h"

/* 1 for the driver results that mean "no usable GPU" (STYLE.md's list). */
int cuda_result_means_absent(cu_result r);
/* "[CUDA_ERROR_OUT_OF_MEMORY] out of memory in cuMemAlloc(...)" as KVC_ERR_GPU;
 * sets *absent (may be NULL) for results that mean no usable GPU. */
kvc_status cuda_fail(const cuda_api *api, cu_result r, const char *call, int *absent, kvc_diag *diag);
/* Loads a driver library by name into `api` (the real one is "libcuda.so.1"). */
kvc_status cuda_load(const char *soname, cuda_api *api, int *absent, kvc_diag *diag);
/* The process's driver, loaded once. *absent is 1 when there is none to use. */
kvc_status cuda_driver(const cuda_api **out, int *absent, kvc_diag *diag);
/* The embedded kernels, or NULL in a build without nvcc. */
const void *gpu_kernels_image(void);

typedef struct gpu_ctx gpu_ctx;
/* Opens GPU `ordinal` through `inject` (tests) or the real driver and loads
 * the kernels; the primary context stays current on this thread until
 * gpu_close. On failure *absent says whether it means "no usable GPU". */
kvc_status gpu_open(const cuda_api *inject, int ordinal, gpu_ctx **out, int *absent, kvc_diag *diag);
void gpu_close(gpu_ctx *g); /* accepts NULL */
/* The device a command runs on: *out is the GPU, or NULL for the CPU with
 * `why_not` saying why when the GPU was wanted (auto) but is not usable.
 * Fails when the GPU is needed or asked for and not usable, or the driver
 * fails otherwise (STYLE.md: only "no usable GPU" falls back). */
kvc_status gpu_choose(kvc_device want, int need_gpu, const cuda_api *driver, gpu_ctx **out, char *why_not,
                      size_t size, kvc_diag *diag);
const char *gpu_name(const gpu_ctx *g);
/* Scans job->device in place, or job->host streamed through pinned buffers
 * (gathered on `threads` threads). */
kvc_status gpu_scan_layer(gpu_ctx *g, const scan_plan *p, layer_job *job, unsigned threads, kvc_diag *diag);
kvc_status gpu_copy_to_host(gpu_ctx *g, void *dst, uint64_t src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_device_of(gpu_ctx *g, uint64_t ptr, int *ordinal, kvc_diag *diag);
/* For tests and the benchmark. */
kvc_status gpu_alloc(gpu_ctx *g, uint64_t bytes, uint64_t *out, kvc_diag *diag);
kvc_status gpu_upload(gpu_ctx *g, uint64_t dst, const void *src, uint64_t bytes, kvc_diag *diag);
kvc_status gpu_alloc_upload(gpu_ctx *g, const void *src, uint64_t bytes, uint64_t *out, kvc_diag *diag);
void gpu_free(gpu_ctx *g, uint64_t ptr);
kvc_status gpu_time_read(gpu_ctx *g, uint64_t ptr, uint64_t bytes, int iters, double *seconds, kvc_diag *diag);
kvc_status gpu_time_scan(gpu_ctx *g, const scan_plan *p, uint64_t ptr, uint64_t bytes, int iters, double *seconds,
                         kvc_diag *diag);
/* simulate on the GPU: writes prefill's pages, moves them, reads both back;
 * per-token results into `stats`; decode's buffer stays on the device for the
 * scan (*dbuf, freed with gpu_free). */
struct kvc_sim_layout;
struct kvc_sim_token;
kvc_status gpu_simulate(gpu_ctx *g, const struct kvc_sim_layout *pl, const struct kvc_sim_layout *dl, uint64_t seed,
                        uint64_t tokens, uint64_t pbytes, uint64_t dbytes, struct kvc_sim_token *stats, uint64_t *dbuf,
                        kvc_diag *diag);

/* The scan entry points with an injectable driver (NULL: the real one). */
kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag);
kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag);

/* ---------------------------------------------------------------- reports */

struct cJSON;
typedef struct style {
    const char *red, *green, *yellow, *bold, *off;
} style;
style report_style(unsigned options);
void report_text_fields(strbuf *sb, const kvc_layout *l);
struct cJSON *report_json_layout(const kvc_layout *l);
struct cJSON *report_json_notes(const char (*notes)[KVC_NOTE_LEN], unsigned n);
/* Prints and frees `doc`; the string is freed with kvc_free. */
char *report_json_finish(struct cJSON *doc);

/* ----------------------------------------------------------------- detect */

/* Ranks the catalogue's layouts for opened inputs (kvc_detect_files's core). */
kvc_status detect_inputs(const scan_inputs *in, const kvc_layout_params *params, kvc_detection *out, kvc_diag *diag);

/* ------------------------------------------------------------------ rules */

/* Resolves from parsed inputs; kvc_resolve wraps this. */
kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const settings *set,
                         kvc_rules rules, kvc_resolved *out, kvc_diag *diag);

/* Backend table access for the fix search. */
unsigned rules_backend_count(void);
const char *rules_backend_name(unsigned i);
/* 1 when kvcheck would suggest this backend on this GPU in a fix: it is
 * known to run there and its layout is confirmed. */
int rules_backend_suggestable(unsigned i, const gpu_info *gpu);

/* Internal access to a worker's parts. */
kvc_status worker_inputs(const kvc_worker *worker, gpu_info *gpu, model_info *model,
                         settings *set, kvc_diag *diag);

#endif /* KVC_INTERNAL_H */
