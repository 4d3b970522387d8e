#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# packaging/check-package.sh [BUILD_DIR]   (default build/ci)
# Builds the Debian package from a configured build folder (cpack), validates its desktop
# entry and AppStream metainfo, unpacks it into a temporary root (dpkg -x), runs
# `stepscope --version` from there and renders the man page with `man -l`.
# Needs: cpack, dpkg-dev (dpkg-shlibdeps), file, desktop-file-utils, appstream, man-db
# (packaging/dev.sh installs them).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$repo/build/ci}
[ -f "$build/CMakeCache.txt" ] || { echo "usage: packaging/check-package.sh BUILD_DIR (a configured build)" >&2; exit 2; }
build=$(cd "$build" && pwd)
app_id=io.github.stepscope.StepScope
fail() { echo "check-package: $*" >&2; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps file desktop-file-validate appstreamcli man; do
    command -v "$tool" >/dev/null || fail "$tool is missing (packaging/dev.sh installs it)"
done

cmake --build "$build" --target stepscope stepscope_icons
rm -rf "$build/package"
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack failed"
shopt -s nullglob
debs=("$build"/package/stepscope_*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one stepscope_*.deb in $build/package"
deb=${debs[0]}
echo "check-package: built $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libc6; do
    [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
for f in usr/bin/stepscope "usr/share/applications/$app_id.desktop" \
    "usr/share/metainfo/$app_id.metainfo.xml" "usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
    "usr/share/icons/hicolor/48x48/apps/$app_id.png" "usr/share/icons/hicolor/256x256/apps/$app_id.png" \
    usr/share/man/man1/stepscope.1 "usr/share/mime/packages/$app_id.xml" \
    usr/share/stepscope/demo/NOTICE.md; do
    [ -s "$root/$f" ] || fail "the package lacks /$f"
done
file -b "$root/usr/share/icons/hicolor/48x48/apps/$app_id.png" | grep -q "48 x 48" \
    || fail "the 48x48 icon is not 48 x 48 pixels"

desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "desktop entry"
appstreamcli validate --no-net --explain "$root/usr/share/metainfo/$app_id.metainfo.xml" \
    || fail "AppStream metainfo"

exe="$root/usr/bin/stepscope"
version=$(QT_QPA_PLATFORM=offscreen "$exe" --version)
expected="stepscope $(dpkg-deb -f "$deb" Version)"
[ "$version" = "$expected" ] || fail "--version printed '$version', expected '$expected'"
echo "check-package: $version runs from the unpacked package"

warnings=$(MANWIDTH=80 man --warnings -l "$root/usr/share/man/man1/stepscope.1" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man page warnings: $warnings"
rendered=$(MANWIDTH=80 man -l "$root/usr/share/man/man1/stepscope.1" 2>/dev/null)
[[ $rendered == *"EXIT STATUS"* ]] || fail "the man page did not render"

# Every option the help texts name is in the man page (issue 15: the man page covers every
# command and option).
helps=$("$exe" --help; for c in summary dump export compare; do "$exe" "$c" --help || true; done)
missing=()
for opt in $(grep -oE -- '--[a-z][a-z-]+' <<<"$helps" | sort -u); do
    man_opt=${opt//-/\\-}
    grep -qF -- "$man_opt" "$root/usr/share/man/man1/stepscope.1" || missing+=("$opt")
done
[ ${#missing[@]} -eq 0 ] || fail "the man page lacks ${missing[*]}"

# apt-get can install the .deb here: its Depends resolve against Debian's packages. A dry run
# (-s) changes nothing on the machine; it needs the package lists (dev.sh runs apt-get update).
if command -v apt-get >/dev/null; then
    apt-get install -s "$deb" >"$build/package/apt-simulate.log" 2>&1 \
        || { cat "$build/package/apt-simulate.log" >&2; fail "apt-get install -s $deb failed"; }
    echo "check-package: apt-get install -s $(basename "$deb") resolves"
fi
echo "check-package: ok"
