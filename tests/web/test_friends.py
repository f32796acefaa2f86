"""Friends, blocks and invitations, as players see them: each refusal in words that change nothing."""

from __future__ import annotations

import threading
import time
from html import unescape

import pytest

from tests.web.conftest import create_room, on_both_stores, uid_of, words
from tests.web.test_records import app, sign_up  # noqa: F401 (the app with a quick password hash)
from zerogames.web.presence import Hub

pytestmark = on_both_stores


@pytest.fixture
def ann(player):
    client = player("Ann")
    sign_up(client, "ann")
    return client


@pytest.fixture
def bob(player):
    client = player("Bob")
    sign_up(client, "bob")
    return client


def post(client, path: str, **form) -> str:
    """An htmx form's answer, in words."""
    return unescape(words(client.post(path, data=form, headers={"HX-Request": "true"}).text))


def friends_page(client) -> str:
    """The friends page's list, in words."""
    html = client.get("/friends").text
    return unescape(words(html[html.index('id="friends-list"') :]))


def befriend(ann, bob) -> None:
    post(ann, "/friends/add", username="bob")
    assert "ann is your friend now" in post(bob, "/friends/ann/accept")


def test_a_request_accepted_makes_friends_on_both_lists(ann, bob):
    assert "Asked bob to be your friend" in post(ann, "/friends/add", username="Bob")
    assert "Waiting for their answer bob" in friends_page(ann)
    assert "1 friend request waiting" in words(bob.get("/").text)
    assert "Asking to be your friend ann" in friends_page(bob)
    assert "ann is your friend now" in post(bob, "/friends/ann/accept")
    assert "Your friends" in friends_page(ann) and "Waiting for their answer" not in friends_page(ann)
    assert "bob" in friends_page(ann) and "ann" in friends_page(bob)


def test_refusals_say_why_and_change_nothing(ann, bob, player):
    assert "That is you" in post(ann, "/friends/add", username="ann")
    assert "No player has the username 'nobody'" in post(ann, "/friends/add", username="nobody")
    assert "Type a username" in post(ann, "/friends/add", username=" ")
    post(ann, "/friends/add", username="bob")
    assert "You asked bob already" in post(ann, "/friends/add", username="bob")
    # Only the one asked answers.
    assert "bob has no request waiting for your answer" in post(ann, "/friends/bob/accept")
    assert "Declined ann's request" in post(bob, "/friends/ann/decline")
    assert "ann has no request waiting for your answer" in post(bob, "/friends/ann/accept")
    assert "ann is not on your friends list" in post(bob, "/friends/ann/remove")
    assert "bob" not in friends_page(ann)


def test_asking_someone_who_asked_you_accepts_and_either_removes(ann, bob):
    post(ann, "/friends/add", username="bob")
    assert "ann is your friend now" in post(bob, "/friends/add", username="ann")
    assert "bob is your friend already" in post(ann, "/friends/add", username="bob")
    assert "ann is off your list" in post(bob, "/friends/ann/remove")
    assert "bob" not in friends_page(ann)


def test_a_block_ends_the_friendship_and_stops_requests_and_invitations(ann, bob):
    befriend(ann, bob)
    assert "Blocked bob" in post(ann, "/friends/bob/block")
    assert "Blocked bob" in friends_page(ann)
    assert "ann" not in friends_page(bob)
    # The blocked player is told only that no requests are taken; the blocker, to unblock first.
    assert "ann is not taking friend requests" in post(bob, "/friends/add", username="ann")
    assert "You have blocked bob: unblock them first" in post(ann, "/friends/add", username="bob")
    code = create_room(bob)
    assert "Only your friends can be invited" in post(bob, f"/r/{code}/invite", username="ann")
    assert "Unblocked bob" in post(ann, "/friends/bob/unblock")
    assert "Asked bob" in post(ann, "/friends/add", username="bob")


def test_an_invitation_waits_on_the_home_page_until_dismissed(ann, bob):
    befriend(ann, bob)
    code = create_room(ann)
    assert "Invited bob" in post(ann, f"/r/{code}/invite", username="bob")
    home = words(bob.get("/").text)
    assert "ann invites you to Zero Game" in home
    assert "ann invites you to Zero Game" in words(bob.get("/friends").text)
    post(bob, f"/invites/{code}/dismiss")
    assert "invites you" not in words(bob.get("/").text)


def test_an_invitation_taken_up_or_to_a_room_that_started_is_gone(ann, bob, player):
    befriend(ann, bob)
    code = create_room(ann)
    post(ann, f"/r/{code}/invite", username="bob")
    bob.post(f"/r/{code}/join", data={"name": "Bob"}, headers={"HX-Request": "true"})
    assert "invites you" not in words(bob.get("/").text)
    other = create_room(ann, "cabo")
    post(ann, f"/r/{other}/invite", username="bob")
    assert "ann invites you to Cabo" in words(bob.get("/").text)
    ann.post(f"/r/{other}/bots", data={"level": "easy"}, headers={"HX-Request": "true"})
    ann.post(f"/r/{other}/start", headers={"HX-Request": "true"})
    assert "invites you" not in words(bob.get("/").text)


def test_only_a_seated_player_invites_and_only_friends(ann, bob, player):
    code = create_room(ann)
    assert "Only your friends can be invited" in post(ann, f"/r/{code}/invite", username="bob")
    befriend(ann, bob)
    assert "Only a player seated at a table" in post(bob, f"/r/{code}/invite", username="ann")


def test_a_guest_is_asked_to_sign_up(player):
    guest = player("Gus")
    assert "sign up to add friends" in words(guest.get("/friends").text)
    assert guest.post("/friends/add", data={"username": "ann"}).status_code == 403


def a_process(store) -> Hub:
    """Another process's hub on the same database, its loop's steps run by hand (no loop started)."""
    return Hub(store, lambda *_: "", running=True)


def test_presence_and_news_go_from_process_to_process_through_the_store(registry, ann, bob):
    befriend(ann, bob)
    code = create_room(bob)
    store, ann_id, bob_id = registry.store, uid_of(ann), uid_of(bob)
    here, there = a_process(store), a_process(store)
    ann_page = there.tune_in(ann_id, None, "friends", threading.Event())
    bob_table = here.tune_in(bob_id, code, None, threading.Event())
    heard = time.time()

    here.write_presence()  # Bob's table page, written by his process; his friends told
    there.hear_news(heard)
    assert ann_page.due and ann_page.event.is_set()
    assert "bob At a table: Zero Game Join bob's table" in friends_page(ann)

    ann_page.due = False
    here.leave(bob_table)
    here.write_presence()
    there.hear_news(heard)
    assert ann_page.due
    assert "bob Away" in friends_page(ann)


def test_a_process_gone_leaves_its_players_offline(registry, ann, bob):
    befriend(ann, bob)
    bob_id = uid_of(bob)
    gone = a_process(registry.store)
    gone.tune_in(bob_id, None, None, threading.Event())
    gone.write_presence()
    assert "bob Online" in friends_page(ann)
    # Its lines are never rewritten again: once older than FRESH_FOR, Bob reads as away.
    assert not registry.store.friends.presence([bob_id], time.time() + 1)[bob_id].online


def test_a_player_at_the_same_table_is_added_from_its_lobby(ann, bob, player):
    code = create_room(ann)
    bob.post(f"/r/{code}/join", data={"name": "Bob"}, headers={"HX-Request": "true"})
    guest = player("Gus")
    guest.post(f"/r/{code}/join", data={"name": "Gus"}, headers={"HX-Request": "true"})
    lobby = words(ann.get(f"/r/{code}").text)
    assert "At this table bob Add friend" in lobby and "Gus Add friend" not in lobby  # a guest has none
    assert "Asked bob to be your friend" in post(ann, f"/r/{code}/befriend", username="bob")
    assert "At this table" not in words(ann.get(f"/r/{code}").text)
    assert "Asking to be your friend ann" in friends_page(bob)
    post(bob, "/friends/ann/block")
    assert "At this table" not in words(bob.get(f"/r/{code}").text)  # the blocked are hidden from him


def test_a_page_open_only_between_two_writes_is_still_seen(registry, ann, bob):
    befriend(ann, bob)
    here = a_process(registry.store)
    here.leave(here.tune_in(uid_of(bob), None, None, threading.Event()))
    here.write_presence()
    assert "bob Away" in friends_page(ann)
