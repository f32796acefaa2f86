"""The home page: pick a game and create a room, or join one by its code."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, send_from_directory

from zerogames.games import GAMES

bp = Blueprint("lobby", __name__)


@bp.get("/")
def home() -> str:
    return render_template("lobby/home.html", games=list(GAMES.values()))


@bp.get("/favicon.ico")
def favicon():
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml")
