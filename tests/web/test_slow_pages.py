"""A page slow to read its live channel (a phone on a weak network) gets every push whole, in order,
however long the server's writes wait on it: a frame is never cut short, and no heartbeat lands
inside one. Played out by tests/web/slow_page.py, under gevent as the site serves it, in a process of
its own (gevent patches the process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_page_slow_to_read_gets_every_push_whole_and_in_order():
    served = subprocess.run(
        [sys.executable, "-m", "tests.web.slow_page"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert served.returncode == 0, served.stderr[-2000:]
    accepted, whole, beaten, beats = served.stdout.split()
    assert accepted == "True"
    assert whole == "True", "a push reached the page cut short, out of order or not at all"
    # Beats were written between pushes, and each reached the page as an empty message.
    assert int(beaten) > 0
    assert beats == beaten
