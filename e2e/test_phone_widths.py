"""On the narrowest phones, in every look, no page of the site is wider than the screen: the home page,
the host's lobby, a table of each game, a replay, a leaderboard and a player's own page (as the site
is served, not in development mode). Nothing is cut short either: the clock's choices, a long name at
a table, the How-to-play links; and Start the game is in reach."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.access import EVERY_SETTING
from e2e.conftest import Server
from e2e.table import play_until_over
from e2e.test_table_layout import CUT_SHORT

WIDTHS = (360, 390)
# The longest name the site takes, as one word and two: it must wrap at a table, never be cut.
HOST = "Bartholomew Smithson"
# Each game with as few players as it takes: the bots fill the seats, so the table starts at once.
GAMES = {"Zero Game": 3, "Zero": 3, "Zero Down": 2, "Trump Card": 4, "Cabo": 2}

SIDEWAYS = "document.documentElement.scrollWidth > innerWidth"

# A choice in a visible <select> wider than the box shows (the browser cuts it with an ellipsis).
CUT_CHOICES = """() => [...document.querySelectorAll("select")].filter(s => s.checkVisibility())
  .flatMap(s => {
    const style = getComputedStyle(s), text = document.createElement("canvas").getContext("2d");
    text.font = style.font;
    // Less the padding and the arrow's room.
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return [...s.options].filter(o => text.measureText(o.text).width > room).map(o => s.id + ": " + o.text);
  })"""


@pytest.fixture
def site(tmp_path):
    served = Server(tmp_path / "zerogames.db", {"ZEROGAMES_DEV": "0"})
    served.start()
    yield served
    served.stop()


def check_fits(page: Page, what: str) -> list[str]:
    """What is wrong with the page as shown, at each phone width."""
    found, look = [], page.evaluate("document.documentElement.className") or "default look"
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        where = f"{what} at {width} px, {look}"
        if page.evaluate(SIDEWAYS):
            found.append(f"{where}: wider than the screen")
        cut = page.evaluate(CUT_CHOICES) + page.evaluate(CUT_SHORT)
        found += [f"{where}: cut short: {text}" for text in cut]
    return found


def open_table(page: Page, url: str, game: str, bots: int) -> str:
    """The host's lobby (checked as it fills), then the table started with bots in the other seats."""
    page.goto(url + "/")
    page.get_by_label("Your name").fill(HOST)
    page.get_by_role("group", name="Game").get_by_text(game, exact=True).click()
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/r/[A-Z]{4}"))
    for added in range(bots):
        page.get_by_role("button", name="Add an Easy bot").click()
        expect(page.locator(".lobby-seat .badge.bot")).to_have_count(added + 1)
    return page.url


def test_no_page_is_wider_than_a_phone_of_360_or_390_px_in_any_look(browser, site):
    page = browser.new_context(
        viewport={"width": WIDTHS[0], "height": 800}, has_touch=True, is_mobile=True, reduced_motion="reduce"
    ).new_page()
    page.goto(site.url + "/")
    # The How-to-play links sit side by side (five games on two rows at most), not one a line.
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        rows = page.locator(".rules-links a").evaluate_all("els => new Set(els.map(e => e.offsetTop)).size")
        assert rows <= 2, ("rules links", width, rows)
        assert "," not in page.locator(".rules-links").inner_text()
    pages, found = [site.url + "/"], []
    for game, players in GAMES.items():
        pages.append(open_table(page, site.url, game, players - 1))
        found += check_fits(page, f"the host's {game} lobby")
        page.get_by_role("button", name="Start the game").tap()
        expect(page.locator("#status .headline")).to_be_visible()
        if game == "Zero":  # its page outgrows a phone (safe sets, the last reveal): the status stays
            page.set_viewport_size({"width": WIDTHS[0], "height": 400})
            page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
            assert page.evaluate("scrollY") > 0
            expect(page.locator("#status .headline")).to_be_in_viewport()
    # The first table (Zero Game, three players) played to its end, for its replay.
    page.goto(pages[1])
    play_until_over([page])
    page.locator("#game-record").get_by_role("link", name="Watch replay").click()
    expect(page.locator("#step-count")).to_be_visible()
    pages += [page.url, site.url + "/leaderboard/zero_game", site.url + "/me", site.url + "/friends"]
    for look in ("default", "every setting"):
        if look != "default":
            page.context.add_cookies([{"name": "settings", "value": EVERY_SETTING, "url": site.url}])
            open_table(page, site.url, "Zero", 6)
            found += check_fits(page, "the host's lobby")
        for url in pages:
            page.goto(url)
            found += check_fits(page, url.removeprefix(site.url))
    assert found == [], "\n".join(found)
    page.context.close()
