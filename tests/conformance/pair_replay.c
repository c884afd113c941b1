/* Replays the PD bootstrap table (tests/conformance/sglang/pairs/bootstrap.tsv,
 * written by tools/sglang-oracle/pairs.py from two SGLang releases' own
 * code, each side its own release) against kvcheck's public API: for every
 * prefill and decode worker of every release pair, kvc_compare's verdict.
 *
 * usage: pair_replay [--sample N] TABLE MODELS
 *
 * A pair agrees when kvcheck says the bootstrap refuses it exactly when
 * SGLang's decode raises there (with SGLang's first sentence in kvcheck's
 * text), or cannot read the prefill server's info (with SGLang's log line in
 * kvcheck's text). Pairs in which SGLang refuses a worker on its own are
 * skipped: the worker tables cover them. Exits 1 on any difference. */
#include "kvcheck.h"
#include "tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 64
#define MAX_RESULTS 256
#define SHOW 5

typedef struct worker_case {
    char dtype[32], page[16], hisparse[4];
} worker_case;

static worker_case prefill[MAX_CASES], decode[MAX_CASES];
static unsigned nprefill, ndecode;
static char *results[MAX_RESULTS]; /* "pass", "refused\t...", "no_info\t...", "worker" */
static const char *model_path;
static unsigned long sample = 1, seen;

static kvc_worker *worker(const char *name, const char *gpu, const char *release, const char *mode,
                          const worker_case *c, kvc_diag *d)
{
    char args[512];
    int n = snprintf(args, sizeof args, "--model-path /fake/model --tp 8 --disaggregation-mode %s", mode);
    if (strcmp(c->dtype, "-")) n += snprintf(args + n, sizeof args - (size_t)n, " --kv-cache-dtype %s", c->dtype);
    if (strcmp(c->page, "-")) n += snprintf(args + n, sizeof args - (size_t)n, " --page-size %s", c->page);
    if (strcmp(c->hisparse, "1") == 0)
        snprintf(args + n, sizeof args - (size_t)n, " --enable-hisparse --disable-radix-cache");
    kvc_worker *w = kvc_worker_create(name);
    if (!w) return NULL;
    kvc_status st = kvc_worker_set_gpu(w, gpu, d);
    if (!st) st = kvc_worker_set_model(w, model_path, d);
    if (!st) st = kvc_worker_set_release(w, release, d);
    if (!st) st = kvc_worker_add_args(w, args, name, d);
    if (st) {
        kvc_worker_free(w);
        return NULL;
    }
    return w;
}

/* SGLang's words kvcheck must quote: a refusal's first sentence (without
 * the exception's type), or the decode's first log line. */
static void words_of(const char *result, char *out, size_t size)
{
    const char *text = strchr(result, '\t'); /* the kinds with words have a tab (main checks) */
    text = text ? text + 1 : "";
    if (strncmp(result, "refused", 7) == 0) {
        const char *colon = strstr(text, ": ");
        if (colon) text = colon + 2;
        const char *end = strstr(text, ". ");
        snprintf(out, size, "%.*s", end ? (int)(end - text + 1) : (int)strlen(text), text);
    } else {
        const char *end = strstr(text, " | ");
        snprintf(out, size, "%.*s", end ? (int)(end - text) : (int)strlen(text), text);
    }
}

/* 1 when kvcheck agrees with SGLang on one pair; `why` says how it differs. */
static int agrees(const char *const pair[4], unsigned i, unsigned j, const char *want, char *why, size_t size)
{
    kvc_diag d;
    kvc_diag_clear(&d);
    kvc_worker *p = worker("prefill", pair[2], pair[0], "prefill", &prefill[i], &d);
    kvc_worker *w = p ? worker("decode", pair[3], pair[1], "decode", &decode[j], &d) : NULL;
    kvc_verdict *v = NULL;
    kvc_status st = w ? kvc_compare(p, w, &v, &d) : KVC_ERR_CONFIG;
    kvc_worker_free(p);
    kvc_worker_free(w);
    int ok;
    if (st) {
        ok = 0;
        snprintf(why, size, "kvcheck cannot judge the pair: %s", d.message);
    } else {
        int boot = kvc_verdict_bootstrap_catches(v) && strcmp(kvc_verdict_caught_at(v), "bootstrap") == 0;
        if (strcmp(want, "pass") == 0) {
            ok = !boot;
            if (!ok) snprintf(why, size, "SGLang's bootstrap passes | kvcheck: %s", kvc_verdict_bootstrap(v));
        } else {
            char words[600];
            words_of(want, words, sizeof words);
            ok = boot && words[0] && strstr(kvc_verdict_bootstrap(v), words) != NULL;
            if (!ok) snprintf(why, size, "SGLang: %s | kvcheck: %s", want, kvc_verdict_bootstrap(v));
        }
    }
    kvc_verdict_free(v);
    return ok;
}

int main(int argc, char **argv)
{
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "--sample") == 0) {
        sample = strtoul(argv[a + 1], NULL, 10);
        a += 2;
    }
    if (sample < 1) sample = 1;
    if (argc - a != 2) {
        fprintf(stderr, "usage: pair_replay [--sample N] TABLE MODELS\n");
        return 2;
    }
    static char model[1024];
    snprintf(model, sizeof model, "%s/DEEPSEEK_V32.json", argv[a + 1]);
    model_path = model;
    FILE *f = fopen(argv[a], "r");
    if (!f) {
        perror(argv[a]);
        return 2;
    }
    static char line[1 << 16];
    char *fl[8] = {0}; /* gcc 13 cannot see that n bounds every read */
    unsigned long agree = 0, skipped = 0, total = 0, shown = 0;
    int bad = 0, format = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        unsigned n = tsv_split(line, fl, 8);
        if (strcmp(fl[0], "format") == 0 && n == 2) {
            format = strcmp(fl[1], "1") == 0;
            if (!format) {
                fprintf(stderr, "%s: format %s, this replay reads format 1\n", argv[a], fl[1]);
                bad = 1;
                break;
            }
        } else if ((strcmp(fl[0], "prefill") == 0 || strcmp(fl[0], "decode") == 0) && n == 5) {
            unsigned long i = strtoul(fl[1], NULL, 10);
            worker_case *c = fl[0][0] == 'p' ? prefill : decode;
            unsigned *count = fl[0][0] == 'p' ? &nprefill : &ndecode;
            if (i >= MAX_CASES || i != *count) bad = 1;
            else {
                snprintf(c[i].dtype, sizeof c[i].dtype, "%s", fl[2]);
                snprintf(c[i].page, sizeof c[i].page, "%s", fl[3]);
                snprintf(c[i].hisparse, sizeof c[i].hisparse, "%s", fl[4]);
                (*count)++;
            }
        } else if (strcmp(fl[0], "result") == 0 && n >= 3) {
            unsigned long id = strtoul(fl[1], NULL, 10);
            /* pass; worker, refused, no_info with SGLang's words */
            int known = (strcmp(fl[2], "pass") == 0 && n == 3) ||
                        ((strcmp(fl[2], "worker") == 0 || strcmp(fl[2], "refused") == 0 ||
                          strcmp(fl[2], "no_info") == 0) && n == 4 && fl[3][0]);
            if (id >= MAX_RESULTS || !known) {
                fprintf(stderr, "%s: a result line this replay does not read: %.80s\n", argv[a], fl[2]);
                bad = 1;
            } else {
                char text[1 << 12];
                snprintf(text, sizeof text, "%s%s%s", fl[2], n > 3 ? "\t" : "", n > 3 ? fl[3] : "");
                free(results[id]);
                results[id] = strdup(text);
            }
        } else if (strcmp(fl[0], "pairs") == 0 && n == 6 && format) {
            static unsigned ids[MAX_CASES * MAX_CASES];
            unsigned m = tsv_expand(fl[5], ids, MAX_CASES * MAX_CASES);
            if (m != nprefill * ndecode) {
                fprintf(stderr, "%s: a pairs line with %u results for %u x %u cases\n", argv[a], m, nprefill, ndecode);
                bad = 1;
                continue;
            }
            const char *pair[4] = {fl[1], fl[2], fl[3], fl[4]};
            for (unsigned k = 0; k < m; k++) {
                const char *want = ids[k] < MAX_RESULTS ? results[ids[k]] : NULL;
                if (!want) {
                    bad = 1;
                    continue;
                }
                if (strncmp(want, "worker", 6) == 0) {
                    skipped++;
                    continue;
                }
                if (seen++ % sample) continue;
                char why[4096];
                total++;
                if (agrees(pair, k / ndecode, k % ndecode, want, why, sizeof why)) agree++;
                else if (shown++ < SHOW)
                    printf("  prefill %s %s [%s page %s] / decode %s %s [%s page %s hisparse %s]: %s\n", pair[0],
                           pair[2], prefill[k / ndecode].dtype, prefill[k / ndecode].page, pair[1], pair[3],
                           decode[k % ndecode].dtype, decode[k % ndecode].page, decode[k % ndecode].hisparse, why);
            }
        } else {
            fprintf(stderr, "%s: an unknown line: %.80s\n", argv[a], fl[0]);
            bad = 1;
        }
    }
    fclose(f);
    for (unsigned i = 0; i < MAX_RESULTS; i++) free(results[i]);
    printf("PD bootstrap: %lu/%lu pairs agree with SGLang's own code (%lu differ; %lu with a worker SGLang refuses "
           "on its own, not replayed)\n",
           agree, total, total - agree, skipped);
    return bad || agree != total || !total;
}
