"""The tools' tables (``tui_common.tables``): columns by the cells a terminal draws, plain text."""

from __future__ import annotations

from rich.cells import cell_len

from tui_common.tables import PIPE_WIDTH, print_table, widths_of


def test_columns_line_up_by_terminal_cells_not_code_points(capsys):
    # «José» with a combining accent is five code points and four cells; «♠» and «—» one each.
    rows = [("Jose\u0301", "As ♠", "10"), ("Ana", "—", "1.000")]
    print_table(rows, headings=["croupier", "carta", "apostado"], right={2})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and {cell_len(line) for line in lines} == {len(lines[0])}
    columns = [cell_len(line[:line.index(word)]) for line, word in zip(lines, ("carta", "As ♠", "—"), strict=True)]
    assert columns == [12] * 3  # where the terminal draws each: one column


def test_a_table_off_a_terminal_has_no_colour_no_markup_and_no_trailing_blanks(capsys):
    print_table([("ante", "[Art. 9 §33]"), ("bonus", "[bold]x[/bold]")], headings=["apuesta", "artículo"])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "[Art. 9 §33]" in out and "[bold]x[/bold]" in out
    assert all(line == line.rstrip() for line in out.splitlines())


def test_a_wide_table_off_a_terminal_keeps_each_row_on_one_line(capsys):
    row = tuple(f"{n:>10}" for n in range(12))
    print_table([row], headings=[f"col{n}" for n in range(12)], indent=0)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and len(lines[1]) <= PIPE_WIDTH


def test_tables_printed_one_after_another_line_up_with_the_same_widths(capsys):
    first, second = [("ante", "+ARS 20")], [("jackpot", "−ARS 1")]
    widths = widths_of([*first, *second])
    assert widths == [7, 7]
    for rows in (first, second):
        print_table(rows, right={1}, widths=widths)
    assert [len(line) for line in capsys.readouterr().out.splitlines()] == [18, 18]
