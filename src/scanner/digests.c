/* Digest files: what one side scanned, written down page by page, and the
 * other side's pages compared with it. */
#include "scanner/scanner.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

kvc_status kvc_scan_report_write_digests(const kvc_scan_report *r, const char *path, kvc_diag *diag)
{
    kvc_origin o;
    origin_set(&o, path, 0, 0, "--digests");
    FILE *f = fopen(path, "w");
    RETURN_ERROR_IF(!f, diag, KVC_ERR_IO, &o, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "# kvcheck page digests: layout %s, %" PRIu64 " B/page (kernels/kvc_digest.h)\n# layer\tpage\tdigest\tname\n",
            r->layout.name, r->layout.page_bytes);
    for (size_t l = 0; l < r->nlayers; l++) {
        const kvc_scan_layer *x = &r->layers[l];
        for (uint64_t i = 0; i < x->pages_scanned; i++)
            fprintf(f, "%zu\t%" PRIu64 "\t%016" PRIx64 "\t%s\n", l, x->scanned ? x->scanned[i] : i, x->digests[i], x->name);
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    RETURN_ERROR_IF(bad, diag, KVC_ERR_IO, &o, "cannot write %s: %s", path, strerror(errno));
    return KVC_OK;
}

/* Where each page of a layer was scanned: index + 1 into its digests, 0 when it was not. */
static kvc_status page_index(const kvc_scan_layer *x, uint64_t **out, kvc_diag *diag)
{
    *out = calloc(x->pages ? x->pages : 1, sizeof **out);
    RETURN_ERROR_IF(!*out, diag, KVC_ERR_NOMEM, NULL, "out of memory");
    for (uint64_t i = 0; i < x->pages_scanned; i++) (*out)[x->scanned ? x->scanned[i] : i] = i + 1;
    return KVC_OK;
}

static kvc_status add_issue(kvc_scan_report *r, size_t *cap, kvc_digest_issue issue, kvc_diag *diag)
{
    if (r->nissues == *cap) {
        size_t n = *cap ? 2 * *cap : 64;
        kvc_digest_issue *p = realloc(r->issues, n * sizeof *p);
        RETURN_ERROR_IF(!p, diag, KVC_ERR_NOMEM, NULL, "out of memory for the digest issues");
        r->issues = p, *cap = n;
    }
    r->issues[r->nissues++] = issue;
    return KVC_OK;
}

/* One line "LAYER PAGE DIGEST [NAME]"; 0 when malformed. */
static int parse_line(const char *line, uint64_t *layer, uint64_t *page, uint64_t *digest)
{
    const char *p = line;
    if (!str_parse_u64(&p, layer) || (*p != ' ' && *p != '\t')) return 0;
    while (*p == ' ' || *p == '\t') p++;
    if (!str_parse_u64(&p, page) || (*p != ' ' && *p != '\t')) return 0;
    while (*p == ' ' || *p == '\t') p++;
    char *end;
    errno = 0;
    *digest = strtoull(p, &end, 16);
    return end - p == 16 && !errno && (*end == '\0' || *end == ' ' || *end == '\t' || *end == '\r');
}

static kvc_status compare_file(kvc_scan_report *r, char *text, uint64_t **index, const char *path, kvc_diag *diag)
{
    const uint64_t zero = kvc_zero_page_digest(&r->layout);
    size_t cap = 0;
    unsigned lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        lineno++;
        if (line[0] == '#' || line[0] == '\0' || line[0] == '\r') continue;
        uint64_t layer, page, digest;
        kvc_origin o;
        origin_set(&o, path, lineno, 1, "--expect-digests");
        RETURN_ERROR_IF(!parse_line(line, &layer, &page, &digest), diag, KVC_ERR_CONFIG, &o,
                        "expected LAYER PAGE DIGEST (two numbers and 16 hex digits, as --digests writes them)");
        kvc_digest_issue issue = {(unsigned)layer, page, KVC_PAGE_MISSING, digest, 0};
        if (layer < r->nlayers && page < r->layers[layer].pages) {
            if (!index[layer]) RETURN_IF_ERROR(page_index(&r->layers[layer], &index[layer], diag));
            uint64_t at = index[layer][page];
            if (!at) continue; /* a page the scan was told to skip */
            issue.actual = r->layers[layer].digests[at - 1];
            issue.state = digest == issue.actual ? KVC_PAGE_SAME : issue.actual == zero ? KVC_PAGE_ZERO : KVC_PAGE_CHANGED;
        }
        r->digest_states[issue.state]++;
        if (issue.state != KVC_PAGE_SAME) RETURN_IF_ERROR(add_issue(r, &cap, issue, diag));
    }
    return KVC_OK;
}

kvc_status kvc_scan_report_expect_digests(kvc_scan_report *r, const char *path, kvc_diag *diag)
{
    char *text = NULL;
    size_t len;
    RETURN_IF_ERROR(file_read_all(path, &text, &len, diag));
    uint64_t **index = calloc(r->nlayers ? r->nlayers : 1, sizeof *index);
    kvc_status st = index ? KVC_OK : diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    memset(r->digest_states, 0, sizeof r->digest_states);
    r->nissues = 0;
    if (!st) st = compare_file(r, text, index, path, diag);
    for (size_t l = 0; index && l < r->nlayers; l++) free(index[l]);
    free(index);
    free(text);
    str_copy(r->digest_file, sizeof r->digest_file, st ? "" : path);
    r->clean = r->damaged == 0 && (st || r->nissues == 0);
    return st;
}

uint64_t kvc_scan_report_digests_compared(const kvc_scan_report *r)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < KVC_PAGE_STATES; i++) n += r->digest_states[i];
    return n;
}

size_t kvc_scan_report_digest_issue_count(const kvc_scan_report *r) { return r->nissues; }

const kvc_digest_issue *kvc_scan_report_digest_issue(const kvc_scan_report *r, size_t i)
{
    return i < r->nissues ? &r->issues[i] : NULL;
}
