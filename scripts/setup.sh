#!/usr/bin/env bash
# Installs what LogitLab needs on Debian 12, only when something is missing (so it is quick
# when already set up). Needs root, or sudo. Extra packages can be named as arguments
# (scripts/fuzz.sh adds clang and libFuzzer's runtime).
set -euo pipefail

packages=(g++ cmake ninja-build nodejs pkg-config qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
          libboost-dev libeigen3-dev libbenchmark-dev libzip-dev libxkbcommon-dev libgl1-mesa-dev libgl1-mesa-dri
          xvfb xauth fonts-dejavu-core ccache bash-completion python3-numpy python3-scipy python3-matplotlib time "$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
