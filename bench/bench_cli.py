"""Supervisor tools' speed: ``madero-tui hand --batch`` hands per minute, odds run times.

Run: ``.venv/bin/python bench/bench_cli.py`` (prints numbers; asserts nothing).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

HANDS = 100_000


def random_hands(n: int, rng: random.Random) -> str:
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    return "".join(" ".join(rng.sample(deck, 7)) + "\n" for _ in range(n))


def timed(cmd: list[str], stdin: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    lines = random_hands(HANDS, random.Random(1))
    seconds = timed([sys.executable, "-m", "madero_tui.cli", "hand", "--batch"], lines)
    print(f"madero-tui hand --batch: {HANDS:,} seven-card hands in {seconds:.2f} s "
          f"= {HANDS / seconds * 60:,.0f} hands/minute (target ≥ 100,000)")
    for label, cmd in [
        ("midi-tui odds --decks 8", [sys.executable, "-m", "midi_tui.cli", "odds", "--decks", "8", "--json"]),
        ("midi-tui odds --decks 6", [sys.executable, "-m", "midi_tui.cli", "odds", "--decks", "6", "--json"]),
        ("madero-tui odds", [sys.executable, "-m", "madero_tui.cli", "odds", "--json"]),
    ]:
        print(f"{label}: {timed(cmd):.2f} s wall, process start included (target < 1 s for midi)")


if __name__ == "__main__":
    main()
