"""Match a Middlebury 2003 pair with stereoview and look at it (run it cell by cell, or whole):

    PYTHONPATH=build/python python3 src/python/examples/match_middlebury.py [SCENE] [-o FIG.png]

The data is read from $STEREO_DATA_DIR/middlebury2003/SCENE (default ../shared/data, scene teddy).
Without a display the figure is written to a PNG file instead of shown."""
# %% Imports; matplotlib draws off screen when there is no display.
import argparse
import os
import sys

import matplotlib
import numpy as np

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend choice)

import stereoview  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("scene", nargs="?", default="teddy", help="teddy or cones")
parser.add_argument("-o", "--output", default="out/middlebury_example.png",
                    help="figure file, written when there is no display")
parser.add_argument("--engine", default="auto")
args = parser.parse_args()

data = os.environ.get("STEREO_DATA_DIR", "../shared/data")
folder = os.path.join(data, "middlebury2003", args.scene)
if not os.path.isdir(folder):
    sys.exit(f"no Middlebury data in {folder} (set STEREO_DATA_DIR)")

# %% The pair (BGR, as OpenCV reads it) and its ground truth: quarter pixels, 0 = unknown.
left = stereoview.read_image(os.path.join(folder, "im2.png"))
right = stereoview.read_image(os.path.join(folder, "im6.png"))
truth = stereoview.read_image(os.path.join(folder, "disp2.png"))[:, :, 0].astype(np.float32) / 4
truth[truth == 0] = np.nan
nonocc = stereoview.read_image(os.path.join(folder, "nonocc.png"))[:, :, 0] == 255

# %% Match: census + SGM over the 64 disparities the 2003 scenes need, with an LR check.
matcher = stereoview.Matcher(algorithm="census-sgm", engine=args.engine, disparities=64,
                             lr_check=True, median=3)
disparity = matcher.compute(left, right)
print(f"{args.scene}: {matcher.engine} engine, "
      f"{sum(matcher.timings.values()):.1f} ms over {len(matcher.timings)} stages")

# %% Bad-1 as `stereoview eval` counts it: invalid pixels are errors.
figures = stereoview.evaluate(disparity, truth, mask=nonocc)
print(f"bad-1 (nonocc): {figures['bad_1']:.2f} %   bad-2: {figures['bad_2']:.2f} %   "
      f"density: {figures['density']:.1f} %")

# %% Show the left view, the disparity and the ground truth.
fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
axes[0].imshow(left[:, :, ::-1])
axes[0].set_title("left")
axes[1].imshow(disparity, cmap="turbo", vmin=0, vmax=64)
axes[1].set_title(f"census-sgm, bad-1 {figures['bad_1']:.1f} %")
axes[2].imshow(truth, cmap="turbo", vmin=0, vmax=64)
axes[2].set_title("ground truth")
for axis in axes:
    axis.axis("off")
fig.tight_layout()
if matplotlib.get_backend().lower() == "agg":
    os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
    fig.savefig(args.output, dpi=80)
    print(f"figure written to {args.output}")
else:
    plt.show()
