#include "support.h"

#include <string.h>

static kvc_layout build(const char *name, uint32_t R, uint32_t r, uint32_t page)
{
    kvc_layout l;
    kvc_diag d;
    kvc_layout_params p = {R, r, 128, page};
    if (layout_build(name, &p, &l, &d) != KVC_OK) fail_msg("%s: %s", name, d.message);
    return l;
}

static void expect_field(const kvc_layout *l, unsigned i, const char *name, kvc_elem elem, uint64_t base,
                         uint64_t stride, uint32_t count)
{
    assert_true(i < l->nfields);
    assert_string_equal(l->fields[i].name, name);
    assert_int_equal(l->fields[i].elem, elem);
    assert_int_equal(l->fields[i].base, base);
    assert_int_equal(l->fields[i].stride, stride);
    assert_int_equal(l->fields[i].count, count);
}

static void test_layout__fp8_flashmla_is_656_bytes_with_scales_at_512(void **state)
{
    (void)state;
    kvc_layout l = build("fp8_flashmla", 512, 64, 64);
    assert_int_equal(l.bytes_per_token, 656);
    assert_int_equal(l.page_bytes, 41984);
    assert_int_equal(l.nfields, 3);
    expect_field(&l, 0, "nope", KVC_ELEM_E4M3, 0, 656, 512);
    expect_field(&l, 1, "scale", KVC_ELEM_F32, 512, 656, 4);
    expect_field(&l, 2, "rope", KVC_ELEM_BF16, 528, 656, 64);
    for (unsigned i = 0; i < l.nfields; i++) assert_int_equal(l.fields[i].base % 16, 0);
    assert_int_equal(kvc_layout_field(&l, "scale")->base, 512);
    assert_true(kvc_layout_field(&l, "scale")->scale);
    assert_null(kvc_layout_field(&l, "indexer"));
}

static void test_layout__fp8_raw_and_bf16(void **state)
{
    (void)state;
    kvc_layout raw = build("fp8_raw", 512, 64, 64);
    assert_int_equal(raw.bytes_per_token, 576);
    assert_int_equal(raw.page_bytes, 36864);
    expect_field(&raw, 0, "nope", KVC_ELEM_E4M3, 0, 576, 512);
    expect_field(&raw, 1, "rope", KVC_ELEM_E4M3, 512, 576, 64);
    kvc_layout bf = build("bf16", 512, 64, 64);
    assert_int_equal(bf.bytes_per_token, 1152);
    assert_int_equal(bf.page_bytes, 73728);
    expect_field(&bf, 1, "rope", KVC_ELEM_BF16, 1024, 1152, 64);
}

static void test_layout__dsa_indexer_is_page_split_8448_bytes_per_page(void **state)
{
    (void)state;
    kvc_layout l = build("dsa_indexer", 512, 64, 64);
    assert_true(l.page_split);
    assert_int_equal(l.bytes_per_token, 132);
    assert_int_equal(l.page_bytes, 8448);
    expect_field(&l, 0, "k", KVC_ELEM_E4M3, 0, 128, 128);
    expect_field(&l, 1, "scale", KVC_ELEM_F32, 8192, 4, 1);
}

static void test_layout__sizes_follow_the_model_dimensions(void **state)
{
    (void)state;
    /* qk_rope_head_dim 0: 512 raw, 528 scaled (FORMATS.md) */
    assert_int_equal(build("fp8_raw", 512, 0, 64).bytes_per_token, 512);
    kvc_layout s = build("fp8_flashmla", 512, 0, 64);
    assert_int_equal(s.bytes_per_token, 528);
    assert_int_equal(s.nfields, 2);
    assert_int_equal(build("fp8_flashmla", 256, 32, 1).bytes_per_token, 256 + 8 + 64);
    assert_int_equal(build("fp8_raw", 512, 64, 1).page_bytes, 576);
}

static void test_layout__scaled_rows_need_rank_multiple_of_128(void **state)
{
    (void)state;
    kvc_layout l;
    kvc_diag d;
    kvc_layout_params p = {500, 64, 128, 64};
    assert_int_equal(layout_build("fp8_flashmla", &p, &l, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "multiple of 128");
    assert_contains(d.message, "500");
    assert_int_equal(layout_build("fp8_raw", &p, &l, &d), KVC_OK);
}

/* Found by fuzz_detect (tests/fuzz/crashes/detect/layout-of-zero-bytes-divides-by-zero): a layout of 0
 * bytes per page made detect and scan divide by zero. */
static void test_layout__dimensions_that_leave_a_token_no_bytes_are_refused(void **state)
{
    (void)state;
    kvc_layout l;
    kvc_diag d;
    kvc_layout_params zero = {0, 0, 0, 64};
    const char *const empty[] = {"bf16", "fp16", "fp32", "fp8_raw", "fp8_e5m2_raw", "fp8_flashmla", "model1_fp8"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        assert_int_equal(layout_build(empty[i], &zero, &l, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, "leave a token no bytes");
        assert_contains(d.message, empty[i]);
    }
    /* the indexer's scale still takes 4 bytes; RoPE alone is a token */
    assert_int_equal(layout_build("dsa_indexer", &zero, &l, &d), KVC_OK);
    assert_int_equal(l.page_bytes, 64 * 4);
    kvc_layout_params rope_only = {0, 64, 0, 1};
    assert_int_equal(layout_build("bf16", &rope_only, &l, &d), KVC_OK);
    assert_int_equal(l.page_bytes, 128);
    /* and detect, which builds each layout itself, ranks what remains */
    uint8_t bytes[256] = {0};
    kvc_detection *det = NULL;
    assert_int_equal(kvc_detect_host(bytes, sizeof bytes, &zero, &det, &d), KVC_OK);
    assert_string_equal(kvc_detection_best(det), "unknown");
    kvc_detection_free(det);
}

static void test_layout__unknown_names_list_the_catalogue(void **state)
{
    (void)state;
    kvc_layout l;
    kvc_diag d;
    const kvc_layout_params *p = layout_default_params();
    assert_int_equal(layout_build("fp9", p, &l, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "fp8_flashmla");
    unsigned n = 0;
    while (kvc_layout_catalogue(n)) assert_int_equal(layout_build(kvc_layout_catalogue(n++), p, &l, &d), KVC_OK);
    assert_int_equal(n, 10);
}

static void test_layout__model1_fp8_is_page_split_with_ue8m0_scales_and_pad(void **state)
{
    (void)state;
    /* DeepSeek-V4 MODEL1 (FORMATS.md): 448 e4m3 NoPE + 64 bf16 RoPE rows of 576 B,
     * then 7 UE8M0 scales + 1 pad byte per token, page padded to whole rows. */
    kvc_layout l = build("model1_fp8", 512, 64, 64);
    assert_true(l.page_split);
    assert_int_equal(l.bytes_per_token, 584);
    assert_int_equal(l.page_bytes, 65 * 576);
    assert_int_equal(l.nfields, 4);
    expect_field(&l, 0, "nope", KVC_ELEM_E4M3, 0, 576, 448);
    expect_field(&l, 1, "rope", KVC_ELEM_BF16, 448, 576, 64);
    expect_field(&l, 2, "scale", KVC_ELEM_UE8M0, 64 * 576, 8, 7);
    expect_field(&l, 3, "pad", KVC_ELEM_PAD, 64 * 576 + 7, 8, 1);
    kvc_diag d;
    kvc_layout_params odd = {512, 32, 128, 64}; /* 480 NoPE values: not whole 64-blocks */
    assert_int_equal(layout_build("model1_fp8", &odd, &l, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "kv_lora_rank - qk_rope_head_dim to be a multiple of 64 (one UE8M0 scale");
}

static void test_layout__fp4_mx16_packs_two_e2m1_a_byte_with_ue8m0_scales_apart(void **state)
{
    (void)state;
    /* SGLang's FP4 MLA pool: a KV buffer of (R + r) / 2 bytes a token, NoPE's pairs then RoPE's, and a scale
     * buffer of (R + r) / 16 UE8M0 scales a token. */
    kvc_layout kv = build("fp4_mx16", 512, 64, 64);
    assert_int_equal(kv.bytes_per_token, 288);
    assert_int_equal(kv.page_bytes, 64 * 288);
    assert_false(kv.page_split);
    assert_int_equal(kv.nfields, 2);
    expect_field(&kv, 0, "nope", KVC_ELEM_E2M1X2, 0, 288, 256);
    expect_field(&kv, 1, "rope", KVC_ELEM_E2M1X2, 256, 288, 32);
    assert_false(layout_values_judged(&kv));
    kvc_layout sc = build("fp4_mx16_scales", 512, 64, 64);
    assert_int_equal(sc.bytes_per_token, 36);
    assert_int_equal(sc.page_bytes, 64 * 36);
    assert_int_equal(sc.nfields, 1);
    expect_field(&sc, 0, "scale", KVC_ELEM_UE8M0, 0, 36, 36);
    assert_true(sc.fields[0].scale);
    assert_false(layout_values_judged(&sc)); /* scales alone: detect has nothing to go on */
    kvc_layout nope_only = build("fp4_mx16", 512, 0, 1); /* qk_rope_head_dim 0 */
    assert_int_equal(nope_only.bytes_per_token, 256);
    assert_int_equal(build("fp4_mx16_scales", 512, 0, 1).bytes_per_token, 32);
    kvc_diag d;
    kvc_layout_params odd = {512, 63, 128, 64};
    assert_int_equal(layout_build("fp4_mx16", &odd, &kv, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "fp4_mx16 needs qk_rope_head_dim to be a multiple of 2 (2 values packed in a byte)");
    kvc_layout_params ragged = {512, 72, 128, 64}; /* 584 values: not whole 16-blocks */
    assert_int_equal(layout_build("fp4_mx16_scales", &ragged, &sc, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "kv_lora_rank + qk_rope_head_dim to be a multiple of 16 (one UE8M0 scale per 16 values)");
}

static void test_layout__field_at_finds_the_field_token_and_element_of_a_byte(void **state)
{
    (void)state;
    kvc_layout l = build("fp8_flashmla", 512, 64, 64);
    uint64_t t;
    uint32_t e;
    const kvc_field *f = layout_field_at(&l, 656 + 515, &t, &e);
    assert_non_null(f);
    assert_string_equal(f->name, "scale");
    assert_int_equal(t, 1);
    assert_int_equal(e, 0);
    f = layout_field_at(&l, 41984 + 2 * 656 + 528 + 7, &t, &e); /* page 1, token 2, rope byte 7 */
    assert_string_equal(f->name, "rope");
    assert_int_equal(t, 66);
    assert_int_equal(e, 3);
    kvc_layout m = build("model1_fp8", 512, 64, 64);
    assert_null(layout_field_at(&m, 64 * 576 + 8 * 64 + 5, &t, &e)); /* page padding */
    f = layout_field_at(&m, 64 * 576 + 8 * 3 + 2, &t, &e);
    assert_string_equal(f->name, "scale");
    assert_int_equal(t, 3);
    assert_int_equal(e, 2);
}

/* The defaults are what they say: DeepSeek-V3.2's and GLM-5's dimensions, as
 * their bundled config.json files give them, at a page of 64 tokens. */
static void test_layout__default_dimensions_are_those_of_deepseek_v32_and_glm5(void **state)
{
    (void)state;
    const kvc_layout_params *def = layout_default_params();
    const char *models[] = {"deepseek-v3.2", "glm-5.2"};
    for (size_t i = 0; i < 2; i++) {
        kvc_layout_params p;
        kvc_diag d;
        if (kvc_model_layout_params(models[i], &p, &d) != KVC_OK) fail_msg("%s: %s", models[i], d.message);
        assert_int_equal(p.kv_lora_rank, def->kv_lora_rank);
        assert_int_equal(p.qk_rope_head_dim, def->qk_rope_head_dim);
        assert_int_equal(p.index_head_dim, def->index_head_dim);
    }
    assert_int_equal(def->page_size, 64);
}

static void test_layout__element_names_and_sizes(void **state)
{
    (void)state;
    assert_string_equal(kvc_elem_name(KVC_ELEM_E4M3), "e4m3");
    assert_int_equal(kvc_elem_size(KVC_ELEM_BF16), 2);
    assert_int_equal(kvc_elem_size(KVC_ELEM_F32), 4);
    assert_int_equal(kvc_elem_size(KVC_ELEM_UE8M0), 1);
    assert_string_equal(kvc_elem_name(KVC_ELEM_E2M1X2), "e2m1x2");
    assert_int_equal(kvc_elem_size(KVC_ELEM_E2M1X2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout__fp8_flashmla_is_656_bytes_with_scales_at_512),
        cmocka_unit_test(test_layout__fp8_raw_and_bf16),
        cmocka_unit_test(test_layout__dsa_indexer_is_page_split_8448_bytes_per_page),
        cmocka_unit_test(test_layout__sizes_follow_the_model_dimensions),
        cmocka_unit_test(test_layout__scaled_rows_need_rank_multiple_of_128),
        cmocka_unit_test(test_layout__dimensions_that_leave_a_token_no_bytes_are_refused),
        cmocka_unit_test(test_layout__unknown_names_list_the_catalogue),
        cmocka_unit_test(test_layout__model1_fp8_is_page_split_with_ue8m0_scales_and_pad),
        cmocka_unit_test(test_layout__fp4_mx16_packs_two_e2m1_a_byte_with_ue8m0_scales_apart),
        cmocka_unit_test(test_layout__field_at_finds_the_field_token_and_element_of_a_byte),
        cmocka_unit_test(test_layout__default_dimensions_are_those_of_deepseek_v32_and_glm5),
        cmocka_unit_test(test_layout__element_names_and_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
