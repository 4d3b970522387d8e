#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Writes each fuzz target's seed corpus: make_seeds.py FUZZER DATA_DIR EXTRA_DIR OUT_DIR.

The targets and their seed globs come from `FUZZER --list-targets`. Gzip seeds are
gunzipped; every seed is cut to MAX_LEN bytes (the -max_len dev.sh passes), since readers
keep the valid prefix of a cut file. tests/fuzz/seeds/<target>/ adds hand-made seeds.
"""
import glob
import gzip
import hashlib
import os
import shutil
import subprocess
import sys

MAX_LEN = 65536


def main():
    fuzzer, data, extra, out = sys.argv[1:5]
    listing = subprocess.run([fuzzer, "--list-targets"], check=True, capture_output=True,
                             text=True).stdout
    for line in listing.splitlines():
        name, _, globs = line.partition("\t")
        target_dir = os.path.join(out, name)
        shutil.rmtree(target_dir, ignore_errors=True)
        os.makedirs(target_dir)
        files = []
        for pattern in filter(None, globs.split("|")):
            files += sorted(glob.glob(os.path.join(data, pattern)))
        files += sorted(glob.glob(os.path.join(extra, name, "*")))
        for path in files:
            with open(path, "rb") as f:
                head = f.read(2)
            opener = gzip.open if head == b"\x1f\x8b" else open
            try:
                with opener(path, "rb") as f:
                    blob = f.read(MAX_LEN)
            except (OSError, EOFError):
                continue
            digest = hashlib.sha1(blob).hexdigest()[:16]
            with open(os.path.join(target_dir, digest), "wb") as f:
                f.write(blob)
        if not os.listdir(target_dir):
            print(f"make_seeds.py: no seeds for {name}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
