#!/usr/bin/env bash
# Builds one arc-oracle binary: the driver in oracle/src/main/c with the real arc.c of one OpenZFS release compiled
# in (every ASSERT live), linked against that release's libzpool (build-libzpool.sh). Flags: libzpool's own
# (2.1: lib/libzpool/Makefile's DEFAULT_INCLUDES, AM_CFLAGS, AM_CPPFLAGS; 2.2: the top Makefile's, as
# `make -n V=1 module/zfs/libzpool_la-arc.lo` prints them), as docs/oracle.md describes. The release's series (2.1
# or 2.2) chooses the driver's ARC (ORACLE_ARC_22), the hooks' counts and where the libraries are: 2.1 builds them in
# lib/D/.libs and libzpool links libzfs_core; 2.2 builds them at the tree's top .libs and libzpool does not.
#
# The release's arc.c must have the SHA-256 releases.tsv gives. Each PATCH (oracle/patches/zfs-RELEASE/NAME.patch,
# applied with patch --fuzz=0, so a patch that no longer applies exactly is an error) adds the fix NAME; then the
# harness hooks of arc-hooks.sed go in, each counted, and a hook whose count differs is an error that names it and
# the release. The binary's conformance header reports the release and the fixes its arc.c carries: the release's
# own (releases.tsv) and the patches'.
#
# usage: build-oracle.sh RELEASE ZFS_TREE OUT_BINARY [PATCH...]
#   RELEASE      a release of releases.tsv (2.1.1, 2.1.16, 2.2.0, 2.2.11)
#   ZFS_TREE     that release's built tree (build-libzpool.sh prints it)
#   OUT_BINARY   where to write the binary; its generated arc.c copy goes beside it
#   PATCH        a patch name of oracle/patches/zfs-RELEASE/
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src="$here/../src/main/c"
usage="usage: build-oracle.sh RELEASE ZFS_TREE OUT_BINARY [PATCH...]"
release=${1:?$usage}
tree=${2:?$usage}
out=$(realpath -m "${3:?$usage}")
shift 3
row=$(awk -F'\t' -v r="$release" '!/^#/ && $1 == r' "$here/releases.tsv")
[ -n "$row" ] || { echo "build-oracle.sh: release $release is not in $here/releases.tsv" >&2; exit 2; }
expected=$(cut -f2 <<<"$row")
case "$release" in
  2.1.*) series=2.1 ;;
  2.2.*) series=2.2 ;;
  *) echo "build-oracle.sh: release $release is of no series the driver knows (2.1, 2.2)" >&2; exit 2 ;;
esac
fixes=$(cut -f3 <<<"$row" | tr ',' ' ')
[ "$fixes" = - ] && fixes=""
arc="$tree/module/zfs/arc.c"
actual=$(sha256sum "$arc" | cut -d' ' -f1)
if [ "$actual" != "$expected" ]; then
  echo "build-oracle.sh: $arc is not zfs-$release's arc.c (SHA-256 $actual, expected $expected)" >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
copy="$out-arc.c"
cp "$arc" "$copy"
for name in "$@"; do
  patchfile="$here/../patches/zfs-$release/$name.patch"
  [ -f "$patchfile" ] || { echo "build-oracle.sh: no patch $patchfile" >&2; exit 2; }
  if ! patch --fuzz=0 --quiet --no-backup-if-mismatch "$copy" "$patchfile"; then
    echo "build-oracle.sh: the patch $name does not apply exactly to zfs-$release's arc.c" >&2
    exit 1
  fi
  fixes="$fixes $name"
done
sed -f "$here/arc-hooks.sed" "$copy" > "$copy.hooked"
mv "$copy.hooked" "$copy"
while read -r want marker; do
  got=$(grep -cF "$marker" "$copy" || true)
  if [ "$got" != "$want" ]; then
    echo "build-oracle.sh: the hook '$marker' of arc-hooks.sed applied $got times to zfs-$release's arc.c, expected $want: it no longer applies to this release" >&2
    exit 1
  fi
done < <(sed -n "s/^#hook ${series//./\\.} \\([0-9][0-9]*\\) \\(.*\\)\$/\\1 \\2/p" "$here/arc-hooks.sed")

if [ "$series" = 2.1 ]; then
  arc22=0
  includes=()
  defines=(-DHAVE_LARGE_STACKS=1)
  libdirs=("$tree/lib/libzpool/.libs" "$tree/lib/libzfs_core/.libs" "$tree/lib/libnvpair/.libs")
  libs=(-lzpool -lzfs_core -lnvpair)
else
  arc22=1
  # 2.2.7 moved the userland halves of arc_os.c and abd_os.c, with headers of their own, to lib/libzpool
  includes=()
  [ -d "$tree/lib/libzpool/include" ] && includes=(-I"$tree/lib/libzpool/include")
  defines=(-DHAVE_CONFIG_H)
  libdirs=("$tree/.libs")
  libs=(-lzpool -lnvpair)
fi
rpath=$(IFS=:; echo "${libdirs[*]}")

gcc -std=gnu99 -O1 -g -Wall -Wno-unused-function -Wno-unused-variable -Wno-unused-but-set-variable \
  -fno-strict-aliasing -fno-omit-frame-pointer \
  -include "$tree/zfs_config.h" -I"$tree/include" -I"$tree/module/icp/include" -I"$tree/lib/libspl/include" \
  -I"$tree/lib/libspl/include/os/linux" "${includes[@]}" -I"$tree/include/os/linux/zfs" \
  -D_GNU_SOURCE -D_REENTRANT -D_FILE_OFFSET_BITS=64 -D_LARGEFILE64_SOURCE "${defines[@]}" \
  -DTEXT_DOMAIN=\"zfs-linux-user\" -DLIB_ZPOOL_BUILD -DDEBUG -UNDEBUG -DZFS_DEBUG \
  -DARC_SOURCE="\"$copy\"" -DORACLE_ZFS="\"$release\"" -DORACLE_FIXES="\"$(echo $fixes)\"" -DORACLE_ARC_22=$arc22 \
  -I"$src" "$src/arc_driver.c" "$src/main.c" -o "$out" \
  -rdynamic "${libdirs[@]/#/-L}" -Wl,-rpath,"$rpath" "${libs[@]}" -lcrypto -lpthread -lm -ldl -lz
