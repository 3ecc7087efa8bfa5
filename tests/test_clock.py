"""A clock set back (issue 29 §4): the journal records the step back as a ``clock_corrected``
entry before the entry it stamps, and every report selects by the journal's order and the
gaming days it recorded, never by assuming time only goes forward."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from madero_helpers import CRO, SUP
from test_report import _madero_round
from test_report_common import Clock

from madero_tui.cli import main as madero_main
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.table import MaderoTable
from shared.actor import Role
from shared.staff import StaffRegistry

DAYS = {"2026-03-01": 8, "2026-03-02": 6, "2026-03-03": 19}
"""The rounds of each gaming day (the issue's journal: 33 rounds)."""
BACK_AFTER = 8
"""Day 3's clock is set back two days after this many of its rounds."""


def test_a_step_back_is_journaled_before_the_entry_it_stamps(tmp_path):
    times = iter(["2026-03-03T12:00:00.000000+00:00", "2026-03-01T12:00:00.000000+00:00",
                  "2026-03-01T12:00:00.000000+00:00", "2026-03-01T11:59:59.999999+00:00",
                  "2026-03-01T11:59:59.999999+00:00"])
    journal = Journal(tmp_path / "j.sqlite3", "T1", "test", clock=lambda: next(times))
    journal.append("tick", {"n": 0}, round_id=4, actor=None)
    tick = journal.append("tick", {"n": 1}, round_id=5, actor=None)
    assert tick.seq == 3  # the value returned is the entry asked for; the correction is before it
    journal.append("tick", {"n": 2}, round_id=5, actor=None)  # the same time again: no step back
    journal.append_many([("tick", {"n": 3}), ("tick", {"n": 4})], round_id=6, actor=None)
    rows = [(e.seq, e.type, e.round_id, e.staff_id, e.payload) for e in journal.events()]
    assert rows[1] == (2, "clock_corrected", 5, None, {"previous": "2026-03-03T12:00:00.000000+00:00",
                                                       "now": "2026-03-01T12:00:00.000000+00:00"})
    assert rows[4] == (5, "clock_corrected", 6, None, {"previous": "2026-03-01T12:00:00.000000+00:00",
                                                       "now": "2026-03-01T11:59:59.999999+00:00"})
    assert [r[1] for r in rows] == ["tick", "clock_corrected", "tick", "tick", "clock_corrected", "tick", "tick"]
    # An entry copied with its own time (``journal upgrade``) is the older file's history as it was.
    with journal.transaction() as cur:
        journal.append_in(cur, "tick", {"n": 5}, round_id=7, actor=None, ts="2026-02-01T00:00:00.000000+00:00")
    assert journal.last_event_of("clock_corrected").seq == 5 and journal.verify().ok
    journal.close()


def _clock_set_back(path: Path, *, back: timedelta = timedelta(days=2)) -> Path:
    """A Madero table's three gaming days, each a shift of CRO closed with the day; on the
    third, after ``BACK_AFTER`` rounds, the clock is set ``back`` (two days: to the first
    day's hours)."""
    clock = Clock(datetime(2026, 3, 1, 9, tzinfo=UTC))
    journal = Journal(path, DEFAULT_MADERO_TABLE.table_id, "madero", clock=clock)
    staff = StaffRegistry(journal)  # enrolled on the first day's clock: its first entries
    staff.enrol(SUP.staff_id, "Supervisora", Role.SUPERVISOR, SUP.pin, by=None)
    staff.enrol(CRO.staff_id, "Croupier", Role.CROUPIER, CRO.pin, by=SUP)
    table = MaderoTable(journal, staff, config=DEFAULT_MADERO_TABLE)
    for day, rounds in DAYS.items():
        clock.now = datetime.fromisoformat(day).replace(hour=10, tzinfo=UTC)
        table.shift.open(CRO)
        if not table.tray.is_open:
            table.tray.open("1000x100", CRO, SUP)  # a live table takes bets only with it
        for n in range(rounds):
            if day == "2026-03-03" and n == BACK_AFTER:
                clock.now -= back
            _madero_round(table, 10, ["4d", "5c"])
        table.shift.close(SUP)
        if day != "2026-03-03":  # the last gaming day stays open
            table.shift.close_gaming_day(SUP)
    journal.close()
    return path


def _report(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert madero_main(["report", "--db", str(path), "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_round_is_reported_when_the_clock_steps_back_two_days(tmp_path, capsys):
    path = _clock_set_back(tmp_path / "mesa.sqlite")
    assert _report(path, capsys, "--all")["total"]["rounds"] == 33
    for day, rounds in DAYS.items():
        assert _report(path, capsys, "--day", day)["total"]["rounds"] == rounds, day
    assert _report(path, capsys, "--day", "2026-02-28")["total"]["rounds"] == 0
    # From a moment on: from the journal's first entry at or after it, and all that follow.
    assert _report(path, capsys, "--since", "2026-03-01")["total"]["rounds"] == 33
    assert _report(path, capsys, "--since", "2026-03-02")["total"]["rounds"] == 6 + 19
    assert _report(path, capsys, "--since", "2026-03-03")["total"]["rounds"] == 19
    assert _report(path, capsys, "--since", "2026-03-04")["total"]["rounds"] == 0
    # Rates and time at the table are those of the same play on a clock that never went back,
    # but for the minute from the last entry before the step to the next (on this clock, an
    # entry a minute): when in it the clock went back is not known, and it counts as none.
    steady = _clock_set_back(tmp_path / "steady.sqlite", back=timedelta(0))
    for window in (("--day", "2026-03-03"), ("--since", "2026-03-03"), ("--shift", "3"), ("--shift", "1")):
        got, expected = _report(path, capsys, *window), _report(steady, capsys, *window)
        for line, steady_line in zip([*got["croupiers"], got["total"]], [*expected["croupiers"], expected["total"]],
                                     strict=True):
            assert abs(line.pop("rounds_per_hour") - steady_line.pop("rounds_per_hour")) < 0.05, window
            assert abs(line.pop("minutes_on_duty", 0) - steady_line.pop("minutes_on_duty", 0)) <= 1, window
            assert line == steady_line, window
    shifts = [_report(path, capsys, "--shift", str(n)) for n in (1, 2, 3)]
    assert [s["total"]["rounds"] for s in shifts] == list(DAYS.values())
    assert all(3 < s["total"]["rounds_per_hour"] < 4.5 for s in shifts)  # a round every 15 to 17 minutes


def test_verify_and_recall_show_the_correction(tmp_path, capsys):
    path = _clock_set_back(tmp_path / "mesa.sqlite")
    with Journal.open_existing(path) as journal:
        [step] = [e for e in journal.events() if e.type == "clock_corrected"]
        round_id = step.round_id
    capsys.readouterr()
    assert madero_main(["--lang", "es", "journal", "verify", "--db", str(path)]) == 0
    said = capsys.readouterr().out
    assert "diario íntegro" in said
    assert f"el reloj de la mesa retrocedió en la entrada #{step.seq}: de 2026-03-03 " in said
    assert "a 2026-03-01 " in said
    assert madero_main(["journal", "verify", "--json", "--db", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and [c["seq"] for c in data["clock_corrections"]] == [step.seq]
    assert madero_main(["--lang", "en", "journal", "recall", "--round", str(round_id), "--db", str(path)]) == 0
    assert "Clock corrected: it went back from 2026-03-03 " in capsys.readouterr().out


def test_a_moment_is_found_across_archives(tmp_path, capsys):
    """The first two gaming days archived: ``--since`` and ``--day`` read through the archive
    files as through one journal, the clock's step back included."""
    plain = _clock_set_back(tmp_path / "plain" / "mesa.sqlite")
    archived = _clock_set_back(tmp_path / "archived" / "mesa.sqlite")
    journal = Journal(archived, DEFAULT_MADERO_TABLE.table_id, "madero")
    for close in [e.seq for e in journal.events() if e.type == "gaming_day_closed"]:
        journal.archive(close)
    assert len(list(archived.parent.glob("mesa.archive-*.sqlite"))) == 2
    journal.close()
    for window, rounds in ((("--since", "2026-03-01T11:00"), None), (("--since", "2026-03-02T10:30"), None),
                           (("--since", "2026-03-02"), 6 + 19), (("--since", "2026-03-03"), 19),
                           (("--day", "2026-03-01"), 8), (("--day", "2026-03-03"), 19)):
        got, expected = _report(archived, capsys, *window), _report(plain, capsys, *window)
        assert got["total"] == expected["total"], window
        if rounds is None:  # a moment inside an archived day: as in the one file, and some rounds
            assert got["total"]["rounds"] > 0, window
        else:
            assert got["total"]["rounds"] == rounds, window
