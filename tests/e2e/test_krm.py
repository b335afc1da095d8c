"""archfit krm on golden ResourceLists (tests/krm/), run as kustomize's and kpt's exec
runtimes run a function: the ResourceList on stdin, the result on stdout, in the function's
working directory, with the caller's environment. Standalone kustomize and kpt are not
installable where archfit is tested; this is their exec contract (kustomize v5.6 functions
spec, kyaml fn/framework; kpt v1 exec runtime).

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY.
"""

import os
import subprocess
import unittest

import yaml

ROOT = os.environ["ARCHFIT_SOURCE"]
ARCHFIT = os.environ["ARCHFIT_BINARY"]
CASES = os.path.join(ROOT, "tests", "krm")


class KrmGoldenTest(unittest.TestCase):
    def run_case(self, case):
        d = os.path.join(CASES, case)
        mode = open(os.path.join(d, "args")).read().strip()
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARCHFIT_")}
        env["HOME"] = d  # no user cache or configuration
        with open(os.path.join(d, "input.yaml")) as stdin:
            p = subprocess.run([ARCHFIT, "krm", "--mode", mode, "--offline"], stdin=stdin, cwd=d, env=env,
                               capture_output=True, text=True)
        return d, p

    def test_every_case_gives_its_expected_bytes_and_exit_code(self):
        cases = sorted(c for c in os.listdir(CASES) if os.path.isdir(os.path.join(CASES, c)))
        self.assertGreaterEqual(len(cases), 3)
        for case in cases:
            with self.subTest(case):
                d, p = self.run_case(case)
                self.assertEqual(p.stdout, open(os.path.join(d, "expected.yaml")).read(), p.stderr)
                self.assertEqual(p.returncode, int(open(os.path.join(d, "exit_code")).read()), p.stderr)
                self.assertRegex(p.stderr, r"^archfit krm: \d+ items")

    def test_items_keep_their_order_and_every_annotation(self):
        for case in ("typed-fix", "configmap-lint"):
            d, p = self.run_case(case)
            before = yaml.safe_load(open(os.path.join(d, "input.yaml")))
            after = yaml.safe_load(p.stdout)
            self.assertEqual([i["metadata"]["name"] for i in after["items"]],
                             [i["metadata"]["name"] for i in before["items"]])
            for b, a in zip(before["items"], after["items"]):
                self.assertEqual(b["metadata"].get("annotations"), a["metadata"].get("annotations"))
            self.assertEqual(before["functionConfig"], after["functionConfig"])

    def test_results_follow_the_spec(self):
        d, p = self.run_case("configmap-lint")
        results = yaml.safe_load(p.stdout)["results"]
        self.assertTrue(results)
        for r in results:
            self.assertIn(r["severity"], ("error", "warning", "info"))
            self.assertEqual(set(r["resourceRef"]) - {"namespace"}, {"apiVersion", "kind", "name"})
            self.assertIn("path", r["file"])
            self.assertIsInstance(r["file"]["index"], int)
            self.assertIn("rule", r["tags"])
        self.assertIn("error", [r["severity"] for r in results])
        d, p = self.run_case("with-results")
        results = yaml.safe_load(p.stdout)["results"]
        self.assertEqual(results[0]["message"], "an earlier function's result")
        self.assertGreater(len(results), 1)


if __name__ == "__main__":
    unittest.main()
