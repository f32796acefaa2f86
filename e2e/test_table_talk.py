"""Table talk in real browsers: what a player says reaches every seat and a watcher, never the page of
a player who muted them, and always as text; the host's chat switch and sending someone away."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.access import check_access
from e2e.table import create_room, join_room

SCRIPT = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 1">'


def frames_of(page: Page) -> list[str]:
    """Every frame the page's live channels receive from now on."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(str(frame))))
    return frames


def say(page: Page, button: str) -> None:
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_timeout(600)  # one message every half second


def test_talk_reaches_the_table_but_never_a_muter_and_the_host_keeps_order(browser, server, artifacts):
    ann, bea, cal, dan, wes = (browser.new_context().new_page() for _ in range(5))
    bea_frames = frames_of(bea)  # before the page opens: its every channel is heard
    code = create_room(ann, server.url, "Ann")
    for page, name in ((bea, "Bea"), (cal, "Cal"), (dan, "Dan")):
        join_room(page, server.url, code, name)
    # The host sends Dan away: he is told in words, and cannot come back.
    ann.locator("details.host-powers summary").click()
    check_access(ann, "a lobby with the host's powers open")
    ann.locator("details.host-powers summary").click()
    ann.get_by_role("button", name="Send Dan away").click()
    expect(dan.locator("#talk-controls")).to_contain_text("The host has asked you to leave this table")
    dan.reload()
    expect(dan.locator("main")).to_contain_text("you cannot take a seat here again")
    expect(ann.locator("#lobby")).not_to_contain_text("Dan")

    ann.get_by_role("button", name="Start the game").click()
    wes.goto(f"{server.url}/r/{code}")
    expect(wes.locator("#talk-controls")).to_contain_text("You are watching")
    expect(wes.locator("#live-status")).to_have_text("Live")
    # Bea mutes Ann; then Ann reacts, says a phrase and writes HTML.
    bea.locator("details.mutes summary").click()
    bea.get_by_role("button", name="Mute Ann").click()
    expect(bea.get_by_role("button", name="Unmute Ann")).to_be_visible()
    say(ann, "React 👏")
    say(ann, "Good luck")
    ann.get_by_label("Message").fill(SCRIPT)
    ann.get_by_role("button", name="Send").click()
    expect(ann.get_by_label("Message")).to_have_value("")
    for page in (ann, cal, wes):
        expect(page.locator("#talk .talk-log")).to_contain_text("👏")
        expect(page.locator("#talk .talk-log")).to_contain_text("Good luck")
        expect(page.locator("#talk .talk-log")).to_contain_text(SCRIPT)  # as text
        assert page.evaluate("window.pwned") is None
    expect(cal.locator("#talk .bubbles")).to_contain_text("Ann")  # beside her name, for a few seconds
    bubble = cal.locator('#talk .bubble[data-seat="0"]').bounding_box()
    name = cal.locator("#seats-0 .seat-name").bounding_box()
    assert abs(bubble["x"] - name["x"]) < 2, "beside Ann's seat on the table, not in the panel"
    above, below = name["y"] - bubble["y"] - bubble["height"], bubble["y"] - name["y"] - name["height"]
    assert min(abs(above), abs(below)) < 8, "just above or below her name"
    say(cal, "Nice bid")
    expect(bea.locator("#talk .talk-log")).to_contain_text("Nice bid")  # Bea's channel is live
    # Nothing Ann said, in the page or in any frame (the controls offer the same emoji and phrases: what
    # was said is marked as said).
    assert bea_frames  # her channel was heard
    for words in ('class="said">👏', 'class="said">Good luck', "pwned"):
        assert words not in bea.content()
        assert not [frame for frame in bea_frames if words in frame], words

    for width, height in ((390, 844), (1280, 800)):
        cal.set_viewport_size({"width": width, "height": height})
        path = artifacts / f"table-talk-{width}x{height}.png"
        # Not at rest (e2e.table.screenshot): the bubble beside Ann's seat shows while it fades.
        cal.screenshot(path=str(path), full_page=True)
    check_access(cal, "a table with reactions and chat")

    # Chat switched off by the host: a line sent anyway is refused, in words.
    ann.locator("details.host-powers summary").click()
    ann.get_by_role("button", name="Switch chat off").click()
    expect(cal.locator("#talk-controls")).to_contain_text("Chat is off at this table")
    refused = cal.evaluate(
        """code => fetch(`/r/${code}/say`, {method: "POST", headers: {"HX-Request": "true"},
            body: new URLSearchParams({kind: "chat", text: "hello"})}).then(answer => answer.text())""",
        code,
    )
    assert "The host has switched chat off" in refused
