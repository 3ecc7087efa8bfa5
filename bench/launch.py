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


def measure_launches(script: str, kind: str, label: str, db: Path, n: int) -> None:
    """Print both medians, every run, and the ratio against the 1.5× target."""
    compile_project()
    minimal, app = [], []
    for _ in range(n):
        minimal.append(_launch(script, "minimal", db))
        app.append(_launch(script, kind, db))
    m_min, m_app = statistics.median(minimal), statistics.median(app)
    runs = lambda xs: " ".join(f"{x * 1000:.0f}" for x in xs)  # noqa: E731
    print("  (project bytecode compiled first, as installed; launches alternate with the minimal app's)")
    print(f"  minimal Textual app: median {m_min * 1000:.0f} ms  (runs: {runs(minimal)})")
    print(f"  {label + ':':<20} median {m_app * 1000:.0f} ms  (runs: {runs(app)})")
    print(f"  ratio {m_app / m_min:.2f}×   (target: within 1.5×)")
