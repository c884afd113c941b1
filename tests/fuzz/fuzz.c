/* The harnesses' shared helpers: temporary files, the oracles, the fixed
 * workers and the scan set-up read from an input's first bytes. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "fuzz.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "fuzz oracle: %s:%d: %s: ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ------------------------------------------------------- temporary files */

#define MAX_FILES 8

static char tmp_dir[512];
static char written[MAX_FILES][600];
static unsigned nwritten;

static void remove_dir(void)
{
    fz_cleanup();
    if (tmp_dir[0]) rmdir(tmp_dir);
}

const char *fz_dir(void)
{
    if (tmp_dir[0]) return tmp_dir;
    /* memory-backed where there is one: a file is written for every input */
    const char *base = getenv("TMPDIR");
    struct stat st;
    if (!base || !base[0]) base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
                                      ? "/dev/shm"
                                      : "/tmp";
    snprintf(tmp_dir, sizeof tmp_dir, "%s/kvc-fuzz-XXXXXX", base);
    if (!mkdtemp(tmp_dir)) {
        perror("fuzz: cannot make a temporary directory");
        abort();
    }
    atexit(remove_dir);
    return tmp_dir;
}

const char *fz_write(const char *name, const void *data, size_t size)
{
    FZ_REQUIRE(nwritten < MAX_FILES, "at most %d files per input", MAX_FILES);
    char *path = written[nwritten];
    snprintf(path, sizeof written[0], "%s/%s", fz_dir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        perror(path);
        abort();
    }
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, (const char *)data + done, size - done);
        if (n <= 0) {
            perror(path);
            abort();
        }
        done += (size_t)n;
    }
    close(fd);
    nwritten++;
    return path;
}

void fz_cleanup(void)
{
    for (unsigned i = 0; i < nwritten; i++) unlink(written[i]);
    nwritten = 0;
}

/* --------------------------------------------------------------- oracles */

void fz_json(char *doc, const char *what)
{
    FZ_REQUIRE(doc != NULL, "%s: no JSON document", what);
    size_t len = strlen(doc);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(doc, len, &end, 0);
    size_t at = end ? (size_t)(end - doc) : 0;
    if (!root) fz_fail(__FILE__, __LINE__, "parses", "%s: invalid JSON at byte %zu of %zu:\n%s", what, at, len, doc);
    while (at < len && strchr(" \t\r\n", doc[at])) at++;
    FZ_REQUIRE(at == len, "%s: bytes after the JSON document at byte %zu of %zu:\n%s", what, at, len, doc);
    FZ_REQUIRE(cJSON_IsObject(root), "%s: the JSON document is not an object:\n%s", what, doc);
    cJSON_Delete(root);
    kvc_free(doc);
}

void fz_text(char *text, const char *what)
{
    FZ_REQUIRE(text != NULL, "%s: no report", what);
    FZ_REQUIRE(text[0] != '\0', "%s: an empty report", what);
    kvc_free(text);
}

kvc_status fz_check(kvc_status st, const kvc_diag *diag, const char *call)
{
    FZ_REQUIRE(st >= KVC_OK && st <= KVC_ERR_INTERNAL, "%s returned %d, not a kvc_status", call, (int)st);
    if (st == KVC_OK) return st;
    FZ_REQUIRE(st != KVC_ERR_INTERNAL, "%s: internal error: %s", call, diag->message);
    FZ_REQUIRE(diag->status == st, "%s returned %s but its diagnostic says %s", call, kvc_status_name(st),
               kvc_status_name(diag->status));
    FZ_REQUIRE(memchr(diag->message, '\0', sizeof diag->message) && memchr(diag->file, '\0', sizeof diag->file) &&
                   memchr(diag->where, '\0', sizeof diag->where),
               "%s: a diagnostic string is not terminated", call);
    FZ_REQUIRE(diag->message[0] != '\0', "%s failed with %s and no message", call, kvc_status_name(st));
    fz_json(kvc_report_error(diag, 2, KVC_FORMAT_JSON), "kvc_report_error JSON");
    fz_text(kvc_report_error(diag, 2, KVC_FORMAT_TEXT), "kvc_report_error text");
    return st;
}

/* --------------------------------------------------------------- reports */

/* Text reports with every option that changes what they say (plain text
 * differs from coloured only in escapes); JSON reports take no options and
 * are the exports (kvc_report_X(..., KVC_FORMAT_JSON, ...) is kvc_X_json). */
static const unsigned TEXT_OPTIONS[] = {KVC_REPORT_COLOR | KVC_REPORT_VERBOSE, KVC_REPORT_QUIET};

void fz_render_resolved(const kvc_resolved *r)
{
    fz_json(kvc_resolved_json(r), "kvc_resolved_json");
    for (size_t i = 0; i < sizeof TEXT_OPTIONS / sizeof TEXT_OPTIONS[0]; i++)
        fz_text(kvc_report_layout(r, KVC_FORMAT_TEXT, TEXT_OPTIONS[i]), "kvc_report_layout text");
    const kvc_layout *l = kvc_resolved_layout(r);
    FZ_REQUIRE(l != NULL, "a resolved worker without a layout");
    FZ_REQUIRE(kvc_layout_page_bytes(l) > 0, "a resolved layout of 0 bytes per page");
    fz_json(kvc_layout_json(l), "kvc_layout_json");
    if (kvc_resolved_indexer(r)) fz_json(kvc_layout_json(kvc_resolved_indexer(r)), "kvc_layout_json (indexer)");
    FZ_REQUIRE(kvc_resolved_setting_count(r) > 0, "a resolved worker without settings");
    for (unsigned i = 0; i < kvc_resolved_setting_count(r); i++) FZ_REQUIRE(kvc_resolved_setting(r, i), "setting %u", i);
    FZ_REQUIRE(kvc_resolved_setting(r, kvc_resolved_setting_count(r)) == NULL, "a setting past the end");
}

void fz_render_verdict(const kvc_verdict *v)
{
    fz_json(kvc_verdict_json(v), "kvc_verdict_json");
    for (size_t i = 0; i < sizeof TEXT_OPTIONS / sizeof TEXT_OPTIONS[0]; i++)
        fz_text(kvc_report_check(v, KVC_FORMAT_TEXT, TEXT_OPTIONS[i]), "kvc_report_check text");
    FZ_REQUIRE(kvc_verdict_compatible(v) == (kvc_verdict_mismatch_count(v) == 0),
               "compatible is %d with %u mismatches", kvc_verdict_compatible(v), kvc_verdict_mismatch_count(v));
    FZ_REQUIRE(kvc_verdict_fix_count(v) <= KVC_MAX_FIXES, "%u fixes", kvc_verdict_fix_count(v));
    for (unsigned i = 0; i < kvc_verdict_fix_count(v); i++) {
        const kvc_fix *f = kvc_verdict_fix(v, i);
        FZ_REQUIRE(f && f->nargs >= 1 && f->nargs <= KVC_MAX_FIX_ARGS, "fix %u has %u flags", i, f ? f->nargs : 0);
    }
    /* the sides are the workers the harness resolved and rendered itself */
    FZ_REQUIRE(kvc_verdict_side(v, KVC_SIDE_PREFILL) && kvc_verdict_side(v, KVC_SIDE_DECODE), "a verdict side");
}

/* --------------------------------------------------------- fixed workers */

#define PAIR_ARGS                                                                                        \
    "--model-path zai-org/GLM-5.2 --disaggregation-transfer-backend mooncake --kv-cache-dtype fp8_e4m3 " \
    "--tp-size 8 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "   \
    "--speculative-num-draft-tokens 4 "

const kvc_worker *fz_fixed(kvc_side side, unsigned release)
{
    static kvc_worker *made[2][4];
    FZ_REQUIRE(release < 4 && kvc_engine_release(NULL, release), "no release %u", release);
    kvc_worker **w = &made[side == KVC_SIDE_DECODE][release];
    if (*w) return *w;
    kvc_diag d;
    *w = kvc_worker_create(kvc_side_name(side));
    FZ_REQUIRE(*w != NULL, "kvc_worker_create");
    FZ_REQUIRE(kvc_worker_set_gpu(*w, "B300", &d) == KVC_OK, "%s", d.message);
    FZ_REQUIRE(kvc_worker_set_model(*w, "glm-5.2", &d) == KVC_OK, "%s", d.message);
    const char *args = side == KVC_SIDE_DECODE
                           ? PAIR_ARGS "--disaggregation-mode decode --enable-hisparse --disable-radix-cache"
                           : PAIR_ARGS "--disaggregation-mode prefill";
    FZ_REQUIRE(kvc_worker_add_args(*w, args, "fixed", &d) == KVC_OK, "%s", d.message);
    FZ_REQUIRE(kvc_worker_set_release(*w, kvc_engine_release(NULL, release), &d) == KVC_OK, "%s", d.message);
    return *w;
}

/* ------------------------------------------------------------ scan set-up */

static const uint32_t PAGE_SIZES[8] = {1, 2, 4, 64, 3, 16, 0, 65536};
static const char *const PAGES[8] = {NULL, "0", "1-2", "0,2-3", "7", "0-1000000", "2-1", "1,1,0"};
static const char *const SKIPS[4] = {NULL, "0", "1", "0-1000000"};
static const char *const TENSORS[8][2] = {{NULL, NULL}, {"*", NULL},    {"*kv*", NULL}, {"nomatch", NULL},
                                          {"model.layers.1.*", NULL}, {"[", NULL}, {"*0*", "*1*"}, {"?", NULL}};
static const size_t MAX_FINDINGS[4] = {20, 0, 1, 1000};

void fz_scan_setup_read(const uint8_t *p, fz_scan_setup *out)
{
    memset(out, 0, sizeof *out);
    unsigned nlayouts = 0;
    while (kvc_layout_catalogue(nlayouts)) nlayouts++;
    out->layout = kvc_layout_catalogue(p[0] % nlayouts);
    out->params.page_size = PAGE_SIZES[p[1] & 7];
    out->params.kv_lora_rank = (uint32_t)p[2] | (uint32_t)p[3] << 8;
    out->params.qk_rope_head_dim = p[4];
    out->params.index_head_dim = p[5];
    kvc_scan_options *o = &out->options;
    kvc_scan_options_init(o);
    o->device = KVC_DEVICE_CPU;
    o->threads = 1;
    o->pages = PAGES[p[1] >> 3 & 7];
    o->skip_pages = SKIPS[p[1] >> 6 & 3];
    o->scale_pow2 = p[6] & 1;
    o->scale_ranged = p[6] >> 1 & 1;
    o->scale_min = 0x1p-20;
    o->scale_max = 0x1p20;
    const char *const *t = TENSORS[p[6] >> 2 & 7];
    out->tensors[0] = t[0];
    out->tensors[1] = t[1];
    o->tensors = out->tensors;
    o->ntensors = t[1] ? 2 : t[0] ? 1 : 0;
    o->max_findings = MAX_FINDINGS[p[6] >> 5 & 3];
    out->twice = p[6] >> 7 & 1;
    out->kind = p[7] & 3;
    o->layout_source = "fuzz";
}

/* What every scan report promises: counts add up, findings lie in their
 * layers, damaged pages are in order and were scanned. */
static void check_scan_report(const kvc_scan_report *r, const kvc_scan_options *o)
{
    uint64_t damaged = 0, bad_pages = 0, scanned = 0;
    for (unsigned c = 0; c < KVC_CHECK_COUNT; c++) damaged += kvc_scan_report_count(r, (kvc_check)c);
    FZ_REQUIRE(damaged == kvc_scan_report_damaged(r), "counts add up to %llu, damaged says %llu",
               (unsigned long long)damaged, (unsigned long long)kvc_scan_report_damaged(r));
    FZ_REQUIRE(kvc_scan_report_clean(r) == (damaged == 0), "clean is %d with %llu damaged elements",
               kvc_scan_report_clean(r), (unsigned long long)damaged);
    size_t nlayers = kvc_scan_report_layer_count(r);
    for (size_t i = 0; i < nlayers; i++) {
        const kvc_scan_layer *l = kvc_scan_report_layer(r, i);
        FZ_REQUIRE(l->pages_scanned <= l->pages, "layer %zu: %llu of %llu pages scanned", i,
                   (unsigned long long)l->pages_scanned, (unsigned long long)l->pages);
        FZ_REQUIRE(l->nbad_pages <= l->pages_scanned, "layer %zu: %zu bad pages of %llu scanned", i, l->nbad_pages,
                   (unsigned long long)l->pages_scanned);
        uint64_t sum = 0;
        for (size_t k = 0; k < l->nbad_pages; k++) {
            FZ_REQUIRE(l->bad_pages[k].page < l->pages, "layer %zu: bad page %llu of %llu", i,
                       (unsigned long long)l->bad_pages[k].page, (unsigned long long)l->pages);
            FZ_REQUIRE(k == 0 || l->bad_pages[k - 1].page < l->bad_pages[k].page, "layer %zu: bad pages out of order",
                       i);
            FZ_REQUIRE(l->bad_pages[k].count > 0, "layer %zu: a bad page with no damage", i);
            sum += l->bad_pages[k].count;
        }
        FZ_REQUIRE(sum == l->damaged, "layer %zu: bad pages hold %llu damaged elements, the layer %llu", i,
                   (unsigned long long)sum, (unsigned long long)l->damaged);
        bad_pages += l->nbad_pages;
        scanned += l->pages_scanned;
    }
    FZ_REQUIRE(bad_pages == kvc_scan_report_bad_pages(r), "bad pages do not add up");
    FZ_REQUIRE(scanned == kvc_scan_report_pages_scanned(r), "scanned pages do not add up");
    size_t nf = kvc_scan_report_finding_count(r);
    FZ_REQUIRE(nf <= o->max_findings && nf <= damaged, "%zu findings (at most %zu asked, %llu damaged)", nf,
               o->max_findings, (unsigned long long)damaged);
    for (size_t i = 0; i < nf; i++) {
        const kvc_finding *f = kvc_scan_report_finding(r, i);
        FZ_REQUIRE(f->layer < nlayers, "finding %zu in layer %u of %zu", i, f->layer, nlayers);
        const kvc_scan_layer *l = kvc_scan_report_layer(r, f->layer);
        FZ_REQUIRE(f->page < l->pages && f->check < KVC_CHECK_COUNT, "finding %zu: page %llu, check %d", i,
                   (unsigned long long)f->page, (int)f->check);
        FZ_REQUIRE(f->offset >= l->file_offset && f->offset < l->file_offset + l->bytes,
                   "finding %zu at byte %llu, outside its layer", i, (unsigned long long)f->offset);
    }
    for (unsigned i = 0; i < kvc_scan_report_note_count(r); i++) FZ_REQUIRE(kvc_scan_report_note(r, i), "note %u", i);
    uint32_t bpt = 0;
    double confidence = 0;
    if (kvc_scan_report_looks_like(r, &bpt, &confidence))
        FZ_REQUIRE(confidence >= 0 && confidence <= 1, "looks-like confidence %g", confidence);
}

void fz_scan_file(const fz_scan_setup *s, const char *path)
{
    kvc_diag d;
    kvc_layout *l = NULL;
    if (fz_check(kvc_layout_build(s->layout, &s->params, &l, &d), &d, "kvc_layout_build")) return;
    fz_json(kvc_layout_json(l), "kvc_layout_json");
    const char *paths[2] = {path, path};
    kvc_scan_report *r = NULL;
    kvc_status st = fz_check(kvc_scan_files(paths, s->twice ? 2 : 1, l, &s->options, &r, &d), &d, "kvc_scan_files");
    FZ_REQUIRE((st == KVC_OK) == (r != NULL), "kvc_scan_files: status %d, report %p", (int)st, (void *)r);
    if (r) {
        check_scan_report(r, &s->options);
        fz_json(kvc_scan_report_json(r), "kvc_scan_report_json");
        for (size_t i = 0; i < sizeof TEXT_OPTIONS / sizeof TEXT_OPTIONS[0]; i++)
            fz_text(kvc_report_scan(r, KVC_FORMAT_TEXT, TEXT_OPTIONS[i]), "kvc_report_scan text");
    }
    kvc_scan_report_free(r);
    kvc_layout_free(l);
}

void fz_recipe(const char *path)
{
    kvc_diag d;
    kvc_recipe *r = NULL;
    if (fz_check(kvc_recipe_load(path, &r, &d), &d, "kvc_recipe_load")) return;
    size_t n = kvc_recipe_worker_count(r);
    FZ_REQUIRE(n > 0, "kvc_recipe_load read a recipe without workers");
    FZ_REQUIRE(kvc_recipe_kind(r) && kvc_recipe_kind(r)[0], "a recipe without a kind");
    FZ_REQUIRE(kvc_recipe_worker_name(r, n) == NULL, "a worker name past the end");
    kvc_worker *sides[2] = {NULL, NULL}; /* the first prefill and the first decode that resolve */
    for (size_t i = 0; i < n && i < 8; i++) {
        const char *role = kvc_recipe_worker_role(r, i);
        FZ_REQUIRE(role && (n == 1 ? !role[0] : role[0] != '\0'), "worker %zu's role '%s' of %zu", i, role, n);
        kvc_worker *w = kvc_worker_create(kvc_recipe_worker_name(r, i));
        FZ_REQUIRE(w != NULL, "kvc_worker_create");
        kvc_status st = fz_check(kvc_recipe_worker_load(r, i, w, &d), &d, "kvc_recipe_worker_load");
        /* a fixed GPU and model: what the recipe names may be anything */
        if (!st) st = fz_check(kvc_worker_set_gpu(w, "B300", &d), &d, "kvc_worker_set_gpu");
        if (!st) st = fz_check(kvc_worker_set_model(w, "glm-5.2", &d), &d, "kvc_worker_set_model");
        kvc_resolved *res = NULL;
        if (!st) st = fz_check(kvc_resolve(w, &res, &d), &d, "kvc_resolve");
        if (res) fz_render_resolved(res);
        kvc_resolved_free(res);
        int side = strcmp(role, "decode") == 0;
        if (!st && !sides[side] && (strcmp(role, "prefill") == 0 || side)) sides[side] = w;
        else kvc_worker_free(w);
    }
    if (sides[0] && sides[1]) {
        kvc_verdict *v = NULL;
        kvc_status st = fz_check(kvc_compare(sides[0], sides[1], &v, &d), &d, "kvc_compare");
        if (!st) fz_render_verdict(v);
        kvc_verdict_free(v);
    }
    kvc_worker_free(sides[0]);
    kvc_worker_free(sides[1]);
    FZ_REQUIRE(kvc_recipe_worker_load(r, n, NULL, &d) == KVC_ERR_USAGE, "a worker past the end loaded");
    kvc_recipe_free(r);
}
