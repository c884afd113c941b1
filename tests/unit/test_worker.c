/* Workers from JSON text held in memory (kvc_worker_load_json, as a running
 * server's reply arrives) and where each resolved setting was given. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#define ENDPOINT "http://10.0.0.2:30000/server_info"

/* A file's whole text (free()). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = calloc(1, 1 << 20);
    assert_non_null(text);
    *len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    return text;
}

static void test_worker__a_server_reply_loads_with_its_release_and_positions(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp("fixtures/servers/glm52-decode-0.5.23.json", &len);
    kvc_worker *w = kvc_worker_create(ENDPOINT);
    kvc_diag d;
    assert_int_equal(kvc_worker_load_json(w, text, len, ENDPOINT, KVC_LOAD_SERVER_REPLY, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "NVIDIA B300 SXM6 AC", &d), KVC_OK);
    kvc_resolved *r = NULL;
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    assert_string_equal(kvc_resolved_release(r), "0.5.23"); /* from the reply's "version" */
    assert_string_equal(kvc_layout_name(kvc_resolved_layout(r)), "fp8_flashmla");
    const kvc_setting *s = kvc_resolved_find(r, "enable_hisparse");
    assert_non_null(s);
    assert_string_equal(s->file, ENDPOINT); /* where the reply said it */
    assert_int_equal(s->line, 21);
    assert_int_equal(s->column, 3);
    kvc_resolved_free(r);
    kvc_worker_free(w);
    free(text);
}

/* A running server's list (a dump writes it "[...]") passed its checks: without a page size it is still not judged */
static void test_worker__a_dump_s_lists_are_not_checked_again(void **state)
{
    (void)state;
    static const char TEXT[] = "{\"version\": \"0.5.23\", \"model_path\": \"deepseek-ai/DeepSeek-V3.2\", \"tp_size\": 8, "
                               "\"allowed_media_domains\": [\"a.com\"], \"media_url_max_file_size_mb\": 64}";
    kvc_worker *w = kvc_worker_create("dump.json");
    kvc_diag d;
    assert_int_equal(kvc_worker_load_json(w, TEXT, strlen(TEXT), "dump.json", KVC_LOAD_SERVER_REPLY, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "H200", &d), KVC_OK);
    assert_int_equal(kvc_worker_set_model(w, "tests/conformance/sglang/models/DEEPSEEK_V32.json", &d), KVC_OK);
    kvc_resolved *r = NULL;
    kvc_status st = kvc_resolve(w, &r, &d);
    if (st) fail_msg("%s", d.message);
    kvc_resolved_free(r);
    kvc_worker_free(w);
}

static void test_worker__what_is_not_a_server_info_reply_is_an_io_error(void **state)
{
    (void)state;
    static const char *const BAD[][2] = {
        {"<html><body>nginx</body></html>", "did not answer with JSON: is this an SGLang server?"},
        {"", "did not answer with JSON"},
        {"{\"status\": \"ok\"}", "answered with JSON that is not an SGLang /server_info dump"},
        {"[1, 2, 3]", "answered with JSON that is not"},
        /* a kvcheck worker file is no server's answer */
        {"{\"gpu\": \"B300\", \"model\": \"glm-5.2\", \"args\": []}", "answered with JSON that is not"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        kvc_worker *w = kvc_worker_create(ENDPOINT);
        kvc_diag d;
        assert_int_equal(kvc_worker_load_json(w, BAD[i][0], strlen(BAD[i][0]), ENDPOINT, KVC_LOAD_SERVER_REPLY, &d),
                         KVC_ERR_IO);
        assert_int_equal(d.status, KVC_ERR_IO);
        assert_contains(d.message, BAD[i][1]);
        assert_contains(d.message, ENDPOINT);
        assert_int_equal(kvc_worker_load_json(w, BAD[i][0], strlen(BAD[i][0]), ENDPOINT, KVC_LOAD_SERVER_REPLY, NULL),
                         KVC_ERR_IO);
        kvc_worker_free(w);
    }
}

static void test_worker__without_the_reply_flag_json_text_loads_as_a_file_would(void **state)
{
    (void)state;
    const char *text = "{\"gpu\": \"B300\", \"model\": \"glm-5.2\",\n \"args\": [\"--kv-cache-dtype\", \"fp8_e4m3\"]}";
    kvc_worker *w = kvc_worker_create("inline");
    kvc_diag d;
    assert_int_equal(kvc_worker_load_json(w, text, strlen(text), "inline.json", 0, &d), KVC_OK);
    kvc_resolved *r = NULL;
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    const kvc_setting *s = kvc_resolved_find(r, "kv_cache_dtype");
    assert_string_equal(s->file, "inline.json");
    assert_int_equal(s->line, 2);
    assert_int_equal(s->column, 11); /* the opening quote of "--kv-cache-dtype" */
    /* decided by a rule, not given: no place */
    s = kvc_resolved_find(r, "dsa_prefill_backend");
    assert_string_equal(s->file, "");
    assert_int_equal(s->line, 0);
    kvc_resolved_free(r);
    /* malformed text is a configuration error of the text, with its position */
    assert_int_equal(kvc_worker_load_json(w, "{\"gpu\": }", 9, "inline.json", 0, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "malformed JSON in inline.json");
    kvc_worker_free(w);
}

static void test_worker__load_json_refuses_what_the_api_does_not_take(void **state)
{
    (void)state;
    kvc_worker *w = kvc_worker_create("w");
    kvc_diag d;
    assert_int_equal(kvc_worker_load_json(w, "{}", 2, "x", 0x80, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "unknown flags 0x80");
    assert_int_equal(kvc_worker_load_json(w, NULL, 0, "x", 0, &d), KVC_ERR_USAGE);
    assert_int_equal(kvc_worker_load_json(NULL, "{}", 2, "x", 0, NULL), KVC_ERR_USAGE);
    assert_int_equal(kvc_worker_load_json(w, "{}", 2, NULL, 0, NULL), KVC_ERR_USAGE);
    kvc_worker_free(w);
}

static void test_worker__shortcut_flags_carry_their_origin(void **state)
{
    (void)state;
    kvc_worker *w = worker_make("B300", "glm-5.2", "--disaggregation-mode decode --enable-hisparse --disable-radix-cache");
    kvc_resolved *r = NULL;
    kvc_diag d;
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    const kvc_setting *s = kvc_resolved_find(r, "enable_hisparse");
    assert_string_not_equal(s->file, "");
    assert_int_equal(s->line, 1);
    assert_true(s->column > 1);
    kvc_resolved_free(r);
    kvc_worker_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker__a_server_reply_loads_with_its_release_and_positions),
        cmocka_unit_test(test_worker__what_is_not_a_server_info_reply_is_an_io_error),
        cmocka_unit_test(test_worker__without_the_reply_flag_json_text_loads_as_a_file_would),
        cmocka_unit_test(test_worker__load_json_refuses_what_the_api_does_not_take),
        cmocka_unit_test(test_worker__shortcut_flags_carry_their_origin),
        cmocka_unit_test(test_worker__a_dump_s_lists_are_not_checked_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
