#!/bin/sh
# The architecture as a test: every stage under src/ includes only the
# headers of the stages below it in STAGES, and the CLI includes only the
# public header (and its own headers in src/cli/). A circle or an upward include fails with the file and line.
set -eu
cd "$(dirname "$0")/../.."
STAGES="common format target engine worker recipe compare source scan gpu detect scanner simulate report"
rank() {
  i=0
  for s in $STAGES; do
    [ "$s" = "$1" ] && { echo $i; return; }
    i=$((i + 1))
  done
  echo -1
}
bad=0
for f in $(find src -name '*.[ch]' | sort); do
  stage=$(echo "$f" | cut -d/ -f2)
  if [ "$stage" = cli ]; then
    # the public header, and the tool's own headers beside it
    grep -n '#include "' "$f" | grep -v '"kvcheck.h"' | while IFS= read -r line; do
      inc=$(echo "$line" | sed 's/.*#include "\([^"]*\)".*/\1/')
      case $inc in */*) ;; *) [ -f "src/cli/$inc" ] && continue ;; esac
      echo "$f:${line%%:*}: the CLI includes only kvcheck.h: ${line#*:}"
    done | grep . && bad=1
    continue
  fi
  mine=$(rank "$stage")
  [ "$mine" -ge 0 ] || { echo "$f: src/$stage/ is not a stage listed in $0"; bad=1; continue; }
  for inc in $(grep -o '#include "[a-z_]*/' "$f" | sed 's/#include "//; s:/$::' | sort -u); do
    theirs=$(rank "$inc")
    if [ "$theirs" -lt 0 ] || [ "$theirs" -gt "$mine" ]; then
      echo "$f:$(grep -n "#include \"$inc/" "$f" | head -1 | cut -d: -f1): src/$stage/ may not include src/$inc/ (stages, lowest first: $STAGES)"
      bad=1
    fi
  done
done
[ "$bad" = 0 ] && echo "layers: $(find src -name '*.[ch]' | wc -l) files in $(echo $STAGES | wc -w) stages and the CLI, no upward include"
exit "$bad"
