/* Versions, status names and diagnostics: the one NULL-safe way every stage
 * reports a failure. */
#include "common/common.h"

#include <stdlib.h>
#include <string.h>

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

/* Copies `src`; one that does not fit ends with "..." rather than being cut silently. */
static void copy_marked(char *dst, size_t size, const char *src)
{
    str_copy(dst, size, src);
    if (src && strlen(src) >= size && size > 4) memcpy(dst + size - 4, "...", 4);
}

void origin_set(kvc_origin *origin, const char *file, unsigned line, unsigned column,
                const char *where)
{
    copy_marked(origin->file, sizeof origin->file, file);
    origin->line = line;
    origin->column = column;
    copy_marked(origin->where, sizeof origin->where, where);
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
    int n = vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof diag->message) memcpy(diag->message + sizeof diag->message - 4, "...", 4);
    return status;
}
