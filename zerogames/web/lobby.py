"""The home page: pick a game and its options and create a room, or join one by its code."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)

from zerogames import clock
from zerogames.games import GAMES
from zerogames.rooms import Refused, clean_name

from . import identity, limits, settings, tables
from .registry import web_registry

bp = Blueprint("lobby", __name__)


@bp.get("/")
def home():
    return render_template(
        "lobby/home.html",
        games=list(GAMES.values()),
        options={game_id: table.options for game_id, table in tables.TABLES.items()},
        taglines={game_id: table.tagline for game_id, table in tables.TABLES.items()},
        name=identity.current_name(),
    )


@bp.post("/rooms")
def create():
    game_id = request.form.get("game", "")
    try:
        table = tables.TABLES.get(game_id)
        if table is None:
            raise Refused("Pick one of the games on the list.")
        name = clean_name(request.form.get("name"))
        options = table.parse_options(request.form)
        seconds = tables.picked_clock(request.form, current_app.config["DEV"])
        if seconds is not None:
            options[clock.OPTION] = seconds
        limits.room_created()
        room = web_registry().create(game_id, options, identity.current_uid(), name)
    except Refused as refusal:
        flash(refusal.reason, "error")
        return redirect(url_for("lobby.home", **identity.tab_args()))
    identity.remember_name(name)
    return redirect(url_for("table.room", code=room.code, **identity.tab_args()))


@bp.get("/join")
def join():
    code = request.args.get("code", "").strip().upper()
    limits.looking_up()
    if not web_registry().exists(code):
        limits.missed()
        flash(
            f"No table has the code {code!r}: check the letters with your host."
            if code
            else "Type the 4-letter code your host shared.",
            "error",
        )
        return redirect(url_for("lobby.home", **identity.tab_args()))
    return redirect(url_for("table.room", code=code, **identity.tab_args()))


@bp.get("/rules/<game_id>")
def rules(game_id: str):
    """A game's How to play, with the house rules this site settled; `next` leads back to a table."""
    table = tables.TABLES.get(game_id)
    if table is None:
        abort(404, description="There is no game by that name here: pick one on the home page.")
    back = settings.local(request.args.get("next", ""))
    return render_template(f"{table.templates}/rules.html", game=GAMES[game_id], back=back)


@bp.get("/favicon.ico")
def favicon():
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml")
