#!/usr/bin/env bash
# Installs every Debian package stereoview needs. Idempotent: quiet when all are present.
# CUDA is not a Debian package here; the build finds it in /usr/local/cuda when installed.
# --package-check adds what scripts/package_check.sh and scripts/fresh_machine_check.sh need
# (debootstrap) and nothing else does.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3 ccache
  file  # cpack -G DEB reads the programs' dependencies with it (CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
  libgtest-dev libgmock-dev
  libopencv-dev libopencv-contrib-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev nlohmann-json3-dev
  libglfw3-dev libgl-dev libegl-dev python3-glad libimgui-dev libstb-dev
  libuvc-dev
  libhwy-dev
  xvfb xauth libxtst-dev
  groff-base
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib
  python3-dask python3-distributed  # `stereoview batch` runs its chunks on Dask's scheduler
)
[ "${1:-}" = --package-check ] && packages+=(debootstrap)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
