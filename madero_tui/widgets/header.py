"""The two header lines: the table and its limits, then the round (pase, phase, deck, draws)."""

from __future__ import annotations


from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from shared.record import record


@record
class HeaderView:
    table: str
    """«Mesa MPB-01  ARS  mín 10 · máx 500 · Bonus 5–100»."""
    jackpot: str
    """«Jackpot FIJO» or the progressive meter."""
    croupier: str
    clock: str
    round_label: str
    """«Pase 57»."""
    phase: str
    deck: str = ""
    draws: Text | None = None
    """Carta Mágica and Jugador Afortunado once drawn (progressive tables)."""
    training: str = ""
    """The training mark, empty at a live table."""


class TableHeader(Static):
    _shown: tuple[HeaderView, str] | None = None

    def show(self, view: HeaderView, title: str) -> None:
        if (view, title) == self._shown:
            return
        self._shown = (view, title)
        self.view = view
        # Line 1 holds the limits and the Jackpot alone (a grid row of its own: a column shared
        # with the croupier's cut off the Bonus limits and the Jackpot at 100 columns); who
        # deals and the time go right on line 2.
        top = Table.grid(expand=True)
        top.add_column(no_wrap=True, ratio=1)
        top.add_column(justify="right", no_wrap=True)
        mark = Text(f" {view.training} ", style="bold reverse yellow") if view.training else Text("")
        top.add_row(Text.assemble((title, "bold"), "  ", view.table, "   ", (view.jackpot, "bold")), mark)
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, ratio=1)
        grid.add_column(justify="right", no_wrap=True)
        second = Text.assemble((view.round_label, "bold"), "   ", (view.phase, "bold reverse"), "   ", view.deck)
        if view.draws is not None:
            second.append("   ")
            second.append_text(view.draws)
        grid.add_row(second, Text.assemble(view.croupier, "   ", view.clock))
        self.update(Group(top, grid), layout=False)


class FallbackBanner(Static):
    """§48 in force: the progressive cannot be used, in letters the whole table sees (hidden
    otherwise)."""

    _shown: tuple[str, str] | None = None

    def show(self, banner: tuple[str, str] | None) -> None:
        """``banner``: the headline and why, or None when the progressive is in use."""
        self.display = banner is not None
        if banner is None or banner == self._shown:
            return
        self._shown = banner
        headline, why = banner
        self.update(Text.assemble((headline, "bold"), "\n", why))
