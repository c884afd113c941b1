/* Worker files and SGLang /server_info dumps: the input is the file.
 * Loaded, resolved (under the release the input's length picks), rendered,
 * and compared with the fixed GLM-5.2 pair on either side. Relative paths
 * inside it ("model", "config") are taken from the temporary directory.
 * The same bytes are also a running server's reply (kvc_worker_load_json
 * with KVC_LOAD_SERVER_REPLY, as `kvcheck check http://...` loads it): only
 * a server-info document is taken, anything else fails with KVC_ERR_IO. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write("worker.json", data, size);
    kvc_diag d;
    kvc_worker *w = kvc_worker_create(size & 2 ? "decode" : "prefill");
    FZ_REQUIRE(w != NULL, "kvc_worker_create");
    unsigned release = size & 1;
    kvc_status st = fz_check(kvc_worker_load_file(w, path, &d), &d, "kvc_worker_load_file");
    if (!st) st = fz_check(kvc_worker_set_release(w, kvc_engine_release(NULL, release), &d), &d, "kvc_worker_set_release");
    kvc_resolved *r = NULL;
    if (!st) st = fz_check(kvc_resolve(w, &r, &d), &d, "kvc_resolve");
    if (r) fz_render_resolved(r);
    kvc_resolved_free(r);
    if (!st) {
        /* the fuzzed worker on the side its label says, the fixed one on the other */
        kvc_verdict *v = NULL;
        if (size & 2) st = fz_check(kvc_compare(fz_fixed(KVC_SIDE_PREFILL, release), w, &v, &d), &d, "kvc_compare");
        else st = fz_check(kvc_compare(w, fz_fixed(KVC_SIDE_DECODE, release), &v, &d), &d, "kvc_compare");
        FZ_REQUIRE(st == KVC_OK, "kvc_compare failed on a worker that resolves: %s", d.message);
        fz_render_verdict(v);
        kvc_verdict_free(v);
    }
    kvc_worker_free(w);

    kvc_worker *reply = kvc_worker_create("http://127.0.0.1:30000/server_info");
    FZ_REQUIRE(reply != NULL, "kvc_worker_create");
    st = fz_check(kvc_worker_load_json(reply, (const char *)data, size, "http://127.0.0.1:30000/server_info",
                                       KVC_LOAD_SERVER_REPLY, &d),
                  &d, "kvc_worker_load_json");
    if (!st) st = fz_check(kvc_worker_set_release(reply, kvc_engine_release(NULL, release), &d), &d, "kvc_worker_set_release");
    r = NULL;
    if (!st) st = fz_check(kvc_resolve(reply, &r, &d), &d, "kvc_resolve");
    if (r) fz_render_resolved(r);
    kvc_resolved_free(r);
    kvc_worker_free(reply);
    fz_cleanup();
    return 0;
}
