/* The SGLang engine row: its inputs, how a worker is prepared (flags read
 * into settings, GPU and model found) and resolved under a release. */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

static engine_inputs *inputs_create(void) { return calloc(1, sizeof(engine_inputs)); }

static void inputs_free(engine_inputs *in)
{
    if (!in) return;
    arglist_free(&in->config);
    arglist_free(&in->cli);
    free(in);
}

static kvc_status add_words(engine_inputs *in, const word_list *words, kvc_diag *diag)
{
    return args_parse_words(&in->cli, words, diag);
}

static kvc_status add_config(engine_inputs *in, const char *path, kvc_diag *diag)
{
    return args_load_yaml(&in->config, path, diag);
}

static kvc_status add_dump(engine_inputs *in, const struct cJSON *root, const char *text, const char *file,
                           kvc_diag *diag)
{
    return server_info_add(in, root, text, file, diag);
}

static kvc_status add_env(engine_inputs *in, const char *assignment, const kvc_origin *origin, kvc_diag *diag)
{
    return args_add_env(&in->cli, assignment, origin, diag);
}

/* --disaggregation-mode as the release stores it: "prefill", "decode" or "null". */
static kvc_status role(const engine_inputs *in, const char *base_dir, unsigned release, char *out, size_t size,
                       kvc_diag *diag)
{
    settings *set = malloc(sizeof *set);
    if (!set) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = settings_build(&in->config, &in->cli, base_dir, release, set, diag);
    const setting *mode = &set->s[SET_DISAGG_MODE];
    if (!st) str_copy(out, size, mode->set && mode->value[0] ? mode->value : "null");
    free(set);
    return st;
}

static void prepared_free(engine_worker *w) { free(w); }

/* A setting's value when given and not empty, else NULL. */
static const char *given(const setting *s) { return s->set && s->value[0] ? s->value : NULL; }

static kvc_status prepare(const engine_inputs *in, const engine_target *t, unsigned release, engine_worker **out,
                          kvc_diag *diag)
{
    *out = NULL;
    engine_worker *w = calloc(1, sizeof *w);
    if (!w) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    kvc_status st = settings_build(&in->config, &in->cli, t->base_dir, release, &w->set, diag);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "gpu");
    if (!st && !t->gpu)
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: no GPU given: add \"gpu\" to the worker file or pass --gpu (e.g. B300, H200, sm_100)",
                      t->label);
    if (!st) w->gpu = *t->gpu;
    const setting *mp = &w->set.s[SET_MODEL_PATH];
    origin_set(&o, "", 0, 0, "model");
    if (st || t->model) {
        if (!st) w->model = *t->model;
    } else if (given(mp)) {
        st = model_from_path(mp->value, given(&w->set.s[SET_REVISION]), &mp->origin, t->base_dir, t->label,
                             &w->model, diag);
    } else {
        st = diag_set(diag, KVC_ERR_CONFIG, &o,
                      "%s: no model given: add \"model\" to the worker file or pass --model (a preset name or a "
                      "path to config.json)",
                      t->label);
    }
    if (st) {
        free(w);
        return st;
    }
    /* a draft model found nowhere leaves its pool underived (the rules warn), never the worker refused */
    const setting *dp = &w->set.s[SET_SPEC_DRAFT_MODEL];
    if (given(dp)) {
        kvc_diag why;
        w->draft.found = model_draft_from_path(dp->value, given(&w->set.s[SET_SPEC_DRAFT_REVISION]), &dp->origin,
                                               t->base_dir, "", &w->draft.model, &why) == KVC_OK;
        if (!w->draft.found && strstr(why.message, "could not be found"))
            str_printf(w->draft.why, sizeof w->draft.why, "'%s' found nowhere: local path, Hugging Face cache, "
                       "bundled models", dp->value);
        else if (!w->draft.found)
            str_copy(w->draft.why, sizeof w->draft.why, why.message);
    }
    *out = w;
    return KVC_OK;
}

static kvc_status resolve(const engine_worker *w, unsigned release, const engine_override *ov, size_t nov,
                          kvc_resolved *out, kvc_diag *diag)
{
    if (!nov) return rules_resolve(&w->gpu, &w->model, &w->draft, &w->set, release, out, diag);
    settings *set = malloc(sizeof *set);
    if (!set) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    memcpy(set, &w->set, sizeof *set);
    for (size_t i = 0; i < nov; i++) {
        setting *s = &set->s[ov[i].key];
        s->set = 1;
        str_copy(s->value, sizeof s->value, ov[i].value);
        const char *flag = setting_flag((setting_key)ov[i].key, release);
        str_copy(s->flag, sizeof s->flag, flag ? flag : "");
        origin_set(&s->origin, "", 0, 0, "fix");
    }
    kvc_status st = rules_resolve(&w->gpu, &w->model, &w->draft, set, release, out, diag);
    free(set);
    return st;
}

const engine_def ENGINE_SGLANG = {
    .name = "sglang",
    .words =
        {
            .name = "SGLang",
            .release_option = "--sglang-version",
            .release_key = "sglang_version",
            .layout_flags = "dtype and both DSA backends",
            .first_error = "NaN detected! verify: target model logits",
            .dump_description = "an SGLang /server_info dump (an object with kv_cache_dtype, model_path, ...)",
            .config_description = "the path of an SGLang --config YAML file",
            .image = "sglang",
            .log_marker = "server_args=",
            /* `sglang version` prints it (0.5.8 on: python/sglang/cli/main.py); no release logs it at start-up */
            .log_version = "sglang version: ",
        },
    .releases = SGLANG_VERSIONS,
    .nreleases = SGLANG_NRELEASES,
    .find_release = sglang_find_release,
    .release_era = rules_release_era,
    .inputs_create = inputs_create,
    .inputs_free = inputs_free,
    .add_words = add_words,
    .launch_words = args_launch_words,
    .add_env = add_env,
    .role = role,
    .add_config = add_config,
    .is_dump = server_info_is_dump,
    .add_dump = add_dump,
    .add_log = server_log_add,
    .dump_version = server_info_version,
    .prepare = prepare,
    .prepared_free = prepared_free,
    .resolve = resolve,
    .fix_candidates = pd_fix_candidates,
    .bootstrap = pd_bootstrap,
    .transfer = pd_transfer,
};
