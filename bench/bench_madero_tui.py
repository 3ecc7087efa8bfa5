"""Madero console benchmarks: keystroke-to-screen latency and launch time. Prints numbers only.

    .venv/bin/python bench/bench_madero_tui.py [--rounds 10000 | --journal PATH] [--measured 3] [--launches 7] [--dir DIR]

1. Keystroke to screen: a live table (real journal file, ``synchronous=FULL`` for every
   measured command) whose journal holds ``--rounds`` finished rounds played through the
   engine, then ``--measured`` rounds with all 7 boxes busy (Ante, Bonus, Jackpot) typed
   as a croupier would: the box's digit, ``a`` and the Ante's amount, ``b`` (which places
   the Ante) and the Bonus, ``j`` (which places the Bonus) and the credits' digit (which
   places them), «No va más», voy / me retiro, Turn / paso, River / paso, every card as two
   keys, ``enter`` to settle. It prints the keys per round and per bet.
   For each key: the time from handing the key to the app until the next frame is
   composed and serialised to terminal output (``App._display`` is wrapped; the headless
   driver skips only the write itself). Before the first measured key the croupier's PIN is typed
   (a relaunch asks it at the first key); each key must land on the table screen, be taken
   and draw a frame, or the run stops. Target: the settled frame's p99 within 16.7 ms.
2. Launch to first usable screen: a fresh interpreter per launch, median wall time from
   spawn until the first frame of the table with the same journal (open shift, so
   no sign-in), against a minimal Textual app (one Static) measured the same way in the
   same run, and the peak resident size at that frame. Targets: within 1.25× and 1.3×. Twice: on the shipped default
   table, and with the same table read from a TOML file (``--table``), read once and then from its journal's record.

``--journal PATH`` measures both on a year of play instead (``launch.YEAR`` rounds, clocked,
two shifts a day), kept at PATH between runs: built there when missing, each run on a copy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from launch import kept_journal, measure_launches, minimal_app, prepare_launch, run_to_first_usable_frame, scratch, table_file, write_table_file  # noqa: E402  (bench/ helper)

SIZE = (120, 40)
CROUPIER_PIN = "5678"


def play_round(m, rng: random.Random, boxes: list[int]) -> None:
    """One live round through the engine's commands, cards keyed from a shuffled deck."""
    from shared.cards import FULL_DECK
    from shared.madero.settlement import Bet
    from shared.madero.table import Phase

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    for box in boxes:
        m.play.place_bet(box, Bet.ANTE, rng.choice((10, 20, 25, 50, 100)))
        if rng.random() < 0.3:
            m.play.place_bet(box, Bet.BONUS, 5)
    m.play.no_va_mas()
    while m.phase is not Phase.SETTLEMENT:
        box = m.to_act
        if m.phase is Phase.FIRST:
            m.play.fold(box) if rng.random() < 0.25 else m.play.voy(box)
        elif box is not None:
            m.play.bet(box) if rng.random() < 0.4 else m.play.check(box)
        else:
            m.play.key_card(deck.pop())
    m.play.confirm_settlement()


def prepare(db: Path, rounds: int) -> None:
    """A live journal: staff, an open shift and ``rounds`` finished rounds."""
    from shared.journal import Journal
    from shared.madero.table import MaderoTable
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry

    journal = Journal(db, "MPB-01", "madero")
    # Building 10,000 rounds with an fsync per event would take many minutes; the file's
    # content is the same either way, so the build alone runs without fsync.
    journal._conn.execute("PRAGMA synchronous=OFF")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, CROUPIER_PIN, by=Credentials("S1", "123456"))
    m = MaderoTable(journal, staff)
    m.shift.open(Credentials("C1", CROUPIER_PIN))
    m.tray.open("1000x100", Credentials("C1", CROUPIER_PIN), Credentials("S1", "123456"))  # bets need it
    rng = random.Random(2015)
    for _ in range(rounds):
        play_round(m, rng, sorted(rng.sample(range(1, 8), rng.randint(1, 4))))
    print(f"  {journal.last_seq:,} events, {db.stat().st_size / 1e6:.1f} MB")
    journal.close()
    os.sync()  # so the build's unsynced writes do not slow the fsyncs measured below


def prepare_year(kept: Path, db: Path) -> None:
    """``--journal``: a copy of the kept year (``launch.kept_journal``) at ``db``, its open
    round played to its settlement, so the measured rounds start at an idle table."""
    from bench_journal import finish_madero_round
    from shared.journal import Journal
    from shared.madero.table import MaderoTable
    from shared.staff import StaffRegistry

    kept_journal(kept, "madero", db)
    journal = Journal(db, "MPB-01", "madero")
    m = MaderoTable(journal, StaffRegistry(journal))
    finish_madero_round(m, random.Random(2015))
    print(f"  {m.round_id:,} rounds, {journal.last_seq:,} events, {db.stat().st_size / 1e6:.1f} MB")
    journal.close()


def busy_round_keys(rng: random.Random) -> list[str]:
    """Keys of the bets of a round with all 7 boxes busy, from box 1 clockwise.

    A round's bets start at box 1, already selected: its digit would change nothing on screen
    (no frame to time), and a croupier does not type it either.
    """
    keys: list[str] = []
    for box in range(1, 8):
        keys += [*([str(box)] if box > 1 else []), "a", *str(rng.choice((10, 20, 25, 50, 100))),
                 "b", "5", "j", str(rng.randint(1, 5))]
    return keys


async def keystroke_latency(db: Path, measured: int) -> list[tuple[str, float, float]]:
    from tui_keys import TypedTable  # Textual's: imported here, not before a launch child's hold

    from madero_tui.app import make_app
    from shared.cards import FULL_DECK
    from shared.madero.table import Phase
    from tui_common.options import LaunchOptions

    app = make_app(LaunchOptions(db=db))
    bet_keys: list[int] = []
    round_keys: list[int] = []
    rng = random.Random(7)
    try:
        async with app.run_test(size=SIZE) as pilot:
            table = TypedTable(app, pilot)
            await table.confirm_duty(CROUPIER_PIN)
            m = app.engine
            history = m.round_id
            for _ in range(measured):
                deck = list(FULL_DECK)
                rng.shuffle(deck)
                first = len(table.samples)
                typed = busy_round_keys(rng)
                for key in typed:
                    await table.press(key)
                busy = sum(1 for b in m.boxes.values() if b.ante and b.bonus and b.jackpot_credits)
                assert busy == 7, "every box's three bets placed"
                bet_keys.append(len(typed))
                await table.press("n")
                while m.phase is not Phase.SETTLEMENT:
                    if m.phase is Phase.FIRST:
                        await table.press("r" if rng.random() < 0.2 else "v")
                    elif m.to_act is not None:
                        await table.press("t" if rng.random() < 0.4 else "p")
                    else:
                        card = str(deck.pop()).lower()
                        await table.press(card[0], "card rank")
                        await table.press(card[1], "card suit")
                await table.press("enter")
                assert m.round_id == history + len(round_keys) + 1 and not m.round_open, "the round settled"
                round_keys.append(len(table.samples) - first)
    finally:
        app.engine.journal.close()  # the launches after this take the journal's writer lock
    print(f"  journal when measured: {history:,} finished rounds; boxes busy: {busy}")
    print(f"  keys per round: {statistics.mean(round_keys):.1f}, of which the 21 bets"
          f" {statistics.mean(bet_keys):.1f} = {statistics.mean(bet_keys) / 21:.2f} keys per bet")
    return table.samples


def launch_child(kind: str, db: str, spawned: float) -> None:
    """Runs in a fresh interpreter: build the app, stop at its first usable frame."""
    if kind == "minimal":
        run_to_first_usable_frame(minimal_app(), lambda: True, spawned, SIZE)
        return
    prepare_launch("madero_tui.app")
    from madero_tui.app import make_app
    from madero_tui.widgets.prompt import PromptLine
    from tui_common.options import LaunchOptions

    table = table_file(Path(db)) if kind == "madero-file" else None
    app = make_app(LaunchOptions(db=Path(db), table=table))

    def usable() -> bool:
        # The table is drawn and says what to do next: the croupier can type.
        screen = app.table_screen
        return app.screen is screen and bool(getattr(screen.query_one(PromptLine), "text", ""))

    run_to_first_usable_frame(app, usable, spawned, SIZE)


def import_time(module: str) -> float:
    """Seconds to import ``module`` in a fresh interpreter."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(result.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10000, help="finished rounds in the journal")
    parser.add_argument("--measured", type=int, default=3, help="7-box rounds typed for the latency sample")
    parser.add_argument("--launches", type=int, default=7, help="launches of each app for the launch median")
    parser.add_argument("--dir", type=Path, help="where the journal goes (default a temporary directory)")
    parser.add_argument("--journal", type=Path, help="measure on a year's journal kept here"
                        " (built when missing, ~30 min; --rounds is then not used)")
    parser.add_argument("--child", choices=("minimal", "madero", "madero-file"), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--spawned", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        launch_child(args.child, args.db, args.spawned)
        return
    with scratch(args.dir) as tmp:
        db = Path(tmp) / "bench-madero.db"
        t0 = time.perf_counter()
        if args.journal:
            prepare_year(args.journal, db)
        else:
            print(f"building a journal of {args.rounds:,} rounds …")
            prepare(db, args.rounds)
        print(f"  built in {time.perf_counter() - t0:.1f} s")
        print("2. launch to first usable screen (fresh interpreter each, headless 120x40)")
        from shared.madero.config import DEFAULT_MADERO_TABLE

        write_table_file(DEFAULT_MADERO_TABLE, db)
        measure_launches(__file__, [("madero", "madero-tui (shipped default table)"),
                                    ("madero-file", "madero-tui --table FILE (same table)")], db, args.launches)
        evaluator = statistics.median(import_time("shared.poker.evaluator") for _ in range(args.launches))
        engine = statistics.median(import_time("shared.madero.table") for _ in range(args.launches))
        print(f"  imports alone, fresh interpreter: the engine {engine * 1000:.0f} ms; the poker evaluator"
              f" (lookup tables loaded at import; off the launch: a thread loads it a second after the table is up)"
              f" {evaluator * 1000:.0f} ms")
        print("1. keystroke to screen (7 busy boxes, live journal, synchronous=FULL)")
        samples = asyncio.run(keystroke_latency(db, args.measured))
        from tui_keys import print_latencies

        print_latencies(samples)

if __name__ == "__main__":
    main()
