"""Settings kept per browser, shown on every page; How to play for every game."""

from __future__ import annotations

import re

import pytest

from zerogames.games import GAMES
from zerogames.web.tables import TABLES

from .conftest import create_room
from .test_records import sign_in, sign_up


def root_classes(html: str) -> set[str]:
    found = re.search(r'<html lang="en"(?: class="([^"]*)")?>', html)
    return set((found.group(1) or "").split())


def test_a_new_browser_sees_the_default_look(player):
    assert root_classes(player("Ann").get("/").text) == set()


def test_saved_settings_show_on_every_page_of_that_browser_only(player):
    ann, bea = player("Ann"), player("Bea")
    code = create_room(ann)
    saved = ann.post(
        "/settings",
        data={"four_colour": "on", "reduced_motion": "on", "large_text": "on", "next": f"/r/{code}"},
    )
    assert saved.status_code == 303 and saved.headers["Location"] == f"/r/{code}"
    every = {"four-colour", "reduced-motion", "large-text", "no-sounds"}
    for path in ("/", f"/r/{code}", "/settings", "/rules/cabo"):
        assert root_classes(ann.get(path).text) == every
    assert root_classes(bea.get(f"/r/{code}").text) == set()


def test_the_settings_form_shows_what_is_saved(player):
    ann = player("Ann")
    ann.post("/settings", data={"sounds": "on", "large_text": "on"})
    page = ann.get("/settings").text
    assert re.search(r'id="setting-large_text" name="large_text" checked', page)
    assert re.search(r'id="setting-sounds" name="sounds" checked', page)
    assert not re.search(r'id="setting-four_colour" name="four_colour" checked', page)


@pytest.mark.parametrize("elsewhere", ["https://example.com/", "//example.com/", "javascript:alert(1)"])
def test_saving_never_sends_the_browser_off_the_site(player, elsewhere):
    saved = player("Ann").post("/settings", data={"next": elsewhere})
    assert saved.headers["Location"] == "/settings"


def test_an_unreadable_cookie_keeps_the_default_look(player):
    ann = player("Ann")
    ann.set_cookie("settings", "large_text=yes,bogus=1,four_colour")
    assert root_classes(ann.get("/").text) == set()


def test_every_table_has_a_menu_with_the_settings_and_how_to_play(player):
    ann = player("Ann")
    for game_id in TABLES:
        code = create_room(ann, game_id)
        page = ann.get(f"/r/{code}").text
        assert f'href="/rules/{game_id}?next=/r/{code}"' in page
        assert f"How to play {GAMES[game_id].title}" in page
        assert 'name="next" value="/r/' + code + '"' in page


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_how_to_play_has_each_game_and_leads_back_to_the_table(player, game_id):
    page = player("Ann").get(f"/rules/{game_id}?next=/r/ABCD").text
    assert f"How to play {GAMES[game_id].title}</h1>" in page
    assert '<a href="/r/ABCD">Back to the table</a>' in page


def test_how_to_play_tells_the_house_rules(player):
    assert "hook rule" in player("Ann").get("/rules/zero_game").text
    assert "assist mode" in player("Ann").get("/rules/cabo").text


def test_how_to_play_an_unknown_game_says_so(player):
    missing = player("Ann").get("/rules/chess")
    assert missing.status_code == 404 and "no game by that name" in missing.text


def test_an_account_takes_its_settings_to_every_browser_it_signs_in_on(player):
    ann, laptop, guest = player("Ann"), player("Ann"), player("Bea")
    sign_up(ann)
    ann.post("/settings", data={"four_colour": "on", "sounds": "on"})
    assert root_classes(laptop.get("/").text) == set()
    laptop.post("/settings", data={"large_text": "on", "sounds": "on"})
    sign_in(laptop)
    assert root_classes(laptop.get("/").text) == {"four-colour"}
    # A guest's settings stay their browser's.
    guest.post("/settings", data={"reduced_motion": "on", "sounds": "on"})
    assert root_classes(guest.get("/").text) == {"reduced-motion"}
