"""Zero's bots. Easy plays a 0 when it can, guesses its own card plus the others' expected cards and
lays the largest set first. Normal also remembers who holds what, reads the earlier guesses and lays
the most cards it can; Hard also learns how each player guesses and tries its cards on sampled deals."""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from typing import Any

from ..base import State

# How long its seat may think (zerogames.bots), whatever the budget.
from ..search import TIME_LIMIT as TIME_LIMIT
from ..search import OutOfTime, best, mean_by_deals
from .rules import DECK, DONE, GUESSES, RULES, safe_sets


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
# until they are seen again (played, or laid in a safe set). Hard also remembers how each player
# guesses: from their card and the average alone, or also reading the guesses made before theirs.


class Memory:
    """The cards each other seat is known to hold, and how each of them has been seen to guess."""

    def __init__(self) -> None:
        self.held: dict[int, Counter] = {}
        self.reveals_seen: int | None = None
        self.sets_seen: list[int] = []
        # By seat: the guesses that the plain aim explained better, and those the reading aim did.
        self.styles: dict[int, list[int]] = {}

    def see(self, view: dict[str, Any]) -> None:
        seat, players = view["seat"], view["players"]
        if not self.held:
            self.held = {other: Counter() for other in range(players) if other != seat}
            self.styles = {other: [0, 0] for other in self.held}
            self.sets_seen = [len(sets) for sets in view["safe"]]
        reveal = view["reveal"]
        if reveal is not None and reveal["trick"] != self.reveals_seen:
            self.reveals_seen = reveal["trick"]
            self.revealed(reveal, seat)
            self.read_styles(reveal, seat, players, public_mean(view))
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

    def read_styles(self, reveal: dict[str, Any], seat: int, players: int, mean: float) -> None:
        """With the cards face up, which aim each guess after the first came nearer to."""
        guesses = reveal["guesses"]
        for at, (guesser, said) in enumerate(guesses):
            if guesser == seat or not at:
                continue
            card = reveal["cards"][guesser]
            plain = abs(said - plain_aim(card, players - 1, mean))
            reading = abs(said - reading_aim(card, guesses[:at], players - 1, mean))
            if abs(plain - reading) > STYLE_MARGIN:
                self.styles[guesser][plain > reading] += 1

    def reading_share(self, other: int) -> float:
        """How likely this player is to read the earlier guesses: one in four before any evidence, as
        most players (Easy's included) guess from their own card and the average."""
        plain, reading = self.styles[other]
        return (reading + 1) / (plain + reading + 4)

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


# A guess counts for a style only when it lies nearer that style's aim than the other's by more than this.
STYLE_MARGIN = 0.5


def in_play(view: dict[str, Any]) -> tuple[int, int]:
    """The total value and the number of the cards not yet laid in safe sets."""
    laid = [card for sets in view["safe"] for cards in sets for card in cards]
    return DECK_SUM - sum(laid), len(DECK) - len(laid)


def public_mean(view: dict[str, Any]) -> float:
    """The average value of the cards not yet laid in safe sets."""
    value, count = in_play(view)
    return value / max(1, count)


def plain_aim(card: int, others: int, mean: float) -> float:
    """A guess from one's own card and the average of the others' cards (as Easy guesses)."""
    return card + others * mean


def reading_aim(card: int, earlier: list | tuple, others: int, mean: float) -> float:
    """A guess that also takes each earlier guess to tell that guesser's card (a plain guess, undone)."""
    told = sum(max(-3.0, min(3.0, said - plain_aim(0, others, mean))) for _, said in earlier)
    return card + told + (others - len(earlier)) * mean


def nearest_free(aim: float, said: set[int], bound: int) -> int:
    """The total a player aiming at `aim` says: the nearest one nobody has said yet, within the bound."""
    near, reach = max(-bound, min(bound, round(aim))), len(said) + 1
    totals = range(max(-bound, near - reach), min(bound, near + reach) + 1)
    return min((total for total in totals if total not in said), key=lambda total: abs(total - aim))


@lru_cache(maxsize=1 << 14)
def most_laid(hand: tuple[int, ...]) -> int:
    """The most cards that disjoint safe sets from `hand` (sorted) can hold: the points it can bank now."""
    return max((len(cards) + most_laid(rest(hand, cards)) for cards in safe_sets(hand)), default=0)


def rest(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """`hand` (sorted) less `cards`."""
    left = Counter(hand)
    left.subtract(cards)
    return tuple(sorted(left.elements()))


def lay_most(legal: list[dict[str, Any]], hand: tuple[int, ...]) -> dict[str, Any]:
    """The safe set that starts a way of laying the most cards of the hand; done when none is left.
    Each card laid is a point that can no longer be lost, so no set is held back."""
    sets = [action for action in legal if action["type"] == "safe"]
    if not sets:
        return legal[-1]
    return max(sets, key=lambda action: len(action["cards"]) + most_laid(rest(hand, tuple(action["cards"]))))


def others_cards(
    view: dict[str, Any], memory: Memory, unseen: list[int], rng: random.Random
) -> tuple[dict[int, list[int]], list[int]]:
    """One deal of the other hands (before this trick's play): each its known cards, the rest drawn
    from the `unseen` ones (see Memory.unseen); and the unseen cards left over, in a random order."""
    seat = view["seat"]
    pool = unseen[:]
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
    return hands, pool


def likely_play(hand: list[int], rng: random.Random) -> int:
    """A card a player may play, drawn by its odds (see `played_odds`)."""
    odds = played_odds(hand)
    return rng.choices(list(odds), weights=list(odds.values()))[0]


def likeliest_guess(legal: list[dict[str, Any]], totals: Counter) -> dict[str, Any]:
    """The guess most often right in the sampled totals (the nearest to their middle on a tie)."""
    middle = sum(total * times for total, times in totals.items()) / max(1, sum(totals.values()))
    return max(legal, key=lambda action: (totals[action["total"]], -abs(action["total"] - middle)))


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """Easy's plays; a guess that reads the earlier guesses as plain ones; the most cards laid."""
    kind = legal[0]["type"]
    if kind == "safe":
        return lay_most(legal, tuple(view["hand"]))
    if kind == "guess":
        return guess_from_deals(view, legal, memory, rng, NORMAL_SAMPLES, reads_styles=False)
    return choose(view, legal, "normal", rng)


def guess_from_deals(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    samples: int,
    reads_styles: bool,
) -> dict[str, Any]:
    """The likeliest total over sampled deals of the other hands (`total_chances`)."""
    return likeliest_guess(legal, total_chances(view, memory, rng, samples, reads_styles))


def total_chances(
    view: dict[str, Any], memory: Memory, rng: random.Random, samples: int, reads_styles: bool
) -> Counter:
    """How likely each total is, weighed over sampled deals of the other hands. In each deal, every
    card a player may have played is weighed by how well it explains their guess, if they made one: a
    player guesses the nearest free total to what they aim at, their card and the others' average as
    they see it (plain), or also the earlier guesses read as plain ones. Hard weighs the two by what
    it has seen of each player; Normal takes everyone to be plain."""
    others, bound = view["players"] - 1, view["guess_range"][1]
    mean = public_mean(view)
    # A guesser's average leaves out their own hand, known in each deal.
    unseen_sum, unseen_count = in_play(view)
    guesses = view["guesses"]
    # Each guess so far: the guesses made before it, and the aims from which it was the nearest free total.
    said = {
        guesser: (guesses[:at], aims_saying(total, {taken for _, taken in guesses[:at]}, bound))
        for at, (guesser, total) in enumerate(guesses)
    }
    shares = {other: memory.reading_share(other) if reads_styles else 0.0 for other in memory.held}
    unseen = list(memory.unseen(view).elements())
    totals: Counter = Counter()
    for _ in range(samples):
        weight, spread = 1.0, {view["played_card"]: 1.0}
        for other, hand in others_cards(view, memory, unseen, rng)[0].items():
            odds = played_odds(hand)
            if other in said:
                earlier, aims = said[other]
                average = (unseen_sum - sum(hand)) / max(1, unseen_count - len(hand))
                for card in odds:
                    likelihood = (1 - shares[other]) * aimed_within(plain_aim(card, others, average), aims)
                    if shares[other]:
                        likelihood += shares[other] * aimed_within(
                            reading_aim(card, earlier, others, mean), aims
                        )
                    odds[card] *= likelihood + GUESS_FLOOR
                explained = sum(odds.values())
                weight *= explained
                odds = {card: chance / explained for card, chance in odds.items()}
            spread = add_card(spread, odds)
        for total, chance in spread.items():
            totals[total] += weight * chance
    return totals


def aims_saying(total: int, taken: set[int], bound: int) -> tuple[float, float]:
    """The aims from which `total` is the nearest free total: halfway to the free totals either side."""
    below = next((free for free in range(total - 1, -bound - 1, -1) if free not in taken), None)
    above = next((free for free in range(total + 1, bound + 1) if free not in taken), None)
    low = -math.inf if below is None else (below + total) / 2
    high = math.inf if above is None else (total + above) / 2
    return low, high


def aimed_within(aim: float, aims: tuple[float, float]) -> float:
    """How likely a player's true aim lies within `aims` when our reckoning of it is `aim`."""
    low, high = aims
    return (
        math.erf((high - aim) / GUESS_SPREAD / math.sqrt(2))
        - math.erf((low - aim) / GUESS_SPREAD / math.sqrt(2))
    ) / 2


def played_odds(hand: list[int]) -> dict[int, float]:
    """How likely each card of a hand is to be the one played: a 0 most often when there is one (it
    comes back unless someone guesses right), else any card alike."""
    counts = Counter(hand)
    rest = 1 - ZERO_PLAYED if 0 in counts else 1.0
    odds = {card: rest * times / len(hand) for card, times in counts.items()}
    if 0 in counts:
        odds[0] += ZERO_PLAYED
    return odds


def add_card(spread: dict[int, float], odds: dict[int, float]) -> dict[int, float]:
    """The chances of each total once one more card, with these odds, is added."""
    added: dict[int, float] = {}
    for total, chance in spread.items():
        for card, odd in odds.items():
            added[total + card] = added.get(total + card, 0.0) + chance * odd
    return added


# Deals a guess is drawn from: each weighs every card a player may hold, so a few dozen already tell.
NORMAL_SAMPLES = 50
GUESS_SAMPLES = 100
# How far our reckoning of a player's aim strays from theirs, typically (their average depends on
# cards we do not see), and the weight left to a guess that no style explains (another kind of player).
GUESS_SPREAD = 0.5
GUESS_FLOOR = 0.01
# How often a player who holds a 0 plays it (Easy and Normal always do).
ZERO_PLAYED = 0.8
DECK_SUM = sum(DECK)


# Hard: each card it may play is tried on sampled deals of the other hands (each other player plays
# a likely card), the trick played out with the engine (see `rollout_action`); it guesses like Normal
# but also reads each player's style, and lays the most cards.

DEFAULT_BUDGET = 100


def hard(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> dict[str, Any]:
    kind = legal[0]["type"]
    if kind == "safe":
        return lay_most(legal, tuple(view["hand"]))
    if kind == "guess":
        return guess_from_deals(view, legal, memory, rng, GUESS_SAMPLES, reads_styles=True)
    if len(legal) == 1:
        return legal[0]
    means = values(view, legal, memory, rng, budget, out_of_time)
    return best(legal, means) if means else choose(view, legal, "hard", rng)


# What `values` reckons in: cards. A card played is worth what the trick played out brings the seat
# (`trick_gain`); a guess, the cards it wins times the chance it is right.
VALUES_IN = "cards won and kept safe, and what the hand is worth after the trick, less cards others took"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each legal card's or guess's worth by Hard's sampled deals; None for the safe sets (Hard lays
    the most cards it can, a rule, not a search)."""
    kind = legal[0]["type"]
    if kind == "safe":
        return None
    if kind == "guess":
        chances = total_chances(view, memory, rng, GUESS_SAMPLES, reads_styles=True)
        weight = sum(chances.values()) or 1.0
        return [view["players"] * chances[action["total"]] / weight for action in legal]
    seat, mean = view["seat"], public_mean(view)
    shares = {other: memory.reading_share(other) for other in memory.held}

    unseen = list(memory.unseen(view).elements())

    def deal() -> State:
        return sample_trick(view, memory, unseen, rng)

    def outcome(state: State, action: dict[str, Any]) -> float:
        return trick_gain(RULES.apply(state, seat, action), seat, shares, mean, rng)

    return mean_by_deals(legal, deal, outcome, budget or DEFAULT_BUDGET, out_of_time)


def sample_trick(view: dict[str, Any], memory: Memory, unseen: list[int], rng: random.Random) -> State:
    """This trick as it may be, the others' cards already played from their sampled hands."""
    seat, players = view["seat"], view["players"]
    hands, rest = others_cards(view, memory, unseen, rng)
    played: list[int | None] = [None] * players
    held: list[tuple[int, ...]] = [()] * players
    for other, hand in hands.items():
        played[other] = likely_play(hand, rng)
        hand.remove(played[other])
        held[other] = tuple(sorted(hand))
    held[seat] = tuple(view["hand"])
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


def trick_gain(state: State, seat: int, shares: dict[int, float], mean: float, rng: random.Random) -> float:
    """Play the trick out with the engine: this seat's safe cards gained, and what its hand is worth
    after (the cards it can lay at its next take, and every card as stuff for sets), less the cards
    another player took (`taken_by_others`)."""
    start = state["trick"]
    before = RULES.scores(state)[seat]
    while state["phase"] != "over" and state["trick"] == start:
        turn = state["turn"]
        state = RULES.apply(state, turn, rollout_action(state, turn, seat, shares, mean, rng))
    hand = state["hands"][seat]
    kept = LAYABLE_WORTH * most_laid(hand) + CARD_WORTH * len(hand)
    return RULES.scores(state)[seat] - before + kept - TAKEN_WORTH * taken_by_others(state, start, seat)


def taken_by_others(state: State, trick: int, seat: int) -> int:
    """The cards another player took at this trick's reveal: the game is won against the others'
    points, so a trick one of them takes (they lay most of it) counts against this seat too."""
    reveal = state["reveal"]
    if reveal is None or reveal["trick"] != trick or reveal["taker"] in (None, seat):
        return 0
    return len(reveal["cards"])


def rollout_action(
    state: State, turn: int, seat: int, shares: dict[int, float], mean: float, rng: random.Random
) -> dict[str, Any]:
    """A play-out's guesses and safe sets. The others guess in their style (drawn by how often they
    read the earlier guesses); this seat reads the earlier guesses as it does for real, and against
    plain guessers that tells their cards. Only this seat's sets count, so the others lay none."""
    if state["phase"] == "safe":
        return lay_most(RULES.legal_actions(state, turn), state["hands"][turn]) if turn == seat else DONE
    played, guesses = state["played"], state["guesses"]
    others, bound = state["players"] - 1, 3 * state["players"]
    if turn == seat:
        told = sum(played[guesser] for guesser, _ in guesses)
        aim = played[seat] + told + (others - len(guesses)) * mean
    elif rng.random() < shares[turn]:
        aim = reading_aim(played[turn], guesses, others, mean)
    else:
        aim = plain_aim(played[turn], others, mean)
    return GUESSES[nearest_free(aim, {total for _, total in guesses}, bound)]


# What a card left in hand after the trick is worth: more when it already belongs to a safe set that
# the next take will lay (a point is worth 1).
LAYABLE_WORTH = 0.5
CARD_WORTH = 0.2
# What a card another player takes costs this seat: less than a point of its own, as it helps only
# one of several rivals (0.3 won more games against four Easy than 0 did, 42.5% to 38.6%).
TAKEN_WORTH = 0.3


# The simulator's figure: safe cards per game.
FIGURE = "safe cards/game"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    return rules.figures(state)[seat]["safe_cards"], 1
