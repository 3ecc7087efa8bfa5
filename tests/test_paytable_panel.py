"""The paytable panel lays out its lines as Rich's grid did (issue 32: Rich's ``Table`` cost
~6 M instructions of the first frame), and lets Rich lay out what does not fit."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from madero_tui.widgets.paytable import grid, laid_out, paytable_lines

WORDS = st.sampled_from(["Escalera Real", "Póker", "Full house", "Color", "100 × cred.", "5.000", "€ 50", "",
                         "Escalera de color", "A-A vs A-A", "漢字", "[b]x[/b]", "a:b"])


def rich_lines(rows: list[tuple[str, str]], width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    return ["".join(segment.text for segment in line)
            for line in console.render_lines(grid(rows), console.options, pad=False)]


@given(st.lists(st.tuples(WORDS, WORDS), max_size=12), st.integers(min_value=1, max_value=90))
def test_the_lines_are_rich_s_grid_where_every_cell_fits(rows: list[tuple[str, str]], width: int) -> None:
    lines = laid_out(rows, width)
    if lines is not None:
        assert [line.plain for line in lines] == rich_lines(rows, width)


def test_a_cell_too_long_or_of_rich_s_markup_is_left_to_rich() -> None:
    rows = [("Escalera Real", "5.000"), ("Póker", "1.000")]
    assert laid_out(rows, 40) is not None and laid_out(rows, 20) is None
    assert laid_out([("[b]x[/b]", "1")], 40) is None and laid_out([("a:smile:", "1")], 40) is None


def test_a_panel_too_narrow_for_its_lines_shows_them_as_rich_crops_them() -> None:
    rows = [("Escalera Real", "5.000"), ("Escalera de color", "1.000"), ("Póker", "100")]
    console = Console(width=80, file=io.StringIO(), color_system=None)
    shown = [line.plain for line in paytable_lines(rows, 24, console)]
    assert laid_out(rows, 24) is None and "…" in "".join(shown)
    assert shown == rich_lines(rows, 24)
