"""The prompt line: what happens next and what the croupier announces, in the engine's words."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static


class PromptLine(Static):
    DEFAULT_CSS = """
    PromptLine { height: 1; padding: 0 1; background: $primary-background; }
    """

    def show(self, prompt: str, article: str, announce: str = "", announce_label: str = "") -> None:
        """``prompt``: the next step; ``announce``: what the croupier says for the last entry."""
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        said = Text.assemble(f"{announce_label} ", (f"«{announce}»", "bold yellow")) if announce else Text("")
        grid.add_row(Text.assemble(("▶ ", "bold yellow"), (prompt, "bold")), said, Text(article, style="dim"))
        self.text = f"▶ {prompt}" + (f"   {announce_label} «{announce}»" if announce else "")
        """The prompt as plain text (tests read it)."""
        self.update(grid)
