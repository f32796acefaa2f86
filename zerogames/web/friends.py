"""The friends page, friend requests, blocks and invitations to a table (zerogames.friends has the
rules); and the notices every page of a signed-up player shows and has pushed (zerogames.web.presence).

Each form works as a plain POST (redirected back, the outcome flashed) and through htmx (answered with
the part of the page it changed, the outcome in it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import segno
from flask import Blueprint, Flask, abort, flash, redirect, render_template, request, url_for

from zerogames import friends as rules
from zerogames.friends import FriendRefused, Outcome, Relation, Standing
from zerogames.games import GAMES
from zerogames.store import PlayerRow, Store
from zerogames.store.friends import Invite, Seen

from . import guard, identity, presence, site_channel
from .presence import FRESH_FOR, hub
from .registry import web_registry

bp = Blueprint("friends", __name__)

# Seconds a player who closed their last page reads as away (then: last seen, with the day).
AWAY_FOR = 15 * 60
# Seconds an invitation waits, unless its room starts or fills first.
INVITE_FOR = 3600
ASKED_SAID = "Asked {name} to be your friend."


def store() -> Store:
    return web_registry().store


# What the pages show


@dataclass(frozen=True)
class TableSeen:
    code: str
    title: str
    joinable: bool  # in its lobby with a seat free ("Join"), else "Watch"


@dataclass(frozen=True)
class Line:
    """A friend on my list, with their presence in words and the table they are at."""

    username: str
    words: str
    online: bool
    table: TableSeen | None


def table_seen(code: str | None) -> TableSeen | None:
    found = store().friends.room(code) if code else None
    if found is None or found[0] not in GAMES:
        return None
    game, status, taken = found
    game_rules = GAMES[game]
    return TableSeen(str(code), game_rules.title, status == "lobby" and taken < game_rules.max_players)


def presence_words(seen: Seen | None, now: float) -> str:
    if seen is None or seen.seen is None:
        return "Not seen yet"
    if seen.online:
        return "Online"
    if now - seen.seen < AWAY_FOR:
        return "Away"
    return "Last seen " + time.strftime("%d %b %Y", time.gmtime(seen.seen))


def friend_lines(uid: str) -> tuple[list[Line], list[str], list[str]]:
    """My friends with their presence (online first), and the requests to me and from me."""
    listed = store().friends.listed(uid)
    now = time.time()
    friends = [friend for friend in listed if friend.standing is Standing.FRIENDS]
    seen = store().friends.presence([friend.id for friend in friends], now - FRESH_FOR)
    lines = []
    for friend in friends:
        found = seen.get(friend.id)
        table = table_seen(found.code) if found and found.online else None
        words = f"At a table: {table.title}" if table else presence_words(found, now)
        lines.append(Line(friend.username, words, bool(found and found.online), table))
    lines.sort(key=lambda line: (not line.online, line.username.lower()))
    asked_me = [friend.username for friend in listed if friend.standing is Standing.ASKED_ME]
    asked = [friend.username for friend in listed if friend.standing is Standing.ASKED]
    return lines, asked_me, asked


def waiting_invites(uid: str) -> list[tuple[Invite, TableSeen]]:
    """The invitations a player may still take up: to a room in its lobby with a seat free."""
    found = []
    for invite in store().friends.invites(uid, time.time() - INVITE_FOR):
        table = table_seen(invite.code)
        if table is not None and table.joinable:
            found.append((invite, table))
    return found


def site_news(uid: str) -> dict[str, Any]:
    requests = sum(friend.standing is Standing.ASKED_ME for friend in store().friends.listed(uid))
    return {"invites": waiting_invites(uid), "requests": requests}


def list_context(uid: str, said: str | None = None, refused: bool = False) -> dict[str, Any]:
    lines, asked_me, asked = friend_lines(uid)
    return {
        "friends": lines,
        "asked_me": asked_me,
        "asked": asked,
        "blocked": [friend.username for friend in store().friends.blocked(uid)],
        "said": said,
        "refused": refused,
    }


def invite_context(uid: str, code: str, said: str | None = None, refused: bool = False) -> dict[str, Any]:
    """A table's friends to invite, and the signed-up players seated there who are not friends yet (to
    add): shown to a seated, signed-up player while the room is in its lobby."""
    room = web_registry().get(code)
    if room is None or room.seat_of(uid) is None or room.published.status != "lobby":
        return {"code": code, "shown": False, "said": said, "refused": refused}
    lines, _, _ = friend_lines(uid)
    seated = {seat.uid for seat in room.published.seats if seat.uid not in (None, uid)}
    listed = {friend.id: friend.username for friend in store().friends.listed(uid)}
    online = [line for line in lines if line.online and line.username not in map(listed.get, seated)]
    hidden = set(listed) | {friend.id for friend in store().friends.blocked(uid)}  # a block hides them
    accounts = [store().players.player(player) for player in sorted(seated - hidden)]
    strangers = sorted(account.username for account in accounts if account and account.username)
    return {
        "code": room.code,
        "shown": True,
        "online": online,
        "strangers": strangers,
        "said": said,
        "refused": refused,
    }


def news_fragments(uid: str, code: str | None, page: str | None) -> str:
    """A player's open page's notices, each swapped in by id: their invitations and requests; on the
    friends page its list; on a table's lobby, the friends to invite."""
    drawn = [render_template("friends/_news.html", news=site_news(uid), oob=True)]
    if page == "friends":
        drawn.append(render_template("friends/_list.html", oob=True, **list_context(uid)))
    if code is not None:
        drawn.append(render_template("friends/_invite.html", oob=True, invite=invite_context(uid, code)))
    return "".join(drawn)


def news_context() -> dict[str, Any]:
    """base.html's notices and live channel, for a signed-up player (a guest's page has neither)."""
    account = identity.signed_in_account()
    if account is None:
        return {"site_news": None}
    live = guard.external_url("presence.site_live", **identity.tab_args())
    return {"site_news": site_news(account.id), "site_live": live}


# The friends page and its forms


def me() -> PlayerRow:
    account = identity.signed_in_account()
    if account is None:
        abort(403, description="Sign up (or sign in) to add friends.")
    return account


@bp.get("/friends")
def page():
    account = identity.signed_in_account()
    if account is None:
        return render_template("friends/page.html", guest=True)
    return render_template(
        "friends/page.html",
        guest=False,
        live_page=guard.external_url("presence.site_live", page="friends"),
        **list_context(account.id),
    )


def changed(other_name: str, rule: Callable[[Relation], Outcome], done: str) -> Any:
    """Apply `rule` to me and the player named `other_name`, and answer (the list, or back to it)."""
    account = me()
    said, refused = settled(account, other_name, rule, done)
    return answered(account.id, said, refused)


def settled(
    account: PlayerRow, other_name: str, rule: Callable[[Relation], Outcome], done: str
) -> tuple[str, bool]:
    """Apply `rule` to the account and the player named `other_name`: what to say, and whether refused."""
    name = other_name.strip()
    other = store().players.account(name) if name else None
    try:
        if other is None or other.username is None:
            raise FriendRefused(f"No player has the username {name!r}." if name else "Type a username.")
        relation = store().friends.relation(account.id, other.id, other.username)
        outcome = rule(relation)
    except FriendRefused as refusal:
        return refusal.reason, True
    store().friends.settle(account.id, other.id, outcome)
    hub().wake([account.id, other.id])
    if relation.standing is Standing.ASKED_ME and outcome.standing is Standing.FRIENDS:
        done = "{name} is your friend now."  # asked by the one who had asked: accepted
    return done.format(name=other.username), False


def answered(uid: str, said: str, refused: bool = False) -> Any:
    if request.headers.get("HX-Request"):
        return render_template("friends/_list.html", **list_context(uid, said, refused))
    flash(said, "error" if refused else "info")
    return redirect(url_for("friends.page"))


@bp.post("/friends/add")
def add():
    return changed(request.form.get("username", ""), rules.ask, ASKED_SAID)


@bp.post("/friends/<username>/accept")
def accept(username: str):
    return changed(username, lambda relation: rules.answer(relation, True), "{name} is your friend now.")


@bp.post("/friends/<username>/decline")
def decline(username: str):
    return changed(username, lambda relation: rules.answer(relation, False), "Declined {name}'s request.")


@bp.post("/friends/<username>/remove")
def remove(username: str):
    return changed(username, rules.remove, "{name} is off your list.")


@bp.post("/friends/<username>/block")
def block(username: str):
    return changed(username, rules.block, "Blocked {name}: they cannot ask, invite or see you.")


@bp.post("/friends/<username>/unblock")
def unblock(username: str):
    return changed(username, rules.unblock, "Unblocked {name}.")


@bp.post("/r/<code>/befriend")
def befriend(code: str):
    """A friend request to a player seated at the same table, from its lobby."""
    account = me()
    said, refused = settled(account, request.form.get("username", ""), rules.ask, ASKED_SAID)
    return invite_answer(account.id, code, said, refused)


@bp.post("/r/<code>/invite")
def invite(code: str):
    """A seated player invites a friend to the room's lobby."""
    account = me()
    username = request.form.get("username", "")
    context = invite_context(account.id, code.upper())
    other = store().players.account(username)
    try:
        if not context["shown"]:
            raise FriendRefused("Only a player seated at a table in its lobby invites friends to it.")
        if other is None:
            raise FriendRefused(f"No player has the username {username!r}.")
        rules.invite(store().friends.relation(account.id, other.id, other.username or username))
    except FriendRefused as refusal:
        return invite_answer(account.id, code, refusal.reason, refused=True)
    store().friends.invite(account.id, other.id, context["code"])
    hub().wake([other.id])
    return invite_answer(account.id, code, f"Invited {other.username}.")


def invite_answer(uid: str, code: str, said: str, refused: bool = False) -> Any:
    if request.headers.get("HX-Request"):
        invite = invite_context(uid, code.upper(), said, refused)
        return render_template("friends/_invite.html", invite=invite)
    flash(said, "error" if refused else "info")
    return redirect(url_for("table.room", code=code.upper()))


@bp.post("/invites/<code>/dismiss")
def dismiss(code: str):
    account = me()
    store().friends.dismiss(account.id, code.upper())
    hub().wake([account.id])
    if request.headers.get("HX-Request"):
        return render_template("friends/_news.html", news=site_news(account.id))
    return redirect(url_for("lobby.home"))


def lobby_invite(code: str) -> dict[str, Any]:
    account = identity.signed_in_account()
    return invite_context(account.id, code) if account else {"code": code, "shown": False}


@lru_cache(maxsize=256)
def qr_code(link: str) -> str:
    """The link as a QR code, an inline SVG (dark on light whatever the page's colours, as a camera
    reads it best), named for screen readers."""
    svg = segno.make(link, error="m").svg_inline(scale=4, border=2, light="#fff", omitsize=False)
    return svg.replace("<svg ", '<svg role="img" aria-label="QR code of the link to this table" ', 1)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.register_blueprint(site_channel.bp)
    app.extensions["zerogames.presence"] = presence.Hub(app.extensions["zerogames"].store, news_fragments)
    app.context_processor(news_context)
    app.jinja_env.globals.update(qr_code=qr_code, lobby_invite=lobby_invite)
