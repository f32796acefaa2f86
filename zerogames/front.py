"""nginx in front of several processes of the site: the configuration README.md gives, and the
one-machine set-up that `make run PROCESSES=n` starts.

Two ways to send each room's requests to the one process that owns it:
- by the hash of its code (`hash ... consistent`), for processes sharing PostgreSQL, where a room may
  move to another process (the README's set-up for several machines);
- by the first letter of its code, for processes sharing one SQLite file, each owning the codes whose
  first letter is in its share (`ZEROGAMES_SHARD=i/n`): `python -m zerogames.front --processes n`.
Everything else (home, creating a room, accounts, history) goes to any process.

On one machine of two cores, two processes carry a thousand tables that one cannot: one process is
a single core's worth of Python (README.md, "One machine, both cores").
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from .launch import listening, serve
from .rooms.room import first_letters

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The whole file around the README's site (`server`): what a process of its own needs, no daemon and
# its files in its folder.
CONFIG = """
daemon off;
worker_processes 1;
{user}
pid {folder}/nginx.pid;
# Every open table page holds two connections here (the browser's and the one to its process): a
# thousand tables of five players (bench/live.py) hold 10,000, besides the requests that made them.
worker_rlimit_nofile 20000;
events {{ worker_connections 16000; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{site}
}}
"""

# The README's site: rooms by their code's hash.
BY_HASH = """
    map $uri $zerogames_room {{
        ~^/r/(?<code>[A-Za-z]+) $code;
    }}
    upstream zerogames_rooms {{
        hash $zerogames_room consistent;
{servers}
    }}
"""

# Rooms by their code's first letter (in either case: a code typed in lower case is still the room's).
BY_LETTER = """
    map $uri $zerogames_owner {{
        default 127.0.0.1:{first};
{letters}
    }}
"""

SERVER = """
    map $http_upgrade $zerogames_connection {{
        default upgrade;
        ""      "";
    }}
    upstream zerogames {{
{servers}
    }}
    server {{
        listen {listen};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $zerogames_connection;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;
        proxy_connect_timeout 2s;
        location /r/ {{ proxy_pass {rooms}; }}
        location / {{ proxy_pass http://zerogames; }}
    }}
"""


def site(listen: str, ports: list[int], by_letter: bool = False) -> str:
    """The `http` block's site: nginx on `listen` in front of the processes on these loopback ports."""
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in ports)
    if not by_letter:
        rooms = BY_HASH.format(servers=servers)
        return rooms + SERVER.format(listen=listen, servers=servers, rooms="http://zerogames_rooms")
    letters = "\n".join(
        f"        ~*^/r/[{first_letters(index, len(ports))}] 127.0.0.1:{port};"
        for index, port in enumerate(ports)
    )
    rooms = BY_LETTER.format(first=ports[0], letters=letters)
    return rooms + SERVER.format(listen=listen, servers=servers, rooms="http://$zerogames_owner")


class Nginx:
    """nginx in front of the processes on `ports`, listening on the loopback's `port`, run from
    `folder` (its configuration, pid and temporary files)."""

    def __init__(self, folder: Path, ports: list[int], port: int, by_letter: bool = False) -> None:
        self.folder, self.port = folder, port
        self.url = f"http://127.0.0.1:{port}"
        folder.mkdir(parents=True, exist_ok=True)
        user = "user root;" if os.geteuid() == 0 else ""  # its workers may write in this folder
        listen = f"127.0.0.1:{port}"
        (folder / "nginx.conf").write_text(
            CONFIG.format(user=user, folder=folder, site=site(listen, ports, by_letter))
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Nginx:
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-e", "error.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while not listening(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped: {(self.folder / 'error.log').read_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError("nginx did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def available() -> bool:
    return os.access(NGINX, os.X_OK)


class OneMachine:
    """Processes of the site sharing one SQLite file on the loopback's `ports`, process i owning the room
    codes whose first letter is in its share (`first_letters`), with nginx on `port` sending each room's
    requests to its owner. Nothing moves: a process that stops takes its rooms down until it is started
    again, so the whole set-up stops with any of its processes."""

    def __init__(
        self,
        ports: list[int],
        port: int,
        folder: Path,
        env: dict[str, str] | None = None,
        stderr: IO[bytes] | int | None = subprocess.DEVNULL,
        app: str = "app:create_app()",
    ) -> None:
        self.ports, self.stderr, self.app = ports, stderr, app
        # Only nginx, on this machine, is believed about the client's address (the limits count by it).
        self.env = {**os.environ, "ZEROGAMES_PROXIES": "127.0.0.1", **(env or {})}
        self.servers: list[subprocess.Popen[bytes]] = []
        self.nginx = Nginx(folder / "nginx", self.ports, port, by_letter=True)
        self.url = self.nginx.url

    def start(self) -> OneMachine:
        for index, port in enumerate(self.ports):
            shard = {"ZEROGAMES_SHARD": f"{index}/{len(self.ports)}"}
            self.servers.append(serve(port, {**self.env, **shard}, self.app, stderr=self.stderr))
        self.nginx.start()
        return self

    def stopped(self) -> str | None:
        """Which part has stopped, if any."""
        for index, server in enumerate(self.servers):
            if server.poll() is not None:
                return f"process {index} (port {self.ports[index]}) exited with {server.returncode}"
        if self.nginx.process is not None and self.nginx.process.poll() is not None:
            return f"nginx exited with {self.nginx.process.returncode}"
        return None

    def stop(self) -> None:
        self.nginx.stop()
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)  # gunicorn's master and its worker
        for server in self.servers:
            server.wait()


class Stopped(Exception):
    """SIGTERM or SIGINT, by its name."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m zerogames.front",
        description="The site as several processes on one machine sharing its SQLite file, nginx in front.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=8000,
        help="nginx's port; the processes take the next ones",
    )
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.processes < 2:
        parser.error("--processes: 2 or more (one process needs no front: `make run`)")
    if not available():
        parser.error("needs nginx (`make servers` installs it on Debian)")

    def stop(number: int, _frame: object) -> None:
        raise Stopped(signal.Signals(number).name)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with tempfile.TemporaryDirectory(prefix="zerogames-front-") as folder:
        # Each process on a port of its own next to nginx's, where its /metrics are read.
        ports = [args.port + 1 + index for index in range(args.processes)]
        machine = OneMachine(ports, args.port, Path(folder), stderr=None)
        try:
            try:
                machine.start()
            except RuntimeError as error:  # a port taken, the database unreadable: said by the process
                raise SystemExit(f"could not start: {error}") from None
            print(f"zerogames on {machine.url}: processes on ports {ports}, nginx in front", flush=True)
            while (stopped := machine.stopped()) is None:
                time.sleep(0.5)
            raise SystemExit(f"{stopped}: stopping the rest")
        except Stopped as asked:  # Ctrl-C or a service manager's stop: a clean end, exit status 0
            print(f"stopped by {asked}", flush=True)
        finally:
            # A second Ctrl-C while the parts stop must not leave one of them running.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            machine.stop()


if __name__ == "__main__":
    main()
