"""One of the 7 boxes (casilleros): its bets, status, cards and what to pay."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
class BoxView:
    """What one box shows; built by ``madero_tui.view`` from the engine's state."""

    number: int
    bets: tuple[tuple[str, str], ...] = ()
    """(label, amount) rows: Ante, Flop, Turn, River, Bonus, Jackpot."""
    cards: Text | None = None
    status: str = ""
    status_kind: str = "free"
    """CSS class: free, active, retired, checked, dead, blind, void, won, lost, tie."""
    result: str = ""
    pay: str = ""
    """Net amount to pay (+) or collect (−) once settled."""
    acting: bool = False
    """The engine says this box decides next."""


STATUS_KINDS = ("free", "active", "retired", "checked", "dead", "blind", "void", "won", "lost", "tie")


class BoxPanel(Static):
    """A box; the parent sets ``view`` and ``selected``, the panel only draws them."""

    DEFAULT_CSS = """
    BoxPanel {
        width: 1fr;
        height: 100%;
        border: round $panel-lighten-2;
        border-title-align: left;
        padding: 0 1;
    }
    BoxPanel.-selected { border: heavy $accent; }
    BoxPanel.-acting { border-title-style: bold reverse; }
    BoxPanel.-free { color: $text-muted; }
    BoxPanel.-retired, BoxPanel.-dead, BoxPanel.-void { color: $text-muted; }
    """

    def __init__(self, number: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.number = number
        self.border_title = f" {number} "
        self.view = BoxView(number)

    def show(self, view: BoxView, *, selected: bool) -> None:
        self.view = view
        self.set_class(selected, "-selected")
        self.set_class(view.acting, "-acting")
        for kind in STATUS_KINDS:
            self.set_class(view.status_kind == kind, f"-{kind}")
        self.border_title = f" {'▶ ' if view.acting else ''}{view.number} "
        self.update(self._render_view(view))

    @staticmethod
    def _render_view(view: BoxView) -> Group:
        # Bets in a two-column grid; the longer lines below it so they never squeeze the amounts.
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        for label, amount in view.bets:
            grid.add_row(label, amount)
        lines: list = [grid]
        if view.cards is not None:
            lines.append(view.cards)
        lines.append(Text(view.status, style="bold", no_wrap=True, overflow="ellipsis"))
        if view.result:
            lines.append(Text(view.result, style="italic", no_wrap=True, overflow="ellipsis"))
        if view.pay:
            style = "bold green" if view.pay.startswith("+") else "bold red" if view.pay.startswith("−") else "bold"
            lines.append(Text(view.pay, style=style, justify="right"))
        return Group(*lines)
