/* DeepSeek-V4 (0.5.12+): its start-up hook's checks, its page of 256 and
 * the DeepSeekV4TokenToKVPool's buffer groups (tools/sglang-oracle/DSV4.md).
 * rules.c runs the handlers and checks every model meets around
 * dsv4_resolve. */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

/* DeepSeek-V4 workers (tools/sglang-oracle/DSV4.md): SGLang builds a
 * DeepSeekV4TokenToKVPool for them, not an MLA pool. Modelled where its
 * start-up hook runs (a DeepseekV4ForCausalLM target; a stand-alone NextN
 * worker does not get it) on CUDA, with FlashMLA's v4 layout (the one
 * --dsv4-attn-backend and SGLANG_DSV4_KV_LAYOUT keep by default). */
static const struct dsv4_row {
    const char *arch;
    span when;
    const char *cite;
} DSV4_ARCHES[] = {
    /* the hook runs for architectures[0] == DeepseekV4ForCausalLM (sglang 0.5.12: python/sglang/srt/server_args.py:
     * 1777-1784; 0.5.14: :3510-3517; 0.5.17: :5106-5113; 0.5.19: python/sglang/srt/arg_groups/model_hook.py:134-141;
     * 0.5.20: :171-178; 0.5.21: :225-232; 0.5.22: :258-265; 0.5.23: :258-265) */
    {"DeepseekV4ForCausalLM", FROM_TO("0.5.12", "0.5.23"),
     "is_deepseek_v4, sglang 0.5.12: python/sglang/srt/configs/model_config.py:117-121"},
};

static const char DSV4_HOOK_CITE[] = "sglang 0.5.12: python/sglang/srt/arg_groups/deepseek_v4_hook.py:15-19; "
                                    "sglang 0.5.23: python/sglang/srt/arg_groups/model_overrides/deepseek_v4.py:51-61";

/* The KV dtypes the hook accepts ("auto" becomes fp8_e4m3 first). */
static const struct dsv4_dtype_rule {
    span when;
    const char *accepted; /* space-separated */
    const char *cite;
} DSV4_DTYPE[] = {
    {FROM_TO("0.5.12", "0.5.13.post1"), "fp8_e4m3", "sglang 0.5.12: python/sglang/srt/arg_groups/deepseek_v4_hook.py:27-34"},
    /* the same check in the hook (0.5.14) and in overrides.py's _deepseek_v4_kv_cache_dtype (0.5.15+; 0.5.20:
     * :951-972, 0.5.21: :849-870, 0.5.22: :868-889), run by the hook (0.5.20: deepseek_v4_hook.py:135) */
    {FROM_TO("0.5.14", "0.5.23"), "fp8_e4m3 bfloat16", "sglang 0.5.14: python/sglang/srt/arg_groups/deepseek_v4_hook.py:"
     "18-40; sglang 0.5.15: python/sglang/srt/arg_groups/overrides.py:1299-1320; sglang 0.5.23: :892-913"},
};

/* The speculative algorithms the hook accepts; EAGLE also needs topk 1. The
 * hook runs before SGLang picks the speculative defaults (sglang 0.5.12:
 * python/sglang/srt/server_args.py:929, :976; sglang 0.5.19:
 * python/sglang/srt/arg_groups/pipeline.py:236, :319), so an unset
 * --speculative-eagle-topk is still None there and fails the topk check. */
static const struct dsv4_spec_rule {
    span when;
    const char *accepted;
    const char *message; /* {arch} */
    const char *cite;
} DSV4_SPEC[] = {
    {FROM_TO("0.5.12", "0.5.15.post1"), "EAGLE", "Only EAGLE speculative algorithm is supported for {arch}",
     "sglang 0.5.12: python/sglang/srt/arg_groups/deepseek_v4_hook.py:36-42"},
    /* 0.5.20: :188-198, 0.5.21: :96-106, 0.5.22: :102-112 */
    {FROM_TO("0.5.16", "0.5.23"), "EAGLE DSPARK", "Only EAGLE and DSPARK speculative algorithms are supported for {arch}",
     "sglang 0.5.16: python/sglang/srt/arg_groups/deepseek_v4_hook.py:55-63; sglang 0.5.23: :148-158"},
};

/* PD with pipeline parallelism, refused by the hook of one release. */
static const struct dsv4_pd_rule {
    span when;
    const char *message; /* {pp} */
    const char *cite;
} DSV4_PD_PP[] = {
    {FROM_TO("0.5.12", "0.5.12"), "ValueError: V4 PD disaggregation requires pp_size=1, got pp_size={pp}.",
     "sglang 0.5.12: python/sglang/srt/arg_groups/deepseek_v4_hook.py:54-59"},
};

/* --dsv4-attn-backend's values that keep FlashMLA's v4 pool: the pool is
 * uniform FP8 only for trtllm (sglang 0.5.20: python/sglang/srt/mem_cache/
 * deepseek_v4_memory_pool.py:718-721), and 0.5.23's auto picks flashmla_mega
 * only for model_type deepseek_v41 (else flashmla). */
static const struct dsv4_backend_row {
    span when;
    const char *v4; /* space-separated */
    const char *cite;
} DSV4_BACKENDS[] = {
    {FROM_TO("0.5.20", "0.5.23"), "auto flashmla", "sglang 0.5.20: python/sglang/srt/arg_groups/fields/exec_.py:241-251, "
     "python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:718-721; sglang 0.5.23: python/sglang/srt/arg_groups/"
     "deepseek_v4_hook.py:45-60, :85-90, deepseek_v4_memory_pool.py:204-206, :1033"},
};

/* What the hook asserts of a backend, in its order. */
enum dsv4_test { D_NOT_SM100, D_NOT_V41_SM100, D_NOT_FP8, D_HISPARSE, D_CP, D_PD };
static const struct dsv4_backend_rule {
    span when;
    const char *backend;
    enum dsv4_test test;
    const char *message; /* {dtype} */
    const char *fix;
    const char *cite;
} DSV4_BACKEND_RULES[] = {
    {FROM_TO("0.5.23", "0.5.23"), "flashmla_mega", D_NOT_V41_SM100, "--dsv4-attn-backend flashmla_mega requires "
     "DeepSeek-V4.1 on SM100/SM103.", "leave --dsv4-attn-backend unset or pass flashmla",
     "sglang 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py:92-99"},
    /* 0.5.21: :45-80, 0.5.22: :51-86 */
    {FROM_TO("0.5.20", "0.5.23"), "trtllm", D_NOT_SM100, "--dsv4-attn-backend trtllm requires an SM100/SM103 "
     "(Blackwell) GPU.", "leave --dsv4-attn-backend unset on this GPU", "sglang 0.5.20: python/sglang/srt/arg_groups/"
     "deepseek_v4_hook.py:137-142; sglang 0.5.23: :101-106"},
    {FROM_TO("0.5.20", "0.5.23"), "trtllm", D_NOT_FP8, "--dsv4-attn-backend trtllm requires kv_cache_dtype=fp8_e4m3, "
     "got {dtype}.", "pass --kv-cache-dtype fp8_e4m3 or leave it unset", "sglang 0.5.20: python/sglang/srt/arg_groups/"
     "deepseek_v4_hook.py:144-147; sglang 0.5.23: :108-111"},
    {FROM_TO("0.5.20", "0.5.23"), "trtllm", D_HISPARSE, "--dsv4-attn-backend trtllm does not support enable_hisparse.",
     "drop --enable-hisparse or --dsv4-attn-backend trtllm", "sglang 0.5.20: python/sglang/srt/arg_groups/"
     "deepseek_v4_hook.py:148-150; sglang 0.5.23: :112-114"},
    {FROM_TO("0.5.20", "0.5.23"), "trtllm", D_CP, "--dsv4-attn-backend trtllm does not support context parallelism "
     "(prefill CP, attention CP, or decode CP).", "drop the context parallelism or --dsv4-attn-backend trtllm",
     "sglang 0.5.20: python/sglang/srt/arg_groups/deepseek_v4_hook.py:151-156; sglang 0.5.23: :115-120"},
    {FROM_TO("0.5.20", "0.5.22"), "trtllm", D_PD, "--dsv4-attn-backend trtllm does not support PD disaggregation yet "
     "(uniform-FP8 KV layout is not part of the PD handshake; see https://github.com/sgl-project/sglang/issues/37838).",
     "leave --dsv4-attn-backend unset on both workers", "sglang 0.5.20: python/sglang/srt/arg_groups/"
     "deepseek_v4_hook.py:162-166; sglang 0.5.21: :70-74; sglang 0.5.22: :76-80"},
    {FROM_TO("0.5.23", "0.5.23"), "trtllm", D_PD, "--dsv4-attn-backend trtllm does not support PD disaggregation yet "
     "(untested; see https://github.com/sgl-project/sglang/issues/37838).", "leave --dsv4-attn-backend unset on both "
     "workers", "sglang 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py:123-126"},
};

/* SGLANG_DSV4_KV_LAYOUT's values (lower-cased) select_dsv4_kv_layout knows;
 * v4 is the default and the only one that does not depend on the GPU (and in
 * 0.5.21-0.5.22 on the installed FlashMLA). */
static const struct dsv4_layout_rule {
    span when;
    const char *known;
    const char *default_cite; /* the default v4 */
    const char *cite;         /* select_dsv4_kv_layout */
} DSV4_LAYOUTS[] = {
    {FROM_TO("0.5.21", "0.5.22"), "v4 v41 auto", "sglang 0.5.21: python/sglang/srt/environ.py:1539; 0.5.22: :1592",
     "sglang 0.5.21: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:171-195; sglang 0.5.22: :165-198"},
    {FROM_TO("0.5.23", "0.5.23"), "v4 v41 v41_new auto", "sglang 0.5.23: python/sglang/srt/environ.py:1754",
     "sglang 0.5.23: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:198-234"},
};

/* --enable-deepseek-v4-fp4-indexer: the c4 indexer pool stores FP4 keys
 * (index_head_dim / 2 plus scales per token), a layout kvcheck does not
 * catalogue, and its pages travel with the KV. */
static const struct dsv4_indexer_rule {
    span when;
    const char *cite;
} DSV4_FP4_INDEXER[] = {
    {FROM_TO("0.5.13", "0.5.19"), "sglang 0.5.13: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:274-281; "
     "sglang 0.5.19: :287-294"},
    {FROM_TO("0.5.20", "0.5.23"), "sglang 0.5.20: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:35-39, :357; "
     "sglang 0.5.23: :53-57"},
};

/* The kv_layout string a DeepSeek-V4 pool reports to the PD bootstrap from
 * 0.5.23 (pd.c's BOOT compares it): the main layout, then c{ratio}:{layout}
 * over the pool's nonzero ratios. */
static const char DSV4_PD_LAYOUT_CITE[] = "sglang 0.5.23: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:"
                                          "1691-1699, python/sglang/srt/disaggregation/utils.py:1917-1923";

static const char DSV4_TOPK_MESSAGE[] = "Only EAGLE speculative algorithm with topk == 1 is supported for {arch}";

/* SGLang's assertion on the pool's row (sglang 0.5.12: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:106-109). */
static const char DSV4_ROW_MESSAGE[] =
    "DSV4 KV layout: qk_nope_head_dim FP8 (448) + qk_rope_head_dim BF16 (64*2) + nope FP8 scales + scale_pad = 584 "
    "bytes/token";
static const char DSV4_POOL_CITE[] = "sglang 0.5.12: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:91-117";

static const struct dsv4_row *dsv4_row(const char *arch, unsigned rel)
{
    for (size_t i = 0; i < COUNT_OF(DSV4_ARCHES); i++)
        if (strcmp(DSV4_ARCHES[i].arch, arch) == 0 && in_span(rel, DSV4_ARCHES[i].when)) return &DSV4_ARCHES[i];
    return NULL;
}

int rules_dsv4(const char *arch, unsigned rel) { return dsv4_row(arch, rel) != NULL; }

/* A page of `tokens` rows of `row` bytes, padded to a multiple of 576 (the pool's create_buffer). Pure. */
static uint64_t dsv4_page(uint64_t tokens, uint64_t row) { return (tokens * row + 575) / 576 * 576; }

static kvc_status dsv4_dtype(ctx *c)
{
    const setting *s = &c->set->s[SET_KV_CACHE_DTYPE];
    const struct dsv4_dtype_rule *r = NULL;
    for (size_t i = 0; i < COUNT_OF(DSV4_DTYPE) && !r; i++)
        if (in_span(c->rel, DSV4_DTYPE[i].when)) r = &DSV4_DTYPE[i];
    const char *given = s->set ? s->value : "auto";
    kvc_setting *v = rules_get(c->out, "kv_cache_dtype");
    c->dtype = strcmp(given, "auto") == 0 ? "fp8_e4m3" : given;
    if (!word_in(c->dtype, r->accepted))
        return rules_refuse(c, s, "AssertionError: %s is not supported for %s (%s); pass --kv-cache-dtype fp8_e4m3 or leave "
                      "it unset", c->dtype, c->model->architecture, r->cite);
    char from[900] = "default";
    if (s->set) rules_from_text(s, from, sizeof from);
    if (strcmp(given, "auto") == 0)
        setting_set(v, c->dtype, "auto (%s): SGLang sets fp8_e4m3 for %s (%s)", from, c->model->architecture, r->cite);
    else
        setting_set(v, c->dtype, "set by %s", from);
    setting_origin(v, s->set ? &s->origin : NULL);
    return KVC_OK;
}

static kvc_status dsv4_checks(const ctx *c)
{
    char msg[200];
    const char *const f[][2] = {{"arch", c->model->architecture}};
    const setting *algo = &c->set->s[SET_SPEC_ALGO], *topk = &c->set->s[SET_SPEC_EAGLE_TOPK];
    for (size_t i = 0; algo->set && i < COUNT_OF(DSV4_SPEC); i++) {
        const struct dsv4_spec_rule *r = &DSV4_SPEC[i];
        if (!in_span(c->rel, r->when)) continue;
        if (!word_in(algo->value, r->accepted)) {
            sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
            return rules_refuse(c, algo, "AssertionError: %s (%s); pass --speculative-algorithm EAGLE", msg, r->cite);
        }
        if (strcmp(algo->value, "EAGLE") == 0 && !(topk->set && strcmp(topk->value, "1") == 0)) {
            sglang_expand(DSV4_TOPK_MESSAGE, f, COUNT_OF(f), msg, sizeof msg);
            return rules_refuse(c, topk->set ? topk : algo, "AssertionError: %s (%s; the hook reads the topk before SGLang "
                          "picks its default); pass --speculative-eagle-topk 1", msg, r->cite);
        }
        if (strcmp(algo->value, "DSPARK") == 0)
            return diag_set(c->diag, KVC_ERR_CONFIG, &algo->origin, "%s DSPARK: kvcheck does not model DeepSeek-V4's "
                            "DSpark draft pool, so it cannot judge this worker", algo->flag);
    }
    const setting *mode = &c->set->s[SET_DISAGG_MODE], *pp = &c->set->s[SET_PP];
    for (size_t i = 0; i < COUNT_OF(DSV4_PD_PP); i++)
        if (in_span(c->rel, DSV4_PD_PP[i].when) && mode->set && strcmp(mode->value, "null") && pp->set &&
            strtoul(pp->value, NULL, 10) > 1) {
            const char *const g[][2] = {{"pp", pp->value}};
            sglang_expand(DSV4_PD_PP[i].message, g, COUNT_OF(g), msg, sizeof msg);
            return rules_refuse(c, pp, "%s (%s); pass --pp-size 1 or a later release", msg, DSV4_PD_PP[i].cite);
        }
    return KVC_OK;
}

/* The pool's storage: on CUDA only fp8 KV dtypes are stored as uint8, which
 * DeepSeekV4SingleKVPool.create_buffer asserts (a bfloat16 the hook accepted
 * dies there). */
static kvc_status dsv4_pool_dtype(const ctx *c)
{
    if (strcmp(c->dtype, "bfloat16")) return KVC_OK;
    return rules_refuse(c, &c->set->s[SET_KV_CACHE_DTYPE], "AssertionError at pool creation: the hook accepts bfloat16, but "
                  "on CUDA DeepSeekV4SingleKVPool.create_buffer asserts store_dtype == torch.uint8, which only fp8 KV "
                  "dtypes are stored as (sglang 0.5.14: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:113, "
                  "memory_pool.py:989-993; sglang 0.5.23: deepseek_v4_memory_pool.py:321); pass --kv-cache-dtype "
                  "fp8_e4m3 or leave it unset");
}

/* 1 when the worker meets the hook assertion `test` refuses on. Pure. */
static int dsv4_fails(const ctx *c, enum dsv4_test test)
{
    const settings *set = c->set;
    const setting *mode = &set->s[SET_DISAGG_MODE], *cp = &set->s[SET_ATTN_CP], *dcp = &set->s[SET_DCP];
    switch (test) {
    case D_NOT_SM100: return c->gpu->hip || c->gpu->major != 10; /* is_sm100_supported: major 10 (utils/common.py) */
    case D_NOT_V41_SM100: return strcmp(c->model->model_type, "deepseek_v41") || dsv4_fails(c, D_NOT_SM100);
    case D_NOT_FP8: return strcmp(c->dtype, "fp8_e4m3") != 0;
    case D_HISPARSE: return set->s[SET_HISPARSE].set;
    case D_CP: return (cp->set && strtoul(cp->value, NULL, 10) > 1) || (dcp->set && strtoul(dcp->value, NULL, 10) > 1);
    case D_PD: return mode->set && strcmp(mode->value, "null") != 0;
    }
    return 0;
}

/* --dsv4-attn-backend (0.5.20+): the hook's refusals, then a backend whose
 * pool is not FlashMLA's v4 declined: trtllm's uniform FP8 pool is not in
 * kvcheck's catalogue (flashmla_mega passes the hook only for DeepSeek-V4.1,
 * declined before). */
static kvc_status dsv4_backend(const ctx *c)
{
    const setting *b = &c->set->s[SET_DSV4_ATTN_BACKEND];
    if (!b->set) return KVC_OK;
    char msg[300];
    const char *const f[][2] = {{"dtype", c->dtype}};
    for (size_t i = 0; i < COUNT_OF(DSV4_BACKEND_RULES); i++) {
        const struct dsv4_backend_rule *r = &DSV4_BACKEND_RULES[i];
        if (!in_span(c->rel, r->when) || strcmp(r->backend, b->value) || !dsv4_fails(c, r->test)) continue;
        sglang_expand(r->message, f, COUNT_OF(f), msg, sizeof msg);
        return rules_refuse(c, b, "AssertionError: %s (%s); %s", msg, r->cite, r->fix);
    }
    for (size_t i = 0; i < COUNT_OF(DSV4_BACKENDS); i++)
        if (in_span(c->rel, DSV4_BACKENDS[i].when) && word_in(b->value, DSV4_BACKENDS[i].v4)) return KVC_OK;
    return diag_set(c->diag, KVC_ERR_CONFIG, &b->origin, "%s %s: SGLang %s switches DeepSeek-V4's KV pools away from "
                    "FlashMLA's v4 layout to a uniform FP8 one (512 B/token without scales, sglang 0.5.20: "
                    "python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:189-212, :718-721), which kvcheck does not "
                    "model, so it cannot judge this worker; leave %s unset or pass flashmla", b->flag, b->value,
                    SGLANG_VERSIONS[c->rel], b->flag);
}

/* SGLANG_DSV4_KV_LAYOUT (0.5.21+): v4 (the default) keeps the pool above;
 * an unknown value fails select_dsv4_kv_layout's assertion; off SM100/SM103
 * auto falls back to v4 and a V4.1 layout fails its GPU assertion; on
 * SM100/SM103 the others give a V4.1 layout (in 0.5.21-0.5.22 auto only if
 * the installed FlashMLA advertises it), not modelled. */
static kvc_status dsv4_layout_env(const ctx *c)
{
    const setting *env = &c->set->s[SET_DSV4_LAYOUT_ENV];
    const struct dsv4_layout_rule *r = NULL;
    for (size_t i = 0; i < COUNT_OF(DSV4_LAYOUTS) && !r; i++)
        if (in_span(c->rel, DSV4_LAYOUTS[i].when)) r = &DSV4_LAYOUTS[i];
    if (!r) return KVC_OK;
    if (!env->set) {
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "DeepSeek-V4's KV layout follows SGLANG_DSV4_KV_LAYOUT in the server's environment, which kvcheck "
                  "reads only from the launch command's assignments: it takes SGLang's default v4 (%s); make sure "
                  "neither worker's environment sets another", r->default_cite);
        return KVC_OK;
    }
    char mode[64];
    size_t n = 0;
    for (; env->value[n] && n + 1 < sizeof mode; n++)
        mode[n] = (char)(env->value[n] >= 'A' && env->value[n] <= 'Z' ? env->value[n] - 'A' + 'a' : env->value[n]);
    mode[n] = '\0';
    int sm100 = c->gpu->major == 10;
    if (strcmp(mode, "v4") == 0 || (strcmp(mode, "auto") == 0 && !sm100)) return KVC_OK;
    if (!word_in(mode, r->known))
        return rules_refuse(c, env, "AssertionError at pool creation: unknown SGLANG_DSV4_KV_LAYOUT='%s' (%s); set it to v4 "
                      "or leave it unset", mode, r->cite);
    if (!sm100)
        return rules_refuse(c, env, "AssertionError at pool creation: the V4.1 KV cache layouts need an SM100 / SM103 GPU "
                      "(%s=%s on %s, %s); set it to v4 or leave it unset", env->flag, env->value, c->gpu->name, r->cite);
    return diag_set(c->diag, KVC_ERR_CONFIG, &env->origin, "%s=%s: on %s SGLang %s then builds DeepSeek-V4's KV in a "
                    "V4.1 layout (528 B/token; with auto in 0.5.21-0.5.22 only if the installed FlashMLA advertises "
                    "it; %s), which kvcheck does not model, so it cannot judge this worker; set %s=v4 or leave it "
                    "unset", env->flag, env->value, c->gpu->name, SGLANG_VERSIONS[c->rel], r->cite, env->flag);
}

/* The compression state's dtype: fp32 up to 0.5.13.post1 (sglang 0.5.12:
 * python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py:864-865),
 * then SGLANG_DSV4_COMPRESS_STATE_DTYPE, float32 by default (sglang 0.5.14:
 * model_runner_kv_cache_mixin.py:63-77, environ.py:792). Its item size, 0
 * where kvcheck does not model the value. */
static unsigned dsv4_state_size(const ctx *c)
{
    const setting *env = &c->set->s[SET_DSV4_STATE_ENV];
    if (rel_until(c->rel, "0.5.13.post1") || !env->set) return 4;
    return strcmp(env->value, "float32") == 0 ? 4 : 0;
}

/* The pool's KV caches and their layouts, written as the kv_layout string
 * SGLang 0.5.23+ reports to the PD bootstrap, over the whole config's ratios
 * (a pipeline stage's pool holds only its own layers' ratios: per stage,
 * not derived). */
static void dsv4_kv_layout(const ctx *c)
{
    const setting *pp = &c->set->s[SET_PP];
    char value[40];
    str_printf(value, sizeof value, "v4%s%s", c->model->compress_4 ? ",c4:v4" : "",
               c->model->compress_128 ? ",c128:v4" : "");
    setting_set(rules_get(c->out, "dsv4_kv_layout"), value, "the main KV cache, then the compressed caches over the "
                "config's compress_ratios, all in the v4 layout; from 0.5.23 the pool reports this string to the PD "
                "bootstrap, which compares it%s (%s)", pp->set && strtoul(pp->value, NULL, 10) > 1 ? " (each "
                "pipeline stage reports its own layers' ratios, not derived)" : "", DSV4_PD_LAYOUT_CITE);
}

/* The buffer groups besides the SWA KV, as far as the config gives their
 * sizes (sglang 0.5.12: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:28-41, :272-290, :428-588;
 * deepseek_v4_compress_state.py:36-58). */
static kvc_status dsv4_groups(const ctx *c, uint64_t row)
{
    const model_info *m = c->model;
    kvc_resolved *out = c->out;
    const setting *env = &c->set->s[SET_DSV4_STATE_ENV], *online = &c->set->s[SET_DSV4_ONLINE_ENV];
    const setting *fp4 = &c->set->s[SET_DSV4_FP4_INDEXER];
    for (size_t i = 0; fp4->set && i < COUNT_OF(DSV4_FP4_INDEXER); i++)
        if (in_span(c->rel, DSV4_FP4_INDEXER[i].when))
            return diag_set(c->diag, KVC_ERR_CONFIG, &fp4->origin, "%s: kvcheck does not model DeepSeek-V4's FP4 "
                            "indexer pool (%s), so it cannot judge this worker; drop %s to have it judged", fp4->flag,
                            DSV4_FP4_INDEXER[i].cite, fp4->flag);
    rules_env_warn(c, SET_DSV4_ONLINE_ENV); /* an EnvBool: 0, false, no and n keep the ring layout */
    if (rules_env_bool(online) == 1)
        return diag_set(c->diag, KVC_ERR_CONFIG, &online->origin, "%s: kvcheck does not model DeepSeek-V4's online "
                        "c128 compression state (sglang 0.5.12: python/sglang/srt/mem_cache/"
                        "deepseek_v4_memory_pool.py:28-41), so it cannot judge this worker", online->flag);
    unsigned size = dsv4_state_size(c);
    if (!size)
        return diag_set(c->diag, KVC_ERR_CONFIG, &env->origin, "%s=%s: kvcheck does not model DeepSeek-V4's "
                        "compression state in that dtype, so it cannot judge this worker", env->flag, env->value);
    if (rel_since(c->rel, "0.5.14") && !env->set)
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES,
                  "DeepSeek-V4's compression state dtype follows SGLANG_DSV4_COMPRESS_STATE_DTYPE in the server's "
                  "environment, which kvcheck reads only from the launch command's assignments: it takes SGLang's "
                  "default float32; make sure both workers' environments agree");
    if (!m->has_compress_ratios) {
        setting_set(rules_get(out, "dsv4_compressed"), "not derived", "the config has no compress_ratios: the c4/c128 "
                    "compressed KV, the c4 indexer and the compression state cannot be sized");
        setting_set(rules_get(out, "dsv4_state"), "not derived", "the config has no compress_ratios");
        return KVC_OK;
    }
    if (m->compress_other)
        return diag_set(c->diag, KVC_ERR_CONFIG, NULL, "model %s: compress_ratios has %u entries other than 0, 4 and "
                        "128; kvcheck does not model their pools, so it cannot judge this worker", m->name,
                        m->compress_other);
    char value[KVC_NAME_LEN], idx[80] = "no index_head_dim in the config: not derived";
    uint64_t ih = m->index_head_dim;
    if (ih && ih % 128 == 0)
        str_printf(idx, sizeof idx, "%llu B pages of 64 tokens", (unsigned long long)(64 * (ih + ih / 128 * 4)));
    else if (ih) str_printf(idx, sizeof idx, "index_head_dim %llu: not derived", (unsigned long long)ih);
    str_printf(value, sizeof value, "c4 %u x %llu B, c128 %u x %llu B", m->compress_4,
               (unsigned long long)dsv4_page(64, row), m->compress_128, (unsigned long long)dsv4_page(2, row));
    setting_set(rules_get(out, "dsv4_compressed"), value, "compressed KV in the same layout, pages of 64 (c4) and 2 "
                "(c128) tokens padded to 576 B, over the %u of %u compress_ratios at 4 and 128; c4 indexer K (dsa_indexer): "
                "%u x %s (%s)", m->compress_4 + m->compress_128, m->compress_ratios_len, m->compress_4, idx,
                DSV4_POOL_CITE);
    int spec = c->set->s[SET_SPEC_ALGO].set;
    uint64_t hd = m->head_dim, r4 = spec ? 16 : 8, r128 = spec ? 256 : 128;
    str_printf(value, sizeof value, "c4 %llux%llu, c128 %llux%llu, idx %llux%llu B",
               (unsigned long long)r4, (unsigned long long)(4 * hd * size), (unsigned long long)r128,
               (unsigned long long)(2 * hd * size), (unsigned long long)r4, (unsigned long long)(4 * ih * size));
    dsv4_kv_layout(c);
    setting_set(rules_get(out, "dsv4_state"), value, "compression state items (ring rows x row bytes, %s, rings %s "
                "speculative decoding) per c4 layer (%u), c128 layer (%u) and c4 indexer; they travel as state "
                "entries of the prefill's item length (sglang 0.5.12: python/sglang/srt/mem_cache/"
                "deepseek_v4_memory_pool.py:28-41, :549-588)", size == 4 ? "float32" : "?", spec ? "doubled by" : "without",
                m->compress_4, m->compress_128);
    return KVC_OK;
}

/* A DeepSeek-V4 worker: its hook's dtype, speculative and PD checks, page
 * size 256, and the pool's MODEL1 rows (model1_fp8) on every layer's SWA
 * KV, then the other buffer groups as far as the config sizes them. */
kvc_status dsv4_resolve(ctx *c)
{
    const struct dsv4_row *row = dsv4_row(c->model->architecture, c->rel);
    kvc_resolved *out = c->out;
    const model_info *m = c->model;
    if (c->gpu->hip)
        return diag_set(c->diag, KVC_ERR_CONFIG, NULL, "%s (%s) on %s: kvcheck does not model DeepSeek-V4's ROCm "
                        "pools (unified_kv, sglang 0.5.14: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:"
                        "379-436), so it cannot judge this worker", m->name, m->architecture, c->gpu->name);
    if (strcmp(m->model_type, "deepseek_v41") == 0)
        return diag_set(c->diag, KVC_ERR_CONFIG, NULL, "%s (%s, model_type deepseek_v41): kvcheck does not model "
                        "DeepSeek-V4.1's pools (its V4.1 KV layouts and start-up checks, sglang 0.5.21: "
                        "python/sglang/srt/configs/deepseek_v41.py:23-45, arg_groups/deepseek_v4_hook.py:169-289), so it "
                        "cannot judge this worker", m->name, m->architecture);
    kvc_status st = dsv4_dtype(c);
    if (!st) st = dsv4_backend(c);
    if (!st) st = dsv4_checks(c);
    if (!st) st = model_only_check(c, MODEL_ONLY_DSV4); /* validate_deepseek_v41_features, after the hook's checks */
    if (st) return st;
    const setting *ps = &c->set->s[SET_PAGE_SIZE];
    setting_set(rules_get(out, "page_size"), "256", "forced: SGLang's DeepSeek-V4 hook sets attention_backend dsv4 and "
                "page_size 256 (%s)", DSV4_HOOK_CITE);
    if (ps->set && strcmp(ps->value, "256"))
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "%s %s is overridden: SGLang sets page_size to 256 "
                  "for %s (%s)", ps->flag, ps->value, m->architecture, DSV4_HOOK_CITE);
    kvc_origin o;
    origin_set(&o, "", 0, 0, "head_dim");
    RETURN_ERROR_IF(m->head_dim <= m->qk_rope_head_dim, c->diag, KVC_ERR_CONFIG, &o,
                    "model %s: DeepSeek-V4's pool takes its NoPE width from head_dim - qk_rope_head_dim, and the "
                    "config gives head_dim %u with qk_rope_head_dim %u", m->name, m->head_dim, m->qk_rope_head_dim);
    uint64_t nope = m->head_dim - m->qk_rope_head_dim, bytes = nope + 2ull * m->qk_rope_head_dim + nope / 64 + 1;
    if (bytes != 584)
        return rules_refuse(c, NULL, "AssertionError at pool creation: %s (model %s: head_dim %u, qk_rope_head_dim %u give "
                      "%llu bytes/token; %s)", DSV4_ROW_MESSAGE, m->name, m->head_dim, m->qk_rope_head_dim,
                      (unsigned long long)bytes, DSV4_POOL_CITE);
    if ((st = dsv4_groups(c, bytes))) return st;
    if (c->set->s[SET_SPEC_ALGO].set) {
        setting_set(rules_get(out, "speculative_algorithm"), c->set->s[SET_SPEC_ALGO].value, "the draft keeps its own "
                    "DeepSeek-V4 pool of SWA KV only");
        notes_add(out->warnings, &out->nwarnings, KVC_MAX_NOTES, "the EAGLE draft's own DeepSeek-V4 pool (SWA KV "
                  "rows only) is not derived: SGLang 0.5.12 does not send it over PD (sglang 0.5.12: "
                  "python/sglang/srt/disaggregation/utils.py:590-601); later releases are not read");
    } else {
        setting_set(rules_get(out, "speculative_algorithm"), "", "no speculative decoding");
    }
    setting_set(&out->row, "model1_fp8", "DeepSeek-V4's SWA KV on every layer (%s): %llu e4m3 NoPE + %u bf16 RoPE, "
                "then per token %llu UE8M0 scales and a pad byte, pages of 256 tokens padded to 576 B (%s)",
                row->cite, (unsigned long long)nope, m->qk_rope_head_dim, (unsigned long long)nope / 64,
                DSV4_POOL_CITE);
    kvc_layout_params p = {m->head_dim, m->qk_rope_head_dim, m->index_head_dim, 256};
    if ((st = layout_build("model1_fp8", &p, &out->kv, c->diag))) return st;
    out->kv_entries = out->attn_layers;
    out->kv_bytes_per_token_all = (uint64_t)out->kv.bytes_per_token * out->attn_layers;
    return KVC_OK;
}

kvc_status dsv4_pool_check(const ctx *c)
{
    kvc_status st = dsv4_layout_env(c);
    return st ? st : dsv4_pool_dtype(c);
}

size_t dsv4_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(DSV4_ARCHES, DSV4_ARCHES[i].when);
    SPAN_EACH(DSV4_DTYPE, DSV4_DTYPE[i].when);
    SPAN_EACH(DSV4_SPEC, DSV4_SPEC[i].when);
    SPAN_EACH(DSV4_PD_PP, DSV4_PD_PP[i].when);
    SPAN_EACH(DSV4_BACKENDS, DSV4_BACKENDS[i].when);
    SPAN_EACH(DSV4_BACKEND_RULES, DSV4_BACKEND_RULES[i].when);
    SPAN_EACH(DSV4_LAYOUTS, DSV4_LAYOUTS[i].when);
    SPAN_EACH(DSV4_FP4_INDEXER, DSV4_FP4_INDEXER[i].when);
    return n;
}
