/* Reports for people (text) and scripts (one JSON document). */
#include "report/report.h"
#include "compare/compare.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ text */

void text_mark(strbuf *sb, int style)
{
    sb_putc(sb, '\0');
    sb_putc(sb, (char)style);
}

void text_styled(strbuf *sb, int style, const char *text)
{
    text_mark(sb, style);
    sb_puts(sb, text);
    text_mark(sb, STYLE_OFF);
}

static const char *sgr(char style)
{
    switch (style) {
    case STYLE_RED: return "\033[31m";
    case STYLE_GREEN: return "\033[32m";
    case STYLE_YELLOW: return "\033[33m";
    case STYLE_BOLD: return "\033[1m";
    default: return "\033[0m";
    }
}

char *text_finish(strbuf *sb, unsigned options)
{
    if (sb->oom) return sb_take(sb);
    strbuf out = {0};
    const unsigned char *p = (const unsigned char *)sb->p;
    for (size_t i = 0; i < sb->len;) {
        size_t n = utf8_len(p + i, sb->len - i);
        if (p[i] == '\0' && i + 1 < sb->len) { /* a mark */
            if (options & KVC_REPORT_COLOR) sb_puts(&out, sgr((char)p[i + 1]));
            i += 2;
        } else if (p[i] == '\n' || p[i] == '\t' || (n == 1 && p[i] >= 0x20 && p[i] != 0x7f)) {
            sb_putc(&out, (char)p[i++]);
        } else if (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) { /* C1 controls: CSI and friends */
            sb_printf(&out, "\\u%04x", p[i + 1]);
            i += 2;
        } else if (n > 1) {
            for (size_t k = 0; k < n; k++) sb_putc(&out, (char)p[i++]);
        } else {
            sb_printf(&out, "\\x%02x", p[i++]);
        }
    }
    free(sb_take(sb));
    return sb_take(&out);
}

void report_text_fields(strbuf *sb, const kvc_layout *l)
{
    sb_puts(sb, "    field   type    offset  stride  bytes  count\n");
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        sb_printf(sb, "    %-7s %-7s %-7llu %-7llu %-6llu %u\n", f->name, kvc_elem_name(f->elem),
                  (unsigned long long)f->base, (unsigned long long)f->stride,
                  (unsigned long long)f->count * kvc_elem_size(f->elem), f->count);
    }
}

const engine_def *engine_of(const kvc_resolved *r)
{
    const engine_def *e = engine_find(r->engine);
    return e ? e : engine_default();
}

/* 1 when a text report shows the setting. */
static int shown(const kvc_setting *v)
{
    if (v->flags & KVC_SETTING_IF_SET) return v->value[0] && !(v->type == KVC_VALUE_BOOL && !v->number);
    return v->value[0] || v->reason[0];
}

static void text_value(strbuf *sb, const kvc_setting *v)
{
    if (shown(v)) sb_printf(sb, "  %-21s %-16s %s\n", v->name, v->value[0] ? v->value : "-", v->reason);
}

/* "sglang 0.5.23 (from --sglang-version)": the release a worker was judged under, and why. */
static void release_text(const kvc_resolved *r, char *out, size_t size)
{
    if (!r->release_asked[0])
        str_printf(out, size, "%s %s (no version given: the newest release kvcheck has read)", r->engine, r->release);
    else if (strcmp(r->release_asked, r->release) == 0)
        str_printf(out, size, "%s %s (from %s)", r->engine, r->release, r->release_from);
    else
        str_printf(out, size, "%s %s (for %s, from %s)", r->engine, r->release, r->release_asked, r->release_from);
}

static void text_layout_body(strbuf *sb, const kvc_resolved *r, unsigned options)
{
    const model_info *m = &r->model;
    sb_printf(sb, "  gpu    %s (compute capability %u.%u, %s)\n", r->gpu.name, r->gpu.major, r->gpu.minor,
              r->gpu.hip ? "ROCm/HIP" : "CUDA");
    if (m->has_compress_ratios) /* DeepSeek-V4: its rows follow head_dim, not kv_lora_rank */
        sb_printf(sb, "  model  %s (%s, compressed attention): head_dim %u, qk_rope_head_dim %u, %u layers (compress "
                  "ratio 0: %u, 4: %u, 128: %u, other: %u), %u MTP layer%s",
                  m->name, m->architecture, m->head_dim, m->qk_rope_head_dim, m->num_hidden_layers, m->compress_none,
                  m->compress_4, m->compress_128, m->compress_other, m->num_nextn_predict_layers,
                  m->num_nextn_predict_layers == 1 ? "" : "s");
    else
        sb_printf(sb, "  model  %s (%s, %s): kv_lora_rank %u, qk_rope_head_dim %u, %u layers, %u MTP layer%s",
                  m->name, m->architecture, m->dsa ? "DSA" : "MLA, not DSA", m->kv_lora_rank, m->qk_rope_head_dim,
                  m->num_hidden_layers, m->num_nextn_predict_layers, m->num_nextn_predict_layers == 1 ? "" : "s");
    if (m->dsa || m->has_compress_ratios) sb_printf(sb, ", index_head_dim %u", m->index_head_dim);
    char rel[KVC_PATH_LEN + 160];
    release_text(r, rel, sizeof rel);
    sb_printf(sb, "\n  rules  %s: %s\n\n", rel, r->release_source);
    sb_printf(sb, "  %-21s %-16s %s\n", "setting", "value", "why");
    for (unsigned i = 0; i < r->nsettings; i++) text_value(sb, &r->settings[i]);
    text_value(sb, &r->row);

    const kvc_layout *l = &r->kv;
    sb_printf(sb, "\n  layout %s: %u B/token, page of %u tokens = %llu B/page (item_len)\n", l->name,
              l->bytes_per_token, l->page_size, (unsigned long long)l->page_bytes);
    report_text_fields(sb, l);
    if (r->has_scales) {
        sb_printf(sb, "  scales %s: %u B/token, %llu B/page (a second buffer per layer)\n", r->scales.name,
                  r->scales.bytes_per_token, (unsigned long long)r->scales.page_bytes);
        report_text_fields(sb, &r->scales);
    }
    if (r->has_indexer) {
        sb_printf(sb, "  indexer %s: %u B/token, %llu B/page (page-split: each field's tokens one "
                      "after another)\n",
                  r->indexer.name, r->indexer.bytes_per_token, (unsigned long long)r->indexer.page_bytes);
        report_text_fields(sb, &r->indexer);
    }
    char drafts[96] = "", target[64];
    if (r->draft_model_layers)
        str_printf(drafts, sizeof drafts, " + %u draft-model K and V", 2 * r->draft_model_layers);
    char indexer[96] = "";
    if (r->has_indexer && r->indexer_entries != r->kv_entries - 2 * r->draft_model_layers)
        str_printf(indexer, sizeof indexer, ", the indexer on %u of them", r->indexer_entries);
    else if (r->has_indexer)
        str_printf(indexer, sizeof indexer, "%s", r->draft_model_layers ? ", the indexer on all but the draft model's"
                                                                        : ", for KV and indexer alike");
    if (r->state_layers) str_printf(target, sizeof target, "%u attention layers of %u", r->attn_layers, m->num_hidden_layers);
    else str_printf(target, sizeof target, "%u target layers", m->num_hidden_layers);
    sb_printf(sb, "  entries  %u (%s + %u draft%s)%s\n", r->kv_entries, target, r->draft_entries, drafts, indexer);
    for (unsigned i = 0; i < r->nstate; i++)
        sb_printf(sb, "  state  %s %s %s: %llu B per request, on each of %u linear layers (attention TP %u)\n",
                  r->state[i].name, r->state[i].shape, r->state[i].dtype, (unsigned long long)r->state[i].item_len,
                  r->state_layers, r->state_tp);
    if (r->draft_entries && strcmp(r->draft.name, r->kv.name) != 0)
        sb_printf(sb, "  draft entries  %s: %u B/token, %llu B/page (%s)\n", r->draft.name, r->draft.bytes_per_token,
                  (unsigned long long)r->draft.page_bytes, r->draft_row.reason);
    if (r->has_indexer)
        sb_printf(sb, "  bytes per token, all entries  %llu KV + %llu indexer = %llu\n",
                  (unsigned long long)r->kv_bytes_per_token_all,
                  (unsigned long long)r->indexer_bytes_per_token_all,
                  (unsigned long long)(r->kv_bytes_per_token_all + r->indexer_bytes_per_token_all));
    else
        sb_printf(sb, "  bytes per token, all entries  %llu KV\n", (unsigned long long)r->kv_bytes_per_token_all);
    (void)options;
}

static void text_warnings(strbuf *sb, const kvc_resolved *r, unsigned options, const char *who)
{
    for (unsigned i = 0; i < r->nwarnings; i++) {
        text_styled(sb, STYLE_YELLOW, "warning:");
        sb_printf(sb, " %s%s\n", who, r->warnings[i]);
    }
    if (options & KVC_REPORT_VERBOSE) {
        for (unsigned i = 0; i < r->nignored; i++)
            sb_printf(sb, "note: %signored (cannot change the KV layout): %s\n", who, r->ignored[i]);
    }
}

static char *text_layout(const kvc_resolved *r, unsigned options)
{
    strbuf sb = {0};
    text_styled(&sb, STYLE_BOLD, r->label);
    sb_printf(&sb, ": %s, %u B/token, %llu B/page\n", r->kv.name, r->kv.bytes_per_token,
              (unsigned long long)r->kv.page_bytes);
    if (!(options & KVC_REPORT_QUIET)) {
        text_layout_body(&sb, r, options);
        text_warnings(&sb, r, options, "");
    }
    return text_finish(&sb, options);
}

/* One row of the side-by-side table; `judged` rows say same or DIFFERENT. */
static void side_row(strbuf *sb, const char *name, const char *p, const char *d, int judged)
{
    sb_puts(sb, "  ");
    sb_pad(sb, 20, name);
    sb_puts(sb, " ");
    sb_pad(sb, 24, p);
    sb_puts(sb, " ");
    sb_pad(sb, 24, d);
    if (judged && strcmp(p, d) != 0) sb_puts(sb, " "), text_styled(sb, STYLE_RED, "DIFFERENT");
    else if (judged) sb_puts(sb, " same");
    /* trailing blanks of padding are trimmed */
    while (sb->len && sb->p[sb->len - 1] == ' ') sb->p[--sb->len] = '\0';
    sb_puts(sb, "\n");
}

static void side_row_u(strbuf *sb, const char *name, uint64_t p, uint64_t d, int judged)
{
    char a[32], b[32];
    str_printf(a, sizeof a, "%llu", (unsigned long long)p);
    str_printf(b, sizeof b, "%llu", (unsigned long long)d);
    side_row(sb, name, a, b, judged);
}

/* 1 when the verdict counts `field` among its differences. */
static int counted(const kvc_verdict *v, const char *field)
{
    for (unsigned i = 0; i < v->nmismatches; i++)
        if (strcmp(v->mismatches[i].field, field) == 0) return 1;
    return 0;
}

static void fix_args_text(strbuf *sb, const kvc_fix *f)
{
    for (unsigned i = 0; i < f->nargs; i++) sb_printf(sb, "%s%s %s", i ? " " : "", f->args[i][0], f->args[i][1]);
}

static char *text_check(const kvc_verdict *v, unsigned options)
{
    strbuf sb = {0};
    const kvc_resolved *p = &v->prefill, *d = &v->decode;
    const engine_words *w = &engine_of(p)->words;
    char notice[160];
    if (v->bootstrap_catches) str_printf(notice, sizeof notice, "; %s's %s will refuse the pair", w->name, v->caught_at);
    else str_printf(notice, sizeof notice, "; %s will not notice until decode reads garbage", w->name);
    if (v->compatible) {
        text_styled(&sb, STYLE_GREEN, "COMPATIBLE");
        sb_printf(&sb, ": decode reads the KV bytes prefill writes (%s, %u B/token, %llu B/page)\n", p->kv.name,
                  p->kv.bytes_per_token, (unsigned long long)p->kv.page_bytes);
    } else if (strcmp(v->mismatches[0].field, "engine_check") == 0) { /* equal layouts the engine refuses */
        text_styled(&sb, STYLE_RED, "INCOMPATIBLE");
        sb_printf(&sb, ": the layouts agree, but %s's %s refuses the pair\n", w->name, v->caught_at);
    } else if (strcmp(p->kv.name, d->kv.name) != 0 || p->kv.bytes_per_token != d->kv.bytes_per_token) {
        text_styled(&sb, STYLE_RED, "INCOMPATIBLE");
        sb_printf(&sb, ": prefill writes %s (%u B/token), decode reads %s (%u B/token)%s\n", p->kv.name,
                  p->kv.bytes_per_token, d->kv.name, d->kv.bytes_per_token, notice);
    } else {
        text_styled(&sb, STYLE_RED, "INCOMPATIBLE");
        sb_printf(&sb, ": %s differs (prefill %s, decode %s)%s\n", v->mismatches[0].field, v->mismatches[0].prefill,
                  v->mismatches[0].decode, notice);
    }
    if (options & KVC_REPORT_QUIET) return text_finish(&sb, options);

    char prel[KVC_PATH_LEN + 160], drel[KVC_PATH_LEN + 160];
    release_text(p, prel, sizeof prel);
    release_text(d, drel, sizeof drel);
    if (strcmp(prel, drel) == 0)
        sb_printf(&sb, "\n  prefill: %s\n  decode:  %s\n  rules:   %s\n\n", p->label, d->label, prel);
    else
        sb_printf(&sb, "\n  prefill: %s\n  decode:  %s\n  rules:   prefill %s\n           decode %s\n\n", p->label,
                  d->label, prel, drel);
    side_row(&sb, "", "prefill", "decode", 0);
    char a[KVC_NAME_LEN + 32], b[KVC_NAME_LEN + 32];
    str_printf(a, sizeof a, "%s (%u.%u)", p->gpu.name, p->gpu.major, p->gpu.minor);
    str_printf(b, sizeof b, "%s (%u.%u)", d->gpu.name, d->gpu.major, d->gpu.minor);
    side_row(&sb, "gpu", a, b, 0);
    side_row(&sb, "model", p->model.name, d->model.name, 0);
    /* the engine's pair settings, prefill's first, then any only decode has */
    for (int side = 0; side < 2; side++) {
        const kvc_resolved *r = side ? d : p, *o = side ? p : d;
        for (unsigned i = 0; i < r->nsettings; i++) {
            const kvc_setting *x = &r->settings[i];
            if (!(x->flags & KVC_SETTING_PAIR) || (side && resolved_find(o, x->name))) continue;
            const kvc_setting *px = resolved_find(p, x->name), *dx = resolved_find(d, x->name);
            if ((x->flags & KVC_SETTING_IF_SET) && !(px && shown(px)) && !(dx && shown(dx)))
                continue; /* neither side has it */
            /* a KV dtype whose strings differ is judged where the verdict counts it: auto and the
             * string it resolves to are one, and strings with the same rows change no byte */
            int judged = (x->flags & KVC_SETTING_COMPARED) &&
                         (!(x->flags & KVC_SETTING_DTYPE) || counted(v, x->name) ||
                          strcmp(resolved_value(p, x->name), resolved_value(d, x->name)) == 0);
            side_row(&sb, x->name, resolved_value(p, x->name), resolved_value(d, x->name), judged);
        }
    }
    side_row(&sb, "layout", p->kv.name, d->kv.name, 1);
    side_row_u(&sb, "bytes_per_token", p->kv.bytes_per_token, d->kv.bytes_per_token, 1);
    side_row_u(&sb, "page_size", p->kv.page_size, d->kv.page_size, 1);
    side_row_u(&sb, "page_bytes", p->kv.page_bytes, d->kv.page_bytes, 1);
    if (p->has_indexer || d->has_indexer)
        side_row_u(&sb, "indexer_page_bytes", p->has_indexer ? p->indexer.page_bytes : 0,
                   d->has_indexer ? d->indexer.page_bytes : 0, 1);
    side_row_u(&sb, "kv_entries", p->kv_entries, d->kv_entries, 0);
    if (draft_own_layout(p, d)) {
        side_row(&sb, "draft_layout", p->draft.name, d->draft.name, 1);
        side_row_u(&sb, "draft_page_bytes", p->draft.page_bytes, d->draft.page_bytes, 1);
    }

    if (v->nconsequences) {
        sb_puts(&sb, "\nWhat decode will read:\n");
        for (unsigned i = 0; i < v->nconsequences; i++) sb_printf(&sb, "  - %s\n", v->consequences[i]);
    }
    /* scales left behind come out tiny, not NaN: the values are wrong, and nothing says so */
    int scales_only = v->nmismatches == 1 && strcmp(v->mismatches[0].field, "scale_buffer") == 0;
    /* the same KV rows on both sides (same_rows): what differs is other state
     * (a linear layer's), which gives wrong output before it gives NaN, if ever */
    if (v->bootstrap_catches || v->compatible)
        sb_printf(&sb, "\n%s.\n", v->bootstrap);
    else if (scales_only)
        sb_printf(&sb, "\n%s, so nothing fails before serving: decode serves from prefill's values under the wrong "
                  "scales, and no error says so (read from code, not run)\n", v->bootstrap);
    else if (v->nmismatches == 1 && strcmp(v->mismatches[0].field, "draft_model_pool") == 0)
        sb_printf(&sb, "\n%s, so nothing fails before serving: decode's draft model drafts from garbage; the target "
                  "verifies every draft token, so output stays right, but few drafts are accepted and speculative "
                  "decoding's speed-up is lost (reasoned, not run)\n", v->bootstrap);
    else if (same_rows(p, d))
        sb_printf(&sb,
                  "\n%s, so nothing fails before serving: decode's first requests compute from the garbage it "
                  "received\n  (wrong output, or \"%s\" where values overflow)\n",
                  v->bootstrap, w->first_error);
    else
        sb_printf(&sb, "\n%s, so nothing fails before serving: the first request fails instead\n  (\"%s\")\n",
                  v->bootstrap, w->first_error);

    sb_puts(&sb, "\nWhy each side has its layout:\n");
    sb_printf(&sb, "  prefill  %s: %s\n", p->kv.name, p->row.reason);
    for (int side = 0; side < 2; side++) {
        const kvc_resolved *r = side ? d : p;
        if (side) sb_printf(&sb, "  decode   %s: %s\n", d->kv.name, d->row.reason);
        for (unsigned i = 0; i < r->nsettings; i++) {
            const kvc_setting *x = &r->settings[i];
            if ((x->flags & KVC_SETTING_DECIDES) && x->value[0])
                sb_printf(&sb, "           %s %s: %s\n", x->name, x->value, x->reason);
        }
    }

    if (!v->compatible) {
        if (!v->nfixes && strcmp(p->release, d->release) != 0) {
            sb_printf(&sb, "\nNo fix found by changing up to three settings on one side: run one %s release on both "
                           "sides (prefill runs %s, decode %s), else align the two launch commands (%s) by hand.\n",
                      w->name, p->release, d->release, w->layout_flags);
        } else if (!v->nfixes) {
            sb_printf(&sb, "\nNo fix found by changing up to three settings on one side: align the two launch "
                           "commands (%s) by hand.\n",
                      w->layout_flags);
        } else {
            const kvc_fix *f = &v->fixes[0];
            sb_puts(&sb, "\n");
            text_styled(&sb, STYLE_BOLD, "Fix");
            sb_printf(&sb, ": add to the %s launch command (%s %s):\n    ", kvc_side_name(f->side), w->name,
                      f->side == KVC_SIDE_PREFILL ? p->release : d->release);
            fix_args_text(&sb, f);
            sb_puts(&sb, "\n");
            if (v->nfixes > 1) sb_puts(&sb, "Other fixes:\n");
            for (unsigned i = 1; i < v->nfixes; i++) {
                const kvc_fix *g = &v->fixes[i];
                sb_printf(&sb, "  %-8s ", kvc_side_name(g->side));
                fix_args_text(&sb, g);
                sb_printf(&sb, "%s\n", g->changes_dtype ? "   (changes the KV dtype)" : "");
            }
        }
    }
    if (v->nwarnings || p->nwarnings || d->nwarnings || (options & KVC_REPORT_VERBOSE)) sb_puts(&sb, "\n");
    for (unsigned i = 0; i < v->nwarnings; i++) {
        text_styled(&sb, STYLE_YELLOW, "warning:");
        sb_printf(&sb, " %s\n", v->warnings[i]);
    }
    text_warnings(&sb, p, options, "prefill: ");
    text_warnings(&sb, d, options, "decode: ");
    return text_finish(&sb, options);
}

/* ------------------------------------------------------------------ JSON */

cJSON *report_json_notes(const char (*notes)[KVC_NOTE_LEN], unsigned n)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; a && i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(notes[i]));
    return a;
}

cJSON *report_json_layout(const kvc_layout *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON_AddNumberToObject(o, "bytes_per_token", l->bytes_per_token);
    cJSON_AddNumberToObject(o, "page_size", l->page_size);
    cJSON_AddNumberToObject(o, "page_bytes", (double)l->page_bytes);
    cJSON_AddBoolToObject(o, "page_split", l->page_split);
    cJSON *fields = cJSON_AddArrayToObject(o, "fields");
    for (unsigned i = 0; i < l->nfields; i++) {
        const kvc_field *f = &l->fields[i];
        cJSON *jf = cJSON_CreateObject();
        cJSON_AddStringToObject(jf, "name", f->name);
        cJSON_AddStringToObject(jf, "type", kvc_elem_name(f->elem));
        cJSON_AddNumberToObject(jf, "offset", (double)f->base);
        cJSON_AddNumberToObject(jf, "stride", (double)f->stride);
        cJSON_AddNumberToObject(jf, "size", (double)f->count * kvc_elem_size(f->elem));
        cJSON_AddNumberToObject(jf, "count", f->count);
        cJSON_AddItemToArray(fields, jf);
    }
    return o;
}

static void json_value(cJSON *resolved, cJSON *reasons, const kvc_setting *v)
{
    if (v->type == KVC_VALUE_BOOL) cJSON_AddBoolToObject(resolved, v->name, v->number != 0);
    else if (v->type == KVC_VALUE_UINT && v->value[0]) cJSON_AddNumberToObject(resolved, v->name, (double)v->number);
    else if (v->value[0]) cJSON_AddStringToObject(resolved, v->name, v->value);
    else cJSON_AddNullToObject(resolved, v->name);
    if (v->reason[0]) cJSON_AddStringToObject(reasons, v->name, v->reason);
}

static cJSON *json_layout_doc(const kvc_resolved *r)
{
    const model_info *m = &r->model;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "worker", r->label);
    cJSON_AddStringToObject(o, "engine", r->engine);
    char key[KVC_NAME_LEN + 16];
    str_printf(key, sizeof key, "%s_version", r->engine);
    cJSON_AddStringToObject(o, key, r->release);
    str_printf(key, sizeof key, "%s_version_given", r->engine);
    if (r->release_asked[0]) {
        cJSON *given = cJSON_AddObjectToObject(o, key);
        cJSON_AddStringToObject(given, "version", r->release_asked);
        cJSON_AddStringToObject(given, "from", r->release_from);
    } else {
        cJSON_AddNullToObject(o, key);
    }
    cJSON_AddStringToObject(o, "rules_source", r->release_source);
    cJSON *gpu = cJSON_AddObjectToObject(o, "gpu");
    cJSON_AddStringToObject(gpu, "name", r->gpu.name);
    char cc[16];
    str_printf(cc, sizeof cc, "%u.%u", r->gpu.major, r->gpu.minor);
    cJSON_AddStringToObject(gpu, "compute_capability", cc);
    cJSON_AddStringToObject(gpu, "platform", r->gpu.hip ? "hip" : "cuda");
    cJSON *model = cJSON_AddObjectToObject(o, "model");
    cJSON_AddStringToObject(model, "name", m->name);
    cJSON_AddStringToObject(model, "architecture", m->architecture);
    cJSON_AddBoolToObject(model, "dsa", m->dsa);
    cJSON_AddNumberToObject(model, "kv_lora_rank", m->kv_lora_rank);
    cJSON_AddNumberToObject(model, "qk_rope_head_dim", m->qk_rope_head_dim);
    cJSON_AddNumberToObject(model, "num_hidden_layers", m->num_hidden_layers);
    cJSON_AddNumberToObject(model, "num_nextn_predict_layers", m->num_nextn_predict_layers);
    if (m->dsa) cJSON_AddNumberToObject(model, "index_head_dim", m->index_head_dim);

    cJSON *res = cJSON_AddObjectToObject(o, "resolved");
    cJSON *reasons = cJSON_CreateObject();
    for (unsigned i = 0; i < r->nsettings; i++) json_value(res, reasons, &r->settings[i]);
    json_value(res, reasons, &r->row);
    cJSON_AddItemToObject(res, "reasons", reasons);

    cJSON_AddItemToObject(o, "layout", report_json_layout(&r->kv));
    if (r->has_scales) cJSON_AddItemToObject(o, "scales", report_json_layout(&r->scales));
    else cJSON_AddNullToObject(o, "scales");
    if (r->has_indexer) cJSON_AddItemToObject(o, "indexer", report_json_layout(&r->indexer));
    else cJSON_AddNullToObject(o, "indexer");
    cJSON *entries = cJSON_AddObjectToObject(o, "entries");
    cJSON_AddNumberToObject(entries, "kv", r->kv_entries);
    cJSON_AddNumberToObject(entries, "target", r->attn_layers);
    cJSON_AddNumberToObject(entries, "draft", r->draft_entries);
    cJSON_AddNumberToObject(entries, "draft_model", 2 * r->draft_model_layers);
    uint64_t draft_items[2];
    if (kvc_resolved_draft_model(r, draft_items)) { /* a separate draft model's K and V entries */
        cJSON *pool = cJSON_AddObjectToObject(o, "draft_model_layout");
        cJSON_AddNumberToObject(pool, "layers", r->draft_model_layers);
        cJSON_AddNumberToObject(pool, "k_bytes_per_token", r->draft_model_bytes[0]);
        cJSON_AddNumberToObject(pool, "v_bytes_per_token", r->draft_model_bytes[1]);
        cJSON_AddNumberToObject(pool, "k_item_len", (double)draft_items[0]);
        cJSON_AddNumberToObject(pool, "v_item_len", (double)draft_items[1]);
    } else {
        cJSON_AddNullToObject(o, "draft_model_layout");
    }
    if (r->state_layers) { /* a hybrid model's linear layers: per-request state instead of KV */
        cJSON *state = cJSON_AddObjectToObject(o, "linear_state");
        cJSON_AddNumberToObject(state, "layers", r->state_layers);
        cJSON_AddNumberToObject(state, "attention_tp", r->state_tp);
        cJSON *parts = cJSON_AddArrayToObject(state, "per_request");
        for (unsigned i = 0; i < r->nstate; i++) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", r->state[i].name);
            cJSON_AddStringToObject(x, "shape", r->state[i].shape);
            cJSON_AddStringToObject(x, "dtype", r->state[i].dtype);
            cJSON_AddNumberToObject(x, "item_len", (double)r->state[i].item_len);
            cJSON_AddItemToArray(parts, x);
        }
    }
    if (r->draft_entries) cJSON_AddItemToObject(o, "draft_layout", report_json_layout(&r->draft));
    else cJSON_AddNullToObject(o, "draft_layout");
    cJSON_AddNumberToObject(o, "kv_bytes_per_token_all_entries", (double)r->kv_bytes_per_token_all);
    cJSON_AddNumberToObject(o, "indexer_bytes_per_token_all_entries", (double)r->indexer_bytes_per_token_all);
    cJSON_AddNumberToObject(o, "indexer_entries", (double)r->indexer_entries);
    cJSON_AddItemToObject(o, "warnings", report_json_notes(r->warnings, r->nwarnings));
    cJSON_AddItemToObject(o, "ignored_flags", report_json_notes(r->ignored, r->nignored));
    return o;
}

char *report_json_finish(cJSON *doc)
{
    char *s = doc ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    if (!s) return NULL;
    /* Hand over memory that kvc_free releases whatever cJSON's hooks are,
     * and valid UTF-8 whatever the input's names held: a byte that is not
     * UTF-8 (only strings hold such bytes) becomes U+FFFD. */
    strbuf out = {0};
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0, n = strlen(s); i < n;) {
        size_t k = utf8_len(p + i, n - i);
        if (!k) {
            sb_puts(&out, "\xef\xbf\xbd");
            i++;
            continue;
        }
        while (k--) sb_putc(&out, (char)p[i++]);
    }
    sb_putc(&out, '\n');
    cJSON_free(s);
    return sb_take(&out);
}

static char *json_check(const kvc_verdict *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "compatible", v->compatible);
    cJSON_AddStringToObject(o, "engine", v->prefill.engine);
    cJSON_AddStringToObject(o, "rules", v->prefill.release);
    cJSON_AddItemToObject(o, "prefill", json_layout_doc(&v->prefill));
    cJSON_AddItemToObject(o, "decode", json_layout_doc(&v->decode));
    cJSON *mm = cJSON_AddArrayToObject(o, "mismatches");
    for (unsigned i = 0; i < v->nmismatches; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "field", v->mismatches[i].field);
        cJSON_AddStringToObject(m, "prefill", v->mismatches[i].prefill);
        cJSON_AddStringToObject(m, "decode", v->mismatches[i].decode);
        cJSON_AddItemToArray(mm, m);
    }
    cJSON_AddItemToObject(o, "consequences", report_json_notes(v->consequences, v->nconsequences));
    cJSON *boot = cJSON_AddObjectToObject(o, "sglang_bootstrap");
    cJSON_AddBoolToObject(boot, "catches", v->bootstrap_catches);
    if (v->bootstrap_catches) cJSON_AddStringToObject(boot, "stage", v->caught_at);
    else cJSON_AddNullToObject(boot, "stage");
    cJSON_AddStringToObject(boot, "detail", v->bootstrap);
    cJSON *fixes = cJSON_AddArrayToObject(o, "fixes");
    for (unsigned i = 0; i < v->nfixes; i++) {
        const kvc_fix *f = &v->fixes[i];
        cJSON *jf = cJSON_CreateObject();
        cJSON_AddStringToObject(jf, "worker", kvc_side_name(f->side));
        cJSON *args = cJSON_AddArrayToObject(jf, "add_args");
        for (unsigned k = 0; k < f->nargs; k++) {
            cJSON_AddItemToArray(args, cJSON_CreateString(f->args[k][0]));
            cJSON_AddItemToArray(args, cJSON_CreateString(f->args[k][1]));
        }
        cJSON_AddBoolToObject(jf, "changes_kv_cache_dtype", f->changes_dtype);
        cJSON_AddItemToArray(fixes, jf);
    }
    cJSON_AddItemToObject(o, "warnings", report_json_notes(v->warnings, v->nwarnings));
    return report_json_finish(o);
}

/* --------------------------------------------------------------- entries */

char *kvc_report_layout(const kvc_resolved *resolved, kvc_format format, unsigned options)
{
    if (format == KVC_FORMAT_JSON) return report_json_finish(json_layout_doc(resolved));
    return text_layout(resolved, options);
}

char *kvc_report_check(const kvc_verdict *verdict, kvc_format format, unsigned options)
{
    if (format == KVC_FORMAT_JSON) return json_check(verdict);
    return text_check(verdict, options);
}

char *kvc_report_error(const kvc_diag *diag, int code, kvc_format format)
{
    kvc_diag none;
    if (!diag) { /* NULL is allowed everywhere a diag is taken: report that nothing was said */
        diag_set(&none, KVC_ERR_INTERNAL, NULL, "no diagnostic was given");
        diag = &none;
    }
    if (format == KVC_FORMAT_JSON) {
        cJSON *o = cJSON_CreateObject();
        cJSON *e = cJSON_AddObjectToObject(o, "error");
        cJSON_AddNumberToObject(e, "code", code);
        cJSON_AddStringToObject(e, "name", kvc_status_name(diag->status));
        cJSON_AddStringToObject(e, "message", diag->message);
        if (diag->file[0]) cJSON_AddStringToObject(e, "file", diag->file);
        if (diag->line) cJSON_AddNumberToObject(e, "line", diag->line);
        if (diag->column) cJSON_AddNumberToObject(e, "column", diag->column);
        if (diag->where[0]) cJSON_AddStringToObject(e, "where", diag->where);
        return report_json_finish(o);
    }
    strbuf sb = {0};
    kvc_origin o;
    origin_set(&o, diag->file, diag->line, diag->column, diag->where);
    char loc[700];
    origin_format(&o, loc, sizeof loc);
    sb_puts(&sb, "kvcheck: error: ");
    if (loc[0] && !strstr(diag->message, diag->file)) sb_printf(&sb, "%s: ", loc);
    else if (loc[0] && diag->line && !strstr(diag->message, "line ")) sb_printf(&sb, "%s: ", loc);
    sb_printf(&sb, "%s\n", diag->message);
    return text_finish(&sb, 0);
}

char *kvc_resolved_json(const kvc_resolved *resolved) { return kvc_report_layout(resolved, KVC_FORMAT_JSON, 0); }
char *kvc_verdict_json(const kvc_verdict *verdict) { return kvc_report_check(verdict, KVC_FORMAT_JSON, 0); }
