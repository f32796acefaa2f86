"""Flask blueprints: the lobby, the tables, the live channel; and the one room registry they share."""

from __future__ import annotations

from flask import Flask, render_template

from zerogames import clock
from zerogames.games.cards import SUIT_NAMES, SUIT_SYMBOLS, card_name, short_name
from zerogames.rooms import RoomRegistry
from zerogames.rooms.commands import Unsaved
from zerogames.store import Unavailable, store_at

from . import (
    accounts,
    assets,
    daily,
    fairness,
    friends,
    guard,
    history,
    identity,
    leaderboards,
    limits,
    live,
    lobby,
    operating,
    players,
    replays,
    settings,
    table,
    table_talk,
    tables,
    talk,
)
from .drawings import Drawings
from .templating import TemplateEnvironment
from .viewmodel import action_value, card_buttons, cards_to_play, viewer_context


def init_app(app: Flask) -> None:
    # Set before the app's first use of its template environment, which is made once, on that use.
    app.jinja_environment = TemplateEnvironment
    app.session_interface = identity.SessionInterface()
    guard.init_app(app)
    assets.init_app(app)
    limits.init_app(app)
    # Made closed: zerogames.runtime opens it and restores the rooms, in the process that serves.
    store = store_at(app.config["DATABASE_URL"], app.config["DATABASE"])
    index, count = (int(part) for part in app.config["SHARD"].split("/"))
    registry = RoomRegistry(store, bot_delay=app.config["BOT_DELAY"], shard=(index, count))
    app.extensions["zerogames"] = registry
    operating.init_app(app)
    app.extensions["zerogames.drawings"] = Drawings(app.jinja_env)
    app.extensions["zerogames.mutes"] = talk.Mutes()
    app.register_error_handler(Unavailable, unavailable)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(table_talk.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(leaderboards.bp)
    app.register_blueprint(players.bp)
    accounts.init_app(app)
    history.init_app(app)
    app.register_blueprint(replays.bp)
    app.register_blueprint(fairness.bp)
    app.register_blueprint(daily.bp)
    app.register_blueprint(settings.bp)
    friends.init_app(app)
    # Block tags leave no blank lines behind: every pushed byte counts, a thousand times over.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals.update(
        card_name=card_name,
        short_name=short_name,
        suit_names=SUIT_NAMES,
        suit_symbols=SUIT_SYMBOLS,
        action_value=action_value,
        cards_to_play=cards_to_play,
        card_buttons=card_buttons,
        turn_clock=clock,
        dev_mode=app.config["DEV"],
    )
    app.context_processor(viewer_context)
    app.context_processor(settings.settings_context)
    # Shared macros as ready-made modules: `cards.face(card)` costs nothing to reach, where an
    # `{% from ... import %}` in a region would rebuild its module on every draw.
    with app.app_context():
        environment = app.jinja_env
        environment.globals.update(
            cards=environment.get_template("room/_cards.html").module,
            seating=environment.get_template("room/_seat.html").module,
        )
        # A game's own card macros (games/<game>/_cards.html), reached the same way: `game_cards.<game>`.
        listed = set(environment.list_templates())
        environment.globals["game_cards"] = {
            game: environment.get_template(f"{table.templates}/_cards.html").module
            for game, table in tables.TABLES.items()
            if f"{table.templates}/_cards.html" in listed
        }


def unavailable(error: Unavailable) -> tuple[str, int, dict[str, str]]:
    """A page that needed the store while it cannot be reached (the database away, its disk full or
    read-only): it says so, and to try again; the tables go on from memory meanwhile. Drawn as for a
    guest, so that drawing it asks the store nothing."""
    identity.drawn_as_a_guest()
    page = render_template("refused.html", title="Try again in a moment", message=Unsaved().reason)
    return page, 503, {"Retry-After": "2"}
