"""The community cards (mesa) and the burn cards (quemadas)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static


class BoardPanel(Static):
    _shown: tuple[Text, Text, str] | None = None

    def show(self, community: Text, burns: Text, title: str) -> None:
        if (community, burns, title) == self._shown:
            return
        self._shown = (community, burns, title)
        self.border_title = title
        self._draw()

    def on_resize(self) -> None:
        if self._shown is not None:
            self._draw()

    def _draw(self) -> None:
        assert self._shown is not None
        community, burns, _ = self._shown
        first = Text.assemble("  ", community)
        width = self.content_size.width
        # At 100 columns five cards take two rows: the blank row goes, or the third burn card
        # fell below the panel.
        gap = [] if width and first.cell_len > width else [Text("")]
        self.update(Group(first, *gap, burns), layout=False)
