/* --dist-init-addr and --nccl-port as SGLang reads them when the engine
 * starts, after check_server_args: PortArgs.init_new parses the address on
 * the attention-DP branch (up to 0.5.21 enable_dp_attention, from 0.5.22 an
 * attention DP size above 1), unless one node runs without one, and waits
 * for its ports; from 0.5.10 every scheduler parses a non-empty address for
 * torch.distributed (NetworkAddress.parse) unless
 * SGLANG_DISTRIBUTED_INIT_METHOD_OVERRIDE is set, and before that torch parses
 * "tcp://" + the address. The parse is a function of the text, and kvcheck
 * repeats it; whether the ports are free is the host's (a wait of 3 or 30
 * seconds), which kvcheck does not judge. Ports outside 0-65535 are declined
 * where the release has no range check of its own (before 0.5.13: a bind that
 * fails, or a crash in wait_port_available). */
#include "engine/sglang/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_ARGS_LEGACY                                                                                               \
    "sglang 0.5.3rc2: python/sglang/srt/server_args.py:3232-3246, python/sglang/srt/utils/common.py:2127-2156; "     \
    "0.5.9: python/sglang/srt/server_args.py:5650-5664, python/sglang/srt/utils/common.py:709-748"
#define PARSE_CITE                                                                                                     \
    "sglang 0.5.10: python/sglang/srt/server_args.py:6598-6602, python/sglang/srt/utils/network.py:405-412, "        \
    ":474-519; 0.5.23: python/sglang/srt/server_args.py:819-826, python/sglang/srt/utils/network.py:517-538, "       \
    ":600-645"
#define SCHEDULER_CITE                                                                                                 \
    "the scheduler's torch.distributed set-up: sglang 0.5.10: python/sglang/srt/model_executor/model_runner.py:"     \
    "921-926; 0.5.23: python/sglang/srt/distributed/bootstrap.py:236-243"

/* A port's text (Python's int) within 0..65535 - `above`. */
static int port_in_range(const char *port, long above)
{
    if (port[0] == '-' || strlen(port) > 6) return 0;
    return strtol(port, NULL, 10) + above <= 65535;
}

/* SGLang's message `what` and Python's repr of `text`, into `msg`; NULL. */
static const char *fail(strbuf *msg, const char *what, const char *text)
{
    sb_puts(msg, what);
    py_repr(msg, text);
    return NULL;
}

/* int()'s ValueError for `text`, into `msg`; NULL. */
static const char *int_literal(strbuf *msg, const char *text)
{
    return fail(msg, "ValueError: invalid literal for int() with base 10: ", text);
}

/* `s` is SGLang's _parse_port's port, or NULL with its message in `msg`. */
static const char *parse_port(const char *s, char *port, size_t size, strbuf *msg)
{
    if (!py_int(s, port, size)) return fail(msg, "ValueError: Invalid port number: ", s);
    if (!port_in_range(port, 0)) {
        sb_printf(msg, "ValueError: Port out of range (0-65535): %s", port);
        return NULL;
    }
    return port;
}

/* NetworkAddress.parse (0.5.10+; `addr` NULL for None): the port, or NULL with SGLang's message in `msg`. */
static const char *network_parse(const char *addr, char *port, size_t size, strbuf *msg)
{
    if (!addr || !addr[0]) {
        sb_puts(msg, "ValueError: Empty address string");
        return NULL;
    }
    if (addr[0] == '[') {
        const char *close = strchr(addr, ']');
        if (!close) return fail(msg, "ValueError: Missing closing bracket in IPv6 address: ", addr);
        if (!py_ipv6(addr + 1, (size_t)(close - addr - 1))) {
            char *host = strndup(addr + 1, (size_t)(close - addr - 1));
            sb_puts(msg, "ValueError: Invalid IPv6 address inside brackets: ");
            py_repr(msg, host ? host : "");
            free(host);
            return NULL;
        }
        if (close[1] != ':' || !close[2])
            return fail(msg, "ValueError: Expected ':port' after closing bracket, got: ", close + 1);
        return parse_port(close + 2, port, size, msg);
    }
    const char *colon = strrchr(addr, ':');
    if (!colon) return fail(msg, "ValueError: Missing port in address (expected host:port): ", addr);
    if (colon == addr) return fail(msg, "ValueError: Empty host in address: ", addr);
    size_t host = (size_t)(colon - addr);
    if (memchr(addr, ':', host) && py_ipv6(addr, host)) {
        fail(msg, "ValueError: Bare IPv6 address without brackets is ambiguous: ", addr);
        sb_printf(msg, ". Use [%.*s]:%s instead.", (int)host, addr, colon + 1);
        return NULL;
    }
    return parse_port(colon + 1, port, size, msg);
}

/* PortArgs' parse up to 0.5.9 (configure_ipv6, str.split, int()): the port, or NULL with SGLang's message. */
static const char *legacy_parse(const char *addr, char *port, size_t size, strbuf *msg)
{
    if (!addr) {
        sb_puts(msg, "AttributeError: 'NoneType' object has no attribute 'startswith'");
        return NULL;
    }
    if (addr[0] == '[') {
        const char *end = strchr(addr, ']');
        if (!end) {
            sb_puts(msg, "ValueError: invalid IPv6 address format: missing ']'");
            return NULL;
        }
        if (!py_ipv6(addr + 1, (size_t)(end - addr - 1))) {
            sb_printf(msg, "ValueError: invalid IPv6 address: %.*s", (int)(end - addr + 1), addr);
            return NULL;
        }
        if (end[1] && end[1] != ':') {
            sb_puts(msg, "ValueError: received IPv6 address format: expected ':' after ']'");
            return NULL;
        }
        const char *p = end[1] ? end + 2 : "";
        if (!p[0]) {
            sb_puts(msg, "ValueError: a port must be specified in IPv6 address (format: [ipv6]:port)");
            return NULL;
        }
        if (!py_int(p, port, size)) {
            sb_printf(msg, "ValueError: invalid port in IPv6 address: '%s'", p);
            return NULL;
        }
        return port;
    }
    const char *colon = strchr(addr, ':');
    if (!colon || strchr(colon + 1, ':')) {
        sb_puts(msg, "AssertionError: please provide --dist-init-addr as host:port of head node");
        return NULL;
    }
    return py_int(colon + 1, port, size) ? port : int_literal(msg, colon + 1);
}

/* The release's parse of the address: NetworkAddress.parse from 0.5.10 (`modern`), PortArgs' own before. */
static const char *parse_address(int modern, const char *addr, char *port, size_t size, strbuf *msg)
{
    return modern ? network_parse(addr, port, size, msg) : legacy_parse(addr, port, size, msg);
}

/* SGLANG_WAIT_PORT_TIMEOUT (0.5.16+), which the first of PortArgs' port waits reads with int(): refused when int()
 * refuses it, or when it is not positive, which makes that wait fail at once: the address's port (`port`: given, or
 * derived from --port), or with the override (0.5.17+) port_base after it, which kvcheck declines. */
static kvc_status wait_timeout(const ctx *c, const char *port, int overridden)
{
    const setting *t = &c->set->s[SET_WAIT_PORT_TIMEOUT_ENV];
    char seconds[SETTING_VALUE_LEN];
    static const char CITE[] = "(PortArgs.init_new's first port wait, when the engine starts: sglang 0.5.16: python/"
                               "sglang/srt/utils/network.py:64-90; 0.5.23: :64-105)";
    if (!t->set || !rel_since(c->rel, "0.5.16")) return KVC_OK;
    if (!py_int(t->value, seconds, sizeof seconds)) {
        strbuf msg = {0};
        int_literal(&msg, t->value);
        kvc_status st = rules_refuse(c, t, "%s %s", msg.p ? msg.p : "", CITE);
        free(msg.p);
        return st;
    }
    if (seconds[0] != '-' && strcmp(seconds, "0") != 0) return KVC_OK;
    if (overridden && rel_since(c->rel, "0.5.17"))
        return diag_set(c->diag, KVC_ERR_CONFIG, &t->origin, "SGLANG_WAIT_PORT_TIMEOUT=%s: SGLang's first port wait "
                        "fails at once, on port_base, which kvcheck does not derive under the override, so it cannot "
                        "judge this worker", t->value);
    return rules_refuse(c, t, "ValueError: dist_init_port at %s is not available in %s seconds. dist_init_port at %s "
                        "is not available %s", port, seconds, port, CITE);
}

static kvc_status decline(const ctx *c, const setting *s, const char *why)
{
    return diag_set(c->diag, KVC_ERR_CONFIG, s->set ? &s->origin : NULL, "%s %s: %s, which kvcheck does not model, so "
                    "it cannot judge this worker", s->flag, s->value, why);
}

kvc_status address_check(const ctx *c)
{
    if (c->set->s[SET_PAGE_SIZE].reported) return KVC_OK; /* a running server's: it started */
    const setting *a = &c->set->s[SET_DIST_INIT_ADDR], *nccl = &c->set->s[SET_NCCL_PORT];
    const setting *override = &c->set->s[SET_DIST_INIT_OVERRIDE_ENV];
    int overridden = override->set && override->value[0];
    int dp_attention = rules_attention_dp(c) > 1, modern = rel_since(c->rel, "0.5.10");
    const char *addr = a->set ? a->value : NULL;
    char port[SETTING_VALUE_LEN];
    strbuf msg = {0};
    kvc_status st = KVC_OK;
    if (c->cp.enabled && rel_until(c->rel, "0.5.21") && !dp_attention && (a->set || nccl->set))
        /* prefill CP turns enable_dp_attention on in some of these releases */
        return decline(c, a->set ? a : nccl, "with prefill context parallelism, whether SGLang's PortArgs takes the "
                       "attention-DP branch that parses the address and waits for its ports");
    if (dp_attention && !a->set && settings_size(c->set, SET_NNODES) == 1 && rel_since(c->rel, "0.5.16")) {
        /* one node: 127.0.0.1 and --port + 233, or - 233 past 65535 (sglang 0.5.13: python/sglang/srt/
         * server_args.py:8079-8083; 0.5.23: :817-822) */
        const setting *api = &c->set->s[SET_PORT];
        long base = api->set ? strtol(api->value, NULL, 10) : 30000;
        snprintf(port, sizeof port, "%ld", base + 233 > 65535 ? base - 233 : base + 233);
        st = wait_timeout(c, port, overridden);
    } else if (dp_attention && (a->set || settings_size(c->set, SET_NNODES) != 1)) {
        const char *p = parse_address(modern, addr, port, sizeof port, &msg);
        if (!p) {
            st = rules_refuse(c, a->set ? a : &c->set->s[SET_NNODES], "%s (PortArgs.init_new, on the attention-DP "
                              "branch, when the engine starts: %s)", msg.p ? msg.p : "", modern ? PARSE_CITE :
                              PORT_ARGS_LEGACY);
        } else if (!rel_since(c->rel, "0.5.13") && !port_in_range(p, 5)) {
            st = decline(c, a, "SGLang binds or waits for this port and the five after it, with no range check "
                         "before 0.5.13 (a failed bind, or a crash in wait_port_available)");
        } else {
            st = wait_timeout(c, p, overridden);
        }
    } else if (a->set) {
        /* the schedulers parse a non-empty address unless overridden; else torch's own rendezvous (up to 0.5.9), or
         * the PD and DP set-up, read it (both parsers refuse an empty one) */
        int scheduler = modern && !overridden && addr[0];
        const char *p = parse_address(modern, addr, port, sizeof port, &msg);
        if (scheduler && !p)
            st = rules_refuse(c, a, "%s (%s; %s)", msg.p ? msg.p : "", SCHEDULER_CITE, PARSE_CITE);
        else if (!scheduler && (!p || !port_in_range(p, 0)))
            st = decline(c, a, modern ? "an address SGLang's schedulers leave to the override or skip when empty, "
                                        "while its PD and DP set-up may still parse it"
                                      : "without attention DP, SGLang hands tcp:// and the address to torch's "
                                        "rendezvous, whose parse is torch's");
    }
    free(msg.p);
    if (st || !nccl->set || port_in_range(nccl->value, 0)) return st;
    /* the NCCL port outside 0-65535: 0.5.13+'s wait on the attention-DP branch refuses it (0.5.17+ skips it under the
     * override), after the host's waits for the address's port and the two after it */
    if (dp_attention && rel_since(c->rel, "0.5.13") && !(rel_since(c->rel, "0.5.17") && overridden))
        return rules_refuse(c, nccl, "ValueError: nccl_port has invalid port number %s. Valid TCP port range is "
                            "0-65535. (PortArgs.init_new, when the engine starts: sglang 0.5.13: python/sglang/srt/"
                            "utils/network.py:58-62; 0.5.23: python/sglang/srt/server_args.py:865-874, python/"
                            "sglang/srt/utils/network.py:77-81)", nccl->value);
    return decline(c, nccl, "SGLang binds the NCCL port, with no range check of its own on this path");
}
