"""Living with the lock, against the real docker-registry: a tag re-pushed
with arm64 added is found by `lock --check` (exit 1, nothing written);
`lock` updates what moved and says what changed, and a second run changes
nothing; `lock --prune` takes out exactly the entries no manifest uses;
every lock the inputs use is checked, each with its own manifests."""

import json
import os
import shutil
import subprocess
import unittest

from lib import catalog, harness
from lib.archfit_case import ArchfitCase
from lib.registry import Registry

DEPLOYMENT = """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  template:
    spec:
      containers:
      - name: main
        image: {image}
"""


class LockUpkeep(ArchfitCase):
    @classmethod
    def setUpClass(cls):
        cls.registry = Registry().start()
        try:
            cls.layout = catalog.layout_dir(harness.temp_dir("layout"))
            cls.pushed = catalog.populate(cls.registry, cls.layout)
        except BaseException:
            cls.registry.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.registry.stop()

    def setUp(self):
        super().setUp()
        # A repository with a lock at its root, and a team with a lock of its own.
        self.repo = os.path.join(self.tmp, "repo")
        os.makedirs(os.path.join(self.repo, ".git"))
        os.makedirs(os.path.join(self.repo, "team"))
        self.config = os.path.join(self.repo, ".archfit.yaml")
        with open(self.config, "w") as f:
            f.write(f"resolve:\n  insecureRegistries: ['{self.registry.host}']\n")
        # The image that will gain arm64: amd64 alone at first.
        self.drift = f"{self.registry.host}/drift/app:1"
        self.registry.push(self.layout, "docker-single", "drift/app:1")
        self.arm = f"{self.registry.host}/oci-single/app:v1"

    def write(self, rel, text):
        path = os.path.join(self.repo, rel)
        with open(path, "w") as f:
            f.write(text)
        return path

    def lock_in(self, *args):
        """archfit lock in the repository (its working directory)."""
        return harness.run_archfit(["lock", "--cache-dir", self.cache_dir, *args, "--", "."],
                                   cwd=self.repo, env={"ARCHFIT_CACHE_DIR": self.cache_dir})

    def entries(self, rel="archfit.lock"):
        with open(os.path.join(self.repo, rel)) as f:
            return json.load(f)["images"]

    def test_a_tag_that_gains_arm64_is_found_then_updated_once(self):
        self.write("web.yaml", DEPLOYMENT.format(name="web", image=self.drift))
        first = self.lock_in()
        self.assertEqual(first.code, 0, first)
        self.assertEqual(self.entries()[self.drift]["platforms"], ["linux/amd64"])
        self.assertIn("added", first.stdout)
        with open(os.path.join(self.repo, "archfit.lock"), "rb") as f:
            locked = f.read()
        # The tag moves: the same name now holds an index for amd64 and arm64.
        self.registry.push(self.layout, "attestations", "drift/app:1")
        check = self.lock_in("--check", "--format", "json")
        self.assertEqual(check.code, 1, check)
        report = json.loads(check.stdout)
        [change] = report["locks"][0]["changes"]
        self.assertEqual(change["image"], self.drift)
        self.assertEqual(change["change"], "moved")
        self.assertEqual(change["gained"], ["linux/arm64"])
        self.assertEqual(change["lost"], [])
        with open(os.path.join(self.repo, "archfit.lock"), "rb") as f:
            self.assertEqual(f.read(), locked, "--check writes nothing")
        diff_file = os.path.join(self.tmp, "lock.diff")
        update = self.lock_in("--diff", diff_file)
        self.assertEqual(update.code, 0, update)
        # The diff turns the lock as it was into the lock written.
        with open(diff_file) as f:
            diff = f.read()
        self.assertTrue(diff.startswith("--- a/archfit.lock\n+++ b/archfit.lock\n"), diff)
        replay = os.path.join(self.tmp, "replay")
        os.makedirs(replay)
        with open(os.path.join(replay, "archfit.lock"), "wb") as f:
            f.write(locked)
        subprocess.run(["patch", "-s", "-p1", "-i", diff_file], cwd=replay, check=True)
        with open(os.path.join(replay, "archfit.lock"), "rb") as f, \
                open(os.path.join(self.repo, "archfit.lock"), "rb") as g:
            self.assertEqual(f.read(), g.read())
        self.assertRegex(update.stdout, r"drift/app:1: the tag moved from sha256:\w+ to sha256:\w+; "
                                        r"gained linux/arm64")
        self.assertEqual(self.entries()[self.drift]["platforms"], ["linux/amd64", "linux/arm64"])
        again = self.lock_in("--diff", diff_file)
        self.assertEqual(again.code, 0, again)
        self.assertEqual(again.stdout, "", "a second run changes nothing")
        self.assertEqual(os.path.getsize(diff_file), 0, "and its diff is empty")
        self.assertEqual(self.lock_in("--check").code, 0)

    def test_missing_and_unused_entries_and_prune_takes_out_exactly_the_unused(self):
        self.write("web.yaml", DEPLOYMENT.format(name="web", image=self.drift))
        self.assertEqual(self.lock_in().code, 0)
        with open(os.path.join(self.repo, "archfit.lock")) as f:
            data = json.load(f)
        data["images"]["docker.io/library/gone:1"] = {"platforms": ["linux/amd64"]}
        data["images"]["docker.io/library/gone:2"] = {"platforms": ["linux/arm64"]}
        with open(os.path.join(self.repo, "archfit.lock"), "w") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
        self.write("api.yaml", DEPLOYMENT.format(name="api", image=self.arm))
        check = self.lock_in("--check", "--format", "json")
        self.assertEqual(check.code, 1, check)
        changes = {c["image"]: c for c in json.loads(check.stdout)["locks"][0]["changes"]}
        self.assertEqual(changes[self.arm]["change"], "missing")
        self.assertEqual(changes[self.arm]["usedBy"], ["api.yaml"])
        self.assertEqual(changes["docker.io/library/gone:1"]["change"], "unused")
        self.assertEqual(changes["docker.io/library/gone:2"]["change"], "unused")
        self.assertNotIn(self.drift, changes)
        # lock keeps what nothing uses; --prune (no registry asked) drops exactly that.
        self.assertEqual(self.lock_in().code, 0)
        self.assertIn("docker.io/library/gone:1", self.entries())
        before = self.entries()
        pruned = self.lock_in("--prune", "--offline")  # no registry is asked
        self.assertEqual(pruned.code, 0, pruned)
        after = self.entries()
        self.assertEqual(set(before) - set(after), {"docker.io/library/gone:1", "docker.io/library/gone:2"})
        for image in after:
            self.assertEqual(after[image], before[image])

    def test_every_lock_the_inputs_use_is_checked_with_its_own_manifests(self):
        self.write("web.yaml", DEPLOYMENT.format(name="web", image=self.drift))
        self.write("team/api.yaml", DEPLOYMENT.format(name="api", image=self.arm))
        with open(os.path.join(self.repo, "team", "archfit.lock"), "w") as f:
            f.write('{"version": 1, "images": {}}\n')
        self.assertEqual(self.lock_in().code, 0)
        self.assertEqual(sorted(self.entries()), [self.drift])
        self.assertEqual(sorted(self.entries("team/archfit.lock")), [self.arm])
        self.assertEqual(self.lock_in("--check").code, 0)


if __name__ == "__main__":
    unittest.main()
