/* Python's repr of a record, as a log line prints it: a dataclass
 * ("ServerArgs(model_path='m', tp_size=8, ...)") or a dict ("{'model_path':
 * 'm', ...}"), whose values are str (either quote, with escapes), int,
 * float, None, True, False, lists, tuples, sets, dicts and calls, nested;
 * and the repr of an ASCII str, written. */
#include "common/common.h"

#include <stdlib.h>
#include <string.h>

typedef struct py_reader {
    const char *s;
    size_t len, at;
    const kvc_origin *where; /* the text's first byte */
    kvc_diag *diag;
    unsigned depth;
    int hit_end; /* reading ran into the end of the text */
} py_reader;

#define PY_MAX_DEPTH 64

static kvc_status py_error(py_reader *r, size_t at, const char *fmt, ...) KVC_PRINTF(3, 4);
static kvc_status py_error(py_reader *r, size_t at, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    kvc_origin o = *r->where;
    o.column += (unsigned)at;
    return diag_set(r->diag, KVC_ERR_CONFIG, &o, "the settings record (Python's repr): %s", text);
}

static void skip_space(py_reader *r)
{
    while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\t')) r->at++;
}

static int peek(py_reader *r)
{
    if (r->at < r->len) return (unsigned char)r->s[r->at];
    r->hit_end = 1;
    return -1;
}

static int is_name_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Appends code point `cp` as UTF-8. */
static void put_utf8(strbuf *sb, unsigned long cp)
{
    if (cp < 0x80) {
        sb_putc(sb, (char)cp);
    } else if (cp < 0x800) {
        sb_putc(sb, (char)(0xc0 | cp >> 6));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        sb_putc(sb, (char)(0xe0 | cp >> 12));
        sb_putc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    } else {
        sb_putc(sb, (char)(0xf0 | cp >> 18));
        sb_putc(sb, (char)(0x80 | (cp >> 12 & 0x3f)));
        sb_putc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    }
}

static int hex_digits(py_reader *r, size_t at, unsigned n, unsigned long *out)
{
    *out = 0;
    for (unsigned i = 0; i < n; i++) {
        if (at + i >= r->len) return 0;
        char c = r->s[at + i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (unsigned)((c | 0x20) - 'a' + 10) : 16;
        if (d > 15) return 0;
        *out = *out * 16 + d;
    }
    return 1;
}

/* A str literal at r->at, decoded into `out` (NULL: skipped). */
static kvc_status read_str(py_reader *r, strbuf *out)
{
    size_t start = r->at;
    char quote = r->s[r->at++];
    for (;;) {
        if (r->at >= r->len) {
            r->hit_end = 1;
            return py_error(r, start, "a string that never closes (its quote %c)", quote);
        }
        char c = r->s[r->at++];
        if (c == quote) return KVC_OK;
        if (c != '\\') {
            if (out) sb_putc(out, c);
            continue;
        }
        if (r->at >= r->len) return py_error(r, start, "a string that ends in a backslash");
        char e = r->s[r->at++];
        static const char SIMPLE[] = "\\'\"abfnrtv", VALUE[] = "\\'\"\a\b\f\n\r\t\v";
        const char *k = strchr(SIMPLE, e);
        unsigned long cp = 0;
        unsigned n = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (k && e) {
            if (out) sb_putc(out, VALUE[k - SIMPLE]);
        } else if (n) {
            if (!hex_digits(r, r->at, n, &cp) || cp > 0x10ffff)
                return py_error(r, r->at - 2, "the escape \\%c needs %u hex digits", e, n);
            r->at += n;
            if (out) put_utf8(out, cp);
        } else if (e >= '0' && e <= '7') {
            cp = (unsigned long)(e - '0');
            for (int i = 0; i < 2 && r->at < r->len && r->s[r->at] >= '0' && r->s[r->at] <= '7'; i++)
                cp = cp * 8 + (unsigned long)(r->s[r->at++] - '0');
            if (out) put_utf8(out, cp);
        } else {
            return py_error(r, r->at - 2, "'\\%c' is no escape Python's repr writes", e);
        }
    }
}

static kvc_status read_value(py_reader *r, py_value *out);

/* The items of a list, tuple, set, dict or call up to `close`. */
static kvc_status read_items(py_reader *r, char close, int dict, int call)
{
    size_t open_at = r->at - 1;
    if (++r->depth > PY_MAX_DEPTH) return py_error(r, open_at, "values nested more than %d deep", PY_MAX_DEPTH);
    for (int first = 1;; first = 0) {
        skip_space(r);
        if (peek(r) == close) break;
        if (!first) {
            if (peek(r) != ',') return py_error(r, r->at, "expected ',' or '%c'", close);
            r->at++;
            skip_space(r);
            if (peek(r) == close) break; /* (1,) */
        }
        if (peek(r) < 0) return py_error(r, open_at, "'%c' never closes", r->s[open_at]);
        py_value v;
        if (call && is_name_char(peek(r))) { /* keyword=value */
            size_t k = r->at;
            while (is_name_char(peek(r))) r->at++;
            if (peek(r) != '=') r->at = k;
            else r->at++;
        }
        RETURN_IF_ERROR(read_value(r, &v));
        free(v.text);
        if (dict) {
            skip_space(r);
            if (peek(r) != ':') return py_error(r, r->at, "expected ':' after a dict key");
            r->at++;
            RETURN_IF_ERROR(read_value(r, &v));
            free(v.text);
        }
    }
    r->at++;
    r->depth--;
    return KVC_OK;
}

/* A value at r->at (after spaces): its kind and its text (str decoded,
 * numbers as written, containers and calls as "[...]", "{...}"). */
static kvc_status read_value(py_reader *r, py_value *out)
{
    memset(out, 0, sizeof *out);
    skip_space(r);
    int c = peek(r);
    size_t start = r->at;
    strbuf sb = {0};
    kvc_status st = KVC_OK;
    if (c == '\'' || c == '"') {
        out->kind = PY_STR;
        st = read_str(r, &sb);
        if (!st && !sb.p) sb_puts(&sb, "");
    } else if (c == '[' || c == '(' || c == '{') {
        r->at++;
        int dict = 0;
        if (c == '{') { /* a dict unless its first item has no ':' (a set): read and see */
            size_t save = r->at;
            skip_space(r);
            py_value k;
            dict = peek(r) == '}';
            if (!dict && read_value(r, &k) == KVC_OK) {
                free(k.text);
                skip_space(r);
                dict = peek(r) == ':';
            }
            r->at = save;
        }
        out->kind = c == '{' ? PY_DICT : PY_LIST;
        st = read_items(r, c == '[' ? ']' : c == '(' ? ')' : '}', dict, 0);
        sb_puts(&sb, c == '{' ? "{...}" : "[...]");
    } else if (c == '<') { /* <Enum.X: 'x'>, <object at 0x...>: kept whole */
        out->kind = PY_OTHER;
        while (r->at < r->len && r->s[r->at] != '>') {
            if (r->s[r->at] == '\'' || r->s[r->at] == '"') {
                if ((st = read_str(r, NULL))) break;
            } else {
                r->at++;
            }
        }
        if (!st && r->at >= r->len) st = py_error(r, start, "'<' never closes");
        if (!st) r->at++;
        sb_printf(&sb, "%.*s", (int)(r->at - start), r->s + start);
    } else if (is_name_char(c) || c == '-' || c == '+') {
        r->at++;
        while (is_name_char(peek(r)) || ((peek(r) == '-' || peek(r) == '+') && (r->s[r->at - 1] | 0x20) == 'e'))
            r->at++;
        size_t n = r->at - start;
        const char *w = r->s + start;
        sb_printf(&sb, "%.*s", (int)n, w);
        const char *num = w + (*w == '-' || *w == '+');
        int digit = *num >= '0' && *num <= '9';
        if (n == 4 && strncmp(w, "None", 4) == 0) out->kind = PY_NONE;
        else if (n == 4 && strncmp(w, "True", 4) == 0) out->kind = PY_TRUE;
        else if (n == 5 && strncmp(w, "False", 5) == 0) out->kind = PY_FALSE;
        else if (digit && !memchr(w, '.', n) && !memchr(w, 'e', n) && !memchr(w, 'E', n)) out->kind = PY_INT;
        else if (digit || strncmp(num, "inf", 3) == 0 || strncmp(num, "nan", 3) == 0) out->kind = PY_FLOAT;
        else if (peek(r) == '(') { /* a call: a nested record */
            out->kind = PY_OTHER;
            r->at++;
            st = read_items(r, ')', 0, 1);
        } else {
            st = py_error(r, start, "'%.*s' is no value Python's repr writes", (int)(n > 40 ? 40 : n), w);
        }
    } else {
        st = c < 0 ? py_error(r, start, "a value is missing") : py_error(r, start, "unexpected '%c'", c);
    }
    if (!st && sb.oom) st = diag_set(r->diag, KVC_ERR_NOMEM, NULL, "out of memory");
    if (st) {
        free(sb.p);
        return st;
    }
    out->text = sb_take(&sb);
    return KVC_OK;
}

void py_fields_free(py_field *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        free(f[i].key);
        free(f[i].value.text);
    }
    free(f);
}

kvc_status py_record_parse(const char *text, size_t len, const kvc_origin *where, py_field **out, size_t *nout,
                           kvc_diag *diag)
{
    *out = NULL;
    *nout = 0;
    py_reader r = {.s = text, .len = len, .where = where, .diag = diag};
    /* "Name(" or "{" */
    while (is_name_char(peek(&r))) r.at++;
    int dict = r.at == 0;
    if ((dict && peek(&r) != '{') || (!dict && peek(&r) != '('))
        return py_error(&r, r.at, "expected a dataclass repr Name(field=value, ...) or a dict {'field': value, ...}");
    size_t open_at = r.at++;
    py_field *f = NULL;
    size_t n = 0;
    kvc_status st = KVC_OK;
    for (int first = 1; !st; first = 0) {
        skip_space(&r);
        if (peek(&r) == (dict ? '}' : ')')) break;
        if (!first && peek(&r) != ',') {
            st = peek(&r) < 0 ? py_error(&r, open_at, "the record never closes: the line ends first")
                              : py_error(&r, r.at, "expected ',' between fields");
            break;
        }
        if (!first) r.at++;
        skip_space(&r);
        size_t key_at = r.at;
        strbuf key = {0};
        if (dict && (peek(&r) == '\'' || peek(&r) == '"')) {
            st = read_str(&r, &key);
            skip_space(&r);
            if (!st && peek(&r) != ':') st = py_error(&r, r.at, "expected ':' after the key");
        } else if (!dict && is_name_char(peek(&r))) {
            while (is_name_char(peek(&r))) r.at++;
            sb_printf(&key, "%.*s", (int)(r.at - key_at), text + key_at);
            if (peek(&r) != '=') st = py_error(&r, r.at, "expected '=' after the field name");
        } else {
            st = peek(&r) < 0 ? py_error(&r, open_at, "the record never closes: the line ends first")
                              : py_error(&r, key_at, "expected a field name");
        }
        if (!st && !key.p) sb_puts(&key, ""); /* '' is a key too */
        py_field *grown = st ? NULL : realloc(f, (n + 1) * sizeof *f);
        if (grown) f = grown;
        if (!st && (!grown || key.oom)) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        if (st) {
            free(key.p);
            break;
        }
        r.at++; /* '=' or ':' */
        f[n] = (py_field){.key = key.p, .column = (unsigned)key_at};
        st = read_value(&r, &f[n].value);
        n++;
    }
    if (st && st != KVC_ERR_NOMEM && r.hit_end)
        st = py_error(&r, open_at, "the record never closes: the text ends first (was the line cut off?)");
    if (st) {
        py_fields_free(f, n);
        return st;
    }
    *out = f;
    *nout = n;
    return KVC_OK;
}

int py_str_repr(const char *s, strbuf *out)
{
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p > 0x7f) return 0;
    char quote = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    sb_putc(out, quote);
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '\\' || ch == (unsigned char)quote) sb_printf(out, "\\%c", ch);
        else if (ch == '\t') sb_puts(out, "\\t");
        else if (ch == '\n') sb_puts(out, "\\n");
        else if (ch == '\r') sb_puts(out, "\\r");
        else if (ch < 0x20 || ch == 0x7f) sb_printf(out, "\\x%02x", ch);
        else sb_putc(out, (char)ch);
    }
    sb_putc(out, quote);
    return 1;
}
