"""Zero Game's bots. Easy bids the sure-looking tricks, then tries to win exactly that many. Normal
weighs its bid on a few deals played out, then plays to its bid counting the cards out. Hard searches
the round as a tree of its own information sets, bids and plays alike (round_search)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from .. import round_search
from ..base import State
from ..cards import RANK_ORDER, RANKS, STANDARD_DECK, trick_winner

# How long its seat may think (zerogames.bots), whatever the budget.
from ..round_search import TIME_LIMIT as TIME_LIMIT
from ..round_search import careful_bid
from ..search import OutOfTime, best_by_deals
from ..tricks import TricksSeen, higher_unseen
from .rules import BIDS, PLAYS, RULES

RANKS_IN_SUIT = len(RANKS)
Hands = round_search.Hands
# OpenSpiel's game of the same rules (a Zero Game round), which the simulator's reference seat plays.
OPENSPIEL_GAME = "oh_hell"


def choose(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng: random.Random
) -> dict[str, Any]:
    trump = view["trump"][1] if view["trump"] else None
    if legal[0]["type"] == "bid":
        return BIDS[careful_bid(view["hand"], trump, [action["bid"] for action in legal])]
    seat = view["seat"]
    need = (view["bids"][seat] or 0) - view["tricks"][seat]
    cards = [action["card"] for action in legal]
    played = [card for _, card in view["trick"]]
    winners = [card for card in cards if not played or trick_winner([*played, card], trump) == len(played)]
    by_strength = sorted(cards, key=lambda card: (card[1] == trump, RANK_ORDER[card[0]]))
    if need > 0:
        # Win cheaply when a card can win now; else throw the weakest card away.
        choice = min(winners, key=by_strength.index) if winners else by_strength[0]
    else:
        # Enough tricks: duck with the highest card that still loses, else the weakest.
        losers = [card for card in cards if card not in winners]
        choice = max(losers, key=by_strength.index) if losers else by_strength[0]
    return {"type": "play", "card": choice}


# Normal and Hard remember the round's tricks: a view shows only the trick on the table and the one
# just finished, so the cards played before are kept from view to view.


class Memory(TricksSeen):
    """The current round's finished tricks, in order, as the seat saw them finish."""

    def __init__(self) -> None:
        super().__init__()
        self.round: int | None = None

    def see(self, view: dict[str, Any]) -> None:
        finished = sum(view["tricks"])
        if view["round"] != self.round:
            self.round, self.tricks = view["round"], []
            self.whole = finished == 0 and not view["trick"]
        self.catch_up(finished, view["last_trick"])


def out_of_play(view: dict[str, Any], memory: Memory) -> set[str]:
    """Cards the seat knows no opponent holds: its hand, the trump card, every card played."""
    known = set(view["hand"]) | {card for _, card in memory.played(view)}
    if view["trump"]:
        known.add(view["trump"])
    return known


def normal(view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random) -> dict:
    """Bid what a few deals of the unseen cards, played out, say is best; then play to make the bid
    exactly, counting the cards out."""
    if legal[0]["type"] == "bid":
        return searched(view, legal, memory, rng, NORMAL_DEALS) or choose(view, legal, "easy", rng)
    seat = view["seat"]
    trump = view["trump"][1] if view["trump"] else None
    table = [card for _, card in view["trick"]]
    later = view["players"] - len(table) - 1
    need = view["bids"][seat] - view["tricks"][seat]
    known = out_of_play(view, memory)
    card = play_to_bid(view["hand"], [a["card"] for a in legal], table, trump, known, need, later)
    return PLAYS[card]


# Normal's play, also Hard's own play in its play-outs: each card is weighed by its chance to take the
# trick, from the cards still unseen (any of them may sit in a later player's hand).

# A card this likely to hold the trick is played as a sure winner.
SURE = 0.85


def chance_to_win(
    card: str, table: list[str], trump: str | None, known: set[str], held: int, later: int
) -> float:
    """The chance that `card`, played now, takes the trick: it must beat the table, then no later player
    (each holding `held` cards) may hold a higher card of its suit, or trump it for lack of the suit."""
    cards = [*table, card]
    if trick_winner(cards, trump) != len(table):
        return 0.0
    if not later:
        return 1.0
    unseen = len(STANDARD_DECK) - len(known)
    if not unseen:
        return 1.0
    # The share of the unseen cards in the later players' hands: each unseen card is there this likely.
    there = min(1.0, later * held / unseen)
    chance = (1 - there) ** higher_unseen(card, known)
    if trump and card[1] != trump:
        suit_left = RANKS_IN_SUIT - sum(1 for seen in known if seen[1] == card[1])
        trumps_left = RANKS_IN_SUIT - sum(1 for seen in known if seen[1] == trump)
        void = (1 - suit_left / unseen) ** held
        ruffs = 1 - (1 - trumps_left / unseen) ** held
        chance *= (1 - void * ruffs) ** later
    return chance


def play_to_bid(
    hand: list[str],
    cards: list[str],
    table: list[str],
    trump: str | None,
    known: set[str],
    need: int,
    later: int,
) -> str:
    """The card that keeps the tricks won on course for the bid: while tricks are wanted, take them with
    the cheapest card sure to hold (else the cheapest that wins for now); once the bid is reached, duck,
    shedding the most dangerous card that loses."""
    alone = {card: chance_to_win(card, [], trump, known, len(hand), later + len(table)) for card in hand}
    now = {card: chance_to_win(card, table, trump, known, len(hand), later) for card in cards}

    def danger(card: str) -> tuple[float, int]:
        return alone[card], RANK_ORDER[card[0]]

    def likeliest(card: str) -> tuple[float, int]:
        return now[card], -RANK_ORDER[card[0]]

    if need <= 0:
        # A card that does not beat the table now never takes the trick.
        losing = [card for card in cards if table and not now[card]]
        return max(losing, key=danger) if losing else min(cards, key=likeliest)
    if need >= len(hand):
        return max(cards, key=likeliest)
    winners = [card for card in cards if now[card]]
    sure = [card for card in winners if now[card] >= SURE]
    return min(sure or winners or cards, key=danger)


# Normal's bid: deals of the unseen cards that agree with the round so far (voids included), each
# rebuilt with the real engine from a stacked deck and the round's bids and plays, then played out by
# every seat. Every move made there is legal by construction (listed by the engine, or already made at
# the table), so the engine performs it unchecked. Hard draws its deals the same way (dealing) for
# its own search.

# Hard's search iterations a decision.
HARD_ITERATIONS = 1000
# Normal weighs its bid on this many deals.
NORMAL_DEALS = 10
# In a play-out the other seats play greedily, but now and then at random: the table may hold anyone
# from a careful player to a random one, and a search sure of its opponents is easily fooled.
WILD = 0.3
# Winning the game, weighed in round points: more than any round can bring.
GAME_WORTH = 30


def hard(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> dict[str, Any]:
    """The move an information-set search of the round prefers (round_search), on `budget` iterations;
    Normal's when the round was not seen whole (the bot sat down mid-round) or no deal fits."""
    if len(legal) == 1:
        return legal[0]
    if memory.whole:
        found = round_search.search(
            rounds_now(view, memory, rng),
            round_worth(view),
            view["seat"],
            budget or HARD_ITERATIONS,
            rng,
            out_of_time,
        )
        if found is not None:
            return BIDS[found] if isinstance(found, int) else PLAYS[found]
    return normal(view, legal, memory, rng)


# What `values` reckons in: the round's points (in the last round of a game of several, the game too).
VALUES_IN = "round points (in the last round, 30 more for winning the game)"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each legal move's mean worth in Hard's search tree (`worth`), on `budget` iterations; None when
    Hard does not search (the round was not seen whole). The search tries every move
    at its root, then mostly the best: the best mean is the move Hard takes most often."""
    if not memory.whole:
        return None
    scaled = round_worth(view)
    root = round_search.grown(
        rounds_now(view, memory, rng),
        scaled,
        view["seat"],
        budget or HARD_ITERATIONS,
        rng,
        out_of_time,
    )
    keys = [action["bid"] if action["type"] == "bid" else action["card"] for action in legal]
    if not all(root.visits.get(key) for key in keys):
        return None  # a move never tried has no worth to tell (too few iterations, or no deal fitted)
    most = 10 + view["cards_dealt"]
    return [most * root.totals[key] / root.visits[key] for key in keys]


def rounds_now(
    view: dict[str, Any], memory: Memory, rng: random.Random
) -> Callable[[], round_search.Round | None]:
    """A maker of the round from here on as it may be, one for each of the search's iterations: the
    unseen cards dealt to the other seats (none of a suit a seat has shown it lacks, and each hand as
    likely as the seat's bid makes it: reading_bids), the bids, tricks and table as they are. What
    every iteration shares is worked out once, here."""
    deal = dealing(view, memory, reading_bids(view, memory))
    trump = view["trump"][1] if view["trump"] else None
    trick = [(seat, card) for seat, card in view["trick"]]
    dealer, cards, bids, tricks, turn = (
        view["dealer"],
        view["cards_dealt"],
        view["bids"],
        view["tricks"],
        view["turn"],
    )

    def round_now() -> round_search.Round | None:
        hands = deal(rng)
        if hands is None:
            return None
        # The round is played out in place: every iteration has bids and tricks of its own.
        return round_search.Round(hands, trump, dealer, cards, list(bids), list(tricks), trick, turn)

    return round_now


def round_worth(view: dict[str, Any]) -> Callable[[list[int]], float]:
    """The seat's worth of a round's points (`worth`: in the last round, the game as well), scaled by
    the most points a round can bring, so that the search explores alike in every round."""
    most = 10 + view["cards_dealt"]
    return lambda points: worth(view, points) / most


def searched(
    view: dict[str, Any], legal: list[dict[str, Any]], memory: Memory, rng: random.Random, deals: int
) -> dict[str, Any] | None:
    """The action that does best over `deals` deals, each played out; None when the round was not
    seen whole (the bot sat down mid-round) or no deal fits what was seen."""
    if not memory.whole:
        return None
    seat = view["seat"]

    def outcome(state: State, action: dict[str, Any]) -> float:
        points = RULES.scores(play_out(RULES.perform(state, seat, action, 0.0), seat, rng))
        return worth(view, points)

    return best_by_deals(legal, lambda: sample_round(view, memory, rng), outcome, deals)


def worth(view: dict[str, Any], points: list[int]) -> float:
    """What a round's points are worth to the seat: its own, and in the last round of a game of several
    also the game itself (the scores so far decide whether a safe bid is enough, or a bold one or a
    spoiled rival is needed). A game of one round is its points: the most of them win it."""
    seat = view["seat"]
    if view["round"] < view["rounds"] or view["rounds"] == 1:
        return points[seat]
    totals = [score + gained for score, gained in zip(view["scores"], points, strict=True)]
    return points[seat] + GAME_WORTH * (totals[seat] == max(totals))


def sample_round(view: dict[str, Any], memory: Memory, rng: random.Random) -> State | None:
    """The round as it may be: unseen cards dealt to the other seats (none of a suit a seat lacks), the
    round replayed to now with the engine. A one-round game, so its score is this round's points."""
    seat, players, dealt = view["seat"], view["players"], view["cards_dealt"]
    played = memory.played(view)
    hands = dealing_whole(view, memory)(rng)
    if hands is None:
        return None
    first = (view["dealer"] + 1) % players
    deck: list[str] = [""] * (players * dealt)
    for offset in range(players):
        for index, card in enumerate(hands[(first + offset) % players]):
            deck[offset + players * index] = card
    hands[seat] = []
    in_hands = set(deck)
    rest = [card for card in STANDARD_DECK if card not in in_hands]
    if view["trump"]:
        rest.remove(view["trump"])
        rest.insert(0, view["trump"])
    options = {"schedule": [dealt], "dealer": view["dealer"], "decks": [deck + rest]}
    state = RULES.new_game(players, 0, options)
    for offset in range(players):
        bidder = (first + offset) % players
        if view["bids"][bidder] is None:
            break
        state = RULES.perform(state, bidder, BIDS[view["bids"][bidder]], 0.0)
    for who, card in played:
        state = RULES.perform(state, who, PLAYS[card], 0.0)
    return state


# A deal that will not fit the voids is drawn again this many times in all before giving up.
DEAL_TRIES = 8
# A hand its seat's bid makes unlikely is drawn again, up to this many draws in all (Hard's deals).
BID_TRIES = 8
# How far, in tricks, a careful player's bid strays from what its hand looks good for (reading_bids).
BID_SPREAD = 0.5
# How likely a hand is for a seat, from its bid (reading_bids).
Likely = Callable[[int, list[str]], float]


def dealing_whole(view: dict[str, Any], memory: Memory) -> Callable[[random.Random], Hands | None]:
    """A dealer of the round's hands as they may have been dealt: the other seats' hands drawn from the
    unseen cards (`dealing`), every seat's with the cards it has played since put back (its own too).
    Normal's deals start from it, and so does the simulator's fair reference seat."""
    deal = dealing(view, memory)
    played = memory.played(view)

    def deal_whole(rng: random.Random) -> Hands | None:
        hands = deal(rng)
        if hands is not None:
            for who, card in played:
                hands[who].append(card)
        return hands

    return deal_whole


def reading_bids(view: dict[str, Any], memory: Memory) -> Likely:
    """How likely a hand drawn for another seat is, given the bid that seat made, against the hand its
    bid suits best (0 to 1). A careful player bids about the tricks its hand as dealt looks good for
    (`round_search.strength`, over the cards it holds and those it has played this round), give or
    take BID_SPREAD; a random player bids anything alike. Which one the seat is, its bid alone does not
    say: CAREFUL of the one, as Hard's search has it (round_search)."""
    worth = round_search.STRENGTHS[view["trump"][1] if view["trump"] else None]
    bids = view["bids"]
    shown = [0.0] * view["players"]
    for seat, card in memory.played(view):
        shown[seat] += worth[card]
    at_random = (1 - round_search.CAREFUL) / (view["cards_dealt"] + 1)
    best = round_search.CAREFUL + at_random

    def likely(seat: int, hand: list[str]) -> float:
        bid = bids[seat]
        if bid is None:
            return 1.0
        off = (bid - shown[seat] - sum(worth[card] for card in hand)) / BID_SPREAD
        return (round_search.CAREFUL * math.exp(-off * off / 2) + at_random) / best

    return likely


def dealing(
    view: dict[str, Any], memory: Memory, likely: Likely | None = None
) -> Callable[[random.Random], Hands | None]:
    """A dealer of the other seats' hands from the unseen cards, each avoiding the suits it has shown it
    lacks (the most constrained seat first; a few tries, then None). With `likely` (Hard's), a hand is
    kept as likely as that says, else drawn again from the cards left (BID_TRIES in all, the last
    kept). The unseen cards, the voids and the order the seats are dealt in are the same for every deal
    of one decision, so they are found once."""
    seat, players, hand = view["seat"], view["players"], view["hand"]
    known = out_of_play(view, memory)
    unseen = [card for card in STANDARD_DECK if card not in known]
    voids = memory.voids(view)
    others = sorted((s for s in range(players) if s != seat), key=lambda s: -len(voids[s]))
    wanted = [(other, voids[other], view["hand_sizes"][other]) for other in others]

    def deal(rng: random.Random) -> Hands | None:
        # Every deal shuffles the unseen cards from the same order, so a generator deals the same hands.
        cards = list(unseen)
        for _ in range(DEAL_TRIES):
            rng.shuffle(cards)
            hands = dealt(cards, wanted, players, None if likely is None else (likely, rng))
            if hands is not None:
                hands[seat] = list(hand)
                return hands
        return None

    return deal


def dealt(
    cards: list[str],
    wanted: list[tuple[int, set[str], int]],
    players: int,
    weighing: tuple[Likely, random.Random] | None = None,
) -> Hands | None:
    """The shuffled `cards` dealt in turn to each (seat, suits it lacks, hand size) of `wanted`: each
    takes the first cards it may hold; None when one cannot be dealt its hand. `weighing`: a hand is
    kept as likely as its seat's bid makes it, else the next cards the seat may hold are drawn instead
    (BID_TRIES draws in all, the last kept): the hands are drawn as the bids say they likely are."""
    hands: Hands = [[] for _ in range(players)]
    left = cards
    for other, lacking, size in wanted:
        taken = first_fitting(left, lacking, size)
        if taken is None:
            return None
        if weighing is not None:
            likely, rng = weighing
            for _ in range(BID_TRIES - 1):
                if rng.random() < likely(other, taken[0]):
                    break
                # The next cards of the shuffled deck it may hold, the hand turned down put back last.
                turned_down, rest = taken
                taken = first_fitting(rest + turned_down, lacking, size)
                assert taken is not None  # the same cards in another order: as many fit
        hands[other], left = taken
    return hands


def first_fitting(cards: list[str], lacking: set[str], size: int) -> tuple[list[str], list[str]] | None:
    """The first `size` of `cards` of no suit in `lacking`, and the cards left over (in their order);
    None when fewer fit."""
    if not lacking or not size:
        # Most seats lack no suit: their hand is the next cards.
        return (cards[:size], cards[size:]) if len(cards) >= size else None
    fits: list[str] = []
    passed: list[str] = []
    for at, card in enumerate(cards):
        if card[1] in lacking:
            passed.append(card)
            continue
        fits.append(card)
        if len(fits) == size:
            return fits, passed + cards[at + 1 :]
    return None


def play_out(state: State, me: int, rng: random.Random) -> State:
    """Every seat bids and plays to the round's end as Easy would, the others now and then at random,
    and this seat as Normal plays: as the seat itself would, seeing only its hand and the cards out (a
    search that plays its own later moves seeing every hand trusts bids that need exact play)."""
    while state["phase"] != "over":
        seat = state["turn"]
        legal = RULES.legal_actions(state, seat)
        if seat != me and rng.random() < WILD:
            action = legal[int(rng.random() * len(legal))]
        elif seat == me and state["phase"] == "play":
            action = own_play(state, seat, legal)
        else:
            action = choose(bare_view(state, seat), legal, "easy", rng)
        state = RULES.perform(state, seat, action, 0.0)
    return state


def own_play(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The seat's own move in a play-out, as Normal would make it from what the seat has seen."""
    trump_shown = state["stock"][0] if state["stock"] else None
    table = [card for _, card in state["trick"]]
    known = {*state["hands"][seat], *state["played"], *table}
    if trump_shown:
        known.add(trump_shown)
    need = state["bids"][seat] - state["tricks"][seat]
    later = state["players"] - len(table) - 1
    cards = [action["card"] for action in legal]
    trump = trump_shown[1] if trump_shown else None
    return PLAYS[play_to_bid(list(state["hands"][seat]), cards, table, trump, known, need, later)]


def bare_view(state: State, seat: int) -> dict[str, Any]:
    """What Easy reads of a view, straight from a play-out's state (far cheaper than the full view)."""
    return {
        "seat": seat,
        "hand": state["hands"][seat],
        "trump": state["stock"][0] if state["stock"] else None,
        "bids": state["bids"],
        "tricks": state["tricks"],
        "trick": state["trick"],
    }


# The simulator's figure: percent of rounds in which the seat made its bid exactly.
FIGURE = "bids made %"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    made = rules.figures(state)[seat]
    return 100.0 * made["bids_made"], made["rounds"]
