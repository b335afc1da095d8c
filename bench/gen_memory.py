#!/usr/bin/env python3
"""Generate the inputs of archfit's memory benchmark (bench/run memory).

Each shape is an input whose size archfit's peak memory must stay proportional to
(at most 4x the bytes it reads plus 50 MiB), in lint and in fix:

  tiny        1,000,000 documents of one line each (`kind: CM`), 13 MB
  deployments 100,000 small Deployments (~36 MB) using 300 images, all in the lock file
  images      100 Deployments of 1,000 containers each: 100,000 distinct images no lock
              file knows (every one a finding, read offline)
  lock        one Deployment and a lock file of 500,000 images (~60 MB)
  scalar      one Deployment whose container carries a 200 MB argument (a plain scalar
              on one line), its image in the lock file

The output is deterministic. Usage:

  gen_memory.py SHAPE --out FILE [--lock FILE] [--count N]

writes the manifest stream to FILE and, for `deployments`, `lock` and `scalar`, the lock file.
"""

import argparse
import json
import sys

def deployment(name, containers, out):
    out.write(
        f"""---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      containers:
"""
    )
    for line in containers:
        out.write(line)


def write_lock(path, images):
    with open(path, "w") as f:
        f.write('{\n  "images": {\n')
        last = len(images) - 1
        for i, image in enumerate(images):
            comma = "," if i < last else ""
            f.write(f'    {json.dumps(image)}: {{\n      "platforms": [\n'
                    f'        "linux/amd64",\n        "linux/arm64"\n      ]\n    }}{comma}\n')
        f.write('  },\n  "version": 1\n}\n')


def tiny(args):
    count = args.count or 1_000_000
    with open(args.out, "w") as f:
        chunk = "---\nkind: CM\n" * 1000
        for _ in range(count // 1000):
            f.write(chunk)
        f.write("---\nkind: CM\n" * (count % 1000))


def deployments(args):
    count = args.count or 100_000
    if not args.lock:
        sys.exit("gen_memory.py: deployments needs --lock")
    with open(args.out, "w") as f:
        for d in range(count):
            deployment(f"web-{d}", [f"      - name: web\n        image: reg.example/team/app{d % 300}:1\n"
                                    "        args: [--port=8080]\n"], f)
    write_lock(args.lock, [f"reg.example/team/app{i}:1" for i in range(300)])


def images(args):
    count = args.count or 100_000
    per = 1000
    with open(args.out, "w") as f:
        for d in range(max(1, count // per)):
            lines = [f"      - name: c{i}\n        image: reg.example/team/app{d * per + i}:1\n"
                     for i in range(per)]
            deployment(f"many-{d}", lines, f)


def lock(args):
    count = args.count or 500_000
    if not args.lock:
        sys.exit("gen_memory.py: lock needs --lock")
    with open(args.out, "w") as f:
        deployment("web", ["      - name: web\n        image: reg.example/team/app1:1\n"], f)
    write_lock(args.lock, [f"reg.example/team/app{i}:1" for i in range(count)])


def scalar(args):
    size = args.count or 200_000_000
    with open(args.out, "w") as f:
        deployment("big", ["      - name: big\n        image: reg.example/team/app1:1\n"
                           "        args:\n        - "], f)
        piece = "x" * 1_000_000
        for _ in range(size // len(piece)):
            f.write(piece)
        f.write("x" * (size % len(piece)) + "\n")
    if args.lock:
        write_lock(args.lock, ["reg.example/team/app1:1"])


SHAPES = {"tiny": tiny, "deployments": deployments, "images": images, "lock": lock,
          "scalar": scalar}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shape", choices=sorted(SHAPES))
    parser.add_argument("--out", required=True, help="the manifest stream to write")
    parser.add_argument("--lock", help="the lock file to write (deployments, lock, scalar)")
    parser.add_argument("--count", type=int, default=0,
                        help="documents, images or bytes, in place of the shape's own")
    args = parser.parse_args()
    SHAPES[args.shape](args)


if __name__ == "__main__":
    main()
