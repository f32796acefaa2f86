"""Replays of finished games: `/replay/<game>?step=N&view=S`, one URL per step and point of view.

A replay is the game's log played again by its engine (rebuilt once, then kept for a while), and each
step is drawn by the game's own table templates, from a seat's view (what that seat saw then, nothing
more) or with every card open (the engine's `open_view`). Games still being played, or abandoned,
have none.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from zerogames import analysis, bots
from zerogames.games.figures import minutes
from zerogames.numbers import whole_number
from zerogames.offload import off_the_loop
from zerogames.records import Replay

from . import identity, render, tables
from .fairness import ended_record, replay_check
from .history import chart_of, replay_of
from .registry import web_registry
from .viewmodel import RoomInfo, SeatInfo, room_body

bp = Blueprint("replays", __name__)

OPEN = "open"
ANALYSING = "zerogames.analysing"


@bp.record_once
def init_analyses(state) -> None:
    # The analyses this process is working out, by game and seat: asked again meanwhile, a page waits.
    state.app.extensions[ANALYSING] = set()


def finished_replay(game: str) -> Replay:
    """The replay of a finished game, or a page saying why there is none."""
    record = ended_record(game)
    if record.outcome != "finished":
        abort(403, description="This game was abandoned before its end: only finished games have replays.")
    return replay_of(record)


def seat_infos(replay: Replay, me: int | None) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(seat["seat"], seat["name"], seat["bot"], True, False, seat["seat"] == me)
        for seat in replay.record.seats
    )


def table_room(replay: Replay, n: int, me: int | None) -> RoomInfo:
    """The room as the table templates know it, at step n, seen by `me` (None: all open)."""
    rules, record = replay.rules, replay.record
    return RoomInfo(
        record.code,
        record.game,
        rules.title,
        "over" if n == replay.last else "playing",
        0,
        0,
        seat_infos(replay, me),
        me,
        False,
        rules.min_players,
        rules.max_players,
        record.options,
    )


def draw_table(replay: Replay, n: int, me: int | None, view: dict[str, Any]) -> str:
    """The game's table at step n, drawn by its own templates (its view has no move to make: Replay.view)."""
    room = table_room(replay, n, me)
    context = {"tab": {}, "my_name": None, "act_url": None, "room": room, "view": view}
    context |= {"now": replay.steps[n].now, "replay": True}
    return room_body(render.draw_whole(replay.record.game, room, context), room.status, replay.record.game)


def step_words(replay: Replay, me: int | None) -> list[str]:
    """Every step in words, as the table said it to `me` (the spectator's words with all cards open)."""
    key = f"words {me}"
    if key not in replay.memo:
        templates = tables.TABLES[replay.record.game].templates
        describe = current_app.jinja_env.get_template(f"{templates}/_words.html").module.describe
        # A view and its words for every step: a long game's thousand, off the loop.
        replay.memo[key] = off_the_loop(say_every_step, replay, me, describe)
    return replay.memo[key]


def say_every_step(replay: Replay, me: int | None, describe: Any) -> list[str]:
    names = [seat["name"] for seat in replay.record.seats]
    words = ["The cards are dealt."]
    for step in replay.steps[1:]:
        view = replay.rules.view(step.state, me, step.now)
        # What the game's words ask for beyond the last move and the names (Zero: the reveal), from the view.
        more = [view.get(argument) for argument in describe.arguments[2:]]
        words.append(describe(view["last"], names, *more).strip() if view["last"] else "")
    return words


def point_of_view(replay: Replay) -> int | None:
    """The seat asked for (`view=N`), all open (`view=open`), else the viewer's own seat if they played."""
    asked = request.args.get("view")
    if asked == OPEN:
        return None
    seat = whole_number(asked, 0, replay.record.players - 1)
    if seat is not None:
        return seat
    return replay.record.players_seats.get(identity.current_uid())


@bp.get("/replay/<game>")
def replay(game: str):
    replay = finished_replay(game)
    record = replay.record
    n = min(whole_number(request.args.get("step")) or 0, replay.last)
    me = point_of_view(replay)
    view = replay.open_view(n) if me is None else replay.view(n, me)
    name = game.upper()

    # Hundreds of links a page (each step, each round): made from one URL, not one url_for each.
    base = url_for("replays.replay", game=name)

    def at(step: int, seat: int | None = me) -> str:
        return f"{base}?step={step}&view={OPEN if seat is None else seat}"

    rounds = replay.rounds()
    label = replay.rules.round_key.title()
    return render_template(
        "replays/replay.html",
        replay=replay,
        record=record,
        title=replay.rules.title,
        stylesheet=tables.TABLES[record.game].stylesheet,
        lasted=minutes(record.ended - record.started),
        game_name=name,
        n=n,
        me=me,
        at=at,
        table=draw_table(replay, n, me, view),
        view=view,
        words=step_words(replay, me),
        rounds=rounds,
        current_round=replay.steps[n].round,
        label=label,
        chart=chart_of(replay, n),
        open_hands=view["hands"] if me is None else None,
        fair=replay_check(replay),
        **analysis_context(record, kept_analysis(record)),
    )


# Where the viewer lost points (zerogames.analysis): only their own seat's decisions, worked out once
# per game and seat, off the loop, then kept in the store. A daily deal's replay opens to nobody but
# those who played it until the day is over (ended_record), and so does its analysis.


def own_seat(record) -> int | None:
    return record.players_seats.get(identity.current_uid())


def kept_analysis(record) -> list[analysis.Decision] | None:
    """The viewer's own seat's analysis, if it is worked out (None also when they did not play)."""
    seat = own_seat(record)
    if seat is None:
        return None
    data = web_registry().store.analyses.of(record.code, record.game_no, seat)
    return None if data is None else analysis.from_data(data)


def analysis_context(record, found: list[analysis.Decision] | None) -> dict[str, Any]:
    return {
        "my_seat": own_seat(record),
        "decisions": found,
        "costliest": analysis.costliest(found) if found else [],
        "analysis_url": url_for("replays.analysis_part", game=request.view_args["game"].upper()),
        "replay_url": url_for("replays.replay", game=request.view_args["game"].upper()),
        "values_in": bots.MODULES[record.game].VALUES_IN,
    }


@bp.get("/replay/<game>/analysis")
def analysis_part(game: str):
    """The viewer's analysis: worked out now if nobody is working it out already (else "Working out…",
    asked again in a moment). Without htmx, back to the replay, which shows it once it is done."""
    record = finished_replay(game).record
    seat = own_seat(record)
    if seat is None:
        abort(
            403, description="Only a player's own decisions are weighed, on the replay of a game they played."
        )
    found = kept_analysis(record)
    working, key = current_app.extensions[ANALYSING], (record.code, record.game_no, seat)
    if found is None and key not in working:
        working.add(key)
        try:
            found = analysis.analyse(record, seat, run=off_the_loop)
            web_registry().store.analyses.keep(record.code, record.game_no, seat, analysis.as_data(found))
        finally:
            working.discard(key)
    if not request.headers.get("HX-Request"):
        return redirect(url_for("replays.replay", game=game) + "#analysis-heading")
    context = analysis_context(record, found)
    return render_template("replays/_analysis.html", record=record, polling=True, **context)


@bp.errorhandler(403)
def no_replay(error):
    return render_template("records/missing.html", heading="No replay", message=error.description), error.code
