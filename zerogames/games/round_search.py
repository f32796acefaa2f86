"""Zero Game Hard's search: information-set Monte Carlo tree search over one round.

The tree is the seat's own. A node stands for one of the seat's information sets: the seat's own moves
since the decision (which fix its hand and bid) and what its next decision needs of the table: the suit
led, the card taking the trick, how many have played to it, and the tricks the seat has won. Telling
information sets apart by every card the others played would leave each one after the first trick
seen about once: the tree would be a search one move deep followed by a fixed policy, capped near that
policy's estimate. Each iteration draws a deal of the unseen cards that agrees with what the seat has
seen (no seat holds a suit it has shown it lacks), walks the tree by the moves that deal allows (UCB
on their availability), grows it by one node, plays the rest of the round out and counts the seat's
points into every node on the way.

Other seats, in the tree and out of it, bid as a careful player would (the tricks their hand looks good
for, `careful_bid`) or else at random, CAREFUL of the one; they play a card as a player aiming at its
bid would (`sensible`) or else at random, the more often `sensible` the more their bid looks like a
careful player's (`careful`); the seat's own play-outs are `sensible`.

A playout is the search's whole budget, so it runs on a lean copy of a round's rules (`Round`), held to
the engine move for move by tests/test_round_search.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import lru_cache

from .cards import RANK_ORDER, STANDARD_DECK, SUITS
from .search import OutOfTime

# A decision stops iterating after this long, whatever its budget, so that a starved machine still
# decides within a second.
TIME_LIMIT = 0.5
# UCB's exploration weight, for points scaled to 0..1 by the most a round can bring.
EXPLORATION = 0.4
# How likely another seat is, before its bid, to bid and play as a careful player does
# (`careful_bid`, `Round.sensible`), rather than at random. Small runs (200 rounds against four
# random players, 100 against four OpenSpiel ISMCTS seats) made 77% and 73% of bids with every seat at
# 0.5, against 80% and 62% with the other seats modelled as random: the model must tell the two apart,
# and their bids are what tells them. With their bids modelled as well, and their hands drawn as
# likely as their bids make them (zero_game.bot.reading_bids), 0.7: one Hard among four Easy bots
# (python -m zerogames.sim zero_game --seats hard,easy,easy,easy,easy --games 1000 --seed 0) scored
# 40.84 points a game and won 38.3%, against 40.03 and 35.9% with neither (and 0.5).
CAREFUL = 0.7

Hands = list[list[str]]


class Round:
    """One Zero Game round from some point on, as plain lists: what a playout needs and nothing else.

    `bids` holds None for a seat yet to bid; the dealer bids last, then the seat on its left leads.
    `taking` is the seat and card taking the trick so far, kept up as each card is played: a playout
    asks for it at nearly every card. The round plays on in `hands`, `bids` and `tricks` (its own
    lists, the caller's to copy) and in a trick of its own.
    """

    __slots__ = ("bids", "cards", "dealer", "hands", "players", "taking", "trick", "tricks", "trump", "turn")

    def __init__(
        self,
        hands: Hands,
        trump: str | None,
        dealer: int,
        cards: int,
        bids: list[int | None],
        tricks: list[int],
        trick: list[tuple[int, str]],
        turn: int,
    ) -> None:
        self.hands, self.trump, self.dealer, self.cards = hands, trump, dealer, cards
        self.bids, self.tricks, self.turn = bids, tricks, turn
        self.players = len(hands)
        self.trick: list[tuple[int, str]] = []
        # Read only while the trick has a card: the first card played to a trick takes it.
        self.taking: tuple[int, str] = (turn, "")
        for seat, card in trick:
            self.add_to_trick(seat, card)

    def copy(self) -> Round:
        return Round(
            [list(hand) for hand in self.hands],
            self.trump,
            self.dealer,
            self.cards,
            list(self.bids),
            list(self.tricks),
            list(self.trick),
            self.turn,
        )

    def bidding(self) -> bool:
        return self.bids[self.dealer] is None

    def over(self) -> bool:
        # Asked before every move: the hand to move is checked first, as it is empty only at the end.
        return not self.hands[self.turn] and not self.bidding()

    def legal(self) -> list[int] | list[str]:
        """Bids (numbers) while bidding, then cards: the dealer may not make the bids add up to the
        cards dealt (the hook), a player must follow the suit led if they can."""
        if self.bidding():
            bids = list(range(self.cards + 1))
            if self.turn == self.dealer:
                hook = self.cards - sum(bid for bid in self.bids if bid is not None)
                if 0 <= hook <= self.cards:
                    del bids[hook]
            return bids
        hand = self.hands[self.turn]
        if self.trick:
            led = self.trick[0][1][1]
            same = [card for card in hand if card[1] == led]
            if same:
                return same
        return list(hand)

    def move(self, action: int | str) -> None:
        seat = self.turn
        if isinstance(action, int):
            self.bids[seat] = action
            self.turn = (seat + 1) % self.players
            return
        self.hands[seat].remove(action)
        self.add_to_trick(seat, action)
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            return
        self.turn = self.taking[0]
        self.tricks[self.turn] += 1
        self.trick = []

    def add_to_trick(self, seat: int, card: str) -> None:
        """A card played to the trick, which takes it if it is the first, else if it tops the card
        taking it so far: the highest trump takes the trick, else the highest of the suit led."""
        if not self.trick or self.tops(card, self.taking[1]):
            self.taking = (seat, card)
        self.trick.append((seat, card))

    def tops(self, card: str, best: str) -> bool:
        """Whether `card` takes the trick from `best`, the card taking it so far."""
        if card[1] == best[1]:
            return RANK_ORDER[card[0]] > RANK_ORDER[best[0]]
        return card[1] == self.trump

    def sensible(self, cards: list[str]) -> str:
        """The card of `cards` (the legal ones) a player aiming at its bid plays on sight of the table
        alone: short of its bid, the cheapest card that takes the trick when it plays last (else its
        highest, the likeliest to hold), its lowest when it cannot win or leads; with its bid made, the
        highest card that loses to the table (shedding danger), else its lowest."""
        seat = self.turn
        short = self.bids[seat] - self.tricks[seat] > 0
        if not self.trick:
            return max(cards, key=self.height) if short else min(cards, key=self.height)
        best = self.taking[1]
        winning = [card for card in cards if self.tops(card, best)]
        if short:
            if not winning:
                return min(cards, key=self.height)
            last = len(self.trick) == self.players - 1
            return min(winning, key=self.height) if last else max(winning, key=self.height)
        losing = [card for card in cards if not self.tops(card, best)]
        return max(losing, key=self.height) if losing else min(cards, key=self.height)

    def table_key(self) -> tuple:
        """What the seat's next decision needs of the table: the suit led, the card taking the trick,
        how many have played to it, and the tricks the seat has won."""
        if not self.trick:
            return (self.tricks[self.turn],)
        return (self.trick[0][1][1], self.taking[1], len(self.trick), self.tricks[self.turn])

    def height(self, card: str) -> int:
        """A card's rank, a trump above every other suit."""
        return RANK_ORDER[card[0]] + (len(RANK_ORDER) if card[1] == self.trump else 0)

    def points(self) -> list[int]:
        """Exactly the bid: 10 + bid; anything else: nothing."""
        return [10 + bid if bid == won else 0 for bid, won in zip(self.bids, self.tricks, strict=True)]


class Node:
    """One information set in the tree: for each move tried from it, the seat's next information sets
    it leads to (by `Round.table_key`), how often it was taken, the points the seat got after it, and
    how often it was there to take."""

    __slots__ = ("available", "children", "totals", "visits")

    def __init__(self) -> None:
        self.children: dict[int | str, dict[tuple, Node]] = {}
        self.visits: dict[int | str, int] = {}
        self.totals: dict[int | str, float] = {}
        self.available: dict[int | str, int] = {}

    def pick(self, legal: list, rng: random.Random) -> int | str:
        """A move not tried yet, else the one with the best upper bound among those legal here."""
        available, visits, totals = self.available, self.visits, self.totals
        untried = []
        for action in legal:
            if action in available:
                available[action] += 1
            else:
                untried.append(action)
        if untried:
            return untried[int(rng.random() * len(untried))]
        best, best_bound = legal[0], -math.inf
        for action in legal:
            seen = visits[action]
            bound = totals[action] / seen + EXPLORATION * math.sqrt(math.log(available[action]) / seen)
            if bound > best_bound:
                best, best_bound = action, bound
        return best


def search(
    deal: Callable[[], Round | None],
    worth: Callable[[list[int]], float],
    seat: int,
    iterations: int,
    rng: random.Random,
    out_of_time: OutOfTime | None = None,
) -> int | str | None:
    """The root move most often taken over `iterations` iterations, each on a fresh deal; None when no
    deal could be drawn. `worth` turns a round's points into the seat's worth, scaled to 0..1."""
    root = grown(deal, worth, seat, iterations, rng, out_of_time)
    if not root.visits:
        return None
    return max(root.visits, key=root.visits.__getitem__)


def grown(
    deal: Callable[[], Round | None],
    worth: Callable[[list[int]], float],
    seat: int,
    iterations: int,
    rng: random.Random,
    out_of_time: OutOfTime | None = None,
) -> Node:
    """The seat's tree after `iterations` iterations (or fewer, once `out_of_time` says so): its root's
    moves, how often each was taken and the worth they brought."""
    root = Node()
    for _ in range(iterations):
        state = deal()
        if state is not None:
            iterate(root, state, worth, seat, rng)
        # Checked after a deal that did not fit too: drawing them is what a tight corner costs.
        if out_of_time is not None and out_of_time():
            break
    return root


def other_move(state: Round, legal: list, rng: random.Random) -> int | str:
    """Another seat's move (the table may hold anyone from a careful player to a random one): a bid as a
    careful player makes it, CAREFUL of the time, else at random; a card as a player aiming at its bid
    would play it, or else at random, as likely the one as its bid makes it a careful player."""
    if state.bidding():
        if rng.random() < CAREFUL:
            return careful_bid(state.hands[state.turn], state.trump, legal)
    elif rng.random() < careful(state.bids[state.turn], state.cards, state.players):
        return state.sensible(legal)
    return legal[int(rng.random() * len(legal))]


def strength(card: str, trump: str | None) -> float:
    """How likely a card is to take a trick on its own, roughly: what a careful player's bid counts."""
    if trump and card[1] == trump:
        return 0.5 + RANK_ORDER[card[0]] / 24
    return {"A": 0.8, "K": 0.5, "Q": 0.2}.get(card[0], 0.0)


# Each card's strength with each suit trumps (or none), looked up where a search counts hands.
STRENGTHS = {trump: {card: strength(card, trump) for card in STANDARD_DECK} for trump in (None, *SUITS)}


def careful_bid(hand: list[str], trump: str | None, bids: list[int]) -> int:
    """The bid of `bids` (the legal ones) a careful player makes: the nearest to the tricks `hand`
    looks good for, card by card (`strength`), the lower of two as near. Easy bids so."""
    worth = STRENGTHS[trump]
    wanted = round(sum(worth[card] for card in hand))
    return min(bids, key=lambda bid: (abs(bid - wanted), bid))


@lru_cache(maxsize=1024)
def careful(bid: int | None, cards: int, players: int) -> float:
    """How likely a seat that bid `bid` is a careful player rather than a random one (CAREFUL before
    it bids): a careful player bids about the tricks it may expect, a fair share of the round's
    (binomial: each trick its own one time in `players`), a random one any bid alike."""
    if bid is None:
        return CAREFUL
    share = 1 / players
    if_careful = math.comb(cards, bid) * share**bid * (1 - share) ** (cards - bid)
    if_random = 1 / (cards + 1)
    return CAREFUL * if_careful / (CAREFUL * if_careful + (1 - CAREFUL) * if_random)


def iterate(
    root: Node, state: Round, worth: Callable[[list[int]], float], seat: int, rng: random.Random
) -> None:
    """One iteration: down the tree, the seat by UCB and the others as `other_move` has them, until the
    seat makes a move not tried before; then the round played out, and its worth counted into every move
    of the seat's on the way."""
    path: list[tuple[Node, int | str]] = []
    node: Node | None = root
    # After the seat's move in the tree: its next information sets, told apart by what the table shows.
    after: dict[tuple, Node] | None = None
    while not state.over():
        legal = state.legal()
        if state.turn != seat:
            action = other_move(state, legal, rng)
        elif node is None and after is None:
            action = state.sensible(legal)
        else:
            if node is None:
                key = state.table_key()
                node = after.get(key) or after.setdefault(key, Node())
            action = node.pick(legal, rng)
            path.append((node, action))
            if action in node.children:
                after = node.children[action]
            else:
                node.children[action] = {}
                node.visits[action] = 0
                node.totals[action] = 0.0
                node.available[action] = 1
                after = None
            node = None
        state.move(action)
    gained = worth(state.points())
    for at, action in path:
        at.visits[action] += 1
        at.totals[action] += gained
