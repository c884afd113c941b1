/* What every stage shares: lists joined into fixed buffers never lose an
 * item silently, and the clock only runs forward. */
#include "support.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_common__join_separates_items_and_starts_without_one),
        cmocka_unit_test(test_common__join_that_does_not_fit_ends_with_dots_and_takes_no_more),
        cmocka_unit_test(test_common__join_that_filled_the_buffer_exactly_marks_the_next_item_cut),
        cmocka_unit_test(test_common__clock_runs_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
