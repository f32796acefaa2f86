"""Accounts, history and replays in real browsers against a real server process; and a password hash
timed against a live table."""

from __future__ import annotations

import html
import http.cookiejar
import re
import threading
import time
import urllib.parse
import urllib.request

import websocket
from playwright.sync_api import expect

from e2e.conftest import Server
from e2e.table import add_bots, create_room, play_until_over, screenshot

PHONE, DESKTOP = (390, 844), (1280, 800)
PASSWORD = "correct horse"


def sign_up(page, url: str, username: str) -> None:
    page.goto(url + "/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name=username, exact=True)).to_be_visible()


def test_sign_up_play_to_the_end_and_step_through_the_replay_by_keyboard(browser, server, artifacts):
    # Reduced motion: the screenshots show the table at rest, not a card on its way.
    desktop = browser.new_context(
        viewport={"width": DESKTOP[0], "height": DESKTOP[1]}, reduced_motion="reduce"
    ).new_page()
    sign_up(desktop, server.url, "ann")
    create_room(desktop, server.url, "Ann")
    add_bots(desktop, 2)
    desktop.get_by_role("button", name="Start the game").click()
    play_until_over([desktop])
    record = desktop.locator("#game-record")
    expect(record.get_by_role("img", name="Scores by round")).to_be_visible()
    screenshot(desktop, artifacts / "records-game-over-1280x800.png")
    room_url = desktop.url

    record.get_by_role("link", name="Watch replay").click()
    steps = desktop.locator("#step-count")
    expect(steps).to_have_text(re.compile(r"^Step 0 of \d+$"))
    last = int(steps.inner_text().rsplit(" ", 1)[1])

    def press(key: str, step: int) -> None:
        desktop.wait_for_load_state("domcontentloaded")  # the keys are the page's once its script ran
        desktop.keyboard.press(key)
        expect(steps).to_have_text(f"Step {step} of {last}")
        assert f"step={step}&" in desktop.url  # each step has a URL of its own

    press("ArrowRight", 1)
    press("ArrowRight", 2)
    press("ArrowLeft", 1)
    press("End", last)
    press("Home", 0)
    press("End", last)
    expect(desktop.locator("#status .headline")).to_contain_text("Game over")
    desktop.get_by_role("link", name="2", exact=True).click()  # the jump to round 2
    expect(desktop.locator("#status .round-line")).to_contain_text("Round 2 of 3")
    desktop.get_by_role("link", name="All cards open").click()
    expect(desktop.get_by_role("heading", name="Every hand")).to_be_visible()
    screenshot(desktop, artifacts / "records-replay-1280x800.png")
    desktop.get_by_role("link", name="ann", exact=True).click()
    expect(desktop.get_by_role("link", name=re.compile("Watch the replay"))).to_have_count(1)
    screenshot(desktop, artifacts / "records-player-1280x800.png")

    # A phone signs in to the account and finds the game, its replay and its end.
    phone = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]}, reduced_motion="reduce"
    ).new_page()
    phone.goto(server.url + "/signin")
    phone.get_by_label("Username").fill("ann")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Sign in").click()
    expect(phone.get_by_role("link", name=re.compile("Watch the replay"))).to_have_count(1)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    screenshot(phone, artifacts / "records-player-390x844.png")
    phone.get_by_role("link", name=re.compile("Watch the replay")).click()
    expect(phone.locator("#step-count")).to_have_text(f"Step 0 of {last}")
    phone.get_by_role("link", name="Next").click()
    expect(phone.locator("#step-count")).to_have_text(f"Step 1 of {last}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    screenshot(phone, artifacts / "records-replay-390x844.png")
    # The account's seat is this browser's too: the table's end, as the phone shows it.
    phone.goto(room_url)
    expect(phone.locator("#game-record").get_by_role("link", name="Watch replay")).to_be_visible()
    expect(phone.get_by_role("button", name="Play again")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    screenshot(phone, artifacts / "records-game-over-390x844.png")


class Browser:
    """A client with its own cookies, as a browser without a page."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, **fields: str) -> str:
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.url + path, data=data, timeout=30) as response:
            return response.read().decode()


ACTION = re.compile(r"<button[^>]*name=\"action\" value='([^']+)'(?![^>]*disabled)")


def test_a_password_hash_never_holds_up_a_live_table(tmp_path):
    # Some four seconds of hashing a password here (at least one on a fast machine): were it on the
    # event loop, every table would wait.
    server = Server(tmp_path / "zerogames.db", env={"ZEROGAMES_PASSWORD_METHOD": "pbkdf2:sha256:6000000"})
    server.start()
    try:
        players = [Browser(server.url) for _ in range(3)]
        page = players[0].post("/rooms", game="zero_game", name="Ann")
        code = re.search(r"/r/([A-Z]{4})", page).group(1)
        for player, name in zip(players[1:], ("Bea", "Cal"), strict=True):
            player.post(f"/r/{code}/join", name=name)
        players[0].post(f"/r/{code}/start")
        watcher = websocket.create_connection(f"ws://127.0.0.1:{server.port}/r/{code}/live", timeout=10)
        watcher.send("{}")
        watcher.recv()  # the table as it is

        signed_up = {}

        def sign_up() -> None:
            started = time.monotonic()
            Browser(server.url).post("/signup", username="dee", password=PASSWORD, again=PASSWORD)
            signed_up["took"] = (started, time.monotonic())

        hashing = threading.Thread(target=sign_up)
        hashing.start()
        time.sleep(0.2)  # the sign-up is hashing now
        delays = []
        while hashing.is_alive():
            for player in players:
                page = player.get(f"/r/{code}")
                moves = ACTION.findall(page)
                if moves:
                    version = re.search(r'name="version" value="(\d+)"', page).group(1)
                    started = time.monotonic()
                    player.post(f"/r/{code}/act", action=html.unescape(moves[0]), version=version)
                    watcher.recv()  # the push of the move
                    delays.append(time.monotonic() - started)
                    break
        hashing.join()
        begun, ended = signed_up["took"]
        assert ended - begun > 1.0, "the hash was too quick to tell anything"
        # The table went on while the password was hashed: every move was pushed within a blink, where a
        # hash on the event loop would hold a move up as long as the hash itself (and a busy machine
        # makes both slower: the blink is allowed to grow with the hash).
        assert max(delays) < max(0.5, (ended - begun) / 4), delays
        assert len(delays) >= 5
        watcher.close()
    finally:
        server.stop()
