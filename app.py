"""The zerogames web app: create_app() for servers and tests, `python app.py` for a local run."""

from __future__ import annotations

import os
import secrets
from typing import Any

from flask import Flask

from zerogames import runtime, web
from zerogames.web.live import MOVE_LENGTH


def instance_secret(folder: str) -> str:
    """A random key made on first run and kept in the instance folder: guest cookies and rejoin links
    stay valid across restarts, and no two sites share a key by default."""
    path = os.path.join(folder, "secret_key")
    os.makedirs(folder, exist_ok=True)
    try:
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as key:
            key.write(secrets.token_hex(32))
    except FileExistsError:  # made earlier, or just now by another process starting beside this one
        pass
    with open(path) as key:
        return key.read().strip()


def database_settings(instance_path: str) -> dict[str, str]:
    """Where the site keeps its data; also what `python -m zerogames.backup` copies."""
    return {
        "DATABASE": os.environ.get("ZEROGAMES_DB") or os.path.join(instance_path, "zerogames.db"),
        # PostgreSQL, shared by processes on several machines, as "postgresql://user@host/db"; unset,
        # the SQLite file DATABASE.
        "DATABASE_URL": os.environ.get("ZEROGAMES_DATABASE_URL", ""),
    }


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app, configured: nothing runs and no database is touched until zerogames.runtime starts it
    (gunicorn's worker hook in zerogames/serving.py; `runtime.start(create_app())` elsewhere)."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("ZEROGAMES_SECRET_KEY") or instance_secret(app.instance_path),
        **database_settings(app.instance_path),
        # Development mode: `?seat=N` tab identities, for local play and tests.
        DEV=os.environ.get("ZEROGAMES_DEV", "") == "1",
        BOT_DELAY=float(os.environ.get("ZEROGAMES_BOT_DELAY", "0.8")),
        # "i/n": this is process i of n, owning the rooms whose code starts with its letters.
        SHARD=os.environ.get("ZEROGAMES_SHARD", "0/1"),
        # Where players reach the site, as "https://cards.example.org": share and rejoin links are made
        # on it, and pages must come from it. Unset, both follow the address a request came in by.
        SITE_URL=os.environ.get("ZEROGAMES_SITE_URL", ""),
        # Addresses (or networks) of the reverse proxies in front: only their X-Forwarded-For and
        # X-Forwarded-Proto are believed.
        PROXIES=os.environ.get("ZEROGAMES_PROXIES", ""),
        # A page says only which change it shows, then its moves (a few dozen bytes each): anything
        # longer closes the socket.
        SOCK_SERVER_OPTIONS={"max_message_size": MOVE_LENGTH},
        # A channel whose network went without a word (a phone locked, out of range) is found by the
        # system within seconds (web/live.py: heartbeats left unacknowledged); through a proxy, which
        # acknowledges them itself, by a ping every 25 s, sent with the heartbeats (a ping costs a pong
        # parsed per socket: every 5 s, a thousand idle sockets took a sixth of a core).
        SOCKET_PING_EVERY=25,
        # Lets /metrics be read from elsewhere than this machine, with `Authorization: Bearer <token>`.
        METRICS_TOKEN=os.environ.get("ZEROGAMES_METRICS_TOKEN", ""),
        # How passwords are hashed (werkzeug's method string): a slower one costs guessers more.
        PASSWORD_METHOD=os.environ.get("ZEROGAMES_PASSWORD_METHOD", "scrypt"),
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config:
        app.config.update(test_config)
    web.init_app(app)
    return app


if __name__ == "__main__":
    runtime.start(create_app()).run(host="127.0.0.1", port=int(os.environ.get("PORT", "8000")), threaded=True)
