/* SGLANG_RULES.md §1-5 as a truth table of flag combinations. */
#include "support.h"
#include "engine/sglang/sglang.h"

#include <stdlib.h>
#include <string.h>

static const struct row {
    const char *gpu, *model, *args;
    const char *release; /* NULL: the default */
    const char *dtype, *prefill, *decode, *layout;
    uint32_t bytes, page;
} TABLE[] = {
    /* §3 defaults table, row by row */
    {"H200", "deepseek-v3.2", "", NULL, "bfloat16", "flashmla_sparse", "fa3", "bf16", 1152, 64},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    {"B200", "glm-5.2", "--kv-cache-dtype bfloat16", NULL, "bfloat16", "flashmla_sparse", "trtllm", "bf16", 1152, 64},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"H200", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"H200", "glm-5.2", "--enable-hisparse --disable-radix-cache", NULL, "bfloat16", "flashmla_sparse", "flashmla_sparse", "bf16", 1152, 64},
    {"B300", "glm-5.2", "--kv-cache-dtype bf16 --enable-hisparse --disable-radix-cache", NULL, "bfloat16", "flashmla_sparse", "flashmla_sparse", "bf16", 1152, 64},
    /* ROCm: tilelang when both sides are unset, raw FP8 with tilelang/aiter */
    {"MI300X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", NULL, "fp8_e4m3", "tilelang", "tilelang", "fp8_raw", 576, 64},
    {"MI355X", "deepseek-v3.2", "", NULL, "bfloat16", "tilelang", "tilelang", "bf16", 1152, 64},
    {"MI300X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend aiter", NULL, "fp8_e4m3", "flashmla_kv", "aiter", "fp8_raw", 576, 64},
    {"MI300X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    /* §4 row rules */
    {"B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", "either-backend", "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--disaggregation-mode decode --dsa-decode-backend flashmla_kv", NULL, "fp8_e4m3", "trtllm", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "--disaggregation-mode decode --dsa-decode-backend flashmla_kv", "either-backend", "fp8_e4m3", "trtllm", "flashmla_kv", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--disaggregation-mode decode --dsa-prefill-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--dsa-prefill-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_sparse", "either-backend", "fp8_e4m3", "flashmla_kv", "flashmla_sparse", "fp8_flashmla", 656, 64},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --disaggregation-mode decode --dsa-decode-backend trtllm", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--kv-cache-dtype bfloat16 --dsa-decode-backend trtllm --dsa-prefill-backend trtllm", NULL, "bfloat16", "trtllm", "trtllm", "bf16", 1152, 64},
    {"RTX PRO 6000", "glm-5.2", "", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    {"GB10", "glm-5.2", "", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    /* §5 page size: forced to 64 for DSA on CUDA */
    {"B300", "glm-5.2", "--page-size 32", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    {"H100", "deepseek-v3.2", "--page-size 1", NULL, "bfloat16", "flashmla_sparse", "fa3", "bf16", 1152, 64},
    /* non-DSA MLA: R + r elements of the KV dtype, page size as given */
    {"H200", "deepseek-v3", "", NULL, "bfloat16", "", "", "bf16", 1152, 1},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3 --page-size 64", NULL, "fp8_e4m3", "", "", "fp8_raw", 576, 64},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp8_e5m2 --page-size 16", NULL, "fp8_e5m2", "", "", "fp8_e5m2_raw", 576, 16},
    {"H200", "deepseek-v3", "--kv-cache-dtype bf16 --dsa-decode-backend fa3", NULL, "bfloat16", "", "", "bf16", 1152, 1},
};

static void test_rules__truth_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
        const struct row *t = &TABLE[i];
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line(t->gpu, t->model, t->args, t->release, &r, &d) != KVC_OK)
            fail_msg("row %zu (%s %s '%s') rejected: %s", i, t->gpu, t->model, t->args, d.message);
        if (strcmp(VAL(&r, "kv_cache_dtype"), t->dtype) || strcmp(VAL(&r, "dsa_prefill_backend"), t->prefill) ||
            strcmp(VAL(&r, "dsa_decode_backend"), t->decode) || strcmp(r.kv.name, t->layout) ||
            r.kv.bytes_per_token != t->bytes || r.kv.page_size != t->page)
            fail_msg("row %zu (%s %s '%s' %s): got %s %s %s %s %u page %u", i, t->gpu, t->model, t->args,
                     t->release ? t->release : "default", VAL(&r, "kv_cache_dtype"), VAL(&r, "dsa_prefill_backend"),
                     VAL(&r, "dsa_decode_backend"), r.kv.name, r.kv.bytes_per_token, r.kv.page_size);
        assert_int_equal(r.kv.page_bytes, (uint64_t)t->bytes * t->page);
    }
}

static const struct bad {
    const char *gpu, *model, *args, *message;
} BAD[] = {
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e5m2", "DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype"},
    {"B300", "glm-5.2", "--kv-cache-dtype int8", "argument --kv-cache-dtype: invalid choice: 'int8'"},
    {"B300", "glm-5.2", "--dsa-decode-backend flashmla_fast", "invalid choice: 'flashmla_fast' (choose from 'flashmla_sparse', 'flashmla_sparse_q8', 'flashmla_kv'"},
    {"B300", "glm-5.2", "--nsa-prefill-backend nope", "unrecognized arguments: --nsa-prefill-backend nope"},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache --dsa-prefill-backend trtllm",
     "HiSparse with --kv-cache-dtype=fp8_e4m3 requires --dsa-prefill-backend in ['flashinfer_sparse_mla', 'flashmla_kv'], but got trtllm."},
    {"B300", "glm-5.2", "--kv-cache-dtype bfloat16 --enable-hisparse --disable-radix-cache --dsa-decode-backend flashmla_kv",
     "HiSparse with --kv-cache-dtype=bfloat16 requires --dsa-decode-backend in ['flashmla_sparse'], but got flashmla_kv."},
    {"B300", "glm-5.2", "--enable-hisparse", "Hierarchical sparse attention currently requires --disable-radix-cache."},
    {"H200", "deepseek-v3", "--enable-hisparse --disable-radix-cache", "--enable-hisparse is only supported for DSA"},
    {"B300", "glm-5.2", "--disaggregation-mode both", "invalid choice: 'both' (choose from 'null', 'prefill', 'decode')"},
    {"B300", "glm-5.2", "--page-size 0", "the page size must be a whole number"},
    {"B300", "glm-5.2", "--page-size abc", "argument --page-size: invalid int value: 'abc'"},
    {"H200", "deepseek-v3", "--page-size -4", "the page size must be a whole number"},
    {"H200", "deepseek-v3", "--page-size 99999999", "the page size must be a whole number"},
    {"B300", "glm-5.2", "--speculative-algorithm MEDUSA", "invalid choice 'MEDUSA'"},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "invalid choice: 'fp4_e2m1'"},
};

static void test_rules__values_sglang_rejects_are_config_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(BAD[i].gpu, BAD[i].model, BAD[i].args, NULL, &r, &d);
        if (st != KVC_ERR_CONFIG) fail_msg("case %zu '%s': status %d", i, BAD[i].args, st);
        assert_contains(d.message, BAD[i].message);
        assert_string_equal(d.file, "--args");
        assert_true(d.column >= 1);
    }
}

static void test_rules__reasons_say_how_each_value_was_decided(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode prefill --page-size 32", NULL, &r, &d), KVC_OK);
    assert_string_equal(resolved_find(&r, "dsa_prefill_backend")->reason,
                        "default for an unset prefill backend with fp8_e4m3 on compute capability 10.3");
    assert_contains(resolved_find(&r, "kv_cache_dtype")->reason, "auto: SGLang picks fp8_e4m3 for DSA models on compute capability 10.3");
    assert_contains(resolved_find(&r, "page_size")->reason, "forced to 64 for DSA on CUDA (you passed 32)");
    assert_contains(r.row.reason, "the prefill backend trtllm writes raw FP8 rows");
    assert_contains(r.row.reason, "active-backend rule: on a prefill worker the prefill backend decides");
    assert_contains(resolved_find(&r, "disaggregation_mode")->reason, "set by --disaggregation-mode at --args:1:1");

    assert_int_equal(resolve_line("H200", "glm-5.2", "--kv-cache-dtype bf16", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "kv_cache_dtype")->reason, "bf16 is SGLang's alias of bfloat16");
    assert_contains(r.row.reason, "bfloat16 rows are always R + r bf16 values");
    assert_contains(resolved_find(&r, "dsa_decode_backend")->reason, "with bfloat16 on compute capability 9.0");

    assert_int_equal(resolve_line("B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "dsa_decode_backend")->reason, "with --enable-hisparse and fp8_e4m3");
    assert_int_equal(resolve_line("MI300X", "glm-5.2", "", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "dsa_prefill_backend")->reason, "on ROCm/HIP with both DSA backends unset");
    assert_contains(r.warnings[0], "forces page size 1");
}

static void test_rules__when_the_rules_disagree_the_worker_is_warned(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "the either-backend rule gives this worker fp8_raw, not fp8_flashmla");
    assert_contains(r.warnings[0], "set --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv");
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", "either-backend", &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "the active-backend rule gives this worker fp8_flashmla, not fp8_raw");
    assert_contains(r.warnings[0], "set --dsa-prefill-backend trtllm --dsa-decode-backend trtllm to get fp8_raw");
    /* both backends set alike: the rules agree */
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.nwarnings, 0);
}

static void test_rules__entries_count_draft_layers_and_the_indexer(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm EAGLE", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 79);
    assert_int_equal(r.draft_entries, 1);
    assert_true(r.has_indexer);
    assert_int_equal(r.indexer.page_bytes, 8448);
    assert_int_equal(r.kv_bytes_per_token_all, 79 * 576);
    assert_int_equal(r.indexer_bytes_per_token_all, 79 * 132);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm NEXTN", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 79);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm NGRAM", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm EAGLE3", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_contains(r.warnings[0], "draft model's own KV pool is not derived");
    assert_int_equal(resolve_line("B300", "glm-5.2", "", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_int_equal(resolve_line("H200", "deepseek-v3", "", NULL, &r, &d), KVC_OK);
    assert_false(r.has_indexer);
}

static void test_rules__parallelism_never_changes_the_layout(void **state)
{
    (void)state;
    kvc_resolved a, b;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--tp 8 --dp 2 --enable-dp-attention", NULL, &a, &d), KVC_OK);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--tp-size 1", NULL, &b, &d), KVC_OK);
    assert_string_equal(VAL(&a, "parallelism"), "tp 8, dp 2, dp-attention");
    assert_contains(resolved_find(&a, "parallelism")->reason, "does not change MLA bytes");
    assert_memory_equal(&a.kv, &b.kv, sizeof a.kv);
}

static void test_rules__late_backends_and_odd_platforms_are_warned(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache "
                                  "--dsa-prefill-backend flashinfer_sparse_mla --dsa-decode-backend flashinfer_sparse_mla", NULL, &r, &d),
                     KVC_OK);
    assert_string_equal(r.kv.name, "fp8_flashmla");
    assert_contains(r.warnings[0], "flashinfer_sparse_mla was added in late-2026 SGLang and its KV layout is unconfirmed");
    assert_int_equal(resolve_line("B300", "glm-5.2", "--dsa-decode-backend fa3", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "fa3 is not known to run on B300");
    assert_int_equal(resolve_line("A100", "deepseek-v3", "", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "older than Hopper");
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--dsa-decode-backend fa3", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "--dsa-decode-backend has no effect");
}

static void test_rules__index_head_dim_must_be_128(void **state)
{
    (void)state;
    const char *json = "{\"architectures\":[\"DeepseekV32ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                       "\"num_hidden_layers\":2,\"index_head_dim\":64,\"index_topk\":2048}";
    model_info m;
    kvc_diag d;
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_OK);
    gpu_info g;
    assert_int_equal(gpu_parse("B300", &g, NULL, &d), KVC_OK);
    settings s;
    memset(&s, 0, sizeof s);
    kvc_resolved r;
    assert_int_equal(rules_resolve(&g, &m, &s, REL_ACTIVE_BACKEND, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "index_head_dim is 64: SGLang's DSA indexer K cache needs 128");
}

static void test_rules__releases_are_named_and_checked(void **state)
{
    (void)state;
    assert_string_equal(kvc_engine_release("sglang", 0), "active-backend");
    assert_string_equal(kvc_engine_release(NULL, 1), "either-backend");
    assert_null(kvc_engine_release("sglang", 2));
    assert_null(kvc_engine_release("vllm", 0));
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "", "either", &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "kvcheck knows no sglang release 'either'; it models: active-backend, either-backend");
    assert_int_equal(resolve_line("B300", "glm-5.2", "", "either-backend", &r, &d), KVC_OK);
    assert_string_equal(r.release, "either-backend");
    assert_string_equal(r.engine, "sglang");
    /* every setting SGLang shows was added, typed, in display order */
    static const char *const NAMES[] = {"kv_cache_dtype", "dsa_prefill_backend", "dsa_decode_backend",
                                        "disaggregation_mode", "page_size", "speculative_algorithm",
                                        "enable_hisparse", "parallelism"};
    assert_int_equal(r.nsettings, COUNT_OF(NAMES));
    for (unsigned i = 0; i < r.nsettings; i++) assert_string_equal(r.settings[i].name, NAMES[i]);
    assert_int_equal(resolved_find(&r, "page_size")->type, KVC_VALUE_UINT);
    assert_int_equal(resolved_find(&r, "page_size")->number, 64);
    assert_int_equal(resolved_find(&r, "enable_hisparse")->type, KVC_VALUE_BOOL);
    assert_int_equal(resolved_find(&r, "enable_hisparse")->number, 0);
    assert_true(resolved_find(&r, "kv_cache_dtype")->flags & KVC_SETTING_COMPARED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules__truth_table),
        cmocka_unit_test(test_rules__values_sglang_rejects_are_config_errors),
        cmocka_unit_test(test_rules__reasons_say_how_each_value_was_decided),
        cmocka_unit_test(test_rules__when_the_rules_disagree_the_worker_is_warned),
        cmocka_unit_test(test_rules__entries_count_draft_layers_and_the_indexer),
        cmocka_unit_test(test_rules__parallelism_never_changes_the_layout),
        cmocka_unit_test(test_rules__late_backends_and_odd_platforms_are_warned),
        cmocka_unit_test(test_rules__index_head_dim_must_be_128),
        cmocka_unit_test(test_rules__releases_are_named_and_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
