"""Zero's Normal and Hard bots: they read the guesses made before theirs and bank the most cards."""

from __future__ import annotations

import random

import pytest

from tests.games.test_zero import arranged
from zerogames.bots import Bot, choose
from zerogames.games import GAMES
from zerogames.games.zero import bot as zero_bot
from zerogames.games.zero.bot import taken_by_others

RULES = GAMES["zero"]


def played(state, cards):
    """Everyone plays their card (by seat)."""
    for seat, card in enumerate(cards):
        state = RULES.apply(state, seat, {"type": "play", "card": card})
    return state


def decided(state, seat, level):
    bot = Bot("zero", level)
    view = RULES.view(state, seat)
    bot.see(view)
    return bot.choose(view, RULES.legal_actions(state, seat), random.Random(1))


def test_normal_guessing_last_reads_the_others_cards_from_their_guesses():
    """Seats 0 and 1 play a 3 and a 2 and guess as Easy does, their card plus twice the average (about
    1.1): 5, then 4. Seat 2 played a 1 and reads them: the total is 6, where its own card and the
    average alone would say 3. (Hard, before it has seen how these two guess, also weighs the chance
    that seat 1 read seat 0's guess and played a 0.)"""
    state = played(arranged([(1, 2, 3, 3, 3), (-1, 1, 2, 2, 3), (-1, 1, 2, 3, 3)]), [3, 2, 1])
    for seat in (0, 1):
        legal = RULES.legal_actions(state, seat)
        state = RULES.apply(
            state, seat, choose("zero", RULES.view(state, seat), legal, "easy", random.Random(1))
        )
    assert [total for _, total in state["guesses"]] == [5, 4]
    assert decided(state, 2, "normal") == {"type": "guess", "total": 6}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_it_lays_the_sets_that_bank_the_most_cards(level):
    """Seat 0 guesses 7 right and holds -2, four 2s and four 3s: laying the largest set first
    (3 3 2 2 2 -2) leaves 3 3 2, no set, where 3 3 2 2 twice banks 8 of the 9 cards."""
    hands = [(2, 3, 3, 3, 3), (-2, 1, 1, 1, 1), (2, -1, -1, -1, 1), (2, -1, -1, -1, 1), (2, 0, 0, 1, 1)]
    # Every other card lies safe already, so that no card is drawn while laying.
    state = played(arranged(hands, rest="safe"), [3, -2, 2, 2, 2])
    for seat, total in enumerate([7, 1, 2, 3, 4]):
        state = RULES.apply(state, seat, {"type": "guess", "total": total})
    assert state["phase"] == "safe" and state["turn"] == 0
    while state["phase"] == "safe":
        state = RULES.apply(state, 0, decided(state, 0, level))
    assert RULES.scores(state)[0] == 8


def test_a_trick_another_player_takes_counts_against_hard():
    """Seat 1 guesses the total 4 and takes the three cards: Hard (seat 0) counts them against itself;
    a trick it takes, or no one does, costs nothing."""
    state = played(arranged([(1, 2, 3, 3, 3), (-1, 1, 2, 2, 3), (-1, 1, 2, 3, 3)]), [3, 2, -1])
    trick = state["trick"]
    for seat, total in enumerate([1, 4, 2]):
        state = RULES.apply(state, seat, {"type": "guess", "total": total})
    assert taken_by_others(state, trick, 0) == 3
    assert taken_by_others(state, trick, 1) == 0


def test_hard_weighs_a_card_lower_for_the_cards_others_would_take(monkeypatch):
    """The same deals played out with the others' takings counted and not: counted, some card is worth
    less to Hard (so its choice can turn on them)."""
    state = arranged([(1, 2, 3, 3, 3), (-1, 1, 2, 2, 3), (-1, 1, 2, 3, 3)])
    bot = Bot("zero", "hard")
    view = RULES.view(state, 0)
    bot.see(view)
    legal = RULES.legal_actions(state, 0)

    def worths() -> list[float]:
        return zero_bot.values(view, legal, bot.memory, random.Random(1), 50)

    counted = worths()
    monkeypatch.setattr(zero_bot, "TAKEN_WORTH", 0.0)
    assert any(with_them < without for with_them, without in zip(counted, worths(), strict=True))
