/* JUnit XML and GitHub Actions annotations for checked pairs (ci.h). */
#include "ci.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ text */

/* The first line of a report (the verdict). */
static void first_line(const char *text, char *out, size_t size)
{
    size_t n = strcspn(text, "\n");
    if (n >= size) n = size - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

/* Room for the best fix's whole text: a lead, then each flag and value with their spaces. */
#define FIX_TEXT_LEN (64 + KVC_MAX_FIX_ARGS * 2 * (KVC_NAME_LEN + 1))

/* The best fix as "add to the prefill launch command: --flag value ...", or "". */
static void fix_text(const kvc_verdict *v, char *out, size_t size)
{
    out[0] = '\0';
    if (!kvc_verdict_fix_count(v)) return;
    const kvc_fix *f = kvc_verdict_fix(v, 0);
    size_t n = (size_t)snprintf(out, size, "Fix: add to the %s launch command:", kvc_side_name(f->side));
    for (unsigned i = 0; i < f->nargs && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, " %s%s%s", f->args[i][0], f->args[i][1][0] ? " " : "", f->args[i][1]);
}

/* ------------------------------------------------------------------- XML */

size_t utf8_seq(const unsigned char *p)
{
    size_t n = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
                                 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) || (p[0] == 0xf0 && p[1] < 0x90) ||
        (p[0] == 0xf4 && p[1] > 0x8f))
        return 0;
    return n;
}

void text_put(FILE *out, const char *text, int xml)
{
    static const char MARKUP[] = "&<>\"";
    static const char *const ENTITY[] = {"&amp;", "&lt;", "&gt;", "&quot;"};
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        size_t n = utf8_seq(p);
        const char *markup = xml ? strchr(MARKUP, *p) : NULL; /* *p is not NUL here */
        if (markup) {
            fputs(ENTITY[markup - MARKUP], out);
            p++;
        } else if (*p == '\n' || *p == '\t' || (n == 1 && *p >= 0x20 && *p != 0x7f)) {
            fputc(*p++, out);
        } else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* C1 controls */
            fprintf(out, "\\u%04x", p[1]);
            p += 2;
        } else if (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) { /* U+FFFE, U+FFFF: no characters */
            fprintf(out, "\\x%02x\\x%02x\\x%02x", p[0], p[1], p[2]);
            p += 3;
        } else if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            fprintf(out, "\\x%02x", *p++);
        }
    }
}

kvc_status junit_write(const char *path, const pair_result *pairs, size_t n, kvc_diag *diag)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        if (diag) {
            kvc_diag_clear(diag);
            diag->status = KVC_ERR_IO;
            snprintf(diag->file, sizeof diag->file, "%s", path);
            snprintf(diag->message, sizeof diag->message, "cannot write the JUnit report %.400s: %s", path,
                     strerror(errno));
        }
        return KVC_ERR_IO;
    }
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < n; i++) {
        failures += pairs[i].verdict && pairs[i].code == 1;
        errors += !pairs[i].verdict;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"kvcheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", n, failures, errors);
    fprintf(out, "  <testsuite name=\"kvcheck check\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n", n,
            failures, errors);
    for (size_t i = 0; i < n; i++) {
        const pair_result *r = &pairs[i];
        fputs("    <testcase classname=\"kvcheck.check\" name=\"", out);
        text_put(out, r->prefill, 1);
        fputs(" -&gt; ", out);
        text_put(out, r->decode, 1);
        fputs("\">\n", out);
        if (r->verdict && r->code == 1) {
            char *report = kvc_report_check(r->verdict, KVC_FORMAT_TEXT, 0);
            char line[1024] = "out of memory", fix[FIX_TEXT_LEN] = "";
            if (report) first_line(report, line, sizeof line);
            fix_text(r->verdict, fix, sizeof fix);
            fputs("      <failure type=\"incompatible\" message=\"", out);
            text_put(out, line, 1);
            if (fix[0]) fputs(" ", out), text_put(out, fix, 1);
            fputs("\">", out);
            text_put(out, report ? report : line, 1);
            fputs("</failure>\n", out);
            kvc_free(report);
        } else if (!r->verdict) {
            fputs("      <error type=\"", out);
            text_put(out, kvc_status_name(r->diag.status), 1);
            fputs("\" message=\"", out);
            text_put(out, r->diag.message, 1);
            fputs("\">", out);
            char *text = kvc_report_error(&r->diag, r->code, KVC_FORMAT_TEXT);
            text_put(out, text ? text : r->diag.message, 1);
            kvc_free(text);
            fputs("</error>\n", out);
        }
        fputs("    </testcase>\n", out);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
    int bad = ferror(out);
    if (fclose(out) != 0 || bad) {
        if (diag) {
            kvc_diag_clear(diag);
            diag->status = KVC_ERR_IO;
            snprintf(diag->message, sizeof diag->message, "cannot write the JUnit report %.400s: %s", path,
                     strerror(errno));
        }
        return KVC_ERR_IO;
    }
    return KVC_OK;
}

/* ---------------------------------------------------------------- GitHub */

/* A workflow command's message (data) or property value: %, CR and LF are
 * escaped, and in a property also : and , (GitHub's escapeData/escapeProperty). */
static void gh_put(FILE *out, const char *text, int property)
{
    for (const char *p = text; *p; p++) {
        if (*p == '%') fputs("%25", out);
        else if (*p == '\r') fputs("%0D", out);
        else if (*p == '\n') fputs("%0A", out);
        else if (property && *p == ':') fputs("%3A", out);
        else if (property && *p == ',') fputs("%2C", out);
        else fputc(*p, out);
    }
}

/* Where a side's layout was decided: a setting the user wrote that decides
 * the layout and differs from the other side's; else one that differs and
 * is not a role both sides are expected to differ in (the disaggregation
 * mode: shown side by side, deciding nothing alone); else a deciding setting
 * the user wrote. NULL when defaults decided everything. */
static const kvc_setting *deciding_origin(const kvc_resolved *side, const kvc_resolved *other)
{
    const kvc_setting *best = NULL;
    int best_rank = 0;
    for (unsigned i = 0; i < kvc_resolved_setting_count(side); i++) {
        const kvc_setting *s = kvc_resolved_setting(side, i);
        if (!s->file[0] || !s->line) continue;
        const kvc_setting *o = kvc_resolved_find(other, s->name);
        int differs = !o || strcmp(o->value, s->value) != 0;
        unsigned decides = s->flags & (KVC_SETTING_DECIDES | KVC_SETTING_COMPARED);
        int rank = differs && decides ? 3 : differs && !(s->flags & KVC_SETTING_PAIR) ? 2 : decides ? 1 : 0;
        if (rank > best_rank) best = s, best_rank = rank;
    }
    return best;
}

/* A file a GitHub annotation can point at: not a URL or kvcheck's own options. */
static int is_file(const char *name)
{
    return name[0] && name[0] != '-' && !strstr(name, "://");
}

void github_annotate(FILE *out, const pair_result *r)
{
    if (!r->verdict) {
        fputs("::error ", out);
        const char *file = r->diag.file[0] ? r->diag.file : r->from_file[0] ? r->prefill : "";
        if (is_file(file)) {
            fputs("file=", out);
            gh_put(out, file, 1);
            if (r->diag.file[0] && r->diag.line) fprintf(out, ",line=%u", r->diag.line);
            if (r->diag.file[0] && r->diag.column) fprintf(out, ",col=%u", r->diag.column);
            fputs(",", out);
        }
        fputs("title=kvcheck: cannot check ", out);
        gh_put(out, r->prefill, 1);
        fputs(" -> ", out);
        gh_put(out, r->decode, 1);
        fputs("::", out);
        gh_put(out, r->diag.message, 0);
        fputs("\n", out);
        return;
    }
    if (r->code != 1) return;
    char *report = kvc_report_check(r->verdict, KVC_FORMAT_TEXT, 0);
    char line[1024] = "INCOMPATIBLE", fix[FIX_TEXT_LEN];
    if (report) first_line(report, line, sizeof line);
    kvc_free(report);
    fix_text(r->verdict, fix, sizeof fix);
    const kvc_resolved *side[2] = {kvc_verdict_side(r->verdict, KVC_SIDE_PREFILL),
                                   kvc_verdict_side(r->verdict, KVC_SIDE_DECODE)};
    const char *label[2] = {r->prefill, r->decode};
    for (int s = 0; s < 2; s++) {
        const kvc_setting *at = deciding_origin(side[s], side[!s]);
        fputs("::error ", out);
        if (at && is_file(at->file)) {
            fputs("file=", out);
            gh_put(out, at->file, 1);
            fprintf(out, ",line=%u", at->line);
            if (at->column) fprintf(out, ",col=%u", at->column);
            fputs(",", out);
        } else if (r->from_file[s] && is_file(label[s])) {
            fputs("file=", out);
            gh_put(out, label[s], 1);
            fputs(",", out);
        }
        fprintf(out, "title=kvcheck: KV-cache layout mismatch (%s)::", kvc_side_name((kvc_side)s));
        gh_put(out, line, 0);
        if (at) {
            char why[800];
            snprintf(why, sizeof why, "\n%s %s %s: %s", kvc_side_name((kvc_side)s), at->name, at->value, at->reason);
            gh_put(out, why, 0);
        }
        if (fix[0]) {
            gh_put(out, "\n", 0);
            gh_put(out, fix, 0);
        }
        fputs("\n", out);
    }
}
