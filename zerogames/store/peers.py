"""The other processes of the site, as a process's store sees them."""

from __future__ import annotations

from collections.abc import Callable


class Peers:
    """On SQLite there are none: every room of this process's letters is its own (zerogames.rooms.owners),
    and there is no one to ask anything. zerogames.store.postgres has those of a site on PostgreSQL."""

    def open(self) -> None:
        """Once the store's connection is open."""

    def own(self, code: str) -> bool:
        """Whether this process may serve the room (and does from now on)."""
        return True

    def disown(self, code: str) -> None:
        """The room is no longer served here."""

    def ask_others(self, request: str, *args: str) -> None:
        """Ask every other process of the site to do something (`listen_to_others`)."""

    def listen_to_others(self, answers: dict[str, Callable[..., None]]) -> None:
        """Do `answers[request](*args)` whenever another process asks."""

    def close(self) -> None:
        pass
