"""The simulator: its figures on a small run, counted again by hand from the same games."""

from __future__ import annotations

import json
import math
import random

import pytest

from zerogames import sim
from zerogames.bots import Bot
from zerogames.games import GAMES


def test_lineups_turn_every_level_through_every_seat():
    levels = ["hard", "easy", "easy"]
    assert [sim.lineup_for(levels, game) for game in range(4)] == [
        ["hard", "easy", "easy"],
        ["easy", "hard", "easy"],
        ["easy", "easy", "hard"],
        ["hard", "easy", "easy"],
    ]


def test_wilson_interval_holds_the_rate_and_narrows_with_games():
    low, high = sim.wilson(40, 100)
    assert (low, high) == pytest.approx((0.3094, 0.4980), abs=1e-4)
    wide = sim.wilson(4, 10)
    assert wide[0] < low and wide[1] > high


def test_zero_game_figures_match_a_hand_count():
    """Play the same six games by hand (deal seed + i // 3, lineup turned i seats) and count."""
    rows = sim.simulate("zero_game", ["normal", "easy", "random"], 6, seed=7)
    rules = GAMES["zero_game"]
    counted = {
        level: {"games": 0, "wins": 0, "score": 0, "made": 0, "rounds": 0}
        for level in ("normal", "easy", "random")
    }
    for game in range(6):
        lineup = sim.lineup_for(["normal", "easy", "random"], game)
        tallies = {level: sim.Tally() for level in lineup}
        state = sim.play_game(rules, lineup, 7 + game // 3, {}, None, tallies)
        result = rules.result(state)
        for seat, level in enumerate(lineup):
            count = counted[level]
            count["games"] += 1
            count["wins"] += seat in result["winners"]
            count["score"] += result["scores"][seat]
            for summary in state["history"]:
                count["rounds"] += 1
                count["made"] += summary["bids"][seat] == summary["tricks"][seat]
    for row in rows:
        count = counted[row["level"]]
        assert row["games"] == count["games"] == 6
        assert row["win_rate"] == count["wins"] / 6
        assert row["mean_score"] == count["score"] / 6
        assert row["figure"] == pytest.approx(100 * count["made"] / count["rounds"])


def test_trump_card_banked_share_and_its_interval_match_a_hand_count():
    """Eight games are two deals; a deal's banked cards, both partners' in all four games, are one draw
    of the ratio estimator: r = sum(y) / sum(x), se = sqrt(sum((y - r x)^2) / (n (n - 1))) / mean(x)."""
    levels = ["normal", "easy", "normal", "easy"]
    rows = sim.simulate("trump_card", levels, 8, seed=5)
    rules = GAMES["trump_card"]
    draws = {level: {5: [0, 0], 6: [0, 0]} for level in ("normal", "easy")}
    for game in range(8):
        lineup = sim.lineup_for(levels, game)
        tallies = {level: sim.Tally() for level in lineup}
        state = sim.play_game(rules, lineup, 5 + game // 4, {}, None, tallies)
        banked = rules.result(state)["banked"]
        for seat, level in enumerate(lineup):
            draw = draws[level][5 + game // 4]
            draw[0] += 100 * banked[seat % 2]
            draw[1] += sum(banked)
    for row in rows:
        (y1, x1), (y2, x2) = draws[row["level"]].values()
        share = (y1 + y2) / (x1 + x2)
        error = (((y1 - share * x1) ** 2 + (y2 - share * x2) ** 2) / (2 * 1)) ** 0.5 / ((x1 + x2) / 2)
        assert row["figure"] == pytest.approx(share)
        assert row["figure_ci95"] == pytest.approx([share - 1.959964 * error, share + 1.959964 * error])
    # Two levels bank between them every card banked, so their shares mirror each other about 50.
    assert rows[0]["figure"] + rows[1]["figure"] == pytest.approx(100)
    assert sum(rows[0]["figure_ci95"]) + sum(rows[1]["figure_ci95"]) == pytest.approx(200)


def test_jobs_play_the_same_games_to_the_same_figures():
    """Seven games of three seats: two whole deals and one game of a third, split between processes."""
    timed = {"decision_ms_p50", "decision_ms_p99", "decision_ms_max", "decision_cpu_ms_p99"}
    figures = []
    for jobs in (1, 2):
        rows = sim.simulate("zero_down", ["normal", "easy", "random"], 7, seed=3, jobs=jobs)
        figures.append([{key: value for key, value in row.items() if key not in timed} for row in rows])
    assert figures[0] == figures[1]
    assert [row["games"] for row in figures[0]] == [7, 7, 7]


def test_a_figure_from_a_single_deal_has_no_interval():
    assert all(math.isnan(end) for end in sim.ratio_interval([[30.0, 60.0]]))


def test_json_prints_one_object_per_level_with_the_issue_keys(capsys):
    sim.main(
        [
            "trump_card",
            "--seats",
            "hard,easy,hard,easy",
            "--games",
            "2",
            "--seed",
            "3",
            "--json",
            "--budget",
            "2",
        ]
    )
    lines = capsys.readouterr().out.strip().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [row["level"] for row in rows] == ["hard", "easy"]
    for row in rows:
        assert {
            "level",
            "games",
            "win_rate",
            "win_rate_ci95",
            "mean_score",
            "figure",
            "figure_ci95",
            "decision_ms_p50",
            "decision_ms_p99",
        } <= set(row)
        assert row["games"] == 4
    # Trump Card's figure: each team's share of the cards banked, so the two levels' shares add to 100.
    assert rows[0]["figure"] + rows[1]["figure"] == pytest.approx(100)


def test_a_bad_level_or_table_size_is_refused_with_a_message(capsys):
    with pytest.raises(SystemExit):
        sim.main(["zero_game", "--seats", "hard,genius,easy"])
    assert "unknown level" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        sim.main(["trump_card", "--seats", "hard,easy,easy"])
    assert "4 to 4" in capsys.readouterr().err


def test_a_bot_level_must_exist():
    with pytest.raises(ValueError, match="unknown bot level"):
        Bot("zero", "expert")


def test_paired_difference_is_the_mean_of_each_deals_difference_with_its_interval():
    one, other = sim.Tally(), sim.Tally()
    for deal, (mine, theirs) in enumerate([(30, 20), (10, 10), (26, 14)]):
        one.count_score(deal, mine * 2, 2)
        other.count_score(deal, theirs * 3, 3)
    paired = sim.paired_difference(one, other)
    # Differences 10, 0, 12: mean 22/3, sample deviation sqrt(248/3 / 2).
    error = math.sqrt(((10 - 22 / 3) ** 2 + (22 / 3) ** 2 + (12 - 22 / 3) ** 2) / 2 / 3)
    assert paired["difference"] == pytest.approx(22 / 3)
    assert paired["ci95"] == pytest.approx([22 / 3 - 1.959964 * error, 22 / 3 + 1.959964 * error])
    assert paired["deals"] == 3


def test_the_reference_seat_plays_whole_zero_game_rounds_in_step_with_the_engine():
    """OpenSpiel's round is kept beside the engine's (the seat refuses to move when out of step) and its
    moves are the engine's legal ones, round after round."""
    pytest.importorskip("pyspiel")
    rows = sim.simulate(
        "zero_game", ["ismcts", "random", "random"], 3, seed=2, options={"schedule": [4, 2, 3]}
    )
    assert [row["games"] for row in rows] == [3, 6]
    assert rows[0]["mean_score"] > rows[1]["mean_score"]


def test_the_reference_seat_draws_the_hidden_hands_from_the_cards_really_dealt():
    """OpenSpiel's `oh_hell` resampler deals the other seats only the cards they really hold, shuffled
    among them, never a card left in the deck: the reference knows which unseen cards are in play, which
    no seat of the engine's can (five seats of five cards: 20 of the 46 it cannot see)."""
    pytest.importorskip("pyspiel")
    state = GAMES["zero_game"].new_game(5, 4, {"schedule": [5]})
    seat = sim.OpenSpielSeat(0, 4)
    seat.follow(state)
    in_play = {sim.spiel_card(card) for hand in state["hands"][1:] for card in hand}
    rng = random.Random(1)
    for _ in range(50):
        drawn = seat.round.resample_from_infostate(0, rng.random)
        dealt = drawn.history()[2:27]
        others = {card for index, card in enumerate(dealt) if index % 5 != 0}
        assert others == in_play


def fair_seat_at(seed: int, moves: int) -> tuple[dict, sim.FairSeat, sim.OpenSpielSeat]:
    """A five-card round of five players played at random for `moves` moves, then the fair reference in
    the seat whose turn it is, shown every view of its seat since the deal; beside it the leaky
    reference of the same seat, whose round is the true one."""
    rules = GAMES["zero_game"]
    state = rules.new_game(5, seed, {"schedule": [5]})
    rng = random.Random(seed)
    views = []
    for _ in range(moves):
        views.append(state)
        seat = state["turn"]
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    views.append(state)
    me = state["turn"]
    fair, leaky = sim.FairSeat(me, seed), sim.OpenSpielSeat(me, seed)
    for seen in views:
        fair.see(rules.view(seen, me))
        leaky.follow(seen)
    return state, fair, leaky


def test_the_fair_reference_seat_draws_the_hidden_hands_from_every_card_it_cannot_see():
    """The mirror of the leak above: the fair seat deals the other seats from all 46 cards its seat
    cannot see before a card is played, so about 26 in 46 of the cards it deals them are out of play."""
    pytest.importorskip("pyspiel")
    state, fair, _ = fair_seat_at(4, 0)
    me = fair.seat
    view = GAMES["zero_game"].view(state, me)
    in_play = {card for seat, hand in enumerate(state["hands"]) if seat != me for card in hand}
    rng = random.Random(1)
    outside = dealt = 0
    for _ in range(20):
        for drawn in fair.deals(view, rng):
            cards = [sim.card_of(card) for card in drawn.history()[2:27]]
            assert sorted(cards[me::5]) == sorted(state["hands"][me])
            others = {card for index, card in enumerate(cards) if index % 5 != me}
            assert len(others) == 20 and not others & {*state["hands"][me], state["stock"][0]}
            outside += len(others - in_play)
            dealt += len(others)
    assert dealt == 20 * sim.FAIR_SEARCHES * 20
    assert outside / dealt == pytest.approx(26 / 46, abs=0.03)


def test_the_fair_reference_seat_replays_the_round_it_saw_on_every_deal_it_draws():
    """Mid-round, each drawn round is the seat's own information state to the letter (its hand, the
    bids, every card played, in order) and no seat is dealt a suit it has shown it lacks."""
    pytest.importorskip("pyspiel")
    voids = 0
    for seed in range(6):
        state, fair, leaky = fair_seat_at(seed, 5 + 7 + seed)
        me = fair.seat
        view = GAMES["zero_game"].view(state, me)
        lacking = fair.memory.voids(view)
        voids += sum(len(suits) for suits in lacking.values())
        drawn = fair.deals(view, random.Random(seed))
        assert len(drawn) == sim.FAIR_SEARCHES
        for round_ in drawn:
            assert round_.information_state_string(me) == leaky.round.information_state_string(me)
            hands = [[sim.card_of(card) for card in round_.history()[2:27][seat::5]] for seat in range(5)]
            played = {card for _, card in fair.memory.played(view)}
            for seat, suits in lacking.items():
                assert not [card for card in hands[seat] if card not in played and card[1] in suits]
    assert voids  # some seat did show it lacks a suit


def test_the_fair_reference_seat_plays_whole_zero_game_games():
    """Seated from the command line, it plays its rounds' moves from its views to the game's end."""
    pytest.importorskip("pyspiel")
    rows = sim.simulate(
        "zero_game", ["fair-ismcts", "random", "random"], 3, seed=2, options={"schedule": [4, 2, 3]}
    )
    assert [row["games"] for row in rows] == [3, 6]
    assert rows[0]["mean_score"] > rows[1]["mean_score"]
    args = sim.arguments(["zero_game", "--seats", "fair-ismcts,hard,ismcts"])
    assert args.levels == ["fair-ismcts", "hard", "ismcts"]
