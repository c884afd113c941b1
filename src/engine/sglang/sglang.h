/* SGLang: its launch flags, --config YAML, /server_info keys, settings and
 * the rules that turn them into a KV layout. */
#ifndef KVC_ENGINE_SGLANG_H
#define KVC_ENGINE_SGLANG_H

#include "format/format.h"
#include "target/target.h"

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

#endif /* KVC_ENGINE_SGLANG_H */
