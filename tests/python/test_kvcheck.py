"""The Python package on the CPU, standard library only: layouts, the
scanner over buffers (bytes, bytearray, memoryview, array), page lists,
digests and their comparison, check(), and every bad input as
kvcheck.Error with the library's message. Run by ctest with
KVCHECK_LIBRARY set to the build's libkvcheck.so."""
import array
import os
import re
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import kvcheck  # noqa: E402

LAY = kvcheck.layout("fp8_flashmla", kv_lora_rank=512, qk_rope_head_dim=64, page_size=64)


def clean_page(seed):
    """One clean fp8_flashmla page: e4m3 NoPE without NaN, scales 1.0, bf16 RoPE 1.0."""
    token = bytearray()
    for t in range(64):
        nope = bytes(((seed * 31 + t * 7 + i) % 0x7E) for i in range(512))
        token += nope + struct.pack("<4f", 1.0, 0.5, 2.0, 0.25) + struct.pack("<64H", *([0x3F80] * 64))
    assert len(token) == LAY.page_bytes
    return bytes(token)


def layer(npages, seed, bad=()):
    buf = bytearray(b"".join(clean_page(seed + p) for p in range(npages)))
    for page in bad:  # token 3's first scale made negative
        at = page * LAY.page_bytes + 3 * 656 + 512
        buf[at:at + 4] = struct.pack("<f", -1.0)
    return buf


class Loading(unittest.TestCase):
    def test_load__a_library_of_another_minor_release_is_refused(self):
        """The mirrors of kvcheck.h's structures follow one minor release: a
        package written for another refuses this library, saying why."""
        from kvcheck import _lib
        self.assertEqual(kvcheck.version().split(".")[:2], _lib.ABI.split("."))
        with open(_lib.__file__) as f:
            other = re.sub(r'^ABI = "[^"]*"', 'ABI = "0.1"', f.read(), count=1, flags=re.M)
        with self.assertRaises(ImportError) as e:
            exec(compile(other, _lib.__file__, "exec"), {"__name__": "kvcheck._lib_0_1"})
        self.assertIn(f"(library {kvcheck.version()}, this package needs 0.1.x)", str(e.exception))
        self.assertIn("set KVCHECK_LIBRARY", str(e.exception))


class Layouts(unittest.TestCase):
    def test_layout__sizes_of_the_catalogue(self):
        self.assertEqual((LAY.name, LAY.bytes_per_token, LAY.page_bytes), ("fp8_flashmla", 656, 41984))
        self.assertEqual(kvcheck.layout("fp8_raw").page_bytes, 36864)
        self.assertEqual(LAY.to_dict()["bytes_per_token"], 656)

    def test_layout__unknown_name_and_bad_dimensions_raise(self):
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.layout("fp9")
        self.assertIn("fp9", str(e.exception))
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.layout("fp8_flashmla", kv_lora_rank=100)
        self.assertEqual(e.exception.status, "KVC_ERR_CONFIG")
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.layout("fp8_flashmla", page_size=-1)
        self.assertIn("page_size", str(e.exception))


class Scans(unittest.TestCase):
    def setUp(self):
        self.scanner = kvcheck.Scanner(LAY, device="cpu")

    def test_scan__clean_layers_of_every_buffer_kind(self):
        data = layer(3, 1)
        for kind in (bytes(data), bytearray(data), memoryview(data), array.array("B", data)):
            r = self.scanner.scan([kind, kind])
            self.assertTrue(r.clean, type(kind))
            self.assertEqual((r.damaged, r.bad_pages, r.pages_scanned), (0, [], 6))
            self.assertEqual(r.device, "cpu")

    def test_scan__damaged_pages_by_layer_and_page(self):
        r = self.scanner.scan([layer(4, 1), layer(4, 2, bad=(1, 3))])
        self.assertFalse(r.clean)
        self.assertEqual(r.bad_pages, [(1, 1), (1, 3)])
        self.assertEqual(r.damaged, 2)
        self.assertEqual(r.counts, {"scale_negative": 2})
        d = r.to_dict()
        self.assertEqual(d["counts"]["scale_negative"], 2)
        self.assertEqual(d["findings"][0]["layer"], "layer 1")
        self.assertEqual(d["findings"][0]["offset"], LAY.page_bytes + 3 * 656 + 512)

    def test_scan__page_list_from_a_list_or_an_array(self):
        layers = [layer(4, 1, bad=(2,)), layer(4, 5, bad=(0,))]
        for pages in ([2, 1], array.array("Q", [2, 1]), array.array("q", [2, 1]), range(1, 3)):
            r = self.scanner.scan(layers, pages=pages)
            self.assertEqual(r.pages_scanned, 4)
            self.assertEqual(r.bad_pages, [(0, 2)])
            self.assertEqual(sorted(p for (l, p) in r.digests), [1, 1, 2, 2])

    def test_scan__digests_depend_on_the_bytes_not_the_place(self):
        a, b = layer(3, 1), layer(3, 1)
        b[2 * LAY.page_bytes + 100] ^= 1  # one bit of page 2's NoPE
        ra, rb = self.scanner.scan([a]), self.scanner.scan([b])
        self.assertEqual(ra.digests[(0, 0)], rb.digests[(0, 0)])
        self.assertNotEqual(ra.digests[(0, 2)], rb.digests[(0, 2)])
        moved = self.scanner.scan([bytes(a[LAY.page_bytes:2 * LAY.page_bytes]) * 2])
        self.assertEqual(moved.digests[(0, 1)], ra.digests[(0, 1)])
        self.assertEqual(kvcheck.page_digest(a[:LAY.page_bytes], LAY), ra.digests[(0, 0)])

    def test_digests__compare_names_changed_and_never_written_pages(self):
        sent = self.scanner.scan([layer(3, 1)]).layer_digests(0)
        arrived = layer(3, 1)
        arrived[LAY.page_bytes + 7] ^= 0x10
        arrived[2 * LAY.page_bytes:] = bytes(LAY.page_bytes)
        got = self.scanner.scan([arrived]).layer_digests(0)
        states = kvcheck.compare_digests([d for _, d in sent], [d for _, d in got], LAY)
        self.assertEqual(states, ["same", "changed", "zero"])
        with self.assertRaises(kvcheck.Error):
            kvcheck.compare_digests([1, 2], [1], LAY)
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.compare_digests([-1], [1], LAY)
        self.assertIn("the expected digests must be 64-bit unsigned integers", str(e.exception))
        self.assertEqual(kvcheck.compare_digests([], [], LAY), [])
        # the gate's way: each side's whole scan as one array, layer by layer, pages in scan order
        pool_sent = self.scanner.scan([layer(3, 1), layer(3, 2)], pages=[2, 0]).digest_array()
        self.assertEqual(pool_sent.typecode, "Q")
        self.assertEqual(list(pool_sent), [d for _, d in self.scanner.scan([layer(3, 1)], pages=[2, 0]).layer_digests(0)]
                         + [d for _, d in self.scanner.scan([layer(3, 2)], pages=[2, 0]).layer_digests(0)])
        pool_got = self.scanner.scan([arrived, layer(3, 2)], pages=[2, 0]).digest_array()
        self.assertEqual(kvcheck.compare_digests(pool_sent, pool_got, LAY), ["zero", "same", "same", "same"])
        self.assertEqual(kvcheck.digest_mismatches(pool_sent, pool_got, LAY), [(0, "zero")])
        self.assertEqual(kvcheck.digest_mismatches(pool_sent, pool_sent, LAY), [])
        with self.assertRaises(kvcheck.Error):
            kvcheck.digest_mismatches(pool_sent, pool_got[:3], LAY)
        self.assertEqual(kvcheck._lib.lib.kvc_page_state_name(kvcheck._lib.KVC_PAGE_STATES), b"?")
        self.assertNotEqual(kvcheck._lib.lib.kvc_page_state_name(kvcheck._lib.KVC_PAGE_STATES - 1), b"?")

    def test_scan__host_buffers_are_released_after_each_scan(self):
        buf = layer(1, 1)
        self.assertTrue(self.scanner.scan([buf]).clean)
        buf.extend(bytes(LAY.page_bytes))  # a buffer still exported could not be resized
        buf[LAY.page_bytes + 3 * 656 + 512:LAY.page_bytes + 3 * 656 + 516] = struct.pack("<f", -2.0)
        self.assertEqual(self.scanner.scan([buf]).bad_pages, [(0, 1)])

    def test_pool__checked_once_then_scanned_by_pages(self):
        a, b = layer(3, 1), layer(3, 2, bad=(2,))
        with self.scanner.pool([a, b]) as pool:
            self.assertEqual(pool.scan().bad_pages, [(1, 2)])
            self.assertEqual(pool.scan(pages=[0, 1]).bad_pages, [])
            self.assertEqual(pool.scan(pages=array.array("Q", [2])).bad_pages, [(1, 2)])
            pool.submit(pages=[2, 0])
            self.assertEqual(self.scanner.wait().bad_pages, [(1, 2)])
            with self.assertRaises(BufferError):  # the pool holds its host buffers exported
                a.extend(bytes(LAY.page_bytes))
            with self.assertRaises(kvcheck.Error) as e:
                pool.scan(pages=[3])
            self.assertIn("page list entry 0 is page 3, but each layer buffer holds 3 pages", str(e.exception))
        a.extend(bytes(LAY.page_bytes))  # closed: released
        with self.assertRaises(kvcheck.Error) as e:
            pool.scan()
        self.assertIn("pool is closed", str(e.exception))
        with self.assertRaises(kvcheck.Error) as e:
            self.scanner.pool([layer(1, 1), layer(2, 1)])
        self.assertIn("layer 1 holds 83968 bytes but layer 0 holds 41984", str(e.exception))

    def test_check__none_when_clean_the_report_when_damaged(self):
        a, b = layer(3, 1), layer(3, 2, bad=(2,))
        self.assertIsNone(self.scanner.check([a, b], pages=[0, 1]))
        report = self.scanner.check([a, b])
        self.assertEqual(report.bad_pages, [(1, 2)])
        self.assertEqual(report.to_dict()["layers"], self.scanner.scan([a, b]).to_dict()["layers"])
        with self.scanner.pool([a, b]) as pool:
            self.assertIsNone(pool.check(array.array("Q", [1, 0])))
            self.assertEqual(pool.check([2]).bad_pages, [(1, 2)])
            pool.submit(pages=[0])
            self.assertIsNone(self.scanner.wait_check())
            pool.submit()
            self.assertEqual(self.scanner.wait_check().bad_pages, [(1, 2)])
            with self.assertRaises(kvcheck.Error) as e:
                pool.check([-1])
            self.assertIn("page list entry 0 is -1", str(e.exception))
        with self.assertRaises(kvcheck.Error) as e:
            pool.check()
        self.assertIn("pool is closed", str(e.exception))
        with self.assertRaises(kvcheck.Error) as e:
            self.scanner.wait_check()
        self.assertIn("nothing to wait for", str(e.exception))

    def test_scanner__submit_then_wait(self):
        self.scanner.submit([layer(2, 3)])
        with self.assertRaises(kvcheck.Error) as e:
            self.scanner.submit([layer(2, 3)])
        self.assertIn("already in flight", str(e.exception))
        self.assertTrue(self.scanner.wait().clean)
        with self.assertRaises(kvcheck.Error) as e:
            self.scanner.wait()
        self.assertIn("nothing to wait for", str(e.exception))


class BadInput(unittest.TestCase):
    def setUp(self):
        self.scanner = kvcheck.Scanner(LAY, device="cpu")

    def error(self, *args, **kw):
        with self.assertRaises(kvcheck.Error) as e:
            self.scanner.scan(*args, **kw)
        return str(e.exception)

    def test_bad__not_whole_pages(self):
        self.assertIn("whole, non-zero number of fp8_flashmla pages of 41984 bytes: 42000 bytes is 1 pages and 16 "
                      "bytes", self.error([bytes(42000)]))
        self.assertIn("whole, non-zero number", self.error([b""]))

    def test_bad__page_out_of_range_or_negative(self):
        self.assertIn("page list entry 1 is page 5, but each layer buffer holds 2 pages (0-1)",
                      self.error([layer(2, 1)], pages=[0, 5]))
        self.assertIn("page list entry 0 is -1", self.error([layer(2, 1)], pages=[-1]))
        self.assertIn("page list entry 1 is -3: a page number is never negative",
                      self.error([layer(2, 1)], pages=array.array("q", [0, -3])))
        self.assertIn("page list is empty", self.error([layer(2, 1)], pages=[]))

    def test_bad__misaligned_buffer(self):
        buf = bytearray(LAY.page_bytes + 2)
        self.assertIn("is misaligned: fp8_flashmla pages hold 4-byte elements", self.error([memoryview(buf)[2:]]))

    def test_bad__non_contiguous_buffer(self):
        buf = bytearray(2 * LAY.page_bytes)
        self.assertIn("non-contiguous buffer", self.error([memoryview(buf)[::2]]))

    def test_bad__layers_of_different_sizes_or_kinds(self):
        self.assertIn("layer 1 holds 83968 bytes but layer 0 holds 41984", self.error([layer(1, 1), layer(2, 1)]))
        self.assertIn("layer 0 is a int", self.error([3]))
        self.assertIn("no layers", self.error([]))

    def test_bad__stream_for_host_memory_and_unknown_device(self):
        self.assertIn("CUDA stream was given for host memory", self.error([layer(1, 1)], stream=5))
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.Scanner(LAY, device="tpu")
        self.assertIn("unknown device 'tpu'", str(e.exception))
        with self.assertRaises(kvcheck.Error):
            kvcheck.Scanner("fp8_flashmla")

    def test_bad__closed_scanner(self):
        self.scanner.close()
        self.assertIn("closed", self.error([layer(1, 1)]))


class Check(unittest.TestCase):
    PREFILL = "--disaggregation-mode prefill --kv-cache-dtype fp8_e4m3"
    DECODE = "--disaggregation-mode decode --kv-cache-dtype fp8_e4m3 --enable-hisparse --disable-radix-cache"

    def glm52(self, prefill_args, sglang_version=None):
        return kvcheck.check(gpu="B300", model="glm-5.2", prefill_args=prefill_args, decode_args=self.DECODE,
                             sglang_version=sglang_version)

    def test_check__glm52_pair_and_its_fix(self):
        v = self.glm52(self.PREFILL)
        self.assertFalse(v.compatible)
        self.assertEqual(v.sglang_version, "0.5.23")
        self.assertIsNone(v.caught_at)  # SGLang's bootstrap passes it: NaN on the first request
        self.assertTrue(any("no SGLang version given" in w for w in v.warnings))
        fix = v.fixes[0]
        self.assertEqual(fix["worker"], "prefill")
        self.assertEqual(fix["add_args"], ["--dsa-prefill-backend", "flashmla_kv"])  # 0.5.20+: the active backend
        fixed = self.glm52(self.PREFILL + " " + " ".join(fix["add_args"]))
        self.assertTrue(fixed.compatible)
        self.assertEqual(fixed.fixes, [])

    def test_check__the_release_decides_the_fix(self):
        v = self.glm52(self.PREFILL, sglang_version="0.5.18")
        self.assertEqual(v.sglang_version, "0.5.18")
        self.assertEqual(v.fixes[0]["add_args"],
                         ["--dsa-prefill-backend", "flashmla_kv", "--dsa-decode-backend", "flashmla_kv"])
        self.assertFalse(self.glm52(self.PREFILL + " --dsa-prefill-backend flashmla_kv", "0.5.18").compatible)
        self.assertTrue(self.glm52(self.PREFILL + " --dsa-prefill-backend flashmla_kv", "0.5.20").compatible)

    def test_check__a_release_that_refuses_a_worker_raises(self):
        with self.assertRaises(kvcheck.Error) as e:
            self.glm52(self.PREFILL, sglang_version="0.5.11")
        self.assertIn("HiSparse requires bfloat16 KV cache", str(e.exception))

    def test_check__unknown_gpu_raises_with_the_library_message(self):
        with self.assertRaises(kvcheck.Error) as e:
            kvcheck.check(gpu="Z9000", model="glm-5.2")
        self.assertIn("Z9000", str(e.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
