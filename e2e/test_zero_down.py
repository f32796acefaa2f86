"""Zero Down in real browsers against a real server process."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import GAME_OVER, add_bots, create_room, join_room, play_until_over, screenshot, whose_turn

GAME = "Zero Down"
CARD = re.compile(r"^(red|yellow|green|blue|violet|grey|black) [1-8]$")


def two_friends_and_a_bot(browser, server) -> tuple[str, list[Page]]:
    """Ann (the host) and Bea at a Zero Down table with an Easy bot, the game begun."""
    pages = [browser.new_context().new_page() for _ in range(2)]
    code = create_room(pages[0], server.url, "Ann", game=GAME)
    join_room(pages[1], server.url, code, "Bea")
    add_bots(pages[0], 1)
    for page in pages:
        expect(page.locator(".lobby-seat")).to_have_count(3)
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1 of 3")
    return code, pages


def hand_of(page: Page) -> list[str]:
    return page.locator('#hand input[name="action.give"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def pool_of(page: Page) -> list[str]:
    return page.locator('#pool input[name="action.take"], #pool [role="img"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def swap_by_clicking(page: Page, give: str, take: str) -> None:
    """Your card, then the pool card; the pairing is shown in words, then Confirm."""
    page.get_by_role("radio", name=give, exact=True).click()
    expect(page.locator("[data-pairing]")).to_have_text(f"Put {give} in: now pick the pool card to take.")
    page.get_by_role("radio", name=take, exact=True).click()
    expect(page.locator("[data-pairing]")).to_have_text(f"Put {give} in, take {take}?")
    page.get_by_role("button", name="Confirm").click()


def knock(page: Page) -> None:
    page.get_by_role("button", name="Knock", exact=True).click()


def act(page: Page, move, *args) -> None:
    """Make a move (`move(page, *args)`) and wait until the page shows the table it made."""
    before = page.locator("#room-version").get_attribute("value")
    move(page, *args)
    expect(page.locator("#room-version")).not_to_have_attribute("value", before)


def turn_taker():
    """Each player swaps (their highest card for the pool's first) and knocks, turn about."""
    turns: dict[int, int] = {}

    def take_turn(page: Page) -> None:
        taken = turns.get(id(page), 0)
        turns[id(page)] = taken + 1
        if taken % 2:
            knock(page)
            return
        hand = hand_of(page)
        give = max(hand, key=lambda card: int(card[-1]))
        take = pool_of(page)[0]
        final = page.locator("#status .headline").filter(has_text="your final one").count()
        swap_by_clicking(page, give, take)
        if not final:
            # The swap in words among the recent moves. After a player's final turn the round may end,
            # and the bots' first moves of the next push it out of them before the page is read.
            expect(page.locator("#status .moves")).to_contain_text(f"put {give} in and took {take}")

    return take_turn


def test_two_friends_and_a_bot_play_a_whole_game_by_clicking(browser, server):
    _code, pages = two_friends_and_a_bot(browser, server)
    expect(pages[0].locator('#pool input[name="action.take"]')).to_have_count(5)
    assert all(CARD.match(card) for card in hand_of(pages[0])) and len(hand_of(pages[0])) == 9
    check_access(pages[0], "Zero Down at the start")
    take_turn = turn_taker()
    play_until_over(pages, take_turn, moves=2)
    check_access(pages[0], "Zero Down mid-round")
    play_until_over(pages, take_turn)
    for page in pages:
        expect(page.locator("#status .headline")).to_contain_text("Game over")
        expect(page.locator("#status .ranking li")).to_have_count(3)
        expect(page.locator("#rounds tbody tr")).to_have_count(3)
        expect(page.locator("#rounds tfoot")).to_contain_text("Total")
        # The last round's hands face up, each with its sum worked out.
        expect(page.locator("#rounds .round-end").first.locator(".shown-hand")).to_have_count(3)
        expect(page.locator("#rounds .shown-why").first).to_contain_text(re.compile(r"Counted|ZERO|Nothing"))
        expect(page.get_by_role("button", name="Play again")).to_be_visible()
    check_access(pages[0], "Zero Down over")
    pages[1].get_by_role("button", name="Play again").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1 of 3")


def test_swaps_in_words_and_the_final_turns_are_shown_to_everyone(browser, server):
    _code, pages = two_friends_and_a_bot(browser, server)
    expect(pages[0].locator("#status .knock-line")).to_contain_text("No knocks yet")
    swapped = seen_final = False
    for _ in range(30):
        page = whose_turn(pages)
        other = pages[1 - pages.index(page)]
        name = "Ann" if page is pages[0] else "Bea"
        if page.locator("#status .headline").filter(has_text="your final one").count():
            expect(page.locator("#status .knock-line")).to_contain_text("Final turns still to come: you")
            expect(page.locator("#seats .seat:has(.badge.you)")).to_contain_text("Final turn: now")
            expect(other.locator("#status .knock-line")).to_contain_text(f"Final turns still to come: {name}")
            seen_final = True
        if swapped or seen_final:
            act(page, knock)
            if seen_final:
                break
            continue
        give, take = hand_of(page)[0], pool_of(page)[-1]
        act(page, swap_by_clicking, give, take)
        expect(other.locator("#status .moves")).to_contain_text(f"{name} put {give} in and took {take}")
        expect(other.locator("#pool .fresh")).to_have_count(1)
        swapped = True
    assert seen_final


def test_a_reload_keeps_the_hand_and_a_spectator_page_holds_no_card_of_any_hand(browser, server):
    code, pages = two_friends_and_a_bot(browser, server)
    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}/r/{code}")
    expect(spectator.locator("#hand")).to_contain_text("You are watching")
    expect(spectator.locator('input[name="action.give"]')).to_have_count(0)
    # Each player's own page says what they hold; a card is public only once a swap named it.
    moved = " ".join(spectator.locator("#status .moves").all_inner_texts())
    hands = [card for page in pages for card in hand_of(page)]
    assert len(hands) == 18
    html = spectator.content()
    assert not [card for card in hands if card in html and card not in moved]
    before = hand_of(pages[1])
    pages[1].reload()
    expect(pages[1].locator('#hand input[name="action.give"]')).to_have_count(9)
    assert hand_of(pages[1]) == before


def test_a_swap_made_with_the_keyboard_only(browser, server):
    # Two friends and no bot: nothing moves after the swap, so it stays among the recent moves to be
    # read (a bot moving at once may end the round and the next round's moves push it off the page).
    pages = [browser.new_context().new_page() for _ in range(2)]
    code = create_room(pages[0], server.url, "Ann", game=GAME)
    join_room(pages[1], server.url, code, "Bea")
    pages[0].get_by_role("button", name="Start the game").click()
    page = whose_turn(pages)
    name = "Ann" if page is pages[0] else "Bea"
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "action.give":
            break
    page.keyboard.press("ArrowRight")
    give = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.name") == "action.take"
    take = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    expect(page.locator("[data-pairing]")).to_have_text(f"Put {give} in, take {take}?")
    assert page.evaluate("document.activeElement.textContent") == "Confirm"
    page.keyboard.press("Enter")
    expect(page.locator("#status .moves")).to_contain_text(f"{name} put {give} in and took {take}")
    assert take in hand_of(page) and give not in hand_of(page)


def test_the_grouping_by_number_is_remembered_and_fits_a_small_phone(page, server):
    page.set_viewport_size({"width": 360, "height": 740})
    create_room(page, server.url, "Ann", game=GAME)
    add_bots(page, 1)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status .round-line")).to_contain_text("Round 1", timeout=10_000)
    expect(page.locator(".group-label.by-number").first).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.get_by_label("by number").check()
    expect(page.locator(".group-label.by-number").first).to_be_visible()
    expect(page.locator(".group-label.by-colour").first).to_be_hidden()
    page.reload()
    expect(page.get_by_label("by number")).to_be_checked()
    expect(page.locator(".group-label.by-number").first).to_be_visible()
    # Two players lay a pool of nine: it wraps, and nothing scrolls sideways.
    expect(page.locator('#pool input[name="action.take"]')).to_have_count(9)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_screenshots_of_the_table_on_a_phone_and_a_desktop(browser, server, artifacts):
    for width, height in ((390, 844), (1280, 800)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        create_room(page, server.url, "Ann", game=GAME)
        add_bots(page, 3)
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#status .headline")).to_contain_text("Your turn", timeout=10_000)
        page.locator('#hand input[name="action.give"]').last.click()
        page.locator('#pool input[name="action.take"]').first.click()
        expect(page.get_by_role("button", name="Confirm")).to_be_enabled()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"zero_down-table-{width}x{height}.png")
        # Knock twice: the bots take their final turns and every hand of round 1 is shown.
        for _ in range(2):
            expect(page.locator("#status .headline")).to_contain_text("Your turn", timeout=10_000)
            act(page, knock)
        expect(page.locator("#rounds .round-end")).to_have_count(1, timeout=10_000)
        expect(page.locator("#status")).not_to_contain_text(GAME_OVER)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"zero_down-round-end-{width}x{height}.png")
        page.context.close()
