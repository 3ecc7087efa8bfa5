"""SVG snapshots of the Midi console at 120×40, one per phase (pytest-textual-snapshot).

Each app is built by ``make_app`` on a fresh journal with fixed timestamps, brought to its
phase through the engine or the keys, and compared with the accepted SVG. Update only after
looking at the report: ``pytest tests/test_midi_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import itertools
from datetime import UTC

from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.payouts import BetKind
from shared.actor import Role
from shared.staff import Credentials
from midi_tui.app import MidiApp, make_app
from tui_common.options import LaunchOptions

SIZE = (120, 40)


def fixed_clock():
    seconds = itertools.count()
    return lambda: f"2026-11-29T21:{next(seconds) // 60 % 60:02d}:{next(seconds) % 60:02d}+00:00"


def build(tmp_path, *, training=False, seed=None, lang="es", staff=True, config=DEFAULT_MIDI_TABLE) -> MidiApp:
    app = make_app(LaunchOptions(lang=lang, training=training, seed=seed, db=tmp_path / "snap.db"),
                   config=config, journal_clock=fixed_clock(), tz=UTC)
    if staff and not training:
        app.midi.staff.enrol("S1", "Sara Paz", Role.SUPERVISOR, "123456", by=None)
        app.midi.staff.enrol("C1", "Carlos Gil", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    return app


def live_in_bets(tmp_path, *, tray: bool = True, **kw) -> MidiApp:
    """A live table in bets, its tray open (bets need it) unless ``tray=False``."""
    app = build(tmp_path, **kw)
    m = app.midi
    m.shift.open(Credentials("C1", "5678"))
    if tray:
        m.tray.open("1000x100 100x100 25x200 5x200", Credentials("C1", "5678"), Credentials("S1", "123456"))
    m.play.new_shoe()
    m.play.key_card("7")
    m.play.confirm_burn()
    return app


def busy_boxes(m) -> None:
    """Nine boxes with bets on every kind somewhere (PUNTO/BANCA differ by the minimum)."""
    for box in range(1, 10):
        m.play.place_bet(box, BetKind.PUNTO if box % 2 else BetKind.BANCA, 25 * box)
        if box % 3 == 0:
            m.play.place_bet(box, BetKind.TIE, 10 * (box // 3))
    m.play.place_bet(4, BetKind.PUNTO, 250)


def test_sign_in(tmp_path, snap_compare):
    assert snap_compare(build(tmp_path), press=["C", "1", "enter"], terminal_size=SIZE)


def test_first_run_enrolment(tmp_path, snap_compare):
    assert snap_compare(build(tmp_path, staff=False), terminal_size=SIZE)


def test_bets_with_nine_busy_boxes_and_a_refused_amount(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    busy_boxes(app.midi)
    app.midi.play.assign_sabot(2)
    assert snap_compare(app, press=["7", "e", "5", "0", "0", "enter"], terminal_size=SIZE)


def test_cards_mid_coup(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    busy_boxes(app.midi)
    assert snap_compare(app, press=["n", "4", "k", "a"], terminal_size=SIZE)


def test_result_banca_six_half_pay(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    busy_boxes(app.midi)
    assert snap_compare(app, press=["n", "2", "k", "3", "2", "8", "4"], terminal_size=SIZE)


def test_result_commission_mode_in_english(tmp_path, snap_compare):
    config = DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission")
    app = live_in_bets(tmp_path, config=config, lang="en")
    busy_boxes(app.midi)
    assert snap_compare(app, press=["n", "2", "4", "3", "4"], terminal_size=SIZE)


def test_supervisor_panel_correct_card(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    busy_boxes(app.midi)
    assert snap_compare(app, press=["n", "a", "3", "3", "k", "8", "f2", "down", "enter", "S", "1"], terminal_size=SIZE)


def test_recall(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    m = app.midi
    for cards in ("9kk5", "3443", "a33k8"):
        m.play.place_bet(1, BetKind.PUNTO, 100)
        m.play.place_bet(2, BetKind.TIE, 10)
        m.play.no_va_mas()
        for rank in cards:
            m.play.key_card(rank)
        m.play.settle()
    assert snap_compare(app, press=["f3"], terminal_size=SIZE)


def test_recovery_notice(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    m = app.midi
    busy_boxes(m)
    m.play.no_va_mas()
    m.play.key_card("2")
    m.journal.close()
    again = make_app(LaunchOptions(db=tmp_path / "snap.db"), journal_clock=fixed_clock(), tz=UTC)
    assert snap_compare(again, terminal_size=SIZE)


def test_training_end_of_shoe_with_full_roads(tmp_path, snap_compare):
    app = build(tmp_path, training=True, seed=2026)
    m = app.midi
    m.play.new_shoe()
    m.play.deal()
    m.play.confirm_burn()
    m.play.assign_sabot(1)
    while m.phase.value != "shoe_end":
        m.play.place_bet(1, BetKind.BANCA, 50)
        m.play.place_bet(5, BetKind.PUNTO, 20)
        m.play.no_va_mas()
        while m.card_called_for:
            m.play.deal()
        m.play.settle()
    assert snap_compare(app, terminal_size=SIZE)
