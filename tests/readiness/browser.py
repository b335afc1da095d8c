#!/usr/bin/env python3
"""The readiness report's HTML in a real browser: Debian's Chromium, headless,
with the network off (a network namespace of its own, `unshare -n`), loads the
page archfit wrote for a small fleet and

  - takes a screenshot that is not blank (many colours, the charts' green and
    red among them);
  - gives a DOM whose counts (each platform's runnable workloads and
    replicas, each blocker's workloads, what rebuilding frees) are the ones
    the JSON report of the same run gives;
  - shows a hostile resource name (markup, a script, an escape sequence) as
    text: no script, image or handler element comes of it.

usage: browser.py ARCHFIT CHROMIUM
"""

import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ARCHFIT, CHROMIUM = sys.argv[1:3]
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>\x1b[31m"

LOCK = {"version": 1, "images": {
    "docker.io/library/nginx:1.27": {"platforms": ["linux/amd64", "linux/arm64"]},
    "mcr.microsoft.com/mssql/server:2022-latest": {"platforms": ["linux/amd64"]},
    "docker.io/library/tool:2": {"platforms": ["linux/amd64"]},
}}


def deployment(name, replicas, images, pinned=False):
    containers = "".join(f"      - name: c{i}\n        image: {image}\n" for i, image in enumerate(images))
    selector = "      nodeSelector:\n        kubernetes.io/arch: amd64\n" if pinned else ""
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {json.dumps(name)}\n"
            f"spec:\n  replicas: {replicas}\n  template:\n    spec:\n{selector}      containers:\n"
            f"{containers}")


def fleet(root):
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, "archfit.lock"), "w") as f:
        json.dump(LOCK, f)
    docs = [deployment("web", 3, ["nginx:1.27"]),
            deployment("db", 2, ["mcr.microsoft.com/mssql/server:2022-latest"]),
            deployment("batch", 1, ["mcr.microsoft.com/mssql/server:2022-latest", "tool:2"]),
            deployment(HOSTILE, 4, ["nginx:1.27"], pinned=True)]
    with open(os.path.join(root, "fleet.yaml"), "w") as f:
        f.write("---\n".join(docs))


def browser(args, profile):
    """Chromium headless in a network namespace of its own: nothing can be fetched."""
    return subprocess.run(["unshare", "-n", CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--no-first-run", f"--user-data-dir={profile}", *args],
                          capture_output=True, timeout=120)


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG, as Chromium writes."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


class Dom(html.parser.HTMLParser):
    """The elements of the page, with their attributes and text."""

    def __init__(self):
        super().__init__()
        self.elements, self.stack = [], []

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": list(self.stack)}
        self.elements.append(element)
        if tag not in ("meta", "rect", "br", "img", "input", "link"):
            self.stack.append(element)

    def handle_endtag(self, tag):
        if not any(e["tag"] == tag for e in self.stack):
            return  # the end of an element that holds nothing (</rect>)
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"] += data

    def find(self, tag=None, cls=None, **attrs):
        out = []
        for e in self.elements:
            if tag and e["tag"] != tag:
                continue
            if cls and cls not in e["attrs"].get("class", "").split():
                continue
            if all(e["attrs"].get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(e)
        return out


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAIL: " + what, file=sys.stderr)

    work = tempfile.mkdtemp(prefix="archfit-browser.")
    try:
        root = os.path.join(work, "repo")
        fleet(root)
        page, report = os.path.join(work, "readiness.html"), os.path.join(work, "readiness.json")
        r = subprocess.run([ARCHFIT, "lint", "--offline", "--fail-on", "never", "--report",
                            f"readiness={page}", "--report", f"readiness={report}", "--", "."],
                           cwd=root, capture_output=True, env=dict(os.environ, HOME=work))
        check(r.returncode == 0, f"archfit lint exited {r.returncode}: {r.stderr[-400:]!r}")
        expected = json.load(open(report))
        profile = os.path.join(work, "profile")

        shot = os.path.join(work, "shot.png")
        b = browser([f"--screenshot={shot}", "--window-size=1000,900", "file://" + page], profile)
        check(b.returncode == 0 and os.path.isfile(shot), f"screenshot: {b.stderr[-600:]!r}")
        width, height, channels, rows = png_pixels(shot)
        colours = set()
        for row in rows[::4]:
            for x in range(0, width * channels, channels * 4):
                colours.add(row[x:x + 3])
        check(len(colours) > 20, f"the screenshot is blank or nearly: {len(colours)} colours")
        check(any(abs(c[0] - 0x2d) < 8 and abs(c[1] - 0xa4) < 8 for c in colours),
              "the coverage chart's green is not on the screenshot")
        check(any(abs(c[0] - 0xcf) < 8 and abs(c[1] - 0x22) < 8 for c in colours),
              "the blockers chart's red is not on the screenshot")

        d = browser(["--dump-dom", "file://" + page], profile)
        check(d.returncode == 0, f"dump-dom: {d.stderr[-600:]!r}")
        dom = Dom()
        dom.feed(d.stdout.decode("utf-8"))
        for p in expected["platforms"]:
            row = dom.find("tr", data_platform=p["platform"])
            check(len(row) == 1, f"{p['platform']}: {len(row)} rows in the platforms table")
            if not row:
                continue
            cells = {c["attrs"].get("class"): c["text"] for c in dom.elements if row[0] in c["parents"]}
            for cls, key in (("runnable", "runnableWorkloads"), ("workloads", "workloads"),
                             ("runnable-replicas", "runnableReplicas"), ("replicas", "replicas")):
                check(cells.get(cls) == str(p[key]),
                      f"{p['platform']}: the page says {cls} {cells.get(cls)!r}, the JSON {p[key]}")
            section = dom.find("section", data_platform=p["platform"])
            for blocker in p["blockers"]:
                rows_ = [e for e in dom.find("tr", data_image=blocker["image"])
                         if section and section[0] in e["parents"]]
                check(len(rows_) == 1, f"{p['platform']}: no row for {blocker['image']}")
                if rows_:
                    n = [c["text"] for c in dom.elements if rows_[0] in c["parents"]
                         and c["attrs"].get("class") == "workloads"]
                    check(n == [str(blocker["workloads"])],
                          f"{blocker['image']}: the page says {n}, the JSON {blocker['workloads']}")
            for freed in p["rebuildFrees"]:
                li = [e for e in dom.find("li", data_images=str(freed["images"]))
                      if section and section[0] in e["parents"]]
                spans = [c["text"] for c in dom.elements if li and li[0] in c["parents"]]
                check(spans == [str(freed["workloads"]), str(freed["replicas"])],
                      f"{p['platform']}: rebuilding {freed['images']}: page {spans}, JSON {freed}")
        arm = next(p for p in expected["platforms"] if p["platform"] == "linux/arm64")
        check(arm["runnableWorkloads"] == 1 and [b["image"] for b in arm["blockers"]][0] ==
              "mcr.microsoft.com/mssql/server:2022-latest", f"the fleet's counts: {arm}")
        check([w["name"] for w in arm["pinned"]] == [HOSTILE], f"pinned: {arm['pinned']}")
        # The hostile name is text: no element of it, and its words on the page.
        for tag in ("script", "img", "iframe", "object", "link"):
            check(not dom.find(tag), f"a <{tag}> element on the page")
        check(not any(k.startswith("on") for e in dom.elements for k in e["attrs"]),
              "an event handler attribute on the page")
        pinned = dom.find("ul", cls="pinned")
        text = pinned[0]["text"] if pinned else ""
        check("<script>alert(1)</script><img src=x onerror=alert(2)>" in text,
              f"the hostile name is not shown as text: {text!r}")
        check("\x1b" not in d.stdout.decode("utf-8"), "an escape character reached the page")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        return 1
    print("readiness HTML: screenshot, DOM counts and a hostile name checked in Chromium offline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
