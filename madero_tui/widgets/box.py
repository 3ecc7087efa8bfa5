"""One of the 7 boxes (casilleros): its bets, status, cards and what to pay."""

from __future__ import annotations


from rich.text import Text

from shared.record import record
from tui_common.widgets.drawn_lines import DrawnLines


@record
class BoxView:
    """What one box shows; built by ``madero_tui.view`` from the engine's state."""

    number: int
    bets: tuple[tuple[str, str], ...] = ()
    """(label, amount) rows: Ante, Flop, Turn, River, Bonus, Jackpot."""
    cards: Text | None = None
    status: str = ""
    status_kind: str = "free"
    """Free, active, retired, checked, dead, blind, void, won, lost or tie (``OUT_OF_PLAY``: muted)."""
    result: str = ""
    pay: str = ""
    """Net amount to pay (+) or collect (−) once settled."""
    pay_label: str = ""
    acting: bool = False
    """The engine says this box decides next."""


OUT_OF_PLAY = frozenset({"free", "retired", "dead", "void"})
"""The statuses of a box drawn muted (the look ``box--muted``)."""


def _fitted(label: str, amount: str, width: int) -> str:
    """``label`` and the spaces that put ``amount`` flush right: a narrow box (100 columns)
    shortens the name, never the amount (a royal's «NETO +5.075» lost its figure)."""
    room = width - len(amount) - 1
    if len(label) > room:
        label = label[:max(1, room - 1)] + "."
    return label + " " * max(1, width - len(label) - len(amount))


class BoxPanel(DrawnLines):
    """A box; the parent sets ``view`` and ``selected``, the panel only draws them.

    Drawn as plain lines of text fitted to the panel's width, by ``DrawnLines`` (a Rich table
    per box per keystroke, then Textual's row by row drawing, cost more than the rest of the
    redraw).
    """

    def __init__(self, number: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.number = number
        self.border_title = f" {number} "
        self.view = BoxView(number)
        self._shown: tuple[BoxView, bool] | None = None
        self._looks: tuple[str, ...] = ("box--muted",)

    def show(self, view: BoxView, *, selected: bool) -> None:
        # Redraw only what changed: a keystroke usually touches one box of seven.
        if (view, selected) == self._shown:
            return
        self._shown = (view, selected)
        self.view = view
        self._looks = (
            *(["box--selected"] if selected else []),
            *(["box--acting"] if view.acting else []),
            *(["box--muted"] if view.status_kind in OUT_OF_PLAY else []),
        )
        # ▶ the box to act, ▸ the box selected for a bet: marks, not only colour and border.
        self.border_title = f" {'▶ ' if view.acting else '▸ ' if selected else ''}{view.number} "
        self.redraw()

    def looks(self) -> tuple[str, ...]:
        return self._looks

    def lines(self) -> list[Text]:
        view = self.view
        width = self.content_size.width or 13
        out = [Text(_fitted(label, amount, width) + amount) for label, amount in view.bets]
        if view.cards is not None:
            out.append(view.cards)
        out.append(Text(view.status, style="bold"))
        if view.result:
            out.append(Text(view.result, style="italic"))
        if view.pay:
            style = "bold green" if view.pay.startswith("+") else "bold red" if view.pay.startswith("−") else "bold"
            out.append(Text.assemble(_fitted(view.pay_label, view.pay, width), (view.pay, style)))
        return out
