/* json.loads as CPython 3.11's json module reads a str (its C scanner,
 * Modules/_json.c, and json/decoder.py's JSONDecoder.decode), and what
 * orjson.loads takes of the same (SGLang's json_list_type): what it takes,
 * and for what it refuses, its JSONDecodeError message with the position in
 * characters. Where SGLang reads a flag's text with json.loads (LoRAPathAction),
 * kvcheck must take and refuse what Python does: NaN and Infinity, lone
 * surrogate escapes are taken; leading zeros, "1.", raw control characters in
 * strings are not. Positions count code points; a byte that is not UTF-8
 * counts as one, as Python's surrogateescape reads argv. */
#include "common/common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct json_reader {
    const uint32_t *s; /* the text's code points */
    size_t n;
    int orjson;    /* orjson.loads: no NaN or Infinity, no lone surrogate, no number that is infinite as a double */
    strbuf *err;
    size_t err_at; /* where a "Expecting value" StopIteration stood */
    unsigned depth;
    pyjson_visit visit; /* the top object's members, NULL: none wanted */
    void *arg;
    pyjson_member member; /* the one being read (only the top object's are: not on the stack of every level) */
} json_reader;

/* JSON_STOP: StopIteration(err_at), which decode() reports as "Expecting value" */
enum { JSON_OK, JSON_STOP, JSON_ERROR };
enum { JSON_MAX_DEPTH = 900 }; /* Python's recursion limit stops below 1000 nested values, where depends on its stack */

/* Decodes UTF-8 into code points as Python reads argv (strict UTF-8, surrogateescape: each byte of an invalid
 * sequence is U+DC80-U+DCFF); `at` (may be NULL) gets each code point's byte offset. */
static size_t utf8_points(const char *text, size_t len, uint32_t *out, size_t *at)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = 0;
    for (size_t i = 0; i < len; n++) {
        size_t k = utf8_len(p + i, len - i);
        uint32_t v = k == 4 ? p[i] & 7u : k == 3 ? p[i] & 15u : k == 2 ? p[i] & 31u : p[i];
        for (size_t j = 1; j < k; j++) v = v << 6 | (p[i + j] & 0x3Fu);
        if (at) at[n] = i;
        out[n] = k ? v : 0xDC00u + p[i];
        i += k ? k : 1;
    }
    return n;
}

static int json_ws(uint32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static size_t skip_ws(const json_reader *r, size_t i)
{
    while (i < r->n && json_ws(r->s[i])) i++;
    return i;
}

/* JSONDecodeError(msg, doc, pos), as Python prints it with its type. */
static int fail(json_reader *r, const char *msg, size_t pos)
{
    size_t line = 1, last_nl = 0;
    int seen_nl = 0;
    for (size_t i = 0; i < pos && i < r->n; i++)
        if (r->s[i] == '\n') line++, last_nl = i, seen_nl = 1;
    size_t column = seen_nl ? pos - last_nl : pos + 1;
    sb_printf(r->err, "JSONDecodeError: %s: line %zu column %zu (char %zu)", msg, line, column, pos);
    return JSON_ERROR;
}
static int stop(json_reader *r, size_t at)
{
    r->err_at = at;
    return JSON_STOP;
}

static int word_at(const json_reader *r, size_t i, const char *w)
{
    size_t k = 0;
    for (; w[k]; k++)
        if (i + k >= r->n || r->s[i + k] != (unsigned char)w[k]) return 0;
    return 1;
}

static int hex4(const json_reader *r, size_t i, uint32_t *v)
{
    *v = 0;
    for (size_t k = i; k < i + 4; k++) {
        uint32_t c = r->s[k];
        int d = c >= '0' && c <= '9'   ? (int)c - '0'
                : c >= 'a' && c <= 'f' ? (int)c - 'a' + 10
                : c >= 'A' && c <= 'F' ? (int)c - 'A' + 10
                                       : -1;
        if (d < 0) return 0;
        *v = *v << 4 | (uint32_t)d;
    }
    return 1;
}

/* scanstring_unicode (strict): from just past the opening quote; *end past the closing one; the decoded text's
 * ASCII in `key` (a code point past ASCII, or NUL, as 0x7F, cut to fit), when not NULL, and its length in code
 * points in *points. */
static int scan_string(json_reader *r, size_t i, size_t *end, char *key, size_t key_size, size_t *points)
{
    size_t begin = i - 1, k = 0, n = 0;
    for (;;) {
        size_t next = i;
        while (next < r->n && r->s[next] != '"' && r->s[next] != '\\') {
            if (r->s[next] <= 0x1F) return fail(r, "Invalid control character at", next);
            if (key && k + 1 < key_size) key[k++] = r->s[next] < 0x80 ? (char)r->s[next] : 0x7F;
            next++, n++;
        }
        if (next >= r->n) return fail(r, "Unterminated string starting at", begin);
        if (r->s[next] == '"') {
            if (key) key[k] = '\0';
            if (points) *points = n;
            *end = next + 1;
            return JSON_OK;
        }
        if (++next >= r->n) return fail(r, "Unterminated string starting at", begin);
        uint32_t c = r->s[next];
        if (c != 'u') {
            static const char ESC[] = "\"\\/bfnrt", TO[] = "\"\\/\b\f\n\r\t";
            const char *e = c < 0x80 ? strchr(ESC, (int)c) : NULL;
            if (!e || !c) return fail(r, "Invalid \\escape", next - 1);
            if (key && k + 1 < key_size) key[k++] = TO[e - ESC];
            i = next + 1, n++;
            continue;
        }
        next++;
        if (next + 4 >= r->n) return fail(r, "Invalid \\uXXXX escape", next - 1);
        if (!hex4(r, next, &c)) return fail(r, "Invalid \\uXXXX escape", next - 1);
        i = next + 4;
        /* a high surrogate followed by \u and four more: a pair when they are a low surrogate */
        if (c >= 0xD800 && c <= 0xDBFF && i + 6 < r->n && r->s[i] == '\\' && r->s[i + 1] == 'u') {
            uint32_t low;
            if (!hex4(r, i + 2, &low)) return fail(r, "Invalid \\uXXXX escape", i + 1);
            if (low >= 0xDC00 && low <= 0xDFFF) c = 0x10000 + ((c - 0xD800) << 10 | (low - 0xDC00)), i += 6;
        }
        if (r->orjson && c >= 0xD800 && c <= 0xDFFF) return fail(r, "lone surrogate", i - 6);
        if (key && k + 1 < key_size) key[k++] = c && c < 0x80 ? (char)c : 0x7F; /* NUL would end it */
        n++;
    }
}

static int scan_value(json_reader *r, size_t i, size_t *end, int top);

/* What Python has for the value json.loads read from text [i, end): its kind and, for a str, its decoded ASCII and
 * length; for a number, its text (cut to fit) and length. */
static void member_value(json_reader *r, size_t i, size_t end, pyjson_member *m)
{
    uint32_t c = r->s[i];
    m->len = end - i;
    size_t k = 0;
    if (c == '"') { /* read once already: it cannot fail */
        scan_string(r, i + 1, &end, m->text, sizeof m->text, &m->len);
        m->kind = PY_STR;
        return;
    }
    int fraction = 0; /* a number with a '.', an exponent, NaN or Infinity is a float, however long its text */
    for (size_t j = i; j < end && !strchr("{[ntf", (int)c); j++)
        fraction |= r->s[j] == '.' || r->s[j] == 'e' || r->s[j] == 'E' || r->s[j] == 'N' || r->s[j] == 'I';
    for (; i + k < end && k + 1 < sizeof m->text; k++) m->text[k] = (char)r->s[i + k];
    m->text[k] = '\0';
    m->kind = c == '{' ? PY_DICT : c == '[' ? PY_LIST : c == 'n' ? PY_NONE : c == 't' ? PY_TRUE : c == 'f' ? PY_FALSE
              : fraction ? PY_FLOAT : PY_INT;
}

/* _parse_object_unicode, from just past '{'; the top object's members go to the visitor */
static int scan_object(json_reader *r, size_t i, size_t *end, int top)
{
    i = skip_ws(r, i);
    if (i >= r->n || r->s[i] != '}') {
        for (;;) {
            if (i >= r->n || r->s[i] != '"') return fail(r, "Expecting property name enclosed in double quotes", i);
            int st = scan_string(r, i + 1, &i, top ? r->member.key : NULL, sizeof r->member.key, NULL);
            if (st) return st;
            i = skip_ws(r, i);
            if (i >= r->n || r->s[i] != ':') return fail(r, "Expecting ':' delimiter", i);
            size_t at = i = skip_ws(r, i + 1);
            if ((st = scan_value(r, i, &i, 0))) return st;
            if (top && r->visit) member_value(r, at, i, &r->member), r->visit(r->arg, &r->member);
            i = skip_ws(r, i);
            if (i < r->n && r->s[i] == '}') break;
            if (i >= r->n || r->s[i] != ',') return fail(r, "Expecting ',' delimiter", i);
            i = skip_ws(r, i + 1);
        }
    }
    *end = i + 1;
    return JSON_OK;
}

/* _parse_array_unicode, from just past '[' */
static int scan_array(json_reader *r, size_t i, size_t *end)
{
    i = skip_ws(r, i);
    if (i >= r->n || r->s[i] != ']') {
        for (;;) {
            int st = scan_value(r, i, &i, 0);
            if (st) return st;
            i = skip_ws(r, i);
            if (i < r->n && r->s[i] == ']') break;
            if (i >= r->n || r->s[i] != ',') return fail(r, "Expecting ',' delimiter", i);
            i = skip_ws(r, i + 1);
        }
    }
    *end = i + 1;
    return JSON_OK;
}

static int is_digit(uint32_t c) { return c >= '0' && c <= '9'; }

/* _match_number_unicode */
static int scan_number(json_reader *r, size_t start, size_t *end)
{
    size_t i = start;
    if (r->s[i] == '-' && ++i >= r->n) return stop(r, start);
    if (r->s[i] >= '1' && r->s[i] <= '9') {
        while (i < r->n && is_digit(r->s[i])) i++;
    } else if (r->s[i] == '0') {
        i++;
    } else {
        return stop(r, start);
    }
    if (i + 1 < r->n && r->s[i] == '.' && is_digit(r->s[i + 1]))
        for (i += 2; i < r->n && is_digit(r->s[i]);) i++;
    if (i < r->n && (r->s[i] == 'e' || r->s[i] == 'E')) {
        size_t e = i++;
        if (i < r->n && (r->s[i] == '-' || r->s[i] == '+')) i++;
        size_t digits = i;
        while (i < r->n && is_digit(r->s[i])) i++;
        if (i == digits) i = e;
    }
    char num[400];
    if (r->orjson && i - start < sizeof num) { /* a number too long for the buffer is not the infinity test's */
        for (size_t k = start; k < i; k++) num[k - start] = (char)r->s[k];
        num[i - start] = '\0';
        double v = strtod(num, NULL);
        if (v > 1.7976931348623157e308 || v < -1.7976931348623157e308) return fail(r, "number is infinity", start);
    }
    *end = i;
    return JSON_OK;
}

/* scan_once_unicode */
static int scan_value(json_reader *r, size_t i, size_t *end, int top)
{
    if (i >= r->n) return stop(r, i);
    static const struct {
        char first;
        const char *word;
    } WORDS[] = {{'n', "null"}, {'t', "true"}, {'f', "false"}, {'N', "NaN"}, {'I', "Infinity"}, {'-', "-Infinity"}};
    uint32_t c = r->s[i];
    if (c == '"') return scan_string(r, i + 1, end, NULL, 0, NULL);
    if (c == '{' || c == '[') {
        if (++r->depth > JSON_MAX_DEPTH) {
            sb_printf(r->err, "RecursionError: maximum recursion depth exceeded while decoding a JSON %s from a "
                      "unicode string", c == '{' ? "object" : "array");
            return JSON_ERROR;
        }
        int st = c == '{' ? scan_object(r, i + 1, end, top) : scan_array(r, i + 1, end);
        r->depth--;
        return st;
    }
    for (size_t k = 0; k < (r->orjson ? 3 : COUNT_OF(WORDS)); k++)
        if (c == (unsigned char)WORDS[k].first && word_at(r, i, WORDS[k].word)) {
            *end = i + strlen(WORDS[k].word);
            return JSON_OK;
        }
    return scan_number(r, i, end);
}

int pyjson_loads(const char *text, int orjson, py_kind *top, pyjson_visit visit, void *arg, strbuf *err)
{
    size_t len = strlen(text);
    uint32_t *s = malloc((len ? len : 1) * sizeof *s);
    if (!s) {
        sb_puts(err, "MemoryError");
        return 0;
    }
    json_reader r = {.s = s, .n = utf8_points(text, len, s, NULL), .err = err, .orjson = orjson, .visit = visit,
                     .arg = arg};
    for (size_t i = 0; orjson && i < r.n; i++)
        if (s[i] >= 0xD800 && s[i] <= 0xDFFF) { /* str is not valid UTF-8: surrogates not allowed */
            free(s);
            return sb_puts(err, "JSONDecodeError: str is not valid UTF-8: surrogates not allowed"), 0;
        }
    size_t end = 0, start = skip_ws(&r, 0);
    if (r.n && s[0] == 0xFEFF) fail(&r, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    else {
        int st = scan_value(&r, start, &end, 1);
        if (st == JSON_STOP) fail(&r, "Expecting value", r.err_at);
        else if (st == JSON_OK && (end = skip_ws(&r, end)) != r.n) fail(&r, "Extra data", end);
        else if (st == JSON_OK && top) {
            member_value(&r, start, end, &r.member);
            *top = r.member.kind, end = SIZE_MAX;
        } else if (st == JSON_OK) end = SIZE_MAX;
    }
    free(s);
    return end == SIZE_MAX;
}

/* str.strip()'s whitespace (Py_UNICODE_ISSPACE) */
static int py_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

void py_strip(const char *text, size_t *begin, size_t *end)
{
    size_t len = strlen(text);
    uint32_t *s = malloc((len ? len : 1) * sizeof *s);
    size_t *at = malloc((len + 1) * sizeof *at);
    *begin = 0, *end = len;
    if (s && at) {
        size_t n = utf8_points(text, len, s, at), a = 0, b = n;
        at[n] = len;
        while (a < b && py_space(s[a])) a++;
        while (b > a && py_space(s[b - 1])) b--;
        *begin = at[a], *end = at[b];
    }
    free(s);
    free(at);
}

/* The code points Unicode 14 (Python 3.11's unicodedata) makes decimal digit 0; digits 1 to 9 follow each */
static const uint32_t DIGIT_ZEROS[] = {
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0,
    0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620,
    0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
    0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0};

int py_number_ascii(const char *text, char *out, size_t size)
{
    size_t len = strlen(text), k = 0;
    uint32_t *s = malloc((len ? len : 1) * sizeof *s);
    if (!s) return 0;
    size_t n = utf8_points(text, len, s, NULL);
    for (size_t i = 0; i < n && k + 1 < size; i++) {
        int digit = -1;
        for (size_t z = 0; z < COUNT_OF(DIGIT_ZEROS) && s[i] >= 127 && digit < 0; z++)
            if (s[i] >= DIGIT_ZEROS[z] && s[i] < DIGIT_ZEROS[z] + 10) digit = (int)(s[i] - DIGIT_ZEROS[z]);
        out[k++] = s[i] < 127 ? (char)s[i] : py_space(s[i]) ? ' ' : digit >= 0 ? (char)('0' + digit) : '?';
        if (out[k - 1] == '?' && s[i] >= 127) break; /* the text stops at a code point that is neither */
    }
    free(s);
    if (k >= size) return 0;
    out[k] = '\0';
    return 1;
}
