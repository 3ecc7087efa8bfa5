"""Midi console benchmarks: keystroke-to-screen latency and launch time. Prints numbers only.

    .venv/bin/python bench/bench_midi_tui.py [--coups 10] [--launches 7] [--dir DIR]

1. Keystroke to screen: a live table (real journal file, synchronous writes) with a shoe
   played up to its last coups through the engine, 9 busy boxes, then whole coups typed
   as a croupier would (select a box, bet amounts, ctrl+r, «No va más», one key per card,
   enter to settle). For each key: the time from handing the key to the app until the
   next frame is composed and serialised to terminal output (``App._display`` is wrapped:
   the headless driver skips the write itself, nothing else). Target: median < 16 ms.
2. Launch to first usable screen: a fresh interpreter per launch, median wall time from
   spawn until the first frame of the table (the journal has a full shoe and an open
   shift, so no sign-in), against a minimal Textual app (one Static) measured the same
   way in the same run. Target: within 1.5×. Twice: on the shipped default
   table, and with the same table read from a TOML file (``--table``), which pydantic reads.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from launch import measure_launches, minimal_app, run_to_first_usable_frame, table_file, write_table_file  # noqa: E402  (bench/ helper)

SIZE = (120, 40)


def prepare(db: Path, coups_left: int) -> None:
    """A live journal: staff, an open shift, a shoe played until ~``coups_left`` coups remain."""
    from shared.journal import Journal
    from shared.midi.table import MidiTable
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry

    journal = Journal(db, "MPB-02", "midi")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    m = MidiTable(journal, staff)
    m.open_shift(Credentials("C1", "5678"))
    m.new_shoe()
    m.key_card("3")
    m.confirm_burn()
    m.assign_sabot(1)
    place_busy_boxes(m)
    while m.shoe.cards_left > coups_left * 5 + 12:
        if not m.bets:
            m.repeat_last_bets()
        m.no_va_mas()
        while m.card_called_for:
            m.key_card(next_rank(m))
        m.settle()
    journal.close()


def place_busy_boxes(m) -> None:
    from shared.midi.payouts import BetKind

    for box in range(1, 10):
        m.place_bet(box, BetKind.PUNTO if box % 2 else BetKind.BANCA, 20 * box)
        if box % 3 == 0:
            m.place_bet(box, BetKind.TIE, 10)


def next_rank(m) -> str:
    left = m.shoe.left
    return max(left, key=lambda r: left[r]).char


async def keystroke_latency(db: Path, coups: int) -> list[tuple[str, float]]:
    from textual import events

    from midi_tui.app import make_app
    from shared.midi.table import Phase
    from tui_common.options import LaunchOptions

    app = make_app(LaunchOptions(db=db))
    frames: list[float] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            # What a real driver would do with the frame: serialise it to terminal output.
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            frames.append(time.perf_counter())
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    samples: list[tuple[str, float]] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.midi
        assert app.screen is app.table_screen, app.screen

        async def press(key: str, char: str | None = None) -> None:
            n = len(frames)
            t0 = time.perf_counter()
            app.post_message(events.Key(key, char if char is not None else (key if len(key) == 1 else None)))
            # A key that changes nothing on screen produces no frame: no sample then.
            while len(frames) == n and time.perf_counter() - t0 < 0.5:
                await asyncio.sleep(0)
            if len(frames) > n:
                samples.append((key, frames[n] - t0))
            await pilot.pause()

        for _ in range(coups):
            if m.phase is not Phase.BETS or m.shoe.cards_left < 12:
                break
            if not m.bets:
                await press("ctrl+r")
            for key in ("4", "p", "1", "2", "0", "enter", "4", "p", "8", "0", "enter"):
                await press(key)
            await press("n")
            while m.card_called_for:
                await press(next_rank(m).lower())
            await press("enter")
        history = len(m.history)
    print(f"  shoe history when measured: {history} coups; boxes busy: 9")
    return samples


def launch_child(kind: str, db: str, spawned: float) -> None:
    """Runs in a fresh interpreter: build the app, stop at its first usable frame."""
    if kind == "minimal":
        run_to_first_usable_frame(minimal_app(), lambda: True, spawned, SIZE)
        return
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
    parser.add_argument("--child", choices=("minimal", "midi", "midi-file"), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--spawned", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        launch_child(args.child, args.db, args.spawned)
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        db = Path(tmp) / "bench-midi.db"
        t0 = time.perf_counter()
        prepare(db, args.coups)
        print(f"journal prepared in {time.perf_counter() - t0:.1f} s: {db}")
        print("1. keystroke to screen (9 busy boxes, a full shoe of history, live journal)")
        samples = asyncio.run(keystroke_latency(db, args.coups))
        ms = sorted(d * 1000 for _, d in samples)
        print(f"  keys {len(ms)}: median {statistics.median(ms):.1f} ms · p90 {ms[int(len(ms) * 0.9)]:.1f} ms"
              f" · max {ms[-1]:.1f} ms   (target: median < 16 ms)")
        by_kind: dict[str, list[float]] = {}
        for key, d in samples:
            kind = "card" if key in "a23456789tjqk" and len(key) == 1 else "digit" if key.isdigit() else key
            by_kind.setdefault(kind, []).append(d * 1000)
        for kind, values in sorted(by_kind.items()):
            print(f"    {kind:<8} n={len(values):<4} median {statistics.median(values):.1f} ms")
        print("2. launch to first usable screen (fresh interpreter each, headless 120x40)")
        from shared.midi.config import DEFAULT_MIDI_TABLE

        write_table_file(DEFAULT_MIDI_TABLE, db)
        measure_launches(__file__, [("midi", "midi-tui (shipped default table)"),
                                    ("midi-file", "midi-tui --table FILE (same table)")], db, args.launches)


if __name__ == "__main__":
    main()
