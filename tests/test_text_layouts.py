"""Madero's settlement table and header lines, laid out by the console instead of Rich tables
(issue 32): what each draws is what the Rich table it replaces drew, cell by cell and style by
style (Rich renders both here)."""

from __future__ import annotations

from hypothesis import given, strategies as st
from rich import box as rich_box
from rich.console import Console
from rich.style import Style
from rich.table import Table
from rich.text import Text

from madero_tui.widgets.header import flush_right
from madero_tui.widgets.settlement import HAND, SettlementView, _amount_style, settlement_table

BETS = ("Ante", "Flop", "Turn", "River", "Bonus", "Jackpot")


def rich_table(view: SettlementView) -> Table:
    """The table as the panel drew it before (its code then, verbatim)."""
    table = Table(box=rich_box.SIMPLE_HEAD, expand=True)
    for i, header in enumerate(view.headers):
        if i == 1:
            table.add_column(header, no_wrap=True, ratio=1, overflow="ellipsis")
        else:
            table.add_column(header, justify="left" if i == 0 else "right", no_wrap=True)
    for row in view.rows:
        cells = [Text(c, style=_amount_style(c) if i > 1 else "") for i, c in enumerate(row)]
        cells[-1].stylize("bold")
        table.add_row(*cells)
    return table


def drawn(renderable: Table | Text, width: int) -> list[list[tuple[str, Style]]]:
    """Each row's cells, ``width`` of them as a widget draws a row: its character and its style
    (a segment's ``None`` style is no style; a row that ends short is padded with blanks)."""
    console = Console(width=width, color_system="truecolor")
    lines = console.render_lines(renderable, console.options.update_width(width), pad=False)
    rows = [[(ch, seg.style or Style()) for seg in line for ch in seg.text] for line in lines]
    return [row + [(" ", Style())] * (width - len(row)) for row in rows]


amounts = st.sampled_from(["+10", "−20", "0", "dev.", "—", "·", "+1.035", "−5", "+300 −20", "+12.345,50", "5"])
hands = st.sampled_from(["RETIRADO", "Par de Ases — GANA", "Escalera Real de Color — GANA", "Pareja de Reyes — EMPATE",
                         "MUERTA", "Color al As — PIERDE", "Full de Treses y Doses — GANA"])


@st.composite
def views(draw: st.DrawFn) -> SettlementView:
    boxes = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    rows = tuple((str(box), draw(hands), *(draw(amounts) for _ in BETS), draw(amounts)) for box in sorted(boxes))
    headers = (draw(st.sampled_from(["Casilla", "Box", "C."])), draw(st.sampled_from(["Mano", "Hand"])), *BETS,
               draw(st.sampled_from(["NETO", "Net"])))
    return SettlementView("LIQUIDACIÓN — Pase 1", headers, rows, "Mesa (ARS): paga 10")


def fixed_width(view: SettlementView) -> int:
    """The columns but the hand's, with the frame: what the table needs before the hand."""
    columns = len(view.headers)
    widths = [max(len(row[i]) for row in (view.headers, *view.rows)) for i in range(columns) if i != HAND]
    return sum(widths) + 2 + 2 * columns + (columns - 1)


@given(views(), st.integers(0, 80))
def test_the_table_is_drawn_as_the_rich_table_drew_it(view: SettlementView, room_for_the_hand: int) -> None:
    # Every width the console is used at (100 columns and more) leaves the hand some room; the
    # hand is cut with «…» where it needs more, as Rich cut it.
    width = fixed_width(view) + 1 + room_for_the_hand
    assert drawn(settlement_table(view, width), width) == drawn(rich_table(view), width)


def test_at_100_columns_the_largest_amounts_show_whole() -> None:
    # A box's widest row: Ante 500 and Flop 1.000 won, Turn and River 500, Bonus 100 at 500 to 1
    # and a progressive prize of millions; at 100 columns (98 inside the panel) the hand is cut,
    # never an amount.
    row = ("C.", "Escalera Real de Color — GANA", "+500", "+1.000", "+500", "+500", "+50.000", "+1.234.567",
           "+1.287.067")
    view = SettlementView("t", ("C.", "Mano", *BETS, "NETO"), tuple((str(b), *row[1:]) for b in range(1, 8)), "totals")
    text = "\n".join("".join(ch for ch, _ in line) for line in drawn(settlement_table(view, 98), 98))
    assert all(text.count(amount) == 7 for amount in ("+1.000", "+50.000", "+1.234.567", "+1.287.067"))
    assert text.count("Escalera Real de Colo…") == 7


def header_grid(left: Text, right: Text) -> Table:
    """A header line as the header drew it before (its code then)."""
    grid = Table.grid(expand=True)
    grid.add_column(no_wrap=True, ratio=1)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_row(left, right)
    return grid


words = st.text(st.sampled_from("abcMPB-01 ·áÑ–5§"), max_size=40)
styles = st.sampled_from(["", "bold", "bold reverse", "bold reverse yellow"])


@given(st.lists(st.tuples(words.filter(bool), styles), min_size=1, max_size=4),  # the title at least
       st.lists(st.tuples(words, styles), max_size=3),
       st.integers(1, 60))
def test_a_header_line_is_drawn_as_the_rich_grid_drew_it(left_parts, right_parts, room) -> None:
    left, right = Text.assemble(*left_parts), Text.assemble(*right_parts)
    width = max(1, right.cell_len) + room  # the console's widths leave the left part a column
    assert drawn(flush_right(left, right, width), width) == drawn(header_grid(left, right), width)
