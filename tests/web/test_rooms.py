"""Rooms through the web: codes, seats, the lobby, versions and every refusal (nothing changes)."""

from __future__ import annotations

import json
import re

from tests.web.conftest import (
    act,
    create_room,
    join,
    on_both_stores,
    page,
    region,
    version_of,
    wait_until,
    words,
)
from zerogames import clock
from zerogames.games import GAMES
from zerogames.games.cards import card_name
from zerogames.rooms import CODE_ALPHABET, Subscriber
from zerogames.rooms.channels import WAKE_SLICES

pytestmark = on_both_stores


def three_players(player):
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    code = create_room(ann)
    join(bea, code)
    join(cal, code)
    return code, (ann, bea, cal)


def started(player, registry):
    code, clients = three_players(player)
    clients[0].post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    assert room.status == "playing"
    return code, clients, room


def turn_client(room, clients):
    return clients[room.state["turn"]], room.state["turn"]


def test_home_page_lists_every_game(player):
    html = player("Ann").get("/").text
    for game_id, rules in GAMES.items():
        assert rules.title in html and f'value="{game_id}"' in html, game_id


def test_a_room_code_is_four_letters_without_look_alikes(player):
    codes = {create_room(player(f"P{i}")) for i in range(30)}
    assert all(len(code) == 4 and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set("ILO01") & set(CODE_ALPHABET)


def test_codes_are_case_insensitive(player):
    ann = player("Ann")
    code = create_room(ann)
    response = ann.get(f"/join?code={code.lower()}")
    assert response.headers["Location"].endswith(f"/r/{code}")
    assert ann.get(f"/r/{code.lower()}").status_code == 302


def test_joining_by_code_finds_a_room_of_another_process(tmp_path, serve):
    """Two processes behind the README's proxy, sharing the database: a code typed on the one that
    does not own it is sent to /r/CODE, which the proxy routes to the owner, which shows the room."""
    shards = [
        serve({"TESTING": True, "DATABASE": str(tmp_path / "shared.db"), "SHARD": f"{i}/2", "DEV": True})
        for i in range(2)
    ]
    owner, other = shards[1].test_client(), shards[0].test_client()
    owner.name = "Ann"
    code = create_room(owner)
    assert not shards[0].extensions["zerogames"].owns(code)
    response = other.get(f"/join?code={code.lower()}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/r/{code}")
    assert "Ann" in owner.get(response.headers["Location"]).text
    # A code of its own that names no room is still answered where it was typed.
    own_code = next(c for c in ("AAAA", "BBBB") if shards[0].extensions["zerogames"].owns(c))
    assert "No table has the code" in other.get(f"/join?code={own_code}", follow_redirects=True).text


def test_an_unknown_code_says_so(player):
    ann = player("Ann")
    response = ann.get("/join?code=ZZZZ", follow_redirects=True)
    assert "No table has the code" in response.text
    assert ann.get("/r/ZZZZ").status_code == 404


def test_a_name_is_needed_to_create_a_room(player):
    response = player("").post("/rooms", data={"game": "zero_game", "name": "  "}, follow_redirects=True)
    assert "Choose a name" in response.text


def test_players_join_the_lobby_and_the_host_is_marked(player, registry):
    code, _ = three_players(player)
    room = registry.get(code)
    assert [seat.name for seat in room.seats] == ["Ann", "Bea", "Cal"]
    assert room.host == room.seats[0].uid


def test_joining_twice_keeps_one_seat(player, registry):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann)
    join(bea, code)
    join(bea, code)
    assert len(registry.get(code).seats) == 2


def test_a_full_room_refuses_another_player(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    for _ in range(6):
        ann.post(f"/r/{code}/bots", headers={"HX-Request": "true"})
    before = registry.get(code).version
    response = join(player("Zed"), code)
    assert "This table is full" in response.text
    assert registry.get(code).version == before and len(registry.get(code).seats) == 7


def test_only_the_host_adds_bots_and_starts(player, registry):
    code, (_ann, bea, _) = three_players(player)
    assert "Only the host" in bea.post(f"/r/{code}/bots", headers={"HX-Request": "true"}).text
    assert "Only the host" in bea.post(f"/r/{code}/start", headers={"HX-Request": "true"}).text
    assert registry.get(code).status == "lobby"


def test_starting_with_too_few_players_is_refused(player, registry):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann)
    join(bea, code)
    response = ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    assert "needs 3 to 7 players" in response.text
    assert registry.get(code).status == "lobby"


def test_in_development_mode_the_host_may_name_the_deal_and_a_bad_one_is_refused(player, registry):
    code, (ann, _bea, _cal) = three_players(player)
    response = ann.post(f"/r/{code}/start", data={"seed": "x"}, headers={"HX-Request": "true"})
    assert "The deal is a whole number" in response.text
    assert registry.get(code).status == "lobby"
    ann.post(f"/r/{code}/start", data={"seed": "7"}, headers={"HX-Request": "true"})
    room = registry.get(code)
    assert room.seed == 7
    assert room.state == GAMES["zero_game"].new_game(3, 7, clock.game_options(room.options))


def test_the_host_removes_a_bot(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    ann.post(f"/r/{code}/bots", headers={"HX-Request": "true"})
    assert registry.get(code).seats[1].bot == "easy"
    ann.post(f"/r/{code}/bots/1/remove", headers={"HX-Request": "true"})
    assert len(registry.get(code).seats) == 1


def test_a_late_visitor_watches_and_cannot_act(player, registry):
    code, _, _room = started(player, registry)
    watcher = player("Wes")
    assert "game has started without you" in join(watcher, code).text
    response = act(watcher, code, json.dumps({"type": "bid", "bid": 0}))
    assert "You are watching" in response.text


def test_acting_out_of_turn_is_refused_and_changes_nothing(player, registry):
    code, clients, room = started(player, registry)
    seat = (room.state["turn"] + 1) % 3
    version = room.version
    response = act(clients[seat], code, json.dumps({"type": "bid", "bid": 0}))
    assert "It is not your turn." in response.text
    assert room.version == version


def test_a_stale_version_is_refused_and_the_fresh_table_shown(player, registry):
    code, clients, room = started(player, registry)
    client, _ = turn_client(room, clients)
    response = act(client, code, json.dumps({"type": "bid", "bid": 0}), version=room.version - 1)
    assert "The table changed before your move arrived" in response.text
    assert version_of(response.text) == room.version
    assert all(bid is None for bid in room.state["bids"])
    # The fresh table is swapped in by id: the move's form itself swaps nothing.
    assert '<div id="room" class="room room-playing game-zero_game" hx-swap-oob="true">' in response.text


def test_a_stale_move_brings_the_fresh_table_even_to_a_page_that_thinks_its_channel_is_live(player, registry):
    code, clients, room = started(player, registry)
    client, _ = turn_client(room, clients)
    response = client.post(
        f"/r/{code}/act",
        data={"action": json.dumps({"type": "bid", "bid": 0}), "version": room.version - 1},
        headers={"HX-Request": "true", "X-Live": "1"},
    )
    assert "The table changed before your move arrived" in response.text
    assert version_of(response.text) == room.version


def test_the_same_move_sent_twice_from_the_same_table_is_made_once_and_silently(player, registry):
    code, clients, room = started(player, registry)
    client, seat = turn_client(room, clients)
    version = room.version
    bid = json.dumps({"type": "bid", "bid": 0})
    assert '<p class="notice">' not in act(client, code, bid, version=version).text
    second = act(client, code, bid, version=version)
    assert "The table changed" not in second.text and '<p class="notice">' not in second.text
    assert room.version == version + 1 and room.state["bids"][seat] == 0
    # Another move from that old table is still refused as stale.
    other = act(client, code, json.dumps({"type": "bid", "bid": 1}), version=version)
    assert "The table changed before your move arrived" in other.text


def test_a_rebuilt_room_numbers_its_tables_past_the_ones_open_pages_show(player, registry, settings, serve):
    code, clients, room = started(player, registry)
    shown = int(re.search(r'data-seq="(\d+)"', clients[0].get(f"/r/{code}").text).group(1))
    restarted = serve(settings).extensions["zerogames"].get(code)
    # A page drops any table numbered below the one it shows: the restarted room's come after.
    assert restarted.published.seq > shown
    assert restarted.published.version == room.version


def test_a_forged_card_is_refused(player, registry):
    code, clients, room = started(player, registry)
    while room.state["phase"] == "bid":
        client, seat = turn_client(room, clients)
        act(client, code, json.dumps(room.rules.legal_actions(room.state, seat)[0]))
    client, seat = turn_client(room, clients)
    foreign = room.state["hands"][(seat + 1) % 3][0]
    version = room.version
    response = act(client, code, json.dumps({"type": "play", "card": foreign}))
    assert "You do not hold that card." in response.text
    assert room.version == version


def test_nonsense_is_refused(player, registry):
    code, clients, room = started(player, registry)
    client, _ = turn_client(room, clients)
    assert "could not be read" in act(client, code, "{not json").text
    assert "not an action" in act(client, code, json.dumps(["bid"])).text


def test_acting_for_another_seat_is_refused(player, registry):
    code, clients, room = started(player, registry)
    _client, seat = turn_client(room, clients)
    other = clients[(seat + 1) % 3]
    version = room.version
    response = act(other, code, json.dumps({"type": "bid", "bid": 0}), seat=seat)
    assert "only for your own seat" in response.text
    assert room.version == version


def test_a_bid_is_shown_in_words_to_everyone(player, registry):
    code, clients, room = started(player, registry)
    client, seat = turn_client(room, clients)
    act(client, code, json.dumps({"type": "bid", "bid": 1}))
    name = ["Ann", "Bea", "Cal"][seat]
    for viewer in clients:
        assert f"{name} bid 1" in viewer.get(f"/r/{code}").text


def cards_shown(html: str, cards) -> list[str]:
    """The cards of `cards` a room's part of a page (conftest.page) shows, in any form it uses: the
    card's spoken name, or its code in a move's JSON."""
    return sorted(card for card in cards if card_name(card) in html or f'"{card}"' in html)


def test_a_spectator_page_holds_no_card_of_any_hand(player, registry):
    code, _, room = started(player, registry)
    html = page(player("Wes"), code)
    assert cards_shown(html, [card for hand in room.state["hands"] for card in hand]) == []
    assert "You are watching" in html


def test_a_player_page_holds_its_own_cards_and_no_card_of_another_hand(player, registry):
    code, clients, room = started(player, registry)
    hands = room.state["hands"]
    html = page(clients[0], code)
    assert cards_shown(html, hands[0]) == sorted(hands[0])
    assert cards_shown(html, hands[1] + hands[2]) == []


def test_the_leak_checks_find_a_hand_card_put_in_the_spectator_page(player, registry):
    """What the two tests above search for is what a page shows: a hand put in a spectator's page
    (here, Ann's own hand region) is found, card by card."""
    code, clients, room = started(player, registry)
    hand = region(page(clients[0], code), "hand")
    leaky = page(player("Wes"), code).replace('<section id="hand"', hand + '<section id="hand"', 1)
    assert cards_shown(leaky, room.state["hands"][0]) == sorted(room.state["hands"][0])


def test_bots_move_by_themselves(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    ann.post(f"/r/{code}/bots", headers={"HX-Request": "true"})
    ann.post(f"/r/{code}/bots", headers={"HX-Request": "true"})
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    for _ in range(200):
        wait_until(lambda: room.status == "over" or room.rules.legal_actions(room.state, 0))
        if room.status == "over":
            break
        act(ann, code, json.dumps(room.rules.legal_actions(room.state, 0)[0]))
    assert room.status == "over"
    actions = registry.store.games.actions(code, room.game_no)
    assert {by.split(":")[0] for *_, by in actions} == {"player", "bot"}


def test_normal_and_hard_bots_are_seated_by_level_and_play_a_whole_game(player, registry):
    ann = player("Ann")
    code = create_room(ann, game="trump_card")
    lobby = ann.get(f"/r/{code}").text
    for level in ("Easy", "Normal", "Hard"):
        assert f"Add a{'n' if level == 'Easy' else ''} {level} bot" in lobby
    for level in ("normal", "hard", "hard"):
        ann.post(f"/r/{code}/bots", data={"level": level}, headers={"HX-Request": "true"})
    seats = words(ann.get(f"/r/{code}").text)
    assert "Normal bot" in seats and "Hard bot" in seats
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    while room.status != "over":
        wait_until(lambda: room.status == "over" or room.rules.legal_actions(room.state, 0))
        if room.status == "playing":
            act(ann, code, json.dumps(room.rules.legal_actions(room.state, 0)[0]))
    bys = {by for *_, by in registry.store.games.actions(code, room.game_no)}
    assert bys == {"player:" + room.seats[0].uid, "bot:normal", "bot:hard"}


def test_play_again_starts_a_new_game_with_the_same_seats(player, registry):
    ann = player("Ann")
    code = create_room(ann)
    for _ in range(2):
        ann.post(f"/r/{code}/bots", headers={"HX-Request": "true"})
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    while room.status != "over":
        wait_until(lambda: room.status == "over" or room.rules.legal_actions(room.state, 0))
        if room.status == "playing":
            act(ann, code, json.dumps(room.rules.legal_actions(room.state, 0)[-1]))
    assert "Play again" in ann.get(f"/r/{code}").text
    ann.post(f"/r/{code}/again", headers={"HX-Request": "true"})
    assert room.status == "playing" and room.game_no == 2 and len(room.seats) == 3


def test_a_rejoin_link_moves_the_seat_to_another_device(player, registry, app):
    code, (ann, _, _), room = started(player, registry)
    html = ann.get(f"/r/{code}").text
    old_uid = room.seats[0].uid
    link = html.split('class="rejoin-link" readonly value="', 1)[1].split('"', 1)[0]
    phone = app.test_client()
    phone.post(link.replace("http://localhost", ""))
    assert "badge you" in phone.get(f"/r/{code}").text.split('id="seats"', 1)[1].split("Bea", 1)[0]
    assert room.seat_of(old_uid) is None and room.seats[0].uid not in (old_uid, None)
    # The old device is now a spectator, and the old link no longer works.
    assert "You are watching" in ann.get(f"/r/{code}").text
    assert (
        "used or is out of date"
        in app.test_client().post(link.replace("http://localhost", ""), follow_redirects=True).text
    )


def test_a_player_who_joins_gets_the_rejoin_link_with_the_answer(player):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann)
    answer = join(bea, code)
    assert '<div id="rejoin" hx-swap-oob="true">' in answer.text
    assert f"/r/{code}/rejoin/" in answer.text


def test_live_channels_are_woken_a_slice_of_rooms_at_a_time_and_each_once_a_round(registry):
    """Every live channel is woken regularly (one that closed then goes), but never all at once."""
    registry.channels.waking = True  # the slices are turned here, not by the process's timer
    subscribers = []
    for index in range(3 * WAKE_SLICES + 7):
        room = registry.create("zero_game", {}, f"u{index}", "Ann")
        subscriber = Subscriber(f"u{index}")
        registry.subscribe(room, subscriber)
        subscribers.append(subscriber)
    woken = [0] * len(subscribers)
    for turn in range(WAKE_SLICES):
        for subscriber in subscribers:
            subscriber.event.clear()
        registry.channels.wake_slice(turn)
        now = [i for i, subscriber in enumerate(subscribers) if subscriber.event.is_set()]
        assert 3 <= len(now) <= 4
        for i in now:
            woken[i] += 1
    assert woken == [1] * len(subscribers)
