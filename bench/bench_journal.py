"""Journal benchmark: start-up (restore) time on a long history, and append latency.

    .venv/bin/python bench/bench_journal.py [--rounds 10000] [--dir DIR]

Builds a journal of ``--rounds`` finished rounds plus one open round, then prints:
- the time to open it (Journal + StaffRegistry + engine construction = restore from the
  latest snapshot and fold of the open round), median of 20 opens; target < 0.2 s;
- for comparison, the same restore with the snapshots removed (full replay);
- append latency per event with synchronous=FULL: ``Journal.append`` alone and
  ``engine.record`` (append + apply, and the snapshot on the event that closes a round).

Prints numbers only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.engine import TableEngine  # noqa: E402
from shared.journal import Event, Journal  # noqa: E402
from shared.staff import Actor, Role, StaffRegistry  # noqa: E402

CROUPIER = Actor("C01", Role.CROUPIER)
BOXES = 7


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
    engine.record("coup_opened", {"coup": engine.coup + 1}, CROUPIER)
    for box in range(1, 4):
        engine.record("bet_placed", {"box": str(box), "amount": str(100 * box)}, CROUPIER)
    for k in range(4):
        rank = str((n + k) % 13 + 1)
        if engine.shoe[rank] == 0:
            engine.record("shoe_changed", {}, CROUPIER)
        engine.record("card_keyed", {"card": rank + "s", "rank": rank}, CROUPIER)
    if settle:
        engine.record("coup_settled", {"win": str(n % 300 - 150)}, CROUPIER)


def build(path: Path, rounds: int) -> None:
    journal = Journal(path, "B1", "bench")
    staff = StaffRegistry(journal)
    staff.enrol("S01", "Supervisor", Role.SUPERVISOR, "1234", by=None)
    # Building 10,000 rounds with an fsync per event would take minutes; the file's content is
    # the same either way, so the build alone runs without fsync. Measurements below use FULL.
    journal._conn.execute("PRAGMA synchronous=OFF")
    engine = CoupEngine(journal, staff)
    for n in range(rounds):
        play_coup(engine, n)
    play_coup(engine, rounds, settle=False)  # the open round a restart must bring back
    journal.close()
    os.sync()  # so the build's unsynced writes do not slow the fsyncs measured below


def time_open(path: Path, repeats: int) -> tuple[list[float], CoupEngine]:
    times = []
    engine = None
    for _ in range(repeats):
        start = time.perf_counter()
        journal = Journal(path, "B1", "bench")
        engine = CoupEngine(journal, StaffRegistry(journal))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None, help="where to build the journal (default: a temp dir)")
    parser.add_argument("--appends", type=int, default=400)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-journal-", dir=args.dir))
    try:
        path = workdir / "bench.sqlite3"
        start = time.perf_counter()
        build(path, args.rounds)
        built = time.perf_counter() - start
        conn = sqlite3.connect(path)
        n_events = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        conn.close()
        size_mb = path.stat().st_size / 1e6
        print(f"journal: {args.rounds} finished rounds + 1 open, {n_events} events, {size_mb:.1f} MB "
              f"(built in {built:.1f} s)")

        times, engine = time_open(path, 20)
        print(f"open (restore from snapshot): median {fmt_ms(statistics.median(times))}, "
              f"min {fmt_ms(min(times))}, max {fmt_ms(max(times))}  [target < 200 ms]")

        replay_path = workdir / "replay.sqlite3"
        shutil.copy(path, replay_path)
        conn = sqlite3.connect(replay_path)
        conn.execute("DELETE FROM snapshots")
        conn.commit()
        conn.close()
        replay_times, replayed = time_open(replay_path, 3)
        assert replayed.state_dict() == engine.state_dict()
        print(f"open by full replay (no snapshot), for comparison: median {fmt_ms(statistics.median(replay_times))}")

        start = time.perf_counter()
        with Journal(path, "B1", "bench") as journal:
            report = journal.verify()
        print(f"verify whole chain: {report.checked} entries in {time.perf_counter() - start:.2f} s (ok={report.ok})")

        with Journal(path, "B1", "bench") as journal:
            lat = []
            for k in range(args.appends):
                t0 = time.perf_counter()
                journal.append("bench_note", {"k": k, "amount": "125.50"}, round_id=0, actor=CROUPIER)
                lat.append(time.perf_counter() - t0)
        print(f"Journal.append, synchronous=FULL, {args.appends} events: median {fmt_ms(statistics.median(lat))}, "
              f"p99 {fmt_ms(percentile(lat, 0.99))}, max {fmt_ms(max(lat))}")

        with Journal(workdir / "fresh.sqlite3", "B1", "bench") as journal:
            engine = CoupEngine(journal)
            per_event: list[float] = []
            closing: list[float] = []
            for n in range(args.appends // 9):
                t0 = time.perf_counter()
                play_coup(engine, n, settle=False)
                per_event.append((time.perf_counter() - t0) / 8)
                t0 = time.perf_counter()
                engine.record("coup_settled", {"win": "0"}, CROUPIER)
                closing.append(time.perf_counter() - t0)
        print(f"engine.record (append + apply): median {fmt_ms(statistics.median(per_event))}, "
              f"p99 {fmt_ms(percentile(per_event, 0.99))}; "
              f"round-closing record incl. snapshot: median {fmt_ms(statistics.median(closing))}, "
              f"p99 {fmt_ms(percentile(closing, 0.99))}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
