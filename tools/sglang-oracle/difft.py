"""Group the differences between two releases' outputs on one GPU by pattern.
usage: TABLES=DIR python3 difft.py V1 V2 GPU [N]"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import load

v1, v2, g = sys.argv[1:4]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 6
a, b = load(v1, g), load(v2, g)
pat = collections.defaultdict(list)
for k in set(a) & set(b):
    if a[k] != b[k]:
        pat[(a[k], b[k])].append(k)
for (x, y), ks in sorted(pat.items(), key=lambda t: -len(t[1]))[:n]:
    print(f"[{len(ks)}] {x}\n   => {y}\n   e.g. {sorted(ks, key=str)[0]}")
