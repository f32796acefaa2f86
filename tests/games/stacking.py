"""Stacked decks for rule tests: say who should hold what, get the deck order that deals it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def deck_dealing(
    hands: Sequence[Sequence[Hashable]],
    first: int,
    full_deck: Sequence[Hashable],
    then: Sequence[Hashable] = (),
) -> list[Hashable]:
    """The deck order (top first) that deals `hands` (by seat) one card at a time from seat `first`.

    `then` comes straight after the deal (a trump card, a pool, a discard); every other card of
    `full_deck` follows in its own order.
    """
    players = len(hands)
    size = len(hands[0])
    order: list[Hashable] = []
    for index in range(size):
        for offset in range(players):
            order.append(hands[(first + offset) % players][index])
    order.extend(then)
    rest = list(full_deck)
    for card in order:
        rest.remove(card)
    return order + rest
