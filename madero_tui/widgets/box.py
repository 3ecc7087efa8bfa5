"""The boxes (casilleros): each one's bets, status, cards and what to pay."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.content import Content

from shared.record import record
from tui_common.widgets.drawn_boxes import BoxRows, DrawnBoxes, boxes_of, fr_shares


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


def box_lines(view: BoxView, width: int) -> list[Text]:
    """A box's lines ``width`` cells wide: its bets, cards, status, result and what to pay."""
    width = width or 13
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


def box_title(view: BoxView, selected: bool) -> str:
    """▶ the box to act, ▸ the box selected for a bet: marks, not only colour and border."""
    return f" {'▶ ' if view.acting else '▸ ' if selected else ''}{view.number} "


def box_looks(view: BoxView, selected: bool) -> tuple[str, ...]:
    """The looks a box is drawn in, each over the one before (``BoxesBoard > .box--…``)."""
    return (*(["box--selected"] if selected else []), *(["box--acting"] if view.acting else []),
            *(["box--muted"] if view.status_kind in OUT_OF_PLAY else []))


class BoxesBoard(DrawnBoxes):
    """The table's boxes side by side, each in the board's border with its number; the app sets
    their views and the box selected (``show``), the board only draws them, a box redrawn
    only when its view or its selection changed (a keystroke usually touches one of seven)."""

    def __init__(self, count: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.views = [BoxView(number) for number in range(1, count + 1)]
        self.selected = [False] * count
        self.titles = [self.titled(box_title(view, False)) for view in self.views]
        self.looks_of = [box_looks(view, False) for view in self.views]

    def show(self, views: Sequence[BoxView], selected: int | None) -> None:
        changed = []
        for index, view in enumerate(views):
            chosen = view.number == selected
            if (view, chosen) != (self.views[index], self.selected[index]):
                self.views[index], self.selected[index] = view, chosen
                self.titles[index] = self.titled(box_title(view, chosen))
                self.looks_of[index] = box_looks(view, chosen)
                changed.append(index)
        if changed:
            self.redraw_boxes(changed)

    def box_layout(self) -> BoxRows:
        """One row of boxes as wide as ``1fr`` each, as tall as the board."""
        width, height = self.outer_size
        return [(height, boxes_of(range(len(self.views)), fr_shares(width, len(self.views)), self.styles.gutter.width))]

    def box(self, box: int, content_width: int) -> tuple[list[Text], Content, tuple[str, ...]]:
        return box_lines(self.views[box], content_width), self.titles[box], self.looks_of[box]
