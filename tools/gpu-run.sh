#!/bin/sh
# On the GPU machine (no registry there): unpacks the Debian packages kvcheck
# builds with from DEBS (apt-get download libcjson1 libcjson-dev libyaml-0-2
# libyaml-dev libcmocka0 libcmocka-dev pkgconf pkg-config libpkgconf3
# pkgconf-bin), builds kvcheck in Release into BUILD, runs the whole test
# suite (gpu.scan and python.gpu included) and the benchmark with ARGS,
# then the PyTorch peer (bench/peer.py) where torch is installed.
# Usage: tools/gpu-run.sh DEBS BUILD [kvcheck-bench ARGS...]
set -eu
debs=$1 build=$2
shift 2
deps=/opt/kvc-deps
mkdir -p "$deps"
for f in "$debs"/*.deb; do dpkg -x "$f" "$deps"; done
multi=$(ls -d "$deps"/usr/lib/*-linux-gnu | head -n 1)
# the loader finds them as it would installed ones (the install test runs
# the installed tool without LD_LIBRARY_PATH)
echo "$multi" >/etc/ld.so.conf.d/kvc-deps.conf && ldconfig
# their .pc files say /usr: the linker is told where the libraries really are
export PATH="$deps/usr/bin:$PATH" LIBRARY_PATH="$multi"
export PKG_CONFIG_PATH="$multi/pkgconfig:$deps/usr/share/pkgconfig" CMAKE_PREFIX_PATH="$deps/usr"
src=$(pwd)
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKVC_GPU=ON -DKVC_WERROR=ON >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" >"$build.build.log" 2>&1 || { tail -n 40 "$build.build.log"; exit 1; }
"$build/kvcheck" version
ctest --test-dir "$build" --output-on-failure -j4 || true
[ "$#" -eq 0 ] || "$build/kvcheck-bench" "$@"
if [ "$#" -gt 0 ] && python3 -c 'import torch' 2>/dev/null; then
  KVCHECK_LIBRARY="$build/libkvcheck.so" python3 "$src/bench/peer.py"
fi
