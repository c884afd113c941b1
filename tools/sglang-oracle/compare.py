import json, glob, os, re, collections, sys
def vkey(v):
    m = re.match(r"0\.5\.(\d+)(?:\.post(\d+)|rc(\d+))?", v)
    a, post, rc = m.group(1), m.group(2), m.group(3)
    return (int(a), -1 if rc else (int(post) if post else 0), int(rc or 0))
def load(v, g):
    f = f"tables/{v}_{g}.jsonl"
    if not os.path.exists(f): return None
    d = {}
    for l in open(f):
        if not l.startswith("ROW "): continue
        r = json.loads(l[4:])
        if os.environ.get("MODEL") and r["model"] != os.environ["MODEL"]: continue
        k = (r["model"], r["dtype"], r["pb"], r["db"], r["mode"], r["hisparse"])
        if "out" in r:
            o = r["out"]; val = ("OK", o["kv_cache_dtype"], o["page_size"], o.get("prefill"), o.get("decode"), o.get("row"))
        else:
            val = ("REFUSED", re.sub(r"0x[0-9a-f]+", "", r["refused"])[:200])
        d[k] = val
    return d
vers = sorted({os.path.basename(f).split("_")[0] for f in glob.glob("tables/*.jsonl")}, key=vkey)
gpus = sys.argv[1:] or ["H200", "B200", "RTX6000", "MI300X", "MI355X"]
for g in gpus:
    print("=====", g)
    prev = None; pv = None
    for v in vers:
        d = load(v, g)
        if d is None: continue
        if prev is not None:
            common = set(d) & set(prev)
            diff = [k for k in common if d[k] != prev[k]]
            new = len(set(d) - set(prev)); gone = len(set(prev) - set(d))
            ok = sum(1 for x in d.values() if x[0] == "OK")
            print(f"{pv:>12} -> {v:<12} rows={len(d)} ok={ok} changed={len(diff)} new_inputs={new} dropped_inputs={gone}")
            for k in sorted(diff, key=str)[:int(os.environ.get("N", "0"))]:
                print("      ", k, prev[k], "=>", d[k])
        prev, pv = d, v
