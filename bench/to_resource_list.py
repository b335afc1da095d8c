#!/usr/bin/env python3
"""Wraps a multi-document YAML stream into a KRM ResourceList (bench/run krm):
each document becomes an item, indented under `items:`, its bytes otherwise as
they are (leading comments dropped); comment-only documents are left out.

usage: to_resource_list.py STREAM OUT
"""
import re
import sys

text = open(sys.argv[1]).read()
with open(sys.argv[2], "w") as out:
    out.write("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
    for doc in re.split(r"(?m)^---[^\n]*\n", text):
        lines = doc.rstrip("\n").split("\n")
        if "..." in lines:  # a document end marker: what follows is not the document's
            lines = lines[:lines.index("...")]
        # Leading comments (helm's `# Source:`) and blank lines go; the rest stays.
        while lines and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
            lines.pop(0)
        if not lines:
            continue
        out.write("- " + lines[0] + "\n")
        for line in lines[1:]:
            out.write(("  " + line if line else "") + "\n")
