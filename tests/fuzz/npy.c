/* .npy scans: the first FZ_SCAN_PREFIX bytes choose the layout, its
 * dimensions and the scan options (README.md); the rest is the .npy file. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FZ_SCAN_PREFIX) return 0;
    fz_scan_setup s;
    fz_scan_setup_read(data, &s);
    fz_scan_file(&s, fz_write("pages.npy", data + FZ_SCAN_PREFIX, size - FZ_SCAN_PREFIX));
    fz_cleanup();
    return 0;
}
