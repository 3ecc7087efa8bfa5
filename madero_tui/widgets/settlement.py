"""The settlement view: per box each bet's outcome and amount, then the table's totals."""

from __future__ import annotations


from rich.cells import cell_len
from rich.console import Group
from rich.text import Text

from shared.record import record
from tui_common.widgets.drawn_lines import DrawnLines


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


def _cell(text: Text, width: int, column: int) -> Text:
    """``text`` in a column ``width`` wide: the box and the hand flush left, amounts right."""
    if column == HAND:
        text.truncate(width, overflow="ellipsis", pad=True)
    else:
        # Rich's own padding: the room takes the cell's colour, as a Rich table's cell did.
        text.align("left" if column == 0 else "right", width)
    return text


def settlement_table(view: SettlementView, width: int) -> Text:
    """The table ``width`` columns wide, drawn as a Rich ``Table`` with ``box.SIMPLE_HEAD``
    and ``expand`` draws it — a blank edge row, the bold headers, a rule, a row per box, a blank
    edge row; a space at each edge, a cell's padding either side of it, a space between
    columns — but laid out here: the Rich table measured and rendered every cell again at each
    settlement (~6 ms of the key that ends a round; issue 32)."""
    columns = len(view.headers)
    widths = [max(cell_len(row[i]) for row in (view.headers, *view.rows)) for i in range(columns)]
    # The edges, each cell's padding and the gaps between columns.
    frame = 2 + 2 * columns + (columns - 1)
    widths[HAND] = max(1, width - frame - sum(widths) + widths[HAND])
    edge = " " * (frame + sum(widths))
    out = Text(no_wrap=True, overflow="crop", end="")
    out.append(edge + "\n")
    out.append(" ")
    for column, header in enumerate(view.headers):
        out.append_text(Text.assemble(" ", _cell(Text(header), widths[column], column), " ", style="bold"))
        out.append(" ")
    out.append("\n " + "─" * (len(edge) - 2) + " \n")
    for row in view.rows:
        out.append(" ")
        for column, value in enumerate(row):
            text = Text(value, style=_amount_style(value) if column > HAND else "")
            if column == columns - 1:
                text.stylize("bold")
            out.append_text(Text.assemble(" ", _cell(text, widths[column], column), " "))
            out.append(" ")
        out.append("\n")
    out.append(edge)
    return out


class SettlementPanel(DrawnLines):
    DEFAULT_CSS = "SettlementPanel { height: auto; }"

    _shown: SettlementView | None = None

    def show(self, view: SettlementView) -> None:
        if view == self._shown:
            return
        self._shown = view
        self.redraw()

    def render(self) -> Group | Text:
        view = self._shown
        if view is None:
            return Text()
        return Group(*self._parts(view))

    def lines(self) -> list[Text]:
        view = self._shown
        if view is None:
            return []
        console, width = self.app.console, self.content_size.width
        return [row for part in self._parts(view) for row in part.wrap(console, width)] if width else []

    def _parts(self, view: SettlementView) -> tuple[Text, Text, Text]:
        # The table's totals right under the title: on a short terminal (100x30) the rows of the
        # last boxes may not fit, the totals must (each box's NETO is also on its panel).
        return (Text(view.title, style="bold"), Text(view.totals, style="bold"),
                settlement_table(view, self.content_size.width or 118))
