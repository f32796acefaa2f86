"""Cabo's Easy bot: keep low cards, throw high ones, use powers simply, call Cabo when it looks low.

It decides from what its view shows right now: in memory mode that is only the cards whose sighting
has not yet run out, so it forgets as a hurried player does.
"""

from __future__ import annotations

import random
from typing import Any

from zerogames.games.cabo import EMPTY, VALUE

# A card this low is worth taking from the pile or keeping in place of an unknown card.
LOW = 3
KEEP_OVER_UNKNOWN = 5
# What an unseen card of one's own is reckoned to be worth.
UNKNOWN_WORTH = 5
# Call Cabo when the reckoned total is this low; now and then call anyway, so that rounds end.
CALL_AT = 8
CALL_ANYWAY = 0.03


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any] | None:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "peek" in by_type:
        return by_type["peek"][0]
    if "give" in by_type:
        return give(view, by_type["give"], rng)
    if "keep" in by_type:
        return keep_or_discard(view, by_type, rng)
    if "look" in by_type or "swap" in by_type:
        return use_power(view, by_type, rng)
    snap = sure_snap(view, by_type.get("snap", []))
    if snap is not None:
        return snap
    if "draw" in by_type:
        return start_turn(view, by_type, rng)
    # Only snaps are left and none is sure: a person would keep their hands still, and so does the bot.
    return None


def known(view: dict[str, Any]) -> dict[int, int]:
    """The values of its own cards it sees now, by slot."""
    return {slot: VALUE[card] for slot, card in enumerate(view["hand"]) if card not in (None, EMPTY)}


def unknown(view: dict[str, Any]) -> list[int]:
    return [slot for slot, card in enumerate(view["hand"]) if card is None]


def place_for(view: dict[str, Any], value: int, rng: random.Random) -> int | None:
    """The slot a card of this value should go to: over its highest known card if higher, else over
    an unknown card if the new one is low; None to let it go."""
    values = known(view)
    highest = max(values, key=values.__getitem__, default=None)
    if highest is not None and values[highest] > max(value, KEEP_OVER_UNKNOWN):
        return highest
    blind = unknown(view)
    if blind and value <= KEEP_OVER_UNKNOWN:
        return rng.choice(blind)
    if highest is not None and values[highest] > value:
        return highest
    return None


def give(view: dict[str, Any], gives: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Hand over its highest known card if it is no better than an unknown one, else an unknown one."""
    values = known(view)
    blind = [action for action in gives if action["slot"] not in values]
    seen = [action for action in gives if action["slot"] in values]
    if seen:
        highest = max(seen, key=lambda action: values[action["slot"]])
        if values[highest["slot"]] >= UNKNOWN_WORTH or not blind:
            return highest
    return rng.choice(blind)


def start_turn(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    values = known(view)
    reckoned = sum(values.values()) + UNKNOWN_WORTH * len(unknown(view))
    if "cabo" in by_type and (reckoned <= CALL_AT or rng.random() < CALL_ANYWAY):
        return by_type["cabo"][0]
    top = VALUE[view["discard"]]
    if top <= LOW:
        slot = place_for(view, top, rng)
        for action in by_type.get("take", []):
            if action["slot"] == slot:
                return action
    return by_type["draw"][0]


def keep_or_discard(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    slot = place_for(view, VALUE[view["drawn"]], rng)
    for action in by_type["keep"]:
        if action["slot"] == slot:
            return action
    return by_type["discard"][0]


def use_power(view: dict[str, Any], by_type: dict[str, list], rng: random.Random) -> dict[str, Any]:
    """Look at an unknown card of its own if it may, else at anyone's; swap only a sure gain."""
    seat = view["seat"]
    looks = by_type.get("look", [])
    if looks:
        blind = set(unknown(view))
        own = [look for look in looks if look["seat"] == seat and look["slot"] in blind]
        return rng.choice(own or looks)
    swap = good_swap(view, by_type.get("swap", []))
    return swap if swap is not None else by_type["skip"][0]


def good_swap(view: dict[str, Any], swaps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Its highest known card for a lower card it sees in another hand."""
    seat = view["seat"]
    values = known(view)
    if not values:
        return None
    mine = max(values, key=values.__getitem__)
    lower = [
        (VALUE[card], other, slot)
        for other, hand in enumerate(view["hands"])
        if other != seat
        for slot, card in enumerate(hand)
        if card not in (None, EMPTY) and VALUE[card] < values[mine]
    ]
    if not lower:
        return None
    best = min(lower)[1:]
    for swap in swaps:
        if {tuple(swap["a"]), tuple(swap["b"])} == {(seat, mine), best}:
            return swap
    return None


def sure_snap(view: dict[str, Any], snaps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A snap of a card it sees with the top discard's rank: its own first, then another's."""
    rank = view["discard"][0]
    seat = view["seat"]
    sure = [
        action
        for action in snaps
        if (card := view["hands"][action["seat"]][action["slot"]]) not in (None, EMPTY) and card[0] == rank
    ]
    sure.sort(key=lambda action: action["seat"] != seat)
    return sure[0] if sure else None


# The simulator's figure: points per round; it also counts Cabo calls and calls won.
FIGURE = "mean round points"
COUNTED: tuple[str, ...] = ("calls", "calls_won")


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    history = rules.view(state, None)["history"]
    return sum(summary["points"][seat] for summary in history), len(history)
