"""The three header lines: the table and its limits; who deals, the coup and the phase; the shoe."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from midi_tui.view import HeaderView


class TableHeader(QuietStatic):
    """Table, limits, payout mode (line 1); croupier on duty, clock, coup, phase, sabot holder
    (line 2); the shoe: cards left, cut card, burn (line 3). Three short lines, not two long
    ones: a long line wraps at 120 columns and pushes the next out of the header."""

    def show(self, view: HeaderView) -> None:
        line = Text()
        line.append("MIDI PUNTO Y BANCA", style="bold")
        line.append(f"  {view.table}  ")
        line.append(view.limits)
        line.append("   " + view.mode, style="bold")
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
