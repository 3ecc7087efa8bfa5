"""The report reads only the common events: ``round_closed`` written beside the event that
closes each round, and the events each game marks ``Reported``. Journals written before
``round_closed`` existed give the figures the report gave them before
(tests/data/report-before.json: the fixtures' figures by the report of c76ccc9, the journals
replayed as below, but for the rounds per hour, since over the time on duty as the shift's); a journal and the same journal without its ``round_closed`` rows give the
same figures; ``--day``, ``--shift`` and ``--all`` cut the journal as they say."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fixture_journals import upgraded
from madero_helpers import CRO, OPENING, SUP, SUP2, make_staff
from midi_helpers import SUPERVISOR, SUPERVISOR2, open_live_shoe, play_coup, table_config
from midi_helpers import live_table as midi_live_table
from test_report import _madero_round

from shared.base_events import RoundClosed
from shared.events import EventCodec
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.table import MaderoTable
from shared.madero.table.events import CODEC
from shared.midi.table.events import MIDI_CODEC
from shared.report import last_moment, report_events, report_types, shift_closes, shift_report
from shared.actor import Actor, Role
from shared.staff import StaffRegistry

DATA = Path(__file__).with_name("data")
BEFORE = json.loads((DATA / "report-before.json").read_text())


class Clock:
    """One minute an entry, from 2026-03-01 20:00 UTC (as the golden figures were made)."""

    def __init__(self, start: datetime = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> str:
        self.now += timedelta(minutes=1)
        return self.now.isoformat(timespec="microseconds")


def figures(journal: Journal, codec: EventCodec) -> dict:
    """The report and every shift, as ``report --json`` and ``report --shift --json`` write them."""
    with journal.read_view() as view:
        report = shift_report(report_events(view, codec, journal.game), end=last_moment(view))
        shifts = shift_closes(report_events(view, codec, journal.game), end=last_moment(view))
    return {"by_croupier": [line.to_dict() for _, line in sorted(report.by_croupier.items())],
            "total": report.total.to_dict(), "shifts": [shift.to_dict() for shift in shifts]}


def copy(journal: Journal, path: Path, *, keep=lambda event: True) -> Journal:
    """The journal's entries (those ``keep`` keeps) appended, with their times, to a new journal."""
    out = Journal(path, journal.table_id, journal.game, training=journal.training)
    for event in journal.events():
        if keep(event):
            actor = Actor(event.staff_id, Role(event.role)) if event.staff_id else None
            with out.transaction() as cur:  # as ``journal upgrade`` copies: no clock check of its own
                out.append_in(cur, event.type, event.payload, round_id=event.round_id, actor=actor, ts=event.ts)
    return out


def assert_one_round_closed(journal: Journal, codec: EventCodec) -> None:
    """Each event that closed a round is followed, in its transaction, by one ``round_closed``
    of that round; there is no other."""
    closing_types = report_types(codec)[1]
    closing = [e for e in journal.events() if e.type in closing_types]
    closed = [e for e in journal.events() if e.type == RoundClosed.type]
    assert [e.seq + 1 for e in closing] == [e.seq for e in closed]
    assert [e.round_id for e in closing] == [e.payload["round"] for e in closed]


@pytest.mark.parametrize("which", ["live", "training"])
def test_the_madero_fixture_reports_as_before(which):
    fixture = json.loads((DATA / "madero-journal-v1.json").read_text())[which]
    journal = Journal(":memory:", "MPB-09", "madero", clock=Clock(), training=which == "training")
    for row in fixture["rows"]:
        actor = Actor(row["staff_id"], Role(row["role"])) if row["staff_id"] else None
        journal.append(row["type"], row["payload"], round_id=row["round"], actor=actor)
    expected = BEFORE[f"madero-journal-v1.json:{which}"]
    got = figures(journal, CODEC)
    for shift in got["shifts"] + expected["shifts"]:
        shift.pop("journal_head_hash")  # the chain of a new journal is keyed by its own key
    assert got == expected


@pytest.mark.parametrize("name", ["midi-events-v1", "legacy-midi"])
def test_the_midi_fixtures_report_as_before(name, tmp_path):
    """The older fixtures, converted by ``journal upgrade``, report as they did (up to what the
    upgrade adds, the staff's credentials and its record, whose time would end the open shift later)."""
    added = {"staff_credentials", "journal_upgraded"}
    with Journal.open_existing(upgraded(name, tmp_path)) as journal:
        converted = copy(journal, tmp_path / "converted.sqlite3", keep=lambda e: e.type not in added)
        assert figures(converted, MIDI_CODEC) == BEFORE[f"{name}.sqlite3"]


def test_madero_round_closed_gives_the_figures_of_the_events_it_follows(tmp_path):
    make_staff(tmp_path / "m.sqlite")
    journal = Journal(tmp_path / "m.sqlite", DEFAULT_MADERO_TABLE.table_id, "madero", clock=Clock())
    table = MaderoTable(journal, StaffRegistry(journal), config=DEFAULT_MADERO_TABLE)
    table.shift.open(CRO)
    table.tray.open(OPENING, CRO, SUP)
    _madero_round(table, 20, ["4d", "5c"])
    _madero_round(table, 10, ["Ah", "9h"])
    table.play.place_bet(2, "ante", 50)
    table.play.no_va_mas()
    table.supervisor.void_round(SUP, "misdeal", "carta expuesta en el reparto")
    table.supervisor.adjust(SUP, 1, 5, "pago corregido", SUP2)  # the last entry: an open shift's duty runs to it
    assert_one_round_closed(journal, CODEC)
    closed = [e.payload for e in journal.events() if e.type == RoundClosed.type]
    assert [(c["round"], c["croupier"], c["voided"], c["staked"], c["returned"]) for c in closed] == [
        (1, "CRO", False, "60", "0"), (2, "CRO", False, "30", "0"), (3, "CRO", True, "0", "50")]
    legacy = copy(journal, tmp_path / "legacy.sqlite", keep=lambda e: e.type != RoundClosed.type)
    assert figures(journal, CODEC) == figures(legacy, CODEC)


def test_midi_round_closed_gives_the_figures_of_the_events_it_follows(tmp_path):
    table = midi_live_table(table_config(banca_mode="commission"), path=tmp_path / "midi.db")
    table.journal._clock = Clock()  # a minute an entry: a round's moment is its round_closed's, a minute on
    open_live_shoe(table)
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 25)])
    table.play.collect_commission(2)
    table.play.place_bet(1, "tie", 10)
    table.play.no_va_mas()
    table.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)
    play_coup(table, ["2", "3", "3", "3", "K"], [(3, "banca", 40)])
    table.supervisor.end_shoe(SUPERVISOR, "fin de la sesión")
    assert_one_round_closed(table.journal, MIDI_CODEC)
    legacy = copy(table.journal, tmp_path / "legacy.db", keep=lambda e: e.type != RoundClosed.type)
    assert figures(table.journal, MIDI_CODEC) == figures(legacy, MIDI_CODEC)
    assert figures(legacy, MIDI_CODEC)["total"]["rounds"] == 3
    assert figures(legacy, MIDI_CODEC)["shifts"][0]["total"]["corrections"] == 1  # the supervisor's end of shoe
    # A journal continued by today's code after an old one: old rounds read from their events.
    mixed = copy(table.journal, tmp_path / "mixed.db",
                 keep=lambda e: e.type != RoundClosed.type or e.payload["round"] > 1)
    # (A round's moment is then its closing event's, a minute before its round_closed's here.)
    assert figures(mixed, MIDI_CODEC)["total"] | {"rounds_per_hour": None} == \
        figures(table.journal, MIDI_CODEC)["total"] | {"rounds_per_hour": None}


def _two_days(tmp_path: Path) -> Path:
    """A Madero table: gaming day 1 a shift of CRO relieved by CR2, closed with the day; day 2
    CRO alone (its gaming day still open)."""
    path = tmp_path / "days.sqlite"
    clock = Clock(datetime(2026, 3, 1, 10, 0, tzinfo=UTC))
    journal = Journal(path, DEFAULT_MADERO_TABLE.table_id, "madero", clock=clock)
    staff = StaffRegistry(journal)  # enrolled on day 1's clock: the gaming day's first entries
    staff.enrol(SUP.staff_id, "Supervisora", Role.SUPERVISOR, SUP.pin, by=None)
    staff.enrol(CRO.staff_id, "Croupier", Role.CROUPIER, CRO.pin, by=SUP)
    staff.enrol("CR2", "Dora", Role.CROUPIER, "2468", by=SUP)
    table = MaderoTable(journal, staff, config=DEFAULT_MADERO_TABLE)
    from shared.staff import Credentials

    table.shift.open(CRO)
    table.tray.open(OPENING, CRO, SUP)
    _madero_round(table, 20, ["4d", "5c"])  # CRO: 60 collected
    table.shift.open(Credentials("CR2", "2468"))
    _madero_round(table, 10, ["Ah", "9h"])  # CR2: 30 paid
    table.shift.close(SUP)
    table.shift.close_gaming_day(SUP)
    clock.now += timedelta(days=1)
    table.shift.open(CRO)
    _madero_round(table, 10, ["4d", "5c"])  # CRO: 30 collected
    journal.close()
    return path


def _report(path: Path, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "madero_tui.cli", "report", "--db", str(path), "--json", *args],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_report_of_a_day_a_shift_and_all(tmp_path):
    path = _two_days(tmp_path)
    whole = _report(path, "--all")
    assert (whole["total"]["rounds"], whole["total"]["win"]) == (3, "60")
    assert _report(path) == whole
    first = _report(path, "--day", "2026-03-01")
    assert [(c["croupier"], c["rounds"], c["win"]) for c in first["croupiers"]] == [("CR2", 1, "-30"), ("CRO", 1, "60")]
    second = _report(path, "--day", "2026-03-02")
    assert [(c["croupier"], c["rounds"], c["win"]) for c in second["croupiers"]] == [("CRO", 1, "30")]
    assert _report(path, "--day", "2026-03-03")["total"]["rounds"] == 0
    shift = _report(path, "--shift", "1")
    assert shift["shift"] == 1 and shift["total"]["rounds"] == 2 and shift["closed_by"] == "SUP"
    last = _report(path, "--shift")
    assert last["shift"] == 2 and last["total"]["rounds"] == 1 and last["closed"] is None


def test_a_bad_day_is_refused_in_words(tmp_path):
    path = _two_days(tmp_path)
    for lang, words in (("es", "no se entiende la fecha"), ("en", "cannot read the date")):
        out = subprocess.run([sys.executable, "-m", "madero_tui.cli", "--lang", lang, "report", "--db", str(path),
                              "--day", "2026-13-01"], capture_output=True, text=True, timeout=60)
        assert out.returncode != 0 and words in out.stderr and "Traceback" not in out.stderr
