"""The scoreboard: bead plate, big road, the three derived roads, the counts and the predictions.

The engine computes every road (``shared.midi.roads``); these widgets only lay the marks
out, two terminal cells per mark, showing the most recent columns that fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Span, Text
from textual.content import Content

from tui_common.widgets.drawn_boxes import BoxRows, DrawnBoxes, boxes_of, fr_shares

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


BEAD_PLATE_WIDTH = 34
"""The bead plate's box on a tall terminal (16 marks), the big road beside it taking the rest."""
DERIVED_WIDTH = 19
"""A derived road's box on a short terminal: as wide as «Cockroach pig» in its border."""
MIN_BOX_ROWS = 3
"""A box keeps its border and one row: a terminal shorter still cuts it off at the bottom."""


def road_boxes(width: int, height: int, short: bool) -> BoxRows:
    """The roads' boxes in a region of ``width`` × ``height``, numbered as ``road_titles``
    names them. Tall: the bead plate and the big road over the three derived roads, each row
    half the height; short: the five side by side, the derived roads at their fixed width and
    the bead plate and the big road halving the rest (``fr_shares``: as Textual laid out the
    bands the roads were in)."""
    if short:
        main = fr_shares(max(0, width - 3 * DERIVED_WIDTH), 2)
        return [(max(height, MIN_BOX_ROWS), boxes_of(range(5), [*main, *[DERIVED_WIDTH] * 3]))]
    top, bottom = fr_shares(height, 2)
    return [(max(top, MIN_BOX_ROWS), boxes_of((0, 1), (BEAD_PLATE_WIDTH, width - BEAD_PLATE_WIDTH))),
            (max(bottom, MIN_BOX_ROWS), boxes_of((2, 3, 4), fr_shares(width, 3)))]


def road_lines(cells: Sequence[Cell], cells_wide: int) -> list[Text]:
    """A road's six rows of marks ``cells_wide`` cells wide, the most recent columns that fit."""
    width = max(cells_wide // 2, 1)
    last = max((c[0] for c in cells), default=-1)
    first = max(0, last - width + 1)
    grid: list[list[tuple[str, str] | None]] = [[None] * width for _ in range(ROWS)]
    for col, row, chars, style in cells:
        if col >= first and row < ROWS:
            grid[row][col - first] = (chars, style)
    lines = []
    for marks in grid:
        # Adjacent cells of one style become one span (a span per cell cost ~2 ms a road), the
        # row's text and spans made whole (appended run by run they cost twice as much: a
        # settlement redraws the five roads, a launch draws a shoe's worth).
        pieces: list[str] = []
        spans: list[Span] = []
        start = position = 0
        run_style = "dim"
        for cell in marks:
            chars, style = cell if cell is not None else ("· ", "dim")
            if style != run_style:
                if position > start:
                    spans.append(Span(start, position, run_style))
                start, run_style = position, style
            pieces.append(chars)
            position += len(chars)
        if position > start:
            spans.append(Span(start, position, run_style))
        line = Text("".join(pieces), spans=spans)
        if 2 * width > cells_wide:
            line.truncate(cells_wide)  # a mark is two cells: one cell has room for none
        lines.append(line)
    return lines


class RoadsBoard(DrawnBoxes):
    """The five roads, each a box of six rows in its border with its title, as one region laid
    out by ``road_boxes``. ``show(key, cells)`` redraws only when ``key`` changes."""

    def __init__(self, titles: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.titles = [self.titled(title) for title in titles]
        self._key: object = None
        self._cells: Sequence[Sequence[Cell]] = [[] for _ in titles]

    def show(self, key: object, cells: Sequence[Sequence[Cell]]) -> None:
        if key == self._key:
            return
        self._key = key
        self._cells = cells
        self.redraw_boxes()

    def box_layout(self) -> BoxRows:
        """The boxes at the widget's size now; short: the screen's ``-short``."""
        width, height = self.outer_size
        return road_boxes(width, height, self.screen.has_class("-short"))

    def box(self, box: int, content_width: int) -> tuple[list[Text], Content, tuple[str, ...]]:
        return road_lines(self._cells[box], content_width), self.titles[box], ()


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


def counts_text(roads: Roads, lang: str) -> Text:
    """Counts of the shoe and, as scoreboards show, each derived road's next mark if BANCA or
    PUNTO won the next coup."""
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
    return out


def road_titles(lang: str) -> list[str]:
    """The five roads' titles, in the order ``road_boxes`` numbers them."""
    return [t("midi_bead_plate", lang), t("midi_big_road", lang), *(t(key, lang) for key in DERIVED_TITLE.values())]
