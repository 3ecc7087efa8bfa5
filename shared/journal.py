"""The table journal: an append-only, hash-chained SQLite event log, one database per table.

Every command that changes a table is an event here before the screen shows it as done; a
table's state is the fold of its events (see ``shared.engine``). History is never updated or
deleted — this module has no API for it and triggers refuse it — so a correction is a new event
that refers to the old one. Each event's hash covers its fields and the previous hash, so
``verify()`` finds the first entry that was edited, removed or moved.

What the file alone cannot prove is covered by a table key kept outside it (``<journal>.key``,
owner-only, created at first start): from ``keyed_from`` on, each entry's hash is an HMAC
under that key, so whoever can write the journal but not read the key cannot forge, append
or recompute entries. A journal written before keys existed keeps its plain SHA-256 prefix,
verified as it always was, and is keyed from its first open by this version on. The key also
seals each snapshot's saved state to its entry, and the head (last entry and its hash) that
the one writer records with every append. A writer's start checks from the last point a
writer sealed: the head, the latest snapshot's seal and the entries since that snapshot (what
came before was checked or written by a writer already), so a cut tail, a forged entry or an
edited snapshot is refused at start-up in milliseconds; ``verify()`` walks the whole history
(an edit older than the latest snapshot shows there). ``anchor()`` gives the head to keep elsewhere; ``verify(anchor=...)`` proves the
journal still holds it. One writer at a time: a writer holds ``<journal>.lock`` (flock, so
the kernel frees it when the process dies); read-only opens (``open_existing``) take none.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import hmac
import json
import os
import secrets
import socket
import sqlite3
import threading
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from functools import cached_property
from pathlib import Path
from typing import Any

import platformdirs

from shared.actor import Actor, Role
from shared.errors import ConsoleError, JournalWriteError
from shared.events import JournalArchived
from shared.messages import Msg, text

APP_NAME = "mesa-console"
GENESIS_HASH = "0" * 64
# The row format a new journal is written in (meta ``schema``; a journal keeps the format it
# was created in). 1: every row stores its previous hash, payloads as text, hashes unique.
# 2: the previous hash is implied by the row before (NULL), a long payload is stored
# zlib-compressed (a BLOB), and the hash column has no unique index — the same chain in
# about half the bytes (see bench/README.md). 3: the same rows and hashes in fewer bytes (the
# text every hash covers is unchanged, only its storage): the time as microseconds since the
# epoch (an INTEGER) when that gives back the very text, the table NULL for the journal's own,
# the hash as its 32 raw bytes, and no (type, ts) index (see ``_FORMAT3_EVENTS``).
SCHEMA_VERSION = 3
# A payload text at least this long is stored compressed when that is smaller (format 2).
COMPRESS_FROM = 160
# How many snapshots to keep: only the latest is read; a few older ones are a cushion.
SNAPSHOTS_KEPT = 3
KEY_SUFFIX = ".key"
LOCK_SUFFIX = ".lock"
KEY_BYTES = 32
_DICTIONARY_FILE = Path(__file__).with_name("journal_dictionary.json")

# Entries are never deleted, except when archiving moves them to their archive file.
_NO_DELETE = """CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
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

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
%s;
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
%s;
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY,
    event_hash TEXT NOT NULL,
    state TEXT NOT NULL
);
"""


def _schema(format_: int) -> list[str]:
    """The statements that create (or, on an existing file, leave as they are) a file of one format."""
    text = _SCHEMA % (_FORMAT3_EVENTS if format_ >= 3 else _EVENTS, _NO_DELETE)
    return [statement for statement in text.split(";\n") if statement.strip()]


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


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    checked: int
    first_bad_seq: int | None = None
    why: Msg | None = None  # what is wrong at ``first_bad_seq``

    @property
    def reason(self) -> str | None:
        """The reason in English, for logs and ``--json``."""
        return None if self.why is None else self.why.render("en")

    def message(self, lang: str = "es") -> str:
        if self.ok:
            return text("journal.intact", lang, entries=self.checked)
        return text("journal.broken_at", lang, seq=self.first_bad_seq, reason=self.why)

    def render(self, lang: str) -> str:
        """The report as a ``Localized`` parameter of another message (``shared.messages``)."""
        return self.message(lang)


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
    return datetime.now(UTC).isoformat(timespec="microseconds")


_EVENT_COLUMNS = "seq, ts, table_id, round_id, staff_id, role, type, payload, prev_hash, hash"


def _read_columns(schema: str) -> str:
    """What readers select from one file (alias ``e``): a format-2 row's previous hash is the
    hash of the row before it (NULL for a file's first row: its base, ``_Source``)."""
    return ("seq, ts, table_id, round_id, staff_id, role, type, payload, "
            f"COALESCE(prev_hash, (SELECT p.hash FROM {schema}.events p WHERE p.seq = e.seq - 1)), hash")


@dataclass(frozen=True)
class _Source:
    """One file of a journal's history, oldest first: an archive (attached as ``archiveN``)
    or the live file (``main``); ``base`` is the (seq, hash) its first entry goes on from."""

    schema: str
    base: tuple[int, str]


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


def _stored_row_hash(row: tuple[Any, ...]) -> str:
    """``event_hash`` of a stored row without parsing its payload."""
    return hashlib.sha256(_stored_row_text(row).encode("utf-8")).hexdigest()


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


# --- files: owner-only folder and files, the table key, the writer lock ----------------------


def private_dir(path: Path) -> None:
    """Create ``path`` and any missing parent owner-only (0700); an existing folder is left as is."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass


def private_file(path: Path) -> None:
    """Create the file owner-only (0600), or make an existing one of ours so.

    SQLite creates a database's -wal and -shm with the database file's permissions, so
    those follow; ones left by an older version are tightened here too.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if each.stat().st_uid == os.getuid():
                each.chmod(0o600)
        except FileNotFoundError:
            pass


@dataclass(frozen=True)
class TableKey:
    """The secret that keys one table's chain; entries before ``keyed_from`` are a legacy,
    unkeyed prefix (a journal written before keys existed)."""

    secret: bytes = field(repr=False)
    keyed_from: int

    def _derived(self, purpose: bytes) -> bytes:
        return hmac.new(self.secret, purpose, hashlib.sha256).digest()

    @cached_property
    def chain(self) -> bytes:
        return self._derived(b"mesa journal chain")

    @cached_property
    def pepper(self) -> bytes:
        """The PIN hashes' pepper: a key of its own, so neither use weakens the other."""
        return self._derived(b"mesa pin pepper")

    def seal(self, text: str) -> str:
        return hmac.digest(self.chain, text.encode("utf-8"), "sha256").hex()


def key_path(journal_path: Path) -> Path:
    return Path(f"{journal_path}{KEY_SUFFIX}")


def _read_key(path: Path, table_id: str, game: str) -> TableKey | None:
    """The table key kept beside the journal, or None when there is no key file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(Msg.of("journal.key_unreadable", path=path, reason=exc.strerror)) from None
    try:
        data = json.loads(text)
        key = TableKey(bytes.fromhex(data["key"]), int(data["keyed_from"]))
        owner = (data["table_id"], data["game"])
    except (ValueError, KeyError, TypeError):
        raise JournalError(Msg.of("journal.key_damaged", path=path)) from None
    if owner != (table_id, game) or len(key.secret) != KEY_BYTES:
        raise JournalError(Msg.of("journal.key_of_other_table", path=path, table=table_id, game=game))
    return key


def _create_key(path: Path, table_id: str, game: str, keyed_from: int) -> TableKey:
    """Write a new table key, owner-only; whole or not at all (a temp file renamed in place)."""
    key = TableKey(secrets.token_bytes(KEY_BYTES), keyed_from)
    text = json.dumps({"table_id": table_id, "game": game, "keyed_from": keyed_from, "key": key.secret.hex()})
    _write_private(path, text.encode("utf-8"))
    return key


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_private(path: Path, data: bytes) -> None:
    """Write a file owner-only, whole or not at all (a synced temp file renamed in place)."""
    temp = Path(f"{path}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, path)
    _sync_folder(path.parent)


class WriterLock:
    """The one-writer lock of a journal: ``flock`` on ``<journal>.lock`` for the writer's life.

    The kernel drops the lock when its process ends in any way (SIGKILL included), so a lock
    left by a dead console is simply taken; the file names the holder for the refusal.
    """

    def __init__(self, journal_path: Path) -> None:
        path = Path(f"{journal_path}{LOCK_SUFFIX}")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", "replace")
            os.close(fd)
            raise _held_by(journal_path, holder) from None
        except BaseException:
            os.close(fd)
            raise
        mine = {"pid": os.getpid(), "host": socket.gethostname(), "since": _utc_now()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(mine).encode("utf-8"), 0)
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file is what frees the flock
            self._fd = None


def _held_by(journal_path: Path, holder_text: str) -> JournalError:
    try:
        holder = json.loads(holder_text)
        since = datetime.fromisoformat(holder["since"]).astimezone().strftime("%Y-%m-%d %H:%M:%S")
        who = Msg.of("journal.held_by_process", pid=holder["pid"], host=holder["host"], since=since)
    except (ValueError, KeyError, TypeError):
        who = Msg.of("journal.held_by_another")
    return JournalError(Msg.of("journal.already_open", who=who, path=journal_path))


def _row_to_event(row: tuple[Any, ...]) -> Event:
    seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, hash_ = row
    return Event(seq, ts, table_id, round_id, staff_id, role, type_, json.loads(payload_text(payload)), prev_hash,
                 hash_)


class Journal:
    """One table's journal. Thread-safe: the UI may append from a worker thread."""

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
            self._writer_lock = WriterLock(self.path)
        try:
            if not in_memory and not read_only:
                private_file(self.path)
            # isolation_level=None: no implicit transactions; every write is in our own BEGIN IMMEDIATE.
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except BaseException:
            self._release_writer_lock()
            raise
        try:
            if not read_only:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
            self._init_schema(table_id, game, training)
            self._sources = self._attach(self._conn)
            self._last_seq, self._last_hash = self._read_tail()
            self._key = self._open_key(in_memory)
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
                    for statement in _schema(self._existing_format()):
                        self._conn.execute(statement)
                    columns = [row[1] for row in self._conn.execute("PRAGMA table_info(snapshots)")]
                    if "mac" not in columns:  # a journal written before snapshots were sealed
                        self._conn.execute("ALTER TABLE snapshots ADD COLUMN mac TEXT")
                    meta = dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
                    if not meta:
                        mode = "training" if training else "live"
                        meta = {"schema": str(SCHEMA_VERSION), "table_id": table_id, "game": game, "mode": mode,
                                "payload_dictionary": payload_dictionary(game), "roles": json.dumps(_role_codes())}
                        self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
        if meta["game"] != game:
            raise JournalError(Msg.of("journal.other_game", path=self.path, game=meta["game"], expected=game))
        if meta["table_id"] != table_id:
            raise JournalError(Msg.of("journal.other_table", path=self.path, table=meta["table_id"], expected=table_id))
        if training is not None and (meta["mode"] == "training") != training:
            raise JournalError(Msg.of(f"journal.is_{meta['mode']}", path=self.path))
        self.table_id: str = table_id
        self.game: str = game
        self._mode: str = meta["mode"]
        self._format = int(meta["schema"])
        # Format 3 deflates payloads with the file's own dictionary (a format-2 BLOB is zlib's).
        self._dictionary: bytes | None = (meta.get("payload_dictionary", "").encode("utf-8") if self._format >= 3
                                          else None)
        self._roles: tuple[str, ...] = tuple(json.loads(meta.get("roles", "[]")))
        self._keyed_from: int | None = int(meta["keyed_from"]) if "keyed_from" in meta else None
        self._is_archive = "archive_of" in meta
        if self._is_archive and not self.read_only:
            raise JournalError(Msg.of("archive.not_writable", path=self.path, journal=meta["archive_of"]))
        self._archives: list[str] = json.loads(meta.get("archives", "[]"))
        self._base = _parse_base(meta.get("base"))

    def _existing_format(self) -> int:
        """The row format of the file being opened: its own, or ``SCHEMA_VERSION`` for a new one."""
        if self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is None:
            return SCHEMA_VERSION
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        return SCHEMA_VERSION if row is None else int(row[0])

    def _open_key(self, in_memory: bool) -> TableKey | None:
        """The table key; a writer creates it for a new journal, or keys a legacy one from its
        next entry on (after its unkeyed chain verified as it always did)."""
        if in_memory:  # a scratch or test table: its key lives and dies with it
            key: TableKey | None = TableKey(secrets.token_bytes(KEY_BYTES), 1)
        else:
            key = _read_key(key_path(self.path), self.table_id, self.game)
        if self.read_only:
            if key is not None and self._keyed_from is not None and key.keyed_from != self._keyed_from:
                raise _key_mismatch(self.path)
            return key
        if key is None:
            if self._keyed_from is not None:
                where = key_path(self.path)
                raise JournalError(Msg.of("journal.key_missing", path=where))
            if self._last_seq:
                report = self.verify()
                if not report.ok:
                    raise _damaged(report)
            key = _create_key(key_path(self.path), self.table_id, self.game, self._last_seq + 1)
        elif key.keyed_from != (self._last_seq + 1 if self._keyed_from is None else self._keyed_from):
            # (Unmarked with a key: a start killed between writing the key and marking the journal.)
            raise _key_mismatch(self.path)
        if self._keyed_from is None:
            # Marked in the journal too, so a key file that goes missing is noticed, not re-made.
            self._key = key
            with self.transaction() as cur:
                cur.execute("INSERT INTO meta (key, value) VALUES ('keyed_from', ?)", (str(key.keyed_from),))
                cur.execute("DELETE FROM snapshots")  # a legacy journal's snapshots carry no seal
                self._write_head(cur)
            self._keyed_from = key.keyed_from
        return key

    @property
    def training(self) -> bool:
        return self._mode == "training"

    @property
    def pin_pepper(self) -> bytes | None:
        """The table key's pepper for PIN hashes (None for a read-only journal without a key)."""
        return None if self._key is None else self._key.pepper

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
        return (row[0], _hash_text(row[1])) if row else self._base

    def _attach(self, conn: sqlite3.Connection) -> list[_Source]:
        """Attach the journal's archive files (oldest first) to ``conn`` and return the files
        every read goes through, in order; a missing archive file is refused."""
        attached = {row[1] for row in conn.execute("PRAGMA database_list")}
        sources = []
        for index, name in enumerate(self._archives):
            schema = f"archive{index}"
            if schema not in attached:
                path = self.path.parent / name
                if not path.is_file():
                    raise JournalError(Msg.of("archive.missing", path=path, journal=self.path))
                conn.execute(f"ATTACH DATABASE ? AS {schema}", (str(path),))
            row = conn.execute(f"SELECT value FROM {schema}.meta WHERE key = 'base'").fetchone()
            sources.append(_Source(schema, _parse_base(row[0] if row else None)))
        sources.append(_Source("main", self._base))
        return sources

    def _rows(self, conn: sqlite3.Connection, where: str, params: tuple[Any, ...] = (), *,
              newest_first: bool = False) -> Generator[tuple[Any, ...], None, None]:
        """The stored rows matching ``where``, across the archives and the live file, in seq
        order (or newest first), each with its previous hash filled in and format 3's storage
        read back (time, table and hashes as texts)."""
        order = "DESC" if newest_first else "ASC"
        for source in reversed(self._sources) if newest_first else self._sources:
            cursor = conn.execute(
                f"SELECT {_read_columns(source.schema)} FROM {source.schema}.events e WHERE {where} "
                f"ORDER BY seq {order}", params)
            try:
                for seq, ts, table_id, round_id, staff_id, role, type_, payload, prev_hash, digest in cursor:
                    yield (seq, ts_text(ts), self.table_id if table_id is None else table_id, round_id, staff_id,
                           self._roles[role] if type(role) is int else role, type_,
                           payload_text(payload, self._dictionary),
                           source.base[1] if prev_hash is None else _hash_text(prev_hash), _hash_text(digest))
            finally:
                cursor.close()

    def _first(self, where: str, params: tuple[Any, ...], *, newest_first: bool = False) -> Event | None:
        with self._lock:
            rows = self._rows(self._conn, where, params, newest_first=newest_first)
            row = next(rows, None)
            rows.close()
        return _row_to_event(row) if row else None

    # --- the keyed chain ---------------------------------------------------------------------

    def _digest(self, seq: int, text: str) -> str:
        key = self._key
        if key is not None and seq >= key.keyed_from:
            return key.seal(text)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def hash_ok(self, event: Event) -> bool:
        """Whether an entry's contents match its hash (keyed or legacy, as the journal says)."""
        return hmac.compare_digest(self._digest(event.seq, event.body_text()), event.hash)

    def _write_head(self, cur: sqlite3.Cursor) -> None:
        cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('head', ?)",
                    (self._head_record(self._last_seq, self._last_hash),))

    def _head_record(self, seq: int, digest: str) -> str:
        assert self._key is not None
        return f"{seq}:{digest}:{self._key.seal(f'head {seq} {digest}')}"

    def _head_problem(self, record: str | None, last_seq: int, hash_at: Callable[[int], str | None]) -> _Problem | None:
        """What is wrong with the recorded head against the journal's entries, if anything."""
        assert self._key is not None
        seq_text, _, rest = (record or "").partition(":")
        digest, _, seal = rest.partition(":")
        if not seq_text.isdigit() or not hmac.compare_digest(self._key.seal(f"head {seq_text} {digest}"), seal):
            return _Problem(last_seq, Msg.of("journal.verify_head_seal"))
        seq = int(seq_text)
        if seq > last_seq:
            return _Problem(last_seq + 1, Msg.of("journal.verify_missing_at_end", seq=seq))
        if seq < last_seq:
            return _Problem(seq + 1, Msg.of("journal.verify_not_by_console", seq=seq))
        if (GENESIS_HASH if seq == 0 else hash_at(seq)) != digest:
            return _Problem(seq, Msg.of("journal.verify_last_differs"))
        return None

    def _snapshot_problem(self, seq: int, event_hash_: str, state: str, seal: str | None,
                          entry_hash: str | None) -> _Problem | None:
        if entry_hash != event_hash_:
            return _Problem(seq, Msg.of("journal.verify_snapshot_entry"))
        if self._key is not None and not hmac.compare_digest(
            self._key.seal(f"snapshot {seq} {event_hash_} {state}"), seal or ""
        ):
            return _Problem(seq, Msg.of("journal.verify_snapshot_seal"))
        return None

    def _walk(self, conn: sqlite3.Connection, after: int, prev_hash: str,
              visit: Callable[[int, str], _Problem | None] | None = None,
              schema: str = "main") -> tuple[int, _Problem | None, str]:
        """Check every entry of one file after ``after``: its place, its link and its hash.
        Returns (entries checked, first problem or None, hash of the last entry checked)."""
        expected_seq = after + 1
        checked = 0
        cursor = conn.execute(f"SELECT {_EVENT_COLUMNS} FROM {schema}.events WHERE seq > ? ORDER BY seq", (after,))
        try:
            for row in cursor:
                seq = row[0]
                if seq != expected_seq:
                    return checked, _Problem(expected_seq, Msg.of("journal.verify_entry_missing", seq=seq)), prev_hash
                table_id, row_prev, row_hash = row[2], row[8], _hash_text(row[9])
                if row_prev is not None and row_prev != prev_hash:
                    return checked, _Problem(seq, Msg.of("journal.verify_link")), prev_hash
                try:
                    body: str | None = _stored_row_text(row, prev_hash, self.table_id, self._dictionary, self._roles)
                except (zlib.error, UnicodeDecodeError, IndexError):  # a compressed payload or role code edited
                    body = None
                if body is None or not hmac.compare_digest(self._digest(seq, body), row_hash):
                    return checked, _Problem(seq, Msg.of("journal.verify_contents")), prev_hash
                if table_id is not None and table_id != self.table_id:
                    return checked, _Problem(seq, Msg.of("journal.verify_other_table", table=table_id)), prev_hash
                if visit is not None:
                    problem = visit(seq, row_hash)
                    if problem is not None:
                        return checked, problem, prev_hash
                prev_hash = row_hash
                expected_seq += 1
                checked += 1
        finally:
            cursor.close()
        return checked, None, prev_hash

    def _check_at_start(self) -> None:
        """A writer's start: the recorded head, the latest snapshot's seal, and the entries from
        that snapshot on (the last point a writer sealed) — not the whole history (``verify``)."""
        with self._lock:
            conn = self._conn
            record = dict(conn.execute("SELECT key, value FROM meta WHERE key = 'head'").fetchall()).get("head")
            problem = self._head_problem(record, self._last_seq, self._entry_hash)
            after, prev_hash = self._base
            if problem is None:
                latest = self._latest_snapshot_row(conn)
                if latest is not None:
                    seq, event_hash_, state, seal, entry_hash = latest
                    problem = self._snapshot_problem(seq, event_hash_, state, seal, entry_hash)
                    after, prev_hash = seq, event_hash_
            if problem is None:
                _, problem, _ = self._walk(conn, after, prev_hash)
        if problem is not None:
            raise _damaged(_broken(0, problem.seq, problem.why))

    def _entry_hash(self, seq: int, conn: sqlite3.Connection | None = None) -> str | None:
        """The stored hash of entry ``seq``, in the live file or an archive."""
        for source in reversed(self._sources):
            row = (conn or self._conn).execute(f"SELECT hash FROM {source.schema}.events WHERE seq = ?",
                                               (seq,)).fetchone()
            if row:
                return _hash_text(row[0])
        return None

    def _latest_snapshot_row(self, conn: sqlite3.Connection) -> tuple[Any, ...] | None:
        """(seq, event hash, state, seal, the hash of its entry now) of the newest snapshot."""
        row = conn.execute("SELECT seq, event_hash, state, mac FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else (*row, self._entry_hash(row[0], conn))

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
                    raise
            except sqlite3.Error as exc:
                # Every caller (bets, cards, staff, settlement) gets one sentence, never SQLite's.
                raise _write_failed(exc) from exc
            finally:
                cur.close()

    def _append_in(
        self, cur: sqlite3.Cursor, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None
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
        event = Event(seq, ts, self.table_id, round_id, staff_id, role, type, stored_payload, self._last_hash, "")
        digest = self._digest(seq, event.body_text())
        if self._format >= 3:
            assert self._dictionary is not None
            code = self._roles.index(role) if role in self._roles else role
            row: tuple[Any, ...] = (seq, _stored_ts(ts), None, round_id, staff_id, code, type,
                                    _deflated_payload(text, self._dictionary), None, bytes.fromhex(digest))
        elif self._format == 2:
            row = (seq, ts, self.table_id, round_id, staff_id, role, type, _stored_payload(text), None, digest)
        else:
            row = (seq, ts, self.table_id, round_id, staff_id, role, type, text, self._last_hash, digest)
        cur.execute(f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        event = Event(seq, ts, self.table_id, round_id, staff_id, role, type, stored_payload, self._last_hash, digest)
        self._last_seq, self._last_hash = seq, digest
        return event

    def append(self, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None) -> Event:
        """Write one event durably and return it (its payload as read back from JSON).

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
        self, cur: sqlite3.Cursor, type: str, payload: dict[str, Any], *, round_id: int, actor: Actor | None
    ) -> Event:
        """Append inside a ``transaction()`` opened by the caller."""
        return self._append_in(cur, type, payload, round_id=round_id, actor=actor)

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

    # --- reading -----------------------------------------------------------------------------

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A read outside any write transaction (used by the staff registry)."""
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def events(self, after: int = 0) -> Iterator[Event]:
        with self._lock:
            rows = list(self._rows(self._conn, "seq > ?", (after,)))
        for row in rows:
            yield _row_to_event(row)

    @contextmanager
    def _reader(self) -> Iterator[sqlite3.Connection]:
        """A connection in one read transaction: a consistent view that does not hold up the
        croupier's appends while a long chain is read. (An in-memory journal, used by tests,
        has only the one connection.)"""
        in_memory = str(self.path) == ":memory:"
        if in_memory:
            self._lock.acquire()
            conn = self._conn
        else:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        try:
            if not in_memory:
                self._attach(conn)
            conn.execute("BEGIN")
            yield conn
        finally:
            if in_memory:
                conn.execute("COMMIT")
                self._lock.release()
            else:
                conn.close()

    @contextmanager
    def read_view(self) -> Iterator[ReadView]:
        """A consistent read of the whole journal, streamed (reports on long histories)."""
        with self._reader() as conn:
            yield ReadView(conn, self)

    def anchor(self) -> tuple[str, int]:
        """(head hash, entry count): the head to keep outside the journal for ``verify(anchor=...)``."""
        with self.read_view() as view:
            return view.head()

    def last_event_of(self, type: str) -> Event | None:
        """The newest entry of one type (e.g. the table configuration in force)."""
        return self._first("type = ?", (type,), newest_first=True)

    def event(self, seq: int) -> Event | None:
        return self._first("seq = ?", (seq,))

    def round_events(self, round_id: int) -> list[Event]:
        with self._lock:
            rows = list(self._rows(self._conn, "round_id = ?", (round_id,)))
        return [_row_to_event(row) for row in rows]

    def last_round_ids(self, n: int) -> list[int]:
        """The ``n`` most recent round ids (> 0), oldest first."""
        found: list[int] = []
        with self._lock:
            for source in reversed(self._sources):
                cursor = self._conn.execute(
                    f"SELECT round_id FROM {source.schema}.events WHERE round_id > 0 ORDER BY seq DESC")
                try:
                    for (round_id,) in cursor:
                        if round_id not in found:
                            found.append(round_id)
                            if len(found) >= n:
                                return found[::-1]
                finally:
                    cursor.close()
        return found[::-1]

    def verify(self, anchor: tuple[str, int] | None = None) -> VerifyReport:
        """Walk the whole chain; report the first entry that was edited, removed, moved or
        forged, a snapshot whose saved state was edited, and a head that is not the one the
        console wrote. ``anchor`` (hash, count), kept outside the journal: the journal must
        still hold that head at that position (a cut or rewritten history is caught)."""
        if self._keyed_from is not None and self._key is None:
            return _broken(0, self._keyed_from, Msg.of("journal.verify_key_missing"))
        with self._reader() as conn:
            keyed = self._key is not None
            snapshots: dict[int, tuple[str, str, str | None]] = {
                row[0]: row[1:]
                for row in conn.execute(
                    f"SELECT seq, event_hash, state, {'mac' if keyed else 'NULL'} FROM snapshots"
                ).fetchall()
            }
            record = dict(conn.execute("SELECT key, value FROM meta WHERE key = 'head'").fetchall()).get("head")
            head_seq = int(record.partition(":")[0]) if keyed and record and record.partition(":")[0].isdigit() else 0
            anchor_hash, anchor_count = anchor if anchor is not None else (None, 0)
            seen: dict[int, str] = {}

            def visit(seq: int, digest: str) -> _Problem | None:
                if seq in (head_seq, anchor_count):
                    seen[seq] = digest
                if seq in snapshots:
                    return self._snapshot_problem(seq, *snapshots[seq], digest)
                return None

            checked, problem, last_seq, last_hash = 0, None, 0, GENESIS_HASH
            for source in self._sources:
                # Only an archive file verified on its own may start after entry 1 (from its base).
                if source.base != (last_seq, last_hash) and not (source is self._sources[0] and self._is_archive):
                    problem = _Problem(last_seq + 1, Msg.of("journal.verify_archive_chain"))
                    break
                last_seq, last_hash = source.base
                count, problem, last_hash = self._walk(conn, last_seq, last_hash, visit, source.schema)
                checked, last_seq = checked + count, last_seq + count
                if problem is not None:
                    break
        if problem is not None:
            return _broken(checked, problem.seq, problem.why)
        beyond = [seq for seq in snapshots if seq > last_seq]
        if beyond:
            return _broken(checked, last_seq + 1, Msg.of("journal.verify_snapshot_beyond", seq=max(beyond)))
        if keyed:
            problem = self._head_problem(record, last_seq, seen.get)
            if problem is not None:
                return _broken(checked, problem.seq, problem.why)
        if anchor is not None:
            if anchor_count > last_seq:
                return _broken(checked, last_seq + 1,
                               Msg.of("journal.verify_anchor_cut", last=last_seq, anchor=anchor_count))
            if (GENESIS_HASH if anchor_count == 0 else seen.get(anchor_count)) != anchor_hash:
                return _broken(checked, anchor_count, Msg.of("journal.verify_anchor_differs"))
        return VerifyReport(True, checked)

    def save_snapshot(self, seq: int, state: dict[str, Any]) -> None:
        """Store the folded state as of entry ``seq`` so a restart need not replay history;
        sealed with the table key to its entry's hash, so its saved state cannot be edited."""
        text = canonical_json(state)
        assert self._key is not None
        with self.transaction() as cur:
            row = cur.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
            if row is None:
                raise JournalError(Msg.of("journal.no_entry", seq=seq))
            digest = _hash_text(row[0])
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
            cur.execute("DROP TRIGGER events_no_delete")
            cur.execute("DELETE FROM events WHERE seq <= ?", (through,))
            cur.execute(_NO_DELETE)
            # The snapshot at the day's close stays (a restart goes on from it); older ones go.
            cur.execute("DELETE FROM snapshots WHERE seq < ?", (through,))
        with self._lock:
            self._archives, self._base = archives, (through, head)
            self._sources = self._attach(self._conn)
            self._conn.execute("VACUUM main")  # give the moved entries' space back
        return target

    def _write_archive(self, target: Path, through: int, head: str) -> None:
        """The archive file of entries ``base+1..through``, complete, synced and verified, with
        its key, in place at ``target``."""
        temp = Path(f"{target}.tmp")
        temp.unlink(missing_ok=True)
        private_file(temp)
        meta = {"schema": str(self._format), "table_id": self.table_id, "game": self.game, "mode": self._mode,
                "archive_of": self.path.name, "head": self._head_record(through, head)}
        if self._keyed_from is not None:
            meta["keyed_from"] = str(self._keyed_from)
        if self._dictionary is not None:
            meta["payload_dictionary"] = self._dictionary.decode("utf-8")
            meta["roles"] = json.dumps(self._roles)
        if self._base[0]:
            meta["base"] = f"{self._base[0]}:{self._base[1]}"
        conn = sqlite3.connect(temp, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("ATTACH DATABASE ? AS live", (str(self.path),))
            conn.execute("BEGIN")
            for statement in _schema(self._format):
                conn.execute(statement)
            conn.execute("ALTER TABLE snapshots ADD COLUMN mac TEXT")
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            conn.execute(f"INSERT INTO main.events ({_EVENT_COLUMNS}) SELECT {_EVENT_COLUMNS} FROM live.events "
                         "WHERE seq <= ? ORDER BY seq", (through,))
            conn.execute("COMMIT")
        finally:
            conn.close()
        _write_private(key_path(target), key_path(self.path).read_bytes())
        os.replace(temp, target)
        _sync_folder(target.parent)
        with Journal.open_existing(target, game=self.game) as archived:
            report = archived.verify()
        if not report.ok or archived.last_seq != through:
            raise _damaged(report)

    def latest_snapshot(self) -> tuple[int, dict[str, Any]] | None:
        """The newest snapshot, or None; JournalError if it does not match its entry and seal
        (a restart never trusts an edited state). A legacy journal read without its key keeps
        the old rule: the newest snapshot whose entry still matches."""
        with self._lock:
            if self._key is None:
                row = self._conn.execute(
                    "SELECT s.seq, s.state FROM snapshots s JOIN events e ON e.seq = s.seq "
                    "AND s.event_hash IN (e.hash, lower(hex(e.hash))) "
                    "ORDER BY s.seq DESC LIMIT 1"
                ).fetchone()
                return None if row is None else (row[0], json.loads(row[1]))
            latest = self._latest_snapshot_row(self._conn)
        if latest is None:
            return None
        problem = self._snapshot_problem(*latest)
        if problem is not None:
            raise _damaged(_broken(0, problem.seq, problem.why))
        return latest[0], json.loads(latest[2])

    def _release_writer_lock(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None

    def _close_all(self) -> None:
        self._conn.close()
        self._release_writer_lock()

    def close(self) -> None:
        with self._lock:
            self._close_all()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, table_id={self.table_id!r}, game={self.game!r}, last_seq={self._last_seq})"


class ReadView:
    """One read transaction over a journal (its archives included): its head and its entries,
    streamed row by row."""

    def __init__(self, conn: sqlite3.Connection, journal: Journal) -> None:
        self._conn = conn
        self._journal = journal

    def head(self) -> tuple[str, int]:
        """(hash of the last entry, number of entries)."""
        row = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        seq, digest = (row[0], _hash_text(row[1])) if row else self._journal._base
        return digest, seq

    def events(self, types: Iterable[str] | None = None, *, after: int = 0, before: int | None = None,
               since: str | None = None, until: str | None = None) -> Iterator[Event]:
        """The entries in order (only of ``types`` if given; with seq above ``after`` and below
        ``before``, and time from ``since`` to before ``until``, ISO texts as journaled, if
        given), one at a time: memory stays flat however long the history."""
        where: list[str] = ["seq > ?"]
        params: list[Any] = [after]
        if types is not None:
            wanted = sorted(types)
            where.append(f"type IN ({', '.join('?' * len(wanted))})")
            params += wanted
        if before is not None:
            where.append("seq < ?")
            params.append(before)
        for operator, bound in ((">=", since), ("<", until)):
            if bound is not None:
                # Format 3 keeps most times as numbers: one compares with a number, a text with the text.
                where.append(f"(CASE WHEN typeof(ts) = 'integer' THEN ts {operator} ? ELSE ts {operator} ? END)")
                params += [_ts_bound(bound), bound]
        rows = self._journal._rows(self._conn, " AND ".join(where), tuple(params))
        try:
            for row in rows:
                yield _row_to_event(row)
        finally:
            rows.close()

    def first_seq(self, type: str) -> int | None:
        """The seq of the oldest entry of ``type`` (None if there is none)."""
        rows = self._journal._rows(self._conn, "type = ?", (type,))
        row = next(rows, None)
        rows.close()
        return None if row is None else int(row[0])


@dataclass(frozen=True)
class _Problem:
    seq: int
    why: Msg


def _write_failed(exc: sqlite3.Error) -> JournalWriteError:
    if isinstance(exc, sqlite3.IntegrityError):  # the primary key: another writer's entry holds this seq
        why, todo = "journal.write_other_writer", "journal.write_reopen"
    elif "full" in str(exc):
        why, todo = "journal.write_disk_full", "journal.write_free_disk"
    else:
        why, todo = "journal.write_busy", "journal.write_retry"
    return JournalWriteError(Msg.of("journal.write_failed", why=Msg.of(why), todo=Msg.of(todo)))


def _damaged(report: VerifyReport) -> JournalError:
    """The refusal to open a journal that does not verify: nothing is dealt on it."""
    return JournalError(Msg.of("journal.damaged", report=report)
    )


def _key_mismatch(path: Path) -> JournalError:
    return JournalError(Msg.of("journal.key_mismatch", key=key_path(path), path=path))


def _broken(checked: int, seq: int, why: Msg) -> VerifyReport:
    return VerifyReport(False, checked, seq, why)


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
        who = text("journal.no_staff", lang)
    else:
        who = f"{event.staff_id}/{event.role}"
    details = " ".join(f"{k}={_summarise(v)}" for k, v in event.payload.items())
    return f"{when}  #{event.seq:<6} {who:<20} {event.type:<20} {details}".rstrip()


def recall_json(journal: Journal, round_ids: Iterable[int]) -> list[dict[str, Any]]:
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
        lines.append(text("journal.recall_round", lang, round=round_id))
        for event in journal.round_events(round_id):
            lines.extend("  " + line for line in describe(event, lang).splitlines())
    return lines
