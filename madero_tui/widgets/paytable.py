"""The Jackpot paytable (fixed) or the progressive meter's lines (Art. 11 §47), two per row."""

from __future__ import annotations

from rich.table import Table
from textual.widgets import Static


class PaytablePanel(Static):
    _shown: tuple[list[tuple[str, str]], str] | None = None

    def show(self, rows: list[tuple[str, str]], title: str) -> None:
        if (rows, title) == self._shown:
            return
        self._shown = (rows, title)
        self.border_title = title
        grid = Table.grid(expand=True, padding=(0, 1))
        for _ in range(2):
            grid.add_column(no_wrap=True)
            grid.add_column(justify="right", no_wrap=True)
        half = (len(rows) + 1) // 2
        for left, right in zip(rows[:half], [*rows[half:], ("", "")], strict=False):
            grid.add_row(*left, *right)
        self.update(grid, layout=False)
