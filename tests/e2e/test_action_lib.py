"""scripts/action/lib.sh, the action's shell helpers, under bash with hostile values.

`parent` must say what dirname says for any path, `require_inside` must
refuse every path that leads out of the workspace and the runner's temporary
directory, whichever of several it is, while taking names no shell should
trust (leading dashes, line breaks, globs, substitutions) as names, and agree
with realpath on every path while starting it for none that lies inside as
written, and
`set_output` must give the runner back every value it was given, whatever
lines it holds, after what the file held.

Environment: ARCHFIT_SOURCE.
"""
import os
import random
import shutil
import subprocess
import tempfile
import unittest

from runner import read_outputs

ROOT = os.environ["ARCHFIT_SOURCE"]
LIB = os.path.join(ROOT, "scripts", "action", "lib.sh")
RETURNED = b"require_inside returned"
PIECES = ["a", "b c", "-x", "--help", "..", ".", "", "*", "$(touch pwned)", "`id`", "x\ny", "\t", "é", "%0A"]


def bash(script, *args, env=None, cwd=None):
    return subprocess.run(["bash", "-c", f'source "$0"; {script}', LIB, *args], capture_output=True,
                          env=env, cwd=cwd)


class Parent(unittest.TestCase):
    def test_parent_says_what_dirname_says(self):
        rng = random.Random(7)
        paths = ["/", "//", "a", "a/", "/a", "//a", "a//b//", "-", "-x/y"]
        for _ in range(300):
            parts = [rng.choice(PIECES) for _ in range(rng.randint(1, 4))]
            lead = rng.choice(["", "/", "//"])
            tail = rng.choice(["", "/", "//"])
            path = lead + "/".join(parts) + tail
            if path:
                paths.append(path)
        script = 'for p; do parent "$p"; printf "%s\\0" "$REPLY"; done'
        got = bash(script, *paths).stdout.split(b"\0")[:-1]
        want = [subprocess.run(["dirname", "--", p], capture_output=True).stdout[:-1] for p in paths]
        self.assertEqual(len(got), len(paths))
        for path, g, w in zip(paths, got, want):
            self.assertEqual(g, w, repr(path))


class RequireInside(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="action-lib-")
        self.workspace = os.path.join(self.dir, "ws")
        self.temp = os.path.join(self.dir, "tmp")
        os.makedirs(self.workspace)
        os.makedirs(self.temp)
        os.symlink("/etc", os.path.join(self.workspace, "out"))
        self.output = os.path.join(self.temp, "output")
        self.env = dict(os.environ, GITHUB_WORKSPACE=self.workspace, RUNNER_TEMP=self.temp,
                        GITHUB_OUTPUT=self.output)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def require(self, *pairs):
        # The marker is a line of its own: the paths quoted in an error may hold any letters.
        return bash('require_inside "$@"; echo "require_inside returned"', *pairs, env=self.env, cwd=self.workspace)

    def test_every_path_inside_passes_in_one_call(self):
        names = ["a", "-x", "--help", "x\ny", "$(touch pwned)", "*", "b c/../d", os.path.join(self.temp, "r.sarif")]
        pairs = [v for n in names for v in ("path", n)]
        p = self.require(*pairs)
        self.assertEqual((p.returncode, p.stdout), (0, RETURNED + b"\n"), p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))

    def test_any_path_outside_fails_and_is_named(self):
        inside = ["path", "a", "sarif-file", os.path.join(self.temp, "x")]
        for what, bad in [("lock", "../elsewhere"), ("config", "out/passwd"), ("json-file", "/etc/passwd"),
                          ("path", "x\n/../../.."), ("path", "-x/../../..")]:
            for pairs in ([what, bad, *inside], [*inside, what, bad], [inside[0], inside[1], what, bad]):
                with self.subTest(pairs=pairs):
                    p = self.require(*pairs)
                    self.assertEqual(p.returncode, 2, p.stdout)
                    self.assertNotIn(RETURNED + b"\n", p.stdout.splitlines(keepends=True))
                    self.assertIn(f"::error title=archfit::{what} '".encode(), p.stdout)
                    self.assertIn(b"outside the workspace", p.stdout)
                    with open(self.output) as f:
                        self.assertIn("exit-code<<", f.read())
                    os.remove(self.output)

    def test_paths_inside_as_written_need_no_realpath_and_every_verdict_is_realpaths(self):
        # Links inside the workspace: to a directory inside, out of it, up from it, dangling.
        os.makedirs(os.path.join(self.workspace, "sub", "deep"))
        open(os.path.join(self.workspace, "sub", "f"), "w").close()
        os.symlink("sub", os.path.join(self.workspace, "in"))
        os.symlink("..", os.path.join(self.workspace, "sub", "up"))
        os.symlink("nowhere/x", os.path.join(self.workspace, "dangling"))
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        calls = os.path.join(self.dir, "realpath-calls")
        with open(os.path.join(bin_dir, "realpath"), "w") as f:
            f.write(f"#!/bin/sh\necho x >> '{calls}'\nexec {shutil.which('realpath')} \"$@\"\n")
        os.chmod(os.path.join(bin_dir, "realpath"), 0o755)
        env = dict(self.env, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        # Each path: require_inside's verdict, then realpath's alone (resolve_inside), each in a
        # subshell (a refusal exits it), and the number of realpath calls the first one made.
        script = ('for p; do : > "$CALLS"; (require_inside path "$p" >/dev/null) && a=1 || a=0; '
                  'n=$(wc -l < "$CALLS"); (resolve_inside path "$p" >/dev/null) && b=1 || b=0; '
                  'printf "%s %s %s\\0" "$a" "$b" "$n"; done')
        plain = ["sub", "f", "x", "-y", "a b", "*", "$(touch pwned)", ".", ""]
        anything = plain + ["in", "out", "up", "dangling", "..", "deep", "x\ny"]
        rng = random.Random(5)
        cases = []  # (path, inside as written)
        for _ in range(400):
            parts = [rng.choice(anything) for _ in range(rng.randint(1, 5))]
            lead = rng.choice(["", "", self.workspace + "/", self.temp + "/", "/etc/", "/", "./"])
            cases.append((lead + "/".join(parts), False))
        for _ in range(100):
            parts = [rng.choice(plain) for _ in range(rng.randint(1, 4))]
            lead = rng.choice(["", self.workspace + "/", self.temp + "/", "./"])
            path = lead + "/".join(parts)
            # An empty first part with no lead makes the path absolute: /-y is not inside.
            cases.append((path, not (lead == "" and path.startswith("/"))))
        cases = [(p, plain) for p, plain in cases if p]
        p = subprocess.run(["bash", "-c", f'source "$0"; {script}', LIB, *(c[0] for c in cases)],
                           capture_output=True, env=dict(env, CALLS=calls), cwd=self.workspace)
        verdicts = p.stdout.split(b"\0")[:-1]
        self.assertEqual(len(verdicts), len(cases), p.stderr)
        both = set()
        for (path, as_written), verdict in zip(cases, verdicts):
            ours, realpaths, calls_made = verdict.split()
            both.add(realpaths)
            self.assertEqual(ours, realpaths, repr(path))
            if as_written:
                self.assertEqual((ours, calls_made), (b"1", b"0"), repr(path))
        self.assertEqual(both, {b"0", b"1"}, "the generated paths were all inside or all outside")
        self.assertFalse(os.path.exists(os.path.join(self.workspace, "pwned")))


class SetOutput(unittest.TestCase):
    def test_the_runner_reads_back_every_value_of_one_call(self):
        rng = random.Random(11)
        hostile = PIECES + ["x<<EOF", "EOF", "archfit_", "a\nb<<c\nc", "\n", "k=v", "<<"]
        with tempfile.TemporaryDirectory() as d:
            output = os.path.join(d, "output")
            env = dict(os.environ, GITHUB_OUTPUT=output)
            for round_ in range(40):
                with open(output, "w") as f:
                    f.write("earlier=kept\n")
                pairs = {f"name-{i}": "".join(rng.choice(hostile) for _ in range(rng.randint(0, 5)))
                         for i in range(rng.randint(1, 8))}
                args = [v for kv in pairs.items() for v in kv]
                p = bash('set_output "$@"', *args, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(read_outputs(output), {"earlier": "kept", **pairs}, round_)


if __name__ == "__main__":
    unittest.main()
