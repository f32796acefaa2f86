"""Trump Card's table through the web: seats and teams, the trump call, misdeals, the Ace restriction,
banking and the result, each on a stacked deck."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from tests.games.test_trump_card import EXAMPLE, SWEEP, deck_for
from tests.web.conftest import act, started_at

HX = {"HX-Request": "true"}
NAMES = ("Ann", "Bea", "Cal", "Dan")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games" / "trump_card"


def four_players(player, registry, **options):
    return started_at(player, registry, "trump_card", options, NAMES)


def move(code, clients, room, action) -> None:
    """The seat whose turn it is acts through its own page."""
    version = room.version
    act(clients[room.state["turn"]], code, json.dumps(action))
    assert room.version == version + 1, "the action was refused"


def play(code, clients, room, *cards) -> None:
    """Cards in turn order; None plays the seat's first legal card."""
    for card in cards:
        legal = room.rules.legal_actions(room.state, room.state["turn"])
        move(code, clients, room, {"type": "play", "card": card} if card else legal[0])


def page(client, code) -> str:
    return client.get(f"/r/{code}").text


def text(markup: str) -> str:
    """What a reader sees (or hears): the page without its tags, in single spaces."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def region(markup: str, name: str) -> str:
    return re.search(rf'<section id="{name}".*?</section>', markup, re.S).group(0)


def sweep(player, registry):
    """Ann (seat 0, the Chooser) holds every high heart and Ace: hearts make her win every round she leads."""
    code, clients, room = four_players(player, registry, chooser=0, decks=[deck_for(SWEEP)])
    move(code, clients, room, {"type": "trump", "suit": "H"})
    return code, clients, room


def test_partners_sit_across_and_teams_are_named_in_words_with_their_colours(player, registry):
    code, clients, _ = sweep(player, registry)
    for seat, client in enumerate(clients):
        felt = region(page(client, code), "tabletop")
        places = {
            place: NAMES[(seat + offset) % 4]
            for offset, place in enumerate(("south", "west", "north", "east"))
        }
        for place, name in places.items():
            assert re.search(rf'place-{place} team-\d[^"]*">.*?{name}', felt, re.S)
        # Your partner is across the felt from you.
        assert places["north"] == NAMES[(seat + 2) % 4]
    markup = page(clients[1], code)
    assert 'class="team-tag team-0">Team A &amp; C<' in markup
    assert 'class="team-tag team-1">Team B &amp; D<' in markup
    assert "you are Team B & D with Dan" in text(region(markup, "hand"))
    # "AC" and "BD" are card codes (the ace of clubs): never a team's name on the page.
    assert not re.search(r"\b(AC|BD)\b", text(markup))


def test_only_the_chooser_is_offered_the_four_suits_by_name(player, registry):
    code, clients, _ = four_players(player, registry, chooser=2)
    for seat, client in enumerate(clients):
        markup = page(client, code)
        assert markup.count('class="card ') == 5
        suits = re.findall(r'aria-label="(Trump: \w+)"', markup)
        if seat == 2:
            assert suits == ["Trump: clubs", "Trump: diamonds", "Trump: hearts", "Trump: spades"]
            assert "Your turn: name the trump suit" in text(markup)
        else:
            assert suits == []
            assert "Waiting for Cal to name the trump suit" in text(markup)
        assert "Trump Chooser" in text(region(markup, "tabletop"))


def test_every_misdeal_is_announced_to_every_seat(player, registry):
    # The engine's own misdeal case: two re-deals before every seat holds a club.
    to_0, to_2 = ["3C", "5C", "8C"], ["2H", "6H", "TH"]
    one_short = [
        [card for card in EXAMPLE[0] if card not in to_2] + to_0,
        EXAMPLE[1],
        [card for card in EXAMPLE[2] if card not in to_0] + to_2,
        EXAMPLE[3],
    ]
    two_short = [SWEEP[2], SWEEP[1], SWEEP[3], SWEEP[0]]
    decks = [deck_for(one_short, 3), deck_for(two_short, 3), deck_for(EXAMPLE, 3)]
    code, clients, room = four_players(player, registry, chooser=3, decks=decks)
    move(code, clients, room, {"type": "trump", "suit": "C"})
    for client in clients:
        status = text(region(page(client, code), "status"))
        assert "Misdeal 1: A player held no clubs, so the cards were reshuffled and dealt again." in status
        assert "Misdeal 2: 2 players held no clubs" in status
        assert "Dan named clubs as trump (after 2 misdeals)." in status


def test_rounds_one_and_two_never_bank_and_each_round_says_whether_it_banked_and_why(player, registry):
    code, clients, room = sweep(player, registry)
    assert "Rounds 1 and 2 never bank" in text(page(clients[1], code))
    play(code, clients, room, "AH", None, None, None)
    status = text(region(page(clients[1], code), "status"))
    assert "Round 1: Ann won with the Ace of hearts (Senior: Ann). Rounds 1 and 2 never bank" in status
    play(code, clients, room, "KH", None, None, None, "QH", None, None, None)
    status = text(region(page(clients[3], code), "status"))
    assert "From round 3 on, if the Senior wins the round, their team banks the whole pile." in status
    assert "The Senior won the round: their team banks the whole pile. Team A & C banked 12 cards." in status
    assert "Ann won the round and Team A & C banked the pile." in status
    pile = text(region(page(clients[3], code), "pile"))
    assert (
        "The pile: 0 cards" in pile
        and "Ann and Cal 12 of 52" in pile
        and "Bea and Dan (your team) 0 of 52" in pile
    )


def test_the_pile_shows_its_count_and_cards_and_the_senior_is_marked(player, registry):
    code, clients, room = sweep(player, registry)
    play(code, clients, room, "AH", None, None, None, "KH")
    markup = page(clients[2], code)
    pile = region(markup, "pile")
    assert "The pile: 4 cards" in text(pile)
    assert all(
        f'aria-label="{name}"' in pile for name in ("Ace of hearts", "Four of hearts", "Two of hearts")
    )
    felt = region(markup, "tabletop")
    assert felt.count("★ Senior") == 1
    assert re.search(r'place-north team-0[^"]*">(?:(?!</li>).)*★ Senior', felt, re.S)  # Ann, across from Cal


def test_an_ace_under_the_restriction_is_greyed_and_the_reason_given(player, registry):
    code, clients, room = sweep(player, registry)
    play(code, clients, room, "AH", None, None, None)
    hand = region(page(clients[0], code), "hand")
    for card in ("AS", "AC", "AD"):
        button = re.search(rf"<button [^>]*&#34;{card}&#34;[^>]*>", hand).group(0)
        assert "disabled" in button and 'aria-describedby="barred-reason"' in button
    king = re.search(r"<button [^>]*&#34;KH&#34;[^>]*>", hand).group(0)
    assert "disabled" not in king
    assert "You won the last round with an Ace, so you may not lead an Ace in this round." in text(hand)
    # The others see that Ann is under the restriction; nobody else is told about an Ace of their own.
    assert "may not lead an Ace" in text(region(page(clients[1], code), "tabletop"))
    assert "Ace restriction" not in text(region(page(clients[1], code), "hand"))


def test_a_sweep_is_khoti_52_0_and_play_again_passes_the_choice_to_the_left(player, registry):
    code, clients, room = sweep(player, registry)
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AS", "5H", "AC", "AD"):
        play(code, clients, room, card, None, None, None)
    markup = page(clients[1], code)
    status = text(region(markup, "status"))
    assert "Game over: KHOTI! Team A & C swept all 52 cards" in status
    assert "Team A & C 52 – 0 Team B & D Left in the pile: 0" in status
    assert "Ann and Cal banked every card" in status
    assert "Next match: Bea chooses trump." in status
    assert "Play again" in markup
    assert text(region(markup, "rounds")).count("Team A & C:") == 11  # rounds 3 to 13 each banked
    clients[1].post(f"/r/{code}/again", headers=HX)
    assert room.status == "playing" and room.state["chooser"] == 1


def test_cards_left_in_the_pile_make_a_draw_and_the_result_says_so(player, registry):
    hands = [list(hand) for hand in SWEEP]
    hands[0][-1], hands[2][-1] = "KD", "AD"
    code, clients, room = four_players(player, registry, chooser=0, decks=[deck_for(hands)])
    move(code, clients, room, {"type": "trump", "suit": "H"})
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "AS", "5H", "AC", "KD"):
        play(code, clients, room, card, None, None, None)
    markup = page(clients[0], code)
    status = text(region(markup, "status"))
    assert "Game over: a draw" in status
    assert "Team A & C 48 – 0 Team B & D Left in the pile: 4" in status
    assert "4 cards were left in the pile after round 13 (they belong to no one)" in status
    assert "both teams banked" not in status
    assert "The pile: 4 cards" in text(region(markup, "pile"))


def test_both_teams_banking_is_a_draw_and_the_result_says_so(player, registry):
    hands = [
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AC", "2S", "3S"],
        ["4H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "KS", "AS"],
        ["3H", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        ["2H", "QD", "KD", "AD", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"],
    ]
    code, clients, room = four_players(player, registry, chooser=0, decks=[deck_for(hands)])
    move(code, clients, room, {"type": "trump", "suit": "H"})
    for card in ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "AC"):
        play(code, clients, room, card, None, None, None)
    play(code, clients, room, "2S", "AS", None, None, "KS", None, None, "3S")
    status = text(region(page(clients[2], code), "status"))
    assert "Team A & C 44 – 8 Team B & D Left in the pile: 0" in status
    assert "Why a draw: only a 52–0 sweep (KHOTI) wins, and both teams banked cards." in status


def test_a_spectator_sees_the_table_but_no_hand(player, registry):
    code, _, room = sweep(player, registry)
    markup = player("Wes").get(f"/r/{code}").text
    assert "You are watching" in markup and "data-hand" not in markup
    for hand in room.state["hands"]:
        for card in hand:
            assert f"&#34;{card}&#34;" not in markup and f'"{card}"' not in markup
