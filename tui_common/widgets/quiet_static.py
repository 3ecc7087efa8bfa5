"""A Static that redraws only when its text really changed."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class QuietStatic(Static):
    """``show_text(text)`` skips identical text, and skips the layout pass unless the number
    of lines changed (the table's regions have fixed sizes): most keystrokes then redraw
    one or two regions instead of laying out the whole screen."""

    _shown_text: Text | None = None

    def show_text(self, text: Text) -> None:
        previous = self._shown_text
        if previous is not None and text == previous:
            return
        self._shown_text = text
        lines_changed = previous is None or previous.plain.count("\n") != text.plain.count("\n")
        self.update(text, layout=lines_changed)
