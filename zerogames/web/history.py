"""Finished games as the site shows them again: replays rebuilt from the log (kept a while, as a
finished game never changes), and the score chart and "Watch replay" a table shows at its end."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Flask, current_app, url_for
from markupsafe import Markup

from zerogames.offload import off_the_loop
from zerogames.records import Replay
from zerogames.store import Record, game_id

from .charts import score_chart
from .registry import web_registry


class Replays:
    """Replays rebuilt lately, the least recently watched dropped first."""

    SIZE = 32

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self.lock = threading.Lock()
        # One lock per replay being rebuilt: at a game's end every viewer's push asks for its chart at
        # once, and one rebuild serves them all.
        self.building: dict[tuple[str, int], threading.Lock] = {}

    def kept_one(self, code: str, game_no: int) -> Replay | None:
        with self.lock:
            replay = self.kept.get((code, game_no))
            if replay is not None:
                self.kept.move_to_end((code, game_no))
            return replay

    def get(self, record: Record) -> Replay:
        key = (record.code, record.game_no)
        replay = self.kept_one(*key)
        if replay is not None:
            return replay
        with self.lock:
            building = self.building.setdefault(key, threading.Lock())
        with building:
            replay = self.kept_one(*key)
            if replay is None:
                # Some thousands of engine steps for a long game: off the loop that serves the tables.
                replay = off_the_loop(Replay, record)
                with self.lock:
                    self.kept[key] = replay
                    self.building.pop(key, None)
                    if len(self.kept) > self.SIZE:
                        self.kept.popitem(last=False)
        return replay


def init_app(app: Flask) -> None:
    app.extensions["zerogames.replays"] = Replays()


def replay_of(record: Record) -> Replay:
    return current_app.extensions["zerogames.replays"].get(record)


def kept_replay(code: str, game_no: int) -> Replay | None:
    """The replay of a game, if it was rebuilt lately (then the game is finished: nothing to look up)."""
    return current_app.extensions["zerogames.replays"].kept_one(code, game_no)


def chart_of(replay: Replay, until: int | None = None) -> Markup:
    """The game's score chart (of the rounds ended by step `until`, if given: a replay's chart tells
    nothing ahead of its step), drawn once (a long game's is a few hundred points)."""
    key = f"chart {until}"
    if key not in replay.memo:
        names = [seat["name"] for seat in replay.record.seats]
        label = replay.rules.round_key.title()
        chart = score_chart(replay.scores_by_round(until), names, label)
        macro = current_app.jinja_env.get_template("records/_chart.html").module.score_chart
        replay.memo[key] = Markup(macro(chart, label))
    return replay.memo[key]


def game_record(code: str, game_no: int) -> str:
    """The end of a room's game, alike for every viewer: its score chart and "Watch replay" once it
    finished, a word of why not when it was abandoned."""
    replay = kept_replay(code, game_no)
    if replay is None:
        record = web_registry().store.history.record(code, game_no)
        outcome = record.outcome if record else None
        replay = replay_of(record) if outcome == "finished" else None
    else:
        outcome = "finished"
    return current_app.jinja_env.draw(
        "room/game-record.html",
        {
            "outcome": outcome,
            "chart": chart_of(replay) if replay else None,
            "replay_url": url_for("replays.replay", game=game_id(code, game_no)) if replay else None,
        },
    )
