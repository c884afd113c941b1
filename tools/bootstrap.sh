#!/bin/sh
# Installs what kvcheck needs from Debian's packages (only what is missing),
# then configures and builds it with its tests into build/.
set -eu
cd "$(dirname "$0")/.."
pkgs="cmake gcc make libc6-dev libcjson-dev libyaml-dev libcmocka-dev pkg-config libcurl4-openssl-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "bootstrap: installing$missing" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo ${KVC_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
