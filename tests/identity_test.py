"""The project's address is written in one place, project.conf; the build
and the scripts read it. Documents cannot read a file, so this test checks
that every address of the project they give is that one: changing
project.conf fails here until the documents say the same.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def configured_url():
    with open(os.path.join(TOP, "project.conf")) as f:
        for line in f:
            if line.startswith("url="):
                return line[len("url="):].strip()
    raise AssertionError("project.conf has no url=")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def tracked_text_files():
    names = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        if name.startswith(("tests/golden/", "tests/unit/")) or not os.path.isfile(os.path.join(TOP, name)):
            continue
        try:
            with open(os.path.join(TOP, name), encoding="utf-8") as f:
                yield name, f.read()
        except UnicodeDecodeError:
            continue


class Identity(unittest.TestCase):
    def test_every_address_of_the_project_is_the_configured_one(self):
        url = configured_url()
        match = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+)", url)
        self.assertIsNotNone(match, url)
        owner, repo = match.groups()
        # Any GitHub address or action reference whose repository is archfit.
        address = re.compile(r"github\.com/([\w.-]+)/(archfit)\b|uses: ([\w.-]+)/(archfit)@")
        seen = 0
        for name, text in tracked_text_files():
            for m in address.finditer(text):
                seen += 1
                got = (m.group(1) or m.group(3), m.group(2) or m.group(4))
                line = text.count("\n", 0, m.start()) + 1
                self.assertEqual(got, (owner, repo), f"{name}:{line}: {m.group(0)} (project.conf: {url})")
        self.assertGreater(seen, 5, "the documents name the project")

    def test_the_installer_carries_the_project_address_and_key(self):
        # scripts/install is published alone (install.sh): it cannot read
        # project.conf, so it carries a copy of the two values it needs.
        installer = read(os.path.join(TOP, "scripts", "install"))
        releases = re.search(r"(?m)^RELEASES=(\S+)$", installer).group(1)
        self.assertEqual(releases, configured_url() + "/releases/download")
        with open(os.path.join(TOP, "project.conf")) as f:
            key_file = re.search(r"(?m)^release-key=(\S+)$", f.read()).group(1)
        key = read(os.path.join(TOP, key_file))
        self.assertTrue(key.startswith("-----BEGIN PGP PUBLIC KEY BLOCK-----\n"), key_file)
        built_in = re.search(r"(?s)<<'KEY'\n(.*?)\nKEY\n", installer).group(1) + "\n"
        self.assertEqual(built_in, key, f"scripts/install's key is not {key_file}")

    def test_the_release_files_name_the_last_release(self):
        with open(os.path.join(TOP, "project.conf")) as f:
            image = re.search(r"(?m)^image=(\S+)$", f.read()).group(1)
        described = subprocess.run(["git", "-C", TOP, "describe", "--tags", "--abbrev=0",
                                    "--match", "v[0-9]*"], capture_output=True, text=True)
        tag = described.stdout.strip()[1:] if described.returncode == 0 else "unreleased"
        with open(os.path.join(TOP, ".pre-commit-hooks.yaml")) as f:
            hooks = f.read()
        entries = re.findall(r"(?m)^  entry: (.*)$", hooks)
        images = [e for e in entries if "--entrypoint" in e]
        self.assertEqual(len(images), 2, entries)
        for entry in images:
            self.assertIn(f" {image}:{tag} ", entry, "scripts/prepare-release sets the tag")
        # The node hooks install the npm package of the release.
        with open(os.path.join(TOP, "project.conf")) as f:
            scope = re.search(r"(?m)^npm-scope=(\S+)$", f.read()).group(1)
        dependencies = re.findall(r"(?m)^  additional_dependencies: (.*)$", hooks)
        if tag == "unreleased":
            # None: npm would fail on a version that does not exist; the
            # hook's command says to pin a release instead (npm/hook.js).
            self.assertEqual(dependencies, ["[]"] * 2)
        else:
            self.assertEqual(dependencies, [f'["{scope}/cli@{tag}"]'] * 2)
        self.assertEqual(re.findall(r'const cli = "([^"]+)";', read(os.path.join(TOP, "npm", "hook.js"))),
                         [f"{scope}/cli"])
        # The helm plugin says the release.
        version = re.search(r"(?m)^version: (\S+)$", read(os.path.join(TOP, "plugin.yaml"))).group(1)
        self.assertEqual(version, tag if tag != "unreleased" else "0.0.0")
        # The Argo CD sidecars run the same image.
        with open(os.path.join(TOP, "argocd-cmp", "sidecar-patch.yaml")) as f:
            sidecars = re.findall(r"(?m)^          image: (\S+)$", f.read())
        ours = [s for s in sidecars if s.startswith(image + ":")]
        self.assertEqual(ours, [f"{image}:{tag}"] * 3, sidecars)

    def test_prepare_release_sets_the_image_tag_everywhere_and_nothing_else(self):
        with tempfile.TemporaryDirectory() as work:
            # A copy of the working tree: the script edits files in place.
            copy = os.path.join(work, "copy")
            os.makedirs(copy)
            for name in ("scripts", "argocd-cmp", "project.conf", ".pre-commit-hooks.yaml", "plugin.yaml"):
                subprocess.run(["cp", "-a", "--", os.path.join(TOP, name), copy], check=True)
            hooks = os.path.join(copy, ".pre-commit-hooks.yaml")
            patch = os.path.join(copy, "argocd-cmp", "sidecar-patch.yaml")
            plugin = os.path.join(copy, "plugin.yaml")
            before = {f: read(f) for f in (hooks, patch, plugin)}
            for bad in ("1.2", "v1.2.3", "1.2.3;touch x", "-1.2.3", "1.2.3\n"):
                p = subprocess.run([os.path.join(copy, "scripts", "prepare-release"), bad],
                                   capture_output=True, text=True)
                self.assertNotEqual(p.returncode, 0, bad)
                self.assertEqual({f: read(f) for f in before}, before, bad)
            p = subprocess.run([os.path.join(copy, "scripts", "prepare-release"), "9.8.7-rc.1"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(TOP, "project.conf")) as f:
                image = re.search(r"(?m)^image=(\S+)$", f.read()).group(1)
            self.assertEqual(read(hooks).count('additional_dependencies: ["@archfit/cli@9.8.7-rc.1"]\n'), 2)
            tags = r"(?m)" + re.escape(image) + r":\S+|^  additional_dependencies: .*$"
            for f, count in ((hooks, 2), (patch, 3)):
                after = read(f)
                self.assertEqual(after.count(f"{image}:9.8.7-rc.1"), count, f)
                # Only the tags changed.
                self.assertEqual(re.sub(tags, "X", after), re.sub(tags, "X", before[f]))
            self.assertEqual(read(plugin), re.sub(r"(?m)^version: .*$", "version: 9.8.7-rc.1", before[plugin]))
            self.assertNotEqual(read(plugin), before[plugin])

    def test_the_executable_names_the_configured_address(self):
        binary = os.environ.get("ARCHFIT_BINARY")
        self.assertTrue(binary, "ARCHFIT_BINARY is not set")
        sarif = subprocess.run([binary, "lint", "--format", "sarif", "--offline", "--",
                                os.path.join(TOP, "examples")], capture_output=True, text=True)
        found = re.search(r'"informationUri":"([^"]*)"', sarif.stdout)
        self.assertIsNotNone(found, sarif.stderr[-500:])
        self.assertEqual(found.group(1), configured_url())


if __name__ == "__main__":
    sys.exit(unittest.main())
