#include "support.h"
#include "worker/worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    assert_contains(d.message, "the model could not be found: model 'glm-9'");
    assert_contains(d.message, "not a model kvcheck bundles (deepseek-v3.2, deepseek-v3, glm-5.1, glm-5.2, glm-5,");
    assert_int_equal(model_load("no/such/config.json", ".", &m, &d), KVC_ERR_IO);
    assert_contains(d.message, "cannot open no/such/config.json");
}

/* A Hugging Face cache in a temporary directory, with `snapshots` (each
 * holding the glm-5.2 preset as config.json) and refs/main naming `main` (or none). */
static void make_hub(char *root, size_t size, const char *repo, const char *const *snapshots, const char *main_ref)
{
    char tmpl[] = "/tmp/kvc-hub-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    snprintf(root, size, "%s", tmpl);
    char path[1024];
    snprintf(path, sizeof path, "mkdir -p '%s/%s/refs'", root, repo);
    assert_int_equal(system(path), 0);
    for (; *snapshots; snapshots++) {
        snprintf(path, sizeof path, "mkdir -p '%s/%s/snapshots/%s' && cp fixtures/models/glm-5.2.json '%s/%s/snapshots/%s/config.json'",
                 root, repo, *snapshots, root, repo, *snapshots);
        assert_int_equal(system(path), 0);
    }
    if (main_ref) {
        snprintf(path, sizeof path, "printf '%%s\\n' '%s' > '%s/%s/refs/main'", main_ref, root, repo);
        assert_int_equal(system(path), 0);
    }
}

static void remove_tree(const char *root)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void test_model__checkpoint_ids_are_found_in_the_hugging_face_cache(void **state)
{
    (void)state;
    char root[256];
    static const char *const two[] = {"1111aaaa2222bbbb", "3333cccc4444dddd", NULL};
    make_hub(root, sizeof root, "models--zai-org--GLM-5.2-FP8", two, "3333cccc4444dddd");
    setenv("HF_HUB_CACHE", root, 1);
    model_info m;
    kvc_diag d;
    kvc_origin o;
    origin_set(&o, "w.json", 2, 3, "--model-path");
    assert_int_equal(model_from_path("zai-org/GLM-5.2-FP8", NULL, &o, ".", "prefill", &m, &d), KVC_OK);
    assert_string_equal(m.name, "zai-org/GLM-5.2-FP8@3333cccc4444"); /* the snapshot refs/main names */
    assert_int_equal(m.num_hidden_layers, 78);
    /* --revision: a commit names its snapshot, a branch or tag its refs/ file; one not cached is refused, never
     * taken for main, and so is a bundled config at another revision */
    assert_int_equal(model_from_path("zai-org/GLM-5.2-FP8", "1111aaaa2222bbbb", &o, ".", "prefill", &m, &d), KVC_OK);
    assert_string_equal(m.name, "zai-org/GLM-5.2-FP8@1111aaaa2222");
    char tag[1100];
    snprintf(tag, sizeof tag, "printf '1111aaaa2222bbbb' > '%s/models--zai-org--GLM-5.2-FP8/refs/v1'", root);
    assert_int_equal(system(tag), 0);
    assert_int_equal(model_from_path("zai-org/GLM-5.2-FP8", "v1", &o, ".", "prefill", &m, &d), KVC_OK);
    assert_string_equal(m.name, "zai-org/GLM-5.2-FP8@1111aaaa2222");
    assert_int_equal(model_from_path("zai-org/GLM-5.2-FP8", "v2", &o, ".", "prefill", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "holds no revision v2 (neither refs/v2 nor snapshots/v2): download that revision, or "
                               "give its snapshot's directory");
    assert_int_equal(model_from_path("zai-org/GLM-5.1-FP8", "v2", &o, ".", "prefill", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "prefill: --model-path 'zai-org/GLM-5.1-FP8' at revision v2: kvcheck bundles its "
                               "config at the main revision only");
    assert_int_equal(model_from_path("zai-org/GLM-5.1-FP8", "main", &o, ".", "prefill", &m, &d), KVC_OK);
    /* no refs/main and two snapshots: no guess */
    char refs[512];
    snprintf(refs, sizeof refs, "%s/models--zai-org--GLM-5.2-FP8/refs/main", root);
    assert_int_equal(unlink(refs), 0);
    assert_int_equal(model_from_path("zai-org/GLM-5.2-FP8", NULL, &o, ".", "prefill", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "2 snapshots with a config.json");
    assert_string_equal(d.file, "w.json");
    unsetenv("HF_HUB_CACHE");
    remove_tree(root);

    /* HF_HOME/hub, one snapshot and no refs/main: that snapshot */
    static const char *const one[] = {"5555eeee", NULL};
    make_hub(root, sizeof root, "hub/models--deepseek-ai--DeepSeek-V3.2", one, NULL);
    setenv("HF_HOME", root, 1);
    assert_int_equal(model_from_path("deepseek-ai/DeepSeek-V3.2/", NULL, &o, ".", "decode", &m, &d), KVC_OK);
    assert_string_equal(m.name, "deepseek-ai/DeepSeek-V3.2@5555eeee");
    /* refs/main naming a snapshot that is not there */
    char bad[1100];
    snprintf(bad, sizeof bad, "%s/hub/models--deepseek-ai--DeepSeek-V3.2/refs/main", root);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("deadbeef\n", f);
    fclose(f);
    assert_int_equal(model_from_path("deepseek-ai/DeepSeek-V3.2", NULL, &o, ".", "decode", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "refs/main names snapshot deadbeef, which has no config.json");
    unsetenv("HF_HOME");
    remove_tree(root);
}

static void test_model__bundled_checkpoint_ids_as_users_type_them(void **state)
{
    (void)state;
    setenv("HF_HUB_CACHE", "/nonexistent/hub", 1);
    model_info m;
    kvc_diag d;
    static const struct {
        const char *id, *name;
        uint32_t layers, topk;
    } CASES[] = {
        {"zai-org/GLM-5.2-FP8", "zai-org/GLM-5.2-FP8", 78, 2048},
        {"ZAI-ORG/glm-5.2-fp8/", "zai-org/GLM-5.2-FP8", 78, 2048},
        {"nvidia/GLM-5.2-NVFP4", "nvidia/GLM-5.2-NVFP4", 78, 2048},
        {"zai-org/GLM-5", "zai-org/GLM-5", 78, 2048},
        {"zai-org/GLM-5.1-FP8", "zai-org/GLM-5.1-FP8", 78, 2048},
        {"deepseek-ai/DeepSeek-V3.2-Exp", "deepseek-ai/DeepSeek-V3.2-Exp", 61, 2048},
        {"nvidia/DeepSeek-V3.2-NVFP4", "nvidia/DeepSeek-V3.2-NVFP4", 61, 2048},
        {"deepseek-ai/DeepSeek-R1-0528", "deepseek-ai/DeepSeek-R1-0528", 61, 0},
        {"/models/GLM-5.2", "glm-5.2", 78, 2048}, /* a local path whose last part names a preset */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        if (model_from_path(CASES[i].id, NULL, NULL, ".", "w", &m, &d) != KVC_OK) fail_msg("%s: %s", CASES[i].id, d.message);
        assert_string_equal(m.name, CASES[i].name);
        assert_int_equal(m.num_hidden_layers, CASES[i].layers);
        assert_int_equal(m.index_topk, CASES[i].topk);
    }
    assert_int_equal(model_from_path("deepseek-ai/DeepSeek-V4-Pro", NULL, NULL, ".", "w", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "not in the Hugging Face cache (/nonexistent/hub)");
    unsetenv("HF_HUB_CACHE");
}

static void test_model__placeholders_say_the_model_could_not_be_found(void **state)
{
    (void)state;
    static const char *const P[] = {"/path/to/model", "path/to/GLM-5.2", "${model_path}", "$MODEL", "<MODEL_PATH>",
                                    "{{ model }}"};
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
        model_info m;
        kvc_diag d;
        kvc_origin o;
        origin_set(&o, "p.json", 4, 9, "--model-path");
        assert_int_equal(model_from_path(P[i], NULL, &o, ".", "prefill", &m, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, "prefill: the model could not be found");
        assert_contains(d.message, "is a placeholder");
        assert_contains(d.message, "name the model with --model or \"model\" in the worker file");
        assert_int_equal(d.line, 4);
    }
}

/* A draft model's config may be MHA (no kv_lora_rank); what it gives is
 * read, and a bad value is refused at its key, as for the model. */
static void test_model__draft_configs_may_be_mha(void **state)
{
    (void)state;
    model_info m;
    kvc_diag d;
    kvc_origin o;
    origin_set(&o, "w.json", 1, 1, "--speculative-draft-model-path");
    assert_int_equal(model_draft_from_path("tests/unit/models/EAGLE3_DRAFT_2L.json", NULL, &o, ".", "", &m, &d), KVC_OK);
    assert_int_equal(m.kv_lora_rank, 0);
    assert_int_equal(m.num_kv_heads, 4);
    assert_int_equal(m.v_head_dim, 64);
    assert_int_equal(m.num_hidden_layers, 2);
    assert_true(m.has_quantization);
    /* the model itself must be MLA */
    assert_int_equal(model_from_path("tests/unit/models/EAGLE3_DRAFT.json", NULL, &o, ".", "", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "no \"kv_lora_rank\": LlamaForCausalLMEagle3 is not an MLA model");
    /* a multimodal model's MLA fields under its text config are named as such, not taken for an MHA model */
    assert_int_equal(model_parse("{\"architectures\": [\"KimiK25ForConditionalGeneration\"],\n \"text_config\": "
                                 "{\"kv_lora_rank\": 512, \"qk_rope_head_dim\": 64}}", 117, "k.json", "k", &m, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "KimiK25ForConditionalGeneration keeps its MLA fields (\"kv_lora_rank\", ...) under "
                    "\"text_config\"");
    assert_int_equal(d.line, 2);
    char dir[] = "/tmp/kvc-draft-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    write_text(dir, "config.json",
               "{\"architectures\": [\"LlamaForCausalLMEagle3\"], \"num_hidden_layers\": 1,\n"
               " \"num_key_value_heads\": \"eight\"}\n",
               path, sizeof path);
    assert_int_equal(model_draft_from_path(dir, NULL, &o, ".", "", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "num_key_value_heads");
    assert_int_equal(d.line, 2);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
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
        cmocka_unit_test(test_model__checkpoint_ids_are_found_in_the_hugging_face_cache),
        cmocka_unit_test(test_model__bundled_checkpoint_ids_as_users_type_them),
        cmocka_unit_test(test_model__placeholders_say_the_model_could_not_be_found),
        cmocka_unit_test(test_model__draft_configs_may_be_mha),
        cmocka_unit_test(test_model__long_names_and_paths_whole_or_refused_with_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
