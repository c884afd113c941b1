"""Count the distinct outcomes in one matrix.py output file.
usage: python3 summarize.py FILE.jsonl [N]"""
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    if not l.startswith("ROW "):
        continue
    r = json.loads(l[4:])
    if "ok" in r:
        o = r["ok"]
        k = f"OK {o['kv_cache_dtype']} ps={o['page_size']} P={o.get('prefill')} D={o.get('decode')} row={o.get('row')}"
    else:
        k = r["refused"][:140]
    c[k] += 1
for k, v in c.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 25):
    print(v, k)
