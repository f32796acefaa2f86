"""No URL breaks a page: numbers read strictly, `next` kept on the site, replay names counted as codes,
and any GET of any route with any text in its path and query answers below 500, on both stores."""

from __future__ import annotations

import itertools
import re
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import on_both_stores
from tests.web.test_records import play_against_bots
from zerogames import clock
from zerogames.web import limits

pytestmark = on_both_stores

# Digits to str.isdigit that int() cannot read, or reads as a number no ASCII shows.
ODD_DIGITS = ["²", "①", "١٢", "٣", "𝟗"]


def test_odd_digits_in_a_page_a_step_or_a_game_number_are_no_server_error(player, registry):
    ann = player("Ann")
    game = play_against_bots(ann, registry, "zero")
    for odd in ODD_DIGITS:
        assert ann.get(f"/replay/{game}?step={odd}&view={odd}").status_code == 200
        assert ann.get(f"/me?page={odd}").status_code == 200
        assert ann.get(f"/leaderboard/zero?page={odd}").status_code == 404
        assert ann.get(f"/replay/{game.split('-')[0]}-{odd}").status_code == 404


@pytest.mark.parametrize("dev", [False, True])
def test_a_turn_clock_is_read_in_ascii_digits_and_zero_is_off(dev):
    assert clock.picked("0", dev) == 0 and clock.picked("60", dev) == 60
    for odd in ODD_DIGITS:
        with pytest.raises(ValueError, match="A turn clock is"):
            clock.picked(odd, dev)


def test_a_nul_in_a_path_or_a_field_is_refused_plainly(player):
    ann = player("Ann")
    assert ann.get("/p/%00").status_code == 400
    assert ann.post("/signin", data={"username": "a\x00b", "password": "x"}).status_code == 400


def test_next_never_leads_off_the_site(player):
    ann = player("Ann")
    for route in ("/rules/zero", "/settings"):
        for target in ("/%09/evil.test", "/%0a/evil.test", "/%5Cevil.test", "//evil.test"):
            html = ann.get(f"{route}?next={target}").text
            assert [link for link in re.findall(r'href="([^"]*)"', html) if "evil.test" in link] == [], target


def test_next_back_to_a_table_is_kept(player):
    assert 'href="/r/ABCD?seat=2"' in player("Ann").get("/rules/zero?next=/r/ABCD%3Fseat%3D2").text


def test_replay_names_count_with_the_other_code_lookups(player):
    scanner = player("Sid")
    names = [f"ZZ{a}{b}-1" for a, b in itertools.product("AB", "ABCDEFGHJKLM")]
    answers = [scanner.get(f"/replay/{name}").status_code for name in names]
    assert answers[: limits.MISSES_AT_ONCE] == [404] * limits.MISSES_AT_ONCE
    assert set(answers[limits.MISSES_AT_ONCE :]) == {429}
    # Out of misses, /join and /r/CODE are refused as well: one count for every way of looking up a code.
    assert scanner.get("/join?code=ABCD").status_code == 429


# Any text but lone surrogates, which no URL can carry; often the digits and the NUL that broke pages.
ANY_TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.sampled_from([*ODD_DIGITS, "\x00", "1\x00"]),
)
PARAMETERS = ["page", "step", "view", "next", "code", "seat", "level"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_get_of_any_route_with_any_text_answers_below_500(app, data):
    routes = sorted({rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods})
    client = app.test_client()
    # An address of its own for each example: none runs out of code lookups.
    n = data.draw(st.integers(1, 60_000))
    client.environ_base["REMOTE_ADDR"] = f"127.1.{n // 256}.{n % 256}"

    def segment(_) -> str:
        return urllib.parse.quote(data.draw(ANY_TEXT), safe="") or "x"

    for route in routes:
        path = re.sub(r"<(?:\w+:)?\w+>", segment, route)
        query = urllib.parse.urlencode({name: data.draw(ANY_TEXT) for name in PARAMETERS})
        answer = client.get(f"{path}?{query}")
        assert answer.status_code < 500, (path, query)


def test_each_missing_page_says_what_is_missing(player):
    ann = player("Ann")
    for url, title, reason in (
        ("/r/ZZZZ", "Table not found", "No table has the code"),
        ("/replay/zzz", "Replay not found", "No game is called"),
        ("/p/nobody", "Player not found", "No player has the username"),
        ("/leaderboard/chess", "Leaderboard not found", "No game of that name"),
        ("/rules/chess", "Game not found", "no game by that name"),
        ("/static/none.css", "File not found", "Nothing on this site has that address"),
        ("/nowhere", "Page not found", "Nothing on this site has that address"),
    ):
        answer = ann.get(url)
        assert answer.status_code == 404, url
        assert f"<title>{title} · zerogames</title>" in answer.text, url
        assert f"<h1>{title}</h1>" in answer.text and reason in answer.text, url
