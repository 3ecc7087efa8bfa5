"""The shift report: figures folded from real journals of both games."""

import json
import subprocess
import sys
from decimal import Decimal

from madero_helpers import CRO, SUP, live_table
from midi_helpers import CROUPIER, open_live_shoe, play_coup
from midi_helpers import live_table as midi_live_table

from shared.report import shift_report


def _madero_round(table, ante, hole):
    table.place_bet(1, "ante", ante)
    table.no_va_mas()
    table.voy(1)
    for card in ["Kh", "7h", "2h"]:
        table.key_card(card)
    table.check(1)
    table.key_card("9c")
    table.check(1)
    for card in ["3s", "Ac", "Kd", *hole]:
        table.key_card(card)
    table.confirm_settlement()


def test_madero_report_by_croupier(tmp_path):
    table = live_table(tmp_path)
    _madero_round(table, 20, ["4d", "5c"])  # high card loses: 20 + 40 collected
    _madero_round(table, 10, ["Ah", "9h"])  # flush wins: Ante and Flop paid 10 + 20
    table.open_shift(SUP)
    table.place_bet(2, "ante", 50)
    table.no_va_mas()
    table.void_round(SUP, "misdeal", "carta expuesta en el reparto")
    table.adjust(SUP, 1, 5, "pago corregido")
    report = shift_report(table.journal.events())
    cro = report.by_croupier[CRO.staff_id]
    assert (cro.rounds, cro.voided) == (2, 0)
    assert cro.drop == Decimal(90)
    assert cro.collected == Decimal(60) and cro.paid == Decimal(30)
    assert cro.win == Decimal(30) and cro.hold_percent == Decimal("33.33")
    sup = report.by_croupier[SUP.staff_id]
    assert (sup.rounds, sup.voided, sup.drop) == (1, 1, 0)
    assert sup.adjustments == Decimal(5)
    assert report.total.win == Decimal(25)

    db = str(table.journal.path)
    table.journal.close()
    out = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--json", "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["total"]["rounds"] == 3 and data["total"]["win"] == "25"
    text = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert "CRO" in text.stdout and "33.33 %" in text.stdout


def test_midi_report_counts_half_pay_and_rounding(tmp_path):
    table = midi_live_table(path=tmp_path / "midi.db")
    open_live_shoe(table)
    # BANCA wins with 6 (PUNTO 2 3 K = 5, BANCA 3 3 = 6): 25 on BANCA is paid 12, 100 on PUNTO collected.
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 25)])
    report = shift_report(table.journal.events())
    line = report.by_croupier[CROUPIER.staff_id]
    assert line.rounds == 1 and line.drop == Decimal(125)
    assert line.paid == Decimal(12) and line.collected == Decimal(100)
    assert line.win == Decimal(88)


def test_report_reads_a_long_journal_in_bounded_memory(tmp_path, capsys):
    """Issue 15 §7: the report streams the journal (only the entries it needs, one at a time)
    and keeps per-croupier figures only, so its memory does not grow with the history."""
    import argparse
    import tracemalloc

    from shared.journal import Journal
    from shared.midi.config import DEFAULT_MIDI_TABLE
    from shared.staff import Actor, Role
    from tui_common.report_cli import run

    journal = Journal(tmp_path / "long.sqlite3", DEFAULT_MIDI_TABLE.table_id, "midi")
    croupier = Actor("C7", Role.CROUPIER)
    lose = {"spot": 1, "kind": "punto", "stake": "100", "outcome": "lose", "paid": "0"}
    win = {"spot": 2, "kind": "banca", "stake": "40", "outcome": "win", "paid": "38"}
    cards = {"cards": ["As"] * 6, "note": "x" * 600}  # the many entries a report does not need
    for coup in range(1, 4001):
        journal.append_many([("card_keyed", cards)] * 4 + [("coup_settled", {"lines": [lose, win] * 3})],
                            round_id=coup, actor=croupier)
    journal.close()
    args = argparse.Namespace(db=journal.path, since=None, json=True)
    tracemalloc.start()
    try:
        assert run(args, "midi", DEFAULT_MIDI_TABLE.table_id) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    data = json.loads(capsys.readouterr().out)
    assert data["total"]["rounds"] == 4000 and data["total"]["drop"] == str(4000 * 420)
    assert data["total"]["win"] == str(4000 * (300 - 114))
    # The journal holds ~14 MB of entries; read whole, the report's peak was above that.
    assert peak < 2 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB"
