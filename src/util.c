/* Diagnostics, strings and file reading shared by every stage. */
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *kvc_version(void) { return KVC_VERSION_STRING; }

static const char *const STATUS_NAMES[] = {
    [KVC_OK] = "KVC_OK",
    [KVC_ERR_USAGE] = "KVC_ERR_USAGE",
    [KVC_ERR_CONFIG] = "KVC_ERR_CONFIG",
    [KVC_ERR_IO] = "KVC_ERR_IO",
    [KVC_ERR_NOMEM] = "KVC_ERR_NOMEM",
    [KVC_ERR_GPU] = "KVC_ERR_GPU",
    [KVC_ERR_INTERNAL] = "KVC_ERR_INTERNAL",
};

const char *kvc_status_name(kvc_status status)
{
    if ((unsigned)status < COUNT_OF(STATUS_NAMES) && STATUS_NAMES[status]) return STATUS_NAMES[status];
    return "KVC_ERR_UNKNOWN";
}

void kvc_diag_clear(kvc_diag *diag)
{
    if (diag) memset(diag, 0, sizeof *diag);
}

void kvc_free(void *p) { free(p); }

void str_copy(char *dst, size_t size, const char *src)
{
    if (!size) return;
    if (!src) src = "";
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void str_printf(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, size, fmt, ap);
    va_end(ap);
}

int str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

void notes_add(char (*notes)[KVC_NOTE_LEN], unsigned *n, unsigned max, const char *fmt, ...)
{
    if (*n >= max) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes[*n], KVC_NOTE_LEN, fmt, ap);
    va_end(ap);
    for (unsigned i = 0; i < *n; i++)
        if (strcmp(notes[i], notes[*n]) == 0) return; /* said already */
    (*n)++;
}

void origin_set(kvc_origin *origin, const char *file, unsigned line, unsigned column,
                const char *where)
{
    str_copy(origin->file, sizeof origin->file, file);
    origin->line = line;
    origin->column = column;
    str_copy(origin->where, sizeof origin->where, where);
}

void origin_format(const kvc_origin *origin, char *out, size_t size)
{
    out[0] = '\0';
    if (!origin || !origin->file[0]) return;
    if (origin->line && origin->column)
        snprintf(out, size, "%s:%u:%u", origin->file, origin->line, origin->column);
    else if (origin->line)
        snprintf(out, size, "%s:%u", origin->file, origin->line);
    else
        snprintf(out, size, "%s", origin->file);
}

kvc_status diag_set(kvc_diag *diag, kvc_status status, const kvc_origin *origin,
                    const char *fmt, ...)
{
    if (!diag) return status;
    memset(diag, 0, sizeof *diag);
    diag->status = status;
    if (origin) {
        str_copy(diag->file, sizeof diag->file, origin->file);
        diag->line = origin->line;
        diag->column = origin->column;
        str_copy(diag->where, sizeof diag->where, origin->where);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    return status;
}

static void sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->oom) return;
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *p = realloc(sb->p, cap);
    if (!p) {
        sb->oom = 1;
        return;
    }
    sb->p = p;
    sb->cap = cap;
}

void sb_puts(strbuf *sb, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(sb, n);
    if (sb->oom) return;
    memcpy(sb->p + sb->len, s, n + 1);
    sb->len += n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    sb_reserve(sb, (size_t)n);
    if (sb->oom) return;
    va_start(ap, fmt);
    vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_pad(strbuf *sb, size_t width, const char *s)
{
    sb_puts(sb, s);
    for (size_t n = strlen(s); n < width; n++) sb_puts(sb, " ");
}

char *sb_take(strbuf *sb)
{
    char *p = sb->oom ? NULL : sb->p;
    if (sb->oom) free(sb->p);
    if (p == NULL && !sb->oom) p = calloc(1, 1);
    memset(sb, 0, sizeof *sb);
    return p;
}

kvc_status file_read_all(const char *path, char **out, size_t *len, kvc_diag *diag)
{
    kvc_origin origin;
    origin_set(&origin, path, 0, 0, "");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    RETURN_ERROR_IF(fd < 0, diag, KVC_ERR_IO, &origin, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int dir = S_ISDIR(st.st_mode);
        close(fd);
        return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: %s", path,
                        dir ? "it is a directory; give a file" : strerror(errno));
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return diag_set(diag, KVC_ERR_NOMEM, &origin, "out of memory reading %s", path);
    }
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                close(fd);
                return diag_set(diag, KVC_ERR_NOMEM, &origin, "out of memory reading %s", path);
            }
            buf = p;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: %s", path, strerror(e));
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return KVC_OK;
}

void path_dirname(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        str_copy(out, size, ".");
        return;
    }
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/file" */
    if (n >= size) n = size - 1;
    memcpy(out, path, n);
    out[n] = '\0';
}

void path_join(const char *base_dir, const char *rel, char *out, size_t size)
{
    if (rel[0] == '/' || !base_dir || !base_dir[0] || strcmp(base_dir, ".") == 0)
        str_copy(out, size, rel);
    else
        snprintf(out, size, "%s/%s", base_dir, rel);
}
