"""Launch-to-first-usable-screen measurement shared by the two console benchmarks.

Each launch is a fresh interpreter (``script --child KIND``) timed from spawn to the first
frame on which the app is usable; the apps' launches alternate with a minimal Textual app's
(one ``Static``) so machine load falls on both alike. The project's bytecode is compiled
first, as an installed package has it (this sandbox sets PYTHONDONTWRITEBYTECODE, which
would otherwise make every launch compile the project's sources again).
"""

from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "tui_common", "madero_tui", "midi_tui")


def compile_project() -> None:
    for package in PACKAGES:
        compileall.compile_dir(str(ROOT / package), quiet=1)


def run_to_first_usable_frame(app, usable: Callable[[], bool], spawned: float, size: tuple[int, int]) -> None:
    """In the child: run ``app`` headless, print seconds from spawn to its first usable frame."""
    original = app._display
    done: list[float] = []

    def display(screen, renderable):
        if renderable is not None and not done and usable():
            done.append(time.time())
            app.exit()
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    app.run(headless=True, size=size)
    print(f"{done[0] - spawned:.6f}")


def minimal_app():
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Minimal(App):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    return Minimal()


def _launch(script: str, kind: str, db: Path) -> float:
    spawned = time.time()
    result = subprocess.run(
        [sys.executable, script, "--child", kind, "--db", str(db), "--spawned", repr(spawned)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    return float(result.stdout.strip().splitlines()[-1])


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
        lines.append(f"{name} = {text}" if isinstance(value, bool | int) else f'{name} = "{text}"')
    path = table_file(db)
    path.write_text("\n".join(lines) + "\n")
    return path


def measure_launches(script: str, apps: list[tuple[str, str]], db: Path, n: int) -> None:
    """Print the minimal app's median and each app's (``apps``: child kind, label), every run,
    and the ratios against the 1.5× target."""
    compile_project()
    kinds = ["minimal", *(kind for kind, _ in apps)]
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(n):
        for kind in kinds:
            times[kind].append(_launch(script, kind, db))
    runs = lambda xs: " ".join(f"{x * 1000:.0f}" for x in xs)  # noqa: E731
    m_min = statistics.median(times["minimal"])
    print("  (project bytecode compiled first, as installed; launches alternate with the minimal app's)")
    print(f"  {'minimal Textual app:':<34} median {m_min * 1000:.0f} ms  (runs: {runs(times['minimal'])})")
    for kind, label in apps:
        m_app = statistics.median(times[kind])
        print(f"  {label + ':':<34} median {m_app * 1000:.0f} ms  (runs: {runs(times[kind])})")
        print(f"  {'':<34} ratio {m_app / m_min:.2f}×   (target: within 1.5×)")
