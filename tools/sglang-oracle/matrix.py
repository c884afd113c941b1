"""Run one release's own code over the matrix of worker settings, for one GPU.

usage: python3 matrix.py VERSION GPU [--models DIR] [--limit N] [--attention | --quant | --modelopt | --parallel]
       [--reuse OLD.jsonl]
       > VERSION_GPU.jsonl

--reuse copies the ROW of every case OLD.jsonl (an earlier run of the same
release and GPU) holds and runs only the others: for a matrix that gained
cases, where nothing the old cases meet has changed in the oracle since.

--attention runs attention_cases() instead (the attention backend named by
each flag, and the speculative page-tree check against SGLang's platform
default); sweep.sh writes their tables to tests/conformance/sglang/attention
with ATTENTION=1.

--quant runs quant_cases() instead (checkpoints of other quantization methods:
the method SGLang resolves, its model loader check, the KV dtype auto takes);
sweep.sh writes their tables to tests/conformance/sglang/quant with QUANT=1.

--modelopt runs modelopt_cases() instead (ModelOpt checkpoints and the
variants modelopt_variants.py writes, under every --quantization, MoE
runner and dtype SGLang reads for them); sweep.sh writes their tables to
tests/conformance/sglang/modelopt with MODELOPT=1.

--parallel runs parallel_cases() instead (prefill context parallelism under
each release's flags, sizes and modes); sweep.sh writes their tables to
tests/conformance/sglang/parallel with PARALLEL=1.

Every release runs the same case list (cases() below; it does not depend on
the release or GPU), so a case a release's parser cannot take is recorded as
argparse's refusal, not left out. Output, one JSON object a line:
  FLAGS {"v":..,"gpu":..,"prefill": <flag>, "decode": <flag>, "init_lines": [...]}
  ROW   {"v":..,"gpu":..,"case":[model,dtype,pb,db,mode,hisparse,radix,spec,draft,page,
                                    draft_model,draft_backend,parallel],
         "out": {kv_cache_dtype,page_size,prefill,decode,row,torch_dtype[,draft]}} or "refused": text
The worker's command line is argv(case) below, after `--model-path /fake/model`.
A draft_model case (EAGLE3/STANDALONE with a separate draft) gives
`--speculative-draft-model-path /fake/draft/<draft_model>`, served that
model's config (Oracle.add_draft); the replay gives the config file's path.
"""
import json, os, sys, time, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# every value any release from 0.5.3rc2 to 0.5.23 accepts (flags.py), oldest first
BACKENDS = ["flashmla_prefill", "flashmla_decode", "flashmla_sparse", "flashmla_kv", "flashmla_auto", "fa3",
            "tilelang", "aiter", "trtllm", "flashmla_sparse_q8", "flashinfer_sparse_mla", "triton",
            "triton_sparse_mla", "intel_xpu"]
MODERN = BACKENDS[2:]
DTYPES = ["fp8_e5m2", "fp8_e4m3", "bf16", "bfloat16", "fp4_e2m1", "mxfp8", "nvfp4", "fp4_mx_block16"]
BASIC = [None, "bf16", "bfloat16", "fp8_e4m3", "fp8_e5m2"]
MODES = [None, "prefill", "decode"]
DSA = ["DEEPSEEK_V32", "GLM5"]
OTHER = ["DEEPSEEK_V32_HF", "GLM5_NEXTN", "LONGCAT_FLASH", "GLM5_SINK", "DEEPSEEK_V3", "GLM5_NEXT"]
DRAFT = [None, "auto", "fp8_e5m2", "fp8_e4m3", "bf16", "bfloat16"]
# separate draft models (MHA, tests/conformance/sglang/models) and how they are run
DRAFT_MODELS = ["EAGLE3_LLAMA", "EAGLE3_LLAMA_2L", "LLAMA_DRAFT"]
DRAFT_BACKENDS = [None, "flashinfer", "fa3", "triton"]
PARALLEL = [None, "--dp 8", "--enable-dp-attention --dp 8", "--attn-dp-size 8"]
# the model's dtype, which --kv-cache-dtype auto takes: configs with another dtype (or none), and Mistral-Large-3's
# architectures (SGLang runs them in bfloat16 whatever --dtype says) on DeepSeek-V3's and -V3.2's dimensions (Pixtral's
# flat: kvcheck and the oracle's HFConfig read no text_config)
DTYPE_MODELS = ["DEEPSEEK_V3_FP16", "DEEPSEEK_V3_NODTYPE", "DEEPSEEK_V3_DTYPE_KEY", "DEEPSEEK_V32_FP32",
                "MISTRAL_LARGE3", "MISTRAL_LARGE3_DSA", "PIXTRAL_DSA"]
MODEL_DTYPE_FLAGS = [None, "--dtype auto", "--dtype half", "--dtype float16", "--dtype bfloat16", "--dtype float",
                     "--dtype float32"]
# the model loader's check of the quantization method (its GPU capability and activation dtypes): the FP8
# checkpoint's own method or --quantization fp8, also on a checkpoint without a quantization config
QUANT_FLAGS = ["--quantization fp8", "--quantization fp8 --dtype float32", "--quantization fp8 --dtype float16",
               "--quantization fp8 --dtype float"]
# FP8 checkpoints whose quantization config asks for an FP8 KV cache (kv_cache_quant_algo "FP8", "fp8"), which a KV
# dtype of auto follows where the method's config class keeps it
FP8KV_MODELS = ["DEEPSEEK_V3_FP8KV", "DEEPSEEK_V32_FP8KV"]
# prefill context parallelism: each release's spellings (0.5.6 --enable-nsa-prefill-context-parallel; 0.5.8 its
# --nsa-prefill-cp-mode; 0.5.10 --enable-prefill-context-parallel; 0.5.13 the dsa names; 0.5.14 --enable-prefill-cp
# and --cp-strategy) and the sizes its checks read
CP_FLAGS = ["--enable-nsa-prefill-context-parallel",
            "--enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode in-seq-split",
            "--enable-nsa-prefill-context-parallel --nsa-prefill-cp-mode round-robin-split",
            "--enable-dsa-prefill-context-parallel",
            "--enable-dsa-prefill-context-parallel --dsa-prefill-cp-mode in-seq-split",
            "--enable-prefill-context-parallel",
            "--enable-prefill-context-parallel --prefill-cp-mode in-seq-split",
            "--enable-prefill-cp",
            "--enable-prefill-cp --cp-strategy zigzag",
            "--enable-prefill-cp --cp-strategy interleave",
            "--enable-prefill-cp --dsa-prefill-cp-mode round-robin-split"]
CP_EXTRA = ["", "--tp 4", "--dp 2", "--enable-dp-attention --dp 8", "--attn-cp-size 8"]
ATTN_CP_CASES = ["--attn-cp-size 3", "--attn-cp-size 2", "--dp 4 --attn-cp-size 4", "--attn-cp-size 2 --pp-size 2",
                 "--attn-cp-size 2 --enable-aiter-allreduce-fusion", "--dp 2 --enable-dp-attention --attn-cp-size 2",
                 "--dp 3 --enable-dp-attention", "--tp 6 --dp 3 --enable-dp-attention", "--attn-dp-size 2 --attn-cp-size 4",
                 "--dp 2 --attn-dp-size 2"]
CP_MORE = ["--dp 3", "--tp 6 --dp 4", "--tp 6 --dp 3 --enable-dp-attention", "--dcp-size 2", "--attn-cp-size 4",
           "--attn-dp-size 2", "--moe-a2a-backend mooncake", "--moe-runner-backend flashinfer_cutlass --ep-size 4",
           "--moe-runner-backend cutlass --quantization fp8", "--pp-size 2", "--disaggregation-mode prefill "
           "--disaggregation-transfer-backend nixl", "--speculative-algorithm EAGLE --speculative-num-steps 3 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4"]
# the chunked prefill size: given, SGLang's default for the GPU's memory divided by the attention DP size, checked
# against the page size
CHUNK_CASES = ["--chunked-prefill-size 1000", "--chunked-prefill-size 4096",
               "--tp 6 --dp 3 --enable-dp-attention --chunked-prefill-size 12288",
               "--tp 6 --dp 3 --enable-dp-attention --chunked-prefill-size 2",
               "--tp 6 --dp 3 --enable-dp-attention --chunked-prefill-size -1", "--tp 128 --dp 128 --enable-dp-attention",
               "--tp 256 --attn-dp-size 256", "--tp 12 --dp 12 --enable-dp-attention", "--page-size 96",
               "--tp 6 --attn-dp-size 6 --chunked-prefill-size 6144"]
# the MoE all-to-all handler: every backend with what its checks read (attention DP, the MoE runner, DeepEP's mode,
# the chunked prefill size, FlashInfer's dispatch type), two-batch overlap, waterfill and EPLB
DP8 = "--dp 8 --enable-dp-attention"
A2A_CASES = (["--moe-a2a-backend " + b for b in ("mooncake", "nixl", "ascend_tp", "ascend_fuseep", "flashinfer", "mori",
                                                 "pplx", "deepep_v2", "megamoe", "flashinfer_megamoe")] +
             [f"--moe-a2a-backend flashinfer {DP8}", "--moe-a2a-backend flashinfer --attn-dp-size 8"] +
             [f"--moe-a2a-backend flashinfer {DP8} --moe-runner-backend {r}"
              for r in ("flashinfer_cutlass", "flashinfer_cutedsl", "flashinfer_trtllm", "deep_gemm", "triton")] +
             [f"--moe-a2a-backend flashinfer {DP8} --moe-runner-backend flashinfer_cutlass --chunked-prefill-size -1",
              f"--moe-a2a-backend flashinfer {DP8} --moe-runner-backend flashinfer_cutlass "
              "--flashinfer-a2a-dispatch-type bf16", "--flashinfer-a2a-dispatch-type bf16",
              "--moe-a2a-backend deepep --flashinfer-a2a-dispatch-type auto",
              "--moe-a2a-backend deepep --deepep-mode normal --moe-runner-backend flashinfer_cutedsl",
              "--moe-a2a-backend deepep --deepep-mode low_latency --moe-runner-backend flashinfer_cutedsl",
              "--moe-a2a-backend deepep --deepep-mode normal",
              "--moe-a2a-backend mori --dp 2 --enable-dp-attention", "--moe-a2a-backend mori --dp 4 --enable-dp-attention",
              "--moe-a2a-backend mori --chunked-prefill-size 4096", "--moe-a2a-backend mori --chunked-prefill-size 4160",
              "--moe-a2a-backend mori --chunked-prefill-size -1", "--moe-a2a-backend mori --deepep-mode low_latency",
              f"--moe-a2a-backend pplx {DP8}", f"--moe-a2a-backend pplx {DP8} --chunked-prefill-size 1024",
              f"--moe-a2a-backend pplx {DP8} --chunked-prefill-size 1024 --deepep-mode normal",
              f"--moe-a2a-backend pplx {DP8} --chunked-prefill-size 1024 --moe-runner-backend triton",
              f"--moe-a2a-backend pplx {DP8} --chunked-prefill-size 1024 --moe-runner-backend deep_gemm",
              f"--moe-a2a-backend pplx {DP8} --chunked-prefill-size 1024 --cuda-graph-max-bs-decode 256",
              "--moe-a2a-backend pplx --chunked-prefill-size 64",
              f"--moe-a2a-backend deepep_v2 {DP8}", "--moe-a2a-backend deepep_v2 --moe-runner-backend triton",
              f"--moe-a2a-backend flashinfer_megamoe {DP8}", "--moe-a2a-backend flashinfer_megamoe --attn-dp-size 8",
              "--moe-a2a-backend megamoe --enable-two-batch-overlap",
              "--enable-two-batch-overlap", "--enable-two-batch-overlap --moe-a2a-backend deepep",
              f"--enable-two-batch-overlap --moe-a2a-backend deepep {DP8}",
              "--enable-two-batch-overlap --moe-a2a-backend ascend_tp",
              "--enable-waterfill", "--enable-deepep-waterfill", "--enable-waterfill --moe-a2a-backend flashinfer",
              "--enable-deepep-waterfill --enable-two-batch-overlap",
              "--enable-eplb --moe-a2a-backend deepep", "--tp 1 --enable-eplb --moe-a2a-backend deepep",
              "--moe-a2a-backend deepep --ep-size 2 --moe-runner-backend flashinfer_cutlass",
              "--ep-dispatch-algorithm static", "--ep-dispatch-algorithm lp --moe-a2a-backend deepep",
              "--enable-eplb --ep-size 8 --ep-dispatch-algorithm dynamic"])
# check_server_args beside the KV layout (server.c), in its order around the page size's check (1000 is refused
# there); PD role switching, elastic EP, the ROCm CP two-batch overlap exemption
C1000 = "--chunked-prefill-size 1000"
SERVER_CASES = [f"--nnodes 3 {C1000}", f"--pp-max-micro-batch-size 0 {C1000}",
                f"--disable-cuda-graph-padding --enable-torch-compile {C1000}", f"--dp 2 --nnodes 2 {C1000}",
                f"--base-gpu-id -1 {C1000}", f"--gpu-id-step 0 {C1000}", f"--moe-dense-tp-size 2 {C1000}",
                "--moe-dense-tp-size 8", "--tokenizer-worker-num 0", "--detokenizer-worker-num 0 --enable-hisparse",
                "--enable-priority-scheduling --schedule-policy lpm", "--retraction-policy priority",
                "--multi-item-scoring-delimiter 5", "--multi-item-scoring-delimiter 5 --disable-radix-cache",
                "--multi-item-scoring-delimiter 5 --disable-radix-cache --chunked-prefill-size -1",
                "--schedule-conservativeness -0.5 --enable-hisparse --disable-radix-cache",
                "--model-impl mindspore --enable-two-batch-overlap", "--enable-quant-communications",
                "--tp 1 --enable-quant-communications", "--kv-canary-sweep-interval 5",
                f"--enable-hisparse {C1000}", "--enable-hisparse --chunked-prefill-size 1024",
                "--enable-eplb --elastic-ep-join-mode scale --tp 1", "--elastic-ep-backend none --pp-size 2",
                "--elastic-ep-join-rank-offset 3", "--max-ep-size 16", "--elastic-ep-initial-size 8",
                "--elastic-ep-rejoin", "--elastic-ep-rejoin --elastic-ep-join-mode scale",
                "--enable-two-batch-overlap --enable-prefill-cp --cp-strategy interleave",
                "--enable-two-batch-overlap --enable-dsa-prefill-context-parallel"]
ROLE_SWITCH_CASES = ["--enable-pd-role-switch --enable-dp-attention --dp 8 --moe-a2a-backend deepep "
                     "--speculative-algorithm EAGLE --pp-size 2 --dcp-size 2",
                     "--enable-pd-role-switch --moe-a2a-backend deepep --ep-size 8",
                     "--enable-pd-role-switch --attn-dp-size 4 --dp 2",
                     "--enable-pd-role-switch --attn-dp-size 8 --enable-dp-attention-local-control-broadcast",
                     "--enable-pd-role-switch --moe-runner-backend megamoe"]
# start-up checks (server.c, HiSparse's feature combinations): the served model name's colon, --gc-threshold's count,
# HiSparse with mixed chunked prefill (0.5.22+), --attn-dp-size below 1 (0.5.22+)
STARTUP_CASES = ["--served-model-name a:b --chunked-prefill-size 1000", "--served-model-name s3://bucket:1/x",
                 "--gc-threshold 1 2 3 4", "--gc-threshold 1 2 3 4 --enable-two-batch-overlap",
                 "--enable-hisparse --disable-radix-cache --enable-mixed-chunk",
                 "--enable-hisparse --disable-radix-cache --enable-mixed-chunk --speculative-algorithm EAGLE",
                 "--attn-dp-size 0", "--attn-dp-size -1", "--attn-dp-size 0 --enable-prefill-cp --cp-strategy zigzag"]
# validate_buckets_rule on both token-bucket lists and the metrics options (server.c): every assert, and where each
# sits (the metrics in __post_init__ up to 0.5.6.post2, after the page size's check from 0.5.7)
LIST_CASES = ["--prompt-tokens-buckets foo", "--prompt-tokens-buckets tse 1 2", "--generation-tokens-buckets tse a 2 3",
              "--prompt-tokens-buckets tse 1 1 3", "--prompt-tokens-buckets tse 1 2 -1",
              "--prompt-tokens-buckets tse 0 2 3", "--prompt-tokens-buckets tse 1_0 2_0 +3_0",
              "--prompt-tokens-buckets default 1", "--prompt-tokens-buckets custom",
              "--prompt-tokens-buckets custom x", "--prompt-tokens-buckets custom 0 -0",
              "--prompt-tokens-buckets custom nan", "--prompt-tokens-buckets custom 0 1.5 1e3 inf",
              "--prompt-tokens-buckets foo --chunked-prefill-size 100 --page-size 64",
              "--tokenizer-metrics-custom-labels-header= --tokenizer-metrics-allowed-custom-labels a",
              "--export-metrics-to-file", "--export-metrics-to-file --export-metrics-to-file-dir=",
              "--export-metrics-to-file --chunked-prefill-size 100 --page-size 64",
              "--export-metrics-to-file --enable-two-batch-overlap"]
# check_lora_server_args (lora.c): each check in the releases that have it, 0.5.23's LoRA MoE runner checks (LoRA on
# or off), and where LoRA sits (after --moe-dense-tp-size, before the page size's check). With a speculative algorithm
# (LORA_SPEC_CASES: algorithm, separate draft model, flags) the case's own fields, so the oracle runs the draft's init
# checks too.
LORA = "--lora-paths a=/x"
LORA_TARGETS = "--enable-lora --max-lora-rank 8 --lora-target-modules q_b_proj"
V2 = f"{LORA} --lora-backend triton_v2"
LORA_CASES = ["--max-loras-per-batch 0", f"{LORA} --enable-lora-overlap-loading",
              f"{LORA} --enable-lora-overlap-loading --max-loaded-loras 16",
              "--enable-lora --lora-target-modules all q_proj --max-lora-rank 8",
              "--enable-lora --lora-target-modules all all --max-lora-rank 8", "--enable-lora",
              "--enable-lora --max-lora-rank 0 --lora-target-modules q_proj", "--enable-lora --lora-paths",
              f"{LORA} --max-loaded-loras 4", f"{LORA} b=/y --max-loaded-loras 1 --max-loras-per-batch 1",
              f"{LORA} --lora-use-virtual-experts", f"{LORA} --lora-drain-wait-threshold -1",
              "--lora-drain-wait-threshold -1", f"{V2} --enable-two-batch-overlap", f"{V2} --tp 2 --attn-dp-size 2",
              f"SGLANG_EXPERIMENTAL_LORA_OPTI=1 {V2}", V2, "--moe-runner-backend lora_triton",
              f"{LORA} --moe-runner-backend lora_triton", f"{V2} --moe-runner-backend lora_triton --enable-pdmux",
              f"{V2} --moe-runner-backend lora_triton --moe-a2a-backend deepep",
              f"{V2} --moe-runner-backend lora_triton --ep-num-redundant-experts 1",
              f"{LORA} --max-loaded-loras 4 --chunked-prefill-size 100 --page-size 64",
              f"{LORA} --max-loaded-loras 4 --moe-dense-tp-size 3"]
LORA_SPEC_CASES = [("NEXTN", None, LORA), ("STANDALONE", "LLAMA_DRAFT", LORA),
                   ("NEXTN", None, f"{LORA} --speculative-moe-runner-backend experimental_sgl_trtllm"),
                   ("EAGLE", None, f"SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1 {LORA}"),
                   ("EAGLE", None, "--speculative-moe-runner-backend lora_triton")]
# watermarking (0.5.22+, watermark.c): the config's loader early in the resolution, --enable-watermark's checks after
# the kv canary's, a config file (declined: SGLang reads it on the worker's host) and --device (declined unless cuda);
# load publishing (0.5.19+, publish.c), the last check. No JSON with quotes: the replay reads a case shell-style.
WATERMARK_CASES = ["--enable-watermark", "--watermark-config {}", "--enable-watermark --watermark-config {}",
                   "--enable-watermark --watermark-config {x}", "--enable-watermark --watermark-config [1]",
                   "--enable-watermark --enable-custom-logit-processor",
                   "--enable-watermark --disaggregation-mode prefill",
                   "--enable-watermark --disaggregation-mode decode --device cuda",
                   "SGLANG_RUST_SERVER=1 --enable-watermark", "SGLANG_RUST_SERVER=maybe --enable-watermark",
                   "--watermark-config {x} --chunked-prefill-size 100 --page-size 64",
                   "--enable-watermark --disaggregation-mode prefill --chunked-prefill-size 100 --page-size 64",
                   "--enable-watermark --disaggregation-mode prefill --kv-canary-sweep-interval 5", "--device cpu"]
# the media URL policy (0.5.18+, media.c): the size, then each domain in order, before the watermark's loader
MEDIA_CASES = ["--media-url-max-file-size-mb -1", "--allowed-media-domains a/b", "--allowed-media-domains x.com:80 a/b",
               "--allowed-media-domains []", "--allowed-media-domains example.com. [::1] 10.0.0.01 a.b.c",
               "--allowed-media-domains a..b", "--allowed-media-domains a/b --watermark-config {x}",
               "--media-url-max-file-size-mb -1 --allowed-media-domains a/b"]
WATERMARK_SPEC_CASES = [("EAGLE", None, "--enable-watermark --speculative-use-rejection-sampling"),
                        ("NEXTN", None, "--enable-watermark"), ("STANDALONE", "LLAMA_DRAFT", "--enable-watermark")]
# the speculative hook's options (spec_hook.c): rejection sampling's checks in the EAGLE family handler (0.5.14+),
# block verification's (0.5.22+, which turns it on for EAGLE and EAGLE3), ROCm's default of it (0.5.21+) as
# watermarking sees it, the draft window and sink; diffusion LLMs (declined)
REJECTION_CASES = ["--speculative-use-block-verification", "--dllm-algorithm LowConfidence",
                   "--speculative-draft-window-size 0", "--speculative-draft-sink-size 4",
                   "--speculative-draft-window-size 8 --speculative-draft-sink-size -1"]
# the LM head's DP flags at the data parallelism handler's end (lm_head.c)
LM_HEAD_CASES = ["--tp 8 --dp 2 --enable-dp-lm-head", "--tp 8 --dp 2 --enable-dp-attention --enable-dp-lm-head",
                 "--tp 8 --enable-tp-lm-head-all-to-all", "--tp 8 --dp 4 --enable-dp-attention --enable-tp-lm-head-all-to-all",
                 "--tp 8 --dp 8 --enable-dp-attention --enable-dp-lm-head --enable-tp-lm-head-all-to-all",
                 "--tp 8 --dp 8 --enable-dp-attention --enable-tp-lm-head-all-to-all --attn-cp-size 2"]
# --radix-eviction-policy tlru's config (0.5.21+, eviction.c), in the cache compatibility handler
TLRU_CASES = ["--radix-eviction-policy tlru", "--radix-eviction-policy tlru --radix-eviction-policy-config null",
              "--radix-eviction-policy tlru --enable-hierarchical-cache --disable-radix-cache"]
# the pipeline's early single-flag checks (0.5.19+, early.c), after the media URL policy
EARLY_CASES = ["--hicache-host-memory-fraction 0", "--prefill-decode-interval -1", "--prefill-decode-interval-min-bs -1",
               "--enable-response-store --disaggregation-mode decode", "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS=4",
               "--sampling-mask-max-tokens 0", "--hicache-host-memory-fraction 0 --allowed-media-domains a/b"]
# the PD handler's decode sizes (0.5.3rc2-0.5.9, rules.c check_decode_sizes), after the speculative handler
PD_SIZE_CASES = ["--disaggregation-mode decode --disaggregation-decode-tp 8",
                 "--disaggregation-mode decode --disaggregation-decode-dp 2",
                 "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 3",
                 "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 16",
                 "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp 0",
                 "--tp 8 --disaggregation-mode prefill --disaggregation-decode-tp -3",
                 "--disaggregation-mode decode --disaggregation-decode-tp 8 --speculative-algorithm EAGLE "
                 "--speculative-num-steps 2"]
# the scheduler's PrefillDelayer (delayer.c): its switches, and what turns the overlap schedule off or on (the flag,
# PP, the speculative handlers by era and SGLANG_ENABLE_SPEC_V2, a sparse head), with and without DP attention; the
# speculative algorithm in the case's own field, so that the oracle runs the draft worker too
_ONE = "--speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 2"
_DPA = "--tp 8 --dp 8 --enable-dp-attention"
DELAYER_SWITCHES = ["--enable-prefill-delayer", "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=1",
                    "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE=maybe"]
DELAYER_MORE = [(None, ""), (None, "--disable-overlap-schedule"), (None, _DPA),
                (None, f"{_DPA} --disable-overlap-schedule"), (None, "--pp-size 2"), (None, f"{_DPA} --pp-size 2"),
                ("NEXTN", ""), ("NEXTN", _ONE), ("NEXTN", "--speculative-eagle-topk 2"),
                ("NEXTN", f"{_ONE} --disable-overlap-schedule"), ("NEXTN", f"{_DPA} {_ONE}"),
                ("NGRAM", "--speculative-ngram-max-bfs-breadth 1"),
                ("NEXTN", f"SGLANG_ENABLE_SPEC_V2=1 {_DPA} --disable-overlap-schedule"),
                ("NEXTN", f"SGLANG_ENABLE_SPEC_V2=0 {_DPA} {_ONE}"), ("NEXTN", f"SGLANG_ENABLE_SPEC_V2=x {_DPA}"),
                (None, "SGLANG_EMBEDDINGS_SPARSE_HEAD=1"), (None, f"SGLANG_EMBEDDINGS_SPARSE_HEAD= {_DPA}"),
                (None, "--enable-dp-attention"), ("EAGLE", f"SGLANG_ENABLE_SPEC_V2=0 {_ONE}")]


def _env_first(*parts):
    """The words of `parts` with the NAME=value words (the environment) first."""
    words = " ".join(parts).split()
    env = [w for w in words if "=" in w and not w.startswith("-")]
    return " ".join(env + [w for w in words if w not in env])


DELAYER_CASES = [(spec, _env_first(sw, more)) for sw in DELAYER_SWITCHES for spec, more in DELAYER_MORE]
# CPU offloading's flags (early.c, 0.5.20+) and DeepSeek-V4's MegaMoE prefill budget up to 0.5.20 (a2a.c)
OFFLOAD_CASES = ["--cpu-offload-gb 10 --ple-offload-embedding", "--offload-group-size 4 --ple-offload-embedding",
                 "--cpu-offload-gb 0 --ple-offload-embedding", "--cpu-offload-gb 10 --no-ple-offload-embedding",
                 "--ple-offload-backend file --no-ple-offload-embedding", "--ple-offload-backend file",
                 "--ple-offload-backend file --no-ple-offload-embedding --ple-offload-embedding"]
V4_MEGAMOE_CASES = ["--moe-a2a-backend megamoe", "--moe-a2a-backend megamoe --chunked-prefill-size 16384",
                    "SGLANG_OPT_USE_DEEPGEMM_MEGA_MOE=1", "--moe-a2a-backend megamoe --enable-dynamic-chunking"]
# flags SGLang serves only for other models (model_only.c), expert packs and the CPU engine (declined)
MODEL_ONLY_CASES = ["--tp 8 --enable-layernorm-sp", "--tp 8 --enable-layernorm-sp --speculative-algorithm NEXTN "
                    "--speculative-eagle-topk 2", "--enable-encoder-swa-bounded-replay",
                    "--enable-megamoe-for-layernorm-sp", "--enable-megamoe-for-layernorm-sp --enable-layernorm-sp",
                    "--tp 8 --enable-layernorm-sp --enable-encoder-swa-bounded-replay", "--load-format expert_pack",
                    "--load-format instanttensor", "SGLANG_USE_CPU_ENGINE=1", "SGLANG_USE_CPU_ENGINE=0",
                    "--tp 8 --shared-experts-tp-size 2", "--tp 8 --shared-experts-tp-size 3",
                    "--tp 8 --shared-experts-tp-size 0 --enable-eplb",
                    "--tp 8 --enable-encoder-swa-bounded-replay --speculative-algorithm NEXTN "
                    "--speculative-moe-a2a-backend deepep_v2",
                    "SGLANG_IS_IN_CI=true --tp 8 --disaggregation-mode decode"]
REJ = "--speculative-use-rejection-sampling"
BLOCK = "--speculative-use-block-verification"
REJECTION_SPEC_CASES = [("EAGLE", None, f"{REJ} --speculative-accept-threshold-single 0.5"),
                        ("EAGLE", None, f"{REJ} --speculative-num-steps 2"),
                        ("NEXTN", None, f"{REJ} --speculative-eagle-topk 2 --speculative-num-steps 2 "
                                        "--speculative-num-draft-tokens 4"),
                        ("EAGLE", None, f"{REJ} --enable-multi-layer-eagle"),
                        ("STANDALONE", "LLAMA_DRAFT", REJ), ("NGRAM", None, BLOCK),
                        ("EAGLE", None, f"{BLOCK} --speculative-accept-threshold-acc 0.5"),
                        ("NEXTN", None, f"{BLOCK} --enable-watermark"),
                        ("EAGLE", None, "SGLANG_SIMULATE_ACC_LEN=fast --enable-watermark"),
                        ("EAGLE", None, f"{BLOCK} {REJ} --speculative-eagle-topk 1 --speculative-num-steps 3 "
                                        "--speculative-num-draft-tokens 4")]
PUBLISH_CASES = ["--load-publish-endpoint auto", "--load-publish-endpoint off --kv-events-config notjson",
                 "--load-publish-endpoint auto --kv-events-config notjson",
                 "--load-publish-endpoint auto --kv-events-config {}",
                 "--load-publish-endpoint OFF", "--load-publish-endpoint auto --kv-canary-sweep-interval 5",
                 "--load-publish-endpoint auto --grpc-port 30000"]
# the gRPC port (0.5.11+, grpc.c): derived from --port up to 0.5.15.post1, from --grpc-port or the legacy modes after;
# its environment, the native server's incompatibilities, and where each check sits (the PD hook, check_server_args)
GRPC_CASES = ["--port 60000", "--port 55535", "--port 0", "SGLANG_GRPC_PORT=70000", "SGLANG_GRPC_PORT=abc --port 60000",
              "SGLANG_GRPC_PORT=30000", "SGLANG_GRPC_PORT=30000 SGLANG_ENABLE_GRPC=1", "SGLANG_ENABLE_GRPC=maybe",
              "--grpc-port 30000", "--grpc-port 0", "--port 60000 --grpc-mode",
              "--grpc-port 31000 --port 31000 --smg-grpc-mode", "SGLANG_GRPC_WORKER_THREADS=0 --grpc-port 40000",
              "--grpc-response-timeout-secs 0", "--sidecar-args [1] --sidecar x", "--sidecar x",
              "--sidecar x --grpc-port 40000 --smg-grpc-mode", "SGLANG_RUST_SERVER=1 --sidecar x --grpc-port 40000",
              "--grpc-port 40000 --use-ray", "--grpc-port 40000 --tokenizer-worker-num 2",
              "--grpc-port 40000 --api-key k", "--port 60000 --prefill-only-disable-kv-cache",
              "--port 60000 --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache",
              "--grpc-port 30000 --gc-threshold 1 2 3 4", "--grpc-port 30000 --enable-quant-communications"]
# --enable-unified-memory and --enable-page-major-kv-layout (0.5.15+): the allowed attention backends per release
UNIFIED_CASES = ["--enable-unified-memory", "--enable-page-major-kv-layout",
                 "--enable-unified-memory --attention-backend triton",
                 "--enable-page-major-kv-layout --attention-backend triton",
                 "--enable-unified-memory --attention-backend flashmla",
                 "--enable-unified-memory --attention-backend triton --decode-attention-backend dsa"]
# DeepSeek-V4 (0.5.12+, its own hook and pools): the hook's dtype, speculative, PD and backend checks, and the
# handlers and check_server_args every model meets
DSV4_CASES = ["", "--kv-cache-dtype bfloat16", "--kv-cache-dtype fp8_e5m2", "--kv-cache-dtype bf16",
              "--kv-cache-dtype fp8_e4m3", "--page-size 64", "--speculative-algorithm NGRAM",
              "--speculative-algorithm EAGLE", "--speculative-algorithm EAGLE --speculative-eagle-topk 1",
              "--speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 1 "
              "--speculative-num-draft-tokens 2", "--speculative-algorithm EAGLE --speculative-eagle-topk 4",
              "--pp-size 2", "--enable-two-batch-overlap", "--enable-two-batch-overlap --enable-dp-attention --dp 8",
              "--enable-two-batch-overlap --moe-a2a-backend deepep", C1000, "--chunked-prefill-size 1024",
              "--nnodes 3", "--dp 3 --enable-dp-attention", "--enable-dp-attention --dp 8", "--attn-dp-size 8",
              "--moe-a2a-backend deepep", "--moe-a2a-backend flashinfer", "--moe-a2a-backend pplx",
              "--dsv4-attn-backend flashmla", "--dsv4-attn-backend trtllm", "--dsv4-attn-backend trtllm "
              "--kv-cache-dtype bfloat16", "--quantization fp8", "--attn-cp-size 2", "--dcp-size 2",
              "--enable-deepseek-v4-fp4-indexer", "--tokenizer-worker-num 0", "--moe-dense-tp-size 2"]
# pipeline parallelism with speculative decoding (three rule sets; 0.5.21+ reads SGLANG_ENABLE_PP_SPEC), and
# --prefill-only-disable-kv-cache (0.5.12+): its flag checks after the PD hook and its prefill backend's. A leading
# NAME=value word is the case's environment.
PP_NEXTN = "--pp-size 2 --speculative-algorithm NEXTN"
PP_SPEC_CASES = [PP_NEXTN, "SGLANG_ENABLE_PP_SPEC=1 " + PP_NEXTN, "SGLANG_ENABLE_PP_SPEC=maybe " + PP_NEXTN]
PP_SPEC_MORE = ["--pp-size 2 --enable-mixed-chunk", f"SGLANG_ENABLE_PP_SPEC=1 {PP_NEXTN} --tp 2 --dp 2 "
                "--enable-dp-attention", f"SGLANG_ENABLE_PP_SPEC=1 {PP_NEXTN} --attn-dp-size 2",
                f"SGLANG_ENABLE_PP_SPEC=1 {PP_NEXTN} --speculative-adaptive",
                f"SGLANG_ENABLE_PP_SPEC=1 {PP_NEXTN} --min-free-slots-delay 1",
                f"{PP_NEXTN} --disaggregation-mode prefill --enable-multi-layer-eagle",
                f"{PP_NEXTN} --disaggregation-mode prefill {C1000}", f"{PP_NEXTN} --nnodes 3"]
PO = "--prefill-only-disable-kv-cache"
PO_ALL = f"{PO} --is-embedding --chunked-prefill-size -1 --disable-radix-cache"
PREFILL_ONLY_CASES = [PO, f"{PO} --is-embedding", f"{PO} --is-embedding --chunked-prefill-size -1", PO_ALL]
PREFILL_ONLY_MORE = [f"{PO_ALL} --enable-hisparse", f"{PO_ALL} --kv-cache-dtype fp4_e2m1",
                     f"{PO_ALL} --kv-cache-dtype nvfp4", f"{PO_ALL} --kv-cache-dtype mxfp8",
                     f"{PO_ALL} --kv-cache-dtype fp8_e5m2", f"{PO_ALL} --kv-cache-dtype fp8_e4m3",
                     f"{PO_ALL} --attn-cp-size 2", f"{PO_ALL} --enable-prefill-cp",
                     f"{PO_ALL} --enable-prefill-context-parallel", f"{PO_ALL} --enable-nsa-prefill-context-parallel",
                     f"{PO_ALL} --prefill-attention-backend fa3", f"{PO_ALL} --attention-backend flashinfer",
                     f"{PO} --is-embedding {C1000}", f"{PO} --is-embedding --chunked-prefill-size -01 "
                     "--disable-radix-cache", f"{PO_ALL} --disaggregation-mode decode "
                     "--disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend nixl"]
# the environment SGLang reads for these workers: ROCm's DSA page (aiter's preshuffle path), spec v2's top-k refusal,
# SGLANG_RUST_SERVER's bootstrap port (SGL_<X> is copied at import, before a case's environment: not in the matrix)
SPEC_TOPK2 = ("--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 2 "
              "--speculative-num-draft-tokens 4")
ENV_CASES = ["SGLANG_USE_AITER=0", "SGLANG_USE_AITER=yes", "SGLANG_USE_AITER=TRUE",
             "SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=1", "SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=1",
             "SGLANG_DSA_HIP_DISABLE_PRESHUFFLE=0 SGLANG_NSA_HIP_DISABLE_PRESHUFFLE=1",
             "SGLANG_USE_AITER=0 " + SPEC_TOPK2, "SGLANG_ENABLE_SPEC_V2=1 " + SPEC_TOPK2,
             "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port 9000",
             "SGLANG_RUST_SERVER=1 --disaggregation-mode prefill --disaggregation-bootstrap-port 8998 --port 31000"]
PAIR_SAMPLE = int(os.environ.get("ORACLE_PAIR_SAMPLE", "3"))   # keep 1 in N of the pb != db pairs


def case(model, dt=None, pb=None, db=None, mode=None, hs=False, radix=None, spec=None, draft=None, page=None,
         dmodel=None, dab=None, par=None):
    if radix is None:
        radix = hs
    return (model, dt, pb, db, mode, bool(hs), bool(radix), spec, draft, page, dmodel, dab, par)


def keep(*parts):
    return zlib.crc32("|".join(map(str, parts)).encode()) % PAIR_SAMPLE == 0


def cases():
    out = []
    one_side = [(None, None)] + [(b, None) for b in BACKENDS] + [(None, b) for b in BACKENDS] + [(b, b) for b in BACKENDS]
    # 1. the first oracle's matrix (unset / one side / equal pairs), for every release
    for m in DSA:
        for dt in BASIC + DTYPES[4:]:
            for pb, db in (one_side if dt in BASIC else [(None, None)]):
                for mode in MODES:
                    for hs in (False, True):
                        out.append(case(m, dt, pb, db, mode, hs))
    # 2. pb != db pairs, sampled deterministically, dtypes unset/bf16/fp8_e4m3
    for m in DSA:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for mode in MODES:
                for hs in (False, True):
                    for pb in MODERN:
                        for db in MODERN:
                            if pb != db and keep(m, dt, mode, hs, pb, db):
                                out.append(case(m, dt, pb, db, mode, hs))
    # 3. the other architectures: one side / equal pairs, dtypes unset/bf16/fp8_e4m3; all dtypes unset backends
    for m in OTHER:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for pb, db in [(None, None)] + [(b, None) for b in MODERN] + [(None, b) for b in MODERN] + [(b, b) for b in MODERN]:
                for mode in MODES:
                    out.append(case(m, dt, pb, db, mode, False))
            for mode in MODES:
                out.append(case(m, dt, None, None, mode, True))
        for dt in ["auto", "fp8_e5m2", "bf16"] + DTYPES[4:]:
            for mode in MODES:
                out.append(case(m, dt, None, None, mode, False))
    for m in DSA:
        for dt in ["auto"]:
            for mode in MODES:
                out.append(case(m, dt, None, None, mode, False))
    # 4. HiSparse without --disable-radix-cache
    for m in DSA + ["GLM5_NEXTN"]:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for mode in (None, "decode"):
                out.append(case(m, dt, None, None, mode, True, radix=False))
    # 5. speculative decoding, with and without a draft KV dtype
    for m in DSA + ["DEEPSEEK_V32_HF", "GLM5_NEXTN", "LONGCAT_FLASH"]:
        for spec in ("EAGLE", "NEXTN"):
            for dt in (None, "bfloat16", "fp8_e4m3"):
                for draft in DRAFT:
                    for mode in MODES:
                        if m in DSA or (draft is None and spec == "NEXTN"):
                            out.append(case(m, dt, None, None, mode, False, spec=spec, draft=draft))
        for dt in (None, "fp8_e4m3"):
            for pb, db in (("flashmla_kv", None), (None, "flashmla_kv"), ("flashmla_kv", "flashmla_kv"),
                           ("trtllm", "trtllm"), ("tilelang", "tilelang")):
                for mode in MODES:
                    out.append(case(m, dt, pb, db, mode, False, spec="NEXTN"))
            for mode in ("decode",):
                out.append(case(m, dt, None, None, mode, True, spec="NEXTN"))
    # 6. explicit --page-size
    for m in DSA + OTHER:
        for page in (1, 32, 64, 128):
            for dt in (None, "fp8_e4m3"):
                for mode in MODES:
                    out.append(case(m, dt, None, None, mode, False, page=page))
            out.append(case(m, None, None, None, "decode", True, page=page))
    # 7. separate draft models (EAGLE3, STANDALONE): the draft's attention backend, DP attention
    for m in DSA:
        for dm in DRAFT_MODELS:
            for spec in ("EAGLE3", "STANDALONE"):
                for dab in DRAFT_BACKENDS:
                    for par in PARALLEL:
                        for mode in (None, "decode"):
                            out.append(case(m, None, None, None, mode, spec=spec, dmodel=dm, dab=dab, par=par))
    #    the target's and the draft's KV dtypes
    for m in DSA:
        for dm in DRAFT_MODELS[:2]:
            for dt in (None, "bfloat16", "fp8_e4m3", "fp8_e5m2"):
                for draft in DRAFT + ["fp4_e2m1"]:
                    for mode in (None, "prefill"):
                        out.append(case(m, dt, None, None, mode, spec="EAGLE3", draft=draft, dmodel=dm,
                                        dab="flashinfer"))
    #    an MLA target that is not DSA
    for dm in DRAFT_MODELS:
        for spec in ("EAGLE3", "STANDALONE"):
            for dab in DRAFT_BACKENDS[:3]:
                for par in PARALLEL[:3:2]:
                    out.append(case("DEEPSEEK_V3", None, None, None, "decode", spec=spec, dmodel=dm, dab=dab, par=par))
    # 8. DP attention for the target: one side / equal backend pairs, and HiSparse
    for m in DSA:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for pb, db in [(None, None)] + [(b, None) for b in MODERN] + [(None, b) for b in MODERN] + [(b, b) for b in MODERN]:
                for mode in MODES:
                    for par in PARALLEL[1:]:
                        out.append(case(m, dt, pb, db, mode, par=par))
            for mode in (None, "decode"):
                for par in PARALLEL[1:]:
                    out.append(case(m, dt, None, None, mode, True, par=par))
    for m in OTHER:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for mode in MODES:
                for par in PARALLEL[1:]:
                    out.append(case(m, dt, None, None, mode, par=par))
    # 9. the model's dtype; Mistral-Large-3's architecture with one side / equal backend pairs
    for m in ["DEEPSEEK_V3", "DEEPSEEK_V32", "DEEPSEEK_V3_NOQUANT"] + DTYPE_MODELS + FP8KV_MODELS:
        for dt in (None, "auto", "bfloat16", "fp8_e4m3"):
            for par in MODEL_DTYPE_FLAGS:
                for mode in MODES:
                    out.append(case(m, dt, None, None, mode, par=par))
    for m in ("DEEPSEEK_V3", "DEEPSEEK_V32", "DEEPSEEK_V3_NOQUANT"):
        for dt in (None, "fp8_e4m3"):
            for par in QUANT_FLAGS:
                for mode in MODES:
                    out.append(case(m, dt, None, None, mode, par=par))
    for m in ["DEEPSEEK_V3", "DEEPSEEK_V32", "DEEPSEEK_V3_FP16", "DEEPSEEK_V32_FP32"] + FP8KV_MODELS:  # the MTP draft's
        for dt in (None, "bfloat16"):
            for draft in (None, "auto"):
                for par in (None, "--dtype float16", "--dtype float32"):
                    for mode in (None, "decode"):
                        out.append(case(m, dt, None, None, mode, False, spec="NEXTN", draft=draft, par=par))
    for m in DTYPE_MODELS[4:]:
        for dt in (None, "bfloat16", "fp8_e4m3"):
            for pb, db in [(b, None) for b in MODERN] + [(None, b) for b in MODERN] + [(b, b) for b in MODERN]:
                for mode in MODES:
                    out.append(case(m, dt, pb, db, mode, False))
            for spec in ("EAGLE", "NEXTN"):  # the automatic EAGLE parameters name these architectures (to 0.5.7)
                for mode in MODES:
                    out.append(case(m, dt, None, None, mode, False, spec=spec))
    seen, uniq = set(), []
    for c in out:
        if c not in seen:
            seen.add(c)
            uniq.append(c)
    return uniq


# launches a survey found SGLang refusing where kvcheck passed (issue 9, 2026-12-07): decode context parallelism's
# communication checks, tokenizer batching, --language-model-only, the external linker in handle_hicache, the int8
# mamba checkpoint, a named radix cache backend and the session radix cache
SURVEY_CASES = [
    "--dcp-comm-backend a2a", "--dcp-comm-backend fi_a2a", "--dcp-comm-backend fi_a2a --dcp-size 2",
    "--dcp-comm-backend ag_rs", "--dcp-replicate-q-proj", "--dcp-replicate-q-proj --dcp-size 2",
    "--dcp-replicate-q-proj --dcp-size 2 --dcp-comm-backend ag_rs",
    "--dcp-replicate-q-proj --dcp-size 2 --dcp-comm-backend a2a", "--no-dcp-replicate-q-proj --dcp-comm-backend ag_rs",
    "--enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer", "--enable-dynamic-batch-tokenizer",
    "--language-model-only", "--enable-unified-cache-external-linker",
    "--enable-unified-cache-external-linker --disable-radix-cache",
    "--enable-unified-cache-external-linker --enable-hierarchical-cache",
    "--enable-unified-cache-external-linker --hicache-storage-backend file",
    "--enable-unified-cache-external-linker --radix-cache-backend foo", "--enable-int8-mamba-checkpoint",
    "--enable-int8-mamba-checkpoint --enable-hierarchical-cache",
    "--enable-int8-mamba-checkpoint --radix-cache-backend foo",
    "--enable-int8-mamba-checkpoint --enable-lmcache", "--radix-cache-backend foo", "--enable-session-radix-cache",
    "--enable-session-radix-cache --radix-eviction-policy priority",
    # the LoRA manager (lora.c lora_manager_check): its DP attention refusals, then kvcheck's decline
    f"{LORA_TARGETS}", f"{LORA_TARGETS} --tp 2 --dp 2 --enable-dp-attention",
    f"{LORA_TARGETS} --tp 4 --dp 2 --enable-dp-attention --lora-backend triton",
    f"{LORA_TARGETS} --tp 2 --dp 2 --enable-dp-attention --lora-backend triton --enable-lora-overlap-loading "
    "--max-loaded-loras 8", f"{LORA} --tp 2 --dp 2 --enable-dp-attention --lora-backend triton",
    f"{LORA} --tp 4 --attn-dp-size 2 --lora-backend triton",
    f"{LORA} --tp 4 --dp 2 --enable-dp-attention --lora-backend triton --attn-cp-size 2",
    # the LP dispatch's solvers, in the model runner's initialize (a2a.c t_lp_model)
    "--tp 8 --ep 8 --moe-a2a-backend deepep --ep-dispatch-algorithm lp",
    # the scheduler's MoE config: single batch overlap on SM90 (a2a.c t_sbo_sm90)
    "--enable-single-batch-overlap",
    # a PD worker's staging buffer: the arguments' transfer backends, then the MLA pool (rules.c check_staging)
    "SGLANG_DISAGG_STAGING_BUFFER=1", "SGLANG_DISAGG_STAGING_BUFFER=1 --disaggregation-transfer-backend nixl",
]


def survey_cases():
    """SURVEY_CASES on both PD sides and unified, on the DSA models, an MLA model that is not DSA, GLM-5 Next (a
    hybrid: the int8 mamba checkpoint) and DeepSeek-V4."""
    return [case(m, None, None, None, mode, par=par) for m in DSA + ["DEEPSEEK_V3", "GLM5_NEXT", "DSV4"]
            for par in SURVEY_CASES for mode in MODES]


def parallel_cases():
    """Prefill context parallelism: every release's flags and modes (argparse refuses the others), with the sizes and
    attention DP its asserts read, the KV dtypes it overrides, both PD sides, a few prefill backends, HiSparse and
    MTP; an MLA model that is not DSA, which the flags do not touch."""
    out = []
    for m in DSA + ["DEEPSEEK_V3"]:
        for cp in CP_FLAGS:
            for extra in CP_EXTRA:
                for dt in (None, "bfloat16", "fp8_e4m3"):
                    for mode in MODES:
                        out.append(case(m, dt, None, None, mode, par=f"{cp} {extra}".strip()))
            for pb in ("flashmla_sparse", "flashmla_kv", "trtllm", "fa3", "tilelang"):
                for mode in (None, "prefill"):
                    out.append(case(m, None, pb, None, mode, par=cp))
            out.append(case(m, None, None, None, "prefill", True, par=cp))
            out.append(case(m, None, None, None, "prefill", spec="NEXTN", par=cp))
    # the attention CP size's checks, given or set by CP; the data parallelism handler's with DP attention; CP with
    # decode CP, an MoE runner, a given all-to-all backend; models with their own CP checks (LongCat-Flash, Mistral
    # Large 3)
    for m in DSA + ["DEEPSEEK_V3"]:
        for par in ATTN_CP_CASES:
            for mode in (None, "decode"):
                out.append(case(m, None, None, None, mode, par=par))
        for cp in ("--enable-nsa-prefill-context-parallel", "--enable-prefill-cp --cp-strategy zigzag",
                   "--enable-prefill-cp --cp-strategy interleave"):
            for par in CP_MORE:
                out.append(case(m, None, None, None, None, par=f"{cp} {par}"))
    for m in ("LONGCAT_FLASH", "MISTRAL_LARGE3", "MISTRAL_LARGE3_DSA", "GLM5_NEXTN"):
        for cp in CP_FLAGS[:1] + CP_FLAGS[3:4] + CP_FLAGS[5:6] + CP_FLAGS[8:10]:
            for extra in ("", "--dp 8 --enable-dp-attention"):
                for mode in MODES:
                    out.append(case(m, None, None, None, mode, par=f"{cp} {extra}".strip()))
    for m in DSA + ["DEEPSEEK_V3"]:
        for par in CHUNK_CASES:
            for mode in (None, "decode"):
                out.append(case(m, None, None, None, mode, par=par))
    for m in DSA + ["DEEPSEEK_V3", "MODELOPT_GLM5_NVFP4"]:
        for par in A2A_CASES:
            out.append(case(m, None, None, None, None, par=par))
        for par in (A2A_CASES[4], A2A_CASES[5], f"--moe-a2a-backend flashinfer {DP8} --moe-runner-backend "
                    "flashinfer_cutlass", "--moe-a2a-backend pplx " + DP8):
            out.append(case(m, None, None, None, "decode", par=par))
    for m in DSA:
        for par in SERVER_CASES:
            out.append(case(m, None, None, None, None, par=par))
        for par in ROLE_SWITCH_CASES:
            for mode in ("prefill", "decode"):
                out.append(case(m, None, None, None, mode, par=par))
    # DSA top-k sharing (GLM-5.2's 57 of 78 layers): two-batch overlap's refusal
    for m in ("GLM52_SHARED", "GLM5_FREQ2"):
        for par in ("--enable-two-batch-overlap --moe-a2a-backend deepep", "--moe-a2a-backend deepep", ""):
            for mode in (None, "decode"):
                out.append(case(m, None, None, None, mode, par=par or None))
    for par in DSV4_CASES:
        for mode in MODES:
            out.append(case("DSV4", None, None, None, mode, par=par or None))
    for m in DSA:
        for par in PP_SPEC_CASES:
            for mode in MODES:
                out.append(case(m, None, None, None, mode, par=par))
        for par in PP_SPEC_MORE:
            out.append(case(m, None, None, None, None, par=par))
    for m in ("GLM5", "DEEPSEEK_V3", "DSV4"):
        for par in PREFILL_ONLY_CASES:
            for mode in MODES:
                out.append(case(m, None, None, None, mode, par=par))
        for par in PREFILL_ONLY_MORE:
            out.append(case(m, None, None, None, None, par=par))
    for m in DSA:
        for par in ENV_CASES:
            out.append(case(m, None, None, None, None, par=par))
    for m in DSA + ["DEEPSEEK_V3"]:
        startup = (STARTUP_CASES + GRPC_CASES + LIST_CASES + LORA_CASES + WATERMARK_CASES + PUBLISH_CASES + MEDIA_CASES
                   + REJECTION_CASES + EARLY_CASES + LM_HEAD_CASES + TLRU_CASES + PD_SIZE_CASES + MODEL_ONLY_CASES
                   + OFFLOAD_CASES)
        for par in startup:
            out.append(case(m, None, None, None, None, par=par))
        for spec, dmodel, par in LORA_SPEC_CASES + WATERMARK_SPEC_CASES + REJECTION_SPEC_CASES:
            out.append(case(m, None, None, None, None, spec=spec, dmodel=dmodel, par=par))
        for par in UNIFIED_CASES:
            for mode in (None, "prefill") if m in DSA else (None,):
                out.append(case(m, None, None, None, mode, par=par))
    for par in UNIFIED_CASES[:2] + MODEL_ONLY_CASES:
        out.append(case("DSV4", None, None, None, None, par=par))
    for par in V4_MEGAMOE_CASES:
        for mode in MODES:
            out.append(case("DSV4", None, None, None, mode, par=par))
    for m in DSA + ["DEEPSEEK_V3", "DSV4"]:
        for spec, par in DELAYER_CASES:
            if m == "DSV4" and spec == "EAGLE":  # the oracle does not build DeepSeek-V4's draft (DSV4.md)
                continue
            for mode in MODES:
                out.append(case(m, None, None, None, mode, spec=spec, par=par))
    return out


def case_env(c):
    """The leading NAME=value words of a case's flags: its environment."""
    env = {}
    for w in (c[-1] or "").split():
        if "=" not in w or w.startswith("-"):
            break
        k, v = w.split("=", 1)
        env[k] = v
    return env


# every --attention-backend choice of any release (flags.py), for the attention-backend cases
ATTENTION = ["triton", "torch_native", "flex_attention", "fa3", "fa4", "flashinfer", "flashmla", "trtllm_mla",
             "cutedsl_mla", "tokenspeed_mla", "trtllm_mha", "hpc_ops", "aiter", "wave", "intel_amx", "ascend",
             "intel_xpu", "cutlass_mla", "dual_chunk_flash_attn"]
EAGLE_TREE = "--speculative-eagle-topk 2 --speculative-num-steps 3 --speculative-num-draft-tokens 8"
EAGLE_ONE = "--speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 2"


def attention_cases():
    out = []
    for m in ("DEEPSEEK_V3", "DEEPSEEK_V32", "LONGCAT_FLASH"):
        for b in ATTENTION:
            for flag in ("--attention-backend", "--decode-attention-backend", "--prefill-attention-backend"):
                for dt, page in ((None, None), ("fp8_e4m3", None), ("fp8_e5m2", None), (None, 32)):
                    out.append(case(m, dt, None, None, None, page=page, par=f"{flag} {b}"))
        for b in ("flashmla", "cutlass_mla", "trtllm_mla", "hpc_ops"):
            out.append(case(m, None, None, None, "prefill", par=f"--attention-backend {b} --decode-attention-backend fa3"))
        # equal prefill and decode flags replace --attention-backend (0.5.4.post1+)
        for b in ("flashmla", "cutlass_mla", "trtllm_mla", "fa4", "hpc_ops"):
            out.append(case(m, None, None, None, None,
                            par=f"--attention-backend {b} --prefill-attention-backend fa3 --decode-attention-backend fa3"))
        # flex_attention refuses speculative decoding; the draft's trtllm_mha forces the page (0.5.17+);
        # dual_chunk_flash_attn turns the radix cache off
        out.append(case(m, None, None, None, None, spec="EAGLE",
                        par="--attention-backend flex_attention " + EAGLE_ONE))
        out.append(case(m, None, None, None, None, spec="EAGLE", dab="trtllm_mha",
                        par=EAGLE_ONE))
        out.append(case(m, None, None, None, None,
                        par="--attention-backend dual_chunk_flash_attn --enable-hierarchical-cache"))
        out.append(case(m, None, None, None, None, hs=True, radix=False, par="--attention-backend dual_chunk_flash_attn"))
        # equal sides (built as the attention backend up to 0.5.17, which fp8_e5m2 makes triton), trtllm_mha's
        # prefill context parallelism
        out.append(case(m, "fp8_e5m2", None, None, None,
                        par="--prefill-attention-backend fa3 --decode-attention-backend fa3"))
        out.append(case(m, None, None, None, None, par="--attention-backend trtllm_mha --attn-cp-size 2"))
        # a separate MHA draft builds its own backend, else the target's (both sides where they differ)
        for dab, dt, par in ((None, None, None), (None, None, "--attention-backend flashinfer --decode-attention-backend "
                                                               "trtllm_mla"),
                             (None, "fp8_e5m2", "--attention-backend fa3"), ("trtllm_mla", None, None),
                             ("cutedsl_mla", None, None), ("tokenspeed_mla", None, None), ("hpc_ops", None, None),
                             ("fa3", None, None), ("trtllm_mha", None, None), ("trtllm_mha", None, "--page-size 256")):
            out.append(case(m, dt, None, None, None, spec="EAGLE3", dmodel="EAGLE3_LLAMA", dab=dab, par=par))
        # a decode side beside another prefill backend: its page, its checks, the two backends the model runner builds
        for b in ("cutedsl_mla", "tokenspeed_mla", "trtllm_mha", "intel_xpu", "hpc_ops", "fa3", "flashmla"):
            out.append(case(m, None, None, None, None, par=f"--decode-attention-backend {b} --prefill-attention-backend flashinfer"))
        # decode context parallelism with speculative decoding: trtllm_mla's factory refuses it as the decode side
        # (0.5.17+), SGLang's default on SM100 included
        for par in ("", "--decode-attention-backend trtllm_mla --prefill-attention-backend flashinfer",
                    "--decode-attention-backend flashinfer --prefill-attention-backend trtllm_mla",
                    "--decode-attention-backend cutedsl_mla --prefill-attention-backend trtllm_mla",
                    "--attention-backend trtllm_mla --prefill-attention-backend fa3 --decode-attention-backend fa3"):
            for spec, sp in ((None, ""), ("EAGLE", " " + EAGLE_ONE), ("NGRAM", "")):
                out.append(case(m, None, None, None, None, spec=spec, par=f"--dcp-size 2 {par}{sp}"))
        # up to 0.5.13.post1 HiCache's kernel io backend sets an unset decode side (0.5.8+: where the attention
        # backend is fa3), which the model runner builds
        for par in ("--attention-backend fa3", "--attention-backend fa3 --hicache-io-backend direct",
                    "--attention-backend fa3 --hicache-mem-layout page_first_direct", "--attention-backend flashmla",
                    None, "--attention-backend fa3 --prefill-attention-backend flashinfer"):
            out.append(case(m, None, None, None, None, par=f"--enable-hierarchical-cache {par or ''}".strip()))
        out.append(case(m, None, None, None, None, spec="EAGLE3", dmodel="EAGLE3_LLAMA", par="--enable-hierarchical-cache"))
        out.append(case(m, None, None, None, "decode", par="--attention-backend fa3 "
                        "--disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"))
        # the EAGLE draft worker's multi-step decode and draft-extend backends: the attention backend, a side (one
        # step builds no decode backend from 0.5.3.post2; the extend follows --speculative-attention-mode), the
        # draft's own backend, a separate draft
        for b in ATTENTION:
            out.append(case(m, None, None, None, None, spec="EAGLE", par=f"--attention-backend {b}"))
        for b in ("cutlass_mla", "torch_native", "tokenspeed_mla"):
            for sp in ("", " " + EAGLE_ONE, " --speculative-attention-mode decode " + EAGLE_ONE):
                out.append(case(m, None, None, None, None, spec="NEXTN",
                                par=f"--decode-attention-backend {b} --prefill-attention-backend flashinfer{sp}"))
            out.append(case(m, None, None, None, None, spec="NEXTN",
                            par=f"--prefill-attention-backend {b} --decode-attention-backend flashinfer " + EAGLE_ONE))
        for dab, par in (("cutlass_mla", None), ("flashinfer", "--attention-backend cutlass_mla"), ("fa3", None),
                         ("trtllm_mha", EAGLE_ONE), ("bogus", None)):
            out.append(case(m, None, None, None, None, spec="NEXTN", dab=dab, par=par))
        out.append(case(m, None, None, None, None, spec="EAGLE3", dmodel="EAGLE3_LLAMA", par="--attention-backend cutlass_mla"))
        # the DSA backend asserts its model runner's model is DSA: the target's (a side or the attention backend
        # set to it), a separate draft's (the target's sides, or its own), an MTP draft's (its renamed config)
        for b in ("nsa", "dsa"):
            for flag in ("--attention-backend", "--decode-attention-backend", "--prefill-attention-backend"):
                out.append(case(m, None, None, None, None, spec="EAGLE3", dmodel="EAGLE3_LLAMA", par=f"{flag} {b}"))
            out.append(case(m, None, None, None, None, spec="NEXTN", dab=b))
            out.append(case(m, None, None, None, None, spec="EAGLE3", dmodel="EAGLE3_LLAMA", dab=b))
        # HiCache's decode side: the server-args checks after it see it (0.5.4.post1-0.5.7: the equal-sides
        # override, the page rules, the page-tree check, KV4); up to 0.5.4 the model runner sets it
        for spec, par in ((None, "--attention-backend flashmla --prefill-attention-backend triton"),
                          (None, "--attention-backend flashmla --prefill-attention-backend flashinfer"),
                          ("EAGLE", "--attention-backend flashmla --prefill-attention-backend triton --page-size 64 "
                                    + EAGLE_TREE),
                          (None, "--kv-cache-dtype fp4_e2m1 --attention-backend triton"),
                          ("NEXTN", "--attention-backend cutlass_mla --prefill-attention-backend flashinfer"),
                          ("NEXTN", "--attention-backend cutlass_mla --prefill-attention-backend triton")):
            out.append(case(m, None, None, None, None, spec=spec, par="--enable-hierarchical-cache " + par))
        # the multi-layer EAGLE worker builds no multi-step decode backend; zero steps build one up to 0.5.13.post1
        out.append(case(m, None, None, None, None, spec="EAGLE",
                        par="--enable-multi-layer-eagle --decode-attention-backend cutlass_mla "
                            "--prefill-attention-backend flashinfer"))
        for steps in (0, 1):
            out.append(case(m, None, None, None, None, spec="EAGLE",
                            par=f"--attention-backend cutlass_mla --speculative-eagle-topk 1 --speculative-num-steps "
                                f"{steps} --speculative-num-draft-tokens {steps + 1}"))
        # top-k above 1 on pages above one token: SGLang's attention backend, its platform default included
        for page in (16, 64):
            for par in ("", " --tp 4", " --prefill-attention-backend flashinfer", " --decode-attention-backend triton",
                        " --attention-backend flashinfer", " --decode-attention-backend trtllm_mha",
                        " --attention-backend trtllm_mha --prefill-attention-backend flashinfer "
                        "--decode-attention-backend fa3"):
                out.append(case(m, None, None, None, None, spec="EAGLE", page=page, par=EAGLE_TREE + par))
            # fa3 keeps no fp8_e5m2 KV: SGLang runs triton instead (0.5.4.post1+)
            out.append(case(m, "fp8_e5m2", None, None, None, spec="EAGLE", page=page, par=EAGLE_TREE))
            # NGRAM (no draft model): its own top-k default, its BFS breadth, the same page-tree check
            for par in ("", "--attention-backend flashinfer", "--attention-backend triton",
                        "--speculative-ngram-max-bfs-breadth 1"):
                out.append(case(m, None, None, None, None, spec="NGRAM", page=page, par=par or None))
    # an FP8 pool from the checkpoint's kv_cache_quant_algo under auto: each backend and side, and the MTP draft's
    for b in ATTENTION:
        for flag in ("--attention-backend", "--decode-attention-backend", "--prefill-attention-backend"):
            out.append(case("DEEPSEEK_V3_FP8KV", None, None, None, None, par=f"{flag} {b}"))
        out.append(case("DEEPSEEK_V3_FP8KV", None, None, None, None, spec="NEXTN", draft="auto", dab=b))
    return out


# checkpoints of other quantization methods (ModelOpt's, from config.json's quantization_config): the method
# _verify_quantization resolves, the model loader's check of it, and the KV dtype auto takes from its
# kv_cache_quant_algo
QUANT_MODELS = ["DEEPSEEK_V3_NVFP4", "DEEPSEEK_V3_NVFP4_NOKV", "DEEPSEEK_V3_MODELOPT_FP8", "DEEPSEEK_V32_NVFP4"]
QUANT_METHOD_FLAGS = ["--quantization modelopt_fp4", "--quantization modelopt_fp8", "--quantization modelopt",
                      "--quantization fp8", "--quantization modelopt_mixed"]


def quant_cases():
    out = []
    for m in QUANT_MODELS:
        for dt in (None, "auto", "bfloat16", "fp8_e4m3"):
            for par in (None, "--dtype float16", "--dtype float32"):
                for mode in MODES:
                    out.append(case(m, dt, None, None, mode, par=par))
        for par in QUANT_METHOD_FLAGS:
            out.append(case(m, None, None, None, None, par=par))
        for draft in (None, "auto"):
            out.append(case(m, None, None, None, None, spec="NEXTN", draft=draft))
    for par in QUANT_METHOD_FLAGS[:3]:  # on an FP8 checkpoint (without a quantization config SGLang reads files)
        out.append(case("DEEPSEEK_V3", None, None, None, None, par=par))
    return out


# ModelOpt checkpoints and their variants (modelopt_variants.py): each --quantization SGLang takes for them, MoE
# runners and all-to-all backends, model dtypes, KV dtypes, PD decode and NEXTN drafts. --quantization
# modelopt_mixed is left out: the oracle cannot build its config class from a path on some checkpoints.
MODELOPT_QUANT = ["modelopt", "modelopt_fp4", "modelopt_fp8", "fp8", "w4afp8", "nvfp4_online", "petit_nvfp4", "mxfp8",
                  "MODELOPT", "quark_mxfp4"]
MODELOPT_FLAGS = ([None, "--dtype float16", "--dtype float32"] + ["--quantization " + q for q in MODELOPT_QUANT] +
                  ["--moe-runner-backend flashinfer_trtllm", "--moe-runner-backend triton",
                   "--moe-runner-backend flashinfer_cutlass", "--moe-a2a-backend deepep",
                   "--moe-runner-backend auto --moe-a2a-backend none",
                   "--quantization modelopt --moe-runner-backend triton",
                   "--quantization modelopt_fp4 --moe-runner-backend flashinfer_trtllm",
                   "--quantization fp8 --moe-runner-backend triton", "--quantization modelopt_fp8 --moe-a2a-backend deepep",
                   "--quantization modelopt_fp4 --dtype float32", "--quantization modelopt --dtype float16"])


# The MoE runner checks of the server arguments (each runner's quantizations, the expert parallel size,
# flashinfer_cutedsl's all-to-all backends) and the runners SGLang picks for a quantization, on checkpoints without,
# with FP8 and with ModelOpt quantization configs.
MOE_MODELS = ["DEEPSEEK_V3_NVFP4", "DEEPSEEK_V3_MODELOPT_FP8", "DEEPSEEK_V3", "DEEPSEEK_V3_NOQUANT",
              "DEEPSEEK_V32_NVFP4", "MODELOPT_GLM5_NVFP4"]
MOE_RUNNERS = [None, "flashinfer_cutlass", "flashinfer_trtllm", "flashinfer_trtllm_routed", "flashinfer_cutedsl",
               "experimental_sgl_trtllm", "cutlass"]
MOE_QUANT = [None, "modelopt_fp4", "modelopt_fp8", "fp8", "mxfp8", "nvfp4_online", "unquant"]


def moe_flags():
    out = []
    for runner in MOE_RUNNERS:
        for q in MOE_QUANT:
            for ep in (None, "2"):
                out.append(" ".join(f for f in ("--moe-runner-backend " + runner if runner else "",
                                                "--quantization " + q if q else "",
                                                "--ep-size " + ep if ep else "") if f))
    for a2a in ("deepep", "flashinfer", "mooncake"):
        for q in (None, "modelopt_fp4", "nvfp4_online"):
            out.append("--moe-runner-backend flashinfer_cutedsl --moe-a2a-backend " + a2a +
                       (" --quantization " + q if q else ""))
    out += ["--moe-runner-backend cutlass --quantization fp8 --ep-size 8",
            "--moe-runner-backend flashinfer_cutlass --ep-size 8"]
    return [f for f in out if f]


def modelopt_cases():
    import modelopt_variants
    out = []
    for m in QUANT_MODELS + modelopt_variants.names():
        for par in MODELOPT_FLAGS:
            out.append(case(m, None, None, None, None, par=par))
        for par in (None, "--quantization modelopt", "--dtype float16"):
            out.append(case(m, "fp8_e4m3", None, None, None, par=par))
            out.append(case(m, "auto", None, None, "decode", par=par))
        for draft in (None, "auto"):
            for par in (None, "--quantization modelopt"):
                out.append(case(m, None, None, None, None, spec="NEXTN", draft=draft, par=par))
                out.append(case(m, "fp8_e4m3", None, None, None, spec="NEXTN", draft=draft, par=par))
    for m in MOE_MODELS:
        for par in moe_flags():
            if par not in MODELOPT_FLAGS:
                out.append(case(m, None, None, None, None, par=par))
    return out


def argv(c, pflag, dflag):
    model, dt, pb, db, mode, hs, radix, spec, draft, page, dmodel, dab, par = c
    a = ["--tp", "8"]
    if dt: a += ["--kv-cache-dtype", dt]
    if pb: a += [pflag, pb]
    if db: a += [dflag, db]
    if mode: a += ["--disaggregation-mode", mode]
    if hs: a += ["--enable-hisparse"]
    if radix: a += ["--disable-radix-cache"]
    if spec: a += ["--speculative-algorithm", spec]
    if draft: a += ["--speculative-draft-kv-cache-dtype", draft]
    if page: a += ["--page-size", str(page)]
    if dmodel: a += ["--speculative-draft-model-path", DRAFT_PATH + dmodel]
    if dab: a += ["--speculative-draft-attention-backend", dab]
    if par: a += par.split()[len(case_env(c)):]
    return a


DRAFT_PATH = "/fake/draft/"


def main():
    ver, gpu = sys.argv[1], sys.argv[2]
    model_dir, limit, section, reuse = None, None, cases, None
    rest = sys.argv[3:]
    while rest:
        k = rest.pop(0)
        if k == "--models": model_dir = rest.pop(0)
        elif k == "--limit": limit = int(rest.pop(0))
        elif k == "--attention": section = attention_cases
        elif k == "--quant": section = quant_cases
        elif k == "--modelopt": section = modelopt_cases
        elif k == "--parallel": section = parallel_cases
        elif k == "--survey": section = survey_cases
        elif k == "--reuse": reuse = rest.pop(0)
    from oracle import Oracle, load_models, default_model_dir
    models = load_models(model_dir or default_model_dir())
    t0 = time.time()
    o = Oracle(ver, gpu)
    print("FLAGS " + json.dumps({"v": ver, "gpu": gpu, "prefill": o.pflag, "decode": o.dflag,
                                 "init_lines": getattr(o, "init_lines", [])}), flush=True)
    for name in DRAFT_MODELS:
        o.add_draft(DRAFT_PATH + name, models[name])
    cs = section()
    cs = cs[:limit] if limit else cs
    old = {}
    for line in open(reuse) if reuse else ():
        if line.startswith("ROW "):
            old[tuple(json.loads(line[4:])["case"])] = line.rstrip("\n")
    ran = 0
    for c in cs:
        if c in old:
            print(old[c])
            continue
        env = dict(os.environ)
        os.environ.update(case_env(c))
        try:
            r = o.run(models[c[0]], argv(c, o.pflag, o.dflag), spec=bool(c[7]))
        finally:
            os.environ.clear()
            os.environ.update(env)
        r.update(v=ver, gpu=gpu, case=list(c))
        print("ROW " + json.dumps(r, default=str))
        ran += 1
    print(f"DONE {ver} {gpu} {len(cs)} rows {time.time() - t0:.1f}s ({ran} run, {len(cs) - ran} reused)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
