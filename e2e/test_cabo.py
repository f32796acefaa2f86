"""Cabo in real browsers against a real server process: peeks that turn back, powers, snaps, Cabo."""

from __future__ import annotations

import json
import re
import sqlite3
import time

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import add_bots, create_room, join_room, my_turn, play_until_over, screenshot, whose_turn

HEADLINE = "#status .headline"


def headline(page: Page) -> str:
    return page.locator(HEADLINE).inner_text()


def version(page: Page) -> str | None:
    return page.locator("#room-version").get_attribute("value")


def three_players(browser, server):
    pages = [browser.new_context().new_page() for _ in range(3)]
    code = create_room(pages[0], server.url, "Ann", game="Cabo")
    join_room(pages[1], server.url, code, "Bea")
    join_room(pages[2], server.url, code, "Cal")
    for page in pages:
        expect(page.locator(".lobby-seat")).to_have_count(3)
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1")
    return code, pages


def peek(page: Page) -> None:
    """Pick cards 1 and 3, and wait until the table has taken them. The peek is made by every seat at
    once: a bot's push may change the page's version before this one's Ready lands, and a page read
    then would still ask for a pick, and pick again on a table about to lose its Ready button."""
    page.get_by_label("Peek at your card 1").check()
    page.get_by_label("Peek at your card 3").check()
    page.get_by_role("button", name="Ready").click()
    expect(page.locator(HEADLINE)).not_to_contain_text("pick two of your cards")


def shown_faces(page: Page) -> list[str]:
    """The names of the cards face up in this player's own slots."""
    return page.locator("#table .cabo-seat.mine .slot.shown .card-face").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def table_labels(page: Page) -> list[str]:
    return page.locator("#table [aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def take_turn(page: Page, powers: list[str] | None = None, call: bool = False) -> None:
    """Do what the headline asks: peek, hand over, discard what was drawn, use a power, draw or call."""
    text = headline(page)
    if "pick two of your cards" in text:
        peek(page)
    elif "hand one of your cards" in text:
        page.get_by_role("button", name=re.compile(r"^Hand over your card")).first.click()
    elif "keep the card you drew" in text:
        page.get_by_role("button", name="Discard it").click()
    elif "use the power" in text:
        if powers is not None:
            powers.append(text)
        looks = page.get_by_role("button", name=re.compile(r"^Look at"))
        if looks.count():
            looks.first.click()
        elif powers is not None:
            boxes = page.locator('input[data-pick="swap"]')
            boxes.nth(0).check()
            boxes.nth(1).check()
            page.get_by_role("button", name="Swap", exact=True).click()
        else:
            page.get_by_role("button", name="Skip the power").click()
    elif call and page.get_by_role("button", name="Call Cabo").count():
        page.get_by_role("button", name="Call Cabo").click()
    else:
        page.get_by_role("button", name="Draw a card").click()


def act_and_wait(page: Page, **how) -> None:
    before = version(page)
    take_turn(page, **how)
    expect(page.locator("#room-version")).not_to_have_attribute("value", before)


def at_turn_start(page: Page) -> bool:
    return "draw a card" in headline(page)


def snaps_in_log(server, target: list[int]) -> list[dict]:
    with sqlite3.connect(server.database) as db:
        rows = db.execute("select action from actions order by n").fetchall()
    actions = [json.loads(action) for (action,) in rows]
    return [a for a in actions if a.get("type") == "snap" and [a["seat"], a["slot"]] == target]


def snap_at_once(pages: list[Page], name: str, delay: float = 0.4) -> int:
    """Each page presses its button `name` at the same moment (a timer set in every page); returns how
    many presses were made on a button still on the page (a late timer finds it swapped away)."""
    at = time.time() + delay
    for page in pages:
        page.evaluate(
            """([name, at]) => {
                window.snapSent = undefined;
                const button = [...document.querySelectorAll('button')]
                    .find(b => b.getAttribute('aria-label') === name);
                setTimeout(() => {
                    window.snapSent = button.isConnected;
                    button.click();
                }, Math.max(0, at * 1000 - Date.now()));
            }""",
            [name, at],
        )
    deadline = time.monotonic() + 10
    while any(page.evaluate("window.snapSent") is None for page in pages):
        assert time.monotonic() < deadline, "a page's timer never fired"
        time.sleep(0.05)
    return sum(page.evaluate("window.snapSent") for page in pages)


def refusals(pages: list[Page], expected: int) -> list[Page]:
    """The pages showing a refusal's notice, once `expected` of them do (or after five seconds)."""
    deadline = time.monotonic() + 5
    while True:
        refused = [p for p in pages if p.locator("#notice").inner_text().strip()]
        if len(refused) >= expected or time.monotonic() > deadline:
            return refused
        time.sleep(0.05)


def test_three_friends_peek_use_a_power_snap_and_call_cabo(browser, server):
    _code, pages = three_players(browser, server)
    names = ["Ann", "Bea", "Cal"]
    for page in pages:
        expect(page.locator(HEADLINE)).to_contain_text("Your turn: pick two")
        peek(page)
    # Everyone sees their two picked cards at once, then, with nothing else happening, they turn back.
    for page in pages:
        expect(page.locator("#table .cabo-seat.mine .slot.shown")).to_have_count(2)
    seen = shown_faces(pages[0])
    assert len(seen) == 2
    expect(pages[0].locator(".sighting")).to_have_count(0, timeout=5_000)
    time.sleep(0.3)
    html = pages[0].content()
    for name in seen:
        assert name not in html
    pages[0].reload()
    html = pages[0].content()
    for name in seen:
        assert name not in html

    powers: list[str] = []
    snapped = concurrent = reloaded = False
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the round did not get far enough"
        page = whose_turn(pages)
        turn = pages.index(page)
        others = [p for p in pages if p is not page]
        window_open = (
            at_turn_start(page) and others[0].get_by_role("button", name=re.compile("^Snap ")).count()
        )
        if window_open and not snapped:
            # A snap of one's own card: a hit empties the slot, a miss brings a penalty card.
            before = version(others[0])
            others[0].get_by_role("button", name="Snap your card 2").click()
            expect(others[0].locator("#room-version")).not_to_have_attribute("value", before)
            expect(others[0].locator(".last-action")).to_contain_text(
                re.compile(r"snapped \w+'s card 2: a (hit|miss)")
            )
            snapped = True
            continue
        if window_open and snapped and not concurrent:
            # Two players snap the same card at the same moment: one is judged, the other refused.
            target = f"Snap {names[turn]}'s card 1"
            if all(p.get_by_role("button", name=target).count() for p in others):
                before = len(snaps_in_log(server, [turn, 0]))
                sent = snap_at_once(others, target)
                # On a loaded machine one page's timer may fire after the first snap's table replaced
                # its button: then only one snap was sent, and the race is tried again later.
                assert len(refusals(others, sent - 1)) == sent - 1
                # Its own deadline: the round's must still hold if the race is tried again later.
                judged_by = time.monotonic() + 5
                while len(snaps_in_log(server, [turn, 0])) == before and time.monotonic() < judged_by:
                    time.sleep(0.05)
                assert len(snaps_in_log(server, [turn, 0])) == before + 1
                concurrent = sent == 2
                # A hit on another's card: the snapper hands one over before anything else.
                for p in others:
                    if "hand one of your cards" in headline(p):
                        act_and_wait(p)
                continue
        if at_turn_start(page) and concurrent and not reloaded:
            # A reload mid-round keeps everything the player sees.
            expect(page.locator(".sighting")).to_have_count(0, timeout=5_000)
            labels = table_labels(page)
            words = page.locator(".last-action").inner_text()
            page.reload()
            expect(page.locator(HEADLINE)).to_contain_text("Your turn")
            assert table_labels(page) == labels
            assert page.locator(".last-action").inner_text() == words
            reloaded = True
        if at_turn_start(page) and powers and concurrent:
            act_and_wait(page, call=True)
            break
        act_and_wait(page, powers=powers)

    caller = names[turn]
    for page in pages:
        expect(page.locator("#status .caller-line")).to_contain_text("called Cabo")
    expect(pages[turn].locator("#table .cabo-seat.caller")).to_contain_text("locked")
    # The final turns: each of the others once, then the round's reveal and the next round's peeks.
    deadline = time.monotonic() + 30
    while "Round 2" not in pages[0].locator("#status .round-line").inner_text():
        assert time.monotonic() < deadline, "the final turns did not end the round"
        for page in pages:
            if my_turn(page) and "pick two" not in headline(page):
                act_and_wait(page)
        time.sleep(0.05)
    for page in pages:
        reveal = page.locator("#rounds .reveal")
        expect(reveal).to_contain_text(f"{caller} called Cabo and")
        expect(reveal.locator(".shown-hand")).to_have_count(3)
        expect(reveal).to_contain_text("total")
        expect(page.locator("#rounds tbody tr")).to_have_count(1)


def cabo_turn(page: Page) -> None:
    """A quick player: calls Cabo at once, skips powers."""
    take_turn(page, call=True)


def test_one_human_and_two_easy_bots_finish_a_game(page, server):
    create_room(page, server.url, "Ann", game="Cabo")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("checkbox", name="Peek at your card 1")).to_be_visible()
    check_access(page, "Cabo at the start")
    play_until_over([page], take_turn=cabo_turn, moves=2)
    check_access(page, "Cabo mid-round")
    play_until_over([page], take_turn=cabo_turn, limit=80)
    expect(page.locator(HEADLINE)).to_contain_text("Game over")
    check_access(page, "Cabo over")
    assert page.locator("#rounds tbody tr").count() >= 2
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    # The last round's hands are all shown.
    expect(page.locator("#rounds .reveal .shown-hand")).to_have_count(3)


def test_only_the_host_sees_the_assist_switch_and_everyone_the_banner(browser, server):
    _code, pages = three_players(browser, server)
    expect(pages[1].get_by_role("button", name=re.compile("assist mode"))).to_have_count(0)
    pages[0].get_by_role("button", name="Switch assist mode on").click()
    for page in pages:
        expect(page.locator(".assist-banner")).to_contain_text("Assist mode is on")


def test_screenshots_of_the_table_on_a_phone_and_a_desktop(browser, server, artifacts):
    for width, height in ((390, 844), (1280, 800)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        create_room(page, server.url, "Ann", game="Cabo")
        add_bots(page, 3)
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator(HEADLINE)).to_contain_text("Your turn: pick two")
        screenshot(page, artifacts / f"cabo-peek-{width}x{height}.png")
        peek(page)
        # A bot may have called Cabo before the host's first turn: "Your turn (final turn): draw...".
        expect(page.locator(HEADLINE)).to_contain_text(re.compile(r"Your turn.*draw a card"), timeout=15_000)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifacts / f"cabo-table-{width}x{height}.png")
