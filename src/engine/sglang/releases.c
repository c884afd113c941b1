/* The SGLang releases kvcheck has read, newest first: every final and post
 * release on PyPI from the first that serves DSA models (0.5.3rc2) to the
 * newest (0.5.23). A release is an index into this list everywhere in
 * src/engine/sglang/ (rule rows and flag rows carry masks of them). How each
 * was read: tools/sglang-oracle/ERAS.md. */
#include "engine/sglang/sglang.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *const SGLANG_VERSIONS[SGLANG_NRELEASES] = {
    "0.5.23",       "0.5.22",       "0.5.21",       "0.5.20",       "0.5.19",      "0.5.18",       "0.5.17",
    "0.5.16",       "0.5.15.post1", "0.5.15",       "0.5.14",       "0.5.13.post1", "0.5.13",      "0.5.12.post1",
    "0.5.12",       "0.5.11",       "0.5.10.post1", "0.5.10",       "0.5.9",        "0.5.8.post1", "0.5.8",
    "0.5.7",        "0.5.6.post2",  "0.5.6.post1",  "0.5.6",        "0.5.5.post3",  "0.5.5.post2", "0.5.5.post1",
    "0.5.5",        "0.5.4.post3",  "0.5.4.post2",  "0.5.4.post1",  "0.5.4",        "0.5.3.post3", "0.5.3.post2",
    "0.5.3.post1",  "0.5.3",        "0.5.3rc2",
};

int sglang_release_index(const char *version)
{
    for (unsigned i = 0; i < SGLANG_NRELEASES; i++)
        if (strcmp(SGLANG_VERSIONS[i], version) == 0) return (int)i;
    return -1;
}

/* A version that is none sorts past every release. */
static unsigned order_of(const char *version)
{
    int i = sglang_release_index(version);
    return i < 0 ? SGLANG_NRELEASES : (unsigned)i;
}

int sglang_release_in(unsigned rel, const char *since, const char *until)
{
    return (!since || rel <= order_of(since)) && (!until || rel >= order_of(until));
}

/* A version as PEP 440 orders SGLang's: release numbers, then rcN before
 * the final release, then .postN after it. 0 when `v` is not one. */
typedef struct version {
    unsigned long part[3];
    long pre;   /* rc number; LONG_MAX for a final release */
    long post;  /* post number; -1 for none */
} version;

static int parse_version(const char *v, version *out)
{
    const char *p = v;
    if (*p == 'v' || *p == 'V') p++;
    for (int i = 0; i < 3; i++) {
        if (*p < '0' || *p > '9') return 0;
        char *end;
        out->part[i] = strtoul(p, &end, 10);
        p = end;
        if (i < 2 && *p++ != '.') return 0;
    }
    out->pre = LONG_MAX;
    out->post = -1;
    if (strncmp(p, "rc", 2) == 0 && p[2] >= '0' && p[2] <= '9') {
        char *end;
        out->pre = strtol(p + 2, &end, 10);
        p = end;
    }
    if (strncmp(p, ".post", 5) == 0 && p[5] >= '0' && p[5] <= '9') {
        char *end;
        out->post = strtol(p + 5, &end, 10);
        p = end;
    }
    return *p == '\0';
}

static int cmp_version(const version *a, const version *b)
{
    for (int i = 0; i < 3; i++)
        if (a->part[i] != b->part[i]) return a->part[i] < b->part[i] ? -1 : 1;
    if (a->pre != b->pre) return a->pre < b->pre ? -1 : 1;
    if (a->post != b->post) return a->post < b->post ? -1 : 1;
    return 0;
}

kvc_status sglang_find_release(const char *asked, unsigned *index, char *note, size_t size, kvc_diag *diag)
{
    note[0] = '\0';
    for (unsigned i = 0; i < SGLANG_NRELEASES; i++)
        if (strcmp(SGLANG_VERSIONS[i], asked) == 0) {
            *index = i;
            return KVC_OK;
        }
    kvc_origin o;
    origin_set(&o, "", 0, 0, "--sglang-version");
    if (strcmp(asked, "main") == 0) {
        *index = 0;
        str_printf(note, size,
                   "SGLang main is not a release kvcheck can read: it uses the rules of %s, the newest on PyPI it has "
                   "read (main at 4560da58, the GLM-5.2 fix, takes the row from the worker's own backend as 0.5.20 "
                   "and later do); anything main changed since is not modelled",
                   SGLANG_VERSIONS[0]);
        return KVC_OK;
    }
    version want;
    RETURN_ERROR_IF(!parse_version(asked, &want), diag, KVC_ERR_USAGE, &o,
                    "SGLang version '%s' is not a version: give it as SGLang reports it (0.5.18, 0.5.4.post3, "
                    "0.5.10rc0) or main",
                    asked);
    for (unsigned i = 0; i < SGLANG_NRELEASES; i++) {
        version have;
        parse_version(SGLANG_VERSIONS[i], &have);
        if (cmp_version(&have, &want) > 0) continue;
        *index = i;
        str_printf(note, size,
                   "SGLang %s is not a release kvcheck has read: it uses the rules of %s, the newest older one it "
                   "has; a newer release may have changed them",
                   asked, SGLANG_VERSIONS[i]);
        return KVC_OK;
    }
    return diag_set(diag, KVC_ERR_USAGE, &o,
                    "SGLang %s is older than %s, the first release that serves DSA models: kvcheck's rules start "
                    "there",
                    asked, SGLANG_VERSIONS[SGLANG_NRELEASES - 1]);
}
