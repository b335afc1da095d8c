"""What the end-to-end tests share: writing files, and a directory of
programs to put first on PATH."""

import os


def write(path, text):
    """Writes `text` to `path`, making its directories."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def bin_dir(path, **programs):
    """A directory at `path` holding a link NAME -> TARGET for each NAME=TARGET."""
    os.makedirs(path, exist_ok=True)
    for name, target in programs.items():
        os.symlink(target, os.path.join(path, name.replace("_", "-")))
    return path
