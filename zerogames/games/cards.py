"""The standard deck and what every card game here shares: names, seeded shuffles, dealing, tricks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

Card = TypeVar("Card", bound=Hashable)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
STANDARD_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

RANK_NAMES = {
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
# Aces high: a card's strength within its suit.
RANK_ORDER = {rank: index for index, rank in enumerate(RANKS)}


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def card_name(card: str) -> str:
    """The spoken name a screen reader says: 'Queen of spades'."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def short_name(card: str) -> str:
    """The printed face: 'Q♠', '10♦'."""
    face = "10" if card[0] == "T" else card[0]
    return face + SUIT_SYMBOLS[card[1]]


def sort_hand(hand: Sequence[str]) -> tuple[str, ...]:
    """Suits apart, low to high in each, so a hand reads the way a player fans it."""
    return tuple(sorted(hand, key=lambda card: (SUITS.index(card[1]), RANK_ORDER[card[0]])))


def shuffle(
    cards: Sequence[Card], seed: int, index: int, stacked: Sequence[Sequence[Card]]
) -> tuple[Card, ...]:
    """The game's index-th shuffle of `cards`: the index-th stacked deck if there is one, else seeded.

    Each shuffle gets its own generator, derived from the seed and its index, so a state needs to
    remember only how many shuffles it has made to stay replayable.
    """
    if index < len(stacked):
        deck = tuple(stacked[index])
        if Counter(deck) != Counter(cards):
            raise ValueError(f"stacked deck {index} is not an order of the {len(cards)} cards being shuffled")
        return deck
    # Sorting by random keys: a uniform shuffle, and several times faster than random.shuffle.
    draw = random.Random(f"{seed}/{index}").random
    keys = [draw() for _ in cards]
    return tuple(cards[at] for at in sorted(range(len(cards)), key=keys.__getitem__))


def deal(
    deck: Sequence[Card], players: int, count: int, first: int
) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """Deal `count` cards each, one at a time from the top, clockwise from seat `first`.

    Returns the hands by seat and how many cards were taken from the deck.
    """
    taken = players * count
    if taken > len(deck):
        raise ValueError(f"cannot deal {count} cards to {players} players from {len(deck)} cards")
    hands = [()] * players
    for offset in range(players):
        seat = (first + offset) % players
        hands[seat] = tuple(deck[offset:taken:players])
    return tuple(hands), taken


def trick_winner(played: Sequence[str], trump: str | None) -> int:
    """Index (in play order) of the card that wins the trick.

    The highest trump wins; with no trump in the trick, the highest card of the suit led.
    """
    best = 0
    for index in range(1, len(played)):
        card, top = played[index], played[best]
        if card[1] == top[1]:
            if RANK_ORDER[card[0]] > RANK_ORDER[top[0]]:
                best = index
        elif card[1] == trump:
            # The best card so far is of another suit, so it is no trump: any trump beats it.
            best = index
    return best


def following_suit(hand: Sequence[str], led: str | None) -> Sequence[str]:
    """The cards a player may play: those of the led suit if any are held, else the whole hand."""
    if led is not None:
        same = [card for card in hand if card[1] == led]
        if same:
            return same
    return hand


def follows_suit(hand: Sequence[str], led: str | None, card: str) -> bool:
    """Whether `card`, one of `hand`, is among `following_suit`'s: the same rule for a single card,
    which checks a move without making the list."""
    return led is None or card[1] == led or all(held[1] != led for held in hand)
