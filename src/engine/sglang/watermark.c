/* SGLang's text watermarking (0.5.22+): --watermark-config, read early in
 * the resolution by handle_watermark_config (sglang 0.5.22: python/sglang/
 * srt/arg_groups/pipeline.py:71, serving_hook.py:33-44, sampling/
 * watermarking/config.py:75-117; 0.5.23 the same), and --enable-watermark's
 * checks in check_server_args, after the kv canary's and before load
 * publishing's (check_watermark_server_args, 0.5.22: arg_groups/
 * validation_hook.py:34-106, called at :378; 0.5.23: :35-107, :379).
 *
 * The config is inline JSON (when it starts with '{' once Python's
 * whitespace is stripped) or a file path. kvcheck reads the inline JSON as
 * json.loads does (pyjson.c) and checks it in the loader's order; a file
 * SGLang reads on the worker's host, so kvcheck declines such a worker
 * rather than read a file here that may not be the one the worker reads
 * (only a path that is a directory on every host, "" "." ".." "/", is
 * refused: SGLang cannot read it). The config holds the watermark key:
 * kvcheck never repeats its value (flags.c and argparse.c take
 * watermark_config, watermark_key and watermark_key_b as secrets, as
 * SGLang's repr hides them).
 *
 * Not reached: the loader's 4096-byte limit (kvcheck takes values of up to
 * 4095 bytes: a longer one is an input error of kvcheck's own); the checks'
 * --device cuda (kvcheck declines any other device first, rules.c
 * check_unmodelled); the keys' and the context window's second parse (the
 * loader refused a bad one first); a custom sampling backend (argparse's
 * choices are the built-in ones); --dllm-algorithm (kvcheck declines it
 * first: rules.c check_unmodelled). Declined: JSON nested deeper than kvcheck knows
 * Python's recursion limit lets json.loads read (about 900 levels), and
 * numbers longer than pyjson_member keeps. */
#include "engine/sglang/rules.h"

#include <stdlib.h>
#include <string.h>

/* The loader's verdict on an inline config: the first refusal, WM_OK when it takes it. */
enum wm_verdict {
    WM_OK, WM_DECLINE, WM_FILE, WM_ENCODE, WM_JSON, WM_OBJECT, WM_UNKNOWN, WM_KEY_TYPE, WM_KEY_DIGITS, WM_KEY_HEX,
    WM_WINDOW, WM_NUMBER, WM_BOOLEAN
};
#define WCE "WatermarkConfigError: "
static const char *const WM_MESSAGES[] = {
    [WM_JSON] = WCE "failed to read watermark config JSON",
    [WM_OBJECT] = WCE "watermark config must be a JSON object",
    [WM_UNKNOWN] = WCE "watermark config contains unknown fields",
    [WM_KEY_TYPE] = WCE "watermark key must be a hex string",
    [WM_KEY_DIGITS] = WCE "watermark key must contain 1 to 16 hex digits",
    [WM_KEY_HEX] = WCE "watermark key must contain only hex digits",
    [WM_WINDOW] = WCE "watermark config context_window must be an integer from 1 to 64",
    [WM_NUMBER] = WCE "watermark config {name} must be a number",
    [WM_BOOLEAN] = WCE "watermark config {name} must be a boolean",
};
#undef WCE

/* WatermarkServerConfig's fields, in the loader's order of checks */
enum wm_field { F_KEY, F_KEY_B, F_WINDOW, F_MIXING, F_MAX, F_DEFAULT, F_ENFORCE, F_COUNT };
static const char *const FIELD_NAMES[F_COUNT] = {
    "key", "key_b", "context_window", "mixing_probability", "max_probability", "default_enabled", "enforce_all"};

/* The config as the loader leaves it: each field's last member (dict keeps the last), and a key none is. */
typedef struct wm_config {
    pyjson_member field[F_COUNT];
    int given[F_COUNT];
    int unknown;
    const char *name; /* the field a number's or a boolean's message names */
    char error[160];  /* WM_ENCODE's UnicodeEncodeError */
    enum wm_verdict verdict;
} wm_config;

static void keep_field(void *arg, const pyjson_member *m)
{
    wm_config *w = arg;
    for (int f = 0; f < F_COUNT; f++)
        if (strcmp(m->key, FIELD_NAMES[f]) == 0) {
            w->field[f] = *m, w->given[f] = 1;
            return;
        }
    w->unknown = 1;
}
/* raw.get(name) is not None */
static int present(const wm_config *w, enum wm_field f) { return w->given[f] && w->field[f].kind != PY_NONE; }

/* parse_watermark_key: a str of 1 to 16 hex digits after an optional 0x (in any case). A code point past ASCII, which
 * pyjson_member keeps as 0x7F, is no hex digit, and lower() turns none into '0' or 'x'. Pure. */
static enum wm_verdict key_verdict(const pyjson_member *m)
{
    if (m->kind != PY_STR) return WM_KEY_TYPE;
    int prefix = m->len >= 2 && m->text[0] == '0' && (m->text[1] == 'x' || m->text[1] == 'X');
    size_t digits = m->len - (prefix ? 2 : 0);
    if (digits < 1 || digits > 16) return WM_KEY_DIGITS;
    const char *d = m->text + (prefix ? 2 : 0);
    return strspn(d, "0123456789abcdefABCDEF") == digits ? WM_OK : WM_KEY_HEX;
}
/* an int from 1 to 64 (JSON's ints have no leading zeros; true and false are bools) */
static int window_ok(const pyjson_member *m)
{
    long v = m->len <= 2 ? strtol(m->text, NULL, 10) : 0;
    return m->kind == PY_INT && v >= 1 && v <= 64;
}

/* payload.encode("utf-8") on argv's surrogate escapes (each byte that is not UTF-8 is one code point):
 * UnicodeEncodeError's text for the first run of them into `out`; 0 when the text is UTF-8. Pure. */
static int encode_error(const char *text, char *out, size_t size)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t len = strlen(text), at = 0, i = 0, k, run = 0;
    while (i < len && (k = utf8_len(p + i, len - i))) i += k, at++;
    if (i >= len) return 0;
    while (i + run < len && !utf8_len(p + i + run, len - i - run)) run++;
    if (run == 1)
        snprintf(out, size, "UnicodeEncodeError: 'utf-8' codec can't encode character '\\udc%02x' in position %zu: "
                 "surrogates not allowed", p[i], at);
    else
        snprintf(out, size, "UnicodeEncodeError: 'utf-8' codec can't encode characters in position %zu-%zu: "
                 "surrogates not allowed", at, at + run - 1);
    return 1;
}

/* load_watermark_config's verdict on the inline config `text` (sampling/watermarking/config.py:80-117), `w` the
 * fields it sets. Pure. */
static enum wm_verdict load_inline(const char *text, wm_config *w)
{
    if (encode_error(text, w->error, sizeof w->error)) return WM_ENCODE; /* not caught: it ends the start-up */
    strbuf err = {0};
    py_kind top = PY_OTHER;
    int ok = pyjson_loads(text, 0, &top, keep_field, w, &err), deep = !ok && err.p && strstr(err.p, "Recursion");
    free(err.p);
    if (!ok) return deep ? WM_DECLINE : WM_JSON;
    if (top != PY_DICT) return WM_OBJECT;
    if (w->unknown) return WM_UNKNOWN;
    for (enum wm_field f = F_KEY; f <= F_KEY_B; f++) {
        enum wm_verdict v = present(w, f) ? key_verdict(&w->field[f]) : WM_OK;
        if (v) return v;
    }
    if (present(w, F_WINDOW) && !window_ok(&w->field[F_WINDOW])) return WM_WINDOW;
    int cut = 0; /* a float longer than pyjson_member keeps: its value unread, once the loader takes the rest */
    for (enum wm_field f = F_MIXING; f <= F_MAX; f++) {
        const pyjson_member *m = &w->field[f];
        if (present(w, f) && m->kind != PY_INT && m->kind != PY_FLOAT) return w->name = FIELD_NAMES[f], WM_NUMBER;
        cut |= present(w, f) && m->kind == PY_FLOAT && m->len >= sizeof m->text;
    }
    for (enum wm_field f = F_DEFAULT; f <= F_ENFORCE; f++)
        if (present(w, f) && w->field[f].kind != PY_TRUE && w->field[f].kind != PY_FALSE)
            return w->name = FIELD_NAMES[f], WM_BOOLEAN;
    return cut ? WM_DECLINE : WM_OK;
}

/* 1 when --watermark-config is a path: SGLang reads the file (config.py:76-79) */
static int config_path(const ctx *c)
{
    const setting *s = &c->set->s[SET_WATERMARK_CONFIG];
    size_t begin, end;
    py_strip(s->value, &begin, &end);
    return s->set && s->value[begin] != '{';
}
/* The loader's verdict: a path is a file SGLang reads on the worker's host (WM_FILE), unless it is a directory on
 * every host, which os.fdopen refuses with IsADirectoryError, an OSError (config.py:60-74; "" is Path's "."). */
static void load(const ctx *c, wm_config *w)
{
    const setting *s = &c->set->s[SET_WATERMARK_CONFIG];
    memset(w, 0, sizeof *w);
    int directory = !s->value[0] || !strcmp(s->value, ".") || !strcmp(s->value, "..") || !strcmp(s->value, "/");
    w->verdict = !s->set ? WM_OK : !config_path(c) ? load_inline(s->value, w) : directory ? WM_JSON : WM_FILE;
}
/* the config as the loader left it: the view watermark_check hands the rows */
static const wm_config *loaded(const ctx *c) { return c->view.watermark; }
static int w_refused(const ctx *c)
{
    enum wm_verdict v = loaded(c)->verdict;
    return v != WM_OK && v != WM_DECLINE && v != WM_FILE;
}

/* The values check_watermark_server_args reads: the loader's, else ServerArgs' defaults (arg_groups/fields/exec_.py:
 * watermark_mixing_probability 0.5, watermark_max_probability 1.0, the others None or False). */
static double number_or(const wm_config *w, enum wm_field f, double dflt)
{
    return present(w, f) ? strtod(w->field[f].text, NULL) : dflt; /* strtod reads NaN and Infinity as Python does */
}
static int enabled(const ctx *c) { return c->set->s[SET_WATERMARK].set; }
static int w_needs_enable(const ctx *c) { return c->set->s[SET_WATERMARK_CONFIG].set && !enabled(c); }
static int w_key_b_alone(const ctx *c)
{
    const wm_config *w = loaded(c);
    return enabled(c) && present(w, F_KEY_B) && !present(w, F_KEY);
}
static int w_mixing_range(const ctx *c)
{
    const wm_config *w = loaded(c);
    double p = number_or(w, F_MIXING, 0.5);
    return enabled(c) && !(0 < p && p < 1);
}
static int w_mixing_key_b(const ctx *c)
{
    const wm_config *w = loaded(c);
    return enabled(c) && !present(w, F_KEY_B) && number_or(w, F_MIXING, 0.5) != 0.5;
}
static int w_max_range(const ctx *c)
{
    const wm_config *w = loaded(c);
    double p = number_or(w, F_MAX, 1.0);
    return enabled(c) && !(0 < p && p <= 1);
}
static int w_needs_key(const ctx *c)
{
    const wm_config *w = loaded(c);
    int on = (present(w, F_DEFAULT) && w->field[F_DEFAULT].kind == PY_TRUE) ||
             (present(w, F_ENFORCE) && w->field[F_ENFORCE].kind == PY_TRUE);
    return enabled(c) && on && !present(w, F_KEY);
}
static int w_custom_logit(const ctx *c) { return enabled(c) && c->set->s[SET_CUSTOM_LOGIT].set; }
static int w_pd(const ctx *c)
{
    const setting *m = &c->set->s[SET_DISAGG_MODE];
    return enabled(c) && m->set && strcmp(m->value, "null") != 0;
}
static int w_spec(const ctx *c)
{
    char a[SETTING_VALUE_LEN];
    return enabled(c) && c->set->s[SET_SPEC_ALGO].set &&
           !word_in(rules_spec_resolved(c, a, sizeof a), "NGRAM EAGLE EAGLE3");
}
static int w_pp_spec(const ctx *c) { return enabled(c) && size_of(c, SET_PP) > 1 && c->set->s[SET_SPEC_ALGO].set; }
/* rejection sampling as the speculative hook leaves it: given, turned on by block verification or ROCm's default */
static int w_rejection(const ctx *c) { return enabled(c) && rejection_on(c); }

static int w_rust(const ctx *c) { return enabled(c) && rules_env_bool(&c->set->s[SET_RUST_SERVER_ENV]) == 1; }

/* {refusal}: the loader's message; {algorithm}: the resolved speculative algorithm's repr */
static void watermark_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    const wm_config *w = loaded(c);
    enum wm_verdict v = w->verdict;
    const char *const name[][2] = {{"name", w->name ? w->name : ""}};
    char msg[sizeof f->text[0]];
    sglang_expand(v == WM_ENCODE ? w->error : WM_MESSAGES[v] ? WM_MESSAGES[v] : "", name, COUNT_OF(name), msg,
                  sizeof msg);
    rule_field(f, "refusal", "%s", msg);
    char a[SETTING_VALUE_LEN];
    strbuf sb = {0};
    py_repr(&sb, rules_spec_resolved(c, a, sizeof a));
    rule_field(f, "algorithm", "%s", sb.p ? sb.p : "");
    free(sb.p);
}

#define LOADER "sglang 0.5.22: python/sglang/srt/sampling/watermarking/config.py:"
#define HOOK(a, b) "sglang 0.5.22: python/sglang/srt/arg_groups/validation_hook.py:" a "; 0.5.23: :" b
static const flag_rule RULES[] = {
    {SINCE("0.5.22"), WATERMARK_LOAD, w_refused, SET_WATERMARK_CONFIG, "{refusal}",
     LOADER "60-117 (0.5.23 the same), called at arg_groups/serving_hook.py:37"},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_needs_enable, SET_WATERMARK_CONFIG,
     "ValueError: --watermark-config requires --enable-watermark", HOOK("36", "37")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_key_b_alone, SET_WATERMARK_CONFIG,
     "ValueError: watermark key_b requires a server key", HOOK("56", "57")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_mixing_range, SET_WATERMARK_CONFIG,
     "ValueError: watermark mixing_probability must be strictly between 0 and 1", HOOK("58", "59")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_mixing_key_b, SET_WATERMARK_CONFIG,
     "ValueError: watermark mixing_probability requires key_b", HOOK("62", "63")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_max_range, SET_WATERMARK_CONFIG,
     "ValueError: watermark max_probability must be greater than 0 and at most 1", HOOK("64", "65")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_needs_key, SET_WATERMARK_CONFIG,
     "ValueError: watermark default_enabled and enforce_all require a server key", HOOK("70", "71")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_custom_logit, SET_CUSTOM_LOGIT,
     "ValueError: --enable-watermark is incompatible with --enable-custom-logit-processor", HOOK("74", "75")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_pd, SET_DISAGG_MODE,
     "ValueError: --enable-watermark is not supported with PD disaggregation", HOOK("88", "89")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_spec, SET_SPEC_ALGO,
     "ValueError: --enable-watermark supports speculative algorithms NGRAM, EAGLE, and EAGLE3, got {algorithm}",
     HOOK("90", "91")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_pp_spec, SET_PP,
     "ValueError: --enable-watermark is not supported with pipeline-parallel speculative decoding", HOOK("95", "96")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_rejection, SET_SPEC_REJECTION,
     "ValueError: --enable-watermark is incompatible with --speculative-use-rejection-sampling", HOOK("100", "101")},
    {SINCE("0.5.22"), WATERMARK_SERVER, w_rust, SET_RUST_SERVER_ENV,
     "ValueError: --enable-watermark is not supported with SGLANG_RUST_SERVER", HOOK("105", "106")},
};

/* A config kvcheck does not read: a file, or inline JSON nested deeper than it knows Python reads or holding a number
 * longer than pyjson_member keeps. Its value is not repeated: it may hold the key. */
static kvc_status decline(const ctx *c)
{
    const setting *s = &c->set->s[SET_WATERMARK_CONFIG];
    enum wm_verdict v = loaded(c)->verdict;
    if (c->set->s[SET_PAGE_SIZE].reported || !rel_since(c->rel, "0.5.22") || (v != WM_FILE && v != WM_DECLINE))
        return KVC_OK;
    if (v == WM_FILE)
        return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s: SGLang %s reads the file it names on the worker's "
                        "host and checks it (%s60-117); kvcheck does not model that file, so it cannot judge this "
                        "worker: give the config inline ({...}) to have it checked", s->flag, SGLANG_VERSIONS[c->rel],
                        LOADER);
    return diag_set(c->diag, KVC_ERR_CONFIG, &s->origin, "%s: SGLang %s reads the config as JSON (%s85); this one is "
                    "nested deeper than kvcheck knows Python's recursion limit allows, or holds a number longer than "
                    "it reads, and kvcheck does not model that, so it cannot judge this worker", s->flag,
                    SGLANG_VERSIONS[c->rel], LOADER);
}

/* rejection sampling is what turned it on */
static const setting *watermark_blamed(const ctx *c, const flag_rule *r)
{
    return r->blame == SET_SPEC_REJECTION ? rejection_blame(c) : &c->set->s[r->blame];
}

kvc_status watermark_check(const ctx *c, enum watermark_stage stage)
{
    static const rule_hooks hooks = {"", watermark_fields, watermark_blamed};
    wm_config w;
    load(c, &w);
    ctx with = *c;
    with.view.watermark = &w;
    kvc_status st = stage == WATERMARK_LOAD ? decline(&with) : KVC_OK;
    if (!st) st = rules_table(&with, RULES, COUNT_OF(RULES), (int)stage, &hooks);
    if (!st && stage == WATERMARK_SERVER && enabled(c)) rules_env_warn(c, SET_RUST_SERVER_ENV); /* H16 read it */
    return st;
}

size_t watermark_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
