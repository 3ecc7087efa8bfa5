"""Instructions each console's launch costs to its first usable frame, counted by callgrind and
split in phases, beside the minimal Textual app's: figures that do not move with the load,
where the launch benchmarks' milliseconds swing by a third between runs on a shared VM
(issue 32). Prints numbers only.

    .venv/bin/python bench/launch_instructions.py [--rounds 10000] [--before DIR] [--dir DIR]

Builds the journals the console benchmarks launch on (``--rounds`` finished Madero rounds; a Midi
shoe ten coups from its end), compiles each tree's bytecode (as an installed package has it),
then launches the minimal app and each console (with its shipped table, then with the same table
as a table file) under ``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``, the child
stopped at its first usable frame. ``os.getppid()`` marks split
the count (``--dump-before=os_getppid``): the interpreter and ``import textual.app,
textual.widgets``; the console's own imports; ``make_app``; the run to the first usable frame.
``--before DIR``: another tree (a ``git archive`` of an earlier commit) counted the same way.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHASES = ("interpreter + Textual", "the console's imports", "make_app", "run to the first usable frame")
SIZE = (120, 40)


def child(root: Path, kind: str, db: Path, table: Path | None) -> None:
    """Runs in the counted interpreter: ``root``'s console (or the minimal app) to its first
    usable frame, each phase ended by a mark; ``table``: the console's table file."""
    sys.path[:0] = [str(root / "bench"), str(root)]
    os.chdir(root)
    if kind != "minimal":  # what the console's command does first (``cli.launch``)
        try:
            from tui_common.launch_bundle import prepare_launch
        except ImportError:  # a tree from before the launch bundle
            from tui_common.collector import BetweenKeys

            getattr(BetweenKeys, "hold_launch", lambda: None)()  # a tree from before the hold has none
        else:
            prepare_launch(f"{kind}_tui.app")
    import textual.app
    import textual.widgets  # noqa: F401

    os.getppid()
    from launch import minimal_app

    if kind == "minimal":
        os.getppid()
        app = minimal_app()
        os.getppid()
        usable = lambda: True  # noqa: E731
    elif kind == "madero":
        from madero_tui.app import make_app
        from madero_tui.widgets.prompt import PromptLine
        from tui_common.options import LaunchOptions

        os.getppid()
        app = make_app(LaunchOptions(db=db, table=table))
        os.getppid()

        def usable() -> bool:
            screen = app.table_screen
            return app.screen is screen and bool(getattr(screen.query_one(PromptLine), "text", ""))
    else:
        from midi_tui.app import make_app as make_midi_app
        from tui_common.options import LaunchOptions

        os.getppid()
        app = make_midi_app(LaunchOptions(db=db, table=table))
        os.getppid()
        usable = lambda: getattr(app.table_screen, "ready", False) and app.screen is app.table_screen  # noqa: E731
    original = app._display

    def display(screen, renderable):  # type: ignore[no-untyped-def]
        if renderable is not None and usable():
            os.getppid()
            print("first usable frame", flush=True)
            os._exit(0)
        return original(screen, renderable)

    app._display = display
    app.run(headless=True, size=SIZE)
    raise SystemExit(f"{kind} ended before its first usable frame")


def phase_counts(out: Path) -> list[int]:
    """The four phases' instructions, from callgrind's dumps in ``out``: one dump at each mark
    (the first from the interpreter's start), then the last, after the first usable frame's
    mark, which is not counted (the child exits there)."""
    from key_instructions import dump_parts  # not in the counted child: its imports would count

    counted = dump_parts(out)
    if len(counted) != len(PHASES) + 1:
        raise SystemExit(f"{len(PHASES) + 1} parts expected, {len(counted)} counted in {out}")
    return counted[:len(PHASES)]


def count(root: Path, kind: str, db: Path, out: Path, table: Path | None = None) -> list[int]:
    from key_instructions import counted_run

    counted_run(__file__, ["--child", str(root), "--kind", kind, *(["--table", str(table)] if table else [])],
                root, db, out)
    return phase_counts(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10000, help="finished Madero rounds in the journal")
    parser.add_argument("--before", type=Path, help="another tree, counted the same way")
    parser.add_argument("--dir", type=Path, help="where the journals and the dumps go (default a temporary directory)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--kind", choices=("minimal", "madero", "midi"), help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--table", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.kind, args.db, args.table)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
    import bench_madero_tui
    import bench_midi_tui
    from launch import child_command, compile_project, scratch, write_table_file
    from shared.madero.config import DEFAULT_MADERO_TABLE
    from shared.midi.config import DEFAULT_MIDI_TABLE

    trees = {"before": args.before.resolve()} if args.before else {}
    trees["this tree"] = ROOT
    with scratch(args.dir) as tmp:
        journals = {game: Path(tmp) / game / f"bench-{game}.db" for game in ("madero", "midi")}
        for journal in journals.values():
            journal.parent.mkdir()
        bench_madero_tui.prepare(journals["madero"], args.rounds)
        bench_midi_tui.prepare(journals["midi"], 10)
        # The shipped table written out as a table file, beside each journal, and launched on
        # once, uncounted: the counted launches are relaunches, which read the table the
        # journal recorded from these very bytes (as the launch benchmarks' are, but their first).
        tables = {"madero": write_table_file(DEFAULT_MADERO_TABLE, journals["madero"]),
                  "midi": write_table_file(DEFAULT_MIDI_TABLE, journals["midi"])}
        for root in trees.values():  # each tree's bytecode, as installed, and its benchmarks'
            compile_project(root)
        for game, journal in journals.items():
            subprocess.run(child_command(__file__, "--child", str(ROOT), "--kind", game, "--db", str(journal),
                                         "--table", str(tables[game])), check=True, capture_output=True, cwd=ROOT / "bench")
        phases = count(ROOT, "minimal", journals["midi"], Path(tmp) / "minimal")
        minimal = sum(phases)
        print("instructions to the first usable frame (millions): " + " · ".join(PHASES))
        print(f"  minimal Textual app: {' · '.join(f'{n / 1e6:,.0f}' for n in phases)} = {minimal / 1e6:,.0f} M")
        for game in ("madero", "midi"):
            for table in (None, tables[game]):
                for label, root in trees.items():
                    name = f"{game}{' --table FILE' if table else ''}, {label}"
                    phases = count(root, game, journals[game], Path(tmp) / name.replace(" ", "-"), table)
                    total = sum(phases)
                    print(f"  {name}: {' · '.join(f'{n / 1e6:,.0f}' for n in phases)} = {total / 1e6:,.0f} M,"
                          f" {total / minimal:.2f}× the minimal app (target: within 1.25×)")


if __name__ == "__main__":
    main()
