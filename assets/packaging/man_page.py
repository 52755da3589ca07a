#!/usr/bin/env python3
"""Writes a program's man page from its --help text and a hand-written template, so the page can
never disagree with the program: the build runs this after linking the program.

The template is groff (man macros) with three placeholder lines, each replaced by what the help
text holds:
  @SYNOPSIS@  the usage lines ("Usage:" and the indented lines under it, or "usage: ..."),
  @INTRO@     the paragraphs between the usage and the first section,
  @OPTIONS@   every section ("Name:" at column 0) as .SS with its options as .TP items, and the
              paragraphs between sections as they stand,
and @VERSION@ by --version's value.

The help layout read: an option line starts with two spaces and a dash; its flags end at the first
run of two spaces, its description follows and continues on more deeply indented lines.

Usage: man_page.py --binary PROGRAM --template FILE.in --version V --out FILE[.gz]
"""

import argparse
import gzip
import re
import subprocess
import sys


def escape(text):
    """Text as groff prints it literally: backslashes and dashes escaped, and a line never starting
    with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def parse_help(help_text):
    """(synopsis lines, intro paragraphs, sections); a section is (title, items), an item is
    ("option", flags, description) or ("text", paragraph)."""
    lines = help_text.splitlines()
    synopsis, intro, sections = [], [], []
    i = 0
    # Whatever precedes the usage (a one-line title) is the template's NAME line.
    while i < len(lines) and not lines[i].lower().startswith("usage:"):
        i += 1
    if i == len(lines):
        raise ValueError("the help text has no usage line")
    inline = lines[i][len("usage:"):].strip()
    if inline:
        synopsis.append(inline)
    i += 1
    while i < len(lines) and lines[i].startswith(" "):
        if lines[i].startswith("   ") and synopsis:  # a usage line continued
            synopsis[-1] += " " + lines[i].strip()
        else:
            synopsis.append(lines[i].strip())
        i += 1

    items = intro
    paragraph = []

    def end_paragraph():
        if paragraph:
            items.append(("text", " ".join(paragraph)))
            paragraph.clear()

    for line in lines[i:]:
        if not line.strip():
            end_paragraph()
        elif not line.startswith(" ") and line.endswith(":"):
            end_paragraph()
            sections.append((line[:-1], []))
            items = sections[-1][1]
        elif line.startswith("  -"):
            end_paragraph()
            match = re.match(r"  (\S.*?)(?: {2,}(\S.*))?$", line)
            items.append(("option", match.group(1), match.group(2) or ""))
        elif line.startswith("   ") and items and items[-1][0] == "option" and not paragraph:
            kind, flags, description = items[-1]
            items[-1] = (kind, flags, (description + " " + line.strip()).strip())
        else:
            paragraph.append(line.strip())
    end_paragraph()
    return synopsis, intro, sections


def render_items(items):
    out = []
    for item in items:
        if item[0] == "option":
            out += [".TP", ".B " + escape(item[1]), escape(item[2])]
        else:
            out += [".PP", escape(item[1])]
    return out


def man_page(template, help_text, version):
    synopsis, intro, sections = parse_help(help_text)
    replacements = {
        "@SYNOPSIS@": [line for s in synopsis for line in (escape(s), ".br")][:-1],
        "@INTRO@": render_items(intro),
        "@OPTIONS@": [line for title, items in sections
                      for line in [".SS " + escape(title)] + render_items(items)],
    }
    out = []
    for line in template.replace("@VERSION@", version).splitlines():
        out += replacements.get(line.strip(), [line])
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--template", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--out", required=True, help="FILE.gz is written gzipped")
    args = parser.parse_args()
    run = subprocess.run([args.binary, "--help"], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        print(f"error: {args.binary} --help exited with {run.returncode}: {run.stderr.strip()}",
              file=sys.stderr)
        return 1
    with open(args.template, encoding="utf-8") as f:
        template = f.read()
    try:
        page = man_page(template, run.stdout, args.version)
    except ValueError as e:
        print(f"error: {args.binary} --help: {e}", file=sys.stderr)
        return 1
    data = page.encode("utf-8")
    if args.out.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)  # the same bytes from the same help
    with open(args.out, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
