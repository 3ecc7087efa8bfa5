"""The three header lines: the table and its limits; who deals, the coup and the phase; the shoe."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from midi_tui.view import HeaderView


class TableHeader(QuietStatic):
    """Table, limits, payout mode (line 1); croupier on duty, clock, coup, phase, sabot holder
    (line 2); the shoe: cards left, cut card, burn (line 3). Three short lines, not two long
    ones: a long line wraps at 120 columns and pushes the next out of the header."""

    _view: HeaderView | None = None

    def on_resize(self) -> None:
        if self._view is not None:
            self.show(self._view)

    def show(self, view: HeaderView) -> None:
        self._view = view
        line = Text()
        title = Text.assemble(("MIDI PUNTO Y BANCA", "bold"), "  ")
        first = Text.assemble(view.table, "  ", view.limits, "   ", (view.mode, "bold"))
        # At 100 columns a commission table's first line wrapped and pushed the shoe's line,
        # the cut card's, out of the header: the game's name gives way first.
        width = self.content_size.width
        if not width or title.cell_len + first.cell_len <= width:
            line.append_text(title)
        line.append_text(first)
        line.append("\n")
        line.append(view.croupier)
        if view.clock:
            line.append(f"   {view.clock}")
        line.append(f"   {view.coup}   ")
        line.append(view.phase, style="bold")
        line.append(f"   {view.sabot}\n")
        shoe = view.shoe
        if shoe is None:
            line.append(view.no_shoe)
        else:
            line.append(shoe.text)
            line.append(f" · {shoe.cut_label}: ")
            line.append(shoe.cut, style="bold reverse" if shoe.cut_out else "")
            if shoe.burn:
                line.append(" · " + shoe.burn)
        self.show_text(line)
