"""The hands band: PUNTO's and BANCA's hands (their cards, totals, and a mark where the next
card goes) and the shoe's counts beside them, drawn as one region."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.content import Content

from shared.midi.roads import Roads
from tui_common.widgets.drawn_boxes import BoxRows, DrawnBoxes, boxes_of, fr_shares

from midi_tui.view import HANDS, HandView
from midi_tui.widgets.roads import counts_text

HAND_STYLE = {"punto": "bold blue", "banca": "bold red"}
SUPERSCRIPT = dict(enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹"))
COUNTS_WIDTH = 46
"""The counts' box, beside the two hands that share the rest of the width."""
COUNTS = len(HANDS)
"""The counts' box number, after the hands' (``HANDS``' order)."""


def hand_text(hand: str, view: HandView) -> Text:
    """A hand's cards in dealing order with their numbers, ``▶ ?`` where the next card goes,
    its total, and under them its note."""
    out = Text()
    for number, card in view.cards:
        out.append(f" {SUPERSCRIPT[number]}", style="dim")
        out.append(f"{card:<3}", style="bold")
    if view.next_here:
        out.append(" ▶ ?", style="bold reverse")
    if view.cards and view.total is not None:
        out.append(f"    = {view.total}", style=HAND_STYLE[hand])
    out.append("\n" + view.note)
    return out


def hand_looks(view: HandView) -> tuple[str, ...]:
    """The looks a hand is drawn in, each over the one before (``HandsBoard > .hand--…``)."""
    return (*(["hand--winner"] if view.winner else []), *(["hand--next"] if view.next_here else []))


class HandsBoard(DrawnBoxes):
    """PUNTO, BANCA and the counts side by side, each a box in the board's border with its
    title. ``show_hand`` and ``show_counts`` redraw only the box whose text or looks changed.

    Three widgets in a band were four nodes for Textual to style, lay out and draw at every
    launch (~3 M instructions a node, issue 32); their boxes are laid out here as Textual laid
    the widgets out (``tests/test_drawn_lines.py`` compares both, cell by cell)."""

    def __init__(self, titles: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.titles = [self.titled(title) for title in titles]
        self.texts = [Text() for _ in titles]
        """Each box's text: PUNTO's, BANCA's, the counts'."""
        self.looks_of: list[tuple[str, ...]] = [() for _ in titles]
        self._views: dict[str, HandView] = {}
        self._counted: tuple[Roads, str] | None = None

    def show_hand(self, hand: str, view: HandView) -> None:
        if self._views.get(hand) == view:
            return
        self._views[hand] = view
        self._show(HANDS.index(hand), hand_text(hand, view), hand_looks(view))

    def show_counts(self, roads: Roads, lang: str) -> None:
        """The counts of ``roads``: worded again only for other roads (the engine makes them
        anew when a coup is added to the shoe's history or a shoe starts)."""
        counted = self._counted
        if counted is not None and counted[0] is roads and counted[1] == lang:
            return
        self._counted = (roads, lang)
        self._show(COUNTS, counts_text(roads, lang), ())

    def _show(self, box: int, text: Text, looks: tuple[str, ...]) -> None:
        if (text, looks) != (self.texts[box], self.looks_of[box]):
            self.texts[box], self.looks_of[box] = text, looks
            self.redraw_boxes([box])

    def box_layout(self) -> BoxRows:
        """The hands as wide as ``1fr`` each beside the counts' fixed width, as tall as the board."""
        width, height = self.outer_size
        widths = [*fr_shares(max(0, width - COUNTS_WIDTH), 2), COUNTS_WIDTH]
        return [(height, boxes_of(range(COUNTS + 1), widths, self.styles.gutter.width))]

    def box(self, box: int, content_width: int) -> tuple[list[Text], Content, tuple[str, ...]]:
        return list(self.texts[box].split("\n", allow_blank=True)), self.titles[box], self.looks_of[box]
