"""What every request passes before it reaches a page: who is really asking, from which page, how much.

- Behind a reverse proxy, the client's address and scheme come from its X-Forwarded-For and
  X-Forwarded-Proto, believed only when the request comes from one of the configured proxies (else
  anyone could name any address and slip every per-address limit).
- A request that changes anything (every POST, and the live channel's handshake, which reads a seat's
  hand) must come from one of the site's own pages: another origin on the same host or a sibling
  subdomain (a "same-site" page, which SameSite cookies let through) is refused.
- A body larger than any form of the site is refused before it is read.
- Every answer carries headers that keep the site out of other sites' frames and scripts out of it.
"""

from __future__ import annotations

import io
import ipaddress
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response, abort, current_app, render_template, request, url_for
from werkzeug.exceptions import HTTPException, NotFound

from zerogames.serving import MAX_BODY

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(spec: str) -> tuple[Network, ...]:
    """ "127.0.0.1, 10.0.0.0/8" -> the networks it names (a bare address is a network of one)."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in spec.split(",") if part.strip())


def within(address: str, trusted: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


class TrustedProxy:
    """WSGI middleware: REMOTE_ADDR and the scheme as the trusted proxy saw them.

    Only a request whose peer is a configured proxy has its forwarded headers read; the address taken is
    the last one in X-Forwarded-For that is not itself a proxy (what a client writes into the header
    arrives before the addresses the proxies append)."""

    def __init__(self, app: Callable[..., Any], proxies: tuple[Network, ...]) -> None:
        self.app, self.proxies = app, proxies

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if self.proxies and within(environ.get("REMOTE_ADDR", ""), self.proxies):
            hops = [hop.strip() for hop in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
            while hops and within(hops[-1], self.proxies):
                hops.pop()
            if hops:
                environ["REMOTE_ADDR"] = hops[-1]
            scheme = environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower()
            if scheme in ("http", "https"):
                environ["wsgi.url_scheme"] = scheme
        return self.app(environ, start_response)


def site_origin() -> str:
    """The site's own origin: from the configured site URL, else as this request reached it."""
    configured = current_app.config.get("SITE_URL")
    if configured:
        parts = urlsplit(configured)
        return f"{parts.scheme}://{parts.netloc}".lower()
    return f"{request.scheme}://{request.host}".lower()


def external_url(endpoint: str, **values: Any) -> str:
    """A whole URL (share and rejoin links, the live channel's): on the configured site URL when there
    is one, so that a forged Host header never finds its way into a link a player passes on."""
    url = url_for(endpoint, _external=True, **values)
    configured = current_app.config.get("SITE_URL")
    if not configured:
        return url
    made, site = urlsplit(url), urlsplit(configured)
    # A WebSocket's URL keeps its ws: or wss:, as the site's scheme says.
    scheme = site.scheme if made.scheme.startswith("http") else site.scheme.replace("http", "ws", 1)
    return urlunsplit((scheme, site.netloc, site.path.rstrip("/") + made.path, made.query, ""))


def from_elsewhere() -> str | None:
    """Why this request cannot be trusted to come from one of the site's pages, or None when it can.

    A browser says where a request comes from in Sec-Fetch-Site (recent browsers) and Origin (every
    POST and WebSocket handshake). A client that sends neither is no browser, so no visitor's cookie
    can be riding on it against their will."""
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from in ("same-site", "cross-site"):
        return "This request came from another site's page."
    origin = request.headers.get("Origin")
    if fetched_from != "same-origin" and origin is not None and origin.lower() != site_origin():
        return "This request came from a page that is not this site's."
    return None


def changes_something() -> bool:
    return request.method not in ("GET", "HEAD", "OPTIONS") or is_live_handshake()


def is_live_handshake() -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


def check_request() -> None:
    """Before any view: a body over the limit is refused unread (413), and a change asked for by
    another site's page is refused (403)."""
    length = request.content_length
    if length is None and request.headers.get("Transfer-Encoding"):
        length = read_unmeasured_body(current_app.config["MAX_CONTENT_LENGTH"])
    if length is not None and length > current_app.config["MAX_CONTENT_LENGTH"]:
        abort(413, description="That request is too large for this site.")
    if holds_nul():
        abort(400, description="That address or form holds a character no page of this site has.")
    if changes_something():
        reason = from_elsewhere()
        if reason is not None:
            abort(403, description=reason)


def read_unmeasured_body(most: int) -> int:
    """A body sent without its length (chunked), read up to one byte past `most`: its length, or more
    than `most` for one too large. One that fits is handed on as a body of known length, so a form is
    never read from a body cut at the limit (werkzeug otherwise hands on the first `most` bytes)."""
    environ = request.environ
    body = environ["wsgi.input"].read(most + 1)
    environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
    environ.pop("wsgi.input_terminated", None)
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return len(body)


def holds_nul() -> bool:
    """Whether the path, a query parameter or a form field holds a NUL: no name, code or number of the
    site has one, and PostgreSQL refuses it in any text, so it never goes further."""
    fields = (*request.args.items(multi=True), *request.form.items(multi=True))
    return "\x00" in request.path or any("\x00" in name + value for name, value in fields)


def security_headers(response: Response) -> Response:
    headers = response.headers
    live = site_origin().replace("http", "ws", 1)
    # Style attributes only set layout variables (`--row`) in the site's own templates; no script runs
    # from them, and no <style> element or inline script is allowed.
    headers.setdefault(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
        f"img-src 'self' data:; connect-src 'self' {live}; form-action 'self'; base-uri 'none'; "
        "frame-ancestors 'none'",
    )
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


# What each refusal is called on its page; its description says why.
REFUSALS = {
    400: "That request could not be read",
    403: "Refused",
    405: "Not here",
    413: "Too large",
    429: "Slow down",
}


def refused(error: HTTPException) -> tuple[str, int]:
    """A refusal as a page that says why, in the site's words (never a traceback)."""
    code = error.code or 400
    message = error.description if code != 413 else "That request is too large for this site."
    return render_template("refused.html", title=REFUSALS[code], message=message), code


# What a missing page is called, by the part of the site its address is in; its description says more.
MISSING = {
    "table": "Table not found",
    "live": "Table not found",
    "replays": "Replay not found",
    "players": "Player not found",
    "leaderboards": "Leaderboard not found",
    "lobby": "Game not found",
    "static": "File not found",  # the app's own route, outside any blueprint
}


def missing(error: NotFound) -> tuple[str, int]:
    """A missing page says what is missing: a table, a replay, a player... or any page at all."""
    title = MISSING.get(request.blueprint or request.endpoint or "", "Page not found")
    said = error.description != NotFound.description  # werkzeug's own words speak of "the server"
    message = error.description if said else "Nothing on this site has that address."
    return render_template("refused.html", title=title, message=message), 404


def init_app(app: Flask) -> None:
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    # Forms are parsed in memory: the body limit bounds them too.
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]
    app.wsgi_app = TrustedProxy(app.wsgi_app, networks(app.config.get("PROXIES") or ""))
    app.before_request(check_request)
    app.after_request(security_headers)
    for code in REFUSALS:
        app.register_error_handler(code, refused)
    app.register_error_handler(404, missing)
