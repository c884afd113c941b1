/* Scan reports: a summary first, then a table per layer, the damaged pages
 * and the findings (text); or one JSON document with stable keys. */
#include "report/report.h"
#include "detect/detect.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the report's layout and policies judge elements by `c`. */
static int check_applies(const kvc_scan_report *r, kvc_check c)
{
    if (c == KVC_CHECK_SCALE_NOT_POW2 && !r->scale_pow2) return 0;
    if (c == KVC_CHECK_SCALE_OUT_OF_RANGE && !r->scale_ranged) return 0;
    for (unsigned i = 0; i < r->layout.nfields; i++) {
        if (kind_judged_by(field_kind(&r->layout.fields[i]), c)) return 1;
    }
    return 0;
}

static void raw_hex(const kvc_finding *f, char *out, size_t size)
{
    unsigned n = kvc_elem_size(f->elem);
    out[0] = '\0';
    /* most significant byte first, as the value's bits read */
    str_copy(out, size, "0x");
    for (unsigned i = n; i-- > 0;) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%02x", f->raw[i]);
    }
}

static void value_text(double v, char *out, size_t size)
{
    if (isnan(v)) str_copy(out, size, "NaN");
    else if (isinf(v)) str_copy(out, size, v > 0 ? "+Inf" : "-Inf");
    else str_printf(out, size, "%.6g", v);
}

static void policy_text(const kvc_scan_report *r, char *out, size_t size)
{
    str_copy(out, size, "scales finite, positive and normal");
    size_t n = strlen(out);
    if (r->scale_pow2) snprintf(out + n, size - n, ", powers of two");
    n = strlen(out);
    if (r->scale_ranged) snprintf(out + n, size - n, ", within [%g, %g]", r->scale_min, r->scale_max);
}

/* "0-3, 7, 9-12" from a layer's damaged pages, at most `max` ranges. */
static void page_ranges(strbuf *sb, const kvc_scan_layer *l, unsigned max)
{
    unsigned shown = 0;
    for (size_t i = 0; i < l->nbad_pages;) {
        size_t j = i;
        while (j + 1 < l->nbad_pages && l->bad_pages[j + 1].page == l->bad_pages[j].page + 1) j++;
        if (shown++ == max) {
            sb_puts(sb, ", ...");
            return;
        }
        sb_printf(sb, "%s%llu", i ? ", " : "", (unsigned long long)l->bad_pages[i].page);
        if (j > i) sb_printf(sb, "-%llu", (unsigned long long)l->bad_pages[j].page);
        i = j + 1;
    }
}

/* The comparison with the other side's digests, and its first issues. */
static void text_digests(strbuf *sb, const kvc_scan_report *r, int w)
{
    if (!r->digest_file[0]) return;
    const uint64_t *n = r->digest_states;
    sb_printf(sb, "\ndigests against %s: %llu page%s compared: %llu same, %llu changed, %llu all zero (never written), "
                  "%llu missing (never arrived)\n",
              r->digest_file, (unsigned long long)kvc_scan_report_digests_compared(r),
              kvc_scan_report_digests_compared(r) == 1 ? "" : "s", (unsigned long long)n[KVC_PAGE_SAME],
              (unsigned long long)n[KVC_PAGE_CHANGED], (unsigned long long)n[KVC_PAGE_ZERO],
              (unsigned long long)n[KVC_PAGE_MISSING]);
    const size_t shown = r->nissues < 20 ? r->nissues : 20;
    if (!shown) return;
    sb_printf(sb, "  %-*s %6s %-8s %-16s %-16s\n", w, "layer", "page", "state", "expected", "scanned");
    for (size_t i = 0; i < shown; i++) {
        const kvc_digest_issue *x = &r->issues[i];
        char layer[32];
        str_printf(layer, sizeof layer, "layer %u", x->layer);
        sb_printf(sb, "  %-*s %6llu %-8s %016llx %016llx\n", w, x->layer < r->nlayers ? r->layers[x->layer].name : layer,
                  (unsigned long long)x->page, kvc_page_state_name(x->state), (unsigned long long)x->expected,
                  (unsigned long long)x->actual);
    }
    if (shown < r->nissues) sb_printf(sb, "  ... and %zu more\n", r->nissues - shown);
}

static char *text_scan(const kvc_scan_report *r, unsigned options)
{
    strbuf sb = {0};
    const kvc_layout *l = &r->layout;
    if (r->clean) {
        text_styled(&sb, STYLE_GREEN, "CLEAN");
        sb_printf(&sb, ": no damaged elements in %llu page%s of %s (%u B/token)%s\n", (unsigned long long)r->pages_scanned,
                  r->pages_scanned == 1 ? "" : "s", l->name, l->bytes_per_token,
                  r->digest_file[0] ? ", every page as the other side sent it" : "");
    } else if (!r->damaged) {
        text_styled(&sb, STYLE_RED, "CHANGED");
        const uint64_t *n = r->digest_states;
        sb_printf(&sb, ": %zu page%s not what %s records (%llu changed, %llu all zero, %llu missing)\n", r->nissues,
                  r->nissues == 1 ? " is" : "s are", r->digest_file, (unsigned long long)n[KVC_PAGE_CHANGED],
                  (unsigned long long)n[KVC_PAGE_ZERO], (unsigned long long)n[KVC_PAGE_MISSING]);
    } else {
        text_styled(&sb, STYLE_RED, "DAMAGED");
        sb_printf(&sb, ": %llu damaged element%s in %llu of %llu page%s read as %s (%u B/token)\n",
                  (unsigned long long)r->damaged, r->damaged == 1 ? "" : "s", (unsigned long long)r->bad_pages,
                  (unsigned long long)r->pages_scanned, r->pages_scanned == 1 ? "" : "s", l->name, l->bytes_per_token);
    }
    if (r->looks_like[0]) {
        text_mark(&sb, STYLE_YELLOW);
        sb_printf(&sb, "these pages look like %s, %u B/token (confidence %.2f); you asked for %s, %u B/token",
                  r->looks_like, r->looks_like_bytes_per_token, r->looks_like_confidence, l->name, l->bytes_per_token);
        text_mark(&sb, STYLE_OFF);
        sb_puts(&sb, "\n");
    }
    if (options & KVC_REPORT_QUIET) return text_finish(&sb, options);
    int w = 5; /* the layer column fits the longest name */
    for (size_t i = 0; i < r->nlayers; i++)
        if ((int)strlen(r->layers[i].name) > w) w = (int)strlen(r->layers[i].name);

    char policy[160];
    policy_text(r, policy, sizeof policy);
    sb_printf(&sb, "\n  layout   %s: %u B/token, page of %u tokens = %llu B/page%s%s%s\n", l->name, l->bytes_per_token,
              l->page_size, (unsigned long long)l->page_bytes, r->layout_source[0] ? " (" : "", r->layout_source,
              r->layout_source[0] ? ")" : "");
    if (options & KVC_REPORT_VERBOSE) report_text_fields(&sb, l);
    sb_printf(&sb, "  device   %s (%s)\n", r->device, r->device_name);
    sb_printf(&sb, "  scanned  %llu page%s, %llu bytes, %zu layer%s in %.3f s (%.2f GB/s)\n",
              (unsigned long long)r->pages_scanned, r->pages_scanned == 1 ? "" : "s",
              (unsigned long long)r->bytes_scanned, r->nlayers, r->nlayers == 1 ? "" : "s", r->seconds,
              r->seconds > 0 ? (double)r->bytes_scanned / r->seconds / 1e9 : 0.0);
    sb_puts(&sb, "  checks  ");
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++)
        if (check_applies(r, (kvc_check)c)) sb_printf(&sb, " %s", kvc_check_name((kvc_check)c));
    sb_printf(&sb, "\n  policy   %s\n", policy);

    sb_puts(&sb, "\ncounts:\n");
    int any = 0;
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++) {
        if (!check_applies(r, (kvc_check)c) && !r->counts[c]) continue;
        if (!r->counts[c] && !(options & KVC_REPORT_VERBOSE)) continue;
        sb_printf(&sb, "  %-20s %llu\n", kvc_check_name((kvc_check)c), (unsigned long long)r->counts[c]);
        any = 1;
    }
    if (!any) sb_puts(&sb, "  every check passed\n");

    sb_puts(&sb, "\nper layer:\n");
    sb_printf(&sb, "  %-*s %10s %10s %14s %16s\n", w, "layer", "pages", "scanned", "damaged pages", "damaged elements");
    for (size_t i = 0; i < r->nlayers; i++) {
        const kvc_scan_layer *x = &r->layers[i];
        sb_printf(&sb, "  %-*s %10llu %10llu %14zu %16llu\n", w, x->name, (unsigned long long)x->pages,
                  (unsigned long long)x->pages_scanned, x->nbad_pages, (unsigned long long)x->damaged);
    }
    text_digests(&sb, r, w);
    if (r->damaged) {
        sb_puts(&sb, "\ndamaged pages:\n");
        for (size_t i = 0; i < r->nlayers; i++) {
            if (!r->layers[i].nbad_pages) continue;
            sb_printf(&sb, "  %s: ", r->layers[i].name);
            page_ranges(&sb, &r->layers[i], 16);
            sb_puts(&sb, "\n");
        }
        sb_printf(&sb, "\nfindings (the first %zu of %llu, in input order):\n", r->nfindings,
                  (unsigned long long)r->damaged);
        sb_printf(&sb, "  %-*s %6s %4s %-6s %5s %12s %-10s %-12s %s\n", w, "layer", "page", "slot", "field", "elem",
                  "offset", "raw", "value", "check");
        for (size_t i = 0; i < r->nfindings; i++) {
            const kvc_finding *f = &r->findings[i];
            char raw[16], value[32];
            raw_hex(f, raw, sizeof raw);
            value_text(f->value, value, sizeof value);
            sb_printf(&sb, "  %-*s %6llu %4llu %-6s %5u %12llu %-10s %-12s %s\n", w, r->layers[f->layer].name,
                      (unsigned long long)f->page, (unsigned long long)f->slot, f->field, f->element,
                      (unsigned long long)f->offset, raw, value, kvc_check_name(f->check));
        }
    }
    return text_finish(&sb, options);
}

static cJSON *json_counts(const kvc_scan_report *r, const uint64_t *counts, int all)
{
    cJSON *o = cJSON_CreateObject();
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++)
        if ((all && check_applies(r, (kvc_check)c)) || counts[c])
            cJSON_AddNumberToObject(o, kvc_check_name((kvc_check)c), (double)counts[c]);
    return o;
}

static cJSON *json_value(double v)
{
    if (isnan(v)) return cJSON_CreateString("NaN");
    if (isinf(v)) return cJSON_CreateString(v > 0 ? "Infinity" : "-Infinity");
    return cJSON_CreateNumber(v);
}

/* "digests": null, or the comparison with the other side's digests. */
static void json_digests(cJSON *o, const kvc_scan_report *r)
{
    if (!r->digest_file[0]) {
        cJSON_AddNullToObject(o, "digests");
        return;
    }
    cJSON *d = cJSON_AddObjectToObject(o, "digests");
    cJSON_AddStringToObject(d, "expected_file", r->digest_file);
    cJSON_AddNumberToObject(d, "compared", (double)kvc_scan_report_digests_compared(r));
    for (unsigned s = 0; s < KVC_PAGE_STATES; s++)
        cJSON_AddNumberToObject(d, kvc_page_state_name((kvc_page_state)s), (double)r->digest_states[s]);
    cJSON *issues = cJSON_AddArrayToObject(d, "issues");
    for (size_t i = 0; i < r->nissues; i++) {
        const kvc_digest_issue *x = &r->issues[i];
        cJSON *j = cJSON_CreateObject();
        char hex[2][20];
        str_printf(hex[0], sizeof hex[0], "%016llx", (unsigned long long)x->expected);
        str_printf(hex[1], sizeof hex[1], "%016llx", (unsigned long long)x->actual);
        cJSON_AddNumberToObject(j, "layer", x->layer);
        cJSON_AddNumberToObject(j, "page", (double)x->page);
        cJSON_AddStringToObject(j, "state", kvc_page_state_name(x->state));
        cJSON_AddStringToObject(j, "expected", hex[0]);
        cJSON_AddStringToObject(j, "scanned", hex[1]);
        cJSON_AddItemToArray(issues, j);
    }
}

static char *json_scan(const kvc_scan_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "clean", r->clean);
    cJSON_AddStringToObject(o, "device", r->device);
    cJSON_AddStringToObject(o, "device_name", r->device_name);
    cJSON_AddItemToObject(o, "layout", report_json_layout(&r->layout));
    cJSON_AddStringToObject(o, "layout_source", r->layout_source);
    cJSON *policy = cJSON_AddObjectToObject(o, "scale_policy");
    cJSON_AddStringToObject(policy, "values", r->scale_pow2 ? "pow2" : "any");
    if (r->scale_ranged) {
        cJSON *range = cJSON_AddArrayToObject(policy, "range");
        cJSON_AddItemToArray(range, cJSON_CreateNumber(r->scale_min));
        cJSON_AddItemToArray(range, cJSON_CreateNumber(r->scale_max));
    } else {
        cJSON_AddNullToObject(policy, "range");
    }
    cJSON_AddNumberToObject(o, "bytes_scanned", (double)r->bytes_scanned);
    cJSON_AddNumberToObject(o, "pages_scanned", (double)r->pages_scanned);
    cJSON_AddNumberToObject(o, "seconds", r->seconds);
    cJSON_AddItemToObject(o, "counts", json_counts(r, r->counts, 1));
    cJSON_AddNumberToObject(o, "damaged_elements", (double)r->damaged);
    cJSON *bad = cJSON_AddArrayToObject(o, "bad_pages");
    cJSON *layers = cJSON_AddArrayToObject(o, "layers");
    for (size_t i = 0; i < r->nlayers; i++) {
        const kvc_scan_layer *x = &r->layers[i];
        for (size_t k = 0; k < x->nbad_pages; k++) {
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "layer", x->name);
            cJSON_AddNumberToObject(p, "page", (double)x->bad_pages[k].page);
            cJSON_AddNumberToObject(p, "damaged_elements", (double)x->bad_pages[k].count);
            cJSON_AddItemToArray(bad, p);
        }
        cJSON *jl = cJSON_CreateObject();
        cJSON_AddStringToObject(jl, "name", x->name);
        cJSON_AddStringToObject(jl, "file", x->file);
        cJSON_AddNumberToObject(jl, "file_offset", (double)x->file_offset);
        cJSON_AddNumberToObject(jl, "bytes", (double)x->bytes);
        cJSON_AddNumberToObject(jl, "pages", (double)x->pages);
        cJSON_AddNumberToObject(jl, "pages_scanned", (double)x->pages_scanned);
        cJSON_AddNumberToObject(jl, "damaged_pages", (double)x->nbad_pages);
        cJSON_AddNumberToObject(jl, "damaged_elements", (double)x->damaged);
        cJSON_AddItemToObject(jl, "counts", json_counts(r, x->counts, 0));
        cJSON_AddItemToArray(layers, jl);
    }
    cJSON *findings = cJSON_AddArrayToObject(o, "findings");
    for (size_t i = 0; i < r->nfindings; i++) {
        const kvc_finding *f = &r->findings[i];
        cJSON *jf = cJSON_CreateObject();
        char raw[16];
        raw_hex(f, raw, sizeof raw);
        cJSON_AddStringToObject(jf, "layer", r->layers[f->layer].name);
        cJSON_AddNumberToObject(jf, "page", (double)f->page);
        cJSON_AddNumberToObject(jf, "slot", (double)f->slot);
        cJSON_AddStringToObject(jf, "field", f->field);
        cJSON_AddNumberToObject(jf, "element", f->element);
        cJSON_AddNumberToObject(jf, "offset", (double)f->offset);
        cJSON_AddStringToObject(jf, "type", kvc_elem_name(f->elem));
        cJSON_AddStringToObject(jf, "raw", raw);
        cJSON_AddItemToObject(jf, "value", json_value(f->value));
        cJSON_AddStringToObject(jf, "check", kvc_check_name(f->check));
        cJSON_AddItemToArray(findings, jf);
    }
    if (r->looks_like[0]) {
        cJSON *like = cJSON_AddObjectToObject(o, "looks_like");
        cJSON_AddStringToObject(like, "layout", r->looks_like);
        cJSON_AddNumberToObject(like, "bytes_per_token", r->looks_like_bytes_per_token);
        cJSON_AddNumberToObject(like, "confidence", r->looks_like_confidence);
    } else {
        cJSON_AddNullToObject(o, "looks_like");
    }
    json_digests(o, r);
    cJSON_AddItemToObject(o, "notes", report_json_notes(r->notes, r->nnotes));
    return report_json_finish(o);
}

/* ------------------------------------------------------------------ detect */

static void text_candidate(strbuf *sb, const kvc_candidate *c, unsigned options)
{
    sb_printf(sb, "  %-14s %5.2f  %u B/token, %llu B/page%s\n", c->layout, c->score, c->bytes_per_token,
              (unsigned long long)c->page_bytes, c->fits ? "" : " (not whole pages)");
    if (!(options & KVC_REPORT_VERBOSE) && c->score < 0.05 && !c->fits) return; /* a size that rules it out says enough */
    for (unsigned i = 0; i < c->nfor; i++) sb_printf(sb, "      + %s\n", c->evidence_for[i]);
    for (unsigned i = 0; i < c->nagainst; i++) sb_printf(sb, "      - %s\n", c->evidence_against[i]);
}

static char *text_detect(const kvc_detection *d, unsigned options)
{
    strbuf sb = {0};
    const kvc_candidate *best = d->ncandidates ? &d->candidates[0] : NULL;
    if (strcmp(d->best, "unknown") != 0 && best) {
        text_styled(&sb, STYLE_GREEN, d->best);
        sb_printf(&sb, ": %u B/token, %llu B/page at %u token%s per page (confidence %.2f)\n", best->bytes_per_token,
                  (unsigned long long)best->page_bytes, best->page_size, best->page_size == 1 ? "" : "s",
                  d->confidence);
    } else {
        text_styled(&sb, STYLE_RED, "UNKNOWN");
        sb_printf(&sb, ": these bytes look like none of the catalogue's layouts%s%s%s\n", best ? " (closest: " : "",
                  best ? best->layout : "", best ? ")" : "");
    }
    if (options & KVC_REPORT_QUIET) return text_finish(&sb, options);
    sb_printf(&sb, "  read %llu page%s of %llu bytes (at most %d per layer)\n\ncandidates, most plausible first "
                   "(score 0 to 1):\n",
              (unsigned long long)d->pages_sampled, d->pages_sampled == 1 ? "" : "s", (unsigned long long)d->bytes,
              DETECT_SAMPLE_PAGES);
    for (unsigned i = 0; i < d->ncandidates; i++) text_candidate(&sb, &d->candidates[i], options);
    return text_finish(&sb, options);
}

static char *json_detect(const kvc_detection *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "best", d->best);
    cJSON_AddNumberToObject(o, "confidence", d->confidence);
    cJSON_AddNumberToObject(o, "bytes", (double)d->bytes);
    cJSON_AddNumberToObject(o, "pages_sampled", (double)d->pages_sampled);
    cJSON *list = cJSON_AddArrayToObject(o, "candidates");
    for (unsigned i = 0; i < d->ncandidates; i++) {
        const kvc_candidate *c = &d->candidates[i];
        cJSON *jc = cJSON_CreateObject();
        cJSON_AddStringToObject(jc, "layout", c->layout);
        cJSON_AddNumberToObject(jc, "score", c->score);
        cJSON_AddNumberToObject(jc, "bytes_per_token", c->bytes_per_token);
        cJSON_AddNumberToObject(jc, "page_size", c->page_size);
        cJSON_AddNumberToObject(jc, "page_bytes", (double)c->page_bytes);
        cJSON_AddBoolToObject(jc, "whole_pages", c->fits);
        cJSON_AddNumberToObject(jc, "pages_sampled", (double)c->pages_sampled);
        cJSON_AddItemToObject(jc, "for", report_json_notes(c->evidence_for, c->nfor));
        cJSON_AddItemToObject(jc, "against", report_json_notes(c->evidence_against, c->nagainst));
        cJSON_AddItemToArray(list, jc);
    }
    return report_json_finish(o);
}

char *kvc_report_detect(const kvc_detection *detection, kvc_format format, unsigned options)
{
    return format == KVC_FORMAT_JSON ? json_detect(detection) : text_detect(detection, options);
}

char *kvc_report_scan(const kvc_scan_report *report, kvc_format format, unsigned options)
{
    return format == KVC_FORMAT_JSON ? json_scan(report) : text_scan(report, options);
}

char *kvc_scan_report_json(const kvc_scan_report *report) { return kvc_report_scan(report, KVC_FORMAT_JSON, 0); }
char *kvc_detection_json(const kvc_detection *detection) { return kvc_report_detect(detection, KVC_FORMAT_JSON, 0); }
char *kvc_layout_json(const kvc_layout *layout) { return report_json_finish(report_json_layout(layout)); }
