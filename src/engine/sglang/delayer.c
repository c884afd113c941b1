/* SGLang's PrefillDelayer (0.5.8+). The scheduler builds it when it sets
 * up its schedule policy, once the model, its pools and the draft worker
 * are up, for --enable-prefill-delayer or SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE
 * on (sglang 0.5.8: python/sglang/srt/server_args.py:811-813; 0.5.23:
 * python/sglang/srt/arg_groups/serving_hook.py:733-739). From 0.5.11 a
 * decode worker skips it. Its constructor asserts, in order: DP attention
 * (0.5.8-0.5.9), a unified worker (0.5.8-0.5.10) and the overlap schedule
 * on, as SGLang's resolution leaves it (OVERLAP). 0.5.7's SchedulerEnhancer,
 * its predecessor under the same variable, is declined. */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUILD_CITE                                                                                                     \
    "sglang 0.5.8: python/sglang/srt/managers/scheduler.py:775-786; 0.5.11: :1098-1122 (a decode worker skips it); "   \
    "0.5.23: :1450-1466"

/* the releases with the delayer; those that build it on a decode worker too; SGLANG_ENABLE_SPEC_V2's default on;
 * DeepSeek-V4's hook setting it on; 0.5.7's SchedulerEnhancer, the delayer's predecessor */
enum { DELAYER, DECODE_BUILDS, SPEC_V2_DEFAULT_ON, DSV4_SPEC_V2, ENHANCER };
static const span ERAS[] = {SINCE("0.5.8"), UNTIL("0.5.10.post1"), SINCE("0.5.11"), FROM_TO("0.5.12", "0.5.13.post1"),
                            FROM_TO("0.5.7", "0.5.7")};

/* The resolved speculative algorithm is the EAGLE family (EAGLE, EAGLE3, STANDALONE; NEXTN is EAGLE by then), whose
 * handler turns the overlap schedule on or off by SGLANG_ENABLE_SPEC_V2; is NGRAM. Pure. */
static int eagle_family(const ctx *c)
{
    char algo[32];
    return word_in(rules_spec_resolved(c, algo, sizeof algo), "EAGLE EAGLE3 STANDALONE");
}
static int ngram(const ctx *c)
{
    char algo[32];
    return strcmp(rules_spec_resolved(c, algo, sizeof algo), "NGRAM") == 0;
}

/* SGLANG_ENABLE_SPEC_V2 as SGLang reads it: an EnvBool, its default where unset or not a boolean (off up to 0.5.10,
 * on from 0.5.11: sglang 0.5.10: python/sglang/srt/environ.py:442; 0.5.11: :459); DeepSeek-V4's hook sets it on
 * with a speculative algorithm in 0.5.12-0.5.13 (sglang 0.5.12: python/sglang/srt/arg_groups/
 * deepseek_v4_hook.py:36-46). Pure. */
static int spec_v2(const ctx *c)
{
    if (in_span(c->rel, ERAS[DSV4_SPEC_V2]) && rules_dsv4(c->model->architecture, c->rel) && c->set->s[SET_SPEC_ALGO].set)
        return 1;
    return rules_env_bool_or(&c->set->s[SET_SPEC_V2_ENV], in_span(c->rel, ERAS[SPEC_V2_DEFAULT_ON]));
}

static int o_eagle_v2(const ctx *c) { return eagle_family(c) && spec_v2(c); }
static int o_eagle(const ctx *c) { return eagle_family(c); }
static int o_eagle_no_v2(const ctx *c) { return eagle_family(c) && !spec_v2(c); }
static int o_eagle_tree(const ctx *c)
{
    const setting *k = &c->set->s[SET_SPEC_EAGLE_TOPK];
    return eagle_family(c) && k->set && k->value[0] != '-' && (strlen(k->value) > 18 || strtol(k->value, NULL, 10) > 1);
}
static int o_flag(const ctx *c) { return c->set->s[SET_DISABLE_OVERLAP].set; }
static int o_pp(const ctx *c) { return size_of(c, SET_PP) > 1; }
static int o_ngram(const ctx *c) { return ngram(c); }
static int o_sparse_head(const ctx *c) { return c->set->s[SET_SPARSE_HEAD_ENV].set; }

/* SGLang's writes of disable_overlap_schedule that reach a worker kvcheck judges, the last in its resolution first:
 * the first row that holds decides. Those that need what kvcheck declines or refuses first (dLLM, a device other than
 * cuda, a plugin speculative algorithm, DFLASH and FROZEN_KV_MTP) are not here; a hybrid model's mamba radix cache,
 * which may turn it off, is declined (delayer_check). */
static const struct overlap_row {
    span when;
    int (*test)(const ctx *c);
    int off; /* what the write leaves: 1 off, 0 on */
    setting_key by;
    const char *why;
    const char *cite; /* NULL: the flag itself */
} OVERLAP[] = {
    {UNTIL("0.5.10.post1"), o_eagle_v2, 0, SET_SPEC_V2_ENV,
     "the EAGLE family's handler turns it on under SGLANG_ENABLE_SPEC_V2",
     "sglang 0.5.8: python/sglang/srt/server_args.py:2127-2156; 0.5.10: :2986-3015"},
    {UNTIL("0.5.10.post1"), o_eagle, 1, SET_SPEC_ALGO,
     "the EAGLE family's handler turns it off without SGLANG_ENABLE_SPEC_V2 (off unless set in this release)",
     "sglang 0.5.8: python/sglang/srt/server_args.py:2127-2156; 0.5.10: :2986-3015"},
    {EVER, o_flag, 1, SET_DISABLE_OVERLAP, "--disable-overlap-schedule turns it off", NULL},
    {FROM_TO("0.5.11", "0.5.12.post1"), o_eagle_tree, 1, SET_SPEC_EAGLE_TOPK,
     "the EAGLE family's handler turns it off for a top-k above 1",
     "sglang 0.5.11: python/sglang/srt/server_args.py:3461-3466; 0.5.12: :3749-3754"},
    {FROM_TO("0.5.11", "0.5.13.post1"), o_eagle_no_v2, 1, SET_SPEC_V2_ENV,
     "the EAGLE family's handler turns it off with SGLANG_ENABLE_SPEC_V2 off",
     "sglang 0.5.11: python/sglang/srt/server_args.py:3468-3472; 0.5.13: python/sglang/srt/arg_groups/"
     "speculative_hook.py:290-294"},
    {UNTIL("0.5.13.post1"), o_ngram, 1, SET_SPEC_ALGO, "NGRAM's handler turns it off",
     "sglang 0.5.8: python/sglang/srt/server_args.py:2231-2243; 0.5.13: python/sglang/srt/arg_groups/"
     "speculative_hook.py:389-399"},
    {EVER, o_pp, 1, SET_PP, "a pp_size above 1 turns it off",
     "sglang 0.5.8: python/sglang/srt/server_args.py:2043-2045; 0.5.23: python/sglang/srt/arg_groups/"
     "overrides.py:1624-1627"},
    {EVER, o_sparse_head, 1, SET_SPARSE_HEAD_ENV, "SGLANG_EMBEDDINGS_SPARSE_HEAD is set, which turns it off",
     "sglang 0.5.8: python/sglang/srt/server_args.py:1596-1597; 0.5.23: python/sglang/srt/arg_groups/"
     "overrides.py:917-923"},
};

/* The row that decides the overlap schedule, or NULL where it stays on. Pure. */
static const struct overlap_row *overlap_decided(const ctx *c)
{
    for (size_t i = 0; i < COUNT_OF(OVERLAP); i++)
        if (in_span(c->rel, OVERLAP[i].when) && OVERLAP[i].test(c)) return &OVERLAP[i];
    return NULL;
}

/* The setting that turns the delayer on, or NULL. */
static const setting *delayer_switch(const ctx *c)
{
    const setting *flag = &c->set->s[SET_PREFILL_DELAYER], *env = &c->set->s[SET_DECREASE_IDLE_ENV];
    if (flag->set) return flag;
    return rules_env_bool(env) == 1 ? env : NULL;
}

/* DP attention as the data parallelism handler leaves it: off with a DP size of 1 (sglang 0.5.8: python/sglang/srt/
 * server_args.py:1929-1932; 0.5.9: :2109-2111), also where DSA prefill CP turned it on (cp.c applies that). Pure. */
static int dp_attention(const ctx *c)
{
    return (c->set->s[SET_DP_ATTENTION].set || rules_dp_attention_forced(c)) && size_of(c, SET_DP) > 1;
}

/* The constructor's asserts (sglang 0.5.8: python/sglang/srt/managers/prefill_delayer.py:67-75), in its order. */
enum delayer_test { NEEDS_DP_ATTENTION, NEEDS_UNIFIED, NEEDS_OVERLAP };
static const struct delayer_row {
    span when;
    enum delayer_test test;
    const char *message;
    const char *cite;
    const char *fix;
} ASSERTS[] = {
    {FROM_TO("0.5.8", "0.5.9"), NEEDS_DP_ATTENTION,
     "AssertionError: To use PrefillDelayer, enable_dp_attention must be enabled.",
     "sglang 0.5.8: python/sglang/srt/managers/prefill_delayer.py:67-69; 0.5.9: the same",
     "add --enable-dp-attention, or drop the delayer"},
    {FROM_TO("0.5.8", "0.5.10.post1"), NEEDS_UNIFIED,
     "AssertionError: To use PrefillDelayer, disaggregation_mode must be null.",
     "sglang 0.5.8: python/sglang/srt/managers/prefill_delayer.py:70-72; 0.5.10: :73-75",
     "this release's delayer serves only a unified worker: drop it on PD workers"},
    {SINCE("0.5.8"), NEEDS_OVERLAP,
     "AssertionError: To use PrefillDelayer, disable_overlap_schedule must be False.",
     "sglang 0.5.8: python/sglang/srt/managers/prefill_delayer.py:73-75; 0.5.10: :76-78; 0.5.11: :73-75; 0.5.12: "
     ":105-107; 0.5.14: :110-112; 0.5.18: :141-143; 0.5.19: :144-146; 0.5.23: :140-142",
     "drop the delayer, or keep the overlap schedule on"},
};

static int assert_fails(const ctx *c, enum delayer_test t, const struct overlap_row *overlap)
{
    switch (t) {
    case NEEDS_DP_ATTENTION: return !dp_attention(c);
    case NEEDS_UNIFIED: return pd_worker(c);
    case NEEDS_OVERLAP: return overlap && overlap->off;
    }
    return 0;
}

kvc_status delayer_check(const ctx *c)
{
    const setting *env = &c->set->s[SET_DECREASE_IDLE_ENV];
    if (in_span(c->rel, ERAS[ENHANCER]) && rules_env_bool(env) == 1)
        return diag_set(c->diag, KVC_ERR_CONFIG, &env->origin, "%s: SGLang %s's scheduler then builds its "
                        "SchedulerEnhancer, which asserts the schedule policy fcfs, DP attention, a unified worker "
                        "and the overlap schedule on (sglang 0.5.7: python/sglang/srt/managers/scheduler.py:206, "
                        ":792-800, python/sglang/srt/managers/scheduler_enhancer.py:20-31); kvcheck does not model "
                        "it, so it cannot judge this worker", env->flag, SGLANG_VERSIONS[c->rel]);
    if (!in_span(c->rel, ERAS[DELAYER])) return KVC_OK;
    if (env->set) {
        rules_env_warn(c, SET_DECREASE_IDLE_ENV);
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "SGLang warns \"Environment variable SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE is deprecated. Please "
                  "use '--enable-prefill-delayer' instead.\" (sglang 0.5.8: python/sglang/srt/environ.py:468-474, "
                  ":517-520; 0.5.23: :2222-2231, :2282-2284)");
    }
    const setting *on = delayer_switch(c);
    if (!on) return KVC_OK;
    if (!in_span(c->rel, ERAS[DECODE_BUILDS]) && set_to(c, SET_DISAGG_MODE, "decode")) {
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
                  "%s has no effect on a decode worker: SGLang logs \"Ignoring --enable-prefill-delayer on decode "
                  "engine (no prefill scheduling path; delayer would be a no-op).\" (sglang 0.5.11: python/sglang/srt/"
                  "managers/scheduler.py:1099-1103; 0.5.23: :1451-1455)", on->flag);
        return KVC_OK;
    }
    const struct overlap_row *overlap = overlap_decided(c);
    for (size_t i = 0; i < COUNT_OF(ASSERTS); i++) {
        const struct delayer_row *r = &ASSERTS[i];
        if (!in_span(c->rel, r->when)) continue;
        if (r->test == NEEDS_OVERLAP && c->hybrid)
            return diag_set(c->diag, KVC_ERR_CONFIG, &on->origin, "%s: SGLang %s's PrefillDelayer asserts the overlap "
                            "schedule is on (%s; %s), which the mamba radix cache of this hybrid model's linear "
                            "layers may turn off; kvcheck does not model that, so it cannot judge this worker", on->flag,
                            SGLANG_VERSIONS[c->rel], BUILD_CITE, r->cite);
        if (!assert_fails(c, r->test, overlap)) continue;
        char why[900] = "", from[700];
        if (r->test == NEEDS_OVERLAP) {
            const setting *by = &c->set->s[overlap->by];
            rules_from_text(by, from, sizeof from);
            str_printf(why, sizeof why, "; the overlap schedule is off: %s (%s%s%s)", overlap->why,
                       by->set ? from : "", by->set && overlap->cite ? "; " : "", overlap->cite ? overlap->cite : "");
        }
        return rules_refuse(c, on, "%s (when the scheduler builds its PrefillDelayer: %s; %s%s): %s", r->message,
                            BUILD_CITE, r->cite, why, r->fix);
    }
    return KVC_OK;
}

size_t delayer_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(OVERLAP, OVERLAP[i].when);
    SPAN_EACH(ASSERTS, ASSERTS[i].when);
    SPAN_EACH(ERAS, ERAS[i]);
    return n;
}
