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
