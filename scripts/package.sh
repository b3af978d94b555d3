#!/usr/bin/env bash
# Builds the Debian package (CPack, dependencies computed by dpkg-shlibdeps) from a build folder
# (default ./build; an already built one is reused) and prints the .deb's path. With --check it
# then installs the package on this machine (apt-get, as root), runs the installed programs from
# their installed paths (--version, an example experiment, a headless screenshot) and validates
# the desktop entry, AppStream metadata and the package (desktop-file-validate, appstreamcli,
# lintian: any error fails). Usage: scripts/package.sh [--check]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=false
[ "${1:-}" = "--check" ] && check=true
extra=(dpkg-dev file)
$check && extra+=(desktop-file-utils appstream lintian)
"$root/scripts/setup.sh" "${extra[@]}"
build=$("$root/scripts/configure.sh")
cmake --build "$build" --target logitlab logitlab-cli logitlab_packaging_files
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/logitlab_*.deb | head -1)
echo "$deb"
$check || exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
version=$(/usr/bin/logitlab-cli --version)
echo "installed: $version"
/usr/bin/logitlab-cli run /usr/share/logitlab/examples/seed-sweep-lesson.json --out "$scratch/run" --formats csv,png
# Every export's provenance carries the version the package was built with.
grep -q "^# version: $(echo "$version" | cut -d' ' -f2)\$" "$scratch/run/seed-sweep-lesson.csv"
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$scratch /usr/bin/logitlab --screenshot "$scratch/shot.png" \
  /usr/share/logitlab/examples/seed-sweep-lesson.json
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$scratch /usr/bin/logitlab --demo --out "$scratch/demo" >/dev/null
test -s "$scratch/shot.png"
man -w logitlab-cli >/dev/null 2>&1 || test -f /usr/share/man/man1/logitlab-cli.1.gz

desktop-file-validate /usr/share/applications/io.github.logitlab.LogitLab.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.logitlab.LogitLab.metainfo.xml
# Errors fail; warnings are printed. Running as root needs --allow-root.
lintian --allow-root --fail-on error "$deb"
echo "package: installed, ran and validated $deb"
