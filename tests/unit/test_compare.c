#define _DEFAULT_SOURCE /* mkdtemp */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The newest release (the worker's own backend decides the row) and the
 * last where either backend does. */
static const char *const RELEASES[2] = {"0.5.23", "0.5.19"};

/* Compares two workers under `release` (NULL: the default). */
static kvc_status compare_under(kvc_worker *p, kvc_worker *d, const char *release, kvc_verdict **v, kvc_diag *diag)
{
    if (release) {
        assert_int_equal(kvc_worker_set_release(p, release, diag), KVC_OK);
        assert_int_equal(kvc_worker_set_release(d, release, diag), KVC_OK);
    }
    return kvc_compare(p, d, v, diag);
}

/* A prefill and a decode worker of `model` on `gpu`: "--disaggregation-mode
 * MODE", the flags both sides take, then the side's own. */
static void pair_make(const char *gpu, const char *model, const char *both, const char *pargs, const char *dargs,
                      kvc_worker **p, kvc_worker **d)
{
    char a[1024];
    snprintf(a, sizeof a, "--disaggregation-mode prefill %s %s", both, pargs);
    *p = worker_make(gpu, model, a);
    snprintf(a, sizeof a, "--disaggregation-mode decode %s %s", both, dargs);
    *d = worker_make(gpu, model, a);
}

static kvc_verdict *compare_files(const char *pair, const char *release)
{
    kvc_worker *wp, *wd;
    kvc_diag diag;
    pair_load(pair, &wp, &wd);
    kvc_verdict *v = NULL;
    if (compare_under(wp, wd, release, &v, &diag) != KVC_OK) fail_msg("%s: %s", pair, diag.message);
    kvc_worker_free(wp);
    kvc_worker_free(wd);
    return v;
}

static int has_mismatch(const kvc_verdict *v, const char *field)
{
    for (unsigned i = 0; i < v->nmismatches; i++)
        if (strcmp(v->mismatches[i].field, field) == 0) return 1;
    return 0;
}

static void test_compare__glm52_pair_is_incompatible_and_sglang_would_not_notice(void **state)
{
    (void)state;
    kvc_verdict *v = compare_files("glm52-b300-hisparse-mtp", NULL);
    assert_false(v->compatible);
    assert_true(has_mismatch(v, "layout"));
    assert_true(has_mismatch(v, "bytes_per_token"));
    assert_true(has_mismatch(v, "page_bytes"));
    assert_false(has_mismatch(v, "page_size"));
    assert_false(has_mismatch(v, "kv_cache_dtype"));
    assert_false(v->bootstrap_catches);
    assert_contains(v->consequences[0], "decode reads 656-byte records from 576-byte rows: its FP32 scales are prefill's e4m3 rope bytes");
    /* 0.5.20 and later: the prefill worker's own backend decides, one flag fixes it (the seed's fix) */
    assert_true(v->nfixes >= 1);
    assert_int_equal(v->fixes[0].side, KVC_SIDE_PREFILL);
    assert_int_equal(v->fixes[0].nargs, 1);
    assert_string_equal(v->fixes[0].args[0][0], "--dsa-prefill-backend");
    assert_string_equal(v->fixes[0].args[0][1], "flashmla_kv");
    /* HiSparse pins decode's backends: no decode-side fix exists */
    for (unsigned i = 0; i < v->nfixes; i++) assert_int_equal(v->fixes[i].side, KVC_SIDE_PREFILL);
    /* no version given: the verdict of every release, by runs (the mismatch needs HiSparse with fp8, 0.5.12+) */
    assert_contains(v->warnings[v->nwarnings - 2], "no SGLang version given");
    /* GLM-5 is served from 0.5.9; 0.5.9 has no --enable-hisparse; 0.5.11's HiSparse needs bfloat16 */
    assert_contains(v->warnings[v->nwarnings - 1], "the verdict by SGLang release: 0.5.3rc2-0.5.9 a side refused, ");
    assert_contains(v->warnings[v->nwarnings - 1], "0.5.10-0.5.10.post1 INCOMPATIBLE, 0.5.11 a side refused, 0.5.12-0.5.23 INCOMPATIBLE");
    kvc_verdict_free(v);
    /* 0.5.12-0.5.19: either backend decides, so prefill needs both flags */
    v = compare_files("glm52-b300-hisparse-mtp", "0.5.19");
    assert_false(v->compatible);
    assert_int_equal(v->fixes[0].nargs, 2);
    assert_string_equal(v->fixes[0].args[0][1], "flashmla_kv");
    assert_string_equal(v->fixes[0].args[1][0], "--dsa-decode-backend");
    assert_string_equal(v->fixes[0].args[1][1], "flashmla_kv");
    for (unsigned i = 0; i < v->nwarnings; i++) assert_null(strstr(v->warnings[i], "no SGLang version given"));
    kvc_verdict_free(v);
}

static void test_compare__the_fixed_glm52_pair_is_compatible_under_both_row_rules(void **state)
{
    (void)state;
    for (int rules = 0; rules < 2; rules++) {
        kvc_verdict *v = compare_files("glm52-b300-hisparse-mtp-fixed", RELEASES[rules]);
        assert_true(v->compatible);
        assert_int_equal(v->nmismatches, 0);
        assert_int_equal(v->nfixes, 0);
        assert_int_equal(v->nwarnings, 0);
        assert_int_equal(v->prefill.kv_entries, 79);
        kvc_verdict_free(v);
    }
}

static void test_compare__hopper_prefill_blackwell_decode_fp8(void **state)
{
    (void)state;
    kvc_verdict *v = compare_files("hopper-prefill-blackwell-decode-fp8", NULL);
    assert_false(v->compatible);
    assert_false(v->bootstrap_catches);
    assert_string_equal(v->prefill.kv.name, "fp8_flashmla");
    assert_string_equal(v->decode.kv.name, "fp8_raw");
    int overrun = 0;
    for (unsigned i = 0; i < v->nconsequences; i++) overrun |= strstr(v->consequences[i], "run past the end") != NULL;
    assert_true(overrun);
    /* trtllm does not suit Hopper, so the fix is on decode */
    assert_int_equal(v->fixes[0].side, KVC_SIDE_DECODE);
    kvc_verdict_free(v);
}

static void test_compare__bf16_with_different_backends_is_compatible(void **state)
{
    (void)state;
    kvc_verdict *v = compare_files("bf16-different-backends", NULL);
    assert_true(v->compatible);
    assert_string_equal(VAL(&v->prefill, "dsa_decode_backend"), "trtllm");
    assert_string_equal(VAL(&v->decode, "dsa_decode_backend"), "fa3");
    assert_int_equal(v->nconsequences, 0);
    kvc_verdict_free(v);
}

static void test_compare__a_page_size_mismatch_is_caught_by_sglangs_bootstrap(void **state)
{
    (void)state;
    kvc_verdict *v = compare_files("deepseek-v3-mla-page-size", NULL);
    assert_false(v->compatible);
    assert_true(v->bootstrap_catches);
    assert_contains(v->bootstrap, "Page size mismatch");
    assert_true(has_mismatch(v, "page_size"));
    assert_string_equal(v->fixes[0].args[0][0], "--page-size");
    kvc_verdict_free(v);
}

static void test_compare__the_release_dependent_pair_is_flagged(void **state)
{
    (void)state;
    kvc_verdict *v = compare_files("glm52-b300-prefill-backend-only", NULL);
    assert_true(v->compatible);
    /* its --dsa-* flags exist from 0.5.13 */
    assert_contains(v->warnings[1], "0.5.3rc2-0.5.12.post1 a side refused, 0.5.13-0.5.19 INCOMPATIBLE, 0.5.20-0.5.23 compatible");
    kvc_verdict_free(v);
    v = compare_files("glm52-b300-prefill-backend-only", "0.5.19");
    assert_false(v->compatible);
    assert_int_equal(v->nwarnings, 0);
    kvc_verdict_free(v);
}

/* What SGLang itself catches before serving, by release and transfer:
 * the decode's bootstrap (page size from 0.5.8, dtype string from 0.5.10),
 * NIXL's handshake from 0.5.15 (prefill item length longer than decode's). */
static void test_compare__sglangs_own_checks_by_release_and_transfer(void **state)
{
    (void)state;
    static const struct {
        const char *release, *transfer, *prefill, *decode;
        int catches;
        const char *stage, *text;
    } C[] = {
        /* the seed's direction: prefill 576 < decode 656 */
        {"0.5.23", "mooncake", "--kv-cache-dtype fp8_e4m3", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv", 0, "",
         "the Mooncake transfer compares no item lengths"},
        {"0.5.23", "nixl", "--kv-cache-dtype fp8_e4m3", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv", 0, "",
         "NIXL handshake refuses only a prefill item length longer than decode's (36864 <= 41984): it passes"},
        /* the other direction: NIXL refuses from 0.5.15, not before */
        {"0.5.23", "nixl", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_kv", "--kv-cache-dtype fp8_e4m3", 1,
         "NIXL handshake", "NIXL prepared dlist transfer length exceeds item stride: xfer_len=41984, item_len=36864"},
        {"0.5.14", "nixl", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv",
         "--kv-cache-dtype fp8_e4m3", 0, "", "the NIXL transfer compares no item lengths"},
        /* dtype strings from 0.5.10, page size from 0.5.8 */
        {"0.5.10", "mooncake", "--kv-cache-dtype bfloat16", "--kv-cache-dtype fp8_e4m3", 1, "bootstrap",
         "KV cache dtype mismatch: prefill server has kv_cache_dtype=bfloat16, but decode server has kv_cache_dtype=fp8_e4m3."},
        {"0.5.9", "mooncake", "--kv-cache-dtype bfloat16", "--kv-cache-dtype fp8_e4m3", 0, "",
         "SGLang 0.5.9's bootstrap compares page size only: it passes"},
        {"0.5.7", "mooncake", "--kv-cache-dtype bfloat16", "--kv-cache-dtype fp8_e4m3", 0, "",
         "SGLang 0.5.7's bootstrap checks nothing of the pair"},
        /* the KV checksum on both sides: it fails each request in 0.5.21-0.5.22, 0.5.23 skips differing layouts */
        {"0.5.22", "mooncake", "--kv-cache-dtype fp8_e4m3 --disaggregation-enable-kv-checksum",
         "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv --disaggregation-enable-kv-checksum", 1,
         "KV checksum", "but SGLang 0.5.22's KV checksum (--disaggregation-enable-kv-checksum on both sides) fails each "
         "request on decode: \"KV checksum mismatch req=... bootstrap_room=... expected=... got=...\""},
        {"0.5.21", "nixl", "--kv-cache-dtype fp8_e4m3 --disaggregation-enable-kv-checksum",
         "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv --disaggregation-enable-kv-checksum", 1,
         "KV checksum", "KV checksum mismatch req="},
        {"0.5.23", "mooncake", "--kv-cache-dtype fp8_e4m3 --disaggregation-enable-kv-checksum",
         "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv --disaggregation-enable-kv-checksum", 0, "",
         "KV checksum (--disaggregation-enable-kv-checksum on both sides) is skipped: decode logs once \"KV checksum "
         "skipped: prefill layout signature"},
        {"0.5.22", "mooncake", "--kv-cache-dtype fp8_e4m3 --disaggregation-enable-kv-checksum",
         "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_kv", 0, "",
         "the Mooncake transfer compares no item lengths"}, /* on one side only: nothing to compare */
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char pa[256], da[256];
        snprintf(pa, sizeof pa, "--disaggregation-mode prefill --disaggregation-transfer-backend %s %s", C[i].transfer,
                 C[i].prefill);
        snprintf(da, sizeof da, "--disaggregation-mode decode --disaggregation-transfer-backend %s %s", C[i].transfer,
                 C[i].decode);
        kvc_worker *p = worker_make("B200", "deepseek-v3.2", pa), *d = worker_make("B200", "deepseek-v3.2", da);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, C[i].release, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (kvc_verdict_bootstrap_catches(v) != C[i].catches || strcmp(kvc_verdict_caught_at(v), C[i].stage) ||
            !strstr(kvc_verdict_bootstrap(v), C[i].text))
            fail_msg("case %zu: catches %d at '%s': %s", i, kvc_verdict_bootstrap_catches(v), kvc_verdict_caught_at(v),
                     kvc_verdict_bootstrap(v));
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* Each side its own release: before any check the decode must read the
 * prefill server's info (its query, the prefill's reply), which fails when
 * the query forms differ (0.5.9 / 0.5.10) or a newer prefill replies with a
 * field the decode's PrefillServerInfo does not take. */
static void test_compare__mixed_releases_read_the_prefill_info(void **state)
{
    (void)state;
    static const struct {
        const char *prefill, *decode;
        int catches;
        const char *text, *model; /* NULL: DeepSeek-V3.2 with --kv-cache-dtype bfloat16 */
    } C[] = {
        {"0.5.23", "0.5.22", 1, "PrefillServerInfo.__init__() got an unexpected keyword argument 'enable_kv_cache_sharding'", NULL},
        {"0.5.22", "0.5.17", 1, "PrefillServerInfo.__init__() got an unexpected keyword argument 'decode_allocation_policy'", NULL},
        {"0.5.16", "0.5.15.post1", 1, "unexpected keyword argument 'enable_dsa_cache_layer_split'", NULL},
        {"0.5.10", "0.5.9", 1, "\"Failed to get prefill parallel info: 400, Missing inputs for bootstrap server.\"; each request fails", NULL},
        {"0.5.9", "0.5.10", 1, "\"Failed to get prefill server info: 400, Missing inputs for bootstrap server.\"; it retries", NULL},
        {"0.5.7", "0.5.8", 1, "Error fetching prefill parallel info from bootstrap: 'prefill_page_size'", NULL},
        /* an older prefill's reply a newer decode reads; equal layouts: nothing refuses */
        {"0.5.8", "0.5.7", 0, "SGLang 0.5.7's bootstrap checks nothing of the pair", NULL},
        {"0.5.17", "0.5.23", 0, "SGLang 0.5.23's bootstrap compares page size (64 = 64) and the KV dtype string (bfloat16 = bfloat16)", NULL},
        {"0.5.21", "0.5.22", 0, "SGLang 0.5.22's bootstrap compares page size", NULL},
        /* a DeepSeek-V4 pool's kv_layout is sent from 0.5.23 (kv_layout is None for the others, and not sent) */
        {"0.5.23", "0.5.22", 1, "unexpected keyword argument 'kv_layout'", "tests/unit/models/DSV4_SMALL.json"},
        {"0.5.23", "0.5.20", 1, "unexpected keyword argument 'kv_layout'", "tests/unit/models/DSV4_SMALL.json"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        const char *model = C[i].model ? C[i].model : "deepseek-v3.2", *dtype = C[i].model ? "" : "--kv-cache-dtype bfloat16";
        kvc_worker *p, *d;
        pair_make("H200", model, dtype, "", "", &p, &d);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        assert_int_equal(kvc_worker_set_release(p, C[i].prefill, &diag), KVC_OK);
        assert_int_equal(kvc_worker_set_release(d, C[i].decode, &diag), KVC_OK);
        if (kvc_compare(p, d, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (kvc_verdict_bootstrap_catches(v) != C[i].catches ||
            strcmp(kvc_verdict_caught_at(v), C[i].catches ? "bootstrap" : "") || !strstr(kvc_verdict_bootstrap(v), C[i].text))
            fail_msg("case %zu: catches %d at '%s': %s", i, kvc_verdict_bootstrap_catches(v), kvc_verdict_caught_at(v),
                     kvc_verdict_bootstrap(v));
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* From 0.5.22 the decode's receiver fails each request when the prefill
 * reports another decode allocation policy ("early" from a release
 * without one); kvcheck offers the other side's policy as the fix. */
static void test_compare__decode_allocation_policy(void **state)
{
    (void)state;
    static const struct {
        const char *prefill, *decode, *pargs, *dargs;
        int catches;
        const char *text, *fix; /* fix: the first fix's flag and value, NULL for none */
    } C[] = {
        {"0.5.23", "0.5.23", "--disaggregation-decode-allocation-policy prefill_complete", "", 1,
         "SGLang 0.5.23's decode fails each request when it creates its receiver: \"Disaggregation decode allocation "
         "policy mismatch: prefill=prefill_complete, decode=early. Set --disaggregation-decode-allocation-policy "
         "identically on both roles.\" (sglang 0.5.22: python/sglang/srt/disaggregation/common/conn.py:2210-2229",
         "--disaggregation-decode-allocation-policy early"},
        /* a 0.5.21 prefill sends no policy: the decode takes it as early */
        {"0.5.21", "0.5.22", "", "--disaggregation-decode-allocation-policy prefill_complete", 1,
         "policy mismatch: prefill=early, decode=prefill_complete.", "--disaggregation-decode-allocation-policy early"},
        {"0.5.22", "0.5.23", "--disaggregation-decode-allocation-policy prefill_complete",
         "--disaggregation-decode-allocation-policy prefill_complete", 0, "it passes", NULL},
        {"0.5.23", "0.5.23", "--disaggregation-decode-allocation-policy early", "", 0, "it passes", NULL},
        /* early on both sides, a 0.5.21 prefill's by default */
        {"0.5.21", "0.5.23", "", "", 0, "it passes", NULL},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_worker *p, *d;
        pair_make("H200", "deepseek-v3.2", "--tp 1", C[i].pargs, C[i].dargs, &p, &d);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        assert_int_equal(kvc_worker_set_release(p, C[i].prefill, &diag), KVC_OK);
        assert_int_equal(kvc_worker_set_release(d, C[i].decode, &diag), KVC_OK);
        if (kvc_compare(p, d, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (kvc_verdict_bootstrap_catches(v) != C[i].catches ||
            strcmp(kvc_verdict_caught_at(v), C[i].catches ? "first request" : "") ||
            !strstr(kvc_verdict_bootstrap(v), C[i].text))
            fail_msg("case %zu: catches %d at '%s': %s", i, kvc_verdict_bootstrap_catches(v), kvc_verdict_caught_at(v),
                     kvc_verdict_bootstrap(v));
        assert_int_equal(kvc_verdict_compatible(v), !C[i].catches); /* the layouts agree: only the policy decides */
        if (C[i].fix) {
            char line[512];
            assert_true(v->nfixes > 0);
            fix_line(&v->fixes[0], line, sizeof line);
            assert_string_equal(line, C[i].fix);
        }
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* DeepSeek-V4's KV caches (main, c4, c128): from 0.5.23 the bootstrap
 * compares their kv_layout strings and refuses a pair whose strings differ;
 * before, the pair passes and fails on the first request. */
static void test_compare__dsv4_kv_layouts_by_release(void **state)
{
    (void)state;
    static const struct {
        const char *release, *decode_model;
        int compatible, catches;
        const char *text;
    } C[] = {
        {"0.5.23", "tests/unit/models/DSV4_NO_C128.json", 0, 1,
         "SGLang 0.5.23's bootstrap fails the pair: \"KV layout mismatch: prefill server has kv_layout=v4,c4:v4,c128:v4, "
         "but decode server has kv_layout=v4,c4:v4. Both servers must use the same --dsv4-attn-backend and "
         "SGLANG_DSV4_KV_LAYOUT.\" (sglang 0.5.23: python/sglang/srt/disaggregation/common/conn.py:1320-1357)"},
        {"0.5.22", "tests/unit/models/DSV4_NO_C128.json", 0, 0,
         "SGLang 0.5.22's bootstrap compares page size (256 = 256) and the KV dtype string (fp8_e4m3 = fp8_e4m3) only"},
        {"0.5.23", "tests/unit/models/DSV4_SMALL.json", 1, 0,
         "SGLang 0.5.23's bootstrap compares page size (256 = 256), the KV dtype string (fp8_e4m3 = fp8_e4m3) and "
         "DeepSeek-V4's kv_layout (v4,c4:v4,c128:v4) only: it passes"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_worker *p = worker_make("H200", "tests/unit/models/DSV4_SMALL.json", "--disaggregation-mode prefill"),
                   *d = worker_make("H200", C[i].decode_model, "--disaggregation-mode decode");
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, C[i].release, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        assert_int_equal(v->compatible, C[i].compatible);
        assert_int_equal(kvc_verdict_bootstrap_catches(v), C[i].catches);
        assert_string_equal(kvc_verdict_caught_at(v), C[i].catches ? "bootstrap" : "");
        if (!strstr(kvc_verdict_bootstrap(v), C[i].text)) fail_msg("case %zu: %s", i, kvc_verdict_bootstrap(v));
        assert_int_equal(has_mismatch(v, "dsv4_kv_layout"), !C[i].compatible);
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* A fix of five flags: DeepSeek-V4's speculative chain (four, SGLang
 * refuses a top-k without its step and draft-token counts) plus the other
 * side's transfer backend; it works when applied. */
static void test_compare__a_fix_of_more_than_four_flags(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("H200", "tests/unit/models/DSV4_SMALL.json",
                                "--disaggregation-mode prefill --speculative-algorithm EAGLE --speculative-eagle-topk 1 "
                                "--speculative-num-steps 1 --speculative-num-draft-tokens 2 "
                                "--disaggregation-transfer-backend nixl"),
               *d = worker_make("H200", "tests/unit/models/DSV4_SMALL.json", "--disaggregation-mode decode");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    if (compare_under(p, d, "0.5.23", &v, &diag) != KVC_OK) fail_msg("%s", diag.message);
    assert_false(v->compatible);
    assert_true(v->nfixes > 0);
    assert_int_equal(v->fixes[0].side, KVC_SIDE_DECODE);
    char line[512];
    fix_line(&v->fixes[0], line, sizeof line);
    assert_string_equal(line, "--speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 1 "
                              "--speculative-num-draft-tokens 2 --disaggregation-transfer-backend nixl");
    assert_int_equal(kvc_worker_add_args(d, line, "fix", &diag), KVC_OK);
    kvc_verdict *after = NULL;
    if (compare_under(p, d, "0.5.23", &after, &diag) != KVC_OK) fail_msg("%s", diag.message);
    assert_true(after->compatible);
    kvc_verdict_free(after);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* Glm5Next's linear layers: a state dtype that differs is INCOMPATIBLE
 * whatever the KV rows, caught where the release's transfer checks slot
 * sizes (Mooncake 0.5.21+, NIXL 0.5.23 with UCX), silent elsewhere; the
 * fix sets --mamba-ssm-dtype to the other side's value and works when
 * applied. Equal dtypes, or different attention TPs (resliced by head),
 * are compatible. */
static void test_compare__glm5_next_state_dtypes(void **state)
{
    (void)state;
    static const struct {
        const char *release, *transfer, *prefill, *decode;
        int compatible, catches;
        const char *stage, *text;
    } C[] = {
        {"0.5.23", "mooncake", "", "--mamba-ssm-dtype bfloat16", 0, 1, "first state transfer",
         "\"Prefill/Decode Mamba slot size mismatch (src=524288, dst=262144). Configure matching persistent state "
         "layouts on both peers.\""},
        {"0.5.21", "mooncake", "--mamba-ssm-dtype float16", "", 0, 1, "first state transfer", "(src=262144, dst=524288)"},
        {"0.5.20", "mooncake", "", "--mamba-ssm-dtype bfloat16", 0, 0, "",
         "no check compares the linear layers' state slots (524288 vs 262144 B) in SGLang 0.5.20's Mooncake"},
        {"0.5.23", "nixl", "", "--mamba-ssm-dtype bfloat16", 0, 1, "NIXL registration",
         "NIXL prepared state component 0 (mamba) stride mismatch"},
        {"0.5.22", "nixl", "", "--mamba-ssm-dtype bfloat16", 0, 0, "", "no check compares the linear layers' state"},
        /* same size, other dtype: nothing can notice */
        {"0.5.23", "mooncake", "--mamba-ssm-dtype float16", "--mamba-ssm-dtype bfloat16", 0, 0, "", "it passes"},
        {"0.5.23", "mooncake", "--mamba-ssm-dtype bfloat16", "--mamba-ssm-dtype bfloat16", 1, 0, "", "it passes"},
        /* other attention TP: the state is resliced by head */
        {"0.5.23", "mooncake", "--tp 4", "", 1, 0, "", "it passes"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char pa[256], da[256];
        snprintf(pa, sizeof pa, "--tp 8 --disaggregation-mode prefill --disaggregation-transfer-backend %s %s",
                 C[i].transfer, C[i].prefill);
        snprintf(da, sizeof da, "--tp 8 --disaggregation-mode decode --disaggregation-transfer-backend %s %s",
                 C[i].transfer, C[i].decode);
        const char *model = "tests/conformance/sglang/models/GLM5_NEXT.json";
        kvc_worker *p = worker_make("H200", model, pa), *d = worker_make("H200", model, da);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, C[i].release, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (v->compatible != C[i].compatible || kvc_verdict_bootstrap_catches(v) != C[i].catches ||
            strcmp(kvc_verdict_caught_at(v), C[i].stage) || !strstr(kvc_verdict_bootstrap(v), C[i].text))
            fail_msg("case %zu: compatible %d, catches %d at '%s': %s", i, v->compatible,
                     kvc_verdict_bootstrap_catches(v), kvc_verdict_caught_at(v), kvc_verdict_bootstrap(v));
        if (!v->compatible) {
            assert_true(has_mismatch(v, "mamba_ssm_dtype"));
            assert_true(v->nconsequences > 0);
            assert_contains(v->consequences[0], "temporal state on the 59 linear layers is prefill's 8x128x128");
            int decode_fix = 0;
            for (unsigned f = 0; f < v->nfixes; f++) {
                char line[256];
                fix_line(&v->fixes[f], line, sizeof line);
                const char *want = VAL(v->fixes[f].side == KVC_SIDE_DECODE ? &v->prefill : &v->decode,
                                       "mamba_ssm_dtype");
                char expect[64];
                snprintf(expect, sizeof expect, "--mamba-ssm-dtype %s", want);
                assert_string_equal(line, expect);
                decode_fix |= v->fixes[f].side == KVC_SIDE_DECODE;
                kvc_worker *target = v->fixes[f].side == KVC_SIDE_PREFILL ? p : d;
                kvc_worker *fixed = worker_make("H200", model, target == p ? pa : da);
                assert_int_equal(kvc_worker_add_args(fixed, line, "fix", &diag), KVC_OK);
                kvc_verdict *after = NULL;
                assert_int_equal(compare_under(target == p ? fixed : p, target == d ? fixed : d, C[i].release, &after,
                                               &diag), KVC_OK);
                if (!after->compatible) fail_msg("case %zu: fix '%s' does not work", i, line);
                kvc_verdict_free(after);
                kvc_worker_free(fixed);
            }
            assert_true(decode_fix);
        }
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

static void test_compare__each_side_is_judged_under_its_own_release(void **state)
{
    (void)state;
    kvc_worker *p, *d;
    pair_load("glm52-b300-prefill-backend-only", &p, &d);
    kvc_diag diag;
    assert_int_equal(kvc_worker_set_release(p, "0.5.19", &diag), KVC_OK);
    assert_int_equal(kvc_worker_set_release(d, "0.5.23", &diag), KVC_OK);
    kvc_verdict *v = NULL;
    assert_int_equal(kvc_compare(p, d, &v, &diag), KVC_OK);
    assert_string_equal(v->prefill.release, "0.5.19");
    assert_string_equal(v->decode.release, "0.5.23");
    assert_contains(v->warnings[0], "prefill runs SGLang 0.5.19 and decode SGLang 0.5.23");
    assert_false(v->compatible); /* prefill under 0.5.19: trtllm on its decode side still decides */
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* Decode's extra (draft) entries receive nothing, which SGLang supports;
 * prefill's extra entries are a mismatch, failed where each transfer fails
 * them (tools/sglang-oracle/PD_ENTRIES.md §1), and the fix gives decode
 * prefill's speculative algorithm. */
static void test_compare__mtp_entry_counts(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("B300", "glm-5.2", "--disaggregation-mode prefill");
    kvc_worker *d = worker_make("B300", "glm-5.2", "--disaggregation-mode decode --speculative-algorithm EAGLE");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(kvc_compare(p, d, &v, &diag), KVC_OK);
    assert_true(v->compatible); /* prefill without MTP feeding decode with MTP is supported */
    assert_contains(v->warnings[0], "receive nothing, which SGLang supports");
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
    static const struct {
        const char *release, *transfer;
        int catches;
        const char *stage, *text;
    } C[] = {
        {"0.5.21", "mooncake", 1, "first transfer",
         "in SGLang 0.5.21, Mooncake's transfer thread fails on the first request: prefill's entry 78 (from 0) has no "
         "buffer on decode, and \"Transfer thread failed because of list index out of range."},
        {"0.5.22", "mooncake", 0, "",
         "in SGLang 0.5.22, Mooncake sends prefill's draft entries to decode's last entries (draft entries: 1)"},
        {"0.5.23", "mooncake_tcp", 0, "", "Mooncake sends prefill's draft entries to decode's last entries"},
        {"0.5.9", "nixl", 1, "first transfer", "NIXL's send raises IndexError in the scheduler on the first request"},
        {"0.5.12", "nixl", 1, "first transfer", "\"Unexpected transfer worker error for room ...\""},
        {"0.5.14", "nixl", 1, "first transfer", "NIXL prepares decode's first 78 entries only"},
        {"0.5.15", "nixl", 1, "NIXL handshake",
         "\"NIXL PD transfer: decode registered fewer KV regions (78) than prefill (79); unexpected geometry\""},
        {"0.5.11", "mori", 1, "first transfer", "and the prefill scheduler exits"},
        {"0.5.23", "mori", 1, "first transfer",
         "Mori fails each request: \"Destination MLA KV descriptors do not match prefill pp configuration\""},
        {"0.5.23", "ascend", 1, "first transfer", "Ascend's send raises IndexError on the first request"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char pa[256], da[256];
        snprintf(pa, sizeof pa, "--disaggregation-mode prefill --speculative-algorithm EAGLE "
                 "--disaggregation-transfer-backend %s", C[i].transfer);
        snprintf(da, sizeof da, "--disaggregation-mode decode --disaggregation-transfer-backend %s", C[i].transfer);
        p = worker_make("B300", "glm-5.2", pa);
        d = worker_make("B300", "glm-5.2", da);
        if (compare_under(p, d, C[i].release, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        assert_false(v->compatible);
        assert_string_equal(v->mismatches[0].field, "kv_entries");
        if (kvc_verdict_bootstrap_catches(v) != C[i].catches || strcmp(kvc_verdict_caught_at(v), C[i].stage) ||
            !strstr(kvc_verdict_bootstrap(v), C[i].text))
            fail_msg("case %zu: catches %d at '%s': %s", i, kvc_verdict_bootstrap_catches(v), kvc_verdict_caught_at(v),
                     kvc_verdict_bootstrap(v));
        assert_int_equal(v->nfixes, 1);
        assert_int_equal(v->fixes[0].side, KVC_SIDE_DECODE);
        assert_string_equal(v->fixes[0].args[0][0], "--speculative-algorithm");
        assert_string_equal(v->fixes[0].args[0][1], "EAGLE");
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* A separate draft model's K and V entries are compared when both sides
 * derive them: a different attention TP splits their heads differently,
 * which NIXL 0.5.15+ refuses where prefill's are longer; a draft on prefill
 * only is an entry-count mismatch like MTP's. */
static void test_compare__separate_draft_model_pools(void **state)
{
    (void)state;
    static const char D[] = "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
                            "tests/unit/models/EAGLE3_DRAFT.json --speculative-draft-attention-backend flashinfer";
    static const struct {
        const char *prefill, *decode;
        int compatible, catches;
        const char *field, *text;
    } C[] = {
        {"--tp 8", "--tp 8", 1, 0, NULL, NULL},
        {"--tp 4", "--tp 8", 0, 0, "draft_model_pool", "the Mooncake transfer compares no item lengths"},
        {"--tp 4 --disaggregation-transfer-backend nixl", "--tp 8 --disaggregation-transfer-backend nixl", 0, 1,
         "draft_model_pool",
         "refuses the pair when decode registers (the draft model's K entries): \"NIXL prepared dlist transfer length "
         "exceeds item stride: xfer_len=16384, item_len=8192\""},
        {"--tp 8 --disaggregation-transfer-backend nixl", "--tp 4 --disaggregation-transfer-backend nixl", 0, 0,
         "draft_model_pool", "NIXL handshake refuses only a prefill item length longer than decode's"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_worker *p, *d;
        pair_make("B300", "glm-5.2", D, C[i].prefill, C[i].decode, &p, &d);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, "0.5.23", &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (v->compatible != C[i].compatible || kvc_verdict_bootstrap_catches(v) != C[i].catches)
            fail_msg("case %zu: compatible %d, catches %d: %s", i, v->compatible, kvc_verdict_bootstrap_catches(v),
                     kvc_verdict_bootstrap(v));
        if (C[i].field) {
            assert_string_equal(v->mismatches[0].field, C[i].field);
            assert_contains(kvc_verdict_bootstrap(v), C[i].text);
            assert_contains(v->consequences[0], "decode's draft model attends over bytes that are not its KV");
        }
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
    /* a draft dtype on one side: the fix gives the other side the same */
    {
        kvc_worker *p, *d;
        pair_make("B300", "glm-5.2", D, "--speculative-draft-kv-cache-dtype bf16", "", &p, &d);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        assert_int_equal(compare_under(p, d, "0.5.23", &v, &diag), KVC_OK);
        assert_string_equal(v->mismatches[0].prefill, "bfloat16 1x8x128: 131072 B/page"); /* TP 1: all 8 KV heads */
        assert_true(v->nfixes > 0);
        char line[512];
        fix_line(&v->fixes[0], line, sizeof line);
        assert_string_equal(line, "--speculative-draft-kv-cache-dtype fp8_e4m3");
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
    /* the draft on prefill only: 80 entries against 78 */
    char pa[512];
    snprintf(pa, sizeof pa, "--disaggregation-mode prefill %s", D);
    kvc_worker *p = worker_make("B300", "glm-5.2", pa), *d = worker_make("B300", "glm-5.2", "--disaggregation-mode decode");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(compare_under(p, d, "0.5.18", &v, &diag), KVC_OK);
    assert_false(v->compatible);
    assert_string_equal(v->mismatches[0].field, "kv_entries");
    assert_string_equal(v->mismatches[0].prefill, "80");
    assert_string_equal(kvc_verdict_caught_at(v), "first transfer");
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* A HiSparse decode with draft entries (MTP on decode): NIXL 0.5.15+
 * refuses them at the handshake when prefill has none (its host and GPU
 * entries mixed), and from 0.5.22 its GPU draft entries need Mooncake, or
 * the first request fails, with equal layouts; before 0.5.22 they go to host
 * page indices, which kvcheck says it has not determined. */
static void test_compare__hisparse_decode_with_draft_entries(void **state)
{
    (void)state;
    static const struct {
        const char *release, *transfer;
        int prefill_draft, compatible;
        const char *stage, *field, *text;
        int fixes;
    } C[] = {
        {"0.5.15", "nixl", 0, 0, "NIXL handshake", "kv_entries",
         "\"NotImplementedError: NIXL PD transfer does not support HiSparse combined with decode-only speculative "
         "decoding.\"", 1},
        /* each fix is re-checked against the engine's checks too: from 0.5.22 the drafts need Mooncake, so giving
         * prefill the draft no longer helps over NIXL */
        {"0.5.23", "nixl", 0, 0, "NIXL handshake", "kv_entries", "decode-only speculative decoding", 0},
        {"0.5.14", "nixl", 0, 1, "", NULL, "the NIXL transfer compares no item lengths", 0},
        {"0.5.23", "mooncake", 0, 1, "", NULL, "the Mooncake transfer compares no item lengths", 0},
        {"0.5.23", "nixl", 1, 0, "first request", "engine_check",
         "\"NotImplementedError: HiSparse device-only PD transfer currently requires the Mooncake backend\" (sglang "
         "0.5.22: python/sglang/srt/disaggregation/decode.py:1729-1755", 0},
        {"0.5.22", "mori", 1, 0, "first request", "engine_check", "fails the first request over Mori", 0},
        {"0.5.23", "mooncake", 1, 1, "", NULL, "the Mooncake transfer compares no item lengths", 0},
        {"0.5.21", "nixl", 1, 1, "", NULL,
         "before 0.5.22 a HiSparse decode's draft entries are sent at its host page indices", 0},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char pa[256], da[256];
        snprintf(pa, sizeof pa, "--disaggregation-mode prefill --disaggregation-transfer-backend %s "
                 "--dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv%s", C[i].transfer,
                 C[i].prefill_draft ? " --speculative-algorithm EAGLE" : "");
        snprintf(da, sizeof da, "--disaggregation-mode decode --disaggregation-transfer-backend %s --enable-hisparse "
                 "--speculative-algorithm EAGLE", C[i].transfer);
        kvc_worker *p = worker_make("B300", "glm-5.2", pa), *d = worker_make("B300", "glm-5.2", da);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, C[i].release, &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (v->compatible != C[i].compatible || strcmp(kvc_verdict_caught_at(v), C[i].stage) ||
            !strstr(kvc_verdict_bootstrap(v), C[i].text) || (C[i].field && strcmp(v->mismatches[0].field, C[i].field)))
            fail_msg("case %zu: %d at '%s': %s", i, v->compatible, kvc_verdict_caught_at(v), kvc_verdict_bootstrap(v));
        if (!C[i].compatible) assert_int_equal(v->nfixes > 0, C[i].fixes);
        for (unsigned f = 0; f < v->nfixes; f++) {
            char line[512];
            fix_line(&v->fixes[f], line, sizeof line);
            if (v->fixes[f].side == KVC_SIDE_PREFILL) assert_contains(line, "--speculative-algorithm EAGLE");
        }
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* Each side builds its transfer from its own --disaggregation-transfer-backend
 * (mooncake when unset; mooncake_tcp is Mooncake): a pair whose backends
 * differ is a mismatch, and a prefill worker refuses fake from 0.5.10. */
static void test_compare__transfer_backends(void **state)
{
    (void)state;
    static const struct {
        const char *prefill, *decode;
        int compatible;
    } C[] = {
        {"", "--disaggregation-transfer-backend mooncake", 1},
        {"--disaggregation-transfer-backend mooncake_tcp", "", 1},
        {"--disaggregation-transfer-backend nixl", "", 0},
        {"--disaggregation-transfer-backend mori", "--disaggregation-transfer-backend nixl", 0},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_worker *p, *d;
        pair_make("B300", "glm-5.2", "", C[i].prefill, C[i].decode, &p, &d);
        kvc_verdict *v = NULL;
        kvc_diag diag;
        if (compare_under(p, d, "0.5.23", &v, &diag) != KVC_OK) fail_msg("case %zu: %s", i, diag.message);
        if (v->compatible != C[i].compatible) fail_msg("case %zu: compatible %d", i, v->compatible);
        if (!C[i].compatible) {
            assert_string_equal(v->mismatches[0].field, "transfer_backend");
            assert_true(v->nfixes > 0);
        }
        kvc_verdict_free(v);
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
    kvc_worker *p = worker_make("B300", "glm-5.2", "--disaggregation-mode prefill --disaggregation-transfer-backend fake");
    kvc_worker *d = worker_make("B300", "glm-5.2", "--disaggregation-mode decode --disaggregation-transfer-backend fake");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(compare_under(p, d, "0.5.10", &v, &diag), KVC_ERR_CONFIG);
    assert_contains(diag.message, "prefill worker: SGLang 0.5.10 refuses to start: Prefill server does not support "
                                  "'fake' as the transfer backend (sglang 0.5.10rc0: "
                                  "python/sglang/srt/server_args.py:3176-3179");
    assert_int_equal(compare_under(p, d, "0.5.9", &v, &diag), KVC_OK);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* Every fix kvcheck prints, pasted onto its side, makes the pair compatible
 * under the release it was found for. */
static void test_compare__every_fix_works_when_applied(void **state)
{
    (void)state;
    const char *pairs[] = {"glm52-b300-hisparse-mtp", "hopper-prefill-blackwell-decode-fp8", "deepseek-v3-mla-page-size"};
    for (size_t i = 0; i < 3; i++) {
        for (int rules = 0; rules < 2; rules++) {
            kvc_verdict *v = compare_files(pairs[i], RELEASES[rules]);
            assert_true(v->nfixes > 0);
            for (unsigned f = 0; f < v->nfixes; f++) {
                char line[512];
                fix_line(&v->fixes[f], line, sizeof line);
                {
                    const char *r = RELEASES[rules];
                    char p[256], d[256];
                    snprintf(p, sizeof p, "fixtures/pairs/%s/prefill.json", pairs[i]);
                    snprintf(d, sizeof d, "fixtures/pairs/%s/decode.json", pairs[i]);
                    kvc_worker *wp = kvc_worker_create("prefill"), *wd = kvc_worker_create("decode");
                    kvc_diag diag;
                    assert_int_equal(kvc_worker_load_file(wp, p, &diag), KVC_OK);
                    assert_int_equal(kvc_worker_load_file(wd, d, &diag), KVC_OK);
                    kvc_worker *target = v->fixes[f].side == KVC_SIDE_PREFILL ? wp : wd;
                    assert_int_equal(kvc_worker_add_args(target, line, "fix", &diag), KVC_OK);
                    kvc_verdict *after = NULL;
                    assert_int_equal(compare_under(wp, wd, r, &after, &diag), KVC_OK);
                    if (!after->compatible) fail_msg("%s: fix '%s' on %s does not work under %s", pairs[i], line,
                                                     kvc_side_name(v->fixes[f].side), r);
                    kvc_verdict_free(after);
                    kvc_worker_free(wp);
                    kvc_worker_free(wd);
                }
            }
            kvc_verdict_free(v);
        }
    }
}

static void test_compare__a_worker_that_does_not_resolve_is_named(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("B300", "glm-5.2", "--disaggregation-mode prefill");
    kvc_worker *d = worker_make("B300", "glm-5.2", "--enable-hisparse");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(kvc_compare(p, d, &v, &diag), KVC_ERR_CONFIG);
    assert_null(v);
    assert_contains(diag.message, "decode worker: SGLang 0.5.23 refuses to start: Hierarchical sparse attention currently "
                                  "requires --disable-radix-cache.");
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* SGLang's FP4 MLA pool keeps its UE8M0 scales in a second buffer that its
 * PD transfer does not send: the layouts are equal, yet decode reads
 * prefill's values with its own scales. No flag on one side alone mends
 * that, so no fix is offered; fp8_e4m3 on both sides is the same pair made
 * whole. */
static void test_compare__fp4_scales_are_left_behind_by_the_transfer(void **state)
{
    (void)state;
    kvc_worker *p = worker_make("B200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --disaggregation-mode prefill");
    kvc_worker *d = worker_make("B200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --disaggregation-mode decode");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(compare_under(p, d, "0.5.9", &v, &diag), KVC_OK);
    assert_string_equal(v->prefill.kv.name, "fp4_mx16");
    assert_string_equal(v->decode.kv.name, "fp4_mx16");
    assert_false(v->compatible);
    assert_int_equal(v->nmismatches, 1);
    assert_true(has_mismatch(v, "scale_buffer"));
    int left = 0;
    for (unsigned i = 0; i < v->nconsequences; i++)
        left |= strstr(v->consequences[i], "sends the KV buffer without the 36 B/token scale buffer") != NULL;
    assert_true(left);
    assert_int_equal(v->nfixes, 0);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
    p = worker_make("B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3 --disaggregation-mode prefill");
    d = worker_make("B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3 --disaggregation-mode decode");
    assert_int_equal(compare_under(p, d, "0.5.9", &v, &diag), KVC_OK);
    assert_true(v->compatible);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* A DSA model like GLM-5.2 but with kv_lora_rank `rank`, as the worker
 * given `gpu` and `args`; the model is named "dsa-rRANK". */
static kvc_worker *dsa_worker_with_rank(unsigned rank, const char *gpu, const char *args)
{
    char dir[] = "/tmp/kvc_test_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/dsa-r%u.json", dir, rank);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"architectures\": [\"GlmMoeDsaForCausalLM\"], \"torch_dtype\": \"bfloat16\", "
            "\"num_hidden_layers\": 4, \"kv_lora_rank\": %u, \"qk_rope_head_dim\": 64, "
            "\"index_head_dim\": 128, \"index_topk\": 2048}\n",
            rank);
    assert_int_equal(fclose(f), 0);
    kvc_worker *w = worker_make(gpu, path, args); /* the model is read now */
    unlink(path);
    rmdir(dir);
    return w;
}

/* kv_lora_rank 448 or 511 is no multiple of 128, so fp8_flashmla (one FP32
 * scale per 128 values) cannot be built: the fix search tries candidates
 * that lead there (flashmla_kv on either side) and must drop them, not
 * crash (it did: the layout's error went to a NULL diag). SGLang's raw FP8
 * and bf16 rows take any rank, so the pair still gets a verdict, and every
 * fix it prints works when applied. */
static void test_compare__fix_search_with_kv_lora_rank_not_a_multiple_of_128(void **state)
{
    (void)state;
    const unsigned ranks[] = {448, 511};
    for (size_t i = 0; i < 2; i++) {
        for (int rules = 0; rules < 2; rules++) {
            kvc_worker *p = dsa_worker_with_rank(ranks[i], "B300", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
            kvc_worker *d = dsa_worker_with_rank(ranks[i], "B300", "--disaggregation-mode decode --kv-cache-dtype bfloat16");
            kvc_verdict *v = NULL;
            kvc_diag diag;
            assert_int_equal(compare_under(p, d, RELEASES[rules], &v, &diag), KVC_OK);
            assert_false(v->compatible);
            assert_string_equal(v->prefill.kv.name, "fp8_raw");
            assert_int_equal(v->prefill.kv.bytes_per_token, ranks[i] + 64);
            assert_string_equal(v->decode.kv.name, "bf16");
            assert_true(v->bootstrap_catches); /* the KV dtypes differ */
            /* the best fix: prefill in bf16 too, under either release */
            assert_true(v->nfixes >= 1);
            assert_int_equal(v->fixes[0].side, KVC_SIDE_PREFILL);
            assert_int_equal(v->fixes[0].nargs, 1);
            assert_string_equal(v->fixes[0].args[0][0], "--kv-cache-dtype");
            assert_string_equal(v->fixes[0].args[0][1], "bfloat16");
            for (unsigned f = 0; f < v->nfixes; f++) {
                char line[512];
                fix_line(&v->fixes[f], line, sizeof line);
                kvc_worker *fp = dsa_worker_with_rank(ranks[i], "B300", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
                kvc_worker *fd = dsa_worker_with_rank(ranks[i], "B300", "--disaggregation-mode decode --kv-cache-dtype bfloat16");
                assert_int_equal(kvc_worker_add_args(v->fixes[f].side == KVC_SIDE_PREFILL ? fp : fd, line, "fix", &diag),
                                 KVC_OK);
                kvc_verdict *after = NULL;
                if (compare_under(fp, fd, RELEASES[rules], &after, &diag) != KVC_OK)
                    fail_msg("rank %u: fix '%s' on %s does not resolve: %s", ranks[i], line,
                             kvc_side_name(v->fixes[f].side), diag.message);
                if (!after->compatible)
                    fail_msg("rank %u: fix '%s' on %s does not work", ranks[i], line, kvc_side_name(v->fixes[f].side));
                kvc_verdict_free(after);
                kvc_worker_free(fp);
                kvc_worker_free(fd);
            }
            /* the same without a diagnostic */
            kvc_verdict_free(v);
            assert_int_equal(kvc_compare(p, d, &v, NULL), KVC_OK);
            assert_false(v->compatible);
            kvc_verdict_free(v);
            kvc_worker_free(p);
            kvc_worker_free(d);
        }
    }
}

/* A side that itself resolves to fp8_flashmla (HiSparse with fp8 forces
 * flashmla_kv) at such a rank is invalid, as SGLang cannot lay out its
 * scales: a clean error that names the side, the model and the rank. */
static void test_compare__fp8_flashmla_with_kv_lora_rank_not_a_multiple_of_128_is_an_error(void **state)
{
    (void)state;
    const unsigned ranks[] = {448, 511};
    for (size_t i = 0; i < 2; i++) {
        kvc_worker *p = dsa_worker_with_rank(ranks[i], "B300", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
        kvc_worker *d = dsa_worker_with_rank(ranks[i], "B300",
                                             "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --enable-hisparse "
                                             "--disable-radix-cache");
        kvc_verdict *v = NULL;
        kvc_diag diag;
        char want[256];
        snprintf(want, sizeof want,
                 "decode worker: model dsa-r%u with fp8_e4m3: fp8_flashmla needs kv_lora_rank to be a multiple of 128 "
                 "(one FP32 scale per 128 values), but it is %u (",
                 ranks[i], ranks[i]);
        assert_int_equal(kvc_compare(p, d, &v, &diag), KVC_ERR_CONFIG);
        assert_null(v);
        assert_int_equal(diag.status, KVC_ERR_CONFIG);
        assert_contains(diag.message, want);
        assert_int_equal(kvc_compare(p, d, &v, NULL), KVC_ERR_CONFIG);
        /* either way round */
        assert_int_equal(compare_under(d, p, "0.5.19", &v, &diag), KVC_ERR_CONFIG);
        assert_contains(diag.message, "prefill worker: model dsa-r");
        assert_contains(diag.message, "fp8_flashmla needs kv_lora_rank to be a multiple of 128");
        kvc_worker_free(p);
        kvc_worker_free(d);
    }
}

/* A worker that cannot be built under one release (flashmla_kv decides on
 * a decode worker from 0.5.20; trtllm's raw rows decide in 0.5.9-0.5.19)
 * gets a verdict under the other; under its own it is the error, and
 * without a version the releases where it cannot start are said. */
static void test_compare__a_worker_valid_under_one_release_only_gets_a_verdict(void **state)
{
    (void)state;
    kvc_worker *p = worker_file("fixtures/pairs/dsa-rank-448-mixed-backends/prefill.json");
    kvc_worker *d = worker_file("fixtures/pairs/dsa-rank-448-mixed-backends/decode.json");
    kvc_verdict *v = NULL;
    kvc_diag diag;
    assert_int_equal(compare_under(p, d, "0.5.19", &v, &diag), KVC_OK);
    assert_true(v->compatible);
    assert_string_equal(v->decode.kv.name, "fp8_raw");
    assert_int_equal(v->decode.kv.bytes_per_token, 448 + 64);
    kvc_verdict_free(v);
    kvc_worker_free(p);
    kvc_worker_free(d);
    p = worker_file("fixtures/pairs/dsa-rank-448-mixed-backends/prefill.json");
    d = worker_file("fixtures/pairs/dsa-rank-448-mixed-backends/decode.json");
    assert_int_equal(compare_under(p, d, "0.5.23", &v, &diag), KVC_ERR_CONFIG);
    assert_contains(diag.message, "decode worker: model inline with fp8_e4m3: fp8_flashmla needs kv_lora_rank to be a "
                                  "multiple of 128 (one FP32 scale per 128 values), but it is 448");
    kvc_worker_free(p);
    kvc_worker_free(d);
}

/* Flags whose dashes copy-paste mangled change a pair's verdict exactly as
 * the flags written right do, and each says how it was read. */
static void test_compare__mangled_dashes_decide_the_verdict_as_written_right(void **state)
{
    (void)state;
    static const char *const RIGHT[][2] = {
        {"--enable-hisparse --disable-radix-cache", "\xe2\x80\x94" "enable-hisparse \xe2\x80\x93" "disable-radix-cache"},
        {"--kv-cache-dtype bf16", "-kv-cache-dtype bf16"},
        {"--dsa-decode-backend flashmla_kv --dsa-prefill-backend flashmla_kv",
         "\xe2\x80\x94" "dsa-decode-backend flashmla_kv ---dsa-prefill-backend=flashmla_kv"},
    };
    for (size_t i = 0; i < sizeof RIGHT / sizeof RIGHT[0]; i++) {
        char line[256];
        kvc_verdict *v[2];
        kvc_diag d;
        for (int k = 0; k < 2; k++) {
            snprintf(line, sizeof line, "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 %s", RIGHT[i][k]);
            kvc_worker *p = worker_make("B300", "glm-5.2", "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3");
            kvc_worker *w = worker_make("B300", "glm-5.2", line);
            assert_int_equal(kvc_compare(p, w, &v[k], &d), KVC_OK);
            kvc_worker_free(p);
            kvc_worker_free(w);
        }
        const kvc_resolved *a = kvc_verdict_side(v[0], KVC_SIDE_DECODE), *b = kvc_verdict_side(v[1], KVC_SIDE_DECODE);
        assert_int_equal(kvc_verdict_compatible(v[0]), kvc_verdict_compatible(v[1]));
        assert_string_equal(kvc_layout_name(kvc_resolved_layout(a)), kvc_layout_name(kvc_resolved_layout(b)));
        assert_int_equal(kvc_verdict_mismatch_count(v[0]), kvc_verdict_mismatch_count(v[1]));
        assert_int_equal(kvc_verdict_fix_count(v[0]), kvc_verdict_fix_count(v[1]));
        for (unsigned f = 0; f < kvc_verdict_fix_count(v[0]); f++) {
            char fa[256], fb[256];
            fix_line(kvc_verdict_fix(v[0], f), fa, sizeof fa);
            fix_line(kvc_verdict_fix(v[1], f), fb, sizeof fb);
            assert_string_equal(fa, fb);
        }
        for (unsigned s = 0; s < kvc_resolved_setting_count(a); s++)
            assert_string_equal(kvc_resolved_setting(a, s)->value, kvc_resolved_setting(b, s)->value);
        /* the mangled side says so, first; the right one does not */
        unsigned extra = kvc_resolved_warning_count(b) - kvc_resolved_warning_count(a);
        assert_true(extra >= 1);
        for (unsigned w = 0; w < extra; w++) {
            assert_contains(kvc_resolved_warning(b, w), "its leading dashes are");
            assert_contains(kvc_resolved_warning(b, w), "SGLang would refuse the word (unrecognized arguments): write --");
        }
        for (unsigned w = 0; w < kvc_resolved_warning_count(a); w++)
            assert_string_equal(kvc_resolved_warning(a, w), kvc_resolved_warning(b, w + extra));
        kvc_verdict_free(v[0]);
        kvc_verdict_free(v[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare__mangled_dashes_decide_the_verdict_as_written_right),
        cmocka_unit_test(test_compare__glm52_pair_is_incompatible_and_sglang_would_not_notice),
        cmocka_unit_test(test_compare__the_fixed_glm52_pair_is_compatible_under_both_row_rules),
        cmocka_unit_test(test_compare__hopper_prefill_blackwell_decode_fp8),
        cmocka_unit_test(test_compare__bf16_with_different_backends_is_compatible),
        cmocka_unit_test(test_compare__a_page_size_mismatch_is_caught_by_sglangs_bootstrap),
        cmocka_unit_test(test_compare__the_release_dependent_pair_is_flagged),
        cmocka_unit_test(test_compare__glm5_next_state_dtypes),
        cmocka_unit_test(test_compare__each_side_is_judged_under_its_own_release),
        cmocka_unit_test(test_compare__sglangs_own_checks_by_release_and_transfer),
        cmocka_unit_test(test_compare__mixed_releases_read_the_prefill_info),
        cmocka_unit_test(test_compare__decode_allocation_policy),
        cmocka_unit_test(test_compare__dsv4_kv_layouts_by_release),
        cmocka_unit_test(test_compare__a_fix_of_more_than_four_flags),
        cmocka_unit_test(test_compare__mtp_entry_counts),
        cmocka_unit_test(test_compare__transfer_backends),
        cmocka_unit_test(test_compare__separate_draft_model_pools),
        cmocka_unit_test(test_compare__hisparse_decode_with_draft_entries),
        cmocka_unit_test(test_compare__every_fix_works_when_applied),
        cmocka_unit_test(test_compare__a_worker_that_does_not_resolve_is_named),
        cmocka_unit_test(test_compare__fp4_scales_are_left_behind_by_the_transfer),
        cmocka_unit_test(test_compare__fix_search_with_kv_lora_rank_not_a_multiple_of_128),
        cmocka_unit_test(test_compare__fp8_flashmla_with_kv_lora_rank_not_a_multiple_of_128_is_an_error),
        cmocka_unit_test(test_compare__a_worker_valid_under_one_release_only_gets_a_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
