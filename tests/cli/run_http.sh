#!/bin/sh
# The cli.http tests: start tests/cli/http_server.py on 127.0.0.1 (recorded
# /server_info replies and failures), then run the golden cases of
# http_cases.txt against it, where $URL is the server, $TLS the same over
# HTTPS (a self-signed certificate) and $REFUSED a port nothing listens on.
# Skips (77) without python3.
set -u
kvcheck=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: cli.http skipped"; exit 77; }
"$kvcheck" version | grep -q '^Running servers: http' || { echo "kvcheck built without libcurl: cli.http skipped"; exit 77; }
tmp=$(mktemp -d)
: >"$tmp/ports"
python3 "$here/http_server.py" fixtures/servers >"$tmp/ports" 2>"$tmp/server.err" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
i=0
while [ "$(wc -l <"$tmp/ports")" -lt 3 ]; do
  i=$((i + 1))
  if [ $i -gt 100 ] || ! kill -0 $server 2>/dev/null; then
    echo "the test server did not start:"; cat "$tmp/server.err"; exit 1
  fi
  sleep 0.1
done
URL=http://127.0.0.1:$(sed -n 1p "$tmp/ports")
REFUSED=http://127.0.0.1:$(sed -n 2p "$tmp/ports")
TLS=https://127.0.0.1:$(sed -n 3p "$tmp/ports")
# no Hugging Face cache of this machine may decide the models
HF_HUB_CACHE=/nonexistent/hub KVC_GOLDEN_CASES=$here/http_cases.txt KVC_GOLDEN_URLS="$REFUSED=REFUSED $URL=URL $TLS=TLS" \
  URL=$URL REFUSED=$REFUSED TLS=$TLS "$here/run_golden.sh" "$kvcheck"
