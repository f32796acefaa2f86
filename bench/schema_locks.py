"""What a process starting beside running ones does to their writes, on PostgreSQL: each kind of schema
statement run while a live writer's transaction is open on the table (as a move's is), with a lock
timeout, against the store's own start (its schema checked first, nothing made when it is there).

A statement that waits on the writer holds up every write queued behind it: one that takes a lock
those writes wait on, and, with two such processes and two tables, a deadlock.
Usage: python bench/schema_locks.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import postgres
from zerogames.store import open_store

STATEMENTS = {
    "create table if not exists": 'create table if not exists rooms ("code" text, primary key ("code"))',
    "alter table add column if not exists": 'alter table rooms add column if not exists "ranked" bigint',
    "create index if not exists": "create index if not exists idx_rooms_status on rooms (status)",
}
WAIT = 0.5  # lock_timeout, seconds


def main() -> None:
    if not postgres.available():
        print("no PostgreSQL on this machine")
        return
    server = postgres.PostgresServer().start()
    try:
        url = server.new_database()
        open_store(url).close()  # the schema, made once
        writer = psycopg.connect(url)
        writer.execute("insert into rooms (code, status) values ('ABCD', 'lobby')")  # a transaction left open
        for name, sql in STATEMENTS.items():
            with psycopg.connect(url, autocommit=True) as starter:
                starter.execute(f"set lock_timeout = '{int(WAIT * 1000)}ms'")
                began = time.perf_counter()
                try:
                    starter.execute(sql)
                    outcome = "ran"
                except psycopg.errors.LockNotAvailable:
                    outcome = "waited on the writer (lock timeout)"
                print(f"{name:<40} {outcome}, {time.perf_counter() - began:.3f} s")
        began = time.perf_counter()
        open_store(url).close()
        print(f"{'the store starting (checked first)':<40} ran, {time.perf_counter() - began:.3f} s")
        writer.rollback()
        writer.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
