#!/usr/bin/env bash
# Builds libzpool (userland ZFS) from the zfs-2.1.1 source tarball, once per tarball: the build tree is cached outside
# the clone under $ARCREF_CACHE (default ~/.cache/arcref) in a folder named by the tarball's SHA-256, and a finished
# build leaves a stamp file there, so a rerun on the same machine prints the folder and exits. Steps and traps:
# ../shared/docs/zfs-oracle.md ("Build"). Prints the build tree's path as its last line.
#
# usage: build-libzpool.sh TARBALL
set -euo pipefail

tarball=${1:?usage: build-libzpool.sh TARBALL}
[ -f "$tarball" ] || { echo "build-libzpool.sh: tarball not found: $tarball" >&2; exit 2; }
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
cache=${ARCREF_CACHE:-$HOME/.cache/arcref}
dir="$cache/libzpool-$sha"
stamp="$dir/.built"
if [ -f "$stamp" ]; then
  echo "$dir/zfs-2.1.1"
  exit 0
fi

mkdir -p "$cache"
lock="$cache/libzpool-$sha.lock"
exec 9>"$lock"
flock 9
if [ -f "$stamp" ]; then
  echo "$dir/zfs-2.1.1"
  exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log="$dir/build.log"
echo "build-libzpool.sh: building libzpool from $tarball (sha256 $sha) in $dir; log: $log" >&2
tar -xzf "$tarball" -C "$dir"
src="$dir/zfs-2.1.1"
jobs=$(nproc 2>/dev/null || echo 2)
{
  cd "$src"
  ./autogen.sh
  ./configure --with-config=user
  for d in libavl libicp libspl libtpool libzstd libefi libnvpair libzutil libunicode; do
    make -j"$jobs" -C "lib/$d"
  done
  make gitrev
  make -j"$jobs" -C lib/libzfs_core
  make -j"$jobs" -C lib/libzpool
} >"$log" 2>&1 || { echo "build-libzpool.sh: the build failed; the last lines of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }
touch "$stamp"
echo "$src"
