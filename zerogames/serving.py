"""How gunicorn serves the site: `gunicorn -c python:zerogames.serving 'app:create_app()'`.

`make run`, the browser tests and the live benchmark all serve through these settings, so what is
tested and measured is what runs. A `--bind` on the command line overrides the address.
"""

from __future__ import annotations

import gc
import logging
import os
import resource
import sqlite3
from typing import TYPE_CHECKING, Any

import gevent

if TYPE_CHECKING:  # the config is read by gunicorn's master, before its worker patches anything
    from zerogames.store import Store

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

log = logging.getLogger(__name__)

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
    """Keep the worker's own housekeeping, garbage collections and database checkpoints, from
    stalling the tables.

    What the worker made at start-up (code, templates, restored rooms) is left out of collections for
    good. In the gevent worker, where every table of the process waits on whatever runs, collections
    run by the clock and checkpoints in a thread of their own; another worker (the benchmark's
    comparison with threads) keeps Python's and SQLite's own timing.
    """
    gc.freeze()
    if "gevent" not in type(worker).__module__:
        return
    collect_by_the_clock()
    checkpoint_in_a_thread(worker.wsgi.extensions["zerogames"].store)


def collect_by_the_clock() -> None:
    """Collections between requests, by the clock rather than by Python's count of allocations.

    A collection walks every object of the generations it collects: a full one over a thousand open
    sockets (some 150,000 objects) takes a quarter of a second here, and by Python's count one comes
    every few seconds under load. So: the young generation every second (a few milliseconds), the
    middle one every three seconds, a full one every ten minutes for the reference cycles of sockets
    that closed. The middle one costs what it finds alive, so it comes often: every ten seconds it
    took 15-30 ms, and over 100 ms just after many tables opened.
    """
    gc.disable()

    def collect() -> None:
        ticks = 0
        while True:
            gevent.sleep(COLLECT_EVERY)
            ticks += 1
            gc.collect(2 if ticks % FULL_EVERY == 0 else 1 if ticks % MIDDLE_EVERY == 0 else 0)

    gevent.spawn(collect)


def checkpoint_in_a_thread(store: Store) -> None:
    """Copy the database's write-ahead log back from a thread of the gevent hub's own (see
    Store.checkpoint_apart): SQLite lets go of Python while it works, so the tables go on meanwhile."""
    if not store.checkpoint_apart():
        return
    pool = gevent.get_hub().threadpool

    def checkpoint() -> None:
        while True:
            gevent.sleep(CHECKPOINT_EVERY)
            try:
                pool.apply(store.checkpoint)
            except sqlite3.Error:
                # Tried again a second later: one that failed (a full disk, say) must not stop them all.
                log.exception("checkpoint failed")

    gevent.spawn(checkpoint)


# Seconds between young collections, and how many of those between middle and full ones.
COLLECT_EVERY = 1.0
MIDDLE_EVERY = 3
FULL_EVERY = 600
# Seconds between checkpoints: at a hundred actions a second the log grows by some 400 pages a second.
CHECKPOINT_EVERY = 1.0
