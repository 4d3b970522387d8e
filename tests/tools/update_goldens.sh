#!/bin/sh
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# Rewrites the golden dumps in tests/data/golden/ from the current code, for when an import
# change is intended: builds import_tests in BUILD_DIR (default build/ci), runs only the
# golden tests with STEPSCOPE_UPDATE_GOLDENS=1, then shows what changed. Review the diff
# before committing. The normal test run never writes these files.
#
# usage: tests/tools/update_goldens.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build/ci}
cmake --build "$build" --parallel 2 --target import_tests
STEPSCOPE_UPDATE_GOLDENS=1 "$build/tests/import_tests" --gtest_filter='Samples/GoldenDump.*'
git status --short -- tests/data/golden
