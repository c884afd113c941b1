#!/bin/sh
# Golden CLI tests: each line of cases.txt is "NAME | ARGS"; the expected
# stdout, stderr and exit code are in expected/NAME.{out,err,rc}.
# ARGS may name the generated scan fixtures as $D/FILE (D is the second
# argument). What differs from run to run or build to build is normalised
# before comparing: the fixture directory, scan timings, the GPU line of
# `version`.
# KVC_UPDATE_GOLDEN=1 rewrites the expected files (review the diff!).
# KVC_GOLDEN_CASES names another cases file (run_http.sh); KVC_GOLDEN_URLS
# ("TEXT=NAME ...") replaces each TEXT in the output by NAME.
set -u
kvcheck=$1
D=${2:-/nonexistent}
here=$(cd "$(dirname "$0")" && pwd)
exp=$here/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TERM=dumb
# models are found in this Hugging Face cache only: none (run_http.sh sets the same)
export HF_HUB_CACHE=/nonexistent/hub
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
    for u in ${KVC_GOLDEN_URLS:-}; do
      # a whole URL: http://127.0.0.1:4382 is no prefix of http://127.0.0.1:43825
      sed -e "s|${u%%=*}\([^0-9]\)|${u#*=}\1|g" -e "s|${u%%=*}\$|${u#*=}|" "$tmp/raw.$k" >"$tmp/url.$k" &&
        mv "$tmp/url.$k" "$tmp/raw.$k"
    done
    sed -e "s|$D|DUMPS|g" \
        -e 's/after [0-9]* m\(s\|illiseconds\)/after N m\1/g' \
        -e 's/127\.0\.0\.1 port [0-9]*/127.0.0.1 port N/g' \
        -e 's/^Running servers: .*/Running servers: (depends on the build)/' \
        -e 's/"servers": "[^"]*"/"servers": "(depends on the build)"/' \
        -e 's/"gpu_scan": "[^"]*"/"gpu_scan": "(depends on the build)"/' \
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
done <"${KVC_GOLDEN_CASES:-$here/cases.txt}"
after=$(inputs)
if [ "$before" != "$after" ]; then
  echo "FAIL: kvcheck changed files it read (under fixtures/ or $D)"
  failed=$((failed + 1))
fi
echo "golden: $passed passed, $failed failed"
[ $failed = 0 ]
