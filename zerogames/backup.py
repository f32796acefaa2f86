"""A consistent copy of the site's SQLite database, taken while the site runs:
`python -m zerogames.backup DEST` (a file to make, or a folder to put a dated copy in).

The database is the one the site opens, from the same settings (`ZEROGAMES_DB`, else
`instance/zerogames.db`). SQLite's backup API copies it in one read transaction: the copy is the
database as of one moment, every action in it whole, and the site's writers go on meanwhile (in WAL
mode a reader holds up no writer). The copy is checked, made a single file (no write-ahead log beside
it) and put in place only when complete. Restoring it: docs/operating.md. PostgreSQL is backed up
with its own pg_dump.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path


class Refusal(Exception):
    """No copy was made; the reason says why."""


def site_database() -> tuple[str, str]:
    """The SQLite file and PostgreSQL URL the site would open, read as the site reads them."""
    from flask import Flask

    import app  # the site's own settings (app.py), from the checkout it is served from

    settings = app.database_settings(Flask(app.__name__, instance_relative_config=True).instance_path)
    return settings["DATABASE"], settings["DATABASE_URL"]


def back_up(source: str, dest: Path) -> Path:
    """Copy the database at `source` to `dest` (or a dated file in the folder `dest`): the copy's path."""
    if dest.is_dir():
        dest = dest / f"zerogames-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.db"
    if dest.exists():
        raise Refusal(f"{dest} exists already: name a new file, or a folder.")
    if not Path(source).is_file():
        raise Refusal(f"There is no database at {source}.")
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source, timeout=30)) as site, closing(sqlite3.connect(partial)) as copy:
            site.backup(copy)  # all pages in one step: one read transaction, so one moment's database
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, whatever the site's own mode
            check = copy.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise Refusal(f"The copy does not check out ({check}): nothing was kept.")
        with open(partial, "rb") as made:
            os.fsync(made.fileno())
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return dest


def summary(path: Path) -> str:
    with closing(sqlite3.connect(path)) as copy:
        rooms = copy.execute("select count(*) from rooms").fetchone()[0]
        games = copy.execute("select count(*) from games").fetchone()[0]
    return f"{path}: {path.stat().st_size / 1e6:.1f} MB, {rooms} rooms, {games} games"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m zerogames.backup", description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="the copy to make, or a folder to make a dated copy in")
    args = parser.parse_args(argv)
    database, url = site_database()
    try:
        if url:
            raise Refusal(
                "The site's database is PostgreSQL (ZEROGAMES_DATABASE_URL): back it up with pg_dump."
            )
        print("backed up", summary(back_up(database, args.dest)))
    except Refusal as refusal:
        print(refusal, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
