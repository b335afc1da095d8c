"""archfit fix against the fake registry while another program works on the
same file: a file changed or replaced between archfit's read and its write is
left as the other program left it, with exit 2 and a message; nothing of
archfit's is written, and no temporary file is left behind."""

import os
import unittest

from lib import fake_registry as fr
from lib.archfit_case import ArchfitCase

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
      - name: app
        image: {image}
"""


class FixWhileAnotherProgramWrites(ArchfitCase):
    def setUp(self):
        super().setUp()
        self.fake = fr.FakeRegistry().start()
        self.addCleanup(self.fake.stop)
        single = self.fake.store.image("linux/arm64/v8", in_index=False)
        self.fake.tag("single/app", "v1", single)
        self.manifest = os.path.join(self.tmp, "app.yaml")
        self.original = DEPLOYMENT.format(image=self.fake.ref("single/app", "v1"))
        with open(self.manifest, "w") as f:
            f.write(self.original)
        self.config = self.write_config({"insecureRegistries": [self.fake.host]})

    def fix_while(self, change):
        """Runs fix; `change` runs when archfit asks the registry for the
        image, after it has read the file and before it writes it."""
        def act(fake, h):
            change()
            return False  # and answer as usual
        self.fake.fault(fr.manifest("single/app"), act, times=1)
        run = self.archfit(["fix", "--config", self.config, "--cache-dir", self.cache_dir,
                            self.manifest])
        self.assertTrue(self.fake.requests(kind="manifest"), "the registry was not asked")
        return run

    def assertLeftToTheOtherProgram(self, run, theirs):
        self.assertEqual(run.code, 2, run)
        self.assertIn("it changed since archfit read it", run.stderr)
        with open(self.manifest) as f:
            self.assertEqual(f.read(), theirs)
        self.assertEqual([n for n in os.listdir(self.tmp) if ".archfit-" in n], [])

    def test_a_file_replaced_by_an_editor_save(self):
        theirs = self.original.replace("name: app\n", "name: app  # edited\n", 1)

        def save():
            temp = self.manifest + ".swp"
            with open(temp, "w") as f:
                f.write(theirs)
            os.replace(temp, self.manifest)
        self.assertLeftToTheOtherProgram(self.fix_while(save), theirs)

    def test_a_file_written_in_place(self):
        theirs = self.original + "---\n# appended by another program\n"

        def append():
            with open(self.manifest, "a") as f:
                f.write("---\n# appended by another program\n")
        self.assertLeftToTheOtherProgram(self.fix_while(append), theirs)

    def test_an_unchanged_file_is_written(self):
        run = self.fix_while(lambda: None)
        self.assertEqual(run.code, 0, run)
        with open(self.manifest) as f:
            self.assertIn("- arm64", f.read())


if __name__ == "__main__":
    unittest.main()
