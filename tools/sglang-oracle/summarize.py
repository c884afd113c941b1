import json, sys, collections
rows=[json.loads(l[4:]) for l in open(sys.argv[1]) if l.startswith('ROW ')]
c=collections.Counter()
for r in rows:
    if 'out' in r:
        o=r['out']; k=f"OK {o['kv_cache_dtype']} ps={o['page_size']} P={o.get('prefill')} D={o.get('decode')} row={o.get('row')}"
    else: k=r['refused'][:140]
    c[k]+=1
for k,v in c.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 25): print(v,k)
