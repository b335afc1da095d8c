"""archfit krm on golden ResourceLists (tests/krm/), run as kustomize's and kpt's exec
runtimes run a function: the ResourceList on stdin, the result on stdout, in the function's
working directory, with the caller's environment. Standalone kustomize and kpt are not
installable where archfit is tested; this is their exec contract (kustomize v5.6 functions
spec, kyaml fn/framework; kpt v1 exec runtime).

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY.
"""

import os
import shutil
import subprocess
import tempfile
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


class KptTest(unittest.TestCase):
    """The real kpt (kpt fn eval --exec) on the bundled examples, whose
    .archfit.yaml lies among the manifests: kpt reads every YAML file of a
    package as a resource, so the configuration carries metadata.name and
    config.kubernetes.io/local-config."""

    def setUp(self):
        self.kpt = shutil.which("kpt")
        self.assertIsNotNone(self.kpt, "kpt is not installed (Debian: google-cloud-cli-kpt)")
        self.dir = tempfile.mkdtemp(prefix="kpt-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.package = os.path.join(self.dir, "examples")
        shutil.copytree(os.path.join(ROOT, "examples"), self.package)
        self.env = {"PATH": os.path.dirname(os.path.abspath(ARCHFIT)) + os.pathsep + "/usr/bin:/bin",
                    "HOME": self.dir}

    def eval(self):
        # As docs/kustomize.md shows it: in the package, which holds the lock.
        return subprocess.run([self.kpt, "fn", "eval", "--exec", "archfit krm --offline", "."],
                              cwd=self.package, env=self.env, capture_output=True, text=True, timeout=120)

    def test_kpt_fixes_the_examples_with_their_configuration_inside(self):
        config = os.path.join(self.package, ".archfit.yaml")
        with open(config) as f:
            before = f.read()
        loaded = yaml.safe_load(before)
        self.assertEqual(loaded["metadata"]["name"], "archfit")
        self.assertEqual(loaded["metadata"]["annotations"]["config.kubernetes.io/local-config"], "true")
        p = self.eval()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("fixed missing-arch-affinity", p.stderr)
        with open(os.path.join(self.package, "search.yaml")) as f:
            search = yaml.safe_load(f)
        terms = search["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        self.assertEqual(terms[0]["matchExpressions"][0]["values"], ["amd64"])
        with open(config) as f:
            self.assertEqual(f.read(), before, "the configuration is left as it is")
        # The fix is final: a second run changes no file.
        files = {n: open(os.path.join(self.package, n), "rb").read() for n in os.listdir(self.package)}
        p = self.eval()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual({n: open(os.path.join(self.package, n), "rb").read()
                          for n in os.listdir(self.package)}, files)

    def test_a_configuration_without_metadata_is_still_read_by_archfit(self):
        # What kpt refuses is kpt's rule; archfit reads the plain form too.
        config = os.path.join(self.package, ".archfit.yaml")
        plain = os.path.join(self.dir, "plain")
        os.makedirs(plain)
        with open(config) as f:
            text = f.read()
        text = text.replace("metadata:\n  name: archfit\n  annotations:\n"
                            "    config.kubernetes.io/local-config: \"true\"\n", "")
        self.assertNotIn("metadata", yaml.safe_load(text))
        with open(os.path.join(plain, ".archfit.yaml"), "w") as f:
            f.write(text)
        shutil.copy(os.path.join(self.package, "search.yaml"), plain)
        shutil.copy(os.path.join(self.package, "archfit.lock"), plain)
        p = subprocess.run([ARCHFIT, "lint", "--offline", "--", "search.yaml"], cwd=plain, env=self.env,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p)
        self.assertIn("missing-arch-affinity", p.stdout)


if __name__ == "__main__":
    unittest.main()
