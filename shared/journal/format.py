"""How entries are stored: the row format of the ``events`` table (meta ``schema``), what each
hash covers, and the codecs of the stored columns (time, payload, role, hash)."""

from __future__ import annotations

import functools
import json
import sqlite3
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from shared.actor import Role
from shared.record import record

GENESIS_HASH = "0" * 64
# The row format of every journal the console and its tools open (meta ``schema``): a row
# between checkpoints stores only what differs from the row before it (its time as the
# microseconds since that row's, its round only when it changes), the type, role and staff as
# small codes (meta ``types``, ``roles``, ``staff``), the payload raw-deflated with the file's
# dictionary, and a keyed BLAKE2b of the row as stored (see ``_EVENTS``). A file of an earlier
# format (1-4) is refused; ``journal upgrade`` converts it once (``shared.journal_upgrade``, the
# only reader of those formats).
SCHEMA_VERSION = 5
_DICTIONARY_FILE = Path(__file__).parent.parent / "journal_dictionary.json"

# Entries are never deleted, except when archiving moves them to their archive file.
_NO_DELETE = """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END"""
# Nor changed, except when archiving makes the live file's new first row a whole one.
_NO_UPDATE = """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END"""

# A checkpoint row (its whole hash stored, see below) is whole: its time as the
# microseconds since the epoch, its round, its previous hash. Any other row goes on from the row
# before it (``resolve_row``): its time as the microseconds since that row's (a few bytes, not
# eight), its round NULL when it is that row's. A reader of one row starts from the checkpoint
# before it, as it does for the hash; a file's first row is a checkpoint (``Journal.archive``
# makes the live file's new first row one). ``events_round`` covers only the rows that store
# their round (where a round's stretch of rows begins, and the checkpoints): a round's entries
# are the stretches that begin at those rows (``Journal.round_events``). ``staff_id`` holds a
# code (its place in meta ``staff``), ``role`` and ``type`` codes (meta ``roles``, ``types``).
# The type index leaves out the game's own play (``in_play_types``: cards, bets, decisions —
# most entries, never read by type, only by round or in order), whose codes come first: it
# covers the codes from meta ``type_index_from`` on, and a reader selecting only such types
# repeats that bound so SQLite may use it (``Journal._type_filter``).
_EVENTS = """CREATE TABLE IF NOT EXISTS events (
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

# A row stores its full hash (and its previous one) only at checkpoints: an entry of a
# type read by type (so a read by type finds both hashes stored), and every CHECKPOINT_EVERY-th
# entry (a reader recomputes at most that many). Any other entry keeps the first TAG_BYTES of
# its hash, so verify still names the very entry that was changed; the chain to the next
# checkpoint and the sealed head is what makes it tamper-proof.
CHECKPOINT_EVERY = 64
TAG_BYTES = 4

# The types of each game's own play, left out of the type index (see above).
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
    state TEXT NOT NULL,
    mac TEXT
);
"""


def _schema(type_index_from: int) -> list[str]:
    """The statements that create (or, on an existing file, leave as they are) a journal file;
    ``type_index_from``: the first indexed type code."""
    text = _SCHEMA % (_EVENTS % type_index_from, _NO_UPDATE, _NO_DELETE)
    return [statement for statement in text.split(";\n") if statement.strip()]


def _is_full(stored: Any) -> bool:
    """Whether a stored hash is a whole one, not a checkpoint-less row's short tag."""
    return stored is not None and len(stored) >= 32


def in_play_types(game: str) -> tuple[str, ...]:
    """The types a new journal of ``game`` codes first and leaves out of its type index."""
    return _IN_PLAY_TYPES.get(game, ())


def row_message(prev_hash: bytes, row: tuple[Any, ...], roles: tuple[str, ...], types: tuple[str, ...]) -> bytes:
    """What an entry's MAC covers: the previous entry's hash (32 bytes) and the row's
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


@record
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



# Rows are read with a NULL table column (the journal's own): the shape ``Event`` has.
EVENT_COLUMNS = "seq, ts, NULL, round_id, staff_id, role, type, payload, prev_hash, hash"
STORED_COLUMNS = "seq, ts, round_id, staff_id, role, type, payload, prev_hash, hash"


# The (time in microseconds, round) a row leaves to the row after it.
Context = tuple[int, int | None]


def resolve_row(row: tuple[Any, ...], before: Context | None,
                staff: tuple[str, ...]) -> tuple[tuple[Any, ...], Context]:
    """A row as read, with what it leaves to the row before it (``before``: that
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
    """The (time, round) entry ``seq`` of one file (``conn``'s) leaves to the entry after it,
    resolved from the checkpoint at or before it (at most ``CHECKPOINT_EVERY`` rows); None if
    the file holds no checkpoint up to it."""
    mark = conn.execute("SELECT seq FROM events WHERE seq <= ? AND length(hash) >= 32 ORDER BY seq DESC LIMIT 1",
                        (seq,)).fetchone()
    if mark is None:
        return None
    before: Context | None = None
    for row in conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq",
                            (mark[0], seq)):
        _, before = resolve_row(row, before, staff)
    return before


def delta_row(row: tuple[Any, ...], before: Context | None, staff_code: int | None) -> tuple[Any, ...]:
    """A resolved row as it is stored (``STORED_COLUMNS``, hashes as given), going
    on from ``before`` unless it is a checkpoint (``before`` None): ``resolve_row`` undone."""
    seq, ts, _, round_id, staff_id, role, type_, payload, prev_hash, stored = row
    if before is not None:
        if type(ts) is int:
            ts -= before[0]
        if round_id == before[1]:
            round_id = None
    return (seq, ts, round_id, staff_id if staff_code is None else staff_code, role, type_, payload, prev_hash, stored)


def _parse_base(record: str | None) -> tuple[int, str]:
    if record is None:
        return 0, GENESIS_HASH
    seq, _, digest = record.partition(":")
    return int(seq), digest


def payload_text(stored: str | bytes, dictionary: bytes) -> str:
    """The canonical JSON text of a stored payload: raw-deflated with its file's preset
    ``dictionary`` (meta ``payload_dictionary``) when that was smaller, else the text."""
    if isinstance(stored, str):
        return stored
    inflater = zlib.decompressobj(-15, zdict=dictionary)
    return (inflater.decompress(stored) + inflater.flush()).decode("utf-8")


def _deflated_payload(text: str, dictionary: bytes) -> str | bytes:
    """A payload as stored: raw deflate with the file's dictionary when that is smaller (short
    payloads shrink too: most of their text is in the dictionary)."""
    data = text.encode("utf-8")
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=dictionary)
    packed = deflater.compress(data) + deflater.flush()
    return packed if len(packed) < len(data) else text


def _role_codes() -> list[str]:
    """The roles a new journal stores as small numbers (a role not among them is
    stored as its text)."""
    return [str(role) for role in Role]


def payload_dictionary(game: str) -> str:
    """The preset deflate dictionary a new journal of ``game`` records in its meta: payloads of
    that game's usual rounds (``bench/journal_dictionary.py`` writes them); "" for other games."""
    samples = json.loads(_DICTIONARY_FILE.read_text(encoding="utf-8")).get(game, [])
    return "".join(samples)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_US = 86_400_000_000


@functools.lru_cache(maxsize=64)
def _day_text(day: int) -> str:
    return (_EPOCH + timedelta(days=day)).date().isoformat()


def ts_text(stored: Any) -> str:
    """The ISO text of a stored time (most are stored as microseconds since the epoch):
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
    """A time as a row stores it: the microseconds since the epoch when they give back
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
    """A time bound as microseconds since the epoch, for comparing with stored times (a
    bound without a zone is UTC, as the texts it was compared with before)."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (when - _EPOCH) // timedelta(microseconds=1)


def _hash_text(stored: Any) -> str:
    """A stored hash as hex text (a row stores its bytes)."""
    return stored.hex() if type(stored) is bytes else str(stored)


def _row_to_event(row: tuple[Any, ...]) -> Event:
    seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, hash_ = row
    return Event(seq, ts, table_id, round_id, staff_id, role, type_, json.loads(payload), prev_hash,
                 hash_)
