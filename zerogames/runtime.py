"""The site's running parts, started apart from the app that configures them (app.create_app): the
store's connection, every unfinished room back from its log with its bots and clocks, the listener for
the other processes, and in the gevent worker the checkpoints of SQLite's log.

`start(app)` is called once per serving process: by gunicorn's worker hook (zerogames/serving.py),
by `python app.py`, and by the tests, whose app is served without gunicorn. `stop(app)` stops its
rooms' timers and bots, then lets the database go.
"""

from __future__ import annotations

import logging
import sqlite3

import gevent
from flask import Flask
from gevent import monkey

from zerogames.offload import off_the_loop
from zerogames.rooms import RoomRegistry

log = logging.getLogger(__name__)

# Seconds between checkpoints: at a hundred actions a second the log grows by some 400 pages a second.
CHECKPOINT_EVERY = 1.0


def start(app: Flask) -> Flask:
    """Open the app's store and set its rooms going; the app, for `start(create_app(...))`."""
    registry: RoomRegistry = app.extensions["zerogames"]
    store = registry.store.open()
    registry.restore()
    store.peers.listen_to_others({"let_go": registry.let_go, "hand_over": registry.hand_over_here})
    if monkey.is_module_patched("threading"):
        checkpoint_in_a_thread(registry)
    return app


def stop(app: Flask) -> None:
    registry: RoomRegistry = app.extensions["zerogames"]
    registry.stop()
    registry.store.close()


def checkpoint_in_a_thread(registry: RoomRegistry) -> None:
    """In the gevent worker, where every table of the process waits on whatever runs, copy SQLite's
    write-ahead log back off the event loop (zerogames.store.connection's `checkpoint_apart`): SQLite
    lets go of Python while it works, so the tables go on meanwhile."""
    db = registry.store.db
    if not db.checkpoint_apart():
        return

    def checkpoint() -> None:
        while True:
            gevent.sleep(CHECKPOINT_EVERY)
            try:
                off_the_loop(db.checkpoint)
            except sqlite3.Error:
                # Tried again a second later: one that failed (a full disk, say) must not stop them all.
                log.exception("checkpoint failed")

    gevent.spawn(checkpoint)
