"""The Python package on the GPU with PyTorch: CUDA tensors scanned where
they are, on PyTorch's current stream, with the same counts, damaged
pages and digests as the CPU scanner over the same bytes; and the tensors
a GPU scanner must refuse. Exits with CTest's skip code 77 without torch
or a GPU."""
import array
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
try:
    import torch
except ImportError:
    print("torch is not installed: skipped")
    sys.exit(77)
if not torch.cuda.is_available():
    print("no CUDA device for torch: skipped")
    sys.exit(77)
import kvcheck  # noqa: E402
from test_kvcheck import LAY, layer  # noqa: E402


def on_gpu(buf):
    return torch.frombuffer(bytearray(buf), dtype=torch.uint8).cuda()


class Gpu(unittest.TestCase):
    def setUp(self):
        self.gpu = kvcheck.Scanner(LAY, device="gpu")
        self.cpu = kvcheck.Scanner(LAY, device="cpu")

    def test_gpu__cuda_tensors_match_the_cpu(self):
        host = [layer(6, 1), layer(6, 2, bad=(0, 5)), layer(6, 3, bad=(2,))]
        dev = [on_gpu(h) for h in host]
        for pages in (None, [5, 2, 0]):
            g, c = self.gpu.scan(dev, pages=pages), self.cpu.scan(host, pages=pages)
            self.assertEqual(g.device, "cuda")
            self.assertEqual((g.bad_pages, g.counts, g.digests), (c.bad_pages, c.counts, c.digests))
            self.assertEqual(g.to_dict()["findings"], c.to_dict()["findings"])

    def test_gpu__on_a_side_stream_and_a_page_tensor(self):
        dev = [on_gpu(layer(4, 7, bad=(3,)))]
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            dev[0][:LAY.page_bytes].zero_()  # queued on s: the scan must see it
            r = self.gpu.scan(dev, pages=torch.tensor([0, 3], dtype=torch.int64))
            self.assertIsNone(self.gpu.check(dev, pages=[1, 2]))
            dev[0][LAY.page_bytes:2 * LAY.page_bytes].zero_()  # the verdict waits for it too
            self.assertEqual(self.gpu.check(dev, pages=[1, 2]).bad_pages, [(0, 1)])
        self.assertEqual(r.bad_pages, [(0, 0), (0, 3)])  # page 0's scales are zero now
        zero = kvcheck.compare_digests([1], [r.digests[(0, 0)]], LAY)
        self.assertEqual(zero, ["zero"])

    def test_gpu__pool_of_cuda_tensors_scanned_by_pages(self):
        host = [layer(6, 1), layer(6, 2, bad=(0, 5))]
        pool = self.gpu.pool([on_gpu(h) for h in host])
        for pages in ([5, 2, 0], array.array("Q", [1]), torch.tensor([0, 5])):
            g, c = pool.scan(pages), self.cpu.scan(host, pages=[int(p) for p in pages])
            self.assertEqual((g.bad_pages, g.counts, g.digests), (c.bad_pages, c.counts, c.digests))
            k = pool.check(pages)  # the gate's verdict: a report only for damage
            self.assertEqual(k is None, c.clean)
            if k is not None:
                self.assertEqual((k.bad_pages, k.counts), (c.bad_pages, c.counts))
        with self.assertRaises(kvcheck.Error) as e:
            pool.scan(torch.tensor([3, -1]))
        self.assertIn("page list entry 1 is -1: a page number is never negative", str(e.exception))

    def test_gpu__views_of_one_pool_tensor(self):
        pool = on_gpu(layer(8, 4, bad=(6,)) + layer(8, 5)).view(2, 8 * LAY.page_bytes)
        r = self.gpu.scan(list(pool.unbind(0)))
        self.assertEqual(r.bad_pages, [(0, 6)])

    def test_gpu__refuses_cpu_non_contiguous_and_foreign_tensors(self):
        cases = [
            ([torch.zeros(LAY.page_bytes, dtype=torch.uint8)], "is a CPU tensor but the scanner runs on the GPU"),
            ([torch.zeros(2, LAY.page_bytes, dtype=torch.uint8, device="cuda").t()], "non-contiguous tensor"),
            ([on_gpu(layer(2, 1))[2:LAY.page_bytes + 2]], "is misaligned"),
            ([bytes(LAY.page_bytes)], "is host memory (bytes) but the scanner runs on the GPU"),
        ]
        for layers, message in cases:
            with self.assertRaises(kvcheck.Error) as e:
                self.gpu.scan(layers)
            self.assertIn(message, str(e.exception))
        with self.assertRaises(kvcheck.Error) as e:
            self.cpu.scan([on_gpu(layer(1, 1))])
        self.assertIn("is a CUDA tensor (cuda:0) but the scanner runs on the CPU", str(e.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
