"""The Midi table screen: the whole table on one screen at 120×40."""

from __future__ import annotations

from textual.app import ComposeResult
from textual import events
from textual.widget import Widget

from tui_common.i18n import t
from tui_common.widgets import AmountEntry, KeyBar, MessageLine
from tui_common.screens.table import Band, TableScreenBase
from midi_tui.widgets.boxes import BoxesTable
from midi_tui.widgets.hand import HandsBoard
from midi_tui.widgets.header import TableHeader
from midi_tui.widgets.prompt import PromptLine
from midi_tui.widgets.roads import RoadsBoard, road_titles


SHORT_ROWS = 36
"""Below this many rows the roads cannot stand in two bands of six rows each."""


class MidiTableScreen(TableScreenBase):
    """Composes the regions; the app fills them from the engine (``MidiApp.refresh_table``)."""

    # Keys go to the app's bindings; only an open amount entry takes focus.
    AUTO_FOCUS = None

    def __init__(self, lang: str, banner: list[Widget]) -> None:
        super().__init__(id="table")
        self.lang = lang
        self.banner = banner

    def compose(self) -> ComposeResult:
        lang = self.lang
        yield from self.banner
        yield TableHeader(id="header")
        yield HandsBoard(["PUNTO", "BANCA", t("midi_counts", lang)], id="hands")
        boxes = BoxesTable(id="boxes")
        boxes.border_title = t("midi_boxes_title", lang)
        yield boxes
        yield RoadsBoard(road_titles(lang), id="roads")
        yield self.app.prompt_area(PromptLine(id="prompt-line"))  # type: ignore[attr-defined]
        with Band(id="entry-row"):
            yield AmountEntry(lang, id="amount")
            yield MessageLine(lang, id="message")
        yield KeyBar(lang, id="keys")

    def on_resize(self, event: events.Resize) -> None:
        # A short terminal (100×30) lays the five roads side by side: stacked, each showed
        # two of its six rows.
        self.set_class(event.size.height < SHORT_ROWS, "-short")

    ready = False
    """True once composed and mounted: the app draws the table only then."""

    def on_mount(self) -> None:
        # Each region looked up once: the app redraws them after every keystroke.
        self.header = self.query_one(TableHeader)
        self.hands = self.query_one(HandsBoard)
        self.boxes = self.query_one(BoxesTable)
        self.roads = self.query_one(RoadsBoard)
        self.prompt = self.query_one(PromptLine)
        self.amount_entry = self.query_one(AmountEntry)
        self.key_bar = self.query_one(KeyBar)
        # The app's start-up steps may finish before this screen is mounted: draw it now.
        self.ready = True
        self.app.refresh_table()  # type: ignore[attr-defined]
