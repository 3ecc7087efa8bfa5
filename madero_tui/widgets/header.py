"""The two header lines: the table and its limits, then the round (pase, phase, deck, draws)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
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
    DEFAULT_CSS = """
    TableHeader { height: 2; background: $boost; padding: 0 1; }
    """

    _shown: tuple | None = None

    def show(self, view: HeaderView, title: str) -> None:
        if (view, title) == self._shown:
            return
        self._shown = (view, title)
        self.view = view
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, ratio=1)
        grid.add_column(justify="right", no_wrap=True)
        top = Text.assemble((title, "bold"), "  ", view.table, "   ", (view.jackpot, "bold"))
        grid.add_row(top, Text.assemble(view.croupier, "   ", view.clock))
        second = Text.assemble((view.round_label, "bold"), "   ", (view.phase, "bold reverse"), "   ", view.deck)
        if view.draws is not None:
            second.append("   ")
            second.append_text(view.draws)
        mark = Text(f" {view.training} ", style="bold reverse yellow") if view.training else Text("")
        grid.add_row(second, mark)
        self.update(grid, layout=False)
