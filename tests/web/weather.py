"""The database away and back under a running site, as the outage tests and bench/database_faults.py
drill it: a player's move refused with the message while it is away (the page still up), accepted
again once it is back; a bot's move that failed made by itself once it is back; nothing acknowledged
lost. How long each took to come back is what the drill answers."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from html import unescape

from tests.web.conftest import act, create_room, uid_of, wait_until
from zerogames.rooms import RoomRegistry

UNSAVED = "The table cannot be saved right now: try again in a moment."
# Within how many seconds of the database's return a move goes through again.
BACK_WITHIN = 5.0


def table_with_two_bots(player, registry: RoomRegistry):
    """Ann and two Easy bots, dealt: Ann's client and the room."""
    ann = player("Ann")
    room = registry.get(create_room(ann))
    for _ in range(2):
        registry.add_bot(room, uid_of(ann))
    registry.start(room, uid_of(ann))
    return ann, room


def anns_moves(room, registry: RoomRegistry) -> list:
    with room.lock:
        if room.status != "playing":
            return []
        return room.rules.legal_actions(room.state, 0, registry.clock())


def move(ann, room, registry: RoomRegistry):
    """Ann's first legal move, once it is her turn: the answer."""
    wait_until(lambda: anns_moves(room, registry) or room.status != "playing", BACK_WITHIN)
    assert room.status == "playing", "the game ended before the drill did"
    return act(ann, room.code, json.dumps(anns_moves(room, registry)[0]), room.version)


def drill(ann, room, registry: RoomRegistry, away: Callable[[], None], back: Callable[[], None]) -> dict:
    """Seconds from the database's return to a player's move going through, and to a bot's."""
    figures = {}
    # A player's move while the database is away: refused with the message, nothing changed.
    wait_until(lambda: anns_moves(room, registry), BACK_WITHIN)
    version = room.version
    away()
    refused = move(ann, room, registry)
    assert refused.status_code == 200 and UNSAVED in unescape(refused.text)
    assert room.version == version
    assert ann.get(f"/r/{room.code}").status_code == 200, "the table's page stays up"
    back()
    returned = time.monotonic()
    while room.version == version:
        assert time.monotonic() - returned < BACK_WITHIN, "no move went through after the database came back"
        move(ann, room, registry)
        time.sleep(0.05)
    figures["player's move"] = time.monotonic() - returned
    # A bot's move whose write fails: made by itself once the database is back.
    while True:
        move(ann, room, registry)
        version = room.version
        if not anns_moves(room, registry):  # a bot's turn, its move some bot_delay away
            away()
            if room.version == version:
                break
            back()  # the bot was quicker than the outage: again
    time.sleep(1.5 * registry.bot_delay + 1.0)
    assert room.version == version, "nothing is written while the database is away"
    back()
    returned = time.monotonic()
    wait_until(lambda: room.version != version, BACK_WITHIN)
    figures["bot's move"] = time.monotonic() - returned
    # Nothing acknowledged was lost: the store has every move the table shows.
    assert len(registry.store.games.actions(room.code, room.game_no)) == room.action_count
    rebuilt = registry.rebuild(room.code)
    with room.lock:
        assert room.rules.dump(rebuilt.state) == room.rules.dump(room.state)
    return figures
