/* The kvcheck tool. It includes only the public header: everything it knows
 * about SGLang comes from the library. */
#include "kvcheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

enum { CMD_LAYOUT = 1u, CMD_CHECK = 2u, CMD_ALL = 3u };

typedef enum opt_id {
    OPT_JSON,
    OPT_RULES,
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
    {OPT_GPU, "--gpu", NULL, "GPU", CMD_ALL, "GPU of the worker(s): B300, H200, sm_100, 10.3, MI300X, ..."},
    {OPT_MODEL, "--model", NULL, "MODEL", CMD_ALL,
     "model: a preset (glm-5.2, deepseek-v3.2, deepseek-v3) or a path to config.json"},
    {OPT_ARGS, "--args", NULL, "FLAGS", CMD_LAYOUT, "SGLang launch flags, as one quoted string"},
    {OPT_PREFILL_GPU, "--prefill-gpu", NULL, "GPU", CMD_CHECK, "GPU of the prefill worker only"},
    {OPT_DECODE_GPU, "--decode-gpu", NULL, "GPU", CMD_CHECK, "GPU of the decode worker only"},
    {OPT_PREFILL_ARGS, "--prefill-args", NULL, "FLAGS", CMD_CHECK, "SGLang launch flags of the prefill worker"},
    {OPT_DECODE_ARGS, "--decode-args", NULL, "FLAGS", CMD_CHECK, "SGLang launch flags of the decode worker"},
    {OPT_RULES, "--sglang-rules", NULL, "RULE", CMD_ALL,
     "row rule: active-backend (late 2026, default) or either-backend (May 2026)"},
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
    const char *pos[2];
    int npos;
    kvc_format format;
    unsigned report;
    kvc_rules rules;
} cli;

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: kvcheck layout [WORKER] [options]        resolve one SGLang worker's KV layout\n"
            "       kvcheck check [PREFILL DECODE] [options]  compare prefill with decode\n"
            "       kvcheck version\n"
            "\n"
            "WORKER, PREFILL and DECODE are kvcheck worker files (JSON: gpu, model, args,\n"
            "config) or SGLang /server_info dumps. The options below can stand in for them\n"
            "or add to them; launch flags given here win over the file's.\n"
            "\noptions:\n");
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++) {
        const struct option_row *o = &OPTIONS[i];
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s%s", o->shortname ? o->shortname : "", o->shortname ? ", " : "",
                 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-26s %s%s\n", left, o->help,
                o->commands == CMD_LAYOUT ? " (layout)" : o->commands == CMD_CHECK ? " (check)" : "");
    }
    fprintf(out,
            "\nexit codes:\n"
            "  0  ran and found nothing wrong (layout resolved; check: compatible)\n"
            "  1  ran and found a mismatch (check: incompatible)\n"
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

/* Returns -1 to go on, or an exit code. */
static int parse(cli *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->rules = KVC_RULES_ACTIVE_BACKEND;
    /* --json anywhere decides the error format before anything else fails. */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--json") == 0) c->format = KVC_FORMAT_JSON;
    if (argc < 2) return usage_error(c, "no command given: use layout, check or version");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_help(stdout);
        return EXIT_CLEAN;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("kvcheck %s (library %s)\n", KVC_VERSION_STRING, kvc_version());
        return EXIT_CLEAN;
    }
    if (strcmp(cmd, "layout") == 0) c->command = CMD_LAYOUT;
    else if (strcmp(cmd, "check") == 0) c->command = CMD_CHECK;
    else return usage_error(c, "unknown command '%s': use layout, check or version", cmd);

    for (int i = 2; i < argc; i++) {
        const char *w = argv[i];
        if (w[0] != '-' || strcmp(w, "-") == 0) {
            int max = c->command == CMD_CHECK ? 2 : 1;
            if (c->npos >= max) return usage_error(c, "unexpected argument '%s'", w);
            c->pos[c->npos++] = w;
            continue;
        }
        const char *inline_value;
        const struct option_row *o = find_option(w, &inline_value);
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
        c->value[o->id] = value;
        c->given[o->id] = 1;
    }
    if (c->given[OPT_RULES] && kvc_rules_parse(c->value[OPT_RULES], &c->rules) != KVC_OK)
        return usage_error(c, "--sglang-rules takes active-backend or either-backend, not '%s'", c->value[OPT_RULES]);
    if (c->given[OPT_COLOR] && strcmp(c->value[OPT_COLOR], "always") && strcmp(c->value[OPT_COLOR], "never") &&
        strcmp(c->value[OPT_COLOR], "auto"))
        return usage_error(c, "--color takes auto, always or never, not '%s'", c->value[OPT_COLOR]);
    if (c->command == CMD_CHECK && c->npos == 1)
        return usage_error(c, "check takes two workers, PREFILL and DECODE, or none with --prefill-args and --decode-args");
    if (c->given[OPT_QUIET]) c->report |= KVC_REPORT_QUIET;
    if (c->given[OPT_VERBOSE]) c->report |= KVC_REPORT_VERBOSE;
    if (c->format == KVC_FORMAT_TEXT && want_color(c->value[OPT_COLOR])) c->report |= KVC_REPORT_COLOR;
    return -1;
}

/* Builds one worker from an optional file plus the shortcuts. */
static kvc_status build_worker(const char *label, const char *file, const char *gpu, const char *model,
                               const char *args, const char *args_origin, kvc_worker **out, kvc_diag *diag)
{
    kvc_worker *w = kvc_worker_create(file ? file : label);
    if (!w) {
        diag->status = KVC_ERR_NOMEM;
        snprintf(diag->message, sizeof diag->message, "out of memory");
        return KVC_ERR_NOMEM;
    }
    kvc_status st = KVC_OK;
    if (file) st = kvc_worker_load_file(w, file, diag);
    if (!st && gpu) st = kvc_worker_set_gpu(w, gpu, diag);
    if (!st && model) st = kvc_worker_set_model(w, model, diag);
    if (!st && args) st = kvc_worker_add_args(w, args, args_origin, diag);
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
    kvc_status st = build_worker("worker", c->npos ? c->pos[0] : NULL, c->value[OPT_GPU], c->value[OPT_MODEL],
                                 c->value[OPT_ARGS], "--args", &w, &diag);
    kvc_resolved *r = st ? NULL : malloc(sizeof *r);
    if (!st && !r) st = KVC_ERR_NOMEM;
    if (!st) st = kvc_resolve(w, c->rules, r, &diag);
    int code = st ? fail(c, &diag, exit_code_for(st)) : EXIT_CLEAN;
    if (!st && !emit(kvc_report_layout(r, c->format, c->report))) code = EXIT_IO;
    free(r);
    kvc_worker_free(w);
    return code;
}

static int run_check(const cli *c)
{
    kvc_diag diag;
    kvc_diag_clear(&diag);
    if (!c->npos && !(c->given[OPT_PREFILL_ARGS] && c->given[OPT_DECODE_ARGS]))
        return usage_error(c, "check needs PREFILL and DECODE worker files, or --prefill-args and --decode-args");
    kvc_worker *p = NULL, *d = NULL;
    const char *pgpu = c->given[OPT_PREFILL_GPU] ? c->value[OPT_PREFILL_GPU] : c->value[OPT_GPU];
    const char *dgpu = c->given[OPT_DECODE_GPU] ? c->value[OPT_DECODE_GPU] : c->value[OPT_GPU];
    kvc_status st = build_worker("prefill", c->npos ? c->pos[0] : NULL, pgpu, c->value[OPT_MODEL],
                                 c->value[OPT_PREFILL_ARGS], "--prefill-args", &p, &diag);
    if (!st)
        st = build_worker("decode", c->npos ? c->pos[1] : NULL, dgpu, c->value[OPT_MODEL], c->value[OPT_DECODE_ARGS],
                          "--decode-args", &d, &diag);
    kvc_verdict *v = st ? NULL : malloc(sizeof *v);
    if (!st && !v) st = KVC_ERR_NOMEM;
    if (!st) st = kvc_compare(p, d, c->rules, v, &diag);
    int code = st ? fail(c, &diag, exit_code_for(st)) : v->compatible ? EXIT_CLEAN : EXIT_FOUND;
    if (!st && !emit(kvc_report_check(v, c->format, c->report))) code = EXIT_IO;
    free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
    return code;
}

int main(int argc, char **argv)
{
    cli c;
    int code = parse(&c, argc, argv);
    if (code < 0) code = c.command == CMD_LAYOUT ? run_layout(&c) : run_check(&c);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("kvcheck: error: cannot write to standard output\n", stderr);
        if (code == EXIT_CLEAN || code == EXIT_FOUND) code = EXIT_IO;
    }
    return code;
}
