"""``madero-tui pit --watch``: the Carrusel on its server, redrawn every second (read-only).

The app only shows what ``fetch(now)`` returns (``shared.madero.pit``); it reads in a worker
thread, so a slow or lost server never freezes the screen: the last figures stay, with the
reason they are not current.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from madero_tui.pit_cells import PRIZE_COLUMNS, TABLE_COLUMNS, heading, headings, prize_cells, table_cells
from shared.errors import ConsoleError
from shared.madero.pit import CarruselView
from shared.messages import text
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.app import BASE_CSS

REFRESH_S = 1.0
PIT_CSS = Path(__file__).with_name("pit.tcss")


class PitApp(App[None]):
    CSS_PATH = [BASE_CSS, PIT_CSS]
    BINDINGS = [Binding("q,escape", "quit", "quit")]

    def __init__(self, fetch: Callable[[datetime], CarruselView | None], carrusel_id: str, lang: str,
                 tz: tzinfo | None, online_minutes: int,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        super().__init__()
        self.fetch, self.carrusel_id, self.lang, self.tz = fetch, carrusel_id, lang, tz
        self.online_minutes, self.clock = online_minutes, clock

    def compose(self) -> ComposeResult:
        yield Static(id="pit-title")
        yield Static(id="pit-status")
        yield DataTable(id="pit-tables", cursor_type="none", zebra_stripes=True)
        yield Static(text("pit.online_rule", self.lang, minutes=self.online_minutes), classes="pit-note")
        yield Static(text("pit.prizes", self.lang), id="pit-prizes-title")
        yield DataTable(id="pit-prizes", cursor_type="none")
        yield Static(text("pit.watch_keys", self.lang), classes="pit-note")

    def on_mount(self) -> None:
        for table_id, columns in (("#pit-tables", TABLE_COLUMNS), ("#pit-prizes", PRIZE_COLUMNS)):
            table = self.query_one(table_id, DataTable)
            for label, (_, align, _) in zip(headings(columns, self.lang), columns, strict=True):
                table.add_column(self._cell(label, align, ""))
        self.reload()
        self.set_interval(REFRESH_S, self._tick)

    def _tick(self) -> None:
        # A slow server must not pile up reads, nor cancel one under way (a thread cannot be
        # stopped; cancelling only loses its answer): the next tick after it ends reads again.
        if not any(worker.group == "pit-read" and not worker.is_finished for worker in self.workers):
            self.reload()

    @work(thread=True, group="pit-read", exit_on_error=False)
    def reload(self) -> None:
        now = self.clock()
        try:
            view = self.fetch(now)
        except ConsoleError as exc:
            self.call_from_thread(self.show_problem, exc.message(self.lang))
            return
        if view is None:
            self.call_from_thread(self.show_problem, text("pit.no_carrusel", self.lang, carrusel=self.carrusel_id))
        else:
            self.call_from_thread(self.show, view, now)

    def show_problem(self, said: str) -> None:
        """The figures shown stay; the line above them says why they are not current."""
        status = self.query_one("#pit-status", Static)
        status.update(said)
        status.display = True

    def show(self, view: CarruselView, now: datetime) -> None:
        self.query_one("#pit-title", Static).update(heading(view, now, self.lang, self.tz))
        self.query_one("#pit-status", Static).display = False
        tables = self.query_one("#pit-tables", DataTable)
        tables.clear()
        for table in view.tables:
            cells = table_cells(table, self.lang, self.tz)
            style = "bold reverse yellow" if table.fallback else "" if table.online else "red"
            tables.add_row(*(self._cell(cell, align, style) for cell, (_, align, _) in
                             zip(cells, TABLE_COLUMNS, strict=True)))
        prizes = self.query_one("#pit-prizes", DataTable)
        prizes.clear()
        for prize in view.prizes:
            prizes.add_row(*(self._cell(cell, align, "") for cell, (_, align, _) in
                             zip(prize_cells(prize, self.lang, self.tz), PRIZE_COLUMNS, strict=True)))

    @staticmethod
    def _cell(cell: str, align: str, style: str) -> Text:
        return Text(cell, style=style, justify="right" if align == ">" else "left")
