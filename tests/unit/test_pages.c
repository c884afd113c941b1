/* Page sources: page lists, and .npy/.safetensors files split into layers
 * (the messages for malformed files are pinned by the golden CLI tests). */
#include "support.h"

#include "kvgen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_pages__lists_parse_and_select_ascending(void **state)
{
    (void)state;
    page_range *r;
    size_t n;
    kvc_diag d;
    assert_int_equal(page_list_parse("7,3,10-12", "--pages", &r, &n, &d), KVC_OK);
    assert_int_equal(n, 3);
    assert_int_equal(r[2].first, 10);
    assert_int_equal(r[2].last, 12);
    page_range skip = {11, 11};
    uint64_t *pages, count;
    assert_int_equal(page_select(r, n, &skip, 1, 20, "x", &pages, &count, &d), KVC_OK);
    assert_int_equal(count, 4);
    uint64_t want[] = {3, 7, 10, 12};
    assert_memory_equal(pages, want, sizeof want);
    free(pages);
    assert_int_equal(page_select(r, n, NULL, 0, 12, "layer 5", &pages, &count, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "page 12, but layer 5 has 12 pages (0-11)");
    free(r);
    assert_int_equal(page_select(NULL, 0, NULL, 0, 12, "x", &pages, &count, &d), KVC_OK);
    assert_null(pages); /* all pages: no list */
    assert_int_equal(count, 12);
    const char *bad[] = {"", "3,", "a", "3 ,4", "5-2", "-1", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(page_list_parse(bad[i], "--skip-pages", &r, &n, &d), KVC_ERR_USAGE);
        assert_string_equal(d.where, "--skip-pages");
    }
}

static void test_pages__safetensors_tensors_are_layers_in_file_order(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *a = calloc(2, l.page_bytes), *b = calloc(1, l.page_bytes);
    /* header order is not file order: layers follow the bytes */
    kvgen_tensor t[2] = {{"z.first", "U8", {2, 41984}, 2, a, 2 * l.page_bytes},
                         {"a.second", "F8_E4M3", {64, 656}, 2, b, l.page_bytes}};
    const char *path = temp_data_file(".safetensors", "", 0);
    assert_int_equal(kvgen_write_safetensors(path, t, 2), 0);
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    scan_inputs in;
    kvc_diag d;
    const char *paths[] = {path};
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, &d), KVC_OK);
    assert_int_equal(in.nlayers, 2);
    assert_string_equal(in.layers[0].name, "z.first");
    assert_string_equal(in.layers[1].name, "a.second");
    assert_int_equal(in.layers[1].file_offset, in.layers[0].file_offset + 2 * l.page_bytes);
    assert_int_equal(in.layers[0].file_offset % 8, 0);
    inputs_close(&in);
    const char *glob[] = {"a.*"};
    o.tensors = glob;
    o.ntensors = 1;
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, &d), KVC_OK);
    assert_int_equal(in.nlayers, 1);
    assert_string_equal(in.layers[0].name, "a.second");
    inputs_close(&in);
    unlink(path);
    free(a);
    free(b);
}

static void test_pages__npy_rows_may_be_tokens_pages_or_several_pages(void **state)
{
    (void)state;
    kvc_layout l = layout_of("fp8_flashmla", 64);
    uint8_t *data = calloc(4, l.page_bytes);
    const uint64_t shapes[][3] = {{256, 656, 0}, {4, 41984, 0}, {2, 2 * 41984, 0}, {4, 64, 656}};
    const unsigned dims[] = {2, 2, 2, 3};
    kvc_scan_options o;
    kvc_scan_options_init(&o);
    for (size_t i = 0; i < 4; i++) {
        const char *path = temp_data_file(".npy", "", 0);
        assert_int_equal(kvgen_write_npy(path, "|u1", shapes[i], dims[i], data, 4 * l.page_bytes), 0);
        scan_inputs in;
        kvc_diag d;
        const char *paths[] = {path};
        if (inputs_open(paths, 1, &l, &o, &in, &d) != KVC_OK) fail_msg("shape %zu: %s", i, d.message);
        assert_int_equal(in.nlayers, 1);
        assert_int_equal(in.layers[0].bytes, 4 * l.page_bytes);
        assert_int_equal(in.layers[0].file_offset % 64, 0); /* numpy pads the header to 64 bytes */
        inputs_close(&in);
        unlink(path);
    }
    const uint64_t rows2[] = {2, 2 * 41984};
    const char *path = temp_data_file(".npy", "", 0); /* the header promises 2 x 83968 fp16 values, 8 pages; 4 follow */
    assert_int_equal(kvgen_write_npy(path, "<f2", rows2, 2, data, 4 * l.page_bytes), 0);
    scan_inputs in;
    kvc_diag d;
    const char *paths[] = {path};
    assert_int_equal(inputs_open(paths, 1, &l, &o, &in, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "the .npy header is inconsistent with the file size");
    unlink(path);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages__lists_parse_and_select_ascending),
        cmocka_unit_test(test_pages__safetensors_tensors_are_layers_in_file_order),
        cmocka_unit_test(test_pages__npy_rows_may_be_tokens_pages_or_several_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
