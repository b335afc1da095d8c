#!/usr/bin/env python3
"""What the archfit post-renderer adds to `helm template` of a real chart (bench/run chart).

The chart is a local copy given by path (kube-prometheus-stack unpacked with its
dependencies in charts/, e.g. `helm pull prometheus-community/kube-prometheus-stack
--untar`): helm renders it from disk, so nothing is fetched while timing. The lock
file is written here from the chart's own rendering (every image it names, on
linux/amd64 and linux/arm64), so the post-renderer runs offline and every workload
gets placed.

helm 3 takes the post-renderer as a path (helm-plugin/archfit-post-render); helm 4
as the plugin `archfit`, installed from ROOT into a private HOME. Each round runs,
for each helm, `helm template` without a post-renderer, with `cat` as its
post-renderer (what helm itself spends on post-rendering: writing the stream to
the post-renderer and reading it back, and for helm 4 writing it again) and with
archfit's, alternating the order; the best time of each counts.

usage: helm_chart.py ARCHFIT ROOT CHART HELM3 HELM4 REPEAT
Prints: helmN_plain=<s> helmN_cat=<s> helmN_post=<s> for N = 3, 4, alone=<s> (the
post-renderer by itself on helm 3's rendering), workloads=<n> bytes=<n>
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

ARCHFIT, ROOT, CHART, HELM3, HELM4 = map(os.path.abspath, sys.argv[1:6])
REPEAT = int(sys.argv[6])
WORKLOAD = re.compile(r"(?m)^kind: (Deployment|DaemonSet|StatefulSet|ReplicaSet|Job|CronJob|Pod)\s*$")
HOOK = re.compile(r"(?m)^\s+\"?helm\.sh/hook\"?:")


def fail(message):
    raise SystemExit(f"helm_chart: {message}")


def documents(text):
    return re.split(r"(?m)^---[ \t]*$", text)


def normal(value):
    """What helm 4 keeps when it writes a post-rendered stream again: no null or empty
    mapping values, no blanks at the ends of a string's lines."""
    if isinstance(value, dict):
        kept = {k: normal(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v is not None and v != {}}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"[ \t]+(?=\n|$)", "", value)
    return value


def data(docs):
    """The documents as data, in a fixed order."""
    loaded = (yaml.safe_load(d) for d in docs)
    return sorted(json.dumps(normal(d), sort_keys=True) for d in loaded if d is not None)


work = tempfile.mkdtemp(prefix="helm-chart-bench-")
try:
    home = os.path.join(work, "home")
    bindir = os.path.join(work, "bin")
    os.makedirs(home)
    os.makedirs(bindir)
    os.symlink(ARCHFIT, os.path.join(bindir, "archfit"))
    config = os.path.join(work, "empty.yaml")
    open(config, "w").close()
    lock = os.path.join(work, "archfit.lock")
    env = dict(os.environ, HOME=home, PATH=bindir + os.pathsep + os.environ["PATH"],
               XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_DATA_HOME=os.path.join(home, ".local", "share"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), ARCHFIT_CACHE_DIR=os.path.join(work, "cache"),
               ARCHFIT_OFFLINE="1", ARCHFIT_CONFIG=config, ARCHFIT_LOCK=lock)
    for name in ("XDG_STATE_HOME", "ARCHFIT_POST_RENDER_LOG", "HELM_PLUGINS"):
        env.pop(name, None)

    # helm 3 cannot read a helm 4 plugin's plugin.yaml: it gets a plugin directory of its own.
    env3 = dict(env, HELM_PLUGINS=os.path.join(work, "helm3-plugins"))

    def environ(binary):
        return env3 if binary == HELM3 else env

    def helm(binary, *args):
        p = subprocess.run([binary, *args], cwd=work, env=environ(binary), capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"{os.path.basename(binary)} {' '.join(args[:2])} exited {p.returncode}: {p.stderr[-800:]}")
        return p.stdout

    def template(*post):
        # A fixed password: the chart's grafana would make a random one on every run.
        return ["template", "bench", "--set", "grafana.adminPassword=bench", *post, "--", CHART]

    plain = helm(HELM3, *template())
    images = sorted(set(m.strip("\"'") for m in re.findall(r"(?m)^\s*-?\s*image:\s*(\S+)\s*$", plain)))
    if not images:
        fail(f"{CHART} renders no image")
    with open(lock, "w") as f:
        json.dump({"version": 1, "images": {i: {"platforms": ["linux/amd64", "linux/arm64"]} for i in images}}, f)

    # `cat` as the post-renderer: what helm itself spends on post-rendering (writing
    # the stream out, reading it back; helm 4 also writes it again).
    cat_dir = os.path.join(work, "cat")
    os.makedirs(cat_dir)
    cat = os.path.join(cat_dir, "cat-post-render")
    with open(cat, "w") as f:
        f.write("#!/bin/sh\nexec cat\n")
    os.chmod(cat, 0o755)
    with open(os.path.join(cat_dir, "plugin.yaml"), "w") as f:
        f.write("apiVersion: v1\ntype: postrenderer/v1\nname: cat\nversion: 0.1.0\nruntime: subprocess\n"
                "runtimeConfig:\n  platformCommand:\n    - os: linux\n      command: /bin/cat\n")
    helm(HELM4, "plugin", "install", ROOT)
    helm(HELM4, "plugin", "install", cat_dir)
    sides = {
        "helm3": (HELM3, ["--post-renderer", os.path.join(ROOT, "helm-plugin", "archfit-post-render")],
                  ["--post-renderer", cat]),
        "helm4": (HELM4, ["--post-renderer", "archfit"], ["--post-renderer", "cat"]),
    }
    # The post-rendered chart must be, as data, the rendered chart fixed by archfit
    # directly (helm 3 prints hooks as rendered, beside the post-rendered stream),
    # and must differ from it.
    workloads = 0
    for name, (binary, post, _) in sides.items():
        rendered = helm(binary, *template())
        fixed = subprocess.run([ARCHFIT, "post-render"], input=rendered, cwd=work, env=env, capture_output=True,
                               text=True)
        if fixed.returncode != 0:
            fail(f"archfit post-render of {name}'s rendering exited {fixed.returncode}: {fixed.stderr[-500:]}")
        want = documents(fixed.stdout)
        if name == "helm3":
            want = [d for d in want if not HOOK.search(d)] + [d for d in documents(rendered) if HOOK.search(d)]
        got = helm(binary, *template(*post))
        if got == rendered:
            fail(f"{name}: the post-renderer changed nothing")
        if data(documents(got)) != data(want):
            fail(f"{name}: the post-rendered chart is not the rendered chart fixed by archfit")
        workloads = sum(1 for d in documents(got) if WORKLOAD.search(d))

    times = {f"{name}_{side}": [] for name in sides for side in ("plain", "cat", "post")}
    for i in range(REPEAT):
        for name, (binary, post, cat_post) in sides.items():
            for side in (("plain", "cat", "post") if i % 2 == 0 else ("post", "cat", "plain")):
                extra = {"plain": [], "cat": cat_post, "post": post}[side]
                args = [binary, *template(*extra)]
                start = time.monotonic()
                p = subprocess.run(args, cwd=work, env=environ(binary), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                times[f"{name}_{side}"].append(time.monotonic() - start)
                if p.returncode != 0:
                    fail(f"{name} {side} exited {p.returncode}: {p.stderr.decode()[-500:]}")
    # The post-renderer by itself on helm 3's rendering, as helm runs it: the part
    # of the difference above that is archfit's, without helm's noise around it.
    rendered = helm(HELM3, *template()).encode()
    alone = []
    for _ in range(3 * REPEAT):
        start = time.monotonic()
        subprocess.run([os.path.join(ROOT, "helm-plugin", "archfit-post-render")], input=rendered, cwd=work, env=env,
                       stdout=subprocess.DEVNULL, check=True)
        alone.append(time.monotonic() - start)
    times["alone"] = alone
    print(" ".join(f"{k}={min(v):.4f}" for k, v in times.items()) + f" workloads={workloads} bytes={len(plain)}")
finally:
    shutil.rmtree(work)
