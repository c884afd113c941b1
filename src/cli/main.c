/* The kvcheck tool. It includes only the public header: everything it knows
 * about SGLang comes from the library. */
#include "kvcheck.h"
#include "ci.h"
#include "http.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Exit codes (README, --help). */
enum {
    EXIT_CLEAN = 0,
    EXIT_FOUND = 1,
    EXIT_USAGE = 2,
    EXIT_CONFIG = 3,
    EXIT_GPU = 4,
    EXIT_IO = 5,
};

enum {
    CMD_LAYOUT = 1u,
    CMD_CHECK = 2u,
    CMD_SCAN = 4u,
    CMD_DETECT = 8u,
    CMD_SIMULATE = 16u,
    CMD_WORKER = CMD_LAYOUT | CMD_SCAN,                            /* take one worker */
    CMD_PAIR = CMD_CHECK | CMD_SIMULATE,                           /* take prefill and decode */
    CMD_INPUTS = CMD_SCAN | CMD_DETECT,                            /* read KV dumps */
    CMD_CONFIG = CMD_LAYOUT | CMD_CHECK | CMD_SCAN | CMD_SIMULATE, /* resolve workers */
    CMD_ALL = 31u
};

/* Command names by bit, for --help. */
static const char *const COMMAND_NAMES[] = {"layout", "check", "scan", "detect", "simulate"};

typedef enum opt_id {
    OPT_JSON,
    OPT_SGLANG_VERSION,
    OPT_GPU,
    OPT_MODEL,
    OPT_ARGS,
    OPT_PREFILL_GPU,
    OPT_DECODE_GPU,
    OPT_PREFILL_ARGS,
    OPT_DECODE_ARGS,
    OPT_QUIET,
    OPT_VERBOSE,
    OPT_COLOR,
    OPT_HELP,
    OPT_LAYOUT,
    OPT_PAGE_SIZE,
    OPT_WORKER,
    OPT_BUFFER,
    OPT_DEVICE,
    OPT_PAGES,
    OPT_SKIP_PAGES,
    OPT_MAX_FINDINGS,
    OPT_TENSOR,
    OPT_SCALE_POLICY,
    OPT_SCALE_RANGE,
    OPT_THREADS,
    OPT_DIGESTS,
    OPT_EXPECT_DIGESTS,
    OPT_TOKENS,
    OPT_SEED,
    OPT_TIMEOUT,
    OPT_HEADER,
    OPT_CACERT,
    OPT_PAIRS,
    OPT_PREFILL,
    OPT_DECODE,
    OPT_JUNIT,
    OPT_FORMAT,
    OPT_PREFILL_WORKER,
    OPT_DECODE_WORKER,
    OPT_COUNT
} opt_id;

/* One row per option: the parser and --help both read this table. */
static const struct option_row {
    opt_id id;
    const char *name;
    const char *shortname;
    const char *arg; /* NULL: takes no value */
    unsigned commands;
    const char *help;
} OPTIONS[] = {
    {OPT_GPU, "--gpu", NULL, "GPU", CMD_CONFIG,
     "GPU of the worker(s): B300, \"NVIDIA H100 80GB HBM3\", sm_100, 10.3, MI300X, ..., or auto (this machine's)"},
    {OPT_MODEL, "--model", NULL, "MODEL", CMD_ALL,
     "model: a preset (glm-5.2, deepseek-v3.2, deepseek-v3) or a path to config.json"},
    {OPT_ARGS, "--args", NULL, "FLAGS", CMD_WORKER, "SGLang launch flags, as one quoted string"},
    {OPT_LAYOUT, "--layout", NULL, "NAME", CMD_SCAN,
     "scan as this catalogue layout: fp8_flashmla, fp8_raw, bf16, dsa_indexer, model1_fp8, ..."},
    {OPT_PAGE_SIZE, "--page-size", NULL, "N", CMD_INPUTS, "tokens per page with --layout (scan: default 64; detect: 64, then 1)"},
    {OPT_WORKER, "--worker", NULL, "FILE", CMD_SCAN, "scan in the layout this worker file resolves to"},
    {OPT_BUFFER, "--buffer", NULL, "WHICH", CMD_SCAN, "with a worker: kv (default), indexer or scales"},
    {OPT_DEVICE, "--device", NULL, "WHERE", CMD_SCAN | CMD_SIMULATE, "auto (default: the GPU when usable), cpu or gpu"},
    {OPT_PAGES, "--pages", NULL, "LIST", CMD_SCAN, "scan only these pages of each layer, e.g. 3,7,10-20"},
    {OPT_SKIP_PAGES, "--skip-pages", NULL, "LIST", CMD_SCAN, "do not scan these pages"},
    {OPT_MAX_FINDINGS, "--max-findings", NULL, "N", CMD_SCAN, "list the first N findings in full (default 20)"},
    {OPT_TENSOR, "--tensor", NULL, "NAME", CMD_INPUTS, ".safetensors tensor (or glob) to read; repeatable"},
    {OPT_SCALE_POLICY, "--scale-policy", NULL, "any|pow2", CMD_SCAN,
     "pow2: FP32 scales must be powers of two (FlashMLA's reference quantizer)"},
    {OPT_SCALE_RANGE, "--scale-range", NULL, "MIN:MAX", CMD_SCAN, "FP32 scales must lie in [MIN, MAX]"},
    {OPT_THREADS, "--threads", NULL, "N", CMD_SCAN, "CPU threads (default: one per CPU, at most 16)"},
    {OPT_DIGESTS, "--digests", NULL, "FILE", CMD_SCAN, "write each scanned page's 64-bit digest to FILE"},
    {OPT_EXPECT_DIGESTS, "--expect-digests", NULL, "FILE", CMD_SCAN,
     "compare pages with the digests in FILE (the other side's --digests): changed, zero or missing pages fail"},
    {OPT_TOKENS, "--tokens", NULL, "N", CMD_SIMULATE, "latent vectors to write and move (default 4096)"},
    {OPT_SEED, "--seed", NULL, "N", CMD_SIMULATE, "seed of the latent values (default 1)"},
    {OPT_PREFILL_GPU, "--prefill-gpu", NULL, "GPU", CMD_PAIR, "GPU of the prefill worker only"},
    {OPT_DECODE_GPU, "--decode-gpu", NULL, "GPU", CMD_PAIR, "GPU of the decode worker only"},
    {OPT_PREFILL_ARGS, "--prefill-args", NULL, "FLAGS", CMD_PAIR, "SGLang launch flags of the prefill worker"},
    {OPT_DECODE_ARGS, "--decode-args", NULL, "FLAGS", CMD_PAIR, "SGLang launch flags of the decode worker"},
    {OPT_TIMEOUT, "--timeout", NULL, "SECONDS", CMD_CONFIG,
     "for a running server (http://HOST:PORT): seconds to wait for its answer (default 10)"},
    {OPT_HEADER, "--header", NULL, "'NAME: VALUE'", CMD_CONFIG,
     "an HTTP header for running servers, e.g. 'Authorization: Bearer TOKEN'; repeatable"},
    {OPT_CACERT, "--cacert", NULL, "FILE", CMD_CONFIG,
     "for https:// servers: trust the CAs in this PEM file instead of the system's"},
    {OPT_SGLANG_VERSION, "--sglang-version", NULL, "VERSION", CMD_CONFIG,
     "the SGLang release the workers run (0.5.3rc2 to 0.5.23, or main; default: the newest kvcheck has read); a "
     "worker file's sglang_version or a dump's version applies when this is not given"},
    {OPT_PAIRS, "--pairs", NULL, NULL, CMD_CHECK, "the workers are pairs: PREFILL1 DECODE1 PREFILL2 DECODE2 ..."},
    {OPT_PREFILL, "--prefill", NULL, "WORKER", CMD_CHECK,
     "a prefill worker; repeatable: each is checked against each --decode"},
    {OPT_DECODE, "--decode", NULL, "WORKER", CMD_CHECK, "a decode worker; repeatable"},
    {OPT_PREFILL_WORKER, "--prefill-worker", NULL, "NAME", CMD_CHECK,
     "with one file describing several workers: check only its worker NAME as prefill"},
    {OPT_DECODE_WORKER, "--decode-worker", NULL, "NAME", CMD_CHECK,
     "with one file describing several workers: check only its worker NAME as decode"},
    {OPT_JUNIT, "--junit", NULL, "FILE", CMD_CHECK, "also write a JUnit XML report: one test case per pair"},
    {OPT_FORMAT, "--format", NULL, "FORMAT", CMD_CHECK,
     "text (default), json (as --json) or github (GitHub Actions annotations, then the text report)"},
    {OPT_JSON, "--json", NULL, NULL, CMD_ALL, "print one JSON document on stdout, also on error"},
    {OPT_QUIET, "--quiet", "-q", NULL, CMD_ALL, "print the verdict line only"},
    {OPT_VERBOSE, "--verbose", "-v", NULL, CMD_ALL, "also list the flags that cannot change the layout"},
    {OPT_COLOR, "--color", NULL, "WHEN", CMD_ALL, "auto (default: only on a terminal), always or never"},
    {OPT_HELP, "--help", "-h", NULL, CMD_ALL, "show this help"},
};

typedef struct cli {
    unsigned command;
    const char *value[OPT_COUNT];
    int given[OPT_COUNT];
    const char **pos; /* positional words: argv-sized */
    int npos;
    const char **tensors; /* every --tensor: argv-sized */
    size_t ntensors;
    const char **headers; /* every --header: argv-sized */
    size_t nheaders;
    const char **prefills, **decodes; /* every --prefill, --decode: argv-sized */
    size_t nprefills, ndecodes;
    int github;           /* --format github */
    long timeout;         /* --timeout, seconds */
    kvc_format format;
    unsigned report;
} cli;

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: kvcheck layout [WORKER] [options]        resolve one SGLang worker's KV layout\n"
            "       kvcheck check [PREFILL DECODE] [options]  compare prefill with decode\n"
            "       kvcheck scan INPUT... (--layout NAME | --worker FILE | --gpu --model --args) [options]\n"
            "                                                 find bad scales and NaN/Inf in KV pages\n"
            "       kvcheck simulate [PREFILL DECODE] [options]  write KV as prefill does, move it as the\n"
            "                                                 transfer does, read it as decode does\n"
            "       kvcheck detect INPUT... [options]         which layout do these KV bytes look like?\n"
            "       kvcheck version\n"
            "\n"
            "WORKER, PREFILL and DECODE are kvcheck worker files (JSON: gpu, model, args,\n"
            "config), SGLang /server_info dumps, running SGLang servers (http://HOST:PORT,\n"
            "https://...: their /server_info is read), launch scripts or pasted commands, SGLang\n"
            "logs (their server_args= line) or deployment recipes (Dynamo, srt-slurm,\n"
            "Kubernetes); check FILE pairs the prefill and decode workers of one such file.\n"
            "The options below can stand in for them or add to them; launch flags given here\n"
            "win over the file's.\n"
            "INPUT is a raw dump of one layer's KV buffer (pages x page bytes), a .npy array\n"
            "or a .safetensors file (each tensor one layer).\n"
            "\noptions:\n");
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++) {
        const struct option_row *o = &OPTIONS[i];
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s%s", o->shortname ? o->shortname : "", o->shortname ? ", " : "",
                 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        char only[96] = "";
        for (unsigned b = 0; o->commands != CMD_ALL && b < 5; b++)
            if (o->commands >> b & 1)
                snprintf(only + strlen(only), sizeof only - strlen(only), "%s%s", only[0] ? ", " : " (",
                         COMMAND_NAMES[b]);
        fprintf(out, "  %-26s %s%s%s\n", left, o->help, only, only[0] ? ")" : "");
    }
    fprintf(out,
            "\nexit codes:\n"
            "  0  ran and found nothing wrong (layout resolved; check, simulate: compatible;\n"
            "     scan: clean; detect: a layout recognised)\n"
            "  1  ran and found a mismatch (check: incompatible), damage (scan) or bytes in no\n"
            "     known layout (detect: unknown)\n"
            "  2  usage error\n"
            "  3  invalid configuration: SGLang would refuse it, or kvcheck cannot read it\n"
            "  4  GPU required but unusable, or a driver failure\n"
            "  5  I/O error: a file is missing or unreadable (or out of memory)\n");
}

static int exit_code_for(kvc_status st)
{
    switch (st) {
    case KVC_OK: return EXIT_CLEAN;
    case KVC_ERR_USAGE: return EXIT_USAGE;
    case KVC_ERR_CONFIG: return EXIT_CONFIG;
    case KVC_ERR_GPU: return EXIT_GPU;
    case KVC_ERR_IO:
    case KVC_ERR_NOMEM:
    case KVC_ERR_INTERNAL: return EXIT_IO;
    }
    return EXIT_IO;
}

/* Prints a failure on stderr (text) or stdout (JSON); returns its exit code. */
static int fail(const cli *c, const kvc_diag *diag, int code)
{
    char *s = kvc_report_error(diag, code, c->format);
    if (s) fputs(s, c->format == KVC_FORMAT_JSON ? stdout : stderr);
    else fputs("kvcheck: error: out of memory\n", stderr);
    kvc_free(s);
    return code;
}

static int usage_error(const cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const cli *c, const char *fmt, ...)
{
    kvc_diag d;
    kvc_diag_clear(&d);
    d.status = KVC_ERR_USAGE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    va_end(ap);
    size_t n = strlen(d.message);
    snprintf(d.message + n, sizeof d.message - n, " (see kvcheck --help)");
    return fail(c, &d, EXIT_USAGE);
}

static const struct option_row *find_option(const char *word, const char **inline_value)
{
    *inline_value = NULL;
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++) {
        const struct option_row *o = &OPTIONS[i];
        size_t n = strlen(o->name);
        if (strcmp(word, o->name) == 0 || (o->shortname && strcmp(word, o->shortname) == 0)) return o;
        if (strncmp(word, o->name, n) == 0 && word[n] == '=') {
            *inline_value = word + n + 1;
            return o;
        }
    }
    return NULL;
}

static int want_color(const char *when)
{
    if (when && strcmp(when, "always") == 0) return 1;
    if (when && strcmp(when, "never") == 0) return 0;
    const char *term = getenv("TERM");
    if (getenv("NO_COLOR") || (term && strcmp(term, "dumb") == 0)) return 0;
    return isatty(STDOUT_FILENO);
}

static const char *option_name(opt_id id)
{
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++)
        if (OPTIONS[i].id == id) return OPTIONS[i].name;
    return "?";
}

/* Returns -1 to go on, or an exit code. */
/* `kvcheck version`: the tool, the GPU backend and the SGLang releases
 * whose rules kvcheck has read, grouped into eras of identical layout
 * rules. Versions and names are plain words: no escaping is needed. */
static void print_version(int json)
{
    const char *gpu = kvc_gpu_support();
    if (json) {
        printf("{\"kvcheck\": \"%s\", \"library\": \"%s\", \"gpu_scan\": \"", KVC_VERSION_STRING, kvc_version());
        for (const char *p = gpu; *p; p++) printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        printf("\", \"servers\": \"%s\"", http_support());
        printf(", \"engines\": [{\"name\": \"sglang\", \"default\": \"%s\", \"releases\": [",
               kvc_engine_release("sglang", 0));
        for (unsigned i = 0; kvc_engine_release("sglang", i); i++)
            printf("%s{\"version\": \"%s\", \"era\": \"%s\"}", i ? ", " : "", kvc_engine_release("sglang", i),
                   kvc_engine_release_era("sglang", i));
        printf("]}]}\n");
        return;
    }
    printf("kvcheck %s (library %s)\nGPU scan: %s\nRunning servers: %s\nSGLang releases kvcheck has read, by era (releases with the "
           "same layout rules), newest first; the default is %s:\n",
           KVC_VERSION_STRING, kvc_version(), gpu, http_support(), kvc_engine_release("sglang", 0));
    for (unsigned i = 0; kvc_engine_release("sglang", i);) {
        const char *era = kvc_engine_release_era("sglang", i);
        printf("  era %-12s", era);
        for (; kvc_engine_release("sglang", i) && strcmp(kvc_engine_release_era("sglang", i), era) == 0; i++)
            printf(" %s", kvc_engine_release("sglang", i));
        printf("\n");
    }
}

static int option_uint(const cli *c, opt_id id, unsigned long lo, unsigned long hi, unsigned long *out);

/* 1 when --pairs is among the words: positional workers then come two by two. */
static int pairs_given(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--pairs") == 0) return 1;
    return 0;
}

static int parse(cli *c, int argc, char **argv)
{
    const char **pos = c->pos, **tensors = c->tensors, **headers = c->headers, **prefills = c->prefills,
               **decodes = c->decodes;
    memset(c, 0, sizeof *c);
    c->pos = pos;
    c->tensors = tensors;
    c->headers = headers;
    c->prefills = prefills;
    c->decodes = decodes;
    c->timeout = 10;
    /* --json anywhere decides the error format before anything else fails. */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--format=json") == 0 ||
            (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
            c->format = KVC_FORMAT_JSON;
    if (argc < 2) return usage_error(c, "no command given: use layout, check, scan, simulate, detect or version");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_help(stdout);
        return EXIT_CLEAN;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        print_version(c->format == KVC_FORMAT_JSON);
        return EXIT_CLEAN;
    }
    if (strcmp(cmd, "layout") == 0) c->command = CMD_LAYOUT;
    else if (strcmp(cmd, "check") == 0) c->command = CMD_CHECK;
    else if (strcmp(cmd, "scan") == 0) c->command = CMD_SCAN;
    else if (strcmp(cmd, "detect") == 0) c->command = CMD_DETECT;
    else if (strcmp(cmd, "simulate") == 0) c->command = CMD_SIMULATE;
    else return usage_error(c, "unknown command '%s': use layout, check, scan, simulate, detect or version", cmd);

    int pairs = c->command == CMD_CHECK && pairs_given(argc, argv);
    for (int i = 2; i < argc; i++) {
        const char *w = argv[i];
        if (w[0] != '-' || strcmp(w, "-") == 0) {
            int max = pairs ? argc : c->command & CMD_PAIR ? 2 : c->command & CMD_INPUTS ? argc : 1;
            if (c->npos >= max) return usage_error(c, "unexpected argument '%s'", w);
            c->pos[c->npos++] = w;
            continue;
        }
        const char *inline_value;
        const struct option_row *o = find_option(w, &inline_value);
        if (!o && strncmp(w, "--sglang-rules", 14) == 0)
            return usage_error(c, "--sglang-rules is replaced by --sglang-version: its active-backend rule is SGLang "
                                  "0.5.20 and later, either-backend 0.5.9 to 0.5.19");
        if (!o) return usage_error(c, "unknown option '%s'", w);
        if (!(o->commands & c->command)) return usage_error(c, "option '%s' does not apply to this command", w);
        if (o->id == OPT_HELP) {
            print_help(stdout);
            return EXIT_CLEAN;
        }
        const char *value = NULL;
        if (o->arg && o->id == OPT_COLOR && !inline_value) value = "always"; /* bare --color */
        else if (o->arg) {
            value = inline_value;
            if (!value) {
                if (i + 1 >= argc) return usage_error(c, "option '%s' needs a value", w);
                value = argv[++i];
            }
        } else if (inline_value) {
            return usage_error(c, "option '%s' takes no value", o->name);
        }
        if (o->id == OPT_TENSOR) c->tensors[c->ntensors++] = value;
        if (o->id == OPT_PREFILL) c->prefills[c->nprefills++] = value;
        if (o->id == OPT_DECODE) c->decodes[c->ndecodes++] = value;
        if (o->id == OPT_HEADER) {
            const char *colon = strchr(value, ':');
            if (!colon || colon == value || strpbrk(value, "\r\n"))
                return usage_error(c, "--header takes 'NAME: VALUE' on one line, e.g. 'Authorization: Bearer TOKEN' "
                                      "(what was given is not repeated: it may hold a secret)");
            c->headers[c->nheaders++] = value;
        }
        c->value[o->id] = value;
        c->given[o->id] = 1;
    }
    if (c->given[OPT_COLOR] && strcmp(c->value[OPT_COLOR], "always") && strcmp(c->value[OPT_COLOR], "never") &&
        strcmp(c->value[OPT_COLOR], "auto"))
        return usage_error(c, "--color takes auto, always or never, not '%s'", c->value[OPT_COLOR]);
    static const struct {
        opt_id id;
        const char *choices[4];
    } CHOICES[] = {
        {OPT_DEVICE, {"auto", "cpu", "gpu"}},
        {OPT_BUFFER, {"kv", "indexer", "scales"}},
        {OPT_SCALE_POLICY, {"any", "pow2"}},
        {OPT_FORMAT, {"text", "json", "github"}},
    };
    for (size_t i = 0; i < sizeof CHOICES / sizeof CHOICES[0]; i++) {
        const char *v = c->value[CHOICES[i].id];
        if (!c->given[CHOICES[i].id]) continue;
        int ok = 0;
        for (int k = 0; k < 4 && CHOICES[i].choices[k]; k++) ok |= strcmp(v, CHOICES[i].choices[k]) == 0;
        const char *const *ch = CHOICES[i].choices;
        if (!ok)
            return usage_error(c, "%s takes %s%s%s%s%s, not '%s'", option_name(CHOICES[i].id), ch[0], ch[2] ? ", " : " or ",
                               ch[1], ch[2] ? " or " : "", ch[2] ? ch[2] : "", v);
    }
    if (c->given[OPT_TIMEOUT]) {
        unsigned long t;
        int code = option_uint(c, OPT_TIMEOUT, 1, 3600, &t);
        if (code >= 0) return code;
        c->timeout = (long)t;
    }
    c->github = c->given[OPT_FORMAT] && strcmp(c->value[OPT_FORMAT], "github") == 0;
    if (c->github && c->given[OPT_JSON])
        return usage_error(c, "--format github and --json are two output formats: give one");
    if (c->given[OPT_PAIRS] && (c->nprefills || c->ndecodes))
        return usage_error(c, "give the pairs either with --pairs or with --prefill and --decode, not both");
    if (c->given[OPT_PAIRS] && (c->npos == 0 || c->npos % 2))
        return usage_error(c, "--pairs takes workers two by two, PREFILL DECODE PREFILL DECODE ...; %d given", c->npos);
    if ((c->nprefills || c->ndecodes) && (!c->nprefills || !c->ndecodes || c->npos))
        return usage_error(c, "--prefill and --decode go together (each prefill is checked against each decode), "
                              "without other workers");
    if (c->command == CMD_SIMULATE && c->npos == 1)
        return usage_error(c, "simulate takes two workers, PREFILL and DECODE, or none with --prefill-args and "
                              "--decode-args");
    if ((c->given[OPT_PREFILL_WORKER] || c->given[OPT_DECODE_WORKER]) && (c->npos != 1 || c->given[OPT_PAIRS]))
        return usage_error(c, "--prefill-worker and --decode-worker pick workers of one file that describes several: "
                              "give that one file");
    if (c->given[OPT_QUIET]) c->report |= KVC_REPORT_QUIET;
    if (c->given[OPT_VERBOSE]) c->report |= KVC_REPORT_VERBOSE;
    if (c->format == KVC_FORMAT_TEXT && want_color(c->value[OPT_COLOR])) c->report |= KVC_REPORT_COLOR;
    return -1;
}

/* --gpu GPU, or --gpu auto: the first GPU the local NVIDIA driver sees, by
 * its name, or by its compute capability when kvcheck does not know the name. */
static kvc_status set_gpu(kvc_worker *w, const char *gpu, kvc_diag *diag)
{
    if (strcmp(gpu, "auto") != 0) return kvc_worker_set_gpu(w, gpu, diag);
    char name[256];
    unsigned major = 0, minor = 0;
    kvc_status st = kvc_gpu_detect(name, sizeof name, &major, &minor, diag);
    if (st) return st;
    if (kvc_worker_set_gpu(w, name, NULL) == KVC_OK) return KVC_OK;
    char cc[32];
    snprintf(cc, sizeof cc, "%u.%u", major, minor);
    return kvc_worker_set_gpu(w, cc, diag);
}

/* A running server's /server_info, read over HTTP(S). */
static kvc_status load_server(const cli *c, kvc_worker *w, const char *url, kvc_diag *diag)
{
    char *body = NULL, endpoint[2100];
    size_t len = 0;
    kvc_status st = http_get_server_info(url, c->timeout, c->headers, c->nheaders, c->value[OPT_CACERT], &body, &len,
                                         endpoint, sizeof endpoint, diag);
    if (!st) st = kvc_worker_load_json(w, body, len, endpoint, KVC_LOAD_SERVER_REPLY, diag);
    free(body);
    return st;
}

/* Where a worker comes from: a file or URL as given, or one worker of a
 * file that describes several. */
typedef struct source {
    const char *file;         /* NULL: the shortcuts alone */
    const kvc_recipe *recipe; /* not NULL: its worker `index` */
    size_t index;
    char label[700];          /* a recipe's worker: "FILE (NAME)" */
} worker_source;

static kvc_status set_diag(kvc_diag *diag, kvc_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static kvc_status set_diag(kvc_diag *diag, kvc_status st, const char *fmt, ...)
{
    if (diag) {
        kvc_diag_clear(diag);
        diag->status = st;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(diag->message, sizeof diag->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* "line 3 (prefill), line 9 (decode)": a recipe's workers. */
static void worker_names(const kvc_recipe *r, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < kvc_recipe_worker_count(r) && n < size; i++) {
        const char *role = kvc_recipe_worker_role(r, i);
        n += (size_t)snprintf(out + n, size - n, "%s%s%s%s%s", i ? ", " : "", kvc_recipe_worker_name(r, i),
                              role[0] ? " (" : "", role, role[0] ? ")" : "");
    }
}

/* A file of any kind kvcheck reads that describes one worker. */
static kvc_status load_worker_file(kvc_worker *w, const char *file, kvc_diag *diag)
{
    kvc_recipe *r = NULL;
    kvc_status st = kvc_recipe_load(file, &r, diag);
    if (!st && kvc_recipe_worker_count(r) != 1) {
        char names[600];
        worker_names(r, names, sizeof names);
        st = set_diag(diag, KVC_ERR_USAGE,
                      "%.300s describes %zu workers (%s): give it alone to check, which pairs its prefill and "
                      "decode workers (kvcheck check %.300s)",
                      file, kvc_recipe_worker_count(r), names, file);
    }
    if (!st) st = kvc_recipe_worker_load(r, 0, w, diag);
    kvc_recipe_free(r);
    return st;
}

/* Builds one worker from an optional file plus the shortcuts. */
static kvc_status build_worker(const cli *c, const char *label, const worker_source *src, const char *gpu, const char *model,
                               const char *args, const char *args_origin, kvc_worker **out, kvc_diag *diag)
{
    const char *file = src ? src->file : NULL;
    kvc_worker *w = kvc_worker_create(src && src->recipe ? src->label : file ? file : label);
    if (!w) {
        if (diag) {
            diag->status = KVC_ERR_NOMEM;
            snprintf(diag->message, sizeof diag->message, "out of memory");
        }
        return KVC_ERR_NOMEM;
    }
    kvc_status st = KVC_OK;
    if (file && !http_is_url(file) && strstr(file, "://")) {
        if (diag) {
            diag->status = KVC_ERR_USAGE;
            snprintf(diag->message, sizeof diag->message,
                     "%.400s: kvcheck reads running servers over http:// and https:// only", file);
        }
        st = KVC_ERR_USAGE;
    } else if (file && http_is_url(file)) {
        st = load_server(c, w, file, diag);
    } else if (src && src->recipe) {
        st = kvc_recipe_worker_load(src->recipe, src->index, w, diag);
    } else if (file) {
        st = load_worker_file(w, file, diag);
    }
    if (!st && gpu) st = set_gpu(w, gpu, diag);
    if (!st && model) st = kvc_worker_set_model(w, model, diag);
    if (!st && args) st = kvc_worker_add_args(w, args, args_origin, diag);
    if (!st && c->given[OPT_SGLANG_VERSION]) st = kvc_worker_set_release(w, c->value[OPT_SGLANG_VERSION], diag);
    if (st) {
        kvc_worker_free(w);
        return st;
    }
    *out = w;
    return KVC_OK;
}

static int emit(char *s)
{
    if (!s) {
        fputs("kvcheck: error: out of memory\n", stderr);
        return 0;
    }
    fputs(s, stdout);
    kvc_free(s);
    return 1;
}

static int run_layout(const cli *c)
{
    kvc_diag diag;
    kvc_diag_clear(&diag);
    if (!c->npos && !c->given[OPT_ARGS] && !c->given[OPT_GPU])
        return usage_error(c, "layout needs a WORKER file, or --gpu, --model and --args");
    kvc_worker *w = NULL;
    worker_source src = {.file = c->npos ? c->pos[0] : NULL};
    kvc_status st =
        build_worker(c, "worker", &src, c->value[OPT_GPU], c->value[OPT_MODEL], c->value[OPT_ARGS], "--args", &w, &diag);
    kvc_resolved *r = NULL;
    if (!st) st = kvc_resolve(w, &r, &diag);
    int code = st ? fail(c, &diag, exit_code_for(st)) : EXIT_CLEAN;
    if (!st && !emit(kvc_report_layout(r, c->format, c->report))) code = EXIT_IO;
    kvc_resolved_free(r);
    kvc_worker_free(w);
    return code;
}

/* Builds prefill and decode from files and shortcuts (simulate). */
static kvc_status build_pair(const cli *c, kvc_worker **p, kvc_worker **d, kvc_diag *diag)
{
    *p = *d = NULL;
    if (!c->npos && !(c->given[OPT_PREFILL_ARGS] && c->given[OPT_DECODE_ARGS])) {
        if (diag) {
            diag->status = KVC_ERR_USAGE;
            snprintf(diag->message, sizeof diag->message,
                     "simulate needs PREFILL and DECODE worker files, or --prefill-args and --decode-args (see kvcheck "
                     "--help)");
        }
        return KVC_ERR_USAGE;
    }
    const char *pgpu = c->given[OPT_PREFILL_GPU] ? c->value[OPT_PREFILL_GPU] : c->value[OPT_GPU];
    const char *dgpu = c->given[OPT_DECODE_GPU] ? c->value[OPT_DECODE_GPU] : c->value[OPT_GPU];
    worker_source ps = {.file = c->npos ? c->pos[0] : NULL}, ds = {.file = c->npos ? c->pos[1] : NULL};
    kvc_status st = build_worker(c, "prefill", &ps, pgpu, c->value[OPT_MODEL], c->value[OPT_PREFILL_ARGS],
                                 "--prefill-args", p, diag);
    if (!st)
        st = build_worker(c, "decode", &ds, dgpu, c->value[OPT_MODEL], c->value[OPT_DECODE_ARGS], "--decode-args", d,
                          diag);
    return st;
}

/* Writes `text` as a JSON string. */
static void put_json_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\u%04x", *p);
        else if (*p >= 0x80 && !utf8_seq(p)) fprintf(out, "\\u%04x", *p); /* not UTF-8: a Latin-1 reading, kept */
        else if (*p >= 0x80) {
            size_t n = utf8_seq(p);
            fwrite(p, 1, n, out);
            p += n - 1;
        } else fputc(*p, out);
    }
    fputc('"', out);
}

/* Checks one pair into `r`; NULL sources: the shortcuts alone. */
static void check_pair(const cli *c, const worker_source *ps, const worker_source *ds, pair_result *r)
{
    memset(r, 0, sizeof *r);
    r->prefill = ps->recipe ? ps->label : ps->file ? ps->file : "prefill";
    r->decode = ds->recipe ? ds->label : ds->file ? ds->file : "decode";
    r->from_file[0] = ps->file != NULL && !ps->recipe;
    r->from_file[1] = ds->file != NULL && !ds->recipe;
    const char *pgpu = c->given[OPT_PREFILL_GPU] ? c->value[OPT_PREFILL_GPU] : c->value[OPT_GPU];
    const char *dgpu = c->given[OPT_DECODE_GPU] ? c->value[OPT_DECODE_GPU] : c->value[OPT_GPU];
    kvc_worker *p = NULL, *d = NULL;
    kvc_status st = build_worker(c, "prefill", ps, pgpu, c->value[OPT_MODEL], c->value[OPT_PREFILL_ARGS],
                                 "--prefill-args", &p, &r->diag);
    if (!st)
        st = build_worker(c, "decode", ds, dgpu, c->value[OPT_MODEL], c->value[OPT_DECODE_ARGS], "--decode-args", &d,
                          &r->diag);
    if (!st) st = kvc_compare(p, d, &r->verdict, &r->diag);
    r->code = st ? exit_code_for(st) : kvc_verdict_compatible(r->verdict) ? EXIT_CLEAN : EXIT_FOUND;
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* The workers of one file that describes several with `role` (or the one
 * --prefill-worker/--decode-worker names) as sources; how many, or -1
 * after printing why there are none. */
static long recipe_side(const cli *c, const kvc_recipe *r, const char *file, const char *role, opt_id pick,
                        worker_source *out)
{
    long n = 0;
    for (size_t i = 0; i < kvc_recipe_worker_count(r); i++) {
        const char *name = kvc_recipe_worker_name(r, i);
        if (c->given[pick] ? strcmp(name, c->value[pick]) != 0 : strcmp(kvc_recipe_worker_role(r, i), role) != 0)
            continue;
        out[n] = (worker_source){.file = file, .recipe = r, .index = i};
        snprintf(out[n].label, sizeof out[n].label, "%.500s (%s)", file, name);
        n++;
    }
    if (n) return n;
    char names[600];
    worker_names(r, names, sizeof names);
    kvc_diag d;
    if (c->given[pick])
        set_diag(&d, KVC_ERR_USAGE, "%s %s: %.300s has no worker of that name; its workers: %s", option_name(pick),
                 c->value[pick], file, names);
    else
        set_diag(&d, KVC_ERR_CONFIG,
                 "%.300s describes %zu workers (%s) and none is a %s worker (--disaggregation-mode %s); name one with "
                 "%s",
                 file, kvc_recipe_worker_count(r), names, role, role, option_name(pick));
    fail(c, &d, exit_code_for(d.status));
    return -1;
}

/* One pair's result on stdout (and its failure on stderr, in text). */
static int emit_pair(const cli *c, const pair_result *r)
{
    if (c->github) github_annotate(stdout, r);
    if (!r->verdict) {
        fail(c, &r->diag, r->code);
        return 1;
    }
    return emit(kvc_report_check(r->verdict, c->format, c->report));
}

/* check FILE: the prefill and decode workers of one file that describes
 * several, every prefill against every decode; -1 to go on with *n pairs. */
static int recipe_pairs(const cli *c, kvc_recipe **recipe, worker_source **ps, worker_source **ds, size_t *n)
{
    kvc_diag diag;
    kvc_diag_clear(&diag);
    const char *file = c->pos[0];
    if (kvc_recipe_load(file, recipe, &diag)) {
        if (c->github) { /* an annotation at what cannot be read */
            pair_result r = {.prefill = file, .decode = file, .from_file = {1, 1}, .diag = diag};
            github_annotate(stdout, &r);
        }
        return fail(c, &diag, exit_code_for(diag.status));
    }
    size_t count = kvc_recipe_worker_count(*recipe);
    if (count < 2)
        return usage_error(c, "check takes two workers, PREFILL and DECODE, or one file that describes both; %.300s "
                              "describes one",
                           file);
    worker_source *p = calloc(count, sizeof *p), *d = calloc(count, sizeof *d);
    *ps = p;
    *ds = d;
    if (!p || !d) {
        fputs("kvcheck: error: out of memory\n", stderr);
        return EXIT_IO;
    }
    long np = recipe_side(c, *recipe, file, "prefill", OPT_PREFILL_WORKER, p);
    long nd = np < 0 ? -1 : recipe_side(c, *recipe, file, "decode", OPT_DECODE_WORKER, d);
    if (np < 0 || nd < 0) return c->given[OPT_PREFILL_WORKER] || c->given[OPT_DECODE_WORKER] ? EXIT_USAGE : EXIT_CONFIG;
    /* pair i: prefill i / nd against decode i % nd */
    worker_source *pp = calloc((size_t)(np * nd), sizeof *pp), *dd = calloc((size_t)(np * nd), sizeof *dd);
    if (!pp || !dd) {
        free(pp);
        free(dd);
        fputs("kvcheck: error: out of memory\n", stderr);
        return EXIT_IO;
    }
    for (long i = 0; i < np * nd; i++) {
        pp[i] = p[i / nd];
        dd[i] = d[i % nd];
    }
    free(p);
    free(d);
    *ps = pp;
    *ds = dd;
    *n = (size_t)(np * nd);
    return -1;
}

static int run_check(const cli *c)
{
    /* The pairs: two workers, --pairs P D P D ..., each --prefill against each --decode, or
     * the prefill and decode workers of one file. */
    size_t n = c->nprefills ? c->nprefills * c->ndecodes : c->given[OPT_PAIRS] ? (size_t)c->npos / 2 : 1;
    if (!c->nprefills && !c->given[OPT_PAIRS] && !c->npos && !(c->given[OPT_PREFILL_ARGS] && c->given[OPT_DECODE_ARGS]))
        return usage_error(c, "check needs PREFILL and DECODE worker files, or --prefill-args and --decode-args");
    kvc_recipe *recipe = NULL;
    worker_source *ps = NULL, *ds = NULL;
    int code = -1;
    if (c->npos == 1 && !c->given[OPT_PAIRS]) {
        code = recipe_pairs(c, &recipe, &ps, &ds, &n);
    } else {
        ps = calloc(n, sizeof *ps);
        ds = calloc(n, sizeof *ds);
        for (size_t i = 0; ps && ds && i < n; i++) {
            ps[i].file = c->nprefills ? c->prefills[i / c->ndecodes] : c->npos ? c->pos[2 * i] : NULL;
            ds[i].file = c->nprefills ? c->decodes[i % c->ndecodes] : c->npos ? c->pos[2 * i + 1] : NULL;
        }
    }
    pair_result *pairs = code < 0 ? calloc(n, sizeof *pairs) : NULL;
    if (code < 0 && (!pairs || !ps || !ds)) {
        fputs("kvcheck: error: out of memory\n", stderr);
        code = EXIT_IO;
    }
    if (code >= 0) {
        free(ps);
        free(ds);
        kvc_recipe_free(recipe);
        return code;
    }
    for (size_t i = 0; i < n; i++) check_pair(c, &ps[i], &ds[i], &pairs[i]);
    /* One exit code for all: the first pair that could not be checked
     * decides it, else 1 when any pair is incompatible. */
    code = EXIT_CLEAN;
    int ok = 1;
    size_t compatible = 0, incompatible = 0, errors = 0;
    for (size_t i = 0; i < n; i++) {
        if (!pairs[i].verdict) {
            if (!errors++) code = pairs[i].code;
        } else if (pairs[i].code == EXIT_FOUND) {
            incompatible++;
        } else {
            compatible++;
        }
    }
    if (!errors && incompatible) code = EXIT_FOUND;
    if (n == 1) {
        ok = emit_pair(c, &pairs[0]);
    } else if (c->format == KVC_FORMAT_JSON) {
        printf("{\"pairs\": [");
        for (size_t i = 0; i < n && ok; i++) {
            printf("%s{\"prefill\": ", i ? ", " : "");
            put_json_string(stdout, pairs[i].prefill);
            printf(", \"decode\": ");
            put_json_string(stdout, pairs[i].decode);
            printf(", \"exit_code\": %d, \"result\": ", pairs[i].code);
            char *doc = pairs[i].verdict ? kvc_report_check(pairs[i].verdict, KVC_FORMAT_JSON, c->report)
                                         : kvc_report_error(&pairs[i].diag, pairs[i].code, KVC_FORMAT_JSON);
            ok = doc != NULL;
            if (doc) fputs(doc, stdout);
            kvc_free(doc);
            printf("}");
        }
        printf("], \"summary\": {\"pairs\": %zu, \"compatible\": %zu, \"incompatible\": %zu, \"errors\": %zu, "
               "\"exit_code\": %d}}\n",
               n, compatible, incompatible, errors, code);
    } else {
        for (size_t i = 0; i < n && ok; i++) {
            printf("%s== pair %zu of %zu: ", i ? "\n" : "", i + 1, n);
            text_put(stdout, pairs[i].prefill, 0);
            fputs(" -> ", stdout);
            text_put(stdout, pairs[i].decode, 0);
            fputs("\n", stdout);
            fflush(stdout);
            ok = emit_pair(c, &pairs[i]);
        }
        printf("\nkvcheck: %zu pairs checked: %zu compatible, %zu incompatible, %zu could not be checked\n", n,
               compatible, incompatible, errors);
    }
    if (!ok) code = EXIT_IO;
    if (c->given[OPT_JUNIT]) {
        kvc_diag diag;
        kvc_diag_clear(&diag);
        if (junit_write(c->value[OPT_JUNIT], pairs, n, &diag)) code = fail(c, &diag, EXIT_IO);
    }
    for (size_t i = 0; i < n; i++) kvc_verdict_free(pairs[i].verdict);
    free(pairs);
    free(ps);
    free(ds);
    kvc_recipe_free(recipe);
    return code;
}

/* ------------------------------------------------------------------ scan */

/* Reads a whole number in [lo, hi] for an option; -1 on success, else an exit code. */
static int option_uint(const cli *c, opt_id id, unsigned long lo, unsigned long hi, unsigned long *out)
{
    const char *v = c->value[id];
    char *end = NULL;
    unsigned long n = v && *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
    if (!end || *end || n < lo || n > hi)
        return usage_error(c, "%s takes a whole number from %lu to %lu, not '%s'", option_name(id), lo, hi, v ? v : "");
    *out = n;
    return -1;
}

/* --device, already checked against its choices. */
static kvc_device device_option(const cli *c)
{
    const char *v = c->given[OPT_DEVICE] ? c->value[OPT_DEVICE] : "auto";
    return strcmp(v, "cpu") == 0 ? KVC_DEVICE_CPU : strcmp(v, "gpu") == 0 ? KVC_DEVICE_GPU : KVC_DEVICE_AUTO;
}

/* The layout to scan as, and a sentence on where it came from. */
static int scan_layout(const cli *c, kvc_layout **layout, char *source, size_t size)
{
    kvc_diag diag;
    kvc_diag_clear(&diag);
    int worker = c->given[OPT_WORKER] || c->given[OPT_ARGS] || c->given[OPT_GPU];
    if (c->given[OPT_LAYOUT] && worker)
        return usage_error(c, "give either --layout or a worker (--worker, --gpu, --args), not both");
    if (c->given[OPT_LAYOUT]) {
        if (c->given[OPT_BUFFER]) return usage_error(c, "--buffer goes with a worker; with --layout name the layout itself");
        kvc_layout_params p;
        kvc_layout_default_params(&p);
        if (c->given[OPT_MODEL] && kvc_model_layout_params(c->value[OPT_MODEL], &p, &diag))
            return fail(c, &diag, exit_code_for(diag.status));
        unsigned long page = p.page_size;
        int code = c->given[OPT_PAGE_SIZE] ? option_uint(c, OPT_PAGE_SIZE, 1, 1u << 20, &page) : -1;
        if (code >= 0) return code;
        p.page_size = (uint32_t)page;
        if (kvc_layout_build(c->value[OPT_LAYOUT], &p, layout, &diag)) {
            snprintf(diag.where, sizeof diag.where, "--layout");
            return fail(c, &diag, exit_code_for(diag.status));
        }
        snprintf(source, size, "--layout %s, page size %u, kv_lora_rank %u, qk_rope_head_dim %u%s%s",
                 kvc_layout_name(*layout),
                 p.page_size, p.kv_lora_rank, p.qk_rope_head_dim, c->given[OPT_MODEL] ? " of " : "",
                 c->given[OPT_MODEL] ? c->value[OPT_MODEL] : "");
        return -1;
    }
    if (!worker)
        return usage_error(c, "scan needs a layout: --layout NAME, or a worker (--worker FILE, or --gpu, --model and --args)");
    if (c->given[OPT_PAGE_SIZE])
        return usage_error(c, "--page-size goes with --layout; a worker's page size comes from its launch flags");
    kvc_worker *w = NULL;
    kvc_resolved *r = NULL;
    worker_source src = {.file = c->value[OPT_WORKER]};
    kvc_status st =
        build_worker(c, "worker", &src, c->value[OPT_GPU], c->value[OPT_MODEL], c->value[OPT_ARGS], "--args", &w, &diag);
    if (!st) st = kvc_resolve(w, &r, &diag);
    /* a worker's buffers per layer: what --buffer picks */
    static const struct {
        const char *name, *what, *missing;
        const kvc_layout *(*layout)(const kvc_resolved *);
    } BUFFERS[] = {
        {"kv", "KV cache layout", "", kvc_resolved_layout},
        {"indexer", "indexer state buffer", "has no DSA indexer (its model is not a DSA model)", kvc_resolved_indexer},
        {"scales", "scale buffer", "keeps no separate scale buffer (SGLang's FP4 pool does)", kvc_resolved_scales},
    };
    size_t b = 0;
    while (c->given[OPT_BUFFER] && strcmp(BUFFERS[b].name, c->value[OPT_BUFFER]) != 0) b++; /* a choice: found */
    int code = -1;
    if (st) {
        if (st == KVC_ERR_NOMEM) snprintf(diag.message, sizeof diag.message, "out of memory");
        code = fail(c, &diag, exit_code_for(st));
    } else if (!BUFFERS[b].layout(r)) {
        code = usage_error(c, "--buffer %s: %s %s", BUFFERS[b].name, kvc_worker_label(w), BUFFERS[b].missing);
    } else {
        /* the worker's layout, rebuilt from its name and dimensions to outlive the worker */
        const kvc_layout *l = BUFFERS[b].layout(r);
        if (kvc_layout_build(kvc_layout_name(l), kvc_layout_params_of(l), layout, &diag))
            code = fail(c, &diag, exit_code_for(diag.status));
        const char *dtype = "?"; /* the last KV dtype setting with a value: what the engine resolved */
        for (unsigned i = 0; i < kvc_resolved_setting_count(r); i++)
            if ((kvc_resolved_setting(r, i)->flags & KVC_SETTING_DTYPE) && kvc_resolved_setting(r, i)->value[0])
                dtype = kvc_resolved_setting(r, i)->value;
        snprintf(source, size, "the %s of %.200s: %s, %s, %s", BUFFERS[b].what,
                 kvc_worker_label(w), kvc_resolved_gpu(r, NULL, NULL), dtype,
                 kvc_resolved_decision(r)->value);
    }
    kvc_resolved_free(r);
    kvc_worker_free(w);
    return code;
}

typedef struct progress_bar {
    double start;
    int shown;
} progress_bar;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Draws a bar on stderr once a scan has run for a second. */
static void draw_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_bar *b = ctx;
    double t = seconds_now() - b->start;
    if (t < 1.0 || !total) return;
    int width = 40, fill = (int)(width * (double)done / (double)total);
    char bar[48];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %3d%%  %.1f of %.1f GB, %.2f GB/s", bar, (int)(100.0 * (double)done / (double)total),
            (double)done / 1e9, (double)total / 1e9, (double)done / 1e9 / t);
    b->shown = 1;
}

/* A scan's notes ("no usable GPU: scanned on the CPU") on stderr, in text mode. */
static void print_notes(const cli *c, const kvc_scan_report *r)
{
    if (c->format != KVC_FORMAT_TEXT) return;
    for (unsigned i = 0; i < kvc_scan_report_note_count(r); i++) {
        fputs("kvcheck: note: ", stderr);
        text_put(stderr, kvc_scan_report_note(r, i), 0);
        fputc('\n', stderr);
    }
}

static int run_scan(const cli *c)
{
    if (!c->npos) return usage_error(c, "scan needs at least one INPUT: a raw dump, a .npy or a .safetensors file");
    if (c->given[OPT_PREFILL_ARGS]) return usage_error(c, "--prefill-args applies to check");
    kvc_layout *layout = NULL;
    char source[640];
    int code = scan_layout(c, &layout, source, sizeof source);
    if (code >= 0) {
        kvc_layout_free(layout);
        return code;
    }
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.layout_source = source;
    o.device = device_option(c);
    o.pages = c->value[OPT_PAGES];
    o.skip_pages = c->value[OPT_SKIP_PAGES];
    o.tensors = c->tensors;
    o.ntensors = c->ntensors;
    o.scale_pow2 = c->given[OPT_SCALE_POLICY] && strcmp(c->value[OPT_SCALE_POLICY], "pow2") == 0;
    unsigned long n;
    if (c->given[OPT_MAX_FINDINGS] && (code = option_uint(c, OPT_MAX_FINDINGS, 0, 1000000, &n)) < 0)
        o.max_findings = n;
    if (code < 0 && c->given[OPT_THREADS] && (code = option_uint(c, OPT_THREADS, 1, 16, &n)) < 0)
        o.threads = (unsigned)n;
    if (code < 0 && c->given[OPT_SCALE_RANGE]) {
        const char *v = c->value[OPT_SCALE_RANGE];
        char *end = NULL;
        o.scale_min = strtod(v, &end);
        if (end == v || *end != ':' || (o.scale_max = strtod(end + 1, &end), *end))
            code = usage_error(c, "--scale-range takes MIN:MAX, e.g. 1e-6:1e4, not '%s'", v);
        o.scale_ranged = 1;
    }
    if (code >= 0) {
        kvc_layout_free(layout);
        return code;
    }
    progress_bar bar = {seconds_now(), 0};
    if (c->format == KVC_FORMAT_TEXT && !(c->report & KVC_REPORT_QUIET) && isatty(STDERR_FILENO)) {
        o.progress = draw_progress;
        o.progress_ctx = &bar;
    }
    kvc_diag diag;
    kvc_diag_clear(&diag);
    kvc_scan_report *r = NULL;
    kvc_status st = kvc_scan_files(c->pos, (size_t)c->npos, layout, &o, &r, &diag);
    kvc_layout_free(layout);
    if (bar.shown) fputs("\r\033[K", stderr);
    if (!st && c->given[OPT_DIGESTS]) st = kvc_scan_report_write_digests(r, c->value[OPT_DIGESTS], &diag);
    if (!st && c->given[OPT_EXPECT_DIGESTS]) st = kvc_scan_report_expect_digests(r, c->value[OPT_EXPECT_DIGESTS], &diag);
    if (st) {
        kvc_scan_report_free(r);
        return fail(c, &diag, exit_code_for(st));
    }
    code = kvc_scan_report_clean(r) ? EXIT_CLEAN : EXIT_FOUND;
    print_notes(c, r);
    if (!emit(kvc_report_scan(r, c->format, c->report))) code = EXIT_IO;
    kvc_scan_report_free(r);
    return code;
}

/* -------------------------------------------------------------- simulate */

static int run_simulate(const cli *c)
{
    kvc_diag diag;
    kvc_diag_clear(&diag);
    kvc_simulate_options o;
    kvc_simulate_options_init(&o);
    unsigned long n;
    int code;
    if (c->given[OPT_TOKENS]) {
        if ((code = option_uint(c, OPT_TOKENS, 1, 1ul << 22, &n)) >= 0) return code;
        o.tokens = n;
    }
    if (c->given[OPT_SEED]) {
        if ((code = option_uint(c, OPT_SEED, 0, 4294967295ul, &n)) >= 0) return code;
        o.seed = n;
    }
    o.device = device_option(c);
    kvc_worker *p, *d;
    kvc_status st = build_pair(c, &p, &d, &diag);
    kvc_simulation *s = NULL;
    if (!st) st = kvc_simulate(p, d, &o, &s, &diag);
    code = st ? fail(c, &diag, exit_code_for(st)) : kvc_simulation_compatible(s) ? EXIT_CLEAN : EXIT_FOUND;
    if (!st) print_notes(c, kvc_simulation_scan(s));
    if (!st && !emit(kvc_report_simulate(s, c->format, c->report))) code = EXIT_IO;
    kvc_simulation_free(s);
    kvc_worker_free(p);
    kvc_worker_free(d);
    return code;
}

/* ---------------------------------------------------------------- detect */

static int run_detect(const cli *c)
{
    if (!c->npos) return usage_error(c, "detect needs at least one INPUT: a raw dump, a .npy or a .safetensors file");
    kvc_diag diag;
    kvc_diag_clear(&diag);
    kvc_layout_params p;
    kvc_layout_default_params(&p);
    if (c->given[OPT_MODEL] && kvc_model_layout_params(c->value[OPT_MODEL], &p, &diag))
        return fail(c, &diag, exit_code_for(diag.status));
    p.page_size = 0; /* detect tries 64, then 1, unless --page-size says */
    unsigned long page;
    int code;
    if (c->given[OPT_PAGE_SIZE]) {
        if ((code = option_uint(c, OPT_PAGE_SIZE, 1, 1u << 20, &page)) >= 0) return code;
        p.page_size = (uint32_t)page;
    }
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    o.tensors = c->tensors;
    o.ntensors = c->ntensors;
    kvc_detection *d = NULL;
    kvc_status st = kvc_detect_files(c->pos, (size_t)c->npos, &p, &o, &d, &diag);
    code = st ? fail(c, &diag, exit_code_for(st)) : strcmp(kvc_detection_best(d), "unknown") ? EXIT_CLEAN : EXIT_FOUND;
    if (!st && !emit(kvc_report_detect(d, c->format, c->report))) code = EXIT_IO;
    kvc_detection_free(d);
    return code;
}

int main(int argc, char **argv)
{
    cli c;
    c.pos = calloc((size_t)argc + 1, sizeof *c.pos);
    c.tensors = calloc((size_t)argc + 1, sizeof *c.tensors);
    c.headers = calloc((size_t)argc + 1, sizeof *c.headers);
    c.prefills = calloc((size_t)argc + 1, sizeof *c.prefills);
    c.decodes = calloc((size_t)argc + 1, sizeof *c.decodes);
    if (!c.pos || !c.tensors || !c.headers || !c.prefills || !c.decodes) {
        fputs("kvcheck: error: out of memory\n", stderr);
        return EXIT_IO;
    }
    http_init();
    int code = parse(&c, argc, argv);
    if (code < 0)
        code = c.command == CMD_LAYOUT   ? run_layout(&c)
               : c.command == CMD_CHECK  ? run_check(&c)
               : c.command == CMD_SCAN   ? run_scan(&c)
               : c.command == CMD_SIMULATE ? run_simulate(&c)
                                         : run_detect(&c);
    free(c.pos);
    free(c.tensors);
    free(c.headers);
    free(c.prefills);
    free(c.decodes);
    http_cleanup();
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("kvcheck: error: cannot write to standard output\n", stderr);
        if (code == EXIT_CLEAN || code == EXIT_FOUND) code = EXIT_IO;
    }
    return code;
}
