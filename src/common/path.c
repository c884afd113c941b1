/* Paths a user gives, joined without ever being cut: one that does not fit
 * is refused with the limit (path_join in file.c cuts). */
#include "common/common.h"

#include <string.h>

kvc_status path_join_checked(const char *base_dir, const char *rel, char *out, size_t size, const kvc_origin *origin,
                             kvc_diag *diag)
{
    int relative = rel[0] != '/' && base_dir && base_dir[0] && strcmp(base_dir, ".") != 0;
    size_t need = relative ? strlen(base_dir) + 1 + strlen(rel) : strlen(rel);
    size_t limit = size < KVC_PATH_LEN ? size : KVC_PATH_LEN;
    RETURN_ERROR_IF(need >= limit, diag, KVC_ERR_CONFIG, origin,
                    "the path %.60s... is %zu bytes long: kvcheck takes paths of up to %zu bytes",
                    relative ? base_dir : rel, need, limit - 1);
    path_join(base_dir, rel, out, size);
    return KVC_OK;
}
