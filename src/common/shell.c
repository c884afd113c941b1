/* Splitting a pasted command line into words, as a POSIX shell would:
 * quotes, backslash escapes and "\\\n" continuations, each word with its
 * line and column. */
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
    memset(w, 0, sizeof *w);
}

void word_origin(const word_list *list, size_t i, kvc_origin *out)
{
    origin_set(out, list->file, list->lines ? list->lines[i] : 0, list->columns ? list->columns[i] : 0, "");
    if (list->elements) str_printf(out->where, sizeof out->where, "args[%zu]", i);
}

/* Copies one word starting at *pp into buf + *out; returns the open quote
 * character when the line ends inside quotes, else 0. */
static char read_word(const char **pp, char *buf, size_t *out)
{
    const char *p = *pp;
    char quote = 0;
    while (*p && (quote || !isspace((unsigned char)*p))) {
        if (quote) {
            if (*p == quote) {
                quote = 0;
                p++;
            } else if (quote == '"' && *p == '\\' && p[1]) {
                buf[(*out)++] = p[1];
                p += 2;
            } else {
                buf[(*out)++] = *p++;
            }
        } else if (*p == '"' || *p == '\'') {
            quote = *p++;
        } else if (*p == '\\' && p[1] == '\n') {
            p += 2;
        } else if (*p == '\\' && p[1]) {
            buf[(*out)++] = p[1];
            p += 2;
        } else {
            buf[(*out)++] = *p++;
        }
    }
    buf[(*out)++] = '\0';
    *pp = p;
    return quote;
}

kvc_status shell_split(const char *line, const char *origin_name, shell_words *w, kvc_diag *diag)
{
    size_t len = strlen(line);
    memset(w, 0, sizeof *w);
    w->buf = malloc(len + 1);
    w->words = malloc((len / 2 + 2) * sizeof *w->words);
    w->lines = malloc((len / 2 + 2) * sizeof *w->lines);
    w->columns = malloc((len / 2 + 2) * sizeof *w->columns);
    if (!w->buf || !w->words || !w->lines || !w->columns) {
        shell_words_free(w);
        return diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    size_t out = 0;
    const char *p = line, *line_start = line;
    unsigned lineno = 1;
    while (*p) {
        if (*p == '\\' && p[1] == '\n') {
            p += 2;
            lineno++;
            line_start = p;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            if (*p == '\n') {
                lineno++;
                line_start = p + 1;
            }
            p++;
            continue;
        }
        w->words[w->n] = w->buf + out;
        w->lines[w->n] = lineno;
        w->columns[w->n] = (unsigned)(p - line_start) + 1;
        char quote = read_word(&p, w->buf, &out);
        if (quote) {
            kvc_origin o;
            origin_set(&o, origin_name, w->lines[w->n], w->columns[w->n], "");
            kvc_status st = diag_set(diag, KVC_ERR_CONFIG, &o, "unterminated %s quote in the launch command",
                                     quote == '"' ? "double" : "single");
            shell_words_free(w);
            return st;
        }
        w->n++;
    }
    return KVC_OK;
}
