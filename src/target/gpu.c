/* GPU names to compute capability. A new GPU is one row. */
#include "target/target.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct gpu_row {
    const char *name; /* canonical product name; matched ignoring case, spaces, dashes */
    unsigned major, minor;
    int hip;
} GPUS[] = {
    {"A100", 8, 0, 0},        {"A800", 8, 0, 0},       {"L40S", 8, 9, 0},
    {"H100", 9, 0, 0},        {"H200", 9, 0, 0},       {"H20", 9, 0, 0},
    {"H800", 9, 0, 0},        {"GH200", 9, 0, 0},      {"B200", 10, 0, 0},
    {"GB200", 10, 0, 0},      {"B300", 10, 3, 0},      {"GB300", 10, 3, 0},
    {"RTX PRO 6000", 12, 0, 0}, {"RTX 5090", 12, 0, 0}, {"RTX 5080", 12, 0, 0},
    {"GB10", 12, 1, 0},       {"DGX Spark", 12, 1, 0},
    /* ROCm reports gfx942 as 9.4 and gfx950 as 9.5 through torch. */
    {"MI300X", 9, 4, 1},      {"MI325X", 9, 4, 1},     {"MI355X", 9, 5, 1},
    {"MI350X", 9, 5, 1},
};

/* Lower-case letters and digits only: "RTX-PRO 6000" -> "rtxpro6000". */
static void squash(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        if (isalnum((unsigned char)*in)) out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}

static int parse_uint(const char *s, const char **end, unsigned *out)
{
    if (!isdigit((unsigned char)*s)) return 0;
    char *stop = NULL;
    unsigned long v = strtoul(s, &stop, 10);
    if (v > 1000) return 0;
    *end = stop;
    *out = (unsigned)v;
    return 1;
}

/* "sm_103", "sm103", "sm_90a", "sm_120f" -> 10.3, 9.0, 12.0 */
static int parse_sm(const char *text, unsigned *major, unsigned *minor)
{
    if (tolower((unsigned char)text[0]) != 's' || tolower((unsigned char)text[1]) != 'm') return 0;
    const char *p = text + 2;
    if (*p == '_') p++;
    const char *end;
    unsigned v;
    if (!parse_uint(p, &end, &v) || v < 10) return 0;
    if (*end && !((*end == 'a' || *end == 'f') && end[1] == '\0')) return 0;
    *major = v / 10;
    *minor = v % 10;
    return 1;
}

/* "10.3" */
static int parse_cc(const char *text, unsigned *major, unsigned *minor)
{
    const char *end;
    if (!parse_uint(text, &end, major) || *end != '.') return 0;
    const char *end2;
    if (!parse_uint(end + 1, &end2, minor) || *end2 || *minor > 9) return 0;
    return *major >= 1;
}

kvc_status gpu_parse(const char *text, gpu_info *out, const kvc_origin *origin, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    char key[64];
    squash(text, key, sizeof key);
    /* "NVIDIA B300", "AMD Instinct MI300X" */
    const char *k = key;
    if (strncmp(k, "nvidia", 6) == 0) k += 6;
    if (strncmp(k, "amdinstinct", 11) == 0) k += 11;
    for (size_t i = 0; i < COUNT_OF(GPUS); i++) {
        char row[64];
        squash(GPUS[i].name, row, sizeof row);
        if (strcmp(row, k) == 0) {
            str_copy(out->name, sizeof out->name, GPUS[i].name);
            out->major = GPUS[i].major;
            out->minor = GPUS[i].minor;
            out->hip = GPUS[i].hip;
            return KVC_OK;
        }
    }
    if (parse_sm(text, &out->major, &out->minor) || parse_cc(text, &out->major, &out->minor)) {
        str_printf(out->name, sizeof out->name, "sm_%u%u", out->major, out->minor);
        return KVC_OK;
    }
    char known[512] = "";
    for (size_t i = 0; i < COUNT_OF(GPUS); i++) str_join_add(known, sizeof known, ", ", GPUS[i].name);
    return diag_set(diag, KVC_ERR_CONFIG, origin,
                    "unknown GPU '%s': give a product name (%s), sm_NN (sm_103) or a compute "
                    "capability (10.3)",
                    text, known);
}
