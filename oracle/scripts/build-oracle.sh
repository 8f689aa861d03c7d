#!/usr/bin/env bash
# Builds an arc-oracle binary: the driver in oracle/src/main/c with the real zfs-2.1.1 arc.c compiled in (every
# ASSERT live), linked against the libzpool that build-libzpool.sh built. Flags: libzpool's own
# (lib/libzpool/Makefile: DEFAULT_INCLUDES, AM_CFLAGS, AM_CPPFLAGS), as ../shared/docs/zfs-oracle.md describes.
#
# usage: build-oracle.sh ZFS_TREE OUT_BINARY [QUIRK_FIX...]
#   ZFS_TREE     the built zfs-2.1.1 tree (build-libzpool.sh prints it)
#   OUT_BINARY   where to write the binary; its generated arc.c copy goes beside it
#   QUIRK_FIX    a quirk fix applied to the arc.c copy by oracle/scripts/fixes/QUIRK_FIX.sed (the later ZFS fix,
#                as the spec's --fix applies it); the binary's conformance header then reports the fix as applied
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src="$here/../src/main/c"
tree=${1:?usage: build-oracle.sh ZFS_TREE OUT_BINARY [QUIRK_FIX...]}
out=$(realpath -m "${2:?usage: build-oracle.sh ZFS_TREE OUT_BINARY [QUIRK_FIX...]}")
shift 2
arc="$tree/module/zfs/arc.c"
expected=fd030cb985c7697de7f5ef97c3e2d7493dd54654430e741f892ccfb57df47f1e
actual=$(sha256sum "$arc" | cut -d' ' -f1)
if [ "$actual" != "$expected" ]; then
  echo "build-oracle.sh: $arc is not zfs-2.1.1's arc.c (SHA-256 $actual, expected $expected)" >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
copy="$out-arc.c"
sed -f "$here/arc-hooks.sed" "$arc" > "$copy"
for hook in 'if (oracle_space_ignored(type)) return;' 'oracle_header_bytes(HDR_FULL_SIZE)'; do
  want=1
  [ "$hook" = 'if (oracle_space_ignored(type)) return;' ] && want=2
  got=$(grep -cF "$hook" "$copy" || true)
  if [ "$got" != "$want" ]; then
    echo "build-oracle.sh: the hook '$hook' applied $got times to arc.c, expected $want" >&2
    exit 1
  fi
done
fixes=""
for fix in "$@"; do
  script="$here/fixes/$fix.sed"
  [ -f "$script" ] || { echo "build-oracle.sh: no fix script $script" >&2; exit 2; }
  want=$(sed -n 's/^# changes: \([0-9][0-9]*\)$/\1/p' "$script")
  [ -n "$want" ] || { echo "build-oracle.sh: $script has no '# changes: N' line" >&2; exit 2; }
  sed -f "$script" "$copy" > "$copy.fixed"
  got=$(diff "$copy" "$copy.fixed" | grep -c '^>' || true)
  if [ "$got" != "$want" ]; then
    echo "build-oracle.sh: the fix $fix changed $got lines of arc.c, its script says $want" >&2
    exit 1
  fi
  mv "$copy.fixed" "$copy"
  fixes="$fixes $fix"
done

gcc -std=gnu99 -O1 -g -Wall -Wno-unused-function -Wno-unused-variable -Wno-unused-but-set-variable \
  -fno-strict-aliasing -fno-omit-frame-pointer \
  -include "$tree/zfs_config.h" -I"$tree/include" -I"$tree/module/icp/include" -I"$tree/lib/libspl/include" \
  -I"$tree/lib/libspl/include/os/linux" -I"$tree/include/os/linux/zfs" \
  -D_GNU_SOURCE -D_REENTRANT -D_FILE_OFFSET_BITS=64 -D_LARGEFILE64_SOURCE -DHAVE_LARGE_STACKS=1 \
  -DTEXT_DOMAIN=\"zfs-linux-user\" -DLIB_ZPOOL_BUILD -DDEBUG -UNDEBUG -DZFS_DEBUG \
  -DARC_SOURCE="\"$copy\"" -DORACLE_FIXES="\"${fixes# }\"" -I"$src" \
  "$src/arc_driver.c" "$src/main.c" -o "$out" \
  -rdynamic -L"$tree/lib/libzpool/.libs" -L"$tree/lib/libzfs_core/.libs" -L"$tree/lib/libnvpair/.libs" \
  -Wl,-rpath,"$tree/lib/libzpool/.libs:$tree/lib/libzfs_core/.libs:$tree/lib/libnvpair/.libs" \
  -lzpool -lzfs_core -lnvpair -lcrypto -lpthread -lm -ldl -lz
