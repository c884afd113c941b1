/* Launch-flag command lines (kvc_worker_add_args): the first byte picks the
 * GPU, the model preset and the release; the rest is the command line, as
 * a user pastes it after --args. Resolved, rendered, and compared with the
 * fixed GLM-5.2 pair on either side. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

static const char *const GPUS[] = {"B300", "H200", "sm_120", "MI300X", "GB200", "10.0", "H20", "MI355X"};
static const char *const MODELS[] = {"glm-5.2", "deepseek-v3.2", "deepseek-v3"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned pick = data[0];
    char *line = malloc(size);
    FZ_REQUIRE(line != NULL, "malloc");
    memcpy(line, data + 1, size - 1);
    line[size - 1] = '\0';
    kvc_diag d;
    kvc_worker *w = kvc_worker_create(pick & 0x80 ? "decode" : "prefill");
    FZ_REQUIRE(w != NULL, "kvc_worker_create");
    kvc_status st = fz_check(kvc_worker_set_gpu(w, GPUS[pick & 7], &d), &d, "kvc_worker_set_gpu");
    FZ_REQUIRE(st == KVC_OK, "a known GPU refused: %s", d.message);
    st = fz_check(kvc_worker_set_model(w, MODELS[(pick >> 3 & 3) % 3], &d), &d, "kvc_worker_set_model");
    FZ_REQUIRE(st == KVC_OK, "a preset refused: %s", d.message);
    unsigned release = pick >> 5 & 1;
    st = fz_check(kvc_worker_set_release(w, kvc_engine_release(NULL, release), &d), &d, "kvc_worker_set_release");
    FZ_REQUIRE(st == KVC_OK, "a known release refused: %s", d.message);
    st = fz_check(kvc_worker_add_args(w, line, "--args", &d), &d, "kvc_worker_add_args");
    kvc_resolved *r = NULL;
    if (!st) st = fz_check(kvc_resolve(w, &r, &d), &d, "kvc_resolve");
    if (r) fz_render_resolved(r);
    kvc_resolved_free(r);
    if (!st && (pick & 0x40)) {
        kvc_verdict *v = NULL;
        if (pick & 0x80) st = fz_check(kvc_compare(fz_fixed(KVC_SIDE_PREFILL, release), w, &v, &d), &d, "kvc_compare");
        else st = fz_check(kvc_compare(w, fz_fixed(KVC_SIDE_DECODE, release), &v, &d), &d, "kvc_compare");
        FZ_REQUIRE(st == KVC_OK, "kvc_compare failed on a worker that resolves: %s", d.message);
        fz_render_verdict(v);
        kvc_verdict_free(v);
    }
    kvc_worker_free(w);
    free(line);
    fz_cleanup();
    return 0;
}
