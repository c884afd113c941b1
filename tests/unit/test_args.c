/* SGLang's launch flags, config YAML and server_info keys (src/engine/sglang). */
#include "support.h"
#include "engine/sglang/sglang.h"
#include "worker/worker.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A pasted command line, split as the worker splits it, read as SGLang flags. */
static kvc_status args_parse_line(arglist *list, const char *line, const char *origin, kvc_diag *d)
{
    shell_words w;
    kvc_status st = shell_split(line, origin, &w, d);
    word_list words = {
        .words = w.words, .n = w.n, .file = origin, .lines = w.lines, .columns = w.columns, .assign = w.assign};
    if (!st) st = args_parse_words(list, &words, d);
    shell_words_free(&w);
    return st;
}

/* The line read as SGLang `version` parses it. */
static settings *fold_line_in(const char *version, const char *line, kvc_status *st, kvc_diag *d)
{
    static settings s;
    arglist cli = {0}, cfg = {0};
    int release = sglang_release_index(version);
    assert_true(release >= 0);
    *st = args_parse_line(&cli, line, "--args", d);
    if (!*st) *st = settings_build(&cfg, &cli, ".", (unsigned)release, &s, d);
    arglist_free(&cli);
    return &s;
}

/* The line read by the newest release. */
static settings *fold_line(const char *line, kvc_status *st, kvc_diag *d)
{
    return fold_line_in(SGLANG_VERSIONS[0], line, st, d);
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

/* Flags given alone: leading NAME=value words are the environment; other
 * words before the first flag that name no launcher are warned about. */
static void test_args__words_before_the_flags_are_never_dropped(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line_in("0.5.9", "SGLANG_ENABLE_SPEC_V2=1 _X9=a=b --page-size 32", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_true(s->s[SET_SPEC_V2_ENV].set);
    assert_string_equal(s->s[SET_SPEC_V2_ENV].value, "1");
    assert_int_equal(s->nignored, 1); /* _X9: an environment variable kvcheck models none of */
    assert_contains(s->ignored[0], "_X9=a=b");
    assert_int_equal(s->nwarnings, 0);
    s = fold_line("./serve.sh 9A=1 --page-size 32", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "32");
    assert_int_equal(s->nwarnings, 1);
    assert_string_equal(s->warnings[0], "--args:1:1: './serve.sh 9A=1' before the first flag is no launcher kvcheck "
                        "knows (python3 -m sglang.launch_server, sglang serve, python3 -m dynamo.sglang): the flags "
                        "after it are read as SGLang's");
    /* an assignment after the program is the program's argument, not the environment */
    s = fold_line("./serve.sh SGLANG_ENABLE_SPEC_V2=1 --page-size 32", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_false(s->s[SET_SPEC_V2_ENV].set);
    assert_contains(s->warnings[0], "'./serve.sh SGLANG_ENABLE_SPEC_V2=1'");
    /* a quoted name is no assignment, and a worker file's list holds argv words, not shell text: both warned */
    s = fold_line("\"SGLANG_ENABLE_SPEC_V2\"=1 --page-size 32", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_false(s->s[SET_SPEC_V2_ENV].set);
    assert_contains(s->warnings[0], "'SGLANG_ENABLE_SPEC_V2=1' before the first flag is no launcher");
    char *words[] = {"SGLANG_ENABLE_SPEC_V2=1", "--page-size", "32"};
    word_list list = {.words = words, .n = 3, .file = "w.json", .elements = 1};
    arglist cli = {0}, cfg = {0};
    assert_int_equal(args_parse_words(&cli, &list, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, s, &d), KVC_OK);
    arglist_free(&cli);
    assert_false(s->s[SET_SPEC_V2_ENV].set);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "32");
    assert_contains(s->warnings[0], "'SGLANG_ENABLE_SPEC_V2=1' before the first flag is no launcher");
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

static void test_args__underscores_are_refused_and_nsa_aliases_read_per_release(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    /* no release's parser has an underscore spelling: argparse refuses it */
    fold_line("--kv_cache_dtype bf16 --tp-size 4", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "\"sglang serve: error: unrecognized arguments: --kv_cache_dtype bf16\"");
    assert_contains(d.message, "--kv_cache_dtype: did you mean --kv-cache-dtype?");
    /* 0.5.15 reads the old name into the new dest, with its warning */
    settings *s = fold_line_in("0.5.15", "--nsa-prefill-backend fa3 --dsa-decode-backend trtllm --tp 4 --dp-size 2",
                               &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PREFILL_BACKEND].value, "fa3");
    assert_string_equal(s->s[SET_PREFILL_BACKEND].flag, "--nsa-prefill-backend");
    assert_string_equal(s->s[SET_DECODE_BACKEND].value, "trtllm");
    assert_string_equal(s->s[SET_TP].value, "4");
    assert_string_equal(s->s[SET_DP].value, "2");
    assert_contains(s->warnings[0], "--nsa-prefill-backend (--args:1:1): SGLang warns: '--nsa-prefill-backend' is "
                                    "deprecated and will be removed in a future release. Use "
                                    "'--dsa-prefill-backend' instead.");
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
    settings *s = fold_line("--mem-fraction-static 0.8 --numa-node 1 2 4 --trust-remote-code --page-size 64",
                            &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
    assert_int_equal(s->nignored, 3);
    assert_contains(s->ignored[0], "--mem-fraction-static 0.8");
    assert_contains(s->ignored[1], "--numa-node 1 2 4");
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
        assert_contains(d.message, "error: argument --");
        assert_contains(d.message, ": expected one argument\"; give the flag its value");
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
    assert_contains(d.message, "\"sglang serve: error: argument --enable-hisparse: ignored explicit argument "
                               "'true'\"; the flag takes no value");
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
    assert_contains(d.message, "unrecognized arguments: stray\"");
}

static void test_args__server_info_keys(void **state)
{
    (void)state;
    arglist list = {0}, cfg = {0};
    kvc_origin o;
    kvc_diag d;
    settings s;
    origin_set(&o, "info.json", 2, 3, "");
    assert_int_equal(args_push(&list, ARG_DUMP, "dsa_decode_backend", "fa3", &o, &d), KVC_OK);
    assert_int_equal(args_push(&list, ARG_DUMP, "enable_hisparse", "False", &o, &d), KVC_OK);
    list.v[list.n - 1].dump_bool = 2;
    assert_int_equal(args_push(&list, ARG_DUMP, "disable_radix_cache", "True", &o, &d), KVC_OK);
    list.v[list.n - 1].dump_bool = 1;
    assert_int_equal(args_push(&list, ARG_DUMP, "mem_fraction_static", "0.8", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &list, ".", 0, &s, &d), KVC_OK);
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
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, &s, &d), KVC_OK);
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
    expect_yaml_error("- a\n- b\n", "must be a mapping", 1, 1);
}

static void test_args__config_on_the_command_line_is_loaded(void **state)
{
    (void)state;
    arglist cfg = {0}, cli = {0};
    kvc_diag d;
    settings s;
    assert_int_equal(args_parse_line(&cli, "--config fixtures/workers/glm52-decode.yaml --tp 4", "--args", &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_string_equal(s.s[SET_TP].value, "4");
    arglist_free(&cli);
    assert_int_equal(args_parse_line(&cli, "--config missing.yaml", "--args", &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, &s, &d), KVC_ERR_IO);
    assert_contains(d.message, "cannot open missing.yaml");
    arglist_free(&cli);
}

#define EM "\xe2\x80\x94" /* an em dash */
#define EN "\xe2\x80\x93" /* an en dash */

static void test_args__mangled_dashes_are_read_as_the_flag_with_a_warning(void **state)
{
    (void)state;
    kvc_status st;
    kvc_diag d;
    settings *s = fold_line("python3 -m sglang.launch_server " EM "enable-hisparse " EN "kv-cache-dtype fp8_e4m3 "
                            "-page-size 32 ---tp 4 " EM "" EM "dp-size=2 -m x",
                            &st, &d);
    /* "-m" after the flags names no flag: argparse's unknown option */
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "unrecognized arguments: -m x\"");
    s = fold_line("python3 -m sglang.launch_server " EM "enable-hisparse " EN "kv-cache-dtype fp8_e4m3 "
                  "-page-size 32 ---tp 4 " EM "" EM "dp-size=2",
                  &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_true(s->s[SET_HISPARSE].set);
    assert_string_equal(s->s[SET_HISPARSE].flag, "--enable-hisparse");
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "32");
    assert_string_equal(s->s[SET_TP].value, "4");
    assert_string_equal(s->s[SET_DP].value, "2");
    assert_int_equal(s->nwarnings, 5);
    assert_string_equal(s->warnings[0],
                        "'" EM "enable-hisparse' (--args:1:33) is read as --enable-hisparse: its leading dashes "
                        "are an em dash (U+2014), not \"--\" (copy-paste does this); SGLang would refuse the word "
                        "(unrecognized arguments): write --enable-hisparse");
    assert_contains(s->warnings[1], "an en dash (U+2013)");
    assert_contains(s->warnings[2], "'-page-size' (--args:1:79) is read as --page-size: its leading dashes are a single '-'");
    assert_contains(s->warnings[3], "3 hyphens");
    assert_contains(s->warnings[4], "'" EM "" EM "dp-size' (--args:1:");
    assert_string_equal(s->s[SET_TP].flag, "--tp-size"); /* "--tp": a prefix, read as argparse reads it */
    /* a negative number is a value; another single-dash word is an option */
    s = fold_line("--host -x --page-size -1", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "argument --host: expected one argument");
    s = fold_line("--host -.5 --page-size -1", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "-1");
    assert_int_equal(s->nwarnings, 0);
    /* a mangled flag where a value belongs is no value */
    s = fold_line("--kv-cache-dtype " EM "enable-hisparse", &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "argument --kv-cache-dtype: expected one argument");
    /* an unknown flag with mangled dashes is listed, and said */
    s = fold_line("" EM "host m --page-size 64", &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_int_equal(s->nignored, 1);
    assert_contains(s->ignored[0], "--host m");
    assert_int_equal(s->nwarnings, 1);
}

static void test_args__a_word_holding_several_is_split_with_a_warning(void **state)
{
    (void)state;
    kvc_worker *w = kvc_worker_create("w");
    kvc_diag d;
    const char *path = temp_file(".json", "{\"gpu\": \"B300\", \"model\": \"glm-5\", \"args\": "
                                          "[\"python3 -m sglang.launch_server --disaggregation-mode decode\", "
                                          "\"--kv-cache-dtype bfloat16\", \"--tp 4 --host\", \"a b\", "
                                          "\"--page-size=64 junk\"]}");
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_OK);
    kvc_resolved *r = NULL;
    /* "--page-size=64 junk" is one argument, as argparse takes it: not a page size */
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "64 junk");
    kvc_worker_free(w);

    w = kvc_worker_create("w");
    path = temp_file(".json", "{\"gpu\": \"B300\", \"model\": \"glm-5\", \"args\": "
                              "[\"python3 -m sglang.launch_server --disaggregation-mode decode\", "
                              "\"--kv-cache-dtype bfloat16\", \"--tp-size 4 --host\", \"a b\"]}");
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    assert_string_equal(kvc_resolved_find(r, "kv_cache_dtype")->value, "bfloat16");
    assert_string_equal(kvc_resolved_find(r, "disaggregation_mode")->value, "decode");
    assert_int_equal(kvc_resolved_warning_count(r), 3);
    char want[600];
    snprintf(want, sizeof want, "args[1] '--kv-cache-dtype bfloat16' (%s:1:", path);
    assert_contains(kvc_resolved_warning(r, 1), want);
    assert_contains(kvc_resolved_warning(r, 1), "holds 2 words in one: read as '--kv-cache-dtype' 'bfloat16', as a "
                                                "shell splits them; SGLang would take it as one argument and "
                                                "refuse it: give each word separately");
    assert_int_equal(kvc_resolved_ignored_count(r), 1);
    assert_contains(kvc_resolved_ignored(r, 0), "--host a b");
    /* never listed as a flag that cannot change the layout */
    assert_null(strstr(kvc_resolved_ignored(r, 0), "kv-cache-dtype"));
    kvc_resolved_free(r);
    kvc_worker_free(w);
}

/* A running server's quantization is the method SGLang resolved, which built the method's config: a ModelOpt
 * checkpoint it ran as modelopt_fp4 is checked as that, not as the flag given would be. */
static void test_args__a_dump_reports_the_resolved_quantization(void **state)
{
    (void)state;
    char dir[] = "/tmp/kvc-dump-XXXXXX", config[64], dump[64];
    assert_non_null(mkdtemp(dir));
    write_text(dir, "config.json",
               "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
               "\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":"
               "\"modelopt\"}}",
               config, sizeof config);
    char text[400];
    snprintf(text, sizeof text, "{\"model_path\": \"%s\", \"kv_cache_dtype\": \"bf16\", \"quantization\": "
             "\"modelopt_fp4\", \"version\": \"0.5.23\"}", dir);
    write_text(dir, "server_info.json", text, dump, sizeof dump);
    kvc_worker *w = kvc_worker_create("w");
    kvc_diag d;
    assert_int_equal(kvc_worker_set_gpu(w, "B200", &d), KVC_OK);
    assert_int_equal(kvc_worker_load_file(w, dump, &d), KVC_OK);
    kvc_resolved *r = NULL;
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    for (unsigned i = 0; i < kvc_resolved_warning_count(r); i++)
        assert_null(strstr(kvc_resolved_warning(r, i), "not checked"));
    kvc_resolved_free(r);
    kvc_worker_free(w);
    /* its MoE runner passed the runner's check of the quantization, which refuses the flag given on its own: SM100's
     * default --quantization is the checkpoint's unparsed "modelopt" */
    snprintf(text, sizeof text, "{\"model_path\": \"%s\", \"kv_cache_dtype\": \"bf16\", \"quantization\": "
             "\"modelopt_fp8\", \"moe_runner_backend\": \"flashinfer_cutlass\", \"version\": \"0.5.23\"}", dir);
    write_text(dir, "server_info.json", text, dump, sizeof dump);
    w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_set_gpu(w, "B200", &d), KVC_OK);
    assert_int_equal(kvc_worker_load_file(w, dump, &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_OK);
    kvc_resolved_free(r);
    kvc_worker_free(w);
    w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_set_gpu(w, "B200", &d), KVC_OK);
    assert_int_equal(kvc_worker_set_model(w, dir, &d), KVC_OK);
    assert_int_equal(kvc_worker_add_args(w, "--kv-cache-dtype bf16 --moe-runner-backend flashinfer_cutlass", "args", &d),
                     KVC_OK);
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "Invalid quantization 'modelopt'.  FlashInfer Cutlass MOE supports only: "
                               "'modelopt_fp4', 'modelopt_fp8', 'modelopt_mixed', or bfloat16 (None).");
    kvc_worker_free(w);
    /* the same flag given: SGLang builds ModelOptFp4Config from the checkpoint's config, without a quant_algo */
    w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_set_gpu(w, "B200", &d), KVC_OK);
    assert_int_equal(kvc_worker_set_model(w, dir, &d), KVC_OK);
    assert_int_equal(kvc_worker_add_args(w, "--kv-cache-dtype bf16 --quantization modelopt_fp4", "args", &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "SGLang 0.5.23 refuses to start: Cannot find 'quant_algo' in the model's quantization "
                               "config. Expected either flat format (config.json) or nested format "
                               "(hf_quant_config.json). (at model load, building the modelopt_fp4 quantization config");
    kvc_worker_free(w);
    assert_int_equal(unlink(dump), 0);
    assert_int_equal(unlink(config), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_args__a_list_of_300000_words_reads_whole(void **state)
{
    (void)state;
    strbuf sb = {0};
    sb_puts(&sb, "{\"gpu\": \"B300\", \"model\": \"glm-5.2\", \"args\": [\"python3\"");
    for (unsigned i = 0; i < 149999; i++) sb_printf(&sb, ",\n \"--page-size\", \"%u\"", i % 2 ? 64 : 32);
    sb_puts(&sb, ",\n \"--kv-cache-dtype\", \"bf16\"]}");
    char *text = sb_take(&sb);
    const char *path = temp_file(".json", text);
    free(text);
    kvc_worker *w = kvc_worker_create("w");
    kvc_diag d;
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_OK);
    engine_worker *prepared = NULL;
    assert_int_equal(worker_prepare(w, &prepared, &d), KVC_OK);
    const settings *s = &((const struct engine_worker *)prepared)->set;
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "32"); /* the last of 149999 */
    assert_int_equal(s->s[SET_PAGE_SIZE].origin.line, 150000);
    assert_string_equal(s->s[SET_PAGE_SIZE].origin.where, "args[299997]");
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "bf16");
    assert_int_equal(s->s[SET_KV_CACHE_DTYPE].origin.line, 150001);
    worker_engine(w)->prepared_free(prepared);
    kvc_worker_free(w);
}

static void test_args__a_server_info_dump_of_60000_keys(void **state)
{
    (void)state;
    strbuf sb = {0};
    sb_puts(&sb, "{\n");
    for (unsigned i = 0; i < 60000; i++) sb_printf(&sb, "  \"extra_%u\": %u,\n", i, i);
    sb_puts(&sb, "  \"model_path\": \"zai-org/GLM-5.2\",\n  \"kv_cache_dtype\": \"bf16\"\n}\n");
    char *text = sb_take(&sb);
    const char *path = temp_file(".json", text);
    free(text);
    kvc_worker *w = kvc_worker_create("w");
    kvc_diag d;
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_OK);
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    engine_worker *prepared = NULL;
    assert_int_equal(worker_prepare(w, &prepared, &d), KVC_OK);
    const settings *s = &((const struct engine_worker *)prepared)->set;
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "bf16");
    assert_int_equal(s->s[SET_KV_CACHE_DTYPE].origin.line, 60003);
    assert_int_equal(s->s[SET_KV_CACHE_DTYPE].origin.column, 3);
    assert_int_equal(s->nignored, KVC_MAX_NOTES);
    assert_string_equal(s->ignored[KVC_MAX_NOTES - 1], "... and 59977 more");
    worker_engine(w)->prepared_free(prepared);
    kvc_worker_free(w);
}

static void test_args__values_are_kept_whole_or_refused_with_the_limit(void **state)
{
    (void)state;
    char value[6000];
    memset(value, 'a', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    char line[13000];
    kvc_status st;
    kvc_diag d;
    /* a model path of 300 bytes is kept whole */
    value[300] = '\0';
    snprintf(line, sizeof line, "--model-path /%s --host %s", value, value);
    settings *s = fold_line(line, &st, &d);
    assert_int_equal(st, KVC_OK);
    assert_int_equal(strlen(s->s[SET_MODEL_PATH].value), 301);
    /* the ignored flag's note says it was cut */
    assert_string_equal(s->ignored[0] + KVC_NOTE_LEN - 4, "...");
    /* past PATH_MAX: refused with the limit */
    value[300] = 'a';
    snprintf(line, sizeof line, "--model-path %s", value);
    s = fold_line(line, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "the value of --model-path is 5999 bytes long: kvcheck takes values of up to 4095 bytes");
    /* SGLang's own message names a long value by its first 200 bytes */
    snprintf(line, sizeof line, "--kv-cache-dtype %s", value);
    fold_line(line, &st, &d);
    assert_int_equal(st, KVC_ERR_CONFIG);
    assert_contains(d.message, "aaaa'... (choose from 'auto', ");
    /* words are kept whole: several values of a flag too */
    arglist list = {0};
    value[1000] = '\0';
    snprintf(line, sizeof line, "--cuda-graph-bs-decode %s %s", value, value);
    assert_int_equal(args_parse_line(&list, line, "--args", &d), KVC_OK);
    assert_int_equal(list.n, 3);
    assert_int_equal(strlen(list.v[2].text), 1000);
    arglist_free(&list);
    /* a YAML or server_info key of any length is kept whole */
    kvc_origin o;
    origin_set(&o, "info.json", 1, 1, "");
    assert_int_equal(args_push(&list, ARG_DUMP, value, "1", &o, &d), KVC_OK);
    assert_int_equal(strlen(list.v[0].text), 1000);
    arglist_free(&list);
}

static void test_args__yaml_aliases_duplicates_documents_and_positions(void **state)
{
    (void)state;
    arglist list = {0}, cli = {0};
    kvc_diag d;
    settings s;
    const char *path = temp_file(".yaml", "host: &d fp8_e4m3\n&k page-size: 32\nkv-cache-dtype: *d\n"
                                          "log-requests-target: [*d, *k]\n");
    assert_int_equal(args_load_yaml(&list, path, &d), KVC_OK);
    assert_int_equal(settings_build(&list, &cli, ".", 0, &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_int_equal(s.s[SET_KV_CACHE_DTYPE].origin.line, 3);
    assert_string_equal(s.s[SET_PAGE_SIZE].value, "32");
    assert_contains(s.ignored[1], "--log-requests-target fp8_e4m3 page-size");
    arglist_free(&list);
    expect_yaml_error("b: &b [a, b]\nkv-cache-dtype: *b\n", "the alias *b names a list", 2, 17);
    expect_yaml_error("kv-cache-dtype: *d\n", "the alias *d names no anchor &d before it", 1, 17);
    static const char nul[] = "page-size: 64\nkv-cache-dtype: bf\0" "16\n";
    path = temp_data_file(".yaml", nul, sizeof nul - 1);
    assert_int_equal(args_load_yaml(&list, path, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "control characters are not allowed (byte 0x00)");
    assert_int_equal(d.line, 2);
    assert_int_equal(d.column, 19);
    arglist_free(&list);
    expect_yaml_error("page-size: 64\nx:\n  - caf\xe9\n", "UTF-8", 3, 8);
    expect_yaml_error("page-size: 64\n---\npage-size: 32\n", "a second YAML document at line 2", 2, 1);
    expect_yaml_error("page-size: 64\n...\n---\nx: 1\n", "a second YAML document at line 3", 3, 1);
    expect_yaml_error("page-size: 64\npage_size: 32\n", "duplicate key 'page_size': the flag --page-size is given at line 1", 2, 1);
    /* a duplicate far past the 64th key */
    strbuf sb = {0};
    for (unsigned i = 0; i < 500; i++) sb_printf(&sb, "flag-%u: %u\n", i, i);
    sb_puts(&sb, "flag_321: 1\n");
    char *text = sb_take(&sb);
    expect_yaml_error(text, "duplicate key 'flag_321': the flag --flag-321 is given at line 322", 501, 1);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args__program_words_are_skipped_and_values_taken),
        cmocka_unit_test(test_args__words_before_the_flags_are_never_dropped),
        cmocka_unit_test(test_args__quotes_escapes_and_continuations),
        cmocka_unit_test(test_args__underscores_are_refused_and_nsa_aliases_read_per_release),
        cmocka_unit_test(test_args__later_flags_win),
        cmocka_unit_test(test_args__unknown_flags_take_their_words_and_are_listed),
        cmocka_unit_test(test_args__a_flag_without_its_value_is_an_error),
        cmocka_unit_test(test_args__store_true_flags_take_no_value),
        cmocka_unit_test(test_args__unterminated_quote_and_stray_words),
        cmocka_unit_test(test_args__server_info_keys),
        cmocka_unit_test(test_args__a_dump_reports_the_resolved_quantization),
        cmocka_unit_test(test_args__yaml_config_becomes_flags_and_command_line_wins),
        cmocka_unit_test(test_args__bad_yaml_is_reported_with_line_and_column),
        cmocka_unit_test(test_args__config_on_the_command_line_is_loaded),
        cmocka_unit_test(test_args__mangled_dashes_are_read_as_the_flag_with_a_warning),
        cmocka_unit_test(test_args__a_word_holding_several_is_split_with_a_warning),
        cmocka_unit_test(test_args__a_list_of_300000_words_reads_whole),
        cmocka_unit_test(test_args__a_server_info_dump_of_60000_keys),
        cmocka_unit_test(test_args__values_are_kept_whole_or_refused_with_the_limit),
        cmocka_unit_test(test_args__yaml_aliases_duplicates_documents_and_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
