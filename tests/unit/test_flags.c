/* SGLang's launch-flag parsers, release by release (src/engine/sglang/
 * argparse.c over flag_table.c): replayed against what each release's own
 * parser did with the same commands (fixtures/flags/argparse-oracle.jsonl),
 * and the rules kvcheck adds (positions, nearest spellings). */
#include "support.h"
#include "../conformance/redacted.h"
#include "engine/sglang/sglang.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* `line` read by SGLang `version`; a "yaml: TEXT | WORDS" line puts TEXT
 * in a --config file first, as parse_oracle.py does. */
static kvc_status parse_in(const char *version, const char *line, settings *s, kvc_diag *d)
{
    int release = sglang_release_index(version);
    if (release < 0) fail_msg("no release %s", version);
    char words[4096], yaml[1024] = "";
    const char *rest = line;
    if (strncmp(line, "yaml: ", 6) == 0) {
        const char *bar = strstr(line, " | ");
        size_t n = 0;
        for (const char *p = line + 6; p < bar && n + 1 < sizeof yaml; p++) {
            if (p[0] == '\\' && p[1] == 'n') yaml[n++] = '\n', p++;
            else yaml[n++] = *p;
        }
        yaml[n] = '\0';
        rest = bar + 3;
    }
    if (yaml[0]) snprintf(words, sizeof words, "--config %s --model-path m %s", temp_file(".yaml", yaml), rest);
    else snprintf(words, sizeof words, "--model-path m %s", rest);
    shell_words w;
    arglist cli = {0}, cfg = {0};
    kvc_status st = shell_split(words, "--args", &w, d);
    word_list list = {.words = w.words, .n = w.n, .file = "--args", .lines = w.lines, .columns = w.columns};
    if (!st) st = args_parse_words(&cli, &list, d);
    if (!st) st = settings_build(&cfg, &cli, ".", (unsigned)release, s, d);
    shell_words_free(&w);
    arglist_free(&cli);
    return st;
}

static int has_warning(const settings *s, const char *text)
{
    for (unsigned i = 0; i < s->nwarnings; i++)
        if (strstr(s->warnings[i], text)) return 1;
    return 0;
}

/* strstr(got, want), a secret's value shown as *** in `got` */
static int contains_redacted(const char *got, const char *want)
{
    for (const char *at = got; *at; at++)
        if (redacted_at(at, want)) return 1;
    return 0;
}

/* One oracle line: kvcheck must stop with the same error, or store the same values. */
static void replay(const cJSON *c, settings *s, unsigned *failures)
{
    const char *version = cJSON_GetObjectItem(c, "version")->valuestring;
    const char *line = cJSON_GetObjectItem(c, "case")->valuestring;
    const cJSON *error = cJSON_GetObjectItem(c, "error"), *raise = cJSON_GetObjectItem(c, "raise");
    const cJSON *values = cJSON_GetObjectItem(c, "values");
    kvc_diag d;
    kvc_status st = parse_in(version, line, s, &d);
    char want[1200] = "";
    if (error) snprintf(want, sizeof want, "\"%s\"", error->valuestring);
    if (raise) snprintf(want, sizeof want, "ValueError: %s", raise->valuestring);
    if (want[0]) {
        /* a message past kvc_diag's 1024 bytes is compared as far as it fits */
        if (strlen(want) > 700) want[700] = '\0';
        if (st != KVC_ERR_CONFIG || !contains_redacted(d.message, want)) {
            print_message("%s '%s': want %s, got %d %s\n", version, line, want, st, st ? d.message : "OK");
            (*failures)++;
        }
        return;
    }
    if (st) {
        print_message("%s '%s': want values, got %s\n", version, line, d.message);
        (*failures)++;
        return;
    }
    int seen[SET_COUNT] = {0};
    for (const cJSON *v = values->child; v; v = v->next) {
        int key = setting_key_of_dest(v->string);
        if (key < 0) fail_msg("oracle dest %s is no setting", v->string);
        seen[key] = 1;
        if (!s->s[key].set || strcmp(s->s[key].value, v->valuestring) != 0) {
            print_message("%s '%s': %s want '%s', got %s'%s'\n", version, line, v->string, v->valuestring,
                          s->s[key].set ? "" : "unset ", s->s[key].value);
            (*failures)++;
        }
    }
    /* the oracle records every dest of flags.c's DESTS (parse_oracle.py reads the table) but --model-path,
     * which every case gives */
    seen[SET_MODEL_PATH] = 1;
    for (int k = 0; k < SET_COUNT; k++)
        if (s->s[k].set && !seen[k]) {
            print_message("%s '%s': setting %d set to '%s', argparse left it\n", version, line, k, s->s[k].value);
            (*failures)++;
        }
    for (const cJSON *w = cJSON_GetObjectItem(c, "warnings")->child; w; w = w->next)
        if (!has_warning(s, w->valuestring)) {
            print_message("%s '%s': no warning '%s'\n", version, line, w->valuestring);
            (*failures)++;
        }
}

/* Replays one oracle file; the releases it covers into *seen. */
static unsigned replay_file(const char *path, uint64_t *seen, unsigned *failures)
{
    char *text = NULL;
    size_t len = 0;
    kvc_diag d;
    assert_int_equal(file_read_all(path, &text, &len, &d), KVC_OK);
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    unsigned cases = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        cJSON *c = cJSON_Parse(line);
        assert_non_null(c);
        int r = sglang_release_index(cJSON_GetObjectItem(c, "version")->valuestring);
        assert_true(r >= 0);
        *seen |= SGLANG_RELEASE_BIT(r);
        replay(c, s, failures);
        cJSON_Delete(c);
        cases++;
    }
    free(s);
    free(text);
    return cases;
}

static void test_flags__every_release_reads_the_oracle_commands_as_its_own_parser_did(void **state)
{
    (void)state;
    unsigned failures = 0, releases_seen = 0;
    uint64_t seen = 0;
    unsigned cases = replay_file("fixtures/flags/argparse-oracle.jsonl", &seen, &failures);
    for (unsigned r = 0; r < SGLANG_NRELEASES; r++) releases_seen += (unsigned)(seen >> r & 1);
    print_message("%u oracle cases over %u releases, %u disagreements\n", cases, releases_seen, failures);
    assert_int_equal(releases_seen, SGLANG_NRELEASES);
    assert_true(cases >= 2000);
    assert_int_equal(failures, 0);
}

/* Random commands (tools/sglang-oracle/random_cases.py) over one release of each era. */
static void test_flags__random_commands_read_as_each_parser_did(void **state)
{
    (void)state;
    unsigned failures = 0;
    uint64_t seen = 0;
    unsigned cases = replay_file("fixtures/flags/argparse-random.jsonl", &seen, &failures);
    print_message("%u random cases, %u disagreements\n", cases, failures);
    assert_true(cases >= 2000);
    assert_int_equal(failures, 0);
}

static void test_flags__the_generated_table_is_of_the_releases_kvcheck_knows(void **state)
{
    (void)state;
    for (unsigned r = 0; r < SGLANG_NRELEASES; r++) {
        assert_string_equal(SGLANG_FLAG_RELEASES[r], SGLANG_VERSIONS[r]);
        assert_true(SGLANG_PARSERS[r].n > 200);
        /* every row a release lists holds for it, each option once */
        option_index idx;
        assert_int_equal(option_index_build(&idx, (int)r, NULL), KVC_OK);
        for (size_t i = 0; i < idx.n; i++) {
            assert_true(idx.rows[i]->releases & SGLANG_RELEASE_BIT(r));
            if (i) assert_true(strcmp(idx.rows[i - 1]->option, idx.rows[i]->option) < 0);
        }
        option_index_free(&idx);
    }
    assert_int_equal(sglang_release_index("0.4.0"), -1);
}

static void test_flags__the_spelling_each_release_prefers(void **state)
{
    (void)state;
    static const struct {
        const char *version;
        setting_key key;
        const char *flag;
    } CASES[] = {
        {"0.5.3", SET_PREFILL_BACKEND, "--nsa-prefill"},
        {"0.5.12", SET_PREFILL_BACKEND, "--nsa-prefill-backend"},
        {"0.5.15", SET_PREFILL_BACKEND, "--dsa-prefill-backend"}, /* not its deprecated alias */
        {"0.5.23", SET_DECODE_BACKEND, "--dsa-decode-backend"},
        {"0.5.13", SET_TP, "--tensor-parallel-size"},
        {"0.5.14", SET_TP, "--tp-size"},
        {"0.5.17", SET_SPEC_DRAFT_KV_DTYPE, NULL},
        {"0.5.18", SET_SPEC_DRAFT_KV_DTYPE, "--speculative-draft-kv-cache-dtype"},
        {"0.5.9", SET_HISPARSE, NULL},
        {"0.5.14", SET_DCP, NULL},
        {"0.5.15", SET_DCP, "--dcp-size"},
    };
    for (size_t i = 0; i < COUNT_OF(CASES); i++) {
        const char *got = setting_flag(CASES[i].key, (unsigned)sglang_release_index(CASES[i].version));
        if (CASES[i].flag) assert_string_equal(got, CASES[i].flag);
        else assert_null(got);
    }
    assert_null(setting_flag(SET_KV_CACHE_DTYPE, SGLANG_NRELEASES));
}

/* The error message of `line` under `version`, or "" when it parses. */
static const char *message_of(const char *version, const char *line, kvc_diag *d)
{
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    kvc_status st = parse_in(version, line, s, d);
    free(s);
    if (!st) d->message[0] = '\0';
    else assert_int_equal(st, KVC_ERR_CONFIG); /* exit 3 */
    return d->message;
}

static void test_flags__per_release_differences(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    /* --nsa-prefill-backend: an alias with SGLang's warning in 0.5.15, gone in 0.5.23 */
    assert_int_equal(parse_in("0.5.15", "--nsa-prefill-backend flashmla_kv", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PREFILL_BACKEND].value, "flashmla_kv");
    assert_true(has_warning(s, "SGLang warns: '--nsa-prefill-backend' is deprecated"));
    assert_contains(message_of("0.5.23", "--nsa-prefill-backend flashmla_kv", &d), "unrecognized arguments: --nsa-prefill-backend flashmla_kv\"; --nsa-prefill-backend: "
                               "SGLang 0.5.4 to 0.5.19 knows it, 0.5.23 does not; did you mean "
                               "--dsa-prefill-backend");
    assert_string_equal(d.where, "--nsa-prefill-backend");
    assert_int_equal(d.column, 16);
    /* 0.5.3: --nsa-prefill, with its own choices */
    assert_int_equal(parse_in("0.5.3", "--nsa-prefill flashmla_decode", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PREFILL_BACKEND].value, "flashmla_decode");
    assert_string_equal(s->s[SET_PREFILL_BACKEND].flag, "--nsa-prefill");
    /* --enable-hisparse: unknown to 0.5.9 */
    assert_contains(message_of("0.5.9", "--enable-hisparse", &d), "unrecognized arguments: --enable-hisparse\"");
    assert_int_equal(parse_in("0.5.10", "--enable-hisparse", s, &d), KVC_OK);
    assert_true(s->s[SET_HISPARSE].set);
    /* fp4_e2m1: a choice in 0.5.20, not in 0.5.21 */
    assert_int_equal(parse_in("0.5.20", "--kv-cache-dtype fp4_e2m1", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "fp4_e2m1");
    assert_contains(message_of("0.5.21", "--kv-cache-dtype fp4_e2m1", &d),
                    "argument --kv-cache-dtype: invalid choice: 'fp4_e2m1' (choose from 'auto', 'fp8_e5m2', "
                    "'fp8_e4m3', 'mxfp8', 'bf16', 'bfloat16', 'nvfp4', 'fp4_mx_block16')");
    /* the prog: argparse's default before 0.5.10 */
    assert_contains(message_of("0.5.9", "--page-size x", &d), "\"launch_server.py: error: argument --page-size: "
                                                               "invalid int value: 'x'\"");
    free(s);
}

/* The flags SGLang 0.5.21+'s FP4 KV checks read are settings: a switch
 * stores "", the breadth an int in decimal, --enable-hicache is read as
 * --enable-hierarchical-cache. */
static void test_flags__fp4_check_settings(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    assert_int_equal(parse_in("0.5.23",
                              "--prefill-kv-cache-dequant-dtype fp8_e4m3 --enable-unified-memory --enable-hicache "
                              "--enable-lmcache --speculative-draft-attention-backend fa3 "
                              "--speculative-ngram-max-bfs-breadth 01 --attn-cp-size 2",
                              s, &d),
                     KVC_OK);
    assert_string_equal(s->s[SET_PREFILL_DEQUANT].value, "fp8_e4m3");
    const setting_key SWITCHES[] = {SET_UNIFIED_MEMORY, SET_HICACHE, SET_LMCACHE};
    for (size_t i = 0; i < sizeof SWITCHES / sizeof SWITCHES[0]; i++) {
        assert_true(s->s[SWITCHES[i]].set);
        assert_string_equal(s->s[SWITCHES[i]].value, "");
    }
    assert_string_equal(s->s[SET_HICACHE].flag, "--enable-hicache");
    assert_string_equal(s->s[SET_SPEC_DRAFT_ATTN].value, "fa3");
    assert_string_equal(s->s[SET_NGRAM_BREADTH].value, "1");
    assert_string_equal(s->s[SET_ATTN_CP].value, "2");
    assert_int_equal(s->nignored, 0);
    assert_contains(message_of("0.5.23", "--prefill-kv-cache-dequant-dtype fp8", &d),
                    "argument --prefill-kv-cache-dequant-dtype: invalid choice: 'fp8' (choose from 'auto', 'nvfp4', "
                    "'fp8_e4m3')");
    free(s);
}

/* --mamba-ssm-dtype is a setting under its dest in every release, with
 * argparse's choices; SGLANG_MAMBA_SSM_DTYPE and SGLANG_MAMBA_CONV_DTYPE
 * assigned in the launch's environment are settings too, any other
 * variable is listed as ignored. */
static void test_flags__mamba_state_dtype_settings(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    for (unsigned r = 0; r < SGLANG_NRELEASES; r++) {
        assert_int_equal(parse_in(SGLANG_VERSIONS[r], "--mamba-ssm-dtype bfloat16", s, &d), KVC_OK);
        assert_string_equal(s->s[SET_MAMBA_SSM].value, "bfloat16");
        assert_string_equal(setting_flag(SET_MAMBA_SSM, r), "--mamba-ssm-dtype");
    }
    assert_contains(message_of("0.5.23", "--mamba-ssm-dtype fp8", &d), "argument --mamba-ssm-dtype: invalid choice: "
                                                                      "'fp8' (choose from 'float32', 'bfloat16', "
                                                                      "'float16')");
    arglist cli = {0}, cfg = {0};
    kvc_origin o;
    origin_set(&o, "recipe.sh", 3, 1, "");
    assert_int_equal(args_add_env(&cli, "SGLANG_MAMBA_CONV_DTYPE=float32", &o, &d), KVC_OK);
    assert_int_equal(args_add_env(&cli, "SGLANG_MAMBA_SSM_DTYPE=float16", &o, &d), KVC_OK);
    assert_int_equal(args_add_env(&cli, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, s, &d), KVC_OK);
    assert_string_equal(s->s[SET_MAMBA_CONV_ENV].value, "float32");
    assert_string_equal(s->s[SET_MAMBA_SSM_ENV].value, "float16");
    assert_int_equal(s->s[SET_MAMBA_SSM_ENV].origin.line, 3);
    assert_int_equal(s->nignored, 1);
    assert_contains(s->ignored[0], "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1");
    arglist_free(&cli);
    free(s);
}

static void test_flags__prefixes_ambiguity_and_equals(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    assert_int_equal(parse_in("0.5.23", "--kv-cache-dt=fp8_e4m3 --disaggregation-m decode", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].value, "fp8_e4m3");
    assert_string_equal(s->s[SET_KV_CACHE_DTYPE].flag, "--kv-cache-dtype");
    assert_string_equal(s->s[SET_DISAGG_MODE].value, "decode");
    /* ambiguity is found before any other error, at the ambiguous word */
    assert_contains(message_of("0.5.3", "--page-size x --kv fp8_e4m3", &d),
                    "\"launch_server.py: error: ambiguous option: --kv could match --kv-cache-dtype, "
                    "--kv-events-config\"; write the flag out in full");
    assert_int_equal(d.column, 30);
    assert_contains(message_of("0.5.3", "--kv=x", &d), "ambiguous option: --kv=x could match");
    /* an exact option wins over its longer neighbours */
    assert_int_equal(parse_in("0.5.23", "--dp-size 2", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_DP].value, "2");
    free(s);
}

static void test_flags__values_types_and_arity(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    /* ints as argparse stores them; negative numbers are values */
    assert_int_equal(parse_in("0.5.23", "--page-size ' +0_64 ' --speculative-eagle-topk -1", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
    assert_string_equal(s->s[SET_SPEC_EAGLE_TOPK].value, "-1");
    assert_contains(message_of("0.5.23", "--page-size 6_", &d), "invalid int value: '6_'");
    assert_contains(message_of("0.5.23", "--page-size=", &d), "invalid int value: ''");
    assert_contains(message_of("0.5.23", "--mem-fraction-static 1e", &d),
                    "argument --mem-fraction-static: invalid float value: '1e'");
    assert_string_equal(message_of("0.5.23", "--mem-fraction-static=-Infinity --max-total-tokens 1_000", &d), "");
    /* int() and float() take Unicode decimal digits and spaces; so does argparse's negative-number test (\d) */
    assert_int_equal(parse_in("0.5.23", "--page-size '\xe3\x80\x80\xd9\xa6\xd9\xa4\xc2\xa0' --speculative-eagle-topk "
                              "-\xd9\xa1 --mem-fraction-static \xd9\xa0.\xd9\xa8", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "64");
    assert_string_equal(s->s[SET_SPEC_EAGLE_TOPK].value, "-1");
    assert_contains(message_of("0.5.23", "--page-size 6\xe2\x82\xac", &d), "invalid int value: '6\xe2\x82\xac'");
    assert_contains(message_of("0.5.23", "--page-size -\xd9\xa1_0", &d), "expected one argument"); /* _ is no \d */
    /* argv is strict UTF-8: an overlong '8' is three surrogate escapes, no digit */
    assert_contains(message_of("0.5.23", "--page-size \xe0\x80\xb8", &d), "invalid int value");
    /* "-Infinity" is no negative number to argparse: an option, so no value */
    assert_contains(message_of("0.5.23", "--mem-fraction-static -Infinity", &d), "expected one argument");
    /* a flag's values end at the next flag; the rest are arguments nobody takes */
    assert_contains(message_of("0.5.23", "--page-size 1 2 --tp-size 1 3", &d), "unrecognized arguments: 2 3\"");
    assert_int_equal(d.column, 30);
    /* "--" ends the flags: what follows is refused, "--" included */
    assert_contains(message_of("0.5.23", "--page-size -- 1", &d), "argument --page-size: expected one argument");
    assert_contains(message_of("0.5.23", "--page-size 1 -- --enable-hisparse", &d),
                    "unrecognized arguments: -- --enable-hisparse\"; --enable-hisparse: a flag of SGLang 0.5.23, "
                    "but after \"--\" every word is an argument: drop the \"--\"");
    /* nargs '+': every value up to the next flag, checked one by one */
    assert_int_equal(parse_in("0.5.23", "--gc-threshold 1 2 4 --page-size 64", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_GC_THRESHOLD].value, "1 2 4");
    assert_contains(message_of("0.5.23", "--gc-threshold", &d), "expected at least one argument");
    assert_contains(message_of("0.5.23", "--gc-threshold 1 x", &d), "invalid int value: 'x'");
    /* with "=": one value, the next words are not the flag's */
    assert_contains(message_of("0.5.23", "--cuda-graph-bs-decode=1 2", &d), "unrecognized arguments: 2\"");
    /* a switch refuses a value in its word, and takes none after it */
    assert_contains(message_of("0.5.23", "--enable-hisparse=yes", &d),
                    "argument --enable-hisparse: ignored explicit argument 'yes'");
    assert_contains(message_of("0.5.23", "--disable-radix-cache no", &d), "unrecognized arguments: no\"");
    /* argparse's repr: double quotes around a value holding a single quote */
    assert_contains(message_of("0.5.23", "--kv-cache-dtype \"it's\"", &d), "invalid choice: \"it's\"");
    free(s);
}

static void test_flags__sglang_s_own_value_types(void **state)
{
    (void)state;
    kvc_diag d;
    /* human_readable_int: SI and IEC suffixes, its own refusals */
    assert_string_equal(message_of("0.5.23", "--max-prefill-tokens 25.6k --context-length 2Ki", &d), "");
    assert_contains(message_of("0.5.23", "--max-prefill-tokens 1.5Ki", &d),
                    "argument --max-prefill-tokens: Decimals are not allowed with IEC suffixes like 'Ki'. Use an "
                    "integer IEC value such as '1Ki', or an SI value such as '1.5K'.");
    assert_contains(message_of("0.5.23", "--max-prefill-tokens ' 1kb '", &d),
                    "argument --max-prefill-tokens: Invalid integer value: '1kb'. Use a plain integer, SI suffixes");
    /* json.loads: argparse's generic wording with the function's name */
    assert_contains(message_of("0.5.23", "--preferred-sampling-params '{\"a\": 1' ", &d),
                    "argument --preferred-sampling-params: invalid loads value: '{\"a\": 1'");
    assert_string_equal(message_of("0.5.23", "--preferred-sampling-params ' {\"a\": [1, 2]} '", &d), "");
    /* "--flag=--": 3.11 drops the "--" and stores nothing, no check */
    assert_string_equal(message_of("0.5.23", "--page-size=--", &d), "");
}

static void test_flags__deprecated_actions(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    /* 0.5.8-0.5.19: DeprecatedAction warns and stores nothing */
    assert_int_equal(parse_in("0.5.15", "--prefill-round-robin-balance", s, &d), KVC_OK);
    assert_false(s->s[SET_PREFILL_RR].set);
    assert_true(has_warning(s, "The command line argument '--prefill-round-robin-balance' is deprecated"));
    assert_int_equal(parse_in("0.5.7", "--prefill-round-robin-balance", s, &d), KVC_OK);
    assert_true(s->s[SET_PREFILL_RR].set);
    /* 0.5.22+: --enable-dp-attention is DeprecatedStoreTrueAction */
    assert_int_equal(parse_in("0.5.22", "--enable-dp-attention", s, &d), KVC_OK);
    assert_true(s->s[SET_DP_ATTENTION].set);
    assert_true(has_warning(s, "'--enable-dp-attention' is deprecated"));
    /* <= 0.5.4: DeprecatedAction raises ValueError(help) */
    assert_contains(message_of("0.5.4", "--enable-ep-moe", &d),
                    "SGLang 0.5.4 stops: ValueError: NOTE: --enable-ep-moe is deprecated.");
    /* 0.5.18: a retired flag that stops with parser.error */
    assert_contains(message_of("0.5.18", "--enable-expert-distribution-metrics", &d),
                    "error: --enable-expert-distribution-metrics is no longer supported.");
    /* --help prints and exits: no server */
    assert_contains(message_of("0.5.23", "--he", &d), "SGLang 0.5.23: --help prints its help and exits: no server");
    free(s);
}

static void test_flags__config_files_as_each_release_merges_them(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    /* 0.5.3-0.5.7: a true boolean is the flag alone, whatever the flag */
    assert_int_equal(parse_in("0.5.3", "yaml: disable-radix-cache: true | ", s, &d), KVC_OK);
    assert_true(s->s[SET_DISABLE_RADIX].set);
    assert_contains(message_of("0.5.7", "yaml: page-size: true | ", &d), "argument --page-size: expected one argument");
    /* 0.5.8-0.5.22: a boolean for a flag that is no store_true is "--key true" */
    assert_contains(message_of("0.5.8", "yaml: page-size: true | ", &d), "invalid int value: 'true'");
    /* a deprecated switch is no store_true to the merger: refused */
    assert_contains(message_of("0.5.22", "yaml: enable-dp-attention: true | ", &d),
                    "ValueError: Unsupported config option 'enable_dp_attention' with action "
                    "'DeprecatedStoreTrueAction'");
    /* the key as written becomes the flag: underscores are refused */
    assert_contains(message_of("0.5.23", "yaml: page_size: 32 | ", &d),
                    "unrecognized arguments: --page_size 32\"; --page_size: did you mean --page-size?");
    assert_int_equal(d.line, 1);
    assert_int_equal(d.column, 1);
    /* 0.5.13-0.5.19: a key shared with a deprecated alias is refused; 0.5.20 dropped the alias */
    assert_contains(message_of("0.5.13", "yaml: dsa-prefill-backend: flashmla_kv | ", &d),
                    "ValueError: Unsupported config option 'dsa_prefill_backend' with action "
                    "'DeprecatedAliasStoreAction'");
    assert_contains(message_of("0.5.19", "yaml: dsa-prefill-backend: flashmla_kv | ", &d), "Unsupported config");
    assert_int_equal(parse_in("0.5.20", "yaml: dsa-prefill-backend: flashmla_kv | ", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PREFILL_BACKEND].value, "flashmla_kv");
    /* YAML numbers as Python prints them */
    assert_int_equal(parse_in("0.5.23", "yaml: page-size: 0o0_10 | ", s, &d), KVC_ERR_CONFIG);
    assert_int_equal(parse_in("0.5.23", "yaml: page-size: 010 | ", s, &d), KVC_OK);
    assert_string_equal(s->s[SET_PAGE_SIZE].value, "8");
    assert_contains(message_of("0.5.23", "yaml: page-size: 6.4e+1 | ", &d), "invalid int value: '64.0'");
    assert_contains(message_of("0.5.23", "yaml: page-size: 1.5e-7 | ", &d), "invalid int value: '1.5e-07'");
    assert_contains(message_of("0.5.23", "yaml: page-size: .5 | ", &d), "invalid int value: '0.5'");
    assert_contains(message_of("0.5.23", "yaml: page-size: 1e3 | ", &d), "invalid int value: '1e3'");
    /* only the two words "--config FILE" load a file */
    assert_contains(message_of("0.5.23", "--config a.yaml --config b.yaml", &d),
                    "ValueError: Multiple config files specified! Only one allowed.");
    assert_contains(message_of("0.5.23", "--config", &d), "ValueError: No config file specified after --config flag!");
    assert_contains(message_of("0.5.23", "--config a.json", &d),
                    "ValueError: Config file must be YAML format, got: .json");
    assert_int_equal(parse_in("0.5.23", "--config=never-read.yaml", s, &d), KVC_OK);
    assert_true(has_warning(s, "loads a config file only from the two words '--config FILE'"));
    free(s);
}

static void test_flags__sglang_serve_takes_the_model_as_its_first_word_from_0_5_16(void **state)
{
    (void)state;
    static settings s;
    kvc_diag d;
    for (int newer = 0; newer < 2; newer++) {
        arglist cli = {0}, cfg = {0};
        shell_words w;
        assert_int_equal(shell_split("sglang serve zai-org/GLM-5.2 --page-size 64", "--args", &w, &d), KVC_OK);
        word_list list = {.words = w.words, .n = w.n, .file = "--args", .lines = w.lines, .columns = w.columns};
        assert_int_equal(args_parse_words(&cli, &list, &d), KVC_OK);
        int release = sglang_release_index(newer ? "0.5.16" : "0.5.15");
        assert_int_equal(settings_build(&cfg, &cli, ".", (unsigned)release, &s, &d), KVC_OK);
        assert_int_equal(s.s[SET_MODEL_PATH].set, newer);
        if (newer) {
            assert_string_equal(s.s[SET_MODEL_PATH].value, "zai-org/GLM-5.2");
            assert_int_equal(s.s[SET_MODEL_PATH].origin.column, 14);
        }
        assert_string_equal(s.s[SET_PAGE_SIZE].value, "64");
        shell_words_free(&w);
        arglist_free(&cli);
    }
}

static void test_flags__server_info_keys_are_the_release_s_dests(void **state)
{
    (void)state;
    static settings s;
    kvc_diag d;
    arglist dump = {0}, cfg = {0};
    kvc_origin o;
    origin_set(&o, "info.json", 3, 3, "");
    assert_int_equal(args_push(&dump, ARG_DUMP, "nsa_prefill_backend", "flashmla_kv", &o, &d), KVC_OK);
    assert_int_equal(args_push(&dump, ARG_DUMP, "tp_size", "8", &o, &d), KVC_OK);
    assert_int_equal(args_push(&dump, ARG_DUMP, "version", "0.5.12", &o, &d), KVC_OK);
    /* 0.5.12 names its backend fields nsa_*, and its TP field tp_size is no flag's dest there */
    assert_int_equal(settings_build(&cfg, &dump, ".", (unsigned)sglang_release_index("0.5.12"), &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_PREFILL_BACKEND].value, "flashmla_kv");
    assert_string_equal(s.s[SET_PREFILL_BACKEND].flag, "--nsa-prefill-backend");
    assert_false(s.s[SET_TP].set);
    assert_int_equal(s.nignored, 2);
    assert_contains(s.ignored[0], "tp_size 8 (info.json:3:3): not a flag of this SGLang release");
    /* 0.5.23 has no nsa_* field: listed, not read */
    assert_int_equal(settings_build(&cfg, &dump, ".", 0, &s, &d), KVC_OK);
    assert_false(s.s[SET_PREFILL_BACKEND].set);
    assert_string_equal(s.s[SET_TP].value, "8");
    /* values are checked against the release's choices */
    assert_int_equal(args_push(&dump, ARG_DUMP, "kv_cache_dtype", "fp4_e2m1", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &dump, ".", 0, &s, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "SGLang 0.5.23's parser would refuse this value: argument --kv-cache-dtype: invalid "
                               "choice: 'fp4_e2m1'");
    assert_int_equal(settings_build(&cfg, &dump, ".", (unsigned)sglang_release_index("0.5.20"), &s, &d), KVC_OK);
    arglist_free(&dump);
}

/* A secret's value is never repeated: the ignored list shows *** for an API key, a key file's password, and an
 * environment variable or /server_info field named for a token, key, secret, password or credential. */
static void test_flags__secrets_are_not_repeated(void **state)
{
    (void)state;
    static settings s;
    kvc_diag d;
    assert_int_equal(parse_in("0.5.23", "--ssl-keyfile-password=hunter2 --host h --tbo-token-distribution-threshold 0.5",
                              &s, &d), KVC_OK);
    assert_int_equal(s.nignored, 3);
    assert_contains(s.ignored[0], "--ssl-keyfile-password *** (--args:1:");
    assert_null(strstr(s.ignored[0], "hunter2"));
    assert_contains(s.ignored[1], "--host h (");
    assert_contains(s.ignored[2], "--tbo-token-distribution-threshold 0.5 ("); /* a flag is a secret by its dest */
    /* nor the origin of a setting that is one, which a refusal's "where" shows */
    assert_int_equal(parse_in("0.5.23", "--api-key=hunter2", &s, &d), KVC_OK);
    assert_string_equal(s.s[SET_API_KEY].origin.where, "--api-key");
    arglist cli = {0}, cfg = {0}, dump = {0};
    kvc_origin o;
    origin_set(&o, "launch.sh", 2, 1, "");
    static const char *const ENV[] = {"HF_TOKEN=hunter2", "AWS_SECRET_ACCESS_KEY=hunter2", "OPENAI_APIKEY=hunter2",
                                      "PGPASSWORD=hunter2", "GOOGLE_CREDENTIALS=hunter2",
                                      "SGLANG_FOO_TOKENS_PER_RANK=7"};
    for (size_t i = 0; i < COUNT_OF(ENV); i++) assert_int_equal(args_add_env(&cli, ENV[i], &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, &s, &d), KVC_OK);
    assert_int_equal(s.nignored, 6);
    assert_contains(s.ignored[0], "HF_TOKEN=*** (launch.sh:2:1)");
    for (unsigned i = 1; i < 5; i++) assert_contains(s.ignored[i], "=*** (");
    assert_contains(s.ignored[5], "SGLANG_FOO_TOKENS_PER_RANK=7 ("); /* a count of tokens is no token */
    /* nor argparse's messages: a secret's option misspelt, cut short or unknown to the release, and its value */
    static const char *const TYPOS[][2] = {{"0.5.23", "--watermark-confg '{\"key\":\"hunter2\"}'"},
                                           {"0.5.21", "--watermark-config '{\"key\":\"hunter2\"}'"},
                                           {"0.5.23", "--w='{\"key\":\"hunter2\"}'"},
                                           {"0.5.23", "--admin-api-kye=hunter2 --page-size 64"}};
    for (size_t i = 0; i < COUNT_OF(TYPOS); i++) {
        const char *m = message_of(TYPOS[i][0], TYPOS[i][1], &d);
        assert_contains(m, "***");
        assert_null(strstr(m, "hunter2"));
    }
    assert_contains(message_of("0.5.23", "--page-sise 64", &d), "unrecognized arguments: --page-sise 64");
    assert_int_equal(args_push(&dump, ARG_DUMP, "watermark_key", "hunter2", &o, &d), KVC_OK);
    assert_int_equal(args_push(&dump, ARG_DUMP, "ssl_keyfile_password", "hunter2", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &dump, ".", 0, &s, &d), KVC_OK);
    for (unsigned i = 0; i < s.nignored; i++) assert_null(strstr(s.ignored[i], "hunter2"));
    arglist_free(&cli);
    arglist_free(&dump);
}

/* The gRPC server's environment is read by the releases that read it and listed for the others; a running server's
 * --sidecar-args (a list, "[...]" in its dump) is listed, not parsed. */
static void test_flags__grpc_environment_and_sidecar_args(void **state)
{
    (void)state;
    static settings s;
    kvc_diag d;
    arglist cli = {0}, cfg = {0}, dump = {0};
    kvc_origin o;
    origin_set(&o, "launch.sh", 1, 1, "");
    assert_int_equal(args_add_env(&cli, "SGLANG_ENABLE_GRPC=1", &o, &d), KVC_OK);
    assert_int_equal(args_add_env(&cli, "SGLANG_GRPC_WORKER_THREADS=2", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &cli, ".", (unsigned)sglang_release_index("0.5.13"), &s, &d), KVC_OK);
    assert_true(s.s[SET_ENABLE_GRPC_ENV].set);
    assert_false(s.s[SET_GRPC_THREADS_ENV].set);
    assert_int_equal(s.nignored, 1);
    assert_contains(s.ignored[0], "SGLANG_GRPC_WORKER_THREADS=2 (launch.sh:1:1): an environment variable SGLang 0.5.13 "
                                  "does not read");
    assert_int_equal(settings_build(&cfg, &cli, ".", 0, &s, &d), KVC_OK);
    assert_false(s.s[SET_ENABLE_GRPC_ENV].set);
    assert_true(s.s[SET_GRPC_THREADS_ENV].set);
    assert_contains(s.ignored[0], "SGLANG_ENABLE_GRPC=1 (launch.sh:1:1): an environment variable SGLang 0.5.23 does "
                                  "not read");
    assert_int_equal(s.nwarnings, 0); /* 0.5.21+ say nothing of it */
    assert_int_equal(settings_build(&cfg, &cli, ".", (unsigned)sglang_release_index("0.5.16"), &s, &d), KVC_OK);
    assert_int_equal(s.nwarnings, 1);
    assert_contains(s.warnings[0], "SGLANG_ENABLE_GRPC (launch.sh:1:1): SGLang warns \"Environment variable "
                                   "SGLANG_ENABLE_GRPC is deprecated. Please use '--grpc-port' to enable the native "
                                   "gRPC server.\"");
    assert_int_equal(args_push(&dump, ARG_DUMP, "sidecar_args", "[...]", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &dump, ".", 0, &s, &d), KVC_OK);
    assert_false(s.s[SET_SIDECAR_ARGS].set);
    assert_contains(s.ignored[0], "sidecar_args [...] (launch.sh:1:1): a running server's JSON value");
    arglist_free(&cli);
    arglist_free(&dump);
}

/* A flag kvcheck reads as not changing the layout but that SGLang's start-up
 * checks read (check_table.c, generated from each release's code) is named
 * in one warning and, with the first such check, in the ignored list; a flag
 * no check reads is only listed; a running server's fields, whose checks
 * passed, are not. */
static void test_flags__flags_sglang_checks_that_kvcheck_does_not_model(void **state)
{
    (void)state;
    kvc_diag d;
    settings *s = malloc(sizeof *s);
    assert_non_null(s);
    assert_int_equal(parse_in("0.5.23", "--enable-http2 --mooncake-ib-device 1 --host 0.0.0.0 --enable-http2", s, &d),
                     KVC_OK);
    assert_true(has_warning(s, "some of SGLang 0.5.23's start-up checks read --enable-http2, --mooncake-ib-device, which "
                               "kvcheck does not model (they may not apply to this worker): it judges the KV layout as "
                               "if the worker starts"));
    assert_int_equal(s->nignored, 4);
    assert_contains(s->ignored[0], "--enable-http2 (--args:1:16): SGLang's start-up checks read it (sglang 0.5.23: "
                                   "python/sglang/srt/arg_groups/serving_hook.py:");
    assert_contains(s->ignored[1], "--mooncake-ib-device 1 (--args:1:31): SGLang's start-up checks read it");
    assert_null(strstr(s->ignored[2], "start-up checks"));
    /* a flag whose every check of the release is reviewed (check_review.c) is not named; its note says why */
    assert_int_equal(parse_in("0.5.23", "--node-rank 1 --max-running-requests 64", s, &d), KVC_OK);
    assert_false(has_warning(s, "start-up checks"));
    assert_string_equal(s->ignored[0], "--node-rank 1 (--args:1:16): SGLang's start-up checks of it run only with "
                                       "--elastic-ep-backend, which kvcheck declines (sglang 0.5.23: python/sglang/"
                                       "srt/arg_groups/parallel_hook.py:519-560)");
    assert_contains(s->ignored[1], "--max-running-requests 64 (--args:1:30): SGLang's start-up checks of it in 3 "
                                   "files cannot refuse this worker (src/engine/sglang/check_review.c); those of the "
                                   "first run only for a deepseek_v41 model");
    /* a review holds for its row's releases: 0.5.18's --node-rank check is reviewed, 0.5.9's HTTP/2 is not */
    assert_int_equal(parse_in("0.5.18", "--node-rank 1", s, &d), KVC_OK);
    assert_false(has_warning(s, "start-up checks"));
    /* each review names a row of the table as it stands: mask and citation (a regenerated row is read again) */
    for (unsigned i = 0; i < SGLANG_NCHECK_REVIEWS; i++) {
        const sglang_check_review *r = &SGLANG_CHECK_REVIEWS[i];
        int found = 0;
        for (unsigned k = 0; k < SGLANG_NCHECK_ROWS && !found; k++)
            found = SGLANG_CHECK_ROWS[k].releases == r->releases && !strcmp(SGLANG_CHECK_ROWS[k].dest, r->dest) &&
                    !strcmp(SGLANG_CHECK_ROWS[k].cite, r->cite);
        if (!found) fail_msg("review %u (%s, %s) names no row of check_table.c", i, r->dest, r->cite);
        for (unsigned k = 0; k < i; k++)
            if (!strcmp(SGLANG_CHECK_REVIEWS[k].cite, r->cite) && !strcmp(SGLANG_CHECK_REVIEWS[k].dest, r->dest))
                fail_msg("review %u repeats review %u", i, k);
    }
    /* the release's own file: 0.5.18 checks HTTP/2 in server_args.py */
    assert_int_equal(parse_in("0.5.18", "--enable-http2", s, &d), KVC_OK);
    assert_contains(s->ignored[0], "(sglang 0.5.18: python/sglang/srt/server_args.py:");
    assert_int_equal(parse_in("0.5.23", "--host 0.0.0.0", s, &d), KVC_OK);
    assert_false(has_warning(s, "start-up checks"));
    /* the first four are named; a flag given again counts once */
    assert_int_equal(parse_in("0.5.23", "--enable-http2 --mooncake-ib-device 1 --mamba-track-interval 2 "
                                        "--ssl-certfile c --ssl-keyfile k --mooncake-ib-device 2 --ssl-keyfile k2", s, &d),
                     KVC_OK);
    assert_true(has_warning(s, "read --enable-http2, --mooncake-ib-device, --mamba-track-interval, --ssl-certfile and 1 "
                               "more flags, which"));
    /* a /server_info dump */
    arglist dump = {0}, cfg = {0};
    kvc_origin o;
    origin_set(&o, "info.json", 3, 3, "");
    assert_int_equal(args_push(&dump, ARG_DUMP, "enable_http2", "true", &o, &d), KVC_OK);
    assert_int_equal(settings_build(&cfg, &dump, ".", 0, s, &d), KVC_OK);
    assert_false(has_warning(s, "start-up checks"));
    arglist_free(&dump);
    /* every row names a field of a flag of each release it holds for, and cites the newest of them */
    for (unsigned i = 0; i < SGLANG_NCHECK_ROWS; i++) {
        const sglang_check_row *c = &SGLANG_CHECK_ROWS[i];
        int newest = -1;
        for (unsigned r = 0; r < SGLANG_NRELEASES; r++) {
            if (!(c->releases & SGLANG_RELEASE_BIT(r))) continue;
            if (newest < 0) newest = (int)r;
            int found = 0;
            for (unsigned k = 0; k < SGLANG_PARSERS[r].n && !found; k++)
                found = strcmp(SGLANG_FLAG_DEFS[SGLANG_FLAG_ROWS[SGLANG_PARSERS[r].order[k]].def].dest, c->dest) == 0;
            if (!found) fail_msg("check row %u: %s is no flag's field in %s", i, c->dest, SGLANG_VERSIONS[r]);
        }
        char lead[40];
        snprintf(lead, sizeof lead, "sglang %s: python/sglang/srt/", newest < 0 ? "?" : SGLANG_VERSIONS[newest]);
        if (strncmp(c->cite, lead, strlen(lead)) != 0) fail_msg("check row %u cites %s", i, c->cite);
    }
    free(s);
}

/* json.loads as CPython reads it (pyjson.c; the messages are CPython 3.11's), and orjson.loads (json_list_type)
 * where it differs: NaN, Infinity, lone surrogates and infinite numbers */
struct members {
    pyjson_member *m;
    size_t n;
};
static void keep_member(void *arg, const pyjson_member *m)
{
    struct members *got = arg;
    if (got->n < 8) got->m[got->n] = *m;
    got->n++;
}

static void test_flags__json_as_python_reads_it(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int orjson;
        const char *error; /* NULL: taken */
    } J[] = {
        {"{\"a\":1}", 0, NULL},
        {"{\"a\":01}", 0, "JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)"},
        {"{\"a\":1.}", 0, "JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)"},
        {"{\"a\":1.e5}", 0, "JSONDecodeError: Expecting ',' delimiter: line 1 column 7 (char 6)"},
        {"[NaN, Infinity, -Infinity]", 0, NULL},
        {"[\"\\ud800\"]", 0, NULL},
        {"{\"a\":\"x\ty\"}", 0, "JSONDecodeError: Invalid control character at: line 1 column 8 (char 7)"},
        {"{\"a\":1,}", 0, "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8"},
        {"[1,]", 0, "JSONDecodeError: Expecting value: line 1 column 4 (char 3)"},
        {"{\"a\"}", 0, "JSONDecodeError: Expecting ':' delimiter: line 1 column 5 (char 4)"},
        {"\"abc", 0, "JSONDecodeError: Unterminated string starting at: line 1 column 1 (char 0)"},
        {"\"\\uZZZZ\"", 0, "JSONDecodeError: Invalid \\uXXXX escape: line 1 column 3 (char 2)"},
        {"\"\\x\"", 0, "JSONDecodeError: Invalid \\escape: line 1 column 2 (char 1)"},
        {"{} {}", 0, "JSONDecodeError: Extra data: line 1 column 4 (char 3)"},
        {"  [1]\n", 0, NULL},
        {"[1]\f", 0, "JSONDecodeError: Extra data: line 1 column 4 (char 3)"},
        {"{\n\"a\":\n01}", 0, "JSONDecodeError: Expecting ',' delimiter: line 3 column 2 (char 8)"},
        {"[1e999]", 0, NULL},
        {"\xc3\xa9{", 0, "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"}, /* positions in characters */
        {"\xef\xbb\xbf[1]", 0, "JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1"},
        {"[NaN]", 1, "JSONDecodeError"},
        {"[\"\\ud800\"]", 1, "JSONDecodeError"},
        {"[1e999]", 1, "JSONDecodeError"},
        {"[99999999999999999999, 1.5, \"\\ud800\\udc00\"]", 1, NULL},
    };
    for (size_t i = 0; i < COUNT_OF(J); i++) {
        strbuf err = {0};
        int ok = pyjson_loads(J[i].text, J[i].orjson, NULL, NULL, NULL, &err);
        if (J[i].error ? ok || !err.p || !strstr(err.p, J[i].error) : !ok)
            fail_msg("case %zu: %s", i, ok ? "taken" : err.p);
        free(err.p);
    }
    /* the top object's members, as Python holds them: keys decoded, a key given twice twice, numbers' kinds */
    pyjson_member seen[8];
    struct members got = {seen, 0};
    py_kind top = PY_OTHER;
    strbuf err = {0};
    assert_true(pyjson_loads(" {\"lora\\u005fpath\":{\"x\":1}, \"k\":\"\\u00e9a\\n\", \"k\":-0, \"f\":1E5, \"n\":NaN, "
                             "\"b\":true, \"l\":[1]} ", 0, &top, keep_member, &got, &err));
    assert_int_equal(top, PY_DICT);
    assert_int_equal(got.n, 7);
    static const struct {
        const char *key;
        py_kind kind;
        const char *text;
        size_t len;
    } WANT[] = {{"lora_path", PY_DICT, "{\"x\":1}", 7}, {"k", PY_STR, "\x7f" "a\n", 3}, {"k", PY_INT, "-0", 2},
                {"f", PY_FLOAT, "1E5", 3}, {"n", PY_FLOAT, "NaN", 3}, {"b", PY_TRUE, "true", 4},
                {"l", PY_LIST, "[1]", 3}};
    for (size_t i = 0; i < COUNT_OF(WANT); i++) {
        assert_string_equal(seen[i].key, WANT[i].key);
        assert_int_equal(seen[i].kind, WANT[i].kind);
        assert_string_equal(seen[i].text, WANT[i].text);
        assert_int_equal(seen[i].len, WANT[i].len);
    }
    got.n = 0; /* a key escaped as \u0000 is no plain key's */
    assert_true(pyjson_loads("{\"key\\u0000\":1}", 0, &top, keep_member, &got, &err));
    assert_string_equal(seen[0].key, "key\x7f");
    got.n = 7;
    assert_true(pyjson_loads("[{\"a\":1}]", 0, &top, keep_member, &got, &err));
    assert_int_equal(top, PY_LIST);
    assert_int_equal(got.n, 7); /* only the top object's members */
    free(err.p);
    /* str.strip(): Python's whitespace, Unicode's too */
    size_t b, e;
    py_strip("\xc2\xa0 {x}\xe3\x80\x80\t", &b, &e);
    assert_int_equal(b, 3);
    assert_int_equal(e, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flags__every_release_reads_the_oracle_commands_as_its_own_parser_did),
        cmocka_unit_test(test_flags__random_commands_read_as_each_parser_did),
        cmocka_unit_test(test_flags__the_generated_table_is_of_the_releases_kvcheck_knows),
        cmocka_unit_test(test_flags__the_spelling_each_release_prefers),
        cmocka_unit_test(test_flags__per_release_differences),
        cmocka_unit_test(test_flags__mamba_state_dtype_settings),
        cmocka_unit_test(test_flags__fp4_check_settings),
        cmocka_unit_test(test_flags__prefixes_ambiguity_and_equals),
        cmocka_unit_test(test_flags__values_types_and_arity),
        cmocka_unit_test(test_flags__sglang_s_own_value_types),
        cmocka_unit_test(test_flags__deprecated_actions),
        cmocka_unit_test(test_flags__config_files_as_each_release_merges_them),
        cmocka_unit_test(test_flags__sglang_serve_takes_the_model_as_its_first_word_from_0_5_16),
        cmocka_unit_test(test_flags__server_info_keys_are_the_release_s_dests),
        cmocka_unit_test(test_flags__flags_sglang_checks_that_kvcheck_does_not_model),
        cmocka_unit_test(test_flags__secrets_are_not_repeated),
        cmocka_unit_test(test_flags__grpc_environment_and_sidecar_args),
    cmocka_unit_test(test_flags__json_as_python_reads_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
