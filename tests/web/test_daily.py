"""The daily deal through the site: one deal per game and day for everyone, played once, its results
and everyone's replays shown to a player only once they have played it (or the day is over), and a
share text that holds no card."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.conftest import on_both_stores, to_the_end, uid_of, words
from zerogames import daily, fairness
from zerogames.friends import Outcome, Standing

pytestmark = on_both_stores

GAME = "zero_game"
A_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b|[♠♥♦♣]")


def play(client) -> str:
    response = client.post(f"/daily/{GAME}", data={"name": client.name})
    assert response.status_code == 302, response.text
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_two_players_play_the_same_deal_and_see_each_others_only_after_playing(player, registry, monkeypatch):
    monkeypatch.setattr(daily, "LEVEL", "easy")  # the same deal as against Hard, with less thinking
    ann, bea, cal = player("Ann"), player("Bea"), player("Cal")
    day = daily.day_of(registry.clock())
    promised = fairness.commitment(registry.store.dailies.secret(GAME, day, "unused"))
    assert promised in ann.get("/daily").text

    assert "Play today's Zero Game" in ann.get("/daily").text
    first = registry.get(play(ann))
    listed = words(ann.get("/daily").text)
    assert "You have played today's Zero Game" in listed and "Play today's Zero Game" not in listed
    assert len(first.seats) == daily.SEATS[GAME] and first.facts.fairness.commitment == promised
    assert play(ann) == first.code  # once a day: the same table again
    to_the_end(ann, first)
    # Ann sees her own game again, but not the day's secret or seed, which deal every round to everyone.
    secret = registry.store.dailies.secret(GAME, day, "-")
    own = ann.get(f"/replay/{first.code}-1")
    assert own.status_code == 200 and secret not in own.text and str(first.seed) not in own.text
    assert ann.get(f"/replay/{first.code}-1/fair.json").status_code == 403

    # Bea has not played it: neither the results nor Ann's cards, through the replay or its data.
    assert "Ann" not in words(bea.get(f"/daily/{GAME}").text)
    for url in (
        f"/replay/{first.code}-1",
        f"/replay/{first.code}-1/fair.json",
        f"/replay/{first.code}-1/analysis",
    ):
        refused = bea.get(url)
        assert refused.status_code == 403 and "daily deal" in unescape(refused.text), url
    second = registry.get(play(bea))
    assert second.seed == first.seed and second.code != first.code
    assert bea.get(f"/replay/{first.code}-1").status_code == 403  # still playing
    to_the_end(bea, second)

    seen = words(bea.get(f"/daily/{GAME}").text)
    assert "Ann" in seen and "Bea (you)" in seen and "streak: 1 day in a row" in seen
    assert bea.get(f"/replay/{first.code}-1").status_code == 200
    share = unescape(
        re.search(r'<pre class="daily-share"[^>]*>(.*?)</pre>', ann.get(f"/daily/{GAME}").text, re.S)[1]
    )
    assert share.startswith(f"zerogames daily Zero Game {day}") and share.endswith(f"/daily/{GAME}")
    assert not A_CARD.search(share) and set(share.splitlines()[1]) <= set("🟩🟨🟥")

    # Once the day is over, anyone may see its cards.
    assert cal.get(f"/replay/{first.code}-1").status_code == 403
    monkeypatch.setattr(registry, "clock", lambda: first.published.at + 86400)
    assert cal.get(f"/replay/{first.code}-1").status_code == 200
    # And its secret is published: every game of that day's deal checks as fair.
    past = words(cal.get(f"/daily/{GAME}?day={day}").text)
    assert "Ann" in past and "Bea" in past and registry.store.dailies.secret(GAME, day, "-") in past
    assert fairness.check(cal.get(f"/replay/{second.code}-1/fair.json").get_json()).fair
    # Its one contribution is the day's, not a seat's randomness.
    checked = words(cal.get(f"/replay/{second.code}-1").text)
    assert "Fair deal: checked" in checked and "The same for everyone that day" in checked
    assert "drawn by the site" not in checked


def test_the_days_results_put_the_viewers_own_then_their_friends_first():
    names = ["Ann", "Bea", "Cal", "Dee", "Eve"]
    results = [{"player": name.lower(), "name": name, "me": name == "Dee"} for name in names]
    ordered = daily.friends_first(results, {"eve", "bea", "dee"})
    assert [row["name"] for row in ordered] == ["Dee", "Bea", "Eve", "Ann", "Cal"]
    assert [row["friend"] for row in ordered] == [False, True, True, False, False]
    assert [row["name"] for row in daily.friends_first(results, ())] == ["Dee", "Ann", "Bea", "Cal", "Eve"]


def test_a_players_friends_come_first_in_the_days_results(player, registry, monkeypatch):
    monkeypatch.setattr(daily, "LEVEL", "easy")
    ann, bob, cal = player("Ann"), player("Bob"), player("Cal")
    for client in (cal, bob, ann):
        to_the_end(client, registry.get(play(client)))
    registry.store.friends.settle(uid_of(ann), uid_of(bob), Outcome(Standing.FRIENDS, False))
    table = words(ann.get(f"/daily/{GAME}").text)
    assert table.index("Ann (you)") < table.index("Bob (friend)") < table.index("Cal")
    assert "Cal (friend)" not in table


def test_a_streak_counts_the_days_in_a_row():
    assert daily.streak(["2026-12-01", "2026-11-30", "2026-11-28"], "2026-12-01") == 2
    assert daily.streak(["2026-12-01", "2026-11-30"], "2026-12-02") == 2  # today's still to play
    assert daily.streak(["2026-11-29"], "2026-12-02") == 0


def test_the_days_secrets_are_drawn_once_and_then_read_without_a_write(player, registry, monkeypatch):
    ann = player("Ann")
    first = ann.get("/daily").text
    monkeypatch.setattr(
        registry.store.dailies.db, "transaction", lambda: pytest.fail("a write to show a page")
    )
    assert ann.get("/daily").text == first and ann.get(f"/daily/{GAME}").status_code == 200
