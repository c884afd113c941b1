/* Replays the conformance tables (tests/conformance/sglang/<GPU>.tsv, written
 * by tools/sglang-oracle from SGLang releases' own code) against kvcheck's
 * public API: every case under every release, through the same front door a
 * user's launch flags take. Prints agreement per release and the first
 * disagreements; exits 1 on any.
 *
 * usage: replay [--known FILE] [--sample N] [--models DIR] [--declined] DIR [RELEASE]
 *   RELEASE       replay only that one
 *   --models DIR  the model configs the tables name (default DIR/models)
 *   --known FILE  "release count" lines: the differences still open per
 *                 release; more than that fails, fewer says to lower it
 *   --sample N    every N-th case only (the sanitizer build)
 *   --declined    print every declined case's message (to group them: the
 *                 inputs still to model)
 *
 * A case agrees when kvcheck refuses what SGLang refuses, with SGLang's
 * message in its own, and otherwise resolves SGLang's KV dtype, page size
 * and bytes per token (and, for a model kvcheck takes as DSA, both DSA
 * backends; with draft entries, the draft pool's bytes per token; for a
 * pool with a separate scale buffer, that buffer's bytes per token; with a
 * separate draft model, its pool's dtype, layers, KV heads and head widths).
 * A case kvcheck declines (it refuses a pool it says it does not model, or
 * says it does not derive a draft model's pool) is counted apart: never a
 * pass. The table format is tools/sglang-oracle/tables.py's. */
#include "kvcheck.h"
#include "tsv.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RELEASES 64
#define MAX_FIELDS 80
#define SHOW_PER_RELEASE 3

typedef struct result {
    int refused;
    char text[1100]; /* refused: SGLang's message, without the exception's type */
    char dtype[32], page[16], prefill[48], decode[48], row[16];
    char draft_row[16]; /* "extra" draft_row=N: the draft pool's bytes per token, "" when none */
    char scale_row[16]; /* "extra" scale_row=N: the separate scale buffer's bytes per token, "" when none */
    char draft_torch[32], draft_pool[48]; /* "extra" draft_torch (any draft's), draft_pool (a separate draft model's) */
    char torch[32];                       /* "extra" torch: the pool's torch dtype, "" when not recorded */
} result;

/* One case's inputs ('-' unset). */
typedef struct inputs {
    const char *model, *dtype, *prefill, *decode, *mode, *hisparse, *radix, *spec, *draft, *page;
    const char *draft_model, *draft_backend, *parallel; /* ecase lines */
} inputs;

typedef struct table {
    unsigned nrel;
    char rel[MAX_RELEASES][24];
    char pflag[MAX_RELEASES][48], dflag[MAX_RELEASES][48];
    result *res;
    size_t nres;
} table;

typedef struct tally {
    unsigned long agree, declined, total, shown;
} tally;

/* The GPU kvcheck knows a table's file name by. */
static const char *gpu_name(const char *file)
{
    static const struct { const char *file, *gpu; } NAMES[] = {{"RTX6000", "RTX PRO 6000"}};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcmp(NAMES[i].file, file) == 0) return NAMES[i].gpu;
    return file;
}

static result *result_at(table *t, size_t id)
{
    if (id >= t->nres) {
        size_t cap = id + 64;
        result *grown = realloc(t->res, cap * sizeof *t->res);
        if (!grown) {
            fprintf(stderr, "replay: out of memory\n");
            exit(2);
        }
        t->res = grown;
        memset(t->res + t->nres, 0, (cap - t->nres) * sizeof *t->res);
        t->nres = cap;
    }
    return &t->res[id];
}

/* "extra <id> key=value...": the outputs the replay checks besides the row. */
static void add_extra(table *t, char **f, unsigned n)
{
    result *r = result_at(t, strtoul(f[1], NULL, 10));
    for (unsigned i = 2; i < n; i++)
        if (strncmp(f[i], "draft_row=", 10) == 0) snprintf(r->draft_row, sizeof r->draft_row, "%s", f[i] + 10);
        else if (strncmp(f[i], "scale_row=", 10) == 0) snprintf(r->scale_row, sizeof r->scale_row, "%s", f[i] + 10);
        else if (strncmp(f[i], "draft_torch=", 12) == 0)
            snprintf(r->draft_torch, sizeof r->draft_torch, "%s", f[i] + 12);
        else if (strncmp(f[i], "draft_pool=", 11) == 0) snprintf(r->draft_pool, sizeof r->draft_pool, "%s", f[i] + 11);
        else if (strncmp(f[i], "torch=", 6) == 0) snprintf(r->torch, sizeof r->torch, "%s", f[i] + 6);
}

/* 1 when a pool's layout (the target's, an MTP draft's) holds the elements
 * of torch dtype `torch` (its first field: the values), or the oracle
 * recorded none. */
static int torch_agrees(const kvc_layout *layout, const char *torch)
{
    static const struct { const char *torch; kvc_elem elem; } ELEMS[] = {
        {"bfloat16", KVC_ELEM_BF16},        {"float16", KVC_ELEM_F16},          {"float32", KVC_ELEM_F32},
        {"float8_e4m3fn", KVC_ELEM_E4M3},   {"float8_e4m3fnuz", KVC_ELEM_E4M3}, {"float8_e5m2", KVC_ELEM_E5M2},
        {"float8_e5m2fnuz", KVC_ELEM_E5M2}, {"float4_e2m1fn_x2", KVC_ELEM_E2M1X2}};
    if (!torch[0]) return 1;
    const kvc_field *f = kvc_layout_field_count(layout) ? kvc_layout_field_at(layout, 0) : NULL;
    for (size_t i = 0; i < sizeof ELEMS / sizeof ELEMS[0]; i++)
        if (strcmp(ELEMS[i].torch, torch) == 0) return f && f->elem == ELEMS[i].elem;
    return 0;
}

/* A separate draft model's pool as kvcheck resolved it ("fp8_e4m3 1x1x128:
 * 8192 B/page", draft_model_pool) against the oracle's torch dtype and
 * "LAYERSxHEADSxDIM[/DV]": 1 agrees; 2 kvcheck does not derive it (it warns
 * so); 0 differs. */
static int draft_pool_agrees(const kvc_resolved *r, const result *want, char *got, size_t size)
{
    static const struct { const char *torch, *kvcheck; } NAMES[] = {
        {"float8_e4m3fn", "fp8_e4m3"}, {"float8_e4m3fnuz", "fp8_e4m3fnuz"}, {"float8_e5m2", "fp8_e5m2"},
        {"float8_e5m2fnuz", "fp8_e5m2fnuz"},
        {"bfloat16", "bfloat16"},      {"float16", "float16"},           {"float32", "float32"}};
    const kvc_setting *pool = kvc_resolved_find(r, "draft_model_pool");
    snprintf(got, size, "%s", pool && pool->value[0] ? pool->value : "-");
    if (!pool || !pool->value[0]) {
        for (unsigned i = 0; i < kvc_resolved_warning_count(r); i++)
            if (strstr(kvc_resolved_warning(r, i), "draft model's KV pool is not derived")) return 2;
        return 0;
    }
    const char *name = want->draft_torch;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcmp(NAMES[i].torch, want->draft_torch) == 0) name = NAMES[i].kvcheck;
    char expect[96];
    snprintf(expect, sizeof expect, "%s %s:", name, want->draft_pool);
    return strncmp(pool->value, expect, strlen(expect)) == 0;
}

static void add_result(table *t, char **f, unsigned n)
{
    result *r = result_at(t, strtoul(f[1], NULL, 10));
    if (strcmp(f[2], "refused") == 0) {
        r->refused = 1;
        snprintf(r->text, sizeof r->text, "%s", n > 3 ? f[3] : "");
    } else if (n >= 8) { /* SGLang's None is kvcheck's "" (unset) */
        snprintf(r->dtype, sizeof r->dtype, "%s", f[3]);
        snprintf(r->page, sizeof r->page, "%s", f[4]);
        snprintf(r->prefill, sizeof r->prefill, "%s", strcmp(f[5], "None") ? f[5] : "");
        snprintf(r->decode, sizeof r->decode, "%s", strcmp(f[6], "None") ? f[6] : "");
        snprintf(r->row, sizeof r->row, "%s", f[7]);
    }
}

/* kvcheck says it does not model the pool, or does not derive a draft
 * model's: declined, never a pass. */
static int declines(const char *message)
{
    return strstr(message, "does not model") != NULL || strstr(message, "does not derive") != NULL;
}

/* A refusal at pool creation, of a model whose pools the oracle does not
 * build (row "-": DeepSeek-V4's, tools/sglang-oracle/DSV4.md): SGLang's
 * run stops later than the oracle's, so the two are not compared. */
static int past_oracle(const result *want, const char *message)
{
    return strcmp(want->row, "-") == 0 && strstr(message, "at pool creation") != NULL;
}

/* kvcheck's answer for one case under one release, compared with SGLang's:
 * 1 agrees, 2 not compared: kvcheck declines a case it does not model (it
 * refuses, says so, and never passes it) or refuses past the oracle's run
 * (past_oracle), 0 differs; `why` says how. */
/* The length of the leading NAME=value words of a case's flags, with their spaces: its environment (matrix.py
 * case_env), which goes first in a launch command. */
static size_t env_words(const char *s)
{
    size_t n = 0;
    for (;;) {
        size_t w = strcspn(s + n, " ");
        if (!w || s[n] == '-' || !memchr(s + n, '=', w)) return n;
        n += w + strspn(s + n + w, " ");
    }
}

static int agrees(const table *t, unsigned rel, const char *gpu, const char *models, const inputs *in,
                  const result *want, char *why, size_t size)
{
    char model[1200], args[2400];
    snprintf(model, sizeof model, "%s/%s.json", models, in->model);
    size_t env = strcmp(in->parallel, "-") ? env_words(in->parallel) : 0, words = env;
    while (words && in->parallel[words - 1] == ' ') words--;
    size_t k = (size_t)snprintf(args, sizeof args, "%.*s%s--model-path /fake/model --tp 8", (int)words, in->parallel,
                                words ? " " : "");
#define ADD(cond, ...)                                                                                                 \
    if (cond && k < sizeof args) k += (size_t)snprintf(args + k, sizeof args - k, __VA_ARGS__)
    ADD(strcmp(in->dtype, "-"), " --kv-cache-dtype %s", in->dtype);
    ADD(strcmp(in->prefill, "-"), " %s %s", t->pflag[rel], in->prefill);
    ADD(strcmp(in->decode, "-"), " %s %s", t->dflag[rel], in->decode);
    ADD(strcmp(in->mode, "-"), " --disaggregation-mode %s", in->mode);
    ADD(strcmp(in->hisparse, "1") == 0, " --enable-hisparse");
    ADD(strcmp(in->radix, "1") == 0, " --disable-radix-cache");
    ADD(strcmp(in->spec, "-"), " --speculative-algorithm %s", in->spec);
    ADD(strcmp(in->draft, "-"), " --speculative-draft-kv-cache-dtype %s", in->draft);
    ADD(strcmp(in->page, "-"), " --page-size %s", in->page);
    ADD(strcmp(in->draft_model, "-"), " --speculative-draft-model-path %s/%s.json", models, in->draft_model);
    ADD(strcmp(in->draft_backend, "-"), " --speculative-draft-attention-backend %s", in->draft_backend);
    ADD(strcmp(in->parallel, "-") && in->parallel[env], " %s", in->parallel + env);
#undef ADD

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
        const char *msg = tsv_message(want->text);
        /* "argparse exit 2": a refusal recorded without its message */
        ok = (st == KVC_ERR_CONFIG || st == KVC_ERR_USAGE) &&
             (tsv_quotes(d.message, msg) || strncmp(want->text, "argparse exit", 13) == 0);
        if (!ok && (st == KVC_ERR_CONFIG || st == KVC_ERR_USAGE) && declines(d.message)) ok = 2;
        if (ok == 2) snprintf(why, size, "%.1000s", d.message);
        if (!ok) snprintf(why, size, "[%.600s] SGLang refuses: %.300s | kvcheck: %.1000s", args, want->text,
                          st ? d.message : "starts");
    } else if (st) {
        ok = declines(d.message) || past_oracle(want, d.message) ? 2 : 0;
        if (ok == 2) snprintf(why, size, "%.1000s", d.message);
        if (!ok)
            snprintf(why, size, "[%.600s] SGLang starts (%s page %s %s/%s row %s) | kvcheck refuses: %.400s", args,
                     want->dtype, want->page, want->prefill, want->decode, want->row, d.message);
    } else {
        const kvc_setting *pb = kvc_resolved_find(r, "dsa_prefill_backend");
        const kvc_setting *db = kvc_resolved_find(r, "dsa_decode_backend");
        const kvc_layout *draft = kvc_resolved_draft_layout(r), *scales = kvc_resolved_scales(r);
        char row[16], page[16], draft_row[16] = "", scale_row[16] = "";
        snprintf(row, sizeof row, "%u", kvc_layout_bytes_per_token(kvc_resolved_layout(r)));
        snprintf(page, sizeof page, "%llu", (unsigned long long)kvc_resolved_find(r, "page_size")->number);
        if (draft) snprintf(draft_row, sizeof draft_row, "%u", kvc_layout_bytes_per_token(draft));
        if (scales) snprintf(scale_row, sizeof scale_row, "%u", kvc_layout_bytes_per_token(scales));
        const char *dtype = kvc_resolved_find(r, "kv_cache_dtype")->value;
        char pool[160] = "-";
        int pool_ok = want->draft_pool[0] ? draft_pool_agrees(r, want, pool, sizeof pool) : 1;
        int pools = strcmp(want->row, "-") != 0; /* the oracle built the pool (else only the settings compare) */
        ok = strcmp(dtype, want->dtype) == 0 && strcmp(page, want->page) == 0 &&
             (!pools || (strcmp(row, want->row) == 0 && strcmp(scale_row, want->scale_row) == 0 &&
                         torch_agrees(kvc_resolved_layout(r), want->torch))) &&
             (!pb || (strcmp(pb->value, want->prefill) == 0 && strcmp(db->value, want->decode) == 0)) &&
             (!want->draft_row[0] || strcmp(draft_row, want->draft_row) == 0) &&
             (want->draft_pool[0] || !want->draft_torch[0] || (draft && torch_agrees(draft, want->draft_torch))) &&
             pool_ok;
        if (ok && pool_ok == 2) ok = 2;
        if (!ok)
            snprintf(why, size,
                     "[%.600s] SGLang: %s page %s %s/%s row %s (%s) scales %s draft %s draft model %s %s | kvcheck: %s "
                     "page %s %s/%s row %s (%s) scales %s draft %s draft model %s",
                     args, want->dtype, want->page, want->prefill, want->decode, want->row, want->torch,
                     want->scale_row[0] ? want->scale_row : "-", want->draft_row[0] ? want->draft_row : "-",
                     want->draft_torch[0] ? want->draft_torch : "-", want->draft_pool[0] ? want->draft_pool : "-", dtype,
                     page, pb ? pb->value : "-", db ? db->value : "-", row, kvc_layout_name(kvc_resolved_layout(r)),
                     scale_row[0] ? scale_row : "-",
                     draft_row[0] ? draft_row : "-", pool);
    }
    kvc_resolved_free(r);
    return ok;
}

static unsigned long sample = 1, seen;
static int show_declined; /* --declined */
static const char *models_dir; /* --models, or NULL: DIR/models */

static int replay_file(const char *dir, const char *name, const char *only, tally *tallies, char rels[][24],
                       unsigned *nrels)
{
    char path[1024], models[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (models_dir) snprintf(models, sizeof models, "%s", models_dir);
    else snprintf(models, sizeof models, "%s/models", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    char file_gpu[64];
    snprintf(file_gpu, sizeof file_gpu, "%.*s", (int)(strlen(name) - 4), name);
    const char *gpu = gpu_name(file_gpu);
    table t = {0};
    int bad = 0;
    static char line[1 << 16];
    char *fl[MAX_FIELDS];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        unsigned n = tsv_split(line, fl, MAX_FIELDS);
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
        } else if (strcmp(fl[0], "extra") == 0) {
            add_extra(&t, fl, n);
        } else if ((strcmp(fl[0], "case") == 0 && n == 8) || (strcmp(fl[0], "xcase") == 0 && n == 12) ||
                   (strcmp(fl[0], "ecase") == 0 && n == 15)) {
            int x = fl[0][0] != 'c', e = fl[0][0] == 'e'; /* xcase: + radix spec draft page; ecase: + 3 more */
            inputs in = {fl[1],           fl[2],           fl[3],           fl[4],          fl[5],
                         fl[6],           x ? fl[7] : fl[6], x ? fl[8] : "-", x ? fl[9] : "-", x ? fl[10] : "-",
                         e ? fl[11] : "-", e ? fl[12] : "-", e ? fl[13] : "-"};
            unsigned ids[MAX_RELEASES];
            unsigned m = tsv_expand(fl[n - 1], ids, MAX_RELEASES);
            for (unsigned i = 0; i < m && i < t.nrel; i++) {
                if (!ids[i] || ids[i] >= t.nres || (only && strcmp(only, t.rel[i])) || seen++ % sample) continue;
                unsigned k = 0;
                while (strcmp(rels[k], t.rel[i])) k++;
                char why[2048];
                tallies[k].total++;
                int ok = agrees(&t, i, gpu, models, &in, &t.res[ids[i]], why, sizeof why);
                if (ok == 1) tallies[k].agree++;
                else if (ok == 2) {
                    tallies[k].declined++;
                    if (show_declined) printf("  declined %s %s %s: %s\n", t.rel[i], gpu, in.model, why);
                }
                else if (tallies[k].shown++ < SHOW_PER_RELEASE)
                    printf("  %s %s %s: %s\n", t.rel[i], gpu, in.model, why);
            }
        } else if (strcmp(fl[0], "case") == 0 || strcmp(fl[0], "xcase") == 0 || strcmp(fl[0], "ecase") == 0) {
            fprintf(stderr, "%s: a %s line with %u fields\n", path, fl[0], n);
            bad = 1;
        }
    }
    fclose(f);
    free(t.res);
    return bad;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The open differences of `release` in a --known file, or 0. */
static unsigned long known_of(const char *file, const char *release)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    char line[256], name[64];
    unsigned long n = 0, count;
    while (f && fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%63s %lu", name, &count) == 2 && strcmp(name, release) == 0) n = count;
    if (f) fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    const char *known = NULL;
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "--declined") == 0) {
            show_declined = 1;
            a--;
        } else if (strcmp(argv[a], "--known") == 0) known = argv[a + 1];
        else if (strcmp(argv[a], "--sample") == 0) sample = strtoul(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--models") == 0) models_dir = argv[a + 1];
        else break;
    }
    if (sample < 1) sample = 1;
    argc -= a - 1;
    argv += a - 1;
    if (argc < 2) {
        fprintf(stderr, "usage: replay [--known FILE] [--sample N] [--models DIR] [--declined] DIR [RELEASE]\n");
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
    unsigned long agree = 0, declined = 0, total = 0;
    int worse = 0;
    for (unsigned k = 0; k < nrels; k++) {
        if (!tallies[k].total) continue;
        unsigned long differ = tallies[k].total - tallies[k].agree - tallies[k].declined;
        unsigned long open = known_of(known, rels[k]); /* a sample differs in no more cases */
        printf("sglang %-13s %6lu/%-6lu agree, %4lu declined, %4lu differ (%lu known)%s\n", rels[k], tallies[k].agree,
               tallies[k].total, tallies[k].declined, differ, known_of(known, rels[k]),
               differ > open ? "   <- MORE than known" : sample == 1 && differ < open ? "   <- fewer: lower the known count" : "");
        worse |= differ > open;
        agree += tallies[k].agree;
        declined += tallies[k].declined;
        total += tallies[k].total;
    }
    printf("all releases: %lu/%lu cases agree with SGLang's own code; %lu declined (kvcheck refuses them as inputs "
           "it does not model); %lu differ\n",
           agree, total, declined, total - agree - declined);
    if (!known) return bad || agree + declined != total || !total;
    return bad || worse || !total;
}
