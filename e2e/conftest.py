"""Browser tests: each test gets its own server process on a free port, with its own database."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from zerogames.launch import free_port, serve

ROOT = Path(__file__).resolve().parent.parent
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
# Debian's Chromium in a closed sandbox: no first-run chatter, no calls home, no GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Not test-results/: pytest-playwright empties that folder at the start of every run.
ARTIFACTS = ROOT / "e2e-screenshots"

# Two test workers share two cores with their servers and browsers: a page may take a slow moment.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    if DEBIAN_CHROMIUM.exists():
        args["executable_path"] = str(DEBIAN_CHROMIUM)
    return args


def site_env(database: Path) -> dict[str, str]:
    """A test site's environment: its own database, development mode, bots that move at once."""
    return {
        **os.environ,
        "ZEROGAMES_DB": str(database),
        "ZEROGAMES_DEV": "1",
        "ZEROGAMES_BOT_DELAY": "0",
        "ZEROGAMES_SECRET_KEY": "e2e",
    }


class Server:
    """The site as `make run` serves it (gunicorn, gevent), on its own port and database."""

    def __init__(
        self, database: Path, env: dict[str, str] | None = None, app: str = "app:create_app()"
    ) -> None:
        self.env = env or {}
        self.app = app  # the factory call gunicorn serves: settings a test needs go in it
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = database
        self.log = database.with_suffix(".log")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**site_env(self.database), **self.env}
        try:
            self.process = serve(self.port, env, self.app, stderr=self.log.open("ab"))
        except RuntimeError as error:
            raise RuntimeError(f"{error}: {self.log.read_text()}") from None

    def kill(self) -> None:
        """SIGKILL to every process of the server, as a crash would: nothing gets to flush or say goodbye."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(autouse=True)
def pages_end_with_their_test(request) -> Iterator[None]:
    """Every browser context a test opened is closed when it ends, passed or failed: a page left open
    keeps its live channel (a heartbeat a second, reconnecting once its server is gone) and would take
    its share of the machine from every test after it."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    live = Server(tmp_path / "zerogames.db")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
