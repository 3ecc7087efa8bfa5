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


@pytest.mark.parametrize("main", [madero_main, midi_main])
def test_a_journal_without_its_key_stops_the_launch(tmp_path, capsys, main):
    """A live table never opens a journal without its key (nor makes a new one for it)."""
    from shared.journal import Journal, key_path
    from shared.madero.config import DEFAULT_MADERO_TABLE
    from shared.midi.config import DEFAULT_MIDI_TABLE

    game, table = ("madero", DEFAULT_MADERO_TABLE) if main is madero_main else ("midi", DEFAULT_MIDI_TABLE)
    path = tmp_path / "table.sqlite3"
    with Journal(path, table.table_id, game) as journal:
        journal.append("note", {"n": 1}, round_id=0, actor=None)
    key_path(path).unlink()
    assert main(["--lang", "en", "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "the table key" in err and "is missing" in err and "Traceback" not in err
    assert not key_path(path).exists()


def test_every_live_launch_is_journaled_saying_how_the_last_session_ended(tmp_path, capsys, monkeypatch):
    """Issue 29 §7: a crash and a relaunch left no trace. Each launch journals
    ``console_started`` (the first, after a close, after a session that never closed), each
    close ``console_closed``; a restart in the middle of a round shows in that round's recall."""
    from midi_helpers import live_table, open_live_shoe

    from shared.journal import Journal
    from tui_common.app import TableApp

    path = tmp_path / "midi.sqlite3"
    table = live_table(path=path)
    open_live_shoe(table)
    table.play.place_bet(1, "punto", 10)  # a coup open
    table.journal.close()

    def crash(self):
        raise RuntimeError("power cut")

    monkeypatch.setattr(TableApp, "run", lambda self: None)
    assert midi_main(["--db", str(path)]) == 0
    monkeypatch.setattr(TableApp, "run", crash)
    with pytest.raises(RuntimeError):
        midi_main(["--db", str(path)])
    monkeypatch.setattr(TableApp, "run", lambda self: None)
    assert midi_main(["--db", str(path)]) == 0
    with Journal.open_existing(path) as journal:
        sessions = [(e.type, e.payload.get("previous")) for e in journal.events()
                    if e.type in ("console_started", "console_closed")]
    assert sessions == [("console_started", "none"), ("console_closed", None), ("console_started", "closed"),
                        ("console_started", "interrupted"), ("console_closed", None)]
    capsys.readouterr()
    assert midi_main(["--lang", "en", "journal", "recall", "--db", str(path), "--last", "1"]) == 0
    assert "Console restarted: the previous session was NOT closed" in capsys.readouterr().out
