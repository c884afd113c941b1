#!/bin/bash
# The whole oracle run: download SGLang releases, unpack their .py files,
# build the venv, run matrix.py for every release x GPU, write the tables.
#
# usage: tools/sglang-oracle/sweep.sh WORKDIR [VERSION...]
#   WORKDIR  scratch directory (wheels, release trees, venv, matrix output; ~2 GB)
#   VERSION  releases to run (default: every release in src/engine/sglang/releases.c)
# env:
#   PYTHON   interpreter for the venv (default python3.11; the tables' argparse
#            wording is Python 3.11's)
#   JOBS     matrix runs at a time (default 2)
#   GPUS     default "H200 B200 B300 RTX6000 GB10 MI300X MI325X MI355X"
#   OUT      where tables.py writes (default tests/conformance/sglang of this tree)
#   NOTABLES=1  stop after the matrix runs
#   ATTENTION=1 run matrix.py --attention instead (OUT default
#               tests/conformance/sglang/attention, runs under WORKDIR/out-attention)
#   QUANT=1     run matrix.py --quant instead (OUT default
#               tests/conformance/sglang/quant, runs under WORKDIR/out-quant)
#   MODELOPT=1  run matrix.py --modelopt instead (OUT default
#               tests/conformance/sglang/modelopt, runs under WORKDIR/out-modelopt)
#   PARALLEL=1  run matrix.py --parallel instead (OUT default
#               tests/conformance/sglang/parallel, runs under WORKDIR/out-parallel)
#   SURVEY=1    run matrix.py --survey instead (OUT default
#               tests/conformance/sglang/survey, runs under WORKDIR/out-survey)
#   REUSE=1     keep the earlier run's rows of the cases it has (matrix.py
#               --reuse) and run only the new ones; the earlier file is
#               RUN.prev while it runs, removed when it succeeds and put back
#               when it fails (a sweep killed midway leaves RUN.prev beside a
#               partial RUN.jsonl: move it back by hand)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${1:?usage: sweep.sh WORKDIR [VERSION...]}; shift
mkdir -p "$work" && work=$(cd "$work" && pwd)
PYTHON=${PYTHON:-python3.11}
JOBS=${JOBS:-2}
GPUS=${GPUS:-"H200 B200 B300 RTX6000 GB10 MI300X MI325X MI355X"}
if [ -n "${ATTENTION:-}" ]; then
  OUT=${OUT:-$repo/tests/conformance/sglang/attention}; runs=out-attention; only=--attention
elif [ -n "${QUANT:-}" ]; then
  OUT=${OUT:-$repo/tests/conformance/sglang/quant}; runs=out-quant; only=--quant
elif [ -n "${MODELOPT:-}" ]; then
  OUT=${OUT:-$repo/tests/conformance/sglang/modelopt}; runs=out-modelopt; only=--modelopt
elif [ -n "${PARALLEL:-}" ]; then
  OUT=${OUT:-$repo/tests/conformance/sglang/parallel}; runs=out-parallel; only=--parallel
elif [ -n "${SURVEY:-}" ]; then
  OUT=${OUT:-$repo/tests/conformance/sglang/survey}; runs=out-survey; only=--survey
else
  OUT=${OUT:-$repo/tests/conformance/sglang}; runs=out; only=
fi
if [ $# -gt 0 ]; then
  versions="$*"
else
  versions=$(grep -o '"0\.[0-9][0-9.a-z]*"' "$repo/src/engine/sglang/releases.c" | tr -d '"' | sort -V)
fi

# 1. venv (no torch: stubs.py / faketorch.py stand in)
if [ ! -x "$work/venv/bin/python" ]; then
  "$PYTHON" -m venv "$work/venv"
  "$work/venv/bin/pip" install -q -r "$here/requirements.txt"
fi
py=$work/venv/bin/python

# 2. releases: the wheel's .py files under $work/src/<version>/sglang/
mkdir -p "$work/whl" "$work/src" "$work/$runs"
for v in $versions; do
  [ -d "$work/src/$v/sglang" ] && continue
  whl=$(ls "$work/whl"/sglang-"$v"-*.whl 2>/dev/null | head -1 || true)
  if [ -z "$whl" ]; then
    "$py" -m pip download -q --no-deps "sglang==$v" -d "$work/whl"
    whl=$(ls "$work/whl"/sglang-"$v"-*.whl | head -1)
  fi
  "$py" - "$whl" "$work/src/$v" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith("sglang/") and n.endswith(".py")])
PY
  # JIT kernel loaders look for these directories at import time
  for d in jit_kernel/include jit_kernel/csrc kernels/jit/include kernels/jit/csrc; do
    [ -d "$work/src/$v/sglang/${d%%/*}" ] && mkdir -p "$work/src/$v/sglang/$d"
  done
done

# 3. the matrix, one process per release x GPU (platform queries are cached per process)
export SGLANG_SRC=$work/src
unset PYTHONDONTWRITEBYTECODE   # byte-compile the release trees once
for v in $versions; do for g in $GPUS; do echo "$v $g"; done; done |
  xargs -P "$JOBS" -L 1 sh -c 'f="$2/$3/$6_$7"; r=
    if [ -n "$5" ] && [ -s "$f.jsonl" ]; then mv "$f.jsonl" "$f.prev" && r="--reuse $f.prev"; fi
    if nice -n 10 "$0" "$1/matrix.py" "$6" "$7" $4 $r > "$f.jsonl" 2> "$f.err"; then rm -f "$f.prev"
    else echo "FAILED $6 $7"; [ -z "$r" ] || mv "$f.prev" "$f.jsonl"; fi' \
    "$py" "$here" "$work" "$runs" "$only" "${REUSE:-}"
grep -h DONE "$work/$runs"/*.err | awk '{n++; s+=$6} END {print n " runs, " s " s of CPU"}'

# 4. the tables
[ -n "${NOTABLES:-}" ] || "$py" "$here/tables.py" "$work/$runs" "$OUT"
