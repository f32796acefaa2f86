"""What a player does in a browser, written once for every browser test."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

GAME_OVER = re.compile("Game over")
# Milliseconds a move's click waits for its control. A control on the page is clicked at once; one
# that is gone was taken by the turn clock, which moved for the player meanwhile (play_until_over).
MOVE_WAIT = 5_000


def create_room(
    page: Page,
    url: str,
    name: str,
    game: str = "Zero Game",
    settings: dict[str, str] | None = None,
    clock: str = "0",
) -> str:
    """Create a table; `settings` picks room options by their labels ({"Zero: Rounds": "Five"}).

    The turn clock is off unless a test asks for one (seconds, in development mode): a slow moment of a
    test's own (an accessibility check on a busy machine) must not cost its player a move.
    """
    page.goto(url + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("group", name="Game").get_by_text(game, exact=True).click()
    for label, choice in (settings or {}).items():
        page.get_by_label(label).select_option(label=choice)
    page.get_by_label(re.compile("^Turn clock")).fill(clock)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/r/[A-Z]{4}"))
    expect(page.locator("#live-status")).to_have_text("Live")
    return page.url.rsplit("/", 1)[-1].split("?")[0]


def join_room(page: Page, url: str, code: str, name: str) -> None:
    page.goto(url + "/")
    page.get_by_label("Room code").fill(code.lower())
    page.get_by_role("button", name="Join").click()
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#lobby")).to_contain_text(name)
    expect(page.locator("#live-status")).to_have_text("Live")


def add_bots(page: Page, count: int) -> None:
    for added in range(count):
        page.get_by_role("button", name="Add an Easy bot").click()
        expect(page.locator(".lobby-seat .badge.bot")).to_have_count(added + 1)


def my_turn(page: Page) -> bool:
    return page.locator("#status .headline").filter(has_text="Your turn").count() > 0


def whose_turn(pages: list[Page], seconds: float = 10.0) -> Page:
    """The page that says it is its player's turn (waiting for the news to arrive)."""
    deadline = time.monotonic() + seconds
    while True:
        for page in pages:
            if my_turn(page):
                return page
        assert time.monotonic() < deadline, "no page says it is its turn"
        time.sleep(0.05)


def take_zero_game_turn(page: Page) -> None:
    """Bid the first allowed amount, or play the first card that may be played."""
    if page.locator("#status .headline").filter(has_text="Your turn: bid").count():
        page.get_by_role("button", name=re.compile(r"^Bid \d+$")).first.click(timeout=MOVE_WAIT)
    else:
        page.locator("form[data-hand] button:enabled").first.click(timeout=MOVE_WAIT)


def play_until_over(
    pages: list[Page], take_turn=take_zero_game_turn, limit: float = 120.0, moves: int | None = None
) -> None:
    """Whoever's page says it is their turn acts, until every page shows the game over (or, given
    `moves`, until that many moves are made: the game is then under way)."""
    deadline = time.monotonic() + limit
    while not all(page.locator("#status").filter(has_text=GAME_OVER).count() for page in pages):
        assert time.monotonic() < deadline, "the game did not finish"
        if moves is not None and moves <= 0:
            return
        acted = False
        for page in pages:
            if my_turn(page):
                before = page.locator("#room-version").get_attribute("value")
                try:
                    take_turn(page)
                except PlaywrightTimeoutError:
                    # The control went before the click landed: with a short turn clock on a busy
                    # machine, the clock can move for the player first. The table moved on (its
                    # version did), so the next turn is taken as it comes; else the click failed.
                    if page.locator("#room-version").get_attribute("value") == before:
                        raise
                    continue
                moves = None if moves is None else moves - 1
                # The page moves on by itself: its version changes without a reload.
                expect(page.locator("#room-version")).not_to_have_attribute("value", before)
                acted = True
        if not acted:
            time.sleep(0.05)


def zero_game_hand(page: Page) -> list[str]:
    """The cards of a Zero Game hand, by the names a player hears."""
    return page.locator("form[data-hand] button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def play_zero_game_opening(pages: list[Page]) -> tuple[str, list[list[str]]]:
    """Three players' bids and the first card, each seen made; then what every page was shown: the
    seats' line and each hand (what must come back whole after a crash)."""
    for _ in range(4):
        page = whose_turn(pages)
        take_zero_game_turn(page)
        expect(page.locator("#status .headline")).not_to_contain_text("Your turn")
    # The last move is seen on its mover's page first: every page is read once its push has come.
    version = page.locator("#room-version").get_attribute("value")
    for other in pages:
        expect(other.locator("#room-version")).to_have_attribute("value", version)
    return pages[0].locator("#seats").inner_text(), [zero_game_hand(page) for page in pages]


def plays_on_where_it_was(
    pages: list[Page], acknowledged: str, hands: list[list[str]], turns: int = 1
) -> None:
    """After an outage, the same pages, never reloaded, are live again with every acknowledged move
    there (the seats' line and each hand, as `play_zero_game_opening` read them), and play goes on:
    each of `turns` more moves is pushed to every page."""
    for page in pages:
        expect(page.locator("#live-status")).to_have_text("Live", timeout=20_000)
    assert [zero_game_hand(page) for page in pages] == hands
    # A seat shows "online" again once its own page's channel is back, which the first page may hear a
    # moment after its own: the line is awaited, and a move lost would keep it from ever matching.
    expect(pages[0].locator("#seats")).to_have_text(acknowledged, use_inner_text=True, timeout=10_000)
    for _ in range(turns):
        page = whose_turn(pages)
        version = int(page.locator("#room-version").get_attribute("value"))
        take_zero_game_turn(page)
        for each in pages:
            expect(each.locator("#room-version")).to_have_value(str(version + 1))


def screenshot(page: Page, path: Path) -> None:
    """The whole page saved at rest: a card still gliding (a push just in) is shown where it lands,
    so that the picture shows the table's layout and not a moment of a move."""
    page.screenshot(path=path, full_page=True, animations="disabled")
