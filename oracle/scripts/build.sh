#!/usr/bin/env bash
# Builds the oracles the oracle/ tests and `arc explore --checks oracle` run (docs/oracle.md). For every release of
# releases.tsv, one build path: libzpool from zfs-RELEASE.tar.gz (cached outside the clone by the tarball's SHA-256:
# build-libzpool.sh; the releases' builds run side by side), then
#   OUT_DIR/arc-oracle-RELEASE         the release's arc.c as released
#   OUT_DIR/arc-oracle-RELEASE+PATCH   the same with oracle/patches/zfs-RELEASE/PATCH.patch applied (a quirk fix
#                                      as upstream's commit or this project's patch states it)
# zfs-source.sh finds each release's tarball (in $ARCREF_ZFS_SOURCES, a local folder, the cache, or by downloading
# the official release) and checks it against releases.tsv. A binary newer than every source, patch and script is
# kept. Prints nothing but errors and the build's progress on standard error. Exit status 0 built (or up to date),
# 1 a build failed or a tarball is not its release's source, 2 this machine cannot build them (the message says
# why; -Doracle.skip=true skips the oracle tests on purpose).
#
# usage: build.sh OUT_DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ]; then
  echo "usage: build.sh OUT_DIR: exactly one argument, got $# ($*); zfs-source.sh finds the ZFS tarballs (set ARCREF_ZFS_SOURCES to a folder of them)" >&2
  exit 2
fi
out=$1
cannot() {
  echo "oracle/scripts/build.sh: cannot build the oracle: $1 (run .ci/run, which installs the packages, or skip the oracle tests on purpose with -Doracle.skip=true)" >&2
  exit 2
}
[ "$(uname -s)" = Linux ] || cannot "it builds only on Linux (libzpool's userland), this is $(uname -s)"
command -v gcc >/dev/null 2>&1 || cannot "no gcc on the PATH"
command -v patch >/dev/null 2>&1 || cannot "no patch on the PATH (apt-get install -y patch)"
for header in uuid/uuid.h blkid/blkid.h openssl/evp.h tirpc/rpc/xdr.h zlib.h libudev.h; do
  [ -f "/usr/include/$header" ] || cannot "the header /usr/include/$header is missing (apt-get install -y build-essential autoconf automake libtool gawk uuid-dev libblkid-dev zlib1g-dev libssl-dev libtirpc-dev libudev-dev libaio-dev libattr1-dev libelf-dev python3 pkg-config)"
done

mkdir -p "$out"
build() {
  local release=$1 tree=$2 binary=$3
  shift 3
  if [ -x "$binary" ] && [ -z "$(find "$here" "$here/../src/main/c" "$here/../patches" -newer "$binary" -type f | head -n 1)" ]; then
    return 0
  fi
  bash "$here/build-oracle.sh" "$release" "$tree" "$binary" "$@"
}
releases=$(grep -v '^#' "$here/releases.tsv" | cut -f1)
# libzpool of every release side by side: each build's autogen and configure run on one core, so two builds
# overlap them; a cached release returns at once
declare -A tarballs trees pids
for release in $releases; do
  tarballs[$release]=$(bash "$here/zfs-source.sh" "$release") || exit $?
done
for release in $releases; do
  bash "$here/build-libzpool.sh" "${tarballs[$release]}" > "$out/.libzpool-$release" &
  pids[$release]=$!
done
for release in $releases; do
  wait "${pids[$release]}" || exit $?
  trees[$release]=$(tail -n 1 "$out/.libzpool-$release")
  rm -f "$out/.libzpool-$release"
done
for release in $releases; do
  tree=${trees[$release]}
  build "$release" "$tree" "$out/arc-oracle-$release"
  for patchfile in "$here/../patches/zfs-$release"/*.patch; do
    [ -f "$patchfile" ] || continue
    name=$(basename "$patchfile" .patch)
    build "$release" "$tree" "$out/arc-oracle-$release+$name" "$name"
  done
done
