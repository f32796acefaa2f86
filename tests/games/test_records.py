"""What every engine gives the records: `open_view` (all cards open, for replays) and `figures`."""

from __future__ import annotations

import json
import random

import pytest

from tests.games.playouts import random_playout
from zerogames.games import GAMES

# A few games of each, at every player count, are enough: the figures are counts over a whole game.
GAMES_EACH = 12


def playouts(game_id: str):
    rules = GAMES[game_id]
    counts = range(rules.min_players, rules.max_players + 1)
    for seed in range(GAMES_EACH):
        players = counts[seed % len(counts)]
        yield rules, random_playout(rules, players, seed, checks=False, seconds_per_action=1.0)


def moments(rules, playout, every: int = 7):
    """Every `every`-th state of a played game, with the moment it was reached."""
    state = rules.new_game(playout.players, playout.seed, playout.options)
    for n, (seat, action, now) in enumerate(playout.log):
        state = rules.apply(state, seat, action, now)
        if n % every == 0 or n == len(playout.log) - 1:
            yield state, now


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_open_view_shows_every_hand_over_the_spectators_table(game_id):
    for rules, playout in playouts(game_id):
        for state, now in moments(rules, playout):
            opened = rules.open_view(state, now)
            assert json.loads(json.dumps(opened)) == opened
            public = rules.view(state, None, now)
            # The spectator's table, with what was hidden laid open (and nothing else changed).
            laid_open = {"hands", "open", "played", "drawn"}
            assert {k: v for k, v in opened.items() if k not in laid_open} == {
                k: v for k, v in public.items() if k not in laid_open
            }
            assert opened["open"] is True and len(opened["hands"]) == playout.players
            for seat, hand in enumerate(opened["hands"]):
                assert None not in hand
                own = rules.view(state, seat, now)["hand"]
                # The seat's own hand as it sees it, with what is face down to it (Cabo) laid open.
                assert all(mine in (None, card) for mine, card in zip(own, hand, strict=True))


def test_cabo_open_view_shows_the_cards_nobody_sees_and_the_drawn_card():
    rules = GAMES["cabo"]
    state = rules.new_game(3, seed=5, options={"dealer": 0})
    for seat in range(3):
        state = rules.apply(state, seat, {"type": "peek", "slots": [0, 1]}, 0.0)
    turn = state["turn"]
    state = rules.apply(state, turn, {"type": "draw"}, 10.0)
    opened = rules.open_view(state, 10.0)
    # Slots 2 and 3 were never looked at, and the drawn card is in the drawer's hand alone.
    assert all(card not in (None, "empty") for hand in opened["hands"] for card in hand)
    assert rules.view(state, None, 10.0)["hands"][turn][2] is None
    assert opened["drawn"] == rules.view(state, turn, 10.0)["drawn"] is not None


def test_zero_open_view_shows_the_cards_played_face_down():
    rules = GAMES["zero"]
    state = rules.new_game(3, seed=1)
    card = rules.legal_actions(state, 1)[0]["card"]
    state = rules.apply(state, 1, {"type": "play", "card": card})
    assert rules.open_view(state)["played"] == [None, card, None]
    assert rules.view(state, None)["played_card"] is None


# Each game's figures, worked out again from what every player saw: the last view's round history.
def zero_game_figures(view, seat):
    history = view["history"]
    made = sum(1 for past in history if past["bids"][seat] == past["tricks"][seat])
    return {"rounds": len(history), "bids_made": made}


def zero_figures(view, seat):
    return {"safe_cards": sum(len(cards) for cards in view["safe"][seat])}


def zero_down_figures(view, seat):
    history = view["history"]
    return {
        "rounds": len(history),
        "zeros": sum(1 for past in history if past["zero"] == seat),
        "points": view["scores"][seat],
    }


def cabo_figures(view, seat):
    calls = [past for past in view["history"] if past["caller"] == seat]
    won = sum(1 for past in calls if past["outcome"] == "lowest")
    return {"rounds": len(view["history"]), "calls": len(calls), "calls_won": won}


def trump_card_figures(view, seat):
    won = [past for past in view["history"] if past["winner"] == seat and past["banked"] is not None]
    banked = [past["bank"] for past in won]
    return {
        "trump": view["trump"] if seat == view["chooser"] else None,
        "collections": len(banked),
        "collected": sum(banked),
        "khoti": seat in view["result"]["winners"],
    }


SEEN = {
    "zero_game": zero_game_figures,
    "zero": zero_figures,
    "zero_down": zero_down_figures,
    "cabo": cabo_figures,
    "trump_card": trump_card_figures,
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_figures_count_what_the_table_showed(game_id):
    for rules, playout in playouts(game_id):
        figures = rules.figures(playout.final)
        assert json.loads(json.dumps(figures)) == figures
        view = rules.view(playout.final, None)
        assert figures == [SEEN[game_id](view, seat) for seat in range(playout.players)]


def test_figures_of_a_game_just_dealt_are_all_nothing():
    for game_id, rules in GAMES.items():
        players = rules.min_players
        state = rules.new_game(players, seed=random.Random(game_id).randrange(100))
        for seat in rules.figures(state):
            assert not any(seat.values()), (game_id, seat)
