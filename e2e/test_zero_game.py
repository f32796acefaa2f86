"""Zero Game in real browsers against a real server process."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.access import check_access
from e2e.table import (
    add_bots,
    create_room,
    join_room,
    play_until_over,
    play_zero_game_opening,
    screenshot,
    zero_game_hand,
)


def three_players(browser, server):
    pages = [browser.new_context().new_page() for _ in range(3)]
    code = create_room(pages[0], server.url, "Ann")
    join_room(pages[1], server.url, code, "Bea")
    join_room(pages[2], server.url, code, "Cal")
    for page in pages:
        expect(page.locator(".lobby-seat")).to_have_count(3)
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1 of 3")
    return code, pages


def test_three_friends_play_a_whole_game_by_clicking(browser, server):
    _code, pages = three_players(browser, server)
    play_until_over(pages)
    for page in pages:
        expect(page.locator("#status .headline")).to_contain_text("Game over")
        expect(page.locator("#scores tfoot")).to_contain_text("Total")
        expect(page.get_by_role("button", name="Play again")).to_be_visible()


def test_one_human_and_two_easy_bots_finish_a_game(page, server):
    create_room(page, server.url, "Ann")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status .headline")).to_contain_text("Your turn")
    check_access(page, "Zero Game at the start")
    play_until_over([page], moves=3)
    check_access(page, "Zero Game mid-round")
    play_until_over([page])
    expect(page.locator("#scores tbody tr")).to_have_count(3)
    check_access(page, "Zero Game over")
    page.get_by_role("link", name="Watch replay").click()
    # The click only starts the way to the replay: measured before that page has been drawn, it has
    # no document yet.
    expect(page.locator("#step-count")).to_be_visible()
    check_access(page, "a replay")
    page.goto(server.url + "/me")
    check_access(page, "a player's page")


def test_a_reload_mid_round_keeps_the_same_hand(browser, server):
    _code, pages = three_players(browser, server)
    before = zero_game_hand(pages[1])
    assert len(before) == 3
    pages[1].reload()
    expect(pages[1].locator("form[data-hand] button")).to_have_count(3)
    assert zero_game_hand(pages[1]) == before


def test_the_server_killed_mid_game_comes_back_with_the_same_game(browser, server):
    _code, pages = three_players(browser, server)
    acknowledged, hands = play_zero_game_opening(pages)
    server.kill()
    server.start()
    for page in pages:
        expect(page.locator("#live-status")).to_have_text("Live", timeout=15_000)
    for page, hand in zip(pages, hands, strict=True):
        page.reload()
        assert zero_game_hand(page) == hand
    # A reloaded page's channel closes and opens again: its seat shows away for a moment meanwhile.
    expect(pages[0].locator("#seats")).not_to_contain_text("away")
    assert pages[0].locator("#seats").inner_text() == acknowledged
    play_until_over(pages)


def test_a_spectator_page_holds_no_card_of_any_hand(browser, server):
    code, pages = three_players(browser, server)
    hands = [label for page in pages for label in zero_game_hand(page)]
    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}/r/{code}")
    expect(spectator.locator("#hand")).to_contain_text("You are watching")
    html = spectator.content()
    for name in hands:
        assert name not in html
    expect(spectator.locator("form[data-hand]")).to_have_count(0)


def test_one_trick_played_with_the_keyboard_only(page, server):
    create_room(page, server.url, "Ann")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status .headline")).to_contain_text("Your turn", timeout=10_000)
    # Tab to the first bid button, and Enter.
    for _ in range(60):
        page.keyboard.press("Tab")
        if re.match(r"Bid \d", page.evaluate("document.activeElement.getAttribute('aria-label') || ''")):
            break
    page.keyboard.press("Enter")
    expect(page.locator("#status .headline")).to_contain_text("Your turn: play", timeout=10_000)
    # A screen reader hears each move in words and that it is their turn; the tab's title says it too.
    expect(page.locator("#announcer")).to_have_text(
        re.compile(r"(bid|played the) .*\. Your turn: play a card$")
    )
    expect(page).to_have_title(re.compile(r"^Your turn · "))
    for _ in range(60):
        focused = page.evaluate(
            "!!document.activeElement.closest('form[data-hand]') && !document.activeElement.disabled"
        )
        if focused:
            break
        page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.getAttribute('aria-label')")
    enabled = page.locator("form[data-hand] button:enabled").count()
    assert moved != first or enabled == 1
    page.keyboard.press("Enter")
    expect(page.locator("form[data-hand] button")).to_have_count(2)
    expect(page.get_by_role("button", name=moved)).to_have_count(0)


def test_screenshots_of_the_table_on_a_phone_and_a_desktop(browser, server, artifacts):
    for width, height in ((390, 844), (1280, 800)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        create_room(page, server.url, "Ann")
        screenshot(page, artifacts / f"zero_game-lobby-{width}x{height}.png")
        add_bots(page, 3)
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#status .headline")).to_contain_text("Your turn", timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"zero_game-table-{width}x{height}.png")
