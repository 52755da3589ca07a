#!/usr/bin/env python3
"""`cpack -G DEB` makes a .deb that installs stereoview as a Debian program: this builds it from
the build folder under test (into a temporary folder) and checks, with dpkg-deb:

- its control fields: package name, the project's version, this machine's architecture;
- its contents: both programs (executable), the shaders and presets, a man page per program, the
  desktop entry and its icon, all under /usr and nothing else (no tests, no build files);
- its declared dependencies: for every library a packaged program links (readelf's NEEDED),
  the Debian package that holds that library here (dpkg -S) is in Depends; no program needs a
  library that no Debian package holds (a CUDA runtime from /usr/local/cuda would be one);
  libgl1, which GLFW loads at run time, is declared;
- that the unpacked tree works where it lies: `usr/bin/stereoview --headless --preset fast
  --frames 1 --out DIR`, run from another folder, finds the packaged preset and writes its files.

Usage: deb_package_test.py --build DIR   (exit 0 when all holds; prints what failed)
"""

import argparse
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(*command, **kwargs):
    return subprocess.run(list(command), capture_output=True, text=True, check=True, **kwargs).stdout


def needed_libraries(elf):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", run("readelf", "-d", elf))


def library_packages(elf):
    """{library: the Debian package holding the file the dynamic loader resolves it to, or None}
    for each library `elf` needs; one dpkg -S for all of them (it is slow to start)."""
    listing = run("ldd", elf)
    resolved = dict(re.findall(r"^\s*(\S+) => (\S+)", listing, re.M))
    # The dynamic loader (NEEDED by programs that use thread-local storage, as libhwy's users do)
    # is listed by its path alone: "/lib64/ld-linux-x86-64.so.2 (0x...)".
    for path in re.findall(r"^\s*(/\S+) \(0x", listing, re.M):
        resolved.setdefault(os.path.basename(path), path)
    variants = {}
    for library in needed_libraries(elf):
        path = resolved.get(library)
        if path:  # merged /usr: dpkg may know the file under /lib, or only its link target
            variants[library] = {v for c in (path, os.path.realpath(path))
                                 for v in (c, c.replace("/usr/lib/", "/lib/", 1))}
        else:
            variants[library] = set()
    queries = sorted(set().union(*variants.values()))
    found = subprocess.run(["dpkg", "-S", *queries], capture_output=True, text=True).stdout
    owner = {path.strip(): package.split(":")[0]
             for package, path in (line.rsplit(": ", 1) for line in found.splitlines() if ": " in line)}
    return {library: next((owner[v] for v in sorted(paths) if v in owner), None)
            for library, paths in variants.items()}


def dependency_names(depends):
    """The package names of a Depends field (alternatives included, versions dropped)."""
    return {re.sub(r"[\s(].*", "", alt.strip()).split(":")[0]
            for clause in depends.split(",") for alt in clause.split("|") if alt.strip()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    for tool in ("cpack", "dpkg-deb", "dpkg-shlibdeps", "readelf"):
        if not shutil.which(tool):
            print(f"skip: {tool} is not installed (apt-get install cmake dpkg-dev binutils)")
            return 0

    problems = []
    work = tempfile.mkdtemp(prefix="sv_deb_")
    try:
        made = subprocess.run(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"),
                               "-B", work], cwd=work, capture_output=True, text=True)
        debs = glob.glob(os.path.join(work, "*.deb"))
        if made.returncode != 0 or len(debs) != 1:
            print("FAIL  cpack -G DEB:\n" + made.stdout[-3000:] + made.stderr[-3000:])
            return 1
        deb = debs[0]
        print(f"made {os.path.basename(deb)} ({os.path.getsize(deb) // 1024} KiB)")

        def field(name):
            return run("dpkg-deb", "--field", deb, name).strip()

        version = re.search(r"project\(stereoview VERSION (\S+)",
                            open(os.path.join(os.path.dirname(__file__), "../../CMakeLists.txt")).read())
        expected_fields = {"Package": "stereoview", "Version": version.group(1),
                           "Architecture": run("dpkg", "--print-architecture").strip()}
        for name, value in expected_fields.items():
            if field(name) != value:
                problems.append(f"{name} is {field(name)!r}, expected {value!r}")

        listing = run("dpkg-deb", "--contents", deb)
        entries = {}
        for line in listing.splitlines():
            mode, path = line.split()[0], line.split()[-1]
            entries[path.lstrip(".")] = mode
        files = {p for p, mode in entries.items() if not mode.startswith("d")}
        viewer_built = os.path.exists(os.path.join(build, "ui", "stereoview-viewer"))
        expected = {"/usr/bin/stereoview", "/usr/share/stereoview/presets/default.preset",
                    "/usr/share/stereoview/presets/fast.preset", "/usr/share/man/man1/stereoview.1.gz"}
        if viewer_built:
            expected |= {"/usr/bin/stereoview-viewer", "/usr/share/stereoview/shaders/view.vert",
                         "/usr/share/stereoview/shaders/view.frag",
                         "/usr/share/stereoview/shaders/cloud.vert",
                         "/usr/share/stereoview/shaders/cloud.frag",
                         "/usr/share/man/man1/stereoview-viewer.1.gz",
                         "/usr/share/applications/stereoview-viewer.desktop",
                         "/usr/share/icons/hicolor/scalable/apps/stereoview.svg"}
        for path in sorted(expected - files):
            problems.append(f"the package lacks {path}")
        # The Python module's place (assets/packaging/CMakeLists.txt) is the one other file allowed.
        for path in sorted(files - expected):
            if not path.startswith("/usr/lib/python3/dist-packages/stereoview"):
                problems.append(f"the package holds an unexpected file: {path}")
        for program in ("/usr/bin/stereoview", "/usr/bin/stereoview-viewer"):
            if program in entries and entries[program] != "-rwxr-xr-x":
                problems.append(f"{program} has mode {entries[program]}, expected -rwxr-xr-x")

        unpacked = os.path.join(work, "root")
        run("dpkg-deb", "--extract", deb, unpacked)
        depends = field("Depends")
        declared = dependency_names(depends)
        print("Depends: " + depends)
        if "libgl1" not in declared and viewer_built:
            problems.append("libgl1 (GLFW loads it at run time) is not in Depends")
        for program in sorted(p for p in files if p.startswith("/usr/bin/")):
            elf = unpacked + program
            for library, package in library_packages(elf).items():
                if package is None:
                    problems.append(f"{program} needs {library}, which no Debian package holds here")
                elif package not in declared:
                    problems.append(f"{program} needs {library} from {package}, not in Depends")

        page = unpacked + "/usr/share/man/man1/stereoview.1.gz"
        if os.path.exists(page) and ".TH STEREOVIEW 1" not in gzip.open(page, "rt").read():
            problems.append("stereoview.1.gz is not the stereoview man page")
        desktop = unpacked + "/usr/share/applications/stereoview-viewer.desktop"
        if os.path.exists(desktop):
            text = open(desktop).read()
            for line in ("[Desktop Entry]", "Type=Application", "Exec=stereoview-viewer", "Icon=stereoview"):
                if line not in text.splitlines():
                    problems.append(f"the desktop entry lacks the line {line!r}")
            if shutil.which("desktop-file-validate"):
                check = subprocess.run(["desktop-file-validate", desktop], capture_output=True, text=True)
                if check.returncode != 0 or check.stdout.strip():
                    problems.append("desktop-file-validate: " + (check.stdout + check.stderr).strip())

        # The unpacked tree, run from another folder: the packaged preset is found by name.
        elsewhere = os.path.join(work, "elsewhere")
        os.makedirs(elsewhere)
        env = {k: v for k, v in os.environ.items() if k != "STEREOVIEW_DATA_DIR"}
        result = subprocess.run([unpacked + "/usr/bin/stereoview", "--headless", "--preset", "fast",
                                 "--size", "96x64", "--frames", "1", "--out", "out/x",
                                 "--save-preset", "saved.preset"], cwd=elsewhere, env=env,
                                capture_output=True, text=True, timeout=120)
        saved = os.path.join(elsewhere, "saved.preset")
        if result.returncode != 0 or not os.path.exists(saved):
            problems.append(f"the unpacked stereoview --preset fast failed: {result.stderr.strip()}")
        else:
            text = open(saved).read()
            if "pyramid-levels = 2" not in text or "paths = 4" not in text:
                problems.append("the unpacked stereoview did not load the packaged fast preset")
        result = subprocess.run([unpacked + "/usr/bin/stereoview", "--headless", "--size", "96x64",
                                 "--frames", "1", "--out", "out/x"], cwd=elsewhere, env=env,
                                capture_output=True, text=True, timeout=120)
        written = sorted(os.listdir(os.path.join(elsewhere, "out/x"))) if result.returncode == 0 else []
        if not any(n.endswith(".pfm") for n in written) or not any(n.endswith(".png") for n in written):
            problems.append(f"the unpacked stereoview --out wrote {written}: {result.stderr.strip()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for p in problems:
        print("FAIL  " + p)
    print("deb package: " + ("FAILED" if problems else "contents and dependencies as declared"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
