"""A hand (PUNTO or BANCA): its cards, its total, and a mark where the next card goes."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from midi_tui.view import HandView

HAND_STYLE = {"punto": "bold blue", "banca": "bold red"}
SUPERSCRIPT = dict(enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹"))


class HandPanel(QuietStatic):
    """``show(view)``: cards in dealing order; ``▶ ?`` where the next card goes."""

    def __init__(self, hand: str, title: str, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.hand = hand
        self.border_title = title
        self._shown: HandView | None = None

    def show(self, view: HandView) -> None:
        if view == self._shown:
            return
        self._shown = view
        out = Text()
        for number, card in view.cards:
            out.append(f" {SUPERSCRIPT[number]}", style="dim")
            out.append(f"{card:<3}", style="bold")
        if view.next_here:
            out.append(" ▶ ?", style="bold reverse")
        if view.cards and view.total is not None:
            out.append(f"    = {view.total}", style=HAND_STYLE[self.hand])
        out.append("\n" + view.note)
        self.set_class(view.winner, "-winner")
        self.set_class(view.next_here, "-next")
        self.show_text(out)
