"""A text region that redraws only when its text really changed."""

from __future__ import annotations

from rich.text import Text
from textual.css.scalar import Unit

from tui_common.widgets.drawn_lines import DrawnLines, wrapped


class QuietStatic(DrawnLines):
    """``show_text(text)`` skips identical text, and skips the layout pass unless the height
    its rows give it changed (the table's regions have fixed sizes): most keystrokes then redraw
    one or two regions instead of laying out the whole screen. The text wraps at the
    widget's width, as a ``Static``'s would, and is drawn by ``DrawnLines``."""

    _shown_text: Text | None = None
    _wrapped: tuple[int, Text, list[Text]] | None = None
    """The width and text last wrapped, and its rows there (each wrap costs)."""

    def __init__(self, content: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        if content:
            self._shown_text = Text(content)

    @property
    def content(self) -> Text:
        """The text shown."""
        return self._shown_text or Text()

    def show_text(self, text: Text) -> None:
        previous = self._shown_text
        if previous is not None and text == previous:
            return
        before = self._height_of(len(self._rows(self.content)))
        self._shown_text = text
        self.redraw()
        if before != self._height_of(len(self._rows(text))):
            self.refresh(layout=True)

    def _height_of(self, rows: int) -> int:
        """The height ``rows`` give the widget; the screen is laid out only when it changes.
        A region of a fixed height (Midi's boxes) has one height whatever its rows (each such
        key laid the whole screen out; issue 32); an ``auto`` height keeps within its minimum
        and maximum in cells (the key bar keeps two rows for one row of keys or two: a phase
        whose keys took one row laid the screen out twice a round, issue 32)."""
        styles = self.styles
        height = styles.height
        if height is not None and not height.is_auto:
            return 0
        low, high = styles.min_height, styles.max_height
        if low is not None and low.unit is Unit.CELLS:
            rows = max(rows, int(low.value))
        if high is not None and high.unit is Unit.CELLS:
            rows = min(rows, int(high.value))
        return rows

    def render(self) -> Text:
        return self.content

    def lines(self) -> list[Text]:
        return self._rows(self.content)

    def _rows(self, text: Text) -> list[Text]:
        """``text``'s rows at the widget's width: a line that wraps (Midi's prompt with a tie's
        five announcements at 120 columns) needs the layout as much as a «\\n»."""
        width = self.content_size.width
        if not width:
            return list(text.split("\n"))
        known = self._wrapped
        if known is not None and known[0] == width and known[1] == text:
            return known[2]
        rows = wrapped(text, width, self.app.console)
        self._wrapped = (width, text, rows)
        return rows
