"""Checking a journal's chain: each entry's place, link and hash, the snapshots' seals, the
recorded head and an anchor kept elsewhere (``Journal.verify`` and a writer's start check)."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Callable, Container
from concurrent.futures import Executor
from dataclasses import field
from pathlib import Path

from shared.journal.errors import VerifyReport, _broken, _Problem
from shared.journal.files import Files
from shared.journal.format import (
    GENESIS_HASH,
    EVENT_COLUMNS,
    TAG_BYTES,
    Context,
    _hash_text,
    context_at,
    resolve_row,
    row_message,
)
from shared.journal.keys import TableKey
from shared.messages import Msg
from shared.record import record

# A snapshot as verify reads it: (hash of its entry, saved state, seal or None).
Snapshot = tuple[str, str, str | None]
# A file of at least this many entries is verified in two processes (each half from its stored
# start hash); below it, starting a process costs more than it gains.
PARALLEL_FROM = 300_000


def _is_hash(text: str) -> bool:
    return len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


@record
class Chain:
    """How one journal's entries are hashed and sealed: its table key, its table, and its
    role, type and staff codes (each hash covers the row as stored, codes by name)."""

    key: TableKey
    table_id: str
    roles: tuple[str, ...]
    types: tuple[str, ...] = ()
    staff: tuple[str, ...] = ()

    def row_digest(self, row: tuple[object, ...], prev_hash: str) -> str:
        """An entry's hash: the keyed BLAKE2b (a MAC by design, RFC 7693) of its row, resolved,
        after the previous hash."""
        message = row_message(bytes.fromhex(prev_hash), row, self.roles, self.types)
        return hashlib.blake2b(message, digest_size=32, key=self.key.chain).hexdigest()

    def head_record(self, seq: int, digest: str) -> str:
        return f"{seq}:{digest}:{self.key.seal(f'head {seq} {digest}')}"

    def head_problem(self, record: str | None, last_seq: int, hash_at: Callable[[int], str | None]) -> _Problem | None:
        """What is wrong with the recorded head against the journal's entries, if anything."""
        seq_text, _, rest = (record or "").partition(":")
        digest, _, seal = rest.partition(":")
        if not seq_text.isdigit() or not hmac.compare_digest(self.key.seal(f"head {seq_text} {digest}"), seal):
            return _Problem(last_seq, Msg.of("journal.verify_head_seal"))
        seq = int(seq_text)
        if seq > last_seq:
            return _Problem(last_seq + 1, Msg.of("journal.verify_missing_at_end", seq=seq))
        if seq < last_seq:
            return _Problem(seq + 1, Msg.of("journal.verify_not_by_console", seq=seq))
        if (GENESIS_HASH if seq == 0 else hash_at(seq)) != digest:
            return _Problem(seq, Msg.of("journal.verify_last_differs"))
        return None

    def snapshot_problem(self, seq: int, event_hash_: str, state: str, seal: str | None,
                         entry_hash: str | None) -> _Problem | None:
        if entry_hash != event_hash_:
            return _Problem(seq, Msg.of("journal.verify_snapshot_entry"))
        if not hmac.compare_digest(
            self.key.seal(f"snapshot {seq} {event_hash_} {state}"), seal or ""
        ):
            return _Problem(seq, Msg.of("journal.verify_snapshot_seal"))
        return None

    def walk(self, conn: sqlite3.Connection, after: int, prev_hash: str,
             visit: Callable[[int, str], _Problem | None] | None = None, *, upto: int | None = None,
             watch: Container[int] | None = None) -> tuple[int, _Problem | None, str]:
        """Check every entry of one file after ``after`` (up to ``upto``): its place, its link
        and its hash; ``visit`` each (only those in ``watch``, if given).
        Returns (entries checked, first problem or None, hash of the last entry checked)."""
        if not _is_hash(prev_hash):  # an archive's recorded base edited
            return 0, _Problem(after + 1, Msg.of("journal.verify_link")), prev_hash
        bound = "" if upto is None else f" AND seq <= {int(upto)}"
        # What the entry before the first one leaves to it (none at a file's start).
        before = context_at(conn, after, self.staff)
        cursor = conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq > ?{bound} ORDER BY seq", (after,))
        try:
            return self._walk_rows(cursor, after + 1, prev_hash, before, visit, watch)
        finally:
            cursor.close()

    def _walk_rows(self, cursor: sqlite3.Cursor, expected_seq: int, prev_hash: str, before: Context | None,
                    visit: Callable[[int, str], _Problem | None] | None,
                    watch: Container[int] | None) -> tuple[int, _Problem | None, str]:
        """Each row's place, link and hash: a usual row's in line (its time and round from the
        row before, its codes' names encoded once, the message built as ``row_message`` builds
        it, one keyed BLAKE2b: a year's verify is bound by this loop); any other row takes
        ``_row_problem``."""
        same = hmac.compare_digest
        keyed = hashlib.blake2b(digest_size=32, key=self.key.chain)
        staff = [f"{name!r}|".encode() for name in self.staff]
        roles = [f"{name!r}|".encode() for name in self.roles]
        types = [f"{name!r}|b".encode() for name in self.types]
        n_staff, n_roles, n_types = len(staff), len(roles), len(types)
        prev = bytes.fromhex(prev_hash)
        micros, round_ = before if before is not None else (0, None)
        checked = 0
        for row in cursor:
            seq, ts, _, round_id, staff_id, role, type_, payload, row_prev, stored = row
            if seq != expected_seq:
                return checked, _Problem(expected_seq, Msg.of("journal.verify_entry_missing", seq=seq)), prev.hex()
            full = type(stored) is bytes and len(stored) >= 32
            if round_id is None:
                round_id = round_
            if type(ts) is int and type(payload) is bytes and type(stored) is bytes and type(round_id) is int \
                    and type(type_) is int and type_ < n_types and type(role) is int and role < n_roles \
                    and type(staff_id) is int and staff_id < n_staff and (row_prev is None or row_prev == prev) \
                    and (full or before is not None):
                if not full:
                    ts += micros
                mac = keyed.copy()
                mac.update(prev + b"%d|%d|%d|" % (seq, ts, round_id) + staff[staff_id] + roles[role] + types[type_])
                mac.update(payload)
                found = mac.digest()
                if not same(found if full else found[:TAG_BYTES], stored):
                    return checked, _Problem(seq, Msg.of("journal.verify_contents")), prev.hex()
                micros, round_ = ts, round_id
            else:
                resolved, (micros, round_) = resolve_row(row, before, self.staff)
                problem, full_hash = self._row_problem(resolved, prev.hex(), _hash_text(stored))
                if problem is not None:
                    return checked, problem, prev.hex()
                found = bytes.fromhex(full_hash)
            before = (micros, round_)
            if visit is not None and (watch is None or seq in watch):
                problem = visit(seq, found.hex())
                if problem is not None:
                    return checked, problem, prev.hex()
            prev = found
            expected_seq += 1
            checked += 1
        return checked, None, prev.hex()

    def _row_problem(self, row: tuple[object, ...], prev_hash: str, row_hash: str) -> tuple[_Problem | None, str]:
        """What is wrong with one stored row whose previous entry's hash is ``prev_hash``, if
        anything, and the row's hash (``row_hash`` as stored: it may be only a tag)."""
        seq, table_id, row_prev = row[0], row[2], row[8]
        assert isinstance(seq, int)
        if row_prev is not None and _hash_text(row_prev) != prev_hash:
            return _Problem(seq, Msg.of("journal.verify_link")), row_hash
        try:
            digest = self.row_digest(row, prev_hash)
        except (ValueError, IndexError):  # an edited hash before, or a code the file does not define
            digest = ""
        if not digest or len(row_hash) not in (TAG_BYTES * 2, len(digest)) \
                or not hmac.compare_digest(digest[:len(row_hash)], row_hash):
            return _Problem(seq, Msg.of("journal.verify_contents")), row_hash
        row_hash = digest
        if table_id is not None and table_id != self.table_id:
            return _Problem(seq, Msg.of("journal.verify_other_table", table=table_id)), row_hash
        return None, row_hash

@record(frozen=False)
class _History:
    """One whole-history verify: what it checks against, and what it saw on the way."""

    chain: Chain
    snapshots: dict[int, Snapshot]
    watched: tuple[int, ...]  # the entries whose hashes the head and the anchor name
    seen: dict[int, str] = field(default_factory=dict)

    @property
    def wanted(self) -> set[int]:
        """The entries ``visit`` has anything to do with."""
        return {*self.watched, *self.snapshots}

    def visit(self, seq: int, digest: str) -> _Problem | None:
        if seq in self.watched:
            self.seen[seq] = digest
        if seq in self.snapshots:
            return self.chain.snapshot_problem(seq, *self.snapshots[seq], digest)
        return None

    def walk(self, files: Files, is_archive: bool) -> tuple[int, int, _Problem | None]:
        """Walk every file oldest first, each through its own connection: (entries checked,
        last seq, first problem or None)."""
        checked, last_seq, last_hash = 0, 0, GENESIS_HASH
        for source in files.sources:
            # Only an archive file verified on its own may start after entry 1 (from its base).
            base = files.base(source)
            if base != (last_seq, last_hash) and not (source is files.sources[0] and is_archive):
                return checked, last_seq, _Problem(last_seq + 1, Msg.of("journal.verify_archive_chain"))
            last_seq, last_hash = base
            with files.using(source) as conn:
                count, problem, last_hash = self._walk_file(conn, base, files.path(source))
            checked, last_seq = checked + count, last_seq + count
            if problem is not None:
                return checked, last_seq, problem
        return checked, last_seq, None

    def _walk_file(self, conn: sqlite3.Connection, base: tuple[int, str],
                   path: Path | None) -> tuple[int, _Problem | None, str]:
        """One file's walk from its ``base``; a long one in two halves at once, the second in
        another process (on ``path``, if any) from its first entry's stored previous hash (the
        first half's walk checks that hash as it checks every one). The lower half's problem,
        if any, is the first."""
        after, prev_hash = base
        last = conn.execute("SELECT MAX(seq) FROM events").fetchone()[0] or after
        # The second half starts after a checkpoint near the middle (its whole hash is stored).
        row = conn.execute("SELECT seq, hash FROM events WHERE seq > ? AND seq <= ? "
                           "AND length(hash) >= 32 ORDER BY seq DESC LIMIT 1",
                           (after, after + (last - after) // 2)).fetchone()
        if path is None or last - after < PARALLEL_FROM or row is None:
            return self.chain.walk(conn, after, prev_hash, self.visit, watch=self.wanted)
        middle = row[0]
        later = {seq: snapshot for seq, snapshot in self.snapshots.items() if seq > middle}
        with _second_process() as pool:
            second = pool.submit(_walk_part, str(path), self.chain, middle, _hash_text(row[1]), last,
                                 later, self.watched)
            count, problem, last_hash = self.chain.walk(conn, after, prev_hash, self.visit, upto=middle,
                                                        watch=self.wanted)
            if problem is not None:
                second.cancel()
                return count, problem, last_hash
            from concurrent.futures.process import BrokenProcessPool  # imported with the pool

            try:
                more, problem, last_hash, seen = second.result()
            except (BrokenProcessPool, OSError):  # no second process could run here: this one walks that half
                part = _History(self.chain, later, self.watched)
                more, problem, last_hash = self.chain.walk(conn, middle, _hash_text(row[1]), part.visit,
                                                           upto=last, watch=part.wanted)
                seen = part.seen
        self.seen.update(seen)
        return count + more, problem, last_hash


def _second_process() -> Executor:
    """The process a long file's second half is walked in. Its module is imported on the first
    long walk, not at every launch (``multiprocessing`` and ``concurrent.futures.process``: ~9 ms
    of a console's start)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


def _walk_part(path: str, chain: Chain, after: int, prev_hash: str, upto: int, snapshots: dict[int, Snapshot],
               watched: tuple[int, ...]) -> tuple[int, _Problem | None, str, dict[int, str]]:
    """The second process's half of a file: its entries after ``after`` up to ``upto`` (what the
    first process's read sees), from ``prev_hash``; with the hashes the head and anchor name."""
    history = _History(chain, snapshots, watched)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        count, problem, last_hash = chain.walk(conn, after, prev_hash, history.visit, upto=upto,
                                               watch=history.wanted)
    finally:
        conn.close()
    return count, problem, last_hash, history.seen


def _head_seq(record: str | None) -> int:
    seq_text = (record or "").partition(":")[0]
    return int(seq_text) if seq_text.isdigit() else 0


def verify_history(chain: Chain, files: Files, *, is_archive: bool,
                   anchor: tuple[str, int] | None) -> VerifyReport:
    """The whole-history verify of ``Journal.verify`` over ``files`` (as of one read
    transaction of the live file)."""
    snapshots: dict[int, Snapshot] = {
        row[0]: row[1:] for row in files.live.execute("SELECT seq, event_hash, state, mac FROM snapshots")
    }
    record = dict(files.live.execute("SELECT key, value FROM meta WHERE key = 'head'").fetchall()).get("head")
    anchor_hash, anchor_count = anchor if anchor is not None else (None, 0)
    history = _History(chain, snapshots, (_head_seq(record), anchor_count))
    checked, last_seq, problem = history.walk(files, is_archive)
    if problem is None:
        problem = _end_problem(history, record, last_seq)
    if problem is None and anchor is not None:
        problem = _anchor_problem(anchor_hash, anchor_count, last_seq, history.seen)
    return VerifyReport(True, checked) if problem is None else _broken(checked, problem.seq, problem.why)


def _end_problem(history: _History, record: str | None, last_seq: int) -> _Problem | None:
    """A snapshot of an entry the journal no longer holds, or a head it does not end at."""
    beyond = [seq for seq in history.snapshots if seq > last_seq]
    if beyond:
        return _Problem(last_seq + 1, Msg.of("journal.verify_snapshot_beyond", seq=max(beyond)))
    return history.chain.head_problem(record, last_seq, history.seen.get)


def _anchor_problem(anchor_hash: str | None, anchor_count: int, last_seq: int,
                    seen: dict[int, str]) -> _Problem | None:
    if anchor_count > last_seq:
        return _Problem(last_seq + 1, Msg.of("journal.verify_anchor_cut", last=last_seq, anchor=anchor_count))
    if (GENESIS_HASH if anchor_count == 0 else seen.get(anchor_count)) != anchor_hash:
        return _Problem(anchor_count, Msg.of("journal.verify_anchor_differs"))
    return None
