"""The turn clock in real browsers: a player who never acts does not stop the table."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from e2e.access import check_access
from e2e.table import create_room, join_room, play_until_over, screenshot


def test_a_table_where_one_player_never_acts_finishes_by_itself(browser, server, artifacts):
    ann, bea, cal, wes = (browser.new_context().new_page() for _ in range(4))
    code = create_room(ann, server.url, "Ann", clock="3")  # development mode takes any second
    join_room(bea, server.url, code, "Bea")
    join_room(cal, server.url, code, "Cal")
    expect(ann.locator("#lobby")).to_contain_text("Turn clock: 3 seconds a move")
    ann.get_by_role("button", name="Start the game").click()
    wes.goto(f"{server.url}/r/{code}")  # a spectator

    # The countdown beside whose turn it is, for the players and the spectator alike.
    for page in (ann, cal, wes):
        expect(page.locator("#clock .deadline")).to_contain_text(re.compile(r"(has|have) until .* left"))
    check_access(wes, "a table with its turn clock")

    # Cal never acts: after two timeouts in a row Cal is away, and the game still finishes.
    deadline = time.monotonic() + 60
    while "You are away" not in cal.locator("#clock").inner_text():
        assert time.monotonic() < deadline, "Cal was never marked away"
        play_until_over([ann, bea], limit=30, moves=1)
    expect(wes.locator("#clock")).to_contain_text("Cal is away")
    expect(wes.locator("#seats")).to_contain_text(re.compile(r"Cal\s*away"))
    screenshot(wes, artifacts / "turn-clock-spectator.png")
    screenshot(cal, artifacts / "turn-clock-away.png")
    play_until_over([ann, bea], limit=180)
    for page in (cal, wes):
        expect(page.locator("#status .headline")).to_contain_text("Game over")


def test_a_player_whose_page_closes_shows_away_within_seconds(browser, server):
    ann, bea = (browser.new_context().new_page() for _ in range(2))
    code = create_room(ann, server.url, "Ann")
    join_room(bea, server.url, code, "Bea")
    bea_line = ann.locator(".lobby-seat").filter(has_text="Bea")
    expect(bea_line).to_contain_text("online")
    bea.context.close()
    expect(bea_line).to_contain_text("away", timeout=5_000)
