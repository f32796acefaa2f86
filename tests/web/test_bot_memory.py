"""Normal and Hard bots remember what their seats were shown, and a restart does not make them forget."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import act, create_room, wait_until
from zerogames.games import GAMES

# Far enough into a game that every bot has seen cards played, shown or taken.
ACTIONS = 14


def settled(room) -> bool:
    """No bot is thinking and the table waits on the player (or the game is over)."""
    if room.status != "playing":
        return True
    return not room.pending_bots and bool(room.rules.legal_actions(room.state, 0, room.clock()))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_restarted_table_s_bots_remember_what_they_were_shown(player, registry, settings, serve, game_id):
    rules = GAMES[game_id]
    ann = player("Ann")
    code = create_room(ann, game=game_id)
    for level in (["hard", "normal"] * 3)[: max(3, rules.min_players) - 1]:
        ann.post(f"/r/{code}/bots", data={"level": level}, headers={"HX-Request": "true"})
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    room = registry.get(code)
    while room.action_count < ACTIONS and room.status == "playing":
        wait_until(lambda: settled(room))
        if room.status == "playing":
            act(ann, code, json.dumps(rules.legal_actions(room.state, 0, room.clock())[0]))
    wait_until(lambda: settled(room))
    assert room.status == "playing", "the game ended before the restart"

    restarted = serve(settings).extensions["zerogames"].get(code)
    for seat, who in enumerate(room.seats[1:], start=1):
        remembered = room.bots[(room.game_no, seat, who.bot)].memory
        recalled = restarted.bots[(room.game_no, seat, who.bot)].memory
        assert vars(recalled) == vars(remembered), (seat, who.bot)
