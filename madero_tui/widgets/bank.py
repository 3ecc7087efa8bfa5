"""The bank's hand (la banca): two cards face down until the showdown, then its best five."""

from __future__ import annotations

from rich.text import Text

from tui_common.widgets.drawn_lines import DrawnLines


class BankHand(DrawnLines):
    _shown: tuple[Text, str, str] | None = None
    text = ""

    def show(self, cards: Text, combination: str, title: str) -> None:
        if (cards, combination, title) == self._shown:
            return
        self._shown = (cards, combination, title)
        self.border_title = title
        self.text = "\n".join(line.plain for line in self.lines())
        """What the panel shows, as plain text (tests read it)."""
        self.redraw()

    def lines(self) -> list[Text]:
        if self._shown is None:
            return []
        cards, combination, _ = self._shown
        return [cards, *([Text(combination, style="bold")] if combination else [])]
