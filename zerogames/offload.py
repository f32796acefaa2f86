"""CPU-heavy work (password hashes, bots' thinking, playing a game's log again) away from the event loop.

In the gevent worker one event loop serves every table of the process: a password hash or a Hard
bot's search inline would hold every table up for a quarter of a second to a second. Two ways out:

- `off_the_loop`: on a native thread of the worker's own. Right for work that lets go of Python while
  it works (hashlib, SQLite) or is short. Two threads, one per core here: a hash need not wait for a
  replay, and under Python's lock more threads would think no faster while each took a turn from the loop.
- `apart`: in one of the worker's thinking processes (Thinkers), for long pure Python work: a Hard
  bot's search. On a thread it holds Python's lock, which the loop must win back at every system call
  of a push (its socket writes): a human's move at a table of Hard bots waited three times as long as
  one among humans. A process of its own holds no lock of the server's, and runs on the second core;
  it runs at a lower priority, so that when the cores are busy the tables' work goes first.

Bots of one room stay ordered whatever thinks for them: a bot's move is made only on the table it was
chosen on (rooms.bot_driver).
"""

from __future__ import annotations

import logging
import os
import pickle
import queue
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from gevent import monkey
from gevent.threadpool import ThreadPool

T = TypeVar("T")

log = logging.getLogger(__name__)

THREADS = 2
# Seconds a thread holds Python's lock before it lets a waiting one (the event loop) run. Python's
# default is 5 ms, at each of the loop's system calls (every socket write of a push lets the lock go),
# so a human's move waited for a thread's slices many times over: a short slice keeps the tables quick.
THINKING_SLICE = 0.0005
_pool: list[ThreadPool] = []

# Thinking processes: one per core here. More would only take turns on the same two cores.
THINKERS = 2
# How much less a thinking process counts than the server when both want a core (os.nice): the
# scheduler gives the server about nine slices to its one, so a bot's search uses what the tables leave.
THINKING_NICENESS = 10
# The header of each message between the server and a thinking process: the length of its pickle.
LENGTH_BYTES = 4


def served_by_the_loop() -> bool:
    """Whether gevent has patched the process: one event loop serves every table."""
    return monkey.is_module_patched("threading")


def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, where it cannot stall the event loop, waited for: on the worker's own threads
    when gevent has patched the process, else right here (then each request has a thread of its own)."""
    if not served_by_the_loop():
        return work(*args)
    if not _pool:
        sys.setswitchinterval(THINKING_SLICE)
        _pool.append(ThreadPool(THREADS))
    return _pool[0].apply(work, args)


def apart(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a thinking process when gevent has patched the process (the event loop serves
    every table), waited for without holding up the loop; else right here, as `off_the_loop` does.
    `work` and its arguments go by pickle, so they must be importable by name (a bound method of a
    plain object will do), and what the work changes of them stays in the other process."""
    if not served_by_the_loop():
        return work(*args)
    if not _thinkers:
        _thinkers.append(Thinkers(THINKERS))
    return _thinkers[0].run(work, *args)


class Thinker:
    """One thinking process: it reads pickled work from its standard input and answers on its standard
    output, one at a time, until that input ends (its server has gone)."""

    def __init__(self) -> None:
        # The package's own folder first: a checkout served without installing it (the benchmarks).
        root = str(Path(__file__).resolve().parent.parent)
        path = os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerogames.offload"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},
        )

    def run(self, request: bytes) -> bytes:
        """The answer to one request; OSError or EOFError if the process is gone."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(framed(request))
        self.process.stdin.flush()
        return read_message(self.process.stdout)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class Thinkers:
    """The worker's thinking processes, each lent to one piece of work at a time. One that dies (killed,
    out of memory) is replaced, and the work it had is done here instead: a bot's move is never lost."""

    def __init__(self, size: int) -> None:
        self.idle: queue.Queue[Thinker | None] = queue.Queue()
        for _ in range(size):
            self.idle.put(None)  # a place, filled with a process when first used

    def run(self, work: Callable[..., T], *args: Any) -> T:
        request = pickle.dumps((work, args), pickle.HIGHEST_PROTOCOL)
        thinker = self.idle.get()
        try:
            thinker = thinker or Thinker()
            answer = thinker.run(request)
        except (OSError, EOFError):
            log.warning("a thinking process died: its work is done on the server's own thread instead")
            if thinker is not None:
                thinker.stop()
            self.idle.put(None)
            return off_the_loop(work, *args)
        self.idle.put(thinker)
        done, value = pickle.loads(answer)
        if not done:
            raise value
        return value

    def stop(self) -> None:
        """The idle processes killed (one lent to work is not waited for: it ends with its input)."""
        while not self.idle.empty():
            thinker = self.idle.get()
            if thinker is not None:
                thinker.stop()


_thinkers: list[Thinkers] = []


def framed(message: bytes) -> bytes:
    return len(message).to_bytes(LENGTH_BYTES, "big") + message


def read_message(stream: IO[bytes]) -> bytes:
    """One message from `stream`; EOFError when it ends first (its writer has gone)."""
    head = stream.read(LENGTH_BYTES)
    if len(head) < LENGTH_BYTES:
        raise EOFError
    length = int.from_bytes(head, "big")
    body = stream.read(length)
    if len(body) < length:
        raise EOFError
    return body


def think() -> None:
    """A thinking process's life: each request's work done and answered, (True, its value) or
    (False, the exception it raised), until the server closes its input."""
    # Answers go out on a copy of standard output, which then points at standard error: a stray print
    # in the work cannot break a message.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, and its input ends this
    os.nice(THINKING_NICENESS)
    requests = sys.stdin.buffer
    while True:
        try:
            work, args = pickle.loads(read_message(requests))
        except EOFError:
            return
        try:
            answer = pickle.dumps((True, work(*args)), pickle.HIGHEST_PROTOCOL)
        except Exception as raised:
            answer = pickle.dumps((False, unpicklable_as_said(raised)), pickle.HIGHEST_PROTOCOL)
        answers.write(framed(answer))
        answers.flush()


def unpicklable_as_said(raised: Exception) -> Exception:
    """The exception, or one saying what it was when it cannot go by pickle."""
    try:
        pickle.dumps(raised)
    except Exception:
        return RuntimeError(f"{type(raised).__name__}: {raised}")
    return raised


if __name__ == "__main__":
    think()
