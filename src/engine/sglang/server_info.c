/* SGLang's /server_info dump: ServerArgs fields as snake_case keys, read as
 * the flags they stand for. */
#include "engine/sglang/sglang.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Keys that make a JSON object a /server_info dump. */
static const char *const DUMP_KEYS[] = {"kv_cache_dtype", "model_path"};

int server_info_is_dump(const cJSON *root)
{
    if (!cJSON_IsObject(root)) return 0;
    for (size_t i = 0; i < COUNT_OF(DUMP_KEYS); i++)
        if (cJSON_HasObjectItem(root, DUMP_KEYS[i])) return 1;
    return 0;
}

/* One ServerArgs field (by its name, the parser's dest) with its value as
 * text and whether it is True (1), False or None (2), or another value. */
static kvc_status push_field(engine_inputs *in, const char *key, const char *value, uint8_t b, const kvc_origin *o,
                             kvc_diag *diag)
{
    RETURN_IF_ERROR(args_push(&in->cli, ARG_DUMP, key, value, o, diag));
    in->cli.v[in->cli.n - 1].dump_bool = b;
    return KVC_OK;
}

/* A JSON number as Python prints it: a whole number whole (30000), else
 * the shortest digits that read back as the same double (0.82, not
 * 0.81999999999999995). */
static void number_text(double v, char *out, size_t size)
{
    if (v > -1e15 && v < 1e15 && v == (double)(long long)v) {
        str_printf(out, size, "%lld", (long long)v);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        str_printf(out, size, "%.*g", digits, v);
        if (strtod(out, NULL) == v) return;
    }
}

kvc_status server_info_add(engine_inputs *in, const cJSON *root, const char *text, const char *file, kvc_diag *diag)
{
    size_t n = (size_t)cJSON_GetArraySize(root), i = 0;
    /* Every key's position in one pass: a dump has hundreds of keys. */
    unsigned *lines = calloc(n + 1, sizeof *lines), *columns = calloc(n + 1, sizeof *columns);
    kvc_status st = KVC_OK;
    if (!lines || !columns) st = diag_set(diag, KVC_ERR_NOMEM, NULL, "out of memory");
    else json_locate_members(text, n, lines, columns);
    /* dataclasses.asdict(server_args): each ServerArgs field by its name
     * (the parser's dest), with the value Python holds */
    for (const cJSON *k = root->child; k && !st; k = k->next, i++) {
        if (strcmp(k->string, "version") == 0) continue; /* the release: server_info_version reads it */
        kvc_origin o;
        origin_set(&o, file, lines[i], columns[i], k->string);
        char number[32];
        const char *value = "";
        uint8_t b = 0;
        if (cJSON_IsNull(k) || cJSON_IsFalse(k)) value = cJSON_IsNull(k) ? "None" : "False", b = 2;
        else if (cJSON_IsTrue(k)) value = "True", b = 1;
        else if (cJSON_IsString(k)) value = k->valuestring; /* whole: a model path may be long */
        else if (cJSON_IsNumber(k)) number_text(k->valuedouble, number, sizeof number), value = number;
        else value = cJSON_IsArray(k) ? "[...]" : "{...}";
        st = push_field(in, k->string, value, b, &o, diag);
    }
    free(lines);
    free(columns);
    return st;
}

/* /server_info carries SGLang's version as "version" in every release
 * (sglang 0.5.3: python/sglang/srt/entrypoints/http_server.py:487;
 * sglang 0.5.23: python/sglang/srt/entrypoints/http_server.py:888). */
void server_info_version(const cJSON *root, char *out, size_t size, const char **key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
    *key = "version";
    str_copy(out, size, cJSON_IsString(v) ? v->valuestring : "");
}

/* The start-up log line: logger.info(f"{server_args=}") prints the
 * dataclass's repr up to 0.5.18 (sglang 0.5.3: python/sglang/srt/
 * entrypoints/engine.py:127), server_args.resolved_dict() from 0.5.19
 * (sglang 0.5.19: srt/entrypoints/engine.py:265; 0.5.23 redacts secrets
 * first, engine.py:311): either way ServerArgs fields by name, as
 * /server_info holds them. */
kvc_status server_log_add(engine_inputs *in, const char *record, size_t len, const kvc_origin *where, kvc_diag *diag)
{
    py_field *f = NULL;
    size_t n = 0;
    RETURN_IF_ERROR(py_record_parse(record, len, where, &f, &n, diag));
    kvc_status st = KVC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        kvc_origin o;
        origin_set(&o, where->file, where->line, where->column + f[i].column, f[i].key);
        py_kind k = f[i].value.kind;
        uint8_t b = k == PY_TRUE ? 1 : k == PY_FALSE || k == PY_NONE ? 2 : 0;
        st = push_field(in, f[i].key, f[i].value.text, b, &o, diag);
    }
    py_fields_free(f, n);
    return st;
}
