/* SGLang's media URL policy (0.5.18+): configure_media_url_security, which
 * the resolution runs early (sglang 0.5.18: python/sglang/srt/
 * server_args.py:3620, :4118; 0.5.19: arg_groups/serving_hook.py:182;
 * 0.5.23: serving_hook.py:204, pipeline.py:70, right before the watermark's
 * loader) and which refuses a negative --media-url-max-file-size-mb, then
 * each --allowed-media-domains word in order that is not a hostname or an
 * IP address (_normalize_media_domain, sglang 0.5.18: python/sglang/srt/
 * utils/common.py:1525-1569; 0.5.23: :1739-1783, the same code).
 *
 * A domain is str.strip()ped and its trailing dots dropped; an IP address
 * (ipaddress.ip_address, in brackets or not) passes; otherwise it is a name
 * Python's idna codec takes, which for ASCII text means labels of 1 to 63
 * characters (the last may be empty). A domain that is not ASCII once
 * stripped goes through IDNA's nameprep, which kvcheck does not model: such
 * a worker is declined, as is a list with a word that holds a space
 * (kvcheck keeps a list's words joined by spaces). */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

/* _normalize_media_domain's verdict on one domain. */
enum domain_verdict { DOMAIN_OK, DOMAIN_UNREAD, DOMAIN_EMPTY, DOMAIN_HOSTNAME, DOMAIN_PORTS, DOMAIN_IDNA };
static const char *const DOMAIN_MESSAGES[] = {
    [DOMAIN_EMPTY] = "ValueError: allowed media domains cannot be empty",
    [DOMAIN_HOSTNAME] = "ValueError: Invalid allowed media domain {domain}: provide a hostname only",
    [DOMAIN_PORTS] = "ValueError: Invalid allowed media domain {domain}: ports are not supported",
    [DOMAIN_IDNA] = "ValueError: Invalid allowed media domain {domain}",
};

/* The idna codec's ASCII path: every label but the last of 1 to 63 characters, the last under 64 (an empty text is
 * taken, and normalizes to the empty name). Pure. */
static int idna_ascii(const char *d, size_t n)
{
    size_t label = 0;
    for (size_t i = 0; i < n; i++, label++)
        if (d[i] == '.') {
            if (label == 0 || label > 63) return 0;
            label = (size_t)-1;
        }
    return label < 64;
}

/* The verdict on `word`; `shown` gets the domain the message names (stripped, brackets dropped where SGLang drops
 * them). Pure. */
static enum domain_verdict domain_verdict(const char *word, char *shown, size_t size)
{
    size_t b, e;
    py_strip(word, &b, &e);
    while (e > b && word[e - 1] == '.') e--;
    for (size_t i = b; i < e; i++)
        if ((unsigned char)word[i] >= 0x80) return DOMAIN_UNREAD;
    const char *d = word + b;
    size_t n = e - b;
    str_printf(shown, size, "%.*s", (int)n, d);
    if (!n) return DOMAIN_EMPTY;
    if (strstr(shown, "://") || strpbrk(shown, "/?#@")) return DOMAIN_HOSTNAME;
    if (n >= 2 && d[0] == '[' && d[n - 1] == ']') d++, n -= 2;
    str_printf(shown, size, "%.*s", (int)n, d);
    if (py_ipv4(d, n) || py_ipv6(d, n)) return DOMAIN_OK;
    if (memchr(d, ':', n)) return DOMAIN_PORTS;
    if (!idna_ascii(d, n)) return DOMAIN_IDNA;
    return n ? DOMAIN_OK : DOMAIN_EMPTY;
}

/* The first domain that fails, in the list's order: its verdict (DOMAIN_OK: none), the domain into `shown`. */
static enum domain_verdict domains_verdict(const ctx *c, char *shown, size_t size)
{
    const setting *s = &c->set->s[SET_MEDIA_DOMAINS];
    if (!s->set || s->reported) return DOMAIN_OK; /* a running server's list passed (a dump writes it "[...]") */
    if (list_words(s) != s->nvalues) return DOMAIN_UNREAD; /* a word that holds a space */
    char word[SETTING_VALUE_LEN];
    for (const char *p = s->value;; p++) {
        size_t n = strcspn(p, " ");
        str_printf(word, sizeof word, "%.*s", (int)n, p);
        enum domain_verdict v = domain_verdict(word, shown, size);
        if (v != DOMAIN_OK || !p[n]) return v;
        p += n;
    }
}

static int m_size(const ctx *c)
{
    const setting *s = &c->set->s[SET_MEDIA_MAX_MB];
    return s->set && s->value[0] == '-';
}
static int m_unread(const ctx *c)
{
    char shown[SETTING_VALUE_LEN];
    return domains_verdict(c, shown, sizeof shown) == DOMAIN_UNREAD;
}
static int m_domain(const ctx *c)
{
    char shown[SETTING_VALUE_LEN];
    enum domain_verdict v = domains_verdict(c, shown, sizeof shown);
    return v != DOMAIN_OK && v != DOMAIN_UNREAD;
}

/* {refusal}: the domain's message, {domain} its repr() */
static void media_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    char shown[SETTING_VALUE_LEN];
    enum domain_verdict v = domains_verdict(c, shown, sizeof shown);
    strbuf sb = {0};
    py_repr(&sb, shown);
    const char *const fields[][2] = {{"domain", sb.p ? sb.p : ""}};
    char msg[sizeof f->text[0]];
    sglang_expand(DOMAIN_MESSAGES[v] ? DOMAIN_MESSAGES[v] : "", fields, COUNT_OF(fields), msg, sizeof msg);
    rule_field(f, "refusal", "%s", msg);
    free(sb.p);
}

#define COMMON "sglang 0.5.18: python/sglang/srt/utils/common.py:"
static const flag_rule RULES[] = {
    {SINCE("0.5.18"), 0, m_size, SET_MEDIA_MAX_MB, "ValueError: media_url_max_file_size_mb must be non-negative",
     COMMON "1568-1569; 0.5.23: :1782-1783"},
    {SINCE("0.5.18"), 0, m_unread, SET_MEDIA_DOMAINS, NULL, COMMON "1525-1555; 0.5.23: :1739-1769"},
    {SINCE("0.5.18"), 0, m_domain, SET_MEDIA_DOMAINS, "{refusal}", COMMON "1525-1555; 0.5.23: :1739-1769"},
};

kvc_status media_check(const ctx *c)
{
    static const rule_hooks hooks = {"_normalize_media_domain on a domain past ASCII (IDNA's nameprep) or a list with "
                                     "a word that holds a space (kvcheck keeps a list's words joined by spaces)",
                                     media_fields, NULL};
    return rules_table(c, RULES, COUNT_OF(RULES), 0, &hooks);
}

size_t media_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
