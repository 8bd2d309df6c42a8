#!/usr/bin/env python3
"""Whole-process timing of `storerelease sort` against `LC_ALL=C sort -V` and Python's
`packaging.version`, on 1,000,000 App Store versions of one to four components.

    python3 Scripts/bench-sort.py [--lines N] [--runs K]

Builds the release binary, writes the input to a temporary folder, runs each command K times
(default 5), and prints the median wall time, peak memory and the ratios against the floors
of issue 2: at least 2x faster than `sort -V` and 20x faster than packaging. It also checks
that storerelease's output is the input, reordered, in version order. Exit status 1 when a
floor is missed or the output is wrong.

`packaging` comes from PyPI (`pip install packaging`); without it that row is skipped.
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGING_SORT = (
    "import sys\n"
    "from packaging.version import Version\n"
    "lines = sys.stdin.read().splitlines()\n"
    "sys.stdout.write('\\n'.join(sorted(lines, key=Version)) + '\\n')\n"
)


def write_input(path, count):
    rng = random.Random(1)
    bounds = [21, 100, 1000, 10000]
    with open(path, "w") as f:
        for _ in range(count):
            n = rng.randint(1, 4)
            f.write(".".join(str(rng.randrange(b)) for b in bounds[:n]) + "\n")


def run(command, input_path, output_path, env=None):
    """Runs a command once; returns (seconds, peak RSS in MiB, exit status)."""
    with open(input_path, "rb") as stdin, open(output_path, "wb") as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=stdin, stdout=stdout, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def key(line):
    """The version as numbers without trailing zeros: 1.2 and 1.2.0 have the same key."""
    parts = [int(part) for part in line.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return parts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--product", "storerelease"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, ".build", "release", "storerelease")

    with tempfile.TemporaryDirectory() as folder:
        input_path = os.path.join(folder, "versions.txt")
        output_path = os.path.join(folder, "sorted.txt")
        write_input(input_path, args.lines)
        size = os.path.getsize(input_path) / 2**20
        print(f"input: {args.lines} versions, {size:.1f} MiB; {args.runs} runs each; median wall time, whole process\n")

        commands = [("storerelease sort", [binary, "sort"], None),
                    ("LC_ALL=C sort -V", ["sort", "-V"], dict(os.environ, LC_ALL="C"))]
        try:
            import packaging.version  # noqa: F401
            commands.append(("python packaging.version", [sys.executable, "-c", PACKAGING_SORT], None))
        except ImportError:
            print("packaging is not installed (pip install packaging): its row is skipped\n")

        medians = {}
        for name, command, env in commands:
            runs = args.runs if "packaging" not in name else max(1, min(args.runs, 3))
            samples = [run(command, input_path, output_path, env) for _ in range(runs)]
            if any(status != 0 for _, _, status in samples):
                print(f"{name}: exited with a failure")
                return 1
            medians[name] = statistics.median(s for s, _, _ in samples)
            peak = max(m for _, m, _ in samples)
            print(f"{name:28} {medians[name]:8.3f} s   peak {peak:7.1f} MiB   ({runs} runs)")
            if name == "storerelease sort":
                with open(input_path) as f:
                    expected = sorted(f.read().splitlines())
                with open(output_path) as f:
                    got = f.read().splitlines()
                keys = [key(line) for line in got]
                if sorted(got) != expected or any(a > b for a, b in zip(keys, keys[1:])):
                    print("storerelease sort: the output is not the input in version order")
                    return 1

        print()
        ok = True
        ours = medians["storerelease sort"]
        for name, floor in [("LC_ALL=C sort -V", 2), ("python packaging.version", 20)]:
            if name in medians:
                ratio = medians[name] / ours
                verdict = "meets" if ratio >= floor else "MISSES"
                ok &= ratio >= floor
                print(f"storerelease sort is {ratio:5.1f}x faster than {name} ({verdict} the {floor}x floor)")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
