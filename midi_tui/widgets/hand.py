"""A hand (PUNTO or BANCA): its cards, its total, and a mark where the next card goes."""

from __future__ import annotations

from rich.text import Text
from tui_common.widgets.quiet_static import QuietStatic

from shared.baccarat import total
from shared.midi.table import KeyedCard

HAND_STYLE = {"punto": "bold blue", "banca": "bold red"}
SUPERSCRIPT = dict(enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹"))


class HandPanel(QuietStatic):
    """``show(cards, next_here, note)``: cards in dealing order; ``▶ ?`` where the next card goes."""

    DEFAULT_CSS = """
    HandPanel { border: round $primary; height: 5; width: 1fr; padding: 0 1; }
    HandPanel.-winner { border: heavy $success; }
    HandPanel.-next { border: round $accent; }
    """

    def __init__(self, hand: str, title: str, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.hand = hand
        self.border_title = title
        self._key: tuple | None = None

    def show(self, cards: list[tuple[int, KeyedCard]], next_here: bool, note: str, winner: bool,
             hide_total: bool = False) -> None:
        """``cards``: (number in dealing order, 1–6, card); the number is what a supervisor
        types to correct a card. ``hide_total``: a graded table's question is waiting."""
        key = (tuple((n, c.text) for n, c in cards), next_here, note, winner, hide_total)
        if key == self._key:
            return
        self._key = key
        out = Text()
        for number, card in cards:
            out.append(f" {SUPERSCRIPT[number]}", style="dim")
            out.append(f"{card.display:<3}", style="bold")
        if next_here:
            out.append(" ▶ ?", style="bold reverse")
        if cards and not hide_total:
            out.append(f"    = {total([c.rank for _, c in cards])}", style=HAND_STYLE[self.hand])
        out.append("\n" + note)
        self.set_class(winner, "-winner")
        self.set_class(next_here, "-next")
        self.show_text(out)
