"""Instructions each key of a console costs, counted by callgrind: figures that do not move with
the machine's load, where the keystroke benchmarks' milliseconds swing by a third between runs on
a shared VM (issue 32). Prints numbers only.

    .venv/bin/python bench/key_instructions.py [--game madero|midi] [--rounds 300] [--before DIR] [--dir DIR]

Builds a journal (``--rounds`` finished Madero rounds, or a Midi shoe played to its last coups),
then types the keystroke benchmark's keys (``bench_madero_tui``: one round of 7 busy boxes;
``bench_midi_tui``: one coup of 9) into the console under ``valgrind --tool=callgrind``, each key
between two calls of ``os.getppid()``, at which callgrind dumps its counts
(``--dump-before=os_getppid``): each key's instructions from the moment it is handed to the app
until the app is idle again, its frames included. What a table loads in a thread a second after
start (``tui_common.app.PRELOAD_SECONDS``: the poker evaluator, the rest of the app's ``PRELOAD``,
the records' ``__init__``, the CSS variables' tokens, Textual's parse of the keys' actions) is
loaded as the app mounts, before the first key: here it would land on whichever key ran then.
Madero's header clock is stopped in the counted console: its tick (every 15 s of wall
time, a few keys under valgrind) redrew the header on whichever key ran then, ~10 M
instructions more on a key counted once (the settlement, «No va más»). So is the collector's
tick (``tui_common.collector``, twice a second of wall time: under valgrind, on every key):
~2 M instructions a key (Madero's 123 keys: 3,434 M with it, 3,167 M without), which a console
at a table spends twice a second, not once a key; with it stopped no collection runs in the
counted keys, as none runs under keys typed without a pause.

The counted child runs with ``PYTHONHASHSEED=0`` (since 2026-12-06's second session; the
figures before it were counted with Python's random hash seed, within ±0.5 % of each other).

``--before DIR``: the same keys, on the same journal, typed into another tree too (a ``git
archive`` of an earlier commit), one after the other in this run. valgrind must be installed
(``apt-get install valgrind``); each tree takes a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(root: Path, game: str, db: Path, out: Path) -> None:
    """Runs in the counted interpreter: ``root``'s console, the keys marked."""
    sys.path[:0] = [str(root / "bench"), str(root)]
    os.chdir(root)
    import tui_keys

    bench = __import__(f"bench_{game}_tui")
    import shared.poker.evaluator  # noqa: F401  (loaded before the keys: see the module's doc)

    import tui_common.app as table_app

    # What a table loads a second after start, loaded before the keys (and not in a thread).
    if hasattr(table_app.TableApp, "load_later"):
        table_app.PRELOAD_SECONDS = 0.001  # type: ignore[attr-defined]  (a timer of 0 divides by it)
        table_app.TableApp._preload = table_app.TableApp.load_later  # type: ignore[attr-defined,method-assign]
    elif hasattr(table_app, "_load_later"):  # a tree from before the preload was a method
        table_app.PRELOAD_SECONDS = 0.001  # type: ignore[attr-defined]
        table_app.TableApp._preload = (  # type: ignore[attr-defined]
            lambda self: table_app._load_later(self.PRELOAD, self.stylesheet))  # type: ignore[attr-defined]
    if game == "madero":
        import madero_tui.app

        madero_tui.app.CLOCK_SECONDS = 10**6  # type: ignore[misc]  (the clock stopped: see the module's doc)
    try:
        import tui_common.collector
    except ImportError:  # a tree from before the collector ran between keys
        pass
    else:
        tui_common.collector.QUIET = 10**6  # its tick stopped: see the module's doc

    kinds: list[str] = []
    press = tui_keys.TypedTable.press

    async def marked(self: tui_keys.TypedTable, key: str, kind: str = "") -> None:
        os.getppid()
        await press(self, key, kind)
        os.getppid()
        kinds.append(self.samples[-1][0])

    tui_keys.TypedTable.press = marked  # the class each tree's benchmark types with
    asyncio.run(bench.keystroke_latency(db, 1))
    (out / "kinds.json").write_text(json.dumps(kinds))


def dump_parts(out: Path) -> list[int]:
    """Each of callgrind's dumps in ``out`` (``cg.*``), its instructions in the order of its
    part: the dumps ``--dump-before=os_getppid`` wrote at each mark, then the one at exit."""
    parts: dict[int, int] = {}
    for dump in out.glob("cg.*"):
        text = dump.read_text()
        part = re.search(r"^part: (\d+)$", text, re.M)
        totals = re.search(r"^totals: (\d+)$", text, re.M)
        if part and totals:
            parts[int(part.group(1))] = int(totals.group(1))
    return [parts[n] for n in sorted(parts)]


def counted_run(script: str, args: list[str], root: Path, db: Path, out: Path) -> None:
    """``script``'s counted child (``args``) on a copy of the journal ``db`` in ``out``, run in
    ``root`` under callgrind, a dump at each ``os.getppid()`` mark, with ``PYTHONHASHSEED=0``."""
    from launch import child_command

    out.mkdir(parents=True)
    copy = out / db.name
    for suffix in ("", ".key"):
        shutil.copy(f"{db}{suffix}", f"{copy}{suffix}")
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-before=os_getppid", f"--callgrind-out-file={out}/cg.%p",
         *child_command(script, *args, "--db", str(copy))],
        check=True, capture_output=True, cwd=Path(script).parent, env={**os.environ, "PYTHONHASHSEED": "0"},
    )


def key_counts(out: Path) -> list[tuple[str, int]]:
    """Each key's kind and instructions, from callgrind's dumps in ``out``: the first dump is the
    start, then a key and the benchmark's own step to the next one, in turn."""
    kinds = json.loads((out / "kinds.json").read_text())
    keys = dump_parts(out)[1:1 + 2 * len(kinds):2]
    if len(keys) != len(kinds):
        raise SystemExit(f"{len(kinds)} keys typed, {len(keys)} counted in {out}")
    return list(zip(kinds, keys, strict=True))


def count(root: Path, game: str, db: Path, out: Path) -> list[tuple[str, int]]:
    """The keys typed into ``root``'s console under callgrind (a copy of the journal ``db``)."""
    counted_run(__file__, ["--child", str(root), "--game", game, "--out", str(out)], root, db, out)
    return key_counts(out)


def summary(counts: list[tuple[str, int]]) -> dict[str, list[float]]:
    by_kind: dict[str, list[float]] = {}
    for kind, n in counts:
        by_kind.setdefault(kind, []).append(n / 1e6)
    return by_kind


def report(runs: dict[str, list[tuple[str, int]]]) -> None:
    """Per key kind, each tree's median and maximum (millions of instructions), then all keys."""
    labels = list(runs)
    by_label = {label: summary(counts) for label, counts in runs.items()}
    print(f"  {'key':<15}" + "".join(f"{label + ': median · max':>30}" for label in labels))
    for kind in by_label[labels[0]]:
        row = f"  {kind:<15}"
        for label in labels:
            values = by_label[label].get(kind, [0.0])
            row += f"{f'n={len(values)}  {statistics.median(values):7.1f} · {max(values):7.1f} M':>30}"
        print(row)
    from tui_keys import percentile  # here: the counted child imports the tree's own

    for label in labels:
        values = sorted(n / 1e6 for _, n in runs[label])
        print(f"  {label}: {len(values)} keys: median {statistics.median(values):.1f} M"
              f" · p90 {percentile(values, 0.9):.1f} M · p99 {percentile(values, 0.99):.1f} M"
              f" · max {values[-1]:.1f} M · all {sum(values):,.0f} M")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("madero", "midi"), default="madero")
    parser.add_argument("--rounds", type=int, default=300, help="finished Madero rounds in the journal")
    parser.add_argument("--before", type=Path, help="another tree, counted on the same journal first")
    parser.add_argument("--dir", type=Path, help="where the journal and the dumps go (default a temporary directory)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.game, args.db, args.out)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
    bench = __import__(f"bench_{args.game}_tui")
    from launch import scratch

    with scratch(args.dir) as tmp:
        db = Path(tmp) / f"bench-{args.game}.db"
        bench.prepare(db, args.rounds if args.game == "madero" else 1)
        trees = {**({"before": args.before.resolve()} if args.before else {}), "this tree": ROOT}
        runs = {label: count(tree, args.game, db, Path(tmp) / label.replace(" ", "-")) for label, tree in trees.items()}
    print(f"instructions per key, {args.game}: from the key handed to the app to the app idle, its frames included")
    report(runs)


if __name__ == "__main__":
    main()
