/* The LM head's data-parallel flags, as the data parallelism handler
 * checks them at its end, after its other checks (rules.c
 * check_attention_dp): --enable-dp-lm-head needs attention DP, and
 * --enable-tp-lm-head-all-to-all (0.5.18+) needs attention DP, no DP LM
 * head, a TP size equal to the attention DP size and no attention CP.
 *
 * The handler first turns the DP LM head off where there is one DP rank
 * (and, from 0.5.16, no elastic EP scale joiner): up to 0.5.21 a --dp-size
 * of 1, which also turns DP attention off; from 0.5.22 one rank of
 * --dp-size x --attn-dp-size (num_dp_ranks_of). Attention DP is
 * --enable-dp-attention (or, up to 0.5.7, the DeepSeek family's own, which
 * kvcheck's rules_attention_dp reads) up to 0.5.21, and from 0.5.22 an
 * attention DP size above 1 or a scale joiner (attn_dp_enabled_of). The TP
 * LM head all-to-all SGLang turns on by itself (on a decode worker whose
 * sizes already meet those checks) passes them; --no-enable-tp-lm-head-
 * all-to-all leaves it off. */
#include "engine/sglang/rules.h"

/* The values the checks read, once the handler's defaults have run; sizes as Python's int texts (argparse's int). */
typedef struct dp_view {
    int attn;         /* attention DP on */
    int dp_lm_head;   /* --enable-dp-lm-head, unless turned off */
    const char *size; /* the DP size the TP check compares with: dp_size up to 0.5.21, attn_dp_size from 0.5.22 */
} dp_view;

static void view_of(const ctx *c, dp_view *v)
{
    const char *adp, *dp;
    settings_attn_dp_text(c->set, &adp, &dp);
    int joiner = set_to(c, SET_EP_JOIN_MODE, "scale"); /* the flag exists from 0.5.16 */
    int one_rank;
    if (rel_since(c->rel, "0.5.22")) {
        /* num_dp_ranks_of, dp_size x attn_dp_size: one of the two is 1 here (the handler refused both above 1) */
        one_rank = !strcmp(adp, "1") && !strcmp(dp, "1");
        v->attn = int_cmp(adp, "1") > 0 || joiner;
        v->size = adp;
    } else if (rules_dp_attention_forced(c)) {
        /* up to 0.5.7 the DeepSeek family sets DP attention and dp_size itself (rules_attention_dp); no TP LM head
           all-to-all yet */
        one_rank = rules_attention_dp(c) == 1;
        v->attn = !one_rank;
        v->size = NULL;
    } else {
        v->size = settings_size_text(c->set, SET_DP);
        one_rank = !strcmp(v->size, "1");
        v->attn = c->set->s[SET_DP_ATTENTION].set && (!one_rank || joiner);
    }
    v->dp_lm_head = c->set->s[SET_DP_LM_HEAD].set && (!one_rank || joiner);
}

static const dp_view *view(const ctx *c) { return c->view.lm_head; }
static int dp_lm_head_alone(const ctx *c) { return view(c)->dp_lm_head && !view(c)->attn; }
static int tp_a2a(const ctx *c) { return c->set->s[SET_TP_LM_HEAD_A2A].set; }
static int a2a_alone(const ctx *c) { return tp_a2a(c) && !view(c)->attn; }
static int a2a_dp_lm_head(const ctx *c) { return tp_a2a(c) && view(c)->dp_lm_head; }
static int a2a_tp(const ctx *c)
{
    return tp_a2a(c) && view(c)->size && int_cmp(settings_size_text(c->set, SET_TP), view(c)->size) != 0;
}
static int a2a_cp(const ctx *c) { return tp_a2a(c) && strcmp(settings_size_text(c->set, SET_ATTN_CP), "1") != 0; }

/* {tp}, {dp}, {cp}: the sizes the messages name */
static void lm_head_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    rule_field(f, "tp", "%s", settings_size_text(c->set, SET_TP));
    rule_field(f, "dp", "%s", view(c)->size ? view(c)->size : "");
    rule_field(f, "cp", "%s", settings_size_text(c->set, SET_ATTN_CP));
}

#define OV "python/sglang/srt/arg_groups/overrides.py:"
#define A2A "AssertionError: --enable-tp-lm-head-all-to-all "
static const flag_rule RULES[] = {
    {UNTIL("0.5.21"), 0, dp_lm_head_alone, SET_DP_LM_HEAD,
     "AssertionError: Please enable dp attention when setting enable_dp_lm_head. ",
     "sglang 0.5.3rc2: python/sglang/srt/server_args.py:962-965; 0.5.14: :5058-5061; 0.5.15: " OV "1789-1792; 0.5.21: "
     ":1364-1367"},
    {SINCE("0.5.22"), 0, dp_lm_head_alone, SET_DP_LM_HEAD,
     "AssertionError: --enable-dp-lm-head requires attention DP (--attn-dp-size).",
     "sglang 0.5.22: " OV "1387-1390; 0.5.23: :1424-1427"},
    {FROM_TO("0.5.18", "0.5.21"), 0, a2a_alone, SET_TP_LM_HEAD_A2A,
     "AssertionError: Please enable dp attention when setting enable_tp_lm_head_all_to_all.",
     "sglang 0.5.18: " OV "2440-2442; 0.5.21: :1369-1371"},
    {SINCE("0.5.22"), 0, a2a_alone, SET_TP_LM_HEAD_A2A, A2A "requires attention DP (--attn-dp-size).",
     "sglang 0.5.22: " OV "1392-1394; 0.5.23: :1429-1431"},
    {SINCE("0.5.18"), 0, a2a_dp_lm_head, SET_TP_LM_HEAD_A2A,
     A2A "uses a TP-sharded LM head and is incompatible with --enable-dp-lm-head.",
     "sglang 0.5.18: " OV "2443-2446; 0.5.23: :1432-1435"},
    {FROM_TO("0.5.18", "0.5.21"), 0, a2a_tp, SET_TP_LM_HEAD_A2A,
     A2A "currently requires tp_size == dp_size, got tp_size={tp}, dp_size={dp}.",
     "sglang 0.5.18: " OV "2447-2450; 0.5.21: :1376-1379"},
    {SINCE("0.5.22"), 0, a2a_tp, SET_TP_LM_HEAD_A2A,
     A2A "currently requires tp_size == attn_dp_size, got tp_size={tp}, attn_dp_size={dp}.",
     "sglang 0.5.22: " OV "1399-1403; 0.5.23: :1436-1440"},
    {SINCE("0.5.18"), 0, a2a_cp, SET_TP_LM_HEAD_A2A, A2A "currently requires attn_cp_size == 1, got {cp}.",
     "sglang 0.5.18: " OV "2451-2454; 0.5.23: :1441-1444"},
};
#undef A2A
#undef OV

kvc_status lm_head_check(const ctx *c)
{
    static const rule_hooks hooks = {"", lm_head_fields, NULL};
    dp_view v;
    view_of(c, &v);
    ctx with = *c;
    with.view.lm_head = &v;
    return rules_table(&with, RULES, COUNT_OF(RULES), 0, &hooks);
}

size_t lm_head_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
