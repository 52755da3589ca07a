"""stereoview.batch(): many sources, cut into chunks of frames, computed as Dask tasks on a local
cluster or one the user started, writing exactly the files `stereoview --headless --out` writes.
See docs/batch.md for the commands, the manifest and the plan for many GPUs."""
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

import stereoview
from stereoview.batch_manifest import Manifest
from stereoview.batch_plan import OUTPUTS, Job, parse_source_flags, plan_chunks
from stereoview.batch_progress import Progress, duration_text
from stereoview.batch_worker import PARTIAL_FOLDER, run_chunk


@dataclass
class BatchReport:
    total_frames: int = 0        # every frame of the sources that could be opened
    frames_done: int = 0         # written, this run and earlier ones (the manifest's count)
    frames_this_run: int = 0
    chunks_run: int = 0          # finished in this run
    chunks_skipped: int = 0      # done by an earlier run
    errors: list = field(default_factory=list)  # bad sources and frames, by name and number
    interrupted: bool = False
    seconds: float = 0.0            # the whole call, the cluster's start included
    frames_per_second: float = 0.0  # this run's frames from the chunks' submission on
    manifest: str = ""


def visible_gpus():
    """The GPUs a local cluster pins its workers to: CUDA_VISIBLE_DEVICES when set, else those
    nvidia-smi lists; none without a driver."""
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is not None:
        return [g for g in listed.split(",") if g.strip()]
    if not shutil.which("nvidia-smi"):
        return []
    try:
        lines = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20,
                               check=True).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return []
    return [str(i) for i, line in enumerate(lines) if line.startswith("GPU ")]


def has_dashboard():
    return importlib.util.find_spec("bokeh") is not None


def local_cluster(workers, gpus):
    """One worker process per GPU pinned to it through CUDA_VISIBLE_DEVICES, or `workers` CPU
    worker processes; one task at a time each, since the engine keeps its own threads busy."""
    from distributed import Nanny, Scheduler, SpecCluster
    if gpus:
        specs = {f"gpu{g}": {"cls": Nanny, "options": {
            "nthreads": 1, "silence_logs": logging.ERROR, "env": {"CUDA_VISIBLE_DEVICES": g}}}
            for g in gpus}
    else:
        specs = {f"cpu{i}": {"cls": Nanny, "options": {
            "nthreads": 1, "silence_logs": logging.ERROR}} for i in range(workers)}
    scheduler = {"cls": Scheduler, "options": {
        "dashboard": has_dashboard(), "dashboard_address": ":0", "port": 0}}
    return SpecCluster(workers=specs, scheduler=scheduler, silence_logs=logging.ERROR)


def dashboard_text(client, local):
    """Where Dask's dashboard is. The scheduler serves its address without bokeh too, but
    shows nothing there then: a local one is known to have none."""
    if local and not has_dashboard():
        return "no dashboard: bokeh is not installed (apt-get install python3-bokeh)"
    if "dashboard" not in client.scheduler_info().get("services", {}):
        return "no dashboard: the scheduler runs none"
    return f"dashboard {client.dashboard_link}" + ("" if local else " (if bokeh is installed there)")


def normalized_sources(sources):
    """Each source as open_source() keywords: a dict, or the CLI's flags as one string."""
    if isinstance(sources, (str, dict)):
        sources = [sources]
    return tuple(parse_source_flags(s) if isinstance(s, str) else dict(s) for s in sources)


def batch(sources, out, *, algorithm="census-sgm", engine="auto", preset=None, params=None,
          outputs=OUTPUTS, colormap="turbo", chunk_frames=50, workers=None, cpu_threads=None,
          scheduler=None, progress=sys.stderr):
    """Computes every frame of `sources` into `out` as `stereoview --headless --out` would, on
    Dask: a local cluster (`workers` CPU worker processes, or one per GPU), or the cluster whose
    scheduler is at `scheduler` ("tcp://host:8786"). sources: open_source() keyword dicts or
    the CLI's source flags as strings ("--sbs a.mp4 --calib c.yaml"). A rerun into the same
    `out` skips what its manifest lists as done; Ctrl-C stops it, the manifest saying how far
    it got. Returns a BatchReport; ValueError for a bad job, before anything runs."""
    from distributed import Client, as_completed

    began = time.monotonic()
    params = dict(params or {})
    unknown = set(outputs) - set(OUTPUTS)
    if unknown or not outputs:
        raise ValueError(f"outputs: choose from {', '.join(OUTPUTS)}, got {', '.join(outputs)}")
    if chunk_frames < 1:
        raise ValueError(f"chunk_frames must be at least 1, got {chunk_frames}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    # The parameters are checked here, before any worker starts (on the CPU: the client may
    # have no GPU, and must not take one from the workers).
    stereoview.Matcher(algorithm=algorithm, engine="cpu", preset=preset, **params)

    gpus = [] if scheduler or engine == "cpu" else visible_gpus()
    cores = os.cpu_count() or 1
    workers = workers or len(gpus) or cores
    if cpu_threads is None:
        cpu_threads = 0 if scheduler or gpus else max(1, cores // workers)
    job = Job(sources=normalized_sources(sources), out=os.path.abspath(out), algorithm=algorithm,
              engine=engine, preset=preset, params=tuple(sorted(params.items())),
              outputs=tuple(outputs), colormap=colormap, chunk_frames=chunk_frames,
              cpu_threads=cpu_threads)
    os.makedirs(job.out, exist_ok=True)

    plan = plan_chunks(job, stereoview.open_source)
    report = BatchReport(total_frames=sum(plan.frames.values()))
    manifest = Manifest(job.out, job, report.total_frames)
    report.manifest = manifest.path
    for error in plan.errors:
        manifest.add_error(error)
        report.errors.append(error)
        print(f"error: {error}", file=progress, flush=True)
    todo = [c for c in plan.chunks if not manifest.is_done(c)]
    report.chunks_skipped = len(plan.chunks) - len(todo)
    if report.chunks_skipped:
        print(f"{report.chunks_skipped} of {len(plan.chunks)} chunks done by an earlier run "
              f"({manifest.frames_done} frames): running the other {len(todo)}",
              file=progress, flush=True)
    manifest.save("running")

    cluster = None
    client = None
    futures = []
    meter = None
    try:
        if todo:
            cluster = None if scheduler else local_cluster(workers, gpus)
            client = Client(scheduler or cluster)
            where = (f"the cluster at {scheduler}" if scheduler else
                     f"{len(gpus)} GPU workers" if gpus else
                     f"{workers} CPU workers, {cpu_threads} engine thread"
                     f"{'s' if cpu_threads != 1 else ''} each")
            print(f"batch: {len(todo)} chunks of {job.chunk_frames} frames on {where}; "
                  f"{dashboard_text(client, cluster is not None)}", file=progress, flush=True)
            meter = Progress(progress, report.total_frames, manifest.frames_done)
            chunk_of = {client.submit(run_chunk, job, chunk, key=f"stereoview-{chunk.key}",
                                      pure=False, retries=2): chunk for chunk in todo}
            futures = list(chunk_of)
            for future in as_completed(futures):
                try:
                    result = future.result()
                except Exception as error:  # noqa: BLE001 (failed after Dask's retries)
                    # Its workers died again and again, or it could not write its files: it is
                    # not in the manifest, so a rerun does it.
                    chunk = chunk_of[future]
                    message = (f"{job.describe_source(chunk.source)} frames from {chunk.start}: "
                               f"the chunk failed: {error!r}")
                    manifest.add_error(message)
                    report.errors.append(message)
                    print(f"error: {message}", file=progress, flush=True)
                    continue
                manifest.record(result)
                manifest.save("running")
                report.chunks_run += 1
                report.frames_this_run += result["frames"]
                for error in result["errors"]:
                    report.errors.append(error)
                    print(f"error: {error}", file=progress, flush=True)
                names = {address: str(worker.get("name", address))
                         for address, worker in client.scheduler_info()["workers"].items()}
                meter.running({names.get(w, w): len(k) for w, k in client.processing().items()})
                meter.chunk_done(names.get(result["worker"], result["worker"]), result["frames"])
            meter.finish()
    except KeyboardInterrupt:
        report.interrupted = True
        if client is not None:
            client.cancel(futures)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        report.frames_done = manifest.frames_done
        report.frames_per_second = meter.frames_per_second() if meter else 0.0
        state = ("interrupted" if report.interrupted else
                 "complete with errors" if report.errors else "complete")
        manifest.save(state)
    if not report.interrupted:
        # No chunk is in flight any more: what killed workers left half written goes.
        shutil.rmtree(os.path.join(job.out, PARTIAL_FOLDER), ignore_errors=True)
    report.seconds = time.monotonic() - began
    print(f"batch {state}: {report.frames_done}/{report.total_frames} frames "
          f"({report.frames_this_run} in this run, {duration_text(report.seconds)} with the "
          f"cluster's start, {report.frames_per_second:.1f} frames/s once the chunks were "
          f"submitted); manifest {manifest.path}", file=progress, flush=True)
    return report
