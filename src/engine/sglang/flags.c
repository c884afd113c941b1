/* SGLang's launch flags: command-line words, server_info keys and --config
 * YAML keys all become one ordered list of flags, then one set of settings
 * (later wins, config files first). */
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

/* Flags kvcheck understands. `key` -1: known, cannot change the layout;
 * listed so the parser knows it takes no value. */
static const struct flag_def {
    const char *name;  /* canonical spelling, kebab-case */
    const char *alias; /* an older spelling SGLang still accepts */
    int key;
    int takes_value;
} FLAGS[] = {
    {"--kv-cache-dtype", NULL, SET_KV_CACHE_DTYPE, 1},
    {"--dsa-prefill-backend", "--nsa-prefill-backend", SET_PREFILL_BACKEND, 1},
    {"--dsa-decode-backend", "--nsa-decode-backend", SET_DECODE_BACKEND, 1},
    {"--page-size", NULL, SET_PAGE_SIZE, 1},
    {"--disaggregation-mode", NULL, SET_DISAGG_MODE, 1},
    {"--enable-hisparse", NULL, SET_HISPARSE, 0},
    {"--disable-radix-cache", NULL, SET_DISABLE_RADIX, 0},
    {"--speculative-algorithm", NULL, SET_SPEC_ALGO, 1},
    {"--speculative-draft-kv-cache-dtype", NULL, SET_SPEC_DRAFT_DTYPE, 1},
    {"--tp-size", "--tp", SET_TP, 1},
    {"--dp-size", "--dp", SET_DP, 1},
    {"--enable-dp-attention", NULL, SET_DP_ATTENTION, 0},
    {"--prefill-round-robin-balance", NULL, SET_ROUND_ROBIN, 0},
    {"--disaggregation-transfer-backend", NULL, SET_TRANSFER_BACKEND, 1},
    {"--model-path", "--model", SET_MODEL_PATH, 1},
    {"--config", NULL, SET_CONFIG, 1},
    {"--trust-remote-code", NULL, -1, 0},
    {"--disable-cuda-graph", NULL, -1, 0},
    {"--enable-metrics", NULL, -1, 0},
    {"--skip-server-warmup", NULL, -1, 0},
    {"--enable-cache-report", NULL, -1, 0},
    {"--enable-nan-detection", NULL, -1, 0},
    {"--disable-overlap-schedule", NULL, -1, 0},
};

const char *setting_flag(setting_key key)
{
    for (size_t i = 0; i < COUNT_OF(FLAGS); i++)
        if (FLAGS[i].key == (int)key) return FLAGS[i].name;
    return "--?";
}

/* 1 when `name` (n bytes, leading dashes gone) spells `canon` ("--page-size")
 * with any of its dashes written as underscores, as SGLang accepts. */
static int spells(const char *name, size_t n, const char *canon)
{
    canon += 2;
    if (strlen(canon) != n) return 0;
    for (size_t i = 0; i < n; i++)
        if ((name[i] == '_' ? '-' : name[i]) != canon[i]) return 0;
    return 1;
}

/* The flag named by `name` (n bytes, without leading dashes), or NULL. */
static const struct flag_def *find_name(const char *name, size_t n)
{
    for (size_t i = 0; i < COUNT_OF(FLAGS); i++)
        if (spells(name, n, FLAGS[i].name) || (FLAGS[i].alias && spells(name, n, FLAGS[i].alias))) return &FLAGS[i];
    return NULL;
}

static const struct flag_def *find_key(const char *key)
{
    while (*key == '-') key++;
    return find_name(key, strlen(key));
}

int args_key_is_switch(const char *key)
{
    const struct flag_def *def = find_key(key);
    return def && !def->takes_value;
}

int args_key_is_setting(const char *key)
{
    const struct flag_def *def = find_key(key);
    return def && def->key >= 0;
}

void arglist_free(arglist *list)
{
    for (size_t i = 0; i < list->n; i++) {
        free(list->v[i].flag);
        free(list->v[i].value);
        free(list->v[i].where);
    }
    free(list->v);
    for (size_t i = 0; i < list->nwarnings; i++) free(list->warnings[i]);
    free(list->warnings);
    for (size_t i = 0; i < list->nfiles; i++) free(list->files[i]);
    free(list->files);
    memset(list, 0, sizeof *list);
}

void arg_origin(const kv_arg *a, kvc_origin *out)
{
    origin_set(out, a->file, a->line, a->column, a->where ? a->where : a->flag);
}

/* `file` kept once in the list, for its flags to point to. */
static const char *intern_file(arglist *list, const char *file)
{
    if (list->nfiles && strcmp(list->files[list->nfiles - 1], file) == 0) return list->files[list->nfiles - 1];
    if (list->nfiles == list->files_cap) {
        size_t cap = list->files_cap ? list->files_cap * 2 : 4;
        char **f = realloc(list->files, cap * sizeof *f);
        if (!f) return NULL;
        list->files = f;
        list->files_cap = cap;
    }
    char *copy = malloc(strlen(file) + 1);
    if (!copy) return NULL;
    memcpy(copy, file, strlen(file) + 1);
    list->files[list->nfiles++] = copy;
    return copy;
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Takes `flag` and `value` (either may be NULL only when out of memory,
 * value also when there is none) into the list, or frees them. */
static kvc_status push_owned(arglist *list, int key, char *flag, char *value, int has_value,
                             const kvc_origin *origin, kvc_diag *diag)
{
    char *where = NULL;
    if (!flag || (has_value && !value)) goto nomem;
    if (origin->where[0] && strcmp(origin->where, flag) != 0) {
        where = malloc(strlen(origin->where) + 1);
        if (!where) goto nomem;
        memcpy(where, origin->where, strlen(origin->where) + 1);
    }
    const char *file = intern_file(list, origin->file);
    if (!file) goto nomem;
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        kv_arg *v = realloc(list->v, cap * sizeof *v);
        if (!v) goto nomem;
        list->v = v;
        list->cap = cap;
    }
    kv_arg *a = &list->v[list->n++];
    memset(a, 0, sizeof *a);
    a->key = key;
    a->flag = flag;
    a->value = value;
    a->file = file;
    a->line = origin->line;
    a->column = origin->column;
    a->where = where;
    return KVC_OK;
nomem:
    free(flag);
    free(value);
    free(where);
    return diag_set(diag, KVC_ERR_NOMEM, origin, "out of memory");
}

static kvc_status warn(arglist *list, kvc_diag *diag, const char *fmt, ...) KVC_PRINTF(3, 4);
static kvc_status warn(arglist *list, kvc_diag *diag, const char *fmt, ...)
{
    if (list->nwarnings == list->warnings_cap) {
        size_t cap = list->warnings_cap ? list->warnings_cap * 2 : 4;
        char **w = realloc(list->warnings, cap * sizeof *w);
        if (!w) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
        list->warnings = w;
        list->warnings_cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text) return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    list->warnings[list->nwarnings++] = text;
    return KVC_OK;
}

/* ------------------------------------------------------------ words */

/* What copy-paste makes of a "-" (UTF-8), and how a warning names it. */
static const struct dash {
    const char *bytes;
    const char *name;
} DASHES[] = {
    {"\xe2\x80\x94", "an em dash (U+2014)"},
    {"\xe2\x80\x93", "an en dash (U+2013)"},
    {"\xe2\x80\x90", "a Unicode hyphen (U+2010)"},
    {"\xe2\x80\x91", "a non-breaking hyphen (U+2011)"},
    {"\xe2\x80\x92", "a figure dash (U+2012)"},
    {"\xe2\x80\x95", "a horizontal bar (U+2015)"},
    {"\xe2\x88\x92", "a minus sign (U+2212)"},
    {"\xef\xb9\xa3", "a small hyphen-minus (U+FE63)"},
    {"\xef\xbc\x8d", "a fullwidth hyphen-minus (U+FF0D)"},
};

/* How a word reads: not a flag, a flag as SGLang takes it ("--name"), or a
 * flag whose leading dashes were mangled. */
typedef struct flag_word {
    int is_flag;
    const char *name;  /* after the dashes */
    size_t name_len;   /* up to '=' or the end */
    const char *eq;    /* the '=', or NULL */
    char mangled[96];  /* "" or what is wrong with the dashes */
    const struct flag_def *def;
} flag_word;

static void read_word(const char *w, flag_word *out)
{
    memset(out, 0, sizeof *out);
    unsigned hyphens = 0;
    const struct dash *other = NULL;
    const char *p = w;
    for (;;) {
        if (*p == '-') {
            hyphens++;
            p++;
            continue;
        }
        const struct dash *d = NULL;
        for (size_t i = 0; i < COUNT_OF(DASHES) && !d; i++)
            if (strncmp(p, DASHES[i].bytes, strlen(DASHES[i].bytes)) == 0) d = &DASHES[i];
        if (!d) break;
        if (!other) other = d;
        p += strlen(d->bytes);
    }
    if (p == w || !*p || *p == '=') return; /* "-", "--", "—", "-=x": not flags */
    out->name = p;
    out->eq = strchr(p, '=');
    out->name_len = out->eq ? (size_t)(out->eq - p) : strlen(p);
    out->def = find_name(p, out->name_len);
    if (hyphens == 2 && !other) {
        out->is_flag = 1;
        return;
    }
    if (other) {
        str_printf(out->mangled, sizeof out->mangled, "%s", other->name);
    } else if (hyphens == 1) {
        /* "-m", "-1": a program's option or a value; "-page-size": a long flag */
        if (!out->def) return;
        str_copy(out->mangled, sizeof out->mangled, "a single '-'");
    } else {
        str_printf(out->mangled, sizeof out->mangled, "%u hyphens", hyphens);
    }
    out->is_flag = 1;
}

static int is_flag_word(const char *w)
{
    flag_word f;
    read_word(w, &f);
    return f.is_flag;
}

static int has_space(const char *w)
{
    for (; *w; w++)
        if (*w == ' ' || *w == '\t' || *w == '\n' || *w == '\r') return 1;
    return 0;
}

/* The words as they come, with a word that holds several (a list element
 * "--kv-cache-dtype bf16") split in place as a shell would split it. */
typedef struct word_stream {
    const word_list *list;
    size_t i;
    shell_words split; /* the words of the element being split, if any */
    size_t j;
    kvc_origin split_origin;
} word_stream;

static int stream_more(const word_stream *s) { return s->j < s->split.n || s->i < s->list->n; }

static const char *stream_peek(const word_stream *s)
{
    return s->j < s->split.n ? s->split.words[s->j] : s->list->words[s->i];
}

/* Where the next word was written (a split word: where its element was). */
static void stream_origin(const word_stream *s, kvc_origin *out)
{
    if (s->j < s->split.n) *out = s->split_origin;
    else word_origin(s->list, s->i, out);
}

static void stream_next(word_stream *s)
{
    if (s->j < s->split.n) s->j++; /* the split's words live until the next split or the end */
    else s->i++;
}

/* When the next word (not one of a split) holds several and the first of
 * them (`program`: any of them) is a flag, splits it and warns. */
static kvc_status stream_split(word_stream *s, arglist *list, int program, kvc_diag *diag)
{
    if (s->j < s->split.n || s->i >= s->list->n || !has_space(s->list->words[s->i])) return KVC_OK;
    const char *w = s->list->words[s->i];
    /* "--served-model-name=my model": one argument, as SGLang takes it */
    const char *eq = strchr(w, '='), *space = strpbrk(w, " \t\n\r");
    if (!program && eq && eq < space) return KVC_OK;
    shell_words split;
    if (shell_split(w, "", &split, NULL) != KVC_OK) return KVC_OK; /* an open quote: left as one word */
    int flag = split.n > 1 && is_flag_word(split.words[0]);
    for (size_t k = 1; program && !flag && k < split.n; k++) flag = is_flag_word(split.words[k]);
    if (!flag) {
        shell_words_free(&split);
        return KVC_OK;
    }
    kvc_origin o;
    word_origin(s->list, s->i, &o);
    char where[600];
    origin_format(&o, where, sizeof where);
    const char *label = o.where;
    strbuf as = {0};
    for (size_t k = 0; k < split.n; k++) sb_printf(&as, "%s'%s'", k ? " " : "", split.words[k]);
    kvc_status st = as.oom ? diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory")
                           : warn(list, diag,
                                  "%s%s'%s'%s%s%s holds %zu words in one: read as %s, as a shell splits them; SGLang "
                                  "would take it as one argument and refuse it: give each word separately",
                                  label, label[0] ? " " : "", w, where[0] ? " (" : "", where, where[0] ? ")" : "",
                                  split.n, as.p);
    free(as.p);
    if (st) {
        shell_words_free(&split);
        return st;
    }
    shell_words_free(&s->split);
    s->split = split;
    s->j = 0;
    s->split_origin = o;
    s->i++;
    return KVC_OK;
}

kvc_status args_parse_words(arglist *list, const word_list *words, kvc_diag *diag)
{
    word_stream s = {.list = words};
    kvc_status st = KVC_OK;
    /* "python3 -m sglang.launch_server" */
    while (!st && stream_more(&s)) {
        if ((st = stream_split(&s, list, 1, diag))) break;
        if (is_flag_word(stream_peek(&s))) break;
        stream_next(&s);
    }
    strbuf joined = {0};
    while (!st && stream_more(&s)) {
        if ((st = stream_split(&s, list, 0, diag))) break;
        kvc_origin fo;
        stream_origin(&s, &fo);
        const kvc_origin *o = &fo;
        const char *w = stream_peek(&s);
        flag_word f;
        read_word(w, &f);
        if (!f.is_flag) {
            st = diag_set(diag, KVC_ERR_CONFIG, o,
                          "unexpected word '%s': SGLang takes no positional arguments here; is a flag name "
                          "missing before it?",
                          w);
            break;
        }
        stream_next(&s);
        /* The flag as SGLang spells it: two hyphens, then the name as written. */
        char *flag = malloc(f.name_len + 3);
        if (!flag) {
            st = diag_set(diag, KVC_ERR_NOMEM, o, "out of memory");
            break;
        }
        memcpy(flag, "--", 2);
        memcpy(flag + 2, f.name, f.name_len);
        flag[f.name_len + 2] = '\0';
        if (!fo.where[0]) str_copy(fo.where, sizeof fo.where, flag);
        if (f.mangled[0]) {
            char where[600];
            origin_format(o, where, sizeof where);
            size_t wlen = f.eq ? (size_t)(f.eq - w) : strlen(w);
            st = warn(list, diag,
                      "'%.*s'%s%s%s is read as %s: its leading dashes are %s, not \"--\" (copy-paste does this); "
                      "SGLang would refuse the word (unrecognized arguments): write %s",
                      (int)wlen, w, where[0] ? " (" : "", where, where[0] ? ")" : "", flag, f.mangled, flag);
            if (st) {
                free(flag);
                break;
            }
        }
        if (f.def && !f.def->takes_value) {
            if (f.eq) {
                st = diag_set(diag, KVC_ERR_CONFIG, &fo,
                              "%s takes no value (SGLang: ignored explicit argument '%s'); write it alone to "
                              "enable it",
                              flag, f.eq + 1);
                free(flag);
                break;
            }
            st = push_owned(list, f.def->key, flag, NULL, 0, &fo, diag);
            continue;
        }
        if (f.def) {
            const char *value = f.eq ? f.eq + 1 : NULL;
            if (!value) {
                if (!stream_more(&s) || is_flag_word(stream_peek(&s))) {
                    st = diag_set(diag, KVC_ERR_CONFIG, &fo, "%s needs a value (SGLang: expected one argument)",
                                  flag);
                    free(flag);
                    break;
                }
                value = stream_peek(&s);
                stream_next(&s);
            }
            st = push_owned(list, f.def->key, flag, dup_n(value, strlen(value)), 1, &fo, diag);
            continue;
        }
        /* Unknown flag: it takes the words up to the next flag, if any. */
        joined.len = 0;
        if (joined.p) joined.p[0] = '\0';
        if (f.eq) sb_puts(&joined, f.eq + 1);
        int has_value = f.eq != NULL;
        for (; stream_more(&s) && !is_flag_word(stream_peek(&s)); stream_next(&s)) {
            if (joined.len) sb_puts(&joined, " ");
            sb_puts(&joined, stream_peek(&s));
            has_value = 1;
        }
        st = push_owned(list, -1, flag, has_value && !joined.oom ? dup_n(joined.p ? joined.p : "", joined.len) : NULL,
                        has_value, &fo, diag);
    }
    free(joined.p);
    shell_words_free(&s.split);
    return st;
}

kvc_status args_add_key(arglist *list, const char *key, const char *value, int present,
                        const kvc_origin *origin, kvc_diag *diag)
{
    const char *name = key;
    while (*name == '-') name++;
    const struct flag_def *def = find_name(name, strlen(name));
    /* "--" and the key with underscores as dashes: the flag SGLang reads it as */
    size_t n = strlen(name);
    char *flag = malloc(n + 3);
    if (!flag) return diag_set(diag, KVC_ERR_NOMEM, origin, "out of memory");
    memcpy(flag, "--", 2);
    for (size_t i = 0; i <= n; i++) flag[i + 2] = name[i] == '_' ? '-' : name[i];
    kvc_origin fo = *origin;
    if (!fo.where[0]) str_copy(fo.where, sizeof fo.where, key);
    if (!present) { /* store_true flags appear only when true; null: not set */
        free(flag);
        return KVC_OK;
    }
    if (def && !def->takes_value) return push_owned(list, def->key, flag, NULL, 0, &fo, diag);
    return push_owned(list, def ? def->key : -1, flag, value ? dup_n(value, strlen(value)) : NULL, value != NULL,
                      &fo, diag);
}

/* ------------------------------------------------------------- settings */

static kvc_status fold(const arglist *list, settings *out, unsigned *ignored_total, unsigned *warnings_total,
                       kvc_diag *diag)
{
    for (size_t i = 0; i < list->nwarnings; i++) {
        (*warnings_total)++;
        notes_add(out->warnings, &out->nwarnings, SETTINGS_MAX_WARNINGS - 1, "%s", list->warnings[i]);
    }
    for (size_t i = 0; i < list->n; i++) {
        const kv_arg *a = &list->v[i];
        if (a->key < 0) {
            (*ignored_total)++;
            if (out->nignored >= KVC_MAX_NOTES - 1) continue;
            kvc_origin o;
            arg_origin(a, &o);
            char where[600];
            origin_format(&o, where, sizeof where);
            notes_add(out->ignored, &out->nignored, KVC_MAX_NOTES - 1, "%s%s%s (%s)", a->flag,
                      a->value ? " " : "", a->value ? a->value : "", where);
            continue;
        }
        setting *s = &out->s[a->key];
        const char *value = a->value ? a->value : "";
        size_t len = strlen(value);
        kvc_origin o;
        arg_origin(a, &o);
        RETURN_ERROR_IF(len >= sizeof s->value, diag, KVC_ERR_CONFIG, &o,
                        "the value of %s is %zu bytes long: kvcheck takes values of up to %zu bytes (a path of "
                        "PATH_MAX)",
                        a->flag, len, sizeof s->value - 1);
        RETURN_ERROR_IF(strlen(a->flag) >= sizeof s->flag, diag, KVC_ERR_INTERNAL, &o,
                        "flag %s is longer than kvcheck's flag names", a->flag);
        s->set = 1;
        memcpy(s->value, value, len + 1);
        str_copy(s->flag, sizeof s->flag, a->flag);
        s->origin = o;
    }
    return KVC_OK;
}

kvc_status settings_build(const arglist *config, const arglist *cli, const char *base_dir,
                          settings *out, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    unsigned ignored = 0;
    /* A --config on the command line is read like a worker file's "config". */
    arglist from_flag = {0};
    for (size_t i = 0; i < cli->n; i++) {
        if (cli->v[i].key != SET_CONFIG) continue;
        char path[KVC_PATH_LEN];
        kvc_origin o;
        arg_origin(&cli->v[i], &o);
        kvc_status st = path_join_checked(base_dir, cli->v[i].value, path, sizeof path, &o, diag);
        if (!st) st = args_load_yaml(&from_flag, path, diag);
        if (st) {
            arglist_free(&from_flag);
            return st;
        }
    }
    unsigned warnings = 0;
    kvc_status st = fold(config, out, &ignored, &warnings, diag);
    if (!st) st = fold(&from_flag, out, &ignored, &warnings, diag);
    if (!st) st = fold(cli, out, &ignored, &warnings, diag);
    arglist_free(&from_flag);
    if (ignored > out->nignored)
        notes_add(out->ignored, &out->nignored, KVC_MAX_NOTES, "... and %u more",
                  ignored - out->nignored);
    if (warnings > out->nwarnings)
        notes_add(out->warnings, &out->nwarnings, SETTINGS_MAX_WARNINGS, "... and %u more words read otherwise "
                  "than written", warnings - out->nwarnings);
    return st;
}
