/* GPU names to compute capability. A new GPU is one row. */
#include "target/target.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The memory columns are what the driver reports for one GPU, in MiB (nvidia-smi's memory.total; rocminfo's first
 * pool; GB10, whose nvidia-smi prints [N/A], torch's total), the least and the most among the products of the name:
 * an A100 has 40 or 80 GB, an H100 80 (SXM, PCIe) or 94 GB (NVL), an H20 96 or 141 GB. Engines read it for
 * defaults that follow the GPU's memory (SGLang's chunked prefill size). */
static const struct gpu_row {
    const char *name; /* canonical product name; matched ignoring case, spaces, dashes, and what follows it */
    unsigned major, minor;
    int hip;
    unsigned mem_lo, mem_hi;
} GPUS[] = {
    {"A100", 8, 0, 0, 40960, 81920},         {"A800", 8, 0, 0, 40960, 81920},
    {"L40S", 8, 9, 0, 46068, 46068},         {"H100", 9, 0, 0, 81559, 95830},
    {"H200", 9, 0, 0, 143771, 143771},       {"H20", 9, 0, 0, 97871, 143771},
    {"H800", 9, 0, 0, 81559, 95830},         {"GH200", 9, 0, 0, 97871, 146800},
    {"B200", 10, 0, 0, 183359, 183359},      {"GB200", 10, 0, 0, 189471, 189471},
    {"B300", 10, 3, 0, 275040, 275040},      {"GB300", 10, 3, 0, 284672, 284672},
    {"RTX PRO 6000", 12, 0, 0, 97887, 97887}, {"RTX 5090", 12, 0, 0, 32607, 32607},
    {"RTX 5080", 12, 0, 0, 16303, 16303},    {"GB10", 12, 1, 0, 124620, 124620},
    {"DGX Spark", 12, 1, 0, 124620, 124620},
    /* ROCm reports gfx942 as 9.4 and gfx950 as 9.5 through torch. */
    {"MI300X", 9, 4, 1, 196592, 196592},     {"MI325X", 9, 4, 1, 262144, 262144},
    {"MI355X", 9, 5, 1, 294912, 294912},     {"MI350X", 9, 5, 1, 294912, 294912},
};

/* The memory a name states after its product, "80GB" or "80 GB" as in "NVIDIA H100 80GB HBM3" and
 * "A100-SXM4-40GB": *lo and *hi get N GB as the driver may report it, N x 1000 to N x 1024 MiB; 0 when it states
 * none. Pure. */
static int stated_memory(const char *text, unsigned *lo, unsigned *hi)
{
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > text && isalnum((unsigned char)p[-1]))) continue;
        char *end;
        unsigned long gb = strtoul(p, &end, 10);
        while (*end == ' ') end++;
        if (gb == 0 || gb > 4096 || strncasecmp(end, "gb", 2) != 0 || isalnum((unsigned char)end[2])) continue;
        *lo = (unsigned)gb * 1000;
        *hi = (unsigned)gb * 1024;
        return 1;
    }
    return 0;
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

/* Vendor words nvidia-smi and ROCm put before the product ("NVIDIA GeForce
 * RTX 5090", "AMD Instinct MI300X"), squashed. */
static const char *const VENDOR_WORDS[] = {"nvidia", "amd", "instinct", "geforce", "tesla"};

/* Skips the vendor words at the start of `text`; returns where the product starts. */
static const char *skip_vendor(const char *text)
{
    for (int again = 1; again;) {
        again = 0;
        while (*text == ' ' || *text == '\t') text++;
        for (size_t i = 0; i < COUNT_OF(VENDOR_WORDS); i++) {
            size_t n = strlen(VENDOR_WORDS[i]);
            if (strncasecmp(text, VENDOR_WORDS[i], n) == 0 && !isalnum((unsigned char)text[n])) {
                text += n;
                again = 1;
            }
        }
    }
    return text;
}

/* 1 when `text` starts with the product `row` (letters and digits compared
 * without case, anything else in `text` skipped) and the product's name ends
 * there: at the end or at a space, dash or other separator, so "H20-3e" is
 * an H20 and "H200 NVL" an H200, but "H200" is no H20. */
static int product_matches(const char *text, const char *row)
{
    const char *t = text;
    for (const char *r = row; *r; r++) {
        if (!isalnum((unsigned char)*r)) continue;
        while (*t && !isalnum((unsigned char)*t)) t++;
        if (tolower((unsigned char)*t) != tolower((unsigned char)*r)) return 0;
        t++;
    }
    return !isalnum((unsigned char)*t);
}

kvc_status gpu_parse(const char *text, gpu_info *out, const kvc_origin *origin, kvc_diag *diag)
{
    memset(out, 0, sizeof *out);
    /* "NVIDIA B300 SXM6 AC", "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X":
     * the longest product name that the text starts with, after the vendor. */
    const char *product = skip_vendor(text);
    const struct gpu_row *best = NULL;
    for (size_t i = 0; i < COUNT_OF(GPUS); i++)
        if (product_matches(product, GPUS[i].name) && (!best || strlen(GPUS[i].name) > strlen(best->name)))
            best = &GPUS[i];
    if (best) {
        str_copy(out->name, sizeof out->name, best->name);
        out->major = best->major;
        out->minor = best->minor;
        out->hip = best->hip;
        /* a stated size narrows the product's; one outside it is not the GPU's memory ("GH200 480GB": the CPU's) */
        unsigned lo, hi;
        int stated = stated_memory(product, &lo, &hi) && lo <= best->mem_hi && hi >= best->mem_lo;
        out->mem_lo_mib = stated && lo > best->mem_lo ? lo : best->mem_lo;
        out->mem_hi_mib = stated && hi < best->mem_hi ? hi : best->mem_hi;
        return KVC_OK;
    }
    RETURN_ERROR_IF(strcasecmp(text, "auto") == 0, diag, KVC_ERR_CONFIG, origin,
                    "GPU 'auto': only kvcheck's --gpu option asks this machine's driver; a worker describes the GPU "
                    "it runs on, so name it (B300, \"NVIDIA H100 80GB HBM3\", sm_100, 10.3)");
    if (parse_sm(text, &out->major, &out->minor) || parse_cc(text, &out->major, &out->minor)) {
        out->mem_hi_mib = UINT_MAX;
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
