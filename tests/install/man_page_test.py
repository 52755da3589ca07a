#!/usr/bin/env python3
"""The built man pages say what the programs' --help says: for each program, the page the build
made (build/assets/packaging/man/PROGRAM.1.gz, what `cmake --install` and the .deb ship) is rendered by
groff, and every option of the current --help (its flags and its whole description) and every
paragraph must be in it, word for word; groff must give no warning.

The help is read here by its own simple rule (an option line starts with two spaces and a dash,
its flags end at two spaces; more deeply indented lines continue it), not by man_page.py's parser,
so a page that drops or garbles an entry fails.

Usage: man_page_test.py --build DIR PROGRAM...   (exit 0 when every page passes)
"""

import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys


def normalize(text):
    return " ".join(text.split())


def help_entries(help_text):
    """Each option as (flags, description) and each column-0 paragraph as ("", text), from the
    usage line on (the title before it is the page's NAME)."""
    lines = help_text.splitlines()
    usage = next(i for i, line in enumerate(lines) if line.lower().startswith("usage:"))
    entries, current = [], None
    for line in lines[usage + 1:]:
        if line.startswith("  -"):
            parts = re.split(r" {2,}", line.strip(), maxsplit=1)
            current = [parts[0], parts[1] if len(parts) > 1 else ""]
            entries.append(current)
        elif line.startswith("   ") and current and current[0]:
            current[1] += " " + line.strip()
        elif line.strip() and not line.startswith(" ") and not line.endswith(":"):
            if current and not current[0]:
                current[1] += " " + line.strip()
            else:
                current = ["", line.strip()]
                entries.append(current)
        else:
            current = None
    return [(flags, normalize(text)) for flags, text in entries]


def rendered(page_gz):
    """(plain text of the page, groff's warnings)"""
    with gzip.open(page_gz, "rt", encoding="utf-8") as f:
        source = f.read()
    run = subprocess.run(["groff", "-man", "-Tascii", "-ww", "-P-cbou", "-rLL=200n"],
                         input=source, capture_output=True, text=True, check=True)
    text = re.sub(r".\x08", "", run.stdout)
    return normalize(text), run.stderr.strip()


def check(build, program):
    problems = []
    binary = {"stereoview": "src/app/stereoview", "stereoview-viewer": "ui/stereoview-viewer"}[program]
    page = os.path.join(build, "assets", "packaging", "man", program + ".1.gz")
    if not os.path.exists(page):
        return [f"{page}: not built (the man_pages target)"]
    help_text = subprocess.run([os.path.join(build, binary), "--help"], capture_output=True,
                               text=True, check=True, timeout=60).stdout
    text, warnings = rendered(page)
    if warnings:
        problems.append(f"groff warns about {page}: {warnings}")
    entries = help_entries(help_text)
    if len(entries) < 20:
        problems.append(f"{program} --help: only {len(entries)} entries read; its layout changed?")
    for flags, description in entries:
        if flags and normalize(flags) not in text:
            problems.append(f"{program}.1 lacks the option {flags!r}")
        if description and description not in text:
            problems.append(f"{program}.1 lacks {flags or 'the paragraph'}: {description[:70]!r}...")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    if not shutil.which("groff"):
        print("skip: groff is not installed (apt-get install groff-base)")
        return 0
    failed = False
    for program in args.programs:
        problems = check(args.build, program)
        for p in problems:
            print("FAIL  " + p)
        print(f"{'FAIL' if problems else 'pass'}  {program}.1 matches {program} --help")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
