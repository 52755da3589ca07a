#!/usr/bin/env python3
"""Tells whether every failed test of a ctest JUnit report failed only because LeakSanitizer's
own stop-the-world tracer crashed at process exit ("Tracer caught signal 11 ... LeakSanitizer
has encountered a fatal error"), a sanitizer flake seen with Mesa's llvmpipe threads alive at
exit (google/sanitizers#1353) that says nothing of our code. scripts/sanitizer_test.sh reruns
such tests once; any other failure (a leak report, an ASan or UBSan error, a test without the
tracer crash) is never rerun.

Usage: lsan_tracer_crash.py REPORT.xml   exit 0 = rerun these, 1 = a real failure, 2 = bad use
Prints the names of the failed tests on standard output.
"""
import sys
import xml.etree.ElementTree as ElementTree

TRACER_CRASH = ("Tracer caught signal", "LeakSanitizer has encountered a fatal error")
REAL_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer: detected memory leaks",
                "runtime error:", "ThreadSanitizer")


def only_tracer_crash(output):
    return all(s in output for s in TRACER_CRASH) and not any(s in output for s in REAL_REPORTS)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        cases = ElementTree.parse(argv[1]).getroot().iter("testcase")
    except (OSError, ElementTree.ParseError) as error:
        print(f"lsan_tracer_crash.py: cannot read {argv[1]}: {error}", file=sys.stderr)
        return 2
    failed = [c for c in cases if c.get("status") == "fail"]
    for case in failed:
        print(case.get("name"))
    if failed and all(only_tracer_crash(c.findtext("system-out") or "") for c in failed):
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
