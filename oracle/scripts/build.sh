#!/usr/bin/env bash
# Builds the oracles the oracle/ tests and `arc explore --checks oracle` run (docs/oracle.md): libzpool from the
# zfs-2.1.1 tarball (cached outside the clone by the tarball's SHA-256: build-libzpool.sh), then
#   OUT_DIR/arc-oracle                         arc.c of zfs-2.1.1 as released
#   OUT_DIR/arc-oracle-ARC_P_GROWTH_CAP_14137  the same with the #14137 fix applied (fixes/ARC_P_GROWTH_CAP_14137.sed)
# A binary newer than every source and script is kept. Prints nothing but errors and the build's progress on
# standard error. Exit status 0 built (or up to date), 1 the build failed, 2 this machine cannot build it (the
# message says why and how to skip: -Doracle.skip=true).
#
# usage: build.sh TARBALL OUT_DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tarball=${1:?usage: build.sh TARBALL OUT_DIR}
out=${2:?usage: build.sh TARBALL OUT_DIR}
cannot() {
  echo "oracle/scripts/build.sh: cannot build the oracle: $1 (run .ci/run, which installs the packages, or skip the oracle tests on purpose with -Doracle.skip=true)" >&2
  exit 2
}
[ "$(uname -s)" = Linux ] || cannot "it builds only on Linux (libzpool's userland), this is $(uname -s)"
command -v gcc >/dev/null 2>&1 || cannot "no gcc on the PATH"
[ -f "$tarball" ] || cannot "no zfs-2.1.1 tarball at $tarball"
for header in uuid/uuid.h blkid/blkid.h openssl/evp.h tirpc/rpc/xdr.h zlib.h libudev.h; do
  [ -f "/usr/include/$header" ] || cannot "the header /usr/include/$header is missing (apt-get install -y build-essential autoconf automake libtool gawk uuid-dev libblkid-dev zlib1g-dev libssl-dev libtirpc-dev libudev-dev libaio-dev libattr1-dev libelf-dev python3 pkg-config)"
done

tree=$(bash "$here/build-libzpool.sh" "$tarball" | tail -n 1)
mkdir -p "$out"
build() {
  local binary=$1
  shift
  if [ -x "$binary" ] && [ -z "$(find "$here" "$here/../src/main/c" -newer "$binary" -type f | head -n 1)" ]; then
    return 0
  fi
  bash "$here/build-oracle.sh" "$tree" "$binary" "$@"
}
build "$out/arc-oracle"
build "$out/arc-oracle-ARC_P_GROWTH_CAP_14137" ARC_P_GROWTH_CAP_14137
