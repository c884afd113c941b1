/* Files that describe workers as users keep them (kvc_recipe): worker
 * files, shell scripts, SGLang logs, deployment recipes. Each kind reads
 * its file into entries; an entry is what one worker is given. */
#ifndef KVC_RECIPE_H
#define KVC_RECIPE_H

#include "worker/worker.h"

/* A NAME=value, a GPU or a release a recipe gives a worker, with where. */
typedef struct recipe_value {
    char *text;
    kvc_origin at;
} recipe_value;

typedef struct recipe_entry {
    char name[KVC_NAME_LEN * 3];
    char role[KVC_NAME_LEN];
    const shell_script *script; /* the recipe's, or NULL: `own` */
    shell_script own;
    launch launch;            /* in `script`; launch.end == 0: none (a worker file, a log) */
    recipe_value *env;        /* beside the launch's own */
    size_t nenv;
    recipe_value gpu, release; /* text NULL: not given; release.at.where: where, as a sentence */
    size_t log_line;          /* a log: the settings line (1-based), 0 for none */
    unsigned log_column;      /* where its record starts */
    size_t log_records;       /* how many such lines the log holds (restarts): the last is read */
} recipe_entry;

struct kvc_recipe {
    char path[KVC_PATH_LEN];
    char dir[KVC_PATH_LEN];
    const char *kind;
    char *text; /* the file (a log: its server_args line) */
    size_t len;
    shell_script script; /* a shell script's */
    launch *launches;
    size_t nlaunches;
    recipe_entry *entries;
    size_t n, cap;
};

/* A new entry named `name` (printf), zeroed; NULL when out of memory. */
recipe_entry *recipe_add(kvc_recipe *r, const char *fmt, ...) KVC_PRINTF(2, 3);
/* Adds a value (copied) to a list of values. */
kvc_status recipe_value_add(recipe_value **list, size_t *n, const char *text, const kvc_origin *at, kvc_diag *diag);
kvc_status recipe_value_set(recipe_value *v, const char *text, const kvc_origin *at, kvc_diag *diag);

/* Deployment recipes in YAML (manifest.c): `found` is 0 when the text is
 * no YAML of a kind kvcheck reads (and, unless `yaml` says the file must
 * be YAML, no error); else its workers are the recipe's entries. */
kvc_status manifest_read(kvc_recipe *r, int yaml, int *found, kvc_diag *diag);

/* Logs (log.c): when the file holds the engine's start-up settings line,
 * the last one becomes the recipe's one entry (`found`), its record the
 * recipe's text. */
kvc_status log_read(kvc_recipe *r, int *found, kvc_diag *diag);

#endif /* KVC_RECIPE_H */
