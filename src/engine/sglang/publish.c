/* SGLang's check of the runtime-load publisher (check_load_publish_args,
 * 0.5.19+), the last of check_server_args' checks: sglang 0.5.19:
 * python/sglang/srt/arg_groups/validation_hook.py:229 (called), :281-320;
 * 0.5.23: :381, :435-474.
 *
 * mode = (--load-publish-endpoint or "").strip(); empty or "off" (any case)
 * checks nothing. Then, all ValueError: no --kv-events-config (G1); the
 * config not taken by pydantic's KVEventsConfig.model_validate_json (G2);
 * publisher "null" or an empty endpoint (G3); the reason of
 * resolve_load_pub_range (G4: sglang 0.5.19: python/sglang/srt/disaggregation/
 * kv_events.py:139-229, identical to 0.5.23's :140-230), which parses
 * tcp:// endpoints with NetworkAddress.parse (python/sglang/srt/utils/
 * network.py, 0.5.19: :427-555; 0.5.23: :517-645, the same code) and so with
 * Python's ipaddress.IPv6Address (modelled as CPython 3.11's, the oracle's).
 * The DP size it reads is --dp-size up to 0.5.21, num_dp_ranks_of (dp_size x
 * attn_dp_size, sglang 0.5.22: python/sglang/srt/runtime_context.py:202) from
 * 0.5.22. No socket is opened: flags alone decide.
 *
 * What kvcheck does not model, and declines: G2's refusal itself (pydantic's
 * ValidationError text depends on the installed pydantic), so a
 * --kv-events-config is judged only where kvcheck can show pydantic takes it
 * (kv_config); G4 on text kvcheck does not read exactly (a non-ASCII
 * --load-publish-endpoint, whose int() and repr() are Unicode's; an endpoint
 * past 511 characters or not ASCII; a DP size past 300 digits), or whose
 * reason would repr a text longer than py_repr writes whole (200 bytes). */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ KVEventsConfig */

/* How pydantic (lax mode, from JSON) takes a field; kvcheck accepts only the plain JSON types of each. */
enum kv_type {
    KV_STR,      /* str: a JSON string */
    KV_OPT_STR,  /* Optional[str]: a string or null */
    KV_OPT_BOOL, /* Optional[bool]: true, false or null */
    KV_INT,      /* int: a JSON integer (kvcheck: of at most 18 digits) */
    KV_FORMAT,   /* Literal["default", "dynamo"] */
};
/* KVEventsConfig's fields (a plain BaseModel: unknown keys are ignored), sglang 0.5.3rc2:
 * python/sglang/srt/disaggregation/kv_events.py:347-384; 0.5.19: :586-623; 0.5.22: :684-732; 0.5.23: :684-732 */
static const struct kv_field {
    const char *name;
    enum kv_type type;
    span when;
} KV_FIELDS[] = {
    {"publisher", KV_STR, EVER},           {"endpoint", KV_STR, EVER},
    {"bind", KV_OPT_BOOL, SINCE("0.5.22")}, {"replay_endpoint", KV_OPT_STR, EVER},
    {"buffer_steps", KV_INT, EVER},        {"hwm", KV_INT, EVER},
    {"max_queue_size", KV_INT, EVER},      {"topic", KV_STR, EVER},
    {"format", KV_FORMAT, SINCE("0.5.22")},
};

enum { ENDPOINT_MAX = sizeof(((pyjson_member *)0)->text) - 1 }; /* what pyjson_member keeps of a str */

/* A string member as kvcheck reads it: its text exact only when ASCII and whole. */
typedef struct kv_str {
    int given;  /* a string (not null) was given */
    int exact;  /* text is the whole str: not cut, ASCII only (pyjson_member keeps NUL as 0x7F too) */
    size_t len; /* in code points */
    char text[ENDPOINT_MAX + 1];
} kv_str;

/* --kv-events-config as KVEventsConfig would hold it. */
typedef struct kv_read {
    unsigned rel;
    int taken; /* kvcheck can show pydantic takes it (its other fields are then moot) */
    unsigned seen; /* the fields given, a bit each: a field given twice is declined */
    kv_str publisher, endpoint, replay;
} kv_read;

/* 1 when a JSON integer's text (as written) has at most 18 digits: an int pydantic takes in any release */
static int small_int(const pyjson_member *m) { return m->kind == PY_INT && m->len - (m->text[0] == '-') <= 18; }

static void keep_str(kv_str *s, const pyjson_member *m)
{
    s->given = m->kind == PY_STR;
    s->len = m->len;
    str_copy(s->text, sizeof s->text, m->text);
    /* text holds a code point past ASCII as 0x7F and is cut at 511: only an ASCII str of that length is exact */
    s->exact = s->given && strlen(m->text) == m->len && !strchr(m->text, 0x7F);
}

/* pyjson_loads' visitor: each member of the top-level object, in order */
static void kv_member(void *arg, const pyjson_member *m)
{
    kv_read *r = arg;
    for (size_t i = 0; i < COUNT_OF(KV_FIELDS); i++) {
        const struct kv_field *f = &KV_FIELDS[i];
        if (!in_span(r->rel, f->when) || strcmp(m->key, f->name) != 0) continue;
        /* a key given twice: pydantic-core/jiter keep the last value (so does the oracle's pydantic 2.14), but no
           document of pydantic's says so for every release: declined */
        if (r->seen & 1u << i) r->taken = 0;
        r->seen |= 1u << i;
        int ok = f->type == KV_STR        ? m->kind == PY_STR
                 : f->type == KV_OPT_STR  ? m->kind == PY_STR || m->kind == PY_NONE
                 : f->type == KV_OPT_BOOL ? m->kind == PY_TRUE || m->kind == PY_FALSE || m->kind == PY_NONE
                 : f->type == KV_INT      ? small_int(m)
                                          : m->kind == PY_STR && strlen(m->text) == m->len &&
                                       (!strcmp(m->text, "default") || !strcmp(m->text, "dynamo"));
        if (!ok) r->taken = 0;
        if (!strcmp(f->name, "publisher")) keep_str(&r->publisher, m);
        if (!strcmp(f->name, "endpoint")) keep_str(&r->endpoint, m);
        if (!strcmp(f->name, "replay_endpoint")) keep_str(&r->replay, m);
        return;
    }
    /* an unknown key (a key past ASCII holds 0x7F, a cut one is longer than any field: neither is a field's):
       pydantic ignores it, but jiter still parses its value. Scalars parse alike; containers are declined (jiter
       stops nesting far sooner than json.loads), as are integers past 18 digits and numbers kvcheck has cut. */
    int ok = m->kind == PY_STR || m->kind == PY_NONE || m->kind == PY_TRUE || m->kind == PY_FALSE ||
             (m->kind == PY_INT && small_int(m)) || (m->kind == PY_FLOAT && m->len < 64);
    if (!ok) r->taken = 0;
}

/* `value` as KVEventsConfig.model_validate_json takes it, where kvcheck can show that it does: a JSON object whose
 * fields have the plain types above. Read with pyjson_loads' orjson rules, which are json.loads' less NaN, Infinity,
 * lone surrogates (and bytes not UTF-8) and infinite numbers: exactly what pydantic's parser may read otherwise.
 * Pure. */
static void kv_config(const char *value, unsigned rel, kv_read *r)
{
    memset(r, 0, sizeof *r);
    r->rel = rel;
    r->taken = 1;
    r->publisher = (kv_str){1, 1, 4, "null"}; /* the defaults */
    r->endpoint = (kv_str){1, 1, 12, "tcp://*:5557"};
    strbuf err = {0};
    py_kind top;
    if (!pyjson_loads(value, 1, &top, kv_member, r, &err) || top != PY_DICT) r->taken = 0;
    free(err.p);
}

/* ------------------------------------------------ NetworkAddress.parse */

/* A byte slice. */
typedef struct slice {
    const char *p;
    size_t n;
} slice;

static int has(slice s, char c) { return memchr(s.p, c, s.n) != NULL; }
static int is(slice s, const char *w) { return s.n == strlen(w) && memcmp(s.p, w, s.n) == 0; }

/* _parse_port: Python's int() of ASCII text (py_int) within 0..65535; -1 where it raises. Pure. */
static long port_of(slice s)
{
    char text[SETTING_VALUE_LEN], num[SETTING_VALUE_LEN + 2];
    if (s.n >= sizeof text) return -1;
    memcpy(text, s.p, s.n);
    text[s.n] = '\0';
    if (!py_int(text, num, sizeof num) || int_cmp(num, "0") < 0 || int_cmp(num, "65535") > 0) return -1;
    return strtol(num, NULL, 10);
}

/* NetworkAddress.parse(addr): 1 with *host (without brackets) and *port, 0 where it raises ValueError. `addr` is
 * ASCII (its callers decline other text). Pure. */
static int parse_address(slice a, slice *host, long *port)
{
    if (!a.n) return 0;
    if (a.p[0] == '[') {
        const char *close = memchr(a.p, ']', a.n);
        if (!close) return 0;
        *host = (slice){a.p + 1, (size_t)(close - a.p - 1)};
        if (!py_ipv6(host->p, host->n)) return 0;
        slice rest = {close + 1, a.n - (size_t)(close + 1 - a.p)};
        if (rest.n < 2 || rest.p[0] != ':') return 0;
        return (*port = port_of((slice){rest.p + 1, rest.n - 1})) >= 0;
    }
    size_t colon = a.n;
    while (colon > 0 && a.p[colon - 1] != ':') colon--;
    if (!colon) return 0; /* no ':' */
    *host = (slice){a.p, colon - 1};
    if (!host->n) return 0;
    if (has(*host, ':') && py_ipv6(host->p, host->n)) return 0; /* bare IPv6 */
    /* a plain host never starts with '[', so NetworkAddress's bracket strip leaves it */
    return (*port = port_of((slice){a.p + colon, a.n - colon})) >= 0;
}

/* parse_tcp_port (any host) and parse_bindable_tcp (host *, 0.0.0.0 or ::): the port 1..65535, or 0 for None.
 * `ep` NULL is None. Pure. */
static long tcp_port(const char *ep, int bindable)
{
    if (!ep || strncmp(ep, "tcp://", 6) != 0) return 0;
    slice host;
    long port;
    if (!parse_address((slice){ep + 6, strlen(ep + 6)}, &host, &port) || port < 1) return 0;
    if (bindable && !is(host, "*") && !is(host, "0.0.0.0") && !is(host, "::")) return 0;
    return port;
}

/* ------------------------------------------------ resolve_load_pub_range */

enum range_verdict {
    RANGE_OK,        /* a range, or none (dp < 1): no reason */
    RANGE_AUTO,      /* auto: the kv endpoint is not bindable */
    RANGE_ROUTABLE,  /* an address: the kv endpoint has no tcp port */
    RANGE_BINDABLE,  /* an address that is not bindable */
    RANGE_OVERLAP,   /* an address whose range overlaps the kv or replay range */
    RANGE_CEILING,   /* the range runs past 65535 */
};
typedef struct range_result {
    enum range_verdict v;
    long base;   /* the base port; with base_dp, base + dp (auto) */
    int base_dp;
    long port;   /* RANGE_OVERLAP: the kv-events port it overlaps */
} range_result;

/* 1 for Python's `s.lower() == w` (w lower-case ASCII letters). Past ASCII only U+212A KELVIN SIGN lowers to ASCII
 * text ("k"; checked over every code point with CPython 3.11), so ASCII lowering decides "off" and "auto": a text
 * that holds any other byte never lowers to either. */
static int lower_is(const char *s, const char *w)
{
    size_t n = strlen(w);
    if (strlen(s) != n) return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80 || (char)tolower((unsigned char)s[i]) != w[i]) return 0;
    return 1;
}

/* resolve_load_pub_range's reason for mode (stripped, not empty, not off), the kv endpoint (ASCII, not empty), the
 * replay endpoint (NULL: None) and a DP size of `dp` as Python's int (decimal, signed). Python's ints: a DP size of
 * 8 digits or more decides every comparison as 10^7 does (ports are below 65536 and bases below 2^17), and the
 * message's numbers add the exact size (range_fields). Pure. */
static range_result resolve_range(const char *mode, const char *kv, const char *replay, const char *dp)
{
    range_result r = {RANGE_OK, 0, 0, 0};
    if (dp[0] == '-' || !strcmp(dp, "0")) return r; /* dp_size < 1 */
    long long d = strlen(dp) > 7 ? 10000000LL : strtoll(dp, NULL, 10);
    long long base;
    if (lower_is(mode, "auto")) {
        long kv_base = tcp_port(kv, 1);
        if (!kv_base) {
            r.v = RANGE_AUTO;
            return r;
        }
        base = kv_base + d, r.base = kv_base, r.base_dp = 1;
        long replay_base = tcp_port(replay, 0);
        if (replay_base && base < replay_base + d && replay_base < base + d)
            base = replay_base + d, r.base = replay_base; /* packed after the replay range */
    } else {
        if (!tcp_port(kv, 0)) {
            r.v = RANGE_ROUTABLE;
            return r;
        }
        base = r.base = tcp_port(mode, 1);
        if (!base) {
            r.v = RANGE_BINDABLE;
            return r;
        }
        const long ports[] = {tcp_port(kv, 0), tcp_port(replay, 0)};
        for (size_t i = 0; i < COUNT_OF(ports); i++)
            if (ports[i] && base < ports[i] + d && ports[i] < base + d) {
                r.v = RANGE_OVERLAP, r.port = ports[i];
                return r;
            }
    }
    if (base + d - 1 > 65535) r.v = RANGE_CEILING;
    return r;
}

/* ------------------------------------------------------------ the view */

enum { DP_DIGITS = 300 }; /* past it kvcheck declines: Python's str() of an int stops at 4300 digits */

/* What check_load_publish_args reads of the worker. */
typedef struct publish_view {
    char mode[SETTING_VALUE_LEN]; /* --load-publish-endpoint stripped */
    int on;                       /* mode not empty, not off */
    int ascii;                    /* mode is ASCII */
    int config;                   /* --kv-events-config given and not empty */
    kv_read kv;
    char dp[DP_DIGITS + 2]; /* the DP size, as Python's int; "" past DP_DIGITS digits */
} publish_view;

/* the DP size as Python's int text ("1" unless given) */

static void view_of(const ctx *c, publish_view *v)
{
    const setting *p = &c->set->s[SET_LOAD_PUBLISH];
    size_t begin = 0, end = 0;
    if (p->set) py_strip(p->value, &begin, &end);
    memcpy(v->mode, p->value + begin, end - begin);
    v->mode[end - begin] = '\0';
    v->on = v->mode[0] && !lower_is(v->mode, "off");
    v->ascii = 1;
    for (const char *q = v->mode; *q; q++)
        if ((unsigned char)*q >= 0x80) v->ascii = 0;
    const setting *k = &c->set->s[SET_KV_EVENTS];
    v->config = k->set && k->value[0];
    kv_config(v->config ? k->value : "", c->rel, &v->kv);
    /* the DP size resolve_load_pub_range gets, as exact ints: --dp-size up to 0.5.21, num_dp_ranks_of (dp_size x
       attn_dp_size) from 0.5.22, which is the same product of settings_attn_dp_text's two (sglang 0.5.19:
       python/sglang/srt/arg_groups/validation_hook.py:316; 0.5.22: :469; 0.5.23: :470) */
    const char *adp, *dp;
    settings_attn_dp_text(c->set, &adp, &dp);
    if (!int_mul(dp, adp, v->dp, sizeof v->dp) || strlen(v->dp) > DP_DIGITS) v->dp[0] = '\0';
}

/* The text resolve_load_pub_range gets, where kvcheck reads it exactly. */
static int range_readable(const publish_view *v)
{
    return v->ascii && v->kv.endpoint.exact && (!v->kv.replay.given || v->kv.replay.exact) && v->dp[0];
}
static range_result range_of(const publish_view *v)
{
    return resolve_range(v->mode, v->kv.endpoint.text, v->kv.replay.given ? v->kv.replay.text : NULL, v->dp);
}
/* 1 when the reason reprs a text py_repr cuts (past 200 bytes, argparse.c), where Python writes it whole */
static int repr_cut(const publish_view *v)
{
    enum { PY_REPR_CUT = 200 };
    enum range_verdict r = range_of(v).v;
    return ((r == RANGE_AUTO || r == RANGE_ROUTABLE) && strlen(v->kv.endpoint.text) > PY_REPR_CUT) ||
           ((r == RANGE_ROUTABLE || r == RANGE_BINDABLE) && strlen(v->mode) > PY_REPR_CUT);
}

/* ------------------------------------------------------------ the rows */

/* the rows' stages: the config (G1, G2) under one decline's words, the range (G3, G4) under another's */
enum { CONFIG, RANGE };

static int p_no_config(const ctx *c)
{
    const publish_view *v = c->view.publish;
    return v->on && !v->config;
}
static int p_unvalidated(const ctx *c)
{
    const publish_view *v = c->view.publish;
    return v->on && v->config && !v->kv.taken;
}
/* publisher == "null" (its default when not given) or an empty endpoint */
static int p_inactive(const ctx *c)
{
    const publish_view *v = c->view.publish;
    const kv_str *pub = &v->kv.publisher;
    return v->on && ((pub->len == 4 && !strcmp(pub->text, "null")) || v->kv.endpoint.len == 0);
}
static int p_unreadable(const ctx *c)
{
    const publish_view *v = c->view.publish;
    return v->on && (!range_readable(v) || repr_cut(v));
}
static int range_is(const ctx *c, enum range_verdict want)
{
    const publish_view *v = c->view.publish;
    return v->on && range_readable(v) && !repr_cut(v) && range_of(v).v == want;
}
static int p_auto(const ctx *c) { return range_is(c, RANGE_AUTO); }
static int p_routable(const ctx *c) { return range_is(c, RANGE_ROUTABLE); }
static int p_bindable(const ctx *c) { return range_is(c, RANGE_BINDABLE); }
static int p_overlap(const ctx *c) { return range_is(c, RANGE_OVERLAP); }
static int p_ceiling(const ctx *c) { return range_is(c, RANGE_CEILING); }

/* {mode}, {kv}: repr() of the stripped mode and of the kv endpoint; {base}, {base_end}, {port}, {port_end}: the
 * ranges' bounds, as Python's ints */
static void range_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    const publish_view *v = c->view.publish;
    if (!v->on || !range_readable(v)) return;
    range_result res = range_of(v);
    strbuf sb = {0};
    py_repr(&sb, v->mode);
    rule_field(f, "mode", "%s", sb.p ? sb.p : "");
    free(sb_take(&sb));
    py_repr(&sb, v->kv.endpoint.text);
    rule_field(f, "kv", "%s", sb.p ? sb.p : "");
    free(sb_take(&sb));
    char base[24], port[24], text[DP_DIGITS + 8];
    snprintf(base, sizeof base, "%ld", res.base);
    snprintf(port, sizeof port, "%ld", res.port);
    int_add(base, v->dp, text, sizeof text);
    rule_field(f, "base", "%s", res.base_dp ? text : base); /* auto's base is the kv or replay port + the DP size */
    rule_field(f, "base_end", "%s", text);
    rule_field(f, "port", "%s", port);
    int_add(port, v->dp, text, sizeof text);
    rule_field(f, "port_end", "%s", text);
}

#define VH "sglang 0.5.19: python/sglang/srt/arg_groups/validation_hook.py:"
/* resolve_load_pub_range's line for 0.5.19 (`a`) and 0.5.23 (`b`), raised by validation_hook.py:320 / :474 */
#define KV_CITE(a, b)                                                                                                  \
    "sglang 0.5.19: python/sglang/srt/disaggregation/kv_events.py:" a ", arg_groups/validation_hook.py:320; 0.5.23: "  \
    ":" b ", :474"

static const flag_rule RULES[] = {
    {SINCE("0.5.19"), CONFIG, p_no_config, SET_LOAD_PUBLISH,
     "ValueError: --load-publish-endpoint requires --kv-events-config: routers discover the load range through "
     "/server_info's kv_events block, absent without a publisher.",
     VH "299; 0.5.23: :453"},
    /* G2: pydantic's ValidationError, whose text kvcheck does not know */
    {SINCE("0.5.19"), CONFIG, p_unvalidated, SET_KV_EVENTS, NULL, VH "304-307; 0.5.23: :458-461"},
    {SINCE("0.5.19"), RANGE, p_inactive, SET_KV_EVENTS,
     "ValueError: --load-publish-endpoint needs an active --kv-events-config publisher; got publisher='null' or an "
     "empty endpoint.",
     VH "309; 0.5.23: :463"},
    {SINCE("0.5.19"), RANGE, p_unreadable, SET_LOAD_PUBLISH, NULL, VH "313-320; 0.5.23: :467-474"},
    /* the `--kv-events-config is not set` and `without --kv-events-config` variants are unreachable: the endpoint
       is a str (pydantic), so never None */
    {SINCE("0.5.19"), RANGE, p_auto, SET_LOAD_PUBLISH,
     "ValueError: --load-publish-endpoint=auto needs a bindable wildcard-host tcp:// --kv-events-config endpoint to "
     "pack after; {kv} is not one",
     KV_CITE("175-186", "176-187")},
    {SINCE("0.5.19"), RANGE, p_routable, SET_LOAD_PUBLISH,
     "ValueError: --load-publish-endpoint={mode} needs a routable tcp:// --kv-events-config endpoint: routers "
     "discover the load range through /server_info's kv_events block, absent for endpoint {kv}, so the socket would "
     "be bound but never advertised",
     KV_CITE("202-213", "203-214")},
    {SINCE("0.5.19"), RANGE, p_bindable, SET_LOAD_PUBLISH,
     "ValueError: --load-publish-endpoint={mode} is not a bindable tcp:// address (a concrete host would be "
     "connected to, not bound)",
     KV_CITE("214-219", "215-220")},
    {SINCE("0.5.19"), RANGE, p_overlap, SET_LOAD_PUBLISH,
     "ValueError: --load-publish-endpoint range [{base}, {base_end}) overlaps the kv-events range [{port}, "
     "{port_end})",
     KV_CITE("221-226", "222-227")},
    {SINCE("0.5.19"), RANGE, p_ceiling, SET_LOAD_PUBLISH,
     "ValueError: load port range from {base} would run past the u16 ceiling", KV_CITE("227-228", "228-229")},
};

/* The scheduler reads --kv-events-config when it starts, whatever --load-publish-endpoint says:
 * KVEventsConfig.from_cli, then the publisher by its name, "null" or "zmq" (sglang 0.5.3rc2:
 * python/sglang/srt/managers/scheduler.py:303, :607, disaggregation/kv_events.py:382-384, :400-411; 0.5.23:
 * managers/scheduler_components/kv_events_publisher.py:64, disaggregation/kv_events.py:730-732, :754-767). That is
 * past the checks kvcheck models (the model is loaded by then), so what would fail there is a warning. */
static void scheduler_warning(const ctx *c, const publish_view *v)
{
    const setting *k = &c->set->s[SET_KV_EVENTS];
    if (!v->config || c->set->s[SET_PAGE_SIZE].reported) return;
    const kv_str *pub = &v->kv.publisher;
    if (!v->kv.taken)
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s: SGLang %s's scheduler reads it as a "
                  "KVEventsConfig when it starts (disaggregation/kv_events.py, from_cli); kvcheck cannot show that "
                  "pydantic takes this value (a JSON object whose fields have their types), so the worker may fail "
                  "to start there", k->flag, SGLANG_VERSIONS[c->rel]);
    else if (!(pub->exact && (!strcmp(pub->text, "null") || !strcmp(pub->text, "zmq"))))
        notes_add(c->out->warnings, &c->out->nwarnings, KVC_MAX_NOTES, "%s: SGLang %s's scheduler starts only the "
                  "\"null\" and \"zmq\" event publishers (EventPublisherFactory.create: \"ValueError: Unknown event "
                  "publisher ...\"), so the worker fails to start there once its model is loaded", k->flag,
                  SGLANG_VERSIONS[c->rel]);
}

kvc_status publish_check(const ctx *c)
{
    static const rule_hooks config = {
        "KVEventsConfig's pydantic validation of --kv-events-config (its error text depends on the installed "
        "pydantic), on a value kvcheck cannot show it takes",
        NULL, NULL};
    static const rule_hooks range = {
        "resolve_load_pub_range on text kvcheck does not read exactly (a --load-publish-endpoint past ASCII, a "
        "--kv-events-config endpoint past ASCII or 511 characters, a DP size past 300 digits) or whose repr() in its "
        "reason kvcheck would cut (past 200 characters)",
        range_fields, NULL};
    publish_view v;
    view_of(c, &v);
    ctx with = *c;
    with.view.publish = &v;
    kvc_status st = rules_table(&with, RULES, COUNT_OF(RULES), CONFIG, &config);
    if (!st) st = rules_table(&with, RULES, COUNT_OF(RULES), RANGE, &range);
    if (!st) scheduler_warning(c, &v); /* the worker gets that far */
    return st;
}

size_t publish_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    SPAN_EACH(KV_FIELDS, KV_FIELDS[i].when);
    return n;
}
