"""What the end-to-end tests share: writing files, and a directory of
programs to put first on PATH."""

import os


# Values a pull request's author, an Application owner or a chart may put where a
# surface takes a value: options, expressions of find, line breaks that add workflow
# outputs or commands, command substitution, quotes, globs, paths that leave the root.
HOSTILE = [
    "-delete", "-exec touch pwned ;", "--config=evil.yaml", "-", "--", "-v", "!", "(",
    "$(touch pwned)", "`touch pwned`", "'; touch pwned; '", '"', "\\", "*", "?", "[a-z]*",
    "a b", " ", "x\nexit-code=0", "r.sarif\nexit-code=0", "\n::error::injected",
    "%0A::error::injected", "::stop-commands::x", "../../../../etc/passwd", "/etc/passwd",
    "/dev/zero", "~", "${HOME}", "x" * 300,
]


def write(path, text):
    """Writes `text` to `path`, making its directories; returns the path."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def tree_of(root):
    """Every file under `root` (links as links) with its bytes: a snapshot to compare."""
    out = {}
    for dirpath, dirs, names in os.walk(root):
        for n in names + [d for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
            p = os.path.join(dirpath, n)
            if os.path.islink(p):
                out[os.path.relpath(p, root)] = "-> " + os.readlink(p)
            else:
                with open(p, "rb") as f:
                    out[os.path.relpath(p, root)] = f.read()
    return out


def bin_dir(path, **programs):
    """A directory at `path` holding a link NAME -> TARGET for each NAME=TARGET."""
    os.makedirs(path, exist_ok=True)
    for name, target in programs.items():
        os.symlink(target, os.path.join(path, name.replace("_", "-")))
    return path
