"""The progressive Jackpot meter ("pozo", Art. 11 §50–54) and the Carrusel (Art. 12 §58).

``MeterStore`` is the interface the engine uses; ``SqliteMeterStore`` implements it on
one SQLite file that every table process of a machine opens at once (WAL, every write
in ``BEGIN IMMEDIATE``); ``shared.madero.meter_pg.PostgresMeterStore`` implements it on the
Carrusel's PostgreSQL server, for linked tables on separate terminals.

A table's meter grows by its own contributions; the jackpot shown and paid (a royal's
100 %, a straight flush's 10 %) is the sum of the meters linked under one Carrusel id; a
straight flush's deduction is spread over them in proportion to their values, and after a
royal every linked meter restarts at its seed (madero-rules.md, §58). Training uses its own store (an
in-memory or temporary file), never the live one.

A prize is the exception (issue 27): it takes money out of a pool other tables draw on, so it
is claimed from the store first (``claim_prize``: valued and debited in one transaction keyed by
the round) and the table journals the store's answer; the claim's intent is journaled before
the store is asked (``PrizeClaimed``), so a table stopped in between asks again with the same
key. Otherwise the meter follows the journal, never the reverse: a table journals a round's settlement, with
the reading it was computed from and its meter movement, and only then applies the movement
here, once per round (``apply_settlement`` is idempotent by the round's key). It does both
inside ``hold()``, so no other table moves the meters between the reading and the apply; if the
process stops after the journal write, the table applies the journaled movement when it next
starts (or before its next settlement). A royal or straight flush is valued when the
settlement is computed — the journaled reading — and a movement applied late is applied
relative to that reading: what other tables contributed meanwhile stays in their meters (it
came after the prize was valued, so it belongs to the next jackpot), and a meter restarted by a
royal never goes below its seed (should another table have paid from the same money in that
window, the seed, the house's money, covers it).
"""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

from shared.anchor import Head
from shared.codec import decode
from shared.errors import ConsoleError, InputError
from shared.journal import private_dir, private_file
from shared.madero.settlement import LinkedMeter, MeterMovement, MeterReading
from shared.messages import Msg
from shared.record import record

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meters (
    meter_id TEXT PRIMARY KEY,
    link TEXT,
    seed TEXT NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS movements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts TEXT NOT NULL,
    meter_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    amount TEXT NOT NULL,
    value_after TEXT NOT NULL,
    ref TEXT
);
CREATE TABLE IF NOT EXISTS settlements (
    ref TEXT PRIMARY KEY,
    meter_id TEXT NOT NULL,
    reading TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS table_heads (
    table_id TEXT PRIMARY KEY,
    head_hash TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    last_round INTEGER,
    croupier TEXT,
    fallback INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
"""


class MeterUnavailable(ConsoleError):
    """The meter store could not be written (busy beyond its timeout, a full disk)."""


class CarruselUnreachable(MeterUnavailable):
    """The Carrusel's server cannot be reached (or dropped the connection): the round is
    settled on the fixed paytable of §48 and what it owes is delivered later. ``reason`` is
    the driver's text with any password masked (``shared.redact``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(Msg.of("carrusel.unreachable", reason=reason))


class TableRefused(ConsoleError):
    """The Carrusel's server refuses this table (issue 27 §4): its id is another journal's, or
    its table file names another Carrusel or seed than the server holds (a supervisor's
    ``madero-tui carrusel`` moves it). The console does not open."""


class MeterStore(Protocol):
    remote: bool
    """Calls cross a network (a Carrusel server): a screen makes them in a worker, never
    while it draws; a file on the table's machine answers at once."""

    def register(self, meter_id: str, seed: Decimal, link: str | None) -> None:
        """Create the table's meter at its seed if new; update its seed and Carrusel link."""

    def claim_identity(self, table_id: str, journal_id: str, terminal: str) -> None:
        """Bind the table id to this journal (``Journal.identity``) before its first write;
        TableRefused if another journal holds it (a machine's file: nothing to claim)."""

    def change_carrusel(self, meter_id: str, link: str | None, seed: Decimal, keep: str,
                        supervisor: str, reason: str, key: str) -> dict[str, str]:
        """A supervisor's move of the meter to another Carrusel or seed, recorded by the store
        once by ``key`` (see ``PostgresMeterStore.change_carrusel``); what was done."""

    def read(self, meter_id: str) -> MeterReading:
        """This meter, the linked total (the jackpot of §50/§53 on a Carrusel, §58), the seed
        and every other linked meter."""

    def contribute(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        """Add a share of the Jackpot bets (§51)."""

    def pay(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        """Deduct a payment from this meter (§54)."""

    def reset_to_seed(self, meter_id: str, ref: str | None = None) -> None:
        """Restart this meter and every meter linked to it at their seeds (after a royal)."""

    def hold(self) -> contextlib.AbstractContextManager[None]:
        """One write transaction around a settlement: no other table moves the meters until
        the block ends; what the block applied is kept only if it ends without an error."""

    def settled_reading(self, ref: str) -> MeterReading | None:
        """The reading a round's settlement was computed from, if it was already applied."""

    def apply_settlement(self, meter_id: str, ref: str, reading: MeterReading, movement: MeterMovement) -> None:
        """Apply one journaled round's meter movement atomically and once (idempotent by
        ``ref``), relative to ``reading``, on the meters as they are now."""

    def deliver_contribution(self, meter_id: str, ref: str, amount: Decimal) -> None:
        """Add a round's contribution once (idempotent by ``ref``): a round settled on the
        fixed paytable of §48 while the meter could not be used still owes its share (§51)."""

    def write_head(self, table_id: str, head: Head) -> None:
        """Keep the table's journal head (and who deals, and whether §48 is in force, since
        when) beside its meter, in the transaction of the round's movement when inside
        ``hold()``. Its time is when the table was last heard from (the pit shows it)."""

    def movements(self, meter_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest entries of the meter's own log (§54), newest first."""

    def close(self) -> None:
        """Release the store's connection."""

    def sibling(self) -> MeterStore:
        """The same meters through a connection of its own, for the header's trips in their
        thread: one waiting on a silent server never holds what a settlement needs."""


def terminal_name(journal_path: Path) -> str:
    """How a Carrusel's server names the terminal that claimed a table id: machine and journal."""
    return f"{socket.gethostname()} {journal_path}"


def claim_prize(store: MeterStore, meter_id: str, ref: str,
                value: Callable[[MeterReading], MeterMovement]) -> MeterReading:
    """Claim a round's meter prize (a royal, a straight flush) from the store, once by ``ref``:
    in one transaction of ``hold()`` the prize is valued (``value``, the settlement's movement)
    on the meters as they are and its movement applied, then committed; the reading it was
    valued on is the answer. Asked again with the same ``ref`` (the answer lost, the table
    stopped before journaling it) the store gives the same reading and moves nothing: never a
    second debit, never a second valuation. No other table moves the meters inside the
    transaction, so no two prizes are valued on the same money."""
    with store.hold():
        answered = store.settled_reading(ref)
        if answered is not None:
            return answered
        reading = store.read(meter_id)
        store.apply_settlement(meter_id, ref, reading, value(reading))
        return reading


class MeterDiffers(ConsoleError):
    """The meter store holds another value than the journal says the table's meter holds."""


def check_own_meter(reading: MeterReading | None, journaled: Decimal) -> None:
    """A table's start, its meter its own (no Carrusel links it, so nothing but this table's
    journaled rounds moves it): the store must hold what the journal says (issue 29 §2: a meter
    file raised from 5,004 to 999,999 was trusted and the next royal paid it)."""
    if reading is not None and reading.own != journaled:
        raise MeterDiffers(Msg.of("meter.differs_from_journal", found=reading.own, expected=journaled))


def _unavailable(error: BaseException) -> MeterUnavailable:
    return MeterUnavailable(Msg.of("meter.write_failed", reason=str(error)))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _reading_json(r: MeterReading) -> str:
    return json.dumps({"own": str(r.own), "linked_total": str(r.linked_total), "own_seed": str(r.own_seed),
                       "others": [[m.meter_id, str(m.value), str(m.seed)] for m in r.others]})


def reading_from_dict(d: dict[str, Any]) -> MeterReading:
    # "others" is absent from readings journaled before straight flushes took the linked sum.
    others = tuple(LinkedMeter(m, Decimal(v), Decimal(s)) for m, v, s in d.get("others", ()))
    return MeterReading(Decimal(d["own"]), Decimal(d["linked_total"]), Decimal(d["own_seed"]), others)


def reading_to_dict(r: MeterReading) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(_reading_json(r))
    return out


def movement_from_dict(d: dict[str, Any]) -> MeterMovement:
    """A movement as a settlement journals it (the codec's form of ``MeterMovement``; a round
    journaled while the meter gave the rounded payments has no ``rounding``: 0)."""
    movement: MeterMovement = decode(MeterMovement, d)
    return movement


class SqliteMeterStore:
    """Meters in one SQLite file shared by the table processes of a machine."""

    remote = False

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            private_dir(Path(self.path).parent)
            private_file(Path(self.path))
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=15.0)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        with self._tx() as cur:
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    cur.execute(stmt)

    class _Tx:
        """A write transaction; one opened inside another (``hold()``) joins it."""

        def __init__(self, store: SqliteMeterStore) -> None:
            self.store = store

        def __enter__(self) -> sqlite3.Cursor:
            self.store._lock.acquire()
            try:
                self.cur = self.store._conn.cursor()
                if self.store._depth == 0:
                    # IMMEDIATE: take the write lock before reading, so read-check-write is
                    # atomic across processes.
                    self.cur.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                self.store._lock.release()
                raise _unavailable(error) from error
            except BaseException:
                self.store._lock.release()
                raise
            self.store._depth += 1
            return self.cur

        def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
            try:
                self.store._depth -= 1
                if self.store._depth == 0:
                    self.cur.execute("ROLLBACK" if exc_type else "COMMIT")
            except sqlite3.OperationalError as error:
                if self.store._conn.in_transaction:  # a failed COMMIT may leave it open
                    self.store._conn.execute("ROLLBACK")
                raise _unavailable(error) from error
            finally:
                self.store._lock.release()

    def _tx(self) -> SqliteMeterStore._Tx:
        return SqliteMeterStore._Tx(self)

    # --- helpers inside a transaction ---------------------------------------------------------

    @staticmethod
    def _row(cur: sqlite3.Cursor, meter_id: str) -> tuple[str | None, Decimal, Decimal]:
        row = cur.execute("SELECT link, seed, value FROM meters WHERE meter_id = ?", (meter_id,)).fetchone()
        if row is None:
            raise ConsoleError(Msg.of("meter.no_such_meter", meter=meter_id))
        return row[0], Decimal(row[1]), Decimal(row[2])

    def _read(self, cur: sqlite3.Cursor, meter_id: str) -> MeterReading:
        link, seed, value = self._row(cur, meter_id)
        others: tuple[LinkedMeter, ...] = ()
        if link is not None:
            rows = cur.execute("SELECT meter_id, value, seed FROM meters WHERE link = ? AND meter_id != ? "
                               "ORDER BY meter_id", (link, meter_id))
            others = tuple(LinkedMeter(m, Decimal(v), Decimal(s)) for m, v, s in rows)
        return MeterReading(value, value + sum((m.value for m in others), Decimal(0)), seed, others)

    @staticmethod
    def _set(cur: sqlite3.Cursor, meter_id: str, value: Decimal, kind: str, amount: Decimal, ref: str | None) -> None:
        cur.execute("UPDATE meters SET value = ? WHERE meter_id = ?", (str(value), meter_id))
        cur.execute(
            "INSERT INTO movements (ts, meter_id, kind, amount, value_after, ref) VALUES (?, ?, ?, ?, ?, ?)",
            (_now(), meter_id, kind, str(amount), str(value), ref),
        )

    def _linked_ids(self, cur: sqlite3.Cursor, meter_id: str) -> list[str]:
        link, _, _ = self._row(cur, meter_id)
        if link is None:
            return [meter_id]
        return [m for (m,) in cur.execute("SELECT meter_id FROM meters WHERE link = ? ORDER BY meter_id", (link,))]

    def _reset(self, cur: sqlite3.Cursor, meter_id: str, ref: str | None) -> None:
        for mid in self._linked_ids(cur, meter_id):
            _, seed, value = self._row(cur, mid)
            self._set(cur, mid, seed, "reset", value - seed, ref)

    # --- MeterStore ---------------------------------------------------------------------------

    def claim_identity(self, table_id: str, journal_id: str, terminal: str) -> None:
        pass  # one machine's file: its tables are this machine's processes

    def change_carrusel(self, meter_id: str, link: str | None, seed: Decimal, keep: str,
                        supervisor: str, reason: str, key: str) -> dict[str, str]:
        # A machine's file follows its table file (its tables are on this machine).
        raise InputError(Msg.of("carrusel.change_needs_server"))

    def register(self, meter_id: str, seed: Decimal, link: str | None) -> None:
        with self._tx() as cur:
            row = cur.execute("SELECT 1 FROM meters WHERE meter_id = ?", (meter_id,)).fetchone()
            if row is None:
                cur.execute("INSERT INTO meters (meter_id, link, seed, value) VALUES (?, ?, ?, ?)",
                            (meter_id, link, str(seed), str(seed)))
                cur.execute(
                    "INSERT INTO movements (ts, meter_id, kind, amount, value_after, ref) VALUES (?, ?, 'seed', ?, ?, NULL)",
                    (_now(), meter_id, str(seed), str(seed)),
                )
            else:
                cur.execute("UPDATE meters SET link = ?, seed = ? WHERE meter_id = ?", (link, str(seed), meter_id))

    def read(self, meter_id: str) -> MeterReading:
        with self._tx() as cur:
            return self._read(cur, meter_id)

    def contribute(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        with self._tx() as cur:
            _, _, value = self._row(cur, meter_id)
            self._set(cur, meter_id, value + amount, "contribution", amount, ref)

    def pay(self, meter_id: str, amount: Decimal, ref: str | None = None) -> None:
        with self._tx() as cur:
            _, _, value = self._row(cur, meter_id)
            self._set(cur, meter_id, value - amount, "payment", amount, ref)

    def reset_to_seed(self, meter_id: str, ref: str | None = None) -> None:
        with self._tx() as cur:
            self._reset(cur, meter_id, ref)

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        with self._tx():
            yield

    def settled_reading(self, ref: str) -> MeterReading | None:
        with self._tx() as cur:
            row = cur.execute("SELECT reading FROM settlements WHERE ref = ?", (ref,)).fetchone()
        reading = None if row is None else json.loads(row[0])
        return None if reading is None else reading_from_dict(reading)

    def apply_settlement(self, meter_id: str, ref: str, reading: MeterReading, movement: MeterMovement) -> None:
        with self._tx() as cur:
            try:
                if cur.execute("SELECT 1 FROM settlements WHERE ref = ?", (ref,)).fetchone():
                    return
                _, _, value = self._row(cur, meter_id)
                if movement.contribution:
                    value += movement.contribution
                    self._set(cur, meter_id, value, "contribution", movement.contribution, ref)
                if movement.royal_hit:
                    # Every meter of the reading restarts at its seed, keeping only what came in
                    # after the prize was valued (nothing, unless applied late: see the module doc).
                    valued = [(meter_id, reading.own + movement.contribution, reading.own_seed)]
                    valued += [(m.meter_id, m.value, m.seed) for m in reading.others]
                    for mid, at_reading, seed in valued:
                        _, _, now = self._row(cur, mid)
                        after = max(seed, seed + now - at_reading)
                        self._set(cur, mid, after, "reset", now - after, ref)
                    _, _, value = self._row(cur, meter_id)
                if movement.straight_flush_paid:
                    # §58: the deduction is spread over the linked meters; this one carries the rest.
                    for other, share in movement.others_paid:
                        _, _, other_value = self._row(cur, other)
                        self._set(cur, other, other_value - share, "payment", share, ref)
                    own_share = movement.straight_flush_paid - sum((a for _, a in movement.others_paid), Decimal(0))
                    value -= own_share
                    self._set(cur, meter_id, value, "payment", own_share, ref)
                cur.execute("INSERT INTO settlements (ref, meter_id, reading) VALUES (?, ?, ?)",
                            (ref, meter_id, _reading_json(reading)))
            except sqlite3.OperationalError as error:  # a full disk, a locked file
                raise _unavailable(error) from error

    def deliver_contribution(self, meter_id: str, ref: str, amount: Decimal) -> None:
        with self._tx() as cur:
            try:
                if cur.execute("SELECT 1 FROM settlements WHERE ref = ?", (ref,)).fetchone():
                    return
                _, _, value = self._row(cur, meter_id)
                if amount:
                    self._set(cur, meter_id, value + amount, "contribution", amount, ref)
                cur.execute("INSERT INTO settlements (ref, meter_id, reading) VALUES (?, ?, 'null')", (ref, meter_id))
            except sqlite3.OperationalError as error:
                raise _unavailable(error) from error

    def write_head(self, table_id: str, head: Head) -> None:
        # (a machine's file has no pit: since when §48 is in force is the server's to show)
        with self._tx() as cur:
            try:
                cur.execute("INSERT OR REPLACE INTO table_heads VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (table_id, head.head_hash, head.entry_count, head.last_round, head.croupier,
                             int(head.fallback), _now()))
            except sqlite3.OperationalError as error:
                raise _unavailable(error) from error

    def movements(self, meter_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest entries of the meter's own log (§54), newest first."""
        with self._tx() as cur:
            rows = cur.execute(
                "SELECT ts, kind, amount, value_after, ref FROM movements WHERE meter_id = ? ORDER BY id DESC LIMIT ?",
                (meter_id, limit),
            ).fetchall()
        return [dict(zip(("ts", "kind", "amount", "value_after", "ref"), r, strict=True)) for r in rows]

    def close(self) -> None:
        self._conn.close()

    def sibling(self) -> MeterStore:
        return self  # a file on this machine answers at once


@record(frozen=False)
class MeterAnswer:
    """What one ``MeterCall`` got done before it ended, and how it ended."""

    registered: bool = False
    delivered: list[str] = field(default_factory=list)
    head_written: bool = False
    reading: MeterReading | None = None
    error: MeterUnavailable | None = None
    """Why it stopped early: sending what was owed failed (``read`` is then skipped only for
    an unreachable server), or the read failed."""
    refused: TableRefused | None = None
    """The server refused the table at its registration: nothing was sent."""


@record
class MeterCall:
    """One trip to a table's meter store: register its meter, send what the journal says it
    owes, write the journal's head, read the meter. The table prepares it from its state
    and takes the answer back on its own thread; ``run`` touches only the store, so a screen
    can run it in a worker thread while it goes on drawing (a Carrusel server that does not
    answer waits up to its connection timeout)."""

    store: MeterStore
    table_id: str
    seed: Decimal
    link: str | None
    register: bool
    owed: tuple[dict[str, Any], ...]
    head: Head
    always_head: bool
    """Write the head even when nothing was owed (else only after a delivery)."""
    read: bool
    identity: tuple[str, str] = ("", "")
    """The journal's identity and the terminal's name, claimed with the registration."""

    def run(self) -> MeterAnswer:
        answer = MeterAnswer()
        try:
            self._send(answer)
        except TableRefused as error:
            answer.refused = error
            return answer
        except MeterUnavailable as error:
            answer.error = error
            if not self.read or isinstance(error, CarruselUnreachable):
                return answer
            # still unwritable (a busy file): the store's value is read, the next call sends again
        if self.read:
            try:
                answer.reading = self.store.read(self.table_id)
            except MeterUnavailable as error:
                answer.error = error
            else:
                answer.error = None
        return answer

    def _send(self, answer: MeterAnswer) -> None:
        if self.register:
            self.store.claim_identity(self.table_id, *self.identity)
            self.store.register(self.table_id, self.seed, self.link)
            answer.registered = True
        for item in self.owed:
            if "contribution" in item:
                self.store.deliver_contribution(self.table_id, item["ref"], Decimal(item["contribution"]))
            else:
                self.store.apply_settlement(self.table_id, item["ref"], reading_from_dict(item["reading"]),
                                            movement_from_dict(item["movement"]))
            answer.delivered.append(item["ref"])
        if self.owed or self.always_head:
            self.store.write_head(self.table_id, self.head)
            answer.head_written = True
