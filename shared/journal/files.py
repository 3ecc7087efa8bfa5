"""The files one read of a journal goes through: its archive files, oldest first, and the live
file. SQLite attaches at most 10 databases to a connection and a table archives a gaming day a
day, so each archive is read through a read-only connection of its own, opened only when a
read's seq range reaches that file and kept in a small LRU (a year of archives never holds more
than a few descriptors); archives never change once written, so such a connection agrees with
the live connection's read transaction."""

from __future__ import annotations

import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from shared.journal.errors import JournalError
from shared.journal.format import _parse_base
from shared.messages import Msg
from shared.record import record
from shared.regex import Regex

# Archive connections kept open per live connection, besides those a read is still iterating.
KEEP_OPEN = 4

# ``Journal.archive`` names each file after the entries it holds: ``<stem>.archive-FIRST-LAST<suffix>``.
_ARCHIVE_NAME = Regex(r".*\.archive-(\d+)-(\d+)(?:\.[^.]*)?")


@record
class _Source:
    """One file of a journal's history: an archive (``name``, beside the journal) or the live
    file (``name`` None), holding the entries after seq ``after`` up to ``last`` (None: the live
    file, open-ended)."""

    name: str | None
    after: int
    last: int | None = None

    def reaches(self, after: int, before: int | None) -> bool:
        """Whether the file may hold an entry with seq above ``after`` and below ``before``."""
        return (self.last is None or self.last > after) and (before is None or before > self.after + 1)

    def holds(self, seq: int) -> bool:
        return self.after < seq and (self.last is None or seq <= self.last)


def _archive_source(name: str) -> _Source:
    found = _ARCHIVE_NAME.fullmatch(name)
    if found is None:
        raise JournalError(Msg.of("journal.unusable", path=name, reason="not an archive file's name"))
    return _Source(name, int(found[1]) - 1, int(found[2]))


class Files:
    """The files of one read: the archives named by the live file's meta ``archives`` and the
    live file through ``live`` (the journal's connection, or a reader's whose transaction that
    meta was read in); a missing archive is refused. ``bases``: each archive's base, read once
    per journal (shared by its reads)."""

    def __init__(self, live: sqlite3.Connection, live_base: tuple[int, str], archives: list[str],
                 live_path: Path | None, bases: dict[str, tuple[int, str]]) -> None:
        self.live = live
        self.live_base = live_base
        self._live_path = live_path
        self._bases = bases
        self.sources = [*map(_archive_source, archives), _Source(None, live_base[0])]
        for source in self.sources[:-1]:
            path = self.path(source)
            if path is None or not path.is_file():
                raise JournalError(Msg.of("archive.missing", path=path or source.name, journal=live_path))
        self._open: OrderedDict[str, sqlite3.Connection] = OrderedDict()  # least recently used first
        self._busy: Counter[str] = Counter()

    def path(self, source: _Source) -> Path | None:
        """The file of ``source`` (None for an in-memory journal)."""
        if self._live_path is None:
            return None
        return self._live_path if source.name is None else self._live_path.parent / source.name

    @contextmanager
    def using(self, source: _Source) -> Iterator[sqlite3.Connection]:
        """The connection to read ``source`` through; an archive's stays open while in use."""
        if source.name is None:
            yield self.live
            return
        name = source.name
        conn = self._open.pop(name, None)
        if conn is None:
            path = self.path(source)
            assert path is not None
            conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        self._open[name] = conn
        self._busy[name] += 1
        try:
            yield conn
        finally:
            self._busy[name] -= 1
            self._trim()

    def _trim(self) -> None:
        for name in [name for name in self._open if not self._busy[name]][:max(0, len(self._open) - KEEP_OPEN)]:
            self._open.pop(name).close()

    def base(self, source: _Source) -> tuple[int, str]:
        """The (seq, hash) the file's first entry goes on from: the live file's as its reader
        saw it, an archive's from its own meta."""
        if source.name is None:
            return self.live_base
        if source.name not in self._bases:
            with self.using(source) as conn:
                row = conn.execute("SELECT value FROM meta WHERE key = 'base'").fetchone()
            self._bases[source.name] = _parse_base(row[0] if row else None)
        return self._bases[source.name]

    def close(self) -> None:
        """Close the archive connections (the live one is its owner's)."""
        while self._open:
            self._open.popitem()[1].close()
