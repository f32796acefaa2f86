"""`make run PROCESSES=2`: two processes sharing the SQLite file behind nginx, each owning its share of
the room codes. A table is played through the front whichever process owns it; a process that dies
stops the whole set-up, and started again, the same table is back where it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from e2e.conftest import ROOT, site_env
from e2e.table import create_room, join_room, play_zero_game_opening, plays_on_where_it_was
from zerogames import front
from zerogames.launch import answering, free_port, listening
from zerogames.rooms.room import first_letters

pytestmark = pytest.mark.skipif(not front.available(), reason="needs nginx (`make test`)")
PROCESSES = 2


class Front:
    """`python -m zerogames.front`, as `make run PROCESSES=2` starts it, on its own port and database."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.port = port or free_port(1 + PROCESSES)  # nginx's, then the processes'
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = site_env(folder / "zerogames.db")
        self.log = folder / "front.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Front:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerogames.front", "--port", str(self.port), "--processes", "2"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            answering(self.url + "/", self.process, seconds=30)
        except RuntimeError as error:
            pytest.fail(f"{error}: {self.log.read_text()}")
        return self

    def servers(self) -> list[str]:
        """The process groups of the site's processes the front started (gunicorn's, one per process)."""
        return [
            pgrp
            for state, ppid, pgrp, command in processes()
            if ppid == str(self.process.pid) and b"gunicorn" in command
        ]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)


def processes() -> list[tuple[str, str, str, bytes]]:
    """Every process's state, parent, process group and command line (a zombie's state is "Z")."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
            found.append((state, ppid, pgrp, (stat.parent / "cmdline").read_bytes()))
        except OSError:
            continue  # ended meanwhile
    return found


@pytest.fixture
def site(tmp_path):
    started = Front(tmp_path).start()
    yield started
    started.stop()


def share(code: str) -> int:
    """The process that owns a room, by its code's first letter."""
    return next(index for index in range(PROCESSES) if code[0] in first_letters(index, PROCESSES))


def test_tables_of_both_processes_play_through_the_front_and_a_dead_process_leaves_nothing_lost(
    browser, site, tmp_path
):
    # Creating a table goes to either process, which gives it a code of its own first letters.
    creators = {}
    for _ in range(12):
        page = browser.new_context().new_page()
        creators.setdefault(share(code := create_room(page, site.url, "Ann")), (code, page))
        if len(creators) == PROCESSES:
            break
    assert len(creators) == PROCESSES, "every table went to one process"
    tables = []
    for code, first in creators.values():
        pages = [first, browser.new_context().new_page(), browser.new_context().new_page()]
        join_room(pages[1], site.url, code, "Bea")  # typed in lower case: still sent to its owner
        join_room(pages[2], site.url, code, "Cal")
        pages[0].get_by_role("button", name="Start the game").click()
        for page in pages:
            expect(page.locator("#status")).to_contain_text("Round 1 of 3")
        tables.append((pages, *play_zero_game_opening(pages)))

    # One process dies: the front stops the other and nginx with it, leaving nothing serving (a killed
    # worker may stay a zombie until the system reaps it).
    groups = site.servers()
    assert len(groups) == PROCESSES
    os.killpg(int(groups[0]), signal.SIGKILL)
    assert site.process.wait(20) != 0
    assert not listening(site.port)
    assert not [fields for fields in processes() if fields[2] in groups and fields[0] != "Z"]

    # Started again on the same file and port: the same open pages find both tables where they were,
    # and play on.
    again = Front(tmp_path, port=site.port).start()
    try:
        for pages, acknowledged, hands in tables:
            plays_on_where_it_was(pages, acknowledged, hands)
    finally:
        again.stop()
    # Stopped as a service manager stops it: a clean end, and nothing left serving.
    assert again.process.returncode == 0, again.log.read_text()
    assert not listening(again.port) and not listening(again.port + 1)
