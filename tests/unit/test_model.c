#include "support.h"
#include "worker/worker.h"

#include <string.h>

static void test_model__presets_load_with_their_dimensions(void **state)
{
    (void)state;
    model_info m;
    kvc_diag d;
    assert_int_equal(model_load("glm-5.2", ".", &m, &d), KVC_OK);
    assert_string_equal(m.architecture, "GlmMoeDsaForCausalLM");
    assert_int_equal(m.index_topk, 2048);
    assert_false(m.dsa); /* the engine's rules decide, per release */
    assert_int_equal(m.num_hidden_layers, 78);
    assert_int_equal(m.num_nextn_predict_layers, 1);
    assert_int_equal(m.kv_lora_rank, 512);
    assert_int_equal(m.qk_rope_head_dim, 64);
    assert_int_equal(m.index_head_dim, 128);
    assert_int_equal(model_load("DeepSeek-V3.2", ".", &m, &d), KVC_OK); /* any case */
    assert_int_equal(m.index_topk, 2048);
    assert_int_equal(m.num_hidden_layers, 61);
    assert_int_equal(model_load("deepseek-v3", ".", &m, &d), KVC_OK);
    assert_int_equal(m.index_topk, 0); /* MLA without an indexer */
}

static void test_model__a_path_or_a_model_directory_loads(void **state)
{
    (void)state;
    model_info m;
    kvc_diag d;
    assert_int_equal(model_load("fixtures/models/glm-5.2.json", ".", &m, &d), KVC_OK);
    assert_string_equal(m.name, "glm-5.2");
    assert_int_equal(model_load("models/deepseek-v3.json", "fixtures", &m, &d), KVC_OK);
    assert_string_equal(m.architecture, "DeepseekV3ForCausalLM");
}

static model_info parse_ok(const char *json)
{
    model_info m;
    kvc_diag d;
    if (model_parse(json, strlen(json), "c.json", "t", &m, &d) != KVC_OK) fail_msg("rejected: %s", d.message);
    return m;
}

/* The config's facts the engine's DSA rules read: index_topk,
 * learnable_sink, index_kpool; whether that makes a DSA model is the
 * engine's judgement per release (test_rules). */
static void test_model__dsa_facts_are_read_from_the_config(void **state)
{
    (void)state;
    model_info m = parse_ok("{\"architectures\":[\"Foo\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                            "\"num_hidden_layers\":2,\"index_head_dim\":128,\"index_topk\":2048,"
                            "\"learnable_sink\":true,\"index_kpool\":4}");
    assert_int_equal(m.index_topk, 2048);
    assert_true(m.learnable_sink);
    assert_int_equal(m.index_kpool, 4);
    assert_false(m.dsa);
    m = parse_ok("{\"architectures\":[\"Foo\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,\"num_hidden_layers\":2}");
    assert_int_equal(m.index_topk, 0);
    assert_false(m.learnable_sink);
    assert_int_equal(m.index_kpool, 0);
}

static void expect_error(const char *json, const char *message, unsigned line, unsigned column)
{
    model_info m;
    kvc_diag d;
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, message);
    assert_string_equal(d.file, "c.json");
    assert_int_equal(d.line, line);
    assert_int_equal(d.column, column);
}

static void test_model__bad_values_name_the_key_and_its_position(void **state)
{
    (void)state;
    const char *base_tail = "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2}";
    char json[512];
    snprintf(json, sizeof json, "{\"architectures\":[\"X\"],\n  \"kv_lora_rank\": \"512\",%s", base_tail);
    expect_error(json, "\"kv_lora_rank\" must be a whole number, but it is a string", 2, 3);
    snprintf(json, sizeof json, "{\"architectures\":[\"X\"],\n\"kv_lora_rank\": 512.5,%s", base_tail);
    expect_error(json, "but it is 512.5", 2, 1);
    snprintf(json, sizeof json, "{\"architectures\":[\"X\"],\n\"kv_lora_rank\": 1e12,%s", base_tail);
    expect_error(json, "out of range", 2, 1);
    snprintf(json, sizeof json, "{\"architectures\":[\"X\"],\n\"kv_lora_rank\": -1,%s", base_tail);
    expect_error(json, "out of range", 2, 1);
    expect_error("{\"architectures\": \"X\"}", "\"architectures\" must be a list of strings", 1, 2);
    expect_error("{\"architectures\":[\"X\"],\"kv_lora_rank\":512,\n\"kv_lora_rank\":512}", "duplicate key", 2, 1);
    expect_error("{\"architectures\":[\"X\"]\n \"kv_lora_rank\":512}", "malformed JSON", 2, 2);
    expect_error("{\"architectures\":[\"X\"]} x", "text after the end", 1, 25);
}

static void test_model__non_mla_and_missing_fields_are_explained(void **state)
{
    (void)state;
    model_info m;
    kvc_diag d;
    const char *llama = "{\"architectures\":[\"LlamaForCausalLM\"],\"num_hidden_layers\":32}";
    assert_int_equal(model_parse(llama, strlen(llama), "c.json", "t", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "not an MLA model");
    const char *dsa = "{\"architectures\":[\"DeepseekV32ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                      "\"num_hidden_layers\":2,\"index_topk\":2048}";
    assert_int_equal(model_parse(dsa, strlen(dsa), "c.json", "t", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "needs \"index_head_dim\"");
    assert_int_equal(model_parse("", 0, "c.json", "t", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "is empty");
}

static void test_model__unknown_names_and_missing_files(void **state)
{
    (void)state;
    model_info m;
    kvc_diag d;
    assert_int_equal(model_load("glm-9", ".", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "neither a file nor a bundled preset (deepseek-v3.2, deepseek-v3, glm-5.2)");
    assert_int_equal(model_load("no/such/config.json", ".", &m, &d), KVC_ERR_IO);
    assert_contains(d.message, "cannot open no/such/config.json");
}

static void test_model__long_names_and_paths_whole_or_refused_with_the_limit(void **state)
{
    (void)state;
    const char *dir = "fixtures/workers/zai-org/GLM-5.2-FP8-dynamic-w8a8-calibrated-on-ultrachat-200k-by-a-team-with-a-long-name";
    model_info m;
    kvc_diag d;
    /* a model directory named past 63 bytes: found by --model-path, named whole */
    kvc_resolved r;
    char args[300];
    snprintf(args, sizeof args, "--model-path %s", dir);
    kvc_worker *w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    assert_int_equal(kvc_worker_add_args(w, args, "--args", &d), KVC_OK);
    if (worker_resolve_selected(w, &r, &d) != KVC_OK) fail_msg("%s", d.message);
    assert_string_equal(r.model.name, strrchr(dir, '/') + 1);
    kvc_worker_free(w);
    assert_int_equal(model_load(dir, ".", &m, &d), KVC_OK);
    assert_string_equal(m.name, strrchr(dir, '/') + 1);
    /* a path past KVC_PATH_LEN is refused, saying the limit */
    char path[700];
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    assert_int_equal(model_load(path, ".", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "is 699 bytes long: kvcheck takes paths of up to 511 bytes");
    w = kvc_worker_create("w");
    assert_int_equal(kvc_worker_load_file(w, path, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "kvcheck takes paths of up to 511 bytes");
    kvc_worker_free(w);
    /* a label past it is refused when the worker is prepared */
    w = kvc_worker_create(path);
    assert_string_equal(kvc_worker_label(w), path);
    assert_int_equal(kvc_worker_set_gpu(w, "B300", &d), KVC_OK);
    assert_int_equal(kvc_worker_set_model(w, "glm-5.2", &d), KVC_OK);
    assert_int_equal(worker_resolve_selected(w, &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "is 699 bytes long: kvcheck takes labels of up to 511 bytes");
    kvc_worker_free(w);
    /* an architecture name past KVC_NAME_LEN */
    char cfg[400];
    snprintf(cfg, sizeof cfg, "{\"architectures\": [\"%.100s\"], \"kv_lora_rank\": 512, \"qk_rope_head_dim\": 64, "
                              "\"num_hidden_layers\": 2}", path);
    assert_int_equal(model_parse(cfg, strlen(cfg), "config.json", "m", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "\"architectures\"[0] 'aaaa");
    assert_contains(d.message, "is 100 bytes long: kvcheck takes names of up to 63 bytes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model__presets_load_with_their_dimensions),
        cmocka_unit_test(test_model__a_path_or_a_model_directory_loads),
        cmocka_unit_test(test_model__dsa_facts_are_read_from_the_config),
        cmocka_unit_test(test_model__bad_values_name_the_key_and_its_position),
        cmocka_unit_test(test_model__non_mla_and_missing_fields_are_explained),
        cmocka_unit_test(test_model__unknown_names_and_missing_files),
        cmocka_unit_test(test_model__long_names_and_paths_whole_or_refused_with_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
