"""Gaming days and archives (issue 19): a supervisor closes the gaming day; ``journal archive``
moves closed days to an archive file that verifies on its own and is chained to the live file;
restore, recall, reports and verify go through the archives; tampering with an archive is
caught; killing the archive at any moment moves all or nothing."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from madero_helpers import SUP as MADERO_SUPERVISOR
from madero_helpers import live_table as madero_live_table
from madero_helpers import open_live
from midi_helpers import SUPERVISOR, live_table, open_live_shoe, play_coup
from test_report import _madero_round

import shared.journal.core
from shared.errors import AuthError, InputError
from shared.journal import Journal, JournalError, key_path
from shared.midi.table import MidiTable
from shared.staff import StaffRegistry
from midi_tui.cli import main as midi_main

TABLE_ID = "MPB-02"
COUP = (["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 26)])


def played_days(path: Path, days: int, coups: int = 2) -> list[int]:
    """A live Midi journal of ``days`` closed gaming days of ``coups`` coups each, then one
    coup of the next day and a bet of an open coup; returns each close's seq."""
    table = live_table(path=path)
    open_live_shoe(table)
    closes = []
    for _ in range(days):
        for n in range(1, coups + 1):
            play_coup(table, *COUP)
            if n % 9 == 0:  # a shoe holds 32 threes, 3 a coup
                table.supervisor.end_shoe(SUPERVISOR, "sabot nuevo")
                open_live_shoe(table)
        table.shift.close_gaming_day(SUPERVISOR, "fin de la jornada")
        closes.append(table.journal.last_seq)
    play_coup(table, *COUP)
    table.play.place_bet(1, "punto", 10)
    table.journal.close()
    return closes


def reopened(path: Path) -> MidiTable:
    journal = Journal(path, TABLE_ID, "midi")
    return MidiTable(journal, StaffRegistry(journal))


def test_closing_the_gaming_day_needs_a_supervisor_between_rounds(tmp_path: Path) -> None:
    table = live_table(path=tmp_path / "t.sqlite3")
    open_live_shoe(table)
    play_coup(table, *COUP)
    with pytest.raises(AuthError):
        table.shift.close_gaming_day(None)
    table.play.place_bet(1, "punto", 10)
    assert not table.can("close_gaming_day")
    with pytest.raises(InputError, match="entre jugadas"):
        table.shift.close_gaming_day(SUPERVISOR)
    table.journal.close()


def test_two_archives_chain_and_everything_reads_across_them(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    closes = played_days(path, 2)
    table = reopened(path)
    state, events_before = table.state_hash(), [(e.seq, e.hash) for e in table.journal.events()]
    rounds_before = {r: table.journal.round_events(r) for r in table.journal.last_round_ids(5)}
    first_archive = table.journal.archive(closes[0])
    second_archive = table.journal.archive(closes[1])
    table.journal.close()

    table = reopened(path)
    journal = table.journal
    assert table.state_hash() == state and table.recovered  # the open coup comes back
    assert journal.first_seq == closes[1] + 1
    events = list(journal.events())
    assert [(e.seq, e.hash) for e in events][: len(events_before)] == events_before
    assert [e.type for e in events[len(events_before):]] == ["journal_archived", "journal_archived"]
    assert [e.payload["count"] for e in events if e.type == "journal_archived"] == closes
    assert {r: journal.round_events(r) for r in journal.last_round_ids(5)} == rounds_before
    with journal.read_view() as view:
        assert sum(1 for _ in view.events()) == journal.last_seq
        assert [e.seq for e in view.events(types=["gaming_day_closed"])] == closes
    report = journal.verify()
    assert report.ok and report.checked == journal.last_seq
    journal.close()
    # Each archive verifies on its own (its chain from the head before it) and is no table.
    for archive, count in ((first_archive, closes[0]), (second_archive, closes[1] - closes[0])):
        assert midi_main(["journal", "verify", "--db", str(archive)]) == 0
        with Journal.open_existing(archive) as alone:
            assert alone.verify().checked == count
        with pytest.raises(JournalError, match="archivo del diario"):
            Journal(archive, TABLE_ID, "midi")


def test_an_anchor_taken_before_the_archive_still_verifies(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    closes = played_days(path, 1)
    with Journal(path, TABLE_ID, "midi") as journal:
        digest, count = journal.anchor()
        journal.archive(closes[0])
        assert journal.verify(anchor=(digest, count)).ok
        assert not journal.verify(anchor=(digest, count - 1)).ok


def archived_copy(src: Path, dst: Path) -> Path:
    shutil.copy(src, dst / src.name)
    shutil.copy(key_path(src), key_path(dst / src.name))
    for archive in src.parent.glob(f"{src.stem}.archive-*"):
        shutil.copy(archive, dst / archive.name)
    return dst / src.name


def _edit_entry(archive: Path) -> None:
    conn = sqlite3.connect(archive, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET staff_id = 'S99' WHERE seq = 5")
    conn.close()


def _cut_tail(archive: Path) -> None:
    conn = sqlite3.connect(archive, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_delete")
    conn.execute("DELETE FROM events WHERE seq = (SELECT MAX(seq) FROM events)")
    conn.close()


@pytest.mark.parametrize("tamper", [_edit_entry, _cut_tail], ids=["edit", "cut_tail"])
def test_tampering_with_an_archive_is_caught(tmp_path: Path, tamper) -> None:
    played = tmp_path / "played"
    played.mkdir()
    path = played / "t.sqlite3"
    closes = played_days(path, 1)
    with Journal(path, TABLE_ID, "midi") as journal:
        archive = journal.archive(closes[0])
    copy = archived_copy(path, tmp_path)
    tamper(tmp_path / archive.name)
    with Journal.open_existing(copy) as journal:
        assert not journal.verify().ok
    assert midi_main(["journal", "verify", "--db", str(copy)]) == 1
    assert midi_main(["journal", "verify", "--db", str(tmp_path / archive.name)]) == 1


def test_a_missing_archive_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    closes = played_days(path, 1)
    with Journal(path, TABLE_ID, "midi") as journal:
        archive = journal.archive(closes[0])
    archive.rename(tmp_path / "elsewhere.sqlite3")
    with pytest.raises(JournalError, match="falta el archivo"):
        Journal(path, TABLE_ID, "midi")
    assert midi_main(["journal", "verify", "--db", str(path)]) == 2


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "midi_tui.cli", "--lang", "en", "journal", *args],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_archive_command_takes_the_writer_lock_and_archives_closed_days(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    closes = played_days(path, 2)
    with Journal(path, TABLE_ID, "midi"):
        held = cli("archive", "--before", "2999-01-01", "--db", str(path))
    assert held.returncode == 2 and "already open" in held.stderr
    none = cli("archive", "--before", "2000-01-01", "--db", str(path))
    assert none.returncode == 2 and "no gaming day closed before 2000-01-01" in none.stderr
    done = cli("archive", "--before", "2999-01-01", "--db", str(path))
    assert done.returncode == 0 and f"entries #1 to #{closes[-1]} archived" in done.stdout
    assert cli("verify", "--db", str(path)).returncode == 0
    recall = cli("recall", "--round", "1", "--db", str(path))  # the first coup, now in the archive
    assert recall.returncode == 0 and "Round 1" in recall.stdout


@pytest.mark.slow
def test_killing_the_archive_moves_all_or_nothing(tmp_path: Path) -> None:
    played = tmp_path / "played"
    played.mkdir()
    source = played / "t.sqlite3"
    closes = played_days(source, 1, coups=300)
    with Journal.open_existing(source) as journal:
        entries = journal.last_seq
    rng = random.Random(19)
    start = time.monotonic()
    assert cli("archive", "--before", "2999-01-01", "--db", str(archived_copy(source, tmp_path))).returncode == 0
    whole = time.monotonic() - start
    outcomes = set()
    for run in range(12):
        work = tmp_path / f"run{run}"
        work.mkdir()
        path = archived_copy(source, work)
        proc = subprocess.Popen([sys.executable, "-m", "midi_tui.cli", "journal", "archive", "--before", "2999-01-01",
                                 "--db", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2 * whole, 1.1 * whole))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        table = reopened(path)
        journal = table.journal
        try:
            report = journal.verify()
            assert report.ok, f"run {run}: {report.message('en')}"
            archived = journal.first_seq > 1
            outcomes.add(archived)
            # Nothing lost: every entry is read, from the archive or the live file.
            assert journal.last_seq == entries + archived
            assert [e.seq for e in journal.events()] == list(range(1, journal.last_seq + 1))
            assert journal.first_seq in (1, closes[0] + 1)
            assert table.recovered
        finally:
            journal.close()
        # Whatever the kill left, the archive can be run (again) and completes.
        again = cli("archive", "--before", "2999-01-01", "--db", str(path))
        assert again.returncode == (2 if archived else 0), again.stderr
    print(f"12 kills over {whole:.2f} s: outcomes {sorted(outcomes)}")


class DayClock:
    """The journal's clock in a test: gaming day ``day`` from 2026-03-01 on, one second per entry
    from the day's start, so a play journals the same times whether or not it archives."""

    def __init__(self) -> None:
        self.day = self.tick = 0

    def start_day(self, day: int) -> None:
        """Go on to gaming day ``day``: another day starts from its first second, the same one goes on."""
        if day != self.day:
            self.day, self.tick = day, 0

    def __call__(self) -> str:
        self.tick += 1
        moment = datetime(2026, 3, 1, 10, tzinfo=UTC) + timedelta(days=self.day, seconds=self.tick)
        return moment.isoformat(timespec="microseconds")


def play_days_archiving(path: Path, days: int, *, archive: bool) -> tuple[list[int], str]:
    """``days`` closed gaming days of two coups each, each day archived after its close if
    ``archive``, then one coup and a bet of an open coup; each close's seq and the state."""
    clock = shared.journal.core._utc_now
    assert isinstance(clock, DayClock)
    clock.start_day(0)  # each play from the first day's start, whatever one played before
    table = live_table(path=path)
    open_live_shoe(table)
    closes, coups = [], 0
    for day in range(days):
        clock.start_day(day)
        for _ in range(2):
            play_coup(table, *COUP)
            coups += 1
            if coups % 9 == 0:  # a shoe holds 32 threes, 3 a coup
                table.supervisor.end_shoe(SUPERVISOR, "sabot nuevo")
                open_live_shoe(table)
        table.shift.close_gaming_day(SUPERVISOR, "fin de la jornada")
        closes.append(table.journal.last_seq)
        if archive:
            table.journal.archive(table.journal.last_seq)
    clock.start_day(days)
    play_coup(table, *COUP)
    table.play.place_bet(1, "punto", 10)
    state = table.state_hash()
    table.journal.close()
    return closes, state


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def report_json(path: Path, capsys: pytest.CaptureFixture[str], *window: str) -> dict:
    capsys.readouterr()
    assert midi_main(["report", "--json", *window, "--db", str(path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    del figures["journal"]  # the head and count: the archived journal has its journal_archived entries
    return figures


def without_seqs(events) -> list[tuple]:
    return [(e.ts, e.round_id, e.staff_id, e.type, e.payload) for e in events]


ARCHIVES = 14


def test_many_archives_beyond_sqlites_attach_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A table that closes and archives its gaming day daily: past SQLite's 10 attached files the
    journal still opens, restores, recalls, reports and verifies, with few files open at once."""
    monkeypatch.setattr(shared.journal.core, "_utc_now", DayClock())
    plain, archived = tmp_path / "plain" / "t.sqlite3", tmp_path / "archived" / "t.sqlite3"
    plain.parent.mkdir()
    archived.parent.mkdir()
    play_days_archiving(plain, ARCHIVES, archive=False)
    archived_closes, state = play_days_archiving(archived, ARCHIVES, archive=True)
    assert len(list(archived.parent.glob("t.archive-*.sqlite3"))) == ARCHIVES

    table = reopened(archived)
    journal = table.journal
    try:
        assert table.state_hash() == state and table.recovered
        assert journal.first_seq == archived_closes[-1] + 1  # the last day is archived too
        with Journal.open_existing(plain) as whole:
            first_round, last_rounds = whole.round_events(1), whole.last_round_ids(3)
            recent = [whole.round_events(r) for r in last_rounds]
        assert 1 <= first_round[0].seq <= archived_closes[0]  # round 1 is in the first archive
        assert without_seqs(journal.round_events(1)) == without_seqs(first_round)
        assert journal.last_round_ids(3) == last_rounds
        assert [without_seqs(journal.round_events(r)) for r in last_rounds] == [without_seqs(e) for e in recent]
        baseline = open_fds()
        most = baseline
        with journal.read_view() as view:
            seqs = []
            for event in view.events():
                seqs.append(event.seq)
                most = max(most, open_fds())
            assert seqs == list(range(1, journal.last_seq + 1))
            assert [e.seq for e in view.events(types=["gaming_day_closed"])] == archived_closes
        for round_id in range(1, 2 * ARCHIVES + 2):
            journal.round_events(round_id)
            most = max(most, open_fds())
        assert journal.verify().ok
        # A handful of files at once, whatever the number of archives (counted across every one).
        assert most - baseline <= 8 < ARCHIVES, (baseline, most)
    finally:
        journal.close()

    assert report_json(archived, capsys, "--all") == report_json(plain, capsys, "--all")
    assert report_json(archived, capsys, "--day", "2026-03-07") == report_json(plain, capsys, "--day", "2026-03-07")
    assert report_json(archived, capsys, "--day", "2026-03-07")["total"]["rounds"] == 2
    assert midi_main(["journal", "verify", "--db", str(archived)]) == 0

    # An entry edited in an archive in the middle: verify names it (the archive's own verify too).
    middle = sorted(archived.parent.glob("t.archive-*.sqlite3"), key=lambda p: int(p.name.split("-")[1]))[ARCHIVES // 2]
    first, through = (int(part) for part in middle.stem.split("archive-")[1].split("-"))
    conn = sqlite3.connect(middle, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET staff_id = 'S99' WHERE seq = ?", (first + 3,))
    conn.close()
    with Journal.open_existing(archived) as journal:
        report = journal.verify()
    assert not report.ok and report.first_bad_seq == first + 3 and first <= first + 3 <= through
    assert midi_main(["journal", "verify", "--db", str(archived)]) == 1


def test_a_read_view_keeps_the_files_it_began_with_while_the_writer_archives(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    closes = played_days(path, 2)
    with Journal(path, TABLE_ID, "midi") as journal, Journal.open_existing(path) as auditor:
        journal.archive(closes[0])
        last = journal.last_seq
        with auditor.read_view() as view:
            head = view.head()
            journal.archive(closes[1])  # the live file drops what the view still reads there
            assert [e.seq for e in view.events()] == list(range(1, last + 1))
            assert view.head() == head
        assert auditor.verify().ok  # a later read sees the new archive too


def test_a_madero_table_archiving_its_gaming_day_daily_still_opens_and_verifies(tmp_path: Path) -> None:
    table = madero_live_table(tmp_path)
    for _ in range(12):
        _madero_round(table, 20, ["4d", "5c"])
        table.shift.close_gaming_day(MADERO_SUPERVISOR)
        table.journal.archive(table.journal.last_seq)
    _madero_round(table, 10, ["Ah", "9h"])
    table.play.place_bet(1, "ante", 10)
    state, last_round = table.state_hash(), table.round_id
    table.journal.close()

    table = open_live(table.journal.path)
    with table.journal as journal:
        assert table.state_hash() == state and len(list(tmp_path.glob("t.archive-*.sqlite"))) == 12
        assert journal.verify().ok
        first_round = journal.round_events(1)
        assert first_round and first_round[-1].seq < journal.first_seq  # archived on the first day
        assert journal.last_round_ids(2) == [last_round - 1, last_round]
