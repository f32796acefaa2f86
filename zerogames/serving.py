"""How gunicorn serves the site: `gunicorn -c python:zerogames.serving 'app:create_app()'`.

`make run`, the browser tests and the live benchmark all serve through these settings, so what is
tested and measured is what runs. A `--bind` on the command line overrides the address.
"""

from __future__ import annotations

import gc
import os
import resource
from typing import Any

import gevent

# One gevent worker: a room must live in one process (README: several behind a proxy), and every
# open table holds a socket. At worker_connections open connections the worker stops accepting, so it
# stands well above the cap on live channels (LIVE_CHANNELS in zerogames/web/limits.py, 8,000): with
# every channel taken, page requests and moves are still accepted. Each connection is an open file.
worker_class = "gevent"
workers = 1
worker_connections = 12_000
OPEN_FILES = 16_384
control_socket_disable = True
bind = f"127.0.0.1:{os.environ.get('PORT', '8000')}"

# The largest request body the site takes (zerogames/web/guard.py answers a larger one 413): its
# largest form is a few hundred bytes, and 16 KB leaves room for any legal move.
MAX_BODY = 16 * 1024


def on_starting(server: Any) -> None:
    """Raise the process's open-file limit as far as the system allows (the worker inherits it)."""
    limit = raise_open_files()
    server.log.info(
        "open files: %d (wanted %d), worker connections: %d",
        limit,
        OPEN_FILES,
        worker_connections,
    )


def raise_open_files() -> int:
    """The soft open-file limit raised to OPEN_FILES, or to the hard limit if that is lower (README:
    raising the system's): the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, OPEN_FILES)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return max(wanted, soft)


def pre_request(worker: Any, req: Any) -> None:
    """A request whose body is larger than the site takes, or of a length not given, has its connection
    closed once answered: gunicorn would otherwise read the whole body (a hundred megabytes, say) to
    keep the connection for a next request, holding up every table of the worker meanwhile."""
    length = next((value for name, value in req.headers if name == "CONTENT-LENGTH"), "0")
    chunked = any(name == "TRANSFER-ENCODING" for name, _ in req.headers)
    if chunked or not length.isdigit() or int(length) > MAX_BODY:
        req.must_close = True


def post_worker_init(worker: Any) -> None:
    """Set the site going in the worker (zerogames.runtime: the store, the rooms restored, the
    listener, checkpoints), and keep the worker's own garbage collections from stalling the tables.

    What the worker made at start-up (code, templates, restored rooms) is left out of collections for
    good. In the gevent worker, where every table of the process waits on whatever runs, collections
    run by the clock; another worker (the benchmark's comparison with threads) keeps Python's timing.
    """
    from zerogames import runtime  # in the worker, once gevent has patched it

    runtime.start(worker.wsgi)
    gc.freeze()
    if "gevent" in type(worker).__module__:
        collect_by_the_clock()


def collect_by_the_clock() -> None:
    """Collections between requests, by the clock rather than by Python's count of allocations.

    A collection walks every object of the generations it collects: a full one over a thousand open
    sockets (some 150,000 objects) takes a quarter of a second here, and by Python's count one comes
    every few seconds under load. So the young generation is collected twice a second, and a full
    collection comes every ten minutes for the reference cycles of sockets that closed. A young
    collection costs what it finds alive (the pushes' last drawings and what they were drawn from),
    so it comes often: each is a stall of every table of the process. At a thousand busy tables, a
    young collection every second took 23 ms; twice a second, 14 ms, and a move's p99 fell from
    73-93 ms to 56-66 ms at 800 tables.

    What a young collection leaves alive is walked again by the next full collection only, never by a
    middle one (`collect_at`): a table's state and drawings live until its next move, seconds later,
    so a middle collection found them all alive and only doubled the walk. At a thousand tables on
    two processes, middle collections every one and a half seconds took 17-19 ms on average (up to
    67 ms), each a stall of every table of the process. Without them, a move's p99 was 25-31 ms
    against 33-67 ms in one set of alternating runs on a quiet machine, but level or worse in four
    other sets (30-130 ms either way, as busy as the machine was): a move waits on the cores more
    than on these stalls. What is sure is the walk saved.
    """
    gc.disable()

    def collect() -> None:
        ticks = 0
        while True:
            gevent.sleep(COLLECT_EVERY)
            ticks += 1
            collect_at(ticks)

    gevent.spawn(collect)


def collect_at(tick: int) -> None:
    """The collection due at this tick of the clock: every generation each FULL_EVERY ticks, else the
    young one alone. What a young collection leaves alive moves on to the middle generation, which no
    collection walks on its own: the next full one does."""
    gc.collect(2 if tick % FULL_EVERY == 0 else 0)


# Seconds between young collections, and how many of those between full ones.
COLLECT_EVERY = 0.5
FULL_EVERY = 1200
