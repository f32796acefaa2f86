"""Players, their accounts, settings and sign-in sessions."""

from __future__ import annotations

import time
from collections.abc import Iterable

from .connection import Connection
from .rows import PlayerRow, SeatRow, UsernameTaken


class Players:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def seated(self, seats: Iterable[SeatRow]) -> None:
        """A game's players, known from its start by the names they sit under (within its
        transaction): a guest is a player from their first game."""
        for seat in seats:
            if seat.uid is not None:
                self.db.execute(
                    "insert into players (id, name, created) values (?,?,?)"
                    " on conflict (id) do update set name = excluded.name",
                    [seat.uid, seat.name, time.time()],
                )

    def player(self, player_id: str) -> PlayerRow | None:
        row = self.db.row("select id, name, username, password from players where id = ?", [player_id])
        return PlayerRow(*row) if row else None

    def account(self, username: str) -> PlayerRow | None:
        row = self.db.row(
            "select id, name, username, password from players where handle = ?", [username.lower()]
        )
        return PlayerRow(*row) if row else None

    def signed_up(self, player: str | None) -> bool:
        """Whether the player has an account, as every seat of a ranked table must."""
        found = self.db.row("select 1 from players where id = ? and username is not null", [player])
        return found is not None

    def sign_up(self, player_id: str, name: str, username: str, password_hash: str) -> None:
        """A new account, as the new player `player_id` (never a player already known: an account is
        never made of another, and no one is renamed); UsernameTaken if the name is someone else's, and
        then nothing is written."""
        with self.db.transaction():
            taken = self.db.execute("select id from players where handle = ?", [username.lower()]).fetchone()
            if taken is not None:
                raise UsernameTaken(username)
            self.db.execute(
                "insert into players (id, name, username, handle, password, created, signed_up)"
                " values (?,?,?,?,?,?,?)",
                [player_id, name, username, username.lower(), password_hash, time.time(), time.time()],
            )

    def change_password(self, player_id: str, password_hash: str) -> None:
        with self.db.transaction():
            self.db.execute("update players set password = ? where id = ?", [password_hash, player_id])

    def settings_of(self, player_id: str) -> str | None:
        row = self.db.row("select settings from players where id = ?", [player_id])
        return row[0] if row else None

    def keep_settings(self, player_id: str, settings: str) -> None:
        with self.db.transaction():
            self.db.execute("update players set settings = ? where id = ?", [settings, player_id])

    def join_guest(self, guest: str, account: str) -> None:
        """A guest signing in to an account: the guest's history, seats and hosted rooms become the
        account's (but a seat at a table where the account already sits stays the guest's). Never an
        account's: one account's games never become another's (ValueError)."""
        if guest == account:
            return
        with self.db.transaction():
            row = self.db.execute("select username from players where id = ?", [guest]).fetchone()
            if row is not None and row[0] is not None:
                raise ValueError("an account does not join another")
            self.db.execute("update plays set player = ? where player = ?", [account, guest])
            self.db.execute(
                "update seats set uid = ? where uid = ?"
                " and code not in (select code from seats where uid = ?)",
                [account, guest, account],
            )
            self.db.execute(
                "update rooms set host = ? where host = ? and code in (select code from seats where uid = ?)",
                [account, guest, account],
            )
            self.db.execute("delete from players where id = ? and username is null", [guest])

    # Sign-in sessions

    def start_session(self, digest: str, player_id: str) -> None:
        with self.db.transaction():
            self.db.execute(
                "insert into sessions (id, player, created) values (?,?,?)", [digest, player_id, time.time()]
            )

    def session_account(self, digest: str) -> PlayerRow | None:
        """The account a session is signed in to, or None once it has ended (or never was)."""
        row = self.db.row(
            "select p.id, p.name, p.username, p.password from sessions s"
            " join players p on p.id = s.player where s.id = ?",
            [digest],
        )
        return PlayerRow(*row) if row else None

    def end_session(self, digest: str) -> None:
        with self.db.transaction():
            self.db.execute("delete from sessions where id = ?", [digest])

    def end_other_sessions(self, player_id: str, keeping: str) -> int:
        """Every session of the account but `keeping`: how many ended."""
        with self.db.transaction():
            ended = self.db.execute(
                "delete from sessions where player = ? and id <> ?", [player_id, keeping]
            ).rowcount
        return ended
