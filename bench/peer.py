"""The Python side of kvcheck's benchmark: an engine's KV pool in PyTorch's
memory (79 layer buffers x 1024 pages of fp8_flashmla, page 64), scanned
through the Python package (kvcheck.Scanner) and checked by the PyTorch
code a user would write, in the same process over the same memory:

    (nope & 0x7F) == 0x7F,  scale <= 0 or exponent all ones,  bf16 exponent all ones

Whole pool, one request (66 pages x 79 layers; each call a different
request's pages) and one page (the fixed cost of a call), each with the
verdict on the host, through Scanner.scan(layers, pages) and through a
Pool (Scanner.pool(layers), the layers checked once): its scan() (a report
with digests) and its check() (the gate's verdict, no report when clean);
medians, with ratios.
Usage: KVCHECK_LIBRARY=build/libkvcheck.so python3 bench/peer.py [--layers 79] [--pages 1024]"""
import argparse
import itertools
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import torch  # noqa: E402

import kvcheck  # noqa: E402

TOKENS, RECORD = 64, 656


def clean_pool(nlayers, npages):
    """Clean pages: e4m3 NoPE without NaN, positive normal scales, finite bf16 RoPE."""
    scales = torch.tensor([0.5, 1.0, 2.0, 0.25], dtype=torch.float32).view(torch.uint8)
    pool = []
    for _ in range(nlayers):
        x = torch.randint(0, 0x7E, (npages, TOKENS, RECORD), dtype=torch.uint8, device="cuda")
        x[..., 512:528] = scales.cuda()
        x[..., 528:656] = torch.randn(npages, TOKENS, 64, device="cuda").to(torch.bfloat16).view(torch.uint8)
        pool.append(x.view(-1))
    return pool


def torch_check(pages):
    """The check a user would write, over [n, 64, 656] bytes: a bool tensor on the GPU."""
    nope = pages[..., :512]
    bad = ((nope & 0x7F) == 0x7F).any()
    raw = pages[..., 512:528]
    scale, bits = raw.view(torch.float32), raw.view(torch.int32)
    bad |= ((scale <= 0) | ((bits & 0x7F800000) == 0x7F800000)).any()
    rope = pages[..., 528:656].view(torch.int16)
    return bad | ((rope & 0x7F80) == 0x7F80).any()


def torch_pool(pool, npages, index=None):
    bad = torch.zeros((), dtype=torch.bool, device="cuda")
    for layer in pool:
        pages = layer.view(npages, TOKENS, RECORD)
        bad |= torch_check(pages if index is None else pages[index])
    return bool(bad.item())


def median_time(fn, iters):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=79)
    ap.add_argument("--pages", type=int, default=1024)
    ap.add_argument("--request", type=int, default=66)
    a = ap.parse_args()
    lay = kvcheck.layout("fp8_flashmla", kv_lora_rank=512, qk_rope_head_dim=64, page_size=64)
    pool = clean_pool(a.layers, a.pages)
    scanner = kvcheck.Scanner(lay, device="gpu")
    print(f"peer: {torch.cuda.get_device_name()}, torch {torch.__version__}, kvcheck {kvcheck.version()}; "
          f"pool {a.layers} x {a.pages} pages = {a.layers * a.pages * lay.page_bytes / 1e9:.2f} GB")
    # each call a different request's pages, spread over the pool as a radix cache leaves them
    requests = [[i * (a.pages // a.request) + 7 + k for i in range(a.request)] for k in range(4)]
    request, turn = requests[0], itertools.cycle(requests)
    index = torch.tensor(request, device="cuda")
    one = [pool[0][:lay.page_bytes]]
    bound, bound_one = scanner.pool(pool), scanner.pool(one)  # an engine's pool, checked once
    req = f"one request: {a.request} pages x {a.layers} layers"
    rows = [
        ("whole pool", lambda: scanner.scan(pool).clean, lambda: torch_pool(pool, a.pages), 10),
        (req + ", scan()", lambda: scanner.scan(pool, pages=next(turn)).clean,
         lambda: torch_pool(pool, a.pages, index), 200),
        (req + ", Pool", lambda: bound.scan(next(turn)).clean, lambda: torch_pool(pool, a.pages, index), 200),
        (req + ", Pool.check", lambda: bound.check(next(turn)) is None, lambda: torch_pool(pool, a.pages, index),
         200),
        ("one page of one layer (fixed cost), scan()", lambda: scanner.scan(one).clean,
         lambda: torch_pool([one[0]], 1), 500),
        ("one page of one layer (fixed cost), Pool", lambda: bound_one.scan().clean,
         lambda: torch_pool([one[0]], 1), 500),
        ("one page of one layer (fixed cost), Pool.check", lambda: bound_one.check() is None,
         lambda: torch_pool([one[0]], 1), 500),
    ]
    for what, kv, pt, iters in rows:
        assert kv() and not pt(), "the clean pool must pass both checks"
        k, p = median_time(kv, iters), median_time(pt, max(iters // 10, 5))
        print(f"{what:<52} kvcheck (Python) {k * 1e6:10.1f} us   PyTorch check {p * 1e6:10.1f} us   "
              f"PyTorch / kvcheck {p / k:7.1f}")
    # both find a page damaged in the middle of the pool
    layer = pool[a.layers // 2].view(a.pages, TOKENS, RECORD)
    layer[request[3], 5, 512:516] = torch.tensor([-1.0]).view(torch.uint8).cuda()
    r = scanner.scan(pool, pages=request)
    print(f"damaged page {request[3]} of layer {a.layers // 2}: kvcheck {r.bad_pages}, "
          f"PyTorch check {'damaged' if torch_pool(pool, a.pages, index) else 'clean'}")


if __name__ == "__main__":
    main()
