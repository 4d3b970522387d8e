#!/bin/sh
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# Screenshots of the window and of every dock panel on the shared samples, at 1× and 2×,
# light and dark (issue 15 "Done when"), plus the compare report opened in Chromium.
#
#   tests/tools/screenshots.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR (default build/ci) holds app/stepscope and tests/stepscope-shots
# (`cmake --build build/ci --target stepscope stepscope-shots`); OUT_DIR defaults to
# /work/shots. SAMPLES (env) overrides the list below: paths relative to SAMPLES_ROOT
# (default /work/shared/samples), or ALL for every sample folder. VARIANTS (env) defaults to
# "1-light 1-dark 2-light 2-dark". Each run gets an empty settings folder, so no layout
# of an earlier run is restored. REPORTS=0 (env) skips the compare reports. Needs
# xvfb-run; the report part needs chromium.
#
# Files: OUT_DIR/<family>--<sample>--<scale>x-<theme>-<dock>.png, ...-window.png, and
# OUT_DIR/report-<name>.png for the reports.
set -eu

BUILD=${1:-build/ci}
OUT=${2:-/work/shots}
ROOT=${SAMPLES_ROOT:-/work/shared/samples}
VARIANTS=${VARIANTS:-"1-light 1-dark 2-light 2-dark"}
SHOTS="$BUILD/tests/stepscope-shots"
APP="$BUILD/app/stepscope"

# One sample per family, and the families' odd ones out (memory only, many ranks, pipeline
# parallel, loss logs only, cluster).
DEFAULT_SAMPLES="
ascend_db/msinsight-cnn-db-level2-2rank
ascend_pt/msinsight-cnn-level2-2rank
ascend_pt/msinsight-gpt3-pp2-16rank-trimmed
ascend_pt/mstt-advisor-fragments
jax_xplane/tracelens-jax08-conv-mi300
kineto/hta-ddp-a100-world2-nccl
kineto/hta-ddp-2rank-rank1-memory
kineto/hta-mi250-minitoy-rocm
kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0
kineto/tracelens-mi300-resnet-actckpt-rank0of8
loss_logs/lightning-csvlogger-2runs
loss_logs/megatron-golden-values
mindspore_legacy/mindinsight-cluster-pp-4rank
nsys_sqlite/pipit-cloverleaf-cuda
torch_memory/hta-memory-timeline-raw
"
SAMPLES=${SAMPLES:-$DEFAULT_SAMPLES}
if [ "$SAMPLES" = ALL ]; then
    SAMPLES=$(cd "$ROOT" && ls -d */*/ | sed 's,/$,,')
fi

[ -x "$SHOTS" ] || { echo "missing $SHOTS (build the stepscope-shots target)" >&2; exit 2; }
mkdir -p "$OUT"
SETTINGS=$(mktemp -d)
trap 'rm -rf "$SETTINGS"' EXIT

for s in $SAMPLES; do
    name=$(echo "$s" | sed 's,/,--,g')
    for v in $VARIANTS; do
        scale=${v%%-*}
        theme=${v#*-}
        dark=
        [ "$theme" = dark ] && dark=--dark
        rm -rf "$SETTINGS"/*
        echo "== $s ${scale}x $theme"
        XDG_CONFIG_HOME="$SETTINGS" QT_SCALE_FACTOR="$scale" \
            timeout 300 xvfb-run -a -s "-screen 0 3000x2000x24" \
            "$SHOTS" $dark --out "$OUT" --prefix "$name--${scale}x-$theme" "$ROOT/$s" \
            >/dev/null || echo "   failed: $s $v" >&2
    done
done

# The report of a compare, and of a sample against itself, in a real browser.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ "${REPORTS:-1}" = 0 ]; then
    echo "REPORTS=0: reports skipped" >&2
elif [ -n "$CHROMIUM" ] && [ -x "$APP" ]; then
    report() { # name before after
        dir="$OUT/report-$1"
        rm -rf "$dir"
        "$APP" compare "$2" "$3" --report "$dir" >/dev/null || true
        for w in 1200 800; do
            "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
                --screenshot="$OUT/report-$1-$w.png" --window-size="$w,6000" \
                "file://$(realpath "$dir")/report.html" >/dev/null 2>&1 || echo "   chromium failed: $1" >&2
        done
        "$CHROMIUM" --headless --no-sandbox --disable-gpu --print-to-pdf="$OUT/report-$1.pdf" \
            --no-pdf-header-footer "file://$(realpath "$dir")/report.html" >/dev/null 2>&1 || true
    }
    K="$ROOT/kineto/kineto-resnet50-dataloader-workers0-vs-4"
    report resnet50-workers0-vs-4 "$K/resnet50_num_workers_0" "$K/resnet50_num_workers_4"
    report ascend-level0-vs-level2 "$ROOT/ascend_pt/msinsight-cnn-level0-2rank" \
        "$ROOT/ascend_pt/msinsight-cnn-level2-2rank"
    report hta-ddp-self "$ROOT/kineto/hta-ddp-a100-world2-nccl" "$ROOT/kineto/hta-ddp-a100-world2-nccl"
else
    echo "no chromium (apt-get install chromium) or no $APP: reports skipped" >&2
fi
echo "screenshots in $OUT"
