"""Who is asking: a guest identity in a signed cookie (a random id and a display name), or an account
by a sign-in session.

A signed-in browser's cookie holds a session's token and nothing of a guest: the store keeps the
session (by the token's digest) and says which account it is, so that signing out (here, everywhere,
or by a password change) ends it for every copy of the cookie. Every sign-up and sign-in starts a new
session, and an account is a player of its own, never the guest who made it: a copy of the cookie the
browser held as a guest speaks for that guest only, who holds nothing of the account's.

In development mode `?seat=N` on any room URL gives that tab the identity N, so one browser can hold
several seats; every link and form of such a page carries the parameter on.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from flask import Flask, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer

from zerogames.numbers import whole_number
from zerogames.store import PlayerRow

from .registry import web_registry

GUEST, SIGNED_IN = "guest", "session"


def tab_identity() -> str | None:
    """The `?seat=N` of a development tab, or None."""
    if not current_app.config["DEV"]:
        return None
    tab = request.args.get("seat", "")
    return tab if whole_number(tab, 0, 999) is not None else None


def current_uid() -> str:
    tab = tab_identity()
    if tab is not None:
        return f"tab-{tab}"
    account = signed_in_account()
    return account.id if account else guest_uid()


def guest_uid() -> str:
    if GUEST not in session:
        adopt_older_cookie()
    if GUEST not in session:
        session[GUEST] = new_player_id()
        session.permanent = True
    return session[GUEST]


def new_player_id() -> str:
    return secrets.token_urlsafe(12)


def adopt_older_cookie() -> None:
    """A cookie made before sign-ins had sessions named its player `uid`, a signed-in one with its
    username beside it: such a cookie no longer speaks for an account (its browser signs in again), but
    a guest's goes on being that guest."""
    uid, username = session.pop("uid", None), session.pop("username", None)
    if uid is not None and username is None and not web_registry().store.players.signed_up(uid):
        session[GUEST] = uid


def session_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def signed_in_account() -> PlayerRow | None:
    """The account this browser's session is signed in to (read once a request), or None for a guest.
    A session that has ended leaves its browser a new guest."""
    if "zerogames_account" not in g:
        token = session.get(SIGNED_IN)
        account = web_registry().store.players.session_account(session_digest(token)) if token else None
        if token and account is None:
            session.clear()
        g.zerogames_account = account
    return g.zerogames_account


def session_still_open() -> Callable[[], bool]:
    """For a live channel, which outlives the request that opened it: whether the session its browser
    was signed in by then is open still (a signed-out copy of the cookie speaks for no one). A guest's
    channel is always its guest's."""
    token = session.get(SIGNED_IN)
    if not token:
        return lambda: True
    digest, players = session_digest(token), web_registry().store.players
    return lambda: players.session_account(digest) is not None


def drawn_as_a_guest() -> None:
    """The rest of this request takes its browser for a guest's, without asking the store (which
    cannot be reached: zerogames.web's page that says so)."""
    g.zerogames_account = None


def current_name() -> str | None:
    return session.get("names", {}).get(current_uid())


def remember_name(name: str) -> None:
    names = dict(session.get("names", {}))
    names[current_uid()] = name
    session["names"] = names
    session.permanent = True


def signed_in() -> str | None:
    """The username of the account this browser is signed in to, or None for a guest."""
    account = signed_in_account()
    return account.username if account else None


def become(account: PlayerRow, name: str) -> None:
    """This browser is signed in to `account` from now on, by a session of its own, known by `name`.
    Nothing of the guest it was stays in its cookie."""
    token = secrets.token_urlsafe(32)
    web_registry().store.players.start_session(session_digest(token), account.id)
    names = {account.id: name}
    session.clear()
    session[SIGNED_IN], session["names"] = token, names
    session.permanent = True
    g.zerogames_account = account


def sign_out() -> None:
    """This browser's session ends, for every copy of its cookie, and the browser becomes a new guest."""
    token = session.get(SIGNED_IN)
    if token:
        web_registry().store.players.end_session(session_digest(token))
    session.clear()
    g.pop("zerogames_account", None)
    guest_uid()


def sign_out_elsewhere() -> int:
    """Every other session of this browser's account ends: how many did."""
    account = signed_in_account()
    if account is None:
        return 0
    return web_registry().store.players.end_other_sessions(account.id, session_digest(session[SIGNED_IN]))


def tab_args() -> dict[str, str]:
    """What every URL of this page must carry to keep the tab's identity."""
    tab = tab_identity()
    return {"seat": tab} if tab is not None else {}


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the signer made once per app rather than on every request
    (every move is a request), and the cookie kept to HTTPS whenever the site is reached by it."""

    def get_cookie_secure(self, app: Flask) -> bool:
        site = app.config.get("SITE_URL") or ""
        return super().get_cookie_secure(app) or request.is_secure or site.startswith("https:")

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if "zerogames.signer" not in app.extensions:
            app.extensions["zerogames.signer"] = super().get_signing_serializer(app)
        return app.extensions["zerogames.signer"]
