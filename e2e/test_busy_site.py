"""Past the process's cap on live channels a watcher is refused before the handshake (503, with a
Retry-After): the table's page says in words that the site is busy, waits as it was told rather than
trying every second or two, and goes live by itself once channels are free again."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from e2e.conftest import Server
from tests.web.test_limits import channel, new_room

CAP = 4  # of which a quarter kept for seated players: 3 channels in all for watchers
BUSY = "The site is very busy: live updates will resume shortly."


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    live = Server(tmp_path / "zerogames.db", app=f"app:create_app({{'LIVE_CHANNELS': {CAP}}})")
    live.start()
    yield live
    live.stop()


def test_a_watcher_refused_by_a_busy_site_is_told_so_and_goes_live_once_it_is_not(browser, server):
    code, _ = new_room(server)
    flood = [channel(server, code) for _ in range(CAP - 1)]
    page = browser.new_context().new_page()
    tries: list[float] = []
    page.on("websocket", lambda _: tries.append(time.monotonic()))
    page.goto(f"{server.url}/r/{code}")
    expect(page.locator("#live-busy")).to_have_text(BUSY)
    expect(page.locator("#live-status")).not_to_have_text("Live")
    # Told to wait 10 s: at most one more try over the next four (the back-off alone would make two).
    told = time.monotonic()
    page.wait_for_timeout(4000)  # (events reach the test while it waits on the page)
    assert len([at for at in tries if at > told]) <= 1, tries
    for ws in flood:
        ws.close()
    expect(page.locator("#live-status")).to_have_text("Live", timeout=15_000)
    expect(page.locator("#live-busy")).to_be_hidden()
    page.context.close()
