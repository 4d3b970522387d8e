#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Commit subjects are at most 72 characters (STYLE.md section 9, issue 16).

  git log --format='%h %s' RANGE | check-subjects.py   CI (packaging/dev.sh stage subjects)
  check-subjects.py --message FILE                     git commit-msg hook (packaging/commit-msg)

Counts characters (not bytes) of the subject, i.e. the first line of the message.
"""
import sys

LIMIT = 72


def main():
    bad = []
    if len(sys.argv) == 3 and sys.argv[1] == "--message":
        with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("#")]
        subject = lines[0] if lines else ""
        if len(subject) > LIMIT:
            bad.append(("(this commit)", subject))
    else:
        for line in sys.stdin.buffer.read().decode("utf-8", "replace").splitlines():
            commit, _, subject = line.partition(" ")
            if len(subject) > LIMIT:
                bad.append((commit, subject))
    for commit, subject in bad:
        print(f"{commit}: subject has {len(subject)} characters (at most {LIMIT}): {subject}",
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
