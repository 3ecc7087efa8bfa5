"""A journal entry of a shape the console never writes (hand-edited, forged with the key) is
refused in the catalog's words, naming what cannot be read, not with a KeyError: an older
settlement's words (``upcast_record``, ``upcast_line``), a journaled message
(``message_of_json``), at decode and at a table's launch."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared.errors import InputError
from shared.events import EventCodec
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.settlement import upcast_record
from shared.madero.table import MaderoTable
from shared.madero.table.events import CODEC
from shared.actor import Actor, Role
from shared.midi.payouts import upcast_line

FIXTURE = json.loads((Path(__file__).with_name("data") / "madero-journal-v1.json").read_text())
PROG = MaderoTableConfig.from_mapping(dict(table_id="MPB-09", minimum=10, maximum=500, jackpot_mode="progressive",
                                           contribution_percent=10))


def _settled() -> dict:
    """The payload of the fixture's first settled round, journaled before issue 33 (version 1)."""
    return copy.deepcopy(next(r["payload"] for r in FIXTURE["live"]["rows"] if r["type"] == "round_settled"))


def _refused(error: InputError, what: str) -> None:
    assert error.message("es") == (f"el diario guarda «{what}» de una forma que la consola no escribe y no se "
                                   "puede leer: llame a un supervisor")
    assert error.message("en") == (f"the journal keeps «{what}» in a shape the console does not write and cannot "
                                   "read: call a supervisor")


@pytest.mark.parametrize("drop", ["bank_en", "boxes"])
def test_an_older_settlement_missing_a_part_is_refused_naming_it(drop):
    payload = _settled()
    del payload["settlement"][drop]
    with pytest.raises(InputError) as refused:
        upcast_record(payload["settlement"])  # as a version-2 snapshot's last settlement is read
    _refused(refused.value, drop)
    with pytest.raises(InputError) as refused:
        CODEC.decode("round_settled", payload)
    _refused(refused.value, drop)


def test_an_older_midi_line_missing_its_english_words_is_refused_naming_them():
    with pytest.raises(InputError) as refused:
        upcast_line({"spot": 1, "why_es": "BANCA paga 1 a 1 (Art. 5 §2)"})
    _refused(refused.value, "why_en")


@pytest.mark.parametrize("bank", [{"joined": [{"code": "hand.poker"}]}, {"currency": "EUR"}, {"nothing": 1}])
def test_a_journaled_message_of_no_known_shape_is_refused_naming_the_entry(bank):
    """``message_of_json`` reads a message as ``message_json`` wrote it; a row holding another
    shape (a join without its separator, an amount without its number, no kind at all) is the
    row's refusal."""
    body = CODEC.decode("round_settled", _settled())
    type_, payload = EventCodec.encode(body)
    payload["settlement"]["bank"] = bank
    with pytest.raises(InputError) as refused:
        CODEC.decode(type_, payload)
    _refused(refused.value, "round_settled")


def _journal_with_an_unreadable_settlement(path: Path) -> Journal:
    """The fixture's journal, its first settlement's first bet without its English words."""
    journal = Journal(path, PROG.table_id, "madero")
    for row in FIXTURE["live"]["rows"]:
        payload = row["payload"]
        if row["type"] == "round_settled":
            payload = copy.deepcopy(payload)
            del payload["settlement"]["boxes"][0]["bets"][0]["reason_en"]
        actor = Actor(row["staff_id"], Role(row["role"])) if row["staff_id"] else None
        journal.append(row["type"], payload, round_id=row["round"], actor=actor)
    return journal


def test_a_table_on_a_journal_holding_an_unreadable_entry_is_refused_at_launch(tmp_path):
    journal = _journal_with_an_unreadable_settlement(tmp_path / "live.sqlite")
    try:
        with pytest.raises(InputError) as refused:
            MaderoTable(journal, config=PROG, meter_store=SqliteMeterStore(":memory:"))
        _refused(refused.value, "reason_en")
    finally:
        journal.close()


def _madero(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madero_tui.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_recall_shows_an_unreadable_entry_as_stored_with_its_refusal_and_says_so(tmp_path):
    """The supervisor's way to find such an entry: every round is recalled, the entry as its
    generic line with the refusal under it, the seqs named at the end, exit 1 (not all is well)."""
    db = tmp_path / "live.sqlite"
    journal = _journal_with_an_unreadable_settlement(db)
    settled = next(e for e in journal.events() if e.type == "round_settled")
    journal.close()
    out = _madero("journal", "recall", "--db", str(db))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    shown = next(i for i, line in enumerate(lines) if f"#{settled.seq} " in line)
    assert "round_settled" in lines[shown] and "reason_es=" in lines[shown]
    assert lines[shown + 1].strip() == ("el diario guarda «reason_en» de una forma que la consola no escribe y no "
                                        "se puede leer: llame a un supervisor")
    assert "== Pase 2 ==" in lines[shown + 2:]  # the rounds after it are recalled too
    assert out.stderr == (f"journal: 1 entrada no se pudo leer en las palabras del juego (#{settled.seq}): se "
                          "muestra como está guardada; llame a un supervisor\n")


def test_the_report_on_an_unreadable_entry_says_the_refusal_alone(tmp_path):
    """The report stops at the entry, in its words; the read it left half done is closed while
    its connection is open (it was closed later, at garbage collection, on a closed database:
    «Exception ignored … Cannot operate on a closed database», three times)."""
    db = tmp_path / "live.sqlite"
    _journal_with_an_unreadable_settlement(db).close()
    for args in ((), ("--json",)):
        out = _madero("report", "--db", str(db), *args)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr == ("report: el diario guarda «reason_en» de una forma que la consola no escribe y no se "
                              "puede leer: llame a un supervisor\n")


def test_a_stream_a_refusal_left_suspended_is_closed_with_its_view(tmp_path):
    journal = _journal_with_an_unreadable_settlement(tmp_path / "live.sqlite")
    try:
        with journal.read_view() as view:
            stream = view.events()
            next(stream)
            finished = view.events()
            list(finished)
        assert stream.gi_frame is None  # closed, its cursor with it, before the read's connection
    finally:
        journal.close()
