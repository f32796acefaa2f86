"""Abuse drills at full count against the site as `make run` serves it, each printing what happened.

Starts the site (zerogames/serving.py: gunicorn, one gevent worker, production mode, the limits as
shipped) on a free loopback port with a fresh database, then, one client address (127.0.0.1) doing
everything, runs:

  sockets   SOCKETS live channels opened from one address, FLOOD_THREADS at a time, held to the end,
            while another client fetches the home page every 50 ms: how many were accepted and
            refused, and the home page's answer times throughout.
  watchers  one table watched by WATCHERS channels (on a server with the per-client limits lifted):
            the server's CPU for opening them all (each new channel used to wake every other one).
  rooms     POST /rooms ROOM_POSTS times: created and refused; then codes when all 12,167 codes of
            a process's letter are taken: how long the next room takes and the length of its code.
  scan      GET /join?code=... SCAN_TRIES times with random codes: answered and refused.
  forgery   moves and a hand's live channel asked for from another origin (another port), the page
            framed: what the server answers.
  malformed FUZZ random malformed or padded moves posted to a table, Cabo's list-typed action, deep
            nesting, and socket hellos such as {"seq":1e400}: answers by status, any 5xx, and whether
            any stored move holds a field its game does not declare.
  body      a 100 MB POST and a legal move padded with 50 MB: the answer, its time, and the worker's
            resident memory before and after.
  hashes    SIGN_INS sign-ins at once, each from an address of its own (named to the site as its
            proxy would), while the home page is fetched every 50 ms: their answers, the home
            page's answer times, and the worker's peak resident memory (each hash takes some 16 MB).
  rejoin    A's link moves the seat to D, D's back to A, then A's used link again.
  wal       a burst of writes on the store as served, then a checkpoint: the write-ahead log's size.

Usage: python bench/abuse.py [drill ...]   (all by default; loopback only, each drill bounded)
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import websocket

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.test_guard import fuzzed_move  # noqa: E402
from tests.web.test_limits import huge_post  # noqa: E402
from zerogames.games import GAMES  # noqa: E402
from zerogames.launch import free_port, serve  # noqa: E402
from zerogames.rooms import CODE_ALPHABET, RoomRegistry  # noqa: E402
from zerogames.store import RoomRow, open_store  # noqa: E402

SOCKETS, FLOOD_THREADS, WATCHERS = int(os.environ.get("BENCH_SOCKETS", 5000)), 50, 1000
ROOM_POSTS, SCAN_TRIES, FUZZ = 1000, 1000, 10_000
# No drill runs longer than this many seconds (the floods of sockets and moves, twice this).
DRILL_LIMIT = 120.0


class Site:
    """The site on a loopback port of its own, as `make run` serves it."""

    def __init__(self, folder: Path, config: dict | None = None) -> None:
        self.port = free_port()
        self.database = folder / f"site-{self.port}.db"
        env = {**os.environ, "ZEROGAMES_DB": str(self.database), "ZEROGAMES_SECRET_KEY": "bench"}
        self.process = serve(self.port, env, f"app:create_app({config or {}!r})")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=10)

    def request(
        self, method: str, path: str, fields: dict | None = None, headers: dict | None = None
    ) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        body = urllib.parse.urlencode(fields) if fields is not None else None
        sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        connection.request(method, path, body, sent)
        response = connection.getresponse()
        response.text = response.read().decode(errors="replace")
        connection.close()
        return response

    def get(self, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
        return self.request("GET", path, None, headers)

    def post(self, path: str, fields: dict, cookie: str = "", **headers: str) -> http.client.HTTPResponse:
        return self.request("POST", path, fields, {"Cookie": cookie, **headers} if cookie else headers)

    def room(self, game: str = "zero_game", name: str = "Ann") -> tuple[str, str]:
        """A new room: its code and its host's cookie."""
        created = self.post("/rooms", {"game": game, "name": name})
        cookie = created.getheader("Set-Cookie").split(";", 1)[0]
        return created.getheader("Location").rsplit("/", 1)[-1], cookie

    def channel(self, code: str, **options) -> websocket.WebSocket:
        return websocket.create_connection(f"ws://127.0.0.1:{self.port}/r/{code}/live", timeout=10, **options)

    def worker_pid(self) -> int:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return int(children[0])

    def worker_rss_mb(self) -> float:
        for line in Path(f"/proc/{self.worker_pid()}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def worker_cpu(self) -> float:
        fields = Path(f"/proc/{self.worker_pid()}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{len(values)} answers, p50 {statistics.median(values) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"
    )


class HomePageWatch:
    """Fetches the home page every 50 ms from its own thread, timing each answer (a failure counts as
    the time it took to fail, and is counted)."""

    def __init__(self, site: Site) -> None:
        self.site, self.times, self.failures = site, [], 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while self.running:
            began = time.perf_counter()
            try:
                self.site.get("/")
            except OSError:
                self.failures += 1
            self.times.append(time.perf_counter() - began)
            time.sleep(0.05)

    def stop(self) -> str:
        self.running = False
        self.thread.join()
        return ms(self.times) + (f", {self.failures} failed" if self.failures else ", none failed")


class Holder:
    """Holds open sockets as a client would: answering the server's pings (websocket-client answers
    them as it reads), and noticing the ones the server closed."""

    def __init__(self) -> None:
        self.open: list[websocket.WebSocket] = []
        self.closed_by_server = 0
        self.most = 0
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def add(self, ws: websocket.WebSocket) -> None:
        ws.settimeout(0.001)
        with self.lock:
            self.open.append(ws)
            self.most = max(self.most, len(self.open))

    def run(self) -> None:
        while self.running:
            with self.lock:
                sockets = list(self.open)
            for ws in sockets:
                try:
                    ws.recv()
                except websocket.WebSocketTimeoutException:
                    continue
                except (websocket.WebSocketConnectionClosedException, OSError):
                    with self.lock:
                        self.open.remove(ws)
                        self.closed_by_server += 1
            time.sleep(1)

    def close(self) -> None:
        self.running = False
        self.thread.join()
        for ws in self.open:
            ws.close()


def drill_sockets(folder: Path) -> None:
    site = Site(folder)
    try:
        # As many rooms as one address may make at once (ten): the sockets are spread over them.
        codes = [site.room(name=f"Host{n}")[0] for n in range(10)]
        quiet = HomePageWatch(site)
        time.sleep(5)
        print(f"sockets: the home page before: {quiet.stop()}")
        watch = HomePageWatch(site)
        holder, answers = Holder(), Counter()
        deadline = time.monotonic() + 2 * DRILL_LIMIT

        def open_one(n: int) -> None:
            if time.monotonic() > deadline:
                answers["not tried (time)"] += 1
                return
            try:
                holder.add(site.channel(codes[n % len(codes)]))
            except websocket.WebSocketBadStatusException as refused:
                answers[f"refused {refused.status_code}"] += 1
            except OSError as failed:
                answers[f"failed {type(failed).__name__}"] += 1
            else:
                answers["accepted"] += 1

        began, cpu = time.perf_counter(), site.worker_cpu()
        with ThreadPoolExecutor(FLOOD_THREADS) as pool:
            list(pool.map(open_one, range(SOCKETS)))
        took, cpu = time.perf_counter() - began, site.worker_cpu() - cpu
        time.sleep(3)
        print(f"  {SOCKETS} live channels from one address in {took:.1f} s: {dict(answers)}")
        print(f"  the server's CPU meanwhile: {cpu:.1f} s ({cpu / SOCKETS * 1000:.1f} ms a handshake)")
        print(
            f"  open at once at most {holder.most}; still open at the end {len(holder.open)}, "
            f"closed by the server {holder.closed_by_server}"
        )
        print(f"  home page meanwhile: {watch.stop()}")
        print(f"  worker resident memory with {len(holder.open)} held: {site.worker_rss_mb():.0f} MB")
        holder.close()
    finally:
        site.stop()


def drill_watchers(folder: Path) -> None:
    unlimited = {"LIVE_PER_ADDRESS": 10**6, "LIVE_PER_IDENTITY": 10**6, "SPECTATORS_PER_ROOM": 10**6}
    site = Site(folder, unlimited)
    try:
        code, _ = site.room()
        cpu = site.worker_cpu()
        began = time.perf_counter()
        held = []
        for _ in range(WATCHERS):
            ws = site.channel(code)
            ws.send("{}")
            held.append(ws)
        for ws in held:
            ws.recv()  # each one's table, sent whole
        took = time.perf_counter() - began
        print(
            f"watchers: {WATCHERS} channels on one table opened and each sent its table in {took:.1f} s; "
            f"server CPU {site.worker_cpu() - cpu:.1f} s"
        )
        for ws in held:
            ws.close()
    finally:
        site.stop()


def drill_rooms(folder: Path) -> None:
    site = Site(folder)
    try:
        began = time.perf_counter()
        form = {"game": "zero_game", "name": "Ann"}
        answers = Counter(site.post("/rooms", form).status for _ in range(ROOM_POSTS))
        took = time.perf_counter() - began
        print(f"rooms: {ROOM_POSTS} POST /rooms from one address in {took:.1f} s: {dict(answers)} (302 made)")
    finally:
        site.stop()
    store = open_store("", folder / "codes.db")
    with store.transaction():
        for code in (f"A{b}{c}{d}" for b in CODE_ALPHABET for c in CODE_ALPHABET for d in CODE_ALPHABET):
            store.rooms.write(RoomRow(code, "zero_game", {}, "host", "lobby", 0, None, 0, []))
    registry = RoomRegistry(store, shard=(0, len(CODE_ALPHABET)))
    times, lengths = [], Counter()
    for _ in range(100):
        began = time.perf_counter()
        lengths[len(registry.create("zero_game", {}, "u", "Ann").code)] += 1
        times.append(time.perf_counter() - began)
    print(
        f"  all 12,167 four-letter codes of a process taken: 100 more rooms, code lengths {dict(lengths)}, "
        f"each made in {ms(times).split(', ', 1)[1]}"
    )


def drill_scan(folder: Path) -> None:
    site = Site(folder)
    try:
        rng = random.Random(1)
        began = time.perf_counter()
        answers = Counter()
        for _ in range(SCAN_TRIES):
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(4))
            answers[site.get(f"/join?code={code}").status] += 1
        took = time.perf_counter() - began
        print(f"scan: {SCAN_TRIES} code lookups from one address in {took:.1f} s: {dict(answers)}")
    finally:
        site.stop()


def drill_forgery(folder: Path) -> None:
    site = Site(folder)
    try:
        code, host = site.room()
        for _ in range(2):
            site.post(f"/r/{code}/bots", {"level": "easy"}, host)
        site.post(f"/r/{code}/start", {}, host)
        elsewhere = f"http://127.0.0.1:{free_port()}"
        act = f"/r/{code}/act"
        bids = [{"action": json.dumps({"type": "bid", "bid": n}), "version": "3"} for n in range(4)]
        moves = [site.post(act, bid, host, Origin=elsewhere) for bid in bids]
        from_sibling = {"Sec-Fetch-Site": "same-site"}
        sibling = [site.post(act, bids[0], host, **from_sibling) for _ in range(2)]
        reads = []
        for origin in (elsewhere, "http://evil.localhost"):
            try:
                site.channel(code, cookie=host, origin=origin).close()
                reads.append("read")
            except websocket.WebSocketBadStatusException as refused:
                reads.append(refused.status_code)
        headers = site.get(f"/r/{code}", {"Cookie": host})
        print(
            f"forgery: 4 moves from another origin: {[answer.status for answer in moves]}; "
            f"2 from a sibling (Sec-Fetch-Site): {[answer.status for answer in sibling]}"
        )
        print(f"  2 live channels of a player opened from other origins: {reads}")
        framed = "frame-ancestors 'none'" in (headers.getheader("Content-Security-Policy") or "")
        print(
            f"  framing: X-Frame-Options {headers.getheader('X-Frame-Options')}, "
            f"frame-ancestors 'none' in the policy: {framed}"
        )
    finally:
        site.stop()


HTMX = {"HX-Request": "true"}


def answered(answer: http.client.HTTPResponse) -> str:
    """An answer's status, and for a refusal the gist of its notice (up to its first colon or digit)."""
    if answer.status != 200:
        return str(answer.status)
    notice = answer.text.split('<p class="notice">', 1)[-1].split("<", 1)[0]
    return f"200 {re.split(r'[:0-9]', notice, maxsplit=1)[0].strip()}"


def drill_malformed(folder: Path) -> None:
    site = Site(folder)
    try:
        answers, deadline = Counter(), time.monotonic() + 2 * DRILL_LIMIT
        rng = random.Random(2)
        tables = []
        for game in ("zero_game", "cabo", "zero_down", "zero", "trump_card"):
            code, host = site.room(game)
            for _ in range(GAMES[game].min_players - 1):
                site.post(f"/r/{code}/bots", {"level": "easy"}, host)
            site.post(f"/r/{code}/start", {}, host)
            tables.append((game, code, host))
        sent = 0
        while sent < FUZZ and time.monotonic() < deadline:
            game, code, host = tables[sent % len(tables)]
            move = fuzzed_move(rng, GAMES[game], [])
            move[rng.choice(["junk", "pad", "card"])] = "x" * rng.choice([1, 100, 400])
            posted = json.dumps(move) if rng.random() < 0.9 else rng.choice(["[" * 300, "{", '"x"', "1e400"])
            answer = site.post(f"/r/{code}/act", {"action": posted, "version": "0"}, host, **HTMX)
            answers[answered(answer)] += 1
            sent += 1
        _, cabo, host = next(table for table in tables if table[0] == "cabo")
        for action in ('{"type": ["memory"], "on": false}', '{"type": {"memory": 1}}'):
            answer = site.post(f"/r/{cabo}/act", {"action": action, "version": "0"}, host, **HTMX)
            answers[answered(answer)] += 1
        closes = Counter()
        for hello in ('{"seq":1e400}', "[" * 60 + "]" * 60, "[" * 3000, '{"seq":[1]}'):
            ws = site.channel(tables[0][1])
            ws.send(hello)
            opcode, frame = ws.recv_data(control_frame=True)
            while opcode != websocket.ABNF.OPCODE_CLOSE:
                opcode, frame = ws.recv_data(control_frame=True)
            closes[f"{int.from_bytes(frame[:2], 'big')} {frame[2:].decode()}"] += 1
            ws.close()
        store = open_store("", site.database)
        foreign = 0
        for game, code, _ in tables:
            for _, action, _, _ in store.games.actions(code, 1):
                foreign += bool(set(action) - {"type", *GAMES[game].action_fields.get(action["type"], ())})
        print(f"malformed: {sent + 2} malformed or padded moves, answered:")
        for answer, count in answers.most_common():
            print(f"  {count:6}  {answer}")
        print(f"  socket hellos closed: {dict(closes)}")
        print(f"  stored moves holding a field their game does not declare: {foreign}")
    finally:
        site.stop()


def drill_body(folder: Path) -> None:
    site = Site(folder)
    try:
        code, host = site.room()
        before = site.worker_rss_mb()
        watch = HomePageWatch(site)
        (answer, taken), took = huge_post(site.port, "/rooms", 100 * 2**20, b"game=zero_game&name=Ann&pad=")
        print(f"body: a 100 MB POST: {answer} after {taken / 2**20:.1f} MB sent, in {took * 1000:.0f} ms")
        head = b'action={"type":"bid","bid":0}&version=3&junk='
        (answer, taken), took = huge_post(site.port, f"/r/{code}/act", 50 * 2**20, head, host)
        print(f"  a move padded with 50 MB: {answer} after {taken / 2**20:.1f} MB, {took * 1000:.0f} ms")
        print(f"  worker resident memory {before:.0f} MB before, {site.worker_rss_mb():.0f} MB after")
        print(f"  home page meanwhile: {watch.stop()}")
    finally:
        site.stop()


def drill_rejoin(folder: Path) -> None:
    site = Site(folder)
    try:
        code, ann = site.room()
        dee = site.get("/").getheader("Set-Cookie").split(";", 1)[0]
        eve = site.get("/").getheader("Set-Cookie").split(";", 1)[0]

        def link(cookie: str) -> str:
            page = site.get(f"/r/{code}", {"Cookie": cookie}).text
            made = page.split('class="rejoin-link" readonly value="', 1)[1].split('"', 1)[0]
            return made.split(str(site.port), 1)[1]

        first = link(ann)
        site.post(first, {}, dee)
        back = link(dee)
        site.post(back, {}, ann)
        again = site.post(first, {}, eve)
        told = {"Cookie": again.getheader("Set-Cookie").split(";", 1)[0]}  # the refusal rides in it
        refused = "used or is out of date" in site.get(again.getheader("Location"), told).text
        seated = 'class="rejoin-link"' in site.get(f"/r/{code}", {"Cookie": ann}).text
        print(
            f"rejoin: A's link to D, D's back to A, A's used link again (by E): "
            f"{'refused, used or out of date' if refused else 'not refused'}; A still seated: {seated}"
        )
    finally:
        site.stop()


def drill_wal(folder: Path) -> None:
    store = open_store("", folder / "wal.db")
    store.db.checkpoint_apart()
    row = RoomRow("ABCD", "zero_game", {"pad": "x" * 2000}, "host", "lobby", 0, None, 0, [])
    for version in range(20_000):
        store.rooms.save(RoomRow(**{**row.__dict__, "version": version}))
    wal = folder / "wal.db-wal"
    peak = os.path.getsize(wal)
    store.db.checkpoint()
    store.rooms.save(row)
    after = os.path.getsize(wal)
    print(f"wal: after a burst of 20,000 writes {peak / 2**20:.0f} MB; checkpointed: {after / 2**20:.1f} MB")


SIGN_INS = 40


def drill_hashes(folder: Path) -> None:
    site = Site(folder, {"PROXIES": "127.0.0.1"})
    try:
        before, peak, answers = site.worker_rss_mb(), [0.0], Counter()
        watch = HomePageWatch(site)

        def sign_in(n: int) -> None:
            fields = {"username": f"user{n}", "password": "not the password"}
            answers[site.post("/signin", fields, **{"X-Forwarded-For": f"10.0.{n}.1"}).status] += 1

        threads = [threading.Thread(target=sign_in, args=(n,)) for n in range(SIGN_INS)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            peak[0] = max(peak[0], site.worker_rss_mb())
            time.sleep(0.05)
        print(f"hashes: {SIGN_INS} sign-ins at once from as many addresses: {dict(answers)} (503 busy)")
        print(f"  home page meanwhile: {watch.stop()}")
        print(f"  worker resident memory {before:.0f} MB before, {peak[0]:.0f} MB at most")
    finally:
        site.stop()


DRILLS = {
    "sockets": drill_sockets,
    "watchers": drill_watchers,
    "rooms": drill_rooms,
    "scan": drill_scan,
    "forgery": drill_forgery,
    "malformed": drill_malformed,
    "body": drill_body,
    "hashes": drill_hashes,
    "rejoin": drill_rejoin,
    "wal": drill_wal,
}


def main() -> None:
    chosen = sys.argv[1:] or list(DRILLS)
    with tempfile.TemporaryDirectory() as folder:
        for name in chosen:
            DRILLS[name](Path(folder))


if __name__ == "__main__":
    main()
