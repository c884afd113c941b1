/* A worker as configured: its label, GPU, model, engine, engine release and
 * the engine's own inputs (launch flags, config files, server dumps).
 * Engine-agnostic: the engine interface reads the flags. */
#ifndef KVC_WORKER_H
#define KVC_WORKER_H

#include "engine/engine.h"

/* The worker's engine and the release it is resolved under. */
const engine_def *worker_engine(const kvc_worker *worker);
unsigned worker_release(const kvc_worker *worker);
/* 1 when the worker's engine version was given (flag, worker file, dump). */
int worker_release_given(const kvc_worker *worker);
/* The worker's flags read by its engine, ready to resolve under any release
 * (free with worker_engine(w)->prepared_free). */
kvc_status worker_prepare(const kvc_worker *worker, engine_worker **out, kvc_diag *diag);
/* The same as another release of its engine parses the worker's inputs. */
kvc_status worker_prepare_as(const kvc_worker *worker, unsigned release, engine_worker **out, kvc_diag *diag);
/* Resolves a prepared worker and labels the result. */
kvc_status worker_resolve(const kvc_worker *worker, const engine_worker *prepared, unsigned release,
                          const engine_override *overrides, size_t noverrides, kvc_resolved *out, kvc_diag *diag);

/* KVC_OK when two workers can be paired: one engine, one release. */
kvc_status worker_pair_check(const kvc_worker *prefill, const kvc_worker *decode, kvc_diag *diag);
/* Resolves the worker under its own release (kvc_resolve into `out`). */
kvc_status worker_resolve_selected(const kvc_worker *worker, kvc_resolved *out, kvc_diag *diag);

/* ---------------------------------------------------------------- launches */

/* A NAME=value the launch runs with: text in the script's words. */
typedef struct launch_env {
    const char *text;
    unsigned line, column;
} launch_env;

/* One command of a script that starts the engine. */
typedef struct launch {
    size_t command;      /* index into the script's commands */
    size_t program, end; /* the engine's program and flags: words [program, end) */
    size_t image;        /* the word of a `docker run` image (or srun's --container-image), or SIZE_MAX */
    size_t image_skip;   /* where the image starts in that word (after "--container-image=") */
    launch_env *env;     /* earlier exports, the command's own, env's and docker's -e */
    size_t nenv;
} launch;

/* The commands of `s` that start engine `e`, unwrapped (launch.c). Fails
 * with the position for a docker option it does not know, and, when a
 * launch is found, for a command that starts with a flag (a line whose
 * continuation was lost). Free with launches_free. */
kvc_status launch_find(const shell_script *s, const engine_def *e, const char *file, launch **out, size_t *n,
                       kvc_diag *diag);
void launches_free(launch *l, size_t n);
/* Adds a launch to the worker: its environment (listed with -v), the
 * release its image's tag names (lmsysorg/sglang:v0.5.8-cu130), and its
 * words, all at their positions in `file`. */
kvc_status worker_add_launch(kvc_worker *worker, const shell_script *s, const launch *l, const char *file,
                             kvc_diag *diag);

/* ------------------------------------------------- inputs of recipe files */

/* The engine's inputs as recipes and logs give them: an environment variable. */
kvc_status worker_add_env(kvc_worker *worker, const char *assignment, const kvc_origin *origin, kvc_diag *diag);
/* A warning the resolved worker carries about where its inputs came from. */
void worker_add_warning(kvc_worker *worker, const char *fmt, ...) KVC_PRINTF(2, 3);
/* The settings record of a start-up log line, its first byte at `where`. */
kvc_status worker_add_log(kvc_worker *worker, const char *record, size_t len, const kvc_origin *where, kvc_diag *diag);
/* The GPU named at `origin` (a recipe's gpu_type). */
kvc_status worker_set_gpu_at(kvc_worker *worker, const char *gpu, const kvc_origin *origin, kvc_diag *diag);
/* The engine release `version`, given at `from` ("recipe.yaml:7:14 (image lmsysorg/sglang:v0.5.8)"). */
kvc_status worker_set_release_from(kvc_worker *worker, const char *version, const char *from, kvc_diag *diag);
/* The release an image reference names when its repository is the engine's
 * ("lmsysorg/sglang:v0.5.8-cu130": "0.5.8"): 1 with it in `out`, else 0. */
int worker_image_release(const kvc_worker *worker, const char *image, char *out, size_t size);
/* The same for engine `e`. */
int engine_image_release(const engine_def *e, const char *image, char *out, size_t size);
/* The worker's PD role as its release reads its inputs. */
kvc_status worker_role(const kvc_worker *worker, char *out, size_t size, kvc_diag *diag);
/* Relative paths in the worker's inputs are taken from `dir`. */
void worker_set_base_dir(kvc_worker *worker, const char *dir);

#endif /* KVC_WORKER_H */
