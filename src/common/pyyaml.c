/* YAML scalars as PyYAML's safe_load types them (YAML 1.1: booleans,
 * null, ints in four bases, floats) and as Python's str() prints them:
 * what SGLang's --config merger and srt-slurm's recipes hand on. */
#include "common/common.h"

#include <stdlib.h>
#include <string.h>

int pyyaml_bool(const char *s, int *out)
{
    static const char *const T[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char *const F[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    for (size_t i = 0; i < COUNT_OF(T); i++) {
        if (strcmp(s, T[i]) == 0) return *out = 1, 1;
        if (strcmp(s, F[i]) == 0) return *out = 0, 1;
    }
    return 0;
}

int pyyaml_null(const char *s, int plain)
{
    if (!plain) return 0;
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

/* ------------------------------------------------ YAML values as Python's */

/* PyYAML's int (YAML 1.1: 0b binary, 0x hex, a leading 0 octal, '_'
 * anywhere after the first digit) in decimal, as str() prints it; 0 when
 * `s` is not one (or does not fit in 64 bits: kvcheck then keeps the text;
 * sexagesimal 1:30 too). */
static int yaml_int(const char *s, strbuf *out)
{
    const char *p = s;
    int neg = *p == '-';
    if (*p == '-' || *p == '+') p++;
    unsigned base = 10;
    if (p[0] == '0' && p[1] == 'b') base = 2, p += 2;
    else if (p[0] == '0' && p[1] == 'x') base = 16, p += 2;
    else if (p[0] == '0' && p[1]) base = 8, p += 1;
    uint64_t v = 0;
    size_t ndigits = 0;
    for (; *p; p++) {
        if (*p == '_') continue;
        unsigned d = *p >= '0' && *p <= '9' ? (unsigned)(*p - '0')
                     : (*p | 0x20) >= 'a' && (*p | 0x20) <= 'f' ? (unsigned)((*p | 0x20) - 'a' + 10) : 99;
        if (d >= base || __builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) return 0;
        ndigits++;
    }
    if (!ndigits || (base == 10 && s[neg || *s == '+'] == '_')) return 0;
    sb_printf(out, "%s%llu", neg && v ? "-" : "", (unsigned long long)v);
    return 1;
}

void py_float_repr(double v, strbuf *out)
{
    if (v != v) {
        sb_puts(out, "nan");
        return;
    }
    if (v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
        sb_puts(out, v < 0 ? "-inf" : "inf");
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v) break;
    }
    char dig[24];
    size_t nd = 0;
    const char *p = buf;
    if (*p == '-') sb_putc(out, *p++);
    for (; *p && *p != 'e'; p++)
        if (*p != '.' && nd < sizeof dig - 1) dig[nd++] = *p;
    dig[nd] = '\0';
    int e = atoi(p + 1);
    while (nd > 1 && dig[nd - 1] == '0') dig[--nd] = '\0';
    if (e < -4 || e >= 16) {
        sb_printf(out, "%c%s%s", dig[0], nd > 1 ? "." : "", dig + 1);
        sb_printf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (e < 0) {
        sb_puts(out, "0.");
        for (int i = 0; i < -e - 1; i++) sb_putc(out, '0');
        sb_puts(out, dig);
    } else {
        for (int i = 0; i <= e; i++) sb_putc(out, (size_t)i < nd ? dig[i] : '0');
        sb_printf(out, ".%s", (size_t)e + 1 < nd ? dig + e + 1 : "0");
    }
}

/* PyYAML's float (YAML 1.1: a '.' required, a signed exponent, .inf,
 * .nan) as str() prints it; 0 when `s` is not one. */
static int yaml_float(const char *s, strbuf *out)
{
    const char *p = s;
    int sign = *p == '-' || *p == '+';
    p += sign;
    if (strcmp(p, ".inf") == 0 || strcmp(p, ".Inf") == 0 || strcmp(p, ".INF") == 0) {
        sb_puts(out, *s == '-' ? "-inf" : "inf");
        return 1;
    }
    if (!sign && (strcmp(p, ".nan") == 0 || strcmp(p, ".NaN") == 0 || strcmp(p, ".NAN") == 0)) {
        sb_puts(out, "nan");
        return 1;
    }
    /* [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?  or  \.[0-9_]+([eE][-+][0-9]+)? */
    int lead = *p >= '0' && *p <= '9';
    if (!lead && (sign || *p != '.')) return 0;
    while ((*p >= '0' && *p <= '9') || (lead && *p == '_')) p++;
    if (*p++ != '.') return 0;
    const char *frac = p;
    while ((*p >= '0' && *p <= '9') || *p == '_') p++;
    if (!lead && p == frac) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p != '-' && *p != '+') return 0;
        p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p) return 0;
    char clean[128];
    size_t n = 0;
    for (const char *q = s; *q; q++) {
        if (*q == '_') continue;
        if (n + 1 >= sizeof clean) return 0;
        clean[n++] = *q;
    }
    clean[n] = '\0';
    py_float_repr(strtod(clean, NULL), out);
    return 1;
}

/* str() of what yaml.safe_load makes of a scalar, booleans aside: null is
 * None, numbers as Python prints them, quoted text and everything else as
 * written (dates too: kvcheck does not re-print them). */
char *pyyaml_str(const char *text, int plain)
{
    strbuf sb = {0};
    if (!plain || !(pyyaml_null(text, 1) ? (sb_puts(&sb, "None"), 1) : yaml_int(text, &sb) || yaml_float(text, &sb)))
        sb_puts(&sb, text);
    return sb_take(&sb);
}


int pyyaml_is_number(const char *text)
{
    strbuf sb = {0};
    int number = yaml_int(text, &sb) || yaml_float(text, &sb);
    free(sb.p);
    return number;
}
