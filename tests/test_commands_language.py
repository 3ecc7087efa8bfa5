"""Every command answers in the language asked (``--lang``, else LC_ALL/LANG), with no word of
the other: each run's output is searched for marker words of the language it must not speak.

``--help`` of the app and of every subcommand is searched too (argparse's own words come from
the catalog); in it, ``{a,b}`` lists are values typed on the command line, not words. ``--json``
(machine output with fixed keys) is not searched; the Textual consoles are tested in their own
English tests.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

import madero_tui.cli
import midi_tui.cli
from madero_tui.commands.pit import SERVER_ENV
from shared.actor import Role
from shared.journal import Journal, key_path
from shared.staff import StaffRegistry

# Words only one language uses (whole words, case ignored). Game terms the regulation keeps in
# Spanish in both interfaces (PUNTO, BANCA, TIE, natural, «No va más») are not markers.
MARKERS = {
    "es": ("casilla", "casillero", "pase", "pases", "paga", "cobra", "devuelve", "mesa", "diario", "entradas",
           "turno", "gana", "sabot", "mazos", "línea", "fuerza", "ventaja", "falta", "inválido", "exacto",
           "retirado", "bloqueada", "apostado", "devuelto", "comisión", "redondeo", "cartas", "quemadas",
           "corte", "de", "la", "el", "con", "sin", "no hay", "y"),
    "en": ("box", "round", "rounds", "pays", "collects", "returns", "table", "entries", "shift",
           "wins", "shoe", "decks", "line", "strength", "edge", "missing", "invalid", "exact", "folded",
           "locked", "bet", "returned", "commission", "rounding", "cards", "burned", "cut", "the", "of",
           "with", "without", "and", "no round"),
}
OTHER = {"es": "en", "en": "es"}
STAFF_NAMES = ("Gerente de turno", "Punto y Banca")
"""Data, not interface: a name enrolled by the test journal (``madero_helpers.make_staff``), and
the game's name, which the regulation gives in Spanish."""
DRIVER_REASON = re.compile(r"\(connection failed:[^)]*\)")
"""The PostgreSQL driver's own reason why the server did not answer, quoted as libpq wrote it
for whoever fixes the network: no catalog has its words."""
# Subcommands with their own verbs, each with its own --help.
VERBS = {"journal": ("verify", "anchor", "recall", "archive"),
         "staff": ("list", "enrol", "deactivate", "reset-pin", "unlock", "passwd")}


def _help_runs() -> list[tuple[str, list[str], str | None]]:
    """``--help`` of each app, of every subcommand it registers and of every verb."""
    runs: list[tuple[str, list[str], str | None]] = []
    for game, subcommands in (("madero", madero_tui.cli.SUBCOMMANDS), ("midi", midi_tui.cli.SUBCOMMANDS)):
        runs.append((game, ["--help"], None))
        for name in subcommands:
            runs.append((game, [name, "--help"], None))
            runs += [(game, [name, verb, "--help"], None) for verb in VERBS.get(name, ())]
    return runs

ROUND = {"board": ["Kh", "7h", "2h", "9c", "3s"], "bank": ["Ac", "Kd"],
         "boxes": [{"box": 1, "ante": 20, "flop": 40, "river": 20, "bonus": 5, "cards": ["Ah", "9h"]},
                   {"box": 2, "ante": 10, "folded": True}]}
COUP = {"punto": "9 K", "banca": "3 4 5", "boxes": [{"box": 1, "banca": 100, "punto": 20, "tie": 5}]}
SHOE = " ".join(["A"] + ["9", "K", "3", "4", "5", "2", "7", "Q"] * 6)


def _madero_journal(path) -> str:
    from madero_helpers import live_table

    table = live_table(path)
    table.play.place_bet(1, "ante", 20)
    table.play.no_va_mas()
    table.play.voy(1)
    for card in ["Kh", "7h", "2h"]:
        table.play.key_card(card)
    table.play.check(1)
    table.play.key_card("9c")
    table.play.check(1)
    for card in ["3s", "Ac", "Kd", "Ah", "9h"]:
        table.play.key_card(card)
    table.play.confirm_settlement()
    db = str(table.journal.path)
    table.journal.close()
    return db


def _midi_journal(path) -> str:
    db = path / "midi.sqlite"
    journal = Journal(db, "MPB-02", "midi")
    StaffRegistry(journal).enrol("S1", "Sara", Role.SUPERVISOR, "135790", by=None)
    journal.close()
    return str(db)


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> dict[str, str]:
    return {"madero": _madero_journal(tmp_path_factory.mktemp("madero")),
            "midi": _midi_journal(tmp_path_factory.mktemp("midi"))}


def _copy(db: str, directory) -> str:
    """A journal of the test's own (with its key): the staff verbs change it."""
    target = directory / Path(db).name
    shutil.copy(db, target)
    shutil.copy(key_path(Path(db)), key_path(target))
    return str(target)


def _runs(journals: dict[str, str]) -> list[tuple[str, list[str], str | None]]:
    madero_db, midi_db, training_db = journals["madero"], journals["midi"], journals["training"]
    return [
        ("madero", ["hand", "As", "Kd", "Qh", "Jc", "10s", "2c", "2d"], None),
        ("madero", ["hand"], None),
        ("madero", ["hand", "As", "Xx"], None),
        ("madero", ["hand", "--batch"], "As Ks Qs Js 10s\nAs Ks\n\xff\n"),
        ("madero", ["odds"], None),
        ("madero", ["settle"], json.dumps(ROUND)),
        ("madero", ["settle"], json.dumps({"boxes": [{"box": 1, "ante": 20, "folded": True}]})),
        ("madero", ["settle"], json.dumps({"boxes": [{"box": 1, "ante": 20}], "board": [], "bank": []})),
        ("madero", ["settle"], "{nope"),
        ("madero", ["settle"], json.dumps(ROUND | {"boxes": [{"box": 3, "ante": 20, "cards": ["Ah", "Zz"]}]})),
        ("madero", ["settle"], json.dumps({"boxes": [{"box": 1, "ante": "x"}], "board": [], "bank": []})),
        ("madero", ["report", "--db", madero_db], None),
        ("madero", ["report", "--db", madero_db, "--shift"], None),
        ("madero", ["report", "--db", madero_db, "--shift", "9"], None),
        ("madero", ["journal", "verify", "--db", madero_db], None),
        ("madero", ["journal", "recall", "--db", madero_db], None),
        ("madero", ["journal", "recall", "--round", "7", "--db", madero_db], None),
        ("madero", ["journal", "recall", "--round", "x", "--db", madero_db], None),
        ("madero", ["journal", "recall", "--last", "x", "--db", madero_db], None),
        ("madero", ["journal", "anchor", "--db", madero_db], None),
        ("madero", ["journal", "verify", "--anchor", "zz", "--db", madero_db], None),
        ("madero", ["journal", "verify", "--anchor", "0" * 64 + ":1", "--db", madero_db], None),
        ("madero", ["journal", "archive", "--before", "x", "--db", madero_db], None),
        ("madero", ["journal", "archive", "--before", "2020-01-01", "--db", madero_db], None),
        ("madero", ["journal", "verify", "--db", str(Path(madero_db).with_name("none.sqlite"))], None),
        ("madero", ["staff", "--db", madero_db, "enrol", "C7", "Ana Ruiz", "croupier", "--by", "SUP"],
         "123456\n4444\n4444\n"),
        ("madero", ["staff", "--db", madero_db, "enrol", "C8", "Otro", "croupier", "--by", "CRO"],
         "5678\n4444\n4444\n"),
        ("madero", ["staff", "--db", madero_db, "enrol", "C9", "Otro", "jefe", "--by", "SUP"], "123456\n"),
        ("madero", ["staff", "--db", madero_db, "reset-pin", "C7", "--reason", "x", "--by", "SUP"],
         "123456\n1212\n1212\n"),
        ("madero", ["staff", "--db", madero_db, "passwd", "C7"], "1212\n8080\n8181\n"),
        ("madero", ["staff", "--db", madero_db, "passwd", "C7"], "1212\n8080\n8080\n"),
        ("madero", ["staff", "--db", madero_db, "unlock", "C7", "--reason", "x", "--by", "SUP"], "123456\n"),
        ("madero", ["staff", "--db", madero_db, "deactivate", "C7", "--reason", "x", "--by", "SUP"], "123456\n"),
        ("madero", ["staff", "--db", madero_db, "unlock", "C7", "--reason", "x", "--by", "SUP"], "000000\n"),
        ("madero", ["staff", "--db", madero_db, "list"], None),
        ("madero", ["pit"], None),
        ("madero", ["pit", "--server", "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1"], None),
        ("madero", ["pit", "--online-minutes", "x", "--server", "postgresql://127.0.0.1:9/none"], None),
        ("madero", ["train", "--report", "--training-db", training_db], None),
        ("madero", ["train", "--json"], None),
        ("midi", ["odds"], None),
        ("midi", ["settle"], json.dumps(COUP)),
        ("midi", ["settle"], json.dumps({"punto": "9 K"})),
        ("midi", ["shoe-audit", "--cut", "3"], SHOE),
        ("midi", ["report", "--db", midi_db], None),
        ("midi", ["report", "--db", midi_db, "--shift"], None),
        ("midi", ["journal", "recall", "--db", midi_db], None),
        ("midi", ["journal", "verify", "--db", midi_db], None),
        ("midi", ["journal", "verify", "--db", madero_db], None),
        ("midi", ["staff", "--db", midi_db, "enrol", "C7", "Ciro Paz", "croupier", "--by", "S1"],
         "135790\n4444\n4444\n"),
        ("midi", ["staff", "--db", midi_db, "list"], None),
        ("midi", ["train", "--pass-mark", "x"], None),
        ("midi", ["train", "--report", "--training-db", training_db], None),
        ("midi", ["--db", midi_db, "train", "--pass-mark", "payouts=80", "--by", "S1", "--training-db", training_db],
         "135790\n"),
        ("madero", ["--training", "--seed", "3", "--graded"], None),
        ("madero", ["odds", "--nope"], None),
        *_help_runs(),
    ]


def _run(monkeypatch, capsys, game: str, argv: list[str], stdin: str | None) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8", "surrogateescape")),
                                                       encoding="utf-8"))
    main = madero_tui.cli.main if game == "madero" else midi_tui.cli.main
    with contextlib.suppress(SystemExit):  # --help and argparse's refusals exit
        main(argv)
    out = capsys.readouterr()
    return out.out + out.err


def _foreign_words(text: str, lang: str) -> list[str]:
    text = "\n".join(line for line in text.splitlines() if not line.startswith("{"))  # hand --batch's JSON lines
    for name in STAFF_NAMES:
        text = text.replace(name, "")
    text = DRIVER_REASON.sub("", text)
    text = text.replace(": cards:", ":")  # the input's JSON key, named as typed: data, not a word
    text = re.sub(r"\{[^{}\s]*\}", "", text)  # argparse's {a,b} choices: values, not words
    words = MARKERS[OTHER[lang]]
    return [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.IGNORECASE)]


@pytest.mark.parametrize("how", ["--lang", "LANG", "LC_ALL"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_command_speaks_one_language(journals, tmp_path, monkeypatch, capsys, lang, how):
    journals = {game: _copy(db, tmp_path) for game, db in journals.items()}
    journals["training"] = str(tmp_path / "training.db")
    monkeypatch.delenv(SERVER_ENV, raising=False)
    said = []
    for game, argv, stdin in _runs(journals):
        if how == "--lang":
            argv = ["--lang", lang, *argv]
        else:
            monkeypatch.setenv(how, {"es": "es_AR.UTF-8", "en": "en_GB.UTF-8"}[lang])
        text = _run(monkeypatch, capsys, game, argv, stdin)
        assert text.strip(), argv
        said.append((argv, _foreign_words(text, lang), text))
    assert [(argv, words) for argv, words, text in said if words] == []
    # The run really speaks: each language's own markers appear in its output.
    everything = "\n".join(text for _, _, text in said)
    assert len(_foreign_words(everything, OTHER[lang])) > 10


def test_lang_wins_over_the_environment(monkeypatch, capsys):
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert "fuerza" in _run(monkeypatch, capsys, "madero", ["--lang", "es", "hand", "As", "Kd", "Qh", "Jc", "10s"], None)
    assert "strength" in _run(monkeypatch, capsys, "madero", ["hand", "As", "Kd", "Qh", "Jc", "10s"], None)


def test_json_names_a_hand_by_the_regulation_in_every_language(monkeypatch, capsys):
    """``--json`` is read by programs: a hand's ``category`` is the regulation's name of the
    combination (Art. 5 §17), one stable value whatever ``--lang`` the text speaks."""
    said = {lang: json.loads(_run(monkeypatch, capsys, "madero", ["--lang", lang, "hand", "--json", "As", "Ks", "Qs",
                                                                  "Js", "10s"], None))["category"]
            for lang in ("es", "en")}
    assert said == {"es": "Escalera real", "en": "Escalera real"}


@pytest.mark.parametrize(("lang", "edge", "banca"),
                         [("es", "8,540647 %", "45,859742 %"), ("en", "8.540647 %", "45.859742 %")])
def test_rates_and_odds_are_written_as_the_language_writes_numbers(monkeypatch, capsys, lang, edge, banca):
    assert edge in _run(monkeypatch, capsys, "madero", ["--lang", lang, "odds"], None)
    assert banca in _run(monkeypatch, capsys, "midi", ["--lang", lang, "odds"], None)
