/* Reading files (read-only) and joining paths. */
#include "common/common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


kvc_status file_read_all(const char *path, char **out, size_t *len, kvc_diag *diag)
{
    kvc_origin origin;
    origin_set(&origin, path, 0, 0, "");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    RETURN_ERROR_IF(fd < 0, diag, KVC_ERR_IO, &origin, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno; /* before close(), which may change it; st was not filled */
        close(fd);
        return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return diag_set(diag, KVC_ERR_IO, &origin, "cannot read %s: it is a directory; give a file", path);
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
