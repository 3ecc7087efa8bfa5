"""A console that cannot start says why on stderr and exits 2, whichever game: never a traceback."""

from __future__ import annotations

import pytest

from madero_tui.cli import main as madero_main
from midi_tui.cli import main as midi_main


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_a_journal_folder_that_cannot_be_made_is_refused_on_stderr(tmp_path, capsys, main):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    assert main(["--lang", "en", "--db", str(blocker / "table.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"Cannot open the table: {blocker}") and "Traceback" not in err


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_a_table_file_that_breaks_a_rule_is_refused_on_stderr(tmp_path, capsys, main):
    table = tmp_path / "table.toml"
    table.write_text('minimum = "abc"\n')
    assert main(["--table", str(table), "--db", str(tmp_path / "table.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "minimum" in err
    assert not (tmp_path / "table.sqlite3").exists()  # a refused table leaves no journal behind
