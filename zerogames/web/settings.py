"""A player's comfort settings (four-colour deck, reduced motion, larger text, sounds), kept per browser
and per account.

They change how a page looks, never what it says: the page's root element carries one class per
setting switched on, so the regions every viewer of a table shares are drawn once for all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from flask import Blueprint, Response, redirect, render_template, request, url_for

from . import identity
from .registry import web_registry

bp = Blueprint("settings", __name__)

COOKIE = "settings"
YEAR = 60 * 60 * 24 * 365


@dataclass(frozen=True)
class Settings:
    four_colour: bool = False
    reduced_motion: bool = False
    large_text: bool = False
    sounds: bool = True

    @property
    def classes(self) -> str:
        """The root element's classes: one per setting that differs from the default look."""
        return " ".join(
            name.replace("_", "-") if value else f"no-{name}"
            for name, value in self.switches()
            if value != Settings.__dataclass_fields__[name].default
        )

    def switches(self) -> list[tuple[str, bool]]:
        return [(field.name, getattr(self, field.name)) for field in fields(self)]

    def cookie(self) -> str:
        return ",".join(f"{name}={int(value)}" for name, value in self.switches())


# A setting's words on the settings page and in a table's menu.
LABELS = {
    "four_colour": ("Four-colour deck", "Diamonds blue and clubs green, in Zero Game, Trump Card and Cabo."),
    "reduced_motion": ("Reduced motion", "Cards change place at once instead of gliding."),
    "large_text": ("Larger text", "Everything a quarter bigger."),
    "sounds": ("Sounds", "A quiet chime when it is your turn."),
}


def parse(text: str) -> Settings:
    """Settings from a cookie's text; what cannot be read keeps its default."""
    known = {field.name for field in fields(Settings)}
    values: dict[str, bool] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name in known and value in ("0", "1"):
            values[name] = value == "1"
    return Settings(**values)


# Kept per browser in a cookie; a signed-in player's settings are their account's, on every browser
# they sign in on (until they save some, the browser's own apply).
def current() -> Settings:
    saved = web_registry().store.players.settings_of(identity.current_uid()) if identity.signed_in() else None
    return parse(saved if saved is not None else request.cookies.get(COOKIE, ""))


def keep(settings: Settings, response: Response) -> Response:
    if identity.signed_in():
        web_registry().store.players.keep_settings(identity.current_uid(), settings.cookie())
    response.set_cookie(COOKIE, settings.cookie(), max_age=YEAR, samesite="Lax", httponly=True)
    return response


def from_form() -> Settings:
    """A checkbox is sent only when ticked: a setting missing from the form is off."""
    return Settings(**{name: name in request.form for name in LABELS})


# A path on this site: printable ASCII without spaces. A browser drops tabs and line breaks from a
# link and reads a backslash as a slash, so "/\t/evil.example" or "/\\evil.example" would lead off it.
LOCAL_PATH = re.compile(r"/(?![/\\])[!-\[\]-~]*")


def local(target: str) -> str:
    """`target` when it is a path on this site (never another site, nor a script), else ""."""
    return target if LOCAL_PATH.fullmatch(target) else ""


@bp.get("/settings")
def page():
    return render_template("settings/page.html", back=local(request.args.get("next", "")))


@bp.post("/settings")
def save():
    back = local(request.form.get("next", "")) or url_for("settings.page", **identity.tab_args())
    return keep(from_form(), redirect(back, code=303))


def settings_context() -> dict:
    """Every full page knows its viewer's settings and their words (regions never do: see above)."""
    return {"settings": current(), "setting_labels": LABELS}
