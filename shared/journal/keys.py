"""The journal's files: owner-only folders and files, the default path, the table key kept
beside the journal, and the one-writer lock."""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import socket
import stat
from dataclasses import field
from datetime import datetime
from functools import cached_property
from pathlib import Path

import platformdirs

from shared.errors import os_reason
from shared.journal.errors import JournalError
from shared.messages import Msg
from shared.record import record

APP_NAME = "mesa-console"
KEY_SUFFIX = ".key"
LOCK_SUFFIX = ".lock"
KEY_BYTES = 32


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


@record
class TableKey:
    """The secret that keys one table's chain (``keyed_from``: the first keyed entry, 1 in
    every journal of the current format; ``journal upgrade`` reads older files' later ones)."""

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

    @cached_property
    def identity(self) -> str:
        """The key's public fingerprint (a journal's identity on a Carrusel's server)."""
        return self._derived(b"mesa table identity").hex()[:32]

    def seal(self, text: str) -> str:
        return hmac.digest(self.chain, text.encode("utf-8"), "sha256").hex()


def key_path(journal_path: Path) -> Path:
    """The key beside the journal's file (its real one: a journal opened through a link has one key)."""
    return Path(f"{os.path.realpath(journal_path)}{KEY_SUFFIX}")


# A key file is a short JSON object (about 130 bytes); anything longer is not one.
MAX_KEY_FILE = 4096


def _read_key(path: Path, table_id: str, game: str) -> TableKey | None:
    """The table key kept beside the journal, or None when there is no key file. Read as bytes,
    at most ``MAX_KEY_FILE`` of them, from a regular file only (a link to ``/dev/zero`` would be
    read forever): anything else is refused, never a traceback."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(Msg.of("journal.key_unreadable", path=path, reason=os_reason(exc))) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise JournalError(Msg.of("journal.key_damaged", path=path))
        data = os.read(fd, MAX_KEY_FILE + 1)
    except OSError as exc:
        raise JournalError(Msg.of("journal.key_unreadable", path=path, reason=os_reason(exc))) from None
    finally:
        os.close(fd)
    try:
        if len(data) > MAX_KEY_FILE:
            raise ValueError("too long")
        fields = json.loads(data.decode("utf-8"))
        key = TableKey(bytes.fromhex(fields["key"]), int(fields["keyed_from"]))
        owner = (fields["table_id"], fields["game"])
    except (ValueError, KeyError, TypeError):  # (UnicodeDecodeError and JSONDecodeError are ValueErrors)
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
    """The one-writer lock of a journal: ``flock`` on the journal file itself for the writer's
    life, so neither deleting a file beside it nor opening it through a link or another path
    gets past it (all reach the one inode). SQLite locks with POSIX record locks, which on
    Linux never conflict with a flock; the descriptor stays open until ``release``, after the
    journal's connections close.

    The kernel drops the lock when its process ends in any way (SIGKILL included), so a lock
    left by a dead console is simply taken; ``<journal>.lock`` names the holder for the refusal.
    """

    def __init__(self, journal_path: Path, *, since: str) -> None:
        fd = os.open(journal_path, os.O_RDWR | os.O_CREAT, 0o600)
        holder = Path(f"{os.path.realpath(journal_path)}{LOCK_SUFFIX}")  # one name for every path
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _held_by(journal_path, _holder_text(holder)) from None
        except BaseException:
            os.close(fd)
            raise
        mine = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
        try:  # the name is only the refusal's words (the lock is the flock): not synced
            name = os.open(holder, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            try:
                os.write(name, json.dumps(mine).encode("utf-8"))
            finally:
                os.close(name)
        except OSError:
            pass
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file is what frees the flock
            self._fd = None


def _holder_text(path: Path) -> str:
    """What ``<journal>.lock`` says of the holder (bounded; "" if it is gone or no file)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        return os.read(fd, MAX_KEY_FILE).decode("utf-8", "replace") if stat.S_ISREG(os.fstat(fd).st_mode) else ""
    finally:
        os.close(fd)


def _held_by(journal_path: Path, holder_text: str) -> JournalError:
    try:
        holder = json.loads(holder_text)
        since = datetime.fromisoformat(holder["since"]).astimezone().strftime("%Y-%m-%d %H:%M:%S")
        who = Msg.of("journal.held_by_process", pid=holder["pid"], host=holder["host"], since=since)
    except (ValueError, KeyError, TypeError):
        who = Msg.of("journal.held_by_another")
    return JournalError(Msg.of("journal.already_open", who=who, path=journal_path))


def _key_mismatch(path: Path) -> JournalError:
    return JournalError(Msg.of("journal.key_mismatch", key=key_path(path), path=path))
