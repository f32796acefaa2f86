"""Accounts no one can take over: sessions that belong to a sign-in, and guessing that slows attackers
but lets the owner in."""

from __future__ import annotations

import threading
from html import unescape

import pytest
from werkzeug.security import generate_password_hash

from tests.web.conftest import create_room, on_both_stores, uid_of
from tests.web.test_records import PASSWORD, sign_in, sign_up
from zerogames import accounts

pytestmark = on_both_stores


@pytest.fixture
def app(settings, serve):
    """The test app, with a quick password hash."""
    return serve({**settings, "PASSWORD_METHOD": "pbkdf2:sha256:1000"})


@pytest.fixture(autouse=True)
def quick_wrong_answers(monkeypatch):
    monkeypatch.setattr("zerogames.web.accounts.WRONG_ANSWER_DELAY", 0)


def copy_of(browser, player):
    """Another browser holding a copy of `browser`'s cookie as it is now."""
    copy = player("Copy")
    copy.set_cookie("session", browser.get_cookie("session").value)
    return copy


def heading(client) -> str:
    html = client.get("/me").text
    return html[html.index('id="player-heading">') + 20 : html.index("</h1>")]


# Sessions


def test_a_guest_cookie_copied_before_sign_up_holds_nothing_of_the_account(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    copy = copy_of(ann, player)
    sign_up(ann)
    account = uid_of(ann)
    assert registry.get(code).seats[0].uid == account  # the seat followed the account
    assert heading(copy) == "Your games" and uid_of(copy) != account
    # Signing up with the old cookie makes a new account, and renames no one.
    assert sign_up(copy, "mallory").status_code == 302
    accounts = registry.store.players
    assert accounts.account("ann").id == account and accounts.account("mallory").id != account
    phone = player("Ann's phone")
    assert sign_in(phone, "ann").status_code == 302
    assert heading(phone) == "ann" and uid_of(phone) == account


def test_a_cookie_of_the_old_kind_no_longer_speaks_for_its_account(player, registry):
    ann = player("Ann")
    sign_up(ann)
    account = uid_of(ann)
    old = player("Old cookie")
    with old.session_transaction() as session:
        session["uid"], session["username"] = account, "ann"
    assert heading(old) == "Your games" and uid_of(old) != account
    older = player("Older cookie")
    with older.session_transaction() as session:
        session["uid"] = account
    assert uid_of(older) != account
    # A guest's cookie of the old kind goes on being that guest.
    guest = player("Old guest")
    with guest.session_transaction() as session:
        session["uid"] = "an-old-guest"
    assert uid_of(guest) == "an-old-guest"


def test_signing_out_ends_the_session_for_every_copy_of_the_cookie(player, registry):
    ann = player("Ann")
    sign_up(ann)
    code = create_room(ann)
    copy = copy_of(ann, player)
    assert heading(copy) == "ann"
    ann.post("/signout")
    assert heading(copy) == "Your games" and uid_of(copy) != registry.get(code).seats[0].uid


def test_sign_out_everywhere_else_and_a_new_password_end_the_other_sessions(player, registry):
    ann = player("Ann")
    sign_up(ann)
    phone, laptop = player("Phone"), player("Laptop")
    sign_in(phone, "ann")
    sign_in(laptop, "ann")
    ended = ann.post("/signout/elsewhere", follow_redirects=True).text
    assert "2 other sessions ended" in ended
    assert heading(ann) == "ann" and heading(phone) == heading(laptop) == "Your games"

    sign_in(phone, "ann")
    new = {"new": "a new one!", "again": "a new one!"}
    wrong = ann.post("/password", data={"password": "not it at all", **new})
    assert wrong.status_code == 400 and "do not match" in unescape(wrong.text)
    changed = ann.post("/password", data={"password": PASSWORD, **new})
    assert changed.status_code == 302 and heading(ann) == "ann" and heading(phone) == "Your games"
    assert sign_in(player("Tablet"), "ann").status_code == 401
    assert sign_in(player("Tablet"), "ann", "a new one!").status_code == 302


def test_a_password_change_while_hashes_are_busy_is_told_to_wait_like_a_sign_in(player, monkeypatch):
    ann = player("Ann")
    sign_up(ann)

    def busy(*_):
        raise accounts.Busy

    monkeypatch.setattr(accounts.Hasher, "in_turn", busy)
    new = {"new": "a new one!", "again": "a new one!"}
    answer = ann.post("/password", data={"password": PASSWORD, **new})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert "busy checking passwords" in answer.text


# Guessing


def guess_limits(app):
    return app.extensions["zerogames.guesses"]


def test_an_attackers_guesses_never_lock_the_owner_out(app, player):
    sign_up(player("Bob"), "bob")
    attacker = player("Mallory")
    for n in range(accounts.GUESSES_AT_ONCE):
        assert sign_in(attacker, "bob", f"guess {n}", address="10.9.9.9").status_code == 401
    # Bob from his own address is in at once; from the attacker's, after a minute at most.
    assert sign_in(player("Bob at home"), "bob", address="10.1.1.1").status_code == 302
    refused = sign_in(attacker, "bob", PASSWORD, address="10.9.9.9")
    assert "Too many tries: wait 60 seconds" in unescape(refused.text)
    pair, _ = guess_limits(app)
    later = pair.clock() + accounts.GUESS_EVERY
    pair.clock = lambda: later
    assert sign_in(player("Bob at the cafe"), "bob", address="10.9.9.9").status_code == 302


def test_a_burst_of_guesses_gets_no_more_than_its_allowance(app, player, monkeypatch):
    sign_up(player("Bob"), "bob")
    checked = []

    def slow_wrong_check(stored, password):
        checked.append(password)
        threading.Event().wait(0.05)  # the guesses overlap, as a real burst's hashes do
        return False

    monkeypatch.setattr(app.extensions["zerogames.hasher"], "check", slow_wrong_check)
    burst = [player(f"Guess {n}") for n in range(30)]
    threads = [
        threading.Thread(target=sign_in, args=(client, "bob", f"guess {n}", "10.8.8.8"))
        for n, client in enumerate(burst)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(checked) == accounts.GUESSES_AT_ONCE


def test_hashes_run_a_few_at_a_time_and_the_rest_are_told_to_wait(app, registry, player, monkeypatch):
    for n in range(30):
        hashed = generate_password_hash(PASSWORD, "pbkdf2:sha256:1")
        registry.store.players.sign_up(f"player-{n}", f"P{n}", f"user{n}", hashed)
    running, most, lock = [0], [0], threading.Lock()

    def slow_check(stored, password):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        threading.Event().wait(0.1)
        with lock:
            running[0] -= 1
        return True

    monkeypatch.setattr(accounts, "check_password_hash", slow_check)
    answers: list[tuple[int, str]] = []

    def try_one(n: int) -> None:
        answer = sign_in(player(f"P{n}"), f"user{n}", PASSWORD, f"10.7.0.{n + 1}")
        answers.append((answer.status_code, unescape(answer.text)))

    threads = [threading.Thread(target=try_one, args=(n,)) for n in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] <= accounts.HASHES_AT_ONCE
    busy = [text for status, text in answers if status == 503]
    assert busy and all("busy checking passwords: try again in a few seconds" in text for text in busy)
    assert len(busy) + sum(status == 302 for status, _ in answers) == 30
