/* Logs: the engine's start-up line that prints a worker's settings
 * (SGLang: "[2025-10-01 12:00:00] server_args=ServerArgs(...)"), found by
 * reading the file as a stream (a log can be large; a line is read up to
 * LOG_LINE_LIMIT), and a line naming the engine's version. */
#include "recipe/recipe.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_LINE_LIMIT ((size_t)16 << 20)

typedef struct log_scan {
    const engine_def *e;
    const char *path;
    strbuf cur;     /* the line being read, up to LOG_LINE_LIMIT */
    int cur_long;   /* it is longer */
    size_t line;    /* its number */
    char *record;   /* the last settings record, from its first byte */
    size_t record_line, nrecords;
    unsigned record_column;
    char version[KVC_NAME_LEN];
    size_t version_line;
    unsigned version_column;
} log_scan;

/* Where the record starts in `line` ("Name(" or "{" right after the marker), or NULL. */
static const char *record_of(const log_scan *s, const char *line)
{
    const char *m = strstr(line, s->e->words.log_marker);
    if (!m) return NULL;
    const char *rec = m + strlen(s->e->words.log_marker), *p = rec;
    if (*p == '{') return rec;
    if (!isalpha((unsigned char)*p)) return NULL;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    return *p == '(' ? rec : NULL;
}

static kvc_status end_line(log_scan *s, kvc_diag *diag)
{
    const char *line = s->cur.p ? s->cur.p : "";
    const char *rec = record_of(s, line);
    if (rec) {
        kvc_origin o;
        origin_set(&o, s->path, (unsigned)s->line, 0, "");
        RETURN_ERROR_IF(s->cur_long, diag, KVC_ERR_CONFIG, &o,
                        "%s:%zu: its %s line is longer than %zu MiB: kvcheck reads lines up to that", s->path, s->line,
                        s->e->words.log_marker, LOG_LINE_LIMIT >> 20);
        size_t n = strlen(rec);
        while (n && (rec[n - 1] == '\r' || rec[n - 1] == ' ')) n--;
        char *copy = malloc(n + 1);
        RETURN_ERROR_IF(!copy, diag, KVC_ERR_NOMEM, NULL, "out of memory");
        memcpy(copy, rec, n);
        copy[n] = '\0';
        free(s->record);
        s->record = copy;
        s->record_line = s->line;
        s->record_column = (unsigned)(rec - line) + 1;
        s->nrecords++;
    }
    const char *v = strstr(line, s->e->words.log_version);
    if (v) {
        v += strlen(s->e->words.log_version);
        size_t n = strspn(v, "0123456789abcdefghijklmnopqrstuvwxyz.+");
        if (n && n < sizeof s->version) {
            memcpy(s->version, v, n);
            s->version[n] = '\0';
            s->version_line = s->line;
            s->version_column = (unsigned)(v - line) + 1;
        }
    }
    s->cur.len = 0;
    if (s->cur.p) s->cur.p[0] = '\0';
    s->cur_long = 0;
    s->line++;
    return KVC_OK;
}

/* Appends bytes of the line being read, up to the limit. */
static void take(log_scan *s, const char *p, size_t n)
{
    size_t room = LOG_LINE_LIMIT - s->cur.len;
    if (n > room) s->cur_long = 1, n = room;
    if (n) sb_printf(&s->cur, "%.*s", (int)n, p);
}

static kvc_status scan(log_scan *s, int fd, kvc_diag *diag)
{
    static char chunk[1 << 16];
    for (;;) {
        ssize_t got = read(fd, chunk, sizeof chunk);
        kvc_origin o;
        origin_set(&o, s->path, 0, 0, "");
        RETURN_ERROR_IF(got < 0, diag, KVC_ERR_IO, &o, "cannot read %s", s->path);
        if (got == 0) break;
        for (const char *p = chunk, *end = chunk + got; p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            take(s, p, (size_t)((nl ? nl : end) - p));
            RETURN_ERROR_IF(s->cur.oom, diag, KVC_ERR_NOMEM, NULL, "out of memory");
            if (!nl) break;
            RETURN_IF_ERROR(end_line(s, diag));
            p = nl + 1;
        }
    }
    return s->cur.len ? end_line(s, diag) : KVC_OK;
}

kvc_status log_read(kvc_recipe *r, int *found, kvc_diag *diag)
{
    *found = 0;
    int fd;
    uint64_t size;
    RETURN_IF_ERROR(file_open_regular(r->path, "it is a directory; give a file", &fd, &size, diag));
    log_scan s = {.e = engine_default(), .path = r->path, .line = 1};
    kvc_status st = scan(&s, fd, diag);
    close(fd);
    free(s.cur.p);
    recipe_entry *e = NULL;
    if (!st && s.record) {
        e = recipe_add(r, "%s line %zu", s.e->words.log_marker, s.record_line);
        if (!e) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    }
    if (e) {
        r->kind = "SGLang log";
        r->text = s.record;
        r->len = strlen(s.record);
        s.record = NULL;
        e->log_line = s.record_line;
        e->log_column = s.record_column;
        e->log_records = s.nrecords;
        kvc_origin at;
        origin_set(&at, r->path, (unsigned)s.version_line, s.version_column, "its version line");
        if (s.version[0]) st = recipe_value_set(&e->release, s.version, &at, diag);
        *found = 1;
    }
    free(s.record);
    return st;
}
