"""Table talk, host powers and the series, as the players see them: what reaches every page, what is
refused and why, and the seams with the game (a message never makes a move stale)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import session

from tests.web.conftest import (
    act,
    create_room,
    join,
    on_both_stores,
    page,
    started_with_bots,
    to_the_end,
    uid_of,
    version_of,
    words,
)
from zerogames import talk
from zerogames.games import GAMES
from zerogames.rooms import Subscriber
from zerogames.rooms.lobby import SENT_AWAY
from zerogames.web import identity, live, viewmodel
from zerogames.web.tables import TABLES
from zerogames.web.talk import watcher_tag

HX = {"HX-Request": "true"}


class Clock:
    """The registry's clock, moved by the test: talk's half-second limit is read from it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def moment(registry):
    now = Clock()
    registry.clock = now
    return now


def say(client, code: str, kind: str, text: str, moment: Clock | None = None):
    if moment is not None:
        moment.now += talk.EVERY
    return client.post(f"/r/{code}/say", data={"kind": kind, "text": text}, headers=HX)


def notice(response) -> str:
    html = response.text
    return words(html[: html.index("</div>")]) if html.startswith('<div id="notice"') else ""


def friends(player, game="zero_game"):
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann, game)
    join(bea, code)
    join(cal, code)
    return code, ann, bea, cal


def test_a_reaction_and_a_phrase_reach_every_seat_and_a_watcher(player, moment):
    code, ann, bea, cal = friends(player)
    watcher = player("Wes")
    assert notice(say(ann, code, "reaction", "👏", moment)) == ""
    assert notice(say(bea, code, "phrase", "Good luck", moment)) == ""
    for client in (ann, bea, cal, watcher):
        shown = words(page(client, code))
        assert "Ann 👏" in shown and "Bea Good luck" in shown  # beside their names, for a few seconds
        assert "Ann : 👏" in shown and "Bea : Good luck" in shown  # and in the log


def test_a_message_never_makes_a_move_chosen_before_it_stale(player, registry, moment):
    code, ann, bea, cal = friends(player)
    ann.post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    clients = {seat.name: client for seat, client in zip(room.seats, (ann, bea, cal), strict=True)}
    mover = room.seats[room.state["turn"]].name
    version = version_of(clients[mover].get(f"/r/{code}").text)
    for client in (ann, bea, cal):
        say(client, code, "reaction", "😮", moment)
    ann.post(f"/r/{code}/chat", data={"on": "no"}, headers=HX)  # the host's switch is talk too
    assert room.version == version
    bid = json.dumps(room.rules.legal_actions(room.state, room.state["turn"])[0])
    response = act(clients[mover], code, bid, version)
    assert "The table changed" not in response.text and notice(response) == ""
    assert room.version == version + 1


def test_watchers_read_along_but_cannot_talk(player, moment):
    code, *_ = friends(player)
    watcher = player("Wes")
    response = say(watcher, code, "phrase", "Good game", moment)
    assert "You are watching this table" in notice(response)
    assert "You are watching: the players talk" in words(page(watcher, code))


def test_one_message_per_half_second_a_sender(player, moment):
    code, ann, bea, _ = friends(player)
    assert notice(say(ann, code, "reaction", "👍", moment)) == ""
    assert "One message every half second" in notice(say(ann, code, "reaction", "🎉"))
    assert notice(say(bea, code, "reaction", "🎉")) == ""  # each sender has their own
    assert notice(say(ann, code, "reaction", "🎉", moment)) == ""


def test_bad_talk_is_refused_with_a_message_and_changes_nothing(player, registry, moment):
    code, ann, *_ = friends(player)
    room = registry.get(code)
    for kind, text, reason in [
        ("chat", "x" * (talk.LENGTH + 1), f"at most {talk.LENGTH} characters"),
        ("reaction", "💩", "Pick one of the reactions"),
        ("phrase", "You cheat", "Pick one of the phrases"),
        ("shout", "hi", "not something a table can say"),
    ]:
        published = room.published
        assert reason in notice(say(ann, code, kind, text, moment))
        assert room.published is published


def test_html_and_scripts_in_messages_are_shown_as_text(player, moment):
    code, ann, bea, _ = friends(player)
    say(ann, code, "chat", '<script>alert("hi")</script><b onclick=x>bold</b>', moment)
    html = bea.get(f"/r/{code}").text
    assert "<script>alert" not in html and "<b onclick" not in html
    assert "&lt;script&gt;alert(&#34;hi&#34;)&lt;/script&gt;&lt;b onclick=x&gt;bold&lt;/b&gt;" in html


def test_the_host_switches_chat_off_and_a_chat_line_is_refused_with_a_message(player, moment):
    code, ann, bea, _ = friends(player)
    assert "Only the host" in notice(bea.post(f"/r/{code}/chat", data={"on": "no"}, headers=HX))
    ann.post(f"/r/{code}/chat", data={"on": "no"}, headers=HX)
    assert "The host has switched chat off" in notice(say(bea, code, "chat", "hello", moment))
    assert "Chat is off at this table" in words(page(bea, code))
    assert notice(say(bea, code, "phrase", "Nice bid", moment)) == ""  # phrases still work


@on_both_stores
def test_a_muted_player_is_never_heard_by_the_muter_in_this_room_or_the_next(player, registry, moment):
    code, ann, bea, cal = friends(player)
    room = registry.get(code)
    ann_seat = next(seat for seat, who in enumerate(room.seats) if who.name == "Ann")
    bea.post(f"/r/{code}/mute/{ann_seat}", data={"on": "yes"}, headers=HX)
    say(ann, code, "chat", "secret words", moment)
    say(ann, code, "reaction", "🎉", moment)
    assert "secret words" not in page(bea, code) and "🎉" not in region_of(page(bea, code), "talk")
    assert "secret words" in page(cal, code)
    # A live channel of the muter's draws the same (its pushes read the mutes kept in the process).
    with bea.application.test_request_context(f"/r/{code}"):
        session[identity.GUEST] = uid_of(bea)
        pusher = live.Pusher(code, room.game_id, viewmodel.viewer(code))
        assert "secret words" not in pusher.message(room.published)
    # Kept across games: another room, and the muter still hears nothing of Ann.
    other = create_room(ann)
    join(bea, other)
    say(ann, other, "chat", "more words", moment)
    assert "more words" not in page(bea, other) and "more words" in page(ann, other)
    # Heard again once unmuted.
    bea.post(f"/r/{other}/mute/0", data={"on": "no"}, headers=HX)
    assert "more words" in page(bea, other)


def test_a_live_channel_pushes_what_is_said_and_who_was_muted_since_its_last_push(player, registry, moment):
    """One channel kept from push to push, as a page's is: each push's talk shows the words said since,
    and a mute or unmute made meanwhile, though the channel's last drawing of talk is kept."""
    code, ann, bea, _ = friends(player)
    room = registry.get(code)
    ann_seat = next(seat for seat, who in enumerate(room.seats) if who.name == "Ann")
    with bea.application.test_request_context(f"/r/{code}"):
        session[identity.GUEST] = uid_of(bea)
        pusher = live.Pusher(code, room.game_id, viewmodel.viewer(code))
        pusher.seed(room.published)

        shown = {"talk": ""}

        def pushed_talk() -> str:
            """The talk region the page shows once this push is swapped in."""
            pushed = pusher.message(room.published)
            if '<section id="talk"' in pushed:
                shown["talk"] = region_of(pushed, "talk")
            return shown["talk"]

        say(ann, code, "chat", "first words", moment)
        assert "first words" in pushed_talk()
        # A change that says nothing (the host sets the clock) after a mute: the words go.
        bea.post(f"/r/{code}/mute/{ann_seat}", data={"on": "yes"}, headers=HX)
        assert ann.post(f"/r/{code}/clock", data={"clock": "30"}, headers=HX).status_code == 200
        assert "first words" not in pushed_talk()
        bea.post(f"/r/{code}/mute/{ann_seat}", data={"on": "no"}, headers=HX)
        assert ann.post(f"/r/{code}/clock", data={"clock": "60"}, headers=HX).status_code == 200
        assert "first words" in pushed_talk()


def test_a_player_who_sits_down_can_be_muted_from_a_channel_opened_before(player, registry):
    """The talk controls a live channel keeps from push to push are drawn again when the seats change:
    a player who joins, or whose seat a bot takes, is there to mute under their name."""
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann, "zero_game")
    join(bea, code)
    room = registry.get(code)
    with ann.application.test_request_context(f"/r/{code}"):
        session[identity.GUEST] = uid_of(ann)
        pusher = live.Pusher(code, room.game_id, viewmodel.viewer(code))
        pusher.seed(room.published)
        join(cal, code)
        pushed = pusher.message(room.published)
    assert '<section id="talk-controls"' in pushed, "the talk controls were not drawn again"
    controls = region_of(pushed, "talk-controls")
    assert "Mute Bea" in controls and "Mute Cal" in controls


@pytest.mark.parametrize("game", list(TABLES))
def test_a_word_is_shown_at_its_senders_seat_for_every_viewer_but_the_muter(player, registry, moment, game):
    code, ann, bea, cal = friends(player, game)
    for _ in range(GAMES[game].min_players - 3):
        ann.post(f"/r/{code}/bots", data={"level": "easy"}, headers=HX)
    ann.post(f"/r/{code}/start", headers=HX)
    watcher = player("Wes")
    room = registry.get(code)
    assert room.status != "lobby"
    cal_seat = next(seat for seat, who in enumerate(room.seats) if who.name == "Cal")
    bea.post(f"/r/{code}/mute/{cal_seat}", data={"on": "yes"}, headers=HX)
    say(cal, code, "phrase", "Nice bid", moment)
    # The table's stylesheet names every seat it can have as the place of that seat's word.
    stylesheet = (Path(ann.application.static_folder) / TABLES[game].stylesheet).read_text()
    assert all(f"anchor-name: --seat-{seat};" in stylesheet for seat in range(GAMES[game].max_players))
    bubble = f'data-seat="{cal_seat}"><span class="seat-name">Cal</span> <span class="said">Nice bid'
    for client in (ann, cal, watcher):
        assert bubble in region_of(page(client, code), "talk")
    assert "Nice bid" not in region_of(page(bea, code), "talk")


def region_of(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}"')
    return html[start : html.index("</section>", start)]


@on_both_stores
def test_a_reported_message_is_kept_with_its_room_for_the_operator(player, registry, moment):
    code, ann, bea, _ = friends(player)
    say(ann, code, "chat", "you are all terrible", moment)
    n = registry.get(code).published.talk[-1].n
    assert "That is your own message" in notice(ann.post(f"/r/{code}/talk/{n}/report", headers=HX))
    assert "Reported" in notice(bea.post(f"/r/{code}/talk/{n}/report", headers=HX))
    assert registry.store.talk.reports()[0][:4] == (code, "Ann", uid_of(ann), "you are all terrible")


@on_both_stores
def test_talk_survives_a_restart(player, registry, settings, serve, moment):
    code, ann, *_ = friends(player)
    say(ann, code, "phrase", "Well played", moment)
    restarted = serve(settings).extensions["zerogames"].get(code)
    assert [said.text for said in restarted.published.talk] == ["Well played"]


@on_both_stores
def test_a_kicked_player_is_told_and_cannot_come_back(player, registry):
    code, ann, bea, _ = friends(player)
    room = registry.get(code)
    bea_seat = next(seat for seat, who in enumerate(room.seats) if who.name == "Bea")
    assert "Only the host" in notice(bea.post(f"/r/{code}/kick", data={"seat_index": "0"}, headers=HX))
    ann.post(f"/r/{code}/kick", data={"seat_index": str(bea_seat)}, headers=HX)
    assert [who.name for who in room.seats] == ["Ann", "Cal"]
    shown = bea.get(f"/r/{code}")
    assert shown.status_code == 403 and SENT_AWAY in words(shown.text)
    assert SENT_AWAY in notice(join(bea, code))
    assert bea.get(f"/r/{code}/live").status_code == 403
    assert [who.name for who in room.seats] == ["Ann", "Cal"]


def test_the_host_sends_a_watcher_away(player, registry):
    code, ann, *_ = friends(player)
    wes = player("Wes")
    room = registry.get(code)
    registry.subscribe(room, Subscriber(uid_of(wes)))
    assert "Send watcher 1 away" in page(ann, code)
    ann.post(f"/r/{code}/kick", data={"watcher": watcher_tag(code, uid_of(wes))}, headers=HX)
    assert wes.get(f"/r/{code}").status_code == 403


def test_a_seat_the_host_removes_during_a_game_goes_to_a_bot_of_their_level(player, registry):
    code, ann, _, cal = friends(player)
    ann.post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    cal_seat = next(seat for seat, who in enumerate(room.seats) if who.name == "Cal")
    registry.subscribe(room, Subscriber(uid_of(cal)))  # Cal is at the table
    ann.post(f"/r/{code}/seats/{cal_seat}/bot", data={"level": "normal", "remove": "yes"}, headers=HX)
    assert room.seats[cal_seat].bot == "normal" and room.seats[cal_seat].uid is None
    shown = cal.get(f"/r/{code}")
    assert shown.status_code == 403 and SENT_AWAY in words(shown.text)


@on_both_stores
def test_play_again_keeps_the_people_rotates_the_first_seat_and_keeps_the_series(player, registry):
    ann = player("Ann")
    code = started_with_bots(ann)
    room = registry.get(code)
    first = [who.name for who in room.seats]
    to_the_end(ann, room)
    winners = [room.seats[seat].name for seat in room.published.outcome.winners]
    over = words(page(ann, code))
    assert "Games won this evening" in over
    assert all(f"{name} 1" in over for name in winners)
    ann.post(f"/r/{code}/again", headers=HX)
    assert [who.name for who in room.seats] == first[1:] + first[:1]
    # Recorded with the games: a restarted site has the same series.
    assert registry.rebuild(code).facts.series == tuple((name, 1) for name in sorted(winners))


def test_a_name_with_a_filtered_word_is_refused(player):
    ann = player("Ann")
    code = create_room(ann)
    rude = player("Rude")
    response = rude.post(f"/r/{code}/join", data={"name": "Big Shit"}, headers=HX)
    assert "keeps out of names" in notice(response)
