"""Reading a journal's rows: each stored row, in any file of its history (the archives and the
live file), given back as the entry it records, with its previous hash and its hash
(recomputed where a row stores only a tag, resolved from the row before where it stores only
what differs from it). ``Journal`` reads through this."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Generator, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from shared.journal.errors import _broken, _damaged
from shared.journal.files import Files, _Source
from shared.journal.format import (
    EVENT_COLUMNS,
    Context,
    Event,
    _hash_text,
    _is_full,
    _parse_base,
    _row_to_event,
    payload_text,
    resolve_row,
    ts_text,
)
from shared.journal.keys import TableKey
from shared.journal.read import ReadView
from shared.journal.verify import Chain

# An entry as the one after it goes on from it: (seq, hash, what it leaves to the next row).
_State = tuple[int, str, Context | None]


class RowReading:
    """The reading half of ``Journal``: the rows of its files as entries (its codes and key are
    the journal's own), and the reads the console and its tools make of them (entries, rounds,
    read views, the newest snapshot)."""

    path: Path
    table_id: str
    _conn: sqlite3.Connection
    _archive_bases: dict[str, tuple[int, str]]
    _dictionary: bytes
    _roles: tuple[str, ...]
    _types: list[str]
    _type_codes: dict[str, int]
    _type_index_from: int
    _staff: list[str]
    _staff_codes: dict[str, int]
    _key: TableKey | None
    _files: Files
    _lock: threading.RLock

    def _rows(self, files: Files, where: str = "1", params: tuple[Any, ...] = (), *, after: int = 0,
              before: int | None = None, newest_first: bool = False) -> Generator[tuple[Any, ...], None, None]:
        """The stored rows matching ``where`` with seq above ``after`` (and below ``before``),
        across the files that range reaches, in seq order (or newest first), each with its
        previous hash filled in and its storage read back (time, table and hashes as texts)."""
        for source in reversed(files.sources) if newest_first else files.sources:
            if source.reaches(after, before):
                yield from self._source_rows(files, source, where, params, after=after, before=before,
                                             newest_first=newest_first)

    def _source_rows(self, files: Files, source: _Source, where: str, params: tuple[Any, ...], *, after: int = 0,
                     before: int | None = None, newest_first: bool = False) -> Generator[tuple[Any, ...], None, None]:
        """``_rows`` of one file."""
        bound = "" if before is None else f" AND seq < {int(before)}"
        order = "DESC" if newest_first else "ASC"
        base = files.base(source)
        with files.using(source) as conn:
            cursor = conn.execute(f"SELECT {EVENT_COLUMNS} FROM events e WHERE seq > ?{bound} AND ({where}) "
                                  f"ORDER BY seq {order}", (after, *params))
            try:
                previous: _State | None = None  # the row just read
                for row in cursor:
                    row, prev_text, hash_text, context = self._read_row(files, base, row, previous)
                    previous = (row[0], hash_text, context)
                    seq, ts, table_id, round_id, staff_id, role, type_, payload, _, _ = row
                    name = self._type_name(files.live, type_) if type(type_) is int else type_
                    yield (seq, ts_text(ts), self.table_id if table_id is None else table_id, round_id, staff_id,
                           self._roles[role] if type(role) is int else role, name,
                           payload_text(payload, self._dictionary), prev_text, hash_text)
            finally:
                cursor.close()

    def _read_row(self, files: Files, base: tuple[int, str], row: tuple[Any, ...],
                  before: _State | None) -> tuple[tuple[Any, ...], str, str, Context | None]:
        """A row as its hash covers it (``resolve_row``), its
        previous hash and its hash, and what it leaves to the next row. A checkpoint stores both
        hashes and is whole; another row goes on from the row before (``before``, just read, or
        recomputed from the checkpoint before it) and its hash is recomputed (its stored tag is
        only for verify). ``base``: what the row's file goes on from."""
        seq, stored_prev, stored = row[0], row[8], row[9]
        full = _is_full(stored)
        if before is None or before[0] != seq - 1:
            before = None
            if seq - 1 == base[0]:
                before = (seq - 1, base[1], None)
            elif not (full and stored_prev is not None):
                before = self._state_at(seq - 1, files)
        if type(row[4]) is int and row[4] >= len(self._staff):
            self._reload_codes(files.live)
        row, context = resolve_row(row, None if before is None else before[2], tuple(self._staff))
        prev = _hash_text(stored_prev) if stored_prev is not None else before[1] if before is not None else ""
        return row, prev, _hash_text(stored) if full else self._row_hash(files.live, row, prev), context

    def _row_hash(self, conn: sqlite3.Connection, row: tuple[Any, ...], prev: str) -> str:
        """A row's hash recomputed ("" if it cannot be: its codes or link edited)."""
        try:
            return self._chain.row_digest(row, prev)
        except IndexError:  # a type code new since this journal read them
            self._type_name(conn, len(self._types))
        except ValueError:
            return ""
        try:
            return self._chain.row_digest(row, prev)
        except (IndexError, ValueError):
            return ""

    def _type_name(self, conn: sqlite3.Connection, code: int) -> str:
        """A type code's name; a code new since this journal read its meta (another
        connection's writer added it) is read again from the file."""
        if code >= len(self._types):
            self._reload_codes(conn)
        return self._types[code] if code < len(self._types) else str(code)

    def _reload_codes(self, conn: sqlite3.Connection) -> None:
        """Read the type and staff codes again (another connection's writer added some)."""
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('types', 'staff')").fetchall())
        self._types = json.loads(meta.get("types", "[]"))
        self._type_codes = {name: code for code, name in enumerate(self._types)}
        self._staff = json.loads(meta.get("staff", "[]"))
        self._staff_codes = {name: code for code, name in enumerate(self._staff)}

    def _type_filter(self, types: Iterable[str]) -> tuple[str, list[Any]]:
        """The WHERE term selecting entries of ``types``, with its parameters. It matches
        their codes (and a name stored as text); when none is a type of play, the term repeats
        the type index's bound, which lets SQLite use that partial index."""
        wanted = sorted(types)
        params: list[Any] = [self._type_codes.get(name, name) for name in wanted]
        term = f"type IN ({', '.join('?' * len(params))})"
        if all(type(code) is not int or code >= self._type_index_from for code in params):
            term += f" AND type >= {int(self._type_index_from)}"
        return term, params

    def _first(self, where: str, params: tuple[Any, ...], *, after: int = 0, before: int | None = None,
               newest_first: bool = False) -> Event | None:
        with self._lock:
            rows = self._rows(self._files, where, params, after=after, before=before, newest_first=newest_first)
            row = next(rows, None)
            rows.close()
        return _row_to_event(row) if row else None


    @property
    def _chain(self) -> Chain:
        assert self._key is not None
        return Chain(self._key, self.table_id, self._roles, tuple(self._types), tuple(self._staff))

    def _entry_hash(self, seq: int, files: Files | None = None) -> str | None:
        """The hash of entry ``seq``, in the live file or the archive that holds it (see ``_state_at``)."""
        state = self._state_at(seq, files)
        return None if state is None else state[1]

    def _state_at(self, seq: int, files: Files | None = None) -> _State | None:
        """Entry ``seq`` as the entry after it goes on from it: (seq, hash, what it leaves to the
        next row), in the live file or the archive that holds it. The hash stored, or (an entry
        between checkpoints) recomputed from the checkpoint before it, from which its time and
        round are resolved too."""
        files = files or self._files
        staff = tuple(self._staff)
        for source in reversed(files.sources):
            if not source.holds(seq):
                continue
            with files.using(source) as conn:
                if conn.execute("SELECT 1 FROM events WHERE seq = ?", (seq,)).fetchone() is None:
                    continue
                mark = conn.execute("SELECT seq FROM events WHERE seq <= ? AND length(hash) >= 32 "
                                    "ORDER BY seq DESC LIMIT 1", (seq,)).fetchone()
                after, digest = (mark[0] - 1, "") if mark else files.base(source)
                context: Context | None = None
                for entry in conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
                                          (after, seq)).fetchall():
                    entry, context = resolve_row(entry, context, staff)
                    digest = _hash_text(entry[9]) if _is_full(entry[9]) else self._row_hash(files.live, entry, digest)
                return seq, digest, context
        return None

    def _round_stretches(self, files: Files, source: _Source, round_id: int) -> list[tuple[Any, ...]]:
        """A round's rows in one file, the stretches that begin at the rows storing its
        round (its index) and run while the rows after them leave their round to the row before
        (a file's first row stores its round: no stretch runs across files)."""
        with files.using(source) as conn:
            starts = [seq for (seq,) in conn.execute("SELECT seq FROM events WHERE round_id = ? ORDER BY seq",
                                                     (round_id,))]
        rows: list[tuple[Any, ...]] = []
        for start in starts:
            if rows and rows[-1][0] >= start:
                continue  # a checkpoint inside a stretch already read
            stretch = self._source_rows(files, source, "1", (), after=start - 1)
            try:
                for row in stretch:
                    if row[3] != round_id:
                        break
                    rows.append(row)
            finally:
                stretch.close()
        return rows

    # --- the entries, for the console and its tools ---------------------------------------

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A read outside any write transaction (used by the staff registry)."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def events(self, after: int = 0, types: Iterable[str] | None = None) -> Iterator[Event]:
        """The entries after ``after``, oldest first; only of ``types`` if given: the type index
        finds them, and no entry of another type is read (each row read has its hash worked out)."""
        term, params = self._type_filter(types) if types is not None else ("1", [])
        with self._lock:
            rows = list(self._rows(self._files, term, tuple(params), after=after))
        for row in rows:
            yield _row_to_event(row)

    @contextmanager
    def _reader(self) -> Iterator[Files]:
        """The files as of one read transaction of the live file: a consistent view that does
        not hold up the croupier's appends while a long chain is read, with the archives that
        transaction's meta names (archive files never change). (An in-memory journal, used by
        tests, has only the one connection.)"""
        in_memory = str(self.path) == ":memory:"
        if in_memory:
            self._lock.acquire()
            conn = self._conn
        else:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        files: Files | None = None
        try:
            conn.execute("BEGIN")
            meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('archives', 'base')").fetchall())
            files = self._files_of(conn, json.loads(meta.get("archives", "[]")), _parse_base(meta.get("base")))
            yield files
        finally:
            if files is not None:
                files.close()
            if in_memory:
                conn.execute("COMMIT")
                self._lock.release()
            else:
                conn.close()

    @contextmanager
    def read_view(self) -> Iterator[ReadView]:
        """A consistent read of the whole journal, streamed (reports on long histories)."""
        with self._reader() as files:
            view = ReadView(files, self._rows, self._type_filter, self._entry_hash)
            try:
                yield view
            finally:
                view.close()

    def anchor(self) -> tuple[str, int]:
        """(head hash, entry count): the head to keep outside the journal for ``verify(anchor=...)``."""
        with self.read_view() as view:
            return view.head()

    def last_event_of(self, type: str) -> Event | None:
        """The newest entry of one type (e.g. the table configuration in force)."""
        term, params = self._type_filter([type])
        return self._first(term, tuple(params), newest_first=True)

    def event(self, seq: int) -> Event | None:
        return self._first("1", (), after=seq - 1, before=seq + 1)

    def round_events(self, round_id: int) -> list[Event]:
        """Every entry of one round, oldest first. Each game numbers its rounds upward, so the
        files are read newest first, down to the first whose earliest round is before this one
        (a recent round's recall reads only the live file)."""
        files = self._files
        rows: list[tuple[Any, ...]] = []
        with self._lock:
            for source in reversed(files.sources):
                rows[:0] = self._round_stretches(files, source, round_id)
                with files.using(source) as conn:
                    earliest = conn.execute("SELECT MIN(round_id) FROM events WHERE round_id > 0").fetchone()[0]
                if earliest is not None and earliest < round_id:
                    break
        return [_row_to_event(row) for row in rows]

    def last_round_ids(self, n: int) -> list[int]:
        """The ``n`` most recent round ids (> 0), oldest first."""
        found: list[int] = []
        files = self._files
        with self._lock:
            for source in reversed(files.sources):
                with files.using(source) as conn:
                    cursor = conn.execute("SELECT round_id FROM events WHERE round_id > 0 ORDER BY seq DESC")
                    try:
                        for (round_id,) in cursor:
                            if round_id not in found:
                                found.append(round_id)
                                if len(found) >= n:
                                    return found[::-1]
                    finally:
                        cursor.close()
        return found[::-1]

    def _files_of(self, conn: sqlite3.Connection, archives: list[str], base: tuple[int, str]) -> Files:
        """The files a read through ``conn`` goes through: the archives (oldest first) and the
        live file from ``base``; a missing archive file is refused."""
        live_path = None if str(self.path) == ":memory:" else self.path
        return Files(conn, base, archives, live_path, self._archive_bases)

    def _latest_snapshot_row(self, files: Files) -> tuple[Any, ...] | None:
        """(seq, event hash, state, seal, the hash of its entry now) of the newest snapshot."""
        row = files.live.execute("SELECT seq, event_hash, state, mac FROM snapshots ORDER BY seq DESC LIMIT 1"
                                 ).fetchone()
        return None if row is None else (*row, self._entry_hash(row[0], files))

    def latest_snapshot(self) -> tuple[int, dict[str, Any]] | None:
        """The newest snapshot, or None; JournalError if it does not match its entry and seal
        (a restart never trusts an edited state)."""
        with self._lock:
            latest = self._latest_snapshot_row(self._files)
        if latest is None:
            return None
        problem = self._chain.snapshot_problem(*latest)
        if problem is not None:
            raise _damaged(_broken(0, problem.seq, problem.why))
        return latest[0], json.loads(latest[2])
