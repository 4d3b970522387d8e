#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# Sets up a fresh Debian 12 machine and builds StepScope.
#   packaging/dev.sh test   install what is missing, build, run every test with ctest
#   packaging/dev.sh demo   install what is missing, build, open the demo comparison;
#                           without a display, write the demo's pictures and report to a
#                           folder and print its path
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=ci
build="$root/build/$preset"
jobs=$(nproc 2>/dev/null || echo 2)

# Checked to work on Debian 12. With --no-install-recommends, Qt Charts needs
# libqt6opengl6-dev named; fonts-dejavu-core keeps text from rendering as boxes.
packages=(cmake g++ make ninja-build pkg-config qt6-base-dev qt6-charts-dev libqt6opengl6-dev
    qt6-svg-dev nlohmann-json3-dev libsimdjson-dev libgtest-dev zlib1g-dev xvfb xauth
    fonts-dejavu-core python3 dpkg-dev file desktop-file-utils appstream man-db)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

configure_and_build() {
    local launcher=()
    if command -v ccache >/dev/null 2>&1; then
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake --preset "$preset" -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$build" --parallel "$jobs"
}

run_tests() {
    cd "$build"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$jobs" --timeout 900
}

run_demo() {
    local demo="$root/resources/demo"
    local exe="$build/app/stepscope"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        exec "$exe" --compare "$demo/resnet50_num_workers_0" "$demo/resnet50_num_workers_4"
    fi
    local out="${STEPSCOPE_DEMO_OUT:-$root/build/demo-report}"
    mkdir -p "$out"
    # No display: the demo's pictures, the compare report and the separate views.
    QT_QPA_PLATFORM=offscreen "$exe" compare "$demo/resnet50_num_workers_0" \
        "$demo/resnet50_num_workers_4" --report "$out" >/dev/null
    for run in resnet50_num_workers_0 resnet50_num_workers_4; do
        QT_QPA_PLATFORM=offscreen "$exe" export "$demo/$run" --out "$out/views" --view all \
            >/dev/null
    done
    echo "$out"
}

case "${1:-}" in
test)
    install_missing
    configure_and_build
    run_tests
    ;;
demo)
    install_missing
    configure_and_build
    run_demo
    ;;
*)
    echo "usage: packaging/dev.sh test|demo" >&2
    exit 2
    ;;
esac
