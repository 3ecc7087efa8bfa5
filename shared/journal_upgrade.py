"""``journal upgrade``: converting a journal of an older row format (1-4) into the current one,
once. The only code that reads those formats: the console and every other tool open format 5
only (an older file, an open door to a history forged without the key, is refused there).

The conversion verifies the old file first, as it was verified when it was current: formats
1-3 hash a canonical text of each entry (plain SHA-256 before the file was keyed, HMAC-SHA-256
from ``keyed_from`` on), format 4 each stored row (HMAC-SHA-256; rows between checkpoints keep a
4-byte tag), and a keyed file's sealed head. Then it writes the new file beside it — every
entry copied one for one (its seq, time, round, staff, role, type and payload) and its latest sealed
snapshot re-sealed to its entry, keyed under
the same table key (so the staff's peppered PIN hashes stay valid; a file that never had a
key gets a new one, and its pre-pepper hashes are peppered) — checks a supervisor's ID and
PIN against it, records the conversion there (``journal_upgraded``: the old head and the new
one), keeps the old file (and its key and archives) aside under ``.format-N`` names, and moves
the new one into place. Any failure before that last step leaves the old file as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import sqlite3
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.actor import Actor, Role
from shared.events import EventCodec, JournalUpgraded
from shared.journal import GENESIS_HASH, SCHEMA_VERSION, Journal, JournalError, TableKey, key_path, ts_text
from shared.journal.errors import _broken
from shared.journal.format import payload_text, row_message
from shared.journal.keys import KEY_BYTES, WriterLock, _read_key, _sync_folder, _write_private
from shared.messages import Msg
from shared.record import record
from shared.staff import PEPPERED, STAFF_SCHEMA, Credentials, StaffRegistry

# Formats 1-3: the previous hash a row leaves out is the hash of the row before it.
_TEXT_COLUMNS = ("seq, ts, table_id, round_id, staff_id, role, type, payload, "
                 "COALESCE(prev_hash, (SELECT p.hash FROM events p WHERE p.seq = e.seq - 1)), hash")
_ROW_COLUMNS = "seq, ts, table_id, round_id, staff_id, role, type, payload, prev_hash, hash"
_TAG_BYTES = 4  # format 4 keeps this much of a hash between checkpoints
_HASH = re.compile(r"\b[0-9a-f]{64}\b")


@record
class Entry:
    """One entry of the old file, as its hash covered it."""

    seq: int
    ts: str
    round_id: int
    staff_id: str | None
    role: str | None
    type: str
    payload: str  # its canonical JSON text


@dataclass
class OldJournal:
    """An older file, verified: its meta, key (None if it never had one), entries, head, its
    latest sealed snapshot (seq, saved state) if it has one, and the entries whose hashes that
    state names (old hash: seq)."""

    path: Path
    meta: dict[str, str]
    key: TableKey | None
    entries: list[Entry]
    head: tuple[str, int]
    snapshot: tuple[int, str] | None
    named: dict[str, int]

    @property
    def format_(self) -> int:
        return int(self.meta["schema"])


def _hex(stored: Any) -> str:
    return stored.hex() if type(stored) is bytes else str(stored)


def _payload(stored: str | bytes, dictionary: bytes | None) -> str:
    """A stored payload's text: format 2 zlib-compressed a long one, formats 3-4 raw-deflated
    any one with the file's dictionary."""
    if isinstance(stored, bytes) and dictionary is None:
        return zlib.decompress(stored).decode("utf-8")
    return payload_text(stored, dictionary or b"")


def _text(value: str | None) -> str:
    return json.dumps(value, ensure_ascii=False)


def _body_text(row: tuple[Any, ...], prev: str, table_id: str, dictionary: bytes | None,
               roles: list[str]) -> str:
    """Formats 1-3: the canonical text an entry's hash covers (the keys in sorted order, the
    payload spliced as stored: a payload edited in any way no longer gives the same text)."""
    seq, ts, row_table, round_id, staff_id, role, type_, stored, _, _ = row
    return (f'{{"payload":{_payload(stored, dictionary)},"prev_hash":{_text(prev)},'
            f'"role":{_text(roles[role] if type(role) is int else role)},"round_id":{json.dumps(round_id)},'
            f'"seq":{json.dumps(seq)},"staff_id":{_text(staff_id)},'
            f'"table_id":{_text(table_id if row_table is None else row_table)},'
            f'"ts":{_text(ts_text(ts))},"type":{_text(type_)}}}')


class _Walk:
    """One file's walk: every row's place, link and hash, in seq order."""

    def __init__(self, meta: dict[str, str], key: TableKey | None) -> None:
        self.format_ = int(meta["schema"])
        self.table_id = meta["table_id"]
        self.keyed_from = int(meta.get("keyed_from", "0")) or None
        self.key = key
        self.dictionary = meta["payload_dictionary"].encode("utf-8") if self.format_ >= 3 else None
        self.roles: list[str] = json.loads(meta.get("roles", "[]"))
        self.types: list[str] = json.loads(meta.get("types", "[]"))

    def _keyed(self, seq: int) -> bool:
        return self.key is not None and self.keyed_from is not None and seq >= self.keyed_from

    def digest(self, row: tuple[Any, ...], prev: str) -> str:
        seq = row[0]
        if self.format_ >= 4:
            message = row_message(bytes.fromhex(prev), row, tuple(self.roles), tuple(self.types))
            if self._keyed(seq):
                assert self.key is not None
                return hmac.digest(self.key.chain, message, "sha256").hex()
            return hashlib.sha256(message).hexdigest()
        body = _body_text(row, prev, self.table_id, self.dictionary, self.roles)
        if self._keyed(seq):
            assert self.key is not None
            return self.key.seal(body)
        return hashlib.sha256(body.encode("utf-8")).hexdigest()

    def entries(self, conn: sqlite3.Connection, base: tuple[int, str]) -> Iterator[tuple[Entry, str]]:
        """Each entry after ``base`` with its hash; JournalError (the report of verify) at the
        first one that is missing, edited or forged."""
        seq, prev = base
        columns = _ROW_COLUMNS if self.format_ >= 4 else _TEXT_COLUMNS
        for row in conn.execute(f"SELECT {columns} FROM events e ORDER BY seq"):
            seq += 1
            if row[0] != seq:
                raise _refused(seq, Msg.of("journal.verify_entry_missing", seq=row[0]))
            stored_prev, stored = row[8], _hex(row[9])
            if stored_prev is not None and _hex(stored_prev) != prev:
                raise _refused(seq, Msg.of("journal.verify_link"))
            try:
                digest = self.digest(row, prev)
            except (ValueError, IndexError, zlib.error, UnicodeDecodeError):
                digest = ""
            short = self.format_ >= 4 and len(stored) == _TAG_BYTES * 2
            if not digest or not hmac.compare_digest(digest[:len(stored)] if short else digest, stored):
                raise _refused(seq, Msg.of("journal.verify_contents"))
            if row[2] is not None and row[2] != self.table_id:
                raise _refused(seq, Msg.of("journal.verify_other_table", table=row[2]))
            role, type_ = row[5], row[6]
            yield Entry(seq, ts_text(row[1]), row[3], row[4], self.roles[role] if type(role) is int else role,
                        self.types[type_] if type(type_) is int else type_,
                        _payload(row[7], self.dictionary)), digest
            prev = digest


class BrokenJournal(JournalError):
    """The older file does not verify (or is not the anchored one): it is not converted."""


def _refused(seq: int, why: Msg) -> BrokenJournal:
    return BrokenJournal(Msg.of("upgrade.broken", report=_broken(seq - 1, seq, why)))


def _meta(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    finally:
        conn.close()


def read_old(path: Path, game: str) -> OldJournal:
    """The older journal at ``path``, verified (its archives, oldest first, then the file)."""
    try:
        meta = _meta(path)
    except sqlite3.DatabaseError:
        raise JournalError(Msg.of("journal.not_a_journal", path=path)) from None
    if meta.get("game") != game or "table_id" not in meta:
        raise JournalError(Msg.of("journal.not_a_journal", path=path))
    if int(meta.get("schema", "1")) >= SCHEMA_VERSION:
        raise JournalError(Msg.of("upgrade.current", path=path))
    meta.setdefault("schema", "1")
    key = _read_key(key_path(path), meta["table_id"], game)
    if key is None and "keyed_from" in meta:
        raise JournalError(Msg.of("journal.key_missing", path=key_path(path)))
    walk = _Walk(meta, key)
    entries: list[Entry] = []
    last = (0, GENESIS_HASH)
    snapshot = _latest_snapshot(path, key)
    snapshot_hash = None
    in_state = set(_HASH.findall(snapshot[2])) if snapshot is not None else set()
    named: dict[str, int] = {}
    for name in [*json.loads(meta.get("archives", "[]")), None]:
        file = path if name is None else path.parent / name
        file_meta = meta if name is None else _meta(file)
        base_seq, _, base_hash = file_meta.get("base", f"0:{GENESIS_HASH}").partition(":")
        if (int(base_seq), base_hash) != last:
            raise _refused(last[0] + 1, Msg.of("journal.verify_archive_chain"))
        conn = sqlite3.connect(f"{file.absolute().as_uri()}?mode=ro", uri=True)
        try:
            for entry, digest in walk.entries(conn, last):
                entries.append(entry)
                last = (entry.seq, digest)
                if snapshot is not None and entry.seq == snapshot[0]:
                    snapshot_hash = digest
                if digest in in_state:
                    named[digest] = entry.seq
        finally:
            conn.close()
    if key is not None and "head" in meta:  # (files keyed before heads were sealed have none)
        seq_text, _, rest = meta.get("head", "").partition(":")
        digest, _, seal = rest.partition(":")
        if not hmac.compare_digest(key.seal(f"head {seq_text} {digest}"), seal) or (seq_text, digest) != (
                str(last[0]), last[1]):
            raise _refused(last[0], Msg.of("journal.verify_head_seal"))
    if snapshot is not None and not (snapshot_hash == snapshot[1] and key is not None and hmac.compare_digest(
            key.seal(f"snapshot {snapshot[0]} {snapshot[1]} {snapshot[2]}"), snapshot[3] or "")):
        raise _refused(snapshot[0], Msg.of("journal.verify_snapshot_seal"))
    return OldJournal(path, meta, key, entries, (last[1], last[0]),
                      None if snapshot is None else (snapshot[0], snapshot[2]), named)


def _latest_snapshot(path: Path, key: TableKey | None) -> tuple[int, str, str, str | None] | None:
    """The old file's newest sealed snapshot (seq, entry hash, state, seal); None if it has
    none, or only ones saved before snapshots were sealed (the new file replays instead)."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        if key is None or "mac" not in {row[1] for row in conn.execute("PRAGMA table_info(snapshots)")}:
            return None
        row = conn.execute("SELECT seq, event_hash, state, mac FROM snapshots WHERE mac IS NOT NULL "
                           "ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return None if row is None else (row[0], _hex(row[1]), row[2], row[3])


def _aside(path: Path, format_: int) -> Path:
    return path.with_name(f"{path.name}.format-{format_}")


def _staff_rows(path: Path) -> list[dict[str, Any]]:
    """The old file's staff table, row by row (column name: value)."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'staff'").fetchone() is None:
            return []
        cursor = conn.execute("SELECT * FROM staff")
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]
    finally:
        conn.close()


def upgrade(path: Path, game: str, by: Credentials,
            anchor: tuple[str, int] | None = None) -> tuple[JournalUpgraded, OldJournal]:
    """Convert the older journal at ``path`` to the current format, signed by supervisor ``by``
    (checked against the converted file's staff): what it recorded, and the old file as read.
    ``anchor`` (hash, count), kept elsewhere: the old file must end at that head."""
    old = read_old(path, game)
    if anchor is not None and anchor != old.head:
        raise BrokenJournal(Msg.of("upgrade.anchor_differs", head=f"{old.head[0]}:{old.head[1]}",
                                   anchor=f"{anchor[0]}:{anchor[1]}"))
    new = path.with_name(f"{path.name}.upgrading")
    scratch = [new, key_path(new), Path(f"{new}-wal"), Path(f"{new}-shm"), Path(f"{new}.lock")]
    # The old file's writer lock for the whole conversion: one upgrade at a time.
    lock = WriterLock(path, since=datetime.now(UTC).isoformat())
    try:
        for each in scratch:
            each.unlink(missing_ok=True)
        secret = old.key.secret if old.key is not None else os.urandom(KEY_BYTES)
        key_text = json.dumps({"table_id": old.meta["table_id"], "game": game, "keyed_from": 1, "key": secret.hex()})
        _write_private(key_path(new), key_text.encode("utf-8"))
        try:
            recorded = _write_new(old, new, by)
        except BaseException:
            for each in scratch:
                each.unlink(missing_ok=True)
            raise
        # The old file and all that belongs to it go aside; only then the new one is moved in.
        old_files = [path, Path(f"{path}-wal"), Path(f"{path}-shm"), key_path(path)]
        for name in json.loads(old.meta.get("archives", "[]")):
            old_files += [path.parent / name, key_path(path.parent / name)]
        for each in old_files:
            if each.exists():
                os.replace(each, _aside(each, old.format_))
        os.replace(key_path(new), key_path(path))
        os.replace(new, path)
        _sync_folder(path.parent)
        Path(f"{new}.lock").unlink(missing_ok=True)
    finally:
        lock.release()
    return recorded, old


def _write_new(old: OldJournal, new: Path, by: Credentials) -> JournalUpgraded:
    """The new file at ``new`` (its key already beside it): the old entries, its staff, and the
    conversion's record signed by ``by``, verified."""
    training = old.meta.get("mode") == "training"
    with Journal(new, old.meta["table_id"], old.meta["game"], training=training) as journal:
        with journal.transaction() as cur:
            for entry in old.entries:
                actor = None if entry.staff_id is None or entry.role is None else Actor(entry.staff_id, Role(entry.role))
                journal.append_in(cur, entry.type, json.loads(entry.payload), round_id=entry.round_id, actor=actor,
                                  ts=entry.ts)
        _copy_staff(old, journal)
        if old.snapshot is not None:  # a restart need not replay the whole history
            journal.save_snapshot(old.snapshot[0], json.loads(_renamed(old, journal)))
        new_head = f"{journal.last_hash}:{journal.last_seq}"
        actor = StaffRegistry(journal).verify(by, require=Role.SUPERVISOR)
        body = JournalUpgraded(old.format_, f"{old.head[0]}:{old.head[1]}", new_head,
                               _aside(old.path, old.format_).name)
        journal.append(*EventCodec.encode(body), round_id=0, actor=actor)
        report = journal.verify()
        if not report.ok:
            raise JournalError(Msg.of("upgrade.broken", report=report))
    return body


def _renamed(old: OldJournal, journal: Journal) -> str:
    """The old snapshot's state with each entry it names by hash (a Madero round's start) named
    by that entry's new hash."""
    assert old.snapshot is not None
    new = {digest: found.hash for digest, seq in old.named.items() if (found := journal.event(seq)) is not None}
    return _HASH.sub(lambda match: new.get(match[0], match[0]), old.snapshot[1])


def _copy_staff(old: OldJournal, journal: Journal) -> None:
    """The old file's staff rows into the new file's table; a hash written before PINs were
    peppered (the raw scrypt output) is peppered now, with the new file's key. The registry's
    first open records their credentials in the journal (``StaffRegistry._adopt``)."""
    rows = _staff_rows(old.path)
    with journal.transaction() as cur:
        cur.execute(STAFF_SCHEMA)
        names = {row[1] for row in cur.execute("PRAGMA table_info(staff)")}
        for values in rows:
            if len(values["pin_hash"]) != len(PEPPERED) + hashlib.sha256().digest_size:
                values["pin_hash"] = PEPPERED + hmac.new(journal.pin_pepper, values["pin_hash"],
                                                         hashlib.sha256).digest()
            columns = [name for name in values if name in names]
            cur.execute(f"INSERT INTO staff ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                        [values[name] for name in columns])
