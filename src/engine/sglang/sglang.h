/* SGLang behind the engine interface: its launch flags (flags.c), --config
 * YAML (config.c), /server_info dumps (server_info.c), the rules that turn
 * settings into a KV layout (rules.c), and what it does with a PD pair:
 * fix candidates, the bootstrap check, the transfer (pd.c). sglang.c fills
 * the engine row. Private to src/engine/sglang/. */
#ifndef KVC_ENGINE_SGLANG_H
#define KVC_ENGINE_SGLANG_H

#include "engine/engine.h"

/* ---------------------------------------------------------------- releases */

/* The SGLang releases kvcheck has read, newest first (releases.c). A
 * release is an index into this list; masks of releases are uint64_t with
 * bit i for SGLANG_VERSIONS[i]. */
#define SGLANG_NRELEASES 38
extern const char *const SGLANG_VERSIONS[SGLANG_NRELEASES];
#define SGLANG_RELEASE_BIT(r) ((uint64_t)1 << (r))
/* The index of a version in SGLANG_VERSIONS; SGLANG_NRELEASES when it is none. */
unsigned sglang_release_index(const char *version);
/* 1 when release `rel` is from `since` to `until`, both included (NULL:
 * open on that end; a version that is none is past every release). */
int sglang_release_in(unsigned rel, const char *since, const char *until);
/* The engine's find_release (engine.h). */
kvc_status sglang_find_release(const char *asked, unsigned *index, char *note, size_t size, kvc_diag *diag);

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
    SET_SPEC_DRAFT_DTYPE,
    SET_TP,
    SET_DP,
    SET_DP_ATTENTION,
    SET_ROUND_ROBIN,
    SET_TRANSFER_BACKEND,
    SET_MODEL_PATH,
    SET_CONFIG,
    SET_COUNT
} setting_key;

/* The longest setting value kvcheck takes, NUL included: a path (--model-path,
 * --config) of PATH_MAX. A longer value is refused, never cut. */
#define SETTING_VALUE_LEN 4096

/* Input warnings a worker keeps, so that the rules' own warnings keep room
 * in the resolved worker's list; the last says how many more there were. */
#define SETTINGS_MAX_WARNINGS 8

typedef struct setting {
    int set;
    char value[SETTING_VALUE_LEN]; /* "" for a flag without value */
    char flag[KVC_NAME_LEN];       /* the flag as written (dashes repaired), "--nsa-decode-backend" */
    kvc_origin origin;
} setting;

typedef struct settings {
    setting s[SET_COUNT];
    unsigned nignored;
    char ignored[KVC_MAX_NOTES][KVC_NOTE_LEN];
    unsigned nwarnings; /* what kvcheck read differently from how it was written */
    char warnings[SETTINGS_MAX_WARNINGS][KVC_NOTE_LEN];
} settings;

/* One flag occurrence, in order. Small: a list may hold 10^5 of them. */
typedef struct kv_arg {
    int key;          /* setting_key, or -1 for a flag that cannot change the layout */
    char *flag;       /* as written, with leading dashes */
    char *value;      /* NULL when the flag has none */
    const char *file; /* where it was written: one of its list's files */
    unsigned line, column;
    char *where;      /* "args[3]", a YAML key; NULL: the flag */
} kv_arg;

typedef struct arglist {
    kv_arg *v;
    size_t n, cap;
    /* Words kvcheck read otherwise than written (mangled dashes, a flag and
     * its value in one word): said on the resolved worker, never skipped. */
    char **warnings;
    size_t nwarnings, warnings_cap;
    char **files; /* the names kv_arg.file points to, each once in a row */
    size_t nfiles, files_cap;
} arglist;


/* A worker's inputs: flags from its config file, then from its command
 * line (which win). */
struct engine_inputs {
    arglist config;
    arglist cli;
};

/* The inputs read into settings, with the GPU and model found. */
struct engine_worker {
    gpu_info gpu;
    model_info model;
    settings set;
};

void arglist_free(arglist *list);
/* Where a flag was given. */
void arg_origin(const kv_arg *a, kvc_origin *out);
/* Adds flags given as separate words; `origins` per word. Words before the
 * first "--flag" are the program's and are skipped. A flag whose leading
 * dashes copy-paste mangled ("\u2014enable-hisparse", "-kv-cache-dtype") is
 * read as the flag meant, and a word holding a flag and more words
 * ("--kv-cache-dtype bf16") is split as a shell would; both with a warning. */
kvc_status args_parse_words(arglist *list, const word_list *words, kvc_diag *diag);
/* Adds one flag with an optional value, as from a server_info or YAML key
 * written in snake_case or kebab-case. Unknown keys become ignored flags. */
kvc_status args_add_key(arglist *list, const char *key, const char *value, int present, const kvc_origin *origin,
                        kvc_diag *diag);
/* 1 when `key` names a flag that takes no value (store_true). */
int args_key_is_switch(const char *key);
/* 1 when `key` names a flag that can change the layout. */
int args_key_is_setting(const char *key);
/* Loads an SGLang --config YAML file as flags. */
kvc_status args_load_yaml(arglist *list, const char *path, kvc_diag *diag);
/* Folds config-file flags, then command-line flags, into settings
 * (later wins). Loads any --config file found on the command line. */
kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir, settings *out,
                          kvc_diag *diag);
/* The canonical flag for a setting ("--kv-cache-dtype"). */
const char *setting_flag(setting_key key);

/* ------------------------------------------------------------ server_info */

int server_info_is_dump(const struct cJSON *root);
/* The "version" a /server_info dump reports, or "". */
void server_info_version(const struct cJSON *root, char *out, size_t size, const char **key);
kvc_status server_info_add(engine_inputs *in, const struct cJSON *root, const char *text, const char *file,
                           kvc_diag *diag);

/* ------------------------------------------------------------------ rules */

/* Resolves from settings under one release. */
kvc_status rules_resolve(const gpu_info *gpu, const model_info *model, const settings *set, unsigned release,
                         kvc_resolved *out, kvc_diag *diag);

/* The oldest release of `rel`'s era: the run of neighbouring releases for
 * which the same rule rows hold. */
const char *rules_release_era(unsigned rel);
/* 1 when every version the rule tables name is a known release. */
int rules_tables_valid(void);
/* Backend table access for the fix search. */
unsigned rules_backend_count(void);
const char *rules_backend_name(unsigned i);
/* 1 when kvcheck would suggest this backend on this GPU in a fix: release
 * `rel` has it, it is known to run there and its layout is confirmed. */
int rules_backend_suggestable(unsigned i, const gpu_info *gpu, unsigned rel);

/* --------------------------------------------------------------------- pd */

unsigned pd_fix_candidates(const kvc_resolved *self, const kvc_resolved *other, engine_fix *out, unsigned max);
int pd_bootstrap(const kvc_resolved *prefill, const kvc_resolved *decode, char *stage, size_t stage_size, char *text,
                 size_t size);
const engine_transfer *pd_transfer(const kvc_resolved *prefill, const kvc_resolved *decode);

#endif /* KVC_ENGINE_SGLANG_H */
