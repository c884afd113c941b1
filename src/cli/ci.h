/* Reporting checked pairs to CI systems: JUnit XML and GitHub Actions
 * workflow commands. */
#ifndef KVC_CLI_CI_H
#define KVC_CLI_CI_H

#include "kvcheck.h"

#include <stdio.h>

/* One checked pair: its verdict, or why it could not be checked. */
typedef struct pair_result {
    const char *prefill, *decode; /* as given: file names or URLs, else "prefill", "decode" */
    int from_file[2];             /* prefill, decode: given as a file (or URL), not by shortcuts alone */
    int code;                     /* this pair's exit code: 0, 1, or the error's */
    kvc_verdict *verdict;         /* NULL when it could not be checked */
    kvc_diag diag;                /* why not */
} pair_result;

/* Length of the UTF-8 sequence at p, or 0 when it is not one. */
size_t utf8_seq(const unsigned char *p);

/* Prints text that holds input (file names, URLs) so that no input drives
 * a terminal or breaks a document: control characters, C1 controls, U+FFFE,
 * U+FFFF and bytes that are not UTF-8 are written as \xNN or \u00NN, never
 * dropped; with `xml`, markup characters become entities too (XML 1.0
 * character data and attribute values). */
void text_put(FILE *out, const char *text, int xml);

/* Writes the JUnit XML document (one test case per pair) to `path`;
 * KVC_ERR_IO with the reason when it cannot be written. */
kvc_status junit_write(const char *path, const pair_result *pairs, size_t n, kvc_diag *diag);
/* GitHub Actions annotations for one pair: an ::error per side of an
 * incompatible pair, at the line that decided the mismatching value where
 * one did, and one for a pair that could not be checked. */
void github_annotate(FILE *out, const pair_result *pair);

#endif /* KVC_CLI_CI_H */
