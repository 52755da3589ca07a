#!/usr/bin/env bash
# Installs stereoview's .deb into a fresh Debian 12 (bookworm) chroot made by debootstrap from
# Debian's mirror, as a user would install it (apt-get install ./stereoview_*.deb, which fetches
# the declared dependencies and nothing more), then runs the programs there from a folder of
# their own: `stereoview --help`, `stereoview --headless --frames 3 --out out/x` (its six files
# are checked), `stereoview --preset fast`, `stereoview-viewer --help`, the viewer for a few
# frames under Xvfb with a screenshot (its installed shaders), and `python3 -c 'import
# stereoview'` when the package holds the Python module.
#
# Not part of the test suite: it downloads a base system (a few minutes, network). Needs root.
# Usage: scripts/package_check.sh [PACKAGE.deb]
#   default: build/stereoview_*.deb, made with `cpack -G DEB` in build/ when missing
#   STEREOVIEW_CHECK_MIRROR   Debian mirror (default http://deb.debian.org/debian)
#   STEREOVIEW_CHECK_KEEP=1   keep the chroot (its path is printed) instead of removing it
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "error: package_check.sh needs root (debootstrap and chroot); run it with sudo" >&2
  exit 1
fi
scripts/setup.sh --package-check

deb=${1:-}
if [ -z "$deb" ]; then
  deb=$(ls build/stereoview_*.deb 2>/dev/null | tail -n 1 || true)
  if [ -z "$deb" ]; then
    [ -f build/CPackConfig.cmake ] || { echo "error: no build/ (scripts/test.sh or cmake first)" >&2; exit 1; }
    (cd build && cpack -G DEB >/dev/null)
    deb=$(ls build/stereoview_*.deb | tail -n 1)
  fi
fi
[ -f "$deb" ] || { echo "error: $deb: no such package file" >&2; exit 1; }
mirror=${STEREOVIEW_CHECK_MIRROR:-http://deb.debian.org/debian}

root=$(mktemp -d /var/tmp/stereoview-chroot.XXXXXX)
chmod 755 "$root"  # apt downloads as _apt, which must reach the chroot's folders
cleanup() {
  for m in dev/pts dev proc; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  if [ "${STEREOVIEW_CHECK_KEEP:-0}" = 1 ]; then echo "chroot kept: $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

step() { echo; echo "== $*"; }
in_chroot() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
                LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

echo "package check of $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release; echo "$PRETTY_NAME"), $(uname -m)"
step "package: $(basename "$deb") ($(dpkg-deb -f "$deb" Version), $(du -k "$deb" | cut -f1) KiB)"
dpkg-deb -f "$deb" Depends

step "debootstrap --variant=minbase bookworm from $mirror"
start=$SECONDS
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -n 20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
echo "done in $((SECONDS - start)) s: $(in_chroot sh -c '. /etc/os-release; echo $PRETTY_NAME')," \
     "$(in_chroot dpkg-query -W -f '.\n' | wc -l) packages"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

step "apt-get install ./$(basename "$deb")"
cp "$deb" "$root/tmp/"
in_chroot apt-get update -qq
before=$(in_chroot dpkg-query -W -f '.\n' | wc -l)
in_chroot apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null
echo "installed with $(( $(in_chroot dpkg-query -W -f '.\n' | wc -l) - before - 1 )) dependencies"
in_chroot sh -c 'dpkg -L stereoview | while read -r f; do [ -d "$f" ] || echo "$f"; done' | sort

step "cd /root/work && stereoview --help"
mkdir -p "$root/root/work"
in_chroot sh -c 'cd /root/work && stereoview --help' | sed -n 1,4p  # sed reads it all: no SIGPIPE
echo "..."

step "cd /root/work && stereoview --headless --frames 3 --out out/x"
in_chroot sh -c 'cd /root/work && stereoview --headless --frames 3 --out out/x'
in_chroot sh -c 'cd /root/work && ls -l out/x'
files=$(in_chroot sh -c 'cd /root/work && ls out/x' | grep -c '\.\(pfm\|png\)$')
[ "$files" = 6 ] || { echo "error: expected 3 PFM and 3 PNG files in out/x, found $files" >&2; exit 1; }

step "cd /root/work && stereoview --headless --preset fast --size 160x120 --save-preset p.preset"
in_chroot sh -c 'cd /root/work && stereoview --headless --preset fast --size 160x120 --save-preset p.preset &&
                 grep -E "^(paths|pyramid-levels) " p.preset'

step "stereoview-viewer --help, then 3 frames under Xvfb with a screenshot"
in_chroot sh -c 'stereoview-viewer --help' | sed -n 1p
in_chroot apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null
in_chroot sh -c 'cd /root/work && xvfb-run -a -s "-screen 0 1600x1000x24" \
                 stereoview-viewer --frames 3 --screenshot out/viewer.png 2>&1 | tail -n 3 &&
                 ls -l out/viewer.png'

if in_chroot dpkg -L stereoview | grep -q '^/usr/lib/python3/dist-packages/'; then
  step "python3 -c 'import stereoview'"
  in_chroot sh -c "cd /root/work && python3 -c 'import stereoview; print(stereoview.__file__)'"
else
  step "python3 -c 'import stereoview': skipped, the package has no Python module (not built yet)"
fi

step "package check passed"
