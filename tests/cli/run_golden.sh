#!/bin/sh
# Golden CLI tests: each line of cases.txt is "NAME | ARGS"; the expected
# stdout, stderr and exit code are in expected/NAME.{out,err,rc}.
# ARGS may name the generated scan fixtures as $D/FILE (D is the second
# argument). What differs from run to run or build to build is normalised
# before comparing: the fixture directory, scan timings, the GPU line of
# `version`.
# KVC_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
set -u
kvcheck=$1
D=${2:-/nonexistent}
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TERM=dumb
inputs() { find fixtures "$D" -type f -exec cksum {} + 2>/dev/null | sort; }
before=$(inputs)
passed=0
failed=0
while IFS= read -r line; do
  case $line in ''|'#'*) continue ;; esac
  name=${line%% |*}
  args=${line#*|}
  args=${args# }
  eval "set -- $args"
  "$kvcheck" "$@" >"$tmp/raw.out" 2>"$tmp/raw.err" </dev/null
  echo $? >"$tmp/rc"
  for k in out err; do
    sed -e "s|$D|DUMPS|g" \
        -e 's/ in [0-9.]* s ([0-9.]* GB\/s)/ in T s (R GB\/s)/' \
        -e 's/"seconds":\([[:space:]]*\)[0-9.e+-]*/"seconds":\1T/' \
        -e 's/^GPU scan: .*/GPU scan: (depends on the build)/' \
        -e 's/"gpu_scan": "[^"]*"/"gpu_scan": "(depends on the build)"/' \
        "$tmp/raw.$k" >"$tmp/$k"
  done
  if [ "${KVC_UPDATE_GOLDEN:-0}" = 1 ]; then
    for k in out err rc; do cp "$tmp/$k" "$exp/$name.$k"; done
  fi
  ok=1
  for k in out err rc; do
    if ! cmp -s "$tmp/$k" "$exp/$name.$k"; then
      ok=0
      echo "FAIL $name: $k differs (kvcheck $args)"
      diff -u "$exp/$name.$k" "$tmp/$k" | head -40
    fi
  done
  if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <"$here/cases.txt"
after=$(inputs)
if [ "$before" != "$after" ]; then
  echo "FAIL: kvcheck changed files it read (under fixtures/ or $D)"
  failed=$((failed + 1))
fi
echo "golden: $passed passed, $failed failed"
[ $failed = 0 ]
