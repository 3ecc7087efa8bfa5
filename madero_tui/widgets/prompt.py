"""The prompt line: what happens next and what the croupier announces, in the engine's words."""

from __future__ import annotations

from rich.text import Text

from tui_common.widgets.drawn_lines import DrawnLines, wrapped


class PromptLine(DrawnLines):
    _shown: tuple[Text] | tuple[str, str, str, str] | None = None
    _rows = 1
    text = ""

    def show(self, prompt: str, article: str, announce: str = "", announce_label: str = "") -> None:
        """``prompt``: the next step; ``announce``: what the croupier says for the last entry."""
        if (prompt, article, announce, announce_label) == self._shown:
            return
        self._shown = (prompt, article, announce, announce_label)
        self.set_class(False, "-question")
        self.text = f"▶ {prompt}" + (f"   {announce_label} «{announce}»" if announce else "")
        """The prompt as plain text (tests read it)."""
        # Laid out again only when the rows it takes change (a relayout per key is costly).
        rows = len(self.lines())
        self.redraw()
        if rows != self._rows:
            self.refresh(layout=True)
        self._rows = rows

    def show_text(self, question: Text) -> None:
        """A graded table's question in place of the engine's prompt (as many lines as it needs)."""
        if self._shown == (question,):
            return
        self._shown = (question,)
        self.set_class(True, "-question")
        self.text = question.plain
        self.redraw()
        self.refresh(layout=True)

    def lines(self) -> list[Text]:
        width = self.content_size.width
        return wrapped(self.render(), width, self.app.console) if width else [self.render()]

    def render(self) -> Text:
        if self._shown is None:
            return Text()
        if len(self._shown) == 1:
            return self._shown[0]
        prompt, article, announce, announce_label = self._shown
        left = Text.assemble(("▶ ", "bold yellow"), (prompt, "bold"))
        said = (f"«{announce}»", "bold yellow")
        right = Text.assemble(f"{announce_label} ", said, "  ") if announce else Text()
        right.append(article, style="dim")
        # One line, the announcement and the article flush right; laid out when drawn, so the
        # first frame and every resize use the real width (a Text is cheaper than a table).
        room = self.content_size.width
        if announce and left.cell_len + 1 + right.cell_len > room:
            # 100 columns: «anuncie» goes first, then the prompt's end; the article and what
            # to announce stay whole.
            right = Text.assemble(said, "  ", (article, "dim"))
        if room and left.cell_len + 1 + right.cell_len > room:
            # Still too long (a §39 redeal's words at 100 columns): the prompt takes the rows
            # it needs, whole, and the announcement and the article go flush right under it
            # (the prompt was cut to «Mezcl…»).
            lines = left.wrap(self.app.console, room)
            last = lines[-1].cell_len if lines else 0
            if last + 1 + right.cell_len > room:
                left.append("\n")
                last = 0
            left.append(" " * max(1, room - last - right.cell_len))
            left.append_text(right)
            return left
        width = room - left.cell_len - right.cell_len
        return Text.assemble(left, " " * max(1, width), right, no_wrap=True, overflow="ellipsis")
