/* Text and JSON reports: shared pieces of the report renderers. */
#ifndef KVC_REPORT_H
#define KVC_REPORT_H

#include "simulate/simulate.h"

/* ---------------------------------------------------------------- reports */

/* The engine that resolved `r` (the default one for a result without):
 * how reports name it and its releases. */
const engine_def *engine_of(const kvc_resolved *r);

struct cJSON;

/* Text reports escape what came from the input in one place, text_finish,
 * so a file name or flag can never drive the terminal. Colour is written as
 * marks (a NUL byte and a letter, which no C string from the input can
 * hold) that text_finish turns into ANSI sequences or drops. */
enum { STYLE_OFF = '0', STYLE_RED = 'r', STYLE_GREEN = 'g', STYLE_YELLOW = 'y', STYLE_BOLD = 'b' };
void text_mark(strbuf *sb, int style);
/* `text` in `style`, then the style off. */
void text_styled(strbuf *sb, int style, const char *text);
/* The report as the caller gets it: control characters other than \n and
 * \t, and bytes that are not UTF-8, escaped (\x1b); marks in colour with
 * KVC_REPORT_COLOR, else gone. Consumes `sb`; NULL when out of memory. */
char *text_finish(strbuf *sb, unsigned options);
void report_text_fields(strbuf *sb, const kvc_layout *l);
struct cJSON *report_json_layout(const kvc_layout *l);
struct cJSON *report_json_notes(const char (*notes)[KVC_NOTE_LEN], unsigned n);
/* Prints and frees `doc`; the string is freed with kvc_free. */
char *report_json_finish(struct cJSON *doc);

#endif /* KVC_REPORT_H */
