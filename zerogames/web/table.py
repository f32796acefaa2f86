"""A room's page, its lobby controls, actions and rejoin links.

Every POST answers an htmx request with the fresh room for the viewer (and a notice when refused);
a plain form POST is redirected back to the room page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from zerogames.games import IllegalAction
from zerogames.numbers import whole_number
from zerogames.rooms import Refused, Room, clean_name
from zerogames.rooms.commands import Unsaved
from zerogames.rooms.lobby import SENT_AWAY
from zerogames.store import Unavailable

from . import guard, identity, limits, rejoin, render, tables, viewmodel
from .registry import web_registry

bp = Blueprint("table", __name__)


def find_room(code: str) -> Room:
    limits.looking_up()
    room = web_registry().get(code)
    if room is None:
        limits.missed()
        abort(404, description=f"No table has the code {code.upper()!r}. Check the letters with your host.")
    return room


def rejoin_url(room: Room, uid: str) -> str | None:
    """The link that moves this identity's seat to another device; None when it holds no seat, or
    while the store cannot be read (the page says so instead, and the table goes on from memory)."""
    me = room.seat_of(uid)
    if me is None:
        return None
    try:
        token = rejoin.make_token(room, me, uid)
    except Unavailable:
        flash(Unsaved().reason, "error")
        return None
    return guard.external_url("table.rejoin_page", code=room.code, token=token)


def page_context(room: Room) -> dict[str, Any]:
    uid = identity.current_uid()
    published = room.published
    drawn = render.render_regions(room.code, room.game_id, published)
    link = rejoin_url(room, uid)
    return {
        "room": viewmodel.room_info(room.code, room.game_id, published, uid),
        "table": tables.TABLES[room.game_id],
        "body": viewmodel.room_body(drawn.regions, published.status, room.game_id),
        "share": guard.external_url("table.room", code=room.code),
        "live": guard.external_url("live.live", code=room.code, **identity.tab_args()),
        "rejoin": link,
        "name": identity.current_name(),
        # The browser counts the turn clock down from this: its own clock may be off.
        "server_time": round(web_registry().clock(), 3),
    }


@bp.get("/r/<code>")
def room(code: str):
    found = find_room(code)
    if code != found.code:
        return redirect(url_for("table.room", code=found.code, **identity.tab_args()))
    if identity.current_uid() in found.published.kicked:
        return render_template("room/sent-away.html", room=found, reason=SENT_AWAY), 403
    return render_template("room/page.html", **page_context(found))


def fresh_table(room: Room) -> str:
    """The viewer's table as it is now, swapped in by id (the forms that post moves swap nothing)."""
    published = room.published
    drawn = render.render_regions(room.code, room.game_id, published)
    return viewmodel.room_body(drawn.regions, published.status, room.game_id, oob=True)


def answer(room: Room, refusal: Refused | None = None, also: str = "") -> Response | Any:
    """The room as it is now: fresh regions for htmx, a redirect for a plain form.

    `also`: more regions to swap in by id."""
    if not request.headers.get("HX-Request"):
        if refusal:
            flash(refusal.reason, "error")
        return redirect(url_for("table.room", code=room.code, **identity.tab_args()))
    notice = drawn_notice(refusal)
    if request.headers.get("X-Live") and not (refusal and refusal.stale):
        # The page's live channel brings the new table (or nothing changed): just the notice.
        return Response(notice + also, mimetype="text/html")
    # A refusal still answers 200: htmx swaps nothing from an error status, and the player must see
    # both the reason and the table as it is now (a page that thought its live channel would bring it
    # opens a fresh one).
    return Response(notice + also + fresh_table(room), mimetype="text/html")


def drawn_notice(refusal: Refused | None) -> str:
    """The page's notice: why its move was refused, or empty (the last one cleared). Drawn from the
    message alone: every move is answered with one, so without Flask's page context; the empty one,
    every accepted move's, is drawn once."""
    environment = current_app.jinja_env
    if refusal is None:
        return environment.draw_once("room/notice.html", message=None)
    return environment.draw("room/notice.html", {"message": refusal.reason})


def attempt(room: Room, change, also=None) -> Response | Any:
    """Make the change and answer; `also()` draws more regions for the answer once it is made."""
    try:
        change()
    except Refused as refusal:
        return answer(room, refusal)
    return answer(room, also=also() if also else "")


@bp.post("/r/<code>/join")
def join(code: str):
    room = find_room(code)
    uid = identity.current_uid()

    def take_seat() -> None:
        name = clean_name(request.form.get("name") or identity.current_name())
        web_registry().join(room, uid, name, request.form.get("contribution"))
        identity.remember_name(name)

    def rejoin_link() -> str:
        # The seat is this page's now: so is the link that moves it (see room/rejoin-link.html).
        return render_template("room/rejoin-link.html", rejoin=rejoin_url(room, uid), oob=True)

    return attempt(room, take_seat, rejoin_link)


@bp.post("/r/<code>/leave")
def leave(code: str):
    room = find_room(code)
    return attempt(room, lambda: web_registry().leave(room, identity.current_uid()))


@bp.post("/r/<code>/bots")
def add_bot(code: str):
    room = find_room(code)
    level = request.form.get("level", "easy")
    return attempt(room, lambda: web_registry().add_bot(room, identity.current_uid(), level))


@bp.post("/r/<code>/bots/<int:index>/remove")
def remove_bot(code: str, index: int):
    room = find_room(code)
    return attempt(room, lambda: web_registry().remove_bot(room, identity.current_uid(), index))


@bp.post("/r/<code>/ranked")
def ranked(code: str):
    room = find_room(code)

    def mark() -> None:
        wanted = request.form.get("ranked")
        if wanted not in ("yes", "no"):
            raise Refused("Choose whether the table is ranked: yes or no.")
        web_registry().set_ranked(room, identity.current_uid(), wanted == "yes")

    return attempt(room, mark)


@bp.post("/r/<code>/start")
def start(code: str):
    room = find_room(code)

    def deal() -> None:
        seed = dealt_seed(request.form, current_app.config["DEV"])
        web_registry().start(room, identity.current_uid(), seed, request.form.get("contribution"))

    return attempt(room, deal)


def dealt_seed(form, dev: bool) -> int | None:
    """In development mode the host may name the deal (a seed) to see a given hand again; else random."""
    chosen = (form.get("seed") or "").strip() if dev else ""
    if not chosen:
        return None
    seed = whole_number(chosen, 0, 2**31 - 1)
    if seed is None:
        raise Refused("The deal is a whole number from 0 to 2147483647, or empty for a random one.")
    return seed


@bp.post("/r/<code>/clock")
def set_clock(code: str):
    room = find_room(code)

    def change() -> None:
        seconds = tables.picked_clock(request.form, current_app.config["DEV"])
        web_registry().set_clock(room, identity.current_uid(), seconds)

    return attempt(room, change)


@bp.post("/r/<code>/back")
def back(code: str):
    room = find_room(code)
    return attempt(room, lambda: web_registry().back(room, identity.current_uid()))


@bp.post("/r/<code>/seats/<int:index>/bot")
def hand_to_bot(code: str, index: int):
    room = find_room(code)
    level, remove = request.form.get("level", "easy"), request.form.get("remove") == "yes"
    return attempt(
        room, lambda: web_registry().hand_to_bot(room, identity.current_uid(), index, level, remove)
    )


@bp.post("/r/<code>/again")
def again(code: str):
    room = find_room(code)
    contribution = request.form.get("contribution")
    return attempt(room, lambda: web_registry().rematch(room, identity.current_uid(), contribution))


# The longest action a form of the site posts is a few dozen characters; this is also too short to
# nest deep enough to exhaust the JSON parser (a thousand levels).
ACTION_LENGTH = 512


# A move's form fields, as a posted form or a live channel's message gives them: each field's value.
Fields = Mapping[str, str]


def posted_action(room: Room, form: Fields) -> dict[str, Any]:
    """The action button's JSON, plus a field `action.<key>` for each part picked apart from it, if
    it holds only what the room's game knows (else refused: nothing else is ever stored).

    A move picked in steps (Zero Down's swap: a card of yours, then a pool card) is two radio groups
    named `action.give` and `action.take` beside a `{"type": "swap"}` button: plain HTML, no script.
    """
    unreadable = Refused("That move could not be read: please try again.")
    posted = form.get("action", "")
    if len(posted) > ACTION_LENGTH:
        raise unreadable
    try:
        action = json.loads(posted)
    except ValueError:
        raise unreadable from None
    parts = {name[len("action.") :]: value for name, value in form.items() if name.startswith("action.")}
    if parts and isinstance(action, dict):
        action = {**action, **parts}
    try:
        return room.rules.check_action(action)
    except IllegalAction as refusal:
        raise Refused(refusal.reason) from None


def make_move(room: Room, uid: str, form: Fields) -> None:
    """A seated player's move as their page sends it (a form posted, or its fields over the live
    channel): the table version it was chosen on, the action, and the seat it is made for."""
    web_registry().act(room, uid, form.get("version"), posted_action(room, form), form.get("seat"))


def moved_over_the_channel(room: Room, uid: str, form: Fields) -> str:
    """A move sent over the page's live channel, answered as a posted one is while the channel is
    live: with the page's notice alone (the channel pushes the table, as for every change)."""
    try:
        make_move(room, uid, form)
    except Refused as refusal:
        return drawn_notice(refusal)
    return drawn_notice(None)


@bp.post("/r/<code>/act")
def act(code: str):
    room = find_room(code)
    return attempt(room, lambda: make_move(room, identity.current_uid(), request.form))


@bp.get("/r/<code>/rejoin/<token>")
def rejoin_page(code: str, token: str):
    """What opening the link would do, with a button to do it."""
    room = find_room(code)
    back = redirect(url_for("table.room", code=room.code, **identity.tab_args()))
    try:
        link = rejoin.read_token(room, token)
    except Refused as refusal:
        flash(refusal.reason, "error")
        return back
    if link.uid == identity.current_uid():
        return back  # the seat is this browser's already
    seats = room.published.seats
    name = seats[link.seat].name if 0 <= link.seat < len(seats) else None
    return render_template("room/rejoin.html", room=room, name=name, title=room.rules.title)


@bp.post("/r/<code>/rejoin/<token>")
def rejoin_move(code: str, token: str):
    """The seat moves to this browser, if the link is still good for it."""
    room = find_room(code)
    try:
        link = rejoin.read_token(room, token)
        web_registry().move_seat(room, link.seat, link.uid, identity.current_uid(), link.moves)
        identity.remember_name(room.seats[link.seat].name)
    except Refused as refusal:
        flash(refusal.reason, "error")
    return redirect(url_for("table.room", code=room.code, **identity.tab_args()))
