import os
SRC = os.environ.get("SGLANG_SRC", "sglang-src")  # releases unpacked as SRC/X.Y.Z/sglang/...
import sys, traceback
ver = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, f"{SRC}/{ver}")
import stubs, faketorch
stubs.install({"torch", "triton", "sgl_kernel", "flashinfer", "vllm", "transformers", "huggingface_hub", "safetensors", "deep_gemm", "aiter", "tilelang", "mooncake", "nixl", "zmq", "uvloop", "fastapi", "uvicorn", "aiohttp", "PIL", "setproctitle", "pybase64", "partial_json_parser", "outlines", "xgrammar", "llguidance", "openai", "prometheus_client", "compressed_tensors", "einops", "msgspec", "modelscope", "decord", "soundfile", "interegular", "blobfile", "tiktoken", "sentencepiece", "hf_transfer", "cuda", "nvidia", "pynvml", "datasets", "anthropic", "torchao", "scipy", "jinja2"})
faketorch.build_library(faketorch.build()); faketorch.build_triton()
import time; t=time.time()
try:
    import sglang.srt.server_args as sa
    print("imported", ver, time.time()-t)
except Exception:
    traceback.print_exc()
