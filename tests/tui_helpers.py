"""What the Textual Pilot tests share: the screen size, running an async test, and keys typed
faster than the console answers.

``pilot.press`` waits for the app after each key, so it cannot show what a fast croupier
(or a barcode-style keyboard wedge) does: the keys of "3 a 30 enter" all arrive before the
``a`` has opened its amount entry (``type_in_one_burst``).
"""

from __future__ import annotations

import asyncio
import functools

from textual import events

SIZE = (120, 40)


def aio(fn):
    """Run an async test body with asyncio (the suite has no async pytest plugin)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


NAMED = {"enter": "\r", "escape": "\x1b", "backspace": "\x7f"}


def post_burst(app, *tokens: str) -> None:
    """Queue every key of ``tokens`` at once (named keys as they are, others char by char)."""
    for token in tokens:
        for key in [token] if token in NAMED else list(token):
            app.post_message(events.Key(key, NAMED.get(key, key)))


async def type_in_one_burst(app, pilot, *tokens: str) -> None:
    post_burst(app, *tokens)
    for _ in range(3):
        await pilot.pause()

OPENING = "1000x100 100x100 25x200 5x200"
"""The tray a live console's table opens with in the tests (a live table takes bets only with its tray open)."""


def layouts_of(widget) -> list[str]:
    """The texts ``widget`` (an amount entry) held each time it asked for a layout of the screen."""
    laid_out: list[str] = []
    original = widget.refresh

    def refresh(*regions, layout=False, **kw):
        if layout:
            laid_out.append(widget.text)
        return original(*regions, layout=layout, **kw)

    widget.refresh = refresh
    return laid_out


def reflows_of(screen) -> list[object]:
    """One item each time ``screen`` lays itself out (Textual's public layout signal)."""
    reflows: list[object] = []
    screen.screen_layout_refresh_signal.subscribe(screen, reflows.append)
    return reflows


def frames_of(app) -> list[set[str]]:
    """What each frame ``app`` draws repaints: the ids of the widgets it redraws (the benchmarks'
    frame hook, ``App._display``)."""
    frames: list[set[str]] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            frames.append({widget.id or type(widget).__name__ for widget in screen._dirty_widgets})
        return original(screen, renderable)

    app._display = display
    return frames
