"""Who is asking: a guest identity in a signed cookie (a random id and a display name).

In development mode `?seat=N` on any room URL gives that tab the identity N, so one browser can hold
several seats; every link and form of such a page carries the parameter on.
"""

from __future__ import annotations

import secrets

from flask import Flask, current_app, request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer

from zerogames.numbers import whole_number


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
    if "uid" not in session:
        session["uid"] = secrets.token_urlsafe(12)
        session.permanent = True
    return session["uid"]


def current_name() -> str | None:
    return session.get("names", {}).get(current_uid())


def remember_name(name: str) -> None:
    names = dict(session.get("names", {}))
    names[current_uid()] = name
    session["names"] = names
    session.permanent = True


def signed_in() -> str | None:
    """The username of the account this browser is signed in to, or None for a guest."""
    return session.get("username")


def become(uid: str, username: str, name: str) -> None:
    """This browser is the account `username` (player `uid`) from now on, known by `name`."""
    session["uid"], session["username"] = uid, username
    session["names"] = {**session.get("names", {}), uid: name}
    session.permanent = True


def sign_out() -> None:
    """This browser becomes a new guest: nothing of the account stays with it."""
    session.clear()
    current_uid()


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
