"""The settlement view: per box each bet's outcome and amount, then the table's totals."""

from __future__ import annotations


from rich.cells import cell_len, set_cell_size
from rich.console import Group
from rich.text import Text

from shared.record import record
from textual.widget import Widget


@record
class SettlementView:
    title: str
    headers: tuple[str, ...]
    """Box, hand and result, then one column per bet, then the net."""
    rows: tuple[tuple[str, ...], ...]
    totals: str


HAND = 1
"""The column of the hand and its result: it takes the width the others leave, and a long
hand is cut («…»), never an amount."""


def _amount_style(cell: str) -> str:
    if cell.startswith("+"):
        return "green"
    if cell.startswith("−"):
        return "red"
    return ""


def _fitted(value: str, width: int, column: int) -> tuple[str, str, str]:
    """``value`` in a column ``width`` wide, as (room before, the value shown, room after): the
    box and the hand flush left, amounts right; a hand too long is cut («…»)."""
    if column == HAND and cell_len(value) > width:
        value = set_cell_size(value, width - 1) + "…"
    room = " " * (width - cell_len(value))
    return ("", value, room) if column <= HAND else (room, value, "")


def settlement_rows(view: SettlementView, width: int) -> list[Text]:
    """The table ``width`` columns wide, a Text per row, drawn as a Rich ``Table`` with
    ``box.SIMPLE_HEAD`` and ``expand`` draws it — a blank edge row, the bold headers, a rule, a
    row per box, a blank edge row; a space at each edge, a cell's padding either side of it, a
    space between columns; an amount's room in its colour, as a Rich table's cell had it — but
    laid out here: the Rich table measured and rendered every cell again at each settlement
    (~6 ms of the key that ends a round; issue 32)."""
    columns = len(view.headers)
    widths = [max(cell_len(row[i]) for row in (view.headers, *view.rows)) for i in range(columns)]
    # The edges, each cell's padding and the gaps between columns.
    frame = 2 + 2 * columns + (columns - 1)
    widths[HAND] = max(1, width - frame - sum(widths) + widths[HAND])
    edge = " " * (frame + sum(widths))
    header = Text(" ", end="")
    for column, title in enumerate(view.headers):
        header.append(" " + "".join(_fitted(title, widths[column], column)) + " ", style="bold")
        header.append(" ")
    rows = [Text(edge, end=""), header, Text(" " + "─" * (len(edge) - 2) + " ", end="")]
    for values in view.rows:
        row = Text(" ", end="")
        for column, value in enumerate(values):
            style = _amount_style(value) if column > HAND else ""
            before, shown, after = _fitted(value, widths[column], column)
            row.append(" ")
            row.append(before, style=style)
            row.append(shown, style=f"{style} bold" if column == columns - 1 else style)
            row.append(after, style=style)
            row.append("  ")
        rows.append(row)
    rows.append(Text(edge, end=""))
    return rows


def settlement_table(view: SettlementView, width: int) -> Text:
    """``settlement_rows`` as one text, for Rich to render (the panel's fallback, the tests)."""
    return Text("\n", no_wrap=True, overflow="crop", end="").join(settlement_rows(view, width))


class SettlementTable:
    """The settlement as the lower region draws it in the log's place (``LowerRegion``): the
    title, the totals and the table, at the region's width."""

    _shown: SettlementView | None = None

    def __init__(self, region: Widget) -> None:
        self.region = region

    def show(self, view: SettlementView) -> bool:
        """The settlement to show; whether it changed."""
        if view == self._shown:
            return False
        self._shown = view
        return True

    def render(self) -> Group | Text:
        view = self._shown
        if view is None:
            return Text()
        return Group(*self._heads(view), settlement_table(view, self.region.content_size.width or 118))

    def lines(self) -> list[Text]:
        view = self._shown
        if view is None:
            return []
        console, width = self.region.app.console, self.region.content_size.width
        if not width:
            return []
        return [*(row for head in self._heads(view) for row in head.wrap(console, width)),
                *settlement_rows(view, width)]

    def _heads(self, view: SettlementView) -> tuple[Text, Text]:
        # The table's totals right under the title: on a short terminal (100x30) the rows of the
        # last boxes may not fit, the totals must (each box's NETO is also on its panel).
        return Text(view.title, style="bold"), Text(view.totals, style="bold")
