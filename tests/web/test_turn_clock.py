"""The turn clock at the table, on a clock the test moves: deadlines, timeouts made by the Easy bot and
said in words, seats away and back, races, restarts, abandoned tables, and the host's option."""

from __future__ import annotations

import json
import random
import threading

import pytest

from tests.web.conftest import (
    act,
    create_room,
    join,
    page,
    region,
    timers_by_hand,
    uid_of,
    version_of,
    wait_until,
    words,
)
from zerogames import bots, clock
from zerogames.games import GAMES
from zerogames.rooms import RoomRegistry, Subscriber

START = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC
HX = {"HX-Request": "true"}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def moment(registry):
    """The registry on a clock of the test's own, its timers run only when the test says (`due`)."""
    now = Clock()
    timers_by_hand(registry, now)
    return now


def due(registry, now: Clock, at: float) -> None:
    """Move the clock to `at` and run every timer whose moment has come."""
    now.now = at
    registry.scheduler.run_due()


def table(player, game="zero_game", players=3, **options):
    """A started room of humans (Ann, Bea, Cal, ...) with these room options."""
    clients = [player(name) for name in ("Ann", "Bea", "Cal", "Dee", "Eli")[:players]]
    code = create_room(clients[0], game, **options)
    for client in clients[1:]:
        join(client, code)
    clients[0].post(f"/r/{code}/start", headers=HX)
    return code, clients


def log_of(registry, room):
    return registry.store.games.actions(room.code, room.game_no)


def test_the_clock_counts_from_the_last_move_and_runs_out_on_the_easy_bots_move(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    seat = room.rules.awaited(room.state, START)[0]
    name = room.seats[seat].name
    assert room.published.deadlines == ((seat, START + 30),)
    # Readable without script, on every seat's page and a spectator's: 08:00:30 UTC.
    for viewer in [*clients, player("Wes")]:
        shown = words(region(page(viewer, code), "clock"))
        # (The host's also offers a bot for the seats with no page open, and the clock's setting.)
        assert shown.startswith((f"{name} has until 08:00:30 UTC", "You have until 08:00:30 UTC"))
    assert f'data-until="{START + 30}"' in page(clients[0], code)

    view = room.rules.view(room.state, seat, START + 30)
    legal = room.rules.timeout_actions(room.state, seat, START + 30)
    rng = random.Random(f"{room.seed}/0/{seat}/timeout")
    expected = bots.choose("zero_game", view, legal, "easy", rng)
    due(registry, moment, START + 29.9)
    assert log_of(registry, room) == []  # a second early: nothing, whether or not anyone is connected
    due(registry, moment, START + 30)
    assert log_of(registry, room) == [(seat, expected, START + 30, "timeout")]
    shown = words(region(page(clients[(seat + 1) % 3], code), "clock"))
    assert f"Time ran out: {name}'s move was made for them." in shown
    assert room.published.deadlines == (((seat + 1) % 3, START + 60),)


def test_two_timeouts_in_a_row_mark_a_seat_away_and_it_is_then_moved_for_at_once(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    registry.bot_delay = 5.0
    first = room.rules.awaited(room.state, START)[0]
    for turn in range(3):  # everyone's first timeout
        due(registry, moment, START + 30 * (turn + 1))
    assert room.away() == frozenset()
    due(registry, moment, START + 120)  # the first bidder's second in a row
    assert room.away() == {first}
    assert "away" in words(region(page(clients[1], code), "seats"))
    assert "You are away" in words(region(page(clients[first], code), "clock"))
    # An away seat is moved for after a bot's pause, not its full clock.
    while room.rules.awaited(room.state, moment())[0] != first:
        due(registry, moment, room.published.deadlines[0][1])
    last = moment()
    assert room.published.deadlines == ((first, last + 5),)
    due(registry, moment, last + 5)
    assert log_of(registry, room)[-1][0::2] == (first, last + 5)
    assert all(by == "timeout" for *_, by in log_of(registry, room))


def table_with_pages_open(player, registry):
    """A 30 s clocked table of three players whose pages are all open, a bot's pause of 5 s."""
    code, clients = table(player, clock="30")
    room = registry.get(code)
    registry.bot_delay = 5.0
    pages = [Subscriber(uid_of(client)) for client in clients]
    for sub in pages:
        registry.subscribe(room, sub)
    return code, clients, room, pages


def play_until_the_turn_of(seat: int, room, clients, now: float) -> None:
    """Each other player's first legal move until it is `seat`'s turn."""
    while (turn := room.rules.awaited(room.state, now)[0]) != seat:
        act(clients[turn], room.code, json.dumps(room.rules.legal_actions(room.state, turn)[0]))


def test_a_player_whose_page_has_been_closed_a_clocks_length_is_moved_for_then(player, registry, moment):
    """Not a full clock on each turn until marked away: the clock counts from the page's closing."""
    code, clients, room, pages = table_with_pages_open(player, registry)
    first = room.rules.awaited(room.state, START)[0]
    second, third = (first + 1) % 3, (first + 2) % 3
    moment.now = START + 2
    registry.unsubscribe(room, pages[second])  # the tab closed before its turn
    moment.now = START + 20
    act(clients[first], code, json.dumps(room.rules.legal_actions(room.state, first)[0]))
    assert room.published.deadlines == ((second, START + 32),)  # not START + 50
    name = room.seats[second].name
    assert f"{name} has until 08:00:32 UTC" in words(region(page(clients[third], code), "clock"))
    due(registry, moment, START + 32)
    assert log_of(registry, room)[-1][0::2] == (second, START + 32)
    assert log_of(registry, room)[-1][3] == "timeout"
    # Gone longer than a clock: its next turn waits a bot's pause, like an away seat's. A player whose
    # page is open (the third) has a full clock.
    assert room.published.deadlines == ((third, START + 62),)
    act(clients[third], code, json.dumps(room.rules.legal_actions(room.state, third)[0]))
    play_until_the_turn_of(second, room, clients, moment())
    assert room.published.deadlines == ((second, moment() + 5),)
    # The page open again before that: the full clock, and the player's own move.
    registry.subscribe(room, Subscriber(uid_of(clients[second])))
    assert room.published.deadlines == ((second, moment() + 30),)
    assert "You have until" in words(region(page(clients[second], code), "clock"))


def test_a_player_who_moves_with_no_page_open_keeps_a_full_clock(player, registry, moment):
    """Plain forms work without a page's live channel: a player who moves is there, page or not."""
    code, clients, room, pages = table_with_pages_open(player, registry)
    first = room.rules.awaited(room.state, START)[0]
    second = (first + 1) % 3
    registry.unsubscribe(room, pages[second])
    moment.now = START + 40
    act(clients[first], code, json.dumps(room.rules.legal_actions(room.state, first)[0]))
    assert room.published.deadlines == ((second, START + 45),)  # gone a clock's length: a bot's pause
    act(clients[second], code, json.dumps(room.rules.legal_actions(room.state, second)[0]))
    play_until_the_turn_of(second, room, clients, moment())
    assert room.published.deadlines == ((second, moment() + 30),)


def test_im_back_ends_being_away_and_so_does_a_move_of_ones_own(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    for turn in range(4):
        due(registry, moment, START + 30 * (turn + 1))
    away = next(iter(room.away()))
    response = clients[away].post(f"/r/{code}/back", headers=HX)
    assert response.status_code == 200
    assert room.away() == frozenset()
    assert "You are away" not in page(clients[away], code)
    # Away again, then back by moving: the move counts as the player's.
    room.timeouts[away] = clock.AWAY_AFTER
    seat = room.rules.awaited(room.state, moment())[0]
    legal = room.rules.legal_actions(room.state, seat)
    act(clients[seat], code, json.dumps(legal[0]))
    assert seat not in room.away()
    assert log_of(registry, room)[-1][3] == f"player:{room.seats[seat].uid}"


def test_a_move_racing_its_timeout_counts_once(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    seat = room.rules.awaited(room.state, START)[0]
    bid = json.dumps(room.rules.legal_actions(room.state, seat)[0])
    version = room.version
    moment.now = START + 30
    with room.lock:
        # The timer fires and waits for the room, while the player's own move goes in first.
        timer = threading.Thread(target=registry.scheduler.run_due)
        timer.start()
        wait_until(lambda: START + 30 not in registry.scheduler.pending())
        act(clients[seat], code, bid, version=version)
    timer.join()
    assert [by for *_, by in log_of(registry, room)] == [f"player:{room.seats[seat].uid}"]
    # And the other way round: the timeout first, the player's move (chosen on that table) refused.
    other = room.rules.awaited(room.state, moment())[0]
    version, bid = room.version, json.dumps(room.rules.legal_actions(room.state, other)[0])
    due(registry, moment, START + 60)
    response = act(clients[other], code, bid, version)
    assert "The table changed before your move arrived" in response.text
    assert [by for *_, by in log_of(registry, room)][1:] == ["timeout"]


def restarted(registry, now: Clock) -> RoomRegistry:
    """A new registry on the same store, as after a restart, on the test's clock."""
    return timers_by_hand(RoomRegistry(registry.store, clock=now, bot_delay=0))


def test_a_clock_resumes_after_a_restart_where_it_was(player, registry, moment):
    code, _clients = table(player, clock="30")
    room = registry.get(code)
    for turn in range(4):  # the first bidder away
        due(registry, moment, START + 30 * (turn + 1))
    deadlines, away = room.published.deadlines, room.away()
    moment.now = START + 130  # ten seconds into the next player's clock, the server restarts
    again = restarted(registry, moment)
    assert again.restore() == 1
    rebuilt = again.get(code)
    assert rebuilt.published.deadlines == deadlines == ((deadlines[0][0], START + 150),)
    assert rebuilt.away() == away
    due(again, moment, START + 149)
    assert len(log_of(again, rebuilt)) == 4
    due(again, moment, START + 150)
    assert len(log_of(again, rebuilt)) == 5


def test_a_timeout_that_fell_while_the_server_was_down_is_played_at_once(player, registry, moment):
    code, _clients = table(player, clock="30")
    room = registry.get(code)
    seat = room.rules.awaited(room.state, START)[0]
    moment.now = START + 500
    again = restarted(registry, moment)
    again.restore()
    again.scheduler.run_due()
    assert log_of(again, again.get(code))[0][0::3] == (seat, "timeout")
    assert log_of(again, again.get(code))[0][2] == START + 500


def test_the_host_hands_an_away_seat_to_a_bot_and_the_player_takes_it_back(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    for turn in range(4):
        due(registry, moment, START + 30 * (turn + 1))
    away = next(iter(room.away()))
    name = room.seats[away].name
    assert (f"Let a bot play for {name}" in page(clients[0], code)) == (away != 0)
    bystander = next(client for seat, client in enumerate(clients) if seat not in (0, away))
    assert f"Let a bot play for {name}" not in page(bystander, code)
    assert "Only the host" in bystander.post(f"/r/{code}/seats/{away}/bot", headers=HX).text
    clients[0].post(f"/r/{code}/seats/{away}/bot", headers=HX)
    assert room.seats[away].bot == "easy" and room.seats[away].uid is not None
    assert "A bot is playing your seat" in page(clients[away], code)
    join(clients[away], code)  # rejoining
    assert room.seats[away].bot is None
    assert away not in room.away()


def test_a_table_every_player_has_left_for_ten_minutes_ends_as_abandoned(player, registry, moment):
    code, clients = table(player, clock="30")
    room = registry.get(code)
    registry.bot_delay = 5.0  # so that away seats' moves do not finish the game first
    due(registry, moment, START + clock.ABANDON_AFTER - 1)
    assert room.status == "playing"
    due(registry, moment, START + clock.ABANDON_AFTER)
    assert room.status == "over" and room.rules.result(room.state) is None
    assert "This game was abandoned: every player was away for 10 minutes" in words(page(clients[1], code))
    response = act(clients[0], code, json.dumps({"type": "bid", "bid": 0}))
    assert "The game is over" in response.text
    assert registry.store.rooms.unfinished() == []
    assert registry.store.history.record(code, room.game_no).outcome == "abandoned"
    # The published end says so, also once the room is rebuilt after a restart.
    assert room.published.outcome.how == "abandoned"
    assert restarted(registry, moment).get(code).published.outcome.how == "abandoned"


def test_a_players_own_moves_keep_a_table_without_live_channels_going(player, registry, moment):
    code, clients = table(player, clock="120")
    room = registry.get(code)
    for minute in range(1, 15):
        moment.now = START + 60 * minute
        seat = room.rules.awaited(room.state, moment())[0]
        act(clients[seat], code, json.dumps(room.rules.legal_actions(room.state, seat)[0]))
        registry.scheduler.run_due()
    assert room.status in ("playing", "over")
    assert all(by.startswith("player:") for *_, by in log_of(registry, room))


# The host's option


def test_the_clock_defaults_to_sixty_seconds_with_a_bot_and_off_without(player, registry, moment):
    ann = player("Ann")
    code = create_room(ann)
    assert "Turn clock: off" in words(page(ann, code))
    ann.post(f"/r/{code}/bots", headers=HX)
    ann.post(f"/r/{code}/bots", headers=HX)
    assert "Turn clock: 60 seconds a move" in words(page(ann, code))
    ann.post(f"/r/{code}/start", headers=HX)
    room = registry.get(code)
    assert [until for seat, until in room.published.deadlines if seat == 0] in ([START + 60], [])
    humans = table(player, clock="")[0]
    assert registry.get(humans).published.deadlines == ()


def test_the_host_changes_the_clock_in_the_lobby_and_nobody_else_can(player, registry, app):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann, clock="120")
    join(bea, code)
    assert registry.get(code).options == {"clock": 120}
    assert "Only the host" in bea.post(f"/r/{code}/clock", data={"clock": "30"}, headers=HX).text
    ann.post(f"/r/{code}/clock", data={"clock": "off"}, headers=HX)
    assert registry.get(code).options == {"clock": 0}
    assert "Turn clock: off" in words(page(bea, code))


def test_a_clock_outside_the_choices_is_refused_but_development_mode_takes_any_second(player, registry, app):
    ann = player("Ann")
    code = create_room(ann)
    assert "whole number of seconds" in ann.post(f"/r/{code}/clock", data={"clock": "soon"}, headers=HX).text
    ann.post(f"/r/{code}/clock", data={"clock": "1"}, headers=HX)
    assert registry.get(code).options == {"clock": 1}
    app.config["DEV"] = False
    refused = ann.post(f"/r/{code}/clock", data={"clock": "45"}, headers=HX).text
    assert "off, 30, 60 or 120 seconds" in refused and registry.get(code).options == {"clock": 1}
    assert clock.picked("60") == 60 and clock.picked("default") is None and clock.picked("off") == 0


# Done when: a table of humans who never act plays to its end by timeouts alone, in every game.


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_humans_who_never_act_play_to_the_end_by_timeouts_alone(player, registry, moment, game_id):
    rules = GAMES[game_id]
    code, _clients = table(player, game_id, rules.min_players, clock="1")
    room = registry.get(code)
    second = 0
    while room.status == "playing":
        second += 1
        assert second < 5_000, "the game does not end"
        due(registry, moment, START + second)
    assert room.status == "over"
    log = log_of(registry, room)
    assert log and all(by == "timeout" for *_, by in log)
    assert version_of(page(_clients[0], code)) == room.version
