"""The pre-commit hooks end to end: the real pre-commit (`try-repo`) running this
repository's .pre-commit-hooks.yaml in scratch git repositories.

Environment: ARCHFIT_SOURCE (this checkout), ARCHFIT_BINARY (a built archfit, put on
PATH for the `system` hooks), HELM (helm, put on PATH for the chart hook),
ARCHFIT_E2E_STATE (kept across the tests: the -build hooks' cache, so that archfit
is built once for the whole file).
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.environ["ARCHFIT_SOURCE"]
STATE = os.environ["ARCHFIT_E2E_STATE"]
EXAMPLES = os.path.join(ROOT, "examples")
HOOK_CACHE = os.path.join(STATE, "hook-cache")

AMD64_ONLY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n"
              "    spec:\n      containers:\n      - name: app\n"
              "        image: docker.elastic.co/elasticsearch/elasticsearch:6.8.23\n")


# There is no Docker engine here: the docker_image hooks meet this stand-in for
# `docker run`, which checks what pre-commit asks Docker for (the project's image
# at the tag the hooks name, archfit as the entrypoint, the work tree at /src as
# the working directory) and runs the archfit under test as that container would.
FAKE_DOCKER = r"""#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_DOCKER_LOG"], "a") as log:
    log.write(json.dumps(args) + "\n")
assert args[:2] == ["run", "--rm"], args
i, volume, workdir, entrypoint = 2, None, None, None
while args[i].startswith("-"):
    flag, value = args[i], args[i + 1]
    if flag == "-v":
        volume = value
    elif flag == "--workdir":
        workdir = value
    elif flag == "--entrypoint":
        entrypoint = value
    i += 2
image, rest = args[i], args[i + 1:]
host, target, _ = volume.split(":")
if image != os.environ["FAKE_DOCKER_IMAGE"] or entrypoint != "/usr/local/bin/archfit" or \
        target != "/src" or workdir != "/src":
    sys.exit(f"docker: unexpected {args}")
os.chdir(host)
os.execv(os.environ["ARCHFIT_BINARY"], ["archfit", *rest])
"""


def project_image():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as f:
        return re.search(r"--entrypoint /usr/local/bin/archfit (\S+) ", f.read()).group(1)


class PreCommitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bin = tempfile.mkdtemp(prefix="bin-")
        os.symlink(os.environ["ARCHFIT_BINARY"], os.path.join(cls.bin, "archfit"))
        os.symlink(os.environ["HELM"], os.path.join(cls.bin, "helm"))
        with open(os.path.join(cls.bin, "docker"), "w") as f:
            f.write(FAKE_DOCKER)
        os.chmod(os.path.join(cls.bin, "docker"), 0o755)

    def setUp(self):
        self.repo = tempfile.mkdtemp(prefix="repo-")
        self.addCleanup(shutil.rmtree, self.repo, True)
        subprocess.run(["git", "init", "-q", self.repo], check=True)
        self.home = tempfile.mkdtemp(prefix="pre-commit-home-")
        self.addCleanup(shutil.rmtree, self.home, True)

    def write(self, rel, text):
        path = os.path.join(self.repo, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def copy_example(self, name, into):
        os.makedirs(os.path.join(self.repo, into), exist_ok=True)
        shutil.copy(os.path.join(EXAMPLES, name), os.path.join(self.repo, into, name))

    def configure(self, directory, platforms="linux/amd64,linux/arm64"):
        """A configuration and the examples' lock in `directory`."""
        self.write(os.path.join(directory, ".archfit.yaml"), f"clusterPlatforms: [{platforms}]\n")
        shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), os.path.join(self.repo, directory, "archfit.lock"))

    def env(self, home=None):
        env = dict(os.environ)
        env["PATH"] = self.bin + os.pathsep + env["PATH"]
        env["PRE_COMMIT_HOME"] = home or self.home
        env["ARCHFIT_HOOK_CACHE"] = HOOK_CACHE
        env.pop("ARCHFIT_CONFIG", None)
        env.pop("ARCHFIT_LOCK", None)
        env["ARCHFIT_CACHE_DIR"] = os.path.join(self.home, "archfit-cache")  # empty: offline means the lock
        env["FAKE_DOCKER_LOG"] = os.path.join(self.home, "docker.log")
        env["FAKE_DOCKER_IMAGE"] = project_image()
        return env

    def hook(self, hook_id, repo=None, home=None, start=False):
        repo = repo or self.repo
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        args = ["pre-commit", "try-repo", ROOT, hook_id, "--all-files", "--verbose"]
        if start:
            return subprocess.Popen(args, cwd=repo, env=self.env(home), stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
        proc = subprocess.run(args, cwd=repo, env=self.env(home), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        return proc.returncode, proc.stdout

    # Runs first: two -build hooks started together build archfit once.
    def test_1_build_hooks_started_together_build_once(self):
        shutil.rmtree(HOOK_CACHE, ignore_errors=True)
        other = tempfile.mkdtemp(prefix="repo-")
        self.addCleanup(shutil.rmtree, other, True)
        subprocess.run(["git", "init", "-q", other], check=True)
        for repo in (self.repo, other):
            with open(os.path.join(repo, "web.yaml"), "w") as f:
                f.write(open(os.path.join(EXAMPLES, "web.yaml")).read())
            shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), repo)
            shutil.copy(os.path.join(EXAMPLES, ".archfit.yaml"), repo)
        other_home = tempfile.mkdtemp(prefix="pre-commit-home-")
        self.addCleanup(shutil.rmtree, other_home, True)
        a = self.hook("archfit-lint-build", start=True)
        b = self.hook("archfit-lint-build", repo=other, home=other_home, start=True)
        out_a, _ = a.communicate()
        out_b, _ = b.communicate()
        builds = (out_a + out_b).count("archfit is built once for this hook version")
        self.assertEqual(builds, 1, out_a + out_b)
        # web.yaml has a warning only: lint passes.
        self.assertEqual((a.returncode, b.returncode), (0, 0), out_a + out_b)
        binaries = [d for d in os.listdir(HOOK_CACHE) if os.path.isfile(os.path.join(HOOK_CACHE, d, "archfit"))]
        self.assertEqual(len(binaries), 1)

    def test_fix_modifies_a_file_so_the_hook_fails_and_the_second_run_passes(self):
        for hook_id in ("archfit-fix", "archfit-fix-build", "archfit-fix-image"):
            with self.subTest(hook_id):
                shutil.rmtree(os.path.join(self.repo, "deploy"), ignore_errors=True)
                self.configure("deploy")
                self.copy_example("search.yaml", "deploy")
                before = open(os.path.join(self.repo, "deploy", "search.yaml")).read()
                code, out = self.hook(hook_id)
                self.assertEqual(code, 1, out)
                self.assertIn("files were modified by this hook", out)
                after = open(os.path.join(self.repo, "deploy", "search.yaml")).read()
                self.assertNotEqual(after, before)
                self.assertIn("archfit.io/owned", after)
                code, out = self.hook(hook_id)
                self.assertEqual(code, 0, out)

    def test_lint_fails_on_an_error_finding(self):
        for hook_id in ("archfit-lint", "archfit-lint-build", "archfit-lint-image"):
            with self.subTest(hook_id):
                self.configure("deploy")
                self.copy_example("sqlserver.yaml", "deploy")
                code, out = self.hook(hook_id)
                self.assertEqual(code, 1, out)
                self.assertIn("missing-arch-affinity", out)

    def test_the_image_hooks_run_the_release_image_on_the_work_tree(self):
        self.configure("deploy")
        self.copy_example("sqlserver.yaml", "deploy")
        code, out = self.hook("archfit-lint-image")
        self.assertEqual(code, 1, out)
        self.assertIn("missing-arch-affinity", out)
        with open(os.path.join(self.home, "docker.log")) as f:
            [call] = [json.loads(line) for line in f]
        image = call[call.index("--entrypoint") + 2]
        self.assertRegex(image, r"^ghcr\.io/[\w.-]+/archfit:(unreleased|\d+\.\d+\.\d+\S*)$")
        self.assertEqual(call[call.index(image) + 1:],
                         ["lint", "--offline", "--", "deploy/.archfit.yaml", "deploy/sqlserver.yaml"])

    def test_each_directory_of_one_batch_gets_its_own_configuration(self):
        # team-a runs an amd64-only cluster: an amd64-only image needs nothing there.
        self.configure("team-a", "linux/amd64")
        self.configure("team-b")
        self.write("team-a/app.yaml", AMD64_ONLY.format(name="a"))
        self.write("team-b/app.yaml", AMD64_ONLY.format(name="b"))
        code, out = self.hook("archfit-lint")
        self.assertEqual(code, 1, out)
        self.assertIn("team-b/app.yaml", out)
        self.assertNotIn("team-a/app.yaml:", out)

    def test_helm_templates_and_other_yaml_are_not_errors(self):
        self.configure(".")
        self.write("chart/Chart.yaml", "apiVersion: v2\nname: chart\nversion: 0.1.0\n")
        self.write("chart/values.yaml", "image: nginx\n")
        self.write("chart/templates/deployment.yaml",
                   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n")
        self.write("config/settings.yaml", "retries: 3\nnames: [a, b]\n")
        code, out = self.hook("archfit-lint")
        self.assertEqual(code, 0, out)
        # The hook leaves templates/ out; what it passes that is not a manifest gets a notice.
        self.assertNotIn("templates/deployment.yaml", out)
        self.assertIn("skipped config/settings.yaml: not a Kubernetes manifest", out)
        # archfit itself skips a chart's template it is given, with a notice.
        proc = subprocess.run([os.environ["ARCHFIT_BINARY"], "lint", "--offline",
                               "chart/templates/deployment.yaml", "chart/values.yaml"],
                              cwd=self.repo, capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("skipped chart/templates/deployment.yaml: templates of the helm chart chart", proc.stderr)

    def test_an_image_missing_from_the_lock_says_to_run_archfit_lock(self):
        self.configure("deploy")
        self.write("deploy/new.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: new\nspec:\n"
                   "  containers:\n  - name: a\n    image: registry.invalid/never/seen:1\n")
        code, out = self.hook("archfit-lint")
        # Not checked is a failure: the hook fails, and says how to lock the image offline.
        self.assertNotEqual(code, 0, out)
        self.assertIn("error unresolved-image", out)
        self.assertIn("archfit lock --set registry.invalid/never/seen:1=PLATFORMS", out)

    # -- the lock is found per file (a lock in a sub-directory, no configuration at the root) -------

    def test_a_lock_in_a_sub_directory_checks_the_files_below_it(self):
        os.makedirs(os.path.join(self.repo, "deploy"), exist_ok=True)
        shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), os.path.join(self.repo, "deploy", "archfit.lock"))
        self.write("deploy/prom.yaml", AMD64_ONLY.format(name="search"))
        self.write("charts/x/values.yaml", "replicas: 1\n")
        code, out = self.hook("archfit-lint")
        self.assertEqual(code, 1, out)
        self.assertRegex(out, r"deploy/prom\.yaml:\d+:\d+: error missing-arch-affinity")
        self.assertNotIn("unresolved-image", out)

    def test_the_chart_hook_uses_the_lock_beside_the_chart(self):
        self.write("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n")
        self.write("charts/web/values.yaml", "replicas: 1\n")
        self.write("charts/web/templates/deployment.yaml", AMD64_ONLY.format(name="{{ .Release.Name }}"))
        shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), os.path.join(self.repo, "charts", "web", "archfit.lock"))
        code, out = self.hook("archfit-helm-lint")
        self.assertEqual(code, 1, out)
        self.assertIn("missing-arch-affinity", out)
        self.assertNotIn("unresolved-image", out)
        # Without it the image is not checked, and that fails too, saying so.
        os.remove(os.path.join(self.repo, "charts", "web", "archfit.lock"))
        code, out = self.hook("archfit-helm-lint")
        self.assertNotEqual(code, 0, out)
        self.assertIn("error unresolved-image", out)

    def test_the_chart_hook_renders_and_points_at_the_template(self):
        self.configure(".")
        self.write("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n")
        self.write("charts/web/values.yaml", "replicas: 1\n")
        self.write("charts/web/templates/deployment.yaml", AMD64_ONLY.format(name="{{ .Release.Name }}"))
        code, out = self.hook("archfit-helm-lint")
        self.assertEqual(code, 1, out)
        self.assertIn("charts/web/templates/deployment.yaml", out)
        self.assertIn("missing-arch-affinity", out)

    # -- file names are operands (docs/security.md) ----------------------------------------------

    def hostile_files(self):
        """A repository whose files are named like options, expressions and commands; each holds
        an amd64-only Deployment (an error to lint, a change to fix). Beside them evil.yaml, a
        configuration that would say the cluster is amd64 only and silence every finding."""
        from support import HOSTILE
        self.configure(".")
        self.write("evil.yaml", "clusterPlatforms: [linux/amd64]\n")
        names = []
        for value in HOSTILE:
            name = value if value.endswith(".yaml") else value + ".yaml"
            if "/" in name or len(name) > 200:
                continue
            self.write(name, AMD64_ONLY.format(name="a" + str(len(names))))
            names.append(name)
        return names

    def test_files_named_like_options_are_files_to_every_hook(self):
        names = self.hostile_files()
        self.assertIn("--config=evil.yaml", names)
        code, out = self.hook("archfit-lint")
        self.assertEqual(code, 1, out)
        self.assertEqual(out.count("missing-arch-affinity"), len(names), out)
        for hook_id in ("archfit-fix", "archfit-fix-build", "archfit-fix-image"):
            with self.subTest(hook_id):
                subprocess.run(["git", "checkout", "--", "."], cwd=self.repo, check=True)
                code, out = self.hook(hook_id)
                self.assertEqual(code, 1, out)
                for name in names:
                    self.assertIn("archfit.io/owned", open(os.path.join(self.repo, name)).read(), name)
                self.assertEqual(open(os.path.join(self.repo, "evil.yaml")).read(),
                                 "clusterPlatforms: [linux/amd64]\n")
        self.assertFalse(os.path.exists(os.path.join(self.repo, "pwned")))

    def test_args_without_the_separator_are_refused_not_taken_as_files(self):
        # A user's args replace the default [--]: without a "--" at their end, a file named
        # --config=evil.yaml would become an option. archfit refuses to guess.
        self.configure(".")
        self.write("evil.yaml", "clusterPlatforms: [linux/amd64]\n")
        self.write("--config=evil.yaml", AMD64_ONLY.format(name="a"))
        self.write(".pre-commit-config.yaml",
                   "repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n"
                   "    entry: archfit lint --offline\n    language: system\n    types: [yaml]\n"
                   "    exclude: '^(evil|\\.pre-commit-config)\\.yaml$'\n"
                   "    args: [--fail-on=warning]\n")
        subprocess.run(["git", "add", "-A"], cwd=self.repo, check=True)
        proc = subprocess.run(["pre-commit", "run", "--all-files"], cwd=self.repo, env=self.env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn('under pre-commit, file names must follow "--"', proc.stdout)

    def test_the_chart_hook_takes_odd_chart_directories_as_directories(self):
        self.configure(".")
        for chart in ("--set=x", "-web"):
            self.write(f"{chart}/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n")
            self.write(f"{chart}/templates/deployment.yaml", AMD64_ONLY.format(name="{{ .Release.Name }}"))
        code, out = self.hook("archfit-helm-lint")
        self.assertEqual(code, 1, out)
        # Both charts rendered and linted (findings name the template by the chart's name).
        self.assertEqual(out.count("missing-arch-affinity"), 2, out)


if __name__ == "__main__":
    unittest.main()
