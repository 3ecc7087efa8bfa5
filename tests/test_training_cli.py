"""``madero-tui train`` / ``midi-tui train``: options reach the training console."""

from __future__ import annotations

import sys

import pytest

import tui_common.training.app as training_app
from tui_common.cli import run_cli

MODULES = {"train": "tui_common.training.cli"}


@pytest.fixture
def launched(monkeypatch):
    calls: list[dict] = []
    monkeypatch.setattr(training_app, "run", lambda **kw: calls.append(kw) or 0)
    return calls


def cli(prog: str, argv: list[str]) -> int:
    return run_cli(prog, "help.midi_console", MODULES, lambda options: 99, argv)


def test_train_defaults_to_the_apps_game(launched, tmp_path):
    db = tmp_path / "t.sqlite3"
    assert cli("madero-tui", ["train", "--drill", "board", "--seed", "7", "--trainee", "0142",
                              "--training-db", str(db)]) == 0
    assert cli("midi-tui", ["--lang", "en", "train", "--count", "3", "--training-db", str(db)]) == 0
    first, second = launched
    assert first == {"game": "madero", "store_path": db, "lang": "es", "drill": "board", "seed": 7,
                     "trainee": "0142", "count": None}
    assert second["game"] == "midi" and second["lang"] == "en" and second["seed"] is None and second["count"] == 3


def test_seed_before_the_subcommand_is_kept(launched, tmp_path):
    assert cli("midi-tui", ["--seed", "5", "train", "--training-db", str(tmp_path / "t.sqlite3")]) == 0
    assert launched[0]["seed"] == 5


def test_a_drill_of_the_other_game_is_refused(launched, capsys):
    assert cli("midi-tui", ["train", "--drill", "board"]) == 2
    assert "midi no tiene el ejercicio «board»; los suyos son: coup, tableau, payouts" in capsys.readouterr().err
    assert cli("midi-tui", ["train", "--game", "madero", "--drill", "board", "--training-db", "/tmp/x.sqlite3"]) == 0
    assert launched[0]["game"] == "madero"


def test_unknown_drill_and_bad_count_are_refused(launched, capsys):
    with pytest.raises(SystemExit):
        cli("madero-tui", ["train", "--drill", "nope"])
    assert cli("madero-tui", ["train", "--count", "0"]) == 2
    assert "count: de 1 a 500 ejercicios" in capsys.readouterr().err
    assert launched == []


# --- graded tables and the trainers' tools (issue 20) ------------------------------------

def test_graded_launch_options(capsys, tmp_path):
    seen = []

    def launch(options):
        seen.append(options)
        return 0

    db = tmp_path / "t.sqlite3"
    argv = ["--training", "--graded", "--trainee", " 0142 ", "--seed", "3", "--training-db", str(db)]
    assert run_cli("midi-tui", "help.midi_console", MODULES, launch, argv) == 0
    [options] = seen
    assert (options.training, options.graded, options.trainee, options.seed, options.training_db) == (
        True, True, "0142", 3, db)
    for argv, message in ((["--graded", "--trainee", "x"], "--graded only applies with --training"),
                          (["--training", "--graded"], "--graded needs --trainee"),
                          (["--training", "--trainee", "x"], "only apply with --graded")):
        with pytest.raises(SystemExit):
            run_cli("midi-tui", "help.midi_console", MODULES, launch, ["--lang", "en", *argv])
        assert message in capsys.readouterr().err
    assert len(seen) == 1


def _graded_session(store, trainee: str, pattern) -> None:
    """One graded Midi session of two coups on the engine, answered as ``pattern(n)`` says."""
    from datetime import UTC, datetime

    from test_training import right_keys
    from test_training_graded import deal_on_the_engine, wrong_text

    answered = []

    def answer(q):
        answered.append(q)
        return right_keys(q) if pattern(len(answered) - 1) else wrong_text(q)

    _, dealing = deal_on_the_engine(4, 2, answer, trainee=trainee)
    store.save(dealing.score_card(), dealing.grades, started_at=datetime(2026, 3, 2, 9, tzinfo=UTC),
               finished_at=datetime(2026, 3, 2, 9, 30, tzinfo=UTC))


def test_report_lists_trainees_and_their_progress(capsys, tmp_path):
    import json

    from shared.training import TrainingStore

    db = tmp_path / "t.sqlite3"
    store = TrainingStore(db)
    _graded_session(store, "ana", lambda n: n % 2 == 0)
    _graded_session(store, "ana", lambda n: True)
    _graded_session(store, "beto", lambda n: True)
    store.set_pass_mark("midi", "third_card", 95, set_by="sup1")
    store.close()
    assert cli("midi-tui", ["train", "--report", "--json", "--training-db", str(db)]) == 0
    report = json.loads(capsys.readouterr().out)
    ana, beto = report["trainees"]
    assert (ana["trainee"], ana["sessions"], ana["graded_sessions"], ana["passed"]) == ("ana", 2, 2, True)
    assert ana["skills"]["third_card"]["first_percent"] < ana["skills"]["third_card"]["last_percent"] == 100
    assert ana["pass_marks"] == {"third_card": 95}
    assert beto["trainee"] == "beto"
    assert cli("midi-tui", ["train", "--report", "--trainee", "ana", "--training-db", str(db)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("ana · midi · 2 sesiones (2 en mesa)") and "APROBADO" in text
    assert "regla de tercera carta" in text and "marca 95 %" in text


def test_pass_marks_are_set_by_a_trainer_or_supervisor(monkeypatch, capsys, tmp_path):
    from shared.journal import Journal
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry
    from shared.training import TrainingStore

    journal_path = tmp_path / "midi.sqlite3"
    journal = Journal(journal_path, "MPB-02", "midi")
    staff = StaffRegistry(journal)
    staff.enrol("sup1", "Sup", Role.SUPERVISOR, "432100", by=None)
    staff.enrol("cr1", "Cr", Role.CROUPIER, "1111", by=Credentials("sup1", "432100"))
    journal.close()
    db = tmp_path / "t.sqlite3"
    pins = {"sup1": "432100", "cr1": "1111"}
    who = {}
    # Not a terminal: the PIN is read as a line of stdin (as ``staff`` reads it).
    monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"isatty": lambda self: False,
                                                         "readline": lambda self: pins[who["id"]] + "\n"})())
    base = ["--db", str(journal_path), "train", "--game", "midi", "--training-db", str(db)]
    who["id"] = "cr1"
    assert cli("midi-tui", base + ["--pass-mark", "payouts=90", "--by", "cr1"]) == 2
    assert "supervisor" in capsys.readouterr().err
    assert cli("midi-tui", base + ["--pass-mark", "nope=90", "--by", "sup1"]) == 2
    assert cli("midi-tui", base + ["--pass-mark", "payouts=²", "--by", "sup1"]) == 2  # a digit to isdigit(), not to int()
    who["id"] = "sup1"
    assert cli("midi-tui", base + ["--pass-mark", "payouts=90", "--pass-mark", "third_card=85", "--by", "sup1"]) == 0
    store = TrainingStore(db)
    assert store.pass_marks("midi") == {"third_card": 85, "payouts": 90}


def test_graded_madero_launches_the_graded_console(monkeypatch):
    import madero_tui.app
    from madero_tui.cli import main

    launched = []
    monkeypatch.setattr(madero_tui.app, "run", lambda options: launched.append(options) or 0)
    assert main(["--training", "--graded", "--trainee", "0142", "--seed", "3"]) == 0
    [options] = launched
    assert (options.training, options.graded, options.trainee, options.seed) == (True, True, "0142", 3)
