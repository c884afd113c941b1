/* The scan report's public accessors. */
#include "scanner/scanner.h"

#include <string.h>

int kvc_scan_report_clean(const kvc_scan_report *r) { return r->clean; }
const char *kvc_scan_report_device(const kvc_scan_report *r) { return r->device; }
const char *kvc_scan_report_device_name(const kvc_scan_report *r) { return r->device_name; }
const kvc_layout *kvc_scan_report_layout(const kvc_scan_report *r) { return &r->layout; }
uint64_t kvc_scan_report_bytes_scanned(const kvc_scan_report *r) { return r->bytes_scanned; }
uint64_t kvc_scan_report_pages_scanned(const kvc_scan_report *r) { return r->pages_scanned; }
double kvc_scan_report_seconds(const kvc_scan_report *r) { return r->seconds; }
uint64_t kvc_scan_report_count(const kvc_scan_report *r, kvc_check check)
{
    return (unsigned)check < KVC_CHECK_COUNT ? r->counts[check] : 0;
}
uint64_t kvc_scan_report_damaged(const kvc_scan_report *r) { return r->damaged; }
uint64_t kvc_scan_report_bad_pages(const kvc_scan_report *r) { return r->bad_pages; }
size_t kvc_scan_report_layer_count(const kvc_scan_report *r) { return r->nlayers; }
size_t kvc_scan_report_digests(const kvc_scan_report *r, uint64_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t l = 0; l < r->nlayers; l++) n += r->layers[l].pages_scanned;
    if (n > cap) return n; /* nothing copied: the caller asks again with room for n */
    for (size_t l = 0, at = 0; l < r->nlayers; at += r->layers[l++].pages_scanned)
        if (r->layers[l].pages_scanned) memcpy(out + at, r->layers[l].digests, r->layers[l].pages_scanned * sizeof *out);
    return n;
}
const kvc_scan_layer *kvc_scan_report_layer(const kvc_scan_report *r, size_t i)
{
    return i < r->nlayers ? &r->layers[i] : NULL;
}
size_t kvc_scan_report_finding_count(const kvc_scan_report *r) { return r->nfindings; }
const kvc_finding *kvc_scan_report_finding(const kvc_scan_report *r, size_t i)
{
    return i < r->nfindings ? &r->findings[i] : NULL;
}
unsigned kvc_scan_report_note_count(const kvc_scan_report *r) { return r->nnotes; }
const char *kvc_scan_report_note(const kvc_scan_report *r, unsigned i) { return i < r->nnotes ? r->notes[i] : NULL; }

const char *kvc_scan_report_looks_like(const kvc_scan_report *r, uint32_t *bytes_per_token, double *confidence)
{
    if (!r->looks_like[0]) return NULL;
    if (bytes_per_token) *bytes_per_token = r->looks_like_bytes_per_token;
    if (confidence) *confidence = r->looks_like_confidence;
    return r->looks_like;
}
