"""Leaderboards: `/leaderboard/<game>`, the game's top players by rating, a page at a time, with the
viewer's own place marked (or said, when it is not on the page)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, render_template, request

from zerogames.games import GAMES
from zerogames.numbers import whole_number
from zerogames.ratings import Rating

from . import identity
from .charts import SPARK_HEIGHT, SPARK_WIDTH, sparkline
from .registry import web_registry

bp = Blueprint("leaderboards", __name__)
bp.add_app_template_global(SPARK_WIDTH, "spark_width")
bp.add_app_template_global(SPARK_HEIGHT, "spark_height")

# The top hundred settled ratings of a game, a page of 25 at a time.
TOP = 100
PAGE_SIZE = 25


@dataclass(frozen=True)
class RatedGame:
    """A player's rating at one game, for their page: with its place and its history as a chart."""

    game: str
    title: str
    rating: Rating
    place: int | None
    history: list[str]  # the rating shown after each rated game, oldest first
    chart: str  # the history's sparkline points


def player_ratings(player: str) -> list[RatedGame]:
    """The player's rating at each game they were rated in, in the games' order."""
    store = web_registry().store
    histories = store.ratings.of_player(player)
    return [
        RatedGame(
            game,
            rules.title,
            histories[game][-1],
            store.ratings.leaderboard_place(game, player),
            [rating.shown for rating in histories[game]],
            sparkline([rating.ordinal for rating in histories[game]]),
        )
        for game, rules in GAMES.items()
        if game in histories
    ]


@dataclass(frozen=True)
class Standing:
    place: int
    username: str
    rating: Rating
    mine: bool


@bp.app_template_filter("ordinal")
def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    teens = place % 100 in (11, 12, 13)
    return f"{place:,}{'th' if teens else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def page_number(pages: int) -> int:
    number = whole_number(request.args.get("page", "1"), 1, pages)
    if number is None:
        abort(404, description=f"A leaderboard has pages 1 to {pages}.")
    return number


@bp.get("/leaderboard/<game>")
def leaderboard(game: str):
    rules = GAMES.get(game)
    if rules is None:
        abort(404, description="No game of that name has a leaderboard.")
    store = web_registry().store
    uid = identity.current_uid()
    listed = store.ratings.leaderboard_length(game, TOP)
    pages = max(1, -(-listed // PAGE_SIZE))
    number = page_number(pages)
    first = (number - 1) * PAGE_SIZE
    rows = store.ratings.leaderboard(game, first, min(PAGE_SIZE, listed - first))
    standings = [
        Standing(first + n, username, rating, player == uid)
        for n, (player, username, rating) in enumerate(rows, start=1)
    ]
    return render_template(
        "leaderboards/leaderboard.html",
        rules=rules,
        games=GAMES.values(),
        standings=standings,
        page=number,
        pages=pages,
        top=TOP,
        mine=store.ratings.of(game, [uid]).get(uid),
        place=store.ratings.leaderboard_place(game, uid),
        page_size=PAGE_SIZE,
    )
