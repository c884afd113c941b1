/* Simulation reports: the verdict first, then the transfer, what a scan of
 * decode's pages finds, and the read-back error (text); or one JSON document. */
#include "report/report.h"

#include <cjson/cJSON.h>
#include <string.h>

static const char *const PARTS[2] = {"NoPE", "RoPE"};

static void text_side(strbuf *sb, const char *side, const kvc_resolved *r)
{
    sb_printf(sb, "  %-8s %s (%s), %s: %u B/token, %llu B/page (item_len)\n", side, r->gpu.name, resolved_dtype(r),
              r->kv.name, r->kv.bytes_per_token, (unsigned long long)r->kv.page_bytes);
}

static void text_readback(strbuf *sb, const char *what, const kvc_readback *r)
{
    sb_printf(sb, "  %-30s", what);
    for (int i = 0; i < 2; i++)
        sb_printf(sb, "  %s max %-10.4g mean %*.4g", PARTS[i], r[i].max_abs_error, i ? 0 : -10, r[i].mean_abs_error);
    sb_puts(sb, "\n");
    if (r[0].nonfinite || r[1].nonfinite)
        sb_printf(sb, "  %-30s  NaN or Inf: %llu of %llu NoPE, %llu of %llu RoPE values\n", "",
                  (unsigned long long)r[0].nonfinite, (unsigned long long)r[0].values, (unsigned long long)r[1].nonfinite,
                  (unsigned long long)r[1].values);
}

static char *text_simulate(const kvc_simulation *s, unsigned options)
{
    strbuf sb = {0};
    uint64_t values = s->decoded[0].values + s->decoded[1].values;
    if (s->compatible) {
        text_styled(&sb, STYLE_GREEN, "COMPATIBLE");
        sb_printf(&sb, ": decode reads back exactly what prefill wrote (%llu tokens, seed %llu)\n",
                  (unsigned long long)s->tokens, (unsigned long long)s->seed);
    } else {
        text_styled(&sb, STYLE_RED, "INCOMPATIBLE");
        sb_printf(&sb, ": decode reads back %llu of %llu values differently from what prefill wrote%s "
                       "(%llu tokens, seed %llu)\n",
                  (unsigned long long)s->values_differ, (unsigned long long)values,
                  s->overrun_bytes ? ", and the transfer runs past the end of decode's buffer" : "",
                  (unsigned long long)s->tokens, (unsigned long long)s->seed);
    }
    if (options & KVC_REPORT_QUIET) return text_finish(&sb, options);
    sb_puts(&sb, "\n");
    text_side(&sb, "prefill", &s->prefill);
    text_side(&sb, "decode", &s->decode);
    sb_printf(&sb, "  transfer %llu pages at prefill's item length: %llu bytes into decode's %llu-byte buffer",
              (unsigned long long)s->prefill_pages, (unsigned long long)s->bytes_copied,
              (unsigned long long)(s->decode_pages * s->decode.kv.page_bytes));
    if (s->overrun_bytes) sb_printf(&sb, "; %llu bytes would land past its end", (unsigned long long)s->overrun_bytes);
    if (s->unwritten_bytes) sb_printf(&sb, "; %llu bytes of it never written", (unsigned long long)s->unwritten_bytes);
    sb_puts(&sb, "\n");
    const kvc_scan_report *r = s->scan;
    sb_printf(&sb, "\ndecode's pages scanned as %s (%s): %llu damaged element%s in %llu of %llu pages\n", r->layout.name,
              r->device, (unsigned long long)r->damaged, r->damaged == 1 ? "" : "s", (unsigned long long)r->bad_pages,
              (unsigned long long)r->pages_scanned);
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++)
        if (r->counts[c]) sb_printf(&sb, "  %-20s %llu\n", kvc_check_name((kvc_check)c), (unsigned long long)r->counts[c]);
    for (size_t i = 0; i < r->nfindings && i < 5; i++) {
        const kvc_finding *f = &r->findings[i];
        char value[32];
        str_printf(value, sizeof value, "%.6g", f->value);
        sb_printf(&sb, "  %s page %llu slot %llu %s[%u] at byte %llu reads %s (%s)\n", i ? "     " : "first",
                  (unsigned long long)f->page, (unsigned long long)f->slot, f->field, f->element,
                  (unsigned long long)f->offset, value, kvc_check_name(f->check));
    }
    sb_puts(&sb, "\nread-back against the values prefill was given (absolute error):\n");
    text_readback(&sb, "prefill's own read-back", s->written);
    text_readback(&sb, "decode's read-back", s->decoded);
    if (s->values_differ)
        sb_printf(&sb,
                  "  decode reads %llu page%s of %llu as garbage: its attention computes on these values from the first "
                  "request on, and %s's verify step reports \"%s\"\n",
                  (unsigned long long)s->garbled_pages, s->garbled_pages == 1 ? "" : "s",
                  (unsigned long long)s->decode_pages, engine_of(&s->decode)->words.name,
                  engine_of(&s->decode)->words.first_error);
    for (unsigned i = 0; i < s->nnotes; i++) sb_printf(&sb, "note: %s\n", s->notes[i]);
    return text_finish(&sb, options);
}

static cJSON *json_readback(const kvc_readback *r)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < 2; i++) {
        cJSON *p = cJSON_AddObjectToObject(o, i ? "rope" : "nope");
        cJSON_AddNumberToObject(p, "values", (double)r[i].values);
        cJSON_AddNumberToObject(p, "nonfinite", (double)r[i].nonfinite);
        cJSON_AddNumberToObject(p, "max_abs_error", r[i].max_abs_error);
        cJSON_AddNumberToObject(p, "mean_abs_error", r[i].mean_abs_error);
    }
    return o;
}

static char *json_simulate(const kvc_simulation *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "compatible", s->compatible);
    cJSON_AddNumberToObject(o, "tokens", (double)s->tokens);
    cJSON_AddNumberToObject(o, "seed", (double)s->seed);
    cJSON *p = cJSON_AddObjectToObject(o, "prefill"), *d = cJSON_AddObjectToObject(o, "decode");
    cJSON_AddItemToObject(p, "layout", report_json_layout(&s->prefill.kv));
    cJSON_AddNumberToObject(p, "pages", (double)s->prefill_pages);
    cJSON_AddItemToObject(d, "layout", report_json_layout(&s->decode.kv));
    cJSON_AddNumberToObject(d, "pages", (double)s->decode_pages);
    cJSON_AddNumberToObject(o, "bytes_copied", (double)s->bytes_copied);
    cJSON_AddNumberToObject(o, "overrun_bytes", (double)s->overrun_bytes);
    cJSON_AddNumberToObject(o, "unwritten_bytes", (double)s->unwritten_bytes);
    cJSON_AddStringToObject(o, "device", s->scan->device);
    cJSON *counts = cJSON_AddObjectToObject(o, "counts");
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++)
        if (s->scan->counts[c]) cJSON_AddNumberToObject(counts, kvc_check_name((kvc_check)c), (double)s->scan->counts[c]);
    cJSON_AddNumberToObject(o, "damaged_pages", (double)s->scan->bad_pages);
    cJSON *rb = cJSON_AddObjectToObject(o, "readback");
    cJSON_AddItemToObject(rb, "prefill", json_readback(s->written));
    cJSON_AddItemToObject(rb, "decode", json_readback(s->decoded));
    cJSON_AddNumberToObject(o, "values_differ", (double)s->values_differ);
    cJSON_AddNumberToObject(o, "garbled_pages", (double)s->garbled_pages);
    cJSON_AddNumberToObject(o, "zero_blocks", (double)s->zero_blocks);
    cJSON_AddNumberToObject(o, "seconds", s->seconds);
    cJSON_AddItemToObject(o, "notes", report_json_notes(s->notes, s->nnotes));
    return report_json_finish(o);
}

char *kvc_report_simulate(const kvc_simulation *simulation, kvc_format format, unsigned options)
{
    return format == KVC_FORMAT_JSON ? json_simulate(simulation) : text_simulate(simulation, options);
}
char *kvc_simulation_json(const kvc_simulation *simulation) { return kvc_report_simulate(simulation, KVC_FORMAT_JSON, 0); }
