/* Replays the conformance tables (tests/conformance/sglang/<GPU>.tsv, written
 * by tools/sglang-oracle from SGLang releases' own code) against kvcheck's
 * public API: every case under every release, through the same front door a
 * user's launch flags take. Prints agreement per release and the first
 * disagreements; exits 1 on any.
 *
 * usage: replay DIR [RELEASE]   (RELEASE: replay only that one)
 *
 * A case agrees when kvcheck refuses what SGLang refuses, with SGLang's
 * message in its own, and otherwise resolves SGLang's KV dtype, page size
 * and bytes per token (and, for a model kvcheck takes as DSA, both DSA
 * backends). The table format is tools/sglang-oracle/tables.py's. */
#include "kvcheck.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RELEASES 64
#define MAX_FIELDS 80
#define SHOW_PER_RELEASE 4000

typedef struct result {
    int refused;
    char text[1100]; /* refused: SGLang's message, without the exception's type */
    char dtype[32], page[16], prefill[48], decode[48], row[16];
} result;

typedef struct table {
    unsigned nrel;
    char rel[MAX_RELEASES][24];
    char pflag[MAX_RELEASES][48], dflag[MAX_RELEASES][48];
    result *res;
    size_t nres;
} table;

typedef struct tally {
    unsigned long agree, total, shown;
} tally;

static unsigned split(char *line, char **f)
{
    unsigned n = 0;
    for (char *p = line; n < MAX_FIELDS;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

/* The GPU kvcheck knows a table's file name by. */
static const char *gpu_name(const char *file)
{
    static const struct { const char *file, *gpu; } NAMES[] = {{"RTX6000", "RTX PRO 6000"}};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcmp(NAMES[i].file, file) == 0) return NAMES[i].gpu;
    return file;
}

/* "AssertionError: text" -> "text"; "init: ValueError: text" -> "text" */
static const char *message_of(const char *refusal)
{
    const char *p = refusal;
    if (strncmp(p, "init: ", 6) == 0) p += 6;
    const char *colon = strstr(p, ": ");
    if (colon && colon - p < 40 && !memchr(p, ' ', (size_t)(colon - p))) p = colon + 2;
    return p;
}

static void add_result(table *t, char **f, unsigned n)
{
    size_t id = strtoul(f[1], NULL, 10);
    if (id >= t->nres) {
        size_t cap = id + 64;
        t->res = realloc(t->res, cap * sizeof *t->res);
        memset(t->res + t->nres, 0, (cap - t->nres) * sizeof *t->res);
        t->nres = cap;
    }
    result *r = &t->res[id];
    if (strcmp(f[2], "refused") == 0) {
        r->refused = 1;
        snprintf(r->text, sizeof r->text, "%s", n > 3 ? f[3] : "");
    } else if (n >= 8) {
        snprintf(r->dtype, sizeof r->dtype, "%s", f[3]);
        snprintf(r->page, sizeof r->page, "%s", f[4]);
        snprintf(r->prefill, sizeof r->prefill, "%s", f[5]);
        snprintf(r->decode, sizeof r->decode, "%s", f[6]);
        snprintf(r->row, sizeof r->row, "%s", f[7]);
    }
}

/* Expands '4*12,7' into ids[], '.' as 0. */
static unsigned expand(const char *rle, unsigned *ids, unsigned max)
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

/* kvcheck's answer for one case under one release, compared with SGLang's;
 * `why` says how they differ. */
static int agrees(const table *t, unsigned rel, const char *gpu, const char *models, char **c, const result *want,
                  char *why, size_t size)
{
    char model[1200], args[512] = "--model-path /fake/model --tp 8";
    snprintf(model, sizeof model, "%s/%s.json", models, c[1]);
    size_t k = strlen(args);
    if (strcmp(c[2], "-")) k += (size_t)snprintf(args + k, sizeof args - k, " --kv-cache-dtype %s", c[2]);
    if (strcmp(c[3], "-")) k += (size_t)snprintf(args + k, sizeof args - k, " %s %s", t->pflag[rel], c[3]);
    if (strcmp(c[4], "-")) k += (size_t)snprintf(args + k, sizeof args - k, " %s %s", t->dflag[rel], c[4]);
    if (strcmp(c[5], "-")) k += (size_t)snprintf(args + k, sizeof args - k, " --disaggregation-mode %s", c[5]);
    if (strcmp(c[6], "1") == 0) snprintf(args + k, sizeof args - k, " --enable-hisparse --disable-radix-cache");

    kvc_diag d;
    kvc_diag_clear(&d);
    kvc_worker *w = kvc_worker_create("case");
    kvc_resolved *r = NULL;
    kvc_status st = kvc_worker_set_gpu(w, gpu, &d);
    if (!st) st = kvc_worker_set_model(w, model, &d);
    if (!st) st = kvc_worker_set_release(w, t->rel[rel], &d);
    if (!st) st = kvc_worker_add_args(w, args, "case", &d);
    if (!st) st = kvc_resolve(w, &r, &d);
    kvc_worker_free(w);
    int ok;
    if (want->refused) {
        const char *msg = message_of(want->text);
        ok = st == KVC_ERR_CONFIG || st == KVC_ERR_USAGE;
        if (ok && strncmp(want->text, "argparse", 8) != 0) ok = strstr(d.message, msg) != NULL;
        if (!ok) snprintf(why, size, "[%s] SGLang refuses: %.300s | kvcheck: %s", args, want->text,
                          st ? d.message : "starts");
    } else if (st) {
        ok = 0;
        snprintf(why, size, "[%s] SGLang starts (%s page %s %s/%s row %s) | kvcheck refuses: %.400s", args,
                 want->dtype, want->page, want->prefill, want->decode, want->row, d.message);
    } else {
        const kvc_setting *pb = kvc_resolved_find(r, "dsa_prefill_backend");
        const kvc_setting *db = kvc_resolved_find(r, "dsa_decode_backend");
        char row[16], page[16];
        snprintf(row, sizeof row, "%u", kvc_layout_bytes_per_token(kvc_resolved_layout(r)));
        snprintf(page, sizeof page, "%llu", (unsigned long long)kvc_resolved_find(r, "page_size")->number);
        const char *dtype = kvc_resolved_find(r, "kv_cache_dtype")->value;
        ok = strcmp(dtype, want->dtype) == 0 && strcmp(page, want->page) == 0 && strcmp(row, want->row) == 0 &&
             (!pb || (strcmp(pb->value, want->prefill) == 0 && strcmp(db->value, want->decode) == 0));
        if (!ok)
            snprintf(why, size, "[%s] SGLang: %s page %s %s/%s row %s | kvcheck: %s page %s %s/%s row %s", args,
                     want->dtype, want->page, want->prefill, want->decode, want->row, dtype, page,
                     pb ? pb->value : "-", db ? db->value : "-", row);
    }
    kvc_resolved_free(r);
    return ok;
}

static int replay_file(const char *dir, const char *name, const char *only, tally *tallies, char rels[][24],
                       unsigned *nrels)
{
    char path[1024], models[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(models, sizeof models, "%s/models", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    char file_gpu[64];
    snprintf(file_gpu, sizeof file_gpu, "%.*s", (int)(strlen(name) - 4), name);
    const char *gpu = gpu_name(file_gpu);
    table t = {0};
    static char line[1 << 16];
    char *fl[MAX_FIELDS];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        unsigned n = split(line, fl);
        if (strcmp(fl[0], "release") == 0) {
            t.nrel = n - 1;
            for (unsigned i = 1; i < n; i++) snprintf(t.rel[i - 1], sizeof t.rel[0], "%s", fl[i]);
            for (unsigned i = 0; i < t.nrel; i++) {
                unsigned k = 0;
                while (k < *nrels && strcmp(rels[k], t.rel[i])) k++;
                if (k == *nrels) snprintf(rels[(*nrels)++], 24, "%s", t.rel[i]);
            }
        } else if (strcmp(fl[0], "flag") == 0) {
            for (unsigned i = 2; i < n; i++)
                snprintf(strcmp(fl[1], "prefill") == 0 ? t.pflag[i - 2] : t.dflag[i - 2], 48, "%s", fl[i]);
        } else if (strcmp(fl[0], "result") == 0) {
            add_result(&t, fl, n);
        } else if (strcmp(fl[0], "case") == 0 && n >= 8) {
            unsigned ids[MAX_RELEASES];
            unsigned m = expand(fl[7], ids, MAX_RELEASES);
            for (unsigned i = 0; i < m && i < t.nrel; i++) {
                if (!ids[i] || (only && strcmp(only, t.rel[i]))) continue;
                unsigned k = 0;
                while (strcmp(rels[k], t.rel[i])) k++;
                char why[2048];
                tallies[k].total++;
                if (agrees(&t, i, gpu, models, fl, &t.res[ids[i]], why, sizeof why)) tallies[k].agree++;
                else if (tallies[k].shown++ < SHOW_PER_RELEASE)
                    printf("  %s %s %s: %s\n", t.rel[i], gpu, fl[1], why);
            }
        }
    }
    fclose(f);
    free(t.res);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: replay DIR [RELEASE]\n");
        return 2;
    }
    const char *dir = argv[1], *only = argc > 2 ? argv[2] : NULL;
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 2;
    }
    char *names[64];
    unsigned nnames = 0;
    for (struct dirent *e; (e = readdir(d)) && nnames < 64;) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".tsv") == 0) names[nnames++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nnames, sizeof names[0], by_name);
    static tally tallies[MAX_RELEASES];
    static char rels[MAX_RELEASES][24];
    unsigned nrels = 0;
    int bad = 0;
    for (unsigned i = 0; i < nnames; i++) {
        bad |= replay_file(dir, names[i], only, tallies, rels, &nrels);
        free(names[i]);
    }
    unsigned long agree = 0, total = 0;
    for (unsigned k = 0; k < nrels; k++) {
        if (!tallies[k].total) continue;
        printf("sglang %-13s %6lu/%-6lu agree%s\n", rels[k], tallies[k].agree, tallies[k].total,
               tallies[k].agree == tallies[k].total ? "" : "   <- differs");
        agree += tallies[k].agree;
        total += tallies[k].total;
    }
    printf("all releases: %lu/%lu cases agree with SGLang's own code\n", agree, total);
    return bad || agree != total || !total;
}
