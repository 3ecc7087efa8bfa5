"""The table journal: an append-only, hash-chained SQLite event log, one database per table.

Every command that changes a table is an event here before the screen shows it as done; a
table's state is the fold of its events (see ``shared.engine``). History is never updated or
deleted — this module has no API for it and triggers refuse it — so a correction is a new event
that refers to the old one. Each event's SHA-256 hash covers its fields and the previous hash,
so ``verify()`` finds the first entry that was edited, removed or moved.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from shared.errors import ConsoleError

if TYPE_CHECKING:
    from shared.staff import Actor

APP_NAME = "mesa-console"
GENESIS_HASH = "0" * 64
SCHEMA_VERSION = 1
# How many snapshots to keep: only the latest is read; a few older ones are a cushion.
SNAPSHOTS_KEPT = 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    table_id TEXT NOT NULL,
    round_id INTEGER NOT NULL,
    staff_id TEXT,
    role TEXT,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS events_round ON events (round_id, seq);
CREATE INDEX IF NOT EXISTS events_type ON events (type, seq);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY,
    event_hash TEXT NOT NULL,
    state TEXT NOT NULL
);
"""


class JournalError(ConsoleError):
    """The journal file cannot be used: another game's or table's, damaged, or missing."""


def canonical_json(value: Any) -> str:
    """The one JSON text of a value that hashes are computed over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(
    *,
    seq: int,
    ts: str,
    table_id: str,
    round_id: int,
    staff_id: str | None,
    role: str | None,
    type: str,
    payload: dict,
    prev_hash: str,
) -> str:
    body = {
        "seq": seq,
        "ts": ts,
        "table_id": table_id,
        "round_id": round_id,
        "staff_id": staff_id,
        "role": role,
        "type": type,
        "payload": payload,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Event:
    seq: int
    ts: str
    table_id: str
    round_id: int
    staff_id: str | None
    role: str | None
    type: str
    payload: dict
    prev_hash: str
    hash: str

    def computed_hash(self) -> str:
        return event_hash(
            seq=self.seq,
            ts=self.ts,
            table_id=self.table_id,
            round_id=self.round_id,
            staff_id=self.staff_id,
            role=self.role,
            type=self.type,
            payload=self.payload,
            prev_hash=self.prev_hash,
        )

    def to_dict(self) -> dict:
        return {
            "seq": self.seq,
            "ts": self.ts,
            "table_id": self.table_id,
            "round_id": self.round_id,
            "staff_id": self.staff_id,
            "role": self.role,
            "type": self.type,
            "payload": self.payload,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    checked: int
    first_bad_seq: int | None = None
    reason: str | None = None  # English, for logs and --json
    reason_es: str | None = None

    def message(self, lang: str = "es") -> str:
        if self.ok:
            if lang == "en":
                return f"journal intact: {self.checked} entries checked"
            return f"diario íntegro: {self.checked} entradas verificadas"
        if lang == "en":
            return f"chain broken at entry #{self.first_bad_seq}: {self.reason}"
        return f"cadena rota en la entrada #{self.first_bad_seq}: {self.reason_es}"


def default_journal_path(game: str, table_id: str, *, training: bool = False) -> Path:
    """``<user data dir>/mesa-console/[training/]<game>-<table>.sqlite3``.

    Training journals live in their own folder so a training session can never open a live
    table's journal by accident.
    """
    base = Path(platformdirs.user_data_dir(APP_NAME))
    if training:
        base = base / "training"
    safe_table = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in table_id)
    return base / f"{game}-{safe_table}.sqlite3"


def _utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


_EVENT_COLUMNS = "seq, ts, table_id, round_id, staff_id, role, type, payload, prev_hash, hash"


def _stored_row_hash(row: tuple) -> str:
    """``event_hash`` of a stored row without parsing its payload.

    The payload column holds ``canonical_json(payload)``, so splicing it into the canonical
    body (keys in sorted order) gives the same text ``event_hash`` hashes; a payload edited
    in any way — even only reformatted — no longer does.
    """
    seq, ts, table_id, round_id, staff_id, role, type_, payload_text, prev_hash, _ = row
    dump = json.dumps
    text = (
        f'{{"payload":{payload_text},"prev_hash":{dump(prev_hash, ensure_ascii=False)},'
        f'"role":{dump(role, ensure_ascii=False)},"round_id":{dump(round_id)},"seq":{dump(seq)},'
        f'"staff_id":{dump(staff_id, ensure_ascii=False)},"table_id":{dump(table_id, ensure_ascii=False)},'
        f'"ts":{dump(ts, ensure_ascii=False)},"type":{dump(type_, ensure_ascii=False)}}}'
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _row_to_event(row: tuple) -> Event:
    seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, hash_ = row
    return Event(seq, ts, table_id, round_id, staff_id, role, type_, json.loads(payload), prev_hash, hash_)


class Journal:
    """One table's journal. Thread-safe: the UI may append from a worker thread."""

    def __init__(
        self,
        path: str | os.PathLike,
        table_id: str,
        game: str,
        *,
        training: bool | None = None,
        clock: Callable[[], str] = _utc_now,
    ) -> None:
        """Open or create the journal of ``table_id`` of ``game`` at ``path``.

        ``training``: None accepts whatever mode the file was created in (new files are live);
        True/False refuses a file of the other mode.
        """
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; every write is in our own BEGIN IMMEDIATE.
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._init_schema(table_id, game, training)
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise JournalError(
                f"{self.path} no es un diario de mesa utilizable ({exc})",
                f"{self.path} is not a usable table journal ({exc})",
            ) from exc
        except BaseException:
            self._conn.close()
            raise
        self._last_seq, self._last_hash = self._read_tail()

    @classmethod
    def open_existing(cls, path: str | os.PathLike, *, game: str | None = None) -> Journal:
        """Open a journal that must already exist (audit tools must never create one)."""
        path = Path(path)
        if not path.is_file():
            raise JournalError(f"no existe el diario {path}", f"no journal at {path}")
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            raise JournalError(f"{path} no es un diario de mesa", f"{path} is not a table journal") from None
        if "table_id" not in meta or "game" not in meta:
            raise JournalError(f"{path} no es un diario de mesa", f"{path} is not a table journal")
        if game is not None and meta["game"] != game:
            raise JournalError(
                f"{path} es un diario de {meta['game']}, no de {game}",
                f"{path} is a {meta['game']} journal, not {game}",
            )
        return cls(path, meta["table_id"], meta["game"])

    def _init_schema(self, table_id: str, game: str, training: bool | None) -> None:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        self._conn.execute(statement)
                meta = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
                if not meta:
                    mode = "training" if training else "live"
                    meta = {"schema": str(SCHEMA_VERSION), "table_id": table_id, "game": game, "mode": mode}
                    self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        if meta["game"] != game:
            raise JournalError(
                f"{self.path} es un diario de {meta['game']}, no de {game}",
                f"{self.path} is a {meta['game']} journal, not {game}",
            )
        if meta["table_id"] != table_id:
            raise JournalError(
                f"{self.path} es el diario de la mesa {meta['table_id']}, no de la mesa {table_id}",
                f"{self.path} is the journal of table {meta['table_id']}, not table {table_id}",
            )
        if training is not None and (meta["mode"] == "training") != training:
            raise JournalError(
                f"{self.path} es un diario {'de entrenamiento' if meta['mode'] == 'training' else 'de mesa en vivo'}",
                f"{self.path} is a {meta['mode']} journal",
            )
        self.table_id: str = table_id
        self.game: str = game
        self._mode: str = meta["mode"]

    @property
    def training(self) -> bool:
        return self._mode == "training"

    def mark_training(self, training: bool) -> None:
        """Set the mode of a journal that holds no event yet (the engine does it on first use)."""
        mode = "training" if training else "live"
        if mode == self._mode:
            return
        with self.transaction() as cur:
            if cur.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise JournalError(
                    f"{self.path} es un diario {'de entrenamiento' if self.training else 'de mesa en vivo'}",
                    f"{self.path} is a {self._mode} journal",
                )
            cur.execute("UPDATE meta SET value = ? WHERE key = 'mode'", (mode,))
        self._mode = mode

    def _read_tail(self) -> tuple[int, str]:
        row = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, GENESIS_HASH)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """One write transaction (``BEGIN IMMEDIATE``): all or nothing, durable on commit.

        The staff registry uses it to enrol someone and journal it atomically.
        """
        with self._lock:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            saved_tail = (self._last_seq, self._last_hash)
            try:
                yield cur
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                self._last_seq, self._last_hash = saved_tail
                raise
            finally:
                cur.close()

    def _append_in(
        self, cur: sqlite3.Cursor, type: str, payload: dict, *, round_id: int, actor: Actor | None
    ) -> Event:
        if not isinstance(payload, dict):
            raise TypeError("an event payload is a dict")
        text = canonical_json(payload)
        # The seq this writer expects to be next: if another writer got there first, the
        # primary key makes the INSERT fail loudly instead of forking the history.
        seq = self._last_seq + 1
        staff_id = actor.staff_id if actor is not None else None
        role = str(actor.role) if actor is not None else None
        ts = self._clock()
        stored_payload = json.loads(text)
        digest = event_hash(
            seq=seq,
            ts=ts,
            table_id=self.table_id,
            round_id=round_id,
            staff_id=staff_id,
            role=role,
            type=type,
            payload=stored_payload,
            prev_hash=self._last_hash,
        )
        cur.execute(
            f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (seq, ts, self.table_id, round_id, staff_id, role, type, text, self._last_hash, digest),
        )
        event = Event(seq, ts, self.table_id, round_id, staff_id, role, type, stored_payload, self._last_hash, digest)
        self._last_seq, self._last_hash = seq, digest
        return event

    def append(self, type: str, payload: dict, *, round_id: int, actor: Actor | None) -> Event:
        """Write one event durably and return it (its payload as read back from JSON).

        Raises ``sqlite3.IntegrityError`` if another writer appended since this journal last
        did: this journal's view of the table is stale and it must be reopened.
        """
        with self.transaction() as cur:
            return self._append_in(cur, type, payload, round_id=round_id, actor=actor)

    def append_many(
        self, items: Iterable[tuple[str, dict]], *, round_id: int, actor: Actor | None
    ) -> list[Event]:
        """Write several events in one transaction: all of them or none."""
        with self.transaction() as cur:
            return [self._append_in(cur, t, p, round_id=round_id, actor=actor) for t, p in items]

    def append_in(
        self, cur: sqlite3.Cursor, type: str, payload: dict, *, round_id: int, actor: Actor | None
    ) -> Event:
        """Append inside a ``transaction()`` opened by the caller."""
        return self._append_in(cur, type, payload, round_id=round_id, actor=actor)

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def last_hash(self) -> str:
        return self._last_hash

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """A read outside any write transaction (used by the staff registry)."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def events(self, after: int = 0) -> Iterator[Event]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
        for row in rows:
            yield _row_to_event(row)

    def last_event_of(self, type: str) -> Event | None:
        """The newest entry of one type (e.g. the table configuration in force)."""
        with self._lock:
            row = self._conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE type = ? ORDER BY seq DESC LIMIT 1", (type,)
            ).fetchone()
        return _row_to_event(row) if row else None

    def event(self, seq: int) -> Event | None:
        with self._lock:
            row = self._conn.execute(f"SELECT {_EVENT_COLUMNS} FROM events WHERE seq = ?", (seq,)).fetchone()
        return _row_to_event(row) if row else None

    def round_events(self, round_id: int) -> list[Event]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE round_id = ? ORDER BY seq", (round_id,)
            ).fetchall()
        return [_row_to_event(row) for row in rows]

    def last_round_ids(self, n: int) -> list[int]:
        """The ``n`` most recent round ids (> 0), oldest first."""
        found: list[int] = []
        with self._lock:
            cursor = self._conn.execute("SELECT round_id FROM events WHERE round_id > 0 ORDER BY seq DESC")
            for (round_id,) in cursor:
                if round_id not in found:
                    found.append(round_id)
                    if len(found) >= n:
                        break
            cursor.close()
        return found[::-1]

    def verify(self) -> VerifyReport:
        """Walk the whole chain; report the first entry that was edited, removed or moved."""
        checked = 0
        expected_seq = 1
        prev_hash = GENESIS_HASH
        # Its own connection and read transaction: a consistent view that does not hold up
        # the croupier's appends while a long chain is checked.
        # (An in-memory journal, used by tests, has only the one connection.)
        in_memory = str(self.path) == ":memory:"
        if in_memory:
            self._lock.acquire()
            conn = self._conn
        else:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        try:
            conn.execute("BEGIN")
            # Snapshots name the hash of their entry: a rewritten stretch of the chain that is
            # consistent in itself still disagrees with them, and one past the end shows a cut tail.
            snapshots = dict(conn.execute("SELECT seq, event_hash FROM snapshots").fetchall())
            cursor = conn.execute(f"SELECT {_EVENT_COLUMNS} FROM events ORDER BY seq")
            try:
                for row in cursor:
                    seq = row[0]
                    if seq != expected_seq:
                        return _broken(
                            checked,
                            expected_seq,
                            f"entry missing (next present is #{seq})",
                            f"falta la entrada (la siguiente presente es #{seq})",
                        )
                    table_id, row_prev, row_hash = row[2], row[8], row[9]
                    if row_prev != prev_hash:
                        return _broken(
                            checked,
                            seq,
                            "previous-hash link does not match the entry before it",
                            "el enlace al hash anterior no coincide con la entrada previa",
                        )
                    digest = _stored_row_hash(row)
                    if digest != row_hash:
                        return _broken(
                            checked,
                            seq,
                            "contents do not match the entry's hash",
                            "el contenido no coincide con el hash de la entrada",
                        )
                    if table_id != self.table_id:
                        return _broken(
                            checked,
                            seq,
                            f"entry belongs to table {table_id}",
                            f"la entrada es de la mesa {table_id}",
                        )
                    if seq in snapshots and snapshots[seq] != row_hash:
                        return _broken(
                            checked,
                            seq,
                            "the entry differs from the one its snapshot was taken at",
                            "la entrada difiere de aquella en la que se tomó su instantánea",
                        )
                    prev_hash = row_hash
                    expected_seq += 1
                    checked += 1
            finally:
                cursor.close()
        finally:
            if in_memory:
                conn.execute("COMMIT")
                self._lock.release()
            else:
                conn.close()
        beyond = [seq for seq in snapshots if seq >= expected_seq]
        if beyond:
            return _broken(
                checked,
                expected_seq,
                f"entries missing at the end: a snapshot was taken at entry #{max(beyond)}",
                f"faltan entradas al final: se tomó una instantánea en la entrada #{max(beyond)}",
            )
        return VerifyReport(True, checked)

    def save_snapshot(self, seq: int, state: dict) -> None:
        """Store the folded state as of entry ``seq`` so a restart need not replay history."""
        text = canonical_json(state)
        with self.transaction() as cur:
            row = cur.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
            if row is None:
                raise JournalError(f"no existe la entrada #{seq}", f"no entry #{seq}")
            cur.execute(
                "INSERT OR REPLACE INTO snapshots (seq, event_hash, state) VALUES (?, ?, ?)", (seq, row[0], text)
            )
            cur.execute(
                "DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)",
                (SNAPSHOTS_KEPT,),
            )

    def latest_snapshot(self) -> tuple[int, dict] | None:
        """The newest snapshot that still matches its entry's hash, or None."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT s.seq, s.state FROM snapshots s JOIN events e ON e.seq = s.seq AND e.hash = s.event_hash "
                "ORDER BY s.seq DESC LIMIT 1"
            ).fetchall()
        if not rows:
            return None
        seq, text = rows[0]
        return seq, json.loads(text)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, table_id={self.table_id!r}, game={self.game!r}, last_seq={self._last_seq})"


def _broken(checked: int, seq: int, reason: str, reason_es: str) -> VerifyReport:
    return VerifyReport(False, checked, seq, reason, reason_es)


# --- recall: shared by the command line and the recall screens -------------------------------


def _summarise(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}={_summarise(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + " ".join(_summarise(v) for v in value) + "]"
    if value is None:
        return "-"
    return str(value)


def format_event(event: Event, lang: str = "es", *, tz: timezone | None = None) -> str:
    """One readable line: local time, seq, staff/role, type, payload summary.

    ``tz`` fixes the time zone shown (tests); by default the machine's local time.
    """
    when = datetime.fromisoformat(event.ts).astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")
    if event.staff_id is None:
        who = "(sin personal)" if lang != "en" else "(no staff)"
    else:
        who = f"{event.staff_id}/{event.role}"
    details = " ".join(f"{k}={_summarise(v)}" for k, v in event.payload.items())
    return f"{when}  #{event.seq:<6} {who:<20} {event.type:<20} {details}".rstrip()


def recall_json(journal: Journal, round_ids: Iterable[int]) -> list[dict]:
    """Each round with every one of its events, in order, as plain JSON data."""
    return [
        {"round_id": round_id, "events": [event.to_dict() for event in journal.round_events(round_id)]}
        for round_id in round_ids
    ]


def recall_text(
    journal: Journal,
    round_ids: Iterable[int],
    lang: str = "es",
    describe: Callable[[Event, str], str] = format_event,
) -> list[str]:
    """The lines of a text recall: a heading per round, then its events (each described by
    ``describe``: the game's own words where the app gives them, else the generic line)."""
    lines: list[str] = []
    for round_id in round_ids:
        lines.append(f"== Ronda {round_id} ==" if lang != "en" else f"== Round {round_id} ==")
        for event in journal.round_events(round_id):
            lines.extend("  " + line for line in describe(event, lang).splitlines())
    return lines
