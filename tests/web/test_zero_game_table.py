"""Zero Game's table through the web: what its status says of the last action."""

from __future__ import annotations

import json
import re

from tests.games.stacking import deck_dealing
from tests.web.conftest import act, page, region, started_at
from zerogames.games.cards import STANDARD_DECK

# Ann deals; Bea, on her left, is dealt first and leads. The seven of diamonds is turned up as trumps.
HANDS = (["2C", "3C"], ["AC", "4C"], ["KC", "5C"])


def last_action(client, code: str) -> str:
    words = re.search(r'<p class="last-action">(.*?)</p>', region(page(client, code), "status"), re.S)
    return " ".join(words.group(1).split())


def test_the_status_says_who_won_a_trick_with_its_last_card_and_only_then(player, registry):
    deck = deck_dealing(HANDS, 1, STANDARD_DECK, then=["7D"])
    options = {"decks": [deck], "dealer": 0, "schedule": [2]}
    code, (ann, bea, cal), _room = started_at(player, registry, "zero_game", options)
    for client, bid in ((bea, 1), (cal, 0), (ann, 0)):
        act(client, code, json.dumps({"type": "bid", "bid": bid}))
    assert last_action(ann, code) == "Ann bid 0."
    act(bea, code, json.dumps({"type": "play", "card": "AC"}))
    assert last_action(cal, code) == "Bea played the Ace of clubs."
    act(cal, code, json.dumps({"type": "play", "card": "KC"}))
    assert last_action(ann, code) == "Cal played the King of clubs."
    act(ann, code, json.dumps({"type": "play", "card": "2C"}))
    assert last_action(bea, code) == "Ann played the Two of clubs; Bea won the trick."
