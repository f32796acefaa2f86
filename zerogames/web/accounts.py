"""Signing up, in and out. A guest who signs up keeps their player id (and so every game they played);
signing in on another browser makes that browser the account, and its own guest games join it."""

from __future__ import annotations

import time

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from zerogames.accounts import (
    SIGN_UP_EVERY,
    SIGN_UPS_AT_ONCE,
    WRONG_ANSWER_DELAY,
    WRONG_AT_ONCE,
    WRONG_EVERY,
    Hasher,
    Refusal,
    check_new_password,
    check_username,
)
from zerogames.store import UsernameTaken

from . import identity
from .limits import Buckets, client_key
from .registry import web_registry

bp = Blueprint("accounts", __name__)


def hasher() -> Hasher:
    return current_app.extensions["zerogames.hasher"]


def wrong_passwords() -> Buckets:
    """Wrong passwords, per account and per address."""
    return current_app.extensions["zerogames.wrong-passwords"]


def sign_ups() -> Buckets:
    """Sign-ups per address: each costs a hash."""
    return current_app.extensions["zerogames.sign-ups"]


def address() -> str:
    return f"address {client_key(request.remote_addr)}"


def init_app(app) -> None:
    app.extensions["zerogames.hasher"] = Hasher(app.config["PASSWORD_METHOD"])
    app.extensions["zerogames.wrong-passwords"] = Buckets(WRONG_AT_ONCE, WRONG_EVERY)
    app.extensions["zerogames.sign-ups"] = Buckets(SIGN_UPS_AT_ONCE, SIGN_UP_EVERY)
    app.register_blueprint(bp)
    app.context_processor(lambda: {"account": identity.signed_in()})


def refused(template: str, refusal: Refusal, status: int = 400):
    """The form again, with the reason next to it and what was typed (but passwords) kept."""
    return render_template(template, error=refusal.reason, username=request.form.get("username", "")), status


def check_a_guest(then: str) -> None:
    """Accounts are made and entered from a guest's browser: one signed in signs out first (else one
    account's games would join another's)."""
    if identity.signed_in():
        raise Refusal(f"You are signed in as {identity.signed_in()}: sign out to {then}.")


def wait_message(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return f"Too many tries: wait {minutes} minute{'s' if minutes != 1 else ''} and try again."


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if request.method == "GET":
        return render_template("accounts/signup.html", error=None, username="")
    try:
        check_a_guest("make another account")
        username = check_username(request.form.get("username", ""))
        password = request.form.get("password", "")
        check_new_password(password, request.form.get("again", ""))
        if current_app.extensions["zerogames"].store.account(username) is not None:
            raise Refusal(f"The username {username} is taken: pick another.")
        wait = sign_ups().take(address())
        if wait:
            raise Refusal(wait_message(wait))
        hashed = hasher().hash(password)
        uid = identity.current_uid()
        name = identity.current_name() or username
        try:
            web_registry().store.sign_up(uid, name, username, hashed)
        except UsernameTaken:
            raise Refusal(f"The username {username} is taken: pick another.") from None
    except Refusal as refusal:
        return refused("accounts/signup.html", refusal)
    identity.become(uid, username, name)
    flash(f"Welcome, {username}: your games, past and future, are kept under this account.", "info")
    return redirect(url_for("players.me"))


@bp.route("/signin", methods=["GET", "POST"])
def signin():
    if request.method == "GET":
        return render_template("accounts/signin.html", error=None, username="")
    username = request.form.get("username", "").strip()
    password = request.form.get("password", "")
    keys = (f"account {username.lower()}", address())
    try:
        check_a_guest("sign in to another account")
        if not username or not password:
            raise Refusal("Type your username and your password.")
        wait = wrong_passwords().wait(*keys)
        if wait:
            raise Refusal(wait_message(wait))
        account = web_registry().store.account(username)
        if not hasher().check(account.password if account else None, password):
            wrong_passwords().take(*keys)
            # Answered slowly: guessing costs a guesser time, and nothing of the server's.
            time.sleep(WRONG_ANSWER_DELAY)
            raise Refusal("That username and password do not match an account.")
    except Refusal as refusal:
        return refused("accounts/signin.html", refusal, 401)
    guest = identity.current_uid()
    if guest != account.id:
        # This browser's seats first (rooms held in this process), then its history and the rest.
        web_registry().hand_over(guest, account.id)
        web_registry().store.join_guest(guest, account.id)
    identity.become(account.id, account.username, identity.current_name() or account.name)
    flash(f"Signed in as {account.username}.", "info")
    return redirect(url_for("players.me"))


@bp.post("/signout")
def signout():
    identity.sign_out()
    flash("Signed out: this browser is a new guest now.", "info")
    return redirect(url_for("lobby.home"))
