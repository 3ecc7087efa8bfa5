"""The Jackpot paytable (fixed) or the progressive meter's lines (Art. 11 §47), two per row."""

from __future__ import annotations

from math import ceil

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text


Line = tuple[str, str]
"""A paytable line: what it pays for, and the amount."""


def grid(rows: list[Line]) -> Table:
    """The lines two to a row, names left and amounts right, spread over the width."""
    table = Table.grid(expand=True, padding=(0, 1))
    for _ in range(2):
        table.add_column(no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
    for cells in _paired(rows):
        table.add_row(*cells)
    return table


def laid_out(rows: list[Line], width: int) -> list[Text] | None:
    """``grid(rows)`` as Rich lays it out at ``width`` when every cell fits whole (Rich's
    ``Table`` measured and rendered each cell through its console: ~8 M instructions of the
    table's first frame, issue 32); None when one does not fit (Rich then crops it) or could
    be read as Rich's markup or an emoji code."""
    paired = _paired(rows)
    if not paired:
        return []
    if any("[" in cell or ":" in cell for cells in paired for cell in cells):
        return None
    # A grid's cells are padded one column on their right, the last none (padding collapsed,
    # none at the edges).
    pads = (1, 1, 1, 0)
    widths = [max(cell_len(cells[column]) for cells in paired) + pads[column] or 1 for column in range(4)]
    spare = width - sum(widths)
    if spare < 0:
        return None
    if spare:  # expand: the spare columns shared as each column's width (rich._ratio.ratio_distribute)
        total = sum(widths)
        for column, share in enumerate(list(widths)):
            given = ceil(share * spare / total)
            widths[column] += given
            total -= share
            spare -= given
    lines = []
    for cells in paired:
        text = ""
        for column, cell in enumerate(cells):
            gap = " " * (widths[column] - pads[column] - cell_len(cell))
            text += (gap + cell if column % 2 else cell + gap) + " " * pads[column]  # amounts right
        lines.append(Text(text))
    return lines


def _paired(rows: list[Line]) -> list[tuple[str, str, str, str]]:
    half = (len(rows) + 1) // 2
    return [(*left, *right) for left, right in zip(rows[:half], [*rows[half:], ("", "")], strict=False)]


def paytable_lines(rows: list[Line], width: int, console: Console) -> list[Text]:
    """The paytable's lines at ``width`` (0: not laid out yet): as ``laid_out`` lays them where
    every cell fits, else as Rich lays out ``grid(rows)`` (cropping what does not fit)."""
    lines = laid_out(rows, width) if width else None
    if lines is None:
        options = console.options.update_width(width or 80)
        lines = [Text.assemble(*((segment.text, segment.style or "") for segment in line))
                 for line in console.render_lines(grid(rows), options, pad=False)]
    return lines
