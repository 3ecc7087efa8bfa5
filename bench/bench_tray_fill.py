"""The tray-fill check a console makes after every command, on a long open tray. Prints numbers only.

    .venv/bin/python bench/bench_tray_fill.py [--shoes 5] [--dir DIR]

A live Midi table (``bench_midi_tui.prepare``: staff, shift, tray, a shoe played) plays
``--shoes`` more shoes on the same open tray (built without fsync), then takes 27 bets with
``synchronous=FULL``; after each it times the engine's ``tray_fill_due()`` (the incremental
fold of the open tray) and, beside it, the whole fold of that tray from its opening (what
the check read before), and asserts that both give the same ledger.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from shared.commands import can

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_midi_tui  # (bench/ helper, found through the path above)
from launch import scratch  # (bench/ helper)


def main() -> None:
    from shared.journal import Journal
    from shared.midi.config import DEFAULT_MIDI_TABLE
    from shared.midi.payouts import BetKind
    from shared.midi.table import MidiTable, Phase
    from shared.report import report_events
    from shared.staff import StaffRegistry
    from shared.tray import TRAY_EVENTS, tray_ledgers

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shoes", type=int, default=5, help="shoes played on the open tray before measuring")
    parser.add_argument("--dir", type=Path, help="where the journal goes (default a temporary directory)")
    args = parser.parse_args()
    with scratch(args.dir) as tmp:
        db = Path(tmp) / "bench-tray.db"
        bench_midi_tui.prepare(db, 2)
        journal = Journal(db, "MPB-02", "midi")
        m = MidiTable(journal, StaffRegistry(journal),
                      config=replace(DEFAULT_MIDI_TABLE, tray_fill_threshold=Decimal(1)))
        journal._conn.execute("PRAGMA synchronous=OFF")  # the build alone
        for _ in range(args.shoes):
            while m.phase not in (Phase.NO_SHOE, Phase.SHOE_END):
                if can(m.play.verify_shoe_exhausted):
                    m.play.shoe_exhausted()
                    continue
                if not m.bets:
                    m.play.repeat_last_bets()
                m.play.no_va_mas()
                while m.card_called_for:
                    m.play.key_card(bench_midi_tui.next_rank(m))
                m.play.settle()
            m.play.new_shoe()
            m.play.key_card("3")
            m.play.confirm_burn()
        journal._conn.execute("PRAGMA synchronous=FULL")
        m.tray.fill_due()
        whole: list[float] = []
        incremental: list[float] = []
        for _ in range(3):
            for box in range(1, 10):
                m.play.place_bet(box, BetKind.PUNTO if box % 2 else BetKind.BANCA, 10)
                t0 = time.perf_counter()
                with journal.read_view() as view:
                    [ledger] = tray_ledgers(report_events(view, m.codec, m.game, after=m._tray_opened_at - 1,
                                                          also=TRAY_EVENTS))
                whole.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                m.tray.fill_due()
                incremental.append(time.perf_counter() - t0)
                assert m.tray.ledger() == ledger, "the incremental fold is the whole one"
            m.play.no_va_mas()
            while m.card_called_for:
                m.play.key_card(bench_midi_tui.next_rank(m))
            m.play.settle()
        print(f"journal: {journal.last_seq:,} entries, the tray open since entry {m._tray_opened_at}")
        for label, values in (("whole fold of the open tray (before)", whole),
                              ("tray_fill_due(), incremental (after)", incremental)):
            print(f"  {label}: median {statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms"
                  f" ({len(values)} commands)")
        journal.close()


if __name__ == "__main__":
    main()
