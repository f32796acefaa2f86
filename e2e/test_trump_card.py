"""Trump Card in real browsers against a real server process."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import add_bots, create_room, join_room, my_turn, play_until_over, screenshot, whose_turn

GAME = "Trump Card"
CHOOSER = "Trump Card: Trump Chooser of the first match"
TRUMP_BUTTON = re.compile(r"^Trump: (clubs|diamonds|hearts|spades)$")


def take_trump_card_turn(page: Page) -> None:
    """Name the first suit offered, or play the first card that may be played."""
    if page.locator("#status .headline").filter(has_text="name the trump suit").count():
        page.get_by_role("button", name=TRUMP_BUTTON).first.click()
    else:
        page.locator("form[data-hand] button:enabled").first.click()


def hand_of(page: Page) -> list[str]:
    return page.locator("form[data-hand] button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def act_and_wait_for_everyone(pages: list[Page]) -> str:
    """Whoever's turn it is acts; every table then shows the same version and the same last action."""
    page = whose_turn(pages)
    before = page.locator("#room-version").get_attribute("value")
    take_trump_card_turn(page)
    expect(page.locator("#room-version")).not_to_have_attribute("value", before)
    version = page.locator("#room-version").get_attribute("value")
    words = page.locator("#status .last-action").inner_text()
    for other in pages:
        expect(other.locator("#room-version")).to_have_attribute("value", version)
        expect(other.locator("#status .last-action")).to_have_text(words)
    return words


def banked_total(page: Page) -> int:
    return sum(int(n) for n in page.locator("#pile .bank-count strong").all_inner_texts())


def one_human_and_three_bots(page: Page, url: str, chooser: str = "Drawn at random") -> str:
    code = create_room(page, url, "Ann", game=GAME, settings={CHOOSER: chooser})
    add_bots(page, 3)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status")).to_contain_text("Round 1 of 13")
    return code


def four_friends(browser, server) -> tuple[str, list[Page]]:
    pages = [browser.new_context().new_page() for _ in range(4)]
    code = create_room(pages[0], server.url, "Ann", game=GAME)
    for page, name in zip(pages[1:], ("Bea", "Cal", "Dan"), strict=True):
        join_room(page, server.url, code, name)
    for page in pages:
        expect(page.locator(".lobby-seat")).to_have_count(4)
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1 of 13")
    return code, pages


def test_one_human_and_three_easy_bots_play_a_whole_match_to_the_result(page, server):
    one_human_and_three_bots(page, server.url)
    check_access(page, "Trump Card at the start")
    play_until_over([page], take_trump_card_turn, moves=3)
    check_access(page, "Trump Card mid-round")
    play_until_over([page], take_trump_card_turn)
    status = page.locator("#status")
    expect(status.locator(".headline")).to_have_text(
        re.compile(r"Game over: (KHOTI! Team [AB] & [CD]|a draw)")
    )
    expect(status.locator(".split")).to_contain_text("Team A & C")
    expect(status.locator(".split")).to_contain_text("Left in the pile")
    check_access(page, "Trump Card over")
    expect(page.locator("#rounds tbody tr")).to_have_count(13)
    banked = [int(n) for n in page.locator("#pile .bank-count strong").all_inner_texts()]
    pile = int(page.locator("#status .split-pile strong").inner_text())
    assert sum(banked) + pile == 52
    if 52 not in banked:
        expect(status.locator(".why")).to_contain_text("Why a draw")
    # The next match's Chooser is the seat to the left of this one's, and Play again starts it.
    chooser = re.search(r"Next match: (.+) chooses trump", status.inner_text()).group(1)
    page.get_by_role("button", name="Play again").click()
    expect(status).to_contain_text("Round 1 of 13")
    named = rf"\(named by {re.escape(chooser)}\)" if chooser != "Ann" else "Your turn: name the trump suit"
    expect(status).to_contain_text(re.compile(named))


def test_four_friends_play_three_rounds_and_every_table_keeps_up(browser, server):
    code, pages = four_friends(browser, server)
    chooser = whose_turn(pages)
    # Everyone holds their first five; only the Chooser has the four suits to name.
    expect(chooser.get_by_role("button", name=TRUMP_BUTTON)).to_have_count(4)
    for page in pages:
        expect(page.locator("form[data-hand] button")).to_have_count(5)
        expect(page.locator("#tabletop .badge.chooser")).to_have_count(1)
        if page is not chooser:
            expect(page.get_by_role("button", name=TRUMP_BUTTON)).to_have_count(0)
    assert "named" in act_and_wait_for_everyone(pages)
    for page in pages:
        expect(page.locator("form[data-hand] button")).to_have_count(13)
        expect(page.locator("#status")).to_contain_text("Rounds 1 and 2 never bank")
    for _ in range(12):
        act_and_wait_for_everyone(pages)
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 4 of 13")
        expect(page.locator("#status .round-summary")).to_contain_text("Round 3:")
        expect(page.locator("#rounds tbody tr")).to_have_count(3)
        expect(page.locator("#tabletop .badge.senior")).to_have_count(1)
        expect(page.locator("form[data-hand] button")).to_have_count(10)
    assert len({page.locator("#pile .area-title").first.inner_text() for page in pages}) == 1

    # A reload keeps the hand.
    before = hand_of(pages[2])
    pages[2].reload()
    expect(pages[2].locator("#live-status")).to_have_text("Live")
    assert hand_of(pages[2]) == before

    # A spectator's page holds no card of any hand (the pile and the table's cards are public).
    hands = [label for page in pages for label in hand_of(page)]
    assert len(hands) == 40
    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}/r/{code}")
    expect(spectator.locator("#hand")).to_contain_text("You are watching")
    expect(spectator.locator("#pile .pile-cards .card-face")).to_have_count(52 - 40 - banked_total(pages[0]))
    html = spectator.content()
    for name in hands:
        assert name not in html
    expect(spectator.locator("form[data-hand]")).to_have_count(0)
    expect(spectator.get_by_role("button", name=TRUMP_BUTTON)).to_have_count(0)
    # The game goes on with the spectator watching: the next card shows on their table too.
    words = act_and_wait_for_everyone(pages)
    expect(spectator.locator("#status .last-action")).to_have_text(words)


def test_trump_named_and_a_card_led_with_the_keyboard_only(page, server):
    one_human_and_three_bots(page, server.url, chooser="Seat A (the host)")
    expect(page.locator("#status .headline")).to_contain_text("Your turn: name the trump suit")
    for _ in range(60):
        page.keyboard.press("Tab")
        if TRUMP_BUTTON.match(page.evaluate("document.activeElement.getAttribute('aria-label') || ''")):
            break
    page.keyboard.press("Enter")
    # The Chooser starts as the Senior, so the lead is yours.
    expect(page.locator("#status .headline")).to_contain_text("Your turn: lead a card")
    expect(page.locator("form[data-hand] button")).to_have_count(13)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('form[data-hand]')"):
            break
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert moved != first
    page.keyboard.press("Enter")
    expect(page.locator("form[data-hand] button")).to_have_count(12)
    expect(page.get_by_role("button", name=moved)).to_have_count(0)


def test_screenshots_of_the_table_on_a_phone_and_a_desktop(browser, server, artifacts):
    for width, height in ((390, 844), (1280, 800)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        one_human_and_three_bots(page, server.url, chooser="Seat A (the host)")
        expect(page.get_by_role("button", name=TRUMP_BUTTON)).to_have_count(4)
        screenshot(page, artifacts / f"trump_card-trump-{width}x{height}.png")
        # Into round 5: the pile, a round summary and the rounds so far are all on show.
        while "Round 5 of 13" not in page.locator("#status .round-line").inner_text():
            before = page.locator("#room-version").get_attribute("value")
            take_trump_card_turn(page)
            expect(page.locator("#room-version")).not_to_have_attribute("value", before)
            whose_turn([page])
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"trump_card-table-{width}x{height}.png")
        play_until_over([page], take_trump_card_turn)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"trump_card-result-{width}x{height}.png")
        assert not my_turn(page)
