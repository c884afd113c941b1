/* Python's ipaddress, as CPython 3.11 parses an address's text: SGLang
 * reads endpoints (NetworkAddress.parse) and media domains
 * (ipaddress.ip_address) with it. */
#include "common/common.h"

#include <string.h>

/* A byte slice. */
typedef struct slice {
    const char *p;
    size_t n;
} slice;

static int has(slice s, char c) { return memchr(s.p, c, s.n) != NULL; }

/* ipaddress.IPv4Address's octets: four of 1-3 ASCII digits, no leading zero, at most 255 */
static int ipv4(slice s)
{
    size_t i = 0;
    for (int octet = 0; octet < 4; octet++) {
        if (octet && (i >= s.n || s.p[i++] != '.')) return 0;
        size_t a = i;
        unsigned v = 0;
        for (; i < s.n && s.p[i] >= '0' && s.p[i] <= '9'; i++) {
            if (i - a == 3) return 0;
            v = v * 10 + (unsigned)(s.p[i] - '0');
        }
        if (i == a || (i - a > 1 && s.p[a] == '0') || v > 255) return 0;
    }
    return i == s.n;
}
int py_ipv4(const char *p, size_t n) { return ipv4((slice){p, n}); }

/* 1-4 hex digits (_parse_hextet) */
static int hextet(slice s)
{
    if (s.n < 1 || s.n > 4) return 0;
    for (size_t i = 0; i < s.n; i++)
        if (!s.p[i] || !strchr("0123456789abcdefABCDEF", s.p[i])) return 0;
    return 1;
}

/* _is_ipv6: ipaddress.IPv6Address(host) takes it (CPython 3.11: no '/', a scope id after '%' that is not empty and
 * holds no other '%', then _ip_int_from_string's parts). Pure. */
int py_ipv6(const char *p, size_t len)
{
    slice s = {p, len};
    if (has(s, '/')) return 0;
    const char *pct = memchr(s.p, '%', s.n);
    if (pct) {
        slice scope = {pct + 1, s.n - (size_t)(pct + 1 - s.p)};
        if (!scope.n || has(scope, '%')) return 0;
        s.n = (size_t)(pct - s.p);
    }
    if (!s.n) return 0;
    enum { HEXTETS = 8 };
    slice part[HEXTETS + 2];
    size_t n = 0;
    for (size_t i = 0, a = 0; i <= s.n; i++) {
        if (i < s.n && s.p[i] != ':') continue;
        if (n == COUNT_OF(part)) return 0; /* more than 10 parts: more than 8 colons however the IPv4 tail counts */
        part[n++] = (slice){s.p + a, i - a};
        a = i + 1;
    }
    if (n < 3) return 0;
    static const slice ZERO = {"0", 1};
    if (has(part[n - 1], '.')) { /* an IPv4 tail stands for two hextets */
        if (!ipv4(part[n - 1]) || n == COUNT_OF(part)) return 0;
        part[n - 1] = ZERO, part[n++] = ZERO;
    }
    if (n > HEXTETS + 1) return 0;
    size_t skip = 0; /* 0: no '::' inside */
    for (size_t i = 1; i + 1 < n; i++)
        if (!part[i].n) {
            if (skip) return 0;
            skip = i;
        }
    size_t hi, lo;
    if (skip) {
        hi = skip, lo = n - skip - 1;
        if (!part[0].n && --hi) return 0;
        if (!part[n - 1].n && --lo) return 0;
        if (HEXTETS - (int)(hi + lo) < 1) return 0;
    } else {
        if (n != HEXTETS || !part[0].n || !part[n - 1].n) return 0;
        hi = n, lo = 0;
    }
    for (size_t i = 0; i < hi; i++)
        if (!hextet(part[i])) return 0;
    for (size_t i = n - lo; i < n; i++)
        if (!hextet(part[i])) return 0;
    return 1;
}

