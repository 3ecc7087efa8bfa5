"""Streamed reads of a whole journal in one read transaction (reports on long histories)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Generator, Iterable, Iterator
from datetime import timedelta
from typing import Any

from shared.events import ClockCorrected, JournalUpgraded
from shared.journal.files import Files
from shared.journal.format import EVENT_COLUMNS, Event, _hash_text, _row_to_event, _ts_bound, context_at, resolve_row

CLOCK_SLACK = timedelta(days=1)
"""How far back a clock may have stepped, below the latest time before it, in a stretch with no
``clock_corrected`` entry written before the journal recorded every step back, and a time bound
still find its first entry: the bound is narrowed to a seq by bisection with this slack, then the
rows from there are read in order. Entries copied by ``journal upgrade`` promise nothing of their
times: they are read in order."""

# What a view reads rows through: ``Journal._rows`` (across the archives and the live file).
Rows = Callable[..., Generator[tuple[Any, ...], None, None]]
# The WHERE term (and its parameters) selecting entries of some types: ``Journal._type_filter``.
TypeFilter = Callable[[Iterable[str]], tuple[str, list[Any]]]


class ReadView:
    """One read transaction over a journal (its archives included): its head and its entries,
    streamed row by row."""

    def __init__(self, files: Files, rows: Rows, type_filter: TypeFilter,
                 entry_hash: Callable[[int, Files], str | None]) -> None:
        self._files = files
        self._rows = rows
        self._type_filter = type_filter
        self._entry_hash = entry_hash  # an entry's hash, recomputed where a row stores only a tag
        # The streams handed out and not yet finished: closed with the view, while its connection is
        # still open (a stream a refusal left suspended would otherwise close its cursor later, at
        # garbage collection, on a closed connection).
        self._streams: weakref.WeakSet[Generator[Event, None, None]] = weakref.WeakSet()

    def close(self) -> None:
        """End every stream still open on this view (``Journal.read_view`` does, on leaving)."""
        for stream in list(self._streams):
            stream.close()

    def head(self) -> tuple[str, int]:
        """(hash of the last entry, number of entries)."""
        files = self._files
        row = files.live.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        # An empty live file's head is the one it goes on from.
        seq, digest = (row[0], self._entry_hash(row[0], files) or _hash_text(row[1])) if row else files.live_base
        return digest, seq

    def events(self, types: Iterable[str] | None = None, *, after: int = 0, before: int | None = None,
               since: str | None = None, until: str | None = None) -> Iterator[Event]:
        """The entries in order (only of ``types`` if given; with seq above ``after`` and below
        ``before``, and from ``since`` to before ``until`` if given, see ``window``), one at a
        time: memory stays flat however long the history."""
        stream = self._events(types, after=after, before=before, since=since, until=until)
        self._streams.add(stream)
        return stream

    def _events(self, types: Iterable[str] | None, *, after: int, before: int | None, since: str | None,
                until: str | None) -> Generator[Event, None, None]:
        after, before = self.window(after=after, before=before, since=since, until=until)
        where: list[str] = ["1"]
        params: list[Any] = []
        if types is not None:
            term, wanted = self._type_filter(types)
            where.append(term)
            params += wanted
        rows = self._rows(self._files, " AND ".join(where), tuple(params), after=after, before=before)
        try:
            for row in rows:
                yield _row_to_event(row)
        finally:
            rows.close()

    def window(self, *, after: int = 0, before: int | None = None, since: str | None = None,
               until: str | None = None) -> tuple[int, int | None]:
        """(after, before): the seq range from the first entry, in the journal's order, at or
        after ``since`` to before the first at or after ``until`` (ISO texts as journaled),
        within ``after`` and ``before``. A range of the journal, not a filter on each entry's
        time: the entries after a clock set back (``clock_corrected``) stay in it."""
        if since is not None:
            after = max(after, self.first_seq_from(_ts_bound(since)) - 1)
        if until is not None:
            last = self.first_seq_from(_ts_bound(until))
            before = last if before is None else min(before, last)
        return after, before

    def first_seq_from(self, bound: int) -> int:
        """The first seq, in the journal's order, whose time (microseconds since the epoch) is
        at or after ``bound`` (one past the last entry if none is). Between two clock
        corrections times go forward: each such stretch is bisected over the primary key (~22
        lookups for four million entries, instead of a scan), the stretches before the bound
        skipped by the time their correction says they ended at."""
        rows = self._rows(self._files)
        oldest = next(rows, None)  # the oldest archive's first entry, if any is archived
        rows.close()
        head = self.head()[1]
        starts = [1 if oldest is None else int(oldest[0])]
        upgraded = self.first_seq(JournalUpgraded.type)
        if upgraded is not None:
            # An older file's clock may have gone back by any amount, no correction recorded.
            copied = next((seq for seq, time in self._times(starts[0], upgraded - 1) if time >= bound), None)
            if copied is not None:
                return copied
            starts = [upgraded]
        ends: list[int | None] = []  # the time each stretch ended at (the last one's: not known)
        for correction in self.events([ClockCorrected.type], after=starts[0]):
            starts.append(correction.seq)
            ends.append(_ts_bound(str(correction.payload["previous"])))
        ends.append(None)
        for index, (first, ended) in enumerate(zip(starts, ends, strict=True)):
            if ended is not None and ended + _SLACK_US < bound:
                continue
            last = starts[index + 1] - 1 if index + 1 < len(starts) else head
            found = self._first_in(first, last, bound)
            if found is not None:
                return found
        return head + 1

    def _first_in(self, first: int, last: int, bound: int) -> int | None:
        """The first seq from ``first`` to ``last`` whose time is at or after ``bound``, times
        going forward there but for steps back under ``CLOCK_SLACK``; None if there is none."""
        lo, hi = first, last
        while lo <= hi:
            mid = (lo + hi) // 2
            # (The first entry from mid on: a gap is verify's to report.)
            time = next(self._times(mid, last), (0, bound))[1]
            if time < bound - _SLACK_US:
                lo = mid + 1
            else:
                hi = mid - 1
        return next((seq for seq, time in self._times(lo, last) if time >= bound), None)

    def _times(self, first: int, last: int) -> Iterator[tuple[int, int]]:
        """(seq, time in microseconds since the epoch) of the entries from ``first`` to
        ``last``, their times resolved from the checkpoint before (``resolve_row``) but neither
        their payloads nor their hashes: reading a day's rows so costs milliseconds."""
        files = self._files
        for source in files.sources:
            if not source.reaches(first - 1, last + 1):
                continue
            with files.using(source) as conn:
                before = context_at(conn, first - 1, ())  # (None before the file's first row: a whole one)
                cursor = conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE seq >= ? AND seq <= ? ORDER BY seq",
                                      (first, last))
                try:
                    for row in cursor:
                        _, before = resolve_row(row, before, ())
                        yield int(row[0]), before[0]
                finally:
                    cursor.close()

    def first_seq(self, type: str) -> int | None:
        """The seq of the oldest entry of ``type`` (None if there is none)."""
        term, params = self._type_filter([type])
        rows = self._rows(self._files, term, tuple(params))
        row = next(rows, None)
        rows.close()
        return None if row is None else int(row[0])



_SLACK_US = CLOCK_SLACK // timedelta(microseconds=1)
