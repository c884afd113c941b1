/* SGLang's launch flags, config YAML and server_info keys (src/engine/sglang). */
#include "support.h"
#include "engine/sglang/sglang.h"

#include <string.h>

/* A pasted command line, split as the worker splits it, read as SGLang flags. */
static kvc_status args_parse_line(arglist *list, const char *line, const char *origin, kvc_diag *d)
{
    shell_words w;
    kvc_status st = shell_split(line, origin, &w, d);
    word_list words = {.words = w.words, .n = w.n, .file = origin, .lines = w.lines, .columns = w.columns};
    if (!st) st = args_parse_words(list, &words, d);
    shell_words_free(&w);
    return st;
}

static settings *fold_line(const char *line, kvc_status *st, kvc_diag *d)
{
    static settings s;
    arglist cli = {0}, cfg = {0};
    *st = args_parse_line(&cli, line, "--args", d);
    if (!*st) *st = settings_build(&cfg, &cli, ".", &s, d);
    arglist_free(&cli);
    return &s;
}

static void test_args__program_words_are_skipped_and_values_taken(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("python3 -m sglang.launch_server --model-path zai-org/GLM-5.2 --page-size 32 "
                            "--kv-cache-dtype=fp8_e4m3 --enable-hisparse",
                            &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_MODEL_PATH].value, "zai-org/GLM-5.2");
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "32");
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_true(s->s[SET_HISPARSE].set);
    assert_false(s->s[SET_DISABLE_RADIX].set);
}

static void test_args__quotes_escapes_and_continuations(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("env A=1 python3 -m x \\\n  --model-path 'my model' \\\n  --disaggregation-mode \"decode\" "
                            "--page-size 6\\4",
                            &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_MODEL_PATH].value, "my model");
    assert_string_equal(s->s[SET_DISAGG_MODE].value, "decode");
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
    /* positions count lines of the pasted command */
    assert_int_equal(s->s[SET_DISAGG_MODE].origin.line, 3);
    assert_int_equal(s->s[SET_DISAGG_MODE].origin.column, 3);
}

static void test_args__underscores_and_nsa_aliases(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("--kv_cache_dtype bf16 --nsa-prefill-backend fa3 --nsa_decode_backend trtllm --tp 4 --dp-size 2",
                            &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "bf16");
    assert_string_equal(s->s[SET_PREFILL_BACKEND].value, "fa3");
    assert_string_equal(s->s[SET_PREFILL_BACKEND].flag, "--nsa-prefill-backend");
    assert_string_equal(s->s[SET_DECODE_BACKEND].value, "trtllm");
    assert_string_equal(s->s[SET_TP].value, "4");
    assert_string_equal(s->s[SET_DP].value, "2");
}

static void test_args__later_flags_win(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("--page-size 16 --page-size 64", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
}

static void test_args__unknown_flags_take_their_words_and_are_listed(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("--mem-fraction-static 0.8 --cuda-graph-bs 1 2 4 --trust-remote-code --page-size 64", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
    assert_int_equal(s->nignored, 3);
    assert_contains(s->ignored[0], "--mem-fraction-static 0.8");
    assert_contains(s->ignored[1], "--cuda-graph-bs 1 2 4");
    assert_contains(s->ignored[2], "--trust-remote-code");
}

static void test_args__a_flag_without_its_value_is_an_error(void **state)
{
    (void)state;
    const char *lines[] = {"--page-size", "--kv-cache-dtype --page-size 64"};
    for (size_t i = 0; i < 2; i++) {
        kvc_status st;
        kvc_diag d;
        fold_line(lines[i], &st, &d);
        assert_int_equal(st, KVC_ERR_CONFIG);
        assert_contains(d.message, "needs a value");
        assert_int_equal(d.line, 1);
        assert_int_equal(d.column, 1);
    }
}

static void test_args__store_true_flags_take_no_value(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    fold_line("--enable-hisparse=true", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "takes no value");
}

static void test_args__unterminated_quote_and_stray_words(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    fold_line("--model-path 'abc", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "unterminated single quote");
    assert_int_equal(d.column, 14);
    fold_line("--enable-hisparse stray", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "unexpected word 'stray'");
}

static void test_args__server_info_keys(void **state)
{
    (void)state;
    arglist list = {0}, cfg = {0};
    kvc_origin o;
    kvc_diag d;
    settings s;
    origin_set(&o, "info.json", 2, 3, "");
    assert_int_equal(args_add_key(&list, "nsa_decode_backend", "fa3", 1, &o, &d), KVC_OK);
    assert_int_equal(args_add_key(&list, "enable_hisparse", "true", 0, &o, &d), KVC_OK); /* false */
    assert_int_equal(args_add_key(&list, "disable_radix_cache", "true", 1, &o, &d), KVC_OK);
    assert_int_equal(args_add_key(&list, "mem_fraction_static", "0.8", 1, &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &list, ".", &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_DECODE_BACKEND].value, "fa3");
    assert_false(s.s[SET_HISPARSE].set);
    assert_true(s.s[SET_DISABLE_RADIX].set);
    assert_int_equal(s.nignored, 1);
    arglist_free(&list);
}

static void test_args__yaml_config_becomes_flags_and_command_line_wins(void **state)
{
    (void)state;
    arglist cfg = {0}, cli = {0};
    kvc_diag d;
    settings s;
    assert_int_equal(args_load_yaml(&cfg, "fixtures/workers/glm52-decode.yaml", &d), KVC_OK);
    assert_int_equal(args_parse_line(&cli, "--page-size 32", "--args", &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_DISAGG_MODE].value, "decode");
    assert_string_equal(s.s[SET_DISAGG_MODE].origin.file, "fixtures/workers/glm52-decode.yaml");
    assert_int_equal(s.s[SET_DISAGG_MODE].origin.line, 3);
    assert_true(s.s[SET_HISPARSE].set);
    assert_string_equal(s.s[SET_PAGE_SIZE].value, "32"); /* the command line wins */
    assert_int_equal(s.nignored, 0);                    /* enable-metrics: false is omitted */
    arglist_free(&cfg);
    arglist_free(&cli);
}

static void expect_yaml_error(const char *text, const char *message, unsigned line, unsigned column)
{
    arglist list = {0};
    kvc_diag d;
    const char *path = temp_file(".yaml", text);
    assert_int_equal(args_load_yaml(&list, path, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, message);
    assert_int_equal(d.line, line);
    assert_int_equal(d.column, column);
    assert_string_equal(d.file, path);
    arglist_free(&list);
}

static void test_args__bad_yaml_is_reported_with_line_and_column(void **state)
{
    (void)state;
    expect_yaml_error("page-size: 64\nkv-cache-dtype: [fp8\n", "malformed YAML", 3, 1);
    expect_yaml_error("page-size: 64\npage-size: 32\n", "duplicate key 'page-size'", 2, 1);
    expect_yaml_error("page-size:\n  a: 1\n", "not a mapping", 2, 3);
    expect_yaml_error("enable-hisparse: maybe\n", "on/off flag", 1, 18);
    expect_yaml_error("- a\n- b\n", "must be a mapping", 1, 1);
    expect_yaml_error("page-size: [32, 64]\n", "takes one value", 1, 1);
}

static void test_args__config_on_the_command_line_is_loaded(void **state)
{
    (void)state;
    arglist cfg = {0}, cli = {0};
    kvc_diag d;
    settings s;
    assert_int_equal(args_parse_line(&cli, "--config fixtures/workers/glm52-decode.yaml --tp 4", "--args", &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_string_equal(s.s[SET_TP].value, "4");
    arglist_free(&cli);
    assert_int_equal(args_parse_line(&cli, "--config missing.yaml", "--args", &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", &s, &d), KVC_ERR_IO);
    assert_contains(d.message, "cannot open missing.yaml");
    arglist_free(&cli);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args__program_words_are_skipped_and_values_taken),
        cmocka_unit_test(test_args__quotes_escapes_and_continuations),
        cmocka_unit_test(test_args__underscores_and_nsa_aliases),
        cmocka_unit_test(test_args__later_flags_win),
        cmocka_unit_test(test_args__unknown_flags_take_their_words_and_are_listed),
        cmocka_unit_test(test_args__a_flag_without_its_value_is_an_error),
        cmocka_unit_test(test_args__store_true_flags_take_no_value),
        cmocka_unit_test(test_args__unterminated_quote_and_stray_words),
        cmocka_unit_test(test_args__server_info_keys),
        cmocka_unit_test(test_args__yaml_config_becomes_flags_and_command_line_wins),
        cmocka_unit_test(test_args__bad_yaml_is_reported_with_line_and_column),
        cmocka_unit_test(test_args__config_on_the_command_line_is_loaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
