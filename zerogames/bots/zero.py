"""Zero's Easy bot: play a 0 when it can, guess its own card plus the others' expected cards, save all."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from zerogames.games import GAMES
from zerogames.games.base import State
from zerogames.games.zero import DECK

from .search import best_by_deals


def unseen_mean(view: dict[str, Any]) -> float:
    """The average value of the cards this seat cannot see: the deck less its hand, card and safe sets."""
    unseen = Counter(DECK)
    unseen.subtract(view["hand"])
    if view["played_card"] is not None:
        unseen[view["played_card"]] -= 1
    for sets in view["safe"]:
        for cards in sets:
            unseen.subtract(cards)
    count = sum(unseen.values())
    return sum(value * times for value, times in unseen.items()) / count if count else 0.0


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    kind = legal[0]["type"]
    if kind == "play":
        # A lone 0 takes every card when nobody guesses right: the cheapest way to win cards.
        zero = [action for action in legal if action["card"] == 0]
        return zero[0] if zero else rng.choice(legal)
    if kind == "guess":
        expected = view["played_card"] + (view["players"] - 1) * unseen_mean(view)
        return min(legal, key=lambda action: (abs(action["total"] - expected), rng.random()))
    # Safe sets: the largest first (each card is a point), then done when none is left to lay.
    sets = [action for action in legal if action["type"] == "safe"]
    return max(sets, key=lambda action: len(action["cards"])) if sets else legal[-1]


# Normal and Hard remember where revealed cards went: a player who took the played cards holds them
# until they are seen again (played, or laid in a safe set).


class Memory:
    """The cards each other seat is known to hold."""

    def __init__(self) -> None:
        self.held: dict[int, Counter] = {}
        self.reveals_seen: int | None = None
        self.sets_seen: list[int] = []

    def see(self, view: dict[str, Any]) -> None:
        seat, players = view["seat"], view["players"]
        if not self.held:
            self.held = {other: Counter() for other in range(players) if other != seat}
            self.sets_seen = [len(sets) for sets in view["safe"]]
        reveal = view["reveal"]
        if reveal is not None and reveal["trick"] != self.reveals_seen:
            self.reveals_seen = reveal["trick"]
            self.revealed(reveal, seat)
        for other, sets in enumerate(view["safe"]):
            for laid in sets[self.sets_seen[other] :]:
                if other != seat:
                    self.held[other].subtract(laid)
                    self.held[other] = +self.held[other]
            self.sets_seen[other] = len(sets)

    def revealed(self, reveal: dict[str, Any], seat: int) -> None:
        cards = reveal["cards"]
        for other, card in enumerate(cards):
            if other != seat and self.held[other][card] > 0:
                self.held[other][card] -= 1
        taker = reveal["taker"]
        if taker is not None and taker != seat:
            self.held[taker].update(cards)
        elif taker is None:
            for other in reveal["zeros"]:
                if other != seat:
                    self.held[other][0] += 1

    def unseen(self, view: dict[str, Any]) -> Counter:
        """The cards this seat cannot place: the deck less its hand, its card, the safe sets and the
        cards it knows the others hold."""
        unseen = Counter(DECK)
        unseen.subtract(view["hand"])
        if view["played_card"] is not None:
            unseen[view["played_card"]] -= 1
        for sets in view["safe"]:
            for cards in sets:
                unseen.subtract(cards)
        for held in self.held.values():
            unseen.subtract(held)
        return +unseen


def others_cards(view: dict[str, Any], memory: Memory, rng: random.Random) -> dict[int, list[int]]:
    """One deal of the other hands (before this trick's play): each its known cards, the rest drawn
    from the unseen ones."""
    seat = view["seat"]
    pool = list(memory.unseen(view).elements())
    rng.shuffle(pool)
    hands = {}
    for other in range(view["players"]):
        if other == seat:
            continue
        size = view["hand_sizes"][other] + (1 if view["has_played"][other] else 0)
        known = list(memory.held[other].elements())[:size]
        more = size - len(known)
        hands[other] = known + pool[:more]
        pool = pool[more:]
    return hands


def likeliest_guess(legal: list[dict[str, Any]], totals: Counter, rng: random.Random) -> dict[str, Any]:
    """The guess most often right in the sampled totals (the nearest to their middle on a tie)."""
    middle = sum(total * times for total, times in totals.items()) / max(1, sum(totals.values()))
    return max(legal, key=lambda action: (totals[action["total"]], -abs(action["total"] - middle)))


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """Easy's plays and safe sets; a guess that is the likeliest total of the cards played, each other
    player's card drawn from the cards it is known to hold and the unseen ones."""
    if legal[0]["type"] != "guess":
        return choose(view, legal, "normal", rng)
    totals: Counter = Counter()
    for _ in range(NORMAL_SAMPLES):
        hands = others_cards(view, memory, rng)
        totals[view["played_card"] + sum(rng.choice(hand) for hand in hands.values())] += 1
    return likeliest_guess(legal, totals, rng)


NORMAL_SAMPLES = 200


# Hard: deals of the other hands as Normal draws them, each weighed by how well it explains the guesses
# already made (a player guesses near their own card plus what the others' cards are worth on
# average); a card to play is tried on each deal with the engine, the others guessing as Easy does.

DEFAULT_BUDGET = 24
GUESS_SAMPLES = 400
# How far a player's guess strays from their own card plus the others' average, typically.
GUESS_SPREAD = 2.5
RULES = GAMES["zero"]


def hard(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random, budget: int | None
) -> dict[str, Any]:
    if len(legal) == 1 or legal[0]["type"] == "safe":
        return choose(view, legal, "hard", rng)
    if legal[0]["type"] == "guess":
        return hard_guess(view, legal, memory, rng)
    seat = view["seat"]

    def outcome(state: State, action: dict[str, Any]) -> float:
        return trick_gain(RULES.apply(state, seat, action), seat, rng)

    chosen = best_by_deals(legal, lambda: sample_trick(view, memory, rng), outcome, budget or DEFAULT_BUDGET)
    return chosen or choose(view, legal, "hard", rng)


def hard_guess(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    average = unseen_mean(view) * (view["players"] - 1)
    totals: Counter = Counter()
    for _ in range(GUESS_SAMPLES):
        hands = others_cards(view, memory, rng)
        cards = {other: rng.choice(hand) for other, hand in hands.items()}
        weight = 1.0
        for guesser, said in view["guesses"]:
            weight *= math.exp(-(((said - cards[guesser] - average) / GUESS_SPREAD) ** 2) / 2)
        totals[view["played_card"] + sum(cards.values())] += weight
    return likeliest_guess(legal, totals, rng)


def sample_trick(view: dict[str, Any], memory: Memory, rng: random.Random) -> State:
    """This trick as it may be, the others' cards already played from their sampled hands."""
    seat, players = view["seat"], view["players"]
    hands = others_cards(view, memory, rng)
    played: list[int | None] = [None] * players
    held: list[tuple[int, ...]] = [()] * players
    for other, hand in hands.items():
        if view["has_played"][other]:
            at = rng.randrange(len(hand))
            played[other] = hand[at]
            hand = hand[:at] + hand[at + 1 :]
        held[other] = tuple(sorted(hand))
    held[seat] = tuple(view["hand"])
    rest = list((memory.unseen(view) - Counter(card for hand in hands.values() for card in hand)).elements())
    rng.shuffle(rest)
    return {
        "players": players,
        "seed": 0,
        "trick": view["trick"],
        "first_guesser": view["first_guesser"],
        "hands": tuple(held),
        "pile": tuple(rest[: view["pile_size"]]),
        "safe": tuple(tuple(tuple(cards) for cards in sets) for sets in view["safe"]),
        "reveal": None,
        "last": None,
        "end": None,
        "phase": "play",
        "turn": None,
        "played": tuple(played),
        "guesses": (),
    }


def trick_gain(state: State, seat: int, rng: random.Random) -> float:
    """Play the trick out with the engine (the others play their cards as Easy, everyone guesses as
    Easy, the taker lays sets as Easy): this seat's safe cards gained, and half the cards it took."""
    players = state["players"]
    for other in range(players):
        if state["played"][other] is None and other != seat:
            state = RULES.apply(
                state, other, choose(bare_view(state, other), RULES.legal_actions(state, other), "easy", rng)
            )
    start = state["trick"]
    before = (RULES.scores(state)[seat], len(state["hands"][seat]))
    while state["phase"] != "over" and state["trick"] == start:
        turn = state["turn"]
        legal = RULES.legal_actions(state, turn)
        state = RULES.apply(state, turn, choose(bare_view(state, turn), legal, "easy", rng))
    return RULES.scores(state)[seat] - before[0] + 0.5 * (len(state["hands"][seat]) - before[1])


def bare_view(state: State, seat: int) -> dict[str, Any]:
    """What Easy reads of a view, from a play-out's state."""
    return {
        "hand": state["hands"][seat],
        "played_card": state["played"][seat],
        "safe": state["safe"],
        "players": state["players"],
    }


# The simulator's figure: safe cards per game.
FIGURE = "safe cards/game"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    return rules.figures(state)[seat]["safe_cards"], 1
