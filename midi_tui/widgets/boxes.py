"""The 9 boxes (PUNTO and BANCA bets) and the TIE departments 1–9, with what to pay once decided."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from midi_tui.view import BoxesView

CELL = 11
"""Widest column of a box; narrower when 9 columns of 11 do not fit (100 columns: 9)."""
LABEL = 12


def _fit(text: str, width: int) -> str:
    # Never cut an amount: one that is wider than its column pushes the row right instead.
    return " " + text if len(text) >= width else text.rjust(width)


class BoxesTable(QuietStatic):
    """One column per spot; rows PUNTO, BANCA, TIE (department = box number), the
    commission tally at a commission-tally table (Art. 5 §3: what each box owes, this
    coup's share included once decided), then the net per box once the coup is decided.
    Marks: ◆ sabot, ▲ turns PUNTO's cards, ▸ and reverse video the box selected for the next bet."""

    _shown: BoxesView | None = None

    def on_resize(self) -> None:
        # The columns' width follows the terminal's: draw again at the new size.
        if self._shown is not None:
            self.show(self._shown)

    def show(self, view: BoxesView) -> None:
        self._shown = view
        width = self.content_size.width
        cell = max(8, min(CELL, (width - LABEL) // len(view.spots))) if width else CELL
        out = Text()
        out.append(view.title.ljust(LABEL), style="bold")
        for head in view.spots:
            out.append(" " * (cell - len(head.text)))
            out.append(head.text, style=head.style)
        out.append("\n")
        for row in view.rows:
            out.append(row.label.ljust(LABEL), style=row.style)
            for item in row.cells:
                out.append(_fit(item.text, cell), style=item.style)
            out.append("\n")
        if view.totals:
            first, *rest = view.totals
            totals = Text(first.text, style=first.style)
            for item in rest:
                totals.append(item.text, style=item.style)
            out.append_text(totals)
        self.show_text(out)
