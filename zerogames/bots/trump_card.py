"""Trump Card's Easy bot: name the longest suit, win rounds cheaply, spend trumps only where they win."""

from __future__ import annotations

import random
from typing import Any

from zerogames.games import GAMES
from zerogames.games.base import State
from zerogames.games.cards import RANK_ORDER, RANKS, STANDARD_DECK, SUITS, trick_winner
from zerogames.games.trump_card import FIRST_DEAL

from .search import TIME_LIMIT, best, mean_by_deals
from .tricks import TricksSeen, higher_unseen


def suit_strength(hand: list[str], suit: str) -> tuple[int, int]:
    """How many cards of the suit, then how high they are: the Chooser's yardstick."""
    ranks = [RANK_ORDER[card[0]] for card in hand if card[1] == suit]
    return len(ranks), sum(ranks)


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    if legal[0]["type"] == "trump":
        # The Chooser names the suit it holds most of among its five, the strongest on a tie.
        best = max(SUITS, key=lambda suit: suit_strength(view["hand"], suit))
        return {"type": "trump", "suit": best}
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    # Weakest first: plain cards before trumps, low before high.
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    played = [card for _, card in view["trick"]]
    if not played:
        # Leading: a top plain card is likely to hold the Senior seat; otherwise keep the trumps back.
        plain = [card for card in by_strength if card[1] != trump]
        if plain and plain[-1][0] in "AK":
            return {"type": "play", "card": plain[-1]}
        return {"type": "play", "card": by_strength[0]}
    leader_at = trick_winner(played, trump)
    partner = (view["seat"] + 2) % 4
    if view["trick"][leader_at][0] == partner and len(played) == 3:
        # The partner has the round: no need to spend anything on it.
        return {"type": "play", "card": by_strength[0]}
    winners = [card for card in cards if trick_winner([*played, card], trump) == len(played)]
    # Win as cheaply as possible (a trump only when it wins), else throw the lowest card.
    return {"type": "play", "card": min(winners, key=by_strength.index) if winners else by_strength[0]}


# Normal and Hard remember the match's rounds: a view shows the round on the table, the last one and
# the pile, but not the cards a team banked.


class Memory(TricksSeen):
    """Every finished round's cards, in order, as the seat saw them finish."""

    def see(self, view: dict[str, Any]) -> None:
        self.catch_up(len(view["history"]), view["last_round"])


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """Easy's play, knowing which cards are out: the Senior leads a card nobody left can beat, a
    partner does not overtake the Senior of its own team, an opponent of the Senior beats it cheaply."""
    if legal[0]["type"] == "trump":
        return choose(view, legal, "normal", rng)
    seat, trump = view["seat"], view["trump"]
    known = set(view["hand"]) | {card for _, card in memory.played(view)}
    voids = memory.voids(view)
    cards = [action["card"] for action in legal]
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    played = [card for _, card in view["trick"]]
    opponents = ((seat + 1) % 4, (seat + 3) % 4)
    if not played:
        trumps_out = any(rank + trump not in known for rank in RANKS)
        sure = [
            card
            for card in by_strength
            if higher_unseen(card, known) == 0
            and (card[1] == trump or not trumps_out or not any(card[1] in voids[o] for o in opponents))
        ]
        # A sure card holds the Senior seat; else throw the weakest and keep the strength for later.
        return {"type": "play", "card": sure[0] if sure else by_strength[0]}
    winning_seat = view["trick"][trick_winner(played, trump)][0]
    if winning_seat == (seat + 2) % 4:
        return {"type": "play", "card": by_strength[0]}
    winners = [card for card in cards if trick_winner([*played, card], trump) == len(played)]
    return {"type": "play", "card": min(winners, key=by_strength.index) if winners else by_strength[0]}


# Hard: deals of the unseen cards that agree with the match so far (voids included, and a trump in
# every hand: else it would have been a misdeal), rebuilt with the real engine from a stacked deck, the
# trump and every play, then played out to the match's end by every seat as Easy plays.

# A whole match played out swings by dozens of cards, so one move's deals disagree a lot: 24 deals
# bank about one card in a hundred more than 12 against Easy, at some 100 ms CPU for the dearest
# decision (the first leads).
DEFAULT_BUDGET = 24
RULES = GAMES["trump_card"]


def hard(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random, budget: int | None
) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    fallback = normal(view, legal, memory, rng)
    means = values(view, legal, memory, rng, budget)
    return best(legal, means) if means else fallback


# What `values` reckons in: the cards the seat's team banks over the other's, and a deck's worth of
# cards more for winning the match.
VALUES_IN = "cards banked ahead of the other team, 52 more for winning the match"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    time_limit: float | None = TIME_LIMIT,
) -> list[float] | None:
    """Each legal action's mean outcome over Hard's deals; None when Hard does not search (the match
    was not seen whole, or no deal fits)."""
    if not memory.whole:
        return None
    team = view["seat"] % 2

    def outcome(state: State, action: dict[str, Any]) -> float:
        result = RULES.result(play_out(RULES.apply(state, view["seat"], action), rng))
        banked = result["banked"]
        return banked[team] - banked[1 - team] + (len(STANDARD_DECK) if result["team"] == team else 0)

    return mean_by_deals(
        legal, lambda: sample_match(view, memory, rng), outcome, budget or DEFAULT_BUDGET, time_limit
    )


def sample_match(view: dict[str, Any], memory: Memory, rng: random.Random) -> State | None:
    """The match as it may be, replayed to now with the engine (None when no fitting deal was found)."""
    seat = view["seat"]
    played = memory.played(view)
    known = set(view["hand"]) | {card for _, card in played}
    unseen = [card for card in STANDARD_DECK if card not in known]
    voids = memory.voids(view)
    trump = view["trump"]
    has_trump = {who for who, card in played if card[1] == trump}
    others = sorted((s for s in range(4) if s != seat), key=lambda s: -len(voids[s]))
    hands = deal_apart(unseen, others, view["hand_sizes"], voids, has_trump, trump, rng)
    if hands is None:
        return None
    hands[seat] = list(view["hand"])
    for who, card in played:
        hands[who].append(card)
    chooser = view["chooser"]
    # Five each from the Chooser, then eight each: any split of a hand will do, the trump is known.
    deck = [""] * len(STANDARD_DECK)
    for offset in range(4):
        hand = hands[(chooser + offset) % 4]
        for index, card in enumerate(hand[:FIRST_DEAL]):
            deck[offset + 4 * index] = card
        for index, card in enumerate(hand[FIRST_DEAL:]):
            deck[4 * FIRST_DEAL + offset + 4 * index] = card
    state = RULES.new_game(4, 0, {"chooser": chooser, "decks": [deck]})
    state = RULES.apply(state, chooser, {"type": "trump", "suit": trump})
    for who, card in played:
        state = RULES.apply(state, who, {"type": "play", "card": card})
    return state


def deal_apart(
    unseen: list[str],
    others: list[int],
    sizes: list[int],
    voids: dict[int, set[str]],
    has_trump: set[int],
    trump: str,
    rng: random.Random,
) -> list[list[str]] | None:
    """The other seats' hands from the unseen cards: none of a suit a seat lacks, and a trump for every
    seat that has shown none yet (a few tries, then None)."""
    for _ in range(8):
        rng.shuffle(unseen)
        left = list(unseen)
        hands: list[list[str]] = [[], [], [], []]
        for other in others:
            fits = [card for card in left if card[1] not in voids[other]][: sizes[other]]
            if len(fits) < sizes[other] or (other not in has_trump and all(c[1] != trump for c in fits)):
                break
            hands[other] = fits
            taken = set(fits)
            left = [card for card in left if card not in taken]
        else:
            return hands
    return None


def play_out(state: State, rng: random.Random) -> State:
    """Every seat plays as Easy to the match's end."""
    while state["phase"] != "over":
        seat = state["turn"]
        legal = RULES.legal_actions(state, seat)
        bare = {"seat": seat, "hand": state["hands"][seat], "trump": state["trump"], "trick": state["trick"]}
        state = RULES.apply(state, seat, choose(bare, legal, "easy", rng))
    return state


# The simulator's figure: the seat's team's share of the cards banked, in percent.
FIGURE = "banked %"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    banked = rules.result(state)["banked"]
    return 100.0 * banked[seat % 2], sum(banked)
