"""kvcheck from Python: KV-cache layouts, the in-process scan gate and
prefill/decode checks, over libkvcheck through ctypes (standard library
only; PyTorch and numpy are used when they are what you pass).

    import kvcheck
    lay = kvcheck.layout("fp8_flashmla", kv_lora_rank=512, qk_rope_head_dim=64, page_size=64)
    scanner = kvcheck.Scanner(lay, device="auto")        # "cpu", "gpu", "cuda:1"
    report = scanner.scan(layers, pages=None)             # CUDA or CPU tensors, or buffers
    pool = scanner.pool(layers); report = pool.scan(pages) # an engine's pool, checked once
    damaged = pool.check(pages)                           # the gate: None when clean, else the Report
    report.clean, report.damaged, report.bad_pages        # [(layer, page), ...]
    report.digests                                        # {(layer, page): digest}
    verdict = kvcheck.check(gpu="B300", model="glm-5.2", prefill_args="...", decode_args="...")
    verdict.compatible, verdict.fixes

Every failure raises kvcheck.Error with the library's message.
"""
import array
import ctypes
import json
import sys

from . import _lib
from ._lib import lib

__all__ = ["Error", "Layout", "Scanner", "Pool", "Report", "Verdict", "layout", "check", "page_digest",
           "compare_digests", "digest_mismatches", "version"]

_DEVICES = {"auto": 0, "cpu": 1, "gpu": 2, "cuda": 2}


class Error(Exception):
    """A failure, with the library's status name and message (and `where`:
    the flag, layer or page it is about, when known)."""

    def __init__(self, message, status="KVC_ERR_USAGE", where=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.where = where


def _raise(status, diag):
    raise Error(diag.message.decode(errors="replace"), lib.kvc_status_name(status).decode(),
                diag.where.decode(errors="replace"))


def _take_json(ptr):
    try:
        return json.loads(ctypes.string_at(ptr).decode())
    finally:
        lib.kvc_free(ptr)


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return lib.kvc_version().decode()


# ------------------------------------------------------------------ layouts

class Layout:
    """A KV-cache byte layout (kvcheck's catalogue: fp8_flashmla, fp8_raw,
    bf16, dsa_indexer, model1_fp8, fp16, fp32, fp8_e5m2_raw, fp4_mx16,
    fp4_mx16_scales)."""

    def __init__(self, handle):
        self._h = handle

    def __del__(self):
        if getattr(self, "_h", None):
            lib.kvc_layout_free(self._h)
            self._h = None

    name = property(lambda self: lib.kvc_layout_name(self._h).decode())
    bytes_per_token = property(lambda self: lib.kvc_layout_bytes_per_token(self._h))
    page_size = property(lambda self: lib.kvc_layout_page_size(self._h))
    page_bytes = property(lambda self: lib.kvc_layout_page_bytes(self._h))

    def to_dict(self):
        return _take_json(lib.kvc_layout_json(self._h))

    def __repr__(self):
        return f"<kvcheck.Layout {self.name}: {self.bytes_per_token} B/token, {self.page_bytes} B/page>"


def layout(name, kv_lora_rank=None, qk_rope_head_dim=None, index_head_dim=None, page_size=None):
    """A catalogue layout built from model dimensions (defaults: DeepSeek-V3.2
    and GLM-5: 512, 64, 128, page size 64)."""
    params = _lib.LayoutParams()
    lib.kvc_layout_default_params(ctypes.byref(params))
    for field, value in (("kv_lora_rank", kv_lora_rank), ("qk_rope_head_dim", qk_rope_head_dim),
                         ("index_head_dim", index_head_dim), ("page_size", page_size)):
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**32:
                raise Error(f"{field} must be an integer from 0 to 2^32 - 1, not {value!r}", where=field)
            setattr(params, field, value)
    out = ctypes.c_void_p()
    diag = _lib.Diag()
    st = lib.kvc_layout_build(str(name).encode(), ctypes.byref(params), ctypes.byref(out), ctypes.byref(diag))
    if st:
        _raise(st, diag)
    return Layout(out.value)


# -------------------------------------------------------------------- layers

class _PyBuffer(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.py_object), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_PyBUF_C_CONTIGUOUS = 0x0020 | 0x0010 | 0x0008  # C order, with strides
_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
_get_buffer.restype = ctypes.c_int
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]
_release_buffer.restype = None


def _is_tensor(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr")


class _Layers:
    """The layers of one scan: their addresses, size and device, checked;
    host buffers stay exported (and so alive) until release()."""

    def __init__(self, layers, gpu, keep=False):
        self.keep = keep  # held for many scans (a pool, the scanner's cached list); else released after one
        if _is_tensor(layers) or isinstance(layers, (bytes, bytearray, memoryview)):
            layers = [layers]
        self.objects = list(layers)
        if not self.objects:
            raise Error("no layers to scan: give a list of tensors or buffers")
        self.buffers = []
        addresses, size, self.cuda = [], None, None
        try:
            for i, x in enumerate(self.objects):
                address, nbytes, cuda = self._one(i, x, gpu)
                if self.cuda is None:
                    self.cuda = cuda
                elif cuda != self.cuda:
                    raise Error(f"layer {i} is on {cuda or 'the CPU'} but layer 0 on {self.cuda or 'the CPU'}: "
                                "one scan takes layers of one device", where=f"layer {i}")
                if size is None:
                    size = nbytes
                elif nbytes != size:
                    raise Error(f"layer {i} holds {nbytes} bytes but layer 0 holds {size}: every layer buffer of a "
                                "scan has the same size", where=f"layer {i}")
                addresses.append(address)
        except BaseException:
            self.release()
            raise
        self.nbytes = size
        self.addresses = (ctypes.c_uint64 * len(addresses))(*addresses)
        self.count = len(addresses)

    def _one(self, i, x, gpu):
        if _is_tensor(x):
            if not x.is_contiguous():
                raise Error(f"layer {i} is a non-contiguous tensor (strides {tuple(x.stride())}): pass a contiguous "
                            "view of the KV buffer, or .contiguous() (a copy)", where=f"layer {i}")
            cuda = f"cuda:{x.device.index}" if x.is_cuda else None
            if cuda and gpu is None:
                raise Error(f"layer {i} is a CUDA tensor ({cuda}) but the scanner runs on the CPU: create "
                            "Scanner(layout, device='gpu')", where=f"layer {i}")
            if not cuda and gpu is not None:
                raise Error(f"layer {i} is a CPU tensor but the scanner runs on the GPU (cuda:{gpu}): pass CUDA "
                            "tensors, or create Scanner(layout, device='cpu')", where=f"layer {i}")
            if cuda and x.device.index != gpu:
                raise Error(f"layer {i} is on {cuda} but the scanner runs on cuda:{gpu}: create a scanner for "
                            f"device='{cuda}'", where=f"layer {i}")
            return x.data_ptr(), x.numel() * x.element_size(), cuda
        if gpu is not None:
            raise Error(f"layer {i} is host memory ({type(x).__name__}) but the scanner runs on the GPU (cuda:{gpu}): "
                        "pass CUDA tensors, or create Scanner(layout, device='cpu')", where=f"layer {i}")
        try:
            view = memoryview(x)
        except TypeError:
            raise Error(f"layer {i} is a {type(x).__name__}: give torch tensors or objects with the buffer "
                        "protocol (bytes, bytearray, numpy arrays, memoryview)", where=f"layer {i}") from None
        if not view.c_contiguous:
            raise Error(f"layer {i} is a non-contiguous buffer (strides {view.strides}): pass contiguous memory",
                        where=f"layer {i}")
        buf = _PyBuffer()
        if _get_buffer(x, ctypes.byref(buf), _PyBUF_C_CONTIGUOUS) != 0:
            raise Error(f"layer {i}: its buffer cannot be exported as contiguous memory", where=f"layer {i}")
        self.buffers.append(buf)
        return buf.buf or 0, view.nbytes, None

    def release(self):
        for buf in self.buffers:
            _release_buffer(ctypes.byref(buf))
        self.buffers = []


_NO_PAGES = array.array("Q", [0])


def _page_list(pages):
    """(address, count, object to keep alive) of a page list as 64-bit
    numbers. An array('Q') or array('q') and an int64 CPU tensor are passed
    as they are, with no copy; the library refuses negative and
    out-of-range pages itself."""
    if pages is None:
        return None, 0, None
    if _is_tensor(pages):
        if pages.is_cuda or pages.dim() != 1 or str(pages.dtype) != "torch.int64" or not pages.is_contiguous():
            raise Error("a page list tensor must be a contiguous 1-D int64 CPU tensor", where="pages")
        return (pages.data_ptr(), len(pages), pages) if len(pages) else (_NO_PAGES.buffer_info()[0], 0, _NO_PAGES)
    if isinstance(pages, array.array) and pages.typecode in "Qq" and pages.itemsize == 8:
        arr = pages
    else:
        if not isinstance(pages, (list, tuple)):
            pages = list(pages)
        try:  # at C speed: array refuses negative numbers, floats and numbers past 64 bits itself
            arr = array.array("Q", pages)
        except (TypeError, ValueError, OverflowError):
            for i, p in enumerate(pages):
                if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < 2**64:
                    raise Error(f"page list entry {i} is {p!r}, not a page number (an integer >= 0)",
                                where="pages") from None
            raise
    if not arr:  # an empty list is not "no list": the library refuses a scan of nothing
        return _NO_PAGES.buffer_info()[0], 0, _NO_PAGES
    return arr.buffer_info()[0], len(arr), arr


# ------------------------------------------------------------------ reports

class Report:
    """What one scan found. Counts and damaged pages are complete; findings
    (in to_dict()) list the first max_findings damaged elements."""

    def __init__(self, handle):
        self._h = handle

    def __del__(self):
        if getattr(self, "_h", None):
            lib.kvc_scan_report_free(self._h)
            self._h = None

    clean = property(lambda self: bool(lib.kvc_scan_report_clean(self._h)))
    damaged = property(lambda self: lib.kvc_scan_report_damaged(self._h), doc="damaged elements")
    pages_scanned = property(lambda self: lib.kvc_scan_report_pages_scanned(self._h))
    device = property(lambda self: lib.kvc_scan_report_device(self._h).decode())

    def _layers(self):
        for i in range(lib.kvc_scan_report_layer_count(self._h)):
            yield i, lib.kvc_scan_report_layer(self._h, i).contents

    @property
    def bad_pages(self):
        """[(layer, page), ...] of every damaged page, layer by layer."""
        return [(i, x.bad_pages[k].page) for i, x in self._layers() for k in range(x.nbad_pages)]

    @property
    def counts(self):
        """{check name: damaged elements} for the checks that found any."""
        out = {}
        for c in range(_lib.KVC_CHECK_COUNT):
            n = lib.kvc_scan_report_count(self._h, c)
            if n:
                out[lib.kvc_check_name(c).decode()] = n
        return out

    def layer_digests(self, layer):
        """[(page, digest), ...] of one layer's scanned pages, in scan order."""
        x = lib.kvc_scan_report_layer(self._h, layer)
        if not x:
            raise Error(f"no layer {layer} in this report", where="layer")
        x = x.contents
        n = x.pages_scanned
        digests = x.digests[:n]
        pages = x.scanned[:n] if x.scanned else range(n)
        return list(zip(pages, digests))

    @property
    def digests(self):
        """{(layer, page): 64-bit digest} of every scanned page."""
        return {(i, p): d for i, _ in self._layers() for p, d in self.layer_digests(i)}

    def digest_array(self):
        """Every scanned page's digest in scan order (layer by layer, each
        layer's pages in the order scanned), as an array('Q'): what the
        prefill side records and sends, and what compare_digests() takes,
        without a Python object per page."""
        n = lib.kvc_scan_report_digests(self._h, None, 0)
        out = array.array("Q", bytes(8 * n))
        if n:
            lib.kvc_scan_report_digests(self._h, out.buffer_info()[0], n)
        return out

    def to_dict(self):
        """The report as `kvcheck scan --json` prints it."""
        return _take_json(lib.kvc_scan_report_json(self._h))

    def __repr__(self):
        return f"<kvcheck.Report {'clean' if self.clean else 'DAMAGED'}: {self.damaged} damaged elements>"


# ------------------------------------------------------------------ scanner

_raw_stream = None  # PyTorch's current-stream query, found on first use


def _torch_stream(device_index):
    """PyTorch's current stream on a device, as a CUstream handle."""
    global _raw_stream
    if _raw_stream is None:
        torch = sys.modules["torch"]
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (  # what Triton uses: no Stream object
            lambda i: torch.cuda.current_stream(i).cuda_stream)
    return _raw_stream(device_index)


class Scanner:
    """The in-process gate: set up once for a layout and a device, then one
    call per KV transfer. scan() takes a list of layer buffers of one size
    (CUDA tensors on the scanner's GPU, scanned where they are on PyTorch's
    current stream with no copy; or CPU tensors and buffer-protocol objects
    for a CPU scanner) and an optional list of pages to scan in each.

    One scan at a time per scanner; use one scanner per thread, or a lock.
    A list of CUDA tensors is checked when it changes (compared by the
    identity of its objects): a tensor whose storage is replaced in place
    (set_, resize_) must be passed as a new object."""

    def __init__(self, layout, device="auto", max_findings=20, threads=0, scale_pow2=False, scale_range=None):
        if not isinstance(layout, Layout):
            raise Error(f"Scanner needs a kvcheck.Layout (kvcheck.layout(...)), not {type(layout).__name__}",
                        where="layout")
        self.layout = layout
        opts = _lib.ScanOptions()
        lib.kvc_scan_options_init(ctypes.byref(opts))
        dev = str(device)
        if dev.startswith("cuda:"):
            try:
                opts.gpu = int(dev[5:])
            except ValueError:
                raise Error(f"unknown device {device!r}: use 'auto', 'cpu', 'gpu' or 'cuda:N'", where="device") from None
            dev = "gpu"
        if dev not in _DEVICES:
            raise Error(f"unknown device {device!r}: use 'auto', 'cpu', 'gpu' or 'cuda:N'", where="device")
        opts.device = _DEVICES[dev]
        opts.max_findings = max_findings
        opts.threads = threads
        opts.scale_pow2 = int(bool(scale_pow2))
        if scale_range is not None:
            opts.scale_ranged = 1
            opts.scale_min, opts.scale_max = scale_range
        out = ctypes.c_void_p()
        self._diag = _lib.Diag()
        st = lib.kvc_scanner_create(layout._h, ctypes.byref(opts), ctypes.byref(out), ctypes.byref(self._diag))
        if st:
            _raise(st, self._diag)
        self._h = out.value
        self.device = lib.kvc_scanner_device(self._h).decode()
        self.device_name = lib.kvc_scanner_device_name(self._h).decode()
        self.gpu = opts.gpu if self.device == "cuda" else None
        self._key = None
        self._layers = None
        self._held = None  # a submitted scan's layers and pages, alive until wait()
        self._out = ctypes.c_void_p()  # made once: a call's fixed cost is what an engine pays per transfer
        self._out_ref, self._diag_ref = ctypes.byref(self._out), ctypes.byref(self._diag)

    def close(self):
        if getattr(self, "_h", None):
            lib.kvc_scanner_free(self._h)
            self._h = None
        self._layers = self._held = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def pool(self, layers):
        """Binds this scanner to an engine's KV pool: the layer buffers are
        checked once, here, and each Pool.scan(pages) after costs only its
        page list. The Pool holds the layers until it is closed (tensors
        stay alive; host buffers stay exported and cannot be resized)."""
        return Pool(self, layers)

    def _prepare(self, layers):
        """The layers, checked; CUDA tensors are kept for the next call (an
        engine passes its pool again and again), host buffers are exported
        for one scan only (an exported bytearray cannot be resized)."""
        key = tuple(map(id, layers)) if isinstance(layers, (list, tuple)) else None
        if key is not None and key == self._key:
            return self._layers
        self._layers, self._key = None, None
        lay = _Layers(layers, self.gpu)
        if lay.cuda is not None and key is not None:
            lay.keep = True
            self._layers, self._key = lay, key
        return lay

    def _request(self, lay, pages, stream):
        if not self._h:
            raise Error("this scanner is closed")
        addr, n, keep = _page_list(pages)
        if lay.cuda is not None:
            if stream is None:
                stream = _torch_stream(self.gpu)
            elif hasattr(stream, "cuda_stream"):
                stream = stream.cuda_stream
        elif stream is not None:
            raise Error("a CUDA stream was given for host memory, which is scanned at once: pass none", where="stream")
        return addr, n, keep, stream

    def _submit(self, lay, pages, stream):
        try:
            addr, n, keep, stream = self._request(lay, pages, stream)
            st = lib.kvc_scanner_submit(self._h, lay.addresses, lay.count, lay.nbytes, addr, n, stream,
                                        self._diag_ref)
        except BaseException:
            if not lay.keep:
                lay.release()
            raise
        if st:
            if not lay.keep:
                lay.release()
            _raise(st, self._diag)
        self._held = (lay, keep)

    def _run(self, fn, lay, pages, stream):
        """A scan through `fn` (kvc_scanner_scan or kvc_scanner_check): its
        Report, or None where kvc_scanner_check found nothing."""
        try:
            addr, n, keep, stream = self._request(lay, pages, stream)
            st = fn(self._h, lay.addresses, lay.count, lay.nbytes, addr, n, stream, self._out_ref, self._diag_ref)
        finally:
            if not lay.keep:
                lay.release()
        if st:
            _raise(st, self._diag)
        return Report(self._out.value) if self._out.value else None

    def submit(self, layers, pages=None, stream=None):
        """Starts a scan; on the GPU it is enqueued on `stream` (a CUDA stream
        handle as an int, or a torch.cuda.Stream; default: PyTorch's current
        stream) and this returns at once. Call wait() for the report."""
        self._submit(self._prepare(layers), pages, stream)

    def _wait(self, fn):
        st = fn(self._h, self._out_ref, self._diag_ref)
        if self._held and not self._held[0].keep:
            self._held[0].release()
        self._held = None
        if st:
            _raise(st, self._diag)
        return Report(self._out.value) if self._out.value else None

    def wait(self):
        """Waits for the submitted scan and returns its Report."""
        return self._wait(lib.kvc_scanner_wait)

    def wait_check(self):
        """Waits for the submitted scan: None when every page passed, else
        its Report (check() after submit())."""
        return self._wait(lib.kvc_scanner_wait_check)

    def scan(self, layers, pages=None, stream=None):
        """submit() and wait() in one call: the verdict on the host."""
        return self._run(lib.kvc_scanner_scan, self._prepare(layers), pages, stream)

    def check(self, layers, pages=None, stream=None):
        """The gate's verdict: None when every page passed (no report is
        built, so a clean scan keeps no digests: use scan() for them), else
        the Report of the damage, as scan() gives it. The cheapest call."""
        return self._run(lib.kvc_scanner_check, self._prepare(layers), pages, stream)

    def __repr__(self):
        return f"<kvcheck.Scanner {self.layout.name} on {self.device_name}>"


class Pool:
    """A scanner bound to one engine's KV pool (Scanner.pool(layers)): the
    layers were checked when it was made, so a scan costs only its page
    list. scan(), check() and submit() take the pages and stream as
    Scanner's do; Scanner.wait() or Scanner.wait_check() gives a submitted
    scan's verdict."""

    def __init__(self, scanner, layers):
        if not scanner._h:
            raise Error("this scanner is closed")
        self.scanner = scanner
        self._layers = _Layers(layers, scanner.gpu, keep=True)

    def scan(self, pages=None, stream=None):
        if self._layers is None:
            raise Error("this pool is closed")
        return self.scanner._run(lib.kvc_scanner_scan, self._layers, pages, stream)

    def check(self, pages=None, stream=None):
        """Scanner.check over the pool: None when every page passed, else the Report."""
        if self._layers is None:
            raise Error("this pool is closed")
        return self.scanner._run(lib.kvc_scanner_check, self._layers, pages, stream)

    def submit(self, pages=None, stream=None):
        if self._layers is None:
            raise Error("this pool is closed")
        self.scanner._submit(self._layers, pages, stream)

    def close(self):
        """Lets go of the layers (host buffers can be resized again)."""
        if getattr(self, "_layers", None) is not None:
            self._layers.release()
            self._layers = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        n = len(self._layers.addresses) if self._layers is not None else 0
        return f"<kvcheck.Pool of {n} layers on {self.scanner!r}>"


# ------------------------------------------------------------------ digests

def page_digest(page, layout):
    """The 64-bit digest of one page in host memory (bytes-like), as scans give it."""
    view = memoryview(page)
    if view.nbytes != layout.page_bytes:
        raise Error(f"a page of {layout.name} is {layout.page_bytes} bytes, not {view.nbytes}", where="page")
    lay = _Layers([page], None)
    try:
        return lib.kvc_page_digest(lay.addresses[0], layout._h)
    finally:
        lay.release()


_PAGE_STATES = None  # the library's page state names, by value


def _digest_words(digests, what):
    """(address, count, object to keep alive) of 64-bit digests: an
    array('Q') or array('q') as it is, anything else (a list, a report's
    layer_digests values) copied into one."""
    if isinstance(digests, array.array) and digests.typecode in "Qq" and digests.itemsize == 8:
        arr = digests
    else:
        try:
            arr = array.array("Q", digests)
        except (TypeError, ValueError, OverflowError):
            raise Error(f"the {what} digests must be 64-bit unsigned integers", where=what) from None
    return (arr.buffer_info()[0] if arr else 0), len(arr), arr


def _compare(expected, actual, layout):
    """(per-page state codes as bytes, how many differ)."""
    global _PAGE_STATES
    a, n, keep_a = _digest_words(expected, "expected")
    b, m, keep_b = _digest_words(actual, "actual")
    if n != m:
        raise Error(f"{n} expected digests against {m} actual ones: compare the same pages")
    states = (ctypes.c_ubyte * n)()
    differ = lib.kvc_digests_compare(a, b, n, layout._h, states)
    if _PAGE_STATES is None:
        _PAGE_STATES = [lib.kvc_page_state_name(k).decode() for k in range(_lib.KVC_PAGE_STATES)]
    return bytes(states), differ


def compare_digests(expected, actual, layout):
    """Compares the digests of the same pages as sent and as they arrived:
    a list of "same", "changed" or "zero" (all zero: never written), one
    per page. Report.digest_array() on both sides gives what it takes (an
    array('Q') is read in place)."""
    states, _ = _compare(expected, actual, layout)
    return [_PAGE_STATES[k] for k in states]


def digest_mismatches(expected, actual, layout):
    """The gate's comparison: [(index, "changed" or "zero"), ...] of the
    pages that did not arrive as sent, in scan order; [] when all did, with
    no Python object made per page."""
    states, differ = _compare(expected, actual, layout)
    return [(i, _PAGE_STATES[k]) for i, k in enumerate(states) if k] if differ else []


# -------------------------------------------------------------------- check

class Verdict:
    """Prefill against decode: compatible, and the flags that fix the pair."""

    def __init__(self, doc):
        self._doc = doc
        self.compatible = bool(doc["compatible"])
        self.fixes = [{"worker": f["worker"], "add_args": list(f["add_args"])} for f in doc.get("fixes", [])]
        self.mismatches = doc.get("mismatches", [])
        self.consequences = doc.get("consequences", [])
        self.sglang_version = doc.get("rules")  # the release whose rules judged the pair
        self.caught_at = (doc.get("sglang_bootstrap") or {}).get("stage")  # where SGLang refuses it; None: first request
        self.warnings = doc.get("warnings", [])

    def to_dict(self):
        """The verdict as `kvcheck check --json` prints it."""
        return self._doc

    def __repr__(self):
        return f"<kvcheck.Verdict {'compatible' if self.compatible else 'INCOMPATIBLE'}>"


def _worker(label, file, gpu, model, args, release):
    w = lib.kvc_worker_create(label.encode())
    if not w:
        raise Error("out of memory", "KVC_ERR_NOMEM")
    diag = _lib.Diag()
    steps = []
    if file is not None:
        steps.append(lambda: lib.kvc_worker_load_file(w, str(file).encode(), ctypes.byref(diag)))
    if gpu is not None:
        steps.append(lambda: lib.kvc_worker_set_gpu(w, str(gpu).encode(), ctypes.byref(diag)))
    if model is not None:
        steps.append(lambda: lib.kvc_worker_set_model(w, str(model).encode(), ctypes.byref(diag)))
    if args:
        line = args if isinstance(args, str) else " ".join(args)
        steps.append(lambda: lib.kvc_worker_add_args(w, line.encode(), f"{label}_args".encode(), ctypes.byref(diag)))
    if release is not None:
        steps.append(lambda: lib.kvc_worker_set_release(w, str(release).encode(), ctypes.byref(diag)))
    for step in steps:
        st = step()
        if st:
            lib.kvc_worker_free(w)
            _raise(st, diag)
    return w


def check(gpu=None, model=None, prefill_args=None, decode_args=None, prefill=None, decode=None, prefill_gpu=None,
          decode_gpu=None, sglang_version=None):
    """Resolves both workers and compares them, as `kvcheck check` does:
    worker files (prefill=, decode=) and/or the shortcuts (gpu=, model=,
    prefill_args=, decode_args=, a GPU per side), under the SGLang release
    sglang_version (None: a worker file's, else the newest kvcheck has read)."""
    p = _worker("prefill", prefill, prefill_gpu or gpu, model, prefill_args, sglang_version)
    try:
        d = _worker("decode", decode, decode_gpu or gpu, model, decode_args, sglang_version)
    except Error:
        lib.kvc_worker_free(p)
        raise
    out = ctypes.c_void_p()
    diag = _lib.Diag()
    try:
        st = lib.kvc_compare(p, d, ctypes.byref(out), ctypes.byref(diag))
        if st:
            _raise(st, diag)
        try:
            return Verdict(_take_json(lib.kvc_verdict_json(out.value)))
        finally:
            lib.kvc_verdict_free(out.value)
    finally:
        lib.kvc_worker_free(p)
        lib.kvc_worker_free(d)
