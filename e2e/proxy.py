"""What stands between the browser and the site in the browser tests, on a free port of the loopback.

`Nginx`: nginx in front of several server processes, as the README sets it up: /r/CODE... to a
process chosen by the room's code (consistent hashing), everything else to any process; run from a
temporary folder. `Stall`: a plain TCP relay that can stop forwarding for a while."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The README's configuration (its upstream servers and listening port filled in), with what a
# process of its own needs: no daemon, and its files in its folder.
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

SITE = """
    map $uri $zerogames_room {{
        ~^/r/(?<code>[A-Za-z]+) $code;
    }}
    map $http_upgrade $zerogames_connection {{
        default upgrade;
        ""      "";
    }}
    upstream zerogames_rooms {{
        hash $zerogames_room consistent;
{servers}
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
        location /r/ {{ proxy_pass http://zerogames_rooms; }}
        location / {{ proxy_pass http://zerogames; }}
    }}
"""


def site(listen: str, ports: list[int]) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in ports)
    return SITE.format(listen=listen, servers=servers)


class Nginx:
    def __init__(self, folder: Path, ports: list[int], port: int) -> None:
        self.folder, self.port = folder, port
        self.url = f"http://127.0.0.1:{port}"
        folder.mkdir(parents=True, exist_ok=True)
        user = "user root;" if os.geteuid() == 0 else ""  # its workers may write in this folder
        (folder / "nginx.conf").write_text(
            CONFIG.format(user=user, folder=folder, site=site(f"127.0.0.1:{port}", ports))
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
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                assert self.process.poll() is None, (self.folder / "error.log").read_text()
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def available() -> bool:
    return os.access(NGINX, os.X_OK)


class Stall:
    """A TCP proxy on the loopback that can stop forwarding without closing anything, as a lift, a
    tunnel or a closed laptop lid does: what is sent meanwhile waits, and flows on when it resumes."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.flowing = threading.Event()
        self.flowing.set()
        threading.Thread(target=self._accept, daemon=True).start()

    def stall(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()  # the server is down: a refused connection, as the browser would see
                continue
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                sink.sendall(data)
            self.flowing.wait()
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass
