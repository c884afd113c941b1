"""Import stubs so SGLang's pure-Python argument resolution can run without
torch/GPU/third-party packages. Anything under STUB_ROOTS (or any top-level
module that cannot be found) becomes a permissive stub module; `torch` gets
a small fake with real-looking dtypes and a configurable device."""
import sys, types, abc, importlib.abc, importlib.machinery, importlib.util, inspect

class _StubMeta(abc.ABCMeta):
    def __new__(mcs, name, bases=(), ns=None, **kw):
        ns = dict(ns or {})
        ns.setdefault("__init_subclass__", classmethod(lambda c, **k: None))
        return super().__new__(mcs, name, bases, ns)
    def __init__(cls, name, bases=(), ns=None, **kw):
        type.__init__(cls, name, bases, ns or {})
    def __getattr__(cls, name):
        if name == "__class_validators__":
            return []
        if name == "__func__":
            return lambda *a, **k: None
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        sub = _make(f"{cls.__name__}.{name}")
        setattr(cls, name, sub)
        return sub
    def __call__(cls, *a, **k):
        if "_is_stub" not in cls.__dict__:
            return type.__call__(cls, *a, **k)
        if len(a) == 1 and not k and (inspect.isfunction(a[0]) or inspect.isclass(a[0]) or inspect.ismethod(a[0])):
            return a[0]
        return cls
    def register(cls, *a, **k):
        if "_is_stub" in cls.__dict__:
            return a[0] if a else cls
        return abc.ABCMeta.register(cls, *a)
    def __getitem__(cls, k): return cls
    def __setitem__(cls, k, v): pass
    def __delitem__(cls, k): pass
    def __add__(cls, o): return cls
    def __radd__(cls, o): return cls
    def __mul__(cls, o): return cls
    def __rmul__(cls, o): return cls
    def __truediv__(cls, o): return cls
    def __neg__(cls): return cls
    def __or__(cls, o): return cls
    def __ror__(cls, o): return cls
    def __iter__(cls): return iter(())
    def __len__(cls): return 0
    def __bool__(cls): return "_is_stub" not in cls.__dict__
    def __int__(cls): return 0
    def __index__(cls): return 0
    def __float__(cls): return 0.0
    def __lt__(cls, o): return False
    def __gt__(cls, o): return False
    def __le__(cls, o): return True
    def __ge__(cls, o): return True
    def __contains__(cls, o): return False
    def __enter__(cls): return cls
    def __exit__(cls, *a): return False
    def __mro_entries__(cls, bases): return (cls,)
    def __repr__(cls): return f"<stub {cls.__name__}>"
    def __get_pydantic_core_schema__(cls, source, handler):
        from pydantic_core import core_schema
        return core_schema.any_schema()
    def __hash__(cls): return id(cls)
    def __eq__(cls, o): return cls is o

def _make(name):
    return _StubMeta(name, (), {"_is_stub": True})

class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        v = _make(f"{self.__name__}.{name}")
        setattr(self, name, v)
        return v

class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        m = StubModule(spec.name)
        m.__path__ = []
        m.__file__ = f"<stub {spec.name}>"
        return m
    def exec_module(self, module):
        pass

STUB_ROOTS = set()
AUTO = False
REAL_ROOTS = {"sglang"}

class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        root = fullname.split('.')[0]
        if root in REAL_ROOTS:
            return None
        if root in STUB_ROOTS:
            return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)
        if not AUTO:
            return None
        # unknown top-level/third-party module: stub it if the real one is absent
        for f in sys.meta_path:
            if f is self or not hasattr(f, 'find_spec'):
                continue
            try:
                s = f.find_spec(fullname, path, target)
            except Exception:
                s = None
            if s is not None:
                return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)

def install(stub_roots=()):
    STUB_ROOTS.update(stub_roots)
    sys.meta_path.insert(0, _Finder())
