"""Cabo's live table through the web: hidden cards stay hidden, peeks, the memory switch, snaps."""

from __future__ import annotations

import json

from tests.web.conftest import act, headline, page, started_at, words
from zerogames.games.cabo.rules import RULES
from zerogames.games.cards import STANDARD_DECK


def started(player, registry, deck=None):
    """Ann (host), Bea and Cal at a Cabo table, Ann dealing, so Bea plays first (from `deck`, if given)."""
    return started_at(player, registry, "cabo", {"dealer": 0} | ({"decks": [deck]} if deck else {}))


def names_of(cards) -> list[str]:
    from zerogames.games.cards import card_name

    return [card_name(card) for card in cards if card is not None]


def peek(client, code, slots=(0, 1)):
    return act(client, code, json.dumps({"type": "peek", "slots": list(slots)}))


def test_no_hidden_card_is_on_any_page_and_peeks_show_only_ones_own(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    hands = room.state["hands"]
    html = page(ann, code)
    assert headline(html).startswith("Your turn: pick two")
    for hand in hands:
        for name in names_of(hand):
            assert name not in html
    for client in (ann, bea, cal):
        peek(client, code)
    html = page(bea, code)
    assert headline(html).startswith("Your turn")
    for seat, hand in enumerate(room.state["hands"]):
        for slot, name in enumerate(names_of(hand)):
            assert (name in html) == (seat == 1 and slot < 2), (seat, slot)
    assert 'class="sighting" data-left="' in html
    assert "Snap" not in words(html)


def test_only_the_host_may_switch_assist_mode(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    assert "Switch assist mode on" in page(ann, code)
    assert "Switch assist mode" not in page(bea, code)
    refused = act(bea, code, json.dumps({"type": "memory", "on": False}))
    assert "Only the host" in refused.text
    assert room.state["memory"] is True
    act(ann, code, json.dumps({"type": "memory", "on": False}))
    assert room.state["memory"] is False
    assert "Assist mode is on" in page(cal, code)


def test_a_discard_opens_snaps_on_every_slot_and_the_words_tell_it(player, registry):
    # Twelve cards dealt, the thirteenth turned up, and Bea draws the fourteenth: a 5, with no power.
    deck = [card for card in STANDARD_DECK if card != "5H"]
    code, (ann, bea, cal), room = started(player, registry, deck[:13] + ["5H"] + deck[13:])
    for client in (ann, bea, cal):
        peek(client, code)
    act(bea, code, json.dumps({"type": "draw"}))
    drawn = room.state["drawn"]
    assert drawn == "5H"
    html = page(bea, code)
    assert "Discard it" in html and "Keep the drawn card in place of your card 1" in html
    act(bea, code, json.dumps({"type": "discard"}))
    html = page(ann, code)
    assert 'aria-label="Snap Bea\'s card 2"' in html
    assert 'aria-label="Snap your card 4"' in html
    assert headline(html).startswith("Waiting for")
    assert "Bea discarded the" in words(html)
    assert RULES.view(room.state, 0)["discard"] == drawn
