"""The task each Dask worker runs: one chunk of one source, read from its first frame (a seek),
matched by the worker's own engine (made once per worker process and kept), its files written
under a temporary folder and moved to their final names only when the whole chunk is written,
so a worker killed mid-chunk leaves no file of it under a final name."""
import os
import shutil
import socket
import time
import uuid

import stereoview

# Where chunks in progress write, inside the job's output folder (the same file system, so the
# final rename is atomic). The client removes it when a run ends with no chunk in flight.
PARTIAL_FOLDER = ".batch-partial"

_matchers = {}  # this worker's engines, by their settings


def worker_name():
    """The Dask worker's address (as the scheduler lists it), or host:pid outside a worker."""
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def frame_base(number):
    """A frame's file name without extension, as stereoview --headless names it."""
    return f"disparity_{number:06d}"


def matcher_for(job):
    """The worker's engine for the job's settings, made at its first chunk and kept."""
    key = (job.engine, job.algorithm, job.preset, job.params, job.cpu_threads)
    if key not in _matchers:
        stereoview.set_cpu_threads(job.cpu_threads)
        _matchers[key] = stereoview.Matcher(algorithm=job.algorithm, engine=job.engine,
                                            preset=job.preset, **dict(job.params))
    return _matchers[key]


def open_at(flags, start):
    """The source opened so that its next pair is frame `start`: a seek, or where the source
    cannot seek, the frames before it read and dropped (slower, as exact)."""
    source = stereoview.open_source(**flags)
    if start > 0 and not source.seek(start):
        for _ in range(start):
            next(source)
    return source


def write_frame(job, folder, number, disparity, color_range):
    base = os.path.join(folder, frame_base(number))
    if "pfm" in job.outputs:
        stereoview.write_pfm(base + ".pfm", disparity)
    if "png" in job.outputs:
        stereoview.write_color_png(base + ".png", disparity, *color_range, job.colormap)


def run_chunk(job, chunk):
    """Computes and writes one chunk; returns what the manifest records of it. A frame that
    cannot be read or matched is skipped and reported with the source and frame number. Errors writing the
    files raise, so Dask runs the chunk again."""
    began = time.monotonic()
    matcher = matcher_for(job)
    low = matcher.params["min-disparity"]
    color_range = (float(low), float(low + matcher.params["disparities"] - 1))
    final = job.output_folder(chunk.source)
    partial = os.path.join(job.out, PARTIAL_FOLDER,
                           f"{chunk.key}-pid{os.getpid()}-{uuid.uuid4().hex[:8]}")
    os.makedirs(partial)
    written, errors = [], []
    name = job.describe_source(chunk.source)
    number = chunk.start
    try:
        try:
            source = open_at(job.sources[chunk.source], chunk.start)
        except StopIteration:
            source = iter(())
        except (ValueError, OSError, RuntimeError) as error:
            errors.append(f"{name} frame {number}: {error}")
            source = iter(())
        end = None if chunk.count is None else chunk.start + chunk.count
        while end is None or number < end:
            try:
                left, right, _ = next(source)
            except StopIteration:
                if end is not None:
                    errors.append(f"{name} frame {number}: the source ended before its "
                                  f"announced {end} frames")
                break
            except (ValueError, OSError, RuntimeError) as error:
                # A source cannot read past a bad frame: it is opened again after it.
                errors.append(f"{name} frame {number}: {error}")
                number += 1
                try:
                    source = open_at(job.sources[chunk.source], number)
                except (StopIteration, ValueError, OSError, RuntimeError):
                    break
                continue
            try:
                disparity = matcher.compute(left, right)
            except (ValueError, RuntimeError) as error:
                errors.append(f"{name} frame {number}: {error}")
                number += 1
                continue
            write_frame(job, partial, number, disparity, color_range)
            written.append(number)
            number += 1
        os.makedirs(final, exist_ok=True)
        for file in sorted(os.listdir(partial)):
            os.replace(os.path.join(partial, file), os.path.join(final, file))
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return {"key": chunk.key, "source": chunk.source, "start": chunk.start,
            "frames": len(written), "errors": errors, "seconds": time.monotonic() - began,
            "worker": worker_name()}
