/* Python's ints as decimal text: SGLang's checks compare, add and multiply
 * the ints argparse stored, of any length, and its messages print them. The
 * text is what py_int writes: an optional '-', digits without leading zeros,
 * "0" never "-0". */
#include "common/common.h"

#include <stdlib.h>
#include <string.h>

int dec_cmp(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb) return la < lb ? -1 : 1;
    int r = strcmp(a, b);
    return (r > 0) - (r < 0);
}

int int_cmp(const char *a, const char *b)
{
    int na = a[0] == '-', nb = b[0] == '-';
    if (na != nb) return na ? -1 : 1;
    int m = dec_cmp(a + na, b + nb);
    return na ? -m : m;
}

static int digits_only(const char *s) { return s[0] && strspn(s, "0123456789") == strlen(s); }

/* `sign` and the digits [d, d + n) without their leading zeros into `out`; 0 when they do not fit */
static int put(int neg, const char *d, size_t n, char *out, size_t size)
{
    while (n > 1 && d[0] == '0') d++, n--;
    neg = neg && !(n == 1 && d[0] == '0');
    if ((size_t)neg + n + 1 > size) return 0;
    out[0] = '-';
    memcpy(out + neg, d, n);
    out[neg + n] = '\0';
    return 1;
}

/* |a| + |b| (`sub` 0) or |a| - |b| (`sub` 1, |a| >= |b|), digits only, right-aligned into d[0..n) */
static void magnitude(const char *a, const char *b, int sub, char *d, size_t n)
{
    size_t la = strlen(a), lb = strlen(b);
    int carry = 0;
    for (size_t k = 0; k < n; k++) {
        int x = (k < la ? a[la - 1 - k] - '0' : 0), y = (k < lb ? b[lb - 1 - k] - '0' : 0);
        int v = sub ? x - y - carry : x + y + carry;
        carry = sub ? v < 0 : v > 9;
        d[n - 1 - k] = (char)('0' + (v + 10) % 10);
    }
}

int int_add(const char *a, const char *b, char *out, size_t size)
{
    int na = a[0] == '-', nb = b[0] == '-';
    a += na, b += nb;
    if (!digits_only(a) || !digits_only(b)) return 0;
    size_t n = (strlen(a) > strlen(b) ? strlen(a) : strlen(b)) + 1;
    char *d = malloc(n);
    if (!d) return 0;
    int neg = na;
    if (na == nb) {
        magnitude(a, b, 0, d, n);
    } else if (dec_cmp(a, b) >= 0) { /* the larger magnitude keeps its sign */
        magnitude(a, b, 1, d, n);
    } else {
        magnitude(b, a, 1, d, n);
        neg = nb;
    }
    int ok = put(neg, d, n, out, size);
    free(d);
    return ok;
}

int int_mul(const char *a, const char *b, char *out, size_t size)
{
    int neg = (a[0] == '-') != (b[0] == '-');
    a += a[0] == '-', b += b[0] == '-';
    if (!digits_only(a) || !digits_only(b)) return 0;
    size_t la = strlen(a), lb = strlen(b), n = la + lb;
    unsigned *acc = calloc(n, sizeof *acc);
    char *d = malloc(n);
    int ok = acc && d;
    for (size_t i = la; ok && i-- > 0;) { /* long multiplication, carrying each row: no sum passes 10 x 81 */
        unsigned carry = 0;
        for (size_t j = lb; j-- > 0;) {
            unsigned v = acc[i + j + 1] + (unsigned)(a[i] - '0') * (unsigned)(b[j] - '0') + carry;
            acc[i + j + 1] = v % 10, carry = v / 10;
        }
        acc[i] += carry;
    }
    for (size_t k = 0; ok && k < n; k++) d[k] = (char)('0' + acc[k]);
    ok = ok && put(neg, d, n, out, size);
    free(acc);
    free(d);
    return ok;
}
