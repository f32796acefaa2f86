"""Table talk's forms (web.talk draws its regions): saying something, the host's chat switch and
sending someone away, muting a player and reporting a message."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, request, url_for

from zerogames import talk as rules
from zerogames.rooms import Refused

from . import identity, render
from .registry import web_registry
from .table import answer as table_answer
from .table import find_room
from .talk import REGIONS, mutes, watcher_tag

bp = Blueprint("talk", __name__)


def answer(code: str, message: str | None = None, refusal: Refused | None = None, regions_too: bool = False):
    """Talk's answers, as the table's are (web.table.answer): a notice for htmx, a redirect for a plain
    form; `regions_too`: with the talk regions drawn anew (a mute, which changes no room)."""
    room = find_room(code)
    if refusal is not None or (not message and not regions_too):
        return table_answer(room, refusal)
    if not request.headers.get("HX-Request"):
        if message:
            flash(message, "info")
        return redirect(url_for("table.room", code=room.code, **identity.tab_args()))
    notice = current_app.jinja_env.draw("room/notice.html", {"message": message})
    also = ""
    if regions_too:
        drawn = render.render_regions(room.code, room.game_id, room.published).regions
        also = "".join(
            drawn[name].replace(f'<section id="{name}"', f'<section hx-swap-oob="true" id="{name}"', 1)
            for name in REGIONS
        )
    return Response(notice + also, mimetype="text/html")


def attempt(code: str, change) -> Any:
    room = find_room(code)
    try:
        change(room)
    except Refused as refusal:
        return answer(code, refusal=refusal)
    return answer(code)


@bp.post("/r/<code>/say")
def say(code: str):
    kind, text = request.form.get("kind", ""), request.form.get("text", "")[: rules.LENGTH * 4]
    return attempt(code, lambda room: web_registry().say(room, identity.current_uid(), kind, text))


@bp.post("/r/<code>/chat")
def chat(code: str):
    def switch(room) -> None:
        wanted = request.form.get("on")
        if wanted not in ("yes", "no"):
            raise Refused("Choose whether chat is on: yes or no.")
        web_registry().set_chat(room, identity.current_uid(), wanted == "yes")

    return attempt(code, switch)


@bp.post("/r/<code>/kick")
def kick(code: str):
    """The host sends a seated player (by seat) or a watcher (by the tag their page shows) away."""

    def send_away(room) -> None:
        published = room.published
        seat, tag = request.form.get("seat_index", ""), request.form.get("watcher", "")
        if seat.isdigit() and int(seat) < len(published.seats) and published.seats[int(seat)].uid:
            kicked = published.seats[int(seat)].uid
        else:
            found = [uid for uid in room.connected() if tag and watcher_tag(room.code, uid) == tag]
            if not found:
                raise Refused("That player is not at this table any more.")
            kicked = found[0]
        web_registry().kick(room, identity.current_uid(), kicked)

    return attempt(code, send_away)


@bp.post("/r/<code>/mute/<int:index>")
def mute(code: str, index: int):
    room = find_room(code)
    seats, me, seat = room.published.seats, identity.current_uid(), index
    if not 0 <= seat < len(seats) or seats[seat].uid is None:
        return answer(code, refusal=Refused("That seat holds no player to mute."))
    if seats[seat].uid == me:
        return answer(code, refusal=Refused("You cannot mute yourself."))
    on = request.form.get("on") == "yes"
    mutes().set(me, seats[seat].uid, on)
    name = seats[seat].name
    said = f"{name} is muted: you will not see their words or reactions." if on else f"{name} is heard again."
    return answer(code, said, regions_too=True)


@bp.post("/r/<code>/talk/<int:n>/report")
def report(code: str, n: int):
    room = find_room(code)
    said = next((said for said in room.published.talk if said.n == n), None)
    if said is None:
        return answer(code, refusal=Refused("That message is no longer kept: it cannot be reported."))
    if said.uid == identity.current_uid():
        return answer(code, refusal=Refused("That is your own message."))
    web_registry().store.talk.report(room.code, said, identity.current_uid())
    return answer(code, "Reported: the site's operator will read it. Thank you.")
