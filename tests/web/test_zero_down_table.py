"""Zero Down's live table through the web: swaps picked in two steps, knocks, every hand at a round's end."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.games.test_zero_down import EXAMPLE, stacked
from tests.web.conftest import act, create_room, headline, join, page, region, started_at, version_of, words

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games" / "zero_down"
POOL = ["black1", "black2", "black3", "black4", "black5"]


def started(player, registry, hands=None, pool=POOL):
    """Ann, Bea and Cal at a Zero Down table, Ann dealing (Bea moves first), dealt `hands` or Cal EXAMPLE."""
    deck = stacked(3, 0, hands or {2: EXAMPLE}, pool)
    return started_at(player, registry, "zero_down", {"decks": [deck], "dealer": 0})


def swap(client, code, give, take):
    """What the form sends: the Swap button's action and the two picked radio buttons."""
    return act(client, code, json.dumps({"type": "swap"}), **{"action.give": give, "action.take": take})


def knock(client, code):
    return act(client, code, json.dumps({"type": "knock"}))


def test_a_swap_is_two_picks_sent_with_the_swap_button_and_told_in_words(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    assert headline(page(bea, code)) == "Your turn: swap a card with the pool, or knock"
    assert headline(page(ann, code)) == "Waiting for Bea to swap or knock"
    give = room.state["hands"][1][0]
    swap(bea, code, give, "black3")
    assert "black3" in room.state["hands"][1] and give in room.state["pool"]
    said = f"Bea put {give[:-1]} {give[-1]} in and took black 3."
    for client in (ann, bea, cal):
        assert said in words(region(page(client, code), "status"))
    pool = region(page(ann, code), "pool")
    assert re.search(rf'class="zd-pick fresh"><input type="radio" name="action.take" value="{give}"', pool)


def test_a_swap_missing_a_pick_is_refused_with_a_reason(player, registry):
    code, (_ann, bea, _cal), room = started(player, registry)
    before = room.state
    answer = act(bea, code, json.dumps({"type": "swap"}), **{"action.take": "black3"})
    assert "You do not hold that card." in answer.text
    assert room.state is before


def test_your_cards_are_radio_buttons_grouped_by_colour_and_by_number(player, registry):
    code, (_ann, _bea, cal), _room = started(player, registry)
    hand = region(page(cal, code), "hand")
    # red 1 2 3 4 5, blue 5, green 7, yellow 7, yellow 8: rows by colour in deck order, and by number.
    assert re.findall(r'aria-label="([a-z]+ \d)" required disabled', hand) == [
        "red 1",
        "red 2",
        "red 3",
        "red 4",
        "red 5",
        "yellow 7",
        "yellow 8",
        "green 7",
        "blue 5",
    ]
    assert 'value="red5" form="zd-swap"' in hand and 'style="--c: 1; --n: 5"' in hand
    assert 'style="--c: 4; --n: 5"' in hand  # blue 5: fourth colour row, shares the 5s row
    assert re.search(r'group-label by-colour set" style="--row: 1".*?Rd</span>5 ✓', hand)
    assert "by colour" in hand and "by number" in hand
    assert "If the round ended now: 20 points (5 + 7 + 8); set aside: five reds." in words(hand)
    assert "Rd</span> red" in hand  # the legend spells out every colour's letters


def test_a_spectator_sees_the_pool_but_no_card_of_any_hand(player, registry):
    code, _players, room = started(player, registry)
    markup = page(player("Wes"), code)
    assert "You are watching" in markup and 'name="action.give"' not in markup
    for hand in room.state["hands"]:
        for card in hand:
            assert f'"{card}"' not in markup and f"{card[:-1]} {card[-1]}" not in markup
    assert all(f'aria-label="black {number}"' in markup for number in range(1, 6))


def test_knocks_and_the_final_turns_are_shown_to_everyone(player, registry):
    code, (ann, bea, cal), _room = started(player, registry)
    knock(bea, code)
    assert "Bea knocked once. The next knock, by anyone, starts the final turns." in words(page(ann, code))
    assert "This is the second knock" in words(region(page(cal, code), "hand"))
    knock(cal, code)
    html = page(ann, code)
    assert headline(html) == "Your turn (your final one): swap a card, or knock to pass"
    assert "Final turns still to come: you, then Bea; Cal gets none." in words(html)
    seats = words(region(html, "seats"))
    assert (
        "Final turn: now" in seats
        and "Final turn: to come" in seats
        and "No final turn (second knock)" in seats
    )
    assert "Cal knocked the second knock: everyone else has one final turn." in words(page(bea, code))
    assert "Knock to pass your final turn." in words(region(html, "hand"))


def test_at_the_rounds_end_every_hand_is_shown_with_its_score_worked_out(player, registry):
    code, (ann, bea, cal), room = started(player, registry)
    dealt = room.state["hands"]
    for client in (bea, cal, ann, bea):  # two knocks, then the two final turns passed
        knock(client, code)
    html = page(ann, code)
    assert "Round 1 is over: Ann" in words(region(html, "status"))
    rounds = words(region(html, "rounds"))
    assert "Round 1: every hand" in rounds
    assert "Cal 20 points" in rounds and "Set aside five reds. Counted 5 + 7 + 8 = 20." in rounds
    shown = region(html, "rounds")
    assert all(f'aria-label="{card[:-1]} {card[-1]}"' in shown for hand in dealt for card in hand)
    assert re.search(
        r'role="group" aria-label="Set aside">(<span class="zd-card c-red"[^>]*>.*?</span>){5}</span>', shown
    )
    assert "Scores by round" in rounds


def test_a_zero_is_told_and_scores_nothing(player, registry):
    almost = ["red1", "red2", "red3", "red4", "yellow5", "green5", "blue5", "violet5", "grey8"]
    code, (ann, bea, _cal), _room = started(player, registry, hands={1: almost}, pool=["red5", *POOL[1:]])
    swap(bea, code, "grey8", "red5")
    html = page(ann, code)
    assert "Bea put grey 8 in and took red 5: ZERO!" in words(region(html, "status"))
    rounds = words(region(html, "rounds"))
    assert "Round 1: every hand, Bea made a ZERO" in rounds
    assert "Bea 0 points" in rounds and "ZERO: five reds and five 5s, so 0 points." in rounds


def test_the_game_over_screen_ranks_the_lowest_first_and_offers_play_again(player, registry):
    code, players, room = started(player, registry)
    while room.status == "playing":
        knock(players[room.state["turn"]], code)
    html = page(players[0], code)
    assert headline(html).startswith("Game over: ")
    assert "Lowest score wins after 3 rounds." in words(html)
    assert "Play again" in region(html, "hand")
    assert len(re.findall(r"<tr><th scope=\"row\">\d</th>", region(html, "rounds"))) == 3


def test_the_pool_size_is_a_room_option(player, registry):
    ann = player("Ann")
    assert "Zero Down: Pool size" in ann.get("/").text
    code = create_room(ann, game="zero_down", pool="7")
    assert registry.get(code).options == {"pool": 7}
    join(player("Bea"), code)
    join(player("Cal"), code)
    ann.post(f"/r/{code}/start", headers={"HX-Request": "true"})
    assert region(page(ann, code), "pool").count('name="action.take"') == 7


def test_a_stale_swap_is_refused(player, registry):
    code, (_ann, bea, _cal), room = started(player, registry)
    version = version_of(bea.get(f"/r/{code}").text)
    knock(bea, code)
    give = room.state["hands"][1][0]
    answer = act(
        bea,
        code,
        json.dumps({"type": "swap"}),
        version=version,
        **{"action.give": give, "action.take": "black3"},
    )
    assert "The table changed" in answer.text
    assert len(room.state["knocks"]) == 1 and give in room.state["hands"][1]
