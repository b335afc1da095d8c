#!/usr/bin/env python3
"""Two or more builds of archfit that differ in their heap, timed on one input
in interleaved rounds (the order reversed every other round): `fix -q` from
stdin to stdout, and `lint` writing SARIF, JSON and GitHub reports to files
and Markdown to stdout. Prints wall and processor time, best and median, as
ratios against the first build, and each build's peak RSS.

  python3 bench/gen_stream.py --workloads 20000 --out big.yaml --lock big.lock
  python3 bench/heaps.py --stream big.yaml --lock big.lock --rounds 11 A/archfit B/archfit

(bench/JOURNAL.md, "mimalloc")
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stream", required=True)
    ap.add_argument("--lock", required=True)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("builds", nargs="+")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="archfit-heaps.")
    common = ["--offline", "--progress=never", "--config=/dev/null", f"--lock={os.path.abspath(a.lock)}"]
    jobs = {
        "fix": (["fix", "-q", *common, "--", "-"], os.path.abspath(a.stream)),
        "lint": (["lint", *common, "--fail-on=never", f"--report=sarif={work}/r.sarif",
                  f"--report=json={work}/r.json", f"--report=github={work}/r.gh", "--report=markdown",
                  "--", os.path.abspath(a.stream)], None),
    }
    builds = [os.path.abspath(b) for b in a.builds]
    times = {(b, j): [] for b in builds for j in jobs}
    env = dict(os.environ, HOME=work)
    for r in range(a.rounds):
        for j, (args, stdin) in jobs.items():
            for b in builds if r % 2 == 0 else list(reversed(builds)):
                start = time.perf_counter()
                with open(stdin or os.devnull, "rb") as i:
                    p = subprocess.Popen([b, *args], stdin=i, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, env=env, cwd=work)
                    _, status, usage = os.wait4(p.pid, 0)
                wall = time.perf_counter() - start
                code = os.waitstatus_to_exitcode(status)
                if code not in (0, 1):
                    raise SystemExit(f"{b} {j} exited {code}")
                times[(b, j)].append((wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
    for j in jobs:
        base = None
        for b in builds:
            walls = sorted(t[0] for t in times[(b, j)])
            cpus = sorted(t[1] for t in times[(b, j)])
            peak = max(t[2] for t in times[(b, j)])
            row = (walls[0], statistics.median(walls), cpus[0], statistics.median(cpus))
            base = base or row
            print(f"{j:5} {b}: wall best {row[0]:.3f}s ({row[0] / base[0]:.3f}x) median {row[1]:.3f}s "
                  f"({row[1] / base[1]:.3f}x); cpu best {row[2]:.3f}s ({row[2] / base[2]:.3f}x) median "
                  f"{row[3]:.3f}s ({row[3] / base[3]:.3f}x); peak {peak:.0f} MiB")


if __name__ == "__main__":
    main()
