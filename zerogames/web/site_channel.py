"""The live channel of every page but a table's, for a signed-up player: the same channel as a
table's (zerogames.web.live: its hello, its heartbeat, its refusals), carrying only the player's
notices (zerogames.web.presence)."""

from __future__ import annotations

from flask import Blueprint, current_app, g, request

from . import identity, limits
from .frames import send
from .live import (
    HEARTBEAT,
    HELLO_WAIT,
    NOT_A_HELLO,
    SPOKE_AGAIN,
    UNREADABLE,
    Unreadable,
    give_up_unanswered,
    heard_since,
    shown_seq,
    sock,
)
from .presence import hub

bp = Blueprint("presence", __name__)

# Seconds the channel sleeps when nothing wakes it (a closed socket is noticed by then at the latest).
IDLE_WAKE = 5.0
# The pages whose channel carries more than the notices: the friends page's list.
PAGES = ("friends",)


@bp.before_request
def take_a_channel() -> None:
    g.live_lease = limits.open_channel(None)


bp.teardown_request(limits.give_the_channel_back)


@bp.get("/live")
def ask() -> tuple[str, int]:
    """Why a channel was refused, asked over plain HTTP (as zerogames.web.live's ask)."""
    return "", 204


@sock.route("/live", bp=bp)
def site_live(ws) -> None:
    account = identity.signed_in_account()
    if account is None:
        ws.close(SPOKE_AGAIN, "Sign in for a live channel on this page.")
        return
    message = ws.receive(timeout=HELLO_WAIT)
    try:
        shown_seq(message)
    except Unreadable:
        ws.close(UNREADABLE, NOT_A_HELLO)
        return
    heard = message is not None
    page = request.args.get("page")
    listener = hub().tune_in(account.id, None, page if page in PAGES else None, ws.event)
    give_up_unanswered(ws)
    HEARTBEAT.add(ws, current_app.config["SOCKET_PING_EVERY"])
    try:
        while ws.connected:
            ws.event.clear()
            heard = heard_since(ws, heard)
            if heard is None:
                return
            message = listener.take()
            if message:
                send(ws, message)
            ws.event.wait(IDLE_WAKE)
    finally:
        HEARTBEAT.discard(ws)
        hub().leave(listener)
