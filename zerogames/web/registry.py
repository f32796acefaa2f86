"""The one room registry of this process, as the blueprints reach it."""

from __future__ import annotations

from flask import current_app

from zerogames.rooms import RoomRegistry


def web_registry() -> RoomRegistry:
    return current_app.extensions["zerogames"]
