"""Write the conformance tables kvcheck replays in ctest from the oracle's
JSON lines (matrix.py output, one file per release and GPU).

usage: python3 tables.py ORACLE_TABLES_DIR OUT_DIR

One file per GPU, OUT_DIR/<GPU>.tsv, tab-separated, '#' comments:

  release <version>...          the releases, in the order of every case's results
  flag    <side> <spelling>...  the backend flag each release's parser has, per side
  result  <id> ok <kv_cache_dtype> <page_size> <prefill> <decode> <row bytes>
  result  <id> refused <text>   SGLang's exception (type: message), or 'argparse exit 2'
  case    <model> <dtype> <prefill> <decode> <mode> <hisparse> <results>

A '-' input is unset. <results> holds one result id per release, run-length
coded: '4*12,7,9*3' is 4 twelve times, then 7, then 9 three times; '.' is
a case the release's matrix did not contain (its parser lacks a choice or a
flag the case needs).
"""
import collections, json, os, sys

src, out = sys.argv[1], sys.argv[2]


def version_key(v):
    import re
    m = re.match(r"(\d+)\.(\d+)\.(\d+)(rc(\d+))?(\.post(\d+))?$", v)
    a, b, c, _, rc, _, post = m.groups()
    return (int(a), int(b), int(c), int(rc) if rc else 10**6, int(post) if post else 0)


rows = collections.defaultdict(dict)   # gpu -> {(release, case): result}
releases, flags = set(), {}
for name in sorted(os.listdir(src)):
    if not name.endswith(".jsonl"):
        continue
    for line in open(os.path.join(src, name)):
        if not line.startswith("ROW "):
            continue
        r = json.loads(line[4:])
        releases.add(r["v"])
        case = (r["model"], r["dtype"] or "-", r["pb"] or "-", r["db"] or "-", r["mode"] or "-",
                "1" if r["hisparse"] else "0")
        if "refused" in r:
            res = ("refused", r["refused"].replace("\t", " ").replace("\n", " "))
        else:
            o = r["out"]
            res = ("ok", str(o["kv_cache_dtype"]), str(o["page_size"]), str(o["prefill"]), str(o["decode"]),
                   str(o["row"]))
        rows[r["gpu"]][(r["v"], case)] = res
    if name.endswith("_H200.jsonl"):
        pass
releases = sorted(releases, key=version_key)

# each release's backend flag spellings, from its flag dump
dumps = os.path.join(os.path.dirname(os.path.abspath(src)), "flagdump")
for v in releases:
    f = json.load(open(os.path.join(dumps, v + ".json")))["flags"]
    pick = lambda *n: next(x for x in n if x in f)
    flags[v] = (pick("--dsa-prefill-backend", "--nsa-prefill-backend", "--nsa-prefill"),
                pick("--dsa-decode-backend", "--nsa-decode-backend", "--nsa-decode"))


def rle(ids):
    out, i = [], 0
    while i < len(ids):
        j = i
        while j < len(ids) and ids[j] == ids[i]:
            j += 1
        out.append(ids[i] if j - i == 1 else f"{ids[i]}*{j - i}")
        i = j
    return ",".join(out)


os.makedirs(out, exist_ok=True)
for gpu, table in sorted(rows.items()):
    results, lines = {}, []
    cases = sorted({c for (_, c) in table})
    for c in cases:
        ids = []
        for v in releases:
            res = table.get((v, c))
            if res is None:
                ids.append(".")
                continue
            ids.append(str(results.setdefault(res, len(results) + 1)))
        lines.append("case\t" + "\t".join(c) + "\t" + rle(ids))
    with open(os.path.join(out, gpu + ".tsv"), "w") as f:
        f.write(f"# SGLang's own resolution on {gpu}, from tools/sglang-oracle (matrix.py, tables.py); do not edit\n")
        f.write("release\t" + "\t".join(releases) + "\n")
        f.write("flag\tprefill\t" + "\t".join(flags[v][0] for v in releases) + "\n")
        f.write("flag\tdecode\t" + "\t".join(flags[v][1] for v in releases) + "\n")
        for res, i in sorted(results.items(), key=lambda kv: kv[1]):
            f.write(f"result\t{i}\t" + "\t".join(res) + "\n")
        f.write("\n".join(lines) + "\n")
    print(gpu, len(cases), "cases", len(results), "results", os.path.getsize(os.path.join(out, gpu + ".tsv")), "bytes")
