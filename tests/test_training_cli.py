"""``madero-tui train`` / ``midi-tui train``: options reach the training console."""

from __future__ import annotations

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
    return run_cli(prog, "test", MODULES, lambda options: 99, argv)


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
    assert "--count: al menos 1 ejercicio" in capsys.readouterr().err
    assert launched == []

