/* kvcheck shows the value of an option that may be a secret's as "***" in
 * argparse's messages (src/engine/sglang/argparse.c secret_like), where
 * SGLang's argparse prints it whole: the tests compare the two so. */
#ifndef KVC_TESTS_REDACTED_H
#define KVC_TESTS_REDACTED_H

#include <string.h>

/* Where `text` stops matching `msg` from its start, each "***" in `text` standing for a word of `msg` (up to a space
 * or a quote): past the match, or NULL. */
static inline const char *redacted_at(const char *text, const char *msg)
{
    while (*msg) {
        if (strncmp(text, "***", 3) == 0 && !strchr(" \"", *msg)) {
            while (*msg && !strchr(" \"", *msg)) msg++;
            text += 3;
        } else if (*text == *msg) {
            text++, msg++;
        } else {
            return NULL;
        }
    }
    return text;
}

#endif
