"""The command line the in-process peers share (pillow_bench.py, vips_bench.py, rsvg_bench.py):
the same arguments, and one JSON line per case in the format webimage-bench prints.

It imports nothing but the standard library, so that a peer running under another Python (the
system's, for librsvg's binding) can use it too.
"""
import argparse
import json
import pathlib
import sys

INPUTS = pathlib.Path(__file__).resolve().parent.parent / "inputs"


def run(description, inputs_of, measure):
    """Lists or measures the cases the arguments select; returns the exit status (0 if every case
    ran, 1 if one failed, 2 for a usage error). `inputs_of` maps each case to its input file's
    name; `measure(name, inputs, warmup, runs)` returns a case's result, with "error" on failure."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--case", action="append", default=[], dest="names")
    parser.add_argument("--filter", default="")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--inputs", type=pathlib.Path, default=INPUTS)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in inputs_of]
    if unknown or args.runs < 1 or args.warmup < 0:
        print(f"error: no case named {', '.join(unknown)}" if unknown
              else "error: --runs must be at least 1 and --warmup at least 0", file=sys.stderr)
        return 2
    names = [name for name in inputs_of if (not args.names or name in args.names) and args.filter in name]
    if args.list:
        for name in names:
            print(json.dumps({"case": name, "input": inputs_of[name]}))
        return 0
    failed = False
    for name in names:
        result = measure(name, args.inputs, args.warmup, args.runs)
        failed = failed or "error" in result
        print(json.dumps(result, sort_keys=True), flush=True)
    return 1 if failed else 0
