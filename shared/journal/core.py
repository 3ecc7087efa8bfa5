"""The table journal: an append-only, hash-chained SQLite event log, one database per table.

Every command that changes a table is an event here before the screen shows it as done; a
table's state is the fold of its events (see ``shared.engine``). History is never updated or
deleted — this module has no API for it and triggers refuse it — so a correction is a new event
that refers to the old one. Each event's hash covers its fields and the previous hash, so
``verify()`` finds the first entry that was edited, removed or moved.

What the file alone cannot prove is covered by a table key kept outside it (``<journal>.key``,
owner-only, created with the journal): each entry's hash is a MAC under that key (keyed
BLAKE2b), so whoever can write the journal but not read the key cannot forge, append or
recompute entries. A journal is never opened without its key, nor in a row format older than
the current one (``journal upgrade`` converts such a file once). The key also
seals each snapshot's saved state to its entry, and the head (last entry and its hash) that
the one writer records with every append. A writer's start checks from the last point a
writer sealed: the head, the latest snapshot's seal and the entries since that snapshot (what
came before was checked or written by a writer already), so a cut tail, a forged entry or an
edited snapshot is refused at start-up in milliseconds; ``verify()`` walks the whole history
(an edit older than the latest snapshot shows there). ``anchor()`` gives the head to keep elsewhere; ``verify(anchor=...)`` proves the
journal still holds it. One writer at a time: a writer holds a flock on the journal file
itself (the kernel frees it when the process dies; ``<journal>.lock`` only names the holder);
read-only opens (``open_existing``) take none.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.actor import Actor
from shared.events import ClockCorrected, JournalArchived
from shared.journal.errors import JournalError, VerifyReport, _broken, _damaged, _write_failed
from shared.journal.format import (
    _NO_DELETE,
    _NO_UPDATE,
    CHECKPOINT_EVERY,
    EVENT_COLUMNS,
    SCHEMA_VERSION,
    STORED_COLUMNS,
    TAG_BYTES,
    Context,
    Event,
    _deflated_payload,
    _hash_text,
    _is_full,
    _parse_base,
    _role_codes,
    _schema,
    _stored_ts,
    canonical_json,
    delta_row,
    in_play_types,
    payload_dictionary,
    resolve_row,
    ts_text,
)
from shared.journal.keys import (
    KEY_BYTES,
    TableKey,
    WriterLock,
    _create_key,
    _key_mismatch,
    _read_key,
    key_path,
    private_dir,
    private_file,
)
from shared.journal.rows import RowReading
from shared.journal.verify import verify_history
from shared.messages import Msg

# How many snapshots to keep: only the latest is read; a few older ones are a cushion.
SNAPSHOTS_KEPT = 3


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class Journal(RowReading):
    """One table's journal. Thread-safe: the UI may append from a worker thread."""

    closed = False
    """Whether ``close`` has run."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        table_id: str,
        game: str,
        *,
        training: bool | None = None,
        clock: Callable[[], str] | None = None,
        read_only: bool = False,
    ) -> None:
        """Open or create the journal of ``table_id`` of ``game`` at ``path``.

        ``training``: None accepts whatever mode the file was created in (new files are live);
        True/False refuses a file of the other mode.

        A writer (the default) takes the journal's writer lock, creates the table key on first
        start, and refuses a journal whose recorded head, latest snapshot or entries since that
        snapshot do not verify. ``read_only`` (``open_existing``) writes nothing and locks nothing.
        Either refuses a file of an older row format, or one whose table key is missing.
        """
        self.path = Path(path)
        self.read_only = read_only
        # Looked up here, not bound at import: a test fixes every journal's time by patching _utc_now.
        self._clock = clock or _utc_now
        self._lock = threading.RLock()
        self._key: TableKey | None = None
        self._writer_lock: WriterLock | None = None
        in_memory = str(self.path) == ":memory:"
        if not in_memory and not read_only:
            private_dir(self.path.parent)
            self._writer_lock = WriterLock(self.path, since=_utc_now())
        try:
            if not in_memory and not read_only:
                private_file(self.path)
            # isolation_level=None: no implicit transactions; every write is in our own BEGIN IMMEDIATE.
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except BaseException:
            self._release_writer_lock()
            raise
        try:
            self._init_schema(table_id, game, training)  # (an older file is refused before WAL changes it)
            if not read_only:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
            self._archive_bases: dict[str, tuple[int, str]] = {}  # each archive's base, read once
            self._files = self._files_of(self._conn, self._archives, self._base)
            self._key = self._open_key(in_memory)
            self._last_seq, self._last_hash = self._read_tail()
            if not read_only:
                self._check_at_start()
        except sqlite3.DatabaseError as exc:
            self._close_all()
            raise JournalError(Msg.of("journal.unusable", path=self.path, reason=exc)) from exc
        except BaseException:
            self._close_all()
            raise

    @classmethod
    def open_existing(cls, path: str | os.PathLike[str], *, game: str | None = None) -> Journal:
        """Open a journal that must already exist, read-only (audit tools never create, lock
        or change one; they keep working while the table's console runs)."""
        path = Path(path)
        if not path.is_file():
            raise JournalError(Msg.of("journal.missing", path=path))
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            raise JournalError(Msg.of("journal.not_a_journal", path=path)) from None
        if "table_id" not in meta or "game" not in meta:
            raise JournalError(Msg.of("journal.not_a_journal", path=path))
        if game is not None and meta["game"] != game:
            raise JournalError(Msg.of("journal.other_game", path=path, game=meta["game"], expected=game))
        return cls(path, meta["table_id"], meta["game"], read_only=True)

    def _init_schema(self, table_id: str, game: str, training: bool | None) -> None:
        with self._lock:
            if self.read_only:
                meta = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
            else:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    new = self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is None
                    if new:
                        for statement in _schema(len(in_play_types(game))):
                            self._conn.execute(statement)
                    meta = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
                    if new:
                        mode = "training" if training else "live"
                        meta = {"schema": str(SCHEMA_VERSION), "table_id": table_id, "game": game, "mode": mode,
                                "payload_dictionary": payload_dictionary(game), "roles": json.dumps(_role_codes()),
                                "types": json.dumps(in_play_types(game)),
                                "type_index_from": str(len(in_play_types(game))), "staff": "[]", "keyed_from": "1"}
                        self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
        if "table_id" not in meta or "game" not in meta:
            raise JournalError(Msg.of("journal.not_a_journal", path=self.path))
        if int(meta.get("schema", "1")) != SCHEMA_VERSION:
            raise JournalError(Msg.of("journal.old_format", path=self.path, format=meta.get("schema", "1"),
                                      current=SCHEMA_VERSION))
        if meta["game"] != game:
            raise JournalError(Msg.of("journal.other_game", path=self.path, game=meta["game"], expected=game))
        if meta["table_id"] != table_id:
            raise JournalError(Msg.of("journal.other_table", path=self.path, table=meta["table_id"], expected=table_id))
        if training is not None and (meta["mode"] == "training") != training:
            raise JournalError(Msg.of(f"journal.is_{meta['mode']}", path=self.path))
        self.table_id: str = table_id
        self.game: str = game
        self._mode: str = meta["mode"]
        # Payloads are deflated with the file's own dictionary.
        self._dictionary: bytes = meta["payload_dictionary"].encode("utf-8")
        self._roles: tuple[str, ...] = tuple(json.loads(meta.get("roles", "[]")))
        # The type codes, and the first one the type index covers.
        self._types: list[str] = json.loads(meta.get("types", "[]"))
        self._type_codes = {name: code for code, name in enumerate(self._types)}
        self._type_index_from = int(meta.get("type_index_from", "0"))
        # The staff codes, and what the last entry leaves to the next one (``resolve_row``).
        self._staff: list[str] = json.loads(meta.get("staff", "[]"))
        self._staff_codes = {name: code for code, name in enumerate(self._staff)}
        self._tail: Context | None = None
        self._is_archive = "archive_of" in meta
        if self._is_archive and not self.read_only:
            raise JournalError(Msg.of("archive.not_writable", path=self.path, journal=meta["archive_of"]))
        self._archives: list[str] = json.loads(meta.get("archives", "[]"))
        self._base = _parse_base(meta.get("base"))

    def _open_key(self, in_memory: bool) -> TableKey:
        """The table key: a writer creates it with a new journal (no entry, no head sealed
        yet); for any other a missing key is refused (entries it cannot check are never
        trusted, nor keyed afresh)."""
        # A scratch or test table's key lives and dies with it.
        key = TableKey(secrets.token_bytes(KEY_BYTES), 1) if in_memory else _read_key(
            key_path(self.path), self.table_id, self.game)
        fresh = self._conn.execute("SELECT 1 FROM events LIMIT 1").fetchone() is None and self._conn.execute(
            "SELECT 1 FROM meta WHERE key = 'head'").fetchone() is None
        if key is None:
            if self.read_only or not fresh:
                raise JournalError(Msg.of("journal.key_missing", path=key_path(self.path)))
            key = _create_key(key_path(self.path), self.table_id, self.game, 1)
        if key.keyed_from != 1:
            raise _key_mismatch(self.path)
        if fresh and not self.read_only:  # the empty journal's head, sealed: a cut to nothing shows
            self._key = key
            self._last_seq, self._last_hash = self._base
            with self.transaction() as cur:
                self._write_head(cur)
        return key

    @property
    def training(self) -> bool:
        return self._mode == "training"

    @property
    def pin_pepper(self) -> bytes:
        """The table key's pepper for PIN hashes."""
        assert self._key is not None
        return self._key.pepper

    @property
    def identity(self) -> str:
        """A fingerprint of the table's key, never the key: which journal a table id belongs to
        on a Carrusel's server (issue 27 §4). Every journal of one table shares it; another
        journal under the same id, however like it looks, has another."""
        assert self._key is not None
        return self._key.identity

    def mark_training(self, training: bool) -> None:
        """Set the mode of a journal that holds no event yet (the engine does it on first use)."""
        mode = "training" if training else "live"
        if mode == self._mode:
            return
        with self.transaction() as cur:
            if cur.execute("SELECT 1 FROM events LIMIT 1").fetchone():
                raise JournalError(Msg.of(f"journal.is_{self._mode}", path=self.path))
            cur.execute("UPDATE meta SET value = ? WHERE key = 'mode'", (mode,))
        self._mode = mode

    def _read_tail(self) -> tuple[int, str]:
        row = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return self._base
        state = self._state_at(row[0])
        if state is None:
            return row[0], _hash_text(row[1])
        self._tail = state[2]
        return row[0], state[1]

    def _type_code(self, cur: sqlite3.Cursor, name: str) -> int:
        """A type's code, adding a new one to meta ``types`` in the writer's transaction."""
        return _code(cur, "types", self._types, self._type_codes, name)

    def _staff_code(self, cur: sqlite3.Cursor, staff_id: str | None) -> int | None:
        """A staff id's code, adding a new one to meta ``staff`` in the writer's transaction."""
        return None if staff_id is None else _code(cur, "staff", self._staff, self._staff_codes, staff_id)

    # --- the keyed chain ---------------------------------------------------------------------

    def hash_ok(self, event: Event) -> bool:
        """Whether an entry's contents match its keyed hash."""
        code = self._type_codes.get(event.type)
        if code is None or event.table_id != self.table_id:
            return False
        row = self._stored_row(event.seq, event.ts, event.round_id, event.staff_id, event.role, code,
                               canonical_json(event.payload))
        return hmac.compare_digest(self._chain.row_digest(row, event.prev_hash), event.hash)

    def _stored_row(self, seq: int, ts: str, round_id: int, staff_id: str | None, role: str | None,
                    type_: int | str, text: str) -> tuple[Any, ...]:
        """A row as its hash covers it, without its hash (``type_`` its code)."""
        code = self._roles.index(role) if role in self._roles else role
        return (seq, _stored_ts(ts), None, round_id, staff_id, code, type_, _deflated_payload(text, self._dictionary),
                None, None)

    def _write_head(self, cur: sqlite3.Cursor) -> None:
        cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('head', ?)",
                    (self._chain.head_record(self._last_seq, self._last_hash),))

    def _check_at_start(self) -> None:
        """A writer's start: the recorded head, the latest snapshot's seal, and the entries from
        that snapshot on (the last point a writer sealed) — not the whole history (``verify``)."""
        with self._lock:
            conn = self._conn
            chain = self._chain
            record = dict(conn.execute("SELECT key, value FROM meta WHERE key = 'head'").fetchall()).get("head")
            problem = chain.head_problem(record, self._last_seq, self._entry_hash)
            after, prev_hash = self._base
            if problem is None:
                latest = self._latest_snapshot_row(self._files)
                if latest is not None:
                    seq, event_hash_, state, seal, entry_hash = latest
                    problem = chain.snapshot_problem(seq, event_hash_, state, seal, entry_hash)
                    after, prev_hash = seq, event_hash_
            if problem is None:
                _, problem, _ = chain.walk(conn, after, prev_hash)
        if problem is not None:
            raise _damaged(_broken(0, problem.seq, problem.why))

    # --- writing -----------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """One write transaction (``BEGIN IMMEDIATE``): all or nothing, durable on commit.

        The staff registry uses it to enrol someone and journal it atomically. When entries were
        appended, the sealed head is recorded in the same transaction.
        """
        if self.read_only:
            raise JournalError(Msg.of("journal.read_only", path=self.path))
        with self._lock:
            cur = self._conn.cursor()
            saved_tail = (self._last_seq, self._last_hash)
            saved_context = self._tail
            saved_types, saved_staff = len(self._types), len(self._staff)
            try:
                cur.execute("BEGIN IMMEDIATE")
                try:
                    yield cur
                    if (self._last_seq, self._last_hash) != saved_tail:
                        self._write_head(cur)
                    cur.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:  # a failed COMMIT may have ended it already
                        cur.execute("ROLLBACK")
                    self._last_seq, self._last_hash = saved_tail
                    self._tail = saved_context
                    for name in self._types[saved_types:]:  # codes added by the rolled-back entries
                        del self._type_codes[name]
                    del self._types[saved_types:]
                    for name in self._staff[saved_staff:]:
                        del self._staff_codes[name]
                    del self._staff[saved_staff:]
                    raise
            except sqlite3.Error as exc:
                # Every caller (bets, cards, staff, settlement) gets one sentence, never SQLite's.
                raise _write_failed(exc) from exc
            finally:
                cur.close()

    def _append_in(
        self, cur: sqlite3.Cursor, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None,
        ts: str | None = None,
    ) -> Event:
        if not isinstance(payload, dict):
            raise TypeError("an event payload is a dict")
        if ts is None:
            ts = self._clock()
            micros = _stored_ts(ts)
            if self._tail is not None and isinstance(micros, int) and micros < self._tail[0]:
                # A clock set back is journaled here, before the entry it stamps, so every
                # writer records it (issue 29); readers select by order, not by time.
                step = ClockCorrected(ts_text(self._tail[0]), ts)
                self._append_in(cur, step.type, step.to_payload(), round_id=round_id, actor=None, ts=ts)
        text = canonical_json(payload)
        # The seq this writer expects to be next: if another writer got there first, the
        # primary key makes the INSERT fail loudly instead of forking the history.
        seq = self._last_seq + 1
        staff_id = actor.staff_id if actor is not None else None
        role = str(actor.role) if actor is not None else None
        stored_payload = json.loads(text)
        code = self._type_code(cur, type)
        stored = self._stored_row(seq, ts, round_id, staff_id, role, code, text)
        digest = self._chain.row_digest(stored, self._last_hash)
        row: tuple[Any, ...]
        # A checkpoint stores both hashes and is whole, as a file's first row is.
        if code >= self._type_index_from or seq % CHECKPOINT_EVERY == 0 or self._tail is None:
            row = (*stored[:8], bytes.fromhex(self._last_hash), bytes.fromhex(digest))
            before = None
        else:
            row = (*stored[:9], bytes.fromhex(digest)[:TAG_BYTES])
            before = self._tail
        _, self._tail = resolve_row(row, None, ())
        row = delta_row(row, before, self._staff_code(cur, staff_id))
        cur.execute(f"INSERT INTO events ({STORED_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        event = Event(seq, ts, self.table_id, round_id, staff_id, role, type, stored_payload, self._last_hash, digest)
        self._last_seq, self._last_hash = seq, digest
        return event

    def append(self, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None) -> Event:
        """Write one event durably and return it (its payload as read back from JSON). A clock
        that gives a time earlier than the last entry's journals a ``clock_corrected`` entry
        first, in the same transaction (not among the entries returned).

        Raises ``JournalWriteError`` if it cannot, e.g. another writer appended since this
        journal last did: this journal's view of the table is stale and it must be reopened.
        """
        with self.transaction() as cur:
            return self._append_in(cur, type, payload, round_id=round_id, actor=actor)

    def append_many(
        self, items: Iterable[tuple[str, dict[str, Any]]], *, round_id: int, actor: Actor | None
    ) -> list[Event]:
        """Write several events in one transaction: all of them or none."""
        with self.transaction() as cur:
            return [self._append_in(cur, t, p, round_id=round_id, actor=actor) for t, p in items]

    def append_in(
        self, cur: sqlite3.Cursor, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None,
        ts: str | None = None,
    ) -> Event:
        """Append inside a ``transaction()`` opened by the caller. ``ts``: the time of an entry
        copied from an older file (``journal upgrade``); the journal's clock otherwise."""
        return self._append_in(cur, type, payload, round_id=round_id, actor=actor, ts=ts)

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def first_seq(self) -> int:
        """The first entry the live file holds (1 unless entries were archived)."""
        return self._base[0] + 1

    @property
    def last_hash(self) -> str:
        return self._last_hash

    def verify(self, anchor: tuple[str, int] | None = None) -> VerifyReport:
        """Walk the whole chain; report the first entry that was edited, removed, moved or
        forged, a snapshot whose saved state was edited, and a head that is not the one the
        console wrote. ``anchor`` (hash, count), kept outside the journal: the journal must
        still hold that head at that position (a cut or rewritten history is caught)."""
        with self._reader() as files:
            # The type codes this read sees (a writer elsewhere may have added some since this opened).
            meta = dict(files.live.execute("SELECT key, value FROM meta WHERE key IN ('types', 'staff')").fetchall())
            chain = replace(self._chain, types=tuple(json.loads(meta.get("types", "[]"))),
                            staff=tuple(json.loads(meta.get("staff", "[]"))))
            return verify_history(chain, files, is_archive=self._is_archive, anchor=anchor)

    def save_snapshot(self, seq: int, state: dict[str, Any]) -> None:
        """Store the folded state as of entry ``seq`` so a restart need not replay history;
        sealed with the table key to its entry's hash, so its saved state cannot be edited."""
        text = canonical_json(state)
        assert self._key is not None
        with self.transaction() as cur:
            found = self._entry_hash(seq) if cur.execute("SELECT 1 FROM events WHERE seq = ?", (seq,)).fetchone() \
                else None
            if found is None:
                raise JournalError(Msg.of("journal.no_entry", seq=seq))
            digest = found
            seal = self._key.seal(f"snapshot {seq} {digest} {text}")
            cur.execute(
                "INSERT OR REPLACE INTO snapshots (seq, event_hash, state, mac) VALUES (?, ?, ?, ?)",
                (seq, digest, text, seal),
            )
            cur.execute(
                "DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)",
                (SNAPSHOTS_KEPT,),
            )

    def archive(self, through: int) -> Path:
        """Move entries up to ``through`` (the end of a closed gaming day) to an archive file
        beside the journal, verifiable on its own (with its copy of the table key), and go on
        from its head: recorded as a ``journal_archived`` entry, and every read, recall, report
        and verify goes through the archives too.

        Crash-safe: the archive is written, synced and verified under a temporary name and
        renamed; only then, in one transaction, the live file records it and drops those
        entries. Killed before that commit, nothing has moved (a left-over archive file is
        rewritten by the next run); after it, everything has.
        """
        if self.read_only:
            raise JournalError(Msg.of("journal.read_only", path=self.path))
        first = self.first_seq
        with self._lock:
            head = self._entry_hash(through) if first <= through <= self._last_seq else None
        if head is None:
            raise JournalError(Msg.of("archive.nothing", path=self.path))
        name = f"{self.path.stem}.archive-{first}-{through}{self.path.suffix}"
        target = self.path.parent / name
        self._write_archive(target, through, head)
        body = JournalArchived(name, through, head)
        with self._lock, self.transaction() as cur:
            self._append_in(cur, body.type, body.to_payload(), round_id=0, actor=None)
            archives = [*self._archives, name]
            cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('archives', ?)", (json.dumps(archives),))
            cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('base', ?)", (f"{through}:{head}",))
            self._make_whole(cur, through + 1)
            cur.execute("DROP TRIGGER events_no_delete")
            cur.execute("DELETE FROM events WHERE seq <= ?", (through,))
            cur.execute(_NO_DELETE)
            # The snapshot at the day's close stays (a restart goes on from it); older ones go.
            cur.execute("DELETE FROM snapshots WHERE seq < ?", (through,))
        with self._lock:
            self._archives, self._base = archives, (through, head)
            self._files.close()
            self._files = self._files_of(self._conn, archives, self._base)
            self._conn.execute("VACUUM")  # give the moved entries' space back
        return target

    def _make_whole(self, cur: sqlite3.Cursor, seq: int) -> None:
        """Store entry ``seq`` whole (its time, round and both hashes), as a file's first
        row is: the entries before it are moving to an archive. Its hash is unchanged: it covers
        the row resolved, whatever is left to the row before."""
        row = cur.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq = ?", (seq,)).fetchone()
        before, state = self._state_at(seq - 1), self._state_at(seq)
        if row is None or _is_full(row[9]) or before is None or state is None:
            return
        resolved, _ = resolve_row(row, before[2], tuple(self._staff))
        cur.execute("DROP TRIGGER events_no_update")
        cur.execute("UPDATE events SET ts = ?, round_id = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                    (resolved[1], resolved[3], bytes.fromhex(before[1]), bytes.fromhex(state[1]), seq))
        cur.execute(_NO_UPDATE)

    def _write_archive(self, target: Path, through: int, head: str) -> None:
        from shared.journal.archive import write_archive  # a close's archive: not at every launch

        meta = {"schema": str(SCHEMA_VERSION), "table_id": self.table_id, "game": self.game, "mode": self._mode,
                "archive_of": self.path.name, "head": self._chain.head_record(through, head), "keyed_from": "1",
                "payload_dictionary": self._dictionary.decode("utf-8"), "roles": json.dumps(self._roles),
                "types": json.dumps(self._types), "type_index_from": str(self._type_index_from),
                "staff": json.dumps(self._staff)}
        if self._base[0]:
            meta["base"] = f"{self._base[0]}:{self._base[1]}"
        write_archive(self.path, target, through, _schema(self._type_index_from), STORED_COLUMNS, meta, _verify_file)

    def _release_writer_lock(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None

    def _close_all(self) -> None:
        if hasattr(self, "_files"):  # (an open that failed before its files were listed)
            self._files.close()
        self._conn.close()
        self._release_writer_lock()
        self.closed = True

    def close(self) -> None:
        with self._lock:
            self._close_all()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, table_id={self.table_id!r}, game={self.game!r}, last_seq={self._last_seq})"


def _code(cur: sqlite3.Cursor, key: str, names: list[str], codes: dict[str, int], name: str) -> int:
    """``name``'s place in one of the file's code lists (meta ``key``), added there if new."""
    code = codes.get(name)
    if code is None:
        code = codes[name] = len(names)
        names.append(name)
        cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, json.dumps(names)))
    return code


def _verify_file(path: Path) -> tuple[VerifyReport, int]:
    """An archive file's own verify (opened read-only, from its base) and its last seq."""
    with Journal.open_existing(path) as archived:
        return archived.verify(), archived.last_seq
