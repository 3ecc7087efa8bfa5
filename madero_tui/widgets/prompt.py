"""The prompt line: what happens next and what the croupier announces, in the engine's words."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static


class PromptLine(Static):
    DEFAULT_CSS = """
    PromptLine { height: 1; padding: 0 1; background: $primary-background; }
    """

    def show(self, prompt: str, article: str) -> None:
        grid = Table.grid(expand=True)
        grid.add_column(ratio=1, no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text.assemble(("▶ ", "bold yellow"), (prompt, "bold")), Text(article, style="dim"))
        self.text = f"▶ {prompt}"
        """The prompt as plain text (tests read it)."""
        self.update(grid)
