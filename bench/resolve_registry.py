#!/usr/bin/env python3
"""The resolution benchmark: archfit against a `skopeo inspect --raw` loop,
both through a proxy that adds 50 ms to every request (a registry on the
same continent), over 300 distinct images in a real docker-registry.

Setup, not timed: start docker-registry on 127.0.0.1, push 300 images (a
quarter each OCI indexes, Docker manifest lists, OCI and Docker single
images, all distinct digests sharing one layer) with parallel skopeo copies,
write a stream of 300 Deployments using them, start the proxy.

Timed, in one run:
  baseline  sequential `skopeo inspect --raw` of every image (what a script
            does today), once (it takes about a minute)
  cold      `archfit lock` of the stream with an empty cache
  warm      the same again: every tag within its TTL, no request expected
  expired   tagTTL 0 with every digest cached: one HEAD per image, no GET
archfit's phases run --repeat rounds (fresh cache each round), best time.

Targets: baseline / cold >= 20; cold / floor <= 2, where floor =
ceil(images / concurrency) x round trips per image (requests the cold run
made / images) x delay: the time a perfect client making the same requests,
--concurrency at a time, could not beat. Checks: the lock file has the right
digest and platforms for every image; warm makes 0 requests; expired makes
exactly one manifest HEAD per image and no GET.

Prints a report, then one line of key=value fields for bench/run. Exit 0 all
targets and checks met, 1 a target or check missed, 2 could not run.
"""

import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))

from delay_proxy import DelayProxy  # noqa: E402
from lib import harness, oci  # noqa: E402
from lib.registry import Registry  # noqa: E402

KINDS = [  # (platforms built, skopeo --format, expected platforms)
    (["linux/amd64", "linux/arm64/v8"], None, ["linux/amd64", "linux/arm64"]),
    (["linux/amd64", "linux/arm/v7"], "v2s2", ["linux/amd64", "linux/arm/v7"]),
    (["linux/arm64"], None, ["linux/arm64"]),
    (["linux/amd64"], "v2s2", ["linux/amd64"]),
]

DEPLOYMENT = """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{n}
spec:
  selector:
    matchLabels: {{app: app-{n}}}
  template:
    metadata:
      labels: {{app: app-{n}}}
    spec:
      containers:
      - name: main
        image: {image}
"""


def log(msg):
    print(f"resolve_registry: {msg}", file=sys.stderr, flush=True)


def push_images(registries, count, jobs, work, kinds=KINDS, prefix="bench"):
    """Builds `count` distinct images of `kinds` in turn and pushes each into every
    registry (a Registry or a list); returns [(repo:tag, digest, platforms)]."""
    if not isinstance(registries, (list, tuple)):
        registries = [registries]
    store, tags, plan = oci.Store(), {}, []
    for i in range(count):
        platforms, fmt, expected = kinds[i % len(kinds)]
        if len(platforms) > 1:
            desc = store.index([store.image(p, label=i) for p in platforms])
        else:
            desc = store.image(platforms[0], label=i, in_index=False)
        tag = f"img{i}"
        tags[tag] = desc
        plan.append((tag, f"{prefix}/app{i // 5:03d}:v{i % 5}", fmt, expected))
    layout = os.path.join(work, "layout")
    store.write_layout(layout, tags)
    # Parallel across repositories, in turn within one: docker-registry 2.8's
    # filesystem driver answers 500 when two pushes link a blob into the same
    # repository at once.
    by_repo = {}
    for i, (tag, ref, fmt, _) in enumerate(plan):
        by_repo.setdefault(ref.split(":")[0], []).append((i, tag, ref, fmt))
    digests = {}

    def push_repo(job):
        registry, items = job
        for i, tag, ref, fmt in items:
            digests[(registry.host, i)] = registry.push(layout, tag, ref, fmt)

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(push_repo, [(r, items) for r in registries for items in by_repo.values()]))
    first = registries[0].host
    if any(digests[(r.host, i)] != digests[(first, i)] for r in registries for i in range(count)):
        raise RuntimeError("the registries gave the same image different digests")
    return [(ref, digests[(first, i)], expected) for i, (_, ref, _, expected) in enumerate(plan)]


def timed(args, env=None):
    start = time.monotonic()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:3])} ... exited {proc.returncode}: "
                           f"{proc.stderr.strip()[-2000:]}")
    return seconds


def baseline(skopeo, refs):
    start = time.monotonic()
    for ref in refs:
        proc = subprocess.run([skopeo, "inspect", "--raw", "--tls-verify=false",
                               f"docker://{ref}"], capture_output=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"skopeo inspect {ref}: {proc.stderr.decode().strip()}")
    return time.monotonic() - start


def check_lock(path, images):
    with open(path) as f:
        got = json.load(f)["images"]
    wrong = [ref for ref, digest, platforms in images
             if got.get(ref) != {"digest": digest, "platforms": platforms}]
    return wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--archfit", default=os.path.join(ROOT, "build", "archfit"))
    ap.add_argument("--images", type=int, default=300)
    ap.add_argument("--concurrency", type=int, default=16, help="archfit's (default 16)")
    ap.add_argument("--delay-ms", type=float, default=50.0)
    ap.add_argument("--repeat", type=int, default=3, help="rounds of archfit's phases")
    ap.add_argument("--baseline-repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=4, help="parallel skopeo copies in setup")
    ap.add_argument("--keep", action="store_true", help="keep the work dir")
    args = ap.parse_args()

    try:
        skopeo = harness.require_tool("skopeo")
        harness.require_tool("docker-registry")
        if not os.access(args.archfit, os.X_OK):
            raise harness.MissingTool(f"{args.archfit} does not exist (build archfit first)")
    except harness.MissingTool as e:
        log(str(e))
        return 2
    if args.keep:
        work = tempfile.mkdtemp(prefix="archfit-bench-resolve-")
        log(f"work dir {work} (kept)")
    else:
        work = harness.temp_dir("bench-resolve")

    setup_start = time.monotonic()
    with Registry() as registry, DelayProxy(registry.url, args.delay_ms / 1000.0) as proxy:
        try:
            images = push_images(registry, args.images, args.jobs, work)
        except RuntimeError as e:
            log(f"error: setup failed: {e}")
            return 2
        setup = time.monotonic() - setup_start
        log(f"setup: {len(images)} images pushed in {setup:.1f} s (not timed)")
        images = [(f"{proxy.host}/{ref}", digest, exp) for ref, digest, exp in images]
        stream = os.path.join(work, "stream.yaml")
        with open(stream, "w") as f:
            for n, (ref, _, _) in enumerate(images):
                f.write(DEPLOYMENT.format(n=n, image=ref))

        def config(name, **extra):
            path = os.path.join(work, name)
            with open(path, "w") as f:
                f.write("apiVersion: archfit.io/v1alpha1\nkind: ArchFit\nresolve:\n"
                        f"  insecureRegistries: [\"{proxy.host}\"]\n"
                        f"  concurrency: {args.concurrency}\n")
                for key, value in extra.items():
                    f.write(f"  {key}: {value}\n")
            return path

        plain = config("archfit.yaml")
        expired = config("expired.yaml", tagTTL="{default: 0, IfNotPresent: 0, Always: 0}")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ARCHFIT_", "DOCKER_"))}
        env["HOME"] = work
        best = {"baseline": math.inf, "cold": math.inf, "warm": math.inf, "expired": math.inf}
        counts = {}
        try:
            for i in range(args.baseline_repeat):
                log(f"baseline round {i + 1}: skopeo inspect --raw x {len(images)}")
                proxy.reset()
                best["baseline"] = min(best["baseline"], baseline(skopeo, [r for r, _, _ in images]))
                counts["baseline"] = proxy.reset()
            for i in range(args.repeat):
                cache = os.path.join(work, f"cache-{i}")
                lock = os.path.join(work, f"archfit-{i}.lock")
                for phase, cfg in (("cold", plain), ("warm", plain), ("expired", expired)):
                    log(f"round {i + 1}: archfit lock, {phase}")
                    proxy.reset()
                    seconds = timed([args.archfit, "lock", "--config", cfg, "--lock", lock,
                                     "--cache-dir", cache, stream], env)
                    best[phase] = min(best[phase], seconds)
                    counts[phase] = proxy.reset()
                    if phase == "cold":
                        wrong = check_lock(lock, images)
                        if wrong:
                            raise RuntimeError(f"the lock file is wrong for {len(wrong)} "
                                               f"images, e.g. {wrong[0]}")
                shutil.rmtree(cache, ignore_errors=True)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            log(f"error: {e}")
            return 2
    return report(args, len(images), setup, best, counts)


def report(args, n, setup, best, counts):
    cold = counts["cold"]
    per_image = cold["total"] / n
    floor = math.ceil(n / args.concurrency) * per_image * args.delay_ms / 1000.0
    speedup = best["baseline"] / best["cold"]
    floor_ratio = best["cold"] / floor
    exp = counts["expired"]["by_kind"]
    heads = exp.get("manifest", {}).get("HEAD", 0)
    gets = exp.get("manifest", {}).get("GET", 0) + exp.get("blob", {}).get("GET", 0)
    checks = [
        ("baseline / archfit cold >= 20", f"{speedup:.1f}x", speedup >= 20),
        ("archfit cold / floor <= 2", f"{floor_ratio:.2f}", floor_ratio <= 2),
        ("warm run makes 0 requests", str(counts["warm"]["total"]), counts["warm"]["total"] == 0),
        (f"expired tags: {n} HEAD, 0 GET", f"{heads} HEAD, {gets} GET",
         heads == n and gets == 0),
    ]
    base_per_image = counts["baseline"]["total"] / n
    print(f"\nresolution of {n} distinct images through a {args.delay_ms:g} ms proxy "
          f"(setup {setup:.1f} s, not timed)")
    print(f"  {'phase':<10} {'seconds':>9} {'requests':>9} {'per image':>10}")
    for phase in ("baseline", "cold", "warm", "expired"):
        total = counts[phase]["total"]
        print(f"  {phase:<10} {best[phase]:9.3f} {total:9d} {total / n:10.2f}")
    print(f"  floor: ceil({n}/{args.concurrency}) x {per_image:.2f} round trips x "
          f"{args.delay_ms:g} ms = {floor:.3f} s")
    print(f"  cold requests by kind: {json.dumps(cold['by_kind'], sort_keys=True)}")
    print(f"  expired requests by kind: {json.dumps(exp, sort_keys=True)}")
    for name, value, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}: {value}")
    print(f"seconds={best['cold']:.4f} baseline_seconds={best['baseline']:.4f} "
          f"warm_seconds={best['warm']:.4f} expired_seconds={best['expired']:.4f} "
          f"floor_seconds={floor:.4f} speedup={speedup:.2f} floor_ratio={floor_ratio:.3f} "
          f"requests_per_image={per_image:.2f} baseline_requests_per_image={base_per_image:.2f} "
          f"warm_requests={counts['warm']['total']} expired_head={heads} expired_get={gets} "
          f"images={n} concurrency={args.concurrency} setup_seconds={setup:.1f} "
          f"result={'PASS' if all(ok for _, _, ok in checks) else 'FAIL'}")
    return 0 if all(ok for _, _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
