/* SGLang's gRPC server (0.5.11+): the port it derives from the launch while
 * it resolves the server arguments, what it refuses about it there, and
 * check_server_args' refusal of a gRPC port that is the HTTP port.
 *
 * Where: _handle_deprecated_args, after the PD hook up to 0.5.14 and before
 * it from 0.5.15. 0.5.11-0.5.15.post1: the port is SGLANG_GRPC_PORT, else
 * --port + 10000, and is checked whether gRPC is on or not, so an HTTP port
 * above 55535 is refused; the server itself is SGLANG_ENABLE_GRPC. 0.5.16+:
 * --grpc-port, else SGLANG_GRPC_PORT, else --port + 10000 for the legacy
 * SMG server (--smg-grpc-mode, --grpc-mode); a port given starts the native
 * server, which refuses the launch paths it does not wire into. */
#include "engine/sglang/rules.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The gRPC settings as SGLang derives them. */
typedef struct grpc_view {
    char port[SETTING_VALUE_LEN];      /* --port as Python's int, or its default 30000 */
    char grpc_port[SETTING_VALUE_LEN]; /* "": None */
    char threads[SETTING_VALUE_LEN];   /* SGLANG_GRPC_WORKER_THREADS (EnvInt(4)) */
    setting_key from;                  /* what gave grpc_port: --grpc-port, SGLANG_GRPC_PORT or --port */
    int legacy;                        /* --smg-grpc-mode or --grpc-mode (0.5.16+) */
} grpc_view;

static int negative_or_zero(const char *v) { return int_cmp(v, "0") <= 0; }
static int port_range(const char *v) { return int_cmp(v, "0") > 0 && int_cmp(v, "65535") <= 0; }

static void view_of(const ctx *c, grpc_view *v)
{
    const setting *port = &c->set->s[SET_PORT];
    str_copy(v->port, sizeof v->port, port->set ? port->value : "30000");
    char env[SETTING_VALUE_LEN];
    int from_env = rules_env_int(c, SET_GRPC_PORT_ENV, "None", env, sizeof env);
    v->legacy = rel_since(c->rel, "0.5.16") && (c->set->s[SET_SMG_GRPC].set || c->set->s[SET_GRPC_MODE].set);
    v->grpc_port[0] = '\0';
    v->from = SET_PORT;
    if (rel_since(c->rel, "0.5.16") && c->set->s[SET_GRPC_PORT].set) {
        str_copy(v->grpc_port, sizeof v->grpc_port, c->set->s[SET_GRPC_PORT].value);
        v->from = SET_GRPC_PORT;
    } else if (from_env) {
        str_copy(v->grpc_port, sizeof v->grpc_port, env);
        v->from = SET_GRPC_PORT_ENV;
    } else if (rel_until(c->rel, "0.5.15.post1") || v->legacy) {
        int_add(v->port, "10000", v->grpc_port, sizeof v->grpc_port);
    }
    if (rel_since(c->rel, "0.5.16")) rules_env_int(c, SET_GRPC_THREADS_ENV, "4", v->threads, sizeof v->threads);
    else str_copy(v->threads, sizeof v->threads, "4");
}

/* ------------------------------------------------------------ the rows */

/* Each row's test derives the view where it reads it, as SGLang reads the environment where it reaches it (its
 * warnings are said once). */
static int g_range(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return v.grpc_port[0] && !port_range(v.grpc_port);
}
static int g_timeout(const ctx *c)
{
    const setting *t = &c->set->s[SET_GRPC_TIMEOUT];
    return t->set && negative_or_zero(t->value);
}
static int g_threads(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return v.grpc_port[0] && negative_or_zero(v.threads);
}
static int sidecar(const ctx *c) { return c->set->s[SET_SIDECAR].set; }
/* --sidecar-args as json_list_type reads it (orjson.loads): 0 not given or JSON null (None), 1 a list of strings,
 * 2 any other value */
static int sidecar_args(const ctx *c)
{
    const setting *a = &c->set->s[SET_SIDECAR_ARGS];
    cJSON *v = a->set ? cJSON_Parse(a->value) : NULL;
    int kind = !v || cJSON_IsNull(v) ? 0 : cJSON_IsArray(v) ? 1 : 2;
    const cJSON *e;
    if (kind == 1)
        cJSON_ArrayForEach(e, v) if (!cJSON_IsString(e)) kind = 2;
    cJSON_Delete(v);
    return kind;
}
static int g_sidecar_args_alone(const ctx *c) { return sidecar_args(c) && !sidecar(c); }
static int g_sidecar_args_strings(const ctx *c) { return sidecar_args(c) == 2; }
/* --sidecar empty once str.strip() takes its whitespace (ASCII's; Python also strips Unicode spaces) */
static int g_sidecar_empty(const ctx *c)
{
    if (!sidecar(c)) return 0;
    for (const char *p = c->set->s[SET_SIDECAR].value; *p; p++)
        if (!strchr(" \t\n\r\v\f\x1c\x1d\x1e\x1f", *p)) return 0;
    return 1;
}
static int g_sidecar_legacy(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return sidecar(c) && v.legacy;
}
static int g_sidecar_no_port(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return sidecar(c) && !v.grpc_port[0];
}
static int g_sidecar_rust(const ctx *c) { return sidecar(c) && rules_env_bool(&c->set->s[SET_RUST_SERVER_ENV]) == 1; }
/* the native server: a gRPC port without the legacy modes */
static int native(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return v.grpc_port[0] && !v.legacy;
}
static int g_ray(const ctx *c) { return c->set->s[SET_USE_RAY].set && native(c); }
static int g_encoder_only(const ctx *c) { return c->set->s[SET_ENCODER_ONLY].set && native(c); }
static int g_tokenizers(const ctx *c)
{
    const setting *t = &c->set->s[SET_TOKENIZER_WORKERS];
    return t->set && int_cmp(t->value, "1") > 0 && native(c);
}
/* --api-key or --admin-api-key not empty (Python's truth) */
static int g_api_key(const ctx *c)
{
    return (c->set->s[SET_API_KEY].value[0] || c->set->s[SET_ADMIN_API_KEY].value[0]) && native(c);
}
static int g_clash_env(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return rules_env_bool(&c->set->s[SET_ENABLE_GRPC_ENV]) == 1 && strcmp(v.grpc_port, v.port) == 0;
}
static int g_clash(const ctx *c)
{
    grpc_view v;
    view_of(c, &v);
    return !v.legacy && !strcmp(v.grpc_port, v.port);
}

#define SA16 "sglang 0.5.16: python/sglang/srt/server_args.py:"
#define HOOK23 "0.5.23: python/sglang/srt/arg_groups/serving_hook.py:"
#define PORT_GIVER SET_COUNT /* the row blames what gave the gRPC port */
#define API_KEY_GIVEN SET_API_KEY /* the row blames the API key that is not empty */

/* where SGLang checks each row: while it derives the port, or in check_server_args; {grpc_port}, {port}, {threads}:
 * grpc_fields' */
enum { DERIVE, SERVER };
static const flag_rule RULES[] = {
    {FROM_TO("0.5.11", "0.5.15.post1"), DERIVE, g_range, PORT_GIVER,
     "ValueError: SGLANG_GRPC_PORT ({grpc_port}) must be between 1 and 65535",
     "sglang 0.5.11: python/sglang/srt/server_args.py:1042-1050; 0.5.15.post1: :2997-3005"},
    {SINCE("0.5.21"), DERIVE, g_timeout, SET_GRPC_TIMEOUT, "ValueError: --grpc-response-timeout-secs must be positive",
     "sglang 0.5.21: python/sglang/srt/arg_groups/serving_hook.py:337-338; 0.5.23: :378-379"},
    {SINCE("0.5.16"), DERIVE, g_range, PORT_GIVER,
     "ValueError: --grpc-port / SGLANG_GRPC_PORT ({grpc_port}) must be between 1 and 65535",
     SA16 "3319-3334; 0.5.18: :4184-4199; " HOOK23 "360-386"},
    {SINCE("0.5.16"), DERIVE, g_threads, SET_GRPC_THREADS_ENV,
     "ValueError: SGLANG_GRPC_WORKER_THREADS ({threads}) must be >= 1", SA16 "3335-3339; " HOOK23 "387-390"},
    {SINCE("0.5.16"), DERIVE, g_sidecar_args_alone, SET_SIDECAR_ARGS, "ValueError: --sidecar-args requires --sidecar.",
     SA16 "3344-3346; " HOOK23 "395-397"},
    {SINCE("0.5.16"), DERIVE, g_sidecar_args_strings, SET_SIDECAR_ARGS,
     "ValueError: --sidecar-args must be a JSON array of strings.", SA16 "3347-3350; " HOOK23 "398-401"},
    {SINCE("0.5.16"), DERIVE, g_sidecar_empty, SET_SIDECAR, "ValueError: --sidecar must not be empty.",
     SA16 "3351-3353; " HOOK23 "402-404"},
    {SINCE("0.5.16"), DERIVE, g_sidecar_legacy, SET_SIDECAR,
     "ValueError: --sidecar requires SGLang's native gRPC server; it cannot be combined with "
     "--smg-grpc-mode/--grpc-mode.",
     SA16 "3354-3358; " HOOK23 "405-409"},
    {SINCE("0.5.16"), DERIVE, g_sidecar_no_port, SET_SIDECAR,
     "ValueError: --sidecar requires --grpc-port or SGLANG_GRPC_PORT.", SA16 "3359-3360; " HOOK23 "410-411"},
    {FROM_TO("0.5.22", "0.5.22"), DERIVE, g_sidecar_rust, SET_SIDECAR,
     "ValueError: --sidecar is not yet supported with SGLANG_RUST_SERVER: Rust-server mode does not run the Python "
     "sidecar lifecycle.",
     "sglang 0.5.22: python/sglang/srt/arg_groups/serving_hook.py:386-390"},
    {SINCE("0.5.16"), DERIVE, g_ray, SET_USE_RAY,
     "ValueError: --grpc-port is not supported with --use-ray: the Ray serve launch path does not start the native "
     "gRPC server.",
     SA16 "3361-3366; " HOOK23 "412-417"},
    {SINCE("0.5.16"), DERIVE, g_encoder_only, SET_ENCODER_ONLY,
     "ValueError: --grpc-port is not supported with --encoder-only: encoder disaggregation uses its own server.",
     SA16 "3367-3371; " HOOK23 "418-422"},
    {SINCE("0.5.16"), DERIVE, g_tokenizers, SET_TOKENIZER_WORKERS,
     "ValueError: Native gRPC does not yet support --tokenizer-worker-num > 1. Unset --grpc-port or set "
     "--tokenizer-worker-num 1.",
     SA16 "3372-3376; " HOOK23 "423-427"},
    {SINCE("0.5.16"), DERIVE, g_api_key, API_KEY_GIVEN,
     "ValueError: --grpc-port is incompatible with --api-key/--admin-api-key: the native gRPC listener bypasses "
     "HTTP auth middleware.",
     SA16 "3377-3381; " HOOK23 "428-432"},
    {FROM_TO("0.5.11", "0.5.15.post1"), SERVER, g_clash_env, SET_ENABLE_GRPC_ENV,
     "ValueError: SGLANG_GRPC_PORT ({grpc_port}) must differ from --port ({port})",
     "sglang 0.5.11: python/sglang/srt/server_args.py:6953-6960; 0.5.15.post1: :6717-6724"},
    {SINCE("0.5.16"), SERVER, g_clash, PORT_GIVER,
     "ValueError: --grpc-port ({grpc_port}) must differ from --port ({port})",
     SA16 "7747-7750; 0.5.18: :9318-9321; 0.5.19: python/sglang/srt/arg_groups/validation_hook.py:209-212; 0.5.23: "
     ":359-362"},
};

/* The setting a row points at. */
static const setting *blamed(const ctx *c, const flag_rule *r)
{
    grpc_view v;
    view_of(c, &v);
    if (r->blame == PORT_GIVER) return &c->set->s[v.from];
    if (r->blame == API_KEY_GIVEN && !c->set->s[SET_API_KEY].value[0]) return &c->set->s[SET_ADMIN_API_KEY];
    return &c->set->s[r->blame];
}
static void grpc_fields(const ctx *c, const flag_rule *r, rule_fields *f)
{
    (void)r;
    grpc_view v;
    view_of(c, &v);
    rule_field(f, "grpc_port", "%s", v.grpc_port);
    rule_field(f, "port", "%s", v.port);
    rule_field(f, "threads", "%s", v.threads);
}

kvc_status grpc_check(const ctx *c, enum grpc_stage stage)
{
    /* before 0.5.11 SGLang has no gRPC port */
    if (!rel_since(c->rel, "0.5.11") || c->set->s[SET_PAGE_SIZE].reported) return KVC_OK;
    enum grpc_stage derive = rel_since(c->rel, "0.5.15") ? GRPC_BEFORE_PD : GRPC_AFTER_PD;
    if (stage != GRPC_SERVER && stage != derive) return KVC_OK;
    if (stage == derive && rel_until(c->rel, "0.5.15.post1")) rules_env_warn(c, SET_ENABLE_GRPC_ENV);
    static const rule_hooks hooks = {NULL, grpc_fields, blamed};
    return rules_table(c, RULES, COUNT_OF(RULES), stage == GRPC_SERVER ? SERVER : DERIVE, &hooks);
}

size_t grpc_spans(span *out, size_t max)
{
    size_t n = 0;
    SPAN_EACH(RULES, RULES[i].when);
    return n;
}
