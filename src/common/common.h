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

/* The longest path kvcheck names in a diagnostic, NUL included (the size of
 * kvc_diag's file): a longer path is refused, never cut. */
#define KVC_PATH_LEN 512
_Static_assert(sizeof(((kvc_diag *)0)->file) == KVC_PATH_LEN, "KVC_PATH_LEN is the size of kvc_diag.file");

/* Where a value came from: a file position, a JSON path or a flag name. */
typedef struct kvc_origin {
    char file[KVC_PATH_LEN]; /* a name that does not fit ends with "..." */
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
/* The length of the valid UTF-8 sequence at `p` (1 to 4 bytes, of at most
 * `avail`), or 0 when the bytes there are not UTF-8. */
size_t utf8_len(const unsigned char *p, size_t avail);
/* Appends `item` to the list in `out` ("" to start), after `sep` unless the
 * list is empty. Never cuts silently: when the item does not fit, the buffer
 * is filled and ends with "...", and being full it takes no more items. */
void str_join_add(char *out, size_t size, const char *sep, const char *item);

/* A set of strings for finding duplicates in linear time. The strings are
 * not copied: they must outlive the set. Zero-initialise; free with
 * strset_free. */
typedef struct strset {
    const char **slots;
    size_t cap, n;
} strset;
/* Adds `s`: 1 when it is new, 0 when the set holds an equal string already,
 * -1 when out of memory. */
int strset_add(strset *set, const char *s);
void strset_free(strset *set);

/* Appends a formatted note to a fixed note list; drops it when full. A note
 * longer than KVC_NOTE_LEN ends with "..." rather than being cut silently. */
void notes_add(char (*notes)[KVC_NOTE_LEN], unsigned *n, unsigned max, const char *fmt, ...)
    KVC_PRINTF(4, 5);

/* Growable string; on allocation failure `oom` is set and appends stop. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;
} strbuf;
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c); /* any byte, NUL included */
void sb_printf(strbuf *sb, const char *fmt, ...) KVC_PRINTF(2, 3);
void sb_pad(strbuf *sb, size_t width, const char *s); /* s padded to width */
/* Hands over the string (NULL after OOM) and resets the buffer. */
char *sb_take(strbuf *sb);

/* ------------------------------------------------------------------ clock */

/* A spin-wait's pause between two looks at a word another agent writes
 * (the GPU): lets a sibling hyper-thread run. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

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
/* The same, refused (KVC_ERR_CONFIG, with the limit) when the path would
 * not fit `size` or KVC_PATH_LEN, whichever is less; `origin` names where
 * the path was given. */
kvc_status path_join_checked(const char *base_dir, const char *rel, char *out, size_t size, const kvc_origin *origin,
                             kvc_diag *diag);

/* ---------------------------------------------------------------- JSON aid */

struct cJSON;
/* Parses `text`; on failure reports file:line:column of the error. Rejects
 * duplicate keys at any depth. */
kvc_status json_parse(const char *text, size_t len, const char *file, struct cJSON **out,
                      kvc_diag *diag);
/* Line and column of the `nth` (0-based) occurrence of "key": in `text`. */
void json_locate_key(const char *text, const char *key, unsigned nth, unsigned *line,
                     unsigned *column);
/* Positions of the first n keys of the top-level object, in order (one
 * pass; 0 where there is none). */
void json_locate_members(const char *text, size_t n, unsigned *lines, unsigned *columns);
/* Positions of the first n elements of the list under the top-level "key"
 * (one pass; 0 where there is none). */
void json_locate_elements(const char *text, const char *key, size_t n, unsigned *lines,
                          unsigned *columns);
/* Reads an integral number in [lo, hi] from `item`. */
kvc_status json_get_uint(const struct cJSON *item, const char *text, const char *file,
                         const char *key, uint32_t lo, uint32_t hi, uint32_t *out,
                         kvc_diag *diag);

/* ------------------------------------------------------------------ shell */

/* Words of a launch command and where each starts, all in one file: two
 * numbers per word, not a whole origin (a worker's list may hold 10^5). */
typedef struct word_list {
    char **words;
    size_t n;
    const char *file;                /* where they were written ("--args", a file) */
    const unsigned *lines, *columns; /* per word (0: not known); NULL: none known */
    int elements;                    /* 1: a worker file's list, word i named "args[i]" */
    const unsigned char *assign;     /* per word: 1 when a shell split it as NAME=value; NULL: a list's words */
} word_list;
/* Where word i starts. */
void word_origin(const word_list *list, size_t i, kvc_origin *out);

/* A command line split into words, each with the line and column it starts at. */
typedef struct shell_words {
    char *buf; /* the words' text */
    char **words;
    unsigned *lines, *columns;
    unsigned char *assign; /* 1: the word was written NAME=value (a shell assignment) */
    size_t n;
} shell_words;

/* Splits like a POSIX shell: quotes, backslash escapes, "\\\n" continuations
 * (a final lone backslash continues into nothing), $(...), ${...} and
 * `...` kept in their word. */
kvc_status shell_split(const char *line, const char *origin_name, shell_words *out, kvc_diag *diag);
void shell_words_free(shell_words *w); /* accepts an empty or freed one */

/* One simple command of a script: words [first, first + n) of its words. */
typedef struct shell_command {
    size_t first, n;
} shell_command;

/* Shell text as a shell reads it: words split as shell_split does, cut
 * into simple commands at newlines, ; & | && || |& ( and ), without
 * comments, redirections (2>&1, > FILE, < FILE: operator and file) and
 * here-documents (their bodies); grammar words before a command (then, do,
 * if, ...) are dropped. What cannot be read (an open quote or
 * substitution, a redirection without its file, a here-document never
 * closed) fails with its line and column in `origin_name`. */
typedef struct shell_script {
    shell_words words;
    shell_command *commands;
    size_t ncommands;
} shell_script;
kvc_status shell_script_split(const char *text, const char *origin_name, shell_script *out, kvc_diag *diag);
void shell_script_free(shell_script *s); /* accepts an empty or freed one */
/* A script of one command made of given words (copied), each at its line
 * and column: a container's command and args as a manifest lists them. */
kvc_status shell_script_from_words(const char *const *words, const unsigned *lines, const unsigned *columns, size_t n,
                                   shell_script *out, kvc_diag *diag);

/* ------------------------------------------------------------ PyYAML */

/* 1 when a plain scalar is a YAML 1.1 boolean (true, yes, on, ...), its value in *out. */
int pyyaml_bool(const char *s, int *out);
/* 1 when a scalar is null (plain "", ~, null). */
int pyyaml_null(const char *s, int plain);
/* str() of what yaml.safe_load makes of a scalar, booleans aside: None,
 * ints in decimal, floats as Python prints them, anything else as written
 * (`plain`: written without quotes). NULL when out of memory. */
char *pyyaml_str(const char *text, int plain);
/* 1 when a plain scalar is a YAML 1.1 int or float. */
int pyyaml_is_number(const char *text);
/* Python's repr() of a float, appended: the shortest digits that read back, fixed notation for exponents -4 to 15,
 * else d.ddde+XX; nan, inf, -inf. */
void py_float_repr(double v, strbuf *out);

/* str.strip() of UTF-8 `text`: [*begin, *end) in bytes, without Python's whitespace (Unicode's too) at either end. */
void py_strip(const char *text, size_t *begin, size_t *end);
/* What int() and float() read of a str (CPython 3.11's _PyUnicode_TransformDecimalAndSpaceToASCII): ASCII as is,
 * Unicode whitespace as ' ', a Unicode decimal digit as its ASCII digit, and at any other code point '?' and the end
 * (a byte that is not UTF-8 is one). 0 when it does not fit `size`. */
int py_number_ascii(const char *text, char *out, size_t size);

/* The kind of a Python value kvcheck reads (from JSON, or from a repr). */
typedef enum py_kind { PY_STR, PY_INT, PY_FLOAT, PY_NONE, PY_TRUE, PY_FALSE, PY_LIST, PY_DICT, PY_OTHER } py_kind;

/* ------------------------------------------------------------ Python ints */

/* Python's ints as decimal text (pyint.c): an optional '-', digits without leading zeros, "0" not "-0". */
/* -1, 0 or 1 as `a` is below, equal to or above `b`, both decimal digits without leading zeros. Pure. */
int dec_cmp(const char *a, const char *b);
/* The same for Python's ints (signed). Pure. */
int int_cmp(const char *a, const char *b);
/* a + b and a x b into `out`, as Python computes them: 0 when `out` is too small or a text is no int. Pure. */
int int_add(const char *a, const char *b, char *out, size_t size);
int int_mul(const char *a, const char *b, char *out, size_t size);

/* ----------------------------------------------------- Python ipaddress */

/* 1 when ipaddress.IPv4Address / IPv6Address (CPython 3.11: a scope id after '%', an IPv4 tail) takes the text
 * [p, p + n) (pyip.c). Pure. */
int py_ipv4(const char *p, size_t n);
int py_ipv6(const char *p, size_t n);

/* ------------------------------------------------------------ Python json */

/* A member of the object json.loads read: its key, and what Python holds for its value. */
typedef struct pyjson_member {
    char key[64];   /* decoded; a code point past ASCII, or NUL, as 0x7F; cut at 63 */
    py_kind kind;   /* PY_STR, PY_INT, PY_FLOAT (NaN, Infinity too), PY_NONE, PY_TRUE, PY_FALSE, PY_LIST, PY_DICT */
    char text[512]; /* a str decoded as the key is; a number as written; cut at 511 */
    size_t len;     /* a str's length in code points; else the value's length in characters */
} pyjson_member;
typedef void (*pyjson_visit)(void *arg, const pyjson_member *m);
/* json.loads(text) as CPython 3.11 reads it (pyjson.c), or with `orjson` what orjson.loads takes (no NaN or
 * Infinity, no lone surrogate, no number infinite as a double): 1 when it takes it, with *top (may be NULL) the
 * value's kind and, when it is an object, `visit` (may be NULL) called with each of its members in order (a key
 * given twice, twice: the dict keeps the last value); 0 with the exception Python raises in `err`
 * ("JSONDecodeError: Expecting ',' delimiter: line 1 column 39 (char 38)"; orjson's words are not kvcheck's). */
int pyjson_loads(const char *text, int orjson, py_kind *top, pyjson_visit visit, void *arg, strbuf *err);

/* ------------------------------------------------------------ Python repr */

/* Python's repr() of a str, appended, for text of ASCII bytes: single quotes unless it holds ' and no ", escapes
 * for \\, the quote, \t \n \r and other control bytes (\xNN). 0, and nothing appended, where a byte is not ASCII
 * (Python prints such a character as it is or escaped, by Unicode's printability). */
int py_str_repr(const char *s, strbuf *out);

/* A value as Python's repr wrote it. */
typedef struct py_value {
    py_kind kind;
    char *text; /* a str decoded; a number, None, True, False as written; "[...]", "{...}" for containers,
                   a call ("Name(...)") or "<...>" as PY_OTHER with its text or "" */
} py_value;
typedef struct py_field {
    char *key;
    py_value value;
    unsigned column; /* the key's byte offset in the text */
} py_field;
/* Reads the repr of a record, "Name(field=value, ...)" (a dataclass) or
 * "{'field': value, ...}" (a dict), from text[0..len) into its top-level
 * fields in order; text after the record is not read. Fails with the
 * column of what is malformed, counted from `where` (the text's first
 * byte). Free the fields with py_fields_free. */
kvc_status py_record_parse(const char *text, size_t len, const kvc_origin *where, py_field **out, size_t *n,
                           kvc_diag *diag);
void py_fields_free(py_field *fields, size_t n);

#endif /* KVC_COMMON_H */
