"""Run one SGLang release's own code for one worker's settings, in-process.

Used by resolve.py (one case, CLI) and matrix.py (many cases). A release
tree is SGLANG_SRC/<version>/sglang/... (only the .py files of the wheel).

Stages, each the release's own code where the release has it:
  1. argparse: ServerArgs.add_cli_args on a fresh ArgumentParser; a refusal
     is recorded as "argparse: <argparse's message>" (Python 3.11 wording).
  2. ServerArgs.from_cli_args (+ resolve_once / resolved_view from 0.5.20),
     then check_server_args(): exceptions recorded as "<Type>: <message>".
  3. model-runner stage ("init: <Type>: <message>" when it raises): the
     model class (model_loader/utils.py get_model_architecture, over a
     registry of the release's models/*.py EntryClass names and a
     transformers without that class: what ModelRunner.load_model does
     first), the KV torch dtype (ModelRunner.configure_kv_cache_dtype / the module
     function in mem_cache/kv_cache_dtype.py / the if-chain of
     ModelRunner.init_memory_pool, executed from the release's source),
     the pool row (calculate_mla_kv_cache_dim; <= 0.5.8 the pool
     constructor's rule, hand-copied), then the statements of
     DeepseekSparseAttnBackend.__init__ that refuse a configuration
     (executed from the release's source, see init_checks()).
  4. speculative decoding: the draft model config (ModelConfig with
     is_draft_model=True), the draft worker's KV torch dtype and row; for
     the EAGLE workers (EAGLE, EAGLE3, NEXTN, STANDALONE) the backends the
     draft worker builds (draft_worker(): an MTP draft's own backend through
     the registry, then DraftBackendFactory's decode and draft-extend maps).
"""
import argparse, ast, builtins, contextlib, copy, inspect, io, json, logging, os, re, sys, textwrap, types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import stubs, faketorch  # noqa: E402

# name -> (compute capability, HIP, gcnArchName, device name, memory GiB)
GPUS = {
    "H200": ((9, 0), False, "", "NVIDIA H200", 141),
    "B200": ((10, 0), False, "", "NVIDIA B200", 180),
    "B300": ((10, 3), False, "", "NVIDIA B300 SXM6 AC", 270),
    "RTX6000": ((12, 0), False, "", "NVIDIA RTX PRO 6000 Blackwell Server Edition", 96),
    "GB10": ((12, 1), False, "", "NVIDIA GB10", 119),
    "MI300X": ((9, 4), True, "gfx942:sramecc+:xnack-", "AMD Instinct MI300X", 192),
    "MI325X": ((9, 4), True, "gfx942:sramecc+:xnack-", "AMD Instinct MI325X", 256),
    "MI355X": ((9, 5), True, "gfx950:sramecc+:xnack-", "AMD Instinct MI355X", 288),
}

STUBS = {"torch", "triton", "sgl_kernel", "flashinfer", "vllm", "transformers", "huggingface_hub", "safetensors",
         "deep_gemm", "aiter", "tilelang", "mooncake", "nixl", "zmq", "uvloop", "fastapi", "uvicorn", "aiohttp",
         "PIL", "setproctitle", "pybase64", "partial_json_parser", "outlines", "xgrammar", "llguidance", "openai",
         "prometheus_client", "compressed_tensors", "einops", "modelscope", "decord", "soundfile",
         "interegular", "blobfile", "tiktoken", "sentencepiece", "hf_transfer", "cuda", "nvidia", "pynvml",
         "datasets", "anthropic", "torchao", "scipy", "jinja2", "torch_npu", "IPython",
         "pydantic_settings", "gguf", "msgpack", "cloudpickle", "accelerate", "peft", "timm", "torchvision",
         "torchaudio", "av", "cv2", "openai_harmony", "pyzmq", "grpc", "google", "xxhash", "sglang_router",
         "kernels", "flash_attn", "quack", "cutlass", "tvm_ffi", "apache_tvm_ffi", "nvtx", "mamba_ssm",
         "causal_conv1d", "fla", "numba", "ray", "opentelemetry", "watchfiles", "starlette", "sse_starlette",
         "httpx", "websockets", "pyarrow", "pandas", "matplotlib", "librosa", "qwen_vl_utils", "mistral_common",
         "torch_memory_saver", "lmcache", "hicache", "triton_kernels", "cuda_python", "nvidia_ml_py",
         "habana_frameworks", "intel_extension_for_pytorch"}




class HFConfig:
    """Stands in for transformers' PretrainedConfig: the config.json fields as
    attributes, `dtype` and `torch_dtype` one value as in transformers >=
    4.56 (every release pins 4.57+): "dtype" where both are given (4.57.1:
    configuration_utils.py:264-268)."""
    def __init__(self, d):
        self.__dict__.update(copy.deepcopy(d))
        dt = d.get("dtype") if d.get("dtype") is not None else d.get("torch_dtype")
        if dt is not None:
            self.dtype = self.torch_dtype = dt
    def to_dict(self): return copy.deepcopy(self.__dict__)
    def get_text_config(self, **k): return self
    def __repr__(self): return f"HFConfig({self.architectures})"


class ArgparseRefusal(Exception):
    pass


def load_models(model_dir):
    """<NAME>.json files (HF config.json fields) -> {NAME: dict}."""
    out = {}
    for f in sorted(os.listdir(model_dir)):
        if f.endswith(".json"):
            out[f[:-5]] = json.load(open(os.path.join(model_dir, f)))
    return out


def default_model_dir():
    d = os.environ.get("KVCHECK_SGLANG_MODELS")
    if d:
        return d
    return os.path.normpath(os.path.join(HERE, "..", "..", "tests", "conformance", "sglang", "models"))


class Oracle:
    def __init__(self, ver, gpu, src_root=None):
        src_root = src_root or os.environ.get("SGLANG_SRC", "sglang-src")
        self.ver, self.gpu = ver, gpu
        self.root = os.path.join(src_root, ver)
        if not os.path.isdir(os.path.join(self.root, "sglang")):
            raise SystemExit(f"no release tree {self.root}/sglang (set SGLANG_SRC)")
        sys.path.insert(0, self.root)
        cap, hip, gcn, name, mem = GPUS[gpu]
        faketorch.DEVICE.update(cap=cap, hip=hip, gcn=gcn, name=name, mem=mem * 2**30)
        if hip:
            os.environ.setdefault("SGLANG_USE_AITER", "1")
        stubs.install(STUBS)
        faketorch.build_library(faketorch.build())
        faketorch.build_triton()
        _speed_up_msgspec()
        self.cfg = HFConfig({"architectures": ["DeepseekV3ForCausalLM"]})
        self.drafts = {}   # --speculative-draft-model-path -> that draft's config.json (add_draft())
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            self._import()
        logging.disable(logging.CRITICAL)
        p = argparse.ArgumentParser()
        self.sa.ServerArgs.add_cli_args(p)

        def error(msg):
            raise ArgparseRefusal(msg)
        p.error = error
        self.parser = p
        self.opts = {o: a for a in p._actions for o in a.option_strings}
        pick = lambda *n: next((x for x in n if x in self.opts), None)
        self.pflag = pick("--dsa-prefill-backend", "--nsa-prefill-backend", "--nsa-prefill")
        self.dflag = pick("--dsa-decode-backend", "--nsa-decode-backend", "--nsa-decode")

    # ------------------------------------------------------------------ setup
    def _import(self):
        import sglang.srt.utils.hf_transformers_utils as hfu
        # DeepSeek-V3.2's published config.json says DeepseekV32ForCausalLM /
        # deepseek_v32. The transformers pinned by 0.5.3-0.5.11 (4.57.x, 5.3.0,
        # 5.6.0) has no deepseek_v32, and those releases' get_config then loads
        # it through _load_deepseek_v32_model, which rewrites the two fields
        # (sglang 0.5.9: srt/utils/hf_transformers_utils.py:178-205); 0.5.12+
        # register a deepseek_v32 config alias and keep them
        # (sglang 0.5.12: srt/utils/hf_transformers/common.py).
        hack = any("_load_deepseek_v32_model" in open(f).read() for f in _files(self.root, "sglang/srt/utils"))

        def getcfg(*a, **k):
            path = a[0] if a else k.get("model", k.get("model_path"))
            if path in self.drafts:  # a separate draft model's own config.json (draft_model())
                return HFConfig(self.drafts[path])
            c = HFConfig(self.cfg.__dict__)
            if hack and getattr(c, "model_type", None) == "deepseek_v32":
                c.architectures, c.model_type = ["DeepseekV3ForCausalLM"], "deepseek_v3"
            return c
        hfu.get_config = getcfg
        hfu.get_generation_config = lambda *a, **k: None
        # an empty Hugging Face cache: DeepSeek-V4's config probes it for the checkpoint's expert dtype and takes
        # the user's default when the model is not there (sglang 0.5.23: python/sglang/srt/configs/deepseek_v4.py:
        # 9-30, python/sglang/srt/utils/common.py:4198-4204)
        import huggingface_hub.constants as hfc
        hfc.HF_HUB_CACHE, hfc.REPO_ID_SEPARATOR = "/nonexistent/hf-cache", "--"
        import sglang.srt.configs.model_config as mc
        mc.get_config = getcfg
        mc.get_generation_config = lambda *a, **k: None
        if hasattr(mc, "get_sparse_attention_config"):
            mc.get_sparse_attention_config = lambda *a, **k: {}
        self.mc = mc
        self.getcfg = getcfg
        import sglang.srt.server_args as sa
        self.sa = sa
        for m in [sa] + [m for n, m in list(sys.modules.items()) if n.startswith("sglang.srt.utils")]:
            for n in ("get_device_memory_capacity", "get_nvgpu_memory_capacity", "get_amdgpu_memory_capacity"):
                if hasattr(m, n):
                    setattr(m, n, lambda *a, **k: faketorch.DEVICE["mem"] // 2**20)
        self.resolved_view = None
        try:
            from sglang.srt.arg_groups.model_override_base import resolved_view
            self.resolved_view = resolved_view
        except ImportError:
            pass
        # the model runner stage
        self.kc = self.mx = self.kvd_mod = None
        self._kv_code = None
        self._dsa_assert = None
        try:
            import sglang.srt.mem_cache.kv_cache_configurator as kc
            if hasattr(kc, "calculate_mla_kv_cache_dim"):
                self.kc = kc
        except ImportError:
            pass
        if self.kc is None:
            try:
                import sglang.srt.model_executor.model_runner_kv_cache_mixin as mx
                self.mx = [v for v in vars(mx).values()
                           if isinstance(v, type) and "calculate_mla_kv_cache_dim" in v.__dict__][0]
            except (ImportError, IndexError):
                pass
        try:
            import sglang.srt.mem_cache.kv_cache_dtype as kvd_mod
            self.kvd_mod = kvd_mod
        except ImportError:
            pass
        self.init_stmts, self.init_lines = [], []
        path = os.path.join(self.root, "sglang/srt/layers/attention/dsa_backend.py")
        if os.path.exists(path):
            self._init_statements(path)
        self._model_class_setup()
        self._fp4_setup()
        self._delayer_setup()
        self._load_setup()

    def _fp4_setup(self):
        """Where the release keeps its FP4 MLA buffers (fp4_pool()): the
        scale block size assigned in MLATokenToKVPoolFP4._create_buffers, or
        in MLATokenToKVPool.__init__'s float4 branch (then the DSA pool,
        its subclass, takes it too); and the release's is_float4_e2m1fn_x2."""
        path = os.path.join(self.root, "sglang/srt/mem_cache/memory_pool.py")
        self.fp4_block = None
        for cls, meth, dsa_too in (("MLATokenToKVPoolFP4", "_create_buffers", False),
                                   ("MLATokenToKVPool", "__init__", True)):
            fn = _method(path, cls, meth)
            for n in ast.walk(fn) if fn is not None else ():
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "scale_block_size"
                                                     for t in n.targets):
                    self.fp4_block = (n.value.value, dsa_too)
            if self.fp4_block:
                break
        import sglang.srt.utils.common as common
        self.is_fp4 = getattr(common, "is_float4_e2m1fn_x2", lambda d: False)

    def _model_class_setup(self):
        """The release's get_model_architecture (ModelRunner.load_model calls
        it before the KV pool exists) with its ModelRegistry holding the
        classes the release's models package lists as EntryClass (the
        registry imports every models/*.py and keeps those names; here they
        are read from the source, since importing the models needs CUDA).
        `transformers` has no model classes: none of the transformers
        versions the releases pin has the architectures in the matrix that
        a release lacks (GlmMoeDsaForCausalLM before 0.5.9: pins 4.57.0,
        4.57.1, 5.0.0rc0; Glm5NextForConditionalGeneration before 0.5.20:
        5.12.1; GlmMoeDsaForCausalLMNextN before 0.5.16: none has NextN
        classes), so an unlisted architecture ends in
        resolve_transformers_arch's refusal."""
        registry = os.path.join(self.root, "sglang/srt/models/registry.py")
        reg = load_defs(registry, {"_ModelRegistry"}, self.root)["_ModelRegistry"]()
        reg.models = {name: type(name, (), {}) for name in entry_classes(os.path.dirname(registry))}
        fake = types.SimpleNamespace(ModelRegistry=reg)

        def imp(name, *a, **k):
            return fake if name == "sglang.srt.models.registry" else builtins.__import__(name, *a, **k)
        base = {"__builtins__": dict(vars(builtins), __import__=imp)}
        ns = load_defs(os.path.join(self.root, "sglang/srt/model_loader/utils.py"), {"get_model_architecture"},
                       self.root, base)
        ns["transformers"] = types.SimpleNamespace()
        self.model_class = ns["get_model_architecture"]

    # ------------------------------------------------------- stage 3 pieces
    def kv_torch_dtype(self, view, draft=False, model_dtype=None, model=None):
        """(torch dtype, where) from the release's own code; model_dtype is
        the model's dtype (default bfloat16), which `auto` resolves to, and
        model the model runner's model (its quant_config: a checkpoint's
        kv_cache_quant_algo), None for none."""
        import torch
        model_dtype = model_dtype or torch.bfloat16
        if self.kvd_mod is not None:
            return self._configure_kv_dtype(view, draft, model_dtype, model)[1], \
                "mem_cache/kv_cache_dtype.py:configure_kv_cache_dtype"
        path = os.path.join(self.root, "sglang/srt/model_executor/model_runner.py")
        meth = _method(path, "ModelRunner", "configure_kv_cache_dtype")
        if meth is not None:
            # 0.5.7-0.5.15: the method's body (it reads self.server_args.kv_cache_dtype)
            node = ast.Module(meth.body, [])
            where = f"model_runner.py:{meth.lineno} ModelRunner.configure_kv_cache_dtype"
        else:
            # <= 0.5.6.post2: the if-chain on server_args.kv_cache_dtype inside init_memory_pool
            meth = _method(path, "ModelRunner", "init_memory_pool")
            node = _find_kv_dtype_chain(meth)
            where = f"model_runner.py:{node.lineno} (ModelRunner.init_memory_pool)"
        if self._kv_code is None:
            ns = load_defs(path, _loads(node), self.root)
            mod = node if isinstance(node, ast.Module) else ast.Module([node], [])
            self._kv_code = (compile(mod, path, "exec"), ns)
        me = types.SimpleNamespace(server_args=view, model=model, dtype=model_dtype,
                                   _record_kv_cache_dtype=lambda *a: None)
        code, ns = self._kv_code
        exec(code, dict(ns), {"self": me})
        return me.kv_cache_dtype, where

    def _configure_kv_dtype(self, view, draft, model_dtype, model=None):
        """mem_cache/kv_cache_dtype.py's configure_kv_cache_dtype (0.5.16+):
        (resolved dtype string or None, torch dtype)."""
        fn = self.kvd_mod.configure_kv_cache_dtype
        kw = dict(server_args_kv_cache_dtype=view.kv_cache_dtype, model=model, model_dtype=model_dtype,
                  is_draft_worker=draft, is_dflash=False, speculative_draft_attention_backend=None)
        if "speculative_draft_kv_cache_dtype" in inspect.signature(fn).parameters:
            kw["speculative_draft_kv_cache_dtype"] = getattr(view, "speculative_draft_kv_cache_dtype", None)
        return fn(**kw)

    def kv_cache_dtype_str(self, view):
        """The target model runner's kv_cache_dtype_str, which PD registers
        and compares from 0.5.17: the statement of
        ModelRunner.configure_kv_cache_dtype that sets it, executed with the
        resolved string configure_kv_cache_dtype returns (the target's model,
        run() set: its checkpoint's quantization config). None where the
        release has none."""
        import torch
        path = os.path.join(self.root, "sglang/srt/model_executor/model_runner.py")
        meth = _method(path, "ModelRunner", "configure_kv_cache_dtype")
        stmt = next((n for n in ast.walk(meth) if isinstance(n, ast.Assign) and
                     ast.unparse(n.targets[0]) == "self.kv_cache_dtype_str"), None) if meth else None
        if stmt is None or self.kvd_mod is None:
            return None
        me = types.SimpleNamespace(server_args=view)
        model = getattr(self, "target_model", None)
        loc = {"self": me, "resolved_kv_cache_dtype": self._configure_kv_dtype(view, False, torch.bfloat16, model)[0]}
        # 0.5.23 reads the model group of the resolved args through get_model(); the view has its fields
        exec(compile(ast.Module([stmt], []), path, "exec"), {"get_model": lambda: view}, loc)
        return me.kv_cache_dtype_str

    def row(self, view, kvd, hf):
        """(kv_cache_dim, bytes per token per layer) of the MLA pool."""
        R, r = hf.kv_lora_rank, hf.qk_rope_head_dim
        mcn = types.SimpleNamespace(hf_config=hf, kv_lora_rank=R, qk_rope_head_dim=r)
        if self.kc is not None:
            fn = self.kc.calculate_mla_kv_cache_dim
            if "server_args" in inspect.signature(fn).parameters:
                dim = fn(model_config=mcn, kv_cache_dtype=kvd, server_args=view)
            else:
                kern = types.SimpleNamespace(dsa_prefill_backend=view.dsa_prefill_backend,
                                             dsa_decode_backend=view.dsa_decode_backend)
                self.kc.get_exec = lambda: types.SimpleNamespace(kernel=kern)
                self.kc.get_disagg = lambda: types.SimpleNamespace(disaggregation_mode=view.disaggregation_mode)
                dim = fn(model_config=mcn, kv_cache_dtype=kvd)
        elif self.mx is not None:
            me = types.SimpleNamespace(model_config=mcn, kv_cache_dtype=kvd, server_args=view)
            dim = self.mx.calculate_mla_kv_cache_dim(me)
        else:
            # <= 0.5.8: MLATokenToKVPool/NSATokenToKVPool.__init__ (hand copy; ERAS.md section 2)
            import torch
            dsa = getattr(self.mc, "is_deepseek_nsa", getattr(self.mc, "is_deepseek_dsa", None))(hf)
            dim = (R + R // 128 * 4 + r * 2) if (dsa and kvd is torch.float8_e4m3fn) else (R + r)
        scaled = dim != R + r
        return dim, dim * (1 if scaled else kvd.itemsize)

    def fp4_pool(self, kvd, hf, dim):
        """The FP4 MLA pool's (KV bytes, scale bytes) per token and layer, or
        None where the release builds its ordinary pool for this dtype. On
        CUDA (the release's is_float4_e2m1fn_x2) a float4_e2m1fn_x2 pool keeps
        dim // 2 bytes of packed E2M1 pairs per token and, in a second buffer
        per layer, dim // scale_block_size UE8M0 scales: the branch of
        MLATokenToKVPool.__init__ (0.5.4.post3-0.5.5.post3, memory_pool.py:1321,
        taken by the DSA pool too), then MLATokenToKVPoolFP4._create_buffers,
        which the model runner picks only for models that are not DSA (sglang
        0.5.6: model_executor/model_runner.py:1844-1862). The sizes are read
        from the release's source."""
        if self.fp4_block is None or not self.is_fp4(kvd):
            return None
        block, dsa_too = self.fp4_block
        dsa = getattr(self.mc, "is_deepseek_nsa", getattr(self.mc, "is_deepseek_dsa", None))(hf)
        if dsa and not dsa_too:
            return None
        return dim // 2, dim // block

    def _init_statements(self, path):
        """The statements of DeepseekSparseAttnBackend.__init__ that refuse a
        configuration: `if` blocks on dsa_prefill_impl/dsa_decode_impl that
        raise or call a _validate_* function, and the calls to _validate_*
        functions (loaded from their defining files). Executed in order with
        the resolved values; see init_checks()."""
        meth = _method(path, "DeepseekSparseAttnBackend", "__init__")
        if meth is None:
            return
        keep, names, imports = [], set(), {}
        for st in meth.body:
            calls_validate = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                 and n.func.id.startswith("_validate_") for n in ast.walk(st))
            raises = any(isinstance(n, ast.Raise) for n in ast.walk(st))
            if isinstance(st, ast.ImportFrom) and any(a.name.startswith("_validate_") for a in st.names):
                imports[st.module] = [a.name for a in st.names]
            elif isinstance(st, ast.If) and ("dsa_prefill_impl" in ast.unparse(st.test) or
                                              "dsa_decode_impl" in ast.unparse(st.test)) and (raises or calls_validate):
                keep.append(st)
            elif isinstance(st, (ast.Expr, ast.Assign)) and calls_validate:
                keep.append(st)
        for st in keep:
            names |= _loads(st)
        ns = load_defs(path, names, self.root)
        for mod, fns in imports.items():
            f = os.path.join(self.root, *mod.split(".")) + ".py"
            d = load_defs(f, set(fns), self.root)
            for fn in fns:
                ns[fn] = d[fn]
        self.init_ns = ns
        self.init_lines = [st.lineno for st in keep]
        self.init_stmts = [compile(ast.Module([st], []), path, "exec") for st in keep]

    def init_checks(self, view, kvd, dim, hf):
        if not self.init_stmts:
            return
        import torch
        R, r = hf.kv_lora_rank, hf.qk_rope_head_dim
        dsa = getattr(self.mc, "is_deepseek_dsa", None)
        if dsa is None or not dsa(hf) or getattr(view, "attention_backend", None) not in ("dsa", "nsa"):
            return
        me = types.SimpleNamespace(
            dsa_prefill_impl=view.dsa_prefill_backend, dsa_decode_impl=view.dsa_decode_backend,
            kv_cache_dtype=kvd, device_sm_major=faketorch.DEVICE["cap"][0],
            dsa_kv_cache_store_fp8=bool(kvd is torch.float8_e4m3fn and dim != R + r),
            qk_rope_head_dim=r, num_q_heads=hf.num_attention_heads // _attn_tp(view),
            dsa_triton_union=getattr(view, "dsa_triton_union", 0) or 0,
            dsa_index_kpool=getattr(hf, "index_kpool", None) or 1,
            hisparse_coordinator=object() if getattr(view, "enable_hisparse", False) else None)
        mr = types.SimpleNamespace(model_config=types.SimpleNamespace(hf_config=hf), kv_cache_dtype=kvd)
        g = dict(self.init_ns)
        sched = types.SimpleNamespace(enable_mixed_chunk=getattr(view, "enable_mixed_chunk", False))
        g["get_schedule"] = lambda: sched
        loc = {"self": me, "model_runner": mr}
        for code in self.init_stmts:
            exec(code, g, loc)

    def _delayer_setup(self):
        """The scheduler's PrefillDelayer (0.5.8+), which init_schedule_policy builds once the model, its pools and
        the draft worker are up: the asserts of PrefillDelayer.__init__ that read only the server args (server_args.X
        or get_schedule().X), compiled from the release's file; and whether init_schedule_policy skips the delayer on
        a decode worker (0.5.11+: an `if` on disaggregation_mode == "decode" around it). See delayer()."""
        self.delayer_stmts, self.delayer_skips_decode = [], False
        path = os.path.join(self.root, "sglang/srt/managers/prefill_delayer.py")
        meth = _method(path, "PrefillDelayer", "__init__") if os.path.exists(path) else None
        if meth is None:
            return
        self.delayer_stmts = [compile(ast.Module([st], []), path, "exec") for st in ast.walk(meth)
                              if isinstance(st, ast.Assert) and _loads(st.test) <= {"server_args", "get_schedule"}]
        policy = _method(os.path.join(self.root, "sglang/srt/managers/scheduler.py"), "Scheduler",
                         "init_schedule_policy")
        self.delayer_skips_decode = policy is not None and any(
            isinstance(n, ast.If) and "disaggregation_mode" in ast.unparse(n.test) and "'decode'" in ast.unparse(n.test)
            for n in ast.walk(policy))

    def _load_setup(self):
        """The target model load's own refusal of a flag (0.5.20+: the PLE embedding's offload, Qwen4-Exp only): the
        statements of load_model_with_memory_saver's `if not is_draft_worker:` block up to its first `raise`, compiled
        from the release's file and run before the model class is read (load_checks())."""
        self.load_stmts = []
        path = os.path.join(self.root, "sglang/srt/model_executor/model_runner_components/load_model_utils.py")
        fn = next((n for n in _tree(path).body if isinstance(n, ast.FunctionDef)
                   and n.name == "load_model_with_memory_saver"), None) if os.path.exists(path) else None
        block = next((st for st in fn.body if isinstance(st, ast.If) and "is_draft_worker" in ast.unparse(st.test)),
                     None) if fn else None
        if block is None:
            return
        for st in block.body:
            self.load_stmts.append(compile(ast.Module([st], []), path, "exec"))
            if any(isinstance(n, ast.Raise) for n in ast.walk(st)):
                break

    def load_checks(self, view, hf):
        if not self.load_stmts:
            return
        offload = types.SimpleNamespace(ple_offload_embedding=getattr(view, "ple_offload_embedding", None))
        g = {"model_config": types.SimpleNamespace(hf_config=hf),
             "get_exec": lambda: types.SimpleNamespace(offload=offload)}
        for code in self.load_stmts:
            exec(code, g)

    def sbo(self, view, hf):
        """The scheduler's MoE config, before its model worker (Scheduler.init_moe_gemm_config, sglang 0.5.23:
        python/sglang/srt/managers/scheduler.py:991-1005): for a model with one of the per-token expert count
        attributes it lists (its moe_topk_attrs tuple, read from the source), the release's single batch overlap
        statement of layers/moe/utils.py (0.5.13+), run with the GPU's torch.cuda and is_cuda."""
        if not getattr(view, "enable_single_batch_overlap", False):
            return
        sched = _method(os.path.join(self.root, "sglang/srt/managers/scheduler.py"), "Scheduler", "init_moe_gemm_config")
        attrs = next((ast.literal_eval(st.value) for st in ast.walk(sched) if isinstance(st, ast.Assign)
                      and ast.unparse(st.targets[0]) == "moe_topk_attrs"), ()) if sched else ()
        if not any(hasattr(hf, a) for a in attrs):
            return
        path = os.path.join(self.root, "sglang/srt/layers/moe/utils.py")
        outer = next((n for n in ast.walk(_tree(path)) if isinstance(n, ast.If) and "sbo_enabled" in
                      ast.unparse(n.test).lower() and "SBO (single batch overlap)" in ast.unparse(n)), None) \
            if os.path.exists(path) else None
        if outer:  # the flag's test and the platform's guard around the GPU's
            g = load_defs(path, _loads(outer), self.root)
            exec(compile(ast.Module([outer], []), path, "exec"), g,
                 {"moe": types.SimpleNamespace(sbo_enabled=True), "IS_SBO_ENABLED": True})

    def lplb(self, view, hf):
        """The LP dispatch's solvers, which the target's model runner builds first in its initialize, before it
        loads the model (sglang 0.5.23: python/sglang/srt/model_executor/model_runner.py:709, :782-784): the
        release's assert_lplb_supported_model (eplb/lplb_solver.py, 0.5.14+) on the config's first
        architecture."""
        path = os.path.join(self.root, "sglang/srt/eplb/lplb_solver.py")
        if getattr(view, "ep_dispatch_algorithm", None) != "lp" or not os.path.exists(path):
            return
        archs = getattr(hf, "architectures", None)
        if archs:
            load_defs(path, {"assert_lplb_supported_model"}, self.root)["assert_lplb_supported_model"](archs[0])

    def lora_manager(self, args, view):
        """The target's LoRA manager, built after the model's load and before the KV dtype is configured
        (ModelRunner.initialize; sglang 0.5.23: python/sglang/srt/model_executor/model_runner.py:715, 733, 735):
        LoRAManager.__init__'s refusals ahead of its init_state call, the release's own `if ...: raise`
        statements (0.5.21+: DP attention with overlap loading, with an attention TP or CP group wider than
        one, with a LoRA backend whose class does not support DP attention). They read the parallel widths,
        set here from the resolved args as the release derives them, and two class attributes, read from the
        release's source. What init_state does next (adapters, target modules, the LoRA pool) the oracle
        does not run: kvcheck declines a worker with LoRA on there. 0.5.19+ resolve enable_lora in
        check_server_args (--lora-paths turns it on), after the view was taken: the view is taken again."""
        if self.resolved_view:
            view = self.resolved_view(args)
        if not getattr(view, "enable_lora", False):
            return
        lora = os.path.join(self.root, "sglang/srt/lora")
        path = os.path.join(lora, "lora_manager.py")
        init = _method(path, "LoRAManager", "__init__") if os.path.exists(path) else None
        stmts = []
        for st in init.body if init else ():
            if "self.init_state(" in ast.unparse(st):
                break
            if isinstance(st, ast.If) and isinstance(st.body[0], ast.Raise):
                stmts.append(compile(ast.Module([st], []), path, "exec"))
        if not stmts:
            return
        cp = getattr(view, "attn_cp_size", 1) or 1
        if hasattr(view, "attn_dp_size"):  # 0.5.22+: runtime_context's attn_dp_enabled_of
            enabled = view.attn_dp_size > 1 or getattr(view, "ep_join_mode", None) == "scale"
        else:  # 0.5.21: the flag
            enabled = bool(view.enable_dp_attention)
        backend = _class_attr(lora, _backend_class(lora, view.lora_backend), "supports_dp_attention")
        me = types.SimpleNamespace(attn_dp_enabled=enabled, enable_dp_attention=enabled, attn_tp_size=_attn_tp(view),
                                   enable_lora_overlap_loading=getattr(view, "enable_lora_overlap_loading", False),
                                   lora_backend=types.SimpleNamespace(supports_dp_attention=backend))
        pool = types.SimpleNamespace(supports_dp_attention_overlap_loading=_class_attr(
            lora, "LoRAMemoryPool", "supports_dp_attention_overlap_loading"))
        g = {"get_parallel": lambda: types.SimpleNamespace(attn_cp_size=cp), "LoRAMemoryPool": pool}
        for code in stmts:
            exec(code, g, {"self": me, "lora_backend": view.lora_backend})

    def delayer(self, view):
        if not self.delayer_stmts or not getattr(view, "enable_prefill_delayer", False):
            return
        if self.delayer_skips_decode and view.disaggregation_mode == "decode":
            return
        g = {"server_args": view, "get_schedule": lambda: view}
        for code in self.delayer_stmts:
            exec(code, g)

    def staging(self, view):
        """A PD worker's bootstrap (prefill) or prealloc (decode) queue, built when the scheduler sets up
        disaggregation, before its KV manager: the release's `if` that refuses SGLANG_DISAGG_STAGING_BUFFER for an
        MLA pool (0.5.11+; sglang 0.5.23: python/sglang/srt/disaggregation/prefill.py:220-224, decode.py:452-457),
        run with the release's envs; every model the oracle runs keeps an MLA pool."""
        mode = getattr(view, "disaggregation_mode", None)
        path = os.path.join(self.root, f"sglang/srt/disaggregation/{mode}.py")
        if mode not in ("prefill", "decode") or not os.path.exists(path):
            return
        found = next((n for n in ast.walk(_tree(path)) if isinstance(n, ast.If) and "STAGING" in
                      ast.unparse(n.test).upper() and "designed for non-MLA models" in ast.unparse(n)), None)
        if found:
            g = load_defs(path, _loads(found) | {"envs"}, self.root)
            me = types.SimpleNamespace(is_mla_backend=True, enable_staging=g["envs"].SGLANG_DISAGG_STAGING_BUFFER.get())
            exec(compile(ast.Module([found], []), path, "exec"), g, {"self": me})

    # ------------------------------------------------------------ one case
    def run(self, model_cfg, argv, spec=False):
        """-> dict: {"ok": {...}} or {"refused": text}. Each case starts from the environment the process started
        with: SGLang's handlers set variables (SGLANG_MOE_NVFP4_DISPATCH for FlashInfer's all-to-all backend, ...)
        that a later case in the same process would otherwise read, and a fresh server would not have."""
        env = dict(os.environ)
        # the DSA page on ROCm reads the environment through a cached gate (0.5.12+): a case with its own
        # environment must not get an earlier case's answer
        for m in [m for n, m in list(sys.modules.items()) if n.startswith("sglang.srt.layers.attention.")]:
            gate = getattr(m, "aiter_can_use_preshuffle_paged_mqa", None)
            if hasattr(gate, "cache_clear"):
                gate.cache_clear()
        try:
            return self._run(model_cfg, argv, spec)
        finally:
            os.environ.clear()
            os.environ.update(env)

    def _run(self, model_cfg, argv, spec):
        self.cfg = HFConfig(model_cfg)
        self.view = None  # the resolved server args of an accepted case (pairs.py reads them)
        self.runner_view = None
        self.target_model = None  # the target model runner's model (its quant_config), once loaded
        argv = ["--model-path", "/fake/model"] + argv
        stage = "args"
        out = {}
        try:
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                ns = self.parser.parse_args(argv)
                args = self.sa.ServerArgs.from_cli_args(ns)
                if hasattr(args, "resolve_once"):
                    args.resolve_once()
                view = self.resolved_view(args) if self.resolved_view else args
                args.check_server_args()
                o = {"kv_cache_dtype": view.kv_cache_dtype, "page_size": view.page_size}
                for k in ("dsa_prefill_backend", "nsa_prefill_backend", "nsa_prefill"):
                    if hasattr(view, k):
                        o["prefill"] = getattr(view, k)
                        break
                for k in ("dsa_decode_backend", "nsa_decode_backend", "nsa_decode"):
                    if hasattr(view, k):
                        o["decode"] = getattr(view, k)
                        break
                if not hasattr(view, "dsa_prefill_backend"):
                    view = _Alias(view)
                stage = "init"
                sa = self.runner_args(args, view)
                hf = self.getcfg()
                self.sbo(view, hf)  # the scheduler's MoE config, before its model worker
                self.lplb(view, hf)  # the model runner's initialize, before the model's load
                self.load_checks(view, hf)  # the target's load, before its architecture is read
                self.model_class(types.SimpleNamespace(  # the ModelConfig fields it reads
                    hf_config=hf, hf_text_config=hf, is_generation=True, is_multimodal=False, quantization=None,
                    model_impl=getattr(view, "model_impl", "auto"), model_path="/fake/model", revision=None))
                self.target_model = types.SimpleNamespace(quant_config=self.quant_check(sa))
                self.lora_manager(args, view)  # after the model's load, before its KV dtype
                kvd, _ = self.kv_torch_dtype(view, model_dtype=self.model_dtype(sa), model=self.target_model)
                dim, o["row"] = self.row(view, kvd, hf)
                fp4 = self.fp4_pool(kvd, hf, dim)
                if fp4:
                    o["row"], o["scale_row"] = fp4
                v4 = getattr(self.mc, "is_deepseek_v4", None)
                if v4 and v4(hf):  # its own pools, which the oracle does not build (DSV4.md): no row
                    o["row"] = "-"
                    o.pop("scale_row", None)
                o["torch_dtype"] = kvd.name
                self.init_checks(view, kvd, dim, hf)
                self.build_backends(args, sa)
                self.runner_view = sa  # what a draft runner reads of the process's server args (draft_model)
                if spec and getattr(view, "speculative_algorithm", None) != "NGRAM":  # NGRAM runs no draft model
                    o["draft"] = self.draft(args, view)
                    if str(view.speculative_algorithm).split(".")[-1] in ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE"):
                        self.draft_worker(args, view)
                self.delayer(view)  # the scheduler's schedule policy, after the model worker and its pools
                self.staging(view)  # then its disaggregation queue, before its KV manager
            out["ok"] = o
            self.view = view
        except ArgparseRefusal as e:
            out["refused"] = f"argparse: {e}"
        except OracleBroken as e:
            out["refused"] = f"oracle: {e}"
        except SystemExit as e:
            out["refused"] = f"exit {e}"
        except BaseException as e:
            msg = f"{type(e).__name__}: {e}"
            who = raised_by(e, self.root)
            if who != "sglang":  # a stub or the oracle failing is no refusal of SGLang's
                out["refused"] = f"oracle: {msg} (raised in {who})"
            else:
                out["refused"] = ("init: " + msg) if stage == "init" else msg
        return out

    def draft(self, args, view):
        """The draft worker's (architecture, KV torch dtype, row bytes), or a note."""
        if getattr(view, "speculative_draft_model_path", None) in self.drafts:
            return self.draft_model(args, view)
        try:
            dmc = self.mc.ModelConfig.from_server_args(
                args, model_path=getattr(view, "speculative_draft_model_path", None) or "/fake/model",
                is_draft_model=True)
            hf = dmc.hf_config
        except BaseException as e:
            return {"note": f"draft model config: {type(e).__name__}: {e}"[:200]}
        try:
            # the MTP draft's model keeps its own checkpoint's quantization config
            model = types.SimpleNamespace(quant_config=self.quant_config(dmc))
            kvd, _ = self.kv_torch_dtype(view, draft=True, model_dtype=dmc.dtype, model=model)
            dim, b = self.row(view, kvd, hf)
            fp4 = self.fp4_pool(kvd, hf, dim)
            if fp4:
                return {"arch": hf.architectures[0], "torch_dtype": kvd.name, "row": fp4[0], "scale_row": fp4[1]}
            return {"arch": hf.architectures[0], "torch_dtype": kvd.name, "row": b}
        except BaseException as e:
            return {"arch": hf.architectures[0], "note": f"{type(e).__name__}: {e}"[:200]}


    # ------------------------------------------------ separate draft models
    # EAGLE3 / STANDALONE with --speculative-draft-model-path: the draft runner
    # builds its own pool from the draft's own config (DRAFT_POOL.md). What
    # runs here (DRAFT_SPOTCHECK.md has the method and its first results):
    # the release's ModelConfig(is_draft_model=True) on the draft's config,
    # its get_num_kv_heads / head_dim / v_head_dim / dtype, the release's
    # KV-dtype code with the draft model's dtype as the model dtype, and three
    # draft-init refusals executed from the release's source, in the model
    # runner's order: llama_eagle3.py's one-layer check (the model), then the
    # DSA (NSA) backend's "only supports DeepSeek DSA" assertion when the
    # draft runs that backend, or the asserts of the draft backend's factory
    # in attention_registry.py (the attention backend). Not run:
    # the pool allocation, the rest of the backend and model constructors,
    # weight loading (so a checkpoint's kv_cache_quant_algo), the attention-TP
    # computation (the releases' formula, below).
    def add_draft(self, path, cfg):
        """Serve cfg (config.json fields) for the draft model path `path`
        (HFConfig adds what transformers' config class does)."""
        self.drafts[path] = dict(cfg)

    def _release_stmts(self, path, msg, ahead_names=()):
        """The release's own statement (in any function body) whose source has
        msg (an assert, a raise, or an `if` whose body raises), with the plain
        assignments to ahead_names just before it, compiled with the
        module-level names they use; None when the release has none."""
        if not os.path.exists(path):
            return None
        for node in ast.walk(_tree(path)):
            body = getattr(node, "body", None)
            if not isinstance(body, list):
                continue
            for i, st in enumerate(body):
                if msg not in ast.unparse(st) or isinstance(st, (ast.FunctionDef, ast.ClassDef)):
                    continue
                if isinstance(st, ast.If) and not isinstance(st.body[0], ast.Raise):
                    continue
                ahead = [x for x in body[max(0, i - 2):i] if isinstance(x, ast.Assign)
                         and ast.unparse(x.targets[0]) in ahead_names]
                sts = ahead + [st]
                ns = load_defs(path, set().union(*(_loads(x) for x in sts)), self.root)
                return [compile(ast.Module([x], []), path, "exec") for x in sts], ns
        return None

    def _registry(self):
        """{backend: the release's factory function node} of
        layers/attention/attention_registry.py (@register_attention_backend)."""
        if getattr(self, "_reg", None) is None:
            path = os.path.join(self.root, "sglang/srt/layers/attention/attention_registry.py")
            self._reg = {dec.args[0].value: fn for fn in (_tree(path).body if os.path.exists(path) else ())
                         if isinstance(fn, ast.FunctionDef) for dec in fn.decorator_list
                         if isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], ast.Constant)}
        return self._reg

    def _factory_checks(self, backend):
        """The refusing statements of the release's attention-backend factory
        for `backend` (layers/attention/attention_registry.py,
        @register_attention_backend(backend)): its asserts and raises at
        function level or under `if not _is_musa:`, the `if` statements at
        that level whose body starts with a raise, with the imports and the
        device-capability assignments ahead of them; None without any."""
        path = os.path.join(self.root, "sglang/srt/layers/attention/attention_registry.py")
        fn = self._registry().get(backend)
        if fn is None:
            return None
        flat = []
        for st in fn.body:
            flat += st.body if isinstance(st, ast.If) and ast.unparse(st.test) == "not _is_musa" else [st]
        def refusing(st):  # an assert, a raise, or an `if` that starts with one or holds only those and assignments
            if isinstance(st, (ast.Assert, ast.Raise)):
                return True
            return isinstance(st, ast.If) and (isinstance(st.body[0], ast.Raise) or any(refusing(x) for x in st.body)
                                               and all(refusing(x) or isinstance(x, ast.Assign) for x in st.body))
        read = set().union(*(_loads(st) for st in flat if refusing(st)))
        names = lambda st: {n.id for t in st.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        keep = [st for st in flat if refusing(st) or isinstance(st, ast.Import) or
                isinstance(st, ast.Assign) and all(isinstance(t, (ast.Name, ast.Tuple)) for t in st.targets)
                and ("get_device_capability" in ast.unparse(st.value) or names(st) & read)]
        if not any(refusing(st) for st in keep):
            return None
        ns = load_defs(path, set().union(*(_loads(x) for x in keep)) | {"torch"}, self.root)
        return [compile(ast.Module([x], []), path, "exec") for x in keep], ns

    def _adjust_stmts(self):
        """ModelRunner.model_specific_adjustment's statements that settle the
        attention backend at model init (releases that pick it there, up to
        0.5.4): its top-level `if`s whose test reads an attention backend
        flag and which assign server_args.attention_backend or raise (the
        equal-sides override, the default or the "Invalid attention backend
        for MLA" check, fa3 with fp8_e5m2), and HiCache's, which gives an
        unset decode side a backend its kernel io serves (sglang 0.5.4:
        model_executor/model_runner.py:650-669). () where the release has
        none."""
        path = os.path.join(self.root, "sglang/srt/model_executor/model_runner.py")
        fn = _method(path, "ModelRunner", "model_specific_adjustment") if os.path.exists(path) else None
        if fn is None or "Invalid attention backend for MLA" not in ast.unparse(fn):
            return ()

        def assigns(st, target):
            return any(isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == target for n in ast.walk(st))

        keep = [st for st in fn.body if isinstance(st, ast.If) and (
                "attention_backend" in ast.unparse(st.test) and
                (assigns(st, "server_args.attention_backend") or any(isinstance(n, ast.Raise) for n in ast.walk(st)))
                or "enable_hierarchical_cache" in ast.unparse(st.test) and
                assigns(st, "server_args.decode_attention_backend"))]
        ns = load_defs(path, set().union(*(_loads(x) for x in keep)), self.root)
        return [compile(ast.Module([x], []), path, "exec") for x in keep], ns

    def runner_args(self, args, view):
        """The server args the model runner reads: up to 0.5.4 after
        model_specific_adjustment's attention statements (_adjust_stmts),
        which ModelRunner.__init__ runs before it loads the model (sglang
        0.5.4: model_executor/model_runner.py:291, 318); else `view`."""
        if getattr(self, "_adjust", None) is None:
            self._adjust = self._adjust_stmts()
        if not self._adjust:
            return view
        sa = copy.copy(args)  # the statements assign to it
        self._run_stmts(self._adjust, {"self": self._runner(args, sa), "server_args": sa})
        return sa

    def model_dtype(self, sa):
        """The dtype the release runs the target model in: its ModelConfig's
        (_get_and_verify_dtype over --dtype, as the server args resolved it,
        and the config's dtype)."""
        try:
            return self.mc.ModelConfig.from_server_args(sa, model_path="/fake/model").dtype
        except ValueError:
            raise  # SGLang's own refusal (_verify_quantization's, say)
        except BaseException as e:
            raise OracleBroken(f"ModelConfig: {type(e).__name__}: {e}") from e

    def quant_check(self, sa):
        """The model loader's check of the target's quantization method, next
        after the model class (sglang 0.5.23: model_loader/loader.py:221-272):
        quant_config on the target's ModelConfig. Returns the quantization
        config the model keeps."""
        try:
            mc = self.mc.ModelConfig.from_server_args(sa, model_path="/fake/model")
        except ValueError:
            raise  # SGLang's own refusal: _verify_quantization's of a --quantization the checkpoint's differs from
        except BaseException as e:
            raise OracleBroken(f"ModelConfig: {type(e).__name__}: {e}") from e
        return self.quant_config(mc)

    def quant_config(self, mc):
        """The release's own _get_quantization_config on ModelConfig mc,
        which refuses a GPU below the method's minimum capability and a model
        dtype outside the method's activation dtypes, and returns the
        quantization config (None without a method): the model's
        quant_config. The checkpoint's quantization config is the
        config.json's (no weight files are read). Its model-class lookup is
        the oracle's (_model_class_setup)."""
        import importlib
        try:
            loader = importlib.import_module("sglang.srt.model_loader.loader")
            fn = loader._get_quantization_config
            # it looks up the model class itself (0.5.9+): the oracle's, on the release's registry names
            loader.get_model_architecture = self.model_class
            cq = sys.modules.get("sglang.srt.model_loader.checkpoint_quantization")  # 0.5.23: PretrainedConfig checks
            if cq is not None:
                cq.PretrainedConfig = HFConfig
            load = importlib.import_module("sglang.srt.configs.load_config").LoadConfig()
        except BaseException as e:
            raise OracleBroken(f"model loader: {type(e).__name__}: {e}") from e
        extra = {"packed_modules_mapping": {}, "remap_prefix": None}
        kw = {k: v for k, v in extra.items() if k in inspect.signature(fn).parameters}
        try:
            return fn(mc, load, **kw)
        except ValueError:
            raise
        except BaseException as e:
            if raised_by(e, self.root) == "sglang":  # the release's config class crashing on the config
                raise
            raise OracleBroken(f"model loader: {type(e).__name__}: {e}") from e

    def _runner(self, args, sa, draft=False):
        """The target's (draft: its MTP draft's) model runner's fields the
        attention statements read."""
        try:
            mc = self.mc.ModelConfig.from_server_args(args, model_path="/fake/model", is_draft_model=draft)
        except BaseException as e:
            raise OracleBroken(f"ModelConfig: {type(e).__name__}: {e}") from e
        return types.SimpleNamespace(use_mla_backend=getattr(mc.attention_arch, "name", "") == "MLA",
                                     model_config=mc, server_args=sa, tp_size=sa.tp_size, is_multimodal=False,
                                     mem_fraction_static=0.9)

    def built(self, sa):
        """The attention backends a model runner builds, in its order: the
        decode and the prefill one (each the side's flag else
        attention_backend) where they differ, else one: attention_backend
        where the release builds it (up to 0.5.17: "server_args.attention_backend"
        in that call), else the prefill side."""
        pre = sa.prefill_attention_backend or sa.attention_backend
        dec = sa.decode_attention_backend or sa.attention_backend
        if dec != pre:
            return [dec, pre]
        if getattr(self, "_builds_whole", None) is None:
            path = os.path.join(self.root, "sglang/srt/model_executor/model_runner_components/attention_backend_setup.py")
            if not os.path.exists(path):
                path = os.path.join(self.root, "sglang/srt/model_executor/model_runner.py")
            self._builds_whole = re.search(r"backend_str=model_runner\.server_args\.attention_backend|"
                                           r"_get_attention_backend_from_str\(\s*self\.server_args\.attention_backend",
                                           open(path).read()) is not None
        return [sa.attention_backend if self._builds_whole else pre]

    def check_backend(self, b, runner, sa):
        """One backend a runner builds: a name the release's registry lacks is
        _get_attention_backend_from_str's "Invalid attention backend"
        refusal, else the factory's own checks (_factory_checks) run; the DSA
        (NSA) backend's constructor then asserts that the runner's model is
        DSA ("only supports DeepSeek DSA", run from the release's source on
        the runner's hf_config)."""
        if b not in self._registry():
            raise SGLangRefusal(f"Invalid attention backend: {b}")
        found = self._factory_checks(b)
        if found:
            spec = types.SimpleNamespace(speculative_algorithm=sa.speculative_algorithm)
            par = types.SimpleNamespace(dcp_enabled=(getattr(sa, "dcp_size", 1) or 1) > 1)
            found = (found[0], dict(found[1], get_spec=lambda: spec, get_parallel=lambda: par))
        self._run_stmts(found, {"runner": runner})
        if b not in ("nsa", "dsa"):
            return
        if self._dsa_assert is None:
            att = os.path.join(self.root, "sglang/srt/layers/attention")
            self._dsa_assert = (
                self._release_stmts(os.path.join(att, "dsa_backend.py"), "only supports DeepSeek DSA",
                                    ("hf_config", "self.use_dsa"))
                or self._release_stmts(os.path.join(att, "nsa_backend.py"), "only supports DeepSeek NSA",
                                       ("hf_config", "self.use_nsa")))
        mr = types.SimpleNamespace(model_config=types.SimpleNamespace(hf_config=runner.model_config.hf_config))
        self._run_stmts(self._dsa_assert, {"self": types.SimpleNamespace(), "model_runner": mr})

    def build_backends(self, args, sa):
        """The attention backends the target's model runner builds after the
        KV pool (built), each through check_backend."""
        runner = self._runner(args, sa)
        for b in self.built(sa):
            self.check_backend(b, runner, sa)

    @staticmethod
    def _run_stmts(found, loc):
        """Run the release's statements: its AssertionError/ValueError is
        SGLang's refusal (raised on); anything else is the harness failing."""
        if found is None:
            return
        codes, ns = found
        try:
            for c in codes:
                exec(c, dict(ns), loc)
        except (AssertionError, ValueError, NotImplementedError):
            raise
        except BaseException as e:
            raise OracleBroken(f"{type(e).__name__}: {e}") from e

    def draft_model(self, args, view):
        """A separate draft model's pool: {"arch", "torch_dtype", "pool":
        "LAYERSxKV_HEADSxHEAD_DIM[/V_HEAD_DIM]"}; SGLang's refusals raise."""
        import torch
        try:
            dmc = self.mc.ModelConfig.from_server_args(args, model_path=view.speculative_draft_model_path,
                                                       is_draft_model=True)
        except (AssertionError, ValueError, NotImplementedError):
            raise
        except BaseException as e:
            raise OracleBroken(f"draft ModelConfig: {type(e).__name__}: {e}") from e
        hf = dmc.hf_config
        attn_tp = _attn_tp(view)  # the attention-TP size the draft's KV heads are split over (DRAFT_POOL.md §3)
        # the draft's model class first: ModelRunner.initialize loads the model before it builds the
        # attention backend (sglang 0.5.8: python/sglang/srt/model_executor/model_runner.py:460, 573)
        if hf.architectures[0] == "LlamaForCausalLMEagle3":
            found = self._release_stmts(os.path.join(self.root, "sglang/srt/models/llama_eagle3.py"),
                                        "EAGLE3 currently only supports 1 layer")
            self._run_stmts(found, {"self": types.SimpleNamespace(config=hf)})
        # the draft runner's attention backend (model_runner._get_attention_backend): its own
        # flag (0.5.7+), else what the process's server args build (built: the target's model runner
        # has settled them up to 0.5.4)
        sa = self.runner_view or view
        own = getattr(view, "speculative_draft_attention_backend", None)
        # in its order (decode, then prefill where they differ), each through check_backend
        runner = types.SimpleNamespace(use_mla_backend=getattr(dmc.attention_arch, "name", "") == "MLA",
                                       model_config=types.SimpleNamespace(is_encoder_decoder=False, hf_config=hf),
                                       server_args=view)
        for b in [own] if own else self.built(sa):
            self.check_backend(b, runner, view)
        # the draft runner's KV dtype: the release's code with the draft model's dtype
        # (model=None: a checkpoint quant config's kv_cache_quant_algo is not seen)
        kvd, _ = self.kv_torch_dtype(view, draft=True, model_dtype=getattr(dmc, "dtype", torch.bfloat16))
        layers = getattr(hf, "num_nextn_predict_layers", None) or hf.num_hidden_layers
        D, Dv = dmc.head_dim, getattr(dmc, "v_head_dim", None) or dmc.head_dim
        pool = f"{layers}x{dmc.get_num_kv_heads(attn_tp)}x{D}" + (f"/{Dv}" if Dv != D else "")
        return {"arch": hf.architectures[0], "torch_dtype": kvd.name, "pool": pool}


    def _draft_factory(self):
        """The EAGLE draft worker's backend factory (speculative/draft_utils.py, or
        eagle_worker.py's methods up to 0.5.3.post1): for its decode and its
        draft-extend backend, the names its map takes, its error template and
        the early return of the decode one (compiled, or None); whether it reads
        the draft's own backend (draft_attn_backend)."""
        sp = os.path.join(self.root, "sglang/srt/speculative")
        path = os.path.join(sp, "draft_utils.py")
        if not os.path.exists(path):
            path = os.path.join(sp, "eagle_worker.py")
        fns = {n.name.lstrip("_"): n for n in ast.walk(_tree(path)) if isinstance(n, ast.FunctionDef)}
        out = {}
        for kind in ("create_decode_backend", "create_draft_extend_backend"):
            fn = fns[kind]
            keys = {k.value for d in ast.walk(fn) if isinstance(d, ast.Dict) for k in d.keys
                    if isinstance(k, ast.Constant)}
            template = next(a.value for c in ast.walk(fn) if isinstance(c, ast.Call) and
                            ast.unparse(c.func).endswith("_create_backend") for a in c.args
                            if isinstance(a, ast.Constant) and "{backend_type}" in str(a.value))
            early = next((compile(ast.Expression(st.test), path, "eval") for st in fn.body if isinstance(st, ast.If)
                          and "speculative_num_steps" in ast.unparse(st.test)), None)
            out[kind] = (keys, template, early)
        out["own"] = "draft_attn_backend" in ast.unparse(fns["create_backend"])
        return out

    def draft_worker(self, args, view):
        """The EAGLE draft worker's attention backends. A draft of the target's
        own layers (MTP) has its model runner build its own backend, else the
        target's, with the draft's model config, each through check_backend (a
        separate draft's model runner does so in draft_model). Then, built after
        its model runner (EAGLEWorker.init_attention_backend, DraftBackendFactory): a
        multi-step decode backend unless the early return holds (or the
        worker is the multi-layer one), then a
        draft-extend one, each the draft's own backend (where the factory
        reads it), else the side's (decode; for the draft extend the prefill
        side unless speculative_attention_mode is decode), else the attention
        backend, from the settled args (runner_view); a name outside the
        factory's map is its ValueError."""
        if getattr(self, "_dfac", None) is None:
            self._dfac = self._draft_factory()
        f, sa = self._dfac, self.runner_view
        own_flag = getattr(view, "speculative_draft_attention_backend", None)
        if getattr(view, "speculative_draft_model_path", None) not in self.drafts:
            runner = self._runner(args, sa, draft=True)
            for b in [own_flag] if own_flag else self.built(sa):
                self.check_backend(b, runner, view)
        pre = sa.prefill_attention_backend or sa.attention_backend
        dec = sa.decode_attention_backend or sa.attention_backend
        own = getattr(view, "speculative_draft_attention_backend", None) if f["own"] else None
        mode = getattr(view, "speculative_attention_mode", "prefill")
        for kind, side in (("create_decode_backend", dec),
                           ("create_draft_extend_backend", dec if mode == "decode" else pre)):
            keys, template, early = f[kind]
            # MultiLayerEagleWorker builds draft-extend backends only (sglang 0.5.7:
            # python/sglang/srt/speculative/multi_layer_eagle_worker.py:191-204)
            if kind == "create_decode_backend" and getattr(view, "enable_multi_layer_eagle", False):
                continue
            if early is not None and eval(early, {}, {"self": types.SimpleNamespace(
                    speculative_num_steps=view.speculative_num_steps)}):
                continue
            backend = own or side
            if backend not in keys:
                raise SGLangRefusal(template.format(backend_type=backend))


class OracleBroken(Exception):
    """The harness failed (not SGLang refusing): recorded as `oracle: ...`,
    which tables.py will not write into a table."""


class SGLangRefusal(ValueError):
    """A release's refusal that the oracle raises in the release's own words
    where it runs the release's check by other means (its backend registry
    looked up, its factory's map of backends)."""


def raised_by(e, root):
    """Who raised exception e: "sglang" where the innermost of its frames
    that lie in the release's tree (`root`: its files, and the statements
    the oracle compiled from them) or in the oracle's own files is the
    release's, or e is an SGLangRefusal; else the oracle's file
    ("stubs.py", "oracle.py") it came from. Frames of the standard library
    and site-packages are passed over: a ValueError that enum.py raises for
    the release's code is the release's. An AttributeError on an object the
    oracle made (a SimpleNamespace, a class of its files: HFConfig, the
    stubs) is the oracle's, wherever it was raised: the release's code
    asked the stand-in for something it does not have."""
    if isinstance(e, SGLangRefusal):
        return "sglang"
    obj = getattr(e, "obj", None) if isinstance(e, AttributeError) else None
    if obj is not None:
        cls = obj if isinstance(obj, type) else type(obj)
        mod = getattr(sys.modules.get(cls.__module__), "__file__", None) or ""
        if cls is types.SimpleNamespace or os.path.realpath(mod).startswith(os.path.realpath(HERE) + os.sep):
            return "oracle.py" if cls is types.SimpleNamespace else os.path.basename(mod)
    frames = []
    tb = e.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.startswith("<"):  # "<string>", "<frozen ...>": no file, whatever the working directory
            frames.append(os.path.realpath(name))
        tb = tb.tb_next
    root, here = os.path.realpath(root) + os.sep, os.path.realpath(HERE) + os.sep
    for f in reversed(frames):
        if f.startswith(root):
            return "sglang"
        if f.startswith(here):
            return os.path.basename(f)
    return "sglang"


class _Alias:
    """Releases before 0.5.13 name the backends nsa_*; expose them as dsa_* too."""
    def __init__(self, v): self.__dict__["_v"] = v
    def __getattr__(self, k):
        v = self.__dict__["_v"]
        if k.startswith("dsa_") and not hasattr(v, k):
            for alt in ("nsa_" + k[4:], "nsa_" + k[4:].replace("_backend", "")):
                if hasattr(v, alt):
                    return getattr(v, alt)
        return getattr(v, k)


def _files(root, sub):
    for d, _, fs in os.walk(os.path.join(root, sub)):
        for f in fs:
            if f.endswith(".py"):
                yield os.path.join(d, f)


_AST = {}


def _tree(path):
    if path not in _AST:
        _AST[path] = ast.parse(open(path, encoding="utf-8-sig").read(), path)
    return _AST[path]


def entry_classes(models_dir):
    """The class names the release's models package lists as EntryClass
    (models/registry.py import_model_classes: top-level modules only)."""
    names = set()
    for f in sorted(os.listdir(models_dir)):
        if not f.endswith(".py"):
            continue
        for st in _tree(os.path.join(models_dir, f)).body:
            targets = st.targets if isinstance(st, ast.Assign) else [getattr(st, "target", None)]
            if any(isinstance(t, ast.Name) and t.id == "EntryClass" for t in targets):
                names |= {n.id for n in ast.walk(st.value) if isinstance(n, ast.Name)}
    return names


def _method(path, cls, name):
    """The FunctionDef (async too) of cls.name in the file at path (source line numbers kept), of the
    first class that has one when cls is None; None when there is none."""
    for n in _tree(path).body:
        if isinstance(n, ast.ClassDef) and cls in (None, n.name):
            for f in n.body:
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == name:
                    return f
    return None


def _loads(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _binds(st):
    if isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
        return {st.name}
    if isinstance(st, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in st.names}
    if isinstance(st, (ast.Assign, ast.AnnAssign)):
        ts = st.targets if isinstance(st, ast.Assign) else [st.target]
        return {n.id for t in ts for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _attn_tp(view):
    """The attention-TP size of the resolved args: 0.5.22+ tp // attn_dp_size // attn_cp_size
    (runtime_context.derive_attn_tp_size), before that tp // dp with DP attention (layers/dp_attention.py),
    / attn_cp_size from 0.5.9."""
    tp, cp = view.tp_size, getattr(view, "attn_cp_size", 1) or 1
    if hasattr(view, "attn_dp_size"):
        return tp // view.attn_dp_size // cp
    return (tp // view.dp_size if view.enable_dp_attention else tp) // cp


def _backend_class(lora, name):
    """The LoRA backend class registered as `name`: the class its @register_lora_backend(name) factory imports
    (backend/lora_registry.py); None where the registry has no such name, or the release has no registry."""
    path = os.path.join(lora, "backend", "lora_registry.py")
    for fn in _tree(path).body if os.path.exists(path) else ():
        if isinstance(fn, ast.FunctionDef) and any(isinstance(d, ast.Call) and d.args and
                                                   getattr(d.args[0], "value", None) == name
                                                   for d in fn.decorator_list):
            for n in ast.walk(fn):
                if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("sglang.srt.lora."):
                    return n.names[0].name
    return None


def _class_attr(lora, cls, attr):
    """The constant class attribute `attr` of the class named cls among the classes of the files under lora/, else
    of its bases, followed by name (BaseLoRABackend, TritonLoRABackend, ...); False where none assigns it."""
    classes = {}
    for root, _, files in sorted(os.walk(lora)):
        for f in sorted(files):
            if f.endswith(".py"):
                for n in _tree(os.path.join(root, f)).body:
                    if isinstance(n, ast.ClassDef):
                        classes.setdefault(n.name, n)
    todo = [classes[cls]] if cls in classes else []
    while todo:
        n = todo.pop(0)
        for st in n.body:
            tgt = getattr(st, "target", None) or (st.targets[0] if isinstance(st, ast.Assign) else None)
            if isinstance(tgt, ast.Name) and tgt.id == attr and isinstance(st.value, ast.Constant):
                return st.value.value
        todo += [classes[b.id] for b in n.bases if isinstance(b, ast.Name) and b.id in classes]
    return False


def load_defs(path, want, root, base=None):
    """Execute only the module-level statements of the file at path that
    (transitively) bind the names in want; imports that fail are skipped.
    Avoids importing a whole module whose unrelated imports need CUDA.
    `base`: names the namespace starts with (e.g. __builtins__)."""
    body = _tree(path).body
    need, chosen = set(want), set()
    changed = True
    while changed:
        changed = False
        for i, st in enumerate(body):
            if i not in chosen and _binds(st) & need:
                chosen.add(i)
                need |= _loads(st)
                changed = True
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    ns = dict(base or {}, __name__=rel, __file__=path, __package__=rel.rsplit(".", 1)[0])
    for i in sorted(chosen):
        try:
            exec(compile(ast.Module([body[i]], []), path, "exec"), ns)
        except Exception:
            pass
    return ns


def _find_kv_dtype_chain(fn):
    for n in ast.walk(fn):
        if isinstance(n, ast.If) and "self.server_args.kv_cache_dtype ==" in ast.unparse(n.test) \
                and "'auto'" in ast.unparse(n.test):
            return n
    raise RuntimeError("no kv_cache_dtype if-chain in init_memory_pool")


def _speed_up_msgspec():
    """msgspec.structs.fields re-evaluates type annotations on every call;
    0.5.20+ call it per field record. Cache it per class (same result)."""
    try:
        import msgspec.structs as ms
    except ImportError:
        return
    orig, cache = ms.fields, {}

    def fields(t):
        k = t if isinstance(t, type) else type(t)
        if k not in cache:
            cache[k] = orig(k)
        return cache[k]
    ms.fields = fields
