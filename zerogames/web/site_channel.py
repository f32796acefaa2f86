"""The live channel of every page but a table's, for a signed-up player: the same channel as a
table's (zerogames.web.live: its hello, its heartbeat, its refusals), carrying only the player's
notices (zerogames.web.presence)."""

from __future__ import annotations

from flask import Blueprint, g, request

from . import identity, limits
from .live import (
    HEARTBEAT,
    HELLO_WAIT,
    SPOKE_AGAIN,
    UNREADABLE,
    Unreadable,
    give_up_unanswered,
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


@bp.teardown_request
def give_the_channel_back(error: BaseException | None) -> None:
    lease = g.pop("live_lease", None)
    if lease is not None:
        limits.limits().channels.close(lease)


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
    try:
        shown_seq(ws.receive(timeout=HELLO_WAIT))
    except Unreadable:
        ws.close(UNREADABLE, 'The first message must be {} or {"seq": N}.')
        return
    page = request.args.get("page")
    listener = hub().tune_in(account.id, None, page if page in PAGES else None, ws.event)
    give_up_unanswered(ws)
    HEARTBEAT.add(ws)
    try:
        while ws.connected:
            ws.event.clear()
            if ws.input_buffer:
                ws.close(SPOKE_AGAIN, "The page speaks once, when the channel opens.")
                return
            message = listener.take()
            if message:
                ws.send(message)
            ws.event.wait(IDLE_WAKE)
    finally:
        HEARTBEAT.discard(ws)
        hub().leave(listener)
