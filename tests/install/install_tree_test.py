#!/usr/bin/env python3
"""`cmake --install` gives a tree that works wherever it is put: this installs the build folder
under test into a temporary prefix and runs the installed programs from another folder, with no
setting pointing at the tree:

- `stereoview --preset fast`: the installed preset is found by name (its values are saved back);
- `stereoview --headless --frames 2 --out out/x` writes its PFM and PNG files;
- `stereoview-viewer --frames 2 --screenshot` under an Xvfb of its own (skipped without Xvfb)
  reads the installed shaders: it runs, and with the installed view.frag made invalid it fails
  naming that file, so it is the installed copy that was read, not the source tree's.

Usage: install_tree_test.py --build DIR   (exit 0 when all holds; prints what failed)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def start_xvfb():
    """(process, display) of an Xvfb on the first free display, or (None, None)."""
    if not shutil.which("Xvfb"):
        return None, None
    for number in range(200, 260):
        if os.path.exists(f"/tmp/.X{number}-lock"):
            continue
        process = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-nolisten",
                                    "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                return process, f":{number}"
            if process.poll() is not None:
                break
            time.sleep(0.1)
        process.kill()
        process.wait()
    return None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True)
    args = parser.parse_args()
    problems = []
    work = tempfile.mkdtemp(prefix="sv_install_")
    xvfb = None
    try:
        prefix = os.path.join(work, "prefix")
        installed = subprocess.run(["cmake", "--install", os.path.abspath(args.build), "--prefix", prefix],
                                   capture_output=True, text=True)
        if installed.returncode != 0:
            print("FAIL  cmake --install:\n" + installed.stdout[-2000:] + installed.stderr[-2000:])
            return 1
        elsewhere = os.path.join(work, "elsewhere")
        os.makedirs(elsewhere)
        env = {k: v for k, v in os.environ.items()
               if k not in ("STEREOVIEW_DATA_DIR", "STEREOVIEW_SHADER_DIR", "DISPLAY")}

        def run(program, *arguments, extra_env=None):
            return subprocess.run([os.path.join(prefix, "bin", program), *arguments], cwd=elsewhere,
                                  env={**env, **(extra_env or {})}, capture_output=True, text=True,
                                  timeout=120)

        result = run("stereoview", "--preset", "fast", "--save-preset", "saved.preset")
        saved = os.path.join(elsewhere, "saved.preset")
        if result.returncode != 0 or not os.path.exists(saved):
            problems.append(f"stereoview --preset fast: {result.stderr.strip()}")
        elif "pyramid-levels = 2" not in open(saved).read():
            problems.append("stereoview --preset fast did not load the installed fast preset")

        result = run("stereoview", "--headless", "--size", "96x64", "--frames", "2", "--out", "out/x")
        written = sorted(os.listdir(os.path.join(elsewhere, "out/x"))) if result.returncode == 0 else []
        if sum(n.endswith(".pfm") for n in written) != 2 or sum(n.endswith(".png") for n in written) != 2:
            problems.append(f"stereoview --out wrote {written}: {result.stderr.strip()}")

        viewer = os.path.join(prefix, "bin", "stereoview-viewer")
        if not os.path.exists(viewer):
            print("note: this build has no viewer; its checks are skipped")
        else:
            xvfb, display = start_xvfb()
            if not xvfb:
                print("note: the viewer's checks are skipped: they need Xvfb (apt-get install xvfb)")
            else:
                viewer_env = {"DISPLAY": display, "LIBGL_ALWAYS_SOFTWARE": "1"}
                result = run("stereoview-viewer", "--size", "160x120", "--frames", "2", "--screenshot",
                             "out/viewer.png", extra_env=viewer_env)
                if result.returncode != 0 or not os.path.exists(os.path.join(elsewhere, "out/viewer.png")):
                    problems.append(f"the installed viewer failed: {result.stderr.strip()[-500:]}")
                shader = os.path.join(prefix, "share", "stereoview", "shaders", "view.frag")
                with open(shader, "w") as f:
                    f.write("#version 330 core\nthis is not GLSL\n")
                result = run("stereoview-viewer", "--size", "160x120", "--frames", "1",
                             extra_env=viewer_env)
                if result.returncode == 0 or shader not in result.stderr:
                    problems.append("the installed viewer did not read the installed shaders "
                                    f"(exit {result.returncode}): {result.stderr.strip()[-300:]}")
    finally:
        if xvfb:
            xvfb.terminate()
            xvfb.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)

    for p in problems:
        print("FAIL  " + p)
    print("installed tree: " + ("FAILED" if problems else "runs from another folder"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
