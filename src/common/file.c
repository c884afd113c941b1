/* Reading files (read-only) and joining paths. */
#include "common/common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* "a FIFO" and so on, for a file that is not a regular one. */
static const char *file_type(mode_t mode)
{
    return S_ISFIFO(mode)   ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "of an unknown type";
}

kvc_status file_open_regular(const char *path, const char *dir_hint, int *fd, uint64_t *size, kvc_diag *diag)
{
    kvc_origin origin;
    origin_set(&origin, path, 0, 0, "");
    *fd = -1;
    /* O_NONBLOCK: a FIFO without a writer would block open() for ever */
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (f < 0) {
        int e = errno;
        struct stat st;
        if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* a socket cannot be opened */
            return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: not a regular file (%s)", path,
                            file_type(st.st_mode));
        return diag_set(diag, KVC_ERR_IO, &origin, "cannot open %s: %s", path, strerror(e));
    }
    struct stat st;
    const char *not_regular = NULL;
    int e = 0;
    if (fstat(f, &st) != 0) e = errno; /* before close(), which may change it; st was not filled */
    else if (S_ISDIR(st.st_mode)) not_regular = dir_hint;
    else if (!S_ISREG(st.st_mode)) not_regular = file_type(st.st_mode);
    else if (fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK) != 0) e = errno;
    if (e || not_regular) {
        close(f);
        if (e) return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: %s", path, strerror(e));
        if (not_regular == dir_hint) return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: %s", path, dir_hint);
        return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: not a regular file (%s)", path, not_regular);
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return KVC_OK;
}

kvc_status file_read_all(const char *path, char **out, size_t *len, kvc_diag *diag)
{
    kvc_origin origin;
    origin_set(&origin, path, 0, 0, "");
    int fd;
    uint64_t size;
    RETURN_IF_ERROR(file_open_regular(path, "it is a directory; give a file", &fd, &size, diag));
    /* checked again while reading: the file may grow */
    const size_t limit = FILE_READ_LIMIT;
    if (size > limit) {
        close(fd);
        return diag_set(diag, KVC_ERR_CONFIG, &origin,
                        "%s holds %llu bytes; a configuration file may hold at most %zu MiB", path,
                        (unsigned long long)size, limit >> 20);
    }
    size_t cap = size > 0 ? (size_t)size + 2 : 4096; /* + 2: the NUL, and the end seen in one read */
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return diag_set(diag, KVC_ERR_NOMEM, &origin, "out of memory reading %s", path);
    }
    size_t n = 0;
    for (;;) {
        if (n > limit) {
            free(buf);
            close(fd);
            return diag_set(diag, KVC_ERR_CONFIG, &origin,
                            "%s holds more than %zu MiB, the most a configuration file may hold", path, limit >> 20);
        }
        if (n + 1 >= cap) {
            size_t grown = cap * 2 < limit + 2 ? cap * 2 : limit + 2; /* room for one byte too many */
            char *p = realloc(buf, grown);
            if (!p) {
                free(buf);
                close(fd);
                return diag_set(diag, KVC_ERR_NOMEM, &origin, "out of memory reading %s", path);
            }
            buf = p;
            cap = grown;
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
