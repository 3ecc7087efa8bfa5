"""A text region that redraws only when its text really changed."""

from __future__ import annotations

from rich.text import Text

from tui_common.widgets.drawn_lines import DrawnLines, wrapped


class QuietStatic(DrawnLines):
    """``show_text(text)`` skips identical text, and skips the layout pass unless the number
    of rows changed and the height follows them (the table's regions have fixed sizes): most keystrokes then redraw
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
        before = None if previous is None else len(self._rows(previous))
        self._shown_text = text
        lines_changed = before != len(self._rows(text))
        self.redraw()
        if lines_changed and self._sized_by_rows():
            self.refresh(layout=True)

    def _sized_by_rows(self) -> bool:
        """The widget's height follows its rows (no height, or ``auto``): a region of a fixed
        height (Midi's boxes) lays nothing out when its rows change (each such key laid the
        whole screen out; issue 32)."""
        height = self.styles.height
        return height is None or height.is_auto

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
