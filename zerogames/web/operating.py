"""The operators' side of the site (docs/operating.md): `/metrics` for Prometheus, `/healthz` and
`/readyz` for a proxy or a supervisor, and one structured log line for each request that fails.

`/metrics` is read from this machine only (a loopback address, not through a proxy), or from
anywhere with the token ZEROGAMES_METRICS_TOKEN (`Authorization: Bearer <token>`). The health
answers say nothing but whether the process is up and ready: anyone may ask.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import time
import traceback
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, g, got_request_exception, request
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, generate_latest

from zerogames import metrics
from zerogames.launch import ROOT
from zerogames.rooms.room import a_code

from .registry import web_registry

bp = Blueprint("operating", __name__)
log = logging.getLogger("zerogames.requests")

# The innermost frames of a failure that its log line names (file, line and function: no values).
FRAMES = 8


@bp.get("/metrics")
def figures() -> Response:
    if not may_read_figures():
        abort(403, description="The site's figures are read from its own machine, or with its token.")
    return Response(
        # The classic text format, which every Prometheus reads.
        generate_latest(current_app.extensions["zerogames.metrics"]),
        content_type=CONTENT_TYPE_PLAIN_0_0_4,
    )


def may_read_figures() -> bool:
    token = current_app.config.get("METRICS_TOKEN") or ""
    # Compared as bytes: a header's text may hold any byte, which compare_digest refuses in a str.
    said = request.headers.get("Authorization", "").encode("latin-1", "replace")
    if token and hmac.compare_digest(said, f"Bearer {token}".encode()):
        return True
    # A request a proxy on this machine passed on comes from a loopback address too: one that says it
    # was forwarded (whether or not the proxy is trusted to say from where) is not from here.
    forwarded = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    return loopback(request.remote_addr) and not forwarded


def loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


@bp.get("/healthz")
def alive() -> Response:
    """The process answers requests."""
    return plain("alive", 200)


@bp.get("/readyz")
def ready() -> Response:
    """The process can serve tables: the rooms unfinished at its start are back, and the database
    answers."""
    registry = web_registry()
    if not registry.restored:
        return plain("not ready: the rooms are being restored", 503)
    try:
        registry.store.rooms.code_taken("")  # a read no room's code matches: the database answers, or not
    except Exception as error:
        return plain(f"not ready: the database does not answer ({type(error).__name__})", 503)
    return plain("ready", 200)


def plain(text: str, status: int) -> Response:
    return Response(text + "\n", status, mimetype="text/plain", headers={"Cache-Control": "no-store"})


# Timing POSTs, and the line for a request that fails


def start_the_clock() -> None:
    g.began = time.perf_counter()


def time_a_post(response: Response) -> Response:
    began = g.get("began")
    if request.method == "POST" and began is not None:
        metrics.POST_SECONDS.labels(request.endpoint or "none").observe(time.perf_counter() - began)
    return response


def failed(sender: Flask, exception: BaseException, **_: Any) -> None:
    """One line for the request that failed: what was asked and where it broke, never what it
    carried. No path (a rejoin link's holds its token), no query, form, cookie, header or message
    (an error's message may quote a card, a name or a value): the route with its placeholders, the
    room's code, the error's class and the frames it came up through."""
    error = type(exception).__name__
    endpoint = request.endpoint or "none"
    metrics.REQUEST_ERRORS.labels(endpoint, error).inc()
    if metrics.from_the_database(exception) and not metrics.counted_by_a_command(exception):
        metrics.DATABASE_ERRORS.labels(error).inc()
    began = g.get("began")
    line = {
        "event": "request failed",
        "method": request.method,
        "route": request.url_rule.rule if request.url_rule else None,
        "endpoint": endpoint,
        "room": room_code(),
        "error": error,
        "at": frames(exception),
        "ms": round((time.perf_counter() - began) * 1000, 1) if began is not None else None,
    }
    log.error(json.dumps(line))


def room_code() -> str | None:
    """The room's code, when the URL holds one (anything else typed there is left out)."""
    code = str((request.view_args or {}).get("code", "")).upper()
    return code if a_code(code) else None


def frames(exception: BaseException) -> list[str]:
    """Where the error came up, innermost last: `file:line function`, a file of the site's from its
    root, a library's by its package (flask/app.py)."""
    stack = []
    for frame, line in traceback.walk_tb(exception.__traceback__):
        path = Path(frame.f_code.co_filename)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else Path(path.parent.name, path.name)
        stack.append(f"{shown}:{line} {frame.f_code.co_name}")
    return stack[-FRAMES:]


def no_traceback(exc_info: Any) -> None:
    """Flask's own log of a failure (the path and the error's message, with its traceback) is left
    out: `failed` says what may be said."""


def init_app(app: Flask) -> None:
    """Once the app has its room registry and limits, whose figures it shows."""
    registry, channels = app.extensions["zerogames"], app.extensions["zerogames.limits"].channels
    app.extensions["zerogames.metrics"] = metrics.site_registry(registry, channels)
    app.before_request(start_the_clock)
    app.after_request(time_a_post)
    got_request_exception.connect(failed, app)
    app.log_exception = no_traceback  # type: ignore[method-assign]
    app.register_blueprint(bp)
