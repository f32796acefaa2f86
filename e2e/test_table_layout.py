"""Every game's table at its largest player count fits one phone screen: your hand, the middle of the
table and every other player's essentials are in view without scrolling, at 390x844 and 360x740, and
every card and button is at least 44 px to tap. Phone and desktop screenshots of each, in the default
look and with every setting on."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Page, expect

from e2e.access import EVERY_SETTING, sideways
from e2e.table import add_bots, create_room
from zerogames.games import GAMES

PHONES = ((390, 844), (360, 740))
# Two lines of the status's text on a phone, in pixels.
STATUS_LINES = 36
DESKTOP = (1280, 800)

# Per game: its name on the home page, its largest player count, and what must be in view: the
# status's headline, each player's tile or seat, the middle of the table, your cards.
TABLES = {
    "zero_game": ("Zero Game", 7, ["#status .headline", "#seats li", "#trick", "#hand .card"]),
    "zero": ("Zero", 7, ["#status .headline", "#seats li", "#trick", "#hand .card"]),
    "zero_down": ("Zero Down", 5, ["#status .headline", "#seats li", "#pool", "#hand .zd-pick"]),
    "trump_card": ("Trump Card", 4, ["#status .headline", ".tseat", ".table-centre", "#hand .card"]),
    "cabo": ("Cabo", 6, ["#status .headline", ".opponents .cabo-seat", ".middle", ".cabo-seat.mine .slot"]),
}

OUT_OF_VIEW = """selectors => selectors.flatMap(selector => {
  const found = [...document.querySelectorAll(selector)];
  if (!found.length) return [selector + ": none on the page"];
  return found.filter(el => {
    const box = el.getBoundingClientRect();
    return box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5;
  }).map(el => selector + ": " + (el.id || el.textContent.trim().slice(0, 30)));
})"""


SMALL_TARGETS = """() => [...document.querySelectorAll(
  "#room button, #room label.zd-pick, #room label.pick, #room .group-toggle label")]
  .filter(el => el.getClientRects().length)
  .map(el => [el.getAttribute("aria-label") || el.textContent.trim(), el.getBoundingClientRect()])
  .filter(([name, box]) => box.width < 43.5 || box.height < 43.5)
  .map(([name, box]) => name + ": " + Math.round(box.width) + "x" + Math.round(box.height))"""


# A control in sight that another element lies over (where a tap at its middle would land).
COVERED = """() => [...document.querySelectorAll("#room button")].filter(el => {
  const box = el.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (!el.getClientRects().length || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  return !el.contains(document.elementFromPoint(x, y));
}).map(el => el.getAttribute("aria-label") || el.textContent.trim())"""


# A seen card's countdown that another element lies over.
COVERED_COUNTS = """() => [...document.querySelectorAll("#room .sighting")].filter(el => {
  const box = el.getBoundingClientRect();
  return !el.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
}).map(el => el.closest(".slot").id)"""


# A player's essentials in a seat tile that are cut short (an ellipsis, or clipped).
CUT_SHORT = """() => [...document.querySelectorAll("#room :is(.seat, .tseat, .cabo-seat) "
  + ":is(.seat-name, .seat-top, .tseat-top, .seat-figures > span, .seat-score)")]
  .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.replace(/\\s+/g, " ").trim())"""


def out_of_view(page: Page, selectors: list[str]) -> list[str]:
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate(OUT_OF_VIEW, selectors)


def start_at_your_turn(page: Page, url: str, title: str, players: int, deal: int | None = None) -> None:
    """A table of Ann and bots, dealt at random or as `deal` says (development mode), at Ann's turn."""
    # With bots the turn clock is on by default: its line is part of the screen to fit.
    create_room(page, url, "Ann", game=title, clock="60")
    add_bots(page, players - 1)
    if deal is not None:
        page.get_by_label("Deal number").fill(str(deal))
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#status .headline")).to_contain_text("Your turn")


def assert_fits_phones(page: Page, essentials: list[str], what: str = "", spare: int = 0) -> None:
    """In view on each phone's screen, with `spare` pixels of it left over."""
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height - spare})
        assert out_of_view(page, essentials) == [], f"{what} {width}x{height}"
        assert page.evaluate(SMALL_TARGETS) == [], f"{what} {width}x{height}: too small to tap"
        assert page.evaluate(COVERED) == [], f"{what} {width}x{height}: covered"
        assert page.evaluate(CUT_SHORT) == [], f"{what} {width}x{height}: cut short"


@pytest.mark.parametrize("game_id", list(TABLES))
def test_the_table_fits_a_phone_screen_for_the_most_players(browser, server, artifacts, game_id):
    title, players, essentials = TABLES[game_id]
    # Measured at rest: with motion reduced no card is caught gliding (a bot's move or a resize).
    page = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce").new_page()
    start_at_your_turn(page, server.url, title, players)
    assert_fits_phones(page, essentials)
    for look in ("default", "every-setting"):
        if look != "default":
            page.context.add_cookies([{"name": "settings", "value": EVERY_SETTING, "url": page.url}])
            page.reload()
            expect(page.locator("#live-status")).to_have_text("Live")
        for width, height in (*PHONES, DESKTOP):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            # At rest: a card still gliding (a bot's move just in) is shown where it lands.
            shot = artifacts / f"{game_id}-{players}-players-{look}-{width}x{height}.png"
            page.screenshot(path=shot, animations="disabled")
            assert not sideways(page), f"{look}, {width}x{height}"
            # Larger text may push the hand below the fold, but no player's name or figure is cut.
            assert page.evaluate(CUT_SHORT) == [], f"{look}, {width}x{height}: cut short"
    page.context.close()


def test_zero_guessing_at_seven_fits_a_phone_screen(browser, server):
    """Guessing among seven: every total to pick from, the guesses so far and your hand in view."""
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    create_room(page, server.url, "Ann", game="Zero", clock="60")
    add_bots(page, 6)
    page.get_by_role("button", name="Start the game").click()
    page.locator("#hand button.card").first.click()
    expect(page.locator("#status .headline")).to_contain_text("Your turn: guess")
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        assert out_of_view(page, [".guess-order li", ".guess-grid", "#trick", "#hand .card"]) == []
        assert page.get_by_role("button", name="Guess 0").is_visible()
    page.context.close()


def first_deal_with_groups(kind: str, groups: int) -> int:
    """The first deal (seed) that gives Ann (seat 0 of five) cards of `groups` colours or numbers."""
    rules = GAMES["zero_down"]
    for seed in itertools.count():
        hand = rules.new_game(5, seed, {})["hands"][0]
        if len({card[:-1] if kind == "colour" else card[-1] for card in hand}) == groups:
            return seed
    raise AssertionError("unreachable")


@pytest.mark.parametrize("kind, groups", [("colour", 7), ("number", 8)])
def test_zero_down_fits_a_phone_screen_when_the_hand_is_most_split(browser, server, kind, groups):
    """Nine cards of seven colours (or eight numbers): the most group labels a hand can hold, the
    most lines it can take; the last must still be in view, with room to spare for the two lines the
    status grows by later in a game (the round just over, a move told in two lines)."""
    title, players, essentials = TABLES["zero_down"]
    page = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce").new_page()
    start_at_your_turn(page, server.url, title, players, deal=first_deal_with_groups(kind, groups))
    page.locator(f"#zd-by-{kind}").check(force=True)
    expect(page.locator(f".group-label.by-{kind}")).to_have_count(groups)
    assert_fits_phones(page, essentials, f"{groups} {kind} groups", spare=STATUS_LINES)
    page.context.close()


def test_cabo_fits_a_phone_screen_with_a_snap_window_open_as_your_turn_starts(browser, server):
    """Your turn starts just after a discard: every card offers Snap, each of yours also Take here."""
    title, players, essentials = TABLES["cabo"]
    page = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce").new_page()
    # Dealt so that the player after the dealer, a bot, plays first and Ann next.
    start_at_your_turn(page, server.url, title, players, deal=1)
    page.get_by_label("Peek at your card 1").check()
    page.get_by_label("Peek at your card 3").check()
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#status .headline")).to_contain_text("Your turn: draw a card")
    expect(page.get_by_role("button", name="Snap your card 4")).to_be_visible()
    expect(page.get_by_role("button", name="Take the discard into your card 4")).to_be_visible()
    # The cards just peeked at count down their 3 s in sight: each count on top of the Snap laid over
    # its card (once they have turned back there is none left to see).
    assert page.evaluate(COVERED_COUNTS) == []
    assert_fits_phones(page, [*essentials, ".cabo-seat.mine button"], "snap window open")
    page.context.close()
