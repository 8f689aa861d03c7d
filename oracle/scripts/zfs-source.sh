#!/usr/bin/env bash
# Finds the source tarball zfs-RELEASE.tar.gz of one OpenZFS release of releases.tsv, checks it, and prints its path
# (the only thing on standard output). The places, in this order:
#   1. $ARCREF_ZFS_SOURCES, when set: a folder of release tarballs;
#   2. ../shared/zfs from the repository root: the folder of tarballs a workplace may keep beside its clones;
#   3. the cache, ${ARCREF_CACHE:-~/.cache/arcref}/zfs-sources;
#   4. a download of the official release tarball, ${ARCREF_ZFS_URL}/zfs-RELEASE/zfs-RELEASE.tar.gz, into the cache
#      (ARCREF_ZFS_URL defaults to https://github.com/openzfs/zfs/releases/download and may be any URL curl reads,
#      file:// included; ARCREF_ZFS_OFFLINE=1 forbids the download).
# The first tarball found is checked, wherever it came from, by the files the oracle compiles: the SHA-256 of its
# module/zfs/arc.c and its sources digest must be those releases.tsv gives for the release. The sources digest is
# the SHA-256 of the `sha256sum` lines of every *.c and *.h file under module/, include/ and lib/, sorted by path
# (C locale), except the files a build writes into the tree: include/zfs_gitrev.h (`make dist` writes it into
# every official release tarball) and *.mod.c (kernel module build outputs, which module/Makefile.in's distdir rule
# would copy). releases.tsv's digests were computed from `git archive` tarballs of the release tags; an official
# release tarball (written by `make dist`, with a generated configure) holds the tag's module/ files and the
# include/ and lib/ files its Makefile.am lists, which are all of the tag's *.c and *.h there, so the rule is meant
# to give it the same digest. A tarball that fails the check stops the search: the message names it, both digests
# and what to do; a download that fails it is deleted.
#
# Exit status: 0 found (the path printed), 1 a tarball was found but is not the release's source, 2 bad usage, or no
# tarball anywhere and none downloaded (one line on standard error naming every place looked in and what to put
# where).
#
# usage: zfs-source.sh RELEASE
#        zfs-source.sh --digest TARBALL    prints the two digests of TARBALL's tree (for a new row of releases.tsv)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
me=zfs-source.sh
usage="usage: $me RELEASE | $me --digest TARBALL"
table="$here/releases.tsv"
root=$(cd "$here/../.." && pwd)

die() {
  local status=$1
  shift
  echo "$me: $*" >&2
  exit "$status"
}

# digests TARBALL TOP: prints "ARC_SHA256 SOURCES_SHA256" of the tree TOP/ in TARBALL, or the reason it has none
# (and fails); runs in a subshell, so its temporary folder goes when it ends
digests() (
  tarball=$1 top=$2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if ! tar -xzf "$tarball" -C "$tmp" --wildcards "$top/module/*" "$top/include/*" "$top/lib/*" 2>"$tmp/.tar-error"; then
    echo "it is not a gzip tarball holding $top/module, $top/include and $top/lib ($(head -n 1 "$tmp/.tar-error"))"
    exit 1
  fi
  if [ ! -f "$tmp/$top/module/zfs/arc.c" ]; then
    echo "it has no $top/module/zfs/arc.c"
    exit 1
  fi
  arc=$(sha256sum "$tmp/$top/module/zfs/arc.c" | cut -d' ' -f1)
  sources=$(cd "$tmp/$top" && find module include lib -type f \( -name '*.c' -o -name '*.h' \) \
      ! -path include/zfs_gitrev.h ! -name '*.mod.c' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum \
      | cut -d' ' -f1)
  echo "$arc $sources"
)

if [ "${1:-}" = --digest ]; then
  [ $# -eq 2 ] || die 2 "$usage"
  tarball=$2
  [ -f "$tarball" ] || die 2 "TARBALL must be a file, was '$tarball' (no such file)"
  top=$(tar -tzf "$tarball" 2>/dev/null | head -n 1 || true)
  top=${top%%/*}
  case "$top" in
    zfs-[0-9]*) ;;
    *) die 2 "TARBALL must be an OpenZFS release tarball whose entries start with zfs-X.Y.Z/, was '$tarball' (first entry '$top')" ;;
  esac
  if out=$(digests "$tarball" "$top"); then
    echo "$out"
    exit 0
  fi
  die 1 "$tarball: $out"
fi

[ $# -eq 1 ] || die 2 "$usage"
release=$1
known=$(awk -F'\t' '!/^#/ && NF { printf "%s%s", sep, $1; sep = ", " }' "$table")
row=$(awk -F'\t' -v r="$release" '!/^#/ && $1 == r' "$table")
[ -n "$row" ] || die 2 "RELEASE must be a release of $table ($known), was '$release'"
want_arc=$(cut -f2 <<<"$row")
want_sources=$(cut -f4 <<<"$row")
[[ "$want_arc" =~ ^[0-9a-f]{64}$ && "$want_sources" =~ ^[0-9a-f]{64}$ ]] \
  || die 2 "the row of $release in $table must give arc_sha256 (column 2) and sources_sha256 (column 4) as 64 hex digits, was '$row'"

offline=${ARCREF_ZFS_OFFLINE:-0}
case "$offline" in
  0 | 1) ;;
  *) die 2 "ARCREF_ZFS_OFFLINE must be 0 or 1 (1 forbids the download), was '$offline'" ;;
esac
if [ -n "${ARCREF_ZFS_SOURCES:-}" ] && [ ! -d "$ARCREF_ZFS_SOURCES" ]; then
  die 2 "ARCREF_ZFS_SOURCES must be a folder of OpenZFS release tarballs (zfs-X.Y.Z.tar.gz), was '$ARCREF_ZFS_SOURCES' (no such folder)"
fi

name="zfs-$release.tar.gz"
top="zfs-$release"
cache=${ARCREF_CACHE:-$HOME/.cache/arcref}/zfs-sources
local_dir="$root/../shared/zfs"
base=${ARCREF_ZFS_URL:-https://github.com/openzfs/zfs/releases/download}
url="${base%/}/zfs-$release/$name"

# check TARBALL WHERE: succeeds if TARBALL is the release's source, else prints why and fails
check() {
  local tarball=$1 where=$2 got
  if ! got=$(digests "$tarball" "$top"); then
    echo "$tarball ($where) is not OpenZFS $release's source: $got"
    return 1
  fi
  local arc=${got% *} sources=${got#* }
  if [ "$arc" != "$want_arc" ]; then
    echo "$tarball ($where) is not OpenZFS $release's source: the SHA-256 of its module/zfs/arc.c is $arc, releases.tsv expects $want_arc"
    return 1
  fi
  if [ "$sources" != "$want_sources" ]; then
    echo "$tarball ($where) is not OpenZFS $release's source: its sources digest (the *.c and *.h files of module/, include/, lib/) is $sources, releases.tsv expects $want_sources"
    return 1
  fi
}

found() {
  local tarball=$1 where=$2 why
  if why=$(check "$tarball" "$where"); then
    echo "$tarball"
    exit 0
  fi
  die 1 "$why; replace it with the official release tarball ($url) or remove it"
}

looked=()
if [ -n "${ARCREF_ZFS_SOURCES:-}" ]; then
  [ -f "$ARCREF_ZFS_SOURCES/$name" ] && found "$ARCREF_ZFS_SOURCES/$name" "from \$ARCREF_ZFS_SOURCES"
  looked+=("not in \$ARCREF_ZFS_SOURCES ($ARCREF_ZFS_SOURCES)")
else
  looked+=("\$ARCREF_ZFS_SOURCES not set")
fi
if [ -f "$local_dir/$name" ]; then
  found "$(cd "$local_dir" && pwd)/$name" "beside the repository"
fi
looked+=("not in $(dirname "$root")/shared/zfs")
[ -f "$cache/$name" ] && found "$cache/$name" "from the cache"
looked+=("not in the cache $cache")

if [ "$offline" = 1 ]; then
  looked+=("no download (ARCREF_ZFS_OFFLINE=1)")
elif ! command -v curl >/dev/null 2>&1; then
  looked+=("no download (no curl on the PATH)")
elif ! mkdir -p "$cache" 2>/dev/null || ! part=$(mktemp "$cache/.$name.XXXXXX" 2>/dev/null); then
  looked+=("no download (cannot write to $cache)")
else
  if curl -fsSL --connect-timeout 30 -o "$part" "$url" 2>"$part.err"; then
    rm -f "$part.err"
    if why=$(check "$part" "downloaded from $url"); then
      mv -f "$part" "$cache/$name"
      echo "$cache/$name"
      exit 0
    fi
    rm -f "$part"
    die 1 "$why; the download was deleted"
  fi
  error=$(tr '\n' ' ' <"$part.err" | sed 's/ *$//')
  rm -f "$part" "$part.err"
  looked+=("download of $url failed (${error:-curl exited non-zero})")
fi

line=$(printf '%s; ' "${looked[@]}")
die 2 "no $name: ${line%; }. Put the official release tarball $name ($url) into $cache or into a folder named by \$ARCREF_ZFS_SOURCES"
