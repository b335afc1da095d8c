#!/usr/bin/env python3
"""Hostile names and values through every report format and every surface.

A repository whose file names, resource names, container names and images
hold what an attacker would put there (escape sequences that set a
terminal's title, clear it or make a link, BEL, backticks, Markdown links and
images, HTML, `]]>`, bytes that are not UTF-8, bidi overrides, workflow
commands, bare URLs, 10 KB names) is run through lint in every format, fix,
fix --diff, images, post-render, krm and argocd generate. Every output is
read back by what reads it:

  terminal  stdout and stderr of every command, the text and github formats:
            UTF-8, no control character but line breaks and tabs, no C1
            control, no Unicode control that reorders or hides text
  github    every line a workflow command, with the file a property that
            decodes to the file's name as a terminal shows it
  json      Python's json; each file name and resource name as it is (those
            that are UTF-8)
  junit     Python's xml.etree
  sarif     Microsoft's SARIF Multitool
  markdown  markdown-it, with HTML and bare URLs linked as GitHub does: no link,
            image, script or style comes out of it
  krm       the ResourceList read back by PyYAML, the values as they were

usage: hostile.py ARCHFIT SARIF_MULTITOOL MARKDOWN_IT_DIR
"""

import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import xml.etree.ElementTree as ET

ARCHFIT, MULTITOOL, MARKDOWN_IT = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []


def fail(what):
    FAILURES.append(what)
    print("FAIL: " + what[:2000], file=sys.stderr)


# Values an attacker puts in a manifest (any string YAML can hold).
VALUES = [
    "\x1b]0;owned\x07\x1b[2J\x1b[31mred",
    "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\",
    "bell\x07",
    "`code` ``more``",
    "[Sign in again](https://evil.example/login) **urgent**",
    "![](https://evil.example/pixel.png)",
    "<script>alert(1)</script><img src=x onerror=alert(1)>",
    "]]><!-- --><x/>",
    "\u202eevil\u2066",
    "see https://evil.example/a and www.evil.example and a@evil.example",
    "line\nbreak\r\n::error::injected",
    "%0A%3A%2C|pipe|",
    "\u0085next \u009b31m",
    "x" * 10000,
]

# File names (bytes: a name need not be UTF-8); no '/' or NUL.
NAMES = [
    b"evil\x1b]0;owned\x07\x1b[2J\x1b[31m.yaml",
    b"a`[click](https:evil.example)`b.yaml",
    b"caf\xe9.yaml",
    b"\xe2\x80\xaegnp.yaml",
    b"<img src=x onerror=alert(1)>.yaml",
    b"]]>.yaml",
    b"::error::pwned,50%25.yaml",
    b"www.evil.example.yaml",
]

LOCK = {"version": 1, "images": {
    "mcr.microsoft.com/mssql/server:2022-latest": {"platforms": ["linux/amd64"]}}}


def yaml_string(value):
    """A YAML double-quoted scalar holding `value` exactly."""
    return json.dumps(value)  # JSON strings are YAML double-quoted scalars


def manifest(i):
    """Two Deployments named by hostile values: one whose first image is one
    too (left alone, with its finding), one that fix changes."""
    value = VALUES[i % len(VALUES)]
    other = VALUES[(i + 3) % len(VALUES)]
    bad = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {yaml_string(value)}\n"
           f"  namespace: {yaml_string(other)}\nspec:\n  template:\n    metadata:\n"
           f"      labels: {{app: {yaml_string(other)}}}\n    spec:\n      containers:\n"
           f"      - name: {yaml_string(other)}\n        image: {yaml_string(value + ' ' + other)}\n"
           f"      - name: db\n        image: mcr.microsoft.com/mssql/server:2022-latest\n")
    fixed = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {yaml_string(other)}\n"
             f"spec:\n  template:\n    spec:\n      containers:\n"
             f"      - name: {yaml_string(value)}\n"
             f"        image: mcr.microsoft.com/mssql/server:2022-latest\n")
    return bad + "---\n" + fixed


def repository(root):
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, "archfit.lock"), "w") as f:
        json.dump(LOCK, f)
    os.makedirs(os.path.join(root, "m"))
    for i, name in enumerate(NAMES):
        with open(os.path.join(os.fsencode(root), b"m", name), "w") as f:
            f.write(manifest(i))
    with open(os.path.join(root, "m", "values.yaml"), "w") as f:
        f.write("---\n".join(manifest(i) for i in range(len(VALUES))))


def run(args, cwd, stdin=None, env=None):
    e = dict(os.environ, HOME=cwd, ARCHFIT_CACHE_DIR=os.path.join(cwd, ".cache"), CI="true")
    e.update(env or {})
    return subprocess.run([ARCHFIT] + args, cwd=cwd, input=stdin, capture_output=True, env=e)


HIDDEN = set(range(0x80, 0xA0)) | {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028,
                                   0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066,
                                   0x2067, 0x2068, 0x2069, 0xFEFF}


def terminal_safe(what, data):
    """UTF-8, and nothing a terminal or a log viewer acts on."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"{what}: not UTF-8 at byte {e.start}: {data[max(0, e.start - 40):e.start + 40]!r}")
        return
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 and ch not in "\n\t") or c == 0x7F or c in HIDDEN:
            fail(f"{what}: control {ch!r} at {i}: {text[max(0, i - 60):i + 20]!r}")
            return


def shown(name):
    """A file name as archfit shows it on a terminal: its bytes that are not
    UTF-8 as \\xNN, its controls escaped."""
    out = []
    text = name.decode("utf-8", errors="surrogateescape")
    for ch in text:
        c = ord(ch)
        if 0xDC80 <= c <= 0xDCFF:
            out.append("\\x%02x" % (c - 0xDC00))
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif c < 0x20 or c == 0x7F:
            out.append("\\x%02x" % c)
        elif 0x80 <= c <= 0x9F:
            out.append("".join("\\x%02x" % b for b in ch.encode("utf-8")))
        elif c in HIDDEN:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    return "".join(out)


def check_github(out):
    lines = out.decode("utf-8").splitlines()
    command = re.compile(r"^::(error|warning|notice)( [^:]*)?::")
    files = set()
    for line in lines:
        if not command.match(line):
            fail(f"github: a line that is no workflow command: {line[:200]!r}")
            continue
        props = line[2:].split("::", 1)[0].split(" ", 1)
        if len(props) == 2:
            for prop in props[1].split(","):
                key, _, value = prop.partition("=")
                if key == "file":
                    files.add(re.sub("%(2C|3A|25)", lambda m: {"2C": ",", "3A": ":", "25": "%"}[m.group(1)], value))
    expected = {"m/" + shown(n) for n in NAMES} | {"m/values.yaml"}
    for f in files:
        if f not in expected:
            fail(f"github: file property {f!r} is no file's name as shown")


def expect_every_name_among(files, sink, what):
    """Every hostile file name that is text comes back among FILES as it was."""
    for name in NAMES:
        try:
            text = "m/" + name.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if text not in files:
            fail(f"{sink}: the file {text!r} is not among {what}")


def check_json(out):
    report = json.loads(out)
    expect_every_name_among({f["file"] for f in report["findings"]}, "json", "the findings' files")
    names = {f["resource"]["name"] for f in report["findings"]}
    for v in VALUES:
        if v not in names:
            fail(f"json: the resource name {v[:80]!r} did not come back as it was")


def check_markdown(out):
    if len(out) >= 1024 * 1024:
        fail(f"markdown: {len(out)} bytes, over GitHub's 1 MiB")
    r = subprocess.run(["node", os.path.join(HERE, "markdown_links.js")], input=out,
                       capture_output=True, cwd=MARKDOWN_IT,
                       env=dict(os.environ, NODE_PATH=os.path.join(MARKDOWN_IT, "node_modules")))
    if r.returncode != 0:
        fail(f"markdown-it failed: {r.stderr.decode(errors='replace')}")
        return
    seen = json.loads(r.stdout)
    for kind in ("links", "images", "scripts"):
        if seen[kind]:
            where = re.findall(r"<(?:a|img|script|style|iframe)[\s>][^>]*>", seen["html"])[:5]
            fail(f"markdown: {seen[kind]} {kind} from input: {where}")


def check_readiness_json(out):
    """The files that use the lock's amd64-only image are its blockers' files, as they are."""
    report = json.loads(out)
    files = set()
    for p in report["platforms"]:
        for b in p["blockers"]:
            files.update(b["files"])
    expect_every_name_among(files, "readiness-json", "the blockers' files")


class Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, [k for k, _ in attrs]))


# The elements the readiness page is made of: nothing from input adds one.
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span", "svg",
             "text", "rect", "table", "tr", "th", "td", "section", "ul", "li"}


def check_html(out):
    parser = Elements()
    parser.feed(out.decode("utf-8"))
    for tag, attrs in parser.tags:
        if tag not in HTML_TAGS:
            fail(f"readiness-html: a <{tag}> element from input")
        if any(a.startswith("on") or a in ("href", "src") for a in attrs):
            fail(f"readiness-html: <{tag}> with {attrs}")


def check_sarif(path):
    # As tests/reports/check.py reads the validator: its problems, one a line.
    r = subprocess.run([MULTITOOL, "validate", os.path.dirname(path), "--rule-kind", "Gh;Sarif",
                        "--level", "Error;Warning"], capture_output=True, text=True)
    problems = [l for l in r.stdout.splitlines() if re.search(r": (error|warning) [A-Z]+[0-9]+:", l)]
    if r.returncode != 0 or problems or not re.search(r"Done\. 1 files? scanned", r.stdout):
        fail(f"sarif: the validator says {r.returncode}: {problems[:5]} {r.stdout[-500:]}")


def check_krm(out):
    import yaml  # PyYAML (Debian's python3-yaml)
    rl = yaml.safe_load(out)
    names = {item["metadata"]["name"] for item in rl["items"]}
    for v in VALUES:
        if v not in names:
            fail(f"krm: the item named {v[:80]!r} did not come back as it was")
    for result in rl.get("results", []):
        terminal_safe("krm result message", result["message"].encode("utf-8"))


def main():
    work = tempfile.mkdtemp(prefix="archfit-hostile.")
    try:
        root = os.path.join(work, "repo")
        repository(root)
        for fmt in ("text", "json", "sarif", "github", "junit", "markdown", "readiness",
                    "readiness-markdown", "readiness-json", "readiness-html"):
            r = run(["lint", "--offline", "--fail-on", "never", "--format", fmt, "--", "m"], root)
            if r.returncode not in (0, 1):
                fail(f"lint --format {fmt} exited {r.returncode}: {r.stderr[-500:]!r}")
                continue
            terminal_safe(f"lint --format {fmt}: stderr", r.stderr)
            if fmt in ("text", "github", "markdown", "readiness", "readiness-markdown",
                       "readiness-html"):
                terminal_safe(f"lint --format {fmt}", r.stdout)
            if fmt == "github":
                check_github(r.stdout)
            elif fmt == "json":
                check_json(r.stdout)
            elif fmt == "junit":
                ET.fromstring(r.stdout)
            elif fmt in ("markdown", "readiness-markdown"):
                check_markdown(r.stdout)
            elif fmt == "readiness-json":
                check_readiness_json(r.stdout)
            elif fmt == "readiness-html":
                check_html(r.stdout)
            elif fmt == "sarif":
                os.makedirs(os.path.join(work, "sarif"))
                path = os.path.join(work, "sarif", "report.sarif")
                with open(path, "wb") as f:
                    f.write(r.stdout)
                check_sarif(path)
        for args in (["images", "--", "m"], ["fix", "--offline", "--check", "--", "m"],
                     ["fix", "--offline", "--diff", "--", "m"]):
            r = run(args, root)
            terminal_safe(" ".join(args[:2]) + ": stdout", r.stdout)
            terminal_safe(" ".join(args[:2]) + ": stderr", r.stderr)
        fixed = os.path.join(work, "fixed")
        shutil.copytree(root, fixed)
        r = run(["fix", "--offline", "--", "m"], fixed)
        terminal_safe("fix: stderr", r.stderr)
        if b"fixed " not in r.stderr:
            fail(f"fix changed nothing: {r.stderr[-300:]!r}")
        stream = open(os.path.join(root, "m", "values.yaml"), "rb").read()
        r = run(["post-render", "--offline"], root, stdin=stream)
        terminal_safe("post-render: stderr", r.stderr)
        items = "".join("- " + doc.replace("\n", "\n  ").rstrip(" ") for doc in
                        stream.decode().split("---\n"))
        rl = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items
        r = run(["krm"], root, stdin=rl.encode())
        terminal_safe("krm: stderr", r.stderr)
        check_krm(r.stdout)
        app = os.path.join(root, "m")
        r = run(["argocd", "generate", "plain"], app,
                env={"ARGOCD_APP_NAME": "hostile", "ARGOCD_APP_NAMESPACE": "default",
                     "ARGOCD_APP_SOURCE_PATH": "m"})
        terminal_safe("argocd generate: stderr", r.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failures", file=sys.stderr)
        return 1
    print(f"hostile names: {len(NAMES)} files, {len(VALUES)} values, every format and surface")
    return 0


if __name__ == "__main__":
    sys.exit(main())
