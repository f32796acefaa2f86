"""Table talk's rules (zerogames.talk), the series score and the rematch's seat rotation, as pure
functions."""

from __future__ import annotations

import pytest

from zerogames import talk
from zerogames.rooms import Refused, clean_name
from zerogames.rooms.facts import Seat
from zerogames.rooms.lobby import rotated
from zerogames.rooms.play import scored


def test_a_chat_line_is_at_most_the_length_cap():
    assert talk.message("chat", "x" * talk.LENGTH, True) == "x" * talk.LENGTH
    with pytest.raises(ValueError, match=f"at most {talk.LENGTH} characters"):
        talk.message("chat", "x" * (talk.LENGTH + 1), True)


def test_only_the_listed_reactions_and_phrases_are_said():
    assert talk.message("reaction", "👍", False) == "👍"
    assert talk.message("phrase", "Nice bid", False) == "Nice bid"
    with pytest.raises(ValueError, match="reactions shown"):
        talk.message("reaction", "<b>", True)
    with pytest.raises(ValueError, match="phrases shown"):
        talk.message("phrase", "Nice bid!!!", True)


def test_chat_switched_off_refuses_free_text_in_words():
    with pytest.raises(ValueError, match="switched chat off"):
        talk.message("chat", "hello", False)


def test_chat_is_on_at_an_unranked_table_and_off_at_a_ranked_one_unless_the_host_says():
    assert talk.chat_on({}, ranked=False) and not talk.chat_on({}, ranked=True)
    assert talk.chat_on({talk.CHAT: True}, ranked=True) and not talk.chat_on({talk.CHAT: False}, ranked=False)


def test_white_space_and_control_characters_are_folded_and_an_empty_line_refused():
    assert talk.message("chat", "  hi \u202e  there \n", True) == "hi there"
    with pytest.raises(ValueError, match="Write something"):
        talk.message("chat", " \u200b ", True)


def test_one_message_per_half_second_per_sender():
    assert not talk.too_soon(None, 100.0)
    assert talk.too_soon(100.0, 100.0 + talk.EVERY - 0.01)
    assert not talk.too_soon(100.0, 100.0 + talk.EVERY)


def test_the_word_filter_stars_listed_words_in_chat_and_keeps_the_rest():
    assert talk.message("chat", "you SHIT player, F4GG0T", True) == "you **** player, ******"
    assert talk.message("chat", "Scunthorpe is a town; assess the shitake", True).startswith("Scunthorpe")


def test_names_with_a_listed_word_are_refused_even_run_together():
    for name in ("Bitchface", "f.u.c.k", "Nigg4"):
        with pytest.raises(Refused, match="keeps out of names"):
            clean_name(name)
    assert clean_name("Cassandra") == "Cassandra"


def test_a_table_keeps_its_latest_lines_and_a_muted_player_is_never_heard():
    lines: tuple[talk.Said, ...] = ()
    for n in range(1, talk.KEPT + 5):
        lines = talk.kept(lines, talk.Said(n, "ann" if n % 2 else "bea", "x", "phrase", "Good luck", n))
    assert len(lines) == talk.KEPT and lines[-1].n == talk.KEPT + 4
    assert {said.uid for said in talk.heard(lines, frozenset({"ann"}))} == {"bea"}
    assert set(talk.fresh(lines, lines[-1].at + 0.5)) == {"ann", "bea"}
    assert talk.fresh(lines, lines[-1].at + talk.SHOWN_FOR) == {}


def test_the_series_counts_games_won_by_each_name_in_the_order_they_first_won():
    series = scored((), ["Bea"])
    series = scored(series, ["Ann", "Bea"])
    series = scored(series, [])  # a draw, or an abandoned game
    assert series == (("Bea", 2), ("Ann", 1))


def test_a_rematch_moves_every_seat_up_one_the_first_going_last():
    seats = (Seat("a", "Ann"), Seat("b", "Bea"), Seat(None, "Cog (bot)", "easy"))
    assert [seat.name for seat in rotated(seats)] == ["Bea", "Cog (bot)", "Ann"]
    assert rotated(rotated(rotated(seats))) == seats
