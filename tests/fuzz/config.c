/* SGLang --config YAML files: the input is the file, named by a fixed worker
 * file's "config" (B300, GLM-5.2) and, as SGLang takes it, by --config in a
 * launch command. Each worker is resolved and rendered; the first is
 * compared with the fixed prefill worker. */
#include "fuzz.h"

#include <stdio.h>

static const char WORKER[] = "{\"engine\": \"sglang\", \"gpu\": \"B300\", \"model\": \"glm-5.2\", "
                             "\"config\": \"sglang.yaml\"}";

static void resolve_and_render(const kvc_worker *w, int compare)
{
    kvc_diag d;
    kvc_resolved *r = NULL;
    kvc_status st = fz_check(kvc_resolve(w, &r, &d), &d, "kvc_resolve");
    if (r) fz_render_resolved(r);
    kvc_resolved_free(r);
    if (st || !compare) return;
    kvc_verdict *v = NULL;
    st = fz_check(kvc_compare(fz_fixed(KVC_SIDE_PREFILL, 0), w, &v, &d), &d, "kvc_compare");
    FZ_REQUIRE(st == KVC_OK, "kvc_compare failed on a worker that resolves: %s", d.message);
    fz_render_verdict(v);
    kvc_verdict_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *yaml = fz_write("sglang.yaml", data, size);
    const char *file = fz_write("worker.json", WORKER, sizeof WORKER - 1);
    kvc_diag d;
    kvc_worker *w = kvc_worker_create("decode");
    FZ_REQUIRE(w != NULL, "kvc_worker_create");
    if (!fz_check(kvc_worker_load_file(w, file, &d), &d, "kvc_worker_load_file")) resolve_and_render(w, 1);
    kvc_worker_free(w);

    char line[700];
    snprintf(line, sizeof line, "python3 -m sglang.launch_server --config '%s' --kv-cache-dtype fp8_e4m3", yaml);
    w = kvc_worker_create("decode");
    FZ_REQUIRE(w != NULL, "kvc_worker_create");
    kvc_status st = fz_check(kvc_worker_set_gpu(w, "H200", &d), &d, "kvc_worker_set_gpu");
    if (!st) st = fz_check(kvc_worker_set_model(w, "deepseek-v3.2", &d), &d, "kvc_worker_set_model");
    FZ_REQUIRE(st == KVC_OK, "the fixed GPU or model refused: %s", d.message);
    if (!fz_check(kvc_worker_add_args(w, line, "--args", &d), &d, "kvc_worker_add_args")) resolve_and_render(w, 0);
    kvc_worker_free(w);
    fz_cleanup();
    return 0;
}
