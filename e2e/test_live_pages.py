"""An open page never freezes or lies: through a restart of the server, a live channel that went
quiet, a double tap; and on a phone the move is on the first screen, in every game."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from e2e.table import add_bots, create_room, join_room, take_zero_game_turn, whose_turn
from e2e.test_cabo import take_turn as take_cabo_turn
from e2e.test_table_talk import say
from e2e.test_trump_card import take_trump_card_turn
from e2e.test_zero import take_zero_turn
from e2e.test_zero_down import turn_taker

# Each game's title on the home page, how a test player takes a turn there, and the fewest and the
# most players it seats (the tallest table).
GAMES = {
    "Zero Game": (take_zero_game_turn, 3, 7),
    "Trump Card": (take_trump_card_turn, 4, 4),
    "Zero": (take_zero_turn, 3, 7),
    "Zero Down": (turn_taker(), 3, 5),
    "Cabo": (take_cabo_turn, 3, 6),
}
HEADLINE = "#status .headline"
# What a player can do now: a move's buttons, or the pick boxes of a move made in two steps.
MOVES = ", ".join(
    f"#room {control}:enabled"
    for control in ('button[name="action"]', 'input[name^="action."]', "input[data-pick]")
)


def version(page: Page) -> int:
    return int(page.locator("#room-version").get_attribute("value"))


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator(HEADLINE)).to_contain_text("Your turn")


def take_turn_and_see_it(page: Page, take_turn) -> None:
    """Take a turn on this page, and see the page itself move on (no reload)."""
    before = version(page)
    take_turn(page)
    expect(page.locator("#room-version")).not_to_have_attribute("value", str(before))


def table_with_bots(page: Page, url: str, game: str, bots: int) -> str:
    code = create_room(page, url, "Ann", game=game)
    add_bots(page, bots)
    page.get_by_role("button", name="Start the game").click()
    wait_for_my_turn(page)
    return code


def test_the_same_open_pages_play_on_through_a_kill_and_a_restart_of_the_server(browser, server):
    """One restart for a room of every game: each page stays open, comes back live and plays on."""
    context = browser.new_context()
    pages = {}
    for game, (take_turn, fewest, _most) in GAMES.items():
        page = context.new_page()
        table_with_bots(page, server.url, game, fewest - 1)
        take_turn_and_see_it(page, take_turn)
        wait_for_my_turn(page)
        pages[game] = page
    shown = {game: version(page) for game, page in pages.items()}
    server.kill()
    for page in pages.values():
        expect(page.locator("#live-status")).to_have_text("Reconnecting…")
    server.start()
    for game, page in pages.items():
        expect(page.locator("#live-status")).to_have_text("Live", timeout=20_000)
        take_turn = GAMES[game][0]
        # The same page, never reloaded: its moves and the bots' answers keep arriving.
        for _ in range(2):
            wait_for_my_turn(page)
            take_turn_and_see_it(page, take_turn)
        assert version(page) >= shown[game] + 2, game
    context.close()


def test_a_tab_whose_live_channel_went_quiet_gets_the_fresh_table_with_its_next_click(browser, server):
    """Two tabs of one seat (one browser): the first one's channel stops bringing news without a word,
    the second one plays on; the first one's next click is refused as stale, and shows the table as
    it is now, the reason beside the button, and its channel brings the news again."""
    context = browser.new_context()
    quiet = {"on": False}

    def maybe_quiet(socket) -> None:
        server_side = socket.connect_to_server()
        if quiet["on"]:
            return  # a fresh channel, opened after the quiet one: left alone
        # Its heartbeats still come (else the page would notice the silence and reopen it itself).
        server_side.on_message(lambda message: None if quiet["on"] and message else socket.send(message))

    stale = context.new_page()
    stale.route_web_socket(re.compile(r"/live"), maybe_quiet)
    code = create_room(stale, server.url, "Ann")
    add_bots(stale, 2)
    fresh = context.new_page()
    fresh.goto(f"{server.url}/r/{code}")
    expect(fresh.locator("#live-status")).to_have_text("Live")
    fresh.get_by_role("button", name="Start the game").click()
    wait_for_my_turn(stale)
    quiet["on"] = True
    take_turn_and_see_it(fresh, take_zero_game_turn)
    wait_for_my_turn(fresh)
    # The quiet tab still says "Your turn: bid" on the table of a round ago.
    expect(stale.locator(HEADLINE)).to_have_text("Your turn: bid")
    assert version(stale) < version(fresh)
    # Not the bid the other tab made (the same move sent again from the same table is made once).
    button = stale.locator("#hand form.bids button").last
    box = button.bounding_box()
    button.click()
    notice = stale.locator("#notice")
    expect(notice).to_have_text("The table changed before your move arrived: here it is now.")
    expect(stale.locator("#room-version")).to_have_attribute("value", str(version(fresh)))
    expect(stale.locator(HEADLINE)).to_have_text(fresh.locator(HEADLINE).inner_text())
    beside = notice.bounding_box()
    assert abs(beside["y"] + beside["height"] / 2 - (box["y"] + box["height"] / 2)) < 120, (beside, box)
    # The quiet tab opened a fresh channel: the other tab's next move reaches it by itself. The bots
    # answer that move at once, so either tab may be further on when it is read: at least that far.
    take_turn_and_see_it(fresh, take_zero_game_turn)
    stale.wait_for_function(
        "made => Number(document.getElementById('room-version').value) >= made",
        arg=version(fresh),
        timeout=10_000,
    )
    context.close()


def test_a_move_made_while_live_goes_over_the_channel_and_a_refusal_comes_back_on_it(page, server):
    """No request is posted for a move while the page is live: it goes over the open channel, whose
    push brings the table it made, and a refusal's reason comes back the same way, beside the card."""
    posted, sent = [], []
    page.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    table_with_bots(page, server.url, "Zero Game", 2)
    posted.clear()
    for _ in range(2):
        wait_for_my_turn(page)
        take_turn_and_see_it(page, take_zero_game_turn)
    assert not [url for url in posted if "/act" in url], posted
    assert len([frame for frame in sent if '"move"' in str(frame)]) == 2, sent
    # A move the engine refuses (made up here: no page offers it) is answered over the channel too.
    wait_for_my_turn(page)
    page.evaluate(
        """() => { const b = document.querySelector('#hand button[name="action"]:enabled');
                   b.value = '{"type": "play", "card": "ZZ"}'; b.click(); }"""
    )
    expect(page.locator("#notice")).not_to_be_empty()
    expect(page.locator("#notice-holder")).to_have_class("beside")
    assert not [url for url in posted if "/act" in url], posted


def test_a_double_tap_plays_once_and_says_nothing_of_a_stale_table(page, server):
    create_room(
        page,
        server.url,
        "Ann",
        game="Trump Card",
        settings={"Trump Card: Trump Chooser of the first match": "Seat A (the host)"},
    )
    add_bots(page, 3)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("button", name=re.compile(r"^Trump: ")).first.click()
    wait_for_my_turn(page)
    played = page.locator("form[data-hand] button:enabled").first
    name = played.get_attribute("aria-label")
    held = page.locator("form[data-hand] button").count()
    played.dblclick()
    expect(page.locator("form[data-hand] button")).to_have_count(held - 1)
    expect(page.locator("#hand").get_by_role("button", name=name, exact=True)).to_have_count(0)
    # Both taps reached the server (or the second found the card gone): no refusal either way.
    page.wait_for_load_state("networkidle")
    expect(page.locator("#notice")).to_be_empty()


def test_on_a_phone_the_move_is_on_the_first_screen_in_every_game(browser, server):
    """Each game at its fullest table, on a 390x844 phone: what the player must do is in sight."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    for game, (_take_turn, _fewest, most) in GAMES.items():
        page = context.new_page()
        table_with_bots(page, server.url, game, most - 1)
        # Some move is wholly on the screen (the page has brought it there, if it had to).
        try:
            page.wait_for_function(
                f"() => [...document.querySelectorAll({MOVES!r})].some(e => {{"
                " const b = e.getBoundingClientRect();"
                " return b.width > 0 && b.top >= 0 && b.bottom <= innerHeight; })"
            )
        except PlaywrightTimeoutError as error:
            raise AssertionError(f"{game}: no move wholly on the first screen") from error
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), game
        assert page.title().startswith("Your turn · "), game
        # What is said at the table grows below the moves, never above them to push them off the screen.
        for phrase in ("Good luck", "Nice bid"):
            say(page, phrase)
        expect(page.locator("#talk .talk-log li")).to_have_count(2)
        talk_top = page.locator("#talk").bounding_box()["y"]
        moves_bottom = page.evaluate(
            f"Math.max(...[...document.querySelectorAll({MOVES!r})]"
            ".map(e => e.getBoundingClientRect().bottom))"
        )
        assert moves_bottom <= talk_top, game
        # On the narrowest phone, every score table shows all its columns: none hides to the side.
        page.set_viewport_size({"width": 360, "height": 740})
        page.evaluate("document.querySelectorAll('#room details').forEach(d => { d.open = true; })")
        hidden = page.evaluate(
            "[...document.querySelectorAll('#room table')].filter(t => t.parentElement.scrollWidth"
            " > t.parentElement.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth).length"
        )
        assert hidden == 0, game
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), game
        page.close()
    context.close()


def test_a_phone_typing_at_the_table_is_not_pulled_to_the_move_when_its_turn_comes(browser, server):
    ann = browser.new_context(viewport={"width": 320, "height": 568}).new_page()
    bea = browser.new_page()
    code = create_room(ann, server.url, "Ann", game="Zero Game")
    join_room(bea, server.url, code, "Bea")
    add_bots(ann, 1)
    ann.get_by_role("button", name="Start the game").click()
    # Ann moves until the turn is Bea's; she then talks at the foot of the page while Bea moves.
    while whose_turn([ann, bea]) is ann:
        before = version(ann)
        take_zero_game_turn(ann)
        expect(ann.locator("#room-version")).not_to_have_attribute("value", str(before))
    for phrase in ("Good luck", "Nice bid", "Well played"):
        say(ann, phrase)
    chat = ann.locator("#chat-text")
    chat.fill("one moment")
    ann.evaluate("scrollTo(0, document.body.scrollHeight)")
    while whose_turn([ann, bea]) is bea:
        before = version(bea)
        take_zero_game_turn(bea)
        expect(bea.locator("#room-version")).not_to_have_attribute("value", str(before))
    wait_for_my_turn(ann)
    expect(chat).to_be_focused()
    expect(chat).to_have_value("one moment")
    expect(chat).to_be_in_viewport(ratio=1)
    ann.context.close()
    bea.close()


def test_a_closed_tab_shows_as_away_at_once_and_a_new_player_gets_the_rejoin_link(browser, server):
    ann, bea = browser.new_page(), browser.new_page()
    code = create_room(ann, server.url, "Ann")
    join_room(bea, server.url, code, "Bea")
    # The seat is Bea's from the answer that gave it: so is the link that moves it, without a reload.
    expect(bea.get_by_text("Move your seat to another device")).to_be_visible()
    seat = ann.locator(".lobby-seat").filter(has_text="Bea")
    expect(seat.locator(".presence")).to_have_text("online")
    bea.close()
    expect(seat.locator(".presence")).to_have_text("away", timeout=2_000)


def test_your_turn_is_in_the_title_with_a_quiet_chime_unless_switched_off(browser, server):
    context = browser.new_context()
    # A sound card that counts what it plays.
    context.add_init_script(
        """
        window.chimes = 0;
        window.AudioContext = class {
          constructor() { this.currentTime = 0; this.destination = {}; }
          createOscillator() {
            return { frequency: {}, connect: (next) => next, start() { window.chimes += 1; }, stop() {} };
          }
          createGain() {
            const gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
            return { gain, connect: (next) => next };
          }
        };
        """
    )
    page = context.new_page()
    code = table_with_bots(page, server.url, "Zero Game", 2)
    expect(page).to_have_title(f"Your turn · Zero Game · {code} · zerogames")
    assert page.evaluate("window.chimes") == 1
    page.get_by_text("Menu").click()
    page.get_by_label("Sounds").uncheck()
    page.get_by_role("button", name="Save settings").click()
    wait_for_my_turn(page)
    take_turn_and_see_it(page, take_zero_game_turn)
    wait_for_my_turn(page)
    expect(page).to_have_title(re.compile(r"^Your turn · "))
    assert page.evaluate("window.chimes") == 0
    context.close()
