"""archfit as a kustomize legacy exec plugin, run by the real `kubectl kustomize
--enable-alpha-plugins` (kubectl 1.33, kustomize v5.6) with KUSTOMIZE_PLUGIN_HOME at
kustomize-plugin/: an overlay with a base, a ConfigMap generator, a name prefix and a CRD.

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY, KUBECTL.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

from support import bin_dir, write

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from served_release import ServedRelease  # noqa: E402

ROOT = os.environ["ARCHFIT_SOURCE"]
ARCHFIT = os.environ["ARCHFIT_BINARY"]
KUBECTL = os.environ["KUBECTL"]

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: search
spec:
  selector:
    matchLabels: {app: search}
  template:
    metadata:
      labels: {app: search}
    spec:
      containers:
      - name: es
        image: docker.elastic.co/elasticsearch/elasticsearch:6.8.23
"""
CRONJOB = """apiVersion: batch/v1
kind: CronJob
metadata:
  name: clean
spec:
  schedule: '0 * * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: kubectl
            image: bitnami/kubectl:1.31
"""
CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
"""
PLUGIN_CONFIG = """apiVersion: archfit.io/v1alpha1
kind: ArchFit
metadata:
  name: archfit
argsOneLiner: --offline
"""


class KustomizeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kustomize-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        base = os.path.join(self.dir, "base")
        write(os.path.join(base, "deployment.yaml"), DEPLOYMENT)
        write(os.path.join(base, "cronjob.yaml"), CRONJOB)
        write(os.path.join(base, "crd.yaml"), CRD)
        write(os.path.join(base, "kustomization.yaml"),
              "resources: [deployment.yaml, cronjob.yaml, crd.yaml]\n"
              "configMapGenerator:\n- name: settings\n  literals: [a=b]\n")
        self.plain = os.path.join(self.dir, "plain")
        write(os.path.join(self.plain, "kustomization.yaml"), "resources: [../base]\nnamePrefix: prod-\n")
        self.overlay = os.path.join(self.dir, "overlay")
        write(os.path.join(self.overlay, "kustomization.yaml"),
              "resources: [../base]\nnamePrefix: prod-\ntransformers: [archfit.yaml]\n")
        write(os.path.join(self.overlay, "archfit.yaml"), PLUGIN_CONFIG)
        shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), self.overlay)
        bindir = bin_dir(os.path.join(self.dir, "bin"), archfit=ARCHFIT)
        self.env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
                        KUSTOMIZE_PLUGIN_HOME=os.path.join(ROOT, "kustomize-plugin"),
                        HOME=self.dir, ARCHFIT_CACHE_DIR=os.path.join(self.dir, "cache"))
        for name in ("ARCHFIT_CONFIG", "ARCHFIT_LOCK", "ARCHFIT_OFFLINE"):
            self.env.pop(name, None)

    def kustomize(self, path, plugins=True, check=True):
        args = [KUBECTL, "kustomize"] + (["--enable-alpha-plugins"] if plugins else []) + [path]
        p = subprocess.run(args, env=self.env, capture_output=True, text=True)
        if check:
            self.assertEqual(p.returncode, 0, p.stderr)
        return p

    def test_the_plugin_executable_keeps_its_exec_bit(self):
        path = os.path.join(ROOT, "kustomize-plugin", "archfit.io", "v1alpha1", "archfit", "ArchFit")
        self.assertTrue(os.access(path, os.X_OK))
        # And git records it, so that a clone keeps it.
        mode = subprocess.run(["git", "ls-files", "-s", path], cwd=ROOT, capture_output=True,
                              text=True).stdout.split()
        self.assertTrue(mode, "the plugin is not in git")
        self.assertEqual(mode[0], "100755")

    def test_output_is_kustomize_without_the_plugin_fixed_by_archfit(self):
        got = self.kustomize(self.overlay).stdout
        plain = self.kustomize(self.plain, plugins=False).stdout
        fixed = subprocess.run([ARCHFIT, "fix", "--offline", "--config", os.path.join(self.overlay, "archfit.yaml"),
                                "--lock", os.path.join(self.overlay, "archfit.lock"), "-"],
                               input=plain, env=self.env, capture_output=True, text=True)
        self.assertEqual(fixed.returncode, 0, fixed.stderr)
        self.assertEqual(list(yaml.safe_load_all(got)), list(yaml.safe_load_all(fixed.stdout)))
        docs = {d["metadata"]["name"]: d for d in yaml.safe_load_all(got)}
        # The generator's hashed name, the prefix and the CRD are kustomize's, untouched.
        self.assertTrue(any(n.startswith("prod-settings-") for n in docs))
        self.assertEqual(docs["widgets.example.com"], yaml.safe_load(CRD))
        spec = docs["prod-search"]["spec"]["template"]["spec"]
        self.assertIn("affinity", spec)
        clean = docs["prod-clean"]["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        self.assertIn({"key": "kubernetes.io/arch", "operator": "Equal", "value": "arm64",
                       "effect": "NoSchedule"}, clean["tolerations"])

    def test_the_plugins_configuration_is_archfits(self):
        write(os.path.join(self.overlay, "archfit.yaml"),
              PLUGIN_CONFIG + "placement:\n  mode: nodeSelector\n")
        docs = {d["metadata"]["name"]: d for d in yaml.safe_load_all(self.kustomize(self.overlay).stdout)}
        spec = docs["prod-search"]["spec"]["template"]["spec"]
        self.assertEqual(spec["nodeSelector"], {"kubernetes.io/arch": "amd64"})
        self.assertNotIn("affinity", spec)
        # argsOneLiner words reach archfit: an amd64-only cluster needs nothing.
        write(os.path.join(self.overlay, "archfit.yaml"),
              PLUGIN_CONFIG.replace("--offline", "--offline --platforms linux/amd64"))
        docs = {d["metadata"]["name"]: d for d in yaml.safe_load_all(self.kustomize(self.overlay).stdout)}
        self.assertNotIn("affinity", docs["prod-search"]["spec"]["template"]["spec"])

    def test_the_example_gives_its_expected_output(self):
        example = os.path.join(ROOT, "kustomize-plugin", "examples", "multiarch")
        got = self.kustomize(example).stdout
        self.assertEqual(got, open(os.path.join(example, "expected.yaml")).read())

    # -- the plugin installs its release --------------------------------------------------------
    def served_release(self):
        release = ServedRelease.of(ARCHFIT)
        self.addCleanup(release.close)
        version = release.version
        self.env["PATH"] = os.environ["PATH"]  # no archfit on PATH
        self.assertIsNone(shutil.which("archfit", path=self.env["PATH"]))
        self.env.update(ARCHFIT_INSTALL_VERSION=version, **release.env,
                        XDG_CACHE_HOME=os.path.join(self.dir, "xdg-cache"))
        return release, os.path.join(self.dir, "xdg-cache", "archfit", "releases", version)

    def test_the_plugin_installs_its_release_once_and_runs_it(self):
        release, installed = self.served_release()
        got = self.kustomize(self.overlay).stdout
        with open(os.path.join(installed, "archfit"), "rb") as f:
            self.assertEqual(f.read(), release.exe, "the checked release, byte for byte")
        self.assertIn("affinity", {d["metadata"]["name"]: d for d in yaml.safe_load_all(got)}[
            "prod-search"]["spec"]["template"]["spec"])
        release.remove_archive()  # a second build downloads nothing
        self.assertEqual(self.kustomize(self.overlay).stdout, got)

    def test_a_checksum_mismatch_fails_the_build_and_installs_nothing(self):
        release, installed = self.served_release()
        release.publish(sums=f"{'1' * 64}  {release.archive}\n")
        p = self.kustomize(self.overlay, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("checksum mismatch", p.stderr)
        self.assertIn(f"installing archfit {release.version} failed", p.stderr)
        self.assertFalse(os.path.exists(installed))

    def test_a_hostile_version_never_becomes_a_path(self):
        _, installed = self.served_release()
        planted = os.path.join(self.dir, "planted")
        write(os.path.join(planted, "archfit"), "#!/bin/sh\ntouch \"$HOME/ran\"\n")
        os.chmod(os.path.join(planted, "archfit"), 0o755)
        for version in ("../../../planted", "-rf", "1.2.3/../../../../planted"):
            self.env["ARCHFIT_INSTALL_VERSION"] = version
            p = self.kustomize(self.overlay, check=False)
            self.assertNotEqual(p.returncode, 0, version)
            self.assertIn("is not a release version", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "ran")))

    def test_errors_surface_with_their_message(self):
        write(os.path.join(self.overlay, "archfit.yaml"),
              PLUGIN_CONFIG + "placement:\n  mode: sideways\n")
        p = self.kustomize(self.overlay, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('"sideways" is not a mode; use one of affinity', p.stderr)
        # An image the lock does not know, offline, with no setting: a KRM function fails on it
        # (kustomize would show no warning).
        write(os.path.join(self.overlay, "archfit.yaml"), PLUGIN_CONFIG)
        with open(os.path.join(self.dir, "base", "deployment.yaml"), "a") as f:
            f.write("      - name: side\n        image: registry.invalid/side:1\n")
        p = self.kustomize(self.overlay, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('cannot resolve "registry.invalid/side:1"', p.stderr)
        self.assertIn("archfit lock --set registry.invalid/side:1=PLATFORMS", p.stderr)


if __name__ == "__main__":
    unittest.main()
