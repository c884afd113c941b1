/* SGLang's layout rules release by release. The conformance replay
 * (tests/conformance) checks thousands of cases against the releases' own
 * code; these are the cases a reader can follow, each with what the
 * release's code does (ERAS.md), plus what the replay cannot see: reasons,
 * citations, messages with positions, versions and eras. */
#include "support.h"
#include "engine/sglang/sglang.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* DeepSeek-V3's config with its attention heads, which SGLang's ROCm default reads */
#define V3_HEADS "tests/conformance/sglang/models/DEEPSEEK_V3.json"

#define MODELS "tests/conformance/sglang/models/"
#define SHARED MODELS "GLM52_SHARED.json"
#define FREQ2 MODELS "GLM5_FREQ2.json"
/* trtllm_mha named by --attention-backend, both sides set to other backends */
#define TRTLLM_MHA_UNBUILT "--attention-backend trtllm_mha --prefill-attention-backend fa4 --decode-attention-backend flashinfer"
static const struct row {
    const char *gpu, *model, *args;
    const char *release; /* NULL: the default (newest) */
    const char *dtype, *prefill, *decode, *layout;
    uint32_t bytes, page;
} TABLE[] = {
    /* 0.5.20+: defaults (sglang 0.5.23: arg_groups/overrides.py:601-741) */
    {"H200", "deepseek-v3.2", "", NULL, "bfloat16", "flashmla_sparse", "fa3", "bf16", 1152, 64},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    {"B200", "glm-5.2", "--kv-cache-dtype bfloat16", NULL, "bfloat16", "flashmla_sparse", "trtllm", "bf16", 1152, 64},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"H200", "glm-5.2", "--enable-hisparse --disable-radix-cache", NULL, "bfloat16", "flashmla_sparse", "flashmla_sparse", "bf16", 1152, 64},
    {"H200", "glm-5.2", "--enable-hisparse --disaggregation-mode decode", NULL, "bfloat16", "flashmla_sparse", "flashmla_sparse", "bf16", 1152, 64},
    {"H200", "deepseek-v3.2", "--enable-hisparse --disaggregation-mode decode", "0.5.10", "bfloat16", "flashmla_sparse", "flashmla_sparse", "bf16", 1152, 64},
    /* GLM with fp8 on SM12x: flashinfer_sparse_mla from 0.5.17, trtllm before */
    {"RTX PRO 6000", "glm-5.2", "", NULL, "fp8_e4m3", "flashinfer_sparse_mla", "flashinfer_sparse_mla", "fp8_flashmla", 656, 64},
    {"GB10", "glm-5.2", "", "0.5.16", "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    {"RTX PRO 6000", "deepseek-v3.2", "", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    /* ROCm: triton per unset side from 0.5.20; tilelang both-unset before; MI300X fp8 is e4m3fnuz: raw */
    {"MI355X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", NULL, "fp8_e4m3", "triton", "triton", "fp8_raw", 576, 64},
    {"MI355X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", "0.5.19", "fp8_e4m3", "tilelang", "tilelang", "fp8_raw", 576, 64},
    {"MI355X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"MI300X", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_kv --dsa-decode-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_raw", 576, 64},
    {"MI355X", "deepseek-v3.2", "", "0.5.10", "bfloat16", "tilelang", "tilelang", "bf16", 1152, 1},
    /* the row rule: the worker's own backend decides from 0.5.20; either backend in 0.5.9-0.5.19 */
    {"B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "--disaggregation-mode prefill --dsa-prefill-backend flashmla_kv", "0.5.19", "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"B300", "glm-5.2", "--disaggregation-mode decode --dsa-decode-backend flashmla_kv", NULL, "fp8_e4m3", "trtllm", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"B300", "glm-5.2", "--dsa-prefill-backend flashmla_kv", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --disaggregation-mode decode --dsa-decode-backend trtllm", NULL, "fp8_e4m3", "flashmla_kv", "trtllm", "fp8_raw", 576, 64},
    /* flashmla_sparse_q8 prefills Hopper's packed fp8 pool, and bf16 from 0.5.22 */
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_sparse_q8", NULL, "fp8_e4m3", "flashmla_sparse_q8", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"H200", "deepseek-v3.2", "--dsa-prefill-backend flashmla_sparse_q8", NULL, "bfloat16", "flashmla_sparse_q8", "fa3", "bf16", 1152, 64},
    /* CUDA tilelang both sides: raw from 0.5.22 */
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang", NULL, "fp8_e4m3", "tilelang", "tilelang", "fp8_raw", 576, 64},
    /* up to 0.5.8.post1 the dtype alone decides, and fp8 forces the backends */
    {"B300", "deepseek-v3.2", "--nsa-decode-backend fa3", "0.5.8", "fp8_e4m3", "flashmla_auto", "flashmla_kv", "fp8_flashmla", 656, 64},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3", "0.5.3", "fp8_e4m3", "flashmla_decode", "flashmla_decode", "fp8_flashmla", 656, 64},
    {"H200", "deepseek-v3.2", "", "0.5.3", "auto", "flashmla_prefill", "fa3", "bf16", 1152, 64},
    {"B200", "deepseek-v3.2", "--kv-cache-dtype bfloat16", "0.5.4", "fp8_e4m3", "flashmla_kv", "flashmla_kv", "fp8_flashmla", 656, 64},
    /* 0.5.10: fp8 on Blackwell forces trtllm over the user's flags */
    {"B200", "glm-5.2", "--nsa-prefill-backend flashmla_kv", "0.5.10", "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    /* page size is forced for DSA, 64 x index_kpool from 0.5.22 */
    {"B300", "glm-5.2", "--page-size 32", NULL, "fp8_e4m3", "trtllm", "trtllm", "fp8_raw", 576, 64},
    /* non-DSA MLA: R + r elements of the KV dtype, page size as given, auto stays auto */
    {"H200", "deepseek-v3", "", NULL, "auto", "", "", "bf16", 1152, 1},
    /* attention backends' page constraints, each on the page the one before left (sglang 0.5.23:
     * arg_groups/overrides.py:1143-1199) */
    {"H200", "deepseek-v3", "--attention-backend flashmla", NULL, "auto", "", "", "bf16", 1152, 64},
    {"H200", "deepseek-v3", "--decode-attention-backend flashmla --page-size 16", "0.5.3rc2", "auto", "", "", "bf16", 1152, 64},
    {"H200", "deepseek-v3", "--attention-backend cutlass_mla --page-size 32", "0.5.13", "auto", "", "", "bf16", 1152, 128},
    {"B200", "deepseek-v3", "--attention-backend cutlass_mla --decode-attention-backend trtllm_mla", "0.5.13", "auto", "", "", "bf16", 1152, 64},
    /* LMCache alone, and before 0.5.21 with HiCache (no LMCache checks there) */
    {"H200", "deepseek-v3", "--enable-lmcache", NULL, "auto", "", "", "bf16", 1152, 1},
    {"H200", "deepseek-v3", "--enable-lmcache --enable-hierarchical-cache", "0.5.20", "auto", "", "", "bf16", 1152, 1},
    /* the backends whose start-up checks 0.5.12-0.5.13 added (Blackwell, pages of 32 or 64), Intel XPU's pages,
     * fa3 with fp8_e5m2 made triton, so its GPU check at model init does not run */
    {"B200", "deepseek-v3", "--attention-backend cutedsl_mla", "0.5.13", "auto", "", "", "bf16", 1152, 64},
    {"B200", "deepseek-v3", "--attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3", "0.5.20", "fp8_e4m3", "",
     "", "fp8_raw", 576, 64},
    /* 0.5.23 reads tokenspeed_mla as cutedsl_mla (prefill side: trtllm_mla) and, on the attention backend or
     * the decode side, sets fp8_e4m3 over the dtype given */
    {"B200", "deepseek-v3", "--attention-backend tokenspeed_mla", NULL, "fp8_e4m3", "", "", "fp8_raw", 576, 64},
    {"B200", "deepseek-v3", "--decode-attention-backend tokenspeed_mla --kv-cache-dtype bf16", NULL, "fp8_e4m3", "",
     "", "fp8_raw", 576, 64},
    {"B200", "deepseek-v3", "--prefill-attention-backend tokenspeed_mla --decode-attention-backend flashinfer", NULL,
     "auto", "", "", "bf16", 1152, 1},
    {"H200", "deepseek-v3", "--decode-attention-backend intel_xpu", "0.5.15", "auto", "", "", "bf16", 1152, 128},
    {"H200", "deepseek-v3", "--attention-backend intel_xpu --page-size 16", "0.5.8", "auto", "", "", "bf16", 1152, 128},
    {"B200", "deepseek-v3", "--attention-backend fa3 --kv-cache-dtype fp8_e5m2", NULL, "fp8_e5m2", "", "",
     "fp8_e5m2_raw", 576, 1},
    /* equal side flags: up to 0.5.17 the model runner builds the attention backend they settle, triton here */
    {"B200", "deepseek-v3", "--prefill-attention-backend fa3 --decode-attention-backend fa3 --kv-cache-dtype fp8_e5m2",
     "0.5.17", "fp8_e5m2", "", "", "fp8_e5m2_raw", 576, 1},
    {"H200", "deepseek-v3", "--prefill-attention-backend fa4", "0.5.5", "auto", "", "", "bf16", 1152, 128},
    {"H200", "deepseek-v3", "--prefill-attention-backend fa4", "0.5.5.post1", "auto", "", "", "bf16", 1152, 1},
    /* equal prefill and decode flags replace --attention-backend from 0.5.4.post1 */
    {"H200", "deepseek-v3", "--attention-backend flashmla --prefill-attention-backend fa3 --decode-attention-backend fa3", "0.5.4.post1", "auto", "", "", "bf16", 1152, 1},
    {"H200", "deepseek-v3", "--attention-backend flashmla --prefill-attention-backend fa3 --decode-attention-backend fa3", "0.5.4", "auto", "", "", "bf16", 1152, 64},
    {"H200", "deepseek-v3.2", "--attention-backend cutlass_mla --prefill-attention-backend fa3 --decode-attention-backend fa3", "0.5.9", "bfloat16", "flashmla_sparse", "fa3", "bf16", 1152, 64},
    /* ROCm's default page under aiter's SHUFFLE layout (0.5.13+), compared lower-cased */
    {"MI300X", V3_HEADS, "SGLANG_AITER_KV_CACHE_LAYOUT=Vectorized_5D --tp-size 8", "0.5.13", "auto", "", "", "bf16", 1152, 64},
    {"MI300X", V3_HEADS, "SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d --tp-size 8", "0.5.12", "auto", "", "", "bf16", 1152, 1},
    {"H200", V3_HEADS, "SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d", NULL, "auto", "", "", "bf16", 1152, 1},
    /* SGLang's platform default MLA backend meets the speculative page-tree check: fa3 on Hopper takes a top-k of
     * 4 on pages of 64 tokens, and so does triton on ROCm where a rank keeps neither 16 nor 128 KV heads */
    {"H200", "deepseek-v3", "--speculative-algorithm EAGLE --speculative-eagle-topk 4 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8 --page-size 64", "0.5.9", "auto", "", "", "bf16", 1152, 64},
    {"MI300X", V3_HEADS, "--speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8 --page-size 16 --tp-size 4", "0.5.16", "auto", "", "", "bf16", 1152, 16},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3 --page-size 64", NULL, "fp8_e4m3", "", "", "fp8_raw", 576, 64},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp8_e5m2 --page-size 16", NULL, "fp8_e5m2", "", "", "fp8_e5m2_raw", 576, 16},
    /* ROCm stores fp8_e5m2 as its native fp8 from 0.5.6.post2: e4m3fn on MI355X, scaled rows for a DSA pool */
    {"MI355X", "deepseek-v3", "--kv-cache-dtype fp8_e5m2", NULL, "fp8_e5m2", "", "", "fp8_raw", 576, 1},
    {"MI355X", "deepseek-v3", "--kv-cache-dtype fp8_e5m2", "0.5.6.post1", "fp8_e5m2", "", "", "fp8_e5m2_raw", 576, 1},
    {"MI355X", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype fp8_e5m2", NULL, "fp8_e5m2", "", "", "fp8_flashmla", 656, 1},
    /* DeepSeek V3/R1 on SM100 runs trtllm_mla from 0.5.3.post2 unless an attention backend is given: page 32 or 64 */
    {"B200", "deepseek-v3", "", NULL, "auto", "", "", "bf16", 1152, 64},
    {"B300", "deepseek-v3", "--page-size 32", NULL, "auto", "", "", "bf16", 1152, 32},
    {"B300", "deepseek-v3", "--page-size 128 --kv-cache-dtype fp8_e4m3", "0.5.5", "fp8_e4m3", "", "", "fp8_raw", 576, 64},
    {"B200", "deepseek-v3", "", "0.5.3.post1", "auto", "", "", "bf16", 1152, 1},
    {"B200", "deepseek-v3", "--attention-backend flashinfer --kv-cache-dtype bfloat16", NULL, "bfloat16", "", "", "bf16", 1152, 1},
    {"B200", "deepseek-v3", "--prefill-attention-backend fa4 --kv-cache-dtype bfloat16", NULL, "bfloat16", "", "", "bf16", 1152, 1},
    {"RTX PRO 6000", "deepseek-v3", "--attention-backend trtllm_mla --kv-cache-dtype fp8_e4m3", NULL, "fp8_e4m3", "", "", "fp8_raw", 576, 64},
    /* trtllm_mha's page rule reads --attention-backend even where both sides are set to others and no side builds
     * it: pages 16 32 64 to 0.5.16, 128 too from 0.5.17 */
    {"B200", "deepseek-v3", TRTLLM_MHA_UNBUILT " --kv-cache-dtype bfloat16 --page-size 128", "0.5.16", "bfloat16", "",
     "", "bf16", 1152, 64},
    {"B200", "deepseek-v3", TRTLLM_MHA_UNBUILT " --kv-cache-dtype bfloat16 --page-size 128", NULL, "bfloat16", "", "",
     "bf16", 1152, 128},
    {"B200", "deepseek-v3", TRTLLM_MHA_UNBUILT " --kv-cache-dtype bfloat16", NULL, "bfloat16", "", "", "bf16", 1152, 64},
    /* auto is the model's dtype: --dtype, else the config's ("dtype" over "torch_dtype"), float32 or none run as
     * float16; SGLang runs Mistral-Large-3's architecture in bfloat16 whatever --dtype says (0.5.6.post1+) */
    {"H200", "deepseek-v3", "--dtype float16", NULL, "auto", "", "", "fp16", 1152, 1},
    {"H200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--dtype float", NULL, "auto", "", "", "fp32", 2304, 1},
    {"H200", MODELS "DEEPSEEK_V3_NODTYPE.json", "", NULL, "auto", "", "", "fp16", 1152, 1},
    {"H200", MODELS "DEEPSEEK_V3_DTYPE_KEY.json", "", NULL, "auto", "", "", "fp16", 1152, 1},
    {"H200", MODELS "DEEPSEEK_V32_FP32.json", "", "0.5.3", "auto", "flashmla_prefill", "fa3", "fp16", 1152, 64},
    {"H200", MODELS "MISTRAL_LARGE3.json", "--dtype float16", NULL, "auto", "", "", "bf16", 1152, 1},
    {"H200", MODELS "MISTRAL_LARGE3_DSA.json", "", "0.5.6.post1", "bfloat16", "flashmla_sparse", "fa3", "bf16", 1152,
     64},
    /* FP4 on CUDA: packed E2M1 rows (R + r) / 2 bytes, their scales apart (fp4_mx16_scales); no KV4 check before
     * 0.5.7, then the MLA attention backend must be one SGLang lists (trtllm_mla, SM100's default, is) */
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.5", "fp4_e2m1", "", "", "fp4_mx16", 288, 1},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.9", "fp4_e2m1", "", "", "fp4_mx16", 288, 64},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --attention-backend flashinfer", "0.5.15.post1", "fp4_e2m1", "", "", "fp4_mx16", 288, 1},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4 --attention-backend flashinfer", "0.5.20", "nvfp4", "", "", "fp4_mx16", 288, 1},
    /* from 0.5.21 an MLA model keeps FP4 with an MLA attention backend given (NVFP4's own pick, trtllm_mha, its
     * model runner refuses: test_rules__refusals_are_sglangs_own_words) */
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --attention-backend flashinfer", NULL, "fp4_mx_block16", "", "", "fp4_mx16", 288, 1},
    /* mxfp8 is float8_e4m3fn: fp8_e4m3's pools, raw for plain MLA and scaled for DSA (SM100+ only) */
    {"RTX PRO 6000", "deepseek-v3", "--kv-cache-dtype mxfp8", NULL, "mxfp8", "", "", "fp8_raw", 576, 1},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype mxfp8", NULL, "mxfp8", "", "", "fp8_flashmla", 656, 1},
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

#define GLM5_NEXT "tests/conformance/sglang/models/GLM5_NEXT.json"
#define EAGLE1 "--speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 2"
#define EAGLE_TREE "--speculative-eagle-topk 2 --speculative-num-steps 3 --speculative-num-draft-tokens 8"

static const struct bad {
    const char *gpu, *model, *args, *release, *message;
} BAD[] = {
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e5m2", NULL,
     "SGLang 0.5.23 refuses to start: DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype"},
    {"B300", "deepseek-v3.2", "--kv-cache-dtype fp8_e5m2", "0.5.5", "DeepSeek NSA only supports bf16/bfloat16 or fp8_e4m3"},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache --dsa-prefill-backend trtllm", NULL,
     "HiSparse supports DSA prefill backend(s) ['flashinfer_sparse_mla', 'flashmla_kv'] on this platform with "
     "--kv-cache-dtype=fp8_e4m3, but got --dsa-prefill-backend=trtllm. Please use one of ['flashinfer_sparse_mla', "
     "'flashmla_kv'], or omit the option to let SGLang pick a backend for this platform."},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache --dsa-prefill-backend trtllm", "0.5.15",
     "Please use --dsa-prefill-backend=flashmla_kv or omit it."},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache", "0.5.11",
     "HiSparse requires bfloat16 KV cache, but got --kv-cache-dtype=fp8_e4m3. Please use --kv-cache-dtype=bfloat16."},
    {"B300", "glm-5.2", "--enable-hisparse", NULL, "Hierarchical sparse attention currently requires --disable-radix-cache."},
    {"B300", "glm-5.2", "--enable-hisparse --disaggregation-mode prefill", NULL,
     "Hierarchical sparse attention currently requires --disable-radix-cache."},
    /* a decode worker runs a chunk cache unless told to keep the radix cache, which HiSparse refuses */
    {"B300", "glm-5.2", "--enable-hisparse --disaggregation-mode decode --disaggregation-decode-enable-radix-cache", "0.5.12",
     "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse (sglang 0.5.11: python/sglang/srt/server_args.py:3738-3762; 0.5.12"},
    {"H200", "deepseek-v3", "--enable-hisparse --disable-radix-cache", NULL,
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models (e.g., DeepSeek V3.2, GLM-5), "
     "DeepSeek V4, and MiniMax M3 now. "},
    {"H200", "deepseek-v3", "--enable-hisparse --disable-radix-cache", "0.5.20",
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models (e.g., DeepSeek V3.2, GLM-5) and "
     "DeepSeek V4 now. "},
    {"H200", "deepseek-v3", "--enable-hisparse --disable-radix-cache", "0.5.10",
     "--enable-hisparse is only supported for DSA (DeepSeek Sparse Attention) models now(e.g., DeepSeek V3.2, GLM-5). "},
    /* a model without a class is taken for MHA: HiCache's decode side is flashinfer on CUDA (here equal to the prefill
     * side, so the attention backend), and SGLang's MHA default is not the MLA one kvcheck would read: no page-tree
     * refusal, the model loader's */
    {"H200", "glm-5.2", "--enable-hierarchical-cache --attention-backend flashmla --prefill-attention-backend flashinfer "
     "--speculative-algorithm EAGLE " EAGLE_TREE, "0.5.5", "Cannot find model module. 'GlmMoeDsaForCausalLM'"},
    {"H200", "glm-5.2", "--page-size 16 --speculative-algorithm EAGLE " EAGLE_TREE, "0.5.5",
     "Cannot find model module. 'GlmMoeDsaForCausalLM'"},
    /* NVFP4 makes the decode side trtllm_mha whatever --attention-backend names: the dtype is blamed */
    {"B200", "deepseek-v3", "--kv-cache-dtype nvfp4 --attention-backend flashinfer --speculative-algorithm EAGLE "
     EAGLE_TREE, NULL, "trtllm_mha backend only supports topk = 1 for speculative decoding. (--kv-cache-dtype nvfp4; "},
    /* no model class for Mistral-Large-3 before 0.5.6.post1 */
    {"H200", MODELS "MISTRAL_LARGE3.json", "", "0.5.6",
     "Cannot find model module. 'MistralLarge3ForCausalLM' is not a registered model in the Transformers library"},
    /* trtllm_mha named by --attention-backend alone (no side builds it): the page of 64 it sets meets the top-k check */
    {"B200", "deepseek-v3", TRTLLM_MHA_UNBUILT " --speculative-algorithm EAGLE --speculative-eagle-topk 2 "
     "--speculative-num-steps 3 --speculative-num-draft-tokens 8", NULL,
     "speculative_eagle_topk > 1 with page_size > 1 is only supported on ('flashinfer', 'fa3', 'triton'); got "
     "attention_backend='trtllm_mha'. Use page_size == 1 or one of those backends."},
    /* the trtllm_mla attention backend (DeepSeek V3/R1's default on SM100): KV dtypes and GPUs */
    {"B200", "deepseek-v3", "--kv-cache-dtype bfloat16", NULL,
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, bf16, or auto. (trtllm_mla: SGLang's "
     "default attention backend for DeepseekV3ForCausalLM on SM100 (sglang 0.5.6.post1"},
    {"B300", "deepseek-v3", "--kv-cache-dtype fp8_e5m2", "0.5.20",
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto."},
    {"B300", "deepseek-v3", "--kv-cache-dtype fp8_e5m2", "0.5.7",
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, bf16, or auto."},
    {"B200", "deepseek-v3", "--kv-cache-dtype bf16", "0.5.5",
     "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3, fp4_e2m1, or auto."},
    {"B200", "deepseek-v3", "--kv-cache-dtype bf16", "0.5.4", "TensorRT-LLM MLA backend only supports kv-cache-dtype of fp8_e4m3 or auto."},
    {"B200", "deepseek-v3", "--decode-attention-backend trtllm_mla --prefill-attention-backend fa4 --kv-cache-dtype bfloat16",
     NULL, "(trtllm_mla: given by --decode-attention-backend; sglang 0.5.23"},
    {"H200", "deepseek-v3", "--attention-backend trtllm_mla", NULL,
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100/SM12x). Please use a different backend."},
    {"H200", "deepseek-v3", "--attention-backend trtllm_mla", "0.5.8",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100). Please use a different backend."},
    {"RTX PRO 6000", "deepseek-v3", "--attention-backend trtllm_mla", "0.5.4",
     "TRTLLM MLA backend is only supported on Blackwell GPUs (SM100)."},
    {"B200", "deepseek-v3", "--kv-cache-dtype nvfp4", NULL,
     "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend 'trtllm_mla' provides neither."},
    {"H200", "deepseek-v3", "--kv-cache-dtype nvfp4 --attention-backend fa3", "0.5.21",
     "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend 'fa3' provides neither."},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend tilelang", NULL,
     "CUDA TileLang FP8 KV requires both DSA backends to be tilelang; raw and scaled FP8 KV layouts cannot be mixed."},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend tilelang", "0.5.18",
     "The tilelang DSA prefill/decode kernels only support an fp8_e4m3 KV cache on ROCm/HIP"},
    {"B200", "deepseek-v3.2", "--dsa-decode-backend triton", NULL, "The triton DSA backend is only supported on ROCm/HIP."},
    {"B200", "deepseek-v3.2", "--dsa-prefill-backend tilelang --dsa-decode-backend triton --enable-hisparse "
     "--disable-radix-cache", NULL, "CUDA TileLang FP8 KV does not support HiSparse."},
    {"B200", "deepseek-v3.2", "--disaggregation-mode decode --tp 8", "0.5.5",
     "Prefill round robin balance is required when dp size > 1."},
    /* no model class yet: SGLang's model loader refuses */
    {"B200", "glm-5.2", "", "0.5.8",
     "SGLang 0.5.8 refuses to start: Cannot find model module. 'GlmMoeDsaForCausalLM' is not a registered model in "
     "the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not "
     "present in the model config's 'auto_map' (relevant if the model is custom). (at model load, sglang 0.5.5: "
     "python/sglang/srt/model_loader/utils.py:48-57; sglang 0.5.15.post1: :149-159): SGLang 0.5.8 has no model class "
     "for glm-5.2 (GlmMoeDsaForCausalLM), the first is in 0.5.9 (sglang 0.5.9: python/sglang/srt/models/"
     "glm4_moe.py:1288); pass --sglang-version 0.5.9 or newer."},
    {"H200", "glm-5.2", "--kv-cache-dtype fp4_e2m1", "0.5.5", "has no model class for glm-5.2"},
    /* ... unless its argument checks, taking it for an MHA model, refuse first (MHA_DEFAULTS): trtllm_mha is
     * the default on SM12x too, where its platform check refuses it */
    {"RTX PRO 6000", "glm-5.2", "", "0.5.6.post1",
     "SGLang 0.5.6.post1 refuses to start: ValueError: TRTLLM MHA backend is only supported on Blackwell GPUs "
     "(SM100). Please use a different backend. (trtllm_mha: SGLang 0.5.6.post1's default attention backend on SM120 "
     "for "
     "GlmMoeDsaForCausalLM, which it takes as an MHA model since it has no model class for it; the first is in 0.5.9, "
     "pass --sglang-version 0.5.9 or newer; sglang 0.5.6.post1: "
     "python/sglang/srt/server_args.py:1344-1353"},
    {"GB10", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--disaggregation-mode decode", "0.5.6.post2",
     "TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend. (trtllm_mha: "
     "SGLang 0.5.6.post2's default attention backend on SM121 for GlmMoeDsaForCausalLMNextN"},
    /* ... and on SM100 speculative decoding auto-chooses topk 4, which trtllm_mha refuses */
    {"B200", "glm-5.2", "--speculative-algorithm NEXTN", "0.5.6.post1",
     "SGLang 0.5.6.post1 refuses to start: ValueError: trtllm_mha backend only supports topk = 1 for speculative "
     "decoding. (trtllm_mha: SGLang 0.5.6.post1's default attention backend on SM100 for GlmMoeDsaForCausalLM"},
    /* ... unless --speculative-num-steps is given without the top-k, which stays None for the comparison */
    {"B200", "glm-5.2", "--speculative-algorithm EAGLE --speculative-num-steps 2", "0.5.6.post1",
     "TypeError: '>' not supported between instances of 'NoneType' and 'int' (--speculative-num-steps is given "
     "without --speculative-eagle-topk, which SGLang then compares with 1 as trtllm_mha runs"},
    {"B300", GLM5_NEXT, "--speculative-algorithm EAGLE3", "0.5.6.post2",
     "trtllm_mha backend only supports topk = 1 for speculative decoding. (trtllm_mha: SGLang 0.5.6.post2's default "
     "attention backend on SM103 for Glm5NextForConditionalGeneration"},
    {"H200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "", "0.5.15.post1",
     "Cannot find model module. 'GlmMoeDsaForCausalLMNextN' is not a registered model"},
    /* model-init checks of the DSA backend */
    {"RTX PRO 6000", "glm-5.2", "--dsa-decode-backend trtllm", NULL,
     "GLM DSA with FP8 KV cache on NVIDIA SM120/SM121 supports only flashinfer_sparse_mla (default) or "
     "triton_sparse_mla (prefill), but got ['trtllm']. (at model init; sglang 0.5.23"},
    {"RTX PRO 6000", "glm-5.2", "--dsa-decode-backend trtllm", "0.5.18",
     "GLM DSA with FP8 KV cache on NVIDIA SM120/SM121 supports only flashinfer_sparse_mla, but got ['trtllm']."},
    {"B300", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache --dsa-decode-backend "
     "flashinfer_sparse_mla", NULL,
     "flashinfer_sparse_mla supports only GLM DSA with FP8 KV cache on NVIDIA SM120/SM121; got "
     "model_arch='GlmMoeDsaForCausalLM', sm_major=10, kv_cache_dtype=torch.float8_e4m3fn, prefill_impl='flashmla_kv', "
     "decode_impl='flashinfer_sparse_mla'."},
    {"B200", "deepseek-v3.2", "--dsa-prefill-backend flashmla_sparse_q8", "0.5.20",
     "--dsa-prefill-backend flashmla_sparse_q8 is SM90-only; got compute capability sm_10x."},
    {"H200", "deepseek-v3.2", "--dsa-prefill-backend flashmla_sparse_q8", "0.5.20",
     "--dsa-prefill-backend flashmla_sparse_q8 is native FP8 and requires --kv-cache-dtype fp8_e4m3 (got "
     "kv_cache_dtype=torch.bfloat16)"},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-prefill-backend flashmla_sparse_q8 --dsa-decode-backend trtllm",
     NULL, "got an unpacked fp8_e4m3 pool (a trtllm backend keeps the raw layout)"},
    {"H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --dsa-decode-backend flashmla_sparse_q8", NULL,
     "--dsa-decode-backend flashmla_sparse_q8 is not supported: flashmla_sparse_q8 is a prefill-only backend. Pair"},
    {"MI355X", "deepseek-v3.2", "--dsa-prefill-backend triton_sparse_mla", NULL,
     "triton_sparse_mla is a CUDA prefill backend; on ROCm use the existing tilelang / aiter DSA paths."},
    {"B300", "glm-5.2", "--page-size 0", NULL, "the page size must be a whole number"},
    {"H200", "deepseek-v3", "--page-size 99999999", NULL, "the page size must be a whole number"},
    {"B300", "glm-5.2", "--speculative-algorithm MEDUSA", NULL, "does not model this speculative algorithm"},
    /* FP4 and MXFP8 KV dtypes: SGLang's KV4 checks, then the model runner's dtype mapping */
    {"MI300X", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.12",
     "SGLang 0.5.12 refuses to start: KV4 is not tested on non-CUDA platforms. (sglang 0.5.7"},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --attention-backend fa3", "0.5.12",
     "KV4 MLA expects attention_backend to be one of ['cutlass_mla', 'flashinfer', 'trtllm_mla', 'flashmla'], but got fa3"},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.12",
     "but got fa3 (fa3: SGLang's default attention backend for MLA models on H200, sglang 0.5.4.post1"},
    {"GB10", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.7", "but got triton (triton: SGLang's default"},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --prefill-attention-backend fa4", "0.5.12",
     "kvcheck does not model the attention backend SGLang picks for DeepseekV3ForCausalLM on H200 here; pass "
     "--attention-backend to have the worker judged. Its pool would be fp4_mx16"},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.20",
     "SGLang 0.5.20 refuses to start: --kv-cache-dtype=fp4_e2m1 is deprecated. Use --kv-cache-dtype=fp4_mx_block16. "
     "(at model init, sglang 0.5.16: python/sglang/srt/mem_cache/kv_cache_dtype.py:57-61"},
    {"H200", "deepseek-v3", "--kv-cache-dtype nvfp4", "0.5.20",
     "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use --kv-cache-dtype=fp4_mx_block16 for the "
     "block-size-16 FP4 recipe."},
    {"MI355X", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16", NULL, "KV4 is not tested on non-CUDA platforms."},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16", "0.5.19",
     "KV4 MLA expects attention_backend to be one of ['cutlass_mla', 'flashinfer', 'trtllm_mla'], but got fa3"},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4", "0.5.20",
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got triton"},
    /* from 0.5.21: the sides NVFP4 sets, the TRTLLM MHA checks, then handle_kv4_compatibility */
    {"MI355X", "deepseek-v3", "--kv-cache-dtype nvfp4", NULL,
     "SGLang 0.5.23 refuses to start: TRTLLM MHA backend for decode is only supported on Hopper (SM90), Blackwell "
     "(SM100) and (SM120) GPUs. Please use a different decode backend. (prefill flashinfer and decode trtllm_mha, set "
     "by SGLang 0.5.23 for --kv-cache-dtype nvfp4 (FP8 E4M3 workspace prefill;"},
    {"MI355X", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --attention-backend trtllm_mha", NULL,
     "TRTLLM MHA backend for prefill requires Hopper (SM90), Blackwell (SM100), or SM120 GPUs. Please use a different "
     "prefill backend."},
    {"H200", "deepseek-v3", "--kv-cache-dtype nvfp4 --attention-backend trtllm_mha", NULL,
     "Native NVFP4 prefill currently requires SM100; use --prefill-kv-cache-dequant-dtype=fp8_e4m3 on this "
     "platform."},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4 --decode-attention-backend flashinfer", NULL,
     "NVFP4 decode requires --decode-attention-backend=trtllm_mha; got 'flashinfer'. Remove the backend option; NVFP4 "
     "selects the supported decode implementation automatically."},
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got fa3 (prefill fa3 and "
     "decode fa3; attention backend fa3: SGLang's default attention backend for MLA models on H200"},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --prefill-attention-backend fa4 "
     "--decode-attention-backend triton", NULL,
     "KV4 FA4 MLA expects decode_attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got triton"},
    {"B300", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4 --disaggregation-mode decode",
     NULL, "SM100 native NVFP4 with trtllm_mha does not yet support PD disaggregation because its physical "
     "block-scale layout is not implemented by the KV transfer path."},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4 --speculative-algorithm DFLASH",
     NULL, "SM100 native NVFP4 speculative decoding does not yet support DFLASH; use EAGLE/NEXTN or NGRAM."},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm STANDALONE", NULL,
     "SM100 native NVFP4 speculative decoding supports EAGLE, EAGLE3, NEXTN, and breadth-1 NGRAM; got STANDALONE."},
    /* NGRAM's BFS breadth: its default (10), one given; breadth 1 passes to the next check */
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4 --speculative-algorithm NGRAM",
     NULL, "SGLang 0.5.23 refuses to start: SM100 native NVFP4 NGRAM speculative decoding requires "
     "--speculative-ngram-max-bfs-breadth=1 because trtllm_mha supports linear target verification only; got 10. "
     "(prefill trtllm_mha and decode trtllm_mha"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 4", "0.5.21",
     "SGLang 0.5.21 refuses to start: SM100 native NVFP4 NGRAM speculative decoding requires "
     "--speculative-ngram-max-bfs-breadth=1 because trtllm_mha supports linear target verification only; got 4."},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got trtllm_mha"},
    /* a draft model's attention backend: trtllm_mha passes to the next check; NGRAM has no draft model */
    {"B300", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend fa3", "0.5.22",
     "SGLang 0.5.22 refuses to start: SM100 native NVFP4 speculative decoding requires "
     "--speculative-draft-attention-backend=trtllm_mha so the draft worker consumes its physical NVFP4 KV layout; "
     "got 'fa3'."},
    {"B300", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend trtllm_mha", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got trtllm_mha"},
    {"B300", "tests/conformance/sglang/models/GLM5_NEXTN.json",
     "--kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1 "
     "--speculative-draft-attention-backend fa3", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got trtllm_mha"},
    /* host KV tiers under native NVFP4 */
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4 --enable-hierarchical-cache",
     NULL, "SGLang 0.5.23 refuses to start: SM100 native NVFP4 with trtllm_mha does not yet support hierarchical KV "
     "cache or LMCache because their host pools do not preserve the physical block-scale layout. (prefill trtllm_mha"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4 --enable-lmcache", "0.5.21",
     "does not yet support hierarchical KV cache or LMCache"},
    /* context parallelism on trtllm_mha prefill, off SM100 (SM100 passes: the next check refuses) */
    {"H200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --attention-backend trtllm_mha --attn-cp-size 2", NULL,
     "SGLang 0.5.23 refuses to start: Prefill context parallelism with the TRTLLM MHA prefill backend requires SM100 "
     "(trtllm-gen context kernel): the SM90/SM120 fmha_v2 prefill path does not implement CP shard masking."},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --attention-backend trtllm_mha --attn-cp-size 2", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got trtllm_mha"},
    /* unified memory: any FP4 KV dtype on CUDA */
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --attention-backend flashinfer --enable-unified-memory",
     NULL, "SGLang 0.5.23 refuses to start: FP4 KV cache does not yet support --enable-unified-memory: the unified MHA "
     "pool does not allocate FP4 block scales or the prefill dequant workspace. (sglang 0.5.23: "
     "python/sglang/srt/arg_groups/kv_cache_hook.py:132-137)"},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4 --enable-unified-memory", "0.5.21",
     "FP4 KV cache does not yet support --enable-unified-memory"},
    {"MI355X", "deepseek-v3", "--kv-cache-dtype fp4_mx_block16 --enable-unified-memory", NULL,
     "KV4 is not tested on non-CUDA platforms."},
    /* the prefill dequant dtype */
    {"B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3 --prefill-kv-cache-dequant-dtype fp8_e4m3", NULL,
     "SGLang 0.5.23 refuses to start: --prefill-kv-cache-dequant-dtype applies only with --kv-cache-dtype=nvfp4. "
     "(sglang 0.5.23: python/sglang/srt/arg_groups/kv_cache_hook.py:39-44)"},
    {"H200", "deepseek-v3", "--prefill-kv-cache-dequant-dtype nvfp4", "0.5.22",
     "--prefill-kv-cache-dequant-dtype applies only with --kv-cache-dtype=nvfp4."},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype nvfp4", NULL,
     "Native NVFP4 prefill currently requires SM100; use --prefill-kv-cache-dequant-dtype=fp8_e4m3 on this platform."},
    {"B200", "deepseek-v3",
     "--kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype nvfp4 --prefill-attention-backend flashinfer", NULL,
     "SGLang 0.5.23 refuses to start: --prefill-kv-cache-dequant-dtype=nvfp4 requires prefill backend 'trtllm_mha', "
     "but --prefill-attention-backend='flashinfer' was set. Remove the backend option and select the KV dtype only."},
    {"GB10", "deepseek-v3", "--kv-cache-dtype nvfp4 --attention-backend triton", NULL,
     "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend 'triton' provides neither."},
    /* GLM-5 NextN as the model: DSA outside the family guard, so the MLA defaults decide KV4, and the pool is the
     * DSA pool's float4 rows */
    {"H200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype fp4_mx_block16", "0.5.19",
     "KV4 MLA expects attention_backend to be one of ['cutlass_mla', 'flashinfer', 'trtllm_mla'], but got fa3"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype fp4_mx_block16", "0.5.19",
     "--kv-cache-dtype fp4_mx_block16 for GlmMoeDsaForCausalLMNextN on B200: SGLang 0.5.19 builds the DSA pool of R + "
     "r = 576 torch.float4_e2m1fn_x2 elements a token (576 B, no scale buffer"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype nvfp4", NULL,
     "KV4 MLA expects attention_backend to be one of ['flashinfer', 'trtllm_mla'], but got trtllm_mha (prefill "
     "trtllm_mha and decode trtllm_mha, set by SGLang 0.5.23 for --kv-cache-dtype nvfp4 (native NVFP4 prefill;"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXTN.json", "--kv-cache-dtype fp4_mx_block16", NULL,
     "SGLang 0.5.23 builds the DSA pool of R + r = 576 torch.float4_e2m1fn_x2 elements a token (576 B, no scale "
     "buffer"},
    /* a model without class before its release: the MHA branch of KV4's checks, on SGLang's MHA default */
    {"H200", "glm-5.2", "--kv-cache-dtype fp4_e2m1", "0.5.8",
     "SGLang 0.5.8 refuses to start: KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', "
     "'flex_attention', 'trtllm_mha'], but got fa3 (fa3: SGLang 0.5.8's default attention backend on SM90 for "
     "GlmMoeDsaForCausalLM, which it takes as an MHA model since it has no model class for it"},
    {"H200", "glm-5.2", "--kv-cache-dtype fp4_e2m1", "0.5.7", "KV4 MHA expects attention_backend to be one of "
     "['triton', 'torch_native', 'flex_attention', 'trtllm_mha'], but got flashinfer"},
    {"B200", "glm-5.2", "--kv-cache-dtype fp4_e2m1 --speculative-algorithm EAGLE", "0.5.8", "KV4 MHA expects "
     "attention_backend to be one of ['triton', 'torch_native', 'flex_attention', 'trtllm_mha'], but got flashinfer"},
    {"GB10", GLM5_NEXT, "--kv-cache-dtype nvfp4 --disaggregation-mode decode", "0.5.18", "SGLang 0.5.18 refuses to "
     "start: KV4 MHA expects attention_backend to be one of ['triton', 'torch_native', 'flex_attention', "
     "'trtllm_mha'], but got flashinfer"},
    {"B200", GLM5_NEXT, "--kv-cache-dtype fp4_mx_block16", "0.5.17", "SGLang 0.5.17 refuses to start: KV4 FA4 MHA "
     "expects decode_attention_backend to be one of ['triton', 'torch_native', 'flex_attention'], but got fa4 (fa4: "
     "SGLang 0.5.17's default attention backend on SM100 for Glm5NextForConditionalGeneration"},
    {"H200", "deepseek-v3", "--kv-cache-dtype mxfp8", NULL,
     "SGLang 0.5.23 refuses to start: --kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU for the block-scaled "
     "operands used by the FA4 MXFP8 attention path."},
    {"MI355X", "deepseek-v3", "--kv-cache-dtype mxfp8", NULL, "requires an SM100+ (Blackwell) GPU"},
    {"MI300X", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.5",
     "SGLang 0.5.5 builds the plain pool of R + r = 576 torch.float4_e2m1fn_x2 elements a token (576 B, no scales)"},
    {"B200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --speculative-algorithm NEXTN", "0.5.9",
     "the draft pool follows it, and kvcheck does not model an FP4 draft pool"},
    /* --disaggregation-decode-allocation-policy prefill_complete (0.5.22+): what it does not yet support, in
     * SGLang's order (the messages as the oracle ran them) */
#define PC "--disaggregation-decode-allocation-policy prefill_complete "
    {"H200", "deepseek-v3.2", PC "--tp 8 --disaggregation-mode prefill", NULL,
     "SGLang 0.5.23 refuses to start: --disaggregation-decode-allocation-policy prefill_complete does not yet "
     "support attention tensor parallelism greater than one (sglang 0.5.22: "
     "python/sglang/srt/arg_groups/pd_disaggregation_hook.py:205-249"},
    /* --enable-dp-attention is turned into --attn-dp-size first, so it does not help */
    {"H200", "deepseek-v3.2", PC "--tp 8 --dp 8 --enable-dp-attention --disaggregation-mode decode", "0.5.22",
     "does not yet support attention tensor parallelism greater than one ("},
    {"H200", "deepseek-v3.2", PC "--tp 8 --attn-dp-size 8", NULL,
     "does not yet support aggregated serving, attention tensor parallelism greater than one ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode decode --disaggregation-transfer-backend nixl "
     "--enable-hisparse --disable-radix-cache", NULL, "does not yet support transfer backends other than Mooncake, HiSparse ("},
    {"H200", "deepseek-v3.2", PC "--tp 2 --pp-size 2 --disaggregation-mode prefill --disaggregation-transfer-backend nixl "
     "--enable-pdmux", "0.5.22", "does not yet support transfer backends other than Mooncake, pipeline or attention "
     "context parallelism, attention tensor parallelism greater than one, PD multiplexing or decoupled speculation ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode decode --decoupled-spec-role null --encoder-only "
     "--enable-pd-role-switch --disaggregation-decode-host-receive-threshold 0.5", NULL,
     "does not yet support runtime PD role switching, encoder disaggregation, decode host KV buffering ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode decode --decoupled-spec-role verifier", NULL,
     "does not yet support PD multiplexing or decoupled speculation ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode decode --enable-hierarchical-cache", NULL,
     "does not yet support decode radix cache or decode HiCache ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode decode --disaggregation-decode-enable-radix-cache", NULL,
     "does not yet support decode radix cache or decode HiCache ("},
    /* the default write policy is write_through */
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode prefill --enable-hierarchical-cache", NULL,
     "does not yet support prefill HiCache other than L2 write_back ("},
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode prefill --enable-hierarchical-cache --hicache-write-policy "
     "write_back --hicache-storage-backend file", NULL, "does not yet support prefill HiCache other than L2 write_back ("},
    /* the environment's switches, read as SGLang's EnvBool reads them */
    {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=Yes SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server "
     PC "--tp 1 --disaggregation-mode prefill", NULL, "does not yet support staging buffers, the Rust bootstrap registry ("},
    /* the list comes before the fake backend's own refusal (the same hook, later) */
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode prefill --disaggregation-transfer-backend fake", NULL,
     "does not yet support transfer backends other than Mooncake ("},
    /* SGLang compares with one: zero is refused too */
    {"H200", "deepseek-v3.2", PC "--tp 0 --pp-size 0 --disaggregation-mode prefill", NULL,
     "does not yet support pipeline or attention context parallelism, attention tensor parallelism greater than one ("},
    /* a prefill's optimistic prefill: 0 is made 1, below 0 stays off */
    {"H200", "deepseek-v3.2", PC "--tp 1 --disaggregation-mode prefill --optimistic-prefill-attempts -1", "0.5.22",
     "SGLang 0.5.22 refuses to start: prefill_complete requires optimistic prefill, but the resolved model/cache "
     "configuration disabled it. (sglang 0.5.22: python/sglang/srt/arg_groups/serving_hook.py:512-521"},
    /* the KV manager takes full-attention and DSA pools only */
    {"H200", GLM5_NEXT, PC "--tp 1 --disaggregation-mode decode", NULL,
     "SGLang 0.5.23 refuses to start: prefill_complete currently supports full-attention and DSA KV pools only (this "
     "pool adds the linear layers' mamba state; sglang 0.5.22: python/sglang/srt/disaggregation/common/conn.py:372-379"},
    {"B200", "tests/unit/models/DSV4_SMALL.json", PC "--tp 1 --disaggregation-mode prefill", NULL,
     "prefill_complete currently supports full-attention and DSA KV pools only (this pool adds DeepSeek-V4's swa state"},
    {"H200", "tests/unit/models/DSA_KPOOL_COMPRESS.json", PC "--tp 1 --disaggregation-mode prefill", "0.5.22",
     "prefill_complete currently supports full-attention and DSA KV pools only (this pool adds the compressed kpool's "
     "dsa_tail state"},
    /* the decode host receive threshold (0.5.21+): on above 0 in 0.5.21, below 1 after; in [0, 1] (NaN is not) */
#define HR "--disaggregation-decode-host-receive-threshold "
    {"H200", "deepseek-v3.2", HR "1.5 --disaggregation-mode decode", "0.5.21",
     "SGLang 0.5.21 refuses to start: --disaggregation-decode-host-receive-threshold must be between 0 and 1 (sglang "
     "0.5.21: python/sglang/srt/arg_groups/pd_disaggregation_hook.py:53-69"},
    {"H200", "deepseek-v3.2", HR "nan --disaggregation-mode decode", NULL,
     "--disaggregation-decode-host-receive-threshold must be between 0 and 1 ("},
    {"H200", "deepseek-v3.2", HR "-0.5 --disaggregation-mode prefill", NULL,
     "--disaggregation-decode-host-receive-threshold must be between 0 and 1 ("},
    {"H200", "deepseek-v3.2", HR "0.5 --disaggregation-mode decode --enable-hisparse --disable-radix-cache", NULL,
     "Decode host receive does not yet support HiSparse or role switching ("},
    {"H200", "deepseek-v3.2", HR "0.5 --disaggregation-mode decode --enable-pd-role-switch", "0.5.21",
     "Decode host receive does not yet support HiSparse or role switching ("},
    {"H200", "deepseek-v3.2", HR "0 --disaggregation-mode decode --disaggregation-decode-retraction-backup cpu_tensor",
     NULL, "Decode host KV buffering requires host_pool retraction ("},
    /* --enable-pd-role-switch (0.5.21+) refuses the features a switch does not rebuild, as the flags give them */
#define RS "--tp 8 --disaggregation-mode decode --enable-pd-role-switch "
#define RS_ALL "--enable-dp-attention --dp-size 8 --moe-a2a-backend deepep --speculative-algorithm EAGLE --pp-size 2 " \
               "--dcp-size 2"
#define RS_MSG "refuses to start: ValueError: --enable-pd-role-switch does not rebuild role-specific state for the " \
               "following features: "
    {"H200", "glm-5.2", RS RS_ALL, "0.5.21", RS_MSG "DP attention (--enable-dp-attention), MoE all-to-all "
     "(--moe-a2a-backend deepep), pipeline parallelism (--pp-size 2), data parallelism (--dp-size 8), decode context "
     "parallelism (--dcp-size 2), speculative decoding (--speculative-algorithm EAGLE). Remove these options or drop "
     "--enable-pd-role-switch."},
    {"H200", "glm-5.2", RS RS_ALL, "0.5.22", RS_MSG "attention DP (--attn-dp-size 8), MoE all-to-all "
     "(--moe-a2a-backend deepep), pipeline parallelism (--pp-size 2), decode context parallelism (--dcp-size 2), "
     "speculative decoding (--speculative-algorithm EAGLE). Remove"},
    {"H200", "glm-5.2", RS RS_ALL, "0.5.23", RS_MSG "MoE all-to-all (--moe-a2a-backend deepep), pipeline parallelism "
     "(--pp-size 2), decode context parallelism (--dcp-size 2), speculative decoding (--speculative-algorithm EAGLE). "
     "Remove"},
    {"H200", "glm-5.2", RS "--attn-dp-size 4 --dp-size 2", "0.5.22",
     RS_MSG "attention DP (--attn-dp-size 4), data parallelism (--dp-size 2). Remove"},
    {"H200", "glm-5.2", RS "--attn-dp-size 8 --enable-dp-attention-local-control-broadcast", "0.5.23",
     RS_MSG "DP attention local control broadcast. Remove"},
    {"H200", "glm-5.2", RS "--moe-runner-backend megamoe", "0.5.21", RS_MSG "MoE all-to-all (--moe-a2a-backend "
     "megamoe). Remove"},
    {"H200", "glm-5.2", RS "--speculative-algorithm NEXTN", "0.5.22", RS_MSG "speculative decoding "
     "(--speculative-algorithm NEXTN). Remove"},
    /* on, it makes the retraction backup host_pool, which only a decode worker takes */
    {"H200", "deepseek-v3.2", HR "0 --disaggregation-mode prefill", "0.5.22",
     "SGLang 0.5.22 refuses to start: --disaggregation-decode-retraction-backup=host_pool is only supported on a PD "
     "decode server. (host_pool because host receive is on; sglang 0.5.18: python/sglang/srt/server_args.py:8122-8147"},
    {"H200", "deepseek-v3.2", HR "1 --disaggregation-mode prefill", "0.5.21",
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. (host_pool because"},
    {"H200", "deepseek-v3.2", HR "0.5", NULL,
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. ("},
    /* Python's float(): underscores, exponents and a signed zero (off in 0.5.21, on after) */
    {"H200", "deepseek-v3", HR "1_5 --disaggregation-mode decode", NULL,
     "--disaggregation-decode-host-receive-threshold must be between 0 and 1 ("},
    {"H200", "deepseek-v3", HR "1e-3 --disaggregation-mode prefill", NULL,
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. (host_pool"},
    {"H200", "deepseek-v3", HR "-0.0 --disaggregation-mode prefill", "0.5.22",
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. (host_pool"},
    /* host receive makes the backup host_pool over an explicit none */
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode decode --disaggregation-decode-retraction-backup none "
     "--dcp-size 2", NULL, "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1. "
     "(host_pool because host receive is on"},
    /* HiCache's host pool turned page-first by a Mooncake or NPU MemCache storage backend */
    {"H200", "deepseek-v3.2", HR "0.5 --disaggregation-mode decode --hicache-storage-backend mooncake", NULL,
     "SGLang 0.5.23 refuses to start: The resolved HiCache storage layout 'page_first' cannot share the layer_first "
     "decode host pool used by KV transfer (the mooncake storage backend with the kernel io backend"},
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode decode --hicache-storage-backend npu_memcache "
     "--hicache-io-backend direct", "0.5.21", "The resolved HiCache storage layout 'page_first_direct' cannot share"},
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode decode --hicache-storage-backend npu_memcache "
     "--hicache-io-backend direct --enable-unified-memory", NULL,
     "The resolved HiCache storage layout 'page_first' cannot share"},
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode prefill --enable-hierarchical-cache "
     "--hicache-storage-backend mooncake", NULL, "The resolved HiCache storage layout 'page_first' cannot share"},
    /* a DSA decode worker's KV manager: its DSA state is not full KV */
    {"H200", "deepseek-v3.2", HR "0.5 --disaggregation-mode decode --disaggregation-transfer-backend nixl", NULL,
     "SGLang 0.5.23 refuses to start: Host receive supports full KV and separate paged SWA pools (when the decode "
     "worker builds its KV manager: this DSA pool adds DSA state"},
    {"H200", "deepseek-v3.2", HR "0.25 --disaggregation-mode decode", "0.5.21",
     "SGLang 0.5.21 refuses to start: Host receive requires KV pools sharing the primary indices ("},
    {"H200", "deepseek-v3.2", HR "0.25 --disaggregation-mode decode", "0.5.21",
     "Leave --disaggregation-decode-host-receive-threshold at 0 (SGLang's default: host receive off)"},
    {"B200", "tests/unit/models/DSV4_SMALL.json", HR "0.5 --disaggregation-mode decode", "0.5.21",
     "Host receive requires KV pools sharing the primary indices (when the decode worker builds its KV manager: this "
     "DeepSeek-V4 pool adds SWA state"},
    {"B200", "tests/unit/models/DSV4_SMALL.json", HR "0 --disaggregation-mode decode", "0.5.22",
     "Host receive supports full KV and separate paged SWA pools (when the decode worker builds its KV manager: this "
     "DeepSeek-V4 pool adds its c128 layers' request state (DSV4_REQUEST_STATE)"},
    /* an MLA or c128-less DeepSeek-V4 (0.5.22+) decode worker's KV manager: no transfer backend writes to host memory */
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode decode --disaggregation-transfer-backend nixl", NULL,
     "SGLang 0.5.23 refuses to start: Transfer backend does not support decode host KV destinations (when the decode "
     "worker builds its KV manager"},
    {"B200", "tests/unit/models/DSV4_NO_C128.json", HR "0 --disaggregation-mode decode", NULL,
     "Transfer backend does not support decode host KV destinations ("},
    /* the cache-compatibility checks after host_pool's, in SGLang's order */
    {"H200", "deepseek-v3", "--disaggregation-mode decode --enable-hierarchical-cache", "0.5.9",
     "SGLang 0.5.9 refuses to start: The arguments enable-hierarchical-cache and disable-radix-cache are mutually "
     "exclusive and cannot be used at the same time. Please use only one of them. (sglang 0.5.3rc2"},
    {"H200", "deepseek-v3.2", "--disaggregation-mode prefill --enable-hierarchical-cache --disable-radix-cache", NULL,
     "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive"},
    {"H200", "deepseek-v3", "--disaggregation-mode prefill --disaggregation-decode-enable-offload-kvcache", "0.5.3rc2",
     "The argument disaggregation-decode-enable-offload-kvcache is only supported for decode side. ("},
    {"H200", "deepseek-v3", "--disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache", NULL,
     "The argument disaggregation-decode-enable-offload-kvcache is only supported when hicache-storage-backend is "
     "provided. ("},
    {"H200", "deepseek-v3", "--disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache "
     "--hicache-storage-backend file --disaggregation-decode-retraction-backup host_pool", "0.5.18",
     "The arguments disaggregation-decode-enable-offload-kvcache and disaggregation-decode-retraction-backup=host_pool "
     "are mutually exclusive: both build a decode host pool. ("},
    {"H200", "deepseek-v3", "--disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache "
     "--hicache-storage-backend file " HR "0.5", NULL,
     "The arguments disaggregation-decode-enable-offload-kvcache and disaggregation-decode-retraction-backup=host_pool "
     "are mutually exclusive"},
    /* the PD step refuses the decode radix cache with HiSparse before the cache checks */
    {"H200", "deepseek-v3.2", "--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --enable-hisparse "
     "--disable-radix-cache --disaggregation-decode-enable-offload-kvcache", NULL,
     "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse ("},
    {"H200", "deepseek-v3.2", "--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --enable-hisparse "
     "--disable-radix-cache --disaggregation-transfer-backend nixl", "0.5.11",
     "SGLang 0.5.11 refuses to start: --disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse"},
    /* the decode radix cache's transfer backends and speculative decoding, per release */
#define DR "--disaggregation-mode decode --disaggregation-decode-enable-radix-cache "
    {"H200", "deepseek-v3.2", DR, "0.5.11", "SGLang 0.5.11 refuses to start: --disaggregation-decode-enable-radix-cache "
     "currently requires --disaggregation-transfer-backend nixl (sglang 0.5.11: python/sglang/srt/server_args.py:3746"},
    {"H200", "deepseek-v3.2", DR "--disaggregation-transfer-backend ascend", "0.5.12",
     "--disaggregation-decode-enable-radix-cache currently requires --disaggregation-transfer-backend in ('nixl', "
     "'mooncake'), but got 'ascend' ("},
    {"H200", "deepseek-v3.2", DR "--disaggregation-transfer-backend fake", "0.5.13.post1", "but got 'fake' ("},
    {"H200", "deepseek-v3.2", DR "--disaggregation-transfer-backend fake --speculative-algorithm NEXTN", "0.5.14",
     "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend fake ("},
    {"H200", "deepseek-v3.2", DR "--disaggregation-transfer-backend fake", NULL,
     "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend fake ("},
    {"H200", "deepseek-v3.2", DR "--disaggregation-transfer-backend nixl --speculative-algorithm NEXTN", "0.5.11",
     "--disaggregation-decode-enable-radix-cache is incompatible with speculative decoding (--speculative-algorithm "
     "NEXTN) ("},
    {"H200", "deepseek-v3.2", DR "--speculative-algorithm nextn", "0.5.20",
     "incompatible with speculative decoding (--speculative-algorithm nextn) ("},
    {"H200", "deepseek-v3.2", DR "--speculative-algorithm EAGLE", "0.5.22",
     "incompatible with speculative decoding (--speculative-algorithm EAGLE) (sglang 0.5.21"},
    {"H200", "deepseek-v3.2", DR "--speculative-algorithm dspark", "0.5.21",
     "incompatible with speculative decoding (--speculative-algorithm dspark) ("},
    /* 0.5.23 checks it in the speculative hook, upper-cased: before STANDALONE's DP refusal */
    {"H200", "deepseek-v3.2", DR "--speculative-algorithm standalone --tp 8 --enable-dp-attention --dp 8", NULL,
     "incompatible with speculative decoding (--speculative-algorithm STANDALONE) (sglang 0.5.23: "
     "python/sglang/srt/arg_groups/speculative_hook.py:162-173"},
    {"H200", "deepseek-v3.2", DR "--enable-hisparse --speculative-algorithm NEXTN --disaggregation-transfer-backend fake",
     "0.5.18", "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse ("},
    /* decode context parallelism on a decode worker: the transfer backends that relayout its KV, no radix cache or
     * HiCache (0.5.17-0.5.20), before the decode radix cache's own checks; below one after the PD step */
    {"H200", "deepseek-v3.2", DR "--dcp-size 2 --disaggregation-transfer-backend ascend", "0.5.18",
     "PD decode DCP requires --disaggregation-transfer-backend mooncake or nixl, got 'ascend'. (sglang 0.5.17"},
    {"H200", "deepseek-v3.2", "--disaggregation-mode decode --dcp-size 2 --disaggregation-transfer-backend ascend",
     "0.5.21", "PD decode DCP requires --disaggregation-transfer-backend mooncake, nixl, or fake for synthetic "
     "benchmarking, got 'ascend'. ("},
    {"H200", "deepseek-v3.2", "--disaggregation-mode decode --dcp-size 2 --disaggregation-transfer-backend fake",
     "0.5.17", "got 'fake'. ("},
    {"H200", "deepseek-v3.2", DR "--dcp-size 2 --enable-hisparse", "0.5.20",
     "PD decode DCP currently requires chunk cache; --disaggregation-decode-enable-radix-cache is not supported. ("},
    {"H200", "deepseek-v3.2", "--disaggregation-mode decode --dcp-size 2 --enable-hierarchical-cache", "0.5.19",
     "PD decode DCP currently requires chunk cache; --enable-hierarchical-cache is not supported. ("},
    {"H200", "deepseek-v3.2", "--dcp-size 0 --kv-cache-dtype fp8_e5m2", NULL,
     "SGLang 0.5.23 refuses to start: Decode context parallel size (--dcp-size / --decode-context-parallel-size) must "
     "be >= 1, but got dcp_size=0. ("},
    {"H200", "deepseek-v3.2", DR "--dcp-size -1 --disaggregation-transfer-backend fake", "0.5.15",
     "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend fake ("},
#undef DR
    /* EAGLE's parameters: all three or none; a top-k above 1 on pages above one token needs a tree-drafting
     * backend, and NGRAM's top-k is its BFS breadth (10 unless given) */
    {"H200", "deepseek-v3.2", "--speculative-algorithm NEXTN --speculative-eagle-topk 1", "0.5.12",
     "SGLang 0.5.12 refuses to start: AssertionError, with no message: --speculative-eagle-topk is given without "
     "--speculative-num-steps"},
    {"H200", "deepseek-v3.2", "--speculative-algorithm EAGLE --speculative-num-draft-tokens 4", NULL,
     "AssertionError, with no message: --speculative-num-draft-tokens is given without --speculative-num-steps"},
    {"B200", "deepseek-v3", "--speculative-algorithm EAGLE --speculative-num-steps 2", "0.5.9",
     "TypeError: '>' not supported between instances of 'NoneType' and 'int' (--speculative-num-steps is given"},
    {"B200", "glm-5.2", "--speculative-algorithm NEXTN --speculative-eagle-topk 2 --speculative-num-steps 2 "
     "--speculative-num-draft-tokens 4", NULL, "speculative_eagle_topk > 1 with page_size > 1 is only supported on "
     "('flashinfer', 'fa3', 'triton'); got attention_backend='dsa'. Use page_size == 1 or one of those backends. ("},
    {"B200", "glm-5.2", "--speculative-algorithm NEXTN --speculative-eagle-topk 2 --speculative-num-steps 2 "
     "--speculative-num-draft-tokens 4", "0.5.12", "speculative_eagle_topk > 1 with page_size > 1 is unstable and "
     "produces incorrect results for paged attention backends. This combination is only supported for the "
     "'flashinfer' backend. (sglang 0.5.6"},
    {"B200", "deepseek-v3", "--speculative-algorithm EAGLE --speculative-eagle-topk 4 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8", "0.5.20", "got attention_backend='trtllm_mla'. Use page_size == 1 or one of"},
    {"B300", "glm-5.2", "--speculative-algorithm NGRAM", NULL, "speculative_eagle_topk(10) > 1 with page_size(64) > 1 "
     "is unstable and produces incorrect results for paged attention backends. This combination is only supported "
     "for the 'flashinfer' backend. ("},
    {"MI300X", V3_HEADS, "--speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8 --page-size 16 --tp-size 8", "0.5.16", "speculative_eagle_topk > 1 with "
     "page_size > 1 is only supported on ('flashinfer', 'fa3', 'triton'); got attention_backend='aiter'. Use "
     "page_size == 1 or one of those backends. ("},
    {"MI300X", "deepseek-v3", "--speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8 --page-size 16", "0.5.16", "and kvcheck does not know which backend SGLang "
     "picks for DeepseekV3ForCausalLM on MI300X; give --attention-backend"}, /* the config names no KV heads */
    {"RTX PRO 6000", "deepseek-v3", "--speculative-algorithm NEXTN --speculative-eagle-topk 2 --speculative-num-steps "
     "3 --speculative-num-draft-tokens 8 --page-size 16 --decode-attention-backend triton", "0.5.9",
     "This combination is only supported for the 'flashinfer' backend. (sglang 0.5.6"},
    /* fa3 keeps no fp8_e5m2 KV: SGLang runs triton, which the page-tree check takes only from 0.5.13 */
    {"H200", V3_HEADS, "--kv-cache-dtype fp8_e5m2 --speculative-algorithm EAGLE --speculative-eagle-topk 2 "
     "--speculative-num-steps 3 --speculative-num-draft-tokens 8 --page-size 16", "0.5.12.post1",
     "This combination is only supported for the 'flashinfer' backend. (sglang 0.5.6"},
    /* Flex Attention refuses speculative decoding; deterministic inference is declined */
    {"H200", "deepseek-v3", "--attention-backend flex_attention --speculative-algorithm EAGLE --speculative-num-steps 1 "
     "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2", "0.5.9", "SGLang 0.5.9 refuses to start: "
     "AssertionError: Speculative decoding is currently not supported with Flex Attention backend (sglang 0.5.3rc2"},
    {"B200", "deepseek-v3", "--enable-deterministic-inference", NULL, "--enable-deterministic-inference: kvcheck does "
     "not model SGLang 0.5.23's deterministic-inference checks"},
    /* without --speculative-num-steps SGLang drafts 3 or 5 steps: one step builds no decode backend (0.5.3.post2+) */
    {"B200", "deepseek-v3", "--decode-attention-backend cutlass_mla --prefill-attention-backend flashinfer "
     "--speculative-algorithm EAGLE", "0.5.19", "multi-step decode backend from the decode side, cutlass_mla, for the 3 "
     "or 5 steps SGLang picks without --speculative-num-steps;"},
    {"B200", "deepseek-v3", "--decode-attention-backend cutlass_mla --prefill-attention-backend flashinfer "
     "--speculative-algorithm EAGLE", "0.5.19", "; give the draft one of them with --speculative-draft-attention-backend, "
     "or draft one step, which builds no decode backend (--speculative-eagle-topk 1 --speculative-num-steps 1 "
     "--speculative-num-draft-tokens 2)"},
    /* the MTP draft's own trtllm_mha: its factory refuses it for an MLA model; trtllm_mha keeps a top-k of 1 */
    {"H200", "deepseek-v3", "--speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 1 "
     "--speculative-num-draft-tokens 2 --speculative-draft-attention-backend trtllm_mha", "0.5.17",
     "ValueError: trtllm_mha backend can only be used with non-MLA models. (at draft model init: the EAGLE draft "
     "DeepseekV3ForCausalLMNextN, an MLA model, runs its attention backend trtllm_mha on H200;"},
    {"B200", "deepseek-v3", "--decode-attention-backend trtllm_mha --speculative-algorithm EAGLE "
     "--speculative-eagle-topk 2 --speculative-num-steps 3 --speculative-num-draft-tokens 8", "0.5.14",
     "ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding. (--decode-attention-backend "
     "trtllm_mha; the top-k is 2; sglang 0.5.3rc2: python/sglang/srt/server_args.py:1099-1107;"},
    {"B200", "tests/conformance/sglang/models/LONGCAT_FLASH.json", "--attention-backend trtllm_mha "
     "--speculative-algorithm EAGLE", "0.5.7", "ValueError: trtllm_mha backend only supports topk = 1 for speculative "
     "decoding. (--attention-backend trtllm_mha; the top-k is 4; the top-k is SGLang's own pick for "
     "LongcatFlashForCausalLM"},
    /* dual_chunk_flash_attn turns the radix cache off, which HiCache needs */
    {"H200", "deepseek-v3", "--attention-backend dual_chunk_flash_attn --enable-hierarchical-cache", "0.5.19",
     "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive"},
    /* attention backends: FA4 serves prefill only up to 0.5.7; the ones whose checks kvcheck does not model are
     * declined */
    {"H200", "deepseek-v3", "--decode-attention-backend fa4", "0.5.7", "SGLang 0.5.7 refuses to start: FA4 backend is "
     "only supported for prefill. Please use `--prefill-attention-backend fa4` instead. (fa4: given by "
     "--decode-attention-backend; sglang 0.5.4"},
    {"H200", "deepseek-v3", "--attention-backend cutedsl_mla", "0.5.13", "SGLang 0.5.13 refuses to start: CuteDSL MLA "
     "backend is only supported on Blackwell GPUs (SM100). Please use a different backend. (cutedsl_mla: given by "
     "--attention-backend"},
    {"B200", "deepseek-v3", "--attention-backend cutedsl_mla --prefill-attention-backend cutedsl_mla", "0.5.15",
     "CuteDSL MLA only supports decoding for now"},
    {"B200", "deepseek-v3", "--decode-attention-backend tokenspeed_mla", "0.5.20",
     "tokenspeed_mla backend requires kv-cache-dtype=fp8_e4m3, got auto."},
    {"H200", "deepseek-v3", "--attention-backend tokenspeed_mla --kv-cache-dtype fp8_e4m3", "0.5.12",
     "tokenspeed_mla backend is only supported on Blackwell GPUs (SM100/SM12x)."},
    {"B200", "deepseek-v3", "--attention-backend dsv4", NULL, "--attention-backend dsv4: kvcheck does not model "
     "SGLang 0.5.23's start-up checks of this attention backend for MLA models"},
    {"B200", "deepseek-v3", "--speculative-algorithm NEXTN --speculative-draft-attention-backend qsa", NULL,
     "--speculative-draft-attention-backend qsa: kvcheck does not model SGLang 0.5.23's start-up checks of this "
     "attention backend for MLA models"},
    /* 0.5.23's tokenspeed_mla is cutedsl_mla, decode-only, with speculative decoding's draft extend on the decode
     * side (--speculative-attention-mode decode, which it sets) */
    {"H200", "deepseek-v3", "--attention-backend tokenspeed_mla", NULL, "SGLang 0.5.23 refuses to start: CuteDSL MLA backend is only "
     "supported on Blackwell GPUs (SM100). Please use a different backend."},
    {"H200", "deepseek-v3", "--attention-backend intel_xpu", "0.5.15", "intel_xpu backend is only supported on decode "
     "for MLA models"},
    /* trtllm_mha's checks of the GPU each side runs on, then its model runner refuses it for an MLA model */
    {"H200", "deepseek-v3", "--attention-backend trtllm_mha", "0.5.9", "TRTLLM MHA backend is only supported on "
     "Blackwell GPUs (SM100). Please use a different backend."},
    {"H200", "deepseek-v3", "--decode-attention-backend trtllm_mha --attention-backend trtllm_mha", "0.5.15",
     "TRTLLM MHA backend for prefill is only supported on Blackwell GPUs (SM100)."},
    {"MI300X", "deepseek-v3", "--decode-attention-backend trtllm_mha", "0.5.19", "TRTLLM MHA backend for decode is "
     "only supported on Hopper (SM90), Blackwell (SM100) and (SM120) GPUs."},
    {"RTX PRO 6000", "deepseek-v3", "--prefill-attention-backend trtllm_mha --kv-cache-dtype fp8_e4m3", "0.5.19",
     "TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV cache or skip-softmax."},
    {"B200", "deepseek-v3", "--prefill-attention-backend trtllm_mha --kv-cache-dtype fp8_e4m3", NULL,
     "SGLang 0.5.23 refuses to start: ValueError: trtllm_mha backend can only be used with non-MLA models. (when the "
     "model runner builds the prefill side's attention backend trtllm_mha for DeepseekV3ForCausalLM, an MLA model, on "
     "B200"},
    /* with speculative decoding SGLang picks top-k 1 for DeepSeek V3, which trtllm_mha's top-k check passes */
    {"H200", "deepseek-v3", "--attention-backend trtllm_mha --speculative-algorithm EAGLE", "0.5.20",
     "SGLang 0.5.20 refuses to start: ValueError: trtllm_mha backend can only be used with non-MLA models. (when the "
     "model runner builds the prefill side's attention backend trtllm_mha"},
    /* NVFP4 picks trtllm_mha for decode off SM100 (and both sides on it): refused for an MLA model */
    {"RTX PRO 6000", "deepseek-v3", "--kv-cache-dtype nvfp4", NULL, "trtllm_mha backend can only be used with non-MLA "
     "models. (when the model runner builds the decode side's attention backend trtllm_mha for DeepseekV3ForCausalLM, an "
     "MLA model, on RTX PRO 6000: prefill flashinfer and decode trtllm_mha, set by SGLang 0.5.23 for --kv-cache-dtype "
     "nvfp4"},
    /* LMCache's checks (0.5.21+), in SGLang's order: a PD decode worker without the decode radix cache meets the
     * radix check before the PD one */
    {"H200", "deepseek-v3", "--enable-lmcache --enable-hierarchical-cache", "0.5.21",
     "ValueError: --enable-lmcache and --enable-hierarchical-cache are mutually exclusive"},
    {"H200", "deepseek-v3", "--enable-lmcache --disaggregation-mode decode", NULL,
     "ValueError: --enable-lmcache requires radix cache to be enabled"},
    {"H200", "deepseek-v3", "--enable-lmcache --disaggregation-mode prefill", NULL,
     "LMCacheUnifiedRadixCache currently supports colocated prefill/decode scheduling only"},
    {"H200", "deepseek-v3", "--enable-lmcache --tp 8 --enable-dp-attention --dp 8", "0.5.22",
     "LMCacheUnifiedRadixCache does not yet support DP attention"},
    {"H200", "deepseek-v3", "--enable-lmcache --hicache-host-memory-mode buffer_only", NULL,
     "--hicache-host-memory-mode=buffer_only is a HiCache-only mode"},
    {"H200", "deepseek-v3", "--enable-lmcache --enable-streaming-session", NULL,
     "LMCacheUnifiedRadixCache does not yet support streaming sessions"},
    /* the model runner's own checks: its MLA list up to 0.5.4, the factories' GPU and model checks */
    {"H200", "deepseek-v3", "--attention-backend torch_native", "0.5.4", "SGLang 0.5.4 refuses to start: ValueError: "
     "Invalid attention backend for MLA: torch_native (when the model runner starts"},
    {"H200", "deepseek-v3", "--prefill-attention-backend flex_attention --decode-attention-backend flex_attention",
     "0.5.3", "Invalid attention backend for MLA: flex_attention"},
    {"B200", "deepseek-v3", "--attention-backend fa3", NULL, "AssertionError: FlashAttention v3 Backend requires "
     "SM>=80 and SM<=90. Please use `--attention-backend flashinfer`. (when the model runner builds the prefill side's "
     "attention backend fa3"},
    {"H200", "deepseek-v3", "--prefill-attention-backend hpc_ops", "0.5.21", "hpc_ops backend can only be used with "
     "non-MLA models. (when the model runner builds the prefill side's attention backend hpc_ops"},
    /* from 0.5.18 equal side flags build the prefill side's string, which fp8_e5m2 does not change */
    {"B200", "deepseek-v3", "--prefill-attention-backend fa3 --decode-attention-backend fa3 --kv-cache-dtype fp8_e5m2",
     "0.5.18", "FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`. "
     "(when the model runner builds the prefill side's attention backend fa3"},
    /* trtllm_mla's factory refuses it as the decode side with decode context parallelism and speculative decoding
     * (0.5.17+): SM100's default, the decode flag, each release's message; before 0.5.17 the server args refuse
     * DCP with any speculative algorithm on CUDA */
    {"B200", "deepseek-v3", "--dcp-size 2 --speculative-algorithm EAGLE --speculative-eagle-topk 1 "
     "--speculative-num-steps 1 --speculative-num-draft-tokens 2", "0.5.17", "SGLang 0.5.17 refuses to start: "
     "ValueError: trtllm_mla cannot serve decode context parallelism with speculative decoding: it does not forward "
     "the cyclic DCP metadata to its decode kernel and returns no rank-local LSE for the cross-rank merge. Select "
     "cutedsl_mla or tokenspeed_mla. (when the model runner builds the attention backend trtllm_mla for "
     "DeepseekV3ForCausalLM, an MLA model, on B200; the decode side is trtllm_mla, with --dcp-size above 1 and "
     "speculative decoding: "},
    {"B200", "deepseek-v3", "--dcp-size 2 --speculative-algorithm NGRAM --decode-attention-backend trtllm_mla "
     "--prefill-attention-backend flashinfer", NULL, "merge. Select cutedsl_mla. (when the model runner builds the "
     "decode side's attention backend trtllm_mla"},
    {"B200", "deepseek-v3", "--dcp-size 2 --speculative-algorithm EAGLE --speculative-eagle-topk 1 "
     "--speculative-num-steps 1 --speculative-num-draft-tokens 2", "0.5.16", "Decode context parallel (--dcp-size / "
     "--decode-context-parallel-size > 1) on CUDA platform does not support any speculative algorithm"},
    /* up to 0.5.13.post1 HiCache's kernel io backend sets an unset decode side (0.5.8+: with fa3), so the model
     * runner builds the decode side's flashinfer on SM100 and then refuses the prefill side's fa3 */
    {"B200", "deepseek-v3", "--attention-backend fa3 --enable-hierarchical-cache", "0.5.12", "Please use "
     "`--attention-backend flashinfer`. (when the model runner builds the prefill side's attention backend fa3 for "
     "DeepseekV3ForCausalLM, an MLA model, on B200: prefill fa3 and decode flashinfer, which HiCache's kernel io "
     "backend sets for an unset decode side on B200 (sglang 0.5.8: python/sglang/srt/server_args.py:2050-2100"},
    {"B200", "deepseek-v3", "--attention-backend fa3 --enable-hierarchical-cache --hicache-mem-layout "
     "page_first_direct", "0.5.12", "(when the model runner builds the attention backend fa3 for "
     "DeepseekV3ForCausalLM, an MLA model, on B200: prefill fa3 and decode fa3;"},
    {"B200", "deepseek-v3", "--attention-backend fa3 --disaggregation-mode decode "
     "--disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file", "0.5.7", "prefill fa3 and "
     "decode flashinfer, which HiCache's kernel io backend sets for an unset decode side on B200 (sglang 0.5.6.post2"},
    {"B200", "deepseek-v3", "--attention-backend fa3 --disaggregation-mode decode "
     "--disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file", "0.5.5", "prefill fa3 and "
     "decode fa3;"},
    /* the EAGLE draft worker builds a multi-step decode backend (more than one step; up to 0.5.3.post1 always) and
     * a draft-extend one (the prefill side, or the decode side in decode mode) from its own list */
    {"B200", "deepseek-v3", "--attention-backend cutlass_mla --speculative-algorithm EAGLE", "0.5.19",
     "SGLang 0.5.19 refuses to start: ValueError: EAGLE is not supported in decode attention backend cutlass_mla "
     "(when the EAGLE draft worker builds its multi-step decode backend from the decode side, cutlass_mla, for the 3 "
     "or 5 steps SGLang picks without --speculative-num-steps; the draft "
     "worker's backends are aiter ascend cutedsl_mla dsa dsv4 fa3 fa4 flashinfer flashmla hybrid_linear_attn "
     "intel_amx nsa tokenspeed_mla triton trtllm_mha trtllm_mla; sglang 0.5.16: python/sglang/srt/speculative/"
     "draft_utils.py:28-103; 0.5.19: :42-157)"},
    {"B200", "deepseek-v3", "--prefill-attention-backend torch_native --decode-attention-backend flashinfer "
     "--speculative-algorithm NEXTN " EAGLE1, "0.5.12", "EAGLE is not supported in attention backend torch_native "
     "(when the NEXTN draft worker builds its draft-extend backend from the prefill side, torch_native;"},
    {"B200", "deepseek-v3", "--decode-attention-backend cutlass_mla --prefill-attention-backend flashinfer "
     "--speculative-attention-mode decode --speculative-algorithm NEXTN " EAGLE1, "0.5.12", "EAGLE is not "
     "supported in attention backend cutlass_mla (when the NEXTN draft worker builds its draft-extend backend from "
     "the decode side (--speculative-attention-mode decode), cutlass_mla;"},
    {"B200", "deepseek-v3", "--decode-attention-backend cutlass_mla --prefill-attention-backend flashinfer "
     "--speculative-algorithm NEXTN " EAGLE1, "0.5.3rc2", "EAGLE is not supported in decode attention backend "
     "cutlass_mla (when the NEXTN draft worker builds its multi-step decode backend"},
    {"H200", "deepseek-v3", "--speculative-algorithm NEXTN --speculative-draft-attention-backend torch_native",
     "0.5.12", "EAGLE is not supported in decode attention backend torch_native (when the NEXTN draft worker builds "
     "its multi-step decode backend from --speculative-draft-attention-backend, torch_native, for the 3 or 5 steps"},
    /* the MTP draft's runner builds the target's nsa for its renamed config, not DSA before 0.5.4 */
    {"H200", "deepseek-v3.2", "--speculative-algorithm NEXTN", "0.5.3.post3", "AssertionError: NSA backend only "
     "supports DeepSeek NSA (at draft model init: the NEXTN draft DeepseekV3ForCausalLMNextN, which SGLang 0.5.3.post3 "
     "does not take as a DSA model, runs the target's attention backend nsa;"},
    /* the DSA backend asserts a DSA model: the target's, an MTP draft's own backend, a separate draft's side */
    {"H200", "deepseek-v3", "--attention-backend nsa", "0.5.9", "AssertionError: NSA backend only supports DeepSeek "
     "NSA (when the model runner builds the attention backend nsa for DeepseekV3ForCausalLM, which SGLang 0.5.9 does "
     "not take as a DSA model"},
    {"H200", "deepseek-v3", "--decode-attention-backend dsa --prefill-attention-backend fa3", "0.5.18",
     "AssertionError: DSA backend only supports DeepSeek DSA (when the model runner builds the decode side's "
     "attention backend dsa"},
    {"H200", "deepseek-v3", "--speculative-algorithm NEXTN --speculative-draft-attention-backend nsa", "0.5.9",
     "NSA backend only supports DeepSeek NSA (at draft model init: the NEXTN draft DeepseekV3ForCausalLMNextN, which "
     "SGLang 0.5.9 does not take as a DSA model, runs its attention backend nsa;"},
    /* zero steps build the decode backend up to 0.5.13.post1 (its early return is == 1), not from 0.5.14 (<= 1) */
    {"B200", "deepseek-v3", "--attention-backend cutlass_mla --speculative-algorithm EAGLE --speculative-num-steps 0 "
     "--speculative-eagle-topk 1 --speculative-num-draft-tokens 1", "0.5.9", "EAGLE is not supported in decode "
     "attention backend cutlass_mla"},
    {"B200", "deepseek-v3", "--attention-backend cutlass_mla --speculative-algorithm EAGLE --speculative-num-steps 0 "
     "--speculative-eagle-topk 1 --speculative-num-draft-tokens 1", "0.5.14", "EAGLE is not supported in attention "
     "backend cutlass_mla (when the EAGLE draft worker builds its draft-extend backend"},
    /* 0.5.4.post1-0.5.7: HiCache's decode side comes before the attention checks, which read it */
    {"H200", "deepseek-v3", "--enable-hierarchical-cache --attention-backend flashmla --prefill-attention-backend "
     "triton --page-size 64 --speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 3 "
     "--speculative-num-draft-tokens 8", "0.5.5", "speculative_eagle_topk > 1 with page_size > 1 is unstable"},
    /* trtllm_mha's prefill context parallelism off SM100 (0.5.19+), before the model runner */
    {"H200", "deepseek-v3", "--attention-backend trtllm_mha --attn-cp-size 2", "0.5.21", "Prefill context parallelism "
     "with the TRTLLM MHA prefill backend requires SM100"},
    /* up to 0.5.7 SGLang picks top-k 4 for architectures off its list; NGRAM refuses attention DP */
    {"H200", "tests/conformance/sglang/models/LONGCAT_FLASH.json", "--page-size 64 --speculative-algorithm NEXTN",
     "0.5.3rc2", "This combination is only supported for the 'flashinfer' backend. (sglang 0.5.3rc2: python/sglang/"
     "srt/server_args.py:1118-1125; 0.5.5: :1606-1613; the page is 64 tokens; the top-k is SGLang's own pick for "
     "LongcatFlashForCausalLM (sglang 0.5.3rc2"},
    {"H200", "deepseek-v3", "--tp 8 --dp 8 --enable-dp-attention --speculative-algorithm NGRAM "
     "--speculative-ngram-max-bfs-breadth 1", NULL, "SGLang 0.5.23 refuses to start: Currently ngram speculative "
     "decoding does not support dp attention. (attention DP size 8; sglang 0.5.3rc2"},
    /* adaptive speculative decoding is not modelled: declined, not judged */
    {"B200", "glm-5.2", "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-adaptive", NULL,
     "--speculative-adaptive: kvcheck does not model SGLang's adaptive speculative decoding"},
    /* HYV4, a pooled indexer and TileLang FP8 refuse DCP; 0.5.15-0.5.16 refuse it with speculative decoding on CUDA */
    {"H200", "deepseek-v3.2", "--dcp-size 2 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang "
     "--kv-cache-dtype fp8_e4m3", NULL, "CUDA TileLang FP8 KV does not support --dcp-size > 1. (sglang 0.5.22"},
    {"H200", "tests/unit/models/HYV4.json", "--dcp-size 2 --enable-hisparse", NULL,
     "SGLang 0.5.23 refuses to start: --dcp-size > 1 is not supported for HYV4 because decode context parallelism "
     "gathers query heads across DCP ranks but does not provide single-owner semantics for learnable attention sinks. "
     "Got architecture='HYV4ForCausalLM' and dcp_size=2. (sglang 0.5.20"},
    {"H200", "tests/unit/models/HYV4.json", "--dcp-size 4", "0.5.20", "dcp_size=4. (sglang 0.5.20"},
    {"B200", "tests/unit/models/DSA_KPOOL.json", "--dcp-size 2", NULL, "--dcp-size > 1 is not supported for DSA with "
     "index_kpool=4: a pooled index key spans positions owned by different DCP ranks. (sglang 0.5.22"},
    {"H200", "deepseek-v3.2", "--dcp-size 2 --speculative-algorithm NEXTN", "0.5.15.post1",
     "Decode context parallel (--dcp-size / --decode-context-parallel-size > 1) on CUDA platform does not support any "
     "speculative algorithm, but got dcp_size=2 on a CUDA platform with speculative decoding enabled. ("},
    /* which refusal comes first: HiCache's layout before the speculative hook, host_pool before HiSparse's
     * validation, the optimistic-prefill check after both */
    {"H200", "deepseek-v3", HR "0.5 --disaggregation-mode decode --hicache-storage-backend mooncake "
     "--speculative-algorithm STANDALONE --tp 8 --enable-dp-attention --dp 8", NULL,
     "The resolved HiCache storage layout 'page_first' cannot share"},
    {"H200", "deepseek-v3.2", "--disaggregation-mode prefill --enable-hisparse --disable-radix-cache "
     "--disaggregation-decode-retraction-backup host_pool", "0.5.18",
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. (sglang 0.5.18"},
    {"H200", "deepseek-v3.2", "--tp 1 --disaggregation-mode prefill --disaggregation-decode-allocation-policy "
     "prefill_complete --optimistic-prefill-attempts -1 " HR "1.5", NULL,
     "--disaggregation-decode-host-receive-threshold must be between 0 and 1 ("},
    {"H200", "deepseek-v3.2", "--tp 1 --disaggregation-mode prefill --disaggregation-decode-allocation-policy "
     "prefill_complete --optimistic-prefill-attempts -1 --disaggregation-decode-retraction-backup host_pool", NULL,
     "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server. ("},
    /* a hybrid model's decode tree cache: no Mamba state under host_pool */
    {"B200", "tests/conformance/sglang/models/GLM5_NEXT.json", HR "0.5 --disaggregation-mode decode", NULL,
     "SGLang 0.5.23 refuses to start: Host-pool retraction does not support Mamba models. (when the decode worker "
     "builds its tree cache: the linear layers' state is Mamba state; host_pool because host receive is on"},
    {"B200", "tests/conformance/sglang/models/GLM5_NEXT.json", "--disaggregation-decode-retraction-backup host_pool "
     "--disaggregation-mode decode", "0.5.20", "SGLang 0.5.20 refuses to start: Host-pool retraction does not support "
     "Mamba models. (when the decode worker builds its tree cache: the linear layers' state is Mamba state; sglang"},
    /* the retraction backup host_pool given (0.5.18+) */
    {"H200", "deepseek-v3.2", "--disaggregation-decode-retraction-backup host_pool --disaggregation-mode prefill", "0.5.18",
     "SGLang 0.5.18 refuses to start: --disaggregation-decode-retraction-backup=host_pool is only supported on a PD "
     "decode server. (sglang 0.5.18"},
    {"H200", "deepseek-v3", "--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode "
     "--dcp-size 2", NULL, "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1. ("},
    {"H200", "deepseek-v3.2", "--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode "
     "--dcp-size 2", "0.5.21", "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1. ("},
    /* DSA with DCP (0.5.22+): the DeepSeek family's refusals come before the dtype's and the backup's */
    {"H200", "deepseek-v3.2", "--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode "
     "--dcp-size 2 --kv-cache-dtype fp8_e5m2", NULL, "SGLang 0.5.23 refuses to start: DSA DCP does not support PD "
     "disaggregation. (sglang 0.5.22: python/sglang/srt/arg_groups/model_overrides/deepseek_v2.py:18-33"},
    {"B200", "glm-5.2", "--dcp-size 2 --enable-hierarchical-cache --disaggregation-mode prefill", "0.5.22",
     "DSA DCP does not support HiSparse or HiCache. ("},
    {"B200", "deepseek-v3.2", "--dcp-size 2 --speculative-algorithm EAGLE --speculative-eagle-topk 2 "
     "--speculative-num-steps 2 --speculative-num-draft-tokens 4", NULL, "DSA DCP requires --speculative-eagle-topk 1. ("},
    /* ... and its trtllm, as if given, meets GLM's learnable-sink check */
    {"H200", "tests/conformance/sglang/models/GLM5_SINK.json", "--dcp-size 2", NULL,
     "GlmMoeDsaForCausalLM uses learnable attention sinks and requires --dsa-prefill-backend 'flashmla_sparse'; got "
     "'trtllm' ("},
    {"H200", "deepseek-v3.2", "--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode "
     "--enable-priority-scheduling", "0.5.20", "--disaggregation-decode-retraction-backup=host_pool requires "
     "--disable-priority-preemption when priority scheduling is enabled. ("},
};

/* The DSA backend's assertion and the draft worker's refusals, at the flag
 * that chose the backend: a side, the draft's own, or for SGLang's default
 * the algorithm (column 1 of "--speculative-algorithm ..."). */
static void test_rules__draft_refusals_at_the_flag(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *model, *args, *release;
        unsigned column;
    } C[] = {
        {"H200", "deepseek-v3.2", "--speculative-algorithm NEXTN", "0.5.3.post3", 1},
        {"H200", "deepseek-v3", "--speculative-algorithm NEXTN --speculative-draft-attention-backend nsa", "0.5.9", 31},
        {"H200", "deepseek-v3", "--tp 8 --decode-attention-backend dsa --prefill-attention-backend fa3", "0.5.18", 8},
        {"B200", "deepseek-v3", "--tp 8 --attention-backend cutlass_mla --speculative-algorithm EAGLE "
         "--speculative-num-steps 0 --speculative-eagle-topk 1 --speculative-num-draft-tokens 1", "0.5.9", 8},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line(C[i].gpu, C[i].model, C[i].args, C[i].release, &r, &d) != KVC_ERR_CONFIG)
            fail_msg("case %zu '%s' was judged", i, C[i].args);
        assert_string_equal(d.file, "--args");
        if (d.column != C[i].column) fail_msg("case %zu: column %u: %s", i, d.column, d.message);
    }
}

static void test_rules__refusals_are_sglangs_own_words(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(BAD[i].gpu, BAD[i].model, BAD[i].args, BAD[i].release, &r, &d);
        if (st != KVC_ERR_CONFIG) fail_msg("case %zu '%s': status %d (%s)", i, BAD[i].args, st, d.message);
        if (!strstr(d.message, BAD[i].message)) fail_msg("case %zu: %s", i, d.message);
    }
}

/* Model-runner and draft-worker builds SGLang starts: HiCache's decode side
 * settles equal sides before the attention checks up to 0.5.7 (flashinfer
 * on both, fa3 unbuilt on B200); one step builds no multi-step decode
 * backend from 0.5.3.post2; the draft's own backend from the draft worker's
 * list; DCP with speculative decoding off trtllm_mla's decode side. */
static void test_rules__attention_builds_that_pass(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *model, *args, *release;
    } OK[] = {
        {"B200", "deepseek-v3", "--enable-hierarchical-cache --attention-backend fa3 --prefill-attention-backend "
         "flashinfer", "0.5.5"},
        {"B200", "deepseek-v3", "--decode-attention-backend cutlass_mla --prefill-attention-backend flashinfer "
         "--speculative-algorithm NEXTN " EAGLE1, "0.5.3.post2"},
        {"B200", "deepseek-v3", "--attention-backend cutlass_mla --speculative-algorithm NEXTN "
         "--speculative-draft-attention-backend flashinfer", "0.5.12"},
        {"B200", "deepseek-v3", "--dcp-size 2 --decode-attention-backend cutedsl_mla --prefill-attention-backend "
         "trtllm_mla --speculative-algorithm EAGLE " EAGLE1, "0.5.17"},
        {"B200", "deepseek-v3", "--dcp-size 2 --decode-attention-backend flashinfer --prefill-attention-backend "
         "trtllm_mla --speculative-algorithm EAGLE " EAGLE1, NULL},
    };
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line(OK[i].gpu, OK[i].model, OK[i].args, OK[i].release, &r, &d) != KVC_OK)
            fail_msg("case %zu '%s': %s", i, OK[i].args, d.message);
    }
}

/* The flags SGLang 0.5.21+'s FP4 KV checks read, where those checks pass:
 * kvcheck judges the worker (here SGLang starts it). */
static void test_rules__fp4_check_flags_that_pass(void **state)
{
    (void)state;
    /* `init`: the argument checks pass, and the model runner then refuses the trtllm_mha decode backend NVFP4
     * sets (or the flag names) for DeepSeek V3, an MLA model */
    static const char INIT[] = "ValueError: trtllm_mha backend can only be used with non-MLA models. (when the model "
                               "runner builds the decode side's attention backend trtllm_mha";
    static const struct {
        const char *gpu, *args, *release;
        int init;
    } OK[] = {
        /* no native NVFP4 off SM100: host tiers and a draft backend are not checked */
        {"GB10", "--kv-cache-dtype nvfp4 --enable-hierarchical-cache", NULL, 1},
        {"RTX PRO 6000", "--kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1",
         "0.5.21", 1},
        /* the dequant dtype chooses the prefill backend: an attention backend no row names is not refused */
        {"GB10", "--kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --attention-backend triton", NULL, 1},
        {"GB10", "--kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --prefill-attention-backend "
                 "flashinfer", "0.5.22", 1},
        /* "auto" is the default, with any KV dtype */
        {"B200", "--kv-cache-dtype fp8_e4m3 --prefill-kv-cache-dequant-dtype auto", NULL, 0},
        /* differing sides only warn; context parallelism is refused with trtllm_mha prefill only */
        {"H200", "--tp 2 --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend flashinfer "
                 "--decode-attention-backend trtllm_mha --attn-cp-size 2", NULL, 1},
    };
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(OK[i].gpu, "deepseek-v3", OK[i].args, OK[i].release, &r, &d);
        if (!OK[i].init && st != KVC_OK) fail_msg("case %zu '%s': %s", i, OK[i].args, d.message);
        if (OK[i].init && (st != KVC_ERR_CONFIG || !strstr(d.message, INIT)))
            fail_msg("case %zu '%s': status %d: %s", i, OK[i].args, st, st ? d.message : "passes");
    }
    /* the FP4 checks refuse unified memory only from 0.5.21; in 0.5.20 it passes them and meets page-major's */
    static const char UM[] = "--kv-cache-dtype fp4_mx_block16 --attention-backend flashinfer --enable-unified-memory";
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B200", "deepseek-v3", UM, "0.5.20", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "SGLang 0.5.20 goes on to its other unified-memory checks");
    assert_int_equal(resolve_line("B200", "deepseek-v3", UM, "0.5.21", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "FP4 KV cache does not yet support --enable-unified-memory");
}

/* The decode allocation policy (0.5.22+) where prefill_complete is
 * supported, and its default: the setting the pair check compares. */
static void test_rules__decode_allocation_policy(void **state)
{
    (void)state;
    static const struct {
        const char *args, *release, *policy;
    } OK[] = {
        /* mooncake_tcp is Mooncake; L2 write_back HiCache on prefill; EnvBool's false */
        {PC "--tp 1 --disaggregation-mode prefill --disaggregation-transfer-backend mooncake_tcp", NULL, "prefill_complete"},
        {PC "--tp 1 --disaggregation-mode prefill --enable-hierarchical-cache --hicache-write-policy write_back", "0.5.22",
         "prefill_complete"},
        {"SGLANG_RUST_SERVER=No python -m sglang.launch_server " PC "--tp 1 --disaggregation-mode decode", NULL,
         "prefill_complete"},
        /* a value EnvBool does not take: SGLang warns and reads False */
        {"SGLANG_RUST_SERVER=Maybe python -m sglang.launch_server " PC "--tp 1 --disaggregation-mode prefill", NULL,
         "prefill_complete"},
        {"--tp 8 --disaggregation-mode decode", NULL, "early"},
        {"--disaggregation-decode-allocation-policy early --disaggregation-mode decode", "0.5.22", "early"},
        /* before 0.5.22 there is no policy */
        {"--tp 8 --disaggregation-mode decode", "0.5.21", ""},
    };
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line("H200", "deepseek-v3.2", OK[i].args, OK[i].release, &r, &d);
        if (st != KVC_OK) fail_msg("case %zu '%s': %s", i, OK[i].args, d.message);
        assert_string_equal(VAL(&r, "decode_alloc_policy"), OK[i].policy);
        int warned = 0;
        for (unsigned k = 0; k < r.nwarnings; k++)
            warned |= strstr(r.warnings[k], "Invalid value for SGLANG_RUST_SERVER: \"maybe\" is not a valid boolean "
                             "value, using default \"False\"") != NULL;
        assert_int_equal(warned, strstr(OK[i].args, "=Maybe") != NULL);
    }
    /* a DSA pool's kpool without compression keeps no tail */
    kvc_resolved r;
    kvc_diag d;
    if (resolve_line("H200", "tests/unit/models/DSA_KPOOL.json", PC "--tp 1 --disaggregation-mode prefill", NULL, &r, &d))
        fail_msg("%s", d.message);
}

/* The host receive threshold and the host_pool retraction backup where
 * SGLang starts the worker. */
static void test_rules__decode_host_receive_off(void **state)
{
    (void)state;
    static const struct {
        const char *args, *release;
    } OK[] = {
        /* off: 0 in 0.5.21, 1 after (the bounds are in range); NaN is never on */
        {HR "0 --disaggregation-mode decode", "0.5.21"},
        {HR "1 --disaggregation-mode decode", "0.5.22"},
        {HR "1.0 --disaggregation-mode prefill --enable-hisparse --disable-radix-cache", NULL},
        {HR "0.0 --disaggregation-mode prefill --disaggregation-decode-retraction-backup cpu_tensor", "0.5.21"},
        /* host_pool on a decode worker, with DCP 1 and priority preemption off */
        {"--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode --dcp-size 1", "0.5.18"},
        {"--disaggregation-decode-retraction-backup host_pool --disaggregation-mode decode --enable-priority-scheduling "
         "--disable-priority-preemption", NULL},
        {"--disaggregation-decode-retraction-backup cpu_tensor --disaggregation-mode prefill", NULL},
        /* underscores and exponents as Python reads them: off */
        {HR "0_1 --disaggregation-mode decode", "0.5.22"}, /* 1.0 */
        {HR "0e5 --disaggregation-mode decode", "0.5.21"},
        /* storage backends that keep HiCache's host pool layer_first, or host receive off */
        {HR "1 --disaggregation-mode decode --hicache-storage-backend mooncake", NULL},
        {"--disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --hicache-storage-backend "
         "mooncake", NULL},
        {"--disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --hicache-storage-backend "
         "mooncake --hicache-io-backend kernel_ascend", "0.5.21"},
        /* HiCache with a decode radix cache; decode KV offload with a storage backend */
        {"--disaggregation-mode decode --enable-hierarchical-cache --disaggregation-decode-enable-radix-cache", NULL},
        /* the decode radix cache is kept over --disable-radix-cache */
        {"--disaggregation-mode decode --enable-hierarchical-cache --disaggregation-decode-enable-radix-cache "
         "--disable-radix-cache", "0.5.12"},
        {"--disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file",
         NULL},
        {"--disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache", "0.5.9"},
        /* the decode radix cache with the transfer backends each release takes, and with MTP in 0.5.23 (NEXTN is
         * EAGLE there) */
        {"--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend "
         "nixl", "0.5.11"},
        {"--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend "
         "mooncake_tcp", "0.5.13"},
        {"--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend "
         "ascend", "0.5.14"},
        {"--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --speculative-algorithm nextn", NULL},
        {"--disaggregation-mode decode --disaggregation-decode-enable-radix-cache --speculative-algorithm EAGLE", NULL},
        /* a prefill worker's radix cache is its own; DCP 1 checks nothing */
        {"--disaggregation-mode prefill --disaggregation-decode-enable-radix-cache --speculative-algorithm NEXTN",
         "0.5.18"},
        {"--disaggregation-mode decode --dcp-size 1 --disaggregation-transfer-backend ascend "
         "--disaggregation-decode-enable-radix-cache --enable-hierarchical-cache", "0.5.18"},
        /* a top-k above 1 on the tree-drafting backends SGLang settles on: equal prefill and decode backends */
        {"--speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 2 "
         "--speculative-num-draft-tokens 4 --prefill-attention-backend fa3 --decode-attention-backend fa3", "0.5.13"},
        {"--speculative-algorithm NGRAM --prefill-attention-backend flashinfer --decode-attention-backend flashinfer",
         NULL},
        /* the Mamba check is the host_pool backup's only */
        {"--disaggregation-mode decode --disaggregation-decode-retraction-backup cpu_tensor", NULL},
    };
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line("H200", "deepseek-v3.2", OK[i].args, OK[i].release, &r, &d);
        if (st != KVC_OK) fail_msg("case %zu '%s': %s", i, OK[i].args, d.message);
    }
    kvc_resolved r;
    kvc_diag d;
    /* a hybrid decode worker keeps the cpu_tensor backup */
    assert_int_equal(resolve_line("B200", "tests/conformance/sglang/models/GLM5_NEXT.json", "--disaggregation-mode "
                                  "decode --disaggregation-decode-retraction-backup cpu_tensor", NULL, &r, &d), KVC_OK);
    /* before 0.5.21 (0.5.18 for the backup) SGLang's parser does not know the flag */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", HR "0.5 --disaggregation-mode decode", "0.5.20", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "unrecognized arguments: --disaggregation-decode-host-receive-threshold 0.5");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--disaggregation-decode-retraction-backup host_pool", "0.5.17",
                                  &r, &d), KVC_ERR_CONFIG);
}

static void test_rules__refusals_point_at_the_flag(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B200", "deepseek-v3.2", "--tp 8 --dsa-decode-backend triton", NULL, &r, &d),
                     KVC_ERR_CONFIG);
    assert_string_equal(d.file, "--args");
    assert_int_equal(d.line, 1);
    assert_int_equal(d.column, 8);
    assert_contains(d.message, "(sglang 0.5.20: python/sglang/srt/arg_groups/overrides.py:621-635)");
}

static void test_rules__reasons_say_how_each_value_was_decided(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode prefill --page-size 32", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "dsa_prefill_backend")->reason,
                    "default for an unset prefill backend with fp8_e4m3 on compute capability >= 10 (B300, compute "
                    "capability 10.3; sglang 0.5.11: python/sglang/srt/server_args.py:1623-1628)");
    assert_contains(resolved_find(&r, "kv_cache_dtype")->reason, "auto: SGLang picks fp8_e4m3 for DSA models on compute capability 10.3");
    assert_contains(resolved_find(&r, "page_size")->reason, "forced for DSA (you passed 32): \"Setting page size to 64 for DeepSeek DSA.\"");
    assert_contains(r.row.reason, "trtllm writes raw FP8 rows (R + r = 576 bytes) on CUDA: the worker's own backend decides");
    assert_contains(r.row.reason, "kv_cache_configurator.py:2543-2575");
    assert_contains(resolved_find(&r, "disaggregation_mode")->reason, "set by --disaggregation-mode at --args:1:1");

    assert_int_equal(resolve_line("H200", "glm-5.2", "--kv-cache-dtype bf16", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "kv_cache_dtype")->reason, "bf16 is SGLang's alias of bfloat16");
    assert_contains(r.row.reason, "not fp8_e4m3: rows are R + r = 576 values of bfloat16");

    assert_int_equal(resolve_line("B300", "glm-5.2", "--nsa-decode-backend flashmla_kv", "0.5.10", &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "dsa_decode_backend")->reason,
                    "forced to trtllm with fp8_e4m3 on compute capability >= 10 (user flags ignored), over "
                    "--nsa-decode-backend flashmla_kv (B300, compute capability 10.3; sglang 0.5.10");
    assert_int_equal(resolve_line("MI300X", "glm-5.2", "", NULL, &r, &d), KVC_OK);
    assert_contains(resolved_find(&r, "dsa_prefill_backend")->reason, "on ROCm");
    assert_contains(r.warnings[0], "forces page size 1");
    assert_int_equal(resolve_line("MI300X", "glm-5.2", "--kv-cache-dtype fp8_e4m3", NULL, &r, &d), KVC_OK);
    assert_contains(r.row.reason, "float8_e4m3fnuz");

    assert_int_equal(resolve_line("B200", "deepseek-v3", "--page-size 128", NULL, &r, &d), KVC_OK);
    assert_string_equal(resolved_find(&r, "page_size")->reason,
                        "trtllm_mla takes page sizes 32 64 only (sglang 0.5.23: python/sglang/srt/arg_groups/"
                        "overrides.py:1155-1218); you passed 128. trtllm_mla: SGLang's default attention backend for "
                        "DeepseekV3ForCausalLM on SM100 (sglang 0.5.6.post1: python/sglang/srt/server_args.py:1040-1049; "
                        "0.5.15: python/sglang/srt/arg_groups/overrides.py:389-398; 0.5.23: python/sglang/srt/arg_groups/"
                        "model_overrides/deepseek_v2.py:178-189)");
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
    /* GLM-5.2's own indexer runs on 21 of its 78 layers and on the MTP layer (index_topk_freq 4, offset 3): 0.5.18+
     * give the other 57 no index K rows */
    assert_int_equal(r.indexer_bytes_per_token_all, 22 * 132);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1",
                                  NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm EAGLE3", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_contains(r.warnings[0], "--speculative-algorithm EAGLE3: the draft model's KV pool is not derived (no "
                                   "--speculative-draft-model-path given); a unified worker keeps it to itself, but a "
                                   "PD worker's is declined");
    assert_int_equal(resolve_line("H200", "deepseek-v3", "", NULL, &r, &d), KVC_OK);
    assert_false(r.has_indexer);
    assert_false(r.model.dsa);
}

/* The draft pool may have its own KV dtype (0.5.18+): its entries get
 * their own layout, and "auto" is the draft model's dtype, not the DSA
 * default. */
/* DSA top-k sharing (GLM-5.2's 57 of 78 layers reuse the previous layer's top-k, as index_topk_freq 4 with offset 3
 * and as indexer_types): two-batch overlap is refused from 0.5.13, and from 0.5.18 the DSA pool gives the indexer no
 * rows on those layers where SGLang's gate elides them (not in PD mode up to 0.5.21), as each release's own code
 * counts them (21 active layers, 2772 B/token). */
static void test_rules__index_topk_sharing(void **state)
{
    (void)state;
    static const struct {
        const char *release, *args;
        unsigned indexer_entries;
    } E[] = {
        {"0.5.17", "", 78},
        {"0.5.18", "", 21},
        {"0.5.18", "--disaggregation-mode prefill", 78},
        {"0.5.21", "--disaggregation-mode decode", 78},
        {"0.5.22", "--disaggregation-mode decode", 21},
        {"0.5.23", "--enable-hierarchical-cache", 21},
        {"0.5.21", "--enable-hierarchical-cache", 78},
        {"0.5.23", "--speculative-algorithm EAGLE", 22}, /* the MTP draft pool keeps its own */
    };
    kvc_resolved r;
    kvc_diag d;
    for (size_t i = 0; i < COUNT_OF(E); i++) {
        if (resolve_line("H200", SHARED, E[i].args, E[i].release, &r, &d) != KVC_OK)
            fail_msg("case %zu: %s", i, d.message);
        if (r.indexer_entries != E[i].indexer_entries)
            fail_msg("case %zu: %u indexer entries, expected %u", i, r.indexer_entries, E[i].indexer_entries);
        assert_int_equal(r.indexer_bytes_per_token_all, 132ull * E[i].indexer_entries);
    }
    assert_int_equal(resolve_line("H200", SHARED, "", "0.5.23", &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "no rows on the 57 of 78 target layers that reuse the previous layer's top-k (the "
                                   "config's indexer_types)");
    /* which layers run their own indexer: 0.5.10-0.5.12 ignore the offset (0, 1, 5, ...), 0.5.13+ read it (0, 1, 2,
     * 6, ...), none before 0.5.10 */
    static const struct {
        const char *release, *first;
    } L[] = {{"0.5.9", ""}, {"0.5.12", "FFSSSFSSSF"}, {"0.5.13", "FFFSSSFSSS"}, {"0.5.23", "FFFSSSFSSS"}};
    for (size_t i = 0; i < COUNT_OF(L); i++) {
        assert_int_equal(resolve_line("H200", SHARED, "", L[i].release, &r, &d), KVC_OK);
        if (strncmp(r.indexer_layers, L[i].first, strlen(L[i].first)) != 0 || (!L[i].first[0] && r.indexer_layers[0]))
            fail_msg("%s: indexer layers %s", L[i].release, r.indexer_layers);
    }
    assert_int_equal(strlen(r.indexer_layers), 78);
    static const struct {
        const char *model, *release, *message; /* NULL: SGLang starts it */
    } T[] = {
        {SHARED, "0.5.13", "ValueError: --enable-two-batch-overlap is not supported with DSA index-topk sharing "
                           "(index_topk_freq > 1 or an index_topk_pattern containing shared layers)"},
        {FREQ2, "0.5.12", NULL},
        {FREQ2, "0.5.19", "shared layers would run sparse attention without indices. (sglang 0.5.13"},
        {FREQ2, "0.5.23", "Got index_topk_freq=2, index_topk_pattern=None, and indexer_types=None. (sglang 0.5.20"},
        {SHARED, "0.5.23", "Got index_topk_freq=4, index_topk_pattern=None, and indexer_types=['full', 'full', "
                           "'full', 'shared', 'shared', 'shared', 'full', 'shared',"},
    };
    /* from 0.5.15 the DeepSeek family's prefill CP asserts come first */
    assert_int_equal(resolve_line("H200", FREQ2, "--tp 16 --enable-prefill-cp --cp-strategy interleave "
                                  "--enable-two-batch-overlap --moe-a2a-backend deepep", "0.5.23", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "Context parallel only supports single machine (tp_size <= 8)");
    assert_int_equal(resolve_line("H200", FREQ2, "--tp 16 --enable-prefill-cp --cp-strategy interleave "
                                  "--enable-two-batch-overlap --moe-a2a-backend deepep", "0.5.14", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "not supported with DSA index-topk sharing");
    for (size_t i = 0; i < COUNT_OF(T); i++) {
        kvc_status st = resolve_line("H200", T[i].model, "--tp 8 --enable-two-batch-overlap --moe-a2a-backend deepep",
                                     T[i].release, &r, &d);
        if (T[i].message ? st != KVC_ERR_CONFIG || !strstr(d.message, T[i].message) : st != KVC_OK)
            fail_msg("TBO case %zu: %d %s", i, st, d.message);
    }
}

/* Pipeline parallelism with speculative decoding, in check_server_args' three rule sets; 0.5.21+ read
 * SGLANG_ENABLE_PP_SPEC (an EnvBool: a value it does not take is off, with SGLang's warning). Run against the
 * oracle. */
static void test_rules__pipeline_parallel_speculative(void **state)
{
    (void)state;
#define PP "--tp 8 --pp-size 2 --speculative-algorithm NEXTN"
#define ENV "SGLANG_ENABLE_PP_SPEC=1 "
    static const struct {
        const char *args, *release, *message; /* NULL: starts */
    } C[] = {
        {PP, "0.5.3", "AssertionError: Pipeline parallelism is not compatible with overlap schedule, speculative "
                      "decoding, mixed chunked prefill."},
        {"--tp 8 --pp-size 2 --enable-mixed-chunk", "0.5.10.post1", "speculative decoding, mixed chunked prefill."},
        {"--tp 8 --pp-size 2 --enable-mixed-chunk", "0.5.11", NULL},
        /* dual_chunk_flash_attn turns mixed chunked prefill off first (see below: deepseek-v3) */
        {PP " --disaggregation-mode prefill", "0.5.20", "AssertionError: Pipeline parallelism is not compatible with "
                                                        "overlap schedule, speculative decoding ("},
        {ENV PP, "0.5.20", "overlap schedule, speculative decoding ("},
        {PP, "0.5.21", "AssertionError: PP + speculative decoding (MTP) is only supported on prefill nodes "
                       "(disaggregation-mode=prefill)"},
        {PP " --disaggregation-mode prefill", "0.5.21", NULL},
        {ENV PP, "0.5.23", NULL},
        {ENV PP " --disaggregation-mode prefill", "0.5.21", "AssertionError: SGLANG_ENABLE_PP_SPEC is not compatible "
                                                           "with --disaggregation-mode"},
        {ENV PP " --disaggregation-mode decode", "0.5.23", "SGLANG_ENABLE_PP_SPEC is not compatible with "
                                                          "--disaggregation-mode"},
        {ENV PP " --tp 2 --dp 2 --enable-dp-attention", "0.5.21", "AssertionError: SGLANG_ENABLE_PP_SPEC is not "
                                                                  "compatible with --enable-dp-attention"},
        {ENV PP " --attn-dp-size 2", "0.5.23", "AssertionError: SGLANG_ENABLE_PP_SPEC is not compatible with attention "
                                               "DP (--attn-dp-size)"},
        /* SGLang refuses it here; kvcheck declines adaptive speculation before (check_spec_params) */
        {ENV PP " --speculative-adaptive", "0.5.22", "does not model SGLang's adaptive speculative decoding"},
        {PP " --disaggregation-mode prefill --enable-multi-layer-eagle", "0.5.23", "AssertionError: Pipeline "
         "parallelism currently only supports EAGLE (non-multi-layer) speculative decoding"},
        {ENV PP " --min-free-slots-delay 1", "0.5.23", "AssertionError: --min-free-slots-delay is not supported with "
                                                       "pipeline parallelism"},
        {PP " --disaggregation-mode prefill --chunked-prefill-size 1000", "0.5.23", "AssertionError: "
         "chunked_prefill_size must be divisible by page_size"},
        {PP " --nnodes 3", "0.5.23", "AssertionError: tp_size must be divisible by number of nodes"},
        {PP " --pp-max-micro-batch-size 0", "0.5.23", "AssertionError: pp_max_micro_batch_size must be a positive "
                                                      "integer"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line("H200", "glm-5", C[i].args, C[i].release, &r, &d);
        if (C[i].message ? st != KVC_ERR_CONFIG || !strstr(d.message, C[i].message) : st != KVC_OK)
            fail_msg("case %zu '%s' under %s: %d %s", i, C[i].args, C[i].release, st, d.message);
    }
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--tp 8 --pp-size 2 --enable-mixed-chunk --attention-backend "
                                  "dual_chunk_flash_attn", "0.5.10.post1", &r, &d), KVC_OK);
    /* a value EnvBool does not take: off, as SGLang warns */
    assert_int_equal(resolve_line("H200", "glm-5", "SGLANG_ENABLE_PP_SPEC=maybe " PP, "0.5.23", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "only supported on prefill nodes");
    assert_int_equal(resolve_line("H200", "glm-5", "SGLANG_ENABLE_PP_SPEC=maybe " PP " --disaggregation-mode prefill",
                                  "0.5.23", &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "SGLang warns \"Invalid value for SGLANG_ENABLE_PP_SPEC: \"maybe\" is not a valid "
                                   "boolean value, using default \"False\"\"");
#undef PP
#undef ENV
}

/* Environment variables the launch command sets: ROCm's DSA page follows aiter's preshuffle path, SGL_<X> is copied
 * over SGLANG_<X>, spec v2's top-k refusal, SGLANG_RUST_SERVER's bootstrap port, DeepSeek-V4's online compression as
 * an EnvBool. Run against the oracle. */
static void test_rules__environment_variables(void **state)
{
    (void)state;
#define SPEC "--tp 8 --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 2 " \
             "--speculative-num-draft-tokens 4"
    static const struct {
        const char *gpu, *model, *args, *release;
        unsigned page;       /* 0: refused */
        const char *message; /* in the refusal, or a warning */
    } C[] = {
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=0 --tp 8", "0.5.23", 1, NULL},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=yes --tp 8", "0.5.23", 1, "SGLang warns \"get_bool_env_var("
         "SGLANG_USE_AITER) encountered unrecognized value=yes and will treat as false\""}, /* true and 1 only */
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=TRUE --tp 8", "0.5.23", 64, "which also needs Triton >= 3.5"},
        {"MI300X", "deepseek-v3.2", "--tp 8", "0.5.23", 64, "the launch command does not set SGLANG_USE_AITER"},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=0 --tp 8", "0.5.11", 1, NULL},
        {"MI355X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=1 --tp 8", "0.5.13", 1, NULL},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=1 --tp 8", "0.5.12", 64,
         NULL}, /* the NSA name only */
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=1 --tp 8", "0.5.12", 1,
         NULL},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=yes --tp 8", "0.5.20", 1,
         NULL}, /* the alias, an EnvBool */
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=1 --tp 8", "0.5.21", 64, NULL},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=0 "
         "SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=1 --tp 8", "0.5.20", 64, NULL}, /* the new name wins */
        /* SGL_<X> is copied over SGLANG_<X>, wherever either stands */
        {"MI300X", "deepseek-v3.2", "SGL_USE_AITER=0 SGLANG_USE_AITER=1 --tp 8", "0.5.23", 1,
         "SGLang warns \"Environment variable SGL_USE_AITER is deprecated, please use SGLANG_USE_AITER\""},
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=1 SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=1 "
         "SGL_DSA_HIP_DISABLE_PRESHUFFLE=0 --tp 8", "0.5.23", 64, NULL},
        /* page 1 lets a top-k of 2 pass the page-tree check */
        {"MI300X", "deepseek-v3.2", "SGLANG_USE_AITER=0 " SPEC, "0.5.12", 1, NULL},
        {"MI300X", "deepseek-v3.2", "SGLANG_ENABLE_SPEC_V2=1 " SPEC, "0.5.8", 0,
         "ValueError: Spec v2 currently only supports topk = 1 for speculative decoding."},
        {"H200", "deepseek-v3.2", "SGL_ENABLE_SPEC_V2=1 " SPEC, "0.5.9", 0, "Spec v2 currently only supports topk = 1"},
        {"H200", "deepseek-v3.2", "SGLANG_ENABLE_SPEC_V2=1 SGL_ENABLE_SPEC_V2=0 " SPEC, "0.5.9", 0,
         "speculative_eagle_topk > 1 with page_size > 1 is unstable"},
        {"MI300X", "deepseek-v3.2", "SGLANG_ENABLE_SPEC_V2=1 " SPEC, "0.5.11", 1, NULL},
        /* SGLANG_RUST_SERVER serves the prefill's bootstrap registry on --port (0.5.17+) */
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port "
         "9000", "0.5.17", 0, "ValueError: SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api port "
         "itself; --disaggregation-bootstrap-port 9000 conflicts with --port 30000."},
        {"H200", "deepseek-v3.2", "SGL_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port "
         "9000", "0.5.20", 0, "conflicts with --port 30000"},
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port "
         "9000", "0.5.16", 64, NULL},
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port "
         "8998 --port 31000", "0.5.23", 64, NULL},
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port "
         "31000 --port 31000", "0.5.23", 64, NULL},
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=1 --disaggregation-mode decode --disaggregation-bootstrap-port "
         "9000", "0.5.23", 64, NULL},
        {"H200", "deepseek-v3.2", "SGLANG_RUST_SERVER=bogus --disaggregation-mode prefill "
         "--disaggregation-bootstrap-port 9000", "0.5.23", 64, "\"bogus\" is not a valid boolean value"},
        /* DeepSeek-V4's online compression: an EnvBool, off for 0 */
        {"B200", "tests/unit/models/DSV4_SMALL.json", "SGLANG_OPT_USE_ONLINE_COMPRESS=0", "0.5.23", 256, NULL},
        {"B200", "tests/unit/models/DSV4_SMALL.json", "SGLANG_OPT_USE_ONLINE_COMPRESS=1", "0.5.23", 0,
         "kvcheck does not model DeepSeek-V4's online c128 compression state"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, C[i].model, C[i].args, C[i].release, &r, &d);
        if (!C[i].page) {
            if (st != KVC_ERR_CONFIG || !strstr(d.message, C[i].message))
                fail_msg("case %zu '%s' under %s: %d %s", i, C[i].args, C[i].release, st, d.message);
            continue;
        }
        if (st != KVC_OK) fail_msg("case %zu '%s' under %s: %s", i, C[i].args, C[i].release, d.message);
        if (resolved_find(&r, "page_size")->number != C[i].page)
            fail_msg("case %zu: page %llu", i, (unsigned long long)resolved_find(&r, "page_size")->number);
        int warned = !C[i].message;
        for (unsigned w = 0; w < r.nwarnings && !warned; w++) warned = strstr(r.warnings[w], C[i].message) != NULL;
        if (!warned) fail_msg("case %zu: no warning '%s'", i, C[i].message);
    }
#undef SPEC
}

/* --prefill-only-disable-kv-cache (0.5.12+): its flag checks in SGLang's order right after the PD hook, then its
 * prefill attention backend's; a worker that passes both keeps no KV cache, which kvcheck declines. Run against
 * the oracle. */
static void test_rules__prefill_only_disable_kv_cache(void **state)
{
    (void)state;
#define PO "--tp 8 --prefill-only-disable-kv-cache"
#define ALL PO " --is-embedding --chunked-prefill-size -1 --disable-radix-cache"
    static const struct {
        const char *model, *gpu, *args, *release, *message;
        unsigned column;
    } C[] = {
        {"glm-5", "H200", PO, "0.5.11", "unrecognized arguments: --prefill-only-disable-kv-cache", 0},
        {"glm-5", "H200", PO, "0.5.12", "ValueError: --prefill-only-disable-kv-cache currently requires "
         "--is-embedding.", 8},
        {"glm-5", "H200", PO " --is-embedding", "0.5.23", "ValueError: --prefill-only-disable-kv-cache requires "
         "--chunked-prefill-size=-1 so the FA backend takes the fa_skip_kv_cache path", 8},
        {"glm-5", "H200", PO " --is-embedding --chunked-prefill-size 1000", "0.5.19", "requires "
         "--chunked-prefill-size=-1", 55},
        {"glm-5", "H200", PO " --is-embedding --chunked-prefill-size -1", "0.5.23", "ValueError: "
         "--prefill-only-disable-kv-cache requires --disable-radix-cache", 8},
        /* a decode worker's PD hook turns the radix cache off first */
        {"glm-5", "H200", PO " --is-embedding --chunked-prefill-size -1 --disaggregation-mode decode", "0.5.13",
         "but got prefill backend 'dsa'.", 8},
        {"glm-5", "H200", ALL, "0.5.12", "ValueError: --prefill-only-disable-kv-cache currently requires the FA "
         "prefill backend (fa3/fa4), but got prefill backend 'nsa'.", 8},
        {"deepseek-v3", "B200", ALL, "0.5.23", "but got prefill backend 'trtllm_mla'.", 8},
        {"glm-5", "H200", ALL " --kv-cache-dtype fp4_e2m1", "0.5.15.post1", "does not currently support "
         "--kv-cache-dtype=fp4_e2m1", 103},
        {"glm-5", "H200", ALL " --kv-cache-dtype fp4_e2m1", "0.5.16", "DeepSeek DSA only supports", 103},
        {"glm-5", "H200", ALL " --kv-cache-dtype mxfp8", "0.5.23", "does not currently support --kv-cache-dtype=mxfp8",
         103},
        {"glm-5", "H200", ALL " --kv-cache-dtype fp8_e5m2", "0.5.23", "DeepSeek DSA only supports", 103},
        {"glm-5", "H200", ALL " --attn-cp-size 2", "0.5.23", "is incompatible with --attn-cp-size > 1", 103},
        {"glm-5", "H200", ALL " --enable-prefill-context-parallel", "0.5.13", "is incompatible with "
         "--enable-prefill-context-parallel:", 103},
        {"glm-5", "H200", ALL " --enable-dsa-prefill-context-parallel", "0.5.14", "is incompatible with "
         "--enable-prefill-cp:", 103}, /* the older flag that sets it */
        /* dual_chunk_flash_attn turns the radix cache off after these checks */
        {"deepseek-v3", "H200", PO " --is-embedding --chunked-prefill-size -1 --attention-backend "
         "dual_chunk_flash_attn", "0.5.19", "requires --disable-radix-cache", 8},
        {"glm-5", "H200", ALL " --enable-hisparse", "0.5.18", "is incompatible with --enable-hisparse", 103},
        /* the hook's backend for DeepSeek-V4 */
        {"tests/unit/models/DSV4_SMALL.json", "B200", ALL, "0.5.23", "but got prefill backend 'dsv4'.", 8},
        /* the FA prefill backend: SGLang starts it with a no-op KV pool */
        {"glm-5", "H200", ALL " --prefill-attention-backend fa3", "0.5.23", "SGLang 0.5.23 starts this worker with a "
         "no-op KV pool", 8},
        {"deepseek-v3", "H200", ALL, "0.5.23", "with the prefill backend fa3: SGLang 0.5.23 starts this worker", 8},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, C[i].model, C[i].args, C[i].release, &r, &d);
        if ((st != KVC_ERR_CONFIG && st != KVC_ERR_USAGE) || !strstr(d.message, C[i].message))
            fail_msg("case %zu '%s' under %s: %d %s", i, C[i].args, C[i].release, st, d.message);
        if (C[i].column && d.column != C[i].column) fail_msg("case %zu: column %u", i, d.column);
    }
#undef PO
#undef ALL
}

/* A launch under one release and SGLang's verdict on it: its refusal's words, or NULL where it starts. */
typedef struct release_case {
    const char *release, *args, *message;
} release_case;

/* Resolves each case on an H200 with `model` and fails at the first verdict that is not SGLang's. */
static void expect_verdicts_on(const char *gpu, const char *model, const release_case *cases, size_t n)
{
    kvc_resolved r;
    kvc_diag d;
    for (size_t i = 0; i < n; i++) {
        kvc_status st = resolve_line(gpu, model, cases[i].args, cases[i].release, &r, &d);
        if (cases[i].message ? st != KVC_ERR_CONFIG || !strstr(d.message, cases[i].message) : st != KVC_OK)
            fail_msg("case %zu %s '%s': %d %s", i, cases[i].release, cases[i].args, st, d.message);
    }
}
static void expect_verdicts(const char *model, const release_case *cases, size_t n)
{
    expect_verdicts_on("H200", model, cases, n);
}

/* check_server_args' refusals beside the KV layout (server.c), each in its place around the page size's check (a
 * chunk of 1000 is refused there), HiSparse's and two-batch overlap's; every case run against the oracle. */
static void test_rules__server_args_checks(void **state)
{
    (void)state;
#define C1000 " --chunked-prefill-size 1000"
    static const release_case S[] = {
        {"0.5.23", "--tp 8 --nnodes 3" C1000, "AssertionError: tp_size must be divisible by number of nodes"},
        {"0.5.15", "--tp 8 --nnodes 3" C1000, "AssertionError: tp_size must be divisible by number of nodes"},
        {"0.5.23", "--tp 8 --pp-max-micro-batch-size 0" C1000, "pp_max_micro_batch_size must be a positive integer or "
                                                               "None (for auto-compute). Got: 0"},
        {"0.5.10", "--tp 8 --pp-max-micro-batch-size 0", NULL},
        {"0.5.23", "--tp 8 --disable-cuda-graph-padding --enable-torch-compile" C1000,
         "AssertionError: --disable-cuda-graph-padding is incompatible with --enable-torch-compile."},
        {"0.5.21", "--tp 8 --dp 2 --nnodes 2" C1000,
         "AssertionError: multi-node data parallel is not supported unless dp attention!"},
        {"0.5.23", "--tp 8 --dp 2 --nnodes 2" C1000, "AssertionError: multi-node data-parallel replicas are not "
                                                      "supported; use attention DP (--attn-dp-size) across nodes"},
        {"0.5.23", "--tp 8 --base-gpu-id -1" C1000, "AssertionError: base_gpu_id must be non-negative"},
        {"0.5.23", "--tp 8 --gpu-id-step 0" C1000, "AssertionError: gpu_id_step must be positive"},
        {"0.5.12", "--tp 8 --moe-dense-tp-size 2" C1000,
         "AssertionError: moe_dense_tp_size only support 1 and None currently"},
        {"0.5.23", "--tp 8 --moe-dense-tp-size 8", NULL},
        {"0.5.23", "--tp 8 --moe-dense-tp-size 2" C1000,
         "AssertionError: moe_dense_tp_size only supports None, 1, or tp_size currently"},
        {"0.5.23", "--tp 8 --tokenizer-worker-num 0", "AssertionError: Tokenizer worker num must >= 1"},
        {"0.5.23", "--tp 8 --detokenizer-worker-num 0 --enable-hisparse",
         "AssertionError: Detokenizer worker num must >= 1"},
        {"0.5.23", "--tp 8 --enable-priority-scheduling --schedule-policy lpm", "AssertionError: To use priority "
         "scheduling, schedule_policy must be 'fcfs' or 'lof'. 'lpm' is not supported."},
        {"0.5.23", "--tp 8 --retraction-policy priority",
         "ValueError: --retraction-policy priority requires --enable-priority-scheduling"},
        {"0.5.10", "--tp 8 --multi-item-scoring-delimiter 5",
         "AssertionError: Multi-item scoring requires radix cache to be disabled."},
        {"0.5.10", "--tp 8 --multi-item-scoring-delimiter 5 --disable-radix-cache",
         "AssertionError: Multi-item scoring requires chunked prefill to be disabled."},
        {"0.5.10", "--tp 8 --multi-item-scoring-delimiter 5 --disable-radix-cache --chunked-prefill-size -1", NULL},
        {"0.5.23", "--tp 8 --schedule-conservativeness -0.5 --enable-hisparse --disable-radix-cache",
         "AssertionError: schedule_conservativeness must be non-negative"},
        {"0.5.23", "--tp 8 --model-impl mindspore --enable-two-batch-overlap",
         "AssertionError: MindSpore model impl is only supported on Ascend npu."},
        {"0.5.23", "--tp 8 --enable-quant-communications",
         "ValueError: Communications quantization is only supported for NPU device"},
        {"0.5.23", "--tp 1 --enable-quant-communications",
         "ValueError: Communications quantization is only used with tp_size != 1"},
        {"0.5.23", "--tp 1 --enable-quant-communications --enable-two-batch-overlap",
         "When enabling two batch overlap without an EP a2a backend"},
        {"0.5.23", "--tp 8 --kv-canary-sweep-interval 5",
         "ValueError: --kv-canary-sweep-interval requires --kv-canary in {log, raise}"},
        {"0.5.23", "--tp 8 --kv-canary-sweep-interval 5 --kv-canary log", NULL},
        /* what the resolution sets before: prefill CP's dense TP of 1, --skip-tokenizer-init's worker counts, a
         * decode worker's radix cache off; NaN fails >= 0; Python's modulo by a negative count, or zero */
        {"0.5.23", "--tp 8 --enable-prefill-cp --cp-strategy zigzag --moe-dense-tp-size 2", NULL},
        {"0.5.9", "--tp 8 --enable-nsa-prefill-context-parallel --moe-dense-tp-size 2", NULL},
        /* the resolution's tokenizer batching handler: before check_server_args and the cache compatibility's */
        {"0.5.23", "--tp 8 --enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer --tokenizer-worker-num 0",
         "ValueError: Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch-tokenizer. Please "
         "choose one tokenizer batching approach."},
        {"0.5.3rc2", "--tp 8 --enable-dynamic-batch-tokenizer --enable-tokenizer-batch-encode "
                     "--enable-hierarchical-cache --disable-radix-cache", "Cannot enable both"},
        {"0.5.12", "--tp 8 --enable-dynamic-batch-tokenizer --skip-tokenizer-init", NULL},
        {"0.5.12", "--tp 8 --skip-tokenizer-init --detokenizer-worker-num 0", NULL},
        {"0.5.9", "--tp 8 --skip-tokenizer-init --tokenizer-worker-num 0", NULL},
        {"0.5.9", "--tp 8 --disaggregation-mode decode --multi-item-scoring-delimiter 5 --chunked-prefill-size -1", NULL},
        {"0.5.23", "--tp 8 --schedule-conservativeness nan", "AssertionError: schedule_conservativeness must be "
                                                             "non-negative"},
        {"0.5.23", "--tp 8 --nnodes 0", "ZeroDivisionError: integer modulo by zero"},
        {"0.5.23", "--tp 8 --nnodes -2", NULL},
        {"0.5.23", "--tp 8 --nnodes -3", "AssertionError: tp_size must be divisible by number of nodes"},
        {"0.5.17", "--tp 8 --mm-processor-worker-num -1", "AssertionError: Multimodal processor worker num must >= 0"},
        {"0.5.17", "--tp 8 --mm-io-worker-num -1", "AssertionError: Multimodal I/O worker num must >= 0"},
        {"0.5.21", "--tp 8 --sampling-backend intel_xpu",
         "ValueError: --sampling-backend intel_xpu requires --device xpu, got --device cuda"},
        {"0.5.18", "--tp 4 --pp-size 2 --min-free-slots-delay 1",
         "AssertionError: --min-free-slots-delay is not supported with pipeline parallelism"},
        {"0.5.23", "--tp 8 --disaggregation-mode prefill --enable-pd-role-switch --enable-return-aux-hidden-states "
                   "--speculative-algorithm EAGLE3", "kvcheck does not model it"},
        /* the served model name (--model-path's when not given), before the page size's check; a Run:ai URI
         * passes from 0.5.10; a GGUF reference owner/repo:QUANT goes to the Hub first from 0.5.19 */
        {"0.5.9", "--tp 8 --served-model-name a:b" C1000, "AssertionError: served_model_name cannot contain a "
         "colon (':') character. The colon is reserved for the 'model:adapter' syntax used in LoRA adapter "
         "specification. Invalid value: 'a:b'"},
        {"0.5.9", "--tp 8 --served-model-name s3://bucket:1/x", "Invalid value: 's3://bucket:1/x'"},
        {"0.5.10", "--tp 8 --served-model-name S3://bucket:1/x", NULL},
        {"0.5.23", "--tp 8 --model-path /models/a:b", "Invalid value: '/models/a:b'"},
        {"0.5.18", "--tp 8 --model-path org/model:v1", "Invalid value: 'org/model:v1'"},
        {"0.5.23", "--tp 8 --model-path /models/a:b --served-model-name glm", NULL},
        /* --gc-threshold: 1 to 3 values, after two-batch overlap's check */
        {"0.5.10", "--tp 8 --gc-threshold 1 2 3 4",
         "ValueError: When setting gc_threshold, it must contain 1 to 3 integers."},
        {"0.5.23", "--tp 8 --gc-threshold 1 2 3", NULL},
        {"0.5.23", "--tp 8 --gc-threshold 1 2 3 4 --enable-two-batch-overlap", "two batch overlap"},
        /* --attn-dp-size below 1 (0.5.22+): the DeepSeek family's DSA adjustments divide by 0 first */
        {"0.5.23", "--tp 8 --attn-dp-size 0", "ZeroDivisionError: integer division or modulo by zero"},
        {"0.5.22", "--tp 8 --attn-dp-size -1", "ValueError: --attn-dp-size must be positive (got -1)."},
        /* HiSparse refuses mixed chunked prefill from 0.5.22, after its radix cache check; a speculative algorithm
         * does not turn it off first */
        {"0.5.23", "--tp 8 --enable-hisparse --disable-radix-cache --enable-mixed-chunk",
         "ValueError: --enable-hisparse does not support --enable-mixed-chunk yet."},
        {"0.5.22", "--tp 8 --enable-hisparse --disable-radix-cache --enable-mixed-chunk --speculative-algorithm EAGLE",
         "ValueError: --enable-hisparse does not support --enable-mixed-chunk yet."},
        {"0.5.21", "--tp 8 --enable-hisparse --disable-radix-cache --enable-mixed-chunk", NULL},
        {"0.5.23", "--tp 8 --enable-hisparse --enable-mixed-chunk", "requires --disable-radix-cache"},
        /* HiSparse's checks follow the page size's */
        {"0.5.14", "--tp 8 --enable-hisparse" C1000, "AssertionError: chunked_prefill_size must be divisible by "
                                                     "page_size"},
        {"0.5.23", "--tp 8 --enable-hisparse --chunked-prefill-size 1024",
         "Hierarchical sparse attention currently requires --disable-radix-cache."},
    };
#undef C1000
    expect_verdicts("glm-5", S, COUNT_OF(S)); /* GLM-5.2 refuses TBO */
    kvc_resolved r;
    kvc_diag d;
    /* the size as given: prefill CP's rewrite of it does not hide a negative one; DSA CP under interleave with an
     * attention CP size keeps it, and the handler refuses it */
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--tp 8 --enable-prefill-cp --attn-dp-size -1", "0.5.23", &r,
                                  &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "ValueError: --attn-dp-size must be positive (got -1).");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --enable-prefill-cp --cp-strategy interleave "
                                  "--attn-cp-size 2 --attn-dp-size 0", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "ValueError: --attn-dp-size must be positive (got 0).");
    /* an MLA model outside prefill CP meets the data parallelism handler's check */
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--tp 8 --attn-dp-size 0", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "ValueError: --attn-dp-size must be positive (got 0).");
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--tp 8 --attn-dp-size 0 --enable-prefill-cp --cp-strategy "
                                  "zigzag", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "ZeroDivisionError: integer division or modulo by zero");
    /* the served model name's check begins in 0.5.5.post1 (GLM-5 is served from 0.5.9) */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --served-model-name a:b", "0.5.5", &r, &d), KVC_OK);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --served-model-name a:b", "0.5.5.post1", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "SGLang 0.5.5.post1 refuses to start: AssertionError: served_model_name cannot contain "
                               "a colon");
    assert_int_equal(d.column, 8);
}

/* 1 when one of `r`'s warnings contains `text`. */
static int has_warning(const kvc_resolved *r, const char *text)
{
    for (unsigned i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], text)) return 1;
    return 0;
}

/* The gRPC port (grpc.c), each case as SGLang's own code decides it (the oracle, tools/sglang-oracle/matrix.py
 * GRPC_CASES): up to 0.5.15.post1 --port + 10000 whether gRPC is on or not, after the PD hook and
 * --prefill-only-disable-kv-cache's checks up to 0.5.14 and before them from 0.5.15; from 0.5.16 --grpc-port, the
 * environment or the legacy modes, and the native server's incompatibilities; check_server_args' clash after the
 * communication quantization's checks and before --gc-threshold's. */
static void test_rules__grpc_port_checks(void **state)
{
    (void)state;
    static const release_case G[] = {
        {"0.5.10", "--port 60000", NULL},
        {"0.5.11", "--port 60000", "ValueError: SGLANG_GRPC_PORT (70000) must be between 1 and 65535"},
        {"0.5.15.post1", "--port 55536", "ValueError: SGLANG_GRPC_PORT (65536) must be between 1 and 65535"},
        {"0.5.15.post1", "--port 55535", NULL},
        {"0.5.11", "--port 0", NULL},
        {"0.5.11", "--port -20000", "SGLANG_GRPC_PORT (-10000) must be"},
        {"0.5.11", "--port 99999999999999999999999999", "SGLANG_GRPC_PORT (100000000000000000000009999) must be"},
        {"0.5.11", "--port -99999999999999999999999999", "SGLANG_GRPC_PORT (-99999999999999999999989999) must be"},
        {"0.5.16", "--port 60000", NULL},
        {"0.5.13", "SGLANG_GRPC_PORT=70000", "ValueError: SGLANG_GRPC_PORT (70000) must be between 1 and 65535"},
        {"0.5.13", "SGLANG_GRPC_PORT=abc --port 60000", "SGLANG_GRPC_PORT (70000) must be"}, /* int() fails: None */
        {"0.5.13", "SGLANG_GRPC_PORT=30000", NULL},
        {"0.5.13", "SGLANG_GRPC_PORT=30000 SGLANG_ENABLE_GRPC=1",
         "ValueError: SGLANG_GRPC_PORT (30000) must differ from --port (30000)"},
        {"0.5.13", "SGLANG_GRPC_PORT=31000 SGLANG_ENABLE_GRPC=yes --port 31000", "(31000) must differ from --port (31000)"},
        {"0.5.16", "SGLANG_GRPC_PORT=30000", "ValueError: --grpc-port (30000) must differ from --port (30000)"},
        {"0.5.23", "--grpc-port 30000", "ValueError: --grpc-port (30000) must differ from --port (30000)"},
        {"0.5.23", "--grpc-port 0", "ValueError: --grpc-port / SGLANG_GRPC_PORT (0) must be between 1 and 65535"},
        {"0.5.23", "--port 60000 --grpc-mode", "--grpc-port / SGLANG_GRPC_PORT (70000) must be between 1 and 65535"},
        {"0.5.23", "--port 50000 --grpc-mode", NULL},
        {"0.5.23", "--grpc-port 31000 --port 31000 --smg-grpc-mode", NULL},
        {"0.5.23", "SGLANG_GRPC_WORKER_THREADS=0 --grpc-port 40000",
         "ValueError: SGLANG_GRPC_WORKER_THREADS (0) must be >= 1"},
        {"0.5.23", "SGLANG_GRPC_WORKER_THREADS=0", NULL},
        {"0.5.21", "--grpc-response-timeout-secs 0", "ValueError: --grpc-response-timeout-secs must be positive"},
        {"0.5.21", "--grpc-response-timeout-secs -1 --grpc-port 70000", "--grpc-response-timeout-secs must be"},
        {"0.5.21", "--grpc-response-timeout-secs 1", NULL}, /* the flag is new in 0.5.21 */
        {"0.5.23", "--sidecar-args '[\"a\"]'", "ValueError: --sidecar-args requires --sidecar."},
        {"0.5.23", "--sidecar-args [1] --sidecar x", "ValueError: --sidecar-args must be a JSON array of strings."},
        {"0.5.23", "--sidecar-args '{\"a\":1}' --sidecar x", "--sidecar-args must be a JSON array of strings."},
        {"0.5.23", "--sidecar-args '[\"a\"]' --sidecar x --grpc-port 40000", NULL},
        {"0.5.23", "--sidecar-args null", NULL}, /* orjson's None: no sidecar check reads it */
        {"0.5.16", "--sidecar-args null --sidecar x", "--sidecar requires --grpc-port or SGLANG_GRPC_PORT."},
        {"0.5.23", "--sidecar \" \"", "ValueError: --sidecar must not be empty."},
        {"0.5.23", "--sidecar x", "ValueError: --sidecar requires --grpc-port or SGLANG_GRPC_PORT."},
        {"0.5.23", "--sidecar x --grpc-port 40000 --smg-grpc-mode", "ValueError: --sidecar requires SGLang's native "
         "gRPC server; it cannot be combined with --smg-grpc-mode/--grpc-mode."},
        {"0.5.22", "SGLANG_RUST_SERVER=1 --sidecar x --grpc-port 40000", "ValueError: --sidecar is not yet supported "
         "with SGLANG_RUST_SERVER: Rust-server mode does not run the Python sidecar lifecycle."},
        {"0.5.23", "SGLANG_RUST_SERVER=1 --sidecar x --grpc-port 40000", NULL},
        {"0.5.23", "--grpc-port 40000 --use-ray", "ValueError: --grpc-port is not supported with --use-ray: the Ray "
         "serve launch path does not start the native gRPC server."},
        {"0.5.23", "SGLANG_GRPC_PORT=40000 --encoder-only", "ValueError: --grpc-port is not supported with "
         "--encoder-only: encoder disaggregation uses its own server."},
        {"0.5.23", "--grpc-port 40000 --tokenizer-worker-num 2", "ValueError: Native gRPC does not yet support "
         "--tokenizer-worker-num > 1. Unset --grpc-port or set --tokenizer-worker-num 1."},
        {"0.5.23", "--grpc-port 40000 --admin-api-key k", "ValueError: --grpc-port is incompatible with "
         "--api-key/--admin-api-key: the native gRPC listener bypasses HTTP auth middleware."},
        {"0.5.23", "--grpc-port 40000 --api-key=", NULL},                 /* empty: Python's false */
        {"0.5.23", "--grpc-port 40000 --smg-grpc-mode --api-key k", NULL}, /* the legacy server */
        /* where each sits */
        {"0.5.12", "--port 60000 --prefill-only-disable-kv-cache", "requires --is-embedding"},
        {"0.5.15.post1", "--port 60000 --prefill-only-disable-kv-cache", "SGLANG_GRPC_PORT (70000) must be"},
        {"0.5.23", "--grpc-port 0 --prefill-only-disable-kv-cache", "SGLANG_GRPC_PORT (0) must be"},
        {"0.5.23", "--tp 8 --grpc-port 30000 --gc-threshold 1 2 3 4", "--grpc-port (30000) must differ"},
        {"0.5.23", "--tp 8 --grpc-port 30000 --enable-quant-communications", "only supported for NPU device"},
        {"0.5.13", "SGLANG_GRPC_PORT=30000 SGLANG_ENABLE_GRPC=1 --tp 8 --enable-quant-communications",
         "only supported for NPU device"},
    };
    expect_verdicts("deepseek-v3.2", G, COUNT_OF(G));
    kvc_resolved r;
    kvc_diag d;
    /* the refusal points at what gave the port; SGLang's warnings about the environment it could not read */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --port 60000", "0.5.11", &r, &d), KVC_ERR_CONFIG);
    assert_int_equal(d.column, 8);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--grpc-port 40000 --api-key= --admin-api-key k", "0.5.23",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_int_equal(d.column, 30); /* the key that is not empty */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_GRPC_PORT=x SGLANG_ENABLE_GRPC=maybe", "0.5.13", &r,
                                  &d), KVC_OK);
    assert_true(has_warning(&r, "SGLANG_GRPC_PORT=x is not an integer: SGLang 0.5.13 takes its default None"));
    assert_true(has_warning(&r, "\"maybe\" is not a valid boolean value"));
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_ENABLE_GRPC=maybe", "0.5.16", &r, &d), KVC_OK);
    assert_true(has_warning(&r, "Environment variable SGLANG_ENABLE_GRPC is deprecated.")); /* not read: no value */
    assert_false(has_warning(&r, "not a valid boolean value"));
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_ENABLE_GRPC=1", "0.5.21", &r, &d), KVC_OK);
    assert_false(has_warning(&r, "SGLANG_ENABLE_GRPC"));
}

/* validate_buckets_rule on both lists, and the metrics options: up to 0.5.6.post2 in __post_init__ (before
 * check_server_args' page-size check), from 0.5.7 in check_server_args after it */
static void test_rules__token_buckets_and_metrics(void **state)
{
    (void)state;
    static const release_case B[] = {
        {"0.5.3rc2", "--prompt-tokens-buckets foo", "AssertionError: Unsupported --prompt-tokens-buckets rule type: "
         "'foo'. Must be one of: 'tse', 'default', 'custom'"},
        {"0.5.23", "--prompt-tokens-buckets TSE 1 2 3", "Unsupported --prompt-tokens-buckets rule type: 'TSE'."},
        {"0.5.18", "--prompt-tokens-buckets tse 1 2", "AssertionError: --prompt-tokens-buckets TSE rule requires "
         "exactly 4 parameters: ['tse', middle, base, count], got 3"},
        {"0.5.18", "--generation-tokens-buckets tse a 2 3", "AssertionError: --generation-tokens-buckets TSE rule "
         "parameters must be: ['tse', <float:middle>, <float:base>, <int:count>]"},
        {"0.5.18", "--generation-tokens-buckets tse 1 2 1.5", "TSE rule parameters must be"}, /* int("1.5") */
        {"0.5.23", "--prompt-tokens-buckets tse 1 1 3", "TSE base must be larger than 1, got: 1.0"},
        {"0.5.23", "--prompt-tokens-buckets tse 1 0.00001 3", "TSE base must be larger than 1, got: 1e-05"},
        {"0.5.23", "--prompt-tokens-buckets tse 1 nan 3", "TSE base must be larger than 1, got: nan"},
        {"0.5.23", "--prompt-tokens-buckets tse 1 2 -0", "TSE count must be positive, got: 0"},
        {"0.5.23", "--prompt-tokens-buckets tse 1 2 -1", "TSE count must be positive, got: -1"},
        {"0.5.23", "--prompt-tokens-buckets tse 0 2 3", "TSE middle must be positive, got: 0.0"},
        {"0.5.23", "--prompt-tokens-buckets tse -.5 2 3", "TSE middle must be positive, got: -0.5"},
        {"0.5.23", "--prompt-tokens-buckets tse 1e-20 2 1e20", "TSE rule parameters must be"},
        {"0.5.23", "--prompt-tokens-buckets tse 1e400 2 3", NULL}, /* inf */
        {"0.5.23", "--prompt-tokens-buckets tse 1_0 2_0 +3_0", NULL},
        {"0.5.23", "--prompt-tokens-buckets default", NULL},
        {"0.5.23", "--prompt-tokens-buckets default 1", "default rule should only have one parameter: ['default'], "
         "got 2"},
        {"0.5.23", "--prompt-tokens-buckets custom", "custom rule requires at least one bucket value: ['custom', "
         "value1, ...]"},
        {"0.5.23", "--prompt-tokens-buckets custom x", "custom rule bucket values must be numeric"},
        {"0.5.23", "--prompt-tokens-buckets custom 1 1.0", "custom rule bucket values should not contain duplicates"},
        {"0.5.23", "--prompt-tokens-buckets custom 0 -0", "should not contain duplicates"},
        {"0.5.23", "--prompt-tokens-buckets custom nan nan", "should be non-negative"}, /* two NaNs are two values */
        {"0.5.23", "--prompt-tokens-buckets custom -1", "custom rule bucket values should be non-negative"},
        {"0.5.23", "--prompt-tokens-buckets custom 0 1.5 1e3 inf", NULL},
        {"0.5.23", "--prompt-tokens-buckets tse 1 2 3 --generation-tokens-buckets default x",
         "--generation-tokens-buckets default rule"},
        {"0.5.23", "--prompt-tokens-buckets custom 'a b'", "validate_buckets_rule on a list with a word that holds"},
        /* after the page size's check, before HiSparse's */
        {"0.5.23", "--prompt-tokens-buckets foo --chunked-prefill-size 100 --page-size 64", "divisible by page_size"},
        /* the metrics */
        {"0.5.3rc2", "--tokenizer-metrics-custom-labels-header '' --tokenizer-metrics-allowed-custom-labels a",
         "ValueError: Please set --tokenizer-metrics-custom-labels-header when setting "
         "--tokenizer-metrics-allowed-custom-labels."},
        {"0.5.23", "--tokenizer-metrics-custom-labels-header '' --tokenizer-metrics-allowed-custom-labels a",
         "Please set --tokenizer-metrics-custom-labels-header"},
        {"0.5.23", "--tokenizer-metrics-allowed-custom-labels a", NULL}, /* the header's default */
        {"0.5.23", "--tokenizer-metrics-custom-labels-header ''", NULL},
        {"0.5.5.post3", "--export-metrics-to-file",
         "ValueError: --export-metrics-to-file-dir is required when --export-metrics-to-file is enabled"},
        {"0.5.23", "--export-metrics-to-file", "--export-metrics-to-file-dir is required"},
        {"0.5.23", "--export-metrics-to-file --export-metrics-to-file-dir ''", NULL},
        {"0.5.6.post2", "--export-metrics-to-file --chunked-prefill-size 100 --page-size 64", "export-metrics-to-file-"},
        {"0.5.7", "--export-metrics-to-file --chunked-prefill-size 100 --page-size 64", "divisible by page_size"},
        {"0.5.23", "--export-metrics-to-file --enable-two-batch-overlap --moe-a2a-backend deepep --tp 8 --dp 8 "
         "--enable-dp-attention", "--export-metrics-to-file-dir is required"}, /* before two-batch overlap's */
    };
    expect_verdicts("deepseek-v3.2", B, COUNT_OF(B));
    kvc_resolved r;
    kvc_diag d;
    /* the refusal points at the list */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --generation-tokens-buckets foo", "0.5.18", &r, &d),
                     KVC_ERR_CONFIG);
    assert_int_equal(d.column, 8);
}

/* check_load_publish_args (0.5.19+), the last of check_server_args' checks (publish.c); every case below agrees with
 * the oracle (SGLang's own code over 0.5.19-0.5.23), declines aside; a key escaped as \u0000 is no field's. */
static void test_rules__load_publish_checks(void **state)
{
    (void)state;
#define KVE(json) " --kv-events-config '" json "'"
    static const release_case P[] = {
        {"0.5.18", "--load-publish-endpoint auto", "unrecognized arguments: --load-publish-endpoint"},
        {"0.5.19", "--load-publish-endpoint auto", "ValueError: --load-publish-endpoint requires --kv-events-config: "
         "routers discover the load range through /server_info's kv_events block, absent without a publisher."},
        {"0.5.23", "--load-publish-endpoint ' OFF '" KVE("notjson"), NULL}, /* stripped, any case: nothing checked */
        /* pydantic's ValidationError text depends on its release: declined */
        {"0.5.23", "--load-publish-endpoint auto --kv-events-config notjson", "cannot judge this worker"},
        {"0.5.21", "--load-publish-endpoint auto" KVE("{\"publisher\":\"null\"}"), "ValueError: --load-publish-endpoint "
         "needs an active --kv-events-config publisher; got publisher='null' or an empty endpoint."},
        {"0.5.23", "--load-publish-endpoint AUTO" KVE("{\"publisher\":\"zmq\",\"endpoint\":\"tcp://localhost:5557\"}"),
         "ValueError: --load-publish-endpoint=auto needs a bindable wildcard-host tcp:// --kv-events-config endpoint "
         "to pack after; 'tcp://localhost:5557' is not one"},
        /* 0.5.22+: num_dp_ranks_of = dp_size x attn_dp_size; IPv6 wildcard bound */
        {"0.5.22", "--tp 2 --attn-dp-size 2 --load-publish-endpoint tcp://[::]:5558" KVE("{\"publisher\":\"zmq\"}"),
         "ValueError: --load-publish-endpoint range [5558, 5560) overlaps the kv-events range [5557, 5559)"},
        {"0.5.19", "--load-publish-endpoint tcp://*:6000" KVE("{\"publisher\":\"zmq\",\"endpoint\":\"ipc:///tmp/x\"}"),
         "ValueError: --load-publish-endpoint='tcp://*:6000' needs a routable tcp:// --kv-events-config endpoint: "
         "routers discover the load range through /server_info's kv_events block, absent for endpoint "
         "'ipc:///tmp/x', so the socket would be bound but never advertised"},
        {"0.5.23", "--load-publish-endpoint tcp://[::1]:6000" KVE("{\"publisher\":\"zmq\"}"), "ValueError: "
         "--load-publish-endpoint='tcp://[::1]:6000' is not a bindable tcp:// address (a concrete host would be "
         "connected to, not bound)"},
        /* auto packs after the replay range it overlaps: 65534 + 1 -> 65535 + 1 */
        {"0.5.23", "--load-publish-endpoint auto" KVE("{\"publisher\":\"zmq\",\"endpoint\":\"tcp://*:65534\","
         "\"replay_endpoint\":\"tcp://*:65535\"}"), "ValueError: load port range from 65536 would run past the u16 "
         "ceiling"},
        {"0.5.20", "--dp-size 100000000000000000000 --load-publish-endpoint auto" KVE("{\"publisher\":\"zmq\"}"),
         "load port range from 100000000000000005557 would run past the u16 ceiling"}, /* Python's ints */
        {"0.5.23", "--load-publish-endpoint tcp://*:6_000" KVE("{\"publisher\":\"zmq\",\"bind\":true,\"format\":"
         "\"dynamo\"}"), NULL}, /* int("6_000") */
        /* format is a Literal field from 0.5.22 (pydantic refuses "other": declined), an ignored key before */
        {"0.5.23", "--load-publish-endpoint tcp://*:5557" KVE("{\"publisher\":\"zmq\",\"format\":\"other\"}"),
         "cannot judge this worker"},
        {"0.5.21", "--load-publish-endpoint tcp://*:5557" KVE("{\"publisher\":\"zmq\",\"format\":\"other\"}"),
         "ValueError: --load-publish-endpoint range [5557, 5558) overlaps the kv-events range [5557, 5558)"},
        /* where it sits: after the gRPC port's and the kv canary's checks */
        {"0.5.23", "--tp 8 --grpc-port 30000 --load-publish-endpoint auto", "--grpc-port (30000) must differ"},
        {"0.5.23", "--tp 8 --kv-canary-sweep-interval 5 --load-publish-endpoint auto", "requires --kv-canary in"},
        {"0.5.23", "--load-publish-endpoint auto" KVE("{\"publisher\":\"zmq\",\"endpoint\\u0000\":\"x\"}"), NULL},
    };
    expect_verdicts("deepseek-v3.2", P, COUNT_OF(P));
    /* the scheduler reads the config in every release, load publishing or not: what would fail there is a warning */
    static const struct {
        const char *release, *args, *warning;
    } W[] = {{"0.5.3rc2", KVE("notjson"), "scheduler reads it as a KVEventsConfig when it starts"},
             {"0.5.18", KVE("{\"publisher\":\"kafka\"}"), "starts only the \"null\" and \"zmq\" event publishers"},
             {"0.5.23", KVE("{\"publisher\":\"zmq\",\"hwm\":\"5\"}"), "cannot show that pydantic takes this value"},
             {"0.5.23", KVE("{\"publisher\":\"zmq\",\"hwm\":5}"), NULL}};
    for (size_t i = 0; i < COUNT_OF(W); i++) {
        kvc_resolved r;
        kvc_diag d;
        assert_int_equal(resolve_line("H200", "deepseek-v3.2", W[i].args, W[i].release, &r, &d), KVC_OK);
        int warned = 0;
        for (unsigned k = 0; k < r.nwarnings; k++) warned |= strstr(r.warnings[k], "--kv-events-config: SGLang") != NULL;
        if (W[i].warning ? !warned : warned) fail_msg("case %zu: %u warnings", i, r.nwarnings);
        for (unsigned k = 0; W[i].warning && k < r.nwarnings; k++)
            if (strstr(r.warnings[k], "--kv-events-config: SGLang")) assert_contains(r.warnings[k], W[i].warning);
    }
#undef KVE
}

/* The media URL policy (media.c, 0.5.18+), early in the resolution (before the watermark's loader): the size, then
 * each domain in order as _normalize_media_domain reads it; every case run against the oracle. */
static void test_rules__media_url_policy(void **state)
{
    (void)state;
#define D "--allowed-media-domains "
#define A31 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define A32 A31 "a"
    static const release_case M[] = {
        {"0.5.17", "--media-url-max-file-size-mb -1", "unrecognized arguments"},
        {"0.5.18", "--media-url-max-file-size-mb -1 " D "a/b", "ValueError: media_url_max_file_size_mb must be "
         "non-negative"},
        {"0.5.23", "--media-url-max-file-size-mb 0", NULL},
        {"0.5.23", D "a/b --watermark-config {x}", "ValueError: Invalid allowed media domain 'a/b': provide a hostname "
         "only"},
        {"0.5.23", D "example.com.\xc2\xa0 Example.COM [::1] fe80::1%eth0 10.0.0.01 [1.2.3.4] xn--abc.com", NULL},
        {"0.5.21", D "ok.com x:y bad/", "ValueError: Invalid allowed media domain 'x:y': ports are not supported"},
        {"0.5.23", D "[::1]:80", "Invalid allowed media domain '[::1]:80': ports are not supported"},
        {"0.5.23", D "..", "ValueError: allowed media domains cannot be empty"},
        {"0.5.23", D "[]", "ValueError: allowed media domains cannot be empty"}, /* the name's own check */
        {"0.5.23", D "a..b", "ValueError: Invalid allowed media domain 'a..b'"},
        {"0.5.23", D "com." A32 A32, "ValueError: Invalid allowed media domain 'com." A32 A32 "'"},
        {"0.5.23", D "com." A32 A31, NULL},
        {"0.5.23", D "'a b'", "does not model"},
        {"0.5.23", D "b\xc3\xbc" "cher.de", "does not model"}, /* IDNA's nameprep */
    };
#undef D
#undef A32
#undef A31
    expect_verdicts("deepseek-v3.2", M, COUNT_OF(M));
}

/* Watermarking (watermark.c, 0.5.22+): the config's loader early in the resolution (before the page size's check),
 * --enable-watermark's checks after the kv canary's; a file SGLang reads on the worker's host, a config that is not
 * UTF-8, and a device other than a GPU are declined; the key is never repeated. Every case run against the oracle. */
static void test_rules__watermark_checks(void **state)
{
    (void)state;
#define WM "--enable-watermark --watermark-config "
#define Z40 "0000000000000000000000000000000000000000"
#define Z520 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40 Z40
    static const release_case W[] = {
        {"0.5.21", "--enable-watermark", "unrecognized arguments: --enable-watermark"},
        {"0.5.23", "--enable-watermark", NULL},
        {"0.5.22", "--watermark-config {}", "ValueError: --watermark-config requires --enable-watermark"},
        {"0.5.22", "--watermark-config {} --chunked-prefill-size 1000", "chunked_prefill_size must be divisible"},
        {"0.5.23", "--watermark-config '{\"key\":\"zz\"}' --chunked-prefill-size 1000",
         "WatermarkConfigError: watermark key must contain only hex digits"}, /* the loader comes first */
        {"0.5.23", "--enable-watermark --disaggregation-mode prefill --chunked-prefill-size 1000",
         "chunked_prefill_size must be divisible by page_size"}, /* the checks come last */
        {"0.5.23", "--enable-watermark --disaggregation-mode prefill --kv-canary-sweep-interval 5",
         "--kv-canary-sweep-interval requires --kv-canary"},
        {"0.5.22", "--enable-watermark --disaggregation-mode decode --device cuda", "ValueError: --enable-watermark is "
         "not supported with PD disaggregation"},
        {"0.5.23", WM "'{x}'", "WatermarkConfigError: failed to read watermark config JSON"},
        {"0.5.23", WM "'{\"key\":01}'", "failed to read watermark config JSON"},
        {"0.5.23", WM "'[1]'", "SGLang 0.5.23 reads the file it names"}, /* not '{': a path */
        {"0.5.23", WM "/etc/wm.json", "cannot judge this worker"},
        {"0.5.23", WM "''", "WatermarkConfigError: failed to read watermark config JSON"}, /* ".": a directory */
        {"0.5.23", WM "'{\"key\":\"\xff\xfe\"}'", "UnicodeEncodeError: 'utf-8' codec can't encode characters in "
         "position 8-9: surrogates not allowed"},
        {"0.5.23", WM "'{\"key\":\"1\",\"key_b\":\"2\",\"mixing_probability\":1" Z520 "e-600}'", "cannot judge"},
        {"0.5.23", WM "'{\"mixing_probability\":1" Z520 "e-600,\"max_probability\":\"1\"}'", "max_probability must "
         "be a number"}, /* the loader's refusal before the value kvcheck does not read */
        {"0.5.23", WM "' {\"foo\":1}'", "WatermarkConfigError: watermark config contains unknown fields"},
        {"0.5.23", WM "'{\"key\":12}'", "watermark key must be a hex string"},
        {"0.5.23", WM "'{\"key\":\"0x\"}'", "watermark key must contain 1 to 16 hex digits"},
        {"0.5.23", WM "'{\"key\":\"0x12345678901234567\"}'", "watermark key must contain 1 to 16 hex digits"},
        {"0.5.23", WM "'{\"key\":\"\\u0030X0123456789abcdef\"}'", NULL},
        {"0.5.23", WM "'{\"key\":\"\\u00e9\"}'", "watermark key must contain only hex digits"},
        {"0.5.23", WM "'{\"context_window\":4.0}'", "context_window must be an integer from 1 to 64"},
        {"0.5.23", WM "'{\"context_window\":true}'", "context_window must be an integer from 1 to 64"},
        {"0.5.23", WM "'{\"context_window\":64}'", NULL},
        {"0.5.23", WM "'{\"max_probability\":\"1\"}'", "watermark config max_probability must be a number"},
        {"0.5.23", WM "'{\"enforce_all\":1}'", "watermark config enforce_all must be a boolean"},
        {"0.5.23", WM "'{\"key\":\"a\",\"key\":null,\"key_b\":\"b\"}'", "ValueError: watermark key_b requires "
         "a server key"}, /* the last value is the dict's */
        {"0.5.23", WM "'{\"key\":\"a\",\"key_b\":\"b\",\"mixing_probability\":1}'",
         "watermark mixing_probability must be strictly between 0 and 1"},
        {"0.5.23", WM "'{\"key\":\"a\",\"key_b\":\"b\",\"mixing_probability\":NaN}'",
         "watermark mixing_probability must be strictly between 0 and 1"},
        {"0.5.23", WM "'{\"mixing_probability\":0.3}'", "ValueError: watermark mixing_probability requires key_b"},
        {"0.5.23", WM "'{\"max_probability\":-Infinity}'", "max_probability must be greater than 0 and at most 1"},
        {"0.5.23", WM "'{\"max_probability\":1}'", NULL},
        {"0.5.23", WM "'{\"default_enabled\":true}'", "default_enabled and enforce_all require a server key"},
        {"0.5.23", WM "'{\"default_enabled\":false,\"enforce_all\":null}'", NULL},
        {"0.5.23", "--enable-watermark --enable-custom-logit-processor", "is incompatible with "
         "--enable-custom-logit-processor"},
        {"0.5.23", "--enable-watermark --speculative-algorithm STANDALONE --speculative-draft-model-path /fake/model",
         "supports speculative algorithms NGRAM, EAGLE, and EAGLE3, got 'STANDALONE'"},
        {"0.5.23", "--enable-watermark --speculative-algorithm NEXTN", NULL},
        {"0.5.23", "--enable-watermark --speculative-algorithm EAGLE --speculative-use-rejection-sampling",
         "ValueError: --enable-watermark is incompatible with --speculative-use-rejection-sampling"},
        {"0.5.23", "SGLANG_ENABLE_PP_SPEC=1 --enable-watermark --pp-size 2 --speculative-algorithm EAGLE "
         "--disable-overlap-schedule", "not supported with pipeline-parallel speculative decoding"},
        {"0.5.22", "SGLANG_RUST_SERVER=1 --enable-watermark", "not supported with SGLANG_RUST_SERVER"},
        {"0.5.23", "SGLANG_RUST_SERVER=maybe --enable-watermark", NULL},
        {"0.5.23", "--device cpu", "--device cpu: SGLang runs this worker on that device"},
        {"0.5.3rc2", "--device npu", "cannot judge this worker"},
        {"0.5.23", "--device cuda", NULL},
        {"0.5.23", "--enable-watermark --dllm-algorithm LowConfidence", "SGLang 0.5.23 serves a diffusion LLM"},
        {"0.5.6", "--dllm-algorithm LowConfidence", "cannot judge this worker"},
        {"0.5.5.post3", "--dllm-algorithm LowConfidence", "unrecognized arguments: --dllm-algorithm"},
    };
#undef WM
#undef Z520
#undef Z40
    expect_verdicts("deepseek-v3.2", W, COUNT_OF(W));
    /* ROCm turns rejection sampling on for EAGLE (NEXTN) at top-k 1 from 0.5.21 */
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("MI300X", "deepseek-v3.2", "--speculative-algorithm NEXTN --enable-watermark", "0.5.22",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "--enable-watermark is incompatible with --speculative-use-rejection-sampling");
    assert_string_equal(d.where, "--speculative-algorithm");
    /* unless a token map, accept thresholds other than 1.0 or SGLANG_SIMULATE_ACC_LEN above 0 stop it */
    static const char *const KEPT_OFF[] = {"--speculative-token-map x.pt", "--speculative-accept-threshold-single 0.5",
                                           "--speculative-accept-threshold-acc 0.9", "SGLANG_SIMULATE_ACC_LEN=3"};
    for (size_t i = 0; i < COUNT_OF(KEPT_OFF); i++) {
        char line[160];
        snprintf(line, sizeof line, "%s --speculative-algorithm EAGLE --enable-watermark", KEPT_OFF[i]);
        if (resolve_line("MI300X", "deepseek-v3.2", line, "0.5.23", &r, &d) != KVC_OK) fail_msg("%s: %s", line, d.message);
    }
    /* the key is never repeated */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--watermark-config '{\"key\":\"c0ffee\"}'", "0.5.23", &r,
                                  &d), KVC_ERR_CONFIG);
    assert_null(strstr(d.message, "c0ffee"));
}

/* Rejection sampling's checks in the EAGLE family handler (0.5.14+) and block verification's (0.5.22+), which turns
 * rejection sampling on for EAGLE and EAGLE3 (spec_hook.c); every case run against the oracle. */
static void test_rules__rejection_sampling(void **state)
{
    (void)state;
#define REJ "--speculative-algorithm EAGLE --speculative-use-rejection-sampling "
#define BV "--speculative-use-block-verification"
#define TOPK2 " --speculative-eagle-topk 2 --speculative-num-steps 2 --speculative-num-draft-tokens 4"
    static const release_case R[] = {
        {"0.5.13", REJ, "unrecognized arguments: --speculative-use-rejection-sampling"},
        {"0.5.14", REJ, NULL},
        {"0.5.23", REJ "--speculative-accept-threshold-single 1", NULL},
        {"0.5.14", REJ "--speculative-accept-threshold-single 0.5", "ValueError: --speculative-use-rejection-sampling "
         "is incompatible with --speculative-accept-threshold-single / --speculative-accept-threshold-acc; rejection "
         "sampling ignores the accept thresholds."},
        {"0.5.23", REJ "--speculative-accept-threshold-acc nan", "is incompatible with --speculative-accept-threshold"},
        {"0.5.16", REJ TOPK2, "ValueError: --speculative-use-rejection-sampling requires --speculative-eagle-topk=1."},
        /* the top-k check comes before the thresholds', and meets a None top-k before the page's comparison */
        {"0.5.23", REJ TOPK2 " --speculative-accept-threshold-acc 0.3", "requires --speculative-eagle-topk=1."},
        {"0.5.21", REJ "--speculative-num-steps 2", "requires --speculative-eagle-topk=1."},
        {"0.5.21", "--speculative-algorithm EAGLE --speculative-num-steps 2", "TypeError: '>' not supported"},
        {"0.5.23", REJ "--speculative-eagle-topk 1 --speculative-num-steps 2 --speculative-num-draft-tokens 4", NULL},
        {"0.5.14", REJ "--enable-multi-layer-eagle", "NotImplementedError: --speculative-use-rejection-sampling is not "
         "supported with multi-layer EAGLE (--enable-multi-layer-eagle)."},
        {"0.5.15", "--speculative-algorithm STANDALONE --speculative-draft-model-path /fake/model "
         "--speculative-use-rejection-sampling", "NotImplementedError: --speculative-use-rejection-sampling is only "
         "supported for EAGLE / EAGLE3 / NEXTN, not speculative_algorithm=STANDALONE."},
        {"0.5.23", "--speculative-algorithm NGRAM --speculative-use-rejection-sampling --speculative-ngram-max-bfs-breadth "
         "1", NULL}, /* NGRAM's handler does not read it */
        {"0.5.21", BV, "unrecognized arguments: --speculative-use-block-verification"},
        {"0.5.22", BV, "ValueError: --speculative-use-block-verification only supports EAGLE / EAGLE3 / NEXTN / DFLASH "
         "/ DSPARK."},
        {"0.5.23", "--speculative-algorithm NGRAM " BV, "only supports EAGLE / EAGLE3 / NEXTN / DFLASH / DSPARK."},
        {"0.5.22", "--speculative-algorithm nextn " BV, NULL},
        {"0.5.22", "--speculative-algorithm EAGLE " BV " --speculative-accept-threshold-acc 0.5",
         "is incompatible with --speculative-accept-threshold-single"},
        {"0.5.23", "--speculative-algorithm NEXTN " BV TOPK2, "requires --speculative-eagle-topk=1."},
        {"0.5.22", "--speculative-algorithm EAGLE " BV " --enable-watermark",
         "ValueError: --enable-watermark is incompatible with --speculative-use-rejection-sampling"},
    };
    expect_verdicts("deepseek-v3.2", R, COUNT_OF(R));
    /* each refusal points at the flag it is about */
    static const struct {
        const char *args, *where;
    } BLAME[] = {{REJ "--speculative-accept-threshold-acc 0.5", "--speculative-accept-threshold-acc"},
                 {REJ "--speculative-num-steps 2", "--speculative-num-steps"},
                 {"--speculative-algorithm NGRAM " BV, BV},
                 {"--speculative-algorithm EAGLE " BV " --enable-watermark", BV}};
#undef TOPK2
#undef BV
#undef REJ
    kvc_resolved r;
    kvc_diag d;
    for (size_t i = 0; i < COUNT_OF(BLAME); i++) {
        assert_int_equal(resolve_line("H200", "deepseek-v3.2", BLAME[i].args, "0.5.23", &r, &d), KVC_ERR_CONFIG);
        assert_string_equal(d.where, BLAME[i].where);
    }
    /* SGLang warns about an SGLANG_SIMULATE_ACC_LEN float() refuses, and reads it as -1: ROCm's default stays on */
    assert_int_equal(resolve_line("MI300X", "deepseek-v3.2", "SGLANG_SIMULATE_ACC_LEN=fast --speculative-algorithm "
                                  "EAGLE --enable-watermark", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "--enable-watermark is incompatible with --speculative-use-rejection-sampling");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_SIMULATE_ACC_LEN=fast --speculative-algorithm EAGLE",
                                  "0.5.21", &r, &d), KVC_OK);
    int warned = 0;
    for (unsigned i = 0; i < r.nwarnings; i++)
        warned |= strstr(r.warnings[i], "Invalid value for SGLANG_SIMULATE_ACC_LEN: \"fast\" is not a valid float "
                         "value, using default \"-1\"") != NULL;
    assert_true(warned);
    /* NaN is not at most 0, and a long value is read whole: both stop ROCm's default (helper-82's M1, M2) */
    static const char *const STOPPED[] = {"SGLANG_SIMULATE_ACC_LEN=nan", "SGLANG_SIMULATE_ACC_LEN=0.000000000000000000"
                                          "00000000000000000000000000000000000000000000000000001"};
    for (size_t i = 0; i < COUNT_OF(STOPPED); i++) {
        char line[200];
        snprintf(line, sizeof line, "%s --speculative-algorithm EAGLE --enable-watermark", STOPPED[i]);
        if (resolve_line("MI300X", "deepseek-v3.2", line, "0.5.23", &r, &d) != KVC_OK) fail_msg("%s: %s", line, d.message);
    }
    /* DeepSeek-V4's speculative hook checks the window before rejection sampling, as every model's does (M3) */
    assert_int_equal(resolve_line("B200", "tests/conformance/sglang/models/DSV4.json", "--speculative-algorithm EAGLE "
                                  "--speculative-use-rejection-sampling --speculative-eagle-topk 1 "
                                  "--speculative-num-steps 3 --speculative-num-draft-tokens 4 "
                                  "--speculative-accept-threshold-single 0.5 --speculative-draft-window-size 0", "0.5.23",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "--speculative-draft-window-size must be positive, got 0.");
    /* and the check table's warning is gone: kvcheck models every check that reads these flags */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--speculative-algorithm EAGLE "
                                  "--speculative-use-rejection-sampling --speculative-use-block-verification "
                                  "--speculative-accept-threshold-single 1 --speculative-accept-threshold-acc 1.0",
                                  "0.5.23", &r, &d), KVC_OK);
    for (unsigned i = 0; i < r.nwarnings; i++) assert_null(strstr(r.warnings[i], "which kvcheck does not model"));
}

/* The speculative hook's draft window (0.5.13+) and sink (0.5.21+), checked for any algorithm, none included, after
 * block verification's; SGLang's warning where the algorithm does not honour the window (spec_hook.c). Every case
 * run against the oracle. */
static void test_rules__speculative_window(void **state)
{
    (void)state;
    static const release_case W[] = {
        {"0.5.12", "--speculative-draft-window-size 0", NULL}, /* DFLASH's check only */
        {"0.5.13", "--speculative-draft-window-size 0", "ValueError: --speculative-draft-window-size must be positive, "
         "got 0."},
        {"0.5.23", "--speculative-draft-window-size -3", "must be positive, got -3."},
        {"0.5.23", "--speculative-draft-window-size 00", "must be positive, got 0."},
        {"0.5.20", "--speculative-draft-sink-size 4", "unrecognized arguments: --speculative-draft-sink-size"},
        {"0.5.21", "--speculative-draft-sink-size 4", "ValueError: --speculative-draft-sink-size requires "
         "--speculative-draft-window-size."},
        {"0.5.23", "--speculative-draft-sink-size -1", "ValueError: --speculative-draft-sink-size must be "
         "non-negative, got -1."}, /* the sign first */
        {"0.5.23", "--speculative-draft-window-size 0 --speculative-draft-sink-size -1", "must be positive, got 0."},
        {"0.5.23", "--speculative-draft-window-size 8 --speculative-draft-sink-size 0", NULL},
        {"0.5.23", "--speculative-use-block-verification --speculative-draft-window-size 0", "only supports EAGLE"},
        {"0.5.16", "--speculative-dflash-draft-window-size 0", "must be positive, got 0."}, /* its alias */
    };
    expect_verdicts("deepseek-v3.2", W, COUNT_OF(W));
    static const struct {
        const char *release, *args, *warning; /* NULL: none */
    } NOTES[] = {
        {"0.5.13", "--speculative-algorithm NEXTN --speculative-draft-window-size 16", "SGLang warns "
         "\"--speculative-draft-window-size has no effect with speculative_algorithm=EAGLE (honored by Llama EAGLE-3 "
         "and DFLASH only).\""},
        {"0.5.21", "--speculative-algorithm NEXTN --speculative-draft-window-size 16", NULL},
        {"0.5.23", "--speculative-draft-window-size 8", "has no effect with speculative_algorithm=None (honored by "
         "DFLASH, Llama EAGLE-3, and the EAGLE/MTP/NEXTN draft-decode path on the Triton/FlashInfer draft backends)."},
    };
    kvc_resolved r;
    kvc_diag d;
    for (size_t i = 0; i < COUNT_OF(NOTES); i++) {
        if (resolve_line("H200", "deepseek-v3.2", NOTES[i].args, NOTES[i].release, &r, &d) != KVC_OK)
            fail_msg("%s '%s': %s", NOTES[i].release, NOTES[i].args, d.message);
        int warned = 0;
        for (unsigned k = 0; k < r.nwarnings; k++) warned |= strstr(r.warnings[k], "has no effect with") != NULL;
        assert_int_equal(warned, NOTES[i].warning != NULL);
        for (unsigned k = 0; NOTES[i].warning && k < r.nwarnings; k++)
            if (strstr(r.warnings[k], "has no effect with")) assert_contains(r.warnings[k], NOTES[i].warning);
    }
}

/* The pipeline's early single-flag checks (early.c, 0.5.19+): after the watermark's loader and the media URL policy,
 * before the page size's and check_server_args' checks. Every case run against the oracle. */
static void test_rules__early_checks(void **state)
{
    (void)state;
    static const release_case E[] = {
        {"0.5.21", "--hicache-host-memory-fraction 0", "ValueError: --hicache-host-memory-fraction must be in (0, 1]."},
        {"0.5.23", "--hicache-host-memory-fraction nan", "must be in (0, 1]."},
        {"0.5.23", "--hicache-host-memory-fraction 1", NULL},
        {"0.5.23", "--hicache-host-memory-fraction 0 --prefill-decode-interval -1", "must be in (0, 1]."},
        {"0.5.18", "--prefill-decode-interval -1", "unrecognized arguments: --prefill-decode-interval -1"},
        {"0.5.19", "--prefill-decode-interval -1", "ValueError: --prefill-decode-interval must be non-negative."},
        {"0.5.23", "--prefill-decode-interval -1 --tp 8 --nnodes 3", "--prefill-decode-interval must be non-negative."},
        {"0.5.23", "--prefill-decode-interval-min-bs -1", "ValueError: --prefill-decode-interval-min-bs must be "
         "non-negative."},
        {"0.5.20", "--enable-response-store --disaggregation-mode decode", "ValueError: --enable-response-store is not "
         "supported with --disaggregation-mode=prefill or decode; response storage must remain disabled in PD mode."},
        {"0.5.23", "--enable-response-store --disaggregation-mode null", NULL},
        {"0.5.23", "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS= --enable-response-store", "ValueError: "
         "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported. Unset it."},
        {"0.5.19", "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS=4", NULL},
        {"0.5.20", "--sampling-mask-max-tokens 0", "ValueError: --sampling-mask-max-tokens must be positive (got 0)."},
        {"0.5.23", "--sampling-mask-max-tokens -5 --device cpu", "must be positive (got -5)."}, /* before the decline */
        {"0.5.23", "--watermark-config {x} --hicache-host-memory-fraction 0", "failed to read watermark config JSON"},
        /* CPU offloading (0.5.20+), between the fraction and the interval: the PLE table with layer offload, and the
         * file backend with the table explicitly not offloaded (None, never given, passes) */
        {"0.5.23", "--tp 8 --cpu-offload-gb 10 --ple-offload-embedding", "ValueError: --ple-offload-embedding cannot "
         "be combined with --cpu-offload-gb or --offload-group-size: generic layer offload would stage the pinned PLE "
         "embedding back to the device."},
        {"0.5.20", "--offload-group-size 4 --ple-offload-embedding --prefill-decode-interval -1",
         "--ple-offload-embedding cannot be combined"},
        {"0.5.21", "--cpu-offload-gb -1 --offload-group-size 0 --ple-offload-embedding", "ValueError: "
         "--ple-offload-embedding only supports Qwen4ExpForConditionalGeneration"}, /* at the model's load */
        {"0.5.22", "--cpu-offload-gb 10 --ple-offload-embedding --no-ple-offload-embedding", NULL},
        {"0.5.19", "--cpu-offload-gb 10", NULL},
        {"0.5.22", "--ple-offload-backend file --no-ple", "ValueError: --ple-offload-backend file requires "
         "--ple-offload-embedding: the file-backed table is the offloaded table."},
        {"0.5.23", "--ple-offload-backend file", NULL},
        {"0.5.23", "--ple-offload-backend file --no-ple-offload-embedding --ple-offload-embedding",
         "only supports Qwen4ExpForConditionalGeneration"},
        {"0.5.21", "--hicache-host-memory-fraction 0 --ple-offload-backend file --no-ple", "must be in (0, 1]."},
    };
    expect_verdicts("deepseek-v3.2", E, COUNT_OF(E));
}

/* The data parallelism handler's last checks (lm_head.c): the DP LM head needs attention DP, the TP LM head
 * all-to-all (0.5.18+) attention DP, no DP LM head, TP equal to the attention DP size and no attention CP; one DP rank
 * turns the DP LM head off first. Every case run against the oracle. */
static void test_rules__lm_head_checks(void **state)
{
    (void)state;
    static const release_case L[] = {
        {"0.5.23", "--enable-dp-lm-head", NULL}, /* one DP rank: turned off */
        {"0.5.3rc2", "--tp 8 --dp 2 --enable-dp-lm-head", NULL}, /* the DeepSeek family's DP attention up to 0.5.7 */
        {"0.5.8", "--tp 8 --dp 2 --enable-dp-lm-head", "AssertionError: Please enable dp attention when setting "
         "enable_dp_lm_head. "},
        {"0.5.21", "--tp 8 --dp 2 --enable-dp-lm-head", "Please enable dp attention when setting enable_dp_lm_head."},
        {"0.5.22", "--tp 8 --dp 2 --enable-dp-lm-head", "AssertionError: --enable-dp-lm-head requires attention DP "
         "(--attn-dp-size)."},
        {"0.5.23", "--tp 8 --attn-dp-size 2 --enable-dp-lm-head", NULL},
        {"0.5.15", "--tp 8 --dp 2 --enable-dp-attention --enable-dp-lm-head", NULL},
        {"0.5.23", "--tp 8 --dp 3 --enable-dp-attention --enable-dp-lm-head", "AssertionError"}, /* tp % dp first */
        {"0.5.17", "--tp 8 --enable-tp-lm-head-all-to-all", "unrecognized arguments"},
        {"0.5.18", "--tp 8 --enable-tp-lm-head-all-to-all", "AssertionError: Please enable dp attention when setting "
         "enable_tp_lm_head_all_to_all."},
        {"0.5.23", "--tp 8 --enable-tp-lm-head-all-to-all", "AssertionError: --enable-tp-lm-head-all-to-all requires "
         "attention DP (--attn-dp-size)."},
        {"0.5.21", "--tp 8 --dp 4 --enable-dp-attention --enable-tp-lm-head-all-to-all", "AssertionError: "
         "--enable-tp-lm-head-all-to-all currently requires tp_size == dp_size, got tp_size=8, dp_size=4."},
        {"0.5.23", "--tp 8 --attn-dp-size 4 --enable-tp-lm-head-all-to-all", "currently requires tp_size == "
         "attn_dp_size, got tp_size=8, attn_dp_size=4."},
        {"0.5.23", "--tp 8 --dp 8 --enable-dp-attention --enable-dp-lm-head --enable-tp-lm-head-all-to-all",
         "AssertionError: --enable-tp-lm-head-all-to-all uses a TP-sharded LM head and is incompatible with "
         "--enable-dp-lm-head."},
        {"0.5.23", "--tp 8 --attn-dp-size 8 --enable-tp-lm-head-all-to-all", NULL},
        {"0.5.23", "--tp 8 --dp 8 --enable-dp-attention --disaggregation-mode decode --enable-dp-lm-head", NULL},
        /* sizes are Python's ints (helper-82's H1): past 19 digits the handler's modulo is declined */
        {"0.5.23", "--tp-size 36893488147419103232 --attn-dp-size 18446744073709551616 --enable-tp-lm-head-all-to-all",
         "does not model for sizes past 19 digits"},
        {"0.5.23", "--tp-size 36893488147419103232 --enable-tp-lm-head-all-to-all", "requires attention DP"},
    };
    expect_verdicts("deepseek-v3.2", L, COUNT_OF(L));
}

/* --radix-eviction-policy tlru's config (eviction.c, 0.5.21+), after the decode retraction backup's checks: ints and
 * booleans as Python compares and prints them, the last of a key given twice; other values declined. Every case run
 * against the oracle. */
static void test_rules__tlru_eviction(void **state)
{
    (void)state;
#define TLRU "--radix-eviction-policy tlru "
#define CFG "--radix-eviction-policy-config "
    static const release_case T[] = {
        {"0.5.20", TLRU, "invalid choice: 'tlru'"},
        {"0.5.21", TLRU, "ValueError: --radix-eviction-policy tlru needs 'threshold' greater than "
         "'next_prompt_estimate' in --radix-eviction-policy-config, got 0 <= 0; otherwise no tokens are ever TEL-safe and T-LRU is exactly "
         "LRU."},
        {"0.5.23", TLRU CFG "'{\"threshold\":5}'", NULL},
        {"0.5.23", TLRU CFG "'{\"threshold\":-5,\"next_prompt_estimate\":true}'", "ValueError: --radix-eviction-policy "
         "tlru requires non-negative 'threshold' and 'next_prompt_estimate' in --radix-eviction-policy-config, got -5 "
         "and True."},
        {"0.5.23", TLRU CFG "'{\"threshold\":true}'", NULL},
        {"0.5.23", TLRU CFG "'{\"threshold\":5,\"threshold\":-1}'", "got -1 and 0."},
        {"0.5.23", TLRU CFG "'{\"threshold\":10,\"next_prompt_estimate\":-0}'", NULL},
        {"0.5.23", TLRU CFG "'{\"threshold\":100000000000000000000000000000,\"next_prompt_estimate\":"
         "99999999999999999999999999999}'", NULL},
        {"0.5.23", TLRU CFG "'{\"threshold\":false,\"next_prompt_estimate\":-3}'", "got False and -3."},
        {"0.5.23", TLRU CFG "null", "got 0 <= 0"},
        {"0.5.23", TLRU CFG "'{\"threshold\":1.5}'", "cannot judge this worker"},
        {"0.5.23", TLRU "--enable-hierarchical-cache --disable-radix-cache", "got 0 <= 0"}, /* before HiCache's */
        {"0.5.23", "--radix-eviction-policy lru " CFG "'{\"threshold\":-5}'", NULL},
    };
#undef CFG
#undef TLRU
    expect_verdicts("deepseek-v3.2", T, COUNT_OF(T));
}

/* check_lora_server_args, release by release (SGLang's words; the oracle's runs over ten releases agree), and
 * 0.5.23's LoRA MoE runner checks, which run with LoRA off too; a worker with LoRA on that passes them reaches the
 * LoRA manager, which kvcheck declines (MANAGER) */
#define MANAGER "then checks the LoRA manager's start-up (LoRAManager.init_state"
static void test_rules__lora_checks(void **state)
{
    (void)state;
    static const release_case L[] = {
        {"0.5.3rc2", "--max-loras-per-batch 0", "AssertionError: max_loras_per_batch must be positive"},
        {"0.5.23", "--max-loras-per-batch -3", "max_loras_per_batch must be positive"}, /* LoRA off too */
        {"0.5.8", "--lora-paths a=/x --enable-lora-overlap-loading", "AssertionError: Enabling LoRA overlap loading "
         "requires pinning LoRA adapter weights in CPU memory, so --max-loaded-loras must be less than or equal to "
         "double --max-loras-per-batch: 16"},
        {"0.5.23", "--lora-paths a=/x --enable-lora-overlap-loading --max-loaded-loras 16", MANAGER},
        {"0.5.23", "--lora-paths a=/x --enable-lora-overlap-loading --max-loaded-loras 5 --max-loras-per-batch 2",
         "double --max-loras-per-batch: 4"},
        {"0.5.5.post2", "--lora-paths a=/x --speculative-algorithm EAGLE", MANAGER},
        {"0.5.5.post3", "--lora-paths a=/x --speculative-algorithm NEXTN",
         "ValueError: Currently LoRA is only compatible with NGRAM speculative decoding."},
        {"0.5.18", "--lora-paths a=/x --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1", MANAGER},
        {"0.5.19", "--lora-paths a=/x --speculative-algorithm NEXTN", MANAGER},
        {"0.5.22", "--lora-paths a=/x --speculative-algorithm STANDALONE --speculative-draft-model-path /fake/model",
         "ValueError: LoRA is only compatible with NGRAM, EAGLE, NEXTN, EAGLE3, DFLASH, or DSPARK speculative "
         "decoding, not STANDALONE."},
        {"0.5.23", "--lora-paths a=/x --speculative-algorithm NEXTN --speculative-moe-runner-backend "
         "experimental_sgl_trtllm", "ValueError: LoRA with EAGLE/NEXTN/EAGLE3 speculative decoding does not support "
         "the experimental_sgl_trtllm MoE runner: its TopK reads the LoRA config per forward, which the draft "
         "resolves against the target's after its own publish ended."},
        {"0.5.19", "SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1 --lora-paths a=/x --speculative-algorithm EAGLE",
         "does not support SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1: LoRA batch preparation would run on the plan "
         "stream, unordered against in-flight forwards."},
        {"0.5.23", "SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1 --lora-paths a=/x", MANAGER},
        {"0.5.3rc2", "--enable-lora --lora-target-modules all q_proj --max-lora-rank 8", "AssertionError: If 'all' is "
         "specified in --lora-target-modules, it should be the only module specified."},
        {"0.5.23", "--enable-lora --lora-target-modules all all --max-lora-rank 8", MANAGER}, /* a set */
        {"0.5.23", "--enable-lora", "AssertionError: When no initial --lora-paths is provided, you need to specify both "
         "--max-lora-rank and --lora-target-modules for LoRA initialization."},
        {"0.5.23", "--enable-lora --max-lora-rank 0 --lora-target-modules q_proj", "When no initial --lora-paths"},
        {"0.5.23", "--enable-lora --max-lora-rank -1 --lora-target-modules q_proj", MANAGER},
        {"0.5.23", "--enable-lora --max-lora-rank 8 --lora-target-modules", "When no initial --lora-paths"},
        {"0.5.23", "--enable-lora --lora-paths", "When no initial --lora-paths"},
        {"0.5.23", "--lora-paths", NULL}, /* no path: LoRA stays off */
        {"0.5.18", "--lora-paths a=/x --max-loaded-loras 4", "AssertionError: max_loaded_loras should be greater than "
         "or equal to max_loras_per_batch. max_loaded_loras=4, max_loras_per_batch=8"},
        {"0.5.23", "--lora-paths a=/x --max-loaded-loras -4", "max_loaded_loras=-4, max_loras_per_batch=8"},
        {"0.5.23", "--lora-paths a=/x b=/y --max-loaded-loras 1 --max-loras-per-batch 1", "AssertionError: The number "
         "of LoRA paths should not exceed max_loaded_loras. max_loaded_loras=1, lora_paths=2"},
        {"0.5.23", "--lora-paths 'a=/my adapters/x' --max-loaded-loras 1 --max-loras-per-batch 1", MANAGER}, /* one */
        {"0.5.11", "--lora-paths a=/x --lora-use-virtual-experts", "AssertionError: --lora-use-virtual-experts "
         "requires --lora-backend triton. Got: csgmv"},
        {"0.5.11", "--lora-paths a=/x --lora-use-virtual-experts --lora-backend triton", MANAGER},
        {"0.5.12", "--lora-paths a=/x --lora-use-virtual-experts", MANAGER},
        {"0.5.12", "--lora-paths a=/x --lora-drain-wait-threshold -1",
         "AssertionError: --lora-drain-wait-threshold must be non-negative."},
        {"0.5.23", "--lora-paths a=/x --lora-drain-wait-threshold nan", "--lora-drain-wait-threshold must be"},
        {"0.5.23", "--lora-drain-wait-threshold -1", NULL},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --enable-two-batch-overlap",
         "ValueError: --lora-backend triton_v2 does not yet support two-batch overlap"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --tp 2 --attn-dp-size 2",
         "--lora-backend triton_v2 does not yet support DP-attention with --attn-dp-size > 1"},
        {"0.5.23", "SGLANG_EXPERIMENTAL_LORA_OPTI=1 --lora-paths a=/x --lora-backend triton_v2",
         "--lora-backend triton_v2 does not yet support SGLANG_EXPERIMENTAL_LORA_OPTI"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2", MANAGER},
        {"0.5.23", "--moe-runner-backend lora_triton",
         "ValueError: --moe-runner-backend lora_triton requires --enable-lora (or --lora-paths)"},
        {"0.5.23", "--moe-runner-backend lora_triton --lora-paths a=/x",
         "ValueError: --moe-runner-backend lora_triton requires --lora-backend triton_v2"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --moe-runner-backend lora_triton --enable-pdmux",
         "ValueError: --moe-runner-backend lora_triton does not yet support PD-multiplexing"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --moe-runner-backend lora_triton --moe-a2a-backend "
         "deepep", "ValueError: --moe-runner-backend lora_triton requires Standard dispatch, got --moe-a2a-backend "
         "deepep"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --moe-runner-backend lora_triton "
         "--ep-num-redundant-experts 1", "ValueError: --moe-runner-backend lora_triton currently requires trivial "
         "expert placement without EPLB or redundant experts"},
        {"0.5.23", "--lora-paths a=/x --lora-backend triton_v2 --moe-runner-backend lora_triton --init-expert-location "
         "/x.json", "currently requires trivial expert placement"},
        {"0.5.23", "--speculative-algorithm EAGLE --speculative-moe-runner-backend lora_triton",
         "ValueError: --speculative-moe-runner-backend lora_triton is not supported: the LoRA MoE runner serves "
         "adapter traffic on the target model"},
        /* experimental_sgl_marlin's own policy (0.5.16+, the runner's first release), which kvcheck declines */
        {"0.5.16", "--moe-runner-backend experimental_sgl_marlin --lora-paths a", "then checks experimental_sgl_marlin's "
         "LoRA and expert-parallel policy (validate_experimental_sgl_marlin_server_args)"},
        /* where it sits: after the served model name's check and --moe-dense-tp-size's, before the page size's */
        {"0.5.23", "--lora-paths a=/x --max-loaded-loras 4 --chunked-prefill-size 100 --page-size 64",
         "max_loaded_loras should be greater than or equal"},
        {"0.5.23", "--lora-paths a=/x --max-loaded-loras 4 --served-model-name a:b", "served_model_name cannot"},
        {"0.5.23", "--lora-paths a=/x --max-loaded-loras 4 --moe-dense-tp-size 3", "moe_dense_tp_size only supports"},
        {"0.5.23", "--lora-paths a=/x --speculative-algorithm EAGLE --kv-cache-dtype fp8_e5m2",
         "DeepSeek DSA only supports"},
        /* LoRAPathAction at parse time */
        {"0.5.3rc2", "--lora-paths '{\"lora_name\":\"a\"}'", "AssertionError: '{\"lora_name\":\"a\"}' looks like a "
         "JSON str, but it does not contain 'lora_name' and 'lora_path' keys."},
        {"0.5.23", "--bogus --lora-paths ' {\"lora_path\":\"/x\"} '", "AssertionError: '{\"lora_path\":\"/x\"}' looks"},
        {"0.5.23", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"/x\"}' --max-loaded-loras 4",
         "max_loaded_loras=4"},
        {"0.5.23", "--lora-paths '{bad}'", "SGLang 0.5.23 stops: JSONDecodeError: Expecting property name enclosed in "
         "double quotes: line 1 column 2 (char 1)"},
        /* json.loads, not another JSON reader: leading zeros and raw control characters refused, NaN and lone
         * surrogates taken; str.strip() takes Unicode spaces (U+00A0) too */
        {"0.5.18", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"b\",\"x\":01}'",
         "JSONDecodeError: Expecting ',' delimiter: line 1 column 39 (char 38)"},
        {"0.5.18", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"b\",\"x\":1.}'", "Expecting ',' delimiter"},
        {"0.5.23", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"b\t\"}'",
         "JSONDecodeError: Invalid control character at: line 1 column 32 (char 31)"},
        {"0.5.18", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"b\",\"x\":NaN}' --max-loaded-loras 4",
         "max_loaded_loras=4"},
        {"0.5.18", "--lora-paths '{\"lora_name\":\"a\",\"lora_path\":\"\\ud800\"}' --max-loaded-loras 4",
         "max_loaded_loras=4"},
        {"0.5.18", "--lora-paths '{\"lora_name\":\"a\"}\u00a0'", "AssertionError: '{\"lora_name\":\"a\"}' looks"},
    };
    expect_verdicts("deepseek-v3.2", L, COUNT_OF(L));
    kvc_resolved r;
    kvc_diag d;
    /* the refusal points at the flag; no LoRA flag is left to the check-table warning */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --lora-paths a=/x --max-loaded-loras 4", "0.5.18",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_int_equal(d.column, 26);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--lora-paths a=/x --max-loaded-loras 8 --lora-backend "
                                  "triton --max-lora-chunk-size 32", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_non_null(strstr(d.message, MANAGER));
    assert_false(has_warning(&r, "start-up checks read"));
    /* the flag that asked for it: the speculative runner, the first placement flag that is not trivial */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--lora-paths a --speculative-algorithm NEXTN "
                                  "--speculative-moe-runner-backend experimental_sgl_trtllm", "0.5.19", &r, &d),
                     KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--speculative-moe-runner-backend");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--lora-paths a --lora-backend triton_v2 --moe-runner-backend "
                                  "lora_triton --init-expert-location trivial --ep-num-redundant-experts 2", "0.5.23",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--ep-num-redundant-experts");
    /* SGLang's warning for an environment value it does not take, where it reads it */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_ENABLE_OVERLAP_PLAN_STREAM=maybe --lora-paths a=/x "
                                  "--speculative-algorithm EAGLE", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_true(has_warning(&r, "Invalid value for SGLANG_ENABLE_OVERLAP_PLAN_STREAM"));
}

/* The LoRA manager's refusals of DP attention (0.5.21+, SGLang's words; the oracle runs them from each release's
 * LoRAManager.__init__), then kvcheck's decline of a worker with LoRA on */
static void test_rules__lora_manager(void **state)
{
    (void)state;
#define TARGETS "--enable-lora --max-lora-rank 8 --lora-target-modules q_b_proj"
    static const release_case L[] = {
        {"0.5.20", TARGETS " --tp 2 --dp 2 --enable-dp-attention", MANAGER},
        {"0.5.21", TARGETS " --tp 2 --dp 2 --enable-dp-attention",
         "ValueError: LoRA backend 'csgmv' does not support DP attention"},
        {"0.5.21", TARGETS " --tp 2 --dp 1 --enable-dp-attention", MANAGER}, /* the handler turns DP attention off */
        {"0.5.21", TARGETS " --tp 4 --dp 2 --enable-dp-attention --lora-backend triton", "ValueError: LoRA with DP "
         "attention requires --dp-size equal to --tp-size (got attention TP size 2 and attention CP size 1)"},
        {"0.5.22", TARGETS " --tp 4 --dp 2 --enable-dp-attention --lora-backend triton", "ValueError: LoRA with DP "
         "attention requires --attn-dp-size equal to --tp-size (got attention TP size 2 and attention CP size 1)"},
        {"0.5.23", "--lora-paths a=/x --tp 4 --dp 2 --enable-dp-attention --lora-backend triton --attn-cp-size 2",
         "(got attention TP size 1 and attention CP size 2)"},
        {"0.5.21", TARGETS " --tp 2 --dp 2 --enable-dp-attention --lora-backend triton --enable-lora-overlap-loading "
         "--max-loaded-loras 8", "ValueError: The configured LoRA memory pool does not support DP-attention overlap "
         "loading; use a pool that coordinates adapter slots across DP ranks or disable overlap loading"},
        {"0.5.23", "--lora-paths a=/x --tp 2 --attn-dp-size 2 --lora-backend torch_native",
         "ValueError: LoRA backend 'torch_native' does not support DP attention"},
        {"0.5.23", "--lora-paths a=/x --tp 2 --attn-dp-size 2 --lora-backend triton", MANAGER},
        {"0.5.3rc2", "--enable-lora --max-lora-rank 8 --lora-target-modules q_proj", MANAGER},
        {"0.5.23", "--lora-paths --tp 2 --attn-dp-size 2", NULL}, /* no path: LoRA stays off */
    };
    expect_verdicts("deepseek-v3.2", L, COUNT_OF(L));
    kvc_resolved r;
    kvc_diag d;
    /* the flag each points at: the attention DP size's, the backend's, the one that turned LoRA on */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--lora-paths a=/x --tp 4 --attn-dp-size 2 --lora-backend "
                                  "triton", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--attn-dp-size");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", TARGETS " --tp 2 --dp 2 --enable-dp-attention --lora-backend "
                                  "torch_native", "0.5.21", &r, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--lora-backend");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--lora-paths a=/x", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--lora-paths");
#undef TARGETS
}

/* The LP dispatch's solvers (0.5.14+), built first in the model runner's initialize, before the model's load: the
 * DeepSeek-V2/V3/V3.2, GLM-5 and Mistral Large 3 classes only */
static void test_rules__lp_dispatch_models(void **state)
{
    (void)state;
#define LP "--tp 8 --ep 8 --moe-a2a-backend deepep --ep-dispatch-algorithm lp"
#define LP_REFUSED " does not support --ep-dispatch-algorithm lp. Validated targets: DeepseekV2ForCausalLM, " \
                   "DeepseekV32ForCausalLM, DeepseekV3ForCausalLM, Glm4MoeLiteForCausalLM, GlmMoeDsaForCausalLM, "
    static const struct {
        const char *model, *release, *message;
    } C[] = {
        {"tests/conformance/sglang/models/GLM5_NEXT.json", "0.5.23", "NotImplementedError: "
         "Glm5NextForConditionalGeneration" LP_REFUSED},
        /* before the model's load, which has no class for it in 0.5.16 */
        {"tests/conformance/sglang/models/GLM5_NEXT.json", "0.5.14", "Glm5NextForConditionalGeneration" LP_REFUSED},
        {"tests/conformance/sglang/models/DSV4.json", "0.5.23", "DeepseekV4ForCausalLM" LP_REFUSED},
        /* no solvers before 0.5.14: the model's load refuses instead */
        {"tests/conformance/sglang/models/GLM5_NEXT.json", "0.5.13", "Cannot find model module."},
        {"deepseek-v3.2", "0.5.23", NULL},
        {"glm-5", "0.5.14", NULL},
    };
#undef LP_REFUSED
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        const release_case one = {C[i].release, LP, C[i].message};
        expect_verdicts_on("H200", C[i].model, &one, 1);
    }
#undef LP
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "tests/conformance/sglang/models/GLM5_NEXT.json", "--tp 8 --ep 8 --moe-a2a-backend deepep --ep-dispatch-algorithm lp", "0.5.20",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--ep-dispatch-algorithm");
}

/* Single batch overlap on SM90, refused when the scheduler sets up an MoE model's config (0.5.13+; ROCm's 9.x GPUs
 * too in 0.5.13-0.5.13.post1); the oracle runs it from each release's layers/moe/utils.py */
static void test_rules__sbo_on_sm90(void **state)
{
    (void)state;
#define SBO "ValueError: SBO (single batch overlap) is not supported on SM90 GPUs with latest sgl-deep-gemm wheel."
    static const struct {
        const char *gpu, *release, *message;
    } C[] = {
        {"H200", "0.5.23", SBO}, {"H200", "0.5.13", SBO}, {"H200", "0.5.12", NULL}, {"B200", "0.5.23", NULL},
        {"MI300X", "0.5.13", SBO}, {"MI300X", "0.5.14", NULL},
    };
#undef SBO
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        const release_case one = {C[i].release, "--enable-single-batch-overlap", C[i].message};
        expect_verdicts_on(C[i].gpu, "deepseek-v3.2", &one, 1);
    }
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--tp 8 --enable-single-batch-overlap", "0.5.20", &r, &d),
                     KVC_ERR_CONFIG);
    assert_string_equal(d.where, "--enable-single-batch-overlap");
    /* a config without a per-token expert count key is not MoE to the scheduler (deepseek-v3 without it) */
    assert_int_equal(resolve_line("H200", "tests/unit/models/NO_TOPK_KEY.json", "--enable-single-batch-overlap",
                                  "0.5.23", &r, &d), KVC_OK);
}

/* The DSA backend's own checks of 0.5.22+ that read the schedule and the heads a rank runs */
static void test_rules__dsa_backend_heads_and_mixed_chunk(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.22", "--dsa-prefill-backend flashmla_sparse_q8 --enable-mixed-chunk", "--dsa-prefill-backend "
         "flashmla_sparse_q8 does not support --enable-mixed-chunk: q8 prefill runs on RAGGED extend batches only."},
        {"0.5.23", "--dsa-prefill-backend flashmla_sparse_q8 --kv-cache-dtype fp8_e4m3 --enable-mixed-chunk",
         "does not support --enable-mixed-chunk"},
        /* speculative decoding may turn mixed chunking off: declined */
        {"0.5.23", "--dsa-prefill-backend flashmla_sparse_q8 --enable-mixed-chunk --speculative-algorithm EAGLE",
         "which kvcheck does not follow, so kvcheck cannot judge this worker"},
        /* the bundled preset gives no num_attention_heads: declined */
        {"0.5.23", "--dsa-prefill-backend triton_sparse_mla --tp 8", "the query heads a rank runs against its limit "
         "of 32, from num_attention_heads, which this model config does not give"},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    static const release_case H[] = { /* DeepSeek-V3.2's 128 heads */
        {"0.5.23", "--dsa-prefill-backend triton_sparse_mla --tp 2", "triton_sparse_mla is validated up "
         "to 32 query heads per rank; got num_q_heads=64. Raise the attention TP degree or use another DSA prefill "
         "backend."},
        {"0.5.23", "--dsa-prefill-backend triton_sparse_mla --tp 4", NULL},
        /* attention DP leaves each rank all the heads */
        {"0.5.22", "--dsa-prefill-backend triton_sparse_mla --tp 8 --dp 8 --enable-dp-attention", "num_q_heads=128"},
        {"0.5.23", "--dsa-prefill-backend triton_sparse_mla --tp 8 --attn-dp-size 2", NULL},
        {"0.5.23", "--dsa-prefill-backend triton_sparse_mla --tp 8 --attn-dp-size 4", "num_q_heads=64"},
    };
    expect_verdicts_on("H200", "tests/conformance/sglang/models/DEEPSEEK_V32.json", H, COUNT_OF(H));
}

/* SGLANG_DISAGG_STAGING_BUFFER on a PD worker (0.5.11+): an MLA pool refused when the scheduler sets up
 * disaggregation; a transfer backend the arguments refuse with it declined */
static void test_rules__staging_buffer_mla(void **state)
{
    (void)state;
#define STAGING "RuntimeError: SGLANG_DISAGG_STAGING_BUFFER is designed for non-MLA models (e.g. GQA, MHA). MLA " \
                "models should not set this flag."
    static const release_case C[] = {
        {"0.5.23", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-mode prefill", STAGING},
        {"0.5.23", "SGLANG_DISAGG_STAGING_BUFFER=yes --disaggregation-mode decode --disaggregation-transfer-backend "
         "nixl", STAGING},
        {"0.5.11", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-mode decode", STAGING},
        /* the transfer backend first, among the PD arguments' checks (0.5.10+; NIXL from 0.5.12) */
        {"0.5.11", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-mode decode --disaggregation-transfer-backend nixl",
         "ValueError: SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake', got 'nixl'."},
        {"0.5.23", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-mode decode --disaggregation-transfer-backend "
         "mori", "ValueError: SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake' or "
         "'nixl', got 'mori'."},
        {"0.5.10", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-mode decode", NULL}, /* no MLA check yet */
        {"0.5.23", "SGLANG_DISAGG_STAGING_BUFFER=1", NULL},                                /* unified */
        {"0.5.23", "SGLANG_DISAGG_STAGING_BUFFER=maybe --disaggregation-mode prefill", NULL}, /* False, warned */
    };
#undef STAGING
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
}

/* --startup-weight-load-mode overlap (0.5.18+): refused for every model kvcheck judges, with a reason it does not
 * derive: declined */
static void test_rules__startup_load_overlap_declined(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.18", "--startup-weight-load-mode overlap", "SGLang 0.5.18 refuses it for every model kvcheck judges"},
        {"0.5.23", "--tp 2 --startup-weight-load-mode=overlap", "so it cannot judge this worker; drop the flag"},
        {"0.5.23", "--startup-weight-load-mode serial", NULL},
        {"0.5.17", "--startup-weight-load-mode overlap", "unrecognized arguments"},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
}

/* The kernel flags SGLang checks against the GPU and its kernels: the values that never refuse pass, the others
 * are declined */
static void test_rules__kernel_flags_declined(void **state)
{
    (void)state;
#define KERNEL "which kvcheck does not model, so it cannot judge this worker; leave it unset for SGLang's own pick"
    static const struct {
        const char *gpu, *release, *args, *message;
    } C[] = {
        {"H200", "0.5.23", "--fp8-gemm-backend deep_gemm", KERNEL}, {"H200", "0.5.23", "--fp8-gemm-backend triton", NULL},
        {"B200", "0.5.10", "--fp8-gemm-backend=flashinfer_trtllm", KERNEL},
        {"H200", "0.5.15", "--bf16-gemm-backend cutedsl", KERNEL}, {"H200", "0.5.23", "--bf16-gemm-backend torch", NULL},
        {"H200", "0.5.23", "--dsa-paged-mqa-logits-backend deepgemm", NULL},
        {"MI300X", "0.5.23", "--dsa-paged-mqa-logits-backend deepgemm", KERNEL},
        {"MI300X", "0.5.23", "--dsa-paged-mqa-logits-backend aiter", NULL},
        {"B200", "0.5.15", "--dsa-paged-mqa-logits-backend cutedsl", KERNEL},
    };
#undef KERNEL
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        const release_case one = {C[i].release, C[i].args, C[i].message};
        expect_verdicts_on(C[i].gpu, "deepseek-v3.2", &one, 1);
    }
    /* no DSA indexer, no check: DeepSeek-V3 */
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--dsa-paged-mqa-logits-backend cutedsl", "0.5.23", &r, &d),
                     KVC_OK);
    /* the GEMM config is the scheduler's, before the model runner's LP dispatch check */
    assert_int_equal(resolve_line("H200", "tests/conformance/sglang/models/GLM5_NEXT.json", "--bf16-gemm-backend "
                                  "cutedsl --tp 8 --ep 8 --moe-a2a-backend deepep --ep-dispatch-algorithm lp", "0.5.23",
                                  &r, &d), KVC_ERR_CONFIG);
    assert_non_null(strstr(d.message, "--bf16-gemm-backend cutedsl"));
}

/* HiSparse's speculative swap (0.5.22+), built with the HiSparse coordinator after the KV pool: the draft tokens and
 * the top-k refused, the request slots against the device buffer left with a warning */
static void test_rules__hisparse_spec_swap(void **state)
{
    (void)state;
#define HS "--enable-hisparse --disable-radix-cache "
#define SWAP "ValueError: HiSparse spec swap requires 2-4 draft tokens and top_k >= 1024."
    static const release_case C[] = {
        {"0.5.23", HS "--speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1", SWAP}, /* 12 tokens */
        {"0.5.22", HS "--speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1 "
         "--speculative-num-draft-tokens 1", SWAP},
        {"0.5.23", HS "--speculative-algorithm EAGLE --speculative-num-steps 4 --speculative-eagle-topk 1 "
         "--speculative-num-draft-tokens 5", "5 draft tokens, top_k 2048"},
        {"0.5.23", HS "--speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1 "
         "--speculative-num-draft-tokens 4", NULL},
        {"0.5.21", HS "--speculative-algorithm NEXTN", NULL}, /* no swap manager yet */
        {"0.5.23", HS, NULL},
    };
#undef SWAP
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    /* the request slots against the device buffer: not checked, and said so */
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", HS "--speculative-algorithm NEXTN", "0.5.23", &r, &d),
                     KVC_OK);
    assert_true(has_warning(&r, "not checked: HiSparse's speculative swap"));
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", HS "--speculative-algorithm NEXTN", "0.5.21", &r, &d),
                     KVC_OK);
    assert_false(has_warning(&r, "not checked: HiSparse's speculative swap"));
#undef HS
}

/* --torchao-config (up to 0.5.17): torchao quantizes the loaded model, before the LoRA manager; declined */
static void test_rules__torchao_declined(void **state)
{
    (void)state;
#define TORCHAO "then quantizes the loaded model with torchao (apply_torchao_config_to_model"
    static const release_case T[] = {
        {"0.5.3rc2", "--torchao-config int4wo-128", TORCHAO},
        {"0.5.17", "--torchao-config foo", TORCHAO},
        {"0.5.15", "--torchao-config int8wo --lora-paths a=/x", TORCHAO},
        {"0.5.15", "--torchao-config ''", NULL}, /* "": the model as it is */
        {"0.5.18", "--torchao-config int8wo", "unrecognized arguments: --torchao-config int8wo"},
    };
#undef TORCHAO
    expect_verdicts("deepseek-v3.2", T, COUNT_OF(T));
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --torchao-config=fp8wo", "0.5.10", &r, &d),
                     KVC_ERR_CONFIG);
    assert_int_equal(d.column, 8);
}

static void test_rules__draft_entries_have_their_own_layout(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --speculative-algorithm EAGLE", NULL, &r, &d),
                     KVC_OK);
    assert_string_equal(r.draft.name, "fp8_flashmla");
    assert_int_equal(r.kv_bytes_per_token_all, 79 * 656);
    assert_int_equal(resolve_line("H200", "glm-5.2", "--kv-cache-dtype fp8_e4m3 --speculative-algorithm EAGLE "
                                  "--speculative-draft-kv-cache-dtype auto", NULL, &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "fp8_flashmla");
    assert_string_equal(r.draft.name, "bf16");
    assert_int_equal(r.kv_bytes_per_token_all, 78 * 656 + 1152);
    assert_contains(VAL(&r, "speculative_draft_kv_cache_dtype"), "auto");
    assert_contains(resolved_find(&r, "speculative_draft_kv_cache_dtype")->reason, "the DSA default does not apply");
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm EAGLE --speculative-draft-kv-cache-dtype bf16",
                                  NULL, &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "fp8_raw");
    assert_string_equal(r.draft.name, "bf16");
    /* 0.5.3rc2-0.5.3.post3 do not take the MTP draft's DeepseekV3ForCausalLMNextN as DSA: plain rows (with an
     * attention backend the draft worker builds: it has none for the default nsa) */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --speculative-algorithm EAGLE "
                                  "--attention-backend flashinfer", "0.5.3", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "fp8_flashmla");
    assert_string_equal(r.draft.name, "fp8_raw");
    assert_contains(r.draft_row.reason, "not a DSA model in this release");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--kv-cache-dtype fp8_e4m3 --speculative-algorithm EAGLE", "0.5.4",
                                  &r, &d), KVC_OK);
    assert_string_equal(r.draft.name, "fp8_flashmla");
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-draft-kv-cache-dtype bf16", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "--speculative-draft-kv-cache-dtype has no effect here");
    assert_null(kvc_resolved_draft_layout(&r));
}

/* SGLang's FP4 MLA pool: the KV buffer holds the packed values, a second
 * buffer per layer their UE8M0 scales (36 B a token at R + r = 576), and
 * a PD worker is told the transfer leaves that buffer behind. Other pools
 * keep no scale buffer. */
static void test_rules__fp4_pools_keep_their_scales_in_a_second_buffer(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "deepseek-v3", "--kv-cache-dtype fp4_e2m1 --disaggregation-mode decode",
                                  "0.5.12", &r, &d),
                     KVC_OK);
    assert_non_null(kvc_resolved_scales(&r));
    assert_string_equal(r.scales.name, "fp4_mx16_scales");
    assert_int_equal(r.scales.bytes_per_token, 36);
    assert_int_equal(r.scales.page_bytes, 36 * 64);
    assert_int_equal(r.kv.bytes_per_token + r.scales.bytes_per_token, 324);
    assert_contains(r.row.reason, "MLATokenToKVPoolFP4, sglang 0.5.23: python/sglang/srt/mem_cache/memory_pool.py:5133-5164 "
                                  "(from 0.5.6; before, sglang 0.5.5: memory_pool.py:1321-1345)");
    int told = 0;
    for (unsigned i = 0; i < r.nwarnings; i++) told |= strstr(r.warnings[i], "sends the FP4 KV buffer without its scale buffer") != NULL;
    assert_true(told);
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--kv-cache-dtype fp4_e2m1", "0.5.4.post3", &r, &d), KVC_OK);
    assert_string_equal(r.row.value, "fp4_mx16");
    assert_int_equal(r.scales.bytes_per_token, 36);
    for (unsigned i = 0; i < r.nwarnings; i++) assert_null(strstr(r.warnings[i], "scale buffer")); /* not PD */
    assert_int_equal(resolve_line("B200", "deepseek-v3", "--kv-cache-dtype fp8_e4m3", NULL, &r, &d), KVC_OK);
    assert_null(kvc_resolved_scales(&r));
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

/* Decode context parallelism above one: not modelled, so a PD worker is
 * declined (the pair cannot be judged) and a unified worker warned; where
 * the release has no --dcp-size, its parser refuses it. */
static void test_rules__dcp_declines_pd_workers(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--disaggregation-mode decode --dcp-size 2", NULL, &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "--dcp-size 2: kvcheck does not model decode context parallelism's pages");
    assert_contains(d.message, "so kvcheck cannot judge this PD worker");
    assert_null(strstr(d.message, "refuses to start"));
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--disaggregation-mode prefill --dcp-size 4", "0.5.15", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "cannot judge this PD worker");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--disaggregation-mode decode --dcp-size 2", "0.5.21", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "cannot judge this PD worker");
    /* a unified DSA worker: from 0.5.22 DCP makes the unset DSA backends trtllm (raw FP8 rows on H200) */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--dcp-size 2 --kv-cache-dtype fp8_e4m3", "0.5.21", &r, &d),
                     KVC_OK);
    assert_string_equal(r.row.value, "fp8_flashmla");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--dcp-size 2 --kv-cache-dtype fp8_e4m3", NULL, &r, &d),
                     KVC_OK);
    assert_string_equal(r.row.value, "fp8_raw");
    assert_string_equal(VAL(&r, "dsa_decode_backend"), "trtllm");
    assert_contains(resolved_find(&r, "dsa_prefill_backend")->reason, "set by --dcp-size");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--dcp-size 2", NULL, &r, &d), KVC_OK);
    int warned = 0;
    for (unsigned k = 0; k < r.nwarnings; k++)
        warned |= strstr(r.warnings[k], "--dcp-size 2: kvcheck does not model decode context parallelism's pages") != NULL;
    assert_true(warned);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--disaggregation-mode decode --dcp-size 2", "0.5.14", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "unrecognized arguments: --dcp-size 2");
}

/* handle_decode_context_parallelism's checks of the DCP communication backend and the replicated Q projection
 * (rules.c DCP_VALIDATION, 0.5.17+): --dcp-comm-backend defaults to ag_rs up to 0.5.19, from 0.5.20 it resolves to
 * ag_rs only with one DCP rank. Every case run against the oracle. */
static void test_rules__dcp_communication_checks(void **state)
{
    (void)state;
    static const release_case D[] = {
        {"0.5.23", "--dcp-comm-backend a2a", "--dcp-comm-backend a2a only affects the decode context-parallel "
         "attention reduction and therefore requires --dcp-size / --decode-context-parallel-size > 1, but got "
         "dcp_size=1."},
        {"0.5.17", "--dcp-comm-backend fi_a2a", "--dcp-comm-backend fi_a2a only affects"},
        {"0.5.21", "--dcp-comm-backend ag_rs", NULL},
        {"0.5.16", "--dcp-comm-backend a2a", "unrecognized arguments: --dcp-comm-backend a2a"},
        {"0.5.23", "--dcp-replicate-q-proj", "--dcp-replicate-q-proj requires --dcp-size > 1."},
        {"0.5.19", "--no-dcp-replicate-q-proj --dcp-comm-backend ag_rs", NULL},
        /* above one DCP rank: ag_rs as given, or up to 0.5.19 as defaulted */
        {"0.5.18", "--dcp-replicate-q-proj --dcp-size 2", "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP "
         "communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend=ag_rs."},
        {"0.5.22", "--dcp-replicate-q-proj --dcp-size 2 --dcp-comm-backend ag_rs", "got --dcp-comm-backend=ag_rs."},
        {"0.5.20", "--dcp-replicate-q-proj --dcp-size 2", NULL},
        {"0.5.19", "--dcp-replicate-q-proj --dcp-size 2 --dcp-comm-backend a2a", NULL},
        /* fi_a2a above one rank: the model runner's MNNVL probe at warm-up, declined */
        {"0.5.23", "--tp 8 --dcp-size 2 --dcp-comm-backend fi_a2a", "kvcheck does not model that probe, so it cannot "
         "judge this worker"},
        {"0.5.18", "--dcp-size 2 --dcp-comm-backend fi_a2a", "refuses the worker otherwise"},
    };
    expect_verdicts("deepseek-v3.2", D, COUNT_OF(D));
    static const release_case ROCM[] = {
        {"0.5.19", "--dcp-comm-backend fi_a2a --dcp-size 2", "--dcp-comm-backend fi_a2a delegates the exchange to "
         "FlashInfer's MNNVL All-to-All kernel, which requires an NVIDIA CUDA platform with SM90+ and MNNVL fabric "
         "memory (e.g. GB200 NVL72)."},
        {"0.5.20", "--dcp-comm-backend fi_a2a --dcp-size 2", "which requires Blackwell and a DCP group within one "
         "MNNVL domain. Use 'a2a' or 'ag_rs' elsewhere, or leave the flag unset to resolve it."},
        {"0.5.23", "--dcp-comm-backend a2a --dcp-size 2", NULL},
    };
    expect_verdicts_on("MI300X", "deepseek-v3.2", ROCM, COUNT_OF(ROCM));
}

/* --language-model-only (0.5.18+): its handler in the encoder disaggregation's, after the load format's and before
 * tokenizer batching's; SGLang serves it for DeepSeek-V4 from 0.5.22 and never with PD. A config whose architectures
 * list holds several names is declined (kvcheck reads the first). Every case run against the oracle. */
static void test_rules__language_model_only(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.23", "--tp 8 --language-model-only", "ValueError: --language-model-only does not support "
         "['DeepseekV32ForCausalLM']. Supported: ['DeepseekV4ForCausalLM', 'MuseGlimmerForConditionalGeneration', "
         "'Cosmos3ForConditionalGeneration', 'Cosmos3EdgeForConditionalGeneration']."},
        {"0.5.19", "--tp 8 --language-model-only", "Supported: ['MuseGlimmerForConditionalGeneration']."},
        {"0.5.18", "--tp 8 --language-model-only --disaggregation-mode decode",
         "ValueError: --language-model-only is incompatible with --disaggregation-mode prefill/decode"},
        {"0.5.17", "--tp 8 --language-model-only", "unrecognized arguments: --language-model-only"},
        {"0.5.23", "--tp 8 --language-model-only --enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer",
         "--language-model-only does not support"},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    static const release_case V4[] = {
        {"0.5.21", "--tp 8 --language-model-only", "does not support ['DeepseekV4ForCausalLM']. Supported: "
         "['MuseGlimmerForConditionalGeneration', 'Cosmos3ForConditionalGeneration', "
         "'Cosmos3EdgeForConditionalGeneration']."},
        {"0.5.22", "--tp 8 --language-model-only", NULL},
        {"0.5.23", "--tp 8 --language-model-only --disaggregation-mode prefill", "is incompatible with "
         "--disaggregation-mode prefill/decode"},
    };
    expect_verdicts_on("B200", "tests/unit/models/DSV4_SMALL.json", V4, COUNT_OF(V4));
    static const release_case TWO[] = {
        {"0.5.23", "--tp 8 --language-model-only", "kvcheck reads only the first"},
        {"0.5.23", "--tp 8", NULL},
    };
    expect_verdicts("tests/unit/models/TWO_ARCHS.json", TWO, COUNT_OF(TWO));
}

/* The unified cache's external linker in handle_hicache (0.5.20+): the radix cache as resolved (0.5.23: off on a
 * decode worker without its radix cache), HiCache, a storage backend. Every case run against the oracle. */
static void test_rules__external_linker_checks(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.23", "--enable-unified-cache-external-linker --disaggregation-mode decode", "ValueError: "
         "--enable-unified-cache-external-linker requires the default UnifiedRadixCache with radix caching enabled."},
        {"0.5.23", "--enable-unified-cache-external-linker --disaggregation-mode decode "
                   "--disaggregation-decode-enable-radix-cache", NULL},
        {"0.5.23", "--enable-unified-cache-external-linker --disable-radix-cache", "requires the default "
         "UnifiedRadixCache"},
        {"0.5.22", "--enable-unified-cache-external-linker --disable-radix-cache", NULL},
        {"0.5.22", "--enable-unified-cache-external-linker --enable-hierarchical-cache", "ValueError: "
         "--enable-unified-cache-external-linker and --enable-hierarchical-cache are mutually exclusive."},
        {"0.5.20", "--enable-unified-cache-external-linker --hicache-storage-backend file", "ValueError: "
         "--enable-unified-cache-external-linker does not use --hicache-storage-backend."},
        {"0.5.23", "--enable-unified-cache-external-linker", NULL},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
}

/* --enable-int8-mamba-checkpoint (0.5.14+), for every model after the mamba backend's handler: HiCache (two wordings),
 * a radix cache backend (its name as Python's repr), LMCache (0.5.21+); a hybrid model's int8 store is declined. A
 * named --radix-cache-backend is declined where the scheduler builds the tree cache, and so is a session radix cache
 * from 0.5.17. Every refusal run against the oracle. */
static void test_rules__radix_cache_options(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.17", "--enable-int8-mamba-checkpoint --enable-hierarchical-cache", "ValueError: "
         "--enable-int8-mamba-checkpoint is not supported together with --enable-hierarchical-cache: the host-offload "
         "path (HiMambaRadixCache) is not int8-aware. Disable one of them."},
        {"0.5.18", "--enable-int8-mamba-checkpoint --enable-hierarchical-cache", "the host-offload path is not "
         "int8-aware."},
        {"0.5.23", "--enable-int8-mamba-checkpoint --radix-cache-backend foo", "ValueError: "
         "--enable-int8-mamba-checkpoint only supports the built-in mamba radix cache; --radix-cache-backend='foo' is "
         "not int8-aware. Omit --radix-cache-backend."},
        {"0.5.23", "--enable-int8-mamba-checkpoint --radix-cache-backend \"a'b\"", "--radix-cache-backend=\"a'b\" is "
         "not int8-aware."},
        {"0.5.23", "--enable-int8-mamba-checkpoint --radix-cache-backend caf\xc3\xa9", "kvcheck writes it for ASCII "
         "names only"},
        {"0.5.21", "--enable-int8-mamba-checkpoint --enable-lmcache", "ValueError: --enable-int8-mamba-checkpoint is "
         "not supported together with --enable-lmcache: LMCache is not int8-aware. Disable one of them."},
        {"0.5.20", "--enable-int8-mamba-checkpoint --enable-lmcache", NULL},
        {"0.5.23", "--enable-int8-mamba-checkpoint", NULL},
        {"0.5.13", "--enable-int8-mamba-checkpoint", "unrecognized arguments: --enable-int8-mamba-checkpoint"},
        {"0.5.23", "--radix-cache-backend foo", "--radix-cache-backend foo: SGLang 0.5.23 builds this worker's tree "
         "cache with the factory a plugin registered under that name"},
        {"0.5.23", "--enable-unified-cache-external-linker --radix-cache-backend foo", "ValueError: "
         "--enable-unified-cache-external-linker requires the default UnifiedRadixCache with radix caching enabled."},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    static const release_case HYBRID[] = {
        {"0.5.23", "--enable-int8-mamba-checkpoint", "kvcheck does not model that store, so it cannot judge this "
         "worker"},
        {"0.5.17", "--enable-int8-mamba-checkpoint --enable-hierarchical-cache", "(HiMambaRadixCache) is not "
         "int8-aware."},
        /* the store is declined with the pools: a refusal of the resolution comes first */
        {"0.5.23", "--enable-int8-mamba-checkpoint --enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer",
         "Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch-tokenizer."},
    };
    expect_verdicts("tests/conformance/sglang/models/GLM5_NEXT.json", HYBRID, COUNT_OF(HYBRID));
    /* --enable-session-radix-cache: the eviction policy in 0.5.15-0.5.16's cache compatibility checks (oracle), the
     * scheduler's tree cache from 0.5.17 (declined) */
    static const release_case SESSION[] = {
        {"0.5.16", "--enable-session-radix-cache", "--enable-session-radix-cache requires --radix-eviction-policy "
         "priority"},
        {"0.5.16", "--enable-session-radix-cache --enable-hierarchical-cache --disable-radix-cache", "requires "
         "--radix-eviction-policy priority"},
        {"0.5.15", "--enable-session-radix-cache --radix-eviction-policy priority", NULL},
        {"0.5.17", "--enable-session-radix-cache", "kvcheck does not model which tree cache that is"},
        {"0.5.23", "--enable-session-radix-cache --radix-eviction-policy priority", "builds a tree cache other than "
         "the UnifiedRadixCache"},
    };
    expect_verdicts("deepseek-v3.2", SESSION, COUNT_OF(SESSION));
}

static void test_rules__odd_platforms_are_warned(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "--dsa-decode-backend fa3", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "fa3 is not known to run on B300");
    assert_contains(r.warnings[0], "SGLang 0.5.23 does not refuse it at start-up");
    assert_int_equal(resolve_line("A100", "deepseek-v3", "", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "older than Hopper");
    assert_int_equal(resolve_line("H200", "deepseek-v3", "--dsa-decode-backend fa3", NULL, &r, &d), KVC_OK);
    assert_contains(r.warnings[0], "--dsa-decode-backend has no effect: SGLang 0.5.23 does not take DeepseekV3ForCausalLM as a DSA model");
}

/* Resolves a worker on B300 with no flags under the newest release, for a
 * model given as config.json text. */
static kvc_status resolve_config(const char *json, kvc_diag *d)
{
    model_info m;
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, d), KVC_OK);
    gpu_info g;
    assert_int_equal(gpu_parse("B300", &g, NULL, d), KVC_OK);
    settings s;
    memset(&s, 0, sizeof s);
    kvc_resolved r;
    return rules_resolve(&g, &m, NULL, &s, 0, &r, d);
}

static void test_rules__index_head_dim_must_be_128(void **state)
{
    (void)state;
    const char *json = "{\"architectures\":[\"DeepseekV32ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                       "\"num_hidden_layers\":2,\"index_head_dim\":64,\"index_topk\":2048}";
    kvc_diag d;
    assert_int_equal(resolve_config(json, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "index_head_dim is 64: SGLang's DSA indexer K cache needs 128");
}

/* Architectures with pools kvcheck does not model are refused, never
 * judged as plain MLA. */
static void test_rules__unmodelled_architectures_are_refused(void **state)
{
    (void)state;
    static const char *const ARCH[] = {"DeepseekV4ForCausalLMNextN", "Glm5NextForConditionalGenerationNextN",
                                       "MiniMaxM3SparseForCausalLM", "Dots3NoteForCausalLM",
                                       "DeepseekV41ForCausalLM"};
    for (size_t i = 0; i < COUNT_OF(ARCH); i++) {
        char json[400];
        snprintf(json, sizeof json,
                 "{\"architectures\":[\"%s\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                 "\"num_hidden_layers\":2,\"index_head_dim\":128,\"index_topk\":2048}",
                 ARCH[i]);
        kvc_diag d;
        assert_int_equal(resolve_config(json, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, "which kvcheck does not model yet; it cannot judge this worker");
        assert_contains(d.message, ARCH[i]);
    }
}

/* config.json fields for test_rules__unjudged_architectures_and_model_dtypes */
#define CFG_FP8_KV ",\"quantization_config\":{\"quant_method\":\"modelopt\",\"kv_cache_quant_algo\":\"FP8\"}"
#define CFG_NULL_KV ",\"quantization_config\":{\"quant_method\":\"modelopt\",\"quantization\":{\"kv_cache_quant_algo\":null}}"
#define CFG_SCHEME ",\"compression_config\":{\"kv_cache_scheme\":{\"type\":\"float\",\"num_bits\":8}}"
#define CFG_FP8_WEIGHTS                                                                                           \
    ",\"quantization_config\":{\"quant_method\":\"fp8\",\"activation_scheme\":\"dynamic\",\"weight_block_size\":[128,128]}"
#define CFG_FP8_ALGO(v)                                                                                           \
    ",\"quantization_config\":{\"quant_method\":\"fp8\",\"activation_scheme\":\"dynamic\",\"kv_cache_quant_algo\":\"" v "\"}"
#define CFG_FP8_WEIGHTS_SCHEME \
    ",\"quantization_config\":{\"quant_method\":\"fp8\",\"activation_scheme\":\"dynamic\",\"kv_cache_scheme\":"     \
    "{\"type\":\"float\",\"num_bits\":8}}"
#define CFG_DSA ",\"index_topk\":2048,\"index_head_dim\":128,\"num_nextn_predict_layers\":3"
#define CFG_CT_SCHEME ",\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"kv_cache_scheme\":" \
    "{\"type\":\"float\",\"num_bits\":8}}"

/* An MLA config under a name SGLang does not list as MLA (in that release), an MTP draft SGLang renames to one, a
 * config dtype outside SGLang's table, and a quantization config that asks for a KV dtype with a KV dtype of auto:
 * refused as unjudged, never judged as MLA or guessed; the names SGLang does list get its defaults and draft rules. */
static void test_rules__unjudged_architectures_and_model_dtypes(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *arch, *dtype, *extra, *release, *args;
        const char *layout; /* NULL: refused with `message` */
        unsigned page, entries; /* draft entries */
        const char *message;
        const char *draft; /* the MTP draft pool's layout; NULL: not checked */
    } C[] = {
        {"H200", "FooForCausalLM", "bfloat16", "", NULL, "",
         .message = "SGLang 0.5.23 does not run this architecture as an MLA"},
        {"H200", "Glm4MoeLiteForCausalLM", "bfloat16", "", "0.5.7", "",
         .message = "SGLang 0.5.7 does not run this architecture"},
        {"H200", "Glm4MoeLiteForCausalLM", "bfloat16", "", "0.5.8", "", .layout = "bf16", .page = 1, .entries = 0},
        /* its MTP draft is Glm4MoeForCausalLMNextN, an MHA model, to 0.5.12.post1 */
        {"H200", "Glm4MoeLiteForCausalLM", "bfloat16", ",\"num_nextn_predict_layers\":1", "0.5.10",
         "--speculative-algorithm NEXTN",
         .message = "loads the MTP draft of Glm4MoeLiteForCausalLM as Glm4MoeForCausalLMNextN"},
        {"H200", "Glm4MoeLiteForCausalLM", "bfloat16", ",\"num_nextn_predict_layers\":1", "0.5.13",
         "--speculative-algorithm NEXTN",
         .layout = "bf16", .page = 1, .entries = 1},
        /* HYV4's draft keeps one layer whatever the config says */
        {"H200", "HYV4ForCausalLM", "bfloat16", CFG_DSA, NULL, "--speculative-algorithm NEXTN",
         .layout = "bf16", .page = 64, .entries = 1},
        /* Kimi K2.5 is in the DeepSeek family's guard: trtllm_mla, pages of 64, on SM100 from 0.5.9 */
        {"B200", "KimiK25ForConditionalGeneration", "bfloat16", "", "0.5.9", "",
         .layout = "bf16", .page = 64, .entries = 0},
        /* GLM-5-Next's draft keeps one layer too */
        {"H200", "Glm5NextForConditionalGeneration", "bfloat16", CFG_DSA, NULL, "--speculative-algorithm NEXTN",
         .layout = "bf16", .page = 64, .entries = 1},
        /* compression_config is read only where there is no quantization_config */
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_WEIGHTS CFG_SCHEME, NULL, "",
         .layout = "bf16", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "float8_e4m3fn", "", NULL, "",
         .message = "the config's dtype float8_e4m3fn, which SGLang's table does not name"},
        {"H200", "DeepseekV3ForCausalLM", "float8_e4m3fn", "", NULL, "--dtype half",
         .layout = "fp16", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "float8_e4m3fn", "", NULL, "--kv-cache-dtype bfloat16",
         .layout = "bf16", .page = 1, .entries = 0},
        /* a ModelOpt config without a quant_algo: its config class looks for the nested form and refuses, in the
         * same words in every release; with a "quantization" section kvcheck does not model what it reads */
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_KV, NULL, "",
         .message = "SGLang 0.5.23 refuses to start: Cannot find 'quant_algo' in the model's quantization config. "
         "Expected either flat format (config.json) or nested format (hf_quant_config.json). (at model load"},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_KV, "0.5.3rc2", "--kv-cache-dtype fp8_e4m3",
         .message = "Cannot find 'quant_algo' in the model's quantization config."},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_NULL_KV, NULL, "",
         .message = "gives no quant_algo but a \"quantization\" section, which SGLang's modelopt config class takes in "
         "a way kvcheck does not model"},
        /* an FP8 checkpoint's kv_cache_quant_algo: Fp8Config keeps it from 0.5.18 (FP8 in any case), and nothing
         * else names its KV dtype */
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("FP8"), "0.5.17", "",
         .layout = "bf16", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("FP8"), "0.5.18", "",
         .layout = "fp8_raw", .page = 1, .entries = 0},
        {"MI300X", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("fp8"), NULL, "--attention-backend triton",
         .layout = "fp8_raw", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("INT8"), NULL, "",
         .layout = "bf16", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_WEIGHTS_SCHEME, NULL, "",
         .layout = "bf16", .page = 1, .entries = 0},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("FP8") ",\"num_nextn_predict_layers\":1", NULL,
         "--kv-cache-dtype bfloat16 --speculative-algorithm NEXTN --speculative-draft-kv-cache-dtype auto",
         .layout = "bf16", .page = 1, .entries = 1, .draft = "fp8_raw"},
        /* a model class that keeps no quant_config reads none */
        {"H200", "PixtralForConditionalGeneration", "bfloat16", CFG_FP8_ALGO("FP8"), "0.5.18", "",
         .layout = "bf16", .page = 1, .entries = 0},
        /* a method kvcheck does not follow for it; a flag SGLang reconciles with the checkpoint's method */
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_CT_SCHEME, NULL, "",
         .message = "--kv-cache-dtype auto (default) with the model's quantization config naming kv_cache_scheme"},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_FP8_ALGO("FP8"), NULL, "--quantization w8a8_fp8",
         .message = "--quantization w8a8_fp8 on a checkpoint quantized by fp8: SGLang reconciles"},
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_SCHEME, NULL, "", .message = "names no quant_method"},
        /* the MTP draft's auto is the draft model's own: its quantization config too */
        {"H200", "DeepseekV3ForCausalLM", "bfloat16", CFG_CT_SCHEME ",\"num_nextn_predict_layers\":1", NULL,
         "--kv-cache-dtype bfloat16 --speculative-algorithm NEXTN --speculative-draft-kv-cache-dtype auto",
         .message = "--speculative-draft-kv-cache-dtype auto"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char json[600];
        snprintf(json, sizeof json,
                 "{\"architectures\":[\"%s\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
                 "\"num_hidden_layers\":2,\"torch_dtype\":\"%s\"%s}",
                 C[i].arch, C[i].dtype, C[i].extra);
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, temp_file(".json", json), C[i].args, C[i].release, &r, &d);
        if (!C[i].layout) {
            if (st != KVC_ERR_CONFIG) fail_msg("case %zu: %d, expected a refusal", i, st);
            assert_contains(d.message, C[i].message);
            continue;
        }
        if (st != KVC_OK) fail_msg("case %zu: %s", i, d.message);
        if (strcmp(r.kv.name, C[i].layout) || r.kv.page_size != C[i].page || r.draft_entries != C[i].entries)
            fail_msg("case %zu: %s page %u, %u draft entries", i, r.kv.name, r.kv.page_size, r.draft_entries);
        if (C[i].draft && strcmp(r.draft_row.value, C[i].draft)) fail_msg("case %zu: draft %s", i, r.draft_row.value);
    }
}

/* A checkpoint directory's hf_quant_config.json (ModelOpt) asks for the KV dtype of auto too. */
static void test_rules__hf_quant_config_beside_config_json(void **state)
{
    (void)state;
    char dir[] = "/tmp/kvc-quant-XXXXXX", config[64], quant[64];
    assert_non_null(mkdtemp(dir));
    write_text(dir, "config.json",
               "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
               "\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\"}",
               config, sizeof config);
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", dir, "", NULL, &r, &d), KVC_OK);
    write_text(dir, "hf_quant_config.json", "{\"quantization\":{\"quant_algo\":\"FP8\",\"kv_cache_quant_algo\":\"FP8\"}}",
               quant, sizeof quant);
    assert_int_equal(resolve_line("H200", dir, "", NULL, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "naming hf_quant_config.json: kv_cache_quant_algo FP8");
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3", NULL, &r, &d), KVC_OK);
    /* its quant_algo names the method (_parse_modelopt_quant_config), whose model-loader check applies */
    write_text(dir, "hf_quant_config.json", "{\"quantization\":{\"quant_algo\":\"NVFP4\",\"group_size\":16}}",
               quant, sizeof quant);
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.12.post1", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "The quantization method modelopt_fp4 is not supported for the current GPU. Minimum "
                               "capability: 100. Current capability: 90.");
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.13", &r, &d), KVC_OK);
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3 --quantization modelopt_fp4", "0.5.13", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "an hf_quant_config.json checkpoint with --quantization");
    /* its section is checked as the config class reads it */
    write_text(dir, "hf_quant_config.json", "{\"quantization\":{\"quant_algo\":\"NVFP4_AWQ\",\"group_size\":16}}",
               quant, sizeof quant);
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.13", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "ModelOpt currently only supports: FP8, NVFP4 quantizations in sglang.");
    /* on SM100 from 0.5.11 DeepSeek V3's default --quantization depends on its weights' dtype */
    assert_int_equal(resolve_line("B200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.13", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "only where the checkpoint's weights are FP8, which kvcheck does not read");
    /* no group size: the file's reader refuses it in every release (no default of 16 as for a config.json) */
    write_text(dir, "hf_quant_config.json", "{\"quantization\":{\"quant_algo\":\"NVFP4\"}}", quant, sizeof quant);
    assert_int_equal(resolve_line("H200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "gives no group_size");
    /* 0.5.4-0.5.4.post1 read its producer's name */
    assert_int_equal(resolve_line("B200", dir, "--kv-cache-dtype fp8_e4m3", "0.5.4", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "an hf_quant_config.json without a producer name");
    /* read only where config.json has no quantization config, and only beside a file named config.json */
    write_text(dir, "config.json",
               "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
               "\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":"
               "\"fp8\",\"activation_scheme\":\"dynamic\"}}",
               config, sizeof config);
    assert_int_equal(resolve_line("H200", dir, "", NULL, &r, &d), KVC_OK);
    char other[64];
    write_text(dir, "v3.json",
               "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
               "\"num_hidden_layers\":2}",
               other, sizeof other);
    assert_int_equal(resolve_line("H200", other, "", NULL, &r, &d), KVC_OK);
    assert_int_equal(unlink(other), 0);
    assert_int_equal(unlink(quant), 0);
    assert_int_equal(unlink(config), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* A worker of one launch line (resolve_line) and what SGLang makes of it: the layout it starts with, or its
 * refusal. */
struct line_case {
    const char *gpu, *model, *args, *release;
    const char *layout;  /* NULL: refused */
    const char *message; /* in the refusal */
};

static void check_line_cases(const struct line_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(c[i].gpu, c[i].model, c[i].args, c[i].release, &r, &d);
        if (!c[i].layout) {
            if (st != KVC_ERR_CONFIG) fail_msg("case %zu: %d, expected a refusal", i, st);
            if (!strstr(d.message, c[i].message)) fail_msg("case %zu: %s", i, d.message);
            continue;
        }
        if (st != KVC_OK) fail_msg("case %zu: %s", i, d.message);
        if (strcmp(r.kv.name, c[i].layout)) fail_msg("case %zu: %s", i, r.kv.name);
    }
}

/* A DeepSeek-V3.2 config named DeepseekV3ForCausalLMNextN as the worker's model: DSA (is_deepseek_nsa lists it), but
 * the DSA defaults take it only up to 0.5.5.post3; from 0.5.6 they are under the DeepseekV3ForCausalLM guard. */
static void test_rules__nextn_target_dsa_defaults(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    kvc_diag d;
    if (file_read_all(MODELS "DEEPSEEK_V32.json", &text, &len, &d)) fail_msg("%s", d.message);
    const char *arch = "\"DeepseekV3ForCausalLM\"";
    char *at = strstr(text, arch), out[4096];
    assert_non_null(at);
    snprintf(out, sizeof out, "%.*s\"DeepseekV3ForCausalLMNextN\"%s", (int)(at - text), text, at + strlen(arch));
    free(text);
    const char *model = temp_file(".json", out);
    kvc_resolved r;
    assert_int_equal(resolve_line("B200", model, "--tp 8", "0.5.5.post3", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "fp8_flashmla");
    assert_int_equal(resolve_line("B200", model, "--tp 8", "0.5.6.post2", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "bf16");
    assert_int_equal(r.kv.page_size, 1);
}

/* The MoE runner checks of SGLang's server arguments: each runner's quantizations, release by release, the expert
 * parallel size, flashinfer_cutedsl's all-to-all backends, the runners SGLang picks itself, and the quantization
 * SM100's defaults set (matrix.py's MOE_MODELS cases). */
static void test_rules__moe_runner_checks(void **state)
{
    (void)state;
    static const struct line_case C[] = {
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--moe-runner-backend flashinfer_trtllm --quantization modelopt_fp4",
         "0.5.23", "fp8_raw", NULL},
        /* no --quantization is None, which the lists take from 0.5.7 (flashinfer_trtllm) */
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--moe-runner-backend flashinfer_trtllm", "0.5.6", NULL,
         "SGLang 0.5.6 refuses to start: modelopt_fp4, modelopt_fp8 or fp8 quantization is required for Flashinfer "
         "TRTLLM MoE (sglang 0.5.4.post2"},
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "--moe-runner-backend flashinfer_trtllm_routed --quantization "
         "modelopt_fp4",
         "0.5.10", NULL, "Invalid quantization 'modelopt_fp4'.  FlashInfer TRTLLM routed MOE supports only: 'fp8', "
         "'mxfp8', or bfloat16 (None). (sglang 0.5.10"},
        {"H200", MODELS "DEEPSEEK_V3.json", "--moe-runner-backend flashinfer_cutlass --ep-size 2", "0.5.11", NULL,
         "SGLang 0.5.11 refuses to start: The expert parallel size must be 1 or the same as the tensor parallel size"},
        {"H200", MODELS "DEEPSEEK_V3.json", "--tp 8 --moe-runner-backend flashinfer_cutlass --ep-size 8", "0.5.11",
         "bf16",
         NULL},
        {"H200", MODELS "DEEPSEEK_V3.json", "--moe-runner-backend cutlass --quantization fp8 --ep-size 2", "0.5.9",
         NULL, "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1"},
        {"H200", MODELS "DEEPSEEK_V3.json", "--moe-runner-backend cutlass --quantization fp8 --ep-size 2",
         "0.5.4.post2",
         "bf16", NULL},
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--moe-runner-backend flashinfer_cutedsl --moe-a2a-backend mooncake",
         "0.5.11", NULL, "Invalid quantization 'None'.  FlashInfer CuteDSL MOE currently supports only: "
         "'modelopt_fp4'."},
        /* SGLang picks flashinfer_cutlass for modelopt_fp4 on SM120 from 0.5.13 */
        {"RTX PRO 6000", MODELS "DEEPSEEK_V3_NVFP4.json", "--quantization modelopt_fp4 --ep-size 2", "0.5.13", NULL,
         "The expert parallel size must be 1 or the same as the tensor parallel size (sglang 0.5.3rc2: python/sglang/"
         "srt/server_args.py:972-975; 0.5.23: python/sglang/srt/arg_groups/moe_hook.py:89-92; SGLang picks the MoE "
         "runner flashinfer_cutlass)"},
        /* SM100's default --quantization: fp8 without a quantization config, from 0.5.11 only for FP8 weights */
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--moe-runner-backend flashinfer_cutlass", "0.5.10", NULL,
         "Invalid quantization 'fp8'.  FlashInfer Cutlass MOE supports only"},
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--moe-runner-backend flashinfer_cutlass", "0.5.11", NULL,
         "only where the checkpoint's weights are FP8, which kvcheck does not model"},
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--moe-runner-backend flashinfer_trtllm", "0.5.11", "bf16", NULL},
        /* and for the other DeepSeek-family architectures the checkpoint's method */
        {"B200", MODELS "GLM5.json", "--moe-runner-backend flashinfer_cutlass", "0.5.9", NULL,
         "SGLang 0.5.9 refuses to start: Invalid quantization 'fp8'.  FlashInfer Cutlass MOE supports only: "
         "'modelopt_fp4', 'modelopt_fp8', or bfloat16 (None)."},
        /* from 0.5.18 the megamoe runner is the auto runner with the megamoe all-to-all backend */
        {"RTX PRO 6000", MODELS "DEEPSEEK_V3_NVFP4.json", "--tp 8 --moe-runner-backend megamoe --quantization "
         "modelopt_fp4 --ep-size 2", "0.5.18", NULL, "The expert parallel size must be 1 or the same as the tensor "
         "parallel size (sglang 0.5.3rc2: python/sglang/srt/server_args.py:972-975; 0.5.23: python/sglang/srt/"
         "arg_groups/moe_hook.py:89-92; SGLang picks the MoE runner flashinfer_cutlass)"},
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "--tp 8 --moe-runner-backend megamoe", "0.5.23", NULL,
         "all-to-all backend megamoe: MegaMoE, whose checks read the GPU"},
        /* up to 0.5.20 DeepSeek-V4's hook checks MegaMoE's prefill budget on a worker that is not decode */
        {"H200", MODELS "DSV4.json", "--tp 8 --moe-a2a-backend megamoe", "0.5.17", NULL,
         "MegaMoE on DeepSeek-V4, whose hook checks each rank's prefill token budget"},
        {"H200", MODELS "DSV4.json", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=1 --tp 8", "0.5.17", NULL,
         "MegaMoE on DeepSeek-V4"},
        {"H200", MODELS "DSV4.json", "--tp 8 --moe-a2a-backend megamoe --disaggregation-mode decode", "0.5.20", "model1_fp8",
         NULL},
        /* mxfp8 and nvfp4_online: SGLang picks the runner, overriding some that are given */
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--quantization mxfp8 --moe-runner-backend flashinfer_cutlass",
         "0.5.10",
         NULL, "--quantization mxfp8: SGLang 0.5.10 picks the MoE runner for it"},
    };
    check_line_cases(C, COUNT_OF(C));
}

/* Prefill context parallelism, under each release's flag, the split KV pools it enables, MoE data parallelism and
 * DWDP: unjudged. */
static void test_rules__unmodelled_parallelism(void **state)
{
    (void)state;
    static const struct line_case C[] = {
        {"H200", "glm-5.2", "--tp 8 --enable-dsa-cache-layer-split", "0.5.16", NULL,
         "--enable-dsa-cache-layer-split: a KV pool split across the ranks"},
        {"H200", "deepseek-v3.2", "--tp 8 --enable-kv-cache-sharding", "0.5.22", NULL,
         "--enable-kv-cache-sharding: a KV pool split across the ranks"},
        /* and the parallelism SGLang applies to --ep-size before the MoE runner's checks */
        {"B200", "deepseek-v3", "--tp 8 --moe-dp-size 2 --ep-size 8", "0.5.16", NULL,
         "--moe-dp-size: MoE data parallelism, which SGLang checks against --ep-size and --tp-size; kvcheck does not "
         "model it"},
        {"B200", "deepseek-v3", "--tp 8 --dwdp-size 8 --disaggregation-mode prefill", "0.5.18", NULL,
         "--dwdp-size: DWDP, which sets the expert parallel size"},
        {"B200", "deepseek-v3", "--tp 8 --moe-dp-size 1", "0.5.16", "bf16", NULL},
    };
    check_line_cases(C, COUNT_OF(C));
}

/* Prefill context parallelism, release by release (cp.c): the bf16 KV cache it sets in 0.5.6-0.5.9 (in-seq-split
 * only from 0.5.8, the default there but not in 0.5.9), what SGLang refuses for it, the MLA CP other DeepSeek-family
 * models take (its deepep and --ep-size reach the MoE runner's checks), and the attention CP size's checks. */
static void test_rules__prefill_context_parallelism(void **state)
{
    (void)state;
#define NSA_CP "--tp 8 --enable-nsa-prefill-context-parallel"
    static const struct line_case C[] = {
        {"B200", "deepseek-v3.2", NSA_CP " --kv-cache-dtype fp8_e4m3", "0.5.6", "bf16", NULL},
        {"B200", "deepseek-v3.2", NSA_CP " --disaggregation-mode decode", "0.5.7", "bf16", NULL},
        {"B200", "deepseek-v3.2", NSA_CP, "0.5.8", "bf16", NULL},
        {"B200", "deepseek-v3.2", NSA_CP " --nsa-prefill-cp-mode round-robin-split", "0.5.8", "fp8_flashmla", NULL},
        {"B200", "deepseek-v3.2", NSA_CP, "0.5.9", "fp8_flashmla", NULL},
        {"B200", "deepseek-v3.2", NSA_CP " --nsa-prefill-cp-mode in-seq-split --kv-cache-dtype fp8_e4m3", "0.5.9",
         "bf16", NULL},
        {"B200", "deepseek-v3.2", NSA_CP " --nsa-prefill-cp-mode in-seq-split", "0.5.10", "fp8_raw", NULL},
        {"H200", "deepseek-v3.2", "--tp 4 --enable-nsa-prefill-context-parallel", "0.5.10", NULL,
         "AssertionError: Current multi-machine CP support suffers from precision issues. So context parallel only "
         "support Single machine(tp_size == 8)"},
        {"H200", "deepseek-v3.2", "--tp 4 --enable-nsa-prefill-context-parallel", "0.5.12", "bf16", NULL},
        {"H200", "deepseek-v3.2", "--tp 16 --enable-prefill-cp --cp-strategy interleave", "0.5.23", NULL,
         "Context parallel only supports single machine (tp_size <= 8)."},
        {"H200", "deepseek-v3.2", NSA_CP " --disaggregation-mode decode", "0.5.8", NULL,
         "CP is only supported for prefill when PD disaggregation, please remove "
         "--enable-nsa-prefill-context-parallel."},
        {"H200", "glm-5.2", "--tp 8 --enable-prefill-cp --cp-strategy zigzag --disaggregation-mode decode", "0.5.23",
         NULL, "please remove --enable-prefill-cp."},
        {"H200", "deepseek-v3.2", NSA_CP " --dp 2", "0.5.9", NULL,
         "For round-robin split mode, dp attention is not supported."},
        {"H200", "deepseek-v3.2", "--tp 8 --dp 2 --enable-prefill-cp --cp-strategy interleave", "0.5.14", NULL,
         "AssertionError: interleave DSA CP does not support DP attention."},
        {"H200", "deepseek-v3.2", "--tp 8 --dp 2 --enable-dp-attention --enable-prefill-cp --cp-strategy interleave",
         "0.5.22", "bf16", NULL},
        {"H200", "deepseek-v3.2", "--tp 8 --dp 2 --attn-dp-size 2 --enable-prefill-cp --cp-strategy interleave",
         "0.5.22", NULL, "--dp-size 2 with --attn-dp-size 2: data-parallel replicas combined with attention data "
         "parallelism are not supported."},
        {"H200", "deepseek-v3.2", "--tp 8 --enable-prefill-cp", "0.5.14", NULL,
         "ValueError: --cp-strategy must be set when --enable-prefill-cp is enabled."},
        {"H200", MODELS "DEEPSEEK_V32_HF.json", "--tp 8 --enable-prefill-cp --cp-strategy zigzag", "0.5.23", NULL,
         "DeepSeek V3.2 prefill CP does not support --cp-strategy zigzag; use interleave."},
        {"H200", "glm-5.2", "--tp 8 --enable-prefill-cp --cp-strategy zigzag", "0.5.23", "bf16", NULL},
        {"H200", "deepseek-v3.2", NSA_CP " --enable-prefill-context-parallel", "0.5.13", NULL,
         "are mutually exclusive."},
        {"MI300X", "deepseek-v3.2", NSA_CP, "0.5.19", "bf16", NULL},
        {"MI300X", "deepseek-v3", "--tp 8 --enable-prefill-cp --cp-strategy zigzag", "0.5.20", NULL,
         "Prefill CP on HIP/NPU/MUSA is deprecated"},
        {"MI355X", "deepseek-v3.2", "--tp 8 --enable-prefill-cp --cp-strategy interleave", "0.5.23", NULL,
         "Prefill CP on HIP is only supported for DeepseekV4ForCausalLM, got 'DeepseekV32ForCausalLM'."},
        /* MLA CP: deepep and --ep-size 8, which cutlass's fp8 check refuses; none before 0.5.13 */
        {"B200", "deepseek-v3", NSA_CP " --moe-runner-backend cutlass --quantization fp8", "0.5.16", NULL,
         "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1"},
        {"B200", "deepseek-v3", NSA_CP " --moe-runner-backend cutlass --quantization fp8", "0.5.13", "bf16", NULL},
        {"B200", "deepseek-v3", "--tp 8 --enable-prefill-context-parallel --moe-runner-backend cutlass --quantization "
         "fp8", "0.5.13", NULL, "FP8/MXFP8 Cutlass MoE is only supported with ep_size == 1"},
        /* the attention CP size, given or set by CP */
        {"H200", "deepseek-v3.2", "--tp 8 --attn-cp-size 3", "0.5.10", NULL,
         "AssertionError: tp_size must be divisible by attn_cp_size"},
        {"H200", "deepseek-v3.2", "--tp 8 --dp 4 --attn-cp-size 4", "0.5.10", NULL,
         "AssertionError: tp_size must be divisible by dp_size * attn_cp_size"},
        {"H200", "deepseek-v3.2", "--tp 8 --attn-cp-size 2 --pp-size 2", "0.5.9", NULL,
         "AssertionError: PP is not supported with context parallelism"},
        {"H200", "deepseek-v3.2", "--tp 8 --attn-cp-size 2 --enable-aiter-allreduce-fusion", "0.5.10", NULL,
         "AssertionError: Aiter allreduce fusion is not supported with context parallelism"},
        {"H200", "deepseek-v3.2", "--tp 8 --attn-cp-size 2", "0.5.9", "bf16", NULL},
        /* aiter's all-reduce fusion, which 0.5.21+ turns on for GLM-5 on one ROCm node without attention DP */
        {"MI300X", "glm-5.2", "--tp 8 --attn-cp-size 2", "0.5.21", NULL,
         "Aiter allreduce fusion is not supported with context parallelism"},
        {"MI300X", "glm-5.2", "--tp 8 --attn-cp-size 2 --nnodes 2", "0.5.21", "bf16", NULL},
        {"MI300X", "glm-5.2", "--tp 8 --attn-cp-size 2", "0.5.20", "bf16", NULL},
        /* models with their own CP checks; decode CP */
        {"H200", MODELS "LONGCAT_FLASH.json", "--tp 8 --enable-prefill-cp --cp-strategy zigzag", "0.5.23", NULL,
         "LongCat-Flash does not support --enable-prefill-cp with --attn-cp-size > 1"},
        {"H200", "tests/unit/models/HYV4.json", "--tp 8 --enable-prefill-cp --cp-strategy interleave", "0.5.20", NULL,
         "--enable-prefill-cp is not supported for HYV4 because its attention path does not implement DSA "
         "context-parallel metadata and sharding. Got architecture='HYV4ForCausalLM' and enable_prefill_cp=True."},
        {"H200", MODELS "GLM5_NEXT.json", "--tp 8 --enable-prefill-cp --cp-strategy interleave", "0.5.22", NULL,
         "CP-TP group sharing checks and sets"},
        {"H200", "deepseek-v3.2", "--tp 8 --enable-prefill-cp --cp-strategy interleave --dcp-size 2", "0.5.22", NULL,
         "--dcp-size > 1 does not support --enable-prefill-cp."},
        /* the data parallelism handler, which CP's attention DP meets too */
        {"H200", "deepseek-v3.2", "--tp 8 --dp 3 --enable-dp-attention", "0.5.14", NULL,
         "AssertionError: (a bare assert in the data parallelism handler: --tp-size 8 is not a multiple of the "
         "attention data parallel size 3"},
        {"H200", "deepseek-v3.2", "--tp 6 --dp 3 --enable-prefill-cp --cp-strategy zigzag", "0.5.14", NULL,
         "AssertionError: chunked_prefill_size must be divisible by page_size"},
        {"H200", "deepseek-v3.2", "--tp 6 --dp 3 --enable-prefill-cp --cp-strategy zigzag --disaggregation-mode "
         "decode", "0.5.14", NULL, "please remove --enable-prefill-cp."},
        {"H200", "deepseek-v3", "--tp 8 --dp 2 --attn-dp-size 2", "0.5.22", NULL,
         "ValueError: --dp-size 2 with --attn-dp-size 2: data-parallel replicas combined with attention data "
         "parallelism are not supported."},
    };
#undef NSA_CP
    check_line_cases(C, COUNT_OF(C));
}

/* SGLang's chunked prefill size: given, or its default for the GPU's memory, divided by the attention DP size, must
 * be a multiple of the page size on a prefill-capable worker; where the GPU's name leaves the memory open, the worker
 * is judged only when every size it may take agrees (oracle runs: sglang-oracle resolve.py). */
static void test_rules__chunked_prefill_size(void **state)
{
    (void)state;
    static const char REFUSED[] = "AssertionError: chunked_prefill_size must be divisible by page_size";
    static const char OPEN[] = "kvcheck does not model which of them SGLang takes";
    static const struct line_case C[] = {
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 1000", "0.5.23", NULL, "such as 960"},
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 99999999999999999999999", "0.5.23", NULL,
         "such as 99999999999999999999936"},
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 10", "0.5.23", NULL, "such as 64"},
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 1024", "0.5.23", "bf16", NULL},
        /* 8192 // 3 = 2730 on an H200 (60-160 GiB), refused; a size of 3 x 64 x k passes */
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3", "0.5.23", NULL, "a multiple of 192 (64 x 3), such as 8064"},
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3 --chunked-prefill-size 12288", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 6 --dp 3 --enable-dp-attention", "0.5.9", NULL, REFUSED},
        /* plain DP replicas are not divided */
        {"H200", "glm-5.2", "--tp 6 --dp 3", "0.5.9", "bf16", NULL},
        /* decode workers are divided but not checked; 0 and below, or below the DP size, turn chunking off */
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3 --disaggregation-mode decode", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3 --disaggregation-mode prefill", "0.5.23", NULL, REFUSED},
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3 --chunked-prefill-size -1", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 6 --attn-dp-size 3 --chunked-prefill-size 2", "0.5.23", "bf16", NULL},
        /* a power of two is not enough: 8192 // 256 = 32 */
        {"H200", "glm-5.2", "--tp 256 --attn-dp-size 256", "0.5.23", NULL, REFUSED},
        {"B200", "glm-5.2", "--tp 256 --attn-dp-size 256", "0.5.23", "fp8_raw", NULL},
        /* up to 0.5.5.post3 DSA divides by --tp-size whatever --dp says */
        {"H200", "deepseek-v3.2", "--tp 6 --dp 3 --enable-dp-attention", "0.5.3rc2", NULL, REFUSED},
        {"H200", "deepseek-v3.2", "--tp 6 --dp 3 --enable-dp-attention --chunked-prefill-size 6144", "0.5.3rc2", "bf16",
         NULL},
        /* any page above one token: DeepSeek V3's trtllm_mla pages of 64 on SM100 */
        {"B200", "deepseek-v3", "--tp 6 --dp 3 --enable-dp-attention", "0.5.19", NULL, REFUSED},
        /* a Python int of any length */
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 123456789012345678901234567890", "0.5.23", NULL, REFUSED},
        {"H200", "glm-5.2", "--tp 8 --chunked-prefill-size 123456789012345678901234567936", "0.5.23", "bf16", NULL},
        /* memory the name leaves open: an A100 has 40 GB (4096) or 80 GB (8192); 4096 // 128 = 32 */
        {"A100", "glm-5.2", "--tp 128 --dp 128 --enable-dp-attention", "0.5.9", NULL, OPEN},
        {"NVIDIA A100-SXM4-80GB", "glm-5.2", "--tp 128 --dp 128 --enable-dp-attention", "0.5.9", "bf16", NULL},
        {"A100 40GB", "glm-5.2", "--tp 128 --dp 128 --enable-dp-attention", "0.5.9", NULL, REFUSED},
        {"A100", "glm-5.2", "--tp 128 --dp 128 --enable-dp-attention --chunked-prefill-size 8192", "0.5.9", "bf16",
         NULL},
        {"sm_90", "glm-5.2", "--tp 128 --dp 128 --enable-dp-attention", "0.5.9", NULL, OPEN},
        {"sm_90", "glm-5.2", "--tp 6 --dp 3 --enable-dp-attention", "0.5.9", NULL, REFUSED},
        /* Glm5Next with a breakable prefill CUDA graph takes 4096 in 0.5.20-0.5.21: 4096 // 128 = 32 */
        {"H200", GLM5_NEXT, "--tp 128 --dp 128 --enable-dp-attention --cuda-graph-backend-prefill breakable", "0.5.20",
         NULL, REFUSED},
        {"H200", GLM5_NEXT, "--tp 128 --dp 128 --enable-dp-attention", "0.5.20", "bf16", NULL},
        {"H200", GLM5_NEXT, "--tp 128 --dp 128 --enable-dp-attention --cuda-graph-config {}", "0.5.21", NULL, OPEN},
        {"H200", GLM5_NEXT, "--tp 128 --dp 128 --enable-dp-attention --cuda-graph-backend-prefill breakable", "0.5.22",
         "bf16", NULL},
        /* a release without the model's class: its page is not derived, but a given one that the size is not a
         * multiple of may be SGLang's */
        {"B200", "glm-5.2", "--tp 8 --page-size 96", "0.5.5", NULL, "kvcheck does not model this architecture's page"},
        {"B200", "glm-5.2", "--tp 8 --page-size 64", "0.5.5", NULL, "has no model class for glm-5.2"},
        /* 0.5.22+ takes --dp with --enable-dp-attention as the attention DP size where --attn-dp-size is 1 */
        {"H200", "glm-5.2", "--tp 6 --dp 3 --enable-dp-attention --attn-dp-size 1", "0.5.23", NULL, REFUSED},
        /* ROCm's DSA page is 64 with aiter's preshuffle path, else 1, which kvcheck does not tell */
        {"MI300X", "glm-5.2", "--tp 6 --attn-dp-size 6", "0.5.23", NULL, "which ROCm takes with aiter's preshuffle"},
        {"MI300X", "glm-5.2", "--tp 6 --attn-dp-size 6 --chunked-prefill-size 6144", "0.5.23", "bf16", NULL},
        /* PD multiplexing: no pipeline parallelism, chunking off; then its checks kvcheck does not model */
        {"H200", "glm-5.2", "--tp 8 --enable-pdmux", "0.5.23", NULL,
         "AssertionError: PD-Multiplexing is not compatible with chunked prefill."},
        {"H200", "glm-5.2", "--tp 8 --enable-pdmux --chunked-prefill-size -1", "0.5.23", NULL, "overlap schedule"},
        /* multi-item scoring turns chunking off, then checks the attention backends: unjudged */
        {"H200", "glm-5.2", "--tp 8 --enable-mis", "0.5.23", NULL, "--enable-mis: multi-item scoring"},
    };
    check_line_cases(C, COUNT_OF(C));
    /* the size is shown where it matters, with where it comes from */
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "glm-5.2", "--tp 8 --attn-dp-size 8", "0.5.23", &r, &d), KVC_OK);
    const kvc_setting *s = kvc_resolved_find(&r, "chunked_prefill_size");
    assert_string_equal(s->value, "1024");
    assert_contains(s->reason, "8192, SGLang's default for the GPU's memory (H200: 143771 MiB;");
    assert_contains(s->reason, "divided by the attention data parallel size 8");
    assert_int_equal(resolve_line("H200", "glm-5.2", "--tp 8", "0.5.23", &r, &d), KVC_OK);
    assert_string_equal(kvc_resolved_find(&r, "chunked_prefill_size")->value, "");
}

/* SGLang's MoE all-to-all handler and the checks of its result: each backend's refusals, in the release's words; the
 * budgets against the chunked prefill size and the launch's environment; two-batch overlap and EPLB; the backends
 * kvcheck does not model (oracle runs: matrix.py --parallel's A2A_CASES). */
static void test_rules__all_to_all_handler(void **state)
{
    (void)state;
#define NVFP4 "tests/conformance/sglang/models/MODELOPT_GLM5_NVFP4.json"
#define FI_DP8 "--tp 8 --moe-a2a-backend flashinfer --dp 8 --enable-dp-attention"
    static const char UNJUDGED[] = "kvcheck does not model";
    static const struct line_case C[] = {
        /* mooncake and nixl only set --ep-size: the layout is none's */
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mooncake", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend nixl", "0.5.10", "bf16", NULL},
        /* flashinfer: attention DP as wide as TP, then the runner */
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend flashinfer", "0.5.14", NULL,
         "AssertionError: Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend flashinfer", "0.5.23", NULL,
         "AssertionError: Flashinfer MoE A2A requires --attn-dp-size equal to --tp-size"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend flashinfer", "0.5.12", NULL,
         "AssertionError: Flashinfer MoE A2A is only supported with flashinfer_cutlass moe runner backend"},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass", "0.5.14", "bf16", NULL},
        {"H200", "glm-5.2", FI_DP8, "0.5.15", NULL, "flashinfer_trtllm_routed moe runner backend"},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend triton", "0.5.19", NULL,
         "AssertionError: FlashInfer MoE A2A is supported with flashinfer_cutlass, flashinfer_cutedsl, "
         "flashinfer_trtllm, flashinfer_trtllm_routed, or deep_gemm."},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass --chunked-prefill-size -1", "0.5.22", NULL,
         "ValueError: FlashInfer MoE A2A requires chunked prefill"},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass --chunked-prefill-size -1 "
         "--disaggregation-mode decode", "0.5.22", "bf16", NULL},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass --speculative-algorithm EAGLE", "0.5.23",
         NULL, UNJUDGED},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass --cuda-graph-max-bs-prefill 8192",
         "0.5.22", NULL, UNJUDGED},
        {"B200", NVFP4, "SGLANG_MOE_NVFP4_DISPATCH=1 " FI_DP8 " --moe-runner-backend flashinfer_cutlass "
         "--flashinfer-a2a-dispatch-type bf16", "0.5.23", NULL,
         "ValueError: SGLANG_MOE_NVFP4_DISPATCH cannot be set together with --flashinfer-a2a-dispatch-type."},
        {"B200", NVFP4, FI_DP8 " --moe-runner-backend flashinfer_cutlass --flashinfer-a2a-dispatch-type bf16", "0.5.23",
         "fp8_raw", NULL},
        {"B200", NVFP4, FI_DP8 " --moe-runner-backend flashinfer_cutedsl", "0.5.14", NULL, UNJUDGED},
        {"H200", "glm-5.2", "--tp 8 --flashinfer-a2a-dispatch-type bf16", "0.5.20", NULL,
         "ValueError: --flashinfer-a2a-dispatch-type requires --moe-a2a-backend flashinfer."},
        {"H200", "glm-5.2", FI_DP8 " --moe-runner-backend flashinfer_cutlass --flashinfer-a2a-dispatch-type mxfp8",
         "0.5.23", NULL, "ValueError: --flashinfer-a2a-dispatch-type mxfp8 requires --quantization mxfp8."},
        /* deepep: flashinfer_cutedsl only in low-latency mode (0.5.17+) */
        {"B200", NVFP4, "--tp 8 --moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode normal",
         "0.5.17", NULL, "ValueError: flashinfer_cutedsl FP4 MoE only supports DeepEP low_latency dispatch"},
        {"B200", NVFP4, "--tp 8 --moe-a2a-backend deepep --moe-runner-backend flashinfer_cutedsl --deepep-mode normal",
         "0.5.16", "fp8_raw", NULL},
        /* mori: the chunked prefill size within SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK (4096) */
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mori", "0.5.23", NULL,
         "must be >= the per-rank MoRI dispatch tokens (chunked_prefill_size by default)"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mori --chunked-prefill-size 4096", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mori --dp 2 --enable-dp-attention", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=8192 --tp 8 --moe-a2a-backend mori", "0.5.23",
         "bf16", NULL},
        /* a value int() refuses is SGLang's default; any length is an int, a negative one refuses any chunk */
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=x --tp 8 --moe-a2a-backend mori", "0.5.23",
         NULL, "(default 4096) must be >= the per-rank MoRI dispatch tokens"},
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=99999999999999999999 --tp 8 "
         "--moe-a2a-backend mori", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=-3 --tp 8 --moe-a2a-backend mori", "0.5.23",
         NULL, "(default 4096) must be >= the per-rank MoRI dispatch tokens"},
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=-3 --tp 8 --moe-a2a-backend mori "
         "--chunked-prefill-size -1", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK=-3 --tp 8 --moe-a2a-backend mori "
         "--chunked-prefill-size -1", "0.5.9", NULL, UNJUDGED},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mori --disaggregation-mode decode", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend mori --disaggregation-mode decode", "0.5.9", NULL,
         "must be larger or equal to chunked_prefill_size"},
        /* an A100 takes 4096 (40 GB) or 8192 (80 GB) */
        {"A100", "glm-5.2", "--tp 8 --moe-a2a-backend mori", "0.5.23", NULL, UNJUDGED},
        /* pplx: low-latency mode, attention DP, deep_gemm, and 128 dispatch tokens */
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --dp 8 --enable-dp-attention", "0.5.21", NULL,
         "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK (default 128) must be >="},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --attn-dp-size 8 --chunked-prefill-size 1024", "0.5.23",
         "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --attn-dp-size 8 --chunked-prefill-size 1024 "
         "--cuda-graph-max-bs-decode 256", "0.5.23", NULL, "SGLANG_PPLX_NUM_MAX_DISPATCH_TOKENS_PER_RANK"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --attn-dp-size 8 --chunked-prefill-size 1024 "
         "--deepep-mode normal", "0.5.23", NULL, "ValueError: moe_a2a_backend='pplx' only supports low-latency mode"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --attn-dp-size 8 --chunked-prefill-size 1024 "
         "--moe-runner-backend triton", "0.5.23", NULL,
         "AssertionError: moe_a2a_backend='pplx' is only supported with --moe-runner-backend deep_gemm (or auto)."},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --attn-dp-size 8 --chunked-prefill-size 1024 "
         "--cuda-graph-max-bs-decode -1", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --dp 8 --enable-dp-attention --attn-dp-size 1 "
         "--chunked-prefill-size 1024", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend pplx --chunked-prefill-size 64", "0.5.23", NULL,
         "AssertionError: moe_a2a_backend='pplx' requires attention DP with at least 2 groups (--attn-dp-size >= 2)."},
        /* two-batch overlap: an EP backend (0.5.7-0.5.14), else attention DP (0.5.15+) */
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap", "0.5.10", NULL,
         "ValueError: When enabling two batch overlap, moe_a2a_backend cannot be 'none'."},
        {"H200", "deepseek-v3.2", "--tp 8 --enable-two-batch-overlap", "0.5.6", "bf16", NULL},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap --moe-a2a-backend deepep", "0.5.10", "bf16", NULL},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap", "0.5.23", NULL,
         "attention DP (--attn-dp-size) is required (DeepSeek-V4 non-EP DP TBO path)."},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap --attn-dp-size 8", "0.5.23", "bf16", NULL},
        /* 0.5.18-0.5.19 exempt ROCm's DSA prefill CP split round-robin (interleave) */
        {"MI300X", "glm-5", "--tp 8 --enable-two-batch-overlap --enable-prefill-cp --cp-strategy interleave",
         "0.5.18", "bf16", NULL},
        {"MI300X", "glm-5", "--tp 8 --enable-two-batch-overlap --enable-dsa-prefill-context-parallel", "0.5.19",
         "bf16", NULL},
        {"MI300X", "glm-5", "--tp 8 --enable-two-batch-overlap --enable-prefill-cp --cp-strategy interleave",
         "0.5.17", NULL, "--enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path)."},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap --enable-prefill-cp --cp-strategy interleave",
         "0.5.18", NULL, "--enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path)."},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap --moe-a2a-backend ascend_tp", "0.5.16", NULL,
         "--enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path)."},
        /* waterfill makes the backend deepep; 0.5.16-0.5.18's flashinfer branch still reads the flag */
        {"B200", "glm-5.2", "--tp 8 --enable-waterfill --moe-a2a-backend flashinfer", "0.5.17", NULL,
         "AssertionError: Flashinfer MoE A2A is only supported with dp_size == tp_size and --enable-dp-attention"},
        {"B200", "glm-5.2", "--tp 8 --enable-waterfill --moe-a2a-backend flashinfer", "0.5.19", "fp8_raw", NULL},
        /* SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE on makes the backend megamoe (0.5.12-0.5.17), which only sets the expert
         * parallel size before 0.5.21 */
        {"H200", "glm-5", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=1 --tp 8 --enable-two-batch-overlap", "0.5.14", "bf16",
         NULL},
        {"H200", "glm-5", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=0 --tp 8 --enable-two-batch-overlap", "0.5.14", NULL,
         "ValueError: When enabling two batch overlap, moe_a2a_backend cannot be 'none'."},
        {"H200", "glm-5", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=maybe --tp 8 --enable-two-batch-overlap", "0.5.14", NULL,
         "ValueError: When enabling two batch overlap, moe_a2a_backend cannot be 'none'."},
        {"H200", "glm-5.2", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=yes --tp 1 --enable-eplb", "0.5.17", NULL,
         "AssertionError: (a bare assert ep_size > 1"},
        {"H200", "glm-5.2", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=Y --tp 8 --moe-a2a-backend mori", "0.5.17", "bf16", NULL},
        {"H200", "glm-5", "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=1 --tp 8 --enable-two-batch-overlap", "0.5.18", NULL,
         "--enable-dp-attention is required (DeepSeek-V4 non-EP DP TBO path)."},
        {"H200", "glm-5", "--tp 8 --moe-a2a-backend megamoe --enable-two-batch-overlap", "0.5.20", "bf16", NULL},
        /* elastic EP: EPLB skips a scale joiner (0.5.16+); without a backend the flags that need one refuse */
        {"H200", "glm-5.2", "--tp 1 --enable-eplb --elastic-ep-join-mode scale", "0.5.17", NULL,
         "AssertionError: --elastic-ep-join-mode requires --elastic-ep-backend to be set."},
        {"H200", "glm-5.2", "--tp 1 --enable-eplb --elastic-ep-join-mode recover", "0.5.17", NULL,
         "AssertionError: (a bare assert ep_size > 1"},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-backend none --pp-size 2", "0.5.23", NULL, UNJUDGED},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-rejoin", "0.5.18", NULL,
         "AssertionError: --elastic-ep-join-mode requires --elastic-ep-backend to be set."},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-rejoin", "0.5.13", NULL,
         "AssertionError: Elastic EP rejoin requires elastic_ep_backend to be set."},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-rejoin --elastic-ep-join-mode scale", "0.5.18", NULL,
         "AssertionError: --elastic-ep-rejoin (deprecated) conflicts with --elastic-ep-join-mode scale."},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-join-rank-offset 3", "0.5.23", NULL,
         "AssertionError: --elastic-ep-join-rank-offset is only valid with --elastic-ep-join-mode scale."},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-join-rank-offset 0", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --max-ep-size 16", "0.5.23", NULL,
         "AssertionError: --max-ep-size requires --elastic-ep-backend to be set."},
        {"H200", "glm-5.2", "--tp 8 --elastic-ep-initial-size 8", "0.5.23", NULL,
         "AssertionError: --elastic-ep-initial-size is only valid for an Elastic EP deployment"},
        {"H200", "glm-5.2", "--tp 8 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
         "--speculative-num-draft-tokens 4 --speculative-moe-a2a-backend deepep_v2", "0.5.23", NULL,
         "ValueError: DeepEP v2 MoE is not validated as a speculative draft backend."},
        {"H200", "glm-5", "--tp 8 --enable-two-batch-overlap --enable-deepep-waterfill", "0.5.12", NULL,
         "ValueError: --enable-two-batch-overlap and --enforce-shared-experts-fusion cannot be used together."},
        /* EPLB: an expert parallel size above 1 */
        {"H200", "glm-5.2", "--tp 1 --enable-eplb --moe-a2a-backend deepep", "0.5.23", NULL,
         "AssertionError: (a bare assert ep_size > 1"},
        {"H200", "glm-5.2", "--tp 8 --enable-eplb --moe-a2a-backend deepep", "0.5.23", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --enable-eplb", "0.5.23", NULL, "AssertionError: (a bare assert ep_size > 1"},
        {"H200", "glm-5.2", "--tp 8 --enable-eplb --ep-size 8", "0.5.23", "bf16", NULL},
        /* a dispatch algorithm that picks a replica per rank needs an all-to-all backend (0.5.17+) */
        {"H200", "glm-5.2", "--tp 8 --ep-dispatch-algorithm static", "0.5.17", NULL,
         "ValueError: --ep-dispatch-algorithm static picks a different physical replica per rank"},
        {"H200", "glm-5.2", "--tp 8 --ep-dispatch-algorithm static", "0.5.16", "bf16", NULL},
        {"H200", "glm-5.2", "--tp 8 --ep-dispatch-algorithm lp --moe-a2a-backend deepep", "0.5.23", "bf16", NULL},
        /* the backends kvcheck does not model */
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend deepep_v2", "0.5.23", NULL, "DeepEP v2"},
        {"H200", "glm-5.2", "--tp 8 --moe-a2a-backend ascend_fuseep", "0.5.23", NULL, UNJUDGED},
        {"B200", "glm-5.2", "--tp 8 --moe-runner-backend megamoe", "0.5.23", NULL, UNJUDGED},
        /* but MegaMoE's compatibility check comes first of all from 0.5.21 */
        {"B200", "glm-5.2", "--tp 8 --moe-a2a-backend megamoe --enable-single-batch-overlap", "0.5.21", NULL,
         "ValueError: --moe-a2a-backend megamoe has no two-batch / single-batch overlap decomposition"},
        {"RTX PRO 6000", "glm-5.2", "--tp 8 --moe-runner-backend megamoe", "0.5.23", NULL,
         "ValueError: --moe-a2a-backend megamoe needs a CUDA SM90 GPU (block-FP8 experts)"},
    };
#undef FI_DP8
#undef NVFP4
    check_line_cases(C, COUNT_OF(C));
}

/* What kvcheck says of a CP flag: what CP sets, that it replaced a given KV dtype, that a flag sets nothing for this
 * model, and that a decode worker with an attention CP size fails its first transfer. */
static void test_rules__prefill_context_parallelism_notes(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *model, *args, *release, *note;
    } C[] = {
        {"B200", "deepseek-v3.2", "--tp 8 --enable-nsa-prefill-context-parallel --kv-cache-dtype fp8_e4m3", "0.5.6",
         "SGLang 0.5.6 runs DSA prefill context parallelism and sets --kv-cache-dtype bf16 (replacing the one given), "
         "--moe-a2a-backend deepep, --ep-size 8"},
        {"H200", "deepseek-v3", "--tp 8 --enable-nsa-prefill-context-parallel", "0.5.10",
         "has no effect on the server arguments: SGLang 0.5.10 applies prefill context parallelism only to the DSA "
         "models of its DeepSeek family list, and DeepseekV3ForCausalLM is not one"},
        {"H200", "deepseek-v3.2", "--tp 8 --enable-prefill-context-parallel", "0.5.11", "sets nothing from it"},
        {"H200", "deepseek-v3", "--tp 8 --enable-prefill-cp --cp-strategy zigzag --disaggregation-mode decode",
         "0.5.23", "\"Decode cp size (8) should be equal to 1\""},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line(C[i].gpu, C[i].model, C[i].args, C[i].release, &r, &d) != KVC_OK)
            fail_msg("case %zu: %s", i, d.message);
        if (!has_warning(&r, C[i].note)) fail_msg("case %zu: no warning with '%s'", i, C[i].note);
    }
}

/* A ModelOpt checkpoint (config.json's quant_method "modelopt"): the method each release resolves its quant_algo to
 * (the parse from 0.5.10, SM100's server default, the compatible flag), that method's model-loader check, and the
 * KV dtype auto takes from its kv_cache_quant_algo, which the config classes keep in some releases only. */
static void test_rules__modelopt_checkpoints(void **state)
{
    (void)state;
    static const struct line_case C[] = {
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.23", "fp8_raw", NULL},
        {"H200", MODELS "DEEPSEEK_V3_NVFP4_NOKV.json", "", "0.5.23", "bf16", NULL},
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.12.post1", NULL, "SGLang 0.5.12.post1 refuses to start: The "
         "quantization method modelopt_fp4 is not supported for the current GPU. Minimum capability: 100. Current "
         "capability: 90."},
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.10", "bf16", NULL}, /* 0.5.9-0.5.14 read no algo key */
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.6", "fp8_raw", NULL}, /* SM100: --quantization modelopt */
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.6", NULL, "ModelOptFp8Config only supports static FP8 "
         "quantization in SGLang. For FP4 quantization, use ModelOptFp4Config."},
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--quantization modelopt_fp4", "0.5.6", NULL, "Minimum capability: "
         "100. Current capability: 90."},
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "", "0.5.4.post1", NULL, "Quantization method specified in the model "
         "config (modelopt) does not match the quantization method specified in the `quantization` argument (fp8)."},
        {"MI300X", MODELS "DEEPSEEK_V3_NVFP4.json", "--kv-cache-dtype bf16", "0.5.10", NULL, "modelopt_fp4 "
         "quantization is currently not supported in ROCm."},
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--dtype float32", "0.5.23", NULL, "torch.float32 is not supported "
         "for quantization method modelopt_fp4. Supported dtypes: [torch.bfloat16, torch.float16, "
         "torch.float8_e4m3fn]"},
        {"H200", MODELS "DEEPSEEK_V3_MODELOPT_FP8.json", "", "0.5.14", "bf16", NULL},
        {"H200", MODELS "DEEPSEEK_V3_MODELOPT_FP8.json", "", "0.5.15", "fp8_raw", NULL},
        {"H200", MODELS "DEEPSEEK_V3_MODELOPT_FP8.json", "--quantization fp8", "0.5.9", NULL, "Quantization method "
         "specified in the model config (modelopt) does not match the quantization method specified in the "
         "`quantization` argument (fp8)."},
        /* SM100's server default applies to DSA models from 0.5.6 */
        {"B200", MODELS "DEEPSEEK_V32_NVFP4.json", "", "0.5.5", NULL, "ModelOptFp8Config only supports static FP8"},
        {"B200", MODELS "DEEPSEEK_V32_NVFP4.json", "", "0.5.6", "fp8_flashmla", NULL},
        /* 0.5.4.post1-0.5.4.post3 run DeepSeek V3's MoE on flashinfer_trtllm on SM100, which asserts the method */
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "--quantization modelopt", "0.5.4.post1", NULL, "modelopt_fp4 or fp8 "
         "quantization is required for Flashinfer TRTLLM MoE"},
        {"B200", MODELS "DEEPSEEK_V3_NVFP4.json", "--quantization modelopt --moe-runner-backend triton", "0.5.4.post1",
         "fp8_raw", NULL},
        /* on ROCm a config.json ModelOpt checkpoint runs as petit_nvfp4 to 0.5.9, whose config class refuses it */
        {"MI300X", MODELS "DEEPSEEK_V3_NVFP4.json", "--kv-cache-dtype bf16", "0.5.9", NULL, "Cannot find any of "
         "['quantization'] in the model's quantization config."},
        /* releases that do not register "modelopt" */
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--kv-cache-dtype fp8_e4m3", "0.5.3.post1", NULL, "SGLang 0.5.3.post1 "
         "refuses to start: Unknown quantization method: modelopt. Must be one of ['fp8', 'blockwise_int8', "
         "'modelopt_fp8', "},
        /* online requantization: declined */
        {"H200", MODELS "DEEPSEEK_V3_NVFP4.json", "--quantization nvfp4_online", "0.5.15", NULL,
         "--quantization nvfp4_online, an online requantization of the checkpoint"},
    };
    check_line_cases(C, COUNT_OF(C));
    /* declined: a null list of layers left unquantized; SM100's defaults for another DeepSeek-family architecture
     * set its checkpoint's method, as for DeepSeek V3 */
    static const char IGNORE_NULL[] =
        "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
        "\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":"
        "\"modelopt\",\"quant_algo\":\"NVFP4\",\"group_size\":16,\"ignore\":null}}";
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", temp_file(".json", IGNORE_NULL), "", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "gives a null list of layers left unquantized");
    static const char KIMI[] =
        "{\"architectures\":[\"KimiK25ForConditionalGeneration\"],\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,"
        "\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\",\"quantization_config\":{\"quant_method\":"
        "\"modelopt\",\"quant_algo\":\"NVFP4\",\"group_size\":16}}";
    assert_int_equal(resolve_line("B200", temp_file(".json", KIMI), "", "0.5.9", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "bf16");
}

/* SGLang's model loader checks the quantization method (--quantization, else the checkpoint's) against the GPU's
 * capability and the model's dtype; kvcheck declines what SGLang's reading of --quantization decides, and warns
 * where it has no row for the checkpoint's own method. */
/* DeepSeek-V3's NVFP4 config (`v32`: V3.2's) with quantization config `quant` written in its place as given (16.0
 * stays 16.0), in a temporary file. */
static const char *quant_variant(int v32, const char *quant, char *path, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    kvc_diag d;
    if (file_read_all(v32 ? MODELS "DEEPSEEK_V32_NVFP4.json" : MODELS "DEEPSEEK_V3_NVFP4.json", &text, &len, &d))
        fail_msg("%s", d.message);
    char *key = strstr(text, "\"quantization_config\"");
    assert_non_null(key);
    char *open = strchr(key, '{'), *close = open;
    for (int depth = 0; *close; close++) /* the base config's object holds no braces in strings */
        if ((depth += *close == '{' ? 1 : *close == '}' ? -1 : 0) == 0) break;
    assert_true(open && *close == '}');
    size_t n = (size_t)(open - text) + strlen(quant) + strlen(close + 1) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(open - text), text, quant, close + 1);
    snprintf(path, size, "%s", temp_file(".json", out));
    free(out);
    free(text);
    return path;
}

static void test_rules__modelopt_configs_sglang_reads_its_own_way(void **state)
{
    (void)state;
#define NV(extra) "{\"quant_method\": \"modelopt\", \"kv_cache_quant_algo\": \"FP8\", \"exclude_modules\": [\"lm_head\"]" extra "}"
    static const struct {
        int v32;
        const char *quant, *gpu, *args, *release;
        const char *layout;  /* NULL: refused */
        const char *message; /* in the refusal */
    } C[] = {
        /* ModelOpt's override reads quant_algo with .upper() from 0.5.4, on every GPU: a null one crashes it */
        {0, NV(", \"quant_algo\": null, \"group_size\": 16"), "H200", "", "0.5.9", NULL,
         "SGLang 0.5.9 refuses to start: AttributeError: 'NoneType' object has no attribute 'upper' (the model's "
         "quantization config gives a quant_algo that is no string"},
        /* any method's config: a quant_algo of 5 beside fp8's fields */
        {0, "{\"quant_method\": \"fp8\", \"activation_scheme\": \"dynamic\", \"weight_block_size\": [128, 128], "
         "\"quant_algo\": 5}", "H200", "", "0.5.23", NULL, "AttributeError: 'int' object has no attribute 'upper'"},
        /* an empty quant_algo is one: the config class refuses it as an algorithm */
        {0, NV(", \"quant_algo\": \"\", \"group_size\": 16"), "H200", "", "0.5.23", NULL,
         "ModelOptFp8Config only supports regular FP8 quantization, but found ''."},
        {0, NV(", \"quant_algo\": null, \"group_size\": 16"), "MI300X", "--kv-cache-dtype bf16", "0.5.23", NULL,
         "AttributeError: 'NoneType' object has no attribute 'upper'"},
        {0, NV(", \"quant_algo\": null, \"group_size\": 16"), "H200", "", "0.5.3.post1", NULL,
         "Unknown quantization method: modelopt."},
        /* SM100's default --quantization is the checkpoint's method as parsed ("nvfp4" is not: it stays modelopt),
         * which the MoE runner's check reads before ModelOpt's override names modelopt_fp4 */
        {1, NV(", \"quant_algo\": \"nvfp4\", \"group_size\": 16"), "B200", "--moe-runner-backend flashinfer_cutlass",
         "0.5.10", NULL, "Invalid quantization 'modelopt'.  FlashInfer Cutlass MOE supports only: 'modelopt_fp4', "
         "'modelopt_fp8', 'modelopt_mixed', or bfloat16 (None)."},
        /* 0.5.3.x take the group size as common_group_size collects it, before the quant_algo */
        {0, NV(", \"quant_algo\": \"MXFP8\""), "B200", "--quantization modelopt_fp4", "0.5.3rc2", NULL,
         "SGLang 0.5.3rc2 refuses to start: No group_size found in config. (at model load, building the "
         "modelopt_fp4 quantization config"},
        {0, NV(", \"quant_algo\": \"NVFP4\", \"config_groups\": {\"g\": {\"weights\": {\"group_size\": 16}}}"), "B200",
         "--quantization modelopt_fp4", "0.5.3rc2", "fp8_raw", NULL},
        /* Python counts a boolean and not 16.0, which cJSON reads alike: declined */
        {0, NV(", \"quant_algo\": \"NVFP4\", \"group_size\": 16.0"), "B200", "--quantization modelopt_fp4", "0.5.3",
         NULL, "a group_size kvcheck cannot read as Python does"},
        {0, NV(", \"quant_algo\": \"NVFP4\", \"group_size\": true"), "B200", "--quantization modelopt_fp4", "0.5.3",
         NULL, "a group_size kvcheck cannot read as Python does"},
        /* 0.5.23 takes the unquantized layers from ignore, else modules_to_not_convert: a null one is declined */
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, "
         "\"modules_to_not_convert\": null}", "H200", "", "0.5.23", NULL, "a null list of layers left unquantized"},
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, "
         "\"modules_to_not_convert\": null}", "H200", "", "0.5.22", "bf16", NULL},
        {0, NV(", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"config_groups\": {\"g\": {\"group_size\": 32}}"),
         "B200", "--quantization modelopt_fp4", "0.5.3.post3", NULL, "Inconsistent group_size values: [16, 32]"},
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"ignore\": null}", "B200",
         "--quantization modelopt_fp4", "0.5.3rc2", NULL, "NVFP4 quantization requires group size and "
         "kv_cache_quant_algo specified in the quantization config"},
        /* from 0.5.4 the group size is the config's or its first group's weights', after the quant_algo */
        {0, NV(", \"quant_algo\": \"MXFP8\""), "B200", "--quantization modelopt_fp4", "0.5.4", NULL,
         "ModelOpt currently only supports: FP8, NVFP4 quantizations in sglang."},
        /* the KV dtype auto takes from a kv_cache_scheme: an object of type float with 8 bits is FP8 */
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": "
         "{\"type\": \"float\", \"num_bits\": 8, \"dynamic\": false}}", "H200", "", "0.5.23", "fp8_raw", NULL},
        /* ModelOptFp4Config maps a string from 0.5.7 (stripped, upper-cased); before, it calls .get on it */
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": "
         "\" fp8 \"}", "H200", "", "0.5.23", "fp8_raw", NULL},
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": "
         "\"nvfp4\"}", "H200", "", "0.5.23", "bf16", NULL},
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": "
         "\"fp8\"}", "B200", "", "0.5.6", NULL, "SGLang 0.5.6 refuses to start: AttributeError: 'str' object has no "
         "attribute 'get' (the config class reads the quantization config's kv_cache_scheme as an object"},
        /* so does a number, whatever the KV dtype; from 0.5.7 the class passes it over */
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": 8}",
         "B200", "--kv-cache-dtype fp8_e4m3", "0.5.5", NULL, "AttributeError: 'int' object has no attribute 'get'"},
        {0, "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": 8}",
         "H200", "", "0.5.23", "bf16", NULL},
        /* from 0.5.15 an object scheme comes before kv_cache_quant_algo; up to 0.5.8.post1 after it */
        {0, NV(", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": {\"type\": \"int\", "
               "\"num_bits\": 8}"), "H200", "", "0.5.23", "bf16", NULL},
        {0, NV(", \"quant_algo\": \"NVFP4\", \"group_size\": 16, \"kv_cache_scheme\": {\"type\": \"int\", "
               "\"num_bits\": 8}"), "B200", "", "0.5.8.post1", "fp8_raw", NULL},
        /* ModelOptFp8Config: a string scheme is none to 0.5.14, from 0.5.15 it falls back to kv_cache_quant_algo */
        {0, NV(", \"quant_algo\": \"FP8\", \"kv_cache_scheme\": \"fp8\""), "H200", "", "0.5.14", "bf16", NULL},
        {0, NV(", \"quant_algo\": \"FP8\", \"kv_cache_scheme\": \"fp8\""), "H200", "", "0.5.15", "fp8_raw", NULL},
    };
#undef NV
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char path[256];
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, quant_variant(C[i].v32, C[i].quant, path, sizeof path), C[i].args,
                                     C[i].release, &r, &d);
        unlink(path);
        if (C[i].layout) {
            if (st) fail_msg("case %zu: %s", i, d.message);
            if (strcmp(r.kv.name, C[i].layout)) fail_msg("case %zu: %s", i, r.kv.name);
        } else {
            if (st != KVC_ERR_CONFIG) fail_msg("case %zu: not refused (%d)", i, st);
            assert_contains(d.message, C[i].message);
        }
    }
}

static void test_rules__model_loader_quantization_check(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *model, *args;
        kvc_status want;
        const char *message; /* in the refusal, or in a warning of a pass; NULL: no warning names quantization */
        unsigned column;     /* of the flag blamed; 0: none */
    } C[] = {
        {"H200", MODELS "DEEPSEEK_V3.json", "--dtype float32", KVC_ERR_CONFIG, "SGLang 0.5.23 refuses to start: torch.float32 is "
         "not supported for quantization method fp8. Supported dtypes: [torch.bfloat16, torch.float16] (at model load, "
         "sglang 0.5.3rc2: python/sglang/srt/model_loader/loader.py:162-193", 1},
        {"H200", MODELS "DEEPSEEK_V3.json", "--quantization fp8 --dtype float", KVC_ERR_CONFIG,
         "torch.float32 is not supported for quantization method fp8", 20},
        {"H200", MODELS "DEEPSEEK_V32_FP32.json", "", KVC_OK, NULL, 0}, /* a float32 config runs as float16 */
        {"H200", MODELS "DEEPSEEK_V3.json", "--dtype half --quantization fp8", KVC_OK, NULL, 0},
        /* --quantization fp8 on a checkpoint without a quantization config: Fp8Config's defaults */
        {"H200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--quantization fp8 --dtype float32", KVC_ERR_CONFIG,
         "torch.float32 is not supported for quantization method fp8", 20},
        {"H200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--dtype float32", KVC_OK, NULL, 0},
        /* the minimum capability: 80 */
        {"A100", MODELS "DEEPSEEK_V3.json", "--attention-backend triton", KVC_OK, NULL, 0},
        {"sm_75", MODELS "DEEPSEEK_V3.json", "--attention-backend triton", KVC_ERR_CONFIG, "The quantization method fp8 is not "
         "supported for the current GPU. Minimum capability: 80. Current capability: 75.", 0},
        /* what SGLang's _verify_quantization decides: declined */
        {"H200", MODELS "DEEPSEEK_V3.json", "--quantization w8a8_fp8", KVC_ERR_CONFIG, "--quantization w8a8_fp8 on a checkpoint "
         "quantized by fp8: SGLang reconciles the two", 1},
        {"H200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--quantization awq", KVC_ERR_CONFIG, "--quantization awq on a "
         "checkpoint without a quantization config: SGLang looks for the method's config files", 1},
        /* a bundled preset stands for FP8 and NVFP4 checkpoints and unquantized ones */
        {"H200", "deepseek-v3", "--dtype float32", KVC_ERR_CONFIG, "deepseek-v3 is a bundled config, which does not "
         "say how the checkpoint is quantized (FP8, NVFP4 or none); give the checkpoint's config.json", 1},
        {"H200", "deepseek-v3", "--quantization fp8", KVC_OK, NULL, 0}, /* taken as the checkpoint's */
        {"H200", "deepseek-v3", "--quantization fp8 --dtype float32", KVC_ERR_CONFIG,
         "torch.float32 is not supported for quantization method fp8", 20},
        /* on SM100 SGLang sets fp8 for DeepSeek V3 without a quantization config (0.5.4.post1+) */
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--dtype float32", KVC_ERR_CONFIG, "SGLang 0.5.23 sets "
         "--quantization fp8 for DeepseekV3ForCausalLM without a quantization config on SM100", 1},
        {"B200", MODELS "DEEPSEEK_V3_NOQUANT.json", "", KVC_OK, NULL, 0},
        {"H200", "deepseek-v3", "--dtype float16", KVC_OK, NULL, 0},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, C[i].model, C[i].args, NULL, &r, &d);
        if (st != C[i].want) fail_msg("case %zu '%s': status %d (%s)", i, C[i].args, st, st ? d.message : "");
        if (st) {
            assert_contains(d.message, C[i].message);
            if (d.column != C[i].column) fail_msg("case %zu: column %u", i, d.column);
            continue;
        }
        for (unsigned w = 0; w < r.nwarnings; w++)
            if (strstr(r.warnings[w], "quantization")) fail_msg("case %zu: warns %s", i, r.warnings[w]);
    }
    /* the checkpoint's own method without a row: passed with a warning, but float32 declined */
    static const char AWQ[] = "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,"
                              "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"torch_dtype\":\"bfloat16\","
                              "\"quantization_config\":{\"quant_method\":\"AWQ\",\"bits\":4}}";
    const char *awq = temp_file(".json", AWQ);
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", awq, "", NULL, &r, &d), KVC_OK);
    int warned = 0;
    for (unsigned w = 0; w < r.nwarnings; w++)
        warned |= strstr(r.warnings[w], "not checked: whether SGLang's model loader takes this GPU and bfloat16 for "
                                         "quantization method awq") != NULL;
    assert_true(warned);
    assert_int_equal(resolve_line("H200", awq, "--dtype float32", NULL, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "quantization method awq (the minimum GPU capability and model dtypes of SGLang's model "
                               "loader), which kvcheck does not model");
    /* Fp8Config's own checks of the quantization config */
    static const struct {
        const char *quant, *message;
    } F[] = {
        {"{\"quant_method\":\"fp8\"}", "Cannot find any of ['activation_scheme'] in the model's quantization config."},
        {"{\"quant_method\":\"fp8\",\"activation_scheme\":null}", "Unsupported activation scheme None"},
        {"{\"quant_method\":\"FP8\",\"activation_scheme\":\"dynamic\",\"weight_block_size\":[128,128]}",
         "The block-wise quantization only supports fp8-serialized checkpoint for now."},
        {"{\"quant_method\":\"fp8\",\"activation_scheme\":\"dynamic\",\"weight_block_size\":[128]}",
         "The quantization block size of weight must have 2 dimensions, but got 1 dimensions."},
        {"{\"quant_method\":\"fp8\",\"activation_scheme\":\"static\",\"weight_block_size\":[128,128]}",
         "The block-wise quantization only supports dynamic activation scheme for now, but got static activation "
         "scheme."},
    };
    for (size_t i = 0; i < COUNT_OF(F); i++) {
        char json[400];
        snprintf(json, sizeof json, "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,"
                 "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"quantization_config\":%s}", F[i].quant);
        if (resolve_line("H200", temp_file(".json", json), "", NULL, &r, &d) != KVC_ERR_CONFIG)
            fail_msg("config %zu passed", i);
        assert_contains(d.message, F[i].message);
    }
    /* upper-case FP8 without block-wise weights loads (online quantization) */
    static const char UPPER[] = "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,"
                                "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"quantization_config\":"
                                "{\"quant_method\":\"FP8\",\"activation_scheme\":\"dynamic\"}}";
    assert_int_equal(resolve_line("H200", temp_file(".json", UPPER), "", NULL, &r, &d), KVC_OK);
    /* a quantization config that names no method */
    static const char NONE[] = "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"kv_lora_rank\":512,"
                               "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"quantization_config\":{\"bits\":4}}";
    assert_int_equal(resolve_line("H200", temp_file(".json", NONE), "", NULL, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "the model's quantization config names no quant_method");
}

#define DSV4 "tests/unit/models/DSV4_SMALL.json"

/* DeepSeek-V4 in 0.5.12-0.5.19 on CUDA: fp8_e4m3 MODEL1 rows (584 B) in
 * pages of 256 tokens padded to 576 B, whatever page size is given; the
 * other buffer groups sized from the config's compress_ratios. */
static void test_rules__dsv4_resolves_to_model1_pages_of_256(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", DSV4, "--page-size 64", "0.5.14", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "model1_fp8");
    assert_int_equal(r.kv.bytes_per_token, 584);
    assert_int_equal(r.kv.page_size, 256);
    assert_int_equal(r.kv.page_bytes, 149760); /* ceil(256 x 584 / 576) x 576 */
    assert_string_equal(VAL(&r, "kv_cache_dtype"), "fp8_e4m3");
    assert_string_equal(VAL(&r, "page_size"), "256");
    assert_contains(r.warnings[0], "--page-size 64 is overridden: SGLang sets page_size to 256 for "
                                   "DeepseekV4ForCausalLM (sglang 0.5.12: python/sglang/srt/arg_groups/"
                                   "deepseek_v4_hook.py:15-19; sglang 0.5.23: python/sglang/srt/arg_groups/"
                                   "model_overrides/deepseek_v4.py:51-61)");
    assert_contains(r.warnings[1], "SGLANG_DSV4_COMPRESS_STATE_DTYPE");
    /* compress_ratios [0, 4, 128, 4]: two c4 layers, one c128 layer */
    assert_string_equal(VAL(&r, "dsv4_compressed"), "c4 2 x 37440 B, c128 1 x 1728 B");
    assert_contains(resolved_find(&r, "dsv4_compressed")->reason, "c4 indexer K (dsa_indexer): 2 x 8448 B pages");
    assert_string_equal(VAL(&r, "dsv4_state"), "c4 8x8192, c128 128x4096, idx 8x2048 B");
    /* the caches as 0.5.23's pool names them to the PD bootstrap */
    assert_string_equal(VAL(&r, "dsv4_kv_layout"), "v4,c4:v4,c128:v4");
    assert_true(resolved_find(&r, "dsv4_kv_layout")->flags & KVC_SETTING_COMPARED);
    assert_int_equal(r.kv_entries, 4);
    /* speculation doubles the state rings; 0.5.12 reads the state as fp32 whatever the environment says */
    assert_int_equal(resolve_line("B200", DSV4, "--speculative-algorithm EAGLE --speculative-eagle-topk 1 "
                                  "--speculative-num-steps 1 --speculative-num-draft-tokens 2", "0.5.12", &r, &d),
                     KVC_OK);
    assert_string_equal(VAL(&r, "dsv4_state"), "c4 16x8192, c128 256x4096, idx 16x2048 B");
    assert_contains(r.warnings[0], "the EAGLE draft's own DeepSeek-V4 pool");
}

/* The hook's and the pool's refusals, in SGLang's words, at the flag; what kvcheck does not model is declined. */
static void test_rules__dsv4_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *args, *release, *message;
        unsigned column;
    } C[] = {
        {"H200", "--kv-cache-dtype bfloat16", "0.5.13", "SGLang 0.5.13 refuses to start: AssertionError: bfloat16 is "
         "not supported for DeepseekV4ForCausalLM (sglang 0.5.12: python/sglang/srt/arg_groups/deepseek_v4_hook.py:"
         "27-34)", 1},
        {"H200", "--kv-cache-dtype fp8_e5m2", "0.5.19", "AssertionError: fp8_e5m2 is not supported for "
         "DeepseekV4ForCausalLM (sglang 0.5.14: python/sglang/srt/arg_groups/deepseek_v4_hook.py:18-40; sglang 0.5.15: "
         "python/sglang/srt/arg_groups/overrides.py:1299-1320; sglang 0.5.23: :892-913)", 1},
        {"B200", "--kv-cache-dtype bfloat16", "0.5.14", "asserts store_dtype == torch.uint8", 1},
        {"H200", "--speculative-algorithm NGRAM", "0.5.15", "AssertionError: Only EAGLE speculative algorithm is "
         "supported for DeepseekV4ForCausalLM", 1},
        {"H200", "--speculative-algorithm NGRAM", "0.5.16", "AssertionError: Only EAGLE and DSPARK speculative "
         "algorithms are supported for DeepseekV4ForCausalLM", 1},
        {"H200", "--speculative-algorithm EAGLE --speculative-eagle-topk 4", "0.5.19", "AssertionError: Only EAGLE "
         "speculative algorithm with topk == 1 is supported for DeepseekV4ForCausalLM", 31},
        {"H200", "--speculative-algorithm EAGLE", "0.5.12", "pass --speculative-eagle-topk 1", 1},
        {"H200", "--disaggregation-mode prefill --pp-size 2", "0.5.12", "ValueError: V4 PD disaggregation requires "
         "pp_size=1, got pp_size=2.", 31},
        {"H200", "--speculative-algorithm DSPARK", "0.5.16", "kvcheck does not model DeepSeek-V4's DSpark draft pool", 1},
        {"MI355X", "", "0.5.19", "kvcheck does not model DeepSeek-V4's ROCm pools", 0},
        {"H200", "", "0.5.11", "which kvcheck does not model yet", 0},
        /* 0.5.20+: the backend's and the layout's refusals; trtllm, flashmla_mega and a V4.1 layout declined */
        {"H200", "--dsv4-attn-backend trtllm", "0.5.20", "SGLang 0.5.20 refuses to start: AssertionError: "
         "--dsv4-attn-backend trtllm requires an SM100/SM103 (Blackwell) GPU. (sglang 0.5.20: python/sglang/srt/"
         "arg_groups/deepseek_v4_hook.py:137-142; sglang 0.5.23: :101-106); leave --dsv4-attn-backend unset", 1},
        {"B200", "--kv-cache-dtype bfloat16 --dsv4-attn-backend trtllm", "0.5.21", "AssertionError: --dsv4-attn-backend "
         "trtllm requires kv_cache_dtype=fp8_e4m3, got bfloat16.", 27},
        {"B200", "--dsv4-attn-backend trtllm --enable-hisparse", "0.5.22", "AssertionError: --dsv4-attn-backend trtllm "
         "does not support enable_hisparse.", 1},
        {"B200", "--dsv4-attn-backend trtllm --dcp-size 2", "0.5.23", "AssertionError: --dsv4-attn-backend trtllm does "
         "not support context parallelism (prefill CP, attention CP, or decode CP).", 1},
        {"B200", "--disaggregation-mode prefill --dsv4-attn-backend trtllm", "0.5.22", "SGLang 0.5.22 refuses to start: "
         "AssertionError: --dsv4-attn-backend trtllm does not support PD disaggregation yet (uniform-FP8 KV layout is "
         "not part of the PD handshake; see https://github.com/sgl-project/sglang/issues/37838).", 31},
        {"B200", "--disaggregation-mode decode --dsv4-attn-backend trtllm", "0.5.23", "AssertionError: "
         "--dsv4-attn-backend trtllm does not support PD disaggregation yet (untested; see https://github.com/"
         "sgl-project/sglang/issues/37838). (sglang 0.5.23: python/sglang/srt/arg_groups/deepseek_v4_hook.py:123-126)",
         30},
        {"B200", "--dsv4-attn-backend trtllm", "0.5.20", "--dsv4-attn-backend trtllm: SGLang 0.5.20 switches "
         "DeepSeek-V4's KV pools away from FlashMLA's v4 layout to a uniform FP8 one (512 B/token", 1},
        {"H200", "--dsv4-attn-backend flashmla_mega", "0.5.23", "AssertionError: --dsv4-attn-backend flashmla_mega "
         "requires DeepSeek-V4.1 on SM100/SM103.", 1},
        {"B200", "--dsv4-attn-backend flashmla_mega", "0.5.23", "AssertionError: --dsv4-attn-backend flashmla_mega "
         "requires DeepSeek-V4.1 on SM100/SM103.", 1}, /* a DeepSeek-V4 model_type, whatever the GPU */
        {"H200", "SGLANG_DSV4_KV_LAYOUT=v41_new python -m sglang.launch_server", "0.5.22", "SGLang 0.5.22 refuses to "
         "start: AssertionError at pool creation: unknown SGLANG_DSV4_KV_LAYOUT='v41_new' (sglang 0.5.21: "
         "python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:171-195; sglang 0.5.22: :165-198)", 1},
        {"H200", "SGLANG_DSV4_KV_LAYOUT=v41 python -m sglang.launch_server", "0.5.23", "AssertionError at pool creation: "
         "the V4.1 KV cache layouts need an SM100 / SM103 GPU (SGLANG_DSV4_KV_LAYOUT=v41 on H200", 1},
        {"B200", "SGLANG_DSV4_KV_LAYOUT=auto python -m sglang.launch_server", "0.5.21", "SGLANG_DSV4_KV_LAYOUT=auto: on "
         "B200 SGLang 0.5.21 then builds DeepSeek-V4's KV in a V4.1 layout (528 B/token; with auto in 0.5.21-0.5.22 "
         "only if the installed FlashMLA advertises it", 1},
        {"B200", "--enable-deepseek-v4-fp4-indexer", "0.5.13", "--enable-deepseek-v4-fp4-indexer: kvcheck does not "
         "model DeepSeek-V4's FP4 indexer pool (sglang 0.5.13: python/sglang/srt/mem_cache/deepseek_v4_memory_pool.py:"
         "274-281", 1},
        {"B200", "--enable-deepseek-v4-fp4-indexer", "0.5.23", "(sglang 0.5.20: python/sglang/srt/mem_cache/"
         "deepseek_v4_memory_pool.py:35-39, :357; sglang 0.5.23: :53-57)", 1},
        /* the hook's bfloat16 passes; the pool's storage assertion still refuses it */
        {"B200", "--kv-cache-dtype bfloat16 --dsv4-attn-backend flashmla", "0.5.23", "asserts store_dtype == "
         "torch.uint8", 1},
        /* the handlers and check_server_args every model meets: the data parallelism and all-to-all handlers, the
         * chunked prefill size against the hook's page of 256, the node count, two-batch overlap */
        {"B200", "--tp 8 --dp 3 --enable-dp-attention", "0.5.14", "--tp-size 8 is not a multiple of the attention data "
         "parallel size 3", 8},
        {"B200", "--tp 8 --moe-a2a-backend pplx", "0.5.23", "AssertionError: moe_a2a_backend='pplx' requires attention "
         "DP with at least 2 groups (--attn-dp-size >= 2).", 8},
        {"B200", "--chunked-prefill-size 1000", "0.5.16", "AssertionError: chunked_prefill_size must be divisible by "
         "page_size", 1},
        {"B200", "--tp 8 --nnodes 3", "0.5.23", "AssertionError: tp_size must be divisible by number of nodes", 8},
        {"B200", "--enable-two-batch-overlap", "0.5.12", "ValueError: When enabling two batch overlap, moe_a2a_backend "
         "cannot be 'none'.", 1},
        {"B200", "--enable-two-batch-overlap", "0.5.23", "attention DP (--attn-dp-size) is required (DeepSeek-V4 "
         "non-EP DP TBO path).", 1},
        {"B200", "--disable-radix-cache --enable-hisparse", "0.5.23", "--enable-hisparse: HiSparse for DeepSeek-V4 "
         "(its validation and host pools", 23},
        {"B200", "--enable-hisparse", "0.5.12", "Hierarchical sparse attention currently requires "
         "--disable-radix-cache.", 1}, /* its radix check first, as for any model */
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line(C[i].gpu, DSV4, C[i].args, C[i].release, &r, &d) != KVC_ERR_CONFIG)
            fail_msg("case %zu '%s' was judged", i, C[i].args);
        if (!strstr(d.message, C[i].message)) fail_msg("case %zu: %s", i, d.message);
        assert_int_equal(d.column, C[i].column);
    }
    kvc_resolved r;
    kvc_diag d;
    /* the refusal is 0.5.12's only */
    assert_int_equal(resolve_line("H200", DSV4, "--disaggregation-mode prefill --pp-size 2", "0.5.12.post1", &r, &d),
                     KVC_OK);
    /* a multiple of the page passes */
    assert_int_equal(resolve_line("B200", DSV4, "--chunked-prefill-size 1024", "0.5.16", &r, &d), KVC_OK);
}

/* 0.5.20-0.5.23: --dsv4-attn-backend auto or flashmla and SGLANG_DSV4_KV_LAYOUT
 * v4 (or unset: said) keep the v4 pool (their refusals are in
 * test_rules__dsv4_refusals). */
static void test_rules__dsv4_backends_and_layouts(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    static const struct {
        const char *gpu, *args, *release;
        int warns; /* of SGLANG_DSV4_KV_LAYOUT */
    } OK[] = {
        {"H200", "--dsv4-attn-backend flashmla", "0.5.20", 0},
        {"B200", "--dsv4-attn-backend auto --disaggregation-mode decode", "0.5.23", 1},
        {"H200", "SGLANG_DSV4_KV_LAYOUT=V4 python -m sglang.launch_server", "0.5.21", 0},
        {"H200", "SGLANG_DSV4_KV_LAYOUT=auto python -m sglang.launch_server", "0.5.23", 0},
        {"B200", "SGLANG_DSV4_KV_LAYOUT=v41 python -m sglang.launch_server", "0.5.20", 0}, /* no such variable yet */
    };
    for (size_t i = 0; i < COUNT_OF(OK); i++) {
        if (resolve_line(OK[i].gpu, DSV4, OK[i].args, OK[i].release, &r, &d) != KVC_OK)
            fail_msg("case %zu '%s': %s", i, OK[i].args, d.message);
        assert_string_equal(r.kv.name, "model1_fp8");
        assert_int_equal(r.kv.page_bytes, 149760);
        int warned = 0;
        for (unsigned k = 0; k < r.nwarnings; k++) warned += strstr(r.warnings[k], "SGLANG_DSV4_KV_LAYOUT") != NULL;
        assert_int_equal(warned, OK[i].warns);
    }
    /* not assigned in the launch command: SGLang's default, said */
    assert_int_equal(resolve_line("H200", DSV4, "", "0.5.21", &r, &d), KVC_OK);
    assert_true(has_warning(&r, "DeepSeek-V4's KV layout follows SGLANG_DSV4_KV_LAYOUT in the server's environment, "
                                "which kvcheck reads only from the launch command's assignments: it takes SGLang's "
                                "default v4 (sglang 0.5.21: python/sglang/srt/environ.py:1539; 0.5.22: :1592)"));
}

/* Other dimensions fail SGLang's own row assertion; unknown ratios and an online compression state are declined. */
static void test_rules__dsv4_dimensions_from_the_config(void **state)
{
    (void)state;
    const char *json = "{\"architectures\":[\"DeepseekV4ForCausalLM\"],\"kv_lora_rank\":512,\"head_dim\":576,"
                       "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"compress_ratios\":[0,4]}";
    model_info m;
    kvc_diag d;
    gpu_info g;
    settings *s = calloc(1, sizeof *s);
    kvc_resolved r;
    assert_non_null(s);
    assert_int_equal(gpu_parse("H200", &g, NULL, &d), KVC_OK);
    unsigned rel = (unsigned)sglang_release_index("0.5.19");
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_OK);
    assert_int_equal(rules_resolve(&g, &m, NULL, s, rel, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "AssertionError at pool creation: DSV4 KV layout: qk_nope_head_dim FP8 (448) + "
                               "qk_rope_head_dim BF16 (64*2) + nope FP8 scales + scale_pad = 584 bytes/token");
    assert_contains(d.message, "give 649 bytes/token");
    json = "{\"architectures\":[\"DeepseekV4ForCausalLM\"],\"kv_lora_rank\":512,\"head_dim\":512,"
           "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"compress_ratios\":[0,2]}";
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_OK);
    assert_int_equal(rules_resolve(&g, &m, NULL, s, rel, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "compress_ratios has 1 entries other than 0, 4 and 128; kvcheck does not model");
    /* without compress_ratios the groups are said not to be derived, not guessed */
    json = "{\"architectures\":[\"DeepseekV4ForCausalLM\"],\"kv_lora_rank\":512,\"head_dim\":512,"
           "\"qk_rope_head_dim\":64,\"num_hidden_layers\":2}";
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_OK);
    assert_int_equal(rules_resolve(&g, &m, NULL, s, rel, &r, &d), KVC_OK);
    assert_string_equal(VAL(&r, "dsv4_compressed"), "not derived");
    assert_string_equal(VAL(&r, "dsv4_state"), "not derived");
    /* DeepSeek-V4.1 (SGLang 0.5.21+ loads it as DeepseekV4ForCausalLM): declined by its model_type */
    json = "{\"architectures\":[\"DeepseekV4ForCausalLM\"],\"model_type\":\"deepseek_v41\",\"kv_lora_rank\":512,"
           "\"head_dim\":512,\"qk_rope_head_dim\":64,\"num_hidden_layers\":2,\"compress_ratios\":[0,4]}";
    assert_int_equal(model_parse(json, strlen(json), "c.json", "t", &m, &d), KVC_OK);
    assert_string_equal(m.model_type, "deepseek_v41");
    assert_int_equal(rules_resolve(&g, &m, NULL, s, (unsigned)sglang_release_index("0.5.23"), &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "t (DeepseekV4ForCausalLM, model_type deepseek_v41): kvcheck does not model "
                               "DeepSeek-V4.1's pools");
    free(s);
}

/* Where SGLang's MHA argument checks pass, an architecture without a model
 * class reaches the model loader's refusal, which then says nothing of
 * checks kvcheck does not model, unless an input it does not judge is given. */
static void test_rules__mha_checks_that_pass_leave_the_model_class_refusal(void **state)
{
    (void)state;
    static const struct {
        const char *gpu, *args, *release;
        int hedged;
    } C[] = {
        {"B200", "", "0.5.6.post1", 0},                                   /* trtllm_mha runs on SM100 */
        {"B200", "--speculative-algorithm STANDALONE", "0.5.6.post2", 0}, /* topk 1 */
        {"B200", "--speculative-algorithm NGRAM", "0.5.6.post1", 0},      /* no topk */
        {"H200", "--speculative-algorithm NEXTN", "0.5.6.post1", 0},      /* flashinfer */
        {"MI355X", "", "0.5.6.post1", 0},                                 /* aiter */
        {"RTX PRO 6000", "", "0.5.6", 0},                                 /* no trtllm_mha default yet */
        {"RTX PRO 6000", "", "0.5.7", 0},                                 /* SM100 only again */
        {"B200", "--speculative-algorithm NEXTN", "0.5.8", 0},            /* not with an auto-chosen topk */
        {"RTX PRO 6000", "--attention-backend flashinfer", "0.5.6.post1", 1},
        {"B200", "--speculative-algorithm NEXTN --speculative-eagle-topk 1 --speculative-num-steps 1 "
                 "--speculative-num-draft-tokens 2", "0.5.6.post1", 1},
        /* KV4: trtllm_mha is in KV4's MHA list; an attention backend given is not modelled */
        {"B200", "--kv-cache-dtype fp4_e2m1", "0.5.8", 0},
        {"H200", "--kv-cache-dtype fp4_e2m1 --attention-backend triton", "0.5.8", 1},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        kvc_resolved r;
        kvc_diag d;
        assert_int_equal(resolve_line(C[i].gpu, "glm-5.2", C[i].args, C[i].release, &r, &d), KVC_ERR_CONFIG);
        if (!strstr(d.message, "Cannot find model module. 'GlmMoeDsaForCausalLM'")) fail_msg("case %zu: %s", i, d.message);
        if (!strstr(d.message, "which kvcheck does not model, may refuse first") != !C[i].hedged)
            fail_msg("case %zu: %s", i, d.message);
    }
    /* Glm5Next before 0.5.20: K rows of 7168 / 128 = 56, V rows of 128, so SM100's default is fa4 from 0.5.17 (KV4
     * refuses it, test_rules__refusals_are_sglangs_own_words) and trtllm_mha before */
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", GLM5_NEXT, "--kv-cache-dtype nvfp4", "0.5.16", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "Cannot find model module. 'Glm5NextForConditionalGeneration'");
    assert_null(strstr(d.message, "does not model"));
}

/* Glm5Next (0.5.20+): DSA layers in a HybridLinearKVPool with GLM-5's rows,
 * the other layers KDA linear layers whose per-request state travels
 * instead of KV (HYBRID; sglang 0.5.23: python/sglang/srt/mem_cache/
 * kv_cache_configurator.py:2605-2712). The bundled config has no split, so
 * layers i % 4 == 3 are DSA: 19 of 78 (sglang 0.5.23:
 * python/sglang/srt/configs/glm5_next.py:198-225); state per request and
 * layer at attention TP 8: conv 3 x 3072 bf16, temporal 8 x 128 x 128 fp32
 * (configs/mamba_utils.py:323-370). */
static void test_rules__glm5_next_is_dsa_plus_linear_layers(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 8 --disaggregation-mode prefill", NULL, &r, &d), KVC_OK);
    assert_true(r.model.dsa);
    assert_string_equal(r.kv.name, "bf16");
    assert_int_equal(r.attn_layers, 19);
    assert_int_equal(r.kv_entries, 19);
    assert_int_equal(r.kv_bytes_per_token_all, 19 * 1152);
    assert_int_equal(r.indexer_bytes_per_token_all, 19 * 132);
    assert_int_equal(r.state_layers, 59);
    assert_int_equal(r.state_tp, 8);
    assert_int_equal(r.nstate, 2);
    assert_string_equal(r.state[0].shape, "3x3072");
    assert_int_equal(r.state[0].item_len, 18432);
    assert_string_equal(r.state[1].shape, "8x128x128");
    assert_int_equal(r.state[1].item_len, 524288);
    assert_string_equal(VAL(&r, "layer_split"), "19 DSA, 59 KDA");
    assert_contains(resolved_find(&r, "layer_split")->reason, "i % 4 != 3");
    assert_contains(resolved_find(&r, "layer_split")->reason, "python/sglang/srt/configs/glm5_next.py:128-131, :198-225");
    assert_string_equal(VAL(&r, "mamba_ssm_dtype"), "float32");
    assert_string_equal(VAL(&r, "mamba_conv_dtype"), "bfloat16");
    assert_contains(r.warnings[r.nwarnings - 1], "SGLANG_MAMBA_SSM_DTYPE and SGLANG_MAMBA_CONV_DTYPE in the server's "
                                                 "environment, which kvcheck reads only from the launch command's");
    assert_int_equal(kvc_resolved_attn_layers(&r), 19);
    assert_int_equal(kvc_resolved_state_layers(&r), 59);
    uint64_t item = 0;
    assert_string_equal(kvc_resolved_state(&r, 1, &item), "temporal");
    assert_int_equal(item, 524288);
    assert_null(kvc_resolved_state(&r, 2, &item));
    /* --mamba-ssm-dtype halves the temporal state; DP attention splits heads over tp / dp */
    assert_int_equal(resolve_line("B200", GLM5_NEXT, "--tp 8 --mamba-ssm-dtype bfloat16", "0.5.20", &r, &d), KVC_OK);
    assert_string_equal(r.kv.name, "fp8_raw");
    assert_int_equal(r.state[1].item_len, 262144);
    assert_string_equal(VAL(&r, "mamba_ssm_dtype"), "bfloat16");
    assert_contains(resolved_find(&r, "mamba_ssm_dtype")->reason, "set by --mamba-ssm-dtype");
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 8 --dp 2 --enable-dp-attention", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.state_tp, 4);
    assert_int_equal(r.state[1].item_len, 16 * 128 * 128 * 4);
    /* heads not divisible by the attention TP: SGLang's divide() asserts */
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 3", NULL, &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "AssertionError: 8192 is not divisible by 3");
    /* the MTP draft: one DSA layer (DRAFT_ARCHS: Glm5NextForConditionalGenerationNextN, no linear layers) */
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 8 --speculative-algorithm EAGLE", NULL, &r, &d), KVC_OK);
    assert_int_equal(r.kv_entries, 20);
    assert_int_equal(r.draft_entries, 1);
    assert_string_equal(r.draft.name, "bf16");
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 8 --kv-cache-dtype fp8_e4m3 --speculative-algorithm EAGLE "
                                  "--speculative-draft-kv-cache-dtype fp8_e4m3", NULL, &r, &d), KVC_OK);
    assert_string_equal(r.draft.name, "fp8_flashmla"); /* taken as DSA: scaled rows with flashmla_kv */
    /* before 0.5.20 no release has the model class: refused at model load */
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--tp 8", "0.5.19", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "Cannot find model module. 'Glm5NextForConditionalGeneration' is not a registered "
                               "model");
    assert_contains(d.message, "the first is in 0.5.20 (sglang 0.5.20: python/sglang/srt/models/glm5_next.py:1649)");
}

/* The split as the config writes it: linear_attn_config's kda_layers (and
 * its sizes) first, then layer_types; ids outside the model count nothing. */
static void test_rules__glm5_next_split_from_the_config(void **state)
{
    (void)state;
    static const struct {
        const char *fields;
        uint32_t attn, linear;
        uint64_t conv, temporal;
    } C[] = {
        {"\"layer_types\":[\"linear_attention\",\"full_attention\",\"linear_attention\",\"linear_attention\"]", 1, 3,
         3 * 3 * 64 * 128 / 8 * 2, 8 * 128 * 128 * 4},
        {"\"linear_attn_config\":{\"kda_layers\":[0,1,1,9],\"num_heads\":32,\"head_dim\":64,"
         "\"short_conv_kernel_size\":5},\"layer_types\":[\"linear_attention\"]", 2, 2,
         4 * 3 * 32 * 64 / 8 * 2, 4 * 64 * 64 * 4},
        {"\"linear_num_heads\":16,\"linear_head_dim\":64,\"linear_conv_kernel_dim\":2", 1, 3,
         1 * 3 * 16 * 64 / 8 * 2, 2 * 64 * 64 * 4},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char json[600];
        snprintf(json, sizeof json,
                 "{\"architectures\":[\"Glm5NextForConditionalGeneration\"],\"model_type\":\"glm5_next\","
                 "\"kv_lora_rank\":512,\"qk_rope_head_dim\":64,\"num_hidden_layers\":4,\"index_head_dim\":128,"
                 "\"index_topk\":2048,%s}",
                 C[i].fields);
        kvc_resolved r;
        kvc_diag d;
        assert_int_equal(resolve_line("H200", temp_file(".json", json), "--tp 8", NULL, &r, &d), KVC_OK);
        if (r.attn_layers != C[i].attn || r.state_layers != C[i].linear || r.state[0].item_len != C[i].conv ||
            r.state[1].item_len != C[i].temporal)
            fail_msg("case %zu: %u DSA, %u linear, conv %llu, temporal %llu", i, r.attn_layers, r.state_layers,
                     (unsigned long long)r.state[0].item_len, (unsigned long long)r.state[1].item_len);
    }
    kvc_diag d;
    const char *bad = "{\"architectures\":[\"Glm5NextForConditionalGeneration\"],\"kv_lora_rank\":512,"
                      "\"qk_rope_head_dim\":64,\"num_hidden_layers\":4,\"linear_attn_config\":{\"kda_layers\":[0]}}";
    model_info m;
    assert_int_equal(model_parse(bad, strlen(bad), "c.json", "t", &m, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "\"linear_attn_config\" has no \"num_heads\": SGLang sizes the linear layers' state");
}

/* The state dtypes: the flag over SGLANG_MAMBA_SSM_DTYPE, the launch's
 * environment assignments read, a value SGLang does not take falls back to
 * its default (sglang 0.5.23: python/sglang/srt/configs/mamba_utils.py:47-107). */
static void test_rules__glm5_next_state_dtypes(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    kvc_worker *w = worker_make("H200", GLM5_NEXT, "--tp 8");
    kvc_origin o;
    origin_set(&o, "env", 1, 1, "");
    assert_int_equal(worker_add_env(w, "SGLANG_MAMBA_CONV_DTYPE=float32", &o, &d), KVC_OK);
    assert_int_equal(worker_add_env(w, "SGLANG_MAMBA_SSM_DTYPE=float16", &o, &d), KVC_OK);
    kvc_resolved *res = NULL;
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(VAL(res, "mamba_conv_dtype"), "float32");
    assert_string_equal(VAL(res, "mamba_ssm_dtype"), "float16");
    assert_int_equal(res->state[0].item_len, 36864);
    assert_int_equal(res->state[1].item_len, 262144);
    for (unsigned i = 0; i < res->nwarnings; i++)
        if (strstr(res->warnings[i], "SGLANG_MAMBA")) fail_msg("warned: %s", res->warnings[i]);
    kvc_resolved_free(res);
    kvc_worker_free(w);
    w = worker_make("H200", GLM5_NEXT, "--tp 8 --mamba-ssm-dtype bfloat16");
    assert_int_equal(worker_add_env(w, "SGLANG_MAMBA_SSM_DTYPE=float16", &o, &d), KVC_OK);
    assert_int_equal(worker_add_env(w, "SGLANG_MAMBA_CONV_DTYPE=fp8", &o, &d), KVC_OK);
    assert_int_equal(kvc_resolve(w, &res, &d), KVC_OK);
    assert_string_equal(VAL(res, "mamba_ssm_dtype"), "bfloat16");
    assert_string_equal(VAL(res, "mamba_conv_dtype"), "bfloat16");
    assert_contains(resolved_find(res, "mamba_conv_dtype")->reason, "'fp8' is none of float32, bfloat16, float16");
    kvc_resolved_free(res);
    kvc_worker_free(w);
    /* a plain DSA model has no such settings */
    assert_int_equal(resolve_line("H200", "glm-5.2", "", NULL, &r, &d), KVC_OK);
    assert_null(resolved_find(&r, "mamba_ssm_dtype"));
    assert_int_equal(r.state_layers, 0);
    assert_int_equal(r.attn_layers, 78);
}

/* A separate draft model's pool (EAGLE3, STANDALONE), from its own config
 * (tools/sglang-oracle/DRAFT_POOL.md): K and V entries of page x KV heads
 * over the attention TP x head_dim, in the dtype the draft runner resolves;
 * SGLang's refusals of such drafts; and what is left underived, warned. */
/* A PD decode worker with DP above 1 needs --prefill-round-robin-balance up to 0.5.7; 0.5.8 dropped the check
 * and the flag. A STANDALONE draft's DP refusal comes first: SGLang handles speculative decoding before PD. */
static void test_rules__round_robin_until_0_5_7(void **state)
{
    (void)state;
    kvc_resolved r;
    kvc_diag d;
    const char *args = "--tp 8 --disaggregation-mode decode --enable-dp-attention --dp 8";
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", args, "0.5.7", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "Prefill round robin balance is required when dp size > 1.");
    assert_contains(d.message, "0.5.7: :2187-2190");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2",
                                  "--tp 8 --disaggregation-mode decode --enable-dp-attention --dp 8 "
                                  "--prefill-round-robin-balance",
                                  "0.5.7", &r, &d),
                     KVC_OK);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", args, "0.5.8", &r, &d), KVC_OK);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", args, "0.5.23", &r, &d), KVC_OK);
    char standalone[400];
    snprintf(standalone, sizeof standalone, "%s --speculative-algorithm STANDALONE", args);
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", standalone, "0.5.7", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "Currently standalone speculative decoding does not support dp attention.");
}

/* The scheduler's PrefillDelayer (0.5.8+), each case run against the oracle (SGLang's own asserts on its resolved
 * server args): DP attention up to 0.5.9, a unified worker up to 0.5.10 (a decode worker skips it from 0.5.11), then
 * the overlap schedule as SGLang's resolution leaves it: the flag, PP, a sparse head, and the speculative handlers by
 * era with SGLANG_ENABLE_SPEC_V2 (off by default up to 0.5.10, on from 0.5.11; a value that is not a boolean is
 * the default). */
static void test_rules__prefill_delayer(void **state)
{
    (void)state;
#define DPA "--tp 8 --dp 8 --enable-dp-attention "
#define OVERLAP "AssertionError: To use PrefillDelayer, disable_overlap_schedule must be False."
    static const release_case C[] = {
        {"0.5.8", "--enable-prefill-delayer", "AssertionError: To use PrefillDelayer, enable_dp_attention must be "
         "enabled."},
        {"0.5.8", DPA "--enable-prefill-delayer", NULL},
        /* DP attention as the data parallelism handler leaves it: off with a DP size of 1 */
        {"0.5.8", "--enable-prefill-delayer --enable-dp-attention --tp 8", "enable_dp_attention must be enabled."},
        /* 0.5.7's SchedulerEnhancer, its predecessor, is declined */
        {"0.5.7", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=1 --disable-overlap-schedule", "SchedulerEnhancer, which "
         "asserts the schedule policy fcfs, DP attention, a unified worker and the overlap schedule on"},
        {"0.5.7", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=0", NULL},
        {"0.5.6.post2", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=1", NULL},
        {"0.5.9", DPA "--enable-prefill-delayer --disaggregation-mode decode",
         "AssertionError: To use PrefillDelayer, disaggregation_mode must be null."},
        {"0.5.10", "--enable-prefill-delayer --disaggregation-mode prefill", "disaggregation_mode must be null."},
        {"0.5.11", "--enable-prefill-delayer --disaggregation-mode prefill", NULL},
        {"0.5.11", "--enable-prefill-delayer --disaggregation-mode decode --disable-overlap-schedule", NULL},
        {"0.5.23", "--enable-prefill-delayer --disaggregation-mode prefill --disable-overlap-schedule", OVERLAP},
        {"0.5.9", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=yes " DPA "--pp-size 2", "a pp_size above 1 turns it off"},
        {"0.5.9", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=maybe " DPA "--pp-size 2", NULL},
        /* up to 0.5.10 the EAGLE family's handler decides, over the flag */
        {"0.5.8", DPA "--enable-prefill-delayer --speculative-algorithm NEXTN", OVERLAP},
        {"0.5.8", "SGLANG_ENABLE_SPEC_V2=1 " DPA "--enable-prefill-delayer --speculative-algorithm NEXTN "
         "--disable-overlap-schedule", NULL},
        /* 0.5.11-0.5.13: off without spec v2, on by default */
        {"0.5.11", "SGLANG_ENABLE_SPEC_V2=0 --enable-prefill-delayer --speculative-algorithm NEXTN",
         "the EAGLE family's handler turns it off with SGLANG_ENABLE_SPEC_V2 off"},
        {"0.5.11", "SGLANG_ENABLE_SPEC_V2=bad --enable-prefill-delayer --speculative-algorithm NEXTN", NULL},
        {"0.5.18", "SGLANG_ENABLE_SPEC_V2=0 --enable-prefill-delayer --speculative-algorithm NEXTN", NULL},
        {"0.5.14", "SGLANG_EMBEDDINGS_SPARSE_HEAD=1 --enable-prefill-delayer", "SGLANG_EMBEDDINGS_SPARSE_HEAD is set"},
    };
#undef DPA
#undef OVERLAP
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--enable-prefill-delayer", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "may turn off; kvcheck does not model that, so it cannot judge this worker");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=1", "0.5.23", &r, &d),
                     KVC_OK);
    assert_true(has_warning(&r, "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE is deprecated"));
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--enable-prefill-delayer --disaggregation-mode decode",
                                  "0.5.11", &r, &d),
                     KVC_OK);
    assert_true(has_warning(&r, "--enable-prefill-delayer has no effect on a decode worker"));
}

/* The PD handler's decode sizes up to 0.5.9, after the speculative handler (every case run against the oracle on
 * 0.5.3rc2, 0.5.6 and 0.5.9): a decode worker refuses either given; a prefill worker asserts one TP size a multiple
 * of the other with Python's % (a negative decode TP size of -2 passes, 0 divides by zero). */
static void test_rules__decode_sizes_until_0_5_9(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.9", "--tp 8 --disaggregation-mode decode --disaggregation-decode-tp 8",
         "AssertionError: Cannot set --disaggregation-decode-tp for the decode engine."},
        {"0.5.3rc2", "--tp 8 --disaggregation-mode decode --disaggregation-decode-dp 2 --disaggregation-decode-tp 4",
         "AssertionError: Cannot set --disaggregation-decode-tp for the decode engine."},
        {"0.5.6", "--tp 8 --disaggregation-mode decode --disaggregation-decode-dp 2",
         "AssertionError: Cannot set --disaggregation-decode-dp for the decode engine."},
        {"0.5.9", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 3",
         "AssertionError: Different tp size is supported only when one tp is multiple of the other. decode_tp=3, "
         "prefill_tp=8"},
        {"0.5.9", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 16", NULL},
        {"0.5.9", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 0",
         "ZeroDivisionError: integer modulo by zero"},
        {"0.5.6", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp -2", NULL},
        {"0.5.6", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp -3",
         "decode_tp=-3, prefill_tp=8"},
        {"0.5.9", "--tp 8 --disaggregation-mode prefill --disaggregation-decode-dp 0", NULL},
        {"0.5.9", "--tp 8 --disaggregation-decode-tp 3", NULL},
        /* the speculative handler's refusals come first, the round robin's after */
        {"0.5.9", "--tp 8 --disaggregation-mode decode --disaggregation-decode-tp 8 --speculative-algorithm EAGLE "
         "--speculative-num-steps 2", "TypeError: '>' not supported between instances of 'NoneType' and 'int'"},
        {"0.5.6", "--tp 8 --disaggregation-mode decode --dp 2 --speculative-algorithm EAGLE --speculative-num-steps 2",
         "TypeError: '>' not supported between instances of 'NoneType' and 'int'"},
        {"0.5.3rc2", "--tp 8 --disaggregation-mode decode --disaggregation-decode-tp 8 --dp 2",
         "Cannot set --disaggregation-decode-tp for the decode engine."},
        /* the round robin is not asked for in SGLang's CI (get_bool_env_var: true or 1, any case) */
        {"0.5.5", "SGLANG_IS_IN_CI=TRUE --tp 8 --disaggregation-mode decode", NULL},
        {"0.5.5", "SGLANG_IS_IN_CI=yes --tp 8 --disaggregation-mode decode",
         "AssertionError: Prefill round robin balance is required when dp size > 1."},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --disaggregation-mode prefill "
                                  "--disaggregation-decode-tp 12345678901234567890", "0.5.9", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "which kvcheck does not model past 18 digits, so it cannot judge this worker");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "--tp 8 --disaggregation-mode decode "
                                  "--disaggregation-decode-tp 8", "0.5.10", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "unrecognized arguments: --disaggregation-decode-tp 8"); /* the flag went in 0.5.10 */
}

/* Flags SGLang serves only for other models, refused where SGLang refuses them (every case run against the oracle
 * with DeepSeek-V3.2, GLM-5 and DeepSeek-V4 on 0.5.19, 0.5.21 and 0.5.23); the CPU engine and expert packs are
 * declined. */
static void test_rules__flags_for_other_models(void **state)
{
    (void)state;
    static const release_case C[] = {
        {"0.5.19", "--tp 8 --enable-layernorm-sp",
         "ValueError: --enable-layernorm-sp is only supported for ['Qwen3ForCausalLM']; got DeepseekV32ForCausalLM."},
        {"0.5.23", "--tp 1 --enable-layernorm-sp", "ValueError: --enable-layernorm-sp is only supported for "
         "['MuseSparkForConditionalGeneration', 'Qwen3ForCausalLM']; got DeepseekV32ForCausalLM."},
        {"0.5.21", "--tp 8 --enable-encoder-swa-bounded-replay", NULL},
        {"0.5.23", "--tp 8 --enable-encoder-swa-bounded-replay",
         "ValueError: --enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"},
        {"0.5.23", "--tp 8 --enable-layernorm-sp --enable-encoder-swa-bounded-replay",
         "--enable-layernorm-sp is only supported for"},
        {"0.5.23", "--tp 8 --enable-megamoe-for-layernorm-sp",
         "ValueError: --enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp."},
        {"0.5.23", "--tp 8 --enable-megamoe-for-layernorm-sp --enable-layernorm-sp",
         "ValueError: --enable-megamoe-for-layernorm-sp supports only Muse Spark."},
        /* a refusal before the hook comes first */
        {"0.5.21", "--tp 8 --enable-layernorm-sp --disaggregation-mode decode "
         "--disaggregation-decode-enable-radix-cache --enable-hisparse",
         "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse"},
        {"0.5.23", "--tp 8 --load-format instanttensor", NULL},
    };
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    static const release_case GLM[] = {
        {"0.5.21", "--tp 8 --enable-layernorm-sp --speculative-algorithm NEXTN",
         "ValueError: --enable-layernorm-sp is only supported for ['Qwen3ForCausalLM']; got GlmMoeDsaForCausalLM."},
    };
    expect_verdicts("glm-5", GLM, COUNT_OF(GLM));
    kvc_resolved r;
    kvc_diag d;
    /* DeepSeek-V4's hook refuses the replay before the hook's CP check, after its dtype and speculative checks */
    static const struct {
        const char *args, *release, *message;
    } V4[] = {
        {"--tp 8 --enable-encoder-swa-bounded-replay", "0.5.21", "requires DeepSeek-V4.1 (sglang 0.5.21: python/"
         "sglang/srt/arg_groups/deepseek_v4_hook.py:169-180"},
        {"--tp 8 --enable-layernorm-sp --enable-encoder-swa-bounded-replay", "0.5.23", "requires DeepSeek-V4.1"},
        {"--tp 8 --enable-encoder-swa-bounded-replay --kv-cache-dtype bf16", "0.5.23",
         "bf16 is not supported for DeepseekV4ForCausalLM"},
        {"--tp 8 --enable-encoder-swa-bounded-replay --speculative-algorithm NEXTN", "0.5.21",
         "Only EAGLE and DSPARK speculative algorithms are supported for DeepseekV4ForCausalLM"},
        {"--tp 8 --enable-layernorm-sp", "0.5.19", "got DeepseekV4ForCausalLM."},
    };
    for (size_t i = 0; i < COUNT_OF(V4); i++) {
        kvc_status st = resolve_line("B200", "tests/unit/models/DSV4_SMALL.json", V4[i].args, V4[i].release, &r, &d);
        if (st != KVC_ERR_CONFIG || !strstr(d.message, V4[i].message))
            fail_msg("DeepSeek-V4 case %zu '%s': %d %s", i, V4[i].args, st, d.message);
    }
    /* --shared-experts-tp-size (0.5.21+), Kimi-K3's: a divisor of the attention TP size first (oracle: 0.5.21 and
     * 0.5.23 on B200) */
    static const release_case SHARED_TP[] = {
        {"0.5.23", "--tp 8 --shared-experts-tp-size 2",
         "ValueError: --shared-experts-tp-size is only supported for Kimi-K3."},
        {"0.5.21", "--tp 8 --shared-experts-tp-size 3",
         "ValueError: --shared-experts-tp-size (3) must be a positive divisor of attention TP size (8)."},
        {"0.5.23", "--tp 8 --dp 4 --enable-dp-attention --shared-experts-tp-size 4",
         "must be a positive divisor of attention TP size (2)."},
        {"0.5.23", "--tp 8 --shared-experts-tp-size 0", "(0) must be a positive divisor"},
        {"0.5.23", "--tp 8 --shared-experts-tp-size 2 --enable-eplb", "is only supported for Kimi-K3."},
        {"0.5.23", "--tp 8 --shared-experts-tp-size 2 --model-path instance://h --served-model-name m",
         "ValueError: --shared-experts-tp-size requires a Kimi-K3 model configuration."},
        /* after the all-to-all handler, before EPLB's */
        {"0.5.23", "--tp 8 --shared-experts-tp-size -1 --moe-a2a-backend flashinfer --moe-runner-backend triton",
         "Flashinfer MoE A2A"},
        /* the capability adjustments return first for an instance connector */
        {"0.5.23", "--tp 8 --model-path instance://h --served-model-name m --enable-encoder-swa-bounded-replay",
         NULL},
        /* the draft's DeepEP v2 is the resolution's last check */
        {"0.5.23", "--tp 8 --enable-encoder-swa-bounded-replay --speculative-algorithm NEXTN "
         "--speculative-moe-a2a-backend deepep_v2", "requires DeepSeek-V4.1"},
    };
    expect_verdicts("deepseek-v3.2", SHARED_TP, COUNT_OF(SHARED_TP));
    /* DeepSeek-V4's pool checks come once the model loads, after the resolution's */
    assert_int_equal(resolve_line("H200", "tests/unit/models/DSV4_SMALL.json", "SGLANG_DSV4_KV_LAYOUT=bogus --tp 8 "
                                  "--enable-layernorm-sp", "0.5.21", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "--enable-layernorm-sp is only supported for ['Qwen3ForCausalLM']");
    assert_int_equal(resolve_line("B200", "tests/unit/models/DSV4_SMALL.json", "--tp 8 --speculative-algorithm EAGLE "
                                  "--speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens "
                                  "4 --speculative-moe-a2a-backend deepep_v2", "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "DeepEP v2 MoE is not validated as a speculative draft backend.");
    /* declined: the CPU engine (exactly "1"), expert packs */
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_USE_CPU_ENGINE=1 --tp 8", "0.5.23", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "SGLANG_USE_CPU_ENGINE=1: SGLang runs this worker on its CPU engine");
    assert_contains(d.message, "so it cannot judge this worker");
    assert_int_equal(resolve_line("H200", "deepseek-v3.2", "SGLANG_USE_CPU_ENGINE=true --tp 8", "0.5.3rc2", &r, &d),
                     KVC_OK);
    assert_int_equal(resolve_line("H200", "glm-5", "--tp 8 --load-format expert_pack", "0.5.19", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "--load-format expert_pack: SGLang 0.5.19 checks the model type");
}

/* --dist-init-addr and --nccl-port as the engine reads them when it starts (address.c): PortArgs' parse on the
 * attention-DP branch (every case run against the release's own parse: NetworkAddress.parse from 0.5.10,
 * configure_ipv6, str.split and int() before), the schedulers' from 0.5.10, 0.5.13's range check of the NCCL port;
 * declined where SGLang hands the address to torch or binds a port outside 0-65535 unchecked. */
static void test_rules__engine_addresses(void **state)
{
    (void)state;
#define ADP "--tp 8 --dp 8 --enable-dp-attention "
    static const release_case C[] = {
        {"0.5.23", ADP "--dist-init-addr head", "ValueError: Missing port in address (expected host:port): 'head'"},
        {"0.5.23", ADP "--dist-init-addr [::1]", "ValueError: Expected ':port' after closing bracket, got: ''"},
        {"0.5.23", ADP "--dist-init-addr ::1:5000", "ValueError: Bare IPv6 address without brackets is ambiguous: "
         "'::1:5000'. Use [::1]:5000 instead."},
        {"0.5.10", ADP "--dist-init-addr head:70000", "ValueError: Port out of range (0-65535): 70000"},
        {"0.5.23", ADP "--dist-init-addr head:5_000", NULL},
        {"0.5.23", ADP "--dist-init-addr [fe80::1%eth0]:5000 --nnodes 2", NULL},
        {"0.5.23", ADP "--nnodes 2", "ValueError: Empty address string"},
        {"0.5.23", "--tp 8 --dist-init-addr head:", "ValueError: Invalid port number: ''"},
        {"0.5.23", "--tp 8 --dist-init-addr head:5000 --nnodes 2", NULL},
        {"0.5.9", ADP "--nnodes 2", "AttributeError: 'NoneType' object has no attribute 'startswith'"},
        {"0.5.9", ADP "--dist-init-addr a:b:5000", "AssertionError: please provide --dist-init-addr as host:port of "
         "head node"},
        {"0.5.9", ADP "--dist-init-addr head:abc", "ValueError: invalid literal for int() with base 10: 'abc'"},
        {"0.5.3rc2", ADP "--dist-init-addr [::1]5000", "ValueError: received IPv6 address format: expected ':' after "
         "']'"},
        {"0.5.3rc2", ADP "--dist-init-addr [::1]:x", "ValueError: invalid port in IPv6 address: 'x'"},
        {"0.5.3rc2", ADP "--dist-init-addr [::g]:1", "ValueError: invalid IPv6 address: [::g]"},
        /* DSA turns DP attention on up to 0.5.7 */
        {"0.5.5", "--tp 8 --dist-init-addr head", "AssertionError: please provide --dist-init-addr as host:port"},
        {"0.5.23", ADP "--nccl-port 70000", "ValueError: nccl_port has invalid port number 70000. Valid TCP port "
         "range is 0-65535."},
        {"0.5.12", ADP "--nccl-port 65535", NULL},
        /* SGLANG_WAIT_PORT_TIMEOUT (0.5.16+), read by the first wait: the address's port, or --port + 233 */
        {"0.5.23", "SGLANG_WAIT_PORT_TIMEOUT=0 " ADP, "ValueError: dist_init_port at 30233 is not available in 0 "
         "seconds. dist_init_port at 30233 is not available"},
        {"0.5.16", "SGLANG_WAIT_PORT_TIMEOUT=-3 " ADP "--port 65400", "dist_init_port at 65167 is not available in -3 "
         "seconds."},
        {"0.5.23", "SGLANG_WAIT_PORT_TIMEOUT= " ADP "--dist-init-addr h:5000",
         "ValueError: invalid literal for int() with base 10: ''"},
        {"0.5.23", "SGLANG_WAIT_PORT_TIMEOUT=0 --tp 8", NULL},
        {"0.5.15", "SGLANG_WAIT_PORT_TIMEOUT=0 " ADP, NULL},
        {"0.5.23", "SGLANG_WAIT_PORT_TIMEOUT=5 " ADP, NULL},
    };
#undef ADP
    expect_verdicts("deepseek-v3.2", C, COUNT_OF(C));
    static const struct {
        const char *release, *args, *why;
    } DECLINED[] = {
        {"0.5.9", "--tp 8 --dist-init-addr head", "hands tcp:// and the address to torch's rendezvous"},
        {"0.5.12", "--tp 8 --dp 8 --enable-dp-attention --dist-init-addr head:65533", "and the five after it"},
        {"0.5.23", "SGLANG_DISTRIBUTED_INIT_METHOD_OVERRIDE=env:// --tp 8 --dist-init-addr head", "the override"},
        {"0.5.23", "--tp 8 --nccl-port -1", "binds the NCCL port"},
        {"0.5.12", "--tp 8 --dp 8 --enable-dp-attention --nccl-port 70000", "binds the NCCL port"},
    };
    kvc_resolved r;
    kvc_diag d;
    for (size_t i = 0; i < COUNT_OF(DECLINED); i++) {
        kvc_status st = resolve_line("H200", "deepseek-v3.2", DECLINED[i].args, DECLINED[i].release, &r, &d);
        if (st != KVC_ERR_CONFIG || !strstr(d.message, DECLINED[i].why) || !strstr(d.message, "cannot judge"))
            fail_msg("declined case %zu '%s': %d %s", i, DECLINED[i].args, st, d.message);
    }
}

static void test_rules__separate_draft_model_pools(void **state)
{
    (void)state;
    static const char D1[] = "tests/unit/models/EAGLE3_DRAFT.json", D2[] = "tests/unit/models/EAGLE3_DRAFT_2L.json";
    static const struct {
        const char *release, *gpu, *model, *args;
        const char *pool;        /* the draft_model_pool value; NULL: refused with `text`, "": warned with `text` */
        unsigned entries;        /* kv_entries */
        const char *text;
    } C[] = {
        /* B300: fp8 as the target's string; 8 KV heads over TP 8 */
        {"0.5.23", "B300", "glm-5.2", "--tp 8 --speculative-draft-attention-backend flashinfer", "fp8_e4m3 1x1x128: 8192 B/page",
         80, "8 over attention TP 8"},
        {"0.5.23", "B300", "glm-5.2", "--tp 4 --speculative-draft-attention-backend flashinfer",
         "fp8_e4m3 1x2x128: 16384 B/page", 80, NULL},
        /* attention DP and CP divide the TP first; at least one head */
        {"0.5.23", "B300", "glm-5.2", "--tp 8 --attn-dp-size 2 --speculative-draft-attention-backend flashinfer",
         "fp8_e4m3 1x2x128: 16384 B/page", 80, NULL},
        {"0.5.23", "B300", "glm-5.2", "--tp 16 --speculative-draft-attention-backend flashinfer",
         "fp8_e4m3 1x1x128: 8192 B/page", 80, NULL},
        /* Hopper: the DSA override gives bfloat16; 0.5.18+ draft dtype flag */
        {"0.5.23", "H200", "glm-5.2", "--tp 8 --speculative-draft-attention-backend flashinfer", "bfloat16 1x1x128: 16384 B/page",
         80, NULL},
        {"0.5.18", "B300", "glm-5.2",
         "--tp 8 --speculative-draft-attention-backend flashinfer --speculative-draft-kv-cache-dtype bf16",
         "bfloat16 1x1x128: 16384 B/page", 80, "--speculative-draft-kv-cache-dtype bf16"},
        /* MLA without DSA keeps the string auto: the draft model's own dtype (page size 1) */
        {"0.5.23", "H200", "deepseek-v3", "--tp 8", "bfloat16 1x1x128: 256 B/page", 63, "the draft model's dtype, bfloat16 (the config's dtype)"},
        /* the draft's trtllm_mha keeps pages of 16-128 tokens, else 64 (0.5.17+): the target's page too */
        {"0.5.17", "H200", "deepseek-v3", "--tp 8 --speculative-draft-attention-backend trtllm_mha",
         "bfloat16 1x1x128: 16384 B/page", 63, NULL},
        {"0.5.16", "H200", "deepseek-v3", "--tp 8 --speculative-draft-attention-backend trtllm_mha",
         "bfloat16 1x1x128: 256 B/page", 63, NULL},
        {"0.5.23", "H200", MODELS "DEEPSEEK_V3_NOQUANT.json", "--tp 8 --dtype float32", "float32 1x1x128: 512 B/page", 63,
         "(given by --dtype float32)"},
        /* the DSA backend asserts its model is DSA */
        {"0.5.23", "B300", "glm-5.2", "--tp 8", NULL, 0,
         "SGLang 0.5.23 refuses to start: AssertionError: DSA backend only supports DeepSeek DSA (at draft model init"},
        {"0.5.12", "B300", "glm-5.2", "--tp 8", NULL, 0, "AssertionError: NSA backend only supports DeepSeek NSA"},
        /* ... also where a flag sets a side to it: the target's sides, decode first */
        {"0.5.9", "H200", "deepseek-v3.2", "--tp 8 --decode-attention-backend nsa --prefill-attention-backend flashmla",
         NULL, 0, "NSA backend only supports DeepSeek NSA (at draft model init: the EAGLE3 draft LlamaForCausalLMEagle3, "
         "which SGLang 0.5.9 does not take as a DSA model, runs the target's attention backend nsa; sglang 0.5.3rc2: "
         "python/sglang/srt/layers/attention/nsa_backend.py:161-162; 0.5.12: :317-318); give the draft its own with "
         "--speculative-draft-attention-backend"},
        /* ROCm's FP8: e4m3fnuz on MI300X/MI325X, e4m3fn on MI355X (and --speculative-draft-kv-cache-dtype
         * fp8_e5m2 is the platform's FP8 there) */
        {"0.5.23", "MI300X", "deepseek-v3.2", "--tp 8 --kv-cache-dtype fp8_e4m3 --speculative-draft-attention-backend "
         "triton", "fp8_e4m3fnuz 1x1x128: 8192 B/page", 63, NULL},
        {"0.5.23", "MI355X", "deepseek-v3.2", "--tp 8 --speculative-draft-kv-cache-dtype fp8_e5m2 "
         "--speculative-draft-attention-backend triton", "fp8_e4m3 1x1x128: 8192 B/page", 63, NULL},
        /* fa3 checks the GPU when the draft runner starts */
        {"0.5.23", "B300", "glm-5.2", "--tp 8 --speculative-draft-attention-backend fa3", NULL, 0,
         "AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend "
         "flashinfer`. (at draft model init: the EAGLE3 draft LlamaForCausalLMEagle3, an MHA model, runs its attention "
         "backend fa3 on B300"},
        /* without its own, the draft runs the target's: SM100's default for DeepSeek V3, an MLA backend */
        {"0.5.23", "B200", "deepseek-v3", "--tp 8", NULL, 0,
         "ValueError: trtllm_mla backend can only be used with MLA models. (at draft model init: the EAGLE3 draft "
         "LlamaForCausalLMEagle3, an MHA model, runs the target's attention backend trtllm_mla on B200"},
        /* the target's two sides where they differ, decode first; fa3 made triton by fp8_e5m2 up to 0.5.4 too */
        {"0.5.9", "B200", "deepseek-v3", "--tp 8 --attention-backend flashinfer --decode-attention-backend trtllm_mla",
         NULL, 0, "trtllm_mla backend can only be used with MLA models. (at draft model init: the EAGLE3 draft "
         "LlamaForCausalLMEagle3, an MHA model, runs the target's attention backend trtllm_mla on B200"},
        {"0.5.4", "B200", "deepseek-v3", "--tp 8 --attention-backend fa3 --kv-cache-dtype fp8_e5m2",
         "fp8_e5m2 1x1x128: 128 B/page", 63, NULL},
        /* ROCm's fp8_e5m2 is e5m2fnuz up to 0.5.6.post1 */
        {"0.5.5", "MI300X", "deepseek-v3", "--tp 8 --kv-cache-dtype fp8_e5m2", "fp8_e5m2fnuz 1x1x128: 128 B/page", 63,
         NULL},
        /* its own: 0.5.23 renames tokenspeed_mla cutedsl_mla; hpc_ops refuses speculative decoding */
        {"0.5.23", "B200", "deepseek-v3", "--tp 8 --speculative-draft-attention-backend tokenspeed_mla", NULL, 0,
         "ValueError: cutedsl_mla backend can only be used with MLA models. (at draft model init"},
        {"0.5.23", "H200", "deepseek-v3", "--tp 8 --speculative-draft-attention-backend hpc_ops", NULL, 0,
         "ValueError: hpc_ops backend does not support speculative decoding for now."},
        {"0.5.23", "H200", "glm-5.2", "--tp 8 --speculative-draft-attention-backend fa3", "bfloat16 1x1x128: 16384 B/page",
         80, NULL},
        /* STANDALONE and an attention-DP size above 1: DSA forces DP attention with dp = tp up to 0.5.5.post3, with
         * the dp given in 0.5.6-0.5.7 (1: off again); --attn-dp-size from 0.5.22 (tools/sglang-oracle/
         * DRAFT_SPOTCHECK.md) */
        {"0.5.5", "B300", "deepseek-v3.2", "--speculative-algorithm STANDALONE --tp 8", NULL, 0,
         "Currently standalone speculative decoding does not support dp attention. (attention DP size 8: SGLang "
         "turns DP attention on for DSA models up to 0.5.7"},
        {"0.5.7", "B300", "deepseek-v3.2", "--speculative-algorithm STANDALONE --tp 8 "
         "--speculative-draft-attention-backend flashinfer", "fp8_e4m3 1x1x128: 8192 B/page", 63, NULL},
        {"0.5.7", "B300", "deepseek-v3.2", "--speculative-algorithm STANDALONE --tp 8 --dp 2 "
         "--speculative-draft-attention-backend flashinfer", NULL, 0,
         "(attention DP size 2: SGLang turns DP attention on"},
        {"0.5.23", "B300", "glm-5.2", "--speculative-algorithm STANDALONE --tp 8 --enable-dp-attention "
         "--speculative-draft-attention-backend flashinfer", "fp8_e4m3 1x1x128: 8192 B/page", 80, NULL},
        {"0.5.22", "B300", "glm-5.2", "--speculative-algorithm STANDALONE --tp 8 --attn-dp-size 8 "
         "--speculative-draft-attention-backend flashinfer", NULL, 0, "Currently standalone speculative decoding does not support dp attention. (attention DP size 8; sglang"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char args[600];
        snprintf(args, sizeof args, "%s--speculative-draft-model-path %s %s",
                 strstr(C[i].args, "--speculative-algorithm") ? "" : "--speculative-algorithm EAGLE3 ", D1, C[i].args);
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(C[i].gpu, C[i].model, args, C[i].release, &r, &d);
        if (!C[i].pool) {
            if (st != KVC_ERR_CONFIG || !strstr(d.message, C[i].text)) fail_msg("case %zu: %d %s", i, st, d.message);
            continue;
        }
        if (st != KVC_OK) fail_msg("case %zu: %s", i, d.message);
        if (strcmp(VAL(&r, "draft_model_pool"), C[i].pool) || r.kv_entries != C[i].entries)
            fail_msg("case %zu: '%s', %u entries", i, VAL(&r, "draft_model_pool"), r.kv_entries);
        if (C[i].text) assert_contains(resolved_find(&r, "draft_model_pool")->reason, C[i].text);
    }
    /* two layers: 0.5.11's EAGLE3 takes one; later, the V width; float32 and a quantization config are not read */
    kvc_resolved r;
    kvc_diag d;
    char args[400];
    snprintf(args, sizeof args, "--tp 8 --speculative-algorithm EAGLE3 --speculative-draft-model-path %s "
             "--speculative-draft-attention-backend flashinfer", D2);
    /* which check refuses a two-layer EAGLE3 head, in SGLang's order: the target's model load, then the draft's
     * model class (whatever the algorithm), then the draft's attention backend */
    static const struct {
        const char *model, *algo, *backend, *release, *text;
    } R[] = {
        {"glm-5.2", "EAGLE3", "flashinfer", "0.5.11",
         "ValueError: EAGLE3 currently only supports 1 layer (at draft model init: EAGLE3_DRAFT_2L has 2"},
        {"glm-5", "STANDALONE", "flashinfer", "0.5.9", "EAGLE3 currently only supports 1 layer"},
        /* the draft starts after the target: 0.5.8 has no GLM-5 class, which the target's model load says first */
        {"glm-5", "STANDALONE", "flashinfer", "0.5.8", "Cannot find model module. 'GlmMoeDsaForCausalLM'"},
        /* the draft's model class before its attention backend: the one-layer check, not fa3's GPU check */
        {"glm-5.2", "EAGLE3", "fa3", "0.5.11", "EAGLE3 currently only supports 1 layer"},
        {"glm-5.2", "EAGLE3", "fa3", "0.5.12", "FlashAttention v3 Backend requires SM>=80 and SM<=90"},
    };
    for (size_t i = 0; i < COUNT_OF(R); i++) {
        char line[400];
        snprintf(line, sizeof line, "--tp 8 --speculative-algorithm %s --speculative-draft-model-path %s "
                 "--speculative-draft-attention-backend %s", R[i].algo, D2, R[i].backend);
        assert_int_equal(resolve_line("B300", R[i].model, line, R[i].release, &r, &d), KVC_ERR_CONFIG);
        assert_contains(d.message, R[i].text);
    }
    assert_int_equal(resolve_line("B300", "glm-5.2", args, "0.5.23", &r, &d), KVC_OK);
    assert_string_equal(VAL(&r, "draft_model_pool"), "fp8_e4m3 2x1x128/64: K 8192 + V 4096 B/page");
    uint64_t items[2];
    assert_int_equal(kvc_resolved_draft_model(&r, items), 2);
    assert_int_equal(items[0], 8192);
    assert_int_equal(items[1], 4096);
    assert_int_equal(r.kv_entries, 82);
    assert_int_equal(r.kv_bytes_per_token_all, 78 * 576 + 2 * (128 + 64));
    assert_int_equal(r.indexer_bytes_per_token_all, 21 * 132); /* GLM-5.2's 21 indexer layers */
    snprintf(args, sizeof args, "--tp 8 --speculative-algorithm EAGLE3 --speculative-draft-model-path %s", D2);
    assert_int_equal(resolve_line("H200", "deepseek-v3", args, "0.5.23", &r, &d), KVC_OK);
    assert_string_equal(VAL(&r, "draft_model_pool"), "");
    assert_int_equal(r.kv_entries, 61);
    assert_true(has_warning(&r, "the draft model's KV pool is not derived (--kv-cache-dtype auto as the server "
                                "resolved it: the draft's own, which follows its quantization_config"));
    /* a draft found nowhere */
    assert_int_equal(resolve_line("B300", "glm-5.2", "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
                                  "/nonexistent/draft --speculative-draft-attention-backend flashinfer", "0.5.23", &r, &d),
                     KVC_OK);
    assert_int_equal(r.kv_entries, 78);
    assert_true(has_warning(&r, "KV pool is not derived ('/nonexistent/draft' found nowhere: local path, Hugging "
                                "Face cache, bundled models); a unified worker keeps it to itself"));
    /* a PD worker's underived draft pool is declined: a pair could not be judged without it */
    assert_int_equal(resolve_line("B300", "glm-5.2", "--disaggregation-mode decode --speculative-algorithm EAGLE3 "
                                  "--speculative-draft-model-path /nonexistent/draft "
                                  "--speculative-draft-attention-backend flashinfer", "0.5.23", &r, &d),
                     KVC_ERR_CONFIG);
    assert_contains(d.message, "--speculative-algorithm EAGLE3: kvcheck does not derive this draft model's KV pool "
                               "('/nonexistent/draft' found nowhere: local path, Hugging Face cache, bundled models), "
                               "which PD sends after the target's (sglang 0.5.23: "
                               "python/sglang/srt/disaggregation/prefill.py:301-325), so it cannot judge the pair");
    assert_int_equal(d.column, 61); /* --speculative-draft-model-path */
    snprintf(args, sizeof args, "--disaggregation-mode prefill --tp 8 --speculative-algorithm EAGLE3 "
             "--speculative-draft-model-path %s", D2);
    assert_int_equal(resolve_line("H200", "deepseek-v3", args, "0.5.23", &r, &d), KVC_ERR_CONFIG);
    assert_contains(d.message, "the draft's own, which follows its quantization_config");
}

static void test_rules__versions_name_releases(void **state)
{
    (void)state;
    assert_string_equal(kvc_engine_release("sglang", 0), "0.5.23");
    assert_string_equal(kvc_engine_release(NULL, SGLANG_NRELEASES - 1), "0.5.3rc2");
    assert_null(kvc_engine_release("sglang", SGLANG_NRELEASES));
    assert_null(kvc_engine_release("vllm", 0));
    assert_true(rules_tables_valid());
    /* exact, older-than-known and newer-than-known versions, main */
    static const struct {
        const char *asked, *used, *note;
    } V[] = {
        {"0.5.18", "0.5.18", NULL},
        {"0.5.4.post3", "0.5.4.post3", NULL},
        {"v0.5.20", "0.5.20", "SGLang v0.5.20 is not a release kvcheck has read"},
        {"0.5.10rc0", "0.5.9", "it uses the rules of 0.5.9, the newest older one it has"},
        {"0.5.15.post2", "0.5.15.post1", "the newest older one"},
        {"0.6.0", "0.5.23", "SGLang 0.6.0 is not a release kvcheck has read"},
        {"main", "0.5.23", "SGLang main is not a release kvcheck can read"},
    };
    for (size_t i = 0; i < COUNT_OF(V); i++) {
        kvc_resolved r;
        kvc_diag d;
        if (resolve_line("B300", "deepseek-v3.2", "", V[i].asked, &r, &d)) fail_msg("%s: %s", V[i].asked, d.message);
        assert_string_equal(r.release, V[i].used);
        assert_string_equal(r.release_asked, V[i].asked);
        assert_string_equal(r.release_from, "--sglang-version");
        int noted = 0;
        for (unsigned k = 0; k < r.nwarnings; k++) noted |= V[i].note && strstr(r.warnings[k], V[i].note) != NULL;
        assert_int_equal(noted, V[i].note != NULL);
    }
    kvc_resolved r;
    kvc_diag d;
    assert_int_equal(resolve_line("B300", "glm-5.2", "", "0.5.2", &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "SGLang 0.5.2 is older than 0.5.3rc2, the first release that serves DSA models");
    assert_int_equal(resolve_line("B300", "glm-5.2", "", "latest", &r, &d), KVC_ERR_USAGE);
    assert_contains(d.message, "SGLang version 'latest' is not a version");
    assert_int_equal(resolve_line("B300", "glm-5.2", "", NULL, &r, &d), KVC_OK);
    assert_string_equal(r.release, "0.5.23");
    assert_string_equal(r.release_asked, "");
    /* every setting SGLang shows was added, typed, in display order */
    static const char *const NAMES[] = {"kv_cache_dtype",        "dsa_prefill_backend",
                                        "dsa_decode_backend",    "dtype",
                                        "kv_cache_dtype_str",    "disaggregation_mode",
                                        "transfer_backend",      "kv_checksum",
                                        "decode_alloc_policy",   "page_size",
                                        "speculative_algorithm", "speculative_draft_kv_cache_dtype",
                                        "draft_model_pool",      "enable_hisparse",
                                        "parallelism",           "chunked_prefill_size"};
    assert_int_equal(r.nsettings, COUNT_OF(NAMES));
    for (unsigned i = 0; i < r.nsettings; i++) assert_string_equal(r.settings[i].name, NAMES[i]);
    /* the most a worker shows, a hybrid model's on a PD worker, fit the table with room */
    assert_int_equal(resolve_line("H200", GLM5_NEXT, "--disaggregation-mode decode", NULL, &r, &d), KVC_OK);
    assert_true(r.nsettings < ENGINE_MAX_SETTINGS);
    assert_string_equal(r.settings[r.nsettings - 1].name, "linear_state");
    assert_int_equal(resolved_find(&r, "page_size")->type, KVC_VALUE_UINT);
    assert_int_equal(resolved_find(&r, "page_size")->number, 64);
    assert_int_equal(resolved_find(&r, "enable_hisparse")->type, KVC_VALUE_BOOL);
    assert_true(resolved_find(&r, "kv_cache_dtype")->flags & KVC_SETTING_COMPARED);
}

static void test_rules__eras_group_releases_with_the_same_rules(void **state)
{
    (void)state;
    /* the eras tools/sglang-oracle/ERAS.md found by reading and by diffing the oracle's tables */
    static const struct {
        const char *release, *era;
    } E[] = {{"0.5.23", "0.5.23"}, {"0.5.22", "0.5.22"}, {"0.5.21", "0.5.21"}, {"0.5.15.post1", "0.5.15"}, {"0.5.14", "0.5.14"},
             {"0.5.10.post1", "0.5.10"}, {"0.5.8.post1", "0.5.8"}, {"0.5.3", "0.5.3rc2"}, {"0.5.9", "0.5.9"},
             {"0.5.20", "0.5.20"}, {"0.5.3.post3", "0.5.3.post2"}, {"0.5.5.post2", "0.5.5.post1"},
             /* SM100's server defaults set --quantization for DeepSeek V3 from 0.5.4.post1, by other tests from
              * 0.5.5, for DSA models from 0.5.6 (quant.c) */
             {"0.5.5", "0.5.5"}, {"0.5.6", "0.5.6"}, {"0.5.4.post3", "0.5.4.post3"}};
    for (size_t i = 0; i < COUNT_OF(E); i++) {
        int k = engine_release_index(engine_default(), E[i].release);
        assert_true(k >= 0);
        assert_string_equal(kvc_engine_release_era("sglang", (unsigned)k), E[i].era);
    }
    assert_null(kvc_engine_release_era("sglang", SGLANG_NRELEASES));
}

/* What a version literal in the rules' code is to the eras: the first
 * release of a span (SINCE, FROM_TO's first, rel_since, the lower bound of
 * sglang_release_in), its last (UNTIL, FROM_TO's second, rel_until, the
 * upper bound), or in a table's own fields, either. */
enum bound { BOUND_FIRST, BOUND_LAST, BOUND_EITHER };

/* The bound the literal whose opening quote is at `q` in `text` gives: by
 * the call it is an argument of and its place there. Comments are blanked. */
static enum bound bound_of(const char *text, const char *q)
{
    int depth = 0, arg = 0;
    const char *p = q;
    while (p > text) {
        p--;
        if (*p == ')' || *p == ']' || *p == '}') depth++;
        else if ((*p == '(' || *p == '[' || *p == '{') && depth) depth--;
        else if (*p == '{' || *p == '[' || *p == ';') return BOUND_EITHER;
        else if (*p == '(') break;
        else if (*p == ',' && !depth) arg++;
    }
    const char *end = p;
    while (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) p--;
    size_t n = (size_t)(end - p);
    static const struct {
        const char *call;
        int arg;
        enum bound bound;
    } CALLS[] = {{"SINCE", 0, BOUND_FIRST},     {"UNTIL", 0, BOUND_LAST},     {"FROM_TO", 0, BOUND_FIRST},
                 {"FROM_TO", 1, BOUND_LAST},    {"rel_since", 1, BOUND_FIRST}, {"rel_until", 1, BOUND_LAST},
                 {"sglang_release_in", 1, BOUND_FIRST}, {"sglang_release_in", 2, BOUND_LAST},
                 {"release_in", 1, BOUND_FIRST}, {"release_in", 2, BOUND_LAST},
                 {"skip_resets", 1, BOUND_FIRST}, {"skip_resets", 2, BOUND_LAST}};
    for (size_t i = 0; i < COUNT_OF(CALLS); i++)
        if (strlen(CALLS[i].call) == n && strncmp(p, CALLS[i].call, n) == 0 && CALLS[i].arg == arg)
            return CALLS[i].bound;
    fail_msg("a version as argument %d of %.*s, which the eras do not know: teach bound_of", arg, (int)n, p);
    return BOUND_EITHER;
}

/* 1 when release `k` is the oldest of its era: an era starts there. */
static int era_starts(int k) { return strcmp(kvc_engine_release_era("sglang", (unsigned)k), SGLANG_VERSIONS[k]) == 0; }

static void test_rules__eras_see_every_version_test(void **state)
{
    (void)state;
    /* every release a rule's code names (a table's span, a rel_since in a branch) starts or ends an era there */
    static const char *const FILES[] = {"src/engine/sglang/rules.c", "src/engine/sglang/quant.c",
                                        "src/engine/sglang/pd.c", "src/engine/sglang/dsv4.c",
                                        "src/engine/sglang/server.c", "src/engine/sglang/grpc.c"};
    unsigned seen = 0;
    for (size_t f = 0; f < COUNT_OF(FILES); f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", KVC_SOURCE_DIR, FILES[f]);
        char *text = NULL;
        size_t len = 0;
        kvc_diag d;
        if (file_read_all(path, &text, &len, &d)) fail_msg("%s", d.message);
        for (char *c = strstr(text, "/*"); c; c = strstr(c, "/*")) { /* blank the comments */
            char *e = strstr(c + 2, "*/");
            assert_non_null(e);
            memset(c, ' ', (size_t)(e + 2 - c));
        }
        for (const char *q = strchr(text, '"'); q; q = strchr(q + 1, '"')) {
            const char *e = strchr(q + 1, '"');
            assert_non_null(e);
            char lit[32] = "";
            if (e - q - 1 < (long)sizeof lit) memcpy(lit, q + 1, (size_t)(e - q - 1)), lit[e - q - 1] = '\0';
            if (!(isdigit((unsigned char)lit[0]) && strchr(lit, '.') && !strchr(lit, ' '))) {
                q = e;
                continue;
            }
            int k = sglang_release_index(lit);
            if (k < 0) fail_msg("%s: \"%s\" is no release kvcheck has read", FILES[f], lit);
            enum bound b = bound_of(text, q);
            /* the first of a span starts an era (the oldest release always does); the last ends one */
            int first = era_starts(k), last = k == 0 || era_starts(k - 1);
            if ((b == BOUND_FIRST && !first) || (b == BOUND_LAST && !last) || (b == BOUND_EITHER && !first && !last))
                fail_msg("%s: a version test of %s (%s) is inside era %s: add it to the file's spans", FILES[f], lit,
                         b == BOUND_FIRST ? "from" : b == BOUND_LAST ? "to" : "a table's", kvc_engine_release_era(
                         "sglang", (unsigned)k));
            seen++;
            q = e;
        }
        free(text);
    }
    assert_true(seen > 400);
}

/* --enable-page-major-kv-layout and --enable-unified-memory (0.5.15+): page-major needs unified memory from 0.5.19;
 * the attention backends SGLang runs (a DSA model's is dsa) must be in the release's allowed set; unified memory
 * refuses a PD worker up to 0.5.17, and past these checks kvcheck declines it (SGLang's model runner refuses it for
 * these models at start-up). Every case run against the oracle (helper-70). */
static void test_rules__page_major_and_unified_memory(void **state)
{
    (void)state;
    static const struct {
        const char *release, *args, *message; /* NULL: SGLang starts it, with the same layout */
    } C[] = {
        {"0.5.15", "--enable-unified-memory", "AssertionError: --enable-page-major-kv-layout requires the Triton "
         "attention backend for the full-attention layers; got ['dsa']. Pass --attention-backend triton."},
        {"0.5.16", "--enable-page-major-kv-layout --attention-backend flashmla", "got ['flashmla']. Pass"},
        {"0.5.17", "--enable-unified-memory --disaggregation-mode decode", "got ['dsa'], allowed ['cutedsl_mla', "
         "'fa3', 'flashinfer', 'tokenspeed_mla', 'triton', 'trtllm_mla']. Pass a compatible --attention-backend."},
        {"0.5.18", "--enable-page-major-kv-layout", "got ['dsa'], allowed ['triton']. Pass"},
        {"0.5.18", "--enable-page-major-kv-layout --attention-backend triton", NULL},
        {"0.5.17", "--enable-unified-memory --attention-backend triton --disaggregation-mode prefill",
         "AssertionError: --enable-unified-memory is not yet compatible with PD disaggregation."},
        {"0.5.18", "--enable-unified-memory --attention-backend triton --disaggregation-mode prefill",
         "SGLang 0.5.18 goes on to its other unified-memory checks"},
        {"0.5.19", "--enable-unified-memory", "AssertionError: --enable-page-major-kv-layout: the resolved attention "
         "backends ['dsa'] are not in the allowed set ['cutedsl_mla', 'fa3', 'flashinfer', 'flashmla', "
         "'tokenspeed_mla', 'triton', 'trtllm_mla'] for this configuration (unified memory allows the per-layer-view "
         "families; plain page-major keeps the envelope-strided views only Triton reads)."},
        {"0.5.22", "--enable-unified-memory", "for this configuration (unified memory allows the stride-aware "
         "per-layer-view families). Pass a compatible --attention-backend."},
        {"0.5.23", "--enable-unified-memory --attention-backend triton --decode-attention-backend dsa",
         "the resolved attention backends ['dsa', 'triton'] are not in the allowed set ['cutedsl_mla', 'fa3', "
         "'flashinfer', 'flashmla', 'triton', 'trtllm_mla'] for this configuration. Pass"},
        {"0.5.23", "--enable-page-major-kv-layout --attention-backend triton", "AssertionError: "
         "--enable-page-major-kv-layout without --enable-unified-memory is temporarily unsupported"},
        {"0.5.23", "--enable-unified-memory --attention-backend flashmla", "kvcheck does not model, so it cannot "
         "judge this worker; SGLang's model runner then refuses unified memory at start-up"},
    };
    for (size_t i = 0; i < COUNT_OF(C); i++) {
        char args[300];
        snprintf(args, sizeof args, "--tp 8 %s", C[i].args);
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line("H200", "deepseek-v3.2", args, C[i].release, &r, &d);
        if (C[i].message ? st != KVC_ERR_CONFIG || !strstr(d.message, C[i].message) : st != KVC_OK)
            fail_msg("case %zu '%s' under %s: %d %s", i, args, C[i].release, st, d.message);
        if (!C[i].message) assert_int_equal(r.kv.bytes_per_token, 1152);
    }
    /* DeepSeek-V4 runs no MLA backend: its attention backend dsv4 (whatever --attention-backend says) against the
     * other models' set; so does a model the release has no class for (GLM-5 Next before 0.5.20) */
    static const struct {
        const char *gpu, *model, *release, *args, *message;
    } M[] = {
        {"H200", "tests/unit/models/DSV4_SMALL.json", "0.5.23", "--enable-unified-memory", "the resolved attention "
         "backends ['dsv4'] are not in the allowed set ['fa3', 'fa4', 'flashinfer', 'triton', 'trtllm_mha'] for this "
         "configuration. Pass"},
        {"B200", "tests/unit/models/DSV4_SMALL.json", "0.5.17", "--enable-page-major-kv-layout --attention-backend "
         "triton", "got ['dsv4'], allowed ['triton']"},
        {"H200", "tests/conformance/sglang/models/GLM5_NEXT.json", "0.5.17", "--tp 8 --enable-unified-memory "
         "--attention-backend fa3", "got ['fa3'], allowed ['triton']"},
        /* one side's attention flag: the other keeps the attention backend SGLang picks */
        {"H200", "deepseek-v3.2", "0.5.23", "--tp 8 --enable-unified-memory --prefill-attention-backend triton",
         "SGLang 0.5.23 goes on to its other unified-memory checks"},
    };
    for (size_t i = 0; i < COUNT_OF(M); i++) {
        kvc_resolved r;
        kvc_diag d;
        kvc_status st = resolve_line(M[i].gpu, M[i].model, M[i].args, M[i].release, &r, &d);
        if (st != KVC_ERR_CONFIG || !strstr(d.message, M[i].message))
            fail_msg("case %zu '%s' under %s: %d %s", i, M[i].args, M[i].release, st, d.message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules__truth_table),
        cmocka_unit_test(test_rules__refusals_are_sglangs_own_words),
        cmocka_unit_test(test_rules__draft_refusals_at_the_flag),
        cmocka_unit_test(test_rules__fp4_check_flags_that_pass),
        cmocka_unit_test(test_rules__decode_allocation_policy),
        cmocka_unit_test(test_rules__decode_host_receive_off),
        cmocka_unit_test(test_rules__refusals_point_at_the_flag),
        cmocka_unit_test(test_rules__reasons_say_how_each_value_was_decided),
        cmocka_unit_test(test_rules__entries_count_draft_layers_and_the_indexer),
        cmocka_unit_test(test_rules__index_topk_sharing),
    cmocka_unit_test(test_rules__server_args_checks),
    cmocka_unit_test(test_rules__grpc_port_checks),
    cmocka_unit_test(test_rules__token_buckets_and_metrics),
    cmocka_unit_test(test_rules__lora_checks),
    cmocka_unit_test(test_rules__lora_manager),
    cmocka_unit_test(test_rules__torchao_declined),
    cmocka_unit_test(test_rules__lp_dispatch_models),
    cmocka_unit_test(test_rules__sbo_on_sm90),
    cmocka_unit_test(test_rules__staging_buffer_mla),
    cmocka_unit_test(test_rules__startup_load_overlap_declined),
    cmocka_unit_test(test_rules__kernel_flags_declined),
    cmocka_unit_test(test_rules__hisparse_spec_swap),
    cmocka_unit_test(test_rules__dsa_backend_heads_and_mixed_chunk),
    cmocka_unit_test(test_rules__media_url_policy),
    cmocka_unit_test(test_rules__watermark_checks),
    cmocka_unit_test(test_rules__rejection_sampling),
    cmocka_unit_test(test_rules__speculative_window),
    cmocka_unit_test(test_rules__early_checks),
    cmocka_unit_test(test_rules__decode_sizes_until_0_5_9),
    cmocka_unit_test(test_rules__flags_for_other_models),
    cmocka_unit_test(test_rules__engine_addresses),
    cmocka_unit_test(test_rules__lm_head_checks),
    cmocka_unit_test(test_rules__tlru_eviction),
    cmocka_unit_test(test_rules__load_publish_checks),
    cmocka_unit_test(test_rules__pipeline_parallel_speculative),
    cmocka_unit_test(test_rules__prefill_only_disable_kv_cache),
    cmocka_unit_test(test_rules__environment_variables),
        cmocka_unit_test(test_rules__page_major_and_unified_memory),
    cmocka_unit_test(test_rules__draft_entries_have_their_own_layout),
        cmocka_unit_test(test_rules__fp4_pools_keep_their_scales_in_a_second_buffer),
        cmocka_unit_test(test_rules__parallelism_never_changes_the_layout),
        cmocka_unit_test(test_rules__dcp_declines_pd_workers),
        cmocka_unit_test(test_rules__dcp_communication_checks),
        cmocka_unit_test(test_rules__language_model_only),
        cmocka_unit_test(test_rules__external_linker_checks),
        cmocka_unit_test(test_rules__radix_cache_options),
        cmocka_unit_test(test_rules__odd_platforms_are_warned),
        cmocka_unit_test(test_rules__index_head_dim_must_be_128),
        cmocka_unit_test(test_rules__unmodelled_architectures_are_refused),
        cmocka_unit_test(test_rules__unjudged_architectures_and_model_dtypes),
        cmocka_unit_test(test_rules__hf_quant_config_beside_config_json),
        cmocka_unit_test(test_rules__modelopt_checkpoints),
        cmocka_unit_test(test_rules__moe_runner_checks),
        cmocka_unit_test(test_rules__nextn_target_dsa_defaults),
        cmocka_unit_test(test_rules__unmodelled_parallelism),
        cmocka_unit_test(test_rules__prefill_context_parallelism),
        cmocka_unit_test(test_rules__prefill_context_parallelism_notes),
        cmocka_unit_test(test_rules__chunked_prefill_size),
        cmocka_unit_test(test_rules__all_to_all_handler),
        cmocka_unit_test(test_rules__modelopt_configs_sglang_reads_its_own_way),
        cmocka_unit_test(test_rules__model_loader_quantization_check),
        cmocka_unit_test(test_rules__dsv4_resolves_to_model1_pages_of_256),
        cmocka_unit_test(test_rules__dsv4_refusals),
        cmocka_unit_test(test_rules__dsv4_backends_and_layouts),
        cmocka_unit_test(test_rules__dsv4_dimensions_from_the_config),
        cmocka_unit_test(test_rules__mha_checks_that_pass_leave_the_model_class_refusal),
        cmocka_unit_test(test_rules__glm5_next_is_dsa_plus_linear_layers),
        cmocka_unit_test(test_rules__glm5_next_split_from_the_config),
        cmocka_unit_test(test_rules__glm5_next_state_dtypes),
        cmocka_unit_test(test_rules__round_robin_until_0_5_7),
        cmocka_unit_test(test_rules__prefill_delayer),
        cmocka_unit_test(test_rules__separate_draft_model_pools),
        cmocka_unit_test(test_rules__versions_name_releases),
        cmocka_unit_test(test_rules__eras_group_releases_with_the_same_rules),
        cmocka_unit_test(test_rules__eras_see_every_version_test),
        cmocka_unit_test(test_rules__attention_builds_that_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
