"""Launch before and after a change, in one run: each tree's own benchmark child, alternating
with the minimal Textual app's, so machine load falls on all three alike.

    git archive BASE | tar -x -C /tmp/before
    .venv/bin/python bench/launch_pair.py /tmp/before madero|midi [--launches 7] [--dir DIR] [--journal PATH]

BEFORE is a copy of the project at the commit to compare with (its ``bench/`` scripts put their
own root first on ``sys.path``, so its code is what they launch). The journal is built once, by
this tree's benchmark (Madero: ``--rounds`` finished rounds; Midi: a shoe played to its last ten
coups; with ``--journal``, a year of play kept at PATH, as the benchmarks' own ``--journal``),
and both trees launch on it, with the shipped table and with a table file. Prints the
median wall time to the first usable frame and the peak resident size by then, each against the
minimal app's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from launch import ROOT, compile_project, launch_once, scratch, write_table_file  # noqa: E402  (bench/ helper)


def _journal(game: str, db: Path, rounds: int, kept: Path | None) -> None:
    if game == "madero":
        import bench_madero_tui
        from shared.madero.config import DEFAULT_MADERO_TABLE as table

        if kept:
            bench_madero_tui.prepare_year(kept, db)
        else:
            bench_madero_tui.prepare(db, rounds)
    else:
        import bench_midi_tui
        from shared.midi.config import DEFAULT_MIDI_TABLE as table  # type: ignore[assignment]

        if kept:
            bench_midi_tui.prepare_year(kept, db, 10)
        else:
            bench_midi_tui.prepare(db, 10)
    write_table_file(table, db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path, help="a copy of the project at the commit to compare with")
    parser.add_argument("game", choices=("madero", "midi"))
    parser.add_argument("--launches", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=10000, help="Madero: finished rounds in the journal")
    parser.add_argument("--dir", type=Path, help="where the journal goes (default a temporary directory)")
    parser.add_argument("--journal", type=Path, help="launch on a year's journal kept here (built when missing)")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT}
    for tree in trees.values():  # bytecode as an installed package has it
        compile_project(tree)
    with scratch(args.dir) as tmp:
        db = Path(tmp) / f"bench-{args.game}.db"
        _journal(args.game, db, args.rounds, args.journal)
        runs = [("minimal", "after", "minimal Textual app")] + [
            (kind, which, f"{which}: {args.game}-tui{' --table FILE' if kind.endswith('-file') else ''}")
            for kind in (args.game, f"{args.game}-file") for which in trees]
        times: dict[str, list[float]] = {label: [] for *_, label in runs}
        resident: dict[str, list[int]] = {label: [] for *_, label in runs}
        for _ in range(args.launches):
            for kind, which, label in runs:
                tree = trees[which]
                seconds, kib = launch_once(str(tree / "bench" / f"bench_{args.game}_tui.py"), kind, db)
                times[label].append(seconds)
                resident[label].append(kib)
    base_time = statistics.median(times["minimal Textual app"])
    base_size = statistics.median(resident["minimal Textual app"])
    print(f"  launches alternating, {args.launches} each; before = {trees['before']}")
    for *_, label in runs:
        median, size = statistics.median(times[label]), statistics.median(resident[label])
        print(f"  {label + ':':<34} median {median * 1000:4.0f} ms = {median / base_time:.2f}×"
              f"   resident {size / 1024:5.1f} MiB = {size / base_size:.2f}×"
              f"   (runs: {' '.join(f'{t * 1000:.0f}' for t in times[label])})")
    print("  (targets: launch within 1.25×, resident within 1.3× of the minimal app's)")


if __name__ == "__main__":
    main()
