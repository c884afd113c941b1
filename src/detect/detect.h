/* detect: ranking the catalogue's layouts by how plausible bytes are under each. */
#ifndef KVC_DETECT_H
#define KVC_DETECT_H

#include "scan/scan.h"

/* Pages detect reads of each layer, at most. */
#define DETECT_SAMPLE_PAGES 64

/* Ranks the catalogue's layouts for opened inputs (kvc_detect_files's core). */
kvc_status detect_inputs(const scan_inputs *in, const kvc_layout_params *params, kvc_detection *out, kvc_diag *diag);

#endif /* KVC_DETECT_H */
