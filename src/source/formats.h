/* Within the source stage: each file format splits a mapped file into
 * layers of whole pages. Not for other stages. */
#ifndef KVC_SOURCE_FORMATS_H
#define KVC_SOURCE_FORMATS_H

#include "source/source.h"

/* Adds a layer of `bytes` at `data` (file offset `offset`) from the file opened last. */
kvc_status source_add_layer(scan_inputs *in, const char *name, const char *file, const uint8_t *data,
                            uint64_t offset, uint64_t bytes, kvc_diag *diag);
/* KVC_OK when `bytes` are whole pages of `l` (any size when `l` is NULL);
 * else the error names the layouts whose pages would fit. */
kvc_status source_check_pages(const kvc_layout *l, const char *file, const char *what, uint64_t bytes,
                              kvc_diag *diag);
kvc_status source_open_npy(scan_inputs *in, const kvc_layout *l, const char *path, const uint8_t *data,
                           uint64_t size, kvc_diag *diag);
kvc_status source_open_safetensors(scan_inputs *in, const kvc_layout *l, const kvc_scan_options *opt,
                                   const char *path, const uint8_t *data, uint64_t size, unsigned char *matched,
                                   kvc_diag *diag);

#endif /* KVC_SOURCE_FORMATS_H */
