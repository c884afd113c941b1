#include "support.h"

#include <limits.h>
#include <string.h>

static void expect_gpu(const char *text, const char *name, unsigned major, unsigned minor, int hip)
{
    gpu_info g;
    kvc_diag d;
    if (gpu_parse(text, &g, NULL, &d) != KVC_OK) fail_msg("'%s' rejected: %s", text, d.message);
    assert_string_equal(g.name, name);
    assert_int_equal(g.major, major);
    assert_int_equal(g.minor, minor);
    assert_int_equal(g.hip, hip);
}

static void test_gpu__product_names_map_to_compute_capability(void **state)
{
    (void)state;
    expect_gpu("H100", "H100", 9, 0, 0);
    expect_gpu("H200", "H200", 9, 0, 0);
    expect_gpu("H20", "H20", 9, 0, 0);
    expect_gpu("H800", "H800", 9, 0, 0);
    expect_gpu("B200", "B200", 10, 0, 0);
    expect_gpu("GB200", "GB200", 10, 0, 0);
    expect_gpu("B300", "B300", 10, 3, 0);
    expect_gpu("GB300", "GB300", 10, 3, 0);
    expect_gpu("RTX PRO 6000", "RTX PRO 6000", 12, 0, 0);
    expect_gpu("RTX 5090", "RTX 5090", 12, 0, 0);
    expect_gpu("GB10", "GB10", 12, 1, 0);
}

static void expect_gpu_memory(const char *text, unsigned lo, unsigned hi)
{
    gpu_info g;
    kvc_diag d;
    if (gpu_parse(text, &g, NULL, &d) != KVC_OK) fail_msg("'%s' rejected: %s", text, d.message);
    if (g.mem_lo_mib != lo || g.mem_hi_mib != hi)
        fail_msg("'%s': %u-%u MiB, expected %u-%u", text, g.mem_lo_mib, g.mem_hi_mib, lo, hi);
}

/* What the driver reports as one GPU's memory, which SGLang's defaults follow: the product's, narrowed by a size
 * the name states where the product comes in several; sm_NN and N.M say nothing. */
static void test_gpu__memory_from_the_product_and_the_name(void **state)
{
    (void)state;
    expect_gpu_memory("H200", 143771, 143771);
    expect_gpu_memory("B200", 183359, 183359);
    expect_gpu_memory("AMD Instinct MI300X", 196592, 196592);
    expect_gpu_memory("A100", 40960, 81920);
    expect_gpu_memory("NVIDIA A100-SXM4-80GB", 80000, 81920);
    expect_gpu_memory("NVIDIA A100-PCIE-40GB", 40960, 40960);
    expect_gpu_memory("A100 80 GB", 80000, 81920);
    expect_gpu_memory("NVIDIA H100 80GB HBM3", 81559, 81920);
    expect_gpu_memory("H100", 81559, 95830);
    /* a size that is not the GPU's: GH200's 480 GB is the Grace CPU's memory */
    expect_gpu_memory("NVIDIA GH200 480GB", 97871, 146800);
    expect_gpu_memory("sm_90", 0, UINT_MAX);
    expect_gpu_memory("10.3", 0, UINT_MAX);
}

static void test_gpu__names_ignore_case_spaces_dashes_and_vendor(void **state)
{
    (void)state;
    expect_gpu("rtx-pro-6000", "RTX PRO 6000", 12, 0, 0);
    expect_gpu("NVIDIA B300", "B300", 10, 3, 0);
    expect_gpu("gb300", "GB300", 10, 3, 0);
    expect_gpu("AMD Instinct MI300X", "MI300X", 9, 4, 1);
}

static void test_gpu__names_as_nvidia_smi_prints_them(void **state)
{
    (void)state;
    expect_gpu("NVIDIA H100 80GB HBM3", "H100", 9, 0, 0);
    expect_gpu("NVIDIA H100 PCIe", "H100", 9, 0, 0);
    expect_gpu("NVIDIA H200 NVL", "H200", 9, 0, 0);
    expect_gpu("NVIDIA H20-3e", "H20", 9, 0, 0);
    expect_gpu("NVIDIA H20", "H20", 9, 0, 0);
    expect_gpu("NVIDIA GH200 480GB", "GH200", 9, 0, 0);
    expect_gpu("NVIDIA B300 SXM6 AC", "B300", 10, 3, 0);
    expect_gpu("NVIDIA GB200", "GB200", 10, 0, 0);
    expect_gpu("NVIDIA GB300", "GB300", 10, 3, 0);
    expect_gpu("NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000", 12, 0, 0);
    expect_gpu("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "RTX PRO 6000", 12, 0, 0);
    expect_gpu("NVIDIA GeForce RTX 5090", "RTX 5090", 12, 0, 0);
    expect_gpu("NVIDIA A100-SXM4-80GB", "A100", 8, 0, 0);
    expect_gpu("NVIDIA GB10", "GB10", 12, 1, 0);
    expect_gpu("AMD Instinct MI300X VF", "MI300X", 9, 4, 1);
    expect_gpu("AMD Instinct MI355X", "MI355X", 9, 5, 1);
}

static void test_gpu__a_longer_product_is_not_a_shorter_one(void **state)
{
    (void)state;
    /* "H200" must not be read as "H20" followed by junk, nor "H2000" as either */
    expect_gpu("H200", "H200", 9, 0, 0);
    gpu_info g;
    kvc_diag d;
    assert_int_equal(gpu_parse("NVIDIA H2000", &g, NULL, &d), KVC_ERR_CONFIG);
    assert_int_equal(gpu_parse("NVIDIA B3000", &g, NULL, &d), KVC_ERR_CONFIG);
    assert_int_equal(gpu_parse("NVIDIA", &g, NULL, &d), KVC_ERR_CONFIG);
    /* only the CLI's --gpu auto asks the driver: a worker names its GPU */
    assert_int_equal(gpu_parse("Auto", &g, NULL, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "only kvcheck's --gpu option asks this machine's driver");
}

static void test_gpu__rocm_gpus_are_hip(void **state)
{
    (void)state;
    expect_gpu("MI300X", "MI300X", 9, 4, 1);
    expect_gpu("MI325X", "MI325X", 9, 4, 1);
    expect_gpu("MI355X", "MI355X", 9, 5, 1);
}

static void test_gpu__sm_and_dotted_forms(void **state)
{
    (void)state;
    expect_gpu("sm_103", "sm_103", 10, 3, 0);
    expect_gpu("sm103", "sm_103", 10, 3, 0);
    expect_gpu("sm_90a", "sm_90", 9, 0, 0);
    expect_gpu("SM_120", "sm_120", 12, 0, 0);
    expect_gpu("10.3", "sm_103", 10, 3, 0);
    expect_gpu("9.0", "sm_90", 9, 0, 0);
}

static void test_gpu__unknown_names_are_config_errors_that_list_known_ones(void **state)
{
    (void)state;
    const char *bad[] = {"B999", "", "sm_", "sm_1", "10.", "10.33", "x.y", "sm_90z", "-1.0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gpu_info g;
        kvc_diag d;
        kvc_origin o;
        origin_set(&o, "w.json", 3, 10, "gpu");
        assert_int_equal(gpu_parse(bad[i], &g, &o, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, "unknown GPU");
        assert_contains(d.message, "B300");
        assert_string_equal(d.file, "w.json");
        assert_int_equal(d.line, 3);
        assert_int_equal(d.column, 10);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu__product_names_map_to_compute_capability),
        cmocka_unit_test(test_gpu__names_ignore_case_spaces_dashes_and_vendor),
        cmocka_unit_test(test_gpu__memory_from_the_product_and_the_name),
        cmocka_unit_test(test_gpu__names_as_nvidia_smi_prints_them),
        cmocka_unit_test(test_gpu__a_longer_product_is_not_a_shorter_one),
        cmocka_unit_test(test_gpu__rocm_gpus_are_hip),
        cmocka_unit_test(test_gpu__sm_and_dotted_forms),
        cmocka_unit_test(test_gpu__unknown_names_are_config_errors_that_list_known_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
