"""The two header lines: the table and its limits, then the round (pase, phase, deck, draws)."""

from __future__ import annotations


from rich.text import Text
from textual.widgets import Static

from shared.record import record
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.widgets.drawn_lines import DrawnLines


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


def flush_right(left: Text, right: Text, width: int) -> Text:
    """One header line ``width`` wide: ``right`` whole at the right edge, ``left`` in the rest
    (cut with «…» if it needs more), as a Rich ``Table.grid(expand=True)`` of a left column
    with ``ratio=1`` and a right one drew it — laid out here: the two grids were measured and
    rendered again on every key that changed the phase (~1 ms; issue 32)."""
    room = width - right.cell_len
    left, right = left.copy(), right.copy()
    left.truncate(room, overflow="ellipsis", pad=True)
    # Flush right as Rich justifies: its trailing blanks go before it.
    right.rstrip()
    right.align("right", width - room)
    return Text.assemble(left, right)


class TableHeader(DrawnLines):
    DEFAULT_CSS = "TableHeader { height: auto; }"

    _shown: tuple[HeaderView, str] | None = None

    def show(self, view: HeaderView, title: str) -> None:
        if (view, title) == self._shown:
            return
        self._shown = (view, title)
        self.view = view
        self.redraw()

    def lines(self) -> list[Text]:
        if self._shown is None:
            return []
        view, title = self._shown
        width = self.content_size.width or 118
        # Line 1 holds the limits and the Jackpot alone (a right part of its own: one shared
        # with the croupier's cut off the Bonus limits and the Jackpot at 100 columns); who
        # deals and the time go right on line 2.
        mark = Text(f" {view.training} ", style="bold reverse yellow") if view.training else Text("")
        top = Text.assemble((title, "bold"), "  ", view.table, "   ", (view.jackpot, "bold"))
        second = Text.assemble((view.round_label, "bold"), "   ", (view.phase, "bold reverse"), "   ", view.deck)
        if view.draws is not None:
            second.append("   ")
            second.append_text(view.draws)
        return [flush_right(top, mark, width), flush_right(second, Text.assemble(view.croupier, "   ", view.clock), width)]


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
