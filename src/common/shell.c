/* Splitting pasted shell text into words, as a POSIX shell would: quotes,
 * backslash escapes, "\\\n" continuations, $(...), ${...} and `...` kept
 * whole, each word with its line and column. A script is also cut into
 * simple commands at ; & | && || ( ) and newlines, with comments,
 * redirections (and their targets) and here-documents taken out. */
#include "common/common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void shell_words_free(shell_words *w)
{
    free(w->buf);
    free(w->words);
    free(w->lines);
    free(w->columns);
    free(w->assign);
    memset(w, 0, sizeof *w);
}

void shell_script_free(shell_script *s)
{
    shell_words_free(&s->words);
    free(s->commands);
    memset(s, 0, sizeof *s);
}

void word_origin(const word_list *list, size_t i, kvc_origin *out)
{
    origin_set(out, list->file, list->lines ? list->lines[i] : 0, list->columns ? list->columns[i] : 0, "");
    if (list->elements) str_printf(out->where, sizeof out->where, "args[%zu]", i);
}

/* A here-document waiting for the end of its line. */
typedef struct heredoc {
    char delim[128];
    int strip_tabs; /* <<- */
    unsigned line, column;
} heredoc;

typedef struct lexer {
    const char *p, *line_start;
    unsigned line;
    int script; /* operators, redirections, comments, here-documents */
    const char *origin;
    kvc_diag *diag;
    shell_words *w;
    size_t out; /* bytes used in w->buf */
    shell_command *commands;
    size_t ncommands, cap, command_first;
    heredoc pending[8];
    unsigned npending;
} lexer;

static kvc_status lex_error(lexer *lx, unsigned line, unsigned column, const char *fmt, ...) KVC_PRINTF(4, 5);
static kvc_status lex_error(lexer *lx, unsigned line, unsigned column, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    kvc_origin o;
    origin_set(&o, lx->origin, line, column, "");
    return diag_set(lx->diag, KVC_ERR_CONFIG, &o, "%s", text);
}

static unsigned column_of(const lexer *lx, const char *p) { return (unsigned)(p - lx->line_start) + 1; }

/* A line break at p (p[0] == '\n'). */
static void newline(lexer *lx, const char *p)
{
    lx->line++;
    lx->line_start = p + 1;
}

/* "\\\n" or "\\\r\n" at p: its length, else 0. */
static size_t continuation(const char *p)
{
    if (p[0] != '\\') return 0;
    if (p[1] == '\n') return 2;
    if (p[1] == '\r' && p[2] == '\n') return 3;
    return 0;
}

static int is_meta(char c) { return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')'; }

static int ends_word(const lexer *lx, char c)
{
    return c == '\0' || isspace((unsigned char)c) || (lx->script && is_meta(c));
}

/* Copies "$(...)", "${...}" or "`...`" at p whole into the word: a shell
 * expands it later as one word. NULL when it does not close. */
static const char *substitution(lexer *lx, const char *p)
{
    char open = p[0] == '`' ? '`' : p[1], close = open == '(' ? ')' : open == '{' ? '}' : '`';
    size_t lead = open == '`' ? 1 : 2;
    for (size_t i = 0; i < lead; i++) lx->w->buf[lx->out++] = *p++;
    int depth = 1;
    char quote = 0;
    while (*p) {
        char c = *p;
        if (c == '\n') newline(lx, p);
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '\\' && p[1]) {
            lx->w->buf[lx->out++] = *p++;
        } else if (close != '`' && c == open) {
            depth++;
        } else if (c == close && --depth == 0) {
            lx->w->buf[lx->out++] = *p++;
            return p;
        }
        lx->w->buf[lx->out++] = *p++;
    }
    return NULL;
}

/* Reads one word at lx->p into the buffer. Fails on an open quote or substitution. */
static kvc_status read_word(lexer *lx, unsigned line, unsigned column)
{
    const char *p = lx->p;
    char quote = 0;
    size_t k;
    while (quote || !ends_word(lx, *p)) {
        if (!*p) break;
        if ((k = continuation(p)) != 0) {
            newline(lx, p + k - 1);
            p += k;
            continue;
        }
        if (quote) {
            if (*p == '\n') newline(lx, p);
            if (*p == quote) {
                quote = 0;
                p++;
            } else if (quote == '"' && *p == '\\' && p[1]) {
                lx->w->buf[lx->out++] = p[1];
                p += 2;
            } else if (quote == '"' && *p == '$' && (p[1] == '(' || p[1] == '{')) {
                if (!(p = substitution(lx, p))) break;
            } else {
                lx->w->buf[lx->out++] = *p++;
            }
        } else if (*p == '"' || *p == '\'') {
            quote = *p++;
        } else if (*p == '$' && p[1] == '\'') { /* $'...': kept as written inside */
            quote = '\'';
            p += 2;
        } else if ((*p == '$' && (p[1] == '(' || p[1] == '{')) || *p == '`') {
            if (!(p = substitution(lx, p))) break;
        } else if (*p == '\\' && p[1]) {
            lx->w->buf[lx->out++] = p[1];
            p += 2;
        } else if (*p == '\\') { /* a lone backslash ends the text: a continuation into nothing */
            p++;
        } else {
            lx->w->buf[lx->out++] = *p++;
        }
    }
    lx->w->buf[lx->out++] = '\0';
    lx->p = p;
    if (quote)
        return lex_error(lx, line, column, "unterminated %s quote in the launch command",
                         quote == '"' ? "double" : "single");
    if (!p)
        return lex_error(lx, line, column,
                         "unterminated substitution ($(...), ${...} or `...`) in the launch command: the text ends "
                         "before it closes");
    return KVC_OK;
}

/* NAME=value written so (the name unquoted): a shell assignment. */
static int is_assignment(const char *raw)
{
    if (!(isalpha((unsigned char)*raw) || *raw == '_')) return 0;
    while (isalnum((unsigned char)*raw) || *raw == '_') raw++;
    return *raw == '=';
}

/* Words a shell reads as grammar before a command: they start none. */
static int is_reserved(const char *w)
{
    static const char *const RESERVED[] = {"then", "do", "else", "elif", "if", "while", "until", "!", "{", "}",
                                           "fi", "done", "esac", "time"};
    for (size_t i = 0; i < COUNT_OF(RESERVED); i++)
        if (strcmp(w, RESERVED[i]) == 0) return 1;
    return 0;
}

static kvc_status add_word(lexer *lx)
{
    const char *raw = lx->p;
    unsigned line = lx->line, column = column_of(lx, raw);
    size_t start = lx->out, n = lx->w->n;
    RETURN_IF_ERROR(read_word(lx, line, column));
    if (lx->script && n == lx->command_first && is_reserved(lx->w->buf + start)) {
        lx->out = start;
        return KVC_OK;
    }
    lx->w->words[n] = lx->w->buf + start;
    lx->w->lines[n] = line;
    lx->w->columns[n] = column;
    lx->w->assign[n] = (unsigned char)is_assignment(raw);
    lx->w->n++;
    return KVC_OK;
}

/* Ends the command being read (one with no words is none). */
static kvc_status end_command(lexer *lx)
{
    if (lx->w->n == lx->command_first) return KVC_OK;
    if (lx->ncommands == lx->cap) {
        size_t cap = lx->cap ? lx->cap * 2 : 8;
        shell_command *c = realloc(lx->commands, cap * sizeof *c);
        if (!c) return diag_set(lx->diag, KVC_ERR_NOMEM, NULL, "out of memory");
        lx->commands = c;
        lx->cap = cap;
    }
    lx->commands[lx->ncommands++] = (shell_command){lx->command_first, lx->w->n - lx->command_first};
    lx->command_first = lx->w->n;
    return KVC_OK;
}

/* Skips the bodies of the here-documents opened on the line that just
 * ended (lx->p is past its newline). */
static kvc_status skip_heredocs(lexer *lx)
{
    for (unsigned i = 0; i < lx->npending; i++) {
        const heredoc *h = &lx->pending[i];
        for (;;) {
            if (!*lx->p)
                return lex_error(lx, h->line, h->column, "the here-document '<<%s' is never closed: no line holding only '%s' ends it",
                                 h->delim, h->delim);
            const char *eol = strchr(lx->p, '\n');
            const char *text = lx->p, *end = eol ? eol : lx->p + strlen(lx->p);
            if (h->strip_tabs)
                while (text < end && *text == '\t') text++;
            size_t n = (size_t)(end - text);
            if (n && text[n - 1] == '\r') n--;
            int done = n == strlen(h->delim) && strncmp(text, h->delim, n) == 0;
            lx->p = eol ? eol + 1 : end;
            if (eol) newline(lx, eol);
            if (done) break;
        }
    }
    lx->npending = 0;
    return KVC_OK;
}

/* A redirection at lx->p: its operator and target word are read and dropped. */
static kvc_status redirection(lexer *lx)
{
    const char *p = lx->p;
    unsigned line = lx->line, column = column_of(lx, p);
    while (isdigit((unsigned char)*p)) p++;
    int heredoc_op = 0, strip = 0;
    if (p[0] == '&' && p[1] == '>') p += p[2] == '>' ? 3 : 2;
    else if (strncmp(p, "<<<", 3) == 0) p += 3;
    else if (strncmp(p, "<<-", 3) == 0) p += 3, heredoc_op = strip = 1;
    else if (strncmp(p, "<<", 2) == 0) p += 2, heredoc_op = 1;
    else if (p[0] == '>' && (p[1] == '>' || p[1] == '|' || p[1] == '&')) p += 2;
    else if (p[0] == '<' && (p[1] == '>' || p[1] == '&')) p += 2;
    else p++;
    char op[8];
    str_printf(op, sizeof op, "%.*s", (int)(p - lx->p), lx->p);
    if (p[-1] == '&' && (isdigit((unsigned char)*p) || *p == '-')) { /* 2>&1, >&- */
        while (isdigit((unsigned char)*p) || *p == '-') p++;
        lx->p = p;
        return KVC_OK;
    }
    while (*p == ' ' || *p == '\t') p++;
    lx->p = p;
    if (ends_word(lx, *p))
        return lex_error(lx, line, column, "the redirection '%s' has no file%s after it", op,
                         heredoc_op ? " (here-document delimiter)" : "");
    size_t start = lx->out;
    RETURN_IF_ERROR(read_word(lx, lx->line, column_of(lx, p)));
    if (heredoc_op) {
        if (lx->npending == COUNT_OF(lx->pending))
            return lex_error(lx, line, column, "more than %zu here-documents on one line", COUNT_OF(lx->pending));
        heredoc *h = &lx->pending[lx->npending++];
        str_copy(h->delim, sizeof h->delim, lx->w->buf + start);
        h->strip_tabs = strip;
        h->line = line;
        h->column = column;
    }
    lx->out = start; /* the target is no word of the command */
    return KVC_OK;
}

static int starts_redirection(const lexer *lx, const char *p)
{
    if (!lx->script) return 0;
    if (p[0] == '&' && p[1] == '>') return 1;
    while (isdigit((unsigned char)*p)) p++;
    return *p == '<' || *p == '>';
}

static kvc_status lex(lexer *lx)
{
    size_t k;
    while (*lx->p) {
        const char *p = lx->p;
        if ((k = continuation(p)) != 0) {
            newline(lx, p + k - 1);
            lx->p += k;
        } else if (*p == '\n') {
            newline(lx, p);
            lx->p++;
            if (lx->script) RETURN_IF_ERROR(end_command(lx));
            if (lx->script) RETURN_IF_ERROR(skip_heredocs(lx));
        } else if (isspace((unsigned char)*p)) {
            lx->p++;
        } else if (*p == '\\' && !p[1]) { /* a final lone backslash: nothing follows it */
            lx->p++;
        } else if (lx->script && *p == '#') {
            while (*lx->p && *lx->p != '\n') lx->p++;
        } else if (starts_redirection(lx, p)) {
            RETURN_IF_ERROR(redirection(lx));
        } else if (lx->script && is_meta(*p)) {
            lx->p += (p[1] == *p && (*p == '&' || *p == '|' || *p == ';')) || (*p == '|' && p[1] == '&') ? 2 : 1;
            RETURN_IF_ERROR(end_command(lx));
        } else {
            RETURN_IF_ERROR(add_word(lx));
        }
    }
    if (lx->script) RETURN_IF_ERROR(end_command(lx));
    return lx->script ? skip_heredocs(lx) : KVC_OK;
}

/* Room for the words of `len` bytes of text: each word takes at least one
 * byte and a separator, and its NUL. */
static kvc_status words_alloc(shell_words *w, size_t len, kvc_diag *diag)
{
    memset(w, 0, sizeof *w);
    size_t max = len / 2 + 2;
    w->buf = malloc(len + max + 1);
    w->words = malloc(max * sizeof *w->words);
    w->lines = malloc(max * sizeof *w->lines);
    w->columns = malloc(max * sizeof *w->columns);
    w->assign = malloc(max);
    if (w->buf && w->words && w->lines && w->columns && w->assign) return KVC_OK;
    shell_words_free(w);
    return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
}

kvc_status shell_split(const char *line, const char *origin_name, shell_words *w, kvc_diag *diag)
{
    RETURN_IF_ERROR(words_alloc(w, strlen(line), diag));
    lexer lx = {.p = line, .line_start = line, .line = 1, .origin = origin_name, .diag = diag, .w = w};
    kvc_status st = lex(&lx);
    if (st) shell_words_free(w);
    return st;
}

kvc_status shell_script_split(const char *text, const char *origin_name, shell_script *s, kvc_diag *diag)
{
    memset(s, 0, sizeof *s);
    RETURN_IF_ERROR(words_alloc(&s->words, strlen(text), diag));
    lexer lx = {.p = text, .line_start = text, .line = 1, .script = 1, .origin = origin_name, .diag = diag,
                .w = &s->words};
    kvc_status st = lex(&lx);
    s->commands = lx.commands;
    s->ncommands = lx.ncommands;
    if (st) shell_script_free(s);
    return st;
}

kvc_status shell_script_from_words(const char *const *words, const unsigned *lines, const unsigned *columns, size_t n,
                                   shell_script *s, kvc_diag *diag)
{
    memset(s, 0, sizeof *s);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) len += strlen(words[i]) + 1;
    shell_words *w = &s->words;
    w->buf = malloc(len + 1);
    w->words = malloc((n + 1) * sizeof *w->words);
    w->lines = malloc((n + 1) * sizeof *w->lines);
    w->columns = malloc((n + 1) * sizeof *w->columns);
    w->assign = calloc(n + 1, 1);
    s->commands = malloc(sizeof *s->commands);
    if (!w->buf || !w->words || !w->lines || !w->columns || !w->assign || !s->commands) {
        shell_script_free(s);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(words[i]) + 1;
        memcpy(w->buf + at, words[i], k);
        w->words[i] = w->buf + at;
        w->lines[i] = lines[i];
        w->columns[i] = columns[i];
        at += k;
    }
    w->n = n;
    s->commands[0] = (shell_command){0, n};
    s->ncommands = n ? 1 : 0;
    return KVC_OK;
}
