/* The scanner: one run loop over any page source on the chosen device (CPU
 * or GPU), building the scan report. */
#ifndef KVC_SCANNER_H
#define KVC_SCANNER_H

#include "detect/detect.h"
#include "gpu/gpu.h"
#include "source/source.h"

/* The scan entry points with an injectable driver (NULL: the real one). */
kvc_status scan_inputs_run(const scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                           const cuda_api *driver, kvc_scan_report **out, kvc_diag *diag);
kvc_status scan_device_run(uint64_t device_ptr, size_t bytes, const kvc_layout *layout,
                           const kvc_scan_options *options, const cuda_api *driver, kvc_scan_report **out,
                           kvc_diag *diag);

#endif /* KVC_SCANNER_H */
