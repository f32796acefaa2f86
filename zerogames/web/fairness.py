"""Fair deals on the site (zerogames.fairness): the `/fairness` page that explains them, each ended
game's published data as a JSON download, and the check a replay shows.

A game's secret leaves the store only here, and only for a game that is over (a daily deal's, once
its day is over): while it is played the table shows its commitment alone.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, render_template, url_for

from zerogames import fairness
from zerogames.offload import off_the_loop
from zerogames.records import Replay
from zerogames.store import Record, game_id, parse_game_id

from . import limits
from .daily import day_not_over, why_hidden
from .history import kept_replay
from .registry import web_registry

bp = Blueprint("fairness", __name__)


def ended_record(game: str) -> Record:
    """The record of a game that is over, which this viewer may see (web/daily.py), or a page saying
    why not. A name that is no game's counts as a missed code (web/limits.py): these URLs are no way
    round the limit on scanning codes."""
    limits.looking_up()
    found = parse_game_id(game)
    if found and (why := why_hidden(*found)):
        abort(403, description=why)
    record = None
    if found:
        # A replay rebuilt lately holds its record: nothing to look up for each step watched.
        kept = kept_replay(*found)
        record = kept.record if kept else web_registry().store.history.record(*found)
    if record is None:
        limits.missed()
        abort(404, description=f"No game is called {game!r}.")
    if record.outcome is None:
        abort(
            403, description="This game is still being played: its replay and its data open once it is over."
        )
    return record


def published_data(record: Record) -> dict[str, Any]:
    """What an ended game publishes (its secret among it), for anyone to check."""
    actions = [(seat, action, now) for seat, action, now, _by in record.actions]
    played = fairness.Played(
        record.game, record.players, record.seed, record.options, record.started, actions
    )
    return fairness.published(
        game_id(record.code, record.game_no),
        played,
        fairness.Fairness.from_json(record.fairness),
        record.secret if record.outcome is not None else None,
    )


def checked_data(record: Record) -> tuple[dict[str, Any], fairness.Checked]:
    """The game's published data and its check: each plays the game again from its seed."""
    data = published_data(record)
    return data, fairness.check(data)


def replay_check(replay: Replay) -> dict[str, Any]:
    """A finished game's check, as its replay shows it (worked out once, off the loop, kept with it);
    none for a daily deal while its day lasts (its secret is not published yet)."""
    if day_not_over(replay.record.code, replay.record.game_no):
        return {"kept_until_day_over": True}
    if "fair" not in replay.memo:
        data, checked = off_the_loop(checked_data, replay.record)
        name = game_id(replay.record.code, replay.record.game_no)
        replay.memo["fair"] = {
            "data": data,
            "checked": checked,
            "download": url_for("fairness.download", game=name),
        }
    return replay.memo["fair"]


@bp.get("/fairness")
def page():
    return render_template("fairness/page.html", scheme=fairness.SCHEME)


@bp.get("/replay/<game>/fair.json")
def download(game: str):
    """A game's published data, once it is over (finished or abandoned)."""
    record = ended_record(game)
    if day_not_over(record.code, record.game_no):
        abort(403, description="This is a daily deal of today: its data is published once the day is over.")
    # The data a kept replay checked, if it is kept (a download from its page): nothing played again.
    kept = kept_replay(record.code, record.game_no)
    data = replay_check(kept)["data"] if kept else off_the_loop(published_data, record)
    return Response(
        json.dumps(data, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{data["game_id"]}-fair.json"'},
    )


@bp.errorhandler(403)
@bp.errorhandler(404)
def nothing_published(error):
    page = render_template("records/missing.html", heading="Nothing to check", message=error.description)
    return page, error.code
