#!/bin/bash
# One worker setting across every unpacked release (one process per release).
# usage: SGLANG_SRC=DIR across.sh GPU MODEL -- <flags, spelled --dsa-*-backend>
# The backend flags are respelled per release (--nsa-*-backend before 0.5.13,
# --nsa-prefill/--nsa-decode in 0.5.3*); backend values are not renamed.
here=$(cd "$(dirname "$0")" && pwd)
gpu=$1; model=$2; shift 3
py=${PY:-python3}
for v in $(ls -d "${SGLANG_SRC:-sglang-src}"/0.5.* | xargs -n1 basename | sort -V); do
  a="$*"
  case $v in
    0.5.3rc0) continue;;
    0.5.3|0.5.3rc2|0.5.3.post*) a="${a//--dsa-prefill-backend/--nsa-prefill}"; a="${a//--dsa-decode-backend/--nsa-decode}";;
    0.5.4*|0.5.5*|0.5.6*|0.5.7*|0.5.8*|0.5.9*|0.5.10*|0.5.11*|0.5.12*) a="${a//--dsa-/--nsa-}";;
  esac
  r=$(timeout 120 "$py" "$here/resolve.py" "$v" "$gpu" "$model" -- $a 2>/dev/null | grep -E "^RESULT" | tail -1 | sed 's/^RESULT //')
  "$py" -c "
import json,sys
try: d=json.loads(sys.argv[1])
except Exception: print(sys.argv[2].ljust(12),'NO RESULT'); sys.exit()
o=d.get('ok')
print(sys.argv[2].ljust(12), (' '.join(str(o.get(k)) for k in ('kv_cache_dtype','page_size','prefill','decode','row','torch_dtype')) if o else d['refused'][:200]))
" "$r" "$v"
done
