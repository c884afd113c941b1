import sys, collections
sys.argv, args = sys.argv[:1], sys.argv[1:]
exec(open("compare.py").read().split("vers = sorted")[0])
v1, v2, g = args[:3]; n = int(args[3]) if len(args) > 3 else 6
a, b = load(v1, g), load(v2, g)
pat = collections.defaultdict(list)
for k in set(a) & set(b):
    if a[k] != b[k]:
        pat[(a[k], b[k])].append(k)
for (x, y), ks in sorted(pat.items(), key=lambda t: -len(t[1]))[:n]:
    print(f"[{len(ks)}] {x}\n   => {y}\n   e.g. {sorted(ks, key=str)[0]}")
