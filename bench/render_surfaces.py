#!/usr/bin/env python3
"""What archfit costs inside render pipelines (bench/run render).

krm   `archfit krm` of the synthetic stream as one ResourceList
      (bench/to_resource_list.py) against `archfit fix -` of the stream itself,
      both offline from its lock; target <= 1.2x.
helm  `helm template` (helm 3) of a chart of 500 templates with and without
      `--post-renderer helm-plugin/archfit-post-render`; target: archfit adds at
      most 20% of helm's own time.

usage: render_surfaces.py ARCHFIT ROOT STREAM LOCK HELM REPEAT
Prints: krm=<s> fix=<s> helm_plain=<s> helm_post=<s> (best of REPEAT interleaved rounds)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

ARCHFIT, ROOT, STREAM, LOCK, HELM, REPEAT = sys.argv[1:7]
REPEAT = int(REPEAT)
work = tempfile.mkdtemp(prefix="render-bench-")
empty = os.path.join(work, "empty.yaml")
open(empty, "w").close()
listed = os.path.join(work, "list.yaml")
subprocess.run([sys.executable, os.path.join(ROOT, "bench", "to_resource_list.py"), STREAM, listed], check=True)


def timed(cmd, stdin_path, **kw):
    with open(stdin_path) as f:
        start = time.monotonic()
        p = subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
        seconds = time.monotonic() - start
    if p.returncode != 0:
        raise SystemExit(f"render_surfaces: {cmd[:3]} exited {p.returncode}: {p.stderr.decode()[-500:]}")
    return seconds


common = ["--offline", "--config", empty, "--lock", LOCK]
krm, fix = [], []
for i in range(REPEAT):
    for side in (("krm", "fix") if i % 2 == 0 else ("fix", "krm")):
        if side == "krm":
            krm.append(timed([ARCHFIT, "krm", *common], listed))
        else:
            fix.append(timed([ARCHFIT, "fix", "-q", *common, "-"], STREAM))

chart = os.path.join(work, "chart")
os.makedirs(os.path.join(chart, "templates"))
with open(os.path.join(chart, "Chart.yaml"), "w") as f:
    f.write("apiVersion: v2\nname: big\nversion: 0.1.0\n")
with open(os.path.join(chart, "values.yaml"), "w") as f:
    f.write("image: docker.elastic.co/elasticsearch/elasticsearch:6.8.23\n")
for i in range(500):
    with open(os.path.join(chart, "templates", f"app-{i}.yaml"), "w") as f:
        f.write(f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{{{ .Release.Name }}}}-{i}\n"
                f"spec:\n  selector:\n    matchLabels: {{app: a{i}}}\n  template:\n    metadata:\n"
                f"      labels: {{app: a{i}}}\n    spec:\n      containers:\n      - name: app\n"
                f"        image: {{{{ .Values.image }}}}\n")
shutil.copy(os.path.join(ROOT, "examples", "archfit.lock"), work)
bindir = os.path.join(work, "bin")
os.makedirs(bindir)
os.symlink(ARCHFIT, os.path.join(bindir, "archfit"))
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], HOME=work, ARCHFIT_OFFLINE="1",
           ARCHFIT_CACHE_DIR=os.path.join(work, "cache"))
post = ["--post-renderer", os.path.join(ROOT, "helm-plugin", "archfit-post-render")]
plain_t, post_t = [], []
for i in range(REPEAT):
    for side in (("plain", "post") if i % 2 == 0 else ("post", "plain")):
        cmd = [HELM, "template", "big", chart] + (post if side == "post" else [])
        t = timed(cmd, os.devnull, cwd=work, env=env)
        (plain_t if side == "plain" else post_t).append(t)
print(f"krm={min(krm):.3f} fix={min(fix):.3f} helm_plain={min(plain_t):.3f} helm_post={min(post_t):.3f}")
shutil.rmtree(work)
