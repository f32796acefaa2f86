"""Every page that is not a table, checked by axe (the tables are checked in each game's own tests, and
a replay and a player's page after Zero Game's)."""

from __future__ import annotations

from playwright.sync_api import expect

from e2e.access import check_access
from e2e.table import create_room
from zerogames.games import GAMES


def test_home_settings_how_to_play_and_a_lobby_have_no_serious_violation(page, server):
    page.goto(server.url + "/")
    check_access(page, "home")
    page.get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    check_access(page, "settings")
    for rules in GAMES.values():
        page.goto(f"{server.url}/rules/{rules.id}")
        check_access(page, f"how to play {rules.title}")
    page.goto(f"{server.url}/fairness")
    check_access(page, "how deals are checked")
    page.goto(f"{server.url}/daily")
    check_access(page, "the daily deals")
    page.goto(f"{server.url}/daily/zero_game")
    check_access(page, "a daily deal's page")
    page.goto(f"{server.url}/leaderboard/{next(iter(GAMES))}")
    check_access(page, "a leaderboard")
    for account_page in ("signup", "signin", "friends"):
        page.goto(f"{server.url}/{account_page}")
        check_access(page, account_page)
    create_room(page, server.url, "Ann")
    check_access(page, "a room's lobby")
