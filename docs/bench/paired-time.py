#!/usr/bin/env python3
"""Times two whole-process commands in turn (A B A B ...) and compares them pair by pair.

Usage: docs/bench/paired-time.py [-n RUNS] 'COMMAND A' ['COMMAND B']

Each run goes through /usr/bin/time (GNU time, Debian package `time`), which gives the wall time, the CPU time
(user + system) and the peak resident set of the process. Pairing A with the B right after it keeps the ratio
meaningful when a shared machine's speed drifts during the runs; min and max show the spread. The commands are
split as a shell splits words and run without a shell; their output is discarded.
"""
import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile


def run(cmd):
    with tempfile.NamedTemporaryFile(mode="r") as f:
        p = subprocess.run(["/usr/bin/time", "-o", f.name, "-f", "%e %U %S %M"] + shlex.split(cmd),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        last = f.read().strip().splitlines()[-1].split()
    wall, user, sys_, rss_kb = float(last[0]), float(last[1]), float(last[2]), int(last[3])
    return {"rc": p.returncode, "wall": wall, "cpu": user + sys_, "rss_mb": rss_kb / 1024}


def spread(xs, unit):
    return f"median {statistics.median(xs):.2f}{unit} (min {min(xs):.2f}, max {max(xs):.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=5, help="runs of each command (default 5)")
    ap.add_argument("a")
    ap.add_argument("b", nargs="?")
    args = ap.parse_args()
    sides = {"A": args.a} | ({"B": args.b} if args.b else {})
    runs = {k: [] for k in sides}
    for i in range(args.n):
        for k, cmd in sides.items():
            r = run(cmd)
            runs[k].append(r)
            print(f"run {i + 1} {k}: wall {r['wall']:.2f} s, cpu {r['cpu']:.2f} s, peak rss {r['rss_mb']:.0f} MB,"
                  f" exit {r['rc']}", flush=True)
    for k, cmd in sides.items():
        rs = runs[k]
        print(f"{k} = {cmd}")
        print(f"  wall {spread([r['wall'] for r in rs], ' s')}; cpu {spread([r['cpu'] for r in rs], ' s')};"
              f" peak rss {spread([r['rss_mb'] for r in rs], ' MB')}")
    if "B" in runs:
        for what in ("wall", "cpu"):
            ratios = [a[what] / b[what] for a, b in zip(runs["A"], runs["B"]) if b[what] > 0]
            print(f"A/B {what}: {spread(ratios, '') if ratios else 'B took no measurable ' + what + ' time'}")
    return 1 if any(r["rc"] != 0 for rs in runs.values() for r in rs) else 0


if __name__ == "__main__":
    sys.exit(main())
