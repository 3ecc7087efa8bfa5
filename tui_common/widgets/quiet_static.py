"""A Static that redraws only when its text really changed."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui_common.widgets.unscrolled import Unscrolled


class QuietStatic(Unscrolled, Static):
    """``show_text(text)`` skips identical text, and skips the layout pass unless the number
    of lines changed (the table's regions have fixed sizes): most keystrokes then redraw
    one or two regions instead of laying out the whole screen."""

    _shown_text: Text | None = None
    _shown_rows: tuple[int, int] | None = None
    """The width the shown text was last measured at and its rows there (each wrap costs)."""

    def show_text(self, text: Text) -> None:
        previous = self._shown_text
        if previous is not None and text == previous:
            return
        self._shown_text = text
        width = self.content_size.width
        rows = self._rows(text)
        if previous is None:
            lines_changed = True
        elif self._shown_rows is not None and self._shown_rows[0] == width:
            lines_changed = self._shown_rows[1] != rows
        else:
            lines_changed = self._rows(previous) != rows
        self._shown_rows = (width, rows)
        self.update(text, layout=lines_changed)

    def _rows(self, text: Text) -> int:
        """The rows ``text`` takes at the widget's width: a line that wraps (Midi's prompt
        with a tie's five announcements at 120 columns) needs the layout as much as a «\\n»."""
        width = self.content_size.width
        if not width:
            return text.plain.count("\n") + 1
        return len(text.wrap(self.app.console, width))
