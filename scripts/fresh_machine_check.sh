#!/usr/bin/env bash
# Runs the README's two commands as a new user would, on a fresh, minimal Debian 12: debootstrap
# makes a bookworm chroot from Debian's mirror (no CUDA toolkit, no display, no ../shared/data),
# a fresh clone of this repository's HEAD goes into it, and there `scripts/run.sh` runs as
# written (as root, so setup.sh needs no sudo), then every command of the README and docs/ in
# their order with only what run.sh built (tests/readme/readme_commands_test.py --in-place: each
# section builds what it uses), then `scripts/test.sh`. It prints the time of each and the test
# summary, and exits non-zero when any fails.
#
# Run it whenever scripts/setup.sh, a CMake dependency or the README's first commands change, and
# write its last result in docs/fresh-machine.md. Not part of the test suite: it downloads a base
# system and every package setup.sh installs (network to Debian's mirror), and builds the
# project from nothing (about half an hour on 2 cores). Needs root.
# Usage: scripts/fresh_machine_check.sh
#   STEREOVIEW_CHECK_MIRROR   Debian mirror (default http://deb.debian.org/debian)
#   STEREOVIEW_CHECK_KEEP=1   keep the chroot (its path is printed) instead of removing it
#   STEREOVIEW_CHECK_LOG      where the whole output of the two commands goes
#                             (default /var/tmp/stereoview-fresh-machine.log)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "error: fresh_machine_check.sh needs root (debootstrap and chroot); run it with sudo" >&2
  exit 1
fi
scripts/setup.sh --package-check
mirror=${STEREOVIEW_CHECK_MIRROR:-http://deb.debian.org/debian}
log=${STEREOVIEW_CHECK_LOG:-/var/tmp/stereoview-fresh-machine.log}
commit=$(git rev-parse --short HEAD)

root=$(mktemp -d /var/tmp/stereoview-fresh.XXXXXX)
chmod 755 "$root"  # apt downloads as _apt, which must reach the chroot's folders
mounts=(proc sys dev dev/pts)
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "$root/${mounts[i]}" && umount -l "$root/${mounts[i]}"
  done
  if [ "${STEREOVIEW_CHECK_KEEP:-0}" = 1 ]; then echo "chroot kept: $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

step() { echo; echo "== $*"; }
# A login-like environment with nothing of this machine's: no DISPLAY, no CI, no CUDA on PATH.
in_chroot() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
                LANG=C.UTF-8 TERM=dumb "$@"; }

echo "fresh-machine check of $commit, $(date -u '+%Y-%m-%d %H:%M UTC'), on" \
     "$(. /etc/os-release; echo "$PRETTY_NAME"), $(uname -m), $(nproc) cores"

step "debootstrap --variant=minbase bookworm from $mirror"
start=$SECONDS
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -n 20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
echo "done in $((SECONDS - start)) s: $(in_chroot dpkg-query -W -f '.\n' | wc -l) packages"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

step "git clone (HEAD $commit) into /root/stereoview"
git clone --quiet --no-hardlinks "$PWD" "$root/root/stereoview"
git -C "$root/root/stereoview" checkout --quiet "$commit"

: >"$log"
# Runs one README command in the clone, its output to the log, and prints its time and status.
readme_command() {
  local name=$1 started=$SECONDS status=0
  echo "\$ $name" >>"$log"
  in_chroot sh -c "cd /root/stereoview && $name" >>"$log" 2>&1 || status=$?
  local took=$((SECONDS - started))
  printf '%s: exit %d after %d min %02d s\n' "$name" "$status" $((took / 60)) $((took % 60))
  return "$status"
}

step "the README's commands (whole output: $log)"
failed=0
readme_command scripts/run.sh || failed=1
tail -n 3 "$log"
readme_command "python3 tests/readme/readme_commands_test.py --source . --build build --in-place" ||
  failed=1
grep -E '^README and docs commands: ' "$log" | tail -n 1
readme_command scripts/test.sh || failed=1

step "test summary"
grep -E '^[0-9]+% tests passed|^The following tests FAILED|^\s+[0-9]+ - .*\((Failed|Timeout|Not Run|SEGFAULT)' "$log" ||
  echo "(no ctest summary in the log)"
if [ "$failed" = 0 ]; then step "fresh-machine check passed"; else step "fresh-machine check FAILED"; fi
exit "$failed"
