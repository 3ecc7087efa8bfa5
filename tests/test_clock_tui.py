"""The croupier is shown a clock set back (issue 29 §4), on both games' table screens: the
journal records the step back before the entry it stamps, and the console says so once."""

from __future__ import annotations

from test_madero_tui import keys as madero_keys
from test_madero_tui import live_app as madero_app
from test_midi_tui import bet, sign_in, start_shoe
from test_midi_tui import live_app as midi_app
from tui_helpers import SIZE, aio

from tui_common.screens.notice import NoticeScreen

BACK = "2020-01-01T00:00:00.000000+00:00"
"""A time before every entry the tests' tables wrote (by the machine's clock)."""


def notice_text(app) -> str:
    screen = app.screen
    assert isinstance(screen, NoticeScreen) and screen.id == "clock-notice", screen
    return f"{screen.query_one('.dialog-title').render()} {screen.query_one('.dialog-body').render()}"


@aio
async def test_madero_shows_the_clock_set_back_once(tmp_path):
    app = madero_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.engine.journal._clock = lambda: BACK
        await madero_keys(pilot, "a", "10", "enter")
        step = app.engine.journal.last_event_of("clock_corrected")
        assert step is not None and step.payload["now"] == BACK
        said = notice_text(app)
        assert "Reloj de la mesa corregido" in said and "a 2020-01-01 00:00:00 UTC" in said
        assert f"(entrada #{step.seq})" in said
        await madero_keys(pilot, "enter")
        assert app.screen is app.table_screen and app.engine.boxes[1].ante == 10
        await madero_keys(pilot, "b", "5", "enter")  # the same time again: nothing more to say
        assert app.screen is app.table_screen


@aio
async def test_midi_shows_the_clock_set_back(tmp_path):
    app = midi_app(tmp_path, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await sign_in(pilot)
        await start_shoe(pilot)
        app.midi.journal._clock = lambda: BACK
        await bet(pilot, 1, "p", 100)
        said = notice_text(app)
        assert "Table clock corrected" in said and "to 2020-01-01 00:00:00 UTC" in said
        await pilot.press("enter")
        assert app.screen is app.table_screen
