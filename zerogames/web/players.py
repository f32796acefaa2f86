"""A player's page: their statistics per game and their games, newest first, each with its replay.

`/me` is this browser's player (a guest too); `/p/<username>` shows an account's page to anyone.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, render_template, request, url_for

from zerogames.games import GAMES
from zerogames.numbers import whole_number
from zerogames.records import statistics
from zerogames.store import Played

from . import identity
from .leaderboards import player_ratings
from .registry import web_registry

bp = Blueprint("players", __name__)

PAGE_SIZE = 20


@bp.app_template_filter("when")
def when(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")


def page_number() -> int:
    return whole_number(request.args.get("page"), 1, 99_999) or 1


def player_page(player_id: str, username: str | None, own: bool):
    store = web_registry().store
    number = page_number()
    games = store.history.of_player(player_id, (number - 1) * PAGE_SIZE, PAGE_SIZE + 1)
    more, games = len(games) > PAGE_SIZE, games[:PAGE_SIZE]

    def page_link(n: int) -> str:
        if own:
            return url_for("players.me", page=n)
        return url_for("players.profile", username=username, page=n)

    return render_template(
        "players/page.html",
        username=username,
        own=own,
        games=games,
        titles={game_id: rules.title for game_id, rules in GAMES.items()},
        statistics=statistics(store.history.plays_by_game(player_id)),
        ratings=player_ratings(player_id),
        page=number,
        previous=page_link(number - 1) if number > 1 else None,
        next=page_link(number + 1) if more else None,
        place_words=place_words,
    )


def place_words(played: Played) -> str:
    if played.outcome == "abandoned":
        return "abandoned"
    if played.place is None:
        return "draw"
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(played.place, f"{played.place}th")


@bp.get("/me")
def me():
    return player_page(identity.current_uid(), identity.signed_in(), own=True)


@bp.get("/p/<username>")
def profile(username: str):
    account = web_registry().store.players.account(username)
    if account is None:
        abort(404, description=f"No player has the username {username!r}.")
    return player_page(account.id, account.username, own=account.id == identity.current_uid())
