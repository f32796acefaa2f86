"""Browser tests: each test gets its own server process on a free port, with its own database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """The site as `make run` serves it (gunicorn, gevent), on its own port and database."""

    def __init__(self, database: Path, env: dict[str, str] | None = None) -> None:
        self.env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = database
        self.log = database.with_suffix(".log")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "ZEROGAMES_DB": str(self.database),
            "ZEROGAMES_DEV": "1",
            "ZEROGAMES_BOT_DELAY": "0",
            "ZEROGAMES_SECRET_KEY": "e2e",
            **self.env,
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "python:zerogames.serving",
                # Open live channels never close by themselves: a stopped test server should not wait on them.
                "--graceful-timeout",
                "1",
                "--bind",
                f"127.0.0.1:{self.port}",
                "app:create_app()",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
            # Its own process group, so that a kill takes gunicorn's worker down with its master.
            start_new_session=True,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

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
