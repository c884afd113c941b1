/* The SGLang releases kvcheck has read, newest first: every final and post
 * release on PyPI from the first that serves DSA models (0.5.3rc2) to the
 * newest (0.5.23). A release is an index into this list everywhere in
 * src/engine/sglang/ (rule rows and flag rows carry masks of them). How each
 * was read: tools/sglang-oracle/ERAS.md. */
#include "engine/sglang/sglang.h"

const char *const SGLANG_VERSIONS[SGLANG_NRELEASES] = {
    "0.5.23",       "0.5.22",       "0.5.21",       "0.5.20",       "0.5.19",      "0.5.18",       "0.5.17",
    "0.5.16",       "0.5.15.post1", "0.5.15",       "0.5.14",       "0.5.13.post1", "0.5.13",      "0.5.12.post1",
    "0.5.12",       "0.5.11",       "0.5.10.post1", "0.5.10",       "0.5.9",        "0.5.8.post1", "0.5.8",
    "0.5.7",        "0.5.6.post2",  "0.5.6.post1",  "0.5.6",        "0.5.5.post3",  "0.5.5.post2", "0.5.5.post1",
    "0.5.5",        "0.5.4.post3",  "0.5.4.post2",  "0.5.4.post1",  "0.5.4",        "0.5.3.post3", "0.5.3.post2",
    "0.5.3.post1",  "0.5.3",        "0.5.3rc2",
};
