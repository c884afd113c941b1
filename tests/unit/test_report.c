#include "support.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static cJSON *parse_doc(char *text)
{
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    if (!doc) fail_msg("not JSON: %s", text);
    kvc_free(text);
    return doc;
}

static void test_report__layout_json_has_the_stable_keys(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode decode --enable-hisparse --disable-radix-cache", NULL, &r, &d), KVC_OK);
    cJSON *doc = parse_doc(kvc_report_layout(&r, KVC_FORMAT_JSON, 0));
    const cJSON *layout = cJSON_GetObjectItem(doc, "layout");
    assert_string_equal(cJSON_GetObjectItem(layout, "name")->valuestring, "fp8_flashmla");
    assert_int_equal(cJSON_GetObjectItem(layout, "bytes_per_token")->valueint, 656);
    assert_int_equal(cJSON_GetObjectItem(layout, "page_size")->valueint, 64);
    assert_int_equal(cJSON_GetObjectItem(layout, "page_bytes")->valueint, 41984);
    const cJSON *fields = cJSON_GetObjectItem(layout, "fields");
    assert_int_equal(cJSON_GetArraySize(fields), 3);
    const cJSON *scale = cJSON_GetArrayItem(fields, 1);
    assert_string_equal(cJSON_GetObjectItem(scale, "name")->valuestring, "scale");
    assert_string_equal(cJSON_GetObjectItem(scale, "type")->valuestring, "fp32");
    assert_int_equal(cJSON_GetObjectItem(scale, "offset")->valueint, 512);
    assert_int_equal(cJSON_GetObjectItem(scale, "size")->valueint, 16);
    const cJSON *res = cJSON_GetObjectItem(doc, "resolved");
    assert_string_equal(cJSON_GetObjectItem(res, "kv_cache_dtype")->valuestring, "fp8_e4m3");
    assert_string_equal(cJSON_GetObjectItem(res, "dsa_prefill_backend")->valuestring, "flashmla_kv");
    assert_string_equal(cJSON_GetObjectItem(res, "dsa_decode_backend")->valuestring, "flashmla_kv");
    assert_int_equal(cJSON_GetObjectItem(res, "page_size")->valueint, 64);
    assert_string_equal(cJSON_GetObjectItem(res, "disaggregation_mode")->valuestring, "decode");
    assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "reasons"), "dsa_decode_backend"));
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "indexer"), "page_bytes")->valueint, 8448);
    cJSON_Delete(doc);
}

static void test_report__check_json_has_the_stable_keys(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("B300", "glm-5.2", "--disaggregation-mode prefill");
    kvc_worker *dw = worker_make("B300", "glm-5.2", "--disaggregation-mode decode --enable-hisparse --disable-radix-cache");
    kvc_verdict *v = NULL;
    kvc_diag d;
    assert_int_equal(kvc_compare(p, dw, &v, &d), KVC_OK);
    cJSON *doc = parse_doc(kvc_report_check(v, KVC_FORMAT_JSON, 0));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(doc, "compatible")));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "prefill"), "layout"), "name")->valuestring, "fp8_raw");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "decode"), "layout"), "name")->valuestring, "fp8_flashmla");
    const cJSON *mm = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "mismatches"), 0);
    assert_string_equal(cJSON_GetObjectItem(mm, "field")->valuestring, "layout");
    assert_string_equal(cJSON_GetObjectItem(mm, "prefill")->valuestring, "fp8_raw");
    assert_string_equal(cJSON_GetObjectItem(mm, "decode")->valuestring, "fp8_flashmla");
    const cJSON *fix = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "fixes"), 0);
    assert_string_equal(cJSON_GetObjectItem(fix, "worker")->valuestring, "prefill");
    const cJSON *args = cJSON_GetObjectItem(fix, "add_args");
    assert_int_equal(cJSON_GetArraySize(args), 2); /* 0.5.23: the prefill worker's own backend decides */
    assert_string_equal(cJSON_GetArrayItem(args, 0)->valuestring, "--dsa-prefill-backend");
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(doc, "warnings")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "sglang_bootstrap"), "catches")));
    cJSON_Delete(doc);
    char *text = kvc_report_check(v, KVC_FORMAT_TEXT, 0);
    assert_contains(text, "INCOMPATIBLE: prefill writes fp8_raw (576 B/token), decode reads fp8_flashmla (656 B/token)");
    assert_contains(text, "Fix: add to the prefill launch command (SGLang 0.5.23):\n    --dsa-prefill-backend flashmla_kv\n");
    assert_null(strstr(text, "\033["));
    kvc_free(text);
    text = kvc_report_check(v, KVC_FORMAT_TEXT, KVC_REPORT_COLOR | KVC_REPORT_QUIET);
    assert_contains(text, "\033[31mINCOMPATIBLE\033[0m");
    assert_null(strchr(strchr(text, '\n') + 1, '\n')); /* one line */
    kvc_free(text);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(dw);
}

static void test_report__errors_carry_code_name_and_position(void **state)
{
    (void)state;
    kvc_diag d;
    kvc_origin o;
    origin_set(&o, "w.json", 4, 7, "args[2]");
    diag_set(&d, KVC_ERR_CONFIG, &o, "--page-size needs a value");
    cJSON *doc = parse_doc(kvc_report_error(&d, 3, KVC_FORMAT_JSON));
    const cJSON *e = cJSON_GetObjectItem(doc, "error");
    assert_int_equal(cJSON_GetObjectItem(e, "code")->valueint, 3);
    assert_string_equal(cJSON_GetObjectItem(e, "name")->valuestring, "KVC_ERR_CONFIG");
    assert_string_equal(cJSON_GetObjectItem(e, "message")->valuestring, "--page-size needs a value");
    assert_int_equal(cJSON_GetObjectItem(e, "line")->valueint, 4);
    assert_int_equal(cJSON_GetObjectItem(e, "column")->valueint, 7);
    assert_string_equal(cJSON_GetObjectItem(e, "where")->valuestring, "args[2]");
    cJSON_Delete(doc);
    char *text = kvc_report_error(&d, 3, KVC_FORMAT_TEXT);
    assert_string_equal(text, "kvcheck: error: w.json:4:7: --page-size needs a value\n");
    kvc_free(text);
    assert_string_equal(kvc_status_name(KVC_ERR_IO), "KVC_ERR_IO");
    assert_string_equal(kvc_status_name((kvc_status)99), "KVC_ERR_UNKNOWN");
}

static void test_report__input_is_escaped_in_text_and_valid_utf8_in_json(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--host '\x1b]0;x\x07\x1b[31mred\xc2\x9b caf\xe9 \xc3\xa9t\xc3\xa9'",
                                  NULL, &r, &d),
                     KVC_OK);
    str_copy(r.label, sizeof r.label, "la\x1b[2Jbel\xff");
    char *text = kvc_report_layout(&r, KVC_FORMAT_TEXT, KVC_REPORT_VERBOSE);
    assert_non_null(text);
    for (const char *p = text; *p; p++) assert_true((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\t');
    assert_contains(text, "la\\x1b[2Jbel\\xff: ");
    assert_contains(text, "--host \\x1b]0;x\\x07\\x1b[31mred\\u009b caf\\xe9 \xc3\xa9t\xc3\xa9");
    kvc_free(text);
    /* colour comes only from the report's own marks */
    text = kvc_report_layout(&r, KVC_FORMAT_TEXT, KVC_REPORT_COLOR | KVC_REPORT_QUIET);
    assert_non_null(text);
    assert_string_equal(strstr(text, "bel"), "bel\\xff\x1b[0m: fp8_raw, 576 B/token, 36864 B/page\n");
    assert_true(strncmp(text, "\x1b[1mla\\x1b[2J", 13) == 0);
    kvc_free(text);
    /* JSON: parses, and holds U+FFFD where the input was not UTF-8 */
    text = kvc_report_layout(&r, KVC_FORMAT_JSON, 0);
    assert_non_null(text);
    for (size_t i = 0, n = strlen(text); i < n;) {
        size_t k = utf8_len((const unsigned char *)text + i, n - i);
        assert_true(k > 0);
        i += k;
    }
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "worker")->valuestring, "la\x1b[2Jbel\xef\xbf\xbd");
    assert_contains(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "ignored_flags"), 0)->valuestring,
                    "caf\xef\xbf\xbd \xc3\xa9t\xc3\xa9");
    cJSON_Delete(doc);
    kvc_free(text);
    /* errors too */
    diag_set(&d, KVC_ERR_CONFIG, NULL, "bad \x1b[31m\x07 value");
    text = kvc_report_error(&d, 3, KVC_FORMAT_TEXT);
    assert_string_equal(text, "kvcheck: error: bad \\x1b[31m\\x07 value\n");
    kvc_free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report__layout_json_has_the_stable_keys),
        cmocka_unit_test(test_report__check_json_has_the_stable_keys),
        cmocka_unit_test(test_report__errors_carry_code_name_and_position),
        cmocka_unit_test(test_report__input_is_escaped_in_text_and_valid_utf8_in_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
