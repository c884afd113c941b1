/* detect: the first FZ_SCAN_PREFIX bytes choose the dimensions, the page
 * size (0: 64, then 1), the tensor filters and how the bytes are given
 * (README.md): a raw dump, a .npy or .safetensors file, or host memory. The
 * rest is the bytes. */
#include "fuzz.h"

#include <math.h>
#include <string.h>

static void check_detection(const kvc_detection *det)
{
    const char *best = kvc_detection_best(det);
    FZ_REQUIRE(best && best[0], "no best layout");
    double c = kvc_detection_confidence(det);
    FZ_REQUIRE(c >= 0 && c <= 1, "confidence %g", c);
    unsigned n = kvc_detection_candidate_count(det);
    FZ_REQUIRE(n <= KVC_MAX_CANDIDATES, "%u candidates", n);
    int listed = strcmp(best, "unknown") == 0;
    for (unsigned i = 0; i < n; i++) {
        const kvc_candidate *k = kvc_detection_candidate(det, i);
        FZ_REQUIRE(k && !isnan(k->score) && k->score >= 0 && k->score <= 1, "candidate %u: score %g", i,
                   k ? k->score : 0.0);
        FZ_REQUIRE(k->nfor <= KVC_MAX_EVIDENCE && k->nagainst <= KVC_MAX_EVIDENCE, "candidate %u: %u/%u notes", i,
                   k->nfor, k->nagainst);
        FZ_REQUIRE(memchr(k->layout, '\0', sizeof k->layout), "candidate %u: name not terminated", i);
        listed |= strcmp(k->layout, best) == 0;
    }
    FZ_REQUIRE(listed, "the best layout %s is not a candidate", best);
    FZ_REQUIRE(kvc_detection_candidate(det, n) == NULL, "a candidate past the end");
    fz_json(kvc_detection_json(det), "kvc_detection_json");
    fz_text(kvc_report_detect(det, KVC_FORMAT_TEXT, KVC_REPORT_VERBOSE | KVC_REPORT_COLOR), "kvc_report_detect text");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const NAMES[3] = {"dump.bin", "dump.npy", "dump.safetensors"};
    if (size < FZ_SCAN_PREFIX) return 0;
    fz_scan_setup s;
    fz_scan_setup_read(data, &s);
    const uint8_t *bytes = data + FZ_SCAN_PREFIX;
    size_t n = size - FZ_SCAN_PREFIX;
    kvc_diag d;
    kvc_detection *det = NULL;
    kvc_status st;
    if (s.kind == 3) {
        st = fz_check(kvc_detect_host(bytes, n, &s.params, &det, &d), &d, "kvc_detect_host");
    } else {
        const char *path = fz_write(NAMES[s.kind], bytes, n);
        const char *paths[2] = {path, path};
        st = fz_check(kvc_detect_files(paths, s.twice ? 2 : 1, &s.params, &s.options, &det, &d), &d,
                      "kvc_detect_files");
    }
    FZ_REQUIRE((st == KVC_OK) == (det != NULL), "detect: status %d, detection %p", (int)st, (void *)det);
    if (det) check_detection(det);
    kvc_detection_free(det);
    fz_cleanup();
    return 0;
}
