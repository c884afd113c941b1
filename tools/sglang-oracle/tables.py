"""Write the conformance tables kvcheck replays in ctest from the oracle's
JSON lines (matrix.py output, one file per release and GPU).

usage: python3 tables.py ORACLE_TABLES_DIR OUT_DIR

One file per GPU, OUT_DIR/<GPU>.tsv, tab-separated, '#' comments and empty
lines ignored. Format 3 (a format-1 or -2 reader that skips unknown line
kinds still reads every `case` and `xcase` line correctly):

  format  3
  release <version>...          the releases, in the order of every case's results
  flag    <side> <spelling>...  the backend flag each release's parser has, per side (prefill, decode)
  result  <id> ok <kv_cache_dtype> <page_size> <prefill> <decode> <row bytes>
  result  <id> refused <text>
  extra   <id> <key>=<value>...  more outputs of result <id> (ok results only)
  case    <model> <dtype> <prefill> <decode> <mode> <hisparse> <results>
  xcase   <model> <dtype> <prefill> <decode> <mode> <hisparse> <radix> <spec> <draft_dtype> <page_size> <results>
  ecase   <xcase inputs> <draft_model> <draft_backend> <parallel> <results>

Inputs: '-' is unset. <model> names tests/conformance/sglang/models/<model>.json
(HF config.json fields). <hisparse> and <radix> are 0/1. The worker's command
line is

  --model-path M --tp 8 [--kv-cache-dtype D] [PFLAG P] [DFLAG Q]
  [--disaggregation-mode MODE] [--enable-hisparse] [--disable-radix-cache]
  [--speculative-algorithm SPEC] [--speculative-draft-kv-cache-dtype X]
  [--page-size N]

with PFLAG/DFLAG the release's `flag` spelling. A `case` line is a case whose
--disable-radix-cache is given exactly when --enable-hisparse is, with no
speculative algorithm, draft dtype or page size (the inputs of format 1);
every other case is an `xcase` line (<radix> 1 = --disable-radix-cache
given, <spec> EAGLE/NEXTN, <draft_dtype> the --speculative-draft-kv-cache-dtype
value, <page_size> the --page-size value). An `ecase` line is an `xcase`
with three more inputs, for a case with a separate draft model (EAGLE3,
STANDALONE) or parallelism flags; its command line is the xcase's, then

  [--speculative-draft-model-path DRAFT] [--speculative-draft-attention-backend B]
  [PARALLEL]

with DRAFT the config <draft_model> (models/<draft_model>.json; the oracle
serves it for the path /fake/draft/<draft_model>) and PARALLEL the
space-separated flags of <parallel> (say `--enable-dp-attention --dp 8`).

Results: <row bytes> is bytes per token per layer of the target's MLA KV
buffer (the one the PD transfer sends: the pool's get_contiguous_buf_infos).
<text> is
  argparse: <message>          the release's parser refused (Python 3.11 argparse wording)
  init: <Type>: <message>      refused by the model runner after argument resolution
                               (KV dtype mapping, pool row, DSA backend validators)
  <Type>: <message>            refused by argument resolution or check_server_args()
`extra` keys: torch (the KV torch dtype); scale_row (bytes per token per
layer of a second, scale buffer: the FP4 MLA pool keeps its UE8M0 block
scales apart from the packed E2M1 values, oracle.py fp4_pool()); and for
speculative cases draft_arch, draft_torch, draft_row, draft_scale_row (the
draft worker's architecture after SGLang's NextN rewrite, KV torch dtype,
row and scale bytes), or draft_note when the draft could not be worked out;
for a separate draft model draft_arch, draft_torch and draft_pool
(LAYERSxKV_HEADSxHEAD_DIM, then /V_HEAD_DIM when that differs: the draft
pool's layers, KV heads per rank and head widths).

<results> holds one result id per release, run-length coded: '4*12,7,9*3' is
4 twelve times, then 7, then 9 three times; '.' is a release that did not
run the case (does not occur when every run finished).
"""
import collections, json, os, re, sys


def version_key(v):
    m = re.match(r"(\d+)\.(\d+)\.(\d+)(rc(\d+))?(\.post(\d+))?$", v)
    a, b, c, _, rc, _, post = m.groups()
    return (int(a), int(b), int(c), int(rc) if rc else 10**6, int(post) if post else 0)


def clean(s):
    return str(s).replace("\t", " ").replace("\n", " ")


def rle(ids):
    out, i = [], 0
    while i < len(ids):
        j = i
        while j < len(ids) and ids[j] == ids[i]:
            j += 1
        out.append(ids[i] if j - i == 1 else f"{ids[i]}*{j - i}")
        i = j
    return ",".join(out)


def main(src, out):
    rows = collections.defaultdict(dict)   # gpu -> {(release, case): result}
    releases, flags, broken = set(), {}, []
    for name in sorted(os.listdir(src)):
        if not name.endswith(".jsonl"):
            continue
        for line in open(os.path.join(src, name)):
            if line.startswith("FLAGS "):
                f = json.loads(line[6:])
                flags[f["v"]] = (f["prefill"], f["decode"])
                continue
            if not line.startswith("ROW "):
                continue
            r = json.loads(line[4:])
            releases.add(r["v"])
            m, dt, pb, db, mode, hs, radix, spec, draft, page, dmodel, dab, par = r["case"]
            d = lambda x: "-" if x is None else str(x)
            if "refused" in r and r["refused"].startswith("oracle: "):
                broken.append(f"{r['v']} {r['gpu']} {r['case']}: {r['refused']}")
            if dmodel is not None or dab is not None or par is not None:
                case = ("ecase", m, d(dt), d(pb), d(db), d(mode), "1" if hs else "0", "1" if radix else "0",
                        d(spec), d(draft), d(page), d(dmodel), d(dab), d(par))
            elif radix == hs and spec is None and draft is None and page is None:
                case = ("case", m, d(dt), d(pb), d(db), d(mode), "1" if hs else "0")
            else:
                case = ("xcase", m, d(dt), d(pb), d(db), d(mode), "1" if hs else "0", "1" if radix else "0",
                        d(spec), d(draft), d(page))
            if "refused" in r:
                res = (("refused", clean(r["refused"])), ())
            else:
                o = r["ok"]
                extra = [f"torch={o['torch_dtype']}"]
                if "scale_row" in o:
                    extra.append(f"scale_row={o['scale_row']}")
                dr = o.get("draft")
                if dr is not None:
                    for k in ("arch", "torch_dtype", "row", "scale_row", "pool"):
                        if k in dr:
                            extra.append(f"draft_{'torch' if k == 'torch_dtype' else k}={dr[k]}")
                    if "note" in dr:
                        extra.append("draft_note=" + clean(dr["note"]))
                res = (("ok", str(o["kv_cache_dtype"]), str(o["page_size"]), str(o["prefill"]), str(o["decode"]),
                        str(o["row"])), tuple(extra))
            rows[r["gpu"]][(r["v"], case)] = res
    if broken:
        raise SystemExit(f"{len(broken)} cases where the oracle itself failed; no tables written:\n  "
                         + "\n  ".join(broken[:20]))
    releases = sorted(releases, key=version_key)
    os.makedirs(out, exist_ok=True)
    for gpu, table in sorted(rows.items()):
        results, lines = {}, []
        cases = sorted({c for (_, c) in table}, key=lambda c: (c[0], c))
        holes = 0
        for c in cases:
            ids = []
            for v in releases:
                res = table.get((v, c))
                if res is None:
                    ids.append(".")
                    holes += 1
                    continue
                ids.append(str(results.setdefault(res, len(results) + 1)))
            lines.append("\t".join(c) + "\t" + rle(ids))
        path = os.path.join(out, gpu + ".tsv")
        with open(path, "w") as f:
            f.write(f"# SGLang's own resolution on {gpu}, from tools/sglang-oracle (matrix.py, tables.py); do not edit\n")
            f.write("# format 3: see tools/sglang-oracle/tables.py for the line kinds\n")
            f.write("format\t3\n")
            f.write("release\t" + "\t".join(releases) + "\n")
            f.write("flag\tprefill\t" + "\t".join(flags[v][0] for v in releases) + "\n")
            f.write("flag\tdecode\t" + "\t".join(flags[v][1] for v in releases) + "\n")
            for (res, extra), i in sorted(results.items(), key=lambda kv: kv[1]):
                f.write(f"result\t{i}\t" + "\t".join(res) + "\n")
                if extra:
                    f.write(f"extra\t{i}\t" + "\t".join(extra) + "\n")
            f.write("\n".join(lines) + "\n")
        print(gpu, len(cases), "cases", len(results), "results", holes, "holes", os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
