"""The site in a process of its own, served as `make run` serves it (gunicorn with zerogames.serving),
on a loopback port: what the browser tests and the benchmarks start."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port(count: int = 1) -> int:
    """The first of `count` consecutive loopback ports free now, drawn below the range the system
    picks outgoing connections' own ports from. A port in that range (as the system hands out for port
    0) can be taken as the source of another connection before the site binds it: in a run of the tests
    with a thousand sockets open beside them, a process of the site was refused its port so ("Address
    already in use")."""
    below = first_outgoing_port()
    while True:
        first = random.randrange(LOWEST_PORT, below - count)
        if all(bindable(first + offset) for offset in range(count)):
            return first


# The lowest port free_port draws: above those services commonly listen on.
LOWEST_PORT = 10_000


def first_outgoing_port() -> int:
    """The lowest port the system picks outgoing connections' own ports from (Linux's, or its default)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def bindable(port: int) -> bool:
    """Whether nothing holds the loopback's `port`: no listener, and no connection's end either."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def listening(port: int) -> bool:
    """Whether something takes connections on the loopback's `port`."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def serve(
    port: int,
    env: dict[str, str],
    app: str = "app:create_app()",
    stderr: IO[bytes] | int = subprocess.DEVNULL,
    options: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    """Start the site on `port` and return once it answers its home page. Its own process group, so
    that one signal takes gunicorn's worker down with its master."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:zerogames.serving",
            # Open live channels never close by themselves: a stopped site should not wait on them.
            "--graceful-timeout",
            "1",
            *options,
            "--bind",
            f"127.0.0.1:{port}",
            app,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,
    )
    return answering(f"http://127.0.0.1:{port}/", process)


def answering(url: str, process: subprocess.Popen[bytes], seconds: float = 20) -> subprocess.Popen[bytes]:
    """`process` once `url` answers; RuntimeError if it stops first, or stays silent `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"the site stopped as it started (exit {process.returncode})") from None
            time.sleep(0.1)
    raise RuntimeError("the site did not start")
