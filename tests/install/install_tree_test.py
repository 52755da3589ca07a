#!/usr/bin/env python3
"""`cmake --install` gives a tree that works wherever it is put: this installs the build folder
under test into a temporary prefix and runs the installed programs from another folder, with no
setting pointing at the tree:

- `stereoview --preset fast`: the installed preset is found by name (its values are saved back);
- `stereoview --headless --frames 2 --out out/x` writes its PFM and PNG files;
- `stereoview-viewer --frames 2 --screenshot` under an Xvfb of its own (skipped without Xvfb)
  reads the installed shaders: it runs, and with the installed view.frag made invalid it fails
  naming that file, so it is the installed copy that was read, not the source tree's;
- the Python module (when built) lands where Debian's python3 looks under that prefix
  (site.getsitepackages: lib/python3.X/dist-packages for a prefix other than /usr), and
  `python3 -m stereoview` runs from there with only that folder added to the path.

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


def python_module_problems(prefix, cwd, env):
    """What is wrong with the installed Python module's place (nothing when none was built)."""
    import site
    found = [root for root, _, files in os.walk(prefix)
             if any(f.startswith("_stereoview") for f in files)]
    if not found:
        print("note: this build has no Python module; its check is skipped")
        return []
    folder = os.path.dirname(found[0])  # the folder that holds the stereoview package
    if folder not in site.getsitepackages([prefix]) or "/python3/" in folder + "/":
        # lib/python3/dist-packages is on python3's path only under /usr itself.
        return [f"the Python module went to {folder}, where Debian's python3 does not look for "
                f"the prefix {prefix} (its places: {site.getsitepackages([prefix])})"]
    result = subprocess.run([sys.executable, "-c", "import stereoview; print(stereoview.__file__)"],
                            cwd=cwd, env={**env, "PYTHONPATH": folder}, capture_output=True,
                            text=True, timeout=60)
    if result.returncode != 0 or not result.stdout.startswith(folder):
        return [f"import stereoview from {folder} failed: {result.stderr.strip()[-300:]}"]
    return []


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

        problems += python_module_problems(prefix, elsewhere, env)

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
