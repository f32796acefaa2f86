"""Instructions counted, not time: a benchmark's fixed work run under valgrind's callgrind, which
counts the instructions the processor carries out. Two runs of one revision count within two
thousandths of each other (an engine's count an action: 55,180 and 55,277), in a slow hour as in a
quiet one, where this shared machine times the same code a tenth apart from one minute to the next:
two revisions' counts compare at once (bench/engine.py --count, bench/push_path.py --count). It
leaves out the kernel's work (system calls) and what the caches cost."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

# callgrind's total, as it prints it last.
COLLECTED = re.compile(r"Collected : (\d+)")


def counted(arguments: list[str]) -> tuple[int, str]:
    """The instructions `python ARGUMENTS` carries out, and what it printed. Strings hash alike on
    every run (PYTHONHASHSEED), so that dicts and sets are laid out, and walked, alike."""
    if shutil.which("valgrind") is None:
        sys.exit("counting instructions needs valgrind (Debian's package valgrind)")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *arguments]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(command, env=environment, capture_output=True, text=True)
    total = COLLECTED.search(run.stderr)
    if run.returncode or total is None:
        sys.exit(f"valgrind counted nothing ({run.returncode}): {run.stderr[-1000:]}")
    return int(total.group(1)), run.stdout
