"""archfit where the system gives it no thread, or only one: a limit on
processes (ulimit -u, a container's pids limit) makes starting a thread fail
with EAGAIN. The work archfit shares among threads is then done by the threads
it has, with the same output; talking to registries needs a thread of its own,
and without one archfit says so and exits 3 instead of crashing.

ARCHFIT_THREADS=1 asks for no thread at all: strace shows none started.

The limit is RLIMIT_NPROC, which counts the tasks of a user: run as root, the
test runs archfit as a user id no other process has, so that the count is
archfit's alone; run as another user, the limit is that user's count of tasks
now plus what archfit may start."""

import json
import os
import resource
import shutil
import subprocess
import unittest

from lib import fake_registry as fr
from lib import harness
from lib.archfit_case import ArchfitCase
from lib.harness import unsanitized_leaks

def own_id():
    """A user and group of this process alone: no account has an id this
    high, and no two processes alive at once have one pid, so tests that run
    side by side never count each other's tasks."""
    return 1_000_000_000 + os.getpid()

LOCKED = {
    "docker.io/library/nginx:1.27": ["linux/amd64", "linux/arm64"],
    "quay.io/example/api:2.0": ["linux/amd64"],
    "ghcr.io/example/worker:1.4": ["linux/arm64"],
}

DEPLOYMENT = """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{i}
  labels:
    app: app-{i}
spec:
  template:
    metadata:
      labels:
        app: app-{i}
    spec:
      containers:
      - name: main
        image: {image}
        args: ["--port=8080", "--name=app-{i}"]
"""


def tasks_of(uid):
    """How many tasks (threads) the processes of `uid` have now."""
    count = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if int(status.get("Uid", "-1").split()[0]) == uid:
            count += int(status.get("Threads", "1"))
    return count


def limited(threads):
    """A preexec_fn: the program it runs may start `threads` threads beside
    its own, and no more."""
    def apply():
        if os.geteuid() == 0:
            os.setgroups([])
            os.setgid(own_id())
            os.setuid(own_id())
            # The kernel counts the new task first: the process itself is one.
            allowed = 1 + threads
        else:
            allowed = tasks_of(os.geteuid()) + threads
        resource.setrlimit(resource.RLIMIT_NPROC, (allowed, allowed))
    return apply


# The system's python3 (scripts/test installs it): one under a user's home
# may be closed to archfit's user.
SYSTEM_PYTHON = "/usr/bin/python3"

PROBE = """
import sys, threading, time
started = 0
try:
    for _ in range(4):
        threading.Thread(target=time.sleep, args=(1,), daemon=True).start()
        started += 1
except RuntimeError:
    pass
print(started)
"""


class StreamCase(ArchfitCase):
    def setUp(self):
        super().setUp()
        # archfit may run as another user: it reads and writes here.
        os.chmod(self.tmp, 0o777)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)
        return path

    def lock(self):
        return self.write("archfit.lock", json.dumps(
            {"version": 1, "images": {ref: {"platforms": p} for ref, p in LOCKED.items()}}))

    def stream(self):
        """Over 8 MiB, the size from which archfit scans an input on several
        threads, of documents every one of which fix changes."""
        images = list(LOCKED)
        text = "".join(DEPLOYMENT.format(i=i, image=images[i % len(images)])
                       for i in range(32000))
        self.assertGreater(len(text), 8 << 20)
        return text


class LimitCase(StreamCase):
    @classmethod
    def setUpClass(cls):
        # As root archfit runs as a user of its own, which may not reach the build tree
        # (a clone in a home or temporary directory closed to other users):
        # it runs a copy in a directory every user can reach.
        super().setUpClass()
        reachable = harness.temp_dir("reachable", parent="/tmp")
        os.chmod(reachable, 0o755)
        cls.binary = os.path.join(reachable, "archfit")
        shutil.copy(harness.archfit_binary(), cls.binary)
        os.chmod(cls.binary, 0o755)

    def setUp(self):
        super().setUp()
        said = subprocess.run([self.binary, "version"], capture_output=True, text=True,
                              preexec_fn=limited(1), timeout=60)
        self.assertEqual(said.returncode, 0,
                         f"{self.binary} does not run as a user of its own ({said.stderr.strip()}): "
                         "/tmp must be open to every user for this test")
        for threads in (0, 1):
            probe = subprocess.run([SYSTEM_PYTHON, "-c", PROBE], capture_output=True, text=True,
                                   preexec_fn=limited(threads), timeout=60)
            self.assertEqual(probe.stdout.strip(), str(threads),
                             f"the limit did not take: a program allowed {threads} thread(s) "
                             f"started {probe.stdout.strip() or 'none'} ({probe.stderr.strip()})")


class ThreadLimit(LimitCase):
    def test_a_large_stream_is_fixed_alike_with_one_thread_or_none(self):
        text = self.stream()
        args = ["fix", "--config", "/dev/null", "--lock", self.lock(), "--offline", "-"]
        free = self.archfit(args, input=text)
        self.assertEqual(free.code, 0, free)
        self.assertNotEqual(free.stdout, text, "fix changed nothing: the test proves nothing")
        for threads in (0, 1):
            with self.subTest(threads=threads):
                run = self.archfit(args, input=text, preexec_fn=limited(threads),
                                   env=unsanitized_leaks())
                self.assertEqual(run.code, 0, run)
                self.assertNotIn("internal error", run.stderr)
                self.assertTrue(run.stdout == free.stdout, "the output differs from a free run's")

    def test_every_report_is_written_alike_with_no_thread(self):
        path = self.write("stream.yaml", self.stream())
        lock = self.lock()

        def lint(where, preexec_fn=None):
            os.makedirs(where, mode=0o777)
            os.chmod(where, 0o777)
            reports = {fmt: os.path.join(where, f"report.{fmt}")
                       for fmt in ("sarif", "json", "junit", "markdown")}
            run = self.archfit(["lint", "--config", "/dev/null", "--lock", lock, "--offline",
                                *[a for fmt, p in reports.items()
                                  for a in ("--report", f"{fmt}={p}")], path],
                               preexec_fn=preexec_fn, env=unsanitized_leaks())
            self.assertEqual(run.code, 1, run)  # findings: the images run on no common platform
            self.assertNotIn("internal error", run.stderr)
            texts = {}
            for fmt, p in reports.items():
                with open(p) as f:
                    texts[fmt] = f.read()
            return texts

        free = lint(os.path.join(self.tmp, "free"))
        bare = lint(os.path.join(self.tmp, "bare"), limited(0))
        self.assertIn("missing-arch-affinity", free["sarif"])
        for fmt in free:
            with self.subTest(report=fmt):
                self.assertTrue(bare[fmt] == free[fmt], f"the {fmt} report differs")


class ThreadsAskedFor(StreamCase):
    """ARCHFIT_THREADS caps the threads archfit's work runs on; with 1 it starts
    none, so that every run of the same input does the same work in the same
    order (what a build's training from a profile needs)."""

    def traced(self, args, text, env):
        """The run, and the threads it started (strace's log of clone calls)."""
        log = os.path.join(self.tmp, "clones.log")
        run = self.archfit(args, input=text, env={**unsanitized_leaks(), **env},
                           under=["strace", "-f", "-qq", "-e", "trace=clone,clone3",
                                  "-e", "signal=none", "-o", log])
        with open(log) as f:
            return run, [line for line in f if "clone" in line]

    def test_one_thread_starts_none_and_fixes_alike(self):
        text = self.stream()
        args = ["fix", "--config", "/dev/null", "--lock", self.lock(), "--offline", "-"]
        free, free_clones = self.traced(args, text, {})
        one, one_clones = self.traced(args, text, {"ARCHFIT_THREADS": "1"})
        self.assertEqual(free.code, 0, free)
        self.assertEqual(one.code, 0, one)
        self.assertEqual(one_clones, [], "archfit started threads with ARCHFIT_THREADS=1")
        self.assertTrue(one.stdout == free.stdout, "the output differs from a free run's")
        if len(os.sched_getaffinity(0)) > 1:
            self.assertNotEqual(free_clones, [], "a free run started no thread: the test proves "
                                "nothing on this machine's CPUs")

    def test_anything_but_a_whole_number_is_refused_before_any_work(self):
        path = self.write("app.yaml", DEPLOYMENT.format(i=0, image=list(LOCKED)[0]))
        for value in ("0", "-1", "two", "1.5", "--threads=1", "1;reboot", "\x1b[2J"):
            with self.subTest(value=value):
                run = self.archfit(["fix", "--config", "/dev/null", "--lock", self.lock(),
                                    "--offline", path], env={"ARCHFIT_THREADS": value})
                self.assertEqual(run.code, 2, run)
                self.assertIn("ARCHFIT_THREADS is ", run.stderr)
                self.assertIn("from 1 to 4096", run.stderr)
                self.assertNotIn("\x1b", run.stderr, "a control character reached the terminal")
        with open(path) as f:
            self.assertNotIn("affinity", f.read(), "a refused run changed the file")


class ThreadLimitWithARegistry(LimitCase):
    """The registry client's own thread, and the threads resolution shares."""

    def setUp(self):
        super().setUp()
        self.fake = fr.FakeRegistry().start()
        self.addCleanup(self.fake.stop)
        self.images = []
        for i, platform in enumerate(("linux/amd64", "linux/arm64/v8", "linux/s390x")):
            self.fake.tag(f"single/app{i}", "v1", self.fake.store.image(platform, in_index=False))
            self.images.append(self.fake.ref(f"single/app{i}", "v1"))
        self.config = self.write_config({"insecureRegistries": [self.fake.host]})
        os.chmod(self.config, 0o644)

    def resolve_limited(self, threads):
        return self.archfit(["resolve", "--format", "json", "--progress", "always", "--config",
                             self.config, "--cache-dir", os.path.join(self.tmp, "cache"),
                             *self.images], preexec_fn=limited(threads), env=unsanitized_leaks())

    def test_no_thread_for_the_registry_is_an_error_that_says_so(self):
        run = self.resolve_limited(0)
        self.assertEqual(run.code, 3, run)
        self.assertIn("cannot start the thread that talks to registries", run.stderr)
        self.assertIn("ulimit -u", run.stderr)
        self.assertNotIn("internal error", run.stderr)

    def test_one_thread_resolves_every_image(self):
        run = self.resolve_limited(1)
        self.assertEqual(run.code, 0, run)
        results = json.loads(run.stdout)
        self.assertEqual([r.get("platforms") for r in results],
                         [["linux/amd64"], ["linux/arm64"], ["linux/s390x"]], run)


if __name__ == "__main__":
    unittest.main()
