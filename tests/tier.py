#!/usr/bin/env python3
"""Runs one tier of the GoogleTest binary (tests/CMakeLists.txt gives each its ctest label).

A test's tier follows from where it is written, so that a new test needs no
registration:
  corpus    suites named Corpus* (over ../shared/corpus), wherever they are
  golden    tests/golden/ (the cases under tests/golden/<case>/)
  property  tests/properties/ (laws over generated inputs)
  cli       tests/unit/cli/ (they run the archfit executable)
  unit      the rest of tests/unit/: in-process, seconds for all of them

usage: tier.py BINARY TIER [gtest arguments...]
       tier.py BINARY --list      every test's tier
"""

import json
import os
import subprocess
import sys
import tempfile

TIERS = ("unit", "cli", "golden", "property", "corpus")
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tier_of(suite, file):
    rel = os.path.relpath(file, SOURCE) if os.path.isabs(file) else file
    if suite.startswith("Corpus") or "/Corpus" in suite:
        return "corpus"
    if rel.startswith("tests/golden/"):
        return "golden"
    if rel.startswith("tests/properties/"):
        return "property"
    if rel.startswith("tests/unit/cli/"):
        return "cli"
    if rel.startswith(("tests/unit/", "tests/support/")):
        return "unit"
    return None


def suites(binary):
    """{suite: tier}; a suite written in two tiers is an error."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "list.json")
        subprocess.run([binary, "--gtest_list_tests", f"--gtest_output=json:{out}"],
                       check=True, stdout=subprocess.DEVNULL)
        listing = json.load(open(out, encoding="utf-8"))
    found = {}
    problems = []
    for suite in listing["testsuites"]:
        for test in suite["testsuite"]:
            tier = tier_of(suite["name"], test.get("file", ""))
            if tier is None:
                problems.append(f"{test.get('file')}: {suite['name']}.{test['name']} is in no tier")
            elif found.setdefault(suite["name"], tier) != tier:
                problems.append(f"{test.get('file')}: suite {suite['name']} is written in the "
                                f"{found[suite['name']]} and the {tier} tiers; rename one")
    return found, problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, tier, rest = argv[1], argv[2], argv[3:]
    found, problems = suites(binary)
    for p in problems:
        print(f"tier.py: {p}", file=sys.stderr)
    if problems:
        return 1
    if tier == "--list":
        for suite, t in sorted(found.items()):
            print(f"{t}\t{suite}")
        return 0
    if tier not in TIERS:
        print(f"tier.py: {tier!r} is not a tier; use one of {', '.join(TIERS)}", file=sys.stderr)
        return 2
    chosen = sorted(s for s, t in found.items() if t == tier)
    if not chosen:
        print(f"tier.py: the {tier} tier has no test", file=sys.stderr)
        return 1
    pattern = ":".join(f"{s}.*" for s in chosen)
    return subprocess.run([binary, f"--gtest_filter={pattern}", "--gtest_brief=1"] + rest).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
