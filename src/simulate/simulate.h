/* simulate: prefill's pages written, moved as the transfer moves them, read
 * back and scanned as decode reads them, on the CPU or the GPU. */
#ifndef KVC_SIMULATE_STAGE_H
#define KVC_SIMULATE_STAGE_H

#include "compare/compare.h"
#include "scanner/scanner.h"

#endif /* KVC_SIMULATE_STAGE_H */
