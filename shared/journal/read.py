"""Streamed reads of a whole journal in one read transaction (reports on long histories)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from datetime import timedelta
from typing import Any

from shared.journal.files import Files
from shared.journal.format import Event, _hash_text, _row_to_event, _ts_bound

CLOCK_SLACK = timedelta(days=1)
"""How far back the journal's clock may step between entries (a daylight change, NTP, a
clock reset) and a time-bounded read still find every entry: entries are journaled in clock
order otherwise, so a time bound is first narrowed to a seq range by bisection, with this
slack on each side, and then applied to each row exactly."""

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
        ``before``, and time from ``since`` to before ``until``, ISO texts as journaled, if
        given), one at a time: memory stays flat however long the history."""
        if since is not None and (first := self._first_seq_from(_ts_bound(since) - _SLACK_US)) is not None:
            after = max(after, first - 1)
        if until is not None and (last := self._first_seq_from(_ts_bound(until) + _SLACK_US)) is not None:
            before = last if before is None else min(before, last)
        where: list[str] = ["1"]
        params: list[Any] = []
        if types is not None:
            term, wanted = self._type_filter(types)
            where.append(term)
            params += wanted
        # The time bounds apply to each row's time as read: a row stores most times as the
        # microseconds since the row before, which SQL cannot compare.
        low = None if since is None else _ts_bound(since)
        high = None if until is None else _ts_bound(until)
        rows = self._rows(self._files, " AND ".join(where), tuple(params), after=after, before=before)
        try:
            for row in rows:
                if low is not None or high is not None:
                    micros = _row_us(row[1])
                    if micros is None or (low is not None and micros < low) or (high is not None and micros >= high):
                        continue
                yield _row_to_event(row)
        finally:
            rows.close()

    def _first_seq_from(self, bound: int) -> int | None:
        """The first seq whose time (microseconds since the epoch) is at or after ``bound``,
        taking times as ordered by seq (one past the last entry if none is): a bisection over
        the primary key, ~22 lookups for four million entries, instead of a scan. None where
        an entry is missing: then no narrowing."""
        rows = self._rows(self._files)
        oldest = next(rows, None)  # the oldest archive's first entry, if any is archived
        rows.close()
        lo = 1 if oldest is None else int(oldest[0])
        hi = self.head()[1]
        while lo <= hi:
            mid = (lo + hi) // 2
            rows = self._rows(self._files, after=mid - 1, before=mid + 1)
            row = next(rows, None)
            rows.close()
            if row is None:
                return None  # a gap in the history (verify reports it)
            if _stored_us(row[1]) < bound:
                lo = mid + 1
            else:
                hi = mid - 1
        return lo

    def first_seq(self, type: str) -> int | None:
        """The seq of the oldest entry of ``type`` (None if there is none)."""
        term, params = self._type_filter([type])
        rows = self._rows(self._files, term, tuple(params))
        row = next(rows, None)
        rows.close()
        return None if row is None else int(row[0])



_SLACK_US = CLOCK_SLACK // timedelta(microseconds=1)


def _row_us(text: str) -> int | None:
    """A row's time as microseconds since the epoch (None for a text that is no time: an
    edited row, which verify names)."""
    try:
        return _ts_bound(text)
    except ValueError:
        return None


def _stored_us(stored: Any) -> int:
    """A row's time, as read, in microseconds since the epoch."""
    return stored if type(stored) is int else _ts_bound(str(stored))
