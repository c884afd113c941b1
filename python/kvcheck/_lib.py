"""libkvcheck through ctypes: finding the library and declaring its functions.

The library is found through, in order: the KVCHECK_LIBRARY environment
variable (a path to libkvcheck.so), the build tree this package sits in
(../../build/libkvcheck.so), and the installed library (the loader's search
path, as ctypes.util.find_library sees it). The structures below mirror
kvcheck.h of library ABI, so a library of another minor release (before
1.0, each may change them) is passed over with the reason.
"""
import ctypes
import ctypes.util
import os

c_u64 = ctypes.c_uint64
c_u64_p = ctypes.POINTER(ctypes.c_uint64)
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_unsigned = ctypes.c_uint
c_size_t = ctypes.c_size_t
c_double = ctypes.c_double

ABI = "0.6"  # kvcheck.h's version, major.minor, these mirrors follow
KVC_NAME_LEN = 64
KVC_CHECK_COUNT = 21
KVC_PAGE_STATES = 4


class Diag(ctypes.Structure):
    _fields_ = [
        ("status", c_int),
        ("message", ctypes.c_char * 4096),
        ("file", ctypes.c_char * 512),
        ("line", c_unsigned),
        ("column", c_unsigned),
        ("where", ctypes.c_char * 160),
    ]


class LayoutParams(ctypes.Structure):
    _fields_ = [
        ("kv_lora_rank", ctypes.c_uint32),
        ("qk_rope_head_dim", ctypes.c_uint32),
        ("index_head_dim", ctypes.c_uint32),
        ("page_size", ctypes.c_uint32),
    ]


class ScanOptions(ctypes.Structure):
    _fields_ = [
        ("device", c_int),
        ("scale_pow2", c_int),
        ("scale_ranged", c_int),
        ("scale_min", c_double),
        ("scale_max", c_double),
        ("pages", c_char_p),
        ("skip_pages", c_char_p),
        ("max_findings", c_size_t),
        ("tensors", c_void_p),
        ("ntensors", c_size_t),
        ("threads", c_unsigned),
        ("progress", c_void_p),
        ("progress_ctx", c_void_p),
        ("layout_source", c_char_p),
        ("gpu", c_int),
    ]


class BadPage(ctypes.Structure):
    _fields_ = [("page", c_u64), ("count", c_u64)]


class ScanLayer(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 256),
        ("file", ctypes.c_char * 512),
        ("file_offset", c_u64),
        ("bytes", c_u64),
        ("pages", c_u64),
        ("pages_scanned", c_u64),
        ("counts", c_u64 * KVC_CHECK_COUNT),
        ("damaged", c_u64),
        ("nbad_pages", c_size_t),
        ("bad_pages", ctypes.POINTER(BadPage)),
        ("scanned", c_u64_p),
        ("digests", c_u64_p),
    ]


def _candidates():
    env = os.environ.get("KVCHECK_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "libkvcheck.so")
    found = ctypes.util.find_library("kvcheck")
    if found:
        yield found
    yield "libkvcheck.so." + ABI


def _load():
    tried = []
    for path in _candidates():
        try:
            found = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        found.kvc_version.restype = c_char_p
        version = found.kvc_version().decode()
        if version.split(".")[:2] == ABI.split("."):
            return found
        tried.append(f"{path} (library {version}, this package needs {ABI}.x)")
    raise ImportError("kvcheck: cannot load libkvcheck: tried " + "; ".join(tried) +
                      ": set KVCHECK_LIBRARY to the path of libkvcheck.so")


lib = _load()

# name: (restype, argtypes)
_PROTOTYPES = {
    "kvc_version": (c_char_p, []),
    "kvc_status_name": (c_char_p, [c_int]),
    "kvc_free": (None, [c_void_p]),
    "kvc_layout_build": (c_int, [c_char_p, ctypes.POINTER(LayoutParams), ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_layout_default_params": (None, [ctypes.POINTER(LayoutParams)]),
    "kvc_layout_free": (None, [c_void_p]),
    "kvc_layout_name": (c_char_p, [c_void_p]),
    "kvc_layout_bytes_per_token": (ctypes.c_uint32, [c_void_p]),
    "kvc_layout_page_size": (ctypes.c_uint32, [c_void_p]),
    "kvc_layout_page_bytes": (c_u64, [c_void_p]),
    "kvc_layout_json": (c_void_p, [c_void_p]),
    "kvc_scan_options_init": (None, [ctypes.POINTER(ScanOptions)]),
    "kvc_scanner_create": (c_int, [c_void_p, ctypes.POINTER(ScanOptions), ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_scanner_free": (None, [c_void_p]),
    "kvc_scanner_device": (c_char_p, [c_void_p]),
    "kvc_scanner_device_name": (c_char_p, [c_void_p]),
    "kvc_scanner_submit": (c_int, [c_void_p, c_void_p, c_size_t, c_u64, c_void_p, c_size_t, c_void_p, ctypes.POINTER(Diag)]),
    "kvc_scanner_wait": (c_int, [c_void_p, ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_scanner_scan": (c_int, [c_void_p, c_void_p, c_size_t, c_u64, c_void_p, c_size_t, c_void_p,
                                 ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_scanner_wait_check": (c_int, [c_void_p, ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_scanner_check": (c_int, [c_void_p, c_void_p, c_size_t, c_u64, c_void_p, c_size_t, c_void_p,
                                  ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_scan_report_free": (None, [c_void_p]),
    "kvc_scan_report_clean": (c_int, [c_void_p]),
    "kvc_scan_report_damaged": (c_u64, [c_void_p]),
    "kvc_scan_report_bad_pages": (c_u64, [c_void_p]),
    "kvc_scan_report_pages_scanned": (c_u64, [c_void_p]),
    "kvc_scan_report_device": (c_char_p, [c_void_p]),
    "kvc_scan_report_layer_count": (c_size_t, [c_void_p]),
    "kvc_scan_report_layer": (ctypes.POINTER(ScanLayer), [c_void_p, c_size_t]),
    "kvc_scan_report_count": (c_u64, [c_void_p, c_int]),
    "kvc_scan_report_digests": (c_size_t, [c_void_p, c_void_p, c_size_t]),
    "kvc_scan_report_json": (c_void_p, [c_void_p]),
    "kvc_check_name": (c_char_p, [c_int]),
    "kvc_page_digest": (c_u64, [c_void_p, c_void_p]),
    "kvc_zero_page_digest": (c_u64, [c_void_p]),
    "kvc_digests_compare": (c_size_t, [c_void_p, c_void_p, c_size_t, c_void_p, c_void_p]),
    "kvc_page_state_name": (c_char_p, [c_int]),
    "kvc_worker_create": (c_void_p, [c_char_p]),
    "kvc_worker_free": (None, [c_void_p]),
    "kvc_worker_load_file": (c_int, [c_void_p, c_char_p, ctypes.POINTER(Diag)]),
    "kvc_worker_set_gpu": (c_int, [c_void_p, c_char_p, ctypes.POINTER(Diag)]),
    "kvc_worker_set_model": (c_int, [c_void_p, c_char_p, ctypes.POINTER(Diag)]),
    "kvc_worker_add_args": (c_int, [c_void_p, c_char_p, c_char_p, ctypes.POINTER(Diag)]),
    "kvc_worker_set_release": (c_int, [c_void_p, c_char_p, ctypes.POINTER(Diag)]),
    "kvc_compare": (c_int, [c_void_p, c_void_p, ctypes.POINTER(c_void_p), ctypes.POINTER(Diag)]),
    "kvc_verdict_free": (None, [c_void_p]),
    "kvc_verdict_compatible": (c_int, [c_void_p]),
    "kvc_verdict_json": (c_void_p, [c_void_p]),
}

for _name, (_res, _args) in _PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args
