/* What SGLang does with a PD pair: the flags that could fix a mismatch,
 * the checks that run before serving, and how Mooncake and NIXL move pages,
 * by release (tools/sglang-oracle/ERAS.md §5). */
#include "engine/sglang/sglang.h"

#include <string.h>

/* Adds to the last candidate, out[n - 1], a flag in the spelling release `release` parses (the first, or one that
 * must come with those before); drops that candidate when the release has no such flag. Returns the candidates
 * kept. */
static unsigned with(engine_fix *out, unsigned n, unsigned release, setting_key key, const char *value)
{
    const char *flag = setting_flag(key, release);
    engine_fix *f = &out[n - 1];
    if (!flag || f->nflags >= COUNT_OF(f->flags)) return n - 1;
    engine_flag *g = &f->flags[f->nflags++];
    g->key = (int)key;
    str_copy(g->flag, sizeof g->flag, flag);
    str_copy(g->value, sizeof g->value, value);
    return n;
}

/* Adds a candidate of one flag (with() adds more); none when the release has no such flag. */
static unsigned add(engine_fix *out, unsigned n, unsigned max, unsigned release, setting_key key, const char *name,
                    const char *value)
{
    if (n >= max) return n;
    engine_fix *f = &out[n];
    memset(f, 0, sizeof *f);
    str_copy(f->setting, sizeof f->setting, name);
    f->changes_dtype = key == SET_KV_CACHE_DTYPE || key == SET_MODEL_DTYPE; /* --dtype: auto's pool */
    return with(out, n + 1, release, key, value);
}

/* A worker's decode allocation policy: early when its release has none
 * (PrefillServerInfo's default, sglang 0.5.22:
 * python/sglang/srt/disaggregation/common/conn.py:116). */
static const char *allocation_policy(const kvc_resolved *r)
{
    const char *v = resolved_value(r, "decode_alloc_policy");
    return v[0] ? v : "early";
}

unsigned pd_fix_candidates(const kvc_resolved *self, const kvc_resolved *other, engine_fix *out, unsigned max)
{
    unsigned n = 0;
    int rel = sglang_release_index(self->release);
    unsigned release = rel < 0 ? 0 : (unsigned)rel;
    /* the other side's speculative algorithm (its draft entries, DeepSeek-V4's doubled state rings): alone, SGLang
     * picks its parameters; or with a chain of one draft token per step, which DeepSeek-V4 requires, given whole
     * (SGLang refuses a top-k without the step and draft-token counts: EAGLE_ASSERT_CITE). Every candidate is
     * resolved before it is offered */
    const char *algo = resolved_value(other, "speculative_algorithm");
    if (algo[0] && strcmp(algo, resolved_value(self, "speculative_algorithm")) != 0) {
        n = add(out, n, max, release, SET_SPEC_ALGO, "speculative_algorithm", algo);
        unsigned one = add(out, n, max, release, SET_SPEC_ALGO, "speculative_algorithm", algo);
        if (one > n) one = with(out, one, release, SET_SPEC_EAGLE_TOPK, "1");
        if (one > n) one = with(out, one, release, SET_SPEC_NUM_STEPS, "1");
        if (one > n) one = with(out, one, release, SET_SPEC_DRAFT_TOKENS, "2");
        n = one;
    }
    const char *transfer = resolved_value(other, "transfer_backend"); /* each side builds its own transfer */
    if (strcmp(transfer, resolved_value(self, "transfer_backend")) != 0)
        n = add(out, n, max, release, SET_TRANSFER_BACKEND, "transfer_backend", transfer);
    const char *policy = allocation_policy(other); /* 0.5.22+: compared per request */
    if (strcmp(policy, allocation_policy(self)) != 0)
        n = add(out, n, max, release, SET_ALLOC_POLICY, "decode_alloc_policy", policy);
    /* the model's dtype, which auto takes (re-resolved like every fix: the model loader refuses float32 for FP8
     * checkpoints) */
    const char *dtype = resolved_value(other, "dtype");
    if (dtype[0] && strcmp(dtype, resolved_value(self, "dtype")) != 0)
        n = add(out, n, max, release, SET_MODEL_DTYPE, "dtype", dtype);
    if (!self->model.dsa) {
        n = add(out, n, max, release, SET_KV_CACHE_DTYPE, "kv_cache_dtype", resolved_value(other, "kv_cache_dtype"));
        return add(out, n, max, release, SET_PAGE_SIZE, "page_size", resolved_value(other, "page_size"));
    }
    n = add(out, n, max, release, SET_KV_CACHE_DTYPE, "kv_cache_dtype", "fp8_e4m3");
    n = add(out, n, max, release, SET_KV_CACHE_DTYPE, "kv_cache_dtype", "bfloat16");
    if ((self->draft_entries || self->draft_model_layers) && sglang_release_in(release, "0.5.18", NULL)) {
        /* the draft pool's own dtype */
        const char *want = resolved_value(other, "speculative_draft_kv_cache_dtype");
        n = add(out, n, max, release, SET_SPEC_DRAFT_KV_DTYPE, "speculative_draft_kv_cache_dtype",
                want[0] ? want : resolved_value(other, "kv_cache_dtype"));
    }
    const char *ssm = resolved_value(other, "mamba_ssm_dtype");
    if (self->state_layers && ssm[0]) /* the linear layers' state dtype; SGLANG_MAMBA_CONV_DTYPE has no flag */
        n = add(out, n, max, release, SET_MAMBA_SSM, "mamba_ssm_dtype", ssm);
    static const struct {
        setting_key key;
        const char *setting;
    } SIDES[] = {{SET_PREFILL_BACKEND, "dsa_prefill_backend"}, {SET_DECODE_BACKEND, "dsa_decode_backend"}};
    for (size_t k = 0; k < COUNT_OF(SIDES); k++)
        for (unsigned i = 0; i < rules_backend_count(); i++)
            if (rules_backend_suggestable(i, &self->gpu, release))
                n = add(out, n, max, release, SIDES[k].key, SIDES[k].setting, rules_backend_name(i));
    return n;
}

/* The decode worker's bootstrap checks of the prefill server's info (the
 * decode's release runs them): page size from 0.5.8 (skipped for a HiSparse
 * decode in 0.5.10-0.5.12.post1), the KV dtype string from 0.5.10, and from
 * 0.5.23 DeepSeek-V4's kv_layout string when both sides report one. No
 * release compares backends, row width or item lengths there. */
static const struct boot_rule {
    const char *since, *until;
    int page, dtype, hisparse_skips_page, layout;
    const char *cite;
} BOOT[] = {
    {"0.5.8", "0.5.9", 1, 0, 0, 0, "sglang 0.5.8: python/sglang/srt/disaggregation/common/conn.py:275-283"},
    {"0.5.10", "0.5.12.post1", 1, 1, 1, 0, "sglang 0.5.10: python/sglang/srt/disaggregation/common/conn.py:219-243"},
    {"0.5.13", "0.5.22", 1, 1, 0, 0, "sglang 0.5.17: python/sglang/srt/disaggregation/common/conn.py:529-545"},
    {"0.5.23", NULL, 1, 1, 0, 1, "sglang 0.5.23: python/sglang/srt/disaggregation/common/conn.py:1320-1357"},
};

/* 1 when the worker's release is from `since` to `until` (NULL: open). */
static int release_in(const kvc_resolved *r, const char *since, const char *until)
{
    int rel = sglang_release_index(r->release);
    return rel >= 0 && sglang_release_in((unsigned)rel, since, until);
}

static const char *transfer_backend(const kvc_resolved *r)
{
    const char *t = resolved_value(r, "transfer_backend");
    return t[0] ? t : "mooncake";
}

/* 1 when the pair's transfer is NIXL from 0.5.15, which addresses
 * decode's pages at decode's item length and copies prefill's item length
 * into each, refusing at the handshake when prefill's is longer (sglang
 * 0.5.15: python/sglang/srt/disaggregation/nixl/conn.py:660-667; 0.5.23:
 * :1197-1203), and checks the entries decode registers. The checks run on
 * the prefill side. */
static int nixl_strided(const kvc_resolved *p)
{
    return strcmp(transfer_backend(p), "nixl") == 0 && release_in(p, "0.5.15", NULL);
}

/* 1 when boolean setting `name` of `r` is on. */
static int setting_on(const kvc_resolved *r, const char *name)
{
    const kvc_setting *s = resolved_find(r, name);
    return s && s->number;
}

/* The transfers by --disaggregation-transfer-backend (prefill's: it sends).
 * Mooncake, Mori and Ascend address both sides' pages at prefill's item
 * length, unchecked (tools/sglang-oracle/PD_ENTRIES.md §3); what Mori and
 * Ascend say when a write runs past decode's buffer was not read. The fake
 * backend moves no KV (sglang 0.5.23:
 * python/sglang/srt/arg_groups/pd_disaggregation_hook.py:83-84). */
static const struct transfer_row {
    const char *backend;
    engine_transfer t;
} TRANSFERS[] = {
    {"mooncake", {"Mooncake", 1, "Requested address not found"}},
    {"mori", {"Mori", 1, NULL}},
    {"ascend", {"Ascend", 1, NULL}},
    {"fake", {"the fake transfer backend (it moves no KV)", 1, NULL}},
};
static const engine_transfer NIXL_SENDER = {"NIXL", 1, "the write lands outside decode's registered region"};
static const engine_transfer NIXL_RECEIVER = {"NIXL", 0, "NIXL prepared dlist transfer length exceeds item stride"};

const engine_transfer *pd_transfer(const kvc_resolved *p, const kvc_resolved *d)
{
    (void)d;
    const char *backend = transfer_backend(p);
    if (strcmp(backend, "nixl") == 0) return nixl_strided(p) ? &NIXL_RECEIVER : &NIXL_SENDER;
    for (size_t i = 0; i < COUNT_OF(TRANSFERS); i++)
        if (strcmp(TRANSFERS[i].backend, backend) == 0) return &TRANSFERS[i].t;
    return &TRANSFERS[0].t; /* the flag table admits no other value */
}

/* What the transfer does when prefill registers more KV entries than decode
 * (prefill keeps draft entries that decode has no buffer for): the stage
 * where SGLang fails the pair and what it says, or no stage when the entries
 * land on decode's target layers unnoticed. Decode's extra entries are
 * never an error: they receive nothing. No release sends the entry count;
 * only NIXL 0.5.15+ compares it (tools/sglang-oracle/PD_ENTRIES.md §1). */
static const struct entries_row {
    const char *backend, *since, *until;
    const char *stage; /* NULL: not caught */
    const char *what;  /* {src}/{dst}: prefill's/decode's entry counts; {draft}: the extra entries */
    const char *cite;
} ENTRIES[] = {
    {"mooncake", NULL, "0.5.21", "first transfer",
     "Mooncake's transfer thread fails on the first request: prefill's entry {dst} (from 0) has no buffer on decode, and "
     "\"Transfer thread failed because of list index out of range. Prefill instance with bootstrap_port=... is "
     "dead.\"; decode's requests then time out (SGLANG_DISAGGREGATION_WAITING_TIMEOUT, 300 s)",
     "sglang 0.5.18: python/sglang/srt/disaggregation/mooncake/conn.py:712-724, :1956"},
    {"mooncake", "0.5.22", NULL, NULL,
     "Mooncake sends prefill's draft entries to decode's last entries (draft entries: {draft}), which are target "
     "layers there: decode reads prefill's draft KV in its last layers, and no check notices",
     "sglang 0.5.23: python/sglang/srt/disaggregation/common/conn.py:1878-1887"},
    {"nixl", NULL, "0.5.11", "first transfer",
     "NIXL's send raises IndexError in the scheduler on the first request (\"Scheduler hit an exception\") and "
     "the prefill server exits",
     "sglang 0.5.9: python/sglang/srt/disaggregation/nixl/conn.py:391-402, managers/scheduler.py:3188-3191"},
    {"nixl", "0.5.12", "0.5.12", "first transfer",
     "NIXL's transfer worker fails each request: \"Unexpected transfer worker error for room ...\"",
     "sglang 0.5.12: python/sglang/srt/disaggregation/nixl/conn.py:754-765"},
    {"nixl", "0.5.13", "0.5.14", "first transfer",
     "NIXL prepares decode's first {dst} entries only, so each request fails in NIXL (the error text is NIXL's)",
     "sglang 0.5.14: python/sglang/srt/disaggregation/nixl/conn.py:527-529, :971-985, :882-893"},
    {"nixl", "0.5.15", NULL, "NIXL handshake",
     "NIXL refuses decode when it registers: \"NIXL PD transfer: decode registered fewer KV regions ({dst}) than "
     "prefill ({src}); unexpected geometry\"; prefill's bootstrap thread dies and requests to that rank wait in "
     "KVPoll.Bootstrapping",
     "sglang 0.5.15: python/sglang/srt/disaggregation/nixl/conn.py:911-920; 0.5.23: :1482-1492"},
    {"mori", NULL, "0.5.11", "first transfer",
     "Mori raises on the first request (\"Destination MLA KV descriptors do not match prefill pp "
     "configuration\") and the prefill scheduler exits",
     "sglang 0.5.9: python/sglang/srt/disaggregation/mori/conn.py:507-510"},
    {"mori", "0.5.12", NULL, "first transfer",
     "Mori fails each request: \"Destination MLA KV descriptors do not match prefill pp configuration\"",
     "sglang 0.5.12: python/sglang/srt/disaggregation/mori/conn.py:1204-1212; 0.5.23: :1248"},
    {"ascend", NULL, NULL, "first transfer",
     "Ascend's send raises IndexError on the first request and its transfer thread dies (\"Transfer thread "
     "failed because of list index out of range. ...\")",
     "sglang 0.5.23: python/sglang/srt/disaggregation/ascend/conn.py:350-359"},
};

/* The ENTRIES row for a pair whose prefill has more KV entries than decode,
 * with its text in `out`; NULL otherwise (and for the fake backend). */
static const struct entries_row *extra_entries(const kvc_resolved *p, const kvc_resolved *d, char *out, size_t size)
{
    const struct entries_row *row = NULL;
    for (size_t i = 0; p->kv_entries > d->kv_entries && i < COUNT_OF(ENTRIES); i++)
        if (strcmp(ENTRIES[i].backend, transfer_backend(p)) == 0 && release_in(p, ENTRIES[i].since, ENTRIES[i].until))
            row = &ENTRIES[i];
    if (!row) return NULL;
    char src[16], dst[16], draft[16], what[700];
    str_printf(src, sizeof src, "%u", p->kv_entries);
    str_printf(dst, sizeof dst, "%u", d->kv_entries);
    str_printf(draft, sizeof draft, "%u", p->kv_entries - d->kv_entries);
    const char *const f[][2] = {{"src", src}, {"dst", dst}, {"draft", draft}};
    sglang_expand(row->what, f, COUNT_OF(f), what, sizeof what);
    str_printf(out, size, "prefill has %u KV entries and decode %u: in SGLang %s, %s (%s)", p->kv_entries,
               d->kv_entries, p->release, what, row->cite);
    return row;
}

/* The transfers that check the linear layers' per-request state slots of
 * a pair at the same attention TP (the prefill side sends), and what they
 * say: "{say}{src}{mid}{dst}{end}" in SGLang's words. Mooncake 0.5.20 and
 * NIXL's other paths copy prefill's slot size unchecked. */
static const struct state_catch {
    int nixl;
    const char *since;
    int cuda_only;
    const char *stage, *how, *say, *mid, *end, *cite;
} STATE_CATCH[] = {
    {0, "0.5.21", 0, "first state transfer", "Mooncake transfer fails each request at its linear layers' state",
     "Prefill/Decode Mamba slot size mismatch (src=", ", dst=",
     "). Configure matching persistent state layouts on both peers.",
     "sglang 0.5.21: python/sglang/srt/disaggregation/mooncake/conn.py:1934-1966"},
    {1, "0.5.23", 1, "NIXL registration",
     "NIXL rejects decode at registration with its default UCX backend (SGLANG_DISAGGREGATION_NIXL_BACKEND, not read)",
     "NIXL prepared state component 0 (mamba) stride mismatch for peer ...: src[..]=", ", dst[..]=", "",
     "sglang 0.5.23: python/sglang/srt/disaggregation/nixl/conn.py:749-792"},
};

/* Returns 1 with `stage` and `text` when a STATE_CATCH row refuses the
 * pair; else appends to `text` what happens when the state slots differ. */
static int state_check(const kvc_resolved *p, const kvc_resolved *d, int nixl, char *stage, size_t stage_size,
                       char *text, size_t size)
{
    unsigned k = 0;
    while (state_sizes_compare(p, d) && k < p->nstate && p->state[k].item_len == d->state[k].item_len) k++;
    if (!state_sizes_compare(p, d) || k == p->nstate) return 0;
    unsigned long long src = p->state[k].item_len, dst = d->state[k].item_len;
    for (size_t i = 0; i < COUNT_OF(STATE_CATCH); i++) {
        const struct state_catch *c = &STATE_CATCH[i];
        if (c->nixl != nixl || !release_in(p, c->since, NULL) || (c->cuda_only && p->gpu.hip)) continue;
        str_copy(stage, stage_size, c->stage);
        str_printf(text, size, "SGLang %s's %s: \"%s%llu%s%llu%s\" (%s)", p->release, c->how, c->say, src, c->mid,
                   dst, c->end, c->cite);
        return 1;
    }
    size_t n = strlen(text);
    if (n < size)
        str_printf(text + n, size - n, "; no check compares the linear layers' state slots (%llu vs %llu B) in "
                   "SGLang %s's %s state transfer (sglang 0.5.20: python/sglang/srt/disaggregation/%s)",
                   src, dst, p->release, nixl ? "NIXL" : "Mooncake",
                   nixl ? "nixl/conn.py:2286" : "mooncake/conn.py:1700-1728");
    return 0;
}

/* The first kind of entry both sides keep whose prefill item length is
 * longer than decode's (what NIXL 0.5.15+ checks for every paired entry:
 * tools/sglang-oracle/PD_ENTRIES.md §3), with the two lengths in `len`;
 * NULL when none is. */
static const char *longer_entry(const kvc_resolved *p, const kvc_resolved *d, uint64_t len[2])
{
    uint64_t pi[2] = {0, 0}, di[2] = {0, 0};
    int drafts = kvc_resolved_draft_model(p, pi) && kvc_resolved_draft_model(d, di);
    const struct {
        int both;
        uint64_t p, d;
        const char *what;
    } E[] = {
        {1, p->kv.page_bytes, d->kv.page_bytes, "the target layers' entries"},
        {p->draft_entries && d->draft_entries, p->draft.page_bytes, d->draft.page_bytes, "the draft (MTP) entries"},
        {drafts, pi[0], di[0], "the draft model's K entries"},
        {drafts, pi[1], di[1], "the draft model's V entries"},
    };
    for (size_t i = 0; i < COUNT_OF(E); i++)
        if (E[i].both && E[i].p > E[i].d) {
            len[0] = E[i].p, len[1] = E[i].d;
            return E[i].what;
        }
    return NULL;
}

/* 1 when a paired entry's or state's item length differs: what a checksum
 * of each side's own pages (prefill's written, decode's received) tells
 * apart; with equal lengths the bytes arrive as sent and digest alike. */
static int item_lengths_differ(const kvc_resolved *p, const kvc_resolved *d)
{
    uint64_t len[2];
    if (longer_entry(p, d, len) || longer_entry(d, p, len)) return 1;
    if (p->has_indexer && d->has_indexer && p->indexer.page_bytes != d->indexer.page_bytes) return 1;
    for (unsigned k = 0; state_sizes_compare(p, d) && k < p->nstate; k++)
        if (p->state[k].item_len != d->state[k].item_len) return 1;
    return 0;
}

/* --disaggregation-enable-kv-checksum on both sides (0.5.21+): prefill
 * digests each request's pages and state at its item lengths, decode its
 * own at its own, and compares (decode's release: it checks). 0.5.23 ships a
 * layout signature with the digest and skips differing layouts. */
static const struct checksum_row {
    const char *since, *until;
    const char *stage; /* NULL: not caught */
    const char *say, *cite;
} CHECKSUM[] = {
    {"0.5.21", "0.5.22", "KV checksum",
     "fails each request on decode: \"KV checksum mismatch req=... bootstrap_room=... expected=... got=...\" "
     "(HTTP 500; a RuntimeError under SGLang's CI)",
     "sglang 0.5.21: python/sglang/srt/disaggregation/decode.py:3039-3085; 0.5.22: :3184-3230"},
    {"0.5.23", NULL, NULL,
     "is skipped: decode logs once \"KV checksum skipped: prefill layout signature ... differs from this decode's "
     "... (TP width, PP stage, or page size); its requests are admitted unverified.\"",
     "sglang 0.5.23: python/sglang/srt/disaggregation/decode.py:2580-2598, utils.py:263-284"},
};

/* Returns 1 with `stage` when the KV checksum fails the pair; else appends
 * what it does to `text`. */
static int checksum_check(const kvc_resolved *p, const kvc_resolved *d, char *stage, size_t stage_size, char *text,
                          size_t size)
{
    if (!setting_on(p, "kv_checksum") || !setting_on(d, "kv_checksum") || !item_lengths_differ(p, d)) return 0;
    const struct checksum_row *row = NULL;
    for (size_t i = 0; i < COUNT_OF(CHECKSUM); i++)
        if (release_in(d, CHECKSUM[i].since, CHECKSUM[i].until)) row = &CHECKSUM[i];
    if (!row) return 0;
    size_t n = strlen(text);
    if (n < size)
        str_printf(text + n, size - n, "%s SGLang %s's KV checksum (--disaggregation-enable-kv-checksum on both "
                   "sides) %s (%s)", row->stage ? ", but" : ";", d->release, row->say, row->cite);
    if (!row->stage) return 0;
    str_copy(stage, stage_size, row->stage);
    return 1;
}

/* Before it checks anything the decode fetches the prefill server's info:
 * its own release's query, answered by the bootstrap server of the
 * prefill's release. Up to 0.5.9 the decode asks with engine_rank=-1 and
 * reads named keys; from 0.5.10 it asks with prefill_dp_rank=-1 (an older
 * server answers 400) and builds its PrefillServerInfo from every field of
 * the reply, so a field a newer prefill adds is an unexpected keyword.
 * `fields`: the keys this release's server replies with and its decode
 * reads (up to 0.5.9), or its PrefillServerInfo's fields in order (0.5.10+:
 * the server replies with all of them but those marked '?', which 0.5.21+
 * send only when set: dsv41_spec_layout (DSpark, which kvcheck does not
 * model) and, 0.5.23+, kv_layout (a DeepSeek-V4 pool's)).
 * tools/sglang-oracle/pairs.py runs both releases' code for each pair. */
static const struct info_row {
    const char *since, *until;
    int dataclass; /* 0: named keys, query engine_rank=-1; 1: PrefillServerInfo(**reply), query prefill_dp_rank=-1 */
    const char *fields, *cite;
    const char *retries; /* 0.5.10+: the decode's loop that retries, then aborts (decode.py) */
} INFO[] = {
    {"0.5.3rc2", "0.5.7", 0, "prefill_attn_tp_size,prefill_dp_size,prefill_pp_size",
     "sglang 0.5.3rc2: python/sglang/srt/disaggregation/common/conn.py:404-425, :542-560", NULL},
    {"0.5.8", "0.5.9", 0, "prefill_attn_tp_size,prefill_dp_size,prefill_pp_size,prefill_page_size",
     "sglang 0.5.8: python/sglang/srt/disaggregation/common/conn.py:456-478, :600-619", NULL},
#define INFO_FIELDS "attn_tp_size,attn_cp_size,dp_size,pp_size,page_size,kv_cache_dtype,follow_bootstrap_room,"
#define INFO_RANKS "target_tp_rank,target_tp_ranks,target_cp_ranks,target_pp_ranks,required_dst_info_num,"           \
                   "required_prefill_response_num"
    {"0.5.10", "0.5.15.post1", 1, INFO_FIELDS INFO_RANKS,
     "sglang 0.5.10: python/sglang/srt/disaggregation/common/conn.py:48-75, :203-216, :824-862",
     "sglang 0.5.10: python/sglang/srt/disaggregation/decode.py:554-594; 0.5.15.post1: :694-734"},
    {"0.5.16", "0.5.20", 1, INFO_FIELDS "enable_dsa_cache_layer_split,prefill_http_port," INFO_RANKS,
     "sglang 0.5.16: python/sglang/srt/disaggregation/common/conn.py:67-105, :447-460, :1578-1618",
     "sglang 0.5.16: python/sglang/srt/disaggregation/decode.py:770-812; 0.5.17: :806-846; 0.5.20: :944-986"},
    {"0.5.21", "0.5.21", 1, INFO_FIELDS "enable_dsa_cache_layer_split,dsv41_spec_layout?,prefill_http_port," INFO_RANKS,
     "sglang 0.5.21: python/sglang/srt/disaggregation/common/conn.py:95-134, :936-953, :2228-2272",
     "sglang 0.5.21: python/sglang/srt/disaggregation/decode.py:1079-1121"},
    {"0.5.22", "0.5.22", 1,
     INFO_FIELDS "enable_dsa_cache_layer_split,dsv41_spec_layout?,decode_allocation_policy,prefill_http_port," INFO_RANKS,
     "sglang 0.5.22: python/sglang/srt/disaggregation/common/conn.py:105-145, :1164-1181, :2776-2821",
     "sglang 0.5.22: python/sglang/srt/disaggregation/decode.py:1151-1193"},
    {"0.5.23", NULL, 1,
     INFO_FIELDS "enable_dsa_cache_layer_split,dsv41_spec_layout?,kv_layout?,decode_allocation_policy,"
                 "enable_kv_cache_sharding,prefill_http_port," INFO_RANKS,
     "sglang 0.5.23: python/sglang/srt/disaggregation/common/conn.py:120-163, :1300-1317, :3188-3237",
     "sglang 0.5.23: python/sglang/srt/disaggregation/decode.py:1181-1223"},
#undef INFO_FIELDS
#undef INFO_RANKS
};

static const struct info_row *info_of(const kvc_resolved *r)
{
    for (size_t i = 0; i < COUNT_OF(INFO); i++)
        if (release_in(r, INFO[i].since, INFO[i].until)) return &INFO[i];
    return NULL;
}

/* The next field of an INFO list ("a,b?,c": '?' marks a field sent only
 * when set) at *at: its name (`len` bytes) and whether it is optional;
 * advances *at, 0 at the end. */
static int next_field(const char **at, const char **name, size_t *len, int *optional)
{
    if (!**at) return 0;
    size_t n = strcspn(*at, ",");
    *name = *at;
    *optional = n && (*at)[n - 1] == '?';
    *len = n - (size_t)*optional;
    *at += n + ((*at)[n] == ',');
    return 1;
}

/* 1 when INFO list `list` has `name` (`len` bytes). */
static int listed(const char *list, const char *name, size_t len)
{
    const char *f;
    size_t n;
    int optional;
    for (const char *at = list; next_field(&at, &f, &n, &optional);)
        if (n == len && strncmp(f, name, len) == 0) return 1;
    return 0;
}

/* The first name a server replying `reply` sends (an optional one only when
 * it is `set`) that INFO list `in` lacks, into `out`; 0 when there is none. */
static int first_missing(const char *reply, const char *set, const char *in, char *out, size_t size)
{
    const char *f;
    size_t len;
    int optional;
    for (const char *at = reply; next_field(&at, &f, &len, &optional);) {
        int sent = !optional || (set && strlen(set) == len && strncmp(f, set, len) == 0);
        if (sent && !listed(in, f, len)) {
            str_printf(out, size, "%.*s", (int)len, f);
            return 1;
        }
    }
    return 0;
}

/* 1 with `text` when the decode cannot read the prefill server's info. */
static int info_check(const kvc_resolved *p, const kvc_resolved *d, char *text, size_t size)
{
    const struct info_row *pi = info_of(p), *di = info_of(d);
    const char *layout = resolved_value(p, "dsv4_kv_layout")[0] ? "kv_layout" : NULL;
    char name[64], line[200];
    if (!pi || !di || pi == di) return 0;
    if (pi->dataclass != di->dataclass)
        str_printf(line, sizeof line, "Failed to get prefill %s info: 400, Missing inputs for bootstrap server.",
                   di->dataclass ? "server" : "parallel");
    else if (!di->dataclass && first_missing(di->fields, NULL, pi->fields, name, sizeof name))
        str_printf(line, sizeof line, "Error fetching prefill parallel info from bootstrap: '%s'", name);
    else if (di->dataclass && first_missing(pi->fields, layout, di->fields, name, sizeof name))
        str_printf(line, sizeof line, "Error fetching prefill server info from bootstrap: PrefillServerInfo.__init__() "
                   "got an unexpected keyword argument '%s'", name);
    else
        return 0;
    str_printf(text, size,
               "SGLang %s's decode cannot read the info of SGLang %s's prefill bootstrap server: \"%s\"; %s (%s%s%s; %s)",
               d->release, p->release, line,
               di->retries ? "it retries, then aborts the requests: \"Could not fetch prefill parallel info from ... "
                             "after N attempts\""
                           : "each request fails: \"Could not fetch prefill parallel info from bootstrap_addr: ...\"",
               di->retries ? di->retries : "", di->retries ? "; " : "", di->cite, pi->cite);
    return 1;
}

/* What the decode's bootstrap (its release runs it) compares, into
 * `checks`; returns 1 with `text` when it refuses the pair. */
static int bootstrap_check(const kvc_resolved *p, const kvc_resolved *d, char *checks, size_t checks_size,
                           char *text, size_t size)
{
    /* the string each registers: the model runner's kv_cache_dtype_str where it resolves auto to another */
    const char *pdt = resolved_dtype(p), *ddt = resolved_dtype(d);
    const struct boot_rule *rule = NULL;
    for (size_t i = 0; i < COUNT_OF(BOOT); i++)
        if (release_in(d, BOOT[i].since, BOOT[i].until)) rule = &BOOT[i];
    int hisparse = setting_on(d, "enable_hisparse");
    int page = rule && rule->page && !(rule->hisparse_skips_page && hisparse) && p->kv.page_size != d->kv.page_size;
    int dtype = rule && rule->dtype && strcmp(pdt, ddt) != 0;
    /* kv_layout: None (not compared) unless the pool is DeepSeek-V4's */
    const char *pl = resolved_value(p, "dsv4_kv_layout"), *dl = resolved_value(d, "dsv4_kv_layout");
    int layouts = rule && rule->layout && pl[0] && dl[0];
    int layout = layouts && strcmp(pl, dl) != 0;
    if (page)
        str_printf(text, size,
                   "SGLang %s's bootstrap fails the pair: \"Page size mismatch: prefill server has page_size=%u, "
                   "but decode server has page_size=%u.\" (%s)",
                   d->release, p->kv.page_size, d->kv.page_size, rule->cite);
    else if (dtype)
        str_printf(text, size,
                   "SGLang %s's bootstrap fails the pair: \"KV cache dtype mismatch: prefill server has "
                   "kv_cache_dtype=%s, but decode server has kv_cache_dtype=%s.\" (%s)",
                   d->release, pdt, ddt, rule->cite);
    else if (layout)
        str_printf(text, size,
                   "SGLang %s's bootstrap fails the pair: \"KV layout mismatch: prefill server has kv_layout=%s, "
                   "but decode server has kv_layout=%s. Both servers must use the same --dsv4-attn-backend and "
                   "SGLANG_DSV4_KV_LAYOUT.\" (%s)",
                   d->release, pl, dl, rule->cite);
    if (page || dtype || layout) return 1;
    if (!rule)
        str_printf(checks, checks_size, "SGLang %s's bootstrap checks nothing of the pair", d->release);
    else if (!rule->dtype || (rule->hisparse_skips_page && hisparse))
        str_printf(checks, checks_size, "SGLang %s's bootstrap compares %s only: it passes", d->release,
                   rule->dtype ? "the KV dtype string (page size skipped for a HiSparse decode)" : "page size");
    else
        str_printf(checks, checks_size,
                   "SGLang %s's bootstrap compares page size (%u = %u)%s the KV dtype string (%s = %s)%s%s%s only: "
                   "it passes",
                   d->release, p->kv.page_size, d->kv.page_size, layouts ? "," : " and", pdt, ddt,
                   layouts ? " and DeepSeek-V4's kv_layout (" : "", layouts ? pl : "", layouts ? ")" : "");
    return 0;
}

/* The checks after the bootstrap, in the order a pair meets them: each
 * returns 1 with `stage` and `text` ("{checks}, but ...") when it fails the
 * pair. */
typedef int (*pair_check)(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                          size_t stage_size, char *text, size_t size);

/* From 0.5.22 the decode's receiver fails each request whose prefill
 * server reports another decode allocation policy. Its other refusal,
 * prefill_complete with a prefill of attention TP, CP or PP above one, is
 * not reached: such a prefill worker is refused at start-up (rules.c). */
static int policy_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                        size_t stage_size, char *text, size_t size)
{
    const char *pp = allocation_policy(p), *dp = allocation_policy(d);
    if (!release_in(d, "0.5.22", NULL) || strcmp(pp, dp) == 0) return 0;
    str_copy(stage, stage_size, "first request");
    str_printf(text, size,
               "%s, but SGLang %s's decode fails each request when it creates its receiver: \"Disaggregation decode "
               "allocation policy mismatch: prefill=%s, decode=%s. Set --disaggregation-decode-allocation-policy "
               "identically on both roles.\" (sglang 0.5.22: python/sglang/srt/disaggregation/common/conn.py:"
               "2210-2229; 0.5.23: :2524-2543)",
               checks, d->release, pp, dp);
    return 1;
}

/* Each side builds its KV transfer from its own backend. */
static int backends_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                          size_t stage_size, char *text, size_t size)
{
    const char *pt = transfer_backend(p), *dt = transfer_backend(d);
    if (strcmp(pt, dt) == 0) return 0;
    str_copy(stage, stage_size, "first transfer");
    str_printf(text, size,
               "%s, but prefill sends with %s and decode receives with %s: each side builds its KV transfer from its "
               "own --disaggregation-transfer-backend (sglang 0.5.3rc2: python/sglang/srt/disaggregation/utils.py:"
               "247-300; 0.5.23: :719-800), so decode never receives prefill's KV; how the first request then fails "
               "(an error or a time-out) was not read",
               checks, pt, dt);
    return 1;
}

/* Prefill's extra entries, where the transfer fails them (ENTRIES). */
static int entries_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                         size_t stage_size, char *text, size_t size)
{
    char extra[1000];
    const struct entries_row *more = extra_entries(p, d, extra, sizeof extra);
    if (!more || !more->stage) return 0;
    str_copy(stage, stage_size, more->stage);
    str_printf(text, size, "%s, but %s", checks, extra);
    return 1;
}

/* A HiSparse decode registers its target entries in host memory and its
 * draft entries on the GPU: NIXL refuses mixed kinds when prefill has no
 * draft (sglang 0.5.15: python/sglang/srt/disaggregation/decode.py
 * kv_data_mem_kinds, nixl/conn.py:928-948; 0.5.23: :1528-1549). */
static int hisparse_draft_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                                size_t stage_size, char *text, size_t size)
{
    if (!nixl_strided(p) || !setting_on(d, "enable_hisparse") || d->kv_entries <= p->kv_entries) return 0;
    str_copy(stage, stage_size, "NIXL handshake");
    str_printf(text, size,
               "%s, but SGLang %s's NIXL handshake refuses the pair when decode registers its HiSparse host entries "
               "and draft entries prefill does not send (%u): \"NotImplementedError: NIXL PD transfer does not "
               "support HiSparse combined with decode-only speculative decoding.\" (sglang 0.5.15: "
               "python/sglang/srt/disaggregation/nixl/conn.py:928-948; 0.5.23: :1528-1549)",
               checks, p->release, d->kv_entries - p->kv_entries);
    return 1;
}

/* NIXL 0.5.15+'s item-length check of every paired entry. */
static int item_length_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                             size_t stage_size, char *text, size_t size)
{
    uint64_t len[2] = {0, 0};
    const char *which = longer_entry(p, d, len);
    if (!nixl_strided(p) || !which) return 0;
    str_copy(stage, stage_size, "NIXL handshake");
    str_printf(text, size,
               "%s, but SGLang %s's NIXL handshake refuses the pair when decode registers (%s): \"NIXL prepared dlist "
               "transfer length exceeds item stride: xfer_len=%llu, item_len=%llu\" (sglang 0.5.15: "
               "python/sglang/srt/disaggregation/nixl/conn.py:660-667)",
               checks, p->release, which, (unsigned long long)len[0], (unsigned long long)len[1]);
    return 1;
}

/* 1 when `r` gives some layers' indexer K no rows (SGLang's shared top-k layers, 0.5.18+: topk.c). */
static int indexer_elided(const kvc_resolved *r)
{
    return r->has_indexer && r->indexer_entries < r->kv_entries - 2 * r->draft_model_layers;
}

/* A prefill that keeps every layer's indexer K rows sending to a decode that gives the shared layers none: each
 * buffer is still listed, as (address 0, length 0). Before 0.5.22 the sender writes those layers to decode's address
 * 0 + page x item length, which no registered region covers: Mooncake fails the transfer (its RDMA transport's
 * ERR_ADDRESS_NOT_REGISTERED), logs "Failed to send state components of {room}", and marks decode's session dead for
 * the next requests; NIXL's transfer fails. From 0.5.22 Mooncake and Mori skip an entry either side leaves empty;
 * NIXL's generic path skips only the sender's (0.5.23's prepared state path, where it applies, both). Decode keeping
 * rows prefill does not send passes: it never reads them. (sglang 0.5.21: python/sglang/srt/disaggregation/mooncake/
 * conn.py:2322-2345; 0.5.22: mooncake/conn.py:978-1238, utils.py:988; 0.5.23: utils.py:1045-1064, nixl/conn.py:
 * 3149-3165, :692-747; mem_cache/index_key_cache.py:177-187.) */
static int indexer_rows_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                              size_t stage_size, char *text, size_t size)
{
    if (indexer_elided(p) || !indexer_elided(d)) return 0;
    int nixl = strcmp(transfer_backend(p), "nixl") == 0;
    if (release_in(p, "0.5.22", NULL) && !nixl) return 0;
    str_copy(stage, stage_size, "transfer");
    str_printf(text, size,
               "%s, but prefill (SGLang %s) keeps the DSA indexer K rows of every layer while decode (SGLang %s) "
               "gives %u of them none, listed as address 0: %s (sglang 0.5.21: python/sglang/srt/disaggregation/"
               "mooncake/conn.py:2322-2345; 0.5.23: python/sglang/srt/disaggregation/utils.py:1045-1064, "
               "nixl/conn.py:3149-3165)",
               checks, p->release, d->release, d->kv_entries - 2 * d->draft_model_layers - d->indexer_entries,
               nixl ? "NIXL's transfer to those layers fails (0.5.23's prepared state path, where decode is 0.5.23 "
                      "and both use CUDA and UCX without PP, CP or DCP, skips them), so each request fails"
                    : "the transfer writes those layers to decode's address 0 + page x its indexer page bytes, which "
                      "no registered region covers; Mooncake fails it (\"Failed to send state components of {room}\") "
                      "and marks decode's session dead, so every request fails");
    return 1;
}

/* 1 when decode is a HiSparse worker with device-only KV besides its host
 * pool: draft entries, or DeepSeek-V4's pool. */
static int hisparse_device_kv(const kvc_resolved *d)
{
    return setting_on(d, "enable_hisparse") &&
           (d->draft_entries || d->draft_model_layers || resolved_value(d, "dsv4_kv_layout")[0]);
}

/* From 0.5.22 a HiSparse decode sends those at logical device pages, which
 * only Mooncake carries (sglang 0.5.22:
 * python/sglang/srt/disaggregation/decode.py:1729-1755; 0.5.23: :1786-1812). */
static int hisparse_device_check(const kvc_resolved *p, const kvc_resolved *d, const char *checks, char *stage,
                                 size_t stage_size, char *text, size_t size)
{
    if (!release_in(d, "0.5.22", NULL) || !hisparse_device_kv(d) || strcmp(transfer_backend(d), "mooncake") == 0)
        return 0;
    (void)p;
    str_copy(stage, stage_size, "first request");
    str_printf(text, size,
               "%s, but SGLang %s's HiSparse decode, whose draft (or DeepSeek-V4) KV lives on the GPU beside its host "
               "pool, fails the first request over %s: \"NotImplementedError: HiSparse device-only PD transfer "
               "currently requires the Mooncake backend\" (sglang 0.5.22: "
               "python/sglang/srt/disaggregation/decode.py:1729-1755; 0.5.23: :1786-1812)",
               checks, d->release, pd_transfer(p, d)->name);
    return 1;
}

int pd_bootstrap(const kvc_resolved *p, const kvc_resolved *d, char *stage, size_t stage_size, char *text,
                 size_t size)
{
    static const pair_check LATER[] = {policy_check,       backends_check,        entries_check,
                                       hisparse_draft_check, item_length_check,   hisparse_device_check,
                                       indexer_rows_check};
    char checks[300];
    str_copy(stage, stage_size, "");
    if (info_check(p, d, text, size) || bootstrap_check(p, d, checks, sizeof checks, text, size)) {
        str_copy(stage, stage_size, "bootstrap");
        return 1;
    }
    for (size_t i = 0; i < COUNT_OF(LATER); i++)
        if (LATER[i](p, d, checks, stage, stage_size, text, size)) return 1;
    /* nothing refuses the pair before its KV moves: what the transfer checks, where prefill's extra entries go,
     * then the checks of each request's state and digest */
    int nixl = strcmp(transfer_backend(p), "nixl") == 0;
    if (nixl_strided(p))
        str_printf(text, size, "%s; SGLang %s's NIXL handshake refuses only a prefill item length longer than "
                   "decode's (%llu <= %llu): it passes", checks, p->release, (unsigned long long)p->kv.page_bytes,
                   (unsigned long long)d->kv.page_bytes);
    else
        str_printf(text, size, "%s; the %s transfer compares no item lengths", checks, pd_transfer(p, d)->name);
    char extra[1000];
    size_t n = strlen(text);
    if (extra_entries(p, d, extra, sizeof extra) && n < size) str_printf(text + n, size - n, "; %s", extra);
    n = strlen(text);
    if (release_in(d, NULL, "0.5.21") && hisparse_device_kv(d) && n < size) /* tools/sglang-oracle/HISPARSE_PD.md §6 */
        str_printf(text + n, size - n, "; before 0.5.22 a HiSparse decode's draft entries are sent at its host page "
                   "indices (logical device pages from sglang 0.5.22: python/sglang/srt/disaggregation/decode.py:"
                   "1729-1755), so whether its draft KV lands on the right pages was not determined");
    return state_check(p, d, nixl, stage, stage_size, text, size) ||
           checksum_check(p, d, stage, stage_size, text, size);
}

/* The releases this file's code tests by version, as spans (pd_spans). */
static const span VERSION_TESTS[] = {SINCE("0.5.15"), SINCE("0.5.18")};

size_t pd_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(BOOT, ((span){BOOT[i].since, BOOT[i].until}));
    SPAN_EACH(ENTRIES, ((span){ENTRIES[i].since, ENTRIES[i].until}));
    SPAN_EACH(STATE_CATCH, ((span){STATE_CATCH[i].since, NULL}));
    SPAN_EACH(CHECKSUM, ((span){CHECKSUM[i].since, CHECKSUM[i].until}));
    SPAN_EACH(INFO, ((span){INFO[i].since, INFO[i].until}));
    SPAN_EACH(VERSION_TESTS, VERSION_TESTS[i]);
    return n;
}

