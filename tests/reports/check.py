#!/usr/bin/env python3
"""Every report format, read back by what reads it in CI.

For every golden case (tests/golden/<case>/) and every corpus file (when the
corpus is given), runs `archfit lint` in each format and checks:

  json      parses, and its summary counts its findings
  sarif     Microsoft's SARIF Multitool (`validate --rule-kind Gh;Sarif`) reports
            no error and no warning; one result per JSON finding, each with a
            region and a partial fingerprint
  junit     parses (xml.etree); testsuites/testsuite/testcase/failure with
            counts that add up
  github    workflow commands only, at most 10 of each kind, the totals last
  markdown  under 1 MiB, the totals first

The validator is tested too: a SARIF file without locations must fail it.

usage: check.py ARCHFIT SOURCE_DIR SARIF_MULTITOOL [CORPUS_DIR]
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ARCHFIT, ROOT, MULTITOOL = sys.argv[1:4]
CORPUS = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
FAILURES = []


def fail(what):
    FAILURES.append(what)
    print("FAIL: " + what, file=sys.stderr)


class Refused(Exception):
    """archfit refused the input (exit 2, naming where): no report to check."""


FAULTS = ("invalid-document", "unreadable-file")


def faulted(workdir, input_name, extra):
    """Whether the JSON report of the input has a fault finding."""
    env = dict(os.environ, ARCHFIT_CONFIG="", HOME=workdir, ARCHFIT_CACHE_DIR=os.path.join(workdir, "cache"))
    args = [ARCHFIT, "lint", "--offline", "--fail-on", "never", "--format", "json", *extra, input_name]
    r = subprocess.run(args, cwd=workdir, env=env, capture_output=True)
    try:
        findings = json.loads(r.stdout)["findings"]
    except ValueError:
        return False
    return any(f["rule"] in FAULTS for f in findings)


def lint(workdir, input_name, fmt, extra=()):
    env = dict(os.environ, ARCHFIT_CONFIG="", HOME=workdir, ARCHFIT_CACHE_DIR=os.path.join(workdir, "cache"))
    args = [ARCHFIT, "lint", "--offline", "--fail-on", "never", "--format", fmt, *extra, input_name]
    r = subprocess.run(args, cwd=workdir, env=env, capture_output=True)
    err = r.stderr.decode(errors="replace")
    if r.returncode == 2 and err.startswith(input_name + ":") and not r.stdout:
        raise Refused(err.strip())
    out = r.stdout.decode("utf-8")
    # A document or file archfit could not read is never a pass, whatever
    # --fail-on says: exit 1, with the fault in the report.
    if fmt == "json":
        try:
            has_fault = any(f["rule"] in FAULTS for f in json.loads(out)["findings"])
        except ValueError:
            has_fault = False
    else:
        has_fault = r.returncode == 1 and faulted(workdir, input_name, extra)
    if r.returncode != (1 if has_fault else 0):
        fail(f"{workdir}: {' '.join(args[1:])} exited {r.returncode}: {err}")
    return out


def check_case(name, workdir, input_name, extra, sarif_dir):
    """Checks every format; False when archfit refused the input."""
    try:
        reports = {fmt: lint(workdir, input_name, fmt, extra) for fmt in ("json", "sarif", "junit", "github", "markdown")}
    except Refused as e:
        print(f"reports: {name} is refused as input ({e}); no report", file=sys.stderr)
        return False
    try:
        data = json.loads(reports["json"])
    except ValueError as e:
        fail(f"{name}: json does not parse: {e}")
        return
    findings = data["findings"]
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f["severity"]] += 1
    s = data["summary"]
    if (s["errors"], s["warnings"], s["infos"]) != (counts["error"], counts["warning"], counts["info"]):
        fail(f"{name}: json summary {s} does not count its findings {counts}")

    sarif = json.loads(reports["sarif"])
    results = sarif["runs"][0]["results"]
    if len(results) != len(findings):
        fail(f"{name}: sarif has {len(results)} results, json {len(findings)} findings")
    for r in results:
        loc = r["locations"][0]["physicalLocation"]
        if "partialFingerprints" not in r or ("region" not in loc and r["ruleId"] != "uneditable-yaml"):
            fail(f"{name}: sarif result without a region or fingerprint: {r}")
    with open(os.path.join(sarif_dir, re.sub(r"[^A-Za-z0-9._-]", "_", name) + ".sarif"), "w") as out:
        out.write(reports["sarif"])

    try:
        suites = ET.fromstring(reports["junit"])
    except ET.ParseError as e:
        fail(f"{name}: junit does not parse: {e}")
        return
    if suites.tag != "testsuites":
        fail(f"{name}: junit root is {suites.tag}")
    tests = failures = 0
    for suite in suites.findall("testsuite"):
        cases = suite.findall("testcase")
        failed = sum(1 for c in cases if c.find("failure") is not None)
        if int(suite.get("tests")) != len(cases) or int(suite.get("failures")) != failed:
            fail(f"{name}: junit suite {suite.get('name')} counts tests={suite.get('tests')} failures={suite.get('failures')}, has {len(cases)}/{failed}")
        tests += len(cases)
        failures += failed
    if int(suites.get("tests")) != tests or int(suites.get("failures")) != failures:
        fail(f"{name}: junit totals tests={suites.get('tests')} failures={suites.get('failures')}, suites add up to {tests}/{failures}")
    # A case per workload, and per node pool (a NodePool, a Provisioner, a
    # node group of a ClusterConfig) that has findings: pools are objects
    # archfit checks, but not workloads.
    pools = {(f["file"], f["document"], f["resource"]["kind"], f["resource"]["name"])
             for f in findings if f["resource"]["kind"] in ("NodePool", "Provisioner", "ClusterConfig")}
    # ... and per document archfit could not read, which is no workload.
    faults = {(f["file"], f["document"]) for f in findings if f["rule"] in FAULTS}
    if tests != data["summary"]["workloads"] + len(pools) + len(faults):
        fail(f"{name}: junit has {tests} test cases for {data['summary']['workloads']} workloads, "
             f"{len(pools)} pools with findings and {len(faults)} faults")
    failing_findings = sum(1 for f in findings if f["severity"] != "info")
    failure_elements = len(suites.findall("testsuite/testcase/failure"))
    if failure_elements != failing_findings:
        fail(f"{name}: junit has {failure_elements} failures for {failing_findings} error and warning findings")

    lines = reports["github"].splitlines()
    kinds = {"error": 0, "warning": 0, "notice": 0}
    for line in lines:
        m = re.match(r"^::(error|warning|notice) [^:]*::", line)
        if not m:
            fail(f"{name}: github line is not a workflow command: {line!r}")
            continue
        kinds[m.group(1)] += 1
    if any(n > 10 for n in kinds.values()) or not lines or not lines[-1].startswith("::notice title=archfit::"):
        fail(f"{name}: github: {kinds}, last line {lines[-1] if lines else None!r}")

    md = reports["markdown"]
    if len(md.encode()) >= 1 << 20 or not md.startswith("## archfit: "):
        fail(f"{name}: markdown is {len(md)} bytes and starts {md[:40]!r}")
    return True


def validate_sarif(directory, expect_problems=False):
    r = subprocess.run([MULTITOOL, "validate", directory, "--rule-kind", "Gh;Sarif", "--level", "Error;Warning"],
                       capture_output=True, text=True)
    problems = [l for l in r.stdout.splitlines() if re.search(r": (error|warning) [A-Z]+[0-9]+:", l)]
    if r.returncode != 0:
        fail(f"the SARIF Multitool exited {r.returncode}: {r.stdout}{r.stderr}")
    if expect_problems and not problems:
        fail("the SARIF Multitool found nothing wrong with a result without locations: the check cannot fail")
    if not expect_problems:
        for p in problems:
            fail("SARIF: " + p)
    scanned = re.search(r"Done\. (\d+) files? scanned", r.stdout)
    return int(scanned.group(1)) if scanned else 0


def main():
    golden = os.path.join(ROOT, "tests", "golden")
    with tempfile.TemporaryDirectory() as tmp:
        sarif_dir = os.path.join(tmp, "sarif")
        os.makedirs(sarif_dir)
        cases = 0
        for case in sorted(os.listdir(golden)):
            src = os.path.join(golden, case)
            if not os.path.isdir(src):
                continue
            work = os.path.join(tmp, "case-" + case)
            os.makedirs(work)
            shutil.copy(os.path.join(src, "input.yaml"), work)
            shutil.copy(os.path.join(src, "archfit.lock"), work)
            config = os.path.join(src, "config.yaml")
            shutil.copy(config if os.path.exists(config) else os.devnull, os.path.join(work, ".archfit.yaml"))
            if not check_case(case, work, "input.yaml", ["--config", ".archfit.yaml", "--lock", "archfit.lock"], sarif_dir):
                fail(f"{case}: a golden case's input is refused")
            cases += 1
        # The examples as helm 3 renders a chart: findings on the templates.
        work = os.path.join(tmp, "helm")
        os.makedirs(work)
        examples = os.path.join(ROOT, "examples")
        with open(os.path.join(work, "rendered.yaml"), "w") as out:
            for name in sorted(os.listdir(examples)):
                if name.endswith(".yaml") and not name.startswith("."):
                    # helm writes the comment before every document of a template
                    text = open(os.path.join(examples, name)).read()
                    for doc in re.split(r"(?m)^---[^\n]*\n", text):
                        if doc.strip():
                            out.write(f"---\n# Source: shop/templates/{name}\n{doc}")
        shutil.copy(os.path.join(examples, "archfit.lock"), work)
        shutil.copy(os.path.join(examples, ".archfit.yaml"), work)
        if check_case("helm-rendered", work, "rendered.yaml",
                      ["--config", ".archfit.yaml", "--lock", "archfit.lock", "--source-root", "charts"], sarif_dir):
            cases += 1
            sarif = json.load(open(os.path.join(sarif_dir, "helm-rendered.sarif")))
            uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
            if not uris or not all(u.startswith("charts/shop/templates/") for u in uris):
                fail(f"helm-rendered: sarif locations are not on the chart's templates: {sorted(uris)}")
        corpus_files = 0
        if CORPUS:
            work = os.path.join(tmp, "corpus")
            os.makedirs(work)
            # No lock knows the corpus's images: warn on them, where an offline run fails.
            with open(os.path.join(work, ".archfit.yaml"), "w") as f:
                f.write("resolve:\n  onUnresolved: warn\n")
            for name in sorted(os.listdir(CORPUS)):
                if name.endswith((".yaml", ".yml")):
                    shutil.copy(os.path.join(CORPUS, name), work)
                    if check_case("corpus/" + name, work, name, ["--config", ".archfit.yaml"], sarif_dir):
                        corpus_files += 1
        scanned = validate_sarif(sarif_dir)
        if scanned != cases + corpus_files:
            fail(f"the SARIF Multitool scanned {scanned} files of {cases + corpus_files}")

        # The check can fail: a result without locations is refused.
        bad_dir = os.path.join(tmp, "bad")
        os.makedirs(bad_dir)
        with open(os.path.join(sarif_dir, os.listdir(sarif_dir)[0])) as f:
            bad = json.load(f)
        bad["runs"][0]["results"] = [{"ruleId": "mutable-tag", "level": "note", "message": {"text": "x"}}]
        with open(os.path.join(bad_dir, "bad.sarif"), "w") as f:
            json.dump(bad, f)
        validate_sarif(bad_dir, expect_problems=True)

    print(f"reports: {cases} golden cases (and a helm-rendered stream) and {corpus_files} corpus files, 5 formats each; "
          f"{scanned} SARIF files validated; {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
