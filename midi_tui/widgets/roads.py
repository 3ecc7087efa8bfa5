"""The scoreboard: bead plate, big road, the three derived roads, the counts and the predictions.

The engine computes every road (``shared.midi.roads``); these widgets only lay the marks
out, two terminal cells per mark, showing the most recent columns that fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from tui_common.widgets.drawn_lines import DrawnLines
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


class RoadGrid(DrawnLines):
    """A 6-row grid of marks; ``show(key, cells)`` redraws only when ``key`` changes."""

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = title
        self._key: object = None
        self._cells: list[Cell] = []

    def show(self, key: object, cells: list[Cell]) -> None:
        if key == self._key:
            return
        self._key = key
        self._cells = cells
        self.redraw()

    def lines(self) -> list[Text]:
        cells_wide = self.content_size.width
        width = max(cells_wide // 2, 1)
        last = max((c[0] for c in self._cells), default=-1)
        first = max(0, last - width + 1)
        grid: list[list[tuple[str, str] | None]] = [[None] * width for _ in range(ROWS)]
        for col, row, chars, style in self._cells:
            if col >= first and row < ROWS:
                grid[row][col - first] = (chars, style)
        lines = []
        for cells in grid:
            # Adjacent cells of one style become one span (a span per cell cost ~2 ms a road).
            line = Text()
            run, run_style = "", "dim"
            for cell in cells:
                chars, style = cell if cell is not None else ("· ", "dim")
                if style != run_style:
                    line.append(run, style=run_style)
                    run, run_style = "", style
                run += chars
            line.append(run, style=run_style)
            line.truncate(cells_wide)  # a mark is two cells: an odd last cell stays blank
            lines.append(line)
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
