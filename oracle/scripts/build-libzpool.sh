#!/usr/bin/env bash
# Builds libzpool (userland ZFS) from one OpenZFS release's source tarball, once per tarball: the build tree is
# cached outside the clone under $ARCREF_CACHE (default ~/.cache/arcref) in a folder named by the tarball's SHA-256,
# and a finished build leaves a stamp file there, so a rerun on the same machine prints the tree and exits. The same
# steps serve every release (docs/oracle.md, "Building it"): autogen, configure for userland, then only what
# libzpool links. 2.1.x has one Makefile per library (make -C lib/D for each); from 2.2.0 the tree has one
# non-recursive Makefile whose target libzpool.la builds its own dependencies, and the products land in the tree's
# top .libs (build-oracle.sh knows both layouts). Prints the build tree's path as its last line.
#
# usage: build-libzpool.sh TARBALL
set -euo pipefail

tarball=${1:?usage: build-libzpool.sh TARBALL}
[ -f "$tarball" ] || { echo "build-libzpool.sh: tarball not found: $tarball" >&2; exit 2; }
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
top=$(tar -tzf "$tarball" 2>/dev/null | head -n 1 || true)
top=${top%%/*}
case "$top" in
  zfs-[0-9]*) ;;
  *) echo "build-libzpool.sh: $tarball is not an OpenZFS release tarball (its first entry is '$top', expected zfs-X.Y.Z/)" >&2; exit 2 ;;
esac
cache=${ARCREF_CACHE:-$HOME/.cache/arcref}
dir="$cache/libzpool-$sha"
stamp="$dir/.built"
if [ -f "$stamp" ]; then
  echo "$dir/$top"
  exit 0
fi

mkdir -p "$cache"
lock="$cache/libzpool-$sha.lock"
exec 9>"$lock"
flock 9
if [ -f "$stamp" ]; then
  echo "$dir/$top"
  exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log="$dir/build.log"
echo "build-libzpool.sh: building libzpool of $top from $tarball (sha256 $sha) in $dir; log: $log" >&2
tar -xzf "$tarball" -C "$dir"
src="$dir/$top"
jobs=$(nproc 2>/dev/null || echo 2)
{
  cd "$src"
  ./autogen.sh
  ./configure --with-config=user
  make gitrev
  if [ -f lib/libicp/Makefile ]; then
    for d in libavl libicp libspl libtpool libzstd libefi libnvpair libzutil libunicode libzfs_core libzpool; do
      make -j"$jobs" -C "lib/$d"
    done
  else
    make -j"$jobs" libzpool.la
  fi
} >"$log" 2>&1 || { echo "build-libzpool.sh: the build failed; the last lines of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }
touch "$stamp"
echo "$src"
