"""The oracle for archfit's split: each golden spread case written by hand as kustomize overlays,
one per node group (a name suffix, the group's replica count, its selector label and
nodeSelector), built with the real `kubectl kustomize`, equals what `archfit fix` writes, as data
and archfit's own record (the archfit.io/split annotation) aside. The replica counts are the
predecessors' own answers: 1 / 4 / 5 for the CustomPodScheduleStrategy example, 8 / 2 for the
PodDistributor example.

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY, KUBECTL.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import yaml

from support import write

ROOT = os.environ["ARCHFIT_SOURCE"]
ARCHFIT = os.environ["ARCHFIT_BINARY"]
KUBECTL = os.environ["KUBECTL"]

# Placement that adds nothing to these images (they run on the one cluster platform), so that the
# split is all archfit changes.
CONFIG = "clusterPlatforms: [linux/amd64]\nplacement:\n  annotate: false\n"

CASES = {
    "spread-annotation-example": ("nodesize", [("od4vcpu16gb", 1), ("spot4vcpu16gb", 4), ("spot8vcpu32gb", 5)]),
    "spread-poddistributor-example": ("type", [("default", 8), ("spot", 2)]),
}


def without_record(doc):
    annotations = doc["metadata"].get("annotations", {})
    annotations.pop("archfit.io/split", None)
    if not annotations:
        doc["metadata"].pop("annotations", None)
    return doc


class SpreadOracleTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="spread-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def overlays(self, deployment, key, groups):
        name = deployment["metadata"]["name"]
        target = {"name": name}
        if "namespace" in deployment["metadata"]:
            target["namespace"] = deployment["metadata"]["namespace"]
        write(os.path.join(self.dir, "base", "deployment.yaml"), yaml.safe_dump(deployment))
        write(os.path.join(self.dir, "base", "kustomization.yaml"), "resources: [deployment.yaml]\n")
        for value, count in groups:
            patch = {
                "apiVersion": "apps/v1", "kind": "Deployment", "metadata": target,
                "spec": {"selector": {"matchLabels": {"archfit.io/spread-group": value}},
                         "template": {"metadata": {"labels": {"archfit.io/spread-group": value}},
                                      "spec": {"nodeSelector": {key: value}}}},
            }
            kustomization = {
                "resources": ["../base"],
                "nameSuffix": "-" + value,
                "replicas": [{"name": name, "count": count}],
                "patches": [{"path": "group.yaml"}],
            }
            write(os.path.join(self.dir, value, "group.yaml"), yaml.safe_dump(patch))
            write(os.path.join(self.dir, value, "kustomization.yaml"), yaml.safe_dump(kustomization))
        write(os.path.join(self.dir, "kustomization.yaml"),
              yaml.safe_dump({"resources": [value for value, _ in groups]}))
        p = subprocess.run([KUBECTL, "kustomize", self.dir], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return list(yaml.safe_load_all(p.stdout))

    def test_each_split_equals_its_overlays(self):
        for case, (key, groups) in CASES.items():
            with self.subTest(case=case):
                golden = os.path.join(ROOT, "tests", "golden", case)
                with open(os.path.join(golden, "input.yaml")) as f:
                    text = f.read()
                deployment = next(d for d in yaml.safe_load_all(text) if d and d["kind"] == "Deployment")
                built = self.overlays(deployment, key, groups)
                config = os.path.join(self.dir, "archfit.yaml")
                write(config, CONFIG)
                p = subprocess.run([ARCHFIT, "fix", "--offline", "--config", config, "--lock",
                                    os.path.join(golden, "archfit.lock"), "-"],
                                   input=text, capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                pieces = [without_record(d) for d in yaml.safe_load_all(p.stdout)
                          if d and d["kind"] == "Deployment"]
                key_of = lambda d: d["metadata"]["name"]
                self.assertEqual(sorted(built, key=key_of), sorted(pieces, key=key_of))
                self.assertEqual([d["spec"]["replicas"] for d in pieces], [c for _, c in groups])


if __name__ == "__main__":
    unittest.main()
