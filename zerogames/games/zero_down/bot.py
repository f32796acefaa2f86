"""Zero Down's Easy bot: swap to shed high lone numbers and grow five-sets; knock once the hand is good."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..base import State

# How long its seat may think (zerogames.bots), whatever the budget.
from ..search import TIME_LIMIT as TIME_LIMIT
from ..search import OutOfTime, best, mean_by_deals
from .rules import (
    COLOUR,
    COLOUR_TALLY,
    DECK,
    NUMBER,
    NUMBER_TALLY,
    NUMBERS,
    RULES,
    SET_SIZE,
    fan,
    hand_points,
    is_zero,
)

# A hand scoring this little is worth ending the round on.
GOOD_ENOUGH = 3
# A swap must gain at least this much to be worth a turn.
WORTH_IT = 1


# A tally holds each colour's (or number's) count in a 4-bit field (the engine's COLOUR_TALLY): Hard's
# play-outs weigh hands by the thousand, and a tally is the quick way to count them.
FIELDS = range(0, 4 * len(NUMBERS), 4)


def most_held(tally: int) -> int:
    """The largest count in a colour or number tally."""
    return max((tally >> shift) & 15 for shift in FIELDS)


def worth(hand: Sequence[str]) -> int:
    """Lower is better: the hand's points, less how far its biggest colour and number go towards five."""
    colours = most_held(sum(map(COLOUR_TALLY.__getitem__, hand)))
    numbers = most_held(sum(map(NUMBER_TALLY.__getitem__, hand)))
    return hand_points(hand) - min(colours, SET_SIZE) - min(numbers, SET_SIZE)


def after_swap(hand: Sequence[str], action: dict[str, Any]) -> list[str]:
    return [*(card for card in hand if card != action["give"]), action["take"]]


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    hand = view["hand"]
    knock = next(action for action in legal if action["type"] == "knock")
    swaps = [action for action in legal if action["type"] == "swap"]
    if not swaps:
        return knock
    best = min(swaps, key=lambda action: worth(after_swap(hand, action)))
    gain = worth(hand) - worth(after_swap(hand, best))
    if gain < WORTH_IT:
        return knock
    # A good hand knocks to close the round, unless the final turns have begun (a knock is then only a
    # pass, so an improving swap costs nothing) or the swap makes a ZERO.
    if view["phase"] != "final" and hand_points(hand) <= GOOD_ENOUGH and not is_zero(after_swap(hand, best)):
        return knock
    return best


# Normal and Hard remember every swap of the round: the cards a player took and still holds are known.


class Memory:
    """The cards each other seat is known to hold this round (taken from the pool, not given back)."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.held: dict[int, set[str]] = {}
        self.seen: tuple | None = None

    def see(self, view: dict[str, Any]) -> None:
        # A table is one moment: every swap changes the pool, every knock the turn.
        moment = (view["round"], tuple(view["pool"]), view["turn"], len(view["knocks"]), view["phase"])
        if moment == self.seen:
            return
        self.seen = moment
        if view["round"] != self.round:
            self.round, self.held = view["round"], {seat: set() for seat in range(view["players"])}
            return
        last = view["last"]
        if last and last["type"] == "swap" and last["seat"] != view["seat"]:
            self.held[last["seat"]].discard(last["give"])
            self.held[last["seat"]].add(last["take"])


# The chance that a colour or number held so many times becomes a five-set before the round ends.
COMPLETES = {3: 0.25, 4: 0.55}
# The chance that a card stays counted, by how many of its colour (or number) a tally field holds: a
# five-set sets it aside for sure.
STAYS = [1 - (1.0 if count >= SET_SIZE else COMPLETES.get(count, 0.0)) for count in range(16)]
# Where a card's colour and number are counted in a tally.
COLOUR_FIELD = {card: COLOUR_TALLY[card].bit_length() - 1 for card in DECK}
NUMBER_FIELD = {card: NUMBER_TALLY[card].bit_length() - 1 for card in DECK}


def expected_points(hand: Sequence[str]) -> float:
    """Normal's yardstick, lower is better: the points the hand may end on, each number weighed by the
    chance that one of its cards is still counted (not set aside by a colour or number five-set that
    three or four cards already point to)."""
    colours = sum(map(COLOUR_TALLY.__getitem__, hand))
    numbers = sum(map(NUMBER_TALLY.__getitem__, hand))
    aside: dict[int, float] = {}
    for card in hand:
        number = NUMBER[card]
        kept = STAYS[(colours >> COLOUR_FIELD[card]) & 15] * STAYS[(numbers >> NUMBER_FIELD[card]) & 15]
        aside[number] = aside.get(number, 1.0) * (1 - kept)
    return sum(number * (1 - all_aside) for number, all_aside in aside.items())


def wanted(cards: Sequence[str]) -> tuple[set[str], set[int]]:
    """The colours and numbers a hand collects: those it holds three or more of."""
    colours = [COLOUR[card] for card in cards]
    numbers = [NUMBER[card] for card in cards]
    return {c for c in colours if colours.count(c) >= 3}, {n for n in numbers if numbers.count(n) >= 3}


def feeds(card: str, memory: Memory, seat: int) -> int:
    """How many other seats collect what this card is (by the cards they were seen taking)."""
    count = 0
    for other, held in memory.held.items():
        if other != seat and len(held) >= 2:
            colours, numbers = wanted(list(held))
            count += COLOUR[card] in colours or NUMBER[card] in numbers
    return count


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """The swap that leaves the fewest points to be expected, a card fed to a player seen collecting its
    colour or number counting against it; a good hand knocks, sooner once someone has knocked."""
    hand, seat = view["hand"], view["seat"]
    knock = next(action for action in legal if action["type"] == "knock")
    swaps = [action for action in legal if action["type"] == "swap"]
    if not swaps:
        return knock
    best = min(swaps, key=lambda action: normal_worth(after_swap(hand, action), action, memory, seat))
    gain = expected_points(hand) - normal_worth(after_swap(hand, best), best, memory, seat)
    points = hand_points(hand)
    if is_zero(after_swap(hand, best)):
        return best
    if view["phase"] != "final" and points <= GOOD_ENOUGH + (2 if view["knocks"] else 0):
        return knock
    return best if gain > 0 else knock


def normal_worth(hand: Sequence[str], swap: dict[str, Any], memory: Memory, seat: int) -> float:
    """A swap's result by Normal's yardstick, less for every player the card put down would feed."""
    return expected_points(hand) + feeds(swap["give"], memory, seat)


# Hard: for its likeliest moves, deals of the cards it cannot see (the other hands, less what each was
# seen taking, and the cards out of the round), each played on with the engine until its next turn (or
# the round's end) by the others as Easy plays; a move is worth what its hand is then worth.

DEFAULT_BUDGET = 8
# The moves Hard weighs: Normal's best few swaps, and the knock.
CANDIDATES = 4


def hard(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> dict[str, Any]:
    candidates = shortlist(view, legal, memory)
    if len(candidates) == 1:
        return candidates[0]
    means = values(view, candidates, memory, rng, budget, out_of_time)
    return best(candidates, means) if means else normal(view, legal, memory, rng)


def shortlist(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory) -> list[dict[str, Any]]:
    """The moves Hard weighs: a swap that makes the hand zero, alone; else the knock and Normal's best
    few swaps (the only move when there is no swap)."""
    hand, seat = view["hand"], view["seat"]
    swaps = [action for action in legal if action["type"] == "swap"]
    winning = next((action for action in swaps if is_zero(after_swap(hand, action))), None)
    if winning is not None or not swaps:
        return [winning or legal[0]]
    ranked = sorted(swaps, key=lambda action: normal_worth(after_swap(hand, action), action, memory, seat))
    return [next(action for action in legal if action["type"] == "knock"), *ranked[:CANDIDATES]]


# What `values` reckons in: the round's points the hand may be expected to end on, less is better
# (so counted negative).
VALUES_IN = "points the hand is expected to end the round on, counted negative"


def values(
    view: dict[str, Any],
    actions: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each of these actions' worth over Hard's deals: minus the points the hand is expected to end on
    (Hard weighs its shortlist; an analysis also the move the player made)."""
    seat = view["seat"]

    def outcome(state: State, action: dict[str, Any]) -> float:
        return -hand_worth_later(RULES.apply(state, seat, action), seat, rng)

    return mean_by_deals(
        actions, lambda: sample_table(view, memory, rng), outcome, budget or DEFAULT_BUDGET, out_of_time
    )


def sample_table(view: dict[str, Any], memory: Memory, rng: random.Random) -> State:
    """The round as it may be now: each other hand its known cards and unseen ones; a one-round game,
    so that the round's end is the game's."""
    seat, players = view["seat"], view["players"]
    unseen = [card for card in DECK if card not in set(view["hand"]) | set(view["pool"])]
    known = {card for other, held in memory.held.items() if other != seat for card in held}
    unseen = [card for card in unseen if card not in known]
    rng.shuffle(unseen)
    hands = []
    for other in range(players):
        if other == seat:
            hands.append(tuple(view["hand"]))
            continue
        held = list(memory.held.get(other, ()))
        more = view["hand_sizes"][other] - len(held)
        hands.append(fan([*held, *unseen[:more]]))
        unseen = unseen[more:]
    state = RULES.new_game(players, 0, {"dealer": view["dealer"], "pool": 5 if len(view["pool"]) != 7 else 7})
    return {
        **state,
        "rounds": 1,
        "hands": tuple(hands),
        "pool": tuple(view["pool"]),
        "out": tuple(unseen),
        "knocks": tuple(view["knocks"]),
        "final_turns": tuple(view["final_turns"]),
        "turn": view["turn"],
        "phase": view["phase"],
    }


def hand_worth_later(state: State, seat: int, rng: random.Random) -> float:
    """The others play as Easy until this seat's next turn; then the points its hand may be expected
    to end on after that turn's best swap, or its points if the round has ended."""
    while state["phase"] != "over" and state["turn"] != seat:
        other = state["turn"]
        legal = RULES.legal_actions(state, other)
        bare = {"hand": state["hands"][other], "phase": state["phase"]}
        state = RULES.apply(state, other, choose(bare, legal, "easy", rng))
    if state["phase"] == "over":
        return RULES.scores(state)[seat]
    hand = state["hands"][seat]
    # Its next turn's best swap from the pool as the others left it, if one improves the hand.
    return min(
        expected_points(hand),
        *(expected_points(after_swap(hand, action)) for action in RULES.legal_actions(state, seat)[:-1]),
    )


# The simulator's figure: penalty points per round.
FIGURE = "mean round score"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    taken = rules.figures(state)[seat]
    return taken["points"], taken["rounds"]
