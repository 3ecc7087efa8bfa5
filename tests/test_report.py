"""The shift report: figures folded from real journals of both games."""

import json
import subprocess
import sys
from decimal import Decimal

from madero_helpers import CRO, SUP, SUP2, live_table
from midi_helpers import CROUPIER, SUPERVISOR, SUPERVISOR2, open_live_shoe, play_coup, table_config
from midi_helpers import live_table as midi_live_table

from shared.madero.settlement import Bet

from shared.report import report_events, shift_closes, shift_report


def report_of(table):
    """The report of a table's whole journal, as ``report`` reads it."""
    with table.journal.read_view() as view:
        return shift_report(report_events(view, table.codec, table.game))


def shifts_of(table):
    with table.journal.read_view() as view:
        return shift_closes(report_events(view, table.codec, table.game))


def _madero_round(table, ante, hole, jackpot=0):
    table.play.place_bet(1, "ante", ante)
    if jackpot:
        table.play.place_bet(1, "jackpot", jackpot)
    table.play.no_va_mas()
    table.play.voy(1)
    for card in ["Kh", "7h", "2h"]:
        table.play.key_card(card)
    table.play.check(1)
    table.play.key_card("9c")
    table.play.check(1)
    for card in ["3s", "Ac", "Kd", *hole]:
        table.play.key_card(card)
    table.play.confirm_settlement()


def test_madero_report_by_croupier(tmp_path):
    table = live_table(tmp_path)
    _madero_round(table, 20, ["4d", "5c"])  # high card loses: 20 + 40 collected
    _madero_round(table, 10, ["Ah", "9h"])  # flush wins: Ante and Flop paid 10 + 20
    table.shift.open(SUP)
    table.play.place_bet(2, "ante", 50)
    table.play.no_va_mas()
    table.supervisor.void_round(SUP, "misdeal", "carta expuesta en el reparto")
    table.supervisor.adjust(SUP, 1, 5, "pago corregido", SUP2)  # between rounds: two supervisors
    table.supervisor.adjust(SUP, 1, "-2", "cobro corregido", SUP2)
    report = report_of(table)
    cro = report.by_croupier[CRO.staff_id]
    assert (cro.rounds, cro.voided) == (2, 0)
    assert cro.handle == Decimal(90) and cro.void_returned == 0
    assert cro.collected == Decimal(60) and cro.paid == Decimal(30)
    assert cro.win == Decimal(30) and cro.hold_percent == Decimal("33.33")
    sup = report.by_croupier[SUP.staff_id]
    # A voided round is a round and a nula; its bets are devuelto, not apostado.
    assert (sup.rounds, sup.voided, sup.handle, sup.void_returned) == (1, 1, 0, 50)
    assert (sup.adjusted_paid, sup.adjusted_collected, sup.adjustments) == (5, 2, 3)
    assert sup.win == Decimal(-3) and report.total.win == Decimal(27)

    db = str(table.journal.path)
    table.journal.close()
    out = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--json", "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["total"]["rounds"] == 3 and data["total"]["win"] == "27"
    assert (data["total"]["handle"], data["total"]["adjusted_paid"], data["total"]["adjusted_collected"]) == \
        ("90", "5", "2")
    text = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert text.returncode == 0, text.stderr
    assert "CRO" in text.stdout and "33,33 %" in text.stdout and "apostado" in text.stdout
    english = subprocess.run([sys.executable, "-m", "madero_tui.cli", "--lang", "en", "report", "--db", db],
                             capture_output=True, text=True, timeout=60)
    assert english.returncode == 0, english.stderr  # (once, in a whole run, this line's check failed: say why)
    assert "33.33 %" in english.stdout and "33,33" not in english.stdout, english.stdout  # the hold as each language writes it
    assert "aj. pago" in text.stdout and "aj. cobro" in text.stdout
    # The columns carry the words report --help defines (resultado, retención %), not English ones.
    header = text.stdout.splitlines()[1].split()
    assert header[-2:] == ["resultado", "retención"] and "win" not in header and "hold" not in header
    for lang, defined in (("es", ("apostado: lo puesto en toda apuesta", "retención %: resultado / apostado x 100")),
                          ("en", ("bet (handle): the stakes of every bet", "hold %: win / bet x 100"))):
        helped = subprocess.run([sys.executable, "-m", "madero_tui.cli", "--lang", lang, "report", "--help"],
                                capture_output=True, text=True, timeout=60)
        words = " ".join(helped.stdout.split())  # argparse wraps the description
        assert all(term in words for term in defined), lang


def test_a_collusion_box_is_counted_like_a_voided_round(tmp_path):
    table = live_table(tmp_path)
    for box in (1, 2):
        table.play.place_bet(box, Bet.ANTE, 10)
    table.play.no_va_mas()
    table.play.voy(1)
    table.play.voy(2)
    for card in ["2c", "3c", "4c"]:
        table.play.key_card(card)
    table.supervisor.collusion(SUP, 2, "intercambio de información")
    table.play.check(1)
    table.play.key_card("9d")
    table.play.check(1)
    for card in ["Td", "Kh", "Kd", "As", "Ad"]:
        table.play.key_card(card)
    table.play.confirm_settlement()
    line = report_of(table).by_croupier[CRO.staff_id]
    # Box 2's Ante and Flop (10 + 20) are given back: devuelto por nulidad, not apostado.
    assert (line.rounds, line.voided, line.handle, line.void_returned) == (1, 0, 30, 30)


def test_midi_report_counts_half_pay(tmp_path):
    table = midi_live_table(path=tmp_path / "midi.db")
    open_live_shoe(table)
    # BANCA wins with 6 (PUNTO 2 3 K = 5, BANCA 3 3 = 6): 26 on BANCA is paid 13, 100 on PUNTO collected.
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 26)])
    table.play.place_bet(1, "tie", 10)
    table.play.no_va_mas()
    table.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)
    report = report_of(table)
    line = report.by_croupier[CROUPIER.staff_id]
    assert (line.rounds, line.voided, line.handle, line.void_returned) == (2, 1, 126, 10)
    assert line.paid == Decimal(13) and line.collected == Decimal(100)
    assert line.rounding == 0 and line.win == Decimal(87)


def test_midi_report_totals_commission_collected_and_its_rounding(tmp_path):
    table = midi_live_table(table_config(banca_mode="commission"), path=tmp_path / "midi.db")
    open_live_shoe(table)
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 25)])  # BANCA wins
    line = report_of(table).by_croupier[CROUPIER.staff_id]
    assert (line.paid, line.commission, line.rounding, line.win) == (25, 0, 0, 75)  # 1.25 owed, not yet collected
    table.play.collect_commission(2)  # 1.25 owed: 1 collected, 0.25 left to the player
    line = report_of(table).by_croupier[CROUPIER.staff_id]
    assert (line.commission, line.rounding, line.win) == (1, Decimal("0.25"), 76)
    assert line.to_dict()["commission"] == "1" and line.to_dict()["rounding"] == "0.25"


def test_madero_arbitrated_void_is_flagged_in_the_report(tmp_path):

    table = live_table(tmp_path)
    table.play.place_bet(1, "ante", 10)
    table.play.no_va_mas()
    table.supervisor.void_round(SUP, "misdeal", "carta expuesta en el reparto")
    table.play.place_bet(1, "ante", 10)
    table.play.no_va_mas()
    table.play.voy(1)
    table.supervisor.void_round(SUP, "arbitration", "disputa resuelta por la gerencia", SUP2)
    total = report_of(table).total
    assert (total.rounds, total.voided, total.arbitrated) == (2, 2, 1)
    assert total.to_dict()["arbitrated"] == 1
    db = str(table.journal.path)
    table.journal.close()
    text = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert "ARBITRAJE: 1 pase(s) anulado(s) por arbitraje de la gerencia (§73)" in text.stdout


def test_report_reads_a_long_journal_in_bounded_memory(tmp_path, capsys):
    """Issue 15 §7: the report streams the journal (only the entries it needs, one at a time)
    and keeps per-croupier figures only, so its memory does not grow with the history."""
    import argparse
    import tracemalloc

    from shared.journal import Journal
    from shared.midi.config import DEFAULT_MIDI_TABLE
    from shared.actor import Actor, Role
    from tui_common.report_cli import run

    from shared.baccarat import resolve_coup
    from shared.midi.payouts import BetKind, settle_bets
    from shared.midi.table.events import MIDI_CODEC, CoupSettled
    from tests.midi_helpers import table_config

    journal = Journal(tmp_path / "long.sqlite3", DEFAULT_MIDI_TABLE.table_id, "midi")
    croupier = Actor("C7", Role.CROUPIER)
    banca_wins = resolve_coup([5, 6, 0, 0, 0])
    deducted = table_config(banca_mode="commission", commission_handling="deduct")  # BANCA 40 pays 38
    lines = settle_bets({1: {BetKind.PUNTO: Decimal(100)}, 2: {BetKind.BANCA: Decimal(40)}}, banca_wins, deducted)
    settled = MIDI_CODEC.encode(CoupSettled(banca_wins, (), tuple(lines) * 3))
    cards = {"cards": ["As"] * 6, "note": "x" * 600}  # the many entries a report does not need
    for coup in range(1, 4001):
        journal.append_many([("card_keyed", cards)] * 4 + [settled], round_id=coup, actor=croupier)
    journal.close()
    args = argparse.Namespace(db=journal.path, since=None, day=None, json=True, shift=None)  # the parser's options
    tracemalloc.start()
    try:
        assert run(args, "midi", DEFAULT_MIDI_TABLE.table_id, MIDI_CODEC) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    data = json.loads(capsys.readouterr().out)
    assert data["total"]["rounds"] == 4000 and data["total"]["handle"] == str(4000 * 420)
    assert Decimal(data["total"]["win"]) == 4000 * (300 - 114)
    # The journal holds ~14 MB of entries; read whole, the report's peak was above that.
    assert peak < 2 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB"
