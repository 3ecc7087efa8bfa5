"""Keys typed into a console's table screen, timed to the frames they cause: shared by the
two console benchmarks.

A relaunched console asks the croupier on duty for the PIN at the first key, so
``TypedTable.confirm_duty`` types it (unmeasured) before anything is timed. Each measured
key then must land on the table screen and be taken — no refusal, no "this key does
nothing now", a frame drawn — or the benchmark stops with an assertion: a benchmark that
typed into another screen would print that screen's figures.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from textual import events

# A key whose effect has not drawn a frame by then was not taken (the console draws within
# tens of milliseconds even on a loaded machine).
KEY_TIMEOUT = 5.0


class TypedTable:
    """``app`` under ``pilot``: its frames timed (``App._display`` wrapped: each frame is
    composed and serialised to terminal output, as a real driver would; the headless driver
    skips only the write), every refusal or unbound key recorded."""

    def __init__(self, app: Any, pilot: Any) -> None:
        self.app = app
        self.pilot = pilot
        self.frames: list[float] = []
        self.refused: list[str] = []
        self.samples: list[tuple[str, float, float]] = []
        """Per key: its kind, the first frame after it, the last before the app went idle (s)."""
        original_display = app._display
        original_error, original_unbound = app.show_error, app.unbound_key

        def display(screen: Any, renderable: Any) -> Any:
            if renderable is not None:
                if hasattr(renderable, "render_segments"):
                    renderable.render_segments(app.console)
                self.frames.append(time.perf_counter())
            return original_display(screen, renderable)

        def show_error(error: Any) -> None:
            self.refused.append(error.message("en"))
            original_error(error)

        def unbound_key(key: str, character: str | None) -> None:
            self.refused.append(f"unbound key {key!r}")
            original_unbound(key, character)

        app._display = display
        app.show_error = show_error
        app.unbound_key = unbound_key

    async def confirm_duty(self, pin: str) -> None:
        """A relaunch: the first key asks the croupier's PIN; type it (not timed)."""
        app = self.app
        await self.pilot.pause()
        assert app.screen is app.table_screen, f"the table screen first, not {app.screen!r}"
        if app.duty_confirmed:
            return
        await self.pilot.press("escape")  # any key but F1-F4 asks for the PIN
        assert app.screen.id == "duty-pin", f"the PIN confirmation, not {app.screen!r}"
        await self.pilot.press(*pin, "enter")
        deadline = time.perf_counter() + KEY_TIMEOUT * 4  # the PIN's scrypt, in a worker
        while not app.duty_confirmed and time.perf_counter() < deadline:
            await self.pilot.pause(0.01)
        await self.pilot.pause()
        assert app.duty_confirmed and app.screen is app.table_screen, "the croupier's PIN confirmed"
        self.refused.clear()

    async def press(self, key: str, kind: str = "") -> None:
        """One key into the table screen, timed; it must be taken and draw a frame."""
        app = self.app
        assert app.screen is app.table_screen, f"typing {key!r} into {app.screen!r}, not the table"
        n = len(self.frames)
        t0 = time.perf_counter()
        app.post_message(events.Key(key, key if len(key) == 1 else None))
        while len(self.frames) == n:
            assert time.perf_counter() - t0 < KEY_TIMEOUT, f"key {key!r} drew nothing"
            await asyncio.sleep(0)
        await self.pilot.pause()
        assert not self.refused, f"key {key!r} not taken: {self.refused}"
        assert app.screen is app.table_screen, f"key {key!r} left the table for {app.screen!r}"
        self.samples.append((kind or ("digit" if key.isdigit() else key), self.frames[n] - t0, self.frames[-1] - t0))


def percentile(sorted_ms: list[float], p: float) -> float:
    """The value below which a fraction ``p`` of the samples lie (nearest rank)."""
    return sorted_ms[min(len(sorted_ms) - 1, int(len(sorted_ms) * p))]


def print_latencies(samples: list[tuple[str, float, float]]) -> None:
    """Median, p90, p99 and max of the first and the settled frame, then the settled by kind."""
    for label, column in (("first frame", 1), ("settled (last frame of the key's effect)", 2)):
        ms = sorted(sample[column] * 1000 for sample in samples)
        print(f"  {label}: keys {len(ms)}: median {statistics.median(ms):.1f} ms · p90 {percentile(ms, 0.9):.1f} ms"
              f" · p99 {percentile(ms, 0.99):.1f} ms · max {ms[-1]:.1f} ms")
    print("  (target: the settled frame's p99 within one 60 Hz frame, 16.7 ms)")
    by_kind: dict[str, list[float]] = {}
    for kind, _, settled in samples:
        by_kind.setdefault(kind, []).append(settled * 1000)
    print("  settled, by key:")
    for kind, values in sorted(by_kind.items()):
        values.sort()
        print(f"    {kind:<12} n={len(values):<4} median {statistics.median(values):.1f} ms"
              f" · p99 {percentile(values, 0.99):.1f} ms · max {values[-1]:.1f} ms")
