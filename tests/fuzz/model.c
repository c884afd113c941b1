/* Hugging Face config.json files: the input is the file, written as
 * config.json in the temporary directory. Its dimensions build every
 * catalogue layout; as a worker's model (given by its directory) it is
 * resolved for a DSA-style prefill and decode pair on B300, and the pair
 * compared. */
#include "fuzz.h"

static kvc_worker *worker(const char *label, const char *model, const char *args)
{
    kvc_diag d;
    kvc_worker *w = kvc_worker_create(label);
    FZ_REQUIRE(w != NULL, "kvc_worker_create");
    kvc_status st = fz_check(kvc_worker_set_gpu(w, "B300", &d), &d, "kvc_worker_set_gpu");
    FZ_REQUIRE(st == KVC_OK, "the fixed GPU refused: %s", d.message);
    st = fz_check(kvc_worker_set_model(w, model, &d), &d, "kvc_worker_set_model");
    if (!st) st = fz_check(kvc_worker_add_args(w, args, "--args", &d), &d, "kvc_worker_add_args");
    if (st) {
        kvc_worker_free(w);
        return NULL;
    }
    return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write("config.json", data, size);
    kvc_diag d;
    kvc_layout_params p;
    if (!fz_check(kvc_model_layout_params(path, &p, &d), &d, "kvc_model_layout_params")) {
        for (unsigned i = 0; kvc_layout_catalogue(i); i++) {
            kvc_layout *l = NULL;
            if (fz_check(kvc_layout_build(kvc_layout_catalogue(i), &p, &l, &d), &d, "kvc_layout_build")) continue;
            FZ_REQUIRE(kvc_layout_page_bytes(l) > 0, "%s: 0 bytes per page", kvc_layout_catalogue(i));
            fz_json(kvc_layout_json(l), "kvc_layout_json");
            kvc_layout_free(l);
        }
    }
    kvc_worker *prefill = worker("prefill", fz_dir(),
                                 "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3 --speculative-algorithm "
                                 "EAGLE");
    kvc_worker *decode = worker("decode", fz_dir(),
                                "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --enable-hisparse "
                                "--disable-radix-cache --speculative-algorithm EAGLE --page-size 32");
    kvc_resolved *r = NULL;
    if (prefill && !fz_check(kvc_resolve(prefill, &r, &d), &d, "kvc_resolve")) fz_render_resolved(r);
    kvc_resolved_free(r);
    r = NULL;
    if (decode && !fz_check(kvc_resolve(decode, &r, &d), &d, "kvc_resolve")) fz_render_resolved(r);
    kvc_resolved_free(r);
    kvc_verdict *v = NULL;
    if (prefill && decode && !fz_check(kvc_compare(prefill, decode, &v, &d), &d, "kvc_compare"))
        fz_render_verdict(v);
    kvc_verdict_free(v);
    kvc_worker_free(prefill);
    kvc_worker_free(decode);
    fz_cleanup();
    return 0;
}
