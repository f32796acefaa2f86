"""Cabo's Easy bot: keep low cards, throw high ones, use powers simply, call Cabo when it looks low.

It decides from what its view shows right now: in memory mode that is only the cards whose sighting
has not yet run out, so it forgets as a hurried player does.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from zerogames.games import GAMES
from zerogames.games.base import State
from zerogames.games.cabo import CALLER_BEATEN, EMPTY, VALUE, total
from zerogames.games.cards import STANDARD_DECK

from .search import TIME_LIMIT

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


# Normal and Hard remember every card their seat has seen, and follow it when it moves: a view shows a
# card only while its sighting lasts, but a player who pays attention knows where it went.


class Memory:
    """Cards by board position ((seat, slot) to code) as last seen, and the discard pile."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.cards: dict[tuple[int, int], str] = {}
        self.pile: list[str] = []
        self.moment: Any = None

    def see(self, view: dict[str, Any]) -> None:
        moment = (
            view["round"],
            view["phase"],
            view["turn"],
            view["step"],
            view["discards"],
            view["deck"],
            repr(view["last"]),
            repr(view["hands"]),
        )
        if moment == self.moment:
            return
        self.moment = moment
        if view["round"] != self.round or view["phase"] == "peek":
            self.round, self.cards, self.pile = view["round"], {}, [view["discard"]]
        elif view["phase"] == "play":
            self.moved(view["last"], view["seat"])
            self.follow_pile(view)
        for seat, hand in enumerate(view["hands"]):
            for slot, card in enumerate(hand):
                if card == EMPTY:
                    self.cards.pop((seat, slot), None)
                elif card is not None:
                    self.cards[(seat, slot)] = card

    def moved(self, last: dict[str, Any] | None, me: int) -> None:
        """Follow the cards the last action moved (it is public which slots, if not which faces)."""
        if not last:
            return
        kind, seat = last["type"], last["seat"]
        if kind == "keep" and seat != me:
            self.cards.pop((seat, last["slot"]), None)
        elif kind == "take" and "card" in last:
            self.cards[(seat, last["slot"])] = last["card"]
        elif kind == "take":
            self.cards[(seat, last["slot"])] = self.pile[-1] if self.pile else None
        elif kind == "swap":
            a, b = tuple(last["a"]), tuple(last["b"])
            first, second = self.cards.pop(a, None), self.cards.pop(b, None)
            if first:
                self.cards[b] = first
            if second:
                self.cards[a] = second
        elif kind == "snap" and last["hit"]:
            self.cards.pop(tuple(last["target"]), None)
        elif kind == "give":
            card = self.cards.pop((seat, last["slot"]), None)
            if card:
                self.cards[tuple(last["to"])] = card

    def follow_pile(self, view: dict[str, Any]) -> None:
        """The discard pile, card by card: every card on it landed face up."""
        if view["discards"] == len(self.pile) + 1:
            self.pile.append(view["discard"])
        elif view["discards"] == len(self.pile) - 1:
            self.pile.pop()
        elif view["discards"] != len(self.pile):
            # Reshuffled into a new deck (or missed): only the top is known.
            self.pile = [view["discard"]]

    def remembered(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view with every remembered card face up where it now lies: what Easy would do if it
        remembered is then what Normal does."""
        hands = [
            [self.cards.get((seat, slot), card) if card is None else card for slot, card in enumerate(hand)]
            for seat, hand in enumerate(view["hands"])
        ]
        return {**view, "hands": hands, "hand": hands[view["seat"]]}


def reckoned(hand: list[str | None], unknown: float) -> float:
    """A hand's total as far as it is known, an unknown card counted at `unknown`."""
    return sum(unknown if card is None else VALUE[card] for card in hand if card != EMPTY)


def normal(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random
) -> dict | None:
    """Easy's play on the cards it remembers, calling Cabo once its hand looks lower than every other."""
    seen = memory.remembered(view)
    by_type = {action["type"] for action in legal}
    if "cabo" in by_type and calls_now(seen, memory):
        return next(action for action in legal if action["type"] == "cabo")
    action = choose(seen, [a for a in legal if a["type"] != "cabo"] or legal, "normal", rng)
    return action


def calls_now(view: dict[str, Any], memory: Memory) -> bool:
    """Call when the hand is surely low, or lower than every other hand as far as it is known."""
    unknown = unseen_mean(view, memory)
    mine = reckoned(view["hand"], unknown)
    others = [reckoned(hand, unknown) for seat, hand in enumerate(view["hands"]) if seat != view["seat"]]
    return mine <= SURELY_LOW or mine + MARGIN <= min(others)


# Call at once below this; else only with this lead over every other hand.
SURELY_LOW = 4
MARGIN = 4


def unseen_mean(view: dict[str, Any], memory: Memory) -> float:
    """The average value of the cards this seat has not placed."""
    placed = Counter(memory.cards.values()) + Counter(memory.pile)
    unseen = Counter(STANDARD_DECK) - placed
    total = sum(unseen.values())
    return sum(VALUE[card] * times for card, times in unseen.items()) / total if total else UNKNOWN_WORTH


# Hard: the round's one bold move is the call. Hard calls when, over deals of the cards it has not
# placed (dealt into every slot it does not remember, the rest left as the deck), its hand is lowest
# often enough once each other player has had a final turn (drawing a card from the deck, as the
# engine would deal it, in place of its highest card if lower) that calling scores better than playing
# on; every other move it plays as Normal, on what it remembers.

DEFAULT_BUDGET = 200
# Playing on, a hand is reckoned to lose about this much more by the round's end.
PLAYING_ON = 1.0
RULES = GAMES["cabo"]


def hard(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random, budget: int | None
) -> dict[str, Any] | None:
    call = next((action for action in legal if action["type"] == "cabo"), None)
    if call is None:
        return normal(view, legal, memory, rng)
    seen = memory.remembered(view)
    if call_pays(seen, memory, rng, budget or DEFAULT_BUDGET):
        return call
    return choose(seen, [action for action in legal if action is not call], "hard", rng)


def call_pays(view: dict[str, Any], memory: Memory, rng: random.Random, deals: int) -> bool:
    """Whether calling now scores less, on average over the deals, than playing on."""
    called, playing_on = call_or_play_on(view, memory, rng, deals)
    return called < playing_on


def call_or_play_on(
    view: dict[str, Any],
    memory: Memory,
    rng: random.Random,
    deals: int,
    time_limit: float | None = TIME_LIMIT,
) -> tuple[float, float]:
    """The points the seat may expect from calling now, and from playing on, over the deals (the ones
    played before `time_limit` ran out, if it did)."""
    seat = view["seat"]
    called = playing_on = 0.0
    dealt = 0
    stop = None if time_limit is None else time.perf_counter() + time_limit
    for _ in range(deals):
        state = sample_board(view, memory, rng)
        totals = [total(hand) for hand in state["hands"]]
        deck = list(state["deck"])
        for other, hand in enumerate(state["hands"]):
            values = [VALUE[card] for card in hand if card is not None]
            if other != seat and values and deck:
                totals[other] -= max(0, max(values) - VALUE[deck.pop()])
        mine = totals[seat]
        called += min(0, mine) if mine <= min(totals) else mine + CALLER_BEATEN
        playing_on += mine - PLAYING_ON
        dealt += 1
        if stop is not None and time.perf_counter() > stop:
            break
    return called / max(1, dealt), playing_on / max(1, dealt)


# What `values` reckons in: the round's points, fewer is better (so counted negative).
VALUES_IN = "points the hand is expected to end the round on, counted negative"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    time_limit: float | None = TIME_LIMIT,
) -> list[float] | None:
    """Hard's one search, when Cabo may be called: minus the points calling may be expected to bring,
    and for every other move minus those of playing on (Hard weighs no other move: it plays them as
    Normal does); None when there is no call to weigh."""
    if not any(action["type"] == "cabo" for action in legal):
        return None
    called, playing_on = call_or_play_on(
        memory.remembered(view), memory, rng, budget or DEFAULT_BUDGET, time_limit
    )
    return [-called if action["type"] == "cabo" else -playing_on for action in legal]


def sample_board(view: dict[str, Any], memory: Memory, rng: random.Random) -> State:
    """The board as it may be: remembered cards where they lie, the others and the deck drawn from the
    cards not placed."""
    seen = memory.remembered(view)
    placed = [card for hand in seen["hands"] for card in hand if card not in (None, EMPTY)]
    placed += memory.pile + ([view["drawn"]] if view["drawn"] else [])
    unseen = list((Counter(STANDARD_DECK) - Counter(placed)).elements())
    rng.shuffle(unseen)
    hands = []
    for hand in seen["hands"]:
        cards = []
        for card in hand:
            if card == EMPTY:
                cards.append(None)
            elif card is None:
                cards.append(unseen.pop() if unseen else "2C")
            else:
                cards.append(card)
        hands.append(tuple(cards))
    template = RULES.new_game(view["players"], 0, {"dealer": view["dealer"], "memory": False})
    return {
        **template,
        "hands": tuple(hands),
        "pile": tuple(memory.pile),
        "deck": tuple(unseen[: view["deck"]]),
        "phase": "play",
        "peeks": ((0, 1),) * view["players"],
        "turn": view["turn"],
        "step": view["step"],
        "drawn": view["drawn"],
        "power": None,
        "window": False,
        "handover": None,
        "caller": view["caller"],
        "sightings": (),
    }


# The simulator's figure: points per round; it also counts Cabo calls and calls won.
FIGURE = "mean round points"
COUNTED: tuple[str, ...] = ("calls", "calls_won")


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    history = rules.view(state, None)["history"]
    return sum(summary["points"][seat] for summary in history), len(history)
