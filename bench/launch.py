"""Launch-to-first-usable-screen measurement shared by the two console benchmarks.

Each launch is a fresh interpreter (``script --child KIND``) timed from spawn to the first
frame on which the app is usable, and its peak resident size by then; the apps' launches
alternate with a minimal Textual app's (one ``Static``) so machine load falls on both alike. The project's bytecode is compiled
first, as an installed package has it (this sandbox sets PYTHONDONTWRITEBYTECODE, which
would otherwise make every launch compile the project's sources again).
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "tui_common", "madero_tui", "midi_tui")


def scratch(parent: Path | None) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder for a benchmark's journals and dumps: in ``parent`` (its ``--dir``,
    made if missing), else the system's."""
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryDirectory(dir=parent)


YEAR = 350_400
"""A year of a busy table's rounds: 60 an hour, 16 hours a day (issue 19's year)."""


def kept_journal(kept: Path, game: str, db: Path) -> None:
    """``--journal``: the history a benchmark measures on, kept at ``kept`` between runs, and
    this run's copy of it at ``db`` (the run's own rounds and launches leave ``kept`` as built).
    Built when missing, as ``bench_journal.py --year`` builds one: a year of clocked play
    (``YEAR`` rounds a minute apart, two shifts a day, each day closed), its last round left
    open; under a temporary name until whole, so an interrupted build is not taken for one."""
    from shared.journal import LOCK_SUFFIX, key_path

    if not kept.exists():
        from bench_journal import build_year  # the engine's imports: not in a launch child

        building = kept.with_name(kept.name + ".building")
        for stale in (building, key_path(building)):
            stale.unlink(missing_ok=True)
        print(f"building a year's journal ({YEAR:,} {game} rounds) at {kept} …", flush=True)
        build_year(building, YEAR, game)
        Path(f"{building}{LOCK_SUFFIX}").unlink(missing_ok=True)  # it names the build's writer, now gone
        key_path(building).rename(key_path(kept))
        building.rename(kept)
    shutil.copy(kept, db)
    shutil.copy(key_path(kept), key_path(db))
    # The copy's writes flushed now: the kernel writes dirty pages back ~30 s later, and a
    # measured key's fsync queued behind half a gigabyte of them took 314 ms.
    os.sync()


def compile_project(root: Path = ROOT) -> None:
    """``root``'s packages compiled, and its benchmarks: their children run with ``-m`` from
    their bytecode (a script run by its path is compiled at every run, a cost the minimal app's
    launch and the console's paid alike, which brought their ratio nearer 1); and each
    console's launch bundle written, as the README's install writes it (``tui_common.launch_bundle``;
    a tree from before it has none)."""
    for package in (*PACKAGES, "bench"):
        compileall.compile_dir(str(root / package), quiet=1)
    if (root / "tui_common" / "launch_bundle.py").exists():
        subprocess.run([sys.executable, "-m", "tui_common.launch_bundle"], check=True, cwd=root, capture_output=True)


def child_command(script: str | Path, *args: str) -> list[str]:
    """The command that runs ``script``'s child from its bytecode (``compile_project``); run it
    in the script's folder (``-m`` finds the module there)."""
    return [sys.executable, "-m", Path(script).stem, *args]


def peak_resident_kib() -> int:
    """This process's peak resident size so far, in KiB: Linux's VmHWM, which starts anew at
    exec (``ru_maxrss`` would not: it keeps the forking parent's, the benchmark's own)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise OSError("no VmHWM in /proc/self/status (the resident size is measured on Linux)")


def prepare_launch(app_module: str) -> None:
    """What a console's command does before it imports Textual (``cli.launch``): Python's
    cyclic collector held until the first frame, and the console's launch bundle served
    (``tui_common.launch_bundle.prepare_launch``; a tree from before the bundle only holds the
    collector)."""
    try:
        from tui_common.launch_bundle import prepare_launch as prepare
    except ImportError:
        from tui_common.collector import BetweenKeys

        BetweenKeys.hold_launch()
    else:
        prepare(app_module)


def run_to_first_usable_frame(app, usable: Callable[[], bool], spawned: float, size: tuple[int, int]) -> None:
    """In the child: run ``app`` headless, print seconds from spawn to its first usable frame
    and the process's peak resident size (KiB) by then."""
    original = app._display
    done: list[float] = []

    def display(screen, renderable):
        if renderable is not None and not done and usable():
            done.append(time.time())
            done.append(peak_resident_kib())
            app.exit()
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    app.run(headless=True, size=size)
    print(f"{done[0] - spawned:.6f} {done[1]}")


def minimal_app():
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Minimal(App):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    return Minimal()


def launch_once(script: str, kind: str, db: Path) -> tuple[float, int]:
    """One launch of ``script``'s child ``kind`` (``child_command``): seconds to its first usable
    frame and its peak resident size (KiB) by then."""
    spawned = time.time()
    result = subprocess.run(
        child_command(script, "--child", kind, "--db", str(db), "--spawned", repr(spawned)),
        capture_output=True, text=True, cwd=Path(script).parent,
    )
    if result.returncode:
        raise SystemExit(f"launch of {kind} by {script} failed (exit {result.returncode}):\n{result.stderr}")
    seconds, kib = result.stdout.strip().splitlines()[-1].split()
    return float(seconds), int(kib)


def table_file(db: Path) -> Path:
    """Where a launch "with a table file" finds its table (beside the journal)."""
    return db.parent / "table.toml"


def write_table_file(config, db: Path) -> Path:
    """The shipped default table written out as a casino's TOML table file."""
    lines = []
    for name, value in asdict(config).items():
        if value is None:
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        # Amounts are TOML numbers: a table file refuses an amount written as a string.
        bare = isinstance(value, bool | int | Decimal)
        lines.append(f"{name} = {text}" if bare else f'{name} = "{text}"')
    path = table_file(db)
    path.write_text("\n".join(lines) + "\n")
    return path


def measure_launches(script: str, apps: list[tuple[str, str]], db: Path, n: int) -> None:
    """Print the minimal app's median launch and each app's (``apps``: child kind, label),
    every run, the ratios against the 1.25× target, and the resident sizes against 1.3×."""
    compile_project()
    kinds = ["minimal", *(kind for kind, _ in apps)]
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    resident: dict[str, list[int]] = {kind: [] for kind in kinds}
    for _ in range(n):
        for kind in kinds:
            seconds, kib = launch_once(script, kind, db)
            times[kind].append(seconds)
            resident[kind].append(kib)
    runs = lambda xs: " ".join(f"{x * 1000:.0f}" for x in xs)  # noqa: E731
    m_min = statistics.median(times["minimal"])
    print("  (project bytecode compiled first, as installed; launches alternate with the minimal app's)")
    print(f"  {'minimal Textual app:':<38} median {m_min * 1000:.0f} ms  (runs: {runs(times['minimal'])})")
    for kind, label in apps:
        m_app = statistics.median(times[kind])
        print(f"  {label + ':':<38} median {m_app * 1000:.0f} ms  (runs: {runs(times[kind])})")
        print(f"  {'':<38} ratio {m_app / m_min:.2f}×   (target: within 1.25×)")
    r_min = statistics.median(resident["minimal"])
    print(f"  resident at the first frame (peak RSS, median): minimal Textual app {r_min / 1024:.1f} MiB")
    for kind, label in apps:
        r_app = statistics.median(resident[kind])
        print(f"    {label}: {r_app / 1024:.1f} MiB = {r_app / r_min:.2f}×   (target: within 1.3×)")
