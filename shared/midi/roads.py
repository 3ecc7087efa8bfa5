"""The scoreboard ("roads") of a shoe, computed from its coups (midi-rules.md, "Going past
the regulation"). Displays only: nothing here changes a payout.

Coordinates are 0-based (col, row) with row 0 at the top; the rules' "column c, row r"
are the 1-based logical positions, kept as ``logical_col`` / ``logical_row``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from enum import StrEnum
from typing import Generic, TypeVar

from shared.baccarat import CoupResult, Winner
from shared.record import record

ROWS = 6
T = TypeVar("T")


class Colour(StrEnum):
    RED = "red"
    """Derived roads: the big road repeats."""
    BLUE = "blue"
    """Derived roads: the big road breaks."""


DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}
"""Each derived road and the k its rule compares with."""


@record(slots=True)
class BeadCell:
    col: int
    row: int
    coup: CoupResult


@record(slots=True)
class Placed(Generic[T]):
    """One mark as drawn: grid position, and the logical (streak) position it stands for."""

    col: int
    row: int
    logical_col: int
    logical_row: int
    value: T


@record(slots=True, frozen=False)  # its ties are counted as the shoe goes on
class BigRoadEntry:
    winner: Winner
    coup: CoupResult
    ties: int = 0
    """Ties marked on this cell: those after it, or before the shoe's first decision."""


@record(slots=True)
class Counts:
    coups: int = 0
    punto: int = 0
    banca: int = 0
    tie: int = 0
    naturals: int = 0
    banca_sixes: int = 0
    punto_pairs: int = 0
    banca_pairs: int = 0


@record(slots=True)
class Roads:
    bead_plate: list[BeadCell]
    big_road: list[Placed[BigRoadEntry]]
    big_road_columns: list[list[BigRoadEntry]]
    """The logical columns (streaks) of the big road."""
    pending_ties: int
    """Ties before the shoe's first decision, while no cell is placed yet."""
    derived: dict[str, list[Placed[Colour]]]
    """"big_eye_boy", "small_road", "cockroach_pig": their marks as drawn."""
    counts: Counts
    next_if: dict[Winner, dict[str, Colour | None]] = field(default_factory=dict)
    """For BANCA and PUNTO: the mark each derived road would add if that hand won next."""

    @property
    def big_eye_boy(self) -> list[Placed[Colour]]:
        return self.derived["big_eye_boy"]

    @property
    def small_road(self) -> list[Placed[Colour]]:
        return self.derived["small_road"]

    @property
    def cockroach_pig(self) -> list[Placed[Colour]]:
        return self.derived["cockroach_pig"]


def bead_plate(coups: Sequence[CoupResult]) -> list[BeadCell]:
    """Every coup, ties included: top to bottom in columns of 6, columns left to right."""
    return [BeadCell(i // ROWS, i % ROWS, c) for i, c in enumerate(coups)]


def big_road_columns(coups: Sequence[CoupResult]) -> tuple[list[list[BigRoadEntry]], int]:
    """The logical columns of the big road, and the ties still waiting for a first cell."""
    columns: list[list[BigRoadEntry]] = []
    pending = 0
    for coup in coups:
        if coup.winner is Winner.TIE:
            if columns:
                columns[-1][-1].ties += 1
            else:
                pending += 1
            continue
        entry = BigRoadEntry(coup.winner, coup)
        if not columns:
            entry.ties, pending = pending, 0
            columns.append([entry])
        elif columns[-1][0].winner is coup.winner:
            columns[-1].append(entry)
        else:
            columns.append([entry])
    return columns, pending


def draw(columns: Sequence[Sequence[T]], rows: int = ROWS) -> list[Placed[T]]:
    """Lay logical columns out on a grid of ``rows`` rows, turning right (the dragon tail)
    when a streak would pass the last row or the cell below is taken."""
    taken: set[tuple[int, int]] = set()
    placed: list[Placed[T]] = []
    start = -1
    for lc, column in enumerate(columns):
        start += 1
        while (start, 0) in taken:
            start += 1
        col, row, turned = start, 0, False
        for lr, value in enumerate(column):
            if lr > 0:
                if not turned and row + 1 < rows and (col, row + 1) not in taken:
                    row += 1
                else:
                    turned = True
                    col += 1
                    while (col, row) in taken:
                        col += 1
            taken.add((col, row))
            placed.append(Placed(col, row, lc + 1, lr + 1, value))
    return placed


def derived_marks(lengths_in_order: Sequence[tuple[int, int]], k: int) -> list[Colour]:
    """The marks of the derived road of ``k`` for big-road entries given as (c, r), 1-based.

    Starts at the entry at column k+1 row 2 (or column k+2 row 1 when column k+1 has one
    entry). New column (r = 1): columns c-1 and c-1-k of equal length → red, else blue.
    r > 1: column c-k has row r → red; has row r-1 but not r → blue; neither → red.
    """
    lengths: list[int] = []
    marks: list[Colour] = []
    for c, r in lengths_in_order:
        if r == 1:
            lengths.append(1)
        else:
            lengths[c - 1] = r
        if c < k + 1 or (c == k + 1 and r == 1):
            continue
        if r == 1:
            same = lengths[c - 2] == lengths[c - 2 - k]
            marks.append(Colour.RED if same else Colour.BLUE)
        else:
            other = lengths[c - 1 - k]
            marks.append(Colour.BLUE if other == r - 1 else Colour.RED)
    return marks


def _streaks(marks: Sequence[Colour]) -> list[list[Colour]]:
    columns: list[list[Colour]] = []
    for mark in marks:
        if columns and columns[-1][0] is mark:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    return columns


def _positions(columns: Sequence[Sequence[object]]) -> list[tuple[int, int]]:
    return [(c + 1, r + 1) for c, column in enumerate(columns) for r in range(len(column))]


def counts(coups: Sequence[CoupResult]) -> Counts:
    return Counts(
        coups=len(coups),
        punto=sum(c.winner is Winner.PUNTO for c in coups),
        banca=sum(c.winner is Winner.BANCA for c in coups),
        tie=sum(c.winner is Winner.TIE for c in coups),
        naturals=sum(c.natural for c in coups),
        banca_sixes=sum(c.banca_six for c in coups),
        punto_pairs=sum(c.punto_pair for c in coups),
        banca_pairs=sum(c.banca_pair for c in coups),
    )


def next_marks(columns: Sequence[Sequence[BigRoadEntry]], winner: Winner,
               marks: Mapping[str, Sequence[Colour]]) -> dict[str, Colour | None]:
    """The mark each derived road would add if ``winner`` (PUNTO or BANCA) won the next coup,
    given each derived road's ``marks`` now."""
    lengths = [len(col) for col in columns]
    if columns and columns[-1][0].winner is winner:
        c, r = len(lengths), lengths[-1] + 1
    else:
        c, r = len(lengths) + 1, 1
    positions = _positions(columns) + [(c, r)]
    out: dict[str, Colour | None] = {}
    for name, k in DERIVED.items():
        after = derived_marks(positions, k)
        out[name] = after[-1] if len(after) > len(marks[name]) else None
    return out


def build_roads(coups: Sequence[CoupResult]) -> Roads:
    """Every road and count of a shoe from its coups in order (NULO coups left out)."""
    columns, pending = big_road_columns(coups)
    positions = _positions(columns)
    marks = {name: derived_marks(positions, k) for name, k in DERIVED.items()}
    derived = {name: draw(_streaks(marks[name])) for name in DERIVED}
    return Roads(
        bead_plate=bead_plate(coups),
        big_road=draw(columns),
        big_road_columns=columns,
        pending_ties=pending,
        derived=derived,
        counts=counts(coups),
        next_if={w: next_marks(columns, w, marks) for w in (Winner.BANCA, Winner.PUNTO)},
    )
