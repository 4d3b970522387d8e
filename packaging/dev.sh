#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# Sets up a fresh Debian 12 machine and builds StepScope.
#   packaging/dev.sh test   install what is missing, then every CI stage in order (below);
#                           any failing stage fails the command
#   packaging/dev.sh demo   install what is missing, build, open the demo comparison;
#                           without a display, write the demo's pictures and report to a
#                           folder and print its path
#   packaging/dev.sh fuzz [SECONDS]
#                           build the libFuzzer targets and run each for SECONDS (default 600),
#                           one at a time under nice, keeping the corpus in build/fuzz/corpus
#   packaging/dev.sh fuzz-campaign [HOURS]
#                           build the fuzz-campaign (UBSan only) and asan-core fuzz binaries and
#                           round-robin every target at nice 19 for HOURS (default 24) on a
#                           corpus kept in build/fuzz-campaign/corpus, replaying each grown
#                           corpus under ASan after every round; stats in
#                           build/fuzz-campaign/campaign.tsv and totals.tsv
#   packaging/dev.sh stage NAME...
#                           run only the named CI stages (format subjects build ctest tidy asan
#                           tsan fuzz-smoke package), e.g. to repeat a failing one
#
# The CI stages of `test` (docs/robustness.md says what each covers and what it costs):
#   format      clang-format --dry-run --Werror over every tracked .cpp/.h; none over 600 lines
#   subjects    commit subjects since the rule was introduced are at most 72 characters
#   build       the ci preset (warnings are errors), whole tree
#   ctest       the whole ctest suite of the ci build
#   tidy        clang-tidy (.clang-tidy) over core/ and app/, from the ci compile database
#   asan        clang AddressSanitizer + UndefinedBehaviorSanitizer (asan-core preset): core
#               and its tests, i.e. every reader; the ui tests run only in the ci build
#   tsan        ThreadSanitizer, core only, the loader and trace-reader thread tests
#   fuzz-smoke  every libFuzzer target (built by the asan stage) for at most 6 s and 400
#               runs, with a fixed seed and a fresh corpus: under 5 minutes, reproducible
#   package     packaging/check-package.sh, when it exists
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=ci
build="$root/build/$preset"
jobs=$(nproc 2>/dev/null || echo 2)

# Checked to work on Debian 12. With --no-install-recommends, Qt Charts needs
# libqt6opengl6-dev named; fonts-dejavu-core keeps text from rendering as boxes.
packages=(cmake g++ make ninja-build pkg-config qt6-base-dev qt6-charts-dev libqt6opengl6-dev
    qt6-svg-dev nlohmann-json3-dev libsimdjson-dev libgtest-dev zlib1g-dev libsqlite3-dev xvfb xauth
    fonts-dejavu-core python3 dpkg-dev file desktop-file-utils appstream man-db
    git clang libclang-rt-14-dev clang-format clang-tidy llvm)
# CI tools: git (format and subject checks list tracked files and commits), clang (the fuzz
# build; libclang-rt-14-dev holds libFuzzer and clang's sanitizer runtimes), clang-format and
# clang-tidy (14 on Debian 12; the checked-in .clang-format/.clang-tidy are written for 14),
# llvm (llvm-symbolizer: sanitizer reports name files and lines).

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

# ccache when the machine has it (a developer's; CI builds cold).
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

configure_and_build() {
    cmake --preset "$preset" -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$build" --parallel "$jobs"
}

run_tests() {
    cd "$build"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$jobs" --timeout 900
}

# --- CI stages --------------------------------------------------------------------------

tracked_sources() {
    # NUL-separated tracked .cpp/.h; outside a git checkout, the source folders' files.
    if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$root" ls-files -z -- '*.cpp' '*.h'
    else
        (cd "$root" && find core app ui tests \( -name '*.cpp' -o -name '*.h' \) -print0)
    fi
}

# docs/architecture.md rule 6: no source file over 600 lines.
max_source_lines=600
stage_format() {
    cd "$root"
    tracked_sources | xargs -0 -r -n 40 -P "$jobs" clang-format --dry-run --Werror
    local long
    long=$(tracked_sources | xargs -0 -r wc -l | awk -v max="$max_source_lines" \
        '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
    if [ -n "$long" ]; then
        echo "dev.sh: files over $max_source_lines lines (docs/architecture.md, rule 6):" >&2
        echo "$long" >&2
        return 1
    fi
}

# The rule "subject <= 72 characters" holds from this commit on; older history is left as is.
subjects_since=64fa5e928d6e6807dbf8a3b39e5cb8b7e272d9ee
stage_subjects() {
    if ! git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        echo "dev.sh: not a git checkout, no commit subjects to check"
        return 0
    fi
    local range=HEAD
    if git -C "$root" cat-file -e "$subjects_since^{commit}" 2>/dev/null; then
        range="$subjects_since..HEAD"
    else
        range="-1 HEAD" # shallow clone without the start commit: check the newest commit
    fi
    # shellcheck disable=SC2086
    git -C "$root" log --no-merges --format='%h %s' $range | python3 "$root/packaging/check-subjects.py"
}

stage_build() { configure_and_build; }
stage_ctest() { run_tests; }

stage_tidy() {
    # Needs the ci build's compile_commands.json (and its generated files): run after "build".
    local files=()
    mapfile -t files < <(cd "$root" && git ls-files -- 'core/*.cpp' 'app/*.cpp' 2>/dev/null \
        || find core app -name '*.cpp')
    local log="$root/build/tidy.log" rc=0
    mkdir -p "$root/build"
    printf "$root/%s\n" "${files[@]}" \
        | xargs -r -n 4 -P "$jobs" clang-tidy -p "$build" --quiet >"$log" 2>&1 || rc=$?
    grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|^Use -system-headers' \
        "$log" || true
    if [ "$rc" -ne 0 ] || grep -q -E ': (warning|error):' "$log"; then
        echo "dev.sh: clang-tidy findings above (build/tidy.log)" >&2
        return 1
    fi
    echo "dev.sh: clang-tidy clean over ${#files[@]} files"
}

sanitizer_env() {
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
}

stage_asan() {
    # clang ASan + UBSan over core and its tests (model, import, analysis: every reader), in
    # the tree that also holds the fuzz targets, so CI compiles core once for both. The whole
    # suite under gcc's ASan: cmake --preset asan && cmake --build build/asan && ctest.
    sanitizer_build
    sanitizer_env
    (cd "$root/build/asan-core" && ctest --output-on-failure --parallel "$jobs" --timeout 1800)
}

stage_tsan() {
    local dir="$root/build/tsan-core"
    if ! setarch "$(uname -m)" -R true 2>/dev/null; then
        # A container whose seccomp profile refuses ADDR_NO_RANDOMIZE: say so, do not fail.
        echo "dev.sh: tsan NOT RUN: this machine refuses setarch -R (see below)" >&2
        return 0
    fi
    cmake --preset tsan-core -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$dir" --parallel "$jobs" --target import_tests
    sanitizer_env
    export TMPDIR="$dir/tmp" # as ctest sets it (tests/CMakeLists.txt): not shared with other trees
    mkdir -p "$TMPDIR"
    # The threads of core: the folder loader's per-file workers, the trace reader's chunk
    # parsers and range cutters (ChromeTraceRanges: every range size, guesses cut again) and
    # the on-demand args reads from several threads (ArgsOnDemand*). setarch -R: gcc 12's TSan runtime cannot map its shadow under a randomised layout
    # with large mmap_rnd_bits.
    setarch "$(uname -m)" -R "$dir/tests/import_tests" \
        --gtest_filter='LoaderTest.*:ChromeTraceReader.*:ChromeTraceRanges.*:KinetoTrace.*:Robustness*:ArgsOnDemand*'
}

sanitizer_build() {
    cmake --preset asan-core -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$root/build/asan-core" --parallel "$jobs"
}

# fuzz_run SECONDS RUNS SEED OUT: each target in turn under nice for at most SECONDS and RUNS
# executions (-1: no limit), mutation seed SEED (0: random), corpus in OUT/corpus/<target>,
# seeded from tests/data by tests/fuzz/CMakeLists.txt (build/asan-core/tests/fuzz/seeds/<target>).
# STEPSCOPE_FUZZ_MAX_LEN (default 65536, the smoke's) caps the input size: long campaigns use
# 4096, which keeps each run short (docs/robustness.md).
fuzz_run() {
    local seconds=$1 runs=$2 seed=$3 out=$4 dir="$root/build/asan-core/tests/fuzz" failed=0
    sanitizer_env
    export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=1"
    mkdir -p "$out/corpus" "$out/findings"
    local name
    local fuzzer="$dir/stepscope_fuzz"
    for name in $("$fuzzer" --list-targets | cut -f1); do
        mkdir -p "$out/corpus/$name"
        echo "dev.sh: fuzz $name for $seconds s, at most $runs runs, seed $seed"
        if ! STEPSCOPE_FUZZ_TARGET=$name nice -n 10 "$fuzzer" -max_total_time="$seconds" \
            -runs="$runs" -seed="$seed" \
            -timeout=10 -rss_limit_mb=2048 -max_len="${STEPSCOPE_FUZZ_MAX_LEN:-65536}" -print_final_stats=1 \
            -artifact_prefix="$out/findings/$name-" \
            "$out/corpus/$name" "$dir/seeds/$name" \
            >"$out/$name.log" 2>&1; then
            failed=1
            tail -n 60 "$out/$name.log" >&2
        fi
        grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$out/$name.log" \
            | tail -n 2 || true
    done
    return $failed
}

# fuzz_campaign HOURS: round-robin every target of the fuzz-campaign build (libFuzzer + UBSan,
# no ASan: several times the executions per CPU second, docs/robustness.md) at nice 19 for
# 60 s each in the first round, doubling each round up to STEPSCOPE_FUZZ_SLICE seconds
# (default 600; every target is reached and replayed early), on a corpus kept across runs in
# build/fuzz-campaign/corpus/<target>, until HOURS have passed. After each round every
# target's whole corpus is replayed once under the asan-core binary (ASan finds memory
# errors the UBSan-only build cannot see). Both binaries are copied first, so rebuilding
# does not change a running campaign. Each run appends one line to build/fuzz-campaign/
# campaign.tsv (libFuzzer's final stats); build/fuzz-campaign/totals.tsv sums them per target.
fuzz_campaign() {
    local hours=$1 slice=${STEPSCOPE_FUZZ_SLICE:-600} out="$root/build/fuzz-campaign"
    local bin="$out/bin" log="$out/campaign.tsv" name len rc runlog t0 left commit
    local cur=$((slice < 60 ? slice : 60))
    mkdir -p "$bin" "$out/corpus" "$out/findings" "$out/logs"
    cp -f "$out/tests/fuzz/stepscope_fuzz" "$bin/stepscope_fuzz"
    cp -f "$root/build/asan-core/tests/fuzz/stepscope_fuzz" "$bin/stepscope_fuzz_asan"
    commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
    [ -s "$log" ] || printf 'date\tcommit\tbuild\ttarget\trc\texecutions\tseconds\texec_per_s\tcorpus_files\tcov\n' >"$log"
    sanitizer_env
    local deadline
    deadline=$((SECONDS + $(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')))
    local targets
    targets=$("$bin/stepscope_fuzz" --list-targets | cut -f1)
    # one RUNLOG BUILD NAME RC: the log line of one run.
    one() {
        local execs secs rate cov files
        execs=$(grep -o '^stat::number_of_executed_units: *[0-9]*' "$1" | grep -o '[0-9]*$' || true)
        rate=$(grep -o '^stat::average_exec_per_sec: *[0-9]*' "$1" | grep -o '[0-9]*$' || true)
        cov=$(grep -o 'cov: [0-9]*' "$1" | tail -n 1 | grep -o '[0-9]*$' || true)
        secs=$((SECONDS - t0))
        files=$(find "$out/corpus/$3" -type f 2>/dev/null | wc -l)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" \
            "$2" "$3" "$4" "${execs:-0}" "$secs" "${rate:-0}" "$files" "${cov:-0}" >>"$log"
    }
    while [ "$SECONDS" -lt "$deadline" ]; do
        for name in $targets; do
            left=$((deadline - SECONDS))
            if [ "$left" -le 0 ]; then break; fi
            if [ "$left" -gt "$cur" ]; then left=$cur; fi
            len=4096 # SQLite databases need 64 KiB to open (docs/robustness.md)
            case $name in ascend_db | ascend_analysis_db | nsys_sqlite) len=65536 ;; esac
            mkdir -p "$out/corpus/$name"
            runlog="$out/logs/$name.ubsan.log"
            t0=$SECONDS rc=0
            STEPSCOPE_FUZZ_TARGET=$name nice -n 19 "$bin/stepscope_fuzz" -max_total_time="$left" \
                -entropic="${STEPSCOPE_FUZZ_ENTROPIC:-1}" -timeout=10 -rss_limit_mb=2048 \
                -max_len="$len" -print_final_stats=1 -artifact_prefix="$out/findings/$name-" \
                "$out/corpus/$name" "$out/tests/fuzz/seeds/$name" >"$runlog" 2>&1 || rc=$?
            one "$runlog" ubsan "$name" "$rc"
            if [ "$rc" -ne 0 ]; then cp "$runlog" "$out/findings/$name-$(date -u +%s).log"; fi
        done
        for name in $targets; do # the ASan replay of each grown corpus: one execution each
            len=4096
            case $name in ascend_db | ascend_analysis_db | nsys_sqlite) len=65536 ;; esac
            runlog="$out/logs/$name.asan.log"
            mkdir -p "$out/corpus/$name"
            t0=$SECONDS rc=0
            STEPSCOPE_FUZZ_TARGET=$name nice -n 19 "$bin/stepscope_fuzz_asan" -runs=0 \
                -timeout=30 -rss_limit_mb=4096 -max_len="$len" -print_final_stats=1 \
                -artifact_prefix="$out/findings/$name-asan-" "$out/corpus/$name" \
                "$out/tests/fuzz/seeds/$name" >"$runlog" 2>&1 || rc=$?
            one "$runlog" asan-replay "$name" "$rc"
            if [ "$rc" -ne 0 ]; then cp "$runlog" "$out/findings/$name-asan-$(date -u +%s).log"; fi
        done
        {
            printf 'target\tubsan_executions\tubsan_seconds\truns\tlast_asan_replay_rc\n'
            awk -F'\t' 'NR > 1 && $3 == "ubsan" { e[$4] += $6; s[$4] += $7; r[$4]++ }
                NR > 1 && $3 == "asan-replay" { a[$4] = $5 }
                END { for (t in e) print t "\t" e[t] "\t" s[t] "\t" r[t] "\t" a[t] }' "$log" \
                | sort
        } >"$out/totals.tsv"
        cur=$((cur * 2 > slice ? slice : cur * 2))
    done
}

stage_fuzz_smoke() {
    sanitizer_build # built by the asan stage already: nothing to do then
    # Reproducible: a fixed seed, a fresh corpus from the seeds and a cap on executions, so
    # CI replays a prefix of the sequence checked on main (STEPSCOPE_FUZZ_SMOKE_RUNS runs per
    # target; a slower machine stops earlier at the time limit). Random exploration is the
    # job of `packaging/dev.sh fuzz`, whose findings become tests.
    rm -rf "$root/build/fuzz-smoke"
    fuzz_run "${STEPSCOPE_FUZZ_SMOKE_SECONDS:-6}" "${STEPSCOPE_FUZZ_SMOKE_RUNS:-400}" 1 \
        "$root/build/fuzz-smoke"
}

stage_package() {
    if [ -x "$root/packaging/check-package.sh" ]; then
        "$root/packaging/check-package.sh"
    else
        echo "dev.sh: no packaging/check-package.sh, nothing to check"
    fi
}

run_stage() {
    local name=$1 t0=$SECONDS
    echo "== dev.sh: stage $name"
    case "$name" in
    format) stage_format ;;
    subjects) stage_subjects ;;
    build) stage_build ;;
    ctest) stage_ctest ;;
    tidy) stage_tidy ;;
    asan) stage_asan ;;
    tsan) stage_tsan ;;
    fuzz-smoke) stage_fuzz_smoke ;;
    package) stage_package ;;
    *)
        echo "dev.sh: unknown stage $name" >&2
        return 2
        ;;
    esac
    echo "== dev.sh: stage $name passed in $((SECONDS - t0)) s"
}

# Every stage, seen green on main in a fresh clone before it joined (docs/robustness.md).
ci_stages=(format subjects build ctest tidy package asan tsan fuzz-smoke)

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
    for st in "${ci_stages[@]}"; do
        run_stage "$st"
    done
    echo "== dev.sh: all stages passed in $SECONDS s"
    ;;
stage)
    shift
    install_missing
    for st in "$@"; do
        run_stage "$st"
    done
    ;;
fuzz)
    install_missing
    sanitizer_build
    fuzz_run "${2:-600}" -1 0 "$root/build/fuzz"
    ;;
fuzz-campaign)
    install_missing
    cmake --preset fuzz-campaign -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$root/build/fuzz-campaign" --parallel "$jobs" --target stepscope_fuzz
    cmake --preset asan-core -S "$root" "${launcher[@]}" >/dev/null
    cmake --build "$root/build/asan-core" --parallel "$jobs" --target stepscope_fuzz
    fuzz_campaign "${2:-24}"
    exit 0 # before bash reads on: a campaign outlives edits to this file (rebase, checkout)
    ;;
demo)
    install_missing
    configure_and_build
    run_demo
    ;;
*)
    echo "usage: packaging/dev.sh test|demo|fuzz [SECONDS]|fuzz-campaign [HOURS]|stage NAME..." >&2
    exit 2
    ;;
esac
