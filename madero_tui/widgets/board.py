"""The community cards (mesa) and the burn cards (quemadas)."""

from __future__ import annotations

from rich.text import Text


def board_lines(community: tuple[Text, ...], burns: Text, width: int) -> list[Text]:
    """The community cards on one row and the burn cards under them, at ``width`` (0: not laid
    out yet)."""
    # The five cards on one row: two spaces between them and an indent where there is
    # room, one space at 100 columns (the fifth card wrapped to a second row).
    spaced = [Text.assemble(indent, Text(gap).join(community)) for indent, gap in (("  ", "  "), ("", "  "), ("", " "))]
    first = next((line for line in spaced if not width or line.cell_len <= width), spaced[-1])
    # Should even one space not do (four tens), the cards wrap and the blank row goes, or
    # the third burn card fell below the panel.
    gap = [] if width and first.cell_len > width else [Text("")]
    return [first, *gap, burns]
