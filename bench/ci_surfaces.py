#!/usr/bin/env python3
"""What the CI surfaces cost on top of archfit itself (bench/run ci).

action      action.yml run as a GitHub runner would (tests/e2e/runner.py) with a warm
            executable cache: seconds from the action's start until the SARIF file is
            written, and until the action ends (annotations, summary, outputs), against
            `archfit lint --format sarif --output F` run directly on the same paths.
            On the bundled examples and, when given, the manifest corpus.
step        the action's Run step alone (scripts/action/run, every report: SARIF, JSON,
            annotations, summary, from one run of archfit) over a generated stream of
            4,000 workloads with its lock, against `archfit lint --format sarif` of the
            same stream: what the step adds to one lint (goal: at most 1.1x); and against
            `archfit lint` writing the same four reports itself: what the step's script
            adds to archfit. Each side runs as the runner runs a `run:` step (its text in a
            file, `bash --noprofile --norc -eo pipefail FILE`): the Run step's text from
            action.yml, and the lint as a workflow's step would run it.
pre-commit  `pre-commit run archfit-fix --all-files` in a git repository of 200
            manifests that need fixing (the hook environment installed beforehand),
            against `archfit fix --offline --quiet` of the same 200 files. Every round
            starts from fresh copies (copying is not timed).

usage: ci_surfaces.py ARCHFIT ROOT STATE_DIR REPEAT [CORPUS_DIR]
Prints one line per measurement: name=<best seconds> ...
"""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ARCHFIT, ROOT, STATE, REPEAT = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
CORPUS = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else ""
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
from runner import STEP_SHELL, Runner, step_text  # noqa: E402

os.makedirs(STATE, exist_ok=True)
STORE = os.path.join(STATE, "cache-store")
TOOLS = os.path.join(STATE, "toolcache")


def action_once(workspace, paths, offline):
    r = Runner(workspace, ROOT, cache_store=STORE)
    r.tool_cache = TOOLS
    os.makedirs(TOOLS, exist_ok=True)
    sarif = os.path.join(r.temp, "out.sarif")
    start = time.time()
    result = r.run_action({"paths": paths, "offline": offline, "sarif-file": sarif})
    end = time.time()
    r.post()
    built = "Build archfit" in r.ran
    written = os.stat(sarif).st_mtime if os.path.exists(sarif) else None
    log = r.stdout[-2000:]
    r.close()
    if written is None:
        raise SystemExit(f"ci_surfaces: the action wrote no SARIF ({result.outputs}); its log ends:\n{log}")
    return written - start, end - start, built


def direct_once(workspace, paths, every_report=False, as_step=False):
    """archfit lint of the paths with the SARIF report alone, or with every report the Run step
    asks for (SARIF, JSON, annotations, summary), started directly or as a workflow's `run:`
    step; seconds."""
    out = tempfile.mkdtemp()
    reports = ["--format", "sarif", "--output", os.path.join(out, "out.sarif")]
    if every_report:
        reports = [f"--report={kind}={os.path.join(out, name)}" for kind, name in
                   (("sarif", "out.sarif"), ("json", "out.json"), ("github", "annotations"),
                    ("markdown", "summary.md"))]
    argv = [ARCHFIT, "lint", "--offline", "--progress=never", *reports, "--", *paths]
    if as_step:
        step = os.path.join(out, "step.sh")
        with open(step, "w") as f:
            f.write(shlex.join(argv) + "\n")
        argv = [*STEP_SHELL, step]
    start = time.monotonic()
    subprocess.run(argv, cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    shutil.rmtree(out)
    return seconds


def bench_action(name, workspace, paths):
    # Warm the executable cache (the first run may build; not timed).
    _, _, built = action_once(workspace, "\n".join(paths), "true")
    sarif, total, direct = [], [], []
    for i in range(REPEAT):
        for side in (("action", "direct") if i % 2 == 0 else ("direct", "action")):
            if side == "action":
                s, t, b = action_once(workspace, "\n".join(paths), "true")
                if b:
                    raise SystemExit("ci_surfaces: a warm action built archfit")
                sarif.append(s)
                total.append(t)
            else:
                direct.append(direct_once(workspace, paths))
    print(f"action_{name}_sarif={min(sarif):.3f} action_{name}_total={min(total):.3f} "
          f"direct_{name}={min(direct):.3f} warmed_by_build={int(built)}")


def step_once(workspace, stream):
    """The Run step as the runner runs it, lint mode; seconds."""
    temp = tempfile.mkdtemp(prefix="ci-step-")
    step = os.path.join(temp, "step.sh")
    with open(step, "w") as f:
        f.write(step_text(ROOT, "run"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
    env.update(ARCHFIT=ARCHFIT, ACTION_PATH=ROOT, LOCK_FOUND="true", RUNNER_TEMP=temp,
               GITHUB_OUTPUT=os.path.join(temp, "output"), GITHUB_WORKSPACE=workspace,
               GITHUB_STEP_SUMMARY=os.path.join(temp, "summary"), INPUT_PATHS=stream,
               INPUT_FAIL_ON="never")
    start = time.monotonic()
    p = subprocess.run([*STEP_SHELL, step], cwd=workspace, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    if p.returncode != 0 or not os.path.getsize(os.path.join(temp, "archfit.sarif")):
        raise SystemExit(f"ci_surfaces: the Run step exited {p.returncode} or wrote no SARIF")
    shutil.rmtree(temp)
    return seconds


def bench_step():
    workspace = tempfile.mkdtemp(prefix="ci-step-ws-")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_stream.py"), "--workloads", "4000",
                    "--out", os.path.join(workspace, "stream.yaml"),
                    "--lock", os.path.join(workspace, "archfit.lock")],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    step, direct, reports = [], [], []
    sides = ("step", "direct", "reports")
    for i in range(REPEAT):
        for side in sides[i % 3:] + sides[:i % 3]:
            if side == "step":
                step.append(step_once(workspace, "stream.yaml"))
            else:
                (direct if side == "direct" else reports).append(
                    direct_once(workspace, ["stream.yaml"], every_report=side == "reports",
                                as_step=True))
    shutil.rmtree(workspace)
    print(f"step_stream={min(step):.3f} direct_stream={min(direct):.3f} "
          f"reports_stream={min(reports):.3f}")


def manifest(i):
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}\nspec:\n  template:\n"
            f"    spec:\n      containers:\n      - name: app\n"
            f"        image: docker.elastic.co/elasticsearch/elasticsearch:6.8.23\n")


def bench_pre_commit():
    pristine = tempfile.mkdtemp(prefix="pc-pristine-")
    for i in range(200):
        d = os.path.join(pristine, f"team-{i % 10}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"app-{i}.yaml"), "w") as f:
            f.write(manifest(i))
    shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), pristine)
    shutil.copy(os.path.join(ROOT, "examples", ".archfit.yaml"), pristine)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    with open(os.path.join(pristine, ".pre-commit-config.yaml"), "w") as f:
        f.write(f"repos:\n- repo: {ROOT}\n  rev: {rev}\n  hooks:\n  - id: archfit-fix\n")
    subprocess.run(["git", "init", "-q", pristine], check=True)
    subprocess.run(["git", "add", "-A"], cwd=pristine, check=True)
    bindir = tempfile.mkdtemp(prefix="pc-bin-")
    os.symlink(ARCHFIT, os.path.join(bindir, "archfit"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
               PRE_COMMIT_HOME=os.path.join(STATE, "pre-commit-home"), ARCHFIT_CONFIG="", ARCHFIT_LOCK="")
    subprocess.run(["pre-commit", "install-hooks"], cwd=pristine, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    files = sorted(os.path.relpath(os.path.join(dp, n), pristine)
                   for dp, _, ns in os.walk(pristine) if ".git" not in dp for n in ns if n.startswith("app-"))
    assert len(files) == 200
    hook, direct = [], []

    def fresh():
        work = tempfile.mkdtemp(prefix="pc-work-")
        shutil.rmtree(work)
        shutil.copytree(pristine, work, symlinks=True)
        return work

    for i in range(REPEAT):
        for side in (("hook", "direct") if i % 2 == 0 else ("direct", "hook")):
            work = fresh()
            start = time.monotonic()
            if side == "hook":
                p = subprocess.run(["pre-commit", "run", "archfit-fix", "--all-files"], cwd=work, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                hook.append(time.monotonic() - start)
                if p.returncode != 1 or "files were modified by this hook" not in p.stdout:
                    raise SystemExit("ci_surfaces: the hook did not fix the files:\n" + p.stdout)
            else:
                p = subprocess.run([ARCHFIT, "fix", "--offline", "--quiet", *files], cwd=work, env=env)
                direct.append(time.monotonic() - start)
                if p.returncode != 0:
                    raise SystemExit(f"ci_surfaces: archfit fix exited {p.returncode}")
            fixed = sum("archfit.io/owned" in open(os.path.join(work, f)).read() for f in files)
            if fixed != 200:
                raise SystemExit(f"ci_surfaces: {side} fixed {fixed} of 200 files")
            shutil.rmtree(work)
    print(f"pre_commit_200={min(hook):.3f} direct_fix_200={min(direct):.3f}")


def main():
    examples = tempfile.mkdtemp(prefix="ci-examples-")
    shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(examples, "deploy"))
    bench_action("examples", examples, ["deploy"])
    if CORPUS:
        # Its manifests that archfit reads (one repeats a key: refused, exit 2;
        # offline, an image no lock file knows is exit 3, and read).
        corpus = tempfile.mkdtemp(prefix="ci-corpus-")
        os.makedirs(os.path.join(corpus, "corpus"))
        taken = 0
        for name in sorted(os.listdir(CORPUS)):
            path = os.path.join(CORPUS, name)
            if name.endswith(".yaml") and subprocess.run(
                    [ARCHFIT, "lint", "--offline", "--fail-on", "never", path],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 2:
                shutil.copy(path, os.path.join(corpus, "corpus", name))
                taken += 1
        print(f"corpus_files={taken}")
        bench_action("corpus", corpus, ["corpus"])
    bench_step()
    bench_pre_commit()


if __name__ == "__main__":
    main()
