"""The bank's hand (la banca): two cards face down until the showdown, then its best five."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static


class BankHand(Static):
    _shown: tuple[Text, str, str] | None = None
    text = ""

    def show(self, cards: Text, combination: str, title: str) -> None:
        if (cards, combination, title) == self._shown:
            return
        self._shown = (cards, combination, title)
        self.border_title = title
        lines = [cards]
        if combination:
            lines.append(Text(combination, style="bold"))
        self.text = "\n".join(line.plain for line in lines)
        """What the panel shows, as plain text (tests read it)."""
        self.update(Group(*lines), layout=False)
