"""Two revisions of the site measured by turns: one benchmark run on each, alternating, so that a slow
hour of this shared machine weighs on both alike.

Usage: python bench/alternate.py [--here] OLD NEW [pairs=3] -- BENCHMARK [ARGS...]
  e.g. python bench/alternate.py a1cc74f main 3 -- bench/live.py 200 60 2.0
       python bench/alternate.py --here a1cc74f main 6 -- bench/engine.py 1.0

OLD and NEW are anything git names a commit by (a hash, a branch, `HEAD~3`; the same one twice shows
the runs' own spread). Each is checked out into a throwaway worktree; each run is that revision's own
benchmark file (with --here, this checkout's: its whole bench/, the benchmark with the helpers it
imports, copied into the worktree over the revision's own, for a benchmark whose older form prints
other figures, or none, or that an older revision lacks), with that revision's code first on
Python's path (a benchmark of an older revision may not put it there itself) and this environment (so
`BENCH_PROCESSES=2` and the like reach every run). They run on this checkout's Python and packages: a
revision that needs another package fails its run, and says so.

The pairs run one at a time, OLD then NEW, then NEW then OLD, and so on: the second run of a pair meets
the machine as it drifted meanwhile (it drifts by a tenth within minutes here, more under a long load),
so each revision is second as often as first. Before each run, this machine's pace is read
(bench/engine.py's `pace`, with this checkout's rules, so the same code every time): an older benchmark
does not print it, and a pace that moved between two runs says that the hour changed between them.
Each run's output is printed as it ends. Last, every figure line (a line "label: figures") that both
revisions printed, side by side, run by run, and the first number of each as NEW over OLD, pair by
pair, with the median of those ratios.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from engine import pace

ROOT = Path(__file__).resolve().parent.parent
# What --here leaves behind of this checkout's bench/: Python's compiled copies of its files.
CACHES = shutil.ignore_patterns("__pycache__")


def usage() -> None:
    sys.exit(__doc__.split("\n\n")[1])


def worktree(revision: str, path: Path) -> None:
    """`revision` checked out, detached, at `path`."""
    git = ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), revision]
    subprocess.run(git, check=True)


def run(checkout: Path, benchmark: list[str]) -> list[str]:
    """The benchmark's output lines, run in `checkout` on its code."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, *benchmark]
    with subprocess.Popen(
        command, cwd=checkout, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as bench:
        try:
            out, err = bench.communicate()
        except BaseException:
            bench.terminate()  # a benchmark stops its servers on SIGTERM (killed, it would leave them)
            bench.wait()
            raise
    lines = out.splitlines()
    if bench.returncode:
        lines += [f"failed ({bench.returncode}):", *err.splitlines()[-10:]]
    return lines


def figures(lines: list[str]) -> dict[str, str]:
    """Each line "label: figures" of a run's output, by its label."""
    found = {}
    for line in lines:
        label, colon, rest = line.partition(":")
        if colon and any(character.isdigit() for character in rest):
            found[label.strip()] = rest.strip()
    return found


# A figure: a whole or decimal number, with its sign.
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def first_number(figures: str) -> float | None:
    found = NUMBER.search(figures)
    return float(found.group()) if found else None


def ratios(old: list[dict[str, str]], new: list[dict[str, str]], label: str) -> str:
    """NEW's first number of the line over OLD's, pair by pair, and their median."""
    found = []
    for before, after in zip(old, new, strict=True):
        a, b = first_number(before.get(label, "")), first_number(after.get(label, ""))
        if a and b is not None:
            found.append(b / a)
    if not found:
        return "-"
    return f"{' '.join(f'{ratio:.3f}' for ratio in found)}; median {statistics.median(found):.3f}"


def main() -> None:
    arguments = sys.argv[1:]
    here = arguments[:1] == ["--here"]
    arguments = arguments[1:] if here else arguments
    if "--" not in arguments:
        usage()
    split = arguments.index("--")
    revisions, benchmark = arguments[:split], arguments[split + 1 :]
    pairs = revisions[2] if len(revisions) == 3 else "3"
    if len(revisions) not in (2, 3) or not benchmark or not pairs.isdigit():
        usage()
    if here and (Path(benchmark[0]).parts[:1] != ("bench",) or not (ROOT / benchmark[0]).is_file()):
        sys.exit(f"--here: {benchmark[0]} is not a file of this checkout's bench/, named from its top folder")
    sides = {"old": revisions[0], "new": revisions[1]}
    # Stopped by SIGTERM as by Ctrl-C: the running benchmark is stopped and the worktrees removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    runs: dict[str, list[dict[str, str]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as folder:
        checkouts = {side: Path(folder) / side for side in sides}
        try:
            for side, revision in sides.items():
                worktree(revision, checkouts[side])
                if here:
                    bench = checkouts[side] / "bench"
                    shutil.copytree(ROOT / "bench", bench, dirs_exist_ok=True, ignore=CACHES)
            for pair in range(1, int(pairs) + 1):
                order = list(sides) if pair % 2 else list(reversed(sides))
                for side in order:
                    before = f"this machine's pace before the run: {pace():.2f} µs an engine action"
                    started = time.strftime("%H:%M:%S")
                    lines = [before, *run(checkouts[side], benchmark)]
                    print(f"=== {side} ({sides[side]}), run {pair}, {started}", *lines, sep="\n", flush=True)
                    runs[side].append(figures(lines))
        finally:
            for checkout in checkouts.values():
                if checkout.exists():
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)])
    print("=== side by side, run by run")
    seen = {side: {label for found in runs[side] for label in found} for side in sides}
    labels = [label for found in runs["old"] for label in found if label in seen["new"]]
    for label in dict.fromkeys(labels):
        print(f"{label}:")
        for side, revision in sides.items():
            for number, found in enumerate(runs[side], 1):
                print(f"  {side} {number} ({revision}): {found.get(label, '-')}")
        print(f"  new/old: {ratios(runs['old'], runs['new'], label)}")


if __name__ == "__main__":
    main()
