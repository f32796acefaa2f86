"""The daily deal (zerogames.daily) on the site: `/daily` lists each game's deal of the day, a POST
plays it (once a day, against Hard bots), and `/daily/<game>` has the day's results, the player's
share text and streak. Until the day is over, nobody sees that day's cards through a replay before
they have played it themselves."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from zerogames import daily
from zerogames.fairness import commitment
from zerogames.games import GAMES
from zerogames.rooms.commands import Dealt, Refused
from zerogames.rooms.names import clean_name
from zerogames.rooms.registry import a_secret
from zerogames.store import Record

from . import identity, limits
from .history import replay_of
from .registry import web_registry

bp = Blueprint("daily", __name__)


def today() -> str:
    return daily.day_of(web_registry().clock())


def secret_of(game: str, day: str) -> str:
    return web_registry().store.dailies.secret(game, day, a_secret())


def my_game(game: str, day: str, uid: str) -> tuple[str | None, Record | None]:
    """The player's room of the day's deal, if they took it, and its game's record, once dealt."""
    store = web_registry().store
    code = store.dailies.room_of(game, day, uid)
    return code, store.history.record(code, 1) if code else None


def ended(record: Record | None) -> bool:
    return record is not None and record.outcome is not None


def played_it(game: str, day: str, uid: str) -> bool:
    """Whether the player's own game of the day's deal is over."""
    return ended(my_game(game, day, uid)[1])


def day_not_over(code: str, game_no: int) -> tuple[str, str] | None:
    """(game, day) if this game is a daily deal of a day not over yet: until then its secret and seed,
    which deal every round of the day for everyone, stay in the store, even for those who played it."""
    found = web_registry().store.dailies.day_of_room(code) if game_no == 1 else None
    if found is None or daily.is_over(found[1], web_registry().clock()):
        return None
    return found


def why_hidden(code: str, game_no: int) -> str | None:
    """Why this viewer may not see this game's cards yet: it is a deal of a day not over, which they
    have not played to its end."""
    found = day_not_over(code, game_no)
    if found is None or played_it(*found, identity.current_uid()):
        return None
    return "This is a daily deal of today: its replay opens once you have played it, or when the day is over."


@bp.get("/daily")
def list_page():
    day, uid = today(), identity.current_uid()
    dailies = web_registry().store.dailies
    deals = [
        {
            "game": game,
            "title": rules.title,
            "seats": daily.SEATS[game],
            "played": dailies.room_of(game, day, uid) is not None,
            "commitment": commitment(secret_of(game, day)),
            "tomorrow": commitment(secret_of(game, daily.next_day(day))),
        }
        for game, rules in GAMES.items()
    ]
    return render_template("daily/list.html", day=day, deals=deals, my_name=identity.current_name())


@bp.post("/daily/<game>")
def play(game: str):
    if game not in GAMES:
        abort(404)
    registry, uid, day = web_registry(), identity.current_uid(), today()
    dailies = registry.store.dailies
    if code := dailies.room_of(game, day, uid):
        return redirect(url_for("table.room", code=code, **identity.tab_args()))
    try:
        name = clean_name(request.form.get("name") or identity.current_name())
        limits.room_created()
        room = registry.create(game, {}, uid, name)
        for _ in range(daily.SEATS[game] - 1):
            registry.add_bot(room, uid, daily.LEVEL)
        # Once a day: another tab of the player's may have begun it meanwhile (then that room it is).
        code = room.code if dailies.take(game, day, uid, room.code) else dailies.room_of(game, day, uid)
        if code == room.code:
            secret = secret_of(game, day)
            fairness, seed = daily.deal(secret, game, day)
            registry.start_daily(room, uid, seed, Dealt(fairness, secret))
    except Refused as refusal:
        flash(refusal.reason, "error")
        return redirect(url_for("daily.list_page"))
    identity.remember_name(name)
    return redirect(url_for("table.room", code=code, **identity.tab_args()))


def my_day(game: str, day: str, uid: str, record: Record | None) -> dict[str, Any] | None:
    """The viewer's own game of the day's deal, once finished: its share text."""
    if record is None or record.outcome != "finished":
        return None
    replay = replay_of(record)
    seat = record.players_seats.get(uid, 0)
    link = url_for("daily.game_page", game=game, _external=True)
    return {"share": daily.share_text(game, day, seat, replay.scores_by_round(), link), "code": record.code}


def asked_day() -> str:
    """The day asked for (`?day=YYYY-MM-DD`, today or before), else today."""
    day, asked = today(), request.args.get("day", "")
    try:
        return asked if asked <= day and daily.day_of(daily.start_of(asked)) == asked else day
    except ValueError:
        return day


@bp.get("/daily/<game>")
def game_page(game: str):
    if game not in GAMES:
        abort(404)
    uid, day = identity.current_uid(), asked_day()
    store = web_registry().store
    over = daily.is_over(day, web_registry().clock())
    my_room, record = my_game(game, day, uid)
    open_to_me = over or ended(record)
    rows = store.dailies.results(game, day) if open_to_me else []
    return render_template(
        "daily/game.html",
        game=game,
        title=GAMES[game].title,
        day=day,
        seats=daily.SEATS[game],
        commitment=commitment(secret_of(game, day)),
        # Published once the day is over: with it, anyone can check every game of the day's deal.
        secret=secret_of(game, day) if over else None,
        over=over,
        yesterday=daily.previous_day(day),
        played=my_room is not None,
        open_to_me=open_to_me,
        results=daily.friends_first(
            [
                {"player": player, "name": name, "code": code, "outcome": outcome, "score": score}
                | {"place": place, "me": player == uid}
                for player, name, code, outcome, score, place in rows
            ],
            store.friends.friends_of([uid]),
        ),
        mine=my_day(game, day, uid, record) if open_to_me else None,
        streak=daily.streak(store.dailies.days(game, uid), today()),
        my_name=identity.current_name(),
    )
