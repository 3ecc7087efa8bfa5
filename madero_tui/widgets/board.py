"""The community cards (mesa) and the burn cards (quemadas)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static


class BoardPanel(Static):
    _shown: tuple | None = None

    def show(self, community: Text, burns: Text, title: str) -> None:
        if (community, burns, title) == self._shown:
            return
        self._shown = (community, burns, title)
        self.border_title = title
        lines = [Text.assemble("  ", community), Text(""), burns]
        self.update(Group(*lines), layout=False)
