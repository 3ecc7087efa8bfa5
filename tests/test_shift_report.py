"""The shift report: every shift of a journal, croupier by croupier, with reliefs and returns."""

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from madero_helpers import CRO, OPENING, SUP, SUP2, make_staff
from test_report import _madero_round, shifts_of

from shared.errors import AuthError
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.table import MaderoTable
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry
from tui_common.shift_text import shift_text

CR2 = Credentials("CR2", "2468")


class Clock:
    """The journal's clock, moved by hand: duty times are exact."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="microseconds")

    def minutes(self, n: int) -> None:
        self.now += timedelta(minutes=n)


def table(tmp_path, clock) -> MaderoTable:
    path = tmp_path / "t.sqlite"
    make_staff(path)
    journal = Journal(path, DEFAULT_MADERO_TABLE.table_id, "madero", clock=clock)
    staff = StaffRegistry(journal)
    staff.enrol("CR2", "Dora", Role.CROUPIER, CR2.pin, by=SUP)
    return MaderoTable(journal, staff, config=DEFAULT_MADERO_TABLE)


def test_relief_and_return_in_one_shift_then_a_second_shift(tmp_path):
    clock = Clock()
    t = table(tmp_path, clock)
    t.shift.open(CRO)
    t.tray.open(OPENING, CRO, SUP)  # a live table takes bets only with it
    clock.minutes(30)
    _madero_round(t, 20, ["4d", "5c"])  # CRO: 60 collected
    clock.minutes(30)
    t.shift.open(CR2)  # relief after one hour
    clock.minutes(20)
    _madero_round(t, 10, ["Ah", "9h"])  # CR2: flush, 30 paid
    t.supervisor.adjust(SUP, 1, 5, "pago corregido", SUP2)  # between rounds: two supervisors
    clock.minutes(10)
    t.shift.open(CRO)  # CRO back for the last half hour
    clock.minutes(30)
    _madero_round(t, 10, ["4d", "5c"])  # CRO: 30 collected
    with pytest.raises(AuthError):
        t.shift.close(CRO)  # only a supervisor closes the shift
    t.shift.close(SUP, "fin de la noche")
    clock.minutes(60)
    t.shift.open(CR2)
    clock.minutes(15)
    _madero_round(t, 20, ["4d", "5c"])

    first, second = shifts_of(t)
    cro, cr2 = first.by_croupier["CRO"], first.by_croupier["CR2"]
    assert (cro.rounds, cro.seconds_on_duty, cro.rounds_per_hour) == (2, 5400, 2 / 1.5)
    assert (cro.handle, cro.collected, cro.paid, cro.win) == (90, 90, 0, 90)
    assert (cr2.rounds, cr2.seconds_on_duty, cr2.paid, cr2.adjustments, cr2.win) == (1, 1800, 30, 5, -35)
    assert first.total.win == 55 and first.total.hold_percent == Decimal("45.83")
    assert first.closed_by == "SUP" and first.closed is not None
    close = t.journal.last_event_of("shift_closed")
    assert (first.entries, first.head_hash) == (close.seq, close.hash)
    assert close.payload == {"staff_id": "CRO", "reason": "fin de la noche"}
    # The second shift is still open: CR2 alone, on duty up to the last entry.
    assert list(second.by_croupier) == ["CR2"] and second.closed is None
    assert second.by_croupier["CR2"].seconds_on_duty == 900 and second.total.collected == 60

    text = shift_text(first, "es", UTC)
    assert "Informe del turno 1" in text and f"{close.seq} entradas; su cabeza, para guardar fuera (journal verify --anchor):\n  {close.hash}:{close.seq}" in text
    assert "1 h 30 min" in text and "Manos muertas" in text
    # In the words report --help defines, as the report's own columns (it read «Hold»).
    assert "Resultado (win)" in text and "Retención (hold)" in text and "\nHold" not in text

    db = str(t.journal.path)
    t.journal.close()
    out = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--shift", "1", "--json", "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["journal_entries"] == close.seq and data["journal_head_hash"] == close.hash
    assert [c["croupier"] for c in data["croupiers"]] == ["CRO", "CR2"]
    assert data["croupiers"][0]["minutes_on_duty"] == 90 and data["total"]["win"] == "55"
    last = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--shift", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert last.returncode == 0 and "Informe del turno 2" in last.stdout and "sigue abierto" in last.stdout
    none = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--shift", "3", "--db", db],
                          capture_output=True, text=True, timeout=60)
    assert none.returncode == 2 and "no hay turno 3" in none.stderr


def test_a_relief_mid_round_is_refused(tmp_path):
    clock = Clock()
    t = table(tmp_path, clock)
    t.shift.open(CRO)
    t.tray.open(OPENING, CRO, SUP)  # a live table takes bets only with it
    t.play.place_bet(1, "ante", 10)
    before = t.journal.last_seq
    with pytest.raises(Exception, match="entre jugadas"):
        t.shift.open(CR2)
    assert t.journal.last_seq == before and t.croupier.staff_id == "CRO"


def test_arbitrations_are_the_two_supervisors_decisions_each_listed_and_corrections_apart(tmp_path):
    clock = Clock()
    t = table(tmp_path, clock)
    t.shift.open(CRO)
    t.tray.open(OPENING, CRO, SUP)  # a live table takes bets only with it
    for card in ("Qd", "9c"):  # two rounds, each with one community redeal by one supervisor (§39.1)
        t.play.place_bet(1, "ante", 10)
        t.play.place_bet(2, "ante", 10)
        t.play.no_va_mas()
        t.play.voy(1)
        t.play.voy(2)
        for c in "2c 3c 4c".split():
            t.play.key_card(c)
        t.supervisor.community_error(SUP, "39.1", "se expuso una carta de más", [card])
        # Management voids the round after betting began: two supervisors (§73).
        t.supervisor.void_round(SUP, "arbitration", "disputa", SUP2)
    t.shift.close(SUP, "fin")
    (shift,) = shifts_of(t)
    line = shift.by_croupier["CRO"]
    assert (line.arbitrated, line.arbitrated_rounds, line.corrections) == (2, [1, 2], 2)
    data = shift.to_dict()["total"]
    assert (data["arbitrated"], data["arbitrated_rounds"], data["corrections"]) == (2, [1, 2], 2)
    text = shift_text(shift, "es", UTC)
    rows = {row.split("  ")[0]: row.split() for row in text.splitlines()}
    assert rows["Arbitrajes (§73)"][-1] == "2" and rows["Correcciones (un supervisor)"][-1] == "2"
    assert "ARBITRAJE: 2 pase(s) anulado(s) por arbitraje de la gerencia (§73)" in text and "pases: 1, 2" in text


def test_report_and_the_shift_report_divide_the_rounds_by_the_same_time_on_duty(tmp_path):
    """One definition of rounds per hour: ``report`` takes a croupier's time on duty, as
    ``report --shift`` does (it took the span from their first round to their last, a relief's
    turn and the time no shift was open included)."""
    from shared.madero.table.events import CODEC
    from shared.report import last_moment, report_events, shift_closes, shift_report

    clock = Clock()
    t = table(tmp_path, clock)
    t.shift.open(CRO)
    t.tray.open(OPENING, CRO, SUP)
    clock.minutes(30)
    _madero_round(t, 20, ["4d", "5c"])
    t.shift.open(CR2)  # relief: CR2 deals one round, then CRO is back
    clock.minutes(20)
    _madero_round(t, 10, ["4d", "5c"])
    t.shift.open(CRO)
    clock.minutes(40)
    _madero_round(t, 10, ["4d", "5c"])
    clock.minutes(10)
    t.shift.close(SUP, "fin")
    clock.minutes(60)  # no shift open: nobody's time
    t.shift.open(CR2)
    clock.minutes(15)
    _madero_round(t, 20, ["4d", "5c"])
    with t.journal.read_view() as view:
        report = shift_report(report_events(view, CODEC, "madero"), end=last_moment(view))
        shifts = shift_closes(report_events(view, CODEC, "madero"), end=last_moment(view))
    assert {who: line.seconds_on_duty for who, line in report.by_croupier.items()} == {"CRO": 80 * 60,
                                                                                         "CR2": 35 * 60}
    for who in ("CRO", "CR2"):
        assert report.by_croupier[who].seconds_on_duty == sum(
            s.by_croupier[who].seconds_on_duty for s in shifts if who in s.by_croupier)
    assert report.total.rounds_per_hour == 4 / (115 / 60) == sum(s.total.rounds for s in shifts) / (
        sum(s.total.seconds_on_duty for s in shifts) / 3600)
