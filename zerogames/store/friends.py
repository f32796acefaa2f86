"""Friends, blocks, invitations and presence (zerogames.friends has the rules, this keeps them)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from zerogames.friends import MIRROR, Outcome, Relation, Standing

from .connection import Connection


@dataclass(frozen=True)
class Friend:
    """A line of a player's list: the other player and what they are to each other."""

    id: str
    username: str
    standing: Standing


@dataclass(frozen=True)
class Seen:
    """A player's presence as the store has it: a page open now (`code`: the table's, or None), or
    when one last was."""

    online: bool
    code: str | None
    seen: float | None


@dataclass(frozen=True)
class Invite:
    code: str
    sender: str  # the sender's username
    game: str
    sent: float


def marks(players: Iterable[str], at: float) -> list[list[object]]:
    return [[player, at] for player in sorted(set(players))]


class Friends:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def relation(self, me: str, other: str, name: str) -> Relation:
        row = self.db.row("select standing from friends where player = ? and other = ?", [me, other])
        blocks = {
            tuple(line)
            for line in self.db.rows(
                "select blocker, blocked from blocks where (blocker = ? and blocked = ?)"
                " or (blocker = ? and blocked = ?)",
                [me, other, other, me],
            )
        }
        return Relation(
            name,
            Standing(row[0]) if row else Standing.NONE,
            i_block=(me, other) in blocks,
            blocks_me=(other, me) in blocks,
            myself=me == other,
        )

    def settle(self, me: str, other: str, outcome: Outcome) -> None:
        """Write what the pair became (both sides' lines, my block), and tell both their news."""
        now = time.time()
        with self.db.transaction():
            self.db.execute(
                "delete from friends where (player = ? and other = ?) or (player = ? and other = ?)",
                [me, other, other, me],
            )
            if outcome.standing is not Standing.NONE:
                self.db.executemany(
                    "insert into friends (player, other, standing, since) values (?,?,?,?)",
                    [
                        [me, other, outcome.standing.value, now],
                        [other, me, MIRROR[outcome.standing].value, now],
                    ],
                )
            if outcome.i_block:
                self.db.execute(
                    "insert into blocks (blocker, blocked, since) values (?,?,?) on conflict do nothing",
                    [me, other, now],
                )
                self.db.execute("delete from invites where player = ? and sender = ?", [me, other])
            else:
                self.db.execute("delete from blocks where blocker = ? and blocked = ?", [me, other])
            self.tell([me, other], now)

    def listed(self, me: str) -> list[Friend]:
        """My friends and requests either way, by username."""
        rows = self.db.rows(
            "select p.id, p.username, f.standing from friends f join players p on p.id = f.other"
            " where f.player = ? order by p.handle",
            [me],
        )
        return [Friend(uid, username, Standing(standing)) for uid, username, standing in rows]

    def blocked(self, me: str) -> list[Friend]:
        rows = self.db.rows(
            "select p.id, p.username from blocks b join players p on p.id = b.blocked"
            " where b.blocker = ? order by p.handle",
            [me],
        )
        return [Friend(uid, username, Standing.NONE) for uid, username in rows]

    def friends_of(self, players: Iterable[str]) -> set[str]:
        """Everyone who is a friend of one of `players` (whose friends page shows them)."""
        wanted = sorted(set(players))
        if not wanted:
            return set()
        listed = ",".join("?" * len(wanted))
        rows = self.db.rows(
            f"select other from friends where standing = ? and player in ({listed})",
            [Standing.FRIENDS.value, *wanted],
        )
        return {row[0] for row in rows}

    # Invitations

    def invite(self, sender: str, player: str, code: str) -> None:
        now = time.time()
        with self.db.transaction():
            self.db.execute(
                "insert into invites (player, code, sender, sent, dismissed) values (?,?,?,?,0)"
                " on conflict (player, code) do update set sender = excluded.sender, sent = excluded.sent,"
                " dismissed = 0",
                [player, code, sender, now],
            )
            self.tell([player], now)

    def dismiss(self, player: str, code: str) -> None:
        with self.db.transaction():
            self.db.execute("update invites set dismissed = 1 where player = ? and code = ?", [player, code])
            self.tell([player], time.time())

    def invites(self, player: str, since: float) -> list[Invite]:
        """The invitations waiting for the player, newest first, sent after `since`: not dismissed,
        from a friend, to a room still in the store where the player has no seat yet."""
        rows = self.db.rows(
            "select i.code, p.username, r.game, i.sent from invites i"
            " join players p on p.id = i.sender join rooms r on r.code = i.code"
            " join friends f on f.player = i.player and f.other = i.sender and f.standing = ?"
            " where i.player = ? and i.dismissed = 0 and i.sent > ?"
            " and not exists (select 1 from seats s where s.code = i.code and s.uid = i.player)"
            " order by i.sent desc",
            [Standing.FRIENDS.value, player, since],
        )
        return [Invite(*row) for row in rows]

    def room(self, code: str) -> tuple[str, str, int] | None:
        """A room's game, status and seats taken (for "Join" or "Watch"), or None if it is gone."""
        row = self.db.row(
            "select r.game, r.status, (select count(*) from seats s where s.code = r.code)"
            " from rooms r where r.code = ?",
            [code],
        )
        return (row[0], row[1], int(row[2])) if row else None

    # Presence and news

    def seen_here(self, process: str, pages: Mapping[str, str | None], left: Iterable[str]) -> None:
        """This process's presence lines, in one go: `pages` the players with a page open here now
        (and which table's, if one), `left` those whose last page here closed since."""
        now = time.time()
        with self.db.transaction():
            self.db.executemany(
                "insert into presence (player, process, online, code, seen) values (?,?,1,?,?)"
                " on conflict (player, process) do update set online = 1, code = excluded.code,"
                " seen = excluded.seen",
                [[player, process, code, now] for player, code in pages.items()],
            )
            self.db.executemany(
                "insert into presence (player, process, online, code, seen) values (?,?,0,null,?)"
                " on conflict (player, process) do update set online = 0, code = null, seen = excluded.seen",
                [[player, process, now] for player in left],
            )

    def presence(self, players: Iterable[str], fresh_after: float) -> dict[str, Seen]:
        """Each player's presence, over every process: online while a line of theirs was rewritten
        after `fresh_after` (a process gone stops rewriting its own)."""
        wanted = sorted(set(players))
        if not wanted:
            return {}
        listed = ",".join("?" * len(wanted))
        rows = self.db.rows(
            f"select player, online, code, seen from presence where player in ({listed})", wanted
        )
        found: dict[str, Seen] = {}
        for player, online, code, seen in rows:
            here = bool(online) and seen > fresh_after
            # The liveliest of a player's lines: at a table, else online, else the last seen.
            was = found.get(player)
            if was is None or (here, code is not None, seen) > (was.online, was.code is not None, was.seen):
                found[player] = Seen(here, code if here else None, seen)
        return found

    def tell(self, players: Iterable[str], at: float | None = None) -> None:
        """The players have news: their open pages are drawn again."""
        with self.db.transaction():
            self.db.executemany(
                "insert into news (player, at) values (?,?)"
                " on conflict (player) do update set at = excluded.at",
                marks(players, time.time() if at is None else at),
            )

    def news_since(self, at: float) -> dict[str, float]:
        return dict(self.db.rows("select player, at from news where at > ?", [at]))
