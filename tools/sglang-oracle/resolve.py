"""Run one SGLang release's own argument resolution for one worker.
usage: python resolve.py VERSION GPU MODEL -- <sglang launch flags>"""
import os
SRC = os.environ.get("SGLANG_SRC", "sglang-src")  # releases unpacked as SRC/X.Y.Z/sglang/...
import sys, json, types, traceback, logging
ver, gpu, model = sys.argv[1:4]
argv = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); sys.path.insert(0, f"{SRC}/{ver}")
import stubs, faketorch, cfgs
GPUS = {"H200": ((9, 0), False, ""), "B200": ((10, 0), False, ""), "B300": ((10, 3), False, ""),
        "RTX6000": ((12, 0), False, ""), "GB10": ((12, 1), False, ""),
        "MI300X": ((9, 4), True, "gfx942:sramecc+:xnack-"), "MI355X": ((9, 5), True, "gfx950:sramecc+:xnack-")}
cap, hip, gcn = GPUS[gpu]
faketorch.DEVICE.update(cap=cap, hip=hip, gcn=gcn)
stubs.install({"torch", "triton", "sgl_kernel", "flashinfer", "vllm", "transformers", "huggingface_hub", "safetensors",
               "deep_gemm", "aiter", "tilelang", "mooncake", "nixl", "zmq", "uvloop", "fastapi", "uvicorn", "aiohttp",
               "PIL", "setproctitle", "pybase64", "partial_json_parser", "outlines", "xgrammar", "llguidance", "openai",
               "prometheus_client", "compressed_tensors", "einops", "modelscope", "decord", "soundfile",
               "interegular", "blobfile", "tiktoken", "sentencepiece", "hf_transfer", "cuda", "nvidia", "pynvml",
               "datasets", "anthropic", "torchao", "scipy", "jinja2", "torch_npu", "regex", "IPython", "pydantic_settings", "gguf", "msgpack", "cloudpickle", "accelerate", "peft", "timm", "torchvision", "torchaudio", "av", "cv2", "openai_harmony", "pyzmq", "grpc", "google", "xxhash", "sglang_router", "kernels", "flash_attn", "quack", "cutlass", "tvm_ffi", "apache_tvm_ffi", "nvtx", "mamba_ssm", "causal_conv1d", "fla", "numba", "ray", "opentelemetry", "watchfiles", "starlette", "sse_starlette", "httpx", "uvicorn", "websockets", "pyarrow", "pandas", "matplotlib", "librosa", "qwen_vl_utils", "mistral_common", "llguidance", "torch_memory_saver", "lmcache", "mooncake", "hicache", "triton_kernels", "cuda_python", "nvidia_ml_py", "habana_frameworks", "intel_extension_for_pytorch"})
faketorch.build_library(faketorch.build()); faketorch.build_triton()
logging.basicConfig(level=logging.WARNING, format="LOG %(levelname)s %(message)s", stream=sys.stdout)

class HFConfig:
    def __init__(self, d):
        self.__dict__.update(d)
    def to_dict(self): return dict(self.__dict__)
    def get_text_config(self, **k): return self
    def __repr__(self): return f"HFConfig({self.architectures})"

cfg = HFConfig(getattr(cfgs, model))
import sglang.srt.utils.hf_transformers_utils as hfu
hfu.get_config = lambda *a, **k: cfg
hfu.get_generation_config = lambda *a, **k: None
if hasattr(hfu, "get_hf_text_config"): pass
import sglang.srt.configs.model_config as mc
mc.get_config = lambda *a, **k: cfg
mc.get_generation_config = lambda *a, **k: None
if hasattr(mc, "get_sparse_attention_config"): mc.get_sparse_attention_config = lambda *a, **k: {}
import sglang.srt.server_args as sa
NO_CHECK = set()

def torch_kv_dtype(s):
    import torch
    if s in ("bf16", "bfloat16"): return torch.bfloat16
    if s == "fp8_e4m3":
        # <= 0.5.6 model_runner maps fp8_e4m3 to float8_e4m3fnuz on every HIP GPU;
        # later releases use fp8_kernel.fp8_dtype (fnuz only on gfx94x)
        import os
        if faketorch.DEVICE["hip"] and not os.path.exists(f"{SRC}/{ver}/sglang/srt/model_executor/model_runner.py") or \
           faketorch.DEVICE["hip"] and "torch.float8_e4m3fnuz" in open(f"{SRC}/{ver}/sglang/srt/model_executor/model_runner.py").read().split("def init_memory_pool")[-1][:3000]:
            return torch.float8_e4m3fnuz
        return torch.float8_e4m3fnuz if "gfx94" in faketorch.DEVICE["gcn"] else torch.float8_e4m3fn
    if s == "fp8_e5m2": return torch.float8_e5m2
    return torch.bfloat16

def row_bytes(args, view):
    """bytes per token per layer of the MLA KV pool, from the release's own function."""
    import types, torch
    mc_obj = types.SimpleNamespace(hf_config=cfg, kv_lora_rank=cfg.kv_lora_rank, qk_rope_head_dim=cfg.qk_rope_head_dim)
    kvd = torch_kv_dtype(view.kv_cache_dtype)
    fn = None
    try:
        import sglang.srt.mem_cache.kv_cache_configurator as kc
        fn = getattr(kc, "calculate_mla_kv_cache_dim", None)
    except ImportError:
        kc = None
    if fn is not None:
        import inspect
        params = inspect.signature(fn).parameters
        if "server_args" in params:
            dim = fn(model_config=mc_obj, kv_cache_dtype=kvd, server_args=view)
        else:
            kern = types.SimpleNamespace(dsa_prefill_backend=view.dsa_prefill_backend, dsa_decode_backend=view.dsa_decode_backend)
            kc.get_exec = lambda: types.SimpleNamespace(kernel=kern)
            kc.get_disagg = lambda: types.SimpleNamespace(disaggregation_mode=view.disaggregation_mode)
            dim = fn(model_config=mc_obj, kv_cache_dtype=kvd)
        src = "kv_cache_configurator.calculate_mla_kv_cache_dim"
    else:
        try:
            import sglang.srt.model_executor.model_runner_kv_cache_mixin as mx
            cls = [v for k, v in vars(mx).items() if isinstance(v, type) and hasattr(v, "calculate_mla_kv_cache_dim")][0]
            me = types.SimpleNamespace(model_config=mc_obj, kv_cache_dtype=kvd, server_args=view)
            dim = cls.calculate_mla_kv_cache_dim(me)
            src = "ModelRunnerKVCacheMixin.calculate_mla_kv_cache_dim"
        except (ImportError, IndexError):
            # <= 0.5.8: the pool itself (memory_pool.py MLATokenToKVPool.__init__) decides
            R, r = cfg.kv_lora_rank, cfg.qk_rope_head_dim
            import sglang.srt.configs.model_config as _mc
            dsa = getattr(_mc, "is_deepseek_nsa", getattr(_mc, "is_deepseek_dsa", None))(cfg)
            dim = (R + R // 128 * 4 + r * 2) if (dsa and kvd is torch.float8_e4m3fn) else (R + r)
            src = "hand copy of MLATokenToKVPool.__init__ (no function in this release)"
    scaled = dim != cfg.kv_lora_rank + cfg.qk_rope_head_dim
    itemsize = 1 if scaled else kvd.itemsize
    return {"kv_cache_dim": dim, "bytes": dim * itemsize, "torch_dtype": kvd.name, "source": src}
for _m in [sa] + [m for n, m in list(sys.modules.items()) if n.startswith("sglang.srt.utils")]:
    for _n in ("get_device_memory_capacity", "get_nvgpu_memory_capacity", "get_amdgpu_memory_capacity"):
        if hasattr(_m, _n): setattr(_m, _n, lambda *a, **k: faketorch.DEVICE["mem"] // 2**20)
out = {"version": ver, "gpu": gpu, "model": model, "argv": argv}
try:
    args = sa.prepare_server_args(["--model-path", "/fake/model"] + argv)
    if hasattr(args, "resolve_once"):
        args.resolve_once()
    keys = ["kv_cache_dtype", "page_size", "attention_backend", "disaggregation_mode", "enable_hisparse"]
    for k in ["nsa_prefill", "nsa_decode", "nsa_prefill_backend", "nsa_decode_backend", "dsa_prefill_backend", "dsa_decode_backend"]:
        if hasattr(args, k): keys.append(k)
    view = args
    try:
        from sglang.srt.arg_groups.model_override_base import resolved_view
        view = resolved_view(args)
    except ImportError:
        pass
    out["resolved"] = {k: getattr(view, k, "<absent>") for k in keys}
    if hasattr(args, "check_server_args") and ver not in NO_CHECK:
        args.check_server_args()
        out["checked"] = True
    out["row"] = row_bytes(args, view)
except SystemExit as e:
    out["exit"] = str(e)
except BaseException as e:
    out["error"] = f"{type(e).__name__}: {e}"
    out["trace"] = traceback.format_exc().splitlines()[-6:]
print("RESULT " + json.dumps(out, default=str))
