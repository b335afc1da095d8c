"""What reaches the disk before it takes its file's place (docs/reports.md).

A manifest fixed in place is on the disk (fsync) before it replaces the file a
person keeps; a report is left to the kernel to write back, as a report
redirected from stdout is, and still takes its place whole. strace counts the
calls that wait for the disk."""

import json
import os
import shutil
import unittest

from lib import harness
from lib.archfit_case import ArchfitCase

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
SYNCS = "trace=fsync,fdatasync,sync_file_range,syncfs,sync"


def read(path):
    with open(path) as f:
        return f.read()


class WhatWaitsForTheDisk(ArchfitCase):
    def setUp(self):
        super().setUp()
        harness.require_tool("strace")
        self.work = os.path.join(self.tmp, "work")
        shutil.copytree(EXAMPLES, self.work)
        self.manifests = sorted(n for n in os.listdir(self.work)
                                if n.endswith(".yaml") and not n.startswith("."))

    def traced(self, args):
        """The run, and the calls it made that wait for the disk."""
        log = os.path.join(self.tmp, "syncs.log")
        run = self.archfit(["--offline", "--lock", os.path.join(self.work, "archfit.lock"),
                            "--config", "/dev/null", *args], env=harness.unsanitized_leaks(),
                           under=["strace", "-f", "-qq", "-e", SYNCS, "-e", "signal=none",
                                  "-o", log])
        with open(log) as f:
            return run, [line for line in f if "sync" in line]

    def test_reports_wait_for_no_disk_and_take_their_place_whole(self):
        reports = {fmt: os.path.join(self.tmp, f"report.{fmt}") for fmt in ("sarif", "json")}
        with open(reports["json"], "w") as f:
            f.write("an earlier report\n")
        args = [f"--report={fmt}={path}" for fmt, path in reports.items()]
        run, syncs = self.traced(["lint", "--fail-on=never", *args, "--", self.work])
        self.assertEqual(run.code, 0, run)
        self.assertEqual(syncs, [])
        findings = json.loads(read(reports["json"]))["findings"]
        self.assertGreater(len(findings), 0)
        self.assertEqual(len(json.loads(read(reports["sarif"]))["runs"][0]["results"]),
                         len(findings))
        self.assertEqual([n for n in os.listdir(self.tmp) if ".archfit-" in n], [])

    def test_a_manifest_fixed_in_place_is_on_the_disk_first(self):
        before = {n: read(os.path.join(self.work, n)) for n in self.manifests}
        run, syncs = self.traced(["fix", "--quiet", *(os.path.join(self.work, n)
                                                       for n in self.manifests)])
        self.assertEqual(run.code, 0, run)
        changed = [n for n in self.manifests if read(os.path.join(self.work, n)) != before[n]]
        self.assertGreater(len(changed), 1, "the examples need fixing: the test proves nothing")
        self.assertEqual(sum(1 for s in syncs if s.split(None, 1)[1].startswith("fsync(")),
                         len(changed), syncs)


if __name__ == "__main__":
    unittest.main()
