"""Diff neighbouring releases' matrix outputs, per GPU (how ERAS.md's eras were found).
usage: TABLES=DIR [MODEL=NAME] [N=rows to show] python3 compare.py [GPU...]"""
import json, glob, os, re, sys
D = os.environ.get("TABLES", "tables")


def vkey(v):
    m = re.match(r"0\.5\.(\d+)(?:\.post(\d+)|rc(\d+))?", v)
    a, post, rc = m.group(1), m.group(2), m.group(3)
    return (int(a), -1 if rc else (int(post) if post else 0), int(rc or 0))


def load(v, g):
    f = f"{D}/{v}_{g}.jsonl"
    if not os.path.exists(f):
        return None
    d = {}
    for l in open(f):
        if not l.startswith("ROW "):
            continue
        r = json.loads(l[4:])
        if os.environ.get("MODEL") and r["case"][0] != os.environ["MODEL"]:
            continue
        k = tuple(r["case"])
        if "ok" in r:
            o = r["ok"]
            d[k] = ("OK", o["kv_cache_dtype"], o["page_size"], o.get("prefill"), o.get("decode"), o.get("row"),
                    json.dumps(o.get("draft"), sort_keys=True))
        else:
            d[k] = ("REFUSED", re.sub(r"0x[0-9a-f]+", "", r["refused"]))
    return d


if __name__ == "__main__":
    vers = sorted({os.path.basename(f).split("_")[0] for f in glob.glob(f"{D}/*.jsonl")}, key=vkey)
    gpus = sys.argv[1:] or ["H200", "B200", "B300", "RTX6000", "GB10", "MI300X", "MI325X", "MI355X"]
    for g in gpus:
        print("=====", g)
        prev = pv = None
        for v in vers:
            d = load(v, g)
            if d is None:
                continue
            if prev is not None:
                diff = [k for k in set(d) & set(prev) if d[k] != prev[k]]
                ok = sum(1 for x in d.values() if x[0] == "OK")
                print(f"{pv:>12} -> {v:<12} rows={len(d)} ok={ok} changed={len(diff)}")
                for k in sorted(diff, key=str)[:int(os.environ.get("N", "0"))]:
                    print("      ", k, prev[k], "=>", d[k])
            prev, pv = d, v
