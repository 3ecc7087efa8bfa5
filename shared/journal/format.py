"""How entries are stored: the row formats of the ``events`` table (meta ``schema``), the
canonical text each hash covers, and the codecs of the stored columns (time, payload, role,
hash) that give that text back."""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from shared.actor import Role

GENESIS_HASH = "0" * 64
# The row format a new journal is written in (meta ``schema``; a journal keeps the format it
# was created in). 1: every row stores its previous hash, payloads as text, hashes unique.
# 2: the previous hash is implied by the row before (NULL), a long payload is stored
# zlib-compressed (a BLOB), and the hash column has no unique index — the same chain in
# about half the bytes (see bench/README.md). 3: the same rows and hashes in fewer bytes (the
# text every hash covers is unchanged, only its storage): the time as microseconds since the
# epoch (an INTEGER) when that gives back the very text, the table NULL for the journal's own,
# the hash as its 32 raw bytes, and no (type, ts) index (see ``_FORMAT3_EVENTS``). 4: the type
# as a small code (meta ``types``), a type index only over the types read by type, and each HMAC
# over the row's stored bytes instead of a rebuilt text (``row_message``; see ``_FORMAT4_EVENTS``).
# 5: a row between checkpoints stores only what differs from the row before it (its time as
# the microseconds since that row's, its round only when it changes), the staff as a code (meta
# ``staff``), no table column, a round index over the rows that store their round only, and a
# keyed BLAKE2b instead of HMAC-SHA-256 (see ``_FORMAT5_EVENTS``).
SCHEMA_VERSION = 5
# A payload text at least this long is stored compressed when that is smaller (format 2).
COMPRESS_FROM = 160
_DICTIONARY_FILE = Path(__file__).parent.parent / "journal_dictionary.json"

# Entries are never deleted, except when archiving moves them to their archive file.
_NO_DELETE = """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END"""
# Nor changed, except when archiving makes the live file's new first row a whole one (format 5).
_NO_UPDATE = """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END"""

_EVENTS = """CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    table_id TEXT NOT NULL,
    round_id INTEGER NOT NULL,
    staff_id TEXT,
    role TEXT,
    type TEXT NOT NULL,
    payload NOT NULL,
    prev_hash TEXT,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_round ON events (round_id, seq);
CREATE INDEX IF NOT EXISTS events_type ON events (type, seq);
CREATE INDEX IF NOT EXISTS events_type_ts ON events (type, ts)"""

# Format 3: ``ts``, ``role`` and ``hash`` without a declared type, so an INTEGER time, a role's
# code (its place in the file's meta ``roles``) and a BLOB hash are stored as given (a TEXT
# column would turn a number back into text); a text time (one the
# number would not give back exactly) still fits. Readers select by type and seq, never by
# (type, ts): that index was a sixth of a format-2 file.
_FORMAT3_EVENTS = """CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    ts NOT NULL,
    table_id TEXT,
    round_id INTEGER NOT NULL,
    staff_id TEXT,
    role,
    type TEXT NOT NULL,
    payload NOT NULL,
    prev_hash TEXT,
    hash NOT NULL
);
CREATE INDEX IF NOT EXISTS events_round ON events (round_id, seq);
CREATE INDEX IF NOT EXISTS events_type ON events (type, seq)"""

# Format 4: ``type`` holds a code (its place in meta ``types``), so it has no declared type
# either. The type index leaves out the game's own play (``in_play_types``: cards, bets,
# decisions — most entries, never read by type, only by round or in order), whose codes come
# first: it covers the codes from meta ``type_index_from`` on, and a reader selecting only such
# types repeats that bound so SQLite may use it (``Journal._type_filter``).
_FORMAT4_EVENTS = """CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    ts NOT NULL,
    table_id TEXT,
    round_id INTEGER NOT NULL,
    staff_id TEXT,
    role,
    type NOT NULL,
    payload NOT NULL,
    prev_hash TEXT,
    hash NOT NULL
);
CREATE INDEX IF NOT EXISTS events_round ON events (round_id, seq);
CREATE INDEX IF NOT EXISTS events_type ON events (type, seq) WHERE type >= %d"""

# Format 5: a checkpoint row (its whole hash stored, see below) is whole: its time as the
# microseconds since the epoch, its round, its previous hash. Any other row goes on from the row
# before it (``resolve_row``): its time as the microseconds since that row's (a few bytes, not
# eight), its round NULL when it is that row's. A reader of one row starts from the checkpoint
# before it, as it does for the hash; a file's first row is a checkpoint (``Journal.archive``
# makes the live file's new first row one). ``events_round`` covers only the rows that store
# their round (where a round's stretch of rows begins, and the checkpoints): a round's entries
# are the stretches that begin at those rows (``Journal.round_events``). ``staff_id`` holds a
# code (its place in meta ``staff``), ``role`` and ``type`` codes as in format 4.
_FORMAT5_EVENTS = """CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    ts NOT NULL,
    round_id INTEGER,
    staff_id,
    role,
    type NOT NULL,
    payload NOT NULL,
    prev_hash,
    hash NOT NULL
);
CREATE INDEX IF NOT EXISTS events_round ON events (round_id, seq) WHERE round_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_type ON events (type, seq) WHERE type >= %d"""

# Format 4 stores an entry's full hash (and its previous one) only at checkpoints: an entry of a
# type read by type (so a read by type finds both hashes stored), and every CHECKPOINT_EVERY-th
# entry (a reader recomputes at most that many). Any other entry keeps the first TAG_BYTES of
# its hash, so verify still names the very entry that was changed; the chain to the next
# checkpoint and the sealed head is what makes it tamper-proof.
CHECKPOINT_EVERY = 64
TAG_BYTES = 4

# The types of each game's own play, left out of format 4's type index (see above).
_IN_PLAY_TYPES = {
    "madero": ("round_started", "bet_placed", "bets_closed", "decision", "card_keyed"),
    "midi": ("bet_placed", "card", "no_va_mas"),
}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
%s;
%s;
%s;
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY,
    event_hash TEXT NOT NULL,
    state TEXT NOT NULL
);
"""


def _schema(format_: int, type_index_from: int = 0) -> list[str]:
    """The statements that create (or, on an existing file, leave as they are) a file of one
    format; ``type_index_from``: format 4's first indexed type code."""
    events = (_FORMAT5_EVENTS % type_index_from if format_ >= 5 else _FORMAT4_EVENTS % type_index_from
              if format_ == 4 else _FORMAT3_EVENTS if format_ == 3 else _EVENTS)
    text = _SCHEMA % (events, _NO_UPDATE, _NO_DELETE)
    return [statement for statement in text.split(";\n") if statement.strip()]


def _is_full(stored: Any) -> bool:
    """Whether a stored hash is a whole one (any format's), not format 4's short tag."""
    return stored is not None and len(stored) >= 32


def in_play_types(game: str) -> tuple[str, ...]:
    """The types a new format-4 journal of ``game`` codes first and leaves out of its type index."""
    return _IN_PLAY_TYPES.get(game, ())


def row_message(prev_hash: bytes, row: tuple[Any, ...], roles: tuple[str, ...], types: tuple[str, ...]) -> bytes:
    """What a format-4 entry's HMAC covers: the previous entry's hash (32 bytes) and the row's
    values as stored — seq, time, round, staff, role and type (by name: a code and its name are
    the same entry), the payload's stored bytes — so verify neither inflates a payload nor
    rebuilds a text. ``repr`` keeps an int apart from a text and None from "None"; the payload,
    last, is tagged text or bytes. A code the file does not define raises IndexError."""
    seq, ts, _, round_id, staff_id, role, type_, payload, _, _ = row
    if type(role) is int:
        role = roles[role]
    if type(type_) is int:
        type_ = types[type_]
    if type(payload) is bytes:
        kind, data = b"b", payload
    else:
        kind, data = b"t", str(payload).encode()
    return prev_hash + f"{seq!r}|{ts!r}|{round_id!r}|{staff_id!r}|{role!r}|{type_!r}|".encode() + kind + data



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
    payload: dict[str, Any],
    prev_hash: str,
) -> str:
    """The plain SHA-256 hash of an entry (a legacy entry's; a keyed one is ``Journal.hash_of``)."""
    text = _body_text(seq=seq, ts=ts, table_id=table_id, round_id=round_id, staff_id=staff_id, role=role,
                      type=type, payload=payload, prev_hash=prev_hash)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _body_text(
    *,
    seq: int,
    ts: str,
    table_id: str,
    round_id: int,
    staff_id: str | None,
    role: str | None,
    type: str,
    payload: dict[str, Any],
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
    return canonical_json(body)



@dataclass(frozen=True)
class Event:
    seq: int
    ts: str
    table_id: str
    round_id: int
    staff_id: str | None
    role: str | None
    type: str
    payload: dict[str, Any]
    prev_hash: str
    hash: str

    def body_text(self) -> str:
        return _body_text(
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

    def computed_hash(self) -> str:
        """The plain SHA-256 hash (a legacy entry's); ``Journal.hash_ok`` checks any entry."""
        return hashlib.sha256(self.body_text().encode("utf-8")).hexdigest()

    def to_dict(self) -> dict[str, Any]:
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



_EVENT_COLUMNS = "seq, ts, table_id, round_id, staff_id, role, type, payload, prev_hash, hash"
# Format 5 has no table column: its rows are read in the same shape, the table NULL (the journal's own).
_FORMAT5_COLUMNS = "seq, ts, NULL, round_id, staff_id, role, type, payload, prev_hash, hash"
_FORMAT5_STORED = "seq, ts, round_id, staff_id, role, type, payload, prev_hash, hash"


def event_columns(format_: int) -> str:
    """What a reader of a format-4 or later file selects: every row in one shape."""
    return _FORMAT5_COLUMNS if format_ >= 5 else _EVENT_COLUMNS


def stored_columns(format_: int) -> str:
    """The ``events`` columns of a file of ``format_``, as stored (an archive copies them)."""
    return _FORMAT5_STORED if format_ >= 5 else _EVENT_COLUMNS


# Format 5: the (time in microseconds, round) a row leaves to the row after it.
Context = tuple[int, int | None]


def resolve_row(row: tuple[Any, ...], before: Context | None,
                staff: tuple[str, ...]) -> tuple[tuple[Any, ...], Context]:
    """A format-5 row as read, with what it leaves to the row before it (``before``: that
    row's time and round; None at a checkpoint, which is whole) filled in: its time since the
    epoch, its round, its staff by name; and what it leaves to the row after it. An edited row
    resolves to values its hash no longer matches."""
    seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, stored = row
    if type(ts) is int:
        if before is not None and not _is_full(stored):
            ts += before[0]
        micros = ts
    else:
        try:
            micros = _ts_bound(str(ts))
        except ValueError:
            micros = before[0] if before is not None else 0
    if round_id is None and before is not None:
        round_id = before[1]
    if type(staff_id) is int and 0 <= staff_id < len(staff):
        staff_id = staff[staff_id]
    return (seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, stored), (micros, round_id)


def context_at(conn: sqlite3.Connection, seq: int, staff: tuple[str, ...]) -> Context | None:
    """Format 5: the (time, round) entry ``seq`` of one file (``conn``'s) leaves to the entry after it,
    resolved from the checkpoint at or before it (at most ``CHECKPOINT_EVERY`` rows); None if
    the file holds no checkpoint up to it."""
    mark = conn.execute("SELECT seq FROM events WHERE seq <= ? AND length(hash) >= 32 ORDER BY seq DESC LIMIT 1",
                        (seq,)).fetchone()
    if mark is None:
        return None
    before: Context | None = None
    for row in conn.execute(f"SELECT {_FORMAT5_COLUMNS} FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq",
                            (mark[0], seq)):
        _, before = resolve_row(row, before, staff)
    return before


def delta_row(row: tuple[Any, ...], before: Context | None, staff_code: int | None) -> tuple[Any, ...]:
    """A resolved format-5 row as it is stored (``_FORMAT5_STORED``, hashes as given), going
    on from ``before`` unless it is a checkpoint (``before`` None): ``resolve_row`` undone."""
    seq, ts, _, round_id, staff_id, role, type_, payload, prev_hash, stored = row
    if before is not None:
        if type(ts) is int:
            ts -= before[0]
        if round_id == before[1]:
            round_id = None
    return (seq, ts, round_id, staff_id if staff_code is None else staff_code, role, type_, payload, prev_hash, stored)


# What readers of formats 1-3 select from one file (alias ``e``): a format-2 row's previous hash
# is the hash of the row before it (NULL for a file's first row: its base, ``Files.base``).
_READ_COLUMNS = ("seq, ts, table_id, round_id, staff_id, role, type, payload, "
                 "COALESCE(prev_hash, (SELECT p.hash FROM events p WHERE p.seq = e.seq - 1)), hash")


def _parse_base(record: str | None) -> tuple[int, str]:
    if record is None:
        return 0, GENESIS_HASH
    seq, _, digest = record.partition(":")
    return int(seq), digest


def payload_text(stored: str | bytes, dictionary: bytes | None = None) -> str:
    """The canonical JSON text of a stored payload: format 2 zlib-compresses long ones, format 3
    raw-deflates any one with its file's preset ``dictionary`` (meta ``payload_dictionary``)."""
    if isinstance(stored, str):
        return stored
    if dictionary is None:
        return zlib.decompress(stored).decode("utf-8")
    inflater = zlib.decompressobj(-15, zdict=dictionary)
    return (inflater.decompress(stored) + inflater.flush()).decode("utf-8")


def _stored_payload(text: str) -> str | bytes:
    if len(text) >= COMPRESS_FROM:
        packed = zlib.compress(text.encode("utf-8"), 9)
        if len(packed) < len(text):
            return packed
    return text


def _deflated_payload(text: str, dictionary: bytes) -> str | bytes:
    """A format-3 payload: raw deflate with the file's dictionary when that is smaller (short
    payloads shrink too: most of their text is in the dictionary)."""
    data = text.encode("utf-8")
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=dictionary)
    packed = deflater.compress(data) + deflater.flush()
    return packed if len(packed) < len(data) else text


def _role_codes() -> list[str]:
    """The roles a new format-3 journal stores as small numbers (a role not among them is
    stored as its text)."""
    return [str(role) for role in Role]


def payload_dictionary(game: str) -> str:
    """The preset deflate dictionary a new journal of ``game`` records in its meta: payloads of
    that game's usual rounds (``bench/journal_dictionary.py`` writes them); "" for other games."""
    samples = json.loads(_DICTIONARY_FILE.read_text(encoding="utf-8")).get(game, [])
    return "".join(samples)


def _json_string(value: str | None) -> str:
    """``json.dumps(value, ensure_ascii=False)`` without its cost for a plain string
    (the verify of a long history builds one text per entry)."""
    if value is not None and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return json.dumps(value, ensure_ascii=False)


# The few values repeated on every row (table, role, type, staff) are encoded once.
_repeated_string = functools.lru_cache(maxsize=1024)(_json_string)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_US = 86_400_000_000


@functools.lru_cache(maxsize=64)
def _day_text(day: int) -> str:
    return (_EPOCH + timedelta(days=day)).date().isoformat()


def ts_text(stored: Any) -> str:
    """The ISO text of a stored time (format 3 stores most as microseconds since the epoch):
    what ``datetime.isoformat(timespec="microseconds")`` gives in UTC, built without it (the
    verify of a long history builds one per entry)."""
    if type(stored) is not int:
        return stored if type(stored) is str else repr(stored)  # (an edited row: its hash tells)
    day, micros = divmod(stored, _DAY_US)
    seconds, micros = divmod(micros, 1_000_000)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    return f"{_day_text(day)}T{hours:02}:{minutes:02}:{seconds:02}.{micros:06}+00:00"


def _stored_ts(text: str) -> str | int:
    """A time as format 3 stores it: the microseconds since the epoch when they give back
    exactly this text (the hashed one), else the text itself."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return text
    if when.tzinfo is None:
        return text
    micros = (when - _EPOCH) // timedelta(microseconds=1)
    return micros if ts_text(micros) == text else text


def _ts_bound(text: str) -> int:
    """A time bound as microseconds since the epoch, for comparing with format-3 times (a
    bound without a zone is UTC, as the texts it was compared with before)."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - _EPOCH) // timedelta(microseconds=1)


def _hash_text(stored: Any) -> str:
    """A stored hash as hex text (format 3 stores the 32 bytes)."""
    return stored.hex() if type(stored) is bytes else str(stored)


def _json_int(value: int) -> str:
    return str(value) if type(value) is int else json.dumps(value)


def _stored_row_text(row: tuple[Any, ...], prev_hash: str | None = None, table_id: str | None = None,
                     dictionary: bytes | None = None, roles: tuple[str, ...] = ()) -> str:
    """The canonical body text of a stored row without parsing its payload.

    The payload column holds ``canonical_json(payload)`` (or its zlib), so splicing it into the
    canonical body (keys in sorted order) gives the same text ``event_hash`` hashes; a payload
    edited in any way — even only reformatted — no longer does. ``prev_hash``: the link a
    format-2 row does not store; ``table_id``: the journal's, which a format-3 row leaves NULL;
    ``dictionary`` and ``roles``: a format-3 file's payload dictionary and role codes.
    """
    seq, ts, row_table, round_id, staff_id, role, type_, stored, stored_prev, _ = row
    repeated = _repeated_string
    return (
        f'{{"payload":{payload_text(stored, dictionary)},"prev_hash":{_json_string(stored_prev or prev_hash)},'
        f'"role":{repeated(roles[role] if type(role) is int else role)},"round_id":{_json_int(round_id)},"seq":{_json_int(seq)},'
        f'"staff_id":{repeated(staff_id)},"table_id":{repeated(table_id if row_table is None else row_table)},'
        f'"ts":{_json_string(ts_text(ts))},"type":{repeated(type_)}}}'
    )


def _row_to_event(row: tuple[Any, ...]) -> Event:
    seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, hash_ = row
    return Event(seq, ts, table_id, round_id, staff_id, role, type_, json.loads(payload_text(payload)), prev_hash,
                 hash_)
