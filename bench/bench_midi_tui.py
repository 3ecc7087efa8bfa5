"""Midi console benchmarks: keystroke-to-screen latency and launch time. Prints numbers only.

    .venv/bin/python bench/bench_midi_tui.py [--coups 10] [--launches 7] [--dir DIR] [--journal PATH]

1. Keystroke to screen: a live table (real journal file, synchronous writes) with a shoe
   played up to its last coups through the engine, 9 busy boxes, then whole coups typed
   as a croupier would (select a box, bet amounts, ctrl+r, «No va más», one key per card,
   enter to settle). For each key: the time from handing the key to the app until the
   next frame is composed and serialised to terminal output (``App._display`` is wrapped:
   the headless driver skips the write itself, nothing else). Before the first measured key the croupier's PIN is typed
   (a relaunch asks it at the first key); each key must land on the table screen, be taken
   and draw a frame, or the run stops. Target: the settled frame's p99 within 16.7 ms.
2. Launch to first usable screen: a fresh interpreter per launch, median wall time from
   spawn until the first frame of the table (the journal has a full shoe and an open
   shift, so no sign-in), against a minimal Textual app (one Static) measured the same
   way in the same run, and the peak resident size at that frame. Targets: within 1.25× and 1.3×. Twice: on the shipped default
   table, and with the same table read from a TOML file (``--table``), read once and then from its journal's record.

``--journal PATH`` measures both on a year of play before that shoe (``launch.YEAR`` coups,
clocked, two shifts a day), kept at PATH between runs: built there when missing, each run on a
copy.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from launch import kept_journal, measure_launches, minimal_app, prepare_launch, run_to_first_usable_frame, scratch, table_file, write_table_file  # noqa: E402  (bench/ helper)

SIZE = (120, 40)
CROUPIER_PIN = "5678"


def prepare(db: Path, coups_left: int) -> None:
    """A live journal: staff, an open shift, a shoe played until ~``coups_left`` coups remain."""
    from shared.journal import Journal
    from shared.midi.table import MidiTable
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry

    journal = Journal(db, "MPB-02", "midi")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, CROUPIER_PIN, by=Credentials("S1", "123456"))
    m = MidiTable(journal, staff)
    m.shift.open(Credentials("C1", CROUPIER_PIN))
    m.tray.open("1000x100", Credentials("C1", CROUPIER_PIN), Credentials("S1", "123456"))  # bets need it
    play_shoe(m, coups_left)
    journal.close()


def prepare_year(kept: Path, db: Path, coups_left: int) -> None:
    """``--journal``: a copy of the kept year (``launch.kept_journal``) at ``db``, its open coup
    settled and its shoe played out, then a new shoe played as ``prepare``'s."""
    from bench_journal import play_midi_coup
    from shared.journal import Journal
    from shared.midi.table import MidiTable, Phase
    from shared.staff import StaffRegistry

    kept_journal(kept, "midi", db)
    journal = Journal(db, "MPB-02", "midi")
    m = MidiTable(journal, StaffRegistry(journal))
    rng = random.Random(2)
    while True:
        play_midi_coup(m, rng)  # the open coup first: it settles it
        if m.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            break
    play_shoe(m, coups_left)
    print(f"  {journal.last_seq:,} events, {db.stat().st_size / 1e6:.1f} MB")
    journal.close()


def play_shoe(m, coups_left: int) -> None:
    """A new shoe, the sabot at box 1, 9 busy boxes, played until ~``coups_left`` coups remain."""
    m.play.new_shoe()
    m.play.key_card("3")
    m.play.confirm_burn()
    m.play.assign_sabot(1)
    place_busy_boxes(m)
    while m.shoe.cards_left > coups_left * 5 + 12:
        if not m.bets:
            m.play.repeat_last_bets()
        m.play.no_va_mas()
        while m.card_called_for:
            m.play.key_card(next_rank(m))
        m.play.settle()


def place_busy_boxes(m) -> None:
    from shared.midi.payouts import BetKind

    for box in range(1, 10):
        m.play.place_bet(box, BetKind.PUNTO if box % 2 else BetKind.BANCA, 20 * box)
        if box % 3 == 0:
            m.play.place_bet(box, BetKind.TIE, 10)


def next_rank(m) -> str:
    left = m.shoe.left
    return max(left, key=lambda r: left[r]).char


async def keystroke_latency(db: Path, coups: int) -> list[tuple[str, float, float]]:
    from tui_keys import TypedTable  # Textual's: imported here, not before a launch child's hold

    from midi_tui.app import make_app
    from shared.midi.table import Phase
    from tui_common.options import LaunchOptions

    app = make_app(LaunchOptions(db=db))
    try:
        async with app.run_test(size=SIZE) as pilot:
            table = TypedTable(app, pilot)
            await table.confirm_duty(CROUPIER_PIN)
            m = app.midi
            start = len(m.history)
            for _ in range(coups):
                assert m.phase is Phase.BETS and m.shoe.cards_left >= 12, "a coup can be dealt"
                if not m.bets:
                    await table.press("ctrl+r")
                # Box 4's Banca raised, box 6's lowered: every key opens, types or places.
                for box, amount in (("4", "120"), ("6", "80")):
                    await table.press(box, "box")
                    await table.press("b", "b (opens)")
                    for digit in amount:
                        await table.press(digit, "amount digit")
                    await table.press("enter", "enter (bet)")
                assert len(m.bets) == 9, "every box's bets placed"
                await table.press("n")
                while m.card_called_for:
                    await table.press(next_rank(m).lower(), "card")
                await table.press("enter", "enter (settle)")
                assert len(m.history) == start + 1 and not m.bets, "the coup settled"
                start += 1
            history, coups = len(m.history), m.round_id
    finally:
        app.engine.journal.close()  # the launches after this take the journal's writer lock
    print(f"  shoe history when measured: {history} coups, {coups:,} in the journal; boxes busy: 9")
    return table.samples


def launch_child(kind: str, db: str, spawned: float) -> None:
    """Runs in a fresh interpreter: build the app, stop at its first usable frame."""
    if kind == "minimal":
        run_to_first_usable_frame(minimal_app(), lambda: True, spawned, SIZE)
        return
    prepare_launch("midi_tui.app")
    from midi_tui.app import make_app
    from tui_common.options import LaunchOptions

    table = table_file(Path(db)) if kind == "midi-file" else None
    app = make_app(LaunchOptions(table=table, db=Path(db)))
    run_to_first_usable_frame(
        app, lambda: getattr(app.table_screen, "ready", False) and app.screen is app.table_screen, spawned, SIZE
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coups", type=int, default=10, help="coups typed for the latency sample")
    parser.add_argument("--launches", type=int, default=7, help="launches of each app for the launch median")
    parser.add_argument("--dir", type=Path, help="where the journal goes (default a temporary directory)")
    parser.add_argument("--journal", type=Path, help="measure on a year's journal kept here (built when missing, ~11 min)")
    parser.add_argument("--child", choices=("minimal", "midi", "midi-file"), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--spawned", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        launch_child(args.child, args.db, args.spawned)
        return
    with scratch(args.dir) as tmp:
        db = Path(tmp) / "bench-midi.db"
        t0 = time.perf_counter()
        if args.journal:
            prepare_year(args.journal, db, args.coups)
        else:
            prepare(db, args.coups)
        print(f"journal prepared in {time.perf_counter() - t0:.1f} s: {db}")
        print("1. keystroke to screen (9 busy boxes, a full shoe of history, live journal)")
        samples = asyncio.run(keystroke_latency(db, args.coups))
        from tui_keys import print_latencies

        print_latencies(samples)
        print("2. launch to first usable screen (fresh interpreter each, headless 120x40)")
        from shared.midi.config import DEFAULT_MIDI_TABLE

        write_table_file(DEFAULT_MIDI_TABLE, db)
        measure_launches(__file__, [("midi", "midi-tui (shipped default table)"),
                                    ("midi-file", "midi-tui --table FILE (same table)")], db, args.launches)


if __name__ == "__main__":
    main()
