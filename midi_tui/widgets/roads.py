"""The scoreboard: bead plate, big road, the three derived roads, the counts and the predictions.

The engine computes every road (``shared.midi.roads``); these widgets only lay the marks
out, two terminal cells per mark, showing the most recent columns that fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget
from tui_common.widgets.quiet_static import QuietStatic

from shared.baccarat import Winner
from shared.midi.roads import ROWS, Colour, Roads
from tui_common.i18n import t

WINNER_STYLE = {Winner.BANCA: "bold white on red", Winner.PUNTO: "bold white on blue", Winner.TIE: "bold black on green"}
WINNER_CHAR = {Winner.BANCA: "B", Winner.PUNTO: "P", Winner.TIE: "T"}
COLOUR_STYLE = {Colour.RED: "bold red", Colour.BLUE: "bold blue"}
DERIVED_CHAR = {"big_eye_boy": "○", "small_road": "●", "cockroach_pig": "╱"}
DERIVED_TITLE = {"big_eye_boy": "midi_big_eye_boy", "small_road": "midi_small_road", "cockroach_pig": "midi_cockroach_pig"}

Cell = tuple[int, int, str, str]
"""(col, row, two characters, style)."""


class RoadGrid(Widget):
    """A 6-row grid of marks; ``show(key, cells)`` redraws only when ``key`` changes."""

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = title
        self._key: object = None
        self._cells: list[Cell] = []
        self._lines_for: object = None
        self._lines: list[Strip] = []

    def show(self, key: object, cells: list[Cell]) -> None:
        if key == self._key:
            return
        self._key = key
        self._cells = cells
        self.refresh()

    def render_line(self, y: int) -> Strip:
        # Drawn as strips of segments, not as a Rich Text: five full roads rendered as Text
        # cost ~12 ms per frame, mostly in wrapping lines that never wrap.
        size = (self._key, self.content_size.width, self.rich_style)
        if self._lines_for != size:
            self._lines_for = size
            self._lines = self._draw(self.content_size.width)
        return self._lines[y] if y < len(self._lines) else Strip.blank(self.content_size.width, self.rich_style)

    def _draw(self, cells_wide: int) -> list[Strip]:
        width = max(cells_wide // 2, 1)
        last = max((c[0] for c in self._cells), default=-1)
        first = max(0, last - width + 1)
        grid: list[list[tuple[str, str] | None]] = [[None] * width for _ in range(ROWS)]
        for col, row, chars, style in self._cells:
            if col >= first and row < ROWS:
                grid[row][col - first] = (chars, style)
        base = self.rich_style
        lines = []
        for cells in grid:
            # Adjacent cells of one style become one segment.
            segments: list[Segment] = []
            run, run_style = "", "dim"
            for cell in cells:
                chars, style = cell if cell is not None else ("· ", "dim")
                if style != run_style:
                    if run:
                        segments.append(Segment(run, base + Style.parse(run_style)))
                    run, run_style = "", style
                run += chars
            if run:
                segments.append(Segment(run, base + Style.parse(run_style)))
            lines.append(Strip(segments).adjust_cell_length(cells_wide, base))
        return lines


def bead_cells(roads: Roads) -> list[Cell]:
    return [(c.col, c.row, WINNER_CHAR[c.coup.winner] + " ", WINNER_STYLE[c.coup.winner]) for c in roads.bead_plate]


def big_road_cells(roads: Roads) -> list[Cell]:
    cells = []
    for placed in roads.big_road:
        entry = placed.value
        style = "bold red" if entry.winner is Winner.BANCA else "bold blue"
        ties = entry.ties
        tie_mark = " " if not ties else (str(ties) if ties < 10 else "+")
        cells.append((placed.col, placed.row, "●" + tie_mark, style if not ties else style + " on dark_green"))
    return cells


def derived_cells(roads: Roads, name: str) -> list[Cell]:
    char = DERIVED_CHAR[name]
    return [(p.col, p.row, char + " ", COLOUR_STYLE[p.value]) for p in roads.derived[name]]


class CountsPanel(QuietStatic):
    """Counts of the shoe and, as scoreboards show, each derived road's next mark if BANCA or
    PUNTO won the next coup."""

    def show(self, roads: Roads, lang: str) -> None:
        c = roads.counts
        out = Text()
        out.append(f"BANCA {c.banca:<3}", style="bold red")
        out.append(f"PUNTO {c.punto:<3}", style="bold blue")
        out.append(f"TIE {c.tie:<3}", style="bold green")
        out.append(t("midi_counts_coups", lang, n=c.coups) + "\n")
        out.append(t("midi_counts_more", lang, naturals=c.naturals, sixes=c.banca_sixes,
                     pp=c.punto_pairs, bp=c.banca_pairs) + "\n")
        for winner, label in ((Winner.BANCA, "B"), (Winner.PUNTO, "P")):
            out.append(t("midi_next_if", lang, hand=label), style="bold red" if winner is Winner.BANCA else "bold blue")
            marks = roads.next_if.get(winner, {})
            for name in DERIVED_CHAR:
                colour = marks.get(name)
                out.append(" ")
                out.append(DERIVED_CHAR[name], style=COLOUR_STYLE[colour] if colour else "dim")
            out.append("   ")
        self.show_text(out)


def road_titles(lang: str) -> Sequence[tuple[str, str]]:
    """(widget id, title) of the five road grids."""
    return [
        ("bead-plate", t("midi_bead_plate", lang)),
        ("big-road", t("midi_big_road", lang)),
        *((f"road-{name}", t(key, lang)) for name, key in DERIVED_TITLE.items()),
    ]
