"""Every bot, in every seat, plays whole games from its view alone and only makes legal moves."""
# (A bot may also wait; the game must still go on.)

from __future__ import annotations

import random

import pytest

from zerogames import sim
from zerogames.bots import BOTS, Bot, choose
from zerogames.games import GAMES


@pytest.mark.parametrize("game_id", sorted(BOTS))
@pytest.mark.parametrize("seed", range(10))
def test_bots_finish_games_with_legal_moves(game_id, seed):
    rules = GAMES[game_id]
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    now = 0.0
    for _ in range(100_000):
        if rules.result(state) is not None:
            break
        acting = [seat for seat in range(players) if rules.legal_actions(state, seat, now)]
        rng.shuffle(acting)
        # Seats are asked in a random order; a bot may wait (return None), but someone must act.
        for seat in acting:
            legal = rules.legal_actions(state, seat, now)
            action = choose(game_id, rules.view(state, seat, now), legal, "easy", rng)
            if action is not None:
                break
        assert action in legal
        state = rules.apply(state, seat, action, now)
        now += 1.0
    assert rules.result(state) is not None


# Games each level plays against the others: every level sits at every table, in every seat in turn.
GAMES_EACH = 200


@pytest.mark.parametrize("game_id", sorted(BOTS))
def test_every_level_plays_hundreds_of_games_against_the_others_with_legal_moves(game_id):
    """The simulator refuses an illegal move. Hard searches one deal a decision, so that the test stays
    quick: the moves it weighs are the same legal ones whatever its budget."""
    levels = ["hard", "normal", "easy", "random"]
    rows = sim.simulate(game_id, levels, games=GAMES_EACH, seed=11, budget=1)
    assert [row["games"] for row in rows] == [GAMES_EACH] * len(levels)


@pytest.mark.parametrize("game_id", sorted(BOTS))
def test_hard_decides_from_the_view_alone(game_id):
    """Two tables that differ only in cards the seat cannot see: the same view, the same choice."""
    rules = GAMES[game_id]
    state = rules.new_game(4, 3)
    seat = next(seat for seat in range(4) if len(rules.legal_actions(state, seat)) > 1)
    # The other hands exchanged, and whatever is still to be dealt, turned round.
    one, two = [other for other in range(4) if other != seat][:2]
    hands = list(state["hands"])
    hands[one], hands[two] = hands[two], hands[one]
    hidden = {key: tuple(reversed(state[key])) for key in ("stock", "deck", "pile", "out") if key in state}
    if game_id == "zero_game":
        hidden["stock"] = (state["stock"][0], *reversed(state["stock"][1:]))  # the trump card is shown
    other = {**state, "hands": tuple(hands), **hidden}
    assert_hard_chooses_alike(game_id, state, other, seat)


@pytest.mark.parametrize("game_id", sorted(BOTS))
def test_the_easy_bot_wins_more_than_random_players(game_id):
    """A bot that played at random would pass every test of legal moves: this one it would fail. Over
    200 seeded games against random players, Easy's win rate is above theirs beyond both 95% intervals."""
    rules = GAMES[game_id]
    randoms = min(3, rules.max_players - 1)
    easy, random_players = sim.simulate(game_id, ["easy", *["random"] * randoms], 200, seed=1)
    assert easy["win_rate_ci95"][0] > random_players["win_rate_ci95"][1], (easy, random_players)


@pytest.mark.parametrize("game_id", ["cabo", "trump_card"])
def test_hard_searches_a_turn_of_play_from_the_view_alone(game_id):
    """The same in the thick of play, where Hard searches (Cabo's first turn, Trump Card's first lead):
    the other hands exchanged and the deck turned round, the same view, the same choice."""
    rules = GAMES[game_id]
    state = rules.new_game(4, 7)
    rng = random.Random(7)
    while state["phase"] != "play":
        seat = next(seat for seat in range(4) if rules.legal_actions(state, seat))
        state = rules.apply(
            state,
            seat,
            choose(game_id, rules.view(state, seat), rules.legal_actions(state, seat), "easy", rng),
        )
    seat = state["turn"]
    assert len(rules.legal_actions(state, seat)) > 1
    one, two = [other for other in range(4) if other != seat][:2]
    hands = list(state["hands"])
    hands[one], hands[two] = hands[two], hands[one]
    other = {**state, "hands": tuple(hands), "deck": tuple(reversed(state["deck"]))}
    assert_hard_chooses_alike(game_id, state, other, seat)


def assert_hard_chooses_alike(game_id: str, state: dict, other: dict, seat: int) -> None:
    """Two tables that differ only in cards the seat cannot see: the same view, and Hard's same choice."""
    rules = GAMES[game_id]
    assert other != state
    assert rules.view(other, seat) == rules.view(state, seat)
    choices = []
    for table in (state, other):
        bot = Bot(game_id, "hard")
        bot.see(rules.view(table, seat))
        choices.append(
            bot.choose(rules.view(table, seat), rules.legal_actions(table, seat), random.Random(5))
        )
    assert choices[0] == choices[1]
