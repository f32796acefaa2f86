"""The site in a process of its own, served as `make run` serves it (gunicorn with zerogames.serving),
on a loopback port: what the browser tests and the benchmarks start."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
