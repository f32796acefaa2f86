"""Rejoin links: a player moves their seat to another device by opening a link from their page.

A link is signed, names the seat and the identity holding it, and counts the seat's moves so far: it
is good for the next move only, so once used (or once the seat has moved by any other link) it stays
dead, whoever holds the seat later. It also expires, REJOIN_TTL seconds after the page made it.
Opening it shows what it would do; the move itself is a POST, so a link previewer that fetches it
moves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from zerogames.rooms import Refused, Room

from .registry import web_registry

# Seconds a rejoin link stays good after its page was drawn: a reload of the page makes a fresh one.
REJOIN_TTL = 12 * 3600


@dataclass(frozen=True)
class Link:
    seat: int
    uid: str  # who held the seat when the link was made
    moves: int  # how often the seat had moved then


def signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="rejoin")


def make_token(room: Room, seat: int, uid: str) -> str:
    return signer().dumps([room.code, seat, uid, web_registry().store.rooms.seat_moves(room.code, seat)])


def read_token(room: Room, token: str) -> Link:
    """The link a token stands for, or a refusal saying why it cannot be used."""
    ttl = current_app.config.get("REJOIN_TTL", REJOIN_TTL)
    try:
        code, seat, uid, moves = signer().loads(token, max_age=ttl)
    except SignatureExpired:
        raise Refused(
            "This rejoin link has expired: reload the table on the device that has the seat for a fresh one."
        ) from None
    except (BadSignature, ValueError, TypeError):
        raise Refused("This rejoin link is not valid for this table.") from None
    if code != room.code or type(seat) is not int or type(moves) is not int:
        raise Refused("This rejoin link is not valid for this table.")
    return Link(seat, uid, moves)
