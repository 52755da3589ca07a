"""python3 -m stereoview batch --out DIR --source "FLAGS" [--source "FLAGS" ...] [options]:
the command line of stereoview.batch(). Exit 0 when every frame was written, 1 when a source or
frame failed (the others were written), 2 for a bad command line, 130 after Ctrl-C."""
import argparse
import sys

from stereoview.batch import batch
from stereoview.batch_plan import OUTPUTS


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m stereoview batch",
        description="Disparities of whole videos, sequences and datasets, cut into chunks and "
                    "computed on Dask; the files of `stereoview --headless --out`.")
    parser.add_argument("--source", "-s", action="append", required=True, metavar="FLAGS",
                        help='one source in the CLI\'s flags, quoted, e.g. "--sbs a.mp4 --calib '
                             'c.yaml", "--left l.mp4 --right r.mp4", "--dataset DIR" (repeatable)')
    parser.add_argument("--out", "-o", required=True, help="output folder (and its manifest)")
    parser.add_argument("--outputs", default=",".join(OUTPUTS),
                        help=f"per-frame files, from {','.join(OUTPUTS)} (default: both)")
    parser.add_argument("--algorithm", default="census-sgm")
    parser.add_argument("--engine", default="auto", help="cpu, reference, cuda or auto")
    parser.add_argument("--preset", help="preset file in the CLI's format")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="any parameter by its CLI name, e.g. --param p2=90 (repeatable)")
    parser.add_argument("--colormap", default="turbo")
    parser.add_argument("--chunk-frames", type=int, default=50,
                        help="frames (or dataset pairs) per chunk (default 50)")
    parser.add_argument("--workers", type=int,
                        help="local worker processes (default: one per GPU, else one per core)")
    parser.add_argument("--cpu-threads", type=int,
                        help="CPU engine threads per worker (default: the cores shared out)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:8786",
                        help="join this Dask scheduler's cluster instead of starting one")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    params = {}
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            print(f'error: --param: expected KEY=VALUE, got "{item}"', file=sys.stderr)
            return 2
        params[key.strip()] = value.strip()
    try:
        report = batch(args.source, args.out, algorithm=args.algorithm, engine=args.engine,
                       preset=args.preset, params=params,
                       outputs=tuple(o for o in args.outputs.split(",") if o),
                       colormap=args.colormap, chunk_frames=args.chunk_frames,
                       workers=args.workers, cpu_threads=args.cpu_threads,
                       scheduler=args.scheduler)
    except ValueError as error:  # a bad job (parameters, outputs, another job's folder)
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (OSError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if report.interrupted:
        return 130
    return 1 if report.errors else 0
