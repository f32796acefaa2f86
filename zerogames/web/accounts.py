"""Signing up, in and out, and changing a password. Signing up makes a new player, the account, and the
guest's games and seats join it, as signing in on another browser joins that browser's guest games to
the account: either way the browser holds a new sign-in session (web/identity.py), and the guest it
was holds nothing more."""

from __future__ import annotations

import math
import time

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from zerogames.accounts import (
    ADDRESS_GUESS_EVERY,
    ADDRESS_GUESSES_AT_ONCE,
    GUESS_EVERY,
    GUESSES_AT_ONCE,
    SIGN_UP_EVERY,
    SIGN_UPS_AT_ONCE,
    WRONG_ANSWER_DELAY,
    Busy,
    Hasher,
    Refusal,
    check_new_password,
    check_username,
)
from zerogames.store import PlayerRow, UsernameTaken

from . import identity
from .limits import Buckets, client_key
from .registry import web_registry

bp = Blueprint("accounts", __name__)


def hasher() -> Hasher:
    return current_app.extensions["zerogames.hasher"]


def guesses() -> tuple[Buckets, Buckets]:
    """Passwords tried, per account and address together, and per address."""
    return current_app.extensions["zerogames.guesses"]


def sign_ups() -> Buckets:
    """Sign-ups per address: each costs a hash."""
    return current_app.extensions["zerogames.sign-ups"]


def address() -> str:
    return f"address {client_key(request.remote_addr)}"


def init_app(app) -> None:
    app.extensions["zerogames.hasher"] = Hasher(app.config["PASSWORD_METHOD"])
    app.extensions["zerogames.guesses"] = (
        Buckets(GUESSES_AT_ONCE, GUESS_EVERY),
        Buckets(ADDRESS_GUESSES_AT_ONCE, ADDRESS_GUESS_EVERY),
    )
    app.extensions["zerogames.sign-ups"] = Buckets(SIGN_UPS_AT_ONCE, SIGN_UP_EVERY)
    app.register_blueprint(bp)
    app.context_processor(lambda: {"account": identity.signed_in()})


def refused(template: str, refusal: Refusal, status: int = 400):
    """The form again, with the reason next to it and what was typed (but passwords) kept."""
    page = render_template(template, error=refusal.reason, username=request.form.get("username", ""))
    if isinstance(refusal, Busy):
        return page, 503, {"Retry-After": "5"}
    return page, status


def check_a_guest(then: str) -> None:
    """Accounts are made and entered from a guest's browser: one signed in signs out first (else one
    account's games would join another's)."""
    if identity.signed_in():
        raise Refusal(f"You are signed in as {identity.signed_in()}: sign out to {then}.")


def wait_message(seconds: float) -> str:
    if seconds < 90:
        return f"Too many tries: wait {max(1, math.ceil(seconds))} seconds and try again."
    minutes = round(seconds / 60)
    return f"Too many tries: wait {minutes} minutes and try again."


def check_password(account: PlayerRow | None, username: str, password: str) -> None:
    """Refused unless `password` is the account's. Each try is counted before its hash, and at once
    (no burst gets past its allowance); a right one is given back, so that the owner's own sign-ins
    never use up theirs."""
    pair, from_address = guesses()
    mine, here = f"account {username.lower()} from {address()}", address()
    wait = pair.take(mine)
    if not wait and (wait := from_address.take(here)):
        pair.give_back(mine)
    if wait:
        raise Refusal(wait_message(wait))

    def not_counted() -> None:
        pair.give_back(mine)
        from_address.give_back(here)

    try:
        right = hasher().check(account.password if account else None, password)
    except Busy:
        not_counted()  # nothing was checked
        raise
    if right:
        not_counted()
        return
    # Answered slowly: guessing costs a guesser time, and nothing of the server's.
    time.sleep(WRONG_ANSWER_DELAY)
    raise Refusal("That username and password do not match an account.")


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if request.method == "GET":
        return render_template("accounts/signup.html", error=None, username="")
    try:
        check_a_guest("make another account")
        username = check_username(request.form.get("username", ""))
        password = request.form.get("password", "")
        check_new_password(password, request.form.get("again", ""))
        if current_app.extensions["zerogames"].store.players.account(username) is not None:
            raise Refusal(f"The username {username} is taken: pick another.")
        wait = sign_ups().take(address())
        if wait:
            raise Refusal(wait_message(wait))
        hashed = hasher().hash(password)
        name = identity.current_name() or username
        account = PlayerRow(identity.new_player_id(), name, username, hashed)
        try:
            web_registry().store.players.sign_up(account.id, name, username, hashed)
        except UsernameTaken:
            raise Refusal(f"The username {username} is taken: pick another.") from None
    except Refusal as refusal:
        return refused("accounts/signup.html", refusal)
    enter(account, name)
    flash(f"Welcome, {username}: your games, past and future, are kept under this account.", "info")
    return redirect(url_for("players.me"))


@bp.route("/signin", methods=["GET", "POST"])
def signin():
    if request.method == "GET":
        return render_template("accounts/signin.html", error=None, username="")
    username = request.form.get("username", "").strip()
    password = request.form.get("password", "")
    try:
        check_a_guest("sign in to another account")
        if not username or not password:
            raise Refusal("Type your username and your password.")
        account = web_registry().store.players.account(username)
        check_password(account, username, password)
    except Refusal as refusal:
        return refused("accounts/signin.html", refusal, 401)
    enter(account, identity.current_name() or account.name)
    flash(f"Signed in as {account.username}.", "info")
    return redirect(url_for("players.me"))


def enter(account: PlayerRow, name: str) -> None:
    """This browser's guest joins the account, and the browser is signed in to it by a new session."""
    guest = identity.current_uid()
    # This browser's seats first (rooms held in this process), then its history and the rest.
    web_registry().hand_over(guest, account.id)
    web_registry().store.players.join_guest(guest, account.id)
    identity.become(account, name)


@bp.post("/signout")
def signout():
    identity.sign_out()
    flash("Signed out: this browser is a new guest now.", "info")
    return redirect(url_for("lobby.home"))


@bp.post("/signout/elsewhere")
def signout_elsewhere():
    if identity.signed_in() is None:
        return redirect(url_for("accounts.signin"))
    ended = identity.sign_out_elsewhere()
    flash(f"Signed out everywhere else ({ended} other session{'s' if ended != 1 else ''} ended).", "info")
    return redirect(url_for("players.me"))


@bp.route("/password", methods=["GET", "POST"])
def password():
    """A new password, given the one in use: every other session of the account ends with the old one."""
    account = identity.signed_in_account()
    if account is None:
        return redirect(url_for("accounts.signin"))
    if request.method == "GET":
        return render_template("accounts/password.html", error=None)
    new = request.form.get("new", "")
    try:
        check_new_password(new, request.form.get("again", ""))
        check_password(account, account.username, request.form.get("password", ""))
        web_registry().store.players.change_password(account.id, hasher().hash(new))
    except Refusal as refusal:
        return refused("accounts/password.html", refusal)
    identity.sign_out_elsewhere()
    flash("Password changed: every other browser signed in to this account is signed out.", "info")
    return redirect(url_for("players.me"))
