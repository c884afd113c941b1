#!/bin/sh
# run.sh BUILD SECONDS [HARNESS...]: runs each libFuzzer harness of BUILD
# (configured with -DKVC_FUZZ=ON) for SECONDS, seeded with the committed
# corpus and the crash reproducers, and fails when any of them crashes,
# leaks, breaks an oracle, times out or runs out of memory. New inputs go to
# BUILD/fuzz/corpus/NAME, crashes to BUILD/fuzz/artifacts/NAME/; the source
# tree is never written.
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUILD SECONDS [HARNESS...]" >&2; exit 2; }
build=$1 secs=$2
shift 2
src=$(cd "$(dirname "$0")" && pwd)
harnesses=${*:-worker args config model npy safetensors detect log recipe}
failed=""
for h in $harnesses; do
  bin=$build/tests/fuzz/fuzz_$h
  [ -x "$bin" ] || { echo "run.sh: no $bin: build the target fuzz_harnesses with KVC_FUZZ=ON" >&2; exit 2; }
  case $h in
    npy|safetensors|detect) max_len=16384 ;;
    *) max_len=8192 ;;
  esac
  case $h in
    npy|safetensors) dict=$src/dict/$h.dict ;;
    worker|model) dict=$src/dict/json.dict ;;
    *) dict="" ;;
  esac
  work=$build/fuzz/corpus/$h art=$build/fuzz/artifacts/$h log=$build/fuzz/$h.log
  mkdir -p "$work" "$art"
  # -timeout: one input taking 10 s is a hang (they take milliseconds);
  # -rss_limit_mb also caps single allocations (-malloc_limit_mb defaults to it)
  UBSAN_OPTIONS=print_stacktrace=1 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=$max_len ${dict:+-dict="$dict"} -print_final_stats=1 -artifact_prefix="$art/" \
    "$work" "$src/corpus/$h" "$src/crashes/$h" >"$log" 2>&1
  rc=$?
  stats=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
  if [ $rc -ne 0 ]; then
    failed="$failed $h"
    echo "== fuzz_$h FAILED (exit $rc); the end of $log:"
    tail -n 60 "$log"
    ls "$art"
  else
    echo "== fuzz_$h: $stats"
  fi
done
if [ -n "$failed" ]; then
  echo "run.sh: failed:$failed" >&2
  exit 1
fi
