"""The tools' tables (``odds``, ``settle``, ``report``), laid out by Rich.

Rich measures each cell by the terminal cells it takes, so a column holding a wide
character or an accent typed as a combining mark (``"e\u0301"``: two code points, one cell)
lines up where ``str.ljust``, which counts code points, would not. A table goes to
the tool's own stdout: the terminal's width and colours at a terminal; a fixed width and no
colour anywhere else (a pipe, a file, a test), so the output does not depend on where it is
read. Cells are plain text: a «[Art. 9 §36]» is printed, never read as Rich markup.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

PIPE_WIDTH = 160
"""The width a table is laid out to when stdout is no terminal: the widest table (the
shift report's twelve columns) fits it, each on one line."""


def print_table(rows: Sequence[Sequence[str]], *, headings: Sequence[str] = (), right: Collection[int] = (),
                indent: int = 2, widths: Sequence[int] = ()) -> None:
    """``rows`` as columns (those numbered in ``right`` aligned right), under ``headings`` if
    given, ``indent`` spaces in; two spaces between columns, no borders. ``widths``: the
    least width of each column, so that tables printed one after another line up."""
    table = Table(box=None, show_header=bool(headings), header_style="bold", pad_edge=False, padding=(0, 1))
    for column in range(len(headings) if headings else max(map(len, rows), default=0)):
        table.add_column(Text(headings[column] if headings else ""), justify="right" if column in right else "left",
                         min_width=widths[column] if column < len(widths) else None)
    for row in rows:
        table.add_row(*map(Text, row))
    console = _console()
    with console.capture() as captured:
        console.print(Padding(table, (0, 0, 0, indent), expand=False))
    # Rich fills every cell to its column's width: a line ends where its last word does.
    sys.stdout.write("".join(line.rstrip(" ") + "\n" for line in captured.get().splitlines()))


def widths_of(rows: Iterable[Sequence[str]]) -> list[int]:
    """The terminal cells the widest cell of each column takes."""
    widest: list[int] = []
    for row in rows:
        widest += [0] * (len(row) - len(widest))
        for column, cell in enumerate(row):
            widest[column] = max(widest[column], cell_len(cell))
    return widest


def _console() -> Console:
    # Built at each table: a tool's stdout is swapped for an escaping stream while it runs.
    terminal = sys.stdout.isatty()
    return Console(file=sys.stdout, width=None if terminal else PIPE_WIDTH, color_system="auto" if terminal else None,
                   highlight=False, markup=False, emoji=False)
