/* Replays the PD bootstrap table (tests/conformance/sglang/pairs/bootstrap.tsv,
 * written by tools/sglang-oracle/pairs.py from two SGLang releases' own
 * code, each side its own release) against kvcheck's public API: for every
 * scenario (a model and each side's extra flags) and every prefill and
 * decode worker of every release pair, kvc_compare's verdict.
 *
 * usage: pair_replay [--sample N] TABLE MODELS
 *   MODELS: the folder of the scenarios' model files
 *
 * A pair agrees when kvcheck says the bootstrap refuses it exactly when
 * SGLang's decode raises there (with SGLang's first sentence in kvcheck's
 * text) or cannot read the prefill server's info (with SGLang's log line in
 * kvcheck's text), and says the first request fails exactly when SGLang's
 * receiver fails each request (with SGLang's reason). When SGLang refuses a
 * worker on its own, kvcheck must refuse that worker with SGLang's message
 * (each such worker is checked once). Exits 1 on any difference. */
#include "kvcheck.h"
#include "tsv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 64
#define MAX_RESULTS 256
#define MAX_SCENARIOS 16
#define WORKER_SLOTS (1u << 16)
#define SHOW 5

enum { PREFILL, DECODE };
static const char *const MODE[2] = {"prefill", "decode"};

typedef struct worker_case {
    char dtype[32], page[16], hisparse[4];
} worker_case;

typedef struct scenario {
    char name[64], model[64], extra[2][256]; /* extra: each side's flags, "" for none */
} scenario;

/* One pairs line: its scenario, and per side its release and GPU. */
typedef struct pair_line {
    const scenario *s;
    const char *release[2], *gpu[2];
} pair_line;

static worker_case cases[2][MAX_CASES];
static unsigned ncases[2];
static scenario scenarios[MAX_SCENARIOS];
static unsigned nscenarios;
static char *results[MAX_RESULTS]; /* "pass", "refused\t..", "no_info\t..", "request\t..", "worker\tSIDE\t.." */
static const char *models_dir;
static unsigned long sample = 1, seen;

static kvc_worker *worker(const pair_line *l, int side, const worker_case *c, kvc_diag *d)
{
    char model_path[1024], args[1024];
    snprintf(model_path, sizeof model_path, "%s/%s.json", models_dir, l->s->model);
    /* each case field is at most 31 bytes and a scenario's extra flags 255: the line fits in 1 KiB */
    int n = snprintf(args, sizeof args, "--model-path /fake/model --tp 8 --disaggregation-mode %s", MODE[side]);
    if (strcmp(c->dtype, "-")) n += snprintf(args + n, sizeof args - (size_t)n, " --kv-cache-dtype %s", c->dtype);
    if (strcmp(c->page, "-")) n += snprintf(args + n, sizeof args - (size_t)n, " --page-size %s", c->page);
    if (strcmp(c->hisparse, "1") == 0)
        n += snprintf(args + n, sizeof args - (size_t)n, " --enable-hisparse --disable-radix-cache");
    if (l->s->extra[side][0]) n += snprintf(args + n, sizeof args - (size_t)n, " %s", l->s->extra[side]);
    if (n >= (int)sizeof args) {
        snprintf(d->message, sizeof d->message, "pair_replay: a command line longer than %zu bytes", sizeof args);
        return NULL;
    }
    kvc_worker *w = kvc_worker_create(MODE[side]);
    if (!w) return NULL;
    kvc_status st = kvc_worker_set_gpu(w, l->gpu[side], d);
    if (!st) st = kvc_worker_set_model(w, model_path, d);
    if (!st) st = kvc_worker_set_release(w, l->release[side], d);
    if (!st) st = kvc_worker_add_args(w, args, MODE[side], d);
    if (st) {
        kvc_worker_free(w);
        return NULL;
    }
    return w;
}

/* SGLang's words kvcheck must quote: a refusal's first sentence (without
 * the exception's type), the decode's first log line, or a request's
 * whole failure reason. */
static void words_of(const char *result, char *out, size_t size)
{
    const char *text = strchr(result, '\t'); /* the kinds with words have a tab (main checks) */
    text = text ? text + 1 : "";
    const char *end = NULL;
    if (strncmp(result, "refused", 7) == 0) {
        const char *colon = strstr(text, ": ");
        if (colon) text = colon + 2;
        end = strstr(text, ". ");
        if (end) end++;
    } else if (strncmp(result, "no_info", 7) == 0) {
        end = strstr(text, " | ");
    }
    snprintf(out, size, "%.*s", end ? (int)(end - text) : (int)strlen(text), text);
}

/* 1 when kvcheck agrees with SGLang on one pair; `why` says how it differs. */
static int pair_agrees(const pair_line *l, unsigned i, unsigned j, const char *want, char *why, size_t size)
{
    kvc_diag d;
    kvc_diag_clear(&d);
    kvc_worker *p = worker(l, PREFILL, &cases[PREFILL][i], &d);
    kvc_worker *w = p ? worker(l, DECODE, &cases[DECODE][j], &d) : NULL;
    kvc_verdict *v = NULL;
    kvc_status st = w ? kvc_compare(p, w, &v, &d) : KVC_ERR_CONFIG;
    kvc_worker_free(p);
    kvc_worker_free(w);
    int ok;
    if (st) {
        ok = 0;
        snprintf(why, size, "kvcheck cannot judge the pair: %.1500s", d.message);
    } else {
        const char *at = kvc_verdict_bootstrap_catches(v) ? kvc_verdict_caught_at(v) : "";
        const char *stage = strncmp(want, "request", 7) == 0 ? "first request" : "bootstrap";
        if (strcmp(want, "pass") == 0) {
            ok = strcmp(at, "bootstrap") != 0 && strcmp(at, "first request") != 0;
            if (!ok) snprintf(why, size, "SGLang passes | kvcheck: %s: %s", at, kvc_verdict_bootstrap(v));
        } else {
            char words[600];
            words_of(want, words, sizeof words);
            ok = strcmp(at, stage) == 0 && words[0] && strstr(kvc_verdict_bootstrap(v), words) != NULL;
            if (!ok) snprintf(why, size, "SGLang: %s | kvcheck: %s: %s", want, at, kvc_verdict_bootstrap(v));
        }
    }
    kvc_verdict_free(v);
    return ok;
}

/* The workers SGLang refuses on their own, each checked once: key and
 * kvcheck's agreement, in an open-addressed table. */
static struct {
    char *key;
    int ok;
} checked[WORKER_SLOTS];
static unsigned long workers_total, workers_agree;

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* 1 when kvcheck refuses the `side` worker of case `k` that SGLang refuses
 * with `refusal`, in SGLang's words; `why` says how it differs. */
static int worker_agrees(const pair_line *l, int side, unsigned k, const char *refusal, char *why, size_t size)
{
    char key[256];
    snprintf(key, sizeof key, "%s|%s|%s|%d|%u", l->s->name, l->release[side], l->gpu[side], side, k);
    uint32_t at = fnv1a(key) & (WORKER_SLOTS - 1);
    while (checked[at].key && strcmp(checked[at].key, key) != 0) at = (at + 1) & (WORKER_SLOTS - 1);
    if (checked[at].key) return checked[at].ok;
    if (workers_total >= WORKER_SLOTS / 2) {
        fprintf(stderr, "pair_replay: more refused workers than the table holds\n");
        exit(2);
    }
    kvc_diag d;
    kvc_diag_clear(&d);
    kvc_worker *w = worker(l, side, &cases[side][k], &d);
    kvc_resolved *r = NULL;
    kvc_status st = w ? kvc_resolve(w, &r, &d) : KVC_ERR_CONFIG;
    kvc_resolved_free(r);
    kvc_worker_free(w);
    const char *msg = tsv_message(refusal);
    int ok = (st == KVC_ERR_CONFIG || st == KVC_ERR_USAGE) &&
             (tsv_quotes(d.message, msg) || strncmp(refusal, "argparse exit", 13) == 0);
    if (!ok)
        snprintf(why, size, "SGLang refuses the %s worker: %.300s | kvcheck: %.1500s", MODE[side], refusal,
                 st ? d.message : "starts");
    checked[at].key = strdup(key);
    checked[at].ok = ok;
    workers_total++;
    workers_agree += (unsigned long)ok;
    return ok;
}

static const scenario *scenario_named(const char *name)
{
    for (unsigned i = 0; i < nscenarios; i++)
        if (strcmp(scenarios[i].name, name) == 0) return &scenarios[i];
    return NULL;
}

/* The result kinds this replay reads: pass; refused, no_info, request with
 * SGLang's words; worker with its side and SGLang's words, or both sides'. */
static int known_result(char **fl, unsigned n)
{
    if (strcmp(fl[2], "pass") == 0) return n == 3;
    if (strcmp(fl[2], "refused") == 0 || strcmp(fl[2], "no_info") == 0 || strcmp(fl[2], "request") == 0)
        return n == 4 && fl[3][0];
    if (strcmp(fl[2], "worker") == 0)
        return (n == 5 && (strcmp(fl[3], "prefill") == 0 || strcmp(fl[3], "decode") == 0) && fl[4][0]) ||
               (n == 6 && strcmp(fl[3], "both") == 0 && fl[4][0] && fl[5][0]);
    return 0;
}

static void show(const pair_line *l, unsigned i, unsigned j, const char *why)
{
    const worker_case *p = &cases[PREFILL][i], *d = &cases[DECODE][j];
    printf("  %s: prefill %s %s [%s page %s] / decode %s %s [%s page %s hisparse %s]: %s\n", l->s->name,
           l->release[PREFILL], l->gpu[PREFILL], p->dtype, p->page, l->release[DECODE], l->gpu[DECODE], d->dtype,
           d->page, d->hisparse, why);
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
    models_dir = argv[a + 1];
    FILE *f = fopen(argv[a], "r");
    if (!f) {
        perror(argv[a]);
        return 2;
    }
    static char line[1 << 16];
    char *fl[8] = {0}; /* gcc 13 cannot see that n bounds every read */
    unsigned long agree = 0, total = 0, shown = 0;
    int bad = 0, format = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        unsigned n = tsv_split(line, fl, 8);
        if (strcmp(fl[0], "format") == 0 && n == 2) {
            format = strcmp(fl[1], "2") == 0;
            if (!format) {
                fprintf(stderr, "%s: format %s, this replay reads format 2\n", argv[a], fl[1]);
                bad = 1;
                break;
            }
        } else if (strcmp(fl[0], "scenario") == 0 && n == 5 && !strchr(fl[2], '/')) {
            if (nscenarios == MAX_SCENARIOS || scenario_named(fl[1])) {
                bad = 1;
                continue;
            }
            scenario *s = &scenarios[nscenarios++];
            snprintf(s->name, sizeof s->name, "%s", fl[1]);
            snprintf(s->model, sizeof s->model, "%s", fl[2]);
            for (int side = PREFILL; side <= DECODE; side++)
                snprintf(s->extra[side], sizeof s->extra[side], "%s", strcmp(fl[3 + side], "-") ? fl[3 + side] : "");
        } else if ((strcmp(fl[0], "prefill") == 0 || strcmp(fl[0], "decode") == 0) && n == 5) {
            int side = fl[0][0] == 'p' ? PREFILL : DECODE;
            unsigned long i = strtoul(fl[1], NULL, 10);
            if (i >= MAX_CASES || i != ncases[side]) bad = 1;
            else {
                worker_case *c = &cases[side][i];
                snprintf(c->dtype, sizeof c->dtype, "%s", fl[2]);
                snprintf(c->page, sizeof c->page, "%s", fl[3]);
                snprintf(c->hisparse, sizeof c->hisparse, "%s", fl[4]);
                ncases[side]++;
            }
        } else if (strcmp(fl[0], "result") == 0 && n >= 3) {
            unsigned long id = strtoul(fl[1], NULL, 10);
            if (id >= MAX_RESULTS || !known_result(fl, n)) {
                fprintf(stderr, "%s: a result line this replay does not read: %.80s\n", argv[a], fl[2]);
                bad = 1;
            } else {
                char text[1 << 12];
                snprintf(text, sizeof text, "%s%s%s%s%s%s%s", fl[2], n > 3 ? "\t" : "", n > 3 ? fl[3] : "",
                         n > 4 ? "\t" : "", n > 4 ? fl[4] : "", n > 5 ? "\t" : "", n > 5 ? fl[5] : "");
                free(results[id]);
                results[id] = strdup(text);
            }
        } else if (strcmp(fl[0], "pairs") == 0 && n == 7 && format) {
            static unsigned ids[MAX_CASES * MAX_CASES];
            unsigned m = tsv_expand(fl[6], ids, MAX_CASES * MAX_CASES);
            pair_line l = {scenario_named(fl[1]), {fl[2], fl[3]}, {fl[4], fl[5]}};
            if (!l.s || m != ncases[PREFILL] * ncases[DECODE]) {
                fprintf(stderr, "%s: a pairs line of an unknown scenario or with %u results for %u x %u cases\n",
                        argv[a], m, ncases[PREFILL], ncases[DECODE]);
                bad = 1;
                continue;
            }
            for (unsigned k = 0; k < m; k++) {
                const char *want = ids[k] < MAX_RESULTS ? results[ids[k]] : NULL;
                unsigned i = k / ncases[DECODE], j = k % ncases[DECODE];
                char why[4096];
                if (!want) {
                    fprintf(stderr, "%s: a pairs line names result %u, which no result line gives\n", argv[a], ids[k]);
                    bad = 1;
                } else if (strncmp(want, "worker\t", 7) == 0) {
                    /* "worker\tSIDE\ttext" or "worker\tboth\tprefill's\tdecode's" */
                    char side_name[8], texts[2][1 << 12] = {"", ""};
                    const char *f1 = want + 7, *f2 = strchr(f1, '\t') + 1, *f3 = strchr(f2, '\t');
                    snprintf(side_name, sizeof side_name, "%.*s", (int)(f2 - 1 - f1), f1);
                    int both = strcmp(side_name, "both") == 0, first = strcmp(side_name, "decode") == 0;
                    snprintf(texts[first], sizeof texts[first], "%.*s", both ? (int)(f3 - f2) : (int)strlen(f2), f2);
                    if (both) snprintf(texts[DECODE], sizeof texts[DECODE], "%s", f3 + 1);
                    for (int side = PREFILL; side <= DECODE; side++) {
                        unsigned long before = workers_total;
                        if (texts[side][0] && !worker_agrees(&l, side, side == PREFILL ? i : j, texts[side], why,
                                                             sizeof why) && workers_total > before && shown++ < SHOW)
                            show(&l, i, j, why);
                    }
                } else if (seen++ % sample == 0) {
                    total++;
                    if (pair_agrees(&l, i, j, want, why, sizeof why)) agree++;
                    else if (shown++ < SHOW) show(&l, i, j, why);
                }
            }
        } else {
            fprintf(stderr, "%s: an unknown line: %.80s\n", argv[a], fl[0]);
            bad = 1;
        }
    }
    fclose(f);
    for (unsigned i = 0; i < MAX_RESULTS; i++) free(results[i]);
    for (unsigned i = 0; i < WORKER_SLOTS; i++) free(checked[i].key);
    printf("PD bootstrap: %lu/%lu pairs agree with SGLang's own code (%lu differ); %lu/%lu workers SGLang refuses "
           "on their own refused by kvcheck with SGLang's message\n",
           agree, total, total - agree, workers_agree, workers_total);
    return bad || agree != total || !total || workers_agree != workers_total;
}
