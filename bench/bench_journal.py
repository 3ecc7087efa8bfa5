"""Journal benchmark: start-up (restore) time on a long history, and append latency.

    .venv/bin/python bench/bench_journal.py [--engine midi|standin] [--rounds 10000] [--dir DIR]
    .venv/bin/python bench/bench_journal.py --report --rounds 100000 [--journal PATH]
    .venv/bin/python bench/bench_journal.py --year --engine madero|midi --rounds 350000 [--journal PATH]
    .venv/bin/python bench/bench_journal.py --archives 30 [--rounds 300]

Builds a journal of ``--rounds`` finished rounds plus one open round — by default coups of
the real Midi Punto y Banca engine played as a croupier would (bets, «No va más», keyed
cards, settlement, new shoes and burns) — then prints:
- the time to open it (Journal + StaffRegistry + engine construction = restore from the
  latest snapshot and fold of the open round), median of 20 opens; target < 0.2 s;
- for comparison, the same restore with the snapshots removed (full replay);
- append latency per event with synchronous=FULL: ``Journal.append`` alone, and each engine
  command of real play on that journal (append + apply; the command that closes a round also
  writes the snapshot).

With ``--report`` it measures only the shift report instead: the wall time and peak memory
(maximum resident set) of ``midi-tui report`` run as its own process on the journal, text and
``--json``. ``--journal PATH`` keeps the built journal at PATH, or reuses it if it is there, so
two versions of the code can be measured on the same file. ``--year`` gives issue 19's figures
for ``--engine`` (size and where the bytes go, start check, reopen, recall, full verify, and
the report of one day, one shift and the whole journal, each as its own process) on a journal
played on a clock: a round a minute, an entry a second after the one before, 16 hours a day in
two shifts (a relief at 8 hours, a supervisor's close at 16).
With ``--archives N`` it plays N closed gaming days of ``--rounds`` coups each, archives each
day of a copy, and times the writer's open, restore, recall, a report of the whole journal and
verify on both.

Prints numbers only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.engine import TableEngine
from shared.events import EventBody
from shared.journal import Event, Journal, key_path, recall_json
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable
from shared.madero.table import Phase as MaderoPhase
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.table import MidiTable, Phase
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry
from shared.commands import can

CROUPIER = Actor("C01", Role.CROUPIER)
BOXES = 7


@dataclass(frozen=True)
class CoupOpened(EventBody):
    type: ClassVar[str] = "coup_opened"
    coup: int


@dataclass(frozen=True)
class BoxBet(EventBody):
    type: ClassVar[str] = "bet_placed"
    box: str
    amount: str


@dataclass(frozen=True)
class CardKeyed(EventBody):
    type: ClassVar[str] = "card_keyed"
    card: str
    rank: str


@dataclass(frozen=True)
class ShoeChanged(EventBody):
    type: ClassVar[str] = "shoe_changed"


@dataclass(frozen=True)
class StandInSettled(EventBody):
    type: ClassVar[str] = "coup_settled"
    win: str


class CoupEngine(TableEngine):
    """A stand-in shaped like a baccarat table: boxes with bets, a shoe's rank counts, meters."""

    game: ClassVar[str] = "bench"

    def initial_state(self) -> None:
        self.coup = 0
        self.is_open = False
        self.bets: dict[str, str] = {}
        self.shoe = {str(rank): 32 for rank in range(1, 14)}
        self.drop = 0
        self.win = 0
        self.cards: list[str] = []

    def apply(self, event: Event) -> None:
        p = event.payload
        if event.type == "coup_opened":
            self.coup, self.is_open, self.bets, self.cards = p["coup"], True, {}, []
        elif event.type == "bet_placed":
            self.bets[p["box"]] = p["amount"]
            self.drop += int(p["amount"])
        elif event.type == "card_keyed":
            self.cards.append(p["card"])
            self.shoe[p["rank"]] -= 1
        elif event.type == "shoe_changed":
            self.shoe = {str(rank): 32 for rank in range(1, 14)}
        elif event.type == "coup_settled":
            self.win += int(p["win"])
            self.is_open = False

    def snapshot_state(self) -> dict:
        return {
            "coup": self.coup,
            "open": self.is_open,
            "bets": self.bets,
            "shoe": self.shoe,
            "drop": self.drop,
            "win": self.win,
            "cards": self.cards,
        }

    def restore_state(self, data: dict) -> None:
        self.coup, self.is_open, self.bets = data["coup"], data["open"], dict(data["bets"])
        self.shoe, self.drop, self.win, self.cards = dict(data["shoe"]), data["drop"], data["win"], list(data["cards"])

    @property
    def round_id(self) -> int:
        return self.coup

    @property
    def round_open(self) -> bool:
        return self.is_open

    def round_id_for(self, type: str, payload: dict) -> int:
        return payload["coup"] if type == "coup_opened" else self.coup


def play_coup(engine: CoupEngine, n: int, *, settle: bool = True) -> None:
    engine.record(CoupOpened(engine.coup + 1), CROUPIER)
    for box in range(1, 4):
        engine.record(BoxBet(str(box), str(100 * box)), CROUPIER)
    for k in range(4):
        rank = str((n + k) % 13 + 1)
        if engine.shoe[rank] == 0:
            engine.record(ShoeChanged(), CROUPIER)
        engine.record(CardKeyed(rank + "s", rank), CROUPIER)
    if settle:
        engine.record(StandInSettled(str(n % 300 - 150)), CROUPIER)


def midi_card(table: MidiTable, rng: random.Random) -> str:
    shoe = table.shoe
    assert shoe is not None
    return rng.choice([rank for rank, left in shoe.left.items() if left > 0]).char


def play_midi_coup(table: MidiTable, rng: random.Random, *, settle: bool = True) -> None:
    """One coup as a croupier plays it: a new shoe and burn when due, 3 bets, cards, settle
    (or the rest of a coup left open)."""
    if table.phase in (Phase.CARDS, Phase.RESULT):
        finish_midi_coup(table, rng)
        return
    while table.phase is not Phase.BETS:
        if table.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            table.play.new_shoe()
        elif table.card_called_for == "burn":
            table.play.key_card(midi_card(table, rng))
        else:
            table.play.confirm_burn()
    for spot in rng.sample(table.spots, 3):
        kind = rng.choice(("punto", "banca", "tie"))
        table.play.place_bet(spot, kind, 10 * rng.randint(1, 10))
    table.play.no_va_mas()
    if settle:
        finish_midi_coup(table, rng)
    else:
        table.play.key_card(midi_card(table, rng))
        table.play.key_card(midi_card(table, rng))  # leave the coup open mid-deal


def finish_midi_coup(table: MidiTable, rng: random.Random) -> None:
    while table.card_called_for is not None:
        if can(table.play.verify_shoe_exhausted):
            table.play.shoe_exhausted()
            return
        table.play.key_card(midi_card(table, rng))
    table.play.settle()


def play_madero_round(table: MaderoTable, rng: random.Random, *, settle: bool = True) -> None:
    """One Madero round as a croupier plays it: 3 boxes bet (ante, some bonus and jackpot),
    «No va más», keyed cards, each box's decisions, settlement (or a round left open mid-deal)."""
    if table.phase is not MaderoPhase.IDLE:
        finish_madero_round(table, rng)
        return
    for box in rng.sample(range(1, 8), 3):
        table.play.place_bet(box, Bet.ANTE, rng.choice((10, 20, 50)))
        if rng.random() < 0.5:
            table.play.place_bet(box, Bet.BONUS, 10)
        if rng.random() < 0.3:
            table.play.place_bet(box, Bet.JACKPOT, 1)
    table.play.no_va_mas()
    if settle:
        finish_madero_round(table, rng)
    else:
        for _ in range(3):
            madero_step(table, rng)  # leave the round open mid-deal


def madero_step(table: MaderoTable, rng: random.Random) -> None:
    phase = table.phase
    if phase is MaderoPhase.FIRST:
        (table.play.fold if rng.random() < 0.2 else table.play.voy)(table.to_act)
    elif phase in (MaderoPhase.SECOND, MaderoPhase.THIRD):
        (table.play.bet if rng.random() < 0.5 else table.play.check)(table.to_act)
    elif phase is MaderoPhase.SETTLEMENT:
        table.play.confirm_settlement()
    else:
        table.play.key_card(str(rng.choice(list(table.r.deck_pool().unseen()))))


def finish_madero_round(table: MaderoTable, rng: random.Random) -> None:
    while table.phase is not MaderoPhase.IDLE:
        madero_step(table, rng)


ENGINES = {
    # name: (game, table id, engine factory, play one round)
    "midi": (
        "midi",
        DEFAULT_MIDI_TABLE.table_id,
        lambda journal, staff: MidiTable(journal, staff),
        lambda engine, n, rng, settle=True: play_midi_coup(engine, rng, settle=settle),
    ),
    "madero": (
        "madero",
        DEFAULT_MADERO_TABLE.table_id,
        lambda journal, staff: MaderoTable(journal, staff),
        lambda engine, n, rng, settle=True: play_madero_round(engine, rng, settle=settle),
    ),
    "standin": (
        "bench",
        "B1",
        lambda journal, staff: CoupEngine(journal, staff),
        lambda engine, n, rng, settle=True: play_coup(engine, n, settle=settle),
    ),
}


def build(path: Path, rounds: int, engine_name: str) -> None:
    game, table_id, make, play = ENGINES[engine_name]
    journal = Journal(path, table_id, game)
    staff = StaffRegistry(journal)
    staff.enrol("S01", "Supervisor", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C01", "Croupier", Role.CROUPIER, "5678", by=Actor("S01", Role.SUPERVISOR))
    # Building 10,000 rounds with an fsync per event would take minutes; the file's content is
    # the same either way, so the build alone runs without fsync. Measurements below use FULL.
    journal._conn.execute("PRAGMA synchronous=OFF")
    engine = make(journal, staff)
    engine.shift.open(Credentials("C01", "5678"))
    engine.tray.open("1000x100", Credentials("C01", "5678"), Credentials("S01", "123456"))  # bets need it
    rng = random.Random(1)
    for n in range(rounds):
        play(engine, n, rng)
    play(engine, rounds, rng, settle=False)  # the open round a restart must bring back
    assert engine.round_open
    journal.close()
    os.sync()  # so the build's unsynced writes do not slow the fsyncs measured below


class BenchClock:
    """The journal's clock, moved by the build: a round starts each minute, and each entry is
    journaled a second after the one before (a croupier's pace; format 5 stores that gap)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)

    def __call__(self) -> str:
        now = self.now
        self.now += timedelta(seconds=1)
        return now.isoformat(timespec="microseconds")


COUPS_A_DAY = 16 * 60
"""A busy table: 60 coups an hour, 16 hours a day (issue 19)."""


def build_year(path: Path, rounds: int, engine_name: str = "midi") -> None:
    """``rounds`` rounds a minute apart, two shifts a day (C01, relieved by C02 after 8 hours,
    the shift and the gaming day closed by the supervisor), and one round left open, without
    fsync as ``build`` does."""
    game, table_id, make, play = ENGINES[engine_name]
    clock = BenchClock()
    journal = Journal(path, table_id, game, clock=clock)
    staff = StaffRegistry(journal)
    staff.enrol("S01", "Supervisor", Role.SUPERVISOR, "123456", by=None)
    for staff_id in ("C01", "C02"):
        staff.enrol(staff_id, "Croupier", Role.CROUPIER, "5678", by=Actor("S01", Role.SUPERVISOR))
    journal._conn.execute("PRAGMA synchronous=OFF")
    table = make(journal, staff)
    rng = random.Random(1)
    day = clock.now
    for n in range(rounds):
        if n % COUPS_A_DAY == 0:
            if n:
                table.shift.close(Credentials("S01", "123456"))
                table.shift.close_gaming_day(Credentials("S01", "123456"))  # what ``report --day`` selects by
                day += timedelta(days=1)
                clock.now = max(clock.now, day)  # the next gaming day's first entry is on its date
            table.shift.open(Credentials("C01", "5678"))
            if not n:
                table.tray.open("1000x100", Credentials("C01", "5678"), Credentials("S01", "123456"))
        elif n % (COUPS_A_DAY // 2) == 0:
            table.shift.open(Credentials("C02", "5678"))
        clock.now = max(clock.now, day + timedelta(minutes=n % COUPS_A_DAY))
        play(table, n, rng)
    play(table, rounds, rng, settle=False)  # the open round a restart must bring back
    assert table.round_open
    journal.close()
    os.sync()


def build_days(path: Path, days: int, coups: int) -> list[int]:
    """``days`` gaming days of ``coups`` Midi coups a minute apart, each closed by the
    supervisor, then a coup left open (without fsync, as ``build``); each close's seq."""
    clock = BenchClock()
    journal = Journal(path, DEFAULT_MIDI_TABLE.table_id, "midi", clock=clock)
    staff = StaffRegistry(journal)
    staff.enrol("S01", "Supervisor", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C01", "Croupier", Role.CROUPIER, "5678", by=Actor("S01", Role.SUPERVISOR))
    journal._conn.execute("PRAGMA synchronous=OFF")
    table = MidiTable(journal, staff)
    rng = random.Random(1)
    closes = []
    for day in range(days):
        table.shift.open(Credentials("C01", "5678"))
        if not day:
            table.tray.open("1000x100", Credentials("C01", "5678"), Credentials("S01", "123456"))
        for _ in range(coups):
            play_midi_coup(table, rng)
            clock.now += timedelta(minutes=1)
        table.shift.close_gaming_day(Credentials("S01", "123456"), "bench")
        closes.append(journal.last_seq)
        clock.now += timedelta(hours=24) - timedelta(minutes=coups)
    table.shift.open(Credentials("C01", "5678"))
    play_midi_coup(table, rng, settle=False)
    journal.close()
    os.sync()
    return closes


def time_archives(workdir: Path, days: int, coups: int) -> None:
    """The same play with every gaming day archived and not: open, restore, recall, report, verify."""
    plain = workdir / "plain" / "bench.sqlite3"
    plain.parent.mkdir()
    start = time.perf_counter()
    closes = build_days(plain, days, coups)
    print(f"built {days} days of {coups} coups in {time.perf_counter() - start:.0f} s")
    archived = workdir / "archived" / "bench.sqlite3"
    archived.parent.mkdir()
    shutil.copy(plain, archived)
    shutil.copy(key_path(plain), key_path(archived))
    start = time.perf_counter()
    with Journal(archived, DEFAULT_MIDI_TABLE.table_id, "midi") as journal:
        for close in closes:
            journal.archive(close)
    print(f"archived {days} days in {time.perf_counter() - start:.1f} s "
          f"({len(list(archived.parent.glob('*.archive-*.sqlite3')))} archive files)")
    day = (BenchClock().now + timedelta(days=days // 2)).date().isoformat()
    for name, path in (("not archived", plain), (f"{days} archives", archived)):
        print(f"-- {name}: live file {path.stat().st_size / 1e6:.1f} MB")
        starts = []
        for _ in range(10):
            begin = time.perf_counter()
            Journal(path, DEFAULT_MIDI_TABLE.table_id, "midi").close()
            starts.append(time.perf_counter() - begin)
        print(f"writer open: median {fmt_ms(statistics.median(starts))}")
        times, _ = time_open(path, 10, "midi")
        print(f"restore (open + engine): median {fmt_ms(statistics.median(times))}")
        with Journal.open_existing(path) as journal:
            begin = time.perf_counter()
            recent = recall_json(journal, journal.last_round_ids(10))
            last = time.perf_counter() - begin
            begin = time.perf_counter()
            first = recall_json(journal, [1])
            by_id = time.perf_counter() - begin
            print(f"recall --last 10: {fmt_ms(last)} ({sum(len(r['events']) for r in recent)} events); "
                  f"--round 1: {fmt_ms(by_id)} ({len(first[0]['events'])} events)")
            begin = time.perf_counter()
            report = journal.verify()
            print(f"verify: {report.checked} entries in {time.perf_counter() - begin:.2f} s (ok={report.ok})")
        time_report(path, [["--all"], ["--day", day]])


def time_open(path: Path, repeats: int, engine_name: str) -> tuple[list[float], TableEngine]:
    game, table_id, make, _ = ENGINES[engine_name]
    times = []
    engine = None
    for _ in range(repeats):
        start = time.perf_counter()
        journal = Journal(path, table_id, game)
        engine = make(journal, StaffRegistry(journal))
        times.append(time.perf_counter() - start)
        assert engine.recovered
        journal.close()
    assert engine is not None
    return times, engine


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_report(path: Path, variants: list[list[str]], game: str = "midi") -> None:
    """``midi-tui report`` (``madero-tui`` for ``game`` madero) on ``path`` with each of
    ``variants`` (extra arguments), each run a fresh process: wall time and peak RSS."""
    for extra in variants:
        with tempfile.TemporaryFile(mode="w+") as err:
            start = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-m", f"{game}_tui.cli", "report", "--db", str(path), *extra],
                                    stdout=subprocess.DEVNULL, stderr=err)
            # wait4 gives this child's own resource use (ru_maxrss in KiB on Linux).
            _, status, usage = os.wait4(proc.pid, 0)
            elapsed = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            assert proc.returncode == 0, err.read()
        # Wall time depends on what else the machine runs; the child's CPU time much less.
        print(f"report {' '.join(extra) or '(text)'}: {elapsed:.2f} s, CPU {usage.ru_utime + usage.ru_stime:.2f} s, "
              f"peak memory {usage.ru_maxrss / 1024:.0f} MiB")


def year_variants(path: Path) -> list[list[str]]:
    """The whole journal, its middle day, and its middle and last shifts."""
    # Read through the journal: formats 3 and 4 store times as numbers and payloads deflated.
    with Journal.open_existing(path) as journal:
        first, last = (datetime.fromisoformat(e.ts) for e in (journal.event(journal.first_seq),
                                                              journal.event(journal.last_seq)) if e is not None)
        with journal.read_view() as view:
            shifts = sum(1 for e in view.events(["shift_opened"]) if e.payload.get("previous") is None)
    day = (first + (last - first) / 2).date().isoformat()
    return [["--all"], ["--all", "--json"], ["--day", day], ["--day", day, "--json"],
            ["--shift", str(max(1, shifts // 2))], ["--shift"]]


def stored_size(column: str) -> str:
    """SQL for the bytes a value takes in its record (an integer: its 1-8 byte form, as SQLite
    stores it, not the length of its text; the record header's byte or two aside)."""
    return (f"CASE typeof({column}) WHEN 'null' THEN 0 WHEN 'integer' THEN CASE WHEN abs({column}) < 128 THEN 1 "
            f"WHEN abs({column}) < 32768 THEN 2 WHEN abs({column}) < 8388608 THEN 3 "
            f"WHEN abs({column}) < 2147483648 THEN 4 WHEN abs({column}) < 140737488355328 THEN 6 ELSE 8 END "
            f"ELSE LENGTH(CAST({column} AS BLOB)) END")


def where_bytes(path: Path) -> None:
    """Where the file's bytes go: pages per table and index (SQLite's dbstat), the events
    columns' stored sizes, the largest payload types; all per round."""
    conn = sqlite3.connect(path)
    rounds = conn.execute("SELECT COUNT(DISTINCT round_id) FROM events WHERE round_id > 0").fetchone()[0]
    total = 0
    for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"):
        total += size
        if size >= 0.001 * path.stat().st_size:
            print(f"  pages {name:<26} {size / 1e6:9.1f} MB {size / rounds:8.0f} B/round")
    print(f"  pages, all                     {total / 1e6:9.1f} MB {total / rounds:8.0f} B/round ({rounds} rounds)")
    columns = [row[1] for row in conn.execute("PRAGMA table_info(events)")]
    lengths = conn.execute("SELECT " + ", ".join(f"SUM({stored_size(c)})" for c in columns) + " FROM events").fetchone()
    for column, length in zip(columns, lengths, strict=True):
        print(f"  events.{column:<23} {(length or 0) / 1e6:9.1f} MB {(length or 0) / rounds:8.0f} B/round")
    codes = conn.execute("SELECT value FROM meta WHERE key = 'types'").fetchone()
    names = json.loads(codes[0]) if codes else []  # format 4 stores each type as its code
    for type_, count, length in conn.execute(
        "SELECT type, COUNT(*), SUM(LENGTH(payload)) FROM events GROUP BY type ORDER BY 3 DESC LIMIT 5"
    ):
        name = names[type_] if isinstance(type_, int) else type_
        print(f"  payload of {name:<19} {count / rounds:9.1f}/round {length / rounds:8.0f} B/round")
    snapshots, state = conn.execute("SELECT COUNT(*), SUM(LENGTH(state)) FROM snapshots").fetchone()
    print(f"  snapshots kept: {snapshots}, state {state} B")
    conn.close()


def time_year(path: Path, rounds: int, engine_name: str) -> None:
    """The figures of issue 19 on a clocked journal of ``rounds`` rounds: size, reopen, start
    check, full verify, recall of the last 10 rounds and of one round by id, and the report of
    a day, a shift and the whole journal."""
    game, table_id, _, _ = ENGINES[engine_name]
    if not path.exists():
        start = time.perf_counter()
        build_year(path, rounds, engine_name)
        print(f"built {rounds} rounds in {time.perf_counter() - start:.0f} s")
    conn = sqlite3.connect(path)
    n_events, n_rounds = conn.execute("SELECT COUNT(*), COUNT(DISTINCT round_id) FROM events").fetchone()
    conn.close()
    size = path.stat().st_size
    print(f"{engine_name} journal: {n_rounds} rounds, {n_events} events, {size / 1e6:.1f} MB, "
          f"{size / n_rounds / 1024:.2f} KiB/round [target <= 1.5]")
    where_bytes(path)
    starts = []
    for _ in range(10):
        begin = time.perf_counter()
        Journal(path, table_id, game).close()  # the writer's open: lock, key, sealed head, entries since snapshot
        starts.append(time.perf_counter() - begin)
    print(f"start check (writer open): median {fmt_ms(statistics.median(starts))} [target < 200 ms]")
    times, _ = time_open(path, 10, engine_name)
    print(f"reopen (restore the open round): median {fmt_ms(statistics.median(times))}, "
          f"max {fmt_ms(max(times))} [target < 200 ms]")
    with Journal.open_existing(path) as journal:
        begin = time.perf_counter()
        recent = recall_json(journal, journal.last_round_ids(10))
        last = time.perf_counter() - begin
        begin = time.perf_counter()
        one = recall_json(journal, [n_rounds // 2])
        by_id = time.perf_counter() - begin
        print(f"recall --last 10: {fmt_ms(last)} ({sum(len(r['events']) for r in recent)} events); "
              f"--round {n_rounds // 2}: {fmt_ms(by_id)} ({len(one[0]['events'])} events) [target < 100 ms]")
        begin = time.perf_counter()
        report = journal.verify()
        took = time.perf_counter() - begin
        print(f"verify whole chain: {report.checked} entries in {took:.2f} s, "
              f"{took / max(report.checked, 1) * 1e6:.2f} us/entry (ok={report.ok}) [target < 15 s]")
    time_report(path, year_variants(path), game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=sorted(ENGINES), default="midi")
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None, help="where to build the journal (default: a temp dir)")
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--report", action="store_true", help="measure the shift report only")
    parser.add_argument("--journal", type=Path, default=None, help="build the journal here, or reuse it")
    parser.add_argument("--archives", type=int, default=0,
                        help="that many gaming days of --rounds coups each, archived and not, compared")
    parser.add_argument("--year", action="store_true",
                        help="issue 19's figures on a clocked journal (size, reopen, start check, verify, "
                             "recall, the report of a day, a shift and all)")
    args = parser.parse_args()
    if args.archives:
        workdir = Path(tempfile.mkdtemp(prefix="bench-archives-", dir=args.dir))
        try:
            time_archives(workdir, args.archives, args.rounds)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        return
    if args.year:
        path = args.journal or Path(tempfile.mkdtemp(prefix="bench-year-", dir=args.dir)) / "bench.sqlite3"
        time_year(path, args.rounds, args.engine)
        if args.journal is None:
            shutil.rmtree(path.parent, ignore_errors=True)
        return
    if args.report:
        path = args.journal or Path(tempfile.mkdtemp(prefix="bench-report-", dir=args.dir)) / "bench.sqlite3"
        if not path.exists():
            start = time.perf_counter()
            build(path, args.rounds, "midi")
            print(f"built {args.rounds} rounds in {time.perf_counter() - start:.1f} s")
        conn = sqlite3.connect(path)
        n_events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        conn.close()
        print(f"midi journal: {n_events} events, {path.stat().st_size / 1e6:.1f} MB")
        time_report(path, [[], ["--json"]])
        if args.journal is None:
            shutil.rmtree(path.parent, ignore_errors=True)
        return
    workdir = Path(tempfile.mkdtemp(prefix="bench-journal-", dir=args.dir))
    try:
        path = workdir / "bench.sqlite3"
        start = time.perf_counter()
        build(path, args.rounds, args.engine)
        built = time.perf_counter() - start
        conn = sqlite3.connect(path)
        n_events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        conn.close()
        size_mb = path.stat().st_size / 1e6
        print(f"{args.engine} journal: {args.rounds} finished rounds + 1 open, {n_events} events, {size_mb:.1f} MB "
              f"(built in {built:.1f} s)")

        times, engine = time_open(path, 20, args.engine)
        print(f"open (restore from snapshot): median {fmt_ms(statistics.median(times))}, "
              f"min {fmt_ms(min(times))}, max {fmt_ms(max(times))}  [target < 200 ms]")

        replay_path = workdir / "replay.sqlite3"
        shutil.copy(path, replay_path)
        shutil.copy(key_path(path), key_path(replay_path))
        conn = sqlite3.connect(replay_path)
        conn.execute("DELETE FROM snapshots")
        conn.commit()
        conn.close()
        replay_times, replayed = time_open(replay_path, 3, args.engine)
        assert replayed.state_dict() == engine.state_dict()
        print(f"open by full replay (no snapshot), for comparison: median {fmt_ms(statistics.median(replay_times))}")

        start = time.perf_counter()
        with Journal.open_existing(path) as journal:
            report = journal.verify()
        print(f"verify whole chain: {report.checked} entries in {time.perf_counter() - start:.2f} s (ok={report.ok})")

        # Its own file: the table's engine would refuse these foreign events on its next restore.
        with Journal(workdir / "appends.sqlite3", "B1", "bench-append") as journal:
            lat = []
            for k in range(args.appends):
                t0 = time.perf_counter()
                journal.append("bench_note", {"k": k, "amount": "125.50"}, round_id=0, actor=CROUPIER)
                lat.append(time.perf_counter() - t0)
        print(f"Journal.append, synchronous=FULL, {args.appends} events: median {fmt_ms(statistics.median(lat))}, "
              f"p99 {fmt_ms(percentile(lat, 0.99))}, max {fmt_ms(max(lat))}")

        # Every command of real play on the large journal, each record timed as the UI would wait for it.
        game, table_id, make, play = ENGINES[args.engine]
        with Journal(path, table_id, game) as journal:
            engine = make(journal, StaffRegistry(journal))
            plain: list[float] = []
            closing: list[float] = []
            record_many = engine.record_many

            def timed(items, actor):
                was_open = engine.round_open
                t0 = time.perf_counter()
                events = record_many(items, actor)
                elapsed = time.perf_counter() - t0
                (closing if was_open and not engine.round_open else plain).append(elapsed)
                return events

            engine.record_many = timed  # type: ignore[method-assign]
            rng = random.Random(2)
            n = args.rounds
            while len(plain) + len(closing) < args.appends:
                play(engine, n, rng)
                n += 1
        print(f"engine command (append + apply), {len(plain)} commands: median {fmt_ms(statistics.median(plain))}, "
              f"p99 {fmt_ms(percentile(plain, 0.99))}; "
              f"round-closing command incl. snapshot, {len(closing)}: median {fmt_ms(statistics.median(closing))}, "
              f"p99 {fmt_ms(percentile(closing, 0.99))}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
