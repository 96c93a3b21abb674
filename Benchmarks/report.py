#!/usr/bin/env python3
"""Prints the benchmark table from the JSON lines scripts/bench collected.

Usage: report.py RESULTS.jsonl CASE...
Each case may have several lines per side (one per round); their samples are pooled, and the
table shows the median of the pool. Exit status 1 if any case failed on either side.
"""
import json
import statistics
import sys

NOISY_SPREAD = 1.5


def load(path):
    sides = {}
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if not line:
                continue
            result = json.loads(line)
            sides.setdefault((result["case"], result["side"]), []).append(result)
    return sides


def pooled(results):
    """(median ms, output shape, tool) over every round, or (error text, None, tool)."""
    if not results:
        return "not run", None, None
    tool = results[0].get("tool")
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        return f"error: {errors[0]}", None, tool
    samples = [s for r in results for s in r["samples_ms"]]
    return statistics.median(samples), results[0].get("output"), tool


def round_spread(results):
    """Slowest over fastest round median: far above 1 means the machine's load changed."""
    medians = [r["median_ms"] for r in results if r.get("median_ms")]
    return max(medians) / min(medians) if len(medians) > 1 else 1.0


def output_bytes(results):
    """The encoded size an encode case reported (the same every run), or None."""
    sizes = {r["bytes"] for r in results if "bytes" in r}
    return sizes.pop() if len(sizes) == 1 else None


def table_line(cells, widths):
    padded = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
    return "| " + " | ".join(padded) + " |"


def main(path, cases):
    sides = load(path)
    rows, notes, tools, failed = [], [], set(), False
    for name in cases:
        ours, ours_shape, _ = pooled(sides.get((name, "ours"), []))
        peer, peer_shape, peer_tool = pooled(sides.get((name, "peer"), []))
        if peer_tool:
            tools.add(peer_tool)
        ours_ok, peer_ok = isinstance(ours, float), isinstance(peer, float)
        failed = failed or not ours_ok or not peer_ok
        ratio = f"{ours / peer:.2f}" if ours_ok and peer_ok and peer > 0 else "-"
        rows.append([name, f"{ours:.2f}" if ours_ok else f"ours: {ours}",
                     f"{peer:.2f}" if peer_ok else f"peer: {peer}", ratio])
        if ours_ok and peer_ok and ours_shape != peer_shape:
            notes.append(f"{name}: outputs differ (ours {ours_shape}, peer {peer_shape})")
        for side in ("ours", "peer"):
            spread = round_spread(sides.get((name, side), []))
            if spread > NOISY_SPREAD:
                notes.append(f"{name}: {side} rounds differ by {spread:.1f}x (busy machine?): re-run")
    header = ["case", "ours ms", "peer ms", "ratio"]
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(4)]

    def line(cells):
        return table_line(cells, widths)

    print(line(header))
    print("|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(widths)) + "|")
    for row in rows:
        print(line(row))
    print(f"\nratio = ours / peer median time (below 1: ours is faster); peers: {', '.join(sorted(tools)) or 'none'}")
    sizes = []
    for name in cases:
        ours_bytes = output_bytes(sides.get((name, "ours"), []))
        peer_bytes = output_bytes(sides.get((name, "peer"), []))
        if ours_bytes and peer_bytes:
            sizes.append([name, str(ours_bytes), str(peer_bytes), f"{ours_bytes / peer_bytes:.2f}"])
    if sizes:
        size_header = ["case", "ours bytes", "peer bytes", "bytes ratio"]
        size_widths = [max(len(row[i]) for row in sizes + [size_header]) for i in range(4)]
        print()
        print(table_line(size_header, size_widths))
        print("|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(size_widths)) + "|")
        for row in sizes:
            print(table_line(row, size_widths))
        print("\nbytes ratio = our output's size / the peer's, same settings (below 1: ours is smaller)")
    for note in notes:
        print(f"note: {note}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
