"""Zero's live table through the web: everybody plays at once, hidden cards stay out of every page."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from tests.games.stacking import deck_dealing
from tests.web.conftest import act, headline, page, region, started_at
from zerogames.games.zero.rules import DECK

# Ann, Bea and Cal are dealt these; Ann guesses first.
HANDS = ([0, 2, 2, 3, 3], [1, 1, 1, -1, -1], [2, 2, -2, -3, 0])
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games" / "zero"


def started(player, registry, hands=HANDS):
    """Ann, Bea and Cal at a Zero table dealt `hands`, the game begun."""
    return started_at(player, registry, "zero", {"decks": [deck_dealing(hands, 0, DECK)], "first_guesser": 0})


def move(client, code, **action):
    return act(client, code, json.dumps(action))


def test_everybody_who_has_not_played_has_their_turn_at_once(player, registry):
    code, (ann, bea, cal), _room = started(player, registry)
    for client in (ann, bea, cal):
        assert headline(page(client, code)) == "Your turn: play a card face down"
    move(bea, code, type="play", card=1)
    assert headline(page(bea, code)) == "Waiting for Ann and Cal to play a card"
    assert headline(page(ann, code)) == "Your turn: play a card face down"
    assert "Bea played a card face down." in page(cal, code)


def test_the_hand_shows_signed_card_faces_with_spoken_names(player, registry):
    code, (ann, bea, _cal), _room = started(player, registry)
    hand = region(page(ann, code), "hand")
    assert [label for label in re.findall(r'aria-label="(Card [^"]+)"', hand)] == [
        "Card 0",
        "Card plus 2",
        "Card plus 2",
        "Card plus 3",
        "Card plus 3",
    ]
    assert ">+3</button>" in hand
    assert "Card minus 1" in region(page(bea, code), "hand")
    assert ">−1</button>" in region(page(bea, code), "hand")


def test_a_page_holds_nobody_elses_played_card_before_the_reveal(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    move(bea, code, type="play", card=-1)
    move(cal, code, type="play", card=-3)
    before = page(ann, code)
    # The same table with Bea's and Cal's cards swapped for others: Ann's page must not change a byte.
    with room.lock:
        room.facts = replace(room.facts, state={**room.state, "played": (None, 1, 2)})
        room.published = room.publication(room.published)
    assert page(ann, code) == before
    move(ann, code, type="play", card=3)
    for client, own in ((ann, "plus 3"), (bea, "plus 1"), (cal, "plus 2")):
        html = page(client, code)
        assert f"Your card, face down: {own}" in html
        assert html.count("card, face down") == 3
        assert html.count("card-back") == 2


def test_guesses_go_in_order_and_taken_totals_are_struck_out(player, registry):
    code, (ann, bea, cal), _room = started(player, registry)
    for client, card in ((cal, 0), (ann, 3), (bea, 1)):
        move(client, code, type="play", card=card)
    assert headline(page(ann, code)) == "Your turn: guess the total"
    assert headline(page(bea, code)) == "Waiting for Ann to guess"
    assert "Guess minus 9" in page(ann, code) and "Guess 9" in page(ann, code)
    move(ann, code, type="guess", total=4)
    html = page(bea, code)
    assert 'aria-label="Guess 4, already taken"><s>4</s>' in html
    assert re.search(r'<button class="button guess taken" disabled aria-label="Guess 4', html)
    assert "Ann guessed 4." in html
    refused = move(cal, code, type="guess", total=5)
    assert "It is not your turn to guess." in refused.text


def test_the_reveal_tells_the_total_and_who_took_the_cards(player, registry):
    code, (ann, bea, cal), _room = started(player, registry)
    for client, card in ((ann, 3), (bea, 1), (cal, 2)):
        move(client, code, type="play", card=card)
    for client, total in ((ann, 6), (bea, 5), (cal, 0)):
        move(client, code, type="guess", total=total)
    html = page(cal, code)
    assert "Cal guessed 0 and the cards turned up: total 6." in html
    assert "Total 6: Ann guessed it and takes the 3 cards." in region(html, "trick")
    assert headline(html) == "Waiting for Ann to lay down safe sets"


def test_zeros_that_cancel_are_told(player, registry):
    code, (ann, bea, cal), _room = started(player, registry)
    for client, card in ((ann, 0), (bea, 1), (cal, 0)):
        move(client, code, type="play", card=card)
    for client, total in ((ann, 5), (bea, 6), (cal, 7)):
        move(client, code, type="guess", total=total)
    trick = region(page(bea, code), "trick")
    assert "Ann and Cal each played a 0: the zeros cancel" in trick
    assert "Last reveal: trick 1, total 1" in trick


def test_the_taker_picks_safe_sets_with_checkboxes_then_done(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    for client, card in ((ann, 0), (bea, 1), (cal, 2)):
        move(client, code, type="play", card=card)
    for client, total in ((ann, 9), (bea, 8), (cal, 7)):
        move(client, code, type="guess", total=total)
    # Nobody guessed 3: Ann, who played the only 0, takes 0, 1 and 2.
    html = page(ann, code)
    assert headline(html) == "Your turn: lay down safe sets, or Done"
    hand = region(html, "hand")
    assert hand.count('type="checkbox"') == 7
    assert 'data-value="-' not in hand and 'aria-label="Card plus 3"' in hand
    assert re.search(r"<button[^>]*data-lay disabled>Lay down</button>", hand)
    assert ">Done</button>" in hand
    assert "data-safe" not in region(page(bea, code), "hand")
    assert (
        "A safe set must sum to exactly 0 or exactly 10." in move(ann, code, type="safe", cards=[3, 3]).text
    )
    move(ann, code, type="safe", cards=[3, 3, 2, 2])
    html = page(bea, code)
    assert "Ann laid down a safe set: +3 +3 +2 +2 (sum 10)." in html
    assert 'aria-label="Ann\'s safe cards"' in html
    assert "Points <strong>4</strong>" in region(html, "seats")
    move(ann, code, type="done")
    assert room.state["phase"] == "play" and room.state["trick"] == 2
    assert "Ann is done laying safe sets." in page(cal, code)


def test_two_players_who_play_on_the_same_table_both_have_their_card_taken(player, registry):
    code, (ann, bea, _cal), room = started(player, registry)
    version = room.version
    move_on = {"version": version}
    act(ann, code, json.dumps({"type": "play", "card": 2}), **move_on)
    answer = act(bea, code, json.dumps({"type": "play", "card": 1}), **move_on)
    assert "The table changed" not in answer.text
    assert room.state["played"] == (2, 1, None)
    # A double click (the same table again, after one's own move) is still turned away.
    again = act(ann, code, json.dumps({"type": "play", "card": 3}), **move_on)
    assert "The table changed before your move arrived" in again.text
    assert room.state["played"] == (2, 1, None)


def test_the_game_over_screen_names_the_winner_and_offers_play_again(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    # The last trick of a game: the pile is empty and each holds one card.
    with room.lock:
        room.facts = replace(room.facts, state={**room.state, "hands": ((0,), (1,), (2,)), "pile": ()})
        room.published = room.publication(room.published)
    for client, card in ((ann, 0), (bea, 1), (cal, 2)):
        move(client, code, type="play", card=card)
    for client, total in ((ann, 9), (bea, 8), (cal, 7)):
        move(client, code, type="guess", total=total)
    # Ann lays her 0 down; 1 and 2 make no set and nobody can refill: the game ends.
    move(ann, code, type="safe", cards=[0])
    assert room.status == "over"
    html = page(bea, code)
    assert headline(html) == "Game over: Ann wins with 1 point"
    assert "The pile is empty and Bea and Cal have no card left, so the game ends." in html
    assert "Play again" in html
    assert 'id="guesses" class="guesses" aria-label="Guesses" hidden>' in html
