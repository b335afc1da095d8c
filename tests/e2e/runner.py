"""Runs a composite action (action.yml) or a workflow job the way a GitHub
runner does, on this machine, for the end-to-end tests of the action.

What it does as the runner does:
- `${{ }}` expressions over inputs (with the action's defaults), steps.<id>.outputs,
  github.*, runner.*, env.*, with ==, !=, &&, ||, ! and success()/always()/failure();
- every `run:` step in order through `bash --noprofile --norc -eo pipefail FILE`, with the
  step's `env`, `working-directory`, and the GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY,
  GITHUB_WORKSPACE, RUNNER_TEMP, RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE files and variables;
  outputs read from GITHUB_OUTPUT (k=v and k<<DELIMITER ... DELIMITER);
- a file of its own for each step's GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STEP_SUMMARY, made
  empty before the step and read by its path after it; the step summaries, in order, are the
  job's summary (`summary`);
- a failing step stops the job: later steps run only under always() or failure();
- `actions/cache`: restores an exact key or the newest restore-keys prefix from a store
  directory (cache-hit true only on the exact key) and saves a missed key after the job;
- other `uses:` steps (checkout, upload-sarif, the suggester...) are recorded with their
  evaluated inputs for the tests to check; `uses: ./` or the action's own name runs the action.

Composite actions get no INPUT_* variables; scripts see inputs only through env:.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time

import yaml

EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
TOKEN = re.compile(r"\s*(?:(==|!=|&&|\|\||!|\(|\)|,)|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.\-]*(?:\(\))?)|(\d+))")


class Expression:
    """A small evaluator of GitHub's expression syntax, enough for actions."""

    def __init__(self, text, lookup, status):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read expression {text!r} at {pos}")
            op, string, name, number = m.groups()
            if op:
                self.tokens.append(("op", op))
            elif string is not None:
                self.tokens.append(("value", string.replace("''", "'")))
            elif number is not None:
                self.tokens.append(("value", number))
            else:
                self.tokens.append(("name", name))
            pos = m.end()
        self.lookup = lookup
        self.status = status
        self.at = 0

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else (None, None)

    def take(self):
        tok = self.peek()
        self.at += 1
        return tok

    def value(self):
        v = self.or_()
        if self.at != len(self.tokens):
            raise ValueError(f"unexpected {self.peek()}")
        return v

    def or_(self):
        v = self.and_()
        while self.peek() == ("op", "||"):
            self.take()
            w = self.and_()
            v = v if truthy(v) else w
        return v

    def and_(self):
        v = self.compare()
        while self.peek() == ("op", "&&"):
            self.take()
            w = self.compare()
            v = w if truthy(v) else v
        return v

    def compare(self):
        v = self.unary()
        while self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            w = self.unary()
            same = str(v if v is not None else "").lower() == str(w if w is not None else "").lower()
            v = same if op == "==" else not same
        return v

    def unary(self):
        if self.peek() == ("op", "!"):
            self.take()
            return not truthy(self.unary())
        if self.peek() == ("op", "("):
            self.take()
            v = self.or_()
            assert self.take() == ("op", ")")
            return v
        kind, tok = self.take()
        if kind == "value":
            return tok
        if kind == "name":
            if tok in ("success()", "always()", "failure()", "cancelled()"):
                return {"success()": self.status == "success", "always()": True,
                        "failure()": self.status == "failure", "cancelled()": False}[tok]
            if tok in ("true", "false"):
                return tok == "true"
            return self.lookup(tok)
        raise ValueError(f"unexpected {tok!r}")


def truthy(v):
    return v not in (None, False, "", 0)


def text_of(v):
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)


def read_outputs(path):
    """GITHUB_OUTPUT's k=v lines and k<<DELIMITER blocks."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            body = []
            while i < len(lines) and lines[i] != delim:
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"{path}: no closing delimiter {delim!r} for {key}")
            i += 1
            out[key] = "\n".join(body)
        else:
            key, _, value = line.partition("=")
            out[key] = value
    return out


# How the runner starts a `shell: bash` step: the step's text in a file, then this and the file.
STEP_SHELL = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]


def step_text(action_path, step_id):
    """The `run:` text of the composite action's step `step_id` (one without expressions)."""
    action = yaml.safe_load(open(os.path.join(action_path, "action.yml"), encoding="utf-8"))
    text = next(s["run"] for s in action["runs"]["steps"] if s.get("id") == step_id)
    assert "${{" not in text, f"step {step_id} has expressions; run it with Runner"
    return text


class Runner:
    """One machine: a workspace, a temp directory, a tool cache and an actions/cache store."""

    def __init__(self, workspace, action_path, action_name="archfit/archfit", home=None,
                 cache_store=None, runner_os="Linux", base_env=None, action_ref="main"):
        self.workspace = workspace
        self.action_ref = action_ref  # github.action_ref: the ref the action is used at
        self.action_path = action_path
        self.action_name = action_name
        self.root = tempfile.mkdtemp(prefix="runner-")
        self.temp = os.path.join(self.root, "temp")
        self.tool_cache = os.path.join(self.root, "toolcache")
        self.home = home or os.path.join(self.root, "home")
        self.cache_store = cache_store or os.path.join(self.root, "cache-store")
        for d in (self.temp, self.tool_cache, self.home, self.cache_store):
            os.makedirs(d, exist_ok=True)
        self.runner_os = runner_os
        self.base_env = dict(base_env if base_env is not None else os.environ)
        self.summary = os.path.join(self.root, "job_summary")  # every step's summary, in order
        self.uses = []          # (uses, with) of every uses: step not run here
        self.ran = []           # names of the run: steps that ran, in order
        self.stdout = ""        # everything the steps printed (workflow commands)
        self.pending_saves = []
        self.step_seconds = {}  # name -> seconds
        self.extra_env = {}     # what steps wrote to GITHUB_ENV
        self.stderr_of = {}     # name -> what the step wrote to stderr
        self.stdout_of = {}     # name -> what the step wrote to stdout

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def workflow_commands(self, step=None):
        """The lines of stdout the runner takes as workflow commands: `::name ...::data`,
        except between `::stop-commands::TOKEN` and `::TOKEN::`; of one step when named
        (GitHub caps annotations per step)."""
        commands, stopped = [], None
        text = self.stdout if step is None else self.stdout_of.get(step, "")
        for line in text.splitlines():
            if stopped is not None:
                if line == f"::{stopped}::":
                    stopped = None
                continue
            m = re.match(r"::stop-commands::(.+)$", line)
            if m:
                stopped = m.group(1)
            elif re.match(r"::[A-Za-z-]+( [^:]*)?::", line):
                commands.append(line)
        return commands

    # -- the runner's variables -------------------------------------------------------
    def runner_env(self):
        env = dict(self.base_env)
        env.update({
            "HOME": self.home,
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_WORKSPACE": self.workspace,
            "GITHUB_RUN_ID": "1",
            "GITHUB_RUN_ATTEMPT": "1",
            "RUNNER_TEMP": self.temp,
            "RUNNER_OS": self.runner_os,
            "RUNNER_ARCH": "X64" if os.uname().machine == "x86_64" else "ARM64",
            "RUNNER_TOOL_CACHE": self.tool_cache,
        })
        return env

    # -- actions/cache -------------------------------------------------------------------
    def cache_restore(self, path, key, restore_keys):
        exact = os.path.join(self.cache_store, key)
        if os.path.isdir(exact):
            self._copy(exact, path)
            return "true", key
        candidates = []
        for prefix in [k.strip() for k in (restore_keys or "").splitlines() if k.strip()]:
            for name in os.listdir(self.cache_store):
                if name.startswith(prefix):
                    candidates.append((os.path.getmtime(os.path.join(self.cache_store, name)), name))
            if candidates:
                break
        if candidates:
            name = max(candidates)[1]
            self._copy(os.path.join(self.cache_store, name), path)
            return "false", name
        return "false", ""

    def cache_save(self, path, key):
        if not os.path.exists(path) or os.path.isdir(os.path.join(self.cache_store, key)):
            return
        self._copy(path, os.path.join(self.cache_store, key))

    @staticmethod
    def _copy(src, dst):
        if os.path.exists(dst):
            shutil.rmtree(dst)
        shutil.copytree(src, dst, symlinks=True)

    # -- steps ---------------------------------------------------------------------------------
    def evaluate(self, text, context, status="success"):
        if not isinstance(text, str):
            return text_of(text)

        def lookup(name):
            parts = name.split(".")
            v = context
            for p in parts:
                if isinstance(v, dict):
                    v = v.get(p)
                else:
                    return None
            return v

        def one(m):
            return text_of(Expression(m.group(1), lookup, status).value())

        return EXPR.sub(one, text)

    def condition(self, text, context, status):
        if text is None:
            return status == "success"
        expr = text.strip()
        m = EXPR.fullmatch(expr)
        if m:
            expr = m.group(1)
        def lookup(name):
            v = context
            for p in name.split("."):
                v = v.get(p) if isinstance(v, dict) else None
            return v

        value = Expression(expr, lookup, status).value()
        # A condition without a status function implies success().
        if not re.search(r"\b(always|failure|cancelled|success)\(\)", expr):
            return status == "success" and truthy(value)
        return truthy(value)

    def run_steps(self, steps, context, env_base, where):
        """Runs steps; returns 'success' or 'failure' and fills context['steps']."""
        status = "success"
        for index, step in enumerate(steps):
            name = step.get("name") or step.get("id") or step.get("uses") or f"step {index}"
            if not self.condition(step.get("if"), context, status):
                continue
            step_id = step.get("id") or f"__{where}_{index}"
            outputs = {}
            started = time.monotonic()
            ok = True
            if "run" in step:
                ok, outputs = self.run_script(step, context, env_base, name)
            else:
                ok, outputs = self.uses_step(step, context, status)
            self.step_seconds[name] = self.step_seconds.get(name, 0) + time.monotonic() - started
            context["steps"][step_id] = {"outputs": outputs,
                                         "outcome": "success" if ok else "failure"}
            if not ok:
                status = "failure"
        return status

    def run_script(self, step, context, env_base, name):
        if "shell" not in step and context.get("__composite"):
            raise AssertionError(f"step {name!r}: a composite action's run step needs shell")
        shell = step.get("shell", "bash")
        assert shell == "bash", f"step {name!r}: only bash steps are run here, not {shell}"
        env = dict(env_base)
        env.update(self.extra_env)
        for k, v in (step.get("env") or {}).items():
            env[k] = self.evaluate(v, context)
        out_file = os.path.join(self.temp, f"output_{len(self.ran)}")
        env_file = os.path.join(self.temp, f"env_{len(self.ran)}")
        summary_file = os.path.join(self.temp, f"step_summary_{len(self.ran)}")
        for path in (out_file, env_file, summary_file):
            open(path, "w").close()
        env["GITHUB_OUTPUT"] = out_file
        env["GITHUB_ENV"] = env_file
        env["GITHUB_STEP_SUMMARY"] = summary_file
        script = os.path.join(self.temp, f"script_{len(self.ran)}.sh")
        with open(script, "w") as f:
            f.write(self.evaluate(step["run"], context))
        cwd = self.workspace
        wd = step.get("working-directory")
        if wd is not None:
            wd = self.evaluate(wd, context)
            cwd = wd if os.path.isabs(wd) else os.path.join(self.workspace, wd)
        self.ran.append(name)
        proc = subprocess.run([*STEP_SHELL, script],
                              cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        self.stdout += proc.stdout
        self.stdout_of[name] = proc.stdout
        self.stderr_of[name] = proc.stderr
        self.extra_env.update(read_outputs(env_file))
        with open(summary_file, "rb") as step_summary, open(self.summary, "ab") as job_summary:
            shutil.copyfileobj(step_summary, job_summary)
        return proc.returncode == 0, read_outputs(out_file)

    def uses_step(self, step, context, status):
        uses = step["uses"]
        inputs = {k: self.evaluate(v, context) for k, v in (step.get("with") or {}).items()}
        if uses.startswith("actions/cache@"):
            hit, matched = self.cache_restore(inputs["path"], inputs["key"], inputs.get("restore-keys"))
            self.uses.append((uses, inputs))
            if hit != "true":
                self.pending_saves.append((inputs["path"], inputs["key"]))
            return True, {"cache-hit": hit, "cache-matched-key": matched}
        if uses in ("./", ".") or uses.split("@")[0] == self.action_name:
            result = self.run_action(inputs)
            return result.status == "success", result.outputs
        self.uses.append((uses, inputs))
        return True, {}

    # -- entry points ----------------------------------------------------------------------------
    def run_action(self, inputs):
        """Runs action.yml at action_path with `inputs`; returns an ActionResult."""
        action = yaml.safe_load(open(os.path.join(self.action_path, "action.yml"), encoding="utf-8"))
        assert action["runs"]["using"] == "composite"
        given = dict(inputs)
        unknown = set(given) - set(action.get("inputs", {}))
        if unknown:
            raise AssertionError(f"unknown inputs {sorted(unknown)}")
        values = {k: text_of(given.get(k, spec.get("default", ""))) for k, spec in action["inputs"].items()}
        context = {
            "__composite": True,
            "inputs": values,
            "steps": {},
            "github": {"action_path": self.action_path, "action_ref": self.action_ref,
                       "workspace": self.workspace, "run_id": "1", "run_attempt": "1"},
            "runner": {"os": self.runner_os, "temp": self.temp, "arch": self.runner_env()["RUNNER_ARCH"],
                       "tool_cache": self.tool_cache},
            "env": {},
        }
        status = self.run_steps(action["runs"]["steps"], context, self.runner_env(), "action")
        outputs = {k: self.evaluate(spec.get("value", ""), context) for k, spec in action.get("outputs", {}).items()}
        return ActionResult(status, outputs, context["steps"])

    def run_job(self, job):
        """Runs a workflow job's steps (uses: of the action run it)."""
        context = {"steps": {}, "github": {"workspace": self.workspace, "event_name": "pull_request"},
                   "runner": {"os": self.runner_os, "temp": self.temp}, "env": dict(job.get("env") or {}),
                   "matrix": {}, "secrets": {"GITHUB_TOKEN": "token"}}
        status = self.run_steps(job["steps"], context, self.runner_env(), "job")
        self.post()
        return status, context["steps"]

    def post(self):
        """The job's end: actions/cache saves what it missed."""
        for path, key in self.pending_saves:
            self.cache_save(path, key)
        self.pending_saves = []


class ActionResult:
    def __init__(self, status, outputs, steps):
        self.status = status
        self.outputs = outputs
        self.steps = steps
