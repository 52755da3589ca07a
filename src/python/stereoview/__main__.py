"""python3 -m stereoview LEFT RIGHT -o out.pfm [--algorithm A] [--engine E] [--preset P]
[--param key=value ...]: one pair's disparity as a Middlebury PFM (inf = invalid).
python3 -m stereoview batch ...: whole sources on Dask (batch_cli.py)."""
import argparse
import os
import sys

import stereoview


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["batch"]:
        from stereoview import batch_cli  # Dask is needed by the batch alone
        return batch_cli.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python3 -m stereoview",
                                     description="Disparity of one stereo pair, as a PFM file.")
    parser.add_argument("left", help="left image (any format the stereoview CLI reads)")
    parser.add_argument("right", help="right image")
    parser.add_argument("-o", "--output", required=True, help="disparity file to write (.pfm)")
    parser.add_argument("--algorithm", default="census-sgm")
    parser.add_argument("--engine", default="auto", help="cpu, reference, cuda or auto")
    parser.add_argument("--preset", help="preset file in the CLI's format")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="any parameter by its CLI name, e.g. --param p2=90 (repeatable)")
    args = parser.parse_args(argv)
    try:
        params = {}
        for item in args.param:
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f'--param: expected KEY=VALUE, got "{item}"')
            params[key.strip()] = value.strip()
        matcher = stereoview.Matcher(algorithm=args.algorithm, engine=args.engine,
                                     preset=args.preset, **params)
        left, right, _ = next(iter(stereoview.open_source(left=args.left, right=args.right)))
        disparity = matcher.compute(left, right)
        # The output's folder is made, as the CLI's --out makes its own.
        os.makedirs(os.path.dirname(args.output) or ".", exist_ok=True)
        stereoview.write_pfm(args.output, disparity)
    except (ValueError, OSError, RuntimeError, MemoryError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    height, width = disparity.shape
    print(f"wrote {args.output}: {width}x{height} disparity ({args.algorithm}, "
          f"{matcher.engine} engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
