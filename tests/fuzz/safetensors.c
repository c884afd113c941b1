/* .safetensors scans: the first FZ_SCAN_PREFIX bytes choose the layout, its
 * dimensions, the scan options and the tensor filters (README.md); the rest
 * is the .safetensors file. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < FZ_SCAN_PREFIX) return 0;
    fz_scan_setup s;
    fz_scan_setup_read(data, &s);
    fz_scan_file(&s, fz_write("layers.safetensors", data + FZ_SCAN_PREFIX, size - FZ_SCAN_PREFIX));
    fz_cleanup();
    return 0;
}
