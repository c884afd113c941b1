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

#endif /* KVC_WORKER_H */
