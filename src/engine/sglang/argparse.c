/* Python's argparse as SGLang's launch-flag parser runs it, over one
 * release's option table (flag_table.c): what a list of argv words means
 * to `parser.parse_args(argv)` in that release, or the error it exits with.
 *
 * Modelled on CPython 3.11's Lib/argparse.py (the Python of the oracle's
 * venv; 3.10 to 3.13 word these messages identically; 3.14 prints choices
 * without quotes): _parse_optional classifies every word first (so
 * "ambiguous option" comes before any other error), consume_optional takes
 * each option's values left to right (type, then choices), and what no
 * option takes ends in parse_args' "unrecognized arguments". SGLang's
 * parsers are plain ArgumentParsers with allow_abbrev, prefix "-", no
 * positionals and no option that looks like a negative number
 * (gen_flags.py asserts it of every release). */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the options */

/* `option` against the first `n` bytes of `name`: <0, 0 (equal), >0. */
static int cmp_n(const char *option, const char *name, size_t n)
{
    int c = strncmp(option, name, n);
    if (c) return c;
    return option[n] != '\0';
}

kvc_status option_index_build(option_index *idx, int release, kvc_diag *diag)
{
    memset(idx, 0, sizeof *idx);
    size_t n = release < 0 ? SGLANG_NFLAG_ROWS : SGLANG_PARSERS[release].n;
    idx->rows = malloc((n ? n : 1) * sizeof *idx->rows);
    idx->rank = calloc(SGLANG_NFLAG_ROWS, sizeof *idx->rank);
    if (!idx->rows || !idx->rank) {
        option_index_free(idx);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    for (size_t i = 0; i < n && release >= 0; i++) idx->rank[SGLANG_PARSERS[release].order[i]] = (uint16_t)i;
    for (unsigned i = 0; i < SGLANG_NFLAG_ROWS; i++) { /* already sorted: keep the release's rows */
        const sglang_flag_row *row = &SGLANG_FLAG_ROWS[SGLANG_FLAG_SORTED[i]];
        if (release < 0 || row->releases & SGLANG_RELEASE_BIT(release)) idx->rows[idx->n++] = row;
    }
    return KVC_OK;
}

void option_index_free(option_index *idx)
{
    free(idx->rows);
    free(idx->rank);
    memset(idx, 0, sizeof *idx);
}

/* The first row whose option is >= name[0..n), by binary search. */
static size_t lower_bound(const option_index *idx, const char *name, size_t n)
{
    size_t lo = 0, hi = idx->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_n(idx->rows[mid]->option, name, n) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

const sglang_flag_row *option_find(const option_index *idx, const char *name, size_t n)
{
    size_t i = lower_bound(idx, name, n);
    return i < idx->n && cmp_n(idx->rows[i]->option, name, n) == 0 ? idx->rows[i] : NULL;
}

uint64_t option_releases(const option_index *idx, const char *name, size_t n)
{
    uint64_t mask = 0;
    for (size_t i = lower_bound(idx, name, n); i < idx->n && cmp_n(idx->rows[i]->option, name, n) == 0; i++)
        mask |= idx->rows[i]->releases;
    return mask;
}

/* Rows [*lo, *hi) whose options start with name[0..n). */
static void prefix_range(const option_index *idx, const char *name, size_t n, size_t *lo, size_t *hi)
{
    *lo = lower_bound(idx, name, n);
    size_t i = *lo;
    while (i < idx->n && strncmp(idx->rows[i]->option, name, n) == 0) i++;
    *hi = i;
}

/* ------------------------------------------------------- Python's values */

void py_repr(strbuf *sb, const char *s)
{
    /* str.__repr__: single quotes unless the text has one and no double */
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    /* kvcheck's cut: a value past REPR_MAX bytes ends in "..." after its quote */
    enum { REPR_MAX = 200 };
    size_t n = strlen(s);
    if (n > REPR_MAX) {
        n = REPR_MAX;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--; /* not inside a UTF-8 character */
    }
    sb_putc(sb, q);
    for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)s + n; p++) {
        if (*p == (unsigned char)q || *p == '\\') sb_printf(sb, "\\%c", *p);
        else if (*p == '\n') sb_puts(sb, "\\n");
        else if (*p == '\t') sb_puts(sb, "\\t");
        else if (*p == '\r') sb_puts(sb, "\\r");
        else if (*p < 0x20 || *p == 0x7f) sb_printf(sb, "\\x%02x", *p);
        else sb_putc(sb, (char)*p);
    }
    sb_putc(sb, q);
    if (s[n]) sb_puts(sb, "...");
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* ASCII digits at *p (regex \\d+): their count, *p moved past them. */
static size_t digits_only(const char **p)
{
    size_t n = 0;
    while (is_digit(**p)) (*p)++, n++;
    return n;
}

/* Digits with single underscores between them (PEP 515), at *p: their
 * count, *p moved past them; `out` (may be NULL) gets the digits. */
static size_t digits(const char **p, strbuf *out)
{
    size_t n = 0;
    const char *s = *p;
    while (is_digit(*s) || (*s == '_' && n && is_digit(s[1]))) {
        if (*s != '_') {
            if (out) sb_putc(out, *s);
            n++;
        }
        s++;
    }
    *p = s;
    return n;
}

int py_int(const char *text, char *out, size_t size)
{
    /* int(str): surrounding whitespace, a sign, decimal digits with '_' */
    char ascii[SETTING_VALUE_LEN];
    if (!py_number_ascii(text, ascii, sizeof ascii)) return 0;
    const char *s = ascii;
    while (is_space(*s)) s++;
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    strbuf d = {0};
    size_t n = digits(&s, &d);
    while (is_space(*s)) s++;
    int ok = n && !*s && !d.oom;
    if (ok && out) {
        const char *v = d.p;
        while (v[0] == '0' && v[1]) v++; /* 007 is 7 */
        str_printf(out, size, "%s%s", neg && strcmp(v, "0") != 0 ? "-" : "", v);
    }
    free(d.p);
    return ok;
}

int py_float(const char *text, char *out, size_t size)
{
    /* float(str): whitespace, a sign, then inf, infinity, nan (any case)
     * or digits[.digits][e[sign]digits] with '_' between digits */
    char ascii[SETTING_VALUE_LEN];
    if (!py_number_ascii(text, ascii, sizeof ascii)) return 0;
    const char *s = ascii;
    while (is_space(*s)) s++;
    strbuf d = {0};
    if (*s == '-' || *s == '+') sb_putc(&d, *s++);
    static const char *const WORDS[] = {"infinity", "inf", "nan"};
    int ok = 0;
    for (size_t i = 0; i < COUNT_OF(WORDS) && !ok; i++) {
        size_t n = strlen(WORDS[i]);
        size_t k = 0;
        while (k < n && (s[k] | 0x20) == WORDS[i][k]) k++;
        if (k < n) continue;
        const char *e = s + n;
        while (is_space(*e)) e++;
        if (*e) continue;
        sb_puts(&d, WORDS[i]);
        ok = 1;
    }
    if (!ok) {
        size_t n = digits(&s, &d);
        if (*s == '.') {
            sb_putc(&d, *s++);
            n += digits(&s, &d);
        }
        ok = n > 0;
        if (ok && (*s == 'e' || *s == 'E')) {
            sb_putc(&d, *s++);
            if (*s == '-' || *s == '+') sb_putc(&d, *s++);
            ok = digits(&s, &d) > 0;
        }
        while (is_space(*s)) s++;
        ok = ok && !*s;
    }
    ok = ok && !d.oom;
    if (ok && out) str_printf(out, size, "%s", d.p);
    free(d.p);
    return ok;
}

/* -------------------------------------------------------------- the parse */

/* How _parse_optional reads a word: 'A' an argument, 'O' an option
 * (`row` NULL: one the parser does not know), '-' the first "--". */
typedef struct word_class {
    char type;
    const sglang_flag_row *row;
    const char *explicit_arg; /* after '=', or NULL */
} word_class;

static unsigned distance(const char *a, const char *b, unsigned cap);

/* 1 when an option word may be one of the flags whose value is a secret (flags.c's secret dests), misspelt (within a
 * third of its length) or cut short: kvcheck's argparse messages then show its value as *** (SGLang's would repeat
 * it; kvcheck's reports go to CI logs and issues). */
static int secret_like(const char *word)
{
    static const char *const SECRET_OPTIONS[] = {"--api-key", "--admin-api-key", "--ssl-keyfile-password",
                                                 "--watermark-config"};
    char name[80];
    str_printf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
    for (size_t i = 0; i < COUNT_OF(SECRET_OPTIONS) && word[0] == '-'; i++) {
        const char *o = SECRET_OPTIONS[i];
        size_t n = strlen(name);
        if ((n > 2 && strncmp(o, name, n) == 0) || distance(name, o, (unsigned)strlen(o) / 3) <= strlen(o) / 3)
            return 1;
    }
    return 0;
}
/* `word` as kvcheck's messages show it: an option that may be a secret's with its "=value" as "=***" */
static void show_word(strbuf *msg, const char *word)
{
    const char *eq = strchr(word, '=');
    if (eq && secret_like(word)) sb_printf(msg, "%.*s=***", (int)(eq - word), word);
    else sb_puts(msg, word);
}

/* "ambiguous option: --kv could match --kv-cache-dtype, --kv-events-config":
 * the matches in the parser's registration order. */
static kvc_status ambiguous(const option_index *idx, const char *word, size_t lo, size_t hi, strbuf *msg)
{
    sb_puts(msg, "ambiguous option: ");
    show_word(msg, word);
    sb_puts(msg, " could match ");
    size_t n = hi - lo, printed = 0;
    int *done = calloc(n, sizeof *done);
    if (!done) return KVC_ERR_NOMEM;
    for (; printed < n; printed++) { /* n is small: a selection by rank */
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && (best == n || idx->rank[idx->rows[lo + i] - SGLANG_FLAG_ROWS] <
                                              idx->rank[idx->rows[lo + best] - SGLANG_FLAG_ROWS]))
                best = i;
        done[best] = 1;
        sb_printf(msg, "%s%s", printed ? ", " : "", idx->rows[lo + best]->option);
    }
    free(done);
    return KVC_OK;
}

/* "-1", "-.5": what argparse's _negative_number_matcher (^-\d+$|^-\d*\.\d+$) takes for a value; \d is any Unicode
 * decimal digit, and $ matches before a last newline too. */
static int negative_number(const char *word)
{
    char w[SETTING_VALUE_LEN];
    if (word[0] != '-' || !py_number_ascii(word, w, sizeof w)) return 0;
    size_t n = strlen(w);
    if (n && w[n - 1] == '\n') w[n - 1] = '\0';
    const char *p = w + 1;
    while (is_digit(*p)) p++;
    if (!*p) return p > w + 1;
    if (*p != '.') return 0;
    const char *q = ++p;
    while (is_digit(*p)) p++;
    return !*p && p > q;
}

/* _parse_optional for one word (after any "--" every word is 'A'). */
static kvc_status classify(const option_index *idx, const char *w, word_class *out, strbuf *msg)
{
    memset(out, 0, sizeof *out);
    out->type = 'A';
    if (w[0] != '-') return KVC_OK;
    size_t len = strlen(w);
    if ((out->row = option_find(idx, w, len))) {
        out->type = 'O';
        return KVC_OK;
    }
    if (len == 1) return KVC_OK; /* "-" */
    const char *eq = strchr(w, '=');
    if (eq && (out->row = option_find(idx, w, (size_t)(eq - w)))) {
        out->type = 'O';
        out->explicit_arg = eq + 1;
        return KVC_OK;
    }
    /* _get_option_tuples: "--x" matches options starting with it; "-x" only
     * options starting with it or the short option "-x" with the rest as its value */
    size_t plen = w[1] == '-' && eq ? (size_t)(eq - w) : len, lo, hi;
    prefix_range(idx, w, plen, &lo, &hi);
    const sglang_flag_row *short_opt = w[1] != '-' ? option_find(idx, w, 2) : NULL;
    if (short_opt && !(lo < hi && idx->rows[lo] == short_opt)) {
        if (hi > lo) return ambiguous(idx, w, lo, hi, msg) ? KVC_ERR_NOMEM : KVC_ERR_CONFIG;
        out->type = 'O';
        out->row = short_opt;
        out->explicit_arg = w + 2;
        return KVC_OK;
    }
    if (hi - lo > 1) return ambiguous(idx, w, lo, hi, msg) ? KVC_ERR_NOMEM : KVC_ERR_CONFIG;
    if (hi - lo == 1) {
        out->type = 'O';
        out->row = idx->rows[lo];
        out->explicit_arg = w[1] == '-' && eq ? eq + 1 : NULL;
        return KVC_OK;
    }
    if (negative_number(w) || strchr(w, ' ')) return KVC_OK;
    out->type = 'O'; /* an option nobody knows: "unrecognized arguments" */
    return KVC_OK;
}

/* `def`'s type takes `s`: json.loads (NaN and Infinity included), or json_list_type's orjson.loads (pyjson.c) */
static int json_value(const sglang_flag_def *def, const char *s)
{
    strbuf err = {0};
    int ok = pyjson_loads(s, strcmp(def->type_name, "json_list_type") == 0, NULL, NULL, NULL, &err);
    free(err.p);
    return ok;
}

/* How argparse words a value its `type=` refused: the ArgumentTypeError's
 * own text, or "invalid NAME value: 'x'" for any other error. */
static void type_refusal(const sglang_flag_def *def, const char *value, strbuf *msg)
{
    const char *at = def->type_message ? strstr(def->type_message, "{value}") : NULL;
    if (at) {
        sb_printf(msg, "argument %s: %.*s%s%s", def->names, (int)(at - def->type_message), def->type_message, value,
                  at + 7);
        return;
    }
    sb_printf(msg, "argument %s: invalid %s value: ", def->names, def->type_name);
    py_repr(msg, value);
}

/* SGLang's human_readable_int: "25.6k", "1Ki" or what int() takes; 0 with
 * its ArgumentTypeError text in `msg` (IEC suffixes refuse decimals with a
 * text of their own; sglang 0.5.23: python/sglang/srt/utils/common.py:3394-3430). */
static int human_int(const sglang_flag_def *def, const char *value, strbuf *msg)
{
    char v[256];
    while (is_space(*value)) value++;
    str_copy(v, sizeof v, value);
    for (size_t n = strlen(v); n && is_space(v[n - 1]);) v[--n] = '\0';
    const char *p = v;
    size_t whole = digits_only(&p), frac = 0;
    const char *dot = *p == '.' ? p : NULL;
    if (whole && dot) {
        p++;
        frac = digits_only(&p);
    }
    static const char *const SUFFIXES[] = {"Ki", "Mi", "Gi", "Ti", "k", "M", "G", "T"};
    for (size_t i = 0; whole && (!dot || frac) && i < COUNT_OF(SUFFIXES); i++) {
        if (strcmp(p, SUFFIXES[i]) != 0) continue;
        if (i < 4 && dot) {
            sb_printf(msg, "argument %s: Decimals are not allowed with IEC suffixes like '%s'. Use an integer IEC "
                           "value such as '%.*s%s', or an SI value such as '%.*s%c'.",
                      def->names, SUFFIXES[i], (int)(dot - v), v, SUFFIXES[i], (int)(p - v), v, SUFFIXES[i][0]);
            return 0;
        }
        return 1;
    }
    if (py_int(v, NULL, 0)) return 1;
    type_refusal(def, v, msg);
    return 0;
}

/* argparse's _get_values checks: `type=` first, then `choices`. */
int argparse_check_value(const sglang_flag_def *def, const char *value, strbuf *msg)
{
    char num[SETTING_VALUE_LEN];
    const char *v = value;
    if (def->type == SGT_INT) {
        if (!py_int(value, num, sizeof num)) {
            sb_printf(msg, "argument %s: invalid int value: ", def->names);
            py_repr(msg, value);
            return 0;
        }
        v = num;
    } else if (def->type == SGT_FLOAT && !py_float(value, NULL, 0)) {
        sb_printf(msg, "argument %s: invalid float value: ", def->names);
        py_repr(msg, value);
        return 0;
    } else if (def->type == SGT_HUMAN_INT && !human_int(def, value, msg)) {
        return 0;
    } else if (def->type == SGT_JSON && !json_value(def, value)) {
        type_refusal(def, value, msg);
        return 0;
    }
    if (!def->choices) return 1;
    const char *const *ch = SGLANG_CHOICES[def->choices];
    for (size_t i = 0; ch[i]; i++)
        if (strcmp(ch[i], v) == 0) return 1;
    sb_printf(msg, "argument %s: invalid choice: ", def->names);
    if (def->type == SGT_INT) sb_puts(msg, v); /* repr of an int */
    else py_repr(msg, v);
    sb_puts(msg, " (choose from ");
    for (size_t i = 0; ch[i]; i++) {
        if (i) sb_puts(msg, ", ");
        if (def->type == SGT_INT) sb_puts(msg, ch[i]);
        else py_repr(msg, ch[i]);
    }
    sb_puts(msg, ")");
    return 0;
}

/* How many of the `avail` 'A' words after an option it takes, or -1 with
 * argparse's _match_argument error. */
static long take_count(const sglang_flag_def *def, size_t avail, strbuf *msg)
{
    switch (def->nargs) {
    case SGN_ONE:
        if (avail >= 1) return 1;
        sb_printf(msg, "argument %s: expected one argument", def->names);
        return -1;
    case SGN_OPTIONAL: return avail ? 1 : 0;
    case SGN_ANY: return (long)avail;
    case SGN_SOME:
        if (avail >= 1) return (long)avail;
        sb_printf(msg, "argument %s: expected at least one argument", def->names);
        return -1;
    default:
        if (avail >= (size_t)def->nargs) return def->nargs;
        sb_printf(msg, "argument %s: expected %d argument%s", def->names, def->nargs, def->nargs == 1 ? "" : "s");
        return -1;
    }
}

int array_reserve(void *array, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t grown = *cap ? *cap * 2 : 16;
    void *old, *p;
    memcpy(&old, array, sizeof old);
    if (grown > SIZE_MAX / size || !(p = realloc(old, grown * size))) return -1;
    memcpy(array, &p, sizeof p);
    *cap = grown;
    return 0;
}

static kvc_status push_use(argparse_result *r, const flag_use *u)
{
    if (array_reserve(&r->uses, &r->cap, r->nuses, sizeof *r->uses)) return KVC_ERR_NOMEM;
    r->uses[r->nuses++] = *u;
    return KVC_OK;
}

static kvc_status push_extra(argparse_result *r, size_t i)
{
    if (array_reserve(&r->extras, &r->extras_cap, r->nextras, sizeof *r->extras)) return KVC_ERR_NOMEM;
    r->extras[r->nextras++] = i;
    return KVC_OK;
}

void argparse_result_free(argparse_result *r)
{
    free(r->uses);
    free(r->extras);
    free(r->msg.p);
    memset(r, 0, sizeof *r);
}

/* LoRAPathAction (--lora-paths) at parse time: an item that, stripped (str.strip()), starts with '{' and ends with
 * '}' is JSON (json.loads) and must hold both keys (sglang 0.5.3rc2: python/sglang/srt/server_args.py:3267-3283;
 * 0.5.23: python/sglang/srt/arg_groups/argparse_actions.py:8-25). 0 with the exception it raises in `msg`. */
static void lora_keys(void *found, const pyjson_member *m)
{
    *(unsigned *)found |= (strcmp(m->key, "lora_name") == 0) | (strcmp(m->key, "lora_path") == 0) << 1;
}
static int lora_path_item(const char *value, strbuf *msg)
{
    size_t begin, end;
    py_strip(value, &begin, &end);
    if (end - begin < 2 || value[begin] != '{' || value[end - 1] != '}') return 1;
    char *item = malloc(end - begin + 1);
    if (!item) return sb_puts(msg, "out of memory"), 0;
    memcpy(item, value + begin, end - begin);
    item[end - begin] = '\0';
    unsigned found = 0;
    py_kind top = PY_OTHER;
    int ok = pyjson_loads(item, 0, &top, lora_keys, &found, msg), keys = top == PY_DICT && found == 3;
    if (ok && !keys) {
        sb_puts(msg, "AssertionError: ");
        py_repr(msg, item);
        sb_puts(msg, " looks like a JSON str, but it does not contain 'lora_name' and 'lora_path' keys.");
    }
    free(item);
    return ok && keys;
}

/* One option at word i: its values checked, its use recorded; the words
 * it consumed counted in *used. */
static kvc_status consume_optional(const char *const *words, const word_class *cls,
                                   size_t n, size_t i, argparse_result *r, size_t *used)
{
    const sglang_flag_row *row = cls[i].row;
    const sglang_flag_def *def = &SGLANG_FLAG_DEFS[row->def];
    flag_use u = {.def = def, .option = row->option, .word = i, .explicit_arg = cls[i].explicit_arg};
    *used = 1;
    if (u.explicit_arg) {
        if (def->nargs == 0) {
            sb_printf(&r->msg, "argument %s: ignored explicit argument ", def->names);
            py_repr(&r->msg, u.explicit_arg);
            return KVC_ERR_CONFIG;
        }
        if (take_count(def, 1, &r->msg) != 1) {
            r->msg.len = 0;
            sb_printf(&r->msg, "argument %s: expected %d arguments", def->names, def->nargs);
            return KVC_ERR_CONFIG;
        }
        /* 3.11's _get_values drops a "--" from the values: "--flag=--" stores [] */
        u.nvalues = strcmp(u.explicit_arg, "--") != 0;
        if (u.nvalues && !argparse_check_value(def, u.explicit_arg, &r->msg)) return KVC_ERR_CONFIG;
    } else if (def->nargs != 0) {
        size_t avail = 0;
        while (i + 1 + avail < n && cls[i + 1 + avail].type == 'A') avail++;
        long take = take_count(def, avail, &r->msg);
        if (take < 0) return KVC_ERR_CONFIG;
        u.first = i + 1;
        u.nvalues = (size_t)take;
        for (size_t k = 0; k < u.nvalues; k++)
            if (!argparse_check_value(def, words[i + 1 + k], &r->msg)) return KVC_ERR_CONFIG;
        *used += u.nvalues;
    }
    if (def->action == SGA_HELP || def->action == SGA_VERSION) {
        sb_printf(&r->msg, "%s prints %s and exits", row->option, def->action == SGA_HELP ? "its help" : "its version");
        r->exits = 1;
        return KVC_ERR_CONFIG;
    }
    if (def->action == SGA_DEPRECATED_ERROR) {
        sb_puts(&r->msg, def->message);
        return KVC_ERR_CONFIG;
    }
    if (def->action == SGA_DEPRECATED_RAISE) {
        sb_printf(&r->msg, "%s", def->message);
        r->raises = 1;
        return KVC_ERR_CONFIG;
    }
    for (size_t k = 0; def->action == SGA_CUSTOM && k < u.nvalues; k++)
        if (!lora_path_item(u.explicit_arg ? u.explicit_arg : words[u.first + k], &r->msg)) {
            r->raises = 1;
            return KVC_ERR_CONFIG;
        }
    return push_use(r, &u) ? KVC_ERR_NOMEM : KVC_OK;
}

kvc_status argparse_run(const option_index *idx, const char *const *words, size_t n, argparse_result *r)
{
    memset(r, 0, sizeof *r);
    word_class *cls = malloc((n ? n : 1) * sizeof *cls);
    if (!cls) return KVC_ERR_NOMEM;
    kvc_status st = KVC_OK;
    int after_dashes = 0;
    for (size_t i = 0; i < n && !st; i++) {
        if (after_dashes) {
            cls[i] = (word_class){'A', NULL, NULL};
        } else if (strcmp(words[i], "--") == 0) {
            cls[i] = (word_class){'-', NULL, NULL};
            after_dashes = 1;
        } else if ((st = classify(idx, words[i], &cls[i], &r->msg))) {
            r->at = i;
        }
    }
    for (size_t i = 0; i < n && !st;) {
        if (cls[i].type == 'O' && cls[i].row) {
            size_t used = 0;
            st = consume_optional(words, cls, n, i, r, &used);
            if (st) r->at = i;
            i += used;
        } else {
            /* unknown options, their words, words no option took: extras */
            st = push_extra(r, i) ? KVC_ERR_NOMEM : KVC_OK;
            i++;
        }
    }
    free(cls);
    if (!st && r->nextras) {
        sb_puts(&r->msg, "unrecognized arguments:");
        for (size_t k = 0; k < r->nextras; k++) { /* the word after a secret's option is its value */
            sb_putc(&r->msg, ' ');
            const char *w = words[r->extras[k]];
            int value = k && words[r->extras[k - 1]][0] == '-' && !strchr(words[r->extras[k - 1]], '=') &&
                        secret_like(words[r->extras[k - 1]]) && w[0] != '-';
            if (value) sb_puts(&r->msg, "***");
            else show_word(&r->msg, w);
        }
        r->at = r->extras[0];
        st = KVC_ERR_CONFIG;
    }
    if (r->msg.oom) st = KVC_ERR_NOMEM;
    return st;
}

/* ------------------------------------------------------- nearest spellings */

/* Levenshtein distance of a and b (each at most 64 bytes looked at), with
 * '_' the same as '-' and case ignored, as a person misremembers a flag;
 * anything over `cap` is cap + 1 (the rows stop as soon as all exceed it). */
static unsigned distance(const char *a, const char *b, unsigned cap)
{
    enum { MAX = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX) la = MAX;
    if (lb > MAX) lb = MAX;
    if ((la > lb ? la - lb : lb - la) > cap) return cap + 1; /* each missing byte is an edit */
    unsigned row[MAX + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0], least;
        row[0] = least = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            char x = a[i - 1] == '_' ? '-' : (char)(a[i - 1] | 0x20), y = b[j - 1] == '_' ? '-' : (char)(b[j - 1] | 0x20);
            unsigned best = diag + (x != y);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = row[j];
            row[j] = best;
            if (best < least) least = best;
        }
        if (least > cap) return cap + 1;
    }
    return row[lb];
}

unsigned nearest_options(const option_index *idx, const char *word, const char **out, unsigned max)
{
    const char *eq = strchr(word, '=');
    char name[80];
    size_t n = eq ? (size_t)(eq - word) : strlen(word);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, word, n);
    name[n] = '\0';
    unsigned dist[8], found = 0;
    if (max > COUNT_OF(dist)) max = COUNT_OF(dist);
    unsigned limit = n / 3 > 2 ? (unsigned)(n / 3) : 2;
    for (size_t i = 0; i < idx->n && max; i++) { /* sorted by name: ties keep that order */
        const char *opt = idx->rows[i]->option;
        if (opt[1] != '-') continue;
        unsigned d = distance(name, opt, limit);
        if (d > limit || (found == max && d >= dist[max - 1])) continue;
        unsigned k = found < max ? found++ : max - 1;
        for (; k > 0 && dist[k - 1] > d; k--) {
            dist[k] = dist[k - 1];
            out[k] = out[k - 1];
        }
        dist[k] = d;
        out[k] = opt;
    }
    /* only the closest: one spelled alike ('_' for '-', case) stands alone */
    unsigned keep = 0;
    while (keep < found && dist[keep] <= dist[0] + (dist[0] ? 1u : 0u)) keep++;
    return keep;
}
