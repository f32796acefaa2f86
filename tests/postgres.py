"""A throwaway PostgreSQL server for the tests: a cluster made in a temporary folder, on a free port of
the loopback, stopped and deleted afterwards. Found on PATH or where Debian puts it (`make test`
installs it where it can); `available()` says whether this machine has one."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from zerogames.launch import free_port


def binaries() -> Path | None:
    """The folder of initdb and postgres: on PATH, else Debian's newest."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def available() -> bool:
    return binaries() is not None


# Text in UTF-8, ordered as SQLite orders it (byte by byte).
UTF8 = ["-E", "UTF8", "--no-locale"]


class PostgresServer:
    """initdb'd and started by `start`, gone after `stop`. PostgreSQL refuses to run as root: a root
    test run starts it as the `postgres` user (made by Debian's package), else as `nobody`."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="zerogames-pg-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.user: str | None = None
        self.names = itertools.count(1)

    def start(self) -> PostgresServer:
        bin_dir = binaries()
        assert bin_dir is not None, "no PostgreSQL on this machine"
        if os.geteuid() == 0:
            self.user = "postgres" if has_user("postgres") else "nobody"
            shutil.chown(self.folder, self.user)
        self.run([bin_dir / "initdb", "-D", self.folder / "data", "-U", "zerogames", "--auth=trust"] + UTF8)
        return self.resume()

    def resume(self) -> PostgresServer:
        """Start the server on its data, as made by `start` (and left by `halt`)."""
        bin_dir = binaries()
        assert bin_dir is not None
        self.process = subprocess.Popen(
            [bin_dir / "postgres", "-D", self.folder / "data", "-p", str(self.port), "-k", self.folder]
            + ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off"]
            + ["-c", "full_page_writes=off"],
            user=self.user,
            start_new_session=True,  # its own process group: its CPU can be told (bench/live.py)
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "postgres.log", "ab"),  # noqa: SIM115 (the server keeps it)
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url("postgres")).close()
                return self
            except psycopg.OperationalError:
                assert self.process.poll() is None, (self.folder / "postgres.log").read_text()
                assert time.monotonic() < deadline, "PostgreSQL did not start"
                time.sleep(0.1)

    def run(self, command: list) -> None:
        subprocess.run(command, user=self.user, check=True, capture_output=True)

    def url(self, database: str) -> str:
        return f"postgresql://zerogames@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database of the server: its URL."""
        name = f"test{next(self.names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as admin:
            admin.execute(f"create database {name}")
        return self.url(name)

    def halt(self) -> None:
        """A fast shutdown: open sessions are ended; the data stays for `resume`."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)


def has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
