#!/bin/sh
# install.consumers: installs this build into a temporary prefix and uses
# the installed copy as a client would: checks what was installed (files,
# SONAME, the exported symbols, the tool's RPATH), then builds
# tests/install/consumer.c against it with pkg-config (shared, and --static
# against libkvcheck.a) and with find_package(kvcheck CONFIG)
# (kvcheck::kvcheck and kvcheck::kvcheck_static), and runs each program.
# Usage: run.sh BUILD_DIR VERSION LIBDIR CC [LDFLAGS]
# LDFLAGS go to every consumer's link: a sanitized build passes its
# -fsanitize flags, since the library then needs the sanitizer runtimes.
set -eu
build=$1 version=$2 libdir=$3 cc=$4 ldflags=${5:-}
# the SONAME's version: the major, and before 1.0 the minor too (CMakeLists.txt)
so=${version%%.*}
if [ "$so" = 0 ]; then minor=${version#0.}; so=0.${minor%%.*}; fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The installed copy is found first; the caller's paths stay behind it, for
# the dependencies (libcjson, yaml-0.1) where they are not in the system's.
unset LD_LIBRARY_PATH
deps_pc=${PKG_CONFIG_PATH:-} deps_prefix=${CMAKE_PREFIX_PATH:-}
prefix=$tmp/prefix
lib=$prefix/$libdir
cflags="-std=c11 -Wall -Wextra -Wpedantic -Werror"

fail() { echo "install.consumers: FAIL: $*" >&2; exit 1; }
for tool in cmake pkg-config nm readelf "$cc"; do
  command -v "$tool" >/dev/null || fail "$tool not found (pkg-config: apt-get install pkg-config)"
done
needs() { # PROGRAM: the libkvcheck it needs at run time ("" for none)
  readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(libkvcheck[^]]*\)\].*/\1/p'
}
run() { # NAME PROGRAM [ENV...]: runs a consumer, which prints one ok line
  name=$1 prog=$2
  shift 2
  env "$@" "$prog" "$version" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "$name: the consumer failed"; }
  echo "$name: $(cat "$tmp/out")"
}
[ -z "$ldflags" ] || echo "consumers link with: $ldflags"

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install $build failed"; }
for f in bin/kvcheck include/kvcheck.h include/kvcheck_version.h "$libdir/libkvcheck.a" \
         "$libdir/libkvcheck.so" "$libdir/libkvcheck.so.$so" "$libdir/pkgconfig/kvcheck.pc" \
         "$libdir/cmake/kvcheck/kvcheckConfig.cmake" "$libdir/cmake/kvcheck/kvcheckConfigVersion.cmake" \
         "$libdir/cmake/kvcheck/kvcheckTargets.cmake"; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
ls "$prefix/include" | grep -qvx 'kvcheck\.h\|kvcheck_version\.h' && fail "other headers installed: $(ls "$prefix/include")"

soname=$(readelf -d "$lib/libkvcheck.so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "libkvcheck.so.$so" ] || fail "SONAME is '$soname', not libkvcheck.so.$so"

# The shared library exports exactly the functions kvcheck.h declares KVC_API.
nm -D --defined-only "$lib/libkvcheck.so" >"$tmp/dynsym"
awk '$2 ~ /^[TWi]$/ { print $3 }' "$tmp/dynsym" | sort >"$tmp/exported"
# every function declaration in the header, each of which must say KVC_API
grep -E '^[A-Za-z_].*[^a-z0-9_]kvc_[a-z0-9_]*\(' "$prefix/include/kvcheck.h" | grep -v '^typedef' >"$tmp/decls" || true
grep -v '^KVC_API ' "$tmp/decls" && fail "kvcheck.h declares functions without KVC_API (above)"
sed 's/^[^(]*[^a-z0-9_]\(kvc_[a-z0-9_]*\)(.*/\1/' "$tmp/decls" | sort >"$tmp/declared"
grep -v '^kvc_' "$tmp/exported" && fail "exported functions without the kvc_ prefix (above)"
awk '$2 !~ /^[TWi]$/ && $3 !~ /^kvc_/' "$tmp/dynsym" | grep . && fail "exported data without the kvc_ prefix (above)"
[ -s "$tmp/declared" ] || fail "no KVC_API declarations found in kvcheck.h"
comm -3 "$tmp/declared" "$tmp/exported" >"$tmp/diff"
[ -s "$tmp/diff" ] && { sed 's/^\t/exported, not declared: /; /^[^e]/s/^/declared, not exported: /' "$tmp/diff" >&2; fail "kvcheck.h and libkvcheck.so disagree"; }
echo "libkvcheck.so: SONAME $soname, exports the $(wc -l <"$tmp/exported") functions kvcheck.h declares"

# The tool links the shared library and finds it through its RPATH.
[ "$(needs "$prefix/bin/kvcheck")" = "libkvcheck.so.$so" ] || fail "bin/kvcheck does not link libkvcheck.so.$so"
"$prefix/bin/kvcheck" version >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "installed bin/kvcheck version failed"; }
head -n 1 "$tmp/out" | grep -qx "kvcheck $version (library $version)" || { cat "$tmp/out" >&2; fail "bin/kvcheck version says the above"; }
echo "bin/kvcheck: $(head -n 1 "$tmp/out")"

# (a) pkg-config, the shared library
export PKG_CONFIG_PATH="$lib/pkgconfig${deps_pc:+:$deps_pc}"
[ "$(pkg-config --modversion kvcheck)" = "$version" ] || fail "pkg-config --modversion: $(pkg-config --modversion kvcheck)"
[ "$(pkg-config --variable=prefix kvcheck)" = "$prefix" ] || fail "kvcheck.pc prefix: $(pkg-config --variable=prefix kvcheck)"
# shellcheck disable=SC2046 # pkg-config's output is words
"$cc" $cflags "$here/consumer.c" $(pkg-config --cflags --libs kvcheck) $ldflags -o "$tmp/pc-shared" ||
  fail "pkg-config: building against the shared library failed"
[ "$(needs "$tmp/pc-shared")" = "libkvcheck.so.$so" ] || fail "pkg-config: the program does not link libkvcheck.so.$so"
run "pkg-config (shared)" "$tmp/pc-shared" LD_LIBRARY_PATH="$lib"

# (b) pkg-config --static: libkvcheck.a and the private libraries. -lkvcheck
# would pick libkvcheck.so, so the archive is named.
libs=$(pkg-config --static --libs kvcheck | sed -E 's/(^| )-lkvcheck( |$)/\1-l:libkvcheck.a\2/')
# shellcheck disable=SC2046
"$cc" $cflags "$here/consumer.c" $(pkg-config --static --cflags kvcheck) $libs $ldflags -o "$tmp/pc-static" ||
  fail "pkg-config --static: building against libkvcheck.a failed ($libs)"
[ -z "$(needs "$tmp/pc-static")" ] || fail "pkg-config --static: the program links libkvcheck.so"
run "pkg-config --static" "$tmp/pc-static"
unset PKG_CONFIG_PATH

# (c) find_package(kvcheck CONFIG): kvcheck::kvcheck and kvcheck::kvcheck_static
cmake -S "$here" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix${deps_prefix:+;$deps_prefix}" -DKVC_EXPECT_VERSION="$version" \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" -DCMAKE_BUILD_TYPE=Debug \
      >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log" >&2; fail "find_package(kvcheck CONFIG): configuring failed"; }
cmake --build "$tmp/consumer" >"$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log" >&2; fail "find_package(kvcheck CONFIG): building failed"; }
[ "$(needs "$tmp/consumer/consumer_shared")" = "libkvcheck.so.$so" ] || fail "kvcheck::kvcheck is not libkvcheck.so.$so"
[ -z "$(needs "$tmp/consumer/consumer_static")" ] || fail "kvcheck::kvcheck_static links libkvcheck.so"
run "find_package kvcheck::kvcheck" "$tmp/consumer/consumer_shared"
run "find_package kvcheck::kvcheck_static" "$tmp/consumer/consumer_static"
echo "install.consumers: ok"
