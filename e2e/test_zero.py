"""Zero in real browsers against a real server process: everybody plays at once, then guesses the sum."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import add_bots, create_room, join_room, play_until_over, screenshot, whose_turn

NAMES = ("Ann", "Bea", "Cal")


def spoken(value: int) -> str:
    return f"minus {-value}" if value < 0 else (f"plus {value}" if value > 0 else "0")


def signed(value: int) -> str:
    return f"−{-value}" if value < 0 else (f"+{value}" if value > 0 else "0")


def three_players(browser, server) -> list[Page]:
    pages = [browser.new_context().new_page() for _ in NAMES]
    code = create_room(pages[0], server.url, NAMES[0], game="Zero")
    for page, name in zip(pages[1:], NAMES[1:], strict=True):
        join_room(page, server.url, code, name)
    for page in pages:
        expect(page.locator(".lobby-seat")).to_have_count(3)
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Trick 1 ")
    return pages


def headline(page: Page):
    return page.locator("#status .headline")


def laying(page: Page) -> bool:
    """Whether this page's player is at the safe-set step (everyone's turn to play says "Your turn" too)."""
    return headline(page).filter(has_text="Your turn: lay down safe sets").count() > 0


def hand_of(page: Page) -> list[int]:
    return page.locator("#hand form[data-hand] button").evaluate_all(
        "els => els.map(e => JSON.parse(e.value).card)"
    )


def play(page: Page, card: int) -> None:
    page.locator("#hand").get_by_role("button", name=f"Card {spoken(card)}", exact=True).first.click()
    expect(page.get_by_role("img", name=f"Your card, face down: {spoken(card)}")).to_be_visible()


def guess(page: Page, total: int) -> None:
    label = f"Guess {total}" if total >= 0 else f"Guess minus {-total}"
    page.get_by_role("button", name=label, exact=True).click()
    expect(headline(page)).not_to_contain_text("Your turn: guess")


def nearest_guess(page: Page, aim: int, avoid: int | None = None) -> int:
    """The allowed total nearest to `aim`, other than `avoid`."""
    allowed = page.locator("#guesses button.guess:enabled").evaluate_all(
        "els => els.map(e => JSON.parse(e.value).total)"
    )
    return min((t for t in allowed if t != avoid), key=lambda t: (abs(t - aim), t))


def largest_safe_set(values: list[int]) -> tuple[int, ...]:
    """The positions of the most cards that sum to exactly 0 or 10 (the player's best set)."""
    for size in range(len(values), 0, -1):
        for picked in itertools.combinations(range(len(values)), size):
            if sum(values[i] for i in picked) in (0, 10):
                return picked
    return ()


def lay_a_safe_set(page: Page, shot: Path | None = None) -> list[int]:
    """Tick the cards of the largest set one by one, watching the running sum, then lay them down."""
    form = page.locator("form[data-safe]")
    boxes = form.get_by_role("checkbox")
    values = boxes.evaluate_all("els => els.map(e => parseInt(e.dataset.value, 10))")
    picked = largest_safe_set(values)
    assert picked, "the safe-set step is offered only with a set in hand"
    lay = form.get_by_role("button", name="Lay down")
    expect(lay).to_be_disabled()
    running = 0
    for index in picked:
        boxes.nth(index).check()
        running += values[index]
        expect(form.locator("[data-sum]")).to_have_text(signed(running).lstrip("+"))
        if running not in (0, 10):
            expect(lay).to_be_disabled()
    expect(lay).to_be_enabled()
    if shot:
        screenshot(page, shot)
    version = page.locator("#room-version").get_attribute("value")
    lay.click()
    expect(page.locator("#room-version")).not_to_have_attribute("value", version)
    return sorted((values[i] for i in picked), reverse=True)


def played_faces(page: Page) -> int:
    """How many played cards this page shows face up in the current trick (its own, at most)."""
    return page.locator("#trick ul.played:not(.finished) .zcard").count()


def play_a_trick(pages: list[Page], number: int, exact: bool) -> int | None:
    """Everyone plays (in an order that turns each trick), everyone guesses; the taker's seat or None.

    One holder of a 0 plays it and the others avoid theirs: unless someone guesses the total, the lone
    0 takes the cards, and the 0 comes back for a safe set.
    """
    for page in pages:
        expect(headline(page)).to_have_text("Your turn: play a card face down")
    hands = [hand_of(page) for page in pages]
    zero = next((seat for seat, hand in enumerate(hands) if 0 in hand), None)
    cards = [
        0 if seat == zero else next((card for card in hand if card != 0), hand[0])
        for seat, hand in enumerate(hands)
    ]
    order = [(number + offset) % 3 for offset in range(3)]
    if number % 2:
        order.reverse()
    for count, seat in enumerate(order, start=1):
        play(pages[seat], cards[seat])
        for other, page in enumerate(pages):
            # Every page knows who has played, and never sees another player's card.
            expect(page.locator("#trick .area-title").first).to_have_text(f"Played this trick: {count} of 3")
            expect(page.locator("#trick .card-back")).to_have_count(
                count - (1 if other in order[:count] else 0)
            )
            assert played_faces(page) == (1 if other in order[:count] else 0)
    total = sum(cards)
    for turn in range(3):
        page = whose_turn(pages)
        expect(headline(page)).to_have_text("Your turn: guess the total")
        waiting = [other for other in pages if other is not page]
        for other in waiting:
            expect(headline(other)).to_contain_text("to guess")
        guess(page, total if exact and turn == 0 else nearest_guess(page, total, avoid=total))
    for page in pages:
        expect(page.locator("#trick .outcome")).to_contain_text(f"Total {signed(total).lstrip('+')}:")
    outcome = pages[0].locator("#trick .outcome").inner_text()
    taker = next((seat for seat, name in enumerate(NAMES) if f"{name} guessed it" in outcome), None)
    if taker is None and "who played the only 0" in outcome:
        taker = zero
    return taker


def test_three_friends_play_tricks_guess_see_reveals_and_lay_a_safe_set(browser, server, artifacts):
    pages = three_players(browser, server)
    laid = None
    for number in range(1, 9):
        if laid is not None and number > 3:
            break
        taker = play_a_trick(pages, number, exact=number == 1)
        if taker is None or not laying(pages[taker]):
            continue
        page = pages[taker]
        expect(headline(page)).to_have_text("Your turn: lay down safe sets, or Done")
        for other in pages:
            if other is not page:
                expect(headline(other)).to_have_text(f"Waiting for {NAMES[taker]} to lay down safe sets")
        if laid is None:
            page.set_viewport_size({"width": 390, "height": 844})
            laid = lay_a_safe_set(page, shot=artifacts / "zero-safe-390x844.png")
            words = " ".join(signed(card) for card in laid)
            for other in pages:
                expect(other.locator("#status .last-action")).to_contain_text(
                    f"{NAMES[taker]} laid down a safe set: {words}"
                )
                expect(other.get_by_role("group", name=f"{NAMES[taker]}'s safe cards")).to_be_visible()
        if laying(page):
            page.get_by_role("button", name="Done").click()
        for other in pages:
            expect(other.locator("#status")).to_contain_text(f"Trick {number + 1} ")
    assert laid is not None, "no safe set was laid in eight tricks"
    # The table mid-guess, after a reveal and a safe set, on a phone and a desktop.
    hands = [hand_of(page) for page in pages]
    for seat, page in enumerate(pages):
        play(page, hands[seat][0])
    guesser = whose_turn(pages)
    for width, height in ((390, 844), (1280, 800)):
        guesser.set_viewport_size({"width": width, "height": height})
        assert guesser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(guesser, artifacts / f"zero-table-{width}x{height}.png")


def take_zero_turn(page: Page) -> None:
    """Play the highest card but a 0, guess near one's own card plus two, lay the largest safe set.

    Keeping the 0s (the bots play theirs) lets the bots' lone 0s take cards: the game ends in about
    30 tricks rather than 60.
    """
    text = headline(page).inner_text()
    if "guess" in text:
        own = page.get_by_role("img", name=re.compile("^Your card, face down")).get_attribute("aria-label")
        value = {f"Your card, face down: {spoken(v)}": v for v in range(-3, 4)}[own]
        guess(page, nearest_guess(page, value + 2))
    elif "safe sets" in text:
        lay_a_safe_set(page)
    else:
        hand = hand_of(page)
        play(page, max((card for card in hand if card != 0), default=0))


def test_one_human_and_two_easy_bots_finish_a_game(page, server):
    create_room(page, server.url, "Ann", game="Zero")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand button").first).to_be_visible()
    check_access(page, "Zero at the start")
    play_until_over([page], take_turn=take_zero_turn, moves=3)
    check_access(page, "Zero mid-round")
    play_until_over([page], take_turn=take_zero_turn, limit=150)
    expect(headline(page)).to_contain_text("Game over")
    # On a desktop the game's end keeps its two columns, however many safe sets the players laid.
    page.set_viewport_size({"width": 1280, "height": 800})
    widths = {name: page.locator(f"#{name}").bounding_box()["width"] for name in ("status", "seats")}
    assert widths["status"] > 1.5 * widths["seats"], widths
    expect(page.locator("#status .ranking li")).to_have_count(3)
    check_access(page, "Zero over")
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    page.get_by_role("button", name="Play again").click()
    expect(page.locator("#status")).to_contain_text("Trick 1")


def test_a_card_and_a_guess_with_the_keyboard_only(page, server):
    create_room(page, server.url, "Ann", game="Zero")
    add_bots(page, 2)
    page.get_by_role("button", name="Start the game").click()
    expect(headline(page)).to_have_text("Your turn: play a card face down")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#hand form[data-hand]')"):
            break
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    chosen = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert chosen.startswith("Card ") and first.startswith("Card ")
    page.keyboard.press("Enter")
    expect(
        page.get_by_role("img", name=f"Your card, face down: {chosen.removeprefix('Card ')}")
    ).to_be_visible()
    expect(headline(page)).to_have_text("Your turn: guess the total", timeout=10_000)
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('form.guess-grid')"):
            break
    page.keyboard.press("ArrowRight")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("Guess ")
    page.keyboard.press("Enter")
    said = label.removeprefix("Guess ").replace("minus ", "−")
    expect(page.locator("#trick .reveal-guesses")).to_contain_text(re.compile(f"Ann {said}( |$)"))
