"""Three server processes on PostgreSQL behind nginx: the process serving a table is killed, another
takes the table over, and the same open pages play on."""

from __future__ import annotations

import time

import psycopg
import pytest
from playwright.sync_api import expect

from e2e.conftest import Server
from e2e.table import create_room, join_room, play_zero_game_opening, plays_on_where_it_was
from tests import postgres
from zerogames import front
from zerogames.launch import free_port
from zerogames.store.postgres import room_key

pytestmark = pytest.mark.skipif(
    not (postgres.available() and front.available()), reason="needs PostgreSQL and nginx (`make test`)"
)
PROCESSES = ("a", "b", "c")
# Seconds from the kill to every page live again on another process.
TAKEOVER_LIMIT = 5.0


@pytest.fixture
def site(tmp_path):
    """PostgreSQL, three processes sharing it (each naming itself to the database), nginx in front."""
    database = postgres.PostgresServer().start()
    url = database.new_database()
    servers = {
        name: Server(
            tmp_path / f"{name}.db",
            {"ZEROGAMES_DATABASE_URL": f"{url}?application_name={name}", "ZEROGAMES_PROXIES": "127.0.0.1"},
        )
        for name in PROCESSES
    }
    nginx = front.Nginx(tmp_path / "nginx", [server.port for server in servers.values()], free_port())
    try:
        for server in servers.values():
            server.start()
        nginx.start()
        yield nginx, servers, url
    finally:
        nginx.stop()
        for server in servers.values():
            server.stop()
        database.stop()


def owner(url: str, code: str) -> str | None:
    """The process holding the room's lock, by the name it gave the database."""
    key = room_key(code)
    with psycopg.connect(url) as db:
        row = db.execute(
            "select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid"
            " where l.locktype = 'advisory' and l.granted and l.classid = %s and l.objid = %s",
            [key >> 32, key & 0xFFFFFFFF],
        ).fetchone()
    return row[0] if row else None


def test_a_killed_process_s_table_comes_back_on_another_and_the_same_pages_play_on(browser, site):
    nginx, servers, url = site
    pages = [browser.new_context().new_page() for _ in range(3)]
    code = create_room(pages[0], nginx.url, "Ann")
    join_room(pages[1], nginx.url, code, "Bea")
    join_room(pages[2], nginx.url, code, "Cal")
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("#status")).to_contain_text("Round 1 of 3")
    acknowledged, hands = play_zero_game_opening(pages)
    first = owner(url, code)
    assert first in PROCESSES

    servers[first].kill()
    killed = time.monotonic()
    # The pages' live channels open again (through nginx, at another process), which takes the table.
    while owner(url, code) in (None, first):
        assert time.monotonic() - killed < TAKEOVER_LIMIT, "the table was not taken over"
        time.sleep(0.02)
    print(f"taken over in {time.monotonic() - killed:.2f} s")
    # The same pages, never reloaded: every acknowledged move is there, and play goes on.
    plays_on_where_it_was(pages, acknowledged, hands, turns=3)
    expect(pages[0].locator("#seats")).not_to_have_text(acknowledged)
