/* What every stage shares: diagnostics (NULL-safe), origins, bounded strings,
 * string buffers, note lists, a clock, file reading and JSON with positions. */
#ifndef KVC_COMMON_H
#define KVC_COMMON_H

#include "kvcheck.h"

#include <stdarg.h>
#include <stdio.h>

#define KVC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- diagnostics */

/* Where a value came from: a file position, a JSON path or a flag name. */
typedef struct kvc_origin {
    char file[512];
    unsigned line, column;
    char where[160];
} kvc_origin;

/* Fills `diag` (which may be NULL) and returns `status`. */
kvc_status diag_set(kvc_diag *diag, kvc_status status, const kvc_origin *origin,
                    const char *fmt, ...) KVC_PRINTF(4, 5);

/* Check and explain in one line. */
#define RETURN_ERROR_IF(cond, diag, status, origin, ...)                                \
    do {                                                                                \
        if (cond) return diag_set((diag), (status), (origin), __VA_ARGS__);             \
    } while (0)

/* Forward a failure: evaluates `expr` (a call returning kvc_status) and
 * returns its status when it is not KVC_OK. The callee has filled the
 * diagnostic already; the caller never reads it back, as it may be NULL. */
#define RETURN_IF_ERROR(expr)                                                           \
    do {                                                                                \
        kvc_status return_if_error_st_ = (expr);                                        \
        if (return_if_error_st_ != KVC_OK) return return_if_error_st_;                  \
    } while (0)

/* "file:line:column" or the parts that are known; "" when none. */
void origin_format(const kvc_origin *origin, char *out, size_t size);
void origin_set(kvc_origin *origin, const char *file, unsigned line, unsigned column,
                const char *where);

/* --------------------------------------------------------------- strings */

/* Copies with truncation; always NUL-terminates. */
void str_copy(char *dst, size_t size, const char *src);
void str_printf(char *dst, size_t size, const char *fmt, ...) KVC_PRINTF(3, 4);
/* Reads a decimal number at *s, advancing *s past it; 0 (and *s unchanged)
 * when there are no digits or the number does not fit. */
int str_parse_u64(const char **s, uint64_t *out);
/* ASCII case-insensitive equality. */
int str_ieq(const char *a, const char *b);
/* Appends `item` to the list in `out` ("" to start), after `sep` unless the
 * list is empty. Never cuts silently: when the item does not fit, the buffer
 * is filled and ends with "...", and being full it takes no more items. */
void str_join_add(char *out, size_t size, const char *sep, const char *item);

/* Appends a formatted note to a fixed note list; drops it when full. */
void notes_add(char (*notes)[KVC_NOTE_LEN], unsigned *n, unsigned max, const char *fmt, ...)
    KVC_PRINTF(4, 5);

/* Growable string; on allocation failure `oom` is set and appends stop. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;
} strbuf;
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...) KVC_PRINTF(2, 3);
void sb_pad(strbuf *sb, size_t width, const char *s); /* s padded to width */
/* Hands over the string (NULL after OOM) and resets the buffer. */
char *sb_take(strbuf *sb);

/* ------------------------------------------------------------------ clock */

/* Seconds on the monotonic clock: only differences mean anything. */
double clock_seconds(void);

/* ------------------------------------------------------------------ files */

/* Opens a regular file read-only without blocking (a FIFO without a writer
 * would block open()); anything else is KVC_ERR_IO, "cannot read FILE: not
 * a regular file (a FIFO)", a directory "cannot read FILE: " + `dir_hint`.
 * Fills its descriptor (blocking again) and size. */
kvc_status file_open_regular(const char *path, const char *dir_hint, int *fd, uint64_t *size, kvc_diag *diag);
/* The most a configuration file (worker file, model config, YAML) may hold. */
#define FILE_READ_LIMIT ((size_t)64 << 20)
/* Reads a whole regular file of at most FILE_READ_LIMIT bytes, opened
 * read-only, into a NUL-terminated buffer; KVC_ERR_CONFIG, naming the file
 * and the limit, for a larger one. */
kvc_status file_read_all(const char *path, char **out, size_t *len, kvc_diag *diag);
/* The directory part of `path` ("." when none). */
void path_dirname(const char *path, char *out, size_t size);
/* `rel` taken relative to `base_dir` unless absolute. */
void path_join(const char *base_dir, const char *rel, char *out, size_t size);

/* ---------------------------------------------------------------- JSON aid */

struct cJSON;
/* Parses `text`; on failure reports file:line:column of the error. Rejects
 * duplicate keys at any depth. */
kvc_status json_parse(const char *text, size_t len, const char *file, struct cJSON **out,
                      kvc_diag *diag);
/* Line and column of the `nth` (0-based) occurrence of "key": in `text`. */
void json_locate_key(const char *text, const char *key, unsigned nth, unsigned *line,
                     unsigned *column);
/* Positions of the first n elements of the list under "key". */
void json_locate_elements(const char *text, const char *key, size_t n, unsigned *lines,
                          unsigned *columns);
/* Reads an integral number in [lo, hi] from `item`. */
kvc_status json_get_uint(const struct cJSON *item, const char *text, const char *file,
                         const char *key, uint32_t lo, uint32_t hi, uint32_t *out,
                         kvc_diag *diag);

/* ------------------------------------------------------------------ shell */

/* A command line split into words, each with where it starts. */
typedef struct shell_words {
    char *buf; /* the words' text */
    char **words;
    kvc_origin *origins;
    size_t n;
} shell_words;

/* Splits like a POSIX shell: quotes, backslash escapes, "\\\n" continuations. */
kvc_status shell_split(const char *line, const char *origin_name, shell_words *out, kvc_diag *diag);
void shell_words_free(shell_words *w); /* accepts an empty or freed one */

#endif /* KVC_COMMON_H */
