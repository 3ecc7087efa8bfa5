"""SVG snapshots of the shift screens (120×40, fixed journal clock): the report at the close
of a shift with a relief. Update only after looking at them as PNG."""

from __future__ import annotations

import pytest

from shared.midi.payouts import BetKind
from shared.actor import Role
from shared.staff import Credentials
from test_midi_tui_snapshots import SIZE, live_in_bets


@pytest.fixture(autouse=True)
def _fixed_table_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report shows the journal's head hash, keyed by the table key: a key drawn at random
    (as a real table's is) would draw a different hash into every snapshot."""
    monkeypatch.setattr("shared.journal.keys.secrets.token_bytes", lambda n: bytes(range(n)))


def play(m, cards: str, bets) -> None:
    for box, kind, amount in bets:
        m.play.place_bet(box, kind, amount)
    m.play.no_va_mas()
    for rank in cards:
        m.play.key_card(rank)
    m.play.settle()


def test_shift_report_after_a_relief(tmp_path, snap_compare):
    app = live_in_bets(tmp_path)
    m = app.midi
    m.staff.enrol("C2", "Dora Sosa", Role.CROUPIER, "2468", by=Credentials("S1", "123456"))
    play(m, "9kk5", [(1, BetKind.PUNTO, 100), (2, BetKind.BANCA, 50)])
    play(m, "23328", [(1, BetKind.BANCA, 26), (3, BetKind.TIE, 10)])
    m.shift.open(Credentials("C2", "2468"))
    play(m, "3443", [(1, BetKind.PUNTO, 100), (2, BetKind.TIE, 10)])

    async def close_the_shift(pilot):
        await pilot.press("f2")
        await pilot.pause()
        app.screen.select("close_shift")
        await pilot.press("enter", *"S1", "enter", *"123456", "enter", *"fin", "enter")

    assert snap_compare(app, run_before=close_the_shift, terminal_size=SIZE)


def test_tray_close_screen(tmp_path, snap_compare):
    app = live_in_bets(tmp_path, tray=False)
    m = app.midi
    croupier, supervisor = Credentials("C1", "5678"), Credentials("S1", "123456")
    m.tray.open("1000x20 500x40 100x100 25x200 5x100", croupier, supervisor)
    play(m, "9kk5", [(1, BetKind.PUNTO, 100), (2, BetKind.BANCA, 50)])
    play(m, "23328", [(1, BetKind.BANCA, 26), (3, BetKind.TIE, 10)])
    m.tray.fill("1000x5", croupier, supervisor)
    m.tray.credit("25x40", croupier, supervisor)
    m.tray.cash_buy_in(croupier, 500)

    async def close_the_tray(pilot):
        await pilot.press("f2")
        await pilot.pause()
        app.screen.select("tray_close")
        await pilot.press("enter", *"S1", "enter", *"123456", "enter", *"C1", "enter", *"5678", "enter",
                          *"1000x25 500x39 100x100 25x160 5x101", "enter", *"recuento", "enter")

    assert snap_compare(app, run_before=close_the_tray, terminal_size=SIZE)
