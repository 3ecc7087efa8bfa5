"""The settlement view: per box each bet's outcome and amount, then the table's totals."""

from __future__ import annotations


from rich import box as rich_box
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from shared.record import record
from tui_common.widgets.unscrolled import Unscrolled


@record
class SettlementView:
    title: str
    headers: tuple[str, ...]
    """Box, hand and result, then one column per bet, then the net."""
    rows: tuple[tuple[str, ...], ...]
    totals: str


def _amount_style(cell: str) -> str:
    if cell.startswith("+"):
        return "green"
    if cell.startswith("−"):
        return "red"
    return ""


class SettlementPanel(Unscrolled, Static):
    _shown: SettlementView | None = None

    def show(self, view: SettlementView) -> None:
        if view == self._shown:
            return
        self._shown = view
        table = Table(box=rich_box.SIMPLE_HEAD, expand=True)
        for i, header in enumerate(view.headers):
            if i == 1:
                table.add_column(header, no_wrap=True, ratio=1, overflow="ellipsis")
            else:
                table.add_column(header, justify="left" if i == 0 else "right", no_wrap=True)
        for row in view.rows:
            cells = [Text(c, style=_amount_style(c) if i > 1 else "") for i, c in enumerate(row)]
            cells[-1].stylize("bold")
            table.add_row(*cells)
        # The table's totals right under the title: on a short terminal (100x30) the rows of the
        # last boxes may not fit, the totals must (each box's NETO is also on its panel).
        self.update(Group(Text(view.title, style="bold"), Text(view.totals, style="bold"), table), layout=False)
