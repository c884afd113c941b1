/* Text and JSON reports: shared pieces of the report renderers. */
#ifndef KVC_REPORT_H
#define KVC_REPORT_H

#include "simulate/simulate.h"

/* ---------------------------------------------------------------- reports */

/* The engine that resolved `r` (the default one for a result without):
 * how reports name it and its releases. */
const engine_def *engine_of(const kvc_resolved *r);

struct cJSON;
typedef struct style {
    const char *red, *green, *yellow, *bold, *off;
} style;
style report_style(unsigned options);
void report_text_fields(strbuf *sb, const kvc_layout *l);
struct cJSON *report_json_layout(const kvc_layout *l);
struct cJSON *report_json_notes(const char (*notes)[KVC_NOTE_LEN], unsigned n);
/* Prints and frees `doc`; the string is freed with kvc_free. */
char *report_json_finish(struct cJSON *doc);

#endif /* KVC_REPORT_H */
