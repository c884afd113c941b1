/* A worker as configured: label, GPU, model and engine inputs. */
#ifndef KVC_WORKER_H
#define KVC_WORKER_H

#include "engine/sglang/sglang.h"

/* Internal access to a worker's parts. */
kvc_status worker_inputs(const kvc_worker *worker, gpu_info *gpu, model_info *model,
                         settings *set, kvc_diag *diag);

#endif /* KVC_WORKER_H */
