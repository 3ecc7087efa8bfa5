"""The Madero main screen: header, bank, board, paytable, the 7 boxes or the settlement,
the prompt, the entry line and the keys the engine allows now."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.geometry import Size
from textual.widget import Widget

from madero_tui.widgets.box import BoxesBoard
from madero_tui.widgets.header import FallbackBanner, TableHeader
from madero_tui.widgets.top import TopRow
from madero_tui.widgets.prompt import PromptLine
from madero_tui.widgets.settlement import SettlementTable, SettlementView
from tui_common.widgets.amount_entry import AmountEntry
from tui_common.widgets.card_entry import CardEntry
from tui_common.widgets.drawn_lines import DrawnLines, wrapped
from tui_common.widgets.key_bar import KeyBar
from tui_common.widgets.message_line import MessageLine
from tui_common.screens.table import Band, TableScreenBase


class RecentEntries:
    """The last journal entries of the table, in the croupier's words: the newest at the
    bottom, always shown, as many of the older ones above as the rows hold (at 100×30 the
    first lines were shown and the two newest, the bets just placed, were not). A long entry
    wraps (on purpose, whole): it takes as many rows as it wraps to. Drawn by the lower
    region (``LowerRegion``), at its size."""

    _lines: tuple[str, ...] = ()
    _wrapped: tuple[int, dict[str, list[Text]]] = (0, {})
    """The width the entries were wrapped at, and each entry's rows there: a key adds one entry
    or two to the log, and wrapping every entry again cost ~1.5 ms of each key (issue 32)."""

    def __init__(self, region: LowerRegion) -> None:
        self.region = region

    @property
    def content_size(self) -> Size:
        return self.region.content_size

    def show(self, text: str) -> bool:
        """The entries to show (one a line); whether they changed."""
        lines = tuple(text.split("\n")) if text else ()
        if lines == self._lines:
            return False
        self._lines = lines
        return True

    def _shown(self) -> list[tuple[str, list[Text]]]:
        """The newest entries that fit, oldest first, each with its rows."""
        width, height = self.content_size
        if not width or not height:
            return [(line, [Text(line)]) for line in self._lines]
        wrapped_at, known = self._wrapped
        rows_of = {line: known[line] for line in self._lines if line in known} if wrapped_at == width else {}
        shown: list[tuple[str, list[Text]]] = []
        used = 0
        for line in reversed(self._lines):
            rows = rows_of.get(line)
            if rows is None:
                rows = rows_of[line] = wrapped(Text(line), width, self.region.app.console)
            if shown and used + len(rows) > height:
                break
            shown.append((line, rows))
            used += len(rows)
        self._wrapped = (width, rows_of)
        return shown[::-1]

    def render(self) -> Text:
        return Text("\n".join(line for line, _ in self._shown()))  # journal text, never markup

    def lines(self) -> list[Text]:
        return [row for _, rows in self._shown() for row in rows]


class LowerRegion(DrawnLines):
    """The log, or the settlement in its place (``current``), drawn by one widget; neither
    scrolls (each shows what fits). Two widgets swapped by their ``display`` laid the screen out
    again and drew the one shown anew, every row, on the keys that open and close the
    settlement (issue 32): here each keeps its painter (the log is drawn in the look
    ``lower--log``), and only its new rows are drawn."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries = RecentEntries(self)
        self.settlement = SettlementTable(self)
        self._shown: RecentEntries | SettlementTable = self.entries

    @property
    def current(self) -> str:
        """What the region shows: «log» or «settlement»."""
        return "log" if self._shown is self.entries else "settlement"

    @current.setter
    def current(self, shown: str) -> None:
        parts: dict[str, RecentEntries | SettlementTable] = {"log": self.entries, "settlement": self.settlement}
        if shown not in parts:
            raise ValueError(f"the lower region shows the log or the settlement, not {shown!r}")
        if parts[shown] is not self._shown:
            self._shown = parts[shown]
            self.redraw()

    def show_log(self, text: str) -> None:
        if self.entries.show(text) and self._shown is self.entries:
            self.redraw()

    def show_settlement(self, view: SettlementView) -> None:
        if self.settlement.show(view) and self._shown is self.settlement:
            self.redraw()

    def looks(self) -> tuple[str, ...]:
        return ("lower--log",) if self._shown is self.entries else ()

    def lines(self) -> list[Text]:
        return self._shown.lines()

    def render(self) -> RenderResult:
        return self._shown.render()


SHORT_ROWS = 34
"""Below this many rows the settlement table cannot show seven boxes under the full table."""
NARROW_COLUMNS = 120
"""Below this many columns a box's padding goes: 10 columns cut «NETO −1.000» to «NE.»."""


class TableScreen(TableScreenBase):
    """Composes the regions; the app fills them from the engine (``MaderoApp.refresh_table``)."""

    # The app focuses the entry the engine asks for; nothing is focused by position.
    AUTO_FOCUS = ""

    def __init__(self, boxes: int, lang: str, shared_widgets: list[Widget]) -> None:
        super().__init__(id="table")
        self.box_count = boxes
        self.lang = lang
        self.shared_widgets = shared_widgets
        self._settling = False
        self.top: TopRow | None = None

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT_ROWS, "-short")
        self.set_class(event.size.width < NARROW_COLUMNS, "-narrow")
        self._fit_top()

    def show_settling(self, settling: bool) -> None:
        """The settlement (or a void's returns) is on screen, or not."""
        self._settling = settling
        self._fit_top()

    def _fit_top(self) -> None:
        """A short terminal (100x30) at the settlement: the bank's and the board's row gives its
        room to the settlement table, so every box's row shows (the bank's hand is in the
        table's title). Set on the row, not by a class: a class restyled the row and its three
        panels on the keys that open and close the settlement (~1.2 ms each, issue 32)."""
        shown = not (self._settling and self.size.height < SHORT_ROWS)
        # Set only when it changes: setting it sets an inline rule, which lays the screen out.
        if self.top is not None and self.top.display != shown:  # mounted
            self.top.display = shown

    def on_mount(self) -> None:
        # Each region looked up once: the app redraws them after every keystroke.
        self.header = self.query_one(TableHeader)
        self.banner = self.query_one(FallbackBanner)
        self.top = self.query_one(TopRow)
        self.boxes = self.query_one(BoxesBoard)
        self.lower = self.query_one("#lower", LowerRegion)
        self.log_view = self.lower.entries
        self.settlement = self.lower.settlement
        self.prompt = self.query_one(PromptLine)
        self.amount_entry = self.query_one(AmountEntry)
        self.card_entry = self.query_one(CardEntry)
        self.key_bar = self.query_one(KeyBar)
        # Filled before the first frame, so the croupier's first sight is the table itself.
        self.app.refresh_table()  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield from self.shared_widgets
        yield TableHeader(id="header")
        yield FallbackBanner(id="fallback")
        yield TopRow(id="top")
        yield BoxesBoard(self.box_count, id="boxes")
        yield LowerRegion(id="lower")
        yield self.app.prompt_area(PromptLine(id="prompt"))  # type: ignore[attr-defined]
        with Band(id="entry-row"):
            yield CardEntry(id="card-entry")
            yield AmountEntry(self.lang, id="amount-entry")
            yield MessageLine(self.lang, id="message")
        yield KeyBar(self.lang, id="keys")
