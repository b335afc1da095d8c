"""archfit's npm packages and its `language: node` pre-commit hooks, against a
real npm registry on loopback (verdaccio): the packages the release makes
(scripts/lib/release/npm.sh, with the executable under test for linux/amd64)
are published to it and installed from it, by npm and by pre-commit for
archfit-fix-npm and archfit-lint-npm, on a PATH with node, npm, git and
pre-commit only: no compiler, no Docker, no archfit (as on pre-commit.ci).

Environment: ARCHFIT_SOURCE, ARCHFIT_BINARY, VERDACCIO.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import write

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from npm_registry import NpmRegistry  # noqa: E402

ROOT = os.environ["ARCHFIT_SOURCE"]
ARCHFIT = os.environ["ARCHFIT_BINARY"]
EXAMPLES = os.path.join(ROOT, "examples")
SCOPE = "@archfit"


class NpmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="npm-")
        said = subprocess.run([ARCHFIT, "version"], capture_output=True, text=True, check=True)
        cls.version = said.stdout.split()[1]
        # The release's packages.
        dist = os.path.join(cls.dir, "dist")
        os.makedirs(dist)
        license_file = write(os.path.join(cls.dir, "LICENSE"), "Apache License\n")
        subprocess.run(["bash", "-c", "set -euo pipefail; source scripts/lib/common.sh; "
                        "source scripts/lib/identity.sh; source scripts/lib/release/npm.sh; "
                        'make_npm_packages "$@"', "make", ROOT, cls.version, license_file, dist,
                        os.path.join(cls.dir, "stage"), "amd64=" + ARCHFIT, "arm64=" + ARCHFIT],
                       cwd=ROOT, check=True)
        cls.packages = sorted(os.listdir(dist))
        # The registry, with a user to publish as; the release's packages in it.
        # A version past a release (0.0.0-5-gabc) is a prerelease: npm wants a tag for it.
        cls.npm = NpmRegistry(os.environ["VERDACCIO"])
        cls.registry = cls.npm.url
        cls.npm.publish([os.path.join(dist, name) for name in cls.packages], tag="e2e")

    @classmethod
    def tearDownClass(cls):
        cls.npm.close()
        shutil.rmtree(cls.dir, True)

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="npm-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        # node, npm, git and pre-commit; nothing to build with, no docker, no archfit.
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        for tool in ("node", "npm", "git", "pre-commit", "python3", "sh", "bash", "env", "dirname",
                     "basename", "cat", "uname", "sed", "mkdir", "rm", "ln", "chmod", "ls", "cp", "mv",
                     "readlink", "realpath", "tar", "gzip", "which", "grep", "head", "tr", "touch"):
            found = shutil.which(tool)
            self.assertIsNotNone(found, tool)
            os.symlink(found, os.path.join(self.bin, tool))
        # HOME beside bin/, not above it: pre-commit takes no node inside the home directory.
        home = os.path.join(self.tmp, "home")
        os.makedirs(home)
        self.env = {"PATH": self.bin, "HOME": home, "LANG": "C.UTF-8",
                    # pre-commit unsets NPM_CONFIG_USERCONFIG in its node environments.
                    "NPM_CONFIG_REGISTRY": self.registry,
                    "NPM_CONFIG_CACHE": os.path.join(self.tmp, "npm-cache"),
                    "NPM_CONFIG_UPDATE_NOTIFIER": "false", "NPM_CONFIG_FUND": "false",
                    "NPM_CONFIG_AUDIT": "false",
                    "ARCHFIT_CACHE_DIR": os.path.join(self.tmp, "archfit-cache")}
        for tool in ("cc", "gcc", "g++", "c++", "cmake", "docker", "archfit"):
            self.assertIsNone(shutil.which(tool, path=self.bin), tool)

    def npm_install(self, *args):
        prefix = os.path.join(self.tmp, "global")
        p = subprocess.run(["npm", "install", "-g", "--prefix", prefix, *args,
                            f"{SCOPE}/cli@{self.version}"], env=self.env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return prefix

    def test_the_release_makes_a_command_and_a_package_per_platform(self):
        self.assertEqual(self.packages, sorted(f"archfit-{p}-{self.version}.tgz"
                                               for p in ("cli", "linux-x64", "linux-arm64")))

    def test_npm_installs_the_command_with_this_platforms_executable_only(self):
        prefix = self.npm_install()
        archfit = os.path.join(prefix, "bin", "archfit")
        p = subprocess.run([archfit, "version"], env=self.env, capture_output=True, text=True)
        self.assertEqual(p.stdout.strip(), f"archfit {self.version}", p.stderr)
        # A global install nests the dependencies in the command's package.
        modules = os.path.join(prefix, "lib", "node_modules", SCOPE, "cli", "node_modules", SCOPE)
        self.assertEqual(sorted(os.listdir(modules)), ["linux-x64"])
        with open(os.path.join(modules, "linux-x64", "bin", "archfit"), "rb") as f, open(ARCHFIT, "rb") as g:
            self.assertEqual(f.read(), g.read())
        # Arguments, streams and exit status are archfit's own.
        for args in (["lint", "--offline", "--", EXAMPLES], ["fix", "--offline", "--diff", "--", EXAMPLES],
                     ["lint", "--no-such-flag"], ["--", "-rf", "$(touch pwned)"]):
            with self.subTest(args=args):
                direct = subprocess.run([ARCHFIT, *args], env=self.env, capture_output=True, text=True, cwd=self.tmp)
                via = subprocess.run([archfit, *args], env=self.env, capture_output=True, text=True, cwd=self.tmp)
                self.assertEqual((via.returncode, via.stdout, via.stderr),
                                 (direct.returncode, direct.stdout, direct.stderr))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "pwned")))

    def test_without_the_optional_package_it_says_what_to_do(self):
        # npm ignores --omit=optional for global installs; a project's install honours it.
        project = os.path.join(self.tmp, "project")
        write(os.path.join(project, "package.json"), '{"private": true}\n')
        p = subprocess.run(["npm", "install", "--omit=optional", f"{SCOPE}/cli@{self.version}"], cwd=project,
                           env=self.env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.listdir(os.path.join(project, "node_modules", SCOPE)), ["cli"])
        p = subprocess.run([os.path.join(project, "node_modules", ".bin", "archfit"), "version"], env=self.env,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"{SCOPE}/linux-x64 is not installed: install archfit again without --omit=optional",
                      p.stderr)

    def test_installed_for_another_cpu_it_says_so(self):
        # npm install --cpu=arm64 on this x64 machine (or node_modules copied
        # from another): the command names both CPUs, not --omit=optional.
        project = os.path.join(self.tmp, "other-cpu")
        write(os.path.join(project, "package.json"), '{"private": true}\n')
        p = subprocess.run(["npm", "install", "--cpu=arm64", "--os=linux", f"{SCOPE}/cli@{self.version}"],
                           cwd=project, env=self.env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(os.path.join(project, "node_modules", SCOPE))), ["cli", "linux-arm64"])
        p = subprocess.run([os.path.join(project, "node_modules", ".bin", "archfit"), "version"], env=self.env,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"this node runs on linux/x64, and npm installed archfit for linux/arm64 ({SCOPE}/linux-arm64)",
                      p.stderr)
        self.assertNotIn("--omit=optional", p.stderr)

    def hook_repository(self, released=True):
        """This repository's hooks at a commit whose hooks name the version
        published here (as scripts/prepare-release writes them), or as they
        are at a revision that is not a release."""
        repo = os.path.join(self.tmp, "hooks")
        os.makedirs(os.path.join(repo, "npm"))
        for name in ("package.json", "LICENSE", os.path.join("npm", "hook.js")):
            shutil.copy(os.path.join(ROOT, name), os.path.join(repo, name))
        with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as f:
            hooks = f.read()
        self.assertEqual(hooks.count("  additional_dependencies: []\n"), 2)
        if released:
            hooks = hooks.replace("  additional_dependencies: []\n",
                                  f'  additional_dependencies: ["{SCOPE}/cli@{self.version}"]\n')
        write(os.path.join(repo, ".pre-commit-hooks.yaml"), hooks)
        self.commit(repo)
        return repo

    def commit(self, repo):
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(["git", "init", "-q", repo], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "x"], check=True)
        return subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True,
                              text=True).stdout.strip()

    def test_at_a_revision_that_is_not_a_release_the_node_hooks_say_to_pin_one(self):
        hooks = self.hook_repository(released=False)
        rev = subprocess.run(["git", "-C", hooks, "rev-parse", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        work = os.path.join(self.tmp, "work")
        os.makedirs(work)
        shutil.copy(os.path.join(EXAMPLES, "web.yaml"), work)
        write(os.path.join(work, ".pre-commit-config.yaml"),
              f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n  - id: archfit-lint-npm\n")
        self.commit(work)
        env = dict(self.env, PRE_COMMIT_HOME=os.path.join(self.tmp, "pre-commit"))
        run = subprocess.run(["pre-commit", "run", "--all-files"], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        self.assertNotEqual(run.returncode, 0, run.stdout)
        self.assertNotIn("ETARGET", run.stdout)
        self.assertIn("this revision of the hooks is not a release", run.stdout)
        self.assertIn("set the archfit repository's rev: to a release tag", run.stdout)

    def test_pre_commit_installs_the_node_hooks_from_the_registry_with_node_alone(self):
        hooks = self.hook_repository()
        rev = subprocess.run(["git", "-C", hooks, "rev-parse", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        work = os.path.join(self.tmp, "work")
        os.makedirs(os.path.join(work, "deploy"))
        shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), work)
        for name in os.listdir(EXAMPLES):
            if name.endswith(".yaml"):
                shutil.copy(os.path.join(EXAMPLES, name), os.path.join(work, "deploy", name))
        write(os.path.join(work, ".archfit.yaml"), "clusterPlatforms: [linux/amd64, linux/arm64]\n")
        write(os.path.join(work, ".pre-commit-config.yaml"),
              f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n  - id: archfit-lint-npm\n"
              f"  - id: archfit-fix-npm\n")
        self.commit(work)
        env = dict(self.env, PRE_COMMIT_HOME=os.path.join(self.tmp, "pre-commit"))
        run = subprocess.run(["pre-commit", "run", "--all-files", "--verbose"], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        # lint fails on the examples' missing placement; fix then writes it.
        self.assertNotEqual(run.returncode, 0, run.stdout)
        self.assertIn("missing-arch-affinity", run.stdout)
        self.assertIn("files were modified by this hook", run.stdout)
        changed = subprocess.run(["git", "-C", work, "diff", "--stat"], capture_output=True, text=True).stdout
        self.assertIn("deploy/", changed)
        # The second run: fix changes nothing, lint passes.
        again = subprocess.run(["pre-commit", "run", "--all-files"], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        self.assertEqual(again.returncode, 0, again.stdout)


if __name__ == "__main__":
    unittest.main()
