"""Trump Card's Easy bot: name the longest suit, win rounds cheaply, spend trumps only where they win."""

from __future__ import annotations

import math
import random
from typing import Any

from ..cards import RANK_ORDER, RANKS, STANDARD_DECK, SUITS, trick_winner

# How long its seat may think (zerogames.bots), whatever the budget.
from ..search import TIME_LIMIT as TIME_LIMIT
from ..search import OutOfTime
from ..tricks import TricksSeen, higher_unseen
from .rules import (
    FIRST_BANKING_ROUND,
    LAST_ACE_RESTRICTED_ROUND,
    PLAYERS,
    PLAYS,
    ROUNDS,
)


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


# Hard: an information-set search. Each iteration deals the unseen cards consistently with the match
# so far (voids included, and a trump in every hand: else it would have been a misdeal) and walks one
# tree of moves from the seat's own view: at every turn, whoever's it is, the move is picked among
# those legal in this deal by the upper confidence bound of its own team's results (a move's count of
# chances is the number of deals it was legal in); one new move is added a walk, and the match is then
# played out with every seat as Easy plays. The walk runs on a lean copy of the rules (Match), which a
# test holds to the engine move by move. Hard plays the move walked most.

DEFAULT_BUDGET = 600
# The exploration weight of the upper confidence bound, on results scaled to -1..1.
EXPLORE = 0.7
# A team's result: the cards it banked less the other's, and the whole deck again for KHOTI.
WHOLE = len(STANDARD_DECK)


class Match:
    """The rest of a match as the search plays it: the hands, the round on the table, the pile's size,
    each team's banked count, the Senior, the round's number, the seat under the Ace restriction, and
    whose turn it is (None once the match is over)."""

    __slots__ = ("banked", "hands", "number", "pile", "restricted", "senior", "trick", "trump", "turn")

    def __init__(
        self,
        hands: list[list[str]],
        trick: list[tuple[int, str]],
        pile: int,
        banked: list[int],
        senior: int,
        number: int,
        restricted: int | None,
        turn: int | None,
        trump: str,
    ) -> None:
        self.hands, self.trick, self.pile, self.banked, self.senior = hands, trick, pile, banked, senior
        self.number, self.restricted, self.turn, self.trump = number, restricted, turn, trump

    def copy(self) -> Match:
        return Match(
            [list(hand) for hand in self.hands],
            list(self.trick),
            self.pile,
            list(self.banked),
            self.senior,
            self.number,
            self.restricted,
            self.turn,
            self.trump,
        )

    def legal(self) -> list[str]:
        hand = self.hands[self.turn]
        if self.trick:
            led = self.trick[0][1][1]
            return [card for card in hand if card[1] == led] or list(hand)
        if self.restricted == self.turn:
            return [card for card in hand if card[0] != "A"]
        return list(hand)

    def play(self, card: str) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.restricted = None
        self.turn = (seat + 1) % PLAYERS
        if len(self.trick) == PLAYERS:
            self.finish_round()

    def finish_round(self) -> None:
        """As the engine's finish_round: the winner becomes Senior, a Senior who held the seat banks."""
        winner, card = self.trick[trick_winner([card for _, card in self.trick], self.trump)]
        self.pile += PLAYERS
        if self.number >= FIRST_BANKING_ROUND and winner == self.senior:
            self.banked[winner % 2] += self.pile
            self.pile = 0
        self.trick = []
        self.senior = winner
        if self.number == ROUNDS:
            self.turn = None
            return
        self.number += 1
        self.turn = winner
        self.restricted = winner if card[0] == "A" and self.number <= LAST_ACE_RESTRICTED_ROUND else None

    def result(self, team: int) -> float:
        """The team's result, scaled to -1..1."""
        banked = self.banked
        khoti = WHOLE if banked[team] == WHOLE else -WHOLE if banked[1 - team] == WHOLE else 0
        return (banked[team] - banked[1 - team] + khoti) / (2 * WHOLE)


class Node:
    """A move in the search tree: who made it, the results of its team over the walks through it, and
    in how many walks it was legal."""

    __slots__ = ("chances", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.chances = 0

    def bound(self) -> float:
        return self.total / self.visits + EXPLORE * math.sqrt(math.log(self.chances) / self.visits)


def hard(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    root = searched(view, legal, memory, rng, budget, out_of_time)
    if root is None:
        return normal(view, legal, memory, rng)
    # The play walked most: the one the search kept coming back to.
    children = root.children
    return max(
        legal, key=lambda action: children[action["card"]].visits if action["card"] in children else -1
    )


# What `values` reckons in: the team's result, as the search scores a match played out.
VALUES_IN = "cards banked ahead of the other team, 52 more for winning the match (52 fewer for losing it)"


def values(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None = None,
    out_of_time: OutOfTime | None = None,
) -> list[float] | None:
    """Each legal play's worth to the seat's team in Hard's search tree: the mean result of the walks
    through it, in cards (banked less the other team's, KHOTI a whole deck either way). None when Hard
    does not search (the trump, or a round finished unseen) or a play was never walked (too few walks):
    an untried play has no worth to tell. Hard plays the play walked most, which the search makes the
    best mean but for the odd close call."""
    root = searched(view, legal, memory, rng, budget, out_of_time)
    if root is None:
        return None
    children = root.children
    cards = [action["card"] for action in legal]
    if not all(card in children for card in cards):
        return None
    return [2 * WHOLE * children[card].total / children[card].visits for card in cards]


def searched(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    memory: Memory,
    rng: random.Random,
    budget: int | None,
    out_of_time: OutOfTime | None = None,
) -> Node | None:
    """The search's tree for a play (None for the trump, or when a round finished unseen)."""
    if legal[0]["type"] != "play" or not memory.whole:
        return None
    return search(view, memory, rng, budget or DEFAULT_BUDGET, out_of_time)


def search(
    view: dict[str, Any],
    memory: Memory,
    rng: random.Random,
    walks: int,
    out_of_time: OutOfTime | None = None,
) -> Node | None:
    """The tree grown over `walks` sampled deals (fewer once `out_of_time` says so; without it the
    tree depends on the generator alone); None if no deal fitted."""
    root = Node(view["seat"])
    for _ in range(walks):
        match = sample_match(view, memory, rng)
        if match is None:
            continue
        walk(root, match, rng)
        if out_of_time is not None and out_of_time():
            break
    return root if root.children else None


def walk(root: Node, match: Match, rng: random.Random) -> None:
    """One walk down the tree on this deal, a new move added, the match played out, results backed up."""
    node, path = root, []
    while match.turn is not None:
        legal = match.legal()
        children = node.children
        for card in legal:
            if card in children:
                children[card].chances += 1
        untried = [card for card in legal if card not in children]
        if untried:
            card = rng.choice(untried)
            node = children[card] = Node(match.turn)
            node.chances = 1
            match.play(card)
            path.append(node)
            break
        node = max((children[card] for card in legal), key=Node.bound)
        match.play(next(card for card in legal if children[card] is node))
        path.append(node)
    play_out(match, rng)
    results = (match.result(0), match.result(1))
    for node in path:
        node.visits += 1
        node.total += results[node.seat % 2]


def sample_match(view: dict[str, Any], memory: Memory, rng: random.Random) -> Match | None:
    """The rest of the match as it may be (None when no fitting deal was found)."""
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
    trick = [(who, card) for who, card in view["trick"]]
    banked = list(view["banked"])
    return Match(
        hands,
        trick,
        view["pile_size"],
        banked,
        view["senior"],
        view["round"],
        view["restricted_seat"],
        seat,
        trump,
    )


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


def play_out(match: Match, rng: random.Random) -> None:
    """Every seat plays as Easy to the match's end."""
    while match.turn is not None:
        seat = match.turn
        legal = [PLAYS[card] for card in match.legal()]
        bare = {"seat": seat, "hand": match.hands[seat], "trump": match.trump, "trick": match.trick}
        match.play(choose(bare, legal, "easy", rng)["card"])


# The simulator's figure: the seat's team's share of the cards banked, in percent.
FIGURE = "banked %"
COUNTED: tuple[str, ...] = ()


def figure(rules: Any, state: Any, seat: int) -> tuple[float, float]:
    banked = rules.result(state)["banked"]
    return 100.0 * banked[seat % 2], sum(banked)
