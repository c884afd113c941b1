/* The conformance tables' common text: tab-separated fields, run-length
 * coded result ids and SGLang's recorded refusals (tools/sglang-oracle/
 * tables.py, pairs.py). Shared by the replays. */
#ifndef KVC_CONFORMANCE_TSV_H
#define KVC_CONFORMANCE_TSV_H

#include <stdlib.h>
#include <string.h>

#include "redacted.h"

/* Splits `line` at tabs in place into f[0..max-1]; returns the count. */
static unsigned tsv_split(char *line, char **f, unsigned max)
{
    unsigned n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

/* Expands '4*12,7' into ids[] ('.' as 0); returns the count (at most max). */
static unsigned tsv_expand(const char *rle, unsigned *ids, unsigned max)
{
    unsigned n = 0;
    for (const char *p = rle; *p && n < max;) {
        unsigned id = *p == '.' ? 0 : (unsigned)strtoul(p, NULL, 10);
        while (*p && *p != '*' && *p != ',') p++;
        unsigned times = 1;
        if (*p == '*') times = (unsigned)strtoul(p + 1, NULL, 10);
        while (*p && *p != ',') p++;
        if (*p == ',') p++;
        while (times-- && n < max) ids[n++] = id;
    }
    return n;
}

/* SGLang's words in a recorded refusal: "AssertionError: text" -> "text";
 * "init: ValueError: text" -> "text"; "argparse: text" -> "text". */
static const char *tsv_message(const char *refusal)
{
    const char *p = refusal;
    if (strncmp(p, "init: ", 6) == 0) p += 6;
    if (strncmp(p, "argparse: ", 10) == 0) return p + 10;
    const char *colon = strstr(p, ": ");
    if (colon && colon - p < 40 && !memchr(p, ' ', (size_t)(colon - p))) p = colon + 2;
    return p;
}

/* 1 when `text` quotes SGLang's message `msg` whole (redacted.h): found, and followed by
 * the end, " (" (kvcheck's citation), a period, a semicolon or a quote, so
 * that a list kvcheck made longer does not pass. */
static int tsv_quotes(const char *text, const char *msg)
{
    for (const char *at = text; *at; at++) {
        const char *end = redacted_at(at, msg); /* a secret's value kvcheck shows as *** */
        if (end && (!*end || strncmp(end, " (", 2) == 0 || strchr(".;\"", *end))) return 1;
    }
    return 0;
}

#endif
