"""What the records make of a game: each game's own statistics."""

from __future__ import annotations

from zerogames.records import statistics


def lines_of(plays):
    (found,) = statistics(plays)
    return found, dict(found.lines)


def test_statistics_add_up_every_finished_game_of_a_game():
    plays = [
        ("zero_game", True, 42, 600.0, {"rounds": 5, "bids_made": 3}),
        ("zero_game", False, 10, 300.0, {"rounds": 5, "bids_made": 1}),
    ]
    found, lines = lines_of(plays)
    assert (found.title, found.games, found.wins, found.win_rate, found.average_score) == (
        "Zero Game",
        2,
        1,
        0.5,
        26.0,
    )
    assert lines == {"Bids made exactly": "4 of 10 (40%)"}


def test_trump_card_statistics_name_the_favourite_trump_and_the_average_collection_and_match():
    plays = [
        ("trump_card", True, 52, 1200.0, {"trump": "H", "collections": 3, "collected": 30, "khoti": True}),
        ("trump_card", False, 20, 600.0, {"trump": "S", "collections": 1, "collected": 6, "khoti": False}),
        ("trump_card", False, 8, 900.0, {"trump": "H", "collections": 0, "collected": 0, "khoti": False}),
        ("trump_card", False, 8, 900.0, {"trump": None, "collections": 0, "collected": 0, "khoti": False}),
    ]
    _, lines = lines_of(plays)
    assert lines == {
        "Average collection": "9.0 cards",
        "Favourite trump suit": "Hearts",
        "Average match": "15 min",
        "KHOTI": "1",
    }


def test_zero_down_cabo_and_zero_statistics():
    _, zero_down = lines_of(
        [
            ("zero_down", True, 20, 60.0, {"rounds": 3, "zeros": 1, "points": 20}),
            ("zero_down", False, 70, 60.0, {"rounds": 3, "zeros": 0, "points": 70}),
        ]
    )
    assert zero_down == {"ZERO declarations": "1", "Average round score": "15.0"}
    _, cabo = lines_of(
        [
            ("cabo", True, 60, 60.0, {"rounds": 6, "calls": 3, "calls_won": 2}),
            ("cabo", False, 110, 60.0, {"rounds": 5, "calls": 1, "calls_won": 0}),
        ]
    )
    assert cabo == {"Cabo calls": "4", "Calls won": "2 of 4 (50%)"}
    _, zero = lines_of(
        [("zero", True, 9, 60.0, {"safe_cards": 9}), ("zero", False, 4, 60.0, {"safe_cards": 4})]
    )
    assert zero == {"Safe cards": "13 (6.5 a game)"}
