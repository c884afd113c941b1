#!/bin/bash
# usage: sweep.sh GPU MODEL -- flags (use --dsa-*-backend; renamed per release)
gpu=$1; model=$2; shift 3
for v in $(ls -d ${SGLANG_SRC:-sglang-src}/0.5.* | xargs -n1 basename | sort -V); do
  a="$*"
  case $v in 0.5.3rc0) continue;; 0.5.3) a="${a//--dsa-prefill-backend/--nsa-prefill}"; a="${a//--dsa-decode-backend/--nsa-decode}"; a="${a//flashmla_kv/flashmla_decode}"; a="${a//flashmla_sparse/flashmla_prefill}";; 0.5.4|0.5.5|0.5.6|0.5.7|0.5.8|0.5.9|0.5.10|0.5.11|0.5.12) a="${a//--dsa-/--nsa-}";; esac
  r=$(timeout 120 python resolve.py $v $gpu $model -- $a 2>&1 | grep -E "^RESULT" | tail -1 | sed 's/^RESULT //')
  python3 -c "
import json,sys
try: d=json.loads(sys.argv[1])
except Exception: print(sys.argv[2].ljust(8),'NO RESULT'); sys.exit()
r=d.get('resolved',{}); row=d.get('row',{})
pb=r.get('dsa_prefill_backend', r.get('nsa_prefill_backend', r.get('nsa_prefill')))
db=r.get('dsa_decode_backend', r.get('nsa_decode_backend', r.get('nsa_decode')))
print(sys.argv[2].ljust(8), r.get('kv_cache_dtype'), r.get('page_size'), pb, db, row.get('bytes'), d.get('exit') or (d.get('error') or '')[:160])
" "$r" $v
done
