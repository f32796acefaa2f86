"""A table page outlives the network and the server: after a stall, a restart or the browser going
offline, the same page is live again within 2 s of their return, and a move tapped meanwhile is made
once after it (or refused on screen), never lost in silence."""

from __future__ import annotations

import os
import signal
import time

import pytest
from playwright.sync_api import Page, expect

from e2e.proxy import Stall
from e2e.table import add_bots, create_room, take_zero_game_turn

STATUS = "#live-status"
HEADLINE = "#status .headline"
# How long the network stops forwarding. `ZEROGAMES_STALL=20` runs the 20 s stall.
STALL_SECONDS = float(os.environ.get("ZEROGAMES_STALL", "12"))
BACK_WITHIN_MS = 2_000
# The page hears the server's heartbeat every second, and calls a channel silent for 2.5 s stalled.
STALL_SEEN_WITHIN_MS = 4_000


def table_at_my_turn(page: Page, url: str) -> None:
    create_room(page, url, "Ann")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(HEADLINE)).to_contain_text("Your turn")


def version(page: Page) -> int:
    return int(page.locator("#room-version").get_attribute("value"))


def the_move_is_made_once_and_the_table_plays_on(page: Page, before: int) -> None:
    """The held move lands (its push arrives within 2 s), the bots answer, and the page plays on."""
    expect(page.locator("#room-version")).not_to_have_attribute("value", str(before), timeout=BACK_WITHIN_MS)
    expect(page.locator(STATUS)).to_have_text("Live", timeout=BACK_WITHIN_MS)
    expect(page.locator("#notice")).not_to_contain_text("changed before your move")
    expect(page.locator(HEADLINE)).to_contain_text("Your turn")
    again = version(page)
    take_zero_game_turn(page)
    expect(page.locator("#room-version")).not_to_have_attribute("value", str(again))


@pytest.fixture
def stall(server):
    relay = Stall(server.port)
    yield relay
    relay.resume()
    relay.close()


def test_a_stalled_network_leaves_the_page_live_again_and_the_move_made(page, server, stall):
    table_at_my_turn(page, stall.url)
    opened = []
    page.on("websocket", lambda socket: opened.append(socket))
    stall.stall()
    before = version(page)
    take_zero_game_turn(page)  # its request waits in the stalled network
    # Nothing closed the channel: the page notices the silence itself.
    expect(page.locator(STATUS)).to_have_text("Reconnecting…", timeout=STALL_SEEN_WITHIN_MS)
    time.sleep(STALL_SECONDS)
    stall.resume()
    the_move_is_made_once_and_the_table_plays_on(page, before)
    assert opened, "no new live channel"


def test_a_move_tapped_while_the_server_restarts_is_made_when_it_is_back(page, server):
    table_at_my_turn(page, server.url)
    os.killpg(server.process.pid, signal.SIGINT)
    server.process.wait()
    expect(page.locator(STATUS)).to_have_text("Reconnecting…", timeout=BACK_WITHIN_MS)
    before = version(page)
    take_zero_game_turn(page)
    expect(page.locator("#notice")).to_have_text(
        "Not connected: your move will be sent when the table is live again."
    )
    server.start()
    the_move_is_made_once_and_the_table_plays_on(page, before)


def test_offline_says_so_and_the_move_waits_for_the_network(browser, server):
    context = browser.new_context()
    page = context.new_page()
    table_at_my_turn(page, server.url)
    context.set_offline(True)
    expect(page.locator(STATUS)).to_have_text("Offline", timeout=BACK_WITHIN_MS)
    before = version(page)
    take_zero_game_turn(page)
    expect(page.locator("#notice")).to_have_text(
        "Not connected: your move will be sent when the table is live again."
    )
    context.set_offline(False)
    the_move_is_made_once_and_the_table_plays_on(page, before)
    context.close()
