"""CPU-heavy work (password hashes, bots' thinking, playing a game's log again) away from the event loop.

In the gevent worker one event loop serves every table of the process: a password hash or a Hard
bot's search inline would hold every table up for a quarter of a second to a second. On a native
thread of the worker's own it holds up nobody: hashlib and SQLite let go of Python while they work,
and Python hands its lock to the loop every few milliseconds otherwise.

Two threads, one per core here: a hash (which lets go of Python) need not wait for a bot's search, and
under Python's lock more threads would think no faster while each took a turn from the loop. Bots of
one room stay ordered whatever thread thinks for them: a bot's move is made only on the table it was
chosen on (rooms.bot_driver).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from gevent import monkey
from gevent.threadpool import ThreadPool

T = TypeVar("T")

THREADS = 2
# Seconds a thread holds Python's lock before it lets a waiting one (the event loop) run. Python's
# default is 5 ms, at each of the loop's system calls (every socket write of a push lets the lock go),
# so a human's move waited for a bot's slices many times over: a short slice keeps the tables quick,
# the bots a little slower (0.2 ms made the bots half as fast and the tables no quicker).
THINKING_SLICE = 0.0005
_pool: list[ThreadPool] = []


def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, where it cannot stall the event loop, waited for: on the worker's own threads
    when gevent has patched the process, else right here (then each request has a thread of its own)."""
    if not monkey.is_module_patched("threading"):
        return work(*args)
    if not _pool:
        sys.setswitchinterval(THINKING_SLICE)
        _pool.append(ThreadPool(THREADS))
    return _pool[0].apply(work, args)
