#!/usr/bin/env python3
"""Runs the command lines of README.md, then of the docs/*.md pages in the order the README links
them, as a new user would: from the root of a fresh copy of the repository (tracked files only,
so no out/ folder and no earlier output), one after another, as written. Only the build (this test
runs inside it) and the built programs are shared: the copy's build/ links to the build folder
under test, and ../shared/data is linked beside the copy when it exists. The README's
`cmake --build` lines run too (nothing to do in a whole build; in a user's build they make what
the section needs).

With --in-place the commands run in --source itself with its own build/, as after only the
README's first command on a fresh clone (scripts/fresh_machine_check.sh does that): every section
must then build what it uses.

Skipped, each with its reason printed: lines that need a camera, a GPU or the network, the
scripts that set up and build the whole project, configure lines (cmake -S/-B), lines run with
sudo, and lines that read ../shared/data when it is absent. Viewer lines
run under an Xvfb this test starts; a viewer still running after a few seconds is shown to be up
and is then closed with SIGTERM, as a user closing it would. Every other line must exit 0 on its
own, and no line may print "error:".

Usage: readme_commands_test.py --source DIR --build DIR [--data DIR] [--only SUBSTRING]
Exit 0 when every line that ran passed; prints one line per README command and a summary.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CLI_TIMEOUT_S = 600      # the longest README line (an eval over four pairs) takes well under this
BUILD_TIMEOUT_S = 3600   # a `cmake --build` line after only run.sh builds a program from nothing
VIEWER_UP_S = 6          # a viewer that runs this long without an error is up
VIEWER_EXIT_S = 20       # after SIGTERM it must be gone within this


def readme_commands(readme_text):
    """The shell commands of the ```sh blocks: continuation lines joined, comments dropped, and
    multi-line compound commands (for ... done) kept together."""
    commands = []
    in_block = False
    pending = ""
    depth = 0
    for raw in readme_text.splitlines():
        if raw.startswith("```"):
            in_block = raw.strip() == "```sh" if not in_block else False
            pending, depth = "", 0
            continue
        if not in_block:
            continue
        line = strip_comment(raw).rstrip()
        if not line.strip() and not pending:
            continue
        continued = line.endswith("\\")
        if continued:
            line = line[:-1]
        pending = (pending + " " + line.strip()).strip() if pending else line.strip()
        if re.match(r"^(for|while|if)\b", line.strip()):
            depth += 1
        if re.match(r"^(done|fi)\b", line.strip()):
            depth -= 1
        elif depth > 0 and not continued and not pending.endswith(";"):
            pending += ";" if not pending.endswith(("do", "then", "else")) else ""
        if not continued and depth <= 0 and pending:
            commands.append(pending)
            pending, depth = "", 0
    return commands


def strip_comment(line):
    """The line without a shell comment (a '#' at the start of a word, outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


# Commands that read the shared data without naming its folder: the Middlebury example takes a
# scene name and looks for it there.
DATA_READERS = ("examples/match_middlebury.py",)


def skip_reason(command, data_present):
    words = command.split()
    if any(w in ("--camera", "--uvc") for w in words):
        return "needs a camera"
    if "--engine cuda" in command or "gpu_check" in command or "gpu_gl_check" in command:
        return "needs a GPU"
    if words and (words[0] in ("scripts/test.sh", "scripts/run.sh")
                  or words[0].endswith("/test.sh") or words[0].endswith("/run.sh")
                  or (words[0] == "cmake" and ("-S" in words or "-B" in words))):
        return "sets up or configures the project (this test runs inside that build)"
    if words and words[0] == "sudo":
        return "needs sudo (installs into the system)"
    if not data_present and ("../shared/data" in command or any(r in command for r in DATA_READERS)):
        return "needs ../shared/data"
    return None


def copy_tracked_tree(source, destination):
    """The repository as a fresh clone has it: tracked files of the working tree, nothing else."""
    try:
        listing = subprocess.run(["git", "-C", source, "ls-files", "-z"], check=True,
                                 capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: everything but output
        listing = [os.path.relpath(os.path.join(folder, name), source)
                   for folder, subfolders, names in os.walk(source)
                   if not os.path.relpath(folder, source).split(os.sep)[0].startswith(("build", "out", ".git"))
                   for name in names]
    for name in filter(None, listing):
        src = os.path.join(source, name)
        if not os.path.lexists(src):
            continue  # deleted in the working tree
        dst = os.path.join(destination, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def documentation_pages(source):
    """README.md, then each docs/*.md page in the order the README first links it, then any page
    it does not link (sorted)."""
    docs = os.path.join(source, "docs")
    pages = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    linked = re.findall(r"\(docs/([A-Za-z0-9_.-]+\.md)", read(os.path.join(source, "README.md")))
    ordered = list(dict.fromkeys(n for n in linked if n in pages)) + [n for n in pages if n not in linked]
    return [os.path.join(source, "README.md")] + [os.path.join(docs, n) for n in ordered]


# What each built program is, by how a command line names it, and the build target that makes it.
BUILT_PROGRAMS = (
    (re.compile(r"(^|[\s(])build/src/app/stereoview\b"), "stereoview"),
    (re.compile(r"(^|[\s(])build/ui/stereoview-viewer\b"), "stereoview-viewer"),
    (re.compile(r"\bPYTHONPATH=build/python\b"), "stereoview_python"),
    (re.compile(r"(^|[\s(])(scripts/cpu_bench\.sh|build/src/bench/cpu_vs_opencv_bench)\b"),
     "cpu_vs_opencv_bench"),
    (re.compile(r"^cmake --install\b|\bcpack\b"), "all"),
)


def built_targets(command):
    """The targets a `cmake --build build` line makes ("all" without --target), else none."""
    words = command.split()
    if words[:3] != ["cmake", "--build", "build"]:
        return set()
    if "--target" not in words:
        return {"all"}
    return set(words[words.index("--target") + 1:]) - {"--"}


def unbuilt_uses(commands):
    """The (command, target) pairs of a page whose program no earlier line of the page builds:
    after only run.sh, which builds one program, such a line fails."""
    built = set()
    missing = []
    for command in commands:
        built |= built_targets(command)
        for pattern, target in BUILT_PROGRAMS:
            if pattern.search(command) and target not in built and "all" not in built:
                missing.append((command, target))
    return missing


class Xvfb:
    def __init__(self):
        self.process = None
        self.display = None

    def start(self):
        if self.process:
            return self.display
        if not shutil.which("Xvfb"):
            raise RuntimeError("Xvfb is not installed (apt-get install xvfb)")
        for number in range(140, 200):
            if os.path.exists(f"/tmp/.X{number}-lock"):
                continue
            process = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1080x24",
                                        "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            for _ in range(50):
                if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                    self.process, self.display = process, f":{number}"
                    return self.display
                if process.poll() is not None:
                    break
                time.sleep(0.1)
            process.kill()
        raise RuntimeError("could not start Xvfb")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)


def is_build(command):
    return command.startswith("cmake --build")


def is_viewer_run(command):
    """A line that starts the viewer (not one that builds it)."""
    return "stereoview-viewer" in command and not is_build(command)


def run_command(command, cwd, env, is_viewer):
    """(passed, what happened, output)"""
    start = time.monotonic()
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    limit_s = BUILD_TIMEOUT_S if is_build(command) else CLI_TIMEOUT_S
    try:
        output, _ = process.communicate(timeout=VIEWER_UP_S if is_viewer else limit_s)
        elapsed = time.monotonic() - start
        text = output.decode(errors="replace")
        ok = process.returncode == 0 and "error:" not in text
        return ok, f"exit {process.returncode} after {elapsed:.1f} s", text
    except subprocess.TimeoutExpired:
        if not is_viewer:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return False, f"still running after {limit_s} s", output.decode(errors="replace")
        os.killpg(process.pid, signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=VIEWER_EXIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return False, f"up, but ignored SIGTERM for {VIEWER_EXIT_S} s", output.decode(errors="replace")
        text = output.decode(errors="replace")
        ok = "error:" not in text
        return ok, f"up for {VIEWER_UP_S} s, closed by SIGTERM (exit {process.returncode})", text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--data", default=None, help="the shared data folder (default ../shared/data "
                        "beside the source, or STEREO_DATA_DIR)")
    parser.add_argument("--only", default=None, help="run only commands containing this text")
    parser.add_argument("--in-place", action="store_true", help="run in --source itself, with "
                        "its own build/ (as a user after the README's first command)")
    args = parser.parse_args()

    source = os.path.abspath(args.source)
    data = args.data or os.environ.get("STEREO_DATA_DIR") or os.path.join(source, "..", "shared", "data")
    data_present = os.path.isdir(data)
    commands = [c for page in documentation_pages(source) for c in readme_commands(read(page))]

    work = tempfile.mkdtemp(prefix="sv_readme_")
    clone = source if args.in_place else os.path.join(work, "stereoview")
    xvfb = Xvfb()
    results = []
    try:
        if not args.in_place:
            copy_tracked_tree(source, clone)
            os.symlink(os.path.abspath(args.build), os.path.join(clone, "build"))
        if data_present and os.path.abspath(data) != os.path.abspath(os.path.join(clone, "..", "shared", "data")):
            os.makedirs(os.path.join(work, "shared"))
            os.symlink(os.path.abspath(data), os.path.join(work, "shared", "data"))
            if args.in_place:
                print(f"note: --in-place reads the data at {data} only where it is ../shared/data")
        env = dict(os.environ)
        env.pop("DISPLAY", None)
        env.pop("STEREO_DATA_DIR", None)
        for command in commands:
            if args.only and args.only not in command:
                continue
            reason = skip_reason(command, data_present)
            if reason:
                results.append(("skip", command, reason, ""))
                continue
            is_viewer = is_viewer_run(command)
            run_env = dict(env)
            if is_viewer:
                run_env["DISPLAY"] = xvfb.start()
            ok, what, output = run_command(command, clone, run_env, is_viewer)
            results.append(("pass" if ok else "FAIL", command, what, output))
            print(f"{'pass' if ok else 'FAIL'}  {command}\n      {what}", flush=True)
            if not ok:
                print("      " + "\n      ".join(output.strip().splitlines()[-15:]), flush=True)
    finally:
        xvfb.stop()
        shutil.rmtree(work, ignore_errors=True)

    for status, command, why, _ in results:
        if status == "skip":
            print(f"skip  {command}\n      {why}")
    passed = sum(r[0] == "pass" for r in results)
    failed = sum(r[0] == "FAIL" for r in results)
    skipped = sum(r[0] == "skip" for r in results)
    print(f"README and docs commands: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
