"""A fake `torch` with the few behaviours SGLang's argument resolution reads."""
import sys, types
from stubs import StubModule, _make

DEVICE = {"cap": (9, 0), "hip": False, "gcn": "", "name": "NVIDIA H200", "count": 8, "mem": 141 * 2**30}

class dtype:
    def __init__(self, name, itemsize, is_fp=True):
        self.name, self.itemsize, self.is_floating_point = name, itemsize, is_fp
    def __repr__(self): return f"torch.{self.name}"
    def __reduce__(self): return (getattr, (sys.modules['torch'], self.name))

class _Torch(StubModule):
    ABSENT = {"npu", "hpu", "xpu", "musa", "mlu", "_npu"}
    def __getattr__(self, name):
        if name in self.ABSENT:
            raise AttributeError(name)
        return StubModule.__getattr__(self, name)

def build():
    t = _Torch("torch")
    t.__path__ = []
    t.__version__ = "2.9.0"
    t.dtype = dtype
    for n, s in [("float32", 4), ("float16", 2), ("bfloat16", 2), ("float64", 8),
                 ("float8_e4m3fn", 1), ("float8_e4m3fnuz", 1), ("float8_e5m2", 1), ("float8_e5m2fnuz", 1),
                 ("float8_e8m0fnu", 1), ("float4_e2m1fn_x2", 1), ("uint8", 1), ("int8", 1), ("int32", 4),
                 ("int64", 8), ("int16", 2), ("uint64", 8), ("uint32", 4), ("bool", 1)]:
        setattr(t, n, dtype(n, s))
    for alias, n in [("float", "float32"), ("half", "float16"), ("long", "int64"), ("int", "int32")]:
        setattr(t, alias, getattr(t, n))  # torch's aliases are the same dtype object, shown by its name
    ver = types.ModuleType("torch.version")
    ver.cuda = None if DEVICE["hip"] else "12.9"
    ver.hip = "6.4" if DEVICE["hip"] else None
    ver.__version__ = t.__version__
    t.version = ver
    cuda = StubModule("torch.cuda"); cuda.__path__ = []
    cuda.is_available = lambda: True
    cuda.get_device_capability = lambda device=None: DEVICE["cap"]
    cuda.device_count = lambda: DEVICE["count"]
    cuda.current_device = lambda: 0
    cuda.get_device_name = lambda device=None: DEVICE["name"]
    class _Props:
        def __init__(self):
            self.name = DEVICE["name"]; self.total_memory = DEVICE["mem"]; self.gcnArchName = DEVICE["gcn"]
            self.major, self.minor = DEVICE["cap"]; self.multi_processor_count = 132
    cuda.get_device_properties = lambda device=None: _Props()
    cuda.mem_get_info = lambda device=None: (DEVICE["mem"], DEVICE["mem"])
    t.cuda = cuda
    t.float8_e4m3fn = t.float8_e4m3fn
    def finfo(d):
        return types.SimpleNamespace(max=448.0 if "e4m3" in d.name else 57344.0, min=-448.0, eps=1e-3, bits=8 * d.itemsize)
    t.finfo = finfo
    t.get_default_dtype = lambda: t.float32
    t.set_default_dtype = lambda d: None
    t.distributed = StubModule("torch.distributed"); t.distributed.__path__ = []
    t.distributed.is_initialized = lambda: False
    t.distributed.is_available = lambda: True
    sys.modules["torch"] = t
    sys.modules["torch.version"] = ver
    sys.modules["torch.cuda"] = cuda
    sys.modules["torch.distributed"] = t.distributed
    return t

def build_triton():
    import types
    tr = StubModule("triton"); tr.__path__ = []; tr.__version__ = "3.5.0"
    target = types.SimpleNamespace(backend="hip" if DEVICE["hip"] else "cuda",
                                   arch=DEVICE["gcn"] or DEVICE["cap"][0] * 10 + DEVICE["cap"][1], warp_size=64 if DEVICE["hip"] else 32)
    rt = StubModule("triton.runtime"); rt.__path__ = []
    drv = types.SimpleNamespace(active=types.SimpleNamespace(get_current_target=lambda: target,
                                                             utils=types.SimpleNamespace(get_device_properties=lambda d: {"multiprocessor_count": 132, "max_shared_mem": 232448})))
    rt.driver = drv
    tr.runtime = rt
    sys.modules["triton"] = tr; sys.modules["triton.runtime"] = rt
    return tr

def build_library(t):
    lib = StubModule("torch.library"); lib.__path__ = []
    class Library:
        def __init__(self, name, kind="FRAGMENT", *a, **k):
            self.ns = name; self.m = types.SimpleNamespace(name=name); self.kind = kind
        def define(self, *a, **k): pass
        def impl(self, *a, **k): pass
        def _register_fake(self, *a, **k): pass
    lib.Library = Library
    lib.infer_schema = lambda *a, **k: "() -> ()"
    def custom_op(*a, **k):
        if a and callable(a[0]) and not isinstance(a[0], str): return a[0]
        return lambda f: f
    lib.custom_op = custom_op
    lib.register_fake = lambda *a, **k: (lambda f: f)
    t.library = lib
    sys.modules["torch.library"] = lib
