"""How soon the site moves again once its database comes back: PostgreSQL stopped and started again,
SQLite read-only and then writable, SQLite's disk full and then freed, each under a running site (a
table of a player and two bots) as tests/web/test_database_weather.py drills it.

For each fault, DRILLS times: the seconds from the database's return to the player's move going
through, and to a bot's move that failed while it was away. Prints the median and the largest.
Usage: python bench/database_faults.py [drills]
"""

from __future__ import annotations

import itertools
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app
from tests import postgres
from tests.web.test_database_weather import disk_full, read_only
from tests.web.weather import drill, table_with_two_bots
from zerogames import runtime


def site(folder: str, database_url: str = ""):
    settings = {"TESTING": True, "DATABASE": f"{folder}/bench.db", "DATABASE_URL": database_url, "DEV": True}
    app = runtime.start(create_app(settings))
    registry = app.extensions["zerogames"]
    registry.bot_delay = 0.5
    addresses = itertools.count(2)

    def player(name: str):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"127.0.1.{next(addresses)}"
        client.name = name
        return client

    return app, registry, player


def report(fault: str, runs: list[dict]) -> None:
    for what in runs[0]:
        seconds = [run[what] for run in runs]
        print(
            f"{fault:<28} {what:<14} back in: median {statistics.median(seconds):.2f} s,"
            f" at most {max(seconds):.2f} s ({len(seconds)} drills)"
        )


def main() -> None:
    drills = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for name, fault in (("SQLite read-only", read_only), ("SQLite disk full", disk_full)):
        with tempfile.TemporaryDirectory() as folder:
            app, registry, player = site(folder)
            runs = []
            for _ in range(drills):
                ann, room = table_with_two_bots(player, registry)
                runs.append(drill(ann, room, registry, *fault(registry.store)))
            runtime.stop(app)
        report(name, runs)
    if not postgres.available():
        print("PostgreSQL: not on this machine")
        return
    server = postgres.PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            app, registry, player = site(folder, server.new_database())
            runs = []
            for _ in range(drills):
                ann, room = table_with_two_bots(player, registry)
                runs.append(drill(ann, room, registry, server.halt, server.resume))
            runtime.stop(app)
        report("PostgreSQL stopped, started", runs)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
