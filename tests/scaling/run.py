#!/usr/bin/env python3
"""Runs rows of the scaling table (table.py) against an archfit executable.

For each row: the input at size 1 (what starting costs), n and 8n is written
to a scratch directory; archfit runs on each as the row's surface says, and
its processor time (user + system, every thread) and peak resident memory are
read from the kernel (wait4). The row holds when

    time(8n) - time(1) <= 12 x max(time(n) - time(1), 50 ms)
    peak(8n)           <= 4 x bytes read(8n) + 50 MiB

A row that fails is run once more before it is reported, so that a burst of
noise on a busy machine is not a failure. A run that is past 12 times what
linear would allow is stopped there.

usage: run.py ARCHFIT [--row NAME]... [--names] [--markdown] [--calibrate]
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import table  # noqa: E402

MIB = 1024 * 1024
TIME_RATIO = 12
MEMORY_FACTOR = 4
MEMORY_SLACK = 50 * MIB
FLOOR = 0.05  # seconds: below this, n's run is mostly noise
TIME = shutil.which("time", path="/usr/bin:/bin") or "/usr/bin/time"  # GNU time


class Measure:
    def __init__(self, cpu, peak, bytes_read, code):
        self.cpu = cpu
        self.peak = peak
        self.bytes_read = bytes_read
        self.code = code


def indent_item(doc):
    """A document as an item of a YAML list (`- ` and two spaces)."""
    lines = doc.rstrip("\n").split("\n")
    return "- " + "\n  ".join(lines) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return len(text.encode("utf-8"))


def prepare(row, n, work):
    """Writes the row's input at size n under `work`; returns (argv tail, stdin path,
    bytes read, working directory)."""
    shape = row.shape(n)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, ".git"))  # the repository's root: discovery stops here
    read = write(os.path.join(work, "archfit.lock"), shape.lock)
    if shape.config:
        read += write(os.path.join(work, ".archfit.yaml"), shape.config)
    surface = row.surface
    stdin = None
    if shape.files is not None:
        for rel, text in shape.files.items():
            read += write(os.path.join(work, "in", rel), text)
        target = os.path.join(work, "in")
    else:
        stream = shape.stream()
        if surface == "krm":
            stream = ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
                      "".join(indent_item(d) for d in stream.split("---\n")))
        name = "app/all.yaml" if surface == "argocd" else "in.yaml"
        read += write(os.path.join(work, name), stream)
        target = os.path.join(work, name)
        if surface in ("post-render", "krm"):
            stdin = target
    common = ["--offline"]
    if surface == "fix":
        args = ["fix"] + common + ["--", target]
    elif surface == "fix-diff":
        args = ["fix", "--diff"] + common + ["--", target]
    elif surface.startswith("lint-"):
        args = ["lint"] + common + ["--fail-on", "never", "--format", surface[5:], "--", target]
    elif surface == "post-render":
        args = ["post-render", "--offline"]
    elif surface == "krm":
        args = ["krm"]
    elif surface == "argocd":
        args = ["argocd", "generate", "plain"]
    elif surface == "images":
        args = ["images", "--", target]
    elif surface == "lock-set":
        args = ["lock", "--set", "registry.example.com/new/app:2.0=linux/amd64,linux/arm64",
                "--lock", os.path.join(work, "archfit.lock")]
    elif surface == "lock-prune":
        # Every entry but the two the manifest uses goes, with no registry.
        args = ["lock", "--prune", "--offline", "--", target]
    elif surface == "lock-diff":
        # --prune again, with the diff of what was written.
        args = ["lock", "--prune", "--offline", "--diff", os.path.join(work, "lock.diff"), "--",
                target]
    else:
        raise ValueError(surface)
    cwd = os.path.join(work, "app") if surface == "argocd" else work
    return args, stdin, read, cwd


def run_once(binary, row, n, work, limit=None):
    args, stdin, read, cwd = prepare(row, n, work)
    # One thread: processor time is then the work, without the waits of two.
    env = dict(os.environ, ARCHFIT_CACHE_DIR=os.path.join(work, "cache"), CI="true",
               ARCHFIT_THREADS="1")
    if row.surface == "argocd":
        env.update(ARGOCD_APP_NAME="scaling", ARGOCD_APP_NAMESPACE="default",
                   ARGOCD_APP_SOURCE_PATH="app")
    # A process forked from this one starts with this one's memory in its
    # peak: GNU time, small once it has started, forks archfit and reads its
    # peak alone. The processor time of time's own wait4 includes archfit's.
    peak_file = os.path.join(work, "peak")
    with open(stdin or os.devnull, "rb") as fin, open(os.devnull, "wb") as fout, \
            tempfile.TemporaryFile() as ferr:
        p = subprocess.Popen([TIME, "-q", "-f", "%M", "-o", peak_file, binary] + args, stdin=fin,
                             stdout=fout, stderr=ferr, cwd=cwd, env=env, start_new_session=True)
        start = time.monotonic()
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid != 0:
                break
            if limit is not None and time.monotonic() - start > limit:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        code = os.waitstatus_to_exitcode(status)
        ferr.seek(0)
        err = ferr.read().decode("utf-8", "replace")
    p.returncode = code
    stopped = limit is not None and time.monotonic() - start > limit
    if code not in (0, 1) and not stopped:
        raise RuntimeError(f"{row.name} at n={n}: archfit {' '.join(args)} exited {code}:\n"
                           f"{err[-2000:]}")
    peak = 0
    if not stopped:
        with open(peak_file, encoding="ascii") as f:
            peak = int(f.read().split()[-1]) * 1024
    return Measure(usage.ru_utime + usage.ru_stime, peak, read, -9 if stopped else code)


def judge(binary, row, scratch):
    base = run_once(binary, row, 1, os.path.join(scratch, "one"))
    small = run_once(binary, row, row.n, os.path.join(scratch, "n"))
    work_n = max(small.cpu - base.cpu, FLOOR)
    # Wall time is at least processor time over the cores: past this, stop.
    limit = 2 * (TIME_RATIO * work_n + base.cpu) + 5
    large = run_once(binary, row, 8 * row.n, os.path.join(scratch, "8n"), limit)
    ratio = (large.cpu - base.cpu) / work_n
    bound = MEMORY_FACTOR * large.bytes_read + MEMORY_SLACK
    problems = []
    if large.code == -9:
        problems.append(f"8n was stopped after {limit:.1f} s")
    elif ratio > TIME_RATIO:
        problems.append(f"time ratio {ratio:.1f} > {TIME_RATIO}")
    if large.peak > bound:
        problems.append(f"peak {large.peak / MIB:.0f} MiB > {bound / MIB:.0f} MiB")
    return {"row": row, "base": base, "n": small, "8n": large, "ratio": ratio, "bound": bound,
            "problems": problems}


def describe(r):
    row = r["row"]
    return (f"{row.name:44} n={row.n:<7} {r['n'].cpu:6.3f} s -> {r['8n'].cpu:6.3f} s "
            f"(x{r['ratio']:5.1f}, start {r['base'].cpu:.3f} s); 8n read "
            f"{r['8n'].bytes_read / MIB:6.1f} MiB, peak {r['8n'].peak / MIB:6.1f} MiB "
            f"(bound {r['bound'] / MIB:.0f})" + (" FAILED: " + "; ".join(r["problems"])
                                                   if r["problems"] else ""))


def markdown(results):
    """One line per dimension: its surfaces, the largest time ratio and the
    largest peak of them, against the bound of that run."""
    out = ["| dimension | n | surfaces | time 8n / n, at most | 8n read | 8n peak, at most (bound) |",
           "|---|---|---|---|---|---|"]
    by_dimension = {}
    for r in results:
        by_dimension.setdefault(r["row"].dimension, []).append(r)
    for rows in by_dimension.values():
        first = rows[0]["row"]
        worst = max(rows, key=lambda r: r["8n"].peak)
        bound = 4 * worst["8n"].bytes_read + 50 * MIB
        out.append(f"| {first.dimension}: {first.what} | {first.n} | "
                   f"{', '.join(r['row'].surface for r in rows)} | "
                   f"{max(r['ratio'] for r in rows):.1f} | {worst['8n'].bytes_read / MIB:.1f} MiB | "
                   f"{worst['8n'].peak / MIB:.0f} MiB ({bound / MIB:.0f}) |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--row", action="append", default=[], help="a row's name (dimension/surface)")
    ap.add_argument("--names", action="store_true", help="print the rows' names")
    ap.add_argument("--markdown", action="store_true", help="print the results as a table")
    args = ap.parse_args()
    if args.names:
        for row in table.ROWS:
            print(row.name)
        return 0
    if args.binary is None:
        ap.error("give the archfit executable")
    rows = table.ROWS
    if args.row:
        known = {r.name: r for r in table.ROWS}
        missing = [name for name in args.row if name not in known]
        if missing:
            print(f"run.py: no row {', '.join(missing)}", file=sys.stderr)
            return 2
        rows = [known[name] for name in args.row]
    binary = os.path.abspath(args.binary)
    results = []
    failed = 0
    # In memory where there is a tmpfs: on a disk's file system, creating
    # thousands of files just after deleting thousands costs the kernel more
    # each time (ext4 looks through recently freed inodes), which is not
    # archfit's time.
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="archfit-scaling.", dir=shm) as scratch:
        for row in rows:
            r = judge(binary, row, scratch)
            if r["problems"]:
                r = judge(binary, row, scratch)  # once more: noise is not a failure
            failed += bool(r["problems"])
            results.append(r)
            print(describe(r), flush=True)
    if args.markdown:
        print(markdown(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
