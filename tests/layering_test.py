#!/usr/bin/env python3
"""The module layering of docs/architecture.md, checked four ways.

1. Includes, transitively: every archfit header a module's sources and headers
   reach, through any chain of includes, belongs to the module itself or to a
   module it may use. placement sees no resolve type either: run hands it
   placement's own answer for each image (placement/answer.hpp).
2. Link dependencies: the archfit libraries a module names as its DEPS in
   CMakeLists.txt are modules it may use, and libcurl is reached, through any
   chain of (PUBLIC, so inherited) DEPS, only by modules that may use registry.
3. libcurl headers: only registry (and the command line) include <curl/...>.
4. One failure convention (include/archfit/base/error.hpp): nothing in src/
   throws a std:: exception (std::bad_alloc aside) instead of archfit::Error,
   and no public header declares a *_problem() string or a reason() member.

usage: layering_test.py ROOT           check the tree at ROOT
       layering_test.py --self-test ROOT
           plant an upward include, a transitive one and a link dependency in
           copies of ROOT, and check that each is caught
"""

import os
import re
import shutil
import sys
import tempfile

# module -> the archfit modules it may use (besides itself), lowest first.
# "module/part" rows are a module's sub-folders (include/archfit/module/part/,
# src/module/part/), with their own layering. A module's own files may use its
# parts; another module may use a part it names, or every part of a module it
# names whole. A part may sit far below its module: spread/model and
# nodepools/model are the features' data and rules, which placement and config
# use, while the features themselves plug into the engine above run.
ALLOWED = {
    "base": set(),
    "yaml": {"base"},
    "image": {"base"},
    "findings": {"base", "yaml"},
    "manifest": {"base", "yaml", "image"},
    "registry": {"base", "image"},
    "registry/credentials": {"base", "image"},
    "registry/transport": {"base", "image"},
    "registry/protocol": {"base", "image", "registry/credentials", "registry/transport"},
    "cache": {"base", "image"},
    "resolve": {"base", "image", "registry", "cache"},
    "spread/model": {"base", "yaml"},
    "nodepools/model": {"base", "yaml", "spread/model"},
    "placement": {"base", "yaml", "image", "findings", "manifest", "spread/model",
                  "nodepools/model"},
    "edit": {"base", "yaml"},
    "report": {"base", "yaml", "findings"},
    "config": {"base", "yaml", "image", "findings", "manifest", "cache", "resolve", "spread/model",
               "nodepools/model", "placement"},
    "run": {"base", "yaml", "image", "findings", "manifest", "registry", "cache", "resolve",
            "spread/model", "nodepools/model", "placement", "edit", "report"},
    "nodepools": {"base", "yaml", "image", "findings", "manifest", "registry", "cache", "resolve",
                  "spread/model", "placement", "edit", "report", "run"},
    "spread": {"base", "yaml", "image", "findings", "manifest", "registry", "cache", "resolve",
               "placement", "edit", "report", "run", "nodepools"},
    "readiness": {"base", "yaml", "image", "findings", "manifest", "registry", "cache", "resolve",
                  "spread/model", "nodepools/model", "placement", "edit", "report", "run"},
}
# The top floor: the session, the surfaces over it, and the command line.
_ENGINE = set(ALLOWED) - {"registry/credentials", "registry/transport", "registry/protocol"}
ALLOWED["app"] = _ENGINE | {"config"}
for _surface in ("surface/post_render", "surface/krm", "surface/command_line"):
    ALLOWED[_surface] = ALLOWED["app"] | {"app"}
ALLOWED["surface/argocd"] = ALLOWED["app"] | {"app", "surface/post_render"}
# The command line (src/cli/, the executable, no library) may reach every
# module through what it includes, but includes itself only these: it wires
# CLI11 to the surfaces and holds no run logic.
ALLOWED["cli"] = {m for m in ALLOWED if "/" not in m or m.startswith(("surface/", "spread/", "nodepools/"))}
CLI_INCLUDES = {"base", "config", "report", "app", "surface"}
CLI_MOST_LINES = 1200
# The one way from a surface to the engine is a Session (app/session.hpp):
# nothing else calls the run's entry points.
ENGINE_ENTRIES = re.compile(r"\brun_pipeline\s*\(")
ENGINE_CALLERS = ("src/run/", "src/app/session.cpp", "include/archfit/run/")
CURL_TARGETS = {"archfit_curl_headers", "CURL::libcurl"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def module_of(unit):
    return unit.split("/")[0]


def unit_of(parts):
    """The unit of a file whose path below include/archfit/ or src/ is `parts`."""
    if len(parts) > 2 and f"{parts[0]}/{parts[1]}" in ALLOWED:
        return f"{parts[0]}/{parts[1]}"
    return parts[0]


def module_files(root, unit):
    """The files of a unit; a module's own files leave out its parts' folders."""
    for base in (os.path.join(root, "include", "archfit", unit), os.path.join(root, "src", unit)):
        for dirpath, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if f"{unit}/{d}" not in ALLOWED]
            for name in sorted(names):
                if name.endswith((".hpp", ".cpp")):
                    yield os.path.join(dirpath, name)


def resolve(root, kind, target):
    """The file an include names, and its unit; None for outside headers."""
    if kind == "<" and target.startswith("archfit/"):
        path = os.path.join(root, "include", target)
        return path, unit_of(target.split("/")[1:])
    if kind == '"':
        path = os.path.join(root, "src", target)
        if os.path.exists(path):
            return path, unit_of(target.split("/"))
    return None


def may_use(unit, used):
    """Whether a file of `unit` may reach a file of `used`."""
    if used == unit or used in ALLOWED[unit]:
        return True
    if module_of(used) == module_of(unit):
        return "/" not in unit  # a module's own files may use its parts
    return module_of(used) in ALLOWED[unit]


def check_includes(root):
    problems = []
    cache = {}

    def reached(path):
        """{module: chain} of every archfit file `path` reaches."""
        if path in cache:
            return cache[path]
        cache[path] = {}
        out = {}
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            return out
        for kind, target in INCLUDE.findall(text):
            found = resolve(root, kind, target)
            if not found:
                continue
            file, module = found
            out.setdefault(module, [target])
            for m, chain in reached(file).items():
                out.setdefault(m, [target] + chain)
        cache[path] = out
        return out

    for module in ALLOWED:
        for path in module_files(root, module):
            rel = os.path.relpath(path, root)
            for used, chain in sorted(reached(path).items()):
                if not may_use(module, used):
                    problems.append(f"{rel}: module '{module}' reaches module '{used}' through "
                                    f"{' -> '.join(chain)}")
            text = open(path, encoding="utf-8").read()
            if module_of(module) != "registry" and re.search(r"#\s*include\s*<curl/", text):
                problems.append(f"{rel}: module '{module}' includes libcurl")
    return problems


def library(unit):
    return "archfit_" + unit.replace("/", "_")


def check_links(root):
    """CMakeLists.txt's archfit_module() DEPS, as units: a part with a library
    of its own (archfit_module(spread/model ...)) is archfit_spread_model."""
    text = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
    deps = {}
    for name, args in re.findall(r"^archfit_module\(([\w/]+)([^)]*)\)", text, re.M):
        parts = args.split()
        deps[name] = parts[parts.index("DEPS") + 1:] if "DEPS" in parts else []
    units = {library(u): u for u in deps}
    problems = []
    missing = {m for m in ALLOWED if "/" not in m and m not in ("cli", "surface")} - set(deps)
    if missing:
        problems.append(f"CMakeLists.txt: no archfit_module() for {sorted(missing)}")
    unknown = set(deps) - set(ALLOWED)
    if unknown:
        problems.append(f"CMakeLists.txt: archfit_module() for {sorted(unknown)}, which the "
                        "layering does not know")

    def closure(unit, seen=None):
        seen = set() if seen is None else seen
        for dep in deps.get(unit, []):
            if dep in seen:
                continue
            seen.add(dep)
            if dep in units:
                closure(units[dep], seen)
        return seen

    for unit in ALLOWED:
        if unit not in deps:
            continue
        for dep in deps[unit]:
            other = units.get(dep)
            if other is not None and other != unit and not may_use(unit, other):
                problems.append(f"CMakeLists.txt: module '{unit}' links {dep}")
        linked = closure(unit)
        if linked & CURL_TARGETS and not may_use(unit, "registry"):
            problems.append(f"CMakeLists.txt: module '{unit}' links libcurl "
                            f"({', '.join(sorted(linked & CURL_TARGETS))})")
    return problems


def check_failures(root):
    """The one failure convention: no std:: exception thrown, and in public
    headers none of the older shapes (a *_problem() string, a reason() member)."""
    problems = []
    throws = re.compile(r"throw\s+std::(?!bad_alloc\b)\w+")
    older = re.compile(r"std::string\s+\w+_problem\s*\(|\breason\(\)\s*const")
    for top in ("src", "include"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                for n, line in enumerate(open(path, encoding="utf-8"), 1):
                    if top == "src" and throws.search(line):
                        problems.append(f"{rel}:{n}: throws a std:: exception; use fail() "
                                        f"(include/archfit/base/error.hpp): {line.strip()}")
                    if top == "include" and older.search(line):
                        problems.append(f"{rel}:{n}: reports failure in an older shape; use "
                                        f"try_<verb> with std::string* why "
                                        f"(include/archfit/base/error.hpp): {line.strip()}")
    return problems


def check_documented(root):
    """docs/architecture.md's layering table is ALLOWED, and code points there, not elsewhere."""
    problems = []
    path = os.path.join(root, "docs", "architecture.md")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return [f"docs/architecture.md: missing; it documents the layering this test enforces"]
    table = text.split("<!-- layering table", 1)[-1]
    documented = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("module", "") or cells[0].startswith("---"):
            if documented and not line.startswith("|"):
                break
            continue
        uses = set() if cells[2] in ("—", "-") else {u.strip() for u in cells[2].split(",")}
        documented[cells[0]] = uses
    if documented != ALLOWED:
        for module in sorted(set(documented) | set(ALLOWED)):
            if documented.get(module) != ALLOWED.get(module):
                problems.append(f"docs/architecture.md: module {module!r} may use "
                                f"{sorted(documented.get(module, []))} there, "
                                f"{sorted(ALLOWED.get(module, []))} here")
    # Code points to the repository's own documents.
    for top in ("src", "include", "tests", "fuzz", "bench", "scripts", "cmake"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            if "golden" in dirpath.split(os.sep):
                continue
            for name in names:
                if not name.endswith((".cpp", ".hpp", ".py", ".sh", ".txt", ".cmake")):
                    continue
                file = os.path.join(dirpath, name)
                try:
                    for n, line in enumerate(open(file, encoding="utf-8"), 1):
                        if re.search(r"DESIGN(\.md)? section", line):
                            problems.append(f"{os.path.relpath(file, root)}:{n}: cites a document "
                                            "that is not in the repository; point to docs/")
                        if name == "layering_test.py":
                            continue  # its own examples and plants
                        for cited in re.finditer(CITATION, line):
                            problem = citation_problem(root, cited.group(1), cited.group(2))
                            if problem:
                                problems.append(f"{os.path.relpath(file, root)}:{n}: {problem}")
                except UnicodeDecodeError:
                    continue
    return problems


# A document cited by a comment, with the section it names when the quote
# closes on the same line: (docs/node-pools.md, "Feasibility").
CITATION = r'\b((?:docs/[\w.-]+|bench/JOURNAL)\.md)(?:#[\w-]+)?(?:, "([^"]+)")?'


def citation_problem(root, document, section):
    path = os.path.join(root, document)
    if not os.path.isfile(path):
        return f"cites {document}, which does not exist"
    if section:
        headings = [h.strip() for h in re.findall(r"(?m)^#+ (.*)$", open(path, encoding="utf-8").read())]
        if not any(h.startswith(section) for h in headings):
            return f"cites {document}, \"{section}\", which is not a heading there"
    return None


def check_top_floor(root):
    """The command line includes only what wires it (CLI_INCLUDES) and stays
    small; nothing but the session calls the engine's entry points."""
    problems = []
    lines = 0
    for path in module_files(root, "cli"):
        rel = os.path.relpath(path, root)
        text = open(path, encoding="utf-8").read()
        lines += text.count("\n")
        for kind, target in INCLUDE.findall(text):
            found = resolve(root, kind, target)
            if found and found[1] != "cli" and module_of(found[1]) not in CLI_INCLUDES:
                problems.append(f"{rel}: the command line includes {target}; it wires flags to the "
                                "surfaces (surface/) and the session (app/), which do the work")
    if lines > CLI_MOST_LINES:
        problems.append(f"src/cli/: {lines} lines, more than {CLI_MOST_LINES}: the command line "
                        "holds flags and process concerns only")
    for top in ("src", "include"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                if not name.endswith((".cpp", ".hpp")) or rel.startswith(ENGINE_CALLERS):
                    continue
                for n, line in enumerate(open(path, encoding="utf-8"), 1):
                    if ENGINE_ENTRIES.search(line):
                        problems.append(f"{rel}:{n}: calls the engine; a surface reaches it through "
                                        "app::Session")
    return problems


def check(root):
    return (check_includes(root) + check_links(root) + check_failures(root) + check_documented(root)
            + check_top_floor(root))


def self_test(root):
    """Each planted break must be caught, and caught for what it is."""
    plants = [
        ("an upward include", "src/edit/planted.cpp", None,
         "#include <archfit/placement/plan.hpp>\n", "module 'edit' reaches module 'placement'"),
        ("a transitive include", "include/archfit/manifest/workload.hpp",
         "#pragma once\n", "#pragma once\n#include <archfit/resolve/resolution.hpp>\n",
         "module 'placement' reaches module 'resolve' through archfit/manifest/workload.hpp -> "
         "archfit/resolve/resolution.hpp"),
        ("an include across a module's parts", "src/registry/transport/planted.cpp", None,
         "#include <archfit/registry/credentials/keychain.hpp>\n",
         "module 'registry/transport' reaches module 'registry/credentials'"),
        ("an include of a feature from below it", "src/placement/planted.cpp", None,
         "#include <archfit/spread/feature.hpp>\n", "module 'placement' reaches module 'spread'"),
        ("a part's link to a part above it", "CMakeLists.txt",
         "archfit_module(spread/model DEPS archfit_yaml",
         "archfit_module(spread/model DEPS archfit_yaml archfit_nodepools_model",
         "module 'spread/model' links archfit_nodepools_model"),
        ("a std:: exception", "src/image/planted.cpp", None,
         'void f() { throw std::runtime_error("x"); }\n', "throws a std:: exception"),
        ("a failure in an older shape", "include/archfit/image/planted.hpp", None,
         "std::string name_problem(std::string_view text);\n", "reports failure in an older shape"),
        ("a link to a module above", "CMakeLists.txt",
         "archfit_module(edit DEPS archfit_yaml", "archfit_module(edit DEPS archfit_yaml archfit_placement",
         "module 'edit' links archfit_placement"),
        ("a layering the documents do not say", "docs/architecture.md",
         "| edit | applying planned changes to YAML text and proving the result | base, yaml |",
         "| edit | applying planned changes to YAML text and proving the result | base, yaml, placement |",
         "docs/architecture.md: module 'edit' may use"),
        ("a citation of a document that does not exist", "include/archfit/image/planted.hpp", None,
         "// As docs/nowhere.md says.\n", "cites docs/nowhere.md, which does not exist"),
        ("a citation of a section that does not exist", "include/archfit/image/planted.hpp", None,
         '// (docs/performance.md, "No such heading").\n',
         'cites docs/performance.md, "No such heading", which is not a heading there'),
        ("run logic in the command line", "src/cli/planted.cpp", None,
         "#include <archfit/run/run.hpp>\n", "the command line includes archfit/run/run.hpp"),
        ("a surface that calls the engine", "src/surface/krm/planted.cpp", None,
         "void f() { archfit::run::run_pipeline({}, {}, {}, {}); }\n", "calls the engine"),
        ("a surface that reaches another", "src/surface/krm/planted.cpp", None,
         "#include <archfit/surface/argocd/argocd.hpp>\n",
         "module 'surface/krm' reaches module 'surface/argocd'"),
        ("a link dependency", "CMakeLists.txt",
         "archfit_module(yaml DEPS archfit_base", "archfit_module(yaml DEPS archfit_base archfit_curl_headers",
         "module 'yaml' links libcurl"),
    ]
    failures = 0
    if check(root):
        print("self-test: the tree itself does not pass; fix that first", file=sys.stderr)
        return 1
    for what, rel, old, new, expected in plants:
        with tempfile.TemporaryDirectory() as tmp:
            for part in ("include", "src", "CMakeLists.txt", "docs", "bench"):
                source = os.path.join(root, part)
                if os.path.isdir(source):
                    shutil.copytree(source, os.path.join(tmp, part))
                else:
                    shutil.copy(source, os.path.join(tmp, part))
            path = os.path.join(tmp, rel)
            if old is None:
                open(path, "w").write(new)
            else:
                text = open(path).read()
                if old not in text:
                    print(f"self-test: cannot plant {what}: {old!r} is not in {rel}", file=sys.stderr)
                    failures += 1
                    continue
                open(path, "w").write(text.replace(old, new, 1))
            problems = check(tmp)
            if not any(expected in p for p in problems):
                print(f"self-test: {what} in {rel} was not caught (wanted {expected!r}; got {problems})",
                      file=sys.stderr)
                failures += 1
            else:
                print(f"self-test: {what} is caught")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--self-test":
        return self_test(argv[2])
    root = argv[1] if len(argv) > 1 else "."
    problems = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"layering: {len(ALLOWED)} modules, includes (transitively), links and "
              "docs/architecture.md agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
