"""The community cards (mesa) and the burn cards (quemadas)."""

from __future__ import annotations

from rich.text import Text

from tui_common.widgets.drawn_lines import DrawnLines


class BoardPanel(DrawnLines):
    _shown: tuple[tuple[Text, ...], Text, str] | None = None

    def show(self, community: tuple[Text, ...], burns: Text, title: str) -> None:
        if (community, burns, title) == self._shown:
            return
        self._shown = (community, burns, title)
        self.border_title = title
        self.redraw()

    def lines(self) -> list[Text]:
        if self._shown is None:
            return []
        community, burns, _ = self._shown
        width = self.content_size.width  # a new width draws anew (DrawnLines)
        # The five cards on one row: two spaces between them and an indent where there is
        # room, one space at 100 columns (the fifth card wrapped to a second row).
        spaced = [Text.assemble(indent, Text(gap).join(community)) for indent, gap in (("  ", "  "), ("", "  "), ("", " "))]
        first = next((line for line in spaced if not width or line.cell_len <= width), spaced[-1])
        # Should even one space not do (four tens), the cards wrap and the blank row goes, or
        # the third burn card fell below the panel.
        gap = [] if width and first.cell_len > width else [Text("")]
        return [first, *gap, burns]
