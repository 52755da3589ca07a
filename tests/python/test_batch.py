"""stereoview.batch on Dask (CPU engine, a local cluster of 2 worker processes): the files equal
a single `stereoview --headless --out` run's byte for byte, on a recorded synthetic video and a
Middlebury folder; a worker killed mid-chunk, a run stopped by Ctrl-C and run again, and a
corrupt source each still end with every frame written exactly once."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import needs_io, textured_pair

stereoview = pytest.importorskip("stereoview")
distributed = pytest.importorskip("distributed", reason="Dask's distributed is not installed")
pytestmark = needs_io

FRAMES = 12
PARAMS = {"disparities": 16}
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("STEREO_DATA_DIR", os.path.join(SOURCE_ROOT, "..", "shared", "data"))
MIDDLEBURY = os.path.join(DATA, "middlebury2003")


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    """A short side-by-side video of the synthetic scene, recorded by the CLI (--record raw)."""
    cli = os.environ.get("STEREOVIEW_CLI", "")
    if not os.path.exists(cli):
        pytest.skip("STEREOVIEW_CLI does not name the built stereoview program")
    folder = tmp_path_factory.mktemp("video")
    path = str(folder / "scene.mp4")
    subprocess.run([cli, "--headless", "--engine", "cpu", "--size", "96x64", "--frames",
                    str(FRAMES), "--disparities", "16", "--record", path, "--record-format", "raw"],
                   check=True, capture_output=True, timeout=120)
    return path


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def headless_files(tmp_path, *source_flags):
    """The files of one `stereoview --headless --out` run over the source."""
    out = tmp_path / "headless"
    subprocess.run([os.environ["STEREOVIEW_CLI"], "--headless", "--engine", "cpu",
                    "--disparities", "16", *source_flags, "--out", str(out)],
                   check=True, capture_output=True, timeout=300)
    return folder_bytes(out)


def folder_bytes(folder):
    return {name: open(os.path.join(folder, name), "rb").read()
            for name in sorted(os.listdir(folder)) if name.startswith("disparity_")}


def quiet_batch(sources, out, **options):
    with open(os.devnull, "w") as devnull:
        return stereoview.batch(sources, str(out), engine="cpu", params=PARAMS,
                                progress=devnull, **options)


def manifest_of(out):
    with open(os.path.join(out, "batch-manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def test_a_seek_gives_the_frame_read_in_order(video):
    in_order = [(left.copy(), right.copy()) for left, right, _ in stereoview.open_source(sbs=video)]
    assert len(in_order) == FRAMES
    for k in (1, 5, FRAMES - 1):
        source = stereoview.open_source(sbs=video)
        assert source.seek(k)
        left, right, _ = next(source)
        assert (left == in_order[k][0]).all() and (right == in_order[k][1]).all()
    assert not stereoview.open_source(sbs=video).seek(FRAMES + 3)


def test_a_video_in_chunks_gives_the_headless_files(tmp_path, video):
    expected = headless_files(tmp_path, "--sbs", video)
    assert len(expected) == 2 * FRAMES  # a PFM and a colour PNG per frame
    # Its own local cluster of two workers (the default path), chunks not dividing the video.
    report = quiet_batch(f"--sbs {video}", tmp_path / "batch", workers=2, chunk_frames=5)
    assert folder_bytes(tmp_path / "batch") == expected
    assert (report.frames_done, report.total_frames, report.chunks_run) == (FRAMES, FRAMES, 3)
    manifest = manifest_of(tmp_path / "batch")
    assert manifest["state"] == "complete" and manifest["frames_done"] == FRAMES
    assert not os.path.exists(tmp_path / "batch" / ".batch-partial")


def test_a_middlebury_folder_gives_the_headless_files(tmp_path, cluster):
    if not os.path.isdir(MIDDLEBURY):
        pytest.skip(f"no Middlebury 2003 folder at {MIDDLEBURY} (set STEREO_DATA_DIR)")
    expected = headless_files(tmp_path, "--dataset", MIDDLEBURY)
    report = quiet_batch(f"--dataset {MIDDLEBURY}", tmp_path / "batch", chunk_frames=1,
                         scheduler=cluster.scheduler_address)
    assert folder_bytes(tmp_path / "batch") == expected
    assert report.frames_done == len(expected) // 2 == 4 and not report.errors


def test_a_worker_killed_mid_chunk_loses_no_frame(tmp_path, video, cluster):
    expected = headless_files(tmp_path, "--sbs", video)
    out = tmp_path / "batch"
    partial = out / ".batch-partial"
    finished = []
    run = threading.Thread(target=lambda: finished.append(quiet_batch(
        f"--sbs {video}", out, chunk_frames=2, scheduler=cluster.scheduler_address)))
    run.start()
    killed = None
    while killed is None and run.is_alive():
        # A chunk in progress names its worker's process in its temporary folder.
        for name in (os.listdir(partial) if partial.exists() else []):
            pid = int(name.split("-pid")[1].split("-")[0])
            try:
                os.kill(pid, signal.SIGKILL)
                killed = pid
            except ProcessLookupError:
                continue
            break
        time.sleep(0.01)
    run.join(timeout=300)
    assert killed is not None, "no chunk was seen in progress"
    report = finished[0]
    assert folder_bytes(out) == expected
    assert report.frames_done == FRAMES and not report.errors
    chunks = manifest_of(out)["chunks"]
    assert sorted(c["start"] for c in chunks.values()) == list(range(0, FRAMES, 2))
    assert sum(c["frames"] for c in chunks.values()) == FRAMES


def test_a_corrupt_source_is_reported_and_the_others_finish(tmp_path, video):
    expected = headless_files(tmp_path, "--sbs", video)
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"\x00\x01 not a video" * 64)
    result = subprocess.run(
        [sys.executable, "-m", "stereoview", "batch", "--source", f"--sbs {video}",
         "--source", f"--sbs {corrupt}", "--out", str(tmp_path / "batch"), "--engine", "cpu",
         "--param", "disparities=16", "--workers", "2", "--chunk-frames", "4"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr
    assert f"source 1 (--sbs {corrupt})" in result.stderr
    assert folder_bytes(tmp_path / "batch" / "00-scene") == expected
    assert not os.path.exists(tmp_path / "batch" / "01-corrupt")
    manifest = manifest_of(tmp_path / "batch")
    assert manifest["state"] == "complete with errors" and len(manifest["errors"]) == 1


def test_a_bad_frame_is_reported_by_number_and_the_next_ones_are_written(tmp_path, cluster):
    sequence = tmp_path / "sequence"
    sequence.mkdir()
    for n in range(4):
        left, right = textured_pair(seed=n)
        for view, image in (("left", left), ("right", right)):
            height, width = image.shape
            (sequence / f"{view}_{n}.pgm").write_bytes(
                b"P5\n%d %d\n255\n" % (width, height) + image.tobytes())
    (sequence / "left_2.pgm").write_bytes(b"P5\nbroken")
    flags = f"--left {sequence}/left_%d.pgm --right {sequence}/right_%d.pgm"
    report = quiet_batch(flags, tmp_path / "batch", chunk_frames=4,
                         scheduler=cluster.scheduler_address)
    assert len(report.errors) == 1 and "frame 2:" in report.errors[0]
    assert "left_2.pgm" in report.errors[0]
    written = sorted(os.listdir(tmp_path / "batch"))
    assert [n for n in written if n.endswith(".pfm")] == [
        "disparity_000000.pfm", "disparity_000001.pfm", "disparity_000003.pfm"]


def test_a_chunk_that_cannot_write_is_reported_and_left_for_a_rerun(tmp_path, video, cluster):
    out = tmp_path / "batch"
    out.mkdir()
    (out / "01-scene").write_text("a file where source 1's folder would go")
    report = quiet_batch([f"--sbs {video}", f"--sbs {video}"], out, chunk_frames=6,
                         scheduler=cluster.scheduler_address)
    assert len(report.errors) == 2 and all("the chunk failed" in e for e in report.errors)
    assert report.frames_done == FRAMES and report.total_frames == 2 * FRAMES
    assert len(folder_bytes(out / "00-scene")) == 2 * FRAMES
    (out / "01-scene").unlink()
    rest = quiet_batch([f"--sbs {video}", f"--sbs {video}"], out, chunk_frames=6,
                       scheduler=cluster.scheduler_address)
    assert (rest.chunks_skipped, rest.chunks_run, rest.frames_done) == (2, 2, 2 * FRAMES)
    assert folder_bytes(out / "01-scene") == folder_bytes(out / "00-scene")


def test_ctrl_c_stops_the_command_and_a_rerun_does_the_rest(tmp_path, video, cluster):
    expected = headless_files(tmp_path, "--sbs", video)
    out = tmp_path / "batch"
    command = [sys.executable, "-m", "stereoview", "batch", "--source", f"--sbs {video}", "--out",
               str(out), "--engine", "cpu", "--param", "disparities=16", "--workers", "2",
               "--chunk-frames", "2"]
    # Its own process group, which Ctrl-C in a terminal signals whole: the client and workers.
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    while run.poll() is None and not (out / "batch-manifest.json").exists() or \
            run.poll() is None and manifest_of(out)["frames_done"] == 0:
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    manifest = manifest_of(out)
    assert manifest["state"] == "interrupted" and 0 < manifest["frames_done"] < FRAMES
    assert "batch interrupted" in stderr
    done = {os.path.join(out, f"disparity_{c['start'] + i:06d}.pfm")
            for c in manifest["chunks"].values() for i in range(c["frames"])}
    written_at = {path: os.stat(path).st_mtime_ns for path in done}

    # The same job (on the tests' cluster: where it runs is not part of the job).
    rest = quiet_batch(f"--sbs {video}", out, chunk_frames=2, scheduler=cluster.scheduler_address)
    assert rest.chunks_skipped == manifest["frames_done"] // 2
    assert rest.frames_this_run == FRAMES - manifest["frames_done"]
    assert {path: os.stat(path).st_mtime_ns for path in done} == written_at  # not redone
    assert folder_bytes(out) == expected
    assert manifest_of(out)["state"] == "complete"


def test_a_bad_job_is_a_usage_error_before_anything_runs(tmp_path, video):
    for bad in (["--param", "p2=-5"], ["--outputs", "pfm,ply"], ["--chunk-frames", "0"]):
        result = subprocess.run(
            [sys.executable, "-m", "stereoview", "batch", "--source", f"--sbs {video}", "--out",
             str(tmp_path / "batch"), "--engine", "cpu", *bad],
            capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and result.stderr.startswith("error: "), result.stderr
    assert not (tmp_path / "batch").exists()
