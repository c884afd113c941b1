/* What every stage shares: lists joined into fixed buffers never lose an
 * item silently, and the clock only runs forward. */
#include "support.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void test_common__join_separates_items_and_starts_without_one(void **state)
{
    (void)state;
    char out[32] = "";
    str_join_add(out, sizeof out, ", ", "bf16");
    assert_string_equal(out, "bf16");
    str_join_add(out, sizeof out, ", ", "fp8_raw");
    str_join_add(out, sizeof out, ", ", "fp8_flashmla");
    assert_string_equal(out, "bf16, fp8_raw, fp8_flashmla");
}

static void test_common__join_that_does_not_fit_ends_with_dots_and_takes_no_more(void **state)
{
    (void)state;
    char out[16] = "";
    str_join_add(out, sizeof out, ", ", "bf16");
    str_join_add(out, sizeof out, ", ", "fp8_flashmla"); /* "bf16, fp8_flashmla" is 18 characters */
    assert_string_equal(out, "bf16, fp8_fl...");
    assert_int_equal(strlen(out), sizeof out - 1);
    str_join_add(out, sizeof out, ", ", "x"); /* would fit after "bf16" alone: must not follow the dots */
    assert_string_equal(out, "bf16, fp8_fl...");
}

static void test_common__join_that_filled_the_buffer_exactly_marks_the_next_item_cut(void **state)
{
    (void)state;
    char out[10] = "";
    str_join_add(out, sizeof out, ", ", "abc");
    str_join_add(out, sizeof out, ", ", "defg"); /* "abc, defg": 9 characters, the buffer is full */
    assert_string_equal(out, "abc, defg");
    str_join_add(out, sizeof out, ", ", "h");
    assert_string_equal(out, "abc, d...");
}

static void test_common__clock_runs_forward(void **state)
{
    (void)state;
    double a = clock_seconds(), b = clock_seconds();
    assert_true(a > 0);
    assert_true(b >= a);
}

/* A big JSON text: "args" with n elements, one per line, after a few keys. */
static char *big_args(size_t n)
{
    strbuf sb = {0};
    sb_puts(&sb, "{\n  \"gpu\": \"B300\",\n  \"model\": {\"args\": [1]},\n  \"args\": [\n");
    for (size_t i = 0; i < n; i++) sb_printf(&sb, "    \"w%zu\"%s\n", i, i + 1 < n ? "," : "");
    sb_puts(&sb, "  ]\n}\n");
    assert_false(sb.oom);
    return sb_take(&sb);
}

static void test_common__element_positions_of_a_300000_word_list(void **state)
{
    (void)state;
    size_t n = 300000;
    char *text = big_args(n);
    cJSON *root = NULL;
    kvc_diag d;
    assert_int_equal(json_parse(text, strlen(text), "big.json", &root, &d), KVC_OK);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "args")), (int)n);
    unsigned *lines = calloc(n, sizeof *lines), *cols = calloc(n, sizeof *cols);
    assert_true(lines && cols);
    /* the top-level "args", not the one inside "model" */
    json_locate_elements(text, "args", n, lines, cols);
    assert_int_equal(lines[0], 5);
    assert_int_equal(cols[0], 5);
    assert_int_equal(lines[n / 2], 5 + n / 2);
    assert_int_equal(lines[n - 1], 5 + n - 1);
    assert_int_equal(cols[n - 1], 5);
    /* the top-level keys, in order */
    json_locate_members(text, 4, lines, cols);
    assert_int_equal(lines[0], 2);
    assert_int_equal(lines[1], 3);
    assert_int_equal(lines[2], 4);
    assert_int_equal(cols[2], 3);
    assert_int_equal(lines[3], 0); /* there is no fourth */
    free(lines);
    free(cols);
    cJSON_Delete(root);
    free(text);
}

static void test_common__duplicate_key_among_60000_is_found(void **state)
{
    (void)state;
    strbuf sb = {0};
    sb_puts(&sb, "{\n");
    for (unsigned i = 0; i < 60000; i++) sb_printf(&sb, "\"key_%u\": %u,\n", i, i);
    sb_puts(&sb, "\"key_59999\": 1\n}\n");
    char *text = sb_take(&sb);
    cJSON *root = NULL;
    kvc_diag d;
    assert_int_equal(json_parse(text, strlen(text), "dump.json", &root, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "duplicate key \"key_59999\"");
    assert_int_equal(d.line, 60002);
    assert_int_equal(d.column, 1);
    /* without the duplicate it parses */
    *strstr(text, "\"key_59999\": 1") = '\0';
    strcat(text, "\"last\": 1}");
    assert_int_equal(json_parse(text, strlen(text), "dump.json", &root, &d), KVC_OK);
    assert_int_equal(cJSON_GetArraySize(root), 60001);
    cJSON_Delete(root);
    free(text);
}

static void expect_json_error(const char *text, size_t len, const char *message, unsigned line, unsigned column)
{
    cJSON *root = NULL;
    kvc_diag d;
    assert_int_equal(json_parse(text, len, "f.json", &root, &d), KVC_ERR_CONFIG);
    assert_null(root);
    assert_contains(d.message, message);
    assert_string_equal(d.file, "f.json");
    assert_int_equal(d.line, line);
    assert_int_equal(d.column, column);
}

static void test_common__nul_text_after_the_document_and_deep_nesting_are_refused(void **state)
{
    (void)state;
    static const char nul_byte[] = "{\"a\": 1}\n\0{\"b\": 2}";
    expect_json_error(nul_byte, sizeof nul_byte - 1, "a NUL byte", 2, 1);
    static const char nul_in_string[] = "{\"a\": \"x\0y\"}";
    expect_json_error(nul_in_string, sizeof nul_in_string - 1, "a NUL byte", 1, 9);
    const char *escape = "{\n  \"a\": \"fp8_e4m3\\u0000bf16\"}";
    expect_json_error(escape, strlen(escape), "\"\\u0000\" (a NUL character) in a string", 2, 17);
    expect_json_error("{\"a\": 1} {\"b\": 2}", 16, "text after the end of the document", 1, 10);
    /* an escaped backslash before u0000 is no NUL */
    cJSON *root = NULL;
    kvc_diag d;
    const char *fine = "{\"a\": \"x\\\\u0000\"}";
    assert_int_equal(json_parse(fine, strlen(fine), "f.json", &root, &d), KVC_OK);
    assert_string_equal(cJSON_GetObjectItem(root, "a")->valuestring, "x\\u0000");
    cJSON_Delete(root);
    /* nested as deep as cJSON reads, and one deeper */
    char deep[2 * CJSON_NESTING_LIMIT + 16];
    for (int depth = CJSON_NESTING_LIMIT; depth <= CJSON_NESTING_LIMIT + 1; depth++) {
        size_t n = 0;
        for (int i = 0; i < depth; i++) deep[n++] = '[';
        for (int i = 0; i < depth; i++) deep[n++] = ']';
        deep[n] = '\0';
        kvc_status st = json_parse(deep, n, "f.json", &root, &d);
        if (depth == CJSON_NESTING_LIMIT) {
            assert_int_equal(st, KVC_OK);
            cJSON_Delete(root);
        } else {
            assert_int_equal(st, KVC_ERR_CONFIG);
            assert_contains(d.message, "nested too deeply");
            assert_int_equal(d.column, CJSON_NESTING_LIMIT + 1);
        }
    }
}

static void test_common__strset_finds_equal_strings_only(void **state)
{
    (void)state;
    strset set = {0};
    char names[1000][16];
    for (int i = 0; i < 1000; i++) {
        snprintf(names[i], sizeof names[i], "k%d", i);
        assert_int_equal(strset_add(&set, names[i]), 1);
    }
    char again[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(again, sizeof again, "k%d", i);
        assert_int_equal(strset_add(&set, again), 0);
    }
    assert_int_equal(set.n, 1000);
    strset_free(&set);
    strset_free(&set); /* twice is harmless */
}

static void test_common__utf8_lengths(void **state)
{
    (void)state;
    assert_int_equal(utf8_len((const unsigned char *)"a", 1), 1);
    assert_int_equal(utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);          /* e acute */
    assert_int_equal(utf8_len((const unsigned char *)"\xe2\x80\x94", 3), 3);      /* em dash */
    assert_int_equal(utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);  /* emoji */
    assert_int_equal(utf8_len((const unsigned char *)"\xe9 ", 2), 0);              /* Latin-1 */
    assert_int_equal(utf8_len((const unsigned char *)"\xc0\xaf", 2), 0);          /* overlong */
    assert_int_equal(utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);      /* surrogate */
    assert_int_equal(utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);  /* past U+10FFFF */
    assert_int_equal(utf8_len((const unsigned char *)"\xe2\x80", 2), 0);          /* cut short */
    assert_int_equal(utf8_len((const unsigned char *)"\xff", 1), 0);
}

static void test_common__notes_and_diagnostics_that_do_not_fit_end_with_dots(void **state)
{
    (void)state;
    char notes[2][KVC_NOTE_LEN];
    unsigned n = 0;
    char long_text[5000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    notes_add(notes, &n, 2, "%s", long_text);
    assert_int_equal(n, 1);
    assert_int_equal(strlen(notes[0]), KVC_NOTE_LEN - 1);
    assert_string_equal(notes[0] + KVC_NOTE_LEN - 4, "...");
    kvc_diag d;
    kvc_origin o;
    origin_set(&o, long_text, 1, 2, "");
    assert_string_equal(o.file + sizeof o.file - 4, "...");
    diag_set(&d, KVC_ERR_CONFIG, &o, "value %s", long_text);
    assert_string_equal(d.message + sizeof d.message - 4, "...");
    /* a joined path that does not fit is refused with the limit */
    char path[KVC_PATH_LEN];
    long_text[600] = '\0';
    assert_int_equal(path_join_checked(".", long_text, path, sizeof path, NULL, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "is 600 bytes long: kvcheck takes paths of up to 511 bytes");
    long_text[300] = '\0';
    assert_int_equal(path_join_checked(long_text, long_text, path, sizeof path, NULL, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "is 601 bytes long");
    assert_int_equal(path_join_checked("dir", long_text, path, sizeof path, NULL, &d), KVC_OK);
    assert_int_equal(strlen(path), 304);
}

/* Python's repr() of a str: the quote it picks, its escapes (each expected text is CPython 3.11's), and no repr for
 * text that is not ASCII */
static void test_common__python_str_repr(void **state)
{
    (void)state;
    static const struct {
        const char *in, *repr;
    } R[] = {
        {"foo", "'foo'"}, {"a'b", "\"a'b\""}, {"a\"b", "'a\"b'"}, {"a'b\"c", "'a\\'b\"c'"},
        {"a\\b", "'a\\\\b'"}, {"\x01\t\n\r\x7f", "'\\x01\\t\\n\\r\\x7f'"}, {"", "''"},
    };
    for (size_t i = 0; i < COUNT_OF(R); i++) {
        strbuf sb = {0};
        assert_int_equal(py_str_repr(R[i].in, &sb), 1);
        assert_string_equal(sb.p, R[i].repr);
        free(sb.p);
    }
    strbuf sb = {0};
    assert_int_equal(py_str_repr("caf\xc3\xa9", &sb), 0);
    assert_null(sb.p);
}

/* Python's ints as text: signs, carries, borrows, no "-0", no leading zeros, and a size that does not fit */
static void test_common__python_int_arithmetic(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b, *sum, *product;
    } C[] = {
        {"0", "0", "0", "0"},
        {"99999", "10000", "109999", "999990000"},
        {"-9999", "10000", "1", "-99990000"},
        {"-10000", "10000", "0", "-100000000"},
        {"-10001", "10000", "-1", "-100010000"},
        {"5", "-7", "-2", "-35"},
        {"-5", "-7", "-12", "35"},
        {"-3", "0", "-3", "0"},
        {"123456789012345678901234567890", "987654321098765432109876543210", "1111111110111111111011111111100",
         "121932631137021795226185032733622923332237463801111263526900"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char out[128];
        assert_true(int_add(C[i].a, C[i].b, out, sizeof out));
        assert_string_equal(out, C[i].sum);
        assert_true(int_mul(C[i].a, C[i].b, out, sizeof out));
        assert_string_equal(out, C[i].product);
    }
    char small[3];
    assert_false(int_add("99", "1", small, sizeof small)); /* "100" needs 4 bytes */
    assert_false(int_mul("x", "1", small, sizeof small));
    assert_int_equal(int_cmp("-10", "-9"), -1);
    assert_int_equal(int_cmp("-1", "0"), -1);
    assert_int_equal(int_cmp("10", "9"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_common__join_separates_items_and_starts_without_one),
        cmocka_unit_test(test_common__join_that_does_not_fit_ends_with_dots_and_takes_no_more),
        cmocka_unit_test(test_common__join_that_filled_the_buffer_exactly_marks_the_next_item_cut),
        cmocka_unit_test(test_common__clock_runs_forward),
        cmocka_unit_test(test_common__element_positions_of_a_300000_word_list),
        cmocka_unit_test(test_common__duplicate_key_among_60000_is_found),
        cmocka_unit_test(test_common__nul_text_after_the_document_and_deep_nesting_are_refused),
        cmocka_unit_test(test_common__strset_finds_equal_strings_only),
        cmocka_unit_test(test_common__utf8_lengths),
        cmocka_unit_test(test_common__python_str_repr),
        cmocka_unit_test(test_common__python_int_arithmetic),
        cmocka_unit_test(test_common__notes_and_diagnostics_that_do_not_fit_end_with_dots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
