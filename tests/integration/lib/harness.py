"""Shared plumbing for the integration tests and the benchmark: finding the
real tools (a missing one is a failure that says how to install it, never a
skip), free ports, temp dirs, child processes that cannot outlive us, and
running archfit."""

import atexit
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading

# Debian package that provides each tool scripts/test installs.
PACKAGES = {"docker-registry": "docker-registry", "skopeo": "skopeo",
            "htpasswd": "apache2-utils", "openssl": "openssl"}


class MissingTool(RuntimeError):
    pass


def require_tool(name):
    path = shutil.which(name)
    if not path:
        pkg = PACKAGES.get(name, name)
        raise MissingTool(f"{name} is not installed: run `apt-get install -y {pkg}` "
                          f"(scripts/test installs it)")
    return path


def archfit_binary():
    """The archfit under test: $ARCHFIT_BINARY (ctest sets it), else build/archfit."""
    path = os.environ.get("ARCHFIT_BINARY")
    if not path:
        root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
        path = os.path.join(root, "build", "archfit")
    if not os.access(path, os.X_OK):
        raise MissingTool(f"archfit binary {path} not found: build it (cmake --build build) "
                          f"or set ARCHFIT_BINARY")
    return path


def free_port():
    """A port nobody listens on right now. Racy by nature; callers that bind
    through another program retry when it reports the port taken."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def temp_dir(prefix, parent=None):
    """A directory removed at exit, whatever happens to the test; in `parent`
    when given, else in the system's temporary directory."""
    path = tempfile.mkdtemp(prefix=f"archfit-{prefix}-", dir=parent)
    atexit.register(shutil.rmtree, path, True)
    return path


# -- child processes ---------------------------------------------------

_children = set()
_children_lock = threading.Lock()
_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    # Runs in the child between fork and exec: if this Python process is
    # killed outright (ctest's timeout sends SIGKILL), the kernel sends the
    # child SIGTERM, so no registry is left listening.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except Exception:
        pass


def spawn(args, **kwargs):
    """Popen that is stopped at exit and dies with us. Call it from the main
    thread: PDEATHSIG fires when the *thread* that forked ends."""
    proc = subprocess.Popen(args, preexec_fn=_die_with_parent, **kwargs)
    with _children_lock:
        _children.add(proc)
    return proc


def stop(proc, grace=5.0):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    with _children_lock:
        _children.discard(proc)


@atexit.register
def _stop_all():
    for proc in list(_children):
        stop(proc, grace=2.0)


def _exit_on_sigterm(signum, frame):
    sys.exit(128 + signum)  # runs atexit handlers, unlike the default action


if threading.current_thread() is threading.main_thread():
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)


# -- running archfit ---------------------------------------------------

class Run:
    def __init__(self, args, code, stdout, stderr, seconds):
        self.args, self.code, self.stdout, self.stderr = args, code, stdout, stderr
        self.seconds = seconds

    def __repr__(self):
        return (f"archfit {' '.join(self.args)}\n  exit {self.code} after {self.seconds:.2f}s"
                f"\n  stdout: {self.stdout[:2000]}\n  stderr: {self.stderr[:2000]}")


def unsanitized_leaks():
    """The environment for archfit where a sanitizer's leak check cannot run: it
    starts a thread of its own at exit (which a limit on processes refuses) and
    does not work under ptrace (strace)."""
    options = os.environ.get("ASAN_OPTIONS", "")
    return {"ASAN_OPTIONS": (options + ":" if options else "") + "detect_leaks=0"}


def run_archfit(args, env=None, timeout=60, cwd=None, input=None, preexec_fn=None, under=(),
                binary=None):
    """Runs archfit as a user would; a hang is a test failure, not a stuck suite.
    `input` is its standard input (text); `preexec_fn` runs in the child
    before archfit starts (limits a test puts on it); `under` is a command
    that runs archfit (strace and its options); `binary` another copy of the
    executable under test (one another user can reach)."""
    import time
    full_env = dict(os.environ)
    # The tests' own settings only: no credentials or cache of the machine.
    for key in list(full_env):
        if key.startswith("ARCHFIT_") and key != "ARCHFIT_BINARY":
            del full_env[key]
    full_env.pop("DOCKER_CONFIG", None)
    full_env.pop("REGISTRY_AUTH_FILE", None)
    full_env.pop("XDG_CACHE_HOME", None)
    # Whether a run is unattended (an unresolved image fails it) is the test's choice, not the
    # machine's: a CI runner sets CI=true.
    for key in ("CI", "PRE_COMMIT", "ARGOCD_APP_NAME"):
        full_env.pop(key, None)
    full_env["HOME"] = temp_dir("home")
    full_env.update(env or {})
    start = time.monotonic()
    try:
        proc = subprocess.run([*under, binary or archfit_binary(), *args], capture_output=True, text=True,
                              env=full_env, timeout=timeout, cwd=cwd, input=input,
                              preexec_fn=preexec_fn)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"archfit {' '.join(args)} did not finish within {timeout}s "
                             f"(stderr so far: {e.stderr!r})") from None
    return Run(args, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)
