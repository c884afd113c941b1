/* The speculative hook's checks of its own options: block verification
 * (0.5.22+), the draft window and sink (0.5.13+, 0.5.21+), and rejection
 * sampling (0.5.14+), as SGLang checks and resolves them.
 *
 * Early in handle_speculative_decoding, right after 0.5.23's radix-cache
 * check and for any algorithm, none included: block verification refuses
 * any algorithm but EAGLE, EAGLE3 (NEXTN is EAGLE by then), DFLASH and
 * DSPARK, and turns rejection sampling on for EAGLE and EAGLE3 (sglang
 * 0.5.22: python/sglang/srt/arg_groups/speculative_hook.py:161-181; 0.5.23:
 * :175-195); then the draft window must be positive and the sink
 * non-negative and given with a window (0.5.23: :202-230; a window SGLang
 * says has no effect for the algorithm gets its warning; 0.5.12 checked the
 * window for DFLASH only, which kvcheck declines). The rejection-sampling
 * checks are the EAGLE family handler's
 * (EAGLE, EAGLE3, STANDALONE), after trtllm_mha's top-k check; from 0.5.21
 * ROCm turns rejection sampling on by itself just before them (sglang
 * 0.5.23: :1182-1252). NGRAM's handler reads neither.
 *
 * Not reached: the refusal of deterministic inference with rejection
 * sampling (0.5.14-0.5.22), and 0.5.23's of it on a device other than
 * CUDA: kvcheck declines --enable-deterministic-inference (rules.c
 * decline_attention) and any --device but cuda (check_unmodelled) first;
 * block verification's device check (the same); multi-layer EAGLE with a
 * top-k other than 1 (0.5.16+: the top-k check refuses first); the models
 * whose overrides turn multi-layer EAGLE on (MiMoV2, Step3p5), which are not
 * MLA models kvcheck judges. */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

static int block_given(const ctx *c) { return rel_since(c->rel, "0.5.22") && c->set->s[SET_SPEC_BLOCK_VERIFY].set; }

/* the resolved speculative algorithm is one of `names` */
static int algorithm_in(const ctx *c, const char *names)
{
    char a[SETTING_VALUE_LEN];
    return c->set->s[SET_SPEC_ALGO].set && word_in(rules_spec_resolved(c, a, sizeof a), names);
}

/* an accept threshold at its default 1.0: argparse's float, kept without its underscores (flags.c); NaN is not */
static int threshold_one(const ctx *c, setting_key k)
{
    const setting *s = &c->set->s[k];
    return !s->set || strtod(s->value, NULL) == 1.0;
}

/* SGLang's top-k is 1: given so, or picked (1 for every model kvcheck serves from 0.5.8) where
 * --speculative-num-steps is not given; given steps without a top-k leave it None */
static int topk_one(const ctx *c)
{
    const setting *k = &c->set->s[SET_SPEC_EAGLE_TOPK];
    return k->set ? strcmp(k->value, "1") == 0 : !c->set->s[SET_SPEC_NUM_STEPS].set;
}

/* SGLANG_SIMULATE_ACC_LEN not at most 0 (NaN included): an EnvFloat(-1), a value float() refuses read as -1 (sglang
 * 0.5.23: python/sglang/srt/environ.py:79-86, :200-205, :527; the default's test: speculative_hook.py:62) */
static int simulated(const ctx *c)
{
    const setting *s = &c->set->s[SET_SIMULATE_ACC_ENV];
    char v[SETTING_VALUE_LEN];
    return s->set && py_float(s->value, v, sizeof v) && !(strtod(v, NULL) <= 0);
}

/* ROCm's default (_should_auto_enable_hip_rejection_sampling, 0.5.21+: sglang 0.5.21:
 * python/sglang/srt/arg_groups/speculative_hook.py:28-62, :1074; 0.5.23: :29-63, :1187): on a HIP GPU for EAGLE at
 * top-k 1, without a token map, with both accept thresholds at 1.0 and no simulated acceptance. Deterministic
 * inference, which stops it too, kvcheck declines before. */
static int rocm_default(const ctx *c)
{
    return rel_since(c->rel, "0.5.21") && c->gpu->hip && algorithm_in(c, "EAGLE") && topk_one(c) &&
           !c->set->s[SET_SPEC_TOKEN_MAP].set && threshold_one(c, SET_SPEC_ACCEPT_SINGLE) &&
           threshold_one(c, SET_SPEC_ACCEPT_ACC) && !simulated(c);
}

int rejection_on(const ctx *c)
{
    return c->set->s[SET_SPEC_REJECTION].set || (block_given(c) && algorithm_in(c, "EAGLE EAGLE3")) ||
           rocm_default(c);
}

const setting *rejection_blame(const ctx *c)
{
    const setting *given = &c->set->s[SET_SPEC_REJECTION], *block = &c->set->s[SET_SPEC_BLOCK_VERIFY];
    return given->set ? given : block_given(c) ? block : &c->set->s[SET_SPEC_ALGO];
}

static int b_algorithm(const ctx *c) { return block_given(c) && !algorithm_in(c, "EAGLE EAGLE3 DFLASH DSPARK"); }
static int w_not_positive(const ctx *c) { return int_below(c, SET_SPEC_WINDOW, 1); }
static int s_negative(const ctx *c) { return int_below(c, SET_SPEC_SINK, 0); }
static int s_alone(const ctx *c) { return c->set->s[SET_SPEC_SINK].set && !c->set->s[SET_SPEC_WINDOW].set; }
static int r_algorithm(const ctx *c) { return rejection_on(c) && !algorithm_in(c, "EAGLE EAGLE3"); }
static int r_topk(const ctx *c) { return rejection_on(c) && !topk_one(c); }
static int r_thresholds(const ctx *c)
{
    return rejection_on(c) && !(threshold_one(c, SET_SPEC_ACCEPT_SINGLE) && threshold_one(c, SET_SPEC_ACCEPT_ACC));
}
static int r_multi_layer(const ctx *c) { return rejection_on(c) && c->set->s[SET_MULTI_LAYER_EAGLE].set; }

#define RS "--speculative-use-rejection-sampling "
static const flag_rule RULES[] = {
    {SINCE("0.5.22"), SPEC_HOOK_EARLY, b_algorithm, SET_SPEC_BLOCK_VERIFY,
     "ValueError: --speculative-use-block-verification only supports EAGLE / EAGLE3 / NEXTN / DFLASH / DSPARK.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/speculative_hook.py:161-166; 0.5.23: :175-180"},
    {SINCE("0.5.13"), SPEC_HOOK_EARLY, w_not_positive, SET_SPEC_WINDOW,
     "ValueError: --speculative-draft-window-size must be positive, got {value}.",
     "sglang 0.5.13: python/sglang/srt/arg_groups/speculative_hook.py:81-86; 0.5.23: :202-207"},
    {SINCE("0.5.21"), SPEC_HOOK_EARLY, s_negative, SET_SPEC_SINK,
     "ValueError: --speculative-draft-sink-size must be non-negative, got {value}.",
     "sglang 0.5.21: python/sglang/srt/arg_groups/speculative_hook.py:185-190; 0.5.23: :221-226"},
    {SINCE("0.5.21"), SPEC_HOOK_EARLY, s_alone, SET_SPEC_SINK,
     "ValueError: --speculative-draft-sink-size requires --speculative-draft-window-size.",
     "sglang 0.5.21: python/sglang/srt/arg_groups/speculative_hook.py:191-194; 0.5.23: :227-230"},
    {SINCE("0.5.14"), SPEC_HOOK_EAGLE, r_algorithm, SET_SPEC_REJECTION,
     "NotImplementedError: " RS "is only supported for EAGLE / EAGLE3 / NEXTN, not speculative_algorithm={algorithm}.",
     "sglang 0.5.14: python/sglang/srt/arg_groups/speculative_hook.py:346-351; 0.5.23: :1215-1220"},
    {SINCE("0.5.14"), SPEC_HOOK_EAGLE, r_topk, SET_SPEC_EAGLE_TOPK,
     "ValueError: " RS "requires --speculative-eagle-topk=1.",
     "sglang 0.5.14: python/sglang/srt/arg_groups/speculative_hook.py:352-355; 0.5.23: :1221-1224"},
    {SINCE("0.5.14"), SPEC_HOOK_EAGLE, r_thresholds, SET_SPEC_ACCEPT_SINGLE,
     "ValueError: " RS "is incompatible with --speculative-accept-threshold-single / "
     "--speculative-accept-threshold-acc; rejection sampling ignores the accept thresholds.",
     "sglang 0.5.14: python/sglang/srt/arg_groups/speculative_hook.py:356-365; 0.5.23: :1231-1240"},
    {FROM_TO("0.5.14", "0.5.15.post1"), SPEC_HOOK_EAGLE, r_multi_layer, SET_MULTI_LAYER_EAGLE,
     "NotImplementedError: " RS "is not supported with multi-layer EAGLE (--enable-multi-layer-eagle).",
     "sglang 0.5.14: python/sglang/srt/arg_groups/speculative_hook.py:372-376; 0.5.15: :429-433"},
};
#undef RS

/* {algorithm}: the resolved speculative algorithm, as an f-string prints it */
static void rejection_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    char a[SETTING_VALUE_LEN];
    rule_field(f, "algorithm", "%s", rules_spec_resolved(c, a, sizeof a));
}

/* rejection sampling's checks blame what turned it on; the thresholds', the first not at 1.0; the top-k's, the steps
 * given without one */
static const setting *rejection_blamed(const ctx *c, const flag_rule *r)
{
    if (r->blame == SET_SPEC_REJECTION) return rejection_blame(c);
    if (r->blame == SET_SPEC_ACCEPT_SINGLE && threshold_one(c, SET_SPEC_ACCEPT_SINGLE))
        return &c->set->s[SET_SPEC_ACCEPT_ACC];
    if (r->blame == SET_SPEC_EAGLE_TOPK && !c->set->s[SET_SPEC_EAGLE_TOPK].set)
        return &c->set->s[SET_SPEC_NUM_STEPS];
    return &c->set->s[r->blame];
}

/* SGLang's warning where it reads SGLANG_SIMULATE_ACC_LEN for ROCm's default, on every platform (0.5.21+) */
static void warn_simulated(const ctx *c)
{
    const setting *s = &c->set->s[SET_SIMULATE_ACC_ENV];
    char v[SETTING_VALUE_LEN];
    if (!rel_since(c->rel, "0.5.21") || !s->set || py_float(s->value, v, sizeof v)) return;
    notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES,
              "SGLang warns \"Invalid value for SGLANG_SIMULATE_ACC_LEN: \"%s\" is not a valid float value, using "
              "default \"-1\"\" and reads it as -1 (sglang 0.5.21: python/sglang/srt/arg_groups/speculative_hook.py:"
              "1083; 0.5.23: :1196, python/sglang/srt/environ.py:79-86, :200-205)", s->value);
}

/* SGLang's warning for a draft window the algorithm does not honour */
static const struct window_note {
    span when;
    const char *honoured; /* the resolved algorithms */
    const char *message;  /* {algorithm}: the resolved one, or None */
    const char *cite;
} WINDOW_NOTES[] = {
    {FROM_TO("0.5.13", "0.5.20"), "EAGLE3 DFLASH", "speculative_algorithm={algorithm} (honored by Llama EAGLE-3 and "
     "DFLASH only)", "sglang 0.5.13: python/sglang/srt/arg_groups/speculative_hook.py:88-93; 0.5.20: :145-150"},
    {SINCE("0.5.21"), "EAGLE EAGLE3 DFLASH", "speculative_algorithm={algorithm} (honored by DFLASH, Llama EAGLE-3, and "
     "the EAGLE/MTP/NEXTN draft-decode path on the Triton/FlashInfer draft backends)",
     "sglang 0.5.21: python/sglang/srt/arg_groups/speculative_hook.py:177-183; 0.5.23: :213-219"},
};
static void warn_window(const ctx *c)
{
    char a[SETTING_VALUE_LEN], msg[KVC_NOTE_LEN];
    if (!c->set->s[SET_SPEC_WINDOW].set || c->set->s[SET_PAGE_SIZE].reported) return;
    for (size_t i = 0; i < COUNT_OF(WINDOW_NOTES); i++) {
        const struct window_note *n = &WINDOW_NOTES[i];
        if (!in_span(c->rel, n->when) || algorithm_in(c, n->honoured)) continue;
        const char *const f[][2] = {{"algorithm", c->set->s[SET_SPEC_ALGO].set ? rules_spec_resolved(c, a, sizeof a)
                                                                               : "None"}};
        sglang_expand(n->message, f, COUNT_OF(f), msg, sizeof msg);
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "SGLang warns \"--speculative-draft-window-"
                  "size has no effect with %s.\" (%s)", msg, n->cite);
    }
}

kvc_status spec_hook_check(const ctx *c, enum spec_hook_stage stage)
{
    static const rule_hooks hooks = {"", rejection_fields, rejection_blamed};
    if (stage == SPEC_HOOK_EAGLE) warn_simulated(c);
    kvc_status st = rules_table(c, RULES, COUNT_OF(RULES), (int)stage, &hooks);
    if (!st && stage == SPEC_HOOK_EARLY) warn_window(c);
    return st;
}

size_t spec_hook_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    SPAN_EACH(WINDOW_NOTES, WINDOW_NOTES[i].when);
    return n;
}
