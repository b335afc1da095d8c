"""The GitHub Action end to end: action.yml's steps executed as a runner would
(tests/e2e/runner.py) on a sample repository, with the real build, the real
archfit, Microsoft's SARIF Multitool, and the workflows of docs/ci.md.

Environment: ARCHFIT_SOURCE (the checkout holding action.yml), SARIF_MULTITOOL,
ARCHFIT_E2E_STATE (a directory kept across the tests: the runner's caches, so
that the action builds archfit once for the whole file).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

from runner import STEP_SHELL, Runner, step_text

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from served_release import ServedRelease, archive_bytes  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "integration"))
from lib import catalog  # noqa: E402
from lib.registry import Registry  # noqa: E402

ROOT = os.environ["ARCHFIT_SOURCE"]
STATE = os.environ["ARCHFIT_E2E_STATE"]
MULTITOOL = os.environ["SARIF_MULTITOOL"]
EXAMPLES = os.path.join(ROOT, "examples")


def sample_repository(path):
    """Manifests in two directories of a repository, a configuration and a lock at its root."""
    os.makedirs(os.path.join(path, "team-a"))
    os.makedirs(os.path.join(path, "team-b"))
    shutil.copy(os.path.join(EXAMPLES, ".archfit.yaml"), path)
    shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), path)
    for name, team in [("search.yaml", "team-a"), ("web.yaml", "team-a"),
                       ("sqlserver.yaml", "team-b"), ("cleanup-cronjob.yaml", "team-b")]:
        shutil.copy(os.path.join(EXAMPLES, name), os.path.join(path, team, name))
    subprocess.run(["git", "init", "-q", path], check=True)


def md(text):
    """Text as archfit's Markdown writes it: every ASCII punctuation character escaped."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", text)


def log(r):
    """What a run printed, for a failed assertion."""
    return r.stdout + "".join(r.stderr_of.values())


def tree_bytes(path):
    out = {}
    for dirpath, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if d != ".git"]
        for n in names:
            p = os.path.join(dirpath, n)
            out[os.path.relpath(p, path)] = open(p, "rb").read()
    return out


class ActionTest(unittest.TestCase):
    def setUp(self):
        self.workspace = tempfile.mkdtemp(prefix="workspace-")
        sample_repository(self.workspace)
        # The tool cache and actions/cache store persist across tests (one machine, many jobs);
        # HOME does not (the image cache comes back only through actions/cache).
        self.store = os.path.join(STATE, "cache-store")
        os.makedirs(self.store, exist_ok=True)

    def tearDown(self):
        shutil.rmtree(self.workspace, ignore_errors=True)

    def runner(self, **kw):
        r = Runner(self.workspace, ROOT, cache_store=self.store, **kw)
        r.tool_cache = os.path.join(STATE, "toolcache")
        os.makedirs(r.tool_cache, exist_ok=True)
        self.addCleanup(r.close)
        return r

    def run_action(self, runner=None, **inputs):
        r = runner or self.runner()
        result = r.run_action(inputs)
        r.post()
        return r, result

    def annotations(self, r, step=None):
        return [line for line in r.workflow_commands(step) if re.match(r"::(error|warning|notice)\b", line)]

    def sarif_valid(self, path):
        """Microsoft's SARIF Multitool finds no error or warning (GitHub's rules and SARIF's)."""
        r = subprocess.run([MULTITOOL, "validate", path, "--rule-kind", "Gh;Sarif", "--level", "Error;Warning"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        problems = [l for l in r.stdout.splitlines() if re.search(r": (error|warning) [A-Z]+[0-9]+:", l)]
        self.assertEqual(problems, [], path)
        self.assertRegex(r.stdout, r"Done\. 1 files? scanned")

    # -- the action file ----------------------------------------------------------------------------

    def test_inputs_reach_scripts_only_through_env(self):
        action = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))
        for step in action["runs"]["steps"]:
            if "run" in step:
                self.assertNotIn("${{", step["run"], step.get("name"))
                self.assertEqual(step.get("shell"), "bash")

    def test_a_runner_that_is_not_linux_fails_with_a_message(self):
        r, result = self.run_action(self.runner(runner_os="macOS"))
        self.assertEqual(result.status, "failure")
        self.assertIn("runs on Linux runners only (this one is macOS)", r.stdout)
        self.assertNotIn("Build archfit", r.ran)

    # -- build and caches ------------------------------------------------------------------------------

    def test_1_first_run_builds_and_a_second_run_does_not(self):
        # Runs first (test_1_), with no executable in the cache store: this run builds.
        for name in os.listdir(self.store):
            if name.startswith("archfit-bin-"):
                shutil.rmtree(os.path.join(self.store, name))
        first, result = self.run_action()
        self.assertIn("Build archfit", first.ran, "the first run must build archfit")
        self.assertNotIn("Install archfit", first.ran)
        self.assertIn("which is not a release (its version is", first.stdout)
        self.assertIn("archfit is built from source", first.stdout)
        with open(first.summary) as f:
            self.assertIn("> archfit was built from source: the action is used at `main`, which is not a "
                          "release", f.read(), "said in the summary, not only in a notice")
        bin_key = [w["key"] for u, w in first.uses if u.startswith("actions/cache") and "bin" in w["key"]][0]
        self.assertRegex(bin_key, r"^archfit-bin-v1-[a-z]+-[0-9.]+-(X64|ARM64)-[0-9a-f]{64}$")
        self.assertTrue(os.path.isdir(os.path.join(self.store, bin_key)), "the executable was not saved")
        second, result2 = self.run_action()
        self.assertNotIn("Build archfit", second.ran, "a cache hit must not build")
        self.assertIn("Check the restored archfit", second.ran, "what the cache gives back is run first")
        self.assertEqual(result2.outputs["exit-code"], result.outputs["exit-code"])
        # The image cache is keyed by the lock file and restored by prefix.
        images = [w for u, w in second.uses if u.startswith("actions/cache") and "images" in w["key"]][0]
        lock_hash = subprocess.run(["sha256sum", os.path.join(self.workspace, "archfit.lock")],
                                   capture_output=True, text=True).stdout.split()[0]
        self.assertEqual(images["key"], "archfit-images-v1-Linux-" + lock_hash)
        self.assertEqual(images["restore-keys"], "archfit-images-v1-Linux-")
        self.assertEqual(images["path"], os.path.join(second.home, ".cache", "archfit"))

    # -- releases: installed, checked, cached ----------------------------------------------------------

    def served_release(self):
        release = ServedRelease.of(os.environ["ARCHFIT_BINARY"])
        self.addCleanup(release.close)
        return release

    def release_runner(self, release, store, **kw):
        """A machine of its own whose actions/cache store is `store`: no executable cached by
        another test or an earlier run of the same version."""
        r = Runner(self.workspace, ROOT, cache_store=store,
                   base_env=dict(os.environ, **release.env), **kw)
        self.addCleanup(r.close)
        return r

    def test_at_a_release_tag_the_release_is_installed_not_built(self):
        release = self.served_release()
        store = tempfile.mkdtemp(prefix="cache-store-")
        self.addCleanup(shutil.rmtree, store, True)
        first, result = self.run_action(self.release_runner(release, store, action_ref=f"v{release.version}"))
        self.assertIn("Install archfit", first.ran)
        self.assertNotIn("Build archfit", first.ran)
        self.assertEqual(result.status, "failure")  # the sample has findings at error
        self.assertEqual(result.outputs["exit-code"], "1")
        bin_key = [w["key"] for u, w in first.uses if u.startswith("actions/cache") and "archive" in w["key"]][0]
        self.assertEqual(bin_key, f"archfit-archive-v1-X64-release-{release.version}")
        installed = os.path.join(result.steps["prepare"]["outputs"]["bin-dir"], "archfit")
        with open(installed, "rb") as f:
            self.assertEqual(f.read(), release.exe, "the served executable, byte for byte")
        kept = os.path.join(store, bin_key, release.archive)
        self.assertTrue(os.path.isfile(kept), "the checked archive is cached")
        # A second job restores the archive from the cache and checks it
        # against SHA256SUMS again: the archive is not downloaded.
        release.remove_archive()
        second, result2 = self.run_action(self.release_runner(release, store, action_ref=f"v{release.version}"))
        self.assertIn("Install archfit", second.ran)
        self.assertIn("matches SHA256SUMS", second.stderr_of.get("Install archfit", "") + second.stdout)
        self.assertEqual(result2.outputs["exit-code"], "1")
        # A poisoned cache (another executable in the kept archive) is not
        # used: the release has no archive to download now, so nothing runs.
        with open(kept, "wb") as f:
            f.write(archive_bytes({"archfit": (b"#!/bin/sh\necho archfit " + release.version.encode() + b"\n", 0o755)}))
        third, result3 = self.run_action(self.release_runner(release, store, action_ref=f"v{release.version}"))
        self.assertEqual(result3.status, "failure")
        self.assertIn("does not match SHA256SUMS", third.stderr_of.get("Install archfit", "") + third.stdout)
        self.assertNotIn("Run archfit", third.ran)

    def action_at_commit(self, describe):
        """The action as GitHub fetches it for a ref that is a commit SHA: a
        tarball of the tracked files, .git_archival.txt filled in by git
        (export-subst) with `describe` as git describe names the commit."""
        copy = tempfile.mkdtemp(prefix="action-at-commit-")
        self.addCleanup(shutil.rmtree, copy, True)
        names = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True,
                               check=True).stdout.decode().split("\0")
        for name in filter(None, names):
            source = os.path.join(ROOT, name)
            if not os.path.lexists(source):
                continue
            os.makedirs(os.path.dirname(os.path.join(copy, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(copy, name), follow_symlinks=False)
        with open(os.path.join(copy, ".git_archival.txt"), "w") as f:
            f.write(f"node: {'ab' * 20}\ndescribe-name: {describe}\n")
        return copy

    def test_pinned_by_the_commit_of_a_release_the_release_is_installed(self):
        # The release 9.9.9: an executable that says so and is archfit otherwise.
        real = os.environ["ARCHFIT_BINARY"]
        exe = (f'#!/bin/sh\n[ "$1" = version ] && {{ echo "archfit 9.9.9"; exit 0; }}\n'
               f'exec "{real}" "$@"\n').encode()
        release = ServedRelease(exe, "9.9.9")
        self.addCleanup(release.close)
        store = tempfile.mkdtemp(prefix="cache-store-")
        self.addCleanup(shutil.rmtree, store, True)
        sha = "ab" * 20
        r = Runner(self.workspace, self.action_at_commit("v9.9.9"), cache_store=store,
                   base_env=dict(os.environ, **release.env), action_ref=sha)
        self.addCleanup(r.close)
        first, result = self.run_action(r)
        self.assertIn("Install archfit", first.ran)
        self.assertNotIn("Build archfit", first.ran)
        self.assertEqual(result.steps["prepare"]["outputs"]["version"], "9.9.9")
        self.assertEqual(result.outputs["exit-code"], "1")  # the sample's findings, by the real archfit
        # A later commit is not the release: built from source (the cache of
        # the other tests' build), and the summary says why.
        r = Runner(self.workspace, self.action_at_commit("v9.9.9-3-g0123abc"), cache_store=self.store,
                   base_env=dict(os.environ, **release.env), action_ref=sha)
        r.tool_cache = os.path.join(STATE, "toolcache")
        self.addCleanup(r.close)
        later, result = self.run_action(r)
        self.assertNotIn("Install archfit", later.ran)
        self.assertEqual(result.steps["prepare"]["outputs"]["install"], "source")
        with open(later.summary) as f:
            self.assertIn(f"the action is used at `{sha}`, which is not a release (its version is "
                          "`9.9.9-3-g0123abc`)", f.read())

    def assertInstallRefused(self, release, why):
        """The job with `release` fails before archfit runs, saying `why`, and installs nothing."""
        store = tempfile.mkdtemp(prefix="cache-store-")
        self.addCleanup(shutil.rmtree, store, True)
        r = self.release_runner(release, store)
        _, result = self.run_action(r, version=release.version)
        self.assertEqual(result.status, "failure")
        self.assertIn(why, r.stdout + "".join(r.stderr_of.values()))
        self.assertIn("installing archfit", r.stdout)
        self.assertNotIn("Run archfit", r.ran)
        bin_dir = result.steps["prepare"]["outputs"]["bin-dir"]
        self.assertEqual(os.listdir(bin_dir) if os.path.isdir(bin_dir) else [], [])

    def test_a_checksum_mismatch_fails_the_job_and_installs_nothing(self):
        release = self.served_release()
        release.publish(sums=f"{'1' * 64}  {release.archive}\n")
        self.assertInstallRefused(release, "checksum mismatch")

    def test_a_release_re_signed_by_another_key_installs_nothing(self):
        # A mirror that replaced the archive and SHA256SUMS and signed them
        # with its own key.
        release = self.served_release()
        release.publish(exe=b"#!/bin/sh\necho archfit " + release.version.encode() + b"\n", signed_by="mirror")
        self.assertInstallRefused(release, "does not verify against")

    def test_the_version_input_is_a_release_or_source(self):
        for hostile in ("1.2.3; touch pwned", "--help", "../1.2.3", "latest"):
            r, result = self.run_action(version=hostile)
            self.assertEqual(result.status, "failure", hostile)
            self.assertEqual(result.outputs["exit-code"], "2", hostile)
            self.assertIn("is not a release (1.2.3) or 'source'", r.stdout)
            self.assertNotIn("Install archfit", r.ran)
            self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))
        r, _ = self.run_action(self.runner(action_ref="v9.9.9"), version="source")
        self.assertNotIn("Install archfit", r.ran)

    # -- never a silent pass: the lock per file ---------------------------------------------------------

    def test_locks_in_sub_directories_are_found_and_an_image_no_lock_knows_fails(self):
        # No configuration or lock at the root: each team has its own lock.
        os.remove(os.path.join(self.workspace, ".archfit.yaml"))
        os.remove(os.path.join(self.workspace, "archfit.lock"))
        for team in ("team-a", "team-b"):
            shutil.copy(os.path.join(EXAMPLES, "archfit.lock"), os.path.join(self.workspace, team))
        r, result = self.run_action(paths=".")
        self.assertEqual(result.status, "failure")
        self.assertEqual(result.outputs["exit-code"], "1")
        report = json.load(open(result.outputs["json-file"]))
        rules = [f["rule"] for f in report["findings"]]
        self.assertIn("missing-arch-affinity", rules)
        self.assertNotIn("unresolved-image", rules)
        # team-b without its lock: its images are not checked, and the run fails saying so.
        os.remove(os.path.join(self.workspace, "team-b", "archfit.lock"))
        r, result = self.run_action(paths=".")
        self.assertEqual(result.status, "failure")
        self.assertEqual(result.outputs["exit-code"], "3")
        report = json.load(open(result.outputs["json-file"]))
        unresolved = [f for f in report["findings"] if f["rule"] == "unresolved-image"]
        self.assertTrue(unresolved)
        self.assertTrue(all(f["severity"] == "error" and f["file"].startswith("team-b/") for f in unresolved),
                        unresolved)

    # -- modes ---------------------------------------------------------------------------------------------

    def test_lint_writes_sarif_json_annotations_and_summary_then_fails(self):
        before = tree_bytes(self.workspace)
        r, result = self.run_action(paths="team-a\nteam-b\n", category="archfit-e2e")
        out = result.outputs
        self.assertEqual(result.status, "failure")  # two error findings
        self.assertEqual(out["exit-code"], "1")
        sarif = json.load(open(out["sarif-file"]))
        # GitHub's form: the category, then "/" (the run id is left to code scanning).
        self.assertEqual(sarif["runs"][0]["automationDetails"]["id"], "archfit-e2e/")
        report = json.load(open(out["json-file"]))
        self.assertEqual(out["errors"], str(report["summary"]["errors"]))
        self.assertEqual(out["warnings"], str(report["summary"]["warnings"]))
        self.assertEqual(report["summary"]["errors"], 2)
        self.assertEqual(sum(1 for res in sarif["runs"][0]["results"] if res["level"] == "error"), 2)
        self.sarif_valid(out["sarif-file"])
        kinds = [a.split(" ", 1)[0].split("::")[1] for a in self.annotations(r)]
        self.assertEqual(kinds.count("error"), 2)
        self.assertIn("notice", kinds)
        summary = open(r.summary).read()
        self.assertIn("## archfit: 2 errors", summary)
        # What can run on each platform follows, from the same run.
        self.assertIn("## archfit readiness", summary)
        self.assertIn("| linux\\/arm64 | 2 of 4 (50%) |", summary)
        self.assertEqual(tree_bytes(self.workspace), before, "lint changed the repository")
        self.assertEqual(out["changed-files"], "")

    def test_check_lists_what_fix_would_change_and_changes_nothing(self):
        before = tree_bytes(self.workspace)
        r, result = self.run_action(mode="check", paths="team-a\nteam-b")
        out = result.outputs
        self.assertEqual(out["exit-code"], "1")
        changed = out["changed-files"].splitlines()
        self.assertEqual(sorted(changed), ["team-a/search.yaml", "team-a/web.yaml",
                                           "team-b/cleanup-cronjob.yaml", "team-b/sqlserver.yaml"])
        self.assertEqual(tree_bytes(self.workspace), before)
        # The patch applies and gives what fix writes.
        subprocess.run(["git", "apply", "--check", out["diff-file"]], cwd=self.workspace, check=True)
        self.assertIn("<details>", open(r.summary).read())
        self.sarif_valid(out["sarif-file"])

    def test_fix_leaves_the_edits_and_a_patch_and_a_check_then_passes(self):
        r, result = self.run_action(mode="fix", paths="team-a\nteam-b")
        out = result.outputs
        self.assertEqual(out["exit-code"], "0", r.stderr_of)
        self.assertEqual(out["errors"], "0")
        changed = sorted(out["changed-files"].splitlines())
        self.assertEqual(len(changed), 4)
        for f in changed:
            self.assertIn("archfit.io/owned", open(os.path.join(self.workspace, f)).read())
        # The patch is what changed: reversed, it gives the original back.
        subprocess.run(["git", "apply", "--check", "-R", out["diff-file"]], cwd=self.workspace, check=True)
        r2, again = self.run_action(mode="check", paths="team-a\nteam-b")
        self.assertEqual(again.outputs["exit-code"], "0")
        self.assertEqual(again.outputs["changed-files"], "")
        self.assertEqual(again.status, "success")

    def run_step(self, crash=False, stale=False, loader_fails=False, archfit=None, **inputs):
        """The Run step alone, as the runner runs it, with ARCHFIT a wrapper that logs each call (and with
        `crash`, dies of SIGSEGV but for `version`; with `loader_fails`, exits 127 the first time
        as the dynamic loader does when a shared library is missing); with `stale`, an earlier
        step's annotations lie where this step's go; `archfit` replaces the wrapper:
        (status, calls, outputs, summary, stdout)."""
        tmp = tempfile.mkdtemp(prefix="run-step-")
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        log = os.path.join(tmp, "calls")
        os.mkdir(os.path.join(tmp, "bin"))
        if stale:
            with open(os.path.join(tmp, "archfit-annotations"), "w") as f:
                f.write("::error title=stale::an earlier step's annotation\n"
                        "::notice title=archfit::7 errors, 7 warnings, 0 infos in 1 file (1 workload)\n")
        wrapper = os.path.join(tmp, "bin", "archfit")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\n"
                    f"[ \"$1\" = version ] || printf '%s\\n' \"$1\" >> '{log}'\n"
                    + ("[ \"$1\" = version ] || kill -SEGV $$\n" if crash else "")
                    + (f"[ -e '{tmp}/loaded' ] || {{ : > '{tmp}/loaded'; echo 'archfit: error while "
                       "loading shared libraries: libyaml-0.so.2: cannot open shared object file' >&2; "
                       "exit 127; }\n" if loader_fails else "")
                    + f"exec '{os.environ['ARCHFIT_BINARY']}' \"$@\"\n")
        os.chmod(wrapper, 0o755)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
        env.update(ARCHFIT=archfit or wrapper, ACTION_PATH=ROOT, LOCK_FOUND="true", RUNNER_TEMP=tmp,
                   GITHUB_OUTPUT=os.path.join(tmp, "output"),
                   GITHUB_STEP_SUMMARY=os.path.join(tmp, "summary"),
                   GITHUB_WORKSPACE=self.workspace)
        for k, v in inputs.items():
            env["INPUT_" + k.upper().replace("-", "_")] = v
        step = os.path.join(tmp, "step.sh")
        with open(step, "w") as f:
            f.write(step_text(ROOT, "run"))
        proc = subprocess.run([*STEP_SHELL, step], cwd=self.workspace, env=env,
                              capture_output=True, text=True)
        calls = open(log).read().split() if os.path.exists(log) else []
        outputs = open(env["GITHUB_OUTPUT"]).read() if os.path.exists(env["GITHUB_OUTPUT"]) else ""
        summary = open(env["GITHUB_STEP_SUMMARY"]).read() if os.path.exists(env["GITHUB_STEP_SUMMARY"]) else ""
        return proc.returncode, calls, outputs, summary, proc.stdout

    def test_only_reports_this_steps_run_wrote_are_shown(self):
        # archfit killed: no report of an earlier step is shown or counted.
        for mode in ("lint", "check", "fix"):
            status, calls, outputs, summary, stdout = self.run_step(crash=True, stale=True, mode=mode,
                                                                     paths="team-a")
            self.assertEqual(status, 139, f"{mode}: {stdout}")
            self.assertEqual(len(calls), 1, calls)
            self.assertNotIn("stale", stdout)
            self.assertEqual(summary, "", "a killed run wrote the step's summary")
            self.assertRegex(outputs, r"errors<<(\S+)\n0\n\1\n")
        # archfit runs: its own reports replace them.
        status, _, outputs, summary, stdout = self.run_step(stale=True, mode="lint", paths="team-a")
        self.assertEqual(status, 1, stdout)
        self.assertNotIn("stale", stdout)
        self.assertIn("::error ", stdout)
        self.assertIn("## archfit:", summary)
        self.assertNotRegex(outputs, r"errors<<(\S+)\n0\n\1\n")

    def test_an_executable_missing_its_libraries_gets_them_and_runs_again(self):
        status, calls, outputs, summary, stdout = self.run_step(loader_fails=True, mode="lint",
                                                                paths="team-a")
        self.assertEqual(calls, ["lint", "lint"], stdout)
        self.assertEqual(status, 1, stdout)
        self.assertIn("error while loading shared libraries", stdout)
        self.assertIn("## archfit:", summary)
        self.assertNotRegex(outputs, r"errors<<(\S+)\n0\n\1\n")
        # One that cannot run at all is a usage error, said as an annotation.
        not_executable = os.path.join(self.workspace, "archfit-not-executable")
        with open(not_executable, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        status, _, outputs, _, stdout = self.run_step(archfit=not_executable, mode="lint",
                                                      paths="team-a")
        self.assertEqual(status, 2, stdout)
        self.assertIn(f"::error title=archfit::the archfit executable at {not_executable} does not run",
                      stdout)
        self.assertRegex(outputs, r"exit-code<<(\S+)\n2\n\1\n")

    def test_every_report_comes_from_one_run_of_archfit(self):
        # lint and check: one call writes SARIF, JSON, the annotations and the summary.
        for mode, command in (("lint", "lint"), ("check", "fix")):
            status, calls, outputs, summary, stdout = self.run_step(mode=mode, paths="team-a\nteam-b")
            self.assertEqual(calls, [command], f"{mode}: {stdout}")
            self.assertEqual(status, 1, stdout)
            self.assertIn("## archfit: 2 errors", summary)
            self.assertEqual(sum(1 for l in stdout.splitlines() if l.startswith("::error ")), 2, stdout)
            self.assertIn("errors<<", outputs)
        # fix: one run for the patch and the reports, one to write, one to report what is left.
        status, calls, _, _, stdout = self.run_step(mode="fix", paths="team-a\nteam-b")
        self.assertEqual((status, calls), (0, ["fix", "fix", "fix"]), stdout)
        # Nothing left to change: the first run's reports are the reports.
        status, calls, _, summary, stdout = self.run_step(mode="fix", paths="team-a\nteam-b")
        self.assertEqual((status, calls), (0, ["fix"]), stdout)
        self.assertIn("## archfit:", summary)

    def test_working_directory_and_hostile_paths(self):
        os.makedirs(os.path.join(self.workspace, "sub"))
        shutil.move(os.path.join(self.workspace, "team-a"), os.path.join(self.workspace, "sub", "team-a"))
        r, result = self.run_action(**{"working-directory": "sub", "paths": "team-a\n$(touch pwned)",
                                       "lock": "../archfit.lock", "config": "../.archfit.yaml"})
        self.assertFalse(os.path.exists(os.path.join(self.workspace, "sub", "pwned")))
        self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))
        # The odd path is a path: archfit says it does not exist (exit 2).
        self.assertEqual(result.outputs["exit-code"], "2")
        self.assertIn("$(touch pwned)", r.stdout)

    def test_annotations_are_capped_and_the_summary_is_under_a_mebibyte(self):
        # 3,000 Deployments of an amd64-only image: 3,000 errors, 3,000 warnings.
        many = os.path.join(self.workspace, "many")
        os.makedirs(many)
        with open(os.path.join(many, "apps.yaml"), "w") as f:
            for i in range(3000):
                f.write(f"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}-"
                        + "x" * 40 + "\nspec:\n  template:\n    spec:\n      containers:\n"
                        "      - name: app\n        image: docker.elastic.co/elasticsearch/elasticsearch:6.8.23\n")
        r, result = self.run_action(paths="many")
        # GitHub shows 10 annotations of each kind per step of the job, and
        # the whole action is one: its own notice (this checkout is not a
        # release) counts with archfit's.
        kinds = [a.split(" ", 1)[0].split("::")[1] for a in self.annotations(r, "Run archfit")]
        self.assertEqual(kinds.count("error"), 10)
        self.assertLessEqual(kinds.count("warning"), 10)
        notices = [a for a in self.annotations(r) if a.startswith("::notice")]
        self.assertTrue(any("which is not a release" in n for n in notices), notices)
        self.assertEqual(len(notices), 10)
        self.assertRegex(notices[-1], r"3,?000 errors.*not shown here")
        self.assertLess(os.path.getsize(r.summary), 1 << 20)
        self.assertIn("not shown here", open(r.summary).read())
        self.sarif_valid(result.outputs["sarif-file"])
        # The outputs count every finding, from the totals, with the annotations shown or not.
        report = json.load(open(result.outputs["json-file"]))
        self.assertEqual(report["summary"]["errors"], 3000)
        for shown in ("true", "false"):
            r, result = self.run_action(paths="many", annotations=shown)
            self.assertEqual(result.outputs["errors"], str(report["summary"]["errors"]))
            self.assertEqual(result.outputs["warnings"], str(report["summary"]["warnings"]))
            self.assertEqual(len(self.annotations(r, "Run archfit")), 0 if shown == "false" else len(kinds))

    def test_offline_is_the_default_with_a_lock_and_a_missing_entry_says_to_lock(self):
        with open(os.path.join(self.workspace, "team-a", "new.yaml"), "w") as f:
            f.write("apiVersion: v1\nkind: Pod\nmetadata:\n  name: new\nspec:\n  containers:\n"
                    "  - name: a\n    image: registry.invalid/never/seen:1\n")
        r, result = self.run_action(paths="team-a")
        report = json.load(open(result.outputs["json-file"]))
        unresolved = [f for f in report["findings"] if f["rule"] == "unresolved-image"]
        self.assertEqual(len(unresolved), 1)
        self.assertIn("archfit lock", unresolved[0]["message"])
        # Exit 3 still writes every report, and the outputs count from it.
        self.assertEqual(result.outputs["exit-code"], "3")
        self.assertEqual(result.outputs["errors"], str(report["summary"]["errors"]))
        self.assertEqual(result.outputs["warnings"], str(report["summary"]["warnings"]))
        self.assertGreater(report["summary"]["errors"] + report["summary"]["warnings"], 0)

    # -- mode: lock -----------------------------------------------------------------------------------

    def lock_repository(self):
        """The workspace as a repository whose one image lives in a real registry: amd64 alone at
        first; returns (registry, layout, image)."""
        registry = Registry().start()
        self.addCleanup(registry.stop)
        layout = catalog.write_kinds(tempfile.mkdtemp(prefix="layout-"), ["docker-single", "docker-list"])
        self.addCleanup(shutil.rmtree, layout, True)
        registry.push(layout, "docker-single", "drift/app:1", "v2s2")
        for name in os.listdir(self.workspace):
            if name != ".git":
                path = os.path.join(self.workspace, name)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        os.makedirs(os.path.join(self.workspace, "deploy"))
        image = f"{registry.host}/drift/app:1"
        with open(os.path.join(self.workspace, ".archfit.yaml"), "w") as f:
            f.write(f"resolve:\n  insecureRegistries: ['{registry.host}']\n")
        with open(os.path.join(self.workspace, "deploy", "web.yaml"), "w") as f:
            f.write("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
                    f"    spec:\n      containers:\n      - name: web\n        image: {image}\n")
        return registry, layout, image

    def lock_entries(self):
        return json.load(open(os.path.join(self.workspace, "archfit.lock")))["images"]

    def test_lock_mode_updates_the_lock_says_what_changed_and_then_changes_nothing(self):
        registry, layout, image = self.lock_repository()
        # First run: no lock yet; it is written with the image's platforms.
        r, result = self.run_action(mode="lock", paths=".")
        self.assertEqual(result.status, "success", log(r))
        self.assertEqual(result.outputs["exit-code"], "0")
        self.assertEqual(result.outputs["lock-changed"], "true")
        self.assertEqual(self.lock_entries()[image]["platforms"], ["linux/amd64"])
        diff = open(result.outputs["lock-diff"]).read()
        self.assertTrue(diff.startswith("--- /dev/null\n+++ b/archfit.lock\n"), diff)
        self.assertIn("| added |", open(r.summary).read())
        # The tag is pushed again with arm64: the lock follows, and the summary says what was gained.
        before = open(os.path.join(self.workspace, "archfit.lock"), "rb").read()
        registry.push(layout, "docker-list", "drift/app:1", "v2s2")
        r, result = self.run_action(mode="lock", paths=".")
        self.assertEqual(result.status, "success", log(r))
        self.assertEqual(result.outputs["lock-changed"], "true")
        self.assertEqual(self.lock_entries()[image]["platforms"], ["linux/386", "linux/amd64", "linux/arm64"])
        summary = open(r.summary).read()
        self.assertIn(f"| {md(image)} | moved | {md('linux/386, linux/arm64')} | none |", summary)
        # The patch replays the change on the lock as it was.
        replay = tempfile.mkdtemp(prefix="replay-")
        self.addCleanup(shutil.rmtree, replay, True)
        open(os.path.join(replay, "archfit.lock"), "wb").write(before)
        subprocess.run(["patch", "-s", "-p1", "-i", result.outputs["lock-diff"]], cwd=replay, check=True)
        self.assertEqual(open(os.path.join(replay, "archfit.lock"), "rb").read(),
                         open(os.path.join(self.workspace, "archfit.lock"), "rb").read())
        # A third run: nothing to change, nothing written, an empty patch.
        before = tree_bytes(self.workspace)
        r, result = self.run_action(mode="lock", paths=".")
        self.assertEqual(result.status, "success", log(r))
        self.assertEqual(result.outputs["lock-changed"], "false")
        self.assertEqual(os.path.getsize(result.outputs["lock-diff"]), 0)
        self.assertIn("Nothing to change", open(r.summary).read())
        self.assertEqual(tree_bytes(self.workspace), before)

    def test_lock_mode_needs_the_registries(self):
        r, result = self.run_action(mode="lock", paths=".", offline="true")
        self.assertEqual(result.status, "failure")
        self.assertIn("mode lock asks the registries", log(r))

    def test_the_weekly_lock_workflow_opens_a_pull_request_only_when_the_lock_moved(self):
        registry, layout, image = self.lock_repository()
        wf = self.workflow("lock-weekly")
        self.assertIn("schedule", wf.get("on", wf.get(True)))  # YAML 1.1 reads `on` as true
        for changed in (True, False):
            r = self.runner()
            status, steps = r.run_job(wf["jobs"]["lock"])
            self.assertEqual(status, "success", log(r))
            prs = [w for u, w in r.uses if u.startswith("peter-evans/create-pull-request@")]
            self.assertEqual(len(prs), 1 if changed else 0, log(r))
            if changed:
                self.assertIn("archfit.lock", prs[0].get("add-paths", "archfit.lock"))
        self.assertIn(image, self.lock_entries())

    # -- inputs are data (docs/security.md) ------------------------------------------------------------

    def assert_only_archfits_commands(self, r, context):
        """Every workflow command the runner reads is one archfit or the action wrote: an
        annotation with properties (title= or file=), never a line a value made."""
        for line in r.workflow_commands():
            self.assertRegex(line, r"^::(error|warning|notice) (title|file)=", f"{context}: {line!r}")

    def test_paths_minus_delete_deletes_nothing_and_runs_nothing(self):
        # The reproducers: `paths: "-delete"` reached find and emptied the workspace.
        for paths in ("-delete", "-exec\ntouch pwned ;", "team-a\n-delete", "!\n-delete", "(\n-delete"):
            for mode in ("lint", "check", "fix"):
                with self.subTest(paths=paths, mode=mode):
                    before = tree_bytes(self.workspace)
                    r, result = self.run_action(paths=paths, mode=mode)
                    after = tree_bytes(self.workspace)
                    if mode != "fix":
                        self.assertEqual(after, before)
                    self.assertLessEqual(set(before), set(after), "files were deleted")
                    self.assertTrue(os.path.isdir(os.path.join(self.workspace, ".git")))
                    self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))
                    self.assert_only_archfits_commands(r, paths)

    def test_an_input_with_a_line_break_adds_no_output(self):
        # The reproducer: sarif-file: "r.sarif\nexit-code=0" made a failing run read as passing.
        r, result = self.run_action(**{"sarif-file": "r.sarif\nexit-code=0", "paths": "team-a\nteam-b"})
        self.assertEqual(result.status, "failure")
        self.assertEqual(result.outputs["exit-code"], "2")
        self.assertIn("holds a line break", "\n".join(r.workflow_commands()))
        # Outputs hold what archfit says even where a name holds a line break.
        os.makedirs(os.path.join(self.workspace, "x\nexit-code=0"))
        shutil.copy(os.path.join(EXAMPLES, "search.yaml"), os.path.join(self.workspace, "x\nexit-code=0"))
        r, result = self.run_action(mode="check", paths="x\nexit-code=0\nteam-a")
        self.assertEqual(result.outputs["exit-code"], "2", "x and exit-code=0 are not paths")

    def test_changed_files_are_the_names_archfit_changed_whatever_they_hold(self):
        # The reproducer: a directory named with a line break made changed-files list names
        # of files that did not change.
        odd = "team-a\n+++ b/team-b/sqlserver.yaml"
        os.makedirs(os.path.join(self.workspace, odd))
        shutil.copy(os.path.join(EXAMPLES, "search.yaml"), os.path.join(self.workspace, odd))
        for mode in ("check", "fix"):
            with self.subTest(mode):
                r, result = self.run_action(mode=mode, paths=".")
                out = result.outputs
                exact = json.loads(out["changed-files-json"])
                self.assertIn(odd + "/search.yaml", exact)
                self.assertEqual(len(exact), 5 if mode == "check" else 5, exact)
                lines = out["changed-files"].splitlines()
                self.assertEqual(len(lines), len(exact))
                self.assertIn('"team-a\\n+++ b/team-b/sqlserver.yaml/search.yaml"', lines)
                self.assertNotIn("b/team-b/sqlserver.yaml/search.yaml", lines)
                # The patch names the file as git quotes it; git applies it.
                if mode == "check":
                    subprocess.run(["git", "apply", "--check", out["diff-file"]], cwd=self.workspace,
                                   check=True)

    def test_every_input_takes_hostile_values_as_data(self):
        from support import HOSTILE
        action = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))
        known_outputs = set(action["outputs"])
        runner = self.runner()
        for name in action["inputs"]:
            # Enumerations fail at once on anything else; a few values show that.
            # Every value for paths; for the other inputs the kinds of attack, one each:
            # an option, a find expression, substitution, a line break that adds an
            # output and one that adds a command, a path out of the workspace, a device.
            values = HOSTILE if name == "paths" else [
                "--config=evil.yaml", "-delete", "$(touch pwned)", "`touch pwned`",
                "x\nexit-code=0", "\n::error::injected", "../../../../etc/passwd", "/dev/zero"]
            for value in values:
                with self.subTest(input=name, value=value):
                    before = tree_bytes(self.workspace)
                    runner.stdout = ""
                    result = runner.run_action({name: value, "paths": value if name == "paths" else "team-a"})
                    runner.post()
                    after = tree_bytes(self.workspace)
                    if name in ("sarif-file", "json-file"):
                        # The reports asked for, written where they were asked for.
                        reports = {os.path.normpath(v) for v in values}
                        after = {k: v for k, v in after.items() if k not in reports}
                        before = {k: v for k, v in before.items() if k not in reports}
                    self.assertEqual(after, before)
                    for root in (self.workspace, runner.root, os.getcwd()):
                        self.assertFalse(os.path.exists(os.path.join(root, "pwned")), root)
                    self.assertLessEqual(set(result.outputs), known_outputs)
                    self.assertIn(result.outputs["exit-code"], ("0", "1", "2", "3"), result.outputs)
                    self.assertNotIn("\n", result.outputs["exit-code"])
                    if "exit-code=0" in value:
                        self.assertNotEqual(result.outputs["exit-code"], "0")
                    self.assert_only_archfits_commands(runner, f"{name}={value!r}")

    # -- the workflows of docs/ci.md ----------------------------------------------------------------------

    def workflow(self, name):
        text = open(os.path.join(ROOT, "docs", "ci.md")).read()
        m = re.search(r"<!-- workflow: " + re.escape(name) + r" -->\n```yaml\n(.*?)```", text, re.S)
        self.assertIsNotNone(m, name)
        return yaml.safe_load(m.group(1))

    def test_the_documented_workflows_are_valid_and_use_the_action_as_it_is(self):
        action = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))
        known_inputs = set(action["inputs"])
        known_outputs = set(action["outputs"])
        for name in ["lint-sarif", "check", "fix-suggest", "fix-commit", "helm", "matrix", "lock-weekly",
                     "lock-bumps"]:
            wf = self.workflow(name)
            for job in wf["jobs"].values():
                for step in job["steps"]:
                    if step.get("uses", "").startswith("archfit/archfit@"):
                        self.assertLessEqual(set(step.get("with", {})), known_inputs, name)
                    for v in list((step.get("with") or {}).values()) + [step.get("if", "")]:
                        for out in re.findall(r"steps\.archfit\.outputs\.([\w-]+)", str(v)):
                            self.assertIn(out, known_outputs, name)

    def test_the_lint_workflow_uploads_the_sarif_with_its_category(self):
        wf = self.workflow("lint-sarif")
        os.rename(os.path.join(self.workspace, "team-a"), os.path.join(self.workspace, "deploy"))
        r = self.runner()
        status, steps = r.run_job(wf["jobs"]["archfit"])
        self.assertEqual(status, "failure")  # the findings fail the job...
        uploads = [w for u, w in r.uses if u.startswith("github/codeql-action/upload-sarif")]
        self.assertEqual(len(uploads), 1, "...and the SARIF is uploaded all the same")
        self.assertTrue(os.path.isfile(uploads[0]["sarif_file"]))
        self.assertEqual(uploads[0]["category"], "archfit-deploy")
        sarif = json.load(open(uploads[0]["sarif_file"]))
        self.assertEqual(sarif["runs"][0]["automationDetails"]["id"], "archfit-deploy/")
        for result in sarif["runs"][0]["results"]:
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            self.assertTrue(uri.startswith("deploy/"), uri)


if __name__ == "__main__":
    unittest.main()
